/* optgap.c - greedy's and beam's distance to the exact optimum (the ilp
 * strategy) over a sweep of budgets, on MLIR joint graphs.
 *
 *   optgap [--budgets N] [--time SECONDS] [--width W] [--brute [--threads T]]
 *          FILE.mlir...
 *
 * For each file: the min-cut save set S0, greedy's trajectory, the beam
 * front, then N budgets from just below S0's peak down to just below the
 * lowest peak greedy or beam reach; at each, the recompute seconds of the
 * greedy, beam and ILP plans and greedy's and beam's gap to the ILP.  With
 * --brute (at most 26 droppable values) every plan of the space is
 * simulated as well, on T threads (default: the cores), into its exact
 * front: the exact floor beside greedy's and beam's lowest, and the ILP
 * checked against the front at every budget.  Prints a markdown
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
#include <pthread.h>
#include <time.h>
#include <unistd.h>

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

/* The exact front of a plan space: the (peak, recompute seconds) of the
 * plans no other plan beats on both.  Invariant after frontPrune: peaks
 * strictly ascending, costs strictly descending; between prunes the
 * arrays also hold points not yet compared. */
typedef struct Front {
  intptr_t n, cap;
  int64_t *peak;
  double *cost;
} Front;

static int pointCmp(const void *a, const void *b) {
  const struct { int64_t peak; double cost; } *x = a, *y = b;
  if (x->peak != y->peak)
    return x->peak < y->peak ? -1 : 1;
  return x->cost < y->cost ? -1 : x->cost > y->cost;
}

/* Keeps the non-dominated points of f, in the invariant's order. */
static int frontPrune(Front *f) {
  struct { int64_t peak; double cost; } *pt = malloc(sizeof *pt * (size_t)(f->n + 1));
  if (!pt)
    return 0;
  for (intptr_t i = 0; i < f->n; ++i) {
    pt[i].peak = f->peak[i];
    pt[i].cost = f->cost[i];
  }
  qsort(pt, (size_t)f->n, sizeof *pt, pointCmp);
  intptr_t k = 0;
  for (intptr_t i = 0; i < f->n; ++i)
    if (k == 0 || pt[i].cost < f->cost[k - 1]) {
      f->peak[k] = pt[i].peak;
      f->cost[k++] = pt[i].cost;
    }
  f->n = k;
  free(pt);
  return 1;
}

/* Adds one plan's point; prunes (and grows when pruning leaves it more
 * than half full) once full.  0 when out of memory. */
static int frontAdd(Front *f, int64_t peak, double cost) {
  if (f->n == f->cap) {
    if (f->cap && !frontPrune(f))
      return 0;
    if (2 * f->n >= f->cap) {
      intptr_t cap = f->cap ? 2 * f->cap : 1024;
      int64_t *p = realloc(f->peak, sizeof *p * (size_t)cap);
      if (p)
        f->peak = p;
      double *c = realloc(f->cost, sizeof *c * (size_t)cap);
      if (c)
        f->cost = c;
      if (!p || !c)
        return 0;
      f->cap = cap;
    }
  }
  f->peak[f->n] = peak;
  f->cost[f->n++] = cost;
  return 1;
}

static void frontClear(Front *f) {
  free(f->peak);
  free(f->cost);
  memset(f, 0, sizeof *f);
}

enum { BRUTE_MAX = 26, BRUTE_THREADS = 16 };

/* One thread's share of the masks: every `stride`-th from `first`. */
typedef struct BruteJob {
  const AcGraph *g;
  const uint8_t *s0;
  int64_t staticB;
  const AcId *vars;
  int n;
  long first, stride;
  Front f;
  int ok;
} BruteJob;

static void *bruteRun(void *arg) {
  BruteJob *j = arg;
  const AcGraph *g = j->g;
  AcPlan *p = acPlanCreate(g);
  j->ok = p != NULL;
  for (long m = j->first; j->ok && m < (1L << j->n); m += j->stride) {
    memcpy(p->saved, j->s0, (size_t)g->numValues);
    for (int k = 0; k < j->n; ++k)
      if (m >> k & 1)
        p->saved[j->vars[k]] = 0;
    AcSimResult r;
    if (acPlanDerive(g, p, NULL) != AC_OK ||
        acSimulate(g, p, j->staticB, 0, &r, NULL) != AC_OK) {
      j->ok = 0;
      break;
    }
    j->ok = frontAdd(&j->f, r.peakBytes, r.recomputeSeconds);
    acSimResultClear(&r);
  }
  acPlanDestroy(p);
  return NULL;
}

