/* import.c - ac.joint functions of an MLIR module -> AcGraph (see import.h).
 *
 * The top of lib/import, the module stage: constant branches folded
 * (branches.c), every joint function imported in module order (func.c:
 * one pass over its single block), the module's ac.schedule as the
 * graph's schedule, the graph finished, stable value names, the unknown
 * ops (unknown.c).  Then the two normalisations of the IR (normalize.c:
 * backward views and tangent-independent backward ops that free at least
 * what they hold, sunk to their first use; shared inits copied per
 * writer): sinking only moves ops, so the graph is put in the new order in
 * place (acImportApplyOrder); copying inits makes new ops, and the module
 * is imported again, its names taken over from the first import.
 *
 * What the import reads once per distinct thing, not once per op: a type
 * (types.c, acReadType) and an op name (func.c, acOpName).  Arrays are
 * sized once per function (func.c).
 *
 * The stages of lib/import, each calling only those below it (no circle;
 * each header states its stage's contract):
 *
 *   import.c     the module (this file)
 *   normalize.c  sinking, unshared inits, the in-place reorder
 *   unknown.c    the ops the cost model does not know
 *   func.c       one joint function: arguments, ops, returns
 *   opcost.c     what one op costs
 *   types.c      MLIR types as the graph sizes them
 *   context.c    the import context and its error helpers
 *   symbols.c > symbol_rules.c > symbol_nodes.c   dynamic dimensions
 *   branches.c   constant branches folded
 *   tosa.c > bodies.c > dps.c > layout.c   what the lowering allocates
 *   ir.c, doors.cpp   the MLIR helpers every stage (and the edges) share
 *
 * import.c calls branches, func, normalize, unknown, symbols; normalize
 * calls unknown, dps, layout; func calls opcost, types, dps, bodies;
 * opcost calls types, tosa, bodies, dps, layout; types calls symbols. */
#include "import/branches.h"
#include "import/context.h"
#include "import/func.h"
#include "import/normalize.h"
#include "import/unknown.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether `op` is a joint function: a func.func marked ac.joint. */
static int acIsJointFunc(MlirOperation op) {
  return acOpIs(op, "func.func") &&
         !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, acStr("ac.joint")));
}

static AcStatus acValueName(AcImportCtx *c, MlirValue v, MlirAsmState state,
                            AcId id) {
  c->name.len = 0;
  mlirValuePrintAsOperand(v, state, acStrBufMlirCallback, &c->name);
  if (!c->name.data || c->name.failed)
    return AC_ERR_NOMEM;
  char *s = acStrdup(c->name.data);
  if (!s)
    return AC_ERR_NOMEM;
  c->imp->valueNames[id] = s;
  return AC_OK;
}

/* Parses the module's ac.schedule into builder schedule entries. */
static AcStatus acImportSchedule(AcImportCtx *c, MlirOperation module) {
  MlirAttribute s = mlirOperationGetDiscardableAttributeByName(module, acStr("ac.schedule"));
  MlirLocation loc = mlirOperationGetLocation(module);
  if (mlirAttributeIsNull(s))
    return AC_OK;
  if (!mlirAttributeIsAArray(s))
    return acImportFail(c, loc, AC_ERR_INVALID, AC_NONE,
                        "malformed ac.schedule%s: expected an array of strings like "
                        "[\"A.fwd\", \"A.bwd\"]%s", "", "");
  intptr_t n = mlirArrayAttrGetNumElements(s);
  for (intptr_t i = 0; i < n; ++i) {
    MlirAttribute e = mlirArrayAttrGetElement(s, i);
    if (!mlirAttributeIsAString(e))
      return acImportFail(c, loc, AC_ERR_INVALID, AC_NONE,
                          "malformed ac.schedule%s: entries must be strings like "
                          "\"A.fwd\" or \"A.bwd@1\"%s", "", "");
    MlirStringRef r = mlirStringAttrGetValue(e);
    AcStatus nst = acCopyName(c, r, &c->schedText, &c->capSchedText, loc,
                              "an ac.schedule entry");
    if (nst != AC_OK)
      return nst;
    char *text = c->schedText;
    int32_t mb = 0;
    char *at = strchr(text, '@');
    if (at) {
      char *end = NULL;
      long v = strtol(at + 1, &end, 10);
      if (end == at + 1 || *end || v < 0 || v > 1000000)
        return acImportFail(c, loc, AC_ERR_INVALID, AC_NONE,
                            "malformed ac.schedule entry \"%s\": the microbatch after "
                            "'@' must be a non-negative integer%s", text, "");
      mb = (int32_t)v;
      *at = '\0';
    }
    char *dot = strrchr(text, '.');
    AcPhase phase;
    if (dot && strcmp(dot, ".fwd") == 0)
      phase = AC_PHASE_FWD;
    else if (dot && strcmp(dot, ".bwd") == 0)
      phase = AC_PHASE_BWD;
    else
      return acImportFail(c, loc, AC_ERR_INVALID, AC_NONE,
                          "malformed ac.schedule entry \"%s\": expected "
                          "\"<function>.fwd\" or \"<function>.bwd\"%s", text, "");
    *dot = '\0';
    AcId f = AC_NONE;
    for (intptr_t k = 0; k < c->numFuncs && f == AC_NONE; ++k)
      if (strcmp(c->funcNames[k], text) == 0)
        f = (AcId)k;
    if (f == AC_NONE)
      return acImportFail(c, loc, AC_ERR_INVALID, AC_NONE,
                          "ac.schedule names \"%s\", which is not an ac.joint "
                          "function of this module%s", text, "");
    if (acGraphBuilderAddSched(c->b, f, phase, mb) != AC_OK)
      return acImportNoMem(c, loc);
  }
  return AC_OK;
}

