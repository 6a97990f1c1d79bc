/* test_plan.c - plans: derivation (transitive recompute, errors naming the
 * op), recompute groups and their placement, save-all, saved bytes,
 * recompute cost, copying, strategy names, and derivation invariants on
 * random graphs. */
#include "plan_testkit.h"
#include "plan/plan_internal.h"

static AcGraph *finish(AcGraphBuilder *b) {
  AcGraph *g = NULL;
  AcError err;
  if (acGraphBuilderFinish(b, &g, &err) != AC_OK)
    printf("  finish: %s\n", err.message);
  acGraphBuilderDestroy(b);
  return g;
}

/* The diamond (bytes 100 each, loss 4):
 *   x primal, dy tangent
 *   op0 a = exp(x)      op1 b = sin(a)      op2 c = cos(a)
 *   op3 d = mul(b, c)   op4 loss = sum(d)   (forward)
 *   op5 g0 = f(dy, c)   op6 g1 = f(g0, b)   op7 g2 = f(g1, d)
 *   op8 g3 = f(g2, a)   (backward; g3 is the gradient)
 * Values: x 0, dy 1, a 2, b 3, c 4, d 5, loss 6, g0 7, g1 8, g2 9, g3 10. */
enum { VA = 2, VB = 3, VC = 4, VD = 5 };

static AcGraph *diamond(int dFirst) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "diamond");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 100);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId a = tkRes(b, tkAdd(b, "exp", &x, 1, 100, AC_KIND_ELEMENTWISE, 1, 1));
  AcId bb = tkRes(b, tkAdd(b, "sin", &a, 1, 100, AC_KIND_ELEMENTWISE, 1, 2));
  AcId c = tkRes(b, tkAdd(b, "cos", &a, 1, 100, AC_KIND_ELEMENTWISE, 1, 4));
  AcId d = tkRes(b, tkAdd(b, "mul", (AcId[]){bb, c}, 2, 100,
                          AC_KIND_ELEMENTWISE, 1, 8));
  AcId loss = tkRes(b, tkAdd(b, "sum", &d, 1, 4, AC_KIND_REDUCTION, 1, 16));
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  AcId g0 = tkRes(b, tkAdd(b, "f", (AcId[]){dy, dFirst ? d : c}, 2, 100,
                           AC_KIND_ELEMENTWISE, 1, 1));
  AcId g1 = tkRes(b, tkAdd(b, "f", (AcId[]){g0, bb}, 2, 100,
                           AC_KIND_ELEMENTWISE, 1, 1));
  AcId g2 = tkRes(b, tkAdd(b, "f", (AcId[]){g1, dFirst ? c : d}, 2, 100,
                           AC_KIND_ELEMENTWISE, 1, 1));
  AcId g3 = tkRes(b, tkAdd(b, "f", (AcId[]){g2, a}, 2, 100,
                           AC_KIND_ELEMENTWISE, 1, 1));
  acGraphBuilderAddRet(b, g3, AC_RET_GRAD);
  return finish(b);
}

static int groupIs(const AcRecomputeGroups *gr, intptr_t i, AcId anchor,
                   const AcId *ops, int n) {
  if (i >= gr->numGroups)
    return 0;
  const AcRecomputeGroup *grp = &gr->groups[i];
  if (grp->anchor != anchor || grp->numOps != n)
    return 0;
  for (int k = 0; k < n; ++k)
    if (gr->ops[grp->firstOp + k] != ops[k])
      return 0;
  return 1;
}

AC_TEST(createCopyDestroy) {
  AcGraph *g = diamond(0);
  AcPlan *p = acPlanCreate(g), *q = acPlanCreate(g);
  CHECK(p && q);
  CHECK_EQ_I64(p->numValues, g->numValues);
  CHECK_EQ_I64(p->numOps, g->numOps);
  for (intptr_t i = 0; i < g->numValues; ++i)
    CHECK(!p->saved[i]);
  p->saved[VB] = 1;
  p->recompute[0] = 1;
  acPlanCopy(q, p);
  CHECK(q->saved[VB] && q->recompute[0] && !q->saved[VA]);
  acPlanDestroy(p);
  acPlanDestroy(q);
  acPlanDestroy(NULL);
  acGraphDestroy(g);
}

