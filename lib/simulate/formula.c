/* formula.c - a plan's live bytes per step as polynomials (formula.h).
 *
 * One simulation per distinct monomial of the value sizes (the constant
 * term first): in run k every value's bytes are its coefficient of monomial
 * k, the ops' workspaces count in run 0 only, the reserve too.  Step s's
 * live bytes are then sum_k live_k[s] * monomial_k. */
#include "simulate/formula.h"

#include <stdlib.h>
#include <string.h>

struct AcSimFormula {
  AcMono *monos;     /* [numMonos] coefficient 1; monos[0] the constant */
  intptr_t numMonos, capMonos;
  intptr_t numSteps;
  int64_t *coef;     /* [numMonos * numSteps], static part included */
};

static AcStatus acFormulaAddMono(AcSimFormula *f, const AcMono *m) {
  for (intptr_t k = 0; k < f->numMonos; ++k)
    if (acMonoCmp(&f->monos[k], m) == 0)
      return AC_OK;
  if (!acArrayGrow((void **)&f->monos, &f->capMonos, f->numMonos + 1,
                   sizeof *f->monos))
    return AC_ERR_NOMEM;
  f->monos[f->numMonos] = *m;
  f->monos[f->numMonos++].coef = 1;
  return AC_OK;
}

/* Coefficient of monomial `m` in `p` (0 when absent). */
static int64_t acPolyCoef(const AcPoly *p, const AcMono *m) {
  for (intptr_t i = 0; i < p->num; ++i)
    if (acMonoCmp(&p->terms[i], m) == 0)
      return p->terms[i].coef;
  return 0;
}

/* Run k: the graph's values and ops as copies, sizes set to monomial k's
 * coefficients; the live bytes per step plus the static part into f->coef. */
static AcStatus acFormulaRun(AcSimFormula *f, const AcGraph *g,
                             const AcPlan *plan, const AcPoly *valueBytes,
                             double optimizerFactor, int64_t reserve,
                             intptr_t k, AcValue *vals, AcOp *ops,
                             AcError *err) {
  AcGraph gk = *g;
  gk.values = vals;
  gk.ops = ops;
  for (intptr_t v = 0; v < g->numValues; ++v) {
    vals[v].bytes = acPolyCoef(&valueBytes[v], &f->monos[k]);
    if (vals[v].bytes < 0)
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, (AcId)v,
                        "a value's size has a negative coefficient");
  }
  for (intptr_t o = 0; o < g->numOps; ++o)
    ops[o].workspace = k == 0 ? g->ops[o].workspace : 0;
  int64_t stat = acSimStaticBytes(&gk, optimizerFactor, k == 0 ? reserve : 0);
  AcSimResult r;
  AcStatus st = acSimulate(&gk, plan, stat, 1, &r, err);
  if (st != AC_OK)
    return st;
  if (f->numSteps < 0)
    f->numSteps = r.numSteps;
  if (r.numSteps != f->numSteps) {
    acSimResultClear(&r);
    return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                      "formula: the timeline differs between runs");
  }
  if (!f->coef &&
      !(f->coef = acCalloc((size_t)(f->numMonos * (f->numSteps + 1)) + 1,
                           sizeof *f->coef))) {
    acSimResultClear(&r);
    return AC_ERR_NOMEM;
  }
  /* A timeline without steps: the static part alone, kept at step 0. */
  for (intptr_t s = 0; s < (f->numSteps ? f->numSteps : 1); ++s)
    f->coef[k * (f->numSteps + 1) + s] =
        (f->numSteps ? r.live[s] : 0) + stat;
  acSimResultClear(&r);
  return AC_OK;
}

AcStatus acSimFormulaCreate(const AcGraph *g, const AcPlan *plan,
                            const AcPoly *valueBytes, double optimizerFactor,
                            int64_t reserve, AcSimFormula **out, AcError *err) {
  *out = NULL;
  AcSimFormula *f = acCalloc(1, sizeof *f);
  AcValue *vals = acMalloc(((size_t)g->numValues + 1) * sizeof *vals);
  AcOp *ops = acMalloc(((size_t)g->numOps + 1) * sizeof *ops);
  AcStatus st = AC_OK;
  if (!f || !vals || !ops)
    goto nomem;
  f->numSteps = -1;
  memcpy(vals, g->values, (size_t)g->numValues * sizeof *vals);
  memcpy(ops, g->ops, (size_t)g->numOps * sizeof *ops);
  AcMono one;
  memset(&one, 0, sizeof one);
  if (acFormulaAddMono(f, &one) != AC_OK)
    goto nomem;
  for (intptr_t v = 0; v < g->numValues; ++v)
    for (intptr_t i = 0; i < valueBytes[v].num; ++i)
      if (acFormulaAddMono(f, &valueBytes[v].terms[i]) != AC_OK)
        goto nomem;
  for (intptr_t k = 0; k < f->numMonos && st == AC_OK; ++k)
    st = acFormulaRun(f, g, plan, valueBytes, optimizerFactor, reserve, k, vals,
                      ops, err);
  if (st == AC_ERR_NOMEM)
    goto nomem;
  goto cleanup;
nomem:
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                  "out of memory while computing the peak formula");
cleanup:
  acFree(vals);
  acFree(ops);
  if (st != AC_OK)
    acSimFormulaDestroy(f);
  else
    *out = f;
  return st;
}

