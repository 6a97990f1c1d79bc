/* bodies.c - the bytes region bodies make and free while their op runs
 * (import/bodies.h).  One pass per block: storages get an allocation step
 * and a last step from the use lists of their values, the peak comes from
 * a difference array over the block's steps. */
#include "import/bodies.h"
#include "import/ir.h"
#include "support/ptrmap.h"

#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "autoac/support.h"

#include <stdio.h>
#include <string.h>

/* One storage of a block: made by one of its ops, or from above (0 B). */
typedef struct BStore {
  int64_t bytes;      /* 0 for a storage from above */
  intptr_t alloc;     /* step it is made at */
  intptr_t last;      /* last step one of its values is used at, -1: none */
  intptr_t lastRead;  /* last step one of its values is read at, -1: none */
  intptr_t readsAt;   /* reads at step `lastRead` */
} BStore;

typedef struct Body {
  const AcBodyHooks *h;
  AcBodyNote *note;
  MlirBlock block;
  intptr_t n;         /* ops of the block, its terminator included */
  AcPtrMap stepOf;    /* op of the block -> its step */
  AcPtrMap storeOf;   /* value -> its storage */
  BStore *st;
  intptr_t nst, capst;
  int64_t *delta;     /* [n + 1] live bytes, as differences over steps */
  /* Writers auto-ac-copy-before-write routes into the buffer made before a
     top-level scf.if / scf.index_switch (its result: 0 B here), and the
     init each wrote into before (a use that is gone there). */
  MlirOperation heads[8];
  MlirValue headInits[8];
  int numHeads;
  int nomem;
} Body;

static int64_t opWorkspace(MlirOperation op, const AcBodyHooks *h,
                           AcBodyNote *note, int depth);

void acBodyNoteAt(AcBodyNote *note, int level, MlirOperation at,
                   const char *why, long long x) {
  if (level <= note->level)
    return;
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(at));
  char nm[96];
  snprintf(nm, sizeof nm, "%.*s", (int)s.length, s.data);
  note->level = level;
  note->at = at;
  snprintf(note->why, sizeof note->why, why, nm, x);
}

/* The step of the op of the block that holds `op` (itself or an ancestor),
 * or -1 when `op` is not in the block. */
static intptr_t stepOf(const Body *b, MlirOperation op) {
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op)) {
    MlirBlock ob = mlirOperationGetBlock(op);
    if (!mlirBlockIsNull(ob) && mlirBlockEqual(ob, b->block))
      return acPtrMapGet(&b->stepOf, op.ptr);
  }
  return -1;
}

static intptr_t newStore(Body *b, int64_t bytes, intptr_t alloc) {
  if (b->nst == b->capst) {
    intptr_t cap = b->capst ? 2 * b->capst : 16;
    BStore *st = acRealloc(b->st, (size_t)cap * sizeof *st);
    if (!st) {
      b->nomem = 1;
      return -1;
    }
    b->st = st;
    b->capst = cap;
  }
  BStore *s = &b->st[b->nst];
  s->bytes = bytes;
  s->alloc = alloc;
  s->last = -1;
  s->lastRead = -1;
  s->readsAt = 0;
  return b->nst++;
}

/* Whether operand `k` of `op` is read, as one-shot bufferization sees it:
 * every operand is, but a linalg op's init whose payload does not use it
 * (`linalg.add ... outs(%e)`: written, not read). */
static int readsOperand(MlirOperation op, intptr_t k) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  intptr_t nops = mlirOperationGetNumOperands(op);
  intptr_t nres = mlirOperationGetNumResults(op);
  if (n.length <= 7 || strncmp(n.data, "linalg.", 7) != 0 || nres < 1 ||
      k < nops - nres || mlirOperationGetNumRegions(op) < 1)
    return 1;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockIsNull(body) || mlirBlockGetNumArguments(body) != nops)
    return 1;
  return !mlirOpOperandIsNull(mlirValueGetFirstUse(mlirBlockGetArgument(body, k)));
}

static int headIndex(const Body *b, MlirOperation op) {
  for (int i = 0; i < b->numHeads; ++i)
    if (mlirOperationEqual(b->heads[i], op))
      return i;
  return -1;
}

