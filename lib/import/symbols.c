/* symbols.c - dynamic dimensions tied into shape symbols (symbols.h): the
 * option, the analysis of a function and the queries.
 *
 * Every top-level value of an analysed function gets nodes: one per
 * dimension of a ranked tensor (a static dimension knows its size), one for
 * a scalar (index, integer, `!torch.int`) that may carry a size.  The ops'
 * shape rules unite nodes (union-find, symbol_nodes.c); a class is then a
 * constant, or a symbol with a bound.  The rules (symbol_rules.c) only ever unite sizes
 * that are equal at run time, so a class never mixes two different sizes;
 * a rule that does not apply ties nothing, and a dimension tied to nothing
 * needs a bound of its own (the option's `N`). */
#include "import/ir.h"
#include "import/symbols_internal.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*===----------------------------- analysis -------------------------------===*/

/* Bounds of argument `i` (node base b, rank r): ac.max_shape and the named
 * option entries. */
static AcStatus acArgBounds(AcSymbols *s, MlirOperation func, const char *fname,
                            intptr_t i, int32_t b, int32_t r, AcError *err,
                            MlirLocation *errLoc) {
  MlirAttribute argAttrs = mlirOperationGetAttributeByName(func, acSymStr("arg_attrs"));
  MlirAttribute ms = {NULL};
  if (!mlirAttributeIsNull(argAttrs) && i < mlirArrayAttrGetNumElements(argAttrs))
    ms = mlirDictionaryAttrGetElementByName(mlirArrayAttrGetElement(argAttrs, i),
                                            acSymStr("ac.max_shape"));
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
    int32_t x = acSymFind(s, b + d);
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
    if ((st = acSymAddValue(s, a)) != AC_OK)
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
      st = acSymAddValue(s, mlirOperationGetResult(op, r));
    if (st == AC_OK)
      acSymRuleOp(s, op);
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
    const AcDimNode *n = &s->nodes[acSymFindConst(s, b + d)];
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
  int r = acSymTypeShape(mlirValueGetType(v), dims, &eb, &scalar);
  AcMono m;
  memset(&m, 0, sizeof m);
  m.coef = eb;
  int any = 0;
  for (int d = 0; d < r; ++d) {
    const AcDimNode *n = &s->nodes[acSymFindConst(s, b + d)];
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
