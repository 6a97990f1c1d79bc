/* start.c - the planner's starting save set (plan.h, acPlanStartSet).
 *
 * PyTorch's min-cut set is the start, as in its partitioner: cheap, fusible
 * ops recomputed, the fewest bytes crossing from forward to backward.  But
 * the min cut weighs bytes crossing the cut, not the true peak, and two of
 * its choices can make a plan worse than saving everything:
 *  1. it recomputes a forward output the backward reads, although the output
 *     is live until the backward's end anyway (saving it costs nothing);
 *  2. a recompute's transients can sit at the peak, where saving one more
 *     value would lower it.
 * So the start is improved, each change simulated and kept only when it
 * helps: returned outputs are saved back when that raises neither the peak
 * nor the recompute time; then, while the peak is at a recompute step, the
 * recomputed value (of the group at the peak) whose saving lowers the peak
 * most is saved back; finally save-all replaces the result if its peak is
 * still lower.  Hence with no budget the start's peak is at most
 * min(save-all, min-cut), and every budget either meets is met by the
 * start itself (the first plan of every search from it).  Last, saves the
 * backward no longer reads (the inputs of a value saved back) are dropped. */
#include "plan_internal.h"
#include "partition/partition.h"
#include "autoac/simulate.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>

enum {
  AC_START_ROUNDS = 32,     /* peak-lowering saves added back at most */
  AC_START_CANDIDATES = 32, /* values tried per round, of each kind */
  AC_START_WORK = 1 << 24,  /* simulations x graph size, at most */
  AC_START_MIN_SIMS = 16    /* simulations allowed on any graph */
};

typedef struct AcStart {
  const AcGraph *g;
  int64_t staticBytes;
  AcPlan *trial;
  AcSimResult sim;          /* of `trial` after acStartTry */
  /* The current set: cur == curPlan->saved between the steps, curSim is
     curPlan's (no timeline: nothing owned). */
  uint8_t *cur;
  AcPlan *curPlan;
  AcSimResult curSim;
  uint8_t *seen;            /* [numOps] scratch of acStartCandidates */
  int abandoned;            /* a step stopped the refinement: the min-cut
                               set is the start */
  AcError *err;
} AcStart;

/* Derives and simulates `saved` in s->trial.  AC_OK with *ok = 0 when the
 * set does not derive (never for supersets of a set that derives, but the
 * check costs nothing). */
static AcStatus acStartTry(AcStart *s, const uint8_t *saved, int *ok) {
  const AcGraph *g = s->g;
  AcError local;
  memcpy(s->trial->saved, saved, (size_t)g->numValues);
  AcStatus st = acPlanDerive(g, s->trial, &local);
  *ok = 0;
  if (st == AC_ERR_NOMEM)
    return acErrorSet(s->err, st, AC_NONE, AC_NONE, "%s", local.message);
  if (st != AC_OK)
    return AC_OK;
  acSimResultClear(&s->sim);
  if ((st = acSimulate(g, s->trial, s->staticBytes, 0, &s->sim, s->err)) != AC_OK)
    return st;
  *ok = 1;
  return AC_OK;
}

int acPlanSavable(const AcGraph *g, AcId v) {
  const AcValue *val = &g->values[v];
  if (val->role != AC_ROLE_RESULT || val->phase != AC_PHASE_FWD ||
      val->aliasRoot != v || !val->saveCandidate)
    return 0;
  const AcOp *op = &g->ops[val->producer];
  return !op->mustRecompute;
}

/* Recomputed values of the group running at the peak: the peak op's
 * results and, walking back through the recomputed producers of its
 * operands, theirs (at most AC_START_CANDIDATES, nearest first). */
