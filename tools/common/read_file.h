/*===- tools/common/read_file.h - a whole file into memory -------*- C -*-===*
 *
 * For the tools, benchmarks and tests that read MLIR or JSON files: the
 * library's one reader (acReadFd, autoac/support.h) with malloc (free the
 * result with free), outside the allocation hook, so fault injection never
 * counts it.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_TOOLS_READ_FILE_H
#define AUTOAC_TOOLS_READ_FILE_H

#include "autoac/support.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/// The rest of stream `f` (nothing buffered from it yet), NUL-terminated,
/// with its length in *len; NULL on a read error, when memory runs out or
/// past AC_MAX_MLIR_FILE_BYTES.  For messages, use acReadFd itself.
static inline char *acToolReadStream(FILE *f, size_t *len) {
  char *data = NULL;
  if (acReadFd(fileno(f), "file", "", AC_MAX_MLIR_FILE_BYTES, AC_READ_MALLOC,
               &data, len, NULL) != AC_OK)
    return NULL;
  return data;
}

/// The contents of `path`, NUL-terminated, with their length in *len; NULL
/// when the file cannot be opened or read, or memory runs out.
static inline char *acToolReadFile(const char *path, size_t *len) {
  char *data = NULL;
  if (acReadFile(path, "file", AC_MAX_MLIR_FILE_BYTES, AC_READ_MALLOC, &data,
                 len, NULL) != AC_OK)
    return NULL;
  return data;
}

#endif
