/* test_offload.c - offload (docs/cost-model.md "Host link", docs/planner.md
 * "Offload"): the simulator's copy windows on a hand-computed graph for a
 * fast, a slow, a hopeless and a latency-bound link; properties on random
 * graphs and plans (the device peak of an infinitely fast link <= a slow
 * link's <= saving's, and a slow link stalls); the planner's offload move
 * (reaches budgets recomputing cannot, monotone in the budget, never worse
 * than save-all or than recomputing alone, within the host budget); and a
 * brute force over {save, recompute, offload} on tiny graphs. */
#include "plan_testkit.h"
#include "plan/plan_internal.h"

#include <inttypes.h>
#include <math.h>

/* The graph (bytes, seconds), static part w 100 + gw 100 = 200:
 *   args: x primal 100, w param 100, dy tangent 4
 *   op0 a = f(x, w)     fwd 1000  1 s  (not recomputable unless asked)
 *   op1 b = g(a)        fwd 10    1 s  (a's last forward use)
 *   op2 c = h(b)        fwd 2000  1 s
 *   op3 d = k(c)        fwd 10    1 s
 *   op4 loss = sum(d)   fwd 4     1 s  output
 *   op5 gc = bc(dy)     bwd 500   1 s
 *   op6 ga = gb(gc, a)  bwd 1000  1 s  (a's only backward use)
 *   op7 gw = mm(ga, x)  bwd 100   1 s  grad
 * Steps 0..7 start at 0..7 s.  Saving a: the peak is at step 2 (x 100 + a
 * 1000 + b 10 + c 2000 = 3110, + 200 static = 3310). */
static AcGraph *offGraph(int recomputeA) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "f");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 100);
  AcId w = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 100);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId a = tkRes(b, tkAdd(b, "f", (AcId[]){x, w}, 2, 1000,
                          recomputeA ? AC_KIND_ELEMENTWISE : AC_KIND_UNKNOWN,
                          recomputeA, 1.0));
  AcId bv = tkRes(b, tkAdd(b, "g", &a, 1, 10, AC_KIND_ELEMENTWISE, 1, 1.0));
  AcId c = tkRes(b, tkAdd(b, "h", &bv, 1, 2000, AC_KIND_ELEMENTWISE, 1, 1.0));
  AcId d = tkRes(b, tkAdd(b, "k", &c, 1, 10, AC_KIND_ELEMENTWISE, 1, 1.0));
  acGraphBuilderAddRet(
      b, tkRes(b, tkAdd(b, "sum", &d, 1, 4, AC_KIND_REDUCTION, 1, 1.0)),
      AC_RET_OUTPUT);
  AcId gc = tkRes(b, tkAdd(b, "bc", &dy, 1, 500, AC_KIND_ELEMENTWISE, 1, 1.0));
  AcId ga = tkRes(b, tkAdd(b, "gb", (AcId[]){gc, a}, 2, 1000,
                           AC_KIND_ELEMENTWISE, 1, 1.0));
  acGraphBuilderAddRet(
      b, tkRes(b, tkAdd(b, "mm", (AcId[]){ga, x}, 2, 100, AC_KIND_MATMUL, 1, 1.0)),
      AC_RET_GRAD);
  AcGraph *g = NULL;
  AcError err;
  if (acGraphBuilderFinish(b, &g, &err) != AC_OK)
    printf("  finish: %s\n", err.message);
  acGraphBuilderDestroy(b);
  return g;
}

enum { A = 3 }; /* value id of a: three arguments, then op0's result */

/* Simulates `g` saving only a, offloaded when `off`. */
static int simA(const AcGraph *g, int off, AcSimResult *r) {
  AcPlan *p = acPlanCreate(g);
  AcError err;
  int ok = p != NULL;
  if (ok) {
    p->saved[A] = 1;
    p->offload[A] = (uint8_t)off;
    ok = acPlanDerive(g, p, &err) == AC_OK &&
         acSimulate(g, p, acSimStaticBytes(g, 0, 0), 1, r, &err) == AC_OK;
    if (!ok)
      printf("  %s\n", err.message);
  }
  acPlanDestroy(p);
  return ok;
}

