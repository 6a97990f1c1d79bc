/* pass.c - the single-plan pass body (pass/pass.h): import, plan, simulate,
 * report, rewrite.  It knows nothing of buckets: they drive it from above
 * (buckets.c), and the entry points choose between them (entry.c). */
#include "autoac/autoac.h"
#include "import/import.h"
#include "pass/dynamic.h"
#include "pass/pass.h"
#include "import/branches.h"
#include "partition/partition.h"
#include "plan/plan_internal.h"
#include "autoac/report.h"
#include "rewrite/rewrite.h"
#include "autoac/simulate.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

#include "stage_times.h"
#include "autoac/lower.h"

#include <assert.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

AcStageTimes *acStageTimes;

/* CPU seconds of the process, for acStageTimes; 0 when it is not set. */
static double acStageClock(void) {
  struct timespec t;
  if (!acStageTimes)
    return 0;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Adds the time since *t0 to *slot and restarts the clock. */
static void acStageAdd(double *slot, double *t0) {
  if (!acStageTimes)
    return;
  double t = acStageClock();
  *slot += t - *t0;
  *t0 = t;
}

/* Location for an error about graph entities. */
static MlirLocation acErrLoc(const AcImport *imp, const AcError *err) {
  if (err->op != AC_NONE)
    return mlirOperationGetLocation(imp->ops[err->op]);
  if (err->value != AC_NONE && imp->graph->values[err->value].producer != AC_NONE)
    return mlirOperationGetLocation(imp->ops[imp->graph->values[err->value].producer]);
  return mlirOperationGetLocation(imp->module);
}

/* Could a plan have recomputed op `o` but for the mutation rule: is one of
 * its results read by a backward op or by an op that may be recomputed? */
static int acPinMatters(const AcGraph *g, AcId o) {
  const AcOp *op = &g->ops[o];
  for (int32_t r = 0; r < op->numResults; ++r) {
    const AcValue *v = &g->values[op->firstResult + r];
    for (int32_t u = 0; u < v->numUses; ++u) {
      const AcOp *user = &g->ops[acValueUse(g, op->firstResult + r, u)];
      if (user->phase == AC_PHASE_BWD || user->recomputable ||
          user->mutationPinned)
        return 1;
    }
  }
  return 0;
}

/* One warning per function where writes in place (or tensors with reference
 * semantics) stop ops from being recomputed that otherwise could be
 * (graph.h, mutation), which may leave memory on the table.  Writes that
 * change nothing (torch's dropout: bernoulli_ into a fresh empty_like, both
 * never recomputed anyway) say nothing. */
static void acWarnMutation(const AcImport *imp) {
  const AcGraph *g = imp->graph;
  for (AcId f = 0; f < g->numFuncs; ++f) {
    const AcFunc *fn = &g->funcs[f];
    intptr_t pinned = 0;
    AcId first = AC_NONE, firstPinned = AC_NONE;
    for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o) {
      if (first == AC_NONE && g->ops[o].mutates != AC_NONE)
        first = o;
      if (!g->ops[o].mutationPinned || !acPinMatters(g, o))
        continue;
      pinned++;
      if (firstPinned == AC_NONE)
        firstPinned = o;
    }
    if (pinned == 0)
      continue;
    char msg[768];
    if (first != AC_NONE)
      snprintf(msg, sizeof msg,
               "autoac: '%s' writes a tensor of '@%s' in place; the %ld ops "
               "that read or make storage written in place are never "
               "recomputed (their results are saved instead)",
               g->ops[first].name, fn->name, (long)pinned);
    else
      snprintf(msg, sizeof msg,
               "autoac: '@%s' has tensors with reference semantics "
               "(!torch.tensor); the %ld ops that read or make them are never "
               "recomputed (run torch-mlir's value-semantics passes first to "
               "let autoac plan them)", fn->name, (long)pinned);
    AcId at = first != AC_NONE ? first : firstPinned;
    acEmitDiagnostic(mlirOperationGetLocation(imp->ops[at]), 1, msg);
  }
}

/* The name of op `o` as the user wrote the cost: its cost-table entry
 * ("entry 'torch.aten.mm'") or the op ("op 'math.exp'"). */
static void acCostSource(const AcGraph *g, const AcCostTable *table, AcId o,
                         char *buf, size_t n) {
  const AcCostOverride *e = acCostTableLookup(table, g->ops[o].name);
  snprintf(buf, n, "%s '%.200s'", e ? "entry" : "op", e ? e->name : g->ops[o].name);
}

