/* func.c - one joint function into the graph (import/func.h): its
 * arguments with their roles, then each top-level op in block order (its
 * operands, including the values its nested regions capture from the
 * function body, its types, its costs, the graph op and what the IR asks
 * of it, its results), then its returns.  acImportFunc walks the block;
 * each step of an op is a helper of its own (acImportOp). */
#include "import/func.h"
#include "import/dps.h"
#include "import/opcost.h"
#include "import/types.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdio.h>
#include <string.h>

/*===------------------------------ operands -------------------------------===*/

/* Adds `id` to the current op's operands once: seenAt[id] holds the stamp
 * of the last op that added it, so de-duplication is linear in the operands
 * (an op may have hundreds of thousands). */
static void acAddOperand(AcImportCtx *c, AcId id) {
  if (id >= c->capSeen) {
    intptr_t old = c->capSeen;
    if (!acArrayGrow((void **)&c->seenAt, &c->capSeen, (intptr_t)id + 1,
                     sizeof *c->seenAt)) {
      c->walkStatus = AC_ERR_NOMEM;
      return;
    }
    memset(c->seenAt + old, 0, (size_t)(c->capSeen - old) * sizeof *c->seenAt);
  }
  if (c->seenAt[id] == c->stamp)
    return;
  if (!acArrayGrow((void **)&c->operands, &c->capOperands, c->numOperands + 1,
                   sizeof *c->operands)) {
    c->walkStatus = AC_ERR_NOMEM;
    return;
  }
  c->seenAt[id] = c->stamp;
  c->operands[c->numOperands++] = id;
  /* A torch list or tuple only refers to its elements: the op reading it
     reads them, so each is its operand too (and lives until it runs). */
  if (id < c->capAgg && c->agg[id].n > 0)
    for (int32_t i = 0; i < c->agg[id].n; ++i)
      acAddOperand(c, c->aggElems[c->agg[id].start + i]);
}

/* Records the current op's operands (aggregates already expanded by
 * acAddOperand) as the elements of `value`, a reference aggregate. */
static AcStatus acRecordAggregate(AcImportCtx *c, AcId value) {
  if (c->numOperands == 0)
    return AC_OK;
  if (value >= c->capAgg) {
    intptr_t old = c->capAgg;
    if (!acArrayGrow((void **)&c->agg, &c->capAgg, (intptr_t)value + 1, sizeof *c->agg))
      return AC_ERR_NOMEM;
    memset(c->agg + old, 0, (size_t)(c->capAgg - old) * sizeof *c->agg);
  }
  if (!acArrayGrow((void **)&c->aggElems, &c->capAggElems,
                   c->numAggElems + c->numOperands, sizeof *c->aggElems))
    return AC_ERR_NOMEM;
  memcpy(c->aggElems + c->numAggElems, c->operands,
         (size_t)c->numOperands * sizeof *c->operands);
  c->agg[value].start = c->numAggElems;
  c->agg[value].n = (int32_t)c->numOperands;
  c->numAggElems += c->numOperands;
  return AC_OK;
}

/* Walk callback: operands of nested ops that come from the function body. */
static MlirWalkResult acCaptureWalk(MlirOperation op, void *user) {
  AcImportCtx *c = user;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, r));
    if (mlirTypeIsAMemRef(t) || mlirTypeIsAUnrankedMemRef(t)) {
      c->walkStatus = AC_ERR_INVALID;
      c->badNested = op;
      c->badNestedResult = (int)r;
      return MlirWalkResultInterrupt;
    }
  }
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i) {
    AcId id = acPtrMapGet(&c->valueIds, mlirOperationGetOperand(op, i).ptr);
    if (id != AC_NONE)
      acAddOperand(c, id);
  }
  return c->walkStatus == AC_OK ? MlirWalkResultAdvance : MlirWalkResultInterrupt;
}

/*===-------------------------- names, requests ----------------------------===*/

