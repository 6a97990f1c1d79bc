/* free.c - the auto-ac-free-at-last-use pass body (autoac/lower.h) and the
 * named lowering pipelines.  docs/rewrite.md, "Freeing at last use". */
#include "autoac/lower.h"
#include "import/import.h"
#include "support/ptrmap.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Func.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SREF(s) mlirStringRefCreateFromCString(s)

/// A growable list of values.
typedef struct AcValList {
  MlirValue *v;
  intptr_t n, cap;
} AcValList;

/// A growable list of ops.
typedef struct AcOpList {
  MlirOperation *v;
  intptr_t n, cap;
} AcOpList;

/// An `ac.owned` argument to free: insert `memref.dealloc arg` after `after`
/// (or at the start of `block` when `after` is null).
typedef struct AcOwnedFree {
  MlirValue arg;
  MlirBlock block;
  MlirOperation after;
} AcOwnedFree;

/// What the checking round found about `ac.owned` argument `arg` of `fn`:
/// `demoted`: its buffer may share storage with a value the callers keep
/// (ac.owned cannot hold); `lead`: the least argument of its group, the
/// arguments a call gives one storage (the leader frees it for all; an
/// argument in no group leads itself).  One note per (fn, arg).
typedef struct AcArgNote {
  MlirOperation fn;
  intptr_t arg, lead;
  int demoted;
} AcArgNote;

typedef struct AcFree {
  MlirOperation module;
  MlirContext ctx;
  AcPtrMap seen;      ///< value -> generation of the alias set holding it
  int32_t gen;
  AcValList set;      ///< the current alias set (also its worklist)
  AcPtrMap index;     ///< op of the current block -> position
  AcOpList ops;       ///< the current block's ops
  AcOpList erase;     ///< caller frees to erase (transfer)
  AcOpList transferCalls; ///< calls to mark ac.owned_transferred
  AcOwnedFree *owned; ///< ac.owned frees to insert
  intptr_t numOwned, capOwned;
  AcValList tmp;      ///< call results found in a caller's alias set
  AcArgNote *notes;   ///< what the checking round found about arguments
  intptr_t numNotes, capNotes;
  intptr_t *partner;  ///< resultPartners' answer: result indices
  intptr_t numPartner, capPartner;
  AcFreeStats stats;
} AcFree;

/*===------------------------------ helpers --------------------------------===*/


static int isBufferType(MlirType t) {
  return mlirTypeIsAMemRef(t) || mlirTypeIsAUnrankedMemRef(t) ||
         mlirTypeIsATensor(t);
}

static int isTensorType(MlirType t) { return mlirTypeIsATensor(t); }

/// Ops whose buffer results never alias their operands: fresh buffers,
/// globals, and call results (the deallocation ABI: the caller owns them).
static int hasFreshResults(MlirOperation op) {
  static const char *const names[] = {
      "memref.alloc", "memref.alloca", "bufferization.clone",
      "bufferization.alloc_tensor", "memref.get_global", "func.call",
      "gpu.alloc", NULL};
  for (int i = 0; names[i]; ++i)
    if (acOpIs(op, names[i]))
      return 1;
  return 0;
}

/// Uses of a buffer that neither read nor write its elements.
static int isMetadataUse(MlirOperation op) {
  return acOpIs(op, "memref.extract_aligned_pointer_as_index") ||
         acOpIs(op, "memref.dim") || acOpIs(op, "memref.rank");
}

static int hasBufferResult(MlirOperation op) {
  intptr_t n = mlirOperationGetNumResults(op);
  for (intptr_t i = 0; i < n; ++i)
    if (isBufferType(mlirValueGetType(mlirOperationGetResult(op, i))))
      return 1;
  return 0;
}

/// Walk callback: clears *(int *)user when an op other than memref.dealloc
/// and scf.yield is found (the root op itself excluded by the caller).
typedef struct AcOnlyFrees {
  MlirOperation root;
  int ok, frees;
} AcOnlyFrees;

static MlirWalkResult onlyFreesCb(MlirOperation op, void *user) {
  AcOnlyFrees *s = user;
  if (mlirOperationEqual(op, s->root))
    return MlirWalkResultAdvance;
  if (acOpIs(op, "memref.dealloc")) {
    s->frees++;
    return MlirWalkResultAdvance;
  }
  if (acOpIs(op, "scf.yield"))
    return MlirWalkResultAdvance;
  s->ok = 0;
  return MlirWalkResultInterrupt;
}

/// A free: a memref.dealloc, or an scf.if without results holding only
/// memref.deallocs (what lower-deallocations makes of a conditional free).
static int isFreeOp(MlirOperation op) {
  if (acOpIs(op, "memref.dealloc"))
    return 1;
  if (!acOpIs(op, "scf.if") || mlirOperationGetNumResults(op) != 0)
    return 0;
  AcOnlyFrees s = {op, 1, 0};
  mlirOperationWalk(op, onlyFreesCb, &s, MlirWalkPreOrder);
  return s.ok && s.frees > 0;
}

static AcStatus pushVal(AcValList *l, MlirValue v) {
  if (!acArrayGrow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v))
    return AC_ERR_NOMEM;
  l->v[l->n++] = v;
  return AC_OK;
}

static AcStatus pushOp(AcOpList *l, MlirOperation op) {
  if (!acArrayGrow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v))
    return AC_ERR_NOMEM;
  l->v[l->n++] = op;
  return AC_OK;
}

/// Adds `v` to the current alias set if it is a buffer not yet in it.
static AcStatus addAlias(AcFree *f, MlirValue v) {
  if (!isBufferType(mlirValueGetType(v)))
    return AC_OK;
  if (acPtrMapGet(&f->seen, v.ptr) == f->gen)
    return AC_OK;
  if (acPtrMapPut(&f->seen, v.ptr, f->gen) != AC_OK)
    return AC_ERR_NOMEM;
  return pushVal(&f->set, v);
}

static int inSet(const AcFree *f, MlirValue v) {
  return acPtrMapGet(&f->seen, v.ptr) == f->gen;
}

/// Walk callback: adds every buffer operand of the walked ops to the set.
typedef struct AcAddOperands {
  AcFree *f;
  AcStatus st;
} AcAddOperands;

static MlirWalkResult addOperandsCb(MlirOperation op, void *user) {
  AcAddOperands *a = user;
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i)
    if ((a->st = addAlias(a->f, mlirOperationGetOperand(op, i))) != AC_OK)
      return MlirWalkResultInterrupt;
  return MlirWalkResultAdvance;
}

static AcStatus addResults(AcFree *f, MlirOperation op) {
  intptr_t n = mlirOperationGetNumResults(op);
  for (intptr_t i = 0; i < n; ++i)
    if (addAlias(f, mlirOperationGetResult(op, i)) != AC_OK)
      return AC_ERR_NOMEM;
  return AC_OK;
}

