/* opcost.c - what one op of a joint function costs (import/opcost.h): the
 * cost model on the op's types, a linalg.generic's loops and body, a loop's
 * or branch's regions, the layouts' view copies, the user's cost table, the
 * workspaces (the model's, TOSA's, the region bodies'). */
#include "import/opcost.h"
#include "import/dps.h"
#include "import/layout.h"
#include "import/tosa.h"
#include "import/types.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"

#include <stdio.h>
#include <string.h>

/* linalg.generic: loop ranges from indexing maps and operand shapes. */
static void acLinalgExtra(MlirOperation op, const AcTensorType *types,
                          intptr_t numOperands, AcOpExtra *extra) {
  MlirAttribute maps = mlirOperationGetAttributeByName(op, acStr("indexing_maps"));
  MlirAttribute iters = mlirOperationGetAttributeByName(op, acStr("iterator_types"));
  if (mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps) ||
      mlirArrayAttrGetNumElements(maps) != numOperands)
    return;
  double range[64];
  intptr_t numDims = 0;
  for (intptr_t i = 0; i < numOperands; ++i) {
    MlirAttribute m = mlirArrayAttrGetElement(maps, i);
    if (!mlirAttributeIsAAffineMap(m))
      return;
    MlirAffineMap map = mlirAffineMapAttrGetValue(m);
    if (i == 0) {
      numDims = mlirAffineMapGetNumDims(map);
      if (numDims > 64)
        return;
      for (intptr_t d = 0; d < numDims; ++d)
        range[d] = 1;
    }
    if (!types[i].isTensor)
      continue;
    intptr_t nr = mlirAffineMapGetNumResults(map);
    for (intptr_t r = 0; r < nr && r < types[i].rank; ++r) {
      MlirAffineExpr e = mlirAffineMapGetResult(map, r);
      if (mlirAffineExprIsADim(e)) {
        intptr_t d = mlirAffineDimExprGetPosition(e);
        if (d < numDims && (double)types[i].dims[r] > range[d])
          range[d] = (double)types[i].dims[r];
      }
    }
  }
  double it = 1;
  for (intptr_t d = 0; d < numDims; ++d)
    it *= range[d];
  extra->loopIterations = it;
  int hasReduction = 0, hasMul = 0, hasAdd = 0;
  if (!mlirAttributeIsNull(iters) && mlirAttributeIsAArray(iters)) {
    for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(iters); ++i) {
      AcStrBuf text = {0};
      mlirAttributePrint(mlirArrayAttrGetElement(iters, i), acStrBufMlirCallback, &text);
      if (text.data && strstr(text.data, "reduction"))
        hasReduction = 1;
      acFree(text.data);
    }
  }
  if (mlirOperationGetNumRegions(op) > 0) {
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    if (!mlirBlockIsNull(body)) {
      for (MlirOperation o = mlirBlockGetFirstOperation(body);
           !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
        MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(o));
        if (acStrRefEq(n, "linalg.yield"))
          continue;
        extra->bodyArithOps++;
        if (acStrRefEq(n, "arith.mulf") || acStrRefEq(n, "arith.muli"))
          hasMul = 1;
        if (acStrRefEq(n, "arith.addf") || acStrRefEq(n, "arith.addi"))
          hasAdd = 1;
      }
    }
  }
  extra->isContraction = (uint8_t)(hasReduction && hasMul && hasAdd);
}

/* Whether view op `op` is a copy once bufferized (import/layout.h,
 * docs/fidelity.md cause 6): a reshape its source's layout does not allow
 * (a collapse of groups that are not contiguous), or a view whose layout an
 * identity-layout function result cannot take that leaves its function:
 * returned by `ret` or marked ac.save (acLayoutLeaves), or one the
 * backward must receive as it is (`pinned`: not recomputable).
 * *boundary: the second kind. */
static int acViewCopies(MlirOperation op, MlirOperation ret, int pinned,
                        int *boundary) {
  AcLayout src, res;
  *boundary = 0;
  if (mlirOperationGetNumResults(op) != 1 || mlirOperationGetNumOperands(op) < 1)
    return 0;
  acLayoutOfValue(mlirOperationGetOperand(op, 0), ret, 1, &src);
  AcLayoutKind k = acLayoutStep(op, &src, &res);
  if (k == AC_LAYOUT_COPY)
    return 1;
  if (k != AC_LAYOUT_VIEW || acLayoutReturnsWithoutCopy(&res))
    return 0;
  *boundary = pinned || acLayoutLeaves(mlirOperationGetResult(op, 0), ret);
  return *boundary;
}

/* acBodyWorkspace's hooks (import/bodies.h): the import's types and cost
 * model, for the values and ops nested in a region op.  A value whose type
 * cannot be read or has a dynamic dimension is not sized (-1). */
