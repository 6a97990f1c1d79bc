/* test_poly.c - sizes as polynomials (graph/poly.h) and the peak formula
 * (simulate/formula.h): canonical sums, evaluation, printing, overflow,
 * the type parser's dynamic variant;
 * and the formula against the simulator run on the graph with every
 * value's bytes evaluated at random sizes (brute force), on random graphs,
 * plans, schedules and workspaces. */
#include "autoac/cost.h"
#include "graph/poly.h"
#include "plan_testkit.h"
#include "simulate/formula.h"

static AcMono mono(int64_t c, int n, const int32_t *syms) {
  AcMono m;
  memset(&m, 0, sizeof m);
  m.coef = c;
  for (int i = 0; i < n; ++i)
    acMonoMulSym(&m, syms[i]);
  return m;
}

AC_TEST(polyCanonical) {
  AcPoly p = {0}, q = {0};
  AcMono ab = mono(4096, 2, (int32_t[]){1, 0});
  AcMono ba = mono(10, 2, (int32_t[]){0, 1});
  AcMono k = mono(7, 0, NULL);
  AcMono a2 = mono(3, 2, (int32_t[]){0, 0});
  CHECK(acPolyAddMono(&p, &ab, 1) == AC_OK);
  CHECK(acPolyAddMono(&p, &k, 2) == AC_OK);
  CHECK(acPolyAddMono(&p, &ba, 1) == AC_OK); /* like term: merged */
  CHECK(acPolyAddMono(&p, &a2, 1) == AC_OK);
  CHECK_EQ_I64(p.num, 3);
  const char *names[] = {"arg0.0", "arg0.1"};
  char *s = acPolyToString(&p, names);
  CHECK(s && strcmp(s, "4106*arg0.0*arg0.1 + 3*arg0.0^2 + 14") == 0);
  if (s)
    printf("  %s\n", s);
  acFree(s);
  /* Same terms added in another order: the same list. */
  CHECK(acPolyAddMono(&q, &a2, 1) == AC_OK);
  CHECK(acPolyAddMono(&q, &ba, 1) == AC_OK);
  CHECK(acPolyAddMono(&q, &k, 2) == AC_OK);
  CHECK(acPolyAddMono(&q, &ab, 1) == AC_OK);
  CHECK_EQ_I64(q.num, p.num);
  for (intptr_t i = 0; i < p.num && i < q.num; ++i)
    CHECK(acMonoCmp(&p.terms[i], &q.terms[i]) == 0 &&
          p.terms[i].coef == q.terms[i].coef);
  /* p - q is zero (the empty list). */
  CHECK(acPolyAdd(&p, &q, -1) == AC_OK);
  CHECK_EQ_I64(p.num, 0);
  s = acPolyToString(&p, names);
  CHECK(s && strcmp(s, "0") == 0);
  acFree(s);
  acPolyClear(&p);
  acPolyClear(&q);
}

AC_TEST(polyEvalAndOverflow) {
  AcPoly p = {0};
  AcMono ab = mono(4, 2, (int32_t[]){0, 1});
  AcMono c = mono(100, 0, NULL);
  CHECK(acPolyAddMono(&p, &ab, 1) == AC_OK);
  CHECK(acPolyAddMono(&p, &c, 1) == AC_OK);
  int64_t v;
  CHECK(acPolyEval(&p, (int64_t[]){8, 16}, &v) == 0);
  CHECK_EQ_I64(v, 4 * 8 * 16 + 100);
  CHECK(acPolyEval(&p, (int64_t[]){INT64_C(1) << 40, INT64_C(1) << 40}, &v) == -1);
  CHECK_EQ_I64(v, INT64_MAX);
  /* A coefficient overflow leaves p unchanged. */
  AcMono big = mono(INT64_MAX, 0, NULL);
  CHECK(acPolyAddMono(&p, &big, 1) == AC_ERR_INVALID);
  CHECK(acPolyEval(&p, (int64_t[]){8, 16}, &v) == 0);
  CHECK_EQ_I64(v, 4 * 8 * 16 + 100);
  /* Degree past the bound refused. */
  AcMono m = mono(1, 0, NULL);
  int ok = 1;
  for (int i = 0; i < AC_POLY_MAX_DEG; ++i)
    ok &= acMonoMulSym(&m, i % 2) == 0;
  CHECK(ok);
  CHECK(acMonoMulSym(&m, 0) == -1);
  acPolyClear(&p);
}

/* Random sizes: every value a random monomial in 2 symbols (its graph bytes
 * the value at the bounds); the formula at random sizes against acSimulate
 * on a copy of the graph with bytes evaluated there. */
