/*===- autoac/autoac.h - the pass: options, entry point, C++ doors -*- C -*-===*
 *
 * Ties the stages together: import -> cost -> partition -> plan -> simulate
 * -> rewrite -> report.  Options follow docs/contract.md section 2; the same
 * AcOptions serve `ac-opt --ac-NAME=VALUE`, the `auto-ac{NAME=VALUE}` pass
 * and the Python bindings.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_AUTOAC_H
#define AUTOAC_AUTOAC_H

#include "autoac/cost.h"
#include "autoac/export.h"
#include "autoac/graph.h"
#include "autoac/lower.h"
#include "autoac/plan.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Output mode.
typedef enum AcMode { AC_MODE_SPLIT = 0, AC_MODE_ANNOTATE = 1 } AcMode;
/// What happens to implicit random draws (docs/contract.md, "Randomness"):
/// kept and never recomputed, or rewritten into a seed draw and a replayable
/// generator.
typedef enum AcRngMode { AC_RNG_KEEP = 0, AC_RNG_REPLAY = 1 } AcRngMode;
/// Offload (docs/contract.md, option offload): never, or where the device
/// profile (or the cost table's "@device") has a host link.
typedef enum AcOffloadMode { AC_OFFLOAD_OFF = 0, AC_OFFLOAD_AUTO = 1 } AcOffloadMode;

/// Parsed options of one run.  Strings are owned (acOptionsDestroy).
typedef struct AcOptions {
  int64_t budget;          ///< bytes; -1: none
  int64_t reserve;         ///< bytes taken off the budget's room
  double optimizerFactor;  ///< optimizer state bytes per parameter byte
  char *optimizer;         ///< "none", "sgd", "momentum", "adam"
  AcStrategy strategy;
  AcMode mode;
  const AcDevice *device;
  char *planOut, *planIn, *report, *sweepCsv;
  char *costTable;         ///< cost table file (docs/cost-model.md), or NULL
  AcRngMode rng;           ///< implicit random draws: keep or replay
  AcGradMode grads;        ///< how gradients are counted (option grads)
  AcTangentMode tangents;  ///< how long tangents live (option tangents)
  AcOffloadMode offload;   ///< offload saves to host memory (option offload)
  int64_t hostBudget;      ///< bytes of host memory offload may hold; -1: none
  int strict;
  double timeLimit;        ///< seconds of planning; 0: none (work limits only)
  int sweep;               ///< ac-opt only: number of budgets to sweep (0: off)
  char *maxDim;            ///< bounds of dynamic dimensions (option max-dim:
                           ///< every setting's entries, comma-separated), or NULL
  char *buckets;           ///< option buckets: "argI.D:B1,...,Bn" (checked
                           ///< syntax), or NULL (one plan)
} AcOptions;

/// Names of every option, NULL-terminated, in contract order (the table
/// autoac/options.def).
AUTOAC_API extern const char *const acOptionNames[];
/// The options of the auto-ac pass, acPlanMlirText and Python: every option
/// but ac-opt's own (sweep, sweep-csv); NULL-terminated, in contract order.
AUTOAC_API extern const char *const acPassOptionNames[];
/// For each of acPassOptionNames, in the same order: its kind as the table
/// spells it ("SIZE", "FLAG", "FILE", ...), its one line of help, and its
/// default as the usage text states it ("" when there is none to state):
/// what a command line built from the table needs (Python's `plan`).
AUTOAC_API extern const char *const acPassOptionKinds[];
AUTOAC_API extern const char *const acPassOptionHelp[];
AUTOAC_API extern const char *const acPassOptionDefaults[];

/// Creates options with the contract's defaults; NULL on allocation failure.
AUTOAC_API AcOptions *acOptionsCreate(void);
/// Frees options; NULL is accepted.
AUTOAC_API void acOptionsDestroy(AcOptions *opts);
/// Sets option `name` from its text `value`.  AC_ERR_INVALID for an unknown
/// name or a bad value, with a message quoting it and saying what is accepted.
AUTOAC_API AcStatus acOptionsSet(AcOptions *opts, const char *name, const char *value,
                      AcError *err);

/// Runs autoac on a builtin.module op: plans every ac.joint function and
/// rewrites it, writes the report / plan files, and emits diagnostics
/// (errors and warnings with locations) through the module's context.
/// Returns AC_OK on success (including "no joint function": a warning).
/// On failure the module may be partially rewritten only if the failure is
/// an internal error; files are never written on failure.
AUTOAC_API AcStatus acRunOnModule(MlirOperation module, const AcOptions *opts);

/// As acRunOnModule; when `reportOut` is not NULL it also receives the JSON
/// report text on success (free with acFree), whether or not the report
/// option names a file.
AUTOAC_API AcStatus acRunOnModuleWithReport(MlirOperation module, const AcOptions *opts,
                                 char **reportOut);

/// Files replaced all or nothing (autoac/report.h).
typedef struct AcFileSet AcFileSet;

/// As acRunOnModuleWithReport, but the report and plan files are only staged
/// in `files` (written to temporary files beside their targets); the caller
/// commits them with acFileSetCommit, together with its own outputs, once
/// everything succeeded, so that a failure leaves every previous file intact.
AUTOAC_API AcStatus acRunOnModuleStaged(MlirOperation module, const AcOptions *opts,
                             char **reportOut, AcFileSet *files);

/// One-call entry for bindings: parses MLIR `text` (unregistered dialects
/// allowed), applies `numOptions` options given as parallel name/value
/// arrays, runs autoac, and on success returns the rewritten IR in `*irOut`
/// and the JSON report in `*reportOut` (either may be NULL; free with
/// acFree).  On failure `*errorOut` (if not NULL) receives every diagnostic
/// as "loc: severity: message" lines; warnings on success go there too.
AUTOAC_API AcStatus acPlanMlirText(const char *text, size_t len, const char *sourceName,
                        const char *const *names, const char *const *values,
                        intptr_t numOptions, char **irOut, char **reportOut,
                        char **errorOut);

/// Imports `module` as acImportModuleWithCosts does, with the cost table
/// opts->costTable names (if any), and warns about the ops the cost model
/// does not know (acImportWarnUnknownOps).  Errors are emitted through the
/// context (at the module for a bad cost table); *out is NULL on failure.
struct AcImport;
AcStatus acImportForOptions(MlirOperation module, const AcOptions *opts,
                            struct AcImport **out);

/// Pareto sweep (`--ac-sweep=N`): plans N budgets evenly spaced between the
/// lowest peak greedy reaches and the save-all peak, for every strategy,
/// prints a table (budget, peak, recompute seconds per strategy) on stdout
/// and, with sweep-csv set, writes it as CSV.  The module is not rewritten.
AUTOAC_API AcStatus acRunSweep(MlirOperation module, const AcOptions *opts);

/*===--------- C++ doors (lib/pass/registration.cpp) ----------------------===*/

/// Registers the `auto-ac` pass in MLIR's global pass registry (idempotent).
AUTOAC_API void acRegisterPasses(void);

/// Creates the MLIR context autoac's tools and bindings parse with: every
/// upstream dialect registered, unregistered dialects allowed (torch-mlir
/// and StableHLO text need them), single-threaded throughout (its storage
/// uniquers included).  Destroy with mlirContextDestroy.
AUTOAC_API MlirContext acContextCreate(void);
/// Parses MLIR text named `sourceName` (for locations) into an owned
/// builtin.module, wrapping top-level ops in an implicit module as mlir-opt
/// does; a null op (with diagnostics emitted) on failure.
AUTOAC_API MlirOperation acParseModule(MlirContext ctx, const char *text, size_t len,
                            const char *sourceName);

#ifdef __cplusplus
}
#endif
#endif
