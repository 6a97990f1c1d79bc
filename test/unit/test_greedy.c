/* test_greedy.c - the greedy trajectory and acPlanRun: a hand-computed
 * trajectory, each step's choice (primary and plateau rule) against a
 * brute-force evaluation with the naive simulator, monotonicity over budget sweeps, feasibility above the
 * lowest peak, never recomputing a banned op, and the knapsack baseline's
 * fraction mapping and choices. */
#include "plan_testkit.h"
#include "partition/partition.h"

#include "plan/greedy_internal.h"
#include "plan/plan_internal.h"

AC_TEST(handTrajectory) {
  AcGraph *g = tkThreeActs();
  CHECK(g != NULL);
  if (!g)
    return;
  uint8_t s0[9] = {0, 0, 1, 1, 1, 0, 0, 0, 0};
  AcTrajectory *t = NULL;
  CHECK(acGreedyTrajectoryFrom(g, s0, 0, &t, NULL) == AC_OK);
  if (!t)
    return;
  CHECK_EQ_I64(t->numPlans, 3);
  CHECK_EQ_I64(t->peakBytes[0], 1130);
  CHECK_EQ_I64(t->peakBytes[1], 930);
  CHECK_EQ_I64(t->peakBytes[2], 840);
  CHECK_EQ_I64(t->dropped[0], AC_NONE);
  CHECK_EQ_I64(t->dropped[1], 4); /* c */
  CHECK_EQ_I64(t->dropped[2], 3); /* b */
  CHECK_NEAR(t->recomputeSeconds[1], 1.0, 1e-12);
  CHECK_NEAR(t->recomputeSeconds[2], 10.0, 1e-12);
  CHECK_EQ_I64(t->savedBytes[0], 600);
  CHECK_EQ_I64(t->savedBytes[2], 100);
  /* Budgets: the first plan that fits, else the last. */
  CHECK_EQ_I64(acTrajectoryChoose(t, -1), 0);
  CHECK_EQ_I64(acTrajectoryChoose(t, 2000), 0);
  CHECK_EQ_I64(acTrajectoryChoose(t, 1130), 0);
  CHECK_EQ_I64(acTrajectoryChoose(t, 1129), 1);
  CHECK_EQ_I64(acTrajectoryChoose(t, 900), 2);
  CHECK_EQ_I64(acTrajectoryChoose(t, 500), 2);
  AcPlan *p = acPlanCreate(g);
  CHECK(acTrajectoryPlan(g, t, 1, p, NULL) == AC_OK);
  CHECK(p->saved[2] && p->saved[3] && !p->saved[4] && p->recompute[2]);
  CHECK(acTrajectoryPlan(g, t, 3, p, NULL) == AC_ERR_INVALID);
  /* The reference gives the same trajectory. */
  AcTrajectory *r = NULL;
  CHECK(acGreedyTrajectoryReference(g, s0, 0, &r, NULL) == AC_OK);
  CHECK(r && r->numPlans == 3 && r->dropped[1] == 4 && r->dropped[2] == 3);
  acTrajectoryDestroy(r);
  acTrajectoryDestroy(t);
  acTrajectoryDestroy(NULL);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* Knapsack from S0 = {a, b, c} on the same graph: min-cut peak 1130, saved
 * 600, so "everything else" is 530 and fraction = (B - 530) / 600.
 *   B = 930: 0.667 -> 400 B: keep a + b (100 + 300 B, 10 s) drop c -> 930
 *   B = 700: 0.283 -> 170 B: keep a (1 s) -> {a}, true peak 840 > 700
 *   B = 400: 0 -> drop all -> {}, true peak 840
 *   B = 5000 or none: 1 -> keep all -> 1130 */
AC_TEST(knapsack) {
  CHECK_NEAR(acKnapsackFraction(930, 1130, 600), 400.0 / 600.0, 1e-12);
  CHECK(acKnapsackFraction(400, 1130, 600) == 0.0);
  CHECK(acKnapsackFraction(5000, 1130, 600) == 1.0);
  CHECK(acKnapsackFraction(-1, 1130, 600) == 1.0);
  CHECK(acKnapsackFraction(100, 1130, 0) == 1.0);
  AcGraph *g = tkThreeActs();
  uint8_t s0[9] = {0, 0, 1, 1, 1, 0, 0, 0, 0};
  AcPlan *p = acPlanCreate(g);
  AcSimResult r;
  double frac = -1;
  struct { int64_t budget; uint8_t a, b, c; int64_t peak; } cases[] = {
      {930, 1, 1, 0, 930}, {700, 1, 0, 0, 840}, {400, 0, 0, 0, 840},
      {5000, 1, 1, 1, 1130}, {-1, 1, 1, 1, 1130}};
  for (int i = 0; i < 5; ++i) {
    CHECK(acKnapsackFrom(g, s0, &(AcSearchOptions){cases[i].budget, 0, 0}, p, &frac, NULL) == AC_OK);
    CHECK(p->saved[2] == cases[i].a && p->saved[3] == cases[i].b &&
          p->saved[4] == cases[i].c);
    CHECK(acSimulate(g, p, 0, 0, &r, NULL) == AC_OK);
    CHECK_EQ_I64(r.peakBytes, cases[i].peak);
    acSimResultClear(&r);
  }
  CHECK_NEAR(frac, 1.0, 0);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* acPlanRun on the same graph: min-cut saves {a, b, c} (compute-intensive,
 * so min-cut never reruns them), so greedy follows the hand trajectory above
 * and knapsack the hand cases. */
AC_TEST(planRun) {
  AcGraph *g = tkThreeActs();
  AcPlan *p = acPlanCreate(g);
  AcSimResult r;
  struct { AcStrategy s; int64_t budget; uint8_t a, b, c; int64_t peak; } cases[] = {
      {AC_STRATEGY_MINCUT, -1, 1, 1, 1, 1130},
      {AC_STRATEGY_MINCUT, 10, 1, 1, 1, 1130},
      {AC_STRATEGY_SAVE_ALL, 10, 1, 1, 1, 1130},
      {AC_STRATEGY_GREEDY, -1, 1, 1, 1, 1130},
      {AC_STRATEGY_GREEDY, 1130, 1, 1, 1, 1130},
      {AC_STRATEGY_GREEDY, 1000, 1, 1, 0, 930},
      {AC_STRATEGY_GREEDY, 900, 1, 0, 0, 840},
      {AC_STRATEGY_GREEDY, 0, 1, 0, 0, 840},
      {AC_STRATEGY_KNAPSACK, 930, 1, 1, 0, 930},
      {AC_STRATEGY_KNAPSACK, 400, 0, 0, 0, 840},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    AcPlanOptions o = {cases[i].s, cases[i].budget, 0, 0, 0};
    CHECK(acPlanRun(g, &o, p, NULL) == AC_OK);
    CHECK(p->saved[2] == cases[i].a && p->saved[3] == cases[i].b &&
          p->saved[4] == cases[i].c);
    CHECK(acSimulate(g, p, 0, 0, &r, NULL) == AC_OK);
    CHECK_EQ_I64(r.peakBytes, cases[i].peak);
    acSimResultClear(&r);
  }
  AcTrajectory *t = NULL;
  CHECK(acGreedyTrajectory(g, 0, &t, NULL) == AC_OK);
  CHECK(t && t->numPlans == 3 && t->peakBytes[2] == 840);
  acTrajectoryDestroy(t);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* Brute force of one greedy step with the naive simulator: the best
 * (extra seconds per byte of fall) over all droppable saves. */
static int droppableNaive(const AcGraph *g, const uint8_t *saved, AcId v) {
  const AcValue *val = &g->values[v];
  if (!saved[v] || val->role != AC_ROLE_RESULT || val->aliasRoot != v)
    return 0;
  AcPlan *p = acPlanCreate(g);
  memcpy(p->saved, saved, (size_t)g->numValues);
  p->saved[v] = 0;
  /* Make v needed by pretending a backward reader: derive with only v's
     producer's closure: walk it here by repeated passes. */
  uint8_t *need = calloc((size_t)g->numOps, 1);
  need[val->producer] = 1;
  int ok = 1, changed = 1;
  while (changed) {
    changed = 0;
    for (AcId o = (AcId)g->numOps - 1; o >= 0; --o) {
      if (!need[o])
        continue;
      if (!g->ops[o].recomputable || g->ops[o].mustSave)
        ok = 0;
      for (int32_t i = 0; i < g->ops[o].numOperands; ++i) {
        AcId u = acOpOperand(g, o, i);
        if (g->values[u].role == AC_ROLE_RESULT && !p->saved[u] &&
            !need[g->values[u].producer]) {
          need[g->values[u].producer] = 1;
          changed = 1;
        }
      }
    }
  }
  free(need);
  acPlanDestroy(p);
  return ok;
}

static AcProfileTop naiveTop(const TkNaive *nv) {
  return acProfileTopOf(nv->live, nv->numSteps);
}

static void checkTrajectorySteps(const AcGraph *g, const AcTrajectory *t,
                                 int64_t staticB) {
  int32_t inst[8] = {0};
  for (intptr_t s = 0; s < g->numSched; ++s)
    if (g->sched[s].phase == AC_PHASE_BWD)
      inst[g->sched[s].func]++;
  AcPlan *cur = acPlanCreate(g), *trial = acPlanCreate(g);
  double seconds = 0;
  for (intptr_t k = 0; k < t->numPlans; ++k) {
    CHECK(acTrajectoryPlan(g, t, k, cur, NULL) == AC_OK);
    TkNaive nv;
    CHECK(tkNaiveSimulate(g, cur, staticB, &nv));
    CHECK_EQ_I64(nv.peak, t->peakBytes[k]);
    CHECK_NEAR(nv.recomputeSeconds, t->recomputeSeconds[k], 1e-9);
    for (AcId o = 0; o < g->numOps; ++o)
      if (cur->recompute[o])
        CHECK(g->ops[o].recomputable && !g->ops[o].mustSave);
    if (k > 0)
      CHECK(t->peakBytes[k] <= t->peakBytes[k - 1]);
    /* The brute-force best next drop: the best primary one (the peak
       falls), else the best secondary one (the peak stays, fewer steps
       reach it or the second level falls), by extra seconds per byte of
       fall, then the larger fall, then the lower id. */
    AcProfileTop top = naiveTop(&nv);
    AcId best[3] = {AC_NONE, AC_NONE, AC_NONE};
    double bestExtra[3] = {0, 0, 0};
    int64_t bestFall[3] = {0, 0, 0};
    double nextExtra = 0;
    for (AcId v = 0; v < g->numValues; ++v) {
      if (!droppableNaive(g, cur->saved, v))
        continue;
      memcpy(trial->saved, cur->saved, (size_t)g->numValues);
      trial->saved[v] = 0;
      CHECK(acPlanDerive(g, trial, NULL) == AC_OK);
      double extra = 0;
      for (AcId o = 0; o < g->numOps; ++o)
        if (trial->recompute[o] && !cur->recompute[o])
          extra += g->ops[o].seconds * inst[g->ops[o].func];
      TkNaive tv;
      CHECK(tkNaiveSimulate(g, trial, staticB, &tv));
      int64_t fall;
      int cls = acDropClassify(top, naiveTop(&tv), &fall);
      if (cls == AC_DROP_NONE)
        continue;
      if (best[cls] == AC_NONE ||
          acDropBefore(extra, fall, v, bestExtra[cls], bestFall[cls], best[cls])) {
        best[cls] = v;
        bestExtra[cls] = extra;
        bestFall[cls] = fall;
      }
    }
    int cls = best[AC_DROP_PRIMARY] != AC_NONE ? AC_DROP_PRIMARY : AC_DROP_SECONDARY;
    nextExtra = bestExtra[cls];
    if (k == 0)
      seconds = nv.recomputeSeconds;
    if (k + 1 < t->numPlans) {
      if (t->dropped[k + 1] != best[cls])
        printf("  step %d: greedy dropped %d, brute force %d\n", (int)k,
               (int)t->dropped[k + 1], (int)best[cls]);
      CHECK_EQ_I64(t->dropped[k + 1], best[cls]);
      /* Recompute seconds accumulate the extra seconds of each drop. */
      seconds += nextExtra;
      CHECK(t->recomputeSeconds[k + 1] == seconds);
    } else {
      /* The end: no drop lowers the peak (plateau drops after the last
         fall are trimmed). */
      CHECK_EQ_I64(best[AC_DROP_PRIMARY], AC_NONE);
    }
  }
  acPlanDestroy(cur);
  acPlanDestroy(trial);
}

/* Random graphs: trajectories from the min-cut set and from save-all
 * checked step by step against the brute force. */
AC_TEST(randomTrajectories) {
  int n = 0, steps = 0;
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 3 == 0),
                            1 + (int)(seed % 5 == 0), 30, 20);
    if (!g)
      continue;
    int64_t staticB = acSimStaticBytes(g, 2.0, 0);
    AcPlan *p = acPlanCreate(g);
    uint8_t *s0 = calloc((size_t)g->numValues, 1);
    AcError err;
    for (int from = 0; from < 2; ++from) {
      AcStatus st;
      if (from == 0) {
        st = acMincutSaveSet(g, s0, &err);
      } else {
        acPlanSaveAll(g, p);
        memcpy(s0, p->saved, (size_t)g->numValues);
        st = AC_OK;
      }
      CHECK(st == AC_OK);
      if (st != AC_OK) {
        printf("  seed %d: %s\n", (int)seed, err.message);
        continue;
      }
      AcTrajectory *t = NULL;
      st = acGreedyTrajectoryFrom(g, s0, staticB, &t, &err);
      CHECK(st == AC_OK);
      if (st != AC_OK) {
        printf("  seed %d from %d: %s\n", (int)seed, from, err.message);
        continue;
      }
      checkTrajectorySteps(g, t, staticB);
      steps += (int)t->numPlans - 1;
      ++n;
      acTrajectoryDestroy(t);
    }
    free(s0);
    acPlanDestroy(p);
    acGraphDestroy(g);
  }
  printf("  %d trajectories, %d drops checked\n", n, steps);
  CHECK(n >= 200 && steps > 100);
}

