/*===- lib/rewrite/rng.c - rng=replay: implicit draws -> seed + generator --===*
 *
 * With the option rng=replay (docs/contract.md, "Randomness"), before the
 * import, every random op of an ac.joint function that draws implicitly from
 * the program's generator and that autoac knows how to express is replaced by
 *
 *   a seed draw   one 64-bit value drawn from the same generator (torch:
 *                 `torch.aten.randint.low` into a [1] si64 tensor; StableHLO:
 *                 `stablehlo.rng` into a tensor<1xui64>), an ordinary random
 *                 op: never recomputed, its 8 bytes saved when needed;
 *   a generator   `autoac.rng.{bernoulli,uniform,normal,dropout}`: a pure,
 *                 counter-based function of the seed (and the op's other
 *                 operands) with the original result types, which the
 *                 planner may recompute: a rerun replays the same bits.
 *
 * This changes the random stream (the numbers differ from the original
 * program's; their distribution does not), which is why it is opt-in.  Ops
 * it cannot express (an explicit generator operand, an in-place draw into a
 * tensor something else reads, an unfamiliar random op) are kept, never
 * recomputed, and named in one warning per op name.
 *
 * Invariant: on error nothing has been changed (every op is checked and
 * every type parsed before the first replacement).
 *===----------------------------------------------------------------------===*/
#include "autoac/autoac.h"
#include "autoac/cost.h"
#include "rewrite/rewrite.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <string.h>

#define SREF(s) mlirStringRefCreateFromCString(s)

/* What an implicit draw becomes. */
typedef enum AcRngGen {
  AC_RNG_GEN_BERNOULLI, /* 1 with probability p, else 0 */
  AC_RNG_GEN_UNIFORM,   /* uniform in [a, b) (default [0, 1)) */
  AC_RNG_GEN_NORMAL,    /* normal (mean, std) (default (0, 1)) */
  AC_RNG_GEN_DROPOUT    /* (input * keep / (1 - p), keep mask) */
} AcRngGen;

static const char *const acRngGenName[] = {
    "autoac.rng.bernoulli", "autoac.rng.uniform", "autoac.rng.normal",
    "autoac.rng.dropout"};

/* One replaceable implicit draw: its name, the generator it becomes, which
 * operands the generator keeps (a bit set, operand i = bit i), the operand
 * that must be `torch.constant.none` (an explicit generator: -1 none), and
 * whether it writes operand 0 in place (operand 0 then must have no other
 * reader).  `numOperands` is the exact count expected. */
typedef struct AcRngRule {
  const char *name;
  AcRngGen gen;
  int numOperands;
  unsigned keep;
  int noneOperand;
  int inplace;
} AcRngRule;

static const AcRngRule acRngRules[] = {
    /* (self, p, generator) */
    {"torch.aten.bernoulli_.float", AC_RNG_GEN_BERNOULLI, 3, 0x2, 2, 1},
    {"torch.aten.bernoulli.p", AC_RNG_GEN_BERNOULLI, 3, 0x2, 2, 0},
    /* (self, from/mean, to/std, generator) */
    {"torch.aten.uniform_", AC_RNG_GEN_UNIFORM, 4, 0x6, 3, 1},
    {"torch.aten.normal_", AC_RNG_GEN_NORMAL, 4, 0x6, 3, 1},
    {"torch.aten.uniform", AC_RNG_GEN_UNIFORM, 4, 0x6, 3, 0},
    /* (self, dtype, layout, device, pin_memory, memory_format) */
    {"torch.aten.rand_like", AC_RNG_GEN_UNIFORM, 6, 0x0, -1, 0},
    {"torch.aten.randn_like", AC_RNG_GEN_NORMAL, 6, 0x0, -1, 0},
    /* (size, dtype, layout, device, pin_memory) */
    {"torch.aten.rand", AC_RNG_GEN_UNIFORM, 5, 0x0, -1, 0},
    {"torch.aten.randn", AC_RNG_GEN_NORMAL, 5, 0x0, -1, 0},
    /* (input, p, train) */
    {"torch.aten.native_dropout", AC_RNG_GEN_DROPOUT, 3, 0x7, -1, 0},
    {"torch.aten.dropout", AC_RNG_GEN_DROPOUT, 3, 0x7, -1, 0},
    /* (a, b, shape) {rng_distribution}: the generator is chosen below */
    {"stablehlo.rng", AC_RNG_GEN_UNIFORM, 3, 0x3, -1, 0},
    {"mhlo.rng", AC_RNG_GEN_UNIFORM, 3, 0x3, -1, 0},
};

