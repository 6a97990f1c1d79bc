/* fuzz_size.c - libFuzzer target for acParseSize (budget and reserve text).
 *
 * Findings: a crash or UB; a status other than ok / invalid; a negative
 * result; an error message not NUL-terminated; a plain decimal integer of at
 * most 18 digits (optionally with a unit) that does not give its exact
 * value. */
#include "autoac/cost.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  int64_t v = -7;
  AcError err;
  acErrorClear(&err);
  AcStatus st = acParseSize(text, &v, &err);
  if (st != AC_OK && st != AC_ERR_INVALID)
    abort();
  if (st == AC_OK && v < 0)
    abort();
  if (st != AC_OK && (v != 0 || !memchr(err.message, '\0', sizeof err.message) ||
                      err.message[0] == '\0'))
    abort();
  /* Oracle: digits [unit] -> exact. */
  size_t n = 0;
  while (n < size && text[n] >= '0' && text[n] <= '9')
    ++n;
  if (n > 0 && n <= 18 && n == strlen(text)) {
    if (st != AC_OK || v != strtoll(text, NULL, 10))
      abort();
  }
  if (n > 0 && n <= 9 && size == n + 3 && !strcmp(text + n, "KiB")) {
    if (st != AC_OK || v != strtoll(text, NULL, 10) * 1024)
      abort();
  }
  /* Without an error record or an output, never a crash. */
  acParseSize(text, &v, NULL);
  acParseSize(text, NULL, NULL);
  free(text);
  return 0;
}
