/* beam.c - beam search over greedy's drops, with backtracking
 * (docs/optimality.md).
 *
 * The space is greedy's: the starting save set S0 minus any set of its
 * droppable values (a drop set; every one derives).  Every plan the search
 * looks at is simulated once and kept in an archive (a hash set of drop
 * sets); greedy's whole trajectory joins it at the start, simulated
 * already.  Then rounds: the candidates are the plans not yet expanded
 * whose recompute seconds are within AC_BEAM_SLACK (2%) of the archive's Pareto
 * front at their peak (the cheapest plan with a peak at most theirs); up to
 * `width` of them, spread evenly along the peaks, are expanded, and so are
 * up to `width` stepping stones, the best children of the previous round
 * by greedy's score (extra seconds per byte of peak fall; then the children
 * that leave the peak unchanged, by extra seconds: they let two drops lower
 * a peak that two separate steps hold, which greedy cannot do).  Expanding
 * a plan simulates its neighbours: one more drop, or one drop taken back.
 * The search stops after 2 * width * (droppable values + 1) expansions or
 * when no candidate is left.
 *
 * The result is the Pareto front of the archive in (recompute seconds,
 * peak): sorted by seconds ascending, peaks strictly decreasing.  For a
 * budget the plan is the first whose peak fits, else the last: greedy's
 * choice rule on its trajectory, so the chosen peak never rises as the
 * budget falls; the chosen plan is the cheapest visited that fits, so never
 * costlier than greedy's (whose plans are in the archive).  The search
 * ignores the budget and is deterministic. */
#include "greedy_internal.h"
#include "autoac/simulate.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

enum { AC_BEAM_DEFAULT_WIDTH = 8 };
/* Plans this much costlier than the front at their peak still get
   expanded. */
#define AC_BEAM_SLACK 0.02

