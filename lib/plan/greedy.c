/* greedy.c - the greedy planner as a trajectory of plans, the reference
 * implementation, and what both implementations share.
 *
 * From a starting save set (the min-cut one in the product), repeatedly drop
 * the saved value with the least extra recompute seconds per byte of
 * global peak it frees (ties: the larger fall, then the lower value id),
 * considering only drops that lower the simulated peak.  When none does,
 * a drop that keeps the peak but lowers the number of steps at it, or the
 * second-highest level, is taken by the same rule on that secondary fall
 * (docs/planner.md); the run ends when nothing improves.  Every plan along
 * the way is recorded with its peak, which therefore never rises; trailing
 * plateau drops that never led to a lower peak are trimmed.  A budget picks
 * the first plan whose peak fits, or the last one; smaller budgets only walk
 * further along the same trajectory, so the chosen peak is monotone in the
 * budget.
 *
 * This file holds the straightforward reference: each step re-derives and
 * re-simulates every candidate, O(saves * (ops + operands)) per step.  The
 * product runs the incremental version (greedy_inc.c), which produces the
 * same trajectory; acGreedyTrajectoryReference stays reachable to check it
 * against. */
#include "greedy_internal.h"
#include "plan_internal.h"
#include "autoac/partition.h"
#include "autoac/simulate.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/*===-------------------------- shared pieces -----------------------------===*/

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

AcProfileTop acProfileTopOf(const int64_t *live, intptr_t numSteps) {
  AcProfileTop p = {0, 0, -1};
  for (intptr_t t = 0; t < numSteps; ++t) {
    if (t == 0 || live[t] > p.top) {
      if (t > 0)
        p.second = p.top;
      p.top = live[t];
      p.count = 1;
    } else if (live[t] == p.top) {
      p.count++;
    } else if (live[t] > p.second) {
      p.second = live[t];
    }
  }
  return p;
}

int acDropClassify(AcProfileTop cur, AcProfileTop next, int64_t *fall) {
  *fall = 0;
  if (next.top < cur.top) {
    *fall = cur.top - next.top;
    return AC_DROP_PRIMARY;
  }
  if (next.top > cur.top)
    return AC_DROP_NONE;
  int64_t below = next.second > 0 ? next.second : 0;
  if (next.count < cur.count)
    *fall = cur.top - below;
  else if (next.count == cur.count && next.second < cur.second)
    *fall = cur.second - below;
  return *fall > 0 ? AC_DROP_SECONDARY : AC_DROP_NONE;
}

/* 64 x 64 -> 128-bit unsigned product. */
static void acMul128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
  uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu,
           bh = b >> 32;
  uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
  *lo = (mid << 32) | (ll & 0xffffffffu);
  *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

static int acBitLength128(uint64_t hi, uint64_t lo) {
  int n = 0;
  if (hi) {
    for (n = 64; hi; hi >>= 1)
      ++n;
    return n;
  }
  for (; lo; lo >>= 1)
    ++n;
  return n;
}

static void acShl128(uint64_t *hi, uint64_t *lo, int k) {
  if (k <= 0)
    return;
  if (k >= 64) {
    *hi = *lo << (k - 64);
    *lo = 0;
  } else {
    *hi = (*hi << k) | (*lo >> (64 - k));
    *lo <<= k;
  }
}

int acCompareScaled(double x1, int64_t f1, double x2, int64_t f2) {
  assert(x1 >= 0 && x2 >= 0 && f1 > 0 && f2 > 0);
  assert(isfinite(x1) && isfinite(x2));
  int e1 = 0, e2 = 0;
  /* x = m * 2^(e - 53) with m an integer below 2^53. */
  uint64_t m1 = x1 > 0 ? (uint64_t)ldexp(frexp(x1, &e1), 53) : 0;
  uint64_t m2 = x2 > 0 ? (uint64_t)ldexp(frexp(x2, &e2), 53) : 0;
  uint64_t h1, l1, h2, l2;
  acMul128(m1, (uint64_t)f1, &h1, &l1);
  acMul128(m2, (uint64_t)f2, &h2, &l2);
  int z1 = !h1 && !l1, z2 = !h2 && !l2;
  if (z1 || z2)
    return z1 && z2 ? 0 : z1 ? -1 : 1;
  int b1 = acBitLength128(h1, l1) + e1, b2 = acBitLength128(h2, l2) + e2;
  if (b1 != b2)
    return b1 < b2 ? -1 : 1;
  /* Same magnitude: align the exponents (the shifted value keeps its bit
     length <= 128) and compare. */
  if (e1 > e2)
    acShl128(&h1, &l1, e1 - e2);
  else
    acShl128(&h2, &l2, e2 - e1);
  if (h1 != h2)
    return h1 < h2 ? -1 : 1;
  return l1 < l2 ? -1 : l1 > l2;
}

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

int acTrajectoryEqual(const AcTrajectory *a, const AcTrajectory *b) {
  if (a->numPlans != b->numPlans || a->refinedDrop != b->refinedDrop)
    return 0;
  if (a->refinedDrop != AC_NONE &&
      (a->refinedPeakBytes != b->refinedPeakBytes ||
       memcmp(&a->refinedRecomputeSeconds, &b->refinedRecomputeSeconds, sizeof(double))))
    return 0;
  for (intptr_t k = 0; k < a->numPlans; ++k)
    if (a->dropped[k] != b->dropped[k] || a->peakBytes[k] != b->peakBytes[k] ||
        memcmp(&a->recomputeSeconds[k], &b->recomputeSeconds[k], sizeof(double)) ||
        a->savedBytes[k] != b->savedBytes[k])
      return 0;
  return 1;
}

