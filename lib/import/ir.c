/* ir.c - small questions about the IR's structure (import/ir.h): the ops a
 * walk finds, gathered before they change; where an op is nested; a block's
 * terminator; an scf.for's trip count; a function argument's attribute. */
#include "import/ir.h"

#include "mlir-c/BuiltinAttributes.h"

typedef struct AcOpList {
  AcOpPredicate keep;
  MlirOperation *ops;
  intptr_t n, cap;
  int failed;
} AcOpList;

static MlirWalkResult collectCb(MlirOperation op, void *user) {
  AcOpList *l = user;
  if (!l->keep(op))
    return MlirWalkResultAdvance;
  if (l->n == l->cap) {
    intptr_t cap = l->cap ? 2 * l->cap : 64;
    MlirOperation *p = acRealloc(l->ops, (size_t)cap * sizeof *p);
    if (!p) {
      l->failed = 1;
      return MlirWalkResultInterrupt;
    }
    l->ops = p;
    l->cap = cap;
  }
  l->ops[l->n++] = op;
  return MlirWalkResultAdvance;
}

AcStatus acCollectOps(MlirOperation root, AcOpPredicate keep,
                      MlirOperation **ops, intptr_t *n) {
  AcOpList l = {keep, NULL, 0, 0, 0};
  mlirOperationWalk(root, collectCb, &l, MlirWalkPostOrder);
  if (l.failed) {
    acFree(l.ops);
    l.ops = NULL;
    l.n = 0;
  }
  *ops = l.ops;
  *n = l.n;
  return l.failed ? AC_ERR_NOMEM : AC_OK;
}

int acOpWithin(MlirOperation p, MlirOperation op) {
  for (; !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p))
    if (mlirOperationEqual(p, op))
      return 1;
  return 0;
}

/* The integer an `arith.constant` of integer or index type holds. */
static int constantIndex(MlirValue v, int64_t *x) {
  if (!mlirValueIsAOpResult(v) || !acOpIs(mlirOpResultGetOwner(v), "arith.constant"))
    return 0;
  MlirAttribute a = mlirOperationGetAttributeByName(
      mlirOpResultGetOwner(v), mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return 0;
  *x = mlirIntegerAttrGetValueInt(a);
  return 1;
}

MlirOperation acBlockTerminator(MlirBlock block) {
  MlirOperation t = mlirBlockGetTerminator(block);
  if (!mlirOperationIsNull(t))
    return t;
  /* An unregistered op (torch.prim.Loop.condition) is not known as a
   * terminator: the last op of the block, when it makes nothing. */
  MlirOperation last = {NULL};
  for (MlirOperation o = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(o);
       o = mlirOperationGetNextInBlock(o))
    last = o;
  return !mlirOperationIsNull(last) && mlirOperationGetNumResults(last) == 0
             ? last : (MlirOperation){NULL};
}

int64_t acForTrips(MlirOperation op) {
  int64_t lb, ub, step;
  if (mlirOperationGetNumOperands(op) < 3 ||
      !constantIndex(mlirOperationGetOperand(op, 0), &lb) ||
      !constantIndex(mlirOperationGetOperand(op, 1), &ub) ||
      !constantIndex(mlirOperationGetOperand(op, 2), &step) || step <= 0)
    return -1;
  return ub <= lb ? 0 : 1 + (ub - lb - 1) / step;
}

MlirAttribute acFuncArgAttr(MlirOperation fn, intptr_t k, const char *name) {
  MlirAttribute all = mlirOperationGetAttributeByName(fn, acStr("arg_attrs"));
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all) || k < 0 ||
      k >= mlirArrayAttrGetNumElements(all))
    return (MlirAttribute){NULL};
  MlirAttribute d = mlirArrayAttrGetElement(all, k);
  if (!mlirAttributeIsADictionary(d))
    return (MlirAttribute){NULL};
  return mlirDictionaryAttrGetElementByName(d, acStr(name));
}
