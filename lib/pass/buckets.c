/* buckets.c - the option `buckets`: one plan per size bucket of a dynamic
 * argument dimension and a dispatch on it (pass/buckets.h). */
#include "pass/buckets.h"
#include "pass/pass.h"
#include "autoac/report.h"
#include "import/import.h"
#include "import/symbols.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <jansson.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SREF(s) mlirStringRefCreateFromCString(s)

static double acWallSeconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void acBucketSpecClear(AcBucketSpec *out, intptr_t n) {
  for (intptr_t i = 0; i < n; ++i) {
    acFree(out[i].bounds);
    out[i].bounds = NULL;
    out[i].n = 0;
  }
}

/* A decimal integer in [lo, hi] at *p, advancing *p; 0 if none. */
static int acReadInt(const char **p, long long lo, long long hi, int64_t *out) {
  if (**p < '0' || **p > '9')
    return 0;
  char *end = NULL;
  errno = 0;
  long long v = strtoll(*p, &end, 10);
  if (errno || v < lo || v > hi)
    return 0;
  *p = end;
  *out = v;
  return 1;
}

/* One spec `argI.D:B1,...,Bn` at the start of `text`, up to `end`; `whole`
 * names the option's value in errors. */
static AcStatus acBucketSpecParseOne(const char *text, const char *end,
                                     const char *whole, AcBucketSpec *out,
                                     AcError *err) {
  memset(out, 0, sizeof *out);
  const char *p = text;
  int64_t a, d;
  if (strncmp(p, "arg", 3) != 0 || (p += 3, !acReadInt(&p, 0, 1 << 30, &a)) ||
      *p++ != '.' || !acReadInt(&p, 0, 1 << 30, &d) || *p++ != ':' || p > end)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "'%.200s': expected argI.D:B1,B2,... (an argument "
                      "dimension, then its bucket bounds; several separated "
                      "by ';')", whole);
  out->arg = (int)a, out->dim = (int)d;
  intptr_t cap = 1;
  for (const char *q = p; q < end; ++q)
    cap += *q == ',';
  if (!(out->bounds = acMalloc((size_t)cap * sizeof *out->bounds)))
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
  for (;;) {
    const char *at = p;
    int64_t b;
    if (!acReadInt(&p, 1, INT64_MAX, &b) || p > end || (p < end && *p != ',')) {
      acBucketSpecClear(out, 1);
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "'%.200s': bucket bound '%.*s' is not an integer >= 1",
                        whole, (int)(end - at < 40 ? end - at : 40), at);
    }
    if (out->n > 0 && b <= out->bounds[out->n - 1]) {
      int64_t prev = out->bounds[out->n - 1];
      acBucketSpecClear(out, 1);
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "'%.200s': bucket bounds must increase strictly (%" PRId64
                        " after %" PRId64 ")", whole, b, prev);
    }
    out->bounds[out->n++] = b;
    if (p == end)
      return AC_OK;
    ++p;
  }
}

AcStatus acBucketSpecParse(const char *text, AcBucketSpec *out, intptr_t *n,
                           AcError *err) {
  *n = 0;
  for (const char *p = text;;) {
    const char *end = strchr(p, ';');
    if (!end)
      end = p + strlen(p);
    AcStatus st = AC_ERR_INVALID;
    if (*n == AC_BUCKET_MAX_DIMS)
      acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                 "'%.200s': at most %d dimensions are bucketed", text,
                 AC_BUCKET_MAX_DIMS);
    else if ((st = acBucketSpecParseOne(p, end, text, &out[*n], err)) == AC_OK)
      ++*n;
    for (intptr_t i = 0; st == AC_OK && i + 1 < *n; ++i)
      if (out[i].arg == out[*n - 1].arg && out[i].dim == out[*n - 1].dim) {
        st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "'%.200s': arg%d.%d is bucketed twice", text,
                        out[i].arg, out[i].dim);
      }
    if (st != AC_OK) {
      acBucketSpecClear(out, *n);
      *n = 0;
      return st;
    }
    if (!*end)
      return AC_OK;
    p = end + 1;
  }
}

/* The first ac.joint func.func of `module` and their number. */
static MlirOperation acJointFunc(MlirOperation module, intptr_t *count) {
  MlirOperation first = {NULL};
  *count = 0;
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef nm = mlirIdentifierStr(mlirOperationGetName(op));
    if (nm.length != 9 || memcmp(nm.data, "func.func", 9) != 0 ||
        mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(op, SREF("ac.joint"))))
      continue;
    if ((*count)++ == 0)
      first = op;
  }
  return first;
}

static void acFuncName(MlirOperation f, char *buf, size_t n) {
  MlirStringRef s = mlirStringAttrGetValue(mlirOperationGetAttributeByName(f, SREF("sym_name")));
  snprintf(buf, n, "%.*s", (int)s.length, s.data);
}

/* The top-level op of `module` named `name`. */
static MlirOperation acFuncByName(MlirOperation module, const char *name) {
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute a = mlirOperationGetAttributeByName(op, SREF("sym_name"));
    if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
      continue;
    MlirStringRef s = mlirStringAttrGetValue(a);
    if (s.length == strlen(name) && !memcmp(s.data, name, s.length))
      return op;
  }
  MlirOperation none = {NULL};
  return none;
}

