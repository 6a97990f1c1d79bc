/* count_alloc.c - a counting allocator for programs lowered with
 * finalize-memref-to-llvm{use-generic-functions=true}.
 *
 * That lowering calls _mlir_memref_to_llvm_alloc / _aligned_alloc / _free
 * instead of malloc / aligned_alloc / free.  Nothing in LLVM 22's runner
 * libraries defines these symbols, so loading this library with
 * `mlir-runner -shared-libs=libac_count_alloc.so,...` makes every memref
 * allocation of the program go through here (no interposition race).
 *
 * Each block carries a 32-byte header in front of the returned pointer with
 * the requested size, the offset back to the real block and an allocation
 * id.  We track live bytes, the high-water mark, and an event log
 * (allocation id per alloc/free) so the peak can be recomputed at exit with
 * some allocations reclassified as static.
 *
 * The program may call (declare them `func.func private @acMeasureBegin()`):
 *   acMeasureBegin()      start of the measured region (the joint call)
 *   acMeasureEnd()        its end
 *   acMeasureTag(i64 p)   the allocation holding address p is a gradient:
 *                         count it as static over the whole region, as the
 *                         simulator does (docs/fidelity.md)
 *   acMeasureHostNext()   the next allocation is host memory (an offloaded
 *                         save's host buffer; auto-ac-lower-cpu{count-host=1}
 *                         calls it): counted apart, never in the device peak
 * and the GPU runtimes call acMeasureHostRegister / acMeasureHostUnregister
 * for pinned host memory (gpu.host_register: auto-ac-lower-gpu's host
 * buffers), counted the same way.
 *
 * A real GPU runtime (runtime/count_cuda.c) gives the blocks its own memory
 * with acMeasureSetBackend(alloc, free) before the program's first
 * allocation; malloc/free otherwise, and always for host buffers.  Blocks must be host-addressable (the
 * header is written through the pointer): managed memory is.
 *
 * At exit (destructor) a report of key=value lines goes to the file named
 * by AC_MEASURE_OUT (appended), else to stderr.  AC_MEASURE_TRACE=FILE also
 * writes every event.  AC_MEASURE_POISON=1 fills blocks with 0xff bytes
 * (a NaN pattern for floats) when they are freed, so a buffer freed too
 * early shows up as a wrong result.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AC_MAGIC 0x6163636f756e7421ULL /* "account!" */

typedef struct AcHeader {
  uint64_t size;   /* bytes requested by the program */
  uint64_t offset; /* user pointer - offset = the block malloc returned */
  uint64_t id;     /* allocation id, index into g.allocs */
  uint64_t magic;
} AcHeader;

typedef struct AcAllocRec {
  uint64_t size;
  uintptr_t user; /* user pointer while live, 0 once freed */
  uint8_t tagged;
  uint8_t host;   /* host memory (acMeasureHostNext): not device */
} AcAllocRec;

/* An event: allocation id, with the top bit set for a free. */
#define AC_FREE_BIT (1ULL << 63)

static struct {
  int64_t live, peak;
  int64_t hostLive, hostPeak; /* host buffers, apart from live/peak */
  uint64_t numHostAllocs;
  int hostNext;               /* acMeasureHostNext: the next alloc is host */
  uint64_t numAllocs, numFrees, allocBytes;
  AcAllocRec *allocs;
  size_t capAllocs;
  uint64_t *events;
  size_t numEvents, capEvents;
  int64_t regionBegin, regionEnd; /* event indices, -1: not marked */
  int64_t liveAtBegin;
  int poison;
  int failed; /* out of memory for the bookkeeping */
  FILE *trace;
  int inited;
  void *(*rawAlloc)(size_t); /* acMeasureSetBackend; NULL: malloc */
  void (*rawFree)(void *);
} g = {0};

void acMeasureSetBackend(void *(*alloc)(size_t), void (*release)(void *)) {
  g.rawAlloc = alloc;
  g.rawFree = release;
}

