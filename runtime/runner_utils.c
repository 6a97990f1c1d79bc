/* runner_utils.c - what the harness of ac-measure and the lowered programs
 * call from MLIR's runner libraries, for programs linked ahead of time
 * without them (bench/gpu_check.py: Debian's link libMLIR): the printers
 * printMemrefI64 and printMemrefF64 (their C interface; one line per call,
 * every element in row-major order, f64 with 17 significant digits, so
 * equal lines are equal bits) and memrefCopy (a strided copy). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* An unranked memref: the rank and a ranked descriptor {allocated,
 * aligned, offset, sizes[rank], strides[rank]}. */
typedef struct AcUnranked {
  int64_t rank;
  void *desc;
} AcUnranked;

typedef struct AcRanked {
  void *allocated, *aligned;
  int64_t offset;
  int64_t shape[]; /* sizes[rank], then strides[rank] */
} AcRanked;

static int64_t acOffsetOf(const AcRanked *d, int64_t rank, int64_t lin);

static void acPrint(const AcUnranked *m, const char *kind, int isFloat) {
  const AcRanked *d = (const AcRanked *)m->desc;
  int64_t rank = m->rank, n = 1;
  printf("%s[", kind);
  for (int64_t i = 0; i < rank; ++i) {
    printf(i ? "x%" PRId64 : "%" PRId64, d->shape[i]);
    n *= d->shape[i];
  }
  printf("] =");
  for (int64_t lin = 0; lin < n; ++lin) {
    int64_t at = acOffsetOf(d, rank, lin);
    if (isFloat)
      printf(" %.17g", ((const double *)d->aligned)[at]);
    else
      printf(" %" PRId64, ((const int64_t *)d->aligned)[at]);
  }
  printf("\n");
}

void _mlir_ciface_printMemrefI64(const AcUnranked *m) { acPrint(m, "i64", 0); }
void _mlir_ciface_printMemrefF64(const AcUnranked *m) { acPrint(m, "f64", 1); }

/* Elements of d (rank `rank`); the element offset of row-major index lin. */
static int64_t acElems(const AcRanked *d, int64_t rank) {
  int64_t n = 1;
  for (int64_t i = 0; i < rank; ++i)
    n *= d->shape[i];
  return n;
}

static int64_t acOffsetOf(const AcRanked *d, int64_t rank, int64_t lin) {
  int64_t at = d->offset;
  for (int64_t i = rank - 1; i >= 0; --i) {
    at += (lin % d->shape[i]) * d->shape[rank + i];
    lin /= d->shape[i];
  }
  return at;
}

void memrefCopy(int64_t elemSize, const AcUnranked *src, const AcUnranked *dst) {
  const AcRanked *s = (const AcRanked *)src->desc, *t = (const AcRanked *)dst->desc;
  int64_t rank = src->rank, n = acElems(s, rank);
  for (int64_t lin = 0; lin < n; ++lin)
    memcpy((char *)t->aligned + acOffsetOf(t, rank, lin) * elemSize,
           (const char *)s->aligned + acOffsetOf(s, rank, lin) * elemSize,
           (size_t)elemSize);
}
