/*===- import/types.h - MLIR types as the graph sizes them (internal) -*- C -*-===*
 *
 * What a value's type holds for the planner (AcTensorType: rank, dims,
 * element bits; isTensor 0 for what costs nothing): builtin ranked tensors
 * (complex, float, integer and index elements), builtin tuples (the sum of
 * their parts, as one byte tensor), `!torch.vtensor` / `!torch.tensor`
 * (parsed by the cost model), and the torch aggregates, which only refer
 * to values.  Buffers (memref), unranked tensors and dialect types holding
 * tensors that cannot be sized are errors naming what the type is of.
 * Dynamic dimensions are read as AC_DIM_DYNAMIC and resolved at their
 * bounds by the symbols stage (acResolveDims, import/symbols.h).
 *
 * Invariant: MLIR uniques types, so a type is read (its torch text parsed)
 * once per import; a read that fails is not cached and fails again alike.
 * Calls only import/context.h, import/symbols.h and import/ir.h.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_TYPES_H
#define AUTOAC_IMPORT_TYPES_H

#include "import/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Whether `t` is `!torch.tensor<...>` (or bare `!torch.tensor`): a tensor
/// with reference semantics, which any op may write (`!torch.vtensor` is a
/// value).
int acIsTorchNonValueTensor(MlirType t);
/// Whether `t` is a torch aggregate holding tensors
/// (`!torch.list<vtensor<...>>`, `!torch.optional<vtensor>`,
/// `!torch.tuple<...>`): no size of its own; only the ops of
/// acMakesTorchReferenceAggregate may make one.
int acIsTorchTensorAggregate(MlirType t);
/// Whether op `name` makes an aggregate referring to values that exist
/// already (counted where they are made): torch.prim.ListConstruct,
/// torch.prim.TupleConstruct, torch.derefine.
int acMakesTorchReferenceAggregate(const char *name);
/// AC_ERR_INVALID for a type `t` holding tensors that the size model cannot
/// price, naming `what` it is of, the type, and `loc`.
AcStatus acUnsizable(AcImportCtx *c, MlirType t, MlirLocation loc, AcId op,
                     const char *what);
/// Reads type `t` into `out` through the context's cache (non-tensor types
/// cost nothing).  What the type is of, for messages, is `whatFmt` (a
/// format taking an int and a string) with `whatIndex` and `whatName`,
/// formatted only for a message; errors at `loc`, op id `op`.
AcStatus acReadType(AcImportCtx *c, MlirType t, AcTensorType *out,
                    MlirLocation loc, AcId op, const char *whatFmt,
                    int whatIndex, const char *whatName);
/// Gives the AC_DIM_DYNAMIC dimensions of `t` (the type of top-level value
/// `v` of the current function) their sizes at the bounds; the function's
/// dimensions are tied into symbols first (once per function, only when
/// one is met).
AcStatus acResolveDims(AcImportCtx *c, MlirValue v, AcTensorType *t);
/// acReadType of `v`'s type for a value nested in a region op: 1 when read,
/// 0 when not (no error: the context's error and location are put back).
int acReadTypeQuietly(AcImportCtx *c, MlirValue v, AcTensorType *t);
/// For a non-tensor operand `v` that is a torch.prim.ListConstruct of
/// torch.constant.int ops: its values into `t` (rank = the list's length,
/// dims = the values; isTensor stays 0, so it still costs nothing), for
/// the op workspaces that depend on them (acCostWorkspace); a
/// torch.constant.bool or torch.constant.int likewise as a list of one.
/// Anything else leaves `t` as it is.
void acReadConstIntList(MlirValue v, AcTensorType *t);

#ifdef __cplusplus
}
#endif
#endif
