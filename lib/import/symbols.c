/* symbols.c - dynamic dimensions tied into shape symbols (symbols.h).
 *
 * Every top-level value of an analysed function gets nodes: one per
 * dimension of a ranked tensor (a static dimension knows its size), one for
 * a scalar (index, integer, `!torch.int`) that may carry a size.  The ops'
 * shape rules unite nodes (union-find); a class is then a constant, or a
 * symbol with a bound.  The rules only ever unite sizes that are equal at
 * run time, so a class never mixes two different sizes; a rule that does
 * not apply ties nothing, and a dimension tied to nothing needs a bound of
 * its own (the option's `N`). */
#include "import/symbols.h"
#include "import/import.h"
#include "support/ptrmap.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct AcDimNode {
  int32_t parent;
  int32_t rank;      /* rank of the value the node belongs to (scalar: 0) */
  int64_t konst;     /* the class's static size, or -1 */
  int64_t bound;     /* least bound given to a member, or -1 */
  int32_t arg, dim;  /* least argument dimension in the class (arg -1: none) */
  int32_t sym;       /* root: its symbol, or -1 */
  uint8_t dyn;       /* a dynamic dimension of its value's type */
} AcDimNode;

typedef struct AcMaxEntry {
  char *func;        /* NULL: any function */
  int32_t arg, dim;  /* arg -1: the entry for every dimension */
  int64_t n;
  int used;
} AcMaxEntry;

struct AcSymbols {
  AcDimNode *nodes;
  intptr_t numNodes, capNodes;
  AcPtrMap base;     /* MlirValue.ptr -> its first node */
  AcPtrMap done;     /* analysed func ops */
  AcMaxEntry *entries;
  intptr_t numEntries;
  int64_t global;    /* the option's N, or -1 */
  intptr_t numJoint;
  char **names;
  char **args;       /* per symbol: its argument dimensions, "arg0.0,arg3.0" */
  int64_t *bounds;
  intptr_t numSyms, capSyms;
};

static MlirStringRef acS(const char *s) { return mlirStringRefCreateFromCString(s); }

/*===------------------------------ option --------------------------------===*/

/* Parses one entry s[0..n): fills *e (func malloc'ed when `keep`). */
static int acMaxEntryParse(const char *s, size_t n, AcMaxEntry *e, int keep) {
  memset(e, 0, sizeof *e);
  e->arg = -1;
  const char *eq = memchr(s, '=', n);
  const char *num = eq ? eq + 1 : s;
  size_t nn = eq ? n - (size_t)(eq + 1 - s) : n;
  if (nn == 0 || nn > 18)
    return 0;
  int64_t v = 0;
  for (size_t i = 0; i < nn; ++i) {
    if (num[i] < '0' || num[i] > '9')
      return 0;
    v = v * 10 + (num[i] - '0');
  }
  if (v < 1)
    return 0;
  e->n = v;
  if (!eq)
    return 1;
  size_t kn = (size_t)(eq - s);
  const char *colon = NULL;
  for (size_t i = 0; i < kn; ++i)
    if (s[i] == ':')
      colon = s + i;
  const char *key = colon ? colon + 1 : s;
  size_t klen = kn - (size_t)(key - s);
  int a = -1, d = -1;
  char tail;
  char buf[48];
  if (klen >= sizeof buf || (colon && colon == s))
    return 0;
  memcpy(buf, key, klen);
  buf[klen] = '\0';
  if (sscanf(buf, "arg%d.%d%c", &a, &d, &tail) != 2 || a < 0 || d < 0 ||
      buf[3] < '0' || buf[3] > '9')
    return 0;
  e->arg = a;
  e->dim = d;
  if (colon && keep) {
    size_t fl = (size_t)(colon - s);
    if (!(e->func = acMalloc(fl + 1)))
      return -1;
    memcpy(e->func, s, fl);
    e->func[fl] = '\0';
  }
  return 1;
}

AcStatus acMaxDimCheck(const char *spec, AcError *err) {
  const char *p = spec;
  while (p && *p) {
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    AcMaxEntry e;
    if (acMaxEntryParse(p, n, &e, 0) != 1)
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "invalid max-dim '%.*s': expected N (every dynamic "
                        "dimension without a bound) or argI.D=N (argument I, "
                        "dimension D; FUNC:argI.D=N for one function), N an "
                        "integer >= 1, entries separated by ','",
                        (int)(n > 120 ? 120 : n), p);
    p = end ? end + 1 : p + n;
  }
  return AC_OK;
}

AcSymbols *acSymbolsCreate(const char *spec, intptr_t numJoint) {
  AcSymbols *s = acCalloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->global = -1;
  s->numJoint = numJoint;
  const char *p = spec;
  while (p && *p) {
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    AcMaxEntry e;
    int r = acMaxEntryParse(p, n, &e, 1);
    if (r < 0) {
      acSymbolsDestroy(s);
      return NULL;
    }
    if (r == 1 && e.arg < 0) {
      s->global = s->global < 0 || e.n < s->global ? e.n : s->global;
    } else if (r == 1) {
      intptr_t cap = s->numEntries;
      if (!acArrayGrow((void **)&s->entries, &cap, s->numEntries + 1,
                       sizeof *s->entries)) {
        acFree(e.func);
        acSymbolsDestroy(s);
        return NULL;
      }
      s->entries[s->numEntries++] = e;
    }
    p = end ? end + 1 : p + n;
  }
  return s;
}

void acSymbolsDestroy(AcSymbols *s) {
  if (!s)
    return;
  for (intptr_t i = 0; i < s->numEntries; ++i)
    acFree(s->entries[i].func);
  acFree(s->entries);
  for (intptr_t i = 0; i < s->numSyms; ++i) {
    acFree(s->names[i]);
    acFree(s->args[i]);
  }
  acFree(s->names);
  acFree(s->args);
  acFree(s->bounds);
  acFree(s->nodes);
  acPtrMapClear(&s->base);
  acPtrMapClear(&s->done);
  acFree(s);
}

