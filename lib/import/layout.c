/* layout.c - buffer layouts of tensor views, as one-shot bufferization makes
 * them (import/layout.h).  The rules are upstream's (MLIR 22): a subview's
 * strided layout (memref::SubViewOp::inferResultType), the expanded and
 * collapsed layouts (computeExpandedLayoutMap, computeCollapsedLayoutMap
 * with `strict`, as CollapseShapeOp::isGuaranteedCollapsible asks, which
 * tensor.collapse_shape's bufferization uses to choose a view or a copy),
 * tensor.reshape's identity requirement, and the cast a function result
 * needs (memref::CastOp::areCastCompatible with static strides). */
#include "import/layout.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <string.h>

#define AC_LAYOUT_MAX_CHAIN 64

static int nameIs(MlirOperation op, const char *name) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  size_t n = strlen(name);
  return s.length == n && memcmp(s.data, name, n) == 0;
}

/* a * b into *out; 0 on overflow or a negative (dynamic) factor. */
static int mulOk(int64_t a, int64_t b, int64_t *out) {
  if (a < 0 || b < 0)
    return 0;
  return !__builtin_mul_overflow(a, b, out);
}

static void unknown(AcLayout *out) {
  memset(out, 0, sizeof *out);
}

/* The identity layout of `t` (row-major strides, offset 0). */
static void identityOf(MlirType t, AcLayout *out) {
  unknown(out);
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t))
    return;
  int64_t rank = mlirShapedTypeGetRank(t);
  if (rank > AC_LAYOUT_MAX_RANK)
    return;
  int64_t stride = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    out->shape[i] = mlirShapedTypeGetDimSize(t, i);
    out->strides[i] = stride;
    if (!mulOk(stride, out->shape[i], &stride))
      return;
  }
  out->rank = (int)rank;
  out->identity = 1;
  out->known = 1;
}

/* The fully dynamic layout of `t` (strided<[?, ...], offset: ?>). */
static void dynamicOf(MlirType t, AcLayout *out) {
  identityOf(t, out);
  if (!out->known)
    return;
  out->identity = 0;
  out->dynamic = 1;
}

/* Whether `v`, yielded in `region`, is a buffer made inside the region:
   defined there, and its destination-style init chain (the last operand)
   ends at an op of the region without tensor operands (a tensor.empty). */
static int madeInside(MlirValue v, MlirOperation parent) {
  for (int depth = 0; depth < AC_LAYOUT_MAX_CHAIN; ++depth) {
    if (!mlirValueIsAOpResult(v))
      return 0;  /* a block argument: the function's or a loop's */
    MlirOperation op = mlirOpResultGetOwner(v);
    MlirOperation up = mlirOperationGetParentOperation(op);
    if (mlirOperationIsNull(up) || !mlirOperationEqual(up, parent))
      return 0;  /* from outside the branch: its type is known */
    intptr_t n = mlirOperationGetNumOperands(op);
    MlirValue last = {0};
    for (intptr_t i = n - 1; i >= 0 && !last.ptr; --i)
      if (mlirTypeIsATensor(mlirValueGetType(mlirOperationGetOperand(op, i))))
        last = mlirOperationGetOperand(op, i);
    if (!last.ptr)
      return 1;
    v = last;
  }
  return 0;
}

static int isLinalg(MlirOperation op) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  return s.length > 7 && memcmp(s.data, "linalg.", 7) == 0;
}

/* The tensor.empty that starts the in-place chain yielding `y` in `block`:
   `y` made by a destination-style writer of the block (one init: a linalg
   op's `outs`, an insert's dest), into an init made likewise, ..., into a
   static tensor.empty of the block, every init read by its writer alone.
   A null op otherwise. */
static MlirOperation chainEmpty(MlirBlock block, MlirValue y) {
  MlirOperation none = {NULL};
  for (int depth = 0; depth < AC_LAYOUT_MAX_CHAIN; ++depth) {
    if (!mlirValueIsAOpResult(y))
      return none;
    MlirOperation p = mlirOpResultGetOwner(y);
    if (!mlirBlockEqual(mlirOperationGetBlock(p), block))
      return none;
    if (nameIs(p, "tensor.empty"))
      return mlirOperationGetNumOperands(p) == 0 ? p : none;
    intptr_t n = mlirOperationGetNumOperands(p), at;
    if (mlirOperationGetNumResults(p) != 1 || n < 1)
      return none;
    if (nameIs(p, "tensor.insert_slice") || nameIs(p, "tensor.insert"))
      at = 1;
    else if (isLinalg(p))
      at = n - 1;
    else
      return none;
    y = mlirOperationGetOperand(p, at);
    if (!mlirTypeEqual(mlirValueGetType(y), mlirValueGetType(mlirOperationGetResult(p, 0))))
      return none;
    MlirOpOperand u = mlirValueGetFirstUse(y);
    if (mlirOpOperandIsNull(u) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)))
      return none;
  }
  return none;
}

