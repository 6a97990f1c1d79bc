/* greedy_inc_pick.c - the incremental greedy's pick (greedy_inc.h): the
 * heap of candidates by extra / bound, the best drop under the reference's
 * rule (primary, else secondary), and the budget's last drop.
 *
 * Invariants: the pick is acDropBefore's least drop over every valid
 * candidate, as greedy_ref.c's acGreedyBestDrop finds it; a heap entry is
 * live only while its candidate's key version is the one it carries. */
#include "greedy_inc.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*===-------------------------- the heap ----------------------------------===*/

/* The heap's order: acDropBefore's on (extra, bound, candidate), so that
 * the scan in acIncPick can stop at the first entry that could not beat the
 * best even at a fall equal to its bound (a candidate's fall is at most its
 * bound, and acDropBefore never prefers a smaller fall), however many exact
 * ties follow.  Entries without a bound (key HUGE_VAL) come last, by acIdBefore.
 * Different keys decide at once: the keys are correctly rounded quotients,
 * and rounding is monotone, so key a < key b implies the exact ratio a <
 * ratio b (bounds below 2^53, exact as doubles). */
static int acHeapLess(const AcHeapItem *a, const AcHeapItem *b) {
  int ha = a->key == HUGE_VAL, hb = b->key == HUGE_VAL;
  if (ha || hb)
    return ha != hb ? hb : acIdBefore(a->cand, b->cand);
  if (a->key != b->key && a->bound < ((int64_t)1 << 53) &&
      b->bound < ((int64_t)1 << 53))
    return a->key < b->key;
  return acDropBefore(a->extra, a->bound, a->cand, b->extra, b->bound, b->cand);
}

static int acHeapPush(AcInc *s, AcId c) {
  if (!acArrayGrow((void **)&s->heap, &s->heapCap, s->heapLen + 1, sizeof *s->heap))
    return 0;
  intptr_t i = s->heapLen++;
  const AcCand *d = &AC_CAND_OF(s, c);
  AcHeapItem it = {d->key, d->extra, d->bound, c, d->keyVersion};
  while (i > 0) {
    intptr_t par = (i - 1) / 2;
    if (!acHeapLess(&it, &s->heap[par]))
      break;
    s->heap[i] = s->heap[par];
    i = par;
  }
  s->heap[i] = it;
  return 1;
}

static AcHeapItem acHeapPop(AcInc *s) {
  AcHeapItem top = s->heap[0];
  AcHeapItem last = s->heap[--s->heapLen];
  intptr_t i = 0, n = s->heapLen;
  for (;;) {
    intptr_t l = 2 * i + 1, r = l + 1, m = i;
    const AcHeapItem *best = &last;
    if (l < n && acHeapLess(&s->heap[l], best)) {
      m = l;
      best = &s->heap[l];
    }
    if (r < n && acHeapLess(&s->heap[r], best))
      m = r;
    if (m == i)
      break;
    s->heap[i] = s->heap[m];
    i = m;
  }
  if (n > 0)
    s->heap[i] = last;
  return top;
}

static inline int acHeapLive(const AcInc *s, const AcHeapItem *it) {
  const AcCand *c = &AC_CAND_OF(s, it->cand);
  return c->state == AC_CAND_VALID && c->keyVersion == it->version;
}


/*===-------------------------- the pick ----------------------------------===*/

/* The best drop under the reference's rule, or AC_NONE; *primary says
 * whether it lowers the peak (its fall is then the peak's). */
