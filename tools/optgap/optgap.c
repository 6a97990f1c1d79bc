/* optgap.c - greedy's and beam's distance to the exact optimum (the ilp
 * strategy) over a sweep of budgets, on MLIR joint graphs.
 *
 *   optgap [--budgets N] [--time SECONDS] [--width W] [--brute] FILE.mlir...
 *
 * For each file: the min-cut save set S0, greedy's trajectory, the beam
 * front, then N budgets from just below S0's peak down to just below the
 * lowest peak greedy or beam reach; at each, the recompute seconds of the
 * greedy, beam and ILP plans and greedy's and beam's gap to the ILP.  With
 * --brute (at most 22 droppable values) every plan of the space is
 * simulated as well and the ILP checked against it.  Prints a markdown
 * table per file and a summary line; docs/optimality.md has the results. */
#include "autoac/autoac.h"
#include "import/import.h"
#include "partition/partition.h"
#include "autoac/plan.h"
#include "autoac/simulate.h"

#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"
#include "../common/read_file.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The droppable values of s0 (plan_internal.h's rule, restated). */
static int droppable(const AcGraph *g, const uint8_t *s0, AcId v) {
  const AcValue *val = &g->values[v];
  if (!s0[v] || val->role != AC_ROLE_RESULT || val->aliasRoot != v)
    return 0;
  uint8_t *need = calloc((size_t)g->numOps + 1, 1);
  need[val->producer] = 1;
  int ok = 1;
  for (AcId o = val->producer; o >= 0 && ok; --o) {
    if (!need[o])
      continue;
    if (g->ops[o].phase != AC_PHASE_FWD || !g->ops[o].recomputable ||
        g->ops[o].mustSave)
      ok = 0;
    for (int32_t i = 0; i < g->ops[o].numOperands; ++i) {
      AcId u = acOpOperand(g, o, i);
      if (g->values[u].role == AC_ROLE_RESULT && !s0[u])
        need[g->values[u].producer] = 1;
    }
  }
  free(need);
  return ok;
}

typedef struct Brute {
  int n;
  int64_t *peak;
  double *cost;
} Brute;

/* Every subset of the droppable values of s0. */
static int bruteForce(const AcGraph *g, const uint8_t *s0, int64_t staticB,
                      const AcId *vars, int n, Brute *b) {
  AcPlan *p = acPlanCreate(g);
  b->n = n;
  b->peak = malloc(sizeof(int64_t) << n);
  b->cost = malloc(sizeof(double) << n);
  for (long m = 0; m < (1L << n); ++m) {
    memcpy(p->saved, s0, (size_t)g->numValues);
    for (int k = 0; k < n; ++k)
      if (m >> k & 1)
        p->saved[vars[k]] = 0;
    AcSimResult r;
    if (acPlanDerive(g, p, NULL) != AC_OK ||
        acSimulate(g, p, staticB, 0, &r, NULL) != AC_OK) {
      acPlanDestroy(p);
      return 0;
    }
    b->peak[m] = r.peakBytes;
    b->cost[m] = r.recomputeSeconds;
    acSimResultClear(&r);
  }
  acPlanDestroy(p);
  return 1;
}

static double gapOf(double x, double opt) {
  if (opt <= 0)
    return x <= 1e-15 ? 0 : INFINITY;
  return (x - opt) / opt;
}

