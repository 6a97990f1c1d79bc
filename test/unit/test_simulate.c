/* test_simulate.c - the simulator: hand-computed peaks (single function,
 * recompute transients, microbatches, several functions, views, static
 * part), and a cross-check against a naive liveness computation on random
 * graphs with random save sets and schedules. */
#include "plan_testkit.h"

/* The chain used by several tests (bytes beside each value):
 *   args: x primal 400, w param 1000, dy tangent 4
 *   op0 h1 = mm(x, w)        fwd 400   (1 s)
 *   op1 h2 = tanh(h1)        fwd 400   (2 s)
 *   op2 loss = sum(h2)       fwd 4     output
 *   op3 g2 = bcast(dy)       bwd 400
 *   op4 g1 = tanh_bwd(g2,h2) bwd 400
 *   op5 gw = mm_bwd(g1, x)   bwd 1000  grad (static)
 * Static part: w 1000 + gw 1000 = 2000. */
static void addChain(AcGraphBuilder *b, const char *name) {
  acGraphBuilderAddFunc(b, name);
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 400);
  AcId w = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 1000);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId op0 = tkAdd(b, "mm", (AcId[]){x, w}, 2, 400, AC_KIND_MATMUL, 1, 1.0);
  AcId h1 = tkRes(b, op0);
  AcId op1 = tkAdd(b, "tanh", &h1, 1, 400, AC_KIND_ELEMENTWISE, 1, 2.0);
  AcId h2 = tkRes(b, op1);
  AcId op2 = tkAdd(b, "sum", &h2, 1, 4, AC_KIND_REDUCTION, 1, 0.5);
  acGraphBuilderAddRet(b, tkRes(b, op2), AC_RET_OUTPUT);
  AcId op3 = tkAdd(b, "bcast", &dy, 1, 400, AC_KIND_DATA_MOVEMENT, 1, 0.1);
  AcId g2 = tkRes(b, op3);
  AcId op4 = tkAdd(b, "tanh_bwd", (AcId[]){g2, h2}, 2, 400,
                   AC_KIND_ELEMENTWISE, 1, 0.1);
  AcId g1 = tkRes(b, op4);
  AcId op5 = tkAdd(b, "mm_bwd", (AcId[]){g1, x}, 2, 1000, AC_KIND_MATMUL, 1,
                   0.1);
  acGraphBuilderAddRet(b, tkRes(b, op5), AC_RET_GRAD);
}

static AcGraph *finish(AcGraphBuilder *b);

/* Marks op `o` destination-style into `init` (AC_NONE: not) and returns its
 * result. */
static AcId dpsOp(AcGraphBuilder *b, AcId o, AcId init) {
  acGraphBuilderOp(b, o)->dpsInit = init;
  return tkRes(b, o);
}

static AcGraph *finish(AcGraphBuilder *b) {
  AcGraph *g = NULL;
  AcError err;
  if (acGraphBuilderFinish(b, &g, &err) != AC_OK)
    printf("  finish: %s\n", err.message);
  acGraphBuilderDestroy(b);
  return g;
}

static AcGraph *chainGraph(void) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  addChain(b, "A");
  return finish(b);
}

/* Value ids in the chain: x 0, w 1, dy 2, h1 3, h2 4, loss 5, g2 6, g1 7,
   gw 8; ops 0..5. */
enum { X = 0, W = 1, DY = 2, H1 = 3, H2 = 4, LOSS = 5, G2 = 6, G1 = 7, GW = 8 };

AC_TEST(staticBytes) {
  AcGraph *g = chainGraph();
  CHECK(g != NULL);
  if (!g)
    return;
  /* w 1000 + gw 1000 = 2000; adam 2x params = 2000 more; reserve 7 */
  CHECK_EQ_I64(acSimStaticBytes(g, 0, 0), 2000);
  CHECK_EQ_I64(acSimStaticBytes(g, 2.0, 7), 4007);
  /* Checked: the same sums, and a clear refusal where they would overflow
   * (a reserve of INT64_MAX gave a negative peak before). */
  AcError err;
  int64_t out = -1;
  CHECK(acSimStaticBytesChecked(g, 2.0, 7, &out, &err) == AC_OK);
  CHECK_EQ_I64(out, 4007);
  CHECK(acSimStaticBytesChecked(g, 0, AC_MAX_BYTES - 2000, &out, &err) == AC_OK);
  CHECK_EQ_I64(out, AC_MAX_BYTES);
  CHECK(acSimStaticBytesChecked(g, 0, AC_MAX_BYTES - 1999, &out, &err) == AC_ERR_INVALID);
  CHECK(acSimStaticBytesChecked(g, 0, INT64_MAX, &out, &err) == AC_ERR_INVALID);
  CHECK(strstr(err.message, "reserve 9223372036854775807 bytes") != NULL);
  CHECK(acSimStaticBytesChecked(g, 1e300, 0, &out, &err) == AC_ERR_INVALID);
  CHECK(acSimStaticBytesChecked(g, -1.0, 0, &out, &err) == AC_ERR_INVALID);
  CHECK(acSimStaticBytesChecked(g, 0, -1, &out, &err) == AC_ERR_INVALID);
  acGraphDestroy(g);
}

