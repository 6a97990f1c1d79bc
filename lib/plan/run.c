/* run.c - acPlanRun: one planning run for a strategy (docs/planner.md). */
#include "plan_internal.h"
#include "autoac/partition.h"

#include <string.h>
#include <time.h>

static double acRunNow(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

AcStatus acPlanRun(const AcGraph *g, const AcPlanOptions *opts, AcPlan *plan,
                   AcError *err) {
  return acPlanRunStats(g, opts, plan, NULL, err);
}

AcStatus acPlanRunStats(const AcGraph *g, const AcPlanOptions *opts,
                        AcPlan *plan, AcSearchStats *stats, AcError *err) {
  AcStatus st = AC_OK;
  uint8_t *saved = NULL;
  AcBeamFront *beam = NULL;
  AcSearchStats local;
  AcSearchStats *S = stats ? stats : &local;
  double t0 = acRunNow();
  memset(S, 0, sizeof *S);
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
  case AC_STRATEGY_ILP: {
    AcIlpStats is;
    S->searched = 1;
    st = acIlpFrom(g, saved, opts->staticBytes, opts->budget, NULL, plan, &is,
                   err);
    S->optimal = is.optimal;
    S->limited = is.limited;
    S->work = is.nodes;
    break;
  }
  case AC_STRATEGY_BEAM:
    S->searched = 1;
    if (opts->budget < 0) {
      /* The starting plan: dropping only adds recompute, so it is the
         cheapest of the space. */
      S->optimal = 1;
      st = acPlanFromSaved(g, saved, plan, err);
      break;
    }
    st = acBeamSearch(g, saved, opts->staticBytes, 0, &beam, err);
    if (st == AC_OK) {
      intptr_t k = acBeamChoose(beam, opts->budget);
      /* Proven only when the starting plan itself fits. */
      S->optimal = k == 0 && beam->peakBytes[0] <= opts->budget;
      S->work = beam->simulations;
      st = acBeamPlan(g, beam, k, plan, err);
    }
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
  S->seconds = acRunNow() - t0;
  acBeamFrontDestroy(beam);
  acFree(saved);
  return st;
}
