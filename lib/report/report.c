/* report.c - the JSON report (contract section 4) and atomic file writes. */
#include "autoac/report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* Whether op reads storage `root` (an operand of it or a view of it). */
static int acReadsStorage(const AcGraph *g, AcId op, AcId root) {
  const AcOp *o = &g->ops[op];
  for (int32_t i = 0; i < o->numOperands; ++i) {
    AcId v = g->operands[o->firstOperand + i];
    if (v != AC_NONE && g->values[v].aliasRoot == root)
      return 1;
  }
  return 0;
}

/* The timeline steps of offloaded storage v's copies, in its function's
 * first forward and backward: out[0..1] the device->host copy (from its
 * producer to the step after which it has completed, sim->offloadDone),
 * out[2..3] the host->device one (from its issue, sim->offloadIssue, to
 * the first step reading v).  -1 where a step is not found. */
static void acCopySteps(const AcReportInput *in, AcId v, int64_t out[4]) {
  const AcGraph *g = in->g;
  const AcSimResult *sim = in->sim;
  AcId prod = g->values[v].producer;
  out[0] = out[1] = out[2] = out[3] = -1;
  for (intptr_t i = 0; i < sim->numSteps; ++i) {
    const AcStep *st = &sim->steps[i];
    int fwd = st->kind == AC_STEP_FWD;
    if (out[0] < 0 && fwd && st->op == prod)
      out[0] = i;
    else if (out[0] >= 0 && out[1] < 0 && fwd && st->op == sim->offloadDone[v])
      out[1] = i;
    else if (out[1] >= 0 && out[2] < 0 && !fwd && st->op == sim->offloadIssue[v])
      out[2] = i;
    if (out[2] >= 0 && out[3] < 0 && !fwd && acReadsStorage(g, st->op, v)) {
      out[3] = i;
      break;
    }
  }
  if (out[1] < 0 && out[0] >= 0 && sim->offloadDone[v] == prod)
    out[1] = out[0];
}

static json_t *acCopyStepsJson(const int64_t a, const int64_t b) {
  return a < 0 || b < 0 ? json_null() : json_pack("[I, I]", (json_int_t)a, (json_int_t)b);
}

static json_t *acFunctionJson(const AcReportInput *in, AcId f, int *failed) {
  const AcGraph *g = in->g;
  const AcFunc *fn = &g->funcs[f];
  json_t *o = json_object(), *phases = json_object(), *cands = json_array(),
         *saved = json_array(), *rec = json_array(), *off = json_array();
  if (!o || !phases || !cands || !saved || !rec || !off) {
    json_decref(o); json_decref(phases); json_decref(cands);
    json_decref(saved); json_decref(rec); json_decref(off);
    *failed = 1;
    return NULL;
  }
  acSet(o, "name", json_string(fn->name), failed);
  acSet(o, "ops", json_integer(fn->numOps), failed);
  acSet(phases, "fwd", json_integer(acGraphCountPhase(g, f, AC_PHASE_FWD)), failed);
  acSet(phases, "bwd", json_integer(acGraphCountPhase(g, f, AC_PHASE_BWD)), failed);
  acSet(o, "phases", phases, failed);
  int64_t candBytes = 0, savedBytes = 0;
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
    if (in->plan->offload[v]) {
      json_t *e = acValueEntry(in, v, "bytes", json_integer(val->bytes), failed);
      if (e && in->sim && in->sim->steps && in->sim->offloadDone && in->sim->offloadIssue) {
        int64_t c[4];
        acCopySteps(in, v, c);
        acSet(e, "copy_out_steps", acCopyStepsJson(c[0], c[1]), failed);
        acSet(e, "copy_in_steps", acCopyStepsJson(c[2], c[3]), failed);
      }
      acPush(off, e, failed);
    }
  }
  for (AcId op = fn->firstOp; op < fn->firstOp + fn->numOps; ++op) {
    if (!in->plan->recompute[op] || g->ops[op].numResults == 0)
      continue;
    acPush(rec, acValueEntry(in, g->ops[op].firstResult, "flops",
                             json_real(g->ops[op].flops), failed), failed);
  }
  acSet(o, "candidate_bytes", json_integer(candBytes), failed);
  acSet(o, "candidates", cands, failed);
  acSet(o, "saved_bytes", json_integer(savedBytes), failed);
  acSet(o, "saved", saved, failed);
  acSet(o, "recomputed", rec, failed);
  acSet(o, "offloaded", off, failed);
  return o;
}

