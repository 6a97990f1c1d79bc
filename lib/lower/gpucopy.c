/* gpucopy.c - offloaded saves on the GPU: auto-ac-offload-locs and the
 * copies of auto-ac-gpu-buffers (autoac/lower.h).  docs/rewrite.md,
 * "Offload", and docs/fidelity.md, "Offload".
 *
 * The rewrite marks an offloaded save's buffers and copies with attributes
 * (`ac.offload`: the host buffer and the device->host copy in the forward;
 * `ac.prefetch`: the device buffer and the host->device copy in the
 * backward).  One-shot bufferization drops attributes but keeps locations,
 * so auto-ac-offload-locs, before it, wraps each marked op's location in a
 * name (`loc("ac.offload"(...))`); after it, auto-ac-gpu-buffers finds the
 * `memref.alloc` and `memref.copy` made from them by that name:
 *  - the host buffer stays host memory (`memref.alloc`, not `gpu.alloc`)
 *    and is pinned right after it (`gpu.host_register`); its free is
 *    `gpu.host_unregister` then `memref.dealloc`;
 *  - each copy becomes asynchronous on a stream of its own: issued
 *    (`gpu.wait async` + `gpu.memcpy async`) right after the later of the
 *    definitions of its two buffers in its block (the host buffer's
 *    registration; the prefetch's device buffer), and waited for
 *    (`gpu.wait`) where the copy was: where the simulator has it complete.
 * Kernels keep running on their own streams meanwhile; the copy engines
 * serialize the copies of one direction, as the simulator's one queue per
 * direction does.  A copy whose buffers are not of the identity layout (a
 * strided view), or defined in no common block, stays a synchronous
 * `memref.copy` at its completion point: correct, only not overlapped. */
#include "autoac/lower.h"
#include "import/import.h"

#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

#include <string.h>

#define SREF(s) mlirStringRefCreateFromCString(s)

static const char *const acMarks[] = {"ac.offload", "ac.prefetch", "ac.host"};

/* The mark of `op`'s location (an index into acMarks), or -1. */
int acGpuCopyMark(MlirOperation op) {
  MlirLocation loc = mlirOperationGetLocation(op);
  if (!mlirLocationIsAName(loc))
    return -1;
  MlirStringRef n = mlirIdentifierStr(mlirLocationNameGetName(loc));
  for (int i = 0; i < 3; ++i)
    if (n.length == strlen(acMarks[i]) && memcmp(n.data, acMarks[i], n.length) == 0)
      return i;
  return -1;
}

static void acSetMark(MlirOperation op, int mark) {
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirContext ctx = mlirLocationGetContext(loc);
  mlirOperationSetLocation(op, mlirLocationNameGet(ctx, SREF(acMarks[mark]), loc));
}

typedef struct AcOps {
  MlirOperation *ops;
  intptr_t n, cap;
  int nomem;
} AcOps;

static int acOpsPush(AcOps *o, MlirOperation op) {
  if (!acArrayGrow((void **)&o->ops, &o->cap, o->n + 1, sizeof *o->ops)) {
    o->nomem = 1;
    return 0;
  }
  o->ops[o->n++] = op;
  return 1;
}

static MlirWalkResult acMarkedTensorOpCb(MlirOperation op, void *user) {
  if ((acOpIs(op, "bufferization.alloc_tensor") ||
       acOpIs(op, "bufferization.materialize_in_destination")) &&
      (!mlirAttributeIsNull(mlirOperationGetAttributeByName(op, SREF("ac.offload"))) ||
       !mlirAttributeIsNull(mlirOperationGetAttributeByName(op, SREF("ac.prefetch")))) &&
      acGpuCopyMark(op) < 0 && !acOpsPush(user, op))
    return MlirWalkResultInterrupt;
  return MlirWalkResultAdvance;
}

AcStatus acOffloadLocs(MlirOperation module, intptr_t *marked) {
  AcOps o = {NULL, 0, 0, 0};
  mlirOperationWalk(module, acMarkedTensorOpCb, &o, MlirWalkPreOrder);
  if (o.nomem) {
    acFree(o.ops);
    mlirEmitError(mlirOperationGetLocation(module), "auto-ac-offload-locs: out of memory");
    return AC_ERR_NOMEM;
  }
  for (intptr_t i = 0; i < o.n; ++i)
    acSetMark(o.ops[i], mlirAttributeIsNull(mlirOperationGetAttributeByName(
                            o.ops[i], SREF("ac.offload"))) ? 1 : 0);
  if (marked)
    *marked = o.n;
  acFree(o.ops);
  return AC_OK;
}

/* ---- after bufferization ------------------------------------------------ */

typedef struct AcGpuCopies {
  AcOps hostAllocs;  ///< memref.alloc marked ac.offload
  AcOps copies;      ///< memref.copy marked ac.offload / ac.prefetch
  AcOps deallocs;    ///< every memref.dealloc of host code
} AcGpuCopies;

