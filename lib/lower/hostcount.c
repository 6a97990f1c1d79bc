/* hostcount.c - auto-ac-count-host (autoac/lower.h): tells the counting
 * runtime which buffers are host memory.  docs/fidelity.md, "Offload". */
#include "autoac/lower.h"
#include "import/import.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#define SREF(s) mlirStringRefCreateFromCString(s)

static const char acHostNext[] = "acMeasureHostNext";

typedef struct AcHostMarks {
  MlirOperation *ops; ///< alloc_tensor ops marked ac.offload
  intptr_t n, cap;
  int nomem;
} AcHostMarks;

static MlirWalkResult collectCb(MlirOperation op, void *user) {
  AcHostMarks *m = user;
  if (!acOpIs(op, "bufferization.alloc_tensor") ||
      mlirAttributeIsNull(mlirOperationGetAttributeByName(op, SREF("ac.offload"))))
    return MlirWalkResultAdvance;
  if (!acArrayGrow((void **)&m->ops, &m->cap, m->n + 1, sizeof *m->ops)) {
    m->nomem = 1;
    return MlirWalkResultInterrupt;
  }
  m->ops[m->n++] = op;
  return MlirWalkResultAdvance;
}

/* `func.func private @acMeasureHostNext()`, appended to the module's body
 * unless it has one. */
static int declareHostNext(MlirOperation module) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute n = mlirOperationGetAttributeByName(op, SREF("sym_name"));
    if (!mlirAttributeIsNull(n) && mlirAttributeIsAString(n) &&
        mlirStringRefEqual(mlirStringAttrGetValue(n), SREF(acHostNext)))
      return 1;
  }
  MlirType fty = mlirFunctionTypeGet(ctx, 0, NULL, 0, NULL);
  MlirNamedAttribute attrs[3] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("sym_name")),
                            mlirStringAttrGet(ctx, SREF(acHostNext))),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("function_type")),
                            mlirTypeAttrGet(fty)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("sym_visibility")),
                            mlirStringAttrGet(ctx, SREF("private")))};
  MlirOperationState st =
      mlirOperationStateGet(SREF("func.func"), mlirLocationUnknownGet(ctx));
  MlirRegion r = mlirRegionCreate();
  mlirOperationStateAddOwnedRegions(&st, 1, &r);
  mlirOperationStateAddAttributes(&st, 3, attrs);
  MlirOperation f = mlirOperationCreate(&st);
  if (mlirOperationIsNull(f))
    return 0;
  mlirBlockAppendOwnedOperation(body, f);
  return 1;
}

AcStatus acCountHost(MlirOperation module, intptr_t *marked) {
  AcHostMarks m = {NULL, 0, 0, 0};
  AcStatus st = AC_OK;
  MlirContext ctx = mlirOperationGetContext(module);
  mlirOperationWalk(module, collectCb, &m, MlirWalkPreOrder);
  if (m.nomem) {
    st = AC_ERR_NOMEM;
    goto done;
  }
  if (m.n && !declareHostNext(module)) {
    st = AC_ERR_NOMEM;
    goto done;
  }
  for (intptr_t i = 0; i < m.n; ++i) {
    MlirNamedAttribute callee = mlirNamedAttributeGet(
        mlirIdentifierGet(ctx, SREF("callee")),
        mlirFlatSymbolRefAttrGet(ctx, SREF(acHostNext)));
    MlirOperationState s =
        mlirOperationStateGet(SREF("func.call"), mlirOperationGetLocation(m.ops[i]));
    mlirOperationStateAddAttributes(&s, 1, &callee);
    MlirOperation call = mlirOperationCreate(&s);
    if (mlirOperationIsNull(call)) {
      st = AC_ERR_NOMEM;
      goto done;
    }
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(m.ops[i]), m.ops[i], call);
  }
  if (marked)
    *marked = m.n;
done:
  acFree(m.ops);
  return st;
}
