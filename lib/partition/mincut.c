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

AcStatus acMincutSaveSet(const AcGraph *g, uint8_t *saved, AcError *err) {
  AcStatus st = AC_OK;
  uint8_t *flags = NULL;
  int32_t *node = NULL; /* per value: k, with in = 2+2k and out = 3+2k */
  AcMaxflow *net = NULL;
  intptr_t nv = g->numValues;
  intptr_t k = 0;          /* values in the network */
  intptr_t numOpNodes = 0; /* ops joined to their results through a node */
  intptr_t edgeHint = 0;
  int64_t finiteSum = 0, flow = 0;
  int32_t opNode = 0;
  const int32_t S = 0, T = 1;

  memset(saved, 0, (size_t)nv);

  /* Validate the markers and sizes. */
  for (intptr_t o = 0; o < g->numOps; ++o) {
    const AcOp *op = &g->ops[o];
    if (op->phase == AC_PHASE_FWD && op->mustRecompute && !op->recomputable) {
      st = acErrorSet(err, AC_ERR_INFEASIBLE, (AcId)o, AC_NONE,
                      "op '%s' is marked ac.recompute but cannot be "
                      "recomputed (%s)", op->name, acMcWhyNot(op));
      goto cleanup;
    }
  }
  for (intptr_t v = 0; v < nv; ++v) {
    int64_t bytes = g->values[v].bytes;
    if (bytes < 0 || bytes >= AC_CAP_INF / 2) {
      st = acErrorSet(err, AC_ERR_INVALID, g->values[v].producer, (AcId)v,
                      "value %ld has an invalid size (%lld bytes)", (long)v,
                      (long long)bytes);
      goto cleanup;
    }
  }

  flags = acCalloc((size_t)nv + 1, 1);
  node = acMalloc(((size_t)nv + 1) * sizeof *node);
  if (!flags || !node)
    goto nomem;

  /* What the backward reads, then (one reverse sweep in SSA order) every
     forward value those reads depend on through forward ops. */
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
    int32_t nres = 0;
    for (int32_t r = 0; r < op->numResults; ++r)
      nres += (flags[op->firstResult + r] & AC_MC_NEEDED) != 0;
    if (nres == 0)
      continue;
    for (int32_t i = 0; i < op->numOperands; ++i)
      flags[acOpOperand(g, (AcId)o, i)] |= AC_MC_NEEDED;
    if (nres > 1 && op->numOperands > 1) {
      ++numOpNodes;
      edgeHint += op->numOperands + nres;
    } else {
      edgeHint += (intptr_t)op->numOperands * nres;
    }
  }
  for (intptr_t v = 0; v < nv; ++v) {
    node[v] = -1;
    if (!(flags[v] & AC_MC_NEEDED))
      continue;
    node[v] = (int32_t)k++;
    int64_t cap = acMcValueCap(g, (AcId)v);
    if (cap < AC_CAP_INF) {
      finiteSum += cap;
      if (finiteSum >= AC_CAP_INF / 2)
        goto tooLarge;
    }
  }
  if (2 + 2 * k + numOpNodes > INT32_MAX)
    goto tooLarge;
  edgeHint += 3 * k;

  net = acMaxflowCreate(2 + 2 * k + numOpNodes, edgeHint);
  if (!net)
    goto nomem;
  /* Of equally small cuts, take the one nearest the backward: it saves the
     latest values and so recomputes the least (an MLP saves relu outputs,
     not the addmm outputs the relu would then be rerun from). */
  acMaxflowPreferSinkSide(net, 1);
#define AC_MC_EDGE(a, b, c)                                                    \
  do {                                                                         \
    if ((st = acMaxflowAddEdge(net, (a), (b), (c))) != AC_OK)                  \
      goto addFailed;                                                          \
  } while (0)
  for (intptr_t v = 0; v < nv; ++v) {
    if (node[v] < 0)
      continue;
    const AcValue *val = &g->values[v];
    int32_t in = 2 + 2 * node[v], out = in + 1;
    AC_MC_EDGE(in, out, acMcValueCap(g, (AcId)v));
    if (val->producer == AC_NONE || acMcBanned(&g->ops[val->producer]))
      AC_MC_EDGE(S, in, AC_CAP_INF);
    if (flags[v] & AC_MC_BWDREAD)
      AC_MC_EDGE(out, T, AC_CAP_INF);
  }
  opNode = (int32_t)(2 + 2 * k);
  for (intptr_t o = 0; o < g->numOps; ++o) {
    const AcOp *op = &g->ops[o];
    if (op->phase != AC_PHASE_FWD)
      continue;
    int32_t nres = 0;
    for (int32_t r = 0; r < op->numResults; ++r)
      nres += (flags[op->firstResult + r] & AC_MC_NEEDED) != 0;
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
#undef AC_MC_EDGE
  assert(opNode == 2 + 2 * k + numOpNodes);

  st = acMaxflowSolve(net, S, T, &flow);
  if (st == AC_ERR_NOMEM)
    goto nomem;
  if (st != AC_OK) {
    st = acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                    "max flow failed: %s", acStatusName(st));
    goto cleanup;
  }
  if (flow >= AC_CAP_INF) {
    st = acMcDiagnose(g, flags, err);
    goto cleanup;
  }

  /* Read off the cut, keeping only what the backward needs: walk back from
     the backward's reads, stopping at saved values and arguments. */
  for (intptr_t v = 0; v < nv; ++v)
    if (flags[v] & AC_MC_BWDREAD)
      flags[v] |= AC_MC_KEEP;
  for (intptr_t v = nv - 1; v >= 0; --v) {
    if (!(flags[v] & AC_MC_KEEP))
      continue;
    const AcValue *val = &g->values[v];
    int32_t in = 2 + 2 * node[v];
    int inSrc = acMaxflowSourceSide(net, in);
    int outSrc = acMaxflowSourceSide(net, in + 1);
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
      st = acErrorSet(err, AC_ERR_INTERNAL, val->producer, (AcId)v,
                      "min cut recomputes op '%s', which must not be "
                      "recomputed", op->name);
      goto cleanup;
    }
    for (int32_t i = 0; i < op->numOperands; ++i)
      flags[acOpOperand(g, val->producer, i)] |= AC_MC_KEEP;
  }
#ifndef NDEBUG
  {
    int64_t savedCap = 0;
    for (intptr_t v = 0; v < nv; ++v) {
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
  goto cleanup;

addFailed:
  if (st == AC_ERR_NOMEM)
    goto nomem;
  st = acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                  "building the flow network failed: %s", acStatusName(st));
  goto cleanup;
tooLarge:
  st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                  "the graph is too large for the min-cut partitioner");
  goto cleanup;
nomem:
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                  "out of memory in the min-cut partitioner");
cleanup:
  if (st != AC_OK)
    memset(saved, 0, (size_t)nv);
  acMaxflowDestroy(net);
  acFree(flags);
  acFree(node);
  return st;
}
