/* actest.h - a tiny unit-test harness: CHECK macros and a summary line.
 *
 *   AC_TEST(name) { CHECK(x == 1); CHECK_EQ_I64(a, b); }
 *   int main(void) { RUN(name); return acTestSummary("maxflow"); }
 *
 * The summary prints "N passed, N failed" and the exit status is non-zero
 * when anything failed. */
#ifndef AUTOAC_ACTEST_H
#define AUTOAC_ACTEST_H

#include "support/testhooks.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

static int acTestPassed = 0, acTestFailed = 0, acTestCurFailed = 0;

#define AC_TEST(name) static void name(void)
#define RUN(name)                                                              \
  do {                                                                         \
    acTestCurFailed = 0;                                                       \
    name();                                                                    \
    if (acTestCurFailed) {                                                     \
      ++acTestFailed;                                                          \
      printf("FAIL %s\n", #name);                                              \
    } else {                                                                   \
      ++acTestPassed;                                                          \
      printf("ok   %s\n", #name);                                              \
    }                                                                          \
  } while (0)
#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      printf("  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);        \
      acTestCurFailed = 1;                                                     \
    }                                                                          \
  } while (0)
#define CHECK_EQ_I64(a, b)                                                     \
  do {                                                                         \
    int64_t acA_ = (int64_t)(a), acB_ = (int64_t)(b);                          \
    if (acA_ != acB_) {                                                        \
      printf("  %s:%d: %s == %s failed: %" PRId64 " vs %" PRId64 "\n",         \
             __FILE__, __LINE__, #a, #b, acA_, acB_);                          \
      acTestCurFailed = 1;                                                     \
    }                                                                          \
  } while (0)
#define CHECK_NEAR(a, b, rel)                                                  \
  do {                                                                         \
    double acA_ = (double)(a), acB_ = (double)(b);                             \
    if (fabs(acA_ - acB_) > (rel) * fmax(fabs(acA_), fabs(acB_)) + 1e-300) {   \
      printf("  %s:%d: %s ~= %s failed: %.17g vs %.17g\n", __FILE__,           \
             __LINE__, #a, #b, acA_, acB_);                                    \
      acTestCurFailed = 1;                                                     \
    }                                                                          \
  } while (0)

static inline int acTestSummary(const char *suite) {
  printf("%s: %d passed, %d failed\n", suite, acTestPassed, acTestFailed);
  return acTestFailed ? 1 : 0;
}

/* Deterministic xorshift64* for seeded random tests. */
static inline uint64_t acTestRand(uint64_t *state) {
  uint64_t x = *state;
  x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
  *state = x;
  return x * 2685821657736338717ULL;
}
#endif
