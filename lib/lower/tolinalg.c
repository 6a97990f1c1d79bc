/* tolinalg.c - the auto-ac-to-linalg pass body (autoac/lower.h).
 *
 * Two steps before bufferization, after upstream's tosa-to-linalg passes:
 *
 * 1. TOSA's constants.  tosa-to-linalg leaves `tosa.const` (a tensor an op
 *    still reads) and `tosa.const_shape` (read by nothing any more).
 *    Upstream's tosa-to-arith would make the former arith.constant, but it
 *    runs the greedy rewriter, which also folds every other op of the
 *    function (a full-size tensor.insert_slice becomes its source): copies
 *    the plan counted would vanish.  So: a used tosa.const becomes an
 *    arith.constant of the same values, and unused ones are erased.
 *
 * 2. Elementwise ops on tensors.  `arith` and `math` ops work on tensors
 * (`arith.mulf %a, %b : tensor<4x8xf32>`), and the planner counts each
 * such op's result as a new buffer.  One-shot bufferization cannot
 * bufferize them; upstream's `convert-elementwise-to-linalg` can, but it
 * makes an *operand* the linalg init, so bufferization writes into the
 * operand's buffer where it dies: a reuse the plan did not count (the
 * compiled program would peak below the plan, and the report's "exact"
 * would be wrong).  This pass rewrites each op into
 *   %e = tensor.empty(dims) ; %r = linalg.generic ins(tensors) outs(%e)
 *        { payload: the op itself, on the elements }
 * so the result is a fresh buffer, exactly what the planner counts.
 * Scalar operands stay as they are (the payload reads them from above). */
#include "autoac/lower.h"
#include "lower/collect.h"

#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <string.h>

#define SREF(s) mlirStringRefCreateFromCString(s)
/* Operands, results and rank this pass rewrites at most (fixed arrays). */
#define AC_EW_MAX_OPERANDS 16

static int hasPrefix(MlirOperation op, const char *prefix) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  size_t n = strlen(prefix);
  return s.length > n && memcmp(s.data, prefix, n) == 0;
}

static int isOp(MlirOperation op, const char *name) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  size_t n = strlen(name);
  return s.length == n && memcmp(s.data, name, n) == 0;
}

/* An arith/math op on ranked tensors this pass rewrites: every result a
   ranked tensor of one shape, every operand a tensor of that shape or a
   value that is no shaped type, no region. */
static int isElementwiseOnTensors(MlirOperation op) {
  if (!hasPrefix(op, "arith.") && !hasPrefix(op, "math."))
    return 0;
  if (isOp(op, "arith.constant") || mlirOperationGetNumRegions(op) != 0)
    return 0;
  intptr_t nr = mlirOperationGetNumResults(op), no = mlirOperationGetNumOperands(op);
  if (nr < 1 || nr > AC_EW_MAX_OPERANDS || no > AC_EW_MAX_OPERANDS)
    return 0;
  MlirType r0 = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsARankedTensor(r0))
    return 0;
  intptr_t rank = mlirShapedTypeGetRank(r0);
  if (rank > AC_EW_MAX_OPERANDS)
    return 0; /* left to bufferization, which refuses it by name */
  for (intptr_t i = 0; i < nr; i++) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, i));
    if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) != rank)
      return 0;
  }
  for (intptr_t i = 0; i < no; i++) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
    if (mlirTypeIsAShaped(t) &&
        (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) != rank))
      return 0;
  }
  return 1;
}

static MlirOperation insertBefore(MlirOperation at, MlirOperationState *st) {
  MlirOperation op = mlirOperationCreate(st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, op);
  return op;
}

/* A fresh `tensor.empty` of result `k`'s type before `op`; its dynamic
   sizes read from the first tensor operand (elementwise: one shape). */
static MlirValue emptyFor(MlirOperation op, intptr_t k) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, k));
  MlirValue sizes[AC_EW_MAX_OPERANDS];
  intptr_t nsizes = 0, rank = mlirShapedTypeGetRank(t);
  MlirValue src = {NULL};
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op) && !src.ptr; i++)
    if (mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetOperand(op, i))))
      src = mlirOperationGetOperand(op, i);
  for (intptr_t d = 0; d < rank; d++)
    if (mlirShapedTypeIsDynamicDim(t, d) && nsizes < AC_EW_MAX_OPERANDS)
      sizes[nsizes++] = acDimBefore(op, src, d);
  MlirOperationState es =
      mlirOperationStateGet(SREF("tensor.empty"), mlirOperationGetLocation(op));
  mlirOperationStateAddOperands(&es, nsizes, sizes);
  mlirOperationStateAddResults(&es, 1, &t);
  return mlirOperationGetResult(insertBefore(op, &es), 0);
}

/* The payload block: one argument per tensor input and per init, holding
   a clone of `op` on the elements and a linalg.yield of its results. */
