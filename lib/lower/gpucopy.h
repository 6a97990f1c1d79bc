/*===- lower/gpucopy.h - offloaded saves on the GPU (internal) ------*- C -*-===*
 *
 * The part of auto-ac-gpu-buffers that lowers an offloaded save's buffers
 * and copies (lib/lower/gpucopy.c): host buffers pinned, copies asynchronous
 * on streams of their own.  The ops are found by the location names
 * auto-ac-offload-locs gave them before bufferization.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_LOWER_GPUCOPY_H
#define AUTOAC_LOWER_GPUCOPY_H

#include "autoac/autoac.h"

#include "mlir-c/IR.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The mark of `op`'s location: 0 `ac.offload`, 1 `ac.prefetch`, 2
/// `ac.host` (a free of a host buffer, made here), -1 none.
int acGpuCopyMark(MlirOperation op);

/// In host code after bufferization: each `ac.offload` `memref.alloc` is
/// pinned (`gpu.host_register`) and each free of a host buffer unpinned
/// first (and marked `ac.host`); each marked `memref.copy` becomes
/// `gpu.memcpy async` issued after the later of its buffers' definitions in
/// its block and waited for at its place (identity layouts only; otherwise
/// it stays).  auto-ac-gpu-buffers then leaves the marked allocations and
/// frees alone.  `async` (may be NULL) receives the number of copies made
/// asynchronous.  Returns AC_OK or AC_ERR_NOMEM (emitted).
AcStatus acGpuOffloadCopies(MlirOperation module, intptr_t *async);

#ifdef __cplusplus
}
#endif
#endif
