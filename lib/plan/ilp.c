/* ilp.c - the exact planner: a GLPK MILP over greedy's decisions, checked
 * by the simulator (docs/optimality.md).
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
 * The loop.  Because the rows are a relaxation, the MILP optimum is a lower
 * bound on the best plan that fits.  Its plan is simulated: if it fits it is
 * optimal; if not, a no-good cut removes exactly that T and the MILP is
 * solved again.  The greedy plan (if it fits) is the incumbent: a cutoff row
 * asks for strictly cheaper plans, and a MILP with no solution proves the
 * incumbent optimal.  Every step is deterministic; only the time limit can
 * make the outcome depend on the machine. */
#include "greedy_internal.h"
#include "plan_internal.h"
#include "autoac/simulate.h"

#include <assert.h>
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* AC_ILP_MAX_NONZEROS: the largest model the ILP builds.  A memory row costs
 * O(columns) to fill and GLPK checks its limits only between iterations:
 * factorizing millions of nonzeros takes minutes before the first node (a
 * 20k-op chain: 18.5M nonzeros, 11 s in one simplex call).  The corpus
 * models have at most ~5k.  Past the cap the model is not built: the
 * answer is greedy's plan, marked limited, the same on every machine. */
enum { AC_ILP_CUTS_FROM = 32, AC_ILP_MAX_NONZEROS = 500000 };

/* The deterministic work limit: branch-and-bound nodes over every solve of
 * one call, counted from GLPK's tree (glp_ios_tree_size) in a callback that
 * stops the solve (glp_ios_terminate) when the call's allowance is spent. */
typedef struct AcIlpWork {
  intptr_t used;     /* nodes of the finished solves */
  intptr_t max;      /* allowance for the whole call */
  intptr_t round;    /* nodes of the solve in progress */
  int stopped;       /* the callback stopped a solve */
} AcIlpWork;

static void acIlpCallback(glp_tree *tree, void *info) {
  AcIlpWork *w = info;
  int active, current, total;
  glp_ios_tree_size(tree, &active, &current, &total);
  w->round = total;
  if (w->used + total > w->max && !w->stopped) {
    w->stopped = 1;
    glp_ios_terminate(tree);
  }
}

/* Cheaper than the incumbent means cheaper by this relative margin. */
#define AC_ILP_COST_EPS 1e-9

typedef struct AcIlpEvent {
  intptr_t pos;   /* from this position on */
  int32_t col;    /* column whose coefficient changes */
  int64_t delta;  /* added to it */
} AcIlpEvent;

/* y >= constant + sum of coef * column over its terms (sense 1), or y <=
 * it (sense -1): the auxiliary columns' definitions, in creation order, so
 * a column's definitions only name earlier columns.  A column bounded from
 * below takes, for a plan, the largest of its bounds (at least 0); one
 * bounded from above the smallest (at most 1). */
typedef struct AcIlpGe {
  int32_t y;
  int32_t constant;
  int32_t sense;
  intptr_t firstTerm, numTerms;  /* into termCol / termCoef */
} AcIlpGe;

/* Columns: d_v for the droppable values [0, numVars), r_p for the forward
 * ops some but not every plan recomputes [numVars, numVars + numOpVars),
 * then auxiliary y columns (a storage kept alive by a late recompute read:
 * y >= r_q for the readers q that reach far enough). */
typedef struct AcIlpModel {
  const AcGraph *g;
  const uint8_t *s0;       /* [numValues] the starting save set */
  intptr_t numVars;
  AcId *vars;              /* [numVars] the droppable values, ascending */
  int32_t *varOf;          /* [numValues] index into vars, or -1 */
  /* cost */
  uint8_t *r0;             /* [numOps] recomputed in the starting plan */
  uint8_t *rmax;           /* [numOps] recomputed with all of D dropped */
  int32_t *opVarOf;        /* [numOps] index of r_p among op columns, or -1 */
  AcId *opVars;            /* [numOpVars] */
  intptr_t numOpVars;
  double *opCost;          /* [numOpVars] seconds x backward instances */
  double baseSeconds;      /* recompute seconds of the starting plan */
  /* memory */
  intptr_t numAux;
  AcIlpGe *ge;
  intptr_t numGe, capGe;
  int32_t *termCol, *termCoef;
  intptr_t numTerms, capTerms;
  uint8_t *auxUpper;       /* [numAux] bounded from above */
  intptr_t capAux;
  intptr_t numPos;         /* forward and backward op steps, all entries */
  int64_t *constDelta;     /* [numPos + 1] difference array of the constant */
  AcIlpEvent *events;
  intptr_t numEvents, capEvents;
} AcIlpModel;

static intptr_t acIlpNumCols(const AcIlpModel *m) {
  return m->numVars + m->numOpVars + m->numAux;
}

