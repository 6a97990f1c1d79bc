/* symbol_rules.c - the shape rules tying dynamic dimensions (symbols.h).
 *
 * Each rule unites only sizes that are equal when the program runs: a
 * rule that does not apply ties nothing, and a dimension tied to nothing
 * needs a bound of its own.  Builtin ops first (tensor, linalg through its
 * indexing maps, arith/math, scf loops), then torch's. */
#include "import/ir.h"
#include "import/symbols_internal.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"

#include <string.h>

/* Broadcast: operand v's dims, right-aligned, with result w's where v's is
 * not a static 1. */
static void acSymUniteBroadcast(AcSymbols *s, MlirValue v, MlirValue w) {
  int32_t rv = acSymRank(s, v), rw = acSymRank(s, w);
  if (rv <= 0 || rw <= 0 || rv > rw)
    return;
  for (int32_t i = 0; i < rv; ++i) {
    int32_t a = acSymNode(s, v, i);
    if (!s->nodes[a].dyn && s->nodes[a].konst == 1)
      continue;
    acSymUnite(s, a, acSymNode(s, w, rw - rv + i));
  }
}

/* The scalar operands from `from` on, in order, with the dynamic dims of
 * result 0 (tensor.empty(%d0, %d1), tensor.splat %v[%d0], ...). */
static void acSymUniteSizeOperands(AcSymbols *s, MlirOperation op, intptr_t from) {
  if (mlirOperationGetNumResults(op) != 1)
    return;
  MlirValue res = mlirOperationGetResult(op, 0);
  int32_t r = acSymRank(s, res);
  intptr_t k = from, n = mlirOperationGetNumOperands(op);
  for (int32_t i = 0; i < r; ++i) {
    int32_t x = acSymNode(s, res, i);
    if (!s->nodes[x].dyn)
      continue;
    while (k < n && !acSymIsScalar(s, mlirOperationGetOperand(op, k)))
      ++k;
    if (k >= n)
      return;
    acSymUnite(s, x, acSymNode(s, mlirOperationGetOperand(op, k++), 0));
  }
}

/*===------------------------------ rules ---------------------------------===*/

/* linalg structured ops: one loop dimension is one size (indexing maps), and
 * each result has its init's shape. */
static void acRuleLinalg(AcSymbols *s, MlirOperation op) {
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(op);
  if (mlirAttributeIsNull(maps))
    maps = mlirOperationGetAttributeByName(op, acSymStr("indexing_maps"));
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
      if (!mlirAttributeIsAAffineMap(m) || acSymRank(s, v) <= 0)
        continue;
      MlirAffineMap map = mlirAffineMapAttrGetValue(m);
      intptr_t nr = mlirAffineMapGetNumResults(map);
      for (intptr_t r = 0; r < nr && r < acSymRank(s, v); ++r) {
        MlirAffineExpr e = mlirAffineMapGetResult(map, r);
        if (!mlirAffineExprIsADim(e))
          continue;
        intptr_t d = mlirAffineDimExprGetPosition(e);
        if (d < 0 || d >= 64)
          continue;
        if (loop[d] < 0)
          loop[d] = acSymNode(s, v, r);
        else
          acSymUnite(s, loop[d], acSymNode(s, v, r));
      }
    }
  }
  for (intptr_t k = 0; k < nres && k < nops; ++k)
    acSymUniteShapes(s, mlirOperationGetResult(op, k),
                  mlirOperationGetOperand(op, nops - nres + k));
}

/* tensor.extract_slice: result dims from its sizes (static or operands). */
static void acRuleExtractSlice(AcSymbols *s, MlirOperation op) {
  MlirAttribute so = mlirOperationGetAttributeByName(op, acSymStr("static_offsets"));
  MlirAttribute ss = mlirOperationGetAttributeByName(op, acSymStr("static_sizes"));
  if (mlirAttributeIsNull(so) || mlirAttributeIsNull(ss) ||
      !mlirAttributeIsADenseI64Array(so) || !mlirAttributeIsADenseI64Array(ss))
    return;
  MlirValue res = mlirOperationGetResult(op, 0);
  intptr_t nsz = mlirDenseArrayGetNumElements(ss);
  if (acSymRank(s, res) != nsz)
    return; /* rank-reducing: not tied */
  intptr_t k = 1;
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(so); ++i)
    if (mlirDenseI64ArrayGetElement(so, i) == INT64_MIN)
      ++k;
  for (intptr_t i = 0; i < nsz; ++i)
    if (mlirDenseI64ArrayGetElement(ss, i) == INT64_MIN &&
        k < mlirOperationGetNumOperands(op))
      acSymUnite(s, acSymNode(s, res, i), acSymNode(s, mlirOperationGetOperand(op, k++), 0));
}

