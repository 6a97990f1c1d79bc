/*===- import/unknown.h - the ops the cost model does not know (internal) -*- C -*-===*
 *
 * AcImport.unknownOps: one entry per name of the ops that neither the cost
 * model nor the user's cost table knows (the function stage marks them in
 * c->unknown, per graph op), with their count, first op and its location,
 * in order of first appearance; acImportWarnUnknownOps (import/import.h)
 * warns once per entry.  Made after the first import, and again after
 * normalize.c puts the graph in a new order (first ops change).
 * Calls only import/context.h and import/ir.h.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_UNKNOWN_H
#define AUTOAC_IMPORT_UNKNOWN_H

#include "import/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Fills c->imp->unknownOps (empty on entry) from c->unknown over the
/// graph's ops (c->imp->graph).  AC_OK, or AC_ERR_NOMEM with the error at
/// the module's location.
AcStatus acCollectUnknownOps(AcImportCtx *c);

#ifdef __cplusplus
}
#endif
#endif