/* Quantized sizes and costs make equal levels and ratio ties common: the
 * plateau rule and the tie-breaks against the brute force. */
AC_TEST(plateauTrajectories) {
  int n = 0, plateau = 0;
  for (uint64_t seed = 300; seed <= 460; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 3 == 0),
                            1 + (int)(seed % 4 == 0), 24, 16);
    if (!g)
      continue;
    tkQuantize(g, seed);
    int64_t staticB = acSimStaticBytes(g, 1.0, 0);
    AcPlan *p = acPlanCreate(g);
    acPlanSaveAll(g, p);
    AcTrajectory *t = NULL;
    CHECK(acGreedyTrajectoryFrom(g, p->saved, staticB, &t, NULL) == AC_OK);
    if (t) {
      checkTrajectorySteps(g, t, staticB);
      for (intptr_t k = 1; k < t->numPlans; ++k)
        plateau += t->peakBytes[k] == t->peakBytes[k - 1];
      ++n;
    }
    acTrajectoryDestroy(t);
    acPlanDestroy(p);
    acGraphDestroy(g);
  }
  printf("  %d trajectories, %d plateau drops checked\n", n, plateau);
  CHECK(n >= 150 && plateau >= 5);
}

/* acPlanRun over 50 budgets: the peak never rises as the budget falls, fits
 * whenever the budget is at least the lowest peak, equals the trajectory's
 * choice, and no banned op is recomputed.  No budget gives min-cut. */