/* Every joint function of `module`, in module order (acImportFunc). */
static AcStatus acImportJointFuncs(AcImportCtx *c, MlirOperation module) {
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!acIsJointFunc(op))
      continue;
    MlirAttribute sym = mlirOperationGetAttributeByName(op, acStr("sym_name"));
    MlirStringRef nm = mlirStringAttrGetValue(sym);
    AcStatus st = acCopyName(c, nm, &c->funcName, &c->capFuncName,
                             mlirOperationGetLocation(op),
                             "the name of an ac.joint function");
    if (st != AC_OK || (st = acImportFunc(c, op, c->funcName)) != AC_OK)
      return st;
  }
  return AC_OK;
}

/* Stable value names, per function, into c->imp->valueNames (printing
 * them is about as costly as the rest of the import: only when asked). */
static AcStatus acImportNames(AcImportCtx *c, MlirLocation mloc) {
  const AcGraph *g = c->imp->graph;
  AcStatus st = AC_OK;
  c->imp->valueNames = acCalloc((size_t)g->numValues + 1, sizeof(char *));
  if (!c->imp->valueNames)
    return acImportNoMem(c, mloc);
  for (intptr_t f = 0; f < g->numFuncs; ++f) {
    MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
    MlirAsmState state = mlirAsmStateCreateForOperation(c->imp->funcOps[f], flags);
    const AcFunc *fn = &g->funcs[f];
    AcId lo = fn->firstArg;
    AcId hi = fn->numOps ? g->ops[fn->firstOp + fn->numOps - 1].firstResult +
                               g->ops[fn->firstOp + fn->numOps - 1].numResults
                         : fn->firstArg + fn->numArgs;
    for (AcId v = lo; v < hi && st == AC_OK; ++v)
      st = acValueName(c, c->imp->values[v], state, v);
    mlirAsmStateDestroy(state);
    mlirOpPrintingFlagsDestroy(flags);
    if (st != AC_OK)
      return acImportNoMem(c, mloc);
  }
  return AC_OK;
}

/* Frees what the context owns (c->imp and c->syms unless handed over). */
static void acImportCtxClear(AcImportCtx *c) {
  acImportDestroy(c->imp);
  acSymbolsDestroy(c->syms);
  acGraphBuilderDestroy(c->b);
  acPtrMapClear(&c->valueIds);
  acPtrMapClear(&c->typeIds);
  acFree(c->typeCache);
  acFree(c->types);
  acFree(c->unknown);
  acFree(c->operands);
  acFree(c->seenAt);
  acFree(c->agg);
  acFree(c->aggElems);
  for (intptr_t i = 0; i < c->numOpNames; ++i)
    acFree(c->opNames[i].name);
  acFree(c->opNames);
  acPtrMapClear(&c->opNameIds);
  acFree(c->schedText);
  acFree(c->funcName);
  acStrBufClear(&c->name);
  for (intptr_t f = 0; f < c->numFuncs; ++f)
    acFree(c->funcNames[f]);
  acFree(c->funcNames);
}

/* One import of `module` as it is: the graph and its mapping into `*out`,
 * with value names when `names`, and the per-op unknown flags into
 * `*unknownOut` when it is not NULL (acFree them). */
