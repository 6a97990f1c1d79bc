/* plan_internal.h - helpers shared by the planners (plan.c, start.c, run.c,
 * the greedy, knapsack.c, beam.c, the ILP).
 * Not installed; not part of the public API. */
#ifndef AUTOAC_PLAN_INTERNAL_H
#define AUTOAC_PLAN_INTERNAL_H

#include "autoac/plan.h"
#include "autoac/simulate.h"


/* Checks whether saved value `v` can be dropped from a plan whose saved set
 * is `saved`: v is a saved storage root produced by a forward op that may be
 * recomputed, and every forward value reachable from that op's operands
 * through values not in `saved` (stopping at saved values and arguments) is
 * produced by an op that may be recomputed.  Dropping any set of values that
 * are each droppable keeps a derived plan derivable.  Scratch space is kept
 * in the checker so that repeated checks cost only what they visit. */
typedef struct AcDropChecker AcDropChecker;
AcDropChecker *acDropCheckerCreate(const AcGraph *g);
void acDropCheckerDestroy(AcDropChecker *ck);
int acDropCheckerOk(AcDropChecker *ck, const uint8_t *saved, AcId v);
/* The recompute seconds dropping droppable value v from the derived plan
 * `base` adds: acPlanExtraSeconds(base, base without v derived), the same
 * double, from a walk over what v's producer needs (no derivation). */
double acDropCheckerExtraSeconds(AcDropChecker *ck, const AcPlan *base, AcId v,
                                 const int32_t *inst);

/* Number of backward schedule entries (microbatches) of each function:
 * `inst` has g->numFuncs entries. */
void acPlanBwdInstances(const AcGraph *g, int32_t *inst);

/* Recompute seconds `after` adds over `before` (both derived, `after`'s
 * recompute set a superset): each newly recomputed op counted once per
 * backward instance of its function. */
double acPlanExtraSeconds(const AcGraph *g, const AcPlan *before,
                          const AcPlan *after, const int32_t *inst);

/* Derives a plan from `saved` (copied in) into `plan`. */
AcStatus acPlanFromSaved(const AcGraph *g, const uint8_t *saved, AcPlan *plan,
                         AcError *err);

/* acPlanStartSet that also hands back the simulation (no timeline) it made
 * of the set it returns, so that the search from it need not simulate it
 * again: `sim` (may be NULL) gets peakBytes -1 when the set was not
 * simulated (the min-cut set does not derive).  Nothing in it is owned. */
AcStatus acPlanStartSetSim(const AcGraph *g, int64_t staticBytes, uint8_t *saved,
                           AcSimResult *sim, AcError *err);

/* May v be added to a save set (plan.h invariants): a forward result that
 * owns its storage, which the backward reads and no ac.recompute forces? */
int acPlanSavable(const AcGraph *g, AcId v);

/* Structural signatures (signature.c) into sig[numValues]: a hash of the
 * value's tree AC_PLAN_SIG_DEPTH producers deep, each node its producer's
 * name and operand count, its result number and logical bytes, and its
 * operands' trees in order; an argument is a leaf, its role and bytes;
 * a node AC_PLAN_SIG_DEPTH deep is a leaf, its logical bytes alone.
 * Equal for the same value of each of a model's repeated layers, equal
 * in every run (names hashed by their text). */
enum { AC_PLAN_SIG_DEPTH = 4 };
AcStatus acPlanSignatures(const AcGraph *g, uint64_t *sig, AcError *err);

/* The recomputed values of the group running at `peakOp` that may be saved
 * back (the starting set's candidates: the op's results, then walking back
 * through the recomputed producers of its operands, nearest first): at most
 * `max` into `out`.  `seen` is [numOps] zeroed scratch, left zeroed. */
intptr_t acPlanPeakCandidates(const AcGraph *g, const AcPlan *plan, AcId peakOp,
                              AcId *out, intptr_t max, uint8_t *seen);

/* The floor search's restarts (restart.c): from `plan` (derived, missing
 * opts->budget), up to AC_FLOOR_RESTART_ROUNDS rounds each saving back one
 * of the AC_FLOOR_RESTART_TRIES nearest recomputed values of the group at
 * the peak and running greedy's trajectory again from there; a round's
 * lowest floor, when below the plan's peak, becomes the plan (*changed).
 * Stops at `deadline` (> 0; *limited set). */
AcStatus acFloorRestarts(const AcGraph *g, const AcPlanOptions *opts,
                         double deadline, AcPlan *plan, int *changed,
                         int *limited, AcError *err);

/* acPlanRunStats that also hands back the simulation of `plan` (`sim`,
 * cleared first; with a timeline when `wantTimeline`), reusing the one the
 * search made of it when there is one.  Free it with acSimResultClear. */
