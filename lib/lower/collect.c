/* collect.c - the builders the lowering passes share (lower/collect.h). */
#include "lower/collect.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#define SREF(s) mlirStringRefCreateFromCString(s)

MlirValue acDimBefore(MlirOperation at, MlirValue src, intptr_t d) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirLocation loc = mlirOperationGetLocation(at);
  MlirBlock block = mlirOperationGetBlock(at);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirNamedAttribute value = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, SREF("value")), mlirIntegerAttrGet(index, d));
  MlirOperationState cs = mlirOperationStateGet(SREF("arith.constant"), loc);
  mlirOperationStateAddResults(&cs, 1, &index);
  mlirOperationStateAddAttributes(&cs, 1, &value);
  MlirOperation c = mlirOperationCreate(&cs);
  mlirBlockInsertOwnedOperationBefore(block, at, c);
  MlirValue ops[2] = {src, mlirOperationGetResult(c, 0)};
  MlirOperationState ds = mlirOperationStateGet(SREF("tensor.dim"), loc);
  mlirOperationStateAddOperands(&ds, 2, ops);
  mlirOperationStateAddResults(&ds, 1, &index);
  MlirOperation dim = mlirOperationCreate(&ds);
  mlirBlockInsertOwnedOperationBefore(block, at, dim);
  return mlirOperationGetResult(dim, 0);
}

MlirOperation acMaterializeCreate(MlirLocation loc, MlirValue src, MlirValue dest) {
  MlirValue ops[2] = {src, dest};
  MlirType t = mlirValueGetType(dest);
  MlirOperationState ms = mlirOperationStateGet(
      SREF("bufferization.materialize_in_destination"), loc);
  mlirOperationStateAddOperands(&ms, 2, ops);
  mlirOperationStateAddResults(&ms, 1, &t);
  return mlirOperationCreate(&ms);
}
