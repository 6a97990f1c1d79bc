/* maxflow.c - Dinic's maximum flow over flat arrays.
 *
 * The network keeps each added edge k as to[2k] (head), to[2k+1] (tail) and
 * cap0[k].  A solve lays the arcs out in forward-star order (each edge as a
 * forward arc of capacity cap0[k] and a reverse arc of capacity 0, each
 * knowing its partner's position), then alternates a BFS that labels nodes
 * with their residual distance to the sink and an iterative DFS that pushes
 * a blocking flow along arcs stepping one closer to the sink, until the
 * source cannot reach the sink.  Nothing recurses, so depth is bounded by
 * memory, not by the stack.  A solve starts from zero flow, so it may be
 * repeated after more edges are added.
 *
 * Capacities are clamped to AC_CAP_INF (2^62).  The residuals of an arc pair
 * always sum to the edge's capacity, so no residual exceeds AC_CAP_INF; the
 * total flow is checked after every augmentation and the solve stops as soon
 * as it reaches AC_CAP_INF (no finite cut), so sums stay below 2^63.
 */
#include "partition/partition.h"

#include <assert.h>
#include <string.h>

struct AcMaxflow {
  intptr_t numNodes;
  intptr_t numArcs;   /* 2 * edges added */
  intptr_t capArcs;   /* room in to[] (cap0[] has room for capArcs / 2) */
  int32_t *to;        /* [numArcs] head of each arc */
  int64_t *cap0;      /* [numArcs / 2] capacity of each added edge */
  uint8_t *side;      /* [numNodes] source side of the last solve, or NULL */
  int sinkNearest;    /* report the minimum cut nearest the sink */
};

AcMaxflow *acMaxflowCreate(intptr_t numNodes, intptr_t edgeHint) {
  AcMaxflow *net = NULL;
  if (numNodes < 0 || numNodes > INT32_MAX)
    return NULL;
  if (edgeHint < 16)
    edgeHint = 16;
  if (edgeHint > INT32_MAX / 2)
    edgeHint = INT32_MAX / 2;
  net = acCalloc(1, sizeof *net);
  if (!net)
    goto fail;
  net->numNodes = numNodes;
  net->capArcs = 2 * edgeHint;
  net->to = acMalloc((size_t)net->capArcs * sizeof *net->to);
  net->cap0 = acMalloc((size_t)edgeHint * sizeof *net->cap0);
  if (!net->to || !net->cap0)
    goto fail;
  return net;
fail:
  acMaxflowDestroy(net);
  return NULL;
}

void acMaxflowDestroy(AcMaxflow *net) {
  if (!net)
    return;
  acFree(net->to);
  acFree(net->cap0);
  acFree(net->side);
  acFree(net);
}

/* Makes room for one more edge (two arcs); 0 on allocation failure, with the
   network unchanged. */
static int acMaxflowReserve(AcMaxflow *net) {
  if (net->numArcs + 2 <= net->capArcs)
    return 1;
  intptr_t ncap = net->capArcs * 2;
  if (ncap > INT32_MAX - 1)
    ncap = INT32_MAX - 1;
  if (net->numArcs + 2 > ncap)
    return 0;
  int32_t *to = acRealloc(net->to, (size_t)ncap * sizeof *to);
  if (!to)
    return 0;
  net->to = to;
  int64_t *cap0 = acRealloc(net->cap0, (size_t)(ncap / 2) * sizeof *cap0);
  if (!cap0)
    return 0; /* to[] grew; harmless, capArcs still describes cap0 */
  net->cap0 = cap0;
  net->capArcs = ncap / 2 * 2;
  return 1;
}

AcStatus acMaxflowAddEdge(AcMaxflow *net, int32_t from, int32_t to,
                          int64_t cap) {
  if (from < 0 || from >= net->numNodes || to < 0 || to >= net->numNodes ||
      cap < 0)
    return AC_ERR_INVALID;
  if (net->numArcs + 2 > (intptr_t)INT32_MAX - 1)
    return AC_ERR_INVALID; /* arc indices are int32 */
  if (!acMaxflowReserve(net))
    return AC_ERR_NOMEM;
  intptr_t a = net->numArcs;
  net->to[a] = to;
  net->to[a + 1] = from;
  net->cap0[a / 2] = cap < AC_CAP_INF ? cap : AC_CAP_INF;
  net->numArcs += 2;
  return AC_OK;
}

intptr_t acMaxflowNumNodes(const AcMaxflow *net) { return net->numNodes; }

int acMaxflowSourceSide(const AcMaxflow *net, int32_t node) {
  assert(node >= 0 && node < net->numNodes);
  if (!net->side || node < 0 || node >= net->numNodes)
    return 0;
  return net->side[node];
}

