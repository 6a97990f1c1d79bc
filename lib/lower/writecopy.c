/* writecopy.c - the auto-ac-copy-before-write pass body (autoac/lower.h).
 *
 * The simulator's rule for a destination-style write (a linalg op's
 * `outs`, the dest of `tensor.insert_slice`/`tensor.insert`, the init of a
 * one-result `scf.for`/`scf.while`): the op writes into its init's storage
 * when nothing reads that storage after it, else its result is a new
 * buffer allocated at the op (lib/simulate/simulate.c, acSimInPlace).  The
 * storage of a value is the base of its view chain (views as import/layout.h
 * follows them, through `scf.execute_region` results, the recompute
 * regions of the split).  One-shot bufferization resolves the same conflict
 * with a copy of its own choosing, which need not sit at the write: in a
 * chain `collapse -> expand -> insert_slice` it may copy at the collapse,
 * once per later reader, and the copies then live longer than the planner
 * counted (difftest seed 30309: +384 B over a feasible budget).
 *
 * So this pass, run before bufferization, makes every such copy itself,
 * right at the write: the init becomes
 *   %e = tensor.empty() ; %c = bufferization.materialize_in_destination %init in %e
 * (or only %e when the op never reads its init, e.g. linalg.fill), the op
 * writes into %c, and bufferization finds no conflict left to resolve.
 * Writes in the blocks of loops and ifs are left alone: the planner sees a
 * loop or an if as one op.  An scf.if whose branches all write result j
 * into one value made before it (ifInit, as the import's acDpsResultInit)
 * is that one op: a writer of the value, given its own copy of a shared
 * maker, or its own copy of the value when its storage is read after the
 * if (difftest seed 110289).  docs/fidelity.md, cause 7. */
#include "autoac/lower.h"
#include "lower/collect.h"
#include "import/bodies.h"
#include "import/import.h"
#include "import/layout.h"
#include "support/ptrmap.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <string.h>

#define SREF(s) mlirStringRefCreateFromCString(s)

static int isOp(MlirOperation op, const char *name) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  size_t n = strlen(name);
  return s.length == n && memcmp(s.data, name, n) == 0;
}

static int isLinalg(MlirOperation op) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  return s.length > 7 && memcmp(s.data, "linalg.", 7) == 0;
}

/* One function's state.  Invariants: `seq` maps every op of the function
 * to its pre-order number (program order for structured code; an op's
 * nested ops follow it contiguously); `baseOf` maps a value to the index of
 * its storage's base in `last`, the largest seq of an op reading any value
 * of that storage (-1: none). */
typedef struct AcWriteCopy {
  MlirOperation ret;     /* the function's func.return (may be null) */
  AcPtrMap seq, baseOf, baseIdx;
  int32_t *last;
  intptr_t numBases, capBases;
  int32_t next;          /* the next seq */
  struct { MlirOperation op; intptr_t k; } *shared; /* unshareInits */
  intptr_t numShared, capShared;
  intptr_t copies;
  int failed;
} AcWriteCopy;

/* The value whose storage `v` is: through views (not those bufferization
 * copies) and `scf.execute_region` results, to a value that owns a
 * buffer.  Bounded by 256 steps (then `v` counts as its own storage). */
static MlirValue baseValue(const AcWriteCopy *w, MlirValue v) {
  MlirValue cur = v;
  int steps = 0;
  for (; steps < 256 && mlirValueIsAOpResult(cur); ++steps) {
    MlirOperation def = mlirOpResultGetOwner(cur);
    if (acLayoutIsView(def) && mlirOperationGetNumOperands(def) >= 1) {
      AcLayout src, res;
      acLayoutOfValue(mlirOperationGetOperand(def, 0), w->ret, 1, &src);
      if (acLayoutStep(def, &src, &res) == AC_LAYOUT_COPY)
        return cur;
      cur = mlirOperationGetOperand(def, 0);
      continue;
    }
    if (isOp(def, "scf.execute_region")) {
      MlirRegion r = mlirOperationGetRegion(def, 0);
      MlirBlock b = mlirRegionGetFirstBlock(r);
      if (mlirBlockIsNull(b) || !mlirBlockIsNull(mlirBlockGetNextInRegion(b)))
        return cur;
      MlirOperation y = mlirBlockGetTerminator(b);
      intptr_t k = mlirOpResultGetResultNumber(cur);
      if (mlirOperationIsNull(y) || k >= mlirOperationGetNumOperands(y))
        return cur;
      cur = mlirOperationGetOperand(y, k);
      continue;
    }
    return cur;
  }
  return steps == 256 ? v : cur;
}

