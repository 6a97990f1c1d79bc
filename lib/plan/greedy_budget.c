/* greedy_budget.c - the greedy's entry points: the trajectory from the
 * starting save set or a given one (run by the incremental greedy), and
 * greedy's plan for a budget.  The trajectory runs until a plan fits the
 * budget (the prefix of the full one), records the budget's last drop, and
 * trajectory.c's acTrajectoryBudgetPlan turns it into the plan.  A budget
 * picks the first plan whose peak fits, or the last one; smaller budgets
 * only walk further along the same trajectory, so the chosen peak is
 * monotone in the budget. */
#include "greedy_internal.h"

AcStatus acGreedyTrajectoryUntil(const AcGraph *g, const uint8_t *initialSaved,
                                 int64_t staticBytes, int64_t budget,
                                 AcTrajectory **out, AcError *err) {
  return acGreedyIncrementalUntil(g, initialSaved, staticBytes, budget, 0,
                                  out, err);
}

AcStatus acGreedyTrajectoryFrom(const AcGraph *g, const uint8_t *initialSaved,
                                int64_t staticBytes, AcTrajectory **out,
                                AcError *err) {
  return acGreedyIncrementalUntil(g, initialSaved, staticBytes, -1, 0, out,
                                  err);
}

AcStatus acGreedyTrajectory(const AcGraph *g, int64_t staticBytes,
                            AcTrajectory **out, AcError *err) {
  uint8_t *saved = acMalloc((size_t)g->numValues + 1);
  AcStatus st;
  *out = NULL;
  if (!saved)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                      "out of memory in the greedy planner");
  st = acPlanStartSet(g, staticBytes, saved, err);
  if (st == AC_OK)
    st = acGreedyTrajectoryFrom(g, saved, staticBytes, out, err);
  acFree(saved);
  return st;
}

AcStatus acGreedyPlanForBudget(const AcGraph *g, const uint8_t *initialSaved,
                               int64_t staticBytes, int64_t budget,
                               AcPlan *plan, AcTrajectory **out, AcError *err) {
  AcGreedyOptions o;
  acGreedyOptionsInit(&o);
  o.search.budget = budget;
  o.search.staticBytes = staticBytes;
  return acGreedyPlanForBudgetRun(g, initialSaved, &o, NULL, plan, out, err);
}

AcStatus acGreedyPlanForBudgetRun(const AcGraph *g, const uint8_t *initialSaved,
                                  const AcGreedyOptions *opts, int *cutShort,
                                  AcPlan *plan, AcTrajectory **out,
                                  AcError *err) {
  AcTrajectory *t = NULL;
  AcStatus st;
  int64_t budget = opts->search.budget;
  if (out)
    *out = NULL;
  if (cutShort)
    *cutShort = 0;
  if (budget < 0) {
    st = acPlanFromSaved(g, initialSaved, plan, err);
  } else if ((st = acGreedyIncrementalRun(g, initialSaved, opts, cutShort, &t,
                                          err)) == AC_OK) {
    st = acTrajectoryBudgetPlan(g, t, budget, plan, err);
  }
  if (out && st == AC_OK)
    *out = t;
  else
    acTrajectoryDestroy(t);
  return st;
}
