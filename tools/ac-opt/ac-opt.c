/* ac-opt.c - the autoac driver: an opt-like tool with every upstream dialect
 * and pass, unregistered dialects allowed, and autoac's options as
 * --ac-NAME=VALUE.  See docs/ac-opt.md and `ac-opt --help`. */
#include "autoac/autoac.h"
#include "import/import.h"
#include "autoac/report.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The usage text; the options come from the one table (autoac/options.def). */
static int acPrintUsage(FILE *f) {
  int bad = fputs(
      "usage: ac-opt [input.mlir|-] [-o out.mlir] [--pass-pipeline=PIPELINE]\n"
      "              [--ac-NAME=VALUE ...] [--ac-summary] [--ac-sweep=N]\n"
      "\n"
      "Plans activation checkpointing for every ac.joint function and rewrites\n"
      "it (docs/contract.md).  Options (--ac-NAME=VALUE):\n", f) == EOF;
#define AC_OPTION(NAME, FIELD, KIND, SCOPE, DEFAULT, HELP)                      \
  bad |= fprintf(f, "  %-12s%s%s%s%s\n", NAME, HELP, *DEFAULT ? " (default: " : "", \
                 DEFAULT, *DEFAULT ? ")" : "") < 0;
#include "autoac/options.def"
#undef AC_OPTION
  bad |= fputs(
      "  --ac-summary prints a readable summary of what autoac saw and chose.\n"
      "--pass-pipeline runs before autoac; if it names auto-ac itself or one of\n"
      "the lowering names (auto-ac-free-at-last-use, auto-ac-lower-cpu,\n"
      "auto-ac-lower-gpu: docs/contract.md section 5), autoac is not run again.\n",
      f) == EOF;
  return bad ? -1 : 0;
}

static void acPrintTo(MlirStringRef s, void *user) {
  fwrite(s.data, 1, s.length, (FILE *)user);
}

/* Prints diagnostics as file:line:col: severity: message. */
static MlirLogicalResult acOnDiagnostic(MlirDiagnostic d, void *user) {
  (void)user;
  MlirLocation loc = mlirDiagnosticGetLocation(d);
  const char *sev = "error";
  switch (mlirDiagnosticGetSeverity(d)) {
  case MlirDiagnosticWarning: sev = "warning"; break;
  case MlirDiagnosticNote: sev = "note"; break;
  case MlirDiagnosticRemark: sev = "remark"; break;
  default: break;
  }
  if (mlirLocationIsAFileLineColRange(loc)) {
    MlirStringRef f = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
    fprintf(stderr, "%.*s:%d:%d: ", (int)f.length, f.data,
            mlirLocationFileLineColRangeGetStartLine(loc),
            mlirLocationFileLineColRangeGetStartColumn(loc));
  }
  fprintf(stderr, "%s: ", sev);
  mlirDiagnosticPrint(d, acPrintTo, stderr);
  fputc('\n', stderr);
  return mlirLogicalResultSuccess();
}

/* Writes `len` bytes and a newline to stdout and flushes it; on failure
 * (a full disk, a closed pipe) says so and returns -1: the exit status must
 * not claim success for output that was lost. */
static int acWriteStdout(const char *data, size_t len) {
  if (fwrite(data, 1, len, stdout) != len || fputc('\n', stdout) == EOF ||
      fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "ac-opt: error: cannot write to standard output: %s\n",
            strerror(errno));
    return -1;
  }
  return 0;
}

/* The summary's lines on step time, the search and unknown ops, from the
 * report `r` (contract section 4): step time and recompute overhead, how an
 * ilp or beam search ended, and each op name the cost model does not know. */