/* Whether `owner`'s use of `v` is the init a routed writer no longer uses. */
static int routedUse(const Body *b, MlirOperation owner, MlirValue v) {
  int h = headIndex(b, owner);
  return h >= 0 && mlirValueEqual(b->headInits[h], v);
}

/* Makes `v` a value of storage `s`: its uses in the block move the
 * storage's last step, its reads its last read. */
static void addValue(Body *b, MlirValue v, intptr_t s) {
  if (s < 0 || acPtrMapPut(&b->storeOf, v.ptr, (int32_t)s) != AC_OK) {
    b->nomem |= s >= 0;
    return;
  }
  BStore *st = &b->st[s];
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation owner = mlirOpOperandGetOwner(u);
    intptr_t t = stepOf(b, owner);
    if (t < 0 || routedUse(b, owner, v))
      continue;
    if (t > st->last)
      st->last = t;
    if (!readsOperand(owner, mlirOpOperandGetOperandNumber(u)))
      continue;
    if (t > st->lastRead) {
      st->lastRead = t;
      st->readsAt = 1;
    } else if (t == st->lastRead) {
      st->readsAt++;
    }
  }
}

/* A linalg op whose loops are all parallel and whose tensor operands are
 * all read and written at the same index (identity indexing maps): one-shot
 * bufferization lets it read an input in the buffer it writes. */
static int elementwiseAccess(MlirOperation op) {
  static const char *const named[] = {
      "linalg.add", "linalg.sub", "linalg.mul", "linalg.div",
      "linalg.div_unsigned", "linalg.max", "linalg.min", "linalg.powf",
      "linalg.exp", "linalg.log", "linalg.abs", "linalg.ceil", "linalg.floor",
      "linalg.negf", "linalg.reciprocal", "linalg.round", "linalg.sqrt",
      "linalg.rsqrt", "linalg.square", "linalg.tanh", "linalg.erf",
      "linalg.map", "linalg.copy", "linalg.select", NULL};
  for (int i = 0; named[i]; ++i)
    if (acOpIs(op, named[i]))
      return 1;
  if (!acOpIs(op, "linalg.generic"))
    return 0;
  MlirAttribute maps = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("indexing_maps"));
  MlirAttribute iters = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("iterator_types"));
  if (mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps) ||
      mlirAttributeIsNull(iters) || !mlirAttributeIsAArray(iters))
    return 0;
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(maps); ++i) {
    MlirAttribute m = mlirArrayAttrGetElement(maps, i);
    if (!mlirAttributeIsAAffineMap(m) || !mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(m)))
      return 0;
  }
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(iters); ++i) {
    MlirAttribute it = mlirArrayAttrGetElement(iters, i);
    AcStrBuf text = {0};
    mlirAttributePrint(it, acStrBufMlirCallback, &text);
    int parallel = text.data && !text.failed && strstr(text.data, "parallel");
    acFree(text.data);
    if (!parallel)
      return 0;
  }
  return 1;
}

static intptr_t storeOf(const Body *b, MlirValue v) {
  return v.ptr ? acPtrMapGet(&b->storeOf, v.ptr) : -1;
}

/* The init result `k` of `op` is written into, as bufferization sees it. */
static MlirValue writeInit(MlirOperation op, intptr_t k, int depth) {
  if (acOpIs(op, "bufferization.materialize_in_destination") && k == 0 &&
      mlirOperationGetNumOperands(op) == 2)
    return mlirOperationGetOperand(op, 1);
  return acDpsResultInit(op, k, depth);
}

/* Whether `op`'s write at step `i` into storage `s` (through its init
 * value `init`) must copy: a value of the storage is read after it, or at
 * it besides as the init, by an op that does not access them elementwise
 * (a region op: only after it; its branches' own reads are theirs). */
static int writeConflicts(const Body *b, intptr_t s, intptr_t i,
                          MlirOperation op, MlirValue init) {
  const BStore *st = &b->st[s];
  if (st->lastRead > i)
    return 1;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  int linalg = n.length > 7 && !strncmp(n.data, "linalg.", 7);
  if (st->lastRead < i || (mlirOperationGetNumRegions(op) > 0 && !linalg))
    return 0;
  intptr_t own = 0;
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); ++k)
    if (mlirValueEqual(mlirOperationGetOperand(op, k), init) && readsOperand(op, k))
      own++;
  return st->readsAt > own && !elementwiseAccess(op);
}

