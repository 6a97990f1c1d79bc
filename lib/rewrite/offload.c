/* offload.c - offloaded saves in the split halves (docs/rewrite.md,
 * "Offload").
 *
 * After the split, for each offloaded saved value (AcPlan.offload), placed
 * where the simulator placed its copies (AcSimResult.offloadDone/Issue):
 *  - in @f_fwd, the host buffer is allocated right after the op defining
 *    the value and filled where the device->host copy completes (after the
 *    op of the device buffer's last forward step):
 *      %h0 = bufferization.alloc_tensor() {ac.offload}
 *      ...
 *      %h = bufferization.materialize_in_destination %v in %h0 {ac.offload}
 *    so the value dies there and @f_fwd returns %h;
 *  - in @f_bwd, the device buffer is allocated where the prefetch is issued
 *    (before the issue op and the recompute regions right before it) and
 *    filled right before the first op that uses the argument (a use inside
 *    a region counts at its ancestor op):
 *      %d0 = bufferization.alloc_tensor() {ac.prefetch}
 *      ...
 *      %d = bufferization.materialize_in_destination %arg in %d0 {ac.prefetch}
 *    every use reading %d; the argument (ac.owned) is freed after the copy.
 * The materialize op stands for the copy's completion: on the CPU it is the
 * copy (one-shot bufferization: a memref.copy into the buffer), so the
 * compiled program's buffers live exactly where the simulator has them and
 * computes bit for bit what the unplanned one does.  On the GPU
 * (lib/lower/gpucopy.c) the host buffer is pinned and each copy is issued
 * asynchronously at the later of its buffers' allocations, on a stream of
 * its own, and waited for at the materialize. */
#include "rewrite/rewrite.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <string.h>

#define SREF(s) mlirStringRefCreateFromCString(s)

static MlirNamedAttribute acMark(MlirContext ctx, const char *mark) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF(mark)),
                               mlirUnitAttrGet(ctx));
}

/* A detached `bufferization.alloc_tensor() [copy(%copy)] {<mark>}` of type
 * `t` (`copy` null: an empty buffer, `t` statically shaped). */
static MlirOperation acAllocOp(MlirContext ctx, MlirType t, MlirValue copy,
                               MlirLocation loc, const char *mark) {
  int has = !mlirValueIsNull(copy);
  int32_t seg[3] = {0, has, 0};
  MlirNamedAttribute attrs[2] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("operandSegmentSizes")),
                            mlirDenseI32ArrayGet(ctx, 3, seg)),
      acMark(ctx, mark)};
  MlirOperationState st =
      mlirOperationStateGet(SREF("bufferization.alloc_tensor"), loc);
  if (has)
    mlirOperationStateAddOperands(&st, 1, &copy);
  mlirOperationStateAddResults(&st, 1, &t);
  mlirOperationStateAddAttributes(&st, 2, attrs);
  return mlirOperationCreate(&st);
}

/* A detached `bufferization.materialize_in_destination %src in %dest
 * {<mark>}`: the copy into a buffer allocated earlier. */
static MlirOperation acFillOp(MlirContext ctx, MlirValue src, MlirValue dest,
                              MlirLocation loc, const char *mark) {
  MlirType t = mlirValueGetType(dest);
  MlirValue ops[2] = {src, dest};
  MlirNamedAttribute m = acMark(ctx, mark);
  MlirOperationState st = mlirOperationStateGet(
      SREF("bufferization.materialize_in_destination"), loc);
  mlirOperationStateAddOperands(&st, 2, ops);
  mlirOperationStateAddResults(&st, 1, &t);
  mlirOperationStateAddAttributes(&st, 1, &m);
  return mlirOperationCreate(&st);
}

static MlirLocation acLocOf(MlirContext ctx, MlirValue v) {
  return mlirValueIsAOpResult(v)
             ? mlirOperationGetLocation(mlirOpResultGetOwner(v))
             : mlirLocationUnknownGet(ctx);
}

/* The first bytes of a type's printed form (enough to tell its kind). */
typedef struct AcPrefix {
  char text[24];
  size_t len;
} AcPrefix;

