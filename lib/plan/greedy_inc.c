/* greedy_inc.c - the incremental greedy: the reference's trajectory
 * (greedy.c) without re-deriving and re-simulating every candidate at every
 * step.  docs/planner.md ("The incremental greedy") has the overview.
 *
 * The simulation is kept as explicit state and changed in place:
 *
 *  - Leaves.  The timeline is cut into one leaf per op of each schedule
 *    entry (forward entries: their forward ops; backward entries: their
 *    backward ops).  A backward leaf holds its op's recompute group: the
 *    steps of the group (ops by id) then the op itself.  Leaves never move
 *    when plans change; only the steps inside backward leaves do.
 *  - Positions.  A step is (leaf, key): key is the op id of a group step,
 *    AC_KEY_ANCHOR for the leaf's own op, AC_KEY_FIRST for "from the leaf's
 *    first step" (inputs and tangents).  Forward leaves have one step.
 *  - Slots.  Every storage (root value, schedule entry) has an interval
 *    [A, Z] of positions: its allocation and its last use, derived from the
 *    plan exactly as the simulator does (acSlotInterval).
 *  - Profile.  A slot covering all steps of a leaf adds its bytes to the
 *    leaf's "full" part; a slot with an end inside a leaf is one of the
 *    leaf's partial entries.  A leaf's summary over its steps (highest
 *    level, steps at it, second level) is full + the summary of its
 *    partial entries.  A segment tree over leaves (range add, summary
 *    combine) holds them; its root is the whole profile.
 *
 * A candidate drop v changes the plan locally: v is no longer saved; the
 * ops newly recomputed (C) and recompute ops that move into an earlier
 * group (M) all join the group of b1, the first backward op whose needs
 * reach v; groups after b1 only lose M.  The storages whose interval may
 * change are v's (forward and backward copies), the results of C and M, and
 * the operands of C and M.  Their new intervals give (a) range adds of
 * bytes over leaves they newly cover or stop covering, and (b) dirty leaves
 * (an end inside, or a changed group) whose summary is recomputed with the
 * drop's entries and steps.  Big leaves keep an index (per-step partial
 * bytes and a segment tree over their steps) so that this costs
 * O(changes log steps) rather than a pass over the leaf.  The new profile
 * is then read off the tree piece by piece: O((slots + leaves) log n).
 *
 * Each candidate's description (extra seconds, range adds, dirty-leaf
 * summaries, new intervals) is cached.  The walk, the intervals and the
 * range adds depend only on a few alias groups (ROOT items: saved flags,
 * recompute flags and anchors of their producers and readers); an accepted
 * drop marks the groups it changes and their candidates are described
 * again.  A changed dirty leaf (LEAF item) only redoes that leaf's summary.
 * Falls are never cached (the profile moves under every candidate), but
 * each description bounds its fall by the largest leaf-level reduction it
 * causes, so candidates are visited in order of extra / bound; each one
 * visited is first bounded again by its new levels at the highest leaves
 * of the current profile, and evaluated exactly only if it could still
 * beat the best so far.  The scan stops once no unvisited one can.  When no
 * drop lowers the peak, every candidate is evaluated exactly for the
 * secondary rule.  The order between drops is the exact one of
 * acDropBefore, and the extra seconds are summed as acPlanExtraSeconds
 * does, so the pick and the numbers are the reference's bit for bit. */
#include "greedy_internal.h"
#include "plan_internal.h"
#include "autoac/simulate.h"

#include <assert.h>
#include <math.h>
#ifdef AC_GREEDY_STATS
#include <stdio.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*===-------------------------- positions and summaries -------------------===*/

typedef int64_t AcPos;
enum { AC_KEY_FIRST = -1, AC_KEY_ANCHOR = INT32_MAX - 1 };

static inline AcPos acPos(int32_t leaf, int32_t key) {
  return ((int64_t)leaf << 32) | (int64_t)(uint32_t)(key + 1);
}
static inline int32_t acPosLeaf(AcPos p) { return (int32_t)(p >> 32); }
static inline int32_t acPosKey(AcPos p) {
  return (int32_t)((uint32_t)(p & 0xffffffff)) - 1;
}

/* A summary of live levels over some steps. */
typedef struct AcSum {
  int64_t m1;    /* highest level (AC_NOLEVEL: no steps) */
  int64_t c1;    /* steps at it */
  int64_t m2;    /* highest level below it (AC_NOLEVEL: none) */
} AcSum;
#define AC_NOLEVEL INT64_MIN

static const AcSum acSumNone = {AC_NOLEVEL, 0, AC_NOLEVEL};

static inline AcSum acSumShift(AcSum s, int64_t x) {
  if (s.m1 != AC_NOLEVEL)
    s.m1 += x;
  if (s.m2 != AC_NOLEVEL)
    s.m2 += x;
  return s;
}

static inline int64_t acMax64(int64_t a, int64_t b) { return a > b ? a : b; }

static inline AcSum acSumCombine(AcSum a, AcSum b) {
  AcSum r;
  if (a.m1 > b.m1) {
    r.m1 = a.m1;
    r.c1 = a.c1;
    r.m2 = acMax64(a.m2, b.m1);
  } else if (b.m1 > a.m1) {
    r.m1 = b.m1;
    r.c1 = b.c1;
    r.m2 = acMax64(b.m2, a.m1);
  } else {
    r.m1 = a.m1;
    r.c1 = a.c1 + b.c1;
    r.m2 = acMax64(a.m2, b.m2);
  }
  return r;
}

/*===-------------------------- the segment tree --------------------------===*/

/* sum[n] is the summary of node n's leaves including add[n] (and the adds
 * of nodes below it), but not the adds of its ancestors. */
typedef struct AcTree {
  intptr_t size;   /* leaves, a power of two */
  AcSum *sum;
  int64_t *add;
} AcTree;

static void acTreePull(AcTree *t, intptr_t n) {
  t->sum[n] = acSumShift(acSumCombine(t->sum[2 * n], t->sum[2 * n + 1]), t->add[n]);
}

/* Recursion over the tree's height (log2 of the leaves), not the graph. */
static void acTreeAdd(AcTree *t, intptr_t n, intptr_t lo, intptr_t hi,
                      intptr_t a, intptr_t b, int64_t x) {
  if (b < lo || hi < a)
    return;
  if (a <= lo && hi <= b) {
    t->add[n] += x;
    t->sum[n] = acSumShift(t->sum[n], x);
    return;
  }
  intptr_t mid = (lo + hi) / 2;
  acTreeAdd(t, 2 * n, lo, mid, a, b, x);
  acTreeAdd(t, 2 * n + 1, mid + 1, hi, a, b, x);
  acTreePull(t, n);
}

static AcSum acTreeQuery(const AcTree *t, intptr_t n, intptr_t lo, intptr_t hi,
                         intptr_t a, intptr_t b) {
  if (b < lo || hi < a)
    return acSumNone;
  if (a <= lo && hi <= b)
    return t->sum[n];
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

/* Sets leaf L's summary (true value, ancestors' adds included) to v. */
static void acTreeSet(AcTree *t, intptr_t leaf, AcSum v) {
  intptr_t n = t->size + leaf;
  t->sum[n] = acSumShift(v, -acTreeAbove(t, leaf));
  t->add[n] = 0;
  for (n /= 2; n >= 1; n /= 2)
    acTreePull(t, n);
}

/* True highest level of leaf L. */
static int64_t acTreeLeafTop(const AcTree *t, intptr_t leaf) {
  return t->sum[t->size + leaf].m1 + acTreeAbove(t, leaf);
}

/* The k leaves with the highest levels (ties: any), by a best-first walk;
 * returns how many (at most k, at most AC_TOP_MAX). */
enum { AC_TOP_MAX = 16 };
static int acTreeTopLeaves(const AcTree *t, int k, int32_t *leaves, int64_t *tops) {
  struct { int64_t v, acc; intptr_t n; } h[2 * AC_TOP_MAX * 64 + 4];
  int nh = 0, found = 0;
  if (t->sum[1].m1 == AC_NOLEVEL)
    return 0;
  h[nh].v = t->sum[1].m1;
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
      if (t->sum[c].m1 != AC_NOLEVEL) {
        h[nh].v = t->sum[c].m1 + acc;
        h[nh].acc = acc;
        h[nh++].n = c;
      }
  }
  return found;
}

/*===-------------------------- state -------------------------------------===*/

enum { AC_SIDE_NONE = 0, AC_SIDE_FWD, AC_SIDE_BWD, AC_SIDE_STATIC };

/* A candidate's cached description of its drop. */
typedef struct AcOpMove { AcId op, oldAnchor; } AcOpMove;
typedef struct AcSlotNew { int32_t slot; AcPos a, z; } AcSlotNew;
typedef struct AcSeg { int32_t lo, hi; int64_t amount; } AcSeg;
typedef struct AcDirty { int32_t leaf; AcSum partial; } AcDirty;
typedef struct AcRec { int32_t a, z; int64_t amount; } AcRec;

enum { AC_CAND_STALE = 0, AC_CAND_VALID, AC_CAND_DEAD };

