/* import.c - ac.joint functions of an MLIR module -> AcGraph (see import.h).
 *
 * One pass over each joint function's single block: arguments with their
 * roles, then every top-level op (operands, including values its nested
 * regions capture from the function body, results with byte sizes from
 * their types), costed by the cost model.  The module's ac.schedule, if any,
 * becomes the graph's schedule.  Then the two normalisations of the IR
 * (backward views, and tangent-independent backward ops that free at
 * least what they hold, sunk to their first use; shared inits copied per
 * writer).
 * Sinking only moves ops: the graph is put in the new order in place
 * (acImportApplyOrder, acGraphReorderOps), not built again; copying inits
 * makes new ops, and the module is imported again.
 *
 * What the pass reads once per distinct thing, not once per op: a type
 * (MLIR uniques types: read and, for torch types, parsed once per import,
 * acReadType) and an op name (checked and copied once per identifier,
 * acOpName).  Arrays are sized once per function (acImportReserve).
 * test/reliability/test_import_order.c checks the in-place reorder against
 * a real import of the moved IR.
 *
 * Over 1000 lines: the normalisations and the reorder read and write the
 * same import context (AcImportCtx) and keep one invariant with the first
 * pass (an op's graph id follows its place in the block); split by concern,
 * that context and invariant would become a shared internal interface. */
#include "autoac/autoac.h"
#include "import/import.h"
#include "import/tosa.h"
#include "import/branches.h"
#include "import/dps.h"
#include "import/layout.h"
#include "import/symbols.h"
#include "support/ptrmap.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static AcStatus acFailAt(AcImportCtx *c, MlirLocation loc, AcStatus st,
                         AcId op, const char *fmt, const char *a,
                         const char *b2) {
  acErrorSet(c->err, st, op, AC_NONE, fmt, a, b2);
  if (c->errLoc)
    *c->errLoc = loc;
  return st;
}

/* `!torch.tensor<...>` (and bare `!torch.tensor`): a tensor with reference
 * semantics, which any op may write; `!torch.vtensor` is a value. */
static int acIsTorchNonValueTensor(MlirType t) {
  if (!mlirTypeIsAOpaque(t) ||
      !acStrRefEq(mlirOpaqueTypeGetDialectNamespace(t), "torch"))
    return 0;
  MlirStringRef d = mlirOpaqueTypeGetData(t);
  return d.length >= 6 && memcmp(d.data, "tensor", 6) == 0 &&
         (d.length == 6 || d.data[6] == '<');
}

/* A torch aggregate holding tensors (`!torch.list<vtensor<...>>`,
 * `!torch.optional<vtensor>`, `!torch.tuple<...>`): no size of its own.
 * Only the ops that gather existing values into one
 * (acMakesTorchReferenceAggregate) may make one. */
static int acIsTorchTensorAggregate(MlirType t) {
  if (!mlirTypeIsAOpaque(t) ||
      !acStrRefEq(mlirOpaqueTypeGetDialectNamespace(t), "torch"))
    return 0;
  MlirStringRef d = mlirOpaqueTypeGetData(t);
  if ((d.length >= 7 && memcmp(d.data, "vtensor", 7) == 0) ||
      (d.length >= 6 && memcmp(d.data, "tensor", 6) == 0))
    return 0;
  for (size_t i = 0; i + 6 <= d.length; ++i)
    if (memcmp(d.data + i, "tensor", 6) == 0)
      return 1;
  return 0;
}

/* Ops whose aggregate result refers to values that exist already (and are
 * counted where they are made). */
static int acMakesTorchReferenceAggregate(const char *name) {
  return strcmp(name, "torch.prim.ListConstruct") == 0 ||
         strcmp(name, "torch.prim.TupleConstruct") == 0 ||
         strcmp(name, "torch.derefine") == 0;
}

/* A tensor whose byte size does not fit in what autoac counts. */
static AcStatus acTooBig(AcImportCtx *c, MlirLocation loc, AcId op,
                         const char *what) {
  return acFailAt(c, loc, AC_ERR_INVALID, op,
                  "%s is larger than autoac can count (2^62 - 1 bytes, 4 EiB)%s",
                  what, "");
}

static AcStatus acNoMem(AcImportCtx *c, MlirLocation loc) {
  return acFailAt(c, loc, AC_ERR_NOMEM, AC_NONE, "out of memory during import%s%s", "", "");
}

/* Types that hold no tensor whatever they print: scalars, vectors. */
static int acIsPlainType(MlirType t) {
  return mlirTypeIsAInteger(t) || mlirTypeIsAFloat(t) || mlirTypeIsAIndex(t) ||
         mlirTypeIsAComplex(t) || mlirTypeIsANone(t) || mlirTypeIsAVector(t);
}

/* Whether the text of type `t` names a tensor or buffer (an aggregate or
 * dialect type holding tensors: `!torch.list<vtensor<...>>`,
 * `!foo.box<tensor<4xf32>>`).  Types are read once per import. */
static int acTypeHoldsTensors(MlirType t) {
  AcStrBuf text = {0};
  mlirTypePrint(t, acStrBufMlirCallback, &text);
  int holds = text.data && !text.failed &&
              (strstr(text.data, "tensor") || strstr(text.data, "memref"));
  acFree(text.data);
  return holds;
}

/* A type holding tensors that the size model cannot price: an error
 * naming what it is of (`what`), the type, and where. */
static AcStatus acUnsizable(AcImportCtx *c, MlirType t, MlirLocation loc,
                            AcId op, const char *what) {
  AcStrBuf text = {0};
  mlirTypePrint(t, acStrBufMlirCallback, &text);
  char typeText[200];
  snprintf(typeText, sizeof typeText, "%s",
           text.data && !text.failed ? text.data : "?");
  acFree(text.data);
  return acFailAt(c, loc, AC_ERR_INVALID, op,
                  "%s has type '%s', which holds tensors: autoac cannot size "
                  "it (tensors, tuples of tensors and lists built by "
                  "torch.prim.ListConstruct are sized)",
                  what, typeText);
}

static AcStatus acReadTypeUncached(AcImportCtx *c, MlirType t, AcTensorType *out,
                                   MlirLocation loc, AcId op, const char *whatFmt,
                                   int whatIndex, const char *whatName);

/* A non-tensor operand that is a torch.prim.ListConstruct of
 * torch.constant.int ops: its values into `t` (rank = the list's length,
 * dims = the values; isTensor stays 0, so it still costs nothing), for the
 * op workspaces that depend on them (a convolution's stride, padding and
 * dilation: acCostWorkspace); a torch.constant.bool or torch.constant.int
 * likewise as a list of one (0 or 1 for a bool: a convolution's
 * `transposed`, its groups).  Anything else leaves `t` as it is. */
static void acReadConstIntList(MlirValue v, AcTensorType *t) {
  if (t->isTensor || !mlirValueIsAOpResult(v))
    return;
  MlirOperation list = mlirOpResultGetOwner(v);
  MlirStringRef kind = mlirIdentifierStr(mlirOperationGetName(list));
  if (acStrRefEq(kind, "torch.constant.bool") || acStrRefEq(kind, "torch.constant.int")) {
    MlirAttribute a = mlirOperationGetAttributeByName(list, mlirStringRefCreateFromCString("value"));
    if (mlirAttributeIsNull(a) || !(mlirAttributeIsAInteger(a) || mlirAttributeIsABool(a)))
      return;
    t->rank = 1;
    t->dims[0] = mlirAttributeIsABool(a) ? mlirBoolAttrGetValue(a)
                                         : mlirIntegerAttrGetValueInt(a);
    return;
  }
  intptr_t n = mlirOperationGetNumOperands(list);
  if (!acStrRefEq(mlirIdentifierStr(mlirOperationGetName(list)),
                  "torch.prim.ListConstruct") || n < 1 || n > AC_MAX_RANK)
    return;
  int64_t vals[AC_MAX_RANK];
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue e = mlirOperationGetOperand(list, i);
    if (!mlirValueIsAOpResult(e))
      return;
    MlirOperation k = mlirOpResultGetOwner(e);
    MlirAttribute a = mlirOperationGetAttributeByName(k, mlirStringRefCreateFromCString("value"));
    if (!acStrRefEq(mlirIdentifierStr(mlirOperationGetName(k)), "torch.constant.int") ||
        mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
      return;
    vals[i] = mlirIntegerAttrGetValueInt(a);
  }
  t->rank = (int32_t)n;
  memcpy(t->dims, vals, (size_t)n * sizeof vals[0]);
}

/* A builtin tuple: the sum of its parts' bytes (each read as a type of its
 * own), as one byte tensor; a tuple holding no tensor costs nothing. */
static AcStatus acReadTuple(AcImportCtx *c, MlirType t, AcTensorType *out,
                            MlirLocation loc, AcId op, const char *whatFmt,
                            int whatIndex, const char *whatName) {
  int64_t sum = 0;
  int any = 0;
  for (intptr_t i = 0; i < mlirTupleTypeGetNumTypes(t); ++i) {
    AcTensorType part;
    AcStatus st = acReadTypeUncached(c, mlirTupleTypeGetType(t, i), &part, loc,
                                     op, whatFmt, whatIndex, whatName);
    if (st != AC_OK)
      return st;
    int64_t bytes = acTensorBytes(&part);
    if (!part.isTensor)
      continue;
    for (int32_t d = 0; d < part.rank; ++d)
      if (part.dims[d] == AC_DIM_DYNAMIC) {
        char what[320];
        snprintf(what, sizeof what, whatFmt, whatIndex, whatName);
        return acFailAt(c, loc, AC_ERR_INVALID, op,
                        "%s is a tuple holding a tensor with a dynamic "
                        "dimension%s: autoac sizes dynamic tensors only as "
                        "values of their own", what, "");
      }
    any = 1;
    sum = bytes < 0 || bytes > AC_MAX_BYTES - sum ? AC_MAX_BYTES + 1 : sum + bytes;
  }
  memset(out, 0, sizeof *out);
  if (!any)
    return AC_OK;
  out->isTensor = 1;
  out->rank = 1;
  out->dims[0] = sum;
  out->elemBits = 8;
  return AC_OK;
}

/* Reads an MLIR type.  Non-tensor types cost nothing.  What the type is of,
 * for messages, is `whatFmt` (a format taking an int and a string) with
 * `whatIndex` and `whatName`: formatted only for a message (WHAT). */
