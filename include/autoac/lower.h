/*===- autoac/lower.h - the lowering half: frees at last use, pipelines -*- C -*-===*
 *
 * The planner's peak holds in the compiled program only if every buffer is
 * freed right after its last use.  `buffer-deallocation-pipeline` frees at
 * the end of the block, and a function never frees a buffer it receives.
 * acFreeAtLastUse (the `auto-ac-free-at-last-use` pass) fixes both on
 * bufferized IR; acLowerPipeline spells the named pipelines
 * `auto-ac-lower-cpu` and `auto-ac-lower-gpu` (docs/rewrite.md, "Lowering").
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_LOWER_H
#define AUTOAC_LOWER_H

#include "autoac/support.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What acFreeAtLastUse changed.
typedef struct AcFreeStats {
  intptr_t movedFrees;  ///< frees moved up to right after their buffer's last use
  intptr_t ownedFrees;  ///< frees inserted for `ac.owned` arguments
  intptr_t transferred; ///< caller frees removed because a call took ownership
  intptr_t demoted;     ///< ac.owned arguments set to false (storage shared)
  intptr_t joined;      ///< ac.owned arguments freed with another of their
                        ///< call's (`ac.owned_with`: one storage, one free)
  intptr_t aliasChecked; ///< functions warned about: they free buffers behind
                         ///< the pipeline's run-time alias check, at their end
} AcFreeStats;

/// Runs on a builtin.module after `one-shot-bufferize` and
/// `buffer-deallocation-pipeline`, in every func.func with a body:
///  1. a call to a function whose argument k carries `ac.owned` gives the
///     buffer to the callee: the caller's frees of it (and of its aliases)
///     after the call are removed; it is an error if the caller still reads
///     it after the call or frees nothing of it (it did not own it).  When
///     the buffer comes from a call whose callee may return its storage
///     twice, the other results sharing it must go to `ac.owned` arguments
///     of the same call: those arguments are one group (a saved value and
///     a view of it), freed once by the callee, and the others are marked
///     `ac.owned_with = <the group's least argument>`; otherwise (an
///     argument's storage, a result kept by the caller, a callee without a
///     body) ownership cannot move: the argument and its group become
///     `ac.owned = false` and every caller keeps freeing them;
///  2. an `ac.owned` memref argument (a group: its least) is freed
///     (`memref.dealloc`) right after the last use of it or of any alias (of
///     any member); an error if an alias is returned;
///  3. every free (a `memref.dealloc`, or an `scf.if` holding only
///     `memref.dealloc`s) moves up to right after the last op of its block
///     that uses the freed buffer or any alias of it, and after the
///     definitions of its own operands;
///  4. a function that frees buffers behind the pipeline's run-time alias
///     check (a call to `@dealloc_helper`: results of a call that may alias
///     each other or its arguments) gets a warning naming the call: those
///     frees stay at its end, and the compiled peak may exceed the planned
///     one (auto-ac-lower-cpu inlines calls first, so only calls it keeps,
///     no_inline or without a body, get there).
/// Aliases: results of any op with memref or tensor results that reads an
/// alias (views: subview, expand/collapse_shape, reinterpret_cast, cast,
/// view, extract_strided_metadata, ...; region ops yielding one), followed
/// both ways from the freed value; fresh buffers (memref.alloc/alloca,
/// bufferization.clone, memref.get_global) and call results (the
/// deallocation ABI: a callee returns buffers its caller owns) are not.
/// A use inside a nested region counts at its ancestor op in the block.
/// IR still on tensors, holding `bufferization.dealloc`, or already lowered
/// (an `llvm.func` with a body) is an error naming the op.  Errors are emitted through the context at the op's
/// location.  Everything is checked before anything changes: on
/// AC_ERR_INVALID the module is unchanged; on AC_ERR_NOMEM it is correct
/// (ownership moved completely or not at all) with some frees not moved yet
/// (test/reliability/test_free.c).  Returns AC_OK, AC_ERR_INVALID or
/// AC_ERR_NOMEM.  `stats` (may be NULL) is filled on AC_OK.
AcStatus acFreeAtLastUse(MlirOperation module, AcFreeStats *stats);

/// The `auto-ac-copy-returned-views` pass (auto-ac-lower-cpu and -gpu run
/// it after inlining, before one-shot-bufferize): in every func.func, a
/// returned tensor that is a view whose buffer layout an identity-layout
/// function result cannot take (a strided `tensor.extract_slice`, and the
/// views of it; import/layout.h) is copied right after the view
/// (`tensor.empty` + `bufferization.materialize_in_destination`), and every
/// use reads the copy.  Bufferization would copy it at the return instead,
/// keeping its base alive to the end of the function; the planner counts
/// the copy at the view (docs/fidelity.md, cause 6).  Never fails; the
/// number of copies made goes to `*copies` (may be NULL).
AcStatus acCopyReturnedViews(MlirOperation module, intptr_t *copies);

/// The `auto-ac-to-linalg` pass (auto-ac-lower-cpu and -gpu run it after
/// upstream's tosa-to-linalg passes, before one-shot-bufferize):
///  1. a `tosa.const` still read becomes an `arith.constant` of its values,
///     and unused `tosa.const` / `tosa.const_shape` are erased (what
///     tosa-to-arith does for them, without its greedy rewriter, which
///     folds every other op of the function too);
///  2. every `arith` / `math` op on ranked tensors (but `arith.constant`)
///     becomes `tensor.empty` (its dynamic sizes read with `tensor.dim`
///     from the first tensor operand) + `linalg.generic` writing into it,
///     the op itself the payload on the elements, scalar operands read
///     from above: a fresh init, so the result is a new buffer as the
///     planner counts it (upstream's convert-elementwise-to-linalg makes an
///     operand the init, and bufferization would reuse its buffer).
/// AC_OK, or AC_ERR_NOMEM (step 2 not done); the number of ops rewritten
/// in step 2 goes to `*rewritten` (may be NULL).
AcStatus acToLinalg(MlirOperation module, intptr_t *rewritten);

/// The `auto-ac-copy-before-write` pass (auto-ac-lower-cpu and -gpu run it
/// after auto-ac-copy-returned-views, before one-shot-bufferize): in every
/// one-block func.func, a destination-style write (a linalg op's `outs`,
/// the dest of `tensor.insert_slice`/`tensor.insert`, the init of a
/// one-result `scf.for`/`scf.while`) in the function's block or in an
/// `scf.execute_region` of it, whose init's storage (the base of its view
/// chain, through execute_region results) is read after the write, gets a
/// fresh init right before it: `tensor.empty` + `bufferization.
/// materialize_in_destination` of the init (the empty alone when a linalg
/// payload never reads its init).  That is where the planner counts the
/// copy (a new buffer at the write); bufferization would place its own
/// copy anywhere up the view chain.  Returns AC_OK or AC_ERR_NOMEM; the
/// number of copies made goes to `*copies` (may be NULL).
AcStatus acCopyBeforeWrite(MlirOperation module, intptr_t *copies);

/// Whether a call in `func` (a func.func on tensors of `module`, before
/// planning) may make the peak of the program `auto-ac-lower-cpu` compiles
/// differ from the simulated one (the plan counts a call as the buffers of
/// its results).  The pipeline inlines calls first, so a call is exact when
/// its callee has one block and a body, is not recursive, the call is not
/// marked `no_inline`, and the callee (with the callees it calls) makes no
/// tensor besides the ones it returns (inits and views excepted).  Returns
/// 0 when every call is; else 1, with the first such call in `*at` (may be
/// NULL) and why in `why` (`n` bytes, NUL-terminated).
int acCallsCaveat(MlirOperation module, MlirOperation func,
                  char *why, size_t n, MlirOperation *at);

/// The `auto-ac-gpu-buffers` pass: every `memref.alloc` / `memref.dealloc`
/// of host code (not inside gpu.module, gpu.func or gpu.launch) becomes
/// `gpu.alloc host_shared` / `gpu.dealloc`, but for offloaded saves' host
/// buffers (found by auto-ac-offload-locs's names: pinned, their copies
/// asynchronous; lib/lower/gpucopy.h), so buffers live in GPU memory
/// that the host code around the kernels (copies, the dealloc helper, the
/// caller) can still read; the runtime's mgpuMemAlloc/mgpuMemFree allocate
/// them.  Runs after auto-ac-free-at-last-use (it keeps the places of the
/// frees).  `converted` (may be NULL) receives the number of ops replaced.
/// Returns AC_OK, AC_ERR_INVALID (the gpu dialect cannot be loaded) or
/// AC_ERR_NOMEM.
AcStatus acGpuBuffers(MlirOperation module, intptr_t *converted);

/// The `auto-ac-count-host` pass (auto-ac-lower-cpu{count-host=1} runs it
/// before one-shot-bufferize): before every host buffer of an offloaded save
/// (`bufferization.alloc_tensor` marked `ac.offload`, docs/rewrite.md
/// "Offload") inserts `func.call @acMeasureHostNext()`, declared once, which
/// tells the counting runtime (libac_count_alloc) that the next allocation
/// is host memory; the program must then be run with that runtime.
/// `marked` (may be NULL) receives the number of calls made.  Returns AC_OK
/// or AC_ERR_NOMEM.
AcStatus acCountHost(MlirOperation module, intptr_t *marked);

/// The `auto-ac-offload-locs` pass (auto-ac-lower-gpu runs it before
/// one-shot-bufferize): the location of every op marked `ac.offload` or
/// `ac.prefetch` (an offloaded save's buffers and copies, docs/rewrite.md
/// "Offload") is wrapped in a name of the mark (`loc("ac.offload"(...))`),
/// which bufferization keeps where it drops attributes, so that
/// auto-ac-gpu-buffers finds the buffers and copies made of them: host
/// buffers pinned (`gpu.host_register`), copies asynchronous (`gpu.memcpy
/// async` on a stream of their own, waited for where the simulator has them
/// complete).  `marked` (may be NULL) receives the number of ops renamed.
/// Returns AC_OK or AC_ERR_NOMEM.
AcStatus acOffloadLocs(MlirOperation module, intptr_t *marked);

/// Targets of the named lowering pipelines.
typedef enum AcLowerTarget {
  AC_LOWER_CPU = 0, ///< auto-ac-lower-cpu: to the LLVM dialect
  AC_LOWER_GPU = 1  ///< auto-ac-lower-gpu: buffers in GPU memory, kernels
                    ///< outlined, to NVVM (PTX)
} AcLowerTarget;

/// Options of the named lowering pipelines.
typedef struct AcLowerOptions {
  int64_t bufferAlignment; ///< one-shot-bufferize buffer-alignment (MLIR: 64)
  int genericFunctions;    ///< CPU: finalize-memref-to-llvm use-generic-functions
  int countHost;           ///< CPU: run auto-ac-count-host (for
                           ///< libac_count_alloc); the GPU runtimes count
                           ///< pinned host buffers at their registration
} AcLowerOptions;

/// Appends to `out` the pass list of the named pipeline for `target`, as
/// text for inside `builtin.module(...)`.  AC_ERR_NOMEM when `out` failed.
AcStatus acLowerPipeline(AcLowerTarget target, const AcLowerOptions *opts,
                         AcStrBuf *out);

#ifdef __cplusplus
}
#endif
#endif
