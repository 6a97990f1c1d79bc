/*===- tools/common/read_file.h - a whole file into memory -------*- C -*-===*
 *
 * For the tools, benchmarks and tests that read MLIR or JSON files.  Not
 * part of the library: it allocates with malloc (free the result with free),
 * outside the allocation hook, so fault injection never counts it.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_TOOLS_READ_FILE_H
#define AUTOAC_TOOLS_READ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/// The rest of stream `f`, NUL-terminated, with its length in *len; NULL on
/// a read error or when memory runs out.  Read straight into one buffer,
/// sized by fstat for a regular file (one read, no copies as it grows); a
/// pipe or terminal grows it by doubling.
static inline char *acToolReadStream(FILE *f, size_t *len) {
  struct stat st;
  size_t cap = 1 << 16, n = 0;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    cap = (size_t)st.st_size + 2; /* +1 for the NUL, +1 to see the end */
  char *data = malloc(cap);
  while (data) {
    size_t got = fread(data + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0)
      break;
    if (cap - n - 1 == 0) {
      char *q = cap <= SIZE_MAX / 2 ? realloc(data, cap * 2) : NULL;
      if (!q) {
        free(data);
        data = NULL;
        break;
      }
      data = q;
      cap *= 2;
    }
  }
  if (!data || ferror(f)) {
    free(data);
    return NULL;
  }
  data[n] = '\0';
  *len = n;
  return data;
}

/// The contents of `path`, NUL-terminated, with their length in *len; NULL
/// when the file cannot be opened or read, or memory runs out.
static inline char *acToolReadFile(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *data = acToolReadStream(f, len);
  fclose(f);
  return data;
}

#endif