AC_TEST(deriveTransitive) {
  AcGraph *g = diamond(0);
  AcPlan *p = acPlanCreate(g);
  /* Nothing saved: everything the backward reads is rebuilt from x. */
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  for (AcId o = 0; o < 4; ++o)
    CHECK(p->recompute[o]);
  CHECK(!p->recompute[4]); /* the loss is not needed */
  double fl, sec;
  acPlanRecomputeCost(g, p, &fl, &sec);
  CHECK_NEAR(sec, 1 + 2 + 4 + 8, 1e-12);
  CHECK_NEAR(fl, (1 + 2 + 4 + 8) * 1e12, 1e-12);
  /* Saving a stops the descent at a. */
  p->saved[VA] = 1;
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(!p->recompute[0] && p->recompute[1] && p->recompute[2] &&
        p->recompute[3]);
  /* Saving b, c, d leaves only... a, which the last op reads directly. */
  memset(p->saved, 0, (size_t)g->numValues);
  p->saved[VB] = p->saved[VC] = p->saved[VD] = 1;
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(p->recompute[0] && !p->recompute[1] && !p->recompute[2] &&
        !p->recompute[3]);
  CHECK_EQ_I64(acPlanSavedBytes(g, p), 300);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

AC_TEST(groupsPlacement) {
  AcGraph *g = diamond(0);
  AcPlan *p = acPlanCreate(g);
  AcRecomputeGroups *gr = NULL;
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(acPlanGroups(g, p, &gr, NULL) == AC_OK);
  /* op5 reads c: [exp, cos]; op6 reads b: [sin] (a already rebuilt);
     op7 reads d: [mul]; op8 reads a: already rebuilt, no group. */
  CHECK_EQ_I64(gr->numGroups, 3);
  CHECK(groupIs(gr, 0, 5, (AcId[]){0, 2}, 2));
  CHECK(groupIs(gr, 1, 6, (AcId[]){1}, 1));
  CHECK(groupIs(gr, 2, 7, (AcId[]){3}, 1));
  CHECK_EQ_I64(gr->numOps, 4);
  acRecomputeGroupsDestroy(gr);
  /* With a saved: op5's group is just [cos]. */
  p->saved[VA] = 1;
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(acPlanGroups(g, p, &gr, NULL) == AC_OK);
  CHECK_EQ_I64(gr->numGroups, 3);
  CHECK(groupIs(gr, 0, 5, (AcId[]){2}, 1));
  CHECK(groupIs(gr, 1, 6, (AcId[]){1}, 1));
  CHECK(groupIs(gr, 2, 7, (AcId[]){3}, 1));
  acRecomputeGroupsDestroy(gr);
  acRecomputeGroupsDestroy(NULL);
  acPlanDestroy(p);
  acGraphDestroy(g);

  /* When the first backward op reads d, one group holds all four, in
     forward program order although found in the order mul, sin/cos, exp. */
  g = diamond(1);
  p = acPlanCreate(g);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(acPlanGroups(g, p, &gr, NULL) == AC_OK);
  CHECK_EQ_I64(gr->numGroups, 1);
  CHECK(groupIs(gr, 0, 5, (AcId[]){0, 1, 2, 3}, 4));
  acRecomputeGroupsDestroy(gr);
  /* A stale recompute set is reported, not grouped. */
  p->recompute[4] = 1;
  AcError err;
  CHECK(acPlanGroups(g, p, &gr, &err) == AC_ERR_INVALID);
  CHECK(gr == NULL);
  CHECK(err.op == 4);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* x -> r = dropout(x) (random) -> y = relu(r) -> loss; backward reads y.
 * Values: x 0, dy 1, r 2, y 3, loss 4, g 5. */
static AcGraph *randomChain(int mustSaveRelu) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "rnd");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 100);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId r = tkRes(b, tkAdd(b, "torch.aten.dropout", &x, 1, 100, AC_KIND_RANDOM,
                          0, 1));
  AcId yo = tkAdd(b, "torch.aten.relu", &r, 1, 100, AC_KIND_ELEMENTWISE, 1, 1);
  acGraphBuilderOp(b, yo)->mustSave = (uint8_t)mustSaveRelu;
  AcId y = tkRes(b, yo);
  AcId loss = tkRes(b, tkAdd(b, "sum", &y, 1, 4, AC_KIND_REDUCTION, 1, 1));
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  AcId gg = tkRes(b, tkAdd(b, "mul", (AcId[]){dy, y}, 2, 100,
                           AC_KIND_ELEMENTWISE, 1, 1));
  acGraphBuilderAddRet(b, gg, AC_RET_GRAD);
  return finish(b);
}

