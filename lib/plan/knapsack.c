/* knapsack.c - PyTorch's activation-memory-budget knapsack, as a baseline.
 *
 * torch.compile's partitioner takes a *fraction* of the min-cut plan's saved
 * activation bytes, not a byte budget.  A user holding a byte budget has to
 * guess the fraction, and the natural guess assumes the peak is "everything
 * else" plus the saved bytes:
 *
 *     peak ~= (mincutPeak - mincutSaved) + kept
 *     fraction = (budget - (mincutPeak - mincutSaved)) / mincutSaved,
 *
 * clamped to [0, 1] (1 without a budget or when nothing is saved).  When
 * every candidate fits (fraction 1 among others) the plan is the min-cut
 * one: the knapsack only drops what the fraction asks it to.  That
 * guess ignores when the saves are live and the transients of recomputation,
 * which is exactly what makes this a baseline: no simulated peak is used
 * beyond the one min-cut simulation for the mapping.
 *
 * Candidates are the min-cut saves that can be dropped (plan_internal.h);
 * the others count as kept.  Each candidate's weight is its bytes and its
 * value the recompute seconds dropping it alone would add
 * (acDropCheckerExtraSeconds).  A 0/1 knapsack
 * keeps the set of candidates avoiding the most recompute time with kept
 * bytes <= fraction * mincutSaved; the rest are dropped and the plan is
 * derived.  The DP quantizes bytes into buckets of
 * ceil(candidate bytes / 1000), rounding weights up (so the byte limit is
 * never exceeded) and the capacity down; items are taken in value-id order
 * with strict improvements only, so the result is deterministic. */
#include "plan_internal.h"
#include "autoac/simulate.h"

#include <assert.h>
#include <math.h>
#include <string.h>

enum { AC_KNAPSACK_BUCKETS = 1000 };

double acKnapsackFraction(int64_t budget, int64_t peak, int64_t savedBytes) {
  if (budget < 0 || savedBytes <= 0)
    return 1.0;
  double f = ((double)budget - (double)(peak - savedBytes)) / (double)savedBytes;
  if (!(f > 0)) /* also NaN */
    return 0.0;
  return f > 1 ? 1.0 : f;
}

AcStatus acKnapsackFrom(const AcGraph *g, const uint8_t *initialSaved,
                        int64_t staticBytes, int64_t budget, AcPlan *plan,
                        double *fraction, AcError *err) {
  AcStatus st = AC_OK;
  AcPlan *base = acPlanCreate(g), *trial = acPlanCreate(g);
  AcDropChecker *ck = acDropCheckerCreate(g);
  int32_t *inst = acCalloc((size_t)g->numFuncs + 1, sizeof *inst);
  AcId *cand = NULL;
  int64_t *bytes = NULL, *weight = NULL;
  double *runtime = NULL, *best = NULL;
  uint8_t *choice = NULL;
  intptr_t n = 0;
  AcSimResult sim;
  memset(&sim, 0, sizeof sim);
  if (fraction)
    *fraction = 1.0;
  if (!base || !trial || !ck || !inst)
    goto nomem;
  acPlanBwdInstances(g, inst);
  if ((st = acPlanFromSaved(g, initialSaved, base, err)) != AC_OK)
    goto cleanup;
  if (budget < 0) { /* no budget: the starting plan */
    acPlanCopy(plan, base);
    goto cleanup;
  }
  if ((st = acSimulate(g, base, staticBytes, 0, &sim, err)) != AC_OK)
    goto cleanup;
  int64_t savedBytes = sim.savedBytes;
  double frac = acKnapsackFraction(budget, sim.peakBytes, savedBytes);
  if (fraction)
    *fraction = frac;

  /* Candidates and their value (recompute seconds avoided by keeping). */
  cand = acMalloc(((size_t)g->numValues + 1) * sizeof *cand);
  bytes = acMalloc(((size_t)g->numValues + 1) * sizeof *bytes);
  weight = acMalloc(((size_t)g->numValues + 1) * sizeof *weight);
  runtime = acMalloc(((size_t)g->numValues + 1) * sizeof *runtime);
  if (!cand || !bytes || !weight || !runtime)
    goto nomem;
  int64_t candBytes = 0;
  for (intptr_t i = 0; i < g->numValues; ++i) {
    AcId v = (AcId)i;
    if (!base->saved[v] || !acDropCheckerOk(ck, base->saved, v))
      continue;
    cand[n] = v;
    bytes[n] = g->values[v].bytes;
    /* What a derivation without v would add, from a walk (no derivation
       per candidate: linear in what each drop reruns). */
    runtime[n] = acDropCheckerExtraSeconds(ck, base, v, inst);
    candBytes += bytes[n];
    ++n;
  }
  /* Bytes kept no matter what: the saves that are not candidates. */
  memcpy(trial->saved, base->saved, (size_t)g->numValues);
  for (intptr_t i = 0; i < n; ++i)
    trial->saved[cand[i]] = 0;
  int64_t fixedBytes = acPlanSavedBytes(g, trial);
  double candBudget = frac * (double)savedBytes - (double)fixedBytes;
  if (candBudget >= (double)candBytes) {
    /* Everything fits (fraction 1 among others): the starting plan.  The
       quantized DP below rounds weights up and could drop a save here. */
    acPlanCopy(plan, base);
    goto cleanup;
  }

  /* 0/1 knapsack over quantized bytes. */
  int64_t unit = candBytes / AC_KNAPSACK_BUCKETS +
                 (candBytes % AC_KNAPSACK_BUCKETS != 0);
  if (unit < 1)
    unit = 1;
  int64_t sumW = 0;
  for (intptr_t i = 0; i < n; ++i) {
    weight[i] = bytes[i] / unit + (bytes[i] % unit != 0);
    sumW += weight[i];
  }
  int64_t capW = candBudget <= 0 ? 0 : (int64_t)floor(candBudget / (double)unit);
  if (capW > sumW)
    capW = sumW;
  intptr_t width = (intptr_t)capW + 1;
  best = acCalloc((size_t)width, sizeof *best);
  choice = acCalloc((size_t)n * (size_t)width / 8 + 1, 1);
  if (!best || !choice)
    goto nomem;
  for (intptr_t i = 0; i < n; ++i) {
    int64_t w = weight[i];
    for (int64_t c = capW; c >= w; --c) {
      double with = best[c - w] + runtime[i];
      if (with > best[c]) {
        best[c] = with;
        size_t bit = (size_t)i * (size_t)width + (size_t)c;
        choice[bit / 8] |= (uint8_t)(1u << (bit % 8));
      }
    }
  }
  /* Keep the chosen candidates; drop the others. */
  memcpy(plan->saved, trial->saved, (size_t)g->numValues);
  int64_t c = capW;
  for (intptr_t i = n - 1; i >= 0; --i) {
    size_t bit = (size_t)i * (size_t)width + (size_t)c;
    if (choice[bit / 8] & (1u << (bit % 8))) {
      plan->saved[cand[i]] = 1;
      c -= weight[i];
      assert(c >= 0);
    }
  }
  st = acPlanDerive(g, plan, err);
  goto cleanup;
nomem:
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                  "out of memory in the knapsack planner");
cleanup:
  acSimResultClear(&sim);
  acPlanDestroy(base);
  acPlanDestroy(trial);
  acDropCheckerDestroy(ck);
  acFree(inst);
  acFree(cand);
  acFree(bytes);
  acFree(weight);
  acFree(runtime);
  acFree(best);
  acFree(choice);
  return st;
}
