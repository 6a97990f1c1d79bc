/* offload.c - the offload move of the default strategy (docs/planner.md,
 * "Offload").
 *
 * Below the lowest peak greedy and its floor search reach by recomputing,
 * a plan may still fall by keeping saves in host memory.  From that plan,
 * the same for every budget it misses, a trajectory of moves: each step
 * looks at every saved value offloaded (a candidate of
 * acPlanOffloadCandidates, not offloaded yet) and every droppable saved
 * value dropped (recomputed instead, offloaded or not), simulates each, and
 * takes the one with the least extra seconds (recompute seconds plus stall
 * seconds) per byte of device peak freed; ties go to the larger fall, then
 * an offload before a drop, then the lower value id.  A move that does not
 * lower the peak, or raises the host peak over the host budget, is never
 * taken.  The run stops at the first plan whose peak fits the budget, or
 * when no move lowers the peak: the trajectory does not depend on the
 * budget and its peaks fall at every step, so the peak never rises as the
 * budget falls, and it stays below the recompute-only plan's.  Each step
 * costs one simulation per candidate (O(candidates x (ops + operands))); a
 * deterministic limit of simulations bounds the run (a prefix of the
 * trajectory: the best plan reached, reported as limited); a step that
 * would pass it is not started. */
#include "plan_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* A move: offload (kind 0) or drop (kind 1) of value v. */
typedef struct AcMove {
  int kind;
  AcId v;
  double cost;    /* extra seconds, >= 0 */
  int64_t fall;   /* device peak fall, > 0 */
} AcMove;

/* Is `a` a better move than `b` (b->v == AC_NONE: none yet)? */
static int acMoveBetter(const AcMove *a, const AcMove *b) {
  if (b->v == AC_NONE)
    return 1;
  double l = a->cost * (double)b->fall, r = b->cost * (double)a->fall;
  if (l != r)
    return l < r;
  if (a->fall != b->fall)
    return a->fall > b->fall;
  if (a->kind != b->kind)
    return a->kind < b->kind;
  return a->v < b->v;
}

/* A move is no better than its bound (acMoveBound): its cost is no lower
 * and its fall no higher.  Checked in debug builds. */
#ifndef NDEBUG
static int acNoPruneOrBounded(const AcMove *m, const AcMove *bound) {
  return acOffloadNoPrune || (m->cost >= bound->cost && m->fall <= bound->fall);
}
#endif

/* The simulations one offload run may run: 2^shift units of ops + values,
 * at least `least`.  The run from the start set (acOffloadSearch's second,
 * acOffloadCompete's) has the same limit in both, so that the plan for a
 * missed budget is never above one the start's run gave a higher budget:
 * 2^23 (at least 16); the run from the recompute searches' plan 2^24 (at
 * least 64). */
static intptr_t acOffloadMaxSimulations(const AcGraph *g, int shift,
                                        intptr_t least) {
  intptr_t n = ((intptr_t)1 << shift) / ((intptr_t)g->numOps + g->numValues + 1);
  return n < least ? least : n;
}

enum { AC_OFFLOAD_FLOOR_SHIFT = 24, AC_OFFLOAD_START_SHIFT = 23 };

/* Tries move (kind, v) from `cur` (simulated as `cs`) into `trial`;
 * fills `m` when it lowers the peak within the host budget. */
static AcStatus acTryMove(const AcGraph *g, const AcPlanOptions *opts,
                          const AcPlan *cur, AcRecomputeGroups *groups,
                          const AcSimResult *cs, int kind, AcId v,
                          AcPlan *trial, AcMove *m, AcError *err) {
  AcSimResult ts;
  AcStatus st;
  memset(&ts, 0, sizeof ts);
  m->v = AC_NONE;
  acPlanCopy(trial, cur);
  if (kind == 0) {
    trial->offload[v] = 1;
  } else {
    trial->saved[v] = 0;
    if ((st = acPlanDerive(g, trial, err)) != AC_OK)
      return st;
  }
  /* An offload keeps the saved set, hence the recompute groups. */
  if ((st = acSimulateGroups(g, trial, kind == 0 ? groups : NULL,
                             opts->staticBytes, &ts, NULL, err)) != AC_OK)
    return st;
  if (ts.peakBytes < cs->peakBytes &&
      (g->hostBudget <= 0 || ts.hostPeakBytes <= g->hostBudget)) {
    double c = (ts.recomputeSeconds + ts.stallSeconds) -
               (cs->recomputeSeconds + cs->stallSeconds);
    *m = (AcMove){kind, v, c > 0 ? c : 0, cs->peakBytes - ts.peakBytes};
  }
  acSimResultClear(&ts);
  return AC_OK;
}