static intptr_t acStartCandidates(const AcGraph *g, const AcPlan *plan,
                                  AcId peakOp, AcId *out, uint8_t *seen) {
  intptr_t n = 0, head = 0;
  AcId queue[AC_START_CANDIDATES * 4];
  intptr_t qn = 0;
  queue[qn++] = peakOp;
  seen[peakOp] = 1;
  while (head < qn && n < AC_START_CANDIDATES) {
    AcId o = queue[head++];
    const AcOp *op = &g->ops[o];
    for (int32_t r = 0; r < op->numResults && n < AC_START_CANDIDATES; ++r) {
      AcId v = g->values[op->firstResult + r].aliasRoot;
      if (acPlanSavable(g, v) && !plan->saved[v]) {
        int dup = 0;
        for (intptr_t k = 0; k < n && !dup; ++k)
          dup = out[k] == v;
        if (!dup)
          out[n++] = v;
      }
    }
    for (int32_t i = 0; i < op->numOperands; ++i) {
      AcId p = g->values[acOpOperand(g, o, i)].producer;
      if (p != AC_NONE && plan->recompute[p] && !seen[p] &&
          qn < (intptr_t)(sizeof queue / sizeof queue[0])) {
        seen[p] = 1;
        queue[qn++] = p;
      }
    }
  }
  for (intptr_t k = 0; k < qn; ++k)
    seen[queue[k]] = 0;
  return n;
}

intptr_t acPlanPeakCandidates(const AcGraph *g, const AcPlan *plan, AcId peakOp,
                              AcId *out, intptr_t max, uint8_t *seen) {
  AcId cand[AC_START_CANDIDATES];
  intptr_t n = acStartCandidates(g, plan, peakOp, cand, seen);
  if (n > max)
    n = max;
  memcpy(out, cand, (size_t)n * sizeof *out);
  return n;
}

/* Up to `max` recomputed values that may be saved back, spread evenly over
 * all of them in value order (forward program order), skipping those in
 * out[0..n): where a save splits a long recomputed chain into parts that
 * are recomputed one after the other.  Returns the new count. */
static intptr_t acStartSpread(const AcGraph *g, const AcPlan *plan, AcId *out,
                              intptr_t n, intptr_t max) {
  intptr_t total = 0;
  for (AcId v = 0; v < (AcId)g->numValues; ++v)
    total += acPlanSavable(g, v) && !plan->saved[v] &&
             plan->recompute[g->values[v].producer];
  if (total == 0 || max <= 0)
    return n;
  intptr_t want = max < total ? max : total, k = 0, i = 0;
  /* The i-th pick is the middle one of the i-th of `want` equal shares. */
  for (AcId v = 0; v < (AcId)g->numValues && i < want; ++v) {
    if (!acPlanSavable(g, v) || plan->saved[v] || !plan->recompute[g->values[v].producer])
      continue;
    if (k++ != ((2 * i + 1) * total) / (2 * want))
      continue;
    i++;
    int dup = 0;
    for (intptr_t j = 0; j < n && !dup; ++j)
      dup = out[j] == v;
    if (!dup)
      out[n++] = v;
  }
  return n;
}

/* Makes s->trial, just tried, the current plan. */
static void acStartKeep(AcStart *s) {
  acPlanCopy(s->curPlan, s->trial);
  s->curSim = s->sim;
}

/* 1. Returned outputs the backward reads, which the current plan
 * recomputes: live to the end anyway, so saved back, kept if that raises
 * neither the peak nor the recompute time. */
static AcStatus acStartSaveOutputs(AcStart *s) {
  const AcGraph *g = s->g;
  AcStatus st;
  int added = 0, ok = 0;
  for (AcId v = 0; v < (AcId)g->numValues; ++v) {
    const AcValue *val = &g->values[v];
    if ((val->retFlags & AC_RET_OUTPUT) && val->role == AC_ROLE_RESULT) {
      AcId r = val->aliasRoot;
      if (acPlanSavable(g, r) && !s->cur[r] &&
          s->curPlan->recompute[g->values[r].producer]) {
        s->cur[r] = 1;
        added = 1;
      }
    }
  }
  if (!added)
    return AC_OK;
  if ((st = acStartTry(s, s->cur, &ok)) != AC_OK)
    return st;
  if (ok && s->sim.peakBytes <= s->curSim.peakBytes &&
      s->sim.recomputeSeconds <= s->curSim.recomputeSeconds)
    acStartKeep(s);
  else
    memcpy(s->cur, s->curPlan->saved, (size_t)g->numValues);
  return AC_OK;
}

