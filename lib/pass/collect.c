/* collect.c - what the lowering passes share (pass/collect.h). */
#include "pass/collect.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#define SREF(s) mlirStringRefCreateFromCString(s)

typedef struct AcOpList {
  AcOpPredicate keep;
  MlirOperation *ops;
  intptr_t n, cap;
  int failed;
} AcOpList;

static MlirWalkResult collectCb(MlirOperation op, void *user) {
  AcOpList *l = user;
  if (!l->keep(op))
    return MlirWalkResultAdvance;
  if (l->n == l->cap) {
    intptr_t cap = l->cap ? 2 * l->cap : 64;
    MlirOperation *p = acRealloc(l->ops, (size_t)cap * sizeof *p);
    if (!p) {
      l->failed = 1;
      return MlirWalkResultInterrupt;
    }
    l->ops = p;
    l->cap = cap;
  }
  l->ops[l->n++] = op;
  return MlirWalkResultAdvance;
}

AcStatus acCollectOps(MlirOperation root, AcOpPredicate keep,
                      MlirOperation **ops, intptr_t *n) {
  AcOpList l = {keep, NULL, 0, 0, 0};
  mlirOperationWalk(root, collectCb, &l, MlirWalkPostOrder);
  if (l.failed) {
    acFree(l.ops);
    l.ops = NULL;
    l.n = 0;
  }
  *ops = l.ops;
  *n = l.n;
  return l.failed ? AC_ERR_NOMEM : AC_OK;
}

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
