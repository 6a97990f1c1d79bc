/* mincut.c - the min-cut save set (PyTorch's partitioner, on AcGraph).
 *
 * Network (S = source, T = sink; each forward value v the backward can reach
 * gets nodes in(v) and out(v)):
 *
 *   in(v) -> out(v)   capacity = cost of saving v:
 *                       bytes(v) for an ordinary tensor;
 *                       0 for a primal/param argument (always available);
 *                       0 for a zero-byte result of a banned op (see below);
 *                       bytes(aliasRoot) for a view made by a banned op
 *                         (saving it pins its base's storage; 0 if the base
 *                         is an argument);
 *                       INF for results of ac.recompute ops, views made by
 *                         recomputable ops and zero-byte results of
 *                         recomputable ops (never saved: recomputed).
 *   S -> in(v)        INF for arguments and results of banned ops, which
 *                       must run in the forward: ac.save ops, and unless
 *                       marked ac.recompute, ops that are not recomputable or
 *                       are compute-intensive.
 *   out(u) -> in(r)   INF for each operand u and result r of a forward op
 *                       (through one op node when the op has several needed
 *                       results and several operands).
 *   out(v) -> T       INF for each forward value a backward op reads.  (PyTorch
 *                       ties backward nodes to the sink and links forward
 *                       values to them; linking straight to the sink is the
 *                       same cut with no nodes for the backward.)
 *
 * Only forward values some backward op depends on get nodes.  An op marked
 * both ac.save and ac.recompute whose result the backward needs leaves an
 * all-INF path, i.e. no finite cut: that is reported naming the op.
 *
 * A cut separates what the forward computes (source side) from what the
 * backward needs (sink side); a value is saved when in(v) is on the source
 * side and out(v) on the sink side.  After the cut, values that no backward
 * op needs (zero-cost cuts the source-minimal cut picks up for free) are
 * dropped by walking back from the backward's reads.
 */
#include "partition/partition.h"

#include <assert.h>
#include <string.h>

enum {
  AC_MC_NEEDED = 1,  /* forward value the backward reaches (transitively) */
  AC_MC_BWDREAD = 2, /* forward value a backward op reads directly */
  AC_MC_KEEP = 4     /* needed by the backward once the cut is known */
};

/* An op whose results must be computed in the forward. */
static int acMcBanned(const AcOp *op) {
  return op->mustSave ||
         (!op->mustRecompute && (!op->recomputable || op->computeIntensive));
}

/* Why an op cannot be recomputed, for messages. */
static const char *acMcWhyNot(const AcOp *op) {
  switch (op->kind) {
  case AC_KIND_RANDOM: return "random";
  case AC_KIND_INPLACE: return "in-place or memory-effecting";
  case AC_KIND_UNKNOWN: return "unknown op";
  default: return "not recomputable";
  }
}

/* Capacity of in(v) -> out(v) for a forward value v. */
static int64_t acMcValueCap(const AcGraph *g, AcId v) {
  const AcValue *val = &g->values[v];
  if (val->producer == AC_NONE)
    return 0;
  const AcOp *op = &g->ops[val->producer];
  int banned = acMcBanned(op);
  if (op->mustRecompute)
    return AC_CAP_INF;
  if (val->aliasRoot != v) {
    if (!banned)
      return AC_CAP_INF;
    const AcValue *root = &g->values[val->aliasRoot];
    return root->role == AC_ROLE_RESULT ? root->bytes : 0;
  }
  if (val->bytes == 0)
    return banned ? 0 : AC_CAP_INF;
  return val->bytes;
}

/* Explains why no finite cut exists: finds a backward-read value that the
   source reaches through uncuttable edges only, and names the op that starts
   that chain. */
