/* graph.c - the joint graph: builder, phase inference, save candidates. */
#include "autoac/graph.h"

#include <inttypes.h>

#include <assert.h>
#include <string.h>

/* Room for one more element in `ptr`, which holds `n` (acArrayGrow). */
#define AC_GROW(ptr, n, cap)                                                   \
  acArrayGrow((void **)&(ptr), &(cap), (n) + 1, sizeof(*(ptr)))

struct AcGraphBuilder {
  AcGraph *g;                    /* graph being built (arrays grow in place) */
  intptr_t capOps, capValues, capOperands, capFuncs, capRets, capRetFlags,
      capSched, capStrings;
  intptr_t *nameOffsets;         /* per op: offset of its name in strings */
  intptr_t capNameOffsets;
  intptr_t *nameSlots;           /* names in the pool, each once: open
                                    addressing, offset + 1 (0: empty) */
  intptr_t capNameSlots, numNames;
  AcId *aliasOf;                 /* per value: direct alias target or AC_NONE */
  intptr_t capAliasOf;
  int8_t *forced;                /* per op: forced phase or -1 */
  intptr_t capForced;
  AcId *writeOp, *writeVal;      /* every (op, value) write recorded by
                                    acGraphBuilderSetMutates */
  intptr_t numWrites, capWriteOp, capWriteVal;
  int failed;                    /* an allocation failed: Finish reports it */
};

AcGraphBuilder *acGraphBuilderCreate(void) {
  AcGraphBuilder *b = acCalloc(1, sizeof *b);
  if (!b)
    return NULL;
  b->g = acCalloc(1, sizeof *b->g);
  if (!b->g) {
    acFree(b);
    return NULL;
  }
  return b;
}

void acGraphDestroy(AcGraph *g) {
  if (!g)
    return;
  for (intptr_t f = 0; f < g->numFuncs; ++f)
    acFree(g->funcs[f].name);
  acFree(g->ops);
  acFree(g->values);
  acFree(g->operands);
  acFree(g->uses);
  acFree(g->funcs);
  acFree(g->rets);
  acFree(g->retFlags);
  acFree(g->sched);
  acFree(g->strings);
  acFree(g);
}

void acGraphBuilderDestroy(AcGraphBuilder *b) {
  if (!b)
    return;
  acGraphDestroy(b->g);
  acFree(b->nameOffsets);
  acFree(b->nameSlots);
  acFree(b->aliasOf);
  acFree(b->forced);
  acFree(b->writeOp);
  acFree(b->writeVal);
  acFree(b);
}

void acGraphBuilderReserve(AcGraphBuilder *b, intptr_t ops, intptr_t values,
                           intptr_t operands) {
  AcGraph *g = b->g;
  if (b->failed)
    return;
  /* Failing here is harmless: the Add calls grow (and fail) as before. */
  if (ops > 0)
    (void)(acArrayGrow((void **)&g->ops, &b->capOps, g->numOps + ops, sizeof *g->ops) &&
           acArrayGrow((void **)&b->nameOffsets, &b->capNameOffsets, g->numOps + ops,
                       sizeof *b->nameOffsets) &&
           acArrayGrow((void **)&b->forced, &b->capForced, g->numOps + ops,
                       sizeof *b->forced));
  if (values > 0)
    (void)(acArrayGrow((void **)&g->values, &b->capValues, g->numValues + values,
                       sizeof *g->values) &&
           acArrayGrow((void **)&b->aliasOf, &b->capAliasOf, g->numValues + values,
                       sizeof *b->aliasOf));
  if (operands > 0)
    (void)acArrayGrow((void **)&g->operands, &b->capOperands, g->numOperands + operands,
                      sizeof *g->operands);
}

AcId acGraphBuilderAddFunc(AcGraphBuilder *b, const char *name) {
  AcGraph *g = b->g;
  char *copy = acStrdup(name);
  if (!copy || !AC_GROW(g->funcs, g->numFuncs, b->capFuncs)) {
    acFree(copy);
    b->failed = 1;
    return AC_NONE;
  }
  AcFunc *f = &g->funcs[g->numFuncs];
  memset(f, 0, sizeof *f);
  f->name = copy;
  f->firstOp = (AcId)g->numOps;
  f->firstArg = (AcId)g->numValues;
  f->firstRet = (int32_t)g->numRets;
  return (AcId)g->numFuncs++;
}

static AcId acAddValue(AcGraphBuilder *b, AcRole role, int64_t bytes,
                       AcId producer, int32_t index) {
  AcGraph *g = b->g;
  if (!AC_GROW(g->values, g->numValues, b->capValues) ||
      !AC_GROW(b->aliasOf, g->numValues, b->capAliasOf)) {
    b->failed = 1;
    return AC_NONE;
  }
  AcId id = (AcId)g->numValues++;
  AcValue *v = &g->values[id];
  memset(v, 0, sizeof *v);
  v->bytes = bytes;
  v->logicalBytes = bytes;
  v->producer = producer;
  v->index = index;
  v->func = (AcId)(g->numFuncs - 1);
  v->aliasRoot = id;
  v->role = (uint8_t)role;
  v->phase = role == AC_ROLE_TANGENT ? AC_PHASE_BWD : AC_PHASE_FWD;
  b->aliasOf[id] = AC_NONE;
  return id;
}

AcId acGraphBuilderAddArg(AcGraphBuilder *b, AcRole role, int64_t bytes) {
  AcGraph *g = b->g;
  assert(role != AC_ROLE_RESULT);
  if (b->failed || g->numFuncs == 0) {
    b->failed = 1;
    return AC_NONE;
  }
  AcFunc *f = &g->funcs[g->numFuncs - 1];
  assert(f->numOps == 0 && "arguments come before ops");
  AcId id = acAddValue(b, role, bytes, AC_NONE, f->numArgs);
  if (id != AC_NONE)
    f->numArgs++;
  return id;
}

