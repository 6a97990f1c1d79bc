/* test_faults.c - allocation fault injection over the whole pipeline.
 *
 * For each corpus graph, and N = 1, 2, ...: acAllocFailAfter(N) makes the
 * N-th allocation through the hook (libautoac's and jansson's, not MLIR's)
 * and every later one fail, then acPlanMlirText plans the graph with a
 * budget (so greedy walks its trajectory), a report and a plan file.  It
 * stops at the first N the run does not reach.  Every run must
 *  - return AC_OK or AC_ERR_NOMEM (nothing else: a NOMEM must not turn into
 *    "invalid input" or "internal error"),
 *  - on failure, give no IR and no report, and leave the plan file as it
 *    was (a previous plan, byte for byte) with no temporary file beside it,
 *  - on success, give exactly the IR, report and plan of a run without
 *    injection,
 * and leak nothing: run it under the ASan build, where LeakSanitizer checks
 * the whole process at exit.
 *
 *   test_faults [--sample K | --stride K] [--from N] [file.mlir budget]...
 * A budget of "plan-in" applies a plan file made beforehand (annotate mode)
 * instead of planning.  Without file arguments it runs the two corpus graphs
 * of the issue, greedy under a budget, and the MLP with plan-in, trying
 * every N (tens of thousands of runs: minutes).  --sample K tries every N
 * among the first 100 and the last 300 allocations of the reference run (the
 * report, plan files, rewrite and printing live there) and about K evenly
 * spaced ones in between: what ctest runs.  --stride K tries every K-th N;
 * --from N starts there. */
#include "autoac/autoac.h"
#include "support/testhooks.h"
#include "../../tools/common/read_file.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef AUTOAC_SOURCE_DIR
#define AUTOAC_SOURCE_DIR "."
#endif