/* Of the `nc` candidates, the one whose saving lowers the current peak
 * most (ties: less recompute time) into *best (AC_NONE: none lowers it). */
static AcStatus acStartBestOf(AcStart *s, const AcId *cand, intptr_t nc,
                              AcId *best) {
  int64_t bestPeak = s->curSim.peakBytes;
  double bestSecs = s->curSim.recomputeSeconds;
  int ok = 0;
  *best = AC_NONE;
  for (intptr_t k = 0; k < nc; ++k) {
    s->cur[cand[k]] = 1;
    AcStatus st = acStartTry(s, s->cur, &ok);
    s->cur[cand[k]] = 0;
    if (st != AC_OK)
      return st;
    if (ok && (s->sim.peakBytes < bestPeak ||
               (*best != AC_NONE && s->sim.peakBytes == bestPeak &&
                s->sim.recomputeSeconds < bestSecs))) {
      *best = cand[k];
      bestPeak = s->sim.peakBytes;
      bestSecs = s->sim.recomputeSeconds;
    }
  }
  return AC_OK;
}

/* 2. A peak in the backward (at a recompute or while recomputed values are
 * live): save back what lowers the peak most, among the nearest recomputed
 * values of the peak's group and values spread over every recomputed one
 * (a long recomputed chain is split where it helps most).  Simulations are
 * bounded by AC_START_WORK units of graph size. */
static AcStatus acStartLowerPeak(AcStart *s) {
  const AcGraph *g = s->g;
  AcStatus st;
  int ok = 0;
  intptr_t simsLeft = AC_START_WORK / ((intptr_t)g->numOps + (intptr_t)g->numValues + 1);
  if (simsLeft > AC_START_ROUNDS * 2 * AC_START_CANDIDATES)
    simsLeft = AC_START_ROUNDS * 2 * AC_START_CANDIDATES;
  if (simsLeft < AC_START_MIN_SIMS)
    simsLeft = AC_START_MIN_SIMS;
  /* Spread candidates per round: fewer on big graphs, so that the
     simulations left still buy several rounds (several splits). */
  intptr_t spread = simsLeft / 8;
  spread = spread < 8 ? 8 : spread > 2 * AC_START_CANDIDATES ? 2 * AC_START_CANDIDATES : spread;
  for (int round = 0; round < AC_START_ROUNDS; ++round) {
    if (s->curSim.peakKind == AC_STEP_FWD || s->curSim.peakOp == AC_NONE)
      break;
    AcId cand[2 * AC_START_CANDIDATES];
    intptr_t nc = 0;
    if (s->curSim.peakKind == AC_STEP_RECOMPUTE)
      nc = acStartCandidates(g, s->curPlan, s->curSim.peakOp, cand, s->seen);
    nc = acStartSpread(g, s->curPlan, cand, nc,
                       spread < 2 * AC_START_CANDIDATES - nc ? spread
                                                            : 2 * AC_START_CANDIDATES - nc);
    if (nc > simsLeft)
      nc = simsLeft;
    simsLeft -= nc;
    AcId best = AC_NONE;
    if ((st = acStartBestOf(s, cand, nc, &best)) != AC_OK)
      return st;
    if (best == AC_NONE)
      break;
    s->cur[best] = 1;
    if ((st = acStartTry(s, s->cur, &ok)) != AC_OK)
      return st;
    if (!ok) {
      /* (cannot happen: a superset of a set that derives) the min-cut set
         stands, unsimulated. */
      s->abandoned = 1;
      return AC_OK;
    }
    acStartKeep(s);
  }
  return AC_OK;
}

