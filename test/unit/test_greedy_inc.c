/* test_greedy_inc.c - the incremental greedy (greedy_inc.c) against the
 * reference (greedy_ref.c): identical trajectories (drops, peaks, recompute
 * seconds bit for bit, saved bytes) on random graphs with several functions,
 * microbatches and random schedules, from the min-cut set, from save-all
 * and from random save sets; graphs with quantized sizes and costs, where
 * plateaus (equal peaks at several steps) and exact ratio ties are common,
 * so that the secondary rule and the tie-breaks are exercised; the
 * incremental state re-checked against a fresh simulation after every
 * drop; early stops giving prefixes; the exact ratio order; allocation
 * failures; op workspaces. */
#include "plan_testkit.h"
#include "partition/partition.h"

#include "plan/greedy_internal.h"
#include "plan/plan_internal.h"

static void printTrajectories(const AcTrajectory *r, const AcTrajectory *t) {
  intptr_t n = r->numPlans > t->numPlans ? r->numPlans : t->numPlans;
  for (intptr_t k = 0; k < n; ++k)
    printf("    %3ld  ref %5d %10lld %.17g   inc %5d %10lld %.17g\n", (long)k,
           k < r->numPlans ? (int)r->dropped[k] : -9,
           k < r->numPlans ? (long long)r->peakBytes[k] : -9LL,
           k < r->numPlans ? r->recomputeSeconds[k] : -9.0,
           k < t->numPlans ? (int)t->dropped[k] : -9,
           k < t->numPlans ? (long long)t->peakBytes[k] : -9LL,
           k < t->numPlans ? t->recomputeSeconds[k] : -9.0);
}

typedef struct Stats {
  int trajectories, drops, plateauDrops, failures;
} Stats;

/* Compares both implementations from `s0`; checks the incremental state
 * after every drop. */
static void compareFrom(const AcGraph *g, const uint8_t *s0, int64_t staticB,
                        const char *what, uint64_t seed, Stats *st) {
  AcTrajectory *r = NULL, *t = NULL, *c = NULL;
  AcError err;
  AcStatus sr = acGreedyTrajectoryReference(g, s0, staticB, &r, &err);
  if (sr != AC_OK) {
    printf("  seed %d %s: reference: %s\n", (int)seed, what, err.message);
    CHECK(sr == AC_OK);
    return;
  }
  AcStatus si = acGreedyTrajectoryFrom(g, s0, staticB, &t, &err);
  if (si != AC_OK)
    printf("  seed %d %s: incremental: %s\n", (int)seed, what, err.message);
  CHECK(si == AC_OK);
  AcStatus sc = acGreedyIncrementalUntil(g, s0, staticB, -1, 1, &c, &err);
  if (sc != AC_OK)
    printf("  seed %d %s: checked: %s\n", (int)seed, what, err.message);
  CHECK(sc == AC_OK);
  if (t && !acTrajectoryEqual(r, t)) {
    printf("  seed %d %s: trajectories differ\n", (int)seed, what);
    printTrajectories(r, t);
    st->failures++;
    CHECK(0);
  }
  if (t && c)
    CHECK(acTrajectoryEqual(t, c));
  st->trajectories++;
  st->drops += (int)r->numPlans - 1;
  for (intptr_t k = 1; k < r->numPlans; ++k) {
    CHECK(r->peakBytes[k] <= r->peakBytes[k - 1]);
    st->plateauDrops += r->peakBytes[k] == r->peakBytes[k - 1];
  }
  /* Trimmed: the last plan is the first at the lowest peak. */
  CHECK(r->numPlans < 2 || r->peakBytes[r->numPlans - 2] > r->peakBytes[r->numPlans - 1]);
  acTrajectoryDestroy(r);
  acTrajectoryDestroy(t);
  acTrajectoryDestroy(c);
}

static void compareGraph(AcGraph *g, uint64_t seed, Stats *st) {
  int64_t staticB = acSimStaticBytes(g, 1.0, (int64_t)(seed % 3) * 16);
  uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
  AcPlan *p = acPlanCreate(g);
  AcError err;
  if (acMincutSaveSet(g, s0, &err) == AC_OK)
    compareFrom(g, s0, staticB, "mincut", seed, st);
  acPlanSaveAll(g, p);
  compareFrom(g, p->saved, staticB, "save-all", seed, st);
  uint64_t rs = seed ^ 0xabcdef;
  if (tkRandomPlan(g, &rs, 60, p))
    compareFrom(g, p->saved, staticB, "random", seed, st);
  free(s0);
  acPlanDestroy(p);
}

AC_TEST(randomGraphs) {
  Stats st = {0, 0, 0, 0};
  for (uint64_t seed = 1; seed <= 300 && st.failures < 3; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 3 == 0), 1 + (int)(seed % 4),
                            12 + (int)(seed % 40), 8 + (int)(seed % 25));
    if (!g)
      continue;
    g->gradMode = (AcGradMode)(seed % 3); /* every gradient mode */
    compareGraph(g, seed, &st);
    acGraphDestroy(g);
  }
  printf("  %d trajectories, %d drops (%d on plateaus)\n", st.trajectories,
         st.drops, st.plateauDrops);
  CHECK(st.trajectories >= 800 && st.drops >= 1000);
}

