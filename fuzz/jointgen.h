/* jointgen.h - fuzz bytes -> a random joint forward+backward module in MLIR
 * text (torch-mlir style, generic op form), plus random autoac options.
 *
 * The module has one to three `ac.joint` functions (sometimes a plain
 * function beside them and an `ac.schedule`), each with primal, `ac.param`
 * and `ac.tangent` arguments; a forward part over primals and params ending
 * in a loss returned `ac.output`; a backward part that starts from a tangent
 * and may read any forward value, returning gradients.  Ops come from a menu
 * of torch ops (mm, relu, add.Tensor, mul.Tensor, view, t, detach,
 * bernoulli_.float, sum, native_layer_norm with three results,
 * native_dropout, constants and list constructs), unknown ops, ops with a
 * region capturing values, ops without results, and destination-style
 * linalg ops (jgDps: `linalg.add` into a `tensor.empty`, sometimes through
 * a `linalg.fill`, or into a shared init) for the simulator's in-place rule.  Shapes are small and
 * mostly consistent (mm contracts matching dims when it can find them); a few
 * bytes turn on rarer things: zero and huge dimensions, dynamic dimensions,
 * odd dtypes, non-tensor types, builtin tensor types, ac.save / ac.recompute
 * / ac.phase marks (possibly contradictory), bad schedules.  Every module
 * parses (the generic form does not check torch semantics); many are
 * rejected by autoac, which is fine: it must fail cleanly.
 *
 * Header-only so that the fuzz target and the regression test share it. */
#ifndef AUTOAC_FUZZ_JOINTGEN_H
#define AUTOAC_FUZZ_JOINTGEN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===------------------------------ bytes -------------------------------===*/

typedef struct JgBytes {
  const uint8_t *data;
  size_t size, pos;
} JgBytes;

/* A number in [0, n) from the next byte(s); 0 once the bytes run out. */
static unsigned jgTake(JgBytes *b, unsigned n) {
  if (n <= 1)
    return 0;
  unsigned v = 0;
  if (b->pos < b->size)
    v = b->data[b->pos++];
  if (n > 256 && b->pos < b->size)
    v = v << 8 | b->data[b->pos++];
  return v % n;
}

/* True with probability about k/256. */
static int jgChance(JgBytes *b, unsigned k) { return jgTake(b, 256) < k; }

/*===------------------------------ text --------------------------------===*/

typedef struct JgText {
  char *data;
  size_t len, cap;
  int failed;
} JgText;

static void jgPrintf(JgText *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void jgPrintf(JgText *t, const char *fmt, ...) {
  if (t->failed)
    return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->data ? t->data + t->len : NULL,
                      t->data ? t->cap - t->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
      t->failed = 1;
      return;
    }
    if (t->data && t->len + (size_t)n < t->cap) {
      t->len += (size_t)n;
      return;
    }
    size_t cap = t->cap ? t->cap * 2 : 4096;
    while (cap <= t->len + (size_t)n)
      cap *= 2;
    char *q = realloc(t->data, cap);
    if (!q) {
      t->failed = 1;
      return;
    }
    t->data = q;
    t->cap = cap;
  }
}

/*===------------------------------ types -------------------------------===*/

enum {
  JG_VTENSOR = 0, /* !torch.vtensor<[...],dtype> */
  JG_TENSOR,      /* builtin tensor<AxBxf32> */
  JG_INT,         /* !torch.int */
  JG_FLOAT,       /* !torch.float */
  JG_NONE,        /* !torch.none */
  JG_BOOL,        /* !torch.bool */
  JG_LIST,        /* !torch.list<int> */
  JG_UNRANKED     /* !torch.vtensor (no shape): rejected by import */
};

#define JG_MAX_RANK 4

typedef struct JgType {
  int kind;
  int rank;
  int64_t dims[JG_MAX_RANK]; /* -1: dynamic ('?') */
  const char *dtype;
} JgType;

static const char *const jgDtypes[] = {"f32", "f32", "f32", "bf16", "f16",
                                       "si64", "i1", "f64", "ui8",
                                       "f8E4M3FN", "complex<f32>", "!torch.qint8"};

static int jgIsTensor(const JgType *t) {
  return t->kind == JG_VTENSOR || t->kind == JG_TENSOR;
}

