/* test_support.c - the one growth helper (acArrayGrow): growth from empty,
 * contents kept, no work when there is room, and failures (allocation,
 * sizes past SIZE_MAX) that leave the array and its capacity as they were. */
#include "actest.h"

#include "autoac/support.h"

#include <stdint.h>
#include <string.h>

AC_TEST(growsFromEmptyAndKeepsContents) {
  int32_t *a = NULL;
  intptr_t cap = 0;
  for (int32_t i = 0; i < 1000; ++i) {
    CHECK(acArrayGrow((void **)&a, &cap, i + 1, sizeof *a));
    CHECK(cap >= i + 1);
    a[i] = i * 3;
  }
  int ok = 1;
  for (int32_t i = 0; i < 1000; ++i)
    ok &= a[i] == i * 3;
  CHECK(ok);
  /* Room already: nothing moves. */
  int32_t *before = a;
  intptr_t capBefore = cap;
  CHECK(acArrayGrow((void **)&a, &cap, cap, sizeof *a));
  CHECK(a == before && cap == capBefore);
  CHECK(acArrayGrow((void **)&a, &cap, 0, sizeof *a));
  CHECK(a == before && cap == capBefore);
  acFree(a);
}

AC_TEST(failureLeavesTheArray) {
  int64_t *a = NULL;
  intptr_t cap = 0;
  CHECK(acArrayGrow((void **)&a, &cap, 3, sizeof *a));
  a[0] = 7;
  intptr_t capBefore = cap;
  int64_t *before = a;
  acAllocFailAfter(1);
  CHECK(!acArrayGrow((void **)&a, &cap, capBefore + 1, sizeof *a));
  acAllocFailAfter(0);
  CHECK(a == before && cap == capBefore && a[0] == 7);
  /* A size past SIZE_MAX (or a capacity past INTPTR_MAX) is refused
   * without an allocation. */
  CHECK(!acArrayGrow((void **)&a, &cap, INTPTR_MAX / 4, sizeof *a));
  CHECK(!acArrayGrow((void **)&a, &cap, INTPTR_MAX, sizeof *a));
  CHECK(!acArrayGrow((void **)&a, &cap, INTPTR_MAX / 2 + 2, 1));
  CHECK(a == before && cap == capBefore && a[0] == 7);
  acFree(a);
}

AC_TEST(strBufReserveKeepsTextAndAvoidsGrowth) {
  AcStrBuf b = {0};
  CHECK(acStrBufReserve(&b, 100) == 0);
  CHECK(b.cap >= 100 && b.len == 0 && b.data && b.data[0] == '\0');
  char *before = b.data;
  for (int i = 0; i < 9; ++i)
    acStrBufAppend(&b, "0123456789", 10); /* 90 bytes + NUL: fits */
  CHECK(b.data == before && b.len == 90 && !b.failed);
  CHECK(acStrBufReserve(&b, 50) == 0); /* smaller: nothing changes */
  CHECK(b.data == before && b.len == 90);
  CHECK(acStrBufReserve(&b, 4096) == 0);
  CHECK(b.len == 90 && b.cap >= 4096 && memcmp(b.data, "0123456789", 10) == 0 &&
        b.data[90] == '\0');
  acStrBufClear(&b);
}

int main(void) {
  RUN(growsFromEmptyAndKeepsContents);
  RUN(failureLeavesTheArray);
  RUN(strBufReserveKeepsTextAndAvoidsGrowth);
  return acTestSummary("support");
}
