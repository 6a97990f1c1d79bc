/* normalize.c - the import's two normalisations of the IR and the in-place
 * reorder (import/normalize.h).  Both read the first import's graph and
 * mapping; sinking only moves ops (the graph then follows in place,
 * acImportApplyOrder), copying inits makes new ops (import.c imports the
 * module again). */
#include "import/normalize.h"
#include "import/dps.h"
#include "import/layout.h"
#include "import/unknown.h"

#include <string.h>

/* Whether backward op `o` may sink below its place (see
 * acSinkBackwardAliases): a view or constant (free), or a pure op that does
 * not depend on a tangent and whose results take at least the bytes of the
 * storages it reads (AOT autograd's `clone` of a value an in-place
 * activation overwrites, a cast of an activation): moving it later ends its
 * results' lives no later and starts them later, while the inputs it holds
 * longer take no more bytes than the results it no longer holds.
 * Parameters are live throughout, so reading one costs nothing here.
 * `tangentDep[o]`: op o reads a tangent, maybe through other ops. */
static int acSinkable(const AcImport *imp, AcId o, const uint8_t *tangentDep) {
  const AcGraph *g = imp->graph;
  const AcOp *op = &g->ops[o];
  if (op->phase != AC_PHASE_BWD || !op->recomputable || op->phaseForced ||
      mlirOperationGetNumRegions(imp->ops[o]) != 0)
    return 0;
  if (op->kind == AC_KIND_VIEW || op->kind == AC_KIND_CONSTANT)
    return 1;
  if (tangentDep[o] || op->numResults == 0 || op->mutates != AC_NONE ||
      op->mutationPinned || op->dpsInit != AC_NONE)
    return 0;
  int64_t out = 0, in = 0;
  for (int32_t r = 0; r < op->numResults; ++r)
    out += g->values[op->firstResult + r].bytes;
  for (int32_t i = 0; i < op->numOperands; ++i) {
    const AcValue *root = &g->values[g->values[acOpOperand(g, o, i)].aliasRoot];
    int seen = 0;  /* each storage once */
    for (int32_t j = 0; j < i && !seen; ++j)
      seen = g->values[acOpOperand(g, o, j)].aliasRoot ==
             g->values[acOpOperand(g, o, i)].aliasRoot;
    if (!seen && root->role != AC_ROLE_PARAM)
      in += root->bytes;
  }
  return out > 0 && out >= in;
}

/* Backward views and constants (free, pure, region-free), and the pure
 * tangent-independent ops acSinkable admits, are moved right
 * before their first user, so that a forward value the backward reads only
 * through a chain of aliases (AOT autograd emits `detach` pairs at the start
 * of the backward) is not needed earlier than where it is really used: a
 * recompute of it is then placed there, not at the start of the backward.
 * Moving them never raises memory: a view allocates nothing and its base is
 * live until the view's last use anyway.
 *
 * "First user" is where the user ends up: a chain of views sinks together.
 * place[o] is the op o ends up right before: o itself for ops that stay,
 * else the smallest place of its users (users come later, so going down the
 * ids sees them first).  Ops that move are moved in ascending id order, each
 * right before its place: those sharing a place keep their order, which is
 * a valid one (an operand has a smaller id than its user), and everything
 * an op reads is still before it.  Moving by the first user's original
 * position instead can put an op after another of its users.
 * Returns how many ops moved, or -1 when out of memory. */