double acOverheadPercent(double recomputeSeconds, double stepSeconds) {
  return stepSeconds > 0 ? recomputeSeconds / stepSeconds * 100.0 : 0.0;
}

/* The report's `peak_at`: the step, op, phase, function and workspace of
 * the peak.  NULL when out of memory (acSet records it). */
static json_t *acPeakAtJson(const AcReportInput *in, int *failed) {
  const AcGraph *g = in->g;
  const AcSimResult *sim = in->sim;
  json_t *peakAt = json_object();
  if (!peakAt)
    return NULL;
  acSet(peakAt, "step", json_integer(sim->peakStep), failed);
  acSet(peakAt, "op", json_string(sim->peakOp != AC_NONE ? g->ops[sim->peakOp].name : ""), failed);
  acSet(peakAt, "phase", json_string(acPhaseName(sim->peakKind)), failed);
  /* No step at all (functions without ops): peakSched is -1. */
  int haveSched = sim->peakSched >= 0 && sim->peakSched < g->numSched;
  acSet(peakAt, "function", json_string(haveSched ? g->funcs[g->sched[sim->peakSched].func].name : ""), failed);
  /* The op's scratch, part of peak_bytes (docs/cost-model.md). */
  acSet(peakAt, "workspace_bytes",
        json_integer(sim->peakOp != AC_NONE ? g->ops[sim->peakOp].workspace : 0),
        failed);
  return peakAt;
}

/* The plan's costs on `r`: saved bytes, recomputation, the step and its
 * overhead, offload's bytes and seconds. */
static void acSetCosts(json_t *r, const AcReportInput *in, int *failed) {
  const AcGraph *g = in->g;
  const AcSimResult *sim = in->sim;
  acSet(r, "saved_bytes", json_integer(acPlanSavedBytes(g, in->plan)), failed);
  acSet(r, "recompute_flops", json_real(sim->recomputeFlops), failed);
  acSet(r, "recompute_seconds", json_real(sim->recomputeSeconds), failed);
  double stepFlops = 0, stepSeconds = acGraphStepSeconds(g, &stepFlops);
  acSet(r, "step_flops", json_real(stepFlops), failed);
  /* Offload (docs/contract.md section 4): the step waits for the copies
     that cannot hide (stall_seconds), which the step and the overhead
     count beside the recomputation. */
  acSet(r, "step_seconds", json_real(stepSeconds + sim->stallSeconds), failed);
  acSet(r, "recompute_overhead_percent",
        json_real(acOverheadPercent(sim->recomputeSeconds + sim->stallSeconds,
                                    stepSeconds)), failed);
  acSet(r, "offloaded_bytes", json_integer(sim->offloadedBytes), failed);
  acSet(r, "host_peak_bytes", json_integer(sim->hostPeakBytes), failed);
  acSet(r, "copy_seconds", json_real(sim->copySeconds), failed);
  acSet(r, "stall_seconds", json_real(sim->stallSeconds), failed);
}

/* How the search ended on `r`: `search` for the searches (any strategy
 * when a limit cut it short), `floor_search` when greedy missed the budget
 * and searched further (contract, strategy). */
static void acSetSearch(json_t *r, const AcReportInput *in, int *failed) {
  const AcSearchStats *search = in->search;
  if (search && (search->searched || search->limited)) {
    /* The searches always; any other strategy when a limit (time, work)
       cut it short: then only "limited" and "seconds". */
    json_t *se = json_object();
    if (se) {
      if (search->searched)
        acSet(se, "optimal", json_boolean(search->optimal), failed);
      acSet(se, "limited", json_boolean(search->limited), failed);
      acSet(se, "seconds", json_real(search->seconds), failed);
      if (search->searched)
        acSet(se, in->strategy == AC_STRATEGY_ILP ? "nodes" : "simulations",
              json_integer(search->work), failed);
    }
    acSet(r, "search", se, failed);
  }
  if (search && search->floorSearched) {
    json_t *fs = json_object();
    if (fs) {
      acSet(fs, "found_by", json_string(acStrategyName(search->foundBy)), failed);
      acSet(fs, "restarted", json_boolean(search->restarted), failed);
    }
    acSet(r, "floor_search", fs, failed);
  }
}