static AcStatus acReadTypeUncached(AcImportCtx *c, MlirType t, AcTensorType *out,
                                   MlirLocation loc, AcId op, const char *whatFmt,
                                   int whatIndex, const char *whatName) {
  char what[320];
#define WHAT (snprintf(what, sizeof what, whatFmt, whatIndex, whatName), what)
  memset(out, 0, sizeof *out);
  if (mlirTypeIsAMemRef(t) || mlirTypeIsAUnrankedMemRef(t))
    return acFailAt(c, loc, AC_ERR_INVALID, op,
                    "%s is a buffer (memref)%s: autoac plans joint functions "
                    "on tensors, where writes are explicit; run it before "
                    "bufferization", WHAT, "");
  if (mlirTypeIsATuple(t))
    return acReadTuple(c, t, out, loc, op, whatFmt, whatIndex, whatName);
  if (mlirTypeIsAOpaque(t)) {
    MlirStringRef ns = mlirOpaqueTypeGetDialectNamespace(t);
    if (!acStrRefEq(ns, "torch"))
      return acTypeHoldsTensors(t)
                 ? acUnsizable(c, t, loc, op, WHAT)
                 : AC_OK;
    MlirStringRef data = mlirOpaqueTypeGetData(t);
    char stack[256];
    char *text = data.length + 8 <= sizeof stack ? stack : acMalloc(data.length + 8);
    if (!text)
      return acNoMem(c, loc);
    memcpy(text, "!torch.", 7);
    memcpy(text + 7, data.data, data.length);
    AcError terr;
    acErrorClear(&terr);
    AcStatus pst = acTypeParseTorchDynamic(text, data.length + 7, out, &terr);
    if (text != stack)
      acFree(text);
    if (pst != AC_OK)
      return acFailAt(c, loc, AC_ERR_INVALID, op, "%s: %s", WHAT, terr.message);
    return AC_OK;
  }
  if (mlirTypeIsAUnrankedTensor(t))
    return acFailAt(c, loc, AC_ERR_INVALID, op,
                    "%s has an unranked tensor type%s: autoac needs static "
                    "shapes to size activations", WHAT, "");
  if (!mlirTypeIsARankedTensor(t))
    return acIsPlainType(t) || !acTypeHoldsTensors(t)
               ? AC_OK
               : acUnsizable(c, t, loc, op, WHAT);
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (rank > AC_MAX_RANK)
    return acFailAt(c, loc, AC_ERR_INVALID, op, "%s has rank above %s", WHAT, "16");
  out->isTensor = 1;
  out->rank = (int32_t)rank;
  for (intptr_t i = 0; i < rank; ++i) {
    out->dims[i] = mlirShapedTypeIsDynamicDim(t, i)
                       ? AC_DIM_DYNAMIC /* its bound: acResolveDims */
                       : mlirShapedTypeGetDimSize(t, i);
  }
  MlirType e = mlirShapedTypeGetElementType(t);
  int32_t bits = 0;
  if (mlirTypeIsAComplex(e)) {
    MlirType inner = mlirComplexTypeGetElementType(e);
    if (mlirTypeIsAFloat(inner))
      bits = 2 * (int32_t)mlirFloatTypeGetWidth(inner);
  } else if (mlirTypeIsAFloat(e)) {
    bits = (int32_t)mlirFloatTypeGetWidth(e);
  } else if (mlirTypeIsAInteger(e)) {
    bits = (int32_t)mlirIntegerTypeGetWidth(e);
  } else if (mlirTypeIsAIndex(e)) {
    bits = 64;
  }
  if (bits <= 0)
    return acFailAt(c, loc, AC_ERR_INVALID, op,
                    "%s has an element type autoac cannot size%s", WHAT, "");
  out->elemBits = bits < 8 ? 8 : bits;
  return AC_OK;
}
#undef WHAT

/* acReadTypeUncached through the context's cache: a type is read (its
 * torch text parsed) once per import.  A type that cannot be cached (out
 * of memory for the cache) is read again next time. */
static AcStatus acReadType(AcImportCtx *c, MlirType t, AcTensorType *out,
                           MlirLocation loc, AcId op, const char *whatFmt,
                           int whatIndex, const char *whatName) {
  AcId k = acPtrMapGet(&c->typeIds, t.ptr);
  if (k != AC_NONE) {
    *out = c->typeCache[k];
    return AC_OK;
  }
  AcStatus st = acReadTypeUncached(c, t, out, loc, op, whatFmt, whatIndex, whatName);
  if (st == AC_OK && acArrayGrow((void **)&c->typeCache, &c->capTypeCache,
                                 c->numTypeCache + 1, sizeof *c->typeCache) &&
      acPtrMapPut(&c->typeIds, t.ptr, (int32_t)c->numTypeCache) == AC_OK)
    c->typeCache[c->numTypeCache++] = *out;
  return st;
}

/* A type read with dynamic dimensions (AC_DIM_DYNAMIC) gets their sizes at
 * the bounds: the current function's dimensions are tied into symbols
 * first (once per function, only when one is met). */
static AcStatus acResolveDims(AcImportCtx *c, MlirValue v, AcTensorType *t) {
  int dyn = 0;
  for (int32_t d = 0; d < t->rank && t->isTensor; ++d)
    dyn |= t->dims[d] == AC_DIM_DYNAMIC;
  if (!dyn)
    return AC_OK;
  if (!c->syms)
    return acFailAt(c, mlirOperationGetLocation(c->curFunc), AC_ERR_NOMEM,
                    AC_NONE, "out of memory during import%s%s", "", "");
  MlirLocation loc = mlirOperationGetLocation(c->curFunc);
  AcStatus st = acSymbolsAnalyzeFunc(c->syms, c->curFunc, c->curFuncName,
                                     c->err, c->errLoc ? c->errLoc : &loc);
  if (st != AC_OK)
    return st;
  st = acSymbolsResolve(c->syms, v, t, c->err);
  if (st != AC_OK && c->errLoc)
    *c->errLoc = loc;
  return st;
}

static AcStatus acMapValue(AcImportCtx *c, MlirValue v, AcId id) {
  AcImport *imp = c->imp;
  if (!acArrayGrow((void **)&imp->values, &c->capValues, id + 1, sizeof *imp->values))
    return AC_ERR_NOMEM;
  imp->values[id] = v;
  return acPtrMapPut(&c->valueIds, v.ptr, id);
}

/* Adds `id` to the current op's operands once: seenAt[id] holds the stamp
 * of the last op that added it, so de-duplication is linear in the operands
 * (an op may have hundreds of thousands). */
static void acAddOperand(AcImportCtx *c, AcId id) {
  if (id >= c->capSeen) {
    intptr_t old = c->capSeen;
    if (!acArrayGrow((void **)&c->seenAt, &c->capSeen, (intptr_t)id + 1,
                     sizeof *c->seenAt)) {
      c->walkStatus = AC_ERR_NOMEM;
      return;
    }
    memset(c->seenAt + old, 0, (size_t)(c->capSeen - old) * sizeof *c->seenAt);
  }
  if (c->seenAt[id] == c->stamp)
    return;
  if (!acArrayGrow((void **)&c->operands, &c->capOperands, c->numOperands + 1,
                   sizeof *c->operands)) {
    c->walkStatus = AC_ERR_NOMEM;
    return;
  }
  c->seenAt[id] = c->stamp;
  c->operands[c->numOperands++] = id;
  /* A torch list or tuple only refers to its elements: the op reading it
     reads them, so each is its operand too (and lives until it runs). */
  if (id < c->capAgg && c->agg[id].n > 0)
    for (int32_t i = 0; i < c->agg[id].n; ++i)
      acAddOperand(c, c->aggElems[c->agg[id].start + i]);
}

/* Records the current op's operands (aggregates already expanded by
 * acAddOperand) as the elements of `value`, a reference aggregate. */
static AcStatus acRecordAggregate(AcImportCtx *c, AcId value) {
  if (c->numOperands == 0)
    return AC_OK;
  if (value >= c->capAgg) {
    intptr_t old = c->capAgg;
    if (!acArrayGrow((void **)&c->agg, &c->capAgg, (intptr_t)value + 1, sizeof *c->agg))
      return AC_ERR_NOMEM;
    memset(c->agg + old, 0, (size_t)(c->capAgg - old) * sizeof *c->agg);
  }
  if (!acArrayGrow((void **)&c->aggElems, &c->capAggElems,
                   c->numAggElems + c->numOperands, sizeof *c->aggElems))
    return AC_ERR_NOMEM;
  memcpy(c->aggElems + c->numAggElems, c->operands,
         (size_t)c->numOperands * sizeof *c->operands);
  c->agg[value].start = c->numAggElems;
  c->agg[value].n = (int32_t)c->numOperands;
  c->numAggElems += c->numOperands;
  return AC_OK;
}

/* Copies a name from the IR into `*buf` (grown as needed) as a C string.
 * Names become report keys, plan-file keys and symbol names: one holding a
 * NUL byte (which would cut it) or bytes that are not UTF-8 (which JSON
 * cannot carry) is refused, naming what it is and where. */
static AcStatus acCopyName(AcImportCtx *c, MlirStringRef r, char **buf,
                           intptr_t *cap, MlirLocation loc, const char *what) {
  if (memchr(r.data, '\0', r.length))
    return acFailAt(c, loc, AC_ERR_INVALID, AC_NONE,
                    "%s holds a NUL byte%s: autoac cannot name it in its report "
                    "and plan files", what, "");
  if (!acUtf8Valid(r.data, r.length))
    return acFailAt(c, loc, AC_ERR_INVALID, AC_NONE,
                    "%s is not valid UTF-8%s: autoac cannot name it in its "
                    "report and plan files", what, "");
  if (!acArrayGrow((void **)buf, cap, (intptr_t)r.length + 1, 1))
    return acNoMem(c, loc);
  memcpy(*buf, r.data, r.length);
  (*buf)[r.length] = '\0';
  return AC_OK;
}

/* The name of an op, identifier `ident`, checked and copied (acCopyName)
 * and resolved by the cost model once per name (MLIR uniques identifiers):
 * c->opName points at the copy, c->opNameCost at its resolution. */
