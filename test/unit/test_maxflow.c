/* test_maxflow.c - Dinic's max flow: known networks, brute-force min cuts on
 * random small graphs, infinite edges, allocation failures and scale. */
#include "partition/partition.h"

#include "actest.h"

#include <stdlib.h>
#include <time.h>

/* Wall-clock limits for the scale tests (debug build); sanitizers slow
   things down about threefold. */
#if defined(__SANITIZE_ADDRESS__)
#define AC_SLOWDOWN 3.0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AC_SLOWDOWN 3.0
#endif
#endif
#ifndef AC_SLOWDOWN
#define AC_SLOWDOWN 1.0
#endif
/* Seconds a scale test may take: a guard against superlinear blow-ups
   (minutes), not a speed target (bench/ measures speed); loose enough for
   a loaded two-core machine (1 s failed with six builds running). */
#define AC_SCALE_LIMIT 10.0

#define INF AC_CAP_INF

typedef struct TEdge {
  int32_t from, to;
  int64_t cap;
} TEdge;

static AcMaxflow *build(intptr_t n, const TEdge *e, int m) {
  AcMaxflow *net = acMaxflowCreate(n, m);
  if (!net)
    return NULL;
  for (int i = 0; i < m; ++i)
    if (acMaxflowAddEdge(net, e[i].from, e[i].to, e[i].cap) != AC_OK) {
      acMaxflowDestroy(net);
      return NULL;
    }
  return net;
}

static int64_t satAdd(int64_t a, int64_t b) {
  return a >= INF - b ? INF : a + b;
}

/* Capacity of the cut given by side[] (1 = source side), saturating. */
static int64_t cutCap(const TEdge *e, int m, const uint8_t *side) {
  int64_t sum = 0;
  for (int i = 0; i < m; ++i)
    if (side[e[i].from] && !side[e[i].to])
      sum = satAdd(sum, e[i].cap < INF ? e[i].cap : INF);
  return sum;
}

/* Checks the solve of (e, m) from s to t against `expect`; also that the
   reported source side is a cut of capacity equal to the flow. */
static void checkNet(intptr_t n, const TEdge *e, int m, int32_t s, int32_t t,
                     int64_t expect) {
  AcMaxflow *net = build(n, e, m);
  CHECK(net != NULL);
  if (!net)
    return;
  int64_t flow = -1;
  CHECK(acMaxflowSolve(net, s, t, &flow) == AC_OK);
  if (expect >= INF) {
    CHECK(flow >= INF);
  } else {
    CHECK_EQ_I64(flow, expect);
    uint8_t side[64];
    for (intptr_t i = 0; i < n; ++i)
      side[i] = (uint8_t)acMaxflowSourceSide(net, (int32_t)i);
    CHECK(side[s] == 1 && side[t] == 0);
    CHECK_EQ_I64(cutCap(e, m, side), flow);
  }
  CHECK_EQ_I64(acMaxflowNumNodes(net), n);
  acMaxflowDestroy(net);
}

AC_TEST(clrsExample) {
  /* CLRS figure 26.1: max flow 23. */
  TEdge e[] = {{0, 1, 16}, {0, 2, 13}, {1, 3, 12}, {2, 1, 4}, {2, 4, 14},
               {3, 2, 9},  {3, 5, 20}, {4, 3, 7},  {4, 5, 4}};
  checkNet(6, e, 9, 0, 5, 23);
}