AC_TEST(deriveErrors) {
  AcGraph *g = randomChain(0);
  AcPlan *p = acPlanCreate(g);
  AcError err;
  /* Nothing saved: y is rebuilt from r, which is random -> infeasible,
     naming dropout (op 0) and r (value 2). */
  CHECK(acPlanDerive(g, p, &err) == AC_ERR_INFEASIBLE);
  CHECK_EQ_I64(err.op, 0);
  CHECK_EQ_I64(err.value, 2);
  CHECK(strstr(err.message, "torch.aten.dropout") != NULL);
  CHECK(strstr(err.message, "random") != NULL);
  for (intptr_t o = 0; o < g->numOps; ++o)
    CHECK(!p->recompute[o]);
  /* Saving r makes it feasible (relu rebuilt). */
  p->saved[2] = 1;
  CHECK(acPlanDerive(g, p, &err) == AC_OK);
  CHECK(p->recompute[1] && !p->recompute[0]);
  /* Saving an argument or a backward value is invalid. */
  p->saved[0] = 1;
  CHECK(acPlanDerive(g, p, &err) == AC_ERR_INVALID);
  CHECK_EQ_I64(err.value, 0);
  p->saved[0] = 0;
  p->saved[5] = 1;
  CHECK(acPlanDerive(g, p, &err) == AC_ERR_INVALID);
  CHECK_EQ_I64(err.value, 5);
  CHECK_EQ_I64(err.op, 3);
  acPlanDestroy(p);
  acGraphDestroy(g);

  /* ac.save on relu: y must be saved. */
  g = randomChain(1);
  p = acPlanCreate(g);
  p->saved[2] = 1;
  CHECK(acPlanDerive(g, p, &err) == AC_ERR_INFEASIBLE);
  CHECK_EQ_I64(err.op, 1);
  CHECK_EQ_I64(err.value, 3);
  CHECK(strstr(err.message, "ac.save") != NULL);
  p->saved[3] = 1;
  CHECK(acPlanDerive(g, p, &err) == AC_OK);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

AC_TEST(mustRecompute) {
  /* ac.recompute on relu: saving y is infeasible; recomputing is fine. */
  AcGraph *g = randomChain(0);
  g->ops[1].mustRecompute = 1;
  AcPlan *p = acPlanCreate(g);
  AcError err;
  p->saved[2] = p->saved[3] = 1;
  CHECK(acPlanDerive(g, p, &err) == AC_ERR_INFEASIBLE);
  CHECK_EQ_I64(err.op, 1);
  CHECK_EQ_I64(err.value, 3);
  CHECK(strstr(err.message, "ac.recompute") != NULL);
  /* Save-all respects it: it saves r, not y. */
  acPlanSaveAll(g, p);
  CHECK(p->saved[2] && !p->saved[3]);
  CHECK(acPlanDerive(g, p, &err) == AC_OK);
  CHECK(p->recompute[1]);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* Save-all and saved bytes with views: h = exp(x) 300; v1 = view(h) by a
 * recomputable view op; v2 = view(h) by an unknown (non-recomputable) op;
 * the backward reads v1 and v2.  Save-all saves h (root) and v2 (a view
 * nobody can rebuild, zero bytes); saved bytes count h's storage once. */
AC_TEST(saveAllViews) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "views");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 100);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId h = tkRes(b, tkAdd(b, "exp", &x, 1, 300, AC_KIND_ELEMENTWISE, 1, 1));
  AcId v1 = tkRes(b, tkAdd(b, "view", &h, 1, 0, AC_KIND_VIEW, 1, 0));
  acGraphBuilderSetAlias(b, v1, h);
  AcId v2 = tkRes(b, tkAdd(b, "weird_view", &h, 1, 0, AC_KIND_UNKNOWN, 0, 0));
  acGraphBuilderSetAlias(b, v2, h);
  AcId loss = tkRes(b, tkAdd(b, "sum", (AcId[]){v1, v2}, 2, 4,
                             AC_KIND_REDUCTION, 1, 1));
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  AcId gg = tkRes(b, tkAdd(b, "mul", (AcId[]){dy, v1, v2}, 3, 100,
                           AC_KIND_ELEMENTWISE, 1, 1));
  acGraphBuilderAddRet(b, gg, AC_RET_GRAD);
  AcGraph *g = finish(b);
  CHECK(g != NULL);
  if (!g)
    return;
  AcPlan *p = acPlanCreate(g);
  acPlanSaveAll(g, p);
  CHECK(p->saved[h] && !p->saved[v1] && p->saved[v2] && !p->saved[x]);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(p->recompute[1] && !p->recompute[2] && !p->recompute[0]);
  CHECK_EQ_I64(acPlanSavedBytes(g, p), 300);
  /* Saving only the weird view still pins h: 300 bytes, h rebuilt for v1? No:
     v1's op reads h, which is not saved and is recomputable -> exp rerun. */
  p->saved[h] = 0;
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(p->recompute[0] && p->recompute[1]);
  CHECK_EQ_I64(acPlanSavedBytes(g, p), 300);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