static MlirWalkResult acCollectCb(MlirOperation op, void *user) {
  AcGpuCopies *c = user;
  if (acOpIs(op, "gpu.module") || acOpIs(op, "gpu.launch") || acOpIs(op, "gpu.func"))
    return MlirWalkResultSkip;
  int mark = acGpuCopyMark(op);
  int ok = 1;
  if (acOpIs(op, "memref.alloc") && mark == 0)
    ok = acOpsPush(&c->hostAllocs, op);
  else if (acOpIs(op, "memref.copy") && (mark == 0 || mark == 1))
    ok = acOpsPush(&c->copies, op);
  else if (acOpIs(op, "memref.dealloc"))
    ok = acOpsPush(&c->deallocs, op);
  return ok ? MlirWalkResultAdvance : MlirWalkResultInterrupt;
}

/* The buffer a view `v` is of: followed back through the memref view ops. */
static MlirValue acViewRoot(MlirValue v) {
  static const char *const views[] = {"memref.cast", "memref.subview",
                                      "memref.reinterpret_cast", "memref.expand_shape",
                                      "memref.collapse_shape"};
  for (int guard = 0; guard < 64 && mlirValueIsAOpResult(v); ++guard) {
    MlirOperation p = mlirOpResultGetOwner(v);
    int view = 0;
    for (size_t i = 0; i < sizeof views / sizeof *views && !view; ++i)
      view = acOpIs(p, views[i]);
    if (!view || mlirOperationGetNumOperands(p) < 1)
      break;
    v = mlirOperationGetOperand(p, 0);
  }
  return v;
}

/* Inserts `op` after `at` (or before it, `before`) in `at`'s block. */
static void acPlace(MlirOperation at, MlirOperation op, int before) {
  MlirBlock b = mlirOperationGetBlock(at);
  if (before)
    mlirBlockInsertOwnedOperationBefore(b, at, op);
  else
    mlirBlockInsertOwnedOperationAfter(b, at, op);
}

/* `gpu.host_register` (or `_unregister`) of `buf`, through a cast to the
 * unranked memref type both take, placed after (before) `at`.  Returns
 * the last op made. */
static MlirOperation acHostRegister(MlirOperation at, MlirValue buf, int reg) {
  MlirType t = mlirValueGetType(buf);
  MlirLocation loc = mlirOperationGetLocation(at);
  MlirType u = mlirUnrankedMemRefTypeGet(mlirShapedTypeGetElementType(t),
                                         mlirMemRefTypeGetMemorySpace(t));
  MlirOperationState s = mlirOperationStateGet(SREF("memref.cast"), loc);
  mlirOperationStateAddOperands(&s, 1, &buf);
  mlirOperationStateAddResults(&s, 1, &u);
  MlirOperation cast = mlirOperationCreate(&s);
  acPlace(at, cast, !reg);
  MlirValue cv = mlirOperationGetResult(cast, 0);
  s = mlirOperationStateGet(SREF(reg ? "gpu.host_register" : "gpu.host_unregister"), loc);
  mlirOperationStateAddOperands(&s, 1, &cv);
  MlirOperation r = mlirOperationCreate(&s);
  if (reg)
    mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(cast), cast, r);
  else
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, r);
  return r;
}

static int acIdentityMemRef(MlirType t) {
  return mlirTypeIsAMemRef(t) &&
         mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(t));
}

/* The op of `block` that defines `v` (null: an argument or an outer value). */
static MlirOperation acDefIn(MlirValue v, MlirBlock block) {
  if (!mlirValueIsAOpResult(v))
    return (MlirOperation){NULL};
  MlirOperation d = mlirOpResultGetOwner(v);
  return mlirBlockEqual(mlirOperationGetBlock(d), block) ? d : (MlirOperation){NULL};
}

/* Whether `a` comes before `b` (both in one block). */
static int acBefore(MlirOperation a, MlirOperation b) {
  for (MlirOperation p = mlirOperationGetNextInBlock(a); !mlirOperationIsNull(p);
       p = mlirOperationGetNextInBlock(p))
    if (mlirOperationEqual(p, b))
      return 1;
  return 0;
}

/* Makes copy `cp` asynchronous (see the file's comment); `regs` maps the
 * host allocations (`allocs`) to their registrations.  Returns 1 when it
 * did. */
