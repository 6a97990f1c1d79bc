/* types.c - element widths, tensor sizes and the text parser for
 * `!torch.vtensor<[d0,...],dtype>` (plus builtin `tensor<AxBxT>` and
 * `memref<AxBxT, ...>` as a convenience).
 *
 * The parser is bounded by `len` everywhere: it never reads text[len] or
 * beyond, never needs a terminating NUL, and allocates nothing (it is a fuzz
 * target).  Every accepted tensor type has an element count and a byte size
 * that fit in int64_t, so acTensorBytes never fails on parser output. */
#include "autoac/cost.h"

#include <stdio.h>
#include <string.h>

/*===---------------------------- sizes -----------------------------------===*/

int64_t acTensorElements(const AcTensorType *t) {
  if (!t || !t->isTensor)
    return 0;
  if (t->rank < 0 || t->rank > AC_MAX_RANK)
    return -1;
  int64_t n = 1;
  for (int32_t i = 0; i < t->rank; ++i) {
    int64_t d = t->dims[i];
    if (d < 0)
      return -1;
    if (d == 0)
      return 0; /* an empty tensor, whatever the other dims */
  }
  for (int32_t i = 0; i < t->rank; ++i) {
    int64_t d = t->dims[i];
    if (n > INT64_MAX / d)
      return -1;
    n *= d;
  }
  return n;
}

int64_t acTensorBytes(const AcTensorType *t) {
  if (!t || !t->isTensor)
    return 0;
  int64_t n = acTensorElements(t);
  if (n < 0 || t->elemBits <= 0)
    return -1;
  int64_t bits = t->elemBits;
  if (bits % 8 == 0) {
    int64_t b = bits / 8;
    if (n > INT64_MAX / b)
      return -1;
    return n * b;
  }
  /* Sub-byte widths (never produced by the parser, which rounds storage up
   * to whole bytes): packed, rounded up to a whole byte. */
  if (n > (INT64_MAX - 7) / bits)
    return -1;
  return (n * bits + 7) / 8;
}

/*===--------------------------- dtypes -----------------------------------===*/

static int acIsDigit(char c) { return c >= '0' && c <= '9'; }
static int acIsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
static int acIsIdent(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || acIsDigit(c) ||
         c == '_';
}

static int acEq(const char *s, size_t len, const char *lit) {
  size_t n = strlen(lit);
  return len == n && memcmp(s, lit, n) == 0;
}
static int acStartsWith(const char *s, size_t len, const char *lit) {
  size_t n = strlen(lit);
  return len >= n && memcmp(s, lit, n) == 0;
}

/* Parses a decimal width "N" (1..4096) occupying all of s[0..len). */
static int32_t acParseWidth(const char *s, size_t len) {
  if (len == 0 || len > 4 || s[0] == '0')
    return 0;
  int32_t v = 0;
  for (size_t i = 0; i < len; ++i) {
    if (!acIsDigit(s[i]))
      return 0;
    v = v * 10 + (s[i] - '0');
  }
  return v <= 4096 ? v : 0;
}

/* Storage bits: integer widths round up to whole bytes (i1 and i4 take a
 * byte each, as after bufferization). */
static int32_t acStorageBits(int32_t bits) {
  return bits <= 0 ? 0 : ((bits + 7) / 8) * 8;
}

/* Float types by exact spelling. */
static const struct {
  const char *name;
  int32_t bits;
} acFloatNames[] = {
    {"f64", 64},          {"f32", 32},           {"f16", 16},
    {"bf16", 16},         {"tf32", 32},          {"f80", 128},
    {"f128", 128},        {"f8E4M3FN", 8},       {"f8E5M2", 8},
    {"f8E4M3FNUZ", 8},    {"f8E5M2FNUZ", 8},     {"f8E4M3", 8},
    {"f8E3M4", 8},        {"f8E4M3B11FNUZ", 8},  {"f8E8M0FNU", 8},
    {"f6E2M3FN", 8},      {"f6E3M2FN", 8},       {"f4E2M1FN", 8},
    {"index", 64},
    /* torch-mlir quantized dtypes, as they appear inside a vtensor */
    {"!torch.qint8", 8},  {"!torch.quint8", 8},  {"!torch.qint32", 32},
    {"!torch.qint16", 16}, {"!torch.quint4x2", 8},
};