/* The name of an op, identifier `ident`, checked and copied (acCopyName)
 * and resolved by the cost model once per name (MLIR uniques identifiers):
 * c->opName points at the copy, c->opNameCost at its resolution. */
static AcStatus acOpName(AcImportCtx *c, MlirIdentifier ident, MlirLocation loc) {
  AcId k = acPtrMapGet(&c->opNameIds, ident.ptr);
  if (k != AC_NONE) {
    c->opName = c->opNames[k].name;
    c->opNameCost = &c->opNames[k].cost;
    return AC_OK;
  }
  char *copy = NULL;
  intptr_t cap = 0;
  AcStatus st = acCopyName(c, mlirIdentifierStr(ident), &copy, &cap, loc,
                           "the name of an op");
  if (st != AC_OK) {
    acFree(copy);
    return st;
  }
  if (!acArrayGrow((void **)&c->opNames, &c->capOpNames, c->numOpNames + 1,
                   sizeof *c->opNames)) {
    acFree(copy);
    return acImportNoMem(c, loc);
  }
  k = (AcId)c->numOpNames++;
  c->opNames[k].name = copy; /* freed with opNames */
  acCostResolveName(copy, &c->opNames[k].cost);
  if (acPtrMapPut(&c->opNameIds, ident.ptr, k) != AC_OK)
    return acImportNoMem(c, loc);
  c->opName = copy;
  c->opNameCost = &c->opNames[k].cost;
  return AC_OK;
}

/* A request attribute (ac.save, ac.recompute): 1 when present as a unit
 * attribute or `true`, 0 when absent or `false` (no request), -1 for any
 * other value. */
static int acRequestFlag(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetDiscardableAttributeByName(op, acStr(name));
  if (mlirAttributeIsNull(a))
    return 0;
  if (mlirAttributeIsAUnit(a))
    return 1;
  if (mlirAttributeIsABool(a))
    return mlirBoolAttrGetValue(a) ? 1 : 0;
  return -1;
}

/*===------------------------------- writes --------------------------------===*/

typedef struct AcWriteNote {
  AcImportCtx *c;
  AcId op;
} AcWriteNote;

/* acOpWrittenValues callback: records a write of a function-body value. */
static void acNoteWrite(MlirValue v, void *user) {
  AcWriteNote *w = user;
  AcId id = acPtrMapGet(&w->c->valueIds, v.ptr);
  if (id != AC_NONE)
    acGraphBuilderSetMutates(w->c->b, w->op, id);
}

/* Records the values op `op` (graph op `opId`) writes, for the program
 * order of writes (acGraphBuilderFinish) and the mutation pins: the operand
 * its name says it writes (torch's `relu_`, `copy_`, overwrite.tensor.
 * contents), every value its declared memory effects write or free, and,
 * for an op whose effects are not fully known and whose name no rule
 * knows, every operand with reference semantics (`!torch.tensor`: anything
 * may write it).  `eff` is acOpMemoryEffectFree of the op. */
static void acImportWrites(AcImportCtx *c, MlirOperation op, AcId opId,
                           const AcOpCost *cost, intptr_t numDirect, int eff) {
  if (cost->mutatesOperand >= 0 && cost->mutatesOperand < numDirect)
    acGraphBuilderSetMutates(
        c->b, opId, acPtrMapGet(&c->valueIds,
                                mlirOperationGetOperand(op, cost->mutatesOperand).ptr));
  int known = eff;
  if (eff == 0) {
    AcWriteNote note = {c, opId};
    known = acOpWrittenValues(op, acNoteWrite, &note);
  }
  if (known == 1 || !cost->unknown)
    return;
  for (intptr_t i = 0; i < numDirect; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (acIsTorchNonValueTensor(mlirValueGetType(v)))
      acGraphBuilderSetMutates(c->b, opId, acPtrMapGet(&c->valueIds, v.ptr));
  }
}