AcStatus acPlanRunSim(const AcGraph *g, const AcPlanOptions *opts,
                      AcPlan *plan, AcSearchStats *stats, int wantTimeline,
                      AcSimResult *sim, AcError *err);

/* The offload move (lib/plan/offload.c, docs/planner.md "Offload"): from
 * the derived `plan` (the recompute searches' plan for a budget they miss),
 * offloads and drops saves while the simulated peak is over opts->budget
 * and a move lowers it, within g->hostBudget; then the same moves from the
 * starting set `start` (may be NULL), and the lower of the two (the start's
 * run is the one acOffloadCompete follows at every budget greedy meets: so
 * the plan for a missed budget is never above one a higher budget takes).  *changed says whether the plan changed; *limited
 * is set when the work limit or `deadline` (> 0) stopped it.  Nothing
 * happens without a budget or a host link. */
/* Tests set this to 1: the offload trajectory tries every move at every
 * step instead of stopping at the first bound that cannot beat the best
 * (the same moves either way; test_offload checks it). */
extern int acOffloadNoPrune;

AcStatus acOffloadSearch(const AcGraph *g, const AcPlanOptions *opts,
                         const uint8_t *start, double deadline, AcPlan *plan,
                         int *changed, int *limited, AcError *err);

/* Offload against recompute at a budget greedy meets (docs/planner.md,
 * "Offload"): from the starting set `start`, the offload trajectory (offload
 * and drop moves, acOffloadSearch's) until its peak is at most that of
 * `plan` (greedy's plan for opts->budget); when that plan spends fewer
 * extra seconds (recompute + stalls), it replaces `plan` (*changed = 1).
 * Taking it only at a peak no higher than greedy's keeps the peak monotone
 * in the budget.  Bounded by 2^23 / (ops + values) simulations (at least
 * 16) and `deadline`; cut short, it changes nothing unless its plan is
 * better.  Nothing happens without a budget or a host link. */
AcStatus acOffloadCompete(const AcGraph *g, const AcPlanOptions *opts,
                          const uint8_t *start, double deadline, AcPlan *plan,
                          int *changed, AcError *err);

/* Options of a beam search (acBeamSearchRun); acBeamOptionsInit sets the
 * defaults: those of acSearchOptionsInit, the default width, the default
 * work limit, the full search. */
typedef struct AcBeamOptions {
  /* Static part and deadline: the search stops once the clock passes
     search.deadline (<= 0: never) and sets the front's `limited`; the front
     is then that of the plans visited so far (greedy's trajectory, cut
     short by its own limits, among them).  search.budget is not read: the
     front serves every budget (acBeamChoose). */
  AcSearchOptions search;
  /* Shape: plans expanded per round (<= 0: the default, 8), and whether the
     search looks for the floor only (each round expands the unexpanded
     candidates with the lowest peaks instead of spreading along the
     front: the floor search wants nothing above greedy's lowest peak). */
  int32_t width;
  int floorOnly;
  /* Work: plans simulated at most (<= 0: acBeamMaxSimulations(g)); reaching
     it sets the front's `limited`. */
  intptr_t maxSimulations;
} AcBeamOptions;

void acBeamOptionsInit(AcBeamOptions *o);

/* The beam search as `opts` says (acBeamSearch is {{-1, staticBytes, 0},
 * width, 0, 0}). */
AcStatus acBeamSearchRun(const AcGraph *g, const uint8_t *initialSaved,
                         const AcBeamOptions *opts, AcBeamFront **out,
                         AcError *err);

/* The floor search's beam simulation limit for a start with `droppable`
 * droppable values: AC_FLOOR_BEAM_EXPANSIONS * (droppable + 1) (that many
 * expansions) and AC_FLOOR_BEAM_WORK / (ops + values + 1), whichever is
 * less, never fewer than AC_FLOOR_BEAM_MIN_SIMULATIONS. */
intptr_t acBeamFloorSimulations(const AcGraph *g, intptr_t droppable);

/* Whether the full beam (acBeamSearchRun's with the default width and work
 * limit) on a start with `droppable` droppable values does at most
 * AC_FLOOR_FULL_BEAM_WORK units (simulations x (ops + values + 1)) at its
 * worst: the floor search then runs it instead
 * of the floor-only beam (small graphs: the search the floor search always
 * ran there). */
int acBeamFullIsCheap(const AcGraph *g, intptr_t droppable);

/* Greedy trajectory from `initialSaved`, stopping early once a plan's peak
 * is <= budget (budget < 0: run to the end).  The prefix computed is
 * exactly the prefix of the full trajectory. */
struct AcTrajectory;
AcStatus acGreedyTrajectoryUntil(const AcGraph *g, const uint8_t *initialSaved,
                                 int64_t staticBytes, int64_t budget,
                                 struct AcTrajectory **out, AcError *err);

#endif
