/* plan_testkit.h - shared by the plan, simulate and planner unit tests:
 * a random joint-graph generator, random valid save sets, and a naive
 * (quadratic, independent) simulator to cross-check acSimulate with, a hand
 * graph with a known trajectory, and size/cost quantization for ties.
 * Everything here is deliberately simple rather than fast. */
#ifndef AUTOAC_PLAN_TESTKIT_H
#define AUTOAC_PLAN_TESTKIT_H

#include "autoac/graph.h"
#include "autoac/plan.h"
#include "autoac/simulate.h"
#include "plan/plan_oracles.h"

#include "actest.h"

#include <stdlib.h>
#include <string.h>

static inline int tkRand(uint64_t *s, int n) {
  return (int)(acTestRand(s) % (uint64_t)n);
}

/* Sets cost fields of a builder op. */
static inline void tkOp(AcGraphBuilder *b, AcId op, AcOpKind kind,
                        int recomputable, double seconds) {
  AcOp *o = acGraphBuilderOp(b, op);
  o->kind = (uint8_t)kind;
  o->recomputable = (uint8_t)recomputable;
  o->seconds = seconds;
  o->flops = seconds * 1e12;
}

/* Value id of result 0 of `op` (valid after Finish as well). */
static inline AcId tkRes(AcGraphBuilder *b, AcId op) {
  return acGraphBuilderOp(b, op)->firstResult;
}

/* Adds a one-result op; returns its op id. */
static inline AcId tkAdd(AcGraphBuilder *b, const char *name, const AcId *ops,
                         int n, int64_t bytes, AcOpKind kind, int recomp,
                         double seconds) {
  AcId o = acGraphBuilderAddOp(b, name, ops, n, 1, &bytes);
  tkOp(b, o, kind, recomp, seconds);
  return o;
}

/* Percent of ops generated destination-style (linalg `outs`): written into
 * an init chain (an "empty", sometimes a "fill" of it) they read last.
 * 0 (the default) leaves the generator's stream as it was. */
static int tkDpsPercent = 0;

/* Percent of the forward destination-style ops (tkDpsPercent) whose init
 * is not a fresh chain but a computed value other ops read too, as the
 * importer records `tensor.insert_slice %src into %dest` (the dest), or a
 * view of one, as a linalg op writing into a `tensor.extract_slice` (a view
 * since bufferization makes it a subview); after the import gives each
 * writer of a shared `tensor.empty` its own copy (docs/contract.md), these
 * are the inits read by others that remain.  0 (the default) leaves the
 * generator's stream as it was. */
static int tkDestPercent = 0;

/* A fresh init of `bytes` for a destination-style op: "empty", sometimes
 * written by a "fill".  Sometimes the init is also offered to the pool
 * (`pool`/`npool`, may be NULL) so that later ops read it too. */
static inline AcId tkInit(AcGraphBuilder *b, uint64_t *rs, int64_t bytes,
                          AcId *pool, int *npool, uint8_t *isRes) {
  AcId e = acGraphBuilderAddOp(b, "empty", NULL, 0, 1, &bytes);
  tkOp(b, e, AC_KIND_ELEMENTWISE, 1, 0.0001);
  AcId init = tkRes(b, e);
  if (tkRand(rs, 2)) {
    AcId f = acGraphBuilderAddOp(b, "fill", &init, 1, 1, &bytes);
    tkOp(b, f, AC_KIND_ELEMENTWISE, 1, 0.0002);
    acGraphBuilderOp(b, f)->dpsInit = init;
    init = tkRes(b, f);
  }
  if (pool && *npool < 200 && tkRand(rs, 6) == 0) {
    isRes[*npool] = 1;
    pool[(*npool)++] = init;
  }
  return init;
}

