/* test_ilp.c - the exact planner (strategy ilp): its memory model against
 * the simulator on random plans, its optimum against a brute force over
 * every plan of the space on random small graphs, hand graphs, acPlanRun,
 * the limits and allocation failures. */
#include "plan_testkit.h"
#include "partition/partition.h"

#include <math.h>

/* The droppable values of `saved`, found independently of the library: a
 * saved storage root made by a forward op that may be rerun, whose closure
 * through unsaved values holds only such ops. */
static int naiveDroppable(const AcGraph *g, const uint8_t *saved, AcId v) {
  const AcValue *val = &g->values[v];
  if (!saved[v] || val->role != AC_ROLE_RESULT || val->aliasRoot != v)
    return 0;
  uint8_t *need = calloc((size_t)g->numOps + 1, 1);
  need[val->producer] = 1;
  int ok = 1, changed = 1;
  while (changed) {
    changed = 0;
    for (AcId o = (AcId)g->numOps - 1; o >= 0; --o) {
      if (!need[o])
        continue;
      if (g->ops[o].phase != AC_PHASE_FWD || !g->ops[o].recomputable ||
          g->ops[o].mustSave)
        ok = 0;
      for (int32_t i = 0; i < g->ops[o].numOperands; ++i) {
        AcId u = acOpOperand(g, o, i);
        if (g->values[u].role == AC_ROLE_RESULT && !saved[u] &&
            !need[g->values[u].producer]) {
          need[g->values[u].producer] = 1;
          changed = 1;
        }
      }
    }
  }
  free(need);
  return ok;
}

static int droppableList(const AcGraph *g, const uint8_t *s0, AcId *vars,
                         int cap) {
  int n = 0;
  for (AcId v = 0; v < g->numValues; ++v)
    if (naiveDroppable(g, s0, v)) {
      if (n < cap)
        vars[n] = v;
      ++n;
    }
  return n;
}

/* S0 minus the values of `vars` selected by the bits of `mask`. */
static void planOf(const AcGraph *g, const uint8_t *s0, const AcId *vars,
                   int n, uint64_t mask, AcPlan *p) {
  memcpy(p->saved, s0, (size_t)g->numValues);
  for (int k = 0; k < n; ++k)
    if (mask >> k & 1)
      p->saved[vars[k]] = 0;
}

/* A starting set: min-cut for even seeds, save-all (more to drop) for odd. */
static int startSet(const AcGraph *g, uint64_t seed, uint8_t *s0) {
  if (seed % 2 == 0)
    return acMincutSaveSet(g, s0, NULL) == AC_OK;
  AcPlan *p = acPlanCreate(g);
  acPlanSaveAll(g, p);
  memcpy(s0, p->saved, (size_t)g->numValues);
  acPlanDestroy(p);
  return 1;
}

/* The model equals the simulated live bytes at forward steps and bounds
 * them from below at backward op steps, for random plans of the space.
 * With destination-style ops (`dps` percent of them), a forward step whose
 * op may write in place is below the simulation by at most its init's
 * bytes (the model takes them off whether or not the write happens). */