AC_TEST(smallShapes) {
  TEdge single[] = {{0, 1, 5}};
  checkNet(2, single, 1, 0, 1, 5);
  TEdge diamond[] = {{0, 1, 3}, {0, 2, 2}, {1, 3, 2}, {2, 3, 3}, {1, 2, 5}};
  checkNet(4, diamond, 5, 0, 3, 5);
  TEdge parallel[] = {{0, 1, 3}, {0, 1, 4}, {1, 2, 10}};
  checkNet(3, parallel, 3, 0, 2, 7);
  TEdge disconnected[] = {{0, 1, 3}, {2, 3, 4}};
  checkNet(4, disconnected, 2, 0, 3, 0);
  TEdge none[] = {{0, 0, 1}};
  checkNet(2, none, 0, 0, 1, 0);
  TEdge selfLoop[] = {{0, 0, 9}, {0, 1, 2}, {1, 1, 9}};
  checkNet(2, selfLoop, 3, 0, 1, 2);
  TEdge backward[] = {{1, 0, 9}, {0, 1, 2}};
  checkNet(2, backward, 2, 0, 1, 2);
  TEdge zero[] = {{0, 1, 0}, {1, 2, 5}};
  checkNet(3, zero, 2, 0, 2, 0);
  TEdge cycle[] = {{0, 1, 4}, {1, 2, 3}, {2, 1, 3}, {2, 3, 4}, {1, 3, 1}};
  checkNet(4, cycle, 5, 0, 3, 4);
  /* Reverse direction: sink and source swapped. */
  checkNet(4, cycle, 5, 3, 0, 0);
  /* Needs flow to be cancelled along a reverse arc. */
  TEdge cancel[] = {{0, 1, 1}, {0, 2, 1}, {1, 2, 1}, {1, 3, 1}, {2, 3, 1}};
  checkNet(4, cancel, 5, 0, 3, 2);
}

AC_TEST(infiniteEdges) {
  TEdge finite[] = {{0, 1, INF}, {1, 2, 7}, {2, 3, INF}};
  checkNet(4, finite, 3, 0, 3, 7);
  TEdge allInf[] = {{0, 1, INF}, {1, 2, INF}};
  checkNet(3, allInf, 2, 0, 2, INF);
  /* Several infinite paths: no overflow, still reported as >= INF. */
  TEdge many[] = {{0, 1, INF}, {0, 2, INF}, {0, 3, INF}, {1, 4, INF},
                  {2, 4, INF}, {3, 4, INF}, {0, 4, INF}};
  checkNet(5, many, 7, 0, 4, INF);
  /* Capacities above INF are clamped. */
  TEdge huge[] = {{0, 1, INT64_MAX}, {0, 1, INT64_MAX}, {1, 2, 3}};
  checkNet(3, huge, 3, 0, 2, 3);
  /* An infinite edge bypassing a finite one. */
  TEdge bypass[] = {{0, 1, 5}, {1, 2, INF}, {0, 2, 2}, {2, 3, 6}};
  checkNet(4, bypass, 4, 0, 3, 6);
  /* The PyTorch pattern: source -> in INF, in -> out bytes, out -> sink. */
  TEdge split[] = {{0, 2, INF}, {2, 3, 100}, {3, 4, INF}, {4, 5, 40},
                   {5, 1, INF}, {3, 1, INF}};
  checkNet(6, split, 6, 0, 1, 100);
  TEdge split2[] = {{0, 2, INF}, {2, 3, 100}, {3, 4, INF}, {4, 5, 40},
                    {5, 1, INF}};
  checkNet(6, split2, 5, 0, 1, 40);
}

AC_TEST(badArguments) {
  AcMaxflow *net = acMaxflowCreate(3, 0);
  CHECK(net != NULL);
  if (!net)
    return;
  CHECK(acMaxflowAddEdge(net, -1, 1, 1) == AC_ERR_INVALID);
  CHECK(acMaxflowAddEdge(net, 0, 3, 1) == AC_ERR_INVALID);
  CHECK(acMaxflowAddEdge(net, 0, 1, -5) == AC_ERR_INVALID);
  CHECK(acMaxflowAddEdge(net, 0, 1, 5) == AC_OK);
  CHECK(acMaxflowAddEdge(net, 1, 2, 4) == AC_OK);
  int64_t flow = 123;
  CHECK(acMaxflowSolve(net, 0, 0, &flow) == AC_ERR_INVALID);
  CHECK(acMaxflowSolve(net, 0, 3, &flow) == AC_ERR_INVALID);
  CHECK(acMaxflowSolve(net, 0, 2, &flow) == AC_OK);
  CHECK_EQ_I64(flow, 4);
  /* Solving again gives the same answer; so does adding an edge and
     re-solving from scratch. */
  CHECK(acMaxflowSolve(net, 0, 2, &flow) == AC_OK);
  CHECK_EQ_I64(flow, 4);
  CHECK(acMaxflowAddEdge(net, 0, 2, 3) == AC_OK);
  CHECK(acMaxflowSolve(net, 0, 2, &flow) == AC_OK);
  CHECK_EQ_I64(flow, 7);
  CHECK(acMaxflowSourceSide(net, 0) == 1);
  CHECK(acMaxflowSourceSide(net, 2) == 0);
  acMaxflowDestroy(net);
  acMaxflowDestroy(NULL);
  CHECK(acMaxflowCreate(-1, 0) == NULL);
  /* Zero nodes: nothing to solve. */
  net = acMaxflowCreate(0, 0);
  CHECK(net != NULL);
  CHECK(acMaxflowSolve(net, 0, 1, &flow) == AC_ERR_INVALID);
  acMaxflowDestroy(net);
}