/*===------------------------------ nodes ---------------------------------===*/

static int32_t acFind(AcSymbols *s, int32_t x) {
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

static int32_t acFindConst(const AcSymbols *s, int32_t x) {
  while (s->nodes[x].parent != x)
    x = s->nodes[x].parent;
  return x;
}

/* Unites the classes of a and b (either may be -1: nothing). */
static void acUnite(AcSymbols *s, int32_t a, int32_t b) {
  if (a < 0 || b < 0)
    return;
  a = acFind(s, a);
  b = acFind(s, b);
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
static int acTypeShape(MlirType t, int64_t *dims, int32_t *elemBytes,
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
static AcStatus acAddValue(AcSymbols *s, MlirValue v) {
  int64_t dims[AC_MAX_RANK];
  int32_t eb;
  int scalar;
  int r = acTypeShape(mlirValueGetType(v), dims, &eb, &scalar);
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
static int32_t acNode(const AcSymbols *s, MlirValue v, int64_t k) {
  int32_t b = acPtrMapGet(&s->base, v.ptr);
  if (b < 0)
    return -1;
  int32_t r = s->nodes[b].rank;
  if (k < 0 || k >= (r > 0 ? r : 1))
    return -1;
  return b + (int32_t)k;
}

static int32_t acRank(const AcSymbols *s, MlirValue v) {
  int32_t b = acPtrMapGet(&s->base, v.ptr);
  return b < 0 ? -1 : s->nodes[b].rank;
}

static int acIsScalarNode(const AcSymbols *s, MlirValue v) {
  int32_t b = acPtrMapGet(&s->base, v.ptr);
  return b >= 0 && s->nodes[b].rank == 0;
}

/* 1 with the value in *k when v is made by an integer constant op. */
static int acLiteral(MlirValue v, int64_t *k) {
  if (!mlirValueIsAOpResult(v))
    return 0;
  MlirOperation d = mlirOpResultGetOwner(v);
  if (!acOpIs(d, "arith.constant") && !acOpIs(d, "torch.constant.int"))
    return 0;
  MlirAttribute a = mlirOperationGetAttributeByName(d, acS("value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return 0;
  *k = mlirIntegerAttrGetValueInt(a);
  return 1;
}

/* The constant an integer value holds, or -1 (unknown or negative). */
static int64_t acConstOf(AcSymbols *s, MlirValue v) {
  if (mlirValueIsAOpResult(v)) {
    MlirOperation d = mlirOpResultGetOwner(v);
    MlirAttribute a = mlirOperationGetAttributeByName(d, acS("value"));
    if ((acOpIs(d, "arith.constant") || acOpIs(d, "torch.constant.int")) &&
        !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a))
      return mlirIntegerAttrGetValueInt(a);
  }
  int32_t n = acNode(s, v, 0);
  return n >= 0 && acIsScalarNode(s, v) ? s->nodes[acFind(s, n)].konst : -1;
}

/* Unites v's dims with w's, dimension by dimension (same rank). */
static void acUniteShapes(AcSymbols *s, MlirValue v, MlirValue w) {
  int32_t r = acRank(s, v);
  if (r <= 0 || r != acRank(s, w))
    return;
  for (int32_t i = 0; i < r; ++i)
    acUnite(s, acNode(s, v, i), acNode(s, w, i));
}

/* Broadcast: operand v's dims, right-aligned, with result w's where v's is
 * not a static 1. */
static void acUniteBroadcast(AcSymbols *s, MlirValue v, MlirValue w) {
  int32_t rv = acRank(s, v), rw = acRank(s, w);
  if (rv <= 0 || rw <= 0 || rv > rw)
    return;
  for (int32_t i = 0; i < rv; ++i) {
    int32_t a = acNode(s, v, i);
    if (!s->nodes[a].dyn && s->nodes[a].konst == 1)
      continue;
    acUnite(s, a, acNode(s, w, rw - rv + i));
  }
}

/* The scalar operands from `from` on, in order, with the dynamic dims of
 * result 0 (tensor.empty(%d0, %d1), tensor.splat %v[%d0], ...). */
static void acUniteSizeOperands(AcSymbols *s, MlirOperation op, intptr_t from) {
  if (mlirOperationGetNumResults(op) != 1)
    return;
  MlirValue res = mlirOperationGetResult(op, 0);
  int32_t r = acRank(s, res);
  intptr_t k = from, n = mlirOperationGetNumOperands(op);
  for (int32_t i = 0; i < r; ++i) {
    int32_t x = acNode(s, res, i);
    if (!s->nodes[x].dyn)
      continue;
    while (k < n && !acIsScalarNode(s, mlirOperationGetOperand(op, k)))
      ++k;
    if (k >= n)
      return;
    acUnite(s, x, acNode(s, mlirOperationGetOperand(op, k++), 0));
  }
}

/*===------------------------------ rules ---------------------------------===*/

/* linalg structured ops: one loop dimension is one size (indexing maps), and
 * each result has its init's shape. */
static void acRuleLinalg(AcSymbols *s, MlirOperation op) {
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(op);
  if (mlirAttributeIsNull(maps))
    maps = mlirOperationGetAttributeByName(op, acS("indexing_maps"));
  intptr_t nops = mlirOperationGetNumOperands(op);
  intptr_t nres = mlirOperationGetNumResults(op);
  if (!mlirAttributeIsNull(maps) && mlirAttributeIsAArray(maps) &&
      mlirArrayAttrGetNumElements(maps) == nops) {
    int32_t loop[64];
    for (int i = 0; i < 64; ++i)
      loop[i] = -1;
    for (intptr_t i = 0; i < nops; ++i) {
      MlirAttribute m = mlirArrayAttrGetElement(maps, i);
      MlirValue v = mlirOperationGetOperand(op, i);
      if (!mlirAttributeIsAAffineMap(m) || acRank(s, v) <= 0)
        continue;
      MlirAffineMap map = mlirAffineMapAttrGetValue(m);
      intptr_t nr = mlirAffineMapGetNumResults(map);
      for (intptr_t r = 0; r < nr && r < acRank(s, v); ++r) {
        MlirAffineExpr e = mlirAffineMapGetResult(map, r);
        if (!mlirAffineExprIsADim(e))
          continue;
        intptr_t d = mlirAffineDimExprGetPosition(e);
        if (d < 0 || d >= 64)
          continue;
        if (loop[d] < 0)
          loop[d] = acNode(s, v, r);
        else
          acUnite(s, loop[d], acNode(s, v, r));
      }
    }
  }
  for (intptr_t k = 0; k < nres && k < nops; ++k)
    acUniteShapes(s, mlirOperationGetResult(op, k),
                  mlirOperationGetOperand(op, nops - nres + k));
}

/* tensor.extract_slice: result dims from its sizes (static or operands). */
static void acRuleExtractSlice(AcSymbols *s, MlirOperation op) {
  MlirAttribute so = mlirOperationGetAttributeByName(op, acS("static_offsets"));
  MlirAttribute ss = mlirOperationGetAttributeByName(op, acS("static_sizes"));
  if (mlirAttributeIsNull(so) || mlirAttributeIsNull(ss) ||
      !mlirAttributeIsADenseI64Array(so) || !mlirAttributeIsADenseI64Array(ss))
    return;
  MlirValue res = mlirOperationGetResult(op, 0);
  intptr_t nsz = mlirDenseArrayGetNumElements(ss);
  if (acRank(s, res) != nsz)
    return; /* rank-reducing: not tied */
  intptr_t k = 1;
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(so); ++i)
    if (mlirDenseI64ArrayGetElement(so, i) == INT64_MIN)
      ++k;
  for (intptr_t i = 0; i < nsz; ++i)
    if (mlirDenseI64ArrayGetElement(ss, i) == INT64_MIN &&
        k < mlirOperationGetNumOperands(op))
      acUnite(s, acNode(s, res, i), acNode(s, mlirOperationGetOperand(op, k++), 0));
}

/* tensor.collapse_shape: a group with one dimension that is not a static 1
 * is that dimension. */
static void acRuleCollapse(AcSymbols *s, MlirOperation op) {
  MlirAttribute ra = mlirOperationGetAttributeByName(op, acS("reassociation"));
  if (mlirAttributeIsNull(ra) || !mlirAttributeIsAArray(ra))
    return;
  MlirValue src = mlirOperationGetOperand(op, 0), res = mlirOperationGetResult(op, 0);
  for (intptr_t j = 0; j < mlirArrayAttrGetNumElements(ra); ++j) {
    MlirAttribute g = mlirArrayAttrGetElement(ra, j);
    if (!mlirAttributeIsAArray(g))
      return;
    int32_t only = -1, count = 0;
    for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(g); ++i) {
      MlirAttribute e = mlirArrayAttrGetElement(g, i);
      if (!mlirAttributeIsAInteger(e))
        return;
      int32_t x = acNode(s, src, mlirIntegerAttrGetValueInt(e));
      if (x >= 0 && (s->nodes[x].dyn || s->nodes[x].konst != 1)) {
        only = x;
        ++count;
      }
    }
    if (count == 1)
      acUnite(s, only, acNode(s, res, j));
  }
}

/* Torch ops with a size list (`torch.prim.ListConstruct` of ints) giving
 * the result's shape: each element is the result's dimension (-1 skipped). */
static void acRuleTorchSizeList(AcSymbols *s, MlirOperation op) {
  if (mlirOperationGetNumResults(op) < 1)
    return;
  MlirValue res = mlirOperationGetResult(op, 0);
  int32_t r = acRank(s, res);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue l = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(l))
      continue;
    MlirOperation lo = mlirOpResultGetOwner(l);
    if (!acOpIs(lo, "torch.prim.ListConstruct") ||
        mlirOperationGetNumOperands(lo) != r)
      continue;
    for (int32_t k = 0; k < r; ++k) {
      MlirValue e = mlirOperationGetOperand(lo, k);
      int64_t lit;
      if (!(acLiteral(e, &lit) && lit < 0))
        acUnite(s, acNode(s, res, k), acNode(s, e, 0));
    }
    return;
  }
}

/* torch matmul family: result dims from the operands'. */
static void acRuleTorchMatmul(AcSymbols *s, MlirOperation op, const char *name) {
  if (mlirOperationGetNumOperands(op) < 2 || mlirOperationGetNumResults(op) < 1)
    return;
  MlirValue a = mlirOperationGetOperand(op, 0), b = mlirOperationGetOperand(op, 1);
  MlirValue r = mlirOperationGetResult(op, 0);
  int32_t ra = acRank(s, a), rb = acRank(s, b), rr = acRank(s, r);
  if (!strcmp(name, "torch.aten.linear")) {
    if (ra < 1 || rb != 2 || rr != ra)
      return;
    for (int32_t i = 0; i + 1 < ra; ++i)
      acUnite(s, acNode(s, a, i), acNode(s, r, i));
    acUnite(s, acNode(s, r, rr - 1), acNode(s, b, 0));
    acUnite(s, acNode(s, a, ra - 1), acNode(s, b, 1));
    return;
  }
  if (ra < 2 || rb < 2 || rr < 2)
    return;
  acUnite(s, acNode(s, r, rr - 2), acNode(s, a, ra - 2));
  acUnite(s, acNode(s, r, rr - 1), acNode(s, b, rb - 1));
  acUnite(s, acNode(s, a, ra - 1), acNode(s, b, rb - 2));
  for (int32_t i = 0; i + 2 < ra && i + 2 < rr; ++i) {
    int32_t x = acNode(s, a, ra - 3 - i);
    if (s->nodes[x].dyn || s->nodes[x].konst != 1)
      acUnite(s, x, acNode(s, r, rr - 3 - i));
  }
  for (int32_t i = 0; i + 2 < rb && i + 2 < rr; ++i) {
    int32_t x = acNode(s, b, rb - 3 - i);
    if (s->nodes[x].dyn || s->nodes[x].konst != 1)
      acUnite(s, x, acNode(s, r, rr - 3 - i));
  }
}

/* torch transposes: t, transpose.int (constant dims), permute (constant
 * list). */
static void acRuleTorchTranspose(AcSymbols *s, MlirOperation op, const char *name) {
  MlirValue a = mlirOperationGetOperand(op, 0), r = mlirOperationGetResult(op, 0);
  int32_t ra = acRank(s, a);
  if (ra <= 0 || ra != acRank(s, r))
    return;
  int32_t perm[AC_MAX_RANK];
  for (int32_t i = 0; i < ra; ++i)
    perm[i] = i;
  if (!strcmp(name, "torch.aten.t") && ra == 2) {
    perm[0] = 1;
    perm[1] = 0;
  } else if (!strcmp(name, "torch.aten.transpose.int") &&
             mlirOperationGetNumOperands(op) == 3) {
    int64_t x, y;
    if (!acLiteral(mlirOperationGetOperand(op, 1), &x) ||
        !acLiteral(mlirOperationGetOperand(op, 2), &y))
      return;
    x = x < 0 ? x + ra : x;
    y = y < 0 ? y + ra : y;
    if (x < 0 || y < 0 || x >= ra || y >= ra)
      return;
    perm[x] = (int32_t)y;
    perm[y] = (int32_t)x;
  } else {
    return;
  }
  for (int32_t i = 0; i < ra; ++i)
    acUnite(s, acNode(s, r, i), acNode(s, a, perm[i]));
}

/* The constant ints of a `torch.prim.ListConstruct` (at most AC_MAX_RANK):
 * their count, or -1 when v is not such a list of literals. */
static int acLiteralList(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v))
    return -1;
  MlirOperation lo = mlirOpResultGetOwner(v);
  intptr_t n = mlirOperationGetNumOperands(lo);
  if (!acOpIs(lo, "torch.prim.ListConstruct") || n > AC_MAX_RANK)
    return -1;
  for (intptr_t i = 0; i < n; ++i)
    if (!acLiteral(mlirOperationGetOperand(lo, i), &out[i]))
      return -1;
  return (int)n;
}