/* Refuses costs whose sums over the step (every op once per schedule
 * entry, as acGraphStepSeconds adds them) pass what a double holds, with
 * room for rounding (AC_COST_SUM_MAX: a recomputation's sum, a subset added
 * in another order, stays finite too), naming the op that crosses it and the largest one before
 * it: they would print as "inf s" and "-nan%" and could not be written as
 * JSON.  Only a cost table can set such costs (1e308 s). */
#define AC_COST_SUM_MAX (DBL_MAX * (1 - 1e-6))

static AcStatus acCheckCostSums(const AcImport *imp, const AcCostTable *table,
                                AcError *err) {
  const AcGraph *g = imp->graph;
  for (int k = 0; k < 2; ++k) {
    double sum = 0;
    AcId biggest = AC_NONE;
    for (intptr_t i = 0; i < g->numSched; ++i) {
      const AcSchedEntry *e = &g->sched[i];
      const AcFunc *fn = &g->funcs[e->func];
      for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o) {
        if (g->ops[o].phase != e->phase)
          continue;
        double x = k ? g->ops[o].flops : g->ops[o].seconds;
        sum += x;
        if (isfinite(sum) && sum <= AC_COST_SUM_MAX) {
          if (biggest == AC_NONE ||
              x > (k ? g->ops[biggest].flops : g->ops[biggest].seconds))
            biggest = o;
          continue;
        }
        char a[256], b[300] = " alone";
        const char *unit = k ? "FLOPs" : "s";
        acCostSource(g, table, o, a, sizeof a);
        if (biggest != AC_NONE) {
          char c[256];
          acCostSource(g, table, biggest, c, sizeof c);
          snprintf(b, sizeof b, " with %s (%.3g %s) before it", c,
                   k ? g->ops[biggest].flops : g->ops[biggest].seconds, unit);
        }
        return acErrorSet(err, AC_ERR_INVALID, o, AC_NONE,
                          "%s%s%s: the %s of the step add up to more than "
                          "autoac can count (%.3g): %s (%.3g %s)%s",
                          table ? "cost table '" : "autoac",
                          table ? acCostTableSource(table) : "", table ? "'" : "",
                          k ? "FLOPs" : "seconds", AC_COST_SUM_MAX, a, x, unit, b);
      }
    }
  }
  return AC_OK;
}

/* acImportForOptions, naming the values (AC_IMPORT_NAMES) only when `names`. */
static AcStatus acImportForOptionsNames(MlirOperation module, const AcOptions *opts,
                                        int names, AcImport **out) {
  AcCostTable *table = NULL;
  AcError err;
  MlirLocation errLoc = mlirOperationGetLocation(module);
  AcStatus st = AC_OK;
  acErrorClear(&err);
  *out = NULL;
  if (opts->costTable &&
      (st = acCostTableCreateFromFile(opts->costTable, &table, &err)) != AC_OK) {
    mlirEmitError(errLoc, err.message);
    goto cleanup;
  }
  /* rng=replay rewrites implicit random draws before the graph is read. */
  if (opts->rng == AC_RNG_REPLAY &&
      (st = acRewriteRngReplay(module, NULL, &err)) != AC_OK) {
    mlirEmitError(errLoc, err.message);
    goto cleanup;
  }
  st = acImportModuleDims(module, opts->device, table, names ? AC_IMPORT_NAMES : 0,
                          opts->maxDim, out, &err, &errLoc);
  if (st == AC_OK && (st = acCheckCostSums(*out, table, &err)) != AC_OK) {
    errLoc = mlirOperationGetLocation((*out)->ops[err.op]);
    acImportDestroy(*out);
    *out = NULL;
  }
  if (st != AC_OK) {
    mlirEmitError(errLoc, err.message);
    goto cleanup;
  }
  acImportWarnUnknownOps(*out);
  (*out)->graph->gradMode = opts->grads;
  (*out)->graph->tangentMode = opts->tangents;
  /* The host link offload plans with (none: offload=off, or no host memory
     to offload to). */
  acCostTableHostLink(table, opts->device, &(*out)->graph->hostBandwidth,
                      &(*out)->graph->hostLatency);
  if (opts->offload == AC_OFFLOAD_OFF || opts->hostBudget == 0)
    (*out)->graph->hostBandwidth = 0;
  (*out)->graph->hostBudget = opts->hostBudget > 0 ? opts->hostBudget : 0;
  /* The rewrite copies builtin ranked tensors and torch value tensors
     (lib/rewrite/offload.c). */
  for (intptr_t v = 0; v < (*out)->graph->numValues; ++v)
    (*out)->graph->values[v].noOffload =
        !acRewriteCanOffloadType(mlirValueGetType((*out)->values[v]));
  (*out)->cpuDevice = opts->device && opts->device->name &&
                      strncmp(opts->device->name, "cpu", 3) == 0;
cleanup:
  acCostTableDestroy(table);
  return st;
}

