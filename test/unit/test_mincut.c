/* test_mincut.c - the min-cut save set on small joint graphs, a brute force
 * over random DAGs, errors, allocation failures and scale. */
#include "partition/partition.h"

#include "actest.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Wall-clock limits for the scale tests (debug build); sanitizers slow
   things down about threefold. */
#if defined(__SANITIZE_ADDRESS__)
#define AC_SLOWDOWN 3.0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AC_SLOWDOWN 3.0
#endif
#endif
#ifndef AC_SLOWDOWN
#define AC_SLOWDOWN 1.0
#endif
/* Seconds a scale test may take: a guard against superlinear blow-ups, not
   a speed target (bench/ measures speed); loose for a loaded machine. */
#define AC_SCALE_LIMIT 10.0

/* Op flags for the helpers. */
enum {
  R = 1,      /* recomputable */
  CI = 2,     /* compute-intensive (matmul) */
  SAVE = 4,   /* ac.save */
  RECOMP = 8, /* ac.recompute */
  RAND = 16   /* random op (kind RANDOM, not recomputable) */
};

/* Adds an op with one result of `bytes`; returns the result value id. */
static AcId op(AcGraphBuilder *b, const char *name, int n, const AcId *args,
               int64_t bytes, unsigned flags) {
  AcId o = acGraphBuilderAddOp(b, name, args, n, 1, &bytes);
  if (o == AC_NONE)
    return AC_NONE;
  AcOp *p = acGraphBuilderOp(b, o);
  p->recomputable = (flags & R) != 0;
  p->computeIntensive = (flags & CI) != 0;
  p->mustSave = (flags & SAVE) != 0;
  p->mustRecompute = (flags & RECOMP) != 0;
  p->kind = flags & RAND  ? AC_KIND_RANDOM
            : flags & CI  ? AC_KIND_MATMUL
            : flags & R   ? AC_KIND_ELEMENTWISE
                          : AC_KIND_UNKNOWN;
  return p->firstResult;
}
#define OP(b, name, bytes, flags, ...)                                         \
  op((b), (name), (int)(sizeof((AcId[]){__VA_ARGS__}) / sizeof(AcId)),         \
     (AcId[]){__VA_ARGS__}, (bytes), (flags))

static AcGraph *finish(AcGraphBuilder *b) {
  AcGraph *g = NULL;
  AcError err;
  acErrorClear(&err);
  AcStatus st = acGraphBuilderFinish(b, &g, &err);
  if (st != AC_OK)
    printf("  builder: %s\n", err.message);
  acGraphBuilderDestroy(b);
  return g;
}

/* The rules of the min-cut model, restated independently. */
static int banned(const AcOp *o) {
  return o->mustSave ||
         (!o->mustRecompute && (!o->recomputable || o->computeIntensive));
}
static int cuttable(const AcGraph *g, AcId v) {
  const AcValue *val = &g->values[v];
  if (val->role != AC_ROLE_RESULT || val->phase != AC_PHASE_FWD)
    return 0;
  const AcOp *o = &g->ops[val->producer];
  if (o->mustRecompute)
    return 0;
  if (val->aliasRoot != v || val->bytes == 0)
    return banned(o);
  return 1;
}
/* Memory the model charges for saving v. */
static int64_t saveCost(const AcGraph *g, AcId v) {
  const AcValue *val = &g->values[v];
  if (val->aliasRoot != v) {
    const AcValue *root = &g->values[val->aliasRoot];
    return root->role == AC_ROLE_RESULT ? root->bytes : 0;
  }
  return val->bytes;
}
static int64_t totalCost(const AcGraph *g, const uint8_t *saved) {
  int64_t sum = 0;
  for (intptr_t v = 0; v < g->numValues; ++v)
    if (saved[v])
      sum += saveCost(g, (AcId)v);
  return sum;
}

/* Whether `saved` lets the backward get every forward value it reads: each
   is an argument, saved, or recomputed by an op that may rerun from values
   available the same way.  Also checks what may be saved at all. */
