/*===- autoac/plan.h - the planners ---------------------------*- C -*-===*
 *
 * The planners choose a save set (a plan, autoac/derive.h) for a budget:
 * the strategies, one planning run (acPlanRun), greedy's trajectory, the
 * knapsack baseline, the exact ILP and beam search.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_PLAN_H
#define AUTOAC_PLAN_H

#include "autoac/derive.h"

#ifdef __cplusplus
extern "C" {
#endif

/// How many values of `saved` ([numValues]) may be dropped from it: the
/// decisions greedy, beam and the ILP choose among.  -1 when out of memory.
intptr_t acPlanDroppableCount(const AcGraph *g, const uint8_t *saved);

/// Planning strategies.
typedef enum AcStrategy {
  AC_STRATEGY_GREEDY = 0,
  AC_STRATEGY_SAVE_ALL,
  AC_STRATEGY_MINCUT,
  AC_STRATEGY_KNAPSACK,
  AC_STRATEGY_ILP,      ///< exact (GLPK MILP + simulation), docs/optimality.md
  AC_STRATEGY_BEAM,     ///< beam search over greedy's drops
  AC_STRATEGY_COUNT
} AcStrategy;

/// Name of a strategy as spelled in options ("greedy", "save-all", ...).
const char *acStrategyName(AcStrategy s);
/// Parses a strategy name; AC_ERR_INVALID (quoting it) if unknown.
AcStatus acStrategyParse(const char *text, AcStrategy *out, AcError *err);

/// Options of one planning run.
typedef struct AcPlanOptions {
  AcStrategy strategy;
  int64_t budget;        ///< peak limit in bytes, static part included; <0: none
  int64_t staticBytes;   ///< params + grads + optimizer state + reserve
  int floorSearch;       ///< greedy only: when greedy's plan misses the
                         ///< budget, also run beam (start with at most
                         ///< AC_FLOOR_BEAM_DROPPABLE droppable values) and
                         ///< the ILP (at most AC_FLOOR_ILP_DROPPABLE, node
                         ///< limit AC_FLOOR_ILP_NODES) and take the cheapest
                         ///< plan that meets it, else the lowest peak found
  double timeLimit;      ///< wall-clock seconds for the run (--ac-time-limit);
                         ///< <= 0: none.  When it passes, every search stops
                         ///< and the best plan found so far is returned
                         ///< (AcSearchStats.limited).  Without it the run is
                         ///< bounded by deterministic work limits.
} AcPlanOptions;

/// Sets `o` to the defaults: greedy, no budget (-1), no static part, no
/// floor search, no time limit.  (A zeroed struct is the same but for the
/// budget: 0 bytes, not none.)
void acPlanOptionsInit(AcPlanOptions *o);

/// What every search from a starting save set is given (greedy's trajectory
/// and plan for a budget, knapsack, the ILP, beam).  acSearchOptionsInit
/// sets the defaults; each planner's options embed it as `search`.
typedef struct AcSearchOptions {
  /// The memory model: the peak limit in bytes, static part included
  /// (< 0: none; default -1), and the static part itself, added to every
  /// step (params + grads + optimizer state + reserve; default 0).
  int64_t budget;
  int64_t staticBytes;
  /// The clock: the search stops once the monotonic clock (acClockSeconds)
  /// passes `deadline` and returns the best found so far, marked limited
  /// (<= 0: never; the default).  Without it a search is bounded by its
  /// deterministic work limits only, and the same input gives the same
  /// plan on any machine.
  double deadline;
} AcSearchOptions;

/// Sets `o` to the defaults: no budget, no static part, no deadline.
void acSearchOptionsInit(AcSearchOptions *o);

/// Bounds of greedy's floor search (AcPlanOptions.floorSearch): beam on
/// starts with at most this many droppable values ...
#define AC_FLOOR_BEAM_DROPPABLE 256
/// ... the ILP on at most this many, with this branch-and-bound node limit.
#define AC_FLOOR_ILP_DROPPABLE 64
#define AC_FLOOR_ILP_NODES 2000
/// The floor search's own work limits (docs/planner.md, "Bounded time"):
/// its beam looks for the lowest peak only (AC_FLOOR_BEAM_WIDTH plans of
/// the lowest peaks expanded per round) and simulates at most
/// AC_FLOOR_BEAM_EXPANSIONS x (droppable + 1) plans and at most
/// AC_FLOOR_BEAM_WORK / (ops + values + 1), never fewer than
/// AC_FLOOR_BEAM_MIN_SIMULATIONS; the ILP runs only on graphs of at most
/// AC_FLOOR_ILP_SIZE ops + values.
#define AC_FLOOR_BEAM_WIDTH 2
#define AC_FLOOR_BEAM_EXPANSIONS 24
#define AC_FLOOR_BEAM_WORK ((intptr_t)1 << 23)
#define AC_FLOOR_BEAM_MIN_SIMULATIONS 32
#define AC_FLOOR_ILP_SIZE 256
/// ... except that on graphs where the full beam (acBeamSearch's) costs at
/// most this many units (simulations x (ops + values + 1)) at worst, the
/// floor search runs the full beam.
#define AC_FLOOR_FULL_BEAM_WORK ((intptr_t)1 << 22)
/// ... and last, on any graph, its restarts (acFloorRestarts): at most
/// this many rounds, each running greedy's trajectory again from the plan
/// with one of this many recomputed values of the peak's group saved back.
#define AC_FLOOR_RESTART_ROUNDS 16
/// ... and stop after this many rounds in a row without a lower floor.
#define AC_FLOOR_RESTART_STALE 2
#define AC_FLOOR_RESTART_TRIES 4
/// ... chosen among this many of the group's nearest by one simulation each;
/// and as many class moves (saving back, or dropping, every value alike),
/// chosen among the largest this many classes of each kind by one
/// simulation each, within this many units (simulations x (ops + values +
/// 1)) over all rounds, and at least AC_FLOOR_RESTART_CLASSES simulations.
#define AC_FLOOR_RESTART_SCAN 32
#define AC_FLOOR_RESTART_CLASSES 64
#define AC_FLOOR_RESTART_CLASS_WORK ((intptr_t)1 << 24)
/// ... then, from the lowest floor, a walk of swaps (one recomputed value
/// saved back, one save dropped in its place: every pair where there are at
/// most AC_FLOOR_RESTART_SWAP_ALL, else the pairs of the best this many of
/// each side scored alone; one simulation each),
/// within this many units over the walk; greedy's trajectory rerun after
/// the best this many of a round, for at most this many rounds (the walk
/// above's stale rule); none where the units are under
/// AC_FLOOR_RESTART_CLASSES simulations.
#define AC_FLOOR_RESTART_SWAP_TRIES 4
#define AC_FLOOR_RESTART_SWAP_ROUNDS 2
#define AC_FLOOR_RESTART_SWAP_SIDE 8
#define AC_FLOOR_RESTART_SWAP_ALL 512
#define AC_FLOOR_RESTART_SWAP_WORK ((intptr_t)1 << 18)
/// The greedy's deterministic work limit (docs/planner.md, "Bounded time"):
/// a trajectory stops after this many units of work per op and value of the
/// graph, plus AC_GREEDY_WORK_MIN; the plan is then the best reached.
#define AC_GREEDY_WORK_PER_ITEM 24
#define AC_GREEDY_WORK_MIN ((intptr_t)1 << 22)
/// Bits of AcSearchStats.floorSearched: the floor search ran; beam ran; the
/// ILP ran.
enum { AC_FLOOR_RAN = 1, AC_FLOOR_BEAM = 2, AC_FLOOR_ILP = 4,
       AC_FLOOR_RESTART = 8 };

/// Plans `g`: fills `plan` (derived) for the strategy.  With no budget,
/// greedy returns the min-cut plan.  Greedy and knapsack honour the budget
/// as described in docs/planner.md; an unreachable budget is not an error
/// here (the caller compares the simulated peak with the budget).
AcStatus acPlanRun(const AcGraph *g, const AcPlanOptions *opts, AcPlan *plan,
                   AcError *err);

/// How a search strategy (ilp, beam) ended: the report's "search" block.
typedef struct AcSearchStats {
  int searched;          ///< 1 when the strategy is a search (ilp, beam)
  int optimal;           ///< the plan is proven to recompute the least of
                         ///< all plans of the search's space that meet the
                         ///< budget (or, when none does, to have its lowest
                         ///< peak)
  int limited;           ///< a limit stopped the search before it finished:
                         ///< any strategy's time limit, greedy's and beam's
                         ///< work limits, the ILP's node limit
  int timedOut;          ///< the time limit (AcPlanOptions.timeLimit)
                         ///< passed and stopped a search (limited is set)
  double seconds;        ///< wall time of the search (not part of the plan)
  intptr_t work;         ///< ilp: branch-and-bound nodes used (the limit is
                         ///< AcIlpOptions.maxNodes); beam: plans simulated
  AcStrategy foundBy;    ///< the search whose plan was returned (greedy's
                         ///< floor search may return beam's or the ILP's)
  int restarted;         ///< greedy's floor search: the plan is that of a
                         ///< restart (acFloorRestarts) from foundBy's
  int floorSearched;     ///< greedy missed the budget and its floor search
                         ///< ran (AcPlanOptions.floorSearch): a bitmask of
                         ///< AC_FLOOR_RAN, AC_FLOOR_BEAM, AC_FLOOR_ILP
} AcSearchStats;

/// As acPlanRun; `stats` (may be NULL) receives how the search ended
/// (searched == 0 for the strategies that do not search).
AcStatus acPlanRunStats(const AcGraph *g, const AcPlanOptions *opts,
                        AcPlan *plan, AcSearchStats *stats, AcError *err);

/*===-------------------------- greedy trajectory --------------------------===*/