AcStatus acImportForOptions(MlirOperation module, const AcOptions *opts,
                            AcImport **out) {
  return acImportForOptionsNames(module, opts, 1, out);
}

/* Plans with `strategy` (or reads plan-in) into `plan`, derived, and
 * simulates it into `sim` (with the timeline when `wantTimeline`); the
 * planner hands over the simulation it made of its plan, if any. */
static AcStatus acMakePlan(const AcImport *imp, const AcOptions *opts,
                           AcStrategy strategy, int64_t staticBytes,
                           AcPlan *plan, AcSearchStats *search,
                           int wantTimeline, AcSimResult *sim, AcError *err) {
  const AcGraph *g = imp->graph;
  if (opts->planIn) {
    AcStatus st = acPlanFileRead(g, (const char *const *)imp->valueNames,
                                 opts->planIn, plan, err);
    if (st == AC_OK)
      st = acPlanDerive(g, plan, err);
    if (st == AC_OK)
      st = acSimulate(g, plan, staticBytes, wantTimeline, sim, err);
    return st;
  }
  AcPlanOptions po;
  po.strategy = strategy;
  po.budget = opts->budget;
  po.staticBytes = staticBytes;
  /* The default strategy meets every budget its searches can (greedy, then
     beam and the ILP within their bounds when greedy falls short). */
  po.floorSearch = strategy == AC_STRATEGY_GREEDY;
  po.timeLimit = opts->timeLimit;
  return acPlanRunSim(g, &po, plan, search, wantTimeline, sim, err);
}

/* What a plan's peak at an unreachable budget is, per strategy: each
 * speaks of its own floor. */
static void acBudgetFloorText(AcStrategy s, char *buf, size_t n) {
  switch (s) {
  case AC_STRATEGY_GREEDY:
    snprintf(buf, n, "the lowest peak reachable");
    break;
  case AC_STRATEGY_SAVE_ALL:
  case AC_STRATEGY_MINCUT:
    snprintf(buf, n, "the peak of the %s plan (it does not depend on the "
             "budget)", acStrategyName(s));
    break;
  case AC_STRATEGY_KNAPSACK:
    snprintf(buf, n, "the peak of the knapsack baseline's plan for it");
    break;
  case AC_STRATEGY_BEAM:
    snprintf(buf, n, "the lowest peak the beam search reaches");
    break;
  default:
    snprintf(buf, n, "the lowest peak the %s reaches", s == AC_STRATEGY_ILP
                                                          ? "ILP" : acStrategyName(s));
    break;
  }
}

/* The report's compiled_peak ("exact", "at most: <why>" or "not
 * guaranteed: <why>") into `buf`: whether a call in a joint function keeps
 * the program auto-ac-lower-cpu compiles from peaking where the simulator
 * says (acCallsCaveat; warns once, at the first such call, naming it), or
 * a branch decided at run time allocates in one region only (the plan
 * counts the allocation: the program peaks there or below). */