/* Brute-force min cut: every source side containing s and not t. */
static int64_t bruteMinCut(int n, const TEdge *e, int m, int32_t s, int32_t t) {
  int64_t best = INF;
  int mid[16], nm = 0;
  for (int i = 0; i < n; ++i)
    if (i != s && i != t)
      mid[nm++] = i;
  uint8_t side[16];
  for (uint32_t mask = 0; mask < (1u << nm); ++mask) {
    for (int i = 0; i < n; ++i)
      side[i] = 0;
    side[s] = 1;
    for (int j = 0; j < nm; ++j)
      if (mask & (1u << j))
        side[mid[j]] = 1;
    int64_t c = cutCap(e, m, side);
    if (c < best)
      best = c;
  }
  return best;
}

AC_TEST(randomVsBruteForce) {
  uint64_t rng = 0x9e3779b97f4a7c15ULL;
  int infCases = 0, zeroCases = 0, reported = 0;
  for (int iter = 0; iter < 600; ++iter) {
    int n = 2 + (int)(acTestRand(&rng) % 9); /* 2..10 nodes */
    int m = (int)(acTestRand(&rng) % (uint64_t)(3 * n + 1));
    TEdge e[64];
    int infPct = (int)(acTestRand(&rng) % 4) * 10; /* 0, 10, 20, 30 % */
    for (int i = 0; i < m; ++i) {
      e[i].from = (int32_t)(acTestRand(&rng) % (uint64_t)n);
      e[i].to = (int32_t)(acTestRand(&rng) % (uint64_t)n);
      if ((int)(acTestRand(&rng) % 100) < infPct)
        e[i].cap = INF;
      else
        e[i].cap = (int64_t)(acTestRand(&rng) % 20);
    }
    int32_t s = (int32_t)(acTestRand(&rng) % (uint64_t)n);
    int32_t t = (int32_t)(acTestRand(&rng) % (uint64_t)(n - 1));
    if (t >= s)
      ++t;
    int64_t expect = bruteMinCut(n, e, m, s, t);
    infCases += expect >= INF;
    zeroCases += expect == 0;
    int before = acTestCurFailed;
    acTestCurFailed = 0;
    checkNet(n, e, m, s, t, expect);
    if (acTestCurFailed && ++reported <= 5)
      printf("  (random case %d: n=%d m=%d s=%d t=%d)\n", iter, n, m, s, t);
    acTestCurFailed |= before;
  }
  /* The generator must exercise both extremes. */
  CHECK(infCases > 10);
  CHECK(zeroCases > 10);
}

/* Large capacities near the limits: sums of many big finite edges. */
AC_TEST(bigCapacities) {
  enum { K = 1000 };
  int64_t big = INF / 4096; /* 2^50 */
  AcMaxflow *net = acMaxflowCreate(K + 2, 2 * K);
  CHECK(net != NULL);
  if (!net)
    return;
  for (int i = 0; i < K; ++i) {
    CHECK(acMaxflowAddEdge(net, 0, 2 + i, INF) == AC_OK);
    CHECK(acMaxflowAddEdge(net, 2 + i, 1, big) == AC_OK);
  }
  int64_t flow = 0;
  CHECK(acMaxflowSolve(net, 0, 1, &flow) == AC_OK);
  CHECK_EQ_I64(flow, big * K);
  acMaxflowDestroy(net);
}

