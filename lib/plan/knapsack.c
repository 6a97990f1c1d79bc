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

/* The knapsack's items: the droppable saves of the starting plan, their
 * bytes, quantized weights and value (recompute seconds avoided by
 * keeping). */
typedef struct AcKnapsackItems {
  intptr_t n;
  AcId *cand;
  int64_t *bytes, *weight;
  double *runtime;
  int64_t candBytes;   /* sum of bytes */
} AcKnapsackItems;

static void acKnapsackItemsFree(AcKnapsackItems *it) {
  acFree(it->cand);
  acFree(it->bytes);
  acFree(it->weight);
  acFree(it->runtime);
}

/* Collects the items of derived plan `base`; 0 on allocation failure. */
static int acKnapsackCollect(const AcGraph *g, const AcPlan *base,
                             AcDropChecker *ck, const int32_t *inst,
                             AcKnapsackItems *it) {
  it->cand = acMalloc(((size_t)g->numValues + 1) * sizeof *it->cand);
  it->bytes = acMalloc(((size_t)g->numValues + 1) * sizeof *it->bytes);
  it->weight = acMalloc(((size_t)g->numValues + 1) * sizeof *it->weight);
  it->runtime = acMalloc(((size_t)g->numValues + 1) * sizeof *it->runtime);
  if (!it->cand || !it->bytes || !it->weight || !it->runtime)
    return 0;
  for (intptr_t i = 0; i < g->numValues; ++i) {
    AcId v = (AcId)i;
    if (!base->saved[v] || !acDropCheckerOk(ck, base->saved, v))
      continue;
    intptr_t n = it->n++;
    it->cand[n] = v;
    it->bytes[n] = g->values[v].bytes;
    /* What a derivation without v would add, from a walk (no derivation
       per candidate: linear in what each drop reruns). */
    it->runtime[n] = acDropCheckerExtraSeconds(ck, base, v, inst);
    it->candBytes += it->bytes[n];
  }
  return 1;
}

/* The 0/1 knapsack over quantized bytes: the items kept within
 * `candBudget` bytes set in `saved` (the fixed saves already there).
 * 0 on allocation failure. */
static int acKnapsackSolve(AcKnapsackItems *it, double candBudget,
                           uint8_t *saved) {
  intptr_t n = it->n;
  int64_t unit = it->candBytes / AC_KNAPSACK_BUCKETS +
                 (it->candBytes % AC_KNAPSACK_BUCKETS != 0);
  if (unit < 1)
    unit = 1;
  int64_t sumW = 0;
  for (intptr_t i = 0; i < n; ++i) {
    it->weight[i] = it->bytes[i] / unit + (it->bytes[i] % unit != 0);
    sumW += it->weight[i];
  }
  int64_t capW = candBudget <= 0 ? 0 : (int64_t)floor(candBudget / (double)unit);
  if (capW > sumW)
    capW = sumW;
  intptr_t width = (intptr_t)capW + 1;
  double *best = acCalloc((size_t)width, sizeof *best);
  uint8_t *choice = acCalloc((size_t)n * (size_t)width / 8 + 1, 1);
  int ok = best && choice;
  for (intptr_t i = 0; ok && i < n; ++i) {
    int64_t w = it->weight[i];
    for (int64_t c = capW; c >= w; --c) {
      double with = best[c - w] + it->runtime[i];
      if (with > best[c]) {
        best[c] = with;
        size_t bit = (size_t)i * (size_t)width + (size_t)c;
        choice[bit / 8] |= (uint8_t)(1u << (bit % 8));
      }
    }
  }
  /* Keep the chosen candidates; the others stay dropped. */
  int64_t c = capW;
  for (intptr_t i = n - 1; ok && i >= 0; --i) {
    size_t bit = (size_t)i * (size_t)width + (size_t)c;
    if (choice[bit / 8] & (1u << (bit % 8))) {
      saved[it->cand[i]] = 1;
      c -= it->weight[i];
      assert(c >= 0);
    }
  }
  acFree(best);
  acFree(choice);
  return ok;
}

AcStatus acKnapsackFrom(const AcGraph *g, const uint8_t *initialSaved,
                        const AcSearchOptions *opts, AcPlan *plan,
                        double *fraction, AcError *err) {
  AcStatus st = AC_OK;
  AcPlan *base = acPlanCreate(g), *trial = acPlanCreate(g);
  AcDropChecker *ck = acDropCheckerCreate(g);
  int32_t *inst = acCalloc((size_t)g->numFuncs + 1, sizeof *inst);
  AcKnapsackItems it;
  AcSimResult sim;
  memset(&it, 0, sizeof it);
  memset(&sim, 0, sizeof sim);
  if (fraction)
    *fraction = 1.0;
  if (!base || !trial || !ck || !inst)
    goto nomem;
  acPlanBwdInstances(g, inst);
  if ((st = acPlanFromSaved(g, initialSaved, base, err)) != AC_OK)
    goto cleanup;
  if (opts->budget < 0) { /* no budget: the starting plan */
    acPlanCopy(plan, base);
    goto cleanup;
  }
  if ((st = acSimulate(g, base, opts->staticBytes, 0, &sim, err)) != AC_OK)
    goto cleanup;
  int64_t savedBytes = sim.savedBytes;
  double frac = acKnapsackFraction(opts->budget, sim.peakBytes, savedBytes);
  if (fraction)
    *fraction = frac;
  if (!acKnapsackCollect(g, base, ck, inst, &it))
    goto nomem;
  /* Bytes kept no matter what: the saves that are not candidates. */
  memcpy(trial->saved, base->saved, (size_t)g->numValues);
  for (intptr_t i = 0; i < it.n; ++i)
    trial->saved[it.cand[i]] = 0;
  int64_t fixedBytes = acPlanSavedBytes(g, trial);
  double candBudget = frac * (double)savedBytes - (double)fixedBytes;
  if (candBudget >= (double)it.candBytes) {
    /* Everything fits (fraction 1 among others): the starting plan.  The
       quantized DP rounds weights up and could drop a save here. */
    acPlanCopy(plan, base);
    goto cleanup;
  }
  memcpy(plan->saved, trial->saved, (size_t)g->numValues);
  if (!acKnapsackSolve(&it, candBudget, plan->saved))
    goto nomem;
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
  acKnapsackItemsFree(&it);
  return st;
}
