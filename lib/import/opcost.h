/*===- import/opcost.h - what one op of a joint function costs (internal) -*- C -*-===*
 *
 * The costs of a top-level op of a joint function: the cost model
 * (lib/cost) on its types as the import read them (c->types: the direct
 * operands, then the results), a linalg.generic's loop ranges and body,
 * for an op the model does not know that has regions (a loop, a branch)
 * what its regions' ops cost, a view the buffer layouts make a copy
 * (import/layout.h) costed as a copy, the user's cost table, and the
 * workspaces: the model's, TOSA's lowering (import/tosa.h) and what the
 * region bodies make while the op runs (import/bodies.h, through the hooks
 * this stage gives it: the import's types and cost model for nested ops).
 *
 * Invariant: costing reads the IR and the context's caches only; the graph
 * is built by the function stage (func.c) from what this returns.  Calls
 * the stages below it (types, layout, dps, bodies, tosa, ir), never func.c.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_OPCOST_H
#define AUTOAC_IMPORT_OPCOST_H

#include "import/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What one top-level op costs (acCostTopOp).
typedef struct AcTopCost {
  AcOpCost cost;              ///< the model's answer, view copies and the
                              ///< user's overrides applied
  AcOpExtra extra;            ///< what the model read beyond the types
  const AcCostOverride *user; ///< the cost table's entry for the op, or NULL
  double userSeconds;         ///< the entry's seconds (when user is set)
  int64_t workspace;          ///< bytes beyond the results, at most
                              ///< AC_MAX_BYTES (the bodies' not included)
  int eff;                    ///< acOpMemoryEffectFree of the op
} AcTopCost;

/// Costs top-level op `op` (named c->opName, resolved as c->opNameCost),
/// whose `numDirect` operand types and `nres` result types are in c->types
/// and whose result bytes are `rb`; `ret` is its function's return.  The
/// direct operands that are constant int lists get them read into c->types
/// (acReadConstIntList), for the workspace.  AC_ERR_INVALID at `loc` when
/// the cost table makes recomputable an op declaring memory effects.
AcStatus acCostTopOp(AcImportCtx *c, MlirOperation op, MlirOperation ret,
                     intptr_t numDirect, intptr_t nres, const int64_t *rb,
                     MlirLocation loc, AcTopCost *out);
/// The bytes the regions of `op` make and free while it runs
/// (acBodyWorkspace with the import's types and cost model for the nested
/// ops; its exactness into c->imp->bodies); -1 when out of memory.
int64_t acOpBodyWorkspace(AcImportCtx *c, MlirOperation op);
/// Notes in c->imp->bodies ("at most") an op of `nres` results that writes
/// one of them into its init in place: the graph counts one in-place result
/// per op, so the plan counts these as new buffers.
void acNoteSeveralInits(AcImportCtx *c, MlirOperation op, intptr_t nres);

#ifdef __cplusplus
}
#endif
#endif
