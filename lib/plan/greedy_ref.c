/* greedy_ref.c - the reference greedy: the trajectory of docs/planner.md
 * computed the straightforward way.  Each step re-derives and re-simulates
 * every droppable candidate, O(saves * (ops + operands)) per step.  The
 * product runs the incremental version (greedy_inc.c), which produces the
 * same trajectory bit for bit (last drop included); this one stays
 * reachable (acGreedyTrajectoryReference) to check it against.
 *
 * The rule (both implementations): from a starting save set, repeatedly
 * drop the saved value with the least extra recompute seconds per byte of
 * global peak it frees (ties: the larger fall, then acIdBefore),
 * considering only drops that lower the simulated peak.  When none does, a
 * drop that keeps the peak but lowers the number of steps at it, or the
 * second-highest level, is taken by the same rule on that secondary fall;
 * the run ends when nothing improves (or a plan fits the budget).  Shared
 * pieces are in trajectory.c. */
#include "greedy_internal.h"
#include "plan_oracles.h"
#include "autoac/simulate.h"

#include <assert.h>
#include <string.h>

intptr_t acPlanDroppableCount(const AcGraph *g, const uint8_t *saved) {
  AcDropChecker *ck = acDropCheckerCreate(g);
  if (!ck)
    return -1;
  intptr_t n = 0;
  for (AcId v = 0; v < (AcId)g->numValues; ++v)
    n += saved[v] && acDropCheckerOk(ck, saved, v);
  acDropCheckerDestroy(ck);
  return n;
}

/*===-------------------------- the reference -----------------------------===*/

/* The best drop from `cur` (profile `curTop`), or AC_NONE when no drop
 * improves: the best primary drop if any, else the best secondary one.
 * Fills the simulation of the resulting plan and its extra seconds. */
static AcStatus acGreedyBestDrop(const AcGraph *g, const AcPlan *cur,
                                 AcProfileTop curTop, int64_t staticBytes,
                                 AcPlan *trial, AcDropChecker *ck,
                                 const int32_t *inst, AcId *bestOut,
                                 double *extraOut, AcSimResult *bestSim,
                                 AcError *err) {
  AcStatus st = AC_OK;
  AcId best[3] = {AC_NONE, AC_NONE, AC_NONE};
  double bestExtra[3] = {0, 0, 0};
  int64_t bestFall[3] = {0, 0, 0};
  AcSimResult sims[3], sim;
  memset(sims, 0, sizeof sims);
  memset(&sim, 0, sizeof sim);
  for (intptr_t i = 0; i < g->numValues; ++i) {
    AcId v = (AcId)i;
    if (!cur->saved[v] || !acDropCheckerOk(ck, cur->saved, v))
      continue;
    memcpy(trial->saved, cur->saved, (size_t)g->numValues);
    trial->saved[v] = 0;
    AcError derr;
    acErrorClear(&derr);
    if ((st = acPlanDerive(g, trial, &derr)) != AC_OK) {
      /* A droppable value keeps the plan derivable (plan_internal.h). */
      if (st != AC_ERR_NOMEM)
        st = AC_ERR_INTERNAL;
      st = acErrorSet(err, st, g->values[v].producer, v,
                      "greedy: dropping value %d: %s", (int)v, derr.message);
      goto cleanup;
    }
    double extra = acPlanExtraSeconds(g, cur, trial, inst);
    acSimResultClear(&sim);
    if ((st = acSimulate(g, trial, staticBytes, 1, &sim, err)) != AC_OK)
      goto cleanup;
    int64_t fall;
    int cls = acDropClassify(curTop, acProfileTopOf(sim.live, sim.numSteps),
                             &fall);
    if (cls == AC_DROP_NONE)
      continue;
    if (best[cls] == AC_NONE ||
        acDropBefore(extra, fall, v, bestExtra[cls], bestFall[cls], best[cls])) {
      best[cls] = v;
      bestExtra[cls] = extra;
      bestFall[cls] = fall;
      acSimResultClear(&sims[cls]);
      sims[cls] = sim;
      memset(&sim, 0, sizeof sim);
    }
  }
  int cls = best[AC_DROP_PRIMARY] != AC_NONE ? AC_DROP_PRIMARY : AC_DROP_SECONDARY;
  *bestOut = best[cls];
  *extraOut = bestExtra[cls];
  acSimResultClear(bestSim);
  *bestSim = sims[cls];
  memset(&sims[cls], 0, sizeof sims[cls]);
cleanup:
  acSimResultClear(&sim);
  for (int c = 0; c < 3; ++c)
    acSimResultClear(&sims[c]);
  return st;
}

/* The budget's last drop from `cur` (acGreedyPlanForBudget): every
 * droppable value, re-derived and re-simulated; those costing at most
 * `pickExtra` whose peak lies in [pickPeak, budget], the least by
 * acRefineBefore (the pick itself is one of them), into `best`. */
