/* test_graph.c - the graph builder: use lists, alias roots, phase inference
 * (with ac.phase overrides and their errors), save candidates, schedules.
 * Phase inference is cross-checked against a brute-force reachability
 * computation on random graphs. */
#include "autoac/graph.h"

#include "actest.h"
#include "graph_testkit.h"

#include <stdlib.h>
#include <string.h>


#include <stdarg.h>
/* Adds a one-result op with `n` operands; returns its result value. */
static AcId op1(AcGraphBuilder *b, const char *name, int64_t bytes, int n, ...) {
  AcId ops[8];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; ++i)
    ops[i] = va_arg(ap, AcId);
  va_end(ap);
  AcId o = acGraphBuilderAddOp(b, name, ops, n, 1, &bytes);
  return o == AC_NONE ? AC_NONE : acGraphBuilderOp(b, o)->firstResult;
}

/*   x ─ mm(w) ─ h ─ relu ─ r ─ view ─ v ─ sum ─ loss (output)
 *   dy ─ mul(v) ─ g ─ mul2(g, v, v) ─ g2 (grad);  dead = exp(x) feeds nothing. */
AC_TEST(phasesAndCandidates) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "f");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 16);
  AcId w = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 16);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId h = op1(b, "mm", 16, 2, x, w);
  AcId r = op1(b, "relu", 16, 1, h);
  AcId v = op1(b, "view", 16, 1, r);
  acGraphBuilderSetAlias(b, v, r);
  AcId loss = op1(b, "sum", 4, 1, v);
  AcId dead = op1(b, "exp", 16, 1, x);
  /* Dead ops of known kinds: one reading a forward value is forward, one
     reading the tangent backward. */
  int64_t b16 = 16, b4 = 4;
  AcId deadOp = acGraphBuilderAddOp(b, "empty_like", &h, 1, 1, &b16);
  acGraphBuilderOp(b, deadOp)->kind = AC_KIND_DATA_MOVEMENT;
  AcId deadKnown = acGraphBuilderOp(b, deadOp)->firstResult;
  AcId negOp = acGraphBuilderAddOp(b, "neg", &dy, 1, 1, &b4);
  acGraphBuilderOp(b, negOp)->kind = AC_KIND_ELEMENTWISE;
  AcId deadBwd = acGraphBuilderOp(b, negOp)->firstResult;
  AcId g = op1(b, "mul", 16, 2, dy, v);
  AcId g2 = op1(b, "mul2", 16, 3, g, v, v);
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  acGraphBuilderAddRet(b, g2, AC_RET_GRAD);
  AcGraph *gr = NULL;
  AcError err;
  CHECK(acGraphBuilderFinish(b, &gr, &err) == AC_OK);
  acGraphBuilderDestroy(b);
  if (!gr)
    return;
  /* mm, relu, view, sum feed the loss and no tangent, the dead empty_like
     reads only forward values: forward (5).  exp (unknown) feeds nothing,
     neg and the muls read the tangent: backward (4). */
  CHECK_EQ_I64(acGraphCountPhase(gr, 0, AC_PHASE_FWD), 5);
  CHECK_EQ_I64(acGraphCountPhase(gr, 0, AC_PHASE_BWD), 4);
  CHECK(gr->values[dead].phase == AC_PHASE_BWD); /* unknown: may have effects */
  CHECK(gr->values[deadKnown].phase == AC_PHASE_FWD); /* reads x only */
  CHECK(gr->values[deadBwd].phase == AC_PHASE_BWD);   /* reads a tangent */
  CHECK(!gr->values[x].saveCandidate && !gr->values[h].saveCandidate);
  CHECK(gr->values[dy].phase == AC_PHASE_BWD);
  CHECK(gr->values[x].phase == AC_PHASE_FWD);
  /* The view aliases r: no bytes, r is its storage root. */
  CHECK_EQ_I64(gr->values[v].bytes, 0);
  CHECK_EQ_I64(gr->values[v].logicalBytes, 16);
  CHECK_EQ_I64(gr->values[v].aliasRoot, r);
  /* Candidates: v (read by the backward muls) and through it r. */
  CHECK(gr->values[v].saveCandidate && gr->values[r].saveCandidate);
  CHECK(!gr->values[h].saveCandidate && !gr->values[loss].saveCandidate);
  CHECK(!gr->values[x].saveCandidate);
  /* Uses: distinct ops, ascending; mul2 reads v twice but counts once. */
  CHECK_EQ_I64(gr->values[v].numUses, 3);
  CHECK_EQ_I64(acValueUse(gr, v, 0), gr->values[loss].producer);
  CHECK_EQ_I64(acValueUse(gr, v, 1), gr->values[g].producer);
  CHECK_EQ_I64(acValueUse(gr, v, 2), gr->values[g2].producer);
  CHECK_EQ_I64(gr->values[x].numUses, 2); /* mm and exp */
  /* Static sizes: one param of 16 bytes; the grad g2 owns 16 bytes. */
  CHECK_EQ_I64(acGraphParamBytes(gr), 16);
  CHECK_EQ_I64(acGraphGradBytes(gr), 16);
  /* Default schedule: f.fwd then f.bwd. */
  CHECK_EQ_I64(gr->numSched, 2);
  CHECK(gr->sched[0].phase == AC_PHASE_FWD && gr->sched[1].phase == AC_PHASE_BWD);
  acGraphDestroy(gr);
}