/* FNV-1a of the NUL-terminated `s`; its length in `*len`. */
static uint64_t acNameHash(const char *s, size_t *len) {
  uint64_t h = 0xcbf29ce484222325ULL;
  const char *p = s;
  for (; *p; ++p)
    h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
  *len = (size_t)(p - s);
  return h;
}

/* The offset of `name` (`len` bytes, hash `h`) in the string pool, added
 * there the first time: a graph's ops share a few dozen names, so the pool
 * holds each once.  -1 when out of memory. */
static intptr_t acInternName(AcGraphBuilder *b, const char *name, size_t len,
                             uint64_t h) {
  AcGraph *g = b->g;
  if ((b->numNames + 1) * 2 > b->capNameSlots) {
    intptr_t ncap = b->capNameSlots ? b->capNameSlots * 2 : 64;
    intptr_t *slots = acCalloc((size_t)ncap, sizeof *slots);
    if (!slots)
      return -1;
    for (intptr_t i = 0; i < b->capNameSlots; ++i) {
      if (!b->nameSlots[i])
        continue;
      size_t n;
      intptr_t at = (intptr_t)(acNameHash(g->strings + b->nameSlots[i] - 1, &n) &
                               (uint64_t)(ncap - 1));
      while (slots[at])
        at = (at + 1) & (ncap - 1);
      slots[at] = b->nameSlots[i];
    }
    acFree(b->nameSlots);
    b->nameSlots = slots;
    b->capNameSlots = ncap;
  }
  intptr_t at = (intptr_t)(h & (uint64_t)(b->capNameSlots - 1));
  /* strcmp, not memcmp of len + 1 bytes: a pooled name may be shorter and
   * end the pool, and memcmp may read all len + 1 bytes. */
  for (; b->nameSlots[at]; at = (at + 1) & (b->capNameSlots - 1))
    if (strcmp(g->strings + b->nameSlots[at] - 1, name) == 0)
      return b->nameSlots[at] - 1;
  if (!acArrayGrow((void **)&g->strings, &b->capStrings,
                   g->stringsSize + (intptr_t)len + 1, 1))
    return -1;
  intptr_t off = g->stringsSize;
  memcpy(g->strings + off, name, len + 1);
  g->stringsSize += (intptr_t)len + 1;
  b->nameSlots[at] = off + 1;
  b->numNames++;
  return off;
}

AcId acGraphBuilderAddOp(AcGraphBuilder *b, const char *name,
                         const AcId *operands, int32_t numOperands,
                         int32_t numResults, const int64_t *resultBytes) {
  AcGraph *g = b->g;
  if (b->failed || g->numFuncs == 0) {
    b->failed = 1;
    return AC_NONE;
  }
  size_t len;
  uint64_t h = acNameHash(name, &len);
  intptr_t nameAt;
  if (!AC_GROW(g->ops, g->numOps, b->capOps) ||
      !AC_GROW(b->nameOffsets, g->numOps, b->capNameOffsets) ||
      !AC_GROW(b->forced, g->numOps, b->capForced) ||
      !acArrayGrow((void **)&g->operands, &b->capOperands,
              g->numOperands + numOperands, sizeof(AcId)) ||
      (nameAt = acInternName(b, name, len, h)) < 0) {
    b->failed = 1;
    return AC_NONE;
  }
  AcId id = (AcId)g->numOps;
  AcOp *op = &g->ops[id];
  memset(op, 0, sizeof *op);
  op->dpsInit = AC_NONE;
  op->mutates = AC_NONE;
  op->func = (AcId)(g->numFuncs - 1);
  op->firstOperand = (int32_t)g->numOperands;
  op->numOperands = numOperands;
  for (int32_t i = 0; i < numOperands; ++i) {
    assert(operands[i] >= 0 && operands[i] < g->numValues);
    g->operands[g->numOperands++] = operands[i];
  }
  b->nameOffsets[id] = nameAt;
  b->forced[id] = -1;
  g->numOps++;
  g->funcs[g->numFuncs - 1].numOps++;
  op->firstResult = (AcId)g->numValues;
  for (int32_t r = 0; r < numResults; ++r) {
    if (acAddValue(b, AC_ROLE_RESULT, resultBytes ? resultBytes[r] : 0, id,
                   r) == AC_NONE)
      return AC_NONE;
    op->numResults++;
  }
  return id;
}

AcOp *acGraphBuilderOp(AcGraphBuilder *b, AcId op) {
  assert(op >= 0 && op < b->g->numOps);
  return &b->g->ops[op];
}

void acGraphBuilderSetAlias(AcGraphBuilder *b, AcId resultValue, AcId aliasOf) {
  assert(aliasOf < resultValue);
  b->aliasOf[resultValue] = aliasOf;
  b->g->values[resultValue].bytes = 0;
}

void acGraphBuilderSetLogicalBytes(AcGraphBuilder *b, AcId value, int64_t bytes) {
  b->g->values[value].logicalBytes = bytes;
}

void acGraphBuilderForcePhase(AcGraphBuilder *b, AcId op, AcPhase phase) {
  b->forced[op] = (int8_t)phase;
}

AcStatus acGraphBuilderAddRet(AcGraphBuilder *b, AcId value, uint8_t flags) {
  AcGraph *g = b->g;
  if (b->failed || g->numFuncs == 0 || value < 0 || value >= g->numValues) {
    b->failed = 1;
    return AC_ERR_NOMEM;
  }
  if (!AC_GROW(g->rets, g->numRets, b->capRets) ||
      !AC_GROW(g->retFlags, g->numRets, b->capRetFlags)) {
    b->failed = 1;
    return AC_ERR_NOMEM;
  }
  g->rets[g->numRets] = value;
  g->retFlags[g->numRets] = flags;
  g->numRets++;
  g->funcs[g->numFuncs - 1].numRets++;
  return AC_OK;
}