static void modelBounds(int dps) {
  int plans = 0, strict = 0, bwdSteps = 0, slack = 0;
  tkDpsPercent = dps;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 3 == 0),
                            1 + (int)(seed % 4 == 0), 30, 20);
    if (!g)
      continue;
    int64_t staticB = acSimStaticBytes(g, 1.0, 0);
    uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
    AcId vars[64];
    AcPlan *p = acPlanCreate(g);
    CHECK(startSet(g, seed, s0));
    int n = droppableList(g, s0, vars, 64);
    /* The library's count is the naive one's. */
    CHECK(n > 64 || acPlanDroppableCount(g, s0) == n);
    uint64_t rs = seed;
    for (int trial = 0; trial < 12 && n <= 64; ++trial) {
      uint64_t mask = trial == 0 ? 0
                      : trial == 1 ? ~(uint64_t)0
                                   : acTestRand(&rs);
      planOf(g, s0, vars, n, mask, p);
      CHECK(acPlanDerive(g, p, NULL) == AC_OK);
      AcSimResult r;
      CHECK(acSimulate(g, p, staticB, 1, &r, NULL) == AC_OK);
      int64_t *live = malloc(sizeof(int64_t) * ((size_t)r.numSteps + 1));
      intptr_t count = -1;
      AcError err;
      AcStatus st = acIlpModelLive(g, s0, p, live, r.numSteps, &count, &err);
      CHECK(st == AC_OK);
      if (st != AC_OK) {
        printf("  seed %d: %s\n", (int)seed, err.message);
      } else {
        intptr_t k = 0;
        for (intptr_t t = 0; t < r.numSteps; ++t) {
          if (r.steps[t].kind == AC_STEP_RECOMPUTE)
            continue;
          if (k >= count) {
            CHECK(k < count);
            break;
          }
          AcId ipr = acGraphInPlaceRoot(g, r.steps[t].op);
          if (r.steps[t].kind == AC_STEP_FWD && ipr != AC_NONE &&
              live[k] != r.live[t]) {
            CHECK(live[k] < r.live[t] &&
                  r.live[t] - live[k] <= g->values[ipr].bytes);
            ++slack;
          } else if (r.steps[t].kind == AC_STEP_FWD) {
            if (live[k] != r.live[t])
              printf("  seed %d mask %llx step %ld (fwd): model %ld sim %ld\n",
                     (int)seed, (unsigned long long)mask, (long)t,
                     (long)live[k], (long)r.live[t]);
            CHECK_EQ_I64(live[k], r.live[t]);
          } else {
            if (live[k] > r.live[t])
              printf("  seed %d mask %llx step %ld (bwd op %d): model %ld > "
                     "sim %ld\n",
                     (int)seed, (unsigned long long)mask, (long)t,
                     (int)r.steps[t].op, (long)live[k], (long)r.live[t]);
            CHECK(live[k] <= r.live[t]);
            strict += live[k] < r.live[t];
            ++bwdSteps;
          }
          ++k;
        }
        CHECK_EQ_I64(k, count);
      }
      ++plans;
      free(live);
      acSimResultClear(&r);
    }
    /* A plan outside the space is refused. */
    memset(p->saved, 0, (size_t)g->numValues);
    intptr_t count;
    int inSpace = 1;
    for (AcId v = 0; v < g->numValues && inSpace; ++v)
      if (s0[v] && !naiveDroppable(g, s0, v))
        inSpace = 0;
    if (!inSpace)
      CHECK(acIlpModelLive(g, s0, p, NULL, 0, &count, NULL) == AC_ERR_INVALID);
    acPlanDestroy(p);
    free(s0);
    acGraphDestroy(g);
  }
  printf("  %d plans; model below the simulation at %d of %d backward "
         "steps, %d in-place forward steps\n",
         plans, strict, bwdSteps, slack);
  CHECK(plans > 1000);
  tkDpsPercent = 0;
}

AC_TEST(modelBoundsSimulation) { modelBounds(0); }

AC_TEST(modelBoundsInPlace) { modelBounds(40); }

/* With op workspaces (constants at their forward and backward steps; the
 * model leaves out those of recompute steps, which are not positions). */
AC_TEST(modelBoundsWorkspace) {
  tkWsPercent = 35;
  modelBounds(0);
  tkWsPercent = 0;
}

typedef struct Brute {
  int n;
  AcId vars[20];
  int64_t *peak;
  double *cost;
} Brute;

static int bruteForce(const AcGraph *g, const uint8_t *s0, int64_t staticB,
                      Brute *b) {
  b->n = droppableList(g, s0, b->vars, 20);
  if (b->n > 16)
    return 0;
  AcPlan *p = acPlanCreate(g);
  b->peak = malloc(sizeof(int64_t) << b->n);
  b->cost = malloc(sizeof(double) << b->n);
  for (uint64_t m = 0; m < ((uint64_t)1 << b->n); ++m) {
    planOf(g, s0, b->vars, b->n, m, p);
    AcSimResult r;
    int ok = acPlanDerive(g, p, NULL) == AC_OK &&
             acSimulate(g, p, staticB, 0, &r, NULL) == AC_OK;
    CHECK(ok);
    b->peak[m] = ok ? r.peakBytes : INT64_MAX;
    b->cost[m] = ok ? r.recomputeSeconds : INFINITY;
    if (ok)
      acSimResultClear(&r);
  }
  acPlanDestroy(p);
  return 1;
}