static AcStatus acOpName(AcImportCtx *c, MlirIdentifier ident, MlirLocation loc) {
  AcId k = acPtrMapGet(&c->opNameIds, ident.ptr);
  if (k != AC_NONE) {
    c->opName = c->opNames[k].name;
    c->opNameCost = &c->opNames[k].cost;
    return AC_OK;
  }
  char *copy = NULL;
  intptr_t cap = 0;
  AcStatus st = acCopyName(c, mlirIdentifierStr(ident), &copy, &cap, loc,
                           "the name of an op");
  if (st != AC_OK) {
    acFree(copy);
    return st;
  }
  if (!acArrayGrow((void **)&c->opNames, &c->capOpNames, c->numOpNames + 1,
                   sizeof *c->opNames)) {
    acFree(copy);
    return acNoMem(c, loc);
  }
  k = (AcId)c->numOpNames++;
  c->opNames[k].name = copy; /* freed with opNames */
  acCostResolveName(copy, &c->opNames[k].cost);
  if (acPtrMapPut(&c->opNameIds, ident.ptr, k) != AC_OK)
    return acNoMem(c, loc);
  c->opName = copy;
  c->opNameCost = &c->opNames[k].cost;
  return AC_OK;
}

/* Walk callback: operands of nested ops that come from the function body. */
static MlirWalkResult acCaptureWalk(MlirOperation op, void *user) {
  AcImportCtx *c = user;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, r));
    if (mlirTypeIsAMemRef(t) || mlirTypeIsAUnrankedMemRef(t)) {
      c->walkStatus = AC_ERR_INVALID;
      c->badNested = op;
      c->badNestedResult = (int)r;
      return MlirWalkResultInterrupt;
    }
  }
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i) {
    AcId id = acPtrMapGet(&c->valueIds, mlirOperationGetOperand(op, i).ptr);
    if (id != AC_NONE)
      acAddOperand(c, id);
  }
  return c->walkStatus == AC_OK ? MlirWalkResultAdvance : MlirWalkResultInterrupt;
}

/* linalg.generic: loop ranges from indexing maps and operand shapes. */
static void acLinalgExtra(MlirOperation op, const AcTensorType *types,
                          intptr_t numOperands, AcOpExtra *extra) {
  MlirAttribute maps = mlirOperationGetAttributeByName(op, acStr("indexing_maps"));
  MlirAttribute iters = mlirOperationGetAttributeByName(op, acStr("iterator_types"));
  if (mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps) ||
      mlirArrayAttrGetNumElements(maps) != numOperands)
    return;
  double range[64];
  intptr_t numDims = 0;
  for (intptr_t i = 0; i < numOperands; ++i) {
    MlirAttribute m = mlirArrayAttrGetElement(maps, i);
    if (!mlirAttributeIsAAffineMap(m))
      return;
    MlirAffineMap map = mlirAffineMapAttrGetValue(m);
    if (i == 0) {
      numDims = mlirAffineMapGetNumDims(map);
      if (numDims > 64)
        return;
      for (intptr_t d = 0; d < numDims; ++d)
        range[d] = 1;
    }
    if (!types[i].isTensor)
      continue;
    intptr_t nr = mlirAffineMapGetNumResults(map);
    for (intptr_t r = 0; r < nr && r < types[i].rank; ++r) {
      MlirAffineExpr e = mlirAffineMapGetResult(map, r);
      if (mlirAffineExprIsADim(e)) {
        intptr_t d = mlirAffineDimExprGetPosition(e);
        if (d < numDims && (double)types[i].dims[r] > range[d])
          range[d] = (double)types[i].dims[r];
      }
    }
  }
  double it = 1;
  for (intptr_t d = 0; d < numDims; ++d)
    it *= range[d];
  extra->loopIterations = it;
  int hasReduction = 0, hasMul = 0, hasAdd = 0;
  if (!mlirAttributeIsNull(iters) && mlirAttributeIsAArray(iters)) {
    for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(iters); ++i) {
      AcStrBuf text = {0};
      mlirAttributePrint(mlirArrayAttrGetElement(iters, i), acStrBufMlirCallback, &text);
      if (text.data && strstr(text.data, "reduction"))
        hasReduction = 1;
      acFree(text.data);
    }
  }
  if (mlirOperationGetNumRegions(op) > 0) {
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    if (!mlirBlockIsNull(body)) {
      for (MlirOperation o = mlirBlockGetFirstOperation(body);
           !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
        MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(o));
        if (acStrRefEq(n, "linalg.yield"))
          continue;
        extra->bodyArithOps++;
        if (acStrRefEq(n, "arith.mulf") || acStrRefEq(n, "arith.muli"))
          hasMul = 1;
        if (acStrRefEq(n, "arith.addf") || acStrRefEq(n, "arith.addi"))
          hasAdd = 1;
      }
    }
  }
  extra->isContraction = (uint8_t)(hasReduction && hasMul && hasAdd);
}

/* A request attribute (ac.save, ac.recompute): 1 when present as a unit
 * attribute or `true`, 0 when absent or `false` (no request), -1 for any
 * other value. */
static int acRequestFlag(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetDiscardableAttributeByName(op, acStr(name));
  if (mlirAttributeIsNull(a))
    return 0;
  if (mlirAttributeIsAUnit(a))
    return 1;
  if (mlirAttributeIsABool(a))
    return mlirBoolAttrGetValue(a) ? 1 : 0;
  return -1;
}

/* Whether view op `op` is a copy once bufferized (import/layout.h,
 * docs/fidelity.md cause 6): a reshape its source's layout does not allow
 * (a collapse of groups that are not contiguous), or a view whose layout an
 * identity-layout function result cannot take that leaves its function:
 * returned by `ret` or marked ac.save (acLayoutLeaves), or one the
 * backward must receive as it is (`pinned`: not recomputable).
 * *boundary: the second kind. */
static int acViewCopies(MlirOperation op, MlirOperation ret, int pinned,
                        int *boundary) {
  AcLayout src, res;
  *boundary = 0;
  if (mlirOperationGetNumResults(op) != 1 || mlirOperationGetNumOperands(op) < 1)
    return 0;
  acLayoutOfValue(mlirOperationGetOperand(op, 0), ret, 1, &src);
  AcLayoutKind k = acLayoutStep(op, &src, &res);
  if (k == AC_LAYOUT_COPY)
    return 1;
  if (k != AC_LAYOUT_VIEW || acLayoutReturnsWithoutCopy(&res))
    return 0;
  *boundary = pinned || acLayoutLeaves(mlirOperationGetResult(op, 0), ret);
  return *boundary;
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

typedef struct AcWriteNote {
  AcImportCtx *c;
  AcId op;
} AcWriteNote;

/* acOpWrittenValues callback: records a write of a function-body value. */
static void acNoteWrite(MlirValue v, void *user) {
  AcWriteNote *w = user;
  AcId id = acPtrMapGet(&w->c->valueIds, v.ptr);
  if (id != AC_NONE)
    acGraphBuilderSetMutates(w->c->b, w->op, id);
}

/* Records the values op `op` (graph op `opId`) writes, for the program
 * order of writes (acGraphBuilderFinish) and the mutation pins: the operand
 * its name says it writes (torch's `relu_`, `copy_`, overwrite.tensor.
 * contents), every value its declared memory effects write or free, and,
 * for an op whose effects are not fully known and whose name no rule
 * knows, every operand with reference semantics (`!torch.tensor`: anything
 * may write it).  `eff` is acOpMemoryEffectFree of the op. */
static void acImportWrites(AcImportCtx *c, MlirOperation op, AcId opId,
                           const AcOpCost *cost, intptr_t numDirect, int eff) {
  if (cost->mutatesOperand >= 0 && cost->mutatesOperand < numDirect)
    acGraphBuilderSetMutates(
        c->b, opId, acPtrMapGet(&c->valueIds,
                                mlirOperationGetOperand(op, cost->mutatesOperand).ptr));
  int known = eff;
  if (eff == 0) {
    AcWriteNote note = {c, opId};
    known = acOpWrittenValues(op, acNoteWrite, &note);
  }
  if (known == 1 || !cost->unknown)
    return;
  for (intptr_t i = 0; i < numDirect; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (acIsTorchNonValueTensor(mlirValueGetType(v)))
      acGraphBuilderSetMutates(c->b, opId, acPtrMapGet(&c->valueIds, v.ptr));
  }
}

/* acBodyWorkspace's hooks (import/bodies.h): the import's types and cost
 * model, for the values and ops nested in a region op.  A type read that
 * fails is no error here (acReadTypeQuietly: the value is then not sized,
 * and what the read wrote into the context's error is put back). */
static int acReadTypeQuietly(AcImportCtx *c, MlirValue v, AcTensorType *t) {
  AcError saved = *c->err;
  MlirLocation savedLoc = c->errLoc ? *c->errLoc : mlirOperationGetLocation(c->curFunc);
  if (acReadType(c, mlirValueGetType(v), t, savedLoc, AC_NONE, "value #%d%s", 0,
                 "") == AC_OK)
    return 1;
  *c->err = saved;
  if (c->errLoc)
    *c->errLoc = savedLoc;
  return 0;
}

static int64_t acBodyValueBytes(void *user, MlirValue v) {
  AcImportCtx *c = user;
  AcTensorType t;
  if (!acReadTypeQuietly(c, v, &t))
    return -1;
  if (!t.isTensor)
    return 0;
  for (int32_t d = 0; d < t.rank; ++d)
    if (t.dims[d] == AC_DIM_DYNAMIC)
      return -1;
  int64_t bytes = acTensorBytes(&t);
  return bytes < 0 || bytes > AC_MAX_BYTES ? -1 : bytes;
}

/* The cost model's answer for `op`, nested in a region op (types read
 * through the import's cache, a linalg.generic's body read as at the top
 * level).  0 when an operand or result type cannot be read. */
static int acNestedCost(AcImportCtx *c, MlirOperation op, AcOpCost *cost) {
  intptr_t nops = mlirOperationGetNumOperands(op), nres = mlirOperationGetNumResults(op);
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  char name[128];
  AcTensorType types[64];
  if (nops + nres > 64 || n.length >= sizeof name)
    return 0;
  for (intptr_t i = 0; i < nops + nres; ++i) {
    MlirValue v = i < nops ? mlirOperationGetOperand(op, i)
                           : mlirOperationGetResult(op, i - nops);
    if (!acReadTypeQuietly(c, v, &types[i]))
      return 0;
  }
  memcpy(name, n.data, n.length);
  name[n.length] = 0;
  AcOpExtra extra;
  memset(&extra, 0, sizeof extra);
  if (acStrRefEq(n, "linalg.generic"))
    acLinalgExtra(op, types, nops, &extra);
  acCostEstimate(name, types, nops, types + nops, nres, &extra, cost);
  return 1;
}

static intptr_t acBodyAliasOperand(void *user, MlirOperation op) {
  AcOpCost cost;
  intptr_t nops = mlirOperationGetNumOperands(op);
  if (nops == 0 || !acNestedCost(user, op, &cost))
    return -1;
  if (cost.isView)
    return 0;
  return cost.mutatesOperand >= 0 && cost.mutatesOperand < nops ? cost.mutatesOperand : -1;
}

/* What the ops in the regions of `op` cost (a loop: its body, times its
 * trip count when it is a constant, else once; an scf.if or
 * scf.index_switch: its costliest region), into `cost`'s FLOPs and bytes:
 * a loop is no longer 0 FLOPs to the planner.  cost->unknown stays set
 * when a nested op is unknown to the model; computeIntensive when one is. */
static void acRegionCost(AcImportCtx *c, MlirOperation op, int depth, AcOpCost *cost) {
  int branches = acOpIs(op, "scf.if") || acOpIs(op, "scf.index_switch");
  double flops = 0, bytes = 0;
  int unknown = 0;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    double rf = 0, rb = 0;
    for (MlirBlock blk = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(blk); blk = mlirBlockGetNextInRegion(blk)) {
      MlirOperation term = acBlockTerminator(blk);
      for (MlirOperation o = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(o);
           o = mlirOperationGetNextInBlock(o)) {
        AcOpCost k;
        memset(&k, 0, sizeof k);
        MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(o));
        if (!mlirOperationIsNull(term) && mlirOperationEqual(o, term))
          continue; /* a yield: costs nothing */
        if (mlirOperationGetNumRegions(o) > 0 &&
            !(n.length > 7 && !strncmp(n.data, "linalg.", 7))) {
          if (depth < AC_BODY_DEPTH)
            acRegionCost(c, o, depth + 1, &k);
          else
            k.unknown = 1;
        } else if (!acNestedCost(c, o, &k)) {
          k.unknown = 1;
        }
        rf += k.flops;
        rb += k.bytesMoved;
        unknown |= k.unknown;
        cost->computeIntensive |= k.computeIntensive;
      }
    }
    if (branches) {
      flops = rf > flops ? rf : flops;
      bytes = rb > bytes ? rb : bytes;
    } else {
      flops += rf;
      bytes += rb;
    }
  }
  int64_t trips = acOpIs(op, "scf.for") ? acForTrips(op) : -1;
  double times = trips >= 0 ? (double)trips : 1.0;
  cost->flops = flops * times;
  cost->bytesMoved = bytes * times;
  cost->unknown = (uint8_t)unknown;
}

