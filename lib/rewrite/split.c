/*===- lib/rewrite/split.c - split mode: @f -> @f_fwd + @f_bwd -------------===*
 *
 * For every joint function @f of an import:
 *   @f_fwd(primal/param args) -> (forward results of @f, saved values)
 *   @f_bwd(saved values, tangents, primal/param args it reads) -> backward
 *          results of @f; each recompute group is cloned into an
 *          `scf.execute_region {ac.recompute}` right before its anchor op;
 *   @f     keeps its signature and now calls @f_fwd then @f_bwd.
 *
 * Values are tracked by graph id.  While a new function is built, map[v]
 * holds the MlirValue standing for graph value v there (null: not available).
 * Every op of @f ends up in one of the halves: the op itself is moved there
 * (not copied); only recomputations are clones.  Clones made with
 * mlirOperationClone still read the old function's values, in their
 * top-level operands and in their nested regions alike, so every clone is
 * walked and each operand that is a value of the old function is replaced
 * by map[v].  An op that moves is walked the same way, but only to record
 * which operands must change (those whose map[v] is not the value they
 * read).  A top-level operand is found among its op's graph operands; only
 * ops with regions (and a graph that disagrees with the IR) need the
 * pointer map of all graph values, built the first time it is needed.
 *
 * The rewrite runs in two phases: first every new function is built detached
 * (its arguments, recompute regions and return; the module is only read, an
 * error destroys them and leaves the module untouched), then they are
 * inserted after their @f, @f's ops move into them and read what was
 * recorded, @f's body becomes the two calls, and the module is verified.
 * See docs/rewrite.md.
 *===----------------------------------------------------------------------===*/
#include "autoac/simulate.h"
#include "rewrite/rewrite.h"
#include "support/ptrmap.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <string.h>

#define SREF(s) mlirStringRefCreateFromCString(s)

/* The walks over @f's ops (checkBody, commit) read each op once, in
   program order, and wait for memory on most: each asks for the op
   AC_AHEAD places further on in time.  A hint only (GCC, Clang). */
#if defined(__GNUC__)
#define AC_PREFETCH(p) __builtin_prefetch(p)
#else
#define AC_PREFETCH(p) ((void)(p))
#endif
#define AC_AHEAD 16

/// `base` followed by `suffix`, owned (acFree); NULL when out of memory.
static char *acSuffixed(const char *base, const char *suffix) {
  size_t a = strlen(base), b = strlen(suffix);
  char *s = acMalloc(a + b + 1);
  if (s) {
    memcpy(s, base, a);
    memcpy(s + a, suffix, b + 1);
  }
  return s;
}

static MlirOperation nullOp(void) {
  MlirOperation op = {NULL};
  return op;
}

static MlirValue nullValue(void) {
  MlirValue v = {NULL};
  return v;
}

/*===-------------------------- per-function state -------------------------===*/

/// What one joint function becomes; built detached, committed later.
typedef struct FuncSplit {
  AcId func;
  MlirOperation fwd, bwd;   ///< detached until commit (null if not built)
  AcId *fwdOuts;  int32_t numFwdOuts;  ///< forward-op values @f returns
  AcId *saved;    int32_t numSaved;    ///< plan->saved values, id order
  AcId *tangents; int32_t numTangents; ///< tangent args, arg order
  AcId *bwdArgs;  int32_t numBwdArgs;  ///< primal/param args bwd reads
  AcId *bwdOuts;  int32_t numBwdOuts;  ///< backward-op values @f returns
  MlirOperation fwdCall, bwdCall;      ///< detached until commit
  MlirValue *retVals;                  ///< [numRets] @f's new return operands
  MlirBlock fwdBlock, bwdBlock;        ///< the halves' bodies
  MlirOperation *after;  ///< [numOps of @f] for a backward op: the last
                         ///< recompute region emitted before it, or null
} FuncSplit;

/// An operand that changes when its op moves into a half (commit).
typedef struct Remap {
  MlirOperation op;   ///< the op or an op nested in it
  intptr_t index;
  MlirValue value;
} Remap;

/// What checkBody reads of a graph op's MlirOperation, so that the build
/// need not read the op again (AcSplit.opInfo).
enum {
  OP_REGIONS = 1,     ///< the op has regions (its operands are walked)
  OP_BAD_RESULTS = 2  ///< its number of results differs from the graph's
};

/// Shared state of one acRewriteSplit call.
typedef struct Split {
  AcImport *imp;
  const AcGraph *g;
  const AcPlan *plan;
  const AcRecomputeGroups *groups;
  MlirContext ctx;
  AcPtrMap index;      ///< old MlirValue.ptr -> graph value id (needIndex)
  int indexBuilt;
  MlirValue *map;      ///< [numValues] graph value -> value in the new function
  uint8_t *opInfo;     ///< [numOps] OP_* bits, set by checkBody
  int32_t *slot;       ///< [numValues] scratch, -1 between uses
  int32_t *groupOf;    ///< [numOps] recompute group of an op, or -1
  int32_t *groupHead;  ///< [numOps] first group anchored at an op, or -1
  int32_t *groupNext;  ///< [numGroups] next group with the same anchor, or -1
  uint8_t *flag;       ///< [numValues] scratch
  AcId *fresh, *exports;  ///< [results of the largest group] emitGroup's
  MlirType *types;        ///< scratch
  MlirValue *yields;
  MlirIdentifier markers[3]; ///< ac.save, ac.recompute, ac.phase
  AcId missing;        ///< set by the remap walk: a value with no mapping
  Remap *remaps;       ///< operands to change at commit, of every function
  intptr_t numRemaps, capRemaps;
  int recording;       ///< the walk records operands (an op that moves)
  int nomem;           ///< set by the walk: out of memory
  AcError *err;
} Split;

static void funcSplitClear(FuncSplit *fs) {
  /* The backward call reads the forward call's results: it goes first. */
  if (!mlirOperationIsNull(fs->bwdCall))
    mlirOperationDestroy(fs->bwdCall);
  if (!mlirOperationIsNull(fs->fwdCall))
    mlirOperationDestroy(fs->fwdCall);
  if (!mlirOperationIsNull(fs->fwd))
    mlirOperationDestroy(fs->fwd);
  if (!mlirOperationIsNull(fs->bwd))
    mlirOperationDestroy(fs->bwd);
  acFree(fs->fwdOuts);
  acFree(fs->saved);
  acFree(fs->tangents);
  acFree(fs->bwdArgs);
  acFree(fs->bwdOuts);
  acFree(fs->retVals);
  acFree(fs->after);
  memset(fs, 0, sizeof(*fs));
}

static int isFwdResult(const AcGraph *g, AcId v) {
  AcId p = g->values[v].producer;
  return p != AC_NONE && g->ops[p].phase == AC_PHASE_FWD;
}

static int isBwdResult(const AcGraph *g, AcId v) {
  AcId p = g->values[v].producer;
  return p != AC_NONE && g->ops[p].phase == AC_PHASE_BWD;
}

/*===-------------------------- IR helpers ---------------------------------===*/

static MlirNamedAttribute namedAttr(MlirContext ctx, const char *name,
                                    MlirAttribute attr) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF(name)), attr);
}

/// Dictionary of argument `i` (or result `i` when `results`) of func `fn`;
/// null when it has none.
static MlirAttribute funcSlotAttrs(MlirOperation fn, int results, intptr_t i) {
  MlirAttribute arr = mlirOperationGetInherentAttributeByName(
      fn, SREF(results ? "res_attrs" : "arg_attrs"));
  if (mlirAttributeIsNull(arr) || !mlirAttributeIsAArray(arr) ||
      i >= mlirArrayAttrGetNumElements(arr))
    return mlirAttributeGetNull();
  MlirAttribute d = mlirArrayAttrGetElement(arr, i);
  if (!mlirAttributeIsADictionary(d) || mlirDictionaryAttrGetNumElements(d) == 0)
    return mlirAttributeGetNull();
  return d;
}

