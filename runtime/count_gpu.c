/* count_gpu.c - a counting stub of the GPU runtime functions the host code
 * of `auto-ac-lower-gpu` calls (the mgpu* wrappers of MLIR's CUDA runtime),
 * part of libac_count_alloc.so.  Device allocations go through the counting
 * allocator of count_alloc.c (host memory stands in for device memory);
 * modules, streams and kernel launches are no-ops, so the program's
 * numbers are not computed, only its allocations and frees happen, in
 * order: what `ac-measure --target=gpu` counts (docs/fidelity.md).  Never
 * load it next to a real GPU runtime. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *_mlir_memref_to_llvm_alloc(size_t size);
void _mlir_memref_to_llvm_free(void *ptr);

void acMeasureHostRegister(void *p, uint64_t bytes);
void acMeasureHostUnregister(void *p);

static char acDummy[16];

/* Pinned host memory (gpu.host_register; the memref forms are
 * count_alloc.c's): counted as host memory. */
void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  acMeasureHostRegister(ptr, sizeBytes);
}

void mgpuMemHostUnregister(void *ptr) { acMeasureHostUnregister(ptr); }

/* Copies do run (every buffer is host memory here): an offloaded save's
 * round trip keeps the program's values. */
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  (void)stream;
  memcpy(dst, src, sizeBytes);
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, int8_t isHostShared) {
  (void)stream;
  (void)isHostShared;
  return _mlir_memref_to_llvm_alloc((size_t)sizeBytes);
}

void mgpuMemFree(void *ptr, void *stream) {
  (void)stream;
  if (ptr)
    _mlir_memref_to_llvm_free(ptr);
}

void *mgpuModuleLoad(void *data, size_t size) {
  (void)data;
  (void)size;
  return acDummy;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  (void)data;
  (void)optLevel;
  return acDummy;
}

void mgpuModuleUnload(void *module) { (void)module; }

void *mgpuModuleGetFunction(void *module, const char *name) {
  (void)module;
  (void)name;
  return acDummy;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount) {
  (void)function, (void)gridX, (void)gridY, (void)gridZ, (void)blockX;
  (void)blockY, (void)blockZ, (void)smem, (void)stream, (void)params;
  (void)extra, (void)paramsCount;
}

void *mgpuStreamCreate(void) { return acDummy; }
void mgpuStreamDestroy(void *stream) { (void)stream; }
void mgpuStreamSynchronize(void *stream) { (void)stream; }
void mgpuStreamWaitEvent(void *stream, void *event) {
  (void)stream;
  (void)event;
}
void *mgpuEventCreate(void) { return acDummy; }
void mgpuEventDestroy(void *event) { (void)event; }
void mgpuEventSynchronize(void *event) { (void)event; }
void mgpuEventRecord(void *event, void *stream) {
  (void)event;
  (void)stream;
}
void mgpuSetDefaultDevice(int32_t device) { (void)device; }
