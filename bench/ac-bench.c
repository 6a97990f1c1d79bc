/* ac-bench.c - planning benchmarks: time, memory and plan quality.
 *
 *   ac-bench [--runs N] [--budgets N] [--out DIR] [--ref-max-ops N]
 *            [--max-ops STRATEGY=N] [--device NAME] FILE.mlir...
 *
 * For each graph (in a child process of its own, so that its peak RSS is
 * its own) it measures, as medians over --runs runs:
 *  - parse + verify (acParseModule + mlirOperationVerify, what ac-opt does
 *    before planning; a fresh context each run) and import;
 *  - planning per strategy: greedy is the whole trajectory from the min-cut
 *    set (acGreedyTrajectory: min-cut + every drop), greedy-ref the same
 *    with the reference implementation (graphs up to --ref-max-ops ops; its
 *    trajectory must be identical), the other strategies acPlanRun at the
 *    budget halfway between greedy's lowest peak and the save-all peak;
 *  - the ratio greedy / (parse + verify), taken within each run;
 *  - peak RSS of the process, and the planner's peak heap: the most bytes
 *    libautoac had allocated during greedy beyond what it held before (the
 *    link wraps malloc/calloc/realloc/free of libautoac and this file, see
 *    bench/CMakeLists.txt; MLIR's own allocations are not counted);
 *  - plan quality: peak and simulated recompute seconds of every strategy
 *    over --budgets budgets from greedy's lowest peak to the save-all peak.
 * Times are CPU time of the process (the machine may be shared); wall time
 * is in the CSV too.  Prints a block per graph and a summary table, and
 * writes DIR/graphs.csv, DIR/timing.csv and DIR/quality.csv (overwritten).
 * Nothing is asserted: CI builds this, docs/bench.md reports it. */
#include "autoac/autoac.h"
#include "import/import.h"
#include "partition/partition.h"
#include "plan/plan_oracles.h"
#include "autoac/simulate.h"

#include "mlir-c/RegisterEverything.h"
#include "../tools/common/read_file.h"

#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_RUNS 64
#include "bench_stats.h"

/* Heap accounting through -Wl,--wrap (libautoac's and this file's calls). */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
static int64_t heapLive, heapPeak;

static void heapAdd(int64_t n) {
  heapLive += n;
  if (heapLive > heapPeak)
    heapPeak = heapLive;
}

void *__wrap_malloc(size_t n) {
  void *p = __real_malloc(n);
  if (p)
    heapAdd((int64_t)malloc_usable_size(p));
  return p;
}

void *__wrap_calloc(size_t n, size_t size) {
  void *p = __real_calloc(n, size);
  if (p)
    heapAdd((int64_t)malloc_usable_size(p));
  return p;
}

void *__wrap_realloc(void *p, size_t n) {
  int64_t old = p ? (int64_t)malloc_usable_size(p) : 0;
  void *q = __real_realloc(p, n);
  if (q)
    heapAdd((int64_t)malloc_usable_size(q) - old);
  else if (n == 0)
    heapAdd(-old);
  return q;
}

void __wrap_free(void *p) {
  if (p)
    heapAdd(-(int64_t)malloc_usable_size(p));
  __real_free(p);
}

typedef struct Options {
  int runs;
  int budgets;
  const char *out;
  intptr_t refMaxOps;
  intptr_t maxOps[AC_STRATEGY_COUNT];
  const char *device;
} Options;

/* What a child reports to the summary table. */
typedef struct Summary {
  char name[96];
  intptr_t ops;
  double parse, import, greedy, ratio, ref;
  int refEqual; /* 1 equal, 0 differs, -1 not run */
  long rssKb, planKb;
  int64_t planHeap; /* bytes */
  intptr_t plans, plateau;
  int64_t mincutPeak, lowest, lowestNoPlateau;
  int ok;
} Summary;

static double cpuNow(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double wallNow(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}


/* Current and peak resident set (KiB) from /proc/self/status; -1 if absent. */
static long procStatus(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long v = -1;
  size_t n = strlen(key);
  if (!f)
    return -1;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, key, n) && line[n] == ':') {
      v = strtol(line + n + 1, NULL, 10);
      break;
    }
  fclose(f);
  return v;
}