int acLayoutBranchEmpties(MlirOperation op, intptr_t k, MlirOperation *empties,
                          intptr_t cap) {
  if (!nameIs(op, "scf.if") && !nameIs(op, "scf.index_switch"))
    return 0;
  intptr_t nr = mlirOperationGetNumRegions(op);
  if (k >= mlirOperationGetNumResults(op) || nr < 2 || (empties && nr > cap))
    return 0;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, k));
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t))
    return 0;
  for (intptr_t r = 0; r < nr; ++r) {
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
    if (mlirBlockIsNull(b) || !mlirBlockIsNull(mlirBlockGetNextInRegion(b)))
      return 0;
    MlirOperation y = mlirBlockGetTerminator(b);
    if (mlirOperationIsNull(y) || k >= mlirOperationGetNumOperands(y))
      return 0;
    MlirOperation e = chainEmpty(b, mlirOperationGetOperand(y, k));
    if (mlirOperationIsNull(e) ||
        !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(e, 0)), t))
      return 0;
    if (empties)
      empties[r] = e;
  }
  return 1;
}

/* Whether result `v` of an scf.if / scf.index_switch bufferizes to a fully
   dynamic layout: what one-shot bufferization gives (measured on MLIR 22)
   when every branch yields a buffer made inside it (their types are not
   known when the result's is chosen); a branch yielding a value from
   outside gives the identity, and so do branches whose yields
   auto-ac-copy-before-write makes one buffer made outside
   (acLayoutBranchEmpties). */
static int dynamicResult(MlirValue v) {
  MlirOperation op = mlirOpResultGetOwner(v);
  if (!nameIs(op, "scf.if") && !nameIs(op, "scf.index_switch"))
    return 0;
  intptr_t k = mlirOpResultGetResultNumber(v);
  if (acLayoutBranchEmpties(op, k, NULL, 0))
    return 0;  /* auto-ac-copy-before-write gives them one buffer */
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
    if (mlirBlockIsNull(b))
      continue;
    MlirOperation y = mlirBlockGetTerminator(b);
    if (mlirOperationIsNull(y) || k >= mlirOperationGetNumOperands(y) ||
        !madeInside(mlirOperationGetOperand(y, k), op))
      return 0;
  }
  return 1;
}

int acLayoutIsView(MlirOperation op) {
  return nameIs(op, "tensor.extract_slice") || nameIs(op, "tensor.expand_shape") ||
         nameIs(op, "tensor.collapse_shape") || nameIs(op, "tensor.cast") ||
         nameIs(op, "tensor.bitcast") || nameIs(op, "tensor.reshape") ||
         nameIs(op, "tosa.reshape");
}

/* Static entry i of dense i64 array attribute `name`; 0 when missing. */
static int arrayAt(MlirOperation op, const char *name, intptr_t i, int64_t *v) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) ||
      i >= mlirDenseArrayGetNumElements(a))
    return 0;
  *v = mlirDenseI64ArrayGetElement(a, i);
  return *v >= 0;  /* ShapedType::kDynamic is INT64_MIN */
}

static AcLayoutKind extractSlice(MlirOperation op, const AcLayout *src,
                                 MlirType rt, AcLayout *out) {
  AcLayout full;
  unknown(out);
  if (mlirOperationGetNumOperands(op) != 1)  /* dynamic offsets or sizes */
    return AC_LAYOUT_VIEW;
  full = *src;
  for (int i = 0; i < src->rank; ++i) {
    int64_t off, size, step, d;
    if (!arrayAt(op, "static_offsets", i, &off) ||
        !arrayAt(op, "static_sizes", i, &size) ||
        !arrayAt(op, "static_strides", i, &step) ||
        !mulOk(off, src->strides[i], &d) ||
        __builtin_add_overflow(full.offset, d, &full.offset) ||
        !mulOk(src->strides[i], step, &full.strides[i]))
      return AC_LAYOUT_VIEW;
    full.shape[i] = size;
  }
  /* Rank reduction drops unit dimensions, matched greedily against the
     result's shape (computeRankReductionMask). */
  int64_t rank = mlirShapedTypeGetRank(rt), k = 0;
  for (int i = 0; i < full.rank; ++i) {
    if (k < rank && mlirShapedTypeGetDimSize(rt, k) == full.shape[i]) {
      out->shape[k] = full.shape[i];
      out->strides[k++] = full.strides[i];
    } else if (full.shape[i] != 1) {
      unknown(out);
      return AC_LAYOUT_VIEW;
    }
  }
  if (k != rank)
    return AC_LAYOUT_VIEW;
  out->rank = (int)rank;
  out->offset = full.offset;
  out->identity = 0;  /* a subview's type is always strided<...> */
  out->known = 1;
  return AC_LAYOUT_VIEW;
}

