/*===- import/context.h - the import's context (internal) ---------*- C -*-===*
 *
 * The bottom of the import's own stages (types.c, opcost.c, func.c,
 * unknown.c, normalize.c, import.c): the one context an import carries
 * through them (AcImportCtx: the graph being built, the mapping back to the
 * IR, caches and scratch, the error to fill) and the few helpers every stage
 * reports and records through.  The context is made and freed by
 * import.c (acImportOnce), which alone sees it whole; each field says which
 * stage fills it.  Errors: a failing helper fills `err` (and `*errLoc`,
 * when not NULL) once and returns the status; callers pass it up unchanged.
 * AcImport (import/import.h) is the result the stages fill; none of them
 * calls back into import.c.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_CONTEXT_H
#define AUTOAC_IMPORT_CONTEXT_H

#include "import/import.h"
#include "import/symbols.h"
#include "support/ptrmap.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The state of one import (one acImportOnce, or acImportApplyOrder's
/// reorder, which sets only imp, unknown, err and errLoc).
typedef struct AcImportCtx {
  const AcDevice *device;
  const AcCostTable *costTable;  /* user overrides, may be NULL */
  uint8_t *unknown;              /* [op] no rule and no table entry */
  intptr_t capUnknown;
  AcGraphBuilder *b;
  AcImport *imp;
  AcPtrMap valueIds;             /* MlirValue.ptr -> graph value id */
  intptr_t capOps, capValues, capFuncs;
  AcPtrMap typeIds;              /* MlirType.ptr -> index in typeCache */
  AcTensorType *typeCache;       /* types read without error, each once
                                    (MLIR uniques types: one pointer each) */
  intptr_t numTypeCache, capTypeCache;
  AcTensorType *types;           /* scratch: operand then result types */
  intptr_t capTypes;
  AcId *operands;                /* scratch: operand ids of one op */
  intptr_t numOperands, capOperands;
  intptr_t *seenAt;              /* per value id: the op stamp that last added
                                    it as an operand (linear de-duplication) */
  intptr_t capSeen, stamp;
  struct {                       /* per value id: the elements of a torch */
    intptr_t start;              /* reference aggregate (ListConstruct ...), */
    int32_t n;                   /* aggElems[start, start + n); n 0: none */
  } *agg;
  intptr_t capAgg;
  AcId *aggElems;                /* the elements of every aggregate */
  intptr_t numAggElems, capAggElems;
  char *schedText;               /* scratch: one ac.schedule entry */
  char *funcName;                /* scratch: the current function's name */
  intptr_t capFuncName;
  intptr_t capSchedText;
  const char *opName;            /* the current op's name (in opNames) */
  const AcOpNameCost *opNameCost; /* what the cost model reads from it */
  AcPtrMap opNameIds;            /* MlirIdentifier.ptr -> index in opNames */
  struct {
    char *name;                  /* checked and copied, once per name */
    AcOpNameCost cost;           /* acCostResolveName of it */
  } *opNames;
  intptr_t numOpNames, capOpNames;
  AcStatus walkStatus;           /* status of the capture walk */
  MlirOperation badNested;       /* the nested op making a buffer (walk) */
  int badNestedResult;           /* and which of its results */
  AcError *err;
  MlirLocation *errLoc;
  AcStrBuf name;                 /* scratch for printing value names */
  char **funcNames;              /* [numFuncs] joint function names */
  intptr_t numFuncs, capFuncNames, capRetOps;
  intptr_t totalOps, totalValues; /* ops and values of the joint functions
                                     counted so far (acImportReserve) */
  AcSymbols *syms;               /* dynamic dimensions (import/symbols.h) */
  MlirOperation curFunc;         /* the function being imported */
  const char *curFuncName;
} AcImportCtx;

/// Fills the context's error with status `st` at `loc` (op id `op`, or
/// AC_NONE), the message `fmt` formatted with the strings `a` and `b2`;
/// returns `st`.
AcStatus acImportFail(AcImportCtx *c, MlirLocation loc, AcStatus st, AcId op,
                      const char *fmt, const char *a, const char *b2);
/// AC_ERR_INVALID: `what` (a tensor) is larger than autoac counts
/// (AC_MAX_BYTES).
AcStatus acImportTooBig(AcImportCtx *c, MlirLocation loc, AcId op, const char *what);
/// AC_ERR_NOMEM at `loc` ("out of memory during import").
AcStatus acImportNoMem(AcImportCtx *c, MlirLocation loc);
/// Records that graph value `id` is IR value `v` (imp->values, valueIds).
/// AC_OK or AC_ERR_NOMEM (no error filled).
AcStatus acMapValue(AcImportCtx *c, MlirValue v, AcId id);
/// Copies a name from the IR into `*buf` (capacity `*cap`, grown as
/// needed) as a C string.  Names become report keys, plan-file keys and
/// symbol names: one holding a NUL byte or bytes that are not UTF-8 is
/// AC_ERR_INVALID naming `what` it is, at `loc`.
AcStatus acCopyName(AcImportCtx *c, MlirStringRef r, char **buf, intptr_t *cap,
                    MlirLocation loc, const char *what);

#ifdef __cplusplus
}
#endif
#endif
