/* simulate.c - liveness and the peak of a derived plan over the schedule.
 *
 * Memory is tracked per *storage*: a storage root (a value with
 * aliasRoot == itself) in one schedule instance.  Each schedule entry owns a
 * table of slots, one per value of its function: a forward entry's slots are
 * the original storages (and the primal inputs) of that microbatch, a
 * backward entry's slots are its recomputed copies, backward values and
 * tangents.  Views allocate nothing; reading one touches the storage it
 * resolves to.  In the backward a forward value resolves to the original
 * storage when it is saved, to the recomputed copy when its producer is
 * recomputed (views through their parent, the operand sharing their root).
 *
 * Each slot gets an allocation step and a last step; live bytes come from
 * a difference array over steps, so a simulation costs O(steps + operands
 * + slots).  An op's workspace (AcOp.workspace) adds to its own step only.
 * Parameters and gradient storages are static (excluded). */
#include "autoac/simulate.h"
#include "simulate/offload.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { AC_SIDE_NONE = 0, AC_SIDE_FWD, AC_SIDE_BWD, AC_SIDE_STATIC };

/* The gradients the static part holds: under buffers and accumulate the
 * gradients that exist before the backward, under assign none. */
static int64_t acSimStaticGradBytes(const AcGraph *g) {
  return g->gradMode == AC_GRADS_ASSIGN ? 0 : acGraphGradBytes(g);
}

int64_t acSimStaticBytes(const AcGraph *g, double optimizerFactor,
                         int64_t reserve) {
  int64_t params = acGraphParamBytes(g);
  return params + acSimStaticGradBytes(g) +
         (int64_t)llround(optimizerFactor * (double)params) + reserve;
}

AcStatus acSimStaticBytesChecked(const AcGraph *g, double optimizerFactor,
                                 int64_t reserve, int64_t *out, AcError *err) {
  /* Parameters and gradients are values of the graph, each sum at most
   * AC_MAX_BYTES (acGraphBuilderFinish): their sum fits in int64_t. */
  int64_t params = acGraphParamBytes(g), grads = acSimStaticGradBytes(g);
  double state = optimizerFactor * (double)params;
  int64_t sum = params + grads;
  if (!(optimizerFactor >= 0) || reserve < 0)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "the optimizer factor (%g) and the reserve (%" PRId64
                      " bytes) must not be negative", optimizerFactor, reserve);
  if (sum > AC_MAX_BYTES || state > (double)AC_MAX_BYTES ||
      (sum += (int64_t)llround(state)) > AC_MAX_BYTES ||
      reserve > AC_MAX_BYTES || (sum += reserve) > AC_MAX_BYTES)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "the static memory (parameters %" PRId64 " bytes + "
                      "gradients %" PRId64 " bytes + optimizer state %.0f "
                      "bytes + reserve %" PRId64 " bytes) is more than 2^62 - 1 "
                      "bytes, the most autoac can count",
                      params, grads, state, reserve);
  *out = sum;
  return AC_OK;
}

void acSimResultClear(AcSimResult *r) {
  if (!r)
    return;
  acFree(r->steps);
  acFree(r->live);
  acFree(r->liveAfter);
  acFree(r->hostLive);
  acFree(r->offloadDone);
  acFree(r->offloadIssue);
  memset(r, 0, sizeof *r);
}

typedef struct AcSim {
  const AcGraph *g;
  AcId *valueBase;        /* [numFuncs + 1] first value of each function */
  intptr_t *entryBegin;   /* [numSched + 1] first step of each entry */
  intptr_t *slotBase;     /* [numSched] first slot of each entry */
  int32_t *anchorGroup;   /* [numOps] group anchored at a backward op, or -1 */
  uint8_t *staticRoot;    /* [numValues] storage excluded from the timeline */
  uint8_t *savedRoot;     /* [numValues] storage kept for the backward */
  uint8_t *bwdSide;       /* [numValues] AC_SIDE_* of a value in the backward */
  AcId *bwdRef;           /* [numValues] its storage root there */
  intptr_t *allocAt;      /* [numSlots] step allocating the slot, -1: none */
  intptr_t *lastAt;       /* [numSlots] last step it is live */
  int64_t *delta;         /* [numSteps + 1] */
  int64_t *freed;         /* [numSteps + 2] bytes freed before each step (the
                             frees in delta; with the timeline only) */
  AcRecomputeGroups *groups;
  intptr_t numSlots, numSteps;
  /* In-place writes: the init slot, the result slot (-1: static), the step
     and a flag (see acNoteInPlace) of each destination-style op whose init
     may be written in place. */
  intptr_t *inPlace;      /* [4 * numInPlace] */
  intptr_t numInPlace, capInPlace;
  int failed;             /* out of memory recording them */
  /* Offload (plan->offload): the offloaded storage roots, and per slot the
     last forward use and the first backward read (NULL without any). */
  uint8_t *offRoot;       /* [numValues] */
  intptr_t *offLastFwd;   /* [numSlots] */
  intptr_t *offFirstBwd;  /* [numSlots] */
  AcStep *offSteps;       /* [numSteps] each step's op and kind */
  /* With acSimulatePeakOffloadable: per slot of a saved storage, its last
     forward use and its first backward read (-1: none; NULL otherwise). */
  intptr_t *tLastFwd;     /* [numSlots] */
  intptr_t *tFirstBwd;    /* [numSlots] */
} AcSim;