/* An op of several results that writes one of them into its init in
 * place (a loop carrying a tensor and a counter, a linalg op with two
 * `outs`): the graph counts one in-place result per op, so the plan counts
 * these as new buffers, an upper bound (compiled_peak "at most"). */
static void acNoteSeveralInits(AcImportCtx *c, MlirOperation op, intptr_t nres) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  int linalg = n.length > 7 && !strncmp(n.data, "linalg.", 7);
  intptr_t nops = mlirOperationGetNumOperands(op);
  for (intptr_t k = 0; k < nres; ++k) {
    MlirValue r = mlirOperationGetResult(op, k);
    if (acBodyValueBytes(c, r) <= 0)
      continue;
    int inPlace = linalg ? nops >= nres &&
                               mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(op, nops - nres + k)),
                                             mlirValueGetType(r))
                         : !mlirValueIsNull(acDpsResultInit(op, k, 0));
    if (!inPlace)
      continue;
    acBodyNoteAt(&c->imp->bodies, AC_BODY_AT_MOST, op,
                 "'%s' writes its result #%lld into its init in place beside "
                 "other results; the plan counts it as a new buffer", (long long)k);
    return;
  }
}

/* The init of `op`'s result k (acDpsResultInit), or a null value. */
static MlirValue acDpsInit(MlirOperation op, intptr_t k) {
  return acDpsResultInit(op, k, 0);
}