/* The shape of a torch value tensor type (`!torch.vtensor<[?,8],f32>`,
 * dynamic dimensions as AC_DIM_DYNAMIC); 0 for any other type. */
static int acTorchShape(MlirType t, AcTensorType *out) {
  AcStrBuf b = {0};
  mlirTypePrint(t, acStrBufMlirCallback, &b);
  AcError err;
  int ok = b.data && !b.failed && strncmp(b.data, "!torch.vtensor<", 15) == 0 &&
           acTypeParseTorchDynamic(b.data, b.len, out, &err) == AC_OK && out->isTensor;
  acStrBufClear(&b);
  return ok;
}

/* Errors of the bucket setup, emitted at `loc`; AC_ERR_INVALID. */
static AcStatus acBucketError(MlirLocation loc, const char *msg) {
  mlirEmitError(loc, msg);
  return AC_ERR_INVALID;
}

/* Checks that the spec names a dynamic dimension of a builtin tensor
 * argument of `f`; its rank into *rank. */
static AcStatus acCheckBucketDim(MlirOperation f, const AcBucketSpec *sp,
                                 const char *fname, intptr_t *rank) {
  char msg[768];
  MlirType ft = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(f, SREF("function_type")));
  MlirLocation loc = mlirOperationGetLocation(f);
  if (sp->arg >= mlirFunctionTypeGetNumInputs(ft)) {
    snprintf(msg, sizeof msg, "autoac: option 'buckets' names arg%d.%d, but "
             "'@%s' has %ld arguments", sp->arg, sp->dim, fname,
             (long)mlirFunctionTypeGetNumInputs(ft));
    return acBucketError(loc, msg);
  }
  MlirType t = mlirFunctionTypeGetInput(ft, sp->arg);
  AcTensorType tt;
  int dynamic = 0;
  if (mlirTypeIsARankedTensor(t)) {
    *rank = mlirShapedTypeGetRank(t);
    dynamic = sp->dim < *rank && mlirShapedTypeIsDynamicDim(t, sp->dim);
  } else if (acTorchShape(t, &tt)) {
    *rank = tt.rank;
    dynamic = sp->dim < *rank && tt.dims[sp->dim] == AC_DIM_DYNAMIC;
  } else {
    snprintf(msg, sizeof msg, "autoac: option 'buckets' names arg%d.%d, but "
             "argument #%d of '@%s' is no ranked tensor (a builtin ranked "
             "tensor or a !torch.vtensor)", sp->arg, sp->dim, sp->arg, fname);
    return acBucketError(loc, msg);
  }
  if (!dynamic) {
    snprintf(msg, sizeof msg, "autoac: option 'buckets' names arg%d.%d, which "
             "is no dynamic dimension of an argument of '@%s' (argument #%d "
             "has rank %ld%s)", sp->arg, sp->dim, fname, sp->arg, (long)*rank,
             sp->dim < *rank ? " and that dimension is static" : "");
    return acBucketError(loc, msg);
  }
  return AC_OK;
}

/* The bound of the symbol holding argI.D in a probe import of a copy of
 * `module` with `opts`, into *bound and its name into `sym`.  The import's
 * errors (an unbounded dimension) are emitted there. */
static AcStatus acBucketSymbolBound(MlirOperation module, const AcOptions *opts,
                                    const AcBucketSpec *sp, int64_t *bound,
                                    char *sym, size_t symLen) {
  MlirOperation probe = mlirOperationClone(module);
  AcImport *imp = NULL;
  AcStatus st = acImportForOptions(probe, opts, &imp);
  *bound = -1;
  if (st == AC_OK) {
    char want[64];
    snprintf(want, sizeof want, "arg%d.%d", sp->arg, sp->dim);
    for (intptr_t i = 0; i < acSymbolsCount(imp->symbols) && *bound < 0; ++i) {
      const char *a = acSymbolArgs(imp->symbols, i);
      size_t n = strlen(want);
      for (const char *q = a; (q = strstr(q, want)); q += n)
        if ((q == a || q[-1] == ',') && (q[n] == ',' || q[n] == '\0')) {
          *bound = acSymbolBound(imp->symbols, i);
          snprintf(sym, symLen, "%s", acSymbolName(imp->symbols, i));
          break;
        }
    }
    if (*bound < 0)
      st = acBucketError(mlirOperationGetLocation(module),
                         "autoac: option 'buckets': the dimension is tied to "
                         "no shape symbol of the import");
  }
  acImportDestroy(imp);
  mlirOperationDestroy(probe);
  return st;
}

/* Sets dimension sp->dim of argument sp->arg's ac.max_shape to `bound` on
 * joint function `f` (other entries kept, -1 where there were none). */