/// The pointer map of every graph value, built the first time a walk needs
/// it (most graphs have no op with regions and never do).
static AcStatus needIndex(Split *s) {
  if (s->indexBuilt)
    return AC_OK;
  const AcGraph *g = s->g;
  if (acPtrMapReserve(&s->index, g->numValues) != AC_OK)
    return AC_ERR_NOMEM;
  for (intptr_t v = 0; v < g->numValues; ++v)
    if (s->imp->values[v].ptr &&
        acPtrMapPut(&s->index, s->imp->values[v].ptr, (int32_t)v) != AC_OK)
      return AC_ERR_NOMEM;
  s->indexBuilt = 1;
  return AC_OK;
}

/// Operand `i` of `op` reads `v`, graph value `id` (AC_NONE: not a value of
/// the old function, left alone): in a clone it is replaced by map[id] at
/// once; in an op that moves (s->recording) it is recorded for commit when
/// map[id] is another value.  Returns 0, or 1 with s->missing or s->nomem
/// set.
static int remapOne(Split *s, MlirOperation op, intptr_t i, MlirValue v,
                    AcId id) {
  if (id == AC_NONE)
    return 0;
  if (mlirValueIsNull(s->map[id])) {
    s->missing = id;
    return 1;
  }
  if (!s->recording) {
    mlirOperationSetOperand(op, i, s->map[id]);
    return 0;
  }
  if (mlirValueEqual(s->map[id], v))
    return 0;
  if (!acArrayGrow((void **)&s->remaps, &s->capRemaps, s->numRemaps + 1,
                   sizeof *s->remaps)) {
    s->nomem = 1;
    return 1;
  }
  Remap *r = &s->remaps[s->numRemaps++];
  r->op = op;
  r->index = i;
  r->value = s->map[id];
  return 0;
}

/// Graph value id of `v` by the pointer map (AC_NONE: not a graph value);
/// sets s->nomem when the map cannot be built.
static AcId indexedId(Split *s, MlirValue v) {
  if (!v.ptr)
    return AC_NONE;
  if (needIndex(s) != AC_OK) {
    s->nomem = 1;
    return AC_NONE;
  }
  return acPtrMapGet(&s->index, v.ptr);
}

/// Walk callback: remapOne for every operand of `op` (nested ops included).
static MlirWalkResult remapOperands(MlirOperation op, void *userData) {
  Split *s = userData;
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    AcId id = indexedId(s, v);
    if (s->nomem || remapOne(s, op, i, v, id))
      return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/// Graph value id of `v`, a top-level operand of graph op `op` or of its
/// clone.  The op's graph operands are its direct operands, each once, in
/// the order they first appear (then the values its regions capture):
/// `*next` is where the next one not seen yet is expected.  A repeated
/// operand is searched for among the few operands of a small op, else (and
/// for a value the graph does not list) in the pointer map.
static AcId operandId(Split *s, AcId op, MlirValue v, int32_t *next) {
  const AcOp *o = &s->g->ops[op];
  const AcId *ids = s->g->operands + o->firstOperand;
  const MlirValue *vals = s->imp->values;
  if (*next < o->numOperands && vals[ids[*next]].ptr == v.ptr)
    return ids[(*next)++];
  if (o->numOperands <= 8)
    for (int32_t k = 0; k < o->numOperands; ++k)
      if (vals[ids[k]].ptr == v.ptr)
        return ids[k];
  return indexedId(s, v);
}

/// remapOne for every operand of `target`, graph op `op` (recording) or its
/// clone, an op without regions.  An op that moves and reads no value whose
/// map[v] is another value is left unread.
static void remapDirect(Split *s, AcId op, MlirOperation target) {
  const AcGraph *g = s->g;
  const AcOp *o = &g->ops[op];
  if (s->recording) {
    int change = 0;
    for (int32_t k = 0; k < o->numOperands; ++k) {
      AcId u = acOpOperand(g, op, k);
      if (mlirValueIsNull(s->map[u])) {
        s->missing = u;
        return;
      }
      change |= !mlirValueEqual(s->map[u], s->imp->values[u]);
    }
    if (!change)
      return;
  }
  intptr_t n = mlirOperationGetNumOperands(target);
  int32_t next = 0;
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(target, i);
    AcId id = operandId(s, op, v, &next);
    if (s->nomem || remapOne(s, target, i, v, id))
      return;
  }
}

/// Remaps the operands of `target` (graph op `op` or its clone): remapOne
/// on each, nested ops included; an operand with no mapping in @`where` is
/// an internal error.
static AcStatus walkOperands(Split *s, AcId op, MlirOperation target,
                             int recording, const char *where) {
  s->missing = AC_NONE;
  s->nomem = 0;
  s->recording = recording;
  if (s->opInfo[op] & OP_REGIONS)
    mlirOperationWalk(target, remapOperands, s, MlirWalkPreOrder);
  else
    remapDirect(s, op, target);
  if (s->nomem)
    return acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
  if (s->missing == AC_NONE)
    return AC_OK;
  AcId m = s->missing;
  return acErrorSet(s->err, AC_ERR_INTERNAL, op, m,
                    "rewrite: op %d '%s' reads %s, which is not available "
                    "in @%s (neither saved, an argument nor recomputed)",
                    (int)op, s->g->ops[op].name,
                    s->imp->valueNames ? s->imp->valueNames[m] : "a value", where);
}

/// Removes the input markers (s->markers: ac.save, ac.recompute, ac.phase)
/// from `op`, a moved op or a clone: they describe the joint function, not
/// the halves.
static void dropMarkers(const Split *s, MlirOperation op) {
  /* From the last: a removal leaves the positions before it as they are. */
  for (intptr_t i = mlirOperationGetNumDiscardableAttributes(op) - 1; i >= 0; --i) {
    MlirIdentifier name = mlirOperationGetDiscardableAttribute(op, i).name;
    for (int k = 0; k < 3; ++k)
      if (mlirIdentifierEqual(name, s->markers[k])) {
        mlirOperationRemoveDiscardableAttributeByName(op, mlirIdentifierStr(name));
        break;
      }
  }
}

/// Clones graph op `op` to the end of `block`, remapping its operands.  Sets
/// map[] for its results: all of them, or with `onlyUnmapped` only those not
/// mapped yet, recording those in `fresh` (room for numResults ids).
static AcStatus cloneOp(Split *s, AcId op, MlirBlock block, int onlyUnmapped,
                        AcId *fresh, int32_t *numFresh, const char *where) {
  const AcOp *o = &s->g->ops[op];
  MlirOperation clone = mlirOperationClone(s->imp->ops[op]);
  if (mlirOperationIsNull(clone))
    return acErrorSet(s->err, AC_ERR_INTERNAL, op, AC_NONE,
                      "rewrite: cannot clone op '%s'", o->name);
  dropMarkers(s, clone);
  AcStatus st = walkOperands(s, op, clone, 0, where);
  if (st != AC_OK) {
    mlirOperationDestroy(clone);
    return st;
  }
  mlirBlockAppendOwnedOperation(block, clone);
  if (mlirOperationGetNumResults(clone) != o->numResults)
    return acErrorSet(s->err, AC_ERR_INTERNAL, op, AC_NONE,
                      "rewrite: op '%s' has %d results in the graph but %d in "
                      "the IR", o->name, (int)o->numResults,
                      (int)mlirOperationGetNumResults(clone));
  for (int32_t r = 0; r < o->numResults; ++r) {
    AcId v = o->firstResult + r;
    if (onlyUnmapped && !mlirValueIsNull(s->map[v]))
      continue;
    s->map[v] = mlirOperationGetResult(clone, r);
    if (fresh)
      fresh[(*numFresh)++] = v;
  }
  return AC_OK;
}