AC_TEST(chainSaveAll) {
  AcGraph *g = chainGraph();
  AcPlan *p = acPlanCreate(g);
  AcSimResult r;
  acPlanSaveAll(g, p);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(p->saved[H2] && !p->saved[H1] && !p->saved[X]);
  CHECK(acSimulate(g, p, 2000, 1, &r, NULL) == AC_OK);
  CHECK_EQ_I64(r.numSteps, 6);
  /* step 0 op0: x 400 + h1 400                          =  800
     step 1 op1: x 400 + h1 400 + h2 400                 = 1200
     step 2 op2: x 400 + h2 400 (saved) + loss 4         =  804
     step 3 op3: x 400 + h2 400 + loss 4 + dy 4 + g2 400 = 1208
     step 4 op4: 1208 + g1 400                           = 1608  <- peak
     step 5 op5: x 400 + loss 4 + dy 4 + g1 400          =  808 (gw static) */
  int64_t want[6] = {800, 1200, 804, 1208, 1608, 808};
  for (int t = 0; t < 6; ++t)
    CHECK_EQ_I64(r.live[t], want[t]);
  /* After each step's frees: h1 goes after op1, h2 and g2 after op4, and
     everything after the last step:
     {800, 400 + 400 (h2), 804, 1208, 1608 - h2 400 - g2 400, 0}. */
  int64_t after[6] = {800, 800, 804, 1208, 808, 0};
  for (int t = 0; t < 6; ++t)
    CHECK_EQ_I64(r.liveAfter[t], after[t]);
  CHECK_EQ_I64(r.peakBytes, 1608 + 2000);
  CHECK_EQ_I64(r.peakStep, 4);
  CHECK_EQ_I64(r.peakOp, 4);
  CHECK(r.peakKind == AC_STEP_BWD);
  CHECK_EQ_I64(r.peakSched, 1);
  CHECK_EQ_I64(r.savedBytes, 400);
  CHECK(r.recomputeSeconds == 0);
  CHECK(r.steps[3].op == 3 && r.steps[3].kind == AC_STEP_BWD &&
        r.steps[3].sched == 1);
  acSimResultClear(&r);
  CHECK(r.steps == NULL && r.live == NULL && r.liveAfter == NULL &&
        r.numSteps == 0);
  acSimResultClear(NULL);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* The gradient modes on the chain, save-all (chainSaveAll's steps 0-4 are
 * unchanged, gw is returned at step 5):
 *   buffers:    static w 1000 + gw 1000 = 2000; step 5 808 (gw static);
 *               peak step 4: 1608 + 2000                        = 3608
 *   accumulate: static w 1000 + .grad 1000 = 2000; the backward's gw is
 *               new: step 5 808 + gw 1000 = 1808 <- peak         = 3808
 *   assign:     static w 1000; step 5 1808 <- peak, 1808 + 1000 = 2808 */
AC_TEST(gradModes) {
  AcGraph *g = chainGraph();
  AcPlan *p = acPlanCreate(g);
  acPlanSaveAll(g, p);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  static const struct { AcGradMode mode; int64_t stat, step5, peak; intptr_t at; } want[] = {
      {AC_GRADS_BUFFERS, 2000, 808, 3608, 4},
      {AC_GRADS_ACCUMULATE, 2000, 1808, 3808, 5},
      {AC_GRADS_ASSIGN, 1000, 1808, 2808, 5}};
  for (int k = 0; k < 3; ++k) {
    g->gradMode = want[k].mode;
    uint8_t root[16] = {0};
    acGraphMarkStaticRoots(g, root);
    CHECK(root[W] && root[GW] == (want[k].mode == AC_GRADS_BUFFERS));
    CHECK_EQ_I64(acGraphGradBytes(g), 1000); /* the gradients, whatever the mode */
    int64_t stat = -1;
    CHECK(acSimStaticBytesChecked(g, 0, 0, &stat, NULL) == AC_OK);
    CHECK_EQ_I64(stat, want[k].stat);
    CHECK_EQ_I64(acSimStaticBytes(g, 2.0, 0), want[k].stat + 2000); /* adam */
    AcSimResult r;
    CHECK(acSimulate(g, p, stat, 1, &r, NULL) == AC_OK);
    CHECK_EQ_I64(r.live[4], 1608);
    CHECK_EQ_I64(r.live[5], want[k].step5);
    CHECK_EQ_I64(r.peakBytes, want[k].peak);
    CHECK_EQ_I64(r.peakStep, want[k].at);
    acSimResultClear(&r);
  }
  acPlanDestroy(p);
  acGraphDestroy(g);
}

AC_TEST(chainRecomputeAll) {
  AcGraph *g = chainGraph();
  AcPlan *p = acPlanCreate(g);
  AcSimResult r;
  CHECK(acPlanDerive(g, p, NULL) == AC_OK); /* nothing saved */
  CHECK(p->recompute[0] && p->recompute[1] && !p->recompute[2]);
  CHECK(acSimulate(g, p, 2000, 1, &r, NULL) == AC_OK);
  CHECK_EQ_I64(r.numSteps, 8);
  /* fwd: 0 op0, 1 op1, 2 op2; bwd: 3 op3, 4 op0', 5 op1', 6 op4, 7 op5
     step 0: x 400 + h1 400                                  =  800
     step 1: x + h1 + h2                                     = 1200
     step 2: x 400 + h2 400 + loss 4                         =  804
     step 3: x 400 + loss 4 + dy 4 + g2 400                  =  808
     step 4: 808 + h1' 400                                   = 1208
     step 5: 808 + h1' 400 + h2' 400                         = 1608 <- peak
     step 6: 808 + h2' 400 + g1 400                          = 1608
     step 7: x 400 + loss 4 + dy 4 + g1 400                  =  808 */
  int64_t want[8] = {800, 1200, 804, 808, 1208, 1608, 1608, 808};
  for (int t = 0; t < 8; ++t)
    CHECK_EQ_I64(r.live[t], want[t]);
  CHECK_EQ_I64(r.peakBytes, 3608);
  CHECK_EQ_I64(r.peakStep, 5);
  CHECK_EQ_I64(r.peakOp, 1);
  CHECK(r.peakKind == AC_STEP_RECOMPUTE);
  CHECK(r.steps[4].kind == AC_STEP_RECOMPUTE && r.steps[4].op == 0);
  CHECK_NEAR(r.recomputeSeconds, 3.0, 1e-12); /* mm 1 s + tanh 2 s */
  CHECK_NEAR(r.recomputeFlops, 3.0e12, 1e-12);
  CHECK_EQ_I64(r.savedBytes, 0);
  acSimResultClear(&r);
  /* Without a timeline: the same peak, no arrays. */
  CHECK(acSimulate(g, p, 0, 0, &r, NULL) == AC_OK);
  CHECK_EQ_I64(r.peakBytes, 1608);
  CHECK(r.steps == NULL && r.live == NULL);
  acSimResultClear(&r);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* Workspaces: an op's scratch counts at its own step only, forward,
 * backward and recompute, on top of what is live then (the chain's levels
 * as in chainSaveAll and chainRecomputeAll).  Workspaces: mm 30, tanh 500,
 * bcast 2, mm_bwd 10000. */
AC_TEST(workspaceAtItsStep) {
  AcGraph *g = chainGraph();
  AcPlan *p = acPlanCreate(g);
  AcSimResult r;
  g->ops[0].workspace = 30;
  g->ops[1].workspace = 500;
  g->ops[3].workspace = 2;
  acPlanSaveAll(g, p);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(acSimulate(g, p, 2000, 1, &r, NULL) == AC_OK);
  /* save-all: 800+30, 1200+500, 804, 1208+2, 1608, 808 */
  int64_t saveAll[6] = {830, 1700, 804, 1210, 1608, 808};
  for (int t = 0; t < 6; ++t)
    CHECK_EQ_I64(r.live[t], saveAll[t]);
  CHECK_EQ_I64(r.peakBytes, 1700 + 2000);
  CHECK(r.peakStep == 1 && r.peakOp == 1 && r.peakKind == AC_STEP_FWD);
  acSimResultClear(&r);
  /* The backward's last op: 808 + 10000 at step 5, its neighbours as before. */
  g->ops[5].workspace = 10000;
  CHECK(acSimulate(g, p, 0, 1, &r, NULL) == AC_OK);
  CHECK_EQ_I64(r.live[4], 1608);
  CHECK_EQ_I64(r.live[5], 10808);
  CHECK(r.peakBytes == 10808 && r.peakStep == 5 && r.peakOp == 5);
  acSimResultClear(&r);
  g->ops[5].workspace = 0;
  /* Recompute all: mm' and tanh' carry their workspaces at their recompute
     steps (4 and 5): 800+30, 1200+500, 804, 808+2, 1208+30, 1608+500, 1608,
     808. */
  acPlanDestroy(p);
  p = acPlanCreate(g);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(acSimulate(g, p, 0, 1, &r, NULL) == AC_OK);
  int64_t none[8] = {830, 1700, 804, 810, 1238, 2108, 1608, 808};
  CHECK_EQ_I64(r.numSteps, 8);
  for (int t = 0; t < 8 && r.numSteps == 8; ++t)
    CHECK_EQ_I64(r.live[t], none[t]);
  CHECK(r.peakBytes == 2108 && r.peakStep == 5 && r.peakOp == 1 &&
        r.peakKind == AC_STEP_RECOMPUTE);
  acSimResultClear(&r);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* A workspace outside [0, 2^62 - 1], or one that with the values would
 * pass what autoac can count, is refused naming the op. */
AC_TEST(workspaceBounds) {
  for (int k = 0; k < 3; ++k) {
    AcGraphBuilder *b = acGraphBuilderCreate();
    addChain(b, "A");
    int64_t ws = k == 0 ? -1 : k == 1 ? AC_MAX_BYTES + 1 : AC_MAX_BYTES - 100;
    acGraphBuilderOp(b, 1)->workspace = ws;
    AcGraph *g = NULL;
    AcError err;
    AcStatus st = acGraphBuilderFinish(b, &g, &err);
    CHECK(st == AC_ERR_INVALID && g == NULL);
    if (st == AC_ERR_INVALID)
      CHECK(strstr(err.message, k < 2 ? "the workspace of 'tanh' in '@A'"
                                       : "add up to more than 2^62 - 1") != NULL);
    acGraphBuilderDestroy(b);
    acGraphDestroy(g);
  }
}

/* Save h1 instead of h2: only tanh is rerun.
   step 3: x 400 + h1 400 (saved) + loss 4 + dy 4 + g2 400 = 1208
   step 4 (tanh'): 1208 + h2' 400                        = 1608
   step 5 (op4):   x + loss + dy + g2 + h2' + g1 (h1 dead) = 1608 */
AC_TEST(chainSaveInput) {
  AcGraph *g = chainGraph();
  AcPlan *p = acPlanCreate(g);
  AcSimResult r;
  p->saved[H1] = 1;
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(!p->recompute[0] && p->recompute[1]);
  CHECK(acSimulate(g, p, 0, 1, &r, NULL) == AC_OK);
  int64_t want[7] = {800, 1200, 1204, 1208, 1608, 1608, 808};
  /* step 2: x 400 + h1 400 (saved, kept) + h2 400 + loss 4 = 1204 */
  CHECK_EQ_I64(r.numSteps, 7);
  for (int t = 0; t < 7 && t < r.numSteps; ++t)
    CHECK_EQ_I64(r.live[t], want[t]);
  CHECK_NEAR(r.recomputeSeconds, 2.0, 1e-12);
  acSimResultClear(&r);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* "A.fwd@0,A.fwd@1,A.bwd@0,A.bwd@1": both microbatches' saves live together.
   steps: fwd@0 0-2, fwd@1 3-5, bwd@0 6-8, bwd@1 9-11.
   step 7 (op4 of bwd@0): x0 400 + x1 400 + h2_0 400 + h2_1 400 + loss0 4
                          + loss1 4 + dy0 4 + g2_0 400 + g1_0 400 = 2412 */
AC_TEST(microbatches) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  addChain(b, "A");
  acGraphBuilderAddSched(b, 0, AC_PHASE_FWD, 0);
  acGraphBuilderAddSched(b, 0, AC_PHASE_FWD, 1);
  acGraphBuilderAddSched(b, 0, AC_PHASE_BWD, 0);
  acGraphBuilderAddSched(b, 0, AC_PHASE_BWD, 1);
  AcGraph *g = finish(b);
  CHECK(g != NULL);
  if (!g)
    return;
  AcPlan *p = acPlanCreate(g);
  AcSimResult r;
  acPlanSaveAll(g, p);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(acSimulate(g, p, 2000, 1, &r, NULL) == AC_OK);
  CHECK_EQ_I64(r.numSteps, 12);
  /* step 4 (op1 of fwd@1): x0 + h2_0 + loss0 + x1 + h1_1 + h2_1
                            = 400 + 400 + 4 + 400 + 400 + 400 = 2004 */
  CHECK_EQ_I64(r.live[4], 2004);
  CHECK_EQ_I64(r.live[7], 2412);
  CHECK_EQ_I64(r.peakBytes, 2412 + 2000);
  CHECK_EQ_I64(r.peakStep, 7);
  CHECK_EQ_I64(r.peakSched, 2);
  /* step 10 (op4 of bwd@1): x1 + h2_1 + loss1 + dy1 + g2_1 + g1_1 = 1608 */
  CHECK_EQ_I64(r.live[10], 1608);
  acSimResultClear(&r);
  acPlanDestroy(p);
  acGraphDestroy(g);

  /* 1F1B order: fwd@0, bwd@0, fwd@1, bwd@1: one microbatch at a time. */
  b = acGraphBuilderCreate();
  addChain(b, "A");
  acGraphBuilderAddSched(b, 0, AC_PHASE_FWD, 0);
  acGraphBuilderAddSched(b, 0, AC_PHASE_BWD, 0);
  acGraphBuilderAddSched(b, 0, AC_PHASE_FWD, 1);
  acGraphBuilderAddSched(b, 0, AC_PHASE_BWD, 1);
  g = finish(b);
  p = acPlanCreate(g);
  acPlanSaveAll(g, p);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(acSimulate(g, p, 2000, 0, &r, NULL) == AC_OK);
  CHECK_EQ_I64(r.peakBytes, 1608 + 2000);
  acSimResultClear(&r);
  /* Recompute counts per microbatch: 2 x (1 s + 2 s). */
  memset(p->saved, 0, (size_t)g->numValues);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(acSimulate(g, p, 2000, 0, &r, NULL) == AC_OK);
  CHECK_NEAR(r.recomputeSeconds, 6.0, 1e-12);
  acSimResultClear(&r);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* Two functions, default schedule A.fwd, B.fwd, B.bwd, A.bwd: A's saves
   stay live across B.  Steps: A.fwd 0-2, B.fwd 3-5, B.bwd 6-8, A.bwd 9-11.
   step 7 (B op4): xA 400 + hA2 400 + lossA 4 + xB 400 + hB2 400 + lossB 4
                   + dyB 4 + gB2 400 + gB1 400 = 2412
   Static: 2 x (w 1000 + gw 1000) = 4000. */
AC_TEST(twoFunctions) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  addChain(b, "A");
  addChain(b, "B");
  AcGraph *g = finish(b);
  CHECK(g != NULL);
  if (!g)
    return;
  CHECK_EQ_I64(acSimStaticBytes(g, 0, 0), 4000);
  AcPlan *p = acPlanCreate(g);
  AcSimResult r;
  acPlanSaveAll(g, p);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(acSimulate(g, p, 4000, 1, &r, NULL) == AC_OK);
  CHECK_EQ_I64(r.numSteps, 12);
  CHECK_EQ_I64(r.live[7], 2412);
  CHECK_EQ_I64(r.peakBytes, 6412);
  CHECK_EQ_I64(r.peakStep, 7);
  CHECK_EQ_I64(r.peakSched, 2); /* B.bwd */
  CHECK_EQ_I64(r.peakOp, 6 + 4); /* B's op4 */
  /* step 10 (A op4): xA + hA2 + lossA + dyA + gA2 + gA1 = 1608 (B is done) */
  CHECK_EQ_I64(r.live[10], 1608);
  acSimResultClear(&r);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* Views: v = view(h) allocates nothing and keeps h alive; a backward view
 * of a saved value keeps the saved storage.
 *   x primal 100, dy tangent 4
 *   op0 h = exp(x)        fwd 300
 *   op1 v = view(h)       fwd 0 (alias of h)
 *   op2 loss = sum(v)     fwd 4 output
 *   op3 g = mul(dy, v)    bwd 50
 *   op4 gx = add(g, x)    bwd 60, returned as grad (static 60)
 * Save-all saves h (root of the candidate v); bwd recomputes the view op.
 *   step 0: x 100 + h 300                 = 400
 *   step 1: x + h                         = 400
 *   step 2: x + h + loss 4                = 404
 *   step 3 (view' recompute): x + h + loss + dy 4 = 408
 *   step 4 (op3): 408 + g 50              = 458  <- peak
 *   step 5 (op4): x + loss + dy + g 50    = 158 (gx static) */
AC_TEST(views) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "v");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 100);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId op0 = tkAdd(b, "exp", &x, 1, 300, AC_KIND_ELEMENTWISE, 1, 1);
  AcId h = tkRes(b, op0);
  AcId op1 = tkAdd(b, "view", &h, 1, 0, AC_KIND_VIEW, 1, 0);
  AcId v = tkRes(b, op1);
  acGraphBuilderSetAlias(b, v, h);
  AcId op2 = tkAdd(b, "sum", &v, 1, 4, AC_KIND_REDUCTION, 1, 1);
  acGraphBuilderAddRet(b, tkRes(b, op2), AC_RET_OUTPUT);
  AcId op3 = tkAdd(b, "mul", (AcId[]){dy, v}, 2, 50, AC_KIND_ELEMENTWISE, 1, 1);
  AcId op4 = tkAdd(b, "add", (AcId[]){tkRes(b, op3), x}, 2, 60,
                   AC_KIND_ELEMENTWISE, 1, 1);
  acGraphBuilderAddRet(b, tkRes(b, op4), AC_RET_GRAD);
  AcGraph *g = finish(b);
  CHECK(g != NULL);
  if (!g)
    return;
  CHECK_EQ_I64(acSimStaticBytes(g, 0, 0), 60);
  AcPlan *p = acPlanCreate(g);
  AcSimResult r;
  acPlanSaveAll(g, p);
  CHECK(p->saved[h] && !p->saved[v]);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(p->recompute[op1] && !p->recompute[op0]);
  CHECK(acSimulate(g, p, 60, 1, &r, NULL) == AC_OK);
  int64_t want[6] = {400, 400, 404, 408, 458, 158};
  CHECK_EQ_I64(r.numSteps, 6);
  for (int t = 0; t < 6 && t < r.numSteps; ++t)
    CHECK_EQ_I64(r.live[t], want[t]);
  CHECK_EQ_I64(r.peakBytes, 458 + 60);
  CHECK_EQ_I64(r.savedBytes, 300);
  acSimResultClear(&r);
  /* Saving the view itself is refused: views are never saved. */
  p->saved[v] = 1;
  AcError err;
  CHECK(acPlanDerive(g, p, &err) == AC_ERR_INVALID);
  CHECK(err.value == v);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* A saved value the backward never reads is kept until the backward
 * starts, then freed.
 *   op0 a = exp(x)   fwd 200;  op1 loss = sum(a) fwd 4 output
 *   op2 g = mul(dy)  bwd 10, grad
 *   saved {a}:  step 0: x 100 + a 200 = 300; step 1: x + a + loss = 304;
 *               step 2 (op2): x + loss + dy 4 (g static) = 108 */
AC_TEST(unusedSave) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "u");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 100);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId op0 = tkAdd(b, "exp", &x, 1, 200, AC_KIND_ELEMENTWISE, 1, 1);
  AcId a = tkRes(b, op0);
  AcId op1 = tkAdd(b, "sum", &a, 1, 4, AC_KIND_REDUCTION, 1, 1);
  acGraphBuilderAddRet(b, tkRes(b, op1), AC_RET_OUTPUT);
  AcId op2 = tkAdd(b, "mul", &dy, 1, 10, AC_KIND_ELEMENTWISE, 1, 1);
  acGraphBuilderAddRet(b, tkRes(b, op2), AC_RET_GRAD);
  AcGraph *g = finish(b);
  AcPlan *p = acPlanCreate(g);
  AcSimResult r;
  p->saved[a] = 1;
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(acSimulate(g, p, 0, 1, &r, NULL) == AC_OK);
  CHECK_EQ_I64(r.numSteps, 3);
  CHECK_EQ_I64(r.live[1], 304);
  CHECK_EQ_I64(r.live[2], 108);
  acSimResultClear(&r);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* An underived plan (recompute set stale) is refused, not simulated. */
AC_TEST(underived) {
  AcGraph *g = chainGraph();
  AcPlan *p = acPlanCreate(g);
  AcSimResult r;
  AcError err;
  CHECK(acSimulate(g, p, 0, 1, &r, &err) == AC_ERR_INVALID);
  CHECK(r.steps == NULL && r.live == NULL);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* The cross-check: acSimulate against the naive liveness on random graphs,
 * random save sets and random schedules (several functions, microbatches). */
/* Destination-style ops (linalg `outs`): the chain with an init per op.
 *   args: x primal 400, w param 1000, dy tangent 4
 *   op0 e1 = empty                  fwd 400
 *   op1 h1 = mm(x, w) outs(e1)      fwd 400
 *   op2 e2 = empty                  fwd 400
 *   op3 h2 = tanh(h1) outs(e2)      fwd 400
 *   op4 loss = sum(h2)              fwd 4     output
 *   op5 e3 = empty                  bwd 400
 *   op6 g2 = bcast(dy) outs(e3)     bwd 400
 *   op7 e4 = empty                  bwd 400
 *   op8 g1 = tanh_bwd(g2, h2) outs(e4)  bwd 400
 *   op9 e5 = empty                  bwd 1000
 *   op10 f5 = fill outs(e5)         bwd 1000
 *   op11 gw = mm_bwd(g1, x) outs(f5) bwd 1000  grad (static)
 * Static part 2000. */
static AcGraph *inPlaceGraph(int dps) {
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "f");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 400);
  AcId w = acGraphBuilderAddArg(b, AC_ROLE_PARAM, 1000);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
#define AC_INIT(bytes) tkRes(b, tkAdd(b, "empty", NULL, 0, bytes, AC_KIND_ELEMENTWISE, 1, 0.01))
#define AC_DPS(name, ops, n, init, bytes, kind, secs)                          \
  dpsOp(b, tkAdd(b, name, ops, n, bytes, kind, 1, secs), dps ? init : AC_NONE)
  AcId e1 = AC_INIT(400);
  AcId h1 = AC_DPS("mm", ((AcId[]){x, w, e1}), 3, e1, 400, AC_KIND_MATMUL, 1.0);
  AcId e2 = AC_INIT(400);
  AcId h2 = AC_DPS("tanh", ((AcId[]){h1, e2}), 2, e2, 400, AC_KIND_ELEMENTWISE, 2.0);
  AcId loss = tkRes(b, tkAdd(b, "sum", &h2, 1, 4, AC_KIND_REDUCTION, 1, 0.5));
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  AcId e3 = AC_INIT(400);
  AcId g2 = AC_DPS("bcast", ((AcId[]){dy, e3}), 2, e3, 400, AC_KIND_DATA_MOVEMENT, 0.1);
  AcId e4 = AC_INIT(400);
  AcId g1 = AC_DPS("tanh_bwd", ((AcId[]){g2, h2, e4}), 3, e4, 400,
                   AC_KIND_ELEMENTWISE, 0.1);
  AcId e5 = AC_INIT(1000);
  AcId f5 = AC_DPS("fill", &e5, 1, e5, 1000, AC_KIND_ELEMENTWISE, 0.01);
  AcId gw = AC_DPS("mm_bwd", ((AcId[]){g1, x, f5}), 3, f5, 1000, AC_KIND_MATMUL, 0.1);
  acGraphBuilderAddRet(b, gw, AC_RET_GRAD);
#undef AC_INIT
#undef AC_DPS
  return finish(b);
}

