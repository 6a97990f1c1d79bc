/* plan.c - what the planners share beyond a plan's derivation (which is
 * lib/graph/derive.c): a plan from a save set, backward instances, the
 * extra seconds of a drop, the drop checker, strategy names, the options'
 * defaults. */
#include "plan_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static int acCompareIds(const void *a, const void *b) {
  AcId x = *(const AcId *)a, y = *(const AcId *)b;
  return (x > y) - (x < y);
}

void acPlanOptionsInit(AcPlanOptions *o) {
  memset(o, 0, sizeof *o);
  o->strategy = AC_STRATEGY_GREEDY;
  o->budget = -1;
}

void acSearchOptionsInit(AcSearchOptions *o) {
  memset(o, 0, sizeof *o);
  o->budget = -1;
}

void acIlpOptionsInit(AcIlpOptions *o) {
  memset(o, 0, sizeof *o);
  acSearchOptionsInit(&o->search);
}

AcStatus acPlanFromSaved(const AcGraph *g, const uint8_t *saved, AcPlan *plan,
                         AcError *err) {
  memcpy(plan->saved, saved, (size_t)g->numValues);
  return acPlanDerive(g, plan, err);
}

void acPlanBwdInstances(const AcGraph *g, int32_t *inst) {
  memset(inst, 0, (size_t)g->numFuncs * sizeof *inst);
  for (intptr_t s = 0; s < g->numSched; ++s)
    if (g->sched[s].phase == AC_PHASE_BWD)
      inst[g->sched[s].func]++;
}

double acPlanExtraSeconds(const AcGraph *g, const AcPlan *before,
                          const AcPlan *after, const int32_t *inst) {
  double sec = 0;
  for (intptr_t o = 0; o < g->numOps; ++o) {
    assert(!before->recompute[o] || after->recompute[o]);
    if (after->recompute[o] && !before->recompute[o])
      sec += g->ops[o].seconds * inst[g->ops[o].func];
  }
  return sec;
}

/*===-------------------------- drop checks -------------------------------===*/

struct AcDropChecker {
  const AcGraph *g;
  uint32_t *stamp;   /* [numOps] epoch at which the op was last visited */
  uint32_t epoch;
  AcId *stack;       /* [numOperands + 1] */
  AcId *ops;         /* [numOps] ops a drop newly recomputes */
};

AcDropChecker *acDropCheckerCreate(const AcGraph *g) {
  AcDropChecker *ck = acCalloc(1, sizeof *ck);
  if (!ck)
    return NULL;
  ck->g = g;
  ck->stamp = acCalloc((size_t)g->numOps + 1, sizeof *ck->stamp);
  ck->stack = acMalloc(((size_t)g->numOperands + 1) * sizeof *ck->stack);
  ck->ops = acMalloc(((size_t)g->numOps + 1) * sizeof *ck->ops);
  if (!ck->stamp || !ck->stack || !ck->ops) {
    acDropCheckerDestroy(ck);
    return NULL;
  }
  return ck;
}

void acDropCheckerDestroy(AcDropChecker *ck) {
  if (!ck)
    return;
  acFree(ck->stamp);
  acFree(ck->stack);
  acFree(ck->ops);
  acFree(ck);
}