/* The index of the storage of `v` in w->last (-1 when out of memory). */
static int32_t baseId(AcWriteCopy *w, MlirValue v) {
  int32_t id = acPtrMapGet(&w->baseOf, v.ptr);
  if (id != AC_NONE)
    return id;
  MlirValue b = baseValue(w, v);
  id = acPtrMapGet(&w->baseIdx, b.ptr);
  if (id == AC_NONE) {
    if (!acArrayGrow((void **)&w->last, &w->capBases, w->numBases + 1,
                     sizeof *w->last) ||
        acPtrMapPut(&w->baseIdx, b.ptr, (int32_t)w->numBases) != AC_OK) {
      w->failed = 1;
      return -1;
    }
    id = (int32_t)w->numBases;
    w->last[w->numBases++] = -1;
  }
  if (acPtrMapPut(&w->baseOf, v.ptr, id) != AC_OK) {
    w->failed = 1;
    return -1;
  }
  return id;
}

/* Pre-order: numbers the op and records its tensor operands as reads of
 * their storages at that number.  An execute_region's yield reads nothing:
 * its values are the region's results, whose readers count. */
static MlirWalkResult numberCb(MlirOperation op, void *user) {
  AcWriteCopy *w = user;
  int32_t s = w->next++;
  if (acPtrMapPut(&w->seq, op.ptr, s) != AC_OK) {
    w->failed = 1;
    return MlirWalkResultInterrupt;
  }
  if (isOp(op, "scf.yield") &&
      isOp(mlirOperationGetParentOperation(op), "scf.execute_region"))
    return MlirWalkResultAdvance;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirTypeIsATensor(mlirValueGetType(v)))
      continue;
    int32_t id = baseId(w, v);
    if (id < 0)
      return MlirWalkResultInterrupt;
    if (w->last[id] < s)
      w->last[id] = s;
  }
  return MlirWalkResultAdvance;
}

static MlirWalkResult countCb(MlirOperation op, void *user) {
  (void)op;
  ++*(int32_t *)user;
  return MlirWalkResultAdvance;
}

/* The operands of `op` it writes its results into (at most 8): the dest of
 * tensor.insert_slice/insert, the init of a one-result scf.for/scf.while,
 * a linalg op's `outs`. */
static int initOperands(MlirOperation op, intptr_t *k) {
  intptr_t nops = mlirOperationGetNumOperands(op);
  intptr_t nres = mlirOperationGetNumResults(op);
  if (isOp(op, "tensor.insert_slice") || isOp(op, "tensor.insert"))
    return k[0] = 1, 1;
  if (isOp(op, "scf.for") && nres == 1 && nops == 4)
    return k[0] = 3, 1;
  if (isOp(op, "scf.while") && nres == 1 && nops == 1)
    return k[0] = 0, 1;
  if (!isLinalg(op) || nres < 1 || nres > 8 || nops < nres)
    return 0;
  for (intptr_t j = 0; j < nres; ++j) {
    k[j] = nops - nres + j;
    if (!mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(op, k[j])),
                       mlirValueGetType(mlirOperationGetResult(op, j))))
      return 0;
  }
  return (int)nres;
}

/* Whether `op` reads the value of its operand `k`, an init: a linalg op's
 * payload reads it when its block argument has a use. */
static int readsInit(MlirOperation op, intptr_t k) {
  if (!isLinalg(op) || mlirOperationGetNumRegions(op) < 1)
    return 1;
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockIsNull(b) || mlirBlockGetNumArguments(b) != mlirOperationGetNumOperands(op))
    return 1;
  MlirValue arg = mlirBlockGetArgument(b, k);
  return !mlirOpOperandIsNull(mlirValueGetFirstUse(arg));
}

/* Whether op `d` is `op` or nested in it. */
static int nestedIn(MlirOperation d, MlirOperation op) {
  for (int depth = 0; !mlirOperationIsNull(d) && depth < 256; ++depth) {
    if (mlirOperationEqual(d, op))
      return 1;
    d = mlirOperationGetParentOperation(d);
  }
  return 0;
}