AC_TEST(monotoneSweep) {
  int graphs = 0, refined = 0;
  for (uint64_t seed = 500; seed < 560; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 2), 1 + (int)(seed % 3 == 0),
                            14, 10);
    if (!g)
      continue;
    int64_t staticB = acSimStaticBytes(g, 1.0, 64);
    AcTrajectory *t = NULL;
    AcError err;
    AcStatus st = acGreedyTrajectory(g, staticB, &t, &err);
    CHECK(st == AC_OK);
    if (st != AC_OK) {
      printf("  seed %d: %s\n", (int)seed, err.message);
      acGraphDestroy(g);
      continue;
    }
    ++graphs;
    int64_t lo = t->peakBytes[t->numPlans - 1], hi = t->peakBytes[0];
    AcPlan *p = acPlanCreate(g), *mc = acPlanCreate(g);
    AcPlanOptions o = {AC_STRATEGY_GREEDY, -1, staticB, 0, 0};
    AcPlanOptions om = {AC_STRATEGY_MINCUT, -1, staticB, 0, 0};
    CHECK(acPlanRun(g, &o, p, NULL) == AC_OK);
    CHECK(acPlanRun(g, &om, mc, NULL) == AC_OK);
    {
      /* No budget: the starting set (acPlanStartSet), whose peak is at most
         the min cut's. */
      uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
      CHECK(acPlanStartSet(g, staticB, s0, NULL) == AC_OK);
      CHECK(memcmp(p->saved, s0, (size_t)g->numValues) == 0);
      free(s0);
    }
    int64_t prev = INT64_MAX;
    for (int i = 0; i < 50; ++i) {
      /* From above the min-cut peak down to below the lowest peak. */
      int64_t budget = hi + 100 - (int64_t)((double)(hi - lo + 200) * i / 49);
      o.budget = budget;
      AcSimResult r;
      CHECK(acPlanRun(g, &o, p, NULL) == AC_OK);
      CHECK(acSimulate(g, p, staticB, 0, &r, NULL) == AC_OK);
      CHECK(r.peakBytes <= prev);
      prev = r.peakBytes;
      if (budget >= lo)
        CHECK(r.peakBytes <= budget);
      else
        CHECK_EQ_I64(r.peakBytes, lo);
      /* The trajectory's plan, or its last drop replaced by a cheaper one
         whose peak lies between the trajectory plan's and the budget. */
      intptr_t k = acTrajectoryChoose(t, budget);
      CHECK(r.peakBytes >= t->peakBytes[k]);
      CHECK(r.recomputeSeconds <= t->recomputeSeconds[k] * (1 + 1e-9) + 1e-15);
      if (r.peakBytes != t->peakBytes[k]) {
        CHECK(budget >= lo && k > 0);
        CHECK(r.recomputeSeconds < t->recomputeSeconds[k]);
        ++refined;
      }
      for (AcId op = 0; op < g->numOps; ++op)
        if (p->recompute[op])
          CHECK(g->ops[op].recomputable && !g->ops[op].mustSave &&
                g->ops[op].kind != AC_KIND_RANDOM);
      acSimResultClear(&r);
      /* Knapsack and the baselines run at every budget too. */
      AcPlanOptions ok = {AC_STRATEGY_KNAPSACK, budget, staticB, 0, 0};
      CHECK(acPlanRun(g, &ok, mc, NULL) == AC_OK);
    }
    acPlanDestroy(p);
    acPlanDestroy(mc);
    acTrajectoryDestroy(t);
    acGraphDestroy(g);
  }
  printf("  %d graphs, %d of the budgets take a cheaper last drop\n", graphs,
         refined);
  CHECK(graphs >= 50);
  CHECK(refined >= 5); /* the rule is exercised (more in test_greedy_inc) */
}

/* The knapsack drops only what its fraction asks for: with no budget, and at
 * any budget at or above the min-cut peak (fraction 1), its plan is the
 * min-cut plan, although its DP rounds weights up (random sizes rarely fill
 * whole buckets). */
AC_TEST(knapsackFullFraction) {
  int graphs = 0, withCandidates = 0;
  for (uint64_t seed = 900; seed < 960; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 2), 1, 14, 10);
    if (!g)
      continue;
    ++graphs;
    /* Sizes that are not whole buckets (about 1/1000 of the saved bytes). */
    for (intptr_t v = 0; v < g->numValues; ++v)
      if (g->values[v].bytes > 0)
        g->values[v].bytes = g->values[v].bytes * 37 + 1 + v % 7;
    AcPlan *mc = acPlanCreate(g), *k = acPlanCreate(g);
    AcPlanOptions om = {AC_STRATEGY_MINCUT, -1, 0, 0, 0};
    AcSimResult r;
    CHECK(acPlanRun(g, &om, mc, NULL) == AC_OK);
    CHECK(acSimulate(g, mc, 0, 0, &r, NULL) == AC_OK);
    withCandidates += acPlanDroppableCount(g, mc->saved) > 1;
    int64_t budgets[] = {-1, r.peakBytes, r.peakBytes + 1, 2 * r.peakBytes};
    for (int i = 0; i < 4; ++i) {
      AcPlanOptions ok = {AC_STRATEGY_KNAPSACK, budgets[i], 0, 0, 0};
      CHECK(acPlanRun(g, &ok, k, NULL) == AC_OK);
      CHECK(memcmp(k->saved, mc->saved, (size_t)g->numValues) == 0);
      CHECK(memcmp(k->recompute, mc->recompute, (size_t)g->numOps) == 0);
    }
    acSimResultClear(&r);
    acPlanDestroy(mc);
    acPlanDestroy(k);
    acGraphDestroy(g);
  }
  printf("  %d graphs, %d with several droppable saves\n", graphs, withCandidates);
  CHECK(graphs >= 50 && withCandidates >= 20);
}

AC_TEST(allocFailures) {
  AcGraph *g = tkGenGraph(42, 1, 1, 10, 6);
  uint8_t *s0 = calloc((size_t)g->numValues, 1);
  AcPlan *p = acPlanCreate(g);
  acPlanSaveAll(g, p);
  memcpy(s0, p->saved, (size_t)g->numValues);
  int sawOk = 0;
  for (int64_t n = 1; n < 5000 && !sawOk; ++n) {
    AcTrajectory *t = NULL;
    acAllocFailAfter(n);
    AcStatus st = acGreedyTrajectoryFrom(g, s0, 0, &t, NULL);
    if (st == AC_OK)
      st = acKnapsackFrom(g, s0, &(AcSearchOptions){0, 0, 0}, p, NULL, NULL);
    acAllocFailAfter(0);
    CHECK(st == AC_OK || st == AC_ERR_NOMEM);
    sawOk = st == AC_OK;
    acTrajectoryDestroy(t);
  }
  CHECK(sawOk);
  free(s0);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

static int64_t peakOf(const AcGraph *g, AcPlan *p, int64_t staticB) {
  AcSimResult r;
  memset(&r, 0, sizeof r);
  if (acPlanDerive(g, p, NULL) != AC_OK || acSimulate(g, p, staticB, 0, &r, NULL) != AC_OK)
    return -1;
  int64_t peak = r.peakBytes;
  acSimResultClear(&r);
  return peak;
}

/* The searches start from a set never worse than save-all or the min cut
 * (issue 14 item 1): with no budget every search's peak is at most
 * min(save-all, min-cut), and every budget either of them meets is met, on
 * random graphs (destination-style ops included). */
AC_TEST(startNeverWorse) {
  static const AcStrategy searches[] = {AC_STRATEGY_GREEDY, AC_STRATEGY_BEAM,
                                        AC_STRATEGY_ILP};
  int graphs = 0, belowMincut = 0, saveAllWins = 0;
  for (int dps = 0; dps <= 40; dps += 40) {
    tkDpsPercent = dps;
    for (uint64_t seed = 900; seed < 1000; ++seed) {
      AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 2), 1 + (int)(seed % 3 == 0),
                              14, 10);
      if (!g)
        continue;
      ++graphs;
      int64_t staticB = acSimStaticBytes(g, 1.0, 16);
      AcPlan *p = acPlanCreate(g);
      acPlanSaveAll(g, p);
      int64_t saveAll = peakOf(g, p, staticB);
      CHECK(acMincutSaveSet(g, p->saved, NULL) == AC_OK);
      int64_t mincut = peakOf(g, p, staticB);
      CHECK(saveAll > 0 && mincut > 0);
      int64_t best = saveAll < mincut ? saveAll : mincut;
      CHECK(acPlanStartSet(g, staticB, p->saved, NULL) == AC_OK);
      int64_t start = peakOf(g, p, staticB);
      CHECK(start > 0 && start <= best);
      /* Every save of the start is read by the backward. */
      intptr_t unread = -1;
      CHECK(acPlanDropUnread(g, p->saved, &unread, NULL) == AC_OK);
      CHECK(unread == 0);
      belowMincut += start < mincut;
      saveAllWins += saveAll < mincut;
      for (size_t s = 0; s < sizeof searches / sizeof searches[0]; ++s) {
        int64_t budgets[3] = {-1, saveAll, mincut};
        for (int k = 0; k < 3; ++k) {
          AcPlanOptions o = {searches[s], budgets[k], staticB, 0, 0};
          CHECK(acPlanRun(g, &o, p, NULL) == AC_OK);
          int64_t peak = peakOf(g, p, staticB);
          if (k == 0)
            CHECK(peak <= best);
          else
            CHECK(peak <= budgets[k]);
        }
      }
      acPlanDestroy(p);
      acGraphDestroy(g);
    }
  }
  tkDpsPercent = 0;
  printf("  %d graphs; the start is below the min cut on %d, save-all below the "
         "min cut on %d\n", graphs, belowMincut, saveAllWins);
  CHECK(graphs >= 150 && belowMincut > 0);
}

