/* size.c - parsing memory sizes such as "24GB", "1.5GiB", "3e9".
 *
 * Grammar (surrounding blanks allowed, and blanks between number and unit):
 *   size   := number [unit]
 *   number := digits ['.' digits] [('e'|'E') ['+'|'-'] digits]  |  '.' digits ...
 *   unit   := B | KB | MB | GB | TB | KiB | MiB | GiB | TiB   (any case)
 * The decimal is evaluated exactly where the result is an integer number of
 * bytes, and otherwise rounded to the nearest byte.  strtod is not used: it
 * accepts "nan", "inf", hex floats and depends on the locale. */
#include "autoac/cost.h"

#include <math.h>
#include <string.h>

static const struct {
  const char *name;
  uint64_t mult;
} acUnits[] = {
    {"b", 1ULL},
    {"kb", 1000ULL},
    {"mb", 1000000ULL},
    {"gb", 1000000000ULL},
    {"tb", 1000000000000ULL},
    {"kib", 1ULL << 10},
    {"mib", 1ULL << 20},
    {"gib", 1ULL << 30},
    {"tib", 1ULL << 40},
};

static int acSzSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static int acSzDigit(char c) { return c >= '0' && c <= '9'; }
static char acSzLower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }

static AcStatus acSizeError(AcError *err, const char *text, const char *why) {
  size_t n = text ? strlen(text) : 0;
  int shown = n > 120 ? 120 : (int)n;
  if (why)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "invalid size '%.*s%s': %s", shown, text ? text : "",
                      n > 120 ? "..." : "", why);
  return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                    "invalid size '%.*s%s': expected bytes or a number with B, "
                    "KB, MB, GB, TB, KiB, MiB, GiB or TiB (e.g. 24GB, 1.5GiB, "
                    "3e9)",
                    shown, text ? text : "", n > 120 ? "..." : "");
}

/* 10^k for 0 <= k <= 19 (fits uint64). */
static uint64_t acPow10u(int k) {
  uint64_t v = 1;
  while (k-- > 0)
    v *= 10;
  return v;
}

/* The significand at *p (digits ['.' digits]), advancing *p: up to 19
 * significant digits exactly into *sig, further ones only shift the
 * exponent *dexp (integer part) or are dropped (fraction part); a dropped
 * digit changes the value by less than one part in 1e18.  0 when there is
 * no digit. */
static int acSzSignificand(const char **p, uint64_t *sig, long *dexp) {
  const char *q = *p;
  int sigDigits = 0, anyDigit = 0;
  *sig = 0;
  *dexp = 0;
  while (acSzDigit(*q)) {
    anyDigit = 1;
    if (*sig == 0 && *q == '0') {
      /* leading zero: no significance */
    } else if (sigDigits < 19) {
      *sig = *sig * 10 + (uint64_t)(*q - '0');
      ++sigDigits;
    } else {
      ++*dexp;
    }
    ++q;
  }
  if (*q == '.') {
    ++q;
    while (acSzDigit(*q)) {
      anyDigit = 1;
      if (*sig == 0 && *q == '0') {
        --*dexp;
      } else if (sigDigits < 19) {
        *sig = *sig * 10 + (uint64_t)(*q - '0');
        ++sigDigits;
        --*dexp;
      }
      ++q;
    }
  }
  *p = q;
  return anyDigit;
}

/* An exponent ('e'|'E' ['+'|'-'] digits) at *p, if any, added to *dexp,
 * advancing *p; 0 when the 'e' has no digits.  Its magnitude saturates at
 * 100000 (far past any size). */
static int acSzExponent(const char **p, long *dexp) {
  const char *q = *p;
  if (*q != 'e' && *q != 'E')
    return 1;
  ++q;
  int neg = 0;
  if (*q == '+' || *q == '-')
    neg = *q++ == '-';
  if (!acSzDigit(*q))
    return 0;
  long e = 0;
  while (acSzDigit(*q)) {
    if (e < 100000)
      e = e * 10 + (*q - '0');
    ++q;
  }
  *dexp += neg ? -e : e;
  *p = q;
  return 1;
}

/* The unit at `u` (none: bytes) into *mult; nothing but blanks may follow.
 * 0 for an unknown unit or anything after it. */
static int acSzUnit(const char *u, uint64_t *mult) {
  size_t ulen = 0;
  while (u[ulen] && !acSzSpace(u[ulen]))
    ++ulen;
  const char *rest = u + ulen;
  while (acSzSpace(*rest))
    ++rest;
  if (*rest)
    return 0;
  *mult = 1;
  if (ulen == 0)
    return 1;
  for (size_t i = 0; i < sizeof acUnits / sizeof acUnits[0]; ++i) {
    size_t n = strlen(acUnits[i].name);
    if (n != ulen)
      continue;
    size_t k = 0;
    while (k < n && acSzLower(u[k]) == acUnits[i].name[k])
      ++k;
    if (k == n) {
      *mult = acUnits[i].mult;
      return 1;
    }
  }
  return 0;
}

/* sig * 10^dexp * mult in bytes into *v (sig > 0): exact where it is an
 * integer, else rounded to the nearest byte; 0 when it passes uint64. */
static int acSzScale(uint64_t sig, long dexp, uint64_t mult, uint64_t *v) {
  if (dexp >= 0) {
    /* Exact integer: sig * 10^dexp * mult. */
    if (dexp > 19)
      return 0;
    uint64_t pw = acPow10u((int)dexp);
    if (sig > UINT64_MAX / pw)
      return 0;
    *v = sig * pw;
    if (*v > UINT64_MAX / mult)
      return 0;
    *v *= mult;
  } else if (dexp >= -19) {
    /* sig / d * mult with d = 10^-dexp: the integer part exactly, the
     * remainder rounded to nearest. */
    uint64_t d = acPow10u((int)-dexp);
    uint64_t q = sig / d, r = sig % d;
    if (q > UINT64_MAX / mult)
      return 0;
    *v = q * mult;
    long double frac = (long double)r * (long double)mult / (long double)d;
    uint64_t fr = (uint64_t)(frac + 0.5L);
    if (*v > UINT64_MAX - fr)
      return 0;
    *v += fr;
  } else {
    /* At most ~1.1e31 / 1e20: tiny, far from overflow. */
    long double x = (long double)sig * (long double)mult;
    x /= powl(10.0L, (long double)-dexp);
    *v = (uint64_t)(x + 0.5L);
  }
  return 1;
}

AcStatus acParseSize(const char *text, int64_t *out, AcError *err) {
  const char *tooBig = "too large (at most 9223372036854775807 bytes)";
  if (out)
    *out = 0;
  if (!text || !out)
    return acSizeError(err, text, NULL);
  const char *p = text;
  while (acSzSpace(*p))
    ++p;
  if (*p == '-')
    return acSizeError(err, text, "a size cannot be negative");
  if (*p == '+')
    ++p;
  uint64_t sig, mult, v;
  long dexp;
  if (!acSzSignificand(&p, &sig, &dexp) || !acSzExponent(&p, &dexp))
    return acSizeError(err, text, NULL);
  while (acSzSpace(*p))
    ++p;
  if (!acSzUnit(p, &mult))
    return acSizeError(err, text, NULL);
  if (sig == 0)
    return AC_OK; /* *out is 0 */
  if (!acSzScale(sig, dexp, mult, &v) || v > (uint64_t)INT64_MAX)
    return acSizeError(err, text, tooBig);
  *out = (int64_t)v;
  return AC_OK;
}