/* Scratch arrays of one solve.  Arcs are laid out by tail in forward-star
   order: position p holds an arc's head, residual and its partner's position,
   so the scans below touch contiguous memory. */
typedef struct AcArc {
  int32_t head;     /* node the arc enters */
  int32_t rev;      /* position of the paired arc */
  int64_t res;      /* residual capacity */
} AcArc;

typedef struct AcFlowWork {
  int32_t *start;   /* [numNodes + 1] first position of each node's arcs */
  AcArc *arc;       /* [numArcs] arcs by position */
  int32_t *dist;    /* [numNodes] residual distance to the sink, -1 unknown */
  int32_t *iter;    /* [numNodes] next position to try in the DFS */
  int32_t *queue;   /* [numNodes] BFS queue */
  int32_t *path;    /* [numNodes] positions of the current DFS path's arcs */
} AcFlowWork;

/* Labels nodes with their residual distance to `t` (BFS along reversed
   arcs), stopping once `s` is labelled; returns 1 if it was.  Labelling from
   the sink keeps the DFS away from nodes that cannot reach it. */
static int acFlowBfs(const AcMaxflow *net, AcFlowWork *w, int32_t s,
                     int32_t t) {
  intptr_t n = net->numNodes;
  for (intptr_t i = 0; i < n; ++i)
    w->dist[i] = -1;
  intptr_t qh = 0, qt = 0;
  w->dist[t] = 0;
  w->queue[qt++] = t;
  while (qh < qt) {
    int32_t v = w->queue[qh++];
    int32_t d = w->dist[v] + 1;
    for (int32_t p = w->start[v], e = w->start[v + 1]; p < e; ++p) {
      int32_t u = w->arc[p].head; /* arc u -> v: at arc[p].rev */
      if (w->dist[u] < 0 && w->arc[w->arc[p].rev].res > 0) {
        w->dist[u] = d;
        if (u == s)
          return 1; /* every node nearer to t is already labelled */
        w->queue[qt++] = u;
      }
    }
  }
  return 0;
}

/* Pushes a blocking flow along arcs that step one closer to the sink, adding
   it to `*total`.  Stops early once *total reaches AC_CAP_INF. */
static void acFlowBlocking(const AcMaxflow *net, AcFlowWork *w, int32_t s,
                           int32_t t, int64_t *total) {
  for (intptr_t i = 0; i < net->numNodes; ++i)
    w->iter[i] = w->start[i];
  intptr_t top = 0;
  int32_t u = s;
  for (;;) {
    if (u == t) {
      int64_t f = AC_CAP_INF;
      for (intptr_t i = 0; i < top; ++i)
        if (w->arc[w->path[i]].res < f)
          f = w->arc[w->path[i]].res;
      assert(f > 0);
      intptr_t firstSat = -1;
      for (intptr_t i = 0; i < top; ++i) {
        int32_t p = w->path[i];
        w->arc[p].res -= f;
        w->arc[w->arc[p].rev].res += f;
        if (firstSat < 0 && w->arc[p].res == 0)
          firstSat = i;
      }
      assert(firstSat >= 0);
      *total += f; /* *total < AC_CAP_INF and f <= AC_CAP_INF: no overflow */
      if (*total >= AC_CAP_INF)
        return;
      top = firstSat;
      u = w->arc[w->arc[w->path[top]].rev].head;
      continue;
    }
    int32_t want = w->dist[u] - 1, end = w->start[u + 1], p = w->iter[u];
    while (p < end && (w->arc[p].res == 0 || w->dist[w->arc[p].head] != want))
      ++p;
    w->iter[u] = p;
    if (p < end) {
      w->path[top++] = p;
      u = w->arc[p].head;
      continue;
    }
    /* Dead end: retire u and back up one arc. */
    w->dist[u] = -1;
    if (top == 0)
      return;
    p = w->path[--top];
    u = w->arc[w->arc[p].rev].head;
    ++w->iter[u];
  }
}

/* Marks side[] with the nodes reachable from `s` in the residual graph. */
static void acFlowReach(const AcMaxflow *net, AcFlowWork *w, int32_t s,
                        uint8_t *side) {
  memset(side, 0, (size_t)net->numNodes);
  intptr_t qh = 0, qt = 0;
  side[s] = 1;
  w->queue[qt++] = s;
  while (qh < qt) {
    int32_t u = w->queue[qh++];
    for (int32_t p = w->start[u], e = w->start[u + 1]; p < e; ++p)
      if (w->arc[p].res > 0 && !side[w->arc[p].head]) {
        side[w->arc[p].head] = 1;
        w->queue[qt++] = w->arc[p].head;
      }
  }
}