static int64_t acBodyValueBytes(void *user, MlirValue v) {
  AcImportCtx *c = user;
  AcTensorType t;
  if (!acReadTypeQuietly(c, v, &t))
    return -1;
  if (!t.isTensor)
    return 0;
  for (int32_t d = 0; d < t.rank; ++d)
    if (t.dims[d] == AC_DIM_DYNAMIC)
      return -1;
  int64_t bytes = acTensorBytes(&t);
  return bytes < 0 || bytes > AC_MAX_BYTES ? -1 : bytes;
}

/* The cost model's answer for `op`, nested in a region op (types read
 * through the import's cache, a linalg.generic's body read as at the top
 * level).  0 when an operand or result type cannot be read. */
static int acNestedCost(AcImportCtx *c, MlirOperation op, AcOpCost *cost) {
  intptr_t nops = mlirOperationGetNumOperands(op), nres = mlirOperationGetNumResults(op);
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  char name[128];
  AcTensorType types[64];
  if (nops + nres > 64 || n.length >= sizeof name)
    return 0;
  for (intptr_t i = 0; i < nops + nres; ++i) {
    MlirValue v = i < nops ? mlirOperationGetOperand(op, i)
                           : mlirOperationGetResult(op, i - nops);
    if (!acReadTypeQuietly(c, v, &types[i]))
      return 0;
  }
  memcpy(name, n.data, n.length);
  name[n.length] = 0;
  AcOpExtra extra;
  memset(&extra, 0, sizeof extra);
  if (acStrRefEq(n, "linalg.generic"))
    acLinalgExtra(op, types, nops, &extra);
  acCostEstimate(name, types, nops, types + nops, nres, &extra, cost);
  return 1;
}

static intptr_t acBodyAliasOperand(void *user, MlirOperation op) {
  AcOpCost cost;
  intptr_t nops = mlirOperationGetNumOperands(op);
  if (nops == 0 || !acNestedCost(user, op, &cost))
    return -1;
  if (cost.isView)
    return 0;
  return cost.mutatesOperand >= 0 && cost.mutatesOperand < nops ? cost.mutatesOperand : -1;
}

/* What the ops in the regions of `op` cost (a loop: its body, times its
 * trip count when it is a constant, else once; an scf.if or
 * scf.index_switch: its costliest region), into `cost`'s FLOPs and bytes:
 * a loop is no longer 0 FLOPs to the planner.  cost->unknown stays set
 * when a nested op is unknown to the model; computeIntensive when one is. */
static void acRegionCost(AcImportCtx *c, MlirOperation op, int depth, AcOpCost *cost) {
  int branches = acOpIs(op, "scf.if") || acOpIs(op, "scf.index_switch");
  double flops = 0, bytes = 0;
  int unknown = 0;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    double rf = 0, rb = 0;
    for (MlirBlock blk = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(blk); blk = mlirBlockGetNextInRegion(blk)) {
      MlirOperation term = acBlockTerminator(blk);
      for (MlirOperation o = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(o);
           o = mlirOperationGetNextInBlock(o)) {
        AcOpCost k;
        memset(&k, 0, sizeof k);
        MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(o));
        if (!mlirOperationIsNull(term) && mlirOperationEqual(o, term))
          continue; /* a yield: costs nothing */
        if (mlirOperationGetNumRegions(o) > 0 &&
            !(n.length > 7 && !strncmp(n.data, "linalg.", 7))) {
          if (depth < AC_BODY_DEPTH)
            acRegionCost(c, o, depth + 1, &k);
          else
            k.unknown = 1;
        } else if (!acNestedCost(c, o, &k)) {
          k.unknown = 1;
        }
        rf += k.flops;
        rb += k.bytesMoved;
        unknown |= k.unknown;
        cost->computeIntensive |= k.computeIntensive;
      }
    }
    if (branches) {
      flops = rf > flops ? rf : flops;
      bytes = rb > bytes ? rb : bytes;
    } else {
      flops += rf;
      bytes += rb;
    }
  }
  int64_t trips = acOpIs(op, "scf.for") ? acForTrips(op) : -1;
  double times = trips >= 0 ? (double)trips : 1.0;
  cost->flops = flops * times;
  cost->bytesMoved = bytes * times;
  cost->unknown = (uint8_t)unknown;
}

/* An op of several results that writes one of them into its init in
 * place (a loop carrying a tensor and a counter, a linalg op with two
 * `outs`): the graph counts one in-place result per op, so the plan counts
 * these as new buffers, an upper bound (compiled_peak "at most"). */