/// Starts a new, empty alias set.
static AcStatus beginSet(AcFree *f) {
  f->set.n = 0;
  f->gen++;
  return AC_OK;
}

/// Closes the current set: backward through the op defining a member
/// (its buffer operands, and those of its nested ops, alias it unless its
/// results are fresh), forward through users with buffer results and through
/// the region ops enclosing a user.
static AcStatus closeSet(AcFree *f) {
  for (intptr_t i = 0; i < f->set.n; ++i) {
    MlirValue v = f->set.v[i];
    if (mlirValueIsAOpResult(v)) {
      MlirOperation d = mlirOpResultGetOwner(v);
      if (!hasFreshResults(d)) {
        AcAddOperands a = {f, AC_OK};
        mlirOperationWalk(d, addOperandsCb, &a, MlirWalkPreOrder);
        if (a.st != AC_OK)
          return a.st;
      }
    }
    for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      for (MlirOperation x = user; !mlirOperationIsNull(x);
           x = mlirOperationGetParentOperation(x)) {
        if (acOpIs(x, "func.func") || acOpIs(x, "builtin.module"))
          break;
        if (!hasFreshResults(x) && hasBufferResult(x) &&
            addResults(f, x) != AC_OK)
          return AC_ERR_NOMEM;
      }
    }
  }
  return AC_OK;
}

/// The ancestor of `op` (or `op` itself) that lies in `block`; null if none.
static MlirOperation ancestorIn(MlirOperation op, MlirBlock block) {
  for (MlirOperation a = op; !mlirOperationIsNull(a);
       a = mlirOperationGetParentOperation(a))
    if (mlirBlockEqual(mlirOperationGetBlock(a), block))
      return a;
  return (MlirOperation){NULL};
}

/// Snapshots `block`'s ops into f->ops and f->index.
static AcStatus indexBlock(AcFree *f, MlirBlock block) {
  acPtrMapClear(&f->index);
  f->ops.n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (acPtrMapPut(&f->index, op.ptr, (int32_t)f->ops.n) != AC_OK ||
        pushOp(&f->ops, op) != AC_OK)
      return AC_ERR_NOMEM;
  }
  return AC_OK;
}

/// Position in the indexed block of the ancestor of `op`; -2 if outside.
static intptr_t posIn(AcFree *f, MlirOperation op, MlirBlock block) {
  MlirOperation a = ancestorIn(op, block);
  if (mlirOperationIsNull(a))
    return -2;
  return acPtrMapGet(&f->index, a.ptr);
}

/// Emits an error at `op` with a printf-style message.
static void emitAt(MlirOperation op, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void emitAt(MlirOperation op, const char *fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  mlirEmitError(mlirOperationGetLocation(op), msg);
}

/// Name of a func.func (its sym_name), for messages.
static void funcName(MlirOperation fn, char *buf, size_t n) {
  MlirAttribute a = mlirOperationGetAttributeByName(fn, SREF("sym_name"));
  MlirStringRef s = mlirAttributeIsAString(a) ? mlirStringAttrGetValue(a)
                                              : SREF("?");
  snprintf(buf, n, "%.*s", (int)s.length, s.data);
}

/// Whether argument `k` of func `fn` carries `ac.owned`.
static int argOwned(MlirOperation fn, intptr_t k) {
  MlirAttribute o = acFuncArgAttr(fn, k, "ac.owned");
  return !mlirAttributeIsNull(o) &&
         (mlirAttributeIsAUnit(o) ||
          (mlirAttributeIsABool(o) && mlirBoolAttrGetValue(o)));
}

/// The note on argument `k` of `fn`, or null.
static AcArgNote *noteOf(const AcFree *f, MlirOperation fn, intptr_t k) {
  for (intptr_t i = 0; i < f->numNotes; ++i)
    if (mlirOperationEqual(f->notes[i].fn, fn) && f->notes[i].arg == k)
      return &f->notes[i];
  return NULL;
}

/// The note on argument `k` of `fn`, made when missing; null when out of
/// memory.
static AcArgNote *notePut(AcFree *f, MlirOperation fn, intptr_t k) {
  AcArgNote *n = noteOf(f, fn, k);
  if (n)
    return n;
  if (!acArrayGrow((void **)&f->notes, &f->capNotes, f->numNotes + 1,
                   sizeof *f->notes))
    return NULL;
  n = &f->notes[f->numNotes++];
  *n = (AcArgNote){fn, k, k, 0};
  return n;
}

/// Whether argument `k` of `fn` was found shared (ownership kept by callers).
static int isDemoted(const AcFree *f, MlirOperation fn, intptr_t k) {
  const AcArgNote *n = noteOf(f, fn, k);
  return n && n->demoted;
}

static AcStatus demote(AcFree *f, MlirOperation fn, intptr_t k) {
  AcArgNote *n = notePut(f, fn, k);
  if (!n)
    return AC_ERR_NOMEM;
  n->demoted = 1;
  return AC_OK;
}

/// The leader of argument `k` of `fn`'s group (itself when in none).
static intptr_t leaderOf(const AcFree *f, MlirOperation fn, intptr_t k) {
  const AcArgNote *n = noteOf(f, fn, k);
  return n ? n->lead : k;
}

/// Puts arguments `a` and `b` of `fn` in one group (led by its least).
static AcStatus join(AcFree *f, MlirOperation fn, intptr_t a, intptr_t b) {
  intptr_t la = leaderOf(f, fn, a), lb = leaderOf(f, fn, b);
  intptr_t lead = la < lb ? la : lb;
  if (!notePut(f, fn, a) || !notePut(f, fn, b))
    return AC_ERR_NOMEM;
  for (intptr_t i = 0; i < f->numNotes; ++i)
    if (mlirOperationEqual(f->notes[i].fn, fn) &&
        (f->notes[i].lead == la || f->notes[i].lead == lb))
      f->notes[i].lead = lead;
  return AC_OK;
}

/// A group with a demoted member is demoted whole: the callers keep every
/// free (one member freed by the callee and another by a caller would free
/// the storage twice).
static void demoteGroups(AcFree *f) {
  for (int changed = 1; changed;) {
    changed = 0;
    for (intptr_t i = 0; i < f->numNotes; ++i)
      for (intptr_t j = 0; j < f->numNotes; ++j) {
        AcArgNote *x = &f->notes[i], *y = &f->notes[j];
        if (x->demoted && !y->demoted && x->lead == y->lead &&
            mlirOperationEqual(x->fn, y->fn)) {
          y->demoted = 1;
          changed = 1;
        }
      }
  }
}

static intptr_t funcNumArgs(MlirOperation fn) {
  MlirAttribute t = mlirOperationGetAttributeByName(fn, SREF("function_type"));
  if (mlirAttributeIsNull(t) || !mlirAttributeIsAType(t))
    return 0;
  return mlirFunctionTypeGetNumInputs(mlirTypeAttrGetValue(t));
}

static int funcHasBody(MlirOperation fn) {
  MlirRegion r = mlirOperationGetRegion(fn, 0);
  return !mlirBlockIsNull(mlirRegionGetFirstBlock(r));
}

/*===------------------------ 0. the input check ---------------------------===*/

typedef struct AcCheck {
  MlirOperation bad;
  const char *why;
} AcCheck;

static MlirWalkResult checkCb(MlirOperation op, void *user) {
  AcCheck *c = user;
  if (acOpIs(op, "bufferization.dealloc")) {
    c->bad = op;
    c->why = "holds 'bufferization.dealloc'; it runs after the whole "
             "buffer-deallocation-pipeline (lower-deallocations included)";
    return MlirWalkResultInterrupt;
  }
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i)
    if (isTensorType(mlirValueGetType(mlirOperationGetOperand(op, i))))
      goto tensor;
  n = mlirOperationGetNumResults(op);
  for (intptr_t i = 0; i < n; ++i)
    if (isTensorType(mlirValueGetType(mlirOperationGetResult(op, i))))
      goto tensor;
  if (acOpIs(op, "func.func")) {
    MlirAttribute t = mlirOperationGetAttributeByName(op, SREF("function_type"));
    if (!mlirAttributeIsNull(t) && mlirAttributeIsAType(t)) {
      MlirType ft = mlirTypeAttrGetValue(t);
      for (intptr_t i = 0; i < mlirFunctionTypeGetNumInputs(ft); ++i)
        if (isTensorType(mlirFunctionTypeGetInput(ft, i)))
          goto tensor;
      for (intptr_t i = 0; i < mlirFunctionTypeGetNumResults(ft); ++i)
        if (isTensorType(mlirFunctionTypeGetResult(ft, i)))
          goto tensor;
    }
  }
  return MlirWalkResultAdvance;
tensor:
  c->bad = op;
  c->why = "works on tensors; it runs on bufferized IR, after "
           "one-shot-bufferize and buffer-deallocation-pipeline";
  return MlirWalkResultInterrupt;
}

