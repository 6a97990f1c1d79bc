/*===- import/branches.h - branches decided at compile time (internal) -*- C -*-===*
 *
 * An `scf.if` whose condition, or an `scf.index_switch` whose selector, is a
 * constant (an `arith.constant`, or an `arith.cmpi` of two) is folded away
 * by the canonicalization in auto-ac-lower-cpu/gpu: only the taken branch
 * runs, and its results are the values that branch yields, with no buffer
 * of their own.  The import folds those ops the same way before it builds
 * the graph (docs/fidelity.md, cause 8), so that the simulator counts what
 * the compiled program allocates rather than the larger of the branches.
 * Invariant after acFoldConstantBranches: no op under `func` is an scf.if or
 * scf.index_switch whose branch is known at compile time by these rules.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_BRANCHES_H
#define AUTOAC_IMPORT_BRANCHES_H

#include "mlir-c/IR.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The region index an scf.if (0: then, 1: else) or scf.index_switch (0:
/// default, 1 + i: case i) takes when its condition or selector is a
/// compile-time constant and that region can be folded (its block ends in
/// a terminator yielding one value per result of `op`); -1 otherwise (not
/// known, or `op` is neither).
intptr_t acConstantBranch(MlirOperation op);

/// Folds every scf.if / scf.index_switch under `func` whose branch
/// acConstantBranch knows: the taken region's ops move before the op, its
/// results are replaced by the values the region yields, and the op (with
/// the branches not taken) is erased.  Also, as canonicalization does, an
/// scf.if result that both branches yield alike (one value defined before
/// the op) is replaced by that value, and an scf.if left unread with empty
/// branches is erased.  Returns the number folded, or -1 on
/// allocation failure (the ops folded so far stay folded: every step leaves
/// a valid module).
intptr_t acFoldConstantBranches(MlirOperation func);

/// Whether an scf.if or scf.index_switch under `func` (decided at run time,
/// after acFoldConstantBranches) yields a tensor result from one region as
/// a value defined outside it (or a view of one: no buffer of its own) and
/// from another as a value made inside it: the planner counts the result's
/// buffer, which the program allocates only when the second region runs, so
/// its peak is then at most the planned one.  The first such op into `*at`
/// (may be NULL).
int acRuntimeBranchAllocates(MlirOperation func, MlirOperation *at);

#ifdef __cplusplus
}
#endif

#endif /* AUTOAC_IMPORT_BRANCHES_H */