static AcStatus acGreedyRefine(const AcGraph *g, const AcPlan *cur,
                               int64_t staticBytes, AcPlan *trial,
                               AcDropChecker *ck, const int32_t *inst,
                               double pickExtra, int64_t pickPeak,
                               int64_t budget, AcLastDrop *best, AcError *err) {
  AcStatus st = AC_OK;
  AcSimResult sim;
  memset(&sim, 0, sizeof sim);
  for (intptr_t i = 0; i < g->numValues; ++i) {
    AcId v = (AcId)i;
    if (!cur->saved[v] || !acDropCheckerOk(ck, cur->saved, v))
      continue;
    memcpy(trial->saved, cur->saved, (size_t)g->numValues);
    trial->saved[v] = 0;
    if ((st = acPlanDerive(g, trial, err)) != AC_OK)
      break;
    double extra = acPlanExtraSeconds(g, cur, trial, inst);
    if (extra > pickExtra)
      continue;
    acSimResultClear(&sim);
    if ((st = acSimulate(g, trial, staticBytes, 0, &sim, err)) != AC_OK)
      break;
    int64_t peak = sim.peakBytes;
    if (peak < pickPeak || peak > budget)
      continue;
    acLastDropConsider(best, v, peak, extra);
  }
  acSimResultClear(&sim);
  return st;
}

AcStatus acGreedyReferenceUntil(const AcGraph *g, const uint8_t *initialSaved,
                                int64_t staticBytes, int64_t budget,
                                AcTrajectory **out, AcError *err) {
  AcStatus st = AC_OK;
  AcPlan *cur = acPlanCreate(g), *trial = acPlanCreate(g);
  AcDropChecker *ck = acDropCheckerCreate(g);
  int32_t *inst = acCalloc((size_t)g->numFuncs + 1, sizeof *inst);
  AcTrajectory *t = acCalloc(1, sizeof *t);
  intptr_t cap = 0;
  AcSimResult sim;
  memset(&sim, 0, sizeof sim);
  *out = NULL;
  if (!cur || !trial || !ck || !inst || !t) {
    st = AC_ERR_NOMEM;
    goto nomem;
  }
  t->numValues = g->numValues;
  t->refinedDrop = AC_NONE;
  t->initialSaved = acMalloc((size_t)g->numValues + 1);
  if (!t->initialSaved) {
    st = AC_ERR_NOMEM;
    goto nomem;
  }
  memcpy(t->initialSaved, initialSaved, (size_t)g->numValues);
  acPlanBwdInstances(g, inst);
  if ((st = acPlanFromSaved(g, initialSaved, cur, err)) != AC_OK)
    goto cleanup;
  if ((st = acSimulate(g, cur, staticBytes, 1, &sim, err)) != AC_OK)
    goto cleanup;
  AcProfileTop top = acProfileTopOf(sim.live, sim.numSteps);
  /* Recompute seconds accumulate the extra seconds of each drop (the same
     sums in both implementations; equal to the simulated ones up to
     rounding). */
  double seconds = sim.recomputeSeconds;
  if (!acTrajectoryPush(t, &cap, AC_NONE, sim.peakBytes, seconds,
                        sim.savedBytes))
    goto nomem;
  while (budget < 0 || t->peakBytes[t->numPlans - 1] > budget) {
    AcId v = AC_NONE;
    double extra = 0;
    AcSimResult next;
    memset(&next, 0, sizeof next);
    st = acGreedyBestDrop(g, cur, top, staticBytes, trial, ck, inst, &v,
                          &extra, &next, err);
    if (st != AC_OK || v == AC_NONE) {
      acSimResultClear(&next);
      if (st != AC_OK)
        goto cleanup;
      break;
    }
    assert(next.peakBytes <= t->peakBytes[t->numPlans - 1]);
    if (budget >= 0 && next.peakBytes <= budget) {
      /* The last drop: the budget may take a cheaper one. */
      AcLastDrop last = {AC_NONE, 0, 0};
      if ((st = acGreedyRefine(g, cur, staticBytes, trial, ck, inst, extra,
                               next.peakBytes, budget, &last, err)) != AC_OK) {
        acSimResultClear(&next);
        goto cleanup;
      }
      acTrajectorySetLastDrop(t, v, &last, seconds);
    }
    top = acProfileTopOf(next.live, next.numSteps);
    seconds += extra;
    cur->saved[v] = 0;
    st = acPlanDerive(g, cur, err);
    int pushed = st == AC_OK && acTrajectoryPush(t, &cap, v, next.peakBytes,
                                                 seconds, next.savedBytes);
    acSimResultClear(&next);
    if (st != AC_OK)
      goto cleanup;
    if (!pushed)
      goto nomem;
  }
  acTrajectoryTrim(t);
  *out = t;
  t = NULL;
  goto cleanup;
nomem:
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                  "out of memory in the greedy planner");
cleanup:
  acSimResultClear(&sim);
  acPlanDestroy(cur);
  acPlanDestroy(trial);
  acDropCheckerDestroy(ck);
  acFree(inst);
  acTrajectoryDestroy(t);
  return st;
}

AcStatus acGreedyTrajectoryReference(const AcGraph *g,
                                     const uint8_t *initialSaved,
                                     int64_t staticBytes, AcTrajectory **out,
                                     AcError *err) {
  return acGreedyReferenceUntil(g, initialSaved, staticBytes, -1, out, err);
}