static void acIlpModelFree(AcIlpModel *m) {
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
static int acIlpPushBound(AcIlpModel *m, int32_t y, int32_t sense,
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

static int acIlpPushGe(AcIlpModel *m, int32_t y, int32_t constant,
                       const int32_t *col, const int32_t *coef, int32_t n) {
  return acIlpPushBound(m, y, 1, constant, col, coef, n);
}

/* A new auxiliary column (bounded from above if `upper`); -1 on
 * allocation failure. */
static int32_t acIlpNewAux(AcIlpModel *m, int upper) {
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
static int acIlpAdd(AcIlpModel *m, intptr_t lo, intptr_t hi, int32_t col,
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

static int acIlpCompareEvents(const void *a, const void *b) {
  const AcIlpEvent *x = a, *y = b;
  if (x->pos != y->pos)
    return x->pos < y->pos ? -1 : 1;
  return (x->col > y->col) - (x->col < y->col);
}

/* The operand of v's producer that shares v's storage root (as simulate.c). */
static AcId acIlpViewParent(const AcGraph *g, AcId v) {
  const AcValue *val = &g->values[v];
  const AcOp *op = &g->ops[val->producer];
  for (int32_t i = 0; i < op->numOperands; ++i) {
    AcId u = acOpOperand(g, val->producer, i);
    if (g->values[u].aliasRoot == val->aliasRoot)
      return u;
  }
  return val->aliasRoot;
}

static intptr_t acIlpMax(intptr_t a, intptr_t b) { return a > b ? a : b; }
static intptr_t acIlpMin(intptr_t a, intptr_t b) { return a < b ? a : b; }

#define AC_ILP_NEVER INTPTR_MAX

/* What a read in the backward (by a backward or a recompute op) touches,
 * following simulate.c's resolution. */
enum {
  AC_RES_NONE = 0, /* an argument or static storage: nothing to count */
  AC_RES_BWD,      /* a backward value's storage */
  AC_RES_FIXED,    /* the forward storage of a root saved in every plan */
  AC_RES_DROP,     /* a droppable root: saved (d = 0) or its copy (d = 1) */
  AC_RES_COPY      /* the copy of a root no plan saves */
};

/* Per-instance scratch, indexed by value id. */
typedef struct AcIlpScratch {
  intptr_t *allocF, *lastF;    /* forward storage: allocation, last forward read */
  intptr_t *lastBF;            /* last backward-op read of a FIXED storage */
  intptr_t *firstBC, *lastBC;  /* backward-op reads of a COPY storage */
  intptr_t *firstDD, *lastDD;  /* backward-op reads of a DROP storage */
  intptr_t *allocB, *lastB;    /* backward values */
  intptr_t *firstRead;         /* first backward op reading the value itself */
  intptr_t *early;             /* acIlpEarliest of a root, -2: not computed */
  uint32_t *stamp;             /* visit marks of acIlpReach */
  uint32_t epoch;
  AcId *stack;
  uint8_t *retFwd;             /* returned forward storage */
  uint8_t *staticRoot, *pinned;
} AcIlpScratch;

static int acIlpResolve(const AcIlpModel *m, const AcIlpScratch *s, AcId u,
                        AcId *root) {
  const AcGraph *g = m->g;
  AcId w = u;
  for (;;) {
    const AcValue *val = &g->values[w];
    if (val->role != AC_ROLE_RESULT)
      return AC_RES_NONE; /* parameters are static, inputs and tangents
                             live throughout */
    const AcOp *op = &g->ops[val->producer];
    if (op->phase == AC_PHASE_BWD) {
      if (val->aliasRoot == w) {
        *root = w;
        return s->staticRoot[w] ? AC_RES_NONE : AC_RES_BWD;
      }
      w = acIlpViewParent(g, w);
      continue;
    }
    if (m->varOf[w] >= 0) {
      *root = w;
      return s->staticRoot[w] ? AC_RES_NONE : AC_RES_DROP;
    }
    if (m->s0[w]) {
      *root = val->aliasRoot;
      return s->staticRoot[*root] ? AC_RES_NONE : AC_RES_FIXED;
    }
    if (val->aliasRoot == w) {
      *root = w;
      return s->staticRoot[w] ? AC_RES_NONE : AC_RES_COPY;
    }
    w = acIlpViewParent(g, w);
  }
}

/* A backward op step at position t reads value u. */
static void acIlpRead(const AcIlpModel *m, AcIlpScratch *s, AcId u,
                      intptr_t t) {
  AcId r;
  switch (acIlpResolve(m, s, u, &r)) {
  case AC_RES_BWD:
    s->lastB[r] = acIlpMax(s->lastB[r], t);
    break;
  case AC_RES_FIXED:
    s->lastBF[r] = acIlpMax(s->lastBF[r], t);
    break;
  case AC_RES_DROP:
    if (s->firstDD[r] < 0)
      s->firstDD[r] = t;
    s->lastDD[r] = acIlpMax(s->lastDD[r], t);
    break;
  case AC_RES_COPY:
    if (s->firstBC[r] < 0)
      s->firstBC[r] = t;
    s->lastBC[r] = acIlpMax(s->lastBC[r], t);
    break;
  default:
    break;
  }
}

/* The first backward op step reading any value reachable from `starts`
 * through forward ops that may be rerun, entering only values no plan
 * saves (withDrop: droppable values too).  AC_ILP_NEVER when none. */
static intptr_t acIlpReach(const AcIlpModel *m, AcIlpScratch *s,
                           const AcId *starts, int32_t numStarts,
                           int withDrop) {
  const AcGraph *g = m->g;
  intptr_t best = AC_ILP_NEVER, sp = 0;
  if (++s->epoch == 0) {
    memset(s->stamp, 0, (size_t)g->numValues * sizeof *s->stamp);
    s->epoch = 1;
  }
  for (int32_t i = 0; i < numStarts; ++i)
    if (s->stamp[starts[i]] != s->epoch) {
      s->stamp[starts[i]] = s->epoch;
      s->stack[sp++] = starts[i];
    }
  while (sp > 0) {
    AcId x = s->stack[--sp];
    if (s->firstRead[x] >= 0 && s->firstRead[x] < best)
      best = s->firstRead[x];
    const AcValue *xv = &g->values[x];
    for (int32_t i = 0; i < xv->numUses; ++i) {
      AcId q = acValueUse(g, x, i);
      const AcOp *qop = &g->ops[q];
      if (qop->phase != AC_PHASE_FWD || acOpCannotRecompute(qop))
        continue;
      for (int32_t r = 0; r < qop->numResults; ++r) {
        AcId w = qop->firstResult + r;
        if (s->stamp[w] == s->epoch)
          continue;
        if (m->s0[w] && !(withDrop && m->varOf[w] >= 0))
          continue;
        s->stamp[w] = s->epoch;
        s->stack[sp++] = w;
      }
    }
  }
  return best;
}

/* When root v is not saved and its copy exists, the copy is live from at
 * least this backward op step: reads of values a recompute rebuilds from it
 * through values no plan saves (each needs its producers rerun, v's first,
 * before the read).  Cached per instance. */
static intptr_t acIlpEarliest(const AcIlpModel *m, AcIlpScratch *s, AcId v) {
  if (s->early[v] == -2) {
    /* v and the results of its producer that no plan saves: reading any
       of those reruns the producer, which rebuilds v too. */
    const AcOp *p = &m->g->ops[m->g->values[v].producer];
    AcId starts[64];
    int32_t n = 0;
    starts[n++] = v;
    for (int32_t r = 0; r < p->numResults && n < 64; ++r) {
      AcId w = p->firstResult + r;
      if (w != v && !m->s0[w])
        starts[n++] = w;
    }
    s->early[v] = acIlpReach(m, s, starts, n, 0);
  }
  return s->early[v];
}

/* Droppable values one step past a search like acIlpReach's without them:
 * reached from `starts` through forward ops that may be rerun and values
 * no plan saves.  Writes up to `cap` ids after the `n` already in `out`;
 * returns the new count. */
static int32_t acIlpDropsNear(const AcIlpModel *m, AcIlpScratch *s,
                              const AcId *starts, int32_t numStarts,
                              AcId *out, int32_t n, int32_t cap) {
  const AcGraph *g = m->g;
  intptr_t sp = 0;
  if (++s->epoch == 0) {
    memset(s->stamp, 0, (size_t)g->numValues * sizeof *s->stamp);
    s->epoch = 1;
  }
  for (int32_t i = 0; i < n; ++i)
    s->stamp[out[i]] = s->epoch;
  for (int32_t i = 0; i < numStarts; ++i)
    if (s->stamp[starts[i]] != s->epoch) {
      s->stamp[starts[i]] = s->epoch;
      s->stack[sp++] = starts[i];
    }
  while (sp > 0 && n < cap) {
    AcId x = s->stack[--sp];
    const AcValue *xv = &g->values[x];
    for (int32_t i = 0; i < xv->numUses; ++i) {
      const AcOp *qop = &g->ops[acValueUse(g, x, i)];
      if (qop->phase != AC_PHASE_FWD || acOpCannotRecompute(qop))
        continue;
      for (int32_t r = 0; r < qop->numResults; ++r) {
        AcId w = qop->firstResult + r;
        if (s->stamp[w] == s->epoch)
          continue;
        s->stamp[w] = s->epoch;
        if (m->varOf[w] >= 0) {
          if (n < cap)
            out[n++] = w;
        } else if (!m->s0[w]) {
          s->stack[sp++] = w;
        }
      }
    }
  }
  return n;
}

/* Droppable values past acIlpEarliest(v)'s search: droppable siblings of v
 * (results of its producer) and acIlpDropsNear(v).  Dropping one of them
 * (and v, when v is droppable) makes v's copy start at that value's
 * acIlpEarliest. */
static int32_t acIlpNextDrops(const AcIlpModel *m, AcIlpScratch *s, AcId v,
                              AcId *out, int32_t cap) {
  const AcGraph *g = m->g;
  int32_t n = 0;
  const AcOp *p = &g->ops[g->values[v].producer];
  for (int32_t r = 0; r < p->numResults && n < cap; ++r) {
    AcId w = p->firstResult + r;
    if (w != v && m->varOf[w] >= 0)
      out[n++] = w;
  }
  return acIlpDropsNear(m, s, &v, 1, out, n, cap);
}

/* Late reads.  A recompute op q's group is anchored at the first backward
 * op step that reads, through values not saved, something rebuilt from q's
 * results.  Reads reached through values no plan saves bound it
 * unconditionally (`last` is the step before the first of them).  Past a
 * droppable value w, the reads reached need d_w = 1, and past further
 * droppable values their d too: Reach(w, t), "some read at or before t is
 * reached through w with every droppable value on the way dropped", is
 * bounded from above by a column R(w, t) with
 *     R(w, t) <= d_w,  R(w, t) <= [pos0(w) <= t] + sum R(w', t)
 * over the droppable values w' one step past w (pos0(w): the first read
 * past w through values no plan saves).  R(w, t) only changes at the pos0
 * of w and of what lies past it (its thresholds), so one column per
 * threshold.  With r_q = 1 the storage q reads is live at step t up to
 * `last` unless some first droppable value w past q has Reach(w, t):
 *     L_q(t) = r_q - sum R(w, t) <= [live at t]. */
typedef struct AcIlpCand {
  AcId w;
} AcIlpCand;

static int acIlpCompareIntptr(const void *a, const void *b) {
  intptr_t x = *(const intptr_t *)a, y = *(const intptr_t *)b;
  return (x > y) - (x < y);
}

/* Per instance, per droppable value (by its index in vars): pos0, the
 * droppable values one step past it, its thresholds and their R columns. */
typedef struct AcIlpReachInfo {
  int8_t state;            /* 0: not computed, 1: computing, 2: done */
  intptr_t pos0;
  intptr_t firstNext, numNext;    /* into next[] */
  intptr_t firstThr, numThr;      /* into thr[] / thrCol[] */
} AcIlpReachInfo;

typedef struct AcIlpReach {
  AcIlpReachInfo *info;    /* [numVars] */
  AcId *next;
  intptr_t numNext, capNext;
  intptr_t *thr;
  int32_t *thrCol;         /* R column of each threshold, -2: not made */
  intptr_t numThr, capThr, capThrCol;
  intptr_t *tmp;           /* scratch for merging thresholds */
  intptr_t capTmp;
} AcIlpReach;

/* Fills info for droppable value w (recursively past it).  0 on
 * allocation failure. */
static int acIlpReachInfo(const AcIlpModel *m, AcIlpScratch *s,
                          AcIlpReach *rc, AcId w) {
  AcIlpReachInfo *in = &rc->info[m->varOf[w]];
  if (in->state)
    return 1; /* done (values lie in program order: no cycles) */
  in->state = 1;
  in->pos0 = acIlpReach(m, s, &w, 1, 0);
  AcId near[64];
  int32_t nn = acIlpDropsNear(m, s, &w, 1, near, 0, 64);
  if (!acArrayGrow((void **)&rc->next, &rc->capNext, rc->numNext + nn,
                 sizeof *rc->next))
    return 0;
  in = &rc->info[m->varOf[w]];
  in->firstNext = rc->numNext;
  in->numNext = nn;
  if (nn > 0)
    memcpy(rc->next + rc->numNext, near, (size_t)nn * sizeof *near);
  rc->numNext += nn;
  /* Thresholds: pos0 and those of what lies past it (computed first: the
     recursion uses tmp too). */
  for (int32_t i = 0; i < nn; ++i)
    if (!acIlpReachInfo(m, s, rc, near[i]))
      return 0;
  intptr_t nt = 0;
  for (int32_t i = 0; i < nn; ++i) {
    const AcIlpReachInfo *ni = &rc->info[m->varOf[near[i]]];
    if (!acArrayGrow((void **)&rc->tmp, &rc->capTmp, nt + ni->numThr + 1,
                   sizeof *rc->tmp))
      return 0;
    if (ni->numThr > 0)
      memcpy(rc->tmp + nt, rc->thr + ni->firstThr,
             (size_t)ni->numThr * sizeof *rc->tmp);
    nt += ni->numThr;
  }
  in = &rc->info[m->varOf[w]];
  if (!acArrayGrow((void **)&rc->tmp, &rc->capTmp, nt + 1, sizeof *rc->tmp))
    return 0;
  if (in->pos0 != AC_ILP_NEVER)
    rc->tmp[nt++] = in->pos0;
  qsort(rc->tmp, (size_t)nt, sizeof *rc->tmp, acIlpCompareIntptr);
  intptr_t nu = 0;
  for (intptr_t i = 0; i < nt; ++i)
    if ((nu == 0 || rc->tmp[i] != rc->tmp[nu - 1]) &&
        (in->pos0 == AC_ILP_NEVER || rc->tmp[i] <= in->pos0))
      rc->tmp[nu++] = rc->tmp[i]; /* past pos0, R(w, t) = d_w anyway */
  if (!acArrayGrow((void **)&rc->thr, &rc->capThr, rc->numThr + nu,
                 sizeof *rc->thr) ||
      !acArrayGrow((void **)&rc->thrCol, &rc->capThrCol, rc->numThr + nu,
                 sizeof *rc->thrCol))
    return 0;
  in->firstThr = rc->numThr;
  in->numThr = nu;
  for (intptr_t i = 0; i < nu; ++i) {
    rc->thr[rc->numThr] = rc->tmp[i];
    rc->thrCol[rc->numThr++] = -2;
  }
  in->state = 2;
  return 1;
}

/* The column bounding Reach(w, t) from above, or -1 when it is 0 (no
 * threshold at or before t); -2 on allocation failure.  At or past pos0(w)
 * it is d_w itself. */
static int32_t acIlpReachCol(AcIlpModel *m, AcIlpReach *rc, AcId w,
                             intptr_t t) {
  const AcIlpReachInfo *in = &rc->info[m->varOf[w]];
  if (in->pos0 != AC_ILP_NEVER && in->pos0 <= t)
    return m->varOf[w];
  intptr_t k = -1;
  for (intptr_t i = 0; i < in->numThr && rc->thr[in->firstThr + i] <= t; ++i)
    k = in->firstThr + i;
  if (k < 0)
    return -1;
  if (rc->thrCol[k] != -2)
    return rc->thrCol[k];
  intptr_t theta = rc->thr[k];
  int32_t cols[66], coefs[66], n = 0;
  for (intptr_t i = 0; i < in->numNext && n < 64; ++i) {
    int32_t c = acIlpReachCol(m, rc, rc->next[in->firstNext + i], theta);
    if (c == -2)
      return -2;
    in = &rc->info[m->varOf[w]];
    if (c >= 0) {
      int32_t j = 0;
      while (j < n && cols[j] != c)
        ++j;
      if (j == n) {
        cols[n] = c;
        coefs[n++] = 1;
      }
    }
  }
  int32_t col = -1;
  if (n > 0) {
    int32_t one = 1, dw = m->varOf[w];
    col = acIlpNewAux(m, 1);
    if (col < 0 || !acIlpPushBound(m, col, -1, 0, &dw, &one, 1) ||
        !acIlpPushBound(m, col, -1, 0, cols, coefs, n))
      return -2;
  }
  rc->thrCol[k] = col;
  return col;
}

typedef struct AcIlpLate {
  int64_t key;       /* 2 * root: its forward storage; 2 * root + 1: its copy */
  intptr_t last;
  AcId op;
  int32_t minus;     /* forward storage of a droppable root read as such
                        only when saved: L_q(t) - d_root; else -1 */
  intptr_t firstCand, numCand;
} AcIlpLate;

static int acIlpCompareLate(const void *a, const void *b) {
  const AcIlpLate *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return (x->op > y->op) - (x->op < y->op);
}

/* When a copy is known to exist by: all of `cols` (d columns, up to 2) = 1. */
typedef struct AcIlpStart {
  intptr_t pos;
  int32_t numCols;
  int32_t cols[2];
} AcIlpStart;

/* Scratch of acIlpStorage. */
typedef struct AcIlpTerms {
  intptr_t *cuts;
  intptr_t capCuts;
  int32_t *col, *coef;
  intptr_t capTerms;
} AcIlpTerms;

static int acIlpTermsReserve(AcIlpTerms *t, intptr_t cuts, intptr_t terms) {
  if (cuts > t->capCuts) {
    intptr_t *c = acRealloc(t->cuts, (size_t)cuts * 2 * sizeof *c);
    if (!c)
      return 0;
    t->cuts = c;
    t->capCuts = cuts * 2;
  }
  if (terms > t->capTerms) {
    int32_t *c = acRealloc(t->col, (size_t)terms * 2 * sizeof *c);
    if (!c)
      return 0;
    t->col = c;
    int32_t *k = acRealloc(t->coef, (size_t)terms * 2 * sizeof *k);
    if (!k)
      return 0;
    t->coef = k;
    t->capTerms = terms * 2;
  }
  return 1;
}

/* One storage of `bytes` over positions [from, end]: live at t when some
 * start (pos <= t; none given: always) holds and some end holds: a
 * backward read at or after t (t <= lastRead), or a late reader with
 * L_q(t) = 1.  For each piece between breakpoints and each (start, end)
 * pair: y >= AND(start) + L - 1, AND(start) >= sum(cols) - (n - 1).
 * Pieces where an unconditional start meets an unconditional end are
 * constant. */
static int acIlpStorage(AcIlpModel *m, AcIlpTerms *tm, AcIlpReach *rc,
                        int64_t bytes, intptr_t from, intptr_t end,
                        const AcIlpStart *st, int32_t numStarts,
                        intptr_t lastRead, const AcIlpLate *late,
                        intptr_t numLate, const AcIlpCand *cand) {
  if (from > end || bytes == 0)
    return 1;
  intptr_t nc = 0, maxTerms = 4;
  for (intptr_t k = 0; k < numLate; ++k)
    maxTerms = acIlpMax(maxTerms, 4 + late[k].numCand);
  intptr_t needCuts = 2 + numStarts + (lastRead >= 0) + numLate;
  for (intptr_t k = 0; k < numLate; ++k)
    for (intptr_t c = late[k].firstCand;
         c < late[k].firstCand + late[k].numCand; ++c) {
      const AcIlpReachInfo *in = &rc->info[m->varOf[cand[c].w]];
      needCuts += 2 + in->numThr;
    }
  if (!acIlpTermsReserve(tm, needCuts, maxTerms))
    return 0;
  tm->cuts[nc++] = from;
  for (int32_t i = 0; i < numStarts; ++i)
    if (st[i].pos > from)
      tm->cuts[nc++] = st[i].pos;
  if (lastRead >= from)
    tm->cuts[nc++] = lastRead + 1;
  for (intptr_t k = 0; k < numLate; ++k) {
    if (late[k].last + 1 > from)
      tm->cuts[nc++] = late[k].last + 1;
    for (intptr_t c = late[k].firstCand;
         c < late[k].firstCand + late[k].numCand; ++c) {
      const AcIlpReachInfo *in = &rc->info[m->varOf[cand[c].w]];
      if (in->pos0 != AC_ILP_NEVER && in->pos0 > from)
        tm->cuts[nc++] = in->pos0;
      for (intptr_t i = 0; i < in->numThr; ++i)
        if (rc->thr[in->firstThr + i] > from)
          tm->cuts[nc++] = rc->thr[in->firstThr + i];
    }
  }
  qsort(tm->cuts, (size_t)nc, sizeof *tm->cuts, acIlpCompareIntptr);
  for (intptr_t c = 0; c < nc; ++c) {
    intptr_t t = tm->cuts[c];
    if (t > end)
      break;
    if (c + 1 < nc && tm->cuts[c + 1] == t)
      continue;
    intptr_t hi = c + 1 < nc ? acIlpMin(tm->cuts[c + 1] - 1, end) : end;
    /* Unconditional? */
    int freeStart = numStarts == 0, freeEnd = t <= lastRead;
    for (int32_t i = 0; i < numStarts && !freeStart; ++i)
      freeStart = st[i].pos <= t && st[i].numCols == 0;
    if (freeStart && freeEnd) {
      if (!acIlpAdd(m, t, hi, -1, bytes))
        return 0;
      continue;
    }
    int32_t y = -1;
    for (int32_t i = -1; i < numStarts; ++i) {
      /* i = -1: no start needed (numStarts == 0) */
      if ((i < 0) != (numStarts == 0) || (i >= 0 && st[i].pos > t))
        continue;
      for (intptr_t k = -1; k < numLate; ++k) {
        int32_t nt = 0, constant = 0;
        /* AND(start) >= sum(cols) - (n - 1); 1 when no start is needed. */
        constant += 1;
        if (i >= 0) {
          for (int32_t j = 0; j < st[i].numCols; ++j) {
            tm->col[nt] = st[i].cols[j];
            tm->coef[nt++] = 1;
          }
          constant -= st[i].numCols;
        }
        if (k < 0) { /* the backward-read end */
          if (t > lastRead)
            continue;
          constant += 1;
        } else {
          const AcIlpLate *l = &late[k];
          if (l->last < t)
            continue;
          if (m->opVarOf[l->op] >= 0) {
            tm->col[nt] = (int32_t)m->numVars + m->opVarOf[l->op];
            tm->coef[nt++] = 1;
          } else {
            constant += 1; /* recomputed in every plan */
          }
          for (intptr_t q = l->firstCand; q < l->firstCand + l->numCand; ++q) {
            int32_t rcol = acIlpReachCol(m, rc, cand[q].w, t);
            if (rcol == -2)
              return 0;
            if (rcol >= 0) {
              tm->col[nt] = rcol;
              tm->coef[nt++] = -1;
            }
          }
          if (l->minus >= 0) {
            tm->col[nt] = l->minus;
            tm->coef[nt++] = -1;
          }
        }
        constant -= 1; /* AND(start) + L - 1 */
        /* Merge repeated columns (a start and a candidate may name the
           same value). */
        int32_t nu = 0;
        for (int32_t a = 0; a < nt; ++a) {
          int32_t b = 0;
          while (b < nu && tm->col[b] != tm->col[a])
            ++b;
          if (b < nu) {
            tm->coef[b] += tm->coef[a];
          } else {
            tm->col[nu] = tm->col[a];
            tm->coef[nu++] = tm->coef[a];
          }
        }
        if (y < 0 && (y = acIlpNewAux(m, 0)) < 0)
          return 0;
        if (!acIlpPushGe(m, y, constant, tm->col, tm->coef, nu))
          return 0;
      }
    }
    if (y >= 0 && !acIlpAdd(m, t, hi, y, bytes))
      return 0;
  }
  return 1;
}

/* The end of storage v's interval that ends at position `hi` (-1: none)
 * under simulate.c's in-place rule: one step earlier when the op there,
 * in positions [lo, last] of one entry, writes its result into v's storage
 * and that result is not static (a write into a gradient changes nothing,
 * or removes a backward chain: acIlpBuildMemory's `vanish`). */
static intptr_t acIlpEnd(const AcGraph *g, const uint8_t *staticRoot,
                         const AcId *posOp, intptr_t lo, intptr_t last, AcId v,
                         intptr_t hi) {
  if (hi <= lo || hi > last)
    return hi;
  AcId o = posOp[hi];
  if (acGraphInPlaceRoot(g, o) != v)
    return hi;
  return staticRoot[g->ops[o].firstResult] ? hi : hi - 1;
}

/* Builds the memory part of the model (numPos, constDelta, events, aux). */
static AcStatus acIlpBuildMemory(AcIlpModel *m, AcError *err) {
  const AcGraph *g = m->g;
  AcStatus st = AC_OK;
  intptr_t nv = g->numValues, ns = g->numSched;
  AcIlpScratch s;
  memset(&s, 0, sizeof s);
  AcIlpLate *late = NULL;
  intptr_t numLate = 0, capLate = 0;
  AcIlpCand *cand = NULL;
  intptr_t numCand = 0, capCand = 0;
  AcIlpTerms terms = {NULL, 0, NULL, NULL, 0};
  AcIlpReach rc;
  uint8_t *vanish = NULL; /* [nv] storages an in-place chain removes */
  AcId *posOp = NULL;     /* [numPos] the op at each position */
  memset(&rc, 0, sizeof rc);
  rc.info = acCalloc((size_t)m->numVars + 1, sizeof *rc.info);
  intptr_t *posBegin = acMalloc(((size_t)ns + 1) * sizeof *posBegin);
  intptr_t **arrays[] = {&s.allocF, &s.lastF,  &s.lastBF, &s.firstBC,
                         &s.lastBC, &s.firstDD, &s.lastDD, &s.allocB,
                         &s.lastB,  &s.firstRead, &s.early};
  enum { NARR = sizeof arrays / sizeof arrays[0] };
  int ok = posBegin != NULL;
  for (int i = 0; i < NARR; ++i) {
    *arrays[i] = acMalloc(((size_t)nv + 1) * sizeof **arrays[i]);
    ok = ok && *arrays[i];
  }
  s.retFwd = acCalloc((size_t)nv + 1, 1);
  s.staticRoot = acCalloc((size_t)nv + 1, 1);
  s.pinned = acCalloc((size_t)nv + 1, 1);
  s.stamp = acCalloc((size_t)nv + 1, sizeof *s.stamp);
  s.stack = acMalloc(((size_t)nv + 1) * sizeof *s.stack);
  vanish = acCalloc((size_t)nv + 1, 1);
  if (!ok || !s.retFwd || !s.staticRoot || !s.pinned || !s.stamp ||
      !s.stack || !rc.info || !vanish)
    goto nomem;

  /* Positions: each entry's ops of its phase, in schedule order. */
  intptr_t pos = 0;
  for (intptr_t e = 0; e < ns; ++e) {
    posBegin[e] = pos;
    pos += acGraphCountPhase(g, g->sched[e].func, g->sched[e].phase);
  }
  posBegin[ns] = pos;
  m->numPos = pos;
  m->constDelta = acCalloc((size_t)pos + 2, sizeof *m->constDelta);
  posOp = acCalloc((size_t)pos + 1, sizeof *posOp);
  if (!m->constDelta || !posOp)
    goto nomem;
  /* Static storage (as simulate.c) and storages every plan keeps saved. */
  for (intptr_t v = 0; v < nv; ++v)
    if (g->values[v].role == AC_ROLE_PARAM)
      s.staticRoot[v] = 1;
  for (intptr_t r = 0; r < g->numRets; ++r) {
    if (!(g->retFlags[r] & AC_RET_GRAD))
      continue;
    AcId root = g->values[g->rets[r]].aliasRoot;
    if (g->values[root].role == AC_ROLE_RESULT)
      s.staticRoot[root] = 1;
  }
  for (intptr_t v = 0; v < nv; ++v)
    if (m->s0[v] && m->varOf[v] < 0)
      s.pinned[g->values[v].aliasRoot] = 1;

  for (intptr_t e = 0; e < ns; ++e) {
    if (g->sched[e].phase != AC_PHASE_FWD)
      continue;
    intptr_t e2 = g->sched[e].partner;
    AcId f = g->sched[e].func;
    const AcFunc *fn = &g->funcs[f];
    AcId v0 = fn->firstArg;
    AcId v1 = f + 1 < g->numFuncs ? g->funcs[f + 1].firstArg : (AcId)nv;
    intptr_t fB = posBegin[e], bB = posBegin[e2], bL = posBegin[e2 + 1] - 1;
    for (AcId v = v0; v < v1; ++v) {
      for (int i = 0; i < NARR; ++i)
        (*arrays[i])[v] = -1;
      s.early[v] = -2;
      s.retFwd[v] = 0;
    }
    /* Forward steps. */
    intptr_t t = fB;
    for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o) {
      const AcOp *op = &g->ops[o];
      if (op->phase != AC_PHASE_FWD)
        continue;
      for (int32_t r = 0; r < op->numResults; ++r) {
        AcId v = op->firstResult + r;
        if (g->values[v].aliasRoot == v && !s.staticRoot[v])
          s.allocF[v] = s.lastF[v] = t;
      }
      for (int32_t i = 0; i < op->numOperands; ++i) {
        AcId root = g->values[acOpOperand(g, o, i)].aliasRoot;
        if (g->values[root].role == AC_ROLE_RESULT && !s.staticRoot[root] &&
            s.allocF[root] >= 0)
          s.lastF[root] = acIlpMax(s.lastF[root], t);
      }
      ++t;
    }
    /* Backward op steps (recompute steps are not positions). */
    t = bB;
    for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o) {
      const AcOp *op = &g->ops[o];
      if (op->phase != AC_PHASE_BWD)
        continue;
      for (int32_t r = 0; r < op->numResults; ++r) {
        AcId v = op->firstResult + r;
        if (g->values[v].aliasRoot == v && !s.staticRoot[v])
          s.allocB[v] = s.lastB[v] = t;
      }
      for (int32_t i = 0; i < op->numOperands; ++i) {
        AcId u = acOpOperand(g, o, i);
        if (s.firstRead[u] < 0)
          s.firstRead[u] = t;
        acIlpRead(m, &s, u, t);
      }
      ++t;
    }
    /* Returned values: forward ones outlive the backward, backward ones
       (not gradients) live to its end, like a read at its last step. */
    for (int32_t r = 0; r < fn->numRets; ++r) {
      intptr_t ri = fn->firstRet + r;
      AcId v = g->rets[ri];
      if (g->retFlags[ri] & AC_RET_GRAD)
        continue;
      if (g->values[v].phase == AC_PHASE_FWD) {
        AcId root = g->values[v].aliasRoot;
        if (g->values[root].role == AC_ROLE_RESULT && !s.staticRoot[root])
          s.retFwd[root] = 1;
      } else if (bL >= bB) {
        acIlpRead(m, &s, v, bL);
      }
    }
    /* In-place writes (simulate.c's acSimInPlace).  A backward chain into
       a gradient allocates nothing: its storages are skipped.  Any other
       write ends its init one step early (acIlpEnd), exact for the
       intervals below; for a forward storage read by a backward writer
       the init's bytes come off the writer's step when it may be a
       recomputed copy (never saved, or dropped: d_v), which keeps the rows
       a lower bound. */
    t = bL;
    for (AcId o = fn->firstOp + fn->numOps - 1; o >= fn->firstOp; --o) {
      if (g->ops[o].phase != AC_PHASE_BWD)
        continue;
      AcId root = acGraphInPlaceRoot(g, o), res = g->ops[o].firstResult;
      if (root != AC_NONE && !s.staticRoot[root] &&
          g->ops[g->values[root].producer].phase == AC_PHASE_BWD &&
          s.allocB[root] >= 0 && s.lastB[root] == t &&
          (s.staticRoot[res] || vanish[res]))
        vanish[root] = 1;
      --t;
    }
    t = fB;
    intptr_t tb = bB;
    for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o) {
      int fwd = g->ops[o].phase == AC_PHASE_FWD;
      intptr_t at = fwd ? t++ : tb++;
      posOp[at] = o;
      AcId root = acGraphInPlaceRoot(g, o);
      /* Forward-produced storages read in the backward (copies, saves) are
         the relaxation's; the others' ends are exact (acIlpEnd). */
      if (fwd || root == AC_NONE || s.staticRoot[root] ||
          g->ops[g->values[root].producer].phase != AC_PHASE_FWD)
        continue;
      /* A saved init is read from the forward storage: never in place; a
         copy only when this is its last backward-op read. */
      AcId r = AC_NONE;
      int kind = acIlpResolve(m, &s, g->ops[o].dpsInit, &r);
      int32_t col = -1;
      if (r == root && kind == AC_RES_FIXED)
        continue;
      if (r == root && kind == AC_RES_DROP) {
        if (s.lastDD[root] != at)
          continue;
        col = m->varOf[root];
      } else if (r == root && kind == AC_RES_COPY && s.lastBC[root] != at) {
        continue;
      }
      if (!acIlpAdd(m, at, at, col, -g->values[root].bytes))
        goto nomem;
    }
    /* Intervals. */
    for (AcId v = v0; v < v1; ++v) {
      const AcValue *val = &g->values[v];
      int64_t bytes = val->bytes;
      if (val->aliasRoot != v || s.staticRoot[v] || bytes == 0)
        continue;
      int okAdd = 1;
      if (val->role == AC_ROLE_PRIMAL) {
        okAdd = acIlpAdd(m, fB, bL, -1, bytes);
      } else if (val->role == AC_ROLE_TANGENT) {
        okAdd = acIlpAdd(m, bB, bL, -1, bytes);
      } else if (s.allocB[v] >= 0) {
        if (!vanish[v])
          okAdd = acIlpAdd(m, s.allocB[v], acIlpEnd(g, s.staticRoot, posOp, bB, bL, v, s.lastB[v]),
                           -1, bytes);
      } else if (s.allocF[v] >= 0) {
        intptr_t hi = s.lastF[v];
        if (s.retFwd[v])
          hi = acIlpMax(hi, bL);
        if (s.pinned[v])
          hi = acIlpMax(hi, acIlpMax(bB - 1, s.lastBF[v]));
        intptr_t fL = posBegin[e + 1] - 1, hiKept = hi;
        hi = acIlpEnd(g, s.staticRoot, posOp, fB, fL, v, hi);
        int32_t var = m->varOf[v];
        if (var < 0) {
          okAdd = acIlpAdd(m, s.allocF[v], hi, -1, bytes);
        } else {
          /* Saved (d = 0): until the backward starts and its last read.
             Dropped (d = 1): the forward interval.  (Copies below.) */
          intptr_t hi0 = acIlpEnd(g, s.staticRoot, posOp, fB, fL, v,
                                  acIlpMax(hiKept, acIlpMax(bB - 1, s.lastDD[v])));
          okAdd = acIlpAdd(m, s.allocF[v], hi0, -1, bytes) &&
                  acIlpAdd(m, s.allocF[v], hi0, var, -bytes) &&
                  acIlpAdd(m, s.allocF[v], hi, var, bytes);
        }
      }
      if (!okAdd)
        goto nomem;
    }
    /* Late reads: recompute ops keep what they read alive until their
       group, which no backward op before the first that could need them
       anchors. */
    numLate = 0;
    numCand = 0;
    memset(rc.info, 0, (size_t)m->numVars * sizeof *rc.info);
    rc.numNext = rc.numThr = 0;
    for (AcId q = fn->firstOp; q < fn->firstOp + fn->numOps; ++q) {
      const AcOp *qop = &g->ops[q];
      if (qop->phase != AC_PHASE_FWD || !m->rmax[q] || qop->numResults > 64)
        continue;
      AcId starts[64], near[64];
      int32_t ns0 = 0, nn = 0;
      for (int32_t r = 0; r < qop->numResults; ++r) {
        AcId w = qop->firstResult + r;
        if (m->varOf[w] >= 0)
          near[nn++] = w;
        else if (!m->s0[w])
          starts[ns0++] = w;
      }
      intptr_t anchor = acIlpReach(m, &s, starts, ns0, 0);
      nn = acIlpDropsNear(m, &s, starts, ns0, near, nn, 64);
      /* Candidates: the droppable values past the unconditional reads. */
      if (capCand - numCand < nn) {
        intptr_t ncap = (capCand + nn) * 2;
        AcIlpCand *c = acRealloc(cand, (size_t)ncap * sizeof *c);
        if (!c)
          goto nomem;
        cand = c;
        capCand = ncap;
      }
      intptr_t firstCand = numCand;
      for (int32_t i = 0; i < nn; ++i) {
        if (!acIlpReachInfo(m, &s, &rc, near[i]))
          goto nomem;
        const AcIlpReachInfo *in = &rc.info[m->varOf[near[i]]];
        if ((in->pos0 != AC_ILP_NEVER && in->pos0 < anchor) ||
            (in->numThr > 0 && rc.thr[in->firstThr] < anchor))
          cand[numCand++] = (AcIlpCand){near[i]};
      }
      if (anchor == AC_ILP_NEVER) {
        if (numCand == firstCand)
          continue; /* no backward op can need q */
        anchor = bL + 1;
      }
      if (anchor - 1 < bB)
        continue;
      for (int32_t i = 0; i < qop->numOperands; ++i) {
        AcId r;
        int kind = acIlpResolve(m, &s, acOpOperand(g, q, i), &r);
        if ((kind != AC_RES_FIXED && kind != AC_RES_DROP &&
             kind != AC_RES_COPY) ||
            g->values[r].bytes == 0)
          continue;
        /* A FIXED read keeps the forward storage; a DROP read keeps it when
           saved and the copy when dropped; a COPY read keeps the copy. */
        for (int which = 0; which < 2; ++which) {
          int fwd = which == 0;
          if (fwd && kind == AC_RES_COPY)
            continue;
          if (!fwd && kind == AC_RES_FIXED)
            continue;
          if (numLate == capLate) {
            intptr_t ncap = capLate ? capLate * 2 : 64;
            AcIlpLate *n = acRealloc(late, (size_t)ncap * sizeof *n);
            if (!n)
              goto nomem;
            late = n;
            capLate = ncap;
          }
          late[numLate++] = (AcIlpLate){
              2 * (int64_t)r + !fwd, anchor - 1, q,
              fwd && kind == AC_RES_DROP ? m->varOf[r] : -1, firstCand,
              numCand - firstCand};
        }
      }
    }
    if (numLate > 1)
      qsort(late, (size_t)numLate, sizeof *late, acIlpCompareLate);
    /* Forward storages past what the intervals count. */
    for (intptr_t i = 0; i < numLate;) {
      intptr_t j = i;
      while (j < numLate && late[j].key == late[i].key)
        ++j;
      AcId r = (AcId)(late[i].key / 2);
      if (late[i].key % 2 == 0) {
        intptr_t hi = acIlpMax(s.lastF[r], acIlpMax(bB - 1, s.lastBF[r]));
        if (s.retFwd[r])
          hi = acIlpMax(hi, bL);
        if (m->varOf[r] >= 0)
          hi = acIlpMax(hi, s.lastDD[r]);
        intptr_t end = -1;
        for (intptr_t k = i; k < j; ++k)
          end = acIlpMax(end, late[k].last);
        if (!acIlpStorage(m, &terms, &rc, g->values[r].bytes, hi + 1, end,
                          NULL, 0, -1, late + i, j - i, cand))
          goto nomem;
      }
      i = j;
    }
    /* Copies: of the roots no plan saves that something reads in the
       backward, and of the droppable roots (counted when dropped). */
    for (AcId r = v0; r < v1; ++r) {
      const AcValue *val = &g->values[r];
      if (val->role != AC_ROLE_RESULT || val->aliasRoot != r ||
          s.staticRoot[r] || val->bytes == 0 ||
          g->ops[val->producer].phase != AC_PHASE_FWD)
        continue;
      int32_t var = m->varOf[r];
      if (var < 0 && m->s0[r])
        continue;
      /* Its late readers (the copy key). */
      int64_t key = 2 * (int64_t)r + 1;
      intptr_t lo = 0, hiL = numLate;
      while (lo < hiL) {
        intptr_t mid = (lo + hiL) / 2;
        if (late[mid].key < key)
          lo = mid + 1;
        else
          hiL = mid;
      }
      intptr_t nl = 0;
      while (lo + nl < numLate && late[lo + nl].key == key)
        ++nl;
      intptr_t first = var >= 0 ? s.firstDD[r] : s.firstBC[r];
      intptr_t lastRead = var >= 0 ? s.lastDD[r] : s.lastBC[r];
      if (first < 0 && nl == 0)
        continue;
      /* Starts: its own first backward read, acIlpEarliest, and one more
         drop past it. */
      AcIlpStart st[34];
      AcId next[32];
      int32_t nst = 0;
      intptr_t early = acIlpEarliest(m, &s, r);
      if (first >= 0)
        early = acIlpMin(early, first);
      if (early != AC_ILP_NEVER)
        st[nst++] = (AcIlpStart){early, var >= 0, {var, -1}};
      int32_t nn = acIlpNextDrops(m, &s, r, next, 32);
      for (int32_t k = 0; k < nn; ++k) {
        intptr_t pos = acIlpEarliest(m, &s, next[k]);
        if (pos >= early)
          continue;
        AcIlpStart x = {pos, 1, {m->varOf[next[k]], -1}};
        if (var >= 0)
          x.cols[x.numCols++] = var;
        st[nst++] = x;
      }
      if (nst == 0)
        continue; /* no start is known: nothing claimed */
      intptr_t from = AC_ILP_NEVER, end = lastRead;
      for (int32_t k = 0; k < nst; ++k)
        from = acIlpMin(from, st[k].pos);
      for (intptr_t k = lo; k < lo + nl; ++k)
        end = acIlpMax(end, late[k].last);
      if (!acIlpStorage(m, &terms, &rc, val->bytes, from, end, st, nst,
                        lastRead, nl ? late + lo : NULL, nl, cand))
        goto nomem;
    }
  }
  if (m->numEvents > 1)
    qsort(m->events, (size_t)m->numEvents, sizeof *m->events,
          acIlpCompareEvents);
  goto cleanup;
nomem:
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                  "out of memory in the ILP planner");
cleanup:
  acFree(posBegin);
  for (int i = 0; i < NARR; ++i)
    acFree(*arrays[i]);
  acFree(s.retFwd);
  acFree(s.staticRoot);
  acFree(s.pinned);
  acFree(s.stamp);
  acFree(s.stack);
  acFree(vanish);
  acFree(posOp);
  acFree(late);
  acFree(cand);
  acFree(terms.cuts);
  acFree(terms.col);
  acFree(terms.coef);
  acFree(rc.info);
  acFree(rc.next);
  acFree(rc.thr);
  acFree(rc.thrCol);
  acFree(rc.tmp);
  return st;
}

