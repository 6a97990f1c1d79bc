/*===- rewrite/rewrite.h - plan -> MLIR ----------------------------*- C -*-===*
 *
 * split: each joint @f becomes @f_fwd (primal inputs in; forward outputs then
 * saved activations out), @f_bwd (saved activations, tangents and the primal
 * inputs it reads in; gradients out; each recompute group cloned into an
 * scf.execute_region marked ac.recompute right before its anchor op), and
 * @f itself calling both, signature unchanged.
 * annotate: ops are only marked (ac.saved on ops with saved results as a
 * result-index array, ac.recomputed on ops the backward reruns).
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_REWRITE_H
#define AUTOAC_REWRITE_H

#include "import/import.h"
#include "autoac/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Rewrites every joint function of the import in split mode.  `plan` must be
/// derived and `groups` built from it.  The import is invalid afterwards.
AcStatus acRewriteSplit(AcImport *imp, const AcPlan *plan,
                        const AcRecomputeGroups *groups, AcError *err);
/// Marks ops in annotate mode; the import stays valid.
AcStatus acRewriteAnnotate(AcImport *imp, const AcPlan *plan, AcError *err);

#ifdef __cplusplus
}
#endif
#endif
