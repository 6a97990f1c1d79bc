/* test_free.c - acFreeAtLastUse (auto-ac-free-at-last-use) under allocation
 * failures, and its statistics.
 *
 * Parses the bufferized module of test/lit/lower/free-at-last-use.mlir (the
 * whole file as one module), runs the pass once for reference, then for
 * N = 1, 2, ... on a fresh copy with the N-th allocation through the hook
 * and every later one failing, until a run no longer reaches N.  Every run
 * must return AC_OK or AC_ERR_NOMEM; on AC_OK the module must print exactly
 * as the reference; on AC_ERR_NOMEM it must still verify (the frees moved
 * so far are valid); nothing may leak (run under ASan).  The reference's
 * statistics are checked against the file's cases: frees moved, ac.owned
 * frees inserted, caller frees given away, arguments demoted. */
#include "autoac/autoac.h"
#include "support/testhooks.h"
#include "../../tools/common/read_file.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef AUTOAC_SOURCE_DIR
#define AUTOAC_SOURCE_DIR "."
#endif

static MlirLogicalResult quiet(MlirDiagnostic d, void *user) {
  (void)d;
  ++*(int *)user;
  return mlirLogicalResultSuccess();
}

static void append(MlirStringRef s, void *user) {
  acStrBufAppend((AcStrBuf *)user, s.data, s.length);
}

/// Parses, runs the pass (with injection at `failAt` if > 0), prints.
static AcStatus runOnce(MlirContext ctx, const char *text, size_t len,
                        int64_t failAt, AcFreeStats *stats, AcStrBuf *out,
                        int *verified, int64_t *made) {
  MlirOperation m = acParseModule(ctx, text, len, "free-at-last-use.mlir");
  if (mlirOperationIsNull(m)) {
    fprintf(stderr, "test_free: cannot parse the input\n");
    exit(1);
  }
  int64_t before = acAllocCount();
  if (failAt > 0)
    acAllocFailAfter(failAt);
  AcStatus st = acFreeAtLastUse(m, stats);
  acAllocFailAfter(0);
  *made = acAllocCount() - before;
  *verified = mlirOperationVerify(m);
  mlirOperationPrint(m, append, out);
  mlirOperationDestroy(m);
  return st;
}

int main(void) {
  const char *path = AUTOAC_SOURCE_DIR "/test/lit/lower/free-at-last-use.mlir";
  size_t len = 0;
  char *text = acToolReadFile(path, &len);
  if (!text) {
    fprintf(stderr, "test_free: cannot read %s\n", path);
    return 1;
  }
  MlirContext ctx = acContextCreate();
  mlirContextLoadAllAvailableDialects(ctx);
  int diags = 0;
  mlirContextAttachDiagnosticHandler(ctx, quiet, &diags, NULL);

  int failures = 0, verified = 0;
  int64_t made = 0;
  AcFreeStats ref;
  AcStrBuf refText = {0};
  if (runOnce(ctx, text, len, 0, &ref, &refText, &verified, &made) != AC_OK ||
      !verified) {
    fprintf(stderr, "test_free: the reference run failed\n");
    return 1;
  }
  /* The file's cases: moved frees in @chain (2), @views, @raw_views,
   * @captured, @yielded (2), @conditional, @unknown_alias, @fwd_bwd's
   * callee is an insertion not a move, @from_call (1); ac.owned frees in
   * @bwd, @unused_owned, @take_one and @take_pair (one for its group);
   * given away: @fwd_bwd, @from_call, @shared_results (its two frees);
   * joined: @take_pair's second argument; demoted: @take_first's. */
  if (ref.ownedFrees != 4 || ref.transferred != 4 || ref.demoted != 1 ||
      ref.joined != 1 || ref.movedFrees < 9) {
    fprintf(stderr, "test_free: statistics moved=%ld owned=%ld transferred=%ld "
            "demoted=%ld joined=%ld, expected moved>=9 owned=4 transferred=4 "
            "demoted=1 joined=1\n",
            (long)ref.movedFrees, (long)ref.ownedFrees, (long)ref.transferred,
            (long)ref.demoted, (long)ref.joined);
    ++failures;
  }

  int64_t n;
  int nomem = 0;
  for (n = 1;; ++n) {
    AcFreeStats st;
    AcStrBuf out = {0};
    AcStatus s = runOnce(ctx, text, len, n, &st, &out, &verified, &made);
    if (s == AC_OK) {
      if (!out.data || strcmp(out.data, refText.data) != 0) {
        fprintf(stderr, "test_free: N=%ld: success but a different module\n",
                (long)n);
        ++failures;
      }
    } else if (s == AC_ERR_NOMEM) {
      ++nomem;
      if (!verified) {
        fprintf(stderr, "test_free: N=%ld: out of memory left an invalid "
                "module\n", (long)n);
        ++failures;
      }
    } else {
      fprintf(stderr, "test_free: N=%ld: status %s\n", (long)n, acStatusName(s));
      ++failures;
    }
    acStrBufClear(&out);
    if (made < n || failures > 5)
      break; /* the run no longer reaches the N-th allocation */
  }
  if (nomem == 0) {
    fprintf(stderr, "test_free: no injected failure was reached\n");
    ++failures;
  }
  printf("test_free: %ld injection points, %d out-of-memory runs, %d failures\n",
         (long)n - 1, nomem, failures);
  acStrBufClear(&refText);
  free(text);
  mlirContextDestroy(ctx);
  return failures ? 1 : 0;
}