static void jgPrintType(JgText *o, const JgType *t) {
  switch (t->kind) {
  case JG_INT: jgPrintf(o, "!torch.int"); return;
  case JG_FLOAT: jgPrintf(o, "!torch.float"); return;
  case JG_NONE: jgPrintf(o, "!torch.none"); return;
  case JG_BOOL: jgPrintf(o, "!torch.bool"); return;
  case JG_LIST: jgPrintf(o, "!torch.list<int>"); return;
  case JG_UNRANKED: jgPrintf(o, "!torch.vtensor"); return;
  case JG_TENSOR:
    jgPrintf(o, "tensor<");
    for (int i = 0; i < t->rank; ++i) {
      if (t->dims[i] < 0)
        jgPrintf(o, "?x");
      else
        jgPrintf(o, "%lldx", (long long)t->dims[i]);
    }
    jgPrintf(o, "f32>");
    return;
  default:
    jgPrintf(o, "!torch.vtensor<[");
    for (int i = 0; i < t->rank; ++i) {
      if (t->dims[i] < 0)
        jgPrintf(o, "%s?", i ? "," : "");
      else
        jgPrintf(o, "%s%lld", i ? "," : "", (long long)t->dims[i]);
    }
    jgPrintf(o, "],%s>", t->dtype);
  }
}

/*===------------------------------ module ------------------------------===*/

#define JG_MAX_VALUES 512

typedef struct JgValue {
  char name[24];   /* "%v12", "%v12#1", "%a3" */
  JgType type;
  int phase;       /* 0 forward (primals, params, forward results), 1 backward */
  int isTangent;
} JgValue;

typedef struct JgGen {
  JgBytes *in;
  JgText *out;
  JgValue vals[JG_MAX_VALUES];
  int numVals;
  int nextId;
  int chaos;       /* rarer constructs enabled */
  int numFuncs;
  char funcNames[4][400];  /* as written after '@' and in ac.schedule
                              strings: "f0", or with chaos a 300-byte name,
                              or a quoted one holding \00, \FF or \C3\A9 */
  int funcQuoted[4];       /* the name needs quotes after '@' */
} JgGen;

/* Picks function `index`'s name (before the schedule names it). */
static void jgFuncName(JgGen *g, int index) {
  char *n = g->funcNames[index];
  size_t cap = sizeof g->funcNames[index];
  g->funcQuoted[index] = 0;
  snprintf(n, cap, "f%d", index);
  if (!g->chaos || !jgChance(g->in, 6))
    return;
  switch (jgTake(g->in, 4)) {
  case 0: /* long: names were cut at 255 bytes */
    snprintf(n, cap, "f%d%0300d", index, 0);
    break;
  case 1: /* a NUL inside: refused */
    snprintf(n, cap, "f%d\\00x", index);
    g->funcQuoted[index] = 1;
    break;
  case 2: /* not UTF-8: refused */
    snprintf(n, cap, "f%d\\FF", index);
    g->funcQuoted[index] = 1;
    break;
  default: /* valid UTF-8 (e with an acute accent) */
    snprintf(n, cap, "f%d\\C3\\A9", index);
    g->funcQuoted[index] = 1;
    break;
  }
}

static int64_t jgDim(JgGen *g) {
  static const int64_t small[] = {1, 2, 3, 4, 4, 8, 8, 16, 16, 32, 64, 5};
  if (g->chaos && jgChance(g->in, 6)) {
    static const int64_t odd[] = {0, -1, 1LL << 20, 1LL << 31, 1LL << 40,
                                  4611686018427387904LL, 9223372036854775807LL};
    return odd[jgTake(g->in, sizeof odd / sizeof odd[0])];
  }
  return small[jgTake(g->in, sizeof small / sizeof small[0])];
}

static JgType jgRandomTensor(JgGen *g) {
  JgType t;
  memset(&t, 0, sizeof t);
  t.kind = JG_VTENSOR;
  t.dtype = "f32";
  t.rank = 2;
  if (jgChance(g->in, 40))
    t.rank = (int)jgTake(g->in, JG_MAX_RANK + 1);
  for (int i = 0; i < t.rank; ++i)
    t.dims[i] = jgDim(g);
  if (g->chaos) {
    if (jgChance(g->in, 20))
      t.dtype = jgDtypes[jgTake(g->in, sizeof jgDtypes / sizeof jgDtypes[0])];
    if (jgChance(g->in, 10))
      t.kind = JG_TENSOR;
    if (jgChance(g->in, 2))
      t.kind = JG_UNRANKED;
  }
  return t;
}

static JgType jgScalar(int kind) {
  JgType t;
  memset(&t, 0, sizeof t);
  t.kind = kind;
  t.dtype = "f32";
  return t;
}

static JgValue *jgNewValue(JgGen *g, const char *name, JgType t, int phase) {
  if (g->numVals >= JG_MAX_VALUES)
    return NULL;
  JgValue *v = &g->vals[g->numVals++];
  snprintf(v->name, sizeof v->name, "%s", name);
  v->type = t;
  v->phase = phase;
  v->isTangent = 0;
  return v;
}