AC_TEST(formulaMatchesSimulator) {
  const int64_t bounds[2] = {64, 48};
  int plans = 0, mismatches = 0;
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 3 == 0),
                            1 + (int)(seed % 4 == 1), 12, 9);
    CHECK(g != NULL);
    if (!g)
      continue;
    if (seed % 2 == 0)
      tkWorkspaces(g, seed, 30);
    g->gradMode = (AcGradMode)(seed % 3);
    uint64_t rs = seed * 7 + 3;
    AcPoly *vb = acCalloc((size_t)g->numValues + 1, sizeof *vb);
    AcValue *orig = acMalloc(((size_t)g->numValues + 1) * sizeof *orig);
    memcpy(orig, g->values, (size_t)g->numValues * sizeof *orig);
    for (AcId v = 0; v < g->numValues; ++v) {
      if (g->values[v].bytes == 0)
        continue;
      int kind = tkRand(&rs, 4); /* const, s0, s1, s0*s1 */
      AcMono m = mono(1 + tkRand(&rs, 9), 0, NULL);
      if (kind & 1)
        acMonoMulSym(&m, 0);
      if (kind & 2)
        acMonoMulSym(&m, 1);
      acPolyAddMono(&vb[v], &m, 1);
      int64_t at;
      acPolyEval(&vb[v], bounds, &at);
      g->values[v].bytes = at;
    }
    AcPlan *p = acPlanCreate(g);
    for (int k = 0; k < 3; ++k) {
      int ok = k == 0 ? (acPlanSaveAll(g, p), acPlanDerive(g, p, NULL) == AC_OK)
                      : tkRandomPlan(g, &rs, 40 * k, p);
      if (!ok)
        continue;
      AcError err;
      AcSimFormula *f = NULL;
      if (acSimFormulaCreate(g, p, vb, 1.0, 16, &f, &err) != AC_OK) {
        CHECK(0);
        printf("  seed %d: %s\n", (int)seed, err.message);
        continue;
      }
      ++plans;
      for (int t = 0; t < 4; ++t) {
        int64_t sz[2] = {t == 0 ? bounds[0] : 1 + tkRand(&rs, (int)bounds[0]),
                         t == 0 ? bounds[1] : 1 + tkRand(&rs, (int)bounds[1])};
        AcGraph gs = *g;
        AcValue *vals = acMalloc(((size_t)g->numValues + 1) * sizeof *vals);
        memcpy(vals, g->values, (size_t)g->numValues * sizeof *vals);
        for (AcId v = 0; v < g->numValues; ++v)
          if (vb[v].num)
            acPolyEval(&vb[v], sz, &vals[v].bytes);
        gs.values = vals;
        AcSimResult r;
        int64_t stat = acSimStaticBytes(&gs, 1.0, 16);
        CHECK(acSimulate(&gs, p, stat, 0, &r, &err) == AC_OK);
        intptr_t at = -1;
        int64_t fp = acSimFormulaPeakAt(f, sz, &at);
        if (fp != r.peakBytes) {
          ++mismatches;
          printf("  seed %d plan %d sizes %lld,%lld: formula %lld sim %lld\n",
                 (int)seed, k, (long long)sz[0], (long long)sz[1],
                 (long long)fp, (long long)r.peakBytes);
        }
        /* The polynomial of the peak step evaluates to the peak. */
        AcPoly atPeak = {0};
        int64_t ev = -1;
        CHECK(acSimFormulaAtStep(f, at, &atPeak) == AC_OK);
        acPolyEval(&atPeak, sz, &ev);
        CHECK_EQ_I64(ev, fp);
        acPolyClear(&atPeak);
        acSimResultClear(&r);
        acFree(vals);
      }
      acSimFormulaDestroy(f);
    }
    acPlanDestroy(p);
    for (AcId v = 0; v < g->numValues; ++v)
      acPolyClear(&vb[v]);
    acFree(vb);
    acFree(orig);
    acGraphDestroy(g);
  }
  CHECK_EQ_I64(mismatches, 0);
  CHECK(plans > 200);
  printf("  %d plans checked\n", plans);
}

/* The type parser's dynamic variant: `?` and torch's -1 are AC_DIM_DYNAMIC,
 * the static parser still refuses them, bad text is still refused. */
AC_TEST(typeParseDynamic) {
  AcTensorType t;
  AcError err;
  const char *a = "!torch.vtensor<[?,-1,3],f16>";
  CHECK(acTypeParseTorchDynamic(a, strlen(a), &t, &err) == AC_OK);
  CHECK(t.isTensor && t.rank == 3 && t.elemBits == 16);
  CHECK(t.dims[0] == AC_DIM_DYNAMIC && t.dims[1] == AC_DIM_DYNAMIC && t.dims[2] == 3);
  CHECK(acTypeParseTorch(a, strlen(a), &t, &err) == AC_ERR_INVALID);
  const char *b = "tensor<?x4x?xf32>";
  CHECK(acTypeParseTorchDynamic(b, strlen(b), &t, &err) == AC_OK);
  CHECK(t.rank == 3 && t.dims[0] == AC_DIM_DYNAMIC && t.dims[1] == 4 &&
        t.dims[2] == AC_DIM_DYNAMIC);
  const char *c = "!torch.vtensor<[?,-2],f32>"; /* other negatives: refused */
  CHECK(acTypeParseTorchDynamic(c, strlen(c), &t, &err) == AC_ERR_INVALID);
  const char *d = "tensor<?x?>"; /* no element type */
  CHECK(acTypeParseTorchDynamic(d, strlen(d), &t, &err) == AC_ERR_INVALID);
  /* the static dims still checked for overflow, the dynamic ones as 1 */
  const char *e = "!torch.vtensor<[?,4611686018427387904,4],f32>";
  CHECK(acTypeParseTorchDynamic(e, strlen(e), &t, &err) == AC_ERR_INVALID);
}

int main(void) {
  RUN(typeParseDynamic);
  RUN(polyCanonical);
  RUN(polyEvalAndOverflow);
  RUN(formulaMatchesSimulator);
  return acTestSummary("poly");
}