AC_TEST(quantizedGraphs) {
  Stats st = {0, 0, 0, 0};
  for (uint64_t seed = 1000; seed <= 1400 && st.failures < 3; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 3 == 0), 1 + (int)(seed % 3),
                            10 + (int)(seed % 30), 6 + (int)(seed % 20));
    if (!g)
      continue;
    tkQuantize(g, seed);
    compareGraph(g, seed, &st);
    acGraphDestroy(g);
  }
  printf("  %d trajectories, %d drops (%d on plateaus)\n", st.trajectories,
         st.drops, st.plateauDrops);
  CHECK(st.trajectories >= 1000 && st.plateauDrops >= 30);
}

/* Early stops compute exactly a prefix of the full trajectory. */
AC_TEST(prefixes) {
  int n = 0;
  for (uint64_t seed = 2000; seed < 2060; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 2), 1 + (int)(seed % 3), 25, 15);
    if (!g)
      continue;
    if (seed % 2)
      tkQuantize(g, seed);
    uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
    AcTrajectory *full = NULL;
    if (acMincutSaveSet(g, s0, NULL) == AC_OK &&
        acGreedyTrajectoryFrom(g, s0, 0, &full, NULL) == AC_OK) {
      for (intptr_t k = 0; k < full->numPlans; ++k) {
        AcTrajectory *pre = NULL, *ref = NULL;
        int64_t stop = full->peakBytes[k];
        CHECK(acGreedyTrajectoryUntil(g, s0, 0, stop, &pre, NULL) == AC_OK);
        CHECK(acGreedyReferenceUntil(g, s0, 0, stop, &ref, NULL) == AC_OK);
        if (pre && ref) {
          CHECK(acTrajectoryEqual(pre, ref));
          CHECK(pre->numPlans <= full->numPlans);
          for (intptr_t j = 0; j < pre->numPlans && j < full->numPlans; ++j)
            CHECK(pre->dropped[j] == full->dropped[j] &&
                  pre->peakBytes[j] == full->peakBytes[j]);
          CHECK(pre->peakBytes[pre->numPlans - 1] <= stop);
          ++n;
        }
        acTrajectoryDestroy(pre);
        acTrajectoryDestroy(ref);
      }
    }
    acTrajectoryDestroy(full);
    free(s0);
    acGraphDestroy(g);
  }
  CHECK(n > 100);
}

/* The limits (docs/planner.md, "Bounded time"): greedy's work limit and a
 * deadline stop the trajectory early, saying so; what is left is a prefix of
 * the full trajectory, longer as the limit grows; a planning run under a
 * time limit that has passed returns a plan no worse than the start's,
 * marked limited and timed out. */
AC_TEST(limits) {
  int cutSeen = 0, n = 0;
  for (uint64_t seed = 3000; seed < 3040; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 2), 1 + (int)(seed % 3), 25, 15);
    if (!g)
      continue;
    uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
    AcTrajectory *full = NULL;
    if (acMincutSaveSet(g, s0, NULL) == AC_OK &&
        acGreedyTrajectoryFrom(g, s0, 0, &full, NULL) == AC_OK && full->numPlans > 1) {
      intptr_t lastLen = 0;
      const intptr_t works[] = {1, 40, 400, 4000, 0};
      for (int w = 0; w < 5; ++w) {
        AcTrajectory *t = NULL;
        int cut = -1;
        acGreedyWorkOverride = works[w];
        CHECK(acGreedyIncrementalRun(g, s0, &(AcGreedyOptions){{-1, 0, 0}, 0, NULL, NULL}, &cut, &t, NULL) == AC_OK);
        acGreedyWorkOverride = 0;
        if (!t)
          continue;
        for (intptr_t j = 0; j < t->numPlans && j < full->numPlans; ++j)
          CHECK(t->dropped[j] == full->dropped[j] && t->peakBytes[j] == full->peakBytes[j]);
        if (works[w] == 1)
          CHECK(t->numPlans <= 2 && (cut == 1 || t->numPlans == full->numPlans)); /* one drop, then the check */
        if (works[w] == 0)
          CHECK(cut == 0 && acTrajectoryEqual(t, full));
        CHECK(t->numPlans >= lastLen || (cut == 0 && t->numPlans == full->numPlans));
        lastLen = t->numPlans;
        cutSeen += cut;
        acTrajectoryDestroy(t);
      }
      /* A deadline in the past: plan 0 only. */
      AcTrajectory *t = NULL;
      int cut = 0;
      CHECK(acGreedyIncrementalRun(g, s0, &(AcGreedyOptions){{-1, 0, 1e-9}, 0, NULL, NULL}, &cut, &t, NULL) == AC_OK);
      CHECK(t && cut == 1 && t->numPlans == 1);
      acTrajectoryDestroy(t);
      /* The planning run: limited, timed out, never above the start. */
      AcPlan *p = acPlanCreate(g);
      AcSearchStats S;
      AcSimResult sim;
      memset(&sim, 0, sizeof sim);
      for (int s = 0; p && s < 2; ++s) {
        AcPlanOptions o = {s ? AC_STRATEGY_BEAM : AC_STRATEGY_GREEDY, 0, 0, !s, 1e-12};
        CHECK(acPlanRunStats(g, &o, p, &S, NULL) == AC_OK);
        CHECK(S.limited && S.timedOut);
        CHECK(acSimulate(g, p, 0, 0, &sim, NULL) == AC_OK);
        CHECK(sim.peakBytes <= full->peakBytes[0]);
        acSimResultClear(&sim);
        ++n;
      }
      acPlanDestroy(p);
    }
    acTrajectoryDestroy(full);
    free(s0);
    acGraphDestroy(g);
  }
  CHECK(cutSeen > 20 && n > 20);
}