typedef struct AcCand {
  uint32_t version;      /* of the description: dependencies carry it */
  uint32_t keyVersion;   /* of the key: heap entries carry it */
  intptr_t fresh;        /* step at which it was last described */
  int32_t numDeps;       /* items the current description is registered on */
  uint8_t state;
  double extra;          /* recompute seconds the drop adds */
  int64_t bound;         /* largest leaf-level reduction: fall <= bound */
  double key;            /* extra / bound; HUGE when bound <= 0 */
  AcId b1;
  AcOpMove *ops; int32_t numOps, capOps;
  AcSlotNew *slots; int32_t numSlots, capSlots;
  AcSeg *segs; int32_t numSegs, capSegs;
  AcDirty *dirty; int32_t numDirty, capDirty;
  /* Per dirty leaf (CSR), the touched slots' entries there: slot index * 2
     + (1 for the new interval, 0 for the old one). */
  int32_t *recFirst; int32_t capRecFirst;
  int32_t *rec; int32_t capRec;
  AcRec *recs; int32_t capRecs;      /* per record: keys in the leaf, bytes (+new, -old) */
  int32_t *ordA, *ordZ; int32_t capOrdA, capOrdZ; /* per leaf: records by start, by end key */
  AcOpMove *moved; int32_t numMoved, capMoved; /* M ops by (old anchor, op) */
  intptr_t leavesAt;     /* step at which the leaf summaries were computed */
  int64_t fall;          /* of this pick's exact evaluation */
} AcCand;

#define AC_CAND_OF(s, v) ((s)->candArr[(s)->candOf[v]])

/* Frees a candidate's description arrays (it is dead, or being torn down). */
static void acCandRelease(AcCand *c) {
  acFree(c->ops);
  acFree(c->slots);
  acFree(c->segs);
  acFree(c->dirty);
  acFree(c->recFirst);
  acFree(c->rec);
  acFree(c->recs);
  acFree(c->ordA);
  acFree(c->ordZ);
  acFree(c->moved);
  c->ops = NULL;
  c->slots = NULL;
  c->segs = NULL;
  c->dirty = NULL;
  c->recFirst = c->rec = c->ordA = c->ordZ = NULL;
  c->recs = NULL;
  c->moved = NULL;
  c->numOps = c->numSlots = c->numSegs = c->numDirty = c->numMoved = 0;
  c->capOps = c->capSlots = c->capSegs = c->capDirty = c->capRecFirst = 0;
  c->capRec = c->capRecs = c->capOrdA = c->capOrdZ = c->capMoved = 0;
}

typedef struct AcHeapItem { double key; AcId cand; uint32_t version; } AcHeapItem;

typedef struct AcInc {
  const AcGraph *g;
  int64_t staticBytes;
  int32_t *inst;             /* [numFuncs] backward instances */
  /* graph-derived */
  int32_t *rank;             /* [numOps] rank among its function's ops of its phase */
  int32_t *leafBase;         /* [numSched + 1] */
  AcId *leafOp;              /* [numLeaves] */
  int32_t *leafEntry;        /* [numLeaves] */
  intptr_t numLeaves;
  intptr_t *slotBase;        /* [numSched + 1] */
  AcId *valueBase;           /* [numFuncs + 1] */
  int32_t *entFirst, *entList; /* entries of each function, CSR [numFuncs + 1] */
  uint8_t *staticRoot;       /* [numValues] */
  AcId *parent;              /* [numValues] view parent (AC_NONE if not a view) */
  int32_t *aliasFirst;       /* [numValues + 1] CSR of values by root */
  AcId *aliasList;
  int32_t *fwdMaxRank;       /* [numValues] per root: last forward reader's rank */
  uint8_t *retFwd;           /* [numValues] per root: returned forward output */
  uint8_t *retBwd;           /* [numValues] returned non-gradient backward value */
  uint8_t *dps;              /* [numOps] may write in place of its init (acDpsOk) */
  intptr_t numSlots;
  /* plan state */
  uint8_t *saved;            /* [numValues] */
  int32_t *savedCnt;         /* [numValues] per root */
  uint8_t *recompute;        /* [numOps] */
  AcId *anchor;              /* [numOps] group anchor of a recompute op */
  AcId **grp;                /* [numOps] per anchor: its group, ops by id */
  int32_t *grpLen, *grpCap;
  int64_t savedBytes;
  /* slots and leaves */
  AcPos *slotA, *slotZ;      /* [numSlots]; slotA < 0: not allocated */
  int32_t *slotRoot;         /* [numSlots] */
  int32_t *nodeNext, *nodePrev; /* [2 * numSlots]: partial entries, per leaf */
  int32_t *nodeLeaf;
  int32_t *leafHead;         /* [numLeaves] */
  AcSum *leafPart;           /* [numLeaves] summary of the partial entries */
  AcTree tree;
  /* candidates */
  AcCand *candArr;           /* [numCand] */
  int32_t *candOf;           /* [numValues] index into candArr, or -1 */
  AcId *candList; intptr_t numCand;
  AcHeapItem *heap; intptr_t heapLen, heapCap;
  /* dependencies: item (root value or numValues + leaf) -> candidates */
  int32_t *depHead;          /* [numValues + numLeaves] */
  int32_t *depNext; AcId *depCand; uint32_t *depVer;
  intptr_t depLen, depCap;
  int32_t depFree;
  intptr_t depFreeCount, depLive; /* nodes on the free list; of current descriptions */
  AcId *staleList; intptr_t numStale;
  uint8_t *staleMark;        /* [numValues] */
  AcId *leafStaleList; intptr_t numLeafStale;
  uint8_t *leafStaleMark;    /* [numValues] */
  intptr_t step;             /* drops applied */
  intptr_t *leafChanged;     /* [numLeaves] step after which a leaf last changed */
  /* scratch */
  uint32_t epoch;
  uint32_t *opStamp;         /* [numOps] */
  uint32_t *slotStamp;       /* [numSlots] */
  uint32_t *itemStamp;       /* [numValues + numLeaves] */
  uint32_t *leafStamp;       /* [numLeaves] */
  int32_t *leafIdx;          /* [numLeaves] index of a dirty leaf in the description */
  AcId *stack;               /* [numOps + numOperands + 1] */
  int32_t *items; intptr_t numItems; /* [numValues + numLeaves] deps of a description */
  int64_t *diff;             /* [numOps + 2] */
  AcId *grpScratch;          /* [numOps + 1] */
  int32_t *stepOf;           /* [numOps] index of an op in the group at hand */
  struct AcEv { int32_t leaf; int64_t amount; } *ev; intptr_t evCap;
  int32_t *entA, *entZ; int64_t *entB; intptr_t entCap; /* entry scratch */
  struct AcLeafIdx **lix;    /* [numLeaves] indexes of big leaves, or NULL */
  struct AcKv { int64_t key, amount; } *kv[5]; intptr_t kvCap[5];
  /* counters (printed with -DAC_GREEDY_STATS) */
  intptr_t statDescribeLeaves, statDescribe, statEval, statSecondary, statPop,
      statRoot, statLeaf;
} AcInc;

/* A fresh stamp value; on wrap-around every stamp array restarts. */
static void acNextEpoch(AcInc *s) {
  if (++s->epoch != 0)
    return;
  memset(s->opStamp, 0, (size_t)s->g->numOps * sizeof *s->opStamp);
  memset(s->slotStamp, 0, (size_t)s->numSlots * sizeof *s->slotStamp);
  memset(s->itemStamp, 0,
         ((size_t)s->g->numValues + (size_t)s->numLeaves) * sizeof *s->itemStamp);
  memset(s->leafStamp, 0, (size_t)s->numLeaves * sizeof *s->leafStamp);
  s->epoch = 1;
}

static inline intptr_t acSlotOf(const AcInc *s, int32_t entry, AcId root) {
  AcId f = s->g->values[root].func;
  return s->slotBase[entry] + (root - s->valueBase[f]);
}

static inline int acLeafIsBwd(const AcInc *s, intptr_t leaf) {
  return s->g->sched[s->leafEntry[leaf]].phase == AC_PHASE_BWD;
}

/* Bwd-side resolution of value x under the current plan (as the
 * simulator's bwdSide/bwdRef): the side, and the root in *ref. */