/* One random joint function appended to `b` (see the rules in the body). */
static inline void tkGenFunc(AcGraphBuilder *b, uint64_t *rs, const char *name,
                      int maxFwd, int maxBwd) {
  AcId pool[256];  /* forward values (args included) */
  int npool = 0;
  uint8_t isRes[256] = {0}, used[256] = {0}; /* per pool entry */
  AcId bwd[256];
  int nbwd = 0;
  acGraphBuilderAddFunc(b, name);
  int nPrimal = 1 + tkRand(rs, 2);
  for (int i = 0; i < nPrimal; ++i)
    pool[npool++] = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 8 * (1 + tkRand(rs, 50)));
  pool[npool++] = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 8 * (1 + tkRand(rs, 50)));
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId fwdInit = AC_NONE; /* the last forward init, for a backward reader */
  int64_t fwdInitBytes = 0;
  int nFwd = 2 + tkRand(rs, maxFwd - 1);
  for (int k = 0; k < nFwd; ++k) {
    int r = tkRand(rs, 100);
    AcId ops[4];
    int nops = 1 + tkRand(rs, 3);
    for (int i = 0; i < nops; ++i) {
      /* Mostly recent values, as in a network's layers. */
      int at = npool > 3 && tkRand(rs, 4) ? npool - 1 - tkRand(rs, 3)
                                          : tkRand(rs, npool);
      ops[i] = pool[at];
      used[at] = (uint8_t)(used[at] || i == 0 || r >= 15);
    }
    if (r < 15) { /* a view of one value */
      int64_t zero = 0;
      AcId o = acGraphBuilderAddOp(b, "view", ops, 1, 1, &zero);
      int recomp = tkRand(rs, 10) != 0;
      tkOp(b, o, recomp ? AC_KIND_VIEW : AC_KIND_UNKNOWN, recomp, 0);
      AcId v = tkRes(b, o);
      acGraphBuilderSetAlias(b, v, ops[0]);
      isRes[npool] = 1;
      pool[npool++] = v;
      continue;
    }
    int nout = tkRand(rs, 8) == 0 ? 2 : 1;
    int64_t bytes[2] = {4 * tkRand(rs, 40), 4 * tkRand(rs, 40)};
    if (tkRand(rs, 10) == 0)
      bytes[0] = 0; /* a non-tensor result */
    AcId dpsInit = AC_NONE;
    if (tkDpsPercent > 0 && tkRand(rs, 100) < tkDpsPercent) {
      nout = 1;
      bytes[0] = 4 * (1 + tkRand(rs, 40));
      /* Mostly an init of the result's size; sometimes not (no in-place). */
      if (tkDestPercent > 0 && tkRand(rs, 100) < tkDestPercent) {
        /* A dest: computed from a pool value, offered to the pool (read
           by later ops, or not), and written; sometimes through a view of
           it (in place only when the view's result has the dest's size). */
        int64_t db = tkRand(rs, 4) ? bytes[0] : 2 * bytes[0];
        AcId src = pool[tkRand(rs, npool)];
        AcId d = tkAdd(b, "dest", &src, 1, db, AC_KIND_ELEMENTWISE,
                       tkRand(rs, 8) != 0, 0.0003);
        dpsInit = tkRes(b, d);
        if (npool < 200 && tkRand(rs, 3) == 0) {
          isRes[npool] = 1;
          pool[npool++] = dpsInit;
        }
        if (tkRand(rs, 3) == 0) {
          int64_t zero = 0;
          AcId vo = acGraphBuilderAddOp(b, "slice", &dpsInit, 1, 1, &zero);
          tkOp(b, vo, AC_KIND_VIEW, 1, 0);
          acGraphBuilderSetAlias(b, tkRes(b, vo), dpsInit);
          dpsInit = tkRes(b, vo);
        }
      } else {
        dpsInit = tkInit(b, rs, tkRand(rs, 8) ? bytes[0] : bytes[0] + 4, pool,
                         &npool, isRes);
      }
      ops[nops++] = dpsInit;
      fwdInit = dpsInit;
      fwdInitBytes = bytes[0];
    }
    AcId o = acGraphBuilderAddOp(b, "op", ops, nops, nout, bytes);
    AcOpKind kind = AC_KIND_ELEMENTWISE;
    int recomp = 1;
    if (r < 25) {
      kind = AC_KIND_RANDOM;
      recomp = 0;
    } else if (r < 40) {
      kind = AC_KIND_MATMUL;
    }
    tkOp(b, o, kind, recomp, 0.001 * (1 + tkRand(rs, 100)));
    AcOp *op = acGraphBuilderOp(b, o);
    op->dpsInit = dpsInit;
    op->computeIntensive = kind == AC_KIND_MATMUL;
    if (recomp && tkRand(rs, 20) == 0)
      op->mustSave = 1;
    else if (recomp && tkRand(rs, 20) == 0)
      op->mustRecompute = 1;
    for (int i = 0; i < nout; ++i) {
      isRes[npool] = 1;
      pool[npool++] = op->firstResult + i;
    }
  }
  /* The loss reads every forward result no forward op reads (so each
     forward op feeds the output). */
  AcId sinks[256];
  int nsinks = 0;
  for (int i = 0; i < npool; ++i)
    if (isRes[i] && !used[i])
      sinks[nsinks++] = pool[i];
  AcId lo = acGraphBuilderAddOp(b, "loss", sinks, nsinks, 1, (int64_t[]){4});
  tkOp(b, lo, AC_KIND_REDUCTION, 1, 0.0005);
  AcId loss = tkRes(b, lo);
  pool[npool++] = loss;
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  /* Backward ops: each depends on the tangent through the previous chain
     and reads a few forward values; some are views of forward values
     (backward since they feed no output). */
  int nBwd = 2 + tkRand(rs, maxBwd - 1);
  AcId prev = dy;
  for (int k = 0; k < nBwd; ++k) {
    AcId ops[4];
    int nops = 0;
    if (tkRand(rs, 6) == 0) {
      int64_t zero = 0;
      AcId src = pool[tkRand(rs, npool)];
      AcId o = acGraphBuilderAddOp(b, "bview", &src, 1, 1, &zero);
      tkOp(b, o, AC_KIND_VIEW, 1, 0);
      acGraphBuilderSetAlias(b, tkRes(b, o), src);
      ops[nops++] = tkRes(b, o);
    }
    ops[nops++] = nbwd > 0 && tkRand(rs, 3) ? bwd[tkRand(rs, nbwd)] : prev;
    while (nops < 3 && tkRand(rs, 3))
      ops[nops++] = pool[tkRand(rs, npool)];
    int64_t gbytes = 4 * (1 + tkRand(rs, 80));
    AcId dpsInit = AC_NONE;
    if (tkDpsPercent > 0 && tkRand(rs, 100) < tkDpsPercent) {
      /* A backward init; a forward one sometimes (recomputed, or saved). */
      if (fwdInit != AC_NONE && tkRand(rs, 4) == 0) {
        dpsInit = fwdInit; /* recomputed, or saved: no in-place then */
        gbytes = fwdInitBytes;
      } else {
        dpsInit = tkInit(b, rs, gbytes, NULL, NULL, NULL);
      }
      ops[nops++] = dpsInit;
    }
    AcId o = tkAdd(b, "grad", ops, nops, gbytes, AC_KIND_ELEMENTWISE, 1, 0.001);
    acGraphBuilderOp(b, o)->dpsInit = dpsInit;
    prev = tkRes(b, o);
    bwd[nbwd++] = prev;
  }
  acGraphBuilderAddRet(b, prev, AC_RET_GRAD);
  if (nbwd > 1 && tkRand(rs, 2))
    acGraphBuilderAddRet(b, bwd[tkRand(rs, nbwd - 1)], AC_RET_GRAD);
}

