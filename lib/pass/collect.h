/*===- pass/collect.h - what the lowering passes share (internal) --*- C -*-===*
 *
 * Passes that replace ops collect them first and rewrite after the walk
 * (a walk must not erase what it walks).  The list is owned by the caller.
 * And the one builder they share: a dynamic size read with tensor.dim.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_PASS_COLLECT_H
#define AUTOAC_PASS_COLLECT_H

#include "autoac/support.h"

#include "mlir-c/IR.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Which ops acCollectOps keeps.
typedef int (*AcOpPredicate)(MlirOperation op);

/// Every op nested under `root` for which `keep` holds, in post order (an
/// op after the ops nested in it), into `*ops` (acFree it; NULL when none)
/// and `*n`.  AC_OK, or AC_ERR_NOMEM with `*ops` NULL and `*n` 0.
AcStatus acCollectOps(MlirOperation root, AcOpPredicate keep,
                      MlirOperation **ops, intptr_t *n);

/// `tensor.dim %src, %cD` (with its `arith.constant D : index`) inserted
/// before `at`, at `at`'s location; its result.
MlirValue acDimBefore(MlirOperation at, MlirValue src, intptr_t d);

#ifdef __cplusplus
}
#endif
#endif