AC_TEST(handComputedWindows) {
  AcGraph *g = offGraph(0);
  CHECK(g != NULL);
  if (!g)
    return;
  AcSimResult r;
  CHECK(g->values[A].bytes == 1000 && g->ops[g->values[A].producer].phase ==
                                          AC_PHASE_FWD);
  g->hostBandwidth = 1e6; /* 1000 B: 1 ms a copy */
  g->hostLatency = 0;
  CHECK(simA(g, 0, &r));
  CHECK_EQ_I64(r.peakBytes, 3310);
  CHECK_EQ_I64(r.peakStep, 2);
  CHECK(r.copySeconds == 0 && r.hostPeakBytes == 0);
  acSimResultClear(&r);
  /* Fast: out during step 1 (1 .. 1.001 s), back during step 5 (ready at
     6 s): a is on the device at steps 0-1 and 5-7.  Step 2: 2110; step 6:
     x 100 + a 1000 + loss 4 + dy 4 + gc 500 + ga 1000 = 2608 + 200. */
  CHECK(simA(g, 1, &r));
  CHECK_EQ_I64(r.peakBytes, 2808);
  CHECK_EQ_I64(r.peakStep, 6);
  CHECK_EQ_I64(r.live[2], 2110);
  CHECK_EQ_I64(r.live[3], 2110);
  CHECK_EQ_I64(r.live[4], 114);          /* x, d, loss */
  CHECK_EQ_I64(r.live[5], 1608);         /* a prefetched */
  CHECK_EQ_I64(r.hostPeakBytes, 1000);
  CHECK_EQ_I64(r.offloadedBytes, 1000);
  CHECK_NEAR(r.copySeconds, 0.002, 1e-12);
  CHECK(r.stallSeconds == 0);
  acSimResultClear(&r);
  /* Latency 0.5 s: 0.501 s a copy, still hidden. */
  g->hostLatency = 0.5;
  CHECK(simA(g, 1, &r));
  CHECK_EQ_I64(r.peakBytes, 2808);
  CHECK_NEAR(r.copySeconds, 1.002, 1e-12);
  CHECK(r.stallSeconds == 0);
  acSimResultClear(&r);
  /* Slow, 500 B/s (2 s a copy): out 1 .. 3 s, so a stays through step 2
     (the peak, 3310); back: needed at 6 s, may start at 5 s (the backward's
     start), ends at 7 s: a 1 s stall. */
  g->hostLatency = 0;
  g->hostBandwidth = 500;
  CHECK(simA(g, 1, &r));
  CHECK_EQ_I64(r.peakBytes, 3310);
  CHECK_EQ_I64(r.live[3], 2110);
  CHECK_EQ_I64(r.live[4], 114);
  CHECK_NEAR(r.copySeconds, 4.0, 1e-12);
  CHECK_NEAR(r.stallSeconds, 1.0, 1e-12);
  acSimResultClear(&r);
  /* Hopeless, 100 B/s (10 s): out ends at 11 s, after everything: a stays
     on the device all along, back at 11 s, 15 s after it was needed. */
  g->hostBandwidth = 100;
  CHECK(simA(g, 1, &r));
  CHECK_EQ_I64(r.peakBytes, 3310);
  CHECK_EQ_I64(r.live[4], 1114);
  CHECK_NEAR(r.stallSeconds, 15.0, 1e-12);
  acSimResultClear(&r);
  /* No host link: an offloaded plan is refused. */
  g->hostBandwidth = 0;
  AcPlan *p = acPlanCreate(g);
  AcError err;
  p->saved[A] = p->offload[A] = 1;
  CHECK(acPlanDerive(g, p, &err) == AC_OK);
  CHECK(acSimulate(g, p, 0, 0, &r, &err) == AC_ERR_INVALID);
  /* Offloading an argument or an unsaved value is refused too. */
  g->hostBandwidth = 1e6;
  memset(p->offload, 0, (size_t)g->numValues);
  p->offload[0] = 1;
  CHECK(acSimulate(g, p, 0, 0, &r, &err) == AC_ERR_INVALID);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* The planner on the hand graph: a cannot be recomputed, so recomputing
 * alone stops at 3310; offloading a over a fast link meets 2900; over a
 * slow link it frees nothing and the budget stays unreachable; with a
 * host budget below a's bytes nothing is offloaded. */
AC_TEST(plannerReachesWithOffload) {
  AcGraph *g = offGraph(0);
  if (!g)
    return;
  int64_t sb = acSimStaticBytes(g, 0, 0);
  AcPlan *p = acPlanCreate(g);
  AcError err;
  AcSimResult r;
  AcPlanOptions o = {AC_STRATEGY_GREEDY, 2900, sb, 1, 0};
  struct { double bw; int64_t hostBudget, peak; int offloaded; } cases[] = {
      {0, 0, 3310, 0}, {1e6, 0, 2808, 1}, {500, 0, 3310, 0},
      {1e6, 999, 3310, 0}, {1e6, 1000, 2808, 1}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    g->hostBandwidth = cases[k].bw;
    g->hostBudget = cases[k].hostBudget;
    CHECK(acPlanRun(g, &o, p, &err) == AC_OK);
    CHECK(acSimulate(g, p, sb, 0, &r, &err) == AC_OK);
    CHECK_EQ_I64(r.peakBytes, cases[k].peak);
    CHECK_EQ_I64(p->offload[A], cases[k].offloaded);
    acSimResultClear(&r);
  }
  /* A budget recomputing meets is met without offload. */
  acGraphDestroy(g);
  g = offGraph(1);
  g->hostBandwidth = 1e6;
  acPlanDestroy(p);
  p = acPlanCreate(g);
  CHECK(acPlanRun(g, &o, p, &err) == AC_OK);
  CHECK(acSimulate(g, p, sb, 0, &r, &err) == AC_OK);
  CHECK(r.peakBytes <= 2900);
  CHECK(!p->offload[A] && !p->saved[A]);
  acSimResultClear(&r);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* Random seconds for every op, so that copies overlap something. */
static void randomSeconds(AcGraph *g, uint64_t *rs) {
  for (intptr_t o = 0; o < g->numOps; ++o)
    g->ops[o].seconds = 1e-3 * (1 + tkRand(rs, 100));
}

/* Offloads a random subset of the plan's offloadable saves; count. */
static int randomOffload(const AcGraph *g, uint64_t *rs, AcPlan *p,
                         const uint8_t *cand) {
  int n = 0;
  memset(p->offload, 0, (size_t)g->numValues);
  for (AcId v = 0; v < (AcId)g->numValues; ++v)
    if (p->saved[v] && cand[v] && tkRand(rs, 2)) {
      p->offload[v] = 1;
      n++;
    }
  return n;
}

/* Is every offloaded value of `p` read by the backward (a prefetch)? */
static int allReadBack(const AcGraph *g, const AcPlan *p) {
  for (AcId v = 0; v < (AcId)g->numValues; ++v) {
    if (!p->offload[v])
      continue;
    int read = 0;
    for (AcId o = 0; o < (AcId)g->numOps && !read; ++o) {
      if (g->ops[o].phase != AC_PHASE_BWD && !p->recompute[o])
        continue;
      for (int32_t i = 0; i < g->ops[o].numOperands; ++i)
        read |= g->values[acOpOperand(g, o, i)].aliasRoot == v;
    }
    if (!read)
      return 0;
  }
  return 1;
}

AC_TEST(linkExtremesOnRandomPlans) {
  uint64_t rs = 77;
  int tried = 0, lowered = 0;
  for (int seed = 0; seed < 300; ++seed) {
    /* A third of the graphs with destination-style ops (the in-place rule)
       and workspaces. */
    tkDpsPercent = seed % 3 == 2 ? 40 : 0;
    tkWsPercent = seed % 3 == 2 ? 30 : 0;
    AcGraph *g = tkGenGraph(5000 + seed, 1 + seed % 2, 1 + seed % 3, 10, 8);
    if (!g)
      continue;
    randomSeconds(g, &rs);
    AcPlan *p = acPlanCreate(g);
    uint8_t *cand = acMalloc((size_t)g->numValues + 1);
    AcError err;
    int64_t sb = acSimStaticBytes(g, 0, 0);
    CHECK(acPlanOffloadCandidates(g, cand, &err) == AC_OK);
    if (tkRandomPlan(g, &rs, 60, p) && randomOffload(g, &rs, p, cand) > 0) {
      AcSimResult saved, fast, slow;
      tried++;
      g->hostBandwidth = 0;
      AcPlan *q = acPlanCreate(g);
      acPlanCopy(q, p);
      memset(q->offload, 0, (size_t)g->numValues);
      CHECK(acSimulate(g, q, sb, 0, &saved, &err) == AC_OK);
      g->hostBandwidth = INFINITY;
      g->hostLatency = 0;
      CHECK(acSimulate(g, p, sb, 0, &fast, &err) == AC_OK);
      CHECK(fast.peakBytes <= saved.peakBytes);
      CHECK(fast.stallSeconds == 0);
      CHECK(fast.hostPeakBytes <= fast.offloadedBytes * 3);
      CHECK(fast.recomputeSeconds == saved.recomputeSeconds);
      lowered += fast.peakBytes < saved.peakBytes;
      g->hostBandwidth = 1e-3;
      CHECK(acSimulate(g, p, sb, 0, &slow, &err) == AC_OK);
      /* A slow link keeps the device buffers longer (to the forward's
         end, where the forward waits, and from the backward's start): the
         fast intervals lie inside the slow ones, and those inside the
         saved value's. */
      CHECK(slow.peakBytes <= saved.peakBytes);
      CHECK(slow.peakBytes >= fast.peakBytes);
      if (allReadBack(g, p))
        CHECK(slow.stallSeconds > 0);
      acSimResultClear(&saved);
      acSimResultClear(&fast);
      acSimResultClear(&slow);
      acPlanDestroy(q);
    }
    acFree(cand);
    acPlanDestroy(p);
    acGraphDestroy(g);
  }
  tkDpsPercent = tkWsPercent = 0;
  printf("  %d plans, %d lowered by offloading\n", tried, lowered);
  CHECK(tried > 100 && lowered > 10);
}

/* Greedy with offload, over a falling budget: the peak never rises, is the
 * plan's simulated one, never above save-all's or recomputing alone's,
 * the host peak within the host budget. */
AC_TEST(plannerMonotoneNeverWorse) {
  uint64_t rs = 99;
  int helped = 0, competed = 0;
  for (int seed = 0; seed < 120; ++seed) {
    tkDpsPercent = seed % 4 == 3 ? 40 : 0;
    AcGraph *g = tkGenGraph(7000 + seed, 1 + seed % 2, 1 + seed % 2, 8, 6);
    if (!g)
      continue;
    randomSeconds(g, &rs);
    int64_t sb = acSimStaticBytes(g, 0, 0);
    AcPlan *p = acPlanCreate(g);
    AcError err;
    AcSimResult r;
    AcPlanOptions sa = {AC_STRATEGY_SAVE_ALL, -1, sb, 0, 0};
    CHECK(acPlanRun(g, &sa, p, &err) == AC_OK);
    CHECK(acSimulate(g, p, sb, 0, &r, &err) == AC_OK);
    int64_t saveAll = r.peakBytes;
    acSimResultClear(&r);
    double links[] = {INFINITY, 1e5, 1e4};
    g->hostBudget = seed % 3 == 0 ? 64 : 0;
    int64_t prev = INT64_MAX;
    for (int k = 0; k <= 16; ++k) {
      int64_t budget = saveAll - (saveAll - sb) * k / 16;
      AcPlanOptions o = {AC_STRATEGY_GREEDY, budget, sb, 1, 0};
      g->hostBandwidth = 0;
      CHECK(acPlanRun(g, &o, p, &err) == AC_OK);
      CHECK(acSimulate(g, p, sb, 0, &r, &err) == AC_OK);
      int64_t alone = r.peakBytes;
      double aloneSecs = r.recomputeSeconds + r.stallSeconds;
      acSimResultClear(&r);
      g->hostBandwidth = links[seed % 3];
      g->hostLatency = 1e-4;
      CHECK(acPlanRun(g, &o, p, &err) == AC_OK);
      CHECK(acSimulate(g, p, sb, 0, &r, &err) == AC_OK);
      CHECK(r.peakBytes <= prev);
      CHECK(r.peakBytes <= saveAll);
      CHECK(r.peakBytes <= alone);
      /* Where recomputing alone meets the budget, offload only where it
         costs fewer seconds (acOffloadCompete), at a peak no higher. */
      if (alone <= budget && r.offloadedBytes > 0) {
        CHECK(r.recomputeSeconds + r.stallSeconds < aloneSecs);
        competed++;
      } else if (alone <= budget) {
        CHECK(r.peakBytes == alone);
      }
      if (g->hostBudget > 0)
        CHECK(r.hostPeakBytes <= g->hostBudget);
      helped += r.peakBytes < alone;
      prev = r.peakBytes;
      acSimResultClear(&r);
    }
    acPlanDestroy(p);
    acGraphDestroy(g);
  }
  tkDpsPercent = 0;
  printf("  offload met or lowered %d budgets recomputing alone missed, "
         "and took %d budgets recomputing met for fewer seconds\n", helped, competed);
  CHECK(helped > 20 && competed > 5);
}

/* Brute force over {save, recompute, offload} for every savable value of
 * tiny graphs (views of ops that cannot be rerun: saved or not): with an infinitely fast link, offloading any save
 * never raises the device peak; no planner peak is below the brute force's
 * lowest; the brute force's lowest with offload is at most without. */
static int64_t bruteLowest(const AcGraph *g, const AcId *roots, int n,
                           const uint8_t *cand, int withOffload, int64_t sb,
                           int *violations) {
  int64_t best = INT64_MAX;
  int states = withOffload ? 3 : 2;
  long total = 1;
  for (int i = 0; i < n; ++i)
    total *= states;
  AcPlan *p = acPlanCreate(g), *q = acPlanCreate(g);
  AcError err;
  for (long code = 0; code < total; ++code) {
    long c = code;
    memset(p->saved, 0, (size_t)g->numValues);
    memset(p->offload, 0, (size_t)g->numValues);
    int ok = 1;
    for (int i = 0; i < n; ++i, c /= states) {
      int s = (int)(c % states);
      p->saved[roots[i]] = s != 1;
      p->offload[roots[i]] = s == 2;
      ok &= s != 2 || cand[roots[i]];
    }
    if (!ok || acPlanDerive(g, p, &err) != AC_OK)
      continue;
    AcSimResult r, rs;
    if (acSimulate(g, p, sb, 0, &r, &err) != AC_OK)
      continue;
    if (r.peakBytes < best)
      best = r.peakBytes;
    acPlanCopy(q, p);
    memset(q->offload, 0, (size_t)g->numValues);
    if (acSimulate(g, q, sb, 0, &rs, &err) == AC_OK &&
        isinf(g->hostBandwidth) && r.peakBytes > rs.peakBytes)
      (*violations)++;
    acSimResultClear(&r);
    acSimResultClear(&rs);
  }
  acPlanDestroy(p);
  acPlanDestroy(q);
  return best;
}

AC_TEST(bruteForceTiny) {
  uint64_t rs = 5;
  int graphs = 0, violations = 0, offloadLower = 0;
  for (int seed = 0; seed < 400 && graphs < 60; ++seed) {
    AcGraph *g = tkGenGraph(9000 + seed, 1, 1 + seed % 2, 5, 4);
    if (!g)
      continue;
    randomSeconds(g, &rs);
    AcId roots[16];
    int n = 0;
    for (AcId v = 0; v < (AcId)g->numValues && n < 16; ++v)
      if (tkSavable(g, v) && g->values[v].saveCandidate)
        roots[n++] = v;
    if (n == 0 || n > 7) {
      acGraphDestroy(g);
      continue;
    }
    graphs++;
    uint8_t *cand = acMalloc((size_t)g->numValues + 1);
    AcError err;
    acPlanOffloadCandidates(g, cand, &err);
    int64_t sb = acSimStaticBytes(g, 0, 0);
    g->hostBandwidth = seed % 2 ? INFINITY : 2e5;
    g->hostLatency = 0;
    int64_t lowRec = bruteLowest(g, roots, n, cand, 0, sb, &violations);
    int64_t lowOff = bruteLowest(g, roots, n, cand, 1, sb, &violations);
    CHECK(lowOff <= lowRec);
    offloadLower += lowOff < lowRec;
    /* The planner at budget 0 (its lowest): never below the brute force. */
    AcPlanOptions o = {AC_STRATEGY_GREEDY, 0, sb, 1, 0};
    AcPlan *p = acPlanCreate(g);
    AcSimResult r;
    CHECK(acPlanRun(g, &o, p, &err) == AC_OK);
    CHECK(acSimulate(g, p, sb, 0, &r, &err) == AC_OK);
    CHECK(r.peakBytes >= lowOff);
    acSimResultClear(&r);
    acPlanDestroy(p);
    acFree(cand);
    acGraphDestroy(g);
  }
  printf("  %d graphs, offload lowered the exact floor on %d\n", graphs,
         offloadLower);
  CHECK(graphs >= 40);
  CHECK(violations == 0);
}

/* The offload trajectory's scan stops at the first move whose bound cannot
 * beat the best one found (lib/plan/offload.c, acMoveBound): on random
 * graphs, links and budgets, every plan is the one the scan of every move
 * gives, and the offload moves happen. */
AC_TEST(prunedScanSamePlans) {
  uint64_t rs = 7;
  int offloaded = 0;
  for (int seed = 0; seed < 80; ++seed) {
    tkDpsPercent = seed % 4 == 3 ? 40 : 0;
    AcGraph *g = tkGenGraph(9100 + seed, 1 + seed % 2, 1 + seed % 3, 8, 6);
    if (!g)
      continue;
    randomSeconds(g, &rs);
    int64_t sb = acSimStaticBytes(g, 0, 0);
    AcPlan *a = acPlanCreate(g), *b = acPlanCreate(g);
    AcError err;
    double links[] = {INFINITY, 1e6, 1e5, 1e4};
    g->hostBandwidth = links[seed % 4];
    g->hostLatency = 1e-4;
    g->hostBudget = seed % 5 == 0 ? 64 : 0;
    for (int k = 0; k <= 8; ++k) {
      int64_t budget = k == 8 ? 1 : sb + (int64_t)(rs = rs * 6364136223846793005ULL + 1) % 4096;
      AcPlanOptions o = {AC_STRATEGY_GREEDY, budget, sb, 1, 0};
      acOffloadNoPrune = 1;
      CHECK(acPlanRun(g, &o, a, &err) == AC_OK);
      acOffloadNoPrune = 0;
      CHECK(acPlanRun(g, &o, b, &err) == AC_OK);
      CHECK(memcmp(a->saved, b->saved, (size_t)g->numValues) == 0);
      CHECK(memcmp(a->offload, b->offload, (size_t)g->numValues) == 0);
      for (AcId v = 0; v < (AcId)g->numValues; ++v)
        offloaded += b->offload[v];
    }
    acPlanDestroy(a);
    acPlanDestroy(b);
    acGraphDestroy(g);
  }
  tkDpsPercent = 0;
  printf("  %d offloaded saves in the compared plans\n", offloaded);
  CHECK(offloaded > 50);
}

int main(void) {
  RUN(handComputedWindows);
  RUN(plannerReachesWithOffload);
  RUN(linkExtremesOnRandomPlans);
  RUN(plannerMonotoneNeverWorse);
  RUN(bruteForceTiny);
  RUN(prunedScanSamePlans);
  return acTestSummary("test_offload");
}