/// Takes graph op `op` into the half being built: checks that every value
/// it reads is available there (as cloneOp does), records the operands that
/// change and maps its results to themselves.  It moves at commit.
static AcStatus takeOp(Split *s, AcId op, const char *where) {
  const AcOp *o = &s->g->ops[op];
  MlirOperation orig = s->imp->ops[op];
  AcStatus st = walkOperands(s, op, orig, 1, where);
  if (st != AC_OK)
    return st;
  if (s->opInfo[op] & OP_BAD_RESULTS)
    return acErrorSet(s->err, AC_ERR_INTERNAL, op, AC_NONE,
                      "rewrite: op '%s' has %d results in the graph but %d in "
                      "the IR", o->name, (int)o->numResults,
                      (int)mlirOperationGetNumResults(orig));
  for (int32_t r = 0; r < o->numResults; ++r)
    s->map[o->firstResult + r] = mlirOperationGetResult(orig, r);
  return AC_OK;
}

/// `d` (a dictionary, or null) with `bufferization.writable = false` added:
/// bufferization must not write into the argument in place.
static MlirAttribute withReadOnly(MlirContext ctx, MlirAttribute d) {
  intptr_t n = mlirAttributeIsNull(d) ? 0 : mlirDictionaryAttrGetNumElements(d);
  MlirNamedAttribute *el = acMalloc(sizeof(MlirNamedAttribute) * (size_t)(n + 1));
  if (!el)
    return mlirAttributeGetNull();
  for (intptr_t i = 0; i < n; ++i)
    el[i] = mlirDictionaryAttrGetElement(d, i);
  el[n] = namedAttr(ctx, "bufferization.writable", mlirBoolAttrGet(ctx, 0));
  MlirAttribute out = mlirDictionaryAttrGet(ctx, n + 1, el);
  acFree(el);
  return out;
}

/// Creates a detached func.func named `name` with an entry block whose
/// arguments stand for graph values `args` (their types; attributes copied
/// from @f's argument slots), result types of graph values `rets` (attributes
/// from @f's result slots when `retSlot[i]` >= 0), and discardable attribute
/// `tag` = "<f name>".  Maps args[i] to block argument i.  `owned[i]` marks
/// argument i `ac.owned`; `readOnly[i]` `bufferization.writable = false`
/// (markReadOnly), so that a write into it copies inside this half, where
/// the planner counts the new storage.
static AcStatus createFunc(Split *s, AcId f, const char *name,
                           const AcId *args, int32_t numArgs,
                           const AcId *rets, int32_t numRets,
                           const int32_t *retSlot, const char *tag,
                           const char *owned, const char *readOnly,
                           MlirOperation *outFn, MlirBlock *outBlock) {
  const AcGraph *g = s->g;
  MlirOperation fOp = s->imp->funcOps[f];
  MlirLocation loc = mlirOperationGetLocation(fOp);
  AcStatus st = AC_OK;
  int32_t nTypes = numArgs > numRets ? numArgs : numRets;
  MlirType *argTypes = acMalloc(sizeof(MlirType) * (size_t)(numArgs + 1));
  MlirType *retTypes = acMalloc(sizeof(MlirType) * (size_t)(numRets + 1));
  MlirLocation *locs = acMalloc(sizeof(MlirLocation) * (size_t)(numArgs + 1));
  MlirAttribute *dicts = acMalloc(sizeof(MlirAttribute) * (size_t)(nTypes + 1));
  if (!argTypes || !retTypes || !locs || !dicts) {
    st = acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
    goto done;
  }
  for (int32_t i = 0; i < numArgs; ++i) {
    MlirValue v = s->imp->values[args[i]];
    argTypes[i] = mlirValueGetType(v);
    locs[i] = mlirValueGetLocation(v);
  }
  for (int32_t i = 0; i < numRets; ++i)
    retTypes[i] = mlirValueGetType(s->imp->values[rets[i]]);

  MlirNamedAttribute attrs[6];
  intptr_t nAttrs = 0;
  attrs[nAttrs++] = namedAttr(s->ctx, "sym_name",
                              mlirStringAttrGet(s->ctx, SREF(name)));
  attrs[nAttrs++] = namedAttr(
      s->ctx, "function_type",
      mlirTypeAttrGet(mlirFunctionTypeGet(s->ctx, numArgs, argTypes, numRets,
                                          retTypes)));
  MlirAttribute empty = mlirDictionaryAttrGet(s->ctx, 0, NULL);
  int any = 0;
  for (int32_t i = 0; i < numArgs; ++i) {
    MlirAttribute d = mlirAttributeGetNull();
    if (g->values[args[i]].producer == AC_NONE) {
      d = funcSlotAttrs(fOp, 0, g->values[args[i]].index);
    } else if (owned && owned[i]) {
      MlirNamedAttribute o = namedAttr(s->ctx, "ac.owned", mlirUnitAttrGet(s->ctx));
      d = mlirDictionaryAttrGet(s->ctx, 1, &o);
    }
    if (readOnly && readOnly[i] && mlirTypeIsARankedTensor(argTypes[i])) {
      d = withReadOnly(s->ctx, d);
      if (mlirAttributeIsNull(d)) {
        st = acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
        goto done;
      }
    }
    any |= !mlirAttributeIsNull(d);
    dicts[i] = mlirAttributeIsNull(d) ? empty : d;
  }
  if (any)
    attrs[nAttrs++] = namedAttr(s->ctx, "arg_attrs",
                                mlirArrayAttrGet(s->ctx, numArgs, dicts));
  any = 0;
  for (int32_t i = 0; i < numRets; ++i) {
    MlirAttribute d = mlirAttributeGetNull();
    if (retSlot && retSlot[i] >= 0)
      d = funcSlotAttrs(fOp, 1, retSlot[i]);
    any |= !mlirAttributeIsNull(d);
    dicts[i] = mlirAttributeIsNull(d) ? empty : d;
  }
  if (any)
    attrs[nAttrs++] = namedAttr(s->ctx, "res_attrs",
                                mlirArrayAttrGet(s->ctx, numRets, dicts));
  attrs[nAttrs++] = namedAttr(s->ctx, tag,
                              mlirStringAttrGet(s->ctx, SREF(g->funcs[f].name)));
  /* The halves are as visible as @f (public unless @f is private/nested). */
  MlirAttribute vis =
      mlirOperationGetInherentAttributeByName(fOp, SREF("sym_visibility"));
  if (!mlirAttributeIsNull(vis))
    attrs[nAttrs++] = namedAttr(s->ctx, "sym_visibility", vis);

  MlirRegion body = mlirRegionCreate();
  MlirBlock block = mlirBlockCreate(numArgs, argTypes, locs);
  mlirRegionAppendOwnedBlock(body, block);
  MlirOperationState state = mlirOperationStateGet(SREF("func.func"), loc);
  mlirOperationStateAddAttributes(&state, nAttrs, attrs);
  mlirOperationStateAddOwnedRegions(&state, 1, &body);
  MlirOperation fn = mlirOperationCreate(&state);
  if (mlirOperationIsNull(fn)) {
    st = acErrorSet(s->err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                    "rewrite: cannot create func.func @%s", name);
    goto done;
  }
  for (int32_t i = 0; i < numArgs; ++i)
    s->map[args[i]] = mlirBlockGetArgument(block, i);
  *outFn = fn;
  *outBlock = block;
done:
  acFree(argTypes);
  acFree(retTypes);
  acFree(locs);
  acFree(dicts);
  return st;
}