static void acSetArgBound(MlirOperation f, const AcBucketSpec *sp, intptr_t rank,
                          int64_t bound) {
  MlirContext ctx = mlirOperationGetContext(f);
  MlirType ft = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(f, SREF("function_type")));
  intptr_t nargs = mlirFunctionTypeGetNumInputs(ft);
  MlirAttribute old = mlirOperationGetAttributeByName(f, SREF("arg_attrs"));
  MlirAttribute *dicts = acCalloc((size_t)nargs, sizeof *dicts);
  int64_t *ms = acCalloc((size_t)rank, sizeof *ms);
  MlirNamedAttribute *na = NULL;
  if (!dicts || !ms)
    goto done;
  for (intptr_t i = 0; i < nargs; ++i)
    dicts[i] = mlirAttributeIsNull(old) ? mlirDictionaryAttrGet(ctx, 0, NULL)
                                        : mlirArrayAttrGetElement(old, i);
  MlirAttribute d = dicts[sp->arg];
  intptr_t n = mlirDictionaryAttrGetNumElements(d);
  if (!(na = acCalloc((size_t)n + 1, sizeof *na)))
    goto done;
  MlirAttribute prev = mlirDictionaryAttrGetElementByName(d, SREF("ac.max_shape"));
  for (intptr_t j = 0; j < rank; ++j)
    ms[j] = !mlirAttributeIsNull(prev) && mlirAttributeIsADenseI64Array(prev) &&
                    mlirDenseArrayGetNumElements(prev) == rank
                ? mlirDenseI64ArrayGetElement(prev, j) : -1;
  ms[sp->dim] = bound;
  intptr_t k = 0;
  for (intptr_t j = 0; j < n; ++j) {
    MlirNamedAttribute e = mlirDictionaryAttrGetElement(d, j);
    MlirStringRef nm = mlirIdentifierStr(e.name);
    if (!(nm.length == 12 && !memcmp(nm.data, "ac.max_shape", 12)))
      na[k++] = e;
  }
  na[k++] = mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("ac.max_shape")),
                                  mlirDenseI64ArrayGet(ctx, rank, ms));
  dicts[sp->arg] = mlirDictionaryAttrGet(ctx, k, na);
  mlirOperationSetAttributeByName(f, SREF("arg_attrs"), mlirArrayAttrGet(ctx, nargs, dicts));
done:
  acFree(na);
  acFree(ms);
  acFree(dicts);
}

/* One bucket (a cell of the grid of the bucketed dimensions' buckets): its
 * copy of the module, planned and rewritten, its report, and each
 * dimension's sizes in it. */
typedef struct AcBucket {
  MlirOperation module;
  char *report;
  int64_t lower[AC_BUCKET_MAX_DIMS], upper[AC_BUCKET_MAX_DIMS];
  char step[256], fwd[256], bwd[256];  /* names in the output module */
} AcBucket;

/* The bucketed dimensions, checked against the module. */
typedef struct AcBucketDims {
  AcBucketSpec sp[AC_BUCKET_MAX_DIMS];
  intptr_t nd;                         /* dimensions */
  intptr_t rank[AC_BUCKET_MAX_DIMS];   /* their arguments' ranks */
  int64_t bound[AC_BUCKET_MAX_DIMS];   /* their own bounds */
  intptr_t nb[AC_BUCKET_MAX_DIMS];     /* buckets per dimension */
  char arg[AC_BUCKET_MAX_DIMS][64];    /* argI.D */
  char sym[AC_BUCKET_MAX_DIMS][128];   /* their shape symbols */
} AcBucketDims;

static MlirOperation acMakeOp(const char *name, MlirLocation loc, intptr_t nres,
                              const MlirType *res, intptr_t nopd,
                              const MlirValue *opd, intptr_t nattr,
                              const MlirNamedAttribute *attrs, intptr_t nreg,
                              MlirRegion *regs) {
  MlirOperationState s = mlirOperationStateGet(SREF(name), loc);
  if (nres)
    mlirOperationStateAddResults(&s, nres, res);
  if (nopd)
    mlirOperationStateAddOperands(&s, nopd, opd);
  if (nattr)
    mlirOperationStateAddAttributes(&s, nattr, attrs);
  if (nreg)
    mlirOperationStateAddOwnedRegions(&s, nreg, regs);
  return mlirOperationCreate(&s);
}

static MlirValue acIndexConst(MlirBlock b, MlirLocation loc, int64_t v);

/* The size of dimension `d` of argument `a`, as an index, appended to `b`:
 * `tensor.dim` of a builtin tensor; of a torch value tensor,
 * `torch.aten.size.int` then `torch_c.to_i64` and `arith.index_cast` (the
 * torch-mlir ops, generic when the torch dialect is unregistered). */
static MlirValue acDimSize(MlirBlock b, MlirLocation loc, MlirValue a, int d) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType it = mlirIndexTypeGet(ctx);
  if (mlirTypeIsARankedTensor(mlirValueGetType(a))) {
    MlirValue opd[2] = {a, acIndexConst(b, loc, d)};
    MlirOperation dim = acMakeOp("tensor.dim", loc, 1, &it, 2, opd, 0, NULL, 0, NULL);
    mlirBlockAppendOwnedOperation(b, dim);
    return mlirOperationGetResult(dim, 0);
  }
  MlirType ti = mlirTypeParseGet(ctx, SREF("!torch.int"));
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirNamedAttribute v = mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("value")),
                                               mlirIntegerAttrGet(i64, d));
  MlirOperation c = acMakeOp("torch.constant.int", loc, 1, &ti, 0, NULL, 1, &v, 0, NULL);
  mlirBlockAppendOwnedOperation(b, c);
  MlirValue opd[2] = {a, mlirOperationGetResult(c, 0)};
  MlirOperation sz = acMakeOp("torch.aten.size.int", loc, 1, &ti, 2, opd, 0, NULL, 0, NULL);
  mlirBlockAppendOwnedOperation(b, sz);
  MlirValue n = mlirOperationGetResult(sz, 0);
  MlirOperation to = acMakeOp("torch_c.to_i64", loc, 1, &i64, 1, &n, 0, NULL, 0, NULL);
  mlirBlockAppendOwnedOperation(b, to);
  MlirValue x = mlirOperationGetResult(to, 0);
  MlirOperation cast = acMakeOp("arith.index_cast", loc, 1, &it, 1, &x, 0, NULL, 0, NULL);
  mlirBlockAppendOwnedOperation(b, cast);
  return mlirOperationGetResult(cast, 0);
}