static void bruteFree(Brute *b) {
  free(b->peak);
  free(b->cost);
}

/* The least cost of a plan with peak <= budget; -1 when none fits. */
static double bruteBest(const Brute *b, int64_t budget) {
  double best = -1;
  for (uint64_t m = 0; m < ((uint64_t)1 << b->n); ++m)
    if (b->peak[m] <= budget && (best < 0 || b->cost[m] < best))
      best = b->cost[m];
  return best;
}

static int cmpI64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static int sameCost(double a, double b) {
  return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-15;
}

/* ILP == brute force at every distinct peak of the space (the budgets
 * where the answer changes) and just below the lowest; greedy is never
 * cheaper; the ILP's plan fits and its reported numbers are the
 * simulation's. */
static void matchesBruteForce(int dps, uint64_t firstSeed, int fwdOps) {
  int graphs = 0, budgets = 0, greedyWorse = 0, belowGreedy = 0, cuts = 0;
  int limited = 0, noneFits = 0, lowestBelowGreedy = 0;
  tkDpsPercent = dps;
  for (uint64_t seed = firstSeed; seed < firstSeed + 240; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 3 == 0),
                            1 + (int)(seed % 5 == 0), fwdOps + (int)(seed % 4) * 4,
                            16);
    if (!g)
      continue;
    g->gradMode = (AcGradMode)(seed % 3); /* every gradient mode */
    int64_t staticB = acSimStaticBytes(g, 1.0, 0);
    uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
    Brute b = {0};
    CHECK(startSet(g, seed, s0));
    if (!bruteForce(g, s0, staticB, &b) || b.n == 0) {
      bruteFree(&b);
      free(s0);
      acGraphDestroy(g);
      continue;
    }
    ++graphs;
    AcTrajectory *t = NULL;
    CHECK(acGreedyTrajectoryFrom(g, s0, staticB, &t, NULL) == AC_OK);
    uint64_t np = (uint64_t)1 << b.n;
    int64_t *peaks = malloc(sizeof(int64_t) * (np + 1));
    memcpy(peaks, b.peak, sizeof(int64_t) * np);
    qsort(peaks, np, sizeof *peaks, cmpI64);
    uint64_t nd = 0; /* distinct peaks */
    for (uint64_t i = 0; i < np; ++i)
      if (nd == 0 || peaks[i] != peaks[nd - 1])
        peaks[nd++] = peaks[i];
    AcPlan *p = acPlanCreate(g);
    uint64_t step = nd > 24 ? nd / 24 : 1;
    for (uint64_t i = 0; i < nd + step; i += step) {
      /* The distinct peaks (sampled), then below the lowest. */
      int64_t budget = i < nd ? peaks[i] : peaks[0] - 1;
      AcIlpStats s;
      AcError err;
      /* A round limit, not the clock, so that the outcome is the same on
         every machine and under the sanitizers. */
      AcIlpOptions opts = {{budget, staticB, 0}, 120, 120, 0};
      AcStatus st = acIlpFrom(g, s0, &opts, p, &s, &err);
      CHECK(st == AC_OK);
      if (st != AC_OK) {
        printf("  seed %d: %s\n", (int)seed, err.message);
        break;
      }
      ++budgets;
      cuts += (int)s.cuts;
      double best = bruteBest(&b, budget);
      /* Stopped by the round limit: never claimed optimal, and still a
         plan and a bound consistent with the brute force (below). */
      CHECK(s.optimal != s.limited);
      limited += s.limited;
      if (!s.optimal || s.cuts > 50)
        printf("  seed %d (%d vars, budget %ld, %s): %ld rounds, %ld cuts, "
               "%.2f s\n",
               (int)seed, b.n, (long)budget, best >= 0 ? "fits" : "none fits",
               (long)s.rounds, (long)s.cuts, s.seconds);
      CHECK_EQ_I64(s.feasible, best >= 0);
      AcSimResult r;
      CHECK(acSimulate(g, p, staticB, 0, &r, NULL) == AC_OK);
      CHECK_EQ_I64(r.peakBytes, s.peakBytes);
      CHECK(sameCost(r.recomputeSeconds, s.recomputeSeconds));
      acSimResultClear(&r);
      if (best >= 0) {
        CHECK(s.peakBytes <= budget);
        if (!sameCost(s.recomputeSeconds, best))
          printf("  seed %d budget %ld: ilp %.17g brute %.17g (%d vars)\n",
                 (int)seed, (long)budget, s.recomputeSeconds, best, b.n);
        CHECK(s.limited || sameCost(s.recomputeSeconds, best));
        CHECK(s.limited || sameCost(s.lowerBound, best));
        CHECK(s.recomputeSeconds >= best * (1 - 1e-9) &&
              s.lowerBound <= best * (1 + 1e-9));
        intptr_t k = acTrajectoryChoose(t, budget);
        if (t->peakBytes[k] <= budget) {
          CHECK(t->recomputeSeconds[k] >= best * (1 - 1e-9));
          greedyWorse += !sameCost(t->recomputeSeconds[k], best);
        } else {
          ++belowGreedy;
        }
      } else {
        CHECK(s.limited || isinf(s.lowerBound));
        /* Nothing fits: the ILP's own lowest-peak plan, the lowest of the
           space unless a limit stopped it; never above greedy's. */
        CHECK(s.peakBytes <= t->peakBytes[t->numPlans - 1]);
        CHECK(s.peakBytes >= peaks[0]);
        if (!s.limited)
          CHECK_EQ_I64(s.peakBytes, peaks[0]);
        CHECK(s.optimal == !s.limited);
        lowestBelowGreedy += s.peakBytes < t->peakBytes[t->numPlans - 1];
        noneFits++;
      }
    }
    acPlanDestroy(p);
    free(peaks);
    acTrajectoryDestroy(t);
    bruteFree(&b);
    free(s0);
    acGraphDestroy(g);
  }
  printf("  %d graphs, %d budgets, %d cuts, %d stopped by the round limit; "
         "greedy costlier at %d, fails where the ilp fits at %d; nothing "
         "fits at %d, where the ilp's lowest peak is below greedy's at %d\n",
         graphs, budgets, cuts, limited, greedyWorse, belowGreedy, noneFits,
         lowestBelowGreedy);
  CHECK(noneFits >= 100);
  CHECK(graphs >= 150 && budgets >= 1500);
  /* The relaxation leaves recompute steps out; rarely, proving that
     nothing fits takes more cuts than the round limit allows. */
  CHECK(limited <= budgets / 500);
  tkDpsPercent = 0;
}

