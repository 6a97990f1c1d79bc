/*===- import/symbols.h - dynamic dimensions tied into shape symbols -*- C -*-===*
 *
 * A joint function with dynamic dimensions (`tensor<?x512xf32>`,
 * `!torch.vtensor<[?,512],f32>`) is planned at the bounds of its dimensions
 * (docs/contract.md, "Dynamic dimensions").  This module ties every dynamic
 * dimension of the function's top-level values into classes (union-find):
 * a dimension of a function argument; a `tensor.dim` / `torch.aten.size.int`
 * of one value feeding the size operand of another (`tensor.empty`,
 * `tensor.splat`, `tensor.generate`, a torch size list); the shape rules of
 * linalg structured ops (their indexing maps: one loop dimension is one
 * size), elementwise `arith`/`math` ops on tensors, `tensor.cast`, inserts
 * (result = dest), `tensor.extract_slice` sizes, and torch's elementwise,
 * matmul-family, transpose and reshape ops.  A class holding a static size
 * is that size; every other class is a symbol, named after the first
 * argument dimension in it (`argI.D`: argument I, dimension D; with several
 * joint functions `FUNC:argI.D`) or, tied to none, after the first value
 * (`%5.1`).  Its bound is the least of those given: the argument attribute
 * `ac.max_shape = array<i64: ...>` (one entry per dimension, -1: none),
 * the option `max-dim` entries `argI.D=N` / `FUNC:argI.D=N`, and else the
 * option's `N` for every dimension without one.  A symbol without a bound
 * is an error naming the first value (in program order) with such a
 * dimension.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_SYMBOLS_H
#define AUTOAC_IMPORT_SYMBOLS_H

#include "autoac/cost.h"
#include "graph/poly.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The symbols of one import: every joint function's classes and bounds.
typedef struct AcSymbols AcSymbols;

/// Checks the text of the option `max-dim` (comma-separated entries `N` or
/// `NAME=N`, NAME `argI.D` or `FUNC:argI.D`, N an integer >= 1): AC_OK or
/// AC_ERR_INVALID quoting the bad entry.
AcStatus acMaxDimCheck(const char *spec, AcError *err);
/// Creates the symbols of an import with the option's text `spec` (NULL:
/// none; checked by acMaxDimCheck) for a module of `numJoint` joint
/// functions (names are qualified when there are several).  NULL when out
/// of memory.
AcSymbols *acSymbolsCreate(const char *spec, intptr_t numJoint);
/// Frees; NULL is accepted.
void acSymbolsDestroy(AcSymbols *s);
/// Ties the dynamic dimensions of joint function `func` (named `name`) and
/// bounds them; once per function (a second call does nothing).  An
/// unbounded symbol, or a bad `ac.max_shape`, is AC_ERR_INVALID naming the
/// value and its dimension, with the location in `*errLoc`.
AcStatus acSymbolsAnalyzeFunc(AcSymbols *s, MlirOperation func,
                              const char *name, AcError *err,
                              MlirLocation *errLoc);
/// Replaces the AC_DIM_DYNAMIC dimensions of `t` (the type of top-level
/// value `v` of an analysed function) by their classes' sizes at the
/// bounds.  AC_ERR_INTERNAL when `v` was not analysed.
AcStatus acSymbolsResolve(const AcSymbols *s, MlirValue v, AcTensorType *t,
                          AcError *err);
/// Value `v`'s bytes as a polynomial in the symbols into `*out` (cleared
/// first); 0 when it holds no dynamic dimension of a symbol (its bytes are
/// then the graph's), 1 when it does, -1 when out of memory.
int acSymbolsValueBytes(const AcSymbols *s, MlirValue v, AcPoly *out);
/// Number of symbols so far (0 for a NULL `s`).
intptr_t acSymbolsCount(const AcSymbols *s);
/// Symbol i's name ("arg0.1", "f:arg0.1", "%5.1"; owned by `s`).
const char *acSymbolName(const AcSymbols *s, intptr_t i);
/// Symbol i's bound (the least of those given).
int64_t acSymbolBound(const AcSymbols *s, intptr_t i);
/// Symbol i's argument dimensions, comma-separated ("arg0.0,arg3.0"; ""
/// for a symbol of no argument; a very long list is cut).
const char *acSymbolArgs(const AcSymbols *s, intptr_t i);
/// The names of the symbols, [acSymbolsCount] (owned by `s`).
const char *const *acSymbolNames(const AcSymbols *s);
/// After every function is analysed: a named `max-dim` entry that matched
/// no dynamic argument dimension is AC_ERR_INVALID naming it.
AcStatus acSymbolsCheckUsed(const AcSymbols *s, AcError *err);

#ifdef __cplusplus
}
#endif
#endif