/* A literal torch.constant.bool, or -1. */
static int acLiteralBool(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return -1;
  MlirOperation d = mlirOpResultGetOwner(v);
  MlirAttribute a = mlirOperationGetAttributeByName(d, acS("value"));
  if (!acOpIs(d, "torch.constant.bool") || mlirAttributeIsNull(a))
    return -1;
  if (mlirAttributeIsABool(a))
    return mlirBoolAttrGetValue(a);
  if (mlirAttributeIsAInteger(a))
    return mlirIntegerAttrGetValueInt(a) != 0;
  return -1;
}

/* Operand a's dims with result r's, skipping a's dims flagged in `drop`
 * (r's in `skipRes`): the kept dims in order. */
static void acUniteKept(AcSymbols *s, MlirValue a, MlirValue r,
                        const uint8_t *drop, const uint8_t *skipRes) {
  int32_t ra = acRank(s, a), rr = acRank(s, r), j = 0;
  for (int32_t i = 0; i < ra; ++i) {
    if (drop[i])
      continue;
    while (j < rr && skipRes[j])
      ++j;
    if (j >= rr)
      return;
    acUnite(s, acNode(s, a, i), acNode(s, r, j++));
  }
}

/* torch shape rules with literal arguments: reductions over a dim list
 * (keepdim), layer norm's statistics, embedding, unsqueeze, squeeze.dim,
 * select.int, permute, cat.  1 when `name` is one of them. */
