/*===- import/layout.h - buffer layouts of tensor views (internal) -*- C -*-===*
 *
 * What one-shot bufferization (identity-layout function boundaries, the way
 * auto-ac-lower-cpu runs it) makes of a chain of tensor views: the strided
 * layout of the buffer each value bufferizes to, from the static offsets,
 * sizes and strides of the chain.  Two decisions follow from it
 * (docs/fidelity.md, cause 6):
 *  - a reshaping view of a buffer whose layout does not allow it is a new
 *    allocation and a copy (a `tensor.collapse_shape` whose groups are not
 *    contiguous, as memref.collapse_shape's strict check says; a
 *    `tensor.reshape` of a non-identity layout);
 *  - a view returned by a function (identity-layout results) whose layout
 *    is not cast-compatible with the identity layout (offset 0, row-major
 *    strides) is copied into a new buffer at the boundary.
 * The import counts both as copies, and the lowering's
 * `auto-ac-copy-returned-views` makes the second a copy right at the view
 * (lib/lower/viewcopy.c), so the program and the plan agree.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_LAYOUT_H
#define AUTOAC_IMPORT_LAYOUT_H

#include "mlir-c/IR.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Ranks above this are not followed (the layout is unknown).
#define AC_LAYOUT_MAX_RANK 16

/// The layout of the buffer a static ranked tensor value bufferizes to.
typedef struct AcLayout {
  int known;     ///< 0: not static, too deep or too high a rank (no decision)
  int identity;  ///< the memref type's layout is the identity map
  int dynamic;   ///< strides and offset unknown until run time (a fully
                 ///< dynamic layout: what an scf.if result bufferizes to)
  int rank;
  int64_t offset;
  int64_t shape[AC_LAYOUT_MAX_RANK];
  int64_t strides[AC_LAYOUT_MAX_RANK];
} AcLayout;

/// What bufferizing a view op does (acLayoutStep).
typedef enum AcLayoutKind {
  AC_LAYOUT_OTHER = 0, ///< not a view op the model follows: a fresh buffer
  AC_LAYOUT_VIEW,      ///< a view: `out` is its layout
  AC_LAYOUT_COPY       ///< a reshape the source's layout does not allow:
                       ///< a new identity buffer and a copy
} AcLayoutKind;

/// The layout of `v` (an op result or block argument): followed back
/// through at most 64 view ops to a value that owns an identity buffer (an
/// op result that is no view, a block argument; an `scf.if` or
/// `scf.index_switch` result has a fully dynamic layout) or to a view that leaves
/// its function (returned by `ret`, which may be null, or marked
/// `ac.save`): auto-ac-copy-returned-views copies such a view and its
/// readers read the copy.  `fromCopy`: `v` itself counts as such a view
/// when it leaves (0: the layout of a returned value itself).  out->known
/// is 0 for a value that is not a static ranked tensor, or when the chain
/// is too long or not static.
void acLayoutOfValue(MlirValue v, MlirOperation ret, int fromCopy, AcLayout *out);

/// What op `op`, whose operand 0 has layout `src`, makes of its result 0:
/// tensor.extract_slice, tensor.expand_shape, tensor.collapse_shape,
/// tensor.cast, tensor.bitcast and tensor.reshape are followed; anything
/// else is AC_LAYOUT_OTHER (out: the identity layout of the result).
AcLayoutKind acLayoutStep(MlirOperation op, const AcLayout *src, AcLayout *out);

/// Whether every branch of `op` (an scf.if or scf.index_switch, one block
/// per region) yields as result `k` (a static ranked tensor) the end of an
/// in-place chain of destination-style writers of that block (linalg
/// `outs`, insert dests) starting at a `tensor.empty` of the block of the
/// result's type, each init read by its writer alone.  Then
/// auto-ac-copy-before-write replaces those empties by one made before
/// `op`, so the result is a buffer made outside, of the identity layout.
/// `empties` (may be NULL; room for `cap`) receives each region's empty.
int acLayoutBranchEmpties(MlirOperation op, intptr_t k, MlirOperation *empties,
                          intptr_t cap);

/// The value region `r` (0: then, 1: else) of scf.if `op` yields as result
/// `j`; null when `op` is no two-region scf.if or that region's block does
/// not end in a terminator yielding one value per result.
MlirValue acLayoutIfYield(MlirOperation op, intptr_t r, intptr_t j);

/// The op making init `v` of destination-style writer `o` when that init is
/// shared: a `tensor.empty`, or a `linalg.fill` of one, that another op
/// also reads (after `cse`); a null op otherwise.  The import gives each
/// such writer its own copy of the maker (docs/contract.md, "Shared inits"),
/// and auto-ac-copy-before-write does the same before bufferizing.
MlirOperation acLayoutSharedInitMaker(MlirOperation o, MlirValue v);

/// Whether `op` is a view op the layouts follow (tensor.extract_slice,
/// expand_shape, collapse_shape, cast, bitcast, reshape).
int acLayoutIsView(MlirOperation op);

/// Whether op result `v` leaves its function: returned by `ret` (may be
/// null), or its op marked `ac.save` (a unit or true attribute: `@f_fwd`
/// returns it to `@f_bwd`).
int acLayoutLeaves(MlirValue v, MlirOperation ret);

/// Whether a known layout can be returned through an identity-layout
/// function result without a copy (upstream castOrReallocMemRefValue: a
/// memref.cast is enough when offset and strides equal the identity's);
/// 1 for an unknown layout (no decision).
int acLayoutReturnsWithoutCopy(const AcLayout *l);

#ifdef __cplusplus
}
#endif

#endif