/* Percent of the generator's ops given a random workspace (tkWorkspaces);
 * 0: none.  A knob like tkDpsPercent. */
static int tkWsPercent = 0;
static int tkWsBwdOnly = 0; /* only backward ops get one */
static inline int tkWorkspaces(AcGraph *g, uint64_t seed, int percent);

/* A random graph with `nFuncs` functions and `nMicro` microbatches in a
 * random valid schedule (default schedule when nMicro == 1 and coin). */
static inline AcGraph *tkGenGraph(uint64_t seed, int nFuncs, int nMicro, int maxFwd,
                           int maxBwd) {
  uint64_t rs = seed * 0x9E3779B97F4A7C15ULL + 1;
  AcGraphBuilder *b = acGraphBuilderCreate();
  char name[16];
  for (int f = 0; f < nFuncs; ++f) {
    snprintf(name, sizeof name, "f%d", f);
    tkGenFunc(b, &rs, name, maxFwd, maxBwd);
  }
  if (nMicro > 1 || tkRand(&rs, 2)) {
    /* Random interleaving: a backward only after its forward. */
    int n = nFuncs * nMicro, done[64] = {0}, left = 2 * n;
    while (left > 0) {
      int i = tkRand(&rs, n);
      if (done[i] == 2)
        continue;
      acGraphBuilderAddSched(b, i % nFuncs, done[i] ? AC_PHASE_BWD : AC_PHASE_FWD,
                             i / nFuncs);
      done[i]++;
      left--;
    }
  }
  AcGraph *g = NULL;
  AcError err;
  if (acGraphBuilderFinish(b, &g, &err) != AC_OK) {
    printf("  generator: %s\n", err.message);
    g = NULL;
  }
  acGraphBuilderDestroy(b);
  if (g && tkWsPercent > 0)
    tkWorkspaces(g, seed, tkWsPercent);
  return g;
}

