/*===- pass/buckets.h - one plan per size bucket -------------------*- C -*-===*
 *
 * The option `buckets` (docs/contract.md, "Size buckets"): the joint
 * function is planned once per bucket of one dynamic argument dimension,
 * each plan made with the dimension bounded by its bucket's upper size, and
 * `@f` becomes a dispatch on the dimension (an `scf.index_switch` calling
 * bucket k's forward and backward).
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

/// Parses `text` into `*out`: AC_OK, or AC_ERR_INVALID naming what is wrong
/// (no `argI.D:`, a bound that is no integer >= 1, bounds not strictly
/// increasing), `*out` then empty; AC_ERR_NOMEM.
AcStatus acBucketSpecParse(const char *text, AcBucketSpec *out, AcError *err);
/// Frees the bounds; the spec is empty afterwards.
void acBucketSpecClear(AcBucketSpec *s);
/// acRunOnModuleStaged with `opts->buckets` set: checks the dimension,
/// plans and rewrites a copy of the module per bucket, then moves the
/// buckets' halves into `module` and makes its joint function a dispatch.
/// Errors are emitted as diagnostics; on error `module` is unchanged.
AcStatus acRunBuckets(MlirOperation module, const AcOptions *opts,
                      char **reportOut, AcFileSet *files);

#ifdef __cplusplus
}
#endif
#endif