static void acInit(void) {
  if (g.inited)
    return;
  g.inited = 1;
  g.regionBegin = g.regionEnd = -1;
  const char *p = getenv("AC_MEASURE_POISON");
  g.poison = p && *p && strcmp(p, "0") != 0;
  const char *t = getenv("AC_MEASURE_TRACE");
  if (t && *t)
    g.trace = fopen(t, "w");
}

static int acGrow(void **arr, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return 1;
  size_t n = *cap ? *cap : 1024;
  while (n < need)
    n *= 2;
  void *q = realloc(*arr, n * elem);
  if (!q) {
    g.failed = 1;
    return 0;
  }
  *arr = q;
  *cap = n;
  return 1;
}

static void acEvent(uint64_t ev) {
  if (acGrow((void **)&g.events, &g.capEvents, g.numEvents + 1, sizeof *g.events))
    g.events[g.numEvents++] = ev;
}

static void *acAllocate(size_t align, size_t size) {
  acInit();
  size_t hdr = sizeof(AcHeader);
  if (align < 16)
    align = 16;
  /* Room for the header in front, keeping the user pointer aligned. */
  size_t front = (hdr + align - 1) / align * align;
  size_t bytes = front + (size ? size : 1) + align;
  /* Host buffers are plain host memory, whatever the backend. */
  int host = g.hostNext;
  g.hostNext = 0;
  char *base = g.rawAlloc && !host ? g.rawAlloc(bytes) : malloc(bytes);
  if (!base)
    return NULL;
  uintptr_t u = ((uintptr_t)base + front + align - 1) / align * align;
  AcHeader *h = (AcHeader *)(u - hdr);
  h->size = size;
  h->offset = u - (uintptr_t)base;
  h->magic = AC_MAGIC;
  h->id = g.numAllocs;
  if (acGrow((void **)&g.allocs, &g.capAllocs, g.numAllocs + 1, sizeof *g.allocs)) {
    g.allocs[g.numAllocs].size = size;
    g.allocs[g.numAllocs].user = u;
    g.allocs[g.numAllocs].tagged = 0;
    g.allocs[g.numAllocs].host = (uint8_t)host;
  }
  acEvent(g.numAllocs);
  g.numAllocs++;
  g.allocBytes += size;
  /* Host buffers are counted apart from device memory. */
  int64_t *live = host ? &g.hostLive : &g.live, *peak = host ? &g.hostPeak : &g.peak;
  g.numHostAllocs += host != 0;
  *live += (int64_t)size;
  if (*live > *peak)
    *peak = *live;
  if (g.trace)
    fprintf(g.trace, "%s %" PRIu64 " %zu %" PRId64 "\n", host ? "HA" : "A", h->id,
            size, *live);
  return (void *)u;
}

void *_mlir_memref_to_llvm_alloc(size_t size) { return acAllocate(16, size); }

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  return acAllocate(alignment, size);
}

void _mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr)
    return;
  acInit();
  AcHeader *h = (AcHeader *)((char *)ptr - sizeof(AcHeader));
  if (h->magic != AC_MAGIC) {
    fprintf(stderr, "ac_count_alloc: free of %p, not a block of ours\n", ptr);
    abort();
  }
  uint64_t id = h->id;
  size_t size = h->size;
  int host = id < g.numAllocs && g.allocs && g.allocs[id].host;
  if (host)
    g.hostLive -= (int64_t)size;
  else
    g.live -= (int64_t)size;
  g.numFrees++;
  if (id < g.numAllocs && g.allocs)
    g.allocs[id].user = 0;
  acEvent(id | AC_FREE_BIT);
  if (g.trace)
    fprintf(g.trace, "%s %" PRIu64 " %zu %" PRId64 "\n", host ? "HF" : "F", id,
            size, host ? g.hostLive : g.live);
  if (g.poison)
    memset(ptr, 0xff, size);
  h->magic = 0;
  if (g.rawFree && !host)
    g.rawFree((char *)ptr - h->offset);
  else
    free((char *)ptr - h->offset);
}

void acMeasureHostNext(void) {
  acInit();
  g.hostNext = 1;
}

