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

/// One offloaded storage of one forward schedule entry, in steps.
typedef struct AcOffloadSlot {
  intptr_t alloc;     ///< step of its producer
  intptr_t lastFwd;   ///< its last use in the forward (>= alloc)
  intptr_t firstBwd;  ///< first backward step reading it; -1: none
  intptr_t lastBwd;   ///< last step it is read (>= lastFwd)
  intptr_t bwdBegin;  ///< first step of the backward entry of its microbatch
  intptr_t bwdEnd;    ///< last step of that entry
  int64_t bytes;
} AcOffloadSlot;

/// Places the copies of `slots` (reordered in place) and adds to `delta`
/// (device, [numSteps + 1]) and `hostDelta` (host, [numSteps + 1]) the
/// intervals of their buffers; `stepStart` [numSteps + 1] is the compute
/// time at which each step starts (stepStart[numSteps]: the end).  Adds the
/// copies' seconds and the stalls to *copySeconds and *stallSeconds.
/// AC_ERR_NOMEM only.
AcStatus acOffloadSchedule(const double *stepStart, intptr_t numSteps,
                           AcOffloadSlot *slots, intptr_t numSlots,
                           double bandwidth, double latency, int64_t *delta,
                           int64_t *hostDelta, double *copySeconds,
                           double *stallSeconds, AcError *err);

#endif
