/* report.c - the JSON report (contract section 4) and atomic file writes. */
#include "autoac/report.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *acPhaseName(int kind) {
  return kind == AC_STEP_FWD ? "fwd" : kind == AC_STEP_BWD ? "bwd" : "recompute";
}

/* json_object_set_new that records failure instead of ignoring it. */
static void acSet(json_t *obj, const char *key, json_t *val, int *failed) {
  if (!val || json_object_set_new(obj, key, val) != 0)
    *failed = 1;
}

static void acPush(json_t *arr, json_t *val, int *failed) {
  if (!val || json_array_append_new(arr, val) != 0)
    *failed = 1;
}

static json_t *acValueEntry(const AcReportInput *in, AcId v, const char *costKey,
                            json_t *cost, int *failed) {
  const AcGraph *g = in->g;
  json_t *e = json_object();
  if (!e) {
    json_decref(cost);
    *failed = 1;
    return NULL;
  }
  acSet(e, "value", json_string(in->valueNames[v]), failed);
  AcId p = g->values[v].producer;
  acSet(e, "op", json_string(p != AC_NONE ? g->ops[p].name : "argument"), failed);
  acSet(e, costKey, cost, failed);
  return e;
}

static json_t *acFunctionJson(const AcReportInput *in, AcId f, int *failed) {
  const AcGraph *g = in->g;
  const AcFunc *fn = &g->funcs[f];
  json_t *o = json_object(), *phases = json_object(), *cands = json_array(),
         *saved = json_array(), *rec = json_array();
  if (!o || !phases || !cands || !saved || !rec) {
    json_decref(o); json_decref(phases); json_decref(cands);
    json_decref(saved); json_decref(rec);
    *failed = 1;
    return NULL;
  }
  acSet(o, "name", json_string(fn->name), failed);
  acSet(o, "ops", json_integer(fn->numOps), failed);
  acSet(phases, "fwd", json_integer(acGraphCountPhase(g, f, AC_PHASE_FWD)), failed);
  acSet(phases, "bwd", json_integer(acGraphCountPhase(g, f, AC_PHASE_BWD)), failed);
  acSet(o, "phases", phases, failed);
  int64_t candBytes = 0, savedBytes = 0, recFlops = 0;
  AcId lastValue = fn->numOps ? g->ops[fn->firstOp + fn->numOps - 1].firstResult +
                                    g->ops[fn->firstOp + fn->numOps - 1].numResults
                              : fn->firstArg + fn->numArgs;
  for (AcId v = fn->firstArg; v < lastValue; ++v) {
    const AcValue *val = &g->values[v];
    if (val->saveCandidate) {
      acPush(cands, acValueEntry(in, v, "bytes", json_integer(val->bytes), failed), failed);
      candBytes += val->bytes;
    }
    if (in->plan->saved[v]) {
      acPush(saved, acValueEntry(in, v, "bytes", json_integer(val->bytes), failed), failed);
      savedBytes += val->bytes;
    }
  }
  for (AcId op = fn->firstOp; op < fn->firstOp + fn->numOps; ++op) {
    if (!in->plan->recompute[op] || g->ops[op].numResults == 0)
      continue;
    acPush(rec, acValueEntry(in, g->ops[op].firstResult, "flops",
                             json_real(g->ops[op].flops), failed), failed);
    recFlops += (int64_t)g->ops[op].flops;
  }
  acSet(o, "candidate_bytes", json_integer(candBytes), failed);
  acSet(o, "candidates", cands, failed);
  acSet(o, "saved_bytes", json_integer(savedBytes), failed);
  acSet(o, "saved", saved, failed);
  acSet(o, "recomputed", rec, failed);
  return o;
}

