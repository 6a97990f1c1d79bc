/*===- import/import.h - MLIR module -> AcGraph -------------------*- C -*-===*
 *
 * Finds every func.func marked ac.joint, reads argument and result roles,
 * op phases (ac.phase), ac.save / ac.recompute, tensor types (builtin ranked
 * tensors and !torch.vtensor), costs every op with the cost model and builds
 * the graph.  The mapping back to MLIR (ops, values, functions) is kept for
 * the rewrite and for diagnostics.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_H
#define AUTOAC_IMPORT_H

#include "autoac/cost.h"
#include "autoac/graph.h"
#include "import/bodies.h"
#include "import/nesting.h"
#include "mlir-c/IR.h"
#include "mlir-c/BuiltinTypes.h"

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The imported graph and its mapping to the IR it came from.
typedef struct AcImport {
  AcGraph *graph;             ///< owned
  MlirOperation *ops;         ///< [graph->numOps] the op each graph op is
  MlirValue *values;          ///< [graph->numValues]
  MlirOperation *funcOps;     ///< [graph->numFuncs] the func.func ops
  MlirOperation *returnOps;   ///< [graph->numFuncs] their func.return
  char **valueNames;          ///< [graph->numValues] stable names ("%12", "%arg0", "%5#1")
  MlirOperation module;       ///< the module op (not owned)
  struct AcSymbols *symbols;  ///< the shape symbols of dynamic dimensions
                              ///< (import/symbols.h), NULL when none
  AcUnknownOp *unknownOps;    ///< [numUnknownOps] ops the cost model does not
                              ///< know, one per name, by first appearance
  intptr_t numUnknownOps;
  int cpuDevice;              ///< planned for a CPU profile (set by the pass:
                              ///< where an offloaded torch value is copied back)
  AcBodyNote bodies;          ///< how exact the region ops' workspaces are
                              ///< (import/bodies.h), over every joint function
} AcImport;

/// Imports every ac.joint function of `module` (a builtin.module op), costing
/// ops on `device`.  On error returns a status, fills `err` (op/value ids set
/// when known) and, when `errLoc` is not NULL, the location to report at.
/// A module without joint functions gives AC_OK with graph->numFuncs == 0.
AcStatus acImportModule(MlirOperation module, const AcDevice *device,
                        AcImport **out, AcError *err, MlirLocation *errLoc);
/// As acImportModule, with the user's cost table `costTable` (may be NULL)
/// overriding the model for the ops it names.  An entry that makes an op
/// recomputable although the op declares memory effects is AC_ERR_INVALID,
/// naming the table and the op.
AcStatus acImportModuleWithCosts(MlirOperation module, const AcDevice *device,
                                 const AcCostTable *costTable, AcImport **out,
                                 AcError *err, MlirLocation *errLoc);
/// What acImportModuleFlags computes beyond the graph and its mapping.
#define AC_IMPORT_NAMES 1u /* valueNames (printing every value: about half
                              the import's time); without it valueNames is NULL */
/// As acImportModuleWithCosts (which is AC_IMPORT_NAMES), computing only
/// what `flags` ask for.
AcStatus acImportModuleFlags(MlirOperation module, const AcDevice *device,
                             const AcCostTable *costTable, unsigned flags,
                             AcImport **out, AcError *err, MlirLocation *errLoc);
/// As acImportModuleFlags, with dynamic dimensions bounded by `maxDim` (the
/// option max-dim's text, NULL: none; import/symbols.h): their sizes at the
/// bounds in the graph, their symbols in AcImport.symbols.
AcStatus acImportModuleDims(MlirOperation module, const AcDevice *device,
                            const AcCostTable *costTable, unsigned flags,
                            const char *maxDim, AcImport **out, AcError *err,
                            MlirLocation *errLoc);
/// Emits one warning per entry of imp->unknownOps at its first op: how many
/// ops of that name, that they count 0 FLOPs (and are never recomputed unless
/// registered and pure), and how to give them costs.
void acImportWarnUnknownOps(const AcImport *imp);
/// Frees an import; NULL is accepted.
void acImportDestroy(AcImport *imp);

/*===------ MLIR helpers the edges share (lib/import/doors.cpp) ----------===*/

/// 1 if `r` is exactly the NUL-terminated `s`.
static inline int acStrRefEq(MlirStringRef r, const char *s) {
  size_t n = strlen(s);
  return r.length == n && memcmp(r.data, s, n) == 0;
}
/// 1 if `op` is named exactly `name` ("linalg.fill").
static inline int acOpIs(MlirOperation op, const char *name) {
  return acStrRefEq(mlirIdentifierStr(mlirOperationGetName(op)), name);
}
/// 1 if `op` is a tensor constant the lowering keeps as a global
/// (`memref.get_global`: no allocation): `arith.constant`,
/// `stablehlo.constant`, `tosa.const` (auto-ac-to-linalg makes it an
/// arith.constant) with one ranked tensor result.
static inline int acOpIsGlobalConstant(MlirOperation op) {
  return mlirOperationGetNumResults(op) == 1 &&
         (acOpIs(op, "arith.constant") || acOpIs(op, "stablehlo.constant") ||
          acOpIs(op, "tosa.const")) &&
         mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetResult(op, 0)));
}
/// Which ops acCollectOps keeps.
typedef int (*AcOpPredicate)(MlirOperation op);
/// Every op nested under `root` for which `keep` holds, in post order (an
/// op after the ops nested in it), into `*ops` (acFree it; NULL when none)
/// and `*n`: passes that change ops gather them first (a walk must not
/// erase what it walks).  AC_OK, or AC_ERR_NOMEM with `*ops` NULL, `*n` 0.
AcStatus acCollectOps(MlirOperation root, AcOpPredicate keep,
                      MlirOperation **ops, intptr_t *n);
/// The attribute `name` of argument `k` of function `fn` (its `arg_attrs`
/// dictionary), or a null attribute when it has none.
MlirAttribute acFuncArgAttr(MlirOperation fn, intptr_t k, const char *name);
/// MlirStringCallback appending to the AcStrBuf passed as user data.
void acStrBufMlirCallback(MlirStringRef text, void *strbuf);
/// Prints `op` into `out` as mlir-opt prints it (the generic C API's
/// mlirOperationPrint writes token by token through an unbuffered stream:
/// this writes through a buffer).  `verified`: the caller has verified `op`,
/// so the printer does not verify it again (MLIR's printer verifies an op
/// before printing it unless told it is verified: a whole-module
/// verification).  0, or -1 when `out` ran out of memory.
int acPrintOp(MlirOperation op, int verified, AcStrBuf *out);
/// Emits a warning (severity 1) or a remark (2) at `loc` through the context's
/// diagnostic engine (the C API only has mlirEmitError).
void acEmitDiagnostic(MlirLocation loc, int severity, const char *message);
/// Side effects of a registered op: 1 if known free of memory effects
/// (recursively), 0 if it has effects, -1 if the op is unregistered.
int acOpMemoryEffectFree(MlirOperation op);
/// The values a registered op (its nested ops included) declares it writes
/// or frees (MLIR's MemoryEffectOpInterface): `written` is called once per
/// such effect with the value.  1 when every write names its value, 0 when
/// some write does not or the op's effects are unknown (no interface), -1
/// if the op is unregistered (nothing called).
int acOpWrittenValues(MlirOperation op, void (*written)(MlirValue, void *),
                      void *user);

#ifdef __cplusplus
}
#endif
#endif