static AcStatus checkInput(AcFree *f, MlirOperation fn) {
  AcCheck c = {{NULL}, NULL};
  mlirOperationWalk(fn, checkCb, &c, MlirWalkPreOrder);
  if (!c.bad.ptr)
    return AC_OK;
  char name[256];
  funcName(fn, name, sizeof name);
  MlirStringRef opName = mlirIdentifierStr(mlirOperationGetName(c.bad));
  char on[128];
  snprintf(on, sizeof on, "%.*s", (int)opName.length, opName.data);
  char msg[700];
  snprintf(msg, sizeof msg,
           "auto-ac-free-at-last-use: '%s' in @%s %s", on, name, c.why);
  mlirEmitError(mlirOperationGetLocation(c.bad), msg);
  (void)f;
  return AC_ERR_INVALID;
}

/*===------------------- 1. ownership given at a call ----------------------===*/

typedef struct AcCalls {
  AcOpList calls;
  AcStatus st;
} AcCalls;

static MlirWalkResult collectCallsCb(MlirOperation op, void *user) {
  AcCalls *c = user;
  if (acOpIs(op, "func.call") &&
      mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
          op, SREF("ac.owned_transferred"))) &&
      (c->st = pushOp(&c->calls, op)) != AC_OK)
    return MlirWalkResultInterrupt;
  return MlirWalkResultAdvance;
}

/// The func.func named by `call`'s callee in `module`, or null.
static MlirOperation calleeIn(MlirOperation module, MlirOperation call) {
  MlirAttribute sym = mlirOperationGetAttributeByName(call, SREF("callee"));
  if (mlirAttributeIsNull(sym) || !mlirAttributeIsAFlatSymbolRef(sym))
    return (MlirOperation){NULL};
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(sym);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!acOpIs(op, "func.func"))
      continue;
    MlirAttribute a = mlirOperationGetAttributeByName(op, SREF("sym_name"));
    if (mlirAttributeIsAString(a) &&
        mlirStringRefEqual(mlirStringAttrGetValue(a), name))
      return op;
  }
  return (MlirOperation){NULL};
}


/// The results of `call` whose storage result `r` may share in its callee
/// (two results of one buffer: a saved value and a view of it, a saved
/// `tensor.empty` and the op written into it in place), in f->partner;
/// *unknown when it may share with one of the callee's arguments or the
/// callee cannot be read (no body, several blocks).  Uses (and clobbers)
/// the current set.
static AcStatus resultPartners(AcFree *f, MlirOperation call, intptr_t r,
                               int *unknown) {
  MlirOperation g = calleeIn(f->module, call);
  *unknown = 1;
  f->numPartner = 0;
  if (mlirOperationIsNull(g) || !funcHasBody(g))
    return AC_OK;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(entry)))
    return AC_OK;
  MlirOperation ret = mlirBlockGetTerminator(entry);
  intptr_t n = mlirOperationGetNumOperands(ret);
  if (mlirOperationIsNull(ret) || r >= n)
    return AC_OK;
  if (beginSet(f) != AC_OK ||
      addAlias(f, mlirOperationGetOperand(ret, r)) != AC_OK ||
      closeSet(f) != AC_OK)
    return AC_ERR_NOMEM;
  for (intptr_t j = 0; j < mlirBlockGetNumArguments(entry); ++j)
    if (inSet(f, mlirBlockGetArgument(entry, j)))
      return AC_OK;
  for (intptr_t j = 0; j < n; ++j) {
    if (j == r || !inSet(f, mlirOperationGetOperand(ret, j)))
      continue;
    if (!acArrayGrow((void **)&f->partner, &f->capPartner, f->numPartner + 1,
                     sizeof *f->partner))
      return AC_ERR_NOMEM;
    f->partner[f->numPartner++] = j;
  }
  *unknown = 0;
  return AC_OK;
}

/// The `ac.owned` argument of `callee` other than `k` that `call` passes
/// `w` (or an alias of it) to, or -1.  Uses (and clobbers) the current set.
static AcStatus ownedArgOf(AcFree *f, MlirOperation call, MlirOperation callee,
                           intptr_t k, MlirValue w, intptr_t *found) {
  *found = -1;
  intptr_t n = mlirOperationGetNumOperands(call);
  for (intptr_t j = 0; j < n && j < funcNumArgs(callee) && *found < 0; ++j) {
    if (j == k || !argOwned(callee, j))
      continue;
    if (beginSet(f) != AC_OK ||
        addAlias(f, mlirOperationGetOperand(call, j)) != AC_OK ||
        closeSet(f) != AC_OK)
      return AC_ERR_NOMEM;
    if (inSet(f, w))
      *found = j;
  }
  return AC_OK;
}