static AcStatus acImportFunc(AcImportCtx *c, MlirOperation func,
                             const char *name) {
  AcImport *imp = c->imp;
  MlirLocation floc = mlirOperationGetLocation(func);
  AcGraphBuilder *b = c->b;
  MlirRegion body = mlirOperationGetRegion(func, 0);
  MlirBlock block = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(block))
    return acFailAt(c, floc, AC_ERR_INVALID, AC_NONE,
                    "joint function '@%s' has no body%s", name, "");
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(block)))
    return acFailAt(c, floc, AC_ERR_INVALID, AC_NONE,
                    "joint function '@%s' has several blocks%s: autoac plans "
                    "single-block functions (run a CFG-to-SCF lifting first)",
                    name, "");
  AcId f = acGraphBuilderAddFunc(b, name);
  if (f == AC_NONE)
    return acNoMem(c, floc);
  if (!acArrayGrow((void **)&imp->funcOps, &c->capFuncs, f + 1, sizeof(MlirOperation)) ||
      !acArrayGrow((void **)&imp->returnOps, &c->capRetOps, f + 1, sizeof(MlirOperation)) ||
      !acArrayGrow((void **)&c->funcNames, &c->capFuncNames, f + 1, sizeof(char *)))
    return acNoMem(c, floc);
  imp->funcOps[f] = func;
  imp->returnOps[f] = mlirBlockGetTerminator(block);
  c->curFunc = func;
  c->curFuncName = name;
  if (!(c->funcNames[f] = acStrdup(name)))
    return acNoMem(c, floc);
  c->numFuncs = f + 1;

  MlirAttribute argAttrs = mlirOperationGetAttributeByName(func, acStr("arg_attrs"));
  MlirAttribute resAttrs = mlirOperationGetAttributeByName(func, acStr("res_attrs"));
  intptr_t nargs = mlirBlockGetNumArguments(block);
  char what[320];
  for (intptr_t i = 0; i < nargs; ++i) {
    MlirValue arg = mlirBlockGetArgument(block, i);
    AcRole role = AC_ROLE_PRIMAL;
    if (!mlirAttributeIsNull(argAttrs) && i < mlirArrayAttrGetNumElements(argAttrs)) {
      MlirAttribute d = mlirArrayAttrGetElement(argAttrs, i);
      int isParam = !mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(d, acStr("ac.param")));
      int isTangent = !mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(d, acStr("ac.tangent")));
      if (isParam && isTangent) {
        snprintf(what, sizeof what, "%d", (int)i);
        return acFailAt(c, floc, AC_ERR_INVALID, AC_NONE,
                        "argument #%s of '@%s' is marked both ac.param and ac.tangent",
                        what, name);
      }
      role = isParam ? AC_ROLE_PARAM : isTangent ? AC_ROLE_TANGENT : AC_ROLE_PRIMAL;
    }
    AcTensorType t;
    AcStatus st = acReadType(c, mlirValueGetType(arg), &t, floc, AC_NONE,
                             "argument #%d of '@%s'", (int)i, name);
    if (st == AC_OK)
      st = acResolveDims(c, arg, &t);
    if (st != AC_OK)
      return st;
    if (acIsTorchTensorAggregate(mlirValueGetType(arg))) {
      snprintf(what, sizeof what, "argument #%d of '@%s'", (int)i, name);
      return acUnsizable(c, mlirValueGetType(arg), floc, AC_NONE, what);
    }
    int64_t bytes = acTensorBytes(&t);
    if (bytes < 0 || bytes > AC_MAX_BYTES) {
      snprintf(what, sizeof what, "argument #%d of '@%s'", (int)i, name);
      return acTooBig(c, floc, AC_NONE, what);
    }
    AcId id = acGraphBuilderAddArg(b, role, bytes);
    if (id == AC_NONE || acMapValue(c, arg, id) != AC_OK)
      return acNoMem(c, floc);
    if (acIsTorchNonValueTensor(mlirValueGetType(arg)))
      acGraphBuilderSetMutable(b, id);
  }

  MlirOperation ret = mlirBlockGetTerminator(block);
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (mlirOperationEqual(op, ret))
      break;
    MlirLocation loc = mlirOperationGetLocation(op);
    MlirIdentifier ident = mlirOperationGetName(op);
    MlirStringRef opNameRef = mlirIdentifierStr(ident);
    AcStatus nst = acOpName(c, ident, loc);
    if (nst != AC_OK)
      return nst;
    const char *opName = c->opName;
    /* Operands: direct ones, then captures of nested regions. */
    c->numOperands = 0;
    c->stamp++;
    c->walkStatus = AC_OK;
    intptr_t nops = mlirOperationGetNumOperands(op);
    for (intptr_t i = 0; i < nops; ++i) {
      AcId id = acPtrMapGet(&c->valueIds, mlirOperationGetOperand(op, i).ptr);
      if (id == AC_NONE)
        return acFailAt(c, loc, AC_ERR_INTERNAL, AC_NONE,
                        "operand of '%s' is not defined in the function body%s",
                        opName, "");
      /* keep duplicates for cost, dedupe for the graph */
      acAddOperand(c, id);
    }
    intptr_t numDirect = nops;
    for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r)
      for (MlirBlock nb = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
           !mlirBlockIsNull(nb); nb = mlirBlockGetNextInRegion(nb))
        for (MlirOperation no = mlirBlockGetFirstOperation(nb); !mlirOperationIsNull(no);
             no = mlirOperationGetNextInBlock(no))
          mlirOperationWalk(no, acCaptureWalk, c, MlirWalkPreOrder);
    if (c->walkStatus == AC_ERR_INVALID) {
      snprintf(what, sizeof what, "result #%d of '%.*s'", c->badNestedResult,
               (int)mlirIdentifierStr(mlirOperationGetName(c->badNested)).length,
               mlirIdentifierStr(mlirOperationGetName(c->badNested)).data);
      return acFailAt(c, mlirOperationGetLocation(c->badNested), AC_ERR_INVALID,
                      AC_NONE, "%s (in a region of '%s') is a buffer (memref): "
                      "autoac plans joint functions on tensors, where writes "
                      "are explicit; run it before bufferization", what, opName);
    }
    if (c->walkStatus != AC_OK)
      return acNoMem(c, loc);
    /* Types: direct operands, then results. */
    intptr_t nres = mlirOperationGetNumResults(op);
    if (!acArrayGrow((void **)&c->types, &c->capTypes, numDirect + nres + 1, sizeof *c->types))
      return acNoMem(c, loc);
    AcId opId;
    for (intptr_t i = 0; i < numDirect; ++i) {
      AcStatus st = acReadType(c, mlirValueGetType(mlirOperationGetOperand(op, i)),
                               &c->types[i], loc, AC_NONE, "operand #%d of '%s'",
                               (int)i, opName);
      if (st == AC_OK)
        st = acResolveDims(c, mlirOperationGetOperand(op, i), &c->types[i]);
      if (st != AC_OK)
        return st;
    }
    int64_t resBytes[64];
    int64_t *rb = nres <= 64 ? resBytes : acMalloc((size_t)nres * sizeof *rb);
    if (!rb)
      return acNoMem(c, loc);
    for (intptr_t r = 0; r < nres; ++r) {
      AcStatus st = acReadType(c, mlirValueGetType(mlirOperationGetResult(op, r)),
                               &c->types[numDirect + r], loc, AC_NONE,
                               "result #%d of '%s'", (int)r, opName);
      if (st == AC_OK)
        st = acResolveDims(c, mlirOperationGetResult(op, r),
                           &c->types[numDirect + r]);
      if (st != AC_OK) {
        if (rb != resBytes)
          acFree(rb);
        return st;
      }
      MlirType rt = mlirValueGetType(mlirOperationGetResult(op, r));
      if (acIsTorchTensorAggregate(rt) && !acMakesTorchReferenceAggregate(opName)) {
        if (rb != resBytes)
          acFree(rb);
        snprintf(what, sizeof what, "result #%d of '%s'", (int)r, opName);
        return acUnsizable(c, rt, loc, AC_NONE, what);
      }
      int64_t bytes = acTensorBytes(&c->types[numDirect + r]);
      if (bytes < 0 || bytes > AC_MAX_BYTES) {
        if (rb != resBytes)
          acFree(rb);
        snprintf(what, sizeof what, "result #%d of '%s'", (int)r, opName);
        return acTooBig(c, loc, AC_NONE, what);
      }
      rb[r] = bytes;
    }
    AcOpExtra extra;
    memset(&extra, 0, sizeof extra);
    int eff = acOpMemoryEffectFree(op);
    extra.knownPure = eff == 1;
    extra.hasMemoryEffects = eff == 0;
    if (acStrRefEq(opNameRef, "linalg.generic"))
      acLinalgExtra(op, c->types, numDirect, &extra);
    AcOpCost cost;
    acCostEstimateNamed(c->opNameCost, opName, c->types, numDirect,
                        c->types + numDirect, nres, &extra, &cost);
    if (cost.unknown && mlirOperationGetNumRegions(op) > 0 &&
        strncmp(opName, "linalg.", 7) != 0) {
      /* A loop or a branch: what its regions' ops cost. */
      acRegionCost(c, op, 0, &cost);
      if (cost.computeIntensive)
        cost.kind = AC_KIND_MATMUL;
    }
    const AcCostOverride *user = acCostTableLookup(c->costTable, opName);
    int boundary = 0;
    if (cost.isView && nres == 1 && c->types[numDirect].isTensor &&
        acViewCopies(op, ret,
                     !cost.recomputable ||
                         (user && user->hasRecomputable && !user->recomputable),
                     &boundary)) {
      /* A new buffer and a copy: the result owns its bytes, the source may
         die at this op.  A boundary copy is what leaves the function, so
         it is never rerun (the backward receives the copy). */
      cost.isView = 0;
      cost.kind = AC_KIND_DATA_MOVEMENT;
      cost.bytesMoved = 2 * (double)rb[0];
      if (boundary)
        cost.recomputable = 0;
    }
    if (user && user->hasRecomputable && user->recomputable &&
        extra.hasMemoryEffects) {
      if (rb != resBytes)
        acFree(rb);
      char why[512];
      snprintf(why, sizeof why, "cost table '%s' makes '%s' recomputable, "
               "but the op declares memory effects%s",
               acCostTableSource(c->costTable), opName, "");
      return acFailAt(c, loc, AC_ERR_INVALID, AC_NONE, "%s%s", why,
                      ": autoac never reruns it");
    }
    double userSeconds = user ? acCostApplyOverride(user, c->device, &cost) : 0;
    for (intptr_t i = 0; i < numDirect; ++i)
      acReadConstIntList(mlirOperationGetOperand(op, i), &c->types[i]);
    int64_t workspace = user && user->hasWorkspace
                            ? user->workspace
                            : acCostWorkspace(c->device, opName, c->types, numDirect,
                                              c->types + numDirect, nres) +
                                  acTosaWorkspace(op, &c->imp->bodies);
    if (workspace > AC_MAX_BYTES)
      workspace = AC_MAX_BYTES;
    /* A tensor constant bufferizes to a `memref.get_global`: no
       allocation (a writer into it copies: a new storage of its own).
       It costs nothing to rebuild, and a saved one would be copied at
       @f_fwd's return, so it is always recomputed (unless the user asks
       ac.save of it, which keeps its bytes). */
    int globalConst =
        acOpIsGlobalConstant(op) &&
        acRequestFlag(op, "ac.save") == 0 && acRequestFlag(op, "ac.recompute") >= 0;
    if (globalConst)
      rb[0] = 0;
    /* A TOSA shape must be a constant in sight of its user (tosa.reshape,
       tosa.slice, ... do not verify otherwise): never an argument of
       @f_bwd, always rebuilt there (no memory either way). */
    if (acOpIs(op, "tosa.const_shape"))
      globalConst = 1;
    /* A `tensor.empty` holds no data: recomputing it is its allocation,
       right before its writer in the backward (which then writes into it
       in place).  Saved, @f_bwd would receive a buffer its writer never
       reads (bufferization allocates the writer's result anew when the
       body does not read its init) and free it at once, while the plan
       counts it live up to that writer (seed 7022 of the differential
       tester, test/lit/difftest/saved-empty.mlir). */
    int emptyInit = nres == 1 && acStrRefEq(opNameRef, "tensor.empty") &&
                    acRequestFlag(op, "ac.save") == 0 &&
                    acRequestFlag(op, "ac.recompute") >= 0;
    opId = acGraphBuilderAddOp(b, opName, c->operands, (int32_t)c->numOperands,
                               (int32_t)nres, rb);
    if (rb != resBytes)
      acFree(rb);
    if (opId == AC_NONE)
      return acNoMem(c, loc);
    if (!acArrayGrow((void **)&imp->ops, &c->capOps, opId + 1, sizeof *imp->ops))
      return acNoMem(c, loc);
    imp->ops[opId] = op;
    if (!acArrayGrow((void **)&c->unknown, &c->capUnknown, opId + 1, 1))
      return acNoMem(c, loc);
    c->unknown[opId] = cost.unknown;
    AcOp *gop = acGraphBuilderOp(b, opId);
    gop->kind = (uint8_t)cost.kind;
    gop->flops = cost.flops;
    gop->bytesMoved = cost.bytesMoved;
    gop->seconds = user ? userSeconds
                        : acCostSeconds(c->device, cost.flops, cost.bytesMoved);
    gop->recomputable = cost.recomputable;
    gop->computeIntensive = cost.computeIntensive;
    gop->workspace = workspace;
    if (mlirOperationGetNumRegions(op) > 0) {
      /* What its bodies make and free while it runs (import/bodies.h). */
      AcBodyHooks hooks = {c, acBodyValueBytes, acBodyAliasOperand};
      int64_t w = acBodyWorkspace(op, &hooks, &imp->bodies);
      if (w < 0)
        return acNoMem(c, loc);
      gop->workspace = w > AC_MAX_BYTES - workspace ? AC_MAX_BYTES : workspace + w;
      /* A copied init (read later, or not writable) that dies at the op
         is freed once copied, before the body runs; the simulator keeps
         it through the op (difftest seed 6002917). */
      if (w > 0 && !mlirValueIsNull(acDpsInit(op, 0)))
        acBodyNoteAt(&imp->bodies, AC_BODY_AT_MOST, op,
                     "'%s' makes tensors in its body (%lld B) beside its init; "
                     "where the init is copied and read no more, the program "
                     "frees it before the body runs, the plan counts both", w);
    }
    int flag = acRequestFlag(op, "ac.save");
    if (flag < 0)
      return acFailAt(c, loc, AC_ERR_INVALID, opId,
                      "ac.save on '%s' must be a unit attribute or a boolean%s",
                      opName, "");
    gop->mustSave = (uint8_t)flag;
    /* Destination-style writers (acDpsResultInit): a linalg op into its
       one `outs`, `tensor.insert_slice`/`tensor.insert` into their dest, a
       loop or an `scf.if` into the storage its result is equivalent to.
       Bufferization writes in place when that init is not read
       afterwards, and the simulator counts it so. */
    if (nres == 1) {
      MlirValue init = acDpsInit(op, 0);
      if (!mlirValueIsNull(init)) {
        gop->dpsInit = acPtrMapGet(&c->valueIds, init.ptr);
        gop->initAlsoRead = (uint8_t)acDpsInitAlsoRead(op, init);
      }
    } else {
      acNoteSeveralInits(c, op, nres);
    }
    if ((flag = acRequestFlag(op, "ac.recompute")) < 0)
      return acFailAt(c, loc, AC_ERR_INVALID, opId,
                      "ac.recompute on '%s' must be a unit attribute or a "
                      "boolean%s", opName, "");
    gop->mustRecompute = (uint8_t)(flag || globalConst || emptyInit);
    if (gop->mustSave && gop->mustRecompute)
      return acFailAt(c, loc, AC_ERR_INVALID, opId,
                      "'%s' is marked both ac.save and ac.recompute%s", opName, "");
    MlirAttribute ph = mlirOperationGetDiscardableAttributeByName(op, acStr("ac.phase"));
    if (!mlirAttributeIsNull(ph)) {
      MlirStringRef s = mlirAttributeIsAString(ph) ? mlirStringAttrGetValue(ph)
                                                    : mlirStringRefCreate("", 0);
      if (acStrRefEq(s, "fwd"))
        acGraphBuilderForcePhase(b, opId, AC_PHASE_FWD);
      else if (acStrRefEq(s, "bwd"))
        acGraphBuilderForcePhase(b, opId, AC_PHASE_BWD);
      else
        return acFailAt(c, loc, AC_ERR_INVALID, opId,
                        "invalid ac.phase on '%s'%s: expected \"fwd\" or \"bwd\"",
                        opName, "");
    }
    AcId first = acGraphBuilderOp(b, opId)->firstResult;
    acImportWrites(c, op, opId, &cost, numDirect, eff);
    for (intptr_t r = 0; r < nres; ++r) {
      if (acMapValue(c, mlirOperationGetResult(op, r), first + (AcId)r) != AC_OK)
        return acNoMem(c, loc);
      if (acIsTorchNonValueTensor(mlirValueGetType(mlirOperationGetResult(op, r))))
        acGraphBuilderSetMutable(b, first + (AcId)r);
      if (acMakesTorchReferenceAggregate(opName) &&
          acRecordAggregate(c, first + (AcId)r) != AC_OK)
        return acNoMem(c, loc);
      acGraphBuilderSetLogicalBytes(b, first + (AcId)r,
                                    acTensorBytes(&c->types[numDirect + r]));
      if (cost.isView && numDirect > 0 && c->types[numDirect + r].isTensor &&
          c->types[0].isTensor)
        acGraphBuilderSetAlias(b, first + (AcId)r, c->operands[0]);
    }
  }
  intptr_t nret = mlirOperationGetNumOperands(ret);
  for (intptr_t i = 0; i < nret; ++i) {
    AcId id = acPtrMapGet(&c->valueIds, mlirOperationGetOperand(ret, i).ptr);
    if (id == AC_NONE)
      return acFailAt(c, floc, AC_ERR_INTERNAL, AC_NONE,
                      "return operand of '@%s' not found%s", name, "");
    uint8_t flags = AC_RET_GRAD;
    if (!mlirAttributeIsNull(resAttrs) && i < mlirArrayAttrGetNumElements(resAttrs)) {
      MlirAttribute d = mlirArrayAttrGetElement(resAttrs, i);
      if (!mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(d, acStr("ac.output"))))
        flags = AC_RET_OUTPUT;
    }
    if (acGraphBuilderAddRet(b, id, flags) != AC_OK)
      return acNoMem(c, floc);
  }
  return AC_OK;
}

