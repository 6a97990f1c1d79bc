/* run.c - acPlanRun: one planning run for a strategy (docs/planner.md). */
#include "greedy_internal.h"
#include "plan_internal.h"
#include "partition/partition.h"
#include "autoac/simulate.h"

#include <string.h>
#include <time.h>

AcStatus acPlanRun(const AcGraph *g, const AcPlanOptions *opts, AcPlan *plan,
                   AcError *err) {
  return acPlanRunStats(g, opts, plan, NULL, err);
}

/* A candidate plan of the floor search and what it costs. */
typedef struct AcFloorPick {
  int64_t peak;
  double seconds;
  AcStrategy by;
} AcFloorPick;

/* Is `a` better than `b` for `budget`: meeting it beats missing it; among
 * plans that meet it the one recomputing less (then the lower peak), among
 * plans that miss it the lower peak (then less recompute). */
static int acFloorBetter(const AcFloorPick *a, const AcFloorPick *b,
                         int64_t budget) {
  int fa = a->peak <= budget, fb = b->peak <= budget;
  if (fa != fb)
    return fa;
  if (fa)
    return a->seconds < b->seconds ||
           (a->seconds == b->seconds && a->peak < b->peak);
  return a->peak < b->peak || (a->peak == b->peak && a->seconds < b->seconds);
}

/* Greedy's floor search (AcPlanOptions.floorSearch): `plan` holds greedy's
 * plan for the budget; when it misses the budget, beam and the ILP (within
 * their bounds) search the same space, and the best plan of the three
 * (acFloorBetter) is returned, so the default strategy meets every budget
 * any search meets and its lowest peak is the lowest any search found.
 * Beam's choice and the ILP's are monotone in the budget and each is taken
 * only below greedy's lowest peak, so the peak stays monotone too.
 * `*sim` (cleared by the caller) receives the returned plan's simulation,
 * with a timeline when `wantTimeline` and the plan is greedy's; a plan of
 * beam or the ILP comes without one. */
static AcStatus acGreedyFloorSearch(const AcGraph *g, const uint8_t *saved,
                                    const AcPlanOptions *opts, double deadline,
                                    AcPlan *plan, AcSearchStats *S,
                                    int wantTimeline, AcSimResult *sim,
                                    AcError *err) {
  AcStatus st;
  AcSimResult tsim;
  AcPlan *trial = NULL;
  AcBeamFront *beam = NULL;
  memset(&tsim, 0, sizeof tsim);
  S->foundBy = AC_STRATEGY_GREEDY;
  if ((st = acSimulate(g, plan, opts->staticBytes, wantTimeline, sim, err)) != AC_OK)
    goto cleanup;
  AcFloorPick best = {sim->peakBytes, sim->recomputeSeconds, AC_STRATEGY_GREEDY};
  if (best.peak <= opts->budget)
    goto cleanup;
  intptr_t droppable = acPlanDroppableCount(g, saved);
  if (droppable == 0) {
    /* The space is greedy's one plan: beam and the ILP would find it. */
    S->floorSearched = AC_FLOOR_RAN | AC_FLOOR_BEAM | AC_FLOOR_ILP;
    goto cleanup;
  }
  if (droppable < 0 || !(trial = acPlanCreate(g))) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while planning");
    goto cleanup;
  }
  S->floorSearched = AC_FLOOR_RAN;
  for (int which = 0; which < 2; ++which) {
    double left = deadline > 0 ? deadline - acClockSeconds() : 0;
    if (deadline > 0 && left <= 0) {
      S->limited = 1; /* the time limit passed: greedy's plan (or beam's) */
      break;
    }
    if (which == 0) {
      if (droppable > AC_FLOOR_BEAM_DROPPABLE)
        continue;
      S->floorSearched |= AC_FLOOR_BEAM;
      AcBeamRun run = {AC_FLOOR_BEAM_WIDTH, acBeamFloorSimulations(g, droppable),
                       1, deadline};
      if (acBeamFullIsCheap(g, droppable))
        run = (AcBeamRun){0, acBeamMaxSimulations(g), 0, deadline};
      if ((st = acBeamSearchRun(g, saved, opts->staticBytes, &run, &beam,
                                err)) != AC_OK ||
          (st = acBeamPlan(g, beam, acBeamChoose(beam, opts->budget), trial,
                           err)) != AC_OK)
        goto cleanup;
      /* Its simulation limit is the floor search's own bound, not a cut
         (greedy's trajectory inside it is whole: greedy's own run, which
         computed it, was not cut); the deadline is. */
      S->limited |= beam->limited && deadline > 0 &&
                    acClockSeconds() > deadline;
    } else {
      if (droppable > AC_FLOOR_ILP_DROPPABLE ||
          (intptr_t)g->numOps + g->numValues > AC_FLOOR_ILP_SIZE)
        continue;
      S->floorSearched |= AC_FLOOR_ILP;
      /* The node limit is the floor search's own bound, not a cut. */
      AcIlpOptions io = {left, 0, AC_FLOOR_ILP_NODES};
      AcIlpStats is;
      if ((st = acIlpFrom(g, saved, opts->staticBytes, opts->budget, &io, trial,
                          &is, err)) != AC_OK)
        goto cleanup;
      if (deadline > 0 && acClockSeconds() > deadline && is.limited)
        S->limited = 1;
    }
    acSimResultClear(&tsim);
    if ((st = acSimulate(g, trial, opts->staticBytes, 0, &tsim, err)) != AC_OK)
      goto cleanup;
    AcFloorPick pick = {tsim.peakBytes, tsim.recomputeSeconds,
                        which == 0 ? AC_STRATEGY_BEAM : AC_STRATEGY_ILP};
    if (acFloorBetter(&pick, &best, opts->budget)) {
      best = pick;
      acPlanCopy(plan, trial);
      acSimResultClear(sim);
      *sim = tsim;
      memset(&tsim, 0, sizeof tsim);
    }
  }
  S->foundBy = best.by;
