/*===- autoac/report.h - the JSON report, plan files, atomic writes -*- C -*-===*
 *
 * JSON is built with jansson.  Every file autoac writes goes through
 * an AcFileSet (a temporary file beside the target, then rename), so a
 * failure never leaves a half-written file and never clobbers the old one;
 * targets that are not regular files (devices, FIFOs) are written through,
 * never replaced.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_REPORT_H
#define AUTOAC_REPORT_H

#include "autoac/cost.h"
#include "autoac/plan.h"
#include "autoac/simulate.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Everything a report describes.
typedef struct AcReportInput {
  const AcGraph *g;
  const char *const *valueNames;   ///< [g->numValues] stable names
  AcStrategy strategy;
  const char *strategyName;        ///< overrides acStrategyName (e.g. "plan-in")
  int64_t budget;                  ///< -1: none
  const AcPlan *plan;              ///< derived
  const AcSimResult *sim;          ///< of plan, with timeline
  int64_t baselinePeak[AC_STRATEGY_COUNT]; ///< -1 where not computed
  const AcDevice *device;
  const AcUnknownOp *unknownOps;   ///< [numUnknownOps] (may be NULL when 0)
  intptr_t numUnknownOps;
  const char *compiledPeak;        ///< "exact" or "not guaranteed: <why>"
                                   ///< (acCallsCaveat); NULL: "exact"
  const AcSearchStats *search;     ///< ilp/beam: how the search ended; NULL
                                   ///< or searched == 0: no "search" block
  const char *extraJson;           ///< a JSON object whose keys are added
                                   ///< (dynamic shapes: symbols, peak
                                   ///< formula); NULL: none
} AcReportInput;

/// Recompute overhead in percent of the step: recomputeSeconds / stepSeconds
/// * 100 (acGraphStepSeconds); 0 when the step costs nothing.
double acOverheadPercent(double recomputeSeconds, double stepSeconds);

/// Builds the report (contract section 4) as JSON text; caller frees with
/// acFree.  NULL on allocation failure.
char *acReportToString(const AcReportInput *in);

/// Writes `len` bytes to `path` atomically (temp file + rename; a device or
/// FIFO is written through, see AcFileSet).
AcStatus acWriteFileAtomic(const char *path, const char *data, size_t len,
                           AcError *err);

/// Several files replaced all or nothing.  acFileSetAdd writes each to a
/// temporary file beside its target; acFileSetCommit renames them into place
/// only once every one is written, and if a rename fails it restores the
/// files it had already replaced (and removes the ones that did not exist).
/// acFileSetDestroy removes temporary files not committed.
/// Symbolic links are followed: their final target is replaced, the link
/// stays.  Only regular files (or new names) are replaced; a target that
/// exists and is not a regular file or a directory (a device such as
/// /dev/null, a FIFO, a socket) is written through at commit, after every
/// rename succeeded, and is never replaced or created beside.
typedef struct AcFileSet AcFileSet;

/// Creates an empty set; NULL on allocation failure.
AUTOAC_API AcFileSet *acFileSetCreate(void);
/// Writes `len` bytes of `data` to a temporary file for `path` (a device or
/// FIFO: keeps them for commit).  AC_ERR_IO (naming `path` and the reason)
/// when it cannot be written, `path` is a directory or a symbolic link loop;
/// AC_ERR_INVALID when `path` is empty or the set already holds the same
/// file (after following links, or another name of it).
AUTOAC_API AcStatus acFileSetAdd(AcFileSet *set, const char *path, const char *data,
                      size_t len, AcError *err);
/// Renames every staged file into place; all or nothing (see above).  The set
/// is empty afterwards whatever the outcome.
AUTOAC_API AcStatus acFileSetCommit(AcFileSet *set, AcError *err);
/// Number of files staged and not yet committed.
AUTOAC_API intptr_t acFileSetSize(const AcFileSet *set);
/// Removes uncommitted temporary files and frees the set; NULL is accepted.
AUTOAC_API void acFileSetDestroy(AcFileSet *set);

/// 64-bit fingerprint of function `f`'s structure (op names, operands,
/// result sizes, argument roles): equal graphs give equal fingerprints.
uint64_t acGraphFingerprint(const AcGraph *g, AcId f);

/// Serialises a plan (saved and recomputed values per function, by stable
/// name, with each function's fingerprint) as JSON text; acFree the result.
char *acPlanFileToString(const AcGraph *g, const char *const *valueNames,
                         const AcPlan *plan);
/// Reads a plan file into plan->saved (then derive it).  A plan that does not
/// match the graph (unknown or missing function, different fingerprint,
/// unknown value name, malformed JSON) is AC_ERR_INVALID naming what differs.
AcStatus acPlanFileRead(const AcGraph *g, const char *const *valueNames,
                        const char *path, AcPlan *plan, AcError *err);

#ifdef __cplusplus
}
#endif
#endif