AC_TEST(ilpMatchesBruteForce) { matchesBruteForce(0, 1, 24); }

/* The same with destination-style ops (in-place writes). */
AC_TEST(ilpMatchesBruteForceInPlace) { matchesBruteForce(40, 7001, 24); }

/* With inits other ops read too: insert_slice dests, extract_slice views
 * (plan_testkit.h, tkDestPercent).  (modelBounds on these graphs finds the
 * model above the simulation at one backward step of seed 126, by 160
 * bytes, whatever the plan: open, docs/fidelity.md.) */
AC_TEST(ilpMatchesBruteForceInPlaceDest) {
  tkDestPercent = 35;
  matchesBruteForce(40, 9001, 24);
  tkDestPercent = 0;
}

/* The same with workspaces on backward ops (constants at positions, exact
 * in the model).  Those of recomputed ops are not modelled (recompute
 * steps are not positions): only the no-good cuts of plans the simulation
 * finds over the budget exclude them, which can take many rounds
 * (docs/planner.md). */
AC_TEST(ilpMatchesBruteForceWorkspace) {
  tkWsPercent = 50;
  tkWsBwdOnly = 1;
  matchesBruteForce(0, 11001, 20);
  tkWsBwdOnly = 0;
  tkWsPercent = 0;
}

/* Greedy's hand graph (tkThreeActs, its space of 8 plans by hand): at 1000
 * the optimum drops c (1 s), at 900 b and c (10 s), below 840 nothing fits. */