/// Appends `func.return` of map[vals[i]] to `block`.
static AcStatus appendReturn(Split *s, MlirBlock block, MlirLocation loc,
                             const AcId *vals, int32_t n, const char *where) {
  MlirValue *ops = acMalloc(sizeof(MlirValue) * (size_t)(n + 1));
  if (!ops)
    return acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
  for (int32_t i = 0; i < n; ++i) {
    ops[i] = s->map[vals[i]];
    if (mlirValueIsNull(ops[i])) {
      acFree(ops);
      return acErrorSet(s->err, AC_ERR_INTERNAL, AC_NONE, vals[i],
                        "rewrite: @%s returns %s, which it does not compute",
                        where, s->imp->valueNames ? s->imp->valueNames[vals[i]]
                                                  : "a value");
    }
  }
  MlirOperationState state = mlirOperationStateGet(SREF("func.return"), loc);
  mlirOperationStateAddOperands(&state, n, ops);
  MlirOperation ret = mlirOperationCreate(&state);
  acFree(ops);
  if (mlirOperationIsNull(ret))
    return acErrorSet(s->err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                      "rewrite: cannot create func.return in @%s", where);
  mlirBlockAppendOwnedOperation(block, ret);
  return AC_OK;
}

static void resetMap(Split *s) {
  memset(s->map, 0, sizeof(MlirValue) * (size_t)s->g->numValues);
}

/*===-------------------------- classification ----------------------------===*/

/// Fills the value lists of `fs` from the graph and the plan.
static AcStatus classify(Split *s, FuncSplit *fs) {
  const AcGraph *g = s->g;
  const AcFunc *fn = &g->funcs[fs->func];
  intptr_t nv = g->numValues;
  AcId lastOp = fn->firstOp + fn->numOps;
  /* Upper bounds for the lists. */
  size_t nRes = 0;
  for (AcId op = fn->firstOp; op < lastOp; ++op)
    nRes += (size_t)g->ops[op].numResults;
  fs->fwdOuts = acMalloc(sizeof(AcId) * (size_t)(fn->numRets + 1));
  fs->bwdOuts = acMalloc(sizeof(AcId) * (size_t)(fn->numRets + 1));
  fs->saved = acMalloc(sizeof(AcId) * (nRes + 1));
  fs->tangents = acMalloc(sizeof(AcId) * (size_t)(fn->numArgs + 1));
  fs->bwdArgs = acMalloc(sizeof(AcId) * (size_t)(fn->numArgs + 1));
  if (!fs->fwdOuts || !fs->bwdOuts || !fs->saved || !fs->tangents ||
      !fs->bwdArgs)
    return acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");

  /* Returned values, each once, by the phase of their producer. */
  memset(s->flag, 0, (size_t)nv);
  for (int32_t r = 0; r < fn->numRets; ++r) {
    AcId v = g->rets[fn->firstRet + r];
    if (s->flag[v])
      continue;
    s->flag[v] = 1;
    if (isFwdResult(g, v))
      fs->fwdOuts[fs->numFwdOuts++] = v;
    else if (isBwdResult(g, v))
      fs->bwdOuts[fs->numBwdOuts++] = v;
  }
  /* Saved values in id order. */
  for (AcId op = fn->firstOp; op < lastOp; ++op) {
    const AcOp *o = &g->ops[op];
    for (int32_t r = 0; r < o->numResults; ++r) {
      AcId v = o->firstResult + r;
      if (!s->plan->saved[v])
        continue;
      if (o->phase != AC_PHASE_FWD)
        return acErrorSet(s->err, AC_ERR_INTERNAL, op, v,
                          "rewrite: the plan saves %s, a backward value",
                          s->imp->valueNames ? s->imp->valueNames[v] : "?");
      fs->saved[fs->numSaved++] = v;
    }
  }
  /* Arguments the backward (or its recomputes) reads. */
  memset(s->flag, 0, (size_t)nv);
  for (AcId op = fn->firstOp; op < lastOp; ++op) {
    const AcOp *o = &g->ops[op];
    if (o->phase != AC_PHASE_BWD && !(s->plan->recompute[op] && s->groupOf[op] >= 0))
      continue;
    for (int32_t i = 0; i < o->numOperands; ++i) {
      AcId v = acOpOperand(g, op, i);
      if (g->values[v].producer == AC_NONE)
        s->flag[v] = 1;
    }
  }
  for (int32_t a = 0; a < fn->numArgs; ++a) {
    AcId v = fn->firstArg + a;
    if (g->values[v].role == AC_ROLE_TANGENT)
      fs->tangents[fs->numTangents++] = v;
    else if (s->flag[v])
      fs->bwdArgs[fs->numBwdArgs++] = v;
  }
  return AC_OK;
}

/*===-------------------------- building -----------------------------------===*/

/// slots[i] = the first result of @f that returns vals[i], or -1.
static void retSlots(Split *s, const AcFunc *fn, const AcId *vals, int32_t n,
                     int32_t *slots) {
  const AcId *rets = s->g->rets + fn->firstRet;
  for (int32_t r = fn->numRets - 1; r >= 0; --r)
    s->slot[rets[r]] = r;
  for (int32_t i = 0; i < n; ++i)
    slots[i] = s->slot[vals[i]];
  for (int32_t r = 0; r < fn->numRets; ++r)
    s->slot[rets[r]] = -1;
}

/// Marks readOnly[i] for each argument args[i] of a half whose storage an
/// op of that half (`bwd`: a backward op or a recomputed one; else a
/// forward op) writes in place, as its destination-style init
/// (AcOp.dpsInit: a linalg `outs`, an insert's dest, a loop's iter_arg
/// init).  One-shot bufferization writes into a writable argument in place
/// when nothing reads it afterwards, allocating nothing, and what reads it
/// afterwards depends on the plan (a later recomputation of another reader
/// of a primal input); the simulator, like every planner, counts a write
/// into an argument, a primal input, tangent or saved storage, as new
/// storage (simulate.h).  So the argument is made read-only and the write
/// copies, at the writer, as counted; the caller's buffer stays unchanged
/// (docs/contract.md, "Arguments written in place").  Uses s->flag.
static void markReadOnly(Split *s, AcId f, int bwd, const AcId *args,
                         int32_t nArgs, char *readOnly) {
  const AcGraph *g = s->g;
  const AcFunc *fn = &g->funcs[f];
  memset(s->flag, 0, (size_t)g->numValues);
  int any = 0;
  for (AcId op = fn->firstOp; op < fn->firstOp + fn->numOps; ++op) {
    const AcOp *o = &g->ops[op];
    int here = bwd ? o->phase == AC_PHASE_BWD ||
                         (s->plan->recompute[op] && s->groupOf[op] >= 0)
                   : o->phase == AC_PHASE_FWD;
    if (here && o->dpsInit != AC_NONE) {
      s->flag[g->values[o->dpsInit].aliasRoot] = 1;
      any = 1;
    }
  }
  for (int32_t i = 0; i < nArgs && any; ++i)
    if (s->flag[g->values[args[i]].aliasRoot])
      readOnly[i] = 1;
}