int32_t acElemBitsFromName(const char *dtype, size_t len) {
  if (!dtype)
    return 0;
  for (size_t i = 0; i < sizeof acFloatNames / sizeof acFloatNames[0]; ++i)
    if (acEq(dtype, len, acFloatNames[i].name))
      return acFloatNames[i].bits;
  /* Integers: iN, siN, uiN. */
  if (acStartsWith(dtype, len, "si") || acStartsWith(dtype, len, "ui"))
    return acStorageBits(acParseWidth(dtype + 2, len - 2));
  if (acStartsWith(dtype, len, "i"))
    return acStorageBits(acParseWidth(dtype + 1, len - 1));
  /* complex<T>: twice T. */
  if (len > 9 && acStartsWith(dtype, len, "complex<") && dtype[len - 1] == '>') {
    const char *in = dtype + 8;
    size_t inLen = len - 9;
    while (inLen > 0 && acIsSpace(*in)) {
      ++in;
      --inLen;
    }
    while (inLen > 0 && acIsSpace(in[inLen - 1]))
      --inLen;
    if (acStartsWith(in, inLen, "complex<"))
      return 0; /* nested complex is not a type */
    int32_t b = acElemBitsFromName(in, inLen);
    return b > 0 ? 2 * b : 0;
  }
  return 0;
}

/*===--------------------------- parser -----------------------------------===*/

/* A bounded cursor over the type text. */
typedef struct AcCursor {
  const char *s;
  size_t pos, len;
  int dyn; /* accept dynamic dimensions as AC_DIM_DYNAMIC */
} AcCursor;

static void acSkipSpace(AcCursor *c) {
  while (c->pos < c->len && acIsSpace(c->s[c->pos]))
    ++c->pos;
}
static int acPeek(const AcCursor *c) {
  return c->pos < c->len ? (unsigned char)c->s[c->pos] : -1;
}
static int acAccept(AcCursor *c, char ch) {
  acSkipSpace(c);
  if (acPeek(c) == (unsigned char)ch) {
    ++c->pos;
    return 1;
  }
  return 0;
}

/* Reports an error quoting the text (truncated to keep the message short). */
static AcStatus acTypeError(AcError *err, const char *text, size_t len,
                            const char *why) {
  int shown = len > 160 ? 160 : (int)len;
  return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                    "unsupported type '%.*s%s': %s", shown, text,
                    len > 160 ? "..." : "", why);
}

/* Finds the end of a balanced <...> group starting at c->pos (which must be
 * '<'); returns the index just past the matching '>', or 0 if unbalanced.
 * Quoted strings are skipped so that '>' inside them does not count. */
static size_t acBalancedEnd(const char *s, size_t pos, size_t len) {
  int depth = 0;
  for (size_t i = pos; i < len; ++i) {
    char ch = s[i];
    if (ch == '"') {
      for (++i; i < len && s[i] != '"'; ++i)
        if (s[i] == '\\' && i + 1 < len)
          ++i;
      if (i >= len)
        return 0;
      continue;
    }
    if (ch == '<' || ch == '(' || ch == '[' || ch == '{')
      ++depth;
    else if (ch == '>' || ch == ')' || ch == ']' || ch == '}') {
      if (--depth == 0)
        return i + 1;
      if (depth < 0)
        return 0;
    }
  }
  return 0;
}

/* Checks the element count and byte size of a parsed tensor fit in int64. */
static AcStatus acCheckSize(AcTensorType *out, AcError *err, const char *text,
                            size_t len) {
  AcTensorType t = *out; /* dynamic dimensions checked as 1 */
  for (int32_t i = 0; i < t.rank; ++i)
    if (t.dims[i] == AC_DIM_DYNAMIC)
      t.dims[i] = 1;
  if (acTensorElements(&t) < 0 || acTensorBytes(&t) < 0)
    return acTypeError(err, text, len, "its size overflows 64 bits");
  return AC_OK;
}