static void acSimFree(AcSim *s) {
  acFree(s->valueBase);
  acFree(s->entryBegin);
  acFree(s->slotBase);
  acFree(s->anchorGroup);
  acFree(s->staticRoot);
  acFree(s->savedRoot);
  acFree(s->bwdSide);
  acFree(s->bwdRef);
  acFree(s->allocAt);
  acFree(s->lastAt);
  acFree(s->delta);
  acFree(s->freed);
  acRecomputeGroupsDestroy(s->groups);
  acFree(s->inPlace);
  acFree(s->offRoot);
  acFree(s->offLastFwd);
  acFree(s->offFirstBwd);
  acFree(s->offSteps);
  acFree(s->tLastFwd);
  acFree(s->tFirstBwd);
}

static intptr_t acSlot(const AcSim *s, intptr_t entry, AcId v) {
  AcId f = s->g->values[v].func;
  return s->slotBase[entry] + (v - s->valueBase[f]);
}

static void acTouch(AcSim *s, intptr_t slot, intptr_t step) {
  assert(s->allocAt[slot] >= 0 && s->allocAt[slot] <= step);
  if (s->lastAt[slot] < step)
    s->lastAt[slot] = step;
}

static void acAlloc(AcSim *s, intptr_t slot, intptr_t step) {
  s->allocAt[slot] = step;
  s->lastAt[slot] = step;
}

/* Marks the slot of v, read at `step` of entry `entry` (its partner the
 * forward entry when `entry` is a backward one). */
static AcStatus acRead(AcSim *s, intptr_t entry, int inBwd, AcId v,
                       intptr_t step, AcId reader, AcError *err) {
  const AcGraph *g = s->g;
  int side;
  AcId root;
  if (inBwd) {
    side = s->bwdSide[v];
    root = s->bwdRef[v];
  } else {
    root = g->values[v].aliasRoot;
    side = s->staticRoot[root] ? AC_SIDE_STATIC : AC_SIDE_FWD;
  }
  if (side == AC_SIDE_STATIC)
    return AC_OK;
  if (side == AC_SIDE_NONE)
    return acErrorSet(err, AC_ERR_INVALID, reader, v,
                      "the plan is not derived: backward op '%s' reads value "
                      "%d, which is neither saved nor recomputed",
                      g->ops[reader].name, (int)v);
  intptr_t e = side == AC_SIDE_BWD || !inBwd ? entry : g->sched[entry].partner;
  intptr_t slot = acSlot(s, e, root);
  if (s->allocAt[slot] < 0)
    return acErrorSet(err, AC_ERR_INTERNAL, reader, v,
                      "simulation: op '%s' reads value %d before it exists",
                      g->ops[reader].name, (int)v);
  acTouch(s, slot, step);
  if (s->offFirstBwd && inBwd && side == AC_SIDE_FWD && s->offRoot[root] &&
      s->offFirstBwd[slot] < 0)
    s->offFirstBwd[slot] = step;
  if (s->tFirstBwd && inBwd && side == AC_SIDE_FWD && s->tFirstBwd[slot] < 0)
    s->tFirstBwd[slot] = step;
  return AC_OK;
}

/* Allocates the storages an op's results own. */
static void acProduce(AcSim *s, intptr_t entry, AcId op, intptr_t step) {
  const AcGraph *g = s->g;
  const AcOp *o = &g->ops[op];
  for (int32_t r = 0; r < o->numResults; ++r) {
    AcId v = o->firstResult + r;
    if (g->values[v].aliasRoot == v && !s->staticRoot[v])
      acAlloc(s, acSlot(s, entry, v), step);
  }
}


/* Records that op `o`, run at `step` of entry `entry`, may write its result
 * into the storage of its destination-style init: the init's storage is an
 * activation of this entry (not a parameter, argument, tangent or, in the
 * backward, a saved forward storage) of the result's size.  Whether it
 * does is decided once liveness is complete (acSimInPlace): when nothing
 * reads that storage after `step`, bufferization writes in place. */
static void acNoteInPlace(AcSim *s, intptr_t entry, int inBwd, AcId o,
                          intptr_t step) {
  const AcGraph *g = s->g;
  const AcOp *op = &g->ops[o];
  if (acGraphInPlaceRoot(g, o) == AC_NONE)
    return;
  AcId u = op->dpsInit, r = op->firstResult;
  AcId root = inBwd ? s->bwdRef[u] : g->values[u].aliasRoot;
  int side = inBwd ? s->bwdSide[u]
                   : (s->staticRoot[root] ? AC_SIDE_STATIC : AC_SIDE_FWD);
  if (side != (inBwd ? AC_SIDE_BWD : AC_SIDE_FWD))
    return;
  assert(root == g->values[u].aliasRoot);
  /* Four entries per record. */
  if (!acArrayGrow((void **)&s->inPlace, &s->capInPlace, s->numInPlace + 1,
                   4 * sizeof *s->inPlace)) {
    s->failed = 1;
    return;
  }
  intptr_t *e = s->inPlace + 4 * s->numInPlace++;
  e[0] = acSlot(s, entry, root);
  e[1] = s->staticRoot[r] ? -1 : acSlot(s, entry, r);
  e[2] = step;
  /* Only a chain of backward ops may vanish into a static storage. */
  e[3] = inBwd && op->phase == AC_PHASE_BWD &&
         g->ops[g->values[root].producer].phase == AC_PHASE_BWD;
}