/* A new storage of `bytes` made by `op` at step `i`; -1 bytes: a tensor of
 * dynamic shape, which is not sized (counted 0 B, noted). */
static intptr_t freshStore(Body *b, MlirOperation op, int64_t bytes, intptr_t i) {
  if (bytes < 0) {
    acBodyNoteAt(b->note, AC_BODY_UNKNOWN, op,
           "'%s' in a region makes a tensor of dynamic shape, which the "
           "plan does not count%.0lld", 0);
    bytes = 0;
  }
  return newStore(b, bytes, i);
}

/* The storage result `r` of `op` at step `i` is in (-1: none in the block:
 * a view of a value from above, or a global), making a new one when the op
 * makes new bytes. */
static intptr_t resultStore(Body *b, MlirOperation op, intptr_t r, intptr_t i,
                            int64_t bytes, int depth) {
  if (headIndex(b, op) >= 0)
    return newStore(b, 0, i); /* the op's result, made before it */
  MlirValue init = writeInit(op, r, depth);
  if (!mlirValueIsNull(init)) {
    intptr_t s = storeOf(b, init);
    if (s >= 0 && !writeConflicts(b, s, i, op, init))
      return s;
    if (s < 0 && bytes > 0)
      acBodyNoteAt(b->note, AC_BODY_AT_MOST, op,
             "'%s' in a region writes into a value from outside it; the plan "
             "counts a copy (%lld B) that bufferization may not make",
             (long long)bytes);
    return freshStore(b, op, bytes, i);
  }
  intptr_t a = r == 0 ? b->h->aliasOperand(b->h->user, op) : -1;
  if (a >= 0 && a < mlirOperationGetNumOperands(op))
    return storeOf(b, mlirOperationGetOperand(op, a));
  if (acOpIsGlobalConstant(op))
    return -1;
  return freshStore(b, op, bytes, i);
}

static void addDelta(Body *b, intptr_t from, intptr_t to, int64_t bytes) {
  b->delta[from] += bytes;
  b->delta[to + 1] -= bytes;
}

/* Whether every use of `v` is a routed writer's former init. */
static int onlyRouted(const Body *b, MlirValue v) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(u))
    return 0;
  for (; !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (!routedUse(b, mlirOpOperandGetOwner(u), v))
      return 0;
  return 1;
}

/* The storages of the results of the op at step `i`, and its own nested
 * workspace. */
static void stepOp(Body *b, MlirOperation op, intptr_t i, int depth) {
  if (mlirOperationGetNumRegions(op) > 0) {
    int64_t w = opWorkspace(op, b->h, b->note, depth + 1);
    if (w < 0) {
      b->nomem = 1;
      return;
    }
    addDelta(b, i, i, w);
  }
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op) && !b->nomem; ++r) {
    MlirValue v = mlirOperationGetResult(op, r);
    int64_t bytes = b->h->valueBytes(b->h->user, v);
    if (bytes == 0 || (acOpIs(op, "tensor.empty") && onlyRouted(b, v)))
      continue; /* an empty whose one writer is routed away: erased */
    addValue(b, v, resultStore(b, op, r, i, bytes, depth));
  }
}

/* The first writer of the in-place chain that yields `y` in a region of
 * `parent` (writecopy.c chainBase), or null; *base: what the chain starts
 * from (the head's init, or `y` itself without a head). */
static MlirOperation chainHead(MlirOperation parent, MlirValue y, MlirValue *base) {
  MlirOperation head = {NULL};
  for (int steps = 0; steps < 64 && mlirValueIsAOpResult(y) &&
                      acOpWithin(mlirOpResultGetOwner(y), parent) &&
                      !mlirOperationEqual(mlirOpResultGetOwner(y), parent); ++steps) {
    MlirOperation d = mlirOpResultGetOwner(y);
    MlirValue init = writeInit(d, mlirOpResultGetResultNumber(y), 0);
    if (mlirValueIsNull(init))
      break;
    head = d;
    y = init;
  }
  *base = y;
  return head;
}

