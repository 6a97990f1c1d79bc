/*===- autoac/simulate.h - execution order, liveness and the true peak -*- C -*-===*
 *
 * The simulator walks the graph's schedule (each entry a function's forward
 * or backward, per microbatch) op by op, with each plan's recompute groups
 * placed right before their anchor, and tracks live bytes:
 *  - primal inputs live across all steps of their function's instances;
 *    tangents from the start of their backward to its end;
 *  - an op's results are allocated at its step; a value is freed after its
 *    last use in the same phase instance, except saved values (live until
 *    their last use in the backward of the same microbatch) and returned
 *    values (live until the end of that function's backward);
 *  - recomputed values live from their recompute step to their last use in
 *    the backward (transients of a group die after their last use in it);
 *  - views allocate nothing and keep their storage root alive;
 *  - a destination-style op (AcOp.dpsInit, acGraphInPlaceRoot) writes its
 *    result in place of its init when the init's storage is an activation
 *    of the same schedule entry (in the backward not a saved forward
 *    storage) whose last use is that op (what one-shot bufferization does):
 *    the init stops counting at that step.  Written into a gradient by a
 *    backward op, a backward init is the gradient's storage and counts
 *    nothing, and so on down its chain (tensor.empty, linalg.fill).  Each
 *    decision looks at the liveness before any of them;
 *  - an op's workspace (AcOp.workspace: scratch its kernel allocates and
 *    frees inside itself) is live at each of its steps only (forward,
 *    backward or recompute), on top of everything live then;
 *  - parameters, gradients (storage roots of AC_RET_GRAD values), optimizer
 *    state and reserve are the static part, added to every step.  How
 *    gradients count depends on AcGraph.gradMode: under AC_GRADS_BUFFERS as
 *    said; under AC_GRADS_ACCUMULATE the static part still holds them (the
 *    gradients accumulated into) and the backward's gradients are returned
 *    values, live from their op to the end of the backward (two copies
 *    then); under AC_GRADS_ASSIGN they are such returned values only.
 *  A step's live bytes count the values live while the op runs (its operands
 *  and results included).
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_SIMULATE_H
#define AUTOAC_SIMULATE_H

#include "autoac/derive.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Kind of an execution step.
typedef enum AcStepKind {
  AC_STEP_FWD = 0, AC_STEP_BWD = 1, AC_STEP_RECOMPUTE = 2
} AcStepKind;

/// One step of the simulated execution.
typedef struct AcStep {
  AcId op;
  uint8_t kind;       ///< AcStepKind
  int32_t sched;      ///< index into AcGraph.sched
} AcStep;

/// Result of a simulation.
typedef struct AcSimResult {
  int64_t peakBytes;        ///< max live bytes + static bytes
  int64_t staticBytes;
  intptr_t peakStep;        ///< step index of the (first) peak
  AcId peakOp;              ///< op executing at the peak
  uint8_t peakKind;         ///< AcStepKind at the peak
  int32_t peakSched;        ///< schedule entry at the peak
  double recomputeFlops;    ///< per schedule instance summed
  double recomputeSeconds;
  int64_t savedBytes;
  /* Offload (AcPlan.offload; all 0 without it): */
  int64_t offloadedBytes;   ///< bytes of offloaded saves, each storage once
  int64_t hostPeakBytes;    ///< max host bytes the offloaded saves hold
  double copySeconds;       ///< both copy queues' busy time, all instances
  double stallSeconds;      ///< compute waiting for copies (an upper bound)
  AcStep *steps;            ///< [numSteps] if timeline requested (owned)
  int64_t *live;            ///< [numSteps] live bytes excluding static (owned)
  int64_t *liveAfter;       ///< [numSteps] with the timeline: live bytes
                            ///< excluding static after each step's frees
                            ///< (its workspace and the values whose last use
                            ///< it is), before the next step (owned)
  int64_t *hostLive;        ///< [numSteps] host bytes the offloaded saves hold
                            ///< at each step, with the timeline when the plan
                            ///< offloads (owned; NULL otherwise)
  AcId *offloadDone;        ///< [numValues] with the timeline when the
                            ///< plan offloads (owned; NULL otherwise): for an offloaded storage,
                            ///< the forward op after which its device->host
                            ///< copy has completed (its device buffer's last
                            ///< forward step), the same in every schedule
                            ///< entry; AC_NONE for other values
  AcId *offloadIssue;       ///< [numValues] likewise: the backward op before
                            ///< which (before its recomputation) the
                            ///< prefetch's device buffer is allocated;
                            ///< AC_NONE when nothing reads it back
  intptr_t numSteps;
} AcSimResult;

/// Computes static bytes: params + grads + optimizerFactor * params + reserve,
/// grads being 0 under AC_GRADS_ASSIGN (g->gradMode).
/// The caller guarantees the sum fits (tests with small graphs); input from
/// users goes through acSimStaticBytesChecked.
int64_t acSimStaticBytes(const AcGraph *g, double optimizerFactor,
                         int64_t reserve);
/// As acSimStaticBytes, checked: `optimizerFactor` and `reserve` must not be
/// negative and the sum must not pass AC_MAX_BYTES, else AC_ERR_INVALID with
/// a message giving each term.  On success stores the sum in `*out`.
AcStatus acSimStaticBytesChecked(const AcGraph *g, double optimizerFactor,
                                 int64_t reserve, int64_t *out, AcError *err);

/// Fills `mask` [numValues] with the values a plan may offload: forward op
/// results owning their storage (bytes > 0, not a view), not returned by
/// their function (nor through a view), never written in place, not of
/// reference semantics, not AcValue.noOffload, without a view made by an op
/// that cannot be rerun (a plan may save such a view).  Only AC_OK today (`err` for the future).
AcStatus acPlanOffloadCandidates(const AcGraph *g, uint8_t *mask, AcError *err);

/// Simulates a derived plan.  Offloaded saves (plan->offload) are placed on
/// the host link g->hostBandwidth / g->hostLatency (lib/simulate/offload.c;
/// AC_ERR_INVALID when a value is offloaded that is not a saved storage root
/// or the graph has no host link).  With `wantTimeline`, fills steps/live (free
/// with acSimResultClear).
AcStatus acSimulate(const AcGraph *g, const AcPlan *plan, int64_t staticBytes,
                    int wantTimeline, AcSimResult *out, AcError *err);
/// As acSimulate without a timeline, and, when `mask` is given, marks in it [numValues] the
/// saved storages whose offload could lower the peak: in some schedule
/// entry, the value's buffer is live at every step that reaches the peak,
/// all of them after its last forward use and before its first backward
/// read (where even an infinitely fast link keeps it on the device).
/// Offloading any other value frees nothing at those steps (the offload
/// search's filter).  Offloaded saves are never marked.
/// `groups` are the plan's recompute groups (acPlanGroups; kept by the
/// caller: plans with the same saved set share them, e.g. a plan and the
/// plan offloading one more save); NULL: computed here.  `mask` may be NULL.
AcStatus acSimulateGroups(const AcGraph *g, const AcPlan *plan,
                          AcRecomputeGroups *groups, int64_t staticBytes,
                          AcSimResult *out, uint8_t *mask, AcError *err);
/// Frees the arrays a result owns and zeroes it; NULL is accepted.
void acSimResultClear(AcSimResult *r);

#ifdef __cplusplus
}
#endif
#endif
