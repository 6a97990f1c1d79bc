/*===- import/tosa.h - what the TOSA lowering allocates (internal) -*- C -*-===*
 *
 * auto-ac-lower-cpu/-gpu convert TOSA with upstream's tosa-to-linalg
 * passes.  Most TOSA ops become one linalg op writing into a fresh
 * `tensor.empty` (the result the graph counts), but some make buffers of
 * their own that die with the op: a padded copy of a convolution's or a
 * pooling's input, a transposed conv3d kernel, a pooling's window tensor,
 * an accumulator.  acTosaWorkspace gives those bytes (the op's workspace)
 * and says which ops the import does not follow exactly.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_TOSA_H
#define AUTOAC_IMPORT_TOSA_H

#include "import/bodies.h"

#include "mlir-c/IR.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The bytes the lowering of `op` (a `tosa.*` op of static shapes) makes
/// and frees while it runs, beyond its results; 0 for other ops.  Records
/// in `note` when the count is not exact: `tosa.slice` is a view in the
/// program (the graph counts a copy: "at most"); an op whose lowering is
/// not followed (not in the list of docs/contract.md, "TOSA"), or a
/// convolution or pooling of integer elements (the quantized lowering):
/// "not guaranteed".
int64_t acTosaWorkspace(MlirOperation op, AcBodyNote *note);

#ifdef __cplusplus
}
#endif
#endif
