/* greedy_inc.c - the incremental greedy's trajectory loop: the reference's
 * trajectory (greedy_ref.c) without re-deriving and re-simulating every
 * candidate at every step.  docs/planner.md ("The incremental greedy") has
 * the overview; greedy_inc.h lists the files that hold the parts below.
 *
 * The simulation is kept as explicit state and changed in place:
 *
 *  - Leaves.  The timeline is cut into one leaf per op of each schedule
 *    entry (forward entries: their forward ops; backward entries: their
 *    backward ops).  A backward leaf holds its op's recompute group: the
 *    steps of the group (ops by id) then the op itself.  Leaves never move
 *    when plans change; only the steps inside backward leaves do.
 *  - Positions.  A step is (leaf, key): key is the op id of a group step,
 *    AC_KEY_ANCHOR for the leaf's own op, AC_KEY_FIRST for "from the leaf's
 *    first step" (inputs and tangents).  Forward leaves have one step.
 *  - Slots.  Every storage (root value, schedule entry) has an interval
 *    [A, Z] of positions: its allocation and its last use, derived from the
 *    plan exactly as the simulator does (acSlotInterval).
 *  - Profile.  A slot covering all steps of a leaf adds its bytes to the
 *    leaf's "full" part; a slot with an end inside a leaf is one of the
 *    leaf's partial entries.  A leaf's summary over its steps (highest
 *    level, steps at it, second level) is full + the summary of its
 *    partial entries.  A segment tree over leaves (range add, summary
 *    combine) holds them; its root is the whole profile.
 *
 * A candidate drop v changes the plan locally: v is no longer saved; the
 * ops newly recomputed (C) and recompute ops that move into an earlier
 * group (M) all join the group of b1, the first backward op whose needs
 * reach v; groups after b1 only lose M.  The storages whose interval may
 * change are v's (forward and backward copies), the results of C and M, and
 * the operands of C and M.  Their new intervals give (a) range adds of
 * bytes over leaves they newly cover or stop covering, and (b) dirty leaves
 * (an end inside, or a changed group) whose summary is recomputed with the
 * drop's entries and steps.  Big leaves keep an index (per-step partial
 * bytes and a segment tree over their steps) so that this costs
 * O(changes log steps) rather than a pass over the leaf.  The new profile
 * is then read off the tree piece by piece: O((slots + leaves) log n).
 *
 * Each candidate's description (extra seconds, range adds, dirty-leaf
 * summaries, new intervals) is cached.  The walk, the intervals and the
 * range adds depend only on a few alias groups (ROOT items: saved flags,
 * recompute flags and anchors of their producers and readers); an accepted
 * drop marks the groups it changes and their candidates are described
 * again.  A changed dirty leaf (LEAF item) only redoes that leaf's summary.
 * Falls are never cached (the profile moves under every candidate), but
 * each description bounds its fall by the largest leaf-level reduction it
 * causes, so candidates are visited in order of extra / bound; each one
 * visited is first bounded again by its new levels at the highest leaves
 * of the current profile, and evaluated exactly only if it could still
 * beat the best so far.  The scan stops once no unvisited one can.  When no
 * drop lowers the peak, every candidate is evaluated exactly for the
 * secondary rule.  The order between drops is the exact one of
 * acDropBefore, and the extra seconds are summed as acPlanExtraSeconds
 * does, so the pick and the numbers are the reference's bit for bit. */
#ifdef AC_GREEDY_STATS
#include <stdio.h>
#endif
#include "greedy_inc.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

intptr_t acGreedyWorkOverride;
intptr_t acGreedyWorkLast;

intptr_t acGreedyWorkLimit(const AcGraph *g) {
  if (acGreedyWorkOverride > 0)
    return acGreedyWorkOverride;
  return AC_GREEDY_WORK_PER_ITEM * ((intptr_t)g->numOps + g->numValues) +
         AC_GREEDY_WORK_MIN;
}

void acGreedyOptionsInit(AcGreedyOptions *o) {
  memset(o, 0, sizeof *o);
  acSearchOptionsInit(&o->search);
}

AcStatus acGreedyIncrementalUntil(const AcGraph *g, const uint8_t *initialSaved,
                                  int64_t staticBytes, int64_t budget,
                                  int check, AcTrajectory **out, AcError *err) {
  AcGreedyOptions o;
  acGreedyOptionsInit(&o);
  o.search.budget = budget;
  o.search.staticBytes = staticBytes;
  o.check = check;
  return acGreedyIncrementalRun(g, initialSaved, &o, NULL, out, err);
}

