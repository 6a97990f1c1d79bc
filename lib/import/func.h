/*===- import/func.h - one joint function into the graph (internal) -*- C -*-===*
 *
 * The function stage: walks one ac.joint function's single block and adds
 * it to the graph being built (c->b) and to the mapping back to the IR
 * (c->imp): its arguments with their roles (ac.param, ac.tangent), every
 * top-level op in block order as one graph op (operands: the direct ones,
 * then the function-body values its nested regions capture, each once;
 * results sized from their types; costs from import/opcost.h; ac.save,
 * ac.recompute and ac.phase; destination-style inits, import/dps.h; the
 * values it writes), then its returns (ac.output or gradients).
 *
 * Invariants: a graph op's id follows its op's place in the block, and its
 * results' value ids follow in result order (what normalize.c's in-place
 * reorder relies on); an error stops at the first op that has one, with
 * the context's error filled.  Calls the stages below it (opcost, types,
 * dps, bodies, context, ir), never import.c.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_FUNC_H
#define AUTOAC_IMPORT_FUNC_H

#include "import/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Imports joint function `func` (named `name`, checked by acCopyName)
/// into c->b and c->imp: sizes every per-op and per-value array for it at
/// once, then adds its arguments, ops and returns (see above).  AC_OK, or
/// the status of the first error with c->err (and *c->errLoc) filled.
AcStatus acImportFunc(AcImportCtx *c, MlirOperation func, const char *name);

#ifdef __cplusplus
}
#endif
#endif