/* Returns `out` as the forward output and `grad` as the gradient, finishes
 * the builder (destroyed) and returns the graph (NULL after a failed CHECK). */
static AcGraph *finishOutGrad(AcGraphBuilder *b, AcId out, AcId grad) {
  acGraphBuilderAddRet(b, out, AC_RET_OUTPUT);
  acGraphBuilderAddRet(b, grad, AC_RET_GRAD);
  AcGraph *g = NULL;
  CHECK(acGraphBuilderFinish(b, &g, NULL) == AC_OK);
  acGraphBuilderDestroy(b);
  return g;
}

/* The case the issue found: a forward output the backward also reads.  The
 * min cut recomputes it from the saved operand (a transient at the peak);
 * it is live until the end anyway, so the start saves it back: no
 * recompute, and a peak no higher than save-all's.
 *   x, w ─ mm ─ h (saved: compute-intensive) ─ gelu ─ y (ac.output)
 *   dy ─ mul(dy, y) ─ g ─ mul(g, h) ─ gh (grad) */
AC_TEST(startSavesReturnedOutput) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "f");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 1000);
  AcId w = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 1000);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 1000);
  AcId mm = tkAdd(b, "mm", (AcId[]){x, w}, 2, 1000, AC_KIND_MATMUL, 1, 1e-3);
  acGraphBuilderOp(b, mm)->computeIntensive = 1;
  AcId h = tkRes(b, mm);
  AcId y = tkRes(b, tkAdd(b, "gelu", &h, 1, 1000, AC_KIND_ELEMENTWISE, 1, 1e-6));
  AcId g1 = tkRes(b, tkAdd(b, "mul", (AcId[]){dy, y}, 2, 1000, AC_KIND_ELEMENTWISE, 1, 1e-6));
  AcId gh = tkRes(b, tkAdd(b, "mul", (AcId[]){g1, h}, 2, 1000, AC_KIND_ELEMENTWISE, 1, 1e-6));
  AcGraph *g = finishOutGrad(b, y, gh);
  if (!g)
    return;
  AcPlan *p = acPlanCreate(g);
  CHECK(acMincutSaveSet(g, p->saved, NULL) == AC_OK);
  int64_t mincut = peakOf(g, p, 0);
  int mincutRecomputesY = p->recompute[g->values[y].producer];
  acPlanSaveAll(g, p);
  int64_t saveAll = peakOf(g, p, 0);
  CHECK(acPlanStartSet(g, 0, p->saved, NULL) == AC_OK);
  int64_t start = peakOf(g, p, 0);
  printf("  min cut %lld (recomputes y: %d), save-all %lld, start %lld\n",
         (long long)mincut, mincutRecomputesY, (long long)saveAll, (long long)start);
  CHECK(p->saved[y] && !p->recompute[g->values[y].producer]);
  CHECK(start <= saveAll && start <= mincut);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* A chain of cheap ops that the min cut recomputes whole (docs/planner.md,
 * "The starting set", step 2): every recomputed activation is live again
 * at the first backward op, so the min cut's peak ties save-all's and the
 * peak is at a backward op, not at a recompute step.  The start saves
 * activations back where that splits the chain: its peak is at most the
 * best single save-back's (brute force over every one) and below
 * save-all's; the optimum over every subset (brute force) bounds it below.
 *   x ─ gelu ─ h1 ─ gelu ─ h2 ... ─ hL (ac.output)
 *   dy ─ mul(dy, h(L-1)) ─ g(L-1) ─ mul(., h(L-2)) ... ─ g0 (grad) */
AC_TEST(startSplitsRecomputedChain) {
  enum { L = 10 };
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "f");
  AcId h[L + 1];
  h[0] = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 1000);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 1000);
  for (int i = 1; i <= L; ++i)
    h[i] = tkRes(b, tkAdd(b, "gelu", &h[i - 1], 1, 1000, AC_KIND_ELEMENTWISE, 1, 1e-6));
  AcId gr = dy;
  for (int i = L - 1; i >= 0; --i)
    gr = tkRes(b, tkAdd(b, "mul", (AcId[]){gr, h[i]}, 2, 1000, AC_KIND_ELEMENTWISE, 1, 1e-6));
  AcGraph *g = finishOutGrad(b, h[L], gr);
  if (!g)
    return;
  AcPlan *p = acPlanCreate(g);
  acPlanSaveAll(g, p);
  int64_t saveAll = peakOf(g, p, 0);
  CHECK(acMincutSaveSet(g, p->saved, NULL) == AC_OK);
  int64_t mincut = peakOf(g, p, 0);
  uint8_t *base = malloc((size_t)g->numValues + 1);
  memcpy(base, p->saved, (size_t)g->numValues);
  /* Brute force over the inner activations h1..h(L-1) saved back. */
  int64_t bestOne = mincut, best = mincut;
  for (unsigned mask = 1; mask < (1u << (L - 1)); ++mask) {
    memcpy(p->saved, base, (size_t)g->numValues);
    for (int i = 1; i < L; ++i)
      if (mask & (1u << (i - 1)))
        p->saved[h[i]] = 1;
    int64_t pk = peakOf(g, p, 0);
    if (pk > 0 && pk < best)
      best = pk;
    if (pk > 0 && (mask & (mask - 1)) == 0 && pk < bestOne)
      bestOne = pk;
  }
  CHECK(acPlanStartSet(g, 0, p->saved, NULL) == AC_OK);
  int64_t start = peakOf(g, p, 0);
  printf("  save-all %lld, min cut %lld, start %lld, best one save %lld, best %lld\n",
         (long long)saveAll, (long long)mincut, (long long)start, (long long)bestOne,
         (long long)best);
  CHECK(mincut == saveAll);             /* the case: nothing to drop from */
  CHECK(start > 0 && start <= bestOne && start < saveAll && start >= best);
  free(base);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* A replayable generator's seed is not kept beside the mask it makes: when
 * the start saves the mask back (its rerun sits at the backward's peak), the
 * seed, which only the rerun read, is no longer saved. */
AC_TEST(startDropsUnreadSeed) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "f");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 1000);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 1000);
  AcId seed = tkRes(b, tkAdd(b, "randint", NULL, 0, 8, AC_KIND_RANDOM, 0, 1e-9));
  AcId m = tkRes(b, tkAdd(b, "autoac.rng.bernoulli", &seed, 1, 1000,
                          AC_KIND_RNG_REPLAY, 1, 1e-6));
  AcId y = tkRes(b, tkAdd(b, "mul", (AcId[]){x, m}, 2, 1000, AC_KIND_ELEMENTWISE, 1, 1e-6));
  AcId gx = tkRes(b, tkAdd(b, "mul", (AcId[]){dy, m}, 2, 1000, AC_KIND_ELEMENTWISE, 1, 1e-6));
  AcGraph *g = finishOutGrad(b, y, gx);
  if (!g)
    return;
  AcPlan *p = acPlanCreate(g);
  CHECK(acMincutSaveSet(g, p->saved, NULL) == AC_OK);
  CHECK(p->saved[seed] && !p->saved[m]); /* min cut: 8 bytes, not 1000 */
  int64_t mincut = peakOf(g, p, 0);
  CHECK(acPlanStartSet(g, 0, p->saved, NULL) == AC_OK);
  int64_t start = peakOf(g, p, 0);
  printf("  min cut %lld, start %lld (mask saved %d, seed saved %d)\n",
         (long long)mincut, (long long)start, p->saved[m], p->saved[seed]);
  CHECK(start <= mincut);
  CHECK(p->saved[m] != p->saved[seed]); /* one or the other, never both */
  /* The rule by hand: with both saved, the seed is unread and dropped. */
  memset(p->saved, 0, (size_t)g->numValues);
  p->saved[seed] = p->saved[m] = 1;
  intptr_t dropped = 0;
  CHECK(acPlanDropUnread(g, p->saved, &dropped, NULL) == AC_OK);
  CHECK(dropped == 1 && p->saved[m] && !p->saved[seed]);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* The default strategy's floor (issue 14 item 2): greedy with its floor
 * search meets every budget beam or the ILP meets (within their bounds),
 * its peak never rises as the budget falls, and below everything it returns
 * the lowest peak any of them found. */