/* Group g of the `reassociation` attribute: its dims in dims[], count. */
static int groupOf(MlirOperation op, intptr_t g, int64_t *dims, int max) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("reassociation"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAArray(a) ||
      g >= mlirArrayAttrGetNumElements(a))
    return -1;
  MlirAttribute grp = mlirArrayAttrGetElement(a, g);
  if (!mlirAttributeIsAArray(grp) || mlirArrayAttrGetNumElements(grp) > max ||
      mlirArrayAttrGetNumElements(grp) < 1)
    return -1;
  int n = (int)mlirArrayAttrGetNumElements(grp);
  for (int i = 0; i < n; ++i) {
    MlirAttribute e = mlirArrayAttrGetElement(grp, i);
    if (!mlirAttributeIsAInteger(e))
      return -1;
    dims[i] = mlirIntegerAttrGetValueInt(e);
    if (dims[i] < 0 || dims[i] >= AC_LAYOUT_MAX_RANK)
      return -1;
  }
  return n;
}

/* computeCollapsedLayoutMap(strict = true): 0 when a group is not
   contiguous (or the attribute is malformed). */
static int collapsed(MlirOperation op, const AcLayout *src, int rank, AcLayout *out) {
  int64_t dims[AC_LAYOUT_MAX_RANK];
  for (int g = 0; g < rank; ++g) {
    int n = groupOf(op, g, dims, AC_LAYOUT_MAX_RANK);
    if (n < 0 || dims[n - 1] >= src->rank)
      return 0;
    int last = n - 1;
    while (last > 0 && src->shape[dims[last]] == 1)
      --last;
    int64_t stride = src->strides[dims[last]];
    out->strides[g] = stride;
    for (int i = n - 1; i >= 1; --i) {
      if (!mulOk(stride, src->shape[dims[i]], &stride))
        return 0;
      if (src->shape[dims[i - 1]] == 1)
        continue;
      if (stride != src->strides[dims[i - 1]])
        return 0;
    }
  }
  return 1;
}

/* computeExpandedLayoutMap: each source dim's stride spread over its group,
   innermost first. */
static int expanded(MlirOperation op, const AcLayout *src, int srcRank, AcLayout *out) {
  int64_t dims[AC_LAYOUT_MAX_RANK];
  for (int g = 0; g < srcRank; ++g) {
    int n = groupOf(op, g, dims, AC_LAYOUT_MAX_RANK);
    if (n < 0 || g >= src->rank)
      return 0;
    int64_t stride = src->strides[g];
    for (int i = n - 1; i >= 0; --i) {
      if (dims[i] >= out->rank)
        return 0;
      out->strides[dims[i]] = stride;
      if (!mulOk(stride, out->shape[dims[i]], &stride))
        return 0;
    }
  }
  return 1;
}

/* tosa-to-tensor lowers a tosa.reshape between two different static shapes
   to a collapse_shape of the source into the coarsest shape both refine
   (runs of consecutive dims with equal products), then an expand_shape into
   the result.  The layout: a view when every run collapses (the strict rule
   of `collapsed`, unit dims skipped), its strides spread over the result's
   run; else a copy.  `out` holds the result's shape (identityOf). */