AC_TEST(strategyNames) {
  const char *names[] = {"greedy", "save-all", "mincut", "knapsack", "ilp",
                         "beam"};
  CHECK(sizeof names / sizeof names[0] == AC_STRATEGY_COUNT);
  for (int s = 0; s < AC_STRATEGY_COUNT; ++s) {
    AcStrategy out = AC_STRATEGY_COUNT;
    CHECK(strcmp(acStrategyName((AcStrategy)s), names[s]) == 0);
    CHECK(acStrategyParse(names[s], &out, NULL) == AC_OK);
    CHECK(out == (AcStrategy)s);
  }
  AcError err;
  AcStrategy out = AC_STRATEGY_GREEDY;
  CHECK(acStrategyParse("bogus", &out, &err) == AC_ERR_INVALID);
  CHECK(strstr(err.message, "'bogus'") != NULL);
  CHECK(strstr(err.message, "greedy") && strstr(err.message, "save-all") &&
        strstr(err.message, "mincut") && strstr(err.message, "knapsack") &&
        strstr(err.message, "ilp") && strstr(err.message, "beam"));
  CHECK(acStrategyParse("Greedy", &out, NULL) == AC_ERR_INVALID);
  CHECK(acStrategyParse("", &out, NULL) == AC_ERR_INVALID);
  CHECK(strcmp(acStrategyName(AC_STRATEGY_COUNT), "unknown") == 0);
}

/* A random non-saved value feeding a random op -> the error names that op
 * and value; the derived invariants hold on random graphs and plans; the
 * groups partition the recompute set and anchor at backward ops. */