static AcStatus acMcDiagnose(const AcGraph *g, const uint8_t *flags,
                             AcError *err) {
  AcStatus st;
  /* from[v]: AC_NONE if v is reached from S directly (banned producer), else
     the operand through which in(v) is reached; -2 if in(v) is not reached.
     Values are visited in id order, which respects SSA order. */
  AcId *from = acMalloc(((size_t)g->numValues + 1) * sizeof *from);
  if (!from)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                      "out of memory in the min-cut partitioner");
  AcId culprit = AC_NONE;
  for (intptr_t v = 0; v < g->numValues; ++v) {
    from[v] = -2;
    const AcValue *val = &g->values[v];
    if (!(flags[v] & AC_MC_NEEDED) || val->producer == AC_NONE)
      continue;
    const AcOp *op = &g->ops[val->producer];
    if (acMcBanned(op)) {
      from[v] = AC_NONE;
    } else {
      for (int32_t i = 0; i < op->numOperands; ++i) {
        AcId u = acOpOperand(g, val->producer, i);
        if (from[u] != -2 && acMcValueCap(g, u) >= AC_CAP_INF) {
          from[v] = u;
          break;
        }
      }
    }
    if (from[v] != -2 && (flags[v] & AC_MC_BWDREAD) &&
        acMcValueCap(g, (AcId)v) >= AC_CAP_INF) {
      culprit = (AcId)v;
      break;
    }
  }
  if (culprit == AC_NONE) {
    st = acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                    "min cut is infinite but no uncuttable path was found");
  } else {
    AcId origin = culprit;
    while (from[origin] != AC_NONE)
      origin = from[origin];
    AcId opId = g->values[origin].producer;
    const AcOp *op = &g->ops[opId];
    if (op->mustSave && op->mustRecompute)
      st = acErrorSet(err, AC_ERR_INFEASIBLE, opId, origin,
                      "op '%s' is marked both ac.save and ac.recompute, and "
                      "the backward needs its result", op->name);
    else
      st = acErrorSet(err, AC_ERR_INFEASIBLE, opId, origin,
                      "no finite min cut: op '%s' must run in the forward, "
                      "but the backward needs a value derived from it (op "
                      "'%s') that can be neither saved nor recomputed",
                      op->name, g->ops[g->values[culprit].producer].name);
  }
  acFree(from);
  return st;
}

/* One min-cut run: the flags and network node of each value, the size of
 * the network. */
typedef struct AcMc {
  const AcGraph *g;
  uint8_t *flags;          /* per value: AC_MC_* */
  int32_t *node;           /* per value: k, with in = 2+2k and out = 3+2k */
  intptr_t k;              /* values in the network */
  intptr_t numOpNodes;     /* ops joined to their results through a node */
  intptr_t edgeHint;
  AcMaxflow *net;
  AcError *err;
} AcMc;

enum { AC_MC_S = 0, AC_MC_T = 1 };

