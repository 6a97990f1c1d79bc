/* poly.c - polynomials in shape symbols with integer coefficients (poly.h). */
#include "graph/poly.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void acPolyClear(AcPoly *p) {
  if (!p)
    return;
  acFree(p->terms);
  memset(p, 0, sizeof *p);
}

int acMonoCmp(const AcMono *a, const AcMono *b) {
  if (a->deg != b->deg)
    return a->deg < b->deg ? -1 : 1;
  for (int32_t i = 0; i < a->deg; ++i)
    if (a->sym[i] != b->sym[i])
      return a->sym[i] < b->sym[i] ? -1 : 1;
  return 0;
}

int acMonoMulSym(AcMono *m, int32_t sym) {
  if (m->deg >= AC_POLY_MAX_DEG)
    return -1;
  int32_t i = m->deg;
  while (i > 0 && m->sym[i - 1] > sym) {
    m->sym[i] = m->sym[i - 1];
    --i;
  }
  m->sym[i] = sym;
  m->deg++;
  return 0;
}

/* a * b into *out without overflow: 0, or -1. */
static int acMulI64(int64_t a, int64_t b, int64_t *out) {
  return __builtin_mul_overflow(a, b, out) ? -1 : 0;
}

AcStatus acPolyAddMono(AcPoly *p, const AcMono *m, int64_t scale) {
  int64_t c;
  if (acMulI64(m->coef, scale, &c))
    return AC_ERR_INVALID;
  if (c == 0)
    return AC_OK;
  /* Binary search for the monomial's place. */
  intptr_t lo = 0, hi = p->num;
  while (lo < hi) {
    intptr_t mid = lo + (hi - lo) / 2;
    if (acMonoCmp(&p->terms[mid], m) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < p->num && acMonoCmp(&p->terms[lo], m) == 0) {
    int64_t s;
    if (__builtin_add_overflow(p->terms[lo].coef, c, &s))
      return AC_ERR_INVALID;
    if (s != 0) {
      p->terms[lo].coef = s;
      return AC_OK;
    }
    memmove(p->terms + lo, p->terms + lo + 1,
            (size_t)(p->num - lo - 1) * sizeof *p->terms);
    p->num--;
    return AC_OK;
  }
  if (!acArrayGrow((void **)&p->terms, &p->cap, p->num + 1, sizeof *p->terms))
    return AC_ERR_NOMEM;
  memmove(p->terms + lo + 1, p->terms + lo,
          (size_t)(p->num - lo) * sizeof *p->terms);
  p->terms[lo] = *m;
  p->terms[lo].coef = c;
  p->num++;
  return AC_OK;
}

AcStatus acPolyAdd(AcPoly *p, const AcPoly *q, int64_t scale) {
  for (intptr_t i = 0; i < q->num; ++i) {
    AcStatus st = acPolyAddMono(p, &q->terms[i], scale);
    if (st != AC_OK)
      return st;
  }
  return AC_OK;
}

int acPolyEval(const AcPoly *p, const int64_t *symVals, int64_t *out) {
  int64_t sum = 0;
  *out = INT64_MAX;
  for (intptr_t i = 0; i < p->num; ++i) {
    int64_t t = p->terms[i].coef;
    for (int32_t k = 0; k < p->terms[i].deg; ++k)
      if (__builtin_mul_overflow(t, symVals[p->terms[i].sym[k]], &t))
        return -1;
    if (__builtin_add_overflow(sum, t, &sum))
      return -1;
  }
  *out = sum;
  return 0;
}

static void acPolyPut(AcStrBuf *b, const char *s) {
  acStrBufAppend(b, s, strlen(s));
}

char *acPolyToString(const AcPoly *p, const char *const *names) {
  AcStrBuf b = {0};
  if (p->num == 0)
    acPolyPut(&b, "0");
  for (intptr_t i = p->num - 1; i >= 0; --i) {
    const AcMono *m = &p->terms[i];
    char num[32];
    if (i != p->num - 1)
      acPolyPut(&b, m->coef < 0 ? " - " : " + ");
    else if (m->coef < 0)
      acPolyPut(&b, "-");
    int64_t a = m->coef < 0 ? -m->coef : m->coef;
    if (a != 1 || m->deg == 0) {
      snprintf(num, sizeof num, "%" PRId64, a);
      acPolyPut(&b, num);
    }
    for (int32_t k = 0; k < m->deg;) {
      int32_t e = 1;
      while (k + e < m->deg && m->sym[k + e] == m->sym[k])
        ++e;
      if (k > 0 || a != 1)
        acPolyPut(&b, "*");
      acPolyPut(&b, names[m->sym[k]]);
      if (e > 1) {
        snprintf(num, sizeof num, "^%d", (int)e);
        acPolyPut(&b, num);
      }
      k += e;
    }
  }
  if (b.failed || !b.data) {
    acFree(b.data);
    return NULL;
  }
  return b.data;
}