AC_TEST(allocationFailures) {
  TEdge e[] = {{0, 1, 16}, {0, 2, 13}, {1, 3, 12}, {2, 1, 4}, {2, 4, 14},
               {3, 2, 9},  {3, 5, 20}, {4, 3, 7},  {4, 5, 4}};
  int sawNomem = 0, sawOk = 0;
  for (int64_t failAt = 1; failAt < 100 && !sawOk; ++failAt) {
    acAllocFailAfter(failAt);
    AcStatus st = AC_OK;
    int64_t flow = -1;
    /* Tiny edge hint so AddEdge has to grow. */
    AcMaxflow *net = acMaxflowCreate(6, 1);
    if (!net) {
      acAllocFailAfter(0);
      sawNomem = 1;
      continue;
    }
    for (int i = 0; i < 9 && st == AC_OK; ++i)
      for (int j = 0; j < 3 && st == AC_OK; ++j) /* 27 edges: forces growth */
        st = acMaxflowAddEdge(net, e[i].from, e[i].to, e[i].cap);
    int inSolve = st == AC_OK;
    if (st == AC_OK)
      st = acMaxflowSolve(net, 0, 5, &flow);
    acAllocFailAfter(0);
    CHECK(st == AC_OK || st == AC_ERR_NOMEM);
    if (st == AC_ERR_NOMEM) {
      sawNomem = 1;
      /* A failed solve leaves a usable network. */
      if (inSolve) {
        CHECK(acMaxflowSolve(net, 0, 5, &flow) == AC_OK);
        CHECK_EQ_I64(flow, 3 * 23);
      }
    } else {
      sawOk = 1;
      CHECK_EQ_I64(flow, 3 * 23);
    }
    acMaxflowDestroy(net);
  }
  acAllocFailAfter(0);
  CHECK(sawNomem && sawOk);
}

static double nowSeconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A 200k-node chain: one augmenting path of length 200k; the minimum edge
   decides the flow. */
AC_TEST(scaleChain) {
  enum { N = 200000 };
  AcMaxflow *net = acMaxflowCreate(N, N);
  CHECK(net != NULL);
  if (!net)
    return;
  uint64_t rng = 42;
  int64_t minCap = INF;
  for (int i = 0; i + 1 < N; ++i) {
    int64_t c = 1000 + (int64_t)(acTestRand(&rng) % 1000000);
    if (i % 3 == 0)
      c = INF;
    if (c < minCap)
      minCap = c;
    CHECK(acMaxflowAddEdge(net, i, i + 1, c) == AC_OK);
  }
  double t0 = nowSeconds();
  int64_t flow = 0;
  CHECK(acMaxflowSolve(net, 0, N - 1, &flow) == AC_OK);
  double dt = nowSeconds() - t0;
  CHECK_EQ_I64(flow, minCap);
  printf("  chain: %d nodes, %d edges, solve %.3f s\n", N, N - 1, dt);
  CHECK(dt < AC_SCALE_LIMIT * AC_SLOWDOWN);
  acMaxflowDestroy(net);
}

/* A hard layered network: L layers of W in/out pairs joined by a finite
   edge, each out-node feeding 3 random in-nodes of the next layer through
   infinite edges, the source only before the first layer and the sink only
   after the last.  Residual paths zigzag between layers, so Dinic needs
   hundreds of phases (real min-cut networks tie values to the source and
   sink all along the graph: see scaleModelLike).  At 200k nodes this takes
   about 3 s at -O2; the unit test runs a 40k-node instance. */