static MlirValue acIndexConst(MlirBlock b, MlirLocation loc, int64_t v) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType it = mlirIndexTypeGet(ctx);
  MlirNamedAttribute a = mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("value")),
                                               mlirIntegerAttrGet(it, v));
  MlirOperation op = acMakeOp("arith.constant", loc, 1, &it, 0, NULL, 1, &a, 0, NULL);
  mlirBlockAppendOwnedOperation(b, op);
  return mlirOperationGetResult(op, 0);
}

/* Moves bucket k's step (its @f after the split) and halves out of its
 * module into `module`, named FNAME_bK, FNAME_bK_fwd and FNAME_bK_bwd (made
 * unique by the symbol table), after `*after`; the step's calls follow the
 * halves' new names. */
static void acMoveHalves(AcBucket *bk, intptr_t k, const char *fname,
                         MlirOperation module, MlirSymbolTable table,
                         MlirOperation *after) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirOperation step = acFuncByName(bk->module, fname);
  MlirOperation fns[3] = {step, {NULL}, {NULL}};
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(bk->module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    for (int h = 0; h < 2; ++h) {
      MlirAttribute of = mlirOperationGetDiscardableAttributeByName(
          op, SREF(h ? "ac.bwd_of" : "ac.fwd_of"));
      if (mlirAttributeIsNull(of) || !mlirAttributeIsAString(of))
        continue;
      MlirStringRef v = mlirStringAttrGetValue(of);
      if (v.length == strlen(fname) && !memcmp(v.data, fname, v.length))
        fns[1 + h] = op;
    }
  char old[2][256];
  for (int i = 0; i < 3; ++i) {
    MlirOperation op = fns[i];
    if (mlirOperationIsNull(op))
      continue;
    char want[300], *slot = i == 0 ? bk->step : i == 1 ? bk->fwd : bk->bwd;
    if (i)
      acFuncName(op, old[i - 1], sizeof old[i - 1]);
    snprintf(want, sizeof want, "%s_b%ld%s", fname, (long)k,
             i == 0 ? "" : i == 1 ? "_fwd" : "_bwd");
    mlirOperationRemoveFromParent(op);
    mlirOperationSetAttributeByName(op, SREF("sym_name"), mlirStringAttrGet(ctx, SREF(want)));
    mlirOperationSetDiscardableAttributeByName(
        op, SREF("ac.bucket"), mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), k));
    MlirStringRef s = mlirStringAttrGetValue(mlirSymbolTableInsert(table, op));
    mlirOperationMoveAfter(op, *after);
    *after = op;
    snprintf(slot, 256, "%.*s", (int)s.length, s.data);
  }
  /* The step's calls to the halves, renamed. */
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(step, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute callee = mlirOperationGetAttributeByName(op, SREF("callee"));
    if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee))
      continue;
    MlirStringRef c = mlirFlatSymbolRefAttrGetValue(callee);
    for (int h = 0; h < 2; ++h)
      if (!mlirOperationIsNull(fns[1 + h]) && c.length == strlen(old[h]) &&
          !memcmp(c.data, old[h], c.length)) {
        mlirOperationSetAttributeByName(
            op, SREF("callee"), mlirFlatSymbolRefAttrGet(ctx, SREF(h ? bk->bwd : bk->fwd)));
        break;
      }
  }
}

/* Fills region `reg` with the call of bucket k's step `step` (its @f
 * after the split, renamed) on the arguments of `fb`, and an scf.yield of
 * its results. */
static AcStatus acFillCase(const char *step, MlirOperation f, MlirBlock fb,
                           MlirRegion reg, AcError *err) {
  MlirContext ctx = mlirOperationGetContext(f);
  MlirLocation loc = mlirOperationGetLocation(f);
  MlirType ft = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(f, SREF("function_type")));
  intptr_t nargs = mlirBlockGetNumArguments(fb), nres = mlirFunctionTypeGetNumResults(ft);
  MlirValue *args = acCalloc((size_t)nargs + 1, sizeof *args);
  MlirValue *res = acCalloc((size_t)nres + 1, sizeof *res);
  MlirType *rt = acCalloc((size_t)nres + 1, sizeof *rt);
  if (!args || !res || !rt) {
    acFree(args), acFree(res), acFree(rt);
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
  }
  for (intptr_t i = 0; i < nargs; ++i)
    args[i] = mlirBlockGetArgument(fb, i);
  for (intptr_t i = 0; i < nres; ++i)
    rt[i] = mlirFunctionTypeGetResult(ft, i);
  MlirBlock blk = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(reg, blk);
  MlirNamedAttribute at[2] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("callee")),
                            mlirFlatSymbolRefAttrGet(ctx, SREF(step))),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("no_inline")),
                            mlirUnitAttrGet(ctx))};
  MlirOperation call = acMakeOp("func.call", loc, nres, rt, nargs, args, 2, at, 0, NULL);
  mlirBlockAppendOwnedOperation(blk, call);
  for (intptr_t i = 0; i < nres; ++i)
    res[i] = mlirOperationGetResult(call, i);
  mlirBlockAppendOwnedOperation(blk, acMakeOp("scf.yield", loc, 0, NULL, nres, res,
                                              0, NULL, 0, NULL));
  acFree(args), acFree(res), acFree(rt);
  return AC_OK;
}

