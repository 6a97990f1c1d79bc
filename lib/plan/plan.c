/* plan.c - plans: creation, derivation of the recompute set, recompute
 * groups, saved bytes and recompute cost, strategy names.
 *
 * Derivation and grouping share one walk (acWalkNeeds): for each function,
 * for each backward op in program order, an explicit-stack search over the
 * forward values the op reads, descending into the producer of every value
 * that is neither saved nor an argument nor already produced by an earlier
 * recompute op.  Each op is entered at most once per walk, so a walk costs
 * O(ops + operands) plus the sort of each group. */
#include "plan_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

AcPlan *acPlanCreate(const AcGraph *g) {
  AcPlan *p = acCalloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->numValues = g->numValues;
  p->numOps = g->numOps;
  p->saved = acCalloc((size_t)g->numValues + 1, 1);
  p->recompute = acCalloc((size_t)g->numOps + 1, 1);
  if (!p->saved || !p->recompute) {
    acPlanDestroy(p);
    return NULL;
  }
  return p;
}

void acPlanDestroy(AcPlan *plan) {
  if (!plan)
    return;
  acFree(plan->saved);
  acFree(plan->recompute);
  acFree(plan);
}

void acPlanCopy(AcPlan *dst, const AcPlan *src) {
  assert(dst->numValues == src->numValues && dst->numOps == src->numOps);
  if (dst == src)
    return;
  memcpy(dst->saved, src->saved, (size_t)src->numValues);
  memcpy(dst->recompute, src->recompute, (size_t)src->numOps);
}

/*===-------------------------- the needs walk ----------------------------===*/

typedef struct AcWalk {
  const AcGraph *g;
  uint8_t *saved;          /* the save set; extended in repair mode */
  uint8_t *mark;           /* [numOps] op produced by a recompute op so far */
  AcId *stack;             /* [numOperands + 1] values to examine */
  int repair;              /* save needed non-recomputable values instead of failing */
  int wantGroups;          /* record groups below */
  AcId *gops;              /* recompute ops, group after group */
  intptr_t numGops, capGops;
  AcRecomputeGroup *groups;
  intptr_t numGroups, capGroups;
} AcWalk;

static int acCompareIds(const void *a, const void *b) {
  AcId x = *(const AcId *)a, y = *(const AcId *)b;
  return (x > y) - (x < y);
}

static const char *acWhyNotRecomputable(const AcOp *op) {
  if (op->mustSave)
    return "it is marked ac.save";
  if (op->kind == AC_KIND_RANDOM)
    return "it draws random numbers";
  if (op->kind == AC_KIND_INPLACE)
    return "it writes memory in place";
  return "it is not known to be pure";
}

static AcStatus acWalkNeeds(AcWalk *w, AcError *err) {
  const AcGraph *g = w->g;
  for (intptr_t f = 0; f < g->numFuncs; ++f) {
    const AcFunc *fn = &g->funcs[f];
    for (AcId b = fn->firstOp; b < fn->firstOp + fn->numOps; ++b) {
      const AcOp *bop = &g->ops[b];
      if (bop->phase != AC_PHASE_BWD)
        continue;
      intptr_t groupStart = w->numGops;
      intptr_t sp = 0;
      for (int32_t i = 0; i < bop->numOperands; ++i)
        w->stack[sp++] = acOpOperand(g, b, i);
      while (sp > 0) {
        AcId v = w->stack[--sp];
        const AcValue *val = &g->values[v];
        if (val->role != AC_ROLE_RESULT || w->saved[v])
          continue;
        AcId p = val->producer;
        const AcOp *op = &g->ops[p];
        if (op->phase != AC_PHASE_FWD || w->mark[p])
          continue;
        if (acOpCannotRecompute(op)) {
          if (w->repair && !op->mustRecompute) {
            w->saved[v] = 1;
            continue;
          }
          return acErrorSet(
              err, AC_ERR_INFEASIBLE, p, v,
              "backward op '%s' needs result #%d of '%s' (value %d), which "
              "is not saved and cannot be recomputed: %s",
              bop->name, (int)val->index, op->name, (int)v,
              op->mustRecompute && op->recomputable
                  ? "it is marked both ac.save and ac.recompute"
                  : op->mustRecompute
                        ? "it is marked ac.recompute but is not known to be "
                          "pure"
                        : acWhyNotRecomputable(op));
        }
        w->mark[p] = 1;
        if (w->wantGroups) {
          if (!acArrayGrow((void **)&w->gops, &w->capGops, w->numGops + 1,
                           sizeof *w->gops))
            return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                              "out of memory while grouping recompute ops");
          w->gops[w->numGops++] = p;
        }
        for (int32_t i = 0; i < op->numOperands; ++i)
          w->stack[sp++] = acOpOperand(g, p, i);
        assert(sp <= g->numOperands + 1);
      }
      if (w->wantGroups && w->numGops > groupStart) {
        if (!acArrayGrow((void **)&w->groups, &w->capGroups, w->numGroups + 1,
                         sizeof *w->groups))
          return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                            "out of memory while grouping recompute ops");
        qsort(w->gops + groupStart, (size_t)(w->numGops - groupStart),
              sizeof(AcId), acCompareIds);
        AcRecomputeGroup *grp = &w->groups[w->numGroups++];
        grp->anchor = b;
        grp->firstOp = (int32_t)groupStart;
        grp->numOps = (int32_t)(w->numGops - groupStart);
      }
    }
  }
  return AC_OK;
}