/* A value usable by an op of `phase`: forward ops read forward values only
 * (mostly: chaos lets a forward op read a backward one). */
static const JgValue *jgPick(JgGen *g, int phase, int wantTensor) {
  int cand[JG_MAX_VALUES], n = 0;
  for (int i = 0; i < g->numVals; ++i) {
    const JgValue *v = &g->vals[i];
    if (v->phase > phase && !(g->chaos && jgChance(g->in, 4)))
      continue;
    if (wantTensor && !jgIsTensor(&v->type))
      continue;
    cand[n++] = i;
  }
  if (n == 0)
    return NULL;
  /* Prefer recent values: long chains, like real graphs. */
  unsigned k = jgTake(g->in, 4) == 0 ? jgTake(g->in, (unsigned)n)
                                     : (unsigned)n - 1 - jgTake(g->in, n < 6 ? (unsigned)n : 6u);
  return &g->vals[cand[k]];
}

/* A tensor whose first dim is `k` (for mm), else any tensor. */
static const JgValue *jgPickRows(JgGen *g, int phase, int64_t k) {
  for (int i = g->numVals - 1; i >= 0; --i) {
    const JgValue *v = &g->vals[i];
    if (v->phase <= phase && v->type.kind == JG_VTENSOR && v->type.rank == 2 &&
        v->type.dims[0] == k && jgChance(g->in, 160))
      return v;
  }
  return jgPick(g, phase, 1);
}

static void jgOperandList(JgGen *g, const JgValue **ops, int n) {
  jgPrintf(g->out, "(");
  for (int i = 0; i < n; ++i)
    jgPrintf(g->out, "%s%s", i ? ", " : "", ops[i]->name);
  jgPrintf(g->out, ")");
}

static void jgTypeList(JgGen *g, const JgValue **ops, int n) {
  jgPrintf(g->out, "(");
  for (int i = 0; i < n; ++i) {
    if (i)
      jgPrintf(g->out, ", ");
    jgPrintType(g->out, &ops[i]->type);
  }
  jgPrintf(g->out, ")");
}

/* A constant op of a torch scalar kind; returns its value. */
static const JgValue *jgConstant(JgGen *g, int kind, int phase) {
  char name[24];
  snprintf(name, sizeof name, "%%c%d", g->nextId++);
  JgValue *v = jgNewValue(g, name, jgScalar(kind), phase);
  if (!v)
    return NULL;
  switch (kind) {
  case JG_INT:
    jgPrintf(g->out, "    %s = \"torch.constant.int\"() {value = %u : i64} : () -> !torch.int\n",
             name, jgTake(g->in, 4));
    break;
  case JG_FLOAT:
    jgPrintf(g->out, "    %s = \"torch.constant.float\"() {value = 5.000000e-01 : f64} : () -> !torch.float\n", name);
    break;
  case JG_BOOL:
    jgPrintf(g->out, "    %s = \"torch.constant.bool\"() {value = true} : () -> !torch.bool\n", name);
    break;
  default:
    jgPrintf(g->out, "    %s = \"torch.constant.none\"() : () -> !torch.none\n", name);
  }
  return v;
}

/* Optional discardable attributes on an op. */
static void jgMarks(JgGen *g, int phase) {
  int save = jgChance(g->in, 8), rec = jgChance(g->in, 8);
  int ph = g->chaos && jgChance(g->in, 10);
  if (!save && !rec && !ph)
    return;
  jgPrintf(g->out, " {");
  const char *sep = "";
  if (save) {
    jgPrintf(g->out, "ac.save");
    sep = ", ";
  }
  if (rec && (!save || g->chaos)) {
    /* false is no request, true is one, other values are refused. */
    static const char *const values[] = {"", " = true", " = false", " = 1 : i64"};
    jgPrintf(g->out, "%sac.recompute%s", sep,
             values[g->chaos ? jgTake(g->in, 4) : jgTake(g->in, 3)]);
    sep = ", ";
  }
  if (ph) {
    static const char *const names[] = {"fwd", "bwd", "sideways"};
    unsigned k = jgChance(g->in, 200) ? (unsigned)phase : jgTake(g->in, 3);
    jgPrintf(g->out, "%sac.phase = \"%s\"", sep, names[k]);
  }
  jgPrintf(g->out, "}");
}

/* A destination-style op (linalg's `outs`, written in place of its init
 * when nothing reads the init later): `linalg.add` of `a` (made a builtin
 * f32 tensor first when it is a torch one) with itself, into a fresh
 * `tensor.empty`, sometimes written by a `linalg.fill` first, or into an
 * existing builtin tensor of its type (a shared init).  0 when `a` has no
 * static f32 shape. */
