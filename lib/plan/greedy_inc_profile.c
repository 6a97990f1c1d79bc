/* greedy_inc_profile.c - the incremental greedy's profile (greedy_inc.h):
 * the segment tree over leaves, each storage's interval under the current
 * plan as the simulator derives it (acSlotInterval), how an interval covers
 * leaves, a leaf's partial summary, and the indexes of big leaves.
 *
 * Invariants: an interval is [A, Z] of positions with A <= Z, the same
 * steps the simulator allocates and frees the storage at; a leaf's summary
 * is its full part plus the summary of its partial entries; the tree's
 * root is the whole live profile (static part excluded). */
#include "greedy_inc.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*===-------------------------- the segment tree --------------------------===*/


void acTreePull(AcTree *t, intptr_t n) {
  t->sum[n] = acSumShift(acSumCombine(acTreeSum(t, 2 * n), acTreeSum(t, 2 * n + 1)),
                         t->add[n]);
}

/* Every add is zero: the adds are not read (their pages stay untouched
 * until a range add writes them). */
void acTreeBuild(AcTree *t) {
  for (intptr_t n = t->size - 1; n >= 1; --n)
    t->sum[n] = acSumCombine(acTreeSum(t, 2 * n), acTreeSum(t, 2 * n + 1));
}

/* Recursion over the tree's height (log2 of the leaves), not the graph. */
void acTreeAdd(AcTree *t, intptr_t n, intptr_t lo, intptr_t hi,
                      intptr_t a, intptr_t b, int64_t x) {
  if (b < lo || hi < a)
    return;
  if (a <= lo && hi <= b) {
    if (n >= t->size) {
      t->off[n - t->size] += x;
    } else {
      t->add[n] += x;
      t->sum[n] = acSumShift(t->sum[n], x);
    }
    return;
  }
  intptr_t mid = (lo + hi) / 2;
  acTreeAdd(t, 2 * n, lo, mid, a, b, x);
  acTreeAdd(t, 2 * n + 1, mid + 1, hi, a, b, x);
  acTreePull(t, n);
}

AcSum acTreeQuery(const AcTree *t, intptr_t n, intptr_t lo, intptr_t hi,
                         intptr_t a, intptr_t b) {
  if (b < lo || hi < a)
    return acSumNone;
  if (a <= lo && hi <= b)
    return acTreeSum(t, n);
  intptr_t mid = (lo + hi) / 2;
  return acSumShift(acSumCombine(acTreeQuery(t, 2 * n, lo, mid, a, b),
                                 acTreeQuery(t, 2 * n + 1, mid + 1, hi, a, b)),
                    t->add[n]);
}

/* Sum of the adds of leaf L's strict ancestors. */
static int64_t acTreeAbove(const AcTree *t, intptr_t leaf) {
  int64_t s = 0;
  for (intptr_t n = (t->size + leaf) / 2; n >= 1; n /= 2)
    s += t->add[n];
  return s;
}

/* Leaf L's true summary is part[L] shifted by `full`. */
void acTreeSetLeaf(AcTree *t, intptr_t leaf, int64_t full) {
  t->off[leaf] = full - acTreeAbove(t, leaf);
  for (intptr_t n = (t->size + leaf) / 2; n >= 1; n /= 2)
    acTreePull(t, n);
}

/* True highest level of leaf L. */
int64_t acTreeLeafTop(const AcTree *t, intptr_t leaf) {
  return t->part[leaf].m1 + t->off[leaf] + acTreeAbove(t, leaf);
}

/* The k leaves with the highest levels (ties: any), by a best-first walk;
 * returns how many (at most k, at most AC_TOP_MAX). */