static int run(const char *path, int nb, double tlim, int width, int brute,
               const AcDevice *dev, MlirContext ctx) {
  size_t len;
  char *text = acToolReadFile(path, &len);
  if (!text) {
    fprintf(stderr, "optgap: cannot read %s\n", path);
    return 1;
  }
  MlirOperation module = acParseModule(ctx, text, len, path);
  free(text);
  if (mlirOperationIsNull(module))
    return 1;
  AcImport *imp = NULL;
  AcError err;
  if (acImportModule(module, dev, &imp, &err, NULL) != AC_OK) {
    fprintf(stderr, "optgap: %s: %s\n", path, err.message);
    mlirOperationDestroy(module);
    return 1;
  }
  const AcGraph *g = imp->graph;
  int64_t staticB = acSimStaticBytes(g, 0.0, 0);
  uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
  AcPlan *p = acPlanCreate(g);
  AcTrajectory *t = NULL;
  AcBeamFront *bf = NULL;
  int rc = 0;
  if (acMincutSaveSet(g, s0, &err) != AC_OK) {
    fprintf(stderr, "optgap: %s\n", err.message);
    rc = 1;
    goto done;
  }
  double t0 = now();
  if (acGreedyTrajectoryFrom(g, s0, staticB, &t, &err) != AC_OK) {
    fprintf(stderr, "optgap: %s\n", err.message);
    rc = 1;
    goto done;
  }
  double tg = now() - t0;
  t0 = now();
  if (acBeamSearch(g, s0, staticB, width, &bf, &err) != AC_OK) {
    fprintf(stderr, "optgap: %s\n", err.message);
    rc = 1;
    goto done;
  }
  double tb = now() - t0;
  /* The droppable values, as the ILP sees them. */
  AcIlpStats st0;
  /* A time limit, not the node limit: optgap measures gaps within a time. */
  AcIlpOptions io = {{-1, staticB, 0}, tlim, 0, INTPTR_MAX};
  /* (A budget nothing fits, one round: only to count the binaries.) */
  (void)acIlpFrom(g, s0, &(AcIlpOptions){{0, staticB, 0}, 0, 1, 0}, p, &st0, NULL);
  int64_t hi = t->peakBytes[0];
  int64_t lo = t->peakBytes[t->numPlans - 1];
  if (bf->peakBytes[bf->numPlans - 1] < lo)
    lo = bf->peakBytes[bf->numPlans - 1];
  int64_t span = hi - lo;
  printf("\n### %s\n\n", path);
  printf("%ld ops, %ld droppable min-cut saves; min-cut peak %.2f MiB, "
         "greedy lowest %.2f MiB (%ld drops, %.3f s), beam lowest %.2f MiB "
         "(front %ld plans, %ld simulations, %.3f s)\n\n",
         (long)g->numOps, (long)st0.candidates, hi / 1048576.0,
         t->peakBytes[t->numPlans - 1] / 1048576.0, (long)t->numPlans - 1, tg,
         bf->peakBytes[bf->numPlans - 1] / 1048576.0, (long)bf->numPlans,
         (long)bf->simulations, tb);
  Brute b = {0, NULL, NULL};
  if (brute) {
    AcId vars[32];
    int n = 0;
    for (AcId v = 0; v < g->numValues; ++v)
      if (droppable(g, s0, v)) {
        if (n == 22) {
          n = 23;
          break;
        }
        vars[n++] = v;
      }
    if (n > 22) {
      fprintf(stderr, "optgap: --brute: more than 22 droppable values\n");
    } else {
      t0 = now();
      if (!bruteForce(g, s0, staticB, vars, n, &b)) {
        fprintf(stderr, "optgap: --brute: a plan did not simulate\n");
        rc = 1;
        goto done;
      }
      printf("brute force: %ld plans in %.1f s\n\n", 1L << n, now() - t0);
    }
  }
  printf("| budget MiB | greedy MiB | greedy s | beam MiB | beam s | ilp MiB | "
         "ilp s | ilp status | rounds | cuts | ilp time s | greedy gap | beam gap |%s\n",
         b.peak ? " brute s |" : "");
  printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|%s\n",
         b.peak ? "---|" : "");
  double maxGap = 0, sumGap = 0, maxBeam = 0;
  int ngap = 0, nopt = 0, nrun = 0;
  for (int i = 0; i < nb; ++i) {
    /* From just below S0's peak down to 2% of the span below the lowest. */
    int64_t budget = hi - 1 - (int64_t)((double)(span * 102 / 100) * i / (nb - 1));
    /* Greedy as the pass plans: the trajectory until a plan fits, and the
       budget's last drop (acGreedyPlanForBudget). */
    AcTrajectory *bt = NULL;
    if (acGreedyPlanForBudget(g, s0, staticB, budget, p, &bt, &err) != AC_OK) {
      fprintf(stderr, "optgap: greedy: %s\n", err.message);
      rc = 1;
      goto done;
    }
    intptr_t gk0 = acTrajectoryChoose(bt, budget);
    int64_t gPeak = bt->refinedDrop != AC_NONE ? bt->refinedPeakBytes : bt->peakBytes[gk0];
    double gSec = bt->refinedDrop != AC_NONE ? bt->refinedRecomputeSeconds
                                             : bt->recomputeSeconds[gk0];
    acTrajectoryDestroy(bt);
    intptr_t bk = acBeamChoose(bf, budget);
    AcIlpStats s;
    io.search.budget = budget;
    if (acIlpFrom(g, s0, &io, p, &s, &err) != AC_OK) {
      fprintf(stderr, "optgap: ilp: %s\n", err.message);
      rc = 1;
      goto done;
    }
    ++nrun;
    int gfit = gPeak <= budget, bfit = bf->peakBytes[bk] <= budget;
    double gg = NAN, bg = NAN;
    if (s.optimal)
      ++nopt;
    if (s.optimal && s.feasible && gfit) {
      gg = gapOf(gSec, s.recomputeSeconds);
      sumGap += gg;
      ++ngap;
      if (gg > maxGap)
        maxGap = gg;
    }
    if (s.optimal && s.feasible && bfit) {
      bg = gapOf(bf->recomputeSeconds[bk], s.recomputeSeconds);
      if (bg > maxBeam)
        maxBeam = bg;
    }
    printf("| %.3f | %.3f%s | %.4g | %.3f%s | %.4g | %.3f%s | %.4g | %s | %ld | "
           "%ld | %.3f | %s%.2f%% | %s%.2f%% |",
           budget / 1048576.0, gPeak / 1048576.0, gfit ? "" : " (over)",
           gSec, bf->peakBytes[bk] / 1048576.0,
           bfit ? "" : " (over)", bf->recomputeSeconds[bk],
           s.peakBytes / 1048576.0, s.feasible ? "" : " (over)",
           s.recomputeSeconds,
           s.optimal ? (s.feasible ? "optimal" : "none fits") : "limit",
           (long)s.rounds, (long)s.cuts, s.seconds,
           isnan(gg) ? "n/a " : "", isnan(gg) ? 0 : 100 * gg,
           isnan(bg) ? "n/a " : "", isnan(bg) ? 0 : 100 * bg);
    if (b.peak) {
      double best = -1;
      for (long k = 0; k < (1L << b.n); ++k)
        if (b.peak[k] <= budget && (best < 0 || b.cost[k] < best))
          best = b.cost[k];
      int agree = s.optimal && (best < 0 ? !s.feasible
                                         : s.feasible &&
                                               fabs(best - s.recomputeSeconds) <=
                                                   1e-9 * best + 1e-15);
      printf(" %.4g%s |", best, agree ? "" : " (DIFFERS)");
      if (!agree && s.optimal)
        rc = 1;
    }
    printf("\n");
    fflush(stdout);
  }
  printf("\nsummary %s: %d budgets, ilp optimal at %d; greedy gap mean %.2f%% "
         "max %.2f%% over %d budgets where greedy fits; beam gap max %.2f%%\n",
         path, nrun, nopt, ngap ? 100 * sumGap / ngap : 0.0, 100 * maxGap,
         ngap, 100 * maxBeam);
  free(b.peak);
  free(b.cost);
done:
  acBeamFrontDestroy(bf);
  acTrajectoryDestroy(t);
  acPlanDestroy(p);
  free(s0);
  acImportDestroy(imp);
  mlirOperationDestroy(module);
  return rc;
}

int main(int argc, char **argv) {
  int nb = 20, width = 0, brute = 0, rc = 0;
  double tlim = 10;
  MlirContext ctx = acContextCreate();
  const AcDevice *dev = acDeviceLookup("h100");
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--budgets") && i + 1 < argc)
      nb = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--time") && i + 1 < argc)
      tlim = atof(argv[++i]);
    else if (!strcmp(argv[i], "--width") && i + 1 < argc)
      width = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--brute"))
      brute = 1;
    else
      rc |= run(argv[i], nb < 2 ? 2 : nb, tlim, width, brute, dev, ctx);
  }
  mlirContextDestroy(ctx);
  return rc;
}