AC_TEST(forcedPhases) {
  AcError err;
  AcGraph *gr = NULL;
  /* ac.phase = "fwd" on an op that only the backward reads: honoured. */
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "f");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 16);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 16);
  AcId y = op1(b, "relu", 16, 1, x);
  AcId e = op1(b, "exp", 16, 1, x);
  acGraphBuilderForcePhase(b, 1, AC_PHASE_FWD); /* the exp */
  AcId g = op1(b, "mul", 16, 2, dy, e);
  acGraphBuilderAddRet(b, y, AC_RET_OUTPUT);
  acGraphBuilderAddRet(b, g, AC_RET_GRAD);
  CHECK(acGraphBuilderFinish(b, &gr, &err) == AC_OK);
  acGraphBuilderDestroy(b);
  if (gr) {
    CHECK(gr->values[e].phase == AC_PHASE_FWD);
    CHECK(gr->ops[1].phaseForced);
    CHECK(gr->values[e].saveCandidate);
    acGraphDestroy(gr);
  }
  /* ac.phase = "fwd" on an op that reads a tangent: an error naming it. */
  b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "f");
  x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 16);
  dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 16);
  y = op1(b, "relu", 16, 1, x);
  g = op1(b, "mul", 16, 2, dy, y);
  acGraphBuilderForcePhase(b, 1, AC_PHASE_FWD);
  acGraphBuilderAddRet(b, y, AC_RET_OUTPUT);
  acGraphBuilderAddRet(b, g, AC_RET_GRAD);
  CHECK(acGraphBuilderFinish(b, &gr, &err) == AC_ERR_INVALID);
  CHECK_EQ_I64(err.op, 1);
  CHECK(strstr(err.message, "'mul'") && strstr(err.message, "depends on a tangent"));
  acGraphBuilderDestroy(b);
  /* ac.phase = "bwd" on an op the forward output needs: the forward reader
     is named. */
  b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "f");
  x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 16);
  y = op1(b, "relu", 16, 1, x);
  AcId s = op1(b, "sum", 4, 1, y);
  acGraphBuilderForcePhase(b, 0, AC_PHASE_BWD);
  acGraphBuilderAddRet(b, s, AC_RET_OUTPUT);
  CHECK(acGraphBuilderFinish(b, &gr, &err) == AC_ERR_INVALID);
  CHECK_EQ_I64(err.op, 1);
  CHECK(strstr(err.message, "forward op 'sum' reads a backward value") != NULL);
  acGraphBuilderDestroy(b);
}

static AcGraphBuilder *twoFuncs(void) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  for (int f = 0; f < 2; ++f) {
    acGraphBuilderAddFunc(b, f ? "B" : "A");
    AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 8);
    AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 8);
    AcId y = op1(b, "relu", 8, 1, x);
    AcId g = op1(b, "mul", 8, 2, dy, y);
    acGraphBuilderAddRet(b, y, AC_RET_OUTPUT);
    acGraphBuilderAddRet(b, g, AC_RET_GRAD);
  }
  return b;
}

AC_TEST(schedules) {
  AcError err;
  AcGraph *gr = NULL;
  /* Default: forwards in module order, backwards in reverse. */
  AcGraphBuilder *b = twoFuncs();
  CHECK(acGraphBuilderFinish(b, &gr, &err) == AC_OK);
  acGraphBuilderDestroy(b);
  if (gr) {
    CHECK_EQ_I64(gr->numSched, 4);
    CHECK(gr->sched[0].func == 0 && gr->sched[0].phase == AC_PHASE_FWD);
    CHECK(gr->sched[1].func == 1 && gr->sched[1].phase == AC_PHASE_FWD);
    CHECK(gr->sched[2].func == 1 && gr->sched[2].phase == AC_PHASE_BWD);
    CHECK(gr->sched[3].func == 0 && gr->sched[3].phase == AC_PHASE_BWD);
    /* Each entry knows the other phase of its (function, microbatch). */
    CHECK(gr->sched[0].partner == 3 && gr->sched[3].partner == 0);
    CHECK(gr->sched[1].partner == 2 && gr->sched[2].partner == 1);
    acGraphDestroy(gr);
  }
  /* 1F1B with microbatches is accepted. */
  b = twoFuncs();
  acGraphBuilderAddSched(b, 0, AC_PHASE_FWD, 0);
  acGraphBuilderAddSched(b, 0, AC_PHASE_FWD, 1);
  acGraphBuilderAddSched(b, 0, AC_PHASE_BWD, 0);
  acGraphBuilderAddSched(b, 1, AC_PHASE_FWD, 0);
  acGraphBuilderAddSched(b, 1, AC_PHASE_BWD, 0);
  acGraphBuilderAddSched(b, 0, AC_PHASE_BWD, 1);
  CHECK(acGraphBuilderFinish(b, &gr, &err) == AC_OK);
  acGraphBuilderDestroy(b);
  if (gr) {
    static const int32_t partner[6] = {2, 5, 0, 4, 3, 1};
    for (int e = 0; e < 6; ++e)
      CHECK_EQ_I64(gr->sched[e].partner, partner[e]);
  }
  acGraphDestroy(gr);
  /* Errors: a repeat, a missing backward, backward before forward, a
     function left out. */
  struct { int n; int f[4], ph[4], mb[4]; const char *msg; } bad[] = {
      {4, {0, 0, 0, 1}, {0, 0, 1, 0}, {0, 0, 0, 0}, "twice"},
      {3, {0, 1, 1}, {0, 0, 1}, {0, 0, 0}, "has no \"A.bwd\""},
      {4, {0, 0, 1, 1}, {1, 0, 0, 1}, {0, 0, 0, 0}, "runs \"A.bwd\" before \"A.fwd\""},
      {2, {0, 0}, {0, 1}, {0, 0}, "does not mention joint function \"B\""},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    b = twoFuncs();
    for (int k = 0; k < bad[i].n; ++k)
      acGraphBuilderAddSched(b, bad[i].f[k], (AcPhase)bad[i].ph[k], bad[i].mb[k]);
    gr = NULL;
    CHECK(acGraphBuilderFinish(b, &gr, &err) == AC_ERR_INVALID);
    CHECK(gr == NULL);
    if (!strstr(err.message, bad[i].msg)) {
      printf("  case %zu: '%s' lacks '%s'\n", i, err.message, bad[i].msg);
      CHECK(0);
    }
    acGraphBuilderDestroy(b);
  }
}

