/*===- lib/rewrite/annotate.c - annotate mode: mark saved/recomputed ops -===*
 *
 * No restructuring: every op with a saved result gets
 * `ac.saved = array<i64: r...>` (its saved result numbers, ascending) and
 * every op the backward reruns gets the unit attribute `ac.recomputed`.
 * Marks from an earlier run are replaced, so annotating twice is stable.
 *===----------------------------------------------------------------------===*/
#include "rewrite/rewrite.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/IR.h"

#define SREF(s) mlirStringRefCreateFromCString(s)

AcStatus acRewriteAnnotate(AcImport *imp, const AcPlan *plan, AcError *err) {
  if (!imp || !imp->graph || !plan)
    return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                      "annotate: missing import or plan");
  const AcGraph *g = imp->graph;
  if (g->numOps == 0)
    return AC_OK;
  if (plan->numValues != g->numValues || plan->numOps != g->numOps)
    return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                      "annotate: the plan does not belong to this graph");
  MlirContext ctx = mlirOperationGetContext(imp->module);
  int32_t maxResults = 0;
  for (intptr_t op = 0; op < g->numOps; ++op)
    if (g->ops[op].numResults > maxResults)
      maxResults = g->ops[op].numResults;
  int64_t *idx = acMalloc(sizeof(int64_t) * (size_t)(maxResults + 1));
  if (!idx)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
  for (intptr_t op = 0; op < g->numOps; ++op) {
    const AcOp *o = &g->ops[op];
    MlirOperation mop = imp->ops[op];
    intptr_t n = 0;
    for (int32_t r = 0; r < o->numResults; ++r)
      if (plan->saved[o->firstResult + r])
        idx[n++] = r;
    mlirOperationRemoveDiscardableAttributeByName(mop, SREF("ac.saved"));
    mlirOperationRemoveDiscardableAttributeByName(mop, SREF("ac.recomputed"));
    if (n > 0)
      mlirOperationSetDiscardableAttributeByName(
          mop, SREF("ac.saved"), mlirDenseI64ArrayGet(ctx, n, idx));
    if (plan->recompute[op])
      mlirOperationSetDiscardableAttributeByName(mop, SREF("ac.recomputed"),
                                                 mlirUnitAttrGet(ctx));
  }
  acFree(idx);
  return AC_OK;
}