char *acReportToString(const AcReportInput *in) {
  const AcGraph *g = in->g;
  const AcSimResult *sim = in->sim;
  int failed = 0;
  char *text = NULL;
  json_t *r = json_object(), *base = json_object(), *funcs = json_array(),
         *timeline = json_array();
  if (!r || !base || !funcs || !timeline) {
    json_decref(base); json_decref(funcs); json_decref(timeline);
    goto cleanup;
  }
  acSet(r, "version", json_integer(1), &failed);
  acSet(r, "budget_bytes", in->budget >= 0 ? json_integer(in->budget) : json_null(), &failed);
  acSet(r, "strategy", json_string(in->strategyName ? in->strategyName
                                                    : acStrategyName(in->strategy)), &failed);
  acSet(r, "device", json_string(in->device ? in->device->name : "h100"), &failed);
  acSet(r, "feasible", json_boolean(in->budget < 0 || sim->peakBytes <= in->budget), &failed);
  acSet(r, "peak_bytes", json_integer(sim->peakBytes), &failed);
  acSet(r, "static_bytes", json_integer(sim->staticBytes), &failed);
  json_t *peakAt = json_object();
  if (peakAt) {
    acSet(peakAt, "step", json_integer(sim->peakStep), &failed);
    acSet(peakAt, "op", json_string(sim->peakOp != AC_NONE ? g->ops[sim->peakOp].name : ""), &failed);
    acSet(peakAt, "phase", json_string(acPhaseName(sim->peakKind)), &failed);
    acSet(peakAt, "function", json_string(g->numSched ? g->funcs[g->sched[sim->peakSched].func].name : ""), &failed);
  }
  acSet(r, "peak_at", peakAt, &failed);
  for (int s = 0; s < AC_STRATEGY_COUNT; ++s)
    if (in->baselinePeak[s] >= 0)
      acSet(base, acStrategyName((AcStrategy)s), json_integer(in->baselinePeak[s]), &failed);
  acSet(r, "baseline_peak_bytes", base, &failed);
  acSet(r, "saved_bytes", json_integer(acPlanSavedBytes(g, in->plan)), &failed);
  acSet(r, "recompute_flops", json_real(sim->recomputeFlops), &failed);
  acSet(r, "recompute_seconds", json_real(sim->recomputeSeconds), &failed);
  for (AcId f = 0; f < g->numFuncs; ++f)
    acPush(funcs, acFunctionJson(in, f, &failed), &failed);
  acSet(r, "functions", funcs, &failed);
  for (intptr_t i = 0; i < sim->numSteps && sim->steps; ++i) {
    json_t *e = json_object();
    if (!e) {
      failed = 1;
      break;
    }
    const AcStep *st = &sim->steps[i];
    const AcSchedEntry *se = &g->sched[st->sched];
    acSet(e, "step", json_integer(i), &failed);
    acSet(e, "function", json_string(g->funcs[se->func].name), &failed);
    acSet(e, "phase", json_string(acPhaseName(st->kind)), &failed);
    if (g->numSched > g->numFuncs * 2 || se->microbatch)
      acSet(e, "microbatch", json_integer(se->microbatch), &failed);
    acSet(e, "op", json_string(g->ops[st->op].name), &failed);
    acSet(e, "live_bytes", json_integer(sim->live[i] + sim->staticBytes), &failed);
    acPush(timeline, e, &failed);
  }
  acSet(r, "timeline", timeline, &failed);
  if (!failed) {
    char *dumped = json_dumps(r, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
    if (dumped) {
      text = acStrdup(dumped);
      free(dumped);
    }
  }
cleanup:
  json_decref(r);
  return text;
}

AcStatus acWriteFileAtomic(const char *path, const char *data, size_t len,
                           AcError *err) {
  size_t n = strlen(path) + 32;
  char *tmp = acMalloc(n);
  FILE *f = NULL;
  AcStatus st = AC_OK;
  if (!tmp)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
  snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
  f = fopen(tmp, "wb");
  if (!f) {
    st = acErrorSet(err, AC_ERR_IO, AC_NONE, AC_NONE, "cannot write '%s': %s",
                    path, strerror(errno));
    goto cleanup;
  }
  if (fwrite(data, 1, len, f) != len || fflush(f) != 0) {
    st = acErrorSet(err, AC_ERR_IO, AC_NONE, AC_NONE, "cannot write '%s': %s",
                    path, strerror(errno));
    goto cleanup;
  }
  if (fclose(f) != 0) {
    f = NULL;
    st = acErrorSet(err, AC_ERR_IO, AC_NONE, AC_NONE, "cannot write '%s': %s",
                    path, strerror(errno));
    goto cleanup;
  }
  f = NULL;
  if (rename(tmp, path) != 0)
    st = acErrorSet(err, AC_ERR_IO, AC_NONE, AC_NONE, "cannot write '%s': %s",
                    path, strerror(errno));
cleanup:
  if (f)
    fclose(f);
  if (st != AC_OK)
    unlink(tmp);
  acFree(tmp);
  return st;
}