void acSimFormulaDestroy(AcSimFormula *f) {
  if (!f)
    return;
  acFree(f->monos);
  acFree(f->coef);
  acFree(f);
}

intptr_t acSimFormulaNumSteps(const AcSimFormula *f) { return f->numSteps; }

int64_t acSimFormulaPeakAt(const AcSimFormula *f, const int64_t *symVals,
                           intptr_t *stepOut) {
  int64_t *mv = acMalloc(((size_t)f->numMonos + 1) * sizeof *mv);
  if (!mv)
    return -1;
  for (intptr_t k = 0; k < f->numMonos; ++k) {
    AcPoly one = {&f->monos[k], 1, 1};
    if (acPolyEval(&one, symVals, &mv[k])) {
      acFree(mv);
      return -1;
    }
  }
  int64_t best = -1;
  intptr_t bestAt = 0, n = f->numSteps ? f->numSteps : 1;
  for (intptr_t s = 0; s < n; ++s) {
    int64_t sum = 0, t;
    for (intptr_t k = 0; k < f->numMonos; ++k)
      if (__builtin_mul_overflow(f->coef[k * (f->numSteps + 1) + s], mv[k], &t) ||
          __builtin_add_overflow(sum, t, &sum)) {
        acFree(mv);
        return -1;
      }
    if (sum > best) {
      best = sum;
      bestAt = s;
    }
  }
  acFree(mv);
  if (stepOut)
    *stepOut = bestAt;
  return best;
}

AcStatus acSimFormulaAtStep(const AcSimFormula *f, intptr_t step, AcPoly *out) {
  acPolyClear(out);
  for (intptr_t k = 0; k < f->numMonos; ++k) {
    AcStatus st = acPolyAddMono(out, &f->monos[k],
                                f->coef[k * (f->numSteps + 1) + step]);
    if (st != AC_OK) {
      acPolyClear(out);
      return st;
    }
  }
  return AC_OK;
}

/* Whether step a's coefficients are all <= step b's. */
static int acDominated(const AcSimFormula *f, intptr_t a, intptr_t b) {
  for (intptr_t k = 0; k < f->numMonos; ++k)
    if (f->coef[k * (f->numSteps + 1) + a] > f->coef[k * (f->numSteps + 1) + b])
      return 0;
  return 1;
}

typedef struct AcStepValue {
  int64_t value;
  intptr_t step;
} AcStepValue;

static int acStepValueCmp(const void *x, const void *y) {
  const AcStepValue *a = x, *b = y;
  if (a->value != b->value)
    return a->value > b->value ? -1 : 1;
  return a->step < b->step ? -1 : a->step > b->step;
}

AcStatus acSimFormulaPieces(const AcSimFormula *f, const int64_t *symVals,
                            intptr_t max, intptr_t *steps, intptr_t *num,
                            int *complete) {
  intptr_t n = f->numSteps ? f->numSteps : 1;
  AcStepValue *order = acMalloc(((size_t)n + 1) * sizeof *order);
  if (!order)
    return AC_ERR_NOMEM;
  for (intptr_t s = 0; s < n; ++s) {
    int64_t sum = 0, mv, t;
    for (intptr_t k = 0; k < f->numMonos; ++k) {
      AcPoly one = {&f->monos[k], 1, 1};
      if (acPolyEval(&one, symVals, &mv) ||
          __builtin_mul_overflow(f->coef[k * (f->numSteps + 1) + s], mv, &t) ||
          __builtin_add_overflow(sum, t, &sum))
        sum = INT64_MAX;
    }
    order[s].value = sum;
    order[s].step = s;
  }
  qsort(order, (size_t)n, sizeof *order, acStepValueCmp);
  /* A step dominated by a kept one (which is at least as large at symVals,
     as it comes first) is left out; one that dominates a kept one cannot
     come later unless equal there, and equal polynomials are kept once. */
  *num = 0;
  *complete = 1;
  for (intptr_t i = 0; i < n; ++i) {
    int dominated = 0;
    for (intptr_t j = 0; j < *num && !dominated; ++j)
      dominated = acDominated(f, order[i].step, steps[j]);
    if (dominated)
      continue;
    if (*num == max) {
      *complete = 0;
      break;
    }
    steps[(*num)++] = order[i].step;
  }
  acFree(order);
  return AC_OK;
}
