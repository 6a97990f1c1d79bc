/* sweep.c - the Pareto sweep: N budgets x every strategy, as a table and CSV.
 *
 * Budgets are spaced evenly between the lowest peak greedy reaches (the end
 * of its trajectory) and the save-all peak.  Greedy is planned per budget
 * as the pass plans it (acGreedyPlanForBudget) and beam read off one search front
 * (acBeamChoose); save-all and mincut do not depend on the budget and are
 * planned once; knapsack and the ILP are planned per budget.  The exact ILP
 * is skipped when the min-cut set has more than AC_SWEEP_ILP_MAX_DROPPABLE
 * droppable values (its binaries; each solve also stops at its
 * deterministic node limit, AC_ILP_DEFAULT_NODES).  With a host link
 * (offload on: docs/planner.md, "Offload") a last column, "offload", is
 * what the pass plans at each budget (greedy with its floor search and the
 * offload moves); the CSV gives every row's offloaded bytes, host peak,
 * copy and stall seconds (0 without offload).  A time limit
 * (--ac-time-limit) is the whole sweep's: greedy's trajectory and beam's
 * front stop at it, each row's plans get what is left of it, and the table
 * stops at the first budget it finds passed, with a warning. */
#include "autoac/autoac.h"
#include "import/import.h"
#include "partition/partition.h"
#include "plan/greedy_internal.h"
#include "plan/plan_internal.h"
#include "autoac/report.h"
#include "autoac/simulate.h"

#include "mlir-c/Diagnostics.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define AC_SWEEP_ILP_MAX_DROPPABLE 64

typedef struct AcSweepCell {
  int64_t peak, savedBytes;
  double seconds;
  int planned;
  int64_t offloadedBytes, hostPeak; /* offload (0 without) */
  double copySeconds, stallSeconds;
} AcSweepCell;

/* A simulated plan's numbers into `cell`. */
static void acSweepFill(const AcSimResult *r, AcSweepCell *cell) {
  cell->peak = r->peakBytes;
  cell->seconds = r->recomputeSeconds;
  cell->savedBytes = r->savedBytes;
  cell->offloadedBytes = r->offloadedBytes;
  cell->hostPeak = r->hostPeakBytes;
  cell->copySeconds = r->copySeconds;
  cell->stallSeconds = r->stallSeconds;
  cell->planned = 1;
}

typedef struct AcCsv {
  char *data;
  size_t len, cap;
} AcCsv;

static AcStatus acCsvAppend(AcCsv *c, const char *line) {
  size_t n = strlen(line);
  if (c->len + n + 1 > c->cap) {
    size_t nc = c->cap ? c->cap * 2 : 4096;
    while (nc < c->len + n + 1)
      nc *= 2;
    char *q = acRealloc(c->data, nc);
    if (!q)
      return AC_ERR_NOMEM;
    c->data = q;
    c->cap = nc;
  }
  memcpy(c->data + c->len, line, n + 1);
  c->len += n;
  return AC_OK;
}

/* Seconds left before `deadline` (> 0), for AcPlanOptions.timeLimit: 0
 * (none) without one, a nanosecond once it passed. */
static double acSweepLeft(double deadline) {
  if (deadline <= 0)
    return 0;
  double left = deadline - acClockSeconds();
  return left > 1e-9 ? left : 1e-9;
}

/* Plans and simulates one strategy at one budget into `cell`; with
 * `floorSearch` (greedy), the pass's own plan: greedy, its floor search and
 * offload where the graph has a host link. */
static AcStatus acSweepPlan(const AcGraph *g, AcStrategy s, int floorSearch,
                            int64_t budget, int64_t staticBytes, double deadline,
                            AcPlan *plan, AcSweepCell *cell, AcError *err) {
  AcPlanOptions po = {s, budget, staticBytes, floorSearch, acSweepLeft(deadline)};
  AcSimResult r;
  memset(&r, 0, sizeof r);
  AcStatus st = acPlanRunSim(g, &po, plan, NULL, 0, &r, err);
  if (st == AC_OK)
    acSweepFill(&r, cell);
  acSimResultClear(&r);
  return st;
}