/* Builds the whole model from the starting save set. */
static AcStatus acIlpBuild(AcIlpModel *m, const AcGraph *g,
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
  st = acIlpBuildMemory(m, err);
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
static void acIlpColumns(const AcIlpModel *m, const AcPlan *plan,
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
static int acIlpEval(const AcIlpModel *m, const double *col, int64_t *live,
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

AcStatus acIlpModelLive(const AcGraph *g, const uint8_t *initialSaved,
                        const AcPlan *plan, int64_t *live, intptr_t cap,
                        intptr_t *count, AcError *err) {
  AcIlpModel m;
  AcStatus st = acIlpBuild(&m, g, initialSaved, err);
  double *col = NULL;
  if (st != AC_OK)
    return st;
  for (intptr_t v = 0; v < g->numValues; ++v)
    if (m.varOf[v] < 0 && !plan->saved[v] != !initialSaved[v]) {
      st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, (AcId)v,
                      "value %d: the plan is not the starting save set minus "
                      "droppable values",
                      (int)v);
      goto cleanup;
    }
  col = acCalloc((size_t)acIlpNumCols(&m) + 1, sizeof *col);
  if (!col) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory in the ILP planner");
    goto cleanup;
  }
  acIlpColumns(&m, plan, col);
  int64_t peak;
  if (!acIlpEval(&m, col, live, cap, &peak)) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory in the ILP planner");
    goto cleanup;
  }
  *count = m.numPos;
cleanup:
  acFree(col);
  acIlpModelFree(&m);
  return st;
}

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
 * rows, the y definitions and the memory rows for `cap` bytes of live
 * memory.  Returns the number of memory rows, or -1 when some step's
 * constant alone exceeds the cap (no plan fits), or -2 on allocation
 * failure, or -4 when the memory rows pass AC_ILP_MAX_NONZEROS (the
 * model is then incomplete and must not be solved).  Peak mode (peakScale > 0): one more column P (nc + 1, >= 0, the
 * objective) and every memory row reads live <= peakScale * P instead, so
 * the MILP minimizes the model's peak (cap and costScale are unused). */