/* Every subset of the droppable values of s0 simulated, on `threads`
 * threads, into their exact front `out`.  0 when a plan does not simulate
 * or memory runs out. */
static int bruteForce(const AcGraph *g, const uint8_t *s0, int64_t staticB,
                      const AcId *vars, int n, int threads, Front *out) {
  BruteJob job[BRUTE_THREADS];
  pthread_t tid[BRUTE_THREADS];
  int joined[BRUTE_THREADS], ok = 1;
  for (int t = 0; t < threads; ++t) {
    job[t] = (BruteJob){g, s0, staticB, vars, n, t, threads, {0, 0, NULL, NULL}, 0};
    joined[t] = pthread_create(&tid[t], NULL, bruteRun, &job[t]) == 0;
    if (!joined[t])
      bruteRun(&job[t]); /* no thread: this one does its share */
  }
  for (int t = 0; t < threads; ++t) {
    if (joined[t])
      pthread_join(tid[t], NULL);
    ok &= job[t].ok;
    for (intptr_t i = 0; ok && i < job[t].f.n; ++i)
      ok = frontAdd(out, job[t].f.peak[i], job[t].f.cost[i]);
    frontClear(&job[t].f);
  }
  return ok && frontPrune(out);
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
  int threads;        /* --brute's threads (--threads; default: the cores) */
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
  Front b;            /* --brute: the exact front, or none (b.n == 0) */
  double maxGap, sumGap, maxBeam, maxIlp;
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

/* --brute: every plan of the space simulated into x->b's exact front (at
 * most BRUTE_MAX droppable values; more: said, and skipped), its floor
 * beside greedy's and beam's lowest and the table's span reaching it.  0,
 * or 1 when a plan does not simulate or a search's lowest is below the
 * exact floor (impossible: their plans are in the space). */
static int bruteSetUp(Gap *x) {
  AcId vars[BRUTE_MAX];
  int n = 0;
  for (AcId v = 0; v < x->g->numValues; ++v)
    if (droppable(x->g, x->s0, v)) {
      if (n == BRUTE_MAX) {
        fprintf(stderr, "optgap: --brute: more than %d droppable values\n", BRUTE_MAX);
        return 0;
      }
      vars[n++] = v;
    }
  double t0 = now();
  if (!bruteForce(x->g, x->s0, x->staticB, vars, n, x->o->threads, &x->b)) {
    fprintf(stderr, "optgap: --brute: a plan did not simulate, or out of memory\n");
    frontClear(&x->b);
    return 1;
  }
  int64_t floor = x->b.peak[0];
  int64_t gLo = x->t->peakBytes[x->t->numPlans - 1];
  int64_t bLo = x->bf->peakBytes[x->bf->numPlans - 1];
  printf("brute force: %ld plans in %.1f s on %d threads, exact front %ld plans; "
         "exact floor %.4f MiB, greedy's lowest %+.2f%%, beam's %+.2f%%\n\n",
         1L << n, now() - t0, x->o->threads, (long)x->b.n, floor / 1048576.0,
         100.0 * (double)(gLo - floor) / (double)floor,
         100.0 * (double)(bLo - floor) / (double)floor);
  if (x->hi - floor > x->span)
    x->span = x->hi - floor;
  if (gLo < floor || bLo < floor) {
    fprintf(stderr, "optgap: a search's lowest peak is below the exact floor\n");
    return 1;
  }
  return 0;
}

/* The exact answer at `budget` from the brute-force front: the cheapest
 * plan that fits (the front's last point at or under it), -1 when none
 * does. */
static double bruteBest(const Gap *x, int64_t budget) {
  double best = -1;
  for (intptr_t k = 0; k < x->b.n && x->b.peak[k] <= budget; ++k)
    best = x->b.cost[k];
  return best;
}

/* Whether the ILP's answer is consistent with the exact `best`: equal when
 * it says optimal, never below it (nor fitting where nothing does) when
 * it stopped at its limit. */
static int ilpAgrees(const AcIlpStats *s, double best) {
  double tol = 1e-9 * best + 1e-15;
  if (best < 0)
    return !s->feasible;
  if (s->optimal)
    return s->feasible && fabs(best - s->recomputeSeconds) <= tol;
  return !s->feasible || s->recomputeSeconds >= best - tol;
}

/* One plan's gap to `exact` (NAN: unknown or nothing fits), added to a
 * running maximum (and, for greedy, the mean). */
static double gapTo(int fits, double sec, double exact, double *max) {
  if (!fits || isnan(exact) || exact < 0)
    return NAN;
  double gap = gapOf(sec, exact);
  if (gap > *max)
    *max = gap;
  return gap;
}

static const char *na(double gap) { return isnan(gap) ? "n/a " : ""; }
static double pct(double gap) { return isnan(gap) ? 0 : 100 * gap; }

/* One budget's row: greedy as the pass plans (the trajectory until a plan
 * fits, and the budget's last drop: acGreedyPlanForBudget), beam off its
 * front, the ILP, and the gaps (added to the totals) to the exact answer:
 * brute force's with --brute (the ILP's gap as well, and x->rc set when
 * the ILP contradicts it), else the ILP's where it proved optimal.  0, or
 * 1 after saying why. */
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
  x->nopt += s.optimal;
  double brute = x->b.n ? bruteBest(x, budget) : NAN;
  double exact = x->b.n ? brute : s.optimal ? (s.feasible ? s.recomputeSeconds : -1) : NAN;
  int gfit = gPeak <= budget, bfit = bf->peakBytes[bk] <= budget;
  double gg = gapTo(gfit, gSec, exact, &x->maxGap);
  double bg = gapTo(bfit, bf->recomputeSeconds[bk], exact, &x->maxBeam);
  double ig = x->b.n ? gapTo(s.feasible, s.recomputeSeconds, exact, &x->maxIlp) : NAN;
  if (!isnan(gg)) {
    x->sumGap += gg;
    ++x->ngap;
  }
  printf("| %.3f | %.3f%s | %.4g | %.3f%s | %.4g | %.3f%s | %.4g | %s | %ld | "
         "%ld | %.3f | %s%.2f%% | %s%.2f%% |",
         budget / 1048576.0, gPeak / 1048576.0, gfit ? "" : " (over)",
         gSec, bf->peakBytes[bk] / 1048576.0,
         bfit ? "" : " (over)", bf->recomputeSeconds[bk],
         s.peakBytes / 1048576.0, s.feasible ? "" : " (over)",
         s.recomputeSeconds,
         s.optimal ? (s.feasible ? "optimal" : "none fits") : "limit",
         (long)s.rounds, (long)s.cuts, s.seconds, na(gg), pct(gg), na(bg), pct(bg));
  if (x->b.n) {
    int agree = ilpAgrees(&s, brute);
    printf(" %s%.2f%% | %.4g%s |", na(ig), pct(ig), brute, agree ? "" : " (DIFFERS)");
    x->rc |= !agree;
  }
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
         x->b.n ? " ilp gap | brute s |" : "");
  printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|%s\n",
         x->b.n ? "---|---|" : "");
  /* With --brute, a row at the exact floor too, where greedy stops above
     it: the budgets only the exact search fits. */
  int64_t floorRow = x->b.n && x->b.peak[0] < x->t->peakBytes[x->t->numPlans - 1]
                         ? x->b.peak[0] : -1;
  for (int i = 0; i < nb; ++i) {
    int64_t budget = x->hi - 1 - (int64_t)((double)(x->span * 102 / 100) * i / (nb - 1));
    if (floorRow >= budget) {
      if (floorRow > budget && budgetRow(x, floorRow) != 0)
        return 1;
      floorRow = -1;
    }
    if (budgetRow(x, budget) != 0)
      return 1;
  }
  printf("\nsummary %s: %d budgets, ilp optimal at %d; gaps to %s: greedy mean "
         "%.2f%% max %.2f%% over %d budgets where greedy fits; beam max %.2f%%",
         x->path, x->nrun, x->nopt, x->b.n ? "brute force" : "the optimal ilp",
         x->ngap ? 100 * x->sumGap / x->ngap : 0.0, 100 * x->maxGap, x->ngap,
         100 * x->maxBeam);
  if (x->b.n)
    printf("; ilp max %.2f%%", 100 * x->maxIlp);
  printf("\n");
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
  frontClear(&x.b);
  acBeamFrontDestroy(x.bf);
  acTrajectoryDestroy(x.t);
  acPlanDestroy(x.p);
  free(x.s0);
  acImportDestroy(imp);
  mlirOperationDestroy(module);
  return rc;
}

int main(int argc, char **argv) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  GapOptions o = {20, 10, 0, 0, cores > 0 ? (int)cores : 1, NULL};
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
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      o.threads = atoi(argv[++i]);
    else {
      o.nb = nb < 2 ? 2 : nb;
      o.threads = o.threads < 1 ? 1 : o.threads > BRUTE_THREADS ? BRUTE_THREADS : o.threads;
      rc |= run(argv[i], &o, ctx);
    }
  }
  mlirContextDestroy(ctx);
  return rc;
}