cleanup:
  acSimResultClear(&tsim);
  acBeamFrontDestroy(beam);
  acPlanDestroy(trial);
  return st;
}

/* Beam's and the ILP's plan for a budget they miss is never above the
 * default strategy's recompute-only plan (greedy and its floor search):
 * both search the space of the same start, and a bound that stops them
 * must not leave them above greedy (docs/planner.md, "Bounded time").
 * When `plan` misses opts->budget, greedy's plan with its floor search
 * replaces it if that meets the budget or has a lower peak (monotone: each
 * is, and the combination takes greedy's only where the search's misses). */
static AcStatus acNoWorseThanGreedy(const AcGraph *g, const uint8_t *saved,
                                    const AcPlanOptions *opts, double deadline,
                                    AcPlan *plan, AcSearchStats *S,
                                    AcError *err) {
  AcSimResult a, b;
  AcSearchStats gs;
  AcPlan *gp = NULL;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  memset(&gs, 0, sizeof gs);
  AcStatus st = acSimulate(g, plan, opts->staticBytes, 0, &a, err);
  if (st != AC_OK || a.peakBytes <= opts->budget)
    goto cleanup;
  if (!(gp = acPlanCreate(g))) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while planning");
    goto cleanup;
  }
  int cut = 0;
  AcPlanOptions go = *opts;
  go.strategy = AC_STRATEGY_GREEDY;
  go.floorSearch = 1;
  if ((st = acGreedyPlanForBudgetDeadline(g, saved, opts->staticBytes,
                                          opts->budget, deadline, &cut, NULL,
                                          gp, NULL, err)) != AC_OK)
    goto cleanup;
  if (!cut && (st = acGreedyFloorSearch(g, saved, &go, deadline, gp, &gs, 0,
                                        &b, err)) != AC_OK)
    goto cleanup;
  acSimResultClear(&b);
  if ((st = acSimulate(g, gp, opts->staticBytes, 0, &b, err)) != AC_OK)
    goto cleanup;
  if (b.peakBytes <= opts->budget || b.peakBytes < a.peakBytes) {
    acPlanCopy(plan, gp);
    S->foundBy = gs.foundBy;
    S->floorSearched = gs.floorSearched | AC_FLOOR_RAN;
    S->optimal = 0;
  }
cleanup:
  acSimResultClear(&a);
  acSimResultClear(&b);
  acPlanDestroy(gp);
  return st;
}

AcStatus acPlanRunStats(const AcGraph *g, const AcPlanOptions *opts,
                        AcPlan *plan, AcSearchStats *stats, AcError *err) {
  return acPlanRunSim(g, opts, plan, stats, 0, NULL, err);
}

