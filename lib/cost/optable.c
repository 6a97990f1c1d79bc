/* optable.c - the op cost model: a sorted table of op names (bsearch) giving
 * kind, flags and a FLOP formula, plus name rules for RNG and in-place ops.
 *
 * Lookup key: torch ops by base name ("torch.aten.add.Tensor" ->
 * "torch.aten.add", "torch.prim.NumToTensor.Scalar" -> "torch.prim.NumToTensor"),
 * "mhlo.*" as "stablehlo.*", everything else by full name; then a few prefix
 * rules (arith.*, math.*, torch.constant.*, linalg.conv_*, ...).  See
 * docs/cost-model.md for the formulas and the recomputability rules. */
#include "autoac/cost.h"
#include "cost_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rule flags. */
enum {
  F_CI = 1,       /* compute-intensive (matmul/conv/attention) */
  F_VIEW = 2,     /* results alias operand 0 */
  F_NOBYTES = 4,  /* moves no bytes (constants, views, empty) */
  F_OUTBYTES = 8, /* operands give only shapes/values: bytes = results */
  F_NOREC = 16,   /* never recompute (side effects) */
  F_LISTIN = 32   /* inputs come as a list (cat/stack): in bytes = out bytes */
};

/* Operations per generated element of a counter-based generator: the
 * integer rounds of a Philox/splitmix-style hash plus the conversion. */
#define AC_RNG_FLOPS_PER_ELEMENT 16.0f

/* FLOP formulas. */
enum {
  FX_ZERO = 0,       /* no arithmetic */
  FX_ELEM,           /* coef x elements of the largest result */
  FX_REDUCE,         /* coef x elements of the largest tensor */
  FX_MM,             /* 2 |C| K, K = last dim of operand `arg` */
  FX_MM_ADD,         /* FX_MM + |C| (addmm, baddbmm, addmv) */
  FX_ADDBMM,         /* 2 sqrt(|A||B||C|) + |C| */
  FX_LINEAR,         /* 2 |C| in (+|C| with a bias), weight [out, in] */
  FX_CONTRACT,       /* 2 sqrt(|A||B||C|): matmul-like, no batch */
  FX_CONTRACT_B0,    /* 2 sqrt(|A||B||C| / C[0]): batched, batch first */
  FX_DOT_GENERAL,    /* loop iterations if known, else batch guessed */
  FX_CONV_TORCH,     /* 2 |Y| |W|/W[0] (+|Y| bias); transposed detected */
  FX_CONV_TORCH_T,   /* transposed: 2 |X| |W|/W[0] (+|Y| bias) */
  FX_CONV_TORCH_BWD, /* grad input + grad weight (+ grad bias) */
  FX_CONV_LINALG,    /* 2 |Y| x filter dims reduced over (layout from name) */
  FX_POOL_LINALG,    /* |Y| |window| */
  FX_CONV_HLO,       /* 2 |Y| |W|/O, O the output-feature dim (guessed) */
  FX_CONV_TOSA,      /* 2 |Y| |W|/W[0] + |Y| bias, weight [O,...,I] */
  FX_CONV_TOSA_DW,   /* 2 |Y| KH KW + |Y|, weight [KH,KW,C,M] */
  FX_CONV_TOSA_T,    /* 2 |X| |W|/W[last] + |Y|, weight [O,KH,KW,I] */
  FX_ATTN,           /* coef 4 |Q| S, q/k [B,H,L|S,E] at `arg`, `arg`+1 */
  FX_ATTN_BLHE,      /* same with layout [B,L|S,H,E] */
  FX_GENERIC         /* body ops x loop iterations (from AcOpExtra) */
};

typedef struct AcOpRule {
  const char *name;
  uint8_t kind;    /* AcOpKind */
  uint8_t flags;   /* F_* */
  uint8_t formula; /* FX_* */
  uint8_t arg;     /* primary operand index for the formula */
  float coef;      /* formula multiplier */
} AcOpRule;

/* Sorted by strcmp (generated; keep sorted, acCostTableSelfCheck verifies). */
static const AcOpRule acRules[] = {
#include "optable_rules.inc"
};

#define AC_NUM_RULES ((long)(sizeof acRules / sizeof acRules[0]))