/* acCompareScaled against exact small-integer arithmetic and edge cases. */
AC_TEST(exactOrder) {
  uint64_t rs = 99;
  for (int i = 0; i < 20000; ++i) {
    int64_t a = (int64_t)(acTestRand(&rs) % 100000), b = (int64_t)(acTestRand(&rs) % 100000);
    int64_t f1 = 1 + (int64_t)(acTestRand(&rs) % 1000000), f2 = 1 + (int64_t)(acTestRand(&rs) % 1000000);
    int shift = (int)(acTestRand(&rs) % 40) - 20;
    /* x = a * 2^shift, y = b * 2^shift: compare a*f1 with b*f2. */
    double x = ldexp((double)a, shift), y = ldexp((double)b, shift);
    __int128 l = (__int128)a * f1, r = (__int128)b * f2;
    int want = l < r ? -1 : l > r;
    CHECK_EQ_I64(acCompareScaled(x, f1, y, f2), want);
  }
  CHECK_EQ_I64(acCompareScaled(0.0, 5, 0.0, 7), 0);
  CHECK_EQ_I64(acCompareScaled(0.0, 5, 1e-300, 1), -1);
  CHECK_EQ_I64(acCompareScaled(0.1, 3, 0.3, 1), (0.1 * 3 < 0.3) ? -1 : 1); /* 0.1*3 != 0.3 */
  CHECK_EQ_I64(acCompareScaled(1e300, INT64_MAX, 1e300, INT64_MAX - 1), 1);
  CHECK_EQ_I64(acCompareScaled(0.75, (int64_t)1 << 62, 1.5, (int64_t)1 << 61), 0);
  /* The order: ratio, then larger fall, then lower id. */
  CHECK(acDropBefore(1.0, 10, 5, 2.0, 10, 1));
  CHECK(acDropBefore(1.0, 20, 5, 0.5, 10, 1));
  CHECK(!acDropBefore(0.5, 10, 1, 1.0, 20, 5));
  CHECK(acDropBefore(0.5, 10, 1, 0.5, 10, 5));
  CHECK(!acDropBefore(0.5, 10, 5, 0.5, 10, 1));
}

AC_TEST(classify) {
  int64_t live[] = {5, 9, 9, 3, 7, 9};
  AcProfileTop p = acProfileTopOf(live, 6);
  CHECK(p.top == 9 && p.count == 3 && p.second == 7);
  AcProfileTop e = acProfileTopOf(NULL, 0);
  CHECK(e.top == 0 && e.count == 0 && e.second == -1);
  int64_t one[] = {4, 4};
  p = acProfileTopOf(one, 2);
  CHECK(p.top == 4 && p.count == 2 && p.second == -1);
  int64_t fall;
  AcProfileTop cur = {9, 3, 7};
  CHECK(acDropClassify(cur, (AcProfileTop){8, 1, 2}, &fall) == AC_DROP_PRIMARY && fall == 1);
  CHECK(acDropClassify(cur, (AcProfileTop){10, 1, 2}, &fall) == AC_DROP_NONE);
  CHECK(acDropClassify(cur, (AcProfileTop){9, 2, 8}, &fall) == AC_DROP_SECONDARY && fall == 1);
  CHECK(acDropClassify(cur, (AcProfileTop){9, 3, 4}, &fall) == AC_DROP_SECONDARY && fall == 3);
  CHECK(acDropClassify(cur, (AcProfileTop){9, 3, 7}, &fall) == AC_DROP_NONE);
  CHECK(acDropClassify(cur, (AcProfileTop){9, 4, 1}, &fall) == AC_DROP_NONE);
  CHECK(acDropClassify(cur, (AcProfileTop){9, 2, -1}, &fall) == AC_DROP_SECONDARY && fall == 9);
}