static int validSaveSet(const AcGraph *g, const uint8_t *saved) {
  uint8_t *avail = calloc((size_t)g->numValues + 1, 1);
  int ok = 1;
  for (intptr_t v = 0; v < g->numValues && ok; ++v) {
    const AcValue *val = &g->values[v];
    if (saved[v] && !cuttable(g, (AcId)v))
      ok = 0;
    if (val->phase != AC_PHASE_FWD)
      continue;
    if (val->producer == AC_NONE || saved[v]) {
      avail[v] = 1;
      continue;
    }
    const AcOp *o = &g->ops[val->producer];
    int a = !banned(o);
    for (int32_t i = 0; i < o->numOperands && a; ++i)
      a = avail[acOpOperand(g, val->producer, i)];
    avail[v] = (uint8_t)a;
  }
  for (intptr_t o = 0; o < g->numOps && ok; ++o) {
    if (g->ops[o].phase != AC_PHASE_BWD)
      continue;
    for (int32_t i = 0; i < g->ops[o].numOperands; ++i) {
      AcId u = acOpOperand(g, (AcId)o, i);
      if (g->values[u].phase == AC_PHASE_FWD && !avail[u])
        ok = 0;
    }
  }
  free(avail);
  return ok;
}

/* Runs the min cut; checks validity on success. */
static AcStatus runCut(const AcGraph *g, uint8_t *saved, AcError *err) {
  acErrorClear(err);
  AcStatus st = acMincutSaveSet(g, saved, err);
  if (st == AC_OK)
    CHECK(validSaveSet(g, saved));
  else
    CHECK(err->status == st && err->message[0] != '\0');
  return st;
}

static int countSaved(const AcGraph *g, const uint8_t *saved) {
  int n = 0;
  for (intptr_t v = 0; v < g->numValues; ++v)
    n += saved[v] != 0;
  return n;
}

/* x -> mm(w1) -> h -> relu -> r -> mm(w2) -> o -> sum -> loss; the backward
   reads r (both for w2's grad and relu's) and x. */
static AcGraph *mlp(int64_t hBytes, int64_t rBytes, unsigned reluFlags,
                    AcId *hOut, AcId *rOut) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "mlp");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 400);
  AcId w1 = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 400);
  AcId w2 = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 400);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId h = OP(b, "torch.aten.mm", hBytes, R | CI, x, w1);
  AcId r = OP(b, "torch.aten.relu", rBytes, reluFlags, h);
  AcId o = OP(b, "torch.aten.mm", 400, R | CI, r, w2);
  AcId loss = OP(b, "torch.aten.sum", 4, R, o);
  AcId go = OP(b, "torch.aten.expand", 400, R, dy);
  AcId gw2 = OP(b, "torch.aten.mm", 400, R | CI, r, go);
  AcId gr = OP(b, "torch.aten.mm", 400, R | CI, go, w2);
  AcId gh = OP(b, "torch.aten.threshold_backward", 400, R, gr, r);
  AcId gw1 = OP(b, "torch.aten.mm", 400, R | CI, x, gh);
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  acGraphBuilderAddRet(b, gw1, AC_RET_GRAD);
  acGraphBuilderAddRet(b, gw2, AC_RET_GRAD);
  *hOut = h;
  *rOut = r;
  return finish(b);
}

AC_TEST(mlpChain) {
  AcId h, r;
  uint8_t saved[64];
  AcError err;
  /* Equal sizes: of the equally small cuts, the one nearest the backward:
     save the relu output, recompute nothing. */
  AcGraph *g = mlp(400, 400, R, &h, &r);
  CHECK(g != NULL);
  CHECK(runCut(g, saved, &err) == AC_OK);
  CHECK(saved[r] && !saved[h]);
  CHECK_EQ_I64(countSaved(g, saved), 1);
  CHECK(g->ops[g->values[r].producer].phase == AC_PHASE_FWD);
  acGraphDestroy(g);
  /* Relu output smaller (say it were packed): save it instead. */
  g = mlp(400, 100, R, &h, &r);
  CHECK(runCut(g, saved, &err) == AC_OK);
  CHECK(!saved[h] && saved[r]);
  CHECK_EQ_I64(totalCost(g, saved), 100);
  acGraphDestroy(g);
  /* The mm output smaller than the relu output: keep it, rerun the relu. */
  g = mlp(100, 400, R, &h, &r);
  CHECK(runCut(g, saved, &err) == AC_OK);
  CHECK(saved[h] && !saved[r]);
  CHECK_EQ_I64(totalCost(g, saved), 100);
  acGraphDestroy(g);
  /* A non-recomputable relu is saved whatever the sizes. */
  g = mlp(100, 400, 0, &h, &r);
  CHECK(runCut(g, saved, &err) == AC_OK);
  CHECK(!saved[h] && saved[r]);
  acGraphDestroy(g);
  /* ac.save on the relu: saved although recomputing it would be cheaper. */
  g = mlp(100, 400, R | SAVE, &h, &r);
  CHECK(runCut(g, saved, &err) == AC_OK);
  CHECK(!saved[h] && saved[r]);
  CHECK_EQ_I64(totalCost(g, saved), 400);
  acGraphDestroy(g);
  /* ac.recompute on the relu: recomputed although saving it is cheaper. */
  g = mlp(400, 100, R | RECOMP, &h, &r);
  CHECK(runCut(g, saved, &err) == AC_OK);
  CHECK(saved[h] && !saved[r]);
  acGraphDestroy(g);
}