/* The report's `unknown_ops`: the ops the cost model does not know, with
 * their count, first location and recomputability.  NULL when out of
 * memory (acSet records it). */
static json_t *acUnknownOpsJson(const AcReportInput *in, int *failed) {
  json_t *unknown = json_array();
  for (intptr_t i = 0; unknown && i < in->numUnknownOps; ++i) {
    const AcUnknownOp *u = &in->unknownOps[i];
    json_t *e = json_object();
    if (e) {
      acSet(e, "name", json_string(u->name), failed);
      acSet(e, "count", json_integer(u->count), failed);
      acSet(e, "location", json_string(u->location ? u->location : ""), failed);
      acSet(e, "recomputable", json_boolean(u->recomputable), failed);
    }
    acPush(unknown, e, failed);
  }
  return unknown;
}

/* The live-memory timeline, one entry per simulated step, onto `timeline`. */
static void acFillTimeline(json_t *timeline, const AcReportInput *in, int *failed) {
  const AcGraph *g = in->g;
  const AcSimResult *sim = in->sim;
  for (intptr_t i = 0; i < sim->numSteps && sim->steps; ++i) {
    json_t *e = json_object();
    if (!e) {
      *failed = 1;
      break;
    }
    const AcStep *st = &sim->steps[i];
    const AcSchedEntry *se = &g->sched[st->sched];
    acSet(e, "step", json_integer(i), failed);
    acSet(e, "function", json_string(g->funcs[se->func].name), failed);
    acSet(e, "phase", json_string(acPhaseName(st->kind)), failed);
    if (g->numSched > g->numFuncs * 2 || se->microbatch)
      acSet(e, "microbatch", json_integer(se->microbatch), failed);
    acSet(e, "op", json_string(g->ops[st->op].name), failed);
    if (in->valueNames && g->ops[st->op].numResults > 0)
      acSet(e, "value",
            json_string(in->valueNames[g->ops[st->op].firstResult]), failed);
    acSet(e, "live_bytes", json_integer(sim->live[i] + sim->staticBytes), failed);
    if (sim->liveAfter)
      acSet(e, "live_after_bytes",
            json_integer(sim->liveAfter[i] + sim->staticBytes), failed);
    if (sim->hostLive) /* offloaded saves in host memory at this step */
      acSet(e, "host_bytes", json_integer(sim->hostLive[i]), failed);
    if (g->ops[st->op].workspace > 0) /* included in live_bytes */
      acSet(e, "workspace_bytes", json_integer(g->ops[st->op].workspace), failed);
    acPush(timeline, e, failed);
  }
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
  acSet(r, "peak_at", acPeakAtJson(in, &failed), &failed);
  for (int s = 0; s < AC_STRATEGY_COUNT; ++s)
    if (in->baselinePeak[s] >= 0)
      acSet(base, acStrategyName((AcStrategy)s), json_integer(in->baselinePeak[s]), &failed);
  acSet(r, "baseline_peak_bytes", base, &failed);
  acSetCosts(r, in, &failed);
  acSetSearch(r, in, &failed);
  acSet(r, "unknown_ops", acUnknownOpsJson(in, &failed), &failed);
  acSet(r, "compiled_peak",
        json_string(in->compiledPeak ? in->compiledPeak : "exact"), &failed);
  if (in->extraJson) {
    json_t *x = json_loads(in->extraJson, 0, NULL);
    if (!x || json_object_update(r, x) != 0)
      failed = 1;
    json_decref(x);
  }
  for (AcId f = 0; f < g->numFuncs; ++f)
    acPush(funcs, acFunctionJson(in, f, &failed), &failed);
  acSet(r, "functions", funcs, &failed);
  acFillTimeline(timeline, in, &failed);
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

/*===------------------- files replaced all or nothing -------------------===*/

/* An output target is one of:
 *  - a regular file, or nothing yet: the new content is staged in a
 *    temporary file beside it and renamed over it at commit (atomic);
 *  - anything else that is not a directory (a character or block device
 *    such as /dev/null, a FIFO, a socket): it is never replaced; the content
 *    is kept in memory and written through it at commit, after every rename
 *    succeeded (such a write cannot be undone, so it comes last).
 * A symbolic link is followed (to any depth, relative links against their
 * own directory) and its final target is what is staged and replaced: the
 * link itself stays. */
typedef struct AcStaged {
  char *path;   /* the target, symbolic links resolved */
  char *shown;  /* the path as the user gave it, for messages */
  char *tmp;    /* regular: the new content, written beside the target */
  char *bak;    /* regular: a hard link to the old content while committing */
  char *data;   /* direct: the content, written through at commit */
  size_t len;
  int direct;   /* 1: written through (not a regular file) */
  int undo;     /* after its rename: 1 restore bak, 0 remove the new file
                   (there was none), -1 nothing to do (old one not linked) */
  int tmpSlot, bakSlot; /* acTempRegister's slots of tmp and bak, or -1 */
  dev_t dev;    /* of the existing target (0, 0 when there is none) */
  ino_t ino;
} AcStaged;

struct AcFileSet {
  AcStaged *files;
  intptr_t num, cap;
};

static unsigned acSiblingCounter = 0;

/* "<path>.<tag>.<pid>.<k>": unique within the process and beside `path`,
 * so that rename() stays on one file system. */
static char *acSiblingName(const char *path, const char *tag) {
  size_t n = strlen(path) + strlen(tag) + 48;
  char *s = acMalloc(n);
  if (s)
    snprintf(s, n, "%s.%s.%ld.%u", path, tag, (long)getpid(), acSiblingCounter++);
  return s;
}

static AcStatus acIoError(AcError *err, const char *path, int errnum) {
  return acErrorSet(err, AC_ERR_IO, AC_NONE, AC_NONE, "cannot write '%s': %s",
                    path, strerror(errnum));
}

static void acStagedFree(AcStaged *f) {
  acTempUnregister(f->tmpSlot);
  acTempUnregister(f->bakSlot);
  acFree(f->path);
  acFree(f->shown);
  acFree(f->tmp);
  acFree(f->bak);
  acFree(f->data);
  memset(f, 0, sizeof *f);
  f->tmpSlot = f->bakSlot = -1;
}

/* Follows symbolic links from `path` to the name that is not one (which may
 * not exist yet).  Returns an owned string, or NULL with *errnum set
 * (ENOMEM, ELOOP, or readlink's error). */
static char *acResolveLinks(const char *path, int *errnum) {
  char *cur = acStrdup(path);
  if (!cur) {
    *errnum = ENOMEM;
    return NULL;
  }
  for (int depth = 0;; ++depth) {
    struct stat sb;
    if (lstat(cur, &sb) != 0 || !S_ISLNK(sb.st_mode))
      return cur;
    if (depth == 40) {
      *errnum = ELOOP;
      break;
    }
    size_t cap = (size_t)(sb.st_size > 0 ? sb.st_size : 255) + 1;
    char *link = acMalloc(cap);
    ssize_t n = link ? readlink(cur, link, cap) : -1;
    if (n < 0 || (size_t)n >= cap) {
      *errnum = !link ? ENOMEM : n < 0 ? errno : EOVERFLOW;
      acFree(link);
      break;
    }
    link[n] = '\0';
    char *next = link;
    const char *slash = strrchr(cur, '/');
    if (link[0] != '/' && slash) {
      size_t dirLen = (size_t)(slash - cur) + 1;
      next = acMalloc(dirLen + (size_t)n + 1);
      if (next) {
        memcpy(next, cur, dirLen);
        memcpy(next + dirLen, link, (size_t)n + 1);
      }
      acFree(link);
      if (!next) {
        *errnum = ENOMEM;
        break;
      }
    }
    acFree(cur);
    cur = next;
  }
  acFree(cur);
  return NULL;
}

/* A descriptor of this process other than `except` that is open for
 * writing on the file (dev, ino): -1 when there is none (or, off Linux,
 * when it cannot be told).  The output a tool writes through such a
 * descriptor (mlir-opt's -o, a shell's `> X`) would go to the file this
 * set is about to replace, and be lost. */
static int acOpenForWriting(dev_t dev, ino_t ino) {
#ifdef __linux__
  DIR *d = opendir("/proc/self/fd");
  struct dirent *e;
  int found = -1, self = d ? dirfd(d) : -1;
  while (d && found < 0 && (e = readdir(d)) != NULL) {
    char *end = NULL;
    long fd = strtol(e->d_name, &end, 10);
    struct stat sb;
    if (!e->d_name[0] || *end || fd == self || fstat((int)fd, &sb) != 0)
      continue;
    int fl = fcntl((int)fd, F_GETFL);
    if (sb.st_dev == dev && sb.st_ino == ino && fl >= 0 &&
        (fl & O_ACCMODE) != O_RDONLY)
      found = (int)fd;
  }
  if (d)
    closedir(d);
  return found;
#else
  (void)dev, (void)ino;
  return -1;
#endif
}

AcFileSet *acFileSetCreate(void) { return acCalloc(1, sizeof(AcFileSet)); }

intptr_t acFileSetSize(const AcFileSet *set) { return set ? set->num : 0; }

/* Writes all of `data` to `fd`, retrying short writes and interruptions. */
static int acWriteAll(int fd, const char *data, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, data, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return -1;
    data += n;
    len -= (size_t)n;
  }
  return 0;
}