/* Parses the module's ac.schedule into builder schedule entries. */
static AcStatus acImportSchedule(AcImportCtx *c, MlirOperation module) {
  MlirAttribute s = mlirOperationGetDiscardableAttributeByName(module, acStr("ac.schedule"));
  MlirLocation loc = mlirOperationGetLocation(module);
  if (mlirAttributeIsNull(s))
    return AC_OK;
  if (!mlirAttributeIsAArray(s))
    return acFailAt(c, loc, AC_ERR_INVALID, AC_NONE,
                    "malformed ac.schedule%s: expected an array of strings like "
                    "[\"A.fwd\", \"A.bwd\"]%s", "", "");
  intptr_t n = mlirArrayAttrGetNumElements(s);
  for (intptr_t i = 0; i < n; ++i) {
    MlirAttribute e = mlirArrayAttrGetElement(s, i);
    if (!mlirAttributeIsAString(e))
      return acFailAt(c, loc, AC_ERR_INVALID, AC_NONE,
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
        return acFailAt(c, loc, AC_ERR_INVALID, AC_NONE,
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
      return acFailAt(c, loc, AC_ERR_INVALID, AC_NONE,
                      "malformed ac.schedule entry \"%s\": expected "
                      "\"<function>.fwd\" or \"<function>.bwd\"%s", text, "");
    *dot = '\0';
    AcId f = AC_NONE;
    for (intptr_t k = 0; k < c->numFuncs && f == AC_NONE; ++k)
      if (strcmp(c->funcNames[k], text) == 0)
        f = (AcId)k;
    if (f == AC_NONE)
      return acFailAt(c, loc, AC_ERR_INVALID, AC_NONE,
                      "ac.schedule names \"%s\", which is not an ac.joint "
                      "function of this module%s", text, "");
    if (acGraphBuilderAddSched(c->b, f, phase, mb) != AC_OK)
      return acNoMem(c, loc);
  }
  return AC_OK;
}

/* Location text of `op`: "file:line:col" when it has one, else as printed. */
static char *acLocationText(MlirOperation op) {
  MlirLocation loc = mlirOperationGetLocation(op);
  AcStrBuf b = {0};
  if (mlirLocationIsAFileLineColRange(loc)) {
    MlirStringRef f = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
    char tail[64];
    snprintf(tail, sizeof tail, ":%d:%d",
             mlirLocationFileLineColRangeGetStartLine(loc),
             mlirLocationFileLineColRangeGetStartColumn(loc));
    acStrBufAppend(&b, f.data, f.length);
    acStrBufAppend(&b, tail, strlen(tail));
  } else {
    mlirLocationPrint(loc, acStrBufMlirCallback, &b);
    acStrBufAppend(&b, "", 0);
  }
  if (b.failed) {
    acStrBufClear(&b);
    return NULL;
  }
  return b.data;
}

static _Thread_local const AcGraph *acSortGraph; /* qsort has no user pointer */

static int acUnknownCmp(const void *a, const void *b) {
  AcId x = *(const AcId *)a, y = *(const AcId *)b;
  int c = strcmp(acSortGraph->ops[x].name, acSortGraph->ops[y].name);
  return c ? c : (x > y) - (x < y);
}

static int acFirstOpCmp(const void *a, const void *b) {
  AcId x = ((const AcUnknownOp *)a)->firstOp, y = ((const AcUnknownOp *)b)->firstOp;
  return (x > y) - (x < y);
}

/* imp->unknownOps: one entry per name of the ops the cost model did not
 * know, with their count and first op, in order of first appearance. */
static AcStatus acCollectUnknownOps(AcImportCtx *c) {
  AcImport *imp = c->imp;
  const AcGraph *g = imp->graph;
  AcStatus st = AC_OK;
  intptr_t n = 0;
  for (intptr_t o = 0; o < g->numOps; ++o)
    n += c->unknown[o] != 0;
  if (n == 0)
    return AC_OK;
  AcId *ids = acMalloc((size_t)n * sizeof *ids);
  imp->unknownOps = acCalloc((size_t)n, sizeof *imp->unknownOps);
  if (!ids || !imp->unknownOps)
    goto nomem;
  n = 0;
  for (intptr_t o = 0; o < g->numOps; ++o)
    if (c->unknown[o])
      ids[n++] = (AcId)o;
  acSortGraph = g;
  qsort(ids, (size_t)n, sizeof *ids, acUnknownCmp);
  for (intptr_t i = 0; i < n; ++i) {
    const AcOp *op = &g->ops[ids[i]];
    AcUnknownOp *last = imp->numUnknownOps ? &imp->unknownOps[imp->numUnknownOps - 1] : NULL;
    if (last && !strcmp(last->name, op->name)) {
      last->count++;
      continue;
    }
    AcUnknownOp *u = &imp->unknownOps[imp->numUnknownOps++];
    u->name = op->name;
    u->count = 1;
    u->firstOp = ids[i];
    u->recomputable = op->recomputable;
  }
  qsort(imp->unknownOps, (size_t)imp->numUnknownOps, sizeof *imp->unknownOps,
        acFirstOpCmp);
  for (intptr_t i = 0; i < imp->numUnknownOps; ++i)
    if (!(imp->unknownOps[i].location =
              acLocationText(imp->ops[imp->unknownOps[i].firstOp])))
      goto nomem;
  goto cleanup;
nomem:
  st = acNoMem(c, mlirOperationGetLocation(imp->module));
cleanup:
  acFree(ids);
  return st;
}

void acImportWarnUnknownOps(const AcImport *imp) {
  for (intptr_t i = 0; i < imp->numUnknownOps; ++i) {
    const AcUnknownOp *u = &imp->unknownOps[i];
    char msg[768];
    snprintf(msg, sizeof msg,
             "autoac: %lld op%s '%s' %s unknown to the cost model%s: "
             "counted as 0 FLOPs%s; give %s costs with --ac-cost-table=FILE "
             "(pass option cost-table=FILE)",
             (long long)u->count, u->count == 1 ? "" : "s", u->name,
             u->count == 1 ? "is" : "are", u->count == 1 ? "" : " (the first here)",
             u->recomputable ? " (registered and free of side effects, so "
                               "still recomputable)"
                             : " and never recomputed",
             u->count == 1 ? "it" : "them");
    acEmitDiagnostic(mlirOperationGetLocation(imp->ops[u->firstOp]), 1, msg);
  }
}

/* Sizes every per-op and per-value array for joint function `func` at once
 * (counting its ops, results and operands first is a small part of the
 * import; growing them by doubling copied each array about twice over). */
static AcStatus acImportReserve(AcImportCtx *c, MlirOperation func) {
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(block))
    return AC_OK; /* acImportFunc says what is wrong */
  intptr_t ops = 0, values = mlirBlockGetNumArguments(block), operands = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    ops++;
    values += mlirOperationGetNumResults(op);
    operands += mlirOperationGetNumOperands(op);
  }
  AcImport *imp = c->imp;
  c->totalOps += ops;
  c->totalValues += values;
  acGraphBuilderReserve(c->b, ops, values, operands);
  if (!acArrayGrow((void **)&imp->ops, &c->capOps, c->totalOps, sizeof *imp->ops) ||
      !acArrayGrow((void **)&imp->values, &c->capValues, c->totalValues,
                   sizeof *imp->values) ||
      !acArrayGrow((void **)&c->unknown, &c->capUnknown, c->totalOps, 1) ||
      acPtrMapReserve(&c->valueIds, values) != AC_OK)
    return acNoMem(c, mlirOperationGetLocation(func));
  return AC_OK;
}

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
    st = acNoMem(&c, mloc);
    goto cleanup;
  }
  c.imp->module = module;
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  intptr_t numJoint = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    numJoint += acOpIs(op, "func.func") &&
                !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
                    op, acStr("ac.joint")));
  if (!(c.syms = acSymbolsCreate(maxDim, numJoint))) {
    st = acNoMem(&c, mloc);
    goto cleanup;
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!acOpIs(op, "func.func"))
      continue;
    if (mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, acStr("ac.joint"))))
      continue;
    MlirAttribute sym = mlirOperationGetAttributeByName(op, acStr("sym_name"));
    MlirStringRef nm = mlirStringAttrGetValue(sym);
    st = acCopyName(&c, nm, &c.funcName, &c.capFuncName,
                    mlirOperationGetLocation(op), "the name of an ac.joint function");
    if (st != AC_OK)
      goto cleanup;
    if ((st = acImportReserve(&c, op)) != AC_OK)
      goto cleanup;
    st = acImportFunc(&c, op, c.funcName);
    if (st != AC_OK)
      goto cleanup;
  }
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
  /* Stable value names, per function (printing them is about as costly as
     the rest of the import: only when asked). */
  if (!names)
    goto named;
  c.imp->valueNames = acCalloc((size_t)g->numValues + 1, sizeof(char *));
  if (!c.imp->valueNames) {
    st = acNoMem(&c, mloc);
    goto cleanup;
  }
  for (intptr_t f = 0; f < g->numFuncs; ++f) {
    MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
    MlirAsmState state = mlirAsmStateCreateForOperation(c.imp->funcOps[f], flags);
    const AcFunc *fn = &g->funcs[f];
    AcId lo = fn->firstArg;
    AcId hi = fn->numOps ? g->ops[fn->firstOp + fn->numOps - 1].firstResult +
                               g->ops[fn->firstOp + fn->numOps - 1].numResults
                         : fn->firstArg + fn->numArgs;
    for (AcId v = lo; v < hi && st == AC_OK; ++v)
      st = acValueName(&c, c.imp->values[v], state, v);
    mlirAsmStateDestroy(state);
    mlirOpPrintingFlagsDestroy(flags);
    if (st != AC_OK) {
      st = acNoMem(&c, mloc);
      goto cleanup;
    }
  }
