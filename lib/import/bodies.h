/*===- import/bodies.h - what region bodies allocate while they run -*- C -*-===*
 *
 * The graph has one op per top-level op of a joint function: an op with
 * regions (`scf.for`, `scf.while`, `scf.if`, `scf.index_switch`, a torch or
 * StableHLO loop) is one node, and what its nested ops read from the
 * function body are its operands.  The tensors its bodies make and free
 * while it runs (a loop body's temporaries) are bytes live at its step only,
 * on top of its operands and results: its workspace (AcOp.workspace).
 *
 * acBodyWorkspace counts them as the program auto-ac-lower-cpu compiles
 * allocates them (one-shot bufferization, every buffer freed right after its
 * last use), one block at a time, in program order:
 *  - storages from above, 0 B here (the graph counts them): the block's
 *    tensor arguments (iter_args) and, in a branch of an `scf.if` /
 *    `scf.index_switch`, the value the op's result is written into in place
 *    (acDpsResultInit); a write may go into these in place;
 *  - a view (the cost model's `isView`) or an in-place op (`relu_`) shares
 *    its operand's storage; a tensor constant is a global (no storage);
 *  - a destination-style writer (a linalg op with one init, `tensor.insert`
 *    / `insert_slice`, `bufferization.materialize_in_destination`, a nested
 *    region op whose result is its init's: acDpsResultInit) writes into its
 *    init's storage when that storage is the block's own or one from above
 *    and no later op of the block reads it (nor the writer itself, through
 *    another operand, unless it is an elementwise linalg op: parallel
 *    loops, identity maps); reads are one-shot bufferization's (a linalg
 *    init is read only when the payload uses it); else it writes into a
 *    new storage (bufferization's copy), as a write into a value from
 *    outside the region does;
 *  - anything else making a tensor (`tensor.empty`, an op's result) makes
 *    a new storage of its type's bytes;
 *  - a storage lives from its op to the last op of the block reading it (a
 *    read by a nested op counts at its top op; what the block yields lives
 *    to its end); a nested region op adds its own workspace at its step.
 * A block's workspace is its peak minus the storages it yields (they are
 * the op's results, which the graph counts), except in a loop
 * (`scf.for`, `scf.while`): a storage its terminator passes on that the
 * block made is copied into the iteration argument before it
 * (auto-ac-copy-before-write), so it is a temporary; the op's is the
 * largest of its blocks'.
 *
 * Invariant: the answer is never below what the compiled program allocates
 * inside the op under these rules; where it may be above (a branch or a
 * trip count decided at run time, a write into a value from outside the
 * region) the note says "at most", and where the rules cannot size what a
 * body makes (a tensor of dynamic shape, a region of several blocks,
 * regions nested deeper than AC_BODY_DEPTH) it says "not guaranteed".
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_BODIES_H
#define AUTOAC_IMPORT_BODIES_H

#include "import/dps.h" /* acDpsResultInit, which the rules follow (and its
                            users here, lib/lower/writecopy.c, read) */
#include "mlir-c/IR.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Region ops nested deeper than this are not followed.
#define AC_BODY_DEPTH 16

/// How exact acBodyWorkspace's answers are, from best to worst.
typedef enum AcBodyExactness {
  AC_BODY_EXACT = 0,   ///< what the compiled program allocates
  AC_BODY_AT_MOST,     ///< an upper bound: the program may allocate less
  AC_BODY_UNKNOWN      ///< the program may allocate more than counted
} AcBodyExactness;

/// The worst exactness seen over every call, and why (the first op at it).
typedef struct AcBodyNote {
  int level;           ///< AcBodyExactness
  MlirOperation at;    ///< the op the reason is about (null when EXACT)
  char why[320];       ///< "" when EXACT
} AcBodyNote;

/// What the caller knows about values and ops (the import's types and cost
/// model).
typedef struct AcBodyHooks {
  void *user;
  /// Bytes a value of static tensor type holds; 0 for a value that is no
  /// tensor; -1 when it cannot be sized (a dynamic dimension).
  int64_t (*valueBytes)(void *user, MlirValue v);
  /// The direct operand whose storage result 0 of `op` shares without a
  /// write of its own (a view, or an op writing that operand in place and
  /// returning it), or -1.
  intptr_t (*aliasOperand)(void *user, MlirOperation op);
} AcBodyHooks;

/// The bytes the regions of `op` (an op of a joint function's body) make
/// and free while it runs, beyond its results (see above); 0 for an op
/// without regions or whose regions make nothing beyond what they yield.
/// Updates `note` when the answer is not exact.  -1 when out of memory.
int64_t acBodyWorkspace(MlirOperation op, const AcBodyHooks *hooks,
                        AcBodyNote *note);

/// Records in `note` the reason `why` (a printf format with one %s, the
/// name of `at`, then one %lld, `x`) when `level` is worse than the note's.
void acBodyNoteAt(AcBodyNote *note, int level, MlirOperation at,
                  const char *why, long long x);

#ifdef __cplusplus
}
#endif
#endif