AC_TEST(allocFailures) {
  AcGraph *g = tkGenGraph(77, 2, 2, 16, 10);
  CHECK(g != NULL);
  if (!g)
    return;
  AcPlan *p = acPlanCreate(g);
  acPlanSaveAll(g, p);
  AcTrajectory *want = NULL;
  CHECK(acGreedyTrajectoryFrom(g, p->saved, 0, &want, NULL) == AC_OK);
  int sawOk = 0, runs = 0;
  for (int64_t n = 1; n < 20000 && !sawOk; ++n, ++runs) {
    AcTrajectory *t = NULL;
    AcError err;
    acAllocFailAfter(n);
    AcStatus st = acGreedyTrajectoryFrom(g, p->saved, 0, &t, &err);
    acAllocFailAfter(0);
    CHECK(st == AC_OK || st == AC_ERR_NOMEM);
    if (st != AC_OK && st != AC_ERR_NOMEM)
      printf("  n %d: %s\n", (int)n, err.message);
    CHECK((st == AC_OK) == (t != NULL));
    if (t && want)
      CHECK(acTrajectoryEqual(t, want));
    sawOk = st == AC_OK;
    acTrajectoryDestroy(t);
  }
  printf("  %d injection points\n", runs);
  CHECK(sawOk);
  acTrajectoryDestroy(want);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* The same with every backward leaf indexed (greedy_inc.c indexes only
 * big leaves, which small graphs do not have). */
/* acTrajectoryEqual sees each field: a copy is equal; a change to any one
 * of them is not. */
AC_TEST(trajectoryEqual) {
  AcGraph *g = NULL;
  AcTrajectory *a = NULL, *b = NULL;
  for (uint64_t seed = 31; seed < 60 && !(a && a->numPlans > 1); ++seed) {
    acTrajectoryDestroy(a);
    acTrajectoryDestroy(b);
    acGraphDestroy(g);
    a = b = NULL;
    g = tkGenGraph(seed, 1, 1, 20, 10);
    CHECK(g && acGreedyTrajectory(g, 0, &a, NULL) == AC_OK &&
          acGreedyTrajectory(g, 0, &b, NULL) == AC_OK);
  }
  if (a && b && a->numPlans > 1) {
    intptr_t k = a->numPlans - 1;
    CHECK(acTrajectoryEqual(a, b));
    b->recomputeSeconds[k] = nextafter(b->recomputeSeconds[k], INFINITY);
    CHECK(!acTrajectoryEqual(a, b));
    b->recomputeSeconds[k] = a->recomputeSeconds[k];
    b->peakBytes[k]++;
    CHECK(!acTrajectoryEqual(a, b));
    b->peakBytes[k]--;
    b->savedBytes[k]++;
    CHECK(!acTrajectoryEqual(a, b));
    b->savedBytes[k]--;
    b->dropped[k]++;
    CHECK(!acTrajectoryEqual(a, b));
    b->dropped[k]--;
    b->refinedDrop = a->dropped[k];
    CHECK(!acTrajectoryEqual(a, b));
    b->refinedDrop = AC_NONE;
    b->numPlans--;
    CHECK(!acTrajectoryEqual(a, b));
    b->numPlans++;
    CHECK(acTrajectoryEqual(a, b));
  } else {
    CHECK(0);
  }
  acTrajectoryDestroy(a);
  acTrajectoryDestroy(b);
  acGraphDestroy(g);
}

static void budgetLastDrop(void);

AC_TEST(randomGraphsIndexed) {
  int saved = acGreedyLeafIndexMin;
  acGreedyLeafIndexMin = 1;
  budgetLastDrop();
  randomGraphs();
  quantizedGraphs();
  prefixes();
  allocFailures();
  acGreedyLeafIndexMin = saved;
}

/* 1 when the save-all peak of g is lower with its in-place writes than
 * without them. */
#ifndef AC_EXTRA_SEEDS
#define AC_EXTRA_SEEDS 0
#endif

static int inPlaceChangesPeak(AcGraph *g) {
  AcPlan *p = acPlanCreate(g);
  AcSimResult a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  AcId *keep = calloc((size_t)g->numOps + 1, sizeof *keep);
  int lower = 0;
  acPlanSaveAll(g, p);
  if (acPlanDerive(g, p, NULL) == AC_OK &&
      acSimulate(g, p, 0, 0, &a, NULL) == AC_OK) {
    for (intptr_t o = 0; o < g->numOps; ++o) {
      keep[o] = g->ops[o].dpsInit;
      g->ops[o].dpsInit = AC_NONE;
    }
    if (acSimulate(g, p, 0, 0, &b, NULL) == AC_OK)
      lower = a.peakBytes < b.peakBytes;
    for (intptr_t o = 0; o < g->numOps; ++o)
      g->ops[o].dpsInit = keep[o];
  }
  free(keep);
  acSimResultClear(&a);
  acSimResultClear(&b);
  acPlanDestroy(p);
  return lower;
}

/* Trajectories on the generator's graphs of seeds first..last (plus
 * AC_EXTRA_SEEDS) with its destination-style settings as they are, in both
 * leaf representations; at least the given numbers of graphs whose
 * save-all peak the in-place rule lowers (so the check is not vacuous),
 * trajectories, drops and destination-style ops. */
static void inPlaceSeeds(uint64_t first, uint64_t last, int minChanged,
                         int minTrajectories, int minDrops, int minOps) {
  int saved = acGreedyLeafIndexMin;
  for (int indexed = 0; indexed < 2; ++indexed) {
    acGreedyLeafIndexMin = indexed ? 1 : saved;
    Stats st = {0, 0, 0, 0};
    int inPlaceOps = 0, changed = 0;
    for (uint64_t seed = first; seed <= last + AC_EXTRA_SEEDS && st.failures < 3; ++seed) {
      AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 3 == 0), 1 + (int)(seed % 3),
                              12 + (int)(seed % 30), 8 + (int)(seed % 20));
      if (!g)
        continue;
      for (intptr_t o = 0; o < g->numOps; ++o)
        inPlaceOps += g->ops[o].dpsInit != AC_NONE;
      changed += inPlaceChangesPeak(g);
      if (seed % 2)
        tkQuantize(g, seed);
      compareGraph(g, seed, &st);
      acGraphDestroy(g);
    }
    printf("  %s: %d trajectories, %d drops, %d destination-style ops, %d graphs "
           "whose save-all peak they lower\n",
           indexed ? "indexed" : "plain", st.trajectories, st.drops, inPlaceOps,
           changed);
    CHECK(st.failures == 0);
    CHECK(changed >= minChanged);
    CHECK(st.trajectories >= minTrajectories && st.drops >= minDrops &&
          inPlaceOps >= minOps);
  }
  acGreedyLeafIndexMin = saved;
}