/* Resets the peak RSS to the current RSS (Linux >= 4.0); 0 if unsupported. */
static int resetPeakRss(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (!f)
    return 0;
  int ok = fputs("5", f) >= 0;
  return fclose(f) == 0 && ok;
}


static const char *baseName(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

static void graphName(const char *path, char *out, size_t n) {
  snprintf(out, n, "%s", baseName(path));
  char *dot = strrchr(out, '.');
  if (dot)
    *dot = '\0';
}

static void fmtBytes(int64_t b, char *buf, size_t n) { acFormatBytes(b, buf, n); }

static FILE *openCsv(const Options *o, const char *name, const char *mode) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", o->out, name);
  FILE *f = fopen(path, mode);
  if (!f)
    fprintf(stderr, "ac-bench: cannot open %s: %s\n", path, strerror(errno));
  return f;
}

/* Plans `g` with strategy s at `budget`; simulates. */
static int planAndSimulate(const AcGraph *g, AcStrategy s, int64_t budget,
                           int64_t staticBytes, AcPlan *plan, AcSimResult *r) {
  AcPlanOptions po = {s, budget, staticBytes, 0, 0};
  AcError err;
  memset(r, 0, sizeof *r);
  if (acPlanRun(g, &po, plan, &err) != AC_OK ||
      acSimulate(g, plan, staticBytes, 0, r, &err) != AC_OK) {
    fprintf(stderr, "ac-bench: %s: %s\n", acStrategyName(s), err.message);
    return 0;
  }
  return 1;
}

/* Measures one graph; runs in a child process.  Writes CSV rows and the
 * summary record to `fd`. */