static void acPrintSummaryExtras(json_t *r) {
  fprintf(stderr, "  step %.3g s (forward + backward, cost model), recompute "
          "overhead %.3g %%\n",
          json_number_value(json_object_get(r, "step_seconds")),
          json_number_value(json_object_get(r, "recompute_overhead_percent")));
  if (json_integer_value(json_object_get(r, "offloaded_bytes")) > 0) {
    char off[32], host[32];
    acFormatBytes(json_integer_value(json_object_get(r, "offloaded_bytes")),
                  off, sizeof off);
    acFormatBytes(json_integer_value(json_object_get(r, "host_peak_bytes")),
                  host, sizeof host);
    fprintf(stderr, "  offloaded %s to host memory (host peak %s), copies "
            "%.3g s, stalls %.3g s\n", off, host,
            json_number_value(json_object_get(r, "copy_seconds")),
            json_number_value(json_object_get(r, "stall_seconds")));
  }
  json_t *search = json_object_get(r, "search");
  if (json_is_object(search)) {
    json_t *nodes = json_object_get(search, "nodes");
    json_t *work = nodes ? nodes : json_object_get(search, "simulations");
    fprintf(stderr, "  search: %s%s, %.3g s, %lld %s\n",
            json_is_true(json_object_get(search, "optimal")) ? "optimal"
                                                              : "not proven optimal",
            json_is_true(json_object_get(search, "limited"))
                ? " (stopped by its work limit)" : "",
            json_number_value(json_object_get(search, "seconds")),
            (long long)json_integer_value(work), nodes ? "nodes" : "plans simulated");
  }
  size_t i;
  json_t *u;
  json_array_foreach(json_object_get(r, "unknown_ops"), i, u) {
    json_int_t n = json_integer_value(json_object_get(u, "count"));
    fprintf(stderr, "  unknown op %s: %lld op%s, first at %s: 0 FLOPs%s\n",
            json_string_value(json_object_get(u, "name")), (long long)n,
            n == 1 ? "" : "s", json_string_value(json_object_get(u, "location")),
            json_is_true(json_object_get(u, "recomputable"))
                ? "" : ", never recomputed");
  }
}

/* Prints a readable summary of the report (JSON text) to stderr. */
static void acPrintSummary(const char *reportText) {
  json_error_t jerr;
  json_t *r = reportText ? json_loads(reportText, 0, &jerr) : NULL;
  if (!r) {
    fprintf(stderr, "ac-opt: no summary: %s\n",
            reportText ? jerr.text : "no ac.joint function was planned");
    return;
  }
  char a[32], b[32];
  fprintf(stderr, "autoac summary (strategy %s, device %s)\n",
          json_string_value(json_object_get(r, "strategy")),
          json_string_value(json_object_get(r, "device")));
  size_t i;
  json_t *fn;
  json_array_foreach(json_object_get(r, "functions"), i, fn) {
    json_t *ph = json_object_get(fn, "phases");
    acFormatBytes(json_integer_value(json_object_get(fn, "candidate_bytes")), a, sizeof a);
    fprintf(stderr, "  @%s: %lld ops (%lld forward, %lld backward), %zu save candidates (%s)\n",
            json_string_value(json_object_get(fn, "name")),
            (long long)json_integer_value(json_object_get(fn, "ops")),
            (long long)json_integer_value(json_object_get(ph, "fwd")),
            (long long)json_integer_value(json_object_get(ph, "bwd")),
            json_array_size(json_object_get(fn, "candidates")), a);
    acFormatBytes(json_integer_value(json_object_get(fn, "saved_bytes")), a, sizeof a);
    fprintf(stderr, "    saved %zu values (%s), recomputed %zu ops\n",
            json_array_size(json_object_get(fn, "saved")), a,
            json_array_size(json_object_get(fn, "recomputed")));
  }
  acFormatBytes(json_integer_value(json_object_get(r, "peak_bytes")), a, sizeof a);
  acFormatBytes(json_integer_value(json_object_get(r, "static_bytes")), b, sizeof b);
  fprintf(stderr, "  peak %s (static %s)", a, b);
  json_int_t budget = json_integer_value(json_object_get(r, "budget_bytes"));
  if (json_is_integer(json_object_get(r, "budget_bytes"))) {
    acFormatBytes(budget, a, sizeof a);
    fprintf(stderr, ", budget %s: %s", a,
            json_is_true(json_object_get(r, "feasible")) ? "met" : "NOT met");
  }
  fputc('\n', stderr);
  json_t *bk;
  json_array_foreach(json_object_get(r, "buckets"), i, bk) {
    acFormatBytes(json_integer_value(json_object_get(bk, "peak_bytes")), a, sizeof a);
    acFormatBytes(json_integer_value(json_object_get(bk, "saved_bytes")), b, sizeof b);
    /* Its sizes: `arg0.1 1..4` per bucketed dimension (several: listed in
       `dimensions`), and the upper sizes the peak is at. */
    char dims[512] = "", at[256] = "";
    json_t *list = json_object_get(bk, "dimensions");
    size_t nd = list ? json_array_size(list) : 1;
    for (size_t d = 0; d < nd; ++d) {
      json_t *e = list ? json_array_get(list, d) : bk;
      size_t w = strlen(dims), u = strlen(at);
      snprintf(dims + w, sizeof dims - w, "%s%s %lld..%lld", d ? ", " : "",
               json_string_value(json_object_get(e, "dimension")),
               (long long)json_integer_value(json_object_get(e, "lower")),
               (long long)json_integer_value(json_object_get(e, "upper")));
      snprintf(at + u, sizeof at - u, "%s%lld", d ? ", " : "",
               (long long)json_integer_value(json_object_get(e, "upper")));
    }
    fprintf(stderr, "  bucket %zu: %s (@%s): peak %s at %s, saved %zu "
            "values (%s), recomputed %zu ops, %.3g FLOPs%s\n", i, dims,
            json_string_value(json_object_get(bk, "function")), a, at,
            json_array_size(json_object_get(bk, "saved")), b,
            json_array_size(json_object_get(bk, "recomputed")),
            json_number_value(json_object_get(bk, "recompute_flops")),
            json_is_true(json_object_get(bk, "feasible")) ? ""
                                                          : ", budget NOT met");
  }
  const char *k;
  json_t *v;
  json_object_foreach(json_object_get(r, "baseline_peak_bytes"), k, v) {
    acFormatBytes(json_integer_value(v), a, sizeof a);
    fprintf(stderr, "  baseline %-9s peak %s\n", k, a);
  }
  acFormatBytes(json_integer_value(json_object_get(r, "saved_bytes")), a, sizeof a);
  fprintf(stderr, "  saved %s, recompute %.3g FLOPs (%.3g s)\n", a,
          json_number_value(json_object_get(r, "recompute_flops")),
          json_number_value(json_object_get(r, "recompute_seconds")));
  acPrintSummaryExtras(r);
  json_decref(r);
}

