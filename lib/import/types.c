/* types.c - MLIR types read as the graph sizes them (import/types.h):
 * builtin ranked tensors, tuples, `!torch.vtensor` and the torch
 * aggregates; once per distinct type through the context's cache. */
#include "import/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>
#include <string.h>

/* `!torch.tensor<...>` (and bare `!torch.tensor`): a tensor with reference
 * semantics, which any op may write; `!torch.vtensor` is a value. */
int acIsTorchNonValueTensor(MlirType t) {
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
int acIsTorchTensorAggregate(MlirType t) {
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
int acMakesTorchReferenceAggregate(const char *name) {
  return strcmp(name, "torch.prim.ListConstruct") == 0 ||
         strcmp(name, "torch.prim.TupleConstruct") == 0 ||
         strcmp(name, "torch.derefine") == 0;
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
AcStatus acUnsizable(AcImportCtx *c, MlirType t, MlirLocation loc,
                     AcId op, const char *what) {
  AcStrBuf text = {0};
  mlirTypePrint(t, acStrBufMlirCallback, &text);
  char typeText[200];
  snprintf(typeText, sizeof typeText, "%s",
           text.data && !text.failed ? text.data : "?");
  acFree(text.data);
  return acImportFail(c, loc, AC_ERR_INVALID, op,
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
void acReadConstIntList(MlirValue v, AcTensorType *t) {
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
        return acImportFail(c, loc, AC_ERR_INVALID, op,
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
    return acImportFail(c, loc, AC_ERR_INVALID, op,
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
      return acImportNoMem(c, loc);
    memcpy(text, "!torch.", 7);
    memcpy(text + 7, data.data, data.length);
    AcError terr;
    acErrorClear(&terr);
    AcStatus pst = acTypeParseTorchDynamic(text, data.length + 7, out, &terr);
    if (text != stack)
      acFree(text);
    if (pst != AC_OK)
      return acImportFail(c, loc, AC_ERR_INVALID, op, "%s: %s", WHAT, terr.message);
    return AC_OK;
  }
  if (mlirTypeIsAUnrankedTensor(t))
    return acImportFail(c, loc, AC_ERR_INVALID, op,
                        "%s has an unranked tensor type%s: autoac needs static "
                        "shapes to size activations", WHAT, "");
  if (!mlirTypeIsARankedTensor(t))
    return acIsPlainType(t) || !acTypeHoldsTensors(t)
               ? AC_OK
               : acUnsizable(c, t, loc, op, WHAT);
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (rank > AC_MAX_RANK)
    return acImportFail(c, loc, AC_ERR_INVALID, op, "%s has rank above %s", WHAT, "16");
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
    return acImportFail(c, loc, AC_ERR_INVALID, op,
                        "%s has an element type autoac cannot size%s", WHAT, "");
  out->elemBits = bits < 8 ? 8 : bits;
  return AC_OK;
}
#undef WHAT

/* acReadTypeUncached through the context's cache: a type is read (its
 * torch text parsed) once per import.  A type that cannot be cached (out
 * of memory for the cache) is read again next time. */
AcStatus acReadType(AcImportCtx *c, MlirType t, AcTensorType *out,
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
AcStatus acResolveDims(AcImportCtx *c, MlirValue v, AcTensorType *t) {
  int dyn = 0;
  for (int32_t d = 0; d < t->rank && t->isTensor; ++d)
    dyn |= t->dims[d] == AC_DIM_DYNAMIC;
  if (!dyn)
    return AC_OK;
  if (!c->syms)
    return acImportFail(c, mlirOperationGetLocation(c->curFunc), AC_ERR_NOMEM,
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

/* For the values nested in a region op (opcost.c): a type read that fails
 * is no error there (the value is then not sized, and what the read wrote
 * into the context's error is put back). */
int acReadTypeQuietly(AcImportCtx *c, MlirValue v, AcTensorType *t) {
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