/* The init of `op`'s result k (acDpsResultInit), or a null value. */
static MlirValue acDpsInit(MlirOperation op, intptr_t k) {
  return acDpsResultInit(op, k, 0);
}

/*===------------------------- the function --------------------------------===*/

/* Sizes every per-op and per-value array for joint function `func` at once
 * (counting its ops, results and operands first is a small part of the
 * import; growing them by doubling copied each array about twice over). */
static AcStatus acImportReserve(AcImportCtx *c, MlirOperation func) {
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(block))
    return AC_OK; /* acImportFunc says what is wrong */
  intptr_t ops = 0, values = mlirBlockGetNumArguments(block), operands = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    ops++;
    values += mlirOperationGetNumResults(op);
    operands += mlirOperationGetNumOperands(op);
  }
  AcImport *imp = c->imp;
  c->totalOps += ops;
  c->totalValues += values;
  acGraphBuilderReserve(c->b, ops, values, operands);
  if (!acArrayGrow((void **)&imp->ops, &c->capOps, c->totalOps, sizeof *imp->ops) ||
      !acArrayGrow((void **)&imp->values, &c->capValues, c->totalValues,
                   sizeof *imp->values) ||
      !acArrayGrow((void **)&c->unknown, &c->capUnknown, c->totalOps, 1) ||
      acPtrMapReserve(&c->valueIds, values) != AC_OK)
    return acImportNoMem(c, mlirOperationGetLocation(func));
  return AC_OK;
}

/* Checks that `func` has one block, into `*block`, and adds it to the
 * graph and the mapping (funcOps, returnOps, funcNames); it becomes the
 * current function. */
static AcStatus acFuncBegin(AcImportCtx *c, MlirOperation func, const char *name,
                            MlirBlock *block) {
  AcImport *imp = c->imp;
  MlirLocation floc = mlirOperationGetLocation(func);
  *block = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(*block))
    return acImportFail(c, floc, AC_ERR_INVALID, AC_NONE,
                        "joint function '@%s' has no body%s", name, "");
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(*block)))
    return acImportFail(c, floc, AC_ERR_INVALID, AC_NONE,
                        "joint function '@%s' has several blocks%s: autoac plans "
                        "single-block functions (run a CFG-to-SCF lifting first)",
                        name, "");
  AcId f = acGraphBuilderAddFunc(c->b, name);
  if (f == AC_NONE)
    return acImportNoMem(c, floc);
  if (!acArrayGrow((void **)&imp->funcOps, &c->capFuncs, f + 1, sizeof(MlirOperation)) ||
      !acArrayGrow((void **)&imp->returnOps, &c->capRetOps, f + 1, sizeof(MlirOperation)) ||
      !acArrayGrow((void **)&c->funcNames, &c->capFuncNames, f + 1, sizeof(char *)))
    return acImportNoMem(c, floc);
  imp->funcOps[f] = func;
  imp->returnOps[f] = mlirBlockGetTerminator(*block);
  c->curFunc = func;
  c->curFuncName = name;
  if (!(c->funcNames[f] = acStrdup(name)))
    return acImportNoMem(c, floc);
  c->numFuncs = f + 1;
  return AC_OK;
}

/* The role of argument `i` of `func` (named `name`) from its ac.param /
 * ac.tangent attribute (primal when neither); both is an error. */