static AcStatus buildFwd(Split *s, FuncSplit *fs) {
  const AcGraph *g = s->g;
  const AcFunc *fn = &g->funcs[fs->func];
  AcStatus st = AC_OK;
  char *name = NULL;
  int32_t nOut = fs->numFwdOuts + fs->numSaved;
  AcId *args = acMalloc(sizeof(AcId) * (size_t)(fn->numArgs + 1));
  AcId *outs = acMalloc(sizeof(AcId) * (size_t)(nOut + 1));
  int32_t *slots = acMalloc(sizeof(int32_t) * (size_t)(nOut + 1));
  char *readOnly = acCalloc((size_t)fn->numArgs + 1, 1);
  int32_t nArgs = 0;
  if (!args || !outs || !slots || !readOnly) {
    st = acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
    goto done;
  }
  for (int32_t a = 0; a < fn->numArgs; ++a) {
    AcId v = fn->firstArg + a;
    if (g->values[v].role != AC_ROLE_TANGENT)
      args[nArgs++] = v;
  }
  /* An argument the backward reads too must reach it unchanged. */
  for (int32_t i = 0; i < nArgs; ++i)
    for (int32_t j = 0; j < fs->numBwdArgs; ++j)
      if (fs->bwdArgs[j] == args[i])
        readOnly[i] = 1;
  markReadOnly(s, fs->func, 0, args, nArgs, readOnly);
  memcpy(outs, fs->fwdOuts, sizeof(AcId) * (size_t)fs->numFwdOuts);
  retSlots(s, fn, fs->fwdOuts, fs->numFwdOuts, slots);
  for (int32_t i = 0; i < fs->numSaved; ++i) {
    outs[fs->numFwdOuts + i] = fs->saved[i];
    slots[fs->numFwdOuts + i] = -1;
  }
  if (!(name = acSuffixed(fn->name, "_fwd"))) {
    st = acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
    goto done;
  }
  resetMap(s);
  MlirBlock block;
  st = createFunc(s, fs->func, name, args, nArgs, outs, nOut, slots,
                  "ac.fwd_of", NULL, readOnly, &fs->fwd, &block);
  if (st != AC_OK)
    goto done;
  fs->fwdBlock = block;
  for (AcId op = fn->firstOp; op < fn->firstOp + fn->numOps; ++op) {
    if (g->ops[op].phase != AC_PHASE_FWD)
      continue;
    st = takeOp(s, op, name);
    if (st != AC_OK)
      goto done;
  }
  st = appendReturn(s, block, mlirOperationGetLocation(s->imp->returnOps[fs->func]),
                    outs, nOut, name);
done:
  acFree(name);
  acFree(args);
  acFree(outs);
  acFree(slots);
  acFree(readOnly);
  return st;
}

/// 1 if `op` is a constant (no operand, no region, `*.constant`,
/// `tosa.const`, `tosa.const_shape`): it reads and allocates nothing, and
/// some users need it in sight (tosa.reshape's shape must be a constant:
/// an scf.execute_region result is not, and the module would not verify).
static int isConstant(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  static const char sfx[] = ".constant";
  size_t ls = sizeof sfx - 1;
  return mlirOperationGetNumOperands(op) == 0 && mlirOperationGetNumRegions(op) == 0 &&
         mlirOperationGetNumResults(op) == 1 &&
         ((n.length > ls && !memcmp(n.data + n.length - ls, sfx, ls)) ||
          (n.length == 10 && !memcmp(n.data, "tosa.const", 10)) ||
          (n.length == 16 && !memcmp(n.data, "tosa.const_shape", 16)));
}

/// Emits recompute group `gi` as an scf.execute_region {ac.recompute} at the
/// end of `block`.  Group values read outside the group (by backward ops or
/// other groups) become its results; the others stay private to it.  The
/// group's constants are cloned in front of the region instead (isConstant),
/// and a group of constants only makes no region (`*outExec` is then the
/// last constant, or left as it was when every one was there already).
static AcStatus emitGroup(Split *s, int32_t gi, MlirBlock block,
                          const char *where, MlirOperation *outExec) {
  const AcGraph *g = s->g;
  const AcRecomputeGroup *grp = &s->groups->groups[gi];
  AcStatus st = AC_OK;
  AcId *fresh = s->fresh, *exports = s->exports;
  MlirType *types = s->types;
  MlirValue *yields = s->yields;
  int32_t numFresh = 0, numExports = 0;
  MlirRegion region = mlirRegionCreate();
  MlirBlock inner = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(region, inner);
  int regionOwned = 1;
  MlirLocation loc = mlirOperationGetLocation(s->imp->ops[grp->anchor]);
  MlirOperation lastOuter = nullOp();
  for (int32_t k = 0; k < grp->numOps; ++k) {
    AcId op = s->groups->ops[grp->firstOp + k];
    if (isConstant(s->imp->ops[op])) {
      /* In front of the region, where every later op sees it. */
      if (!mlirValueIsNull(s->map[g->ops[op].firstResult]))
        continue;
      st = cloneOp(s, op, block, 1, NULL, NULL, where);
      if (st != AC_OK)
        goto done;
      lastOuter = mlirOpResultGetOwner(s->map[g->ops[op].firstResult]);
      continue;
    }
    st = cloneOp(s, op, inner, 1, fresh, &numFresh, where);
    if (st != AC_OK)
      goto done;
  }
  if (numFresh == 0) {
    /* Constants only: no region. */
    if (!mlirOperationIsNull(lastOuter))
      *outExec = lastOuter;
    goto done;
  }
  for (int32_t i = 0; i < numFresh; ++i) {
    AcId v = fresh[i];
    int outside = 0;
    for (int32_t u = 0; u < g->values[v].numUses && !outside; ++u) {
      AcId user = acValueUse(g, v, u);
      outside = g->ops[user].phase == AC_PHASE_BWD ||
                (s->groupOf[user] >= 0 && s->groupOf[user] != gi);
    }
    if (outside) {
      types[numExports] = mlirValueGetType(s->map[v]);
      yields[numExports] = s->map[v];
      exports[numExports++] = v;
    }
  }
  {
    MlirOperationState ys = mlirOperationStateGet(SREF("scf.yield"), loc);
    mlirOperationStateAddOperands(&ys, numExports, yields);
    MlirOperation y = mlirOperationCreate(&ys);
    if (mlirOperationIsNull(y)) {
      st = acErrorSet(s->err, AC_ERR_INTERNAL, grp->anchor, AC_NONE,
                      "rewrite: cannot create scf.yield");
      goto done;
    }
    mlirBlockAppendOwnedOperation(inner, y);
  }
  MlirNamedAttribute mark =
      namedAttr(s->ctx, "ac.recompute", mlirUnitAttrGet(s->ctx));
  MlirOperationState es = mlirOperationStateGet(SREF("scf.execute_region"), loc);
  mlirOperationStateAddResults(&es, numExports, types);
  mlirOperationStateAddOwnedRegions(&es, 1, &region);
  mlirOperationStateAddAttributes(&es, 1, &mark);
  regionOwned = 0;
  MlirOperation exec = mlirOperationCreate(&es);
  if (mlirOperationIsNull(exec)) {
    st = acErrorSet(s->err, AC_ERR_INTERNAL, grp->anchor, AC_NONE,
                    "rewrite: cannot create scf.execute_region");
    goto done;
  }
  mlirBlockAppendOwnedOperation(block, exec);
  *outExec = exec;
  /* Outside the region only the exported values are visible. */
  for (int32_t i = 0; i < numFresh; ++i)
    s->map[fresh[i]] = nullValue();
  for (int32_t i = 0; i < numExports; ++i)
    s->map[exports[i]] = mlirOperationGetResult(exec, i);
done:
  if (st != AC_OK)
    for (int32_t i = 0; i < numFresh; ++i)
      s->map[fresh[i]] = nullValue();
  if (regionOwned)
    mlirRegionDestroy(region);
  return st;
}

/// Ownership across the split (docs/contract.md, section 3): @f_bwd owns
/// saved argument i (`ac.owned`: it frees the buffer after its last use)
/// when the saved value is a builtin tensor whose storage no other value
/// @f_fwd returns shares (not a forward output, no other saved view of the
/// same storage) and is not an argument's (@f_fwd returns fresh buffers
/// only for its own storages).  Others stay with @f, which frees them after
/// the @f_bwd call.
static void markOwned(const Split *s, const FuncSplit *fs, char *owned) {
  const AcGraph *g = s->g;
  for (int32_t i = 0; i < fs->numSaved; ++i) {
    AcId v = fs->saved[i];
    AcId root = g->values[v].aliasRoot;
    owned[i] = 0;
    if (!mlirTypeIsARankedTensor(mlirValueGetType(s->imp->values[v])) ||
        root == AC_NONE || g->values[root].producer == AC_NONE)
      continue;
    int shared = 0;
    for (int32_t j = 0; j < fs->numSaved && !shared; ++j)
      shared = j != i && g->values[fs->saved[j]].aliasRoot == root;
    for (int32_t j = 0; j < fs->numFwdOuts && !shared; ++j)
      shared = g->values[fs->fwdOuts[j]].aliasRoot == root;
    owned[i] = (char)!shared;
  }
}