/* Applies the in-place writes.  A write counts when the init's last use
 * (before any of these rules) is the op writing into it:
 *  - into an allocated result: the init stops one step early (the result
 *    takes its storage over at that step);
 *  - into a static storage (a gradient), or into a result that itself
 *    vanished so, along a chain of backward ops: the init is that storage
 *    and allocates nothing (tensor.empty -> linalg.fill -> matmul into a
 *    gradient).  Other writes into static storage change nothing.
 * Decisions are made latest first against the original last uses, so a
 * chain resolves from its end and one write never enables another. */
static void acSimInPlace(AcSim *s) {
  for (intptr_t k = s->numInPlace - 1; k >= 0; --k) {
    intptr_t *e = s->inPlace + 4 * k;
    intptr_t init = e[0], res = e[1], step = e[2];
    int chain = (int)e[3];
    e[3] = 0; /* now: 1 when the init stops early */
    if (s->allocAt[init] < 0 || s->lastAt[init] != step)
      continue; /* read later: bufferization writes a copy */
    if (res < 0 || s->allocAt[res] < 0) {
      if (chain)
        s->allocAt[init] = -1;
    } else {
      e[3] = 1;
    }
  }
  for (intptr_t k = 0; k < s->numInPlace; ++k)
    if (s->inPlace[4 * k + 3])
      s->lastAt[s->inPlace[4 * k]] = s->inPlace[4 * k + 2] - 1;
}

/* Calls fn(ctx, step, op) for every step of the timeline in order, with
 * the op run at it: each schedule entry's ops of its phase, a backward op
 * preceded by the recompute group anchored at it. */
typedef void (*AcSimStepFn)(void *ctx, intptr_t step, AcId op);

static void acSimEachStep(const AcSim *s, AcSimStepFn fn, void *ctx) {
  const AcGraph *g = s->g;
  for (intptr_t e = 0; e < g->numSched; ++e) {
    const AcSchedEntry *se = &g->sched[e];
    const AcFunc *f = &g->funcs[se->func];
    intptr_t t = s->entryBegin[e];
    for (AcId o = f->firstOp; o < f->firstOp + f->numOps; ++o) {
      if (g->ops[o].phase != se->phase)
        continue;
      if (se->phase == AC_PHASE_BWD && s->anchorGroup[o] >= 0) {
        const AcRecomputeGroup *grp = &s->groups->groups[s->anchorGroup[o]];
        for (int32_t k = 0; k < grp->numOps; ++k)
          fn(ctx, t++, s->groups->ops[grp->firstOp + k]);
      }
      fn(ctx, t++, o);
    }
    assert(t == s->entryBegin[e + 1]);
  }
}

static void acSimWorkspaceStep(void *ctx, intptr_t t, AcId op) {
  AcSim *s = ctx;
  int64_t w = s->g->ops[op].workspace;
  s->delta[t] += w;
  s->delta[t + 1] -= w;
  if (s->freed)
    s->freed[t + 1] += w;
}

/* Workspaces: an op's scratch is live at its step only, on top of what is
 * live then (each step of the timeline runs one op). */
static void acSimWorkspaces(AcSim *s) {
  acSimEachStep(s, acSimWorkspaceStep, s);
}

/* The offloaded storages of `plan` (none: nothing allocated). */
static AcStatus acSimPrepareOffload(AcSim *s, const AcPlan *plan,
                                    AcError *err) {
  const AcGraph *g = s->g;
  intptr_t n = 0;
  for (intptr_t v = 0; v < g->numValues; ++v) {
    if (!plan->offload[v])
      continue;
    if (!plan->saved[v] || g->values[v].aliasRoot != (AcId)v ||
        g->values[v].role != AC_ROLE_RESULT || s->staticRoot[v])
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, (AcId)v,
                        "value %d is offloaded but is not a saved storage "
                        "root", (int)v);
    n++;
  }
  if (n == 0)
    return AC_OK;
  if (!(g->hostBandwidth > 0))
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "the plan offloads %ld values but there is no host "
                      "link to offload to (offload=off, a host budget of 0, "
                      "or a device profile without one)", (long)n);
  s->offRoot = acCalloc((size_t)g->numValues + 1, 1);
  s->offLastFwd = acMalloc(((size_t)s->numSlots + 1) * sizeof *s->offLastFwd);
  s->offFirstBwd = acMalloc(((size_t)s->numSlots + 1) * sizeof *s->offFirstBwd);
  s->offSteps = acMalloc(((size_t)s->numSteps + 1) * sizeof *s->offSteps);
  if (!s->offRoot || !s->offLastFwd || !s->offFirstBwd || !s->offSteps)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                      "out of memory while simulating");
  memcpy(s->offRoot, plan->offload, (size_t)g->numValues);
  for (intptr_t i = 0; i < s->numSlots; ++i)
    s->offLastFwd[i] = s->offFirstBwd[i] = -1;
  return AC_OK;
}