/* Destination-style ops (simulate.c's in-place rule): init chains written
 * in place, shared inits, inits of another size, forward inits read by the
 * backward, backward chains ending in a returned gradient. */
AC_TEST(inPlaceGraphs) {
  tkDpsPercent = 40;
  inPlaceSeeds(5000, 5300, 50, 800, 1000, 1000);
  tkDpsPercent = 0;
}

/* As inPlaceGraphs, with inits that other ops read too (tkDestPercent):
 * `tensor.insert_slice` dests and writes into `tensor.extract_slice` views,
 * the inits left shared after the import's one-init-per-writer rule. */
AC_TEST(inPlaceDestGraphs) {
  tkDpsPercent = 40;
  tkDestPercent = 35;
  inPlaceSeeds(7000, 7150, 25, 400, 500, 500);
  tkDestPercent = 0;
  tkDpsPercent = 0;
}

/* 1 when g's save-all peak is higher with its ops' workspaces than without. */
static int workspaceChangesPeak(AcGraph *g) {
  AcPlan *p = acPlanCreate(g);
  AcSimResult a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  int64_t *keep = calloc((size_t)g->numOps + 1, sizeof *keep);
  int higher = 0;
  acPlanSaveAll(g, p);
  if (acPlanDerive(g, p, NULL) == AC_OK &&
      acSimulate(g, p, 0, 0, &a, NULL) == AC_OK) {
    for (intptr_t o = 0; o < g->numOps; ++o) {
      keep[o] = g->ops[o].workspace;
      g->ops[o].workspace = 0;
    }
    if (acSimulate(g, p, 0, 0, &b, NULL) == AC_OK)
      higher = a.peakBytes > b.peakBytes;
    for (intptr_t o = 0; o < g->numOps; ++o)
      g->ops[o].workspace = keep[o];
  }
  free(keep);
  acSimResultClear(&a);
  acSimResultClear(&b);
  acPlanDestroy(p);
  return higher;
}

/* Op workspaces (AcOp.workspace, live at the op's step only: forward,
 * backward and recompute steps): the incremental profile carries each
 * step's workspace in both leaf representations (a joining recompute op
 * brings its own), so trajectories stay the reference's and the state the
 * simulation's after every drop.  Not vacuous: the workspaces raise the
 * save-all peak of many graphs. */
AC_TEST(workspaceGraphs) {
  int saved = acGreedyLeafIndexMin;
  for (int indexed = 0; indexed < 2; ++indexed) {
    acGreedyLeafIndexMin = indexed ? 1 : saved;
    Stats st = {0, 0, 0, 0};
    int wsOps = 0, changed = 0;
    for (uint64_t seed = 9000; seed <= 9150 && st.failures < 3; ++seed) {
      AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 3 == 0), 1 + (int)(seed % 3),
                              12 + (int)(seed % 30), 8 + (int)(seed % 20));
      if (!g)
        continue;
      if (seed % 2)
        tkQuantize(g, seed);
      wsOps += tkWorkspaces(g, seed, 40);
      changed += workspaceChangesPeak(g);
      compareGraph(g, seed, &st);
      acGraphDestroy(g);
    }
    printf("  %s: %d trajectories, %d drops, %d ops with a workspace, %d "
           "graphs whose save-all peak they raise\n",
           indexed ? "indexed" : "plain", st.trajectories, st.drops, wsOps,
           changed);
    CHECK(st.failures == 0);
    CHECK(changed >= 40 && st.trajectories >= 400 && st.drops >= 500 &&
          wsOps >= 1000);
  }
  acGreedyLeafIndexMin = saved;
}

/* The budget's last drop (acGreedyPlanForBudget): the reference and the
 * incremental choose the same one at budgets between consecutive peaks of
 * the trajectory (bit-equal seconds), its peak is the simulated one and
 * lies between the trajectory plan's and the budget, and the plan's peak
 * never rises as the budget falls. */
