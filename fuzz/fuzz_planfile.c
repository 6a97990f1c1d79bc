/* fuzz_planfile.c - libFuzzer target for acPlanFileRead (--ac-plan-in).
 *
 * A small two-function joint graph is built once with acGraphBuilder; each
 * input is written to a temporary file and read as a plan for it.  When the
 * read succeeds the plan is derived, and when that succeeds it is written
 * back with acPlanFileToString and read again: the round trip must succeed
 * and give the same saved set.  Findings: a crash, a leak, UB; a status
 * outside ok / invalid (read) or ok / invalid / infeasible (derive); a
 * failed or different round trip.
 *
 * AUTOAC_FUZZ_WRITE_SEEDS=DIR writes seed plan files for this graph to DIR
 * and exits (how fuzz/corpus/fuzz_planfile was made). */
#include "autoac/plan.h"
#include "autoac/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static AcGraph *graph;
static char **names;
static char path[64];

static AcId addOp(AcGraphBuilder *b, const char *name, const AcId *in, int n,
                  int results, int64_t bytes, AcOpKind kind, int recomputable) {
  int64_t rb[3] = {bytes, bytes, bytes};
  AcId op = acGraphBuilderAddOp(b, name, in, n, results, rb);
  if (op == AC_NONE)
    abort();
  AcOp *o = acGraphBuilderOp(b, op);
  o->kind = (uint8_t)kind;
  o->recomputable = (uint8_t)recomputable;
  o->flops = (double)bytes;
  o->seconds = (double)bytes * 1e-9;
  return op;
}

static AcId res(AcGraphBuilder *b, AcId op, int r) {
  return acGraphBuilderOp(b, op)->firstResult + r;
}

/* f: x, w (param), dy (tangent)
 *   %0 = mm(x, w)  %1 = relu(%0)  %2:2 = norm(%1)  %3 = t(w) (view)
 *   %4 = bernoulli_(%2#0)  %5 = sum(%4) -> output
 *   %6 = mul(dy, %4)  %7 = mm(%6, %3)  %8 = f(%7, %2#1, %1) -> grad
 * g: a, da (tangent)
 *   %0 = exp(a)  %1 = sin(%0)  %2 = sum(%1) -> output
 *   %3 = mul(da, %1)  %4 = mul(%3, %0) -> grad */
static void buildGraph(void) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  AcError err;
  if (!b)
    abort();
  acGraphBuilderAddFunc(b, "f");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 64);
  AcId w = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 64);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId mm = addOp(b, "torch.aten.mm", (AcId[]){x, w}, 2, 1, 64, AC_KIND_MATMUL, 1);
  acGraphBuilderOp(b, mm)->computeIntensive = 1;
  AcId v0 = res(b, mm, 0);
  AcId v1 = res(b, addOp(b, "torch.aten.relu", &v0, 1, 1, 64, AC_KIND_ELEMENTWISE, 1), 0);
  AcId n2 = addOp(b, "torch.aten.native_layer_norm", &v1, 1, 2, 64, AC_KIND_REDUCTION, 1);
  AcId v3 = res(b, addOp(b, "torch.aten.t", &w, 1, 1, 0, AC_KIND_VIEW, 1), 0);
  acGraphBuilderSetAlias(b, v3, w);
  AcId v4 = res(b, addOp(b, "torch.aten.bernoulli_.float", (AcId[]){res(b, n2, 0)}, 1, 1, 64,
                         AC_KIND_RANDOM, 0), 0);
  AcId v5 = res(b, addOp(b, "torch.aten.sum", &v4, 1, 1, 4, AC_KIND_REDUCTION, 1), 0);
  acGraphBuilderAddRet(b, v5, AC_RET_OUTPUT);
  AcId v6 = res(b, addOp(b, "torch.aten.mul.Tensor", (AcId[]){dy, v4}, 2, 1, 64,
                         AC_KIND_ELEMENTWISE, 1), 0);
  AcId v7 = res(b, addOp(b, "torch.aten.mm", (AcId[]){v6, v3}, 2, 1, 64, AC_KIND_MATMUL, 1), 0);
  AcId v8 = res(b, addOp(b, "foo.grad", (AcId[]){v7, res(b, n2, 1), v1}, 3, 1, 64,
                         AC_KIND_UNKNOWN, 0), 0);
  acGraphBuilderAddRet(b, v8, AC_RET_GRAD);

  acGraphBuilderAddFunc(b, "g");
  AcId a = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 32);
  AcId da = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId u0 = res(b, addOp(b, "math.exp", &a, 1, 1, 32, AC_KIND_ELEMENTWISE, 1), 0);
  AcId u1 = res(b, addOp(b, "math.sin", &u0, 1, 1, 32, AC_KIND_ELEMENTWISE, 1), 0);
  AcId u2 = res(b, addOp(b, "torch.aten.sum", &u1, 1, 1, 4, AC_KIND_REDUCTION, 1), 0);
  acGraphBuilderAddRet(b, u2, AC_RET_OUTPUT);
  AcId u3 = res(b, addOp(b, "arith.mulf", (AcId[]){da, u1}, 2, 1, 32, AC_KIND_ELEMENTWISE, 1), 0);
  AcId u4 = res(b, addOp(b, "arith.mulf", (AcId[]){u3, u0}, 2, 1, 32, AC_KIND_ELEMENTWISE, 1), 0);
  acGraphBuilderAddRet(b, u4, AC_RET_GRAD);
  if (acGraphBuilderFinish(b, &graph, &err) != AC_OK) {
    fprintf(stderr, "fuzz_planfile: %s\n", err.message);
    abort();
  }
  acGraphBuilderDestroy(b);

  /* Names as the importer gives them: %argN, %N, %N#k, per function. */
  names = calloc((size_t)graph->numValues, sizeof *names);
  if (!names)
    abort();
  for (AcId f = 0; f < graph->numFuncs; ++f) {
    const AcFunc *fn = &graph->funcs[f];
    for (int32_t i = 0; i < fn->numArgs; ++i) {
      names[fn->firstArg + i] = malloc(16);
      snprintf(names[fn->firstArg + i], 16, "%%arg%d", i);
    }
    for (int32_t i = 0; i < fn->numOps; ++i) {
      const AcOp *op = &graph->ops[fn->firstOp + i];
      for (int32_t r = 0; r < op->numResults; ++r) {
        char *s = malloc(24);
        if (op->numResults == 1)
          snprintf(s, 24, "%%%d", i);
        else
          snprintf(s, 24, "%%%d#%d", i, r);
        names[op->firstResult + r] = s;
      }
    }
  }
}