static int jgDps(JgGen *g, const JgValue *a, int phase) {
  JgType bt = a->type;
  if (!jgIsTensor(&bt) || bt.rank < 1 || (bt.dtype && strcmp(bt.dtype, "f32") != 0))
    return 0;
  for (int i = 0; i < bt.rank; ++i)
    if (bt.dims[i] < 0 || bt.dims[i] > 64)
      return 0;
  bt.kind = JG_TENSOR;
  bt.dtype = "f32";
  int id = g->nextId++;
  char name[24];
  const JgValue *b = a;
  if (a->type.kind != JG_TENSOR) {
    snprintf(name, sizeof name, "%%b%d", id);
    jgPrintf(g->out, "    %s = \"torch_c.to_builtin_tensor\"(%s) : (", name, a->name);
    jgPrintType(g->out, &a->type);
    jgPrintf(g->out, ") -> ");
    jgPrintType(g->out, &bt);
    jgPrintf(g->out, "\n");
    if (!(b = jgNewValue(g, name, bt, phase)))
      return 0;
  }
  /* The init: an existing builtin tensor of this type (shared), or fresh. */
  const JgValue *init = NULL;
  if (jgChance(g->in, 48))
    for (int i = g->numVals - 1; i >= 0 && !init; --i) {
      const JgValue *v = &g->vals[i];
      if (v != b && v->phase <= phase && v->type.kind == JG_TENSOR &&
          v->type.rank == bt.rank &&
          memcmp(v->type.dims, bt.dims, sizeof bt.dims[0] * (size_t)bt.rank) == 0)
        init = v;
    }
  if (!init) {
    snprintf(name, sizeof name, "%%e%d", id);
    jgPrintf(g->out, "    %s = \"tensor.empty\"() : () -> ", name);
    jgPrintType(g->out, &bt);
    jgPrintf(g->out, "\n");
    if (!(init = jgNewValue(g, name, bt, phase)))
      return 0;
    if (jgChance(g->in, 100)) {
      snprintf(name, sizeof name, "%%z%d", id);
      jgPrintf(g->out,
               "    %%k%d = \"arith.constant\"() <{value = 0.000000e+00 : f32}> : () -> f32\n"
               "    %s = \"linalg.fill\"(%%k%d, %s) <{operandSegmentSizes = array<i32: 1, 1>}> ({\n"
               "    ^bb0(%%fi%d: f32, %%fo%d: f32):\n"
               "      \"linalg.yield\"(%%fi%d) : (f32) -> ()\n"
               "    }) : (f32, ",
               id, name, id, init->name, id, id, id);
      jgPrintType(g->out, &bt);
      jgPrintf(g->out, ") -> ");
      jgPrintType(g->out, &bt);
      jgPrintf(g->out, "\n");
      if (!(init = jgNewValue(g, name, bt, phase)))
        return 0;
    }
  }
  snprintf(name, sizeof name, "%%d%d", id);
  jgPrintf(g->out,
           "    %s = \"linalg.add\"(%s, %s, %s) <{operandSegmentSizes = array<i32: 2, 1>}> ({\n"
           "    ^bb0(%%x%d: f32, %%y%d: f32, %%o%d: f32):\n"
           "      %%s%d = \"arith.addf\"(%%x%d, %%y%d) : (f32, f32) -> f32\n"
           "      \"linalg.yield\"(%%s%d) : (f32) -> ()\n"
           "    })",
           name, b->name, b->name, init->name, id, id, id, id, id, id, id);
  jgMarks(g, phase);
  jgPrintf(g->out, " : (");
  jgPrintType(g->out, &bt);
  jgPrintf(g->out, ", ");
  jgPrintType(g->out, &bt);
  jgPrintf(g->out, ", ");
  jgPrintType(g->out, &bt);
  jgPrintf(g->out, ") -> ");
  jgPrintType(g->out, &bt);
  jgPrintf(g->out, "\n");
  return jgNewValue(g, name, bt, phase) != NULL;
}