int acOffloadNoPrune;

/* The bound on a move from `cur` (simulated as `cs`): a cost no higher and
 * a fall no lower than the move's own, so that a bound that is not better
 * than the best move so far (acMoveBetter) rules the move out.
 *  - Offloading v changes no step: it shortens v's device buffer and the
 *    copies of others only queue behind it (they stay on the device as long
 *    or longer).  So it frees at most v's storage in each schedule entry,
 *    and nothing unless v's buffer is live at the peak step (the caller
 *    skips those); its extra seconds are at least 0.
 *  - Dropping v reruns ops in the backward, which can move a whole
 *    recompute group to another anchor (its transients leave the peak) and
 *    prefetches later: no bound on the fall.  With no stalls now its extra
 *    seconds are at least its producer's (the op joins the recompute set
 *    unless another of its results is in it), less a margin for the
 *    rounding of the two plans' sums. */
static AcMove acMoveBound(const AcGraph *g, const AcPlan *cur,
                          const AcSimResult *cs, int kind, AcId v) {
  int64_t inst = g->numSched > 0 ? (int64_t)g->numSched : 1;
  int64_t bytes = g->values[v].bytes;
  int64_t fall = bytes > 0 && bytes <= AC_MAX_BYTES / inst ? bytes * inst
                                                           : AC_MAX_BYTES;
  AcMove b = {kind, v, 0, kind == 0 ? fall : AC_MAX_BYTES};
  AcId p = g->values[v].producer;
  if (kind == 1 && p != AC_NONE && !(cs->stallSeconds > 0) && !cur->recompute[p]) {
    double c = g->ops[p].seconds - 1e-6 * (cs->recomputeSeconds + g->ops[p].seconds);
    b.cost = c > 0 ? c : 0;
  }
  return b;
}

static int acMoveCompare(const void *pa, const void *pb) {
  const AcMove *a = pa, *b = pb;
  return acMoveBetter(a, b) ? -1 : acMoveBetter(b, a) ? 1 : 0;
}

/* One step of the trajectory from `plan` (simulated as `cs`, `peakLive`
 * its buffers live at the peak step: acSimulatePeakOffloadable): the best
 * move in `*best` (v == AC_NONE: none lowers the peak).  The moves are
 * tried in the order of their bounds and the scan stops at the first bound
 * that cannot beat the best move found (acMoveBound): the same move as
 * trying them all.  `*sims` counts simulations; AC_OK with *cut = 1 when
 * the limit or the deadline stopped the step (no move is then taken). */
static AcStatus acOffloadStep(const AcGraph *g, const AcPlanOptions *opts,
                              const AcPlan *plan, AcRecomputeGroups *groups,
                              const AcSimResult *cs,
                              const uint8_t *peakLive, const uint8_t *cand,
                              AcDropChecker *ck,
                              AcMove *moves, AcPlan *trial, double deadline,
                              intptr_t maxSims, int wholeSteps, intptr_t *sims,
                              AcMove *best, int *cut, AcError *err) {
  intptr_t n = 0;
  *best = (AcMove){0, AC_NONE, 0, 0};
  *cut = 0;
  for (AcId v = 0; v < (AcId)g->numValues; ++v) {
    if (!plan->saved[v])
      continue;
    if (cand[v] && !plan->offload[v] && (acOffloadNoPrune || peakLive[v]))
      moves[n++] = acMoveBound(g, plan, cs, 0, v);
    if (acDropCheckerOk(ck, plan->saved, v))
      moves[n++] = acMoveBound(g, plan, cs, 1, v);
  }
  if (wholeSteps && *sims + n > maxSims) {
    *cut = 1; /* a step that could pass the limit is not started */
    return AC_OK;
  }
  if (!acOffloadNoPrune)
    qsort(moves, (size_t)n, sizeof *moves, acMoveCompare);
  for (intptr_t i = 0; i < n; ++i) {
    if (!acOffloadNoPrune && best->v != AC_NONE &&
        !acMoveBetter(&moves[i], best))
      break;
    if (*sims >= maxSims || (deadline > 0 && acClockSeconds() > deadline)) {
      *cut = 1;
      return AC_OK;
    }
    ++*sims;
    AcMove m;
    AcStatus st = acTryMove(g, opts, plan, groups, cs, moves[i].kind,
                            moves[i].v, trial, &m, err);
    if (st != AC_OK)
      return st;
    assert(m.v == AC_NONE || acNoPruneOrBounded(&m, &moves[i]));
    if (m.v != AC_NONE && acMoveBetter(&m, best))
      *best = m;
  }
  return AC_OK;
}