int acTreeTopLeaves(const AcTree *t, int k, int32_t *leaves, int64_t *tops) {
  struct { int64_t v, acc; intptr_t n; } h[2 * AC_TOP_MAX * 64 + 4];
  int nh = 0, found = 0;
  if (acTreeSum(t, 1).m1 == AC_NOLEVEL)
    return 0;
  h[nh].v = acTreeSum(t, 1).m1;
  h[nh].acc = 0;
  h[nh++].n = 1;
  while (nh > 0 && found < k && nh + 2 < (int)(sizeof h / sizeof h[0])) {
    /* Pop the highest. */
    int bi = 0;
    for (int i = 1; i < nh; ++i)
      if (h[i].v > h[bi].v)
        bi = i;
    int64_t v = h[bi].v, acc = h[bi].acc;
    intptr_t n = h[bi].n;
    h[bi] = h[--nh];
    if (n >= t->size) {
      leaves[found] = (int32_t)(n - t->size);
      tops[found++] = v;
      continue;
    }
    acc += t->add[n];
    for (intptr_t c = 2 * n; c <= 2 * n + 1; ++c)
      if (acTreeSum(t, c).m1 != AC_NOLEVEL) {
        h[nh].v = acTreeSum(t, c).m1 + acc;
        h[nh].acc = acc;
        h[nh++].n = c;
      }
  }
  return found;
}


/* Bwd-side resolution of value x under the current plan (as the
 * simulator's bwdSide/bwdRef): the side, and the root in *ref. */
int acIncResolve(const AcInc *s, AcId x, AcId *ref) {
  const AcGraph *g = s->g;
  int side;
  for (;;) {
    const AcValue *val = &g->values[x];
    if (val->role == AC_ROLE_PARAM)
      return AC_SIDE_STATIC;
    if (val->role == AC_ROLE_PRIMAL) {
      side = AC_SIDE_FWD;
      *ref = val->aliasRoot;
      break;
    }
    if (val->role == AC_ROLE_TANGENT) {
      side = AC_SIDE_BWD;
      *ref = val->aliasRoot;
      break;
    }
    AcId p = val->producer;
    if (g->ops[p].phase == AC_PHASE_BWD || (!s->saved[x] && s->recompute[p])) {
      if (val->aliasRoot == x) {
        side = AC_SIDE_BWD;
        *ref = x;
        break;
      }
      x = s->parent[x];
      continue;
    }
    if (!s->saved[x])
      return AC_SIDE_NONE;
    side = AC_SIDE_FWD;
    *ref = val->aliasRoot;
    break;
  }
  return s->staticRoot[*ref] ? AC_SIDE_STATIC : side;
}

/* Where op u reads in backward entry e: its own leaf, or its group's. */
static inline int acBwdPos(const AcInc *s, int32_t e, AcId u, AcPos *pos) {
  const AcOp *op = &s->g->ops[u];
  if (op->phase == AC_PHASE_BWD) {
    *pos = acPos(s->leafBase[e] + s->rank[u], AC_KEY_ANCHOR);
    return 1;
  }
  if (s->recompute[u]) {
    *pos = acPos(s->leafBase[e] + s->rank[s->anchor[u]], u);
    return 1;
  }
  return 0;
}

static inline AcPos acMaxPos(AcPos a, AcPos b) { return a > b ? a : b; }

/* The last step before position p as an end position.  A forward leaf has
 * one step: the previous leaf's.  In a backward leaf the group changes with
 * the plan, so the end is the key just below p's: "every step of the leaf
 * up to op id k - 1" (AC_KEY_ANCHOR - 1: every group step).  Such an end
 * need not be a step of the group; acEndIndex reads it so, and a step that
 * joins the group below p is covered (acLeafIdxGet's `en`). */
static inline AcPos acPosBefore(AcPos p, int fwd) {
  int32_t leaf = acPosLeaf(p), key = acPosKey(p);
  if (fwd)
    return acPos(leaf - 1, AC_KEY_ANCHOR);
  assert(key > 0); /* an op writing into an init has an earlier producer */
  return acPos(leaf, key - 1);
}


/* The interval of slot (e, r) under the current plan, as the simulator
 * computes it; 0 when the slot is not allocated (or is untracked: static
 * or zero bytes). */