AC_TEST(inPlace) {
  for (int dps = 0; dps < 2; ++dps) {
    AcGraph *g = inPlaceGraph(dps);
    CHECK(g != NULL);
    if (!g)
      return;
    AcPlan *p = acPlanCreate(g);
    AcSimResult r;
    acPlanSaveAll(g, p);
    CHECK(acPlanDerive(g, p, NULL) == AC_OK);
    CHECK(acSimulate(g, p, 2000, 1, &r, NULL) == AC_OK);
    CHECK_EQ_I64(r.numSteps, 12);
    /* Without in-place writes, each init lives until its writer runs:
         s0 x 400 + e1 400 = 800; s1 + h1 = 1200; s2 x + h1 + e2 = 1200;
         s3 + h2 = 1600; s4 x + h2 + loss 4 = 804; s5 + dy 4 + e3 = 1208;
         s6 + g2 = 1608; s7 x + h2 + loss + dy + g2 + e4 = 1608 (the
         tangent lives through the backward); s8 + g1 = 2008;
         s9 x + loss + dy + g1 + e5 1000 = 1808; s10 + f5 1000 = 2808;
         s11 x + loss + dy + g1 + f5 = 1808 (gw static).
       With them, an init stops the step before its writer (its result takes
       the storage over): s1 800, s3 1200, s6 1208, s8 1608; f5 is written
       into the static gw and e5 into f5, so both are gw's storage:
       s9..s11 x + loss + dy + g1 = 808. */
    int64_t without[12] = {800, 1200, 1200, 1600, 804, 1208, 1608, 1608, 2008, 1808, 2808, 1808};
    int64_t with[12] = {800, 800, 1200, 1200, 804, 1208, 1208, 1608, 1608, 808, 808, 808};
    for (int t = 0; t < 12; ++t)
      CHECK_EQ_I64(r.live[t], dps ? with[t] : without[t]);
    CHECK_EQ_I64(r.peakBytes, dps ? 1608 + 2000 : 2808 + 2000);
    acSimResultClear(&r);

    /* Recompute everything: the backward reruns op0..op3 before op8, and
       the recomputed inits are written in place too:
         s5 e3: x + loss + dy + e3 = 808; s6 g2 808;
         s7 e4: x + loss + dy + g2 + e4 = 1208; s8 e1': + e1' = 1608;
         s9 h1' (in e1') 1608; s10 e2': + e2' = 2008;
         s11 h2' (in e2') 2008, e4 still live (its writer is op8);
         s12 g1 (in e4): x + loss + dy + g2 + h2' + g1 = 1608; s13..s15 808. */
    AcPlan *q = acPlanCreate(g);
    CHECK(acPlanDerive(g, q, NULL) == AC_OK);
    CHECK(acSimulate(g, q, 2000, 1, &r, NULL) == AC_OK);
    if (dps) {
      int64_t want[16] = {800, 800, 1200, 1200, 804, 808, 808, 1208,
                          1608, 1608, 2008, 2008, 1608, 808, 808, 808};
      CHECK_EQ_I64(r.numSteps, 16);
      for (int t = 0; t < 16 && t < r.numSteps; ++t)
        CHECK_EQ_I64(r.live[t], want[t]);
      CHECK_EQ_I64(r.peakBytes, 2008 + 2000);
    }
    acSimResultClear(&r);
    acPlanDestroy(q);
    acPlanDestroy(p);
    acGraphDestroy(g);
  }
}