static AcStatus acSimPrepare(AcSim *s, const AcPlan *plan, AcError *err) {
  const AcGraph *g = s->g;
  AcStatus st = AC_OK;
  intptr_t nf = g->numFuncs, ns = g->numSched;
  s->valueBase = acMalloc(((size_t)nf + 1) * sizeof *s->valueBase);
  s->entryBegin = acMalloc(((size_t)ns + 1) * sizeof *s->entryBegin);
  s->slotBase = acMalloc(((size_t)ns + 1) * sizeof *s->slotBase);
  s->anchorGroup = acMalloc(((size_t)g->numOps + 1) * sizeof *s->anchorGroup);
  s->staticRoot = acCalloc((size_t)g->numValues + 1, 1);
  s->savedRoot = acCalloc((size_t)g->numValues + 1, 1);
  s->bwdSide = acCalloc((size_t)g->numValues + 1, 1);
  s->bwdRef = acMalloc(((size_t)g->numValues + 1) * sizeof *s->bwdRef);
  if (!s->valueBase || !s->entryBegin || !s->slotBase ||
      !s->anchorGroup || !s->staticRoot || !s->savedRoot || !s->bwdSide ||
      !s->bwdRef) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while simulating");
    goto cleanup;
  }
  for (intptr_t f = 0; f < nf; ++f)
    s->valueBase[f] = g->funcs[f].firstArg;
  s->valueBase[nf] = (AcId)g->numValues;

  /* Groups and the steps each entry takes. */
  for (intptr_t o = 0; o < g->numOps; ++o)
    s->anchorGroup[o] = -1;
  for (intptr_t i = 0; i < s->groups->numGroups; ++i)
    s->anchorGroup[s->groups->groups[i].anchor] = (int32_t)i;
  intptr_t step = 0, slot = 0;
  for (intptr_t e = 0; e < ns; ++e) {
    const AcSchedEntry *se = &g->sched[e];
    const AcFunc *fn = &g->funcs[se->func];
    s->entryBegin[e] = step;
    s->slotBase[e] = slot;
    slot += s->valueBase[se->func + 1] - s->valueBase[se->func];
    for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o) {
      if (g->ops[o].phase != se->phase)
        continue;
      step += 1;
      if (se->phase == AC_PHASE_BWD && s->anchorGroup[o] >= 0)
        step += s->groups->groups[s->anchorGroup[o]].numOps;
    }
  }
  s->entryBegin[ns] = step;
  s->numSteps = step;
  s->numSlots = slot;

  /* Static storage: parameters and gradients. */
  acGraphMarkStaticRoots(g, s->staticRoot);
  for (intptr_t v = 0; v < g->numValues; ++v)
    if (plan->saved[v])
      s->savedRoot[g->values[v].aliasRoot] = 1;

  /* Where each value lives in the backward (values in id order, so a
     view's parent is resolved before it). */
  for (intptr_t i = 0; i < g->numValues; ++i) {
    AcId v = (AcId)i;
    const AcValue *val = &g->values[v];
    AcId root = val->aliasRoot;
    uint8_t side = AC_SIDE_NONE;
    AcId ref = root;
    switch (val->role) {
    case AC_ROLE_PARAM: side = AC_SIDE_STATIC; break;
    case AC_ROLE_PRIMAL: side = AC_SIDE_FWD; break;
    case AC_ROLE_TANGENT: side = AC_SIDE_BWD; break;
    default: {
      const AcOp *op = &g->ops[val->producer];
      int bwdMade = op->phase == AC_PHASE_BWD ||
                    (!plan->saved[v] && plan->recompute[val->producer]);
      if (bwdMade) {
        if (root == v) {
          side = AC_SIDE_BWD;
        } else {
          AcId par = acValueViewParent(g, v);
          side = s->bwdSide[par];
          ref = s->bwdRef[par];
        }
      } else if (plan->saved[v]) {
        side = AC_SIDE_FWD;
      }
      break;
    }
    }
    if (side != AC_SIDE_NONE && s->staticRoot[ref])
      side = AC_SIDE_STATIC;
    s->bwdSide[v] = side;
    s->bwdRef[v] = ref;
  }

  s->allocAt = acMalloc(((size_t)s->numSlots + 1) * sizeof *s->allocAt);
  s->lastAt = acMalloc(((size_t)s->numSlots + 1) * sizeof *s->lastAt);
  s->delta = acCalloc((size_t)s->numSteps + 2, sizeof *s->delta);
  if (!s->allocAt || !s->lastAt || !s->delta) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while simulating");
    goto cleanup;
  }
  for (intptr_t i = 0; i < s->numSlots; ++i)
    s->allocAt[i] = -1;
  st = acSimPrepareOffload(s, plan, err);
cleanup:
  return st;
}

/* Keeps a slot alive through `step` if it was allocated. */
static void acExtend(AcSim *s, intptr_t slot, intptr_t step) {
  if (s->allocAt[slot] >= 0 && s->lastAt[slot] < step)
    s->lastAt[slot] = step;
}

typedef struct AcStepStarts {
  const AcGraph *g;
  double *T;
  double now;
} AcStepStarts;

static void acSimStartStep(void *ctx, intptr_t t, AcId op) {
  AcStepStarts *c = ctx;
  c->T[t] = c->now;
  c->now += c->g->ops[op].seconds;
}

/* The compute time at which each step starts, [numSteps + 1]. */
static double *acSimStepStarts(const AcSim *s) {
  AcStepStarts c = {s->g, acMalloc(((size_t)s->numSteps + 1) * sizeof(double)), 0};
  if (!c.T)
    return NULL;
  acSimEachStep(s, acSimStartStep, &c);
  c.T[s->numSteps] = c.now;
  return c.T;
}

/* The offloaded slots of every forward entry (they leave the plain
 * intervals: allocAt -1); `where` [2 * n] receives each one's entry and
 * value, indexed by its tag. */