static AcStatus buildBwd(Split *s, FuncSplit *fs) {
  const AcGraph *g = s->g;
  const AcFunc *fn = &g->funcs[fs->func];
  AcStatus st = AC_OK;
  char *name = NULL;
  int32_t nArgs = fs->numSaved + fs->numTangents + fs->numBwdArgs;
  AcId *args = acMalloc(sizeof(AcId) * (size_t)(nArgs + 1));
  int32_t *slots = acMalloc(sizeof(int32_t) * (size_t)(fs->numBwdOuts + 1));
  char *owned = acCalloc((size_t)(nArgs + 1), 1);
  char *readOnly = acCalloc((size_t)(nArgs + 1), 1);
  if (!args || !slots || !owned || !readOnly) {
    st = acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
    goto done;
  }
  memcpy(args, fs->saved, sizeof(AcId) * (size_t)fs->numSaved);
  memcpy(args + fs->numSaved, fs->tangents,
         sizeof(AcId) * (size_t)fs->numTangents);
  memcpy(args + fs->numSaved + fs->numTangents, fs->bwdArgs,
         sizeof(AcId) * (size_t)fs->numBwdArgs);
  retSlots(s, fn, fs->bwdOuts, fs->numBwdOuts, slots);
  markOwned(s, fs, owned);
  markReadOnly(s, fs->func, 1, args, nArgs, readOnly);
  if (!(name = acSuffixed(fn->name, "_bwd"))) {
    st = acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
    goto done;
  }
  resetMap(s);
  MlirBlock block;
  st = createFunc(s, fs->func, name, args, nArgs, fs->bwdOuts, fs->numBwdOuts,
                  slots, "ac.bwd_of", owned, readOnly, &fs->bwd, &block);
  if (st != AC_OK)
    goto done;
  fs->bwdBlock = block;
  if (!(fs->after = acCalloc((size_t)fn->numOps + 1, sizeof *fs->after))) {
    st = acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
    goto done;
  }
  for (AcId op = fn->firstOp; op < fn->firstOp + fn->numOps; ++op) {
    if (g->ops[op].phase != AC_PHASE_BWD)
      continue;
    for (int32_t gi = s->groupHead[op]; gi >= 0; gi = s->groupNext[gi]) {
      st = emitGroup(s, gi, block, name, &fs->after[op - fn->firstOp]);
      if (st != AC_OK)
        goto done;
    }
    st = takeOp(s, op, name);
    if (st != AC_OK)
      goto done;
  }
  st = appendReturn(s, block, mlirOperationGetLocation(s->imp->returnOps[fs->func]),
                    fs->bwdOuts, fs->numBwdOuts, name);
done:
  acFree(name);
  acFree(args);
  acFree(slots);
  acFree(owned);
  acFree(readOnly);
  return st;
}

/// The offloaded saves of one split (acRewriteOffloadHalves), placed where
/// `sim` (a simulation of the plan with its timeline) placed them.
static AcStatus splitOffload(Split *s, FuncSplit *fs, const AcSimResult *sim) {
  intptr_t n = 0;
  size_t m = (size_t)fs->numSaved + 1;
  intptr_t *idx = acMalloc(sizeof(intptr_t) * m);
  MlirOperation *done = acMalloc(sizeof(MlirOperation) * m);
  MlirOperation *issue = acMalloc(sizeof(MlirOperation) * m);
  AcStatus st = AC_OK;
  if (!idx || !done || !issue) {
    st = acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
    goto done;
  }
  for (int32_t i = 0; i < fs->numSaved; ++i) {
    AcId v = fs->saved[i];
    if (!s->plan->offload[v])
      continue;
    AcId d = sim->offloadDone ? sim->offloadDone[v] : AC_NONE;
    AcId q = sim->offloadIssue ? sim->offloadIssue[v] : AC_NONE;
    done[n] = d == AC_NONE ? (MlirOperation){NULL} : s->imp->ops[d];
    issue[n] = q == AC_NONE ? (MlirOperation){NULL} : s->imp->ops[q];
    idx[n++] = i;
  }
  if (n)
    st = acRewriteOffloadHalves(s->ctx, fs->fwdBlock, fs->bwdBlock,
                                fs->numFwdOuts, idx, done, issue, n,
                                s->imp->cpuDevice ? "cpu" : "cuda", s->err);
done:
  acFree(idx);
  acFree(done);
  acFree(issue);
  return st;
}

/// Checks that @f's block holds exactly the graph's ops and its return, and
/// records in s->opInfo what the build needs of each op.  Op i is checked as
/// the successor of op i-1 (the block's first op for i = 0), so that reading
/// one op does not wait for reading the one before.
static AcStatus checkBody(Split *s, AcId f) {
  const AcGraph *g = s->g;
  const AcFunc *fn = &g->funcs[f];
  MlirOperation ret = s->imp->returnOps[f];
  MlirOperation *ops = s->imp->ops + fn->firstOp;
  MlirOperation cur = mlirBlockGetFirstOperation(mlirOperationGetBlock(ret));
  for (int32_t i = 0; i < fn->numOps; ++i) {
    if (i + AC_AHEAD < fn->numOps)
      AC_PREFETCH(ops[i + AC_AHEAD].ptr);
    if (mlirOperationIsNull(cur) || !mlirOperationEqual(cur, ops[i]))
      return acErrorSet(s->err, AC_ERR_INTERNAL, fn->firstOp + i, AC_NONE,
                        "rewrite: the body of @%s does not match its graph "
                        "(op %d)", fn->name, (int)i);
    s->opInfo[fn->firstOp + i] =
        (uint8_t)((mlirOperationGetNumRegions(ops[i]) > 0 ? OP_REGIONS : 0) |
                  (mlirOperationGetNumResults(ops[i]) !=
                           g->ops[fn->firstOp + i].numResults
                       ? OP_BAD_RESULTS
                       : 0));
    cur = mlirOperationGetNextInBlock(ops[i]);
  }
  if (!mlirOperationEqual(cur, ret) ||
      !mlirOperationIsNull(mlirOperationGetNextInBlock(cur)))
    return acErrorSet(s->err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                      "rewrite: the body of @%s holds ops the graph lacks",
                      fn->name);
  return AC_OK;
}

/// Creates (detached) `func.call @fn(args) {no_inline}` of func `fn`.
static AcStatus createCall(Split *s, MlirOperation fn, const MlirValue *args,
                           intptr_t nArgs, MlirLocation loc,
                           MlirOperation *out) {
  MlirAttribute ftAttr =
      mlirOperationGetInherentAttributeByName(fn, SREF("function_type"));
  MlirAttribute name =
      mlirOperationGetInherentAttributeByName(fn, SREF("sym_name"));
  MlirType ft = mlirTypeAttrGetValue(ftAttr);
  intptr_t nRes = mlirFunctionTypeGetNumResults(ft);
  MlirType *types = acMalloc(sizeof(MlirType) * (size_t)(nRes + 1));
  if (!types)
    return acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
  for (intptr_t i = 0; i < nRes; ++i)
    types[i] = mlirFunctionTypeGetResult(ft, i);
  /* no_inline: inlining both halves back into @f would let CSE merge each
     recomputation with the forward value it rebuilds (docs/rewrite.md). */
  MlirNamedAttribute attrs[2] = {
      namedAttr(s->ctx, "callee",
                mlirFlatSymbolRefAttrGet(s->ctx, mlirStringAttrGetValue(name))),
      namedAttr(s->ctx, "no_inline", mlirUnitAttrGet(s->ctx))};
  MlirOperationState st = mlirOperationStateGet(SREF("func.call"), loc);
  mlirOperationStateAddOperands(&st, nArgs, args);
  mlirOperationStateAddResults(&st, nRes, types);
  mlirOperationStateAddAttributes(&st, 2, attrs);
  *out = mlirOperationCreate(&st);
  acFree(types);
  if (mlirOperationIsNull(*out))
    return acErrorSet(s->err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                      "rewrite: cannot create the call of @%.*s",
                      (int)mlirStringAttrGetValue(name).length,
                      mlirStringAttrGetValue(name).data);
  return AC_OK;
}

