/*===- lower/collect.h - what the lowering passes share (internal) --*- C -*-===*
 *
 * The builders the lowering passes share: a dynamic size read with
 * tensor.dim, a copy into a destination.  (The ops a pass rewrites are gathered by acCollectOps,
 * import/import.h.)
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_LOWER_COLLECT_H
#define AUTOAC_LOWER_COLLECT_H

#include "autoac/support.h"
#include "import/import.h"

#include "mlir-c/IR.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// `tensor.dim %src, %cD` (with its `arith.constant D : index`) inserted
/// before `at`, at `at`'s location; its result.
MlirValue acDimBefore(MlirOperation at, MlirValue src, intptr_t d);

/// `bufferization.materialize_in_destination %src in %dest` at `loc`, not
/// inserted (the caller owns it until it inserts it); its result has
/// `dest`'s type.
MlirOperation acMaterializeCreate(MlirLocation loc, MlirValue src, MlirValue dest);

#ifdef __cplusplus
}
#endif
#endif