/* Prefix rules, tried in order when no exact entry matches. */
static const AcOpRule acPrefixRules[] = {
    {"torch.constant.", AC_KIND_CONSTANT, F_NOBYTES, FX_ZERO, 0, 1.0f},
    {"arith.", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f},
    {"math.", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"complex.", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 2.0f},
    {"chlo.", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 4.0f},
    {"linalg.conv_", AC_KIND_CONV, F_CI, FX_CONV_LINALG, 0, 1.0f},
    {"linalg.depthwise_conv_", AC_KIND_CONV, F_CI, FX_CONV_LINALG, 0, 1.0f},
    {"linalg.pooling_", AC_KIND_REDUCTION, 0, FX_POOL_LINALG, 0, 1.0f},
    {"tosa.reduce_", AC_KIND_REDUCTION, 0, FX_REDUCE, 0, 1.0f},
};

static int acRuleCmp(const void *key, const void *elem) {
  return strcmp((const char *)key, ((const AcOpRule *)elem)->name);
}

static const AcOpRule *acFindRule(const char *key) {
  return bsearch(key, acRules, (size_t)AC_NUM_RULES, sizeof acRules[0],
                 acRuleCmp);
}

long acCostTableSelfCheck(void) {
  for (long i = 1; i < AC_NUM_RULES; ++i)
    if (strcmp(acRules[i - 1].name, acRules[i].name) >= 0)
      return -i;
  return AC_NUM_RULES;
}

static int acHasPrefix(const char *s, const char *p) {
  return strncmp(s, p, strlen(p)) == 0;
}
static int acHasSuffix(const char *s, size_t n, const char *suf) {
  size_t m = strlen(suf);
  return n >= m && memcmp(s + n - m, suf, m) == 0;
}

/*===----------------------------- names ----------------------------------===*/

/* Builds the lookup key for `name` into buf; returns 0 if it does not fit.
 * For torch ops sets *base and *baseLen to the base name within `name`. */
static int acMakeKey(const char *name, char *buf, size_t cap, const char **base,
                     size_t *baseLen) {
  *base = NULL;
  *baseLen = 0;
  const char *prefix = NULL, *rest = NULL;
  size_t restLen;
  if (acHasPrefix(name, "torch.aten.") || acHasPrefix(name, "torch.prim.")) {
    prefix = acHasPrefix(name, "torch.aten.") ? "torch.aten." : "torch.prim.";
    rest = name + 11;
    const char *dot = strchr(rest, '.');
    restLen = dot ? (size_t)(dot - rest) : strlen(rest);
    *base = rest;
    *baseLen = restLen;
  } else if (acHasPrefix(name, "mhlo.")) {
    prefix = "stablehlo.";
    rest = name + 5;
    restLen = strlen(rest);
  } else {
    prefix = "";
    rest = name;
    restLen = strlen(rest);
  }
  size_t pl = strlen(prefix);
  if (pl + restLen + 1 > cap)
    return 0;
  memcpy(buf, prefix, pl);
  memcpy(buf + pl, rest, restLen);
  buf[pl + restLen] = '\0';
  return 1;
}

/* Case-sensitive substring search within s[0..n). */
static int acContains(const char *s, size_t n, const char *needle) {
  size_t m = strlen(needle);
  for (size_t i = 0; i + m <= n; ++i)
    if (memcmp(s + i, needle, m) == 0)
      return 1;
  return 0;
}

/* Replayable random ops: counter-based generators whose result is a pure
 * function of their operands (a seed, an offset, a generator state), so a
 * rerun with the same operands gives the same bits (docs/contract.md,
 * "Randomness").  The op that draws their seed is an ordinary random op. */
static int acIsReplayableRandomName(const char *name) {
  static const char *const exact[] = {
      "linalg.fill_rng_2d",          /* LCG of (seed, index) */
      "stablehlo.rng_bit_generator", /* state in -> (state, bits) */
      "mhlo.rng_bit_generator",
      "torch.rngprims.philox_rand",  /* AOT autograd's functional RNG */
      "torch.prims.philox_rand",
      "autoac.replay"};               /* the PyTorch partitioner's rerun of a
                                         draw under its captured state */
  for (size_t i = 0; i < sizeof exact / sizeof exact[0]; ++i)
    if (strcmp(name, exact[i]) == 0)
      return 1;
  return acHasPrefix(name, "autoac.rng."); /* autoac's own (rng=replay) */
}

