/*===- autoac/derive.h - plans as data and their derivation -----*- C -*-===*
 *
 * A plan is a set of saved forward values.  Everything else follows from it
 * (acPlanDerive): the backward reads each forward value it needs from the
 * saved set, from the function's arguments, or by rerunning ("recomputing")
 * the forward ops that produce it, transitively, stopping at saved values and
 * arguments.  Recompute ops are grouped per backward op that first needs
 * them (acPlanGroups); the simulator and the rewrite both use those groups,
 * so what is simulated is what is emitted.  Implemented in
 * lib/graph/derive.c, below the simulator and the planners (autoac/plan.h
 * includes this header).
 *
 * Invariants of a derived plan:
 *  - saved[v] only for op results v of forward ops with v.aliasRoot == v
 *    (views are never saved: their base is) or zero-byte values of
 *    non-recomputable ops;
 *  - recompute[op] only for forward, recomputable ops, never mustSave ones;
 *  - every forward value a backward or recompute op reads is saved, an
 *    argument, or produced by a recompute op.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_DERIVE_H
#define AUTOAC_DERIVE_H

#include "autoac/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when op `op` may never be rerun (not known pure, or ac.save).
static inline int acOpCannotRecompute(const AcOp *op) {
  return !op->recomputable || op->mustSave;
}

/// A save set over a graph's values and the recompute set derived from it.
typedef struct AcPlan {
  intptr_t numValues;
  intptr_t numOps;
  uint8_t *saved;      ///< [numValues] forward value kept for the backward
  uint8_t *recompute;  ///< [numOps] forward op rerun in the backward
  uint8_t *offload;    ///< [numValues] saved value kept in host memory
                       ///< between the forward and the backward (a subset
                       ///< of saved[]: copied out after its producer,
                       ///< prefetched before its first backward use;
                       ///< acPlanOffloadable, lib/simulate/offload.c)
} AcPlan;

/// Creates an empty plan (nothing saved) for `g`; NULL on allocation failure.
AcPlan *acPlanCreate(const AcGraph *g);
/// Frees a plan; NULL is accepted.
void acPlanDestroy(AcPlan *plan);
/// Copies saved[] and recompute[] of `src` into `dst` (same graph).
void acPlanCopy(AcPlan *dst, const AcPlan *src);

/// Fills recompute[] from saved[] and clears offload[] of every value that
/// is not saved.  AC_ERR_INFEASIBLE (naming the op and
/// value) when a needed forward value is neither saved nor recomputable, or
/// when a saved value belongs to an ac.recompute op.
AcStatus acPlanDerive(const AcGraph *g, AcPlan *plan, AcError *err);

/// Clears from `saved` every value the backward never reads, directly or
/// through the ops it would recompute from `saved` (such a save only holds
/// memory: e.g. a seed kept beside the mask it makes, once the mask is
/// saved back).  A set that derives still derives, with the same recompute
/// set.  *numDropped (may be NULL) receives the count.  AC_ERR_INFEASIBLE as
/// acPlanDerive when `saved` does not derive (nothing cleared then),
/// AC_ERR_NOMEM.
AcStatus acPlanDropUnread(const AcGraph *g, uint8_t *saved, intptr_t *numDropped,
                          AcError *err);

/// Sets saved[] to every storage root of every save candidate (eager).
void acPlanSaveAll(const AcGraph *g, AcPlan *plan);

/// Bytes of saved activations (each storage once; arguments excluded).
int64_t acPlanSavedBytes(const AcGraph *g, const AcPlan *plan);
/// FLOPs and roofline seconds of the ops recompute[] marks.
void acPlanRecomputeCost(const AcGraph *g, const AcPlan *plan, double *flops,
                         double *seconds);

/// One recompute region: forward ops cloned right before backward op anchor.
typedef struct AcRecomputeGroup {
  AcId anchor;        ///< backward op that first needs the group's values
  int32_t firstOp;    ///< index into AcRecomputeGroups.ops
  int32_t numOps;     ///< ops in forward program order
} AcRecomputeGroup;

/// All recompute regions of a plan, in backward program order per function.
typedef struct AcRecomputeGroups {
  AcRecomputeGroup *groups; intptr_t numGroups;
  AcId *ops;                intptr_t numOps;
} AcRecomputeGroups;

/// Groups a derived plan's recompute ops: walking each function's backward
/// ops in order, the recompute ops an op needs (transitively) that no earlier
/// group produced form a group anchored at it.
AcStatus acPlanGroups(const AcGraph *g, const AcPlan *plan,
                      AcRecomputeGroups **out, AcError *err);
/// Frees groups; NULL is accepted.
void acRecomputeGroupsDestroy(AcRecomputeGroups *groups);

#ifdef __cplusplus
}
#endif
#endif