static const AcRngRule *acRngRuleFor(MlirStringRef name) {
  for (size_t i = 0; i < sizeof acRngRules / sizeof acRngRules[0]; ++i)
    if (acStrRefEq(name, acRngRules[i].name))
      return &acRngRules[i];
  return NULL;
}

/* The op producing `v`, or a null op for a block argument. */
static MlirOperation acDefiningOp(MlirValue v) {
  if (mlirValueIsAOpResult(v))
    return mlirOpResultGetOwner(v);
  MlirOperation none = {NULL};
  return none;
}

/* Number of uses of `v`, counting up to 2. */
static int acUsesUpTo2(MlirValue v) {
  int n = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u) && n < 2;
       u = mlirOpOperandGetNextUse(u))
    n++;
  return n;
}

/* Why `op` (matched by `r`) cannot be replaced, or NULL when it can. */
static const char *acRngWhyKept(MlirOperation op, const AcRngRule *r) {
  if (mlirOperationGetNumOperands(op) != r->numOperands)
    return "an unexpected operand count";
  if (r->noneOperand >= 0) {
    MlirOperation g = acDefiningOp(mlirOperationGetOperand(op, r->noneOperand));
    if (mlirOperationIsNull(g) || !acOpIs(g, "torch.constant.none"))
      return "an explicit generator operand";
  }
  if (r->inplace && acUsesUpTo2(mlirOperationGetOperand(op, 0)) > 1)
    return "it writes in place into a tensor that other ops read";
  if (r->gen == AC_RNG_GEN_DROPOUT && mlirOperationGetNumResults(op) < 1)
    return "no result";
  return NULL;
}

/* The types and attributes the replacement needs, parsed once. */
typedef struct AcRngTypes {
  int torch, hlo;      /* which families occur */
  MlirType tInt, tList, tNone, tSeed; /* torch */
  MlirType hSeed, hU64, hShape;       /* StableHLO */
  MlirAttribute aZero, aMax, aOne, aDtype, hZero, hMax, hShapeVal, hUniform;
} AcRngTypes;

static AcStatus acRngParse(MlirContext ctx, AcRngTypes *t, AcError *err) {
#define PT(slot, text)                                                         \
  do {                                                                         \
    t->slot = mlirTypeParseGet(ctx, SREF(text));                               \
    if (mlirTypeIsNull(t->slot))                                               \
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,                 \
                        "autoac: rng=replay cannot make the type %s", text);   \
  } while (0)
#define PA(slot, text)                                                         \
  do {                                                                         \
    t->slot = mlirAttributeParseGet(ctx, SREF(text));                          \
    if (mlirAttributeIsNull(t->slot))                                          \
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,                 \
                        "autoac: rng=replay cannot make the attribute %s",     \
                        text);                                                 \
  } while (0)
  if (t->torch) {
    PT(tInt, "!torch.int");
    PT(tList, "!torch.list<int>");
    PT(tNone, "!torch.none");
    PT(tSeed, "!torch.vtensor<[1],si64>");
    PA(aZero, "0 : i64");
    PA(aMax, "9223372036854775807 : i64");
    PA(aOne, "1 : i64");
    PA(aDtype, "4 : i64"); /* torch.int64 */
  }
  if (t->hlo) {
    PT(hSeed, "tensor<1xui64>");
    PT(hU64, "tensor<ui64>");
    PT(hShape, "tensor<1xi64>");
    PA(hZero, "dense<0> : tensor<ui64>");
    PA(hMax, "dense<18446744073709551615> : tensor<ui64>");
    PA(hShapeVal, "dense<1> : tensor<1xi64>");
    PA(hUniform, "#stablehlo<rng_distribution UNIFORM>");
  }
  return AC_OK;