static AcStatus acArgRole(AcImportCtx *c, MlirOperation func, const char *name,
                          intptr_t i, AcRole *role) {
  MlirAttribute argAttrs = mlirOperationGetAttributeByName(func, acStr("arg_attrs"));
  *role = AC_ROLE_PRIMAL;
  if (mlirAttributeIsNull(argAttrs) || i >= mlirArrayAttrGetNumElements(argAttrs))
    return AC_OK;
  MlirAttribute d = mlirArrayAttrGetElement(argAttrs, i);
  int isParam = !mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(d, acStr("ac.param")));
  int isTangent = !mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(d, acStr("ac.tangent")));
  if (isParam && isTangent) {
    char what[320];
    snprintf(what, sizeof what, "%d", (int)i);
    return acImportFail(c, mlirOperationGetLocation(func), AC_ERR_INVALID, AC_NONE,
                        "argument #%s of '@%s' is marked both ac.param and ac.tangent",
                        what, name);
  }
  *role = isParam ? AC_ROLE_PARAM : isTangent ? AC_ROLE_TANGENT : AC_ROLE_PRIMAL;
  return AC_OK;
}

/* The arguments of `func`'s `block`: role, type, bytes; graph arguments. */
static AcStatus acImportArgs(AcImportCtx *c, MlirOperation func, MlirBlock block,
                             const char *name) {
  MlirLocation floc = mlirOperationGetLocation(func);
  intptr_t nargs = mlirBlockGetNumArguments(block);
  char what[320];
  for (intptr_t i = 0; i < nargs; ++i) {
    MlirValue arg = mlirBlockGetArgument(block, i);
    AcRole role;
    AcStatus st = acArgRole(c, func, name, i, &role);
    if (st != AC_OK)
      return st;
    AcTensorType t;
    st = acReadType(c, mlirValueGetType(arg), &t, floc, AC_NONE,
                    "argument #%d of '@%s'", (int)i, name);
    if (st == AC_OK)
      st = acResolveDims(c, arg, &t);
    if (st != AC_OK)
      return st;
    if (acIsTorchTensorAggregate(mlirValueGetType(arg))) {
      snprintf(what, sizeof what, "argument #%d of '@%s'", (int)i, name);
      return acUnsizable(c, mlirValueGetType(arg), floc, AC_NONE, what);
    }
    int64_t bytes = acTensorBytes(&t);
    if (bytes < 0 || bytes > AC_MAX_BYTES) {
      snprintf(what, sizeof what, "argument #%d of '@%s'", (int)i, name);
      return acImportTooBig(c, floc, AC_NONE, what);
    }
    AcId id = acGraphBuilderAddArg(c->b, role, bytes);
    if (id == AC_NONE || acMapValue(c, arg, id) != AC_OK)
      return acImportNoMem(c, floc);
    if (acIsTorchNonValueTensor(mlirValueGetType(arg)))
      acGraphBuilderSetMutable(c->b, id);
  }
  return AC_OK;
}

/* The operands of `ret`, `func`'s return: the graph's returns, gradients
 * unless the result is marked ac.output. */
static AcStatus acImportReturns(AcImportCtx *c, MlirOperation func,
                                MlirOperation ret, const char *name) {
  MlirLocation floc = mlirOperationGetLocation(func);
  MlirAttribute resAttrs = mlirOperationGetAttributeByName(func, acStr("res_attrs"));
  intptr_t nret = mlirOperationGetNumOperands(ret);
  for (intptr_t i = 0; i < nret; ++i) {
    AcId id = acPtrMapGet(&c->valueIds, mlirOperationGetOperand(ret, i).ptr);
    if (id == AC_NONE)
      return acImportFail(c, floc, AC_ERR_INTERNAL, AC_NONE,
                          "return operand of '@%s' not found%s", name, "");
    uint8_t flags = AC_RET_GRAD;
    if (!mlirAttributeIsNull(resAttrs) && i < mlirArrayAttrGetNumElements(resAttrs)) {
      MlirAttribute d = mlirArrayAttrGetElement(resAttrs, i);
      if (!mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(d, acStr("ac.output"))))
        flags = AC_RET_OUTPUT;
    }
    if (acGraphBuilderAddRet(c->b, id, flags) != AC_OK)
      return acImportNoMem(c, floc);
  }
  return AC_OK;
}

/*===-------------------------- one top-level op ---------------------------===*/