static int writeFile(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return 0;
  size_t n = strlen(text);
  int ok = fwrite(text, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

/* Number of directory entries other than . and .. */
static int countEntries(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *e;
  if (!d)
    return -1;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      ++n;
  closedir(d);
  return n;
}

static int strEq(const char *a, const char *b) {
  return (!a && !b) || (a && b && !strcmp(a, b));
}

typedef struct Stats {
  int64_t tried, failedClean, succeededAnyway;
} Stats;

/* The injection point after n: every stride-th, or in sample mode every one
 * outside [head, tail) and stride-th inside it. */
static int64_t nextN(int64_t n, int64_t stride, int64_t sample, int64_t head,
                     int64_t tail) {
  if (sample <= 0)
    return n + stride;
  if (n < head || n >= tail)
    return n + 1;
  return n + stride < tail ? n + stride : tail;
}

static const char *oldPlan = "{\"previous\": \"plan\"}\n";

/* Runs the fault loop on one graph; returns the number of problems. */
static int faultLoop(const char *path, const char *budget, const char *dir,
                     int64_t from, int64_t stride, int64_t sample,
                     Stats *stats) {
  size_t len = 0;
  char *text = acToolReadFile(path, &len);
  char planPath[4096];
  int problems = 0;
  char *refIr = NULL, *refReport = NULL, *refPlan = NULL;
  if (!text) {
    printf("FAIL cannot read %s\n", path);
    return 1;
  }
  snprintf(planPath, sizeof planPath, "%s/plan.json", dir);
  const char *names[] = {"budget", "strategy", "plan-out", "report"};
  char reportPath[4096], inPath[4096];
  snprintf(reportPath, sizeof reportPath, "%s/report.json", dir);
  snprintf(inPath, sizeof inPath, "%s-in.json", dir);
  const char *values[] = {budget, "greedy", planPath, reportPath};
  if (!strcmp(budget, "plan-in")) {
    /* Apply a plan file (jansson's reader under injection too), annotate. */
    const char *pn[] = {"plan-out"}, *pv[] = {inPath};
    char *e = NULL;
    AcStatus pst = acPlanMlirText(text, len, path, pn, pv, 1, NULL, NULL, &e);
    acFree(e);
    if (pst != AC_OK) {
      printf("FAIL %s: cannot make the plan to apply\n", path);
      free(text);
      return 1;
    }
    names[0] = "plan-in";
    values[0] = inPath;
    names[1] = "mode";
    values[1] = "annotate";
  }

  /* Reference run, no injection. */
  char *ir = NULL, *report = NULL, *errors = NULL;
  int64_t before = acAllocCount();
  AcStatus st = acPlanMlirText(text, len, path, names, values, 4, &refIr,
                               &refReport, &errors);
  int64_t allocs = acAllocCount() - before;
  if (st != AC_OK) {
    printf("FAIL %s: reference run: %s\n%s", path, acStatusName(st),
           errors ? errors : "");
    acFree(errors);
    free(text);
    return 1;
  }
  acFree(errors);
  size_t planLen = 0;
  refPlan = acToolReadFile(planPath, &planLen);
  if (!refPlan) {
    printf("FAIL %s: reference run wrote no plan file\n", path);
    ++problems;
    goto done;
  }
  printf("%s: reference run makes %" PRId64 " allocations through the hook\n",
         path, allocs);

  int64_t total = allocs, n = from, tried = 0, failed = 0, anyway = 0;
  int64_t head = 100, tail = total - 300;
  if (sample > 0)
    stride = tail - head > sample ? (tail - head) / sample : 1;
  for (;; n = nextN(n, stride, sample, head, tail)) {
    /* A previous plan and report the failed run must leave alone. */
    if (!writeFile(planPath, oldPlan) || !writeFile(reportPath, oldPlan)) {
      printf("FAIL cannot write %s\n", planPath);
      ++problems;
      break;
    }
    ir = report = errors = NULL;
    before = acAllocCount();
    acAllocFailAfter(n);
    st = acPlanMlirText(text, len, path, names, values, 4, &ir, &report, &errors);
    acAllocFailAfter(0);
    allocs = acAllocCount() - before;
    ++tried;
    int hit = allocs >= n;
    char *plan = acToolReadFile(planPath, &planLen);
    char *rep = acToolReadFile(reportPath, &planLen);
    if (st == AC_OK) {
      if (!strEq(ir, refIr) || !strEq(report, refReport) ||
          !strEq(plan, refPlan) || !strEq(rep, refReport)) {
        printf("FAIL %s: N=%" PRId64 ": run succeeded%s but its output differs "
               "from the reference\n", path, n, hit ? " despite the failure" : "");
        ++problems;
      }
      if (hit)
        ++anyway;
    } else {
      ++failed;
      if (st != AC_ERR_NOMEM) {
        printf("FAIL %s: N=%" PRId64 ": status '%s', expected 'out of memory'\n%s",
               path, n, acStatusName(st), errors ? errors : "");
        ++problems;
      }
      if (!hit) {
        printf("FAIL %s: N=%" PRId64 ": failed without reaching the injected "
               "failure\n", path, n);
        ++problems;
      }
      if (ir || report) {
        printf("FAIL %s: N=%" PRId64 ": failed run returned output\n", path, n);
        ++problems;
      }
      if (!strEq(plan, oldPlan) || !strEq(rep, oldPlan)) {
        printf("FAIL %s: N=%" PRId64 ": failed run replaced the previous plan "
               "or report file\n", path, n);
        ++problems;
      }
      if (countEntries(dir) != 2) {
        printf("FAIL %s: N=%" PRId64 ": failed run left %d files in %s\n",
               path, n, countEntries(dir), dir);
        ++problems;
      }
    }
    free(plan);
    free(rep);
    acFree(ir);
    acFree(report);
    acFree(errors);
    if (problems > 20) {
      printf("FAIL %s: too many problems, stopping\n", path);
      break;
    }
    if (st == AC_OK && !hit)
      break;
  }
  printf("%s: tried %" PRId64 " injection points (N = %" PRId64 "..%" PRId64
         ", %s %" PRId64 "): %" PRId64 " failed cleanly with out of memory, "
         "%" PRId64 " succeeded despite a failed allocation\n",
         path, tried, from, n, sample ? "sampled, middle stride" : "stride", stride,
         failed, anyway);
  stats->tried += tried;
  stats->failedClean += failed;
  stats->succeededAnyway += anyway;
done:
  unlink(inPath);
  unlink(planPath);
  unlink(reportPath);
  free(refPlan);
  acFree(refIr);
  acFree(refReport);
  free(text);
  return problems;
}

int main(int argc, char **argv) {
  int64_t stride = 1, from = 1, sample = 0;
  int first = 1;
  setvbuf(stdout, NULL, _IOLBF, 0); /* progress shows while it runs */
  while (first + 1 < argc && (!strcmp(argv[first], "--stride") ||
                              !strcmp(argv[first], "--sample") ||
                              !strcmp(argv[first], "--from"))) {
    int64_t v = strtoll(argv[first + 1], NULL, 10);
    *(!strcmp(argv[first], "--stride")   ? &stride
      : !strcmp(argv[first], "--sample") ? &sample
                                         : &from) = v < 1 ? 1 : v;
    first += 2;
  }
  char dir[] = "/tmp/autoac-faults-XXXXXX";
  if (!mkdtemp(dir)) {
    printf("FAIL mkdtemp: %s\n", strerror(errno));
    return 1;
  }
  static const char *defaults[] = {
      AUTOAC_SOURCE_DIR "/examples/corpus/mlp_relu_8.mlir", "280MB",
      AUTOAC_SOURCE_DIR "/examples/corpus/tx_l2_d256.mlir", "36MB",
      AUTOAC_SOURCE_DIR "/examples/corpus/mlp_relu_8.mlir", "plan-in"};
  const char **args = (const char **)argv + first;
  int nargs = argc - first;
  if (nargs == 0) {
    args = defaults;
    nargs = 6;
  }
  Stats stats = {0, 0, 0};
  int problems = 0;
  for (int i = 0; i + 1 < nargs; i += 2)
    problems += faultLoop(args[i], args[i + 1], dir, from, stride, sample, &stats);
  rmdir(dir);
  printf("test_faults: %" PRId64 " injection points tried, %" PRId64
         " clean out-of-memory failures, %" PRId64 " successes despite a "
         "failed allocation, %d problems\n",
         stats.tried, stats.failedClean, stats.succeededAnyway, problems);
  return problems ? 1 : 0;
}