static AcLayoutKind tosaReshape(const AcLayout *src, AcLayout *out) {
  int i = 0, j = 0;
  while (i < src->rank && j < out->rank) {
    int si = i, sj = j;
    int64_t pa = src->shape[i], pb = out->shape[j];
    while (pa != pb) {
      if (pa == 0 || pb == 0)
        return AC_LAYOUT_COPY;
      if (pa < pb) {
        if (++i >= src->rank || !mulOk(pa, src->shape[i], &pa))
          return AC_LAYOUT_COPY;
      } else if (++j >= out->rank || !mulOk(pb, out->shape[j], &pb)) {
        return AC_LAYOUT_COPY;
      }
    }
    /* Trailing unit dims join the run (they constrain nothing). */
    while (i + 1 < src->rank && src->shape[i + 1] == 1 &&
           (j + 1 >= out->rank || out->shape[j + 1] != 1))
      ++i;
    while (j + 1 < out->rank && out->shape[j + 1] == 1 &&
           (i + 1 >= src->rank || src->shape[i + 1] != 1))
      ++j;
    /* Run src[si..i] -> dst[sj..j]: contiguous over its non-unit dims. */
    int last = i;
    while (last > si && src->shape[last] == 1)
      --last;
    int64_t stride = src->strides[last], inner = stride;
    for (int d = last; d > si; --d) {
      if (!mulOk(stride, src->shape[d], &stride))
        return AC_LAYOUT_COPY;
      if (src->shape[d - 1] != 1 && stride != src->strides[d - 1])
        return AC_LAYOUT_COPY;
    }
    for (int d = j; d >= sj; --d) {
      out->strides[d] = inner;
      if (!mulOk(inner, out->shape[d], &inner))
        return AC_LAYOUT_COPY;
    }
    ++i;
    ++j;
  }
  for (; i < src->rank; ++i)
    if (src->shape[i] != 1)
      return AC_LAYOUT_COPY;
  for (; j < out->rank; ++j)
    if (out->shape[j] != 1)
      return AC_LAYOUT_COPY;
  out->identity = 0;
  out->offset = src->offset;
  return AC_LAYOUT_VIEW;
}

AcLayoutKind acLayoutStep(MlirOperation op, const AcLayout *src, AcLayout *out) {
  unknown(out);
  if (mlirOperationGetNumResults(op) < 1 || mlirOperationGetNumOperands(op) < 1)
    return AC_LAYOUT_OTHER;
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!acLayoutIsView(op)) {
    identityOf(rt, out);
    return AC_LAYOUT_OTHER;
  }
  AcLayout id;
  identityOf(rt, &id);
  if (!src->known || !id.known)
    return AC_LAYOUT_VIEW;  /* no decision: a view, as before */
  if (nameIs(op, "tosa.reshape") &&
      mlirTypeEqual(rt, mlirValueGetType(mlirOperationGetOperand(op, 0)))) {
    *out = *src;  /* to its own shape: tosa-to-tensor drops it (the source) */
    return AC_LAYOUT_VIEW;
  }
  if (src->dynamic) {
    /* Strides unknown: a slice or an expansion stays a view of unknown
       strides; a collapse of a group of more than one dim is not
       guaranteed (strict), nor is a reshape: copies. */
    int copy = nameIs(op, "tensor.reshape") || nameIs(op, "tosa.reshape");
    if (nameIs(op, "tensor.collapse_shape")) {
      /* Unit dims are skipped before the strict check: a group is only
         refused for a dim of size > 1 before its last. */
      int64_t dims[AC_LAYOUT_MAX_RANK];
      for (int g = 0; g < id.rank && !copy; ++g) {
        int n = groupOf(op, g, dims, AC_LAYOUT_MAX_RANK);
        if (n < 0) {
          unknown(out);
          return AC_LAYOUT_VIEW;
        }
        for (int i = 0; i + 1 < n && !copy; ++i)
          copy = dims[i] >= src->rank || src->shape[dims[i]] != 1;
      }
    }
    if (copy) {
      *out = id;
      return AC_LAYOUT_COPY;
    }
    dynamicOf(rt, out);
    return AC_LAYOUT_VIEW;
  }
  if (nameIs(op, "tensor.extract_slice"))
    return extractSlice(op, src, rt, out);
  if (nameIs(op, "tensor.cast") || nameIs(op, "tensor.bitcast")) {
    if (src->rank != id.rank)
      return AC_LAYOUT_VIEW;
    *out = *src;
    return AC_LAYOUT_VIEW;
  }
  if (src->identity) {  /* identity in, identity out */
    *out = id;
    return AC_LAYOUT_VIEW;
  }
  /* memref.reshape wants identity. */
  if (nameIs(op, "tensor.reshape")) {
    *out = id;
    return AC_LAYOUT_COPY;
  }
  /* tosa.reshape: a collapse then an expand (a strided source that does not
     collapse is copied: difftest seed 8000736). */
  if (nameIs(op, "tosa.reshape")) {
    *out = id;
    if (tosaReshape(src, out) == AC_LAYOUT_VIEW)
      return AC_LAYOUT_VIEW;
    *out = id;
    return AC_LAYOUT_COPY;
  }
  *out = id;
  out->identity = 0;
  out->offset = src->offset;
  if (nameIs(op, "tensor.collapse_shape")) {
    if (collapsed(op, src, id.rank, out))
      return AC_LAYOUT_VIEW;
    *out = id;
    return AC_LAYOUT_COPY;
  }
  /* tensor.expand_shape */
  if (!expanded(op, src, src->rank, out))
    unknown(out);
  return AC_LAYOUT_VIEW;
}