/* Random-number ops: never recomputed (a rerun draws different numbers). */
static int acIsRandomName(const char *name, const char *base, size_t baseLen) {
  if (base && acHasPrefix(name, "torch.aten.")) {
    static const char *const anywhere[] = {
        "bernoulli", "multinomial", "poisson", "rrelu",  "uniform",
        "normal",    "exponential", "geometric", "cauchy", "binomial",
        "_standard_gamma", "_sample_dirichlet"};
    for (size_t i = 0; i < sizeof anywhere / sizeof anywhere[0]; ++i)
      if (acContains(base, baseLen, anywhere[i]))
        return 1;
    if (baseLen >= 4 && memcmp(base, "rand", 4) == 0) /* rand randn randint
                                                          randperm random_ */
      return 1;
    if (acContains(base, baseLen, "dropout") &&
        !acContains(base, baseLen, "dropout_backward"))
      return 1;
    return 0;
  }
  const char *op = strchr(name, '.');
  op = op ? op + 1 : name;
  size_t n = strlen(op);
  if (acHasPrefix(op, "rng") || acContains(op, n, "_rng") ||
      acContains(op, n, "random") || acContains(op, n, "bernoulli"))
    return 1;
  if (acContains(op, n, "dropout") && !acContains(op, n, "dropout_backward"))
    return 1;
  return 0;
}

/*===------------------------- shape helpers ------------------------------===*/

typedef struct AcCtx {
  const AcTensorType *ops;
  intptr_t nOps;
  const AcTensorType *res;
  intptr_t nRes;
  const AcOpExtra *extra;
} AcCtx;

static int acRank(const AcTensorType *t) {
  if (!t || !t->isTensor)
    return 0;
  return t->rank < 0 ? 0 : (t->rank > AC_MAX_RANK ? AC_MAX_RANK : t->rank);
}

static double acElems(const AcTensorType *t) {
  if (!t || !t->isTensor)
    return 0.0;
  double n = 1.0;
  for (int i = 0; i < acRank(t); ++i)
    n *= t->dims[i] > 0 ? (double)t->dims[i] : 0.0;
  return n;
}

static double acBytes(const AcTensorType *t) {
  if (!t || !t->isTensor || t->elemBits <= 0)
    return 0.0;
  return acElems(t) * (double)t->elemBits / 8.0;
}

/* Dimension i (negative: from the end); 0 if out of range. */
static double acDim(const AcTensorType *t, int i) {
  int r = acRank(t);
  if (i < 0)
    i += r;
  if (!t || !t->isTensor || i < 0 || i >= r || t->dims[i] < 0)
    return 0.0;
  return (double)t->dims[i];
}

static const AcTensorType *acOperand(const AcCtx *c, intptr_t i) {
  if (!c->ops || i < 0 || i >= c->nOps || !c->ops[i].isTensor)
    return NULL;
  return &c->ops[i];
}
static const AcTensorType *acResult(const AcCtx *c, intptr_t i) {
  if (!c->res || i < 0 || i >= c->nRes || !c->res[i].isTensor)
    return NULL;
  return &c->res[i];
}

/* The primary output: result 0, or (destination-passing on buffers, no
 * results) the last tensor operand. */
static const AcTensorType *acOutput(const AcCtx *c) {
  const AcTensorType *r = acResult(c, 0);
  if (r || c->nRes > 0)
    return r;
  for (intptr_t i = c->nOps - 1; i >= 0; --i)
    if (acOperand(c, i))
      return &c->ops[i];
  return NULL;
}

static double acMaxElems(const AcTensorType *ts, intptr_t n) {
  double m = 0.0;
  for (intptr_t i = 0; ts && i < n; ++i) {
    double e = acElems(&ts[i]);
    if (e > m)
      m = e;
  }
  return m;
}
static double acOutElems(const AcCtx *c) {
  double m = acMaxElems(c->res, c->nRes);
  return m > 0 ? m : acMaxElems(c->ops, c->nOps);
}
static double acAllElems(const AcCtx *c) {
  double a = acMaxElems(c->res, c->nRes), b = acMaxElems(c->ops, c->nOps);
  return a > b ? a : b;
}

/* Elements of t divided by dimension d (per-output-channel work); 0 if the
 * dimension is absent or zero. */
static double acPer(const AcTensorType *t, double d) {
  return d > 0 ? acElems(t) / d : 0.0;
}