/* Pinned host memory (the GPU lowering's gpu.host_register of an offloaded
 * save's host buffer, runtime/count_gpu.c and count_cuda.c): the
 * registered bytes are counted as a host block from registration to
 * unregistration, apart from device memory.  The buffer itself is the
 * program's (malloc), not ours. */
void acMeasureHostRegister(void *p, uint64_t bytes) {
  acInit();
  if (acGrow((void **)&g.allocs, &g.capAllocs, g.numAllocs + 1, sizeof *g.allocs)) {
    g.allocs[g.numAllocs].size = bytes;
    g.allocs[g.numAllocs].user = (uintptr_t)p;
    g.allocs[g.numAllocs].tagged = 0;
    g.allocs[g.numAllocs].host = 1;
  }
  acEvent(g.numAllocs);
  g.numAllocs++;
  g.allocBytes += bytes;
  g.numHostAllocs++;
  g.hostLive += (int64_t)bytes;
  if (g.hostLive > g.hostPeak)
    g.hostPeak = g.hostLive;
  if (g.trace)
    fprintf(g.trace, "HA %" PRIu64 " %" PRIu64 " %" PRId64 "\n", g.numAllocs - 1,
            bytes, g.hostLive);
}

void acMeasureHostUnregister(void *p) {
  acInit();
  for (uint64_t i = g.numAllocs; i-- > 0;) {
    AcAllocRec *r = &g.allocs[i];
    if (!r->host || r->user != (uintptr_t)p)
      continue;
    r->user = 0;
    g.hostLive -= (int64_t)r->size;
    g.numFrees++;
    acEvent(i | AC_FREE_BIT);
    if (g.trace)
      fprintf(g.trace, "HF %" PRIu64 " %" PRIu64 " %" PRId64 "\n", i, r->size,
              g.hostLive);
    return;
  }
  fprintf(stderr, "ac_count_alloc: unregister of %p, not registered\n", p);
  abort();
}

/* The first byte and the dense size of the memref a descriptor describes
 * (the layout MLIR's runtime wrappers read: allocated and aligned
 * pointers, offset, then `rank` sizes and `rank` strides). */
static void acMemRefSpan(int64_t rank, const void *desc, int64_t elemBytes,
                         void **data, uint64_t *bytes) {
  const struct {
    void *allocated;
    char *aligned;
    int64_t offset;
    int64_t sizes[];
  } *d = desc;
  uint64_t n = 1;
  for (int64_t i = 0; i < rank; ++i)
    n *= (uint64_t)d->sizes[i];
  *data = d->aligned + d->offset * elemBytes;
  *bytes = n * (uint64_t)elemBytes;
}

/* The memref forms of gpu.host_register / gpu.host_unregister, over the
 * pointer forms the GPU runtime linked beside this file defines
 * (count_gpu.c: counted; count_cuda.c: pinned by the driver, counted);
 * weak, so that a CPU program links this file alone. */
void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) __attribute__((weak));
void mgpuMemHostUnregister(void *ptr) __attribute__((weak));

void mgpuMemHostRegisterMemRef(int64_t rank, void *desc, int64_t elemBytes) {
  void *p;
  uint64_t n;
  acMemRefSpan(rank, desc, elemBytes, &p, &n);
  mgpuMemHostRegister(p, n);
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *desc, int64_t elemBytes) {
  void *p;
  uint64_t n;
  acMemRefSpan(rank, desc, elemBytes, &p, &n);
  mgpuMemHostUnregister(p);
}

void acMeasureBegin(void) {
  acInit();
  g.regionBegin = (int64_t)g.numEvents;
  g.liveAtBegin = g.live;
  if (g.trace)
    fprintf(g.trace, "B %" PRId64 "\n", g.live);
}

void acMeasureEnd(void) {
  acInit();
  g.regionEnd = (int64_t)g.numEvents;
  if (g.trace)
    fprintf(g.trace, "E %" PRId64 "\n", g.live);
}

/* Marks the live allocation holding address p (an aligned pointer of a
 * memref, possibly inside the block) as static. */