static AcStatus acOffloadRun(const AcGraph *g, const AcPlanOptions *opts,
                             double deadline, intptr_t maxSims, int wholeSteps,
                             double recomputeCap, AcPlan *plan, int *changed,
                             int *limited, AcError *err) {
  AcStatus st = AC_OK;
  AcSimResult cs;
  AcPlan *trial = NULL;
  uint8_t *cand = NULL, *peakLive = NULL;
  AcMove *moves = NULL;
  AcDropChecker *ck = NULL;
  AcRecomputeGroups *groups = NULL; /* of `plan` */
  intptr_t sims = 0;
  memset(&cs, 0, sizeof cs);
  *changed = 0;
  if (!(g->hostBandwidth > 0) || opts->budget < 0)
    return AC_OK;
  trial = acPlanCreate(g);
  cand = acMalloc((size_t)g->numValues + 1);
  peakLive = acMalloc((size_t)g->numValues + 1);
  moves = acMalloc(((size_t)g->numValues * 2 + 1) * sizeof *moves);
  ck = acDropCheckerCreate(g);
  if (!trial || !cand || !peakLive || !moves || !ck) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while planning");
    goto cleanup;
  }
  if ((st = acPlanOffloadCandidates(g, cand, err)) != AC_OK ||
      (st = acPlanGroups(g, plan, &groups, err)) != AC_OK ||
      (st = acSimulateGroups(g, plan, groups, opts->staticBytes, &cs, peakLive,
                             err)) != AC_OK)
    goto cleanup;
  while (cs.peakBytes > opts->budget) {
    /* Recompute seconds never fall along the trajectory (offloads keep
       them, drops add to them), and a plan costs at least them: past the
       cap no later plan can cost less than it. */
    if (recomputeCap > 0 && cs.recomputeSeconds >= recomputeCap)
      break;
    AcMove best;
    int cut = 0;
    if ((st = acOffloadStep(g, opts, plan, groups, &cs, peakLive, cand, ck, moves, trial,
                            deadline, maxSims, wholeSteps, &sims, &best, &cut,
                            err)) != AC_OK)
      goto cleanup;
    if (cut) { /* a prefix of the trajectory: the step is not taken */
      *limited = 1;
      break;
    }
    if (best.v == AC_NONE)
      break;
    if (best.kind == 0) {
      plan->offload[best.v] = 1;
    } else {
      plan->saved[best.v] = 0;
      if ((st = acPlanDerive(g, plan, err)) != AC_OK)
        goto cleanup;
    }
    *changed = 1;
    acSimResultClear(&cs);
    if (best.kind == 1) {
      acRecomputeGroupsDestroy(groups);
      groups = NULL;
      if ((st = acPlanGroups(g, plan, &groups, err)) != AC_OK)
        goto cleanup;
    }
    if ((st = acSimulateGroups(g, plan, groups, opts->staticBytes, &cs,
                               peakLive, err)) != AC_OK)
      goto cleanup;
  }
cleanup:
  acSimResultClear(&cs);
  acDropCheckerDestroy(ck);
  acPlanDestroy(trial);
  acRecomputeGroupsDestroy(groups);
  acFree(peakLive);
  acFree(moves);
  acFree(cand);
  return st;
}

/* The extra seconds of a plan: recompute plus stalls. */
static AcStatus acOffloadExtraSeconds(const AcGraph *g, const AcPlan *p,
                                   int64_t staticBytes, int64_t *peak,
                                   double *secs, AcError *err) {
  AcSimResult r;
  memset(&r, 0, sizeof r);
  AcStatus st = acSimulate(g, p, staticBytes, 0, &r, err);
  if (st == AC_OK) {
    *peak = r.peakBytes;
    *secs = r.recomputeSeconds + r.stallSeconds;
  }
  acSimResultClear(&r);
  return st;
}