static void acCompiledPeak(MlirOperation module, const AcImport *imp, char *buf,
                           size_t n) {
  snprintf(buf, n, "exact");
  for (intptr_t f = 0; f < imp->graph->numFuncs; ++f) {
    MlirOperation at = {NULL};
    if (!acRuntimeBranchAllocates(imp->funcOps[f], &at))
      continue;
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(at));
    snprintf(buf, n, "at most: an %.*s decided at run time yields a new buffer "
             "from one region and an existing one from another; the plan counts "
             "the new one", (int)name.length, name.data);
    break;
  }
  /* What region bodies make (import/bodies.h). */
  if (imp->bodies.level == AC_BODY_AT_MOST && !strcmp(buf, "exact"))
    snprintf(buf, n, "at most: %s", imp->bodies.why);
  if (imp->bodies.level == AC_BODY_UNKNOWN) {
    snprintf(buf, n, "not guaranteed: %s", imp->bodies.why);
    char msg[800];
    snprintf(msg, sizeof msg, "autoac: the compiled program's peak is not "
             "guaranteed to be the planned one: %s", imp->bodies.why);
    acEmitDiagnostic(mlirOperationGetLocation(imp->bodies.at), 1, msg);
  }
  for (intptr_t f = 0; f < imp->graph->numFuncs; ++f) {
    char why[600];
    MlirOperation at = {NULL};
    if (!acCallsCaveat(module, imp->funcOps[f], why, sizeof why, &at))
      continue;
    snprintf(buf, n, "not guaranteed: %s", why);
    char msg[800];
    snprintf(msg, sizeof msg, "autoac: the compiled program's peak is not "
             "guaranteed to be the planned one: %s", why);
    acEmitDiagnostic(mlirOperationGetLocation(mlirOperationIsNull(at)
                                                  ? imp->funcOps[f] : at),
                     1, msg);
    return;
  }
}

/* One run of the pass body: what its stages share.  The stages run in
 * order, each returning a status (its errors emitted); `done` ends the run
 * early with AC_OK (no joint function: the module is left unchanged). */
typedef struct AcPassRun {
  MlirOperation module;
  MlirLocation loc;          /* the module's: where most errors are emitted */
  const AcOptions *opts;
  int wantReport;            /* a report file, or the caller's report text */
  int done;
  double t0;                 /* acStageTimes' clock */
  AcImport *imp;
  const AcGraph *g;
  int64_t staticBytes;
  AcPlan *plan, *base;       /* the plan; the baselines' scratch */
  AcSearchStats search;
  AcSimResult sim;           /* of plan (with the timeline for the report) */
  AcReportInput rin;         /* the baselines' peaks first, then the rest */
  int64_t mincutSavedBytes;  /* of the min-cut baseline; -1: not planned */
  char compiledPeak[700];
  char *dynJson, *report, *planText;
  AcRecomputeGroups *groups;
  AcError err;
} AcPassRun;

/* Imports the module (value names only for the report and plan files);
 * with no joint function, an error if a file was asked for, else a
 * warning and `done`. */
static AcStatus acPassImport(AcPassRun *r) {
  const AcOptions *opts = r->opts;
  AcStatus st = acImportForOptionsNames(
      r->module, opts, r->wantReport || opts->planIn || opts->planOut, &r->imp);
  if (st != AC_OK)
    return st;
  if (acStageTimes)
    acStageAdd(&acStageTimes->import, &r->t0);
  r->g = r->imp->graph;
  if (r->g->numFuncs == 0 && (opts->report || opts->planOut)) {
    /* The file asked for is never silently skipped (contract, section 2). */
    char msg[600];
    snprintf(msg, sizeof msg, "autoac: no function is marked ac.joint, so "
             "there is no plan: the %s '%.500s' is not written",
             opts->report ? "report" : "plan file",
             opts->report ? opts->report : opts->planOut);
    mlirEmitError(r->loc, msg);
    return AC_ERR_INVALID;
  }
  if (r->g->numFuncs == 0) {
    acEmitDiagnostic(r->loc, 1, "autoac: no function is marked ac.joint; the "
                     "module is left unchanged");
    r->done = 1;
  }
  return AC_OK;
}

/* A limit cut the search short: say so (the ILP's node limit, its
 * documented bound, is only in the report). */
static void acWarnSearchLimit(const AcPassRun *r) {
  const AcOptions *opts = r->opts;
  if (opts->planIn ||
      !(r->search.timedOut ||
        (r->search.limited && opts->strategy != AC_STRATEGY_ILP)))
    return;
  char msg[512];
  if (r->search.timedOut)
    snprintf(msg, sizeof msg,
             "autoac: planning stopped at the time limit (%g s); the best "
             "plan found by then is applied (report: search.limited)",
             opts->timeLimit);
  else
    snprintf(msg, sizeof msg,
             "autoac: %s stopped at its work limit (docs/planner.md, "
             "\"Bounded time\"); the best plan found by then is applied "
             "(report: search.limited)",
             opts->strategy == AC_STRATEGY_BEAM ? "beam search"
                                                : "the greedy search");
  acEmitDiagnostic(r->loc, 1, msg);
}