void acMeasureTag(int64_t p) {
  acInit();
  uintptr_t a = (uintptr_t)p;
  for (uint64_t i = g.numAllocs; i-- > 0;) {
    AcAllocRec *r = &g.allocs[i];
    if (r->user && a >= r->user && a < r->user + (r->size ? r->size : 1)) {
      r->tagged = 1;
      if (g.trace)
        fprintf(g.trace, "T %" PRIu64 " %" PRIu64 "\n", i, r->size);
      return;
    }
  }
  fprintf(stderr, "ac_count_alloc: acMeasureTag(%#" PRIx64 "): no live block\n",
          (uint64_t)p);
}

static void acReport(void) __attribute__((destructor));
static void acReport(void) {
  if (!g.inited)
    return;
  FILE *out = stderr;
  const char *path = getenv("AC_MEASURE_OUT");
  if (path && *path) {
    FILE *f = fopen(path, "a");
    if (f)
      out = f;
  }
  fprintf(out, "peak_bytes=%" PRId64 "\n", g.peak);
  fprintf(out, "allocs=%" PRIu64 "\nfrees=%" PRIu64 "\n", g.numAllocs, g.numFrees);
  fprintf(out, "alloc_bytes=%" PRIu64 "\nlive_at_exit=%" PRId64 "\n",
          g.allocBytes, g.live);
  fprintf(out, "host_allocs=%" PRIu64 "\nhost_peak_bytes=%" PRId64 "\n",
          g.numHostAllocs, g.hostPeak);
  if (g.failed)
    fprintf(out, "error=bookkeeping out of memory\n");
  if (g.regionBegin >= 0 && !g.failed) {
    int64_t end = g.regionEnd >= 0 ? g.regionEnd : (int64_t)g.numEvents;
    /* Replay the log: live bytes before the region, then its events.
       Tagged (gradient) allocations count as static from the region's
       start: live minus tagged-live, plus all tagged bytes. */
    int64_t live = 0, taggedLive = 0, taggedTotal = 0, count = 0;
    int64_t hostLive = 0, hostPeak = 0;
    for (int64_t e = 0; e < g.regionBegin; ++e) {
      uint64_t ev = g.events[e];
      uint64_t id = ev & ~AC_FREE_BIT;
      int64_t s = (int64_t)g.allocs[id].size;
      *(g.allocs[id].host ? &hostLive : &live) += ev & AC_FREE_BIT ? -s : s;
    }
    hostPeak = hostLive;
    for (int64_t e = g.regionBegin; e < end; ++e) {
      uint64_t id = g.events[e] & ~AC_FREE_BIT;
      if (!(g.events[e] & AC_FREE_BIT) && g.allocs[id].tagged)
        taggedTotal += (int64_t)g.allocs[id].size;
    }
    int64_t rawPeak = live, adjPeak = live + taggedTotal;
    for (int64_t e = g.regionBegin; e < end; ++e) {
      uint64_t ev = g.events[e];
      uint64_t id = ev & ~AC_FREE_BIT;
      int64_t s = (int64_t)g.allocs[id].size;
      int free_ = (ev & AC_FREE_BIT) != 0;
      if (g.allocs[id].host) {
        hostLive += free_ ? -s : s;
        if (hostLive > hostPeak)
          hostPeak = hostLive;
        continue;
      }
      live += free_ ? -s : s;
      if (g.allocs[id].tagged)
        taggedLive += free_ ? -s : s;
      if (!free_)
        count++;
      if (live > rawPeak)
        rawPeak = live;
      if (live - taggedLive + taggedTotal > adjPeak)
        adjPeak = live - taggedLive + taggedTotal;
    }
    fprintf(out, "region_live_at_begin=%" PRId64 "\n", g.liveAtBegin);
    fprintf(out, "region_allocs=%" PRId64 "\n", count);
    fprintf(out, "region_peak_bytes=%" PRId64 "\n", rawPeak);
    fprintf(out, "region_tagged_bytes=%" PRId64 "\n", taggedTotal);
    fprintf(out, "region_peak_tagged_static=%" PRId64 "\n", adjPeak);
    fprintf(out, "region_host_peak_bytes=%" PRId64 "\n", hostPeak);
  }
  if (out != stderr)
    fclose(out);
  if (g.trace)
    fclose(g.trace);
}