#undef PT
#undef PA
}

/* Creates `name`(operands) {attr name = attr} -> result before `at`. */
static MlirValue acRngOp(MlirBlock block, MlirOperation at, MlirLocation loc,
                         const char *name, intptr_t nOps, const MlirValue *ops,
                         const char *attrName, MlirAttribute attr, MlirType result) {
  MlirOperationState st = mlirOperationStateGet(SREF(name), loc);
  if (nOps)
    mlirOperationStateAddOperands(&st, nOps, ops);
  if (attrName) {
    MlirNamedAttribute na = mlirNamedAttributeGet(
        mlirIdentifierGet(mlirLocationGetContext(loc), SREF(attrName)), attr);
    mlirOperationStateAddAttributes(&st, 1, &na);
  }
  mlirOperationStateAddResults(&st, 1, &result);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(block, at, op);
  return mlirOperationGetResult(op, 0);
}

/* The seed draw before `at`: torch's randint or StableHLO's rng. */
static MlirValue acRngSeed(MlirBlock block, MlirOperation at, MlirLocation loc,
                           int hlo, const AcRngTypes *t) {
  if (hlo) {
    const char *cst = "stablehlo.constant";
    MlirValue ops[3] = {
        acRngOp(block, at, loc, cst, 0, NULL, "value", t->hZero, t->hU64),
        acRngOp(block, at, loc, cst, 0, NULL, "value", t->hMax, t->hU64),
        acRngOp(block, at, loc, cst, 0, NULL, "value", t->hShapeVal, t->hShape)};
    return acRngOp(block, at, loc, "stablehlo.rng", 3, ops, "rng_distribution",
                   t->hUniform, t->hSeed);
  }
  const char *ci = "torch.constant.int";
  MlirValue one = acRngOp(block, at, loc, ci, 0, NULL, "value", t->aOne, t->tInt);
  MlirValue none = acRngOp(block, at, loc, "torch.constant.none", 0, NULL, NULL,
                           t->aZero, t->tNone);
  MlirValue ops[7] = {
      acRngOp(block, at, loc, ci, 0, NULL, "value", t->aZero, t->tInt),
      acRngOp(block, at, loc, ci, 0, NULL, "value", t->aMax, t->tInt),
      acRngOp(block, at, loc, "torch.prim.ListConstruct", 1, &one, NULL, t->aZero,
              t->tList),
      acRngOp(block, at, loc, ci, 0, NULL, "value", t->aDtype, t->tInt),
      none, none, none};
  return acRngOp(block, at, loc, "torch.aten.randint.low", 7, ops, NULL, t->aZero,
                 t->tSeed);
}

/* The generator a StableHLO rng becomes: by its distribution attribute. */
static AcRngGen acRngHloGen(MlirOperation op) {
  MlirAttribute d = mlirOperationGetAttributeByName(op, SREF("rng_distribution"));
  if (mlirAttributeIsNull(d))
    return AC_RNG_GEN_UNIFORM;
  AcStrBuf text;
  memset(&text, 0, sizeof text);
  mlirAttributePrint(d, acStrBufMlirCallback, &text);
  int normal = text.data && strstr(text.data, "NORMAL") != NULL;
  acStrBufClear(&text);
  return normal ? AC_RNG_GEN_NORMAL : AC_RNG_GEN_UNIFORM;
}

/* Ops erased when the replacement leaves them unread: the target of an
 * in-place draw (torch's empty_like) and the constants that only fed it or
 * the draw. */