void acNoteSeveralInits(AcImportCtx *c, MlirOperation op, intptr_t nres) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  int linalg = n.length > 7 && !strncmp(n.data, "linalg.", 7);
  intptr_t nops = mlirOperationGetNumOperands(op);
  for (intptr_t k = 0; k < nres; ++k) {
    MlirValue r = mlirOperationGetResult(op, k);
    if (acBodyValueBytes(c, r) <= 0)
      continue;
    int inPlace = linalg ? nops >= nres &&
                               mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(op, nops - nres + k)),
                                             mlirValueGetType(r))
                         : !mlirValueIsNull(acDpsResultInit(op, k, 0));
    if (!inPlace)
      continue;
    acBodyNoteAt(&c->imp->bodies, AC_BODY_AT_MOST, op,
                 "'%s' writes its result #%lld into its init in place beside "
                 "other results; the plan counts it as a new buffer", (long long)k);
    return;
  }
}

int64_t acOpBodyWorkspace(AcImportCtx *c, MlirOperation op) {
  AcBodyHooks hooks = {c, acBodyValueBytes, acBodyAliasOperand};
  return acBodyWorkspace(op, &hooks, &c->imp->bodies);
}

/* The cost model's answer for `op` with its types read (c->types), a loop's
 * or branch's regions costed when the model does not know the op itself,
 * and a view the layouts make a copy (acViewCopies) costed as a copy. */
static void acCostModel(AcImportCtx *c, MlirOperation op, MlirOperation ret,
                        intptr_t numDirect, intptr_t nres, const int64_t *rb,
                        AcTopCost *out) {
  const char *opName = c->opName;
  AcOpCost *cost = &out->cost;
  memset(&out->extra, 0, sizeof out->extra);
  out->eff = acOpMemoryEffectFree(op);
  out->extra.knownPure = out->eff == 1;
  out->extra.hasMemoryEffects = out->eff == 0;
  if (acOpIs(op, "linalg.generic"))
    acLinalgExtra(op, c->types, numDirect, &out->extra);
  acCostEstimateNamed(c->opNameCost, opName, c->types, numDirect,
                      c->types + numDirect, nres, &out->extra, cost);
  if (cost->unknown && mlirOperationGetNumRegions(op) > 0 &&
      strncmp(opName, "linalg.", 7) != 0) {
    /* A loop or a branch: what its regions' ops cost. */
    acRegionCost(c, op, 0, cost);
    if (cost->computeIntensive)
      cost->kind = AC_KIND_MATMUL;
  }
  const AcCostOverride *user = acCostTableLookup(c->costTable, opName);
  out->user = user;
  int boundary = 0;
  if (cost->isView && nres == 1 && c->types[numDirect].isTensor &&
      acViewCopies(op, ret,
                   !cost->recomputable ||
                       (user && user->hasRecomputable && !user->recomputable),
                   &boundary)) {
    /* A new buffer and a copy: the result owns its bytes, the source may
       die at this op.  A boundary copy is what leaves the function, so
       it is never rerun (the backward receives the copy). */
    cost->isView = 0;
    cost->kind = AC_KIND_DATA_MOVEMENT;
    cost->bytesMoved = 2 * (double)rb[0];
    if (boundary)
      cost->recomputable = 0;
  }
}

AcStatus acCostTopOp(AcImportCtx *c, MlirOperation op, MlirOperation ret,
                     intptr_t numDirect, intptr_t nres, const int64_t *rb,
                     MlirLocation loc, AcTopCost *out) {
  const char *opName = c->opName;
  acCostModel(c, op, ret, numDirect, nres, rb, out);
  const AcCostOverride *user = out->user;
  if (user && user->hasRecomputable && user->recomputable &&
      out->extra.hasMemoryEffects) {
    char why[512];
    snprintf(why, sizeof why, "cost table '%s' makes '%s' recomputable, "
             "but the op declares memory effects%s",
             acCostTableSource(c->costTable), opName, "");
    return acImportFail(c, loc, AC_ERR_INVALID, AC_NONE, "%s%s", why,
                        ": autoac never reruns it");
  }
  out->userSeconds = user ? acCostApplyOverride(user, c->device, &out->cost) : 0;
  for (intptr_t i = 0; i < numDirect; ++i)
    acReadConstIntList(mlirOperationGetOperand(op, i), &c->types[i]);
  int64_t workspace = user && user->hasWorkspace
                          ? user->workspace
                          : acCostWorkspace(c->device, opName, c->types, numDirect,
                                            c->types + numDirect, nres) +
                                acTosaWorkspace(op, &c->imp->bodies);
  if (workspace > AC_MAX_BYTES)
    workspace = AC_MAX_BYTES;
  out->workspace = workspace;
  return AC_OK;
}
