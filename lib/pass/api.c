/* api.c - one-call entry for bindings: MLIR text in, IR + report out. */
#include "autoac/autoac.h"
#include "import/import.h"
#include "autoac/report.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <string.h>

static MlirLogicalResult acCollectDiag(MlirDiagnostic d, void *user) {
  AcStrBuf *b = user;
  MlirLocation loc = mlirDiagnosticGetLocation(d);
  char head[512];
  if (mlirLocationIsAFileLineColRange(loc)) {
    MlirStringRef f = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
    snprintf(head, sizeof head, "%.*s:%d:%d: ", (int)f.length, f.data,
             mlirLocationFileLineColRangeGetStartLine(loc),
             mlirLocationFileLineColRangeGetStartColumn(loc));
    acStrBufAppend(b, head, strlen(head));
  }
  MlirDiagnosticSeverity sev = mlirDiagnosticGetSeverity(d);
  const char *s = sev == MlirDiagnosticWarning ? "warning: "
                  : sev == MlirDiagnosticError ? "error: "
                  : sev == MlirDiagnosticNote  ? "note: " : "remark: ";
  acStrBufAppend(b, s, strlen(s));
  mlirDiagnosticPrint(d, acStrBufMlirCallback, b);
  acStrBufAppend(b, "\n", 1);
  return mlirLogicalResultSuccess();
}

MlirContext acContextCreate(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  /* Created without threading, MLIR 22's context still leaves its storage
   * uniquers (types, attributes, locations) in their thread-safe mode: a
   * thread-local cache, a reader lock and a writer lock around each of the
   * ~3 lookups per parsed op, about 4 % of a parse's instructions
   * (callgrind) and more of its time.  Saying it again reaches them. */
  mlirContextEnableMultithreading(ctx, false);
  mlirContextSetAllowUnregisteredDialects(ctx, true);
  return ctx;
}

AcStatus acPlanMlirText(const char *text, size_t len, const char *sourceName,
                        const char *const *names, const char *const *values,
                        intptr_t numOptions, char **irOut, char **reportOut,
                        char **errorOut) {
  AcStrBuf diags = {0}, ir = {0};
  AcStatus st = AC_OK;
  AcError err;
  AcOptions *opts = acOptionsCreate();
  MlirContext ctx = {NULL};
  MlirOperation module = {NULL};
  AcFileSet *files = NULL;
  if (irOut)
    *irOut = NULL;
  if (reportOut)
    *reportOut = NULL;
  if (errorOut)
    *errorOut = NULL;
  if (!opts || !(files = acFileSetCreate())) {
    acOptionsDestroy(opts);
    return AC_ERR_NOMEM;
  }
  for (intptr_t i = 0; i < numOptions; ++i) {
    acErrorClear(&err);
    if ((st = acOptionsSet(opts, names[i], values[i], &err)) != AC_OK) {
      acStrBufAppend(&diags, "error: ", 7);
      acStrBufAppend(&diags, err.message, strlen(err.message));
      acStrBufAppend(&diags, "\n", 1);
      goto cleanup;
    }
  }
  ctx = acContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, acCollectDiag, &diags, NULL);
  module = acParseModule(ctx, text, len, sourceName ? sourceName : "<text>");
  if (mlirOperationIsNull(module)) { /* the parser verifies what it returns */
    st = AC_ERR_INVALID;
    goto cleanup;
  }
  /* The report and plan files are staged and only replace the old ones once
   * the IR is printed too: a failure leaves every previous file intact. */
  st = acRunOnModuleStaged(module, opts, reportOut, files);
  if (st != AC_OK)
    goto cleanup;
  /* The split verifies the module it leaves (acRewriteSplit); annotate's
   * output is verified here. */
  if (opts->mode != AC_MODE_SPLIT && !mlirOperationVerify(module)) {
    st = AC_ERR_INTERNAL;
    goto cleanup;
  }
  if (irOut) {
    if (acPrintOp(module, 1, &ir) != 0) {
      st = AC_ERR_NOMEM;
      goto cleanup;
    }
  }
  acErrorClear(&err);
  if ((st = acFileSetCommit(files, &err)) != AC_OK) {
    acStrBufAppend(&diags, "error: ", 7);
    acStrBufAppend(&diags, err.message, strlen(err.message));
    acStrBufAppend(&diags, "\n", 1);
    goto cleanup;
  }
  if (irOut) {
    *irOut = ir.data;
    ir.data = NULL;
  }
cleanup:
  if (st != AC_OK && reportOut) {
    acFree(*reportOut);
    *reportOut = NULL;
  }
  if (st != AC_OK && diags.len == 0) {
    const char *m = "error: autoac failed: ";
    acStrBufAppend(&diags, m, strlen(m));
    acStrBufAppend(&diags, acStatusName(st), strlen(acStatusName(st)));
    acStrBufAppend(&diags, "\n", 1);
  }
  if (errorOut && diags.data) {
    *errorOut = diags.data;
    diags.data = NULL;
  }
  acFree(diags.data);
  acFree(ir.data);
  acFileSetDestroy(files);
  if (module.ptr)
    mlirOperationDestroy(module);
  if (ctx.ptr)
    mlirContextDestroy(ctx);
  acOptionsDestroy(opts);
  return st;
}