AC_TEST(handGraph) {
  AcGraph *g = tkThreeActs();
  if (!g)
    return;
  uint8_t s0[9] = {0, 0, 1, 1, 1, 0, 0, 0, 0};
  AcPlan *p = acPlanCreate(g);
  struct { int64_t budget; uint8_t a, b, c; int64_t peak; double sec; int fits; } cases[] = {
      {-1, 1, 1, 1, 1130, 0, 1},  {2000, 1, 1, 1, 1130, 0, 1},
      {1130, 1, 1, 1, 1130, 0, 1}, {1000, 1, 1, 0, 930, 1, 1},
      {930, 1, 1, 0, 930, 1, 1},   {900, 1, 0, 0, 840, 10, 1},
      {839, 1, 0, 0, 840, 10, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    AcIlpStats s;
    CHECK(acIlpFrom(g, s0, &(AcIlpOptions){{cases[i].budget, 0, 0}, 0, 0, 0}, p, &s, NULL) == AC_OK);
    CHECK(p->saved[2] == cases[i].a && p->saved[3] == cases[i].b &&
          p->saved[4] == cases[i].c);
    CHECK_EQ_I64(s.peakBytes, cases[i].peak);
    CHECK_NEAR(s.recomputeSeconds, cases[i].sec, 1e-12);
    CHECK_EQ_I64(s.feasible, cases[i].fits);
    CHECK(s.optimal);
    if (cases[i].budget >= 0 && cases[i].budget < 1130)
      CHECK_EQ_I64(s.candidates, 3);
  }
  /* The model on this graph, for {a, b} saved (c dropped): forward steps
     x 10 + a 100 (op0) ... as in test_greedy.c; backward op steps op4 930,
     op5 840, op6 240: the simulation's, the model misses nothing here. */
  uint8_t saved[9] = {0, 0, 1, 1, 0, 0, 0, 0, 0};
  memcpy(p->saved, saved, sizeof saved);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  int64_t live[8];
  intptr_t count = 0;
  CHECK(acIlpModelLive(g, s0, p, live, 8, &count, NULL) == AC_OK);
  CHECK_EQ_I64(count, 7);
  int64_t want[7] = {110, 410, 610, 620, 930, 840, 240};
  for (int i = 0; i < 7; ++i)
    CHECK_EQ_I64(live[i], want[i]);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* acPlanRun with strategy ilp over budget sweeps: the recompute seconds
 * never fall as the budget falls, the plan fits whenever greedy's does,
 * and it is never costlier than greedy's. */
AC_TEST(planRunSweep) {
  int graphs = 0;
  for (uint64_t seed = 700; seed < 740; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 2), 1 + (int)(seed % 3 == 0),
                            16, 10);
    if (!g)
      continue;
    ++graphs;
    int64_t staticB = acSimStaticBytes(g, 1.0, 64);
    AcTrajectory *t = NULL;
    CHECK(acGreedyTrajectory(g, staticB, &t, NULL) == AC_OK);
    int64_t lo = t->peakBytes[t->numPlans - 1], hi = t->peakBytes[0];
    AcPlan *p = acPlanCreate(g), *q = acPlanCreate(g);
    AcPlanOptions o = {AC_STRATEGY_ILP, -1, staticB, 0, 0};
    AcPlanOptions om = {AC_STRATEGY_MINCUT, -1, staticB, 0, 0};
    CHECK(acPlanRun(g, &o, p, NULL) == AC_OK);
    CHECK(acPlanRun(g, &om, q, NULL) == AC_OK);
    {
      uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
      CHECK(acPlanStartSet(g, staticB, s0, NULL) == AC_OK);
      CHECK(memcmp(p->saved, s0, (size_t)g->numValues) == 0);
      free(s0);
    }
    double prev = -1;
    for (int i = 0; i < 30; ++i) {
      int64_t budget = hi + 50 - (int64_t)((double)(hi - lo + 100) * i / 29);
      o.budget = budget;
      AcSimResult r;
      CHECK(acPlanRun(g, &o, p, NULL) == AC_OK);
      CHECK(acSimulate(g, p, staticB, 0, &r, NULL) == AC_OK);
      intptr_t k = acTrajectoryChoose(t, budget);
      if (t->peakBytes[k] <= budget) {
        CHECK(r.peakBytes <= budget);
        CHECK(r.recomputeSeconds <= t->recomputeSeconds[k] * (1 + 1e-9));
      }
      if (r.peakBytes <= budget) {
        CHECK(r.recomputeSeconds >= prev * (1 - 1e-9));
        prev = r.recomputeSeconds;
      }
      for (AcId op = 0; op < g->numOps; ++op)
        if (p->recompute[op])
          CHECK(g->ops[op].recomputable && !g->ops[op].mustSave);
      acSimResultClear(&r);
    }
    acPlanDestroy(p);
    acPlanDestroy(q);
    acTrajectoryDestroy(t);
    acGraphDestroy(g);
  }
  CHECK(graphs >= 35);
}

