/* greedy_inc_state.c - the incremental greedy's state (greedy_inc.h):
 * setting it up from a derived plan, the dependency lists that say which
 * candidates a change makes stale, applying an accepted drop in place, and
 * the check against a fresh simulation (tests).
 *
 * Invariants: after acIncInit and after every acIncApply, the saved and
 * recompute flags, the groups, the slots' intervals, the partial entries
 * and the tree are those of the current plan derived and simulated from
 * scratch (acIncCheck compares); a candidate registered on an item is
 * marked stale when that item changes. */
#include "greedy_inc.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Frees a candidate's description arrays (it is dead, or being torn down). */
void acCandRelease(AcCand *c) {
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

/* A fresh stamp value; on wrap-around every stamp array restarts. */
void acNextEpoch(AcInc *s) {
  if (++s->epoch != 0)
    return;
  memset(s->opStamp, 0, (size_t)s->g->numOps * sizeof *s->opStamp);
  memset(s->slotStamp, 0, (size_t)s->numSlots * sizeof *s->slotStamp);
  memset(s->itemStamp, 0,
         ((size_t)s->g->numValues + (size_t)s->numLeaves) * sizeof *s->itemStamp);
  memset(s->leafStamp, 0, (size_t)s->numLeaves * sizeof *s->leafStamp);
  s->epoch = 1;
}

/*===-------------------------- dependencies ------------------------------===*/


void acItemAdd(AcInc *s, int32_t item) {
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

int acDepRegister(AcInc *s, AcId c) {
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
        /* Three arrays, one capacity (as acEntReserve). */
        intptr_t cn = s->depCap, cc = s->depCap, cv = s->depCap;
        if (!acArrayGrow((void **)&s->depNext, &cn, s->depLen + 1, sizeof *s->depNext) ||
            !acArrayGrow((void **)&s->depCand, &cc, s->depLen + 1, sizeof *s->depCand) ||
            !acArrayGrow((void **)&s->depVer, &cv, s->depLen + 1, sizeof *s->depVer))
          return 0;
        s->depCap = cn;
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

void acMarkStale(AcInc *s, AcId c) {
  if (s->staleMark[c])
    return;
  s->staleMark[c] = 1;
  s->staleList[s->numStale++] = c;
}

/* An item changed.  A root: its registered candidates are described again
 * (and register anew).  A leaf: their leaf summaries are redone; their
 * registrations stay, stale ones (older descriptions) are dropped. */
void acItemChanged(AcInc *s, int32_t item) {
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


/*===-------------------------- applying a drop ---------------------------===*/

/* Unlinks node nd from `leaf`'s list of partial entries. */
static void acNodeUnlink(AcInc *s, int32_t nd, int32_t leaf) {
  if (s->nodePrev[nd] >= 0)
    s->nodeNext[s->nodePrev[nd]] = s->nodeNext[nd];
  else
    s->leafHead[leaf] = s->nodeNext[nd];
  if (s->nodeNext[nd] >= 0)
    s->nodePrev[s->nodeNext[nd]] = s->nodePrev[nd];
}

static void acNodeLink(AcInc *s, int32_t nd, int32_t leaf) {
  s->nodePrev[nd] = -1;
  s->nodeNext[nd] = s->leafHead[leaf];
  if (s->leafHead[leaf] >= 0)
    s->nodePrev[s->leafHead[leaf]] = nd;
  s->leafHead[leaf] = nd;
}

/* Links slot sl's partial entries for its current interval. */
void acSlotLink(AcInc *s, intptr_t sl) {
  AcCover c = acCoverOf(s->slotA[sl] >= 0, s->slotA[sl], s->slotZ[sl]);
  for (int k = 0; k < c.numPart; ++k)
    acNodeLink(s, (int32_t)(2 * sl + k), c.part[k]);
}

/* Unlinks slot sl's partial entries for its current interval (node 2 sl + k
 * is linked in part[k] of the interval's cover, and only there). */
static void acSlotUnlink(AcInc *s, intptr_t sl) {
  AcCover c = acCoverOf(s->slotA[sl] >= 0, s->slotA[sl], s->slotZ[sl]);
  for (int k = 0; k < c.numPart; ++k)
    acNodeUnlink(s, (int32_t)(2 * sl + k), c.part[k]);
}

/* Moves the description's ops into b1's group (merged by id) and out of
 * their old groups (each filtered once). */
static int acGroupsMove(AcInc *s, const AcCand *d) {
  AcId b1 = d->b1;
  int32_t need = s->grpLen[b1] + d->numOps;
  if (!s->grp[b1]) {
    if (!acArrayGrow((void **)&s->grpOwners, &s->capGrpOwners,
                     s->numGrpOwners + 1, sizeof *s->grpOwners))
      return 0;
    s->grpOwners[s->numGrpOwners++] = b1; /* freed with NULL if none follows */
  }
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

AcStatus acIncApply(AcInc *s, AcId v, AcError *err) {
  const AcGraph *g = s->g;
  AcCand *d = &AC_CAND_OF(s, v);
  assert(d->state == AC_CAND_VALID);
  s->work += 1 + (intptr_t)d->numOps + d->numSlots + d->numSegs + d->numDirty;
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
    acSlotUnlink(s, sl);
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
    acTreeSetLeaf(&s->tree, leaf, full);
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


/*===-------------------------- setup -------------------------------------===*/

void acIncFree(AcInc *s) {
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
  for (intptr_t i = 0; i < s->numGrpOwners; ++i)
    acFree(s->grp[s->grpOwners[i]]);
  acFree(s->grpOwners);
  acFree(s->grp);
  acFree(s->grpLen);
  acFree(s->grpCap);
  acFree(s->slotA);
  acFree(s->slotZ);
  acFree(s->slotRoot);
  acFree(s->nodeNext);
  acFree(s->nodePrev);
  acFree(s->leafHead);
  acFree(s->leafPart);
  for (intptr_t i = 0; i < s->numLixBuilt; ++i) {
    acLeafIdxFree(s->lix[s->lixBuilt[i]]);
    s->lix[s->lixBuilt[i]] = NULL;
  }
  acFree(s->lixBuilt);
  acFree(s->lix);
  for (int k = 0; k < 5; ++k)
    acFree(s->kv[k]);
  acFree(s->tree.sum);
  acFree(s->tree.add);
  acFree(s->tree.off);
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

static AcStatus acIncNoMem(AcError *err) {
  return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory in the greedy planner");
}

/* Zeroed arrays of n (+ 1) elements into p; 0 on NOMEM (set-up only). */
#define AC_ALLOC(p, n) (((p) = acCalloc((size_t)(n) + 1, sizeof *(p))) != NULL)

/* Set-up, step 1: the arrays sized by the graph, backward instances and
 * each function's first value. */
static AcStatus acIncInitArrays(AcInc *s, AcError *err) {
  const AcGraph *g = s->g;
  intptr_t nV = g->numValues, nO = g->numOps, nF = g->numFuncs, nS = g->numSched;
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
    return acIncNoMem(err);
  acPlanBwdInstances(g, s->inst);
  for (intptr_t f = 0; f < nF; ++f)
    s->valueBase[f] = g->funcs[f].firstArg;
  s->valueBase[nF] = (AcId)nV;
  return AC_OK;
}

/* Step 2: ranks, leaves and slots (one per schedule entry and value of
 * its function), and the arrays sized by them. */
static AcStatus acIncInitLeaves(AcInc *s, AcError *err) {
  const AcGraph *g = s->g;
  intptr_t nV = g->numValues, nF = g->numFuncs, nS = g->numSched;
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
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "greedy: the schedule is too long (%ld steps)", (long)leaves);
  }
  if (!AC_ALLOC(s->leafOp, leaves) || !AC_ALLOC(s->leafEntry, leaves) ||
      !AC_ALLOC(s->slotA, slots) || !AC_ALLOC(s->slotZ, slots) ||
      !AC_ALLOC(s->slotRoot, slots) || !AC_ALLOC(s->nodeNext, 2 * slots) ||
      !AC_ALLOC(s->nodePrev, 2 * slots) ||
      !AC_ALLOC(s->leafHead, leaves) || !AC_ALLOC(s->leafPart, leaves) ||
      !AC_ALLOC(s->slotStamp, slots) ||
      !AC_ALLOC(s->itemStamp, nV + leaves) || !AC_ALLOC(s->items, nV + leaves) ||
      !AC_ALLOC(s->depHead, nV + leaves) || !AC_ALLOC(s->leafStamp, leaves) ||
      !AC_ALLOC(s->leafIdx, leaves) || !AC_ALLOC(s->lix, leaves) ||
      !AC_ALLOC(s->leafChanged, leaves))
    return acIncNoMem(err);
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
  return AC_OK;
}

/* Step 3: the entries of each function; static roots, view parents, alias
 * groups, forward readers, returned values. */
static void acIncInitGraph(AcInc *s) {
  const AcGraph *g = s->g;
  intptr_t nV = g->numValues, nO = g->numOps, nF = g->numFuncs, nS = g->numSched;
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
  acGraphMarkStaticRoots(g, s->staticRoot);
  for (intptr_t i = 0; i < nV; ++i) {
    AcId v = (AcId)i;
    const AcValue *val = &g->values[v];
    s->parent[v] = AC_NONE;
    s->fwdMaxRank[v] = -1;
    if (val->aliasRoot != v && val->role == AC_ROLE_RESULT)
      s->parent[v] = acValueViewParent(g, v);
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
    if (acGraphRetIsStaticGrad(g, r))
      continue;
    if (g->values[v].phase == AC_PHASE_FWD)
      s->retFwd[g->values[v].aliasRoot] = 1;
    else
      s->retBwd[v] = 1;
  }
}

/* Step 4: plan `plan` (derived): flags, groups, saved bytes. */
static AcStatus acIncInitPlan(AcInc *s, const AcPlan *plan, AcError *err) {
  const AcGraph *g = s->g;
  intptr_t nV = g->numValues, nO = g->numOps;
  /* The plan and its groups. */
  AcRecomputeGroups *groups = NULL;
  AcStatus st = acPlanGroups(g, plan, &groups, err);
  if (st != AC_OK)
    return st;
  memcpy(s->saved, plan->saved, (size_t)nV);
  memcpy(s->recompute, plan->recompute, (size_t)nO);
  for (intptr_t o = 0; o < nO; ++o)
    s->anchor[o] = AC_NONE;
  s->grpOwners = acMalloc(((size_t)groups->numGroups + 1) * sizeof *s->grpOwners);
  if (!s->grpOwners) {
    acRecomputeGroupsDestroy(groups);
    return acIncNoMem(err);
  }
  s->capGrpOwners = groups->numGroups + 1;
  for (intptr_t i = 0; i < groups->numGroups; ++i) {
    const AcRecomputeGroup *gr = &groups->groups[i];
    AcId b = gr->anchor;
    s->grpOwners[s->numGrpOwners++] = b;
    s->grp[b] = acMalloc(((size_t)gr->numOps + 1) * sizeof(AcId));
    if (!s->grp[b]) {
      acRecomputeGroupsDestroy(groups);
      return acIncNoMem(err);
    }
    memcpy(s->grp[b], groups->ops + gr->firstOp, (size_t)gr->numOps * sizeof(AcId));
    s->grpLen[b] = s->grpCap[b] = gr->numOps;
    for (int32_t k = 0; k < gr->numOps; ++k)
      s->anchor[groups->ops[gr->firstOp + k]] = b;
  }
  s->savedBytes = acPlanSavedBytes(g, plan);
  for (intptr_t v = 0; v < nV; ++v)
    if (s->saved[v])
      s->savedCnt[g->values[v].aliasRoot]++;
  acRecomputeGroupsDestroy(groups);
  return AC_OK;
}

/* Step 5: the slots' intervals, partial entries and the tree. */
static AcStatus acIncInitProfile(AcInc *s, AcError *err) {
  const AcGraph *g = s->g;
  intptr_t nV = g->numValues, nS = g->numSched;
  intptr_t leaves = s->numLeaves;
  /* Slots, partial entries, the tree. */
  for (intptr_t L = 0; L < leaves; ++L)
    s->leafHead[L] = -1;
  for (intptr_t i = 0; i < nV + leaves; ++i)
    s->depHead[i] = -1;
  s->depFree = -1;
  s->tree.size = 1;
  while (s->tree.size < leaves)
    s->tree.size *= 2;
  s->tree.numLeaves = leaves;
  s->tree.part = s->leafPart;
  s->tree.sum = acMalloc((size_t)s->tree.size * sizeof *s->tree.sum);
  s->tree.add = acCalloc((size_t)s->tree.size, sizeof *s->tree.add);
  s->tree.off = acCalloc((size_t)s->tree.size + 1, sizeof *s->tree.off);
  if (!s->tree.sum || !s->tree.add || !s->tree.off)
    return acIncNoMem(err);
  /* The leaves' full parts: differences into off, then their running sums. */
  int64_t *full = s->tree.off;
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
  for (intptr_t L = 0; L < leaves; ++L) {
    if (L > 0)
      full[L] += full[L - 1];
    AcId b = s->leafOp[L];
    int bwd = acLeafIsBwd(s, L);
    if (!acLeafPartialNow(s, (int32_t)L, bwd ? s->grp[b] : NULL,
                          bwd ? s->grpLen[b] : 0, NULL, NULL, 0, &s->leafPart[L]))
      return acIncNoMem(err);
  }
  full[leaves] = 0;
  acTreeBuild(&s->tree); /* no range add yet */
  return AC_OK;
}

/* Step 6: the candidates, saved storage roots made by forward ops that
 * may be rerun (all stale: described at the first pick). */
static AcStatus acIncInitCandidates(AcInc *s, AcError *err) {
  const AcGraph *g = s->g;
  intptr_t nV = g->numValues;
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
    return acIncNoMem(err);
  for (intptr_t i = 0; i < nV; ++i)
    s->candOf[i] = -1;
  for (intptr_t k = 0; k < s->numCand; ++k) {
    s->candOf[s->candList[k]] = (int32_t)k;
    s->candArr[k].state = AC_CAND_STALE;
  }
  return AC_OK;
}

/* Builds the graph tables and the state of plan `plan` (derived), step by
 * step. */
AcStatus acIncInit(AcInc *s, const AcPlan *plan, AcError *err) {
  AcStatus st;
  if ((st = acIncInitArrays(s, err)) != AC_OK ||
      (st = acIncInitLeaves(s, err)) != AC_OK)
    return st;
  acIncInitGraph(s);
  if ((st = acIncInitPlan(s, plan, err)) != AC_OK ||
      (st = acIncInitProfile(s, err)) != AC_OK)
    return st;
  return acIncInitCandidates(s, err);
}
#undef AC_ALLOC

/* Checks the incremental profile against a fresh simulation of the plan. */
AcStatus acIncCheck(AcInc *s, intptr_t step, AcError *err) {
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

