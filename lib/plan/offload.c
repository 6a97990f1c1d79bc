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

/* The simulations one search may run: 2^26 units of ops + values. */
static intptr_t acOffloadMaxSimulations(const AcGraph *g) {
  intptr_t n = ((intptr_t)1 << 26) / ((intptr_t)g->numOps + g->numValues + 1);
  return n < 64 ? 64 : n;
}

/* Tries move (kind, v) from `cur` (simulated as `cs`) into `trial`;
 * fills `m` when it lowers the peak within the host budget. */
static AcStatus acTryMove(const AcGraph *g, const AcPlanOptions *opts,
                          const AcPlan *cur, const AcSimResult *cs, int kind,
                          AcId v, AcPlan *trial, AcMove *m, AcError *err) {
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
  if ((st = acSimulate(g, trial, opts->staticBytes, 0, &ts, err)) != AC_OK)
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

static AcStatus acOffloadRun(const AcGraph *g, const AcPlanOptions *opts,
                             double deadline, intptr_t maxSims, AcPlan *plan,
                             int *changed, int *limited, AcError *err) {
  AcStatus st = AC_OK;
  AcSimResult cs;
  AcPlan *trial = NULL;
  uint8_t *cand = NULL;
  AcDropChecker *ck = NULL;
  intptr_t sims = 0;
  memset(&cs, 0, sizeof cs);
  *changed = 0;
  if (!(g->hostBandwidth > 0) || opts->budget < 0)
    return AC_OK;
  trial = acPlanCreate(g);
  cand = acMalloc((size_t)g->numValues + 1);
  ck = acDropCheckerCreate(g);
  if (!trial || !cand || !ck) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while planning");
    goto cleanup;
  }
  if ((st = acPlanOffloadCandidates(g, cand, err)) != AC_OK ||
      (st = acSimulate(g, plan, opts->staticBytes, 0, &cs, err)) != AC_OK)
    goto cleanup;
  while (cs.peakBytes > opts->budget) {
    AcMove best = {0, AC_NONE, 0, 0};
    /* A step is taken whole or not at all: one that would pass the limit
     * stops the run before its first simulation (the plan is the same as
     * when the limit cuts the step short, without the wasted work). */
    intptr_t moves = 0;
    for (AcId v = 0; v < (AcId)g->numValues; ++v)
      if (plan->saved[v])
        for (int kind = 0; kind < 2; ++kind)
          moves += kind == 0 ? cand[v] && !plan->offload[v]
                             : acDropCheckerOk(ck, plan->saved, v);
    if (sims + moves > maxSims) {
      *limited = 1;
      goto cleanup;
    }
    for (AcId v = 0; v < (AcId)g->numValues; ++v) {
      if (!plan->saved[v])
        continue;
      for (int kind = 0; kind < 2; ++kind) {
        if (kind == 0 ? !cand[v] || plan->offload[v]
                      : !acDropCheckerOk(ck, plan->saved, v))
          continue;
        ++sims;
        if (deadline > 0 && acClockSeconds() > deadline) {
          *limited = 1;
          goto cleanup;
        }
        AcMove m;
        if ((st = acTryMove(g, opts, plan, &cs, kind, v, trial, &m, err)) !=
            AC_OK)
          goto cleanup;
        if (m.v != AC_NONE && acMoveBetter(&m, &best))
          best = m;
      }
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
    if ((st = acSimulate(g, plan, opts->staticBytes, 0, &cs, err)) != AC_OK)
      goto cleanup;
  }
cleanup:
  acSimResultClear(&cs);
  acDropCheckerDestroy(ck);
  acPlanDestroy(trial);
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
  AcStatus st = acOffloadRun(g, opts, deadline, acOffloadMaxSimulations(g),
                             plan, changed, limited, err);
  AcPlan *o = NULL;
  int64_t peak = 0, oPeak = 0;
  double secs = 0, oSecs = 0;
  int ochanged = 0;
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
      (st = acOffloadRun(g, opts, deadline, acOffloadMaxSimulations(g), o,
                         &ochanged, limited, err)) != AC_OK ||
      (st = acOffloadExtraSeconds(g, o, opts->staticBytes, &oPeak, &oSecs, err)) != AC_OK)
    goto cleanup;
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
  intptr_t maxSims = ((intptr_t)1 << 23) / ((intptr_t)g->numOps + g->numValues + 1);
  if ((st = acOffloadRun(g, &to, deadline, maxSims < 16 ? 16 : maxSims, o,
                         &ochanged, &olimited, err)) != AC_OK ||
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
