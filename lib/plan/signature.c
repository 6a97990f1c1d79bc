/* signature.c - structural signatures of values (plan_internal.h,
 * acPlanSignatures; docs/planner.md, "Restarts").
 *
 * Repeated layers make repeated values: the same ops on the same shapes,
 * reading the same kinds of values, once per layer.  A value's signature
 * hashes what made it: its producer's name, its result number, its bytes
 * and, AC_PLAN_SIG_DEPTH producers back, the signatures of the producer's
 * operands (arguments by role and bytes only, so each layer's weights look
 * alike; the nodes AC_PLAN_SIG_DEPTH deep by bytes only, so the first
 * layer, which reads an argument where the others read a layer's output,
 * looks alike too once that argument is that far back).  Equal values of a layered model get equal signatures; a value's
 * identity, its position in the program and its layer never enter.  The
 * hash is of the names' text, never of pointers: equal graphs give equal
 * signatures in every run. */
#include "plan_internal.h"

#include <string.h>

static uint64_t acSigMix(uint64_t h, uint64_t x) {
  /* FNV-1a over the 8 bytes of x, then a splitmix finaliser. */
  for (int i = 0; i < 8; ++i) {
    h ^= (x >> (8 * i)) & 0xff;
    h *= 0x100000001b3ull;
  }
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ull;
  return h ^ (h >> 29);
}

static uint64_t acSigName(const char *s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (; s && *s; ++s) {
    h ^= (unsigned char)*s;
    h *= 0x100000001b3ull;
  }
  return h;
}

/* What a value is by itself: the producer's name and arity, the result
 * number and the bytes; an argument, its role and bytes. */
static uint64_t acSigLocal(const AcGraph *g, AcId v, const uint64_t *names) {
  const AcValue *val = &g->values[v];
  uint64_t h = acSigMix(0x9e3779b97f4a7c15ull, (uint64_t)val->logicalBytes);
  if (val->producer == AC_NONE)
    return acSigMix(acSigMix(h, 1), val->role);
  const AcOp *op = &g->ops[val->producer];
  h = acSigMix(h, names[val->producer]);
  h = acSigMix(h, (uint64_t)op->numOperands);
  return acSigMix(h, (uint64_t)val->index);
}

AcStatus acPlanSignatures(const AcGraph *g, uint64_t *sig, AcError *err) {
  intptr_t nv = g->numValues;
  uint64_t *names = acMalloc(((size_t)g->numOps + 1) * sizeof *names);
  uint64_t *local = acMalloc(((size_t)nv + 1) * sizeof *local);
  uint64_t *prev = acMalloc(((size_t)nv + 1) * sizeof *prev);
  AcStatus st = AC_OK;
  if (!names || !local || !prev) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while planning");
    goto cleanup;
  }
  for (AcId o = 0; o < (AcId)g->numOps; ++o)
    names[o] = acSigName(g->ops[o].name);
  /* Level 0, a tree's leaves: bytes only (where a layer reads the
     previous layer's output, the first layer reads an argument of its
     size).  Level k: an argument is itself; a result is its local part and
     its producer's operands' level k - 1, in operand order. */
  for (AcId v = 0; v < (AcId)nv; ++v) {
    local[v] = acSigLocal(g, v, names);
    sig[v] = acSigMix(0x2545f4914f6cdd1dull, (uint64_t)g->values[v].logicalBytes);
  }
  for (int k = 0; k < AC_PLAN_SIG_DEPTH; ++k) {
    memcpy(prev, sig, (size_t)nv * sizeof *sig);
    for (AcId v = 0; v < (AcId)nv; ++v) {
      AcId p = g->values[v].producer;
      uint64_t h = local[v];
      for (int32_t i = 0; p != AC_NONE && i < g->ops[p].numOperands; ++i)
        h = acSigMix(h, prev[acOpOperand(g, p, i)]);
      sig[v] = h;
    }
  }
cleanup:
  acFree(names);
  acFree(local);
  acFree(prev);
  return st;
}