/// The whole greedy run from a starting save set, budget ignored: plan k is
/// the starting set with dropped[1..k] unsaved, derived.  peakBytes never
/// rises along it (plateau drops keep it, docs/planner.md); the last plan is
/// the first reaching the lowest peak greedy reaches.  For a budget, the
/// trajectory's plan is the first whose peak fits, else the last
/// (acTrajectoryChoose); greedy's plan for the budget
/// (acGreedyPlanForBudget) may replace that plan's last drop by a cheaper
/// one from the same predecessor whose peak lies between the trajectory
/// plan's and the budget.  Either way the peak never rises as the budget
/// falls.
typedef struct AcTrajectory {
  intptr_t numPlans;          ///< plans on the trajectory (drops + 1) >= 1
  AcId *dropped;              ///< [numPlans] value dropped to reach plan k; [0] AC_NONE
  int64_t *peakBytes;         ///< [numPlans] simulated peak, static part included
  double *recomputeSeconds;   ///< [numPlans] plan 0's simulated recompute seconds
                              ///< plus each drop's extra seconds (the simulated
                              ///< value up to rounding)
  int64_t *savedBytes;        ///< [numPlans] acPlanSavedBytes of plan k
  uint8_t *initialSaved;      ///< [numValues] the starting save set
  intptr_t numValues;
  /// A run stopped at a budget (acGreedyPlanForBudget): the drop that
  /// replaces dropped[numPlans - 1] in greedy's plan for that budget, with
  /// the plan's peak and recompute seconds; AC_NONE when the last plan
  /// stands (no budget, none fits, or no cheaper last drop).
  AcId refinedDrop;
  int64_t refinedPeakBytes;
  double refinedRecomputeSeconds;
} AcTrajectory;