intptr_t acSinkBackwardAliases(const AcImport *imp, AcId **placeOut) {
  const AcGraph *g = imp->graph;
  intptr_t moved = 0, n = g->numOps;
  AcId *place = acMalloc((size_t)(n ? n : 1) * sizeof *place);
  if (!place)
    return -1;
  uint8_t *tangentDep = acCalloc((size_t)(n ? n : 1), 1);
  if (!tangentDep) {
    acFree(place);
    return -1;
  }
  for (AcId o = 0; o < (AcId)n; ++o)
    for (int32_t i = 0; i < g->ops[o].numOperands && !tangentDep[o]; ++i) {
      const AcValue *v = &g->values[acOpOperand(g, o, i)];
      tangentDep[o] = v->role == AC_ROLE_TANGENT ||
                      (v->producer != AC_NONE && tangentDep[v->producer]);
    }
  int inOrder = 1;
  for (AcId o = (AcId)n - 1; o >= 0; --o) {
    const AcOp *op = &g->ops[o];
    place[o] = o;
    if (!acSinkable(imp, o, tangentDep))
      continue;
    AcId first = AC_NONE;
    for (int32_t r = 0; r < op->numResults; ++r)
      for (int32_t u = 0; u < g->values[op->firstResult + r].numUses; ++u) {
        AcId p = place[acValueUse(g, op->firstResult + r, u)];
        if (first == AC_NONE || p < first)
          first = p;
      }
    if (first != AC_NONE)
      place[o] = first;
    if (o + 1 < n && place[o] > place[o + 1])
      inOrder = 0;
  }
  acFree(tangentDep);
  /* Nothing moves when the places already ascend with the ids. */
  for (AcId o = 0; o < (AcId)n && !inOrder; ++o) {
    if (place[o] == o)
      continue;
    mlirOperationMoveBefore(imp->ops[o], imp->ops[place[o]]);
    moved++;
  }
  if (moved) {
    *placeOut = place;
    return moved;
  }
  acFree(place);
  return moved;
}

/* The maker of the init `v` that region op `op` (an `scf.if` whose branches
 * write in place into `v`, captured: acDpsResultInit) shares with an op
 * outside it, or a null op: a `tensor.empty`, or a `linalg.fill` of one
 * (acLayoutSharedInitMaker's makers), that an op outside `op` also reads. */
static MlirOperation acSharedCapturedMaker(MlirOperation op, MlirValue v) {
  MlirOperation none = {NULL};
  MlirOperation p = acLayoutSharedInitMaker(none, v);
  if (mlirOperationIsNull(p))
    return none;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (!acOpWithin(mlirOpOperandGetOwner(u), op))
      return p;
  return none;
}

/* Points every use of `from` nested in `op`'s regions at `to`. */
static void acRedirectCaptured(MlirOperation op, MlirValue from, MlirValue to) {
  MlirOpOperand u = mlirValueGetFirstUse(from);
  while (!mlirOpOperandIsNull(u)) {
    MlirOpOperand next = mlirOpOperandGetNextUse(u);
    MlirOperation owner = mlirOpOperandGetOwner(u);
    if (!mlirOperationEqual(owner, op) && acOpWithin(owner, op))
      mlirOperationSetOperand(owner, mlirOpOperandGetOperandNumber(u), to);
    u = next;
  }
}

/* Records `clone`'s result as a copy of `orig`'s (clone value -> the value
 * id of `orig`'s result, `idOf`), for naming. */
static AcStatus acNoteClone(AcPtrMap *cloneOf, const AcPtrMap *idOf,
                            MlirOperation orig, MlirOperation clone) {
  AcId id = acPtrMapGet(idOf, mlirOperationGetResult(orig, 0).ptr);
  if (id == AC_NONE) /* a copy of a copy */
    id = acPtrMapGet(cloneOf, mlirOperationGetResult(orig, 0).ptr);
  return acPtrMapPut(cloneOf, mlirOperationGetResult(clone, 0).ptr, id);
}

/* Shared inits are given one per writer (docs/contract.md, "Shared inits").
 * `mlir-opt --cse` merges identical `tensor.empty` ops, and `linalg.fill`s of
 * them, so that one init is the `outs` of several linalg ops; bufferization
 * then reuses its buffer for a later writer only when the earlier result is
 * dead, which depends on the plan.  Every writer whose init (graph dpsInit)
 * is made by a `tensor.empty`, or a `linalg.fill` of one, that another op
 * also reads gets its own copy of that maker (a fill with its own copy of
 * the empty), placed right before it; an `scf.if` whose branches write into
 * such a maker's result, captured, gets its copy before it and its branches'
 * uses point at the copy (acSharedCapturedMaker); makers left without uses
 * are erased.
 * What runs is then a fresh init per writer, which the in-place rule
 * (simulate.h) counts exactly, in every planner.  `cloneOf` receives each
 * copy's result -> the value id of the result it copies.  Returns the
 * number of copies made, or -1 when out of memory. */