/* What the steps of importing one top-level op share. */
typedef struct AcOpStep {
  MlirOperation op, ret;     /* the op; its function's return */
  MlirLocation loc;
  const char *opName;        /* c->opName */
  intptr_t numDirect, nres;  /* direct operands; results */
  int64_t *rb;               /* [nres] result bytes: resBytes or allocated */
  int64_t resBytes[64];
  AcTopCost tc;              /* acCostTopOp */
  int globalConst, emptyInit; /* always recomputed (see acOpAlwaysRebuilt) */
  AcId opId;                 /* the graph op, once added */
} AcOpStep;

/* The op's graph operands into c->operands (once each, acAddOperand):
 * direct ones, then the function-body values its nested regions capture.
 * A nested op making a buffer is an error. */
static AcStatus acOpOperands(AcImportCtx *c, AcOpStep *s) {
  MlirOperation op = s->op;
  c->numOperands = 0;
  c->stamp++;
  c->walkStatus = AC_OK;
  intptr_t nops = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < nops; ++i) {
    AcId id = acPtrMapGet(&c->valueIds, mlirOperationGetOperand(op, i).ptr);
    if (id == AC_NONE)
      return acImportFail(c, s->loc, AC_ERR_INTERNAL, AC_NONE,
                          "operand of '%s' is not defined in the function body%s",
                          s->opName, "");
    /* keep duplicates for cost, dedupe for the graph */
    acAddOperand(c, id);
  }
  s->numDirect = nops;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r)
    for (MlirBlock nb = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(nb); nb = mlirBlockGetNextInRegion(nb))
      for (MlirOperation no = mlirBlockGetFirstOperation(nb); !mlirOperationIsNull(no);
           no = mlirOperationGetNextInBlock(no))
        mlirOperationWalk(no, acCaptureWalk, c, MlirWalkPreOrder);
  if (c->walkStatus == AC_ERR_INVALID) {
    char what[320];
    snprintf(what, sizeof what, "result #%d of '%.*s'", c->badNestedResult,
             (int)mlirIdentifierStr(mlirOperationGetName(c->badNested)).length,
             mlirIdentifierStr(mlirOperationGetName(c->badNested)).data);
    return acImportFail(c, mlirOperationGetLocation(c->badNested), AC_ERR_INVALID,
                        AC_NONE, "%s (in a region of '%s') is a buffer (memref): "
                        "autoac plans joint functions on tensors, where writes "
                        "are explicit; run it before bufferization", what, s->opName);
  }
  if (c->walkStatus != AC_OK)
    return acImportNoMem(c, s->loc);
  return AC_OK;
}

/* The types of the op's direct operands, then of its results, into
 * c->types, and its results' bytes into s->rb (allocated here when there
 * are more than 64; freed by acImportOp). */