/* tensor.collapse_shape: a group with one dimension that is not a static 1
 * is that dimension. */
static void acRuleCollapse(AcSymbols *s, MlirOperation op) {
  MlirAttribute ra = mlirOperationGetAttributeByName(op, acSymStr("reassociation"));
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
      int32_t x = acSymNode(s, src, mlirIntegerAttrGetValueInt(e));
      if (x >= 0 && (s->nodes[x].dyn || s->nodes[x].konst != 1)) {
        only = x;
        ++count;
      }
    }
    if (count == 1)
      acSymUnite(s, only, acSymNode(s, res, j));
  }
}

/* Torch ops with a size list (`torch.prim.ListConstruct` of ints) giving
 * the result's shape: each element is the result's dimension (-1 skipped). */
static void acRuleTorchSizeList(AcSymbols *s, MlirOperation op) {
  if (mlirOperationGetNumResults(op) < 1)
    return;
  MlirValue res = mlirOperationGetResult(op, 0);
  int32_t r = acSymRank(s, res);
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
      if (!(acSymLiteral(e, &lit) && lit < 0))
        acSymUnite(s, acSymNode(s, res, k), acSymNode(s, e, 0));
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
  int32_t ra = acSymRank(s, a), rb = acSymRank(s, b), rr = acSymRank(s, r);
  if (!strcmp(name, "torch.aten.linear")) {
    if (ra < 1 || rb != 2 || rr != ra)
      return;
    for (int32_t i = 0; i + 1 < ra; ++i)
      acSymUnite(s, acSymNode(s, a, i), acSymNode(s, r, i));
    acSymUnite(s, acSymNode(s, r, rr - 1), acSymNode(s, b, 0));
    acSymUnite(s, acSymNode(s, a, ra - 1), acSymNode(s, b, 1));
    return;
  }
  if (ra < 2 || rb < 2 || rr < 2)
    return;
  acSymUnite(s, acSymNode(s, r, rr - 2), acSymNode(s, a, ra - 2));
  acSymUnite(s, acSymNode(s, r, rr - 1), acSymNode(s, b, rb - 1));
  acSymUnite(s, acSymNode(s, a, ra - 1), acSymNode(s, b, rb - 2));
  for (int32_t i = 0; i + 2 < ra && i + 2 < rr; ++i) {
    int32_t x = acSymNode(s, a, ra - 3 - i);
    if (s->nodes[x].dyn || s->nodes[x].konst != 1)
      acSymUnite(s, x, acSymNode(s, r, rr - 3 - i));
  }
  for (int32_t i = 0; i + 2 < rb && i + 2 < rr; ++i) {
    int32_t x = acSymNode(s, b, rb - 3 - i);
    if (s->nodes[x].dyn || s->nodes[x].konst != 1)
      acSymUnite(s, x, acSymNode(s, r, rr - 3 - i));
  }
}

/* torch transposes: t, transpose.int (constant dims), permute (constant
 * list). */
static void acRuleTorchTranspose(AcSymbols *s, MlirOperation op, const char *name) {
  MlirValue a = mlirOperationGetOperand(op, 0), r = mlirOperationGetResult(op, 0);
  int32_t ra = acSymRank(s, a);
  if (ra <= 0 || ra != acSymRank(s, r))
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
    if (!acSymLiteral(mlirOperationGetOperand(op, 1), &x) ||
        !acSymLiteral(mlirOperationGetOperand(op, 2), &y))
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
    acSymUnite(s, acSymNode(s, r, i), acSymNode(s, a, perm[i]));
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
    if (!acSymLiteral(mlirOperationGetOperand(lo, i), &out[i]))
      return -1;
  return (int)n;
}

/* A literal torch.constant.bool, or -1. */
static int acLiteralBool(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return -1;
  MlirOperation d = mlirOpResultGetOwner(v);
  MlirAttribute a = mlirOperationGetAttributeByName(d, acSymStr("value"));
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
  int32_t ra = acSymRank(s, a), rr = acSymRank(s, r), j = 0;
  for (int32_t i = 0; i < ra; ++i) {
    if (drop[i])
      continue;
    while (j < rr && skipRes[j])
      ++j;
    if (j >= rr)
      return;
    acSymUnite(s, acSymNode(s, a, i), acSymNode(s, r, j++));
  }
}

/* Reductions over a literal dim list (keepdim literal) and
 * native_layer_norm (its statistics keep the leading dims).  1 when `name` is one of them. */