/* Beam as acPlanRun runs it; the ILP with the floor search's node limit
 * (the default limit searches harder than the floor search does). */
static AcStatus runSearch(const AcGraph *g, const AcPlanOptions *o, AcPlan *p) {
  if (o->strategy == AC_STRATEGY_BEAM)
    return acPlanRun(g, o, p, NULL);
  uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
  AcStatus st = acPlanStartSet(g, o->staticBytes, s0, NULL);
  AcIlpOptions io = {{o->budget, o->staticBytes, 0}, 0, 0, AC_FLOOR_ILP_NODES};
  if (st == AC_OK)
    st = acIlpFrom(g, s0, &io, p, NULL, NULL);
  free(s0);
  return st;
}

/* Seed `i` of `n`: base, base + 1, ..., then the two (found by a wider run)
 * where beam or the ILP goes below greedy's lowest peak, so that the floor
 * search's rescue itself is exercised. */
static uint64_t floorSeed(int i, int n, uint64_t base) {
  return i < n - 2 ? base + (uint64_t)i : i == n - 2 ? 114 : 9038;
}

AC_TEST(floorSearchMeetsWhatAnySearchMeets) {
  int graphs = 0, rescued = 0;
  for (int si = 0; si < 22; ++si) {
    uint64_t seed = floorSeed(si, 22, 7000);
    AcGraph *g = tkGenGraph(seed, 1, 1, 30, 20);
    if (!g)
      continue;
    ++graphs;
    int64_t staticB = acSimStaticBytes(g, 1.0, 16);
    AcPlan *p = acPlanCreate(g);
    AcTrajectory *t = NULL;
    CHECK(acGreedyTrajectory(g, staticB, &t, NULL) == AC_OK);
    int64_t lo = t->peakBytes[t->numPlans - 1], hi = t->peakBytes[0];
    acTrajectoryDestroy(t);
    int64_t prev = INT64_MAX, lowestAny = INT64_MAX;
    /* The beam's and the ILP's lowest peaks, where greedy alone may fail. */
    int64_t extra[2];
    for (int k = 0; k < 2; ++k) {
      AcPlanOptions so = {k ? AC_STRATEGY_ILP : AC_STRATEGY_BEAM, 0, staticB, 0, 0};
      CHECK(runSearch(g, &so, p) == AC_OK);
      extra[k] = peakOf(g, p, staticB);
    }
    int64_t budgets[16];
    for (int i = 0; i < 12; ++i)
      budgets[i] = hi + 50 - (int64_t)((double)(hi - lo + 400) * i / 11);
    budgets[12] = extra[0] > extra[1] ? extra[0] : extra[1];
    budgets[13] = extra[0] < extra[1] ? extra[0] : extra[1];
    budgets[14] = budgets[13] - 1;
    budgets[15] = 0;
    /* Descending order, for the monotonicity check. */
    for (int i = 0; i < 16; ++i)
      for (int j = i + 1; j < 16; ++j)
        if (budgets[j] > budgets[i]) {
          int64_t tmp = budgets[i];
          budgets[i] = budgets[j];
          budgets[j] = tmp;
        }
    for (int i = 0; i < 16; ++i) {
      int64_t budget = budgets[i];
      AcPlanOptions o = {AC_STRATEGY_GREEDY, budget, staticB, 1, 0};
      AcSearchStats s;
      CHECK(acPlanRunStats(g, &o, p, &s, NULL) == AC_OK);
      int64_t peak = peakOf(g, p, staticB);
      CHECK(peak <= prev);
      prev = peak;
      int meetsAny = 0;
      for (int k = 0; k < 2; ++k) {
        AcPlanOptions so = {k ? AC_STRATEGY_ILP : AC_STRATEGY_BEAM, budget, staticB, 0, 0};
        AcPlan *q = acPlanCreate(g);
        CHECK(runSearch(g, &so, q) == AC_OK);
        int64_t qp = peakOf(g, q, staticB);
        meetsAny |= qp <= budget;
        if (qp < lowestAny)
          lowestAny = qp;
        acPlanDestroy(q);
      }
      if (meetsAny)
        CHECK(peak <= budget);
      if (peak <= budget && budget < lo)
        ++rescued;
      if (s.floorSearched)
        CHECK(peak > budget || s.foundBy != AC_STRATEGY_GREEDY || peak <= lo);
    }
    /* Below everything: the lowest peak found by any search.  (The default
       ILP searches harder than the floor search's; it may go lower.) */
    CHECK(prev <= lo);
    acPlanDestroy(p);
    acGraphDestroy(g);
  }
  printf("  %d graphs; %d budgets below greedy's lowest peak met by the floor "
         "search\n", graphs, rescued);
  CHECK(graphs >= 20 && rescued >= 2);
}

/* The floor search's restarts (acFloorRestarts) on random graphs: from
 * greedy's floor plan they never raise the peak, say they changed the plan
 * exactly when its peak fell, return a derived plan that recomputes only
 * what may be rerun, and are deterministic; on some graphs they go below
 * greedy's floor (the GPT-shaped graphs of docs/bench.md, where greedy
 * stops at a floor balanced over several layers). */
