/* test_import_order.c - the import's reorder against a real re-import.
 *
 * When the import sinks backward views and constants (lib/import/normalize.c),
 * it does not read the moved IR again: it puts its first graph in the new
 * order (acGraphReorderOps) and its per-op and per-value arrays with it.
 * This test checks that shortcut against the straightforward way: the
 * module the import left (ops moved) is imported again from the IR, and the
 * two imports must be identical: every op, value, operand, use, return,
 * schedule entry, function, op name, IR handle and unknown-op entry.  The
 * first import's value names must be those the input printed before any
 * move.  Inputs: the .mlir files of examples/corpus and random joint functions (torch
 * ops, forward then backward, with backward views and constants that sink,
 * multi-result ops, ops unknown to the cost model, several functions). */
#include "autoac/autoac.h"
#include "import/import.h"
#include "support/ptrmap.h"
#include "../../tools/common/read_file.h"
#include "../unit/graph_testkit.h"

#include "mlir-c/IR.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef AUTOAC_SOURCE_DIR
#define AUTOAC_SOURCE_DIR "."
#endif

static int failures = 0;

#define EXPECT(cond, ...)                                                      \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "test_import_order: %s: ", what);                       \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                    \
      ++failures;                                                              \
      return;                                                                  \
    }                                                                          \
  } while (0)

static void append(MlirStringRef s, void *user) {
  acStrBufAppend((AcStrBuf *)user, s.data, s.length);
}

/* Field by field: `a` (reordered) against `b` (imported from the IR). */
static void compareImports(const char *what, const AcImport *a, const AcImport *b) {
  const AcGraph *x = a->graph;
  char msg[512];
  EXPECT(!acGraphDiff(x, b->graph, msg, sizeof msg), "%s", msg);
  for (intptr_t o = 0; o < x->numOps; ++o)
    EXPECT(a->ops[o].ptr == b->ops[o].ptr, "op %ld is another IR op", (long)o);
  for (intptr_t v = 0; v < x->numValues; ++v)
    EXPECT(a->values[v].ptr == b->values[v].ptr, "value %ld is another IR value",
           (long)v);
  for (intptr_t f = 0; f < x->numFuncs; ++f)
    EXPECT(a->funcOps[f].ptr == b->funcOps[f].ptr &&
               a->returnOps[f].ptr == b->returnOps[f].ptr,
           "function %ld is another IR op", (long)f);
  EXPECT(a->numUnknownOps == b->numUnknownOps, "unknown-op lists differ in length");
  for (intptr_t i = 0; i < a->numUnknownOps; ++i) {
    const AcUnknownOp *p = &a->unknownOps[i], *q = &b->unknownOps[i];
    EXPECT(strcmp(p->name, q->name) == 0 && p->count == q->count &&
               p->firstOp == q->firstOp && p->recomputable == q->recomputable &&
               strcmp(p->location, q->location) == 0,
           "unknown-op entry %ld differs", (long)i);
  }
}

/* Every value of the joint functions of `module` -> its name as printed
 * now (names[i] for the i-th value met; map: value -> i). */
static void nameValues(MlirOperation module, AcPtrMap *map, AcStrBuf *names,
                       intptr_t **offsets, intptr_t *n) {
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  intptr_t cap = 0;
  for (MlirOperation f = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    if (mlirBlockIsNull(b))
      continue;
    MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
    MlirAsmState state = mlirAsmStateCreateForOperation(f, flags);
    intptr_t nargs = mlirBlockGetNumArguments(b);
    for (intptr_t i = -nargs;; ++i) {
      MlirOperation op = {NULL};
      intptr_t nres = 1;
      if (i >= 0) {
        op = mlirBlockGetFirstOperation(b);
        for (intptr_t k = 0; k < i && !mlirOperationIsNull(op); ++k)
          op = mlirOperationGetNextInBlock(op);
        if (mlirOperationIsNull(op))
          break;
        nres = mlirOperationGetNumResults(op);
      }
      for (intptr_t r = 0; r < nres; ++r) {
        MlirValue v = i < 0 ? mlirBlockGetArgument(b, nargs + i)
                            : mlirOperationGetResult(op, r);
        if (!acArrayGrow((void **)offsets, &cap, *n + 1, sizeof **offsets))
          abort();
        (*offsets)[*n] = (intptr_t)names->len;
        mlirValuePrintAsOperand(v, state, append, names);
        acStrBufAppend(names, "", 1); /* keep the NUL */
        names->len++;
        if (acPtrMapPut(map, v.ptr, (int32_t)*n) != AC_OK)
          abort();
        ++*n;
      }
    }
    mlirAsmStateDestroy(state);
    mlirOpPrintingFlagsDestroy(flags);
  }
}