static void acPrefixAppend(MlirStringRef s, void *user) {
  AcPrefix *p = user;
  for (size_t i = 0; i < s.length && p->len + 1 < sizeof p->text; ++i)
    p->text[p->len++] = s.data[i];
  p->text[p->len] = 0;
}

/* torch-mlir's value tensor (`!torch.vtensor<...>`), registered or parsed as
 * an opaque type of the unregistered torch dialect. */
static int acIsTorchValueTensor(MlirType t) {
  if (mlirTypeIsAOpaque(t)) { /* the unregistered dialect: no printing */
    MlirStringRef ns = mlirOpaqueTypeGetDialectNamespace(t);
    MlirStringRef d = mlirOpaqueTypeGetData(t);
    return ns.length == 5 && memcmp(ns.data, "torch", 5) == 0 &&
           d.length >= 8 && memcmp(d.data, "vtensor<", 8) == 0;
  }
  MlirStringRef ns = mlirDialectGetNamespace(mlirTypeGetDialect(t));
  if (ns.length != 5 || memcmp(ns.data, "torch", 5) != 0)
    return 0;
  AcPrefix p = {{0}, 0};
  mlirTypePrint(t, acPrefixAppend, &p);
  return strncmp(p.text, "!torch.vtensor<", 15) == 0;
}

int acRewriteCanOffloadType(MlirType t) {
  return mlirTypeIsARankedTensor(t) || acIsTorchValueTensor(t);
}

/* A detached torch op `name`() with attribute `value` (may be null) and
 * result type `type` (parsed: the torch dialect may be unregistered). */
static MlirOperation acTorchConstant(MlirContext ctx, MlirLocation loc,
                                     const char *name, MlirAttribute value,
                                     const char *type) {
  MlirType t = mlirTypeParseGet(ctx, SREF(type));
  if (mlirTypeIsNull(t))
    return (MlirOperation){NULL};
  MlirOperationState st = mlirOperationStateGet(SREF(name), loc);
  mlirOperationStateAddResults(&st, 1, &t);
  if (!mlirAttributeIsNull(value)) {
    MlirNamedAttribute a =
        mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("value")), value);
    mlirOperationStateAddAttributes(&st, 1, &a);
  }
  return mlirOperationCreate(&st);
}

/* Inserts before `at` in `block`: the torch constants a copy of `v` to
 * `device` needs and `torch.aten._to_copy`(v, none, none, device, pin,
 * non_blocking = true, none) {<mark>}; returns the copy (null on failure:
 * nothing is inserted). */
static MlirOperation acTorchCopy(MlirContext ctx, MlirBlock block,
                                 MlirOperation at, int after, MlirValue v,
                                 const char *device, int pin,
                                 const char *mark) {
  MlirLocation loc = mlirValueIsAOpResult(v)
                         ? mlirOperationGetLocation(mlirOpResultGetOwner(v))
                         : mlirLocationUnknownGet(ctx);
  MlirOperation ops[5] = {
      acTorchConstant(ctx, loc, "torch.constant.none", (MlirAttribute){NULL},
                      "!torch.none"),
      acTorchConstant(ctx, loc, "torch.constant.device",
                      mlirStringAttrGet(ctx, SREF(device)), "!torch.Device"),
      acTorchConstant(ctx, loc, "torch.constant.bool",
                      mlirBoolAttrGet(ctx, pin), "!torch.bool"),
      acTorchConstant(ctx, loc, "torch.constant.bool",
                      mlirBoolAttrGet(ctx, 1), "!torch.bool"),
      {NULL}};
  for (int i = 0; i < 4; ++i)
    if (mlirOperationIsNull(ops[i])) {
      for (int j = 0; j < 4; ++j)
        if (!mlirOperationIsNull(ops[j]))
          mlirOperationDestroy(ops[j]);
      return (MlirOperation){NULL};
    }
  MlirValue none = mlirOperationGetResult(ops[0], 0);
  MlirValue operands[7] = {v, none, none, mlirOperationGetResult(ops[1], 0),
                           mlirOperationGetResult(ops[2], 0),
                           mlirOperationGetResult(ops[3], 0), none};
  MlirType t = mlirValueGetType(v);
  MlirNamedAttribute m =
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF(mark)), mlirUnitAttrGet(ctx));
  MlirOperationState st = mlirOperationStateGet(SREF("torch.aten._to_copy"), loc);
  mlirOperationStateAddOperands(&st, 7, operands);
  mlirOperationStateAddResults(&st, 1, &t);
  mlirOperationStateAddAttributes(&st, 1, &m);
  ops[4] = mlirOperationCreate(&st);
  MlirOperation prev = at;
  for (int i = 0; i < 5; ++i) {
    if (after)
      mlirBlockInsertOwnedOperationAfter(block, prev, ops[i]);
    else
      mlirBlockInsertOwnedOperationBefore(block, at, ops[i]);
    prev = ops[i];
  }
  return ops[4];
}