static int acRuleTorchReduce(AcSymbols *s, MlirOperation op, const char *name) {
  intptr_t nops = mlirOperationGetNumOperands(op);
  MlirValue a = mlirOperationGetOperand(op, 0), r = mlirOperationGetResult(op, 0);
  int32_t ra = acSymRank(s, a), rr = acSymRank(s, r);
  uint8_t drop[AC_MAX_RANK] = {0}, skip[AC_MAX_RANK] = {0};
  int64_t l[AC_MAX_RANK];
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
        acSymUnite(s, acSymNode(s, a, i), acSymNode(s, mlirOperationGetResult(op, q), i));
    acSymUniteShapes(s, r, a);
    return 1;
  }
  return 0;
}

/* unsqueeze, squeeze.dim, select.int (a literal dim) and permute
 * (a literal list).  1 when `name` is one of them. */
static int acRuleTorchDims(AcSymbols *s, MlirOperation op, const char *name) {
  MlirValue a = mlirOperationGetOperand(op, 0), r = mlirOperationGetResult(op, 0);
  int32_t ra = acSymRank(s, a), rr = acSymRank(s, r);
  uint8_t drop[AC_MAX_RANK] = {0}, skip[AC_MAX_RANK] = {0};
  int64_t l[AC_MAX_RANK], k;
  if (!strcmp(name, "torch.aten.unsqueeze") || !strcmp(name, "torch.aten.squeeze.dim") ||
      !strcmp(name, "torch.aten.select.int")) {
    if (!acSymLiteral(mlirOperationGetOperand(op, 1), &k))
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
        acSymUnite(s, acSymNode(s, r, i), acSymNode(s, a, d));
    }
    return 1;
  }
  return 0;
}

/* embedding (the indices' dims, then the table's width) and cat
 * (every dim but the concatenated one).  1 when `name` is one of them. */
static int acRuleTorchCombine(AcSymbols *s, MlirOperation op, const char *name) {
  MlirValue a = mlirOperationGetOperand(op, 0), r = mlirOperationGetResult(op, 0);
  int32_t ra = acSymRank(s, a), rr = acSymRank(s, r);
  int64_t k;
  if (!strcmp(name, "torch.aten.embedding")) {
    /* (weight [V, D], indices [...]) -> [..., D] */
    MlirValue idx = mlirOperationGetOperand(op, 1);
    int32_t ri = acSymRank(s, idx);
    if (ra != 2 || ri < 0 || rr != ri + 1)
      return 1;
    for (int32_t i = 0; i < ri; ++i)
      acSymUnite(s, acSymNode(s, idx, i), acSymNode(s, r, i));
    acSymUnite(s, acSymNode(s, a, 1), acSymNode(s, r, ri));
    return 1;
  }
  if (!strcmp(name, "torch.aten.cat")) {
    /* (list of tensors, dim): every dim but `dim` is the result's */
    MlirValue lv = a;
    if (!acSymLiteral(mlirOperationGetOperand(op, 1), &k) || rr <= 0 ||
        !mlirValueIsAOpResult(lv) ||
        !acOpIs(mlirOpResultGetOwner(lv), "torch.prim.ListConstruct"))
      return 1;
    k = k < 0 ? k + rr : k;
    MlirOperation lo = mlirOpResultGetOwner(lv);
    for (intptr_t e = 0; e < mlirOperationGetNumOperands(lo); ++e) {
      MlirValue t = mlirOperationGetOperand(lo, e);
      if (acSymRank(s, t) != rr)
        continue;
      for (int32_t i = 0; i < rr; ++i)
        if (i != k)
          acSymUnite(s, acSymNode(s, t, i), acSymNode(s, r, i));
    }
    return 1;
  }
  return 0;
}

/* torch shape rules with literal arguments: 1 when `name` is one of them
 * (applied or not). */