AC_TEST(randomInvariants) {
  int checked = 0, infeasible = 0;
  for (uint64_t seed = 1; seed <= 250; ++seed) {
    AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 2), 1, 14, 10);
    CHECK(g != NULL);
    if (!g)
      continue;
    uint64_t rs = seed * 7;
    AcPlan *p = acPlanCreate(g);
    /* Nothing saved: infeasible exactly when a needed op is banned. */
    AcError err;
    AcStatus st = acPlanDerive(g, p, &err);
    CHECK(st == AC_OK || st == AC_ERR_INFEASIBLE);
    if (st == AC_ERR_INFEASIBLE) {
      ++infeasible;
      CHECK(err.op >= 0 && err.op < g->numOps && err.value >= 0);
      CHECK(g->values[err.value].producer == err.op);
      CHECK(!g->ops[err.op].recomputable || g->ops[err.op].mustSave);
      CHECK(strstr(err.message, g->ops[err.op].name) != NULL);
    }
    for (int k = 0; k < 3; ++k) {
      if (!tkRandomPlan(g, &rs, 25 * k, p)) {
        CHECK(0);
        continue;
      }
      ++checked;
      /* Invariants of plan.h. */
      for (AcId o = 0; o < g->numOps; ++o)
        if (p->recompute[o])
          CHECK(g->ops[o].phase == AC_PHASE_FWD && g->ops[o].recomputable &&
                !g->ops[o].mustSave);
      uint8_t *avail = calloc((size_t)g->numValues, 1);
      for (AcId v = 0; v < g->numValues; ++v) {
        const AcValue *val = &g->values[v];
        avail[v] = val->role != AC_ROLE_RESULT || p->saved[v] ||
                   p->recompute[val->producer] ||
                   g->ops[val->producer].phase == AC_PHASE_BWD;
      }
      for (AcId o = 0; o < g->numOps; ++o)
        if (g->ops[o].phase == AC_PHASE_BWD || p->recompute[o])
          for (int32_t i = 0; i < g->ops[o].numOperands; ++i)
            CHECK(avail[acOpOperand(g, o, i)]);
      free(avail);
      /* Groups: every recompute op once, anchors backward, ascending. */
      AcRecomputeGroups *gr = NULL;
      CHECK(acPlanGroups(g, p, &gr, NULL) == AC_OK);
      if (!gr)
        continue;
      uint8_t *seen = calloc((size_t)g->numOps, 1);
      intptr_t total = 0;
      for (intptr_t i = 0; i < gr->numGroups; ++i) {
        const AcRecomputeGroup *grp = &gr->groups[i];
        CHECK(g->ops[grp->anchor].phase == AC_PHASE_BWD && grp->numOps > 0);
        if (i > 0 && g->ops[grp->anchor].func == g->ops[gr->groups[i - 1].anchor].func)
          CHECK(grp->anchor > gr->groups[i - 1].anchor);
        for (int32_t k2 = 0; k2 < grp->numOps; ++k2) {
          AcId q = gr->ops[grp->firstOp + k2];
          CHECK(p->recompute[q] && !seen[q]);
          CHECK(g->ops[q].func == g->ops[grp->anchor].func);
          seen[q] = 1;
          if (k2 > 0)
            CHECK(q > gr->ops[grp->firstOp + k2 - 1]);
          ++total;
        }
      }
      intptr_t nrec = 0;
      for (AcId o = 0; o < g->numOps; ++o)
        nrec += p->recompute[o];
      CHECK_EQ_I64(total, nrec);
      free(seen);
      acRecomputeGroupsDestroy(gr);
    }
    /* Save-all derives. */
    acPlanSaveAll(g, p);
    CHECK(acPlanDerive(g, p, &err) == AC_OK);
    acPlanDestroy(p);
    acGraphDestroy(g);
  }
  printf("  %d random plans, %d infeasible empty plans\n", checked, infeasible);
  CHECK(checked >= 600 && infeasible > 0);
}

/* The drop checker's extra seconds (a walk) equal a derivation's
 * (acPlanExtraSeconds), bit for bit, for every droppable value of random
 * plans of random graphs (views, multi-result ops, in-place inits, several
 * functions and microbatches). */