static AcStatus acSimOffloadSlots(AcSim *s, AcOffloadSlot **slots,
                                  intptr_t **where, intptr_t *n,
                                  AcError *err) {
  const AcGraph *g = s->g;
  intptr_t cap = 0, wcap = 0;
  for (intptr_t e = 0; e < g->numSched; ++e) {
    if (g->sched[e].phase != AC_PHASE_FWD)
      continue;
    AcId f = g->sched[e].func;
    intptr_t bwd = g->sched[e].partner;
    for (AcId v = s->valueBase[f]; v < s->valueBase[f + 1]; ++v) {
      intptr_t sl = acSlot(s, e, v);
      if (!s->offRoot[v] || s->allocAt[sl] < 0 || s->offLastFwd[sl] < 0)
        continue;
      if (!acArrayGrow((void **)slots, &cap, *n + 1, sizeof **slots) ||
          !acArrayGrow((void **)where, &wcap, 2 * (*n + 1), sizeof **where))
        return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                          "out of memory while simulating");
      (*slots)[*n] = (AcOffloadSlot){s->allocAt[sl], s->offLastFwd[sl],
                                     s->entryBegin[e + 1] - 1,
                                     s->offFirstBwd[sl], s->entryBegin[bwd],
                                     *n, g->values[v].bytes, -1, -1};
      (*where)[2 * *n] = e;
      (*where)[2 * *n + 1] = v;
      ++*n;
      s->allocAt[sl] = -1;
    }
  }
  return AC_OK;
}

static void acSimInterval(int64_t *delta, int64_t *freed, intptr_t a,
                          intptr_t b, int64_t bytes) {
  if (a > b)
    return;
  delta[a] += bytes;
  delta[b + 1] -= bytes;
  if (freed)
    freed[b + 1] += bytes;
}

/* One placement per function: the rewrite emits one @f_fwd and one @f_bwd
 * for every schedule entry of f, so each offloaded value's copy completes
 * after the same forward op and its prefetch is issued before the same
 * backward op (with its recomputation: an issue inside a recompute run,
 * or at the op right after one, moves to the run's start) in every entry: the latest completion and the
 * earliest issue over the entries.  Fills out->offloadDone/offloadIssue
 * and adds the device intervals to s->delta, the host ones to `host`. */
static AcStatus acSimOffloadPlace(AcSim *s, AcSimResult *out,
                                  const AcOffloadSlot *slots,
                                  const intptr_t *where, intptr_t n,
                                  int64_t *host, AcError *err) {
  const AcGraph *g = s->g;
  size_t nv = (size_t)g->numValues + 1;
  intptr_t *doneOff = acMalloc(nv * sizeof *doneOff);
  intptr_t *issueOff = acMalloc(nv * sizeof *issueOff);
  if (out->live) { /* with the timeline only: results are copied bare */
    out->offloadDone = acMalloc(nv * sizeof *out->offloadDone);
    out->offloadIssue = acMalloc(nv * sizeof *out->offloadIssue);
  }
  if (!doneOff || !issueOff ||
      (out->live && (!out->offloadDone || !out->offloadIssue))) {
    acFree(doneOff);
    acFree(issueOff);
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                      "out of memory while simulating");
  }
  for (size_t v = 0; v < nv; ++v) {
    doneOff[v] = -1;
    issueOff[v] = INTPTR_MAX;
    if (out->offloadDone)
      out->offloadDone[v] = out->offloadIssue[v] = AC_NONE;
  }
  for (intptr_t i = 0; i < n; ++i) {
    const AcOffloadSlot *sl = &slots[i];
    intptr_t e = where[2 * sl->tag], v = where[2 * sl->tag + 1];
    intptr_t d = sl->devEnd - s->entryBegin[e], t = sl->issue;
    if (d > doneOff[v])
      doneOff[v] = d;
    if (t < 0)
      continue;
    /* The rewrite issues before the op's recompute regions (acIssueAt):
       an issue at a backward op right after a recompute run, or inside
       one, moves to the run's start (difftest seed 400372: the prefetch
       buffer was live 8 B earlier in the program than simulated). */
    if (t > sl->bwdBegin && s->offSteps[t].kind != AC_STEP_RECOMPUTE &&
        s->offSteps[t - 1].kind == AC_STEP_RECOMPUTE)
      --t;
    while (t > sl->bwdBegin && s->offSteps[t].kind == AC_STEP_RECOMPUTE &&
           s->offSteps[t - 1].kind == AC_STEP_RECOMPUTE)
      --t;
    if (t - sl->bwdBegin < issueOff[v])
      issueOff[v] = t - sl->bwdBegin;
  }
  for (intptr_t i = 0; i < n; ++i) {
    const AcOffloadSlot *sl = &slots[i];
    intptr_t e = where[2 * sl->tag], v = where[2 * sl->tag + 1];
    intptr_t bwd = g->sched[e].partner;
    intptr_t done = s->entryBegin[e] + doneOff[v];
    acSimInterval(s->delta, s->freed, sl->alloc, done, sl->bytes);
    if (out->offloadDone)
      out->offloadDone[v] = s->offSteps[done].op;
    if (sl->firstBwd < 0) {
      /* Nothing reads it back: it stays on the host to its backward's end. */
      acSimInterval(host, NULL, sl->alloc, s->entryBegin[bwd + 1] - 1, sl->bytes);
      continue;
    }
    intptr_t issue = sl->bwdBegin + issueOff[v];
    acSimInterval(s->delta, s->freed, issue, s->lastAt[acSlot(s, e, (AcId)v)], sl->bytes);
    acSimInterval(host, NULL, sl->alloc, sl->firstBwd, sl->bytes);
    while (out->offloadIssue && s->offSteps[issue].kind == AC_STEP_RECOMPUTE)
      ++issue;
    if (out->offloadIssue)
      out->offloadIssue[v] = s->offSteps[issue].op;
  }
  acFree(doneOff);
  acFree(issueOff);
  return AC_OK;
}