/* acGraphStepSeconds: each function's forward ops once per forward entry,
 * its backward ops once per backward entry.  Ops: A.relu (fwd), A.mul (bwd),
 * B.relu (fwd), B.mul (bwd) with 1, 2, 4, 8 s and 10, 20, 40, 80 FLOPs.
 *   default schedule (each phase once): 1 + 2 + 4 + 8 = 15 s, 150 FLOPs;
 *   A with two microbatches: 2 * (1 + 2) + 4 + 8 = 18 s, 2 * 30 + 120 = 180. */
AC_TEST(stepSeconds) {
  AcGraph *gr = NULL;
  AcGraphBuilder *b = twoFuncs();
  CHECK(acGraphBuilderFinish(b, &gr, NULL) == AC_OK);
  acGraphBuilderDestroy(b);
  if (!gr)
    return;
  for (AcId o = 0; o < 4; ++o) {
    gr->ops[o].seconds = (double)(1 << o);
    gr->ops[o].flops = 10.0 * (1 << o);
  }
  CHECK(gr->ops[0].phase == AC_PHASE_FWD && gr->ops[1].phase == AC_PHASE_BWD);
  double flops = -1;
  CHECK_NEAR(acGraphStepSeconds(gr, &flops), 15.0, 0);
  CHECK_NEAR(flops, 150.0, 0);
  CHECK_NEAR(acGraphStepSeconds(gr, NULL), 15.0, 0);
  acGraphDestroy(gr);
  b = twoFuncs();
  acGraphBuilderAddSched(b, 0, AC_PHASE_FWD, 0);
  acGraphBuilderAddSched(b, 0, AC_PHASE_FWD, 1);
  acGraphBuilderAddSched(b, 0, AC_PHASE_BWD, 0);
  acGraphBuilderAddSched(b, 1, AC_PHASE_FWD, 0);
  acGraphBuilderAddSched(b, 1, AC_PHASE_BWD, 0);
  acGraphBuilderAddSched(b, 0, AC_PHASE_BWD, 1);
  gr = NULL;
  CHECK(acGraphBuilderFinish(b, &gr, NULL) == AC_OK);
  acGraphBuilderDestroy(b);
  if (!gr)
    return;
  for (AcId o = 0; o < 4; ++o) {
    gr->ops[o].seconds = (double)(1 << o);
    gr->ops[o].flops = 10.0 * (1 << o);
  }
  CHECK_NEAR(acGraphStepSeconds(gr, &flops), 18.0, 0);
  CHECK_NEAR(flops, 180.0, 0);
  acGraphDestroy(gr);
}

/* Random graphs: phases equal the definition computed by brute force
   (forward iff an output is reachable from the op and no tangent reaches
   it), uses are exactly the readers. */
AC_TEST(randomPhasesMatchDefinition) {
  uint64_t seed = 0x9e3779b97f4a7c15ULL;
  for (int iter = 0; iter < 300; ++iter) {
    AcGraphBuilder *b = acGraphBuilderCreate();
    acGraphBuilderAddFunc(b, "r");
    int nargs = 1 + (int)(acTestRand(&seed) % 3), nops = 2 + (int)(acTestRand(&seed) % 14);
    AcId vals[64];
    int nv = 0;
    for (int a = 0; a < nargs; ++a)
      vals[nv++] = acGraphBuilderAddArg(b, acTestRand(&seed) % 3 == 0 ? AC_ROLE_TANGENT
                                                                    : AC_ROLE_PRIMAL, 8);
    int k[32][4], nk[32], known[32];
    for (int o = 0; o < nops; ++o) {
      AcId ops[3];
      nk[o] = 1 + (int)(acTestRand(&seed) % 3);
      for (int i = 0; i < nk[o]; ++i) {
        k[o][i] = (int)(acTestRand(&seed) % (uint64_t)nv);
        ops[i] = vals[k[o][i]];
      }
      int64_t by = 8;
      AcId op = acGraphBuilderAddOp(b, "op", ops, nk[o], 1, &by);
      known[o] = acTestRand(&seed) % 2 == 0; /* unknown ops may have effects */
      if (known[o])
        acGraphBuilderOp(b, op)->kind = AC_KIND_ELEMENTWISE;
      vals[nv++] = acGraphBuilderOp(b, op)->firstResult;
    }
    int out = nargs + (int)(acTestRand(&seed) % (uint64_t)nops);
    acGraphBuilderAddRet(b, vals[out], AC_RET_OUTPUT);
    acGraphBuilderAddRet(b, vals[nv - 1], AC_RET_GRAD);
    AcGraph *g = NULL;
    AcError err;
    CHECK(acGraphBuilderFinish(b, &g, &err) == AC_OK);
    acGraphBuilderDestroy(b);
    if (!g)
      continue;
    /* Brute force over value indices 0..nv-1 (ids equal indices here). */
    int tang[64] = {0}, feeds[64] = {0};
    for (int v = 0; v < nv; ++v) {
      if (v < nargs)
        tang[v] = g->values[v].role == AC_ROLE_TANGENT;
      else
        for (int i = 0; i < nk[v - nargs]; ++i)
          tang[v] |= tang[k[v - nargs][i]];
    }
    feeds[out] = 1;
    for (int changed = 1; changed;) {
      changed = 0;
      for (int o = 0; o < nops; ++o)
        if (feeds[nargs + o])
          for (int i = 0; i < nk[o]; ++i)
            if (!feeds[k[o][i]])
              feeds[k[o][i]] = changed = 1;
    }
    /* Live: returned, or read by a live op; unknown ops are live. */
    int need[64] = {0}, live[32] = {0};
    need[out] = need[nv - 1] = 1;
    for (int o = nops - 1; o >= 0; --o) {
      live[o] = !known[o] || need[nargs + o];
      for (int i = 0; live[o] && i < nk[o]; ++i)
        need[k[o][i]] = 1;
    }
    int phaseFwd[64];
    for (int v = 0; v < nargs; ++v)
      phaseFwd[v] = !tang[v];
    for (int o = 0; o < nops; ++o) {
      int fwd = feeds[nargs + o] && !tang[nargs + o];
      if (!live[o] && !tang[nargs + o]) { /* dead: forward if its inputs are */
        int inputsFwd = 1;
        for (int i = 0; i < nk[o]; ++i)
          inputsFwd &= phaseFwd[k[o][i]];
        fwd |= inputsFwd;
      }
      phaseFwd[nargs + o] = fwd;
      CHECK_EQ_I64(g->ops[o].phase, fwd ? AC_PHASE_FWD : AC_PHASE_BWD);
      for (int i = 0; i < nk[o]; ++i) {
        int found = 0;
        AcId v = k[o][i];
        for (int u = 0; u < g->values[v].numUses; ++u)
          found |= acValueUse(g, v, u) == o;
        CHECK(found);
      }
    }
    acGraphDestroy(g);
  }
}