/* Per-output-element work of a linalg convolution: the product of the filter
 * dims the convolution reduces over, found from the filter layout in the
 * op name ("linalg.conv_2d_nhwc_hwcf" -> h w c; depthwise: spatial only). */
static double acLinalgConvPer(const char *name, const AcTensorType *f) {
  int depthwise = strstr(name, "depthwise") != NULL;
  const char *p = strchr(name, '.');
  p = p ? p + 1 : name;
  /* Tokens separated by '_': find "Nd", then input layout, then filter. */
  const char *tok[8];
  size_t len[8];
  int nt = 0;
  while (*p && nt < 8) {
    const char *e = strchr(p, '_');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    tok[nt] = p;
    len[nt++] = l;
    if (!e)
      break;
    p = e + 1;
  }
  int nd = -1;
  for (int i = 0; i < nt; ++i)
    if (len[i] == 2 && tok[i][1] == 'd' && tok[i][0] >= '1' && tok[i][0] <= '3') {
      nd = i;
      break;
    }
  int r = acRank(f);
  if (nd < 0 || nd + 2 >= nt || (int)len[nd + 2] != r)
    return acElems(f); /* no layout (conv_2d): the whole filter is reduced */
  const char *lay = tok[nd + 2];
  double per = 1.0;
  for (int i = 0; i < r; ++i) {
    char ch = lay[i];
    int reduced = ch == 'd' || ch == 'h' || ch == 'w' || (!depthwise && ch == 'c');
    if (reduced)
      per *= acDim(f, i);
  }
  return per;
}

/* Batch dimensions of an unknown dot_general/contract: leading dims equal in
 * A, B and C, limited so that at least one contracting dim remains and the
 * rank arithmetic (rA + rB - rC = batch + 2 x contracting) works out. */
static double acGuessBatch(const AcTensorType *a, const AcTensorType *b,
                           const AcTensorType *c) {
  int ra = acRank(a), rb = acRank(b), rc = acRank(c);
  int s = ra + rb - rc;
  int nb = 0;
  while (nb < ra && nb < rb && nb < rc && a->dims[nb] == b->dims[nb] &&
         a->dims[nb] == c->dims[nb])
    ++nb;
  if (nb > s - 2)
    nb = s - 2;
  if (nb > 0 && ((s - nb) & 1))
    --nb;
  double batch = 1.0;
  for (int i = 0; i < nb; ++i)
    batch *= acDim(c, i);
  return batch;
}

static double acContract(const AcTensorType *a, const AcTensorType *b,
                         const AcTensorType *c, double batch) {
  if (batch <= 0)
    return 0.0;
  return 2.0 * sqrt(acElems(a) * acElems(b) * acElems(c) / batch);
}

/* Forward flops of a torch convolution from output y, input x, weight w;
 * `transposed` < 0: detect (weight [Cin, Cout/g, ...] does not match y). */
static double acTorchConv(const AcTensorType *y, const AcTensorType *x,
                          const AcTensorType *w, int transposed) {
  double per = acPer(w, acDim(w, 0));
  if (transposed < 0)
    transposed = acRank(y) >= 2 && acDim(w, 0) != acDim(y, 1) && x &&
                 acRank(x) >= 2 && acDim(w, 0) == acDim(x, 1);
  return 2.0 * (transposed ? acElems(x) : acElems(y)) * per;
}

/* Loop iterations and body ops of a region op from AcOpExtra. */
static void acGenericWork(const AcCtx *c, double *iters, double *ops) {
  const AcOpExtra *x = c->extra;
  *iters = (x && x->loopIterations > 0) ? x->loopIterations : acAllElems(c);
  if (x && x->bodyArithOps > 0)
    *ops = x->bodyArithOps;
  else if (x && x->loopIterations > 0)
    *ops = 0; /* counted, and the body has no arithmetic (a copy) */
  else
    *ops = 1; /* nothing known */
}

