/*===- import/normalize.h - the import's normalisations of the IR (internal) -*- C -*-===*
 *
 * After a first import, two changes to the IR that make the plan's counts
 * the compiled program's, and no worse:
 *  - backward views, constants and pure tangent-independent ops that free
 *    at least what they hold are sunk right before their first user
 *    (acSinkBackwardAliases: AOT autograd's `detach` chains at the start of
 *    the backward would otherwise pin forward values early);
 *  - shared inits are given one per writer (acUnshareInits;
 *    docs/contract.md, "Shared inits").
 * A move keeps every op and value, so the first import is put in the new
 * order in place (acImportApplyOrder, acGraphReorderOps) rather than read
 * again; copies are new ops, and import.c imports the module again.
 * test/reliability/test_import_order.c checks the in-place reorder against
 * a real import of the moved IR.
 *
 * Invariant: every op still comes after what it reads.  Calls the stages
 * below it (unknown, dps, layout, context, ir) and the graph, never
 * import.c.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_NORMALIZE_H
#define AUTOAC_IMPORT_NORMALIZE_H

#include "import/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Moves the sinkable backward ops of `imp`'s IR right before their first
/// users (a chain of them sinks together).  When any moves, `*placeOut`
/// (acFree it) receives per graph op the op it now stands right before
/// (itself when it stayed).  Returns how many ops moved, or -1 when out of
/// memory.
intptr_t acSinkBackwardAliases(const AcImport *imp, AcId **placeOut);
/// Gives every destination-style writer of `imp` whose init is a shared
/// `tensor.empty` (or a `linalg.fill` of one) its own copy of that maker,
/// right before it, and erases the makers left unused.  `cloneOf` receives
/// each copy's result -> the value id of the result it copies.  Returns the
/// number of copies made, or -1 when out of memory.
intptr_t acUnshareInits(const AcImport *imp, AcPtrMap *cloneOf);
/// Puts `imp` (the import the moves were made on) in the order
/// acSinkBackwardAliases left the IR in (`place`), in place: the graph,
/// the mapping, `unknown` (per op, permuted) and value names follow, and
/// the unknown-op list is made again.  AC_OK, or AC_ERR_NOMEM with `err`
/// (and `*errLoc`, when not NULL) filled.
AcStatus acImportApplyOrder(AcImport *imp, const AcId *place, uint8_t *unknown,
                            AcError *err, MlirLocation *errLoc);

#ifdef __cplusplus
}
#endif
#endif