/* Whether `v` is defined inside `op` (by an op nested in it, or as an
 * argument of one of its blocks). */
static int definedIn(MlirValue v, MlirOperation op) {
  return nestedIn(mlirValueIsAOpResult(v)
                      ? mlirOpResultGetOwner(v)
                      : mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v)),
                  op);
}

/* The value a branch's write chain starts from: following destination-
 * style writes (initOperands) back from `y` while they are made inside
 * `op`; *head is the chain's first writer and *hk its init operand (null
 * when `y` itself is not written inside `op`). */
static MlirValue chainBase(MlirOperation op, MlirValue y, MlirOperation *head,
                           intptr_t *hk) {
  MlirValue v = y;
  *head = (MlirOperation){NULL};
  for (int steps = 0; steps < 64 && mlirValueIsAOpResult(v) && definedIn(v, op); ++steps) {
    MlirOperation d = mlirOpResultGetOwner(v);
    intptr_t k[8];
    int n = initOperands(d, k);
    intptr_t i = mlirOpResultGetResultNumber(v);
    if (i >= n)
      break;
    *head = d;
    *hk = k[i];
    v = mlirOperationGetOperand(d, k[i]);
  }
  return v;
}

/* The init an scf.if writes its result j into, as the import sees it
 * (import/dps.c acDpsResultInit): the value that every branch's yield j reaches
 * by following destination-style writes (initOperands) back inside the
 * branch, when it is defined outside the if; null otherwise. */
static MlirValue ifInit(MlirOperation op, intptr_t j) {
  MlirValue none = {NULL}, base = {NULL};
  for (intptr_t r = 0; r < 2; ++r) {
    MlirValue y = acLayoutIfYield(op, r, j);
    if (mlirValueIsNull(y))
      return none;
    MlirOperation head;
    intptr_t hk;
    MlirValue v = chainBase(op, y, &head, &hk);
    if (definedIn(v, op) || (r == 1 && !mlirValueEqual(v, base)))
      return none; /* a buffer of the branch's own, or two inits */
    base = v;
  }
  return base;
}

/* The uses of `from` inside `op` read `to` instead. */
static void redirectInside(MlirOperation op, MlirValue from, MlirValue to) {
  MlirOpOperand u = mlirValueGetFirstUse(from);
  while (!mlirOpOperandIsNull(u)) {
    MlirOpOperand next = mlirOpOperandGetNextUse(u);
    MlirOperation owner = mlirOpOperandGetOwner(u);
    if (!mlirOperationEqual(owner, op) && nestedIn(owner, op))
      mlirOperationSetOperand(owner, mlirOpOperandGetOperandNumber(u), to);
    u = next;
  }
}

typedef struct AcReadCheck {
  AcWriteCopy *w;
  int32_t id;
  int skipInits; /* a write's own init operands are not reads */
  int found;
} AcReadCheck;

static MlirWalkResult readCb(MlirOperation op, void *user) {
  AcReadCheck *rc = user;
  intptr_t k[8];
  int n = rc->skipInits ? initOperands(op, k) : 0;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    int init = 0;
    for (int j = 0; j < n; ++j)
      init |= k[j] == i;
    if (!init && mlirTypeIsATensor(mlirValueGetType(v)) && baseId(rc->w, v) == rc->id) {
      rc->found = 1;
      return MlirWalkResultInterrupt;
    }
  }
  return MlirWalkResultAdvance;
}

/* Whether an op nested in `op`'s regions reads storage `id` (not counting
 * writes' own inits when `skipInits`). */
static int readInRegions(AcWriteCopy *w, MlirOperation op, int32_t id, int skipInits) {
  AcReadCheck rc = {w, id, skipInits, 0};
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op) && !rc.found; ++r)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b) && !rc.found; b = mlirBlockGetNextInRegion(b))
      for (MlirOperation no = mlirBlockGetFirstOperation(b);
           !mlirOperationIsNull(no) && !rc.found; no = mlirOperationGetNextInBlock(no))
        mlirOperationWalk(no, readCb, &rc, MlirWalkPreOrder);
  return rc.found;
}

/* Whether `op` reads storage `id` other than through its init `k`: another
 * operand, or an op of a nested region (an scf.for body reading the loop's
 * init itself).  Bufferization cannot write into it then; the import says
 * so too (graph initAlsoRead, acGraphInPlaceRoot). */