static double acFlops(const AcOpRule *r, const char *name, const AcCtx *c) {
  const double coef = r->coef;
  const AcTensorType *y = acOutput(c);
  const AcTensorType *a = acOperand(c, r->arg), *b = acOperand(c, r->arg + 1);
  double out = acOutElems(c);
  switch (r->formula) {
  case FX_ZERO:
    return 0.0;
  case FX_ELEM:
    return coef * out;
  case FX_REDUCE:
    return coef * acAllElems(c);
  case FX_MM:
  case FX_MM_ADD: {
    if (!a || !y)
      return 2.0 * out;
    double k = acRank(a) ? acDim(a, -1) : 1.0;
    double f = 2.0 * acElems(y) * k;
    return r->formula == FX_MM_ADD ? f + acElems(y) : f;
  }
  case FX_ADDBMM:
    if (!a || !b || !y)
      return 2.0 * out;
    return acContract(a, b, y, 1.0) + acElems(y);
  case FX_LINEAR: {
    const AcTensorType *x = acOperand(c, 0), *w = acOperand(c, 1);
    if (!x || !w || !y)
      return 2.0 * out;
    double in = acDim(w, -1);
    return 2.0 * acElems(y) * in + (acOperand(c, 2) ? acElems(y) : 0.0);
  }
  case FX_CONTRACT:
  case FX_CONTRACT_B0:
    if (!a || !b || !y)
      return 2.0 * out;
    return acContract(a, b, y,
                      r->formula == FX_CONTRACT_B0 && acRank(y) ? acDim(y, 0) : 1.0);
  case FX_DOT_GENERAL:
    if (c->extra && c->extra->loopIterations > 0)
      return 2.0 * c->extra->loopIterations;
    if (!a || !b || !y)
      return 2.0 * out;
    return acContract(a, b, y, acGuessBatch(a, b, y));
  case FX_CONV_TORCH:
  case FX_CONV_TORCH_T: {
    const AcTensorType *x = acOperand(c, 0), *w = acOperand(c, 1);
    if (!x || !w || !y)
      return 2.0 * out;
    double f = acTorchConv(y, x, w, r->formula == FX_CONV_TORCH_T ? 1 : -1);
    return f + (acOperand(c, 2) ? acElems(y) : 0.0);
  }
  case FX_CONV_TORCH_BWD: {
    const AcTensorType *go = acOperand(c, 0), *x = acOperand(c, 1),
                       *w = acOperand(c, 2);
    if (!go || !w)
      return 2.0 * out;
    double fwd = acTorchConv(go, x, w, -1);
    if (c->nRes <= 0 || !c->res)
      return 2.0 * fwd;
    return (acResult(c, 0) ? fwd : 0.0) + (acResult(c, 1) ? fwd : 0.0) +
           (acResult(c, 2) ? acElems(go) : 0.0);
  }
  case FX_CONV_LINALG: {
    const AcTensorType *f = acOperand(c, 1);
    if (!f || !y)
      return 2.0 * out;
    return 2.0 * acElems(y) * acLinalgConvPer(name, f);
  }
  case FX_POOL_LINALG: {
    const AcTensorType *win = acOperand(c, 1);
    if (!win || !y)
      return out;
    return coef * acElems(y) * acElems(win);
  }
  case FX_CONV_HLO: {
    const AcTensorType *w = acOperand(c, 1);
    if (!w || !y)
      return 2.0 * out;
    double o, first = acDim(w, 0), last = acDim(w, -1);
    double c1 = acDim(y, 1), cl = acDim(y, -1);
    if (first > 0 && (first == c1 || first == cl))
      o = first;
    else if (last > 0 && (last == c1 || last == cl))
      o = last;
    else {
      o = 0;
      for (int i = 0; i < acRank(w); ++i)
        if (acDim(w, i) > o)
          o = acDim(w, i);
    }
    return 2.0 * acElems(y) * acPer(w, o);
  }
  case FX_CONV_TOSA:
  case FX_CONV_TOSA_DW:
  case FX_CONV_TOSA_T: {
    const AcTensorType *x = acOperand(c, 0), *w = acOperand(c, 1);
    if (!x || !w || !y)
      return 2.0 * out;
    double bias = acOperand(c, 2) ? acElems(y) : 0.0;
    if (r->formula == FX_CONV_TOSA)
      return 2.0 * acElems(y) * acPer(w, acDim(w, 0)) + bias;
    if (r->formula == FX_CONV_TOSA_DW)
      return 2.0 * acElems(y) * acPer(w, acDim(w, -2) * acDim(w, -1)) + bias;
    return 2.0 * acElems(x) * acPer(w, acDim(w, -1)) + bias;
  }
  case FX_ATTN:
  case FX_ATTN_BLHE: {
    if (!a || !b || acRank(b) < 2)
      return coef * 4.0 * out;
    double s = r->formula == FX_ATTN ? acDim(b, -2) : acDim(b, 1);
    return coef * 4.0 * acElems(a) * s;
  }
  case FX_GENERIC: {
    double iters, ops;
    acGenericWork(c, &iters, &ops);
    return coef * ops * iters;
  }
  }
  return 0.0;
}