AcStatus acGraphBuilderAddSched(AcGraphBuilder *b, AcId func, AcPhase phase,
                                int32_t microbatch) {
  AcGraph *g = b->g;
  if (!AC_GROW(g->sched, g->numSched, b->capSched)) {
    b->failed = 1;
    return AC_ERR_NOMEM;
  }
  AcSchedEntry *e = &g->sched[g->numSched++];
  e->func = func;
  e->phase = (uint8_t)phase;
  e->microbatch = microbatch;
  return AC_OK;
}

/* Whether op `op` matters beyond its results. */
static int acOpHasEffects(const AcOp *op) {
  return op->numResults == 0 || op->mutates != AC_NONE ||
         op->kind == AC_KIND_INPLACE || op->kind == AC_KIND_UNKNOWN;
}

/* Whether op `op` is live: it has effects or a result is needed. */
static int acOpLive(const AcOp *op, const uint8_t *valueNeeded) {
  if (acOpHasEffects(op))
    return 1;
  for (int32_t r = 0; r < op->numResults; ++r)
    if (valueNeeded[op->firstResult + r])
      return 1;
  return 0;
}

/* Program order of writes (docs/contract.md, mutation): a write to a
 * storage root is ordered after every earlier access of that storage (read,
 * view, write) and before every later one, as if those were data edges.
 * `first`/`roots` list, per op, the roots it writes (CSR); `written` marks
 * roots written by some op; `flags` is per-root scratch (bits below, whose
 * meaning depends on the pass), cleared after each pass. */
typedef struct AcWriteOrder {
  int32_t *first;   /* [numOps + 1] */
  AcId *roots;      /* [numWrites] */
  uint8_t *written; /* [numValues] */
  uint8_t *flags;   /* [numValues] */
  int any;          /* some op writes */
} AcWriteOrder;

enum { AC_ORD_ACC = 1, AC_ORD_WR = 2 };

/* OR of the flags of the written roots op `o` reads or makes a value of. */
static uint8_t acAccessFlags(const AcGraph *g, const AcWriteOrder *w, AcId o) {
  const AcOp *op = &g->ops[o];
  uint8_t f = 0;
  for (int32_t i = 0; i < op->numOperands; ++i) {
    AcId r = g->values[acOpOperand(g, o, i)].aliasRoot;
    if (w->written[r])
      f |= w->flags[r];
  }
  for (int32_t i = 0; i < op->numResults; ++i) {
    AcId r = g->values[op->firstResult + i].aliasRoot;
    if (w->written[r])
      f |= w->flags[r];
  }
  return f;
}

/* OR of the flags of the roots op `o` writes. */
static uint8_t acWriteFlags(const AcWriteOrder *w, AcId o) {
  uint8_t f = 0;
  for (int32_t k = w->first[o]; k < w->first[o + 1]; ++k)
    f |= w->flags[w->roots[k]];
  return f;
}

/* Sets `access` on the written roots op `o` accesses, and `write` too on
 * the roots it writes. */
static void acMarkOrder(const AcGraph *g, AcWriteOrder *w, AcId o,
                        uint8_t access, uint8_t write) {
  const AcOp *op = &g->ops[o];
  for (int32_t i = 0; i < op->numOperands; ++i) {
    AcId r = g->values[acOpOperand(g, o, i)].aliasRoot;
    if (w->written[r])
      w->flags[r] |= access;
  }
  for (int32_t i = 0; i < op->numResults; ++i) {
    AcId r = g->values[op->firstResult + i].aliasRoot;
    if (w->written[r])
      w->flags[r] |= access;
  }
  for (int32_t k = w->first[o]; k < w->first[o + 1]; ++k)
    w->flags[w->roots[k]] |= (uint8_t)(access | write);
}

/* Clears the flags of the roots function `f`'s ops and returns access. */
static void acClearOrder(const AcGraph *g, AcWriteOrder *w, AcId f) {
  const AcFunc *fn = &g->funcs[f];
  for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o) {
    const AcOp *op = &g->ops[o];
    for (int32_t i = 0; i < op->numOperands; ++i)
      w->flags[g->values[acOpOperand(g, o, i)].aliasRoot] = 0;
    for (int32_t i = 0; i < op->numResults; ++i)
      w->flags[g->values[op->firstResult + i].aliasRoot] = 0;
  }
  for (int32_t r = 0; r < fn->numRets; ++r)
    w->flags[g->values[g->rets[fn->firstRet + r]].aliasRoot] = 0;
}

/* tangentDep[o]: o depends on a tangent, through data or through the
 * program order of a write (an access after a tangent-dependent write, a
 * write after a tangent-dependent access). */
static void acTangentDeps(const AcGraph *g, AcWriteOrder *w, AcId f,
                          uint8_t *tangentDep) {
  const AcFunc *fn = &g->funcs[f];
  AcId end = fn->firstOp + fn->numOps;
  for (AcId o = fn->firstOp; o < end; ++o) {
    const AcOp *op = &g->ops[o];
    uint8_t dep = 0;
    for (int32_t i = 0; i < op->numOperands && !dep; ++i) {
      const AcValue *v = &g->values[acOpOperand(g, o, i)];
      dep = v->role == AC_ROLE_TANGENT ||
            (v->producer != AC_NONE && tangentDep[v->producer]);
    }
    if (!dep && w->any)
      dep = (acAccessFlags(g, w, o) & AC_ORD_WR) ||
            (acWriteFlags(w, o) & AC_ORD_ACC);
    tangentDep[o] = dep;
    if (dep && w->any)
      acMarkOrder(g, w, o, AC_ORD_ACC, AC_ORD_WR);
  }
  if (w->any)
    acClearOrder(g, w, f);
}