/* Simulates plan 0 into *sim (the timeline only for the check: the peak
 * alone is compared without), or takes the caller's simulation of the set
 * when there is one. */
static AcStatus acIncSimulateStart(const AcGraph *g, const AcPlan *plan,
                                   const AcGreedyOptions *opts,
                                   AcSimResult *sim, AcError *err) {
  const AcSimResult *given = opts->startSim;
  if (given && given->peakBytes >= 0 && !opts->check) {
    *sim = *given;
    sim->steps = NULL;
    sim->live = NULL;
    sim->liveAfter = NULL;
    return AC_OK;
  }
  return acSimulate(g, plan, opts->search.staticBytes, opts->check, sim, err);
}

/* The incremental state of plan 0 must be its simulation's: the same peak
 * and saved bytes (with the check, the same profile top too). */
static AcStatus acIncCheckStart(const AcInc *s, const AcSimResult *sim,
                                int check, AcError *err) {
  AcProfileTop have = acCurrentProfile(s);
  int64_t havePeak =
      s->numLeaves > 0 ? have.top + s->staticBytes : s->staticBytes;
  int same = havePeak == sim->peakBytes && sim->savedBytes == s->savedBytes;
  if (check) {
    AcProfileTop want = acProfileTopOf(sim->live, sim->numSteps);
    same = same && want.top == have.top && want.count == have.count &&
           want.second == have.second;
  }
  if (same)
    return AC_OK;
  return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                    "greedy: the incremental profile (peak %lld) differs "
                    "from the simulation (%lld)",
                    (long long)havePeak, (long long)sim->peakBytes);
}

/* Sets up the state for plan 0 (`plan`, derived) and pushes plan 0 onto
 * `t`: its peak and recompute seconds from *sim.  Every candidate starts
 * stale. */
static AcStatus acIncStart(AcInc *s, AcPlan *plan, const AcGreedyOptions *opts,
                           AcSimResult *sim, AcTrajectory *t, intptr_t *cap,
                           AcError *err) {
  AcStatus st;
  if ((st = acIncSimulateStart(s->g, plan, opts, sim, err)) != AC_OK ||
      (st = acIncInit(s, plan, err)) != AC_OK)
    return st;
  /* The candidate list doubles as scratch for popped candidates. */
  AcId *cl = acRealloc(s->candList, (2 * (size_t)s->numCand + 1) * sizeof *cl);
  if (!cl)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                      "out of memory in the greedy planner");
  s->candList = cl;
  if ((st = acIncCheckStart(s, sim, opts->check, err)) != AC_OK)
    return st;
  if (!acTrajectoryPush(t, cap, AC_NONE, sim->peakBytes, sim->recomputeSeconds,
                        s->savedBytes))
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                      "out of memory in the greedy planner");
  for (intptr_t i = 0; i < s->numCand; ++i)
    acMarkStale(s, s->candList[i]);
  return AC_OK;
}

/* When pick `v` (a peak-lowering drop from the plan of peak `peak` and
 * recompute seconds `seconds`) is the first to fit the budget, records the
 * budget's last drop on `t`: a cheaper one from the same plan may take its
 * place.  A secondary drop keeps the peak, which is above the budget. */
static void acIncLastDrop(AcInc *s, AcTrajectory *t, AcId v, int primary,
                          int64_t peak, double seconds, int64_t budget) {
  if (budget < 0 || s->numLeaves == 0 || !primary)
    return;
  int64_t pickPeak = peak - AC_CAND_OF(s, v).fall;
  assert(pickPeak ==
         acEvalProfile(s, &AC_CAND_OF(s, v)).top + s->staticBytes);
  if (pickPeak > budget)
    return;
  AcLastDrop last = {AC_NONE, 0, 0};
  acIncRefine(s, v, pickPeak, budget, &last);
  acTrajectorySetLastDrop(t, v, &last, seconds);
}

