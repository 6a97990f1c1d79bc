/*===- simulate/offload.h - the host-copy windows of offloaded saves -*- C -*-===*
 *
 * Internal to lib/simulate: simulate.c hands the forward storages of the
 * offloaded saved values (AcPlan.offload) to acOffloadSchedule, which places
 * their copies on the two copy queues (device->host, host->device) against
 * the compute time of the steps and adds the device and host intervals that
 * result (docs/cost-model.md, "Host link").
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_SIMULATE_OFFLOAD_H
#define AUTOAC_SIMULATE_OFFLOAD_H

#include "autoac/simulate.h"

/// One offloaded storage of one forward schedule entry, in steps.  The
/// inputs are structural (where its producer and uses are); the outputs are
/// the timing's: where its device buffers end and begin.
typedef struct AcOffloadSlot {
  intptr_t alloc;     ///< step of its producer
  intptr_t lastFwd;   ///< its last use in the forward (>= alloc)
  intptr_t fwdEnd;    ///< last step of its forward entry (>= lastFwd)
  intptr_t firstBwd;  ///< first backward step reading it; -1: none
  intptr_t bwdBegin;  ///< first step of the backward entry of its microbatch
  intptr_t tag;       ///< the caller's (kept through the reordering)
  int64_t bytes;
  /* Outputs: */
  intptr_t devEnd;    ///< last step of its first device interval: the step
                      ///< in progress when the device->host copy completes,
                      ///< at least lastFwd, at most fwdEnd
  intptr_t issue;     ///< first step of the prefetch's device buffer, in
                      ///< [bwdBegin, firstBwd]; -1 when firstBwd is -1
} AcOffloadSlot;

/// Places the copies of `slots` (reordered in place) on the two queues:
/// fills each slot's devEnd and issue; `stepStart` [numSteps + 1] is the
/// compute time at which each step starts (stepStart[numSteps]: the end).
/// Adds the copies' seconds and the stalls to *copySeconds and
/// *stallSeconds.  AC_ERR_NOMEM only.
AcStatus acOffloadSchedule(const double *stepStart, intptr_t numSteps,
                           AcOffloadSlot *slots, intptr_t numSlots,
                           double bandwidth, double latency,
                           double *copySeconds, double *stallSeconds,
                           AcError *err);

#endif