static AcStatus acOpTypes(AcImportCtx *c, AcOpStep *s) {
  MlirOperation op = s->op;
  intptr_t numDirect = s->numDirect, nres = s->nres;
  if (!acArrayGrow((void **)&c->types, &c->capTypes, numDirect + nres + 1, sizeof *c->types))
    return acImportNoMem(c, s->loc);
  for (intptr_t i = 0; i < numDirect; ++i) {
    AcStatus st = acReadType(c, mlirValueGetType(mlirOperationGetOperand(op, i)),
                             &c->types[i], s->loc, AC_NONE, "operand #%d of '%s'",
                             (int)i, s->opName);
    if (st == AC_OK)
      st = acResolveDims(c, mlirOperationGetOperand(op, i), &c->types[i]);
    if (st != AC_OK)
      return st;
  }
  s->rb = nres <= 64 ? s->resBytes : acMalloc((size_t)nres * sizeof *s->rb);
  if (!s->rb)
    return acImportNoMem(c, s->loc);
  char what[320];
  for (intptr_t r = 0; r < nres; ++r) {
    AcStatus st = acReadType(c, mlirValueGetType(mlirOperationGetResult(op, r)),
                             &c->types[numDirect + r], s->loc, AC_NONE,
                             "result #%d of '%s'", (int)r, s->opName);
    if (st == AC_OK)
      st = acResolveDims(c, mlirOperationGetResult(op, r),
                         &c->types[numDirect + r]);
    if (st != AC_OK)
      return st;
    MlirType rt = mlirValueGetType(mlirOperationGetResult(op, r));
    if (acIsTorchTensorAggregate(rt) && !acMakesTorchReferenceAggregate(s->opName)) {
      snprintf(what, sizeof what, "result #%d of '%s'", (int)r, s->opName);
      return acUnsizable(c, rt, s->loc, AC_NONE, what);
    }
    int64_t bytes = acTensorBytes(&c->types[numDirect + r]);
    if (bytes < 0 || bytes > AC_MAX_BYTES) {
      snprintf(what, sizeof what, "result #%d of '%s'", (int)r, s->opName);
      return acImportTooBig(c, s->loc, AC_NONE, what);
    }
    s->rb[r] = bytes;
  }
  return AC_OK;
}

/* The ops always rebuilt where they are needed rather than saved (unless
 * the user asks ac.save, or an ac.recompute that is not a flag is met):
 *  - a tensor constant bufferizes to a `memref.get_global`: no allocation
 *    (a writer into it copies: a new storage of its own).  It costs nothing
 *    to rebuild, and a saved one would be copied at @f_fwd's return (its
 *    result's bytes are 0);
 *  - a TOSA shape must be a constant in sight of its user (tosa.reshape,
 *    tosa.slice, ... do not verify otherwise): never an argument of
 *    @f_bwd, always rebuilt there (no memory either way);
 *  - a `tensor.empty` holds no data: recomputing it is its allocation,
 *    right before its writer in the backward (which then writes into it in
 *    place).  Saved, @f_bwd would receive a buffer its writer never reads
 *    (bufferization allocates the writer's result anew when the body does
 *    not read its init) and free it at once, while the plan counts it live
 *    up to that writer (seed 7022 of the differential tester,
 *    test/lit/difftest/saved-empty.mlir). */
static void acOpAlwaysRebuilt(AcOpStep *s) {
  MlirOperation op = s->op;
  s->globalConst =
      acOpIsGlobalConstant(op) &&
      acRequestFlag(op, "ac.save") == 0 && acRequestFlag(op, "ac.recompute") >= 0;
  if (s->globalConst)
    s->rb[0] = 0;
  if (acOpIs(op, "tosa.const_shape"))
    s->globalConst = 1;
  s->emptyInit = s->nres == 1 && acOpIs(op, "tensor.empty") &&
                 acRequestFlag(op, "ac.save") == 0 &&
                 acRequestFlag(op, "ac.recompute") >= 0;
}

/* The graph op: added with its operands and result bytes, mapped back to
 * `op`, given its costs and workspace (the regions' bodies' included). */
