/* test_beam.c - the beam planner (strategy beam): the front's shape and
 * that its plans simulate to what it says, monotonicity over 50 budgets on
 * random graphs, never costlier than greedy, a hand graph, determinism and
 * allocation failures. */
#include "plan_testkit.h"
#include "partition/partition.h"

/* Greedy's hand graph (tkThreeActs, its space of 8 plans by hand).  Front:
 * {} 1130/0, {c} 930/1, {b,c} 840/10. */
AC_TEST(handFront) {
  AcGraph *g = tkThreeActs();
  if (!g)
    return;
  uint8_t s0[9] = {0, 0, 1, 1, 1, 0, 0, 0, 0};
  AcBeamFront *f = NULL;
  CHECK(acBeamSearch(g, s0, 0, 0, &f, NULL) == AC_OK);
  if (!f)
    return;
  CHECK_EQ_I64(f->numPlans, 3);
  int64_t peaks[3] = {1130, 930, 840};
  double secs[3] = {0, 1, 10};
  for (intptr_t k = 0; k < f->numPlans && k < 3; ++k) {
    CHECK_EQ_I64(f->peakBytes[k], peaks[k]);
    CHECK_NEAR(f->recomputeSeconds[k], secs[k], 1e-12);
  }
  CHECK_EQ_I64(f->dropBegin[1] - f->dropBegin[0], 0);
  CHECK_EQ_I64(f->dropBegin[2] - f->dropBegin[1], 1);
  CHECK_EQ_I64(f->dropped[f->dropBegin[1]], 4); /* c */
  CHECK_EQ_I64(acBeamChoose(f, -1), 0);
  CHECK_EQ_I64(acBeamChoose(f, 5000), 0);
  CHECK_EQ_I64(acBeamChoose(f, 1129), 1);
  CHECK_EQ_I64(acBeamChoose(f, 900), 2);
  CHECK_EQ_I64(acBeamChoose(f, 10), 2);
  AcPlan *p = acPlanCreate(g);
  CHECK(acBeamPlan(g, f, 2, p, NULL) == AC_OK);
  CHECK(p->saved[2] && !p->saved[3] && !p->saved[4]);
  CHECK(acBeamPlan(g, f, 3, p, NULL) == AC_ERR_INVALID);
  /* acPlanRun: no budget gives min-cut ({a, b, c}: compute-intensive). */
  AcPlanOptions o = {AC_STRATEGY_BEAM, -1, 0, 0, 0};
  CHECK(acPlanRun(g, &o, p, NULL) == AC_OK);
  CHECK(p->saved[2] && p->saved[3] && p->saved[4]);
  o.budget = 1000;
  CHECK(acPlanRun(g, &o, p, NULL) == AC_OK);
  CHECK(p->saved[2] && p->saved[3] && !p->saved[4]);
  acPlanDestroy(p);
  acBeamFrontDestroy(f);
  acBeamFrontDestroy(NULL);
  acGraphDestroy(g);
}

/* The front on random graphs (min-cut and save-all starts): seconds
 * ascending with peaks strictly decreasing, each plan in the space and
 * simulating to its numbers, the same front again for the same input, and
 * never costlier than greedy where greedy fits, nor a higher lowest peak. */
AC_TEST(randomFronts) {
  int fronts = 0, plans = 0, better = 0;
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 3 == 0),
                            1 + (int)(seed % 5 == 0), 30, 20);
    if (!g)
      continue;
    int64_t staticB = acSimStaticBytes(g, 1.0, 0);
    uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
    AcPlan *p = acPlanCreate(g);
    if (seed % 2) {
      acPlanSaveAll(g, p);
      memcpy(s0, p->saved, (size_t)g->numValues);
    } else {
      CHECK(acMincutSaveSet(g, s0, NULL) == AC_OK);
    }
    AcBeamFront *f = NULL, *f2 = NULL;
    AcTrajectory *t = NULL;
    AcError err;
    AcStatus st = acBeamSearch(g, s0, staticB, (int32_t)(seed % 4) * 4, &f,
                               &err);
    CHECK(st == AC_OK);
    if (st != AC_OK) {
      printf("  seed %d: %s\n", (int)seed, err.message);
      goto next;
    }
    ++fronts;
    CHECK(acBeamSearch(g, s0, staticB, (int32_t)(seed % 4) * 4, &f2, NULL) ==
          AC_OK);
    CHECK(f2 && f2->numPlans == f->numPlans &&
          memcmp(f2->peakBytes, f->peakBytes,
                 (size_t)f->numPlans * sizeof *f->peakBytes) == 0 &&
          memcmp(f2->dropped, f->dropped,
                 (size_t)f->dropBegin[f->numPlans] * sizeof *f->dropped) == 0);
    CHECK(acGreedyTrajectoryFrom(g, s0, staticB, &t, NULL) == AC_OK);
    for (intptr_t k = 0; k < f->numPlans; ++k) {
      if (k > 0) {
        CHECK(f->recomputeSeconds[k] >= f->recomputeSeconds[k - 1]);
        CHECK(f->peakBytes[k] < f->peakBytes[k - 1]);
      }
      CHECK(acBeamPlan(g, f, k, p, NULL) == AC_OK);
      for (AcId v = 0; v < g->numValues; ++v)
        CHECK(!p->saved[v] || s0[v]); /* only drops */
      TkNaive nv;
      CHECK(tkNaiveSimulate(g, p, staticB, &nv));
      CHECK_EQ_I64(nv.peak, f->peakBytes[k]);
      CHECK_NEAR(nv.recomputeSeconds, f->recomputeSeconds[k], 1e-9);
      ++plans;
    }
    CHECK(f->peakBytes[f->numPlans - 1] <= t->peakBytes[t->numPlans - 1]);
    for (intptr_t k = 0; k < t->numPlans; ++k) {
      intptr_t b = acBeamChoose(f, t->peakBytes[k]);
      CHECK(f->peakBytes[b] <= t->peakBytes[k]);
      CHECK(f->recomputeSeconds[b] <= t->recomputeSeconds[k] * (1 + 1e-12));
      better += f->recomputeSeconds[b] < t->recomputeSeconds[k] * (1 - 1e-9);
    }
  next:
    acTrajectoryDestroy(t);
    acBeamFrontDestroy(f);
    acBeamFrontDestroy(f2);
    acPlanDestroy(p);
    free(s0);
    acGraphDestroy(g);
  }
  printf("  %d fronts, %d plans; cheaper than greedy at %d of greedy's "
         "peaks\n",
         fronts, plans, better);
  CHECK(fronts >= 100 && better > 0);
}