/* One table cell ("ok"/"over", peak, seconds, overhead) and its CSV row;
 * out of memory is an error in `err`. */
static AcStatus acSweepEmit(AcCsv *csv, int64_t budget, const char *name,
                            const AcSweepCell *cell, double stepSeconds,
                            AcError *err) {
  char line[400], ovhText[32];
  double ovh = acOverheadPercent(cell->seconds, stepSeconds);
  /* Every cell as wide as its header, whatever the value: the overhead is
     formatted first ("1.23e-05%" is 9 wide). */
  snprintf(ovhText, sizeof ovhText, "%.3g%%", ovh);
  printf(" | %-9s %14" PRId64 " %11.4g %9s", cell->peak <= budget ? "ok" : "over",
         cell->peak, cell->seconds, ovhText);
  snprintf(line, sizeof line, "%" PRId64 ",%s,%" PRId64 ",%.9g,%" PRId64
           ",%d,%.9g,%.9g,%" PRId64 ",%" PRId64 ",%.9g,%.9g\n", budget, name,
           cell->peak, cell->seconds, cell->savedBytes, cell->peak <= budget, ovh,
           stepSeconds, cell->offloadedBytes, cell->hostPeak, cell->copySeconds,
           cell->stallSeconds);
  if (acCsvAppend(csv, line) != AC_OK)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "autoac: out of memory");
  return AC_OK;
}

/* One sweep: what every row reads (the start set, greedy's trajectory,
 * beam's front, the budget-free plans' cells) and the CSV so far. */
typedef struct AcSweep {
  const AcOptions *opts;
  const AcGraph *g;
  AcPlan *plan;                         /* every cell's scratch */
  uint8_t *mincutSaved;                 /* the min-cut start set */
  AcTrajectory *traj;                   /* greedy's, to its lowest peak */
  AcBeamFront *front;                   /* beam's */
  int64_t staticBytes;
  double deadline;                      /* 0: no time limit */
  int cut;                              /* the trajectory stopped at it */
  intptr_t droppable;                   /* in the start set: the ILP's binaries */
  AcSweepCell fixed[AC_STRATEGY_COUNT]; /* save-all, mincut: budget-free */
  int64_t lo, hi;                       /* the budgets' range */
  double stepSeconds;                   /* forward + backward, cost model */
  int offload;                          /* a host link: the "offload" column */
  AcCsv csv;
  AcError err;
} AcSweep;

/* Plans what does not depend on the budget: the start set, greedy's
 * trajectory and beam's front from it, save-all and mincut; the budgets'
 * range, from the lowest peak greedy reaches to the save-all peak. */
static AcStatus acSweepSetUp(AcSweep *sw) {
  const AcGraph *g = sw->g;
  const AcOptions *opts = sw->opts;
  AcStatus st;
  if (!(sw->plan = acPlanCreate(g)))
    return acErrorSet(&sw->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "autoac: out of memory");
  sw->deadline = opts->timeLimit > 0 ? acClockSeconds() + opts->timeLimit : 0;
  if ((st = acSimStaticBytesChecked(g, opts->optimizerFactor, opts->reserve,
                                    &sw->staticBytes, &sw->err)) != AC_OK)
    return st;
  if (!(sw->mincutSaved = acMalloc((size_t)g->numValues + 1)))
    return acErrorSet(&sw->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "autoac: out of memory");
  if ((st = acPlanStartSet(g, sw->staticBytes, sw->mincutSaved, &sw->err)) != AC_OK ||
      (st = acGreedyIncrementalRun(
           g, sw->mincutSaved,
           &(AcGreedyOptions){{-1, sw->staticBytes, sw->deadline}, 0, NULL, NULL}, &sw->cut,
           &sw->traj, &sw->err)) != AC_OK ||
      (st = acBeamSearchRun(g, sw->mincutSaved,
                            &(AcBeamOptions){{-1, sw->staticBytes, sw->deadline}, 0, 0, 0},
                            &sw->front, &sw->err)) != AC_OK)
    return st;
  if ((sw->droppable = acPlanDroppableCount(g, sw->mincutSaved)) < 0)
    return acErrorSet(&sw->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "autoac: out of memory");
  if ((st = acSweepPlan(g, AC_STRATEGY_SAVE_ALL, 0, -1, sw->staticBytes, 0, sw->plan,
                        &sw->fixed[AC_STRATEGY_SAVE_ALL], &sw->err)) != AC_OK ||
      (st = acSweepPlan(g, AC_STRATEGY_MINCUT, 0, -1, sw->staticBytes, 0, sw->plan,
                        &sw->fixed[AC_STRATEGY_MINCUT], &sw->err)) != AC_OK)
    return st;
  sw->lo = sw->traj->peakBytes[sw->traj->numPlans - 1];
  sw->hi = sw->fixed[AC_STRATEGY_SAVE_ALL].peak;
  if (sw->hi < sw->lo)
    sw->hi = sw->lo;
  return AC_OK;
}

