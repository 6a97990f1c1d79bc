/* ac-e2e.c - end to end against parse + print (issue 14 item 8).
 *
 *   ac-e2e [--runs N] [--budget SIZE] [--strategy NAME] [--report] FILE.mlir
 *
 * In one process, per run and in this order:
 *  - the baseline: what `mlir-opt FILE` does without a pass, in a fresh
 *    context: parse (MLIR's parser verifies what it parsed), print to memory
 *    (MLIR's printer verifies the op again before printing it, as in
 *    mlir-opt);
 *  - autoac: what `ac-opt FILE --ac-budget=SIZE` does, in a fresh context:
 *    parse (verified by the parser), acRunOnModuleStaged (import, plan,
 *    baselines, report, rewrite: the split comes from
 *    lib/pass/stage_times.h; the split verifies its output), a verification
 *    of annotate mode's output (split mode: none, already done), print
 *    (acPrintOp: the printer is told the module is verified);
 *  - with --report, the same again with the report built (reportOut), as
 *    `--ac-report` or `--ac-summary` do.
 * Prints CPU-time medians per stage and the ratio autoac / baseline, taken
 * within each run (the two are measured back to back, so the load of a
 * shared machine mostly cancels), then the median.  Without --budget the
 * budget is halfway between greedy's lowest peak and the save-all peak
 * (as ac-bench's other strategies).  Nothing is asserted (docs/bench.md).
 * Process-wide set-up (registering dialects, passes, translations) is not
 * counted for either. */
#include "autoac/autoac.h"
#include "import/import.h"
#include "partition/partition.h"
#include "autoac/report.h"
#include "autoac/simulate.h"

#include "mlir-c/RegisterEverything.h"
#include "pass/stage_times.h"
#include "../tools/common/read_file.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_RUNS 64
#include "bench_stats.h"

static double cpuNow(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}



/* Prints into memory as mlir-opt does: through a buffered stream, MLIR's
 * printer verifying first. */
static size_t printModule(MlirOperation m) {
  AcStrBuf out = {0};
  acPrintOp(m, 0, &out);
  size_t n = out.len;
  acStrBufClear(&out);
  return n;
}

/* Prints into memory as ac-opt does: the module is verified by then. */
static size_t printVerified(MlirOperation m) {
  AcStrBuf out = {0};
  acPrintOp(m, 1, &out);
  size_t n = out.len;
  acStrBufClear(&out);
  return n;
}

/* The mid budget: halfway between greedy's lowest peak and save-all's. */
static int midBudget(const char *text, size_t len, const char *path,
                     const AcOptions *opts, int64_t *mid) {
  MlirContext ctx = acContextCreate();
  MlirOperation m = acParseModule(ctx, text, len, path);
  AcImport *imp = NULL;
  AcTrajectory *traj = NULL;
  AcPlan *plan = NULL;
  AcSimResult r;
  AcError err;
  int ok = 0;
  memset(&r, 0, sizeof r);
  if (mlirOperationIsNull(m) || acImportModule(m, opts->device, &imp, &err, NULL) != AC_OK)
    goto done;
  const AcGraph *g = imp->graph;
  int64_t sb = acSimStaticBytes(g, opts->optimizerFactor, opts->reserve);
  AcPlanOptions po = {AC_STRATEGY_SAVE_ALL, -1, sb, 0, 0};
  if (acGreedyTrajectory(g, sb, &traj, &err) != AC_OK || !(plan = acPlanCreate(g)) ||
      acPlanRun(g, &po, plan, &err) != AC_OK ||
      acSimulate(g, plan, sb, 0, &r, &err) != AC_OK)
    goto done;
  int64_t lo = traj->peakBytes[traj->numPlans - 1], hi = r.peakBytes;
  if (hi < lo)
    hi = lo;
  *mid = lo + (hi - lo) / 2;
  ok = 1;
done:
  acSimResultClear(&r);
  acPlanDestroy(plan);
  acTrajectoryDestroy(traj);
  acImportDestroy(imp);
  if (!mlirOperationIsNull(m))
    mlirOperationDestroy(m);
  mlirContextDestroy(ctx);
  return ok;
}