AcStatus acPlanRunSim(const AcGraph *g, const AcPlanOptions *opts,
                      AcPlan *plan, AcSearchStats *stats, int wantTimeline,
                      AcSimResult *sim, AcError *err) {
  AcStatus st = AC_OK;
  uint8_t *saved = NULL;
  AcBeamFront *beam = NULL;
  AcSearchStats local;
  AcSearchStats *S = stats ? stats : &local;
  /* The start's simulation (nothing owned); whether the plan is the start's
     set and whether *sim is filled. */
  AcSimResult startSim;
  int isStart = 0, simulated = 0;
  double t0 = acClockSeconds();
  double deadline = opts->timeLimit > 0 ? t0 + opts->timeLimit : 0;
  int cut = 0;
  memset(S, 0, sizeof *S);
  memset(&startSim, 0, sizeof startSim);
  startSim.peakBytes = -1;
  if (sim)
    memset(sim, 0, sizeof *sim);
  memset(plan->offload, 0, (size_t)g->numValues);
  if (opts->strategy == AC_STRATEGY_SAVE_ALL) {
    acPlanSaveAll(g, plan);
    st = acPlanDerive(g, plan, err);
    if (st == AC_OK && sim)
      st = acSimulate(g, plan, opts->staticBytes, wantTimeline, sim, err);
    return st;
  }
  if ((int)opts->strategy < 0 || opts->strategy >= AC_STRATEGY_COUNT)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "unknown strategy %d", (int)opts->strategy);
  saved = acMalloc((size_t)g->numValues + 1);
  if (!saved) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while planning");
    goto cleanup;
  }
  /* The baselines start (and stay) at the min cut; the searches start from
     the improved set, never worse than save-all or the min cut. */
  if (opts->strategy == AC_STRATEGY_MINCUT || opts->strategy == AC_STRATEGY_KNAPSACK)
    st = acMincutSaveSet(g, saved, err);
  else
    st = acPlanStartSetSim(g, opts->staticBytes, saved, &startSim, err);
  if (st != AC_OK)
    goto cleanup;
  switch (opts->strategy) {
  case AC_STRATEGY_GREEDY:
    if (opts->budget < 0) {
      st = acPlanFromSaved(g, saved, plan, err);
      isStart = 1;
      break;
    }
    /* The trajectory until a plan fits, and the budget's last drop. */
    st = acGreedyPlanForBudgetDeadline(g, saved, opts->staticBytes,
                                       opts->budget, deadline, &cut, &startSim,
                                       plan, NULL, err);
    S->limited = cut;
    if (st == AC_OK && opts->floorSearch && !cut) {
      AcSimResult fsim;
      memset(&fsim, 0, sizeof fsim);
      st = acGreedyFloorSearch(g, saved, opts, deadline, plan, S,
                               sim && wantTimeline, &fsim, err);
      if (st == AC_OK && sim && (fsim.steps || !wantTimeline)) {
        *sim = fsim;
        simulated = 1;
      } else {
        acSimResultClear(&fsim);
      }
    }
    /* Below the lowest peak recomputing reaches: offload (the plan missing
       the budget is the searches' lowest, the same for every such budget). */
    if (st == AC_OK && !cut) {
      int changed = 0, olimited = 0;
      st = acOffloadSearch(g, opts, saved, deadline, plan, &changed, &olimited, err);
      S->limited |= olimited;
      /* Met by recomputing: offload where it costs fewer seconds. */
      int competed = 0;
      if (st == AC_OK && !changed && opts->floorSearch)
        st = acOffloadCompete(g, opts, saved, deadline, plan, &competed, err);
      changed |= competed;
      if (changed && simulated) {
        acSimResultClear(sim);
        simulated = 0;
      }
    }
    break;
  case AC_STRATEGY_ILP: {
    AcIlpStats is;
    AcIlpOptions io = {0, 0, 0};
    S->searched = 1;
    if (deadline > 0 && (io.timeLimit = deadline - acClockSeconds()) <= 0)
      io.timeLimit = 1e-9; /* passed already: greedy's plan so far */
    st = acIlpFrom(g, saved, opts->staticBytes, opts->budget, &io, plan, &is,
                   err);
    S->optimal = is.optimal;
    S->limited = is.limited;
    S->work = is.nodes;
    S->foundBy = AC_STRATEGY_ILP;
    if (st == AC_OK && opts->budget >= 0)
      st = acNoWorseThanGreedy(g, saved, opts, deadline, plan, S, err);
    break;
  }
  case AC_STRATEGY_BEAM:
    S->searched = 1;
    if (opts->budget < 0) {
      /* The starting plan: dropping only adds recompute, so it is the
         cheapest of the space. */
      S->optimal = 1;
      st = acPlanFromSaved(g, saved, plan, err);
      isStart = 1;
      break;
    }
    st = acBeamSearchLimited(g, saved, opts->staticBytes, 0, deadline, &beam,
                             err);
    if (st == AC_OK) {
      intptr_t k = acBeamChoose(beam, opts->budget);
      /* Proven only when the starting plan itself fits. */
      S->optimal = k == 0 && beam->peakBytes[0] <= opts->budget;
      S->limited = beam->limited && !S->optimal;
      S->work = beam->simulations;
      S->foundBy = AC_STRATEGY_BEAM;
      st = acBeamPlan(g, beam, k, plan, err);
    }
    if (st == AC_OK)
      st = acNoWorseThanGreedy(g, saved, opts, deadline, plan, S, err);
    break;
  case AC_STRATEGY_KNAPSACK:
    st = acKnapsackFrom(g, saved, opts->staticBytes, opts->budget, plan, NULL,
                        err);
    break;
  default: /* AC_STRATEGY_MINCUT */
    st = acPlanFromSaved(g, saved, plan, err);
    break;
  }
cleanup:
  S->seconds = acClockSeconds() - t0;
  S->timedOut = S->limited && deadline > 0 && acClockSeconds() > deadline;
  if (st == AC_OK && sim && isStart && !wantTimeline && startSim.peakBytes >= 0) {
    *sim = startSim;
    simulated = 1;
  }
  if (st == AC_OK && sim && !simulated)
    st = acSimulate(g, plan, opts->staticBytes, wantTimeline, sim, err);
  acBeamFrontDestroy(beam);
  acFree(saved);
  return st;
}