/* feedsOut[o]: a forward output depends on o, through data or through the
 * program order of a write (a write before a needed access, an access
 * before a needed write; a forward output reads its storage at the end).
 * Leaves valueNeeded set for the values forward outputs depend on. */
static void acFeedsOut(const AcGraph *g, AcWriteOrder *w, AcId f,
                       uint8_t *feedsOut, uint8_t *valueNeeded) {
  const AcFunc *fn = &g->funcs[f];
  AcId end = fn->firstOp + fn->numOps;
  for (int32_t r = 0; r < fn->numRets; ++r)
    if (g->retFlags[fn->firstRet + r] & AC_RET_OUTPUT) {
      AcId v = g->rets[fn->firstRet + r];
      valueNeeded[v] = 1;
      if (w->written[g->values[v].aliasRoot])
        w->flags[g->values[v].aliasRoot] |= AC_ORD_ACC;
    }
  for (AcId o = end - 1; o >= fn->firstOp; --o) {
    const AcOp *op = &g->ops[o];
    uint8_t need = 0;
    for (int32_t r = 0; r < op->numResults && !need; ++r)
      need = valueNeeded[op->firstResult + r];
    if (!need && w->any)
      need = (acWriteFlags(w, o) & AC_ORD_ACC) ||
             (acAccessFlags(g, w, o) & AC_ORD_WR);
    feedsOut[o] = need;
    if (!need)
      continue;
    for (int32_t i = 0; i < op->numOperands; ++i)
      valueNeeded[acOpOperand(g, o, i)] = 1;
    if (w->any)
      acMarkOrder(g, w, o, AC_ORD_ACC, AC_ORD_WR);
  }
  if (w->any)
    acClearOrder(g, w, f);
}

/* The phase of op `o` from the inference (not forced); `w`'s flags hold
 * the backward accesses (AC_ORD_ACC) and writes (AC_ORD_WR) before o. */
static uint8_t acInferredPhase(const AcGraph *g, const AcWriteOrder *w, AcId o,
                               const uint8_t *tangentDep,
                               const uint8_t *feedsOut,
                               const uint8_t *valueNeeded) {
  const AcOp *op = &g->ops[o];
  if (feedsOut[o] && !tangentDep[o])
    return AC_PHASE_FWD;
  if (acOpLive(op, valueNeeded) || tangentDep[o])
    return AC_PHASE_BWD;
  /* Dead: forward when it reads only forward values and no backward write
     of its storage comes before it. */
  for (int32_t i = 0; i < op->numOperands; ++i)
    if (g->values[acOpOperand(g, o, i)].phase != AC_PHASE_FWD)
      return AC_PHASE_BWD;
  if (w->any && (acAccessFlags(g, w, o) & AC_ORD_WR))
    return AC_PHASE_BWD;
  return AC_PHASE_FWD;
}

/* A forward op must not access storage after a backward op wrote it, nor
 * write storage a backward op accessed before it (forced phases only can
 * cause this: the inference orders writes). */
static AcStatus acCheckWriteOrder(const AcGraph *g, const AcWriteOrder *w,
                                  AcId o, AcError *err) {
  const AcOp *op = &g->ops[o];
  if (acAccessFlags(g, w, o) & AC_ORD_WR)
    return acErrorSet(err, AC_ERR_INVALID, o, AC_NONE,
                      "forward op '%s' accesses storage that a backward op "
                      "writes before it in program order%s", op->name,
                      op->phaseForced ? " (it is marked ac.phase = \"fwd\")"
                                      : " (check the ac.phase markers)");
  if (acWriteFlags(w, o) & AC_ORD_ACC)
    return acErrorSet(err, AC_ERR_INVALID, o, AC_NONE,
                      "forward op '%s' writes storage that a backward op "
                      "accesses before it in program order%s", op->name,
                      op->phaseForced ? " (it is marked ac.phase = \"fwd\")"
                                      : " (check the ac.phase markers)");
  return AC_OK;
}

/* Phase inference for function f (see graph.h).  Scratch arrays are per op. */
static AcStatus acInferPhases(AcGraphBuilder *b, AcId f, AcWriteOrder *w,
                              uint8_t *tangentDep, uint8_t *feedsOut,
                              uint8_t *valueNeeded, AcError *err) {
  AcGraph *g = b->g;
  const AcFunc *fn = &g->funcs[f];
  AcId end = fn->firstOp + fn->numOps;
  acTangentDeps(g, w, f, tangentDep);
  acFeedsOut(g, w, f, feedsOut, valueNeeded);
  /* Liveness, reusing valueNeeded: a value is needed when it is returned
     or read by a live op; an op is live when a result is needed or it has
     effects (writes in place, has no results).  A dead op (torch's unused
     empty_like, a constant nobody reads) whose operands are all forward
     values is placed in the forward: in the backward it would read forward
     values for nothing and make them look needed there. */
  for (AcId o = fn->firstOp; o < end; ++o)
    for (int32_t r = 0; r < g->ops[o].numResults; ++r)
      valueNeeded[g->ops[o].firstResult + r] = 0;
  for (int32_t r = 0; r < fn->numRets; ++r)
    valueNeeded[g->rets[fn->firstRet + r]] = 1;
  for (AcId o = end - 1; o >= fn->firstOp; --o) {
    const AcOp *op = &g->ops[o];
    if (acOpLive(op, valueNeeded))
      for (int32_t i = 0; i < op->numOperands; ++i)
        valueNeeded[acOpOperand(g, o, i)] = 1;
  }
  AcStatus st = AC_OK;
  for (AcId o = fn->firstOp; o < end && st == AC_OK; ++o) {
    AcOp *op = &g->ops[o];
    if (b->forced[o] >= 0) {
      op->phase = (uint8_t)b->forced[o];
      op->phaseForced = 1;
      if (op->phase == AC_PHASE_FWD && tangentDep[o] &&
          !(w->any && (acAccessFlags(g, w, o) & AC_ORD_WR ||
                       acWriteFlags(w, o) & AC_ORD_ACC)))
        st = acErrorSet(err, AC_ERR_INVALID, o, AC_NONE,
                        "op '%s' is marked ac.phase = \"fwd\" but depends "
                        "on a tangent", g->strings ? op->name : "?");
    } else {
      op->phase = acInferredPhase(g, w, o, tangentDep, feedsOut, valueNeeded);
    }
    if (st == AC_OK && w->any && op->phase == AC_PHASE_FWD)
      st = acCheckWriteOrder(g, w, o, err);
    if (w->any && op->phase == AC_PHASE_BWD)
      acMarkOrder(g, w, o, AC_ORD_ACC, AC_ORD_WR);
    for (int32_t r = 0; r < op->numResults; ++r)
      g->values[op->firstResult + r].phase = op->phase;
  }
  if (w->any)
    acClearOrder(g, w, f);
  if (st != AC_OK)
    return st;
  /* A forward op may read only forward values. */
  for (AcId o = fn->firstOp; o < end; ++o) {
    const AcOp *op = &g->ops[o];
    if (op->phase != AC_PHASE_FWD)
      continue;
    for (int32_t i = 0; i < op->numOperands; ++i) {
      const AcValue *v = &g->values[acOpOperand(g, o, i)];
      if (v->phase == AC_PHASE_BWD)
        return acErrorSet(
            err, AC_ERR_INVALID, o, acOpOperand(g, o, i),
            "forward op '%s' reads a backward value%s", op->name,
            v->producer != AC_NONE && g->ops[v->producer].phaseForced
                ? " (its producer is marked ac.phase = \"bwd\")"
                : " (check the ac.phase markers)");
    }
  }
  return AC_OK;
}

