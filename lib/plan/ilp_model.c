/* ilp_model.c - the exact planner's model in plain C (no GLPK): the space,
 * the cost and the columns of a plan (docs/optimality.md).  The memory rows
 * are built in ilp_memory.c; the MILP loop that solves the model with GLPK
 * is ilp_solve.c.
 *
 * The space.  S0 is the starting save set (the min-cut one in acPlanRun) and
 * D its droppable values (plan_internal.h).  A plan of the space is S0 minus
 * any T within D; every such plan derives.  Binary d_v (v in D) says v is
 * dropped.  This is the space greedy and beam move in.
 *
 * The cost is exact and linear.  R(T), the recompute set, is the least set
 * of forward ops p such that some result w of p is not saved and is read by
 * a backward op or by an op of R(T).  Ops recomputed in S0 are recomputed in
 * every plan (dropping only adds), ops outside R(S0 minus D) in none; the
 * others get r_p in [0, 1] with
 *     r_p >= u_w                 w read by a backward op or an op of R(S0)
 *     r_p >= r_q + u_w - 1       w read by forward op q with a variable r_q
 * where u_w is d_w for w in D, 1 for w not in S0, 0 for the other saves.
 * Minimizing sum(seconds_p * backward instances * r_p) drives r to the least
 * solution, so the objective is the simulated recompute seconds.
 *
 * The memory model is a linear lower bound on the simulated live bytes at
 * each forward and backward op step (recompute steps are not modelled).  It
 * follows simulate.c storage by storage, per schedule instance:
 *  - forward steps see only forward storages, whose intervals depend on the
 *    plan only through "is the storage saved", which is 1 - d_v for v in D:
 *    exact;
 *  - at backward op steps, a saved storage is counted until its last read by
 *    a backward op (the simulator also extends it to later recompute reads),
 *    a recomputed copy from its first to its last read by a backward op (the
 *    simulator allocates it in a group anchored at or before that first
 *    reader and frees it after its last reader, recompute ops included);
 *    storages read only by recompute ops count nothing.  Everything else
 *    (inputs, tangents, backward values, other instances) is exact.
 * Each storage contributes bytes on an interval that is fixed, or chosen by
 * one d_v, so the live bytes at a step are const + sum coef_v d_v.  Between
 * two interval ends the coefficients are constant; one row per such segment
 * with the segment's largest constant gives the rows
 *     const + sum coef_v d_v <= budget - static.
 *
 * Invariants: columns are d_v [0, numVars), r_p [numVars, numVars +
 * numOpVars), then auxiliary y; the rows are a lower bound on the
 * simulated live bytes at each op step (never above). */
#include "ilp_model.h"
#include "plan_oracles.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

void acIlpModelFree(AcIlpModel *m) {
  acFree(m->vars);
  acFree(m->varOf);
  acFree(m->r0);
  acFree(m->rmax);
  acFree(m->opVarOf);
  acFree(m->opVars);
  acFree(m->opCost);
  acFree(m->ge);
  acFree(m->termCol);
  acFree(m->termCoef);
  acFree(m->auxUpper);
  acFree(m->constDelta);
  acFree(m->events);
  memset(m, 0, sizeof *m);
}

static int acIlpPushEvent(AcIlpModel *m, intptr_t pos, int32_t col,
                          int64_t delta) {
  if (m->numEvents == m->capEvents) {
    intptr_t ncap = m->capEvents ? m->capEvents * 2 : 256;
    AcIlpEvent *n = acRealloc(m->events, (size_t)ncap * sizeof *n);
    if (!n)
      return 0;
    m->events = n;
    m->capEvents = ncap;
  }
  m->events[m->numEvents++] = (AcIlpEvent){pos, col, delta};
  return 1;
}

/* Adds y >= (sense 1) or <= (sense -1) constant + sum(coef[i] * col[i]).
 * 0 on allocation failure. */