/* The issue-22 shapes, by hand.  An in-place write whose result nobody
 * reads is still ordered with the reads of its storage:
 *   c = clone(x); mul_(c) (result unused); t = tanh(c); loss = sum(t);
 *   grad = mul(dy, t)          -> mul_ is forward (tanh reads after it);
 *   r = relu(x); e = exp(r); mul_(r); loss = sum(r); grad = mul(dy, e)
 *                              -> exp is forward (it reads before the write);
 *   the write returned as an output with no reader -> forward;
 *   a write after a backward read of its storage  -> backward;
 *   a forced-forward read after a backward write  -> an error naming it. */
static AcId writeOp(AcGraphBuilder *b, const char *name, AcId v, int result) {
  int64_t by = 16;
  AcId o = acGraphBuilderAddOp(b, name, &v, 1, result, &by);
  acGraphBuilderSetMutates(b, o, v);
  acGraphBuilderOp(b, o)->kind = AC_KIND_INPLACE;
  return o;
}

AC_TEST(writesOrderedWithAccesses) {
  for (int shape = 0; shape < 5; ++shape) {
    AcGraphBuilder *b = acGraphBuilderCreate();
    acGraphBuilderAddFunc(b, "f");
    AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 16);
    AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 16);
    AcId w = AC_NONE, probe = AC_NONE, out = AC_NONE, grad = AC_NONE;
    if (shape == 0) {
      AcId c = op1(b, "clone", 16, 1, x);
      w = writeOp(b, "mul_", c, 1);
      AcId t = op1(b, "tanh", 16, 1, c);
      out = op1(b, "sum", 4, 1, t);
      grad = op1(b, "mul", 16, 2, dy, t);
    } else if (shape == 1) {
      AcId r = op1(b, "relu", 16, 1, x);
      AcId e = op1(b, "exp", 16, 1, r);
      probe = acGraphBuilderOp(b, 1)->firstResult == e ? 1 : AC_NONE;
      w = writeOp(b, "mul_", r, 0);
      out = op1(b, "sum", 4, 1, r);
      grad = op1(b, "mul", 16, 2, dy, e);
    } else if (shape == 2) {
      out = op1(b, "clone", 16, 1, x);
      w = writeOp(b, "overwrite", out, 0);
      grad = op1(b, "mul", 16, 1, dy);
    } else {
      AcId r = op1(b, "relu", 16, 1, x);
      out = op1(b, "sum", 4, 1, r);
      grad = op1(b, "mul", 16, 2, dy, r);
      w = writeOp(b, "zero_", r, 0);
      if (shape == 4) {
        acGraphBuilderForcePhase(b, w, AC_PHASE_BWD);
        AcId late = op1(b, "exp", 16, 1, r);
        acGraphBuilderForcePhase(b, 4, AC_PHASE_FWD); /* exp */
        (void)late;
      }
    }
    acGraphBuilderAddRet(b, out, AC_RET_OUTPUT);
    acGraphBuilderAddRet(b, grad, AC_RET_GRAD);
    AcGraph *g = NULL;
    AcError err;
    acErrorClear(&err);
    AcStatus st = acGraphBuilderFinish(b, &g, &err);
    acGraphBuilderDestroy(b);
    if (shape == 4) {
      CHECK(st == AC_ERR_INVALID && err.op == 4);
      CHECK(strstr(err.message, "forward op 'exp' accesses storage that a "
                                "backward op writes before it") != NULL);
      continue;
    }
    CHECK(st == AC_OK);
    if (!g)
      continue;
    CHECK_EQ_I64(g->ops[w].phase, shape == 3 ? AC_PHASE_BWD : AC_PHASE_FWD);
    if (probe != AC_NONE) {
      CHECK_EQ_I64(g->ops[probe].phase, AC_PHASE_FWD);
      CHECK(!g->ops[probe].recomputable);
    }
    acGraphDestroy(g);
  }
}

/* Random graphs with in-place writes: phases equal the definition computed
 * by brute force over data edges plus program-order edges (for two ops of
 * which one writes a storage the other accesses, the earlier precedes the
 * later; a forward output reads its storage after every op). */