AcStatus acFileSetAdd(AcFileSet *set, const char *path, const char *data,
                      size_t len, AcError *err) {
  AcStaged f;
  int fd = -1, created = 0, errnum = 0, exists;
  AcStatus st = AC_OK;
  struct stat sb;
  memset(&f, 0, sizeof f);
  f.tmpSlot = f.bakSlot = -1;
  if (!path || !path[0])
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "an output path is empty");
  if (!(f.path = acResolveLinks(path, &errnum))) {
    if (errnum == ENOMEM)
      return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
    return acIoError(err, path, errnum);
  }
  exists = stat(f.path, &sb) == 0;
  if (exists && S_ISDIR(sb.st_mode)) {
    st = acIoError(err, path, EISDIR);
    goto cleanup;
  }
  if (exists) {
    f.dev = sb.st_dev;
    f.ino = sb.st_ino;
  }
  int holder = exists && S_ISREG(sb.st_mode) ? acOpenForWriting(sb.st_dev, sb.st_ino) : -1;
  if (holder >= 0) {
    st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                    "'%s' is open for writing in this process (descriptor "
                    "%d: the tool's -o or standard output names the same "
                    "file?); replacing it would lose what is written there",
                    path, holder);
    goto cleanup;
  }
  for (intptr_t i = 0; i < set->num; ++i)
    if (!strcmp(set->files[i].path, f.path) ||
        (exists && set->files[i].ino == f.ino && set->files[i].dev == f.dev &&
         (set->files[i].ino || set->files[i].dev))) {
      st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "'%s' is named for two outputs", path);
      goto cleanup;
    }
  if (!acArrayGrow((void **)&set->files, &set->cap, set->num + 1,
                   sizeof *set->files)) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
    goto cleanup;
  }
  if (!(f.shown = acStrdup(path))) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
    goto cleanup;
  }
  if (exists && !S_ISREG(sb.st_mode)) {
    /* A device, FIFO or socket: written through at commit, never replaced. */
    if (access(f.path, W_OK) != 0) {
      st = acIoError(err, path, errno);
      goto cleanup;
    }
    f.direct = 1;
    f.len = len;
    if (!(f.data = acMalloc(len ? len : 1))) {
      st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
      goto cleanup;
    }
    memcpy(f.data, data, len);
    set->files[set->num++] = f;
    return AC_OK;
  }
  f.tmp = acSiblingName(f.path, "tmp");
  f.bak = acSiblingName(f.path, "bak");
  if (!f.tmp || !f.bak) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
    goto cleanup;
  }
  /* Before either can exist: a signal (Ctrl-C) removes them (cleanup.c). */
  f.tmpSlot = acTempRegister(f.tmp);
  f.bakSlot = acTempRegister(f.bak);
  fd = open(f.tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0) {
    st = acIoError(err, path, errno);
    goto cleanup;
  }
  created = 1;
  /* A replaced file keeps its permission bits. */
  if (exists)
    (void)fchmod(fd, sb.st_mode & 07777);
  if (acWriteAll(fd, data, len) != 0) {
    st = acIoError(err, path, errno ? errno : EIO);
    goto cleanup;
  }
  int rc = close(fd);
  fd = -1;
  if (rc != 0) {
    st = acIoError(err, path, errno);
    goto cleanup;
  }
  set->files[set->num++] = f;
  return AC_OK;
