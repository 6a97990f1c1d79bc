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

/* One table cell ("ok"/"over", peak, seconds, overhead) and its CSV row. */
static AcStatus acSweepEmit(AcCsv *csv, int64_t budget, const char *name,
                            const AcSweepCell *cell, double stepSeconds) {
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
  return acCsvAppend(csv, line);
}

AcStatus acRunSweep(MlirOperation module, const AcOptions *opts) {
  AcImport *imp = NULL;
  AcPlan *plan = NULL;
  AcTrajectory *traj = NULL;
  AcBeamFront *front = NULL;
  uint8_t *mincutSaved = NULL;
  AcError err;
  MlirLocation loc = mlirOperationGetLocation(module);
  AcStatus st;
  AcCsv csv = {0};
  AcSweepCell fixed[AC_STRATEGY_COUNT];
  memset(fixed, 0, sizeof fixed);
  acErrorClear(&err);
  st = acImportForOptions(module, opts, &imp);
  if (st != AC_OK)
    goto cleanup;
  const AcGraph *g = imp->graph;
  if (g->numFuncs == 0) {
    st = AC_ERR_INVALID;
    mlirEmitError(loc, "autoac: --ac-sweep needs at least one ac.joint function");
    goto cleanup;
  }
  plan = acPlanCreate(g);
  if (!plan) {
    st = acErrorSet(&err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "autoac: out of memory");
    goto fail;
  }
  int64_t staticBytes = 0;
  double deadline = opts->timeLimit > 0 ? acClockSeconds() + opts->timeLimit : 0;
  int rows = 0, cut = 0;
  if ((st = acSimStaticBytesChecked(g, opts->optimizerFactor, opts->reserve,
                                    &staticBytes, &err)) != AC_OK)
    goto fail;
  if (!(mincutSaved = acMalloc((size_t)g->numValues + 1)))
    goto nomem;
  if ((st = acPlanStartSet(g, staticBytes, mincutSaved, &err)) != AC_OK ||
      (st = acGreedyIncrementalDeadline(g, mincutSaved, staticBytes, -1, deadline,
                                        &cut, NULL, &traj, &err)) != AC_OK ||
      (st = acBeamSearchLimited(g, mincutSaved, staticBytes, 0, deadline, &front,
                                &err)) != AC_OK)
    goto fail;
  intptr_t droppable = acPlanDroppableCount(g, mincutSaved);
  if (droppable < 0)
    goto nomem;
  if ((st = acSweepPlan(g, AC_STRATEGY_SAVE_ALL, 0, -1, staticBytes, 0, plan,
                        &fixed[AC_STRATEGY_SAVE_ALL], &err)) != AC_OK ||
      (st = acSweepPlan(g, AC_STRATEGY_MINCUT, 0, -1, staticBytes, 0, plan,
                        &fixed[AC_STRATEGY_MINCUT], &err)) != AC_OK)
    goto fail;
  int64_t lo = traj->peakBytes[traj->numPlans - 1];
  int64_t hi = fixed[AC_STRATEGY_SAVE_ALL].peak;
  if (hi < lo)
    hi = lo;
  /* Recompute seconds are also shown as a share of the estimated step
     (forward + backward, acGraphStepSeconds). */
  double stepSeconds = acGraphStepSeconds(g, NULL);
  printf("step (forward + backward, cost model on %s): %.4g s; ovh%% = "
         "recompute seconds / step seconds\n",
         opts->device ? opts->device->name : "h100", stepSeconds);
  printf("%-14s", "budget");
  int offload = g->hostBandwidth > 0;
  for (int s = 0; s < AC_STRATEGY_COUNT + offload; ++s)
    printf(" | %-9s %14s %11s %9s",
           s < AC_STRATEGY_COUNT ? acStrategyName((AcStrategy)s) : "offload", "peak",
           "recomp_s", "ovh%");
  printf("\n");
  if ((st = acCsvAppend(&csv, "budget_bytes,strategy,peak_bytes,recompute_seconds,"
                              "saved_bytes,feasible,recompute_overhead_percent,"
                              "step_seconds,offloaded_bytes,host_peak_bytes,"
                              "copy_seconds,stall_seconds\n")) != AC_OK)
    goto nomem;
  for (int i = 0; i < opts->sweep; ++i) {
    if (deadline > 0 && acClockSeconds() >= deadline)
      break; /* the rows so far, and a warning below */
    int64_t budget = lo + (int64_t)((double)(hi - lo) * i / (opts->sweep - 1));
    printf("%-14" PRId64, budget);
    for (int s = 0; s < AC_STRATEGY_COUNT; ++s) {
      AcSweepCell cell = fixed[s];
      const char *name = acStrategyName((AcStrategy)s);
      if (s == AC_STRATEGY_GREEDY) {
        /* The product's plan: the trajectory until a plan fits, and the
           budget's last drop (acGreedyPlanForBudget). */
        AcTrajectory *bt = NULL;
        if ((st = acGreedyPlanForBudgetDeadline(g, mincutSaved, staticBytes, budget,
                                                deadline, NULL, NULL, plan, &bt,
                                                &err)) != AC_OK)
          goto fail;
        intptr_t k = acTrajectoryChoose(bt, budget);
        int refined = bt->refinedDrop != AC_NONE;
        cell.peak = refined ? bt->refinedPeakBytes : bt->peakBytes[k];
        cell.seconds = refined ? bt->refinedRecomputeSeconds : bt->recomputeSeconds[k];
        cell.savedBytes = acPlanSavedBytes(g, plan);
        cell.planned = 1;
        acTrajectoryDestroy(bt);
      } else if (s == AC_STRATEGY_BEAM) {
        intptr_t k = acBeamChoose(front, budget);
        if ((st = acBeamPlan(g, front, k, plan, &err)) != AC_OK)
          goto fail;
        cell.peak = front->peakBytes[k];
        cell.seconds = front->recomputeSeconds[k];
        cell.savedBytes = acPlanSavedBytes(g, plan);
        cell.planned = 1;
      } else if (!cell.planned) {
        if (!strcmp(name, "ilp") && droppable > AC_SWEEP_ILP_MAX_DROPPABLE) {
          printf(" | %-9s %14s %11s %9s", "skipped", "-", "-", "-");
          continue;
        }
        if ((st = acSweepPlan(g, (AcStrategy)s, 0, budget, staticBytes, deadline,
                              plan, &cell, &err)) != AC_OK)
          goto fail;
      }
      if ((st = acSweepEmit(&csv, budget, name, &cell, stepSeconds)) != AC_OK)
        goto nomem;
    }
    if (offload) {
      AcSweepCell cell;
      memset(&cell, 0, sizeof cell);
      if ((st = acSweepPlan(g, AC_STRATEGY_GREEDY, 1, budget, staticBytes, deadline,
                            plan, &cell, &err)) != AC_OK)
        goto fail;
      if ((st = acSweepEmit(&csv, budget, "offload", &cell, stepSeconds)) != AC_OK)
        goto nomem;
    }
    printf("\n");
    ++rows;
  }
  if (deadline > 0 && (rows < opts->sweep || cut || front->limited)) {
    char msg[256];
    snprintf(msg, sizeof msg,
             "autoac: the time limit (%g s) passed: the sweep stops after %d of "
             "%d budgets (each planned with what was left of it: the last "
             "one's plans may be cut short)",
             opts->timeLimit, rows, opts->sweep);
    acEmitDiagnostic(loc, 1, msg);
  }
  if (opts->sweepCsv &&
      (st = acWriteFileAtomic(opts->sweepCsv, csv.data, csv.len, &err)) != AC_OK)
    goto fail;
  goto cleanup;
nomem:
  st = acErrorSet(&err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "autoac: out of memory");
fail:
  mlirEmitError(loc, err.message);
cleanup:
  acFree(csv.data);
  acFree(mincutSaved);
  acBeamFrontDestroy(front);
  acTrajectoryDestroy(traj);
  acPlanDestroy(plan);
  acImportDestroy(imp);
  return st;
}