static double acBytesMoved(uint8_t flags, const AcCtx *c) {
  if (flags & F_NOBYTES)
    return 0.0;
  double in = 0.0, out = 0.0;
  for (intptr_t i = 0; c->res && i < c->nRes; ++i)
    out += acBytes(&c->res[i]);
  if (flags & F_OUTBYTES)
    return out;
  for (intptr_t i = 0; c->ops && i < c->nOps; ++i)
    in += acBytes(&c->ops[i]);
  if ((flags & F_LISTIN) && in == 0.0)
    in = out;
  return in + out;
}

/*===--------------------------- estimate ---------------------------------===*/

void acCostResolveName(const char *opName, AcOpNameCost *out) {
  memset(out, 0, sizeof *out);
  if (!opName)
    return;
  out->overwrites = strcmp(opName, "torch.overwrite.tensor.contents") == 0;
  out->linalgGeneric = strcmp(opName, "linalg.generic") == 0;
  char key[160];
  const char *base = NULL;
  size_t baseLen = 0;
  const AcOpRule *rule = NULL;
  AcOpRule copyRule;
  if (acMakeKey(opName, key, sizeof key, &base, &baseLen)) {
    /* torch's in-place variants ("relu_", "copy_", "bernoulli_") write
     * their first operand (dunders such as "__and__" do not). */
    out->writesFirst = base && acHasPrefix(opName, "torch.aten.") && baseLen > 1 &&
                       base[baseLen - 1] == '_' && !(base[0] == '_' && base[1] == '_');
    rule = acFindRule(key);
    if (!rule && base && acHasPrefix(opName, "torch.aten.")) {
      size_t kl = strlen(key);
      /* In-place variant "add_" (dunders such as "__and__" are not). */
      if (baseLen > 1 && base[baseLen - 1] == '_' &&
          !(baseLen >= 2 && base[0] == '_' && base[1] == '_')) {
        out->inplace = 1;
        key[kl - 1] = '\0';
        rule = acFindRule(key);
      } else if (acHasSuffix(key, kl, "_copy")) {
        /* Functional copy of a view ("view_copy", "transpose_copy"). */
        key[kl - 5] = '\0';
        const AcOpRule *v = acFindRule(key);
        if (v && v->kind == AC_KIND_VIEW) {
          copyRule = *v;
          copyRule.kind = AC_KIND_DATA_MOVEMENT;
          copyRule.flags = 0;
          rule = &copyRule;
        }
      }
    }
  }
  if (!rule && !out->inplace)
    for (size_t i = 0; i < sizeof acPrefixRules / sizeof acPrefixRules[0]; ++i)
      if (acHasPrefix(opName, acPrefixRules[i].name)) {
        rule = &acPrefixRules[i];
        break;
      }
  if (rule) {
    out->hasRule = 1;
    out->ruleKind = rule->kind;
    out->ruleFlags = rule->flags;
    out->ruleFormula = rule->formula;
    out->ruleArg = rule->arg;
    out->ruleCoef = rule->coef;
  }
  out->replayable = (uint8_t)acIsReplayableRandomName(opName);
  out->random = (uint8_t)acIsRandomName(opName, base, baseLen);
}

void acCostEstimate(const char *opName, const AcTensorType *operands,
                    intptr_t numOperands, const AcTensorType *results,
                    intptr_t numResults, const AcOpExtra *extra,
                    AcOpCost *out) {
  AcOpNameCost nc;
  acCostResolveName(opName, &nc);
  acCostEstimateNamed(&nc, opName, operands, numOperands, results, numResults,
                      extra, out);
}

