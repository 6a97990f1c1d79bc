/* greedy_inc.h - the incremental greedy's state and the functions its
 * files share (not installed).  greedy_inc.c has the overview and the
 * trajectory loop; greedy_inc_profile.c the tree, intervals and leaf
 * summaries; greedy_inc_state.c set-up, dependencies and applying a drop;
 * greedy_inc_describe.c the candidates' descriptions; greedy_inc_pick.c
 * the heap, the pick and the budget's last drop.  Only these files include
 * this header. */
#ifndef AUTOAC_GREEDY_INC_H
#define AUTOAC_GREEDY_INC_H

#include "greedy_internal.h"
#include "autoac/simulate.h"

#include <string.h>

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

/* Nodes 1 .. size - 1 are inner, node size + L is leaf L.  sum[n] is the
 * summary of inner node n's leaves including add[n] (and the adds of nodes
 * below it), but not the adds of its ancestors.  A leaf has no summary of
 * its own: it is part[L] (AcInc.leafPart, set before the tree reads it)
 * shifted by off[L], again without the ancestors' adds; leaves from
 * numLeaves on are empty. */
typedef struct AcTree {
  intptr_t size;       /* leaves, a power of two */
  intptr_t numLeaves;
  AcSum *sum;          /* [size] inner nodes */
  int64_t *add;        /* [size] inner nodes */
  int64_t *off;        /* [size + 1] leaves */
  const AcSum *part;   /* [numLeaves] */
} AcTree;

/* The summary of node n (without its ancestors' adds). */
static inline AcSum acTreeSum(const AcTree *t, intptr_t n) {
  if (n < t->size)
    return t->sum[n];
  intptr_t leaf = n - t->size;
  return leaf < t->numLeaves ? acSumShift(t->part[leaf], t->off[leaf]) : acSumNone;
}

/// Recomputes node n's summary from its children and its add.
void acTreePull(AcTree *t, intptr_t n);
/// Sets every inner node's summary from its children, all adds being zero.
void acTreeBuild(AcTree *t);
/// Adds x to leaves [a, b] (node n spans [lo, hi]).
void acTreeAdd(AcTree *t, intptr_t n, intptr_t lo, intptr_t hi, intptr_t a,
               intptr_t b, int64_t x);
/// Summary of leaves [a, b] (node n spans [lo, hi]), without the adds of
/// n's ancestors.
AcSum acTreeQuery(const AcTree *t, intptr_t n, intptr_t lo, intptr_t hi,
                  intptr_t a, intptr_t b);
/// Sets leaf L's true summary (ancestors' adds included) to part[L] shifted
/// by `full` (part[L] already holds the leaf's new partial summary).
void acTreeSetLeaf(AcTree *t, intptr_t leaf, int64_t full);
/// True highest level of leaf L.
int64_t acTreeLeafTop(const AcTree *t, intptr_t leaf);
enum { AC_TOP_MAX = 16 };
/// The k leaves with the highest levels (ties: any); returns how many (at
/// most k, at most AC_TOP_MAX).
int acTreeTopLeaves(const AcTree *t, int k, int32_t *leaves, int64_t *tops);

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
  AcOpMove *ops; int32_t numOps; intptr_t capOps;
  AcSlotNew *slots; int32_t numSlots; intptr_t capSlots;
  AcSeg *segs; int32_t numSegs; intptr_t capSegs;
  AcDirty *dirty; int32_t numDirty; intptr_t capDirty;
  /* Per dirty leaf (CSR), the touched slots' entries there: slot index * 2
     + (1 for the new interval, 0 for the old one). */
  int32_t *recFirst; intptr_t capRecFirst;
  int32_t *rec; intptr_t capRec;
  AcRec *recs; intptr_t capRecs;      /* per record: keys in the leaf, bytes (+new, -old) */
  int32_t *ordA, *ordZ; intptr_t capOrdA, capOrdZ; /* per leaf: records by start, by end key */
  AcOpMove *moved; int32_t numMoved; intptr_t capMoved; /* M ops by (old anchor, op) */
  intptr_t leavesAt;     /* step at which the leaf summaries were computed */
  int64_t fall;          /* of this pick's exact evaluation */
} AcCand;

