/* entry.c - the pass's entry points (autoac.h): buckets or one plan.  The
 * top of lib/pass's arrows (pass/pass.h): this chooses, buckets.c plans
 * per bucket, pass.c is the one-plan body under both. */
#include "autoac/autoac.h"
#include "autoac/report.h"
#include "pass/buckets.h"
#include "pass/pass.h"

#include "mlir-c/Diagnostics.h"

#include <stddef.h>

AcStatus acRunOnModule(MlirOperation module, const AcOptions *opts) {
  return acRunOnModuleWithReport(module, opts, NULL);
}

AcStatus acRunOnModuleWithReport(MlirOperation module, const AcOptions *opts,
                                 char **reportOut) {
  AcFileSet *files = acFileSetCreate();
  AcError err;
  AcStatus st;
  if (reportOut)
    *reportOut = NULL;
  if (!files) {
    mlirEmitError(mlirOperationGetLocation(module), "autoac: out of memory");
    return AC_ERR_NOMEM;
  }
  st = acRunOnModuleStaged(module, opts, reportOut, files);
  acErrorClear(&err);
  if (st == AC_OK && (st = acFileSetCommit(files, &err)) != AC_OK) {
    mlirEmitError(mlirOperationGetLocation(module), err.message);
    if (reportOut) {
      acFree(*reportOut);
      *reportOut = NULL;
    }
  }
  acFileSetDestroy(files);
  return st;
}

AcStatus acRunOnModuleStaged(MlirOperation module, const AcOptions *opts,
                             char **reportOut, AcFileSet *files) {
  if (reportOut)
    *reportOut = NULL;
  if (opts->buckets)
    return acRunBuckets(module, opts, reportOut, files);
  return acRunSinglePlan(module, opts, reportOut, files);
}