static int acResolve(const AcInc *s, AcId x, AcId *ref) {
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
static int acSlotInterval(const AcInc *s, int32_t e, AcId r, AcPos *A, AcPos *Z) {
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
      if (acResolve(s, x, &ref) != AC_SIDE_FWD || ref != r)
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
  if (val->role == AC_ROLE_TANGENT) {
    if (s->leafBase[e] > last)
      return 0;
    *A = acPos(s->leafBase[e], AC_KEY_FIRST);
    *Z = acPos(last, AC_KEY_ANCHOR);
    return 1;
  }
  if (val->role != AC_ROLE_RESULT)
    return 0;
  AcId q = val->producer;
  if (g->ops[q].phase == AC_PHASE_BWD)
    *A = acPos(s->leafBase[e] + s->rank[q], AC_KEY_ANCHOR);
  else if (s->recompute[q])
    *A = acPos(s->leafBase[e] + s->rank[s->anchor[q]], q);
  else
    return 0;
  AcPos z = *A, zw = -1;
  AcId w = AC_NONE;
  for (int32_t i = s->aliasFirst[r]; i < s->aliasFirst[r + 1]; ++i) {
    AcId x = s->aliasList[i], ref = AC_NONE;
    if (acResolve(s, x, &ref) != AC_SIDE_BWD || ref != r)
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
  if (w != AC_NONE && z == zw) {
    /* r's last reader writes in place of it (simulate.c's acSimInPlace). */
    AcId res = g->ops[w].firstResult;
    int chain = g->ops[w].phase == AC_PHASE_BWD && g->ops[q].phase == AC_PHASE_BWD;
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

/* How an interval meets the leaves: fully covered leaves [*lo, *hi]
 * (empty when lo > hi) and up to two leaves with a partial entry. */
typedef struct AcCover {
  int32_t lo, hi;
  int32_t part[2]; int numPart;
} AcCover;

static AcCover acCoverOf(int has, AcPos A, AcPos Z) {
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
static void acClip(AcPos A, AcPos Z, int32_t leaf, int32_t *a, int32_t *z) {
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
static int32_t acLowerBound(const AcId *grp, int32_t n, int32_t k) {
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
  return acLowerBound(grp, ng, z + 1) - 1;
}

/* Summary of a leaf's partial entries over its steps (group then anchor). */
static AcSum acPartialSum(AcInc *s, const AcId *grp, int32_t ng,
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
  for (int32_t k = 0; k <= ng; ++k) {
    live += diff[k];
    AcSum one = {live, 1, AC_NOLEVEL};
    r = acSumCombine(r, one);
  }
  return r;
}

/* Entry scratch, grown on demand. */
static int acEntReserve(AcInc *s, intptr_t n) {
  if (n <= s->entCap)
    return 1;
  intptr_t c = s->entCap ? s->entCap : 64;
  while (c < n)
    c *= 2;
  int32_t *a = acRealloc(s->entA, (size_t)c * sizeof *a);
  if (a)
    s->entA = a;
  int32_t *z = acRealloc(s->entZ, (size_t)c * sizeof *z);
  if (z)
    s->entZ = z;
  int64_t *b = acRealloc(s->entB, (size_t)c * sizeof *b);
  if (b)
    s->entB = b;
  if (!a || !z || !b)
    return 0;
  s->entCap = c;
  return 1;
}

/* The partial summary of leaf L from its current entries; with a
 * description, touched slots use their new intervals and the leaf's group
 * is `grp`. */
static int acLeafPartialNow(AcInc *s, int32_t leaf, const AcId *grp, int32_t ng,
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
    acClip(s->slotA[sl], s->slotZ[sl], leaf, &ka[m], &kz[m]);
    s->entB[m++] = s->g->values[s->slotRoot[sl]].bytes;
  }
  for (intptr_t r = 0; r < nrec; ++r) {
    if (!(rec[r] & 1))
      continue; /* old entries of touched slots are skipped above */
    const AcSlotNew *sn = &d->slots[rec[r] >> 1];
    acClip(sn->a, sn->z, leaf, &ka[m], &kz[m]);
    s->entB[m++] = s->g->values[s->slotRoot[sn->slot]].bytes;
  }
  *out = acPartialSum(s, grp, ng, ka, kz, s->entB, m);
  return 1;
}

/*===-------------------------- leaf indexes ------------------------------===*/

/* Leaves with at least this many steps get an index (greedy_internal.h). */
int acGreedyLeafIndexMin = 48;

/* A big backward leaf as it is now: partial live bytes per step (pl), the
 * bytes of entries starting exactly at each step (st: the cut just before
 * step k is pl[k] - st[k]), and a segment tree of per-step summaries.  A
 * candidate's changes to the leaf then cost O(changes log steps) instead of
 * a pass over the leaf.  Built on demand, dropped when the leaf changes. */
typedef struct AcLeafIdx {
  int32_t n, size;  /* steps (group + anchor); tree leaves */
  int64_t *pl, *st;
  int64_t *en;      /* bytes of entries ending just before step k (an end
                       key of acPosBefore): they also cover ops joining the
                       group at the cut before step k */
  AcSum *tree;
} AcLeafIdx;

static void acLeafIdxFree(AcLeafIdx *x) {
  if (!x)
    return;
  acFree(x->pl);
  acFree(x->st);
  acFree(x->en);
  acFree(x->tree);
  acFree(x);
}

static AcLeafIdx *acLeafIdxGet(AcInc *s, int32_t leaf) {
  if (s->lix[leaf])
    return s->lix[leaf];
  AcId b = s->leafOp[leaf];
  const AcId *grp = s->grp[b];
  int32_t ng = s->grpLen[b], n = ng + 1;
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
    acClip(s->slotA[sl], s->slotZ[sl], leaf, &a, &z);
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
    x->tree[x->size + k] = (AcSum){live, 1, AC_NOLEVEL};
  }
  for (int32_t k = n; k < x->size; ++k)
    x->tree[x->size + k] = acSumNone;
  for (int32_t k = x->size - 1; k >= 1; --k)
    x->tree[k] = acSumCombine(x->tree[2 * k], x->tree[2 * k + 1]);
  s->lix[leaf] = x;
  return x;
}

static AcSum acLeafIdxQuery(const AcLeafIdx *x, int32_t lo, int32_t hi) {
  AcSum r = acSumNone;
  for (lo += x->size, hi += x->size + 1; lo < hi; lo /= 2, hi /= 2) {
    if (lo & 1)
      r = acSumCombine(r, x->tree[lo++]);
    if (hi & 1)
      r = acSumCombine(r, x->tree[--hi]);
  }
  return r;
}

static int acKvReserve(AcInc *s, int which, intptr_t n) {
  if (n <= s->kvCap[which])
    return 1;
  intptr_t c = s->kvCap[which] ? s->kvCap[which] : 64;
  while (c < n)
    c *= 2;
  struct AcKv *p = acRealloc(s->kv[which], (size_t)c * sizeof *p);
  if (!p)
    return 0;
  s->kv[which] = p;
  s->kvCap[which] = c;
  return 1;
}

/*===-------------------------- dependencies ------------------------------===*/

/* The dependency item of value x: its alias group (storage root), except
 * for a view of a static storage (a parameter's transpose): no slot, no
 * interval, so what a description reads there is only the state of the op
 * making x, and x itself is the item.  (A parameter's alias group is read
 * by every layer using it: as one item, any drop touching one layer's view
 * would re-describe every candidate of every layer sharing the weight.) */
static inline int32_t acItemOf(const AcInc *s, AcId x) {
  AcId r = s->g->values[x].aliasRoot;
  return s->staticRoot[r] ? x : r;
}

static void acItemAdd(AcInc *s, int32_t item) {
  if (s->itemStamp[item] == s->epoch)
    return;
  s->itemStamp[item] = s->epoch;
  s->items[s->numItems++] = item;
}

/* Registrations of older descriptions pile up on items that never change:
 * when most of the pool is such garbage, every list is swept. */
static void acDepCollect(AcInc *s) {
  intptr_t items = s->g->numValues + s->numLeaves;
  for (intptr_t item = 0; item < items; ++item) {
    int32_t *link = &s->depHead[item];
    while (*link >= 0) {
      int32_t nd = *link;
      const AcCand *c = &AC_CAND_OF(s, s->depCand[nd]);
      if (c->version == s->depVer[nd] && c->state != AC_CAND_DEAD) {
        link = &s->depNext[nd];
        continue;
      }
      *link = s->depNext[nd];
      s->depNext[nd] = s->depFree;
      s->depFree = nd;
      s->depFreeCount++;
    }
  }
}

static int acDepRegister(AcInc *s, AcId c) {
  if (s->depFree < 0 && s->depLen + s->numItems > s->depCap &&
      s->depLen - s->depFreeCount > 2 * s->depLive + 4096)
    acDepCollect(s);
  AC_CAND_OF(s, c).numDeps = (int32_t)s->numItems;
  s->depLive += s->numItems;
  for (intptr_t i = 0; i < s->numItems; ++i) {
    int32_t nd = s->depFree;
    if (nd >= 0) {
      s->depFree = s->depNext[nd];
      s->depFreeCount--;
    } else {
      if (s->depLen == s->depCap) {
        intptr_t nc = s->depCap ? s->depCap * 2 : 1024;
        int32_t *nx = acRealloc(s->depNext, (size_t)nc * sizeof *nx);
        if (nx)
          s->depNext = nx;
        AcId *cd = acRealloc(s->depCand, (size_t)nc * sizeof *cd);
        if (cd)
          s->depCand = cd;
        uint32_t *vr = acRealloc(s->depVer, (size_t)nc * sizeof *vr);
        if (vr)
          s->depVer = vr;
        if (!nx || !cd || !vr)
          return 0;
        s->depCap = nc;
      }
      nd = (int32_t)s->depLen++;
    }
    int32_t item = s->items[i];
    s->depCand[nd] = c;
    s->depVer[nd] = AC_CAND_OF(s, c).version;
    s->depNext[nd] = s->depHead[item];
    s->depHead[item] = nd;
  }
  return 1;
}

static void acMarkStale(AcInc *s, AcId c) {
  if (s->staleMark[c])
    return;
  s->staleMark[c] = 1;
  s->staleList[s->numStale++] = c;
}

/* An item changed.  A root: its registered candidates are described again
 * (and register anew).  A leaf: their leaf summaries are redone; their
 * registrations stay, stale ones (older descriptions) are dropped. */
static void acItemChanged(AcInc *s, int32_t item) {
  int leaf = item >= s->g->numValues;
  int32_t nd = s->depHead[item], *link = &s->depHead[item];
  while (nd >= 0) {
    int32_t next = s->depNext[nd];
    AcId c = s->depCand[nd];
    int valid = AC_CAND_OF(s, c).version == s->depVer[nd] && AC_CAND_OF(s, c).state == AC_CAND_VALID;
    if (valid && !leaf) {
      if (!s->staleMark[c])
        s->statRoot++;
      acMarkStale(s, c);
    } else if (valid) {
      if (!s->leafStaleMark[c]) {
        s->statLeaf++;
        s->leafStaleMark[c] = 1;
        s->leafStaleList[s->numLeafStale++] = c;
      }
      link = &s->depNext[nd];
      nd = next;
      continue;
    }
    *link = next;
    s->depNext[nd] = s->depFree;
    s->depFree = nd;
    s->depFreeCount++;
    nd = next;
  }
}

/*===-------------------------- descriptions ------------------------------===*/

#define AC_GROW(arr, num, cap, need)                                           \
  do {                                                                         \
    if ((need) > (cap)) {                                                      \
      int32_t nc_ = (cap) ? (cap) : 8;                                         \
      while (nc_ < (need))                                                     \
        nc_ *= 2;                                                              \
      void *p_ = acRealloc((arr), (size_t)nc_ * sizeof *(arr));                \
      if (!p_)                                                                 \
        goto nomem;                                                            \
      (arr) = p_;                                                              \
      (cap) = nc_;                                                             \
    }                                                                          \
  } while (0)

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
  AC_GROW(d->slots, d->numSlots, d->capSlots, d->numSlots + 1);
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
  if (*n == s->evCap) {
    intptr_t c = s->evCap ? s->evCap * 2 : 256;
    struct AcEv *e = acRealloc(s->ev, (size_t)c * sizeof *e);
    if (!e)
      return 0;
    s->ev = e;
    s->evCap = c;
  }
  s->ev[*n].leaf = leaf;
  s->ev[*n].amount = amount;
  (*n)++;
  return 1;
}

static int acDirtyAdd(AcInc *s, AcCand *d, int32_t leaf) {
  if (s->leafStamp[leaf] == s->epoch)
    return 1;
  s->leafStamp[leaf] = s->epoch;
  AC_GROW(d->dirty, d->numDirty, d->capDirty, d->numDirty + 1);
  d->dirty[d->numDirty].leaf = leaf;
  d->dirty[d->numDirty].partial = acSumNone;
  d->numDirty++;
  acItemAdd(s, (int32_t)(s->g->numValues + leaf));
  return 1;
nomem:
  return 0;
}

/* Amount of the description's range adds at `leaf`. */
static int64_t acSegAt(const AcCand *d, int32_t leaf) {
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

static const AcDirty *acDirtyAt(const AcCand *d, int32_t leaf) {
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
    span[j].key = a == AC_KEY_FIRST ? 0 : a == AC_KEY_ANCHOR ? ng : acLowerBound(grp, ng, a);
    span[j].amount = z == AC_KEY_ANCHOR ? ng + 1 : acLowerBound(grp, ng, z + 1);
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
  int32_t nextRem = nmv > 0 ? acLowerBound(grp, ng, mv[0].op) : INT32_MAX;
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
      nextRem = im < nmv ? acLowerBound(grp, ng, mv[im].op) : INT32_MAX;
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
      int32_t k = acLowerBound(grp, ng, q);
      int64_t v = x->pl[k] - x->st[k] + x->en[k] + cover;
      r = acSumCombine(r, (AcSum){v, 1, AC_NOLEVEL});
    }
  }
  *out = r;
  return 1;
}

static int acDescribeLeaves(AcInc *s, AcCand *d, int all);

/* Describes dropping candidate v from the current plan (d's arrays are
 * reused).  Marks the candidate DEAD when v is no longer droppable. */
static AcStatus acDescribe(AcInc *s, AcId v, AcError *err) {
  const AcGraph *g = s->g;
  s->statDescribe++;
  AcCand *d = &AC_CAND_OF(s, v);
  const AcValue *val = &g->values[v];
  AcId p = val->producer;
  AcId f = val->func;
  d->version++; /* older registrations and heap entries lapse */
  s->depLive -= d->numDeps;
  d->numDeps = 0;
  d->numOps = d->numSlots = d->numSegs = d->numDirty = 0;
  d->state = AC_CAND_DEAD;
  if (!s->saved[v]) {
    acCandRelease(d);
    return AC_OK;
  }
  acNextEpoch(s);
  s->numItems = 0;
  acItemAdd(s, v);

  /* b1: the first backward op whose needs reach v. */
  AcId b1 = AC_NONE;
  for (int32_t k = 0; k < val->numUses; ++k) {
    AcId u = acValueUse(g, v, k);
    AcId b = g->ops[u].phase == AC_PHASE_BWD ? u
             : s->recompute[u]               ? s->anchor[u]
                                             : AC_NONE;
    if (b != AC_NONE && (b1 == AC_NONE || b < b1))
      b1 = b;
  }
  d->b1 = b1;

  /* The walk from p through values that are not saved: ops not recomputed
     join C (and must be recomputable), recompute ops anchored after b1 move
     (M); recompute ops anchored at or before b1 stay, with their needs. */
  int ok = 1;
  intptr_t sp = 0;
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
        ok = 0;
        break;
      }
      join = b1 != AC_NONE;
    } else {
      if (b1 == AC_NONE || s->anchor[q] <= b1)
        continue; /* stays; its needs are recomputed already */
      join = 1;
    }
    if (join) {
      AC_GROW(d->ops, d->numOps, d->capOps, d->numOps + 1);
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
  if (!ok) {
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

  /* Extra seconds: newly recomputed ops by id, as acPlanExtraSeconds sums. */
  if (!acKvReserve(s, 3, (intptr_t)d->numOps + 1) ||
      !acKvReserve(s, 4, (intptr_t)d->numOps + 1))
    goto nomem;
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

  /* Touched slots, in every instance of f. */
  for (int32_t k = s->entFirst[f]; k < s->entFirst[f + 1]; ++k) {
    int32_t e = s->entList[k];
    if (!acTouchSlot(s, d, e, v))
      goto nomem;
  }
  /* Apply the plan change tentatively to resolve the new reads. */
  s->saved[v] = 0;
  s->savedCnt[v]--;
  for (int32_t i = 0; i < d->numOps; ++i) {
    AcId q = d->ops[i].op;
    s->recompute[q] = 1;
    s->anchor[q] = b1;
  }
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
          goto nomemRevert;
      }
      for (int32_t o = 0; o < op->numOperands; ++o) {
        AcId ref = AC_NONE;
        int side = acResolve(s, acOpOperand(g, q, o), &ref);
        int ok2 = 1;
        if (side == AC_SIDE_FWD)
          ok2 = acTouchSlot(s, d, g->sched[e].partner, ref);
        else if (side == AC_SIDE_BWD)
          ok2 = acTouchSlot(s, d, e, ref);
        if (!ok2)
          goto nomemRevert;
      }
    }
  }
  /* New intervals. */
  for (int32_t i = 0; i < d->numSlots; ++i) {
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
  /* Revert. */
  s->saved[v] = 1;
  s->savedCnt[v]++;
  for (int32_t i = 0; i < d->numOps; ++i) {
    AcId q = d->ops[i].op;
    s->anchor[q] = d->ops[i].oldAnchor;
    s->recompute[q] = d->ops[i].oldAnchor != AC_NONE;
  }

  /* Range adds (full coverage changes) and dirty leaves. */
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
        goto nomem;
      if (cn.lo <= cn.hi && (!acEvPush(s, &nev, cn.lo, bytes) ||
                             !acEvPush(s, &nev, cn.hi + 1, -bytes)))
        goto nomem;
    }
    int same = sn->a == s->slotA[sl] && sn->z == s->slotZ[sl] &&
               (sn->a >= 0) == (s->slotA[sl] >= 0);
    if (!same) {
      for (int k = 0; k < co.numPart; ++k)
        if (!acDirtyAdd(s, d, co.part[k]))
          goto nomem;
      for (int k = 0; k < cn.numPart; ++k)
        if (!acDirtyAdd(s, d, cn.part[k]))
          goto nomem;
    }
  }
  if (d->numOps > 0) {
    for (int32_t k = s->entFirst[f]; k < s->entFirst[f + 1]; ++k) {
      int32_t e = s->entList[k];
      if (g->sched[e].phase != AC_PHASE_BWD)
        continue;
      if (!acDirtyAdd(s, d, s->leafBase[e] + s->rank[b1]))
        goto nomem;
      for (int32_t i = 0; i < d->numOps; ++i)
        if (d->ops[i].oldAnchor != AC_NONE &&
            !acDirtyAdd(s, d, s->leafBase[e] + s->rank[d->ops[i].oldAnchor]))
          goto nomem;
    }
  }
  if (!acKvReserve(s, 3, nev + 1) || !acKvReserve(s, 4, nev + 1))
    goto nomem;
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
      AC_GROW(d->segs, d->numSegs, d->capSegs, d->numSegs + 1);
      d->segs[d->numSegs].lo = leaf;
      d->segs[d->numSegs].hi = next - 1;
      d->segs[d->numSegs].amount = run;
      d->numSegs++;
    }
  }
  assert(run == 0);
  AC_SORT(d->dirty, d->numDirty, AcDirty, y_->leaf > a_->leaf, acCompareDirty);
  if (!acDescribeLeaves(s, d, 1))
    goto nomem;
  d->state = AC_CAND_VALID;
  d->fresh = s->step;
  d->keyVersion++;
  if (!acDepRegister(s, v))
    goto nomem;
  return AC_OK;