static int acRuleTorchLiteral(AcSymbols *s, MlirOperation op, const char *name) {
  intptr_t nops = mlirOperationGetNumOperands(op);
  if (nops < 2 || mlirOperationGetNumResults(op) < 1)
    return 0;
  MlirValue a = mlirOperationGetOperand(op, 0), r = mlirOperationGetResult(op, 0);
  int32_t ra = acRank(s, a), rr = acRank(s, r);
  uint8_t drop[AC_MAX_RANK] = {0}, skip[AC_MAX_RANK] = {0};
  int64_t l[AC_MAX_RANK], k;
  if (!strcmp(name, "torch.aten.sum.dim_IntList") || !strcmp(name, "torch.aten.mean.dim") ||
      !strcmp(name, "torch.aten.amax") || !strcmp(name, "torch.aten.amin")) {
    int n = acLiteralList(mlirOperationGetOperand(op, 1), l);
    int keep = nops > 2 ? acLiteralBool(mlirOperationGetOperand(op, 2)) : -1;
    if (n < 0 || keep < 0 || ra <= 0)
      return 1;
    for (int i = 0; i < n; ++i) {
      int64_t d = l[i] < 0 ? l[i] + ra : l[i];
      if (d < 0 || d >= ra)
        return 1;
      drop[d] = 1;
      if (keep && d < rr)
        skip[d] = 1;
    }
    acUniteKept(s, a, r, drop, skip);
    return 1;
  }
  if (!strcmp(name, "torch.aten.native_layer_norm")) {
    int n = acLiteralList(mlirOperationGetOperand(op, 1), l);
    if (n < 0 || ra <= 0)
      return 1;
    for (intptr_t q = 1; q < mlirOperationGetNumResults(op); ++q)
      for (int32_t i = 0; i + n < ra; ++i)
        acUnite(s, acNode(s, a, i), acNode(s, mlirOperationGetResult(op, q), i));
    acUniteShapes(s, r, a);
    return 1;
  }
  if (!strcmp(name, "torch.aten.embedding")) {
    /* (weight [V, D], indices [...]) -> [..., D] */
    MlirValue idx = mlirOperationGetOperand(op, 1);
    int32_t ri = acRank(s, idx);
    if (ra != 2 || ri < 0 || rr != ri + 1)
      return 1;
    for (int32_t i = 0; i < ri; ++i)
      acUnite(s, acNode(s, idx, i), acNode(s, r, i));
    acUnite(s, acNode(s, a, 1), acNode(s, r, ri));
    return 1;
  }
  if (!strcmp(name, "torch.aten.unsqueeze") || !strcmp(name, "torch.aten.squeeze.dim") ||
      !strcmp(name, "torch.aten.select.int")) {
    if (!acLiteral(mlirOperationGetOperand(op, 1), &k))
      return 1;
    int unsq = name[11] == 'u';
    int32_t big = unsq ? rr : ra;
    k = k < 0 ? k + big : k;
    if (k < 0 || k >= big || (unsq ? ra + 1 != rr : ra != rr + 1))
      return 1;
    (unsq ? skip : drop)[k] = 1;
    acUniteKept(s, a, r, drop, skip);
    return 1;
  }
  if (!strcmp(name, "torch.aten.permute")) {
    int n = acLiteralList(mlirOperationGetOperand(op, 1), l);
    if (n != ra || rr != ra)
      return 1;
    for (int i = 0; i < n; ++i) {
      int64_t d = l[i] < 0 ? l[i] + ra : l[i];
      if (d >= 0 && d < ra)
        acUnite(s, acNode(s, r, i), acNode(s, a, d));
    }
    return 1;
  }
  if (!strcmp(name, "torch.aten.cat")) {
    /* (list of tensors, dim): every dim but `dim` is the result's */
    MlirValue lv = a;
    if (!acLiteral(mlirOperationGetOperand(op, 1), &k) || rr <= 0 ||
        !mlirValueIsAOpResult(lv) ||
        !acOpIs(mlirOpResultGetOwner(lv), "torch.prim.ListConstruct"))
      return 1;
    k = k < 0 ? k + rr : k;
    MlirOperation lo = mlirOpResultGetOwner(lv);
    for (intptr_t e = 0; e < mlirOperationGetNumOperands(lo); ++e) {
      MlirValue t = mlirOperationGetOperand(lo, e);
      if (acRank(s, t) != rr)
        continue;
      for (int32_t i = 0; i < rr; ++i)
        if (i != k)
          acUnite(s, acNode(s, t, i), acNode(s, r, i));
    }
    return 1;
  }
  return 0;
}

