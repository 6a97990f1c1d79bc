/* dynamic.c - the report's keys for dynamic shapes (dynamic.h).
 *
 * Each value's bytes as a polynomial (acSymbolsValueBytes; a value whose
 * graph bytes are not its polynomial at the bounds, a view or a tensor
 * constant counting nothing, keeps its graph bytes as a constant), then the
 * plan's formula (simulate/formula.h), checked against the simulation at
 * the bounds. */
#include "pass/dynamic.h"
#include "import/symbols.h"
#include "simulate/formula.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* Every value's bytes as a polynomial, into polys[numValues]. */
static AcStatus acValuePolys(const AcImport *imp, const int64_t *bounds,
                             AcPoly *polys) {
  const AcGraph *g = imp->graph;
  for (intptr_t v = 0; v < g->numValues; ++v) {
    int64_t b = g->values[v].bytes, at = -1;
    int r = b > 0 ? acSymbolsValueBytes(imp->symbols, imp->values[v], &polys[v]) : 0;
    if (r < 0)
      return AC_ERR_NOMEM;
    if (r == 1 && acPolyEval(&polys[v], bounds, &at) == 0 && at == b)
      continue;
    acPolyClear(&polys[v]);
    AcMono k;
    memset(&k, 0, sizeof k);
    k.coef = b;
    if (b > 0 && acPolyAddMono(&polys[v], &k, 1) != AC_OK)
      return AC_ERR_NOMEM;
  }
  return AC_OK;
}

/* The JSON object (owned by the caller) for formula `f`. */
static json_t *acDynamicObject(const AcSymbols *syms, const AcSimFormula *f,
                               const int64_t *bounds, const AcSimResult *sim) {
  json_t *o = json_object(), *symbols = json_array(), *pieces = json_array();
  const char *const *names = acSymbolNames(syms);
  int failed = !o || !symbols || !pieces;
  for (intptr_t i = 0; !failed && i < acSymbolsCount(syms); ++i) {
    json_t *e = json_pack("{s:s, s:I}", "name", names[i], "bound",
                          (json_int_t)bounds[i]);
    json_t *args = json_array();
    const char *p = acSymbolArgs(syms, i);
    while (args && *p) {
      const char *end = strchr(p, ',');
      size_t n = end ? (size_t)(end - p) : strlen(p);
      if (json_array_append_new(args, json_stringn(p, n)) != 0)
        failed = 1;
      p = end ? end + 1 : p + n;
    }
    if (!e || !args) {
      json_decref(e);
      json_decref(args);
      failed = 1;
      break;
    }
    /* each call takes its reference, also when it fails */
    failed |= json_object_set_new(e, "args", args) != 0;
    failed |= json_array_append_new(symbols, e) != 0;
  }
  AcPoly p = {0};
  intptr_t step = sim->peakStep >= 0 ? sim->peakStep : 0;
  char *text = NULL;
  if (!failed && acSimFormulaAtStep(f, step, &p) == AC_OK &&
      (text = acPolyToString(&p, names)))
    failed |= json_object_set_new(o, "peak_formula", json_string(text)) != 0;
  else
    failed = 1;
  acFree(text);
  text = NULL;
  acPolyClear(&p);
  intptr_t max = 64, num = 0, *steps = acMalloc((size_t)max * sizeof *steps);
  int complete = 0;
  if (!steps || acSimFormulaPieces(f, bounds, max, steps, &num, &complete) != AC_OK)
    failed = 1;
  for (intptr_t i = 0; !failed && i < num; ++i) {
    failed = acSimFormulaAtStep(f, steps[i], &p) != AC_OK ||
             !(text = acPolyToString(&p, names)) ||
             json_array_append_new(pieces, json_string(text)) != 0;
    acFree(text);
    text = NULL;
    acPolyClear(&p);
  }
  acFree(steps);
  if (!failed) {
    failed |= json_object_set_new(o, "symbols", symbols) != 0;
    symbols = NULL;
    failed |= json_object_set_new(o, "peak_pieces", pieces) != 0;
    pieces = NULL;
    failed |= json_object_set_new(o, "peak_pieces_complete",
                                  json_boolean(complete)) != 0;
    failed |= json_object_set_new(o, "peak_at_bounds",
                                  json_integer(sim->peakBytes)) != 0;
    failed |= json_object_set_new(o, "cost_at", json_string("bounds")) != 0;
  }
  json_decref(symbols);
  json_decref(pieces);
  if (failed) {
    json_decref(o);
    return NULL;
  }
  return o;
}

char *acDynamicReportJson(const AcImport *imp, const AcPlan *plan,
                          const AcSimResult *sim, const AcOptions *opts,
                          AcStatus *st, AcError *err) {
  *st = AC_OK;
  const AcSymbols *syms = imp->symbols;
  if (!syms || acSymbolsCount(syms) == 0)
    return NULL;
  const AcGraph *g = imp->graph;
  intptr_t ns = acSymbolsCount(syms);
  int64_t *bounds = acMalloc(((size_t)ns + 1) * sizeof *bounds);
  AcPoly *polys = acCalloc((size_t)g->numValues + 1, sizeof *polys);
  AcSimFormula *f = NULL;
  char *out = NULL;
  json_t *o = NULL;
  if (!bounds || !polys) {
    *st = AC_ERR_NOMEM;
    goto cleanup;
  }
  for (intptr_t i = 0; i < ns; ++i)
    bounds[i] = acSymbolBound(syms, i);
  if ((*st = acValuePolys(imp, bounds, polys)) != AC_OK)
    goto cleanup;
  *st = acSimFormulaCreate(g, plan, polys, opts->optimizerFactor, opts->reserve,
                           &f, err);
  if (*st != AC_OK)
    goto cleanup;
  /* The formula at the bounds is the simulation there (-1: out of memory,
     the sizes at the bounds cannot overflow). */
  int64_t atBounds = acSimFormulaPeakAt(f, bounds, NULL);
  if (atBounds < 0) {
    *st = AC_ERR_NOMEM;
    goto cleanup;
  }
  if (atBounds != sim->peakBytes) {
    *st = acErrorSet(err, AC_ERR_INTERNAL, AC_NONE, AC_NONE,
                     "autoac: the peak formula at the bounds differs from the "
                     "simulated peak");
    goto cleanup;
  }
  if (!(o = acDynamicObject(syms, f, bounds, sim))) {
    *st = AC_ERR_NOMEM;
    goto cleanup;
  }
  char *dumped = json_dumps(o, JSON_COMPACT);
  if (dumped) {
    out = acStrdup(dumped);
    free(dumped);
  }
  if (!out)
    *st = AC_ERR_NOMEM;
cleanup:
  if (*st == AC_ERR_NOMEM)
    acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
               "autoac: out of memory while building the peak formula");
  json_decref(o);
  acSimFormulaDestroy(f);
  for (intptr_t v = 0; polys && v < g->numValues; ++v)
    acPolyClear(&polys[v]);
  acFree(polys);
  acFree(bounds);
  return out;
}