void acCostEstimateNamed(const AcOpNameCost *nc, const char *opName,
                         const AcTensorType *operands, intptr_t numOperands,
                         const AcTensorType *results, intptr_t numResults,
                         const AcOpExtra *extra, AcOpCost *out) {
  if (!out)
    return;
  memset(out, 0, sizeof *out);
  out->kind = AC_KIND_UNKNOWN;
  out->mutatesOperand = -1;
  AcCtx c = {operands, operands ? numOperands : 0, results,
             results ? numResults : 0, extra};
  static const AcOpRule unknownRule = {"", AC_KIND_UNKNOWN, 0, FX_ZERO, 0, 1.0f};
  static const AcOpRule elemRule = {"", AC_KIND_ELEMENTWISE, 0, FX_ELEM, 0, 1.0f};
  if (!opName) {
    out->bytesMoved = acBytesMoved(0, &c);
    return;
  }
  /* overwrite.tensor.contents(%value, %overwritten) writes its second. */
  if (nc->overwrites && numOperands > 1)
    out->mutatesOperand = 1;
  if (nc->writesFirst && numOperands > 0)
    out->mutatesOperand = 0;
  AcOpRule ruleValue = {"", nc->ruleKind, nc->ruleFlags, nc->ruleFormula,
                        nc->ruleArg, nc->ruleCoef};
  const AcOpRule *rule = nc->hasRule ? &ruleValue : NULL;

  /* Replayable generators: recomputable, about as costly per element as a
     short integer hash (Philox-style rounds). */
  if (nc->replayable) {
    static const AcOpRule rngRule = {"", AC_KIND_RNG_REPLAY, 0, FX_ELEM, 0,
                                     AC_RNG_FLOPS_PER_ELEMENT};
    int effects = extra && extra->hasMemoryEffects;
    out->kind = effects ? AC_KIND_INPLACE : AC_KIND_RNG_REPLAY;
    out->flops = acFlops(&rngRule, opName, &c);
    out->bytesMoved = acBytesMoved(0, &c);
    out->recomputable = !effects;
    return;
  }
  /* Random ops: never recomputed, whatever the table says. */
  if (nc->random) {
    const AcOpRule *r = rule ? rule : &elemRule;
    out->kind = AC_KIND_RANDOM;
    out->flops = acFlops(r, opName, &c);
    out->bytesMoved = acBytesMoved(0, &c);
    return;
  }
  if (nc->inplace) {
    const AcOpRule *r = rule ? rule : &unknownRule;
    out->kind = AC_KIND_INPLACE;
    out->flops = acFlops(r, opName, &c);
    out->bytesMoved = acBytesMoved(0, &c);
    out->computeIntensive = (r->flags & F_CI) != 0;
    out->unknown = rule == NULL;
    return;
  }

  if (rule) {
    out->kind = (AcOpKind)rule->kind;
    out->flops = acFlops(rule, opName, &c);
    out->bytesMoved = acBytesMoved(rule->flags, &c);
    out->recomputable = !(rule->flags & F_NOREC);
    out->computeIntensive = (rule->flags & F_CI) != 0;
    out->isView = (rule->flags & F_VIEW) != 0;
    /* linalg.generic: what the importer learned of its body decides. */
    if (nc->linalgGeneric && extra) {
      double iters, ops;
      acGenericWork(&c, &iters, &ops);
      double outElems = acMaxElems(c.res, c.nRes);
      if (outElems <= 0) {
        const AcTensorType *y = acOutput(&c);
        outElems = acElems(y);
      }
      if (extra->isContraction) {
        out->kind = AC_KIND_MATMUL;
        out->computeIntensive = 1;
        out->flops = iters * (ops > 2 ? ops : 2);
      } else if (extra->loopIterations > 0 && outElems > 0 &&
                 extra->loopIterations > outElems * (1.0 + 1e-9)) {
        out->kind = AC_KIND_REDUCTION;
      } else if (extra->loopIterations > 0 && extra->bodyArithOps == 0) {
        out->kind = AC_KIND_DATA_MOVEMENT;
      }
    }
  } else {
    out->unknown = 1;
    out->bytesMoved = acBytesMoved(0, &c);
    if (extra && extra->knownPure && !extra->hasMemoryEffects) {
      out->kind = AC_KIND_DATA_MOVEMENT;
      out->recomputable = 1;
    }
  }

  if (extra && extra->hasMemoryEffects) {
    out->kind = AC_KIND_INPLACE;
    out->recomputable = 0;
    out->isView = 0;
    out->bytesMoved = acBytesMoved(0, &c);
  }
}