/* The round limit stops the search: the result is then greedy's plan (or
 * a cheaper one that fits), flagged as not proven. */
AC_TEST(limits) {
  int limited = 0;
  for (uint64_t seed = 1; seed <= 200 && limited < 5; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1, 1, 30, 20);
    if (!g)
      continue;
    int64_t staticB = acSimStaticBytes(g, 1.0, 0);
    uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
    CHECK(acMincutSaveSet(g, s0, NULL) == AC_OK);
    AcTrajectory *t = NULL;
    CHECK(acGreedyTrajectoryFrom(g, s0, staticB, &t, NULL) == AC_OK);
    AcPlan *p = acPlanCreate(g);
    for (intptr_t k = 1; k < t->numPlans; ++k) {
      int64_t budget = t->peakBytes[k];
      AcIlpStats s;
      AcIlpOptions opt = {{budget, staticB, 0}, 0, 1, 0};
      CHECK(acIlpFrom(g, s0, &opt, p, &s, NULL) == AC_OK);
      CHECK(s.rounds <= 1);
      CHECK(s.feasible); /* greedy's plan fits */
      CHECK(s.recomputeSeconds <= t->recomputeSeconds[k] * (1 + 1e-9));
      if (s.limited) {
        ++limited;
        CHECK(!s.optimal);
        CHECK(s.lowerBound <= s.recomputeSeconds * (1 + 1e-9));
      }
    }
    acPlanDestroy(p);
    acTrajectoryDestroy(t);
    free(s0);
    acGraphDestroy(g);
  }
  printf("  %d searches stopped by the round limit\n", limited);
}

/* A chain of `layers` (mm, relu) forward and (mul, mm) backward: every
 * saved activation lives across the whole backward, so the ILP's memory
 * rows are dense (rows x candidates nonzeros). */
static AcGraph *chainGraph(int layers) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "chain");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 4096);
  AcId w = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 4096);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4096);
  AcId *acts = calloc((size_t)layers + 1, sizeof *acts);
  AcId h = x;
  for (int i = 0; i < layers; ++i) {
    AcId in[2] = {h, w};
    AcId mm = tkAdd(b, "mm", in, 2, 4096, AC_KIND_MATMUL, 1, 1e-3);
    acGraphBuilderOp(b, mm)->computeIntensive = 1;
    AcId r = tkRes(b, mm);
    AcId relu = tkAdd(b, "relu", &r, 1, 4096, AC_KIND_ELEMENTWISE, 1, 1e-6);
    h = acts[i] = tkRes(b, relu);
  }
  AcId loss = tkRes(b, tkAdd(b, "sum", &h, 1, 4, AC_KIND_REDUCTION, 1, 1e-6));
  AcId gr = dy;
  for (int i = layers - 1; i >= 0; --i) {
    AcId in[2] = {gr, acts[i]};
    gr = tkRes(b, tkAdd(b, "mul", in, 2, 4096, AC_KIND_ELEMENTWISE, 1, 1e-6));
    AcId in2[2] = {gr, w};
    gr = tkRes(b, tkAdd(b, "mm", in2, 2, 4096, AC_KIND_MATMUL, 1, 1e-3));
  }
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  acGraphBuilderAddRet(b, gr, AC_RET_GRAD);
  AcGraph *g = NULL;
  acGraphBuilderFinish(b, &g, NULL);
  acGraphBuilderDestroy(b);
  free(acts);
  return g;
}