static void writeSeeds(const char *dir) {
  AcPlan *plan = acPlanCreate(graph);
  AcError err;
  char file[4096];
  acPlanSaveAll(graph, plan);
  if (acPlanDerive(graph, plan, &err) != AC_OK)
    abort();
  char *text = acPlanFileToString(graph, (const char *const *)names, plan);
  snprintf(file, sizeof file, "%s/save-all.json", dir);
  acWriteFileAtomic(file, text, strlen(text), &err);
  acFree(text);
  memset(plan->saved, 0, (size_t)plan->numValues);
  plan->saved[graph->funcs[0].firstArg + 5] = 1; /* %2#0 in f */
  text = acPlanFileToString(graph, (const char *const *)names, plan);
  snprintf(file, sizeof file, "%s/one.json", dir);
  acWriteFileAtomic(file, text, strlen(text), &err);
  acFree(text);
  acPlanDestroy(plan);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  buildGraph();
  const char *seeds = getenv("AUTOAC_FUZZ_WRITE_SEEDS");
  if (seeds) {
    writeSeeds(seeds);
    exit(0);
  }
  char dir[] = "/tmp/autoac-fuzz-XXXXXX";
  if (!mkdtemp(dir))
    abort();
  snprintf(path, sizeof path, "%s/plan.json", dir);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f)
    abort();
  if (fwrite(data, 1, size, f) != size)
    abort();
  fclose(f);
  AcPlan *plan = acPlanCreate(graph), *again = acPlanCreate(graph);
  AcError err;
  acErrorClear(&err);
  if (!plan || !again)
    abort();
  AcStatus st = acPlanFileRead(graph, (const char *const *)names, path, plan, &err);
  if (st != AC_OK && st != AC_ERR_INVALID)
    abort();
  if (st == AC_OK) {
    st = acPlanDerive(graph, plan, &err);
    if (st != AC_OK && st != AC_ERR_INVALID && st != AC_ERR_INFEASIBLE)
      abort();
  }
  if (st == AC_OK) {
    char *text = acPlanFileToString(graph, (const char *const *)names, plan);
    if (!text)
      abort();
    f = fopen(path, "wb");
    if (!f || fwrite(text, 1, strlen(text), f) != strlen(text))
      abort();
    fclose(f);
    acFree(text);
    if (acPlanFileRead(graph, (const char *const *)names, path, again, &err) != AC_OK ||
        acPlanDerive(graph, again, &err) != AC_OK ||
        memcmp(plan->saved, again->saved, (size_t)plan->numValues) != 0) {
      fprintf(stderr, "fuzz_planfile: round trip failed: %s\n", err.message);
      abort();
    }
  }
  acPlanDestroy(plan);
  acPlanDestroy(again);
  return 0;
}
