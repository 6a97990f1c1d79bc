/* derive.c - plans as data (autoac/derive.h): creation, derivation of the
 * recompute set, recompute groups, saved bytes and recompute cost.  Below
 * the simulator and the planners, which both use it; it calls neither.
 *
 * Derivation and grouping share one walk (acWalkNeeds): for each function,
 * for each backward op in program order, an explicit-stack search over the
 * forward values the op reads, descending into the producer of every value
 * that is neither saved nor an argument nor already produced by an earlier
 * recompute op.  Each op is entered at most once per walk, so a walk costs
 * O(ops + operands) plus the sort of each group. */
#include "autoac/derive.h"

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
  p->offload = acCalloc((size_t)g->numValues + 1, 1);
  if (!p->saved || !p->recompute || !p->offload) {
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
  acFree(plan->offload);
  acFree(plan);
}

void acPlanCopy(AcPlan *dst, const AcPlan *src) {
  assert(dst->numValues == src->numValues && dst->numOps == src->numOps);
  if (dst == src)
    return;
  memcpy(dst->saved, src->saved, (size_t)src->numValues);
  memcpy(dst->recompute, src->recompute, (size_t)src->numOps);
  memcpy(dst->offload, src->offload, (size_t)src->numValues);
}

/*===-------------------------- the needs walk ----------------------------===*/

typedef struct AcWalk {
  const AcGraph *g;
  uint8_t *saved;          /* the save set; extended in repair mode */
  uint8_t *mark;           /* [numOps] op produced by a recompute op so far */
  AcId *stack;             /* [numOperands + 1] values to examine */
  int repair;              /* save needed non-recomputable values instead of failing */
  int wantGroups;          /* record groups below */
  uint8_t *read;           /* [numValues] or NULL: saved values the walk
                              stopped at (read by the backward) */
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
        if (val->role != AC_ROLE_RESULT)
          continue;
        if (w->saved[v]) {
          if (w->read)
            w->read[v] = 1;
          continue;
        }
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

AcStatus acPlanDropUnread(const AcGraph *g, uint8_t *saved, intptr_t *numDropped,
                          AcError *err) {
  AcStatus st = AC_OK;
  AcWalk w;
  intptr_t dropped = 0;
  memset(&w, 0, sizeof w);
  w.g = g;
  w.saved = saved; /* read only: repair is off */
  w.read = acCalloc((size_t)g->numValues + 1, 1);
  w.mark = acCalloc((size_t)g->numOps + 1, 1);
  w.stack = acMalloc(((size_t)g->numOperands + 1) * sizeof *w.stack);
  if (!w.read || !w.mark || !w.stack) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while planning");
    goto cleanup;
  }
  if ((st = acWalkNeeds(&w, err)) != AC_OK)
    goto cleanup;
  for (AcId v = 0; v < (AcId)g->numValues; ++v)
    if (saved[v] && !w.read[v]) {
      saved[v] = 0;
      dropped++;
    }
cleanup:
  if (numDropped)
    *numDropped = dropped;
  acFree(w.read);
  acFree(w.mark);
  acFree(w.stack);
  return st;
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
  for (intptr_t v = 0; v < g->numValues; ++v)
    plan->offload[v] &= plan->saved[v];
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


void acPlanSaveAll(const AcGraph *g, AcPlan *plan) {
  memset(plan->saved, 0, (size_t)g->numValues);
  memset(plan->offload, 0, (size_t)g->numValues);
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