static int readElsewhere(AcWriteCopy *w, MlirOperation op, intptr_t k, int32_t id) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (i != k && mlirTypeIsATensor(mlirValueGetType(v)) && baseId(w, v) == id)
      return 1;
  }
  return readInRegions(w, op, id, 0);
}

/* The element count of a static ranked tensor type, or -1. */
static int64_t staticElems(MlirType t) {
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t))
    return -1;
  int64_t n = 1;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d)
    n *= mlirShapedTypeGetDimSize(t, d);
  return n;
}

/* Whether init `v` is a view of a storage of another size (a slice of a
 * bigger tensor): the planner never lets a write go into it in place (graph
 * acGraphInPlaceRoot: the root's bytes must be the result's) and counts a
 * new buffer; written in place, the bigger storage would stay live as long
 * as the result (difftest seed 70450: an scf.for into a 9x1 slice of a
 * 19x1 tensor, +40 B). */
static int partOfBigger(const AcWriteCopy *w, MlirValue v) {
  MlirValue b = baseValue(w, v);
  if (mlirValueEqual(b, v))
    return 0;
  MlirType vt = mlirValueGetType(v), bt = mlirValueGetType(b);
  int64_t vn = staticElems(vt), bn = staticElems(bt);
  if (vn < 0 || bn < 0 ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(vt), mlirShapedTypeGetElementType(bt)))
    return !mlirTypeEqual(vt, bt);
  return vn != bn;
}

/* Whether the storage of `v` is an argument of its function marked
 * `bufferization.writable = false` (the split marks so the arguments the
 * caller still reads): a write into it must copy, and bufferization would
 * copy wherever it likes, e.g. at the yield of the recompute region that
 * returns a view of it (difftest seed 202194: +1024 B over a feasible
 * budget). */
static int readOnlyArg(const AcWriteCopy *w, MlirValue v) {
  MlirValue b = baseValue(w, v);
  if (!mlirValueIsABlockArgument(b))
    return 0;
  MlirBlock blk = mlirBlockArgumentGetOwner(b);
  MlirOperation fn = mlirBlockGetParentOperation(blk);
  if (mlirOperationIsNull(fn) || !isOp(fn, "func.func") ||
      !mlirBlockEqual(blk, mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0))))
    return 0;
  MlirAttribute wr = acFuncArgAttr(fn, mlirBlockArgumentGetArgNumber(b),
                                   "bufferization.writable");
  return !mlirAttributeIsNull(wr) && mlirAttributeIsABool(wr) && !mlirBoolAttrGetValue(wr);
}

/* A fresh buffer made right before `op`, holding the value of `init` when
 * `keep` (else only the empty: its contents are never read). */
static MlirValue freshBefore(MlirOperation op, MlirValue init, int keep);

/* Makes op's init `k` a fresh buffer holding the init's value. */
static void copyInit(MlirOperation op, intptr_t k) {
  mlirOperationSetOperand(op, k, freshBefore(op, mlirOperationGetOperand(op, k),
                                             readsInit(op, k)));
}

static MlirValue freshBefore(MlirOperation op, MlirValue init, int keep) {
  MlirBlock block = mlirOperationGetBlock(op);
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirType t = mlirValueGetType(init);
  MlirOperationState es = mlirOperationStateGet(SREF("tensor.empty"), loc);
  mlirOperationStateAddResults(&es, 1, &t);
  /* A dynamic dimension's size: tensor.dim of the init. */
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d) {
    if (!mlirShapedTypeIsDynamicDim(t, d))
      continue;
    MlirValue size = acDimBefore(op, init, d);
    mlirOperationStateAddOperands(&es, 1, &size);
  }
  MlirOperation empty = mlirOperationCreate(&es);
  mlirBlockInsertOwnedOperationBefore(block, op, empty);
  MlirValue fresh = mlirOperationGetResult(empty, 0);
  if (keep) {
    MlirOperation copy = acMaterializeCreate(loc, init, fresh);
    mlirBlockInsertOwnedOperationBefore(block, op, copy);
    fresh = mlirOperationGetResult(copy, 0);
  }
  return fresh;
}

/* The writes of `block` (a function's or a recompute region's) whose
 * init's storage is read after them get their copy. */