/* Imports `text` (sinking may move ops), imports the moved module again and
 * compares.  Returns 1 when the first import moved ops. */
static int checkText(const char *what, const char *text, size_t len) {
  MlirContext ctx = acContextCreate();
  MlirOperation m = acParseModule(ctx, text, len, what);
  const AcDevice *dev = acDeviceLookup("a100");
  AcImport *a = NULL, *b = NULL;
  AcError err;
  AcPtrMap map = {0};
  AcStrBuf names = {0};
  intptr_t *offsets = NULL, n = 0;
  int moved = 0;
  if (mlirOperationIsNull(m)) {
    fprintf(stderr, "test_import_order: %s: cannot parse\n", what);
    ++failures;
    goto cleanup;
  }
  /* Quadratic walk for names: fine at these sizes. */
  nameValues(m, &map, &names, &offsets, &n);
  AcStrBuf before = {0}, after = {0};
  mlirOperationPrint(m, append, &before);
  if (acImportModuleFlags(m, dev, NULL, AC_IMPORT_NAMES, &a, &err, NULL) != AC_OK) {
    fprintf(stderr, "test_import_order: %s: import failed: %s\n", what, err.message);
    ++failures;
    goto cleanup2;
  }
  mlirOperationPrint(m, append, &after);
  moved = strcmp(before.data, after.data) != 0;
  if (acImportModuleFlags(m, dev, NULL, 0, &b, &err, NULL) != AC_OK) {
    fprintf(stderr, "test_import_order: %s: re-import failed: %s\n", what,
            err.message);
    ++failures;
    goto cleanup2;
  }
  compareImports(what, a, b);
  for (intptr_t v = 0; v < a->graph->numValues; ++v) {
    int32_t i = acPtrMapGet(&map, a->values[v].ptr);
    if (i == AC_NONE || strcmp(a->valueNames[v], names.data + offsets[i]) != 0) {
      fprintf(stderr, "test_import_order: %s: value %ld is named '%s', "
              "printed '%s' in the input\n", what, (long)v, a->valueNames[v],
              i == AC_NONE ? "?" : names.data + offsets[i]);
      ++failures;
      break;
    }
  }
cleanup2:
  acStrBufClear(&before);
  acStrBufClear(&after);
cleanup:
  acImportDestroy(a);
  acImportDestroy(b);
  acPtrMapClear(&map);
  acStrBufClear(&names);
  free(offsets);
  if (!mlirOperationIsNull(m))
    mlirOperationDestroy(m);
  mlirContextDestroy(ctx);
  return moved;
}

/* xorshift: the same modules on every run. */
static uint64_t rngState;
static unsigned rnd(unsigned n) {
  rngState ^= rngState << 13;
  rngState ^= rngState >> 7;
  rngState ^= rngState << 17;
  return (unsigned)(rngState % n);
}

#define T "!torch.vtensor<[8,8],f32>"

/* Appends `%v<v> = "torch.aten.<name>"(a[, b][, %one])` on T tensors. */
static void emitOp(AcStrBuf *s, int v, const char *name, const char *a,
                   const char *b, int withOne) {
  char line[512];
  snprintf(line, sizeof line, "    %%v%d = \"torch.aten.%s\"(%s%s%s%s) : (" T "%s%s) -> " T "\n",
           v, name, a, b ? ", " : "", b ? b : "", withOne ? ", %one" : "",
           b ? ", " T : "", withOne ? ", !torch.int" : "");
  acStrBufAppend(s, line, strlen(line));
}

/* One random joint function `@f<k>`: a forward over the inputs, then a
 * backward whose first ops are views (detach, t) of forward values and
 * constants, read anywhere later, with some unknown ops and a
 * three-result op. */