static int acRuleTorchLiteral(AcSymbols *s, MlirOperation op, const char *name) {
  if (mlirOperationGetNumOperands(op) < 2 || mlirOperationGetNumResults(op) < 1)
    return 0;
  return acRuleTorchReduce(s, op, name) || acRuleTorchDims(s, op, name) ||
         acRuleTorchCombine(s, op, name);
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

/* Rules on sizes as scalars: constants, tensor.dim / size.int, casts.  1
 * when one applied. */
static int acRuleScalar(AcSymbols *s, MlirOperation op, const char *name) {
  intptr_t nops = mlirOperationGetNumOperands(op);
  MlirValue res = mlirOperationGetResult(op, 0);
  if (!strcmp(name, "arith.constant") || !strcmp(name, "torch.constant.int")) {
    int64_t k = acSymConstOf(s, res);
    int32_t x = acSymNode(s, res, 0);
    if (x >= 0 && acSymIsScalar(s, res) && k >= 0)
      s->nodes[acSymFind(s, x)].konst = k;
    return 1;
  }
  if ((!strcmp(name, "tensor.dim") || !strcmp(name, "torch.aten.size.int")) &&
      nops == 2) {
    MlirValue src = mlirOperationGetOperand(op, 0);
    int64_t k = -1;
    if (!acSymLiteral(mlirOperationGetOperand(op, 1), &k))
      return 1;
    if (k < 0 && name[1] == 'o' && k >= -(int64_t)acSymRank(s, src))
      k += acSymRank(s, src); /* torch counts from the end too */
    acSymUnite(s, acSymNode(s, res, 0), acSymNode(s, src, k));
    return 1;
  }
  if (nops == 1 && mlirOperationGetNumResults(op) == 1 && acSymIsScalar(s, res) &&
      acSymIsScalar(s, mlirOperationGetOperand(op, 0)) &&
      (!strcmp(name, "arith.index_cast") || !strcmp(name, "arith.index_castui") ||
       !strcmp(name, "arith.extsi") || !strcmp(name, "arith.extui") ||
       !strcmp(name, "arith.trunci") || !strcmp(name, "torch_c.to_i64") ||
       !strcmp(name, "torch_c.from_i64"))) {
    acSymUnite(s, acSymNode(s, res, 0), acSymNode(s, mlirOperationGetOperand(op, 0), 0));
    return 1;
  }
  return 0;
}

/* Rules on builtin tensor ops (tensor, scf, bufferization, linalg, arith,
 * math). */
static void acRuleBuiltin(AcSymbols *s, MlirOperation op, const char *name) {
  intptr_t nops = mlirOperationGetNumOperands(op);
  intptr_t nres = mlirOperationGetNumResults(op);
  MlirValue res = mlirOperationGetResult(op, 0);
  if (!strcmp(name, "tensor.empty") || !strcmp(name, "bufferization.alloc_tensor") ||
      !strcmp(name, "tensor.generate"))
    acSymUniteSizeOperands(s, op, 0);
  else if (!strcmp(name, "tensor.splat") || !strcmp(name, "tensor.expand_shape"))
    acSymUniteSizeOperands(s, op, 1);
  else if (!strcmp(name, "tensor.cast") && nops == 1)
    acSymUniteShapes(s, res, mlirOperationGetOperand(op, 0));
  else if ((!strcmp(name, "tensor.insert_slice") || !strcmp(name, "tensor.insert") ||
            !strcmp(name, "tensor.parallel_insert_slice")) && nops >= 2)
    acSymUniteShapes(s, res, mlirOperationGetOperand(op, 1));
  else if (!strcmp(name, "scf.for") || !strcmp(name, "scf.forall") ||
           !strcmp(name, "bufferization.materialize_in_destination"))
    /* a loop's results have its inits' shapes (the trailing operands), a
       materialization its destination's */
    for (intptr_t k = 0; k < nres && k < nops; ++k)
      acSymUniteShapes(s, mlirOperationGetResult(op, k),
                       mlirOperationGetOperand(op, nops - nres + k));
  else if (!strcmp(name, "tensor.extract_slice"))
    acRuleExtractSlice(s, op);
  else if (!strcmp(name, "tensor.collapse_shape"))
    acRuleCollapse(s, op);
  else if (!strncmp(name, "linalg.", 7))
    acRuleLinalg(s, op);
  else if (!strncmp(name, "arith.", 6) || !strncmp(name, "math.", 5)) {
    /* elementwise on tensors: every tensor operand and result one shape */
    for (intptr_t i = 0; i < nops; ++i)
      acSymUniteShapes(s, res, mlirOperationGetOperand(op, i));
    for (intptr_t k = 1; k < nres; ++k)
      acSymUniteShapes(s, res, mlirOperationGetResult(op, k));
  }
}

/* Rules on torch ops (`torch.aten.*`). */
static void acRuleTorch(AcSymbols *s, MlirOperation op, const char *name) {
  intptr_t nops = mlirOperationGetNumOperands(op);
  MlirValue res = mlirOperationGetResult(op, 0);
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
    acSymUniteShapes(s, res, mlirOperationGetOperand(op, 0));
    return;
  }
  AcOpNameCost nc;
  acCostResolveName(name, &nc);
  if (nc.hasRule && nc.ruleKind == AC_KIND_ELEMENTWISE)
    for (intptr_t i = 0; i < nops; ++i)
      acSymUniteBroadcast(s, mlirOperationGetOperand(op, i), res);
}

void acSymRuleOp(AcSymbols *s, MlirOperation op) {
  MlirStringRef nr = mlirIdentifierStr(mlirOperationGetName(op));
  char name[128];
  if (nr.length >= sizeof name || mlirOperationGetNumResults(op) < 1)
    return;
  memcpy(name, nr.data, nr.length);
  name[nr.length] = '\0';
  if (acRuleScalar(s, op, name))
    return;
  if (!strncmp(name, "torch.aten.", 11))
    acRuleTorch(s, op, name);
  else
    acRuleBuiltin(s, op, name);
}

