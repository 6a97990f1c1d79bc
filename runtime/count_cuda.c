/* count_cuda.c - the GPU runtime functions the host code of
 * `auto-ac-lower-gpu` calls (the mgpu* wrappers of MLIR's CUDA runtime),
 * over the real CUDA driver, with every device buffer counted by
 * count_alloc.c.  Built with count_alloc.c into libac_count_cuda.so, the
 * real-GPU counterpart of count_gpu.c's stub: the kernels run, so the
 * program's results are computed on the GPU, and the device peak is the
 * one the program's own allocations reach (docs/fidelity.md, "On a real
 * GPU").
 *
 * The driver is loaded at the first call (dlopen of libcuda.so.1: nothing
 * to link, so it builds on machines without CUDA); any driver error prints
 * the call and CUDA's message and exits with status 3.  Every kernel
 * launch waits for the kernel (so timings mean nothing here).  Buffers are managed
 * memory (cuMemAllocManaged): the pipeline's buffers are `host_shared`, and
 * the host code and count_alloc.c's block headers address them.  An
 * offloaded save's host buffer is the program's own host memory, pinned
 * here (mgpuMemHostRegisterMemRef: cuMemHostRegister) and counted as host
 * memory; its copies are cuMemcpyAsync on the program's streams.
 * Never load it next to count_gpu.c or MLIR's own CUDA runtime. */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void *_mlir_memref_to_llvm_alloc(size_t size);
void _mlir_memref_to_llvm_free(void *ptr);
void acMeasureSetBackend(void *(*alloc)(size_t), void (*release)(void *));
void acMeasureHostRegister(void *p, uint64_t bytes);
void acMeasureHostUnregister(void *p);

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent;
typedef unsigned long long CUdeviceptr;

/* The driver entry points used, by their exported names. */
#define AC_CUDA_FUNCS(X)                                                      \
  X(cuInit, CUresult, (unsigned))                                             \
  X(cuDeviceGet, CUresult, (CUdevice *, int))                                 \
  X(cuDevicePrimaryCtxRetain, CUresult, (CUcontext *, CUdevice))              \
  X(cuCtxSetCurrent, CUresult, (CUcontext))                                   \
  X(cuGetErrorString, CUresult, (CUresult, const char **))                    \
  X(cuMemAllocManaged, CUresult, (CUdeviceptr *, size_t, unsigned))           \
  X(cuMemFree_v2, CUresult, (CUdeviceptr))                                    \
  X(cuCtxSynchronize, CUresult, (void))                                       \
  X(cuModuleLoadDataEx, CUresult,                                             \
    (CUmodule *, const void *, unsigned, int *, void **))                     \
  X(cuModuleUnload, CUresult, (CUmodule))                                     \
  X(cuModuleGetFunction, CUresult, (CUfunction *, CUmodule, const char *))    \
  X(cuLaunchKernel, CUresult,                                                 \
    (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,  \
     unsigned, CUstream, void **, void **))                                   \
  X(cuStreamCreate, CUresult, (CUstream *, unsigned))                         \
  X(cuStreamDestroy_v2, CUresult, (CUstream))                                 \
  X(cuStreamSynchronize, CUresult, (CUstream))                                \
  X(cuStreamWaitEvent, CUresult, (CUstream, CUevent, unsigned))               \
  X(cuEventCreate, CUresult, (CUevent *, unsigned))                           \
  X(cuEventDestroy_v2, CUresult, (CUevent))                                   \
  X(cuEventSynchronize, CUresult, (CUevent))                                  \
  X(cuEventRecord, CUresult, (CUevent, CUstream))                            \
  X(cuMemHostRegister_v2, CUresult, (void *, size_t, unsigned))               \
  X(cuMemHostUnregister, CUresult, (void *))                                  \
  X(cuMemcpyAsync, CUresult, (CUdeviceptr, CUdeviceptr, size_t, CUstream))

#define AC_DECLARE(name, ret, args) static ret(*p_##name) args;
AC_CUDA_FUNCS(AC_DECLARE)
#undef AC_DECLARE

static int acDevice;

static void acDie(const char *call, CUresult r) {
  const char *msg = NULL;
  if (p_cuGetErrorString)
    p_cuGetErrorString(r, &msg);
  fprintf(stderr, "ac_count_cuda: %s failed: %s (%d)\n", call,
          msg ? msg : "unknown error", r);
  exit(3);
}

