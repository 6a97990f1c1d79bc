/* branches.c - scf.if / scf.index_switch folded where the branch is a
 * compile-time constant (import/branches.h). */
#include "import/branches.h"
#include "import/ir.h"
#include "import/layout.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "autoac/support.h"

#include <string.h>

static int nameIs(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  size_t len = strlen(name);
  return n.length == len && memcmp(n.data, name, len) == 0;
}

/* The integer an `arith.constant` of integer or index type holds, and its
 * bit width (64 for index). */
static int constantInt(MlirValue v, int64_t *x, unsigned *width) {
  if (!mlirValueIsAOpResult(v))
    return 0;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!nameIs(def, "arith.constant"))
    return 0;
  MlirAttribute a = mlirOperationGetAttributeByName(def, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return 0;
  MlirType t = mlirValueGetType(v);
  if (mlirTypeIsAIndex(t))
    *width = 64;
  else if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) <= 64)
    *width = mlirIntegerTypeGetWidth(t);
  else
    return 0;
  *x = mlirIntegerAttrGetValueInt(a);
  return 1;
}

/* The value of `arith.cmpi` on two constants (predicates as arith's
 * CmpIPredicate: eq ne slt sle sgt sge ult ule ugt uge). */
static int constantCmp(MlirOperation cmp, int *out) {
  int64_t a, b;
  unsigned wa, wb;
  if (mlirOperationGetNumOperands(cmp) != 2 ||
      !constantInt(mlirOperationGetOperand(cmp, 0), &a, &wa) ||
      !constantInt(mlirOperationGetOperand(cmp, 1), &b, &wb) || wa != wb || wa == 0)
    return 0;
  MlirAttribute p = mlirOperationGetAttributeByName(cmp, mlirStringRefCreateFromCString("predicate"));
  if (mlirAttributeIsNull(p) || !mlirAttributeIsAInteger(p))
    return 0;
  uint64_t mask = wa == 64 ? ~(uint64_t)0 : (((uint64_t)1 << wa) - 1);
  uint64_t ua = (uint64_t)a & mask, ub = (uint64_t)b & mask;
  /* Signed values of the width: the attribute's value is sign-extended. */
  switch (mlirIntegerAttrGetValueInt(p)) {
  case 0: *out = ua == ub; return 1;
  case 1: *out = ua != ub; return 1;
  case 2: *out = a < b; return 1;
  case 3: *out = a <= b; return 1;
  case 4: *out = a > b; return 1;
  case 5: *out = a >= b; return 1;
  case 6: *out = ua < ub; return 1;
  case 7: *out = ua <= ub; return 1;
  case 8: *out = ua > ub; return 1;
  case 9: *out = ua >= ub; return 1;
  default: return 0;
  }
}

/* The i1 `c` when it is known at compile time. */
static int constantCond(MlirValue c, int *out) {
  int64_t x;
  unsigned w;
  if (constantInt(c, &x, &w)) {
    *out = x != 0;
    return 1;
  }
  return mlirValueIsAOpResult(c) && nameIs(mlirOpResultGetOwner(c), "arith.cmpi") &&
         constantCmp(mlirOpResultGetOwner(c), out);
}

static intptr_t constantRegion(MlirOperation op);

/* The taken region, when its block (if any) ends in a terminator yielding
 * one value per result of `op`: what folding needs. */
intptr_t acConstantBranch(MlirOperation op) {
  intptr_t r = constantRegion(op);
  if (r < 0)
    return -1;
  MlirBlock blk = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
  if (mlirBlockIsNull(blk))
    return mlirOperationGetNumResults(op) == 0 ? r : -1;
  MlirOperation term = mlirBlockGetTerminator(blk);
  return !mlirOperationIsNull(term) &&
                 mlirOperationGetNumOperands(term) == mlirOperationGetNumResults(op)
             ? r
             : -1;
}

static intptr_t constantRegion(MlirOperation op) {
  if (nameIs(op, "scf.if") && mlirOperationGetNumOperands(op) == 1 &&
      mlirOperationGetNumRegions(op) == 2) {
    int c;
    return constantCond(mlirOperationGetOperand(op, 0), &c) ? (c ? 0 : 1) : -1;
  }
  if (nameIs(op, "scf.index_switch") && mlirOperationGetNumOperands(op) == 1) {
    int64_t x;
    unsigned w;
    MlirAttribute cases = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("cases"));
    if (!constantInt(mlirOperationGetOperand(op, 0), &x, &w) ||
        mlirAttributeIsNull(cases) || !mlirAttributeIsADenseI64Array(cases))
      return -1;
    intptr_t n = mlirDenseArrayGetNumElements(cases);
    if (mlirOperationGetNumRegions(op) != 1 + n)
      return -1;
    for (intptr_t i = 0; i < n; ++i)
      if (mlirDenseI64ArrayGetElement(cases, i) == x)
        return 1 + i;
    return 0;
  }
  return -1;
}