AC_TEST(randomWritePhasesMatchDefinition) {
  uint64_t seed = 0x2545f4914f6cdd1dULL;
  for (int iter = 0; iter < 400; ++iter) {
    AcGraphBuilder *b = acGraphBuilderCreate();
    acGraphBuilderAddFunc(b, "w");
    int nargs = 1 + (int)(acTestRand(&seed) % 3), nops = 2 + (int)(acTestRand(&seed) % 14);
    int nv = 0, tangArg[4] = {0};
    for (int a = 0; a < nargs; ++a) {
      tangArg[a] = a == nargs - 1 && acTestRand(&seed) % 2;
      acGraphBuilderAddArg(b, tangArg[a] ? AC_ROLE_TANGENT : AC_ROLE_PRIMAL, 8);
      nv++;
    }
    int k[32][3], nk[32], wr[32];
    for (int o = 0; o < nops; ++o) {
      AcId ops[3];
      nk[o] = 1 + (int)(acTestRand(&seed) % 3);
      for (int i = 0; i < nk[o]; ++i)
        ops[i] = k[o][i] = (int)(acTestRand(&seed) % (uint64_t)nv);
      int64_t by = 8;
      AcId op = acGraphBuilderAddOp(b, "op", ops, nk[o], 1, &by);
      acGraphBuilderOp(b, op)->kind = AC_KIND_ELEMENTWISE;
      wr[o] = acTestRand(&seed) % 4 == 0 ? k[o][0] : -1;
      if (wr[o] >= 0)
        acGraphBuilderSetMutates(b, op, wr[o]);
      nv++;
    }
    int out = nargs + (int)(acTestRand(&seed) % (uint64_t)nops);
    acGraphBuilderAddRet(b, out, AC_RET_OUTPUT);
    acGraphBuilderAddRet(b, nv - 1, AC_RET_GRAD);
    AcGraph *g = NULL;
    AcError err;
    CHECK(acGraphBuilderFinish(b, &g, &err) == AC_OK);
    acGraphBuilderDestroy(b);
    if (!g)
      continue;
    /* edge[p][q]: op p precedes op q (data or program order). */
    static uint8_t edge[32][32];
    memset(edge, 0, sizeof edge);
    for (int q = 0; q < nops; ++q)
      for (int p = 0; p < q; ++p) {
        for (int i = 0; i < nk[q]; ++i)
          edge[p][q] |= k[q][i] == nargs + p;
        for (int side = 0; side < 2; ++side) {
          int wo = side ? q : p, ao = side ? p : q;
          if (wr[wo] < 0)
            continue;
          int acc = wr[wo] == nargs + ao;
          for (int i = 0; i < nk[ao]; ++i)
            acc |= k[ao][i] == wr[wo];
          edge[p][q] |= (uint8_t)acc;
        }
      }
    int tang[32] = {0}, feeds[32] = {0};
    for (int q = 0; q < nops; ++q) {
      for (int i = 0; i < nk[q]; ++i)
        tang[q] |= k[q][i] < nargs && tangArg[k[q][i]];
      for (int p = 0; p < q; ++p)
        tang[q] |= edge[p][q] && tang[p];
    }
    for (int p = nops - 1; p >= 0; --p) {
      feeds[p] = out == nargs + p || (wr[p] >= 0 && wr[p] == out);
      for (int q = p + 1; q < nops; ++q)
        feeds[p] |= edge[p][q] && feeds[q];
    }
    int need[64] = {0}, live[32] = {0}, fwdv[64], bwdWrote[64] = {0};
    need[out] = need[nv - 1] = 1;
    for (int o = nops - 1; o >= 0; --o) {
      live[o] = wr[o] >= 0 || need[nargs + o];
      for (int i = 0; live[o] && i < nk[o]; ++i)
        need[k[o][i]] = 1;
    }
    for (int a = 0; a < nargs; ++a)
      fwdv[a] = !tangArg[a];
    for (int o = 0; o < nops; ++o) {
      int fwd = feeds[o] && !tang[o];
      if (!fwd && !live[o] && !tang[o]) {
        int ok = !bwdWrote[nargs + o];
        for (int i = 0; i < nk[o]; ++i)
          ok &= fwdv[k[o][i]] && !bwdWrote[k[o][i]];
        fwd = ok;
      }
      fwdv[nargs + o] = fwd;
      if (!fwd && wr[o] >= 0)
        bwdWrote[wr[o]] = 1;
      CHECK_EQ_I64(g->ops[o].phase, fwd ? AC_PHASE_FWD : AC_PHASE_BWD);
    }
    acGraphDestroy(g);
  }
}

AC_TEST(allocationFailuresAreClean) {
  int sawOk = 0;
  for (int64_t n = 1; n < 400 && !sawOk; ++n) {
    acAllocFailAfter(n);
    AcGraphBuilder *b = acGraphBuilderCreate();
    AcGraph *g = NULL;
    AcError err;
    AcStatus st = AC_ERR_NOMEM;
    if (b) {
      acGraphBuilderAddFunc(b, "f");
      AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 8);
      AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 8);
      if (x != AC_NONE && dy != AC_NONE) {
        AcId y = op1(b, "relu", 8, 1, x);
        AcId gg = y == AC_NONE ? AC_NONE : op1(b, "mul", 8, 2, dy, y);
        if (gg != AC_NONE) {
          acGraphBuilderAddRet(b, y, AC_RET_OUTPUT);
          acGraphBuilderAddRet(b, gg, AC_RET_GRAD);
        }
      }
      st = acGraphBuilderFinish(b, &g, &err);
    }
    acAllocFailAfter(0);
    CHECK(st == AC_OK || st == AC_ERR_NOMEM);
    sawOk = st == AC_OK;
    acGraphDestroy(g);
    acGraphBuilderDestroy(b);
  }
  CHECK(sawOk);
}

/* Byte counts that could overflow the simulator's sums are refused, naming
 * the value or the function; the largest counts that fit are accepted. */
