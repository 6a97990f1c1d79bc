/* bench_stats.h - the median of a benchmark's runs, shared by ac-bench and
 * ac-e2e (at most MAX_RUNS values; defined by the includer). */
#ifndef AUTOAC_BENCH_STATS_H
#define AUTOAC_BENCH_STATS_H

#include <stdlib.h>
#include <string.h>

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median of v[0..n), n <= MAX_RUNS; 0 when n <= 0. */
static double median(const double *v, int n) {
  double s[MAX_RUNS];
  if (n <= 0)
    return 0;
  memcpy(s, v, (size_t)n * sizeof *s);
  qsort(s, (size_t)n, sizeof *s, compareDoubles);
  return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

#endif