/* Emits one op of `phase`.  Returns 0 when no operand could be found. */
static int jgOp(JgGen *g, int phase) {
  const JgValue *ops[6];
  int nops = 0, nres = 1;
  JgType res[3];
  const char *name;
  char opName[48];
  const JgValue *a = jgPick(g, phase, 1);
  if (!a)
    return 0;
  JgType ta = a->type;
  res[0] = ta;
  unsigned which = jgTake(g->in, 24);
  if (which >= 22 && jgDps(g, a, phase))
    return 1;
  switch (which) {
  case 0: case 1: case 2: { /* mm */
    int64_t k = ta.rank == 2 ? ta.dims[1] : 4;
    const JgValue *b = jgPickRows(g, phase, k);
    if (!b)
      b = a;
    name = "torch.aten.mm";
    ops[nops++] = a;
    ops[nops++] = b;
    res[0] = ta;
    res[0].kind = JG_VTENSOR;
    res[0].rank = 2;
    res[0].dims[0] = ta.rank >= 1 ? ta.dims[0] : 4;
    res[0].dims[1] = b->type.rank == 2 ? b->type.dims[1] : jgDim(g);
    if (!ta.dtype)
      res[0].dtype = "f32";
    break;
  }
  case 3: case 4: name = "torch.aten.relu"; ops[nops++] = a; break;
  case 5: name = phase ? "torch.aten.threshold_backward" : "torch.aten.gelu";
    ops[nops++] = a;
    if (phase) {
      ops[nops++] = jgPick(g, phase, 1);
      ops[nops++] = jgConstant(g, JG_INT, phase);
    }
    break;
  case 6: case 7: { /* add.Tensor(a, b, alpha) */
    name = "torch.aten.add.Tensor";
    ops[nops++] = a;
    ops[nops++] = jgPick(g, phase, 1);
    ops[nops++] = jgConstant(g, JG_INT, phase);
    break;
  }
  case 8: case 9: name = "torch.aten.mul.Tensor";
    ops[nops++] = a;
    ops[nops++] = jgPick(g, phase, 1);
    break;
  case 10: { /* view(a, list) */
    const JgValue *c1 = jgConstant(g, JG_INT, phase);
    const JgValue *c2 = jgConstant(g, JG_INT, phase);
    char ln[24];
    snprintf(ln, sizeof ln, "%%l%d", g->nextId++);
    JgValue *l = jgNewValue(g, ln, jgScalar(JG_LIST), phase);
    if (!c1 || !c2 || !l)
      return 0;
    jgPrintf(g->out, "    %s = \"torch.prim.ListConstruct\"(%s, %s) : (!torch.int, !torch.int) -> !torch.list<int>\n",
             ln, c1->name, c2->name);
    name = "torch.aten.view";
    ops[nops++] = a;
    ops[nops++] = l;
    res[0].rank = 1;
    int64_t n = 1;
    for (int i = 0; i < ta.rank; ++i)
      n = ta.dims[i] >= 0 && ta.dims[i] < (1LL << 20) && n < (1LL << 20) ? n * ta.dims[i] : ta.dims[i];
    res[0].dims[0] = n;
    if (jgChance(g->in, 100)) {
      res[0].rank = 2;
      res[0].dims[1] = 1;
    }
    break;
  }
  case 11: name = "torch.aten.t";
    ops[nops++] = a;
    if (ta.rank == 2) {
      res[0].dims[0] = ta.dims[1];
      res[0].dims[1] = ta.dims[0];
    }
    break;
  case 12: name = "torch.aten.detach"; ops[nops++] = a; break;
  case 13: { /* bernoulli_.float(a, p, gen): in place, random */
    name = "torch.aten.bernoulli_.float";
    ops[nops++] = a;
    ops[nops++] = jgConstant(g, JG_FLOAT, phase);
    ops[nops++] = jgConstant(g, JG_NONE, phase);
    break;
  }
  case 14: /* sum(a, dtype none) -> scalar tensor */
    name = "torch.aten.sum";
    ops[nops++] = a;
    ops[nops++] = jgConstant(g, JG_NONE, phase);
    res[0].rank = 0;
    break;
  case 15: { /* native_layer_norm: three results */
    name = phase ? "torch.aten.native_layer_norm_backward" : "torch.aten.native_layer_norm";
    ops[nops++] = a;
    const JgValue *w = jgPick(g, phase, 1);
    ops[nops++] = w;
    ops[nops++] = jgConstant(g, JG_FLOAT, phase);
    nres = 3;
    res[1] = ta;
    res[2] = ta;
    if (ta.rank >= 1) {
      res[1].dims[ta.rank - 1] = 1;
      res[2].dims[ta.rank - 1] = 1;
    }
    break;
  }
  case 16: /* native_dropout(a, p, train) -> (a, mask) */
    name = "torch.aten.native_dropout";
    ops[nops++] = a;
    ops[nops++] = jgConstant(g, JG_FLOAT, phase);
    ops[nops++] = jgConstant(g, JG_BOOL, phase);
    nres = 2;
    res[1] = ta;
    res[1].dtype = "i1";
    break;
  case 17: { /* unknown op, random arity and result */
    snprintf(opName, sizeof opName, "%s.op%u", jgChance(g->in, 128) ? "foo" : "torch.aten.mystery",
             jgTake(g->in, 4));
    name = opName;
    ops[nops++] = a;
    int more = (int)jgTake(g->in, 3);
    for (int i = 0; i < more; ++i)
      ops[nops++] = jgPick(g, phase, 0);
    nres = (int)jgTake(g->in, 3);
    for (int i = 0; i < nres; ++i)
      res[i] = jgChance(g->in, 200) ? ta : jgRandomTensor(g);
    break;
  }
  case 18: { /* an op with a region that captures values */
    const JgValue *cap = jgPick(g, phase, 1);
    if (!cap)
      return 0;
    char id[24];
    snprintf(id, sizeof id, "%%v%d", g->nextId++);
    JgValue *v = jgNewValue(g, id, ta, phase);
    if (!v)
      return 0;
    jgPrintf(g->out, "    %s = \"test.wrap\"(%s) ({\n    ^bb0(%%inner: ", id, a->name);
    jgPrintType(g->out, &ta);
    jgPrintf(g->out, "):\n      \"test.use\"(%%inner, %s) : (", cap->name);
    jgPrintType(g->out, &ta);
    jgPrintf(g->out, ", ");
    jgPrintType(g->out, &cap->type);
    jgPrintf(g->out, ") -> ()\n      \"test.yield\"() : () -> ()\n    })");
    jgMarks(g, phase);
    jgPrintf(g->out, " : (");
    jgPrintType(g->out, &ta);
    jgPrintf(g->out, ") -> ");
    jgPrintType(g->out, &ta);
    jgPrintf(g->out, "\n");
    return 1;
  }
  case 19: /* no results: a side effect */
    name = "test.print";
    ops[nops++] = a;
    nres = 0;
    break;
  case 20: /* an in-place copy */
    name = "torch.aten.copy_";
    ops[nops++] = a;
    ops[nops++] = jgPick(g, phase, 1);
    ops[nops++] = jgConstant(g, JG_BOOL, phase);
    break;
  default: /* softmax-like reduction */
    name = phase ? "torch.aten._softmax_backward_data" : "torch.aten._softmax";
    ops[nops++] = a;
    ops[nops++] = jgConstant(g, JG_INT, phase);
    ops[nops++] = jgConstant(g, JG_BOOL, phase);
    break;
  }
  for (int i = 0; i < nops; ++i)
    if (!ops[i])
      return 0;
  char id[24];
  int base = g->nextId++;
  snprintf(id, sizeof id, "%%v%d", base);
  if (nres == 1) {
    if (!jgNewValue(g, id, res[0], phase))
      return 0;
    jgPrintf(g->out, "    %s = ", id);
  } else if (nres > 1) {
    for (int r = 0; r < nres; ++r) {
      char rn[24];
      snprintf(rn, sizeof rn, "%%v%d#%d", base, r);
      if (!jgNewValue(g, rn, res[r], phase))
        return 0;
    }
    jgPrintf(g->out, "    %s:%d = ", id, nres);
  } else {
    jgPrintf(g->out, "    ");
  }
  jgPrintf(g->out, "\"%s\"", name);
  jgOperandList(g, ops, nops);
  jgMarks(g, phase);
  jgPrintf(g->out, " : ");
  jgTypeList(g, ops, nops);
  jgPrintf(g->out, " -> ");
  if (nres == 1) {
    jgPrintType(g->out, &res[0]);
  } else {
    jgPrintf(g->out, "(");
    for (int r = 0; r < nres; ++r) {
      if (r)
        jgPrintf(g->out, ", ");
      jgPrintType(g->out, &res[r]);
    }
    jgPrintf(g->out, ")");
  }
  jgPrintf(g->out, "\n");
  return 1;
}

