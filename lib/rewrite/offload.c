/* offload.c - offloaded saves in the split halves (docs/rewrite.md,
 * "Offload").
 *
 * After the split, for each offloaded saved value (AcPlan.offload):
 *  - in @f_fwd, the saved result becomes a copy of the value into a buffer
 *    of its own, made right after the op defining it:
 *      %h = bufferization.alloc_tensor() copy(%v) {ac.offload}
 *    so the value itself dies at its last forward use and @f_fwd returns
 *    the copy (the host buffer of the plan);
 *  - in @f_bwd, the saved argument is copied back right before the first
 *    op that uses it (a use inside a region counts at its ancestor op):
 *      %d = bufferization.alloc_tensor() copy(%arg) {ac.prefetch}
 *    every use reading %d; the argument (ac.owned) is freed after the copy.
 * On the CPU both copies are plain copies (one-shot bufferization makes
 * each a memref.alloc and a memref.copy), so the planned program computes
 * bit for bit what the unplanned one does.  The GPU lowering (asynchronous
 * copies on a second stream into pinned host buffers) is not written yet. */
#include "rewrite/rewrite.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <string.h>

#define SREF(s) mlirStringRefCreateFromCString(s)

/* A detached `bufferization.alloc_tensor() copy(%v) {<mark>}`. */
static MlirOperation acCopyOp(MlirContext ctx, MlirValue v, const char *mark) {
  MlirType t = mlirValueGetType(v);
  MlirLocation loc = mlirValueIsAOpResult(v)
                         ? mlirOperationGetLocation(mlirOpResultGetOwner(v))
                         : mlirLocationUnknownGet(ctx);
  int32_t seg[3] = {0, 1, 0};
  MlirNamedAttribute attrs[2] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("operandSegmentSizes")),
                            mlirDenseI32ArrayGet(ctx, 3, seg)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF(mark)),
                            mlirUnitAttrGet(ctx))};
  MlirOperationState st =
      mlirOperationStateGet(SREF("bufferization.alloc_tensor"), loc);
  mlirOperationStateAddOperands(&st, 1, &v);
  mlirOperationStateAddResults(&st, 1, &t);
  mlirOperationStateAddAttributes(&st, 2, attrs);
  return mlirOperationCreate(&st);
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

AcStatus acRewriteOffloadHalves(MlirContext ctx, MlirBlock fb, MlirBlock bb,
                                intptr_t firstSavedResult,
                                const intptr_t *saved, intptr_t n,
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
    MlirOperation out = {NULL};
    if (!mlirOperationIsNull(def)) {
      if (torch) {
        out = acTorchCopy(ctx, fb, def, 1, v, "cpu", 1, "ac.offload");
      } else if (!mlirOperationIsNull(out = acCopyOp(ctx, v, "ac.offload"))) {
        mlirBlockInsertOwnedOperationAfter(fb, def, out);
      }
    }
    if (mlirOperationIsNull(out))
      return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                        "rewrite: cannot copy offloaded save #%ld",
                        (long)saved[j]);
    mlirOperationSetOperand(ret, k, mlirOperationGetResult(out, 0));
    /* The backward: copied back before its first use. */
    MlirValue arg = mlirBlockGetArgument(bb, saved[j]);
    MlirOperation first = mlirBlockGetFirstOperation(bb);
    while (!mlirOperationIsNull(first) && !acUses(first, arg, bb))
      first = mlirOperationGetNextInBlock(first);
    if (mlirOperationIsNull(first))
      continue; /* never read back */
    MlirOperation back = {NULL};
    if (torch) {
      back = acTorchCopy(ctx, bb, first, 0, arg, device, 0, "ac.prefetch");
    } else if (!mlirOperationIsNull(back = acCopyOp(ctx, arg, "ac.prefetch"))) {
      mlirBlockInsertOwnedOperationBefore(bb, first, back);
    }
    if (mlirOperationIsNull(back))
      return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                        "rewrite: cannot copy back offloaded save #%ld",
                        (long)saved[j]);
    mlirValueReplaceAllUsesOfWith(arg, mlirOperationGetResult(back, 0));
    mlirOperationSetOperand(back, 0, arg);
  }
  return AC_OK;
}