#ifdef AC_GREEDY_STATS
static void acIncPrintStats(const AcInc *s, const AcTrajectory *t,
                            intptr_t workMax) {
  const AcGraph *g = s->g;
  int32_t maxg = 0;
  intptr_t sumg = 0, ng = 0;
  for (intptr_t o = 0; o < g->numOps; ++o)
    if (s->grpLen[o]) {
      ng++;
      sumg += s->grpLen[o];
      maxg = s->grpLen[o] > maxg ? s->grpLen[o] : maxg;
    }
  fprintf(stderr,
          "greedy: %ld plans, %ld candidates, %ld describes (%ld by alias "
          "groups, %ld leaf refreshes), %ld pops, %ld evaluations, %ld "
          "secondary picks; %ld groups (%ld ops, largest %d)\n",
          (long)t->numPlans, (long)s->numCand, (long)s->statDescribe,
          (long)s->statRoot, (long)s->statDescribeLeaves, (long)s->statPop,
          (long)s->statEval, (long)s->statSecondary, (long)ng, (long)sumg,
          maxg);
  fprintf(stderr, "greedy: work %ld of %ld\n", (long)s->work, (long)workMax);
}
#endif

/* The trajectory loop from plan 0 (pushed on `t`, of recompute seconds
 * `seconds`): picks and applies drops until a plan fits the budget, no drop
 * improves the profile, or the work limit or the deadline stops it
 * (*cutShort). */
static AcStatus acIncLoop(AcInc *s, const AcGreedyOptions *opts,
                          double seconds, AcTrajectory *t, intptr_t *cap,
                          int *cutShort, AcError *err) {
  AcStatus st;
  int64_t budget = opts->search.budget;
  double deadline = opts->search.deadline;
  int64_t peak = t->peakBytes[0];
  intptr_t workMax = acGreedyWorkLimit(s->g);
  while (budget < 0 || t->peakBytes[t->numPlans - 1] > budget) {
    AcId v = AC_NONE;
    int primary = 0;
    /* The work limit, then the clock (a few nanoseconds a read). */
    if (s->work > workMax || (deadline > 0 && acClockSeconds() > deadline)) {
      *cutShort = 1;
      break;
    }
    if ((st = acIncPick(s, &v, &primary, err)) != AC_OK)
      return st;
    if (v == AC_NONE)
      break;
    double extra = AC_CAND_OF(s, v).extra;
    acIncLastDrop(s, t, v, primary, peak, seconds, budget);
    if ((st = acIncApply(s, v, err)) != AC_OK)
      return st;
    seconds += extra;
    AcProfileTop now = acCurrentProfile(s);
    peak = s->numLeaves > 0 ? now.top + s->staticBytes : s->staticBytes;
    assert(peak <= t->peakBytes[t->numPlans - 1]);
    if (!acTrajectoryPush(t, cap, v, peak, seconds, s->savedBytes))
      return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                        "out of memory in the greedy planner");
    if (opts->check && (st = acIncCheck(s, t->numPlans - 1, err)) != AC_OK)
      return st;
  }
  return AC_OK;
}

AcStatus acGreedyIncrementalRun(const AcGraph *g, const uint8_t *initialSaved,
                                const AcGreedyOptions *opts, int *cutShort,
                                AcTrajectory **out, AcError *err) {
  AcStatus st = AC_OK;
  int cut = 0;
  AcInc s;
  memset(&s, 0, sizeof s);
  s.g = g;
  s.staticBytes = opts->search.staticBytes;
  s.keep = opts->keep;
  AcPlan *plan = acPlanCreate(g);
  AcTrajectory *t = acCalloc(1, sizeof *t);
  intptr_t cap = 0;
  AcSimResult sim;
  memset(&sim, 0, sizeof sim);
  *out = NULL;
  if (!plan || !t)
    goto nomem;
  t->numValues = g->numValues;
  t->refinedDrop = AC_NONE;
  t->initialSaved = acMalloc((size_t)g->numValues + 1);
  if (!t->initialSaved)
    goto nomem;
  memcpy(t->initialSaved, initialSaved, (size_t)g->numValues);
  if ((st = acPlanFromSaved(g, initialSaved, plan, err)) != AC_OK ||
      (st = acIncStart(&s, plan, opts, &sim, t, &cap, err)) != AC_OK ||
      (st = acIncLoop(&s, opts, sim.recomputeSeconds, t, &cap, &cut,
                      err)) != AC_OK)
    goto cleanup;
  acTrajectoryTrim(t);
  acGreedyWorkLast = s.work;
#ifdef AC_GREEDY_STATS
  acIncPrintStats(&s, t, acGreedyWorkLimit(g));
#endif
  *out = t;
  t = NULL;
  goto cleanup;
nomem:
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                  "out of memory in the greedy planner");
cleanup:
  if (cutShort)
    *cutShort = cut;
  acSimResultClear(&sim);
  acIncFree(&s);
  acPlanDestroy(plan);
  acTrajectoryDestroy(t);
  return st;
}
