/*===- simulate/formula.h - the peak as a formula in shape symbols -*- C -*-===*
 *
 * With dynamic shapes every value's bytes are a polynomial in the shape
 * symbols (graph/poly.h); the graph's own bytes are their values at the
 * bounds, and the plan is made and simulated there.  A plan's liveness does
 * not depend on sizes (which value is live at which step is decided by the
 * schedule, the plan and the in-place rule only), so each step's live bytes
 * are the same sum of value sizes at every size: a polynomial.  The formula
 * keeps, per step, the coefficient of every monomial that occurs, found by
 * simulating once per monomial with each value's bytes set to its
 * coefficient of that monomial (the simulator is linear in the bytes).
 * Workspaces and the reserve are counted in the constant term, at the
 * bounds.  Internal (docs/cost-model.md, "Sizes as polynomials").
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_SIMULATE_FORMULA_H
#define AUTOAC_SIMULATE_FORMULA_H

#include "autoac/simulate.h"
#include "graph/poly.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Per-step live bytes of one plan as polynomials.
typedef struct AcSimFormula AcSimFormula;

/// Builds the formula of derived `plan` on `g`: valueBytes[v] is value v's
/// bytes (g->values[v].bytes is its value at the bounds; a view's is zero),
/// `optimizerFactor` and `reserve` as for acSimStaticBytes.  Status codes of
/// acSimulate; AC_ERR_INVALID when a value's polynomial has a negative
/// coefficient.
AcStatus acSimFormulaCreate(const AcGraph *g, const AcPlan *plan,
                            const AcPoly *valueBytes, double optimizerFactor,
                            int64_t reserve, AcSimFormula **out, AcError *err);
/// Frees a formula; NULL is accepted.
void acSimFormulaDestroy(AcSimFormula *f);
/// Steps of the simulated timeline (acSimulate's numSteps).
intptr_t acSimFormulaNumSteps(const AcSimFormula *f);
/// The peak (static part included) with symbol i at symVals[i]: the maximum
/// over steps; `*stepOut` (may be NULL) the first step reaching it.  -1 on
/// overflow of int64_t or when out of memory.
int64_t acSimFormulaPeakAt(const AcSimFormula *f, const int64_t *symVals,
                           intptr_t *stepOut);
/// The bytes live at `step` (static part included) as a polynomial, into
/// `*out` (cleared first).
AcStatus acSimFormulaAtStep(const AcSimFormula *f, intptr_t step, AcPoly *out);

/// The pieces of the peak: steps whose polynomials no other step's
/// dominates coefficient by coefficient (a dominated step is never the
/// maximum at any sizes >= 0, so the peak at any sizes is the maximum of
/// the pieces), equal polynomials once, ordered by their value at
/// `symVals` (descending; the first is the peak there).  At most `max` into
/// steps[]; `*num` their count; `*complete` 0 when more were left out.
AcStatus acSimFormulaPieces(const AcSimFormula *f, const int64_t *symVals,
                            intptr_t max, intptr_t *steps, intptr_t *num,
                            int *complete);

#ifdef __cplusplus
}
#endif
#endif