AC_TEST(floorRestarts) {
  int graphs = 0, lowered = 0;
  for (int si = 0; si < 30; ++si) {
    AcGraph *g = tkGenGraph(floorSeed(si, 30, 7300), 1 + si % 2, 1, 40, 20);
    if (!g)
      continue;
    ++graphs;
    int64_t staticB = acSimStaticBytes(g, 1.0, 16);
    AcTrajectory *t = NULL;
    AcPlan *p = acPlanCreate(g), *q = acPlanCreate(g);
    CHECK(acGreedyTrajectory(g, staticB, &t, NULL) == AC_OK);
    CHECK(acTrajectoryPlan(g, t, t->numPlans - 1, p, NULL) == AC_OK);
    int64_t lo = t->peakBytes[t->numPlans - 1];
    acPlanCopy(q, p);
    AcPlanOptions o = {AC_STRATEGY_GREEDY, 0, staticB, 1, 0};
    int changed = -1, limited = -1, changed2 = -1;
    CHECK(acFloorRestarts(g, &o, 0, p, &changed, &limited, NULL) == AC_OK);
    CHECK(acFloorRestarts(g, &o, 0, q, &changed2, &limited, NULL) == AC_OK);
    CHECK(limited == 0 && changed == changed2);
    CHECK(!memcmp(p->saved, q->saved, (size_t)g->numValues));
    int64_t peak = peakOf(g, p, staticB);
    CHECK(peak >= 0 && peak <= lo);
    CHECK(changed == (peak < lo));
    lowered += peak < lo;
    for (AcId op = 0; op < g->numOps; ++op)
      if (p->recompute[op])
        CHECK(g->ops[op].recomputable && !g->ops[op].mustSave &&
              g->ops[op].kind != AC_KIND_RANDOM);
    /* A deadline in the past: nothing changes, and it says so. */
    CHECK(acTrajectoryPlan(g, t, t->numPlans - 1, q, NULL) == AC_OK);
    CHECK(acFloorRestarts(g, &o, 1e-9, q, &changed2, &limited, NULL) == AC_OK);
    CHECK(peakOf(g, q, staticB) == lo && (changed2 == 0 || limited == 1));
    acTrajectoryDestroy(t);
    acPlanDestroy(p);
    acPlanDestroy(q);
    acGraphDestroy(g);
  }
  printf("  %d graphs; restarts lowered greedy's floor on %d\n", graphs, lowered);
  CHECK(graphs >= 25 && lowered >= 1);
}

/* The canonical text of v's tree `d` producers deep (acPlanSignatures's
 * definition, written out): signatures must be equal exactly when these
 * are.  Appends to buf (cap bytes). */
static void sigText(const AcGraph *g, AcId v, int d, char *buf, size_t cap) {
  const AcValue *val = &g->values[v];
  size_t n = strlen(buf);
  if (d < 0) {
    snprintf(buf + n, cap - n, "leaf(%lld)", (long long)val->logicalBytes);
    return;
  }
  if (val->producer == AC_NONE) {
    snprintf(buf + n, cap - n, "arg(%d,%lld)", val->role,
             (long long)val->logicalBytes);
    return;
  }
  const AcOp *op = &g->ops[val->producer];
  snprintf(buf + n, cap - n, "%s/%d#%d:%lld", op->name, op->numOperands,
           val->index, (long long)val->logicalBytes);
  strncat(buf, "[", cap - strlen(buf) - 1);
  for (int32_t i = 0; i < op->numOperands; ++i) {
    sigText(g, acOpOperand(g, val->producer, i), d - 1, buf, cap);
    strncat(buf, ",", cap - strlen(buf) - 1);
  }
  strncat(buf, "]", cap - strlen(buf) - 1);
}

/* Signatures against their written-out definition on random graphs: two
 * values have equal signatures exactly when their trees' texts are equal,
 * and a second run gives the same signatures. */
AC_TEST(signaturesMatchTrees) {
  int graphs = 0, classes = 0;
  enum { CAP = 1 << 16 };
  for (int si = 0; si < 12; ++si) {
    AcGraph *g = tkGenGraph(floorSeed(si, 12, 9100), 1 + si % 2, 1, 30, 15);
    if (!g)
      continue;
    ++graphs;
    intptr_t nv = g->numValues;
    uint64_t *a = calloc((size_t)nv + 1, sizeof *a);
    uint64_t *b = calloc((size_t)nv + 1, sizeof *b);
    char **text = calloc((size_t)nv + 1, sizeof *text);
    CHECK(acPlanSignatures(g, a, NULL) == AC_OK);
    CHECK(acPlanSignatures(g, b, NULL) == AC_OK);
    CHECK(!memcmp(a, b, (size_t)nv * sizeof *a));
    for (AcId v = 0; v < (AcId)nv; ++v) {
      text[v] = calloc(CAP, 1);
      sigText(g, v, AC_PLAN_SIG_DEPTH - 1, text[v], CAP);
      CHECK(strlen(text[v]) < CAP - 1);
    }
    for (AcId v = 0; v < (AcId)nv; ++v)
      for (AcId w = v + 1; w < (AcId)nv; ++w) {
        int same = !strcmp(text[v], text[w]);
        CHECK(same == (a[v] == a[w]));
        classes += same && g->values[v].producer != AC_NONE;
      }
    for (AcId v = 0; v < (AcId)nv; ++v)
      free(text[v]);
    free(text);
    free(a);
    free(b);
    acGraphDestroy(g);
  }
  printf("  %d graphs, %d pairs of results alike\n", graphs, classes);
  CHECK(graphs >= 10 && classes > 0);
}

/* A stack of `layers` equal layers, each mm (saved: compute-intensive)
 * then `chain` cheap ops of `bytes[k]` each, the layer's output the last;
 * the backward reads every activation in reverse, so the min cut
 * recomputes each layer's chain from its mm. */
static AcGraph *layeredGraph(int layers, int chain, const int64_t *bytes) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "stack");
  AcId h = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, bytes[chain - 1]);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, bytes[chain - 1]);
  AcId acts[64], w[16];
  int na = 0;
  for (int l = 0; l < layers; ++l) /* arguments come before ops */
    w[l] = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 64);
  for (int l = 0; l < layers; ++l) {
    AcId mm = tkAdd(b, "mm", (AcId[]){h, w[l]}, 2, bytes[0], AC_KIND_MATMUL, 1, 1e-3);
    acGraphBuilderOp(b, mm)->computeIntensive = 1;
    h = tkRes(b, mm);
    acts[na++] = h;
    for (int k = 1; k < chain; ++k) {
      h = tkRes(b, tkAdd(b, "gelu", &h, 1, bytes[k], AC_KIND_ELEMENTWISE, 1, 1e-6));
      acts[na++] = h;
    }
  }
  AcId gr = dy;
  for (int i = na - 1; i >= 0; --i)
    gr = tkRes(b, tkAdd(b, "mul", (AcId[]){gr, acts[i]}, 2, bytes[chain - 1],
                        AC_KIND_ELEMENTWISE, 1, 1e-6));
  return finishOutGrad(b, h, gr);
}

/* The lowest peak over every save set of g's savable values (at most 20),
 * by simulating each. */
static int64_t bruteForceFloor(const AcGraph *g, int64_t staticB) {
  AcId cand[20];
  int n = 0;
  for (AcId v = 0; v < (AcId)g->numValues; ++v)
    if (acPlanSavable(g, v)) {
      CHECK(n < 20);
      if (n < 20)
        cand[n++] = v;
    }
  AcPlan *p = acPlanCreate(g);
  int64_t best = INT64_MAX;
  for (uint32_t mask = 0; mask < (1u << n); ++mask) {
    memset(p->saved, 0, (size_t)g->numValues);
    for (int i = 0; i < n; ++i)
      p->saved[cand[i]] = (mask >> i) & 1;
    int64_t pk = peakOf(g, p, staticB);
    if (pk >= 0 && pk < best)
      best = pk;
  }
  acPlanDestroy(p);
  return best;
}

/* Greedy's floor from the starting set (*lo), then the restarts from its
 * plan: their floor's peak into *peak, *changed and *limited as they say. */