/* Calls fn on every op of `block` (a function's) and of the blocks of its
 * recompute regions (`scf.execute_region`, the planner's groups), in
 * order, until w->failed.  fn may insert ops before the op it is given. */
typedef void (*AcVisitFn)(AcWriteCopy *w, MlirBlock block, MlirOperation op);

static void visitOps(AcWriteCopy *w, MlirBlock block, AcVisitFn fn) {
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op) && !w->failed; op = mlirOperationGetNextInBlock(op)) {
    if (!isOp(op, "scf.execute_region")) {
      fn(w, block, op);
      continue;
    }
    MlirRegion r = mlirOperationGetRegion(op, 0);
    for (MlirBlock b = mlirRegionGetFirstBlock(r); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      visitOps(w, b, fn);
  }
}

/* An scf.if writing result j into a value `x` defined before it (ifInit)
 * whose storage is read after the if, is part of a bigger storage, or is
 * read inside the if other than as a write's init: as for any write, the
 * if gets its own copy of `x`, made right before it, which its branches
 * write into (the planner counts the result as a new buffer there). */
static void copyIfWrites(AcWriteCopy *w, MlirOperation op, int32_t s, int32_t count) {
  for (intptr_t j = 0; j < mlirOperationGetNumResults(op); ++j) {
    MlirValue x = ifInit(op, j);
    if (mlirValueIsNull(x) || !mlirTypeIsARankedTensor(mlirValueGetType(x)))
      continue;
    int32_t id = baseId(w, x);
    if (id < 0)
      return;
    if (w->last[id] <= s + count - 1 && !readInRegions(w, op, id, 1) &&
        !partOfBigger(w, x) && !readOnlyArg(w, x))
      continue;
    MlirValue c = freshBefore(op, x, 1);
    redirectInside(op, x, c);
    w->copies++;
  }
}

static void copyWrites(AcWriteCopy *w, MlirBlock block, MlirOperation op) {
  (void)block;
  intptr_t k[8];
  int n = initOperands(op, k);
  int32_t s = acPtrMapGet(&w->seq, op.ptr), count = 0;
  if (s != AC_NONE && isOp(op, "scf.if")) {
    mlirOperationWalk(op, countCb, &count, MlirWalkPreOrder);
    copyIfWrites(w, op, s, count);
    return;
  }
  if (n == 0 || s == AC_NONE)
    return;
  mlirOperationWalk(op, countCb, &count, MlirWalkPreOrder);
  for (int j = 0; j < n; ++j) {
    MlirValue init = mlirOperationGetOperand(op, k[j]);
    if (!mlirTypeIsARankedTensor(mlirValueGetType(init)))
      continue;
    int32_t id = baseId(w, init);
    if (id < 0)
      return;
    if (w->last[id] <= s + count - 1 && !readElsewhere(w, op, k[j], id) &&
        !partOfBigger(w, init) && !readOnlyArg(w, init))
      continue;
    copyInit(op, k[j]);
    w->copies++;
  }
}


/* Erases `m` (a tensor.empty or a linalg.fill of one) when nothing reads it
 * any more, and then a fill's empty likewise. */
static void eraseIfDead(MlirOperation m) {
  if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(m, 0))))
    return;
  MlirOperation e = {NULL};
  if (isOp(m, "linalg.fill"))
    e = mlirOpResultGetOwner(mlirOperationGetOperand(m, mlirOperationGetNumOperands(m) - 1));
  mlirOperationDestroy(m);
  if (!mlirOperationIsNull(e))
    eraseIfDead(e);
}

/* Shared inits, one per writer, as the import makes them (docs/contract.md,
 * "Shared inits"; import.c acUnshareInits): every writer of `block` (and of
 * its recompute regions) whose init is made by a shared `tensor.empty` or
 * `linalg.fill` of one gets its own copy of that maker right before it,
 * and the makers left unread are erased.  Decided on the block as it is,
 * so the last writer of a shared init gets its copy too. */
static int pushShared(AcWriteCopy *w, MlirOperation op, intptr_t k) {
  if (!acArrayGrow((void **)&w->shared, &w->capShared, w->numShared + 1,
                   sizeof *w->shared)) {
    w->failed = 1;
    return 0;
  }
  w->shared[w->numShared].op = op;
  w->shared[w->numShared++].k = k;
  return 1;
}

/* The maker (tensor.empty, or linalg.fill of one) of `x` when it is shared:
 * read by some op outside `op` too; else null. */