/* Folds `op` into its taken region `r`: the region's ops (its terminator
 * aside) move before `op`, whose results become the terminator's operands.
 * An scf.if without an else region (r = 1 and no block) has no results. */
static void foldInto(MlirOperation op, intptr_t r) {
  MlirBlock blk = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
  if (!mlirBlockIsNull(blk)) {
    MlirOperation term = mlirBlockGetTerminator(blk);
    MlirOperation it = mlirBlockGetFirstOperation(blk);
    while (!mlirOperationIsNull(it) && !mlirOperationEqual(it, term)) {
      MlirOperation next = mlirOperationGetNextInBlock(it);
      mlirOperationMoveBefore(it, op);
      it = next;
    }
    for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, i),
                                    mlirOperationGetOperand(term, i));
  }
  mlirOperationDestroy(op);
}

/* The value every branch of scf.if `op` yields as result k, or null: one
 * value yielded by both (hence defined before the op) is what the result
 * is; the lowering's canonicalization replaces the result by it. */
static MlirValue sameYield(MlirOperation op, intptr_t k) {
  MlirValue a = acLayoutIfYield(op, 0, k), b = acLayoutIfYield(op, 1, k);
  return !mlirValueIsNull(a) && !mlirValueIsNull(b) && mlirValueEqual(a, b)
             ? a
             : (MlirValue){NULL};
}

/* Whether some result of `op` has a value every branch yields. */
static int hasSameYield(MlirOperation op) {
  for (intptr_t k = 0; k < mlirOperationGetNumResults(op); ++k)
    if (!mlirValueIsNull(sameYield(op, k)))
      return 1;
  return 0;
}

/* Replaces each result of scf.if `op` that both branches yield alike by
 * that value; erases `op` when nothing reads it any more and its branches
 * hold nothing but their terminators. */
static void foldSameYields(MlirOperation op) {
  int used = 0;
  for (intptr_t k = 0; k < mlirOperationGetNumResults(op); ++k) {
    MlirValue v = sameYield(op, k), res = mlirOperationGetResult(op, k);
    if (!mlirValueIsNull(v))
      mlirValueReplaceAllUsesOfWith(res, v);
    used |= !mlirOpOperandIsNull(mlirValueGetFirstUse(res));
  }
  if (used)
    return;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    MlirBlock blk = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
    if (!mlirBlockIsNull(blk) &&
        !mlirOperationEqual(mlirBlockGetFirstOperation(blk), mlirBlockGetTerminator(blk)))
      return;
  }
  mlirOperationDestroy(op);
}

/* What canonicalization (in auto-ac-lower-cpu's deallocation pipeline)
 * turns into straight-line code: an scf.execute_region of one block, and
 * an scf.for whose constant trip count is 0 or 1 (1: its body, run once;
 * 0: nothing, its results its inits).  -1 otherwise. */
static int64_t trivialRegionOp(MlirOperation op) {
  if (nameIs(op, "scf.execute_region") && mlirOperationGetNumRegions(op) == 1) {
    MlirBlock blk = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    return !mlirBlockIsNull(blk) && mlirBlockIsNull(mlirBlockGetNextInRegion(blk)) &&
                   mlirBlockGetNumArguments(blk) == 0 &&
                   !mlirOperationIsNull(mlirBlockGetTerminator(blk)) &&
                   mlirOperationGetNumOperands(mlirBlockGetTerminator(blk)) ==
                       mlirOperationGetNumResults(op)
               ? 1 : -1;
  }
  if (!nameIs(op, "scf.for"))
    return -1;
  intptr_t nres = mlirOperationGetNumResults(op);
  int64_t trips = acForTrips(op);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (trips < 0 || trips > 1 || mlirOperationGetNumOperands(op) != 3 + nres ||
      mlirBlockIsNull(body) || mlirBlockGetNumArguments(body) != 1 + nres)
    return -1;
  return trips;
}