/* Marks side[] with the nodes that CANNOT reach `t` in the residual graph:
   the source side of the minimum cut nearest the sink. */
static void acFlowReachSinkComplement(const AcMaxflow *net, AcFlowWork *w,
                                      int32_t t, uint8_t *side) {
  memset(side, 1, (size_t)net->numNodes);
  intptr_t qh = 0, qt = 0;
  side[t] = 0;
  w->queue[qt++] = t;
  while (qh < qt) {
    int32_t v = w->queue[qh++];
    /* x reaches v when the arc x -> v (the partner of v -> x) has residual. */
    for (int32_t p = w->start[v], e = w->start[v + 1]; p < e; ++p) {
      int32_t x = w->arc[p].head;
      if (side[x] && w->arc[w->arc[p].rev].res > 0) {
        side[x] = 0;
        w->queue[qt++] = x;
      }
    }
  }
}

void acMaxflowPreferSinkSide(AcMaxflow *net, int enable) {
  net->sinkNearest = enable != 0;
}

#ifndef NDEBUG
/* Capacity of the cut net->side describes, saturating at AC_CAP_INF. */
static int64_t acFlowCutCapacity(const AcMaxflow *net) {
  int64_t sum = 0;
  for (intptr_t a = 0; a < net->numArcs; a += 2) {
    int32_t from = net->to[a + 1], to = net->to[a];
    if (net->side[from] && !net->side[to]) {
      sum += net->cap0[a / 2];
      if (sum >= AC_CAP_INF)
        return AC_CAP_INF;
    }
  }
  return sum;
}
#endif

AcStatus acMaxflowSolve(AcMaxflow *net, int32_t source, int32_t sink,
                        int64_t *flow) {
  AcStatus st = AC_OK;
  AcFlowWork w;
  memset(&w, 0, sizeof w);
  intptr_t n = net->numNodes, m = net->numArcs;
  uint8_t *side = NULL;
  int64_t total = 0;
  *flow = 0;
  if (source < 0 || source >= n || sink < 0 || sink >= n || source == sink)
    return AC_ERR_INVALID;
  acFree(net->side);
  net->side = NULL;

  w.start = acCalloc((size_t)n + 1, sizeof *w.start);
  w.arc = acMalloc((size_t)m * sizeof *w.arc);
  w.dist = acMalloc((size_t)n * sizeof *w.dist);
  w.iter = acMalloc((size_t)n * sizeof *w.iter);
  w.queue = acMalloc((size_t)n * sizeof *w.queue);
  w.path = acMalloc((size_t)n * sizeof *w.path);
  side = acMalloc((size_t)n);
  if (!w.start || !w.arc || !w.dist || !w.iter ||
      !w.queue || !w.path || !side) {
    st = AC_ERR_NOMEM;
    goto cleanup;
  }

  /* Forward-star layout: each node's arcs in the order they were added. */
  for (intptr_t a = 0; a < m; ++a)
    ++w.start[net->to[a ^ 1] + 1];
  for (intptr_t i = 0; i < n; ++i)
    w.start[i + 1] += w.start[i];
  for (intptr_t i = 0; i < n; ++i)
    w.iter[i] = w.start[i];
  for (intptr_t a = 0; a < m; a += 2) {
    int32_t from = net->to[a + 1], to = net->to[a];
    int32_t pf = w.iter[from]++, pr = w.iter[to]++;
    w.arc[pf].head = to;
    w.arc[pr].head = from;
    w.arc[pf].res = net->cap0[a / 2];
    w.arc[pr].res = 0;
    w.arc[pf].rev = pr;
    w.arc[pr].rev = pf;
  }

  while (total < AC_CAP_INF && acFlowBfs(net, &w, source, sink))
    acFlowBlocking(net, &w, source, sink, &total);
  if (total > AC_CAP_INF)
    total = AC_CAP_INF;

  /* The cut: nodes reachable from the source in the residual graph, or the
     complement of the nodes that reach the sink (both are minimum cuts). */
  if (net->sinkNearest && total < AC_CAP_INF)
    acFlowReachSinkComplement(net, &w, sink, side);
  else
    acFlowReach(net, &w, source, side);
  net->side = side;
  side = NULL;
  *flow = total;
#ifndef NDEBUG
  if (total < AC_CAP_INF) {
    assert(net->side[source] && !net->side[sink]);
    assert(acFlowCutCapacity(net) == total && "max flow != min cut");
  }
#endif

cleanup:
  acFree(side);
  acFree(w.start);
  acFree(w.arc);
  acFree(w.dist);
  acFree(w.iter);
  acFree(w.queue);
  acFree(w.path);
  return st;
}