static AcStatus bytesGraph(int64_t paramBytes, int numParams, int64_t actBytes,
                           AcError *err) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "big");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 4);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId acc = x, w[8];
  for (int i = 0; i < numParams && i < 8; ++i)   /* arguments before ops */
    w[i] = acGraphBuilderAddArg(b, AC_ROLE_PARAM, paramBytes);
  for (int i = 0; i < numParams && i < 8; ++i)
    acc = op1(b, "mm", actBytes, 2, acc, w[i]);
  AcId loss = op1(b, "sum", 4, 1, acc);
  AcId g = op1(b, "mul", 4, 2, dy, acc);
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  acGraphBuilderAddRet(b, g, AC_RET_GRAD);
  AcGraph *gr = NULL;
  acErrorClear(err);
  AcStatus st = acGraphBuilderFinish(b, &gr, err);
  acGraphDestroy(gr);
  acGraphBuilderDestroy(b);
  return st;
}

AC_TEST(byteCountsThatOverflowAreRefused) {
  AcError err;
  /* One value above the limit (a type of 2^62 bytes), and a negative one. */
  CHECK(bytesGraph(AC_MAX_BYTES + 1, 1, 16, &err) == AC_ERR_INVALID);
  CHECK(strstr(err.message, "argument #2 of '@big' has 4611686018427387904 bytes") != NULL);
  CHECK(bytesGraph(16, 1, -5, &err) == AC_ERR_INVALID);
  CHECK(strstr(err.message, "result #0 of '@big' has -5 bytes") != NULL);
  CHECK(err.op == 0);
  /* Eight parameters of 2^61 bytes: each fits, together they do not (the
   * sum was -16 before). */
  CHECK(bytesGraph(INT64_C(1) << 61, 8, 16, &err) == AC_ERR_INVALID);
  CHECK(strstr(err.message, "the tensors of '@big' over its schedule add up to more "
                            "than 2^62 - 1 bytes") != NULL);
  /* Activations alone: 2^60 per value, 2 ops, fwd + bwd entries: 2^62. */
  CHECK(bytesGraph(4, 2, INT64_C(1) << 60, &err) == AC_ERR_INVALID);
  /* Just within the limit: 2^58 per activation. */
  CHECK(bytesGraph(4, 2, INT64_C(1) << 58, &err) == AC_OK);
}

/* In-place writes pin every op that reads or makes the written storage,
 * through views, and nothing else; reference-semantics values likewise.
 *   x ─ relu ─ r ─ view ─ v ─ gelu ─ g;  relu_(v) writes r's storage;
 *   u = exp(x) is unrelated;  loss = sum(g, u);  dy ─ mul(g) ─ grad. */
AC_TEST(mutationPinsReadersAndMakers) {
  for (int refSemantics = 0; refSemantics < 2; ++refSemantics) {
    AcGraphBuilder *b = acGraphBuilderCreate();
    acGraphBuilderAddFunc(b, "f");
    AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 16);
    AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 16);
    AcId r = op1(b, "relu", 16, 1, x);
    AcId v = op1(b, "view", 16, 1, r);
    acGraphBuilderSetAlias(b, v, r);
    AcId gl = op1(b, "gelu", 16, 1, v);
    AcId m = AC_NONE;
    if (!refSemantics) {
      m = op1(b, "relu_", 16, 1, v);
      acGraphBuilderSetMutates(b, 3, v);   /* ops: relu 0, view 1, gelu 2 */
    } else {
      acGraphBuilderSetMutable(b, v);
    }
    AcId u = op1(b, "exp", 16, 1, x);
    AcId loss = op1(b, "sum", 4, 2, gl, u);
    AcId gr = op1(b, "mul", 16, 2, dy, gl);
    acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
    acGraphBuilderAddRet(b, gr, AC_RET_GRAD);
    for (AcId o = 0; o < (refSemantics ? 6 : 7); ++o)
      acGraphBuilderOp(b, o)->recomputable = 1;   /* as the cost model says */
    AcGraph *g = NULL;
    AcError err;
    CHECK(acGraphBuilderFinish(b, &g, &err) == AC_OK);
    acGraphBuilderDestroy(b);
    if (!g)
      continue;
    /* Pinned: relu (makes r), view (makes v), gelu (reads v), relu_
     * (reads v).  Not: exp, sum, mul. */
    AcId relu = g->values[r].producer, view = g->values[v].producer,
         gelu = g->values[gl].producer, expo = g->values[u].producer,
         sum = g->values[loss].producer, mul = g->values[gr].producer;
    CHECK(g->ops[relu].mutationPinned && g->ops[view].mutationPinned &&
          g->ops[gelu].mutationPinned);
    if (m != AC_NONE) {
      CHECK(g->ops[g->values[m].producer].mutationPinned);
      CHECK(g->ops[g->values[m].producer].mutates == v);
    }
    CHECK(!g->ops[expo].mutationPinned && !g->ops[sum].mutationPinned &&
          !g->ops[mul].mutationPinned);
    CHECK(!g->ops[gelu].recomputable && !g->ops[relu].recomputable);
    CHECK(g->ops[expo].recomputable && g->ops[mul].recomputable);
    acGraphDestroy(g);
  }
}

/* acGraphReorderOps against the straightforward way: the same ops, values
 * and flags added to a builder in the new order.  Random graphs (several
 * functions, ops of 0-3 results, repeated operands, views, in-place
 * writes, inits, mutable values, forced phases) and random valid orders. */
typedef struct RoOp {
  int name, numOperands, numResults, kind, recomputable, alias, forced;
  AcId operands[4];   /* old value ids */
  int64_t bytes[3];
  AcId dpsInit, mutates; /* old value ids or AC_NONE */
  int mutableResult;
} RoOp;

static unsigned roSeed;
static unsigned roRand(unsigned n) {
  roSeed = roSeed * 1103515245u + 12345u;
  return (roSeed >> 16) % n;
}

/* Adds function `f`'s args and then its ops in `order` (op indices into
 * `ops`); valueOf maps the spec's value ids (ids of the build in spec
 * order) to this build's. */