static intptr_t acIlpFill(const AcIlpModel *m, glp_prob *lp, int64_t cap,
                          double costScale, double peakScale, AcIlpRow *row) {
  const AcGraph *g = m->g;
  intptr_t nd = m->numVars, nr = m->numOpVars, nc = acIlpNumCols(m);
  intptr_t rows = 0, nonzeros = 0;
  int peak = peakScale > 0;
  if (peak)
    cap = 0;
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
    if (!peak && worst <= cap)
      continue; /* no plan can exceed the cap here */
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
    int64_t rhs = cap - best;
    for (intptr_t k = 0; k < nc; ++k) {
      if (coef[k] == 0)
        continue;
      if ((double)llabs(coef[k]) < 1e-7 * big) {
        if (coef[k] < 0)
          rhs -= coef[k];
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
    acIlpAddRow(lp, row, GLP_UP, 0.0, (double)rhs * scale);
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
  work->round = 0;
  *mst = GLP_UNDEF;
  int ret = glp_simplex(lp, &sm);
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
  if (numVars >= AC_ILP_CUTS_FROM) {
    parm.mir_cuts = GLP_ON;
    parm.cov_cuts = GLP_ON;
    parm.clq_cuts = GLP_ON;
  }
  /* The cut generators print even with msg_lev off: silence GLPK's
     terminal output around the call (a per-thread setting). */
  int term = glp_term_out(GLP_OFF);
  ret = glp_intopt(lp, &parm);
  glp_term_out(term);
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
        work->used >= work->max)
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
                                                 : AC_ILP_DEFAULT_NODES, 0, 0};
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
                                          &cutShort, best, NULL, err)) != AC_OK)
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
  while (!proven) {
    double left = limit > 0 ? limit - (acClockSeconds() - t0) : HUGE_VAL;
    if (left <= 0 || (maxRounds >= 0 && S->rounds >= maxRounds) ||
        work.used >= work.max) {
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