AC_TEST(dropExtraSeconds) {
  int checked = 0, nonzero = 0;
  for (int dps = 0; dps < 2; ++dps) {
    tkDpsPercent = dps ? 40 : 0;
    for (uint64_t seed = 1; seed <= 150; ++seed) {
      AcGraph *g = tkGenGraph(seed, 1 + (int)(seed % 3 == 0), 1 + (int)(seed % 2),
                              10 + (int)(seed % 30), 6 + (int)(seed % 20));
      if (!g)
        continue;
      AcPlan *base = acPlanCreate(g), *trial = acPlanCreate(g);
      AcDropChecker *ck = acDropCheckerCreate(g);
      int32_t *inst = calloc((size_t)g->numFuncs + 1, sizeof *inst);
      acPlanBwdInstances(g, inst);
      uint64_t rs = seed * 77 + (uint64_t)dps;
      for (int trial_ = 0; trial_ < 4; ++trial_) {
        if (trial_ == 0) {
          acPlanSaveAll(g, base);
        } else if (!tkRandomPlan(g, &rs, 30 * trial_, base)) {
          continue;
        }
        if (acPlanDerive(g, base, NULL) != AC_OK)
          continue;
        for (AcId v = 0; v < g->numValues; ++v) {
          if (!acDropCheckerOk(ck, base->saved, v))
            continue;
          memcpy(trial->saved, base->saved, (size_t)g->numValues);
          trial->saved[v] = 0;
          CHECK(acPlanDerive(g, trial, NULL) == AC_OK);
          double want = acPlanExtraSeconds(g, base, trial, inst);
          double have = acDropCheckerExtraSeconds(ck, base, v, inst);
          if (want != have)
            printf("  seed %d value %d: walk %.17g derive %.17g\n", (int)seed, (int)v,
                   have, want);
          CHECK(want == have);
          ++checked;
          nonzero += want != 0;
        }
      }
      free(inst);
      acDropCheckerDestroy(ck);
      acPlanDestroy(base);
      acPlanDestroy(trial);
      acGraphDestroy(g);
    }
  }
  tkDpsPercent = 0;
  printf("  %d drops checked (%d add recompute time)\n", checked, nonzero);
  CHECK(checked >= 2000 && nonzero >= 1000);
}

AC_TEST(planRunBaselines) {
  AcGraph *g = diamond(0);
  AcPlan *p = acPlanCreate(g);
  AcPlanOptions o = {AC_STRATEGY_SAVE_ALL, -1, 0, 0, 0};
  CHECK(acPlanRun(g, &o, p, NULL) == AC_OK);
  CHECK(p->saved[VA] && p->saved[VB] && p->saved[VC] && p->saved[VD]);
  o.strategy = AC_STRATEGY_MINCUT;
  CHECK(acPlanRun(g, &o, p, NULL) == AC_OK);
  CHECK(acPlanSavedBytes(g, p) <= 400);
  o.strategy = AC_STRATEGY_COUNT;
  CHECK(acPlanRun(g, &o, p, NULL) == AC_ERR_INVALID);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

AC_TEST(allocFailures) {
  AcGraph *g = tkGenGraph(11, 2, 1, 12, 8);
  AcPlan *p = acPlanCreate(g);
  int sawOk = 0;
  for (int64_t n = 1; n < 100 && !sawOk; ++n) {
    AcRecomputeGroups *gr = NULL;
    acPlanSaveAll(g, p);
    acAllocFailAfter(n);
    AcStatus st = acPlanDerive(g, p, NULL);
    if (st == AC_OK)
      st = acPlanGroups(g, p, &gr, NULL);
    acAllocFailAfter(0);
    CHECK(st == AC_OK || st == AC_ERR_NOMEM);
    sawOk = st == AC_OK;
    acRecomputeGroupsDestroy(gr);
  }
  CHECK(sawOk);
  acAllocFailAfter(1);
  CHECK(acPlanCreate(g) == NULL);
  acAllocFailAfter(2);
  CHECK(acPlanCreate(g) == NULL);
  acAllocFailAfter(0);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

int main(void) {
  RUN(createCopyDestroy);
  RUN(deriveTransitive);
  RUN(groupsPlacement);
  RUN(deriveErrors);
  RUN(mustRecompute);
  RUN(saveAllViews);
  RUN(strategyNames);
  RUN(randomInvariants);
  RUN(dropExtraSeconds);
  RUN(planRunBaselines);
  RUN(allocFailures);
  return acTestSummary("plan");
}