/* The bucket index of dimension `d` of `dims` in `fb`'s arguments (the
 * first bucket whose upper size the size is at most; the last above), made
 * at the end of `fb`. */
static MlirValue acBucketIndex(MlirBlock fb, MlirLocation loc,
                               const AcBucketDims *dims, intptr_t d) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType it = mlirIndexTypeGet(ctx), i1 = mlirIntegerTypeGet(ctx, 1);
  const AcBucketSpec *sp = &dims->sp[d];
  intptr_t nb = dims->nb[d];
  MlirValue size = acDimSize(fb, loc, mlirBlockGetArgument(fb, sp->arg), sp->dim);
  MlirValue sel = acIndexConst(fb, loc, nb - 1);
  MlirNamedAttribute ule = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, SREF("predicate")),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 7 /* ule */));
  for (intptr_t k = nb - 2; k >= 0; --k) {
    MlirValue cmpOpd[2] = {size, acIndexConst(fb, loc, sp->bounds[k])};
    MlirOperation cmp = acMakeOp("arith.cmpi", loc, 1, &i1, 2, cmpOpd, 1, &ule, 0, NULL);
    mlirBlockAppendOwnedOperation(fb, cmp);
    MlirValue selOpd[3] = {mlirOperationGetResult(cmp, 0), acIndexConst(fb, loc, k), sel};
    MlirOperation s = acMakeOp("arith.select", loc, 1, &it, 3, selOpd, 0, NULL, 0, NULL);
    mlirBlockAppendOwnedOperation(fb, s);
    sel = mlirOperationGetResult(s, 0);
  }
  return sel;
}

/* `a op b` (arith.muli / arith.addi on index), made at the end of `fb`. */
static MlirValue acIndexArith(MlirBlock fb, MlirLocation loc, const char *op,
                              MlirValue a, MlirValue b) {
  MlirType it = mlirIndexTypeGet(mlirLocationGetContext(loc));
  MlirValue opd[2] = {a, b};
  MlirOperation o = acMakeOp(op, loc, 1, &it, 2, opd, 0, NULL, 0, NULL);
  mlirBlockAppendOwnedOperation(fb, o);
  return mlirOperationGetResult(o, 0);
}

/* Replaces the body of joint function `f` by the dispatch: each bucketed
 * dimension's bucket index (acBucketIndex), the bucket's number in the grid
 * (row-major: the last dimension's index varies fastest) and an
 * scf.index_switch whose case k is bucket k's body (the default region:
 * the last bucket, every dimension in its last). */
static AcStatus acBuildDispatch(MlirOperation f, const AcBucketDims *dims,
                                AcBucket *bk, intptr_t nb, AcError *err) {
  MlirContext ctx = mlirOperationGetContext(f);
  MlirLocation loc = mlirOperationGetLocation(f);
  MlirBlock fb = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  MlirType ft = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(f, SREF("function_type")));
  intptr_t nres = mlirFunctionTypeGetNumResults(ft);
  MlirType *rt = acCalloc((size_t)nres + 1, sizeof *rt);
  MlirRegion *regs = acCalloc((size_t)nb, sizeof *regs);
  int64_t *cases = acCalloc((size_t)nb, sizeof *cases);
  MlirValue *res = acCalloc((size_t)nres + 1, sizeof *res);
  AcStatus st = AC_OK;
  if (!rt || !regs || !cases || !res) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
    goto done;
  }
  for (intptr_t i = 0; i < nres; ++i)
    rt[i] = mlirFunctionTypeGetResult(ft, i);
  /* The regions first: nothing of `f` changes if one fails. */
  for (intptr_t k = 0; k < nb && st == AC_OK; ++k) {
    regs[k] = mlirRegionCreate();
    st = acFillCase(bk[(k + nb - 1) % nb].step, f, fb, regs[k], err);
  }
  if (st != AC_OK) {
    for (intptr_t k = 0; k < nb; ++k)
      if (!mlirRegionIsNull(regs[k]))
        mlirRegionDestroy(regs[k]);
    goto done;
  }
  /* The old body goes, last op first (users before what they use). */
  for (MlirOperation o = mlirBlockGetTerminator(fb); !mlirOperationIsNull(o);) {
    MlirOperation prev = {NULL};
    for (MlirOperation q = mlirBlockGetFirstOperation(fb); !mlirOperationIsNull(q) &&
         !mlirOperationEqual(q, o); q = mlirOperationGetNextInBlock(q))
      prev = q;
    mlirOperationDestroy(o);
    o = prev;
  }
  MlirValue sel = {NULL};
  for (intptr_t d = 0; d < dims->nd; ++d) {
    MlirValue idx = acBucketIndex(fb, loc, dims, d);
    sel = d == 0 ? idx
                 : acIndexArith(fb, loc, "arith.addi",
                                acIndexArith(fb, loc, "arith.muli", sel,
                                             acIndexConst(fb, loc, dims->nb[d])),
                                idx);
  }
  for (intptr_t k = 0; k + 1 < nb; ++k)
    cases[k] = k;
  MlirNamedAttribute ca = mlirNamedAttributeGet(mlirIdentifierGet(ctx, SREF("cases")),
                                                mlirDenseI64ArrayGet(ctx, nb - 1, cases));
  MlirOperation sw = acMakeOp("scf.index_switch", loc, nres, rt, 1, &sel, 1, &ca, nb, regs);
  mlirBlockAppendOwnedOperation(fb, sw);
  for (intptr_t i = 0; i < nres; ++i)
    res[i] = mlirOperationGetResult(sw, i);
  mlirBlockAppendOwnedOperation(fb, acMakeOp("func.return", loc, 0, NULL, nres, res,
                                             0, NULL, 0, NULL));
  mlirOperationRemoveDiscardableAttributeByName(f, SREF("ac.joint"));