#define AC_CHECK(call)                                                        \
  do {                                                                        \
    CUresult acR = (call);                                                    \
    if (acR != 0)                                                             \
      acDie(#call, acR);                                                      \
  } while (0)

static void *acManagedAlloc(size_t bytes) {
  CUdeviceptr p = 0;
  AC_CHECK(p_cuMemAllocManaged(&p, bytes, 1 /* CU_MEM_ATTACH_GLOBAL */));
  return (void *)(uintptr_t)p;
}

/* Frees wait for the kernels still reading the block: the host code frees
 * after its last launch was issued, not after it ran. */
static void acManagedFree(void *p) {
  AC_CHECK(p_cuCtxSynchronize());
  AC_CHECK(p_cuMemFree_v2((CUdeviceptr)(uintptr_t)p));
}

/* Loads the driver and makes device acDevice's primary context current;
 * runs when the library loads, so every block, the program's first too, is
 * managed memory (count_alloc.c frees each with the backend it has then). */
__attribute__((constructor)) static void acCudaInit(void) {
  static int done;
  if (done)
    return;
  done = 1;
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    char why[512];
    snprintf(why, sizeof why, "%s", dlerror());
    /* Where NVIDIA's containers mount the driver, off the loader's path. */
    if (!(h = dlopen("/usr/local/nvidia/lib64/libcuda.so.1", RTLD_NOW | RTLD_LOCAL))) {
      fprintf(stderr, "ac_count_cuda: cannot load the CUDA driver: %s\n", why);
      exit(3);
    }
  }
#define AC_LOAD(name, ret, args)                                              \
  if (!(*(void **)&p_##name = dlsym(h, #name))) {                             \
    fprintf(stderr, "ac_count_cuda: the CUDA driver has no %s\n", #name);     \
    exit(3);                                                                  \
  }
  AC_CUDA_FUNCS(AC_LOAD)
#undef AC_LOAD
  CUdevice dev;
  CUcontext ctx;
  AC_CHECK(p_cuInit(0));
  AC_CHECK(p_cuDeviceGet(&dev, acDevice));
  AC_CHECK(p_cuDevicePrimaryCtxRetain(&ctx, dev));
  AC_CHECK(p_cuCtxSetCurrent(ctx));
  acMeasureSetBackend(acManagedAlloc, acManagedFree);
}

void mgpuSetDefaultDevice(int32_t device) { acDevice = device; }

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, int8_t isHostShared) {
  (void)stream;
  (void)isHostShared; /* managed either way: see the file's comment */
  acCudaInit();
  return _mlir_memref_to_llvm_alloc((size_t)sizeBytes);
}

/* Pinned host memory (gpu.host_register of an offloaded save's host
 * buffer; the memref forms are count_alloc.c's): page-locked by the
 * driver, counted as host memory. */
void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  acCudaInit();
  AC_CHECK(p_cuMemHostRegister_v2(ptr, sizeBytes, 0));
  acMeasureHostRegister(ptr, sizeBytes);
}

void mgpuMemHostUnregister(void *ptr) {
  AC_CHECK(p_cuMemHostUnregister(ptr));
  acMeasureHostUnregister(ptr);
}

/* An offloaded save's copy, asynchronous on its own stream (unified
 * addressing: the driver tells host from device by the pointers). */
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  AC_CHECK(p_cuMemcpyAsync((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src,
                           sizeBytes, stream));
}

void mgpuMemFree(void *ptr, void *stream) {
  (void)stream;
  if (ptr)
    _mlir_memref_to_llvm_free(ptr);
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  acCudaInit();
  char log[8192] = {0};
  int keys[] = {7 /* CU_JIT_OPTIMIZATION_LEVEL */, 5 /* ERROR_LOG_BUFFER */,
                6 /* ERROR_LOG_BUFFER_SIZE_BYTES */};
  void *vals[] = {(void *)(intptr_t)optLevel, log, (void *)(intptr_t)sizeof log};
  CUmodule m = NULL;
  CUresult r = p_cuModuleLoadDataEx(&m, data, 3, keys, vals);
  if (r != 0) {
    fprintf(stderr, "ac_count_cuda: PTX JIT: %s\n", log);
    acDie("cuModuleLoadDataEx", r);
  }
  return m;
}

void *mgpuModuleLoad(void *data, size_t size) {
  (void)size;
  return mgpuModuleLoadJIT(data, 4);
}

void mgpuModuleUnload(void *module) { AC_CHECK(p_cuModuleUnload(module)); }

void *mgpuModuleGetFunction(void *module, const char *name) {
  CUfunction f = NULL;
  AC_CHECK(p_cuModuleGetFunction(&f, module, name));
  return f;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount) {
  (void)paramsCount;
  AC_CHECK(p_cuLaunchKernel(function, (unsigned)gridX, (unsigned)gridY,
                            (unsigned)gridZ, (unsigned)blockX, (unsigned)blockY,
                            (unsigned)blockZ, (unsigned)smem, stream, params,
                            extra));
  /* Each kernel finishes before the host code goes on: its reads of
     managed buffers and its frees (count_alloc.c poisons freed blocks from
     the host) never race a kernel still running.  Slower, same memory. */
  AC_CHECK(p_cuStreamSynchronize(stream));
}

void *mgpuStreamCreate(void) {
  acCudaInit();
  CUstream s = NULL;
  AC_CHECK(p_cuStreamCreate(&s, 1 /* CU_STREAM_NON_BLOCKING */));
  return s;
}

void mgpuStreamDestroy(void *stream) { AC_CHECK(p_cuStreamDestroy_v2(stream)); }
void mgpuStreamSynchronize(void *stream) { AC_CHECK(p_cuStreamSynchronize(stream)); }
void mgpuStreamWaitEvent(void *stream, void *event) {
  AC_CHECK(p_cuStreamWaitEvent(stream, event, 0));
}

void *mgpuEventCreate(void) {
  acCudaInit();
  CUevent e = NULL;
  AC_CHECK(p_cuEventCreate(&e, 2 /* CU_EVENT_DISABLE_TIMING */));
  return e;
}

void mgpuEventDestroy(void *event) { AC_CHECK(p_cuEventDestroy_v2(event)); }
void mgpuEventSynchronize(void *event) { AC_CHECK(p_cuEventSynchronize(event)); }
void mgpuEventRecord(void *event, void *stream) {
  AC_CHECK(p_cuEventRecord(event, stream));
}
