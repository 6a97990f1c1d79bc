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

/* What the searches of a run share: its budget, static part and deadline. */
static AcSearchOptions acRunSearchOptions(const AcPlanOptions *opts,
                                          double deadline) {
  AcSearchOptions so;
  acSearchOptionsInit(&so);
  so.budget = opts->budget;
  so.staticBytes = opts->staticBytes;
  so.deadline = deadline;
  return so;
}

/* The floor search's beam from `saved` into `trial`: the floor-only beam
 * within acBeamFloorSimulations, or the full beam where that is cheap. */
static AcStatus acFloorBeam(const AcGraph *g, const uint8_t *saved,
                            const AcPlanOptions *opts, double deadline,
                            intptr_t droppable, AcPlan *trial,
                            AcSearchStats *S, AcError *err) {
  AcBeamFront *beam = NULL;
  AcBeamOptions bo;
  acBeamOptionsInit(&bo);
  bo.search = acRunSearchOptions(opts, deadline);
  if (!acBeamFullIsCheap(g, droppable)) {
    bo.width = AC_FLOOR_BEAM_WIDTH;
    bo.maxSimulations = acBeamFloorSimulations(g, droppable);
    bo.floorOnly = 1;
  }
  AcStatus st = acBeamSearchRun(g, saved, &bo, &beam, err);
  if (st == AC_OK)
    st = acBeamPlan(g, beam, acBeamChoose(beam, opts->budget), trial, err);
  /* Its simulation limit is the floor search's own bound, not a cut
     (greedy's trajectory inside it is whole: greedy's own run, which
     computed it, was not cut); the deadline is. */
  if (st == AC_OK)
    S->limited |= beam->limited && deadline > 0 && acClockSeconds() > deadline;
  acBeamFrontDestroy(beam);
  return st;
}

/* The floor search's ILP from `saved` into `trial`, within
 * AC_FLOOR_ILP_NODES nodes (the floor search's own bound, not a cut). */
static AcStatus acFloorIlp(const AcGraph *g, const uint8_t *saved,
                           const AcPlanOptions *opts, double deadline,
                           AcPlan *trial, AcSearchStats *S, AcError *err) {
  AcIlpOptions io;
  AcIlpStats is;
  acIlpOptionsInit(&io);
  io.search = acRunSearchOptions(opts, deadline);
  io.maxNodes = AC_FLOOR_ILP_NODES;
  AcStatus st = acIlpFrom(g, saved, &io, trial, &is, err);
  if (st == AC_OK && deadline > 0 && acClockSeconds() > deadline && is.limited)
    S->limited = 1;
  return st;
}

/* The floor search's last step: from the best plan so far (`plan`, whose
 * simulation is *sim and costs *best), greedy's restarts (acFloorRestarts);
 * their plan is kept when acFloorBetter says so. */
static AcStatus acFloorRestart(const AcGraph *g, const AcPlanOptions *opts,
                               double deadline, AcPlan *plan, AcFloorPick *best,
                               AcSearchStats *S, AcSimResult *sim,
                               AcError *err) {
  AcSimResult tsim;
  AcPlan *trial = acPlanCreate(g);
  int changed = 0, limited = 0;
  AcStatus st = AC_OK;
  memset(&tsim, 0, sizeof tsim);
  if (!trial) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while planning");
    goto cleanup;
  }
  acPlanCopy(trial, plan);
  S->floorSearched |= AC_FLOOR_RESTART;
  st = acFloorRestarts(g, opts, deadline, trial, &changed, &limited, err);
  S->limited |= limited;
  if (st != AC_OK || !changed ||
      (st = acSimulate(g, trial, opts->staticBytes, 0, &tsim, err)) != AC_OK)
    goto cleanup;
  AcFloorPick pick = {tsim.peakBytes, tsim.recomputeSeconds, best->by};
  if (acFloorBetter(&pick, best, opts->budget)) {
    *best = pick;
    S->restarted = 1;
    acPlanCopy(plan, trial);
    acSimResultClear(sim);
    *sim = tsim;
    memset(&tsim, 0, sizeof tsim);
  }