#define AC_CAND_OF(s, v) ((s)->candArr[(s)->candOf[v]])


/* A heap entry: a copy of the candidate's key, extra seconds and bound when
   pushed (the heap orders by them; the entry is live while its version is
   the candidate's keyVersion). */
typedef struct AcHeapItem {
  double key;
  double extra;
  int64_t bound;
  AcId cand;
  uint32_t version;
} AcHeapItem;

typedef struct AcInc {
  const AcGraph *g;
  int64_t staticBytes;
  const uint8_t *keep;       /* [numValues] never dropped (may be NULL) */
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
  AcId *grpOwners; intptr_t numGrpOwners, capGrpOwners; /* anchors with a grp
                                array (each once): acIncFree frees those */
  int32_t *grpLen, *grpCap;
  int64_t savedBytes;
  /* slots and leaves */
  AcPos *slotA, *slotZ;      /* [numSlots]; slotA < 0: not allocated */
  int32_t *slotRoot;         /* [numSlots] */
  /* [2 * numSlots] partial entries, a list per leaf: node 2 sl + k is
     linked (only) in leaf part[k] of the cover of slot sl's interval. */
  int32_t *nodeNext, *nodePrev;
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
  int32_t *lixBuilt; intptr_t numLixBuilt, capLixBuilt; /* leaves an index was
                                built for (repeats possible): acIncFree frees
                                theirs */
  struct AcKv { int64_t key, amount; } *kv[5]; intptr_t kvCap[5];
  /* Work done so far (acGreedyWork's units: items of descriptions,
     evaluations, pops and applied drops), against the run's limit. */
  intptr_t work;
  /* counters (printed with -DAC_GREEDY_STATS) */
  intptr_t statDescribeLeaves, statDescribe, statEval, statSecondary, statPop,
      statRoot, statLeaf;
} AcInc;


static inline intptr_t acSlotOf(const AcInc *s, int32_t entry, AcId root) {
  AcId f = s->g->values[root].func;
  return s->slotBase[entry] + (root - s->valueBase[f]);
}

static inline int acLeafIsBwd(const AcInc *s, intptr_t leaf) {
  return s->g->sched[s->leafEntry[leaf]].phase == AC_PHASE_BWD;
}



/* How an interval meets the leaves: fully covered leaves [*lo, *hi]
 * (empty when lo > hi) and up to two leaves with a partial entry. */
typedef struct AcCover {
  int32_t lo, hi;
  int32_t part[2]; int numPart;
} AcCover;

/* A big backward leaf as it is now: partial live bytes per step (pl), the
 * bytes of entries starting exactly at each step (st: the cut just before
 * step k is pl[k] - st[k]), and a segment tree of per-step summaries
 * (pl[k] plus the workspace of step k's op: a joining op adds its own).  A
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

/*===-------------------------- greedy_inc_profile.c ----------------------===*/

/// Bwd-side resolution of value x under the current plan (as the
/// simulator's): AC_SIDE_*, and the storage root in *ref.
int acIncResolve(const AcInc *s, AcId x, AcId *ref);
/// The interval of slot (e, r) under the current plan, as the simulator
/// computes it; 0 when the slot is not allocated (or is untracked: static
/// or zero bytes).
int acSlotInterval(const AcInc *s, int32_t e, AcId r, AcPos *A, AcPos *Z);
/// How interval [A, Z] (when `has`) meets the leaves.
AcCover acCoverOf(int has, AcPos A, AcPos Z);
/// The part of interval [A, Z] inside leaf L as step keys.
void acIncClip(AcPos A, AcPos Z, int32_t leaf, int32_t *a, int32_t *z);
/// First index of a sorted group with an op >= k.
int32_t acIncLowerBound(const AcId *grp, int32_t n, int32_t k);
/// The partial summary of leaf L from its current entries; with a
/// description `d`, touched slots (slot stamp = epoch) use their new
/// intervals (records `rec`) and the leaf's group is `grp`.  0 on NOMEM.
int acLeafPartialNow(AcInc *s, int32_t leaf, const AcId *grp, int32_t ng,
                     const AcCand *d, const int32_t *rec, intptr_t nrec,
                     AcSum *out);