/* Outputs asked for are never silently skipped (docs/contract.md, section
 * 1, outputs): --ac-sweep writes only its table (and --ac-sweep-csv), so -o, the
 * report, the plan, --ac-plan-in, --ac-summary and --ac-buckets beside it are
 * refused, as
 * is --ac-sweep-csv without --ac-sweep.  0, or -1 after saying why. */
static int acCheckOutputs(const AcOptions *opts, const char *output, int summary) {
  if (opts->sweepCsv && !opts->sweep) {
    fprintf(stderr, "ac-opt: error: --ac-sweep-csv=%s is written by --ac-sweep "
            "only; add --ac-sweep=N or drop it\n", opts->sweepCsv);
    return -1;
  }
  if (!opts->sweep)
    return 0;
  const char *clash = output ? "-o" : opts->report ? "--ac-report"
                    : opts->planOut ? "--ac-plan-out" : opts->planIn ? "--ac-plan-in"
                    : summary ? "--ac-summary" : opts->buckets ? "--ac-buckets" : NULL;
  if (!clash)
    return 0;
  fprintf(stderr, "ac-opt: error: --ac-sweep prints a table of budgets and "
          "strategies and writes no module, report or plan: %s cannot be "
          "honoured with it (run ac-opt once for each)\n", clash);
  return -1;
}

/* What the command line asks for, beside the options themselves. */
typedef struct AcDriverArgs {
  const char *input;    /* "-": standard input */
  const char *output;   /* -o; NULL or "-": standard output */
  const char *pipeline; /* --pass-pipeline, or NULL */
  int summary;          /* --ac-summary */
} AcDriverArgs;

/* Sets option `--ac-NAME[=VALUE]` (`a`) on `opts`; a bare --ac-strict is
 * true, any other bare one empty.  0, or -1 after saying why. */
static int acSetArgOption(AcOptions *opts, const char *a) {
  AcError err;
  const char *eq = strchr(a, '=');
  char name[64];
  size_t n = eq ? (size_t)(eq - (a + 5)) : strlen(a + 5);
  if (n >= sizeof name)
    n = sizeof name - 1;
  memcpy(name, a + 5, n);
  name[n] = '\0';
  acErrorClear(&err);
  const char *value = eq ? eq + 1 : (!strcmp(name, "strict") ? "true" : "");
  if (acOptionsSet(opts, name, value, &err) != AC_OK) {
    fprintf(stderr, "ac-opt: error: %s\n", err.message);
    return -1;
  }
  return 0;
}