static void genFunc(AcStrBuf *s, int k, int numFwd, int numBwd) {
  char line[512];
  /* values: %a0 (input), %a1 (param), %a2 (tangent), %v<i> */
  snprintf(line, sizeof line,
           "  func.func @f%d(%%a0: " T ", %%a1: " T " {ac.param}, %%a2: " T
           " {ac.tangent}) -> (" T " {ac.output}, " T ") attributes {ac.joint} {\n"
           "    %%one = \"torch.constant.int\"() {value = 1 : i64} : () -> !torch.int\n",
           k);
  acStrBufAppend(s, line, strlen(line));
  int v = 0, firstBwd;
  for (; v < numFwd; ++v) {
    char a[16], b[16];
    int pa = v ? (int)rnd((unsigned)v) : -1, pb = v ? (int)rnd((unsigned)v) : -1;
    snprintf(a, sizeof a, pa < 0 ? "%%a0" : "%%v%d", pa);
    snprintf(b, sizeof b, rnd(3) == 0 || pb < 0 ? "%%a1" : "%%v%d", pb);
    static const char *const fwd[] = {"mm", "relu", "add.Tensor", "t", "mystery_op"};
    unsigned k = rnd(5);
    emitOp(s, v, fwd[k], a, k == 0 || k == 2 ? b : NULL, k == 2);
  }
  int out = v - 1;
  /* The backward: its first ops are views of forward values. */
  firstBwd = v;
  int numViews = numBwd / 3;
  for (int i = 0; i < numViews; ++i, ++v) {
    int from = rnd(2) && v > firstBwd ? firstBwd + (int)rnd((unsigned)(v - firstBwd))
                                      : (int)rnd((unsigned)firstBwd);
    snprintf(line, sizeof line, "    %%v%d = \"torch.aten.%s\"(%%v%d) : (" T ") -> " T "\n",
             v, rnd(2) ? "detach" : "t", from);
    acStrBufAppend(s, line, strlen(line));
  }
  char grad[16];
  snprintf(grad, sizeof grad, "%%a2");
  for (int i = 0; i < numBwd - numViews; ++i, ++v) {
    char a[16];
    int pa = firstBwd + (int)rnd((unsigned)(v - firstBwd));
    snprintf(a, sizeof a, "%%v%d", pa);
    unsigned k = rnd(5);
    line[0] = '\0';
    if (k == 1)
      snprintf(line, sizeof line,
               "    %%c%d = \"torch.constant.int\"() {value = 2 : i64} : () -> !torch.int\n"
               "    %%v%d = \"torch.aten.mul.Scalar\"(%s, %%c%d) : (" T ", !torch.int) -> " T "\n",
               v, v, grad, v);
    else if (k == 2)
      snprintf(line, sizeof line, "    %%v%d:3 = \"torch.aten.mystery_backward\"(%s, %s) : (" T
               ", " T ") -> (" T ", " T ", " T ")\n", v, grad, a);
    else
      emitOp(s, v, k == 0 ? "mm" : k == 3 ? "add.Tensor" : "threshold_backward", grad, a,
             k != 0);
    acStrBufAppend(s, line, strlen(line));
    if (strstr(line, ":3 ="))
      snprintf(grad, sizeof grad, "%%v%d#%u", v, rnd(3));
    else
      snprintf(grad, sizeof grad, "%%v%d", v);
  }
  snprintf(line, sizeof line, "    return %%v%d, %s : " T ", " T "\n  }\n", out, grad);
  acStrBufAppend(s, line, strlen(line));
}

int main(void) {
  /* The corpus. */
  const char *dir = AUTOAC_SOURCE_DIR "/examples/corpus";
  DIR *d = opendir(dir);
  int files = 0;
  if (!d) {
    fprintf(stderr, "test_import_order: cannot open %s\n", dir);
    return 1;
  }
  for (struct dirent *e; (e = readdir(d));) {
    size_t nl = strlen(e->d_name);
    if (nl < 5 || strcmp(e->d_name + nl - 5, ".mlir") != 0)
      continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    size_t len = 0;
    char *text = acToolReadFile(path, &len);
    if (!text) {
      fprintf(stderr, "test_import_order: cannot read %s\n", path);
      ++failures;
      continue;
    }
    checkText(e->d_name, text, len);
    free(text);
    ++files;
  }
  closedir(d);
  /* Random modules: one to three functions each. */
  int modules = 60, moved = 0;
  for (int i = 0; i < modules; ++i) {
    rngState = 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1);
    AcStrBuf s = {0};
    acStrBufAppend(&s, "module {\n", 9);
    int funcs = 1 + (int)rnd(3);
    for (int f = 0; f < funcs; ++f)
      genFunc(&s, f, 2 + (int)rnd(40), 3 + (int)rnd(60));
    acStrBufAppend(&s, "}\n", 3);
    char what[64];
    snprintf(what, sizeof what, "random module %d", i);
    moved += checkText(what, s.data, s.len);
    acStrBufClear(&s);
  }
  /* The shortcut is what is tested: most modules must have moved ops. */
  if (moved < modules * 3 / 4) {
    fprintf(stderr, "test_import_order: only %d of %d random modules moved ops\n",
            moved, modules);
    ++failures;
  }
  printf("test_import_order: %d corpus files, %d random modules (%d moved ops), "
         "%d failures\n", files, modules, moved, failures);
  return failures ? 1 : 0;
}
