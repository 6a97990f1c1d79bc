/* consumer.c - an outside program planning a module through the installed
 * public C entry acPlanMlirText.
 *
 * Usage: consumer FILE.mlir BUDGET EXPECTED_PEAK
 * Plans FILE at BUDGET (split mode), and exits 0 only if the call succeeds,
 * the report's "peak_bytes" equals EXPECTED_PEAK and the rewritten IR holds
 * the forward and backward functions; a bad option must fail with a message. */
#define _POSIX_C_SOURCE 200809L
#include <autoac/autoac.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *readAll(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      char *grown = realloc(buf, cap *= 2);
      if (!grown) {
        free(buf);
        buf = NULL;
      }
      buf = grown;
    }
  }
  fclose(f);
  *len = n;
  return buf;
}

static int fail(const char *what) {
  fprintf(stderr, "consumer: FAIL: %s\n", what);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 4)
    return fail("usage: consumer FILE.mlir BUDGET EXPECTED_PEAK");
  size_t len = 0;
  char *text = readAll(argv[1], &len);
  if (!text)
    return fail("cannot read the input");
  const char *names[] = {"budget", "mode"};
  const char *values[] = {argv[2], "split"};
  char *ir = NULL, *report = NULL, *errors = NULL;
  AcStatus st = acPlanMlirText(text, len, argv[1], names, values, 2, &ir,
                               &report, &errors);
  if (st != AC_OK) {
    fprintf(stderr, "%s: %s\n", acStatusName(st), errors ? errors : "");
    return fail("acPlanMlirText failed");
  }
  const char *peak = report ? strstr(report, "\"peak_bytes\"") : NULL;
  if (!peak)
    return fail("no peak_bytes in the report");
  peak = strchr(peak, ':');
  long long got = peak ? strtoll(peak + 1, NULL, 10) : -1;
  long long want = strtoll(argv[3], NULL, 10);
  if (got != want) {
    fprintf(stderr, "consumer: peak_bytes %lld, expected %lld\n", got, want);
    return fail("wrong peak");
  }
  if (!ir || !strstr(ir, "_fwd") || !strstr(ir, "_bwd"))
    return fail("the rewritten IR lacks the forward/backward functions");
  printf("consumer: peak_bytes %lld\n", got);
  acFree(ir);
  acFree(report);
  acFree(errors);

  /* A bad option is refused with a message naming it. */
  const char *badName[] = {"strategy"}, *badValue[] = {"no-such-strategy"};
  errors = NULL;
  st = acPlanMlirText(text, len, argv[1], badName, badValue, 1, NULL, NULL,
                      &errors);
  if (st == AC_OK || !errors || !strstr(errors, "no-such-strategy"))
    return fail("a bad strategy was not refused with a message");
  acFree(errors);
  free(text);
  printf("consumer: ok\n");
  return 0;
}