/* Offloaded storages: acOffloadSchedule times their copies and
 * acSimOffloadPlace adds their device and host intervals. */
static AcStatus acSimOffload(AcSim *s, AcSimResult *out, AcError *err) {
  const AcGraph *g = s->g;
  AcStatus st = AC_OK;
  AcOffloadSlot *slots = NULL;
  intptr_t *where = NULL;
  intptr_t n = 0;
  int64_t *host = acCalloc((size_t)s->numSteps + 2, sizeof *host);
  double *T = acSimStepStarts(s);
  if (!host || !T) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while simulating");
    goto cleanup;
  }
  if ((st = acSimOffloadSlots(s, &slots, &where, &n, err)) != AC_OK ||
      (st = acOffloadSchedule(T, s->numSteps, slots, n, g->hostBandwidth,
                              g->hostLatency, &out->copySeconds,
                              &out->stallSeconds, err)) != AC_OK ||
      (st = acSimOffloadPlace(s, out, slots, where, n, host, err)) != AC_OK)
    goto cleanup;
  if (out->live && !(out->hostLive = acCalloc((size_t)s->numSteps + 1,
                                               sizeof *out->hostLive))) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while simulating");
    goto cleanup;
  }
  int64_t live = 0;
  for (intptr_t t = 0; t < s->numSteps; ++t) {
    live += host[t];
    if (out->hostLive)
      out->hostLive[t] = live;
    if (live > out->hostPeakBytes)
      out->hostPeakBytes = live;
  }
cleanup:
  acFree(slots);
  acFree(where);
  acFree(host);
  acFree(T);
  return st;
}

/* Records step `t` (op `o` of kind `kind`, schedule entry `e`) in the
 * timeline when one is asked for, and for the offload placement. */
static void acSimNoteStep(AcSim *s, AcSimResult *out, int wantTimeline,
                          intptr_t t, AcId o, uint8_t kind, intptr_t e) {
  AcStep st = {o, kind, (int32_t)e};
  if (wantTimeline)
    out->steps[t] = st;
  if (s->offSteps)
    s->offSteps[t] = st;
}

static AcStatus acSimRun(AcSim *s, AcSimResult *out, int wantTimeline,
                         AcError *err) {
  const AcGraph *g = s->g;
  AcStatus st;
  intptr_t step = 0;
  for (intptr_t e = 0; e < g->numSched; ++e) {
    const AcSchedEntry *se = &g->sched[e];
    const AcFunc *fn = &g->funcs[se->func];
    AcId v0 = s->valueBase[se->func], v1 = s->valueBase[se->func + 1];
    intptr_t other = g->sched[e].partner;
    assert(step == s->entryBegin[e]);
    if (se->phase == AC_PHASE_FWD) {
      intptr_t bwdBegin = s->entryBegin[other];
      intptr_t bwdLast = s->entryBegin[other + 1] - 1;
      /* Primal inputs: from this forward's start to the backward's end. */
      for (AcId a = fn->firstArg; a < fn->firstArg + fn->numArgs; ++a)
        if (g->values[a].role == AC_ROLE_PRIMAL && s->entryBegin[e] <= bwdLast) {
          intptr_t sl = acSlot(s, e, a);
          acAlloc(s, sl, s->entryBegin[e]);
          s->lastAt[sl] = bwdLast;
        }
      for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o) {
        const AcOp *op = &g->ops[o];
        if (op->phase != AC_PHASE_FWD)
          continue;
        acProduce(s, e, o, step);
        for (int32_t i = 0; i < op->numOperands; ++i)
          if ((st = acRead(s, e, 0, acOpOperand(g, o, i), step, o, err)) != AC_OK)
            return st;
        acNoteInPlace(s, e, 0, o, step);
        acSimNoteStep(s, out, wantTimeline, step, o, AC_STEP_FWD, e);
        ++step;
      }
      /* Saved storages wait for the backward; returned ones outlive it. */
      for (AcId v = v0; v < v1; ++v)
        if (s->savedRoot[v] && !s->staticRoot[v]) {
          if (s->offRoot && s->offRoot[v])
            s->offLastFwd[acSlot(s, e, v)] = s->lastAt[acSlot(s, e, v)];
          if (s->tLastFwd)
            s->tLastFwd[acSlot(s, e, v)] = s->lastAt[acSlot(s, e, v)];
          acExtend(s, acSlot(s, e, v), bwdBegin - 1);
        }
      for (int32_t r = 0; r < fn->numRets; ++r) {
        intptr_t ri = fn->firstRet + r;
        AcId root = g->values[g->rets[ri]].aliasRoot;
        if (!acGraphRetIsStaticGrad(g, ri) && !s->staticRoot[root] &&
            g->values[g->rets[ri]].phase == AC_PHASE_FWD)
          acExtend(s, acSlot(s, e, root), bwdLast);
      }
    } else {
      intptr_t last = s->entryBegin[e + 1] - 1;
      for (AcId a = fn->firstArg; a < fn->firstArg + fn->numArgs; ++a)
        if (g->values[a].role == AC_ROLE_TANGENT && s->entryBegin[e] <= last) {
          intptr_t sl = acSlot(s, e, a);
          acAlloc(s, sl, s->entryBegin[e]);
          /* held: through the backward; last-use: its reads extend it */
          if (g->tangentMode == AC_TANGENTS_HELD)
            s->lastAt[sl] = last;
        }
      for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o) {
        const AcOp *op = &g->ops[o];
        if (op->phase != AC_PHASE_BWD)
          continue;
        if (s->anchorGroup[o] >= 0) {
          const AcRecomputeGroup *grp =
              &s->groups->groups[s->anchorGroup[o]];
          for (int32_t k = 0; k < grp->numOps; ++k) {
            AcId q = s->groups->ops[grp->firstOp + k];
            const AcOp *qop = &g->ops[q];
            acProduce(s, e, q, step);
            for (int32_t i = 0; i < qop->numOperands; ++i)
              if ((st = acRead(s, e, 1, acOpOperand(g, q, i), step, q, err)) !=
                  AC_OK)
                return st;
            acNoteInPlace(s, e, 1, q, step);
            out->recomputeFlops += qop->flops;
            out->recomputeSeconds += qop->seconds;
            acSimNoteStep(s, out, wantTimeline, step, q, AC_STEP_RECOMPUTE, e);
            ++step;
          }
        }
        acProduce(s, e, o, step);
        for (int32_t i = 0; i < op->numOperands; ++i)
          if ((st = acRead(s, e, 1, acOpOperand(g, o, i), step, o, err)) != AC_OK)
            return st;
        acNoteInPlace(s, e, 1, o, step);
        acSimNoteStep(s, out, wantTimeline, step, o, AC_STEP_BWD, e);
        ++step;
      }
      /* Returned backward values (not static gradients) live to the end;
         returned forward values were extended by the forward entry. */
      for (int32_t r = 0; r < fn->numRets; ++r) {
        intptr_t ri = fn->firstRet + r;
        AcId v = g->rets[ri];
        if (acGraphRetIsStaticGrad(g, ri) ||
            g->values[v].phase != AC_PHASE_BWD)
          continue;
        if (s->bwdSide[v] == AC_SIDE_BWD)
          acExtend(s, acSlot(s, e, s->bwdRef[v]), last);
        else if (s->bwdSide[v] == AC_SIDE_FWD)
          acExtend(s, acSlot(s, other, s->bwdRef[v]), last);
      }
    }
    assert(step == s->entryBegin[e + 1]);
  }
  return AC_OK;
}