nomemRevert:
  s->saved[v] = 1;
  s->savedCnt[v]++;
  for (int32_t i = 0; i < d->numOps; ++i) {
    AcId q = d->ops[i].op;
    s->anchor[q] = d->ops[i].oldAnchor;
    s->recompute[q] = d->ops[i].oldAnchor != AC_NONE;
  }
nomem:
  d->state = AC_CAND_STALE;
  return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory in the greedy planner");
}

/* The dirty leaves' partial summaries after the drop, the bound and the
 * key.  Needs the description's touched slots, moving ops and dirty leaves
 * stamped with the current epoch.  0 on NOMEM. */
static int acDescribeLeaves(AcInc *s, AcCand *d, int all) {
  /* Records: each touched slot's old and new partial entries, by dirty leaf
     (kept: a refresh of the leaf summaries reuses them). */
  if (all) {
    AC_GROW(d->recFirst, 0, d->capRecFirst, d->numDirty + 2);
    AC_GROW(d->rec, 0, d->capRec, 4 * d->numSlots + 1);
    memset(d->recFirst, 0, ((size_t)d->numDirty + 2) * sizeof *d->recFirst);
    for (int32_t i = 0; i < d->numDirty; ++i)
      s->leafIdx[d->dirty[i].leaf] = i;
  }
  for (int pass = 0; pass < 2 && all; ++pass) {
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
  if (all) {
    /* Keys and bytes of each record; per leaf, the records ordered by start
       and by end key; the M ops by old anchor.  Kept for refreshes. */
    int32_t nrec = d->recFirst[d->numDirty];
    AC_GROW(d->recs, 0, d->capRecs, nrec + 1);
    AC_GROW(d->ordA, 0, d->capOrdA, nrec + 1);
    AC_GROW(d->ordZ, 0, d->capOrdZ, nrec + 1);
    if (!acKvReserve(s, 1, (intptr_t)nrec + 1) || !acKvReserve(s, 4, (intptr_t)nrec + 1))
      goto nomem;
    for (int32_t i = 0; i < d->numDirty; ++i) {
      int32_t leaf = d->dirty[i].leaf, r0 = d->recFirst[i], r1 = d->recFirst[i + 1];
      for (int32_t r = r0; r < r1; ++r) {
        const AcSlotNew *sn = &d->slots[d->rec[r] >> 1];
        intptr_t sl = sn->slot;
        int64_t bytes = s->g->values[s->slotRoot[sl]].bytes;
        if (d->rec[r] & 1) {
          acClip(sn->a, sn->z, leaf, &d->recs[r].a, &d->recs[r].z);
          d->recs[r].amount = bytes;
        } else {
          acClip(s->slotA[sl], s->slotZ[sl], leaf, &d->recs[r].a, &d->recs[r].z);
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
    d->numMoved = 0;
    AC_GROW(d->moved, 0, d->capMoved, d->numOps + 1);
    for (int32_t i = 0; i < d->numOps; ++i)
      if (d->ops[i].oldAnchor != AC_NONE)
        d->moved[d->numMoved++] = d->ops[i];
    /* d->ops is sorted by op: a stable sort by old anchor orders by both. */
    if (!acKvReserve(s, 3, (intptr_t)d->numMoved + 1))
      goto nomem;
    for (int32_t i = 0; i < d->numMoved; ++i)
      s->kv[3][i] = (struct AcKv){d->moved[i].oldAnchor, d->moved[i].op};
    acSortKv(s->kv[3], d->numMoved, s->kv[4]);
    for (int32_t i = 0; i < d->numMoved; ++i) {
      d->moved[i].oldAnchor = (AcId)s->kv[3][i].key;
      d->moved[i].op = (AcId)s->kv[3][i].amount;
    }
  }
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
  /* The bound: the largest reduction of a leaf's highest level. */
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
  return 1;
nomem:
  return 0;
}

/* A dirty leaf of candidate v changed under it: only its leaf summaries,
 * bound and key are redone (the walk, intervals and range adds depend on
 * alias groups alone). */
static int acRefreshLeaves(AcInc *s, AcId v) {
  AcCand *d = &AC_CAND_OF(s, v);
  acNextEpoch(s);
  for (int32_t i = 0; i < d->numSlots; ++i)
    s->slotStamp[d->slots[i].slot] = s->epoch;
  for (int32_t i = 0; i < d->numOps; ++i)
    s->opStamp[d->ops[i].op] = s->epoch;
  if (!acDescribeLeaves(s, d, 0))
    return 0;
  d->keyVersion++;
  return 1;
}

/* The profile after the described drop. */
static AcProfileTop acEvalProfile(AcInc *s, const AcCand *d) {
  s->statEval++;
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

static AcProfileTop acCurrentProfile(const AcInc *s) {
  AcProfileTop r = {0, 0, -1};
  AcSum t = s->tree.sum[1];
  if (s->numLeaves > 0 && t.m1 != AC_NOLEVEL) {
    r.top = t.m1;
    r.count = t.c1;
    r.second = t.m2 == AC_NOLEVEL ? -1 : t.m2;
  }
  return r;
}

/*===-------------------------- applying a drop ---------------------------===*/

static void acNodeUnlink(AcInc *s, int32_t nd) {
  int32_t leaf = s->nodeLeaf[nd];
  if (leaf < 0)
    return;
  if (s->nodePrev[nd] >= 0)
    s->nodeNext[s->nodePrev[nd]] = s->nodeNext[nd];
  else
    s->leafHead[leaf] = s->nodeNext[nd];
  if (s->nodeNext[nd] >= 0)
    s->nodePrev[s->nodeNext[nd]] = s->nodePrev[nd];
  s->nodeLeaf[nd] = -1;
}

static void acNodeLink(AcInc *s, int32_t nd, int32_t leaf) {
  assert(s->nodeLeaf[nd] < 0);
  s->nodeLeaf[nd] = leaf;
  s->nodePrev[nd] = -1;
  s->nodeNext[nd] = s->leafHead[leaf];
  if (s->leafHead[leaf] >= 0)
    s->nodePrev[s->leafHead[leaf]] = nd;
  s->leafHead[leaf] = nd;
}

/* Links slot sl's partial entries for its current interval. */
static void acSlotLink(AcInc *s, intptr_t sl) {
  AcCover c = acCoverOf(s->slotA[sl] >= 0, s->slotA[sl], s->slotZ[sl]);
  for (int k = 0; k < c.numPart; ++k)
    acNodeLink(s, (int32_t)(2 * sl + k), c.part[k]);
}

/* Moves the description's ops into b1's group (merged by id) and out of
 * their old groups (each filtered once). */
static int acGroupsMove(AcInc *s, const AcCand *d) {
  AcId b1 = d->b1;
  int32_t need = s->grpLen[b1] + d->numOps;
  if (need > s->grpCap[b1]) {
    int32_t nc = s->grpCap[b1] ? s->grpCap[b1] : 4;
    while (nc < need)
      nc *= 2;
    AcId *n = acRealloc(s->grp[b1], (size_t)nc * sizeof *n);
    if (!n)
      return 0;
    s->grp[b1] = n;
    s->grpCap[b1] = nc;
  }
  acNextEpoch(s);
  for (int32_t i = 0; i < d->numOps; ++i)
    s->opStamp[d->ops[i].op] = s->epoch;
  for (int32_t i = 0; i < d->numOps; ++i) {
    AcId a = d->ops[i].oldAnchor;
    /* Anchors are backward ops, never moving: their stamp says "done". */
    if (a == AC_NONE || s->opStamp[a] == s->epoch)
      continue;
    s->opStamp[a] = s->epoch;
    int32_t n = 0;
    for (int32_t k = 0; k < s->grpLen[a]; ++k)
      if (s->opStamp[s->grp[a][k]] != s->epoch)
        s->grp[a][n++] = s->grp[a][k];
    s->grpLen[a] = n;
  }
  /* Merge from the back into b1's array. */
  int32_t i = s->grpLen[b1] - 1, j = d->numOps - 1, k = need - 1;
  while (j >= 0) {
    if (i >= 0 && s->grp[b1][i] > d->ops[j].op)
      s->grp[b1][k--] = s->grp[b1][i--];
    else
      s->grp[b1][k--] = d->ops[j--].op;
  }
  s->grpLen[b1] = need;
  return 1;
}

static AcStatus acApply(AcInc *s, AcId v, AcError *err) {
  const AcGraph *g = s->g;
  AcCand *d = &AC_CAND_OF(s, v);
  assert(d->state == AC_CAND_VALID);
  /* Items whose state changes: the root of v, and the alias groups every
     moving op reads or produces. */
  acItemChanged(s, v);
  for (int32_t i = 0; i < d->numOps; ++i) {
    const AcOp *op = &g->ops[d->ops[i].op];
    for (int32_t r = 0; r < op->numResults; ++r)
      acItemChanged(s, acItemOf(s, op->firstResult + r));
    for (int32_t o = 0; o < op->numOperands; ++o) {
      AcId x = acOpOperand(g, d->ops[i].op, o);
      acItemChanged(s, acItemOf(s, x));
    }
  }
  for (int32_t i = 0; i < d->numDirty; ++i)
    acItemChanged(s, (int32_t)(g->numValues + d->dirty[i].leaf));
  for (int32_t i = 0; i < d->numSlots; ++i)
    acItemChanged(s, s->slotRoot[d->slots[i].slot]);
  /* The plan. */
  s->saved[v] = 0;
  if (--s->savedCnt[v] == 0)
    s->savedBytes -= g->values[v].bytes;
  if (d->numOps > 0 && !acGroupsMove(s, d))
    goto nomem;
  for (int32_t i = 0; i < d->numOps; ++i) {
    AcId q = d->ops[i].op;
    s->recompute[q] = 1;
    s->anchor[q] = d->b1;
  }
  /* Slots. */
  for (int32_t i = 0; i < d->numSlots; ++i) {
    intptr_t sl = d->slots[i].slot;
    acNodeUnlink(s, (int32_t)(2 * sl));
    acNodeUnlink(s, (int32_t)(2 * sl + 1));
    s->slotA[sl] = d->slots[i].a;
    s->slotZ[sl] = d->slots[i].z;
    acSlotLink(s, sl);
  }
  /* The tree: full-coverage changes, then the dirty leaves. */
  for (int32_t i = 0; i < d->numSegs; ++i)
    acTreeAdd(&s->tree, 1, 0, s->tree.size - 1, d->segs[i].lo, d->segs[i].hi,
              d->segs[i].amount);
  for (int32_t i = 0; i < d->numDirty; ++i) {
    int32_t leaf = d->dirty[i].leaf;
    acLeafIdxFree(s->lix[leaf]);
    s->lix[leaf] = NULL;
    s->leafChanged[leaf] = s->step + 1;
    int64_t full = acTreeLeafTop(&s->tree, leaf) - s->leafPart[leaf].m1;
    AcSum part;
    AcId b = s->leafOp[leaf];
    int bwd = acLeafIsBwd(s, leaf);
    if (!acLeafPartialNow(s, leaf, bwd ? s->grp[b] : NULL, bwd ? s->grpLen[b] : 0,
                          NULL, NULL, 0, &part))
      goto nomem;
    assert(part.m1 == d->dirty[i].partial.m1 && part.c1 == d->dirty[i].partial.c1 &&
           part.m2 == d->dirty[i].partial.m2);
    s->leafPart[leaf] = part;
    acTreeSet(&s->tree, leaf, acSumShift(part, full));
  }
  d->state = AC_CAND_DEAD;
  s->depLive -= d->numDeps;
  d->numDeps = 0;
  acCandRelease(d);
  s->step++;
  return AC_OK;
nomem:
  return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory in the greedy planner");
}

/*===-------------------------- the heap ----------------------------------===*/

static int acHeapLess(const AcHeapItem *a, const AcHeapItem *b) {
  if (a->key != b->key)
    return a->key < b->key;
  return a->cand < b->cand;
}

static int acHeapPush(AcInc *s, AcId c) {
  if (s->heapLen == s->heapCap) {
    intptr_t nc = s->heapCap ? s->heapCap * 2 : 256;
    AcHeapItem *h = acRealloc(s->heap, (size_t)nc * sizeof *h);
    if (!h)
      return 0;
    s->heap = h;
    s->heapCap = nc;
  }
  intptr_t i = s->heapLen++;
  AcHeapItem it = {AC_CAND_OF(s, c).key, c, AC_CAND_OF(s, c).keyVersion};
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

/*===-------------------------- setup -------------------------------------===*/

static void acIncFree(AcInc *s) {
  const AcGraph *g = s->g;
  acFree(s->inst);
  acFree(s->rank);
  acFree(s->leafBase);
  acFree(s->leafOp);
  acFree(s->leafEntry);
  acFree(s->slotBase);
  acFree(s->valueBase);
  acFree(s->entFirst);
  acFree(s->entList);
  acFree(s->staticRoot);
  acFree(s->parent);
  acFree(s->aliasFirst);
  acFree(s->aliasList);
  acFree(s->fwdMaxRank);
  acFree(s->retFwd);
  acFree(s->retBwd);
  acFree(s->dps);
  acFree(s->saved);
  acFree(s->savedCnt);
  acFree(s->recompute);
  acFree(s->anchor);
  if (s->grp)
    for (intptr_t o = 0; o < g->numOps; ++o)
      acFree(s->grp[o]);
  acFree(s->grp);
  acFree(s->grpLen);
  acFree(s->grpCap);
  acFree(s->slotA);
  acFree(s->slotZ);
  acFree(s->slotRoot);
  acFree(s->nodeNext);
  acFree(s->nodePrev);
  acFree(s->nodeLeaf);
  acFree(s->leafHead);
  acFree(s->leafPart);
  if (s->lix)
    for (intptr_t L = 0; L < s->numLeaves; ++L)
      acLeafIdxFree(s->lix[L]);
  acFree(s->lix);
  for (int k = 0; k < 5; ++k)
    acFree(s->kv[k]);
  acFree(s->tree.sum);
  acFree(s->tree.add);
  if (s->candArr)
    for (intptr_t i = 0; i < s->numCand; ++i)
      acCandRelease(&s->candArr[i]);
  acFree(s->candArr);
  acFree(s->candOf);
  acFree(s->candList);
  acFree(s->heap);
  acFree(s->depHead);
  acFree(s->depNext);
  acFree(s->depCand);
  acFree(s->depVer);
  acFree(s->staleList);
  acFree(s->staleMark);
  acFree(s->leafStaleList);
  acFree(s->leafStaleMark);
  acFree(s->opStamp);
  acFree(s->slotStamp);
  acFree(s->itemStamp);
  acFree(s->leafStamp);
  acFree(s->leafIdx);
  acFree(s->leafChanged);
  acFree(s->stack);
  acFree(s->items);
  acFree(s->diff);
  acFree(s->grpScratch);
  acFree(s->stepOf);
  acFree(s->ev);
  acFree(s->entA);
  acFree(s->entZ);
  acFree(s->entB);
}

/* Builds the graph tables and the state of plan `plan` (derived). */
static AcStatus acIncInit(AcInc *s, const AcPlan *plan, AcError *err) {
  const AcGraph *g = s->g;
  AcStatus st = AC_OK;
  AcRecomputeGroups *groups = NULL;
  intptr_t nV = g->numValues, nO = g->numOps, nF = g->numFuncs, nS = g->numSched;
#define AC_ALLOC(p, n) (((p) = acCalloc((size_t)(n) + 1, sizeof *(p))) != NULL)
  if (!AC_ALLOC(s->inst, nF) || !AC_ALLOC(s->rank, nO) ||
      !AC_ALLOC(s->leafBase, nS + 1) || !AC_ALLOC(s->slotBase, nS + 1) ||
      !AC_ALLOC(s->valueBase, nF + 1) ||
      !AC_ALLOC(s->entFirst, nF + 1) || !AC_ALLOC(s->entList, nS) ||
      !AC_ALLOC(s->staticRoot, nV) || !AC_ALLOC(s->parent, nV) ||
      !AC_ALLOC(s->aliasFirst, nV + 1) || !AC_ALLOC(s->aliasList, nV) ||
      !AC_ALLOC(s->fwdMaxRank, nV) || !AC_ALLOC(s->retFwd, nV) ||
      !AC_ALLOC(s->retBwd, nV) || !AC_ALLOC(s->dps, nO) || !AC_ALLOC(s->saved, nV) ||
      !AC_ALLOC(s->savedCnt, nV) || !AC_ALLOC(s->recompute, nO) ||
      !AC_ALLOC(s->anchor, nO) || !AC_ALLOC(s->grp, nO) ||
      !AC_ALLOC(s->grpLen, nO) || !AC_ALLOC(s->grpCap, nO) ||
      !AC_ALLOC(s->opStamp, nO) ||
      !AC_ALLOC(s->stack, nO + g->numOperands + 1) ||
      !AC_ALLOC(s->diff, nO + 2) || !AC_ALLOC(s->grpScratch, nO + 1) || !AC_ALLOC(s->stepOf, nO) ||
      !AC_ALLOC(s->candOf, nV) || !AC_ALLOC(s->candList, nV) ||
      !AC_ALLOC(s->staleList, nV) || !AC_ALLOC(s->staleMark, nV) ||
      !AC_ALLOC(s->leafStaleList, nV) || !AC_ALLOC(s->leafStaleMark, nV))
    goto nomem;
  acPlanBwdInstances(g, s->inst);
  for (intptr_t f = 0; f < nF; ++f)
    s->valueBase[f] = g->funcs[f].firstArg;
  s->valueBase[nF] = (AcId)nV;
  /* Ranks and leaves. */
  for (intptr_t f = 0; f < nF; ++f) {
    int32_t nf = 0, nb = 0;
    const AcFunc *fn = &g->funcs[f];
    for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o)
      s->rank[o] = g->ops[o].phase == AC_PHASE_FWD ? nf++ : nb++;
  }
  intptr_t leaves = 0, slots = 0;
  for (intptr_t e = 0; e < nS; ++e) {
    const AcSchedEntry *se = &g->sched[e];
    s->leafBase[e] = (int32_t)leaves;
    s->slotBase[e] = slots;
    leaves += acGraphCountPhase(g, se->func, (AcPhase)se->phase);
    slots += s->valueBase[se->func + 1] - s->valueBase[se->func];
  }
  s->leafBase[nS] = (int32_t)leaves;
  s->slotBase[nS] = slots;
  s->numLeaves = leaves;
  s->numSlots = slots;
  if (leaves >= INT32_MAX / 2 || slots >= INT32_MAX / 2) {
    st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                    "greedy: the schedule is too long (%ld steps)", (long)leaves);
    goto cleanup;
  }
  if (!AC_ALLOC(s->leafOp, leaves) || !AC_ALLOC(s->leafEntry, leaves) ||
      !AC_ALLOC(s->slotA, slots) || !AC_ALLOC(s->slotZ, slots) ||
      !AC_ALLOC(s->slotRoot, slots) || !AC_ALLOC(s->nodeNext, 2 * slots) ||
      !AC_ALLOC(s->nodePrev, 2 * slots) || !AC_ALLOC(s->nodeLeaf, 2 * slots) ||
      !AC_ALLOC(s->leafHead, leaves) || !AC_ALLOC(s->leafPart, leaves) ||
      !AC_ALLOC(s->slotStamp, slots) ||
      !AC_ALLOC(s->itemStamp, nV + leaves) || !AC_ALLOC(s->items, nV + leaves) ||
      !AC_ALLOC(s->depHead, nV + leaves) || !AC_ALLOC(s->leafStamp, leaves) ||
      !AC_ALLOC(s->leafIdx, leaves) || !AC_ALLOC(s->lix, leaves) ||
      !AC_ALLOC(s->leafChanged, leaves))
    goto nomem;
  for (intptr_t e = 0; e < nS; ++e) {
    const AcSchedEntry *se = &g->sched[e];
    const AcFunc *fn = &g->funcs[se->func];
    int32_t L = s->leafBase[e];
    for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o)
      if (g->ops[o].phase == se->phase) {
        s->leafOp[L] = o;
        s->leafEntry[L] = (int32_t)e;
        ++L;
      }
    AcId f = se->func;
    for (AcId v = s->valueBase[f]; v < s->valueBase[f + 1]; ++v)
      s->slotRoot[s->slotBase[e] + (v - s->valueBase[f])] = v;
  }
  /* The entries of each function. */
  for (intptr_t e = 0; e < nS; ++e)
    s->entFirst[g->sched[e].func + 1]++;
  for (intptr_t f = 0; f < nF; ++f)
    s->entFirst[f + 1] += s->entFirst[f];
  {
    int32_t *fill = s->staleList; /* free scratch until candidates exist */
    for (intptr_t f = 0; f <= nF; ++f)
      fill[f] = s->entFirst[f];
    for (intptr_t e = 0; e < nS; ++e)
      s->entList[fill[g->sched[e].func]++] = (int32_t)e;
    memset(fill, 0, ((size_t)nF + 1) * sizeof *fill);
  }
  /* Static roots, view parents, alias groups, readers, returns. */
  for (intptr_t v = 0; v < nV; ++v)
    if (g->values[v].role == AC_ROLE_PARAM)
      s->staticRoot[v] = 1;
  for (intptr_t r = 0; r < g->numRets; ++r) {
    AcId root = g->values[g->rets[r]].aliasRoot;
    if ((g->retFlags[r] & AC_RET_GRAD) && g->values[root].role == AC_ROLE_RESULT)
      s->staticRoot[root] = 1;
  }
  for (intptr_t i = 0; i < nV; ++i) {
    AcId v = (AcId)i;
    const AcValue *val = &g->values[v];
    s->parent[v] = AC_NONE;
    s->fwdMaxRank[v] = -1;
    if (val->aliasRoot != v && val->role == AC_ROLE_RESULT) {
      const AcOp *op = &g->ops[val->producer];
      AcId par = val->aliasRoot;
      for (int32_t k = 0; k < op->numOperands; ++k) {
        AcId u = acOpOperand(g, val->producer, k);
        if (g->values[u].aliasRoot == val->aliasRoot) {
          par = u;
          break;
        }
      }
      s->parent[v] = par;
    }
    s->aliasFirst[val->aliasRoot + 1]++;
  }
  for (intptr_t v = 0; v < nV; ++v)
    s->aliasFirst[v + 1] += s->aliasFirst[v];
  for (intptr_t v = 0; v < nV; ++v) {
    AcId r = g->values[v].aliasRoot;
    s->aliasList[s->aliasFirst[r] + s->savedCnt[r]++] = (AcId)v;
  }
  memset(s->savedCnt, 0, (size_t)nV * sizeof *s->savedCnt);
  for (intptr_t o = 0; o < nO; ++o)
    s->dps[o] = acGraphInPlaceRoot(g, (AcId)o) != AC_NONE;
  for (intptr_t v = 0; v < nV; ++v) {
    const AcValue *val = &g->values[v];
    for (int32_t k = 0; k < val->numUses; ++k) {
      AcId u = acValueUse(g, (AcId)v, k);
      if (g->ops[u].phase == AC_PHASE_FWD && s->rank[u] > s->fwdMaxRank[val->aliasRoot])
        s->fwdMaxRank[val->aliasRoot] = s->rank[u];
    }
  }
  for (intptr_t r = 0; r < g->numRets; ++r) {
    AcId v = g->rets[r];
    if (g->retFlags[r] & AC_RET_GRAD)
      continue;
    if (g->values[v].phase == AC_PHASE_FWD)
      s->retFwd[g->values[v].aliasRoot] = 1;
    else
      s->retBwd[v] = 1;
  }
  /* The plan and its groups. */
  if ((st = acPlanGroups(g, plan, &groups, err)) != AC_OK)
    goto cleanup;
  memcpy(s->saved, plan->saved, (size_t)nV);
  memcpy(s->recompute, plan->recompute, (size_t)nO);
  for (intptr_t o = 0; o < nO; ++o)
    s->anchor[o] = AC_NONE;
  for (intptr_t i = 0; i < groups->numGroups; ++i) {
    const AcRecomputeGroup *gr = &groups->groups[i];
    AcId b = gr->anchor;
    s->grp[b] = acMalloc(((size_t)gr->numOps + 1) * sizeof(AcId));
    if (!s->grp[b])
      goto nomem;
    memcpy(s->grp[b], groups->ops + gr->firstOp, (size_t)gr->numOps * sizeof(AcId));
    s->grpLen[b] = s->grpCap[b] = gr->numOps;
    for (int32_t k = 0; k < gr->numOps; ++k)
      s->anchor[groups->ops[gr->firstOp + k]] = b;
  }
  s->savedBytes = acPlanSavedBytes(g, plan);
  for (intptr_t v = 0; v < nV; ++v)
    if (s->saved[v])
      s->savedCnt[g->values[v].aliasRoot]++;
  /* Slots, partial entries, the tree. */
  for (intptr_t i = 0; i < 2 * slots; ++i)
    s->nodeLeaf[i] = -1;
  for (intptr_t L = 0; L < leaves; ++L)
    s->leafHead[L] = -1;
  for (intptr_t i = 0; i < nV + leaves; ++i)
    s->depHead[i] = -1;
  s->depFree = -1;
  s->tree.size = 1;
  while (s->tree.size < leaves)
    s->tree.size *= 2;
  s->tree.sum = acMalloc(2 * (size_t)s->tree.size * sizeof *s->tree.sum);
  s->tree.add = acCalloc(2 * (size_t)s->tree.size, sizeof *s->tree.add);
  int64_t *full = acCalloc((size_t)leaves + 2, sizeof *full);
  if (!s->tree.sum || !s->tree.add || !full) {
    acFree(full);
    goto nomem;
  }
  for (intptr_t e = 0; e < nS; ++e) {
    AcId f = g->sched[e].func;
    for (AcId r = s->valueBase[f]; r < s->valueBase[f + 1]; ++r) {
      intptr_t sl = s->slotBase[e] + (r - s->valueBase[f]);
      s->slotA[sl] = s->slotZ[sl] = -1;
      if (g->values[r].aliasRoot != r)
        continue;
      AcPos A, Z;
      if (!acSlotInterval(s, (int32_t)e, r, &A, &Z))
        continue;
      s->slotA[sl] = A;
      s->slotZ[sl] = Z;
      acSlotLink(s, sl);
      AcCover c = acCoverOf(1, A, Z);
      if (c.lo <= c.hi) {
        full[c.lo] += g->values[r].bytes;
        full[c.hi + 1] -= g->values[r].bytes;
      }
    }
  }
  s->epoch = 1; /* no slot stamped: acLeafPartialNow takes every entry */
  int64_t run = 0;
  for (intptr_t L = 0; L < leaves; ++L) {
    run += full[L];
    AcId b = s->leafOp[L];
    int bwd = acLeafIsBwd(s, L);
    if (!acLeafPartialNow(s, (int32_t)L, bwd ? s->grp[b] : NULL,
                          bwd ? s->grpLen[b] : 0, NULL, NULL, 0, &s->leafPart[L])) {
      acFree(full);
      goto nomem;
    }
    s->tree.sum[s->tree.size + L] = acSumShift(s->leafPart[L], run);
  }
  acFree(full);
  for (intptr_t L = leaves; L < s->tree.size; ++L)
    s->tree.sum[s->tree.size + L] = acSumNone;
  for (intptr_t n = s->tree.size - 1; n >= 1; --n)
    acTreePull(&s->tree, n);
  /* Candidates: saved storage roots made by forward ops that may be rerun. */
  for (intptr_t i = 0; i < nV; ++i) {
    AcId v = (AcId)i;
    const AcValue *val = &g->values[v];
    if (!s->saved[v] || val->role != AC_ROLE_RESULT || val->aliasRoot != v)
      continue;
    const AcOp *op = &g->ops[val->producer];
    if (op->phase != AC_PHASE_FWD || acOpCannotRecompute(op))
      continue;
    s->candList[s->numCand++] = v;
  }
  if (!AC_ALLOC(s->candArr, s->numCand))
    goto nomem;
  for (intptr_t i = 0; i < nV; ++i)
    s->candOf[i] = -1;
  for (intptr_t k = 0; k < s->numCand; ++k) {
    s->candOf[s->candList[k]] = (int32_t)k;
    s->candArr[k].state = AC_CAND_STALE;
  }
  goto cleanup;
nomem:
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                  "out of memory in the greedy planner");
cleanup:
#undef AC_ALLOC
  acRecomputeGroupsDestroy(groups);
  return st;
}

/* Checks the incremental profile against a fresh simulation of the plan. */
static AcStatus acIncCheck(AcInc *s, intptr_t step, AcError *err) {
  const AcGraph *g = s->g;
  AcPlan *p = acPlanCreate(g);
  AcSimResult sim;
  AcStatus st = AC_OK;
  memset(&sim, 0, sizeof sim);
  if (!p)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
  memcpy(p->saved, s->saved, (size_t)g->numValues);
  if ((st = acPlanDerive(g, p, err)) != AC_OK ||
      (st = acSimulate(g, p, s->staticBytes, 1, &sim, err)) != AC_OK)
    goto cleanup;
  AcProfileTop want = acProfileTopOf(sim.live, sim.numSteps);
  AcProfileTop have = acCurrentProfile(s);
  int same = memcmp(p->recompute, s->recompute, (size_t)g->numOps) == 0;
  if (!same || want.top != have.top || want.count != have.count ||
      want.second != have.second || sim.savedBytes != s->savedBytes)
    st = acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                    "greedy: incremental state differs from the simulation "
                    "after %ld drops (recompute set %s; top %lld/%lld, count "
                    "%lld/%lld, second %lld/%lld, saved %lld/%lld)",
                    (long)step, same ? "equal" : "differs", (long long)have.top,
                    (long long)want.top, (long long)have.count,
                    (long long)want.count, (long long)have.second,
                    (long long)want.second, (long long)s->savedBytes,
                    (long long)sim.savedBytes);
cleanup:
  acSimResultClear(&sim);
  acPlanDestroy(p);
  return st;
}

/*===-------------------------- the pick ----------------------------------===*/

/* The best drop under the reference's rule, or AC_NONE; *primary says
 * whether it lowers the peak (its fall is then the peak's). */
static AcStatus acIncPick(AcInc *s, AcId *bestOut, int *primary, AcError *err) {
  AcStatus st = AC_OK;
  /* Describe what changed. */
  for (intptr_t i = 0; i < s->numStale; ++i) {
    AcId c = s->staleList[i];
    s->staleMark[c] = 0;
    if ((st = acDescribe(s, c, err)) != AC_OK)
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
  double bestRatio = 0;
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
      if (best != AC_NONE && top.key > bestRatio * (1 + 2e-12))
        break;
      acHeapPop(s);
      s->statPop++;
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
        bestRatio = d->extra / (double)fall;
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

/* The budget's last drop from the current plan (acGreedyPlanForBudget,
 * greedy.c's acGreedyRefine): every valid candidate costing at most the
 * pick whose exact peak lies in [pickPeak, budget], the least by
 * acRefineBefore.  A candidate's peak is at least the current top less its
 * bound, which skips most without an exact evaluation. */
static void acIncRefine(AcInc *s, AcId pick, int64_t pickPeak, int64_t budget,
                        AcTrajectory *t) {
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
    if (t->refinedDrop == AC_NONE ||
        acRefineBefore(d->extra, peak, c, t->refinedRecomputeSeconds,
                       t->refinedPeakBytes, t->refinedDrop)) {
      t->refinedDrop = c;
      t->refinedPeakBytes = peak;
      t->refinedRecomputeSeconds = d->extra; /* made absolute by the caller */
    }
  }
}

double acClockSeconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static AcStatus acGreedyIncrementalRun(const AcGraph *g,
                                       const uint8_t *initialSaved,
                                       int64_t staticBytes, int64_t stopPeak,
                                       int check, double deadline,
                                       int *cutShort, AcTrajectory **out,
                                       AcError *err);

AcStatus acGreedyIncrementalUntil(const AcGraph *g, const uint8_t *initialSaved,
                                  int64_t staticBytes, int64_t stopPeak,
                                  int check, AcTrajectory **out, AcError *err) {
  return acGreedyIncrementalRun(g, initialSaved, staticBytes, stopPeak, check,
                                0, NULL, out, err);
}

AcStatus acGreedyIncrementalDeadline(const AcGraph *g,
                                     const uint8_t *initialSaved,
                                     int64_t staticBytes, int64_t stopPeak,
                                     double deadline, int *cutShort,
                                     AcTrajectory **out, AcError *err) {
  return acGreedyIncrementalRun(g, initialSaved, staticBytes, stopPeak, 0,
                                deadline, cutShort, out, err);
}

static AcStatus acGreedyIncrementalRun(const AcGraph *g,
                                       const uint8_t *initialSaved,
                                       int64_t staticBytes, int64_t stopPeak,
                                       int check, double deadline,
                                       int *cutShort, AcTrajectory **out,
                                       AcError *err) {
  AcStatus st = AC_OK;
  if (cutShort)
    *cutShort = 0;
  AcInc s;
  memset(&s, 0, sizeof s);
  s.g = g;
  s.staticBytes = staticBytes;
  AcPlan *plan = acPlanCreate(g);
  AcTrajectory *t = acCalloc(1, sizeof *t);
  intptr_t cap = 0;
  AcSimResult sim;
  memset(&sim, 0, sizeof sim);
  *out = NULL;
  if (!plan || !t)
    goto nomem;
  t->numValues = g->numValues;
  t->refinedDrop = AC_NONE;
  t->initialSaved = acMalloc((size_t)g->numValues + 1);
  if (!t->initialSaved)
    goto nomem;
  memcpy(t->initialSaved, initialSaved, (size_t)g->numValues);
  if ((st = acPlanFromSaved(g, initialSaved, plan, err)) != AC_OK)
    goto cleanup;
  if ((st = acSimulate(g, plan, staticBytes, 1, &sim, err)) != AC_OK)
    goto cleanup;
  if ((st = acIncInit(&s, plan, err)) != AC_OK)
    goto cleanup;
  /* The candidate list doubles as scratch for popped candidates. */
  {
    AcId *cl = acRealloc(s.candList, (2 * (size_t)s.numCand + 1) * sizeof *cl);
    if (!cl)
      goto nomem;
    s.candList = cl;
  }
  {
    AcProfileTop want = acProfileTopOf(sim.live, sim.numSteps);
    AcProfileTop have = acCurrentProfile(&s);
    if (want.top != have.top || want.count != have.count ||
        want.second != have.second || sim.savedBytes != s.savedBytes) {
      st = acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                      "greedy: the incremental profile (top %lld) differs "
                      "from the simulation (%lld)",
                      (long long)have.top, (long long)want.top);
      goto cleanup;
    }
  }
  double seconds = sim.recomputeSeconds;
  int64_t peak = sim.peakBytes;
  if (!acTrajectoryPush(t, &cap, AC_NONE, peak, seconds, s.savedBytes))
    goto nomem;
  for (intptr_t i = 0; i < s.numCand; ++i)
    acMarkStale(&s, s.candList[i]);
  while (stopPeak < 0 || t->peakBytes[t->numPlans - 1] > stopPeak) {
    AcId v = AC_NONE;
    int primary = 0;
    /* The clock is read every 32 drops (a drop takes microseconds). */
    if (deadline > 0 && t->numPlans % 32 == 0 && acClockSeconds() > deadline) {
      if (cutShort)
        *cutShort = 1;
      break;
    }
    if ((st = acIncPick(&s, &v, &primary, err)) != AC_OK)
      goto cleanup;
    if (v == AC_NONE)
      break;
    double extra = AC_CAND_OF(&s, v).extra;
    if (stopPeak >= 0 && s.numLeaves > 0 && primary) {
      /* A secondary drop keeps the peak, which is above stopPeak. */
      int64_t pickPeak = peak - AC_CAND_OF(&s, v).fall;
      assert(pickPeak == acEvalProfile(&s, &AC_CAND_OF(&s, v)).top + staticBytes);
      if (pickPeak <= stopPeak) {
        /* The last drop: the budget may take a cheaper one. */
        acIncRefine(&s, v, pickPeak, stopPeak, t);
        assert(t->refinedDrop != AC_NONE);
        if (t->refinedDrop == v)
          t->refinedDrop = AC_NONE;
        else
          t->refinedRecomputeSeconds += seconds;
      }
    }
    if ((st = acApply(&s, v, err)) != AC_OK)
      goto cleanup;
    seconds += extra;
    AcProfileTop now = acCurrentProfile(&s);
    peak = s.numLeaves > 0 ? now.top + staticBytes : staticBytes;
    assert(peak <= t->peakBytes[t->numPlans - 1]);
    if (!acTrajectoryPush(t, &cap, v, peak, seconds, s.savedBytes))
      goto nomem;
    if (check && (st = acIncCheck(&s, t->numPlans - 1, err)) != AC_OK)
      goto cleanup;
  }
  acTrajectoryTrim(t);
#ifdef AC_GREEDY_STATS
  {
    int32_t maxg = 0;
    intptr_t sumg = 0, ng = 0;
    for (intptr_t o = 0; o < g->numOps; ++o)
      if (s.grpLen[o]) {
        ng++;
        sumg += s.grpLen[o];
        maxg = s.grpLen[o] > maxg ? s.grpLen[o] : maxg;
      }
    fprintf(stderr,
            "greedy: %ld plans, %ld candidates, %ld describes (%ld by alias "
            "groups, %ld leaf refreshes), %ld pops, %ld evaluations, %ld "
            "secondary picks; %ld groups (%ld ops, largest %d)\n",
            (long)t->numPlans, (long)s.numCand, (long)s.statDescribe,
            (long)s.statRoot, (long)s.statDescribeLeaves, (long)s.statPop,
            (long)s.statEval, (long)s.statSecondary, (long)ng, (long)sumg, maxg);
  }
#endif
  *out = t;
  t = NULL;
  goto cleanup;
nomem:
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                  "out of memory in the greedy planner");
cleanup:
  acSimResultClear(&sim);
  acIncFree(&s);
  acPlanDestroy(plan);
  acTrajectoryDestroy(t);
  return st;
}
