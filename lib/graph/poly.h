/*===- graph/poly.h - byte sizes as polynomials in shape symbols -*- C -*-===*
 *
 * A dynamic tensor's bytes are a product of its dimensions and its element
 * size: one monomial in the shape symbols (docs/cost-model.md, "Sizes as
 * polynomials").  A live set's bytes are a sum of such monomials: a
 * polynomial with non-negative integer coefficients.  An AcPoly is a list
 * of monomials kept canonical (sorted, like terms merged, no zero term), so
 * two equal polynomials have equal term lists.  Plain C, internal.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_GRAPH_POLY_H
#define AUTOAC_GRAPH_POLY_H

#include "autoac/support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most symbol factors in one monomial (a tensor's rank bound).
#define AC_POLY_MAX_DEG 16

/// coef * sym[0] * sym[1] * ... * sym[deg-1] (symbol ids ascending, a
/// symbol repeated for a power).
typedef struct AcMono {
  int64_t coef;
  int32_t deg;
  int32_t sym[AC_POLY_MAX_DEG];
} AcMono;

/// A sum of monomials, canonical (see above).  Zero is the empty list.
typedef struct AcPoly {
  AcMono *terms;
  intptr_t num, cap;
} AcPoly;

/// Frees the terms and makes `p` zero; a zeroed AcPoly needs no init.
void acPolyClear(AcPoly *p);
/// Orders monomials by degree, then symbol ids (coefficients ignored).
int acMonoCmp(const AcMono *a, const AcMono *b);
/// Multiplies `m` by symbol `sym` (kept sorted).  0, or -1 when the degree
/// would pass AC_POLY_MAX_DEG.
int acMonoMulSym(AcMono *m, int32_t sym);
/// p += scale * m.  AC_ERR_NOMEM, or AC_ERR_INVALID on coefficient
/// overflow; `p` is unchanged on failure.
AcStatus acPolyAddMono(AcPoly *p, const AcMono *m, int64_t scale);
/// p += scale * q (`p` may be `q`: not supported).
AcStatus acPolyAdd(AcPoly *p, const AcPoly *q, int64_t scale);
/// The value at `symVals` (indexed by symbol id) into `*out`: 0, or -1 on
/// overflow of int64_t (then `*out` is INT64_MAX).
int acPolyEval(const AcPoly *p, const int64_t *symVals, int64_t *out);
/// `p` as text, terms by descending degree: "4096*a*b + 12*a^2 + 130023424"
/// ("0" for zero), symbol i named names[i].  acFree the result; NULL when
/// out of memory.
char *acPolyToString(const AcPoly *p, const char *const *names);

#ifdef __cplusplus
}
#endif
#endif
