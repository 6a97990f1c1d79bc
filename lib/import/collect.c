/* collect.c - the ops a walk finds, gathered before they change (import/import.h). */
#include "import/import.h"

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
