/* graph_testkit.h - one field-by-field comparison of two graphs, for the
 * tests that check a fast path against a rebuild of the same graph
 * (test_graph's reorderMatchesRebuild, test_import_order). */
#ifndef AUTOAC_TEST_GRAPH_TESTKIT_H
#define AUTOAC_TEST_GRAPH_TESTKIT_H

#include "autoac/graph.h"

#include <stdio.h>
#include <string.h>

/// 0 if `x` and `y` are the same graph field by field: sizes, every op,
/// value, operand, use, return, schedule entry and function (names
/// included).  Otherwise 1, with the first difference described in `msg`.
static int acGraphDiff(const AcGraph *x, const AcGraph *y, char *msg, size_t cap) {
  if (x->numOps != y->numOps || x->numValues != y->numValues ||
      x->numOperands != y->numOperands || x->numUses != y->numUses ||
      x->numFuncs != y->numFuncs || x->numRets != y->numRets ||
      x->numSched != y->numSched)
    return snprintf(msg, cap, "sizes differ"), 1;
  for (intptr_t o = 0; o < x->numOps; ++o) {
    const AcOp *p = &x->ops[o], *q = &y->ops[o];
    if (!(strcmp(p->name, q->name) == 0 && p->func == q->func &&
          p->firstResult == q->firstResult && p->numResults == q->numResults &&
          p->firstOperand == q->firstOperand && p->numOperands == q->numOperands &&
          p->phase == q->phase && p->kind == q->kind &&
          p->recomputable == q->recomputable &&
          p->computeIntensive == q->computeIntensive && p->mustSave == q->mustSave &&
          p->mustRecompute == q->mustRecompute && p->phaseForced == q->phaseForced &&
          p->mutationPinned == q->mutationPinned && p->flops == q->flops &&
          p->bytesMoved == q->bytesMoved && p->seconds == q->seconds &&
          p->dpsInit == q->dpsInit && p->mutates == q->mutates))
      return snprintf(msg, cap, "op %ld ('%s') differs", (long)o, p->name), 1;
  }
  for (intptr_t v = 0; v < x->numValues; ++v) {
    const AcValue *p = &x->values[v], *q = &y->values[v];
    if (!(p->bytes == q->bytes && p->logicalBytes == q->logicalBytes &&
          p->producer == q->producer && p->index == q->index && p->func == q->func &&
          p->aliasRoot == q->aliasRoot && p->firstUse == q->firstUse &&
          p->numUses == q->numUses && p->role == q->role && p->phase == q->phase &&
          p->retFlags == q->retFlags && p->saveCandidate == q->saveCandidate &&
          p->mutableStorage == q->mutableStorage))
      return snprintf(msg, cap,
                      "value %ld differs: bytes %ld/%ld producer %d/%d aliasRoot "
                      "%d/%d uses %d+%d/%d+%d phase %d/%d cand %d/%d",
                      (long)v, (long)p->bytes, (long)q->bytes, p->producer,
                      q->producer, p->aliasRoot, q->aliasRoot, p->firstUse,
                      p->numUses, q->firstUse, q->numUses, p->phase, q->phase,
                      p->saveCandidate, q->saveCandidate),
             1;
  }
  for (intptr_t i = 0; i < x->numOperands; ++i)
    if (x->operands[i] != y->operands[i])
      return snprintf(msg, cap, "operand %ld differs", (long)i), 1;
  for (intptr_t i = 0; i < x->numUses; ++i)
    if (x->uses[i] != y->uses[i])
      return snprintf(msg, cap, "use %ld differs", (long)i), 1;
  for (intptr_t i = 0; i < x->numRets; ++i)
    if (x->rets[i] != y->rets[i] || x->retFlags[i] != y->retFlags[i])
      return snprintf(msg, cap, "return %ld differs", (long)i), 1;
  for (intptr_t i = 0; i < x->numSched; ++i)
    if (!(x->sched[i].func == y->sched[i].func && x->sched[i].phase == y->sched[i].phase &&
          x->sched[i].microbatch == y->sched[i].microbatch &&
          x->sched[i].partner == y->sched[i].partner))
      return snprintf(msg, cap, "schedule entry %ld differs", (long)i), 1;
  for (intptr_t f = 0; f < x->numFuncs; ++f) {
    const AcFunc *p = &x->funcs[f], *q = &y->funcs[f];
    if (!(strcmp(p->name, q->name) == 0 && p->firstOp == q->firstOp &&
          p->numOps == q->numOps && p->firstArg == q->firstArg &&
          p->numArgs == q->numArgs && p->firstRet == q->firstRet &&
          p->numRets == q->numRets))
      return snprintf(msg, cap, "function %ld differs", (long)f), 1;
  }
  return 0;
}

#endif
