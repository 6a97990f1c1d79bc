/* restart.c - the floor search's restarts (plan_internal.h,
 * acFloorRestarts; docs/planner.md, "The default strategy's floor").
 *
 * Greedy's trajectory only drops saves.  A save it dropped early, while the
 * peak was elsewhere, can leave a recompute group at the floor's peak that
 * no later drop lowers; and on repeated layers the floor is often balanced:
 * several layers' backward peaks within bytes of each other, so that saving
 * one value back lowers one of them and raises the others by its size.  A
 * restart saves back one recomputed value of the group at the peak and runs
 * greedy's trajectory again from that set, which then drops what the save
 * made unnecessary elsewhere.  Each round tries the nearest candidates and
 * keeps the lowest floor when it is below the current one.  Everything is
 * deterministic: counts bound it, not the clock (a deadline only cuts). */
#include "greedy_internal.h"
#include "plan_internal.h"
#include "autoac/simulate.h"

#include <string.h>

/* One restart: greedy's trajectory from `saved` (derivable), its floor plan
 * into `out` and that plan's peak into *peak. */
static AcStatus acRestartTry(const AcGraph *g, const uint8_t *saved,
                             const uint8_t *keep, const AcPlanOptions *opts,
                             double deadline, AcPlan *out, int64_t *peak,
                             int *cut, AcError *err) {
  AcTrajectory *t = NULL;
  AcGreedyOptions go;
  acGreedyOptionsInit(&go);
  go.search.budget = -1;
  go.search.staticBytes = opts->staticBytes;
  go.search.deadline = deadline;
  go.keep = keep;
  AcStatus st = acGreedyIncrementalRun(g, saved, &go, cut, &t, err);
  if (st == AC_OK) {
    *peak = t->peakBytes[t->numPlans - 1];
    st = acTrajectoryPlan(g, t, t->numPlans - 1, out, err);
  }
  acTrajectoryDestroy(t);
  return st;
}

/* Scratch of the restarts. */
typedef struct AcRestart {
  AcPlan *trial, *next, *cur;
  uint8_t *saved, *seen;
  uint8_t *keep;            /* what earlier rounds saved back, and the try */
  AcId kept;                /* the best try's saved-back value */
  AcSimResult sim;          /* the plan's, with a timeline */
} AcRestart;

/* The backward op of the last recompute group that ran at or before the
 * peak in its schedule entry (the group whose values a peak in the backward
 * holds); AC_NONE when none did.  `sim` has a timeline. */
static AcStatus acRestartAnchor(const AcGraph *g, const AcPlan *plan,
                                const AcSimResult *sim, AcId *anchor,
                                AcError *err) {
  AcRecomputeGroups *gr = NULL;
  AcId op = AC_NONE;
  *anchor = AC_NONE;
  for (intptr_t t = sim->peakStep; t >= 0 && op == AC_NONE; --t) {
    if (sim->steps[t].sched != sim->peakSched ||
        sim->steps[t].kind == AC_STEP_FWD)
      break;
    if (sim->steps[t].kind == AC_STEP_RECOMPUTE)
      op = sim->steps[t].op;
  }
  if (op == AC_NONE)
    return AC_OK;
  AcStatus st = acPlanGroups(g, plan, &gr, err);
  for (intptr_t k = 0; st == AC_OK && k < gr->numGroups; ++k) {
    const AcRecomputeGroup *grp = &gr->groups[k];
    for (int32_t i = 0; i < grp->numOps; ++i)
      if (gr->ops[grp->firstOp + i] == op)
        *anchor = grp->anchor;
  }
  acRecomputeGroupsDestroy(gr);
  return st;
}

/* How far `sim` lies above `level`: the sum over its steps of the bytes
 * above it (the excess; a floor balanced over several peaks falls in it
 * when one of them falls, while the peak itself does not). */
static double acRestartExcess(const AcSimResult *sim, int64_t level) {
  double e = 0;
  for (intptr_t t = 0; t < sim->numSteps; ++t) {
    int64_t over = sim->live[t] + sim->staticBytes - level;
    e += over > 0 ? (double)over : 0.0;
  }
  return e;
}

/* The peak group's candidates (nearest first from its anchor) ordered by
 * the excess over `level` of the plan with each saved back (ties: nearer
 * first), the best AC_FLOOR_RESTART_TRIES first; returns their count. */