done:
  acFree(rt);
  acFree(regs);
  acFree(cases);
  acFree(res);
  return st;
}

/* One bucketed dimension's sizes in bucket `bk`: `dimension`, `symbol`,
 * `lower`, `upper`, set on `o`; nonzero when out of memory. */
static int acBucketDimJson(json_t *o, const AcBucketDims *dims, intptr_t d,
                           const AcBucket *bk) {
  int failed = 0;
  failed |= json_object_set_new(o, "dimension", json_string(dims->arg[d]));
  failed |= json_object_set_new(o, "symbol", json_string(dims->sym[d]));
  failed |= json_object_set_new(o, "lower", json_integer(bk->lower[d]));
  failed |= json_object_set_new(o, "upper", json_integer(bk->upper[d]));
  return failed;
}

/* The report's bucket entry for bucket k, from its own report `r`: with
 * one bucketed dimension its sizes are the entry's own fields; with
 * several, `dimensions` lists them. */
static json_t *acBucketJson(const AcBucket *bk, intptr_t k,
                            const AcBucketDims *dims, json_t *r) {
  json_t *o = json_object();
  if (!o)
    return NULL;
  int failed = 0;
  failed |= json_object_set_new(o, "index", json_integer(k));
  if (dims->nd == 1) {
    failed |= acBucketDimJson(o, dims, 0, bk);
  } else {
    json_t *arr = json_array();
    failed |= !arr;
    for (intptr_t d = 0; d < dims->nd && arr; ++d) {
      json_t *e = json_object();
      if (!e || acBucketDimJson(e, dims, d, bk)) {
        json_decref(e);
        failed = 1;
      } else {
        failed |= json_array_append_new(arr, e) != 0;
      }
    }
    failed |= json_object_set_new(o, "dimensions", arr);
  }
  failed |= json_object_set_new(o, "function", json_string(bk->step));
  failed |= json_object_set_new(o, "forward", json_string(bk->fwd));
  failed |= json_object_set_new(o, "backward", json_string(bk->bwd));
  static const char *const keys[] = {"feasible", "peak_bytes", "saved_bytes",
                                     "recompute_flops", "recompute_seconds",
                                     "peak_formula", "peak_pieces",
                                     "peak_pieces_complete", NULL};
  for (const char *const *key = keys; *key; ++key) {
    json_t *v = json_object_get(r, *key);
    if (v)
      failed |= json_object_set(o, *key, v);
  }
  json_t *fn = json_array_get(json_object_get(r, "functions"), 0);
  for (int h = 0; h < 2 && fn; ++h) {
    json_t *v = json_object_get(fn, h ? "recomputed" : "saved");
    if (v)
      failed |= json_object_set(o, h ? "recomputed" : "saved", v);
  }
  if (failed) {
    json_decref(o);
    return NULL;
  }
  return o;
}

/* The report: the last bucket's (planned at the dimension's own bound, as
 * one plan would be) with `feasible` true only when every bucket's is, and
 * `buckets`, one entry per bucket.  NULL when out of memory. */
static char *acBucketsReport(const AcBucket *bk, intptr_t nb,
                             const AcBucketDims *dims) {
  json_error_t je;
  json_t *root = json_loads(bk[nb - 1].report, 0, &je);
  json_t *arr = json_array();
  char *out = NULL;
  int feasible = 1;
  if (!root || !arr)
    goto done;
  for (intptr_t k = 0; k < nb; ++k) {
    json_t *r = json_loads(bk[k].report, 0, &je);
    json_t *o = r ? acBucketJson(&bk[k], k, dims, r) : NULL;
    feasible &= json_is_true(json_object_get(r, "feasible"));
    json_decref(r);
    if (!o || json_array_append_new(arr, o))
      goto done;
  }
  if (json_object_set_new(root, "feasible", json_boolean(feasible)) ||
      json_object_set(root, "buckets", arr))
    goto done;
  char *dumped = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
  if (dumped) {
    size_t n = strlen(dumped);
    if ((out = acMalloc(n + 2))) {
      memcpy(out, dumped, n);
      out[n] = '\n', out[n + 1] = '\0';
    }
    free(dumped);
  }
done:
  json_decref(arr);
  json_decref(root);
  return out;
}