AC_TEST(budgetLastDrop) {
  int budgets = 0, refined = 0, failures = 0;
  for (int dps = 0; dps < 2; ++dps) {
    tkDpsPercent = dps ? 40 : 0;
    for (uint64_t seed = 9000; seed < 9800 && failures < 3; ++seed) {
      AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 3 == 0), 1 + (int)(seed % 3),
                              16 + (int)(seed % 24), 8 + (int)(seed % 16));
      if (!g)
        continue;
      if (seed % 2)
        tkQuantize(g, seed);
      int64_t staticB = acSimStaticBytes(g, 1.0, 0);
      uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
      AcPlan *p = acPlanCreate(g);
      AcTrajectory *full = NULL;
      if (acMincutSaveSet(g, s0, NULL) != AC_OK ||
          acGreedyTrajectoryFrom(g, s0, staticB, &full, NULL) != AC_OK) {
        CHECK(0);
        ++failures;
      }
      int64_t prevPeak = INT64_MAX;
      for (intptr_t k = 1; full && k < full->numPlans; ++k) {
        int64_t hi = full->peakBytes[k - 1], lo = full->peakBytes[k];
        if (hi == lo)
          continue;
        int64_t bs[3] = {hi - 1, lo + (hi - lo) / 2, lo};
        for (int j = 0; j < 3; ++j) {
          int64_t b = bs[j];
          AcTrajectory *r = NULL, *c = NULL;
          CHECK(acGreedyReferenceUntil(g, s0, staticB, b, &r, NULL) == AC_OK);
          CHECK(acGreedyIncrementalUntil(g, s0, staticB, b, 0, &c, NULL) == AC_OK);
          if (!r || !c) {
            ++failures;
            acTrajectoryDestroy(r);
            acTrajectoryDestroy(c);
            continue;
          }
          ++budgets;
          int same = r->refinedDrop == c->refinedDrop &&
                     (r->refinedDrop == AC_NONE ||
                      (r->refinedPeakBytes == c->refinedPeakBytes &&
                       r->refinedRecomputeSeconds == c->refinedRecomputeSeconds));
          CHECK(same);
          if (!same) {
            printf("  seed %d budget %ld: reference drop %d peak %ld, incremental %d peak %ld\n",
                   (int)seed, (long)b, (int)r->refinedDrop, (long)r->refinedPeakBytes,
                   (int)c->refinedDrop, (long)c->refinedPeakBytes);
            ++failures;
          }
          /* The plan for the budget, simulated. */
          CHECK(acGreedyPlanForBudget(g, s0, staticB, b, p, NULL, NULL) == AC_OK);
          AcSimResult sim;
          CHECK(acSimulate(g, p, staticB, 0, &sim, NULL) == AC_OK);
          intptr_t kk = acTrajectoryChoose(c, b);
          CHECK(sim.peakBytes <= b);
          CHECK(sim.peakBytes <= prevPeak);
          prevPeak = sim.peakBytes;
          if (c->refinedDrop != AC_NONE) {
            ++refined;
            CHECK_EQ_I64(sim.peakBytes, c->refinedPeakBytes);
            CHECK(sim.peakBytes >= c->peakBytes[kk]);
            CHECK(c->refinedRecomputeSeconds < c->recomputeSeconds[kk]);
            CHECK(fabs(sim.recomputeSeconds - c->refinedRecomputeSeconds) <=
                  1e-9 * fabs(sim.recomputeSeconds) + 1e-12);
          } else {
            CHECK_EQ_I64(sim.peakBytes, c->peakBytes[kk]);
          }
          acSimResultClear(&sim);
          acTrajectoryDestroy(r);
          acTrajectoryDestroy(c);
        }
      }
      acTrajectoryDestroy(full);
      acPlanDestroy(p);
      free(s0);
      acGraphDestroy(g);
    }
  }
  tkDpsPercent = 0;
  printf("  %d budgets, %d take a cheaper last drop\n", budgets, refined);
  CHECK(failures == 0);
  CHECK(budgets >= 3000 && refined >= 80);
}

/* A chain of `layers` layers as bench/scale_chain.py's (gen_chain.py):
 * forward wt = view(W[i % K]), h = mm(x, wt), x' = relu(h); backward
 * gh = tb(g', x'), g = mm(gh, W), xt = view(x), gw = mm(xt, gh), the
 * gradient of each parameter summed.  Every x is a candidate; with equal
 * sizes and costs, greedy's ties go to the lowest id and it grows one
 * recompute group whose anchor moves to an earlier backward op at every
 * drop (the whole group moves: issue 22's long chains).  `vary`: sizes and
 * seconds drawn per layer instead. */