/* The op of `block` holding `op` (itself, or an ancestor); null if none. */
static MlirOperation acAncestorIn(MlirBlock block, MlirOperation op) {
  while (!mlirOperationIsNull(op) &&
         !mlirBlockEqual(mlirOperationGetBlock(op), block))
    op = mlirOperationGetParentOperation(op);
  return op;
}

/* Does `op` (or an op nested in it) use `v`? */
static int acUses(MlirOperation op, MlirValue v, MlirBlock block) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (mlirOperationEqual(acAncestorIn(block, mlirOpOperandGetOwner(u)), op))
      return 1;
  return 0;
}

AcStatus acRewriteOffloadReady(MlirContext ctx, AcError *err) {
  if (mlirDialectIsNull(mlirContextGetOrLoadDialect(ctx, SREF("bufferization"))))
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "the plan offloads saves, which needs the bufferization "
                      "dialect, and this context has none registered");
  return AC_OK;
}

/* The forward: the host buffer of builtin tensor `v` (defined by `def`),
 * allocated after `def` and filled after `done` (null: at `def`); a
 * dynamically shaped one is copied at once, after `done`.  Returns the
 * buffer (null on failure: nothing is inserted). */
static MlirValue acOffloadOut(MlirContext ctx, MlirBlock fb, MlirOperation def,
                              MlirOperation done, MlirValue v) {
  MlirType t = mlirValueGetType(v);
  MlirLocation loc = acLocOf(ctx, v);
  if (mlirOperationIsNull(done))
    done = def;
  if (!mlirShapedTypeHasStaticShape(t)) {
    MlirOperation c = acAllocOp(ctx, t, v, loc, "ac.offload");
    if (mlirOperationIsNull(c))
      return (MlirValue){NULL};
    mlirBlockInsertOwnedOperationAfter(fb, done, c);
    return mlirOperationGetResult(c, 0);
  }
  MlirOperation a = acAllocOp(ctx, t, (MlirValue){NULL}, loc, "ac.offload");
  if (mlirOperationIsNull(a))
    return (MlirValue){NULL};
  MlirOperation c = acFillOp(ctx, v, mlirOperationGetResult(a, 0), loc, "ac.offload");
  if (mlirOperationIsNull(c)) {
    mlirOperationDestroy(a);
    return (MlirValue){NULL};
  }
  mlirBlockInsertOwnedOperationAfter(fb, def, a);
  mlirBlockInsertOwnedOperationAfter(fb, mlirOperationEqual(done, def) ? a : done, c);
  return mlirOperationGetResult(c, 0);
}

/* The op of `bb` before which the prefetch of `arg` is issued: `issue`'s
 * ancestor in `bb`, moved before the recompute regions right before it
 * (the simulator's run of recompute steps), never after `first` (the first
 * op using `arg`); `first` when `issue` is null. */
static MlirOperation acIssueAt(MlirBlock bb, MlirOperation issue,
                               MlirOperation first) {
  MlirOperation at = mlirOperationIsNull(issue) ? issue : acAncestorIn(bb, issue);
  if (mlirOperationIsNull(at))
    return first;
  MlirOperation run = {NULL}; /* first op of the recompute run before p */
  for (MlirOperation p = mlirBlockGetFirstOperation(bb); !mlirOperationIsNull(p);
       p = mlirOperationGetNextInBlock(p)) {
    if (mlirOperationEqual(p, at))
      return mlirOperationIsNull(run) ? at : run;
    if (mlirOperationEqual(p, first))
      return first; /* the issue point comes after the first use */
    if (mlirAttributeIsNull(mlirOperationGetAttributeByName(p, SREF("ac.recompute"))))
      run = (MlirOperation){NULL};
    else if (mlirOperationIsNull(run))
      run = p;
  }
  return first;
}