static void restartsFromGreedy(const AcGraph *g, int64_t staticB, int64_t *lo,
                               int64_t *peak, int *changed, int *limited) {
  uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
  CHECK(acPlanStartSet(g, staticB, s0, NULL) == AC_OK);
  AcTrajectory *t = NULL;
  CHECK(acGreedyTrajectoryFrom(g, s0, staticB, &t, NULL) == AC_OK);
  AcPlan *p = acPlanCreate(g);
  CHECK(acTrajectoryPlan(g, t, t->numPlans - 1, p, NULL) == AC_OK);
  *lo = t->peakBytes[t->numPlans - 1];
  AcPlanOptions o = {AC_STRATEGY_GREEDY, 0, staticB, 1, 0};
  *changed = *limited = 0;
  CHECK(acFloorRestarts(g, &o, 0, p, changed, limited, NULL) == AC_OK);
  *peak = peakOf(g, p, staticB);
  acTrajectoryDestroy(t);
  acPlanDestroy(p);
  free(s0);
}

/* The same value of every layer has one signature, other values others;
 * and on layered graphs (random layer shapes) the restarts' class moves
 * reach below greedy's floor where single saves back do not: the floor
 * balanced over the layers (docs/planner.md, "Restarts").  The restarts
 * are never above greedy's floor and never below the brute-force optimum
 * over every subset of the start's saves. */
AC_TEST(restartClassMoves) {
  int graphs = 0, lowered = 0, optimal = 0;
  uint64_t rng = 0x5eed1234u;
  for (int gi = 0; gi < 8; ++gi) {
    int layers = 3 + (gi / 2) % 2, chain = 3 + gi % 2;
    int64_t bytes[8];
    for (int k = 0; k < chain; ++k) {
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      bytes[k] = 1000 * (1 + (int64_t)((rng >> 33) % 8));
    }
    AcGraph *g = layeredGraph(layers, chain, bytes);
    if (!g)
      continue;
    ++graphs;
    uint64_t *sig = calloc((size_t)g->numValues + 1, sizeof *sig);
    CHECK(acPlanSignatures(g, sig, NULL) == AC_OK);
    /* Layers 2.. read alike inputs 4 producers back: each activation of
       layer l has the signature of the same one of layer l - 1, and none
       of another position. */
    for (AcId v = 0; v < (AcId)g->numValues; ++v)
      for (AcId w = 0; w < (AcId)g->numValues; ++w) {
        const AcValue *x = &g->values[v], *y = &g->values[w];
        if (x->producer == AC_NONE || y->producer == AC_NONE ||
            x->phase != AC_PHASE_FWD || y->phase != AC_PHASE_FWD ||
            x->producer < 2 * chain - 1 || y->producer < 2 * chain - 1)
          continue;
        int sameSpot = (x->producer - y->producer) % chain == 0;
        CHECK(sameSpot == (sig[v] == sig[w]));
      }
    free(sig);
    int64_t staticB = acSimStaticBytes(g, 1.0, 16), lo, peak;
    int changed, limited;
    restartsFromGreedy(g, staticB, &lo, &peak, &changed, &limited);
    int64_t best = bruteForceFloor(g, staticB);
    CHECK(peak <= lo && peak >= best && changed == (peak < lo));
    lowered += peak < lo;
    optimal += peak == best;
    printf("  %d layers x %d: greedy %lld, restarts %lld, optimum %lld\n",
           layers, chain, (long long)lo, (long long)peak, (long long)best);
    acGraphDestroy(g);
  }
  printf("  restarts below greedy's floor on %d of %d, at the optimum on %d\n",
         lowered, graphs, optimal);
  CHECK(graphs == 8 && lowered >= 2);
}

/* Checkmate's published test graph, gen_linear_graph(n) (parasj/checkmate,
 * checkmate/core/graph_builder.py): forward node i an mm of node i - 1 (node
 * 0 of the input) and a parameter, backward node n + k an mm of node
 * n + k - 1 (node n of the tangent) and forward node n - k; every node of
 * unit cost and `bytes`. */
static AcGraph *checkmateLinear(int n, int64_t bytes) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "linear");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, bytes);
  AcId w[32], f[32];
  for (int i = 0; i < n; ++i)
    w[i] = acGraphBuilderAddArg(b, AC_ROLE_PARAM, bytes);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, bytes);
  for (int i = 0; i < n; ++i) {
    AcId mm = tkAdd(b, "mm", (AcId[]){i ? f[i - 1] : x, w[i]}, 2, bytes,
                    AC_KIND_MATMUL, 1, 1e-3);
    acGraphBuilderOp(b, mm)->computeIntensive = 1;
    f[i] = tkRes(b, mm);
  }
  AcId gr = tkRes(b, tkAdd(b, "mm", (AcId[]){dy, f[n - 1]}, 2, bytes,
                           AC_KIND_MATMUL, 1, 1e-3));
  for (int k = 1; k <= n; ++k)
    gr = tkRes(b, tkAdd(b, "mm", (AcId[]){gr, f[n - k]}, 2, bytes,
                        AC_KIND_MATMUL, 1, 1e-3));
  return finishOutGrad(b, f[n - 1], gr);
}

/* On Checkmate's linear graphs the optimal save sets space their
 * checkpoints unevenly (closer toward the output, where the backward
 * still holds the others), which greedy's drops, one at a time from the
 * min cut, miss; the restarts' swaps move a checkpoint at a time.  The
 * whole floor search (acPlanRun at an unreachable budget: greedy, beam,
 * restarts) reaches the brute-force optimum over every save set on every
 * length tried; the restarts alone, from greedy's floor, on 3 of the 5
 * lengths where greedy stops above it (on none without the swaps; at 25,
 * test/lit/tools/optgap-checkmate.test, only they reach it). */
AC_TEST(restartSwapsCheckmateLinear) {
  int above = 0, reached = 0;
  for (int n = 10; n <= 18; ++n) {
    AcGraph *g = checkmateLinear(n, 4096);
    if (!g)
      continue;
    int64_t staticB = acSimStaticBytes(g, 1.0, 16), lo, peak;
    int64_t best = bruteForceFloor(g, staticB);
    int changed, limited;
    restartsFromGreedy(g, staticB, &lo, &peak, &changed, &limited);
    AcPlanOptions o = {AC_STRATEGY_GREEDY, 0, staticB, 1, 0};
    CHECK(peak >= best && peak <= lo && !limited);
    above += lo > best;
    reached += lo > best && peak == best;
    AcPlan *q = acPlanCreate(g);
    AcSearchStats st;
    CHECK(acPlanRunStats(g, &o, q, &st, NULL) == AC_OK);
    int64_t run = peakOf(g, q, staticB);
    printf("  n %d: optimum %lld, greedy %lld, restarts %lld, floor search %lld\n",
           n, (long long)best, (long long)lo, (long long)peak, (long long)run);
    CHECK(run == best);
    acPlanDestroy(q);
    acGraphDestroy(g);
  }
  printf("  greedy above the optimum on %d lengths, the restarts reach it on %d\n",
         above, reached);
  CHECK(above >= 2 && reached >= 3);
}

/* The floor-only beam (the floor search's on graphs where the full beam is
 * not cheap, issue 21 item 4) on random graphs: within its simulation
 * limit (the floor search's, and a tight one of 3 expansions), its front's
 * plans simulate to the peaks and seconds it lists, its lowest peak is
 * never above greedy's lowest (greedy's trajectory is in its archive), and
 * the plan it gives for a budget never peaks higher as the budget falls. */