intptr_t acUnshareInits(const AcImport *imp, AcPtrMap *cloneOf) {
  const AcGraph *g = imp->graph;
  AcPtrMap idOf = {0}, listed = {0};
  MlirOperation *makers = NULL;
  uint8_t *writes = NULL;
  intptr_t numMakers = 0, capMakers = 0, made = 0, numWriters = 0;
  /* Which writers: decided on the input as it is, so that the last writer
     of a shared init gets a copy too (the original stands at the first
     writer, where `cse` left it, and would be counted live from there). */
  if (!(writes = acCalloc((size_t)g->numOps + 1, 1)))
    goto nomem;
  for (AcId o = 0; o < (AcId)g->numOps; ++o) {
    if (g->ops[o].dpsInit == AC_NONE)
      continue;
    MlirOperation op = imp->ops[o];
    intptr_t at = acDpsInitOperand(op);
    if (at < 0)
      writes[o] = !mlirOperationIsNull(
          acSharedCapturedMaker(op, imp->values[g->ops[o].dpsInit]));
    else
      writes[o] = !mlirOperationIsNull(
          acLayoutSharedInitMaker(op, mlirOperationGetOperand(op, at)));
    numWriters += writes[o];
  }
  if (numWriters == 0)
    goto cleanup;
  for (intptr_t v = 0; v < g->numValues; ++v)
    if (acPtrMapPut(&idOf, imp->values[v].ptr, (int32_t)v) != AC_OK)
      goto nomem;
  for (AcId o = 0; o < (AcId)g->numOps; ++o) {
    if (!writes[o])
      continue;
    MlirOperation op = imp->ops[o];
    intptr_t at = acDpsInitOperand(op);
    /* An scf.if's init is captured by its branches (at < 0). */
    MlirValue init = at < 0 ? imp->values[g->ops[o].dpsInit]
                            : mlirOperationGetOperand(op, at);
    MlirOperation maker = mlirOpResultGetOwner(init);
    if (!acArrayGrow((void **)&makers, &capMakers, numMakers + 2, sizeof *makers))
      goto nomem;
    if (acPtrMapGet(&listed, maker.ptr) == AC_NONE) {
      if (acPtrMapPut(&listed, maker.ptr, 1) != AC_OK)
        goto nomem;
      makers[numMakers++] = maker;
    }
    /* Copies go into the block at once: the block owns them whatever
       happens next. */
    MlirBlock block = mlirOperationGetBlock(op);
    MlirOperation copy = mlirOperationClone(maker);
    mlirBlockInsertOwnedOperationBefore(block, op, copy);
    if (at < 0)
      acRedirectCaptured(op, init, mlirOperationGetResult(copy, 0));
    else
      mlirOperationSetOperand(op, at, mlirOperationGetResult(copy, 0));
    if (acOpIs(maker, "linalg.fill")) {
      /* The fill's init: its own copy of the empty. */
      intptr_t k = mlirOperationGetNumOperands(maker) - 1;
      MlirOperation empty = mlirOpResultGetOwner(mlirOperationGetOperand(maker, k));
      MlirOperation emptyCopy = mlirOperationClone(empty);
      mlirBlockInsertOwnedOperationBefore(block, copy, emptyCopy);
      mlirOperationSetOperand(copy, k, mlirOperationGetResult(emptyCopy, 0));
      if (acNoteClone(cloneOf, &idOf, empty, emptyCopy) != AC_OK)
        goto nomem;
      if (acPtrMapGet(&listed, empty.ptr) == AC_NONE) {
        if (acPtrMapPut(&listed, empty.ptr, 1) != AC_OK)
          goto nomem;
        makers[numMakers++] = empty;
      }
      made++;
    }
    if (acNoteClone(cloneOf, &idOf, maker, copy) != AC_OK)
      goto nomem;
    made++;
  }
  /* Erase the makers left unused (each listed once): fills first, as they
     read the empties; a fill's own copy of its empty (made when the fill
     was a writer) goes with it, an original empty in the second pass. */
  for (int pass = 0; pass < 2; ++pass)
    for (intptr_t i = 0; i < numMakers; ++i) {
      MlirOperation m = makers[i];
      if (mlirOperationIsNull(m) ||
          acOpIs(m, "linalg.fill") != (pass == 0) ||
          !mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(m, 0))))
        continue;
      MlirOperation init = {NULL};
      if (pass == 0)
        init = mlirOpResultGetOwner(
            mlirOperationGetOperand(m, mlirOperationGetNumOperands(m) - 1));
      mlirOperationDestroy(m);
      makers[i].ptr = NULL;
      if (!mlirOperationIsNull(init) && acPtrMapGet(&listed, init.ptr) == AC_NONE &&
          mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(init, 0))))
        mlirOperationDestroy(init);
    }
  goto cleanup;