/* 3. Save-all into `saved` if its peak is lower still, else the current
 * set; s->curSim is then of `saved`. */
static AcStatus acStartSaveAll(AcStart *s, uint8_t *saved) {
  const AcGraph *g = s->g;
  int ok = 0;
  acPlanSaveAll(g, s->trial);
  memcpy(saved, s->trial->saved, (size_t)g->numValues);
  AcStatus st = acStartTry(s, saved, &ok);
  if (st != AC_OK)
    return st;
  if (!ok || s->sim.peakBytes >= s->curSim.peakBytes)
    memcpy(saved, s->curPlan->saved, (size_t)g->numValues);
  else
    s->curSim = s->sim;
  return AC_OK;
}

/* 4. Saves the backward no longer reads (a saved-back value's inputs):
 * dropping them from `saved` only frees memory. */
static AcStatus acStartDropUnread(AcStart *s, uint8_t *saved) {
  const AcGraph *g = s->g;
  intptr_t dropped = 0;
  int ok = 0;
  AcStatus st;
  memcpy(s->cur, saved, (size_t)g->numValues);
  if ((st = acPlanDropUnread(g, s->cur, &dropped, s->err)) != AC_OK ||
      dropped == 0)
    return st;
  if ((st = acStartTry(s, s->cur, &ok)) != AC_OK)
    return st;
  assert(!ok || s->sim.peakBytes <= s->curSim.peakBytes);
  if (ok && s->sim.peakBytes <= s->curSim.peakBytes) {
    memcpy(saved, s->cur, (size_t)g->numValues);
    s->curSim = s->sim;
  }
  return AC_OK;
}

AcStatus acPlanStartSet(const AcGraph *g, int64_t staticBytes, uint8_t *saved,
                        AcError *err) {
  return acPlanStartSetSim(g, staticBytes, saved, NULL, err);
}

AcStatus acPlanStartSetSim(const AcGraph *g, int64_t staticBytes, uint8_t *saved,
                           AcSimResult *sim, AcError *err) {
  AcStatus st;
  AcStart s;
  int ok = 0;
  memset(&s, 0, sizeof s);
  s.g = g;
  s.staticBytes = staticBytes;
  s.err = err;
  s.curSim.peakBytes = -1;
  if (sim) {
    memset(sim, 0, sizeof *sim);
    sim->peakBytes = -1;
  }
  if ((st = acMincutSaveSet(g, saved, err)) != AC_OK)
    return st;
  s.trial = acPlanCreate(g);
  s.curPlan = acPlanCreate(g);
  s.cur = acMalloc((size_t)g->numValues + 1);
  s.seen = acCalloc((size_t)g->numOps + 1, 1);
  if (!s.trial || !s.curPlan || !s.cur || !s.seen) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory choosing the starting save set");
    goto cleanup;
  }
  memcpy(s.cur, saved, (size_t)g->numValues);
  if ((st = acStartTry(&s, s.cur, &ok)) != AC_OK || !ok)
    goto cleanup;   /* the min-cut set itself (acPlanRun reports errors) */
  acStartKeep(&s);
  if ((st = acStartSaveOutputs(&s)) != AC_OK ||
      (st = acStartLowerPeak(&s)) != AC_OK || s.abandoned ||
      (st = acStartSaveAll(&s, saved)) != AC_OK ||
      (st = acStartDropUnread(&s, saved)) != AC_OK)
    goto cleanup;
  if (sim)
    *sim = s.curSim;
cleanup:
  acSimResultClear(&s.sim);
  acPlanDestroy(s.trial);
  acPlanDestroy(s.curPlan);
  acFree(s.cur);
  acFree(s.seen);
  return st;
}