int acTrajectoryPush(AcTrajectory *t, intptr_t *cap, AcId dropped,
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

void acTrajectoryTrim(AcTrajectory *t) {
  assert(t->numPlans > 0);
  int64_t last = t->peakBytes[t->numPlans - 1];
  intptr_t k = t->numPlans - 1;
  while (k > 0 && t->peakBytes[k - 1] == last)
    --k;
  t->numPlans = k + 1;
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
 * acRefineBefore (the pick itself is one of them). */
static AcStatus acGreedyRefine(const AcGraph *g, const AcPlan *cur,
                               int64_t staticBytes, AcPlan *trial,
                               AcDropChecker *ck, const int32_t *inst,
                               double pickExtra, int64_t pickPeak,
                               int64_t budget, AcTrajectory *t, AcError *err) {
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
    if (t->refinedDrop == AC_NONE ||
        acRefineBefore(extra, peak, v, t->refinedRecomputeSeconds, t->refinedPeakBytes,
                       t->refinedDrop)) {
      t->refinedDrop = v;
      t->refinedPeakBytes = peak;
      t->refinedRecomputeSeconds = extra; /* made absolute by the caller */
    }
  }
  acSimResultClear(&sim);
  return st;
}

AcStatus acGreedyReferenceUntil(const AcGraph *g, const uint8_t *initialSaved,
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
  while (stopPeak < 0 || t->peakBytes[t->numPlans - 1] > stopPeak) {
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
    if (stopPeak >= 0 && next.peakBytes <= stopPeak) {
      /* The last drop: the budget may take a cheaper one. */
      if ((st = acGreedyRefine(g, cur, staticBytes, trial, ck, inst, extra,
                               next.peakBytes, stopPeak, t, err)) != AC_OK) {
        acSimResultClear(&next);
        goto cleanup;
      }
      assert(t->refinedDrop != AC_NONE);
      if (t->refinedDrop == v) {
        t->refinedDrop = AC_NONE;
      } else {
        t->refinedRecomputeSeconds += seconds;
      }
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

AcStatus acGreedyTrajectoryUntil(const AcGraph *g, const uint8_t *initialSaved,
                                 int64_t staticBytes, int64_t stopPeak,
                                 AcTrajectory **out, AcError *err) {
  return acGreedyIncrementalUntil(g, initialSaved, staticBytes, stopPeak, 0,
                                  out, err);
}

AcStatus acGreedyTrajectoryReference(const AcGraph *g,
                                     const uint8_t *initialSaved,
                                     int64_t staticBytes, AcTrajectory **out,
                                     AcError *err) {
  return acGreedyReferenceUntil(g, initialSaved, staticBytes, -1, out, err);
}

AcStatus acGreedyTrajectoryFrom(const AcGraph *g, const uint8_t *initialSaved,
                                int64_t staticBytes, AcTrajectory **out,
                                AcError *err) {
  return acGreedyIncrementalUntil(g, initialSaved, staticBytes, -1, 0, out,
                                  err);
}

AcStatus acGreedyTrajectory(const AcGraph *g, int64_t staticBytes,
                            AcTrajectory **out, AcError *err) {
  uint8_t *saved = acMalloc((size_t)g->numValues + 1);
  AcStatus st;
  *out = NULL;
  if (!saved)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                      "out of memory in the greedy planner");
  st = acPlanStartSet(g, staticBytes, saved, err);
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

AcStatus acGreedyPlanForBudget(const AcGraph *g, const uint8_t *initialSaved,
                               int64_t staticBytes, int64_t budget,
                               AcPlan *plan, AcTrajectory **out, AcError *err) {
  return acGreedyPlanForBudgetDeadline(g, initialSaved, staticBytes, budget, 0,
                                       NULL, plan, out, err);
}

AcStatus acGreedyPlanForBudgetDeadline(const AcGraph *g,
                                       const uint8_t *initialSaved,
                                       int64_t staticBytes, int64_t budget,
                                       double deadline, int *cutShort,
                                       AcPlan *plan, AcTrajectory **out,
                                       AcError *err) {
  AcTrajectory *t = NULL;
  AcStatus st;
  if (out)
    *out = NULL;
  if (cutShort)
    *cutShort = 0;
  if (budget < 0) {
    st = acPlanFromSaved(g, initialSaved, plan, err);
  } else if ((st = acGreedyIncrementalDeadline(g, initialSaved, staticBytes,
                                               budget, deadline, cutShort, &t,
                                               err)) == AC_OK) {
    intptr_t k = acTrajectoryChoose(t, budget);
    st = acTrajectoryPlan(g, t, k, plan, err);
    if (st == AC_OK && t->refinedDrop != AC_NONE) {
      /* Plan k - 1 with the budget's last drop instead of dropped[k]. */
      assert(k == t->numPlans - 1 && k > 0 && t->peakBytes[k] <= budget);
      plan->saved[t->refinedDrop] = 0;
      plan->saved[t->dropped[k]] = 1;
      st = acPlanDerive(g, plan, err);
    }
  }
  if (out && st == AC_OK)
    *out = t;
  else
    acTrajectoryDestroy(t);
  return st;
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