int acSlotInterval(const AcInc *s, int32_t e, AcId r, AcPos *A, AcPos *Z) {
  const AcGraph *g = s->g;
  const AcValue *val = &g->values[r];
  if (s->staticRoot[r] || val->bytes == 0)
    return 0;
  const AcSchedEntry *se = &g->sched[e];
  if (se->phase == AC_PHASE_FWD) {
    int32_t other = g->sched[e].partner;
    int32_t bwdLast = s->leafBase[other + 1] - 1;
    if (val->role == AC_ROLE_PRIMAL) {
      if (s->leafBase[e] > bwdLast)
        return 0;
      *A = acPos(s->leafBase[e], AC_KEY_FIRST);
      *Z = acPos(bwdLast, AC_KEY_ANCHOR);
      return 1;
    }
    if (val->role != AC_ROLE_RESULT || g->ops[val->producer].phase != AC_PHASE_FWD)
      return 0;
    int32_t leaf = s->leafBase[e] + s->rank[val->producer];
    *A = acPos(leaf, AC_KEY_FIRST);
    AcPos z = acPos(leaf, AC_KEY_ANCHOR);
    if (s->fwdMaxRank[r] >= 0)
      z = acMaxPos(z, acPos(s->leafBase[e] + s->fwdMaxRank[r], AC_KEY_ANCHOR));
    if (s->savedCnt[r] > 0 && s->leafBase[other] >= 1)
      z = acMaxPos(z, acPos(s->leafBase[other] - 1, AC_KEY_ANCHOR));
    if (s->retFwd[r] && bwdLast >= 0)
      z = acMaxPos(z, acPos(bwdLast, AC_KEY_ANCHOR));
    /* The last forward reader may write in place of r (simulate.c). */
    AcPos zw = -1;
    if (s->fwdMaxRank[r] >= 0) {
      int32_t wl = s->leafBase[e] + s->fwdMaxRank[r];
      AcId w = s->leafOp[wl];
      if (s->dps[w] && g->values[g->ops[w].dpsInit].aliasRoot == r &&
          !s->staticRoot[g->ops[w].firstResult])
        zw = acPos(wl, AC_KEY_ANCHOR);
    }
    for (int32_t i = s->aliasFirst[r]; i < s->aliasFirst[r + 1]; ++i) {
      AcId x = s->aliasList[i], ref = AC_NONE;
      if (acIncResolve(s, x, &ref) != AC_SIDE_FWD || ref != r)
        continue;
      const AcValue *xv = &g->values[x];
      for (int32_t k = 0; k < xv->numUses; ++k) {
        AcPos p;
        if (acBwdPos(s, other, acValueUse(g, x, k), &p))
          z = acMaxPos(z, p);
      }
      if (s->retBwd[x] && bwdLast >= 0)
        z = acMaxPos(z, acPos(bwdLast, AC_KEY_ANCHOR));
    }
    *Z = z == zw ? acPosBefore(z, 1) : z;
    return 1;
  }
  int32_t last = s->leafBase[e + 1] - 1;
  int bwdValue = 1; /* made in the backward (a tangent counts as one) */
  if (val->role == AC_ROLE_TANGENT) {
    if (s->leafBase[e] > last)
      return 0;
    *A = acPos(s->leafBase[e], AC_KEY_FIRST);
    if (g->tangentMode == AC_TANGENTS_HELD) {
      *Z = acPos(last, AC_KEY_ANCHOR);
      return 1;
    }
    /* last-use: until its last read, as a backward value (simulate.c) */
  } else if (val->role != AC_ROLE_RESULT) {
    return 0;
  } else {
    AcId q = val->producer;
    bwdValue = g->ops[q].phase == AC_PHASE_BWD;
    if (bwdValue)
      *A = acPos(s->leafBase[e] + s->rank[q], AC_KEY_ANCHOR);
    else if (s->recompute[q])
      *A = acPos(s->leafBase[e] + s->rank[s->anchor[q]], q);
    else
      return 0;
  }
  AcPos z = *A, zw = -1;
  AcId w = AC_NONE;
  for (int32_t i = s->aliasFirst[r]; i < s->aliasFirst[r + 1]; ++i) {
    AcId x = s->aliasList[i], ref = AC_NONE;
    if (acIncResolve(s, x, &ref) != AC_SIDE_BWD || ref != r)
      continue;
    const AcValue *xv = &g->values[x];
    for (int32_t k = 0; k < xv->numUses; ++k) {
      AcPos p;
      AcId u = acValueUse(g, x, k);
      if (acBwdPos(s, e, u, &p)) {
        z = acMaxPos(z, p);
        if (s->dps[u] && g->ops[u].dpsInit == x && p > zw) {
          zw = p; /* the last writer: only it may be the last reader */
          w = u;
        }
      }
    }
    if (s->retBwd[x])
      z = acMaxPos(z, acPos(last, AC_KEY_ANCHOR));
  }
  if (w != AC_NONE && z == zw && val->role != AC_ROLE_TANGENT) {
    /* r's last reader writes in place of it (simulate.c's acSimInPlace). */
    AcId res = g->ops[w].firstResult;
    int chain = g->ops[w].phase == AC_PHASE_BWD && bwdValue;
    AcPos ra, rz;
    if (s->staticRoot[res] || !acSlotInterval(s, e, res, &ra, &rz)) {
      if (chain)
        return 0; /* r is the storage the chain ends in */
    } else {
      z = acPosBefore(z, 0);
    }
  }
  *Z = z;
  return 1;
}