int acIlpPushBound(AcIlpModel *m, int32_t y, int32_t sense,
                          int32_t constant, const int32_t *col,
                          const int32_t *coef, int32_t n) {
  if (m->numGe == m->capGe) {
    intptr_t ncap = m->capGe ? m->capGe * 2 : 64;
    AcIlpGe *g = acRealloc(m->ge, (size_t)ncap * sizeof *g);
    if (!g)
      return 0;
    m->ge = g;
    m->capGe = ncap;
  }
  while (m->numTerms + n > m->capTerms) {
    intptr_t ncap = m->capTerms ? m->capTerms * 2 : 128;
    int32_t *c = acRealloc(m->termCol, (size_t)ncap * sizeof *c);
    if (!c)
      return 0;
    m->termCol = c;
    int32_t *k = acRealloc(m->termCoef, (size_t)ncap * sizeof *k);
    if (!k)
      return 0;
    m->termCoef = k;
    m->capTerms = ncap;
  }
  if (n > 0) {
    memcpy(m->termCol + m->numTerms, col, (size_t)n * sizeof *col);
    memcpy(m->termCoef + m->numTerms, coef, (size_t)n * sizeof *coef);
  }
  m->ge[m->numGe++] = (AcIlpGe){y, constant, sense, m->numTerms, n};
  m->numTerms += n;
  return 1;
}

int acIlpPushGe(AcIlpModel *m, int32_t y, int32_t constant,
                       const int32_t *col, const int32_t *coef, int32_t n) {
  return acIlpPushBound(m, y, 1, constant, col, coef, n);
}

/* A new auxiliary column (bounded from above if `upper`); -1 on
 * allocation failure. */
int32_t acIlpNewAux(AcIlpModel *m, int upper) {
  if (m->numAux == m->capAux) {
    intptr_t ncap = m->capAux ? m->capAux * 2 : 64;
    uint8_t *a = acRealloc(m->auxUpper, (size_t)ncap);
    if (!a)
      return -1;
    m->auxUpper = a;
    m->capAux = ncap;
  }
  int32_t y = (int32_t)acIlpNumCols(m);
  m->auxUpper[m->numAux++] = (uint8_t)upper;
  return y;
}

/* Adds `bytes` on positions [lo, hi]: to the constant (col < 0) or to the
 * coefficient of column col.  Returns 0 on allocation failure. */
int acIlpAdd(AcIlpModel *m, intptr_t lo, intptr_t hi, int32_t col,
                    int64_t bytes) {
  if (lo < 0)
    lo = 0;
  if (hi > m->numPos - 1)
    hi = m->numPos - 1;
  if (lo > hi || bytes == 0)
    return 1;
  if (col < 0) {
    m->constDelta[lo] += bytes;
    m->constDelta[hi + 1] -= bytes;
    return 1;
  }
  return acIlpPushEvent(m, lo, col, bytes) &&
         acIlpPushEvent(m, hi + 1, col, -bytes);
}

int acIlpCompareEvents(const void *a, const void *b) {
  const AcIlpEvent *x = a, *y = b;
  if (x->pos != y->pos)
    return x->pos < y->pos ? -1 : 1;
  return (x->col > y->col) - (x->col < y->col);
}


