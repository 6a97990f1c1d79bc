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

/* The columns (d binary, r and y in [0, 1], P >= 0 in peak mode) and the
 * objective: the recompute seconds scaled by costScale, or P. */
static void acIlpFillColumns(const AcIlpModel *m, glp_prob *lp,
                             double costScale, int peak) {
  intptr_t nd = m->numVars, nr = m->numOpVars, nc = acIlpNumCols(m);
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
}

/* The recompute closure: r_p >= u_w for every result w of p read by the
 * backward or by an op recomputed in every plan, and r_p >= r_q + u_w - 1
 * for every reader q that may be recomputed. */
static void acIlpFillClosure(const AcIlpModel *m, glp_prob *lp, AcIlpRow *row) {
  const AcGraph *g = m->g;
  intptr_t nd = m->numVars;
  for (intptr_t k = 0; k < m->numOpVars; ++k) {
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
}

/* The auxiliary columns' bounds (the y definitions). */
static void acIlpFillGe(const AcIlpModel *m, glp_prob *lp, AcIlpRow *row) {
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
}

/* One memory row from the segment's coefficients `coef` and its highest
 * constant `best`: scaled by a power of two so the largest coefficient is
 * in [1, 2); coefficients below 1e-7 of it (which the solver's tolerances
 * would blur) are relaxed away: a positive one dropped, a negative one
 * taken at its most favourable value (x = 1) into the bound.  Peak mode:
 * P's coefficient counts among the row's largest, so that the row stays
 * well scaled (bytes against the whole peak).  Returns the row's nonzeros,
 * or -1 when the row has no coefficient and is not in peak mode (its
 * constant alone exceeds the budget); the row is added only when
 * *nonzeros stays within AC_ILP_MAX_NONZEROS. */
static intptr_t acIlpMemoryRow(glp_prob *lp, AcIlpRow *row,
                               const int64_t *coef, intptr_t nc, int64_t best,
                               int64_t liveBudget, double peakScale,
                               intptr_t *nonzeros) {
  int peak = peakScale > 0;
  int64_t maxAbs = 0;
  for (intptr_t k = 0; k < nc; ++k)
    if (llabs(coef[k]) > maxAbs)
      maxAbs = llabs(coef[k]);
  if (maxAbs == 0 && !peak)
    return -1;
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
  intptr_t len = row->len;
  if ((*nonzeros += len) > AC_ILP_MAX_NONZEROS) {
    row->len = 0;
    return len;
  }
  acIlpAddRow(lp, row, GLP_UP, 0.0, (double)rowBudget * scale);
  return len;
}

/* Memory rows: one per segment between interval ends whose worst case can
 * exceed liveBudget (every segment in peak mode).  Returns acIlpFill's
 * codes. */
static intptr_t acIlpFillMemory(const AcIlpModel *m, glp_prob *lp,
                                int64_t liveBudget, double peakScale,
                                AcIlpRow *row) {
  intptr_t nc = acIlpNumCols(m), rows = 0, nonzeros = 0;
  int peak = peakScale > 0;
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
    if (acIlpMemoryRow(lp, row, coef, nc, best, liveBudget, peakScale,
                       &nonzeros) < 0) {
      rows = -1;
      break;
    }
    if (nonzeros > AC_ILP_MAX_NONZEROS) {
      rows = -4;
      break;
    }
    ++rows;
  }
  acFree(coef);
  return rows;
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
  int peak = peakScale > 0;
  if (peak)
    liveBudget = 0;
  acIlpFillColumns(m, lp, costScale, peak);
  acIlpFillClosure(m, lp, row);
  acIlpFillGe(m, lp, row);
  return acIlpFillMemory(m, lp, liveBudget, peakScale, row);
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

/* One call of acIlpFrom: the options resolved, the model and the problem,
 * the incumbent (best, bestSim) and the scratch of the rounds. */
typedef struct AcIlpRun {
  const AcGraph *g;
  const uint8_t *s0;
  int64_t staticBytes, budget;
  double seconds;      /* wall clock for the call, <= 0: none */
  double t0;           /* when the call started */
  intptr_t maxRounds;  /* < 0: none */
  AcIlpWork work;
  AcIlpStats *S;
  AcIlpModel m;
  glp_prob *lp;        /* the cost MILP */
  double costScale;    /* its objective's scale */
  AcIlpRow row;
  uint8_t *d;          /* [numVars] a proposal */
  AcPlan *best, *trial;
  AcSimResult bestSim, sim;
  int haveBest;        /* best fits the budget */
  AcError *err;
} AcIlpRun;

static AcStatus acIlpNoMem(AcIlpRun *r) {
  return acErrorSet(r->err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory in the ILP planner");
}

/* Milliseconds GLPK may spend on the next solve, or 0 when a limit of the
 * call (time, rounds, nodes, iterations) is spent. */
static int acIlpTimeLeft(const AcIlpRun *r) {
  double left = r->seconds > 0 ? r->seconds - (acClockSeconds() - r->t0)
                               : HUGE_VAL;
  if (left <= 0 || (r->maxRounds >= 0 && r->S->rounds >= r->maxRounds) ||
      r->work.used >= r->work.max || r->work.itUsed >= r->work.maxIters)
    return 0;
  return left * 1000 > INT32_MAX ? INT32_MAX : (int)(left * 1000) + 1;
}

/* Reads the MILP's solution of `lp` into r->d and simulates it into
 * r->trial, r->sim. */
static AcStatus acIlpTryLp(AcIlpRun *r, glp_prob *lp) {
  for (intptr_t k = 0; k < r->m.numVars; ++k)
    r->d[k] = glp_mip_col_val(lp, (int)k + 1) > 0.5;
  return acIlpTry(&r->m, r->d, r->staticBytes, r->trial, &r->sim, r->err);
}

/* The trial just simulated becomes the incumbent. */
static void acIlpTakeTrial(AcIlpRun *r) {
  acPlanCopy(r->best, r->trial);
  acSimResultClear(&r->bestSim);
  r->bestSim = r->sim;
  memset(&r->sim, 0, sizeof r->sim);
}

/* No-good cut: sum_{k in T} (1 - d_k) + sum_{k not in T} d_k >= 1 removes
 * exactly the proposal in r->d from `lp`. */
static void acIlpCutOff(AcIlpRun *r, glp_prob *lp) {
  int inT = 0;
  for (intptr_t k = 0; k < r->m.numVars; ++k) {
    acIlpPut(&r->row, (int)k + 1, r->d[k] ? -1.0 : 1.0);
    inT += r->d[k];
  }
  acIlpAddRow(lp, &r->row, GLP_LO, 1.0 - inT, 0.0);
  r->S->cuts++;
}

/* The plan of the space with the lowest simulated peak, starting from the
 * incumbent (best, bestSim).  The MILP in peak mode minimizes the model's
 * peak (a lower bound on the simulated one) below the incumbent's by a
 * cutoff row; each plan it proposes is simulated, kept if lower, and cut
 * off; no solution proves the incumbent lowest (*lowest = 1).  Shares the
 * call's limits; stopped by them, *lowest stays 0. */
static AcStatus acIlpLowest(AcIlpRun *r, int *lowest) {
  const AcIlpModel *m = &r->m;
  AcIlpStats *S = r->S;
  AcStatus st = AC_OK;
  glp_prob *lp = NULL;
  *lowest = 0;
  int64_t top = r->bestSim.peakBytes - r->staticBytes;
  if (m->numVars == 0 || top <= 0) {
    *lowest = 1; /* no choice, or nothing live at all */
    return AC_OK;
  }
  int ex;
  (void)frexp((double)top, &ex);
  double pscale = ldexp(1.0, ex); /* >= top: P stays in [0, 1] */
  lp = glp_create_prob();
  intptr_t nc = acIlpNumCols(m);
  intptr_t filled = acIlpFill(m, lp, 0, 1.0, pscale, &r->row);
  if (filled == -2) {
    st = acIlpNoMem(r);
    goto cleanup;
  }
  if (filled == -4) {
    S->limited = 1;   /* too large a model: greedy's lowest stands */
    goto cleanup;
  }
  /* Cutoff: strictly below the incumbent's live peak. */
  acIlpPut(&r->row, (int)nc + 1, 1.0);
  int cutoff = glp_add_rows(lp, 1);
  glp_set_mat_row(lp, cutoff, r->row.len, r->row.ind, r->row.val);
  r->row.len = 0;
  for (;;) {
    double below = (double)(r->bestSim.peakBytes - r->staticBytes);
    below -= fmax(0.5, AC_ILP_COST_EPS * below);
    glp_set_row_bnds(lp, cutoff, GLP_UP, 0.0, below / pscale);
    int tm = acIlpTimeLeft(r);
    if (tm == 0)
      break;
    int mst = GLP_UNDEF;
    S->rounds++;
    int ret = acIlpSolve(lp, m->numVars, tm, &r->work, &mst);
    if (ret == GLP_ENOPFS || (ret == 0 && mst == GLP_NOFEAS)) {
      *lowest = 1; /* nothing lower than the incumbent */
      break;
    }
    if (mst != GLP_OPT && mst != GLP_FEAS)
      break; /* a limit or a failure, with no plan to try */
    if ((st = acIlpTryLp(r, lp)) != AC_OK)
      goto cleanup;
    if (acIlpLower(&r->sim, &r->bestSim))
      acIlpTakeTrial(r);
    if (ret != 0 || mst != GLP_OPT)
      break; /* stopped by a limit: not proven */
    acIlpCutOff(r, lp);
  }
cleanup:
  if (lp)
    glp_delete_prob(lp);
  return st;
}

/* The starting plan into the incumbent: the answer without a budget or
 * when it fits (no plan of the space recomputes less): *done. */
static AcStatus acIlpStart(AcIlpRun *r, int *done) {
  AcStatus st;
  if ((st = acPlanFromSaved(r->g, r->s0, r->best, r->err)) != AC_OK ||
      (st = acSimulate(r->g, r->best, r->staticBytes, 0, &r->bestSim,
                       r->err)) != AC_OK)
    return st;
  *done = r->budget < 0 || r->bestSim.peakBytes <= r->budget;
  if (*done) {
    r->S->optimal = 1;
    r->S->lowerBound = r->bestSim.recomputeSeconds;
    r->haveBest = 1;
  }
  return AC_OK;
}

/* The model, and the incumbent: greedy's plan for the budget; its
 * lowest-peak plan when none of its plans fits (the fallback).  *done
 * (limited) when a wall-clock limit passed while greedy looked for it (its
 * lowest-peak plan by then), or the model is past the work limit
 * (AC_ILP_MAX_DROPPABLE: greedy's plan, not solved). */
static AcStatus acIlpIncumbent(AcIlpRun *r, int *done) {
  AcStatus st;
  int cutShort = 0;
  AcGreedyOptions go;
  acGreedyOptionsInit(&go);
  go.search.budget = r->budget;
  go.search.staticBytes = r->staticBytes;
  go.search.deadline = r->seconds > 0 ? r->t0 + r->seconds : 0;
  if ((st = acIlpBuild(&r->m, r->g, r->s0, r->err)) != AC_OK)
    return st;
  r->S->candidates = r->m.numVars;
  if ((st = acGreedyPlanForBudgetRun(r->g, r->s0, &go, &cutShort, r->best,
                                     NULL, r->err)) != AC_OK)
    return st;
  acSimResultClear(&r->bestSim);
  if ((st = acSimulate(r->g, r->best, r->staticBytes, 0, &r->bestSim,
                       r->err)) != AC_OK)
    return st;
  r->haveBest = r->bestSim.peakBytes <= r->budget;
  *done = cutShort || r->m.numVars > AC_ILP_MAX_DROPPABLE;
  if (*done) {
    r->S->limited = 1;
    r->S->lowerBound = r->m.baseSeconds;
  }
  return AC_OK;
}

/* The cost MILP: columns, rows for the budget and, with an incumbent that
 * fits, the cutoff row asking for strictly cheaper plans.  *proven when
 * some step no plan can bring under the budget; *done (limited) when the
 * model is too large to solve. */
static AcStatus acIlpCostProblem(AcIlpRun *r, int *proven, int *done) {
  const AcIlpModel *m = &r->m;
  r->lp = glp_create_prob();
  intptr_t ncols = acIlpNumCols(m);
  r->row.ind = acMalloc(((size_t)ncols + 2) * sizeof *r->row.ind);
  r->row.val = acMalloc(((size_t)ncols + 2) * sizeof *r->row.val);
  r->d = acCalloc((size_t)m->numVars + 1, 1);
  if (!r->row.ind || !r->row.val || !r->d)
    return acIlpNoMem(r);
  r->costScale = 0;
  for (intptr_t k = 0; k < m->numOpVars; ++k)
    r->costScale = fmax(r->costScale, m->opCost[k]);
  if (!(r->costScale > 0))
    r->costScale = 1;
  intptr_t rows = acIlpFill(m, r->lp, r->budget - r->staticBytes,
                            r->costScale, 0, &r->row);
  if (rows == -2)
    return acIlpNoMem(r);
  if (rows == -4) {
    r->S->limited = 1;   /* too large a model: greedy's plan, not solved */
    r->S->lowerBound = m->baseSeconds;
    *done = 1;
    return AC_OK;
  }
  r->S->rows = rows < 0 ? 0 : rows;
  *proven = rows == -1;
  if (r->haveBest && !*proven) {
    /* Strictly cheaper than the incumbent. */
    for (intptr_t k = 0; k < m->numOpVars; ++k)
      acIlpPut(&r->row, (int)(m->numVars + k) + 1, m->opCost[k] / r->costScale);
    double bound = (r->bestSim.recomputeSeconds - m->baseSeconds) / r->costScale;
    bound -= AC_ILP_COST_EPS * fmax(1.0, fabs(bound));
    int cutoffRow = glp_add_rows(r->lp, 1);
    glp_set_row_bnds(r->lp, cutoffRow, GLP_UP, 0.0, bound);
    glp_set_mat_row(r->lp, cutoffRow, r->row.len, r->row.ind, r->row.val);
    r->row.len = 0;
  }
  r->S->lowerBound = m->baseSeconds;
  r->work.maxIters = acIlpIterAllowance(r->lp);
  return AC_OK;
}

/* The trial fits the budget: it becomes the incumbent unless that is
 * cheaper already (within the solver's tolerance). */
static void acIlpTakeIfCheaper(AcIlpRun *r) {
  if (!r->haveBest || r->sim.recomputeSeconds < r->bestSim.recomputeSeconds) {
    acIlpTakeTrial(r);
    r->haveBest = 1;
  }
}

/* The cost loop: the cheapest plan of the relaxation is simulated; if it
 * fits it is optimal (*proven), else it is cut off and the MILP solved
 * again, until no solution is left (*proven: nothing cheaper than the
 * incumbent fits) or a limit stops it (limited). */
static AcStatus acIlpCostLoop(AcIlpRun *r, int *proven) {
  AcIlpStats *S = r->S;
  AcStatus st;
  while (!*proven) {
    int tm = acIlpTimeLeft(r);
    if (tm == 0) {
      S->limited = 1;
      break;
    }
    int mst = GLP_UNDEF;
    S->rounds++;
    int ret = acIlpSolve(r->lp, r->m.numVars, tm, &r->work, &mst);
    if (ret == GLP_ENOPFS || (ret == 0 && mst == GLP_NOFEAS)) {
      *proven = 1; /* nothing cheaper than the incumbent fits */
      break;
    }
    if (ret != 0 || mst != GLP_OPT) {
      /* Time limit (GLP_ETMLIM) or a solver failure.  An integer solution
         found on the way is still a plan: keep it if it fits and is
         cheaper (not proven optimal). */
      S->limited = 1;
      if (mst == GLP_FEAS) {
        if ((st = acIlpTryLp(r, r->lp)) != AC_OK)
          return st;
        if (r->sim.peakBytes <= r->budget)
          acIlpTakeIfCheaper(r);
      }
      break;
    }
    double lb = r->m.baseSeconds + glp_mip_obj_val(r->lp) * r->costScale;
    if (lb > S->lowerBound)
      S->lowerBound = lb;
    if ((st = acIlpTryLp(r, r->lp)) != AC_OK)
      return st;
    if (r->sim.peakBytes <= r->budget) {
      acIlpTakeIfCheaper(r); /* the relaxation's cheapest fits: optimal */
      *proven = 1;
      break;
    }
    /* Nothing fits so far: the lowest-peak plan seen is the fallback. */
    if (!r->haveBest && acIlpLower(&r->sim, &r->bestSim))
      acIlpTakeTrial(r);
    acIlpCutOff(r, r->lp);
  }
  return AC_OK;
}

/* Solves from the incumbent: the cost loop, then, when no plan fits
 * (proven, or none found within the limits), the ILP's own lowest-peak
 * plan within what is left of the limits. */
static AcStatus acIlpSearch(AcIlpRun *r) {
  AcIlpStats *S = r->S;
  AcStatus st;
  int proven = 0, done = 0, lowest = 0;
  if ((st = acIlpCostProblem(r, &proven, &done)) != AC_OK || done)
    return st;
  if ((st = acIlpCostLoop(r, &proven)) != AC_OK)
    return st;
  S->optimal = proven;
  if (proven)
    S->lowerBound = r->haveBest ? r->bestSim.recomputeSeconds : HUGE_VAL;
  if (!r->haveBest) {
    if ((st = acIlpLowest(r, &lowest)) != AC_OK)
      return st;
    S->optimal = proven && lowest;
    S->limited = !S->optimal;
  }
  S->nodes = r->work.used;
  return AC_OK;
}

AcStatus acIlpFrom(const AcGraph *g, const uint8_t *initialSaved,
                   const AcIlpOptions *opts, AcPlan *plan, AcIlpStats *stats,
                   AcError *err) {
  AcIlpStats local;
  AcIlpRun r;
  AcStatus st;
  int done = 0;
  memset(&r, 0, sizeof r);
  r.t0 = acClockSeconds();
  r.g = g;
  r.s0 = initialSaved;
  r.staticBytes = opts->search.staticBytes;
  r.budget = opts->search.budget;
  /* The time: the time limit or the deadline, whichever comes first; a
     deadline passed already leaves greedy's plan so far. */
  r.seconds = opts->timeLimit > 0 ? opts->timeLimit : -1;
  if (opts->search.deadline > 0) {
    double left = opts->search.deadline - r.t0;
    if (left <= 0)
      left = 1e-9;
    if (r.seconds <= 0 || left < r.seconds)
      r.seconds = left;
  }
  r.maxRounds = opts->maxRounds > 0 ? opts->maxRounds : -1;
  r.work = (AcIlpWork){0, opts->maxNodes > 0 ? opts->maxNodes
                                             : AC_ILP_DEFAULT_NODES,
                       0, 0, INT64_MAX, 0, 0};
  r.S = stats ? stats : &local;
  r.err = err;
  memset(r.S, 0, sizeof *r.S);
  r.best = acPlanCreate(g);
  r.trial = acPlanCreate(g);
  if (!r.best || !r.trial) {
    st = acIlpNoMem(&r);
    goto cleanup;
  }
  if ((st = acIlpStart(&r, &done)) != AC_OK ||
      (!done && (st = acIlpIncumbent(&r, &done)) != AC_OK) ||
      (!done && (st = acIlpSearch(&r)) != AC_OK))
    goto cleanup;
  acPlanCopy(plan, r.best);
  r.S->feasible = r.budget < 0 || r.bestSim.peakBytes <= r.budget;
  r.S->peakBytes = r.bestSim.peakBytes;
  r.S->recomputeSeconds = r.bestSim.recomputeSeconds;
cleanup:
  if (r.lp)
    glp_delete_prob(r.lp);
  acFree(r.row.ind);
  acFree(r.row.val);
  acFree(r.d);
  acSimResultClear(&r.sim);
  acSimResultClear(&r.bestSim);
  acPlanDestroy(r.best);
  acPlanDestroy(r.trial);
  acIlpModelFree(&r.m);
  r.S->seconds = acClockSeconds() - r.t0;
  return st;
}
