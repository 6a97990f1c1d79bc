/*===- partition/partition.h - max-flow/min-cut, the min-cut save set -===*
 *
 * AcMaxflow is an array-based flow network (Dinic's algorithm) sized for
 * 100k+ nodes: edges live in flat arrays with a forward-star index built
 * once at solve time.  Capacities are int64 bytes; AC_CAP_INF marks edges
 * that may never be cut.  After a solve the cut is read off as the set of
 * nodes reachable from the source in the residual graph.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_PARTITION_H
#define AUTOAC_PARTITION_H

#include "autoac/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Capacity of an edge that can never be cut (2^62); the solver saturates
/// flows at it, so sums never overflow int64.
#define AC_CAP_INF ((int64_t)1 << 42 << 20)

/// A flow network under construction or solved.
typedef struct AcMaxflow AcMaxflow;

/// Creates a network with `numNodes` nodes (ids 0..numNodes-1) and room
/// reserved for `edgeHint` edges; NULL on allocation failure.
AcMaxflow *acMaxflowCreate(intptr_t numNodes, intptr_t edgeHint);
/// Frees a network; NULL is accepted.
void acMaxflowDestroy(AcMaxflow *net);
/// Adds a directed edge with capacity `cap` >= 0 (AC_CAP_INF for uncuttable).
AcStatus acMaxflowAddEdge(AcMaxflow *net, int32_t from, int32_t to, int64_t cap);
/// Computes the maximum flow from `source` to `sink` into `*flow`.  A flow of
/// AC_CAP_INF or more means no finite cut exists.  In debug builds, checks
/// that the flow equals the capacity of the cut it reports.
AcStatus acMaxflowSolve(AcMaxflow *net, int32_t source, int32_t sink,
                        int64_t *flow);
/// Chooses which minimum cut later solves report: by default the one nearest
/// the source (nodes the source reaches in the residual graph); with
/// `enable`, the one nearest the sink (nodes that cannot reach the sink).
void acMaxflowPreferSinkSide(AcMaxflow *net, int enable);
/// After a solve: 1 if `node` is on the source side of the minimum cut.
int acMaxflowSourceSide(const AcMaxflow *net, int32_t node);
/// Number of nodes.
intptr_t acMaxflowNumNodes(const AcMaxflow *net);

/// Computes the min-cut save set the way PyTorch's partitioner does: each
/// value split into in/out nodes joined by an edge of its bytes, infinite
/// edges to its users; backward values tied to the sink; results of ops that
/// must not be recomputed (not recomputable, compute-intensive, ac.save)
/// tied to the source; values of ac.recompute ops, views and non-tensor
/// values of recomputable ops made uncuttable.  Writes saved[v] = 1 for every
/// forward value the backward keeps (array of g->numValues, zeroed first).
/// Errors: an ac.recompute op that is not recomputable, or constraints with
/// no finite cut; both name the op.
AcStatus acMincutSaveSet(const AcGraph *g, uint8_t *saved, AcError *err);

#ifdef __cplusplus
}
#endif
#endif