double acDropCheckerExtraSeconds(AcDropChecker *ck, const AcPlan *base, AcId v,
                                 const int32_t *inst) {
  const AcGraph *g = ck->g;
  const AcValue *val = &g->values[v];
  /* Derivation reruns v's producer only when something in the backward
     reads v: a backward op, or an op it reruns already. */
  int needed = 0;
  for (int32_t k = 0; k < val->numUses && !needed; ++k) {
    AcId u = acValueUse(g, v, k);
    needed = g->ops[u].phase == AC_PHASE_BWD || base->recompute[u];
  }
  if (!needed)
    return 0;
  if (++ck->epoch == 0) {
    memset(ck->stamp, 0, (size_t)g->numOps * sizeof *ck->stamp);
    ck->epoch = 1;
  }
  /* The producer, then what it needs through values not saved (v is not),
     stopping at ops rerun already (their needs are met). */
  intptr_t sp = 0, n = 0;
  ck->stack[sp++] = val->producer;
  while (sp > 0) {
    AcId q = ck->stack[--sp];
    if (ck->stamp[q] == ck->epoch)
      continue;
    ck->stamp[q] = ck->epoch;
    if (base->recompute[q])
      continue;
    ck->ops[n++] = q;
    for (int32_t i = 0; i < g->ops[q].numOperands; ++i) {
      AcId x = acOpOperand(g, q, i);
      const AcValue *xv = &g->values[x];
      if (xv->role == AC_ROLE_RESULT && (x == v || !base->saved[x]) &&
          ck->stamp[xv->producer] != ck->epoch)
        ck->stack[sp++] = xv->producer;
    }
  }
  /* Summed in op order, as acPlanExtraSeconds does. */
  qsort(ck->ops, (size_t)n, sizeof *ck->ops, acCompareIds);
  double sec = 0;
  for (intptr_t i = 0; i < n; ++i)
    sec += g->ops[ck->ops[i]].seconds * inst[g->ops[ck->ops[i]].func];
  return sec;
}

int acDropCheckerOk(AcDropChecker *ck, const uint8_t *saved, AcId v) {
  const AcGraph *g = ck->g;
  const AcValue *val = &g->values[v];
  if (!saved[v] || val->role != AC_ROLE_RESULT || val->aliasRoot != v)
    return 0;
  AcId p0 = val->producer;
  if (g->ops[p0].phase != AC_PHASE_FWD || acOpCannotRecompute(&g->ops[p0]))
    return 0;
  if (++ck->epoch == 0) { /* wrapped: restart the stamps */
    memset(ck->stamp, 0, (size_t)g->numOps * sizeof *ck->stamp);
    ck->epoch = 1;
  }
  intptr_t sp = 0;
  ck->stamp[p0] = ck->epoch;
  for (int32_t i = 0; i < g->ops[p0].numOperands; ++i)
    ck->stack[sp++] = acOpOperand(g, p0, i);
  while (sp > 0) {
    AcId u = ck->stack[--sp];
    const AcValue *uv = &g->values[u];
    if (uv->role != AC_ROLE_RESULT || saved[u])
      continue;
    AcId p = uv->producer;
    if (ck->stamp[p] == ck->epoch)
      continue;
    ck->stamp[p] = ck->epoch;
    const AcOp *op = &g->ops[p];
    assert(op->phase == AC_PHASE_FWD); /* forward ops read forward values */
    if (acOpCannotRecompute(op))
      return 0;
    for (int32_t i = 0; i < op->numOperands; ++i)
      ck->stack[sp++] = acOpOperand(g, p, i);
  }
  return 1;
}

/*===-------------------------- strategies --------------------------------===*/

static const char *const acStrategyNames[AC_STRATEGY_COUNT] = {
    [AC_STRATEGY_GREEDY] = "greedy",
    [AC_STRATEGY_SAVE_ALL] = "save-all",
    [AC_STRATEGY_MINCUT] = "mincut",
    [AC_STRATEGY_KNAPSACK] = "knapsack",
    [AC_STRATEGY_ILP] = "ilp",
    [AC_STRATEGY_BEAM] = "beam",
};

const char *acStrategyName(AcStrategy s) {
  if ((int)s < 0 || s >= AC_STRATEGY_COUNT)
    return "unknown";
  return acStrategyNames[s];
}

AcStatus acStrategyParse(const char *text, AcStrategy *out, AcError *err) {
  for (int s = 0; s < AC_STRATEGY_COUNT; ++s)
    if (text && strcmp(text, acStrategyNames[s]) == 0) {
      *out = (AcStrategy)s;
      return AC_OK;
    }
  return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                    "unknown strategy '%s'; expected one of: greedy, "
                    "save-all, mincut, knapsack, ilp, beam",
                    text ? text : "");
}