typedef struct AcBeamNode {
  int64_t peak;
  double seconds;
  intptr_t parent;   /* node it was first reached from, -1 for the root */
  double key;        /* greedy's score of the step from its parent */
  int64_t fall;
  uint8_t stepClass; /* 0: lowers the peak, 1: leaves it */
  uint8_t expanded;
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

/* Peak descending, then seconds, then visit order. */
static int acBeamComparePeak(const void *a, const void *b) {
  const AcBeamKey *x = a, *y = b;
  if (x->peak != y->peak)
    return x->peak > y->peak ? -1 : 1;
  if (x->seconds != y->seconds)
    return x->seconds < y->seconds ? -1 : 1;
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

/* Appends node n to a growing id list. */
static int acBeamPushId(intptr_t **list, intptr_t *num, intptr_t *cap,
                        intptr_t n) {
  if (!acArrayGrow((void **)list, cap, *num + 1, sizeof **list))
    return 0;
  (*list)[(*num)++] = n;
  return 1;
}

/* The Pareto front of the archive into `order` (seconds ascending, peaks
 * strictly decreasing); returns its size.  `order` has numNodes entries. */
static intptr_t acBeamFront(const AcBeam *bm, AcBeamKey *order) {
  for (intptr_t n = 0; n < bm->numNodes; ++n)
    order[n] = acBeamKeyOf(bm, n);
  qsort(order, (size_t)bm->numNodes, sizeof *order, acBeamCompareFront);
  intptr_t nf = 0;
  int64_t lowest = INT64_MAX;
  for (intptr_t i = 0; i < bm->numNodes; ++i) {
    if (order[i].peak >= lowest)
      continue;
    lowest = order[i].peak;
    order[nf++] = order[i];
  }
  return nf;
}

void acBeamOptionsInit(AcBeamOptions *o) {
  memset(o, 0, sizeof *o);
  acSearchOptionsInit(&o->search);
}

AcStatus acBeamSearch(const AcGraph *g, const uint8_t *initialSaved,
                      int64_t staticBytes, int32_t width, AcBeamFront **out,
                      AcError *err) {
  AcBeamOptions o;
  acBeamOptionsInit(&o);
  o.search.staticBytes = staticBytes;
  o.width = width;
  return acBeamSearchRun(g, initialSaved, &o, out, err);
}

intptr_t acBeamMaxSimulations(const AcGraph *g) {
  intptr_t size = (intptr_t)g->numOps + g->numValues + 1;
  intptr_t n = AC_BEAM_MAX_WORK / size;
  return n < AC_BEAM_MIN_SIMULATIONS ? AC_BEAM_MIN_SIMULATIONS : n;
}

intptr_t acBeamFloorSimulations(const AcGraph *g, intptr_t droppable) {
  intptr_t size = (intptr_t)g->numOps + g->numValues + 1;
  intptr_t n = AC_FLOOR_BEAM_WORK / size;
  intptr_t e = AC_FLOOR_BEAM_EXPANSIONS * (droppable + 1);
  if (e < n)
    n = e;
  return n < AC_FLOOR_BEAM_MIN_SIMULATIONS ? AC_FLOOR_BEAM_MIN_SIMULATIONS : n;
}

int acBeamFullIsCheap(const AcGraph *g, intptr_t droppable) {
  intptr_t size = (intptr_t)g->numOps + g->numValues + 1;
  intptr_t sims = acBeamMaxSimulations(g);
  /* 2 x width x (droppable + 1) expansions of `droppable` simulations. */
  intptr_t most = (intptr_t)2 * AC_BEAM_DEFAULT_WIDTH * (droppable + 1);
  if (droppable > 0 && most > sims / droppable)
    most = sims;
  else
    most *= droppable;
  return most <= AC_FLOOR_FULL_BEAM_WORK / size;
}

/* One beam search: the archive, the options resolved, and the scratch of
 * the rounds (the plans picked for expansion, the stepping stones for the
 * next round, the children of this one). */
typedef struct AcBeamSearchState {
  AcBeam bm;
  const uint8_t *s0;
  int64_t staticBytes;
  double deadline;
  int32_t width;
  int floorOnly;
  intptr_t maxSims;
  int limited;
  AcPlan *plan;          /* scratch for acBeamEval */
  uint64_t *child;       /* [words] a drop set being built */
  int32_t *varIndex;     /* [numValues] index among vars, or -1 */
  intptr_t *pick, *stones, *kids;
  intptr_t numPick, capPick, numStones, capStones, numKids, capKids;
  AcBeamKey *keys, *order;
  AcError *err;
} AcBeamSearchState;

static void acBeamStateFree(AcBeamSearchState *s) {
  acPlanDestroy(s->plan);
  acFree(s->varIndex);
  acFree(s->pick);
  acFree(s->stones);
  acFree(s->kids);
  acFree(s->keys);
  acFree(s->order);
  acFree(s->child);
  acFree(s->bm.vars);
  acFree(s->bm.bits);
  acFree(s->bm.nodes);
  acFree(s->bm.table);
}

static AcStatus acBeamNoMem(AcBeamSearchState *s) {
  return acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory in the beam planner");
}

/* The variables (the droppable values of S0, ascending) and the root of
 * the archive: S0 itself, simulated. */
static AcStatus acBeamRoot(AcBeamSearchState *s) {
  AcBeam *bm = &s->bm;
  const AcGraph *g = bm->g;
  AcStatus st = AC_OK;
  AcDropChecker *ck = acDropCheckerCreate(g);
  s->plan = acPlanCreate(g);
  bm->vars = acMalloc(((size_t)g->numValues + 1) * sizeof *bm->vars);
  s->varIndex = acMalloc(((size_t)g->numValues + 1) * sizeof *s->varIndex);
  if (!s->plan || !ck || !bm->vars || !s->varIndex) {
    st = acBeamNoMem(s);
    goto cleanup;
  }
  if ((st = acPlanFromSaved(g, s->s0, s->plan, s->err)) != AC_OK)
    goto cleanup;
  for (intptr_t v = 0; v < g->numValues; ++v) {
    s->varIndex[v] = -1;
    if (acDropCheckerOk(ck, s->s0, (AcId)v)) {
      s->varIndex[v] = (int32_t)bm->numVars;
      bm->vars[bm->numVars++] = (AcId)v;
    }
  }
  bm->words = (bm->numVars + 63) / 64;
  if (bm->words == 0)
    bm->words = 1;
  s->child = acCalloc((size_t)bm->words, sizeof *s->child);
  if (!s->child || !acBeamAdd(bm, s->child)) {
    st = acBeamNoMem(s);
    goto cleanup;
  }
  if ((st = acBeamEval(bm, s->s0, s->child, s->staticBytes, s->plan,
                       &bm->nodes[0].peak, &bm->nodes[0].seconds,
                       s->err)) != AC_OK)
    goto cleanup;
  bm->nodes[0].parent = -1;
cleanup:
  acDropCheckerDestroy(ck);
  return st;
}

/* Greedy's trajectory joins the archive (its plans are simulated already),
 * so no budget gets a costlier plan than greedy's.  Cut short by the
 * deadline or its work limit, it leaves the search limited. */
static AcStatus acBeamAddGreedy(AcBeamSearchState *s) {
  AcBeam *bm = &s->bm;
  AcTrajectory *traj = NULL;
  AcGreedyOptions go;
  int cut = 0;
  acGreedyOptionsInit(&go);
  go.search.staticBytes = s->staticBytes;
  go.search.deadline = s->deadline;
  AcStatus st = acGreedyIncrementalRun(bm->g, s->s0, &go, &cut, &traj, s->err);
  if (st != AC_OK)
    goto cleanup;
  s->limited = cut;
  for (intptr_t k = 1; k < traj->numPlans; ++k) {
    int32_t vi = s->varIndex[traj->dropped[k]];
    if (vi < 0)
      break; /* (cannot happen: greedy drops droppable values of S0) */
    s->child[vi / 64] |= (uint64_t)1 << (vi % 64);
    intptr_t slot;
    if (acBeamFind(bm, s->child, &slot) >= 0)
      continue;
    if (!acBeamAdd(bm, s->child)) {
      st = acBeamNoMem(s);
      goto cleanup;
    }
    AcBeamNode *nc = &bm->nodes[bm->numNodes - 1];
    nc->peak = traj->peakBytes[k];
    nc->seconds = traj->recomputeSeconds[k];
    nc->parent = bm->numNodes - 2;
  }
cleanup:
  acTrajectoryDestroy(traj);
  return st;
}

/* Room for one key per archived node in `*keys`; 0 on allocation failure. */
static int acBeamKeysAlloc(AcBeamKey **keys, intptr_t n) {
  acFree(*keys);
  *keys = acMalloc(((size_t)n + 1) * sizeof **keys);
  return *keys != NULL;
}

/* Marks node n expanded and adds it to the round's picks (unless it was
 * already expanded); 0 on allocation failure. */
static int acBeamPickNode(AcBeamSearchState *s, intptr_t n) {
  if (s->bm.nodes[n].expanded)
    return 1;
  s->bm.nodes[n].expanded = 1;
  return acBeamPushId(&s->pick, &s->numPick, &s->capPick, n);
}

/* The plans to expand this round into s->pick: up to `width` unexpanded
 * plans within AC_BEAM_SLACK of the front's seconds at their peak (the
 * cheapest front plan that fits it), spread along the peaks (the lowest
 * peaks for the floor), then the stepping stones of the last round. */
static AcStatus acBeamPickRound(AcBeamSearchState *s) {
  AcBeam *bm = &s->bm;
  if (!acBeamKeysAlloc(&s->order, bm->numNodes) ||
      !acBeamKeysAlloc(&s->keys, bm->numNodes))
    return acBeamNoMem(s);
  intptr_t nf = acBeamFront(bm, s->order), nc = 0;
  for (intptr_t n = 0; n < bm->numNodes; ++n) {
    const AcBeamNode *x = &bm->nodes[n];
    if (x->expanded)
      continue;
    intptr_t lo = 0, hi = nf; /* first front plan with peak <= x->peak */
    while (lo < hi) {
      intptr_t mid = (lo + hi) / 2;
      if (s->order[mid].peak <= x->peak)
        hi = mid;
      else
        lo = mid + 1;
    }
    if (lo < nf && x->seconds <= s->order[lo].seconds * (1 + AC_BEAM_SLACK) +
                                     1e-15)
      s->keys[nc++] = acBeamKeyOf(bm, n);
  }
  if (nc > 1)
    qsort(s->keys, (size_t)nc, sizeof *s->keys, acBeamComparePeak);
  for (intptr_t i = 0; i < nc; ++i)
    s->order[i] = s->keys[i];
  intptr_t width = s->width;
  s->numPick = 0;
  for (intptr_t i = 0; i < nc && i < width; ++i) {
    /* The floor: the lowest peaks (the end of the peak order); else
       spread along the front. */
    intptr_t at = s->floorOnly ? nc - 1 - i
                  : nc <= width ? i
                                : (intptr_t)((double)i * (double)(nc - 1) /
                                                 (double)(width - 1) +
                                             0.5);
    intptr_t n = s->order[at].node;
    if (!acBeamPickNode(s, n))
      return acBeamNoMem(s);
    bm->nodes[n].expanded = 1; /* (marks duplicates of the spread too) */
  }
  for (intptr_t i = 0; i < s->numStones; ++i)
    if (!acBeamPickNode(s, s->stones[i]))
      return acBeamNoMem(s);
  return AC_OK;
}

/* Expands plan p: simulates each neighbour not visited yet (value k
 * dropped, or a drop taken back) and keeps those that do not raise the
 * peak as this round's children, scored by greedy's rule.  The work limit
 * (simulations) and the deadline stop it (s->limited): the front of what
 * was visited stands. */
static AcStatus acBeamExpand(AcBeamSearchState *s, intptr_t p) {
  AcBeam *bm = &s->bm;
  AcStatus st;
  for (intptr_t k = 0; k < bm->numVars; ++k) {
    if (bm->numNodes >= s->maxSims ||
        (s->deadline > 0 && acClockSeconds() > s->deadline)) {
      s->limited = 1;
      break;
    }
    memcpy(s->child, acBeamBits(bm, p), (size_t)bm->words * sizeof *s->child);
    s->child[k / 64] ^= (uint64_t)1 << (k % 64);
    intptr_t slot;
    if (acBeamFind(bm, s->child, &slot) >= 0)
      continue; /* visited */
    if (!acBeamAdd(bm, s->child))
      return acBeamNoMem(s);
    intptr_t c = bm->numNodes - 1;
    AcBeamNode *ncd = &bm->nodes[c];
    if ((st = acBeamEval(bm, s->s0, s->child, s->staticBytes, s->plan,
                         &ncd->peak, &ncd->seconds, s->err)) != AC_OK)
      return st;
    const AcBeamNode *np = &bm->nodes[p];
    ncd->parent = p;
    ncd->fall = np->peak - ncd->peak;
    double extra = ncd->seconds - np->seconds;
    if (ncd->fall < 0)
      continue; /* raises the peak: archived, not a stepping stone */
    ncd->stepClass = ncd->fall > 0 ? 0 : 1;
    ncd->key = ncd->fall > 0 ? extra / (double)ncd->fall : extra;
    if (!acBeamPushId(&s->kids, &s->numKids, &s->capKids, c))
      return acBeamNoMem(s);
  }
  return AC_OK;
}

/* The stepping stones for the next round: the `width` best children of
 * this one by greedy's rule (acBeamCompare). */
static AcStatus acBeamNextStones(AcBeamSearchState *s) {
  if (!acBeamKeysAlloc(&s->keys, s->numKids))
    return acBeamNoMem(s);
  for (intptr_t i = 0; i < s->numKids; ++i)
    s->keys[i] = acBeamKeyOf(&s->bm, s->kids[i]);
  if (s->numKids > 1)
    qsort(s->keys, (size_t)s->numKids, sizeof *s->keys, acBeamCompare);
  s->numStones = 0;
  for (intptr_t i = 0; i < s->numKids && i < s->width; ++i)
    if (!acBeamPushId(&s->stones, &s->numStones, &s->capStones,
                      s->keys[i].node))
      return acBeamNoMem(s);
  return AC_OK;
}

/* The Pareto front of everything visited, as an AcBeamFront. */
static AcStatus acBeamMakeFront(AcBeamSearchState *s, AcBeamFront **out) {
  const AcBeam *bm = &s->bm;
  const AcGraph *g = bm->g;
  if (!acBeamKeysAlloc(&s->order, bm->numNodes))
    return acBeamNoMem(s);
  intptr_t nf = acBeamFront(bm, s->order), ndrops = 0;
  for (intptr_t i = 0; i < nf; ++i)
    for (intptr_t w = 0; w < bm->words; ++w)
      ndrops += __builtin_popcountll(acBeamBits(bm, s->order[i].node)[w]);
  AcBeamFront *f = acCalloc(1, sizeof *f);
  if (!f)
    return acBeamNoMem(s);
  f->numPlans = nf;
  f->numValues = g->numValues;
  f->simulations = bm->numNodes;
  f->limited = s->limited;
  f->dropBegin = acMalloc(((size_t)nf + 1) * sizeof *f->dropBegin);
  f->dropped = acMalloc(((size_t)ndrops + 1) * sizeof *f->dropped);
  f->peakBytes = acMalloc(((size_t)nf + 1) * sizeof *f->peakBytes);
  f->recomputeSeconds = acMalloc(((size_t)nf + 1) * sizeof *f->recomputeSeconds);
  f->initialSaved = acMalloc((size_t)g->numValues + 1);
  if (!f->dropBegin || !f->dropped || !f->peakBytes || !f->recomputeSeconds ||
      !f->initialSaved) {
    acBeamFrontDestroy(f);
    return acBeamNoMem(s);
  }
  memcpy(f->initialSaved, s->s0, (size_t)g->numValues);
  int32_t at = 0;
  for (intptr_t i = 0; i < nf; ++i) {
    intptr_t n = s->order[i].node;
    f->dropBegin[i] = at;
    f->peakBytes[i] = bm->nodes[n].peak;
    f->recomputeSeconds[i] = bm->nodes[n].seconds;
    for (intptr_t k = 0; k < bm->numVars; ++k)
      if (acBeamBits(bm, n)[k / 64] >> (k % 64) & 1)
        f->dropped[at++] = bm->vars[k];
  }
  f->dropBegin[nf] = at;
  *out = f;
  return AC_OK;
}

AcStatus acBeamSearchRun(const AcGraph *g, const uint8_t *initialSaved,
                         const AcBeamOptions *opts, AcBeamFront **out,
                         AcError *err) {
  AcStatus st;
  AcBeamSearchState s;
  memset(&s, 0, sizeof s);
  s.bm.g = g;
  s.s0 = initialSaved;
  s.staticBytes = opts->search.staticBytes;
  s.deadline = opts->search.deadline;
  s.width = opts->width > 0 ? opts->width : AC_BEAM_DEFAULT_WIDTH;
  s.floorOnly = opts->floorOnly;
  s.maxSims = opts->maxSimulations > 0 ? opts->maxSimulations
                                       : acBeamMaxSimulations(g);
  s.err = err;
  *out = NULL;
  if ((st = acBeamRoot(&s)) != AC_OK || (st = acBeamAddGreedy(&s)) != AC_OK)
    goto cleanup;
  /* Rounds: expand up to `width` unexpanded plans of the current front,
     spread along it, and up to `width` stepping stones (the best children
     of the last round by greedy's ratio, which may not be on the front
     yet, e.g. a drop that only pays off with a second one). */
  intptr_t maxExpand = (intptr_t)s.width * 2 * (s.bm.numVars + 1), expanded = 0;
  while (expanded < maxExpand && !s.limited) {
    if ((st = acBeamPickRound(&s)) != AC_OK)
      goto cleanup;
    if (s.numPick == 0)
      break;
    s.numKids = 0;
    for (intptr_t pi = 0; pi < s.numPick && !s.limited; ++pi) {
      ++expanded;
      if ((st = acBeamExpand(&s, s.pick[pi])) != AC_OK)
        goto cleanup;
    }
    if ((st = acBeamNextStones(&s)) != AC_OK)
      goto cleanup;
  }
  st = acBeamMakeFront(&s, out);
cleanup:
  acBeamStateFree(&s);
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