static int acRngErasable(MlirOperation op) {
  static const char *const names[] = {
      "torch.aten.empty_like", "torch.aten.empty.memory_format",
      "torch.prim.ListConstruct", "torch.constant.int", "torch.constant.float",
      "torch.constant.none", "torch.constant.bool", "torch.constant.device",
      "stablehlo.constant", "mhlo.constant", "arith.constant"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (acOpIs(op, names[i]))
      return 1;
  return 0;
}

/* Destroys `op` and then, transitively, the erasable producers its removal
 * leaves without readers. */
static void acRngEraseDead(MlirOperation op) {
  enum { AC_RNG_STACK = 64 };
  MlirOperation stack[AC_RNG_STACK];
  int n = 0;
  stack[n++] = op;
  while (n > 0) {
    MlirOperation cur = stack[--n];
    intptr_t k = mlirOperationGetNumOperands(cur);
    MlirOperation producers[16];
    int np = 0;
    for (intptr_t i = 0; i < k && np < 16; ++i) {
      MlirOperation p = acDefiningOp(mlirOperationGetOperand(cur, i));
      int dup = mlirOperationIsNull(p);
      for (int j = 0; j < np && !dup; ++j)
        dup = mlirOperationEqual(producers[j], p);
      if (!dup)
        producers[np++] = p;
    }
    mlirOperationDestroy(cur);
    for (int j = 0; j < np; ++j) {
      MlirOperation p = producers[j];
      int dead = acRngErasable(p);
      for (intptr_t r = 0; dead && r < mlirOperationGetNumResults(p); ++r)
        dead = mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(p, r)));
      /* A producer already on the stack has no readers left either way;
         it is listed once since it is destroyed only when popped. */
      for (int s = 0; dead && s < n; ++s)
        dead = !mlirOperationEqual(stack[s], p);
      if (dead && n < AC_RNG_STACK)
        stack[n++] = p;
    }
  }
}

/* Replaces `op` (checked) by a seed draw and its generator. */
static void acRngReplace(MlirBlock block, MlirOperation op, const AcRngRule *r,
                         const AcRngTypes *t) {
  MlirLocation loc = mlirOperationGetLocation(op);
  int hlo = r->name[0] != 't';
  AcRngGen gen = hlo ? acRngHloGen(op) : r->gen;
  MlirValue ops[8];
  intptr_t n = 0;
  ops[n++] = acRngSeed(block, op, loc, hlo, t);
  for (int i = 0; i < r->numOperands; ++i)
    if (r->keep & (1u << i))
      ops[n++] = mlirOperationGetOperand(op, i);
  intptr_t nRes = mlirOperationGetNumResults(op);
  MlirType res[4];
  for (intptr_t i = 0; i < nRes && i < 4; ++i)
    res[i] = mlirValueGetType(mlirOperationGetResult(op, i));
  MlirOperationState st = mlirOperationStateGet(SREF(acRngGenName[gen]), loc);
  mlirOperationStateAddOperands(&st, n, ops);
  mlirOperationStateAddResults(&st, nRes < 4 ? nRes : 4, res);
  /* Keep the op's own autoac markers (ac.save, ac.phase, ...). */
  for (intptr_t i = 0; i < mlirOperationGetNumDiscardableAttributes(op); ++i) {
    MlirNamedAttribute na = mlirOperationGetDiscardableAttribute(op, i);
    MlirStringRef an = mlirIdentifierStr(na.name);
    if (an.length > 3 && memcmp(an.data, "ac.", 3) == 0)
      mlirOperationStateAddAttributes(&st, 1, &na);
  }
  MlirOperation g = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(block, op, g);
  for (intptr_t i = 0; i < nRes && i < 4; ++i)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, i),
                                  mlirOperationGetResult(g, i));
  acRngEraseDead(op);
}

/* One warning per random op name kept (count, reason, first location). */
typedef struct AcRngKept {
  MlirStringRef name;
  const char *why;
  MlirLocation first;
  intptr_t count;
} AcRngKept;

static AcStatus acRngNoteKept(AcRngKept **kept, intptr_t *n, intptr_t *cap,
                              MlirOperation op, const char *why, AcError *err) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  for (intptr_t i = 0; i < *n; ++i)
    if ((*kept)[i].name.length == name.length &&
        memcmp((*kept)[i].name.data, name.data, name.length) == 0) {
      (*kept)[i].count++;
      return AC_OK;
    }
  if (!acArrayGrow((void **)kept, cap, *n + 1, sizeof **kept))
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "autoac: out of memory");
  AcRngKept k = {name, why, mlirOperationGetLocation(op), 1};
  (*kept)[(*n)++] = k;
  return AC_OK;
}

