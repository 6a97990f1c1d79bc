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

/* What the command line sets for every file. */
typedef struct GapOptions {
  int nb;             /* budgets (at least 2) */
  double tlim;        /* the ILP's time limit per budget, seconds */
  int width;          /* beam width (0: its default) */
  int brute;          /* --brute */
  const AcDevice *dev;
} GapOptions;

/* One file's run: the searches every budget reads and the totals. */
typedef struct Gap {
  const char *path;
  const GapOptions *o;
  const AcGraph *g;
  int64_t staticB;
  uint8_t *s0;        /* the min-cut save set */
  AcPlan *p;          /* scratch */
  AcTrajectory *t;    /* greedy's */
  AcBeamFront *bf;    /* beam's */
  AcIlpOptions io;    /* each budget's ILP */
  int64_t hi, span;   /* S0's peak; it less the lowest greedy or beam reach */
  Brute b;            /* --brute: every plan's peak and cost, or none */
  double maxGap, sumGap, maxBeam;
  int ngap, nopt, nrun;
  int rc;             /* 1 once the ILP and brute force disagree */
  AcError err;
} Gap;

/* S0, greedy's trajectory and beam's front, the ILP's binaries counted,
 * and the file's header line; 0, or 1 after saying why. */
static int searches(Gap *x) {
  const AcGraph *g = x->g;
  if (acMincutSaveSet(g, x->s0, &x->err) != AC_OK) {
    fprintf(stderr, "optgap: %s\n", x->err.message);
    return 1;
  }
  double t0 = now();
  if (acGreedyTrajectoryFrom(g, x->s0, x->staticB, &x->t, &x->err) != AC_OK) {
    fprintf(stderr, "optgap: %s\n", x->err.message);
    return 1;
  }
  double tg = now() - t0;
  t0 = now();
  if (acBeamSearch(g, x->s0, x->staticB, x->o->width, &x->bf, &x->err) != AC_OK) {
    fprintf(stderr, "optgap: %s\n", x->err.message);
    return 1;
  }
  double tb = now() - t0;
  /* The droppable values, as the ILP sees them. */
  AcIlpStats st0;
  /* (A budget nothing fits, one round: only to count the binaries.) */
  (void)acIlpFrom(g, x->s0, &(AcIlpOptions){{0, x->staticB, 0}, 0, 1, 0}, x->p, &st0, NULL);
  const AcTrajectory *t = x->t;
  const AcBeamFront *bf = x->bf;
  int64_t lo = t->peakBytes[t->numPlans - 1];
  if (bf->peakBytes[bf->numPlans - 1] < lo)
    lo = bf->peakBytes[bf->numPlans - 1];
  x->hi = t->peakBytes[0];
  x->span = x->hi - lo;
  printf("\n### %s\n\n", x->path);
  printf("%ld ops, %ld droppable min-cut saves; min-cut peak %.2f MiB, "
         "greedy lowest %.2f MiB (%ld drops, %.3f s), beam lowest %.2f MiB "
         "(front %ld plans, %ld simulations, %.3f s)\n\n",
         (long)g->numOps, (long)st0.candidates, x->hi / 1048576.0,
         t->peakBytes[t->numPlans - 1] / 1048576.0, (long)t->numPlans - 1, tg,
         bf->peakBytes[bf->numPlans - 1] / 1048576.0, (long)bf->numPlans,
         (long)bf->simulations, tb);
  return 0;
}

/* --brute: every plan of the space simulated into x->b (at most 22
 * droppable values; more: said, and skipped).  0, or 1 when a plan does
 * not simulate. */
static int bruteSetUp(Gap *x) {
  AcId vars[32];
  int n = 0;
  for (AcId v = 0; v < x->g->numValues; ++v)
    if (droppable(x->g, x->s0, v)) {
      if (n == 22) {
        n = 23;
        break;
      }
      vars[n++] = v;
    }
  if (n > 22) {
    fprintf(stderr, "optgap: --brute: more than 22 droppable values\n");
    return 0;
  }
  double t0 = now();
  if (!bruteForce(x->g, x->s0, x->staticB, vars, n, &x->b)) {
    fprintf(stderr, "optgap: --brute: a plan did not simulate\n");
    return 1;
  }
  printf("brute force: %ld plans in %.1f s\n\n", 1L << n, now() - t0);
  return 0;
}

/* The brute-force column at `budget`: the cheapest plan that fits, and
 * whether the ILP agrees (x->rc set when an optimal ILP does not). */
static void bruteCell(Gap *x, int64_t budget, const AcIlpStats *s) {
  double best = -1;
  for (long k = 0; k < (1L << x->b.n); ++k)
    if (x->b.peak[k] <= budget && (best < 0 || x->b.cost[k] < best))
      best = x->b.cost[k];
  int agree = s->optimal && (best < 0 ? !s->feasible
                                      : s->feasible &&
                                            fabs(best - s->recomputeSeconds) <=
                                                1e-9 * best + 1e-15);
  printf(" %.4g%s |", best, agree ? "" : " (DIFFERS)");
  if (!agree && s->optimal)
    x->rc = 1;
}

/* One budget's row: greedy as the pass plans (the trajectory until a plan
 * fits, and the budget's last drop: acGreedyPlanForBudget), beam off its
 * front, the ILP, and the gaps (added to the totals).  0, or 1 after
 * saying why. */
