/* run.c - acPlanRun: one planning run for a strategy (docs/planner.md). */
#include "plan_internal.h"
#include "autoac/partition.h"

#include <string.h>

AcStatus acPlanRun(const AcGraph *g, const AcPlanOptions *opts, AcPlan *plan,
                   AcError *err) {
  AcStatus st = AC_OK;
  uint8_t *saved = NULL;
  AcBeamFront *beam = NULL;
  if (opts->strategy == AC_STRATEGY_SAVE_ALL) {
    acPlanSaveAll(g, plan);
    return acPlanDerive(g, plan, err);
  }
  if ((int)opts->strategy < 0 || opts->strategy >= AC_STRATEGY_COUNT)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "unknown strategy %d", (int)opts->strategy);
  saved = acMalloc((size_t)g->numValues + 1);
  if (!saved) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while planning");
    goto cleanup;
  }
  /* The baselines start (and stay) at the min cut; the searches start from
     the improved set, never worse than save-all or the min cut. */
  if (opts->strategy == AC_STRATEGY_MINCUT || opts->strategy == AC_STRATEGY_KNAPSACK)
    st = acMincutSaveSet(g, saved, err);
  else
    st = acPlanStartSet(g, opts->staticBytes, saved, err);
  if (st != AC_OK)
    goto cleanup;
  switch (opts->strategy) {
  case AC_STRATEGY_GREEDY:
    if (opts->budget < 0) {
      st = acPlanFromSaved(g, saved, plan, err);
      break;
    }
    /* The trajectory until a plan fits, and the budget's last drop. */
    st = acGreedyPlanForBudget(g, saved, opts->staticBytes, opts->budget, plan,
                               NULL, err);
    break;
  case AC_STRATEGY_ILP:
    st = acIlpFrom(g, saved, opts->staticBytes, opts->budget, NULL, plan, NULL,
                   err);
    break;
  case AC_STRATEGY_BEAM:
    if (opts->budget < 0) {
      st = acPlanFromSaved(g, saved, plan, err);
      break;
    }
    st = acBeamSearch(g, saved, opts->staticBytes, 0, &beam, err);
    if (st == AC_OK)
      st = acBeamPlan(g, beam, acBeamChoose(beam, opts->budget), plan, err);
    break;
  case AC_STRATEGY_KNAPSACK:
    st = acKnapsackFrom(g, saved, opts->staticBytes, opts->budget, plan, NULL,
                        err);
    break;
  default: /* AC_STRATEGY_MINCUT */
    st = acPlanFromSaved(g, saved, plan, err);
    break;
  }
cleanup:
  acBeamFrontDestroy(beam);
  acFree(saved);
  return st;
}