/* torch ops whose result 0 has operand 0's shape. */
static int acTorchSameShape(const char *n) {
  static const char *const names[] = {
      "torch.aten._softmax", "torch.aten.softmax.int", "torch.aten._log_softmax",
      "torch.aten.log_softmax.int", "torch.aten._softmax_backward_data",
      "torch.aten._log_softmax_backward_data", "torch.aten.native_layer_norm",
      "torch.aten.layer_norm", "torch.aten.native_layer_norm_backward",
      "torch.aten.dropout", "torch.aten.native_dropout", "torch.aten.clone",
      "torch.aten.contiguous", "torch.aten.detach", "torch.aten.alias",
      "torch.aten.gelu_backward", "torch.aten.threshold_backward",
      "torch.aten.empty_like", "torch.aten.zeros_like", "torch.aten.ones_like",
      "torch.aten.copy", "torch.aten._to_copy", "torch.aten.to.dtype"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (!strcmp(n, names[i]))
      return 1;
  return 0;
}

static int acTorchSizeListOp(const char *n) {
  static const char *const names[] = {
      "torch.aten.view", "torch.aten.reshape", "torch.aten._unsafe_view",
      "torch.aten.empty.memory_format", "torch.aten.zeros", "torch.aten.ones",
      "torch.aten.full", "torch.aten.new_zeros", "torch.aten.new_ones",
      "torch.aten.new_empty", "torch.aten.new_full", "torch.aten.expand",
      "torch.aten.broadcast_to", "torch.aten.rand", "torch.aten.randn",
      "torch.aten.empty_strided"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (!strcmp(n, names[i]))
      return 1;
  return 0;
}

/* Applies the rules of one top-level op (its results already have nodes). */
static void acRuleOp(AcSymbols *s, MlirOperation op) {
  MlirStringRef nr = mlirIdentifierStr(mlirOperationGetName(op));
  char name[128];
  if (nr.length >= sizeof name)
    return;
  memcpy(name, nr.data, nr.length);
  name[nr.length] = '\0';
  intptr_t nops = mlirOperationGetNumOperands(op);
  intptr_t nres = mlirOperationGetNumResults(op);
  if (nres < 1)
    return;
  MlirValue res = mlirOperationGetResult(op, 0);
  if (!strcmp(name, "arith.constant") || !strcmp(name, "torch.constant.int")) {
    int64_t k = acConstOf(s, res);
    int32_t x = acNode(s, res, 0);
    if (x >= 0 && acIsScalarNode(s, res) && k >= 0)
      s->nodes[acFind(s, x)].konst = k;
    return;
  }
  if ((!strcmp(name, "tensor.dim") || !strcmp(name, "torch.aten.size.int")) &&
      nops == 2) {
    MlirValue src = mlirOperationGetOperand(op, 0);
    MlirValue iv = mlirOperationGetOperand(op, 1);
    int64_t k = -1;
    if (!acLiteral(iv, &k))
      return;
    if (k < 0 && acRank(s, src) > 0 && k >= -(int64_t)acRank(s, src) &&
        name[0] == 't' && name[1] == 'o')
      k += acRank(s, src);
    acUnite(s, acNode(s, res, 0), acNode(s, src, k));
    return;
  }
  if (nops == 1 && nres == 1 && acIsScalarNode(s, res) &&
      acIsScalarNode(s, mlirOperationGetOperand(op, 0)) &&
      (!strcmp(name, "arith.index_cast") || !strcmp(name, "arith.index_castui") ||
       !strcmp(name, "arith.extsi") || !strcmp(name, "arith.extui") ||
       !strcmp(name, "arith.trunci") || !strcmp(name, "torch_c.to_i64") ||
       !strcmp(name, "torch_c.from_i64"))) {
    acUnite(s, acNode(s, res, 0), acNode(s, mlirOperationGetOperand(op, 0), 0));
    return;
  }
  if (!strcmp(name, "tensor.empty") || !strcmp(name, "bufferization.alloc_tensor") ||
      !strcmp(name, "tensor.generate")) {
    acUniteSizeOperands(s, op, 0);
    return;
  }
  if (!strcmp(name, "tensor.splat") || !strcmp(name, "tensor.expand_shape")) {
    acUniteSizeOperands(s, op, 1);
    return;
  }
  if (!strcmp(name, "tensor.cast") && nops == 1) {
    acUniteShapes(s, res, mlirOperationGetOperand(op, 0));
    return;
  }
  if ((!strcmp(name, "tensor.insert_slice") || !strcmp(name, "tensor.insert") ||
       !strcmp(name, "tensor.parallel_insert_slice")) && nops >= 2) {
    acUniteShapes(s, res, mlirOperationGetOperand(op, 1));
    return;
  }
  if (!strcmp(name, "scf.for") || !strcmp(name, "scf.forall") ||
      !strcmp(name, "bufferization.materialize_in_destination")) {
    /* a loop's results have its inits' shapes (the trailing operands), a
       materialization its destination's */
    for (intptr_t k = 0; k < nres && k < nops; ++k)
      acUniteShapes(s, mlirOperationGetResult(op, k),
                    mlirOperationGetOperand(op, nops - nres + k));
    return;
  }
  if (!strcmp(name, "tensor.extract_slice")) {
    acRuleExtractSlice(s, op);
    return;
  }
  if (!strcmp(name, "tensor.collapse_shape")) {
    acRuleCollapse(s, op);
    return;
  }
  if (!strncmp(name, "linalg.", 7)) {
    acRuleLinalg(s, op);
    return;
  }
  if (!strncmp(name, "arith.", 6) || !strncmp(name, "math.", 5)) {
    /* elementwise on tensors: every tensor operand and result one shape */
    for (intptr_t i = 0; i < nops; ++i)
      acUniteShapes(s, res, mlirOperationGetOperand(op, i));
    for (intptr_t k = 1; k < nres; ++k)
      acUniteShapes(s, res, mlirOperationGetResult(op, k));
    return;
  }
  if (strncmp(name, "torch.aten.", 11) != 0)
    return;
  if (!strcmp(name, "torch.aten.mm") || !strcmp(name, "torch.aten.bmm") ||
      !strcmp(name, "torch.aten.matmul") || !strcmp(name, "torch.aten.linear")) {
    acRuleTorchMatmul(s, op, name);
    return;
  }
  if (!strcmp(name, "torch.aten.t") || !strcmp(name, "torch.aten.transpose.int")) {
    acRuleTorchTranspose(s, op, name);
    return;
  }
  if (acTorchSizeListOp(name)) {
    acRuleTorchSizeList(s, op);
    return;
  }
  if (acRuleTorchLiteral(s, op, name))
    return;
  if (acTorchSameShape(name) && nops >= 1) {
    acUniteShapes(s, res, mlirOperationGetOperand(op, 0));
    return;
  }
  AcOpNameCost nc;
  acCostResolveName(name, &nc);
  if (nc.hasRule && nc.ruleKind == AC_KIND_ELEMENTWISE)
    for (intptr_t i = 0; i < nops; ++i)
      acUniteBroadcast(s, mlirOperationGetOperand(op, i), res);
}

/*===----------------------------- analysis -------------------------------===*/

/* Bounds of argument `i` (node base b, rank r): ac.max_shape and the named
 * option entries. */
static AcStatus acArgBounds(AcSymbols *s, MlirOperation func, const char *fname,
                            intptr_t i, int32_t b, int32_t r, AcError *err,
                            MlirLocation *errLoc) {
  MlirAttribute argAttrs = mlirOperationGetAttributeByName(func, acS("arg_attrs"));
  MlirAttribute ms = {NULL};
  if (!mlirAttributeIsNull(argAttrs) && i < mlirArrayAttrGetNumElements(argAttrs))
    ms = mlirDictionaryAttrGetElementByName(mlirArrayAttrGetElement(argAttrs, i),
                                            acS("ac.max_shape"));
  if (!mlirAttributeIsNull(ms)) {
    if (!mlirAttributeIsADenseI64Array(ms) || mlirDenseArrayGetNumElements(ms) != r) {
      *errLoc = mlirOperationGetLocation(func);
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "ac.max_shape of argument #%d of '@%s' must be an "
                        "array<i64: ...> with one entry per dimension (%d): "
                        "the dimension's bound, or -1 for none",
                        (int)i, fname, (int)r);
    }
    for (int32_t d = 0; d < r; ++d) {
      int64_t v = mlirDenseI64ArrayGetElement(ms, d);
      if (v == 0 || v < -1) {
        *errLoc = mlirOperationGetLocation(func);
        return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                          "ac.max_shape of argument #%d of '@%s': entry %d is "
                          "%" PRId64 "; a bound is an integer >= 1, or -1 for "
                          "none", (int)i, fname, (int)d, v);
      }
      if (v > 0 && s->nodes[b + d].dyn)
        s->nodes[b + d].bound = v;
    }
  }
  for (intptr_t k = 0; k < s->numEntries; ++k) {
    AcMaxEntry *e = &s->entries[k];
    if (e->arg != i || e->dim >= r || !s->nodes[b + e->dim].dyn ||
        (e->func && strcmp(e->func, fname) != 0))
      continue;
    AcDimNode *x = &s->nodes[b + e->dim];
    x->bound = x->bound < 0 || e->n < x->bound ? e->n : x->bound;
    e->used = 1;
  }
  return AC_OK;
}

