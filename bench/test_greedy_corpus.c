/* test_greedy_corpus.c - the incremental greedy against the reference on
 * real graphs: every file given (the corpus, generated graphs) is imported
 * and both trajectories from the min-cut set are compared (drops, peaks,
 * recompute seconds bit for bit, saved bytes); the incremental state is
 * also re-checked against a fresh simulation after every drop, and at a
 * budget between each two peaks both choose the same last drop
 * (acGreedyPlanForBudget).  Exit status
 * 0 when all are identical.
 *
 *   test_greedy_corpus FILE.mlir...      (ctest: examples/corpus/\*.mlir) */
#include "autoac/autoac.h"
#include "import/import.h"
#include "partition/partition.h"
#include "autoac/simulate.h"

#include "plan/greedy_internal.h"
#include "plan/plan_internal.h"
#include "plan/plan_oracles.h"

#include "mlir-c/RegisterEverything.h"
#include "../tools/common/read_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Compares from `s0`; returns 0 when identical. */
static int compare(const char *path, const char *what, const AcGraph *g,
                   const uint8_t *s0, int64_t staticBytes) {
  AcTrajectory *r = NULL, *t = NULL, *c = NULL;
  AcError err;
  int bad = 0;
  if (acGreedyTrajectoryReference(g, s0, staticBytes, &r, &err) != AC_OK ||
      acGreedyTrajectoryFrom(g, s0, staticBytes, &t, &err) != AC_OK ||
      acGreedyIncrementalUntil(g, s0, staticBytes, -1, 1, &c, &err) != AC_OK) {
    printf("FAIL %s (%s): %s\n", path, what, err.message);
    bad = 1;
  } else if (!acTrajectoryEqual(r, t) || !acTrajectoryEqual(r, c)) {
    printf("FAIL %s (%s): trajectories differ\n", path, what);
    for (intptr_t k = 0; k < r->numPlans || k < t->numPlans; ++k)
      printf("  %3ld ref %6d %14lld %.17g | inc %6d %14lld %.17g\n", (long)k,
             k < r->numPlans ? (int)r->dropped[k] : -9,
             k < r->numPlans ? (long long)r->peakBytes[k] : -9LL,
             k < r->numPlans ? r->recomputeSeconds[k] : -9.0,
             k < t->numPlans ? (int)t->dropped[k] : -9,
             k < t->numPlans ? (long long)t->peakBytes[k] : -9LL,
             k < t->numPlans ? t->recomputeSeconds[k] : -9.0);
    bad = 1;
  } else {
    intptr_t plateau = 0, budgets = 0, refined = 0;
    for (intptr_t k = 1; k < r->numPlans; ++k)
      plateau += r->peakBytes[k] == r->peakBytes[k - 1];
    /* A budget between two peaks (at most 10 pairs, spread over the
       trajectory): the same last drop both ways. */
    intptr_t stride = (r->numPlans + 9) / 10;
    for (intptr_t k = 1; k < r->numPlans && !bad; k += stride) {
      if (r->peakBytes[k] == r->peakBytes[k - 1])
        continue;
      int64_t b = r->peakBytes[k] + (r->peakBytes[k - 1] - r->peakBytes[k]) / 2;
      AcTrajectory *rb = NULL, *cb = NULL;
      if (acGreedyReferenceUntil(g, s0, staticBytes, b, &rb, &err) != AC_OK ||
          acGreedyIncrementalUntil(g, s0, staticBytes, b, 0, &cb, &err) != AC_OK) {
        printf("FAIL %s (%s): budget %lld: %s\n", path, what, (long long)b, err.message);
        bad = 1;
      } else if (rb->refinedDrop != cb->refinedDrop ||
                 (rb->refinedDrop != AC_NONE &&
                  (rb->refinedPeakBytes != cb->refinedPeakBytes ||
                   memcmp(&rb->refinedRecomputeSeconds, &cb->refinedRecomputeSeconds,
                          sizeof(double))))) {
        printf("FAIL %s (%s): budget %lld: last drop %d (ref) vs %d (inc)\n", path, what,
               (long long)b, (int)rb->refinedDrop, (int)cb->refinedDrop);
        bad = 1;
      }
      ++budgets;
      refined += rb && rb->refinedDrop != AC_NONE;
      acTrajectoryDestroy(rb);
      acTrajectoryDestroy(cb);
    }
    if (!bad)
      printf("ok   %s (%s): %ld ops, %ld plans (%ld plateau drops), peak %lld -> %lld; "
             "%ld budgets, %ld take a cheaper last drop\n",
             path, what, (long)g->numOps, (long)r->numPlans, (long)plateau,
             (long long)r->peakBytes[0], (long long)r->peakBytes[r->numPlans - 1],
             (long)budgets, (long)refined);
  }
  acTrajectoryDestroy(r);
  acTrajectoryDestroy(t);
  acTrajectoryDestroy(c);
  return bad;
}

