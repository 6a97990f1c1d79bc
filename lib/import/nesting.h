/*===- import/nesting.h - how deep source text nests, before parsing -*- C -*-===*
 *
 * Plain C (no MLIR): part of the core's objects, so unit tests reach it.
 * MLIR's recursive-descent parser recurses once per nested attribute, type
 * or region, so text nested deeply enough overflows the stack of whatever
 * process parses it; autoac refuses such text up front (acParseModule).
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_IMPORT_NESTING_H
#define AUTOAC_IMPORT_NESTING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Deepest bracket nesting autoac parses: MLIR's parser, verifier, printer
/// and walks recurse once per level, so deeper text could overflow the stack.
#define AC_MAX_NESTING 1000

/// Bracket nesting of MLIR source text, counted before it is parsed: `(`,
/// `[`, `{` and `<` open (not `<=`), their partners close (not the `>` of
/// `->` or `>=`), strings (with backslash escapes, ending at the closing
/// quote or the line's end) and `//` comments are skipped.  Returns 1 and
/// the 1-based line and column (in bytes) of the first bracket that opens
/// level `limit` + 1, or 0 when the text never nests deeper than `limit`.
int acTextNestsDeeper(const char *text, size_t len, intptr_t limit,
                      int *line, int *column);

#ifdef __cplusplus
}
#endif

#endif