/// Builds @f's new body detached: the two calls and the return operands.
static AcStatus buildCalls(Split *s, FuncSplit *fs) {
  const AcGraph *g = s->g;
  const AcFunc *fn = &g->funcs[fs->func];
  MlirLocation loc = mlirOperationGetLocation(s->imp->returnOps[fs->func]);
  AcStatus st = AC_OK;
  int32_t nFwdIn = 0, nBwdIn = fs->numSaved + fs->numTangents + fs->numBwdArgs;
  MlirValue *in =
      acMalloc(sizeof(MlirValue) * (size_t)(fn->numArgs + nBwdIn + 1));
  fs->retVals = acMalloc(sizeof(MlirValue) * (size_t)(fn->numRets + 1));
  if (!in || !fs->retVals) {
    st = acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
    goto done;
  }
  for (int32_t a = 0; a < fn->numArgs; ++a) {
    AcId v = fn->firstArg + a;
    if (g->values[v].role != AC_ROLE_TANGENT)
      in[nFwdIn++] = s->imp->values[v];
  }
  if ((st = createCall(s, fs->fwd, in, nFwdIn, loc, &fs->fwdCall)) != AC_OK)
    goto done;
  int32_t k = 0;
  for (int32_t i = 0; i < fs->numSaved; ++i)
    in[k++] = mlirOperationGetResult(fs->fwdCall, fs->numFwdOuts + i);
  for (int32_t i = 0; i < fs->numTangents; ++i)
    in[k++] = s->imp->values[fs->tangents[i]];
  for (int32_t i = 0; i < fs->numBwdArgs; ++i)
    in[k++] = s->imp->values[fs->bwdArgs[i]];
  if ((st = createCall(s, fs->bwd, in, k, loc, &fs->bwdCall)) != AC_OK)
    goto done;
  /* Each value is in fwdOuts or bwdOuts at most once (each of them once). */
  for (int32_t i = 0; i < fs->numFwdOuts; ++i)
    s->slot[fs->fwdOuts[i]] = i;
  for (int32_t i = 0; i < fs->numBwdOuts; ++i)
    s->slot[fs->bwdOuts[i]] = fs->numFwdOuts + i;
  for (int32_t r = 0; r < fn->numRets; ++r) {
    AcId v = g->rets[fn->firstRet + r];
    int32_t k = s->slot[v];
    MlirValue rv = g->values[v].producer == AC_NONE ? s->imp->values[v]
                   : k < 0                          ? nullValue()
                   : k < fs->numFwdOuts
                       ? mlirOperationGetResult(fs->fwdCall, k)
                       : mlirOperationGetResult(fs->bwdCall, k - fs->numFwdOuts);
    if (mlirValueIsNull(rv)) {
      st = acErrorSet(s->err, AC_ERR_INTERNAL, AC_NONE, v,
                      "rewrite: result %d of @%s has no source", (int)r,
                      fn->name);
      goto done;
    }
    fs->retVals[r] = rv;
  }
done:
  for (int32_t i = 0; i < fs->numFwdOuts; ++i)
    s->slot[fs->fwdOuts[i]] = -1;
  for (int32_t i = 0; i < fs->numBwdOuts; ++i)
    s->slot[fs->bwdOuts[i]] = -1;
  acFree(in);
  return st;
}

/*===-------------------------- commit -------------------------------------===*/

/// Moves a detached call before `ret`, renaming its callee to `name` (the
/// symbol table may have made the function's name unique).
static void placeCall(Split *s, MlirOperation call, MlirAttribute name,
                      MlirBlock body, MlirOperation ret) {
  mlirOperationSetInherentAttributeByName(
      call, SREF("callee"),
      mlirFlatSymbolRefAttrGet(s->ctx, mlirStringAttrGetValue(name)));
  mlirBlockInsertOwnedOperationBefore(body, ret, call);
}

/// Inserts the new functions after @f, moves @f's ops into them (forward
/// ops before @f_fwd's return, backward ops each after the recompute regions
/// emitted for it) and replaces @f's body by the calls.  The operands
/// recorded in s->remaps are set once every function is committed.
/// Allocates nothing of ours and cannot fail; ownership of everything built
/// moves to the module.
static void commit(Split *s, FuncSplit *fs, MlirSymbolTable symtab) {
  const AcGraph *g = s->g;
  const AcFunc *fn = &g->funcs[fs->func];
  MlirOperation fOp = s->imp->funcOps[fs->func];
  MlirOperation ret = s->imp->returnOps[fs->func];
  MlirBlock modBlock = mlirOperationGetBlock(fOp);
  MlirBlock body = mlirOperationGetBlock(ret);
  mlirBlockInsertOwnedOperationAfter(modBlock, fOp, fs->fwd);
  mlirBlockInsertOwnedOperationAfter(modBlock, fs->fwd, fs->bwd);
  MlirOperation fwdRet = mlirBlockGetTerminator(fs->fwdBlock);
  MlirOperation prev = nullOp();
  for (AcId op = fn->firstOp; op < fn->firstOp + fn->numOps; ++op) {
    MlirOperation o = s->imp->ops[op];
    if (op + AC_AHEAD < fn->firstOp + fn->numOps)
      AC_PREFETCH(s->imp->ops[op + AC_AHEAD].ptr);
    dropMarkers(s, o);
    if (g->ops[op].phase == AC_PHASE_FWD) {
      mlirOperationMoveBefore(o, fwdRet);
      continue;
    }
    MlirOperation a = fs->after[op - fn->firstOp];
    if (!mlirOperationIsNull(a))
      prev = a;
    if (mlirOperationIsNull(prev))
      mlirOperationMoveBefore(o, mlirBlockGetFirstOperation(fs->bwdBlock));
    else
      mlirOperationMoveAfter(o, prev);
    prev = o;
  }
  placeCall(s, fs->fwdCall, mlirSymbolTableInsert(symtab, fs->fwd), body, ret);
  placeCall(s, fs->bwdCall, mlirSymbolTableInsert(symtab, fs->bwd), body, ret);
  fs->fwd = fs->bwd = fs->fwdCall = fs->bwdCall = nullOp();
  mlirOperationSetOperands(ret, fn->numRets, fs->retVals);
  mlirOperationRemoveDiscardableAttributeByName(fOp, SREF("ac.joint"));
}

/*===-------------------------- entry point --------------------------------===*/

/// Loads the dialects the halves use, checks offload's helpers when the
/// plan offloads, and names the markers the split drops.
static AcStatus prepareContext(Split *s) {
  AcStatus st;
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), s->ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__scf__(), s->ctx);
  for (intptr_t v = 0; v < s->g->numValues; ++v)
    if (s->plan->offload[v]) {
      if ((st = acRewriteOffloadReady(s->ctx, s->err)) != AC_OK)
        return st;
      break;
    }
  s->markers[0] = mlirIdentifierGet(s->ctx, SREF("ac.save"));
  s->markers[1] = mlirIdentifierGet(s->ctx, SREF("ac.recompute"));
  s->markers[2] = mlirIdentifierGet(s->ctx, SREF("ac.phase"));
  return AC_OK;
}