/* The step's seconds line and the table's header on stdout, the CSV's
 * header.  Recompute seconds are also shown as a share of the estimated
 * step (forward + backward, acGraphStepSeconds). */
static AcStatus acSweepHeader(AcSweep *sw) {
  const AcOptions *opts = sw->opts;
  sw->stepSeconds = acGraphStepSeconds(sw->g, NULL);
  printf("step (forward + backward, cost model on %s): %.4g s; ovh%% = "
         "recompute seconds / step seconds\n",
         opts->device ? opts->device->name : "h100", sw->stepSeconds);
  printf("%-14s", "budget");
  sw->offload = sw->g->hostBandwidth > 0;
  for (int s = 0; s < AC_STRATEGY_COUNT + sw->offload; ++s)
    printf(" | %-9s %14s %11s %9s",
           s < AC_STRATEGY_COUNT ? acStrategyName((AcStrategy)s) : "offload", "peak",
           "recomp_s", "ovh%");
  printf("\n");
  if (acCsvAppend(&sw->csv, "budget_bytes,strategy,peak_bytes,recompute_seconds,"
                            "saved_bytes,feasible,recompute_overhead_percent,"
                            "step_seconds,offloaded_bytes,host_peak_bytes,"
                            "copy_seconds,stall_seconds\n") != AC_OK)
    return acErrorSet(&sw->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "autoac: out of memory");
  return AC_OK;
}

/* Strategy s's cell at `budget`: greedy as the pass plans it (the
 * trajectory until a plan fits, and the budget's last drop:
 * acGreedyPlanForBudget), beam read off the front, save-all and mincut
 * from set-up, the rest planned; *skipped for the ILP above its bound. */
static AcStatus acSweepCellAt(AcSweep *sw, AcStrategy s, int64_t budget,
                              AcSweepCell *cell, int *skipped) {
  const AcGraph *g = sw->g;
  AcStatus st = AC_OK;
  *cell = sw->fixed[s];
  *skipped = 0;
  if (s == AC_STRATEGY_GREEDY) {
    AcTrajectory *bt = NULL;
    if ((st = acGreedyPlanForBudgetRun(
             g, sw->mincutSaved,
             &(AcGreedyOptions){{budget, sw->staticBytes, sw->deadline}, 0, NULL, NULL}, NULL,
             sw->plan, &bt, &sw->err)) != AC_OK)
      return st;
    intptr_t k = acTrajectoryChoose(bt, budget);
    int refined = bt->refinedDrop != AC_NONE;
    cell->peak = refined ? bt->refinedPeakBytes : bt->peakBytes[k];
    cell->seconds = refined ? bt->refinedRecomputeSeconds : bt->recomputeSeconds[k];
    cell->savedBytes = acPlanSavedBytes(g, sw->plan);
    cell->planned = 1;
    acTrajectoryDestroy(bt);
  } else if (s == AC_STRATEGY_BEAM) {
    intptr_t k = acBeamChoose(sw->front, budget);
    if ((st = acBeamPlan(g, sw->front, k, sw->plan, &sw->err)) != AC_OK)
      return st;
    cell->peak = sw->front->peakBytes[k];
    cell->seconds = sw->front->recomputeSeconds[k];
    cell->savedBytes = acPlanSavedBytes(g, sw->plan);
    cell->planned = 1;
  } else if (!cell->planned) {
    if (!strcmp(acStrategyName(s), "ilp") &&
        sw->droppable > AC_SWEEP_ILP_MAX_DROPPABLE) {
      *skipped = 1;
      return AC_OK;
    }
    st = acSweepPlan(g, s, 0, budget, sw->staticBytes, sw->deadline, sw->plan,
                     cell, &sw->err);
  }
  return st;
}