AC_TEST(scaleLayered) {
  enum { L = 50, W = 400 };
  /* nodes: S=0, T=1, layer l node j: in = 2 + 2*(l*W+j), out = in + 1 */
  intptr_t n = 2 + 2 * (intptr_t)L * W;
  AcMaxflow *net = acMaxflowCreate(n, 5 * (intptr_t)L * W);
  CHECK(net != NULL);
  if (!net)
    return;
  uint64_t rng = 7;
  int64_t layerSum[L];
  for (int l = 0; l < L; ++l) {
    layerSum[l] = 0;
    for (int j = 0; j < W; ++j) {
      int32_t in = 2 + 2 * (l * W + j), out = in + 1;
      int64_t c = 1 + (int64_t)(acTestRand(&rng) % 1000);
      layerSum[l] += c;
      CHECK(acMaxflowAddEdge(net, in, out, c) == AC_OK);
      if (l == 0)
        CHECK(acMaxflowAddEdge(net, 0, in, INF) == AC_OK);
      if (l == L - 1) {
        CHECK(acMaxflowAddEdge(net, out, 1, INF) == AC_OK);
        continue;
      }
      /* j -> j and two random nodes of the next layer. */
      int32_t nextIn = 2 + 2 * ((l + 1) * W + j);
      CHECK(acMaxflowAddEdge(net, out, nextIn, INF) == AC_OK);
      for (int q = 0; q < 2; ++q) {
        int32_t jj = (int32_t)(acTestRand(&rng) % W);
        CHECK(acMaxflowAddEdge(net, out, 2 + 2 * ((l + 1) * W + jj), INF) ==
              AC_OK);
      }
    }
  }
  double t0 = nowSeconds();
  int64_t flow = 0;
  CHECK(acMaxflowSolve(net, 0, 1, &flow) == AC_OK);
  double dt = nowSeconds() - t0;
  /* The flow is at most the lightest layer (the solver's own debug check
     proves cut == flow); the cut must cross some in->out edges. */
  int64_t lightest = INF;
  for (int l = 0; l < L; ++l)
    if (layerSum[l] < lightest)
      lightest = layerSum[l];
  CHECK(flow > 0 && flow <= lightest);
  int64_t cut = 0;
  for (int l = 0; l < L; ++l)
    for (int j = 0; j < W; ++j) {
      int32_t in = 2 + 2 * (l * W + j);
      if (acMaxflowSourceSide(net, in) && !acMaxflowSourceSide(net, in + 1))
        cut = satAdd(cut, 1);
    }
  CHECK(cut > 0);
  printf("  layered: %ld nodes, solve %.3f s, flow %ld (lightest layer %ld)\n",
         (long)n, dt, (long)flow, (long)lightest);
  CHECK(dt < AC_SCALE_LIMIT * AC_SLOWDOWN);
  acMaxflowDestroy(net);
}

/* A network shaped like the min-cut network of a deep model: a chain of
   100k values (200k nodes), each value's in->out edge weighted by its bytes,
   out(v) feeding the next 1-3 values, about 1 in 5 values tied to the source
   (a matmul or random op) and 1 in 3 read by the backward (tied to the
   sink). */
AC_TEST(scaleModelLike) {
  enum { V = 100000 };
  intptr_t n = 2 + 2 * (intptr_t)V;
  AcMaxflow *net = acMaxflowCreate(n, 6 * (intptr_t)V);
  CHECK(net != NULL);
  if (!net)
    return;
  uint64_t rng = 11;
  for (int32_t v = 0; v < V; ++v) {
    int32_t in = 2 + 2 * v, out = in + 1;
    uint64_t r = acTestRand(&rng);
    CHECK(acMaxflowAddEdge(net, in, out, 1 + (int64_t)(r % 4096)) == AC_OK);
    if (v == 0 || (r >> 20) % 5 == 0)
      CHECK(acMaxflowAddEdge(net, 0, in, INF) == AC_OK);
    if ((r >> 30) % 3 == 0)
      CHECK(acMaxflowAddEdge(net, out, 1, INF) == AC_OK);
    int fan = 1 + (int)((r >> 40) % 3);
    for (int q = 1; q <= fan && v + q < V; ++q)
      CHECK(acMaxflowAddEdge(net, out, 2 + 2 * (v + q), INF) == AC_OK);
  }
  double t0 = nowSeconds();
  int64_t flow = 0;
  CHECK(acMaxflowSolve(net, 0, 1, &flow) == AC_OK);
  double dt = nowSeconds() - t0;
  CHECK(flow > 0 && flow < INF);
  printf("  model-like: %ld nodes, solve %.3f s, flow %ld\n", (long)n, dt,
         (long)flow);
  CHECK(dt < AC_SCALE_LIMIT * AC_SLOWDOWN);
  acMaxflowDestroy(net);
}

int main(void) {
  RUN(clrsExample);
  RUN(smallShapes);
  RUN(infiniteEdges);
  RUN(badArguments);
  RUN(randomVsBruteForce);
  RUN(bigCapacities);
  RUN(allocationFailures);
  RUN(scaleChain);
  RUN(scaleModelLike);
  RUN(scaleLayered);
  return acTestSummary("maxflow");
}