named:
  if ((st = acCollectUnknownOps(&c)) != AC_OK)
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
  acImportDestroy(c.imp);
  acSymbolsDestroy(c.syms);
  acGraphBuilderDestroy(c.b);
  acPtrMapClear(&c.valueIds);
  acPtrMapClear(&c.typeIds);
  acFree(c.typeCache);
  acFree(c.types);
  acFree(c.unknown);
  acFree(c.operands);
  acFree(c.seenAt);
  acFree(c.agg);
  acFree(c.aggElems);
  for (intptr_t i = 0; i < c.numOpNames; ++i)
    acFree(c.opNames[i].name);
  acFree(c.opNames);
  acPtrMapClear(&c.opNameIds);
  acFree(c.schedText);
  acFree(c.funcName);
  acStrBufClear(&c.name);
  for (intptr_t f = 0; f < c.numFuncs; ++f)
    acFree(c.funcNames[f]);
  acFree(c.funcNames);
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

/* Whether backward op `o` may sink below its place (see
 * acSinkBackwardAliases): a view or constant (free), or a pure op that does
 * not depend on a tangent and whose results take at least the bytes of the
 * storages it reads (AOT autograd's `clone` of a value an in-place
 * activation overwrites, a cast of an activation): moving it later ends its
 * results' lives no later and starts them later, while the inputs it holds
 * longer take no more bytes than the results it no longer holds.
 * Parameters are live throughout, so reading one costs nothing here.
 * `tangentDep[o]`: op o reads a tangent, maybe through other ops. */
static int acSinkable(const AcImport *imp, AcId o, const uint8_t *tangentDep) {
  const AcGraph *g = imp->graph;
  const AcOp *op = &g->ops[o];
  if (op->phase != AC_PHASE_BWD || !op->recomputable || op->phaseForced ||
      mlirOperationGetNumRegions(imp->ops[o]) != 0)
    return 0;
  if (op->kind == AC_KIND_VIEW || op->kind == AC_KIND_CONSTANT)
    return 1;
  if (tangentDep[o] || op->numResults == 0 || op->mutates != AC_NONE ||
      op->mutationPinned || op->dpsInit != AC_NONE)
    return 0;
  int64_t out = 0, in = 0;
  for (int32_t r = 0; r < op->numResults; ++r)
    out += g->values[op->firstResult + r].bytes;
  for (int32_t i = 0; i < op->numOperands; ++i) {
    const AcValue *root = &g->values[g->values[acOpOperand(g, o, i)].aliasRoot];
    int seen = 0;  /* each storage once */
    for (int32_t j = 0; j < i && !seen; ++j)
      seen = g->values[acOpOperand(g, o, j)].aliasRoot ==
             g->values[acOpOperand(g, o, i)].aliasRoot;
    if (!seen && root->role != AC_ROLE_PARAM)
      in += root->bytes;
  }
  return out > 0 && out >= in;
}

/* Backward views and constants (free, pure, region-free), and the pure
 * tangent-independent ops acSinkable admits, are moved right
 * before their first user, so that a forward value the backward reads only
 * through a chain of aliases (AOT autograd emits `detach` pairs at the start
 * of the backward) is not needed earlier than where it is really used: a
 * recompute of it is then placed there, not at the start of the backward.
 * Moving them never raises memory: a view allocates nothing and its base is
 * live until the view's last use anyway.
 *
 * "First user" is where the user ends up: a chain of views sinks together.
 * place[o] is the op o ends up right before: o itself for ops that stay,
 * else the smallest place of its users (users come later, so going down the
 * ids sees them first).  Ops that move are moved in ascending id order, each
 * right before its place: those sharing a place keep their order, which is
 * a valid one (an operand has a smaller id than its user), and everything
 * an op reads is still before it.  Moving by the first user's original
 * position instead can put an op after another of its users.
 * Returns how many ops moved, or -1 when out of memory. */
static intptr_t acSinkBackwardAliases(const AcImport *imp, AcId **placeOut) {
  const AcGraph *g = imp->graph;
  intptr_t moved = 0, n = g->numOps;
  AcId *place = acMalloc((size_t)(n ? n : 1) * sizeof *place);
  if (!place)
    return -1;
  uint8_t *tangentDep = acCalloc((size_t)(n ? n : 1), 1);
  if (!tangentDep) {
    acFree(place);
    return -1;
  }
  for (AcId o = 0; o < (AcId)n; ++o)
    for (int32_t i = 0; i < g->ops[o].numOperands && !tangentDep[o]; ++i) {
      const AcValue *v = &g->values[acOpOperand(g, o, i)];
      tangentDep[o] = v->role == AC_ROLE_TANGENT ||
                      (v->producer != AC_NONE && tangentDep[v->producer]);
    }
  int inOrder = 1;
  for (AcId o = (AcId)n - 1; o >= 0; --o) {
    const AcOp *op = &g->ops[o];
    place[o] = o;
    if (!acSinkable(imp, o, tangentDep))
      continue;
    AcId first = AC_NONE;
    for (int32_t r = 0; r < op->numResults; ++r)
      for (int32_t u = 0; u < g->values[op->firstResult + r].numUses; ++u) {
        AcId p = place[acValueUse(g, op->firstResult + r, u)];
        if (first == AC_NONE || p < first)
          first = p;
      }
    if (first != AC_NONE)
      place[o] = first;
    if (o + 1 < n && place[o] > place[o + 1])
      inOrder = 0;
  }
  acFree(tangentDep);
  /* Nothing moves when the places already ascend with the ids. */
  for (AcId o = 0; o < (AcId)n && !inOrder; ++o) {
    if (place[o] == o)
      continue;
    mlirOperationMoveBefore(imp->ops[o], imp->ops[place[o]]);
    moved++;
  }
  if (moved) {
    *placeOut = place;
    return moved;
  }
  acFree(place);
  return moved;
}

/* The maker of the init `v` that region op `op` (an `scf.if` whose branches
 * write in place into `v`, captured: acDpsResultInit) shares with an op
 * outside it, or a null op: a `tensor.empty`, or a `linalg.fill` of one
 * (acLayoutSharedInitMaker's makers), that an op outside `op` also reads. */
static MlirOperation acSharedCapturedMaker(MlirOperation op, MlirValue v) {
  MlirOperation none = {NULL};
  MlirOperation p = acLayoutSharedInitMaker(none, v);
  if (mlirOperationIsNull(p))
    return none;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (!acOpWithin(mlirOpOperandGetOwner(u), op))
      return p;
  return none;
}

/* Points every use of `from` nested in `op`'s regions at `to`. */
static void acRedirectCaptured(MlirOperation op, MlirValue from, MlirValue to) {
  MlirOpOperand u = mlirValueGetFirstUse(from);
  while (!mlirOpOperandIsNull(u)) {
    MlirOpOperand next = mlirOpOperandGetNextUse(u);
    MlirOperation owner = mlirOpOperandGetOwner(u);
    if (!mlirOperationEqual(owner, op) && acOpWithin(owner, op))
      mlirOperationSetOperand(owner, mlirOpOperandGetOperandNumber(u), to);
    u = next;
  }
}

/* Records `clone`'s result as a copy of `orig`'s (clone value -> the value
 * id of `orig`'s result, `idOf`), for naming. */
static AcStatus acNoteClone(AcPtrMap *cloneOf, const AcPtrMap *idOf,
                            MlirOperation orig, MlirOperation clone) {
  AcId id = acPtrMapGet(idOf, mlirOperationGetResult(orig, 0).ptr);
  if (id == AC_NONE) /* a copy of a copy */
    id = acPtrMapGet(cloneOf, mlirOperationGetResult(orig, 0).ptr);
  return acPtrMapPut(cloneOf, mlirOperationGetResult(clone, 0).ptr, id);
}

/* Shared inits are given one per writer (docs/contract.md, "Shared inits").
 * `mlir-opt --cse` merges identical `tensor.empty` ops, and `linalg.fill`s of
 * them, so that one init is the `outs` of several linalg ops; bufferization
 * then reuses its buffer for a later writer only when the earlier result is
 * dead, which depends on the plan.  Every writer whose init (graph dpsInit)
 * is made by a `tensor.empty`, or a `linalg.fill` of one, that another op
 * also reads gets its own copy of that maker (a fill with its own copy of
 * the empty), placed right before it; an `scf.if` whose branches write into
 * such a maker's result, captured, gets its copy before it and its branches'
 * uses point at the copy (acSharedCapturedMaker); makers left without uses
 * are erased.
 * What runs is then a fresh init per writer, which the in-place rule
 * (simulate.h) counts exactly, in every planner.  `cloneOf` receives each
 * copy's result -> the value id of the result it copies.  Returns the
 * number of copies made, or -1 when out of memory. */