/* May v be saved at all (plan.h invariants, ac.recompute excluded)? */
static inline int tkSavable(const AcGraph *g, AcId v) {
  const AcValue *val = &g->values[v];
  if (val->role != AC_ROLE_RESULT)
    return 0;
  const AcOp *op = &g->ops[val->producer];
  if (op->phase != AC_PHASE_FWD || op->mustRecompute)
    return 0;
  return val->aliasRoot == v || !op->recomputable || op->mustSave;
}

/* A random save set that derives: random savable values, then whatever the
 * derivation reports missing.  Returns 1 on success (plan derived). */
static inline int tkRandomPlan(const AcGraph *g, uint64_t *rs, int percent,
                        AcPlan *plan) {
  memset(plan->saved, 0, (size_t)g->numValues);
  for (AcId v = 0; v < g->numValues; ++v)
    if (tkSavable(g, v) && tkRand(rs, 100) < percent)
      plan->saved[v] = 1;
  for (int guard = 0; guard <= g->numValues; ++guard) {
    AcError err;
    AcStatus st = acPlanDerive(g, plan, &err);
    if (st == AC_OK)
      return 1;
    if (st != AC_ERR_INFEASIBLE || err.value == AC_NONE ||
        !tkSavable(g, err.value) || plan->saved[err.value]) {
      printf("  random plan: %s\n", err.message);
      return 0;
    }
    plan->saved[err.value] = 1;
  }
  return 0;
}

/*===--------------------------- naive simulator ---------------------------===*/

typedef struct TkStep {
  AcId op;
  int kind;
  int entry;
} TkStep;

typedef struct TkNaive {
  int64_t peak;     /* live max + static */
  long peakStep;
  int64_t live[4096];
  int64_t liveAfter[4096]; /* live after step t's frees (no workspace) */
  long numSteps;
  double recomputeSeconds;
} TkNaive;

static inline int tkIsGradRoot(const AcGraph *g, AcId r) {
  for (intptr_t i = 0; i < g->numRets; ++i)
    if ((g->retFlags[i] & AC_RET_GRAD) && g->gradMode == AC_GRADS_BUFFERS &&
        g->values[g->rets[i]].aliasRoot == r &&
        g->values[r].role == AC_ROLE_RESULT)
      return 1;
  return 0;
}

static inline int tkIsStaticRoot(const AcGraph *g, AcId r) {
  return g->values[r].role == AC_ROLE_PARAM || tkIsGradRoot(g, r);
}

static inline int tkPartner(const AcGraph *g, int e) {
  for (intptr_t j = 0; j < g->numSched; ++j)
    if (j != e && g->sched[j].func == g->sched[e].func &&
        g->sched[j].microbatch == g->sched[e].microbatch)
      return (int)j;
  return -1;
}

/* Storage key of value v read in entry e: entry * numValues + root, or -1
 * for static storage, -2 when not available. */
static inline long tkStorage(const AcGraph *g, const AcPlan *p, int e, AcId v) {
  const AcValue *val = &g->values[v];
  long nv = (long)g->numValues;
  if (g->sched[e].phase == AC_PHASE_FWD) {
    AcId r = val->aliasRoot;
    return tkIsStaticRoot(g, r) ? -1 : e * nv + r;
  }
  int fe = tkPartner(g, e);
  if (val->role == AC_ROLE_PARAM)
    return -1;
  if (val->role == AC_ROLE_PRIMAL)
    return fe * nv + v;
  if (val->role == AC_ROLE_TANGENT)
    return e * nv + v;
  const AcOp *op = &g->ops[val->producer];
  if (op->phase == AC_PHASE_BWD || (!p->saved[v] && p->recompute[val->producer])) {
    if (val->aliasRoot == v)
      return tkIsStaticRoot(g, v) ? -1 : e * nv + v;
    for (int32_t i = 0; i < op->numOperands; ++i) {
      AcId u = acOpOperand(g, val->producer, i);
      if (g->values[u].aliasRoot == val->aliasRoot)
        return tkStorage(g, p, e, u);
    }
    return tkStorage(g, p, e, val->aliasRoot);
  }
  if (p->saved[v])
    return tkIsStaticRoot(g, val->aliasRoot) ? -1 : fe * nv + val->aliasRoot;
  return -2;
}