/* Values recomputable from arguments alone cost nothing; compute-intensive
   ops are never recomputed even then. */
AC_TEST(argumentsAreFree) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "f");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 400);
  AcId w = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 400);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId a = OP(b, "torch.aten.relu", 400, R, x);
  AcId m = OP(b, "torch.aten.mm", 400, R | CI, x, w);
  AcId s = OP(b, "torch.aten.add", 400, R, a, m);
  AcId loss = OP(b, "torch.aten.sum", 4, R, s);
  AcId g1 = OP(b, "torch.aten.mul", 400, R, dy, a, w);
  AcId g2 = OP(b, "torch.aten.mul", 400, R, g1, m);
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  acGraphBuilderAddRet(b, g2, AC_RET_GRAD);
  AcGraph *g = finish(b);
  uint8_t saved[64];
  AcError err;
  CHECK(runCut(g, saved, &err) == AC_OK);
  CHECK(!saved[a] && saved[m] && !saved[s] && !saved[x] && !saved[w]);
  CHECK_EQ_I64(countSaved(g, saved), 1);
  acGraphDestroy(g);
}

/* A random op's result is saved, never recomputed. */
AC_TEST(randomOpSaved) {
  for (int variant = 0; variant < 3; ++variant) {
    AcGraphBuilder *b = acGraphBuilderCreate();
    acGraphBuilderAddFunc(b, "dropout");
    AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 400);
    AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
    AcId h = OP(b, "torch.aten.mm", 400, R | CI, x, x);
    AcId m = OP(b, "torch.aten.bernoulli", 400, RAND, h);
    AcId z = OP(b, "torch.aten.mul", variant == 2 ? 200 : 800, R, m, h);
    AcId loss = OP(b, "torch.aten.sum", 4, R, z);
    /* variant 0 reads the mask, 1 and 2 only z = mask * h. */
    AcId gz = OP(b, "torch.aten.mul", 400, R, dy, variant == 0 ? m : z);
    acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
    acGraphBuilderAddRet(b, gz, AC_RET_GRAD);
    AcGraph *g = finish(b);
    uint8_t saved[64];
    AcError err;
    CHECK(runCut(g, saved, &err) == AC_OK);
    if (variant == 0) {
      CHECK(saved[m] && !saved[h] && !saved[z]);
    } else if (variant == 1) {
      /* z = 800 bytes: cheaper to keep mask and h (800) - a tie; either
         way the mask is never recomputed. */
      CHECK_EQ_I64(totalCost(g, saved), 800);
      CHECK(saved[z] || (saved[m] && saved[h]));
    } else {
      CHECK(saved[z] && !saved[m]);
      CHECK_EQ_I64(totalCost(g, saved), 200);
    }
    acGraphDestroy(g);
  }
}

