/* greedy_inc_describe.c - the incremental greedy's descriptions
 * (greedy_inc.h): what dropping one candidate would change, cached per
 * candidate.  acIncDescribe walks the ops the drop newly recomputes or
 * moves, applies the change tentatively to read the touched slots' new
 * intervals, reverts it, and turns the differences into range adds over
 * leaves and dirty leaves; acIncDescribeLeaves computes the dirty leaves'
 * summaries, the fall bound and the key; acEvalProfile reads the profile
 * after the drop off the tree.
 *
 * Invariants: a description never changes the state (the tentative change
 * is reverted on every path); its extra seconds are summed in op-id order as
 * acPlanExtraSeconds sums them; fall <= bound. */
#include "greedy_inc.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*===-------------------------- descriptions ------------------------------===*/

/* Sorts small arrays by insertion, larger ones with qsort. */
#define AC_SORT(arr, n, T, keyExpr, cmp)                                       \
  do {                                                                         \
    if ((n) > 24) {                                                            \
      qsort((arr), (size_t)(n), sizeof(T), cmp);                               \
    } else {                                                                   \
      for (intptr_t i_ = 1; i_ < (n); ++i_) {                                  \
        T x_ = (arr)[i_];                                                      \
        intptr_t j_ = i_;                                                      \
        for (; j_ > 0; --j_) {                                                 \
          T *y_ = &(arr)[j_ - 1];                                              \
          T *a_ = &x_;                                                         \
          (void)a_;                                                            \
          if (!(keyExpr))                                                      \
            break;                                                             \
          (arr)[j_] = *y_;                                                     \
        }                                                                      \
        (arr)[j_] = x_;                                                        \
      }                                                                        \
    }                                                                          \
  } while (0)

static int acCompareDirty(const void *a, const void *b) {
  const AcDirty *x = a, *y = b;
  return (x->leaf > y->leaf) - (x->leaf < y->leaf);
}

/* Adds slot (e, r) to the description's touched slots (once). */
static int acTouchSlot(AcInc *s, AcCand *d, int32_t e, AcId r) {
  const AcGraph *g = s->g;
  if (s->staticRoot[r] || g->values[r].bytes == 0)
    return 1;
  intptr_t sl = acSlotOf(s, e, r);
  if (s->slotStamp[sl] == s->epoch)
    return 1;
  s->slotStamp[sl] = s->epoch;
  if (!acArrayGrow((void **)&d->slots, &d->capSlots, d->numSlots + 1, sizeof *d->slots))
    goto nomem;
  d->slots[d->numSlots].slot = (int32_t)sl;
  d->slots[d->numSlots].a = -1;
  d->slots[d->numSlots].z = -1;
  d->numSlots++;
  acItemAdd(s, r);
  return 1;
nomem:
  return 0;
}

static int acEvPush(AcInc *s, intptr_t *n, int32_t leaf, int64_t amount) {
  if (!acArrayGrow((void **)&s->ev, &s->evCap, *n + 1, sizeof *s->ev))
    return 0;
  s->ev[*n].leaf = leaf;
  s->ev[*n].amount = amount;
  (*n)++;
  return 1;
}

static int acDirtyAdd(AcInc *s, AcCand *d, int32_t leaf) {
  if (s->leafStamp[leaf] == s->epoch)
    return 1;
  s->leafStamp[leaf] = s->epoch;
  if (!acArrayGrow((void **)&d->dirty, &d->capDirty, d->numDirty + 1, sizeof *d->dirty))
    goto nomem;
  d->dirty[d->numDirty].leaf = leaf;
  d->dirty[d->numDirty].partial = acSumNone;
  d->numDirty++;
  acItemAdd(s, (int32_t)(s->g->numValues + leaf));
  return 1;
nomem:
  return 0;
}