/* The ILP answers within its bound on models it cannot solve in time
 * (issue 13, class 5): a model past AC_ILP_MAX_NONZEROS is not handed to
 * GLPK (whose limit is only checked between iterations) and the answer is
 * greedy's plan for the budget, marked limited, however long the limit;
 * a deadline already passed stops the greedy incumbent itself. */
AC_TEST(largeModelsAreLimited) {
  AcGraph *g = chainGraph(1500);
  CHECK(g != NULL);
  if (!g)
    return;
  int64_t staticB = acSimStaticBytes(g, 0.0, 0);
  uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
  CHECK(acMincutSaveSet(g, s0, NULL) == AC_OK);
  AcPlan *p = acPlanCreate(g), *q = acPlanCreate(g);
  AcSimResult sp, sq;
  memset(&sp, 0, sizeof sp);
  memset(&sq, 0, sizeof sq);
  memcpy(p->saved, s0, (size_t)g->numValues);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(acSimulate(g, p, staticB, 0, &sp, NULL) == AC_OK);
  /* A peak halfway down greedy's trajectory. */
  AcTrajectory *t = NULL;
  CHECK(acGreedyTrajectoryFrom(g, s0, staticB, &t, NULL) == AC_OK);
  int64_t budget = t ? t->peakBytes[t->numPlans / 2] : sp.peakBytes;
  acTrajectoryDestroy(t);
  AcIlpStats s;
  AcIlpOptions opt = {{budget, staticB, 0}, 0, 0, 0}; /* no clock at all */
  CHECK(acIlpFrom(g, s0, &opt, p, &s, NULL) == AC_OK);
  CHECK(s.limited && !s.optimal && s.rounds == 0);
  CHECK(s.nodes == 0);      /* never handed to GLPK */
  CHECK(acGreedyPlanForBudget(g, s0, staticB, budget, q, NULL, NULL) == AC_OK);
  CHECK(memcmp(p->saved, q->saved, (size_t)g->numValues) == 0);
  CHECK(s.feasible);
  /* A wall-clock limit (optional, machine-dependent) that has passed
   * before the incumbent: greedy's trajectory is cut short at once; the
   * plan is still a valid one, marked limited. */
  AcIlpOptions tiny = {{budget, staticB, 0}, 1e-9, 0, 0};
  CHECK(acIlpFrom(g, s0, &tiny, p, &s, NULL) == AC_OK);
  CHECK(s.limited && !s.optimal && s.rounds == 0);
  CHECK(acSimulate(g, p, staticB, 0, &sq, NULL) == AC_OK);
  CHECK(sq.peakBytes <= sp.peakBytes);
  acSimResultClear(&sp);
  acSimResultClear(&sq);
  acPlanDestroy(p);
  acPlanDestroy(q);
  free(s0);
  acGraphDestroy(g);
}

/* The node limit is the ILP's work limit: deterministic, so the same call
 * gives the same plan and the same statistics every time (the wall clock
 * plays no part), and a search it stops says so. */
