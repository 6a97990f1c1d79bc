/* beam.c - beam search over greedy's drops (docs/optimality.md).
 *
 * The space is greedy's: the starting save set S0 minus droppable values.
 * Level 0 is S0.  Each level expands every kept plan by every droppable
 * value it still saves, simulating each new child once (a hash set of the
 * drop sets visited).  A child's step from its parent is scored as greedy
 * scores a drop: extra recompute seconds per byte of peak fall.  Children
 * that lower the peak come first, by that ratio (ties: larger fall, then
 * smaller drop set in value order); children that leave the peak unchanged
 * follow, by extra seconds (they let two drops lower a peak that two
 * separate steps hold, which greedy cannot do); children that raise the peak
 * are dropped.  The first `width` become the next level.  The search ends
 * when a level has no children.
 *
 * Everything visited goes to an archive; the result keeps its Pareto front
 * in (recompute seconds, peak): sorted by seconds ascending, the peaks then
 * strictly decrease.  For a budget the plan is the first whose peak fits,
 * else the last: exactly greedy's choice rule on its trajectory, so the
 * chosen peak never rises as the budget falls, and the least-seconds plan
 * visited that fits is the one chosen.  The search ignores the budget. */
#include "plan_internal.h"
#include "autoac/simulate.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

enum { AC_BEAM_DEFAULT_WIDTH = 8 };

typedef struct AcBeamNode {
  int64_t peak;
  double seconds;
  intptr_t parent;   /* node it was first reached from, -1 for the root */
  double key;        /* rank within its level */
  int64_t fall;
  uint8_t stepClass; /* 0: lowers the peak, 1: leaves it */
} AcBeamNode;

typedef struct AcBeam {
  const AcGraph *g;
  intptr_t numVars, words;
  AcId *vars;          /* droppable values of S0, ascending */
  uint64_t *bits;      /* [cap * words] drop set of each node */
  AcBeamNode *nodes;
  intptr_t numNodes, capNodes;
  intptr_t *table;     /* open addressing over node indices, -1 empty */
  intptr_t tableSize;
} AcBeam;

static uint64_t acBeamHash(const uint64_t *b, intptr_t words) {
  uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (intptr_t i = 0; i < words; ++i) {
    h ^= b[i] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ULL;
  }
  return h ^ (h >> 31);
}

static const uint64_t *acBeamBits(const AcBeam *bm, intptr_t n) {
  return bm->bits + n * bm->words;
}

/* Index of the node with drop set `b`, or -1; `*slot` gets its table slot
 * or the empty slot where it would go. */
static intptr_t acBeamFind(const AcBeam *bm, const uint64_t *b, intptr_t *slot) {
  intptr_t mask = bm->tableSize - 1;
  intptr_t i = (intptr_t)(acBeamHash(b, bm->words) & (uint64_t)mask);
  for (;; i = (i + 1) & mask) {
    intptr_t n = bm->table[i];
    if (n < 0) {
      *slot = i;
      return -1;
    }
    if (memcmp(acBeamBits(bm, n), b, (size_t)bm->words * sizeof *b) == 0) {
      *slot = i;
      return n;
    }
  }
}