static AcStatus acRestartCandidates(const AcGraph *g, const AcPlan *plan,
                                    AcId anchor, int64_t level, AcRestart *r,
                                    AcId *out, intptr_t *n, AcError *err) {
  AcId cand[AC_FLOOR_RESTART_SCAN];
  double score[AC_FLOOR_RESTART_SCAN];
  /* The peak op's nearest, then the peak group's (from its anchor). */
  intptr_t nc = acPlanPeakCandidates(g, plan, r->sim.peakOp, cand,
                                     AC_FLOOR_RESTART_SCAN / 2, r->seen);
  if (anchor != AC_NONE && anchor != r->sim.peakOp) {
    AcId more[AC_FLOOR_RESTART_SCAN];
    intptr_t nm = acPlanPeakCandidates(g, plan, anchor, more,
                                       AC_FLOOR_RESTART_SCAN, r->seen);
    for (intptr_t k = 0; k < nm && nc < AC_FLOOR_RESTART_SCAN; ++k) {
      int dup = 0;
      for (intptr_t i = 0; i < nc && !dup; ++i)
        dup = cand[i] == more[k];
      if (!dup)
        cand[nc++] = more[k];
    }
  }
  AcSimResult sim;
  memset(&sim, 0, sizeof sim);
  /* A replayed draw is rerun from its saved state: saving its result back
     would keep both (the plan --ac-rng=keep makes, plus the state). */
  intptr_t kept = 0;
  for (intptr_t k = 0; k < nc; ++k)
    if (g->ops[g->values[cand[k]].producer].kind != AC_KIND_RNG_REPLAY)
      cand[kept++] = cand[k];
  nc = kept;
  for (intptr_t k = 0; k < nc; ++k) {
    memcpy(r->trial->saved, plan->saved, (size_t)g->numValues);
    r->trial->saved[cand[k]] = 1;
    AcStatus st = acPlanDerive(g, r->trial, err);
    if (st == AC_OK)
      st = acSimulate(g, r->trial, r->sim.staticBytes, 1, &sim, err);
    if (st != AC_OK)
      return st;
    score[k] = acRestartExcess(&sim, level);
    acSimResultClear(&sim);
    /* insertion by score, stable */
    for (intptr_t i = k; i > 0 && score[i] < score[i - 1]; --i) {
      double ts = score[i]; score[i] = score[i - 1]; score[i - 1] = ts;
      AcId tc = cand[i]; cand[i] = cand[i - 1]; cand[i - 1] = tc;
    }
  }
  *n = nc < AC_FLOOR_RESTART_TRIES ? nc : AC_FLOOR_RESTART_TRIES;
  memcpy(out, cand, (size_t)*n * sizeof *out);
  return AC_OK;
}

/* One round from `cur` (simulated in r->sim): the restart with the lowest
 * floor (ties: the earlier candidate) into r->next, its floor into *peak
 * and its saved-back value into r->kept; *found when any try ran. */
static AcStatus acRestartRound(const AcGraph *g, const AcPlanOptions *opts,
                               double deadline, const AcPlan *cur,
                               AcRestart *r, int64_t *peak, int *found,
                               int *cut, AcError *err) {
  AcId anchor, cand[AC_FLOOR_RESTART_TRIES];
  intptr_t nc = 0;
  int64_t level = r->sim.peakBytes - (r->sim.peakBytes - r->sim.staticBytes) / 32;
  *found = 0;
  AcStatus st = acRestartAnchor(g, cur, &r->sim, &anchor, err);
  if (st == AC_OK)
    st = acRestartCandidates(g, cur, anchor, level, r, cand, &nc, err);
  for (intptr_t k = 0; st == AC_OK && k < nc && !*cut; ++k) {
    int64_t p = 0;
    memcpy(r->saved, cur->saved, (size_t)g->numValues);
    r->saved[cand[k]] = 1;
    r->keep[cand[k]] = 1;
    st = acRestartTry(g, r->saved, r->keep, opts, deadline, r->trial, &p, cut,
                      err);
    r->keep[cand[k]] = 0;
    if (st == AC_OK && (!*found || p < *peak)) {
      *peak = p;
      *found = 1;
      r->kept = cand[k];
      acPlanCopy(r->next, r->trial);
    }
  }
  return st;
}

AcStatus acFloorRestarts(const AcGraph *g, const AcPlanOptions *opts,
                         double deadline, AcPlan *plan, int *changed,
                         int *limited, AcError *err) {
  AcRestart r;
  AcStatus st = AC_OK;
  int cut = 0;
  memset(&r, 0, sizeof r);
  r.trial = acPlanCreate(g);
  r.next = acPlanCreate(g);
  r.cur = acPlanCreate(g);
  r.saved = acMalloc((size_t)g->numValues + 1);
  r.seen = acCalloc((size_t)g->numOps + 1, 1);
  r.keep = acCalloc((size_t)g->numValues + 1, 1);
  *changed = 0;
  if (!r.trial || !r.next || !r.cur || !r.saved || !r.seen || !r.keep) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while planning");
    goto cleanup;
  }
  acPlanCopy(r.cur, plan);
  int64_t bestPeak = -1;
  int stale = 0;
  for (int round = 0; round < AC_FLOOR_RESTART_ROUNDS && !cut; ++round) {
    acSimResultClear(&r.sim);
    if ((st = acSimulate(g, r.cur, opts->staticBytes, 1, &r.sim, err)) != AC_OK)
      goto cleanup;
    if (bestPeak < 0)
      bestPeak = r.sim.peakBytes;
    if (r.sim.peakKind == AC_STEP_FWD || r.sim.peakOp == AC_NONE ||
        r.sim.peakBytes <= opts->budget)
      break;
    int64_t peak = 0;
    int found = 0;
    if ((st = acRestartRound(g, opts, deadline, r.cur, &r, &peak, &found, &cut,
                             err)) != AC_OK)
      goto cleanup;
    if (!found)
      break;
    /* The walk goes on from the round's best even when it is above the
       best so far (a balanced floor falls one peak at a time). */
    acPlanCopy(r.cur, r.next);
    r.keep[r.kept] = 1;
    if (peak < bestPeak) {
      bestPeak = peak;
      acPlanCopy(plan, r.next);
      *changed = 1;
      stale = 0;
    } else if (++stale == AC_FLOOR_RESTART_STALE) {
      break;
    }
  }
  *limited = cut;
cleanup:
  acSimResultClear(&r.sim);
  acPlanDestroy(r.trial);
  acPlanDestroy(r.next);
  acPlanDestroy(r.cur);
  acFree(r.saved);
  acFree(r.seen);
  acFree(r.keep);
  return st;
}
