/*===- import/dps.h - destination-style writes (internal) ----------*- C -*-===*
 *
 * Which storage a result is written into in place: one-shot bufferization
 * gives a destination-style writer's result its init's buffer when nothing
 * reads that storage afterwards, and copies the storage first otherwise.
 * These rules name the init (a linalg op with one `outs`, the dest of
 * `tensor.insert_slice` / `tensor.insert`, a loop's iter_arg init, the value
 * both branches of an `scf.if` write into) and say when the writer reads
 * it again itself.  The import sets the graph's dpsInit and initAlsoRead
 * from them, the region bodies (import/bodies.h) follow them, and the
 * lowering's auto-ac-copy-before-write (lib/lower/writecopy.c) makes the
 * program agree.
 *
 * Plain questions about the IR: nothing here changes it or knows the graph;
 * only import/ir.h and import/layout.h (view ops) are called.  Invariant:
 * a non-null init is one that bufferization writes the result into when
 * the storage is not read later (never a value it would copy anyway).
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_DPS_H
#define AUTOAC_IMPORT_DPS_H

#include "mlir-c/IR.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The init of result `k` of `op` whose storage the result is written into
/// (linalg op with one init, tensor.insert/insert_slice, scf.for / scf.while
/// / scf.if through in-place chains), or a null value.  `depth`: region ops
/// already followed (0 at the top; deeper than 16 is not followed).
MlirValue acDpsResultInit(MlirOperation op, intptr_t k, int depth);

/// Whether the lowering (auto-ac-copy-before-write) copies `passed`, an
/// operand of the terminator of a block of `loop` (`scf.for`'s yield,
/// `scf.while`'s condition or yield), into `arg`, the block argument it is
/// passed on to: when its in-place chain (acDpsResultInit, then views)
/// ends at a tensor made in the block by an op without regions or at a
/// value from outside the loop (a `tensor.empty` `cse` hoisted, a saved
/// one the backward writes into).  0 where it reaches `arg` (in place
/// already) or ends at another argument of the loop or a region op's
/// result (which may be `arg` itself: left to bufferization).
int acLoopCopiesPassed(MlirOperation loop, MlirValue passed, MlirValue arg,
                       int depth);

/// Whether `op` reads its init `init` (a direct operand: not an scf.if's
/// captured one) again: as a second direct operand, or captured by an op of
/// a nested region.  Bufferization then copies the init rather than write
/// into it (graph initAlsoRead).
int acDpsInitAlsoRead(MlirOperation op, MlirValue init);

/// The operand number of the init of `op`, a destination-style writer
/// (graph dpsInit): the dest of `tensor.insert_slice` and `tensor.insert`,
/// the iter_arg init of a one-result `scf.for` or `scf.while`, -1 for an
/// `scf.if` (its init is captured by its branches), else the last operand
/// (a linalg op's one `outs`).
intptr_t acDpsInitOperand(MlirOperation op);

#ifdef __cplusplus
}
#endif
#endif
