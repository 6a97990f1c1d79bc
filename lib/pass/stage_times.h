/* stage_times.h - CPU seconds per stage of the pass body (acRunSinglePlan,
 * pass/pass.h; each bucket's run adds to them), for the
 * end-to-end benchmark (bench/ac-e2e.c).  Not exported: only what links the
 * static library (ac-bench, ac-e2e) sees it.  NULL (the default) costs one
 * test per stage. */
#ifndef AUTOAC_LIB_PASS_STAGE_TIMES_H
#define AUTOAC_LIB_PASS_STAGE_TIMES_H

typedef struct AcStageTimes {
  double import;    /* acImportForOptions (with the view sinking) */
  double plan;      /* the plan and its simulation */
  double baselines; /* save-all, min-cut, knapsack plans and simulations */
  double report;    /* report JSON and plan file */
  double rewrite;   /* groups + split/annotate */
} AcStageTimes;

/* When non-NULL, acRunSinglePlan adds each stage's CPU seconds here. */
extern AcStageTimes *acStageTimes;

#endif