/* Marks in mask [numValues] the saved storages that, in some schedule
 * entry, are live at every step whose live bytes are `best`, all of them
 * after their last forward use and before their first backward read (a
 * slot is live over one interval: these steps run from `first` to `last`). */
static void acSimMarkPeakOffloadable(const AcSim *s, int64_t best,
                                     uint8_t *mask) {
  const AcGraph *g = s->g;
  intptr_t first = -1, last = -1;
  int64_t live = 0;
  for (intptr_t t = 0; t < s->numSteps; ++t) {
    live += s->delta[t];
    if (live == best) {
      if (first < 0)
        first = t;
      last = t;
    }
  }
  memset(mask, 0, (size_t)g->numValues);
  for (intptr_t e = 0; e < g->numSched && first >= 0; ++e) {
    AcId f = g->sched[e].func;
    for (AcId v = s->valueBase[f]; v < s->valueBase[f + 1]; ++v) {
      intptr_t sl = s->slotBase[e] + (v - s->valueBase[f]);
      if (s->allocAt[sl] >= 0 && s->allocAt[sl] <= first &&
          last <= s->lastAt[sl] && s->tLastFwd[sl] >= 0 &&
          s->tLastFwd[sl] < first &&
          (s->tFirstBwd[sl] < 0 || last < s->tFirstBwd[sl]))
        mask[v] = 1;
    }
  }
}

static AcStatus acSimulateImpl(const AcGraph *g, const AcPlan *plan,
                               AcRecomputeGroups *groups,
                               int64_t staticBytes, int wantTimeline,
                               AcSimResult *out, uint8_t *peakLive,
                               AcError *err);

AcStatus acSimulate(const AcGraph *g, const AcPlan *plan, int64_t staticBytes,
                    int wantTimeline, AcSimResult *out, AcError *err) {
  return acSimulateImpl(g, plan, NULL, staticBytes, wantTimeline, out, NULL,
                        err);
}

AcStatus acSimulateGroups(const AcGraph *g, const AcPlan *plan,
                          AcRecomputeGroups *groups, int64_t staticBytes,
                          AcSimResult *out, uint8_t *offloadable,
                          AcError *err) {
  return acSimulateImpl(g, plan, groups, staticBytes, 0, out, offloadable, err);
}

/* The walk's optional arrays: the offload marks' last forward and first
 * backward uses (with `peakLive`), the timeline (with `wantTimeline`). */
static AcStatus acSimAllocExtras(AcSim *s, AcSimResult *out, int peakLive,
                                 int wantTimeline, AcError *err) {
  if (peakLive) {
    s->tLastFwd = acMalloc(((size_t)s->numSlots + 1) * sizeof *s->tLastFwd);
    s->tFirstBwd = acMalloc(((size_t)s->numSlots + 1) * sizeof *s->tFirstBwd);
    if (!s->tLastFwd || !s->tFirstBwd)
      return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                        "out of memory while simulating");
    for (intptr_t i = 0; i < s->numSlots; ++i)
      s->tLastFwd[i] = s->tFirstBwd[i] = -1;
  }
  if (wantTimeline) {
    out->steps = acCalloc((size_t)s->numSteps + 1, sizeof *out->steps);
    out->live = acCalloc((size_t)s->numSteps + 1, sizeof *out->live);
    out->liveAfter = acCalloc((size_t)s->numSteps + 1, sizeof *out->liveAfter);
    s->freed = acCalloc((size_t)s->numSteps + 2, sizeof *s->freed);
    if (!out->steps || !out->live || !out->liveAfter || !s->freed)
      return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                        "out of memory while simulating");
  }
  return AC_OK;
}