/* The static bytes, then the plan (and its simulation) with the options'
 * strategy or plan file. */
static AcStatus acPassPlan(AcPassRun *r) {
  const AcOptions *opts = r->opts;
  acWarnMutation(r->imp);
  AcStatus st = acSimStaticBytesChecked(r->g, opts->optimizerFactor,
                                        opts->reserve, &r->staticBytes, &r->err);
  if (st != AC_OK) {
    mlirEmitError(r->loc, r->err.message);
    return st;
  }
  r->plan = acPlanCreate(r->g);
  r->base = acPlanCreate(r->g);
  if (!r->plan || !r->base) {
    st = acErrorSet(&r->err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "autoac: out of memory");
    mlirEmitError(r->loc, r->err.message);
    return st;
  }
  /* The timeline is for the report only. */
  st = acMakePlan(r->imp, opts, opts->strategy, r->staticBytes, r->plan,
                  &r->search, r->wantReport, &r->sim, &r->err);
  if (st != AC_OK) {
    mlirEmitError(acErrLoc(r->imp, &r->err), r->err.message);
    return st;
  }
  if (acStageTimes)
    acStageAdd(&acStageTimes->plan, &r->t0);
  acWarnSearchLimit(r);
  return AC_OK;
}

/* The baselines' peaks into r->rin.baselinePeak (-1 where not planned):
 * save-all and mincut, knapsack too when there is a budget, for the report
 * (and ac-opt's summary, which reads it) only.  Without one they are not
 * planned, except the min-cut plan that the knapsack's warning at an
 * unreachable budget quotes.  Their failures only leave a peak at -1. */
static void acPassBaselines(AcPassRun *r) {
  const AcOptions *opts = r->opts;
  const AcGraph *g = r->g;
  for (int s = 0; s < AC_STRATEGY_COUNT; ++s)
    r->rin.baselinePeak[s] = -1;
  int knapsackOver = !opts->planIn && opts->strategy == AC_STRATEGY_KNAPSACK &&
                     opts->budget >= 0 && r->sim.peakBytes > opts->budget;
  for (int s = 0; s < AC_STRATEGY_COUNT; ++s) {
    if (s != AC_STRATEGY_SAVE_ALL && s != AC_STRATEGY_MINCUT)
      continue;
    if (!r->wantReport && !(s == AC_STRATEGY_MINCUT && knapsackOver))
      continue;
    AcPlanOptions po = {(AcStrategy)s, -1, r->staticBytes, 0, 0};
    AcSimResult bs;
    memset(&bs, 0, sizeof bs);
    if (acPlanRun(g, &po, r->base, &r->err) == AC_OK &&
        acSimulate(g, r->base, r->staticBytes, 0, &bs, &r->err) == AC_OK) {
      r->rin.baselinePeak[s] = bs.peakBytes;
      if (s == AC_STRATEGY_MINCUT)
        r->mincutSavedBytes = bs.savedBytes;
    }
    acSimResultClear(&bs);
  }
  if (r->wantReport && opts->budget >= 0) {
    AcPlanOptions po = {AC_STRATEGY_KNAPSACK, opts->budget, r->staticBytes, 0, 0};
    AcSimResult bs;
    memset(&bs, 0, sizeof bs);
    if (acPlanRun(g, &po, r->base, &r->err) == AC_OK &&
        acSimulate(g, r->base, r->staticBytes, 0, &bs, &r->err) == AC_OK)
      r->rin.baselinePeak[AC_STRATEGY_KNAPSACK] = bs.peakBytes;
    acSimResultClear(&bs);
  }
  acErrorClear(&r->err);
  if (acStageTimes)
    acStageAdd(&acStageTimes->baselines, &r->t0);
}

/* What the plan's peak above the budget is (the lowest peak which search
 * found, or the peak of which fixed plan), for the budget's warning. */