static MlirOperation sharedMakerOutside(MlirOperation op, MlirValue x) {
  MlirOperation m = acLayoutSharedInitMaker((MlirOperation){NULL}, x);
  if (mlirOperationIsNull(m))
    return m;
  for (MlirOpOperand u = mlirValueGetFirstUse(x); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (!nestedIn(mlirOpOperandGetOwner(u), op))
      return m;
  return (MlirOperation){NULL};
}

static void listSharedWrites(AcWriteCopy *w, MlirBlock block, MlirOperation op) {
  (void)block;
  intptr_t k[8];
  /* An scf.if writing result j into a shared maker's value (ifInit) is one
     writer of it, as the import counts it: listed with k = -1 - j. */
  for (intptr_t j = 0; isOp(op, "scf.if") && j < mlirOperationGetNumResults(op); ++j) {
    MlirValue x = ifInit(op, j);
    if (!mlirValueIsNull(x) && !mlirOperationIsNull(sharedMakerOutside(op, x)) &&
        !pushShared(w, op, -1 - j))
      return;
  }
  int n = initOperands(op, k);
  for (int j = 0; j < n; ++j) {
    if (mlirOperationIsNull(acLayoutSharedInitMaker(op, mlirOperationGetOperand(op, k[j]))))
      continue;
    if (!pushShared(w, op, k[j]))
      return;
  }
}

/* Writer `op`'s init `k` becomes a copy of its maker (a fill with its own
 * copy of the empty), placed right before it.  Returns the maker. */
static MlirOperation copyMaker(MlirOperation op, intptr_t k) {
  MlirBlock block = mlirOperationGetBlock(op);
  MlirValue x = k < 0 ? ifInit(op, -1 - k) : mlirOperationGetOperand(op, k);
  if (mlirValueIsNull(x) || !mlirValueIsAOpResult(x))
    return (MlirOperation){NULL}; /* an earlier copy changed the if */
  MlirOperation m = mlirOpResultGetOwner(x);
  MlirOperation copy = mlirOperationClone(m);
  mlirBlockInsertOwnedOperationBefore(block, op, copy);
  if (isOp(m, "linalg.fill")) {
    intptr_t last = mlirOperationGetNumOperands(m) - 1;
    MlirOperation e = mlirOperationClone(
        mlirOpResultGetOwner(mlirOperationGetOperand(m, last)));
    mlirBlockInsertOwnedOperationBefore(block, copy, e);
    mlirOperationSetOperand(copy, last, mlirOperationGetResult(e, 0));
  }
  if (k < 0)
    redirectInside(op, x, mlirOperationGetResult(copy, 0));
  else
    mlirOperationSetOperand(op, k, mlirOperationGetResult(copy, 0));
  return m;
}

/* The writes listed first, on the block as it is (so the last writer of a
 * shared init gets its copy too), then copied; the makers left unread are
 * erased (each once: a listed maker is erased when its last writer has
 * been given its copy, found by counting its remaining uses). */
static void unshareInits(AcWriteCopy *w, MlirBlock entry) {
  w->numShared = 0;
  visitOps(w, entry, listSharedWrites);
  for (intptr_t i = 0; i < w->numShared && !w->failed; ++i) {
    MlirOperation m = copyMaker(w->shared[i].op, w->shared[i].k);
    if (!mlirOperationIsNull(m))
      eraseIfDead(m);
  }
}

/* Whether every branch of `op` yields as result j a chain that starts from
 * a tensor.empty made in the branch or from a value made before `op` (so
 * that the result can be one buffer made before it). */
static int branchesChainable(MlirOperation op, intptr_t j) {
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
    MlirOperation y = mlirBlockIsNull(b) ? (MlirOperation){NULL} : mlirBlockGetTerminator(b);
    if (mlirOperationIsNull(y) || j >= mlirOperationGetNumOperands(y) ||
        !mlirBlockIsNull(mlirBlockGetNextInRegion(b)))
      return 0;
    MlirOperation head;
    intptr_t hk;
    MlirValue v = chainBase(op, mlirOperationGetOperand(y, j), &head, &hk);
    if (definedIn(v, op) &&
        !(mlirValueIsAOpResult(v) && isOp(mlirOpResultGetOwner(v), "tensor.empty")))
      return 0;
  }
  return 1;
}