/// Argument `k` of `callee` gets a buffer that call results `f->tmp`
/// (found in its alias set) may share with other results of their call:
/// when every such result goes to another `ac.owned` argument of this
/// call, the arguments are one group (freed once by the callee, after the
/// last use of any of them); otherwise `k` is demoted.
static AcStatus groupOrDemote(AcFree *f, MlirOperation call,
                              MlirOperation callee, intptr_t k) {
  for (intptr_t t = 0; t < f->tmp.n; ++t) {
    MlirValue w = f->tmp.v[t];
    MlirOperation prod = mlirOpResultGetOwner(w);
    int unknown = 1;
    if (resultPartners(f, prod, mlirOpResultGetResultNumber(w), &unknown) != AC_OK)
      return AC_ERR_NOMEM;
    if (unknown)
      return demote(f, callee, k);
    intptr_t np = f->numPartner;
    for (intptr_t p = 0; p < np; ++p) {
      intptr_t j = f->partner[p], k2 = -1;
      if (ownedArgOf(f, call, callee, k, mlirOperationGetResult(prod, j), &k2) != AC_OK)
        return AC_ERR_NOMEM;
      if (k2 < 0)
        return demote(f, callee, k);
      if (join(f, callee, k, k2) != AC_OK)
        return AC_ERR_NOMEM;
    }
  }
  return AC_OK;
}

/// One call to a function with `ac.owned` arguments.  Checking (`collect`
/// 0): errors, and demotes an argument whose buffer may share storage with
/// another value (its `ac.owned` cannot hold; the callers keep freeing it).
/// Collecting (1): records the caller frees a kept ac.owned makes redundant.
static AcStatus planTransfer(AcFree *f, MlirOperation fn, MlirOperation call,
                             MlirOperation callee, int collect) {
  char caller[256], cname[256];
  funcName(fn, caller, sizeof caller);
  funcName(callee, cname, sizeof cname);
  MlirBlock block = mlirOperationGetBlock(call);
  if (indexBlock(f, block) != AC_OK)
    return AC_ERR_NOMEM;
  intptr_t at = acPtrMapGet(&f->index, call.ptr);
  intptr_t n = mlirOperationGetNumOperands(call);
  int any = 0;
  for (intptr_t k = 0; k < n && k < funcNumArgs(callee); ++k) {
    if (!argOwned(callee, k) || (collect && isDemoted(f, callee, k)))
      continue;
    MlirValue v = mlirOperationGetOperand(call, k);
    if (!mlirTypeIsAMemRef(mlirValueGetType(v)) &&
        !mlirTypeIsAUnrankedMemRef(mlirValueGetType(v))) {
      emitAt(call, "auto-ac-free-at-last-use: @%s passes a value that is not "
             "a buffer to 'ac.owned' argument #%ld of @%s", caller, (long)k, cname);
      return AC_ERR_INVALID;
    }
    any = 1;
    if (beginSet(f) != AC_OK || addAlias(f, v) != AC_OK || closeSet(f) != AC_OK)
      return AC_ERR_NOMEM;
    for (intptr_t j = 0; j < n; ++j)
      if (j != k && argOwned(callee, j) &&
          inSet(f, mlirOperationGetOperand(call, j))) {
        emitAt(call, "auto-ac-free-at-last-use: @%s passes one buffer to two "
               "'ac.owned' arguments of @%s (#%ld and another): it would be "
               "freed twice", caller, cname, (long)k);
        return AC_ERR_INVALID;
      }
    intptr_t frees = 0, firstErase = f->erase.n;
    f->tmp.n = 0;
    for (intptr_t i = 0; i < f->set.n; ++i) {
      MlirValue w = f->set.v[i];
      if (mlirValueIsAOpResult(w) && acOpIs(mlirOpResultGetOwner(w), "func.call") &&
          pushVal(&f->tmp, w) != AC_OK)
        return AC_ERR_NOMEM;
      for (MlirOpOperand u = mlirValueGetFirstUse(w);
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
        MlirOperation user = mlirOpOperandGetOwner(u);
        intptr_t p = posIn(f, user, block);
        if (p == -2) {
          emitAt(user, "auto-ac-free-at-last-use: @%s uses a buffer it gives "
                 "to 'ac.owned' argument #%ld of @%s outside the call's "
                 "block", caller, (long)k, cname);
          return AC_ERR_INVALID;
        }
        if (p <= at)
          continue;
        if (acOpIs(user, "memref.dealloc")) {
          if (collect && pushOp(&f->erase, user) != AC_OK)
            return AC_ERR_NOMEM;
          frees++;
          continue;
        }
        if (isMetadataUse(user) ||
            (!hasFreshResults(user) && hasBufferResult(user) &&
             mlirOperationGetNumRegions(user) == 0))
          continue; /* a view or metadata: its own uses are in the set */
        emitAt(user, "auto-ac-free-at-last-use: @%s uses a buffer after the "
               "call that gives it to 'ac.owned' argument #%ld of @%s",
               caller, (long)k, cname);
        return AC_ERR_INVALID;
      }
    }
    if (frees == 0) {
      f->erase.n = firstErase;
      emitAt(call, "auto-ac-free-at-last-use: @%s gives a buffer to 'ac.owned' "
             "argument #%ld of @%s but frees nothing of it after the call: "
             "it does not own it", caller, (long)k, cname);
      return AC_ERR_INVALID;
    }
    if (collect)
      continue;
    /* Returned by a call: the callee must return it in a buffer of its own,
     * or share it only with what this call also gives to ac.owned. */
    if (groupOrDemote(f, call, callee, k) != AC_OK)
      return AC_ERR_NOMEM;
  }
  if (collect && any && pushOp(&f->transferCalls, call) != AC_OK)
    return AC_ERR_NOMEM;
  return AC_OK;
}

/*===------------------- 2. ac.owned arguments freed -----------------------===*/