static AcGraph *chainGraph(uint64_t seed, int layers, int nMicro, int vary) {
  uint64_t rs = seed * 0x9E3779B97F4A7C15ULL + 7;
  int k = 1 + tkRand(&rs, 3);
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "chain");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 64);
  AcId w[3];
  for (int j = 0; j < k; ++j)
    w[j] = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 64);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId *xs = calloc((size_t)layers + 1, sizeof *xs);
  int64_t zero = 0;
  xs[0] = x;
  for (int i = 0; i < layers; ++i) {
    AcId vo = acGraphBuilderAddOp(b, "t", &w[i % k], 1, 1, &zero);
    tkOp(b, vo, AC_KIND_VIEW, 1, 0);
    acGraphBuilderSetAlias(b, tkRes(b, vo), w[i % k]);
    int64_t hb = vary ? 8 * (4 + tkRand(&rs, 8)) : 64;
    int64_t xb = vary ? 8 * (4 + tkRand(&rs, 8)) : 64;
    double sec = vary ? 0.001 * (1 + tkRand(&rs, 4)) : 0.002;
    AcId mm = tkAdd(b, "mm", (AcId[]){xs[i], tkRes(b, vo)}, 2, hb, AC_KIND_MATMUL, 1, sec);
    AcId re = tkAdd(b, "relu", (AcId[]){tkRes(b, mm)}, 1, xb, AC_KIND_ELEMENTWISE, 1, sec / 4);
    xs[i + 1] = tkRes(b, re);
  }
  AcId loss = tkRes(b, tkAdd(b, "sum", &xs[layers], 1, 4, AC_KIND_REDUCTION, 1, 0.001));
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  AcId g = tkRes(b, tkAdd(b, "mul", (AcId[]){dy, xs[layers]}, 2, 64, AC_KIND_ELEMENTWISE, 1, 0.001));
  AcId acc[3] = {AC_NONE, AC_NONE, AC_NONE};
  for (int i = layers - 1; i >= 0; --i) {
    AcId gh = tkRes(b, tkAdd(b, "tb", (AcId[]){g, xs[i + 1]}, 2, 64, AC_KIND_ELEMENTWISE, 1, 0.001));
    g = tkRes(b, tkAdd(b, "mm", (AcId[]){gh, w[i % k]}, 2, 64, AC_KIND_MATMUL, 1, 0.002));
    AcId vo = acGraphBuilderAddOp(b, "t", &xs[i], 1, 1, &zero);
    tkOp(b, vo, AC_KIND_VIEW, 1, 0);
    acGraphBuilderSetAlias(b, tkRes(b, vo), xs[i]);
    AcId gw = tkRes(b, tkAdd(b, "mm", (AcId[]){tkRes(b, vo), gh}, 2, 64, AC_KIND_MATMUL, 1, 0.002));
    acc[i % k] = acc[i % k] == AC_NONE
                     ? gw
                     : tkRes(b, tkAdd(b, "add", (AcId[]){acc[i % k], gw}, 2, 64,
                                      AC_KIND_ELEMENTWISE, 1, 0.001));
  }
  for (int j = 0; j < k; ++j)
    acGraphBuilderAddRet(b, acc[j], AC_RET_GRAD);
  for (int m = 0; nMicro > 1 && m < nMicro; ++m)
    acGraphBuilderAddSched(b, 0, AC_PHASE_FWD, m);
  for (int m = 0; nMicro > 1 && m < nMicro; ++m)
    acGraphBuilderAddSched(b, 0, AC_PHASE_BWD, m);
  AcGraph *out = NULL;
  AcError err;
  if (acGraphBuilderFinish(b, &out, &err) != AC_OK) {
    printf("  chain: %s\n", err.message);
    out = NULL;
  }
  acGraphBuilderDestroy(b);
  free(xs);
  return out;
}

/* The largest recompute group of the last plan of g's min-cut trajectory. */
static int32_t chainLargestGroup(const AcGraph *g, int64_t staticB) {
  AcTrajectory *t = NULL;
  AcPlan *p = acPlanCreate(g);
  AcRecomputeGroups *gr = NULL;
  int32_t largest = -1;
  if (p && acGreedyTrajectory(g, staticB, &t, NULL) == AC_OK &&
      acTrajectoryPlan(g, t, t->numPlans - 1, p, NULL) == AC_OK &&
      acPlanGroups(g, p, &gr, NULL) == AC_OK) {
    largest = 0;
    for (intptr_t i = 0; i < gr->numGroups; ++i)
      if (gr->groups[i].numOps > largest)
        largest = gr->groups[i].numOps;
  }
  acRecomputeGroupsDestroy(gr);
  acTrajectoryDestroy(t);
  acPlanDestroy(p);
  return largest;
}

/* Long chains (issue 22 section 3): the trajectories where each drop moves
 * a whole recompute group of up to about a hundred ops to an earlier anchor,
 * past the leaf-index threshold, are the reference's, from the min-cut set,
 * save-all and a random set, with equal and with varied layers, one or two
 * microbatches, plain and with every leaf indexed; the state is checked
 * against a fresh simulation after every drop. */
AC_TEST(chainGraphs) {
  int saved = acGreedyLeafIndexMin;
  int32_t largest = 0;
  for (int indexed = 0; indexed < 2; ++indexed) {
    acGreedyLeafIndexMin = indexed ? 1 : saved;
    Stats st = {0, 0, 0, 0};
    for (uint64_t seed = 1; seed <= 8 && st.failures < 3; ++seed) {
      int layers = 12 + (int)(seed * 37 % 70), micro = 1 + (int)(seed % 3 == 0);
      AcGraph *g = chainGraph(seed, layers, micro, (int)(seed % 2 == 0));
      CHECK(g != NULL);
      if (!g)
        continue;
      compareGraph(g, seed, &st);
      if (!indexed) {
        int32_t lg = chainLargestGroup(g, acSimStaticBytes(g, 1.0, 0));
        largest = lg > largest ? lg : largest;
      }
      acGraphDestroy(g);
    }
    printf("  %s: %d trajectories, %d drops (%d on plateaus)\n",
           indexed ? "indexed" : "plain", st.trajectories, st.drops, st.plateauDrops);
    CHECK(st.failures == 0 && st.trajectories >= 20 && st.drops >= 300);
  }
  printf("  largest recompute group: %d ops\n", (int)largest);
  /* Past the leaf-index threshold (the start saves a few activations of a
     long recomputed chain back, planner.md "The starting set", so the
     min-cut trajectory's groups are shorter than the chain). */
  CHECK(largest >= saved + saved / 2);
  acGreedyLeafIndexMin = saved;
}