AcCover acCoverOf(int has, AcPos A, AcPos Z) {
  AcCover c = {0, -1, {-1, -1}, 0};
  if (!has)
    return c;
  int32_t la = acPosLeaf(A), lz = acPosLeaf(Z);
  int32_t ka = acPosKey(A), kz = acPosKey(Z);
  assert(A <= Z);
  if (la == lz) {
    if (ka == AC_KEY_FIRST && kz == AC_KEY_ANCHOR) {
      c.lo = c.hi = la;
    } else {
      c.part[c.numPart++] = la;
    }
    return c;
  }
  c.lo = ka == AC_KEY_FIRST ? la : la + 1;
  c.hi = kz == AC_KEY_ANCHOR ? lz : lz - 1;
  if (ka != AC_KEY_FIRST)
    c.part[c.numPart++] = la;
  if (kz != AC_KEY_ANCHOR)
    c.part[c.numPart++] = lz;
  return c;
}

/* The part of interval [A, Z] inside leaf L as step keys. */
void acIncClip(AcPos A, AcPos Z, int32_t leaf, int32_t *a, int32_t *z) {
  *a = acPosLeaf(A) == leaf ? acPosKey(A) : AC_KEY_FIRST;
  *z = acPosLeaf(Z) == leaf ? acPosKey(Z) : AC_KEY_ANCHOR;
}

/* Index of step key k in a group whose ops' indices are in stepOf (the
 * anchor is last). */
static inline int32_t acStepIndex(const int32_t *stepOf, int32_t n, int32_t k) {
  if (k == AC_KEY_FIRST)
    return 0;
  if (k == AC_KEY_ANCHOR)
    return n;
  return stepOf[k];
}