static int acAsyncCopy(MlirOperation cp, const AcOps *allocs,
                       const MlirOperation *regs, MlirType token) {
  MlirValue src = mlirOperationGetOperand(cp, 0), dst = mlirOperationGetOperand(cp, 1);
  if (!acIdentityMemRef(mlirValueGetType(src)) || !acIdentityMemRef(mlirValueGetType(dst)))
    return 0;
  MlirBlock block = mlirOperationGetBlock(cp);
  MlirOperation at = {NULL};
  MlirValue bufs[2] = {src, dst};
  for (int i = 0; i < 2; ++i) {
    MlirOperation d = acDefIn(bufs[i], block);
    for (intptr_t k = 0; k < allocs->n && !mlirOperationIsNull(d); ++k)
      if (mlirOperationEqual(allocs->ops[k], d))
        d = regs[k]; /* issued after the buffer is pinned */
    if (!mlirOperationIsNull(d) && (mlirOperationIsNull(at) || acBefore(at, d)))
      at = d;
  }
  if (mlirOperationIsNull(at) || !acBefore(at, cp))
    return 0;
  MlirLocation loc = mlirOperationGetLocation(cp);
  MlirOperationState s = mlirOperationStateGet(SREF("gpu.wait"), loc);
  mlirOperationStateAddResults(&s, 1, &token);
  MlirOperation stream = mlirOperationCreate(&s);
  mlirBlockInsertOwnedOperationAfter(block, at, stream);
  MlirValue ops[3] = {mlirOperationGetResult(stream, 0), dst, src};
  s = mlirOperationStateGet(SREF("gpu.memcpy"), loc);
  mlirOperationStateAddOperands(&s, 3, ops);
  mlirOperationStateAddResults(&s, 1, &token);
  MlirOperation copy = mlirOperationCreate(&s);
  mlirBlockInsertOwnedOperationAfter(block, stream, copy);
  MlirValue done = mlirOperationGetResult(copy, 0);
  s = mlirOperationStateGet(SREF("gpu.wait"), loc);
  mlirOperationStateAddOperands(&s, 1, &done);
  mlirBlockInsertOwnedOperationBefore(block, cp, mlirOperationCreate(&s));
  mlirOperationDestroy(cp);
  return 1;
}

/* Whether `v`'s buffer is a host buffer: an `ac.offload` allocation or the
 * source of a prefetch copy (an argument of the backward). */
static int acIsHost(MlirValue v, const AcGpuCopies *c) {
  MlirValue r = acViewRoot(v);
  if (mlirValueIsAOpResult(r)) {
    MlirOperation d = mlirOpResultGetOwner(r);
    for (intptr_t k = 0; k < c->hostAllocs.n; ++k)
      if (mlirOperationEqual(c->hostAllocs.ops[k], d))
        return 1;
  }
  for (intptr_t k = 0; k < c->copies.n; ++k)
    if (acGpuCopyMark(c->copies.ops[k]) == 1 &&
        mlirValueEqual(acViewRoot(mlirOperationGetOperand(c->copies.ops[k], 0)), r))
      return 1;
  return 0;
}

AcStatus acGpuOffloadCopies(MlirOperation module, intptr_t *async) {
  MlirContext ctx = mlirOperationGetContext(module);
  AcGpuCopies c = {{NULL, 0, 0, 0}, {NULL, 0, 0, 0}, {NULL, 0, 0, 0}};
  MlirOperation *regs = NULL;
  AcStatus st = AC_OK;
  if (async)
    *async = 0;
  mlirOperationWalk(module, acCollectCb, &c, MlirWalkPreOrder);
  if (c.hostAllocs.nomem || c.copies.nomem || c.deallocs.nomem ||
      (c.hostAllocs.n && !(regs = acCalloc((size_t)c.hostAllocs.n, sizeof *regs)))) {
    mlirEmitError(mlirOperationGetLocation(module), "auto-ac-gpu-buffers: out of memory");
    st = AC_ERR_NOMEM;
    goto done;
  }
  MlirType token = mlirTypeParseGet(ctx, SREF("!gpu.async.token"));
  /* Frees of host buffers first: acIsHost reads the copies, still there. */
  for (intptr_t i = 0; i < c.deallocs.n; ++i) {
    MlirOperation d = c.deallocs.ops[i];
    if (mlirOperationGetNumOperands(d) != 1 || !acIsHost(mlirOperationGetOperand(d, 0), &c))
      continue;
    acHostRegister(d, mlirOperationGetOperand(d, 0), 0);
    acSetMark(d, 2);
  }
  for (intptr_t i = 0; i < c.hostAllocs.n; ++i)
    regs[i] = acHostRegister(c.hostAllocs.ops[i],
                             mlirOperationGetResult(c.hostAllocs.ops[i], 0), 1);
  for (intptr_t i = 0; i < c.copies.n; ++i)
    if (acAsyncCopy(c.copies.ops[i], &c.hostAllocs, regs, token) && async)
      ++*async;
done:
  acFree(regs);
  acFree(c.hostAllocs.ops);
  acFree(c.copies.ops);
  acFree(c.deallocs.ops);
  return st;
}