AC_TEST(nodeLimitDeterministic) {
  int calls = 0, limited = 0, unlimited = 0;
  for (uint64_t seed = 11; seed <= 80; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 2), 1, 30, 20);
    if (!g)
      continue;
    int64_t staticB = acSimStaticBytes(g, 1.0, 0);
    uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
    CHECK(acMincutSaveSet(g, s0, NULL) == AC_OK);
    AcTrajectory *t = NULL;
    CHECK(acGreedyTrajectoryFrom(g, s0, staticB, &t, NULL) == AC_OK);
    AcPlan *p = acPlanCreate(g), *q = acPlanCreate(g);
    for (intptr_t k = 1; k <= t->numPlans; ++k) {
      /* Along the trajectory, then below its lowest peak. */
      int64_t budget = k < t->numPlans ? t->peakBytes[k] - 1
                                       : t->peakBytes[t->numPlans - 1] - 1;
      for (intptr_t maxNodes = 1; maxNodes <= 8; maxNodes *= 8) {
        AcIlpOptions o = {{budget, staticB, 0}, 0, 0, maxNodes};
        AcIlpStats a, b;
        CHECK(acIlpFrom(g, s0, &o, p, &a, NULL) == AC_OK);
        CHECK(acIlpFrom(g, s0, &o, q, &b, NULL) == AC_OK);
        ++calls;
        CHECK(memcmp(p->saved, q->saved, (size_t)g->numValues) == 0);
        CHECK(a.nodes == b.nodes && a.rounds == b.rounds && a.cuts == b.cuts);
        CHECK(a.optimal == b.optimal && a.limited == b.limited);
        CHECK(a.peakBytes == b.peakBytes &&
              memcmp(&a.recomputeSeconds, &b.recomputeSeconds, sizeof(double)) == 0 &&
              memcmp(&a.lowerBound, &b.lowerBound, sizeof(double)) == 0);
        /* The limit holds, give or take the branching that crossed it (a
           branch adds two nodes at once). */
        if (a.nodes > maxNodes + 2)
          printf("  seed %d budget %ld: %ld nodes, limit %ld\n", (int)seed,
                 (long)budget, (long)a.nodes, (long)maxNodes);
        CHECK(a.nodes <= maxNodes + 2);
        CHECK(!(a.optimal && a.limited));
        limited += a.limited;
        unlimited += !a.limited && a.rounds > 0;
      }
    }
    acPlanDestroy(p);
    acPlanDestroy(q);
    acTrajectoryDestroy(t);
    free(s0);
    acGraphDestroy(g);
  }
  printf("  %d calls twice, %d stopped by the node limit, %d finished\n", calls,
         limited, unlimited);
  CHECK(calls >= 100 && limited >= 20 && unlimited >= 20);
}

AC_TEST(allocFailures) {
  AcGraph *g = tkGenGraph(42, 1, 1, 14, 8);
  uint8_t *s0 = calloc((size_t)g->numValues, 1);
  AcPlan *p = acPlanCreate(g);
  acPlanSaveAll(g, p);
  memcpy(s0, p->saved, (size_t)g->numValues);
  AcSimResult r;
  CHECK(acSimulate(g, p, 0, 0, &r, NULL) == AC_OK);
  int64_t budget = r.peakBytes * 9 / 10;
  acSimResultClear(&r);
  int sawOk = 0;
  for (int64_t n = 1; n < 20000 && !sawOk; ++n) {
    AcIlpStats s;
    acAllocFailAfter(n);
    AcStatus st = acIlpFrom(g, s0, &(AcIlpOptions){{budget, 0, 0}, 0, 0, 0}, p, &s, NULL);
    acAllocFailAfter(0);
    CHECK(st == AC_OK || st == AC_ERR_NOMEM);
    sawOk = st == AC_OK;
  }
  CHECK(sawOk);
  free(s0);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

int main(void) {
  RUN(modelBoundsSimulation);
  RUN(modelBoundsInPlace);
  RUN(modelBoundsWorkspace);
  RUN(ilpMatchesBruteForce);
  RUN(ilpMatchesBruteForceInPlace);
  RUN(ilpMatchesBruteForceInPlaceDest);
  RUN(ilpMatchesBruteForceWorkspace);
  RUN(handGraph);
  RUN(planRunSweep);
  RUN(limits);
  RUN(largeModelsAreLimited);
  RUN(nodeLimitDeterministic);
  RUN(allocFailures);
  return acTestSummary("ilp");
}
