/*===- pass/pass.h - the single-plan pass body ---------------------*- C -*-===*
 *
 * lib/pass's arrows run one way: the entry points (entry.c: acRunOnModule,
 * acRunOnModuleWithReport, acRunOnModuleStaged) choose between the option
 * `buckets` (buckets.c, one plan per size bucket) and one plan; buckets.c
 * calls the body below once per bucket; the body (pass.c) knows nothing of
 * buckets.  The sweep (sweep.c) and the one-call API (api.c) sit beside the
 * entry points: the sweep imports through acImportForOptions, the API calls
 * acRunOnModuleStaged.  dynamic.c is below the body; options.c is read by
 * all and reads only the bucket parser.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_PASS_PASS_H
#define AUTOAC_PASS_PASS_H

#include "autoac/autoac.h"

#ifdef __cplusplus
extern "C" {
#endif

/// acRunOnModuleStaged without buckets (`opts->buckets` must be NULL):
/// imports `module`, plans and simulates every ac.joint function, builds the
/// report (into `*reportOut` when not NULL) and plan file, rewrites the
/// module (split or annotate) and stages the files named by the options in
/// `files`.  Errors and warnings are emitted as diagnostics.
AcStatus acRunSinglePlan(MlirOperation module, const AcOptions *opts,
                         char **reportOut, AcFileSet *files);

#ifdef __cplusplus
}
#endif
#endif