static AcStatus acCheckSchedule(AcGraph *g, AcError *err) {
  /* Every (func, microbatch) needs exactly one fwd then one bwd, each the
     other's partner; every function appears. */
  for (intptr_t i = 0; i < g->numSched; ++i) {
    AcSchedEntry *e = &g->sched[i];
    intptr_t fwdAt = -1, bwdAt = -1;
    for (intptr_t j = 0; j < g->numSched; ++j) {
      const AcSchedEntry *o = &g->sched[j];
      if (o->func != e->func || o->microbatch != e->microbatch)
        continue;
      intptr_t *slot = o->phase == AC_PHASE_FWD ? &fwdAt : &bwdAt;
      if (*slot >= 0)
        return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                          "ac.schedule lists \"%s.%s@%d\" twice",
                          g->funcs[e->func].name,
                          o->phase == AC_PHASE_FWD ? "fwd" : "bwd",
                          (int)e->microbatch);
      *slot = j;
    }
    if (fwdAt < 0 || bwdAt < 0)
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "ac.schedule has no \"%s.%s\" for microbatch %d",
                        g->funcs[e->func].name, fwdAt < 0 ? "fwd" : "bwd",
                        (int)e->microbatch);
    if (bwdAt < fwdAt)
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "ac.schedule runs \"%s.bwd\" before \"%s.fwd\"",
                        g->funcs[e->func].name, g->funcs[e->func].name);
    e->partner = (int32_t)(e->phase == AC_PHASE_FWD ? bwdAt : fwdAt);
  }
  for (intptr_t f = 0; f < g->numFuncs; ++f) {
    int seen = 0;
    for (intptr_t i = 0; i < g->numSched && !seen; ++i)
      seen = g->sched[i].func == f;
    if (!seen)
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "ac.schedule does not mention joint function \"%s\"",
                        g->funcs[f].name);
  }
  return AC_OK;
}

/* Every byte count the simulator adds stays below 2^63: each value and
 * each op's workspace is in [0, AC_MAX_BYTES], and the values of every
 * scheduled phase together with its function's largest workspace (a bound
 * on what can be live at once, recompute copies included: each phase entry
 * counts its function's values once more) are at most AC_MAX_BYTES. */
static AcStatus acCheckBytes(const AcGraph *g, AcError *err) {
  AcStatus st = AC_OK;
  int64_t total = 0;
  int64_t *fnBytes = acCalloc(2 * ((size_t)g->numFuncs + 1), sizeof *fnBytes);
  if (!fnBytes)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                      "out of memory while building the graph");
  int64_t *wsMax = fnBytes + g->numFuncs + 1;
  for (intptr_t v = 0; v < g->numValues && st == AC_OK; ++v) {
    const AcValue *val = &g->values[v];
    int64_t bad = val->bytes < 0 || val->bytes > AC_MAX_BYTES ? val->bytes
                  : val->logicalBytes < 0 || val->logicalBytes > AC_MAX_BYTES
                      ? val->logicalBytes : 0;
    if (bad)
      st = acErrorSet(err, AC_ERR_INVALID, val->producer, (AcId)v,
                      "%s #%d of '@%s' has %" PRId64 " bytes, outside what "
                      "autoac can count (0 to 2^62 - 1)",
                      val->producer == AC_NONE ? "argument" : "result",
                      (int)val->index, g->funcs[val->func].name, bad);
    else if (fnBytes[val->func] <= AC_MAX_BYTES)
      fnBytes[val->func] += val->bytes;   /* both terms <= 2^62 - 1 */
  }
  /* An op's workspace is live only while it runs: each function's largest
     is added to its values. */
  for (intptr_t o = 0; o < g->numOps && st == AC_OK; ++o) {
    const AcOp *op = &g->ops[o];
    if (op->workspace < 0 || op->workspace > AC_MAX_BYTES)
      st = acErrorSet(err, AC_ERR_INVALID, (AcId)o, AC_NONE,
                      "the workspace of '%s' in '@%s' (%" PRId64 " bytes) is "
                      "outside what autoac can count (0 to 2^62 - 1)",
                      op->name, g->funcs[op->func].name, op->workspace);
    else if (op->workspace > wsMax[op->func])
      wsMax[op->func] = op->workspace;
  }
  for (intptr_t f = 0; f < g->numFuncs && st == AC_OK; ++f)
    if (fnBytes[f] <= AC_MAX_BYTES)
      fnBytes[f] += wsMax[f];
  for (intptr_t s = 0; s < g->numSched && st == AC_OK; ++s) {
    AcId f = g->sched[s].func;
    if (fnBytes[f] > AC_MAX_BYTES || (total += fnBytes[f]) > AC_MAX_BYTES)
      st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "the tensors of '@%s' over its schedule add up to more "
                      "than 2^62 - 1 bytes, the most autoac can count",
                      g->funcs[f].name);
  }
  acFree(fnBytes);
  return st;
}