AC_TEST(randomCrossCheck) {
  int graphs = 0, plans = 0, wsOps = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    int nFuncs = 1 + (int)(seed % 3 == 0);
    int nMicro = 1 + (int)(seed % 4 == 1);
    AcGraph *g = tkGenGraph(seed, nFuncs, nMicro, 14, 10);
    CHECK(g != NULL);
    if (!g)
      continue;
    ++graphs;
    if (seed % 2 == 0)
      wsOps += tkWorkspaces(g, seed, 35);
    uint64_t rs = seed;
    AcPlan *p = acPlanCreate(g);
    g->gradMode = (AcGradMode)(seed % 3); /* every gradient mode */
    int64_t staticB = acSimStaticBytes(g, 1.0, 16);
    for (int k = 0; k < 4; ++k) {
      int ok = k == 0 ? (acPlanSaveAll(g, p), acPlanDerive(g, p, NULL) == AC_OK)
                      : tkRandomPlan(g, &rs, k == 1 ? 0 : 30 * k, p);
      CHECK(ok);
      if (!ok)
        continue;
      TkNaive naive;
      AcSimResult r;
      AcError err;
      CHECK(tkNaiveSimulate(g, p, staticB, &naive));
      AcStatus st = acSimulate(g, p, staticB, 1, &r, &err);
      CHECK(st == AC_OK);
      if (st != AC_OK) {
        printf("  seed %d: %s\n", (int)seed, err.message);
        continue;
      }
      ++plans;
      CHECK_EQ_I64(r.numSteps, naive.numSteps);
      CHECK_EQ_I64(r.peakBytes, naive.peak);
      CHECK_EQ_I64(r.peakStep, naive.peakStep);
      CHECK_NEAR(r.recomputeSeconds, naive.recomputeSeconds, 1e-9);
      int same = r.numSteps == naive.numSteps;
      for (intptr_t t = 0; same && t < r.numSteps; ++t)
        same = r.live[t] == naive.live[t] &&
               r.liveAfter[t] == naive.liveAfter[t];
      CHECK(same);
      if (!same || r.peakBytes != naive.peak)
        printf("  mismatch at seed %d plan %d\n", (int)seed, k);
      acSimResultClear(&r);
    }
    acPlanDestroy(p);
    acGraphDestroy(g);
  }
  printf("  cross-checked %d plans on %d graphs (%d ops with a workspace)\n",
         plans, graphs, wsOps);
  CHECK(graphs >= 200 && wsOps >= 500);
}