static void roBuild(AcGraphBuilder *b, int numArgs, const int *roles,
                    const RoOp *ops, const int *order, int numOps,
                    const AcId *specFirstResult, AcId firstArgSpec, AcId *valueOf) {
  static const char *const names[] = {"mm", "relu", "view", "add", "t",
                                      "mystery", "copy_", "empty"};
  for (int a = 0; a < numArgs; ++a)
    valueOf[firstArgSpec + a] = acGraphBuilderAddArg(b, (AcRole)roles[a], 8 * (a + 1));
  for (int k = 0; k < numOps; ++k) {
    const RoOp *s = &ops[order[k]];
    AcId operands[4];
    for (int i = 0; i < s->numOperands; ++i)
      operands[i] = valueOf[s->operands[i]];
    AcId o = acGraphBuilderAddOp(b, names[s->name], operands, s->numOperands,
                                 s->numResults, s->bytes);
    AcOp *op = acGraphBuilderOp(b, o);
    op->kind = (uint8_t)s->kind;
    op->recomputable = (uint8_t)s->recomputable;
    op->flops = s->name * 3.0;
    op->seconds = order[k] * 0.5;
    op->mustSave = (uint8_t)(s->name == 1);
    AcId first = op->firstResult;
    for (int r = 0; r < s->numResults; ++r)
      valueOf[specFirstResult[order[k]] + r] = first + r;
    if (s->dpsInit != AC_NONE)
      acGraphBuilderOp(b, o)->dpsInit = valueOf[s->dpsInit];
    if (s->mutates != AC_NONE)
      acGraphBuilderSetMutates(b, o, valueOf[s->mutates]);
    if (s->alias && s->numOperands > 0 && s->numResults > 0)
      acGraphBuilderSetAlias(b, first, operands[0]);
    if (s->mutableResult && s->numResults > 0)
      acGraphBuilderSetMutable(b, first + s->numResults - 1);
    if (s->forced >= 0)
      acGraphBuilderForcePhase(b, o, (AcPhase)s->forced);
  }
}

/* Whether op `x` accesses storage root `r` (roots relative to firstArg). */
static int roAccesses(const RoOp *x, AcId firstRes, AcId r, const AcId *root,
                      AcId firstArg) {
  for (int i = 0; i < x->numOperands; ++i)
    if (root[x->operands[i] - firstArg] == r)
      return 1;
  for (int i = 0; i < x->numResults; ++i)
    if (root[firstRes + i - firstArg] == r)
      return 1;
  return 0;
}

/* Whether ops `a` and `b` must keep their program order: one writes a
 * storage root the other accesses. */
static int roConflict(const RoOp *a, const RoOp *b, const AcId *root,
                      const uint8_t *written, AcId firstArg, AcId firstA,
                      AcId firstB) {
  const RoOp *w[2] = {a, b}, *o[2] = {b, a};
  AcId fo[2] = {firstB, firstA};
  for (int k = 0; k < 2; ++k) {
    if (w[k]->mutates == AC_NONE)
      continue;
    AcId r = root[w[k]->mutates - firstArg];
    if (written[r - firstArg] && roAccesses(o[k], fo[k], r, root, firstArg))
      return 1;
  }
  return 0;
}