/* Amount of the description's range adds at `leaf`. */
int64_t acSegAt(const AcCand *d, int32_t leaf) {
  int32_t lo = 0, hi = d->numSegs;
  while (lo < hi) {
    int32_t mid = (lo + hi) / 2;
    if (d->segs[mid].hi < leaf)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < d->numSegs && d->segs[lo].lo <= leaf ? d->segs[lo].amount : 0;
}

const AcDirty *acDirtyAt(const AcCand *d, int32_t leaf) {
  int32_t lo = 0, hi = d->numDirty;
  while (lo < hi) {
    int32_t mid = (lo + hi) / 2;
    if (d->dirty[mid].leaf < leaf)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < d->numDirty && d->dirty[lo].leaf == leaf ? &d->dirty[lo] : NULL;
}

/* The group of anchor b after the description's moves (into scratch):
 * b1's gains every moving op (d->ops is sorted by op), the old anchors of
 * the M ops lose them (they carry the description's op stamp). */
static int32_t acGroupAfter(AcInc *s, const AcCand *d, AcId b, AcId *out) {
  int32_t n = 0;
  const AcId *grp = s->grp[b];
  int32_t len = s->grpLen[b];
  if (b != d->b1) {
    for (int32_t i = 0; i < len; ++i)
      if (s->opStamp[grp[i]] != s->epoch)
        out[n++] = grp[i];
    return n;
  }
  int32_t i = 0, j = 0;
  while (i < len || j < d->numOps) {
    if (j >= d->numOps || (i < len && grp[i] < d->ops[j].op))
      out[n++] = grp[i++];
    else
      out[n++] = d->ops[j++].op;
  }
  return n;
}


/* Sorts kv[0..n) by key (stable), keys in [-1, 2^32 - 1): insertion sort
 * for short arrays, else an LSD radix sort on 8-bit digits through tmp[n],
 * as many passes as the largest key needs.  (qsort's indirect comparisons
 * dominated big descriptions.) */
static void acSortKv(struct AcKv *kv, intptr_t n, struct AcKv *tmp) {
  if (n <= 32) {
    for (intptr_t i = 1; i < n; ++i) {
      struct AcKv x = kv[i];
      intptr_t j = i;
      for (; j > 0 && kv[j - 1].key > x.key; --j)
        kv[j] = kv[j - 1];
      kv[j] = x;
    }
    return;
  }
  uint32_t maxKey = 0;
  for (intptr_t i = 0; i < n; ++i)
    if ((uint32_t)(kv[i].key + 1) > maxKey)
      maxKey = (uint32_t)(kv[i].key + 1);
  uint32_t cnt[256];
  struct AcKv *src = kv, *dst = tmp;
  for (int shift = 0; shift < 32 && (maxKey >> shift) != 0; shift += 8) {
    memset(cnt, 0, sizeof cnt);
    for (intptr_t i = 0; i < n; ++i)
      cnt[((uint32_t)(src[i].key + 1) >> shift) & 255]++;
    uint32_t sum = 0;
    for (int k = 0; k < 256; ++k) {
      uint32_t c = cnt[k];
      cnt[k] = sum;
      sum += c;
    }
    for (intptr_t i = 0; i < n; ++i)
      dst[cnt[((uint32_t)(src[i].key + 1) >> shift) & 255]++] = src[i];
    struct AcKv *t = src;
    src = dst;
    dst = t;
  }
  if (src != kv)
    memcpy(kv, src, (size_t)n * sizeof *kv);
}

/* The partial summary of a big leaf after the described drop, from its
 * index: the surviving steps shifted by the entries the drop removes and
 * adds (piecewise constant over old steps), the steps it inserts (the cut
 * where they go, plus the entries covering them). */
static int acLeafNewSummaryIdx(AcInc *s, int32_t leaf, const AcCand *d,
                               int32_t di, AcSum *out) {
  AcLeafIdx *x = acLeafIdxGet(s, leaf);
  if (!x)
    return 0;
  AcId b = s->leafOp[leaf];
  const AcId *grp = s->grp[b];
  int32_t ng = s->grpLen[b], n = x->n;
  int isB1 = b == d->b1;
  int32_t r0 = d->recFirst[di], nrec = d->recFirst[di + 1] - r0;
  const AcRec *rec = d->recs + r0;
  const int32_t *ordA = d->ordA + r0, *ordZ = d->ordZ + r0;
  /* Old steps each entry covers now: [lo, hiP); an added entry between two
     old steps covers none of them (it may still cover joining steps). */
  if (!acKvReserve(s, 0, (intptr_t)nrec + 1))
    return 0;
  struct AcKv *span = s->kv[0]; /* key: lo, amount: hiP */
  for (int32_t j = 0; j < nrec; ++j) {
    int32_t a = rec[j].a, z = rec[j].z;
    span[j].key = a == AC_KEY_FIRST ? 0 : a == AC_KEY_ANCHOR ? ng : acIncLowerBound(grp, ng, a);
    span[j].amount = z == AC_KEY_ANCHOR ? ng + 1 : acIncLowerBound(grp, ng, z + 1);
    /* A removed entry covers an old step, or ends before the first one. */
    assert(rec[j].amount > 0 || span[j].key < span[j].amount ||
           (z != AC_KEY_ANCHOR && span[j].amount == 0));
  }
  /* Steps leaving (b is an old anchor of moving ops), by old index. */
  const AcOpMove *mv = NULL;
  int32_t nmv = 0;
  if (!isB1) {
    int32_t lo = 0, hi = d->numMoved;
    while (lo < hi) {
      int32_t mid = (lo + hi) / 2;
      if (d->moved[mid].oldAnchor < b)
        lo = mid + 1;
      else
        hi = mid;
    }
    mv = d->moved + lo;
    while (lo + nmv < d->numMoved && mv[nmv].oldAnchor == b)
      ++nmv;
  }
  /* Sweep the old steps: the delta changes where entries start (ordA) and
     end (ordZ); leaving steps are skipped. */
  AcSum r = acSumNone;
  int64_t delta = 0;
  int32_t ia = 0, iz = 0, im = 0;
  int32_t nextRem = nmv > 0 ? acIncLowerBound(grp, ng, mv[0].op) : INT32_MAX;
  for (int32_t pos = 0; pos < n;) {
    for (; ia < nrec && span[ordA[ia]].key <= pos; ++ia)
      if (span[ordA[ia]].key < span[ordA[ia]].amount)
        delta += rec[ordA[ia]].amount;
    for (; iz < nrec && span[ordZ[iz]].amount <= pos; ++iz)
      if (span[ordZ[iz]].key < span[ordZ[iz]].amount)
        delta -= rec[ordZ[iz]].amount;
    if (nextRem == pos) {
      assert(grp[pos] == mv[im].op);
      ++im;
      nextRem = im < nmv ? acIncLowerBound(grp, ng, mv[im].op) : INT32_MAX;
      ++pos;
      continue;
    }
    int32_t end = n - 1;
    /* Skip entries that cover no old step: they do not break pieces. */
    while (ia < nrec && span[ordA[ia]].key >= span[ordA[ia]].amount &&
           span[ordA[ia]].key > pos)
      ++ia;
    while (iz < nrec && span[ordZ[iz]].key >= span[ordZ[iz]].amount &&
           span[ordZ[iz]].amount > pos)
      ++iz;
    if (ia < nrec && span[ordA[ia]].key - 1 < end)
      end = (int32_t)span[ordA[ia]].key - 1;
    if (iz < nrec && span[ordZ[iz]].amount - 1 < end)
      end = (int32_t)span[ordZ[iz]].amount - 1;
    if (nextRem - 1 < end)
      end = nextRem - 1;
    r = acSumCombine(r, acSumShift(acLeafIdxQuery(x, pos, end), delta));
    pos = end + 1;
  }
  /* Steps joining b1: the cut where each goes plus the entries covering it
     (a <= q <= z; removed entries never start or end at a joining op). */
  if (isB1 && d->numOps > 0) {
    int32_t sa = 0, sz = 0;
    int64_t cover = 0;
    for (int32_t i = 0; i < d->numOps; ++i) {
      AcId q = d->ops[i].op;
      for (; sa < nrec && rec[ordA[sa]].a <= q; ++sa)
        cover += rec[ordA[sa]].amount;
      for (; sz < nrec && rec[ordZ[sz]].z < q; ++sz)
        cover -= rec[ordZ[sz]].amount;
      int32_t k = acIncLowerBound(grp, ng, q);
      int64_t v = x->pl[k] - x->st[k] + x->en[k] + cover + s->g->ops[q].workspace;
      r = acSumCombine(r, (AcSum){v, 1, AC_NOLEVEL});
    }
  }
  *out = r;
  return 1;
}

static int acDescribeLeaves(AcInc *s, AcCand *d, int all);

/* b1: the first backward op whose needs reach v (AC_NONE: none). */
static AcId acDescribeB1(const AcInc *s, AcId v) {
  const AcGraph *g = s->g;
  AcId b1 = AC_NONE;
  for (int32_t k = 0; k < g->values[v].numUses; ++k) {
    AcId u = acValueUse(g, v, k);
    AcId b = g->ops[u].phase == AC_PHASE_BWD ? u
             : s->recompute[u]               ? s->anchor[u]
                                             : AC_NONE;
    if (b != AC_NONE && (b1 == AC_NONE || b < b1))
      b1 = b;
  }
  return b1;
}

/* The walk from p through values that are not saved: ops not recomputed
 * join C (and must be recomputable), recompute ops anchored after b1 move
 * (M); recompute ops anchored at or before b1 stay, with their needs.
 * *droppable = 0 when an op on the way may not be rerun.  0 on NOMEM. */
static int acDescribeWalk(AcInc *s, AcCand *d, AcId p, AcId b1, int *droppable) {
  const AcGraph *g = s->g;
  intptr_t sp = 0;
  *droppable = 1;
  s->stack[sp++] = p;
  while (sp > 0) {
    AcId q = s->stack[--sp];
    if (s->opStamp[q] == s->epoch)
      continue;
    s->opStamp[q] = s->epoch;
    acItemAdd(s, acItemOf(s, g->ops[q].firstResult));
    const AcOp *op = &g->ops[q];
    int join;
    if (!s->recompute[q]) {
      if (acOpCannotRecompute(op)) {
        *droppable = 0;
        return 1;
      }
      join = b1 != AC_NONE;
    } else {
      if (b1 == AC_NONE || s->anchor[q] <= b1)
        continue; /* stays; its needs are recomputed already */
      join = 1;
    }
    if (join) {
      if (!acArrayGrow((void **)&d->ops, &d->capOps, d->numOps + 1, sizeof *d->ops))
        return 0;
      d->ops[d->numOps].op = q;
      d->ops[d->numOps].oldAnchor = s->recompute[q] ? s->anchor[q] : AC_NONE;
      d->numOps++;
    }
    for (int32_t i = 0; i < op->numOperands; ++i) {
      AcId x = acOpOperand(g, q, i);
      const AcValue *xv = &g->values[x];
      if (xv->role != AC_ROLE_RESULT)
        continue;
      acItemAdd(s, acItemOf(s, x));
      if (s->saved[x])
        continue;
      s->stack[sp++] = xv->producer;
    }
  }
  return 1;
}

/* Sorts the moving ops by id and sums the extra seconds of the newly
 * recomputed ones in that order, as acPlanExtraSeconds sums.  0 on NOMEM. */
static int acDescribeExtra(AcInc *s, AcCand *d, AcId f) {
  const AcGraph *g = s->g;
  if (!acKvReserve(s, 3, (intptr_t)d->numOps + 1) ||
      !acKvReserve(s, 4, (intptr_t)d->numOps + 1))
    return 0;
  for (int32_t i = 0; i < d->numOps; ++i)
    s->kv[3][i] = (struct AcKv){d->ops[i].op, d->ops[i].oldAnchor};
  acSortKv(s->kv[3], d->numOps, s->kv[4]);
  for (int32_t i = 0; i < d->numOps; ++i) {
    d->ops[i].op = (AcId)s->kv[3][i].key;
    d->ops[i].oldAnchor = (AcId)s->kv[3][i].amount;
  }
  double extra = 0;
  for (int32_t i = 0; i < d->numOps; ++i)
    if (d->ops[i].oldAnchor == AC_NONE)
      extra += g->ops[d->ops[i].op].seconds * s->inst[f];
  d->extra = extra;
  return 1;
}

/* Applies (on = 1) or reverts (on = 0) the drop of v to the plan flags,
 * tentatively, to resolve the reads it changes. */
static void acDescribeTentative(AcInc *s, const AcCand *d, AcId v, int on) {
  s->saved[v] = (uint8_t)!on;
  s->savedCnt[v] += on ? -1 : 1;
  for (int32_t i = 0; i < d->numOps; ++i) {
    AcId q = d->ops[i].op;
    s->recompute[q] = on || d->ops[i].oldAnchor != AC_NONE;
    s->anchor[q] = on ? d->b1 : d->ops[i].oldAnchor;
  }
}

/* Slots the moving ops touch, in every backward instance of f: their
 * results' and their operands' (resolved under the tentative plan). */
static int acDescribeTouchOps(AcInc *s, AcCand *d, AcId f) {
  const AcGraph *g = s->g;
  for (int32_t i = 0; i < d->numOps; ++i) {
    AcId q = d->ops[i].op;
    const AcOp *op = &g->ops[q];
    for (int32_t k = s->entFirst[f]; k < s->entFirst[f + 1]; ++k) {
      int32_t e = s->entList[k];
      if (g->sched[e].phase != AC_PHASE_BWD)
        continue;
      for (int32_t r = 0; r < op->numResults; ++r) {
        AcId y = op->firstResult + r;
        if (g->values[y].aliasRoot == y && !acTouchSlot(s, d, e, y))
          return 0;
      }
      for (int32_t o = 0; o < op->numOperands; ++o) {
        AcId ref = AC_NONE;
        int side = acIncResolve(s, acOpOperand(g, q, o), &ref);
        int ok2 = 1;
        if (side == AC_SIDE_FWD)
          ok2 = acTouchSlot(s, d, g->sched[e].partner, ref);
        else if (side == AC_SIDE_BWD)
          ok2 = acTouchSlot(s, d, e, ref);
        if (!ok2)
          return 0;
      }
    }
  }
  return 1;
}

/* The touched slots and their new intervals: v's in every instance of f,
 * then the moving ops' (acDescribeTouchOps), read under the drop applied
 * tentatively and reverted on every path.  0 on NOMEM. */
static int acDescribeSlots(AcInc *s, AcCand *d, AcId v, AcId f) {
  for (int32_t k = s->entFirst[f]; k < s->entFirst[f + 1]; ++k)
    if (!acTouchSlot(s, d, s->entList[k], v))
      return 0;
  acDescribeTentative(s, d, v, 1);
  int ok = acDescribeTouchOps(s, d, f);
  for (int32_t i = 0; ok && i < d->numSlots; ++i) {
    AcSlotNew *sn = &d->slots[i];
    int32_t e = (int32_t)0;
    /* The slot's entry: find it from the slot index. */
    intptr_t sl = sn->slot;
    AcId r = s->slotRoot[sl];
    for (int32_t k = s->entFirst[f]; k < s->entFirst[f + 1]; ++k) {
      int32_t ee = s->entList[k];
      if (sl >= s->slotBase[ee] && sl < s->slotBase[ee + 1]) {
        e = ee;
        break;
      }
    }
    AcPos A, Z;
    if (acSlotInterval(s, e, r, &A, &Z)) {
      sn->a = A;
      sn->z = Z;
    }
  }
  acDescribeTentative(s, d, v, 0);
  return ok;
}

/* Range adds (full coverage changes) and dirty leaves (an end inside, or
 * a changed group) from the touched slots' old and new intervals; the range
 * adds merged into segments of constant amount.  0 on NOMEM. */
static int acDescribeSegs(AcInc *s, AcCand *d, AcId f) {
  const AcGraph *g = s->g;
  intptr_t nev = 0;
  for (int32_t i = 0; i < d->numSlots; ++i) {
    const AcSlotNew *sn = &d->slots[i];
    intptr_t sl = sn->slot;
    int64_t bytes = g->values[s->slotRoot[sl]].bytes;
    AcCover co = acCoverOf(s->slotA[sl] >= 0, s->slotA[sl], s->slotZ[sl]);
    AcCover cn = acCoverOf(sn->a >= 0, sn->a, sn->z);
    if (co.lo != cn.lo || co.hi != cn.hi) {
      if (co.lo <= co.hi && (!acEvPush(s, &nev, co.lo, -bytes) ||
                             !acEvPush(s, &nev, co.hi + 1, bytes)))
        return 0;
      if (cn.lo <= cn.hi && (!acEvPush(s, &nev, cn.lo, bytes) ||
                             !acEvPush(s, &nev, cn.hi + 1, -bytes)))
        return 0;
    }
    int same = sn->a == s->slotA[sl] && sn->z == s->slotZ[sl] &&
               (sn->a >= 0) == (s->slotA[sl] >= 0);
    if (!same) {
      for (int k = 0; k < co.numPart; ++k)
        if (!acDirtyAdd(s, d, co.part[k]))
          return 0;
      for (int k = 0; k < cn.numPart; ++k)
        if (!acDirtyAdd(s, d, cn.part[k]))
          return 0;
    }
  }
  if (d->numOps > 0) {
    for (int32_t k = s->entFirst[f]; k < s->entFirst[f + 1]; ++k) {
      int32_t e = s->entList[k];
      if (g->sched[e].phase != AC_PHASE_BWD)
        continue;
      if (!acDirtyAdd(s, d, s->leafBase[e] + s->rank[d->b1]))
        return 0;
      for (int32_t i = 0; i < d->numOps; ++i)
        if (d->ops[i].oldAnchor != AC_NONE &&
            !acDirtyAdd(s, d, s->leafBase[e] + s->rank[d->ops[i].oldAnchor]))
          return 0;
    }
  }
  if (!acKvReserve(s, 3, nev + 1) || !acKvReserve(s, 4, nev + 1))
    return 0;
  for (intptr_t i = 0; i < nev; ++i)
    s->kv[3][i] = (struct AcKv){s->ev[i].leaf, s->ev[i].amount};
  acSortKv(s->kv[3], nev, s->kv[4]);
  for (intptr_t i = 0; i < nev; ++i) {
    s->ev[i].leaf = (int32_t)s->kv[3][i].key;
    s->ev[i].amount = s->kv[3][i].amount;
  }
  int64_t run = 0;
  for (intptr_t i = 0; i < nev;) {
    int32_t leaf = s->ev[i].leaf;
    for (; i < nev && s->ev[i].leaf == leaf; ++i)
      run += s->ev[i].amount;
    int32_t next = i < nev ? s->ev[i].leaf : (int32_t)s->numLeaves;
    if (run != 0 && leaf < next && leaf < s->numLeaves) {
      if (!acArrayGrow((void **)&d->segs, &d->capSegs, d->numSegs + 1, sizeof *d->segs))
        return 0;
      d->segs[d->numSegs].lo = leaf;
      d->segs[d->numSegs].hi = next - 1;
      d->segs[d->numSegs].amount = run;
      d->numSegs++;
    }
  }
  assert(run == 0);
  return 1;
}

/* Describes dropping candidate v from the current plan (d's arrays are
 * reused), step by step: b1, the walk, the extra seconds, the touched
 * slots' new intervals, the range adds and dirty leaves, the leaves'
 * summaries; then registers its dependencies.  Marks the candidate DEAD
 * when v is no longer droppable. */
AcStatus acIncDescribe(AcInc *s, AcId v, AcError *err) {
  const AcGraph *g = s->g;
  s->statDescribe++;
  AcCand *d = &AC_CAND_OF(s, v);
  const AcValue *val = &g->values[v];
  AcId f = val->func;
  d->version++; /* older registrations and heap entries lapse */
  s->depLive -= d->numDeps;
  d->numDeps = 0;
  d->numOps = d->numSlots = d->numSegs = d->numDirty = 0;
  d->state = AC_CAND_DEAD;
  if (!s->saved[v] || (s->keep && s->keep[v])) {
    acCandRelease(d);
    return AC_OK;
  }
  acNextEpoch(s);
  s->numItems = 0;
  acItemAdd(s, v);
  d->b1 = acDescribeB1(s, v);
  int droppable;
  if (!acDescribeWalk(s, d, val->producer, d->b1, &droppable))
    goto nomem;
  if (!droppable) {
    /* Not droppable, now or later (the saved set only shrinks). */
    acCandRelease(d);
    return AC_OK;
  }
  /* Ops stamped by the walk that did not join must not look like movers
     to acGroupAfter: re-stamp only the joined ones. */
  acNextEpoch(s);
  for (intptr_t i = 0; i < s->numItems; ++i)
    s->itemStamp[s->items[i]] = s->epoch;
  for (int32_t i = 0; i < d->numOps; ++i)
    s->opStamp[d->ops[i].op] = s->epoch;
  if (!acDescribeExtra(s, d, f) || !acDescribeSlots(s, d, v, f) ||
      !acDescribeSegs(s, d, f))
    goto nomem;
  AC_SORT(d->dirty, d->numDirty, AcDirty, y_->leaf > a_->leaf, acCompareDirty);
  s->work += 1 + (intptr_t)d->numOps + d->numSlots + d->numSegs + d->numDirty;
  if (!acDescribeLeaves(s, d, 1))
    goto nomem;
  d->state = AC_CAND_VALID;
  d->fresh = s->step;
  d->keyVersion++;
  if (!acDepRegister(s, v))
    goto nomem;
  return AC_OK;
nomem:
  d->state = AC_CAND_STALE;
  return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory in the greedy planner");
}

/* Records: each touched slot's old and new partial entries, by dirty leaf
 * (CSR d->recFirst, d->rec; kept: a refresh of the leaf summaries reuses
 * them).  0 on NOMEM. */
static int acDescribeRecords(AcInc *s, AcCand *d) {
  if (!acArrayGrow((void **)&d->recFirst, &d->capRecFirst, d->numDirty + 2, sizeof *d->recFirst))
    return 0;
  if (!acArrayGrow((void **)&d->rec, &d->capRec, 4 * d->numSlots + 1, sizeof *d->rec))
    return 0;
  memset(d->recFirst, 0, ((size_t)d->numDirty + 2) * sizeof *d->recFirst);
  for (int32_t i = 0; i < d->numDirty; ++i)
    s->leafIdx[d->dirty[i].leaf] = i;
  for (int pass = 0; pass < 2; ++pass) {
    for (int32_t i = 0; i < d->numSlots; ++i) {
      const AcSlotNew *sn = &d->slots[i];
      intptr_t sl = sn->slot;
      AcCover cv[2];
      cv[0] = acCoverOf(s->slotA[sl] >= 0, s->slotA[sl], s->slotZ[sl]);
      cv[1] = acCoverOf(sn->a >= 0, sn->a, sn->z);
      for (int nw = 0; nw < 2; ++nw)
        for (int k = 0; k < cv[nw].numPart; ++k) {
          int32_t leaf = cv[nw].part[k];
          if (s->leafStamp[leaf] != s->epoch)
            continue; /* not dirty: the interval did not change */
          int32_t di = s->leafIdx[leaf];
          if (pass == 0)
            d->recFirst[di + 2]++;
          else
            d->rec[d->recFirst[di + 1]++] = 2 * i + nw;
        }
    }
    if (pass == 0)
      for (int32_t i = 0; i < d->numDirty; ++i)
        d->recFirst[i + 2] += d->recFirst[i + 1];
  }
  return 1;
}

/* Keys and bytes of each record; per leaf, the records ordered by start and
 * by end key.  Kept for refreshes.  0 on NOMEM. */
static int acDescribeRecordKeys(AcInc *s, AcCand *d) {
  int32_t nrec = d->recFirst[d->numDirty];
  if (!acArrayGrow((void **)&d->recs, &d->capRecs, nrec + 1, sizeof *d->recs) ||
      !acArrayGrow((void **)&d->ordA, &d->capOrdA, nrec + 1, sizeof *d->ordA) ||
      !acArrayGrow((void **)&d->ordZ, &d->capOrdZ, nrec + 1, sizeof *d->ordZ))
    return 0;
  if (!acKvReserve(s, 1, (intptr_t)nrec + 1) || !acKvReserve(s, 4, (intptr_t)nrec + 1))
    return 0;
  for (int32_t i = 0; i < d->numDirty; ++i) {
    int32_t leaf = d->dirty[i].leaf, r0 = d->recFirst[i], r1 = d->recFirst[i + 1];
    for (int32_t r = r0; r < r1; ++r) {
      const AcSlotNew *sn = &d->slots[d->rec[r] >> 1];
      intptr_t sl = sn->slot;
      int64_t bytes = s->g->values[s->slotRoot[sl]].bytes;
      if (d->rec[r] & 1) {
        acIncClip(sn->a, sn->z, leaf, &d->recs[r].a, &d->recs[r].z);
        d->recs[r].amount = bytes;
      } else {
        acIncClip(s->slotA[sl], s->slotZ[sl], leaf, &d->recs[r].a, &d->recs[r].z);
        d->recs[r].amount = -bytes;
      }
    }
    struct AcKv *kv = s->kv[1];
    for (int side = 0; side < 2; ++side) {
      for (int32_t r = r0; r < r1; ++r) {
        kv[r - r0].key = side ? d->recs[r].z : d->recs[r].a;
        kv[r - r0].amount = r - r0;
      }
      acSortKv(kv, r1 - r0, s->kv[4]);
      int32_t *ord = side ? d->ordZ : d->ordA;
      for (int32_t r = r0; r < r1; ++r)
        ord[r] = (int32_t)kv[r - r0].amount;
    }
  }
  return 1;
}

/* The M ops (moving into an earlier group) by (old anchor, op).  0 on
 * NOMEM. */
static int acDescribeMoved(AcInc *s, AcCand *d) {
  d->numMoved = 0;
  if (!acArrayGrow((void **)&d->moved, &d->capMoved, d->numOps + 1, sizeof *d->moved))
    return 0;
  for (int32_t i = 0; i < d->numOps; ++i)
    if (d->ops[i].oldAnchor != AC_NONE)
      d->moved[d->numMoved++] = d->ops[i];
  /* d->ops is sorted by op: a stable sort by old anchor orders by both. */
  if (!acKvReserve(s, 3, (intptr_t)d->numMoved + 1))
    return 0;
  for (int32_t i = 0; i < d->numMoved; ++i)
    s->kv[3][i] = (struct AcKv){d->moved[i].oldAnchor, d->moved[i].op};
  acSortKv(s->kv[3], d->numMoved, s->kv[4]);
  for (int32_t i = 0; i < d->numMoved; ++i) {
    d->moved[i].oldAnchor = (AcId)s->kv[3][i].key;
    d->moved[i].op = (AcId)s->kv[3][i].amount;
  }
  return 1;
}

/* Each dirty leaf's partial summary after the drop (with `all` clear, only
 * those changed since the description's were computed).  0 on NOMEM. */
static int acDescribeLeafSummaries(AcInc *s, AcCand *d, int all) {
  for (int32_t i = 0; i < d->numDirty; ++i) {
    int32_t leaf = d->dirty[i].leaf;
    if (!all && s->leafChanged[leaf] <= d->leavesAt)
      continue; /* unchanged since its summary was computed */
    const int32_t *rec = d->rec + d->recFirst[i];
    intptr_t nrec = d->recFirst[i + 1] - d->recFirst[i];
    AcId b = s->leafOp[leaf];
    int32_t ng = 0;
    const AcId *grp = NULL;
    if (acLeafIsBwd(s, leaf) && s->grpLen[b] + 1 >= acGreedyLeafIndexMin) {
      if (!acLeafNewSummaryIdx(s, leaf, d, i, &d->dirty[i].partial))
        return 0;
      continue;
    }
    if (acLeafIsBwd(s, leaf)) {
      ng = acGroupAfter(s, d, b, s->grpScratch);
      grp = s->grpScratch;
    }
    if (!acLeafPartialNow(s, leaf, grp, ng, d, rec, nrec, &d->dirty[i].partial))
      return 0;
  }
  return 1;
}

/* The bound (the largest reduction of a leaf's highest level) and key. */
static void acDescribeBound(AcInc *s, AcCand *d) {
  int64_t bound = 0;
  for (int32_t i = 0; i < d->numSegs; ++i)
    bound = acMax64(bound, -d->segs[i].amount);
  for (int32_t i = 0; i < d->numDirty; ++i) {
    int32_t leaf = d->dirty[i].leaf;
    int64_t red = s->leafPart[leaf].m1 - acSegAt(d, leaf) - d->dirty[i].partial.m1;
    bound = acMax64(bound, red);
  }
  d->bound = bound;
  d->key = bound > 0 ? d->extra / (double)bound : HUGE_VAL;
  d->leavesAt = s->step;
}

/* The dirty leaves' partial summaries after the drop, the bound and the
 * key; with `all`, first the records and moved ops they read.  Needs the
 * description's touched slots, moving ops and dirty leaves stamped with
 * the current epoch.  0 on NOMEM. */
static int acDescribeLeaves(AcInc *s, AcCand *d, int all) {
  if (all && (!acDescribeRecords(s, d) || !acDescribeRecordKeys(s, d) ||
              !acDescribeMoved(s, d)))
    return 0;
  if (!acDescribeLeafSummaries(s, d, all))
    return 0;
  acDescribeBound(s, d);
  return 1;
}

/* A dirty leaf of candidate v changed under it: only its leaf summaries,
 * bound and key are redone (the walk, intervals and range adds depend on
 * alias groups alone). */
int acRefreshLeaves(AcInc *s, AcId v) {
  AcCand *d = &AC_CAND_OF(s, v);
  acNextEpoch(s);
  for (int32_t i = 0; i < d->numSlots; ++i)
    s->slotStamp[d->slots[i].slot] = s->epoch;
  for (int32_t i = 0; i < d->numOps; ++i)
    s->opStamp[d->ops[i].op] = s->epoch;
  s->work += 1 + (intptr_t)d->numSlots + d->numOps + d->numDirty;
  if (!acDescribeLeaves(s, d, 0))
    return 0;
  d->keyVersion++;
  return 1;
}

/* The profile after the described drop. */
AcProfileTop acEvalProfile(AcInc *s, const AcCand *d) {
  s->statEval++;
  s->work += 1 + (intptr_t)d->numSegs + d->numDirty;
  const AcTree *t = &s->tree;
  AcSum total = acSumNone;
  int32_t pos = 0, si = 0, di = 0;
  intptr_t N = s->numLeaves;
  while (pos < N) {
    /* Next breakpoint: a segment boundary or a dirty leaf. */
    int64_t amount = 0;
    int32_t end = (int32_t)N - 1;
    while (si < d->numSegs && d->segs[si].hi < pos)
      ++si;
    if (si < d->numSegs) {
      if (d->segs[si].lo <= pos) {
        amount = d->segs[si].amount;
        end = d->segs[si].hi;
      } else {
        end = d->segs[si].lo - 1;
      }
    }
    if (di < d->numDirty && d->dirty[di].leaf == pos) {
      int64_t full = acTreeLeafTop(t, pos) - s->leafPart[pos].m1;
      total = acSumCombine(total, acSumShift(d->dirty[di].partial, full + amount));
      ++di;
      ++pos;
      continue;
    }
    if (di < d->numDirty && d->dirty[di].leaf <= end)
      end = d->dirty[di].leaf - 1;
    total = acSumCombine(total,
                         acSumShift(acTreeQuery(t, 1, 0, t->size - 1, pos, end), amount));
    pos = end + 1;
  }
  AcProfileTop r = {0, 0, -1};
  if (total.m1 != AC_NOLEVEL) {
    r.top = total.m1;
    r.count = total.c1;
    r.second = total.m2 == AC_NOLEVEL ? -1 : total.m2;
  }
  return r;
}