static AcStatus acMcNoMem(AcMc *mc) {
  return acErrorSet(mc->err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory in the min-cut partitioner");
}

static AcStatus acMcTooLarge(AcMc *mc) {
  return acErrorSet(mc->err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                    "the graph is too large for the min-cut partitioner");
}

/* The markers and sizes are valid. */
static AcStatus acMcValidate(const AcGraph *g, AcError *err) {
  for (intptr_t o = 0; o < g->numOps; ++o) {
    const AcOp *op = &g->ops[o];
    if (op->phase == AC_PHASE_FWD && op->mustRecompute && !op->recomputable)
      return acErrorSet(err, AC_ERR_INFEASIBLE, (AcId)o, AC_NONE,
                        "op '%s' is marked ac.recompute but cannot be "
                        "recomputed (%s)", op->name, acMcWhyNot(op));
  }
  for (intptr_t v = 0; v < g->numValues; ++v) {
    int64_t bytes = g->values[v].bytes;
    if (bytes < 0 || bytes >= AC_CAP_INF / 2)
      return acErrorSet(err, AC_ERR_INVALID, g->values[v].producer, (AcId)v,
                        "value %ld has an invalid size (%lld bytes)", (long)v,
                        (long long)bytes);
  }
  return AC_OK;
}

/* How many results of forward op `op` the backward needs. */
static int32_t acMcNeededResults(const AcMc *mc, const AcOp *op) {
  int32_t nres = 0;
  for (int32_t r = 0; r < op->numResults; ++r)
    nres += (mc->flags[op->firstResult + r] & AC_MC_NEEDED) != 0;
  return nres;
}

/* What the backward reads, then (one reverse sweep in SSA order) every
 * forward value those reads depend on through forward ops; counts the op
 * nodes and edges the network will need. */
static void acMcMarkNeeded(AcMc *mc) {
  const AcGraph *g = mc->g;
  uint8_t *flags = mc->flags;
  for (intptr_t o = 0; o < g->numOps; ++o) {
    const AcOp *op = &g->ops[o];
    if (op->phase != AC_PHASE_BWD)
      continue;
    for (int32_t i = 0; i < op->numOperands; ++i) {
      AcId u = acOpOperand(g, (AcId)o, i);
      if (g->values[u].phase == AC_PHASE_FWD)
        flags[u] |= AC_MC_NEEDED | AC_MC_BWDREAD;
    }
  }
  for (intptr_t o = g->numOps - 1; o >= 0; --o) {
    const AcOp *op = &g->ops[o];
    if (op->phase != AC_PHASE_FWD)
      continue;
    int32_t nres = acMcNeededResults(mc, op);
    if (nres == 0)
      continue;
    for (int32_t i = 0; i < op->numOperands; ++i)
      flags[acOpOperand(g, (AcId)o, i)] |= AC_MC_NEEDED;
    if (nres > 1 && op->numOperands > 1) {
      ++mc->numOpNodes;
      mc->edgeHint += op->numOperands + nres;
    } else {
      mc->edgeHint += (intptr_t)op->numOperands * nres;
    }
  }
}

/* Numbers the needed values (mc->node, mc->k); the finite capacities must
 * sum below AC_CAP_INF / 2 and the nodes fit int32_t. */
static AcStatus acMcNumber(AcMc *mc) {
  const AcGraph *g = mc->g;
  int64_t finiteSum = 0;
  for (intptr_t v = 0; v < g->numValues; ++v) {
    mc->node[v] = -1;
    if (!(mc->flags[v] & AC_MC_NEEDED))
      continue;
    mc->node[v] = (int32_t)mc->k++;
    int64_t cap = acMcValueCap(g, (AcId)v);
    if (cap < AC_CAP_INF) {
      finiteSum += cap;
      if (finiteSum >= AC_CAP_INF / 2)
        return acMcTooLarge(mc);
    }
  }
  if (2 + 2 * mc->k + mc->numOpNodes > INT32_MAX)
    return acMcTooLarge(mc);
  mc->edgeHint += 3 * mc->k;
  return AC_OK;
}

/* A failed acMaxflowAddEdge as this run reports it. */
static AcStatus acMcEdgeFailed(AcMc *mc, AcStatus st) {
  if (st == AC_ERR_NOMEM)
    return acMcNoMem(mc);
  return acErrorSet(mc->err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                    "building the flow network failed: %s", acStatusName(st));
}

#define AC_MC_EDGE(a, b, c)                                                    \
  do {                                                                         \
    if ((st = acMaxflowAddEdge(mc->net, (a), (b), (c))) != AC_OK)              \
      return acMcEdgeFailed(mc, st);                                           \
  } while (0)

/* The values' edges: in -> out at the value's capacity, S -> in for values
 * that cannot be recomputed, out -> T for the backward's reads. */
static AcStatus acMcValueEdges(AcMc *mc) {
  const AcGraph *g = mc->g;
  AcStatus st;
  for (intptr_t v = 0; v < g->numValues; ++v) {
    if (mc->node[v] < 0)
      continue;
    const AcValue *val = &g->values[v];
    int32_t in = 2 + 2 * mc->node[v], out = in + 1;
    AC_MC_EDGE(in, out, acMcValueCap(g, (AcId)v));
    if (val->producer == AC_NONE || acMcBanned(&g->ops[val->producer]))
      AC_MC_EDGE(AC_MC_S, in, AC_CAP_INF);
    if (mc->flags[v] & AC_MC_BWDREAD)
      AC_MC_EDGE(out, AC_MC_T, AC_CAP_INF);
  }
  return AC_OK;
}

/* The ops' edges: each needed result's in-node from each operand's
 * out-node, through one op node when the op has several of each. */
static AcStatus acMcOpEdges(AcMc *mc) {
  const AcGraph *g = mc->g;
  const int32_t *node = mc->node;
  AcStatus st;
  int32_t opNode = (int32_t)(2 + 2 * mc->k);
  for (intptr_t o = 0; o < g->numOps; ++o) {
    const AcOp *op = &g->ops[o];
    if (op->phase != AC_PHASE_FWD)
      continue;
    int32_t nres = acMcNeededResults(mc, op);
    if (nres == 0)
      continue;
    int viaNode = nres > 1 && op->numOperands > 1;
    for (int32_t i = 0; i < op->numOperands; ++i) {
      int32_t uOut = 3 + 2 * node[acOpOperand(g, (AcId)o, i)];
      if (viaNode) {
        AC_MC_EDGE(uOut, opNode, AC_CAP_INF);
        continue;
      }
      for (int32_t r = 0; r < op->numResults; ++r)
        if (node[op->firstResult + r] >= 0)
          AC_MC_EDGE(uOut, 2 + 2 * node[op->firstResult + r], AC_CAP_INF);
    }
    if (viaNode) {
      for (int32_t r = 0; r < op->numResults; ++r)
        if (node[op->firstResult + r] >= 0)
          AC_MC_EDGE(opNode, 2 + 2 * node[op->firstResult + r], AC_CAP_INF);
      ++opNode;
    }
  }
  assert(opNode == 2 + 2 * mc->k + mc->numOpNodes);
  return AC_OK;
}
#undef AC_MC_EDGE

/* Reads off the cut into `saved`, keeping only what the backward needs:
 * walks back from the backward's reads, stopping at saved values and
 * arguments. */
static AcStatus acMcReadCut(AcMc *mc, uint8_t *saved) {
  const AcGraph *g = mc->g;
  uint8_t *flags = mc->flags;
  intptr_t nv = g->numValues;
  for (intptr_t v = 0; v < nv; ++v)
    if (flags[v] & AC_MC_BWDREAD)
      flags[v] |= AC_MC_KEEP;
  for (intptr_t v = nv - 1; v >= 0; --v) {
    if (!(flags[v] & AC_MC_KEEP))
      continue;
    const AcValue *val = &g->values[v];
    int32_t in = 2 + 2 * mc->node[v];
    int inSrc = acMaxflowSourceSide(mc->net, in);
    int outSrc = acMaxflowSourceSide(mc->net, in + 1);
    assert(!outSrc && "a needed value's out-node must be on the sink side");
    if (val->producer == AC_NONE)
      continue;
    const AcOp *op = &g->ops[val->producer];
    if (inSrc) {
      saved[v] = 1;
      continue;
    }
    /* Recomputed: its producer must be allowed to rerun. */
    if (outSrc || acMcBanned(op)) {
      assert(0 && "min cut recomputes a value that must be saved");
      return acErrorSet(mc->err, AC_ERR_INTERNAL, val->producer, (AcId)v,
                        "min cut recomputes op '%s', which must not be "
                        "recomputed", op->name);
    }
    for (int32_t i = 0; i < op->numOperands; ++i)
      flags[acOpOperand(g, val->producer, i)] |= AC_MC_KEEP;
  }
  return AC_OK;
}

#ifndef NDEBUG
/* The save set's invariants (plan.h) and its capacity within the flow. */
static void acMcCheckSaved(const AcGraph *g, const uint8_t *saved,
                           int64_t flow) {
  int64_t savedCap = 0;
  for (intptr_t v = 0; v < g->numValues; ++v) {
    if (!saved[v])
      continue;
    const AcValue *val = &g->values[v];
    assert(val->role == AC_ROLE_RESULT && val->phase == AC_PHASE_FWD);
    assert(val->aliasRoot == v ||
           (val->bytes == 0 && acMcBanned(&g->ops[val->producer])));
    assert(!g->ops[val->producer].mustRecompute);
    savedCap += acMcValueCap(g, (AcId)v);
  }
  assert(savedCap <= flow);
}
#endif

AcStatus acMincutSaveSet(const AcGraph *g, uint8_t *saved, AcError *err) {
  AcStatus st = AC_OK;
  AcMc mc;
  intptr_t nv = g->numValues;
  int64_t flow = 0;
  memset(&mc, 0, sizeof mc);
  mc.g = g;
  mc.err = err;
  memset(saved, 0, (size_t)nv);
  if ((st = acMcValidate(g, err)) != AC_OK)
    goto cleanup;
  mc.flags = acCalloc((size_t)nv + 1, 1);
  mc.node = acMalloc(((size_t)nv + 1) * sizeof *mc.node);
  if (!mc.flags || !mc.node) {
    st = acMcNoMem(&mc);
    goto cleanup;
  }
  acMcMarkNeeded(&mc);
  if ((st = acMcNumber(&mc)) != AC_OK)
    goto cleanup;
  mc.net = acMaxflowCreate(2 + 2 * mc.k + mc.numOpNodes, mc.edgeHint);
  if (!mc.net) {
    st = acMcNoMem(&mc);
    goto cleanup;
  }
  /* Of equally small cuts, take the one nearest the backward: it saves the
     latest values and so recomputes the least (an MLP saves relu outputs,
     not the addmm outputs the relu would then be rerun from). */
  acMaxflowPreferSinkSide(mc.net, 1);
  if ((st = acMcValueEdges(&mc)) != AC_OK || (st = acMcOpEdges(&mc)) != AC_OK)
    goto cleanup;
  st = acMaxflowSolve(mc.net, AC_MC_S, AC_MC_T, &flow);
  if (st == AC_ERR_NOMEM) {
    st = acMcNoMem(&mc);
    goto cleanup;
  }
  if (st != AC_OK) {
    st = acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                    "max flow failed: %s", acStatusName(st));
    goto cleanup;
  }
  if (flow >= AC_CAP_INF) {
    st = acMcDiagnose(g, mc.flags, err);
    goto cleanup;
  }
  if ((st = acMcReadCut(&mc, saved)) != AC_OK)
    goto cleanup;
#ifndef NDEBUG
  acMcCheckSaved(g, saved, flow);
#endif
cleanup:
  if (st != AC_OK)
    memset(saved, 0, (size_t)nv);
  acMaxflowDestroy(mc.net);
  acFree(mc.flags);
  acFree(mc.node);
  return st;
}