int main(int argc, char **argv) {
  int failed = 0;
  MlirContext ctx = acContextCreate();
  AcOptions *opts = acOptionsCreate();
  for (int i = 1; i < argc; ++i) {
    size_t len = 0;
    char *text = acToolReadFile(argv[i], &len);
    AcImport *imp = NULL;
    AcError err;
    MlirOperation m = text ? acParseModule(ctx, text, len, argv[i]) : (MlirOperation){NULL};
    if (mlirOperationIsNull(m) ||
        acImportModule(m, acDeviceLookup("h100"), &imp, &err, NULL) != AC_OK) {
      printf("FAIL %s: cannot read, parse or import\n", argv[i]);
      failed = 1;
    } else {
      const AcGraph *g = imp->graph;
      int64_t staticBytes = acSimStaticBytes(g, opts->optimizerFactor, opts->reserve);
      uint8_t *s0 = calloc((size_t)g->numValues + 1, 1);
      AcPlan *p = acPlanCreate(g);
      if (acMincutSaveSet(g, s0, &err) != AC_OK) {
        printf("FAIL %s: min-cut: %s\n", argv[i], err.message);
        failed = 1;
      } else {
        failed |= compare(argv[i], "min-cut", g, s0, staticBytes);
        /* The knapsack's per-drop seconds (a walk) against derivations. */
        AcPlan *base = acPlanCreate(g), *trial = acPlanCreate(g);
        AcDropChecker *ck = acDropCheckerCreate(g);
        int32_t *inst = calloc((size_t)g->numFuncs + 1, sizeof *inst);
        acPlanBwdInstances(g, inst);
        memcpy(base->saved, s0, (size_t)g->numValues);
        int drops = 0, differ = 0;
        if (acPlanDerive(g, base, &err) == AC_OK)
          for (AcId v = 0; v < g->numValues; ++v) {
            if (!acDropCheckerOk(ck, base->saved, v))
              continue;
            memcpy(trial->saved, base->saved, (size_t)g->numValues);
            trial->saved[v] = 0;
            ++drops;
            differ += acPlanDerive(g, trial, &err) != AC_OK ||
                      acPlanExtraSeconds(g, base, trial, inst) !=
                          acDropCheckerExtraSeconds(ck, base, v, inst);
          }
        printf("%s %s: %d drops' extra seconds, walk == derivation: %s\n",
               differ ? "FAIL" : "ok  ", argv[i], drops, differ ? "no" : "yes");
        failed |= differ != 0;
        free(inst);
        acDropCheckerDestroy(ck);
        acPlanDestroy(base);
        acPlanDestroy(trial);
      }
      /* From save-all too: longer trajectories. */
      acPlanSaveAll(g, p);
      failed |= compare(argv[i], "save-all", g, p->saved, staticBytes);
      acPlanDestroy(p);
      free(s0);
    }
    acImportDestroy(imp);
    if (!mlirOperationIsNull(m))
      mlirOperationDestroy(m);
    free(text);
  }
  acOptionsDestroy(opts);
  mlirContextDestroy(ctx);
  printf("%s\n", failed ? "greedy corpus: FAILED" : "greedy corpus: all identical");
  return failed;
}
