/* ilp_memory.c - the exact planner's memory rows (ilp_model.h): storage by
 * storage and per schedule instance, the live bytes at each forward and
 * backward op step as a constant plus d/r/y-weighted terms, following
 * simulate.c's intervals (in-place writes, returned values, copies, late
 * reads by recompute ops).  The model (ilp_model.c) header comment states
 * what is exact and what is relaxed.
 *
 * Invariant: for every plan of the space the model's live bytes at a step
 * are at most the simulated ones (the rows never cut a plan that fits).
 *
 * About 1,100 lines, kept in one file on purpose: the rows are built in
 * one pass per forward schedule entry (acIlpBuildMemory, in named steps)
 * whose steps and helpers (how a read resolves, how far a recompute
 * reaches, how a storage's bytes become terms) share the per-instance
 * scratch (AcIlpScratch) and must all keep the invariant above; splitting
 * them over files would spread that one argument. */
#include "ilp_model.h"
#include "plan_oracles.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

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
    if (val->role == AC_ROLE_TANGENT && g->tangentMode == AC_TANGENTS_LAST_USE) {
      *root = val->aliasRoot; /* until its last backward read */
      return AC_RES_BWD;
    }
    if (val->role != AC_ROLE_RESULT)
      return AC_RES_NONE; /* parameters are static, inputs and held
                             tangents live throughout */
    const AcOp *op = &g->ops[val->producer];
    if (op->phase == AC_PHASE_BWD) {
      if (val->aliasRoot == w) {
        *root = w;
        return s->staticRoot[w] ? AC_RES_NONE : AC_RES_BWD;
      }
      w = acValueViewParent(g, w);
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
    w = acValueViewParent(g, w);
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

/* One storage as acIlpStorage sees it: its bytes over positions [from,
 * end], its starts, its last backward read and its late readers. */
typedef struct AcIlpSpan {
  int64_t bytes;
  intptr_t from, end;
  const AcIlpStart *st;
  int32_t numStarts;
  intptr_t lastRead;
  const AcIlpLate *late;
  intptr_t numLate;
  const AcIlpCand *cand;
} AcIlpSpan;

/* The breakpoints of span `sp` into tm->cuts, sorted: its first position,
 * its starts, the end of its backward reads, its late readers' ends and
 * where their candidates' reach changes.  Returns how many, or -1 on
 * allocation failure (the term scratch is reserved for acIlpPairRow too). */
static intptr_t acIlpStorageCuts(const AcIlpModel *m, AcIlpTerms *tm,
                                 const AcIlpReach *rc, const AcIlpSpan *sp) {
  intptr_t nc = 0, maxTerms = 4, from = sp->from;
  const AcIlpLate *late = sp->late;
  for (intptr_t k = 0; k < sp->numLate; ++k)
    maxTerms = acIlpMax(maxTerms, 4 + late[k].numCand);
  intptr_t needCuts = 2 + sp->numStarts + (sp->lastRead >= 0) + sp->numLate;
  for (intptr_t k = 0; k < sp->numLate; ++k)
    for (intptr_t c = late[k].firstCand;
         c < late[k].firstCand + late[k].numCand; ++c) {
      const AcIlpReachInfo *in = &rc->info[m->varOf[sp->cand[c].w]];
      needCuts += 2 + in->numThr;
    }
  if (!acIlpTermsReserve(tm, needCuts, maxTerms))
    return -1;
  tm->cuts[nc++] = from;
  for (int32_t i = 0; i < sp->numStarts; ++i)
    if (sp->st[i].pos > from)
      tm->cuts[nc++] = sp->st[i].pos;
  if (sp->lastRead >= from)
    tm->cuts[nc++] = sp->lastRead + 1;
  for (intptr_t k = 0; k < sp->numLate; ++k) {
    if (late[k].last + 1 > from)
      tm->cuts[nc++] = late[k].last + 1;
    for (intptr_t c = late[k].firstCand;
         c < late[k].firstCand + late[k].numCand; ++c) {
      const AcIlpReachInfo *in = &rc->info[m->varOf[sp->cand[c].w]];
      if (in->pos0 != AC_ILP_NEVER && in->pos0 > from)
        tm->cuts[nc++] = in->pos0;
      for (intptr_t i = 0; i < in->numThr; ++i)
        if (rc->thr[in->firstThr + i] > from)
          tm->cuts[nc++] = rc->thr[in->firstThr + i];
    }
  }
  qsort(tm->cuts, (size_t)nc, sizeof *tm->cuts, acIlpCompareIntptr);
  return nc;
}

/* Merges repeated columns of the nt terms in tm (a start and a candidate
 * may name the same value); returns the count left. */
static int32_t acIlpMergeTerms(AcIlpTerms *tm, int32_t nt) {
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
  return nu;
}

/* The row of one (start, end) pair at position t: y >= AND(start) + L - 1
 * with AND(start) >= sum(cols) - (n - 1).  Start i (-1: none needed) and
 * end k (-1: the backward read; else late reader k); a pair that cannot
 * hold at t adds nothing.  *y is the piece's auxiliary column, made on its
 * first row.  0 on allocation failure. */
static int acIlpPairRow(AcIlpModel *m, AcIlpTerms *tm, AcIlpReach *rc,
                        const AcIlpSpan *sp, int32_t i, intptr_t k,
                        intptr_t t, int32_t *y) {
  int32_t nt = 0, constant = 0;
  /* AND(start) >= sum(cols) - (n - 1); 1 when no start is needed. */
  constant += 1;
  if (i >= 0) {
    for (int32_t j = 0; j < sp->st[i].numCols; ++j) {
      tm->col[nt] = sp->st[i].cols[j];
      tm->coef[nt++] = 1;
    }
    constant -= sp->st[i].numCols;
  }
  if (k < 0) { /* the backward-read end */
    if (t > sp->lastRead)
      return 1;
    constant += 1;
  } else {
    const AcIlpLate *l = &sp->late[k];
    if (l->last < t)
      return 1;
    if (m->opVarOf[l->op] >= 0) {
      tm->col[nt] = (int32_t)m->numVars + m->opVarOf[l->op];
      tm->coef[nt++] = 1;
    } else {
      constant += 1; /* recomputed in every plan */
    }
    for (intptr_t q = l->firstCand; q < l->firstCand + l->numCand; ++q) {
      int32_t rcol = acIlpReachCol(m, rc, sp->cand[q].w, t);
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
  int32_t nu = acIlpMergeTerms(tm, nt);
  if (*y < 0 && (*y = acIlpNewAux(m, 0)) < 0)
    return 0;
  return acIlpPushGe(m, *y, constant, tm->col, tm->coef, nu);
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
  AcIlpSpan sp = {bytes, from, end, st, numStarts, lastRead, late, numLate,
                  cand};
  intptr_t nc = acIlpStorageCuts(m, tm, rc, &sp);
  if (nc < 0)
    return 0;
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
      for (intptr_t k = -1; k < numLate; ++k)
        if (!acIlpPairRow(m, tm, rc, &sp, i, k, t, &y))
          return 0;
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
/* The state of one build of the memory rows (acIlpBuildMemory): the
 * per-instance scratch, the positions, the storages in-place chains remove,
 * and the late reads (with their candidates) of the entry at hand. */
typedef struct AcIlpMem {
  AcIlpModel *m;
  AcIlpScratch s;
  intptr_t *posBegin;     /* [numSched + 1] first position of each entry */
  AcId *posOp;            /* [numPos] the op at each position */
  uint8_t *vanish;        /* [numValues] storages an in-place chain removes */
  AcIlpLate *late;
  intptr_t numLate, capLate;
  AcIlpCand *cand;
  intptr_t numCand, capCand;
  AcIlpTerms terms;
  AcIlpReach rc;
} AcIlpMem;

/* A forward schedule entry e and its backward partner e2: function f, its
 * values [v0, v1), the first forward position fB, the backward's first and
 * last positions bB, bL. */
typedef struct AcIlpEntry {
  intptr_t e, e2;
  AcId f;
  const AcFunc *fn;
  AcId v0, v1;
  intptr_t fB, bB, bL;
} AcIlpEntry;

/* The per-value scratch arrays reset for every entry (-1: none). */
enum { AC_ILP_NARR = 11 };
static void acIlpScratchArrays(AcIlpScratch *s, intptr_t **arrays[AC_ILP_NARR]) {
  intptr_t **a[AC_ILP_NARR] = {&s->allocF, &s->lastF,  &s->lastBF, &s->firstBC,
                               &s->lastBC, &s->firstDD, &s->lastDD, &s->allocB,
                               &s->lastB,  &s->firstRead, &s->early};
  memcpy(arrays, a, sizeof a);
}

static void acIlpMemFree(AcIlpMem *b) {
  intptr_t **arrays[AC_ILP_NARR];
  acIlpScratchArrays(&b->s, arrays);
  acFree(b->posBegin);
  for (int i = 0; i < AC_ILP_NARR; ++i)
    acFree(*arrays[i]);
  acFree(b->s.retFwd);
  acFree(b->s.staticRoot);
  acFree(b->s.pinned);
  acFree(b->s.stamp);
  acFree(b->s.stack);
  acFree(b->vanish);
  acFree(b->posOp);
  acFree(b->late);
  acFree(b->cand);
  acFree(b->terms.cuts);
  acFree(b->terms.col);
  acFree(b->terms.coef);
  acFree(b->rc.info);
  acFree(b->rc.next);
  acFree(b->rc.thr);
  acFree(b->rc.thrCol);
  acFree(b->rc.tmp);
}

/* Step 1: the scratch, the positions (each entry's ops of its phase, in
 * schedule order), static storage (as simulate.c) and the storages every
 * plan keeps saved.  0 on NOMEM. */
static int acIlpMemInit(AcIlpMem *b) {
  AcIlpModel *m = b->m;
  const AcGraph *g = m->g;
  AcIlpScratch *s = &b->s;
  intptr_t nv = g->numValues, ns = g->numSched;
  intptr_t **arrays[AC_ILP_NARR];
  acIlpScratchArrays(s, arrays);
  b->rc.info = acCalloc((size_t)m->numVars + 1, sizeof *b->rc.info);
  b->posBegin = acMalloc(((size_t)ns + 1) * sizeof *b->posBegin);
  int ok = b->posBegin != NULL;
  for (int i = 0; i < AC_ILP_NARR; ++i) {
    *arrays[i] = acMalloc(((size_t)nv + 1) * sizeof **arrays[i]);
    ok = ok && *arrays[i];
  }
  s->retFwd = acCalloc((size_t)nv + 1, 1);
  s->staticRoot = acCalloc((size_t)nv + 1, 1);
  s->pinned = acCalloc((size_t)nv + 1, 1);
  s->stamp = acCalloc((size_t)nv + 1, sizeof *s->stamp);
  s->stack = acMalloc(((size_t)nv + 1) * sizeof *s->stack);
  b->vanish = acCalloc((size_t)nv + 1, 1);
  if (!ok || !s->retFwd || !s->staticRoot || !s->pinned || !s->stamp ||
      !s->stack || !b->rc.info || !b->vanish)
    return 0;

  /* Positions: each entry's ops of its phase, in schedule order. */
  intptr_t pos = 0;
  for (intptr_t e = 0; e < ns; ++e) {
    b->posBegin[e] = pos;
    pos += acGraphCountPhase(g, g->sched[e].func, g->sched[e].phase);
  }
  b->posBegin[ns] = pos;
  m->numPos = pos;
  m->constDelta = acCalloc((size_t)pos + 2, sizeof *m->constDelta);
  b->posOp = acCalloc((size_t)pos + 1, sizeof *b->posOp);
  if (!m->constDelta || !b->posOp)
    return 0;
  /* Static storage (as simulate.c) and storages every plan keeps saved. */
  acGraphMarkStaticRoots(g, s->staticRoot);
  for (intptr_t v = 0; v < nv; ++v)
    if (m->s0[v] && m->varOf[v] < 0)
      s->pinned[g->values[v].aliasRoot] = 1;

  return 1;
}

/* Step 2 (per forward entry): forward and backward op steps, what they
 * allocate and read (recompute steps are not positions), their ops'
 * workspaces (constants at their steps, as simulate.c counts them), and
 * returned values. */
static void acIlpMemReads(AcIlpMem *b, const AcIlpEntry *E) {
  AcIlpModel *m = b->m;
  const AcGraph *g = m->g;
  AcIlpScratch *s = &b->s;
  const AcFunc *fn = E->fn;
  intptr_t fB = E->fB, bB = E->bB, bL = E->bL;
  /* Forward steps. */
  intptr_t t = fB;
  for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o) {
    const AcOp *op = &g->ops[o];
    if (op->phase != AC_PHASE_FWD)
      continue;
    for (int32_t r = 0; r < op->numResults; ++r) {
      AcId v = op->firstResult + r;
      if (g->values[v].aliasRoot == v && !s->staticRoot[v])
        s->allocF[v] = s->lastF[v] = t;
    }
    for (int32_t i = 0; i < op->numOperands; ++i) {
      AcId root = g->values[acOpOperand(g, o, i)].aliasRoot;
      if (g->values[root].role == AC_ROLE_RESULT && !s->staticRoot[root] &&
          s->allocF[root] >= 0)
        s->lastF[root] = acIlpMax(s->lastF[root], t);
    }
    acIlpAdd(m, t, t, -1, op->workspace); /* its scratch, this step only */
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
      if (g->values[v].aliasRoot == v && !s->staticRoot[v])
        s->allocB[v] = s->lastB[v] = t;
    }
    for (int32_t i = 0; i < op->numOperands; ++i) {
      AcId u = acOpOperand(g, o, i);
      if (s->firstRead[u] < 0)
        s->firstRead[u] = t;
      acIlpRead(m, s, u, t);
    }
    acIlpAdd(m, t, t, -1, op->workspace);
    ++t;
  }
  /* Returned values: forward ones outlive the backward, backward ones
     (not gradients) live to its end, like a read at its last step. */
  for (int32_t r = 0; r < fn->numRets; ++r) {
    intptr_t ri = fn->firstRet + r;
    AcId v = g->rets[ri];
    if (acGraphRetIsStaticGrad(g, ri))
      continue;
    if (g->values[v].phase == AC_PHASE_FWD) {
      AcId root = g->values[v].aliasRoot;
      if (g->values[root].role == AC_ROLE_RESULT && !s->staticRoot[root])
        s->retFwd[root] = 1;
    } else if (bL >= bB) {
      acIlpRead(m, s, v, bL);
    }
  }
}

/* Step 3: in-place writes.  0 on NOMEM. */
static int acIlpMemInPlace(AcIlpMem *b, const AcIlpEntry *E) {
  AcIlpModel *m = b->m;
  const AcGraph *g = m->g;
  AcIlpScratch *s = &b->s;
  const AcFunc *fn = E->fn;
  intptr_t fB = E->fB, bB = E->bB, bL = E->bL;
  /* In-place writes (simulate.c's acSimInPlace).  A backward chain into
     a gradient allocates nothing: its storages are skipped.  Any other
     write ends its init one step early (acIlpEnd), exact for the
     intervals below; for a forward storage read by a backward writer
     the init's bytes come off the writer's step when it may be a
     recomputed copy (never saved, or dropped: d_v), which keeps the rows
     a lower bound. */
  intptr_t t = bL;
  for (AcId o = fn->firstOp + fn->numOps - 1; o >= fn->firstOp; --o) {
    if (g->ops[o].phase != AC_PHASE_BWD)
      continue;
    AcId root = acGraphInPlaceRoot(g, o), res = g->ops[o].firstResult;
    if (root != AC_NONE && !s->staticRoot[root] &&
        g->ops[g->values[root].producer].phase == AC_PHASE_BWD &&
        s->allocB[root] >= 0 && s->lastB[root] == t &&
        (s->staticRoot[res] || b->vanish[res]))
      b->vanish[root] = 1;
    --t;
  }
  t = fB;
  intptr_t tb = bB;
  for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o) {
    int fwd = g->ops[o].phase == AC_PHASE_FWD;
    intptr_t at = fwd ? t++ : tb++;
    b->posOp[at] = o;
    AcId root = acGraphInPlaceRoot(g, o);
    /* Forward-produced storages read in the backward (copies, saves) are
       the relaxation's; the others' ends are exact (acIlpEnd). */
    if (fwd || root == AC_NONE || s->staticRoot[root] ||
        g->ops[g->values[root].producer].phase != AC_PHASE_FWD)
      continue;
    /* A saved init is read from the forward storage: never in place; a
       copy only when this is its last backward-op read. */
    AcId r = AC_NONE;
    int kind = acIlpResolve(m, s, g->ops[o].dpsInit, &r);
    int32_t col = -1;
    if (r == root && kind == AC_RES_FIXED)
      continue;
    if (r == root && kind == AC_RES_DROP) {
      if (s->lastDD[root] != at)
        continue;
      col = m->varOf[root];
    } else if (r == root && kind == AC_RES_COPY && s->lastBC[root] != at) {
      continue;
    }
    if (!acIlpAdd(m, at, at, col, -g->values[root].bytes))
      return 0;
  }
  return 1;
}

/* Step 4: the storages' intervals.  0 on NOMEM. */
static int acIlpMemIntervals(AcIlpMem *b, const AcIlpEntry *E) {
  AcIlpModel *m = b->m;
  const AcGraph *g = m->g;
  AcIlpScratch *s = &b->s;
  intptr_t e = E->e, fB = E->fB, bB = E->bB, bL = E->bL;
  AcId v0 = E->v0, v1 = E->v1;
  /* Intervals. */
  for (AcId v = v0; v < v1; ++v) {
    const AcValue *val = &g->values[v];
    int64_t bytes = val->bytes;
    if (val->aliasRoot != v || s->staticRoot[v] || bytes == 0)
      continue;
    int okAdd = 1;
    if (val->role == AC_ROLE_PRIMAL) {
      okAdd = acIlpAdd(m, fB, bL, -1, bytes);
    } else if (val->role == AC_ROLE_TANGENT) {
      intptr_t hi = g->tangentMode == AC_TANGENTS_HELD ? bL
                    : s->lastB[v] >= bB ? s->lastB[v] : bB;
      okAdd = acIlpAdd(m, bB, hi, -1, bytes);
    } else if (s->allocB[v] >= 0) {
      if (!b->vanish[v])
        okAdd = acIlpAdd(m, s->allocB[v], acIlpEnd(g, s->staticRoot, b->posOp, bB, bL, v, s->lastB[v]),
                         -1, bytes);
    } else if (s->allocF[v] >= 0) {
      intptr_t hi = s->lastF[v];
      if (s->retFwd[v])
        hi = acIlpMax(hi, bL);
      if (s->pinned[v])
        hi = acIlpMax(hi, acIlpMax(bB - 1, s->lastBF[v]));
      intptr_t fL = b->posBegin[e + 1] - 1, hiKept = hi;
      hi = acIlpEnd(g, s->staticRoot, b->posOp, fB, fL, v, hi);
      int32_t var = m->varOf[v];
      if (var < 0) {
        okAdd = acIlpAdd(m, s->allocF[v], hi, -1, bytes);
      } else {
        /* Saved (d = 0): until the backward starts and its last read.
           Dropped (d = 1): the forward interval.  (Copies below.) */
        intptr_t hi0 = acIlpEnd(g, s->staticRoot, b->posOp, fB, fL, v,
                                acIlpMax(hiKept, acIlpMax(bB - 1, s->lastDD[v])));
        okAdd = acIlpAdd(m, s->allocF[v], hi0, -1, bytes) &&
                acIlpAdd(m, s->allocF[v], hi0, var, -bytes) &&
                acIlpAdd(m, s->allocF[v], hi, var, bytes);
      }
    }
    if (!okAdd)
      return 0;
  }
  return 1;
}

/* Step 5: late reads by recompute ops, sorted by storage, with the
 * droppable values that could move their group earlier.  0 on NOMEM. */
static int acIlpMemLateReads(AcIlpMem *b, const AcIlpEntry *E) {
  AcIlpModel *m = b->m;
  const AcGraph *g = m->g;
  AcIlpScratch *s = &b->s;
  const AcFunc *fn = E->fn;
  intptr_t bB = E->bB, bL = E->bL;
  /* Late reads: recompute ops keep what they read alive until their
     group, which no backward op before the first that could need them
     anchors. */
  b->numLate = 0;
  b->numCand = 0;
  memset(b->rc.info, 0, (size_t)m->numVars * sizeof *b->rc.info);
  b->rc.numNext = b->rc.numThr = 0;
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
    intptr_t anchor = acIlpReach(m, s, starts, ns0, 0);
    nn = acIlpDropsNear(m, s, starts, ns0, near, nn, 64);
    /* Candidates: the droppable values past the unconditional reads. */
    if (b->capCand - b->numCand < nn) {
      intptr_t ncap = (b->capCand + nn) * 2;
      AcIlpCand *c = acRealloc(b->cand, (size_t)ncap * sizeof *c);
      if (!c)
        return 0;
      b->cand = c;
      b->capCand = ncap;
    }
    intptr_t firstCand = b->numCand;
    for (int32_t i = 0; i < nn; ++i) {
      if (!acIlpReachInfo(m, s, &b->rc, near[i]))
        return 0;
      const AcIlpReachInfo *in = &b->rc.info[m->varOf[near[i]]];
      if ((in->pos0 != AC_ILP_NEVER && in->pos0 < anchor) ||
          (in->numThr > 0 && b->rc.thr[in->firstThr] < anchor))
        b->cand[b->numCand++] = (AcIlpCand){near[i]};
    }
    if (anchor == AC_ILP_NEVER) {
      if (b->numCand == firstCand)
        continue; /* no backward op can need q */
      anchor = bL + 1;
    }
    if (anchor - 1 < bB)
      continue;
    for (int32_t i = 0; i < qop->numOperands; ++i) {
      AcId r;
      int kind = acIlpResolve(m, s, acOpOperand(g, q, i), &r);
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
        if (b->numLate == b->capLate) {
          intptr_t ncap = b->capLate ? b->capLate * 2 : 64;
          AcIlpLate *n = acRealloc(b->late, (size_t)ncap * sizeof *n);
          if (!n)
            return 0;
          b->late = n;
          b->capLate = ncap;
        }
        b->late[b->numLate++] = (AcIlpLate){
            2 * (int64_t)r + !fwd, anchor - 1, q,
            fwd && kind == AC_RES_DROP ? m->varOf[r] : -1, firstCand,
            b->numCand - firstCand};
      }
    }
  }
  if (b->numLate > 1)
    qsort(b->late, (size_t)b->numLate, sizeof *b->late, acIlpCompareLate);
  return 1;
}

