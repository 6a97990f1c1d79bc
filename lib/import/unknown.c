/* unknown.c - the ops the cost model does not know (import/unknown.h): one
 * entry per name, in order of first appearance, and their warnings. */
#include "import/unknown.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
AcStatus acCollectUnknownOps(AcImportCtx *c) {
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
  st = acImportNoMem(c, mlirOperationGetLocation(imp->module));
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