static AcStatus acImportOnce(MlirOperation module, const AcDevice *device,
                             const AcCostTable *costTable, const char *maxDim,
                             int names, uint8_t **unknownOut, AcImport **out,
                             AcError *err, MlirLocation *errLoc) {
  AcImportCtx c;
  memset(&c, 0, sizeof c);
  c.device = device;
  c.costTable = costTable;
  c.err = err;
  c.errLoc = errLoc;
  AcStatus st = AC_OK;
  AcGraph *g = NULL;
  *out = NULL;
  acErrorClear(err);
  MlirLocation mloc = mlirOperationGetLocation(module);
  c.imp = acCalloc(1, sizeof *c.imp);
  c.b = acGraphBuilderCreate();
  if (!c.imp || !c.b) {
    st = acImportNoMem(&c, mloc);
    goto cleanup;
  }
  c.imp->module = module;
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  intptr_t numJoint = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    numJoint += acIsJointFunc(op);
  if (!(c.syms = acSymbolsCreate(maxDim, numJoint))) {
    st = acImportNoMem(&c, mloc);
    goto cleanup;
  }
  if ((st = acImportJointFuncs(&c, module)) != AC_OK)
    goto cleanup;
  st = acImportSchedule(&c, module);
  if (st == AC_OK && (st = acSymbolsCheckUsed(c.syms, err)) != AC_OK && errLoc)
    *errLoc = mloc;
  if (st != AC_OK)
    goto cleanup;
  st = acGraphBuilderFinish(c.b, &g, err);
  if (st != AC_OK) {
    if (errLoc)
      *errLoc = err && err->op != AC_NONE ? mlirOperationGetLocation(c.imp->ops[err->op]) : mloc;
    goto cleanup;
  }
  c.imp->graph = g;
  if ((names && (st = acImportNames(&c, mloc)) != AC_OK) ||
      (st = acCollectUnknownOps(&c)) != AC_OK)
    goto cleanup;
  if (acSymbolsCount(c.syms) > 0) {
    c.imp->symbols = c.syms;
    c.syms = NULL;
  }
  *out = c.imp;
  c.imp = NULL;
  if (unknownOut) {
    *unknownOut = c.unknown;
    c.unknown = NULL;
  }
cleanup:
  acImportCtxClear(&c);
  return st;
}

void acImportDestroy(AcImport *imp) {
  if (!imp)
    return;
  acSymbolsDestroy(imp->symbols);
  if (imp->valueNames && imp->graph)
    for (intptr_t v = 0; v < imp->graph->numValues; ++v)
      acFree(imp->valueNames[v]);
  acFree(imp->valueNames);
  acGraphDestroy(imp->graph);
  acFree(imp->ops);
  acFree(imp->values);
  acFree(imp->funcOps);
  acFree(imp->returnOps);
  for (intptr_t i = 0; i < imp->numUnknownOps; ++i)
    acFree(imp->unknownOps[i].location);
  acFree(imp->unknownOps);
  acFree(imp);
}

AcStatus acImportModule(MlirOperation module, const AcDevice *device,
                        AcImport **out, AcError *err, MlirLocation *errLoc) {
  return acImportModuleWithCosts(module, device, NULL, out, err, errLoc);
}

AcStatus acImportModuleWithCosts(MlirOperation module, const AcDevice *device,
                                 const AcCostTable *costTable, AcImport **out,
                                 AcError *err, MlirLocation *errLoc) {
  return acImportModuleFlags(module, device, costTable, AC_IMPORT_NAMES, out, err,
                             errLoc);
}

AcStatus acImportModuleFlags(MlirOperation module, const AcDevice *device,
                             const AcCostTable *costTable, unsigned flags,
                             AcImport **out, AcError *err, MlirLocation *errLoc) {
  return acImportModuleDims(module, device, costTable, flags, NULL, out, err,
                            errLoc);
}

/* Branches known at compile time, folded in every joint function before
 * the graph is built (import/branches.h). */
static AcStatus acFoldJointBranches(MlirOperation module, AcError *err) {
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (acIsJointFunc(op) && acFoldConstantBranches(op) < 0)
      return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                        "out of memory while folding constant branches");
  return AC_OK;
}

/* The names of `again`, the import made after shared inits were copied,
 * moved over from `first`'s: a copy of a shared init is named after the
 * value it copies ("%3~2" is the second copy of %3; '~' is in no MLIR value
 * name, so no name of the input is met twice; `cloneOf`: copy -> the
 * value id in `first`), every other value takes its name in `first`.
 * AC_OK; AC_ERR_NOMEM, no error filled; AC_ERR_INTERNAL, filled. */