/* The work of a full trajectory on a chain of equal layers, where every
 * candidate ties with every other: lowest-id-first ties dropped the layers
 * in order, each drop moving the whole recompute group built so far
 * (work quadratic in the layers); spread ties (acIdBefore) keep the
 * groups short.  Deterministic units, no clock. */
static intptr_t chainWork(int layers, int32_t *largest) {
  AcGraph *g = chainGraph(3, layers, 1, 0);
  AcPlan *p = g ? acPlanCreate(g) : NULL;
  AcRecomputeGroups *gr = NULL;
  AcTrajectory *t = NULL;
  intptr_t work = -1;
  *largest = -1;
  if (!p)
    goto cleanup;
  int64_t staticB = acSimStaticBytes(g, 1.0, 0);
  acPlanSaveAll(g, p);
  acGreedyWorkOverride = (intptr_t)1 << 40; /* run to the end */
  if (acGreedyIncrementalUntil(g, p->saved, staticB, -1, 0, &t, NULL) == AC_OK)
    work = acGreedyWorkLast;
  acGreedyWorkOverride = 0;
  if (t && acTrajectoryPlan(g, t, t->numPlans - 1, p, NULL) == AC_OK &&
      acPlanGroups(g, p, &gr, NULL) == AC_OK) {
    *largest = 0;
    for (intptr_t i = 0; i < gr->numGroups; ++i)
      if (gr->groups[i].numOps > *largest)
        *largest = gr->groups[i].numOps;
  }
cleanup:
  acRecomputeGroupsDestroy(gr);
  acTrajectoryDestroy(t);
  acPlanDestroy(p);
  acGraphDestroy(g);
  return work;
}

AC_TEST(chainWorkScales) {
  int32_t big1 = 0, big4 = 0;
  intptr_t w1 = chainWork(400, &big1), w4 = chainWork(1600, &big4);
  printf("  work: %ld units at 400 layers, %ld at 1600 (x%.2f); largest "
         "recompute group %d and %d ops\n",
         (long)w1, (long)w4, w1 > 0 ? (double)w4 / (double)w1 : 0.0, (int)big1,
         (int)big4);
  CHECK(w1 > 0 && w4 > 0);
  /* Linear would be x4, n log n about x5; quadratic x16. */
  CHECK(w4 < 7 * w1);
}

/* AcGreedyOptions.keep (the floor search's restarts): a kept value is never
 * dropped, every plan of the trajectory derives and its peak is the one
 * listed; an all-zero keep is the same trajectory as none. */
AC_TEST(keepNeverDropped) {
  int n = 0, kept = 0;
  for (uint64_t seed = 3100; seed < 3130; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 2), 1 + (int)(seed % 3), 25, 15);
    if (!g)
      continue;
    uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
    uint8_t *keep = calloc((size_t)g->numValues + 1, 1);
    AcTrajectory *full = NULL, *none = NULL, *t = NULL;
    AcGreedyOptions o;
    acGreedyOptionsInit(&o);
    if (acMincutSaveSet(g, s0, NULL) == AC_OK &&
        acGreedyTrajectoryFrom(g, s0, 0, &full, NULL) == AC_OK && full->numPlans > 1) {
      ++n;
      o.keep = keep;
      CHECK(acGreedyIncrementalRun(g, s0, &o, NULL, &none, NULL) == AC_OK);
      CHECK(none && acTrajectoryEqual(none, full));
      /* Keep greedy's first drop: the trajectory must go another way. */
      AcId first = full->dropped[1];
      keep[first] = 1;
      CHECK(acGreedyIncrementalRun(g, s0, &o, NULL, &t, NULL) == AC_OK);
      AcPlan *p = acPlanCreate(g);
      for (intptr_t k = 1; t && k < t->numPlans; ++k)
        CHECK(t->dropped[k] != first);
      for (intptr_t k = 0; t && k < t->numPlans; ++k) {
        AcSimResult r;
        CHECK(acTrajectoryPlan(g, t, k, p, NULL) == AC_OK);
        CHECK(p->saved[first]);
        CHECK(acSimulate(g, p, 0, 0, &r, NULL) == AC_OK);
        CHECK_EQ_I64(r.peakBytes, t->peakBytes[k]);
        acSimResultClear(&r);
      }
      kept += t && t->numPlans > 1;
      acPlanDestroy(p);
    }
    acTrajectoryDestroy(full);
    acTrajectoryDestroy(none);
    acTrajectoryDestroy(t);
    free(s0);
    free(keep);
    acGraphDestroy(g);
  }
  printf("  %d graphs, %d with drops besides the kept value\n", n, kept);
  CHECK(n >= 10 && kept >= 5);
}

int main(void) {
  RUN(trajectoryEqual);
  RUN(exactOrder);
  RUN(classify);
  RUN(randomGraphs);
  RUN(quantizedGraphs);
  RUN(prefixes);
  RUN(limits);
  RUN(allocFailures);
  RUN(randomGraphsIndexed);
  RUN(inPlaceGraphs);
  RUN(inPlaceDestGraphs);
  RUN(workspaceGraphs);
  RUN(budgetLastDrop);
  RUN(chainGraphs);
  RUN(chainWorkScales);
  RUN(keepNeverDropped);
  return acTestSummary("greedy_inc");
}
