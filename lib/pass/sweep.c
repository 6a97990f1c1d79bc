/* sweep.c - the Pareto sweep: N budgets x every strategy, as a table and CSV. */
#include "autoac/autoac.h"
#include "autoac/import.h"
#include "autoac/report.h"
#include "autoac/simulate.h"

#include "mlir-c/Diagnostics.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

AcStatus acRunSweep(MlirOperation module, const AcOptions *opts) {
  AcImport *imp = NULL;
  AcPlan *plan = NULL;
  AcError err;
  MlirLocation loc = mlirOperationGetLocation(module);
  AcStatus st;
  char *csv = NULL;
  size_t csvLen = 0, csvCap = 0;
  acErrorClear(&err);
  st = acImportModule(module, opts->device, &imp, &err, &loc);
  if (st != AC_OK) {
    mlirEmitError(loc, err.message);
    goto cleanup;
  }
  const AcGraph *g = imp->graph;
  if (g->numFuncs == 0) {
    st = AC_ERR_INVALID;
    mlirEmitError(loc, "autoac: --ac-sweep needs at least one ac.joint function");
    goto cleanup;
  }
  plan = acPlanCreate(g);
  if (!plan) {
    st = AC_ERR_NOMEM;
    mlirEmitError(loc, "autoac: out of memory");
    goto cleanup;
  }
  int64_t staticBytes = acSimStaticBytes(g, opts->optimizerFactor, opts->reserve);
  int64_t lo = 0, hi = 0;
  for (int pass = 0; pass < 2; ++pass) {
    AcPlanOptions po = {pass ? AC_STRATEGY_SAVE_ALL : AC_STRATEGY_GREEDY, pass ? -1 : 0,
                        staticBytes};
    AcSimResult r;
    memset(&r, 0, sizeof r);
    st = acPlanRun(g, &po, plan, &err);
    if (st == AC_OK)
      st = acSimulate(g, plan, staticBytes, 0, &r, &err);
    *(pass ? &hi : &lo) = r.peakBytes;
    acSimResultClear(&r);
    if (st != AC_OK) {
      mlirEmitError(loc, err.message);
      goto cleanup;
    }
  }
  if (hi < lo)
    hi = lo;
  printf("%-14s", "budget");
  for (int s = 0; s < AC_STRATEGY_COUNT; ++s)
    printf(" | %-9s %14s %11s", acStrategyName((AcStrategy)s), "peak", "recomp_s");
  printf("\n");
#define AC_CSV(...)                                                            \
  do {                                                                         \
    char line_[512];                                                           \
    int n_ = snprintf(line_, sizeof line_, __VA_ARGS__);                       \
    if (csvLen + (size_t)n_ + 1 > csvCap) {                                    \
      size_t nc_ = csvCap ? csvCap * 2 : 4096;                                 \
      while (nc_ < csvLen + (size_t)n_ + 1)                                    \
        nc_ *= 2;                                                              \
      char *q_ = acRealloc(csv, nc_);                                          \
      if (!q_) {                                                               \
        st = AC_ERR_NOMEM;                                                     \
        mlirEmitError(loc, "autoac: out of memory");                           \
        goto cleanup;                                                          \
      }                                                                        \
      csv = q_;                                                                \
      csvCap = nc_;                                                            \
    }                                                                          \
    memcpy(csv + csvLen, line_, (size_t)n_ + 1);                               \
    csvLen += (size_t)n_;                                                      \
  } while (0)
  AC_CSV("budget_bytes,strategy,peak_bytes,recompute_seconds,saved_bytes,feasible\n");
  for (int i = 0; i < opts->sweep; ++i) {
    int64_t budget = lo + (int64_t)((double)(hi - lo) * i / (opts->sweep - 1));
    printf("%-14" PRId64, budget);
    for (int s = 0; s < AC_STRATEGY_COUNT; ++s) {
      AcPlanOptions po = {(AcStrategy)s, budget, staticBytes};
      AcSimResult r;
      memset(&r, 0, sizeof r);
      st = acPlanRun(g, &po, plan, &err);
      if (st == AC_OK)
        st = acSimulate(g, plan, staticBytes, 0, &r, &err);
      if (st != AC_OK) {
        acSimResultClear(&r);
        mlirEmitError(loc, err.message);
        goto cleanup;
      }
      printf(" | %-9s %14" PRId64 " %11.4g", r.peakBytes <= budget ? "ok" : "over",
             r.peakBytes, r.recomputeSeconds);
      AC_CSV("%" PRId64 ",%s,%" PRId64 ",%.9g,%" PRId64 ",%d\n", budget,
             acStrategyName((AcStrategy)s), r.peakBytes, r.recomputeSeconds,
             r.savedBytes, r.peakBytes <= budget);
      acSimResultClear(&r);
    }
    printf("\n");
  }
#undef AC_CSV
  if (opts->sweepCsv && (st = acWriteFileAtomic(opts->sweepCsv, csv, csvLen, &err)) != AC_OK)
    mlirEmitError(loc, err.message);
cleanup:
  acFree(csv);
  acPlanDestroy(plan);
  acImportDestroy(imp);
  return st;
}