/* Region r's result j, written into `e` instead: the chain's first writer
 * writes into `e` (after a copy of what it started from when it reads its
 * init or started from a value made before the op), or the yield yields a
 * copy in `e` of the value it yielded; an empty left unread is erased. */
static void routeIntoEmpty(MlirOperation op, intptr_t r, intptr_t j, MlirValue e) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
  MlirOperation y = mlirBlockGetTerminator(b), head;
  intptr_t hk = 0;
  MlirValue v = chainBase(op, mlirOperationGetOperand(y, j), &head, &hk);
  int empty = definedIn(v, op); /* a tensor.empty of the branch */
  MlirOperation at = mlirOperationIsNull(head) ? y : head;
  MlirValue into = e;
  if (!empty && (mlirOperationIsNull(head) || readsInit(head, hk))) {
    MlirType t = mlirValueGetType(e);
    MlirValue ops[2] = {v, e};
    MlirOperationState ms = mlirOperationStateGet(
        SREF("bufferization.materialize_in_destination"), mlirOperationGetLocation(at));
    mlirOperationStateAddOperands(&ms, 2, ops);
    mlirOperationStateAddResults(&ms, 1, &t);
    MlirOperation copy = mlirOperationCreate(&ms);
    mlirBlockInsertOwnedOperationBefore(b, at, copy);
    into = mlirOperationGetResult(copy, 0);
  }
  if (mlirOperationIsNull(head))
    mlirOperationSetOperand(y, j, into);
  else
    mlirOperationSetOperand(head, hk, into);
  if (empty && mlirOpOperandIsNull(mlirValueGetFirstUse(v)))
    mlirOperationDestroy(mlirOpResultGetOwner(v));
}

/* An scf.if or scf.index_switch whose result j the planner counts as a new
 * buffer made at the op (not a write into one init every branch shares,
 * ifInit): every branch now writes (or copies) its result j into one
 * tensor.empty made right before the op, when each branch's chain starts
 * from an empty of its own or from a value made before the op.  The result
 * is then that buffer, owned where it is made; bufferization would
 * otherwise give it a buffer of unknown owner (a fully dynamic layout when
 * every branch allocates, difftest seeds 6161, 6191; one branch's buffer or
 * another's when a branch yields a value made before the op, seed 120115),
 * which the deallocation pipeline clones. */
static void shareIfInits(AcWriteCopy *w, MlirBlock block, MlirOperation op) {
  (void)w;
  if (!isOp(op, "scf.if") && !isOp(op, "scf.index_switch"))
    return;
  intptr_t nr = mlirOperationGetNumRegions(op);
  for (intptr_t j = 0; j < mlirOperationGetNumResults(op); ++j) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, j));
    if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t) ||
        (isOp(op, "scf.if") && !mlirValueIsNull(ifInit(op, j))) ||
        !branchesChainable(op, j))
      continue;
    MlirOperationState es =
        mlirOperationStateGet(SREF("tensor.empty"), mlirOperationGetLocation(op));
    mlirOperationStateAddResults(&es, 1, &t);
    MlirOperation e = mlirOperationCreate(&es);
    mlirBlockInsertOwnedOperationBefore(block, op, e);
    for (intptr_t r = 0; r < nr; ++r)
      routeIntoEmpty(op, r, j, mlirOperationGetResult(e, 0));
  }
}

/* ---- Loops that yield a new tensor -------------------------------------
 * One-shot bufferization refuses a loop whose terminator passes on a
 * tensor that is not its iteration argument written in place ("Yield
 * operand #0 is not equivalent to the corresponding iter bbArg"): a body
 * `%n = math.tanh %t` (a linalg.generic into a fresh tensor.empty once
 * auto-ac-to-linalg ran), a tensor.empty, a concat.  The planner counts
 * such a loop as writing its result into its init, the body's tensors as
 * temporaries of the op; so the value passed on is copied into the
 * iteration argument right before the terminator
 * (`bufferization.materialize_in_destination %n in %t`), which then is
 * equivalent.  Only where the import counts that copy
 * (import/bodies.h acLoopCopiesPassed: the write chain back from the
 * passed value ends at a tensor made in the block or at a value from
 * outside the loop); one ending at the argument is in place already, one
 * at another argument of the loop or an scf.if result is left as it was
 * (a copy there could read what it overwrites). */