static int budgetRow(Gap *x, int64_t budget) {
  const AcGraph *g = x->g;
  const AcBeamFront *bf = x->bf;
  AcTrajectory *bt = NULL;
  if (acGreedyPlanForBudget(g, x->s0, x->staticB, budget, x->p, &bt, &x->err) != AC_OK) {
    fprintf(stderr, "optgap: greedy: %s\n", x->err.message);
    return 1;
  }
  intptr_t gk0 = acTrajectoryChoose(bt, budget);
  int64_t gPeak = bt->refinedDrop != AC_NONE ? bt->refinedPeakBytes : bt->peakBytes[gk0];
  double gSec = bt->refinedDrop != AC_NONE ? bt->refinedRecomputeSeconds
                                           : bt->recomputeSeconds[gk0];
  acTrajectoryDestroy(bt);
  intptr_t bk = acBeamChoose(bf, budget);
  AcIlpStats s;
  x->io.search.budget = budget;
  if (acIlpFrom(g, x->s0, &x->io, x->p, &s, &x->err) != AC_OK) {
    fprintf(stderr, "optgap: ilp: %s\n", x->err.message);
    return 1;
  }
  ++x->nrun;
  int gfit = gPeak <= budget, bfit = bf->peakBytes[bk] <= budget;
  double gg = NAN, bg = NAN;
  if (s.optimal)
    ++x->nopt;
  if (s.optimal && s.feasible && gfit) {
    gg = gapOf(gSec, s.recomputeSeconds);
    x->sumGap += gg;
    ++x->ngap;
    if (gg > x->maxGap)
      x->maxGap = gg;
  }
  if (s.optimal && s.feasible && bfit) {
    bg = gapOf(bf->recomputeSeconds[bk], s.recomputeSeconds);
    if (bg > x->maxBeam)
      x->maxBeam = bg;
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
  if (x->b.peak)
    bruteCell(x, budget, &s);
  printf("\n");
  fflush(stdout);
  return 0;
}

/* The table over the budgets, from just below S0's peak down to 2 % of
 * the span below the lowest, and the summary line; 0, or 1 after saying
 * why. */
static int budgetTable(Gap *x) {
  int nb = x->o->nb;
  printf("| budget MiB | greedy MiB | greedy s | beam MiB | beam s | ilp MiB | "
         "ilp s | ilp status | rounds | cuts | ilp time s | greedy gap | beam gap |%s\n",
         x->b.peak ? " brute s |" : "");
  printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|%s\n",
         x->b.peak ? "---|" : "");
  for (int i = 0; i < nb; ++i) {
    int64_t budget = x->hi - 1 - (int64_t)((double)(x->span * 102 / 100) * i / (nb - 1));
    if (budgetRow(x, budget) != 0)
      return 1;
  }
  printf("\nsummary %s: %d budgets, ilp optimal at %d; greedy gap mean %.2f%% "
         "max %.2f%% over %d budgets where greedy fits; beam gap max %.2f%%\n",
         x->path, x->nrun, x->nopt, x->ngap ? 100 * x->sumGap / x->ngap : 0.0,
         100 * x->maxGap, x->ngap, 100 * x->maxBeam);
  return 0;
}

static int run(const char *path, const GapOptions *o, MlirContext ctx) {
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
  Gap x;
  memset(&x, 0, sizeof x);
  if (acImportModule(module, o->dev, &imp, &x.err, NULL) != AC_OK) {
    fprintf(stderr, "optgap: %s: %s\n", path, x.err.message);
    mlirOperationDestroy(module);
    return 1;
  }
  x.path = path;
  x.o = o;
  x.g = imp->graph;
  x.staticB = acSimStaticBytes(x.g, 0.0, 0);
  x.s0 = calloc((size_t)x.g->numValues + 1, 1);
  x.p = acPlanCreate(x.g);
  /* A time limit, not the node limit: optgap measures gaps within a time. */
  x.io = (AcIlpOptions){{-1, x.staticB, 0}, o->tlim, 0, INTPTR_MAX};
  int rc = searches(&x);
  if (rc == 0 && o->brute)
    rc = bruteSetUp(&x);
  if (rc == 0)
    rc = budgetTable(&x) | x.rc;
  free(x.b.peak);
  free(x.b.cost);
  acBeamFrontDestroy(x.bf);
  acTrajectoryDestroy(x.t);
  acPlanDestroy(x.p);
  free(x.s0);
  acImportDestroy(imp);
  mlirOperationDestroy(module);
  return rc;
}

int main(int argc, char **argv) {
  GapOptions o = {20, 10, 0, 0, NULL};
  int nb = 20, rc = 0;
  MlirContext ctx = acContextCreate();
  o.dev = acDeviceLookup("h100");
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--budgets") && i + 1 < argc)
      nb = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--time") && i + 1 < argc)
      o.tlim = atof(argv[++i]);
    else if (!strcmp(argv[i], "--width") && i + 1 < argc)
      o.width = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--brute"))
      o.brute = 1;
    else {
      o.nb = nb < 2 ? 2 : nb;
      rc |= run(argv[i], &o, ctx);
    }
  }
  mlirContextDestroy(ctx);
  return rc;
}