static MlirBlock payload(MlirOperation op, const MlirValue *ins, intptr_t nin,
                         intptr_t nout) {
  MlirType types[2 * AC_EW_MAX_OPERANDS];
  MlirLocation locs[2 * AC_EW_MAX_OPERANDS];
  MlirLocation loc = mlirOperationGetLocation(op);
  for (intptr_t i = 0; i < nin; i++)
    types[i] = mlirShapedTypeGetElementType(mlirValueGetType(ins[i]));
  for (intptr_t k = 0; k < nout; k++)
    types[nin + k] = mlirShapedTypeGetElementType(
        mlirValueGetType(mlirOperationGetResult(op, k)));
  for (intptr_t i = 0; i < nin + nout; i++)
    locs[i] = loc;
  MlirBlock block = mlirBlockCreate(nin + nout, types, locs);
  MlirOperation scalar = mlirOperationClone(op);
  mlirBlockAppendOwnedOperation(block, scalar);
  for (intptr_t i = 0, a = 0; i < mlirOperationGetNumOperands(scalar); i++)
    if (mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetOperand(scalar, i))))
      mlirOperationSetOperand(scalar, i, mlirBlockGetArgument(block, a++));
  MlirValue ys[AC_EW_MAX_OPERANDS];
  for (intptr_t k = 0; k < nout; k++) {
    ys[k] = mlirOperationGetResult(scalar, k);
    mlirValueSetType(ys[k], types[nin + k]);
  }
  MlirOperationState st = mlirOperationStateGet(SREF("linalg.yield"), loc);
  mlirOperationStateAddOperands(&st, nout, ys);
  mlirBlockAppendOwnedOperation(block, mlirOperationCreate(&st));
  return block;
}

/* The generic's attributes: identity maps, parallel iterators, segments. */
static void genericAttrs(MlirOperationState *st, MlirContext ctx, intptr_t rank,
                         intptr_t nin, intptr_t nout) {
  MlirAttribute maps[2 * AC_EW_MAX_OPERANDS], iters[AC_EW_MAX_OPERANDS];
  MlirAttribute id = mlirAffineMapAttrGet(mlirAffineMapMultiDimIdentityGet(ctx, rank));
  for (intptr_t i = 0; i < nin + nout; i++)
    maps[i] = id;
  MlirAttribute par =
      mlirAttributeParseGet(ctx, SREF("#linalg.iterator_type<parallel>"));
  for (intptr_t d = 0; d < rank; d++)
    iters[d] = par;
  int32_t seg[2] = {(int32_t)nin, (int32_t)nout};
  MlirNamedAttribute attrs[3] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("indexing_maps")),
                            mlirArrayAttrGet(ctx, nin + nout, maps)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("iterator_types")),
                            mlirArrayAttrGet(ctx, rank, iters)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("operandSegmentSizes")),
                            mlirDenseI32ArrayGet(ctx, 2, seg))};
  mlirOperationStateAddAttributes(st, 3, attrs);
}

/* Rewrites `op` (isElementwiseOnTensors) and erases it. */
static void rewriteOne(MlirOperation op) {
  MlirContext ctx = mlirOperationGetContext(op);
  intptr_t nout = mlirOperationGetNumResults(op), nin = 0;
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(mlirOperationGetResult(op, 0)));
  MlirValue operands[2 * AC_EW_MAX_OPERANDS];
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (mlirTypeIsARankedTensor(mlirValueGetType(v)))
      operands[nin++] = v;
  }
  for (intptr_t k = 0; k < nout; k++)
    operands[nin + k] = emptyFor(op, k);
  MlirType rtypes[AC_EW_MAX_OPERANDS];
  for (intptr_t k = 0; k < nout; k++)
    rtypes[k] = mlirValueGetType(mlirOperationGetResult(op, k));
  MlirOperationState st =
      mlirOperationStateGet(SREF("linalg.generic"), mlirOperationGetLocation(op));
  mlirOperationStateAddOperands(&st, nin + nout, operands);
  mlirOperationStateAddResults(&st, nout, rtypes);
  genericAttrs(&st, ctx, rank, nin, nout);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, payload(op, operands, nin, nout));
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation generic = insertBefore(op, &st);
  for (intptr_t k = 0; k < nout; k++)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, k),
                                  mlirOperationGetResult(generic, k));
  mlirOperationDestroy(op);
}

static int isTosaConstant(MlirOperation op) {
  return mlirOperationGetNumRegions(op) == 0 && mlirOperationGetNumResults(op) == 1 &&
         (isOp(op, "tosa.const") || isOp(op, "tosa.const_shape"));
}

/* Step 1: `op` (isTosaConstant) erased when unused, else (a tosa.const)
   replaced by an arith.constant of its values. */
static void lowerTosaConstant(MlirOperation op) {
  MlirValue r = mlirOperationGetResult(op, 0);
  MlirAttribute values = mlirOperationGetAttributeByName(op, SREF("values"));
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(r))) {
    mlirOperationDestroy(op);
    return;
  }
  if (!isOp(op, "tosa.const") || mlirAttributeIsNull(values))
    return;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType t = mlirValueGetType(r);
  MlirNamedAttribute value =
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("value")), values);
  MlirOperationState st =
      mlirOperationStateGet(SREF("arith.constant"), mlirOperationGetLocation(op));
  mlirOperationStateAddResults(&st, 1, &t);
  mlirOperationStateAddAttributes(&st, 1, &value);
  MlirOperation c = insertBefore(op, &st);
  mlirValueReplaceAllUsesOfWith(r, mlirOperationGetResult(c, 0));
  mlirOperationDestroy(op);
}

AcStatus acToLinalg(MlirOperation module, intptr_t *rewritten) {
  MlirOperation *ops;
  intptr_t n;
  if (acCollectOps(module, isTosaConstant, &ops, &n) != AC_OK)
    return AC_ERR_NOMEM;
  for (intptr_t i = 0; i < n; i++)
    lowerTosaConstant(ops[i]);
  acFree(ops);
  if (acCollectOps(module, isElementwiseOnTensors, &ops, &n) != AC_OK)
    return AC_ERR_NOMEM;
  for (intptr_t i = 0; i < n; i++)
    rewriteOne(ops[i]);
  if (rewritten)
    *rewritten = n;
  acFree(ops);
  return AC_OK;
}