/* acPlanRun over 50 budgets on random graphs: the peak never rises as the
 * budget falls, fits whenever the budget is at least the lowest peak of
 * the front, is the front's choice, and no banned op is recomputed. */
AC_TEST(monotoneSweep) {
  int graphs = 0;
  for (uint64_t seed = 500; seed < 560; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 2), 1 + (int)(seed % 3 == 0),
                            14, 10);
    if (!g)
      continue;
    int64_t staticB = acSimStaticBytes(g, 1.0, 64);
    uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
    /* The searches start from acPlanStartSet (the improved min cut). */
    CHECK(acPlanStartSet(g, staticB, s0, NULL) == AC_OK);
    AcBeamFront *f = NULL;
    AcStatus st = acBeamSearch(g, s0, staticB, 0, &f, NULL);
    CHECK(st == AC_OK);
    if (st != AC_OK) {
      free(s0);
      acGraphDestroy(g);
      continue;
    }
    ++graphs;
    int64_t lo = f->peakBytes[f->numPlans - 1], hi = f->peakBytes[0];
    AcPlan *p = acPlanCreate(g), *mc = acPlanCreate(g);
    AcPlanOptions o = {AC_STRATEGY_BEAM, -1, staticB, 0, 0};
    AcPlanOptions om = {AC_STRATEGY_MINCUT, -1, staticB, 0, 0};
    CHECK(acPlanRun(g, &o, p, NULL) == AC_OK);
    CHECK(acPlanRun(g, &om, mc, NULL) == AC_OK);
    CHECK(memcmp(p->saved, s0, (size_t)g->numValues) == 0);
    int64_t prev = INT64_MAX;
    for (int i = 0; i < 50; ++i) {
      int64_t budget = hi + 100 - (int64_t)((double)(hi - lo + 200) * i / 49);
      o.budget = budget;
      AcSimResult r;
      CHECK(acPlanRun(g, &o, p, NULL) == AC_OK);
      CHECK(acSimulate(g, p, staticB, 0, &r, NULL) == AC_OK);
      CHECK(r.peakBytes <= prev);
      prev = r.peakBytes;
      if (budget >= lo) {
        CHECK(r.peakBytes <= budget);
        CHECK_EQ_I64(r.peakBytes, f->peakBytes[acBeamChoose(f, budget)]);
      } else {
        /* Below beam's floor: the default strategy's floor when lower
           (greedy's floor search, its restarts included). */
        CHECK(r.peakBytes <= lo);
      }
      for (AcId op = 0; op < g->numOps; ++op)
        if (p->recompute[op])
          CHECK(g->ops[op].recomputable && !g->ops[op].mustSave &&
                g->ops[op].kind != AC_KIND_RANDOM);
      acSimResultClear(&r);
    }
    acPlanDestroy(p);
    acPlanDestroy(mc);
    acBeamFrontDestroy(f);
    free(s0);
    acGraphDestroy(g);
  }
  CHECK(graphs >= 50);
}

AC_TEST(allocFailures) {
  AcGraph *g = tkGenGraph(42, 1, 1, 12, 8);
  uint8_t *s0 = calloc((size_t)g->numValues, 1);
  AcPlan *p = acPlanCreate(g);
  acPlanSaveAll(g, p);
  memcpy(s0, p->saved, (size_t)g->numValues);
  int sawOk = 0;
  for (int64_t n = 1; n < 50000 && !sawOk; ++n) {
    AcBeamFront *f = NULL;
    acAllocFailAfter(n);
    AcStatus st = acBeamSearch(g, s0, 0, 2, &f, NULL);
    acAllocFailAfter(0);
    CHECK(st == AC_OK || st == AC_ERR_NOMEM);
    CHECK((st == AC_OK) == (f != NULL));
    sawOk = st == AC_OK;
    acBeamFrontDestroy(f);
  }
  CHECK(sawOk);
  free(s0);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

int main(void) {
  RUN(handFront);
  RUN(randomFronts);
  RUN(monotoneSweep);
  RUN(allocFailures);
  return acTestSummary("beam");
}