/* The options the setup refuses with buckets. */
static AcStatus acBucketOptionsCheck(MlirOperation module, const AcOptions *opts) {
  const char *what = opts->planIn ? "plan-in" : opts->planOut ? "plan-out"
                     : opts->mode == AC_MODE_ANNOTATE ? "mode=annotate" : NULL;
  if (!what)
    return AC_OK;
  char msg[256];
  snprintf(msg, sizeof msg, "autoac: option 'buckets' does not go with '%s' "
           "(one plan per bucket, each rewritten in split mode)", what);
  return acBucketError(mlirOperationGetLocation(module), msg);
}

/* Plans and rewrites bucket k's copy of `module`, every bucketed
 * dimension bounded by its upper size in the bucket. */
static AcStatus acPlanBucket(MlirOperation module, const AcOptions *opts,
                             const AcBucketDims *dims, const char *fname,
                             AcBucket *bk, intptr_t k, double timeLimit,
                             AcFileSet *files) {
  AcOptions o = *opts;
  o.buckets = NULL, o.report = NULL, o.planOut = NULL;
  o.timeLimit = timeLimit;
  bk->module = mlirOperationClone(module);
  for (intptr_t d = 0; d < dims->nd; ++d)
    acSetArgBound(acFuncByName(bk->module, fname), &dims->sp[d], dims->rank[d],
                  bk->upper[d]);
  AcStatus st = acRunSinglePlan(bk->module, &o, &bk->report, files);
  if (st != AC_OK || !bk->report)
    return st != AC_OK ? st : AC_ERR_INTERNAL;
  json_error_t je;
  json_t *r = json_loads(bk->report, 0, &je);
  if (opts->budget >= 0 && r && !json_is_true(json_object_get(r, "feasible"))) {
    char which[512] = "", at[256] = "", msg[1024];
    for (intptr_t d = 0; d < dims->nd; ++d) {
      size_t w = strlen(which), a = strlen(at);
      snprintf(which + w, sizeof which - w, "%s%s (sizes %" PRId64 " to %" PRId64 ")",
               d ? ", " : "", dims->arg[d], bk->lower[d], bk->upper[d]);
      snprintf(at + a, sizeof at - a, "%s%" PRId64, d ? ", " : "", bk->upper[d]);
    }
    snprintf(msg, sizeof msg, "autoac: bucket %ld of %s: the budget is not met "
             "at size%s %s (peak %" PRId64 " bytes); its best plan is applied",
             (long)k, which, dims->nd > 1 ? "s" : "", at,
             (int64_t)json_integer_value(json_object_get(r, "peak_bytes")));
    acEmitDiagnostic(mlirOperationGetLocation(acFuncByName(module, fname)), 1, msg);
  }
  json_decref(r);
  return AC_OK;
}

/* Checks the bucketed dimensions against joint function `f` of `module`
 * (each a dynamic dimension, with a bound, tied to a symbol of its own, no
 * bucket bound above it) and fills the rest of `dims`; the number of
 * buckets into *cells.  Errors are emitted. */
static AcStatus acBucketDimsCheck(MlirOperation module, MlirOperation f,
                                  const char *fname, const AcOptions *opts,
                                  AcBucketDims *dims, intptr_t *cells) {
  char msg[768];
  AcStatus st = AC_OK;
  *cells = 1;
  for (intptr_t d = 0; d < dims->nd && st == AC_OK; ++d) {
    AcBucketSpec *sp = &dims->sp[d];
    snprintf(dims->arg[d], sizeof dims->arg[d], "arg%d.%d", sp->arg, sp->dim);
    if ((st = acCheckBucketDim(f, sp, fname, &dims->rank[d])) != AC_OK ||
        (st = acBucketSymbolBound(module, opts, sp, &dims->bound[d], dims->sym[d],
                                  sizeof dims->sym[d])) != AC_OK)
      break;
    for (intptr_t e = 0; e < d && st == AC_OK; ++e)
      if (strcmp(dims->sym[e], dims->sym[d]) == 0) {
        snprintf(msg, sizeof msg, "autoac: option 'buckets' names %s and %s, "
                 "which are one shape symbol (%s): bucket one of them",
                 dims->arg[e], dims->arg[d], dims->sym[d]);
        st = acBucketError(mlirOperationGetLocation(f), msg);
      }
    if (st == AC_OK && sp->bounds[sp->n - 1] > dims->bound[d]) {
      snprintf(msg, sizeof msg, "autoac: option 'buckets': bound %" PRId64
               " is above %s's own bound %" PRId64 " (ac.max_shape or max-dim)",
               sp->bounds[sp->n - 1], dims->arg[d], dims->bound[d]);
      st = acBucketError(mlirOperationGetLocation(f), msg);
    }
    /* Sizes above the last bound up to the dimension's own: one more. */
    dims->nb[d] = sp->n + (sp->bounds[sp->n - 1] < dims->bound[d]);
    if (st == AC_OK && *cells * dims->nb[d] > AC_BUCKET_MAX_CELLS) {
      snprintf(msg, sizeof msg, "autoac: option 'buckets' makes more than %d "
               "buckets (each a plan of its own): use fewer bounds",
               AC_BUCKET_MAX_CELLS);
      st = acBucketError(mlirOperationGetLocation(f), msg);
    }
    *cells *= dims->nb[d];
  }
  return st;
}