static intptr_t acUnshareInits(const AcImport *imp, AcPtrMap *cloneOf) {
  const AcGraph *g = imp->graph;
  AcPtrMap idOf = {0}, listed = {0};
  MlirOperation *makers = NULL;
  uint8_t *writes = NULL;
  intptr_t numMakers = 0, capMakers = 0, made = 0, numWriters = 0;
  /* Which writers: decided on the input as it is, so that the last writer
     of a shared init gets a copy too (the original stands at the first
     writer, where `cse` left it, and would be counted live from there). */
  if (!(writes = acCalloc((size_t)g->numOps + 1, 1)))
    goto nomem;
  for (AcId o = 0; o < (AcId)g->numOps; ++o) {
    if (g->ops[o].dpsInit == AC_NONE)
      continue;
    MlirOperation op = imp->ops[o];
    intptr_t at = acDpsInitOperand(op);
    if (at < 0)
      writes[o] = !mlirOperationIsNull(
          acSharedCapturedMaker(op, imp->values[g->ops[o].dpsInit]));
    else
      writes[o] = !mlirOperationIsNull(
          acLayoutSharedInitMaker(op, mlirOperationGetOperand(op, at)));
    numWriters += writes[o];
  }
  if (numWriters == 0)
    goto cleanup;
  for (intptr_t v = 0; v < g->numValues; ++v)
    if (acPtrMapPut(&idOf, imp->values[v].ptr, (int32_t)v) != AC_OK)
      goto nomem;
  for (AcId o = 0; o < (AcId)g->numOps; ++o) {
    if (!writes[o])
      continue;
    MlirOperation op = imp->ops[o];
    intptr_t at = acDpsInitOperand(op);
    /* An scf.if's init is captured by its branches (at < 0). */
    MlirValue init = at < 0 ? imp->values[g->ops[o].dpsInit]
                            : mlirOperationGetOperand(op, at);
    MlirOperation maker = mlirOpResultGetOwner(init);
    if (!acArrayGrow((void **)&makers, &capMakers, numMakers + 2, sizeof *makers))
      goto nomem;
    if (acPtrMapGet(&listed, maker.ptr) == AC_NONE) {
      if (acPtrMapPut(&listed, maker.ptr, 1) != AC_OK)
        goto nomem;
      makers[numMakers++] = maker;
    }
    /* Copies go into the block at once: the block owns them whatever
       happens next. */
    MlirBlock block = mlirOperationGetBlock(op);
    MlirOperation copy = mlirOperationClone(maker);
    mlirBlockInsertOwnedOperationBefore(block, op, copy);
    if (at < 0)
      acRedirectCaptured(op, init, mlirOperationGetResult(copy, 0));
    else
      mlirOperationSetOperand(op, at, mlirOperationGetResult(copy, 0));
    if (acOpIs(maker, "linalg.fill")) {
      /* The fill's init: its own copy of the empty. */
      intptr_t k = mlirOperationGetNumOperands(maker) - 1;
      MlirOperation empty = mlirOpResultGetOwner(mlirOperationGetOperand(maker, k));
      MlirOperation emptyCopy = mlirOperationClone(empty);
      mlirBlockInsertOwnedOperationBefore(block, copy, emptyCopy);
      mlirOperationSetOperand(copy, k, mlirOperationGetResult(emptyCopy, 0));
      if (acNoteClone(cloneOf, &idOf, empty, emptyCopy) != AC_OK)
        goto nomem;
      if (acPtrMapGet(&listed, empty.ptr) == AC_NONE) {
        if (acPtrMapPut(&listed, empty.ptr, 1) != AC_OK)
          goto nomem;
        makers[numMakers++] = empty;
      }
      made++;
    }
    if (acNoteClone(cloneOf, &idOf, maker, copy) != AC_OK)
      goto nomem;
    made++;
  }
  /* Erase the makers left unused (each listed once): fills first, as they
     read the empties; a fill's own copy of its empty (made when the fill
     was a writer) goes with it, an original empty in the second pass. */
  for (int pass = 0; pass < 2; ++pass)
    for (intptr_t i = 0; i < numMakers; ++i) {
      MlirOperation m = makers[i];
      if (mlirOperationIsNull(m) ||
          acOpIs(m, "linalg.fill") != (pass == 0) ||
          !mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(m, 0))))
        continue;
      MlirOperation init = {NULL};
      if (pass == 0)
        init = mlirOpResultGetOwner(
            mlirOperationGetOperand(m, mlirOperationGetNumOperands(m) - 1));
      mlirOperationDestroy(m);
      makers[i].ptr = NULL;
      if (!mlirOperationIsNull(init) && acPtrMapGet(&listed, init.ptr) == AC_NONE &&
          mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(init, 0))))
        mlirOperationDestroy(init);
    }
  goto cleanup;
nomem:
  made = -1;
cleanup:
  acFree(writes);
  acFree(makers);
  acPtrMapClear(&idOf);
  acPtrMapClear(&listed);
  return made;
}

/* Puts the first import `imp` in the order acSinkBackwardAliases left the
 * IR in, in place: what acImportOnce gives on the moved IR, without reading
 * the IR again.  The ops keep everything the import read and costed (the IR
 * of an op and its values do not change when it moves); the moves put each
 * op right before its place, those sharing a place in ascending id order,
 * so the new order sorts the ops by (place, id).  The graph is reordered
 * (acGraphReorderOps) and the import's own per-op and per-value arrays
 * (IR handles, names, `unknown`) follow it; the unknown-op list is made
 * again.  Names stay those of the input as written (the printed numbering
 * of the moved IR differs, the values themselves do not). */
static AcStatus acImportApplyOrder(AcImport *imp, const AcId *place,
                                   uint8_t *unknown, AcError *err,
                                   MlirLocation *errLoc) {
  AcGraph *g = imp->graph;
  intptr_t nOps = g->numOps, nValues = g->numValues;
  intptr_t nMax = nOps > nValues ? nOps : nValues;
  AcImportCtx c;
  memset(&c, 0, sizeof c);
  c.err = err;
  c.errLoc = errLoc;
  c.imp = imp;
  c.unknown = unknown;
  AcStatus st = AC_OK;
  AcId *order = acMalloc((size_t)(nOps + 1) * sizeof *order);
  AcId *start = acCalloc((size_t)nOps + 2, sizeof *start);
  AcId *valueOrder = acMalloc((size_t)(nValues + 1) * sizeof *valueOrder);
  uint8_t *done = acCalloc((size_t)nMax + 1, 1);
  if (!order || !start || !valueOrder || !done)
    goto nomem;
  /* Counting sort by place; ascending ids within a place. */
  for (intptr_t o = 0; o < nOps; ++o)
    start[place[o] + 1]++;
  for (intptr_t p = 0; p < nOps; ++p)
    start[p + 1] += start[p];
  for (intptr_t o = 0; o < nOps; ++o)
    order[start[place[o]]++] = (AcId)o;
  if (acGraphReorderOps(g, order, valueOrder) != AC_OK)
    goto nomem;
  acPermuteInPlace(imp->ops, sizeof *imp->ops, order, nOps, done);
  acPermuteInPlace(unknown, 1, order, nOps, done);
  acPermuteInPlace(imp->values, sizeof *imp->values, valueOrder, nValues, done);
  if (imp->valueNames)
    acPermuteInPlace(imp->valueNames, sizeof *imp->valueNames, valueOrder,
                     nValues, done);
  /* The unknown-op list names first ops: made again in the new order. */
  for (intptr_t i = 0; i < imp->numUnknownOps; ++i)
    acFree(imp->unknownOps[i].location);
  acFree(imp->unknownOps);
  imp->unknownOps = NULL;
  imp->numUnknownOps = 0;
  st = acCollectUnknownOps(&c);
  goto cleanup;
nomem:
  st = acNoMem(&c, mlirOperationGetLocation(imp->module));
cleanup:
  acFree(order);
  acFree(start);
  acFree(valueOrder);
  acFree(done);
  return st;
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
    if (acOpIs(op, "func.func") &&
        !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, acStr("ac.joint"))) &&
        acFoldConstantBranches(op) < 0)
      return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                        "out of memory while folding constant branches");
  return AC_OK;
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
  AcPtrMap cloneOf = {0}, byValue = {0};
  intptr_t *copies = NULL;
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
  if (!((*out)->valueNames =
            acCalloc((size_t)(*out)->graph->numValues + 1, sizeof(char *))))
    goto nomem;
  if (!(copies = acCalloc((size_t)first->graph->numValues + 1, sizeof *copies)))
    goto nomem;
  for (intptr_t v = 0; v < first->graph->numValues; ++v)
    if (acPtrMapPut(&byValue, first->values[v].ptr, (int32_t)v) != AC_OK)
      goto nomem;
  /* A copy of a shared init is named after the value it copies: "%3~2" is
     the second copy of %3 ('~' is in no MLIR value name, so no name of
     the input is met twice).  Named first: the moves below take names. */
  for (intptr_t v = 0; v < (*out)->graph->numValues; ++v) {
    AcId of = acPtrMapGet(&byValue, (*out)->values[v].ptr) == AC_NONE
                  ? acPtrMapGet(&cloneOf, (*out)->values[v].ptr)
                  : AC_NONE;
    if (of == AC_NONE)
      continue;
    const char *base = first->valueNames[of];
    size_t len = strlen(base) + 24;
    char *nm = acMalloc(len);
    if (!nm)
      goto nomem;
    snprintf(nm, len, "%s~%lld", base, (long long)++copies[of]);
    (*out)->valueNames[v] = nm;
  }
  for (intptr_t v = 0; v < (*out)->graph->numValues; ++v) {
    if ((*out)->valueNames[v])
      continue;
    AcId old = acPtrMapGet(&byValue, (*out)->values[v].ptr);
    if (old == AC_NONE) {
      /* Moving ops keeps every value: not expected. */
      st = acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, (AcId)v,
                      "import: a value is missing after moving backward views");
      if (errLoc)
        *errLoc = mlirOperationGetLocation(module);
      acImportDestroy(*out);
      *out = NULL;
      goto cleanup;
    }
    (*out)->valueNames[v] = first->valueNames[old];
    first->valueNames[old] = NULL;
  }
  goto cleanup;
nomem:
  acImportDestroy(*out);
  *out = NULL;
  if (errLoc)
    *errLoc = mlirOperationGetLocation(module);
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory during import");
cleanup:
  acPtrMapClear(&byValue);
  acPtrMapClear(&cloneOf);
  acFree(copies);
  acFree(place);
  acFree(unknown);
  acImportDestroy(first);
  return st;
}
