/* trajectory.c - the greedy trajectory and what the reference greedy
 * (greedy_ref.c) and the incremental one (greedy_inc*.c) share so that
 * they choose alike: the profile measures and the classification of a drop
 * (docs/planner.md), the exact cost-per-byte order, the trajectory's
 * bookkeeping, and the budget's last drop, recorded (acTrajectorySetLastDrop)
 * and applied to a plan (acTrajectoryBudgetPlan) here and nowhere else.
 *
 * Invariants: a trajectory's peaks never rise; plan k is initialSaved with
 * dropped[1..k] unsaved; lastDrop, when set, replaces dropped[numPlans - 1]
 * and its peak lies in [peakBytes[numPlans - 1], budget]. */
#include "greedy_internal.h"
#include "plan_oracles.h"

#include <assert.h>
#include <math.h>
#include <string.h>

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

void acTrajectorySetLastDrop(AcTrajectory *t, AcId pick, const AcLastDrop *best,
                             double secondsBefore) {
  assert(best->value != AC_NONE);
  if (best->value == pick) {
    t->refinedDrop = AC_NONE; /* the trajectory's own plan stands */
    return;
  }
  t->refinedDrop = best->value;
  t->refinedPeakBytes = best->peak;
  t->refinedRecomputeSeconds = best->extra + secondsBefore;
}

void acLastDropConsider(AcLastDrop *best, AcId v, int64_t peak, double extra) {
  if (best->value == AC_NONE ||
      acRefineBefore(extra, peak, v, best->extra, best->peak, best->value)) {
    best->value = v;
    best->peak = peak;
    best->extra = extra;
  }
}

AcStatus acTrajectoryBudgetPlan(const AcGraph *g, const AcTrajectory *t,
                                int64_t budget, AcPlan *plan, AcError *err) {
  intptr_t k = acTrajectoryChoose(t, budget);
  AcStatus st = acTrajectoryPlan(g, t, k, plan, err);
  if (st == AC_OK && t->refinedDrop != AC_NONE) {
    /* Plan k - 1 with the budget's last drop instead of dropped[k]. */
    assert(k == t->numPlans - 1 && k > 0 && t->peakBytes[k] <= budget);
    plan->saved[t->refinedDrop] = 0;
    plan->saved[t->dropped[k]] = 1;
    st = acPlanDerive(g, plan, err);
  }
  return st;
}
