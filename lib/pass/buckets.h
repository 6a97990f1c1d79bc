/*===- pass/buckets.h - one plan per size bucket -------------------*- C -*-===*
 *
 * The option `buckets` (docs/contract.md, "Size buckets"): the joint
 * function is planned once per bucket of one dynamic argument dimension, or
 * per cell of the grid of several dimensions' buckets (`;` between them),
 * each plan made with every bucketed dimension bounded by its bucket's
 * upper size, and `@f` becomes a dispatch on the dimensions (an
 * `scf.index_switch` calling bucket k's forward and backward).
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_PASS_BUCKETS_H
#define AUTOAC_PASS_BUCKETS_H

#include "autoac/autoac.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The option's value `argI.D:B1,...,Bn`, parsed.
typedef struct AcBucketSpec {
  int arg, dim;     ///< the argument dimension (argI.D)
  intptr_t n;       ///< number of bounds
  int64_t *bounds;  ///< [n], strictly increasing, each >= 1 (acFree'd by Clear)
} AcBucketSpec;

/// Dimensions bucketed at most (`;`-separated specs).
#define AC_BUCKET_MAX_DIMS 8
/// Buckets (grid cells) at most: each is a plan of its own.
#define AC_BUCKET_MAX_CELLS 256

/// Parses `text`, one spec `argI.D:B1,...,Bn` or several separated by `;`,
/// into `out[0..*n)` (room for AC_BUCKET_MAX_DIMS): AC_OK, or AC_ERR_INVALID
/// naming what is wrong (no `argI.D:`, a bound that is no integer >= 1,
/// bounds not strictly increasing, a dimension named twice, too many
/// dimensions), `*n` then 0; AC_ERR_NOMEM.
AcStatus acBucketSpecParse(const char *text, AcBucketSpec *out, intptr_t *n,
                           AcError *err);
/// Frees the bounds of `out[0..n)`; the specs are empty afterwards.
void acBucketSpecClear(AcBucketSpec *out, intptr_t n);
/// acRunOnModuleStaged with `opts->buckets` set (entry.c): checks the
/// dimension, plans and rewrites a copy of the module per bucket (the pass
/// body, acRunSinglePlan, on each), then moves the buckets' halves into
/// `module` and makes its joint function a dispatch.
/// Errors are emitted as diagnostics; on error `module` is unchanged.
AcStatus acRunBuckets(MlirOperation module, const AcOptions *opts,
                      char **reportOut, AcFileSet *files);

#ifdef __cplusplus
}
#endif
#endif