/* One row of the table at `budget`: every strategy's cell, then with a
 * host link what the pass plans (greedy, its floor search, offload). */
static AcStatus acSweepRow(AcSweep *sw, int64_t budget) {
  AcStatus st;
  printf("%-14" PRId64, budget);
  for (int s = 0; s < AC_STRATEGY_COUNT; ++s) {
    AcSweepCell cell;
    int skipped;
    if ((st = acSweepCellAt(sw, (AcStrategy)s, budget, &cell, &skipped)) != AC_OK)
      return st;
    if (skipped) {
      printf(" | %-9s %14s %11s %9s", "skipped", "-", "-", "-");
      continue;
    }
    if ((st = acSweepEmit(&sw->csv, budget, acStrategyName((AcStrategy)s), &cell,
                          sw->stepSeconds, &sw->err)) != AC_OK)
      return st;
  }
  if (sw->offload) {
    AcSweepCell cell;
    memset(&cell, 0, sizeof cell);
    if ((st = acSweepPlan(sw->g, AC_STRATEGY_GREEDY, 1, budget, sw->staticBytes,
                          sw->deadline, sw->plan, &cell, &sw->err)) != AC_OK ||
        (st = acSweepEmit(&sw->csv, budget, "offload", &cell, sw->stepSeconds,
                          &sw->err)) != AC_OK)
      return st;
  }
  printf("\n");
  return AC_OK;
}

AcStatus acRunSweep(MlirOperation module, const AcOptions *opts) {
  AcImport *imp = NULL;
  AcSweep sw;
  MlirLocation loc = mlirOperationGetLocation(module);
  memset(&sw, 0, sizeof sw);
  sw.opts = opts;
  acErrorClear(&sw.err);
  AcStatus st = acImportForOptions(module, opts, &imp);
  if (st != AC_OK)
    goto cleanup;
  sw.g = imp->graph;
  if (sw.g->numFuncs == 0) {
    st = AC_ERR_INVALID;
    mlirEmitError(loc, "autoac: --ac-sweep needs at least one ac.joint function");
    goto cleanup;
  }
  if ((st = acSweepSetUp(&sw)) != AC_OK || (st = acSweepHeader(&sw)) != AC_OK)
    goto fail;
  int rows = 0;
  for (; rows < opts->sweep; ++rows) {
    if (sw.deadline > 0 && acClockSeconds() >= sw.deadline)
      break; /* the rows so far, and a warning below */
    int64_t budget = sw.lo + (int64_t)((double)(sw.hi - sw.lo) * rows /
                                       (opts->sweep - 1));
    if ((st = acSweepRow(&sw, budget)) != AC_OK)
      goto fail;
  }
  if (sw.deadline > 0 && (rows < opts->sweep || sw.cut || sw.front->limited)) {
    char msg[256];
    snprintf(msg, sizeof msg,
             "autoac: the time limit (%g s) passed: the sweep stops after %d of "
             "%d budgets (each planned with what was left of it: the last "
             "one's plans may be cut short)",
             opts->timeLimit, rows, opts->sweep);
    acEmitDiagnostic(loc, 1, msg);
  }
  if (opts->sweepCsv &&
      (st = acWriteFileAtomic(opts->sweepCsv, sw.csv.data, sw.csv.len, &sw.err)) != AC_OK)
    goto fail;
  goto cleanup;
fail:
  mlirEmitError(loc, sw.err.message);
cleanup:
  acFree(sw.csv.data);
  acFree(sw.mincutSaved);
  acBeamFrontDestroy(sw.front);
  acTrajectoryDestroy(sw.traj);
  acPlanDestroy(sw.plan);
  acImportDestroy(imp);
  return st;
}