/* Parses a dtype occupying s[b..e) (trimmed). */
static AcStatus acParseDtype(const char *s, size_t b, size_t e,
                             AcTensorType *out, AcError *err, const char *text,
                             size_t len) {
  while (b < e && acIsSpace(s[b]))
    ++b;
  while (e > b && acIsSpace(s[e - 1]))
    --e;
  if (b == e)
    return acTypeError(err, text, len, "missing element type");
  int32_t bits = acElemBitsFromName(s + b, e - b);
  if (bits <= 0) {
    char why[96];
    int shown = (e - b) > 40 ? 40 : (int)(e - b);
    snprintf(why, sizeof why, "unknown element type '%.*s'", shown, s + b);
    return acTypeError(err, text, len, why);
  }
  out->elemBits = bits;
  return AC_OK;
}

/* Parses a non-negative decimal dimension at the cursor. */
static AcStatus acParseDim(AcCursor *c, int64_t *dim, AcError *err,
                           const char *text, size_t len) {
  acSkipSpace(c);
  int ch = acPeek(c);
  if (ch == '?' && c->dyn) {
    ++c->pos;
    *dim = AC_DIM_DYNAMIC;
    return AC_OK;
  }
  if (ch == '-' && c->dyn && c->pos + 1 < c->len && c->s[c->pos + 1] == '1' &&
      !(c->pos + 2 < c->len && acIsDigit(c->s[c->pos + 2]))) {
    c->pos += 2;
    *dim = AC_DIM_DYNAMIC;
    return AC_OK;
  }
  if (ch == '?')
    return acTypeError(err, text, len,
                       "dynamic dimension '?' (only static shapes are planned)");
  if (ch == '-') {
    /* torch-mlir once spelled unknown dimensions -1. */
    if (c->pos + 1 < c->len && c->s[c->pos + 1] == '1' &&
        !(c->pos + 2 < c->len && acIsDigit(c->s[c->pos + 2])))
      return acTypeError(err, text, len,
                         "dynamic dimension -1 (only static shapes are planned)");
    return acTypeError(err, text, len, "negative dimension");
  }
  if (!acIsDigit((char)ch))
    return acTypeError(err, text, len, "expected a dimension");
  int64_t v = 0;
  while (c->pos < c->len && acIsDigit(c->s[c->pos])) {
    int d = c->s[c->pos] - '0';
    if (v > (INT64_MAX - d) / 10)
      return acTypeError(err, text, len, "dimension overflows 64 bits");
    v = v * 10 + d;
    ++c->pos;
  }
  *dim = v;
  return AC_OK;
}

/* Body of a torch tensor type: `[d0,d1,...],dtype` up to c->len (which the
 * caller has set to just before the closing '>', if any).  An optional third
 * field (a sparse encoding) is ignored. */
static AcStatus acParseTorchBody(AcCursor *c, AcTensorType *out, AcError *err,
                                 const char *text, size_t len) {
  acSkipSpace(c);
  if (acPeek(c) == '*')
    return acTypeError(err, text, len,
                       "unranked tensor (only ranked static shapes are planned)");
  if (!acAccept(c, '['))
    return acTypeError(err, text, len, "expected '[' starting the shape");
  out->rank = 0;
  if (!acAccept(c, ']')) {
    for (;;) {
      if (out->rank >= AC_MAX_RANK) {
        char why[64];
        snprintf(why, sizeof why, "rank exceeds %d", AC_MAX_RANK);
        return acTypeError(err, text, len, why);
      }
      AcStatus st = acParseDim(c, &out->dims[out->rank], err, text, len);
      if (st != AC_OK)
        return st;
      ++out->rank;
      if (acAccept(c, ']'))
        break;
      if (!acAccept(c, ','))
        return acTypeError(err, text, len, "expected ',' or ']' in the shape");
    }
  }
  if (!acAccept(c, ','))
    return acTypeError(err, text, len, "expected ',' and an element type");
  /* The dtype runs to the next top-level ',' or the end. */
  size_t b = c->pos, e = c->pos;
  int depth = 0;
  while (e < c->len) {
    char ch = c->s[e];
    if (ch == '<')
      ++depth;
    else if (ch == '>') {
      if (--depth < 0)
        return acTypeError(err, text, len, "unbalanced '>'");
    } else if (ch == ',' && depth == 0)
      break;
    ++e;
  }
  if (depth != 0)
    return acTypeError(err, text, len, "unbalanced '<'");
  AcStatus st = acParseDtype(c->s, b, e, out, err, text, len);
  if (st != AC_OK)
    return st;
  out->isTensor = 1;
  return acCheckSize(out, err, text, len);
}