/* Reads the command line into `args` and `opts`, up to -h/--help: 1 when
 * help was asked for (what follows it is not read), 0 otherwise, -1 after
 * saying what is wrong. */
static int acParseArgs(int argc, char **argv, AcDriverArgs *args, AcOptions *opts) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      return 1;
    } else if (!strcmp(a, "-o") && i + 1 < argc) {
      args->output = argv[++i];
    } else if (!strncmp(a, "-o=", 3)) {
      args->output = a + 3;
    } else if (!strncmp(a, "--pass-pipeline=", 16)) {
      args->pipeline = a + 16;
    } else if (!strcmp(a, "--allow-unregistered-dialect")) {
      /* always on */
    } else if (!strcmp(a, "--ac-summary")) {
      args->summary = 1;
    } else if (!strncmp(a, "--ac-", 5)) {
      if (acSetArgOption(opts, a) != 0)
        return -1;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "ac-opt: error: unknown argument '%s'\n", a);
      acPrintUsage(stderr);
      return -1;
    } else {
      args->input = a;
    }
  }
  return 0;
}

/* The usage text on standard output (-h): the exit status, 1 when it could
 * not be written. */
static int acHelp(void) {
  int rc = acPrintUsage(stdout) != 0 || fflush(stdout) != 0 ? 1 : 0;
  if (rc)
    fprintf(stderr, "ac-opt: error: cannot write to standard output: %s\n",
            strerror(errno));
  return rc;
}

/* The input file (or standard input, "-") into *source (malloc'd), through
 * the one reader (acReadFd): never without end, MLIR text only.  0, or -1
 * after saying why. */
static int acReadInput(const char *input, char **source, size_t *len) {
  AcError err;
  acErrorClear(&err);
  if ((strcmp(input, "-")
           ? acReadFile(input, "input", AC_MAX_MLIR_FILE_BYTES,
                        AC_READ_TEXT | AC_READ_MALLOC, source, len, &err)
           : acReadFd(fileno(stdin), "input", "<stdin>", AC_MAX_MLIR_FILE_BYTES,
                      AC_READ_TEXT | AC_READ_MALLOC, source, len, &err)) != AC_OK) {
    fprintf(stderr, "ac-opt: error: %s\n", err.message);
    return -1;
  }
  return 0;
}

/* The tool's context: every dialect, pass and LLVM translation, autoac's
 * passes, diagnostics printed as they come. */
static MlirContext acDriverContext(void) {
  MlirContext ctx = acContextCreate();
  /* gpu-module-to-binary (auto-ac-lower-gpu) serializes through LLVM IR. */
  mlirRegisterAllLLVMTranslations(ctx);
  mlirRegisterAllPasses();
  acRegisterPasses();
  mlirContextAttachDiagnosticHandler(ctx, acOnDiagnostic, NULL, NULL);
  return ctx;
}

/* Parses `pipeline` into a new pass manager *pm (the caller destroys it)
 * and runs it on `module`.  0, or -1 (a bad pipeline is said here, a
 * failing pass speaks through the diagnostics). */
static int acRunPipeline(MlirContext ctx, MlirOperation module,
                         const char *pipeline, MlirPassManager *pm) {
  *pm = mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  AcStrBuf perr = {0};
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(*pm),
          mlirStringRefCreateFromCString(pipeline), acStrBufMlirCallback, &perr))) {
    fprintf(stderr, "ac-opt: error: bad --pass-pipeline: %s\n", perr.data ? perr.data : "");
    acStrBufClear(&perr);
    return -1;
  }
  acStrBufClear(&perr);
  return mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(*pm, module)) ? -1 : 0;
}

/* --ac-sweep: the table on standard output, flushed; the exit status. */
static int acSweepMain(MlirOperation module, const AcOptions *opts) {
  int rc = acRunSweep(module, opts) == AC_OK ? 0 : 1;
  if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
    fprintf(stderr, "ac-opt: error: cannot write to standard output: %s\n",
            strerror(errno));
    rc = 1;
  }
  return rc;
}

/* Prints the module (verified by now: the parser, the split, the pass
 * manager or the caller) to -o, staged with the report and plan in
 * `files`, or to standard output, then commits the files.  `inputLen`
 * sizes the buffer.  0, or -1 after saying why. */