AcStatus acIncPick(AcInc *s, AcId *bestOut, int *primary, AcError *err) {
  AcStatus st = AC_OK;
  /* Describe what changed. */
  for (intptr_t i = 0; i < s->numStale; ++i) {
    AcId c = s->staleList[i];
    s->staleMark[c] = 0;
    if ((st = acIncDescribe(s, c, err)) != AC_OK)
      return st;
    if (AC_CAND_OF(s, c).state == AC_CAND_VALID && !acHeapPush(s, c))
      goto nomem;
  }
  s->numStale = 0;
  for (intptr_t i = 0; i < s->numLeafStale; ++i) {
    AcId c = s->leafStaleList[i];
    s->leafStaleMark[c] = 0;
    if (AC_CAND_OF(s, c).state != AC_CAND_VALID || AC_CAND_OF(s, c).fresh == s->step)
      continue;
    s->statDescribeLeaves++;
    if (!acRefreshLeaves(s, c) || !acHeapPush(s, c))
      goto nomem;
  }
  s->numLeafStale = 0;
  AcProfileTop cur = acCurrentProfile(s);
  AcId best = AC_NONE;
  intptr_t numPopped = 0;
  /* Primary: in order of extra / bound. */
  if (s->numLeaves > 0) {
    /* The highest leaves now: a candidate's new peak is at least its new
       level at any of them, which bounds its fall before the exact eval. */
    int32_t topLeaf[AC_TOP_MAX];
    int64_t topVal[AC_TOP_MAX];
    int ntop = acTreeTopLeaves(&s->tree, AC_TOP_MAX, topLeaf, topVal);
    while (s->heapLen > 0) {
      AcHeapItem top = s->heap[0];
      if (!acHeapLive(s, &top)) {
        acHeapPop(s);
        continue;
      }
      if (top.key == HUGE_VAL)
        break;
      /* Nothing from here on can beat the best (acHeapLess). */
      if (best != AC_NONE &&
          !acDropBefore(top.extra, top.bound, top.cand, AC_CAND_OF(s, best).extra,
                        AC_CAND_OF(s, best).fall, best))
        break;
      acHeapPop(s);
      s->statPop++;
      s->work++;
      s->candList[s->numCand + numPopped++] = top.cand;
      AcCand *d = &AC_CAND_OF(s, top.cand);
      /* fall <= top - (its new level at any of the highest leaves): no
         fall, or not enough to beat the best so far even at that fall,
         skip the exact evaluation. */
      int64_t lowest = AC_NOLEVEL;
      for (int k = 0; k < ntop; ++k) {
        int32_t L = topLeaf[k];
        const AcDirty *dl = acDirtyAt(d, L);
        int64_t v = topVal[k] + acSegAt(d, L);
        if (dl)
          v += dl->partial.m1 - s->leafPart[L].m1;
        lowest = v > lowest ? v : lowest;
      }
      int64_t red = cur.top - lowest;
      if (red <= 0 || (best != AC_NONE &&
                       !acDropBefore(d->extra, red, top.cand, AC_CAND_OF(s, best).extra,
                                     AC_CAND_OF(s, best).fall, best)))
        continue;
      AcProfileTop next = acEvalProfile(s, d);
      int64_t fall;
      if (acDropClassify(cur, next, &fall) != AC_DROP_PRIMARY)
        continue;
      assert(fall <= d->bound);
      d->fall = fall;
      if (best == AC_NONE ||
          acDropBefore(d->extra, fall, top.cand, AC_CAND_OF(s, best).extra,
                       AC_CAND_OF(s, best).fall, best)) {
        best = top.cand;
      }
    }
  }
  for (intptr_t i = 0; i < numPopped; ++i)
    if (!acHeapPush(s, s->candList[s->numCand + i]))
      goto nomem;
  *primary = best != AC_NONE;
  if (best != AC_NONE) {
    *bestOut = best;
    return AC_OK;
  }
  /* Secondary: every candidate, exactly. */
  s->statSecondary++;
  for (intptr_t i = 0; i < s->numCand; ++i) {
    AcId c = s->candList[i];
    AcCand *d = &AC_CAND_OF(s, c);
    if (d->state != AC_CAND_VALID)
      continue;
    int64_t fall;
    if (acDropClassify(cur, acEvalProfile(s, d), &fall) != AC_DROP_SECONDARY)
      continue;
    d->fall = fall;
    if (best == AC_NONE ||
        acDropBefore(d->extra, fall, c, AC_CAND_OF(s, best).extra, AC_CAND_OF(s, best).fall,
                     best))
      best = c;
  }
  *bestOut = best;
  return AC_OK;
nomem:
  return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory in the greedy planner");
}

/* The budget's last drop from the current plan (greedy_ref.c's
 * acGreedyRefine): every valid candidate costing at most the pick whose
 * exact peak lies in [pickPeak, budget], the least by acRefineBefore.  A
 * candidate's peak is at least the current top less its bound, which skips
 * most without an exact evaluation. */
void acIncRefine(AcInc *s, AcId pick, int64_t pickPeak, int64_t budget,
                 AcLastDrop *best) {
  double pickExtra = AC_CAND_OF(s, pick).extra;
  AcProfileTop cur = acCurrentProfile(s);
  for (intptr_t i = 0; i < s->numCand; ++i) {
    AcId c = s->candList[i];
    AcCand *d = &AC_CAND_OF(s, c);
    if (d->state != AC_CAND_VALID || d->extra > pickExtra ||
        cur.top - d->bound + s->staticBytes > budget)
      continue;
    int64_t peak = acEvalProfile(s, d).top + s->staticBytes;
    if (peak < pickPeak || peak > budget)
      continue;
    acLastDropConsider(best, c, peak, d->extra);
  }
}
