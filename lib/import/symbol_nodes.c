/* symbol_nodes.c - the dimension nodes of the shape symbols and their
 * union-find (import/symbols_internal.h).  The bottom of the symbols stage:
 * symbol_rules.c unites nodes through these, symbols.c gives values their
 * nodes and makes symbols of the classes; this file calls neither. */
#include "import/ir.h"
#include "import/symbols_internal.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <string.h>

int32_t acSymFind(AcSymbols *s, int32_t x) {
  int32_t r = x;
  while (s->nodes[r].parent != r)
    r = s->nodes[r].parent;
  while (s->nodes[x].parent != r) {
    int32_t next = s->nodes[x].parent;
    s->nodes[x].parent = r;
    x = next;
  }
  return r;
}

int32_t acSymFindConst(const AcSymbols *s, int32_t x) {
  while (s->nodes[x].parent != x)
    x = s->nodes[x].parent;
  return x;
}

/* Unites the classes of a and b (either may be -1: nothing). */
void acSymUnite(AcSymbols *s, int32_t a, int32_t b) {
  if (a < 0 || b < 0)
    return;
  a = acSymFind(s, a);
  b = acSymFind(s, b);
  if (a == b)
    return;
  AcDimNode *x = &s->nodes[a], *y = &s->nodes[b];
  if (x->konst < 0)
    x->konst = y->konst;
  if (y->bound >= 0 && (x->bound < 0 || y->bound < x->bound))
    x->bound = y->bound;
  if (y->arg >= 0 &&
      (x->arg < 0 || y->arg < x->arg || (y->arg == x->arg && y->dim < x->dim))) {
    x->arg = y->arg;
    x->dim = y->dim;
  }
  y->parent = a;
}

/* The shape of a type: its rank (dims into `dims`, AC_DIM_DYNAMIC for a
 * dynamic one), 0 with *scalar set for a scalar that may carry a size,
 * -1 for anything else.  *elemBytes: bytes per element. */
int acSymTypeShape(MlirType t, int64_t *dims, int32_t *elemBytes,
                   int *scalar) {
  *scalar = 0;
  *elemBytes = 0;
  if (mlirTypeIsAIndex(t) || mlirTypeIsAInteger(t)) {
    *scalar = 1;
    return 0;
  }
  if (mlirTypeIsARankedTensor(t)) {
    intptr_t r = mlirShapedTypeGetRank(t);
    if (r > AC_MAX_RANK)
      return -1;
    for (intptr_t i = 0; i < r; ++i)
      dims[i] = mlirShapedTypeIsDynamicDim(t, i) ? AC_DIM_DYNAMIC
                                                 : mlirShapedTypeGetDimSize(t, i);
    MlirType e = mlirShapedTypeGetElementType(t);
    int32_t bits = 0;
    if (mlirTypeIsAComplex(e) && mlirTypeIsAFloat(mlirComplexTypeGetElementType(e)))
      bits = 2 * (int32_t)mlirFloatTypeGetWidth(mlirComplexTypeGetElementType(e));
    else if (mlirTypeIsAFloat(e))
      bits = (int32_t)mlirFloatTypeGetWidth(e);
    else if (mlirTypeIsAInteger(e))
      bits = (int32_t)mlirIntegerTypeGetWidth(e);
    else if (mlirTypeIsAIndex(e))
      bits = 64;
    *elemBytes = bits <= 8 ? 1 : (bits + 7) / 8;
    return (int)r;
  }
  if (!mlirTypeIsAOpaque(t) ||
      !acStrRefEq(mlirOpaqueTypeGetDialectNamespace(t), "torch"))
    return -1;
  MlirStringRef d = mlirOpaqueTypeGetData(t);
  if (acStrRefEq(d, "int")) {
    *scalar = 1;
    return 0;
  }
  if (d.length < 7 || d.length > 4000 || memcmp(d.data, "vtensor", 7) != 0)
    return -1;
  char buf[4100];
  memcpy(buf, "!torch.", 7);
  memcpy(buf + 7, d.data, d.length);
  AcTensorType tt;
  AcError err;
  if (acTypeParseTorchDynamic(buf, d.length + 7, &tt, &err) != AC_OK ||
      !tt.isTensor)
    return -1;
  memcpy(dims, tt.dims, (size_t)tt.rank * sizeof *dims);
  *elemBytes = tt.elemBits / 8 > 0 ? tt.elemBits / 8 : 1;
  return tt.rank;
}

