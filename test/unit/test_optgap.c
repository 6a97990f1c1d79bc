/* test_optgap.c - greedy's and beam's recompute seconds against the exact
 * optimum (the ilp strategy) on random graphs, at every budget where the
 * answer changes.  Asserts only what must hold (the ILP is never worse than
 * either where they fit, and fits wherever they do); prints the gap table
 * that docs/optimality.md quotes.  No timing is asserted. */
#include "plan_testkit.h"
#include "partition/partition.h"

#include <math.h>

typedef struct GapStats {
  int budgets;       /* budgets where the ILP proved its answer and it fits */
  int fits;          /* ... of which the heuristic fits */
  int within1, within3;
  double sum, max;   /* relative gap where it fits */
  int missed;        /* the heuristic does not fit where the ILP does */
} GapStats;

static void gapAdd(GapStats *s, int fits, double sec, double opt) {
  s->budgets++;
  if (!fits) {
    s->missed++;
    return;
  }
  double gap = opt > 0 ? (sec - opt) / opt : (sec > 1e-15 ? INFINITY : 0);
  if (gap < 0)
    gap = 0; /* within the solver's tolerance */
  s->fits++;
  s->sum += gap;
  if (gap > s->max)
    s->max = gap;
  s->within1 += gap <= 0.01;
  s->within3 += gap <= 0.03;
}

static void gapPrint(const char *what, const GapStats *s) {
  printf("  | %-6s | %5d | %5d | %6.2f%% | %6.2f%% | %5.1f%% | %5.1f%% | %4d |\n",
         what, s->budgets, s->fits, s->fits ? 100 * s->sum / s->fits : 0.0,
         100 * s->max, s->fits ? 100.0 * s->within1 / s->fits : 0.0,
         s->fits ? 100.0 * s->within3 / s->fits : 0.0, s->missed);
}

static int cmpI64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Random graphs from `fromSaveAll` ? the save-all set (more to drop, a
 * harder space) : the min-cut set (the product's start). */
static double ilpLimit = 1.0;

static void gapTable(int fromSaveAll, int maxFwd, int maxBwd, int seeds) {
  GapStats greedy = {0}, beam = {0};
  int graphs = 0, unproven = 0;
  double tIlp = 0;
  for (uint64_t seed = 1; seed <= (uint64_t)seeds; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 3 == 0),
                            1 + (int)(seed % 4 == 0), maxFwd, maxBwd);
    if (!g)
      continue;
    int64_t staticB = acSimStaticBytes(g, 1.0, 0);
    uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
    if (fromSaveAll) {
      AcPlan *sa = acPlanCreate(g);
      acPlanSaveAll(g, sa);
      memcpy(s0, sa->saved, (size_t)g->numValues);
      acPlanDestroy(sa);
    } else {
      CHECK(acMincutSaveSet(g, s0, NULL) == AC_OK);
    }
    AcTrajectory *t = NULL;
    AcBeamFront *bf = NULL;
    CHECK(acGreedyTrajectoryFrom(g, s0, staticB, &t, NULL) == AC_OK);
    CHECK(acBeamSearch(g, s0, staticB, 0, &bf, NULL) == AC_OK);
    if (!t || !bf || t->numPlans < 2) {
      acTrajectoryDestroy(t);
      acBeamFrontDestroy(bf);
      free(s0);
      acGraphDestroy(g);
      continue;
    }
    ++graphs;
    /* Budgets: every peak greedy or beam reach (where their answers
       change), and just below each, down to the lowest they reach (below
       it the ILP has to prove that nothing fits, which can take long). */
    intptr_t nb = 0;
    int64_t *budgets = malloc(sizeof(int64_t) * 2 *
                              (size_t)(t->numPlans + bf->numPlans));
    for (intptr_t k = 0; k < t->numPlans; ++k) {
      budgets[nb++] = t->peakBytes[k];
      budgets[nb++] = t->peakBytes[k] - 1;
    }
    for (intptr_t k = 0; k < bf->numPlans; ++k) {
      budgets[nb++] = bf->peakBytes[k];
      budgets[nb++] = bf->peakBytes[k] - 1;
    }
    qsort(budgets, (size_t)nb, sizeof *budgets, cmpI64);
    int64_t lowest = t->peakBytes[t->numPlans - 1];
    if (bf->peakBytes[bf->numPlans - 1] < lowest)
      lowest = bf->peakBytes[bf->numPlans - 1];
    AcPlan *p = acPlanCreate(g);
    for (intptr_t i = 0; i < nb; ++i) {
      if ((i > 0 && budgets[i] == budgets[i - 1]) || budgets[i] < lowest)
        continue;
      int64_t budget = budgets[i];
      AcIlpStats s;
      AcIlpOptions io = {{budget, staticB, 0}, ilpLimit, 0, INTPTR_MAX};
      CHECK(acIlpFrom(g, s0, &io, p, &s, NULL) == AC_OK);
      tIlp += s.seconds;
      if (!s.optimal) {
        ++unproven;
        continue;
      }
      /* Greedy as the pass plans it (the budget's last drop included). */
      AcTrajectory *bt = NULL;
      CHECK(acGreedyPlanForBudget(g, s0, staticB, budget, p, &bt, NULL) == AC_OK);
      if (!bt)
        continue;
      intptr_t gk = acTrajectoryChoose(bt, budget);
      int64_t gPeak = bt->refinedDrop != AC_NONE ? bt->refinedPeakBytes : bt->peakBytes[gk];
      double gSec = bt->refinedDrop != AC_NONE ? bt->refinedRecomputeSeconds
                                               : bt->recomputeSeconds[gk];
      acTrajectoryDestroy(bt);
      intptr_t bk = acBeamChoose(bf, budget);
      int gfit = gPeak <= budget, bfit = bf->peakBytes[bk] <= budget;
      /* The ILP fits wherever they do and is never costlier. */
      if (gfit || bfit)
        CHECK(s.feasible);
      if (!s.feasible)
        continue;
      if (gfit)
        CHECK(s.recomputeSeconds <= gSec * (1 + 1e-9));
      if (bfit)
        CHECK(s.recomputeSeconds <= bf->recomputeSeconds[bk] * (1 + 1e-9));
      gapAdd(&greedy, gfit, gSec, s.recomputeSeconds);
      gapAdd(&beam, bfit, bf->recomputeSeconds[bk], s.recomputeSeconds);
    }
    free(budgets);
    acPlanDestroy(p);
    acTrajectoryDestroy(t);
    acBeamFrontDestroy(bf);
    free(s0);
    acGraphDestroy(g);
  }
  printf("  %d random graphs (up to %d forward, %d backward ops per "
         "function), %s start; %d budgets unproven; ilp %.1f s\n",
         graphs, maxFwd, maxBwd, fromSaveAll ? "save-all" : "min-cut",
         unproven, tIlp);
  printf("  | plan   | budgets | fits | mean gap | max gap | <=1%% | <=3%% | "
         "no fit |\n");
  gapPrint("greedy", &greedy);
  gapPrint("beam", &beam);
  CHECK(graphs >= seeds / 4);
}

static int seeds = 40;
AC_TEST(gapMincut) { gapTable(0, 120, 90, seeds); }
AC_TEST(gapSaveAll) { gapTable(1, 40, 30, seeds); }

/* `test_optgap --full` runs the tables docs/optimality.md quotes (200
 * graphs each, 10 s per ILP); ctest runs 40 graphs each, 1 s per ILP. */
int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--full") == 0) {
    seeds = 200;
    ilpLimit = 10.0;
  }
  RUN(gapMincut);
  RUN(gapSaveAll);
  return acTestSummary("optgap");
}