static int acWriteModule(MlirOperation module, const char *output,
                         size_t inputLen, AcFileSet *files) {
  AcStrBuf out = {0};
  AcError err;
  int rc = -1;
  /* Room for the output at once: the split prints about 1.3x its input
   * (the recompute regions), so no growth copies 14 MB around on a 100k-op
   * graph; a shortfall only grows the buffer, untouched room costs no page.
   * The printer is told the module is verified and does not verify it a
   * third time. */
  (void)acStrBufReserve(&out, inputLen + inputLen / 2 + 1);
  if (acPrintOp(module, 1, &out) != 0) {
    fprintf(stderr, "ac-opt: error: out of memory printing the module\n");
    goto cleanup;
  }
  acErrorClear(&err);
  int toStdout = !output || !strcmp(output, "-");
  if (!toStdout &&
      acFileSetAdd(files, output, out.data ? out.data : "", out.len, &err) != AC_OK) {
    fprintf(stderr, "ac-opt: error: %s\n", err.message);
    goto cleanup;
  }
  /* Standard output first: it cannot be taken back, so the files are only
   * replaced once it was written in full. */
  if (toStdout && acWriteStdout(out.data ? out.data : "", out.len) != 0)
    goto cleanup;
  if (acFileSetCommit(files, &err) != AC_OK) {
    fprintf(stderr, "ac-opt: error: %s\n", err.message);
    goto cleanup;
  }
  rc = 0;
cleanup:
  acStrBufClear(&out);
  return rc;
}

int main(int argc, char **argv) {
  AcDriverArgs args = {"-", NULL, NULL, 0};
  int rc = 1;
  char *reportText = NULL;
  AcOptions *opts = acOptionsCreate();
  MlirContext ctx = {NULL};
  MlirOperation module = {NULL};
  MlirPassManager pm = {NULL};
  char *source = NULL;
  size_t len = 0;
  AcFileSet *files = NULL;
  if (!opts) {
    fprintf(stderr, "ac-opt: out of memory\n");
    return 1;
  }
  /* Ctrl-C or SIGTERM leaves no staged temporary file behind. */
  acSignalCleanupInstall();
  int parsed = acParseArgs(argc, argv, &args, opts);
  if (parsed == 1)
    rc = acHelp();
  if (parsed != 0 || acCheckOutputs(opts, args.output, args.summary) != 0 ||
      acReadInput(args.input, &source, &len) != 0)
    goto cleanup;
  ctx = acDriverContext();
  module = acParseModule(ctx, source, len,
                         strcmp(args.input, "-") ? args.input : "<stdin>");
  /* The parser verified the module (MLIR's default ParserConfig): a second
   * verification here would only repeat it. */
  if (mlirOperationIsNull(module))
    goto cleanup;
  int pipelineHasAc = args.pipeline && strstr(args.pipeline, "auto-ac") != NULL;
  if (args.pipeline && acRunPipeline(ctx, module, args.pipeline, &pm) != 0)
    goto cleanup;
  if (opts->sweep) {
    rc = acSweepMain(module, opts);
    goto cleanup;
  }
  /* The report, the plan and -o are replaced together, only once all of
   * them are written: a failure anywhere leaves every previous file intact. */
  if (!(files = acFileSetCreate())) {
    fprintf(stderr, "ac-opt: error: out of memory\n");
    goto cleanup;
  }
  if (!pipelineHasAc &&
      acRunOnModuleStaged(module, opts, args.summary ? &reportText : NULL,
                          files) != AC_OK)
    goto cleanup;
  /* The split verifies the module it leaves (acRewriteSplit), and a module
   * without joint functions is left as parsed: verifying again would only
   * repeat it (about 5 % of the run on a 100k-op graph).  A pipeline that
   * ran autoac was verified by its pass manager after the last pass. */
  int verified = pipelineHasAc || opts->mode == AC_MODE_SPLIT;
  if (!verified && !mlirOperationVerify(module)) {
    fprintf(stderr, "ac-opt: error: the rewritten module does not verify\n");
    goto cleanup;
  }
  if (acWriteModule(module, args.output, len, files) != 0)
    goto cleanup;
  if (args.summary)
    acPrintSummary(reportText);
  rc = 0;
cleanup:
  acFileSetDestroy(files);
  acFree(reportText);
  free(source); /* malloc (AC_READ_MALLOC) */
  if (pm.ptr)
    mlirPassManagerDestroy(pm);
  if (module.ptr)
    mlirOperationDestroy(module);
  if (ctx.ptr)
    mlirContextDestroy(ctx);
  acOptionsDestroy(opts);
  return rc;
}