/* One joint function. */
static void jgFunction(JgGen *g, int index) {
  JgText *o = g->out;
  g->numVals = 0;
  int primals = 1 + (int)jgTake(g->in, 3), params = (int)jgTake(g->in, 5);
  int tangents = 1 + (int)jgTake(g->in, 2);
  int fwdOps = 1 + (int)jgTake(g->in, 40), bwdOps = 1 + (int)jgTake(g->in, 40);
  /* Arguments: primals, params, tangents (sometimes shuffled by chaos). */
  jgPrintf(o, g->funcQuoted[index] ? "  func.func @\"%s\"(" : "  func.func @%s(",
           g->funcNames[index]);
  int argNo = 0;
  for (int kind = 0; kind < 3; ++kind) {
    int n = kind == 0 ? primals : kind == 1 ? params : tangents;
    for (int i = 0; i < n; ++i) {
      char name[24];
      snprintf(name, sizeof name, "%%a%d", argNo);
      JgType t = jgRandomTensor(g);
      if (kind == 2 && jgChance(g->in, 128))
        t.rank = 0;
      if (g->chaos && jgChance(g->in, 8))
        t = jgScalar(JG_INT);
      JgValue *v = jgNewValue(g, name, t, kind == 2);
      if (!v)
        continue;
      v->isTangent = kind == 2;
      jgPrintf(o, "%s%s: ", argNo ? ", " : "", name);
      jgPrintType(o, &t);
      if (kind == 1)
        jgPrintf(o, " {ac.param%s}", g->chaos && jgChance(g->in, 6) ? ", ac.tangent" : "");
      else if (kind == 2)
        jgPrintf(o, " {ac.tangent}");
      ++argNo;
    }
  }
  /* The body goes to a side buffer: the signature needs the result types. */
  JgText body = {NULL, 0, 0, 0};
  g->out = &body;
  for (int i = 0; i < fwdOps; ++i)
    jgOp(g, 0);
  /* The loss: a sum of the last forward tensor. */
  const JgValue *last = NULL;
  for (int i = g->numVals - 1; i >= 0 && !last; --i)
    if (g->vals[i].phase == 0 && jgIsTensor(&g->vals[i].type))
      last = &g->vals[i];
  int numOut = 0;
  const JgValue *rets[16];
  int retGrad[16];
  if (last) {
    const JgValue *none = jgConstant(g, JG_NONE, 0);
    char id[24];
    snprintf(id, sizeof id, "%%v%d", g->nextId++);
    JgType s = last->type;
    s.rank = 0;
    s.kind = JG_VTENSOR;
    if (!s.dtype)
      s.dtype = "f32";
    JgValue *loss = none ? jgNewValue(g, id, s, 0) : NULL;
    if (loss) {
      jgPrintf(g->out, "    %s = \"torch.aten.sum\"(%s, %s) : (", id, last->name, none->name);
      jgPrintType(g->out, &last->type);
      jgPrintf(g->out, ", !torch.none) -> ");
      jgPrintType(g->out, &s);
      jgPrintf(g->out, "\n");
      rets[numOut] = loss;
      retGrad[numOut++] = 0;
    }
  }
  /* Backward: the first op scales the last forward tensor by a tangent. */
  const JgValue *tan = NULL;
  for (int i = 0; i < g->numVals && !tan; ++i)
    if (g->vals[i].isTangent && jgIsTensor(&g->vals[i].type))
      tan = &g->vals[i];
  if (tan && last) {
    char id[24];
    snprintf(id, sizeof id, "%%v%d", g->nextId++);
    if (jgNewValue(g, id, last->type, 1)) {
      jgPrintf(g->out, "    %s = \"torch.aten.mul.Tensor\"(%s, %s) : (", id,
               tan->name, last->name);
      jgPrintType(g->out, &tan->type);
      jgPrintf(g->out, ", ");
      jgPrintType(g->out, &last->type);
      jgPrintf(g->out, ") -> ");
      jgPrintType(g->out, &last->type);
      jgPrintf(g->out, "\n");
    }
  }
  for (int i = 0; i < bwdOps; ++i)
    jgOp(g, 1);
  /* Returns: the loss, then a few backward values as gradients (sometimes a
   * forward value too, or an argument). */
  int grads = 1 + (int)jgTake(g->in, 4);
  for (int k = 0; k < grads && numOut < 16; ++k) {
    const JgValue *v = jgPick(g, 1, 0);
    if (!v)
      break;
    rets[numOut] = v;
    retGrad[numOut++] = jgChance(g->in, 220) ? 1 : 2; /* 2: unmarked */
  }
  g->out = o;
  jgPrintf(o, ") -> (");
  for (int i = 0; i < numOut; ++i) {
    if (i)
      jgPrintf(o, ", ");
    jgPrintType(o, &rets[i]->type);
    if (retGrad[i] == 0)
      jgPrintf(o, " {ac.output}");
    else if (retGrad[i] == 1)
      jgPrintf(o, " {ac.grad}");
  }
  jgPrintf(o, ")%s {\n", g->chaos && jgChance(g->in, 3) ? "" : " attributes {ac.joint}");
  if (body.data)
    jgPrintf(o, "%s", body.data);
  if (body.failed)
    o->failed = 1;
  free(body.data);
  jgPrintf(o, "    return");
  for (int i = 0; i < numOut; ++i)
    jgPrintf(o, "%s %s", i ? "," : "", rets[i]->name);
  if (numOut) {
    jgPrintf(o, " : ");
    for (int i = 0; i < numOut; ++i) {
      if (i)
        jgPrintf(o, ", ");
      jgPrintType(o, &rets[i]->type);
    }
  }
  jgPrintf(o, "\n  }\n");
}