/* Views are never saved; their storage root is. */
AC_TEST(viewsNotSaved) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "views");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 400);
  AcId w = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 400);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId h = OP(b, "torch.aten.mm", 400, R | CI, x, w);
  AcId v1 = OP(b, "torch.aten.view", 0, R, h);
  acGraphBuilderSetAlias(b, v1, h);
  AcId v2 = OP(b, "torch.aten.t", 0, R, v1);
  acGraphBuilderSetAlias(b, v2, v1);
  /* A view of an argument costs nothing either way. */
  AcId wt = OP(b, "torch.aten.t", 0, R, w);
  acGraphBuilderSetAlias(b, wt, w);
  AcId r = OP(b, "torch.aten.relu", 400, R, x);
  AcId rv = OP(b, "torch.aten.view", 0, R, r);
  acGraphBuilderSetAlias(b, rv, r);
  AcId s = OP(b, "torch.aten.add", 400, R, v2, rv, wt);
  AcId loss = OP(b, "torch.aten.sum", 4, R, s);
  AcId g1 = OP(b, "torch.aten.mm", 400, R | CI, dy, v2);
  AcId g2 = OP(b, "torch.aten.mul", 400, R, g1, rv, wt);
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  acGraphBuilderAddRet(b, g2, AC_RET_GRAD);
  AcGraph *g = finish(b);
  CHECK(g && g->values[v2].aliasRoot == h);
  uint8_t saved[64];
  AcError err;
  CHECK(runCut(g, saved, &err) == AC_OK);
  CHECK(saved[h] && !saved[v1] && !saved[v2] && !saved[r] && !saved[rv] &&
        !saved[wt]);
  CHECK_EQ_I64(countSaved(g, saved), 1);
  acGraphDestroy(g);
}

/* An in-place random op whose result views its input (bernoulli_ on
   empty_like): the view is saved and charged its base's bytes. */
AC_TEST(viewOfBannedOp) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "dropout_");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 400);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId e = OP(b, "torch.aten.empty_like", 400, R, x);
  AcId m = OP(b, "torch.aten.bernoulli_.float", 0, RAND, e);
  acGraphBuilderSetAlias(b, m, e);
  AcId d = OP(b, "torch.aten.div.Scalar", 400, R, m);
  AcId y = OP(b, "torch.aten.mul.Tensor", 400, R, x, d);
  AcId loss = OP(b, "torch.aten.sum", 4, R, y);
  AcId gy = OP(b, "torch.aten.mul.Tensor", 400, R, dy, d);
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  acGraphBuilderAddRet(b, gy, AC_RET_GRAD);
  AcGraph *g = finish(b);
  uint8_t saved[64];
  AcError err;
  CHECK(runCut(g, saved, &err) == AC_OK);
  /* Keeping the mask (it pins e's 400 bytes) or d (400) cost the same. */
  CHECK_EQ_I64(totalCost(g, saved), 400);
  CHECK(!saved[e] && (saved[m] != saved[d]));
  acGraphDestroy(g);
}

/* Zero-byte values: free to recompute if the op may rerun, free to save if
   it may not. */
AC_TEST(zeroByteValues) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "f");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 400);
  AcId w = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 400);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId c = op(b, "torch.constant.int", 0, NULL, 0, R);
  AcId h = OP(b, "torch.aten.mm", 400, R | CI, x, w);
  AcId none = OP(b, "my.opaque", 0, 0, x);
  AcId sz = OP(b, "torch.aten.size.int", 0, R, h, c);
  AcId s = OP(b, "torch.aten.add", 400, R, h, c, none);
  AcId loss = OP(b, "torch.aten.sum", 4, R, s);
  AcId g1 = OP(b, "torch.aten.mul", 400, R, dy, c, none, sz);
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  acGraphBuilderAddRet(b, g1, AC_RET_GRAD);
  AcGraph *g = finish(b);
  uint8_t saved[64];
  AcError err;
  CHECK(runCut(g, saved, &err) == AC_OK);
  /* The size of h is recomputed, so h is kept; the constant is recomputed;
     the opaque op's none result is saved for free. */
  CHECK(!saved[c] && saved[none] && !saved[sz] && saved[h]);
  CHECK_EQ_I64(countSaved(g, saved), 2);
  CHECK_EQ_I64(totalCost(g, saved), 400);
  acGraphDestroy(g);
}

/* A multi-result op (layer norm) with several operands goes through an op
   node: all its results rerun together from its inputs. */