/* Builtin `AxBx...xT[, encoding/layout]` inside tensor<...> or memref<...>. */
static AcStatus acParseBuiltinBody(AcCursor *c, AcTensorType *out,
                                   AcError *err, const char *text, size_t len) {
  acSkipSpace(c);
  if (acPeek(c) == '*')
    return acTypeError(err, text, len,
                       "unranked tensor (only ranked static shapes are planned)");
  out->rank = 0;
  for (;;) {
    acSkipSpace(c);
    int ch = acPeek(c);
    if (ch == '?' && !c->dyn)
      return acTypeError(err, text, len,
                         "dynamic dimension '?' (only static shapes are planned)");
    if (!acIsDigit((char)ch) && ch != '?')
      break;
    /* A dimension is digits followed by 'x'; anything else is the element
     * type (e.g. "i32" never starts with a digit, so this is unambiguous). */
    size_t save = c->pos;
    int64_t v = 0;
    AcStatus st = acParseDim(c, &v, err, text, len);
    if (st != AC_OK)
      return st;
    if (acPeek(c) != 'x') {
      c->pos = save;
      return acTypeError(err, text, len, "expected 'x' after a dimension");
    }
    ++c->pos;
    if (out->rank >= AC_MAX_RANK) {
      char why[64];
      snprintf(why, sizeof why, "rank exceeds %d", AC_MAX_RANK);
      return acTypeError(err, text, len, why);
    }
    out->dims[out->rank++] = v;
  }
  size_t b = c->pos, e = c->pos;
  int depth = 0;
  while (e < c->len) {
    char ch = c->s[e];
    if (ch == '<')
      ++depth;
    else if (ch == '>') {
      if (--depth < 0)
        return acTypeError(err, text, len, "unbalanced '>'");
    } else if (ch == ',' && depth == 0)
      break;
    ++e;
  }
  if (depth != 0)
    return acTypeError(err, text, len, "unbalanced '<'");
  AcStatus st = acParseDtype(c->s, b, e, out, err, text, len);
  if (st != AC_OK)
    return st;
  out->isTensor = 1;
  return acCheckSize(out, err, text, len);
}

/* Runs `body` on the contents of a `<...>` group that starts at c->pos and
 * must close exactly at the end of the text. */
static AcStatus acParseAngled(AcCursor *c, int torchBody, AcTensorType *out,
                              AcError *err, const char *text, size_t len) {
  acSkipSpace(c);
  if (acPeek(c) != '<')
    return acTypeError(err, text, len, "expected '<'");
  size_t end = acBalancedEnd(c->s, c->pos, c->len);
  if (end == 0)
    return acTypeError(err, text, len, "unbalanced '<...>'");
  size_t after = end;
  while (after < c->len && acIsSpace(c->s[after]))
    ++after;
  if (after != c->len)
    return acTypeError(err, text, len, "unexpected text after the type");
  AcCursor in = {c->s, c->pos + 1, end - 1, c->dyn};
  return torchBody ? acParseTorchBody(&in, out, err, text, len)
                   : acParseBuiltinBody(&in, out, err, text, len);
}

/* A dialect type `!dialect.name` with an optional balanced `<...>`. */
static int acIsDialectType(const char *s, size_t len) {
  size_t i = 1, start;
  if (len < 2 || s[0] != '!')
    return 0;
  start = i;
  while (i < len && (acIsIdent(s[i]) || s[i] == '.' || s[i] == '$'))
    ++i;
  if (i == start)
    return 0;
  if (i == len)
    return 1;
  if (s[i] != '<')
    return 0;
  size_t end = acBalancedEnd(s, i, len);
  return end == len;
}

