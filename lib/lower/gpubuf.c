/* gpubuf.c - auto-ac-gpu-buffers (autoac/lower.h): the buffers of host
 * functions in GPU memory, but for offloaded saves' host buffers, which
 * gpucopy.c pins, with their copies made asynchronous.  docs/rewrite.md,
 * "Lowering the output". */
#include "autoac/lower.h"
#include "import/import.h"
#include "lower/gpucopy.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"

#include <string.h>

#define SREF(s) mlirStringRefCreateFromCString(s)


typedef struct AcGpuBuf {
  MlirOperation *ops;  ///< memref.alloc / memref.dealloc ops to replace
  intptr_t n, cap;
  int nomem;
} AcGpuBuf;

static MlirWalkResult collectCb(MlirOperation op, void *user) {
  AcGpuBuf *b = user;
  if (acOpIs(op, "gpu.module") || acOpIs(op, "gpu.launch") || acOpIs(op, "gpu.func"))
    return MlirWalkResultSkip; /* device code keeps its own buffers */
  if (!acOpIs(op, "memref.alloc") && !acOpIs(op, "memref.dealloc"))
    return MlirWalkResultAdvance;
  if (acGpuCopyMark(op) == 0 || acGpuCopyMark(op) == 2)
    return MlirWalkResultAdvance; /* host memory: an offloaded save's */
  if (!acArrayGrow((void **)&b->ops, &b->cap, b->n + 1, sizeof *b->ops)) {
    b->nomem = 1;
    return MlirWalkResultInterrupt;
  }
  b->ops[b->n++] = op;
  return MlirWalkResultAdvance;
}

/// gpu.alloc host_shared (dynamic sizes, symbols) replacing memref.alloc.
static MlirOperation makeAlloc(MlirContext ctx, MlirOperation alloc) {
  intptr_t n = mlirOperationGetNumOperands(alloc);
  int32_t nDyn = (int32_t)n, nSym = 0;
  MlirAttribute seg = mlirOperationGetAttributeByName(alloc, SREF("operandSegmentSizes"));
  if (!mlirAttributeIsNull(seg) && mlirAttributeIsADenseI32Array(seg) &&
      mlirDenseArrayGetNumElements(seg) == 2) {
    nDyn = mlirDenseI32ArrayGetElement(seg, 0);
    nSym = mlirDenseI32ArrayGetElement(seg, 1);
  }
  MlirOperationState st =
      mlirOperationStateGet(SREF("gpu.alloc"), mlirOperationGetLocation(alloc));
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(alloc, i);
    mlirOperationStateAddOperands(&st, 1, &v);
  }
  MlirType t = mlirValueGetType(mlirOperationGetResult(alloc, 0));
  mlirOperationStateAddResults(&st, 1, &t);
  int32_t sizes[3] = {0, nDyn, nSym};
  MlirNamedAttribute attrs[2] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("operandSegmentSizes")),
                            mlirDenseI32ArrayGet(ctx, 3, sizes)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("hostShared")),
                            mlirUnitAttrGet(ctx))};
  mlirOperationStateAddAttributes(&st, 2, attrs);
  return mlirOperationCreate(&st);
}

AcStatus acGpuBuffers(MlirOperation module, intptr_t *converted) {
  MlirContext ctx = mlirOperationGetContext(module);
  AcGpuBuf b = {NULL, 0, 0, 0};
  AcStatus st = AC_OK;
  if (converted)
    *converted = 0;
  if (mlirDialectIsNull(mlirContextGetOrLoadDialect(ctx, SREF("gpu")))) {
    mlirEmitError(mlirOperationGetLocation(module),
                  "auto-ac-gpu-buffers: the gpu dialect is not available");
    return AC_ERR_INVALID;
  }
  MlirType token = mlirTypeParseGet(ctx, SREF("!gpu.async.token"));
  if (mlirTypeIsNull(token)) {
    mlirEmitError(mlirOperationGetLocation(module),
                  "auto-ac-gpu-buffers: no !gpu.async.token type");
    return AC_ERR_INVALID;
  }
  if ((st = acGpuOffloadCopies(module, NULL)) != AC_OK)
    return st;
  mlirOperationWalk(module, collectCb, &b, MlirWalkPreOrder);
  if (b.nomem) {
    mlirEmitError(mlirOperationGetLocation(module),
                  "auto-ac-gpu-buffers: out of memory");
    st = AC_ERR_NOMEM;
    goto done;
  }
  for (intptr_t i = 0; i < b.n; ++i) {
    MlirOperation op = b.ops[i];
    MlirOperation repl;
    MlirBlock block = mlirOperationGetBlock(op);
    if (acOpIs(op, "memref.alloc")) {
      repl = makeAlloc(ctx, op);
      mlirBlockInsertOwnedOperationBefore(block, op, repl);
    } else {
      /* gpu-to-llvm lowers only the asynchronous gpu.dealloc: on a stream of
       * its own, waited for right away (mgpuMemFree, then synchronize). */
      MlirLocation loc = mlirOperationGetLocation(op);
      MlirOperationState s = mlirOperationStateGet(SREF("gpu.wait"), loc);
      mlirOperationStateAddResults(&s, 1, &token);
      MlirOperation w0 = mlirOperationCreate(&s);
      mlirBlockInsertOwnedOperationBefore(block, op, w0);
      MlirValue ops2[2] = {mlirOperationGetResult(w0, 0),
                           mlirOperationGetOperand(op, 0)};
      s = mlirOperationStateGet(SREF("gpu.dealloc"), loc);
      mlirOperationStateAddOperands(&s, 2, ops2);
      mlirOperationStateAddResults(&s, 1, &token);
      repl = mlirOperationCreate(&s);
      mlirBlockInsertOwnedOperationBefore(block, op, repl);
      MlirValue t = mlirOperationGetResult(repl, 0);
      s = mlirOperationStateGet(SREF("gpu.wait"), loc);
      mlirOperationStateAddOperands(&s, 1, &t);
      mlirBlockInsertOwnedOperationBefore(block, op, mlirOperationCreate(&s));
    }
    if (mlirOperationGetNumResults(op) == 1)
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0),
                                    mlirOperationGetResult(repl, 0));
    mlirOperationDestroy(op);
    if (converted)
      ++*converted;
  }
done:
  acFree(b.ops);
  return st;
}