static void acFloorText(const AcPassRun *r, char *buf, size_t n) {
  const AcOptions *opts = r->opts;
  const AcSearchStats *search = &r->search;
  if (opts->planIn)
    snprintf(buf, n, "the peak of the plan read from '%s'", opts->planIn);
  else if (search->limited && opts->strategy != AC_STRATEGY_ILP &&
           opts->strategy != AC_STRATEGY_BEAM)
    snprintf(buf, n, "the lowest peak %s found before a limit stopped it",
             acStrategyName(opts->strategy));
  else if (opts->strategy == AC_STRATEGY_GREEDY && search->floorSearched)
    snprintf(buf, n,
             "the lowest peak autoac's searches found (greedy%s%s%s%s; this "
             "plan by %s%s%s)",
             search->floorSearched & AC_FLOOR_BEAM ? ", beam" : "",
             search->floorSearched & AC_FLOOR_ILP ? ", the ILP" : "",
             search->floorSearched & AC_FLOOR_RESTART ? ", restarts" : "",
             search->floorSearched & (AC_FLOOR_BEAM | AC_FLOOR_ILP)
                 ? "" : "; beam and the ILP skipped: the graph has more "
                        "droppable saves than their bounds",
             search->foundBy == AC_STRATEGY_ILP ? "the ILP"
                                                : acStrategyName(search->foundBy),
             search->restarted ? " and restarts" : "",
             r->sim.offloadedBytes > 0 ? " and offload" : "");
  else if ((opts->strategy == AC_STRATEGY_ILP ||
            opts->strategy == AC_STRATEGY_BEAM) && search->floorSearched)
    snprintf(buf, n,
             "the lowest peak %s and greedy's floor search reach (this "
             "plan by greedy's floor search: %s%s)",
             opts->strategy == AC_STRATEGY_ILP ? "the ILP" : "the beam search",
             search->foundBy == AC_STRATEGY_ILP ? "the ILP"
                                                : acStrategyName(search->foundBy),
             search->restarted ? " and restarts" : "");
  else
    acBudgetFloorText(opts->strategy, buf, n);
}

/* A plan whose peak is above the budget: an error with strict, else a
 * warning (the best plan found is applied), at the op where it peaks. */
static AcStatus acPassCheckBudget(const AcPassRun *r) {
  const AcOptions *opts = r->opts;
  const AcSimResult *sim = &r->sim;
  const AcGraph *g = r->g;
  if (!(opts->budget >= 0 && sim->peakBytes > opts->budget))
    return AC_OK;
  char msg[1024], have[32], want[32], floorText[320];
  acFormatBytes(sim->peakBytes, have, sizeof have);
  acFormatBytes(opts->budget, want, sizeof want);
  acFloorText(r, floorText, sizeof floorText);
  /* The knapsack's plan is its byte-fraction guess for the budget, not a
     search for the lowest peak (its peak is not even monotone in the
     fraction): say what it kept. */
  char tail[200] = "";
  if (!opts->planIn && opts->strategy == AC_STRATEGY_KNAPSACK &&
      r->mincutSavedBytes >= 0)
    snprintf(tail, sizeof tail, "; for this budget the knapsack keeps %.3g %% "
             "of the min-cut saved bytes and does not look for a lower peak",
             100 * acKnapsackFraction(opts->budget,
                                      r->rin.baselinePeak[AC_STRATEGY_MINCUT],
                                      r->mincutSavedBytes));
  snprintf(msg, sizeof msg,
           "autoac: budget %" PRId64 " bytes (%s) is below %s, %" PRId64
           " bytes (%s), which occurs at '%s' in the %s of '@%s'%s%s",
           opts->budget, want, floorText, sim->peakBytes, have,
           sim->peakOp != AC_NONE ? g->ops[sim->peakOp].name : "?",
           sim->peakKind == AC_STEP_FWD ? "forward" : "backward",
           sim->peakSched >= 0 && sim->peakSched < g->numSched
               ? g->funcs[g->sched[sim->peakSched].func].name : "?", tail,
           opts->strict ? "" : "; the best plan found is applied");
  MlirLocation loc = sim->peakOp != AC_NONE
                         ? mlirOperationGetLocation(r->imp->ops[sim->peakOp])
                         : r->loc;
  if (opts->strict) {
    mlirEmitError(loc, msg);
    return AC_ERR_INFEASIBLE;
  }
  acEmitDiagnostic(loc, 1, msg);
  return AC_OK;
}

/* The report's input, the report (with the dynamic-shape keys) when one is
 * wanted, and the plan file's text with plan-out. */