static int benchGraph(const Options *o, const char *path, int fd) {
  Summary sum;
  memset(&sum, 0, sizeof sum);
  sum.refEqual = -1;
  graphName(path, sum.name, sizeof sum.name);
  size_t len = 0;
  char *text = acToolReadFile(path, &len);
  if (!text) {
    fprintf(stderr, "ac-bench: cannot read %s\n", path);
    return 1;
  }
  const AcDevice *dev = acDeviceLookup(o->device);
  AcOptions *defaults = acOptionsCreate();
  double tParse[MAX_RUNS], wParse[MAX_RUNS], tImport[MAX_RUNS], tGreedy[MAX_RUNS],
      wGreedy[MAX_RUNS], ratio[MAX_RUNS];
  AcGraph *g = NULL;
  AcTrajectory *traj = NULL;
  AcError err;
  int64_t staticBytes = 0;
  long planKb = -1;
  for (int run = 0; run < o->runs; ++run) {
    MlirContext ctx = acContextCreate();
    double c0 = cpuNow(), w0 = wallNow();
    MlirOperation module = acParseModule(ctx, text, len, path);
    int ok = !mlirOperationIsNull(module) && mlirOperationVerify(module);
    double c1 = cpuNow(), w1 = wallNow();
    if (!ok) {
      fprintf(stderr, "ac-bench: %s does not parse or verify\n", path);
      mlirContextDestroy(ctx);
      return 1;
    }
    AcImport *imp = NULL;
    if (acImportModule(module, dev, &imp, &err, NULL) != AC_OK) {
      fprintf(stderr, "ac-bench: %s: import: %s\n", path, err.message);
      mlirOperationDestroy(module);
      mlirContextDestroy(ctx);
      return 1;
    }
    double c2 = cpuNow();
    /* The graph outlives the IR: keep it, drop the MLIR side. */
    acGraphDestroy(g);
    g = imp->graph;
    imp->graph = NULL;
    acImportDestroy(imp);
    mlirOperationDestroy(module);
    mlirContextDestroy(ctx);
    staticBytes = acSimStaticBytes(g, defaults->optimizerFactor, defaults->reserve);
    acTrajectoryDestroy(traj);
    traj = NULL;
    long before = -1;
    if (run == o->runs - 1 && resetPeakRss())
      before = procStatus("VmRSS");
    int64_t heapBefore = heapLive;
    heapPeak = heapLive;
    double c3 = cpuNow(), w3 = wallNow();
    if (acGreedyTrajectory(g, staticBytes, &traj, &err) != AC_OK) {
      fprintf(stderr, "ac-bench: %s: greedy: %s\n", path, err.message);
      return 1;
    }
    double c4 = cpuNow(), w4 = wallNow();
    if (before >= 0)
      planKb = procStatus("VmHWM") - before;
    sum.planHeap = heapPeak - heapBefore;
    tParse[run] = c1 - c0;
    wParse[run] = w1 - w0;
    tImport[run] = c2 - c1;
    tGreedy[run] = c4 - c3;
    wGreedy[run] = w4 - w3;
    ratio[run] = (c4 - c3) / (c1 - c0);
  }
  free(text);
  sum.ops = g->numOps;
  sum.parse = median(tParse, o->runs);
  sum.import = median(tImport, o->runs);
  sum.greedy = median(tGreedy, o->runs);
  sum.ratio = median(ratio, o->runs);
  sum.planKb = planKb;
  sum.plans = traj->numPlans;
  for (intptr_t k = 1; k < traj->numPlans; ++k)
    if (traj->peakBytes[k] == traj->peakBytes[k - 1])
      sum.plateau++;
  sum.mincutPeak = traj->peakBytes[0];
  sum.lowest = traj->peakBytes[traj->numPlans - 1];
  /* Without the plateau rule greedy stops before its first plateau drop. */
  sum.lowestNoPlateau = sum.lowest;
  for (intptr_t k = 1; k < traj->numPlans; ++k)
    if (traj->peakBytes[k] == traj->peakBytes[k - 1]) {
      sum.lowestNoPlateau = traj->peakBytes[k - 1];
      break;
    }

  FILE *timing = openCsv(o, "timing.csv", "a");
  FILE *quality = openCsv(o, "quality.csv", "a");
  FILE *graphs = openCsv(o, "graphs.csv", "a");
  if (!timing || !quality || !graphs)
    return 1;
  fprintf(timing, "%s,parse+verify,%d,%.6g,%.6g\n", sum.name, o->runs, sum.parse,
          median(wParse, o->runs));
  fprintf(timing, "%s,import,%d,%.6g,\n", sum.name, o->runs, sum.import);
  fprintf(timing, "%s,greedy,%d,%.6g,%.6g\n", sum.name, o->runs, sum.greedy,
          median(wGreedy, o->runs));

  /* The reference on small graphs: time and equality. */
  uint8_t *s0 = malloc((size_t)g->numValues + 1);
  AcPlan *plan = acPlanCreate(g);
  if (!s0 || !plan)
    return 1;
  if (g->numOps <= o->refMaxOps) {
    double t[MAX_RUNS], w[MAX_RUNS];
    int n = o->runs < 3 ? o->runs : 3;
    sum.refEqual = 1;
    for (int run = 0; run < n; ++run) {
      AcTrajectory *r = NULL;
      double c0 = cpuNow(), w0 = wallNow();
      if (acMincutSaveSet(g, s0, &err) != AC_OK ||
          acGreedyTrajectoryReference(g, s0, staticBytes, &r, &err) != AC_OK) {
        fprintf(stderr, "ac-bench: %s: reference: %s\n", path, err.message);
        return 1;
      }
      t[run] = cpuNow() - c0;
      w[run] = wallNow() - w0;
      if (!acTrajectoryEqual(r, traj))
        sum.refEqual = 0;
      acTrajectoryDestroy(r);
    }
    sum.ref = median(t, n);
    fprintf(timing, "%s,greedy-ref,%d,%.6g,%.6g\n", sum.name, n, sum.ref, median(w, n));
  }

  /* Other strategies at the middle budget. */
  AcSimResult r;
  int64_t hi = 0;
  if (!planAndSimulate(g, AC_STRATEGY_SAVE_ALL, -1, staticBytes, plan, &r))
    return 1;
  hi = r.peakBytes;
  acSimResultClear(&r);
  int64_t lo = sum.lowest;
  if (hi < lo)
    hi = lo;
  int64_t mid = lo + (hi - lo) / 2;
  double stratTime[AC_STRATEGY_COUNT];
  int stratRan[AC_STRATEGY_COUNT];
  for (int s = 0; s < AC_STRATEGY_COUNT; ++s) {
    stratRan[s] = 0;
    if (s == AC_STRATEGY_GREEDY || g->numOps > o->maxOps[s])
      continue;
    double t[MAX_RUNS], w[MAX_RUNS];
    for (int run = 0; run < o->runs; ++run) {
      AcPlanOptions po = {(AcStrategy)s, mid, staticBytes, 0, 0};
      double c0 = cpuNow(), w0 = wallNow();
      if (acPlanRun(g, &po, plan, &err) != AC_OK) {
        fprintf(stderr, "ac-bench: %s: %s: %s\n", path, acStrategyName((AcStrategy)s),
                err.message);
        return 1;
      }
      t[run] = cpuNow() - c0;
      w[run] = wallNow() - w0;
    }
    stratTime[s] = median(t, o->runs);
    stratRan[s] = 1;
    fprintf(timing, "%s,%s,%d,%.6g,%.6g\n", sum.name, acStrategyName((AcStrategy)s),
            o->runs, stratTime[s], median(w, o->runs));
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  sum.rssKb = ru.ru_maxrss;

  /* The block for this graph. */
  char b1[32], b2[32], b3[32], b4[32];
  printf("== %s: %ld ops, %ld values, %.1f MB of text\n", sum.name, (long)g->numOps,
         (long)g->numValues, (double)len / 1e6);
  printf("   CPU ms (median of %d): parse+verify %.1f, import %.1f, greedy %.2f "
         "(ratio %.3f)", o->runs, sum.parse * 1e3, sum.import * 1e3,
         sum.greedy * 1e3, sum.ratio);
  if (sum.refEqual >= 0)
    printf(", greedy-ref %.1f (trajectory %s)", sum.ref * 1e3,
           sum.refEqual ? "identical" : "DIFFERS");
  printf("\n   at budget %.4g GB:", (double)mid / 1e9);
  for (int s = 0; s < AC_STRATEGY_COUNT; ++s)
    if (stratRan[s])
      printf(" %s %.2f", acStrategyName((AcStrategy)s), stratTime[s] * 1e3);
  printf("\n   peak RSS %.1f MB (planner +%.1f MB); planner peak heap %.2f MB (%.0f B/op)\n",
         (double)sum.rssKb / 1024, planKb >= 0 ? (double)planKb / 1024 : 0.0,
         (double)sum.planHeap / 1e6, (double)sum.planHeap / (double)g->numOps);
  fmtBytes(sum.mincutPeak, b1, sizeof b1);
  fmtBytes(sum.lowest, b2, sizeof b2);
  fmtBytes(sum.lowestNoPlateau, b3, sizeof b3);
  fmtBytes(hi, b4, sizeof b4);
  printf("   greedy: %ld plans (%ld plateau drops), peak %s -> %s (%s without the "
         "plateau rule); save-all %s\n",
         (long)sum.plans, (long)sum.plateau, b1, b2, b3, b4);
  printf("   %-14s", "budget");
  for (int s = 0; s < AC_STRATEGY_COUNT; ++s)
    if (s == AC_STRATEGY_GREEDY || stratRan[s])
      printf(" | %-10s %10s %9s", acStrategyName((AcStrategy)s), "peak", "recomp_s");
  printf("\n");
  int nb = o->budgets < 2 ? 2 : o->budgets;
  for (int i = 0; i < nb; ++i) {
    int64_t budget = lo + (int64_t)((double)(hi - lo) * i / (nb - 1));
    printf("   %-14.6g", (double)budget);
    for (int s = 0; s < AC_STRATEGY_COUNT; ++s) {
      if (s != AC_STRATEGY_GREEDY && !stratRan[s])
        continue;
      if (s == AC_STRATEGY_GREEDY) {
        if (acGreedyPlanForBudget(g, traj->initialSaved, staticBytes, budget, plan, NULL,
                                  &err) != AC_OK ||
            acSimulate(g, plan, staticBytes, 0, &r, &err) != AC_OK)
          return 1;
      } else if (!planAndSimulate(g, (AcStrategy)s, budget, staticBytes, plan, &r)) {
        return 1;
      }
      printf(" | %-10s %10.4g %9.3g", r.peakBytes <= budget ? "ok" : "over",
             (double)r.peakBytes, r.recomputeSeconds);
      fprintf(quality, "%s,%" PRId64 ",%s,%" PRId64 ",%.9g,%" PRId64 ",%d\n", sum.name,
              budget, acStrategyName((AcStrategy)s), r.peakBytes, r.recomputeSeconds,
              r.savedBytes, r.peakBytes <= budget);
      acSimResultClear(&r);
    }
    printf("\n");
  }
  fflush(stdout);
  fprintf(graphs,
          "%s,%s,%ld,%ld,%zu,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%s,%ld,%ld,%" PRId64 ",%ld,%ld,%" PRId64
          ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n",
          sum.name, path, (long)g->numOps, (long)g->numValues, len, o->runs, sum.parse,
          sum.import, sum.greedy, sum.ratio, sum.ref,
          sum.refEqual < 0 ? "" : sum.refEqual ? "identical" : "differs",
          sum.rssKb, planKb, sum.planHeap, (long)sum.plans, (long)sum.plateau, sum.mincutPeak,
          sum.lowest, sum.lowestNoPlateau, hi);
  fclose(timing);
  fclose(quality);
  fclose(graphs);
  sum.ok = 1;
  if (write(fd, &sum, sizeof sum) != (ssize_t)sizeof sum)
    return 1;
  free(s0);
  acPlanDestroy(plan);
  acTrajectoryDestroy(traj);
  acGraphDestroy(g);
  acOptionsDestroy(defaults);
  return 0;
}

static void usage(void) {
  fprintf(stderr,
          "usage: ac-bench [--runs N] [--budgets N] [--out DIR] [--ref-max-ops N]\n"
          "                [--max-ops STRATEGY=N] [--device NAME] FILE.mlir...\n");
}

int main(int argc, char **argv) {
  Options o;
  memset(&o, 0, sizeof o);
  o.runs = 5;
  o.budgets = 8;
  o.out = "bench/out";
  o.refMaxOps = 5000;
  o.device = "h100";
  for (int s = 0; s < AC_STRATEGY_COUNT; ++s)
    o.maxOps[s] = INTPTR_MAX;
  AcStrategy s;
  if (acStrategyParse("ilp", &s, NULL) == AC_OK)
    o.maxOps[s] = 600; /* as the sweep: the exact planner is for small graphs */
  if (acStrategyParse("beam", &s, NULL) == AC_OK)
    o.maxOps[s] = 3000;
  int first = argc;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--runs") && i + 1 < argc) {
      o.runs = atoi(argv[++i]);
    } else if (!strcmp(a, "--budgets") && i + 1 < argc) {
      o.budgets = atoi(argv[++i]);
    } else if (!strcmp(a, "--out") && i + 1 < argc) {
      o.out = argv[++i];
    } else if (!strcmp(a, "--ref-max-ops") && i + 1 < argc) {
      o.refMaxOps = atol(argv[++i]);
    } else if (!strcmp(a, "--device") && i + 1 < argc) {
      o.device = argv[++i];
    } else if (!strcmp(a, "--max-ops") && i + 1 < argc) {
      char name[64];
      const char *eq = strchr(argv[++i], '=');
      size_t n = eq ? (size_t)(eq - argv[i]) : 0;
      if (!eq || n >= sizeof name) {
        usage();
        return 2;
      }
      memcpy(name, argv[i], n);
      name[n] = '\0';
      AcError err;
      if (acStrategyParse(name, &s, &err) != AC_OK) {
        fprintf(stderr, "ac-bench: %s\n", err.message);
        return 2;
      }
      o.maxOps[s] = atol(eq + 1);
    } else if (a[0] == '-') {
      usage();
      return 2;
    } else {
      first = i;
      break;
    }
  }
  if (first >= argc || o.runs < 1 || o.runs > MAX_RUNS || !acDeviceLookup(o.device)) {
    usage();
    return 2;
  }
  mkdir(o.out, 0777);
  FILE *f;
  if (!(f = openCsv(&o, "graphs.csv", "w")))
    return 1;
  fprintf(f, "graph,file,ops,values,file_bytes,runs,parse_verify_cpu_s,import_cpu_s,"
             "greedy_cpu_s,ratio_greedy_to_parse_verify,greedy_ref_cpu_s,"
             "ref_trajectory,peak_rss_kb,planner_rss_kb,planner_heap_bytes,plans,plateau_drops,"
             "mincut_peak,lowest_peak,lowest_peak_without_plateau_rule,save_all_peak\n");
  fclose(f);
  if (!(f = openCsv(&o, "timing.csv", "w")))
    return 1;
  fprintf(f, "graph,strategy,runs,cpu_s_median,wall_s_median\n");
  fclose(f);
  if (!(f = openCsv(&o, "quality.csv", "w")))
    return 1;
  fprintf(f, "graph,budget_bytes,strategy,peak_bytes,recompute_seconds,saved_bytes,"
             "feasible\n");
  fclose(f);
  int nfiles = argc - first, failed = 0;
  Summary *all = calloc((size_t)nfiles, sizeof *all);
  if (!all)
    return 1;
  for (int i = 0; i < nfiles; ++i) {
    int fds[2];
    fflush(stdout);
    if (pipe(fds) != 0)
      return 1;
    pid_t pid = fork();
    if (pid < 0)
      return 1;
    if (pid == 0) {
      close(fds[0]);
      int rc = benchGraph(&o, argv[first + i], fds[1]);
      fflush(stdout);
      _exit(rc);
    }
    close(fds[1]);
    if (read(fds[0], &all[i], sizeof all[i]) != (ssize_t)sizeof all[i])
      all[i].ok = 0;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!all[i].ok || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      graphName(argv[first + i], all[i].name, sizeof all[i].name);
      all[i].ok = 0;
      failed = 1;
    }
  }
  printf("\n%-22s %7s %10s %9s %9s %7s %10s %7s %7s %6s %9s %9s %9s\n", "graph", "ops",
         "parse+ver", "import", "greedy", "ratio", "greedy-ref", "RSS", "heap", "plans",
         "mincut", "lowest", "old rule");
  printf("%-22s %7s %10s %9s %9s %7s %10s %7s %7s %6s %9s %9s %9s\n", "", "", "ms", "ms",
         "ms", "", "ms", "MB", "MB", "", "GB", "GB", "GB");
  for (int i = 0; i < nfiles; ++i) {
    const Summary *x = &all[i];
    if (!x->ok) {
      printf("%-22s failed\n", x->name);
      continue;
    }
    char ref[32];
    if (x->refEqual < 0)
      snprintf(ref, sizeof ref, "-");
    else
      snprintf(ref, sizeof ref, "%.1f%s", x->ref * 1e3, x->refEqual ? "=" : "!");
    printf("%-22s %7ld %10.1f %9.1f %9.2f %7.3f %10s %7.0f %7.1f %6ld %9.4g %9.4g %9.4g\n",
           x->name, (long)x->ops, x->parse * 1e3, x->import * 1e3, x->greedy * 1e3,
           x->ratio, ref, (double)x->rssKb / 1024, (double)x->planHeap / 1e6,
           (long)x->plans,
           (double)x->mincutPeak / 1e9, (double)x->lowest / 1e9,
           (double)x->lowestNoPlateau / 1e9);
  }
  printf("(CPU time, medians; ratio = greedy / (parse + verify) per run; "
         "greedy-ref: '=' identical trajectory, '!' differs; heap: the planner's "
         "peak heap in greedy; CSV in %s/)\n", o.out);
  free(all);
  return failed;
}