AC_TEST(multiResultOp) {
  for (int big = 0; big < 2; ++big) {
    AcGraphBuilder *b = acGraphBuilderCreate();
    acGraphBuilderAddFunc(b, "ln");
    AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 400);
    AcId w = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 400);
    AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
    AcId h = OP(b, "torch.aten.mm", big ? 800 : 400, R | CI, x, w);
    int64_t lnBytes[3] = {400, 8, 8};
    AcId args[2] = {h, w};
    AcId ln = acGraphBuilderAddOp(b, "torch.aten.native_layer_norm", args, 2,
                                  3, lnBytes);
    acGraphBuilderOp(b, ln)->recomputable = 1;
    AcId out = acGraphBuilderOp(b, ln)->firstResult;
    AcId o = OP(b, "torch.aten.mm", 400, R | CI, out, w);
    AcId loss = OP(b, "torch.aten.sum", 4, R, o);
    AcId g1 = OP(b, "torch.aten.mm", 400, R | CI, dy, out);
    AcId g2 = OP(b, "torch.aten.native_layer_norm_backward", 400, R, g1,
                 out + 1, out + 2, w);
    acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
    acGraphBuilderAddRet(b, g2, AC_RET_GRAD);
    AcGraph *g = finish(b);
    uint8_t saved[64];
    AcError err;
    CHECK(runCut(g, saved, &err) == AC_OK);
    if (!big) {
      /* h (400) is cheaper than the three results (416): rerun the layer
         norm from it. */
      CHECK(saved[h] && !saved[out] && !saved[out + 1] && !saved[out + 2]);
      CHECK_EQ_I64(totalCost(g, saved), 400);
    } else {
      /* h (800) is dearer: keep the three results. */
      CHECK(!saved[h] && saved[out] && saved[out + 1] && saved[out + 2]);
      CHECK_EQ_I64(totalCost(g, saved), 416);
    }
    acGraphDestroy(g);
  }
}

/* Two joint functions planned in one network. */
AC_TEST(twoFunctions) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  AcId hs[2], rs[2];
  for (int f = 0; f < 2; ++f) {
    acGraphBuilderAddFunc(b, f ? "second" : "first");
    AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 400);
    AcId w = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 400);
    AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
    hs[f] = OP(b, "torch.aten.mm", f ? 100 : 400, R | CI, x, w);
    rs[f] = OP(b, "torch.aten.gelu", f ? 400 : 100, R, hs[f]);
    AcId loss = OP(b, "torch.aten.sum", 4, R, rs[f]);
    AcId g1 = OP(b, "torch.aten.gelu_backward", 400, R, dy, hs[f]);
    AcId g2 = OP(b, "torch.aten.mul", 400, R, g1, rs[f]);
    acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
    acGraphBuilderAddRet(b, g2, AC_RET_GRAD);
  }
  AcGraph *g = finish(b);
  uint8_t saved[64];
  AcError err;
  CHECK(runCut(g, saved, &err) == AC_OK);
  /* Both read h (a matmul: saved); r reruns from it. */
  CHECK(saved[hs[0]] && !saved[rs[0]] && saved[hs[1]] && !saved[rs[1]]);
  acGraphDestroy(g);
}

AC_TEST(recomputeOfRandomOpIsInfeasible) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "f");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 400);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId m = OP(b, "torch.aten.bernoulli_.float", 400, RAND | RECOMP, x);
  AcId loss = OP(b, "torch.aten.sum", 4, R, m);
  AcId g1 = OP(b, "torch.aten.mul", 400, R, dy, m);
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  acGraphBuilderAddRet(b, g1, AC_RET_GRAD);
  AcGraph *g = finish(b);
  uint8_t saved[64];
  memset(saved, 7, sizeof saved);
  AcError err;
  CHECK(runCut(g, saved, &err) == AC_ERR_INFEASIBLE);
  CHECK(err.op == g->values[m].producer);
  CHECK(strstr(err.message, "'torch.aten.bernoulli_.float'") != NULL);
  CHECK(strstr(err.message, "ac.recompute") != NULL);
  CHECK(strstr(err.message, "random") != NULL);
  CHECK_EQ_I64(countSaved(g, saved), 0);
  acGraphDestroy(g);
}

/* ac.save and ac.recompute on the same op: infeasible only if the backward
   needs its result. */
AC_TEST(saveAndRecomputeConflict) {
  for (int needed = 0; needed < 2; ++needed) {
    AcGraphBuilder *b = acGraphBuilderCreate();
    acGraphBuilderAddFunc(b, "f");
    AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 400);
    AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
    AcId h = OP(b, "torch.aten.mm", 400, R | CI, x, x);
    AcId a = OP(b, "torch.aten.gelu", 400, R | SAVE | RECOMP, h);
    AcId c = OP(b, "torch.aten.view", 0, R, a);
    acGraphBuilderSetAlias(b, c, a);
    AcId loss = OP(b, "torch.aten.sum", 4, R, c);
    AcId g1 = OP(b, "torch.aten.mul", 400, R, dy, needed ? c : h);
    acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
    acGraphBuilderAddRet(b, g1, AC_RET_GRAD);
    AcGraph *g = finish(b);
    uint8_t saved[64];
    AcError err;
    AcStatus st = runCut(g, saved, &err);
    if (needed) {
      CHECK(st == AC_ERR_INFEASIBLE);
      CHECK(err.op == g->values[a].producer);
      CHECK(strstr(err.message, "'torch.aten.gelu'") != NULL);
    } else {
      CHECK(st == AC_OK);
      CHECK(saved[h] && countSaved(g, saved) == 1);
    }
    acGraphDestroy(g);
  }
}

