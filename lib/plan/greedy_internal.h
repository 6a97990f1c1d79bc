/* greedy_internal.h - what the greedy's files share (not installed):
 * trajectory.c's profile measures, drop order, trajectory bookkeeping and
 * the budget's last drop; the reference (greedy_ref.c) and incremental
 * (greedy_inc*.c) trajectories; the budgeted entry (greedy_budget.c).
 * Each of those files includes this header and no other's internals.
 *
 * One name for the budget along the chain: `budget` is the peak (static
 * part included) a plan must fit; < 0 means none (run to the end). */
#ifndef AUTOAC_GREEDY_INTERNAL_H
#define AUTOAC_GREEDY_INTERNAL_H

#include "plan_internal.h"

/// The part of a live-memory profile (static part excluded) the greedy
/// ranks plans by, lexicographically: the highest level, how many steps
/// reach it, and the highest level below it (-1 when every step is at the
/// top).  No steps: {0, 0, -1}.
typedef struct AcProfileTop {
  int64_t top;
  int64_t count;
  int64_t second;
} AcProfileTop;

/// Summarizes live bytes per step.
AcProfileTop acProfileTopOf(const int64_t *live, intptr_t numSteps);

enum { AC_DROP_NONE = 0, AC_DROP_PRIMARY = 1, AC_DROP_SECONDARY = 2 };

/// How a drop that turns profile `cur` into `next` ranks (docs/planner.md):
///  - PRIMARY when the top falls; *fall = cur.top - next.top;
///  - SECONDARY when the top stays and fewer steps reach it
///    (*fall = top - max(next.second, 0)), or as many steps reach it and the
///    second level falls (*fall = cur.second - max(next.second, 0)); the
///    fall is the drop of the descending-sorted profile at its first
///    changed entry, and must be positive;
///  - NONE otherwise (the top rises, or nothing improves).
int acDropClassify(AcProfileTop cur, AcProfileTop next, int64_t *fall);

/// Compares x1 * f1 with x2 * f2 exactly (x finite, >= 0; f > 0): -1, 0, 1.
int acCompareScaled(double x1, int64_t f1, double x2, int64_t f2);