/// Frees a leaf index; NULL is accepted.
void acLeafIdxFree(AcLeafIdx *x);
/// The index of big backward leaf L, built on demand; NULL on NOMEM.
AcLeafIdx *acLeafIdxGet(AcInc *s, int32_t leaf);
/// Summary of an index's steps [lo, hi].
AcSum acLeafIdxQuery(const AcLeafIdx *x, int32_t lo, int32_t hi);
/// Room for n pairs in scratch kv[which]; 0 on NOMEM.
int acKvReserve(AcInc *s, int which, intptr_t n);
/// The current profile (the tree's root) as the greedy ranks it.
AcProfileTop acCurrentProfile(const AcInc *s);

/*===-------------------------- greedy_inc_state.c ------------------------===*/

/// Frees a candidate's description arrays (it is dead, or being torn down).
void acCandRelease(AcCand *c);
/// A fresh stamp value; on wrap-around every stamp array restarts.
void acNextEpoch(AcInc *s);
/// Adds an item to the description's dependencies (once per epoch).
void acItemAdd(AcInc *s, int32_t item);
/// Registers candidate c on the items collected in s->items; 0 on NOMEM.
int acDepRegister(AcInc *s, AcId c);
/// Puts candidate c on the list to describe again (once).
void acMarkStale(AcInc *s, AcId c);
/// An item changed: its candidates are described again (a root) or have
/// their leaf summaries redone (a leaf).
void acItemChanged(AcInc *s, int32_t item);
/// Links slot sl's partial entries for its current interval.
void acSlotLink(AcInc *s, intptr_t sl);
/// Applies candidate v's (valid) description to the state.
AcStatus acIncApply(AcInc *s, AcId v, AcError *err);
/// Frees the state (zeroed or set up, fully or in part).
void acIncFree(AcInc *s);
/// Builds the graph tables and the state of plan `plan` (derived) into a
/// zeroed `s` with g and staticBytes set.
AcStatus acIncInit(AcInc *s, const AcPlan *plan, AcError *err);
/// Checks the incremental profile against a fresh simulation of the plan
/// (AC_ERR_INTERNAL on a difference; `step` names the drop in the message).
AcStatus acIncCheck(AcInc *s, intptr_t step, AcError *err);

/*===-------------------------- greedy_inc_describe.c ---------------------===*/

/// Describes dropping candidate v from the current plan (its arrays are
/// reused); marks it DEAD when v is no longer droppable.
AcStatus acIncDescribe(AcInc *s, AcId v, AcError *err);
/// Redoes only the leaf summaries, bound and key of candidate v after a
/// dirty leaf of it changed; 0 on NOMEM.
int acRefreshLeaves(AcInc *s, AcId v);
/// The profile after the described drop.
AcProfileTop acEvalProfile(AcInc *s, const AcCand *d);
/// Amount of the description's range adds at `leaf`.
int64_t acSegAt(const AcCand *d, int32_t leaf);
/// The description's dirty-leaf entry for `leaf`, or NULL.
const AcDirty *acDirtyAt(const AcCand *d, int32_t leaf);

/*===-------------------------- greedy_inc_pick.c -------------------------===*/

/// The best drop under the reference's rule, or AC_NONE; *primary says
/// whether it lowers the peak (its fall is then the peak's).
AcStatus acIncPick(AcInc *s, AcId *bestOut, int *primary, AcError *err);
/// The budget's last drop from the current plan, given the pick and its
/// peak, into `best` (acLastDropConsider's order).
void acIncRefine(AcInc *s, AcId pick, int64_t pickPeak, int64_t budget,
                 AcLastDrop *best);

#endif