/* Whether the chain base `v` of a branch of `parent` lets every branch's
 * result j be one buffer made before it: made before `parent`, or a
 * tensor.empty of the branch (writecopy.c branchesChainable). */
static int chainableBase(MlirOperation parent, MlirValue v) {
  MlirOperation def = mlirValueIsAOpResult(v)
                          ? mlirOpResultGetOwner(v)
                          : mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
  if (!acOpWithin(def, parent) || mlirOperationEqual(def, parent))
    return 1;
  return mlirValueIsAOpResult(v) && acOpIs(def, "tensor.empty");
}

/* The writers auto-ac-copy-before-write routes into one buffer made before
 * `parent`, a top-level scf.if or scf.index_switch (writecopy.c
 * shareIfInits), for result j of each branch: when its static tensor result
 * is not written into a value made before it (acDpsResultInit) and every
 * branch's chain starts from an empty of its own or a value made before it. */
static void routeHeads(Body *b, MlirOperation parent, MlirBlock block) {
  intptr_t nr = mlirOperationGetNumRegions(parent);
  for (intptr_t j = 0; j < mlirOperationGetNumResults(parent) && b->numHeads < 8; ++j) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(parent, j));
    if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t) ||
        (acOpIs(parent, "scf.if") && !mlirValueIsNull(acDpsResultInit(parent, j, 0))))
      continue;
    int chainable = 1;
    for (intptr_t r = 0; r < nr && chainable; ++r) {
      MlirBlock rb = mlirRegionGetFirstBlock(mlirOperationGetRegion(parent, r));
      MlirOperation y = mlirBlockIsNull(rb) ? (MlirOperation){NULL} : mlirBlockGetTerminator(rb);
      MlirValue base;
      chainable = !mlirOperationIsNull(y) && j < mlirOperationGetNumOperands(y) &&
                  mlirBlockIsNull(mlirBlockGetNextInRegion(rb)) &&
                  (chainHead(parent, mlirOperationGetOperand(y, j), &base), chainableBase(parent, base));
    }
    MlirOperation y = mlirBlockGetTerminator(block);
    MlirValue base;
    MlirOperation head = chainable && !mlirOperationIsNull(y)
                             ? chainHead(parent, mlirOperationGetOperand(y, j), &base)
                             : (MlirOperation){NULL};
    if (mlirOperationIsNull(head))
      continue;
    b->heads[b->numHeads] = head;
    b->headInits[b->numHeads++] = base;
  }
}

/* The workspace of one block of region op `parent`: its peak beyond what
 * it yields.  -1 when out of memory. */
static int64_t blockWorkspace(MlirOperation parent, MlirBlock block,
                              const AcBodyHooks *h, AcBodyNote *note,
                              int depth) {
  Body b;
  memset(&b, 0, sizeof b);
  b.h = h;
  b.note = note;
  b.block = block;
  int64_t w = 0;
  for (MlirOperation o = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
    if (acPtrMapPut(&b.stepOf, o.ptr, (int32_t)b.n++) != AC_OK)
      goto nomem;
  if (!(b.delta = acCalloc((size_t)b.n + 2, sizeof *b.delta)))
    goto nomem;
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(block) && !b.nomem; ++a) {
    MlirValue v = mlirBlockGetArgument(block, a);
    if (h->valueBytes(h->user, v) != 0)
      addValue(&b, v, newStore(&b, 0, 0));
  }
  if (depth == 0 && (acOpIs(parent, "scf.if") || acOpIs(parent, "scf.index_switch")))
    routeHeads(&b, parent, block);
  if (acOpIs(parent, "scf.if") || acOpIs(parent, "scf.index_switch"))
    for (intptr_t k = 0; k < mlirOperationGetNumResults(parent) && !b.nomem; ++k) {
      MlirValue init = acDpsResultInit(parent, k, depth);
      if (!mlirValueIsNull(init) && storeOf(&b, init) < 0)
        addValue(&b, init, newStore(&b, 0, 0));
    }
  intptr_t i = 0;
  MlirOperation term = acBlockTerminator(block);
  for (MlirOperation o = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(o) && !b.nomem; o = mlirOperationGetNextInBlock(o), ++i)
    if (mlirOperationIsNull(term) || !mlirOperationEqual(o, term))
      stepOp(&b, o, i, depth);
  if (b.nomem)
    goto nomem;
  /* A loop's terminator passes its values on to the iteration arguments:
   * one made in the block is copied into the argument's storage before it
   * (auto-ac-copy-before-write), so it is a temporary of the block, not
   * the op's result as a branch's yielded value is. */
  int loop = acOpIs(parent, "scf.for") || acOpIs(parent, "scf.while");
  int64_t yielded = 0;
  for (intptr_t s = 0; s < b.nst; ++s) {
    BStore *st = &b.st[s];
    if (st->bytes == 0)
      continue;
    intptr_t last = st->last > st->alloc ? st->last : st->alloc;
    addDelta(&b, st->alloc, last, st->bytes);
    if (!loop && !mlirOperationIsNull(term) && last == b.n - 1)
      yielded += st->bytes; /* read by the terminator: a result */
  }
  int64_t live = 0, peak = 0;
  for (intptr_t t = 0; t < b.n; ++t) {
    live += b.delta[t];
    if (live > peak)
      peak = live;
  }
  w = peak > yielded ? peak - yielded : 0;
  goto done;
nomem:
  w = -1;
done:
  acPtrMapClear(&b.stepOf);
  acPtrMapClear(&b.storeOf);
  acFree(b.st);
  acFree(b.delta);
  return w;
}