/// The order of value ids among exact ties: by the id's bits reversed, so
/// that ties are taken spread over the graph (ids 0, 2^k, 2^(k-1), ...; any
/// arithmetic run of ids is visited as a van der Corput sequence) instead of
/// one end first.  On a chain of equal layers, lowest-id-first drops the
/// layers in order and grows one recompute group that every drop moves
/// (quadratic work, long recompute transients); spread ties keep groups
/// short.  A strict total order on ids (bit reversal is a bijection).
static inline int acIdBefore(AcId a, AcId b) {
  uint32_t x = (uint32_t)a, y = (uint32_t)b;
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  y = ((y >> 1) & 0x55555555u) | ((y & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  y = ((y >> 2) & 0x33333333u) | ((y & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  y = ((y >> 4) & 0x0F0F0F0Fu) | ((y & 0x0F0F0F0Fu) << 4);
  x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
  y = ((y >> 8) & 0x00FF00FFu) | ((y & 0x00FF00FFu) << 8);
  x = (x >> 16) | (x << 16);
  y = (y >> 16) | (y << 16);
  return x < y;
}

/// 1 when drop a (extra seconds ea, fall fa, value id va) ranks before drop b:
/// less extra per byte of fall (compared exactly), then the larger fall,
/// then acIdBefore.  A strict total order, so the pick does not depend on
/// the order candidates are looked at.
static inline int acDropBefore(double ea, int64_t fa, AcId va, double eb,
                               int64_t fb, AcId vb) {
  int c = acCompareScaled(ea, fb, eb, fa); /* ea/fa vs eb/fb */
  if (c != 0)
    return c < 0;
  if (fa != fb)
    return fa > fb;
  return acIdBefore(va, vb);
}

/*===-------------------------- trajectory.c ------------------------------===*/

/// Appends a plan to a trajectory (arrays grown by doubling); 0 on NOMEM.
int acTrajectoryPush(AcTrajectory *t, intptr_t *cap, AcId dropped,
                     int64_t peak, double seconds, int64_t saved);

/// Drops the plans after the first one reaching the trajectory's last peak:
/// plateau drops that never led to a lower peak are no use to any budget.
void acTrajectoryTrim(AcTrajectory *t);

/// The order of last drops for a budget (acGreedyPlanForBudget): fewer
/// extra seconds, then the lower peak, then acIdBefore.
static inline int acRefineBefore(double extra, int64_t peak, AcId v,
                                 double extra2, int64_t peak2, AcId v2) {
  if (extra != extra2)
    return extra < extra2;
  if (peak != peak2)
    return peak < peak2;
  return acIdBefore(v, v2);
}

/// The best last drop a search has seen so far: value (AC_NONE: none yet),
/// the peak of its plan and the extra recompute seconds it adds over the
/// plan before it.
typedef struct AcLastDrop {
  AcId value;
  int64_t peak;
  double extra;
} AcLastDrop;

/// Keeps drop v (peak, extra) in `best` when it ranks before what is there
/// (acRefineBefore) or `best` is empty.
void acLastDropConsider(AcLastDrop *best, AcId v, int64_t peak, double extra);

/// Records the budget's last drop on `t`, once the trajectory stops at a
/// plan fitting the budget whose drop was `pick`: `best` (non-empty, found
/// among the drops from the plan before, whose recompute seconds are
/// `secondsBefore`) replaces `pick` unless it is `pick` itself.
void acTrajectorySetLastDrop(AcTrajectory *t, AcId pick, const AcLastDrop *best,
                             double secondsBefore);

/// Greedy's plan for `budget` from trajectory `t` (run until a plan fits
/// `budget`, lastDrop set): the chosen plan (acTrajectoryChoose) with the
/// budget's last drop applied.  The one place the last drop reaches a plan.
AcStatus acTrajectoryBudgetPlan(const AcGraph *g, const AcTrajectory *t,
                                int64_t budget, AcPlan *plan, AcError *err);

/*===-------------------------- the trajectories --------------------------===*/

/// The reference trajectory (greedy_ref.c), stopping as
/// acGreedyTrajectoryUntil.  When it stops because a plan fits `budget`
/// (>= 0), the budget's last drop is recorded (acTrajectorySetLastDrop).
AcStatus acGreedyReferenceUntil(const AcGraph *g, const uint8_t *initialSaved,
                                int64_t staticBytes, int64_t budget,
                                AcTrajectory **out, AcError *err);

/// The incremental trajectory (greedy_inc.c), identical to the reference
/// (the last drop included).
/// With `check`, every accepted plan is re-simulated from scratch and its
/// peak, step count at the peak and second level compared with the
/// incremental state (AC_ERR_INTERNAL on a difference): for tests.
AcStatus acGreedyIncrementalUntil(const AcGraph *g, const uint8_t *initialSaved,
                                  int64_t staticBytes, int64_t budget,
                                  int check, AcTrajectory **out, AcError *err);

/// Options of the incremental trajectory and of greedy's plan for a budget
/// (acGreedyIncrementalRun, acGreedyPlanForBudgetRun); acGreedyOptionsInit
/// sets the defaults (acSearchOptionsInit's, check off, no start
/// simulation).
typedef struct AcGreedyOptions {
  /// Budget, static part and deadline: the trajectory stops at the first
  /// plan whose peak fits search.budget (< 0: runs to the end), or once the
  /// clock passes search.deadline (<= 0: never), or at its work limit
  /// (acGreedyWorkLimit).  A trajectory cut short is a prefix of the full
  /// one.
  AcSearchOptions search;
  /// For tests: every accepted plan is re-simulated from scratch and its
  /// peak, step count at the peak and second level compared with the
  /// incremental state (AC_ERR_INTERNAL on a difference).
  int check;
  /// The caller's simulation of `initialSaved` at search.staticBytes
  /// (acPlanStartSetSim; NULL, or peakBytes < 0: unknown): plan 0's peak,
  /// recompute seconds and saved bytes are then taken from it instead of
  /// simulating the set again (not with `check`).  Nothing in it is owned.
  const AcSimResult *startSim;
  /// Values ([numValues], may be NULL: none) the trajectory never drops
  /// (the floor search's restarts keep what they saved back).
  const uint8_t *keep;
} AcGreedyOptions;

void acGreedyOptionsInit(AcGreedyOptions *o);

/// The incremental trajectory as `opts` says; `*cutShort` (may be NULL)
/// says whether the deadline or the work limit stopped it.
/// acGreedyIncrementalUntil is this with {{budget, staticBytes, 0}, check,
/// NULL}.
AcStatus acGreedyIncrementalRun(const AcGraph *g, const uint8_t *initialSaved,
                                const AcGreedyOptions *opts, int *cutShort,
                                AcTrajectory **out, AcError *err);

/// acGreedyPlanForBudget as `opts` says (the trajectory is
/// acGreedyIncrementalRun's): cut short, the plan is the lowest-peak one
/// reached by then (greedy_budget.c).  acGreedyPlanForBudget is this with
/// {{budget, staticBytes, 0}, 0, NULL}.
AcStatus acGreedyPlanForBudgetRun(const AcGraph *g, const uint8_t *initialSaved,
                                  const AcGreedyOptions *opts, int *cutShort,
                                  AcPlan *plan, AcTrajectory **out,
                                  AcError *err);

/// The incremental greedy's work limit for `g` (docs/planner.md, "Bounded
/// time"): AC_GREEDY_WORK_PER_ITEM units per op and value plus
/// AC_GREEDY_WORK_MIN, or acGreedyWorkOverride when that is > 0.  A run that
/// has done more stops, as at a deadline (*cutShort set): its trajectory is
/// a prefix of the full one.  A unit is one item of a candidate's
/// description (a moved op, a touched storage, a range add, a dirty leaf),
/// of an exact evaluation, of an applied drop, or one heap pop.
intptr_t acGreedyWorkLimit(const AcGraph *g);
/// Tests set this to a small limit (0: the default).
extern intptr_t acGreedyWorkOverride;
/// The work units the last incremental run did (for tests of how the work
/// grows with the graph; not thread-safe, read only by tests).
extern intptr_t acGreedyWorkLast;

/// Backward leaves (recompute group + op) with at least this many steps are
/// indexed by the incremental greedy (greedy_inc_profile.c); tests lower it
/// to exercise the indexed path on small graphs.
extern int acGreedyLeafIndexMin;

#endif
