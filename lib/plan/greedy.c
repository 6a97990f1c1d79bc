/* greedy.c - the greedy planner as a trajectory of plans.
 *
 * From a starting save set (the min-cut one in the product), repeatedly drop
 * the saved value with the least extra recompute seconds per byte of
 * global peak it frees (ties: the larger fall, then the lower value id),
 * considering only drops that lower the simulated peak, until no drop does.
 * Every plan along the way is recorded with its peak, which therefore
 * strictly decreases.  A budget picks the first plan whose peak fits, or the
 * last one; smaller budgets only walk further along the same trajectory, so
 * the chosen peak is monotone in the budget (docs/planner.md).
 *
 * This is the straightforward reference: each step re-derives and
 * re-simulates every candidate, O(saves * (ops + operands)) per step.  A
 * faster version must produce the same trajectory; acGreedyTrajectoryReference
 * stays reachable to check it against. */
#include "plan_internal.h"
#include "autoac/partition.h"
#include "autoac/simulate.h"

#include <assert.h>
#include <string.h>

void acTrajectoryDestroy(AcTrajectory *t) {
  if (!t)
    return;
  acFree(t->dropped);
  acFree(t->peakBytes);
  acFree(t->recomputeSeconds);
  acFree(t->savedBytes);
  acFree(t->initialSaved);
  acFree(t);
}

static int acTrajectoryPush(AcTrajectory *t, intptr_t *cap, AcId dropped,
                            int64_t peak, double seconds, int64_t saved) {
  if (t->numPlans == *cap) {
    intptr_t ncap = *cap ? *cap * 2 : 16;
    AcId *d = acRealloc(t->dropped, (size_t)ncap * sizeof *d);
    if (!d)
      return 0;
    t->dropped = d;
    int64_t *p = acRealloc(t->peakBytes, (size_t)ncap * sizeof *p);
    if (!p)
      return 0;
    t->peakBytes = p;
    double *s = acRealloc(t->recomputeSeconds, (size_t)ncap * sizeof *s);
    if (!s)
      return 0;
    t->recomputeSeconds = s;
    int64_t *b = acRealloc(t->savedBytes, (size_t)ncap * sizeof *b);
    if (!b)
      return 0;
    t->savedBytes = b;
    *cap = ncap;
  }
  t->dropped[t->numPlans] = dropped;
  t->peakBytes[t->numPlans] = peak;
  t->recomputeSeconds[t->numPlans] = seconds;
  t->savedBytes[t->numPlans] = saved;
  t->numPlans++;
  return 1;
}

/* The best drop from `cur` (peak `curPeak`), or AC_NONE when no drop lowers
 * the peak.  Fills the simulation of the resulting plan. */
static AcStatus acGreedyBestDrop(const AcGraph *g, const AcPlan *cur,
                                 int64_t curPeak, int64_t staticBytes,
                                 AcPlan *trial, AcDropChecker *ck,
                                 const int32_t *inst, AcId *bestOut,
                                 AcSimResult *bestSim, AcError *err) {
  AcStatus st = AC_OK;
  AcId best = AC_NONE;
  double bestExtra = 0;
  int64_t bestFall = 0;
  AcSimResult sim;
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
    if ((st = acSimulate(g, trial, staticBytes, 0, &sim, err)) != AC_OK)
      goto cleanup;
    int64_t fall = curPeak - sim.peakBytes;
    if (fall <= 0)
      continue;
    /* extra / fall < bestExtra / bestFall, cross-multiplied. */
    double lhs = extra * (double)bestFall, rhs = bestExtra * (double)fall;
    if (best == AC_NONE || lhs < rhs || (lhs == rhs && fall > bestFall)) {
      best = v;
      bestExtra = extra;
      bestFall = fall;
      acSimResultClear(bestSim);
      *bestSim = sim;
      memset(&sim, 0, sizeof sim);
    }
  }
  *bestOut = best;
cleanup:
  acSimResultClear(&sim);
  return st;
}

AcStatus acGreedyTrajectoryUntil(const AcGraph *g, const uint8_t *initialSaved,
                                 int64_t staticBytes, int64_t stopPeak,
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
  t->initialSaved = acMalloc((size_t)g->numValues + 1);
  if (!t->initialSaved) {
    st = AC_ERR_NOMEM;
    goto nomem;
  }
  memcpy(t->initialSaved, initialSaved, (size_t)g->numValues);
  acPlanBwdInstances(g, inst);
  if ((st = acPlanFromSaved(g, initialSaved, cur, err)) != AC_OK)
    goto cleanup;
  if ((st = acSimulate(g, cur, staticBytes, 0, &sim, err)) != AC_OK)
    goto cleanup;
  if (!acTrajectoryPush(t, &cap, AC_NONE, sim.peakBytes, sim.recomputeSeconds,
                        sim.savedBytes))
    goto nomem;
  while (stopPeak < 0 || t->peakBytes[t->numPlans - 1] > stopPeak) {
    AcId v;
    AcSimResult next;
    memset(&next, 0, sizeof next);
    st = acGreedyBestDrop(g, cur, t->peakBytes[t->numPlans - 1], staticBytes,
                          trial, ck, inst, &v, &next, err);
    if (st != AC_OK || v == AC_NONE) {
      acSimResultClear(&next);
      if (st != AC_OK)
        goto cleanup;
      break;
    }
    assert(next.peakBytes < t->peakBytes[t->numPlans - 1]);
    cur->saved[v] = 0;
    st = acPlanDerive(g, cur, err);
    int pushed = st == AC_OK &&
                 acTrajectoryPush(t, &cap, v, next.peakBytes,
                                  next.recomputeSeconds, next.savedBytes);
    acSimResultClear(&next);
    if (st != AC_OK)
      goto cleanup;
    if (!pushed)
      goto nomem;
  }
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
  return acGreedyTrajectoryUntil(g, initialSaved, staticBytes, -1, out, err);
}

AcStatus acGreedyTrajectoryFrom(const AcGraph *g, const uint8_t *initialSaved,
                                int64_t staticBytes, AcTrajectory **out,
                                AcError *err) {
  return acGreedyTrajectoryReference(g, initialSaved, staticBytes, out, err);
}

AcStatus acGreedyTrajectory(const AcGraph *g, int64_t staticBytes,
                            AcTrajectory **out, AcError *err) {
  uint8_t *saved = acMalloc((size_t)g->numValues + 1);
  AcStatus st;
  *out = NULL;
  if (!saved)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                      "out of memory in the greedy planner");
  st = acMincutSaveSet(g, saved, err);
  if (st == AC_OK)
    st = acGreedyTrajectoryFrom(g, saved, staticBytes, out, err);
  acFree(saved);
  return st;
}

intptr_t acTrajectoryChoose(const AcTrajectory *t, int64_t budget) {
  assert(t->numPlans > 0);
  if (budget < 0)
    return 0;
  for (intptr_t k = 0; k < t->numPlans; ++k)
    if (t->peakBytes[k] <= budget)
      return k;
  return t->numPlans - 1;
}

AcStatus acTrajectoryPlan(const AcGraph *g, const AcTrajectory *t,
                          intptr_t step, AcPlan *plan, AcError *err) {
  if (step < 0 || step >= t->numPlans || t->numValues != g->numValues)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "trajectory step %ld is out of range (0..%ld)",
                      (long)step, (long)t->numPlans - 1);
  memcpy(plan->saved, t->initialSaved, (size_t)g->numValues);
  for (intptr_t k = 1; k <= step; ++k)
    plan->saved[t->dropped[k]] = 0;
  return acPlanDerive(g, plan, err);
}
