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
/// rng=replay (docs/contract.md, "Randomness"): in every ac.joint function of
/// `module`, replaces each implicit random draw autoac can express (torch
/// bernoulli/uniform/normal/rand/randn/dropout, StableHLO rng) by a seed draw
/// (never recomputed) and an `autoac.rng.*` counter-based generator of the
/// seed (recomputable); warns once per random op name it keeps.  Runs before
/// the import.  `*numReplaced` (may be NULL) receives the count.  On error
/// (AC_ERR_INVALID: unregistered dialects not allowed; AC_ERR_NOMEM) the
/// module is unchanged.
AcStatus acRewriteRngReplay(MlirOperation module, intptr_t *numReplaced,
                            AcError *err);
/// Offloaded saves in the split halves (lib/rewrite/offload.c), placed where
/// the simulator placed them (AcSimResult.offloadDone/offloadIssue).  In the
/// body `fwd` of @f_fwd, return operand firstSavedResult + saved[j] becomes
/// the host buffer: allocated right after the value's definition
/// (`bufferization.alloc_tensor() {ac.offload}`) and filled after `done[j]`
/// (`bufferization.materialize_in_destination {ac.offload}`: the copy's
/// completion, the device value's last forward use).  In the body `bwd` of
/// @f_bwd, argument saved[j] is copied back into a buffer allocated before
/// `issue[j]` and the recomputation right before it (`{ac.prefetch}`), the
/// copy completing right before the argument's first use.  A null done[j] /
/// issue[j] (or a dynamic shape) places the copy at the definition / first
/// use.  Torch value tensors are copied by `torch.aten._to_copy` to "cpu"
/// (pinned, non-blocking) after the definition and back to `device`
/// ("cuda", or "cpu" on a CPU profile) at `issue[j]`.  Called by
/// acRewriteSplit after it commits; AC_ERR_INTERNAL when an op cannot be
/// made.
AcStatus acRewriteOffloadHalves(MlirContext ctx, MlirBlock fwd, MlirBlock bwd,
                                intptr_t firstSavedResult,
                                const intptr_t *saved, const MlirOperation *done,
                                const MlirOperation *issue, intptr_t n,
                                const char *device, AcError *err);
/// Whether the rewrite can copy a value of type `t` to host memory: a
/// ranked builtin tensor or a torch value tensor (`!torch.vtensor<...>`).
int acRewriteCanOffloadType(MlirType t);
/// AC_ERR_INVALID unless the bufferization dialect can be loaded into `ctx`
/// (the copies of acRewriteOffloadHalves are its ops); loads it.
AcStatus acRewriteOffloadReady(MlirContext ctx, AcError *err);
/// Marks ops in annotate mode; the import stays valid.
AcStatus acRewriteAnnotate(AcImport *imp, const AcPlan *plan, AcError *err);

#ifdef __cplusplus
}
#endif
#endif