/// The searches' starting save set (lib/plan/start.c): the min-cut set
/// (acMincutSaveSet), with returned outputs saved back when that costs
/// neither peak nor recompute time, then, while the simulated peak is at a
/// recompute step, the value of that recompute whose saving lowers the peak
/// most saved back (up to 32 times); save-all instead when its peak is lower
/// still.  So its simulated peak is at most min(save-all, min-cut).  Writes
/// `saved` ([numValues]).  Errors are acMincutSaveSet's, or AC_ERR_NOMEM.
AcStatus acPlanStartSet(const AcGraph *g, int64_t staticBytes, uint8_t *saved,
                        AcError *err);

/// Greedy trajectory from the starting save set (acPlanStartSet).
AcStatus acGreedyTrajectory(const AcGraph *g, int64_t staticBytes,
                            AcTrajectory **out, AcError *err);
/// Greedy trajectory from `initialSaved` ([numValues], must derive).
AcStatus acGreedyTrajectoryFrom(const AcGraph *g, const uint8_t *initialSaved,
                                int64_t staticBytes, AcTrajectory **out,
                                AcError *err);
/// Frees a trajectory; NULL is accepted.
void acTrajectoryDestroy(AcTrajectory *t);
/// Index of the plan greedy picks for `budget`: the first with peak <=
/// budget, else the last; 0 when budget < 0 (no budget).
intptr_t acTrajectoryChoose(const AcTrajectory *t, int64_t budget);
/// Materializes plan `step` of the trajectory into `plan` (derived).
AcStatus acTrajectoryPlan(const AcGraph *g, const AcTrajectory *t,
                          intptr_t step, AcPlan *plan, AcError *err);