AcStatus acOffloadSearch(const AcGraph *g, const AcPlanOptions *opts,
                         const uint8_t *start, double deadline, AcPlan *plan,
                         int *changed, int *limited, AcError *err) {
  AcStatus st = acOffloadRun(g, opts, deadline,
                             acOffloadMaxSimulations(g, AC_OFFLOAD_FLOOR_SHIFT, 64),
                             0, 0, plan, changed, limited, err);
  AcPlan *o = NULL;
  int64_t peak = 0, oPeak = 0;
  double secs = 0, oSecs = 0;
  int ochanged = 0, olimited = 0;
  if (st != AC_OK || !start || !(g->hostBandwidth > 0) || opts->budget < 0 ||
      *limited)
    return st;
  /* A budget the recompute searches met: nothing to do here.  One they
     missed: from the start too, even when the first run met it, since the
     budgets greedy meets take plans of that run (acOffloadCompete), whose
     peak a missed budget's plan must not exceed (difftest seed 400722:
     18224 B at 18722 B above 18132 B at 20196 B). */
  if ((st = acOffloadExtraSeconds(g, plan, opts->staticBytes, &peak, &secs, err)) != AC_OK ||
      (!*changed && peak <= opts->budget))
    return st;
  if (!(o = acPlanCreate(g)))
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory while planning");
  if ((st = acPlanFromSaved(g, start, o, err)) != AC_OK ||
      (st = acOffloadRun(g, opts, deadline,
                         acOffloadMaxSimulations(g, AC_OFFLOAD_START_SHIFT, 16),
                         1, 0, o, &ochanged, &olimited, err)) != AC_OK ||
      (st = acOffloadExtraSeconds(g, o, opts->staticBytes, &oPeak, &oSecs, err)) != AC_OK)
    goto cleanup;
  /* Its limit is the one acOffloadCompete's run has (the plans it must stay
     below are of that prefix), not a cut; the deadline is. */
  if (olimited && deadline > 0 && acClockSeconds() > deadline)
    *limited = 1;
  if (oPeak < peak || (oPeak == peak && oSecs < secs)) {
    acPlanCopy(plan, o);
    *changed = 1;
  }
cleanup:
  acPlanDestroy(o);
  return st;
}

AcStatus acOffloadCompete(const AcGraph *g, const AcPlanOptions *opts,
                          const uint8_t *start, double deadline, AcPlan *plan,
                          int *changed, AcError *err) {
  AcStatus st = AC_OK;
  AcPlan *o = NULL;
  int64_t gPeak = 0, oPeak = 0;
  double gSecs = 0, oSecs = 0;
  int ochanged = 0, olimited = 0;
  *changed = 0;
  if (!(g->hostBandwidth > 0) || opts->budget < 0)
    return AC_OK;
  if ((st = acOffloadExtraSeconds(g, plan, opts->staticBytes, &gPeak, &gSecs, err)) != AC_OK)
    return st;
  if (gPeak > opts->budget || !(gSecs > 0))
    return AC_OK; /* missed (acOffloadSearch's case), or nothing to save */
  if (!(o = acPlanCreate(g)))
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory while planning");
  if ((st = acPlanFromSaved(g, start, o, err)) != AC_OK)
    goto cleanup;
  AcPlanOptions to = *opts;
  to.budget = gPeak;
  /* Only a plan costing less than greedy's is taken: the run stops once
     its recompute seconds reach greedy's (acOffloadRun's cap). */
  if ((st = acOffloadRun(g, &to, deadline,
                         acOffloadMaxSimulations(g, AC_OFFLOAD_START_SHIFT, 16),
                         1, gSecs, o, &ochanged, &olimited, err)) != AC_OK ||
      (st = acOffloadExtraSeconds(g, o, opts->staticBytes, &oPeak, &oSecs, err)) != AC_OK)
    goto cleanup;
  if (oPeak <= gPeak && oSecs < gSecs) {
    acPlanCopy(plan, o);
    *changed = 1;
  }
cleanup:
  acPlanDestroy(o);
  return st;
}
