/*===- import/import.h - MLIR module -> AcGraph -------------------*- C -*-===*
 *
 * Finds every func.func marked ac.joint, reads argument and result roles,
 * op phases (ac.phase), ac.save / ac.recompute, tensor types (builtin ranked
 * tensors and !torch.vtensor), costs every op with the cost model and builds
 * the graph.  The mapping back to MLIR (ops, values, functions) is kept for
 * the rewrite and for diagnostics.
 *
 * The import is built in stages, one file and header each (import.c's
 * comment draws their order); this header is what the rest of autoac
 * sees, with the MLIR helpers the edges share (import/ir.h).  Defined in
 * import.c, except acImportWarnUnknownOps (unknown.c).
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_H
#define AUTOAC_IMPORT_H

#include "autoac/cost.h"
#include "autoac/graph.h"
#include "import/bodies.h"
#include "import/ir.h" /* the MLIR helpers the edges share, for every user */
#include "import/nesting.h"
#include "mlir-c/IR.h"

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

#ifdef __cplusplus
}
#endif
#endif