static AcStatus planOwned(AcFree *f, MlirOperation fn) {
  intptr_t nArgs = funcNumArgs(fn);
  char name[256];
  funcName(fn, name, sizeof name);
  MlirRegion body = mlirOperationGetRegion(fn, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  for (intptr_t k = 0; k < nArgs; ++k) {
    if (!argOwned(fn, k) || isDemoted(f, fn, k) || leaderOf(f, fn, k) != k ||
        !mlirAttributeIsNull(acFuncArgAttr(fn, k, "ac.owned_with")))
      continue; /* not owned, or freed with its group's leader */
    if (!mlirBlockIsNull(mlirBlockGetNextInRegion(entry))) {
      emitAt(fn, "auto-ac-free-at-last-use: @%s has 'ac.owned' arguments and "
             "several blocks; only single-block functions are supported",
             name);
      return AC_ERR_INVALID;
    }
    MlirValue arg = mlirBlockGetArgument(entry, k);
    MlirType t = mlirValueGetType(arg);
    if (!mlirTypeIsAMemRef(t) && !mlirTypeIsAUnrankedMemRef(t)) {
      emitAt(fn, "auto-ac-free-at-last-use: 'ac.owned' argument #%ld of @%s "
             "is not a buffer", (long)k, name);
      return AC_ERR_INVALID;
    }
    if (indexBlock(f, entry) != AC_OK)
      return AC_ERR_NOMEM;
    if (beginSet(f) != AC_OK || addAlias(f, arg) != AC_OK)
      return AC_ERR_NOMEM;
    for (intptr_t i = 0; i < f->numNotes; ++i) /* the group's other members */
      if (mlirOperationEqual(f->notes[i].fn, fn) && f->notes[i].lead == k &&
          f->notes[i].arg < mlirBlockGetNumArguments(entry) &&
          addAlias(f, mlirBlockGetArgument(entry, f->notes[i].arg)) != AC_OK)
        return AC_ERR_NOMEM;
    if (closeSet(f) != AC_OK)
      return AC_ERR_NOMEM;
    intptr_t last = -1, freed = 0;
    intptr_t term = f->ops.n - 1;
    for (intptr_t i = 0; i < f->set.n; ++i) {
      for (MlirOpOperand u = mlirValueGetFirstUse(f->set.v[i]);
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
        MlirOperation user = mlirOpOperandGetOwner(u);
        intptr_t p = posIn(f, user, entry);
        if (acOpIs(user, "memref.dealloc"))
          freed = 1;
        if (p == term && term >= 0 &&
            mlirOperationEqual(f->ops.v[term], mlirBlockGetTerminator(entry))) {
          emitAt(user, "auto-ac-free-at-last-use: @%s returns 'ac.owned' "
                 "argument #%ld (or an alias of it): it cannot free it",
                 name, (long)k);
          return AC_ERR_INVALID;
        }
        if (p > last)
          last = p;
      }
    }
    if (freed)
      continue; /* already freed (the pass ran before) */
    if (!acArrayGrow((void **)&f->owned, &f->capOwned, f->numOwned + 1,
                     sizeof *f->owned))
      return AC_ERR_NOMEM;
    f->owned[f->numOwned++] = (AcOwnedFree){
        arg, entry, last >= 0 ? f->ops.v[last] : (MlirOperation){NULL}};
  }
  return AC_OK;
}

static AcStatus insertOwnedFree(AcFree *f, const AcOwnedFree *o) {
  MlirLocation loc = mlirOperationGetLocation(
      mlirOperationIsNull(o->after) ? mlirBlockGetParentOperation(o->block)
                                    : o->after);
  MlirOperationState st = mlirOperationStateGet(SREF("memref.dealloc"), loc);
  mlirOperationStateAddOperands(&st, 1, &o->arg);
  MlirOperation d = mlirOperationCreate(&st);
  if (mlirOperationIsNull(d))
    return AC_ERR_NOMEM;
  if (mlirOperationIsNull(o->after))
    mlirBlockInsertOwnedOperation(o->block, 0, d);
  else
    mlirBlockInsertOwnedOperationAfter(o->block, o->after, d);
  f->stats.ownedFrees++;
  return AC_OK;
}

/*===---------------------- 3. frees moved up ------------------------------===*/

typedef struct AcFreeOperands {
  AcFree *f;
  MlirOperation root;
  MlirBlock block;
  intptr_t last;
  AcStatus st;
} AcFreeOperands;

/// Walk callback over a free op: the latest position (in the block) among
/// the definitions of what it reads from outside itself; seeds the set with
/// the freed values.
/// Adds the arguments freed with `v` (`ac.owned_with` naming it: one
/// storage) when `v` is an argument of a function.
static AcStatus addGroup(AcFree *f, MlirValue v) {
  if (!mlirValueIsABlockArgument(v))
    return AC_OK;
  MlirBlock b = mlirBlockArgumentGetOwner(v);
  MlirOperation fn = mlirBlockGetParentOperation(b);
  if (!acOpIs(fn, "func.func") ||
      !mlirBlockEqual(b, mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0))))
    return AC_OK;
  intptr_t k = mlirBlockArgumentGetArgNumber(v);
  for (intptr_t j = 0; j < mlirBlockGetNumArguments(b); ++j) {
    MlirAttribute w = acFuncArgAttr(fn, j, "ac.owned_with");
    if (!mlirAttributeIsNull(w) && mlirAttributeIsAInteger(w) &&
        mlirIntegerAttrGetValueInt(w) == k &&
        addAlias(f, mlirBlockGetArgument(b, j)) != AC_OK)
      return AC_ERR_NOMEM;
  }
  return AC_OK;
}

static MlirWalkResult freeOperandsCb(MlirOperation op, void *user) {
  AcFreeOperands *a = user;
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (acOpIs(op, "memref.dealloc") &&
        ((a->st = addAlias(a->f, v)) != AC_OK || (a->st = addGroup(a->f, v)) != AC_OK))
      return MlirWalkResultInterrupt;
    if (!mlirValueIsAOpResult(v))
      continue;
    MlirOperation d = mlirOpResultGetOwner(v);
    MlirOperation anc = ancestorIn(d, a->block);
    if (mlirOperationIsNull(anc) || mlirOperationEqual(anc, a->root))
      continue;
    intptr_t p = acPtrMapGet(&a->f->index, anc.ptr);
    if (p > a->last)
      a->last = p;
  }
  return MlirWalkResultAdvance;
}

static AcStatus moveFreesInBlock(AcFree *f, MlirBlock block) {
  if (indexBlock(f, block) != AC_OK)
    return AC_ERR_NOMEM;
  intptr_t n = f->ops.n;
  if (n == 0)
    return AC_OK;
  AcStatus st = AC_OK;
  char *isFree = acCalloc((size_t)n, 1);
  MlirOperation *tail = acMalloc(sizeof *tail * (size_t)n);
  MlirOperation headTail = {NULL};
  if (!isFree || !tail) {
    st = AC_ERR_NOMEM;
    goto done;
  }
  for (intptr_t i = 0; i < n; ++i) {
    isFree[i] = (char)isFreeOp(f->ops.v[i]);
    tail[i] = f->ops.v[i];
  }
  for (intptr_t i = 0; i < n; ++i) {
    if (!isFree[i])
      continue;
    MlirOperation op = f->ops.v[i];
    if ((st = beginSet(f)) != AC_OK)
      goto done;
    AcFreeOperands a = {f, op, block, -1, AC_OK};
    mlirOperationWalk(op, freeOperandsCb, &a, MlirWalkPreOrder);
    if ((st = a.st) != AC_OK || (st = closeSet(f)) != AC_OK)
      goto done;
    intptr_t last = a.last;
    int movable = 1;
    for (intptr_t s = 0; s < f->set.n && movable; ++s) {
      MlirValue v = f->set.v[s];
      if (mlirValueIsAOpResult(v)) {
        MlirOperation anc = ancestorIn(mlirOpResultGetOwner(v), block);
        if (!mlirOperationIsNull(anc) && !mlirOperationEqual(anc, op)) {
          intptr_t p = acPtrMapGet(&f->index, anc.ptr);
          if (p > last)
            last = p;
        }
      }
      for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
           u = mlirOpOperandGetNextUse(u)) {
        MlirOperation anc = ancestorIn(mlirOpOperandGetOwner(u), block);
        if (mlirOperationIsNull(anc)) {
          movable = 0; /* read outside this block: leave the free alone */
          break;
        }
        intptr_t p = acPtrMapGet(&f->index, anc.ptr);
        if (p == i || isFree[p])
          continue;
        if (p > last)
          last = p;
      }
    }
    if (!movable || last >= i)
      continue;
    intptr_t p = last + 1;
    while (p < i && isFree[p])
      ++p;
    if (p == i)
      continue; /* only frees in between: already in place */
    if (last < 0) {
      if (mlirOperationIsNull(headTail))
        mlirOperationMoveBefore(op, f->ops.v[0]);
      else
        mlirOperationMoveAfter(op, headTail);
      headTail = op;
    } else {
      mlirOperationMoveAfter(op, tail[last]);
      tail[last] = op;
    }
    f->stats.movedFrees++;
  }