/* Scale: a 100k-op chain (50k forward, 50k backward) derives, groups and
 * simulates in linear time without recursion.
 *   h_i = f(h_{i-1}) 8 B each, h_0 = f(x), x 8 B; loss = sum(h_N) 4 B;
 *   g_i = k(g_{i+1}, h_i) 8 B, backward from i = N down to 1 (g_{N+1} = dy 4 B).
 * Save-all keeps every h: the first backward step holds
 *   x 8 + 8 N (all h) + loss 4 + dy 4 + g_N 8 = 8 N + 24.
 * Nothing saved: one group of N ops before the first backward op; the last
 * recompute step holds x 8 + loss 4 + dy 4 + 8 N (h' all alive, each read
 * later) = 8 N + 16, and the first backward op adds g_N: 8 N + 24. */
AC_TEST(scale) {
  enum { N = 50000 };
  AcGraphBuilder *b = acGraphBuilderCreate();
  acGraphBuilderAddFunc(b, "big");
  AcId x = acGraphBuilderAddArg(b, AC_ROLE_PRIMAL, 8);
  AcId dy = acGraphBuilderAddArg(b, AC_ROLE_TANGENT, 4);
  AcId *h = malloc(sizeof(AcId) * (N + 1));
  h[0] = x;
  for (int i = 1; i <= N; ++i)
    h[i] = tkRes(b, tkAdd(b, "f", &h[i - 1], 1, 8, AC_KIND_ELEMENTWISE, 1, 1e-6));
  AcId loss = tkRes(b, tkAdd(b, "sum", &h[N], 1, 4, AC_KIND_REDUCTION, 1, 1));
  acGraphBuilderAddRet(b, loss, AC_RET_OUTPUT);
  AcId gprev = dy;
  for (int i = N; i >= 1; --i)
    gprev = tkRes(b, tkAdd(b, "k", (AcId[]){gprev, h[i]}, 2, 8,
                           AC_KIND_ELEMENTWISE, 1, 1e-6));
  acGraphBuilderAddRet(b, gprev, AC_RET_GRAD);
  free(h);
  AcGraph *g = finish(b);
  CHECK(g != NULL);
  if (!g)
    return;
  CHECK_EQ_I64(g->numOps, 2 * N + 1);
  AcPlan *p = acPlanCreate(g);
  AcSimResult r;
  acPlanSaveAll(g, p);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  CHECK(acSimulate(g, p, 0, 1, &r, NULL) == AC_OK);
  CHECK_EQ_I64(r.peakBytes, 8 * (int64_t)N + 24);
  CHECK_EQ_I64(r.peakStep, N + 1);
  CHECK_EQ_I64(r.savedBytes, 8 * (int64_t)N);
  acSimResultClear(&r);
  memset(p->saved, 0, (size_t)g->numValues);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  AcRecomputeGroups *gr = NULL;
  CHECK(acPlanGroups(g, p, &gr, NULL) == AC_OK);
  CHECK(gr && gr->numGroups == 1 && gr->groups[0].numOps == N);
  acRecomputeGroupsDestroy(gr);
  CHECK(acSimulate(g, p, 0, 0, &r, NULL) == AC_OK);
  CHECK_EQ_I64(r.numSteps, 3 * (int64_t)N + 1);
  CHECK_EQ_I64(r.peakBytes, 8 * (int64_t)N + 24);
  CHECK_EQ_I64(r.peakStep, 2 * (int64_t)N + 1);
  CHECK(r.peakKind == AC_STEP_BWD);
  acSimResultClear(&r);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* Allocation failures give AC_ERR_NOMEM and leak nothing. */
static void allocFailuresOn(AcGraph *g) {
  AcPlan *p = acPlanCreate(g);
  acPlanSaveAll(g, p);
  CHECK(acPlanDerive(g, p, NULL) == AC_OK);
  int sawOk = 0;
  for (int64_t n = 1; n < 200 && !sawOk; ++n) {
    AcSimResult r;
    acAllocFailAfter(n);
    AcStatus st = acSimulate(g, p, 0, 1, &r, NULL);
    acAllocFailAfter(0);
    CHECK(st == AC_OK || st == AC_ERR_NOMEM);
    sawOk = st == AC_OK;
    acSimResultClear(&r);
  }
  CHECK(sawOk);
  acPlanDestroy(p);
  acGraphDestroy(g);
}

/* Every allocation failing in turn: a clean NOMEM (no leak, under ASan),
 * then success; on a random graph and on one with in-place writes (whose
 * records grow during the walk). */
AC_TEST(allocFailures) {
  allocFailuresOn(tkGenGraph(7, 2, 2, 10, 8));
  tkDpsPercent = 60;
  allocFailuresOn(tkGenGraph(11, 2, 2, 50, 25)); /* > 64 writes: the records grow */
  tkDpsPercent = 0;
  allocFailuresOn(inPlaceGraph(1));
}

int main(void) {
  RUN(staticBytes);
  RUN(chainSaveAll);
  RUN(gradModes);
  RUN(chainRecomputeAll);
  RUN(chainSaveInput);
  RUN(workspaceAtItsStep);
  RUN(workspaceBounds);
  RUN(microbatches);
  RUN(twoFunctions);
  RUN(views);
  RUN(unusedSave);
  RUN(underived);
  RUN(inPlace);
  RUN(randomCrossCheck);
  RUN(scale);
  RUN(allocFailures);
  return acTestSummary("simulate");
}