nomem:
  made = -1;
cleanup:
  acFree(writes);
  acFree(makers);
  acPtrMapClear(&idOf);
  acPtrMapClear(&listed);
  return made;
}

/* Puts the first import `imp` in the order acSinkBackwardAliases left the
 * IR in, in place: what acImportOnce gives on the moved IR, without reading
 * the IR again.  The ops keep everything the import read and costed (the IR
 * of an op and its values do not change when it moves); the moves put each
 * op right before its place, those sharing a place in ascending id order,
 * so the new order sorts the ops by (place, id).  The graph is reordered
 * (acGraphReorderOps) and the import's own per-op and per-value arrays
 * (IR handles, names, `unknown`) follow it; the unknown-op list is made
 * again.  Names stay those of the input as written (the printed numbering
 * of the moved IR differs, the values themselves do not). */
AcStatus acImportApplyOrder(AcImport *imp, const AcId *place, uint8_t *unknown,
                            AcError *err, MlirLocation *errLoc) {
  AcGraph *g = imp->graph;
  intptr_t nOps = g->numOps, nValues = g->numValues;
  intptr_t nMax = nOps > nValues ? nOps : nValues;
  AcImportCtx c;
  memset(&c, 0, sizeof c);
  c.err = err;
  c.errLoc = errLoc;
  c.imp = imp;
  c.unknown = unknown;
  AcStatus st = AC_OK;
  AcId *order = acMalloc((size_t)(nOps + 1) * sizeof *order);
  AcId *start = acCalloc((size_t)nOps + 2, sizeof *start);
  AcId *valueOrder = acMalloc((size_t)(nValues + 1) * sizeof *valueOrder);
  uint8_t *done = acCalloc((size_t)nMax + 1, 1);
  if (!order || !start || !valueOrder || !done)
    goto nomem;
  /* Counting sort by place; ascending ids within a place. */
  for (intptr_t o = 0; o < nOps; ++o)
    start[place[o] + 1]++;
  for (intptr_t p = 0; p < nOps; ++p)
    start[p + 1] += start[p];
  for (intptr_t o = 0; o < nOps; ++o)
    order[start[place[o]]++] = (AcId)o;
  if (acGraphReorderOps(g, order, valueOrder) != AC_OK)
    goto nomem;
  acPermuteInPlace(imp->ops, sizeof *imp->ops, order, nOps, done);
  acPermuteInPlace(unknown, 1, order, nOps, done);
  acPermuteInPlace(imp->values, sizeof *imp->values, valueOrder, nValues, done);
  if (imp->valueNames)
    acPermuteInPlace(imp->valueNames, sizeof *imp->valueNames, valueOrder,
                     nValues, done);
  /* The unknown-op list names first ops: made again in the new order. */
  for (intptr_t i = 0; i < imp->numUnknownOps; ++i)
    acFree(imp->unknownOps[i].location);
  acFree(imp->unknownOps);
  imp->unknownOps = NULL;
  imp->numUnknownOps = 0;
  st = acCollectUnknownOps(&c);
  goto cleanup;
nomem:
  st = acImportNoMem(&c, mlirOperationGetLocation(imp->module));
cleanup:
  acFree(order);
  acFree(start);
  acFree(valueOrder);
  acFree(done);
  return st;
}