done:
  acFree(isFree);
  acFree(tail);
  return st;
}

typedef struct AcBlocks {
  AcFree *f;
  AcStatus st;
} AcBlocks;

static MlirWalkResult moveFreesCb(MlirOperation op, void *user) {
  AcBlocks *b = user;
  intptr_t nr = mlirOperationGetNumRegions(op);
  for (intptr_t r = 0; r < nr; ++r)
    for (MlirBlock bl = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(bl); bl = mlirBlockGetNextInRegion(bl))
      if ((b->st = moveFreesInBlock(b->f, bl)) != AC_OK)
        return MlirWalkResultInterrupt;
  return MlirWalkResultAdvance;
}

/*===------------------- 4. frees behind an alias check -------------------===*/

typedef struct AcAliasCheck {
  MlirOperation helper; ///< a call to the pipeline's dealloc helper
  MlirOperation call;   ///< the first other call with buffer results
} AcAliasCheck;

/// Whether `call` calls the deallocation pipeline's run-time alias check
/// (`@dealloc_helper`, uniqued `@dealloc_helper_0`, ...).
static int callsDeallocHelper(MlirOperation call) {
  MlirAttribute sym = mlirOperationGetAttributeByName(call, SREF("callee"));
  if (mlirAttributeIsNull(sym) || !mlirAttributeIsAFlatSymbolRef(sym))
    return 0;
  MlirStringRef n = mlirFlatSymbolRefAttrGetValue(sym);
  return n.length >= 14 && memcmp(n.data, "dealloc_helper", 14) == 0;
}

static MlirWalkResult aliasCheckCb(MlirOperation op, void *user) {
  AcAliasCheck *a = user;
  if (!acOpIs(op, "func.call"))
    return MlirWalkResultAdvance;
  if (callsDeallocHelper(op)) {
    if (mlirOperationIsNull(a->helper))
      a->helper = op;
  } else if (mlirOperationIsNull(a->call) && hasBufferResult(op)) {
    a->call = op;
  }
  return MlirWalkResultAdvance;
}

/// Warns when `fn` frees buffers behind the pipeline's run-time alias check
/// (its frees stay at the end: the compiled peak may exceed the planned
/// one), naming the call whose results made it necessary.
static void warnAliasCheck(AcFree *f, MlirOperation fn) {
  AcAliasCheck a = {{NULL}, {NULL}};
  mlirOperationWalk(fn, aliasCheckCb, &a, MlirWalkPreOrder);
  if (mlirOperationIsNull(a.helper))
    return;
  /* Only frees gated by the check are late (the split's wrapper keeps a
     check with nothing behind it once its frees moved to @f_bwd). */
  int gated = 0;
  for (MlirOperation op = mlirOperationGetNextInBlock(a.helper);
       !mlirOperationIsNull(op) && !gated; op = mlirOperationGetNextInBlock(op))
    gated = acOpIs(op, "scf.if") && isFreeOp(op);
  if (!gated)
    return;
  char name[256], callee[256] = "?", msg[900];
  funcName(fn, name, sizeof name);
  if (!mlirOperationIsNull(a.call)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(a.call, SREF("callee"));
    if (!mlirAttributeIsNull(sym) && mlirAttributeIsAFlatSymbolRef(sym)) {
      MlirStringRef n = mlirFlatSymbolRefAttrGetValue(sym);
      snprintf(callee, sizeof callee, "%.*s", (int)n.length, n.data);
    }
  }
  snprintf(msg, sizeof msg,
           "auto-ac-free-at-last-use: @%s frees buffers behind a run-time "
           "alias check at its end%s%s%s: they stay live until then, and the "
           "compiled peak may exceed the planned one", name,
           mlirOperationIsNull(a.call) ? "" : " (the results of the call to @",
           mlirOperationIsNull(a.call) ? "" : callee,
           mlirOperationIsNull(a.call) ? "" : " may alias)");
  acEmitDiagnostic(mlirOperationGetLocation(mlirOperationIsNull(a.call) ? a.helper
                                                                        : a.call),
                   1, msg);
  f->stats.aliasChecked++;
}

/*===------------------------------ driver ---------------------------------===*/

/// The bodied func.funcs of `module` into `funcs`, in order, and its first
/// bodied llvm.func (if any) into *lowered; AC_ERR_NOMEM.
static AcStatus collectFuncs(MlirOperation module, AcOpList *funcs,
                             MlirOperation *lowered) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (acOpIs(op, "llvm.func") && funcHasBody(op) && mlirOperationIsNull(*lowered))
      *lowered = op;
    if (acOpIs(op, "func.func") && funcHasBody(op) && pushOp(funcs, op) != AC_OK)
      return AC_ERR_NOMEM;
  }
  return AC_OK;
}

/// Checks every function, and that nothing is lowered to the LLVM dialect
/// yet (`lowered`), before anything changes; errors emitted.
static AcStatus checkFuncs(AcFree *f, const AcOpList *funcs, MlirOperation lowered) {
  AcStatus st;
  for (intptr_t i = 0; i < funcs->n; ++i)
    if ((st = checkInput(f, funcs->v[i])) != AC_OK)
      return st;
  if (!mlirOperationIsNull(lowered)) {
    char name[256];
    funcName(lowered, name, sizeof name);
    emitAt(lowered, "auto-ac-free-at-last-use: @%s is already lowered to the "
           "LLVM dialect; the pass runs on bufferized func.func, after "
           "buffer-deallocation-pipeline and before the lowering", name);
    return AC_ERR_INVALID;
  }
  return AC_OK;
}