static AcStatus acOpAddToGraph(AcImportCtx *c, AcOpStep *s) {
  AcImport *imp = c->imp;
  const AcTopCost *tc = &s->tc;
  AcId opId = acGraphBuilderAddOp(c->b, s->opName, c->operands,
                                  (int32_t)c->numOperands, (int32_t)s->nres, s->rb);
  if (opId == AC_NONE)
    return acImportNoMem(c, s->loc);
  s->opId = opId;
  if (!acArrayGrow((void **)&imp->ops, &c->capOps, opId + 1, sizeof *imp->ops))
    return acImportNoMem(c, s->loc);
  imp->ops[opId] = s->op;
  if (!acArrayGrow((void **)&c->unknown, &c->capUnknown, opId + 1, 1))
    return acImportNoMem(c, s->loc);
  c->unknown[opId] = tc->cost.unknown;
  AcOp *gop = acGraphBuilderOp(c->b, opId);
  gop->kind = (uint8_t)tc->cost.kind;
  gop->flops = tc->cost.flops;
  gop->bytesMoved = tc->cost.bytesMoved;
  gop->seconds = tc->user ? tc->userSeconds
                          : acCostSeconds(c->device, tc->cost.flops, tc->cost.bytesMoved);
  gop->recomputable = tc->cost.recomputable;
  gop->computeIntensive = tc->cost.computeIntensive;
  gop->workspace = tc->workspace;
  if (mlirOperationGetNumRegions(s->op) > 0) {
    /* What its bodies make and free while it runs (import/bodies.h). */
    int64_t w = acOpBodyWorkspace(c, s->op);
    if (w < 0)
      return acImportNoMem(c, s->loc);
    gop->workspace = w > AC_MAX_BYTES - tc->workspace ? AC_MAX_BYTES
                                                      : tc->workspace + w;
    /* A copied init (read later, or not writable) that dies at the op
       is freed once copied, before the body runs; the simulator keeps
       it through the op (difftest seed 6002917). */
    if (w > 0 && !mlirValueIsNull(acDpsInit(s->op, 0)))
      acBodyNoteAt(&imp->bodies, AC_BODY_AT_MOST, s->op,
                   "'%s' makes tensors in its body (%lld B) beside its init; "
                   "where the init is copied and read no more, the program "
                   "frees it before the body runs, the plan counts both", w);
  }
  return AC_OK;
}

/* What the IR asks of the graph op: ac.save, ac.recompute (or always
 * rebuilt), ac.phase, and the init a destination-style writer writes into. */
static AcStatus acOpRequests(AcImportCtx *c, AcOpStep *s) {
  MlirOperation op = s->op;
  AcId opId = s->opId;
  AcOp *gop = acGraphBuilderOp(c->b, opId);
  int flag = acRequestFlag(op, "ac.save");
  if (flag < 0)
    return acImportFail(c, s->loc, AC_ERR_INVALID, opId,
                        "ac.save on '%s' must be a unit attribute or a boolean%s",
                        s->opName, "");
  gop->mustSave = (uint8_t)flag;
  /* Destination-style writers (acDpsResultInit): a linalg op into its
     one `outs`, `tensor.insert_slice`/`tensor.insert` into their dest, a
     loop or an `scf.if` into the storage its result is equivalent to.
     Bufferization writes in place when that init is not read
     afterwards, and the simulator counts it so. */
  if (s->nres == 1) {
    MlirValue init = acDpsInit(op, 0);
    if (!mlirValueIsNull(init)) {
      gop->dpsInit = acPtrMapGet(&c->valueIds, init.ptr);
      gop->initAlsoRead = (uint8_t)acDpsInitAlsoRead(op, init);
    }
  } else {
    acNoteSeveralInits(c, op, s->nres);
  }
  if ((flag = acRequestFlag(op, "ac.recompute")) < 0)
    return acImportFail(c, s->loc, AC_ERR_INVALID, opId,
                        "ac.recompute on '%s' must be a unit attribute or a "
                        "boolean%s", s->opName, "");
  gop->mustRecompute = (uint8_t)(flag || s->globalConst || s->emptyInit);
  if (gop->mustSave && gop->mustRecompute)
    return acImportFail(c, s->loc, AC_ERR_INVALID, opId,
                        "'%s' is marked both ac.save and ac.recompute%s", s->opName, "");
  MlirAttribute ph = mlirOperationGetDiscardableAttributeByName(op, acStr("ac.phase"));
  if (!mlirAttributeIsNull(ph)) {
    MlirStringRef p = mlirAttributeIsAString(ph) ? mlirStringAttrGetValue(ph)
                                                  : mlirStringRefCreate("", 0);
    if (acStrRefEq(p, "fwd"))
      acGraphBuilderForcePhase(c->b, opId, AC_PHASE_FWD);
    else if (acStrRefEq(p, "bwd"))
      acGraphBuilderForcePhase(c->b, opId, AC_PHASE_BWD);
    else
      return acImportFail(c, s->loc, AC_ERR_INVALID, opId,
                          "invalid ac.phase on '%s'%s: expected \"fwd\" or \"bwd\"",
                          s->opName, "");
  }
  return AC_OK;
}