/// The split's per-value and per-op scratch, and one FuncSplit per joint
/// function into *fss; slots and groups start at -1.
static AcStatus allocScratch(Split *s, FuncSplit **fss) {
  const AcGraph *g = s->g;
  s->map = acCalloc((size_t)g->numValues + 1, sizeof(MlirValue));
  s->flag = acCalloc((size_t)g->numValues + 1, 1);
  s->groupOf = acMalloc(sizeof(int32_t) * (size_t)(g->numOps + 1));
  s->groupHead = acMalloc(sizeof(int32_t) * (size_t)(g->numOps + 1));
  s->groupNext = acMalloc(sizeof(int32_t) * (size_t)(s->groups->numGroups + 1));
  s->opInfo = acCalloc((size_t)g->numOps + 1, 1);
  s->slot = acMalloc(sizeof(int32_t) * (size_t)(g->numValues + 1));
  *fss = acCalloc((size_t)g->numFuncs, sizeof(FuncSplit));
  if (!s->map || !s->flag || !s->groupOf || !s->groupHead || !s->groupNext ||
      !s->opInfo || !s->slot || !*fss)
    return acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
  for (intptr_t v = 0; v < g->numValues; ++v)
    s->slot[v] = -1;
  for (intptr_t op = 0; op < g->numOps; ++op)
    s->groupOf[op] = s->groupHead[op] = -1;
  return AC_OK;
}

/// Chains the recompute groups per anchor, keeping their order, after
/// checking each (anchored at a backward op, holding forward ops of its
/// anchor's function), then sizes emitGroup's scratch for the largest.
static AcStatus chainGroups(Split *s) {
  const AcGraph *g = s->g;
  const AcRecomputeGroups *groups = s->groups;
  size_t maxRes = 0;
  for (intptr_t gi = groups->numGroups - 1; gi >= 0; --gi) {
    const AcRecomputeGroup *grp = &groups->groups[gi];
    size_t nRes = 0;
    if (grp->anchor < 0 || grp->anchor >= g->numOps ||
        g->ops[grp->anchor].phase != AC_PHASE_BWD)
      return acErrorSet(s->err, AC_ERR_INTERNAL, grp->anchor, AC_NONE,
                        "rewrite: recompute group %d is not anchored at a "
                        "backward op", (int)gi);
    s->groupNext[gi] = s->groupHead[grp->anchor];
    s->groupHead[grp->anchor] = (int32_t)gi;
    for (int32_t k = 0; k < grp->numOps; ++k) {
      AcId op = groups->ops[grp->firstOp + k];
      if (op < 0 || op >= g->numOps || g->ops[op].phase != AC_PHASE_FWD ||
          g->ops[op].func != g->ops[grp->anchor].func)
        return acErrorSet(s->err, AC_ERR_INTERNAL, op, AC_NONE,
                          "rewrite: recompute group %d holds op %d, not a "
                          "forward op of its anchor's function", (int)gi,
                          (int)op);
      s->groupOf[op] = (int32_t)gi;
      nRes += (size_t)g->ops[op].numResults;
    }
    if (nRes > maxRes)
      maxRes = nRes;
  }
  s->fresh = acMalloc(sizeof(AcId) * (maxRes + 1));
  s->exports = acMalloc(sizeof(AcId) * (maxRes + 1));
  s->types = acMalloc(sizeof(MlirType) * (maxRes + 1));
  s->yields = acMalloc(sizeof(MlirValue) * (maxRes + 1));
  if (!s->fresh || !s->exports || !s->types || !s->yields)
    return acErrorSet(s->err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
  return AC_OK;
}

/// Phase 1: builds every joint function's halves and calls, detached.
static AcStatus buildAll(Split *s, FuncSplit *fss) {
  AcStatus st = AC_OK;
  for (intptr_t f = 0; f < s->g->numFuncs && st == AC_OK; ++f) {
    fss[f].func = (AcId)f;
    if ((st = checkBody(s, (AcId)f)) != AC_OK ||
        (st = classify(s, &fss[f])) != AC_OK ||
        (st = buildFwd(s, &fss[f])) != AC_OK ||
        (st = buildBwd(s, &fss[f])) != AC_OK)
      break;
    st = buildCalls(s, &fss[f]);
  }
  return st;
}

/// Phase 2: inserts the halves and rewrites the joint functions (commit),
/// then sets the operands recorded in s->remaps.
static AcStatus commitAll(Split *s, FuncSplit *fss) {
  MlirSymbolTable symtab = mlirSymbolTableCreate(s->imp->module);
  if (mlirSymbolTableIsNull(symtab))
    return acErrorSet(s->err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                      "rewrite: the module is not a symbol table");
  for (intptr_t f = 0; f < s->g->numFuncs; ++f)
    commit(s, &fss[f], symtab);
  mlirSymbolTableDestroy(symtab);
  for (intptr_t i = 0; i < s->numRemaps; ++i)
    mlirOperationSetOperand(s->remaps[i].op, s->remaps[i].index, s->remaps[i].value);
  return AC_OK;
}

/// The copies of offloaded saves in the halves, where the simulator placed
/// them (static bytes do not move them); nothing without offloads.
static AcStatus placeOffloads(Split *s, FuncSplit *fss) {
  const AcGraph *g = s->g;
  intptr_t offloads = 0;
  for (intptr_t v = 0; v < g->numValues; ++v)
    offloads += s->plan->offload[v] != 0;
  if (!offloads)
    return AC_OK;
  AcSimResult sim;
  AcStatus st = acSimulate(g, s->plan, 0, 1, &sim, s->err);
  for (intptr_t f = 0; f < g->numFuncs && st == AC_OK; ++f)
    st = splitOffload(s, &fss[f], &sim);
  acSimResultClear(&sim);
  return st;
}

/// Frees what the split owns (what it built and did not commit, too).
static void splitClear(Split *s, FuncSplit *fss) {
  if (fss)
    for (intptr_t f = 0; f < s->g->numFuncs; ++f)
      funcSplitClear(&fss[f]);
  acFree(fss);
  acPtrMapClear(&s->index);
  acFree(s->remaps);
  acFree(s->map);
  acFree(s->flag);
  acFree(s->groupOf);
  acFree(s->groupHead);
  acFree(s->groupNext);
  acFree(s->opInfo);
  acFree(s->slot);
  acFree(s->fresh);
  acFree(s->exports);
  acFree(s->types);
  acFree(s->yields);
}

AcStatus acRewriteSplit(AcImport *imp, const AcPlan *plan,
                        const AcRecomputeGroups *groups, AcError *err) {
  Split s;
  memset(&s, 0, sizeof(s));
  FuncSplit *fss = NULL;
  AcStatus st = AC_OK;
  if (!imp || !imp->graph || !plan || !groups)
    return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                      "rewrite: missing import, plan or groups");
  const AcGraph *g = imp->graph;
  if (g->numFuncs == 0)
    return AC_OK;
  if (plan->numValues != g->numValues || plan->numOps != g->numOps)
    return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                      "rewrite: the plan does not belong to this graph");
  s.imp = imp;
  s.g = g;
  s.plan = plan;
  s.groups = groups;
  s.err = err;
  s.ctx = mlirOperationGetContext(imp->module);
  if ((st = prepareContext(&s)) != AC_OK)
    return st;
  if ((st = allocScratch(&s, &fss)) != AC_OK || (st = chainGroups(&s)) != AC_OK ||
      (st = buildAll(&s, fss)) != AC_OK || (st = commitAll(&s, fss)) != AC_OK ||
      (st = placeOffloads(&s, fss)) != AC_OK)
    goto done;
  if (!mlirOperationVerify(imp->module))
    st = acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                    "rewrite: the split module does not verify");
done:
  splitClear(&s, fss);
  return st;
}