/* Step 6: forward storages late reads keep past their intervals.  0 on
 * NOMEM. */
static int acIlpMemLateForward(AcIlpMem *b, const AcIlpEntry *E) {
  AcIlpModel *m = b->m;
  const AcGraph *g = m->g;
  AcIlpScratch *s = &b->s;
  intptr_t bB = E->bB, bL = E->bL;
  /* Forward storages past what the intervals count. */
  for (intptr_t i = 0; i < b->numLate;) {
    intptr_t j = i;
    while (j < b->numLate && b->late[j].key == b->late[i].key)
      ++j;
    AcId r = (AcId)(b->late[i].key / 2);
    if (b->late[i].key % 2 == 0) {
      intptr_t hi = acIlpMax(s->lastF[r], acIlpMax(bB - 1, s->lastBF[r]));
      if (s->retFwd[r])
        hi = acIlpMax(hi, bL);
      if (m->varOf[r] >= 0)
        hi = acIlpMax(hi, s->lastDD[r]);
      intptr_t end = -1;
      for (intptr_t k = i; k < j; ++k)
        end = acIlpMax(end, b->late[k].last);
      if (!acIlpStorage(m, &b->terms, &b->rc, g->values[r].bytes, hi + 1, end,
                        NULL, 0, -1, b->late + i, j - i, b->cand))
        return 0;
    }
    i = j;
  }
  return 1;
}