void acGraphBuilderSetMutates(AcGraphBuilder *b, AcId op, AcId value) {
  if (b->failed || op < 0 || op >= b->g->numOps || value < 0 ||
      value >= b->g->numValues)
    return;
  if (b->g->ops[op].mutates == AC_NONE)
    b->g->ops[op].mutates = value;
  if (!AC_GROW(b->writeOp, b->numWrites, b->capWriteOp) ||
      !AC_GROW(b->writeVal, b->numWrites, b->capWriteVal)) {
    b->failed = 1;
    return;
  }
  b->writeOp[b->numWrites] = op;
  b->writeVal[b->numWrites++] = value;
}

void acGraphBuilderSetMutable(AcGraphBuilder *b, AcId value) {
  if (b->failed || value < 0 || value >= b->g->numValues)
    return;
  b->g->values[value].mutableStorage = 1;
}

/* Pins (never recomputes) every op that reads or produces a value of a
 * storage that is written in place (`written`, per root), or that has
 * reference semantics: a recompute in the backward would read the storage
 * after the write.  Uses `mark` ([numValues], zeroed) as scratch. */
static void acPinMutated(AcGraph *g, const uint8_t *written, uint8_t *mark) {
  int any = 0;
  for (intptr_t v = 0; v < g->numValues; ++v)
    if (written[v] || g->values[v].mutableStorage) {
      mark[g->values[v].aliasRoot] = 1;
      any = 1;
    }
  if (!any)
    return;
  for (intptr_t o = 0; o < g->numOps; ++o) {
    AcOp *op = &g->ops[o];
    int pin = 0;
    for (int32_t i = 0; i < op->numOperands && !pin; ++i)
      pin = mark[g->values[acOpOperand(g, (AcId)o, i)].aliasRoot];
    for (int32_t r = 0; r < op->numResults && !pin; ++r)
      pin = mark[g->values[op->firstResult + r].aliasRoot];
    if (pin && op->recomputable) {
      op->recomputable = 0;
      op->mutationPinned = 1;   /* the rule changed it (see graph.h) */
    }
  }
}

/* Fills `w` from the builder's writes: per op the roots it writes (CSR).
 * Alias roots must be set.  AC_ERR_NOMEM leaves the rest to the caller. */
static AcStatus acWriteOrderInit(const AcGraphBuilder *b, AcWriteOrder *w) {
  const AcGraph *g = b->g;
  w->first = acCalloc((size_t)g->numOps + 2, sizeof *w->first);
  w->roots = acMalloc(((size_t)b->numWrites + 1) * sizeof *w->roots);
  w->written = acCalloc((size_t)g->numValues + 1, 1);
  w->flags = acCalloc((size_t)g->numValues + 1, 1);
  if (!w->first || !w->roots || !w->written || !w->flags)
    return AC_ERR_NOMEM;
  for (intptr_t k = 0; k < b->numWrites; ++k)
    w->first[b->writeOp[k] + 1]++;
  for (intptr_t o = 0; o < g->numOps; ++o)
    w->first[o + 1] += w->first[o];
  int32_t *cursor = acCalloc((size_t)g->numOps + 1, sizeof *cursor);
  if (!cursor)
    return AC_ERR_NOMEM;
  for (intptr_t k = 0; k < b->numWrites; ++k) {
    AcId o = b->writeOp[k], root = g->values[b->writeVal[k]].aliasRoot;
    w->roots[w->first[o] + cursor[o]++] = root;
    w->written[root] = 1;
  }
  acFree(cursor);
  w->any = b->numWrites > 0;
  return AC_OK;
}

static void acWriteOrderClear(AcWriteOrder *w) {
  acFree(w->first);
  acFree(w->roots);
  acFree(w->written);
  acFree(w->flags);
}

/* Use lists in CSR form (graph.h): the distinct ops reading each value,
 * ascending, into g->uses (room for numOperands) and each value's
 * firstUse/numUses, which must be 0.  `count` ([numValues], zeroed) is
 * scratch.  Linear in operands: count[v] holds the last op (+1) counted as
 * a user of v, so an op reading v twice counts once (a value with many
 * users, or an op with many operands, is not quadratic). */
static void acBuildUses(AcGraph *g, int32_t *count) {
  for (intptr_t o = 0; o < g->numOps; ++o) {
    const AcOp *op = &g->ops[o];
    for (int32_t i = 0; i < op->numOperands; ++i) {
      AcId v = acOpOperand(g, (AcId)o, i);
      if (count[v] == (int32_t)o + 1)
        continue;
      count[v] = (int32_t)o + 1;
      g->values[v].numUses++;
    }
  }
  int32_t at = 0;
  for (intptr_t v = 0; v < g->numValues; ++v) {
    g->values[v].firstUse = at;
    at += g->values[v].numUses;
    count[v] = 0;
  }
  g->numUses = at;
  for (intptr_t o = 0; o < g->numOps; ++o) {
    const AcOp *op = &g->ops[o];
    for (int32_t i = 0; i < op->numOperands; ++i) {
      AcId v = acOpOperand(g, (AcId)o, i);
      AcValue *val = &g->values[v];
      /* Ops come in ascending order: a repeat can only be the last entry. */
      if (count[v] > 0 && g->uses[val->firstUse + count[v] - 1] == (AcId)o)
        continue;
      g->uses[val->firstUse + count[v]++] = (AcId)o;
    }
  }
}