/* Sizes the cut cannot weigh (negative, or half of its infinity and more)
 * never reach it: the builder refuses them, naming the value (a value
 * counted in the forward and the backward entry may be at most
 * AC_MAX_BYTES / 2 < AC_CAP_INF / 2). */
AC_TEST(invalidBytesRejected) {
  const int64_t sizes[2] = {-4, AC_CAP_INF / 2};
  for (int i = 0; i < 2; ++i) {
    AcGraphBuilder *b = acGraphBuilderCreate();
    acGraphBuilderAddFunc(b, "f");
    AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 400);
    AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
    AcId h = OP(b, "torch.aten.mm", sizes[i], R | CI, x, x);
    AcId loss = OP(b, "torch.aten.sum", 4, R, h);
    AcId g1 = OP(b, "torch.aten.mul", 400, R, dy, h);
    acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
    acGraphBuilderAddRet(b, g1, AC_RET_GRAD);
    AcGraph *g = NULL;
    AcError err;
    CHECK(acGraphBuilderFinish(b, &g, &err) == AC_ERR_INVALID);
    CHECK(g == NULL);
    /* -4 is wrong in itself; 2^61 only over the schedule (fwd + bwd). */
    CHECK(i == 0 ? err.value == h
                 : strstr(err.message, "over its schedule") != NULL);
    acGraphBuilderDestroy(b);
  }
}

/* A graph with no backward reads saves nothing. */
AC_TEST(nothingNeeded) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "f");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 400);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId h = OP(b, "torch.aten.mm", 400, R | CI, x, x);
  AcId loss = OP(b, "torch.aten.sum", 4, R, h);
  AcId g1 = OP(b, "torch.aten.mul", 400, R, dy, dy);
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  acGraphBuilderAddRet(b, g1, AC_RET_GRAD);
  AcGraph *g = finish(b);
  uint8_t saved[64];
  AcError err;
  CHECK(runCut(g, saved, &err) == AC_OK);
  CHECK_EQ_I64(countSaved(g, saved), 0);
  acGraphDestroy(g);
}

/* ---- brute force on random joint graphs ---- */

/* Builds a random joint graph; returns NULL if the builder rejects it. */
static AcGraph *randomGraph(uint64_t *rng) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "rand");
  AcId vals[64];
  int nv = 0;
  vals[nv++] = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL,
                                    8 * (int64_t)(acTestRand(rng) % 8));
  vals[nv++] = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 64);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  uint8_t used[64] = {0};
  int nf = 3 + (int)(acTestRand(rng) % 7);
  for (int i = 0; i < nf; ++i) {
    AcId args[3];
    int na = 1 + (int)(acTestRand(rng) % 3);
    for (int k = 0; k < na; ++k) {
      /* Prefer recent values so chains form. */
      int back = (int)(acTestRand(rng) % (uint64_t)(nv < 4 ? nv : 4));
      if (acTestRand(rng) % 4 == 0)
        back = (int)(acTestRand(rng) % (uint64_t)nv);
      args[k] = vals[nv - 1 - back];
      used[nv - 1 - back] = 1;
    }
    int nres = acTestRand(rng) % 7 == 0 ? 2 : 1;
    int64_t bytes[2];
    for (int r = 0; r < nres; ++r)
      bytes[r] = acTestRand(rng) % 6 == 0 ? 0
                                          : 8 * (1 + (int64_t)(acTestRand(rng) % 8));
    AcId o = acGraphBuilderAddOp(b, "t.op", args, na, nres, bytes);
    AcOp *p = acGraphBuilderOp(b, o);
    uint64_t r = acTestRand(rng) % 100;
    p->recomputable = r < 75;
    p->kind = p->recomputable ? AC_KIND_ELEMENTWISE : AC_KIND_RANDOM;
    p->computeIntensive = p->recomputable && acTestRand(rng) % 6 == 0;
    p->mustSave = acTestRand(rng) % 8 == 0;
    p->mustRecompute = p->recomputable && acTestRand(rng) % 6 == 0;
    AcId first = p->firstResult;
    if (nres == 1 && acTestRand(rng) % 7 == 0)
      acGraphBuilderSetAlias(b, first, args[0]);
    for (int q = 0; q < nres; ++q)
      vals[nv++] = first + q;
  }
  /* The loss reads every forward value nothing else reads, so every op
     above is forward. */
  AcId lossArgs[64];
  int nl = 0;
  for (int i = 2; i < nv; ++i)
    if (!used[i])
      lossArgs[nl++] = vals[i];
  int64_t four = 4;
  AcId lossOp = acGraphBuilderAddOp(b, "t.loss", lossArgs, nl, 1, &four);
  acGraphBuilderOp(b, lossOp)->recomputable = 1;
  AcId loss = acGraphBuilderOp(b, lossOp)->firstResult;
  vals[nv++] = loss;
  AcId grad = dy;
  int nb = 1 + (int)(acTestRand(rng) % 4);
  for (int j = 0; j < nb; ++j) {
    AcId args[3] = {grad, vals[acTestRand(rng) % (uint64_t)nv],
                    vals[acTestRand(rng) % (uint64_t)nv]};
    int64_t gb = 16;
    AcId o = acGraphBuilderAddOp(b, "t.bwd", args, 1 + (int)(acTestRand(rng) % 3),
                                 1, &gb);
    grad = acGraphBuilderOp(b, o)->firstResult;
  }
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  acGraphBuilderAddRet(b, grad, AC_RET_GRAD);
  return finish(b);
}

