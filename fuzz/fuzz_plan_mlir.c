/* fuzz_plan_mlir.c - libFuzzer target: fuzz bytes -> a random joint module
 * (jointgen.h) and random options -> acPlanMlirText.
 *
 * Errors are fine; these are findings (abort, with the module on stderr):
 *  - a crash, a leak, undefined behaviour (ASan, LSan, UBSan);
 *  - AC_ERR_INTERNAL (an invariant broke) or AC_ERR_NOMEM without injection;
 *  - success without IR, or without a report unless no function is ac.joint,
 *    or a report that is not JSON;
 *  - failure with IR or a report;
 *  - a plan written with plan-out that the same module does not take back
 *    with plan-in;
 *  - a second identical run (on some inputs) that differs from the first.
 * AUTOAC_FUZZ_PRINT=1 prints each generated module and options to stderr
 * (reproduce a finding with `fuzz_plan_mlir CRASH-FILE`). */
#include "autoac/autoac.h"
#include "jointgen.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char planPath[64];
static int printEach;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  char dir[] = "/tmp/autoac-fuzz-XXXXXX";
  if (!mkdtemp(dir))
    abort();
  snprintf(planPath, sizeof planPath, "%s/plan.json", dir);
  printEach = getenv("AUTOAC_FUZZ_PRINT") != NULL;
  return 0;
}

static void finding(const char *what, const JgText *text, const JgOptions *o,
                    AcStatus st, const char *errors) {
  fprintf(stderr, "fuzz_plan_mlir: FINDING: %s (status '%s')\noptions:", what,
          acStatusName(st));
  for (int i = 0; i < o->num; ++i)
    fprintf(stderr, " --ac-%s=%s", o->names[i], o->values[i]);
  fprintf(stderr, "\n--- module ---\n%s--- diagnostics ---\n%s\n", text->data,
          errors ? errors : "");
  abort();
}

/* Two reports are the same run's when equal as JSON once the search
 * block's wall time ("search": {"seconds"}, the one field that depends on
 * the machine) is left out of both. */
static int reportsEqual(const char *a, const char *b) {
  json_error_t jerr;
  json_t *ra = json_loads(a, 0, &jerr), *rb = json_loads(b, 0, &jerr);
  int same = ra && rb;
  for (int k = 0; k < 2 && same; ++k) {
    json_t *s = json_object_get(k ? rb : ra, "search");
    if (s)
      json_object_del(s, "seconds");
  }
  same = same && json_equal(ra, rb);
  json_decref(ra);
  json_decref(rb);
  return same;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  JgBytes in = {data, size, 0};
  JgOptions o;
  JgText text = {NULL, 0, 0, 0};
  char *ir = NULL, *report = NULL, *errors = NULL;
  jgOptions(&in, &o);
  int twice = jgChance(&in, 24);
  jgModule(&in, &text);
  if (text.failed || !text.data) {
    free(text.data);
    return 0;
  }
  if (o.wantPlanOut) {
    unlink(planPath);
    o.names[o.num] = "plan-out";
    o.values[o.num++] = planPath;
  }
  if (printEach) {
    fprintf(stderr, "options:");
    for (int i = 0; i < o.num; ++i)
      fprintf(stderr, " --ac-%s=%s", o.names[i], o.values[i]);
    fprintf(stderr, "\n%s", text.data);
  }
  AcStatus st = acPlanMlirText(text.data, text.len, "fuzz.mlir", o.names,
                               o.values, o.num, &ir, &report, &errors);
  if (st == AC_ERR_INTERNAL || st == AC_ERR_NOMEM)
    finding("internal error or out of memory", &text, &o, st, errors);
  if (st == AC_OK && (!ir || (!report && !(errors && strstr(errors, "no function is marked ac.joint")))))
    finding("success without IR or report", &text, &o, st, errors);
  if (st != AC_OK && (ir || report))
    finding("failure with IR or report", &text, &o, st, errors);
  if (st == AC_OK && report) {
    json_error_t jerr;
    json_t *r = json_loads(report, 0, &jerr);
    if (!r)
      finding("the report is not JSON", &text, &o, st, errors);
    json_decref(r);
  }
  if (st == AC_OK && twice) {
    char *ir2 = NULL, *report2 = NULL, *errors2 = NULL;
    AcStatus st2 = acPlanMlirText(text.data, text.len, "fuzz.mlir", o.names,
                                  o.values, o.num, &ir2, &report2, &errors2);
    int same = st2 == st && ir2 && !strcmp(ir, ir2) &&
               (report ? report2 && reportsEqual(report, report2) : !report2);
    acFree(ir2);
    acFree(report2);
    acFree(errors2);
    if (!same)
      finding("a second run differs from the first", &text, &o, st2, errors);
  }
  if (st == AC_OK && o.wantPlanOut && access(planPath, F_OK) == 0) {
    /* The plan just written, applied to the same module. */
    const char *names[] = {"plan-in", "mode", "rng"};
    const char *values[] = {planPath, o.values[1], o.rng};
    char *ir2 = NULL, *report2 = NULL, *errors2 = NULL;
    AcStatus st2 = acPlanMlirText(text.data, text.len, "fuzz.mlir", names,
                                  values, 3, &ir2, &report2, &errors2);
    if (st2 != AC_OK)
      finding("plan-out then plan-in fails", &text, &o, st2, errors2);
    acFree(ir2);
    acFree(report2);
    acFree(errors2);
  }
  acFree(ir);
  acFree(report);
  acFree(errors);
  free(text.data);
  return 0;
}