/* A builtin non-tensor type: iN, fN, index, none, complex<>, vector<>... */
static int acIsBuiltinScalar(const char *s, size_t len) {
  if (acEq(s, len, "none"))
    return 1;
  if (acElemBitsFromName(s, len) > 0)
    return 1;
  if (acStartsWith(s, len, "vector<") && acBalancedEnd(s, 6, len) == len)
    return 1;
  if (acStartsWith(s, len, "tuple<") && acBalancedEnd(s, 5, len) == len)
    return 1;
  return 0;
}

static AcStatus acTypeParseImpl(const char *text, size_t len, AcTensorType *out,
                                AcError *err, int dyn);

AcStatus acTypeParseTorch(const char *text, size_t len, AcTensorType *out,
                          AcError *err) {
  AcStatus st = acTypeParseImpl(text, len, out, err, 0);
  if (st != AC_OK && out)
    memset(out, 0, sizeof *out); /* nothing half-parsed escapes */
  return st;
}

AcStatus acTypeParseTorchDynamic(const char *text, size_t len,
                                 AcTensorType *out, AcError *err) {
  AcStatus st = acTypeParseImpl(text, len, out, err, 1);
  if (st != AC_OK && out)
    memset(out, 0, sizeof *out); /* nothing half-parsed escapes */
  return st;
}

static AcStatus acTypeParseImpl(const char *text, size_t len, AcTensorType *out,
                                AcError *err, int dyn) {
  if (!out)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "acTypeParseTorch: no output");
  memset(out, 0, sizeof *out);
  if (!text)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "unsupported type: no text");
  /* Trim. */
  size_t b = 0, e = len;
  while (b < e && acIsSpace(text[b]))
    ++b;
  while (e > b && acIsSpace(text[e - 1]))
    --e;
  const char *s = text + b;
  size_t n = e - b;
  if (n == 0)
    return acTypeError(err, text, len, "empty type");

  AcCursor c = {s, 0, n, dyn};
  /* Torch tensors: !torch.vtensor<...> and !torch.tensor<...>. */
  static const char *const torchTensors[] = {"!torch.vtensor", "!torch.tensor"};
  for (int k = 0; k < 2; ++k) {
    size_t kl = strlen(torchTensors[k]);
    if (acStartsWith(s, n, torchTensors[k]) && (n == kl || !acIsIdent(s[kl]))) {
      size_t p = kl;
      while (p < n && acIsSpace(s[p]))
        ++p;
      if (p == n)
        return acTypeError(err, text, len,
                           "unranked tensor (no shape; only ranked static "
                           "shapes are planned)");
      c.pos = p;
      return acParseAngled(&c, 1, out, err, text, len);
    }
  }
  /* Body form `[...],dtype`. */
  if (s[0] == '[')
    return acParseTorchBody(&c, out, err, text, len);
  /* Builtin shaped types. */
  if (acStartsWith(s, n, "tensor") && (n == 6 || !acIsIdent(s[6]))) {
    c.pos = 6;
    if (n == 6)
      return acTypeError(err, text, len, "expected '<'");
    return acParseAngled(&c, 0, out, err, text, len);
  }
  if (acStartsWith(s, n, "memref") && (n == 6 || !acIsIdent(s[6]))) {
    c.pos = 6;
    if (n == 6)
      return acTypeError(err, text, len, "expected '<'");
    return acParseAngled(&c, 0, out, err, text, len);
  }
  /* Any other dialect type (!torch.int, !torch.list<vtensor>, !torch.none,
   * !stablehlo.token, ...) and builtin scalars cost no memory. */
  if (s[0] == '!') {
    if (acIsDialectType(s, n))
      return AC_OK;
    return acTypeError(err, text, len, "malformed dialect type");
  }
  if (acIsBuiltinScalar(s, n))
    return AC_OK;
  return acTypeError(err, text, len, "not a type the cost model knows");
}