/* Operands [first, first+n) of `term` are passed on to arguments
 * [arg0, arg0+n) of `block` (of `loop`): each that is a new tensor is
 * copied into its argument right before `term`. */
static void copyPassedOn(AcWriteCopy *w, MlirOperation loop, MlirOperation term,
                         intptr_t first, MlirBlock block, intptr_t arg0, intptr_t n) {
  MlirLocation loc = mlirOperationGetLocation(term);
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue y = mlirOperationGetOperand(term, first + i);
    MlirValue arg = mlirBlockGetArgument(block, arg0 + i);
    MlirType t = mlirValueGetType(arg);
    if (!mlirTypeIsARankedTensor(t) || !mlirTypeEqual(t, mlirValueGetType(y)))
      continue;
    if (!acLoopCopiesPassed(loop, y, arg, 0))
      continue;
    MlirOperation copy = acMaterializeCreate(loc, y, arg);
    mlirBlockInsertOwnedOperationBefore(block, term, copy);
    mlirOperationSetOperand(term, first + i, mlirOperationGetResult(copy, 0));
    w->copies++;
  }
}

static MlirBlock regionBlock(MlirOperation op, intptr_t r) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
  if (mlirBlockIsNull(b) || !mlirBlockIsNull(mlirBlockGetNextInRegion(b)))
    return (MlirBlock){NULL};
  return b;
}

/* scf.for: yield operand i to iter_arg i (block argument i + 1).
 * scf.while: scf.condition's forwarded operand i to the before region's
 * argument i, the after region's yield operand i to its argument i, where
 * the counts match. */
static MlirWalkResult loopYieldCb(MlirOperation op, void *user) {
  AcWriteCopy *w = user;
  int isFor = isOp(op, "scf.for");
  if (!isFor && !isOp(op, "scf.while"))
    return MlirWalkResultAdvance;
  for (intptr_t r = 0; r < (isFor ? 1 : 2); ++r) {
    MlirBlock b = regionBlock(op, r);
    MlirOperation term = mlirBlockIsNull(b) ? (MlirOperation){NULL}
                                            : mlirBlockGetTerminator(b);
    if (mlirOperationIsNull(term))
      continue;
    intptr_t nops = mlirOperationGetNumOperands(term), nargs = mlirBlockGetNumArguments(b);
    intptr_t first = (!isFor && r == 0) ? 1 : 0, arg0 = isFor ? 1 : 0;
    if (nops - first != nargs - arg0)
      continue;
    copyPassedOn(w, op, term, first, b, arg0, nops - first);
  }
  return MlirWalkResultAdvance;
}

static void resetFunc(AcWriteCopy *w) {
  acPtrMapClear(&w->seq);
  acPtrMapClear(&w->baseOf);
  acPtrMapClear(&w->baseIdx);
  w->numBases = 0;
  w->next = 0;
}

static MlirWalkResult funcCb(MlirOperation op, void *user) {
  AcWriteCopy *w = user;
  if (!isOp(op, "func.func"))
    return MlirWalkResultAdvance;
  MlirRegion body = mlirOperationGetRegion(op, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(entry))
    return MlirWalkResultSkip;
  /* One-block functions only: the layouts follow views up to the return. */
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(entry)))
    return MlirWalkResultSkip;
  resetFunc(w);
  MlirOperation ret = mlirBlockGetTerminator(entry);
  w->ret = !mlirOperationIsNull(ret) && isOp(ret, "func.return") ? ret
                                                                   : (MlirOperation){NULL};
  visitOps(w, entry, shareIfInits);
  unshareInits(w, entry);
  mlirOperationWalk(op, numberCb, w, MlirWalkPreOrder);
  if (!w->failed)
    visitOps(w, entry, copyWrites);
  return w->failed ? MlirWalkResultInterrupt : MlirWalkResultSkip;
}

AcStatus acCopyBeforeWrite(MlirOperation module, intptr_t *copies) {
  AcWriteCopy w;
  memset(&w, 0, sizeof w);
  mlirOperationWalk(module, loopYieldCb, &w, MlirWalkPostOrder);
  mlirOperationWalk(module, funcCb, &w, MlirWalkPreOrder);
  resetFunc(&w);
  acFree(w.last);
  acFree(w.shared);
  if (copies)
    *copies = w.copies;
  return w.failed ? AC_ERR_NOMEM : AC_OK;
}