AC_TEST(reorderMatchesRebuild) {
  int tried = 0;
  for (unsigned seed = 1; seed <= 300; ++seed) {
    roSeed = seed;
    enum { MAXF = 3, MAXOPS = 40 };
    int numFuncs = 1 + (int)roRand(MAXF), numArgs[MAXF], roles[MAXF][4];
    int numOps[MAXF], order[MAXF][MAXOPS], ident[MAXF][MAXOPS];
    RoOp ops[MAXF][MAXOPS];
    AcId firstResult[MAXF][MAXOPS], firstArg[MAXF];
    int rets[MAXF][4], numRets[MAXF];
    uint8_t retFlags[MAXF][4];
    AcId nv = 0;
    for (int f = 0; f < numFuncs; ++f) {
      numArgs[f] = 1 + (int)roRand(4);
      firstArg[f] = nv;
      for (int a = 0; a < numArgs[f]; ++a)
        roles[f][a] = a == numArgs[f] - 1 ? AC_ROLE_TANGENT : 1 + (int)roRand(2);
      nv += numArgs[f];
      numOps[f] = 1 + (int)roRand(MAXOPS);
      for (int j = 0; j < numOps[f]; ++j) {
        RoOp *s = &ops[f][j];
        memset(s, 0, sizeof *s);
        s->name = (int)roRand(8);
        s->numOperands = (int)roRand(4);
        for (int i = 0; i < s->numOperands; ++i)
          s->operands[i] = firstArg[f] + (AcId)roRand((unsigned)(nv - firstArg[f]));
        s->numResults = (int)roRand(7) / 2;
        for (int r = 0; r < 3; ++r)
          s->bytes[r] = 4 * (int64_t)roRand(100);
        s->kind = 1 + (int)roRand(AC_KIND_COUNT - 1);
        s->recomputable = (int)roRand(4) != 0;
        s->alias = s->name == 2 || s->name == 4;
        s->dpsInit = s->numOperands && roRand(4) == 0 ? s->operands[s->numOperands - 1]
                                                      : AC_NONE;
        s->mutates = s->name == 6 && s->numOperands ? s->operands[0] : AC_NONE;
        s->mutableResult = roRand(20) == 0;
        s->forced = roRand(15) == 0 ? (int)roRand(2) : -1;
        firstResult[f][j] = nv;
        nv += s->numResults;
        ident[f][j] = j;
      }
      numRets[f] = 1 + (int)roRand(4);
      for (int r = 0; r < numRets[f]; ++r) {
        rets[f][r] = firstArg[f] + (AcId)roRand((unsigned)(nv - firstArg[f]));
        retFlags[f][r] = r == 0 ? AC_RET_OUTPUT : AC_RET_GRAD;
      }
      /* A random valid order: any op whose operands are all made and
         that keeps its place relative to the writes of the storage it
         accesses (a write and an access of one storage root stay in
         program order, as a reorder of the import must keep them). */
      AcId root[4 + 3 * MAXOPS];
      uint8_t written[4 + 3 * MAXOPS] = {0};
      for (int a = 0; a < numArgs[f]; ++a)
        root[a] = firstArg[f] + a;
      for (int j = 0; j < numOps[f]; ++j)
        for (int r = 0; r < ops[f][j].numResults; ++r) {
          AcId v = firstResult[f][j] + r - firstArg[f];
          root[v] = r == 0 && ops[f][j].alias && ops[f][j].numOperands
                        ? root[ops[f][j].operands[0] - firstArg[f]]
                        : firstArg[f] + v;
        }
      for (int j = 0; j < numOps[f]; ++j)
        if (ops[f][j].mutates != AC_NONE)
          written[root[ops[f][j].mutates - firstArg[f]] - firstArg[f]] = 1;
      uint8_t placed[MAXOPS] = {0};
      for (int k = 0; k < numOps[f]; ++k) {
        int ready[MAXOPS], n = 0;
        for (int j = 0; j < numOps[f]; ++j) {
          if (placed[j])
            continue;
          int ok = 1;
          for (int i = 0; i < ops[f][j].numOperands && ok; ++i) {
            AcId v = ops[f][j].operands[i];
            for (int p = 0; p < numOps[f] && ok; ++p)
              if (v >= firstResult[f][p] && v < firstResult[f][p] + ops[f][p].numResults)
                ok = placed[p];
          }
          for (int p = 0; p < j && ok; ++p)
            if (!placed[p] && roConflict(&ops[f][p], &ops[f][j], root, written,
                                          firstArg[f], firstResult[f][p],
                                          firstResult[f][j]))
              ok = 0;
          if (ok)
            ready[n++] = j;
        }
        order[f][k] = ready[roRand((unsigned)n)];
        placed[order[f][k]] = 1;
      }
    }
    /* The graph in spec order, then reordered; the graph built in order. */
    AcGraph *g1 = NULL, *g2 = NULL;
    AcId valueOf1[MAXF * (4 + 3 * MAXOPS)], valueOf2[MAXF * (4 + 3 * MAXOPS)];
    AcGraphBuilder *b1 = acGraphBuilderCreate(), *b2 = acGraphBuilderCreate();
    for (int f = 0; f < numFuncs; ++f) {
      acGraphBuilderAddFunc(b1, "f");
      roBuild(b1, numArgs[f], roles[f], ops[f], ident[f], numOps[f], firstResult[f],
              firstArg[f], valueOf1);
      for (int r = 0; r < numRets[f]; ++r)
        acGraphBuilderAddRet(b1, valueOf1[rets[f][r]], retFlags[f][r]);
      acGraphBuilderAddFunc(b2, "f");
      roBuild(b2, numArgs[f], roles[f], ops[f], order[f], numOps[f], firstResult[f],
              firstArg[f], valueOf2);
      for (int r = 0; r < numRets[f]; ++r)
        acGraphBuilderAddRet(b2, valueOf2[rets[f][r]], retFlags[f][r]);
    }
    AcError err;
    AcStatus st1 = acGraphBuilderFinish(b1, &g1, &err);
    AcStatus st2 = acGraphBuilderFinish(b2, &g2, &err);
    CHECK(st1 == st2);
    if (st1 == AC_OK && st2 == AC_OK) {
      ++tried;
      AcId gOrder[MAXF * MAXOPS], valueOrder[MAXF * (4 + 3 * MAXOPS)];
      for (int f = 0, at = 0; f < numFuncs; ++f)
        for (int k = 0; k < numOps[f]; ++k)
          gOrder[at++] = g1->funcs[f].firstOp + order[f][k];
      CHECK(acGraphReorderOps(g1, gOrder, valueOrder) == AC_OK);
      char msg[512];
      int differs = acGraphDiff(g1, g2, msg, sizeof msg);
      if (differs)
        fprintf(stderr, "reorderMatchesRebuild: %s\n", msg);
      CHECK(!differs);
      for (AcId v = 0; v < nv; ++v)
        CHECK(valueOrder[valueOf2[v]] == valueOf1[v]);
    }
    acGraphDestroy(g1);
    acGraphDestroy(g2);
    acGraphBuilderDestroy(b1);
    acGraphBuilderDestroy(b2);
  }
  CHECK(tried > 100);
}

/* acPermuteInPlace: element k ends up holding the one from from[k]. */
AC_TEST(permuteInPlace) {
  roSeed = 7;
  for (int n = 0; n < 50; ++n) {
    AcId from[50];
    int64_t a[50];
    uint8_t done[50] = {0};
    for (int i = 0; i < n; ++i)
      from[i] = i;
    for (int i = n - 1; i > 0; --i) {
      int j = (int)roRand((unsigned)i + 1);
      AcId t = from[i];
      from[i] = from[j];
      from[j] = t;
    }
    for (int i = 0; i < n; ++i)
      a[i] = 1000 + i;
    acPermuteInPlace(a, sizeof *a, from, n, done);
    for (int i = 0; i < n; ++i) {
      CHECK(a[i] == 1000 + from[i]);
      CHECK(done[i] == 0);
    }
  }
}

int main(void) {
  RUN(phasesAndCandidates);
  RUN(mutationPinsReadersAndMakers);
  RUN(byteCountsThatOverflowAreRefused);
  RUN(forcedPhases);
  RUN(schedules);
  RUN(stepSeconds);
  RUN(randomPhasesMatchDefinition);
  RUN(writesOrderedWithAccesses);
  RUN(randomWritePhasesMatchDefinition);
  RUN(allocationFailuresAreClean);
  RUN(reorderMatchesRebuild);
  RUN(permuteInPlace);
  return acTestSummary("graph");
}
