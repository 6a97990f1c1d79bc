/* offload.c - the copy windows of offloaded saves (docs/cost-model.md,
 * "Host link"; docs/planner.md, "Offload").
 *
 * An offloaded saved value is copied to host memory after its producer and
 * back before its first backward use.  The copies run on two queues, one per
 * direction, each one copy at a time in order, overlapped with compute; time
 * is the compute time of the steps (AcOp.seconds, recompute steps included),
 * without stalls.  A copy takes latency + bytes / bandwidth.
 *  - Device -> host: in order of the producers' steps, a copy starts when its
 *    producer has run and the queue is free; the device buffer stays live
 *    through its last forward use and through every step that starts before
 *    the copy completes, at most to its forward's last step: the forward
 *    waits for its copies at its end, and a copy still running then is a
 *    stall.
 *  - Host -> device (the prefetch): as late as possible, latest use first:
 *    each copy ends when its first backward use starts or when the next copy
 *    on the queue starts, whichever is earlier, and is issued at the step in
 *    progress when it starts (at the earliest the first step of its backward
 *    entry: the prefetch is part of the backward).  Its device buffer is live
 *    from that step.  A copy that would have to start before its data is on
 *    the host or before its backward starts starts then, and finishes late:
 *    the compute waits, and the wait (the copy's lateness) is a stall.
 * Each stall is counted as if it were the only one (a wait delays the
 * compute after it, which only gives later copies more time): the sum is an
 * upper bound of the step's wait.  The caller (simulate.c) turns devEnd and
 * issue into the device intervals, and places the host buffer, which the
 * rewrite allocates right after the producer and frees at the first
 * backward use, without timing. */
#include "simulate/offload.h"

#include <math.h>
#include <stdlib.h>

/* Largest t in [0, n) with start[t] < x (strict) or <= x; -1 if none. */
static intptr_t acStepBefore(const double *start, intptr_t n, double x,
                             int strict) {
  intptr_t lo = 0, hi = n; /* first index failing the test */
  while (lo < hi) {
    intptr_t mid = lo + (hi - lo) / 2;
    if (strict ? start[mid] < x : start[mid] <= x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo - 1;
}

static intptr_t acClampStep(intptr_t t, intptr_t lo, intptr_t hi) {
  return t < lo ? lo : t > hi ? hi : t;
}

/* Sorting the slots: by producer step, then by first backward use. */
static int acByAlloc(const void *pa, const void *pb) {
  const AcOffloadSlot *a = pa, *b = pb;
  if (a->alloc != b->alloc)
    return a->alloc < b->alloc ? -1 : 1;
  if (a->bwdBegin != b->bwdBegin)
    return a->bwdBegin < b->bwdBegin ? -1 : 1;
  return (a->tag > b->tag) - (a->tag < b->tag);
}

AcStatus acOffloadSchedule(const double *T, intptr_t n, AcOffloadSlot *slots,
                           intptr_t numSlots, double bandwidth, double latency,
                           double *copySeconds, double *stallSeconds,
                           AcError *err) {
  AcStatus st = AC_OK;
  double *outEnd = NULL;
  intptr_t *order = NULL;
  if (numSlots == 0)
    return AC_OK;
  outEnd = acMalloc((size_t)numSlots * sizeof *outEnd);
  order = acMalloc((size_t)numSlots * sizeof *order);
  if (!outEnd || !order) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory while simulating");
    goto cleanup;
  }
  qsort(slots, (size_t)numSlots, sizeof *slots, acByAlloc);
  /* Device -> host, in producer order. */
  double queue = -INFINITY;
  for (intptr_t i = 0; i < numSlots; ++i) {
    AcOffloadSlot *sl = &slots[i];
    double c = latency + (double)sl->bytes / bandwidth;
    double ready = T[sl->alloc + 1];
    double begin = ready > queue ? ready : queue;
    queue = begin + c;
    *copySeconds += c;
    outEnd[i] = queue;
    intptr_t through = acStepBefore(T, n, queue, 1);
    sl->devEnd = acClampStep(through, sl->lastFwd, sl->fwdEnd);
    if (queue > T[sl->fwdEnd + 1]) {
      *stallSeconds += queue - T[sl->fwdEnd + 1];
      outEnd[i] = T[sl->fwdEnd + 1]; /* the forward waited for it */
    }
    order[i] = i;
  }
  /* Host -> device, latest first use first (insertion order by firstBwd
     descending; slots without a backward use have no prefetch). */
  for (intptr_t i = 1; i < numSlots; ++i) {
    intptr_t k = order[i], j = i;
    while (j > 0 && slots[order[j - 1]].firstBwd < slots[k].firstBwd) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = k;
  }
  double next = INFINITY;
  for (intptr_t r = 0; r < numSlots; ++r) {
    intptr_t i = order[r];
    AcOffloadSlot *sl = &slots[i];
    sl->issue = -1;
    if (sl->firstBwd < 0)
      continue; /* nothing reads it back */
    double c = latency + (double)sl->bytes / bandwidth;
    double need = T[sl->firstBwd];
    double end = need < next ? need : next;
    double begin = end - c;
    double earliest = outEnd[i] > T[sl->bwdBegin] ? outEnd[i] : T[sl->bwdBegin];
    next = begin;
    *copySeconds += c;
    if (begin < earliest) {
      *stallSeconds += earliest - begin;
      begin = earliest;
    }
    sl->issue = acClampStep(acStepBefore(T, n, begin, 0), sl->bwdBegin,
                            sl->firstBwd);
  }
cleanup:
  acFree(outEnd);
  acFree(order);
  return st;
}

AcStatus acPlanOffloadCandidates(const AcGraph *g, uint8_t *mask,
                                 AcError *err) {
  (void)err;
  for (intptr_t i = 0; i < g->numValues; ++i) {
    const AcValue *v = &g->values[i];
    mask[i] = v->role == AC_ROLE_RESULT && v->aliasRoot == (AcId)i &&
              v->bytes > 0 && !v->mutableStorage && !v->noOffload &&
              g->ops[v->producer].phase == AC_PHASE_FWD &&
              g->ops[v->producer].mutates == AC_NONE;
  }
  /* Storage returned (itself or a view of it), or written in place. */
  for (intptr_t i = 0; i < g->numValues; ++i)
    if (g->values[i].retFlags)
      mask[g->values[i].aliasRoot] = 0;
  for (intptr_t o = 0; o < g->numOps; ++o)
    if (g->ops[o].mutates != AC_NONE)
      mask[g->values[g->ops[o].mutates].aliasRoot] = 0;
  /* A view a plan may save (an op that cannot be rerun made it) would keep
     the device storage for the backward. */
  for (intptr_t i = 0; i < g->numValues; ++i) {
    const AcValue *v = &g->values[i];
    if (v->aliasRoot != (AcId)i && v->producer != AC_NONE &&
        acOpCannotRecompute(&g->ops[v->producer]))
      mask[v->aliasRoot] = 0;
  }
  return AC_OK;
}
