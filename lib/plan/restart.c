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
 * made unnecessary elsewhere.  A balanced floor over repeated layers falls
 * only when every layer changes at once, so a round also tries class
 * moves: saving back, or dropping, every value of a class of values alike
 * (acPlanSignatures: the same value of each layer) at once.  Each round
 * tries the best of both kinds and walks on from the lowest floor.
 * Everything is deterministic: counts bound it, not the clock (a deadline
 * only cuts). */
#include "greedy_internal.h"
#include "plan_internal.h"
#include "autoac/simulate.h"

#include <stdint.h>
#include <stdlib.h>
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

/* A value's signature and id (acRestartClasses sorts them). */
typedef struct AcSigId {
  uint64_t sig;
  AcId id;
} AcSigId;

/* A move: save back `save` and drop `drop` (either may be AC_NONE; the
 * members of each one's class when `whole`, else the value alone), and its
 * score (acRestartExcess). */
typedef struct AcMove {
  AcId save, drop;
  uint8_t whole;
  double score;
} AcMove;

/* Scratch of the restarts. */
typedef struct AcRestart {
  AcPlan *trial, *next, *cur;
  uint8_t *saved, *seen;
  uint8_t *keep;            /* what earlier rounds saved back */
  uint8_t *tryKeep;         /* keep, with a try's change */
  uint64_t *sig;            /* acPlanSignatures */
  AcSigId *pairs;           /* [numValues] scratch of acRestartClasses */
  AcId *members;            /* a move's values, ... */
  uint8_t *memberDrop;      /* ... each saved back (0) or dropped (1) */
  uint8_t *movable;         /* [numValues] acRestartMovable on the round's plan */
  intptr_t numMembers;
  AcMove best;              /* the round's best move */
  AcDropChecker *ck;
  intptr_t classSims;       /* class moves scored so far, at most ... */
  intptr_t maxClassSims;    /* ... this many (AC_FLOOR_RESTART_CLASS_WORK) */
  intptr_t swapSims;        /* swaps scored so far, at most ... */
  intptr_t maxSwapSims;     /* ... this many (AC_FLOOR_RESTART_SWAP_WORK) */
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

/* May v be in a move on `cur`: a value of bytes (a save back: recomputed,
 * may be saved back, not a replayed draw's result, as acRestartCandidates
 * says; a drop: saved and droppable)?  AC_MOVE_SAVE, AC_MOVE_DROP or 0. */
enum { AC_MOVE_SAVE = 1, AC_MOVE_DROP = 2 };

static uint8_t acRestartMovable(const AcGraph *g, const AcPlan *cur,
                                AcRestart *r, AcId v) {
  if (g->values[v].bytes == 0 || !acPlanSavable(g, v))
    return 0;
  if (cur->saved[v])
    return acDropCheckerOk(r->ck, cur->saved, v) ? AC_MOVE_DROP : 0;
  return cur->recompute[g->values[v].producer] &&
                 g->ops[g->values[v].producer].kind != AC_KIND_RNG_REPLAY
             ? AC_MOVE_SAVE
             : 0;
}

/* r->movable for `cur`: once a round, since every move of a round starts
 * from the same plan. */
static void acRestartMovables(const AcGraph *g, const AcPlan *cur,
                              AcRestart *r) {
  for (AcId v = 0; v < (AcId)g->numValues; ++v)
    r->movable[v] = acRestartMovable(g, cur, r, v);
}

/* Appends the members of the class of `rep` movable by `drop` (in
 * r->movable) to r->members, in value order. */
static void acRestartClass(const AcGraph *g, AcRestart *r, AcId rep,
                           int drop) {
  uint8_t kind = drop ? AC_MOVE_DROP : AC_MOVE_SAVE;
  for (AcId v = 0; v < (AcId)g->numValues; ++v)
    if (r->sig[v] == r->sig[rep] && r->movable[v] == kind) {
      r->memberDrop[r->numMembers] = (uint8_t)drop;
      r->members[r->numMembers++] = v;
    }
}

/* The members of move `m` into r->members (r->movable filled for the
 * plan it applies to): what it saves back, then what it drops. */
static void acRestartMembers(const AcGraph *g, AcRestart *r, const AcMove *m) {
  r->numMembers = 0;
  if (m->save != AC_NONE && !m->whole) {
    r->memberDrop[0] = 0;
    r->members[r->numMembers++] = m->save;
  } else if (m->save != AC_NONE) {
    acRestartClass(g, r, m->save, 0);
  }
  if (m->drop != AC_NONE && !m->whole) {
    r->memberDrop[r->numMembers] = 1;
    r->members[r->numMembers++] = m->drop;
  } else if (m->drop != AC_NONE) {
    acRestartClass(g, r, m->drop, 1);
  }
}

static int acSigIdCmp(const void *a, const void *b) {
  const AcSigId *x = a, *y = b;
  if (x->sig != y->sig)
    return x->sig < y->sig ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

/* The classes of two or more values movable by `drop` (r->movable):
 * their first members into out[] (largest class first; ties: the earlier
 * first member), at most `max`; returns their count. */
static intptr_t acRestartClasses(const AcGraph *g, AcRestart *r, int drop,
                                 AcId *out, intptr_t max) {
  uint8_t kind = drop ? AC_MOVE_DROP : AC_MOVE_SAVE;
  intptr_t n = 0, nc = 0;
  for (AcId v = 0; v < (AcId)g->numValues; ++v)
    if (r->movable[v] == kind)
      r->pairs[n++] = (AcSigId){r->sig[v], v};
  qsort(r->pairs, (size_t)n, sizeof *r->pairs, acSigIdCmp);
  /* Runs of one signature become (UINT64_MAX - size, first member). */
  for (intptr_t i = 0, j; i < n; i = j) {
    for (j = i; j < n && r->pairs[j].sig == r->pairs[i].sig; ++j)
      ;
    if (j - i >= 2)
      r->pairs[nc++] = (AcSigId){UINT64_MAX - (uint64_t)(j - i), r->pairs[i].id};
  }
  qsort(r->pairs, (size_t)nc, sizeof *r->pairs, acSigIdCmp);
  if (nc > max)
    nc = max;
  for (intptr_t i = 0; i < nc; ++i)
    out[i] = r->pairs[i].id;
  return nc;
}

/* Applies r->members to a copy of `cur`'s set in *saved (saved back, or
 * dropped) and to a copy of r->keep in r->tryKeep (kept, or no more). */
static void acRestartApply(const AcGraph *g, const AcPlan *cur, AcRestart *r,
                           uint8_t *saved) {
  memcpy(saved, cur->saved, (size_t)g->numValues);
  memcpy(r->tryKeep, r->keep, (size_t)g->numValues);
  for (intptr_t i = 0; i < r->numMembers; ++i) {
    saved[r->members[i]] = !r->memberDrop[i];
    r->tryKeep[r->members[i]] = !r->memberDrop[i];
  }
}

/* Scores move m on `cur`: the excess over `level` of the plan it makes
 * (r->trial). */
static AcStatus acRestartScore(const AcGraph *g, const AcPlan *cur,
                               int64_t level, AcRestart *r, AcMove *m,
                               AcError *err) {
  AcSimResult sim;
  memset(&sim, 0, sizeof sim);
  acRestartMembers(g, r, m);
  acRestartApply(g, cur, r, r->trial->saved);
  AcStatus st = acPlanDerive(g, r->trial, err);
  if (st == AC_OK)
    st = acSimulate(g, r->trial, r->sim.staticBytes, 1, &sim, err);
  if (st == AC_OK)
    m->score = acRestartExcess(&sim, level);
  acSimResultClear(&sim);
  return st;
}

/* Inserts m into out[0..*n), the AC_FLOOR_RESTART_TRIES lowest scores
 * (stable: ties keep the earlier). */
static void acRestartRank(AcMove *out, intptr_t *n, const AcMove *m) {
  intptr_t i = *n;
  if (i == AC_FLOOR_RESTART_TRIES) {
    if (m->score >= out[i - 1].score)
      return;
    --i;
  } else {
    ++*n;
  }
  for (; i > 0 && m->score < out[i - 1].score; --i)
    out[i] = out[i - 1];
  out[i] = *m;
}

/* The best class moves on `cur`: each class saved back, each class
 * dropped, then each pair of the two (a class saved back in place of
 * another: the save that splits a layer elsewhere), within
 * r->maxClassSims, scored by acRestartScore; the AC_FLOOR_RESTART_TRIES
 * lowest into out[] (ties: the earlier), their count into *n. */
static AcStatus acRestartClassMoves(const AcGraph *g, const AcPlan *cur,
                                    int64_t level, AcRestart *r, AcMove *out,
                                    intptr_t *n, AcError *err) {
  AcId sv[AC_FLOOR_RESTART_CLASSES], dr[AC_FLOOR_RESTART_CLASSES];
  intptr_t ns = acRestartClasses(g, r, 0, sv, AC_FLOOR_RESTART_CLASSES);
  intptr_t nd = acRestartClasses(g, r, 1, dr, AC_FLOOR_RESTART_CLASSES);
  AcStatus st = AC_OK;
  *n = 0;
  for (intptr_t i = -1; i < ns && st == AC_OK; ++i)
    for (intptr_t j = -1; j < nd && st == AC_OK; ++j) {
      AcMove m = {i < 0 ? AC_NONE : sv[i], j < 0 ? AC_NONE : dr[j], 1, 0.0};
      if ((i < 0 && j < 0) || r->classSims >= r->maxClassSims)
        continue;
      r->classSims++;
      if ((st = acRestartScore(g, cur, level, r, &m, err)) == AC_OK)
        acRestartRank(out, n, &m);
    }
  return st;
}

/* Inserts value v with score `sc` into the AC_FLOOR_RESTART_SWAP_SIDE
 * lowest (ids[], scores[], *n of them; stable). */
static void acRestartRankValue(AcId *ids, double *scores, intptr_t *n, AcId v,
                               double sc) {
  intptr_t i = *n;
  if (i == AC_FLOOR_RESTART_SWAP_SIDE) {
    if (sc >= scores[i - 1])
      return;
    --i;
  } else {
    ++*n;
  }
  for (; i > 0 && sc < scores[i - 1]; --i) {
    ids[i] = ids[i - 1];
    scores[i] = scores[i - 1];
  }
  ids[i] = v;
  scores[i] = sc;
}

/* The best swaps on `cur`: one recomputed value saved back and one
 * droppable save dropped in its place (a checkpoint moved: what spaces a
 * chain's saves unevenly, closer where the backward still holds many).
 * Every pair (value order) when there are at most
 * AC_FLOOR_RESTART_SWAP_ALL and they fit in what is left of r->maxSwapSims
 * simulations; else every value movable either way scored alone
 * (acRestartScore, value order), then the pairs of the
 * AC_FLOOR_RESTART_SWAP_SIDE best of each side, within r->maxSwapSims.
 * The AC_FLOOR_RESTART_TRIES lowest pairs into out[] (ties: the earlier),
 * their count into *n. */
static AcStatus acRestartSwaps(const AcGraph *g, const AcPlan *cur,
                               int64_t level, AcRestart *r, AcMove *out,
                               intptr_t *n, AcError *err) {
  AcId side[2][AC_FLOOR_RESTART_SWAP_SIDE];
  double score[2][AC_FLOOR_RESTART_SWAP_SIDE];
  intptr_t ns[2] = {0, 0};
  AcStatus st = AC_OK;
  intptr_t nsave = 0, ndrop = 0;
  *n = 0;
  for (AcId v = 0; v < (AcId)g->numValues; ++v) {
    nsave += r->movable[v] == AC_MOVE_SAVE;
    ndrop += r->movable[v] == AC_MOVE_DROP;
  }
  /* Every pair when they fit in what is left, */
  if (nsave * ndrop <= AC_FLOOR_RESTART_SWAP_ALL &&
      nsave * ndrop <= r->maxSwapSims - r->swapSims) {
    for (AcId u = 0; u < (AcId)g->numValues && st == AC_OK; ++u)
      for (AcId v = 0; v < (AcId)g->numValues && st == AC_OK; ++v) {
        AcMove m = {u, v, 0, 0.0};
        if (r->movable[u] != AC_MOVE_SAVE || r->movable[v] != AC_MOVE_DROP)
          continue;
        r->swapSims++;
        if ((st = acRestartScore(g, cur, level, r, &m, err)) == AC_OK)
          acRestartRank(out, n, &m);
      }
    return st;
  }
  /* else the pairs of each side's best alone. */
  for (AcId v = 0; v < (AcId)g->numValues && st == AC_OK; ++v) {
    int drop = r->movable[v] == AC_MOVE_DROP;
    if (!r->movable[v] || r->swapSims >= r->maxSwapSims)
      continue;
    AcMove m = {drop ? AC_NONE : v, drop ? v : AC_NONE, 0, 0.0};
    r->swapSims++;
    if ((st = acRestartScore(g, cur, level, r, &m, err)) == AC_OK)
      acRestartRankValue(side[drop], score[drop], &ns[drop], v, m.score);
  }
  for (intptr_t i = 0; i < ns[0] && st == AC_OK; ++i)
    for (intptr_t j = 0; j < ns[1] && st == AC_OK; ++j) {
      AcMove m = {side[0][i], side[1][j], 0, 0.0};
      if (r->swapSims >= r->maxSwapSims)
        continue;
      r->swapSims++;
      if ((st = acRestartScore(g, cur, level, r, &m, err)) == AC_OK)
        acRestartRank(out, n, &m);
    }
  return st;
}

/* Greedy's trajectory from `cur` after move `m`, with what it saves back
 * kept (and what it drops no more kept); the lowest floor so far (ties:
 * the earlier try) goes to r->next, *peak and r->best. */
static AcStatus acRestartMove(const AcGraph *g, const AcPlanOptions *opts,
                              double deadline, const AcPlan *cur,
                              AcRestart *r, const AcMove *m, int64_t *peak,
                              int *found, int *cut, AcError *err) {
  int64_t p = 0;
  acRestartMembers(g, r, m);
  if (r->numMembers == 0)
    return AC_OK;
  acRestartApply(g, cur, r, r->saved);
  AcStatus st = acRestartTry(g, r->saved, r->tryKeep, opts, deadline,
                             r->trial, &p, cut, err);
  if (st == AC_OK && (!*found || p < *peak)) {
    *peak = p;
    *found = 1;
    r->best = *m;
    acPlanCopy(r->next, r->trial);
  }
  return st;
}

/* One round from `cur` (simulated in r->sim): the restarts of the best
 * single saves back of the peak's group and of the best class moves, or
 * (`swaps`) of the best swaps; the lowest floor (ties: the earlier try)
 * into r->next, *peak and r->best; *found when any try ran. */
static AcStatus acRestartRound(const AcGraph *g, const AcPlanOptions *opts,
                               double deadline, const AcPlan *cur, int swaps,
                               AcRestart *r, int64_t *peak, int *found,
                               int *cut, AcError *err) {
  AcId anchor, cand[AC_FLOOR_RESTART_TRIES];
  AcMove moves[2 * AC_FLOOR_RESTART_TRIES];
  intptr_t nc = 0, nm = 0;
  int64_t level = r->sim.peakBytes - (r->sim.peakBytes - r->sim.staticBytes) / 32;
  *found = 0;
  AcStatus st = AC_OK;
  /* Single saves back lower a peak in the backward (its group's); class
     moves may lower any (a forward peak, by smaller saves in each layer). */
  if (!swaps && r->sim.peakKind != AC_STEP_FWD && r->sim.peakOp != AC_NONE) {
    st = acRestartAnchor(g, cur, &r->sim, &anchor, err);
    if (st == AC_OK)
      st = acRestartCandidates(g, cur, anchor, level, r, cand, &nc, err);
  }
  acRestartMovables(g, cur, r);
  if (st == AC_OK && swaps) {
    st = acRestartSwaps(g, cur, level, r, moves, &nm, err);
    nc = 0;
    if (nm > AC_FLOOR_RESTART_SWAP_TRIES)
      nm = AC_FLOOR_RESTART_SWAP_TRIES;
  } else if (st == AC_OK) {
    for (intptr_t k = 0; k < nc; ++k)
      moves[k] = (AcMove){cand[k], AC_NONE, 0, 0.0};
    st = acRestartClassMoves(g, cur, level, r, moves + nc, &nm, err);
  }
  for (intptr_t k = 0; st == AC_OK && k < nc + nm && !*cut; ++k)
    st = acRestartMove(g, opts, deadline, cur, r, &moves[k], peak, found, cut,
                       err);
  return st;
}

/* The walk: up to AC_FLOOR_RESTART_ROUNDS rounds (the swaps:
 * AC_FLOOR_RESTART_SWAP_ROUNDS) of `swaps` moves (see
 * acRestartRound) from r->cur, each going on from the round's best even
 * above the best so far (a balanced floor falls one peak at a time), until
 * AC_FLOOR_RESTART_STALE rounds in a row bring nothing lower; the lowest
 * floor, below *bestPeak, into `plan` (*changed). */
static AcStatus acRestartWalk(const AcGraph *g, const AcPlanOptions *opts,
                              double deadline, int swaps, AcRestart *r,
                              AcPlan *plan, int64_t *bestPeak, int *changed,
                              int *cut, AcError *err) {
  AcStatus st = AC_OK;
  int stale = 0;
  int rounds = swaps ? AC_FLOOR_RESTART_SWAP_ROUNDS : AC_FLOOR_RESTART_ROUNDS;
  for (int round = 0; round < rounds && !*cut; ++round) {
    acSimResultClear(&r->sim);
    if ((st = acSimulate(g, r->cur, opts->staticBytes, 1, &r->sim, err)) != AC_OK)
      return st;
    if (*bestPeak < 0)
      *bestPeak = r->sim.peakBytes;
    if (r->sim.peakBytes <= opts->budget)
      break;
    int64_t peak = 0;
    int found = 0;
    if ((st = acRestartRound(g, opts, deadline, r->cur, swaps, r, &peak,
                             &found, cut, err)) != AC_OK)
      return st;
    if (!found)
      break;
    acRestartMembers(g, r, &r->best); /* r->movable is still r->cur's */
    for (intptr_t i = 0; i < r->numMembers; ++i)
      r->keep[r->members[i]] = !r->memberDrop[i];
    acPlanCopy(r->cur, r->next);
    if (peak < *bestPeak) {
      *bestPeak = peak;
      acPlanCopy(plan, r->next);
      *changed = 1;
      stale = 0;
    } else if (++stale == AC_FLOOR_RESTART_STALE) {
      break;
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
  r.tryKeep = acMalloc((size_t)g->numValues + 1);
  r.sig = acMalloc(((size_t)g->numValues + 1) * sizeof *r.sig);
  r.pairs = acMalloc(((size_t)g->numValues + 1) * sizeof *r.pairs);
  r.members = acMalloc(((size_t)g->numValues + 1) * sizeof *r.members);
  r.memberDrop = acMalloc((size_t)g->numValues + 1);
  r.movable = acMalloc((size_t)g->numValues + 1);
  r.ck = acDropCheckerCreate(g);
  r.maxClassSims = AC_FLOOR_RESTART_CLASS_WORK / (g->numOps + g->numValues + 1);
  if (r.maxClassSims < AC_FLOOR_RESTART_CLASSES)
    r.maxClassSims = AC_FLOOR_RESTART_CLASSES;
  r.maxSwapSims = AC_FLOOR_RESTART_SWAP_WORK / (g->numOps + g->numValues + 1);
  *changed = 0;
  if (!r.trial || !r.next || !r.cur || !r.saved || !r.seen || !r.keep ||
      !r.tryKeep || !r.sig || !r.pairs || !r.members || !r.memberDrop || !r.movable ||
      !r.ck) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while planning");
    goto cleanup;
  }
  if ((st = acPlanSignatures(g, r.sig, err)) != AC_OK)
    goto cleanup;
  /* The walk of single saves back and class moves, then one of swaps
     from the lowest floor it reached, free to drop again what the first
     kept: so the swaps never cost what the first walk finds. */
  int64_t bestPeak = -1;
  acPlanCopy(r.cur, plan);
  st = acRestartWalk(g, opts, deadline, 0, &r, plan, &bestPeak, changed, &cut, err);
  if (st == AC_OK && !cut && r.maxSwapSims >= AC_FLOOR_RESTART_CLASSES) {
    acPlanCopy(r.cur, plan);
    memset(r.keep, 0, (size_t)g->numValues);
    st = acRestartWalk(g, opts, deadline, 1, &r, plan, &bestPeak, changed, &cut, err);
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
  acFree(r.tryKeep);
  acFree(r.sig);
  acFree(r.pairs);
  acFree(r.members);
  acFree(r.memberDrop);
  acFree(r.movable);
  acDropCheckerDestroy(r.ck);
  return st;
}