/* Generates the module into `out` (NUL-terminated unless out->failed). */
static void jgModule(JgBytes *in, JgText *out) {
  JgGen *g = calloc(1, sizeof *g);
  if (!g) {
    out->failed = 1;
    return;
  }
  g->in = in;
  g->out = out;
  g->chaos = jgChance(in, 48);
  g->numFuncs = jgChance(in, 40) ? 2 + (int)jgTake(in, 2) : 1;
  int schedule = g->numFuncs > 1 && jgChance(in, 128);
  jgPrintf(out, "module");
  for (int f = 0; f < g->numFuncs; ++f)
    jgFuncName(g, f);
  /* The schedule names functions before they are generated. */
  if (schedule) {
    jgPrintf(out, " attributes {ac.schedule = [");
    int n = 2 * g->numFuncs + (g->chaos ? (int)jgTake(in, 3) - 1 : 0);
    for (int i = 0; i < n; ++i) {
      int f = i < g->numFuncs ? i : 2 * g->numFuncs - 1 - i;
      if (f < 0)
        f = 0;
      if (g->chaos && jgChance(in, 20))
        f = (int)jgTake(in, 5);
      const char *ph = i < g->numFuncs ? "fwd" : "bwd";
      if (g->chaos && jgChance(in, 10))
        ph = "sideways";
      jgPrintf(out, "%s\"%s.%s", i ? ", " : "",
               f < g->numFuncs ? g->funcNames[f] : "f9", ph);
      if (g->chaos && jgChance(in, 20))
        jgPrintf(out, "@%s", jgChance(in, 128) ? "1" : "x");
      jgPrintf(out, "\"");
    }
    jgPrintf(out, "]}");
  }
  jgPrintf(out, " {\n");
  if (jgChance(in, 20))
    jgPrintf(out, "  func.func @plain(%%x: !torch.int) -> !torch.int {\n    return %%x : !torch.int\n  }\n");
  for (int f = 0; f < g->numFuncs; ++f)
    jgFunction(g, f);
  jgPrintf(out, "}\n");
  free(g);
}