/* Appends a node with drop set `b` (not present).  0 on allocation failure. */
static int acBeamAdd(AcBeam *bm, const uint64_t *b) {
  if (bm->numNodes == bm->capNodes) {
    intptr_t ncap = bm->capNodes ? bm->capNodes * 2 : 256;
    AcBeamNode *n = acRealloc(bm->nodes, (size_t)ncap * sizeof *n);
    if (!n)
      return 0;
    bm->nodes = n;
    uint64_t *nb = acRealloc(bm->bits, (size_t)(ncap * bm->words + 1) * sizeof *nb);
    if (!nb)
      return 0;
    bm->bits = nb;
    bm->capNodes = ncap;
  }
  if (2 * (bm->numNodes + 1) > bm->tableSize) {
    intptr_t nsize = bm->tableSize ? bm->tableSize * 2 : 1024;
    intptr_t *t = acMalloc((size_t)nsize * sizeof *t);
    if (!t)
      return 0;
    acFree(bm->table);
    bm->table = t;
    bm->tableSize = nsize;
    for (intptr_t i = 0; i < nsize; ++i)
      t[i] = -1;
    for (intptr_t n = 0; n < bm->numNodes; ++n) {
      intptr_t slot;
      (void)acBeamFind(bm, acBeamBits(bm, n), &slot);
      t[slot] = n;
    }
  }
  intptr_t slot;
  memcpy(bm->bits + bm->numNodes * bm->words, b,
         (size_t)bm->words * sizeof *b);
  (void)acBeamFind(bm, b, &slot);
  bm->table[slot] = bm->numNodes;
  memset(&bm->nodes[bm->numNodes], 0, sizeof bm->nodes[0]);
  bm->numNodes++;
  return 1;
}

/* Simulates S0 minus drop set `b` into `*peak` and `*seconds`. */
static AcStatus acBeamEval(const AcBeam *bm, const uint8_t *s0,
                           const uint64_t *b, int64_t staticBytes,
                           AcPlan *plan, int64_t *peak, double *seconds,
                           AcError *err) {
  const AcGraph *g = bm->g;
  memcpy(plan->saved, s0, (size_t)g->numValues);
  for (intptr_t k = 0; k < bm->numVars; ++k)
    if (b[k / 64] >> (k % 64) & 1)
      plan->saved[bm->vars[k]] = 0;
  AcSimResult sim;
  memset(&sim, 0, sizeof sim);
  AcStatus st = acPlanDerive(g, plan, err);
  if (st != AC_OK) {
    /* Droppable values keep the plan derivable (plan_internal.h). */
    return st == AC_ERR_NOMEM ? st : AC_ERR_INTERNAL;
  }
  st = acSimulate(g, plan, staticBytes, 0, &sim, err);
  *peak = sim.peakBytes;
  *seconds = sim.recomputeSeconds;
  acSimResultClear(&sim);
  return st;
}

/* A node as sorted: its rank fields copied out, so the comparisons need no
 * context. */
typedef struct AcBeamKey {
  uint8_t stepClass;
  double key;
  int64_t fall;
  double seconds;
  int64_t peak;
  intptr_t node;
  const uint64_t *bits;
  intptr_t words;
} AcBeamKey;

static AcBeamKey acBeamKeyOf(const AcBeam *bm, intptr_t n) {
  const AcBeamNode *x = &bm->nodes[n];
  return (AcBeamKey){x->stepClass, x->key,  x->fall,  x->seconds,
                     x->peak,      n,       acBeamBits(bm, n), bm->words};
}

/* Level order: lowering steps by ratio (ties: larger fall), then steady
 * steps by extra seconds; then the smaller drop set in value order. */
static int acBeamCompare(const void *a, const void *b) {
  const AcBeamKey *x = a, *y = b;
  if (x->stepClass != y->stepClass)
    return x->stepClass < y->stepClass ? -1 : 1;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  if (x->fall != y->fall)
    return x->fall > y->fall ? -1 : 1;
  for (intptr_t w = x->words - 1; w >= 0; --w)
    if (x->bits[w] != y->bits[w])
      return x->bits[w] < y->bits[w] ? -1 : 1;
  return (x->node > y->node) - (x->node < y->node);
}

/* Front order: seconds, then peak, then visit order. */
static int acBeamCompareFront(const void *a, const void *b) {
  const AcBeamKey *x = a, *y = b;
  if (x->seconds != y->seconds)
    return x->seconds < y->seconds ? -1 : 1;
  if (x->peak != y->peak)
    return x->peak < y->peak ? -1 : 1;
  return (x->node > y->node) - (x->node < y->node);
}

void acBeamFrontDestroy(AcBeamFront *f) {
  if (!f)
    return;
  acFree(f->dropBegin);
  acFree(f->dropped);
  acFree(f->peakBytes);
  acFree(f->recomputeSeconds);
  acFree(f->initialSaved);
  acFree(f);
}