static AcStatus acNameAgain(AcImport *first, AcImport *again,
                            const AcPtrMap *cloneOf, AcError *err) {
  AcPtrMap byValue = {0};
  intptr_t *copies = NULL;
  AcStatus st = AC_ERR_NOMEM;
  if (!(again->valueNames =
            acCalloc((size_t)again->graph->numValues + 1, sizeof(char *))))
    goto cleanup;
  if (!(copies = acCalloc((size_t)first->graph->numValues + 1, sizeof *copies)))
    goto cleanup;
  for (intptr_t v = 0; v < first->graph->numValues; ++v)
    if (acPtrMapPut(&byValue, first->values[v].ptr, (int32_t)v) != AC_OK)
      goto cleanup;
  /* The copies first: the moves below take names. */
  for (intptr_t v = 0; v < again->graph->numValues; ++v) {
    AcId of = acPtrMapGet(&byValue, again->values[v].ptr) == AC_NONE
                  ? acPtrMapGet(cloneOf, again->values[v].ptr)
                  : AC_NONE;
    if (of == AC_NONE)
      continue;
    const char *base = first->valueNames[of];
    size_t len = strlen(base) + 24;
    char *nm = acMalloc(len);
    if (!nm)
      goto cleanup;
    snprintf(nm, len, "%s~%lld", base, (long long)++copies[of]);
    again->valueNames[v] = nm;
  }
  st = AC_OK;
  for (intptr_t v = 0; v < again->graph->numValues && st == AC_OK; ++v) {
    if (again->valueNames[v])
      continue;
    AcId old = acPtrMapGet(&byValue, again->values[v].ptr);
    if (old == AC_NONE) {
      /* Moving ops keeps every value: not expected. */
      st = acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, (AcId)v,
                      "import: a value is missing after moving backward views");
      break;
    }
    again->valueNames[v] = first->valueNames[old];
    first->valueNames[old] = NULL;
  }
cleanup:
  acPtrMapClear(&byValue);
  acFree(copies);
  return st;
}

AcStatus acImportModuleDims(MlirOperation module, const AcDevice *device,
                            const AcCostTable *costTable, unsigned flags,
                            const char *maxDim, AcImport **out, AcError *err,
                            MlirLocation *errLoc) {
  int names = (flags & AC_IMPORT_NAMES) != 0;
  uint8_t *unknown = NULL;
  AcId *place = NULL;
  AcStatus st = acFoldJointBranches(module, err);
  if (st != AC_OK)
    return st;
  st = acImportOnce(module, device, costTable, maxDim, names, &unknown,
                             out, err, errLoc);
  if (st != AC_OK)
    return st;
  AcPtrMap cloneOf = {0};
  intptr_t moved = acSinkBackwardAliases(*out, &place);
  intptr_t cloned = moved < 0 ? 0 : acUnshareInits(*out, &cloneOf);
  if (moved == 0 && cloned == 0) {
    acFree(unknown);
    acFree(place);
    return st;
  }
  AcImport *first = *out;
  *out = NULL;
  if (moved < 0 || cloned < 0)
    goto nomem;
  if (cloned == 0) {
    /* Only moved: the graph is the first import's in the new order, not
       read again. */
    if ((st = acImportApplyOrder(first, place, unknown, err, errLoc)) == AC_OK) {
      *out = first;
      first = NULL;
    }
    goto cleanup;
  }
  /* Copies of shared inits are new ops: the module is imported again.  The
     second import names nothing: names are moved over from the first. */
  st = acImportOnce(module, device, costTable, maxDim, 0, NULL, out, err, errLoc);
  if (st != AC_OK || !names)
    goto cleanup;
  if ((st = acNameAgain(first, *out, &cloneOf, err)) == AC_ERR_NOMEM)
    goto nomem;
  if (st != AC_OK) {
    if (errLoc)
      *errLoc = mlirOperationGetLocation(module);
    acImportDestroy(*out);
    *out = NULL;
  }
  goto cleanup;
nomem:
  acImportDestroy(*out);
  *out = NULL;
  if (errLoc)
    *errLoc = mlirOperationGetLocation(module);
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory during import");
cleanup:
  acPtrMapClear(&cloneOf);
  acFree(place);
  acFree(unknown);
  acImportDestroy(first);
  return st;
}
