/* ilp_solve.c - the exact planner's MILP loop (GLPK; the only file that
 * includes glpk.h): fills GLPK's problem from the model (ilp_model.h),
 * solves it under a deterministic work limit and checks each answer with
 * the simulator (docs/optimality.md).
 *
 * The loop.  Because the rows are a relaxation, the MILP optimum is a lower
 * bound on the best plan that fits.  Its plan is simulated: if it fits it is
 * optimal; if not, a no-good cut removes exactly that T and the MILP is
 * solved again.  The greedy plan (if it fits) is the incumbent: a cutoff row
 * asks for strictly cheaper plans, and a MILP with no solution proves the
 * incumbent optimal.  Every step is deterministic; only the time limit can
 * make the outcome depend on the machine. */
#include "greedy_internal.h"
#include "ilp_model.h"
#include "autoac/simulate.h"

#include <assert.h>
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* AC_ILP_MAX_NONZEROS: the largest model the ILP builds.  A memory row costs
 * O(columns) to fill and GLPK checks its limits only between iterations:
 * factorizing millions of nonzeros takes minutes before the first node (a
 * 20k-op chain: 18.5M nonzeros, 11 s in one simplex call).  The corpus
 * models have at most ~5k.  Past the cap the model is not built: the
 * answer is greedy's plan, marked limited, the same on every machine. */
enum { AC_ILP_CUTS_FROM = 32, AC_ILP_MAX_NONZEROS = 500000 };
/* Cut generation on models past this many rows: a 12-layer GPT (14.5k
   rows) spent seconds per node in it, past every deterministic limit
   (GLPK checks those between nodes only). */
enum { AC_ILP_CUTS_ROWS = 4096 };

/* The deterministic work limit: branch-and-bound nodes over every solve of
 * one call, counted from GLPK's tree (glp_ios_tree_size) in a callback that
 * stops the solve (glp_ios_terminate) when the call's allowance is spent. */
typedef struct AcIlpWork {
  intptr_t used;     /* nodes of the finished solves */
  intptr_t max;      /* allowance for the whole call */
  intptr_t round;    /* nodes of the solve in progress */
  int stopped;       /* the callback stopped a solve */
  int64_t maxIters;  /* simplex iterations for the whole call */
  int64_t itUsed;    /* of the finished solves */
  int64_t itBase;    /* the problem's count when the solve began */
} AcIlpWork;

/* The second deterministic limit: simplex iterations, AC_ILP_ITER_WORK
 * units of (rows + columns) each, so a node of a big model (a 12-layer GPT:
 * minutes per few hundred nodes) counts for what it costs.  At least
 * AC_ILP_MIN_ITERS. */
#define AC_ILP_ITER_WORK ((int64_t)1 << 28)
#define AC_ILP_MIN_ITERS 20000

static int64_t acIlpIterAllowance(glp_prob *lp) {
  int64_t size = (int64_t)glp_get_num_rows(lp) + glp_get_num_cols(lp) + 1;
  int64_t n = AC_ILP_ITER_WORK / size;
  return n < AC_ILP_MIN_ITERS ? AC_ILP_MIN_ITERS : n;
}

static void acIlpCallback(glp_tree *tree, void *info) {
  AcIlpWork *w = info;
  int active, current, total;
  glp_ios_tree_size(tree, &active, &current, &total);
  w->round = total;
  if ((w->used + total > w->max ||
       w->itUsed + glp_get_it_cnt(glp_ios_get_prob(tree)) - w->itBase >
           w->maxIters) &&
      !w->stopped) {
    w->stopped = 1;
    glp_ios_terminate(tree);
  }
}

/* Cheaper than the incumbent means cheaper by this relative margin. */
#define AC_ILP_COST_EPS 1e-9


/*===-------------------------- the MILP ----------------------------------===*/

/* GLPK indices are 1-based; scratch for one row. */
typedef struct AcIlpRow {
  int *ind;
  double *val;
  int len;
} AcIlpRow;

static void acIlpAddRow(glp_prob *lp, AcIlpRow *row, int type, double lb,
                        double ub) {
  int i = glp_add_rows(lp, 1);
  glp_set_row_bnds(lp, i, type, lb, ub);
  glp_set_mat_row(lp, i, row->len, row->ind, row->val);
  row->len = 0;
}