/* The naive groups: for each backward op, the recompute ops it needs that
 * no earlier backward op of its function needed, by recursion. */
static inline void tkNeed(const AcGraph *g, const AcPlan *p, AcId v, uint8_t *made,
                   uint8_t *grp) {
  const AcValue *val = &g->values[v];
  if (val->role != AC_ROLE_RESULT || p->saved[v])
    return;
  AcId q = val->producer;
  if (g->ops[q].phase != AC_PHASE_FWD || made[q])
    return;
  made[q] = 1;
  grp[q] = 1;
  for (int32_t i = 0; i < g->ops[q].numOperands; ++i)
    tkNeed(g, p, acOpOperand(g, q, i), made, grp);
}

/* Returns 0 (and says why) if the naive simulation finds an inconsistency. */
static inline int tkNaiveSimulate(const AcGraph *g, const AcPlan *p, int64_t staticB,
                           TkNaive *out) {
  long nv = (long)g->numValues, ns = (long)g->numSched;
  TkStep *steps = calloc(4096, sizeof *steps);
  long n = 0;
  long *entryFirst = calloc((size_t)ns + 1, sizeof(long));
  long *entryLast = calloc((size_t)ns + 1, sizeof(long));
  uint8_t *made = calloc((size_t)g->numOps + 1, 1);
  uint8_t *grp = calloc((size_t)g->numOps + 1, 1);
  long nkeys = ns * nv;
  long *alloc = malloc(sizeof(long) * (size_t)nkeys);
  long *last = malloc(sizeof(long) * (size_t)nkeys);
  int ok = 1;
  memset(out, 0, sizeof *out);
  for (long k = 0; k < nkeys; ++k)
    alloc[k] = last[k] = -1;
  if (g->numSched * (2 * g->numOps + 1) >= 4096) {
    printf("  naive: graph too large for the naive simulator\n");
    ok = 0;
    goto done;
  }
  for (long e = 0; e < ns; ++e) {
    const AcSchedEntry *se = &g->sched[e];
    const AcFunc *fn = &g->funcs[se->func];
    entryFirst[e] = n;
    memset(made, 0, (size_t)g->numOps);
    for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o) {
      if (g->ops[o].phase != se->phase)
        continue;
      if (se->phase == AC_PHASE_BWD) {
        memset(grp, 0, (size_t)g->numOps);
        for (int32_t i = 0; i < g->ops[o].numOperands; ++i)
          tkNeed(g, p, acOpOperand(g, o, i), made, grp);
        for (AcId q = 0; q < g->numOps; ++q)
          if (grp[q]) {
            if (!p->recompute[q] || !g->ops[q].recomputable || g->ops[q].mustSave) {
              printf("  naive: op %d needed but not a valid recompute op\n", (int)q);
              ok = 0;
            }
            steps[n++] = (TkStep){q, AC_STEP_RECOMPUTE, (int)e};
            out->recomputeSeconds += g->ops[q].seconds;
          }
      }
      steps[n++] = (TkStep){o, se->phase == AC_PHASE_FWD ? AC_STEP_FWD : AC_STEP_BWD,
                            (int)e};
    }
    entryLast[e] = n - 1;
  }
  out->numSteps = n;
  /* Allocation and uses, step by step. */
  for (long t = 0; t < n; ++t) {
    const AcOp *op = &g->ops[steps[t].op];
    int e = steps[t].entry;
    for (int32_t r = 0; r < op->numResults; ++r) {
      AcId v = op->firstResult + r;
      if (g->values[v].aliasRoot != v || tkIsStaticRoot(g, v))
        continue;
      alloc[e * nv + v] = t;
      last[e * nv + v] = t;
    }
    for (int32_t i = 0; i < op->numOperands; ++i) {
      long key = tkStorage(g, p, e, acOpOperand(g, steps[t].op, i));
      if (key == -2) {
        printf("  naive: step %ld reads an unavailable value\n", t);
        ok = 0;
      } else if (key >= 0 && last[key] < t) {
        last[key] = t;
      }
    }
  }
  /* Inputs, tangents, saved and returned values. */
  for (long e = 0; e < ns; ++e) {
    const AcSchedEntry *se = &g->sched[e];
    const AcFunc *fn = &g->funcs[se->func];
    int pe = tkPartner(g, (int)e);
    if (se->phase == AC_PHASE_FWD) {
      for (AcId a = fn->firstArg; a < fn->firstArg + fn->numArgs; ++a)
        if (g->values[a].role == AC_ROLE_PRIMAL) {
          alloc[e * nv + a] = entryFirst[e];
          last[e * nv + a] = entryLast[pe];
        }
      for (AcId v = 0; v < g->numValues; ++v) {
        if (g->values[v].func != se->func || !p->saved[v])
          continue;
        long key = e * nv + g->values[v].aliasRoot;
        if (!tkIsStaticRoot(g, g->values[v].aliasRoot) && alloc[key] >= 0 &&
            last[key] < entryFirst[pe] - 1)
          last[key] = entryFirst[pe] - 1;
      }
    } else {
      for (AcId a = fn->firstArg; a < fn->firstArg + fn->numArgs; ++a)
        if (g->values[a].role == AC_ROLE_TANGENT) {
          alloc[e * nv + a] = entryFirst[e];
          last[e * nv + a] = entryLast[e];
        }
    }
    for (int32_t r = 0; r < fn->numRets; ++r) {
      int ri = fn->firstRet + r;
      AcId v = g->rets[ri];
      /* a gradient is a returned value unless written into a buffer */
      if ((g->retFlags[ri] & AC_RET_GRAD) && g->gradMode == AC_GRADS_BUFFERS)
        continue;
      if ((g->values[v].phase == AC_PHASE_FWD) != (se->phase == AC_PHASE_FWD))
        continue;
      long key = tkStorage(g, p, (int)e, v);
      long end = se->phase == AC_PHASE_FWD ? entryLast[pe] : entryLast[e];
      if (key >= 0 && alloc[key] >= 0 && last[key] < end)
        last[key] = end;
    }
  }
  /* Live bytes per step by scanning every storage. */
  out->peakStep = -1;
  int64_t best = -1;
  for (long t = 0; t < n; ++t) {
    int64_t live = 0;
    for (long key = 0; key < nkeys; ++key)
      if (alloc[key] >= 0 && alloc[key] <= t && t <= last[key])
        live += g->values[key % nv].bytes;
    int64_t after = 0;
    for (long key = 0; key < nkeys; ++key)
      if (alloc[key] >= 0 && alloc[key] <= t && t + 1 <= last[key])
        after += g->values[key % nv].bytes;
    out->liveAfter[t] = after;
    live += g->ops[steps[t].op].workspace; /* the op's scratch, this step */
    out->live[t] = live;
    if (live > best) {
      best = live;
      out->peakStep = t;
    }
  }
  out->peak = (best < 0 ? 0 : best) + staticB;
