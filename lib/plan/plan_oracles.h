/* plan_oracles.h - what tests check the planners against (not installed):
 * the reference greedy, trajectory equality, the ILP's memory model read
 * back.  Implemented in greedy_ref.c, trajectory.c and ilp_model.c; used by
 * test/unit (through plan_testkit.h), bench/test_greedy_corpus.c and
 * bench/ac-bench.c. */
#ifndef AUTOAC_PLAN_ORACLES_H
#define AUTOAC_PLAN_ORACLES_H

#include "autoac/plan.h"

/// The straightforward algorithm (re-derive and re-simulate every candidate
/// at every step), kept as the reference the incremental
/// acGreedyTrajectoryFrom (lib/plan/greedy_inc.c) agrees with bit for bit.
AcStatus acGreedyTrajectoryReference(const AcGraph *g,
                                     const uint8_t *initialSaved,
                                     int64_t staticBytes, AcTrajectory **out,
                                     AcError *err);
/// 1 when two trajectories have the same drops, peaks, recompute seconds
/// (bit for bit), saved bytes and budget's last drop (refinedDrop and its
/// numbers); 0 otherwise.
int acTrajectoryEqual(const AcTrajectory *a, const AcTrajectory *b);

/// The ILP's memory model evaluated for `plan` (derived, `initialSaved` minus
/// droppable values of it, else AC_ERR_INVALID): live bytes, static part
/// excluded, at each forward and backward op step of acSimulate's timeline
/// (recompute steps skipped), in order.  Equal to the simulated live bytes at
/// forward steps and at most them at backward steps.  Writes up to `cap`
/// entries of `live` and the number of steps to `*count`.
AcStatus acIlpModelLive(const AcGraph *g, const uint8_t *initialSaved,
                        const AcPlan *plan, int64_t *live, intptr_t cap,
                        intptr_t *count, AcError *err);

#endif