static void acIlpPut(AcIlpRow *row, int col, double v) {
  row->len++;
  row->ind[row->len] = col;
  row->val[row->len] = v;
}

/* Fills the problem: the columns (d binary, r and y in [0, 1]), the cost
 * rows, the y definitions and the memory rows for `liveBudget` bytes of
 * live memory (the budget less the static bytes).  Returns the number of
 * memory rows, or -1 when some step's constant alone exceeds liveBudget (no
 * plan fits), or -2 on allocation failure, or -4 when the memory rows pass
 * AC_ILP_MAX_NONZEROS (the model is then incomplete and must not be
 * solved).  Peak mode (peakScale > 0): one more column P (nc + 1, >= 0,
 * the objective) and every memory row reads live <= peakScale * P instead,
 * so the MILP minimizes the model's peak (liveBudget and costScale are
 * unused). */
static intptr_t acIlpFill(const AcIlpModel *m, glp_prob *lp, int64_t liveBudget,
                          double costScale, double peakScale, AcIlpRow *row) {
  const AcGraph *g = m->g;
  intptr_t nd = m->numVars, nr = m->numOpVars, nc = acIlpNumCols(m);
  intptr_t rows = 0, nonzeros = 0;
  int peak = peakScale > 0;
  if (peak)
    liveBudget = 0;
  glp_set_obj_dir(lp, GLP_MIN);
  if (nc + peak > 0)
    glp_add_cols(lp, (int)(nc + peak));
  for (intptr_t k = 0; k < nd; ++k)
    glp_set_col_kind(lp, (int)k + 1, GLP_BV);
  for (intptr_t k = nd; k < nc; ++k)
    glp_set_col_bnds(lp, (int)k + 1, GLP_DB, 0.0, 1.0);
  for (intptr_t k = 0; k < nr && !peak; ++k)
    glp_set_obj_coef(lp, (int)(nd + k) + 1, m->opCost[k] / costScale);
  if (peak) {
    glp_set_col_bnds(lp, (int)nc + 1, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(lp, (int)nc + 1, 1.0);
  }
  /* The recompute closure. */
  for (intptr_t k = 0; k < nr; ++k) {
    AcId p = m->opVars[k];
    int colP = (int)(nd + k) + 1;
    const AcOp *op = &g->ops[p];
    for (int32_t ri = 0; ri < op->numResults; ++ri) {
      AcId w = op->firstResult + ri;
      int32_t dw = m->varOf[w];
      if (dw < 0 && m->s0[w])
        continue; /* saved in every plan: never a reason */
      const AcValue *val = &g->values[w];
      for (int32_t u = 0; u < val->numUses; ++u) {
        AcId q = acValueUse(g, w, u);
        const AcOp *qop = &g->ops[q];
        if (qop->phase == AC_PHASE_BWD || m->r0[q]) {
          /* r_p >= u_w; u_w = 1 would put p in R(S0). */
          assert(dw >= 0);
          if (dw < 0)
            continue;
          acIlpPut(row, colP, 1.0);
          acIlpPut(row, dw + 1, -1.0);
          acIlpAddRow(lp, row, GLP_LO, 0.0, 0.0);
        } else if (m->opVarOf[q] >= 0) {
          int colQ = (int)nd + m->opVarOf[q] + 1;
          acIlpPut(row, colP, 1.0);
          acIlpPut(row, colQ, -1.0);
          if (dw >= 0) {
            acIlpPut(row, dw + 1, -1.0);
            acIlpAddRow(lp, row, GLP_LO, -1.0, 0.0);
          } else {
            acIlpAddRow(lp, row, GLP_LO, 0.0, 0.0);
          }
        }
      }
    }
  }
  /* The auxiliary columns' bounds. */
  for (intptr_t i = 0; i < m->numGe; ++i) {
    const AcIlpGe *e = &m->ge[i];
    acIlpPut(row, e->y + 1, 1.0);
    for (intptr_t k = e->firstTerm; k < e->firstTerm + e->numTerms; ++k)
      acIlpPut(row, m->termCol[k] + 1, -(double)m->termCoef[k]);
    if (e->sense > 0)
      acIlpAddRow(lp, row, GLP_LO, (double)e->constant, 0.0);
    else
      acIlpAddRow(lp, row, GLP_UP, 0.0, (double)e->constant);
  }
  /* Memory rows: one per segment between interval ends. */
  int64_t *coef = acCalloc((size_t)nc + 1, sizeof *coef);
  if (!coef)
    return -2;
  int64_t c = 0;
  intptr_t ev = 0, t = 0;
  while (t < m->numPos) {
    while (ev < m->numEvents && m->events[ev].pos == t) {
      coef[m->events[ev].col] += m->events[ev].delta;
      ++ev;
    }
    intptr_t end = ev < m->numEvents ? m->events[ev].pos : m->numPos;
    if (end > m->numPos)
      end = m->numPos;
    int64_t best = INT64_MIN;
    for (; t < end; ++t) {
      c += m->constDelta[t];
      if (c > best)
        best = c;
    }
    int64_t worst = best;
    for (intptr_t k = 0; k < nc; ++k)
      if (coef[k] > 0)
        worst += coef[k];
    if (!peak && worst <= liveBudget)
      continue; /* no plan can exceed liveBudget here */
    /* Scaled by a power of two so the largest coefficient is in [1, 2);
       coefficients below 1e-7 of it (which the solver's tolerances would
       blur) are relaxed away: a positive one dropped, a negative one
       taken at its most favourable value (x = 1) into the bound. */
    int64_t maxAbs = 0;
    for (intptr_t k = 0; k < nc; ++k)
      if (llabs(coef[k]) > maxAbs)
        maxAbs = llabs(coef[k]);
    if (maxAbs == 0 && !peak) {
      acFree(coef);
      return -1;
    }
    /* Peak mode: P's coefficient counts among the row's largest, so that
       the row stays well scaled (bytes against the whole peak). */
    double big = peak ? fmax((double)maxAbs, peakScale) : (double)maxAbs;
    int ex;
    (void)frexp(big, &ex);
    double scale = ldexp(1.0, 1 - ex);
    int64_t rowBudget = liveBudget - best;
    for (intptr_t k = 0; k < nc; ++k) {
      if (coef[k] == 0)
        continue;
      if ((double)llabs(coef[k]) < 1e-7 * big) {
        if (coef[k] < 0)
          rowBudget -= coef[k];
        continue;
      }
      acIlpPut(row, (int)k + 1, (double)coef[k] * scale);
    }
    if (peak)
      acIlpPut(row, (int)nc + 1, -peakScale * scale);
    if ((nonzeros += row->len) > AC_ILP_MAX_NONZEROS) {
      acFree(coef);
      row->len = 0;
      return -4;
    }
    acIlpAddRow(lp, row, GLP_UP, 0.0, (double)rowBudget * scale);
    ++rows;
  }
  acFree(coef);
  return rows;
}

/* One MILP solve: the LP relaxation by the simplex (warm from the last
 * round's basis), then branch and bound on it, within `tm` ms and the
 * work allowance.  GLPK's MIP presolver is not used (its relaxation solve
 * declared feasible problems infeasible).  Returns GLPK's code, with
 * GLP_ENOPFS when the relaxation has no feasible point and GLP_EFAIL when
 * the simplex ends otherwise than optimal; *mst is the MIP status. */
static int acIlpSolve(glp_prob *lp, intptr_t numVars, int tm, AcIlpWork *work,
                      int *mst) {
  glp_smcp sm;
  glp_init_smcp(&sm);
  sm.msg_lev = GLP_MSG_OFF;
  sm.tm_lim = tm;
  work->itBase = glp_get_it_cnt(lp);
  int64_t itLeft = work->maxIters - work->itUsed;
  sm.it_lim = itLeft < 1 ? 1 : itLeft > INT32_MAX ? INT32_MAX : (int)itLeft;
  work->round = 0;
  *mst = GLP_UNDEF;
  int ret = glp_simplex(lp, &sm);
  if (ret == GLP_EITLIM)
    work->stopped = 1;
  if (ret != 0 || glp_get_status(lp) != GLP_OPT)
    work->itUsed += glp_get_it_cnt(lp) - work->itBase;
  if (ret == 0 && glp_get_status(lp) == GLP_NOFEAS)
    return GLP_ENOPFS;
  if (ret != 0)
    return ret;
  if (glp_get_status(lp) != GLP_OPT)
    return GLP_EFAIL;
  glp_iocp parm;
  glp_init_iocp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.tm_lim = tm;
  parm.cb_func = acIlpCallback;
  parm.cb_info = work;
  /* On larger problems, mixed-integer rounding, cover and clique cuts (not
     Gomory's, whose numerics are the least safe): a quarter off tx_l6's
     time (48 binaries); on small ones they only cost time. */
  if (numVars >= AC_ILP_CUTS_FROM && glp_get_num_rows(lp) <= AC_ILP_CUTS_ROWS) {
    parm.mir_cuts = GLP_ON;
    parm.cov_cuts = GLP_ON;
    parm.clq_cuts = GLP_ON;
  }
  /* The cut generators print even with msg_lev off: silence GLPK's
     terminal output around the call (a per-thread setting). */
  int term = glp_term_out(GLP_OFF);
  ret = glp_intopt(lp, &parm);
  glp_term_out(term);
  work->itUsed += glp_get_it_cnt(lp) - work->itBase;
  *mst = glp_mip_status(lp);
  work->used += work->round > 0 ? work->round : 1;
  return ret;
}

/* Simulates S0 minus the values with d[k] set. */
static AcStatus acIlpTry(const AcIlpModel *m, const uint8_t *d,
                         int64_t staticBytes, AcPlan *plan, AcSimResult *sim,
                         AcError *err) {
  const AcGraph *g = m->g;
  memcpy(plan->saved, m->s0, (size_t)g->numValues);
  for (intptr_t k = 0; k < m->numVars; ++k)
    if (d[k])
      plan->saved[m->vars[k]] = 0;
  AcStatus st = acPlanDerive(g, plan, err);
  if (st == AC_OK) {
    acSimResultClear(sim);
    st = acSimulate(g, plan, staticBytes, 0, sim, err);
  }
  return st;
}

/* Lower simulated peak, then fewer recompute seconds. */
static int acIlpLower(const AcSimResult *a, const AcSimResult *b) {
  return a->peakBytes < b->peakBytes ||
         (a->peakBytes == b->peakBytes &&
          a->recomputeSeconds < b->recomputeSeconds * (1 - AC_ILP_COST_EPS));
}

typedef struct AcIlpLimits {
  double seconds;      /* wall clock for the call, <= 0: none */
  double t0;           /* when the call started */
  intptr_t maxRounds;  /* < 0: none */
} AcIlpLimits;

/* The plan of the space with the lowest simulated peak, starting from the
 * incumbent (best, bestSim).  The MILP in peak mode minimizes the model's
 * peak (a lower bound on the simulated one) below the incumbent's by a
 * cutoff row; each plan it proposes is simulated, kept if lower, and cut
 * off; no solution proves the incumbent lowest (*lowest = 1).  Shares the
 * call's limits; stopped by them, *lowest stays 0. */
static AcStatus acIlpLowest(const AcIlpModel *m, int64_t staticBytes,
                            const AcIlpLimits *lim, AcIlpWork *work,
                            AcIlpStats *S, AcIlpRow *row, uint8_t *d,
                            AcPlan *best, AcSimResult *bestSim, AcPlan *trial,
                            AcSimResult *sim, int *lowest, AcError *err) {
  AcStatus st = AC_OK;
  glp_prob *lp = NULL;
  *lowest = 0;
  int64_t top = bestSim->peakBytes - staticBytes;
  if (m->numVars == 0 || top <= 0) {
    *lowest = 1; /* no choice, or nothing live at all */
    return AC_OK;
  }
  int ex;
  (void)frexp((double)top, &ex);
  double pscale = ldexp(1.0, ex); /* >= top: P stays in [0, 1] */
  lp = glp_create_prob();
  intptr_t nc = acIlpNumCols(m);
  intptr_t filled = acIlpFill(m, lp, 0, 1.0, pscale, row);
  if (filled == -2) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory in the ILP planner");
    goto cleanup;
  }
  if (filled == -4) {
    S->limited = 1;   /* too large a model: greedy's lowest stands */
    goto cleanup;
  }
  /* Cutoff: strictly below the incumbent's live peak. */
  acIlpPut(row, (int)nc + 1, 1.0);
  int cutoff = glp_add_rows(lp, 1);
  glp_set_mat_row(lp, cutoff, row->len, row->ind, row->val);
  row->len = 0;
  for (;;) {
    double below = (double)(bestSim->peakBytes - staticBytes);
    below -= fmax(0.5, AC_ILP_COST_EPS * below);
    glp_set_row_bnds(lp, cutoff, GLP_UP, 0.0, below / pscale);
    double left = lim->seconds > 0 ? lim->seconds - (acClockSeconds() - lim->t0)
                                   : HUGE_VAL;
    if (left <= 0 || (lim->maxRounds >= 0 && S->rounds >= lim->maxRounds) ||
        work->used >= work->max || work->itUsed >= work->maxIters)
      break;
    int tm = left * 1000 > INT32_MAX ? INT32_MAX : (int)(left * 1000) + 1;
    int mst = GLP_UNDEF;
    S->rounds++;
    int ret = acIlpSolve(lp, m->numVars, tm, work, &mst);
    if (ret == GLP_ENOPFS || (ret == 0 && mst == GLP_NOFEAS)) {
      *lowest = 1; /* nothing lower than the incumbent */
      break;
    }
    if (mst != GLP_OPT && mst != GLP_FEAS)
      break; /* a limit or a failure, with no plan to try */
    for (intptr_t k = 0; k < m->numVars; ++k)
      d[k] = glp_mip_col_val(lp, (int)k + 1) > 0.5;
    if ((st = acIlpTry(m, d, staticBytes, trial, sim, err)) != AC_OK)
      goto cleanup;
    if (acIlpLower(sim, bestSim)) {
      acPlanCopy(best, trial);
      acSimResultClear(bestSim);
      *bestSim = *sim;
      memset(sim, 0, sizeof *sim);
    }
    if (ret != 0 || mst != GLP_OPT)
      break; /* stopped by a limit: not proven */
    int inT = 0;
    for (intptr_t k = 0; k < m->numVars; ++k) {
      acIlpPut(row, (int)k + 1, d[k] ? -1.0 : 1.0);
      inT += d[k];
    }
    acIlpAddRow(lp, row, GLP_LO, 1.0 - inT, 0.0);
    S->cuts++;
  }
cleanup:
  if (lp)
    glp_delete_prob(lp);
  return st;
}