cleanup:
  if (fd >= 0)
    close(fd);
  if (created)
    unlink(f.tmp);
  acStagedFree(&f);
  return st;
}

/* Writes a direct (not regular) target through: open without creating or
 * truncating, write everything, close. */
static int acWriteThrough(const AcStaged *f) {
  int fd;
  do
    fd = open(f->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0)
    return errno;
  int bad = acWriteAll(fd, f->data, f->len) != 0 ? (errno ? errno : EIO) : 0;
  if (close(fd) != 0 && !bad && errno != EINTR)
    bad = errno;
  return bad;
}

AcStatus acFileSetCommit(AcFileSet *set, AcError *err) {
  AcStatus st = AC_OK;
  intptr_t n = set->num, done = 0;
  /* Nothing here allocates: once staged, only the file system can fail.
   * Regular targets first (renames, undoable), then the direct ones. */
  for (; done < n; ++done) {
    AcStaged *f = &set->files[done];
    struct stat sb;
    f->undo = -1;
    if (f->direct)
      continue;
    f->undo = 0;
    if (lstat(f->path, &sb) == 0)
      f->undo = link(f->path, f->bak) == 0 ? 1 : -1;
    if (rename(f->tmp, f->path) != 0) {
      st = acIoError(err, f->shown, errno);
      if (f->undo == 1)
        unlink(f->bak);
      break;
    }
  }
  for (intptr_t i = 0; i < n && st == AC_OK; ++i) {
    int bad = set->files[i].direct ? acWriteThrough(&set->files[i]) : 0;
    if (bad)
      st = acIoError(err, set->files[i].shown, bad);
  }
  for (intptr_t i = 0; i < done; ++i) {
    AcStaged *f = &set->files[i];
    if (f->direct)
      continue;
    if (f->undo == 1 && st == AC_OK)
      unlink(f->bak);
    else if (f->undo == 1)
      rename(f->bak, f->path);     /* the old content back */
    else if (f->undo == 0 && st != AC_OK)
      unlink(f->path);             /* there was no file before */
  }
  for (intptr_t i = done; i < n; ++i)
    if (!set->files[i].direct)
      unlink(set->files[i].tmp);   /* never renamed: still staged */
  for (intptr_t i = 0; i < n; ++i)
    acStagedFree(&set->files[i]);
  set->num = 0;
  return st;
}

void acFileSetDestroy(AcFileSet *set) {
  if (!set)
    return;
  for (intptr_t i = 0; i < set->num; ++i) {
    if (!set->files[i].direct)
      unlink(set->files[i].tmp);
    acStagedFree(&set->files[i]);
  }
  acFree(set->files);
  acFree(set);
}

AcStatus acWriteFileAtomic(const char *path, const char *data, size_t len,
                           AcError *err) {
  AcFileSet *set = acFileSetCreate();
  AcStatus st;
  if (!set)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
  st = acFileSetAdd(set, path, data, len, err);
  if (st == AC_OK)
    st = acFileSetCommit(set, err);
  acFileSetDestroy(set);
  return st;
}