/* Step 7: recomputed copies.  0 on NOMEM. */
static int acIlpMemCopies(AcIlpMem *b, const AcIlpEntry *E) {
  AcIlpModel *m = b->m;
  const AcGraph *g = m->g;
  AcIlpScratch *s = &b->s;
  AcId v0 = E->v0, v1 = E->v1;
  /* Copies: of the roots no plan saves that something reads in the
     backward, and of the droppable roots (counted when dropped). */
  for (AcId r = v0; r < v1; ++r) {
    const AcValue *val = &g->values[r];
    if (val->role != AC_ROLE_RESULT || val->aliasRoot != r ||
        s->staticRoot[r] || val->bytes == 0 ||
        g->ops[val->producer].phase != AC_PHASE_FWD)
      continue;
    int32_t var = m->varOf[r];
    if (var < 0 && m->s0[r])
      continue;
    /* Its b->late readers (the copy key). */
    int64_t key = 2 * (int64_t)r + 1;
    intptr_t lo = 0, hiL = b->numLate;
    while (lo < hiL) {
      intptr_t mid = (lo + hiL) / 2;
      if (b->late[mid].key < key)
        lo = mid + 1;
      else
        hiL = mid;
    }
    intptr_t nl = 0;
    while (lo + nl < b->numLate && b->late[lo + nl].key == key)
      ++nl;
    intptr_t first = var >= 0 ? s->firstDD[r] : s->firstBC[r];
    intptr_t lastRead = var >= 0 ? s->lastDD[r] : s->lastBC[r];
    if (first < 0 && nl == 0)
      continue;
    /* Starts: its own first backward read, acIlpEarliest, and one more
       drop past it. */
    AcIlpStart st[34];
    AcId next[32];
    int32_t nst = 0;
    intptr_t early = acIlpEarliest(m, s, r);
    if (first >= 0)
      early = acIlpMin(early, first);
    if (early != AC_ILP_NEVER)
      st[nst++] = (AcIlpStart){early, var >= 0, {var, -1}};
    int32_t nn = acIlpNextDrops(m, s, r, next, 32);
    for (int32_t k = 0; k < nn; ++k) {
      intptr_t pos = acIlpEarliest(m, s, next[k]);
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
      end = acIlpMax(end, b->late[k].last);
    if (!acIlpStorage(m, &b->terms, &b->rc, val->bytes, from, end, st, nst,
                      lastRead, nl ? b->late + lo : NULL, nl, b->cand))
      return 0;
  }
  return 1;
}

/* The memory rows, step by step: set-up, then per forward schedule entry
 * (and its backward partner) the reads, in-place writes, intervals, late
 * reads and copies; the events sorted last. */
AcStatus acIlpBuildMemory(AcIlpModel *m, AcError *err) {
  const AcGraph *g = m->g;
  AcStatus st = AC_OK;
  AcIlpMem b;
  memset(&b, 0, sizeof b);
  b.m = m;
  intptr_t **arrays[AC_ILP_NARR];
  acIlpScratchArrays(&b.s, arrays);
  if (!acIlpMemInit(&b))
    goto nomem;
  for (intptr_t e = 0; e < g->numSched; ++e) {
    if (g->sched[e].phase != AC_PHASE_FWD)
      continue;
    AcIlpEntry E;
    E.e = e;
    E.e2 = g->sched[e].partner;
    E.f = g->sched[e].func;
    E.fn = &g->funcs[E.f];
    E.v0 = E.fn->firstArg;
    E.v1 = E.f + 1 < g->numFuncs ? g->funcs[E.f + 1].firstArg : (AcId)g->numValues;
    E.fB = b.posBegin[e];
    E.bB = b.posBegin[E.e2];
    E.bL = b.posBegin[E.e2 + 1] - 1;
    for (AcId v = E.v0; v < E.v1; ++v) {
      for (int i = 0; i < AC_ILP_NARR; ++i)
        (*arrays[i])[v] = -1;
      b.s.early[v] = -2;
      b.s.retFwd[v] = 0;
    }
    acIlpMemReads(&b, &E);
    if (!acIlpMemInPlace(&b, &E) || !acIlpMemIntervals(&b, &E) ||
        !acIlpMemLateReads(&b, &E) || !acIlpMemLateForward(&b, &E) ||
        !acIlpMemCopies(&b, &E))
      goto nomem;
  }
  if (m->numEvents > 1)
    qsort(m->events, (size_t)m->numEvents, sizeof *m->events,
          acIlpCompareEvents);
  goto cleanup;
nomem:
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                  "out of memory in the ILP planner");
cleanup:
  acIlpMemFree(&b);
  return st;
}

/* The whole model: the space and cost (ilp_model.c), then the memory rows.
 * Past the work limit no memory rows are built (acIlpFrom returns greedy's
 * plan); their build recurses along chains of droppable values. */
AcStatus acIlpBuild(AcIlpModel *m, const AcGraph *g,
                    const uint8_t *initialSaved, AcError *err) {
  AcStatus st = acIlpBuildSpace(m, g, initialSaved, err);
  if (st == AC_OK && m->numVars <= AC_ILP_MAX_DROPPABLE &&
      (st = acIlpBuildMemory(m, err)) != AC_OK)
    acIlpModelFree(m);
  return st;
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

