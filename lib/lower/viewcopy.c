/* viewcopy.c - the auto-ac-copy-returned-views pass body (autoac/lower.h).
 *
 * With identity-layout function boundaries, one-shot bufferization copies a
 * returned view whose layout is not the identity's into a new buffer at the
 * `return`: its base then lives to the end of the function.  The planner
 * counts that copy at the view (import/layout.h: the view is a copy op of
 * the graph, its base free after it), so this pass makes the program do
 * the same before bufferizing: right after such a view it inserts
 *   %e = tensor.empty() ; %c = bufferization.materialize_in_destination %v in %e
 * and every use of the view reads %c (the same elements), so the base dies
 * at its own last use and the return needs no copy.  docs/fidelity.md,
 * cause 6. */
#include "autoac/lower.h"
#include "lower/collect.h"
#include "import/layout.h"

#include "mlir-c/BuiltinTypes.h"

#include <string.h>

#define SREF(s) mlirStringRefCreateFromCString(s)

static int isOp(MlirOperation op, const char *name) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  size_t n = strlen(name);
  return s.length == n && memcmp(s.data, name, n) == 0;
}

/* The copy of view `v` (result 0 of `def`), inserted after `def`. */
static void copyAfter(MlirOperation def, MlirValue v) {
  MlirBlock block = mlirOperationGetBlock(def);
  MlirLocation loc = mlirOperationGetLocation(def);
  MlirType t = mlirValueGetType(v);
  MlirOperationState es = mlirOperationStateGet(SREF("tensor.empty"), loc);
  mlirOperationStateAddResults(&es, 1, &t);
  MlirOperation empty = mlirOperationCreate(&es);
  mlirBlockInsertOwnedOperationAfter(block, def, empty);
  MlirOperation copy = acMaterializeCreate(loc, v, mlirOperationGetResult(empty, 0));
  mlirBlockInsertOwnedOperationAfter(block, empty, copy);
  mlirValueReplaceAllUsesExcept(v, mlirOperationGetResult(copy, 0), 1, &copy);
}

typedef struct AcViewCopy {
  intptr_t copies;
} AcViewCopy;

static MlirWalkResult funcCb(MlirOperation op, void *user) {
  AcViewCopy *vc = user;
  if (!isOp(op, "func.func"))
    return MlirWalkResultAdvance;
  MlirRegion body = mlirOperationGetRegion(op, 0);
  MlirBlock block = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(block))
    return MlirWalkResultSkip;
  /* Every block's return (a function may have several); the views in
     block order, so a view of a copied one reads the copy (identity). */
  for (; !mlirBlockIsNull(block); block = mlirBlockGetNextInRegion(block)) {
    MlirOperation ret = mlirBlockGetTerminator(block);
    if (mlirOperationIsNull(ret) || !isOp(ret, "func.return"))
      continue;
    for (MlirOperation op = mlirBlockGetFirstOperation(block);
         !mlirOperationIsNull(op) && !mlirOperationEqual(op, ret);
         op = mlirOperationGetNextInBlock(op)) {
      if (!acLayoutIsView(op) || mlirOperationGetNumResults(op) != 1)
        continue;
      MlirValue v = mlirOperationGetResult(op, 0);
      if (!mlirTypeIsARankedTensor(mlirValueGetType(v)) || !acLayoutLeaves(v, ret))
        continue;
      AcLayout l;
      acLayoutOfValue(v, ret, 0, &l);
      if (acLayoutReturnsWithoutCopy(&l))
        continue;
      copyAfter(op, v);
      vc->copies++;
    }
  }
  return MlirWalkResultSkip;
}

AcStatus acCopyReturnedViews(MlirOperation module, intptr_t *copies) {
  AcViewCopy vc = {0};
  mlirOperationWalk(module, funcCb, &vc, MlirWalkPreOrder);
  if (copies)
    *copies = vc.copies;
  return AC_OK;
}