/* A new symbol for root `x`, named after its argument dimension or after
 * value `v`'s dimension `d`. */
static AcStatus acNewSymbol(AcSymbols *s, int32_t x, const char *fname,
                            MlirValue v, int32_t d, MlirAsmState *state,
                            MlirOperation func) {
  AcDimNode *n = &s->nodes[x];
  char buf[256];
  const char *q = s->numJoint > 1 ? fname : "";
  const char *sep = s->numJoint > 1 ? ":" : "";
  if (n->arg >= 0) {
    snprintf(buf, sizeof buf, "%s%sarg%d.%d", q, sep, (int)n->arg, (int)n->dim);
  } else {
    if (!state->ptr) {
      MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
      *state = mlirAsmStateCreateForOperation(func, flags);
      mlirOpPrintingFlagsDestroy(flags);
    }
    AcStrBuf t = {0};
    mlirValuePrintAsOperand(v, *state, acStrBufMlirCallback, &t);
    snprintf(buf, sizeof buf, "%s%s%s.%d", q, sep, t.data ? t.data : "?", (int)d);
    acFree(t.data);
  }
  intptr_t cap = s->capSyms, cap2 = s->capSyms;
  if (!acArrayGrow((void **)&s->names, &s->capSyms, s->numSyms + 1, sizeof *s->names) ||
      !acArrayGrow((void **)&s->bounds, &cap, s->numSyms + 1, sizeof *s->bounds) ||
      !acArrayGrow((void **)&s->args, &cap2, s->numSyms + 1, sizeof *s->args))
    return AC_ERR_NOMEM;
  s->args[s->numSyms] = NULL;
  if (!(s->names[s->numSyms] = acStrdup(buf)))
    return AC_ERR_NOMEM;
  s->bounds[s->numSyms] = n->bound;
  n->sym = (int32_t)s->numSyms++;
  return AC_OK;
}