/// Greedy's plan for `budget` from `initialSaved` into `plan` (derived): the
/// trajectory is run until a plan fits (plan K), then among the drops from
/// plan K-1 whose plan has a peak in [peak of plan K, budget] and costs no
/// more than plan K, the one with the least recompute seconds (then the
/// lower peak, then the id order of the drop ties) makes the plan; plan K is one of
/// them.  When no plan fits, the trajectory's last (lowest-peak) plan; with
/// no budget (< 0), the starting plan.  The peak never rises as the budget
/// falls (docs/planner.md has the argument).  With `out`, the trajectory
/// run (and its refinedDrop) is returned too; free it with
/// acTrajectoryDestroy.
AcStatus acGreedyPlanForBudget(const AcGraph *g, const uint8_t *initialSaved,
                               int64_t staticBytes, int64_t budget,
                               AcPlan *plan, AcTrajectory **out, AcError *err);

/*===-------------------------- knapsack baseline --------------------------===*/

/// The activation-memory fraction a user of torch's knapsack would pass for
/// `budget`, assuming peak = everything else + saved bytes:
/// (budget - (peak - savedBytes)) / savedBytes clamped to [0, 1] (1 when
/// savedBytes is 0 or there is no budget).  `peak` and `savedBytes` are the
/// min-cut plan's.
double acKnapsackFraction(int64_t budget, int64_t peak, int64_t savedBytes);
/// Knapsack plan from the starting save set `initialSaved` (the min-cut one
/// in acPlanRun) for opts->budget and opts->staticBytes: keeps the
/// droppable saves that avoid the most recompute time within fraction *
/// saved bytes, drops the rest.  One pass, no search: opts->deadline is not
/// read.  `fraction` (may be NULL) receives the fraction used.
AcStatus acKnapsackFrom(const AcGraph *g, const uint8_t *initialSaved,
                        const AcSearchOptions *opts, AcPlan *plan,
                        double *fraction, AcError *err);


/*===-------------------------- exact planner (ILP) ------------------------===*/

/// Options of acIlpFrom; acIlpOptionsInit sets the defaults (the search's,
/// and 0 for the rest).
typedef struct AcIlpOptions {
  /// Budget, static part and deadline.  The solve stops at the deadline or
  /// at timeLimit, whichever comes first.
  AcSearchOptions search;
  /// Time: wall-clock seconds for the whole solve, counted from the call;
  /// <= 0: none (the default).  A time limit (or a deadline) makes the plan
  /// depend on the machine's speed and load.
  double timeLimit;
  /// Work: MILP solves at most (<= 0: no limit), and branch-and-bound nodes
  /// over all solves (the deterministic work limit; <= 0: the default,
  /// AC_ILP_DEFAULT_NODES).
  intptr_t maxRounds;
  intptr_t maxNodes;
} AcIlpOptions;

/// Sets `o` to the defaults: acSearchOptionsInit's, no time limit, the
/// default work limits.
void acIlpOptionsInit(AcIlpOptions *o);

/// The ILP's default work limit in branch-and-bound nodes: the same plan
/// on any machine, whatever the load (docs/optimality.md).
#define AC_ILP_DEFAULT_NODES 20000
/// Past this many droppable values (binaries) the ILP builds no model and
/// returns greedy's plan, marked limited (docs/planner.md, "Bounded time").
#define AC_ILP_MAX_DROPPABLE 4096

/// What acIlpFrom did and found.
typedef struct AcIlpStats {
  int optimal;            ///< the search finished: the plan is optimal, or
                          ///< no plan of the space fits the budget and the
                          ///< plan has the lowest peak of the space
  int feasible;           ///< the plan's simulated peak <= budget
  int limited;            ///< the node, round or time limit (or a solver
                          ///< failure) stopped the search before it finished
  intptr_t candidates;    ///< droppable values of the starting set (binaries)
  intptr_t rows;          ///< memory rows of the model at this budget
  intptr_t rounds;        ///< MILP solves
  intptr_t nodes;         ///< branch-and-bound nodes over all solves
  intptr_t cuts;          ///< MILP solutions the simulator rejected
  double lowerBound;      ///< proven lower bound on the recompute seconds of
                          ///< any plan of the space that fits the budget
                          ///< (HUGE_VAL: proven that none fits)
  double recomputeSeconds;///< of the returned plan (simulated)
  int64_t peakBytes;      ///< of the returned plan (simulated)
  double seconds;         ///< wall time of the call
} AcIlpStats;