static int64_t opWorkspace(MlirOperation op, const AcBodyHooks *h,
                           AcBodyNote *note, int depth) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length > 7 && !strncmp(name.data, "linalg.", 7))
    return 0; /* scalar bodies */
  if (depth > AC_BODY_DEPTH) {
    acBodyNoteAt(note, AC_BODY_UNKNOWN, op, "'%s' is nested more than %lld region "
           "ops deep: what its regions make is not counted",
           (long long)AC_BODY_DEPTH);
    return 0;
  }
  int64_t most = 0, least = -1, first[2] = {0, 0};
  intptr_t nreg = mlirOperationGetNumRegions(op);
  for (intptr_t r = 0; r < nreg; ++r) {
    MlirBlock blk = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
    if (mlirBlockIsNull(blk))
      continue;
    if (!mlirBlockIsNull(mlirBlockGetNextInRegion(blk))) {
      acBodyNoteAt(note, AC_BODY_UNKNOWN, op, "a region of '%s' has several blocks: "
             "what it makes is not counted%.0lld", 0);
      continue;
    }
    int64_t w = blockWorkspace(op, blk, h, note, depth);
    if (w < 0)
      return -1;
    most = w > most ? w : most;
    least = least < 0 || w < least ? w : least;
    if (r < 2)
      first[r] = w;
  }
  if (most == 0)
    return 0;
  int64_t trips = acOpIs(op, "scf.for") ? acForTrips(op) : -1;
  if (trips == 0)
    return 0;
  if (acOpIs(op, "scf.for") && trips < 0)
    acBodyNoteAt(note, AC_BODY_AT_MOST, op, "'%s' runs a number of times known only "
           "at run time; the plan counts what its body makes (%lld B), which a "
           "loop run no time does not", (long long)most);
  else if (acOpIs(op, "scf.while") ? first[1] > first[0] /* the after
             region may run no time, the before region runs */
                                      : nreg > 1 && least < most)
    acBodyNoteAt(note, AC_BODY_AT_MOST, op, "the regions of '%s' make different "
           "bytes; the plan counts the most (%lld B), which the program "
           "makes only where that region runs", (long long)most);
  else if (nreg == 1 && !acOpIs(op, "scf.for") && !acOpIs(op, "scf.execute_region"))
    acBodyNoteAt(note, AC_BODY_AT_MOST, op, "'%s' may run its body no time; "
           "the plan counts what it makes (%lld B)", (long long)most);
  return most;
}

int64_t acBodyWorkspace(MlirOperation op, const AcBodyHooks *hooks,
                        AcBodyNote *note) {
  if (mlirOperationGetNumRegions(op) == 0)
    return 0;
  return opWorkspace(op, hooks, note, 0);
}