/* The error for value v's dimension d, without a bound. */
static AcStatus acUnbounded(const AcSymbols *s, MlirValue v, int32_t d,
                            const char *fname, AcError *err,
                            MlirLocation *errLoc, MlirOperation func) {
  (void)s;
  const char *q = s->numJoint > 1 ? fname : "";
  const char *sep = s->numJoint > 1 ? ":" : "";
  if (mlirValueIsABlockArgument(v)) {
    int i = (int)mlirBlockArgumentGetArgNumber(v);
    *errLoc = mlirOperationGetLocation(func);
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "dimension %d of argument #%d of '@%s' (%s%sarg%d.%d) is "
                      "dynamic and has no bound: give one with the argument "
                      "attribute ac.max_shape, --ac-max-dim=%s%sarg%d.%d=N, or "
                      "--ac-max-dim=N for every dimension without one",
                      (int)d, i, fname, q, sep, i, (int)d, q, sep, i, (int)d);
  }
  MlirOperation o = mlirOpResultGetOwner(v);
  MlirStringRef on = mlirIdentifierStr(mlirOperationGetName(o));
  *errLoc = mlirOperationGetLocation(o);
  return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                    "dimension %d of result #%d of '%.*s' is dynamic, tied to "
                    "no argument dimension, and has no bound: give "
                    "--ac-max-dim=N (a bound for every dimension without one)",
                    (int)d, (int)mlirOpResultGetResultNumber(v), (int)on.length,
                    on.data);
}

/* Appends argument `arg`'s dimension `d` to symbol `sym`'s list. */
static AcStatus acNoteArgDim(AcSymbols *s, int32_t sym, int arg, int32_t d,
                             const char *fname) {
  char buf[300];
  const char *old = s->args[sym];
  snprintf(buf, sizeof buf, "%s%s%s%sarg%d.%d", old ? old : "", old ? "," : "",
           s->numJoint > 1 ? fname : "", s->numJoint > 1 ? ":" : "", arg, (int)d);
  size_t n = strlen(buf);
  if (n >= sizeof buf - 1)
    return AC_OK; /* a long list is cut: the first dimensions are kept */
  char *t = acStrdup(buf);
  if (!t)
    return AC_ERR_NOMEM;
  acFree(s->args[sym]);
  s->args[sym] = t;
  return AC_OK;
}

/* Symbols for value v's dynamic dims (in order), or the error. */
static AcStatus acFinishValue(AcSymbols *s, MlirValue v, const char *fname,
                              MlirOperation func, MlirAsmState *state,
                              AcError *err, MlirLocation *errLoc) {
  int32_t b = acPtrMapGet(&s->base, v.ptr);
  if (b < 0 || s->nodes[b].rank == 0)
    return AC_OK;
  for (int32_t d = 0; d < s->nodes[b].rank; ++d) {
    if (!s->nodes[b + d].dyn)
      continue;
    int32_t x = acFind(s, b + d);
    AcDimNode *n = &s->nodes[x];
    if (n->konst >= 0)
      continue;
    if (n->sym < 0) {
      if (n->bound < 0)
        n->bound = s->global;
      if (n->bound < 0)
        return acUnbounded(s, v, d, fname, err, errLoc, func);
      AcStatus st = acNewSymbol(s, x, fname, v, d, state, func);
      if (st != AC_OK)
        return st;
    }
    if (mlirValueIsABlockArgument(v) &&
        acNoteArgDim(s, n->sym, (int)mlirBlockArgumentGetArgNumber(v), d,
                     fname) != AC_OK)
      return AC_ERR_NOMEM;
  }
  return AC_OK;
}