/// The exact planner over greedy's space: the plans `initialSaved` minus any
/// set of its droppable values (plan_internal.h).  Returns in `plan` one that
/// minimizes the simulated recompute seconds subject to the simulated peak
/// (acSimulate, static part opts->search.staticBytes included) <=
/// opts->search.budget.  A GLPK MILP with a linear
/// lower bound on the simulated peak proposes plans in order of cost; each is
/// simulated, and one that does not fit is cut off and the MILP solved again
/// (docs/optimality.md).  The greedy plan for the budget is the starting
/// incumbent and the fallback: when the limits stop the search, the best plan
/// that fits found so far.  When nothing fits, the ILP's own lowest plan: a
/// second MILP minimizes the model's peak below the best plan known
/// (greedy's lowest-peak plan to start with), each proposal simulated and
/// cut off, until none is lower (then optimal) or the limits stop it.
/// The limits are deterministic by default (maxNodes; no wall clock), so
/// the same input gives the same plan on any machine under any load.
/// No budget (< 0): the starting plan.  `stats` may be NULL.
AcStatus acIlpFrom(const AcGraph *g, const uint8_t *initialSaved,
                   const AcIlpOptions *opts, AcPlan *plan, AcIlpStats *stats,
                   AcError *err);


/*===-------------------------- beam search --------------------------------===*/

/// The plans a beam search over greedy's drops visits, budget ignored: from
/// `initialSaved`, each level expands every kept plan by every droppable
/// value and keeps `width` of the children (docs/optimality.md).  What it
/// keeps is the Pareto front of every plan visited, by recompute seconds
/// ascending (peaks then strictly decrease).  Plan k is `initialSaved` minus
/// the values dropped[dropBegin[k] .. dropBegin[k+1]).
typedef struct AcBeamFront {
  intptr_t numPlans;        ///< plans on the front (>= 1)
  int32_t *dropBegin;       ///< [numPlans + 1] into dropped
  AcId *dropped;            ///< the dropped values of each plan, ascending
  int64_t *peakBytes;       ///< [numPlans] simulated peak, static included
  double *recomputeSeconds; ///< [numPlans] simulated recompute seconds
  uint8_t *initialSaved;    ///< [numValues] the starting save set
  intptr_t numValues;
  intptr_t simulations;     ///< plans simulated by the search
  int limited;              ///< a limit (acBeamMaxSimulations, a deadline,
                            ///< greedy's work limit) stopped the search
} AcBeamFront;

/// Beam's deterministic work limit (docs/planner.md, "Bounded time"): it
/// simulates at most AC_BEAM_MAX_WORK / (ops + values + 1) plans of `g`, and
/// never fewer than AC_BEAM_MIN_SIMULATIONS.
#define AC_BEAM_MAX_WORK ((intptr_t)1 << 28)
#define AC_BEAM_MIN_SIMULATIONS 64
intptr_t acBeamMaxSimulations(const AcGraph *g);

/// Runs the beam search from `initialSaved` (width <= 0: 8), budget ignored,
/// with no deadline and beam's default work limit (acBeamMaxSimulations).
AcStatus acBeamSearch(const AcGraph *g, const uint8_t *initialSaved,
                      int64_t staticBytes, int32_t width, AcBeamFront **out,
                      AcError *err);
/// Frees a front; NULL is accepted.
void acBeamFrontDestroy(AcBeamFront *f);
/// Index of the plan for `budget`: the first whose peak fits (the least
/// recompute seconds of all plans visited that fit), else the last (the
/// lowest peak visited); 0 when budget < 0.  Its peak never rises as the
/// budget falls.
intptr_t acBeamChoose(const AcBeamFront *f, int64_t budget);
/// Materializes plan `k` of the front into `plan` (derived).
AcStatus acBeamPlan(const AcGraph *g, const AcBeamFront *f, intptr_t k,
                    AcPlan *plan, AcError *err);

#ifdef __cplusplus
}
#endif
#endif