done:
  free(steps);
  free(entryFirst);
  free(entryLast);
  free(made);
  free(grp);
  free(alloc);
  free(last);
  return ok;
}

/* Three independent activations (bytes, recompute seconds):
 *   x primal 10, dy tangent 10
 *   op0 a = f(x)  100 B, 1 s     op1 b = f(x)  300 B, 9 s
 *   op2 c = f(x)  200 B, 1 s     op3 loss = sum(a, b, c) 10 B output
 *   op4 g1 = k(dy, a) 500 B      op5 g2 = k(g1, b) 10 B
 *   op6 g3 = k(g2, c) 10 B grad (static)
 * Values: x 0, dy 1, a 2, b 3, c 4, loss 5, g1 6, g2 7, g3 8.
 * The forward peaks at 620 (x 10 + a 100 + b 300 + c 200 + loss 10).
 *
 * S0 = {a, b, c}: step 4 (op4): x 10 + a 100 + b 300 + c 200 + loss 10
 *   + dy 10 + g1 500 = 1130  <- peak
 * Drop a: a' 100 is rebuilt right before op4: step 5 (op4) = 1130, no fall.
 * Drop b (9 s): op4: 10+100+200+10+10+500 = 830; b' before op5:
 *   x 10 + c 200 + loss 10 + dy 10 + g1 500 + b' 300 = 1030; op5: +g2 = 1040
 *   -> fall 90, 9 s / 90 B = 0.1 s/B
 * Drop c (1 s): op4: 10+100+300+10+10+500 = 930; op5: 840; c' before op6:
 *   240 -> peak 930, fall 200, 1 s / 200 B = 0.005 s/B  <- chosen
 * From {a, b} (930): drop a: still 930 at op4.  Drop b: op4 630, b' 830,
 *   op5 840 -> peak 840, fall 90  <- chosen
 * From {a} (840): drop a: a' 130, op4 630, b' 830, op5 840: no fall. End.
 * Trajectory: peaks 1130, 930, 840; drops -, c, b; recompute 0, 1, 10 s.
 * The space (plans dropping any of a, b, c), peak/seconds: {} 1130/0,
 * {c} 930/1, {b} 1040/9, {b,c} 840/10, {a} 1130/1, {a,c} 930/2,
 * {a,b} 1040/10, {a,b,c} 840/11. */