/// Plans what changes, changing nothing: every call twice, checking
/// (demotions) then collecting (planTransfer), then the owned arguments'
/// frees (planOwned).  Errors other than AC_ERR_NOMEM are emitted.
static AcStatus planFrees(AcFree *f, const AcOpList *funcs) {
  AcCalls calls = {{0}, AC_OK};
  AcStatus st = AC_OK;
  for (int round = 0; round < 2 && st == AC_OK; ++round)
    for (intptr_t i = 0; i < funcs->n && st == AC_OK; ++i) {
      calls.calls.n = 0;
      mlirOperationWalk(funcs->v[i], collectCallsCb, &calls, MlirWalkPreOrder);
      if (calls.st != AC_OK) {
        st = AC_ERR_NOMEM;
        break;
      }
      for (intptr_t c = 0; c < calls.calls.n && st == AC_OK; ++c) {
        MlirOperation callee = calleeIn(f->module, calls.calls.v[c]);
        if (!mlirOperationIsNull(callee))
          st = planTransfer(f, funcs->v[i], calls.calls.v[c], callee, round);
      }
      if (st == AC_OK && round == 0 && i == funcs->n - 1)
        demoteGroups(f);
    }
  for (intptr_t i = 0; i < funcs->n && st == AC_OK; ++i)
    st = planOwned(f, funcs->v[i]);
  acFree(calls.calls.v);
  return st;
}

/// Applies the argument notes: `ac.owned = false` on the demoted,
/// `ac.owned_with` on those freed with their group's lead.
static void applyArgNotes(AcFree *f) {
  for (intptr_t i = 0; i < f->numNotes; ++i) {
    const AcArgNote *n = &f->notes[i];
    if (n->demoted) {
      mlirFuncSetArgAttr(n->fn, n->arg, SREF("ac.owned"), mlirBoolAttrGet(f->ctx, 0));
      f->stats.demoted++;
    } else if (n->lead != n->arg) {
      mlirFuncSetArgAttr(n->fn, n->arg, SREF("ac.owned_with"),
                         mlirIntegerAttrGet(mlirIntegerTypeGet(f->ctx, 64),
                                            (int64_t)n->lead));
      f->stats.joined++;
    }
  }
}

/// Erases the frees whose ownership moved to a callee (and an scf.if left
/// with nothing but them, now nothing) and marks the calls that took it.
static void eraseTransferred(AcFree *f) {
  for (intptr_t i = 0; i < f->erase.n; ++i) {
    MlirOperation d = f->erase.v[i];
    MlirOperation parent = mlirOperationGetParentOperation(d);
    mlirOperationDestroy(d);
    f->stats.transferred++;
    if (acOpIs(parent, "scf.if") && mlirOperationGetNumResults(parent) == 0) {
      AcOnlyFrees s = {parent, 1, 0};
      mlirOperationWalk(parent, onlyFreesCb, &s, MlirWalkPreOrder);
      if (s.ok && s.frees == 0)
        mlirOperationDestroy(parent);
    }
  }
  for (intptr_t i = 0; i < f->transferCalls.n; ++i)
    mlirOperationSetDiscardableAttributeByName(
        f->transferCalls.v[i], SREF("ac.owned_transferred"),
        mlirUnitAttrGet(f->ctx));
}

/// Inserts the owned arguments' frees and moves every free to right after
/// its buffer's last use; AC_ERR_NOMEM.
static AcStatus insertFrees(AcFree *f, const AcOpList *funcs) {
  for (intptr_t i = 0; i < f->numOwned; ++i)
    if (insertOwnedFree(f, &f->owned[i]) != AC_OK)
      return AC_ERR_NOMEM;
  for (intptr_t i = 0; i < funcs->n; ++i) {
    AcBlocks b = {f, AC_OK};
    mlirOperationWalk(funcs->v[i], moveFreesCb, &b, MlirWalkPreOrder);
    if (b.st != AC_OK)
      return AC_ERR_NOMEM;
  }
  return AC_OK;
}

AcStatus acFreeAtLastUse(MlirOperation module, AcFreeStats *stats) {
  AcFree f;
  memset(&f, 0, sizeof f);
  f.module = module;
  f.ctx = mlirOperationGetContext(module);
  AcStatus st = AC_OK;
  AcOpList funcs = {0};
  MlirOperation lowered = {NULL};
  if (stats)
    memset(stats, 0, sizeof *stats);
  if (!acOpIs(module, "builtin.module")) {
    mlirEmitError(mlirOperationGetLocation(module),
                  "auto-ac-free-at-last-use: runs on a builtin.module");
    return AC_ERR_INVALID;
  }
  if ((st = collectFuncs(module, &funcs, &lowered)) != AC_OK)
    goto nomem;
  /* Check and plan everything first: the module changes only when all is
     well. */
  if ((st = checkFuncs(&f, &funcs, lowered)) != AC_OK)
    goto done;
  if ((st = planFrees(&f, &funcs)) != AC_OK)
    goto failed;
  applyArgNotes(&f);
  eraseTransferred(&f);
  if ((st = insertFrees(&f, &funcs)) != AC_OK)
    goto nomem;
  for (intptr_t i = 0; i < funcs.n; ++i)
    warnAliasCheck(&f, funcs.v[i]);
  if (stats)
    *stats = f.stats;
  goto done;
failed:
  if (st != AC_ERR_NOMEM)
    goto done;
nomem:
  mlirEmitError(mlirOperationGetLocation(module),
                "auto-ac-free-at-last-use: out of memory");
  st = AC_ERR_NOMEM;
done:
  acPtrMapClear(&f.seen);
  acPtrMapClear(&f.index);
  acFree(f.set.v);
  acFree(f.ops.v);
  acFree(f.erase.v);
  acFree(f.transferCalls.v);
  acFree(f.owned);
  acFree(f.tmp.v);
  acFree(f.notes);
  acFree(f.partner);
  acFree(funcs.v);
  return st;
}

/*===------------- calls the compiled peak cannot follow -------------------===*/

/// Tensor ops that make no buffer of their own once bufferized in place:
/// inits and views.
static int makesNoBuffer(MlirOperation op) {
  static const char *const names[] = {
      "tensor.empty", "linalg.fill", "tensor.extract_slice",
      "tensor.expand_shape", "tensor.collapse_shape", "tensor.cast",
      "tensor.reshape", "tensor.bitcast", NULL};
  for (int i = 0; names[i]; ++i)
    if (acOpIs(op, names[i]))
      return 1;
  return 0;
}

enum { AC_CALL_DEPTH = 32 };

typedef struct AcCallCheck {
  MlirOperation module;
  MlirOperation stack[AC_CALL_DEPTH]; ///< callees being checked
  int depth;
  MlirOperation ret;                  ///< the current callee's return
  char *why;
  size_t n;
  int found;
} AcCallCheck;

static int calleeCaveat(AcCallCheck *c, MlirOperation call);