int acLayoutLeaves(MlirValue v, MlirOperation ret) {
  if (!mlirValueIsAOpResult(v))
    return 0;
  MlirAttribute a = mlirOperationGetDiscardableAttributeByName(
      mlirOpResultGetOwner(v), mlirStringRefCreateFromCString("ac.save"));
  if (!mlirAttributeIsNull(a) &&
      (mlirAttributeIsAUnit(a) || (mlirAttributeIsABool(a) && mlirBoolAttrGetValue(a))))
    return 1;
  if (mlirOperationIsNull(ret))
    return 0;
  /* The return's operands, not v's uses: a value may have very many. */
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); ++i)
    if (mlirValueEqual(mlirOperationGetOperand(ret, i), v))
      return 1;
  return 0;
}

void acLayoutOfValue(MlirValue v, MlirOperation ret, int fromCopy, AcLayout *out) {
  MlirOperation chain[AC_LAYOUT_MAX_CHAIN];
  int n = 0;
  unknown(out);
  while (mlirValueIsAOpResult(v) && mlirOpResultGetResultNumber(v) == 0) {
    MlirOperation op = mlirOpResultGetOwner(v);
    if (!acLayoutIsView(op) || ((n > 0 || fromCopy) && acLayoutLeaves(v, ret)))
      break;
    if (n == AC_LAYOUT_MAX_CHAIN)
      return;
    chain[n++] = op;
    v = mlirOperationGetOperand(op, 0);
  }
  if (mlirValueIsAOpResult(v) && dynamicResult(v))
    dynamicOf(mlirValueGetType(v), out);
  else
    identityOf(mlirValueGetType(v), out);
  for (int i = n - 1; i >= 0; --i) {
    AcLayout next;
    acLayoutStep(chain[i], out, &next);
    *out = next;
  }
}

int acLayoutReturnsWithoutCopy(const AcLayout *l) {
  if (!l->known || l->identity)
    return 1;
  if (l->dynamic)
    return 0;
  if (l->offset != 0)
    return 0;
  int64_t stride = 1;
  for (int i = l->rank - 1; i >= 0; --i) {
    if (l->strides[i] != stride)
      return 0;
    if (!mulOk(stride, l->shape[i], &stride))
      return 0;
  }
  return 1;
}

MlirValue acLayoutIfYield(MlirOperation op, intptr_t r, intptr_t j) {
  MlirValue none = {NULL};
  if (!nameIs(op, "scf.if") || mlirOperationGetNumRegions(op) != 2 ||
      j >= mlirOperationGetNumResults(op))
    return none;
  MlirBlock blk = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
  MlirOperation term = mlirBlockIsNull(blk) ? (MlirOperation){NULL}
                                            : mlirBlockGetTerminator(blk);
  if (mlirOperationIsNull(term) ||
      mlirOperationGetNumOperands(term) != mlirOperationGetNumResults(op))
    return none;
  return mlirOperationGetOperand(term, j);
}

MlirOperation acLayoutSharedInitMaker(MlirOperation o, MlirValue v) {
  MlirOperation none = {NULL};
  if (!mlirValueIsAOpResult(v))
    return none;
  MlirOperation p = mlirOpResultGetOwner(v);
  if (nameIs(p, "linalg.fill")) {
    intptr_t k = mlirOperationGetNumOperands(p);
    MlirValue init = k > 0 ? mlirOperationGetOperand(p, k - 1) : v;
    if (mlirOperationGetNumResults(p) != 1 || !mlirValueIsAOpResult(init) ||
        !nameIs(mlirOpResultGetOwner(init), "tensor.empty"))
      return none;
  } else if (!nameIs(p, "tensor.empty")) {
    return none;
  }
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (!mlirOperationEqual(mlirOpOperandGetOwner(u), o))
      return p;
  return none;
}