AC_TEST(floorOnlyBeamBounded) {
  int graphs = 0, below = 0, cut = 0;
  for (int si = 0; si < 24; ++si) {
    AcGraph *g = tkGenGraph(floorSeed(si, 24, 8100), 1 + si % 2, 1 + si % 3,
                            40, 30);
    if (!g)
      continue;
    int64_t staticB = acSimStaticBytes(g, 1.0, 16);
    uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
    CHECK(acPlanStartSet(g, staticB, s0, NULL) == AC_OK);
    intptr_t d = acPlanDroppableCount(g, s0);
    AcTrajectory *t = NULL;
    CHECK(acGreedyTrajectoryFrom(g, s0, staticB, &t, NULL) == AC_OK);
    int64_t lo = t ? t->peakBytes[t->numPlans - 1] : 0;
    intptr_t nplans = t ? t->numPlans : 0;
    acTrajectoryDestroy(t);
    ++graphs;
    AcPlan *p = acPlanCreate(g);
    for (int tight = 0; tight < 2; ++tight) {
      AcBeamOptions run = {{-1, staticB, 0}, AC_FLOOR_BEAM_WIDTH, 1,
                           tight ? 3 * (d + 1) : acBeamFloorSimulations(g, d)};
      AcBeamFront *f = NULL;
      CHECK(acBeamSearchRun(g, s0, &run, &f, NULL) == AC_OK);
      if (!f)
        continue;
      /* (the start and greedy's plans join the archive first) */
      CHECK(f->simulations <= run.maxSimulations ||
            f->simulations <= nplans + 1);
      cut += f->limited;
      CHECK(f->peakBytes[f->numPlans - 1] <= lo);
      below += !tight && f->peakBytes[f->numPlans - 1] < lo;
      int64_t prev = INT64_MAX;
      for (intptr_t k = 0; k < f->numPlans; ++k) {
        CHECK(acBeamPlan(g, f, k, p, NULL) == AC_OK);
        CHECK_EQ_I64(peakOf(g, p, staticB), f->peakBytes[k]);
        int64_t b = f->peakBytes[k] - 1;
        int64_t chosen = f->peakBytes[acBeamChoose(f, b)];
        CHECK(chosen <= prev);
        prev = chosen;
      }
      acBeamFrontDestroy(f);
    }
    acPlanDestroy(p);
    free(s0);
    acGraphDestroy(g);
  }
  printf("  %d graphs; floor-only beam below greedy's lowest on %d; %d runs "
         "stopped by the limit\n", graphs, below, cut);
  CHECK(graphs >= 20 && below >= 1 && cut >= 1);
}

/* Two simulations are the same, timelines included. */
static int sameSim(const AcSimResult *a, const AcSimResult *b) {
  if (a->peakBytes != b->peakBytes || a->staticBytes != b->staticBytes ||
      a->peakStep != b->peakStep || a->peakOp != b->peakOp ||
      a->peakKind != b->peakKind || a->peakSched != b->peakSched ||
      a->recomputeFlops != b->recomputeFlops ||
      a->recomputeSeconds != b->recomputeSeconds ||
      a->savedBytes != b->savedBytes || a->numSteps != b->numSteps ||
      !a->steps != !b->steps || !a->live != !b->live)
    return 0;
  return (!a->steps || !memcmp(a->steps, b->steps,
                               (size_t)a->numSteps * sizeof *a->steps)) &&
         (!a->live || !memcmp(a->live, b->live,
                              (size_t)a->numSteps * sizeof *a->live));
}

/* The simulations the planners hand over instead of making them again
 * (acPlanStartSetSim to the greedy, acPlanRunSim to the pass) are those of
 * the set and plan they return, and the plans are acPlanRunStats' own: every
 * strategy, with and without a budget (one below every reach, where the
 * floor search may return beam's or the ILP's plan), with and without the
 * timeline, on random graphs; and acGraphGradBytes counts the same without
 * memory for its scratch. */
AC_TEST(handedSimulationsAreFresh) {
  int graphs = 0, fromStart = 0, rescued = 0;
  for (int si = 0; si < 8; ++si) {
    /* The last two as floorSearchMeetsWhatAnySearchMeets builds them. */
    int odd = si < 6 && si % 2;
    tkDpsPercent = odd ? 40 : 0;
    AcGraph *g = tkGenGraph(floorSeed(si, 8, 7100), 1 + odd, 1, 30, 20);
    if (!g)
      continue;
    ++graphs;
    int64_t grads = acGraphGradBytes(g);
    acAllocFailAfter(1);
    CHECK_EQ_I64(acGraphGradBytes(g), grads);
    acAllocFailAfter(0);
    int64_t staticB = acSimStaticBytes(g, 1.0, 16);
    uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
    uint8_t *s1 = calloc((size_t)g->numValues + 1, 1);
    AcSimResult handed, fresh;
    memset(&fresh, 0, sizeof fresh);
    CHECK(acPlanStartSet(g, staticB, s0, NULL) == AC_OK);
    CHECK(acPlanStartSetSim(g, staticB, s1, &handed, NULL) == AC_OK);
    CHECK(!memcmp(s0, s1, (size_t)g->numValues));
    AcPlan *p = acPlanCreate(g), *q = acPlanCreate(g);
    CHECK(acPlanFromSaved(g, s1, p, NULL) == AC_OK);
    CHECK(acSimulate(g, p, staticB, 0, &fresh, NULL) == AC_OK);
    CHECK(handed.peakBytes >= 0 && sameSim(&handed, &fresh));
    int64_t hi = fresh.peakBytes;
    acSimResultClear(&fresh);
    int64_t budgets[4] = {-1, hi, hi - (hi - staticB) / 3, 0};
    for (int s = 0; s < AC_STRATEGY_COUNT; ++s)
      for (int k = 0; k < 4; ++k) {
        /* Beam's and the ILP's plans under a budget are simulated where
           any other is (slow searches, and nothing new). */
        if ((s == AC_STRATEGY_BEAM || s == AC_STRATEGY_ILP) && k > 1)
          continue;
        AcPlanOptions o = {(AcStrategy)s, budgets[k], staticB,
                           s == AC_STRATEGY_GREEDY, 0};
        AcSearchStats a, b;
        CHECK(acPlanRunStats(g, &o, p, &a, NULL) == AC_OK);
        for (int tl = 0; tl < 2; ++tl) {
          CHECK(acPlanRunSim(g, &o, q, &b, tl, &handed, NULL) == AC_OK);
          CHECK(!memcmp(p->saved, q->saved, (size_t)g->numValues));
          CHECK(!memcmp(p->recompute, q->recompute, (size_t)g->numOps));
          CHECK(a.foundBy == b.foundBy && a.floorSearched == b.floorSearched);
          CHECK(acSimulate(g, q, staticB, tl, &fresh, NULL) == AC_OK);
          CHECK(sameSim(&handed, &fresh));
          fromStart += !memcmp(q->saved, s0, (size_t)g->numValues);
          rescued += s == AC_STRATEGY_GREEDY &&
                     b.foundBy != AC_STRATEGY_GREEDY;
          acSimResultClear(&handed);
          acSimResultClear(&fresh);
        }
      }
    acPlanDestroy(p);
    acPlanDestroy(q);
    free(s0);
    free(s1);
    acGraphDestroy(g);
  }
  tkDpsPercent = 0;
  printf("  %d graphs, %d runs returning the start's set, %d beam's or the "
         "ILP's plan\n", graphs, fromStart, rescued);
  CHECK(graphs >= 6 && fromStart > 0 && rescued > 0);
}

int main(void) {
  RUN(handTrajectory);
  RUN(floorSearchMeetsWhatAnySearchMeets);
  RUN(floorOnlyBeamBounded);
  RUN(floorRestarts);
  RUN(signaturesMatchTrees);
  RUN(restartClassMoves);
  RUN(restartSwapsCheckmateLinear);
  RUN(startNeverWorse);
  RUN(handedSimulationsAreFresh);
  RUN(startSavesReturnedOutput);
  RUN(startSplitsRecomputedChain);
  RUN(startDropsUnreadSeed);
  RUN(knapsack);
  RUN(planRun);
  RUN(randomTrajectories);
  RUN(plateauTrajectories);
  RUN(monotoneSweep);
  RUN(knapsackFullFraction);
  RUN(allocFailures);
  return acTestSummary("greedy");
}