/* Checks the saved set against the invariants in plan.h. */
static AcStatus acCheckSaved(const AcGraph *g, const uint8_t *saved,
                             AcError *err) {
  for (intptr_t i = 0; i < g->numValues; ++i) {
    if (!saved[i])
      continue;
    AcId v = (AcId)i;
    const AcValue *val = &g->values[v];
    if (val->role != AC_ROLE_RESULT)
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, v,
                        "function argument %d (value %d) is marked saved; "
                        "only forward op results can be saved",
                        (int)val->index, (int)v);
    const AcOp *op = &g->ops[val->producer];
    if (op->phase != AC_PHASE_FWD)
      return acErrorSet(err, AC_ERR_INVALID, val->producer, v,
                        "result #%d of backward op '%s' (value %d) is marked "
                        "saved; only forward values can be saved",
                        (int)val->index, op->name, (int)v);
    if (op->mustRecompute)
      return acErrorSet(err, AC_ERR_INFEASIBLE, val->producer, v,
                        "op '%s' is marked ac.recompute but its result #%d "
                        "(value %d) is saved",
                        op->name, (int)val->index, (int)v);
    if (val->aliasRoot != v && !acOpCannotRecompute(op))
      return acErrorSet(err, AC_ERR_INVALID, val->producer, v,
                        "result #%d of view op '%s' (value %d) is marked "
                        "saved; views are never saved, their base is",
                        (int)val->index, op->name, (int)v);
  }
  return AC_OK;
}

AcStatus acPlanDerive(const AcGraph *g, AcPlan *plan, AcError *err) {
  assert(plan->numValues == g->numValues && plan->numOps == g->numOps);
  AcWalk w;
  memset(&w, 0, sizeof w);
  AcStatus st = acCheckSaved(g, plan->saved, err);
  if (st != AC_OK)
    goto cleanup;
  memset(plan->recompute, 0, (size_t)g->numOps);
  w.g = g;
  w.saved = plan->saved;
  w.mark = plan->recompute;
  w.stack = acMalloc(((size_t)g->numOperands + 1) * sizeof *w.stack);
  if (!w.stack) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while deriving a plan");
    goto cleanup;
  }
  st = acWalkNeeds(&w, err);
cleanup:
  if (st != AC_OK)
    memset(plan->recompute, 0, (size_t)g->numOps);
  acFree(w.stack);
  return st;
}

AcStatus acPlanFromSaved(const AcGraph *g, const uint8_t *saved, AcPlan *plan,
                         AcError *err) {
  memcpy(plan->saved, saved, (size_t)g->numValues);
  return acPlanDerive(g, plan, err);
}

void acPlanSaveAll(const AcGraph *g, AcPlan *plan) {
  memset(plan->saved, 0, (size_t)g->numValues);
  memset(plan->recompute, 0, (size_t)g->numOps);
  for (intptr_t i = 0; i < g->numValues; ++i) {
    const AcValue *val = &g->values[i];
    if (!val->saveCandidate || val->role != AC_ROLE_RESULT)
      continue;
    const AcOp *op = &g->ops[val->producer];
    assert(op->phase == AC_PHASE_FWD);
    if (op->mustRecompute)
      continue; /* recomputed, never saved */
    if (val->aliasRoot == (AcId)i)
      plan->saved[i] = 1;
    else if (acOpCannotRecompute(op))
      plan->saved[i] = 1; /* a view nobody can rebuild: keep it (0 bytes) */
    /* A view's root is a candidate too (graph.h), saved on its own turn. */
  }
  /* Values the recompute of views and ac.recompute ops needs and that
     cannot be rebuilt are saved as well (repair walk).  Without scratch
     memory the walk is skipped; acPlanDerive then reports what is missing. */
  AcWalk w;
  memset(&w, 0, sizeof w);
  w.g = g;
  w.saved = plan->saved;
  w.repair = 1;
  w.mark = acCalloc((size_t)g->numOps + 1, 1);
  w.stack = acMalloc(((size_t)g->numOperands + 1) * sizeof *w.stack);
  if (w.mark && w.stack)
    (void)acWalkNeeds(&w, NULL);
  acFree(w.mark);
  acFree(w.stack);
}