/* Folds trivialRegionOp `op`: its block's arguments become the loop's
 * lower bound and inits, then its ops move before it (run once), or its
 * results become its inits (run no time). */
static void foldTrivial(MlirOperation op, int64_t times) {
  intptr_t nres = mlirOperationGetNumResults(op);
  if (nameIs(op, "scf.for")) {
    if (times == 0) {
      for (intptr_t k = 0; k < nres; ++k)
        mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, k),
                                      mlirOperationGetOperand(op, 3 + k));
      mlirOperationDestroy(op);
      return;
    }
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(body, 0),
                                  mlirOperationGetOperand(op, 0));
    for (intptr_t k = 0; k < nres; ++k)
      mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(body, 1 + k),
                                    mlirOperationGetOperand(op, 3 + k));
  }
  foldInto(op, 0);
}

/* Folded here: a constant branch, an if yielding the same values, a
 * trivial region op. */
static int foldable(MlirOperation op) {
  return acConstantBranch(op) >= 0 || hasSameYield(op) || trivialRegionOp(op) >= 0;
}

intptr_t acFoldConstantBranches(MlirOperation func) {
  /* Post-order: an op nested in a branch is listed before the op holding
   * it, so folding in list order never touches an op already erased (a
   * branch not taken is erased with its op, after its own ops were
   * folded). */
  MlirOperation *ops;
  intptr_t len;
  if (acCollectOps(func, foldable, &ops, &len) != AC_OK)
    return -1;
  for (intptr_t i = 0; i < len; ++i) {
    intptr_t r = acConstantBranch(ops[i]);
    int64_t times = trivialRegionOp(ops[i]);
    if (r >= 0)
      foldInto(ops[i], r);
    else if (times >= 0)
      foldTrivial(ops[i], times);
    else
      foldSameYields(ops[i]);
  }
  acFree(ops);
  return len;
}

/* ---- branches decided at run time --------------------------------------- */

/* Whether `y`, yielded inside region op `op`, is a value defined outside
 * `op` or a view of one (through tensor view ops made inside it): what
 * bufferization yields without a buffer of its own. */
static int yieldsOutside(MlirValue y, MlirOperation op) {
  static const char *const views[] = {"tensor.extract_slice", "tensor.expand_shape",
                                      "tensor.collapse_shape", "tensor.cast"};
  for (int guard = 0; guard < 64; ++guard) {
    MlirOperation def = mlirValueIsAOpResult(y)
                            ? mlirOpResultGetOwner(y)
                            : mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(y));
    if (!acOpWithin(def, op))
      return 1;
    if (!mlirValueIsAOpResult(y))
      return 0;
    int view = 0;
    for (size_t i = 0; i < sizeof views / sizeof *views && !view; ++i)
      view = nameIs(def, views[i]);
    if (!view || mlirOperationGetNumOperands(def) < 1)
      return 0;
    y = mlirOperationGetOperand(def, 0);
  }
  return 0;
}

/* Whether some tensor result of scf.if / scf.index_switch `op` is yielded
 * by one region as an outside value (no buffer) and by another as a value
 * made inside it. */
static int branchDependent(MlirOperation op) {
  intptr_t nres = mlirOperationGetNumResults(op);
  for (intptr_t k = 0; k < nres; ++k) {
    if (!mlirTypeIsATensor(mlirValueGetType(mlirOperationGetResult(op, k))))
      continue;
    int outside = 0, inside = 0;
    for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
      MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
      MlirOperation y = mlirBlockIsNull(b) ? (MlirOperation){NULL} : mlirBlockGetTerminator(b);
      if (mlirOperationIsNull(y) || k >= mlirOperationGetNumOperands(y))
        continue;
      if (yieldsOutside(mlirOperationGetOperand(y, k), op))
        outside = 1;
      else
        inside = 1;
    }
    if (outside && inside)
      return 1;
  }
  return 0;
}

static MlirWalkResult findDependent(MlirOperation op, void *user) {
  MlirOperation *at = user;
  if ((nameIs(op, "scf.if") || nameIs(op, "scf.index_switch")) && branchDependent(op)) {
    *at = op;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

int acRuntimeBranchAllocates(MlirOperation func, MlirOperation *at) {
  MlirOperation found = {NULL};
  mlirOperationWalk(func, findDependent, &found, MlirWalkPreOrder);
  if (at)
    *at = found;
  return !mlirOperationIsNull(found);
}