/// Walk callback over a callee's body: a nested call checked in turn; a
/// tensor op making a buffer that the callee does not return.
static MlirWalkResult calleeOpCb(MlirOperation op, void *user) {
  AcCallCheck *c = user;
  if (acOpIs(op, "func.call"))
    return calleeCaveat(c, op) ? MlirWalkResultInterrupt
                               : MlirWalkResultAdvance;
  if (makesNoBuffer(op))
    return MlirWalkResultAdvance;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r) {
    MlirValue v = mlirOperationGetResult(op, r);
    if (!isTensorType(mlirValueGetType(v)))
      continue;
    int returned = 0;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(c->ret) && !returned; ++i)
      returned = mlirValueEqual(mlirOperationGetOperand(c->ret, i), v);
    if (returned)
      continue;
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
    char fn[256];
    funcName(c->stack[c->depth - 1], fn, sizeof fn);
    snprintf(c->why, c->n, "@%s makes a buffer besides its results ('%.*s'), "
             "which the plan does not count", fn, (int)n.length, n.data);
    c->found = 1;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/// Whether `call` keeps the compiled peak from being the simulated one
/// (acCallsCaveat); fills c->why.
static int calleeCaveat(AcCallCheck *c, MlirOperation call) {
  MlirOperation g = calleeIn(c->module, call);
  char fn[256];
  if (mlirOperationIsNull(g)) {
    snprintf(c->why, c->n, "the callee of a call is not a func.func of the module");
    return c->found = 1;
  }
  funcName(g, fn, sizeof fn);
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(call, SREF("no_inline")))) {
    snprintf(c->why, c->n, "the call to @%s is marked no_inline: its results "
             "may be freed only at the caller's end", fn);
    return c->found = 1;
  }
  if (!funcHasBody(g)) {
    snprintf(c->why, c->n, "@%s has no body to inline: its results may be "
             "freed only at the caller's end", fn);
    return c->found = 1;
  }
  for (int i = 0; i < c->depth; ++i)
    if (mlirOperationEqual(c->stack[i], g) || c->depth == AC_CALL_DEPTH) {
      snprintf(c->why, c->n, "@%s is recursive (or calls %d deep): it is not "
               "inlined", fn, AC_CALL_DEPTH);
      return c->found = 1;
    }
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(entry))) {
    snprintf(c->why, c->n, "@%s has several blocks", fn);
    return c->found = 1;
  }
  MlirOperation savedRet = c->ret;
  c->stack[c->depth++] = g;
  c->ret = mlirBlockGetTerminator(entry);
  for (MlirOperation op = mlirBlockGetFirstOperation(entry);
       !mlirOperationIsNull(op) && !c->found; op = mlirOperationGetNextInBlock(op))
    mlirOperationWalk(op, calleeOpCb, c, MlirWalkPreOrder);
  c->depth--;
  c->ret = savedRet;
  return c->found;
}

typedef struct AcCallFind {
  AcCallCheck *check;
  MlirOperation at;
} AcCallFind;

static MlirWalkResult findCallCb(MlirOperation op, void *user) {
  AcCallFind *f = user;
  if (!acOpIs(op, "func.call") || !calleeCaveat(f->check, op))
    return MlirWalkResultAdvance;
  f->at = op;
  return MlirWalkResultInterrupt;
}

int acCallsCaveat(MlirOperation module, MlirOperation func, char *why,
                  size_t n, MlirOperation *at) {
  AcCallCheck c;
  memset(&c, 0, sizeof c);
  c.module = module;
  c.why = why;
  c.n = n;
  AcCallFind f = {&c, {NULL}};
  mlirOperationWalk(func, findCallCb, &f, MlirWalkPreOrder);
  if (at)
    *at = f.at;
  return c.found;
}

/*===------------------------ the named pipelines --------------------------===*/

static void appendf(AcStrBuf *b, const char *fmt, long long x) {
  char tmp[256];
  int n = snprintf(tmp, sizeof tmp, fmt, x);
  if (n > 0)
    acStrBufAppend(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

AcStatus acLowerPipeline(AcLowerTarget target, const AcLowerOptions *opts,
                         AcStrBuf *out) {
  AcLowerOptions def = {64, 0, 0};
  if (!opts)
    opts = &def;
  /* Calls inlined first (no_inline ones kept: the split's forward and
     backward): the deallocation pipeline cannot tell whether a call's
     results alias each other or its arguments, and frees them together at
     the end of the caller, behind a run-time alias check. */
  /* Then TOSA and arith/math on tensors to linalg, each op's result a
     fresh tensor.empty (a new buffer, as the planner counts it); TOSA's
     constants by auto-ac-to-linalg, not tosa-to-arith, whose greedy
     rewriter folds every other op too. */
  static const char inl[] =
      "inline{default-pipeline=},"
      "func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor),"
      "auto-ac-to-linalg,"
      "auto-ac-copy-returned-views,auto-ac-copy-before-write,";
  acStrBufAppend(out, inl, sizeof inl - 1);
  if (target == AC_LOWER_GPU) {
    /* Host buffers pinned and copies asynchronous after bufferization,
       found by name; the GPU runtimes count the pinned buffers. */
    static const char locs[] = "auto-ac-offload-locs,";
    acStrBufAppend(out, locs, sizeof locs - 1);
  } else if (opts->countHost) {
    static const char host[] = "auto-ac-count-host,";
    acStrBufAppend(out, host, sizeof host - 1);
  }
  appendf(out,
          "one-shot-bufferize{bufferize-function-boundaries "
          "buffer-alignment=%lld function-boundary-type-conversion=identity-layout-map},"
          "buffer-deallocation-pipeline,auto-ac-free-at-last-use,"
          "convert-bufferization-to-memref,",
          (long long)opts->bufferAlignment);
  if (target == AC_LOWER_GPU) {
    static const char gpu[] =
        "auto-ac-gpu-buffers,func.func(convert-linalg-to-parallel-loops,gpu-map-parallel-loops,"
        "convert-parallel-loops-to-gpu),gpu-kernel-outlining,"
        "gpu-lower-to-nvvm-pipeline{cubin-format=isa}";
    acStrBufAppend(out, gpu, sizeof gpu - 1);
  } else {
    static const char head[] =
        "convert-linalg-to-loops,convert-scf-to-cf,expand-strided-metadata,"
        "lower-affine,";
    acStrBufAppend(out, head, sizeof head - 1);
    appendf(out, "finalize-memref-to-llvm{use-generic-functions=%lld},",
            (long long)(opts->genericFunctions ? 1 : 0));
    static const char tail[] =
        "convert-math-to-llvm,convert-math-to-libm,convert-arith-to-llvm,convert-func-to-llvm,"
        "convert-cf-to-llvm,reconcile-unrealized-casts";
    acStrBufAppend(out, tail, sizeof tail - 1);
  }
  return out->failed ? AC_ERR_NOMEM : AC_OK;
}