/* The median of column k of a runs x stride table. */
static double medianColumn(const double *t, size_t stride, int k, int runs) {
  double col[MAX_RUNS];
  for (int r = 0; r < runs; ++r)
    col[r] = t[(size_t)r * stride + (size_t)k];
  return median(col, runs);
}

enum { T_PARSE, T_IMPORT, T_PLAN, T_BASE, T_REPORT, T_REWRITE, T_VERIFY2,
       T_PRINT, T_TOTAL, T_COUNT };
static const char *const stageNames[T_COUNT] = {
    "parse", "import", "plan", "baselines", "report", "rewrite",
    "verify-out", "print", "total"};

/* One autoac run; fills t[T_*]. */
static int runAutoac(const char *text, size_t len, const char *path,
                     const AcOptions *opts, int wantReport, double *t, size_t *printed) {
  AcStageTimes st;
  memset(&st, 0, sizeof st);
  MlirContext ctx = acContextCreate();
  double c0 = cpuNow();
  MlirOperation m = acParseModule(ctx, text, len, path);
  double c1 = cpuNow();
  int ok = !mlirOperationIsNull(m);
  char *report = NULL;
  AcFileSet *files = acFileSetCreate();
  acStageTimes = &st;
  ok = ok && files &&
       acRunOnModuleStaged(m, opts, wantReport ? &report : NULL, files) == AC_OK;
  acStageTimes = NULL;
  double c3 = cpuNow();
  /* As ac-opt: the split verified what it left; annotate did not. */
  ok = ok && (opts->mode == AC_MODE_SPLIT || mlirOperationVerify(m));
  double c4 = cpuNow();
  if (ok)
    *printed = printVerified(m);
  double c5 = cpuNow();
  acFree(report);
  acFileSetDestroy(files); /* never committed: nothing is written */
  if (!mlirOperationIsNull(m))
    mlirOperationDestroy(m);
  mlirContextDestroy(ctx);
  t[T_PARSE] = c1 - c0;
  t[T_IMPORT] = st.import;
  t[T_PLAN] = st.plan;
  t[T_BASE] = st.baselines;
  t[T_REPORT] = st.report;
  t[T_REWRITE] = st.rewrite;
  t[T_VERIFY2] = c4 - c3;
  t[T_PRINT] = c5 - c4;
  t[T_TOTAL] = c5 - c0;
  return ok;
}