/* Cheapest valid save set by enumeration; -1 if none is valid. */
static int64_t bruteForce(const AcGraph *g) {
  AcId cand[64];
  int nc = 0;
  for (intptr_t v = 0; v < g->numValues; ++v)
    if (cuttable(g, (AcId)v))
      cand[nc++] = (AcId)v;
  if (nc > 16)
    return -2;
  uint8_t saved[128];
  int64_t best = -1;
  for (uint32_t mask = 0; mask < (1u << nc); ++mask) {
    memset(saved, 0, (size_t)g->numValues);
    for (int j = 0; j < nc; ++j)
      saved[cand[j]] = (mask >> j) & 1;
    int64_t c = totalCost(g, saved);
    if (best >= 0 && c >= best)
      continue;
    if (validSaveSet(g, saved))
      best = c;
  }
  return best;
}

AC_TEST(randomVsBruteForce) {
  uint64_t rng = 0x2545F4914F6CDD1DULL;
  int cases = 0, infeasible = 0, nonEmpty = 0, reported = 0;
  for (int iter = 0; cases < 400 && iter < 2000; ++iter) {
    AcGraph *g = randomGraph(&rng);
    if (!g)
      continue;
    int64_t best = bruteForce(g);
    if (best == -2) {
      acGraphDestroy(g);
      continue;
    }
    ++cases;
    uint8_t saved[128];
    AcError err;
    int before = acTestCurFailed;
    acTestCurFailed = 0;
    AcStatus st = runCut(g, saved, &err);
    if (best < 0) {
      ++infeasible;
      CHECK(st == AC_ERR_INFEASIBLE);
      /* Under these rules only ac.save + ac.recompute on one op can leave
         no finite cut; the error names that op. */
      CHECK(err.op != AC_NONE && g->ops[err.op].mustSave &&
            g->ops[err.op].mustRecompute);
    } else {
      CHECK(st == AC_OK);
      if (st == AC_OK)
        CHECK_EQ_I64(totalCost(g, saved), best);
      nonEmpty += countSaved(g, saved) > 0;
    }
    if (acTestCurFailed && ++reported <= 5)
      printf("  (random graph %d: %s)\n", iter,
             st == AC_OK ? "ok" : err.message);
    acTestCurFailed |= before;
    acGraphDestroy(g);
  }
  printf("  %d random graphs, %d infeasible, %d with saves\n", cases,
         infeasible, nonEmpty);
  CHECK(cases >= 300);
  CHECK(infeasible > 0 && nonEmpty > cases / 2);
}

/* ---- allocation failures and scale ---- */