/* Gives value v its nodes (none for other types). */
AcStatus acSymAddValue(AcSymbols *s, MlirValue v) {
  int64_t dims[AC_MAX_RANK];
  int32_t eb;
  int scalar;
  int r = acSymTypeShape(mlirValueGetType(v), dims, &eb, &scalar);
  if (r < 0 || (r == 0 && !scalar))
    return AC_OK;
  int n = r > 0 ? r : 1;
  if (!acArrayGrow((void **)&s->nodes, &s->capNodes, s->numNodes + n,
                   sizeof *s->nodes) ||
      acPtrMapPut(&s->base, v.ptr, (int32_t)s->numNodes) != AC_OK)
    return AC_ERR_NOMEM;
  for (int i = 0; i < n; ++i) {
    AcDimNode *x = &s->nodes[s->numNodes + i];
    x->parent = (int32_t)(s->numNodes + i);
    x->rank = r;
    x->konst = r > 0 && dims[i] != AC_DIM_DYNAMIC ? dims[i] : -1;
    x->bound = -1;
    x->arg = -1;
    x->dim = 0;
    x->sym = -1;
    x->dyn = r > 0 && dims[i] == AC_DIM_DYNAMIC;
  }
  s->numNodes += n;
  return AC_OK;
}

/* Node of dimension k of v (a scalar: k 0), or -1. */
int32_t acSymNode(const AcSymbols *s, MlirValue v, int64_t k) {
  int32_t b = acPtrMapGet(&s->base, v.ptr);
  if (b < 0)
    return -1;
  int32_t r = s->nodes[b].rank;
  if (k < 0 || k >= (r > 0 ? r : 1))
    return -1;
  return b + (int32_t)k;
}

int32_t acSymRank(const AcSymbols *s, MlirValue v) {
  int32_t b = acPtrMapGet(&s->base, v.ptr);
  return b < 0 ? -1 : s->nodes[b].rank;
}

int acSymIsScalar(const AcSymbols *s, MlirValue v) {
  int32_t b = acPtrMapGet(&s->base, v.ptr);
  return b >= 0 && s->nodes[b].rank == 0;
}

/* 1 with the value in *k when v is made by an integer constant op. */
int acSymLiteral(MlirValue v, int64_t *k) {
  if (!mlirValueIsAOpResult(v))
    return 0;
  MlirOperation d = mlirOpResultGetOwner(v);
  if (!acOpIs(d, "arith.constant") && !acOpIs(d, "torch.constant.int"))
    return 0;
  MlirAttribute a = mlirOperationGetAttributeByName(d, acSymStr("value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return 0;
  *k = mlirIntegerAttrGetValueInt(a);
  return 1;
}

/* The constant an integer value holds, or -1 (unknown or negative). */
int64_t acSymConstOf(AcSymbols *s, MlirValue v) {
  if (mlirValueIsAOpResult(v)) {
    MlirOperation d = mlirOpResultGetOwner(v);
    MlirAttribute a = mlirOperationGetAttributeByName(d, acSymStr("value"));
    if ((acOpIs(d, "arith.constant") || acOpIs(d, "torch.constant.int")) &&
        !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a))
      return mlirIntegerAttrGetValueInt(a);
  }
  int32_t n = acSymNode(s, v, 0);
  return n >= 0 && acSymIsScalar(s, v) ? s->nodes[acSymFind(s, n)].konst : -1;
}

/* Unites v's dims with w's, dimension by dimension (same rank). */
void acSymUniteShapes(AcSymbols *s, MlirValue v, MlirValue w) {
  int32_t r = acSymRank(s, v);
  if (r <= 0 || r != acSymRank(s, w))
    return;
  for (int32_t i = 0; i < r; ++i)
    acSymUnite(s, acSymNode(s, v, i), acSymNode(s, w, i));
}
