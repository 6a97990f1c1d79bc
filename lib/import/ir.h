/*===- import/ir.h - small MLIR helpers every stage shares (internal) -*- C -*-===*
 *
 * The bottom of lib/import: questions about the IR that the import's stages,
 * the rewrite and the lowering passes all ask (an op's name, where an op is
 * nested, a block's terminator, a loop's trip count, an argument attribute),
 * gathering ops before a pass changes them, and the few helpers that need
 * MLIR's C++ API (printing, diagnostics, memory effects).  Nothing here
 * knows the graph, the cost model or the import's context, and nothing here
 * calls another file of lib/import: every stage may include it.
 * Implemented by ir.c (plain C over the C API) and doors.cpp (C++).
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_IR_H
#define AUTOAC_IMPORT_IR_H

#include "autoac/support.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===------------------------------ names ---------------------------------===*/

/// The MlirStringRef of the NUL-terminated `s` (not copied).
static inline MlirStringRef acStr(const char *s) {
  return mlirStringRefCreateFromCString(s);
}
/// 1 if `r` is exactly the NUL-terminated `s`.
static inline int acStrRefEq(MlirStringRef r, const char *s) {
  size_t n = strlen(s);
  return r.length == n && memcmp(r.data, s, n) == 0;
}
/// 1 if `op` is named exactly `name` ("linalg.fill").
static inline int acOpIs(MlirOperation op, const char *name) {
  return acStrRefEq(mlirIdentifierStr(mlirOperationGetName(op)), name);
}
/// 1 if `op` is a tensor constant the lowering keeps as a global
/// (`memref.get_global`: no allocation): `arith.constant`,
/// `stablehlo.constant`, `tosa.const` (auto-ac-to-linalg makes it an
/// arith.constant) with one ranked tensor result.
static inline int acOpIsGlobalConstant(MlirOperation op) {
  return mlirOperationGetNumResults(op) == 1 &&
         (acOpIs(op, "arith.constant") || acOpIs(op, "stablehlo.constant") ||
          acOpIs(op, "tosa.const")) &&
         mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetResult(op, 0)));
}

/*===----------------------- structure (ir.c) ------------------------------===*/

/// Which ops acCollectOps keeps.
typedef int (*AcOpPredicate)(MlirOperation op);
/// Every op nested under `root` for which `keep` holds, in post order (an
/// op after the ops nested in it), into `*ops` (acFree it; NULL when none)
/// and `*n`: passes that change ops gather them first (a walk must not
/// erase what it walks).  AC_OK, or AC_ERR_NOMEM with `*ops` NULL, `*n` 0.
AcStatus acCollectOps(MlirOperation root, AcOpPredicate keep,
                      MlirOperation **ops, intptr_t *n);
/// The attribute `name` of argument `k` of function `fn` (its `arg_attrs`
/// dictionary), or a null attribute when it has none.
MlirAttribute acFuncArgAttr(MlirOperation fn, intptr_t k, const char *name);
/// Whether `p` is `op` or nested in one of its regions.
int acOpWithin(MlirOperation p, MlirOperation op);
/// The terminator of `block`: MLIR's, or for an unregistered one (not
/// known as a terminator) the block's last op when it has no results; null
/// when there is none.
MlirOperation acBlockTerminator(MlirBlock block);
/// An scf.for's trip count when its bounds and step are constants, else -1.
int64_t acForTrips(MlirOperation op);

/*===------------------ MLIR's C++ API (doors.cpp) --------------------------===*/

/// MlirStringCallback appending to the AcStrBuf passed as user data.
void acStrBufMlirCallback(MlirStringRef text, void *strbuf);
/// Prints `op` into `out` as mlir-opt prints it (the generic C API's
/// mlirOperationPrint writes token by token through an unbuffered stream:
/// this writes through a buffer).  `verified`: the caller has verified `op`,
/// so the printer does not verify it again (MLIR's printer verifies an op
/// before printing it unless told it is verified: a whole-module
/// verification).  0, or -1 when `out` ran out of memory.
int acPrintOp(MlirOperation op, int verified, AcStrBuf *out);
/// Emits a warning (severity 1) or a remark (2) at `loc` through the context's
/// diagnostic engine (the C API only has mlirEmitError).
void acEmitDiagnostic(MlirLocation loc, int severity, const char *message);
/// Side effects of a registered op: 1 if known free of memory effects
/// (recursively), 0 if it has effects, -1 if the op is unregistered.
int acOpMemoryEffectFree(MlirOperation op);
/// The values a registered op (its nested ops included) declares it writes
/// or frees (MLIR's MemoryEffectOpInterface): `written` is called once per
/// such effect with the value.  1 when every write names its value, 0 when
/// some write does not or the op's effects are unknown (no interface), -1
/// if the op is unregistered (nothing called).
int acOpWrittenValues(MlirOperation op, void (*written)(MlirValue, void *),
                      void *user);

#ifdef __cplusplus
}
#endif
#endif
