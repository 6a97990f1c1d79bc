/*===- pass/dynamic.h - the report's part for dynamic shapes ------*- C -*-===*
 *
 * With shape symbols (import/symbols.h) the plan is made and simulated at
 * the bounds; this adds to the report what holds at every size up to them
 * (docs/contract.md, section 4, "Dynamic dimensions").
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_PASS_DYNAMIC_H
#define AUTOAC_PASS_DYNAMIC_H

#include "autoac/autoac.h"
#include "autoac/simulate.h"
#include "import/import.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The report's keys for a plan on an import with symbols, as the text of a
/// JSON object (acFree it): `symbols` ([{name, bound}]), `peak_formula` (the
/// bytes live at the peak at the bounds as a polynomial in the symbols,
/// static part included), `peak_pieces` (every step's polynomial that no
/// other's dominates: the peak at any sizes is their maximum),
/// `peak_pieces_complete`, `peak_at_bounds` and `cost_at: "bounds"`.
/// NULL with AC_OK in `*st` when the import has no symbols; NULL with a
/// status and `err` filled on failure.
char *acDynamicReportJson(const AcImport *imp, const AcPlan *plan,
                          const AcSimResult *sim, const AcOptions *opts,
                          AcStatus *st, AcError *err);

#ifdef __cplusplus
}
#endif
#endif