AcStatus acGraphBuilderFinish(AcGraphBuilder *b, AcGraph **out, AcError *err) {
  AcGraph *g = b->g;
  AcStatus st = AC_OK;
  uint8_t *tangentDep = NULL, *feedsOut = NULL, *valueNeeded = NULL;
  int32_t *count = NULL;
  AcWriteOrder order;
  memset(&order, 0, sizeof order);
  *out = NULL;
  if (b->failed)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                      "out of memory while building the graph");
  /* Resolve op names into the final string pool. */
  for (intptr_t o = 0; o < g->numOps; ++o)
    g->ops[o].name = g->strings + b->nameOffsets[o];
  /* Alias roots: alias targets precede their views. */
  for (intptr_t v = 0; v < g->numValues; ++v) {
    AcId a = b->aliasOf[v];
    g->values[v].aliasRoot = a == AC_NONE ? (AcId)v : g->values[a].aliasRoot;
  }
  for (intptr_t r = 0; r < g->numRets; ++r)
    g->values[g->rets[r]].retFlags |= g->retFlags[r];
  count = acCalloc((size_t)g->numValues + 1, sizeof *count);
  g->uses = acMalloc(((size_t)g->numOperands + 1) * sizeof *g->uses);
  tangentDep = acCalloc((size_t)g->numOps + 1, 1);
  feedsOut = acCalloc((size_t)g->numOps + 1, 1);
  valueNeeded = acCalloc((size_t)g->numValues + 1, 1);
  if (!count || !g->uses || !tangentDep || !feedsOut || !valueNeeded) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while building the graph");
    goto cleanup;
  }
  acBuildUses(g, count);
  if (acWriteOrderInit(b, &order) != AC_OK)
    goto nomem;
  for (intptr_t f = 0; f < g->numFuncs; ++f) {
    st = acInferPhases(b, (AcId)f, &order, tangentDep, feedsOut, valueNeeded,
                       err);
    if (st != AC_OK)
      goto cleanup;
  }
  memset(valueNeeded, 0, (size_t)g->numValues + 1);
  acPinMutated(g, order.written, valueNeeded);
  /* Save candidates: forward results read by backward ops; a candidate
     view makes its storage root a candidate too. */
  for (intptr_t v = 0; v < g->numValues; ++v) {
    AcValue *val = &g->values[v];
    if (val->role != AC_ROLE_RESULT || val->phase != AC_PHASE_FWD)
      continue;
    for (int32_t u = 0; u < val->numUses; ++u)
      if (g->ops[acValueUse(g, (AcId)v, u)].phase == AC_PHASE_BWD) {
        val->saveCandidate = 1;
        break;
      }
    if (val->saveCandidate) {
      AcValue *root = &g->values[val->aliasRoot];
      if (root->role == AC_ROLE_RESULT)
        root->saveCandidate = 1;
    }
  }
  if (g->numSched == 0) {
    for (intptr_t f = 0; f < g->numFuncs; ++f)
      if ((st = acGraphBuilderAddSched(b, (AcId)f, AC_PHASE_FWD, 0)) != AC_OK)
        goto nomem;
    for (intptr_t f = g->numFuncs - 1; f >= 0; --f)
      if ((st = acGraphBuilderAddSched(b, (AcId)f, AC_PHASE_BWD, 0)) != AC_OK)
        goto nomem;
  }
  st = acCheckSchedule(g, err);
  if (st != AC_OK)
    goto cleanup;
  if ((st = acCheckBytes(g, err)) != AC_OK)
    goto cleanup;
  *out = g;
  b->g = NULL;
  goto cleanup;
nomem:
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                  "out of memory while building the graph");
cleanup:
  acWriteOrderClear(&order);
  acFree(count);
  acFree(tangentDep);
  acFree(feedsOut);
  acFree(valueNeeded);
  if (st == AC_OK) {
    /* Leave the builder reusable-but-empty (its names were the graph's). */
    if (b->nameSlots)
      memset(b->nameSlots, 0, (size_t)b->capNameSlots * sizeof *b->nameSlots);
    b->numNames = 0;
    b->numWrites = 0;
    b->g = acCalloc(1, sizeof *b->g);
    if (!b->g)
      b->failed = 1;
  }
  return st;
}

int64_t acGraphParamBytes(const AcGraph *g) {
  int64_t sum = 0;
  for (intptr_t v = 0; v < g->numValues; ++v)
    if (g->values[v].role == AC_ROLE_PARAM)
      sum += g->values[v].bytes;
  return sum;
}

int64_t acGraphGradBytes(const AcGraph *g) {
  int64_t sum = 0;
  /* Roots counted so far; without memory, a look at the earlier entries. */
  uint8_t *seen = acCalloc((size_t)g->numValues + 1, 1);
  for (intptr_t r = 0; r < g->numRets; ++r) {
    if (!(g->retFlags[r] & AC_RET_GRAD))
      continue;
    AcId root = g->values[g->rets[r]].aliasRoot;
    if (g->values[root].role != AC_ROLE_RESULT)
      continue;
    int dup = 0;
    if (seen) {
      dup = seen[root];
      seen[root] = 1;
    } else {
      for (intptr_t q = 0; q < r && !dup; ++q)
        dup = (g->retFlags[q] & AC_RET_GRAD) &&
              g->values[g->rets[q]].aliasRoot == root;
    }
    if (!dup)
      sum += g->values[root].bytes;
  }
  acFree(seen);
  return sum;
}