int main(int argc, char **argv) {
  int runs = 5, withReport = 0;
  const char *path = NULL, *budget = NULL, *strategy = NULL;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--runs") && i + 1 < argc)
      runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--budget") && i + 1 < argc)
      budget = argv[++i];
    else if (!strcmp(argv[i], "--strategy") && i + 1 < argc)
      strategy = argv[++i];
    else if (!strcmp(argv[i], "--report"))
      withReport = 1;
    else if (argv[i][0] != '-' && !path)
      path = argv[i];
    else
      path = NULL, i = argc;
  }
  if (!path || runs < 1 || runs > MAX_RUNS) {
    fprintf(stderr, "usage: ac-e2e [--runs N] [--budget SIZE] [--strategy NAME] "
                    "[--report] FILE.mlir\n");
    return 2;
  }
  size_t len = 0;
  char *text = acToolReadFile(path, &len);
  if (!text) {
    fprintf(stderr, "ac-e2e: cannot read %s\n", path);
    return 1;
  }
  AcOptions *opts = acOptionsCreate();
  AcError err;
  char buf[64];
  if (!opts)
    return 1;
  if (strategy && acOptionsSet(opts, "strategy", strategy, &err) != AC_OK) {
    fprintf(stderr, "ac-e2e: %s\n", err.message);
    return 2;
  }
  if (budget) {
    if (acOptionsSet(opts, "budget", budget, &err) != AC_OK) {
      fprintf(stderr, "ac-e2e: %s\n", err.message);
      return 2;
    }
  } else {
    int64_t mid;
    if (!midBudget(text, len, path, opts, &mid)) {
      fprintf(stderr, "ac-e2e: %s does not parse or import\n", path);
      return 1;
    }
    snprintf(buf, sizeof buf, "%" PRId64, mid);
    acOptionsSet(opts, "budget", buf, &err);
  }
  acFormatBytes(opts->budget, buf, sizeof buf);

  double base[MAX_RUNS][3], ac[MAX_RUNS][T_COUNT], acr[MAX_RUNS][T_COUNT];
  double ratio[MAX_RUNS], ratioR[MAX_RUNS];
  size_t basePrinted = 0, acPrinted = 0;
  for (int run = 0; run < runs; ++run) {
    /* The baseline: parse (and the parser's verification), print (and the
     * printer's). */
    MlirContext ctx = acContextCreate();
    double c0 = cpuNow();
    MlirOperation m = acParseModule(ctx, text, len, path);
    double c1 = cpuNow();
    if (mlirOperationIsNull(m)) {
      fprintf(stderr, "ac-e2e: %s does not parse or verify\n", path);
      return 1;
    }
    basePrinted = printModule(m);
    double c2 = cpuNow();
    mlirOperationDestroy(m);
    mlirContextDestroy(ctx);
    base[run][0] = c1 - c0;
    base[run][1] = c2 - c1;
    base[run][2] = c2 - c0;
    if (!runAutoac(text, len, path, opts, 0, ac[run], &acPrinted)) {
      fprintf(stderr, "ac-e2e: autoac failed on %s\n", path);
      return 1;
    }
    ratio[run] = ac[run][T_TOTAL] / base[run][2];
    if (withReport) {
      if (!runAutoac(text, len, path, opts, 1, acr[run], &acPrinted)) {
        fprintf(stderr, "ac-e2e: autoac (report) failed on %s\n", path);
        return 1;
      }
      ratioR[run] = acr[run][T_TOTAL] / base[run][2];
    }
  }
  double col[MAX_RUNS];
#define MED(arr, k) medianColumn(&arr[0][0], sizeof arr[0] / sizeof arr[0][0], k, runs)
  printf("== %s: %.1f MB of text, budget %s (%s), CPU ms, medians of %d runs\n", path,
         (double)len / 1e6, buf, acStrategyName(opts->strategy), runs);
  printf("   baseline (mlir-opt: parse, print; each verifies): parse %.1f, print %.1f "
         "(%.1f MB), total %.1f\n",
         MED(base, 0) * 1e3, MED(base, 1) * 1e3, (double)basePrinted / 1e6,
         MED(base, 2) * 1e3);
  for (int pass = 0; pass < 1 + withReport; ++pass) {
    double(*a)[T_COUNT] = pass ? acr : ac;
    printf("   autoac%s:", pass ? " with report" : "");
    for (int k = 0; k < T_COUNT; ++k) {
      for (int r = 0; r < runs; ++r)
        col[r] = a[r][k];
      printf(" %s %.1f%s", stageNames[k], median(col, runs) * 1e3,
             k + 1 < T_COUNT ? "," : "");
    }
    printf("\n   ratio%s autoac / baseline: %.3f (runs:", pass ? " with report" : "",
           median(pass ? ratioR : ratio, runs));
    for (int r = 0; r < runs; ++r)
      printf(" %.3f", (pass ? ratioR : ratio)[r]);
    printf(")\n");
  }
  printf("   printed %.1f MB (autoac) vs %.1f MB (baseline)\n", (double)acPrinted / 1e6,
         (double)basePrinted / 1e6);
  free(text);
  acOptionsDestroy(opts);
  return 0;
}