/* Whether `op` is a seed draw an earlier rng=replay made: a random op whose
 * every reader is an autoac.rng generator. */
static int acIsSeedDraw(MlirOperation op) {
  if (mlirOperationGetNumResults(op) != 1)
    return 0;
  MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
  if (mlirOpOperandIsNull(u))
    return 0;
  for (; !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(mlirOpOperandGetOwner(u)));
    if (n.length < 11 || memcmp(n.data, "autoac.rng.", 11) != 0)
      return 0;
  }
  return 1;
}

/* Whether the cost model calls `op` a random op that is never rerun. */
static int acIsImplicitRandom(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  char name[256];
  if (n.length >= sizeof name)
    return 0;
  memcpy(name, n.data, n.length);
  name[n.length] = '\0';
  AcOpCost c;
  acCostEstimate(name, NULL, 0, NULL, 0, NULL, &c);
  return c.kind == AC_KIND_RANDOM;
}

AcStatus acRewriteRngReplay(MlirOperation module, intptr_t *numReplaced,
                            AcError *err) {
  AcRngTypes types;
  AcRngKept *kept = NULL;
  intptr_t numKept = 0, capKept = 0, replaced = 0;
  MlirOperation *todo = NULL;
  const AcRngRule **rules = NULL;
  intptr_t numTodo = 0, capTodo = 0, capRules = 0;
  AcStatus st = AC_OK;
  memset(&types, 0, sizeof types);
  acErrorClear(err);
  if (numReplaced)
    *numReplaced = 0;

  /* Pass 1: find what to replace and what to keep; change nothing. */
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    if (!acOpIs(f, "func.func") ||
        mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(f, SREF("ac.joint"))))
      continue;
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    if (mlirBlockIsNull(body))
      continue;
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      if (acIsSeedDraw(op))
        continue; /* already replayable: run twice, same module */
      const AcRngRule *r = acRngRuleFor(mlirIdentifierStr(mlirOperationGetName(op)));
      const char *why = r ? acRngWhyKept(op, r) : NULL;
      if (!r || why) {
        if (acIsImplicitRandom(op) &&
            (st = acRngNoteKept(&kept, &numKept, &capKept, op,
                                why ? why : "no replayable form is known for it",
                                err)) != AC_OK)
          goto cleanup;
        continue;
      }
      if (!acArrayGrow((void **)&todo, &capTodo, numTodo + 1, sizeof *todo) ||
          !acArrayGrow((void **)&rules, &capRules, numTodo + 1, sizeof *rules)) {
        st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "autoac: out of memory");
        goto cleanup;
      }
      if (r->name[0] == 't')
        types.torch = 1;
      else
        types.hlo = 1;
      todo[numTodo] = op;
      rules[numTodo++] = r;
    }
  }
  if (numTodo > 0) {
    MlirContext ctx = mlirOperationGetContext(module);
    if (!mlirContextGetAllowUnregisteredDialects(ctx)) {
      st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "autoac: rng=replay writes autoac.rng.* generator ops, "
                      "which need unregistered dialects allowed "
                      "(mlir-opt --allow-unregistered-dialect)");
      goto cleanup;
    }
    if ((st = acRngParse(ctx, &types, err)) != AC_OK)
      goto cleanup;
  }

  /* Pass 2: replace. */
  for (intptr_t i = 0; i < numTodo; ++i) {
    MlirBlock block = mlirOperationGetBlock(todo[i]);
    acRngReplace(block, todo[i], rules[i], &types);
    replaced++;
  }
  for (intptr_t i = 0; i < numKept; ++i) {
    char msg[512];
    snprintf(msg, sizeof msg,
             "autoac: rng=replay keeps %ld '%.*s' op%s (%s): never recomputed, "
             "%s saved",
             (long)kept[i].count, (int)kept[i].name.length, kept[i].name.data,
             kept[i].count == 1 ? "" : "s", kept[i].why,
             kept[i].count == 1 ? "its result" : "their results");
    acEmitDiagnostic(kept[i].first, 1, msg);
  }
  if (numReplaced)
    *numReplaced = replaced;

cleanup:
  acFree(kept);
  acFree(todo);
  acFree(rules);
  return st;
}