/* First index of a sorted group with an op >= k. */
int32_t acIncLowerBound(const AcId *grp, int32_t n, int32_t k) {
  int32_t lo = 0, hi = n;
  while (lo < hi) {
    int32_t mid = (lo + hi) / 2;
    if (grp[mid] < k)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Index of the last step at or before end key z in a group (the anchor is
 * index ng): a step's own index, or for an end before a step (acPosBefore)
 * the last step below it; -1 when that is no step of this leaf. */
static inline int32_t acEndIndex(const AcId *grp, const int32_t *stepOf,
                                 int32_t ng, int32_t z, intptr_t numOps) {
  if (z == AC_KEY_ANCHOR)
    return ng;
  if (z >= 0 && z < numOps && stepOf[z] >= 0 && stepOf[z] < ng && grp[stepOf[z]] == z)
    return stepOf[z];
  return acIncLowerBound(grp, ng, z + 1) - 1;
}

/* Summary of a leaf's partial entries over its steps (group then anchor
 * `anchor`), each step with its op's workspace. */
static AcSum acPartialSum(AcInc *s, const AcId *grp, int32_t ng, AcId anchor,
                          const int32_t *ea, const int32_t *ez,
                          const int64_t *eb, intptr_t n) {
  int64_t *diff = s->diff;
  memset(diff, 0, ((size_t)ng + 2) * sizeof *diff);
  for (int32_t k = 0; k < ng; ++k)
    s->stepOf[grp[k]] = k;
  for (intptr_t i = 0; i < n; ++i) {
    int32_t a = acStepIndex(s->stepOf, ng, ea[i]);
    int32_t z = acEndIndex(grp, s->stepOf, ng, ez[i], s->g->numOps);
    assert(ea[i] == AC_KEY_FIRST || ea[i] == AC_KEY_ANCHOR || (a < ng && grp[a] == ea[i]));
    assert(a <= z + 1); /* z == a - 1: an end before the leaf's first step */
    diff[a] += eb[i];
    diff[z + 1] -= eb[i];
  }
  AcSum r = acSumNone;
  int64_t live = 0;
  const AcOp *ops = s->g->ops;
  for (int32_t k = 0; k <= ng; ++k) {
    live += diff[k];
    AcSum one = {live + ops[k < ng ? grp[k] : anchor].workspace, 1, AC_NOLEVEL};
    r = acSumCombine(r, one);
  }
  return r;
}

/* Entry scratch, grown on demand. */
static int acEntReserve(AcInc *s, intptr_t n) {
  /* Three arrays, one capacity: it moves only once all three have grown. */
  intptr_t ca = s->entCap, cz = s->entCap, cb = s->entCap;
  if (!acArrayGrow((void **)&s->entA, &ca, n, sizeof *s->entA) ||
      !acArrayGrow((void **)&s->entZ, &cz, n, sizeof *s->entZ) ||
      !acArrayGrow((void **)&s->entB, &cb, n, sizeof *s->entB))
    return 0;
  s->entCap = ca;
  return 1;
}

/* The partial summary of leaf L from its current entries; with a
 * description, touched slots use their new intervals and the leaf's group
 * is `grp`. */
int acLeafPartialNow(AcInc *s, int32_t leaf, const AcId *grp, int32_t ng,
                            const AcCand *d, const int32_t *rec, intptr_t nrec,
                            AcSum *out) {
  intptr_t n = 0;
  for (int32_t nd = s->leafHead[leaf]; nd >= 0; nd = s->nodeNext[nd])
    ++n;
  n += nrec;
  if (!acEntReserve(s, n + 1))
    return 0;
  int32_t *ka = s->entA, *kz = s->entZ;
  intptr_t m = 0;
  for (int32_t nd = s->leafHead[leaf]; nd >= 0; nd = s->nodeNext[nd]) {
    int32_t sl = nd / 2;
    if (d && s->slotStamp[sl] == s->epoch)
      continue; /* touched: its new interval below */
    acIncClip(s->slotA[sl], s->slotZ[sl], leaf, &ka[m], &kz[m]);
    s->entB[m++] = s->g->values[s->slotRoot[sl]].bytes;
  }
  for (intptr_t r = 0; r < nrec; ++r) {
    if (!(rec[r] & 1))
      continue; /* old entries of touched slots are skipped above */
    const AcSlotNew *sn = &d->slots[rec[r] >> 1];
    acIncClip(sn->a, sn->z, leaf, &ka[m], &kz[m]);
    s->entB[m++] = s->g->values[s->slotRoot[sn->slot]].bytes;
  }
  *out = acPartialSum(s, grp, ng, s->leafOp[leaf], ka, kz, s->entB, m);
  return 1;
}


/*===-------------------------- leaf indexes ------------------------------===*/

/* Leaves with at least this many steps get an index (greedy_internal.h). */
int acGreedyLeafIndexMin = 48;


void acLeafIdxFree(AcLeafIdx *x) {
  if (!x)
    return;
  acFree(x->pl);
  acFree(x->st);
  acFree(x->en);
  acFree(x->tree);
  acFree(x);
}

AcLeafIdx *acLeafIdxGet(AcInc *s, int32_t leaf) {
  if (s->lix[leaf])
    return s->lix[leaf];
  AcId b = s->leafOp[leaf];
  const AcId *grp = s->grp[b];
  int32_t ng = s->grpLen[b], n = ng + 1;
  if (!acArrayGrow((void **)&s->lixBuilt, &s->capLixBuilt, s->numLixBuilt + 1,
                   sizeof *s->lixBuilt))
    return NULL;
  AcLeafIdx *x = acCalloc(1, sizeof *x);
  if (!x)
    return NULL;
  x->n = n;
  x->size = 1;
  while (x->size < n)
    x->size *= 2;
  x->pl = acCalloc((size_t)n + 1, sizeof *x->pl);
  x->st = acCalloc((size_t)n + 1, sizeof *x->st);
  x->en = acCalloc((size_t)n + 1, sizeof *x->en);
  x->tree = acMalloc(2 * (size_t)x->size * sizeof *x->tree);
  if (!x->pl || !x->st || !x->en || !x->tree) {
    acLeafIdxFree(x);
    return NULL;
  }
  for (int32_t k = 0; k < ng; ++k)
    s->stepOf[grp[k]] = k;
  for (int32_t nd = s->leafHead[leaf]; nd >= 0; nd = s->nodeNext[nd]) {
    int32_t sl = nd / 2, a, z;
    int64_t bytes = s->g->values[s->slotRoot[sl]].bytes;
    acIncClip(s->slotA[sl], s->slotZ[sl], leaf, &a, &z);
    int32_t ia = acStepIndex(s->stepOf, ng, a);
    int32_t iz = acEndIndex(grp, s->stepOf, ng, z, s->g->numOps);
    x->pl[ia] += bytes;
    x->pl[iz + 1] -= bytes;
    if (a != AC_KEY_FIRST)
      x->st[ia] += bytes;
    if (z != AC_KEY_ANCHOR && (iz < 0 || grp[iz] != z))
      x->en[iz + 1] += bytes;
  }
  int64_t live = 0;
  for (int32_t k = 0; k < n; ++k) {
    live += x->pl[k];
    x->pl[k] = live;
    int64_t ws = s->g->ops[k < ng ? grp[k] : b].workspace;
    x->tree[x->size + k] = (AcSum){live + ws, 1, AC_NOLEVEL};
  }
  for (int32_t k = n; k < x->size; ++k)
    x->tree[x->size + k] = acSumNone;
  for (int32_t k = x->size - 1; k >= 1; --k)
    x->tree[k] = acSumCombine(x->tree[2 * k], x->tree[2 * k + 1]);
  s->lix[leaf] = x;
  s->lixBuilt[s->numLixBuilt++] = leaf;
  return x;
}

AcSum acLeafIdxQuery(const AcLeafIdx *x, int32_t lo, int32_t hi) {
  AcSum r = acSumNone;
  for (lo += x->size, hi += x->size + 1; lo < hi; lo /= 2, hi /= 2) {
    if (lo & 1)
      r = acSumCombine(r, x->tree[lo++]);
    if (hi & 1)
      r = acSumCombine(r, x->tree[--hi]);
  }
  return r;
}

int acKvReserve(AcInc *s, int which, intptr_t n) {
  return acArrayGrow((void **)&s->kv[which], &s->kvCap[which], n, sizeof *s->kv[which]);
}


AcProfileTop acCurrentProfile(const AcInc *s) {
  AcProfileTop r = {0, 0, -1};
  AcSum t = acTreeSum(&s->tree, 1);
  if (s->numLeaves > 0 && t.m1 != AC_NOLEVEL) {
    r.top = t.m1;
    r.count = t.c1;
    r.second = t.m2 == AC_NOLEVEL ? -1 : t.m2;
  }
  return r;
}