/*===------------------------------ options -----------------------------===*/

typedef struct JgOptions {
  const char *names[10];
  const char *values[10];
  int num;
  char budget[32];
  const char *rng;   /* "keep" or "replay" (always given) */
  int wantPlanOut;   /* the target adds plan-out (a path it owns) */
} JgOptions;

static void jgOptions(JgBytes *in, JgOptions *o) {
  /* Greedy most often; beam and the ILP (GLPK, a time limit) now and then. */
  static const char *const strategies[16] = {
      "greedy", "greedy", "greedy", "greedy", "greedy", "mincut", "mincut", "mincut",
      "knapsack", "knapsack", "knapsack", "save-all", "save-all", "beam", "beam", "ilp"};
  memset(o, 0, sizeof *o);
  o->names[o->num] = "strategy";
  o->values[o->num++] = strategies[jgTake(in, 16)];
  o->names[o->num] = "mode";
  o->values[o->num++] = jgChance(in, 64) ? "annotate" : "split";
  unsigned b = jgTake(in, 8);
  if (b) {
    /* Budgets around the sizes these graphs have (bytes to megabytes). */
    static const char *const units[] = {"", "KB", "KiB", "MB"};
    snprintf(o->budget, sizeof o->budget, "%u%s", jgTake(in, 4096), units[jgTake(in, 4)]);
    o->names[o->num] = "budget";
    o->values[o->num++] = o->budget;
  }
  if (jgChance(in, 32)) {
    o->names[o->num] = "optimizer";
    o->values[o->num++] = jgChance(in, 128) ? "adam" : "sgd";
  }
  if (jgChance(in, 24)) {
    o->names[o->num] = "strict";
    o->values[o->num++] = "true";
  }
  if (jgChance(in, 24)) {
    o->names[o->num] = "reserve";
    o->values[o->num++] = "1KB";
  }
  if (jgChance(in, 24)) {
    o->names[o->num] = "device";
    o->values[o->num++] = jgChance(in, 128) ? "cpu" : "a100";
  }
  o->rng = jgChance(in, 64) ? "replay" : "keep";
  o->names[o->num] = "rng";
  o->values[o->num++] = o->rng;
  o->wantPlanOut = jgChance(in, 48);
}

#endif