/* Bucket k's sizes: its index in each dimension (row-major, the last
 * dimension fastest) and that bucket's lower and upper sizes. */
static void acBucketSizes(const AcBucketDims *dims, intptr_t k, AcBucket *bk) {
  for (intptr_t d = dims->nd - 1; d >= 0; --d) {
    intptr_t i = k % dims->nb[d];
    k /= dims->nb[d];
    const AcBucketSpec *sp = &dims->sp[d];
    bk->lower[d] = i ? sp->bounds[i - 1] + 1 : 1;
    bk->upper[d] = i < sp->n ? sp->bounds[i] : dims->bound[d];
  }
}

AcStatus acRunBuckets(MlirOperation module, const AcOptions *opts,
                      char **reportOut, AcFileSet *files) {
  AcBucketDims dims;
  AcError err;
  AcBucket *bk = NULL;
  intptr_t nb = 0, count = 0;
  char fname[256], msg[768];
  memset(&dims, 0, sizeof dims);
  acErrorClear(&err);
  MlirLocation mloc = mlirOperationGetLocation(module);
  AcStatus st = acBucketSpecParse(opts->buckets, dims.sp, &dims.nd, &err);
  if (st != AC_OK) {
    mlirEmitError(mloc, err.message);
    return st;
  }
  if ((st = acBucketOptionsCheck(module, opts)) != AC_OK)
    goto cleanup;
  MlirOperation f = acJointFunc(module, &count);
  if (count != 1) {
    snprintf(msg, sizeof msg, "autoac: option 'buckets' needs exactly one "
             "ac.joint function; the module has %ld", (long)count);
    st = acBucketError(mloc, msg);
    goto cleanup;
  }
  acFuncName(f, fname, sizeof fname);
  if ((st = acBucketDimsCheck(module, f, fname, opts, &dims, &nb)) != AC_OK)
    goto cleanup;
  if (!(bk = acCalloc((size_t)nb, sizeof *bk))) {
    st = AC_ERR_NOMEM;
    mlirEmitError(mloc, "autoac: out of memory");
    goto cleanup;
  }
  /* A time limit is the whole run's: each bucket gets an equal share of
     what is left of it. */
  double start = acWallSeconds();
  for (intptr_t k = 0; k < nb && st == AC_OK; ++k) {
    acBucketSizes(&dims, k, &bk[k]);
    double limit = 0;
    if (opts->timeLimit > 0) {
      limit = (opts->timeLimit - (acWallSeconds() - start)) / (double)(nb - k);
      if (limit < 1e-3)
        limit = 1e-3;
    }
    st = acPlanBucket(module, opts, &dims, fname, &bk[k], k, limit, files);
  }
  if (st != AC_OK)
    goto cleanup;
  /* Each copy holds its step and pair (the split made them). */
  for (intptr_t k = 0; k < nb; ++k)
    if (mlirOperationIsNull(acFuncByName(bk[k].module, fname))) {
      st = AC_ERR_INTERNAL;
      mlirEmitError(mloc, "autoac: internal error: a bucket's split made no step");
      goto cleanup;
    }
  /* Everything that can fail for the input is done: assemble. */
  mlirContextGetOrLoadDialect(mlirOperationGetContext(module), SREF("arith"));
  mlirContextGetOrLoadDialect(mlirOperationGetContext(module), SREF("tensor"));
  mlirContextGetOrLoadDialect(mlirOperationGetContext(module), SREF("scf"));
  MlirSymbolTable table = mlirSymbolTableCreate(module);
  MlirOperation after = f;
  for (intptr_t k = 0; k < nb; ++k)
    acMoveHalves(&bk[k], k, fname, module, table, &after);
  mlirSymbolTableDestroy(table);
  st = acBuildDispatch(f, &dims, bk, nb, &err);
  /* The report names the functions: made after they are. */
  char *report = NULL;
  if (st == AC_OK && (opts->report || reportOut) &&
      !(report = acBucketsReport(bk, nb, &dims)))
    st = acErrorSet(&err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "autoac: out of memory while building the report");
  if (st == AC_OK && !mlirOperationVerify(module))
    st = acErrorSet(&err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                    "autoac: internal error: the bucket dispatch does not verify");
  if (st == AC_OK && report && opts->report)
    st = acFileSetAdd(files, opts->report, report, strlen(report), &err);
  if (st != AC_OK) {
    mlirEmitError(mloc, err.message);
    acFree(report);
    goto cleanup;
  }
  if (reportOut)
    *reportOut = report;
  else
    acFree(report);
cleanup:
  for (intptr_t k = 0; k < nb && bk; ++k) {
    if (!mlirOperationIsNull(bk[k].module))
      mlirOperationDestroy(bk[k].module);
    acFree(bk[k].report);
  }
  acFree(bk);
  acBucketSpecClear(dims.sp, dims.nd);
  return st;
}
