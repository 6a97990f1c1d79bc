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

static AcStatus acGreedyIncrementalRun(const AcGraph *g,
                                       const uint8_t *initialSaved,
                                       int64_t staticBytes, int64_t budget,
                                       int check, double deadline,
                                       int *cutShort,
                                       const AcSimResult *startSim,
                                       AcTrajectory **out, AcError *err);

intptr_t acGreedyWorkOverride;
intptr_t acGreedyWorkLast;

intptr_t acGreedyWorkLimit(const AcGraph *g) {
  if (acGreedyWorkOverride > 0)
    return acGreedyWorkOverride;
  return AC_GREEDY_WORK_PER_ITEM * ((intptr_t)g->numOps + g->numValues) +
         AC_GREEDY_WORK_MIN;
}

AcStatus acGreedyIncrementalUntil(const AcGraph *g, const uint8_t *initialSaved,
                                  int64_t staticBytes, int64_t budget,
                                  int check, AcTrajectory **out, AcError *err) {
  return acGreedyIncrementalRun(g, initialSaved, staticBytes, budget, check,
                                0, NULL, NULL, out, err);
}

AcStatus acGreedyIncrementalDeadline(const AcGraph *g,
                                     const uint8_t *initialSaved,
                                     int64_t staticBytes, int64_t budget,
                                     double deadline, int *cutShort,
                                     const AcSimResult *startSim,
                                     AcTrajectory **out, AcError *err) {
  return acGreedyIncrementalRun(g, initialSaved, staticBytes, budget, 0,
                                deadline, cutShort, startSim, out, err);
}

static AcStatus acGreedyIncrementalRun(const AcGraph *g,
                                       const uint8_t *initialSaved,
                                       int64_t staticBytes, int64_t budget,
                                       int check, double deadline,
                                       int *cutShort,
                                       const AcSimResult *startSim,
                                       AcTrajectory **out, AcError *err) {
  AcStatus st = AC_OK;
  if (cutShort)
    *cutShort = 0;
  AcInc s;
  memset(&s, 0, sizeof s);
  s.g = g;
  s.staticBytes = staticBytes;
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
  if ((st = acPlanFromSaved(g, initialSaved, plan, err)) != AC_OK)
    goto cleanup;
  /* The timeline only for the check: the peak alone is compared without.
     The caller's simulation of the set, when it has one, stands for it. */
  if (startSim && startSim->peakBytes >= 0 && !check) {
    sim = *startSim;
    sim.steps = NULL;
    sim.live = NULL;
  } else if ((st = acSimulate(g, plan, staticBytes, check, &sim, err)) != AC_OK) {
    goto cleanup;
  }
  if ((st = acIncInit(&s, plan, err)) != AC_OK)
    goto cleanup;
  /* The candidate list doubles as scratch for popped candidates. */
  {
    AcId *cl = acRealloc(s.candList, (2 * (size_t)s.numCand + 1) * sizeof *cl);
    if (!cl)
      goto nomem;
    s.candList = cl;
  }
  {
    AcProfileTop have = acCurrentProfile(&s);
    int64_t havePeak = s.numLeaves > 0 ? have.top + staticBytes : staticBytes;
    int same = havePeak == sim.peakBytes && sim.savedBytes == s.savedBytes;
    if (check) {
      AcProfileTop want = acProfileTopOf(sim.live, sim.numSteps);
      same = same && want.top == have.top && want.count == have.count &&
             want.second == have.second;
    }
    if (!same) {
      st = acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                      "greedy: the incremental profile (peak %lld) differs "
                      "from the simulation (%lld)",
                      (long long)havePeak, (long long)sim.peakBytes);
      goto cleanup;
    }
  }
  double seconds = sim.recomputeSeconds;
  int64_t peak = sim.peakBytes;
  if (!acTrajectoryPush(t, &cap, AC_NONE, peak, seconds, s.savedBytes))
    goto nomem;
  for (intptr_t i = 0; i < s.numCand; ++i)
    acMarkStale(&s, s.candList[i]);
  intptr_t workMax = acGreedyWorkLimit(g);
  while (budget < 0 || t->peakBytes[t->numPlans - 1] > budget) {
    AcId v = AC_NONE;
    int primary = 0;
    /* The work limit, then the clock (a few nanoseconds a read). */
    if (s.work > workMax || (deadline > 0 && acClockSeconds() > deadline)) {
      if (cutShort)
        *cutShort = 1;
      break;
    }
    if ((st = acIncPick(&s, &v, &primary, err)) != AC_OK)
      goto cleanup;
    if (v == AC_NONE)
      break;
    double extra = AC_CAND_OF(&s, v).extra;
    if (budget >= 0 && s.numLeaves > 0 && primary) {
      /* A secondary drop keeps the peak, which is above the budget. */
      int64_t pickPeak = peak - AC_CAND_OF(&s, v).fall;
      assert(pickPeak == acEvalProfile(&s, &AC_CAND_OF(&s, v)).top + staticBytes);
      if (pickPeak <= budget) {
        /* The last drop: the budget may take a cheaper one. */
        AcLastDrop last = {AC_NONE, 0, 0};
        acIncRefine(&s, v, pickPeak, budget, &last);
        acTrajectorySetLastDrop(t, v, &last, seconds);
      }
    }
    if ((st = acIncApply(&s, v, err)) != AC_OK)
      goto cleanup;
    seconds += extra;
    AcProfileTop now = acCurrentProfile(&s);
    peak = s.numLeaves > 0 ? now.top + staticBytes : staticBytes;
    assert(peak <= t->peakBytes[t->numPlans - 1]);
    if (!acTrajectoryPush(t, &cap, v, peak, seconds, s.savedBytes))
      goto nomem;
    if (check && (st = acIncCheck(&s, t->numPlans - 1, err)) != AC_OK)
      goto cleanup;
  }
  acTrajectoryTrim(t);
  acGreedyWorkLast = s.work;
#ifdef AC_GREEDY_STATS
  {
    int32_t maxg = 0;
    intptr_t sumg = 0, ng = 0;
    for (intptr_t o = 0; o < g->numOps; ++o)
      if (s.grpLen[o]) {
        ng++;
        sumg += s.grpLen[o];
        maxg = s.grpLen[o] > maxg ? s.grpLen[o] : maxg;
      }
    fprintf(stderr,
            "greedy: %ld plans, %ld candidates, %ld describes (%ld by alias "
            "groups, %ld leaf refreshes), %ld pops, %ld evaluations, %ld "
            "secondary picks; %ld groups (%ld ops, largest %d)\n",
            (long)t->numPlans, (long)s.numCand, (long)s.statDescribe,
            (long)s.statRoot, (long)s.statDescribeLeaves, (long)s.statPop,
            (long)s.statEval, (long)s.statSecondary, (long)ng, (long)sumg, maxg);
    fprintf(stderr, "greedy: work %ld of %ld\n", (long)s.work, (long)workMax);
  }
#endif
  *out = t;
  t = NULL;
  goto cleanup;
nomem:
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                  "out of memory in the greedy planner");
cleanup:
  acSimResultClear(&sim);
  acIncFree(&s);
  acPlanDestroy(plan);
  acTrajectoryDestroy(t);
  return st;
}