/* Builds the model's space and cost from the starting save set. */
AcStatus acIlpBuildSpace(AcIlpModel *m, const AcGraph *g,
                         const uint8_t *initialSaved, AcError *err) {
  AcStatus st = AC_OK;
  AcPlan *p = acPlanCreate(g);
  AcDropChecker *ck = acDropCheckerCreate(g);
  int32_t *inst = acCalloc((size_t)g->numFuncs + 1, sizeof *inst);
  memset(m, 0, sizeof *m);
  m->g = g;
  m->s0 = initialSaved;
  m->varOf = acMalloc(((size_t)g->numValues + 1) * sizeof *m->varOf);
  m->vars = acMalloc(((size_t)g->numValues + 1) * sizeof *m->vars);
  m->r0 = acCalloc((size_t)g->numOps + 1, 1);
  m->rmax = acCalloc((size_t)g->numOps + 1, 1);
  m->opVarOf = acMalloc(((size_t)g->numOps + 1) * sizeof *m->opVarOf);
  m->opVars = acMalloc(((size_t)g->numOps + 1) * sizeof *m->opVars);
  m->opCost = acMalloc(((size_t)g->numOps + 1) * sizeof *m->opCost);
  if (!p || !ck || !inst || !m->varOf || !m->vars || !m->r0 || !m->rmax ||
      !m->opVarOf || !m->opVars || !m->opCost) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory in the ILP planner");
    goto cleanup;
  }
  acPlanBwdInstances(g, inst);
  if ((st = acPlanFromSaved(g, initialSaved, p, err)) != AC_OK)
    goto cleanup;
  memcpy(m->r0, p->recompute, (size_t)g->numOps);
  for (intptr_t v = 0; v < g->numValues; ++v) {
    m->varOf[v] = -1;
    if (acDropCheckerOk(ck, initialSaved, (AcId)v)) {
      m->varOf[v] = (int32_t)m->numVars;
      m->vars[m->numVars++] = (AcId)v;
    }
  }
  for (intptr_t k = 0; k < m->numVars; ++k)
    p->saved[m->vars[k]] = 0;
  if ((st = acPlanDerive(g, p, err)) != AC_OK) {
    /* Dropping droppable values keeps the plan derivable. */
    if (st != AC_ERR_NOMEM)
      st = AC_ERR_INTERNAL;
    goto cleanup;
  }
  memcpy(m->rmax, p->recompute, (size_t)g->numOps);
  for (intptr_t o = 0; o < g->numOps; ++o) {
    double c = g->ops[o].seconds * inst[g->ops[o].func];
    assert(!m->r0[o] || m->rmax[o]);
    m->opVarOf[o] = -1;
    if (m->r0[o]) {
      m->baseSeconds += c;
    } else if (m->rmax[o]) {
      m->opVarOf[o] = (int32_t)m->numOpVars;
      m->opCost[m->numOpVars] = c;
      m->opVars[m->numOpVars++] = (AcId)o;
    }
  }
cleanup:
  acPlanDestroy(p);
  acDropCheckerDestroy(ck);
  acFree(inst);
  if (st != AC_OK)
    acIlpModelFree(m);
  return st;
}

/* Column values of a derived plan of the space: d from saved[], r from
 * recompute[], y from their definitions. */
void acIlpColumns(const AcIlpModel *m, const AcPlan *plan,
                         double *col) {
  for (intptr_t k = 0; k < m->numVars; ++k)
    col[k] = !plan->saved[m->vars[k]];
  for (intptr_t k = 0; k < m->numOpVars; ++k)
    col[m->numVars + k] = plan->recompute[m->opVars[k]];
  for (intptr_t k = 0; k < m->numAux; ++k)
    col[m->numVars + m->numOpVars + k] = m->auxUpper[k] ? 1 : 0;
  for (intptr_t i = 0; i < m->numGe; ++i) {
    const AcIlpGe *e = &m->ge[i];
    double v = e->constant;
    for (intptr_t k = e->firstTerm; k < e->firstTerm + e->numTerms; ++k)
      v += m->termCoef[k] * col[m->termCol[k]];
    if (e->sense > 0 ? v > col[e->y] : v < col[e->y])
      col[e->y] = v;
  }
}


/* The model's live bytes for column values `col`: the first `cap` steps
 * into `live` (may be NULL), the largest into `*peak`.  0 on allocation
 * failure. */
int acIlpEval(const AcIlpModel *m, const double *col, int64_t *live,
                     intptr_t cap, int64_t *peak) {
  intptr_t nc = acIlpNumCols(m);
  int64_t *coef = acCalloc((size_t)nc + 1, sizeof *coef);
  if (!coef)
    return 0;
  int64_t c = 0, best = 0;
  intptr_t ev = 0;
  for (intptr_t t = 0; t < m->numPos; ++t) {
    c += m->constDelta[t];
    while (ev < m->numEvents && m->events[ev].pos == t) {
      coef[m->events[ev].col] += m->events[ev].delta;
      ++ev;
    }
    int64_t l = c;
    for (intptr_t k = 0; k < nc; ++k)
      if (col[k] > 0.5)
        l += coef[k];
    if (t < cap)
      live[t] = l;
    if (l > best)
      best = l;
  }
  *peak = best;
  acFree(coef);
  return 1;
}
