/* offload.c - offloaded saves in the split halves (docs/rewrite.md,
 * "Offload").
 *
 * After the split, for each offloaded saved value (AcPlan.offload):
 *  - in @f_fwd, the saved result becomes a copy of the value into a buffer
 *    of its own, made right after the op defining it:
 *      %h = bufferization.alloc_tensor() copy(%v) {ac.offload}
 *    so the value itself dies at its last forward use and @f_fwd returns
 *    the copy (the host buffer of the plan);
 *  - in @f_bwd, the saved argument is copied back right before the first
 *    op that uses it (a use inside a region counts at its ancestor op):
 *      %d = bufferization.alloc_tensor() copy(%arg) {ac.prefetch}
 *    every use reading %d; the argument (ac.owned) is freed after the copy.
 * On the CPU both copies are plain copies (one-shot bufferization makes
 * each a memref.alloc and a memref.copy), so the planned program computes
 * bit for bit what the unplanned one does.  The GPU lowering (asynchronous
 * copies on a second stream into pinned host buffers) is not written yet. */
#include "rewrite/rewrite.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#define SREF(s) mlirStringRefCreateFromCString(s)

/* A detached `bufferization.alloc_tensor() copy(%v) {<mark>}`. */
static MlirOperation acCopyOp(MlirContext ctx, MlirValue v, const char *mark) {
  MlirType t = mlirValueGetType(v);
  MlirLocation loc = mlirValueIsAOpResult(v)
                         ? mlirOperationGetLocation(mlirOpResultGetOwner(v))
                         : mlirLocationUnknownGet(ctx);
  int32_t seg[3] = {0, 1, 0};
  MlirNamedAttribute attrs[2] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("operandSegmentSizes")),
                            mlirDenseI32ArrayGet(ctx, 3, seg)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF(mark)),
                            mlirUnitAttrGet(ctx))};
  MlirOperationState st =
      mlirOperationStateGet(SREF("bufferization.alloc_tensor"), loc);
  mlirOperationStateAddOperands(&st, 1, &v);
  mlirOperationStateAddResults(&st, 1, &t);
  mlirOperationStateAddAttributes(&st, 2, attrs);
  return mlirOperationCreate(&st);
}

/* The op of `block` holding `op` (itself, or an ancestor); null if none. */
static MlirOperation acAncestorIn(MlirBlock block, MlirOperation op) {
  while (!mlirOperationIsNull(op) &&
         !mlirBlockEqual(mlirOperationGetBlock(op), block))
    op = mlirOperationGetParentOperation(op);
  return op;
}

/* Does `op` (or an op nested in it) use `v`? */
static int acUses(MlirOperation op, MlirValue v, MlirBlock block) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (mlirOperationEqual(acAncestorIn(block, mlirOpOperandGetOwner(u)), op))
      return 1;
  return 0;
}

AcStatus acRewriteOffloadReady(MlirContext ctx, AcError *err) {
  if (mlirDialectIsNull(mlirContextGetOrLoadDialect(ctx, SREF("bufferization"))))
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "the plan offloads saves, which needs the bufferization "
                      "dialect, and this context has none registered");
  return AC_OK;
}

AcStatus acRewriteOffloadHalves(MlirContext ctx, MlirBlock fb, MlirBlock bb,
                                intptr_t firstSavedResult,
                                const intptr_t *saved, intptr_t n,
                                AcError *err) {
  MlirOperation ret = mlirBlockGetTerminator(fb);
  for (intptr_t j = 0; j < n; ++j) {
    intptr_t k = firstSavedResult + saved[j];
    MlirValue v = mlirOperationGetOperand(ret, k);
    if (!mlirValueIsAOpResult(v) || !mlirTypeIsARankedTensor(mlirValueGetType(v)))
      return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                        "rewrite: offloaded save #%ld is not a ranked tensor "
                        "made by an op", (long)saved[j]);
    MlirOperation out = acCopyOp(ctx, v, "ac.offload");
    MlirOperation def = acAncestorIn(fb, mlirOpResultGetOwner(v));
    if (mlirOperationIsNull(out) || mlirOperationIsNull(def))
      return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                        "rewrite: cannot copy offloaded save #%ld",
                        (long)saved[j]);
    mlirBlockInsertOwnedOperationAfter(fb, def, out);
    mlirOperationSetOperand(ret, k, mlirOperationGetResult(out, 0));
    /* The backward: copied back before its first use. */
    MlirValue arg = mlirBlockGetArgument(bb, saved[j]);
    MlirOperation first = mlirBlockGetFirstOperation(bb);
    while (!mlirOperationIsNull(first) && !acUses(first, arg, bb))
      first = mlirOperationGetNextInBlock(first);
    if (mlirOperationIsNull(first))
      continue; /* never read back */
    MlirOperation back = acCopyOp(ctx, arg, "ac.prefetch");
    if (mlirOperationIsNull(back))
      return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                        "rewrite: cannot copy back offloaded save #%ld",
                        (long)saved[j]);
    mlirBlockInsertOwnedOperationBefore(bb, first, back);
    mlirValueReplaceAllUsesOfWith(arg, mlirOperationGetResult(back, 0));
    mlirOperationSetOperand(back, 0, arg);
  }
  return AC_OK;
}