AC_TEST(allocationFailures) {
  AcId h, r;
  AcGraph *g = mlp(400, 400, R, &h, &r);
  uint8_t saved[64];
  int sawNomem = 0, sawOk = 0;
  for (int64_t failAt = 1; failAt < 200 && !sawOk; ++failAt) {
    AcError err;
    acErrorClear(&err);
    acAllocFailAfter(failAt);
    AcStatus st = acMincutSaveSet(g, saved, &err);
    acAllocFailAfter(0);
    CHECK(st == AC_OK || st == AC_ERR_NOMEM);
    if (st == AC_ERR_NOMEM) {
      sawNomem = 1;
      CHECK(err.status == AC_ERR_NOMEM);
      CHECK_EQ_I64(countSaved(g, saved), 0);
    } else {
      sawOk = 1;
      CHECK(saved[r] && !saved[h]);
    }
  }
  CHECK(sawNomem && sawOk);
  acGraphDestroy(g);
}

static double nowSeconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A deep MLP of L blocks (mm, bias add, gelu, dropout) with its backward:
   about 100k ops. */
AC_TEST(scaleDeepMlp) {
  enum { L = 12000 };
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "deep");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 4096);
  AcId w = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 4096);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId *mmOut = malloc(sizeof(AcId) * L), *act = malloc(sizeof(AcId) * L),
       *mask = malloc(sizeof(AcId) * L), *pre = malloc(sizeof(AcId) * L),
       *in = malloc(sizeof(AcId) * L);
  AcId cur = x;
  for (int i = 0; i < L; ++i) {
    in[i] = cur;
    mmOut[i] = OP(b, "torch.aten.mm", 4096, R | CI, cur, w);
    pre[i] = OP(b, "torch.aten.add", 4096, R, mmOut[i], w);
    act[i] = OP(b, "torch.aten.gelu", 4096, R, pre[i]);
    mask[i] = OP(b, "torch.aten.bernoulli", 1024, RAND, act[i]);
    cur = OP(b, "torch.aten.mul", 4096, R, act[i], mask[i]);
  }
  AcId loss = OP(b, "torch.aten.sum", 4, R, cur);
  AcId g = dy;
  for (int i = L - 1; i >= 0; --i) {
    g = OP(b, "torch.aten.mul", 4096, R, g, mask[i]);
    g = OP(b, "torch.aten.gelu_backward", 4096, R, g, pre[i]);
    g = OP(b, "torch.aten.mm", 4096, R | CI, g, w, in[i]);
  }
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  acGraphBuilderAddRet(b, g, AC_RET_GRAD);
  AcGraph *graph = finish(b);
  CHECK(graph != NULL);
  if (graph) {
    uint8_t *saved = malloc((size_t)graph->numValues);
    AcError err;
    double t0 = nowSeconds();
    AcStatus st = acMincutSaveSet(graph, saved, &err);
    double dt = nowSeconds() - t0;
    CHECK(st == AC_OK);
    CHECK(validSaveSet(graph, saved));
    /* Per block: the bias-add output gelu_backward reads (as large as the
       mm output, and nearer the backward) and the mask; the gelu and the
       block's input (act * mask) rerun from those. */
    int ok = 1;
    for (int i = 0; i < L && ok; ++i)
      ok = saved[pre[i]] && saved[mask[i]] && !saved[mmOut[i]] &&
           !saved[act[i]] && (i == 0 || !saved[in[i]]);
    CHECK(ok);
    printf("  deep mlp: %ld ops, %ld values, min cut %.3f s\n",
           (long)graph->numOps, (long)graph->numValues, dt);
    CHECK(dt < 2 * AC_SCALE_LIMIT * AC_SLOWDOWN);
    free(saved);
    acGraphDestroy(graph);
  }
  free(mmOut);
  free(act);
  free(mask);
  free(pre);
  free(in);
}

int main(void) {
  RUN(mlpChain);
  RUN(argumentsAreFree);
  RUN(randomOpSaved);
  RUN(viewsNotSaved);
  RUN(viewOfBannedOp);
  RUN(zeroByteValues);
  RUN(multiResultOp);
  RUN(twoFunctions);
  RUN(recomputeOfRandomOpIsInfeasible);
  RUN(saveAndRecomputeConflict);
  RUN(invalidBytesRejected);
  RUN(nothingNeeded);
  RUN(randomVsBruteForce);
  RUN(allocationFailures);
  RUN(scaleDeepMlp);
  return acTestSummary("mincut");
}