/* Slots to intervals, intervals to live bytes (the difference array). */
static void acSimIntervals(AcSim *s) {
  const AcGraph *g = s->g;
  for (intptr_t e = 0; e < g->numSched; ++e) {
    AcId f = g->sched[e].func;
    for (AcId v = s->valueBase[f]; v < s->valueBase[f + 1]; ++v) {
      intptr_t sl = s->slotBase[e] + (v - s->valueBase[f]);
      if (s->allocAt[sl] < 0 || s->lastAt[sl] < s->allocAt[sl])
        continue;
      assert(s->lastAt[sl] < s->numSteps);
      s->delta[s->allocAt[sl]] += g->values[v].bytes;
      s->delta[s->lastAt[sl] + 1] -= g->values[v].bytes;
      if (s->freed)
        s->freed[s->lastAt[sl] + 1] += g->values[v].bytes;
    }
  }
}

/* The peak step's op, kind and entry: found by replaying the step count
 * (cheap; avoids keeping the timeline when not asked for). */
static void acSimPeakOp(const AcSim *s, AcSimResult *out) {
  const AcGraph *g = s->g;
  intptr_t t = out->peakStep;
  intptr_t e = 0;
  while (s->entryBegin[e + 1] <= t)
    ++e;
  const AcSchedEntry *se = &g->sched[e];
  const AcFunc *fn = &g->funcs[se->func];
  intptr_t k = s->entryBegin[e];
  for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o) {
    if (g->ops[o].phase != se->phase)
      continue;
    if (se->phase == AC_PHASE_BWD && s->anchorGroup[o] >= 0) {
      const AcRecomputeGroup *grp = &s->groups->groups[s->anchorGroup[o]];
      if (t < k + grp->numOps) {
        out->peakOp = s->groups->ops[grp->firstOp + (t - k)];
        out->peakKind = AC_STEP_RECOMPUTE;
        break;
      }
      k += grp->numOps;
    }
    if (k == t) {
      out->peakOp = o;
      out->peakKind = se->phase == AC_PHASE_FWD ? AC_STEP_FWD : AC_STEP_BWD;
      break;
    }
    ++k;
  }
  out->peakSched = (int32_t)e;
}

/* The result from the live bytes: totals, the timeline (with
 * `wantTimeline`), the peak and where it is.  Returns the peak's live
 * bytes (-1: no steps). */
static int64_t acSimResults(const AcSim *s, const AcPlan *plan,
                            int64_t staticBytes, int wantTimeline,
                            AcSimResult *out) {
  const AcGraph *g = s->g;
  out->staticBytes = staticBytes;
  out->peakBytes = staticBytes;
  out->peakStep = -1;
  out->peakOp = AC_NONE;
  out->peakSched = -1;
  out->savedBytes = acPlanSavedBytes(g, plan);
  if (s->offRoot)
    for (intptr_t v = 0; v < g->numValues; ++v)
      out->offloadedBytes += s->offRoot[v] ? g->values[v].bytes : 0;
  out->numSteps = s->numSteps;
  int64_t live = 0, best = -1;
  for (intptr_t t = 0; t < s->numSteps; ++t) {
    live += s->delta[t];
    assert(live >= 0);
    if (wantTimeline) {
      out->live[t] = live;
      out->liveAfter[t] = live - s->freed[t + 1];
    }
    if (live > best) {
      best = live;
      out->peakStep = t;
    }
  }
  if (out->peakStep >= 0) {
    out->peakBytes = best + staticBytes;
    acSimPeakOp(s, out);
  }
  return best;
}

static AcStatus acSimulateImpl(const AcGraph *g, const AcPlan *plan,
                               AcRecomputeGroups *groups,
                               int64_t staticBytes, int wantTimeline,
                               AcSimResult *out, uint8_t *peakLive,
                               AcError *err) {
  AcSim s;
  AcStatus st = AC_OK;
  memset(&s, 0, sizeof s);
  memset(out, 0, sizeof *out);
  s.g = g;
  s.groups = groups;
  if (!groups && (st = acPlanGroups(g, plan, &s.groups, err)) != AC_OK)
    goto cleanup;
  if ((st = acSimPrepare(&s, plan, err)) != AC_OK ||
      (st = acSimAllocExtras(&s, out, peakLive != NULL, wantTimeline,
                             err)) != AC_OK ||
      (st = acSimRun(&s, out, wantTimeline, err)) != AC_OK)
    goto cleanup;
  if (s.failed) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while simulating");
    goto cleanup;
  }
  acSimInPlace(&s);
  acSimWorkspaces(&s);
  if (s.offRoot && (st = acSimOffload(&s, out, err)) != AC_OK)
    goto cleanup;
  acSimIntervals(&s);
  int64_t best = acSimResults(&s, plan, staticBytes, wantTimeline, out);
  if (peakLive) {
    if (out->peakStep >= 0)
      acSimMarkPeakOffloadable(&s, best, peakLive);
    else
      memset(peakLive, 0, (size_t)g->numValues);
  }
cleanup:
  if (st != AC_OK)
    acSimResultClear(out);
  if (groups)
    s.groups = NULL; /* the caller's */
  acSimFree(&s);
  return st;
}