AcStatus acSymbolsAnalyzeFunc(AcSymbols *s, MlirOperation func,
                              const char *name, AcError *err,
                              MlirLocation *errLoc) {
  if (acPtrMapGet(&s->done, func.ptr) >= 0)
    return AC_OK;
  if (acPtrMapPut(&s->done, func.ptr, 1) != AC_OK)
    return AC_ERR_NOMEM;
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation ret = mlirBlockGetTerminator(block);
  AcStatus st = AC_OK;
  MlirAsmState state = {NULL};
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(block) && st == AC_OK; ++i) {
    MlirValue a = mlirBlockGetArgument(block, i);
    if ((st = acAddValue(s, a)) != AC_OK)
      break;
    int32_t b = acPtrMapGet(&s->base, a.ptr);
    if (b < 0 || s->nodes[b].rank == 0)
      continue;
    for (int32_t d = 0; d < s->nodes[b].rank; ++d) {
      s->nodes[b + d].arg = (int32_t)i;
      s->nodes[b + d].dim = d;
    }
    st = acArgBounds(s, func, name, i, b, s->nodes[b].rank, err, errLoc);
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       st == AC_OK && !mlirOperationIsNull(op) && !mlirOperationEqual(op, ret);
       op = mlirOperationGetNextInBlock(op)) {
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op) && st == AC_OK; ++r)
      st = acAddValue(s, mlirOperationGetResult(op, r));
    if (st == AC_OK)
      acRuleOp(s, op);
  }
  /* Symbols in program order: arguments, then results. */
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(block) && st == AC_OK; ++i)
    st = acFinishValue(s, mlirBlockGetArgument(block, i), name, func, &state,
                       err, errLoc);
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       st == AC_OK && !mlirOperationIsNull(op) && !mlirOperationEqual(op, ret);
       op = mlirOperationGetNextInBlock(op))
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op) && st == AC_OK; ++r)
      st = acFinishValue(s, mlirOperationGetResult(op, r), name, func, &state,
                         err, errLoc);
  if (state.ptr)
    mlirAsmStateDestroy(state);
  if (st == AC_ERR_NOMEM)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                      "out of memory while tying dynamic dimensions");
  return st;
}

AcStatus acSymbolsResolve(const AcSymbols *s, MlirValue v, AcTensorType *t,
                          AcError *err) {
  int32_t b = s ? acPtrMapGet(&s->base, v.ptr) : -1;
  for (int32_t d = 0; d < t->rank; ++d) {
    if (t->dims[d] != AC_DIM_DYNAMIC)
      continue;
    if (b < 0 || d >= s->nodes[b].rank)
      return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                        "a dynamic dimension was not tied to a symbol");
    const AcDimNode *n = &s->nodes[acFindConst(s, b + d)];
    t->dims[d] = n->konst >= 0 ? n->konst : n->bound;
    if (t->dims[d] < 0)
      return acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                        "a dynamic dimension has no bound");
  }
  return AC_OK;
}

int acSymbolsValueBytes(const AcSymbols *s, MlirValue v, AcPoly *out) {
  acPolyClear(out);
  int32_t b = s ? acPtrMapGet(&s->base, v.ptr) : -1;
  if (b < 0 || s->nodes[b].rank == 0)
    return 0;
  int64_t dims[AC_MAX_RANK];
  int32_t eb;
  int scalar;
  int r = acTypeShape(mlirValueGetType(v), dims, &eb, &scalar);
  AcMono m;
  memset(&m, 0, sizeof m);
  m.coef = eb;
  int any = 0;
  for (int d = 0; d < r; ++d) {
    const AcDimNode *n = &s->nodes[acFindConst(s, b + d)];
    int64_t k = dims[d] != AC_DIM_DYNAMIC ? dims[d] : n->konst;
    if (k >= 0) {
      if (__builtin_mul_overflow(m.coef, k, &m.coef))
        return 0;
      continue;
    }
    if (n->sym < 0 || acMonoMulSym(&m, n->sym) != 0)
      return 0;
    any = 1;
  }
  if (!any)
    return 0;
  return acPolyAddMono(out, &m, 1) == AC_OK ? 1 : -1;
}

intptr_t acSymbolsCount(const AcSymbols *s) { return s ? s->numSyms : 0; }
const char *acSymbolName(const AcSymbols *s, intptr_t i) { return s->names[i]; }
int64_t acSymbolBound(const AcSymbols *s, intptr_t i) { return s->bounds[i]; }
const char *acSymbolArgs(const AcSymbols *s, intptr_t i) {
  return s->args[i] ? s->args[i] : "";
}
const char *const *acSymbolNames(const AcSymbols *s) {
  return (const char *const *)s->names;
}

AcStatus acSymbolsCheckUsed(const AcSymbols *s, AcError *err) {
  for (intptr_t k = 0; s && k < s->numEntries; ++k) {
    const AcMaxEntry *e = &s->entries[k];
    if (!e->used)
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "max-dim names %s%sarg%d.%d, which is no dynamic "
                        "dimension of an argument of a joint function",
                        e->func ? e->func : "", e->func ? ":" : "",
                        (int)e->arg, (int)e->dim);
  }
  return AC_OK;
}