/* The values the op writes, then its results: mapped, mutable (torch
 * references), aggregates' elements, logical bytes, a view's alias. */
static AcStatus acOpResults(AcImportCtx *c, AcOpStep *s) {
  MlirOperation op = s->op;
  const AcTopCost *tc = &s->tc;
  intptr_t numDirect = s->numDirect;
  AcId first = acGraphBuilderOp(c->b, s->opId)->firstResult;
  acImportWrites(c, op, s->opId, &tc->cost, numDirect, tc->eff);
  for (intptr_t r = 0; r < s->nres; ++r) {
    if (acMapValue(c, mlirOperationGetResult(op, r), first + (AcId)r) != AC_OK)
      return acImportNoMem(c, s->loc);
    if (acIsTorchNonValueTensor(mlirValueGetType(mlirOperationGetResult(op, r))))
      acGraphBuilderSetMutable(c->b, first + (AcId)r);
    if (acMakesTorchReferenceAggregate(s->opName) &&
        acRecordAggregate(c, first + (AcId)r) != AC_OK)
      return acImportNoMem(c, s->loc);
    acGraphBuilderSetLogicalBytes(c->b, first + (AcId)r,
                                  acTensorBytes(&c->types[numDirect + r]));
    if (tc->cost.isView && numDirect > 0 && c->types[numDirect + r].isTensor &&
        c->types[0].isTensor)
      acGraphBuilderSetAlias(c->b, first + (AcId)r, c->operands[0]);
  }
  return AC_OK;
}

/* Top-level op `op` of the current function (whose return is `ret`): one
 * graph op, in the steps above. */
static AcStatus acImportOp(AcImportCtx *c, MlirOperation op, MlirOperation ret) {
  AcOpStep s;
  s.op = op;
  s.ret = ret;
  s.loc = mlirOperationGetLocation(op);
  s.nres = mlirOperationGetNumResults(op);
  s.rb = NULL;
  s.opId = AC_NONE;
  AcStatus st = acOpName(c, mlirOperationGetName(op), s.loc);
  if (st != AC_OK)
    return st;
  s.opName = c->opName;
  if ((st = acOpOperands(c, &s)) != AC_OK || (st = acOpTypes(c, &s)) != AC_OK ||
      (st = acCostTopOp(c, op, ret, s.numDirect, s.nres, s.rb, s.loc, &s.tc)) != AC_OK)
    goto done;
  acOpAlwaysRebuilt(&s);
  st = acOpAddToGraph(c, &s);
  if (s.rb != s.resBytes) {
    acFree(s.rb);
    s.rb = NULL;
  }
  if (st == AC_OK && (st = acOpRequests(c, &s)) == AC_OK)
    st = acOpResults(c, &s);
done:
  if (s.rb != s.resBytes)
    acFree(s.rb);
  return st;
}

AcStatus acImportFunc(AcImportCtx *c, MlirOperation func, const char *name) {
  MlirBlock block;
  AcStatus st = acImportReserve(c, func);
  if (st != AC_OK || (st = acFuncBegin(c, func, name, &block)) != AC_OK ||
      (st = acImportArgs(c, func, block, name)) != AC_OK)
    return st;
  MlirOperation ret = mlirBlockGetTerminator(block);
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (mlirOperationEqual(op, ret))
      break;
    if ((st = acImportOp(c, op, ret)) != AC_OK)
      return st;
  }
  return acImportReturns(c, func, ret, name);
}