AcStatus acBeamSearch(const AcGraph *g, const uint8_t *initialSaved,
                      int64_t staticBytes, int32_t width, AcBeamFront **out,
                      AcError *err) {
  AcStatus st = AC_OK;
  AcBeam bm;
  memset(&bm, 0, sizeof bm);
  bm.g = g;
  AcPlan *plan = acPlanCreate(g);
  AcDropChecker *ck = acDropCheckerCreate(g);
  intptr_t *level = NULL;
  AcBeamKey *next = NULL, *order = NULL;
  uint64_t *child = NULL;
  AcBeamFront *f = NULL;
  intptr_t numLevel = 0, numNext = 0, capNext = 0;
  *out = NULL;
  if (width <= 0)
    width = AC_BEAM_DEFAULT_WIDTH;
  bm.vars = acMalloc(((size_t)g->numValues + 1) * sizeof *bm.vars);
  if (!plan || !ck || !bm.vars)
    goto nomem;
  if ((st = acPlanFromSaved(g, initialSaved, plan, err)) != AC_OK)
    goto cleanup;
  for (intptr_t v = 0; v < g->numValues; ++v)
    if (acDropCheckerOk(ck, initialSaved, (AcId)v))
      bm.vars[bm.numVars++] = (AcId)v;
  bm.words = (bm.numVars + 63) / 64;
  if (bm.words == 0)
    bm.words = 1;
  child = acCalloc((size_t)bm.words, sizeof *child);
  level = acMalloc((size_t)width * sizeof *level);
  if (!child || !level)
    goto nomem;
  if (!acBeamAdd(&bm, child))
    goto nomem;
  if ((st = acBeamEval(&bm, initialSaved, child, staticBytes, plan,
                       &bm.nodes[0].peak, &bm.nodes[0].seconds, err)) != AC_OK)
    goto cleanup;
  bm.nodes[0].parent = -1;
  level[numLevel++] = 0;
  while (numLevel > 0) {
    numNext = 0;
    for (intptr_t li = 0; li < numLevel; ++li) {
      intptr_t p = level[li];
      for (intptr_t k = 0; k < bm.numVars; ++k) {
        const uint64_t *pb = acBeamBits(&bm, p);
        if (pb[k / 64] >> (k % 64) & 1)
          continue;
        memcpy(child, pb, (size_t)bm.words * sizeof *child);
        child[k / 64] |= (uint64_t)1 << (k % 64);
        intptr_t slot;
        if (acBeamFind(&bm, child, &slot) >= 0)
          continue; /* visited (this level or an earlier one) */
        if (!acBeamAdd(&bm, child))
          goto nomem;
        intptr_t c = bm.numNodes - 1;
        AcBeamNode *nc = &bm.nodes[c];
        if ((st = acBeamEval(&bm, initialSaved, child, staticBytes, plan,
                             &nc->peak, &nc->seconds, err)) != AC_OK)
          goto cleanup;
        const AcBeamNode *np = &bm.nodes[p];
        nc->parent = p;
        nc->fall = np->peak - nc->peak;
        double extra = nc->seconds - np->seconds;
        if (nc->fall < 0)
          continue; /* raises the peak: archived, not expanded */
        nc->stepClass = nc->fall > 0 ? 0 : 1;
        nc->key = nc->fall > 0 ? extra / (double)nc->fall : extra;
        if (numNext == capNext) {
          intptr_t ncap = capNext ? capNext * 2 : 64;
          AcBeamKey *n = acRealloc(next, (size_t)ncap * sizeof *n);
          if (!n)
            goto nomem;
          next = n;
          capNext = ncap;
        }
        next[numNext++].node = c;
      }
    }
    /* Keys once the level is complete (bits may have moved while adding). */
    for (intptr_t i = 0; i < numNext; ++i)
      next[i] = acBeamKeyOf(&bm, next[i].node);
    if (numNext > 1)
      qsort(next, (size_t)numNext, sizeof *next, acBeamCompare);
    numLevel = numNext < width ? numNext : width;
    for (intptr_t i = 0; i < numLevel; ++i)
      level[i] = next[i].node;
  }

  /* The Pareto front of everything visited. */
  order = acMalloc((size_t)bm.numNodes * sizeof *order);
  if (!order)
    goto nomem;
  for (intptr_t n = 0; n < bm.numNodes; ++n)
    order[n] = acBeamKeyOf(&bm, n);
  qsort(order, (size_t)bm.numNodes, sizeof *order, acBeamCompareFront);
  intptr_t nf = 0, ndrops = 0;
  int64_t lowest = INT64_MAX;
  for (intptr_t i = 0; i < bm.numNodes; ++i) {
    intptr_t n = order[i].node;
    if (bm.nodes[n].peak >= lowest)
      continue;
    lowest = bm.nodes[n].peak;
    order[nf++].node = n;
    for (intptr_t w = 0; w < bm.words; ++w)
      ndrops += __builtin_popcountll(acBeamBits(&bm, n)[w]);
  }
  f = acCalloc(1, sizeof *f);
  if (!f)
    goto nomem;
  f->numPlans = nf;
  f->numValues = g->numValues;
  f->simulations = bm.numNodes;
  f->dropBegin = acMalloc(((size_t)nf + 1) * sizeof *f->dropBegin);
  f->dropped = acMalloc(((size_t)ndrops + 1) * sizeof *f->dropped);
  f->peakBytes = acMalloc(((size_t)nf + 1) * sizeof *f->peakBytes);
  f->recomputeSeconds = acMalloc(((size_t)nf + 1) * sizeof *f->recomputeSeconds);
  f->initialSaved = acMalloc((size_t)g->numValues + 1);
  if (!f->dropBegin || !f->dropped || !f->peakBytes || !f->recomputeSeconds ||
      !f->initialSaved)
    goto nomem;
  memcpy(f->initialSaved, initialSaved, (size_t)g->numValues);
  int32_t at = 0;
  for (intptr_t i = 0; i < nf; ++i) {
    intptr_t n = order[i].node;
    f->dropBegin[i] = at;
    f->peakBytes[i] = bm.nodes[n].peak;
    f->recomputeSeconds[i] = bm.nodes[n].seconds;
    for (intptr_t k = 0; k < bm.numVars; ++k)
      if (acBeamBits(&bm, n)[k / 64] >> (k % 64) & 1)
        f->dropped[at++] = bm.vars[k];
  }
  f->dropBegin[nf] = at;
  *out = f;
  f = NULL;
  goto cleanup;
nomem:
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                  "out of memory in the beam planner");
cleanup:
  acPlanDestroy(plan);
  acDropCheckerDestroy(ck);
  acFree(level);
  acFree(next);
  acFree(order);
  acFree(child);
  acFree(bm.vars);
  acFree(bm.bits);
  acFree(bm.nodes);
  acFree(bm.table);
  acBeamFrontDestroy(f);
  return st;
}

intptr_t acBeamChoose(const AcBeamFront *f, int64_t budget) {
  assert(f->numPlans > 0);
  if (budget < 0)
    return 0;
  for (intptr_t k = 0; k < f->numPlans; ++k)
    if (f->peakBytes[k] <= budget)
      return k;
  return f->numPlans - 1;
}

AcStatus acBeamPlan(const AcGraph *g, const AcBeamFront *f, intptr_t k,
                    AcPlan *plan, AcError *err) {
  if (k < 0 || k >= f->numPlans || f->numValues != g->numValues)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "beam plan %ld is out of range (0..%ld)", (long)k,
                      (long)f->numPlans - 1);
  memcpy(plan->saved, f->initialSaved, (size_t)g->numValues);
  for (int32_t i = f->dropBegin[k]; i < f->dropBegin[k + 1]; ++i)
    plan->saved[f->dropped[i]] = 0;
  return acPlanDerive(g, plan, err);
}