AcId acGraphInPlaceRoot(const AcGraph *g, AcId o) {
  const AcOp *op = &g->ops[o];
  if (op->dpsInit == AC_NONE || op->numResults != 1)
    return AC_NONE;
  AcId r = op->firstResult, root = g->values[op->dpsInit].aliasRoot;
  if (g->values[r].aliasRoot != r || g->values[root].bytes != g->values[r].bytes ||
      g->values[root].role != AC_ROLE_RESULT || op->initAlsoRead)
    return AC_NONE;
  for (int32_t i = 0; i < op->numOperands; ++i) {
    AcId v = g->operands[op->firstOperand + i];
    if (v != op->dpsInit && g->values[v].aliasRoot == root)
      return AC_NONE;
  }
  return root;
}

void acGraphMarkStaticRoots(const AcGraph *g, uint8_t *root) {
  for (intptr_t v = 0; v < g->numValues; ++v)
    if (g->values[v].role == AC_ROLE_PARAM)
      root[v] = 1;
  for (intptr_t r = 0; r < g->numRets; ++r) {
    if (!acGraphRetIsStaticGrad(g, r))
      continue;
    AcId rt = g->values[g->rets[r]].aliasRoot;
    if (g->values[rt].role == AC_ROLE_RESULT)
      root[rt] = 1;
  }
}

intptr_t acGraphCountPhase(const AcGraph *g, AcId f, AcPhase phase) {
  intptr_t n = 0;
  const AcFunc *fn = &g->funcs[f];
  for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o)
    n += g->ops[o].phase == phase;
  return n;
}

double acGraphStepSeconds(const AcGraph *g, double *flops) {
  double seconds = 0, f = 0;
  for (intptr_t i = 0; i < g->numSched; ++i) {
    const AcSchedEntry *e = &g->sched[i];
    const AcFunc *fn = &g->funcs[e->func];
    for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o)
      if (g->ops[o].phase == e->phase) {
        seconds += g->ops[o].seconds;
        f += g->ops[o].flops;
      }
  }
  if (flops)
    *flops = f;
  return seconds;
}

AcStatus acGraphReorderOps(AcGraph *g, const AcId *order, AcId *valueOrder) {
  intptr_t nOps = g->numOps, nValues = g->numValues;
  intptr_t nMax = nOps > nValues ? nOps : nValues;
  /* Every allocation first: a failure leaves the graph as it was. */
  AcId *newOp = acMalloc((size_t)(nOps + 1) * sizeof *newOp);
  AcId *newValue = acMalloc((size_t)(nValues + 1) * sizeof *newValue);
  AcId *operands = acMalloc((size_t)(g->numOperands + 1) * sizeof *operands);
  int32_t *count = acCalloc((size_t)nValues + 1, sizeof *count);
  uint8_t *done = acCalloc((size_t)nMax + 1, 1);
  AcStatus st = AC_ERR_NOMEM;
  if (!newOp || !newValue || !operands || !count || !done)
    goto cleanup;
  for (intptr_t k = 0; k < nOps; ++k)
    newOp[order[k]] = (AcId)k;
  /* Values: a function's arguments keep their ids, its results follow
     their ops in the new order. */
  AcId nv = 0;
  for (intptr_t f = 0; f < g->numFuncs; ++f) {
    const AcFunc *fn = &g->funcs[f];
    for (int32_t a = 0; a < fn->numArgs; ++a, ++nv)
      newValue[fn->firstArg + a] = valueOrder[nv] = fn->firstArg + a;
    for (AcId k = fn->firstOp; k < fn->firstOp + fn->numOps; ++k) {
      const AcOp *op = &g->ops[order[k]];
      assert(op->func == (AcId)f && "ops move within their function");
      for (int32_t r = 0; r < op->numResults; ++r, ++nv) {
        newValue[op->firstResult + r] = nv;
        valueOrder[nv] = op->firstResult + r;
      }
    }
  }
  assert(nv == (AcId)nValues);
  /* Operands in the new op order, renumbered; op fields renumbered in
     place (results: where the new numbering put them), then the ops
     permuted. */
  int32_t at = 0;
  for (intptr_t f = 0; f < g->numFuncs; ++f) {
    const AcFunc *fn = &g->funcs[f];
    nv = fn->firstArg + fn->numArgs;
    for (AcId k = fn->firstOp; k < fn->firstOp + fn->numOps; ++k) {
      AcOp *op = &g->ops[order[k]];
      const AcId *from = g->operands + op->firstOperand;
      op->firstOperand = at;
      for (int32_t i = 0; i < op->numOperands; ++i)
        operands[at++] = newValue[from[i]];
      op->firstResult = nv;
      nv += op->numResults;
      if (op->dpsInit != AC_NONE)
        op->dpsInit = newValue[op->dpsInit];
      if (op->mutates != AC_NONE)
        op->mutates = newValue[op->mutates];
    }
  }
  acFree(g->operands);
  g->operands = operands;
  operands = NULL;
  acPermuteInPlace(g->ops, sizeof *g->ops, order, nOps, done);
  for (intptr_t v = 0; v < nValues; ++v) {
    AcValue *val = &g->values[v];
    if (val->producer != AC_NONE)
      val->producer = newOp[val->producer];
    val->aliasRoot = newValue[val->aliasRoot];
    val->firstUse = val->numUses = 0;
  }
  acPermuteInPlace(g->values, sizeof *g->values, valueOrder, nValues, done);
  for (intptr_t r = 0; r < g->numRets; ++r)
    g->rets[r] = newValue[g->rets[r]];
  acBuildUses(g, count);
  st = AC_OK;
cleanup:
  acFree(newOp);
  acFree(newValue);
  acFree(operands);
  acFree(count);
  acFree(done);
  return st;
}