static inline AcGraph *tkThreeActs(void) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "three");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 10);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 10);
  /* Compute-intensive: min-cut saves them, greedy may still rerun them. */
  AcId a = tkRes(b, tkAdd(b, "f", &x, 1, 100, AC_KIND_MATMUL, 1, 1));
  AcId bb = tkRes(b, tkAdd(b, "f", &x, 1, 300, AC_KIND_MATMUL, 1, 9));
  AcId c = tkRes(b, tkAdd(b, "f", &x, 1, 200, AC_KIND_MATMUL, 1, 1));
  for (AcId o = 0; o < 3; ++o)
    acGraphBuilderOp(b, o)->computeIntensive = 1;
  AcId loss = tkRes(b, tkAdd(b, "sum", (AcId[]){a, bb, c}, 3, 10,
                             AC_KIND_REDUCTION, 1, 1));
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  AcId g1 = tkRes(b, tkAdd(b, "k", (AcId[]){dy, a}, 2, 500,
                           AC_KIND_ELEMENTWISE, 1, 1));
  AcId g2 = tkRes(b, tkAdd(b, "k", (AcId[]){g1, bb}, 2, 10,
                           AC_KIND_ELEMENTWISE, 1, 1));
  AcId g3 = tkRes(b, tkAdd(b, "k", (AcId[]){g2, c}, 2, 10,
                           AC_KIND_ELEMENTWISE, 1, 1));
  acGraphBuilderAddRet(b, g3, AC_RET_GRAD);
  AcGraph *g = NULL;
  CHECK(acGraphBuilderFinish(b, &g, NULL) == AC_OK);
  acGraphBuilderDestroy(b);
  return g;
}


/* Gives about `percent` % of g's ops a random workspace (AcOp.workspace)
 * of 1 to 4 times a typical value size, some of them large enough to make
 * the peak; returns how many ops got one. */
static inline int tkWorkspaces(AcGraph *g, uint64_t seed, int percent) {
  uint64_t rs = seed * 104729 + 11;
  int n = 0;
  for (intptr_t o = 0; o < g->numOps; ++o)
    if ((int)(acTestRand(&rs) % 100) < percent &&
        (!tkWsBwdOnly || g->ops[o].phase == AC_PHASE_BWD)) {
      g->ops[o].workspace = 16 * (int64_t)(1 + acTestRand(&rs) % 64);
      ++n;
    }
  return n;
}

/* Quantizes sizes and costs so that levels and ratios tie often. */
static inline void tkQuantize(AcGraph *g, uint64_t seed) {
  uint64_t rs = seed * 7919 + 3;
  int levels = 1 + (int)(acTestRand(&rs) % 3);
  for (intptr_t v = 0; v < g->numValues; ++v)
    if (g->values[v].bytes > 0)
      g->values[v].bytes = 64 * (1 + (g->values[v].bytes / 4) % levels);
  for (intptr_t o = 0; o < g->numOps; ++o)
    if (g->ops[o].seconds > 0)
      g->ops[o].seconds = 0.001 * (double)(1 + (int)(acTestRand(&rs) % 2));
}

#endif