cleanup:
  acSimResultClear(&tsim);
  acPlanDestroy(trial);
  return st;
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
    if (deadline > 0 && deadline - acClockSeconds() <= 0) {
      S->limited = 1; /* the time limit passed: greedy's plan (or beam's) */
      break;
    }
    if (which == 0) {
      if (droppable > AC_FLOOR_BEAM_DROPPABLE)
        continue;
      S->floorSearched |= AC_FLOOR_BEAM;
      if ((st = acFloorBeam(g, saved, opts, deadline, droppable, trial, S,
                            err)) != AC_OK)
        goto cleanup;
    } else {
      if (droppable > AC_FLOOR_ILP_DROPPABLE ||
          (intptr_t)g->numOps + g->numValues > AC_FLOOR_ILP_SIZE)
        continue;
      S->floorSearched |= AC_FLOOR_ILP;
      if ((st = acFloorIlp(g, saved, opts, deadline, trial, S, err)) != AC_OK)
        goto cleanup;
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
  if (best.peak > opts->budget &&
      (deadline <= 0 || acClockSeconds() < deadline) &&
      (st = acFloorRestart(g, opts, deadline, plan, &best, S, sim, err)) != AC_OK)
    goto cleanup;
  S->foundBy = best.by;
cleanup:
  acSimResultClear(&tsim);
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
  AcGreedyOptions gro;
  acGreedyOptionsInit(&gro);
  gro.search = acRunSearchOptions(opts, deadline);
  if ((st = acGreedyPlanForBudgetRun(g, saved, &gro, &cut, gp, NULL,
                                     err)) != AC_OK)
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
    S->restarted = gs.restarted;
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

/* One planning run (acPlanRunSim) past its start: the options, the
 * starting set and its simulation, and what is handed back. */
typedef struct AcPlanRunState {
  const AcGraph *g;
  const AcPlanOptions *opts;
  double deadline;       /* of opts->timeLimit; 0: none */
  uint8_t *saved;        /* [numValues] the starting set */
  AcSimResult startSim;  /* the start's simulation (nothing owned);
                            peakBytes -1: none */
  AcSearchStats *S;
  int wantTimeline;
  AcSimResult *sim;      /* may be NULL */
  int isStart;           /* the plan is the start's set */
  int simulated;         /* *sim is filled */
  AcError *err;
} AcPlanRunState;

/* Greedy's offload moves, once its plan is made and the run was not cut
 * short: below the lowest peak recomputing reaches, offload (the plan
 * missing the budget is the searches' lowest, the same for every such
 * budget); where recomputing meets the budget, offload where it costs
 * fewer seconds. */
static AcStatus acRunOffload(AcPlanRunState *r, AcPlan *plan) {
  const AcPlanOptions *opts = r->opts;
  int changed = 0, olimited = 0, competed = 0;
  AcStatus st = acOffloadSearch(r->g, opts, r->saved, r->deadline, plan,
                                &changed, &olimited, r->err);
  r->S->limited |= olimited;
  if (st == AC_OK && !changed && opts->floorSearch)
    st = acOffloadCompete(r->g, opts, r->saved, r->deadline, plan, &competed,
                          r->err);
  changed |= competed;
  if (changed && r->simulated) {
    acSimResultClear(r->sim);
    r->simulated = 0;
  }
  return st;
}

/* The default strategy: the trajectory until a plan fits and the budget's
 * last drop, then (not cut short) the floor search and the offload moves.
 * No budget: the start. */
static AcStatus acRunGreedy(AcPlanRunState *r, AcPlan *plan) {
  const AcGraph *g = r->g;
  const AcPlanOptions *opts = r->opts;
  AcStatus st;
  int cut = 0;
  if (opts->budget < 0) {
    r->isStart = 1;
    return acPlanFromSaved(g, r->saved, plan, r->err);
  }
  AcGreedyOptions go;
  acGreedyOptionsInit(&go);
  go.search = acRunSearchOptions(opts, r->deadline);
  go.startSim = &r->startSim;
  st = acGreedyPlanForBudgetRun(g, r->saved, &go, &cut, plan, NULL, r->err);
  r->S->limited = cut;
  if (st == AC_OK && opts->floorSearch && !cut) {
    AcSimResult fsim;
    memset(&fsim, 0, sizeof fsim);
    st = acGreedyFloorSearch(g, r->saved, opts, r->deadline, plan, r->S,
                             r->sim && r->wantTimeline, &fsim, r->err);
    if (st == AC_OK && r->sim && (fsim.steps || !r->wantTimeline)) {
      *r->sim = fsim;
      r->simulated = 1;
    } else {
      acSimResultClear(&fsim);
    }
  }
  if (st == AC_OK && !cut)
    st = acRunOffload(r, plan);
  return st;
}

/* The exact planner, never above the default strategy's plan for a budget
 * it misses. */
static AcStatus acRunIlp(AcPlanRunState *r, AcPlan *plan) {
  AcIlpStats is;
  AcIlpOptions io;
  AcSearchStats *S = r->S;
  acIlpOptionsInit(&io);
  io.search = acRunSearchOptions(r->opts, r->deadline);
  S->searched = 1;
  AcStatus st = acIlpFrom(r->g, r->saved, &io, plan, &is, r->err);
  S->optimal = is.optimal;
  S->limited = is.limited;
  S->work = is.nodes;
  S->foundBy = AC_STRATEGY_ILP;
  if (st == AC_OK && r->opts->budget >= 0)
    st = acNoWorseThanGreedy(r->g, r->saved, r->opts, r->deadline, plan, S,
                             r->err);
  return st;
}

/* Beam search, never above the default strategy's plan for a budget it
 * misses.  No budget: the start, the cheapest plan of the space (dropping
 * only adds recompute). */
static AcStatus acRunBeam(AcPlanRunState *r, AcPlan *plan) {
  const AcGraph *g = r->g;
  const AcPlanOptions *opts = r->opts;
  AcSearchStats *S = r->S;
  AcBeamFront *beam = NULL;
  S->searched = 1;
  if (opts->budget < 0) {
    S->optimal = 1;
    r->isStart = 1;
    return acPlanFromSaved(g, r->saved, plan, r->err);
  }
  AcBeamOptions bo;
  acBeamOptionsInit(&bo);
  bo.search = acRunSearchOptions(opts, r->deadline);
  AcStatus st = acBeamSearchRun(g, r->saved, &bo, &beam, r->err);
  if (st == AC_OK) {
    intptr_t k = acBeamChoose(beam, opts->budget);
    /* Proven only when the starting plan itself fits. */
    S->optimal = k == 0 && beam->peakBytes[0] <= opts->budget;
    S->limited = beam->limited && !S->optimal;
    S->work = beam->simulations;
    S->foundBy = AC_STRATEGY_BEAM;
    st = acBeamPlan(g, beam, k, plan, r->err);
  }
  if (st == AC_OK)
    st = acNoWorseThanGreedy(g, r->saved, opts, r->deadline, plan, S, r->err);
  acBeamFrontDestroy(beam);
  return st;
}

/* The starting set into r->saved: the baselines start (and stay) at the
 * min cut; the searches start from the improved set, never worse than
 * save-all or the min cut. */
static AcStatus acRunStart(AcPlanRunState *r) {
  const AcGraph *g = r->g;
  AcStrategy s = r->opts->strategy;
  r->saved = acMalloc((size_t)g->numValues + 1);
  if (!r->saved)
    return acErrorSet(r->err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                      "out of memory while planning");
  if (s == AC_STRATEGY_MINCUT || s == AC_STRATEGY_KNAPSACK)
    return acMincutSaveSet(g, r->saved, r->err);
  return acPlanStartSetSim(g, r->opts->staticBytes, r->saved, &r->startSim,
                           r->err);
}

/* The strategy's plan from the starting set. */
static AcStatus acRunStrategy(AcPlanRunState *r, AcPlan *plan) {
  switch (r->opts->strategy) {
  case AC_STRATEGY_GREEDY:
    return acRunGreedy(r, plan);
  case AC_STRATEGY_ILP:
    return acRunIlp(r, plan);
  case AC_STRATEGY_BEAM:
    return acRunBeam(r, plan);
  case AC_STRATEGY_KNAPSACK: {
    AcSearchOptions ko = acRunSearchOptions(r->opts, r->deadline);
    return acKnapsackFrom(r->g, r->saved, &ko, plan, NULL, r->err);
  }
  default: /* AC_STRATEGY_MINCUT */
    return acPlanFromSaved(r->g, r->saved, plan, r->err);
  }
}

AcStatus acPlanRunSim(const AcGraph *g, const AcPlanOptions *opts,
                      AcPlan *plan, AcSearchStats *stats, int wantTimeline,
                      AcSimResult *sim, AcError *err) {
  AcStatus st = AC_OK;
  AcSearchStats local;
  AcPlanRunState r;
  double t0 = acClockSeconds();
  memset(&r, 0, sizeof r);
  r.g = g;
  r.opts = opts;
  r.deadline = opts->timeLimit > 0 ? t0 + opts->timeLimit : 0;
  r.S = stats ? stats : &local;
  r.wantTimeline = wantTimeline;
  r.sim = sim;
  r.err = err;
  r.startSim.peakBytes = -1;
  memset(r.S, 0, sizeof *r.S);
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
  if ((st = acRunStart(&r)) == AC_OK)
    st = acRunStrategy(&r, plan);
  r.S->seconds = acClockSeconds() - t0;
  r.S->timedOut =
      r.S->limited && r.deadline > 0 && acClockSeconds() > r.deadline;
  if (st == AC_OK && sim && r.isStart && !wantTimeline &&
      r.startSim.peakBytes >= 0) {
    *sim = r.startSim;
    r.simulated = 1;
  }
  if (st == AC_OK && sim && !r.simulated)
    st = acSimulate(g, plan, opts->staticBytes, wantTimeline, sim, err);
  acFree(r.saved);
  return st;
}