/* The backward: `arg` copied back into a buffer allocated before `at` (a
 * builtin tensor of static shape) and filled before `first`; every other
 * use reads the copy.  0 on failure (nothing is inserted). */
static int acOffloadBack(MlirContext ctx, MlirBlock bb, MlirOperation at,
                         MlirOperation first, MlirValue arg, int torch,
                         const char *device) {
  MlirType t = mlirValueGetType(arg);
  MlirLocation loc = acLocOf(ctx, arg);
  MlirOperation back = {NULL};
  if (torch) {
    back = acTorchCopy(ctx, bb, at, 0, arg, device, 0, "ac.prefetch");
  } else if (!mlirShapedTypeHasStaticShape(t)) {
    if (!mlirOperationIsNull(back = acAllocOp(ctx, t, arg, loc, "ac.prefetch")))
      mlirBlockInsertOwnedOperationBefore(bb, first, back);
  } else {
    MlirOperation a = acAllocOp(ctx, t, (MlirValue){NULL}, loc, "ac.prefetch");
    if (mlirOperationIsNull(a))
      return 0;
    back = acFillOp(ctx, arg, mlirOperationGetResult(a, 0), loc, "ac.prefetch");
    if (mlirOperationIsNull(back)) {
      mlirOperationDestroy(a);
      return 0;
    }
    mlirBlockInsertOwnedOperationBefore(bb, at, a);
    mlirBlockInsertOwnedOperationBefore(bb, first, back);
  }
  if (mlirOperationIsNull(back))
    return 0;
  mlirValueReplaceAllUsesOfWith(arg, mlirOperationGetResult(back, 0));
  mlirOperationSetOperand(back, 0, arg);
  return 1;
}

AcStatus acRewriteOffloadHalves(MlirContext ctx, MlirBlock fb, MlirBlock bb,
                                intptr_t firstSavedResult,
                                const intptr_t *saved, const MlirOperation *done,
                                const MlirOperation *issue, intptr_t n,
                                const char *device, AcError *err) {
  MlirOperation ret = mlirBlockGetTerminator(fb);
  for (intptr_t j = 0; j < n; ++j) {
    intptr_t k = firstSavedResult + saved[j];
    MlirValue v = mlirOperationGetOperand(ret, k);
    int torch = acIsTorchValueTensor(mlirValueGetType(v));
    if (!mlirValueIsAOpResult(v) || !acRewriteCanOffloadType(mlirValueGetType(v)))
      return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                        "rewrite: offloaded save #%ld is not a ranked tensor "
                        "made by an op", (long)saved[j]);
    MlirOperation def = acAncestorIn(fb, mlirOpResultGetOwner(v));
    MlirOperation fin = mlirOperationIsNull(done[j]) ? done[j] : acAncestorIn(fb, done[j]);
    MlirValue out = {NULL};
    if (!mlirOperationIsNull(def)) {
      if (torch) {
        MlirOperation c = acTorchCopy(ctx, fb, def, 1, v, "cpu", 1, "ac.offload");
        if (!mlirOperationIsNull(c))
          out = mlirOperationGetResult(c, 0);
      } else {
        out = acOffloadOut(ctx, fb, def, fin, v);
      }
    }
    if (mlirValueIsNull(out))
      return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                        "rewrite: cannot copy offloaded save #%ld",
                        (long)saved[j]);
    mlirOperationSetOperand(ret, k, out);
    /* The backward: copied back, complete before its first use. */
    MlirValue arg = mlirBlockGetArgument(bb, saved[j]);
    MlirOperation first = mlirBlockGetFirstOperation(bb);
    while (!mlirOperationIsNull(first) && !acUses(first, arg, bb))
      first = mlirOperationGetNextInBlock(first);
    if (mlirOperationIsNull(first))
      continue; /* never read back */
    MlirOperation at = acIssueAt(bb, issue[j], first);
    if (!acOffloadBack(ctx, bb, at, first, arg, torch, device))
      return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                        "rewrite: cannot copy back offloaded save #%ld",
                        (long)saved[j]);
  }
  return AC_OK;
}