AcStatus acIlpFrom(const AcGraph *g, const uint8_t *initialSaved,
                   int64_t staticBytes, int64_t budget,
                   const AcIlpOptions *opts, AcPlan *plan, AcIlpStats *stats,
                   AcError *err) {
  double t0 = acClockSeconds();
  AcIlpStats local;
  AcIlpStats *S = stats ? stats : &local;
  AcStatus st = AC_OK;
  AcIlpModel m;
  AcPlan *best = acPlanCreate(g), *trial = acPlanCreate(g);
  AcSimResult sim, bestSim;
  glp_prob *lp = NULL;
  AcIlpRow row = {NULL, NULL, 0};
  uint8_t *d = NULL;
  int haveBest = 0;
  double limit = opts && opts->timeLimit > 0 ? opts->timeLimit : -1;
  intptr_t maxRounds = opts && opts->maxRounds > 0 ? opts->maxRounds : -1;
  AcIlpWork work = {0, opts && opts->maxNodes > 0 ? opts->maxNodes
                                                 : AC_ILP_DEFAULT_NODES, 0, 0,
                    INT64_MAX, 0, 0};
  memset(S, 0, sizeof *S);
  memset(&m, 0, sizeof m);
  memset(&sim, 0, sizeof sim);
  memset(&bestSim, 0, sizeof bestSim);
  if (!best || !trial)
    goto nomem;

  /* The starting plan: the answer without a budget or when it fits (no plan
     of the space recomputes less). */
  if ((st = acPlanFromSaved(g, initialSaved, best, err)) != AC_OK)
    goto cleanup;
  if ((st = acSimulate(g, best, staticBytes, 0, &bestSim, err)) != AC_OK)
    goto cleanup;
  if (budget < 0 || bestSim.peakBytes <= budget) {
    S->optimal = 1;
    S->lowerBound = bestSim.recomputeSeconds;
    haveBest = 1;
    goto done;
  }
  if ((st = acIlpBuild(&m, g, initialSaved, err)) != AC_OK)
    goto cleanup;
  S->candidates = m.numVars;

  /* The incumbent: greedy's plan for the budget; its lowest-peak plan when
     none of its plans fits (the fallback). */
  int cutShort = 0;
  if ((st = acGreedyPlanForBudgetDeadline(g, initialSaved, staticBytes, budget,
                                          limit > 0 ? t0 + limit : 0,
                                          &cutShort, NULL, best, NULL,
                                          err)) != AC_OK)
    goto cleanup;
  acSimResultClear(&bestSim);
  if ((st = acSimulate(g, best, staticBytes, 0, &bestSim, err)) != AC_OK)
    goto cleanup;
  haveBest = bestSim.peakBytes <= budget;
  if (cutShort) {
    /* A wall-clock limit (opts->timeLimit) passed while greedy looked for
       the incumbent: its lowest-peak plan by then, marked limited. */
    S->limited = 1;
    S->lowerBound = m.baseSeconds;
    goto done;
  }
  if (m.numVars > AC_ILP_MAX_DROPPABLE) {
    /* The work limit on the model: greedy's plan, not solved. */
    S->limited = 1;
    S->lowerBound = m.baseSeconds;
    goto done;
  }

  lp = glp_create_prob();
  intptr_t ncols = acIlpNumCols(&m);
  row.ind = acMalloc(((size_t)ncols + 2) * sizeof *row.ind);
  row.val = acMalloc(((size_t)ncols + 2) * sizeof *row.val);
  d = acCalloc((size_t)m.numVars + 1, 1);
  if (!row.ind || !row.val || !d)
    goto nomem;
  double costScale = 0;
  for (intptr_t k = 0; k < m.numOpVars; ++k)
    costScale = fmax(costScale, m.opCost[k]);
  if (!(costScale > 0))
    costScale = 1;
  intptr_t rows = acIlpFill(&m, lp, budget - staticBytes, costScale, 0, &row);
  if (rows == -2)
    goto nomem;
  if (rows == -4) {
    S->limited = 1;   /* too large a model: greedy's plan, not solved */
    S->lowerBound = m.baseSeconds;
    goto done;
  }
  S->rows = rows < 0 ? 0 : rows;
  int proven = rows == -1; /* a step no plan can bring under the budget */
  int cutoffRow = 0;
  if (haveBest && !proven) {
    /* Strictly cheaper than the incumbent. */
    for (intptr_t k = 0; k < m.numOpVars; ++k)
      acIlpPut(&row, (int)(m.numVars + k) + 1, m.opCost[k] / costScale);
    double bound = (bestSim.recomputeSeconds - m.baseSeconds) / costScale;
    bound -= AC_ILP_COST_EPS * fmax(1.0, fabs(bound));
    cutoffRow = glp_add_rows(lp, 1);
    glp_set_row_bnds(lp, cutoffRow, GLP_UP, 0.0, bound);
    glp_set_mat_row(lp, cutoffRow, row.len, row.ind, row.val);
    row.len = 0;
  }
  S->lowerBound = m.baseSeconds;
  work.maxIters = acIlpIterAllowance(lp);
  while (!proven) {
    double left = limit > 0 ? limit - (acClockSeconds() - t0) : HUGE_VAL;
    if (left <= 0 || (maxRounds >= 0 && S->rounds >= maxRounds) ||
        work.used >= work.max || work.itUsed >= work.maxIters) {
      S->limited = 1;
      break;
    }
    int tm = left * 1000 > INT32_MAX ? INT32_MAX : (int)(left * 1000) + 1;
    int mst = GLP_UNDEF;
    S->rounds++;
    int ret = acIlpSolve(lp, m.numVars, tm, &work, &mst);
    if (ret == GLP_ENOPFS || (ret == 0 && mst == GLP_NOFEAS)) {
      proven = 1; /* nothing cheaper than the incumbent fits */
      break;
    }
    if (ret != 0 || mst != GLP_OPT) {
      /* Time limit (GLP_ETMLIM) or a solver failure.  An integer solution
         found on the way is still a plan: keep it if it fits and is
         cheaper (not proven optimal). */
      S->limited = 1;
      if (mst == GLP_FEAS) {
        for (intptr_t k = 0; k < m.numVars; ++k)
          d[k] = glp_mip_col_val(lp, (int)k + 1) > 0.5;
        if ((st = acIlpTry(&m, d, staticBytes, trial, &sim, err)) != AC_OK)
          goto cleanup;
        if (sim.peakBytes <= budget &&
            (!haveBest || sim.recomputeSeconds < bestSim.recomputeSeconds)) {
          acPlanCopy(best, trial);
          acSimResultClear(&bestSim);
          bestSim = sim;
          memset(&sim, 0, sizeof sim);
          haveBest = 1;
        }
      }
      break;
    }
    double lb = m.baseSeconds + glp_mip_obj_val(lp) * costScale;
    if (lb > S->lowerBound)
      S->lowerBound = lb;
    for (intptr_t k = 0; k < m.numVars; ++k)
      d[k] = glp_mip_col_val(lp, (int)k + 1) > 0.5;
    if ((st = acIlpTry(&m, d, staticBytes, trial, &sim, err)) != AC_OK)
      goto cleanup;
    if (sim.peakBytes <= budget) {
      /* The cheapest plan of the relaxation fits: optimal.  Keep the
         incumbent if this is no cheaper (within the solver's tolerance). */
      if (!haveBest || sim.recomputeSeconds < bestSim.recomputeSeconds) {
        acPlanCopy(best, trial);
        acSimResultClear(&bestSim);
        bestSim = sim;
        memset(&sim, 0, sizeof sim);
        haveBest = 1;
      }
      proven = 1;
      break;
    }
    /* Nothing fits so far: the lowest-peak plan seen is the fallback. */
    if (!haveBest && acIlpLower(&sim, &bestSim)) {
      acPlanCopy(best, trial);
      acSimResultClear(&bestSim);
      bestSim = sim;
      memset(&sim, 0, sizeof sim);
    }
    /* No-good cut: sum_{k in T} (1 - d_k) + sum_{k not in T} d_k >= 1. */
    int inT = 0;
    for (intptr_t k = 0; k < m.numVars; ++k) {
      acIlpPut(&row, (int)k + 1, d[k] ? -1.0 : 1.0);
      inT += d[k];
    }
    acIlpAddRow(lp, &row, GLP_LO, 1.0 - inT, 0.0);
    S->cuts++;
  }
  S->optimal = proven;
  if (proven)
    S->lowerBound = haveBest ? bestSim.recomputeSeconds : HUGE_VAL;
  if (!haveBest) {
    /* No plan fits (proven, or none found within the limits): the ILP's
       own lowest-peak plan, searched within what is left of the limits. */
    int lowest = 0;
    AcIlpLimits lim = {limit, t0, maxRounds};
    if ((st = acIlpLowest(&m, staticBytes, &lim, &work, S, &row, d, best,
                          &bestSim, trial, &sim, &lowest, err)) != AC_OK)
      goto cleanup;
    S->optimal = proven && lowest;
    S->limited = !S->optimal;
  }
  S->nodes = work.used;
done:
  acPlanCopy(plan, best);
  S->feasible = budget < 0 || bestSim.peakBytes <= budget;
  S->peakBytes = bestSim.peakBytes;
  S->recomputeSeconds = bestSim.recomputeSeconds;
  goto cleanup;
nomem:
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                  "out of memory in the ILP planner");
cleanup:
  if (lp)
    glp_delete_prob(lp);
  acFree(row.ind);
  acFree(row.val);
  acFree(d);
  acSimResultClear(&sim);
  acSimResultClear(&bestSim);
  acPlanDestroy(best);
  acPlanDestroy(trial);
  acIlpModelFree(&m);
  S->seconds = acClockSeconds() - t0;
  return st;
}