static AcStatus acPassReport(AcPassRun *r) {
  const AcOptions *opts = r->opts;
  AcReportInput *rin = &r->rin;
  AcStatus st = AC_OK;
  rin->g = r->g;
  rin->valueNames = (const char *const *)r->imp->valueNames;
  rin->strategy = opts->strategy;
  rin->strategyName = opts->planIn ? "plan-in" : NULL;
  rin->budget = opts->budget;
  rin->plan = r->plan;
  rin->sim = &r->sim;
  rin->device = opts->device;
  rin->unknownOps = r->imp->unknownOps;
  rin->numUnknownOps = r->imp->numUnknownOps;
  acCompiledPeak(r->module, r->imp, r->compiledPeak, sizeof r->compiledPeak);
  rin->compiledPeak = r->compiledPeak;
  rin->search = opts->planIn ? NULL : &r->search;
  if (r->wantReport &&
      !(r->dynJson = acDynamicReportJson(r->imp, r->plan, &r->sim, opts, &st,
                                         &r->err)) &&
      st != AC_OK) {
    mlirEmitError(r->loc, r->err.message);
    return st;
  }
  rin->extraJson = r->dynJson;
  if (r->wantReport && !(r->report = acReportToString(rin))) {
    mlirEmitError(r->loc, "autoac: out of memory while building the report");
    return AC_ERR_NOMEM;
  }
  if (opts->planOut &&
      !(r->planText = acPlanFileToString(r->g, rin->valueNames, r->plan))) {
    mlirEmitError(r->loc, "autoac: out of memory while building the plan file");
    return AC_ERR_NOMEM;
  }
  if (acStageTimes)
    acStageAdd(&acStageTimes->report, &r->t0);
  return AC_OK;
}

/* Rewrites the module: split into halves with recompute regions, or
 * annotate. */
static AcStatus acPassRewrite(AcPassRun *r) {
  AcStatus st;
  if (r->opts->mode == AC_MODE_SPLIT) {
    st = acPlanGroups(r->g, r->plan, &r->groups, &r->err);
    if (st == AC_OK)
      st = acRewriteSplit(r->imp, r->plan, r->groups, &r->err);
  } else {
    st = acRewriteAnnotate(r->imp, r->plan, &r->err);
  }
  if (acStageTimes)
    acStageAdd(&acStageTimes->rewrite, &r->t0);
  if (st != AC_OK)
    mlirEmitError(r->loc, r->err.message);
  return st;
}

/* Stages the report and plan file in `files` (the caller renames them into
 * place together with its own outputs, so a failure anywhere leaves every
 * previous file intact) and hands the report text to `reportOut`. */
static AcStatus acPassStage(AcPassRun *r, AcFileSet *files, char **reportOut) {
  const AcOptions *opts = r->opts;
  AcStatus st = AC_OK;
  if (r->report && opts->report &&
      (st = acFileSetAdd(files, opts->report, r->report, strlen(r->report),
                         &r->err)) != AC_OK) {
    mlirEmitError(r->loc, r->err.message);
    return st;
  }
  if (r->planText &&
      (st = acFileSetAdd(files, opts->planOut, r->planText, strlen(r->planText),
                         &r->err)) != AC_OK) {
    mlirEmitError(r->loc, r->err.message);
    return st;
  }
  if (reportOut) {
    *reportOut = r->report;
    r->report = NULL;
  }
  return AC_OK;
}

AcStatus acRunSinglePlan(MlirOperation module, const AcOptions *opts,
                         char **reportOut, AcFileSet *files) {
  assert(!opts->buckets && "buckets run above the pass body (entry.c)");
  AcPassRun r;
  memset(&r, 0, sizeof r);
  r.module = module;
  r.loc = mlirOperationGetLocation(module);
  r.opts = opts;
  r.wantReport = opts->report || reportOut;
  r.mincutSavedBytes = -1;
  acErrorClear(&r.err);
  if (reportOut)
    *reportOut = NULL;
  r.t0 = acStageClock();
  AcStatus st = acPassImport(&r);
  if (st != AC_OK || r.done)
    goto cleanup;
  if ((st = acPassPlan(&r)) != AC_OK)
    goto cleanup;
  acPassBaselines(&r);
  if ((st = acPassCheckBudget(&r)) != AC_OK || (st = acPassReport(&r)) != AC_OK ||
      (st = acPassRewrite(&r)) != AC_OK)
    goto cleanup;
  st = acPassStage(&r, files, reportOut);
cleanup:
  acFree(r.report);
  acFree(r.dynJson);
  acFree(r.planText);
  acSimResultClear(&r.sim);
  acRecomputeGroupsDestroy(r.groups);
  acPlanDestroy(r.plan);
  acPlanDestroy(r.base);
  acImportDestroy(r.imp);
  return st;
}