AcStatus acPlanDropUnread(const AcGraph *g, uint8_t *saved, intptr_t *numDropped,
                          AcError *err) {
  AcStatus st = AC_OK;
  uint8_t *read = acCalloc((size_t)g->numValues + 1, 1);
  uint8_t *entered = acCalloc((size_t)g->numOps + 1, 1);
  AcId *stack = acMalloc(((size_t)g->numOperands + 1) * sizeof *stack);
  intptr_t dropped = 0;
  if (!read || !entered || !stack) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while planning");
    goto cleanup;
  }
  /* The walk of acWalkNeeds, noting the saved values it stops at.  Each op
     is entered once and pushes its operands once: the stack holds at most
     numOperands values. */
  for (AcId b = 0; b < (AcId)g->numOps; ++b) {
    if (g->ops[b].phase != AC_PHASE_BWD)
      continue;
    intptr_t sp = 0;
    for (int32_t i = 0; i < g->ops[b].numOperands; ++i)
      stack[sp++] = acOpOperand(g, b, i);
    while (sp > 0) {
      AcId v = stack[--sp];
      const AcValue *val = &g->values[v];
      if (val->role != AC_ROLE_RESULT)
        continue;
      if (saved[v]) {
        read[v] = 1;
        continue;
      }
      AcId p = val->producer;
      if (g->ops[p].phase != AC_PHASE_FWD || entered[p])
        continue;
      entered[p] = 1;
      for (int32_t i = 0; i < g->ops[p].numOperands; ++i)
        stack[sp++] = acOpOperand(g, p, i);
    }
  }
  for (AcId v = 0; v < (AcId)g->numValues; ++v)
    if (saved[v] && !read[v]) {
      saved[v] = 0;
      dropped++;
    }
cleanup:
  if (numDropped)
    *numDropped = dropped;
  acFree(read);
  acFree(entered);
  acFree(stack);
  return st;
}

AcStatus acPlanGroups(const AcGraph *g, const AcPlan *plan,
                      AcRecomputeGroups **out, AcError *err) {
  AcWalk w;
  memset(&w, 0, sizeof w);
  AcRecomputeGroups *res = NULL;
  AcStatus st = AC_OK;
  *out = NULL;
  w.g = g;
  w.saved = plan->saved; /* read only: repair is off */
  w.wantGroups = 1;
  w.mark = acCalloc((size_t)g->numOps + 1, 1);
  w.stack = acMalloc(((size_t)g->numOperands + 1) * sizeof *w.stack);
  res = acCalloc(1, sizeof *res);
  if (!w.mark || !w.stack || !res) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while grouping recompute ops");
    goto cleanup;
  }
  st = acWalkNeeds(&w, err);
  if (st != AC_OK)
    goto cleanup;
  for (intptr_t o = 0; o < g->numOps; ++o)
    if (!w.mark[o] != !plan->recompute[o]) {
      st = acErrorSet(err, AC_ERR_INVALID, (AcId)o, AC_NONE,
                      "the plan is not derived: op '%s' is %s recompute set",
                      g->ops[o].name,
                      plan->recompute[o] ? "in the" : "missing from the");
      goto cleanup;
    }
  res->groups = w.groups;
  res->numGroups = w.numGroups;
  res->ops = w.gops;
  res->numOps = w.numGops;
  w.groups = NULL;
  w.gops = NULL;
  *out = res;
  res = NULL;
cleanup:
  acFree(w.mark);
  acFree(w.stack);
  acFree(w.groups);
  acFree(w.gops);
  acFree(res);
  return st;
}

void acRecomputeGroupsDestroy(AcRecomputeGroups *groups) {
  if (!groups)
    return;
  acFree(groups->groups);
  acFree(groups->ops);
  acFree(groups);
}

/*===-------------------------- measures ----------------------------------===*/

int64_t acPlanSavedBytes(const AcGraph *g, const AcPlan *plan) {
  /* Each storage root once.  Saved values are roots except zero-byte views
     of ops that cannot be recomputed; those keep their root's storage. */
  int64_t sum = 0;
  uint8_t *counted = acCalloc((size_t)g->numValues + 1, 1);
  for (intptr_t i = 0; i < g->numValues; ++i) {
    if (!plan->saved[i])
      continue;
    AcId r = g->values[i].aliasRoot;
    const AcValue *root = &g->values[r];
    if (root->role != AC_ROLE_RESULT)
      continue;
    int seen;
    if (counted) {
      seen = counted[r];
      counted[r] = 1;
    } else {
      /* No scratch memory: find an earlier saved value with the same root
         (slow, but only in this fallback). */
      seen = 0;
      for (intptr_t j = r; j < i && !seen; ++j)
        seen = plan->saved[j] && g->values[j].aliasRoot == r;
    }
    if (!seen)
      sum += root->bytes;
  }
  acFree(counted);
  return sum;
}

void acPlanRecomputeCost(const AcGraph *g, const AcPlan *plan, double *flops,
                         double *seconds) {
  double fl = 0, sec = 0;
  for (intptr_t o = 0; o < g->numOps; ++o)
    if (plan->recompute[o]) {
      fl += g->ops[o].flops;
      sec += g->ops[o].seconds;
    }
  if (flops)
    *flops = fl;
  if (seconds)
    *seconds = sec;
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
