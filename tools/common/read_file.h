/*===- tools/common/read_file.h - a whole file into memory -------*- C -*-===*
 *
 * For the tools, benchmarks and tests that read MLIR or JSON files.  Not
 * part of the library: it allocates with malloc (free the result with free),
 * outside the allocation hook, so fault injection never counts it.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_TOOLS_READ_FILE_H
#define AUTOAC_TOOLS_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

/// The contents of `path`, NUL-terminated, with their length in *len; NULL
/// when the file cannot be opened or read, or memory runs out.
static inline char *acToolReadFile(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *data = NULL;
  long n;
  if (!f)
    return NULL;
  if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
    goto done;
  data = malloc((size_t)n + 1);
  if (!data)
    goto done;
  if (fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
    goto done;
  }
  data[n] = '\0';
  *len = (size_t)n;
done:
  fclose(f);
  return data;
}

#endif
