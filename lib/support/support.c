/* support.c - status names, error filling and the single allocation hook. */
#include "autoac/support.h"
#include "support/testhooks.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int64_t acFailAt = 0;   /* allocation number that starts failing; 0 = never */
static int64_t acAllocs = 0;   /* allocations attempted so far */

void acErrorClear(AcError *err) {
  if (!err)
    return;
  err->status = AC_OK;
  err->op = AC_NONE;
  err->value = AC_NONE;
  err->message[0] = '\0';
}

AcStatus acErrorSet(AcError *err, AcStatus status, AcId op, AcId value,
                    const char *fmt, ...) {
  if (!err)
    return status;
  err->status = status;
  err->op = op;
  err->value = value;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return status;
}

const char *acStatusName(AcStatus status) {
  switch (status) {
  case AC_OK: return "ok";
  case AC_ERR_NOMEM: return "out of memory";
  case AC_ERR_INVALID: return "invalid input";
  case AC_ERR_IO: return "i/o error";
  case AC_ERR_INFEASIBLE: return "infeasible";
  case AC_ERR_INTERNAL: return "internal error";
  }
  return "unknown status";
}

static int64_t acAllocFails = 0; /* allocations that returned NULL */

static int acShouldFail(void) {
  ++acAllocs;
  if (acFailAt > 0 && acAllocs >= acFailAt) {
    ++acAllocFails;
    return 1;
  }
  return 0;
}

static void *acCounted(void *p) {
  if (!p)
    ++acAllocFails;
  return p;
}

void *acMalloc(size_t size) {
  if (acShouldFail())
    return NULL;
  return acCounted(malloc(size ? size : 1));
}

void *acCalloc(size_t n, size_t size) {
  if (acShouldFail())
    return NULL;
  if (n == 0 || size == 0)
    return acCounted(calloc(1, 1));
  return acCounted(calloc(n, size));
}

void *acRealloc(void *p, size_t size) {
  if (acShouldFail())
    return NULL;
  return acCounted(realloc(p, size ? size : 1));
}

void acFree(void *p) { free(p); }

int acArrayGrow(void **p, intptr_t *cap, intptr_t need, size_t elem) {
  if (need <= *cap)
    return 1;
  intptr_t ncap = *cap > 0 ? *cap : 16;
  while (ncap < need) {
    if (ncap > INTPTR_MAX / 2)
      return 0;
    ncap *= 2;
  }
  if (elem && (size_t)ncap > SIZE_MAX / elem)
    return 0;
  void *q = acRealloc(*p, (size_t)ncap * elem);
  if (!q)
    return 0;
  *p = q;
  *cap = ncap;
  return 1;
}

double acClockSeconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void acPermuteInPlace(void *base, size_t size, const AcId *from, intptr_t n,
                      uint8_t *done) {
  unsigned char tmp[256], *a = base;
  assert(size <= sizeof tmp);
  for (intptr_t k = 0; k < n; ++k) {
    if (done[k] || from[k] == k)
      continue;
    /* The cycle through k: each place takes the element it is to hold. */
    memcpy(tmp, a + (size_t)k * size, size);
    intptr_t j = k;
    for (; from[j] != k; j = from[j]) {
      memcpy(a + (size_t)j * size, a + (size_t)from[j] * size, size);
      done[j] = 1;
    }
    memcpy(a + (size_t)j * size, tmp, size);
    done[j] = 1;
  }
  memset(done, 0, (size_t)n);
}

char *acStrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *r = acMalloc(n);
  if (r)
    memcpy(r, s, n);
  return r;
}

void acStrBufAppend(AcStrBuf *b, const char *s, size_t n) {
  if (b->failed)
    return;
  if (b->len + n + 1 > b->cap) {
    size_t c = b->cap ? b->cap * 2 : 256;
    while (c < b->len + n + 1)
      c *= 2;
    char *q = acRealloc(b->data, c);
    if (!q) {
      b->failed = 1;
      return;
    }
    b->data = q;
    b->cap = c;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

int acStrBufReserve(AcStrBuf *b, size_t cap) {
  if (b->failed)
    return -1;
  if (cap <= b->cap)
    return 0;
  char *q = acRealloc(b->data, cap);
  if (!q)
    return -1;
  if (!b->data)
    q[0] = '\0';
  b->data = q;
  b->cap = cap;
  return 0;
}

void acStrBufClear(AcStrBuf *b) {
  acFree(b->data);
  memset(b, 0, sizeof *b);
}

int acUtf8Valid(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s, *end = p + n;
  while (p < end) {
    unsigned c = *p++;
    int more;
    unsigned min, cp;
    if (c < 0x80)
      continue;
    if (c >= 0xC2 && c <= 0xDF) {
      more = 1; min = 0x80; cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      more = 2; min = 0x800; cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      more = 3; min = 0x10000; cp = c & 0x07;
    } else {
      return 0;
    }
    if (end - p < more)
      return 0;
    for (int k = 0; k < more; ++k) {
      if ((p[k] & 0xC0) != 0x80)
        return 0;
      cp = (cp << 6) | (p[k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return 0;
    p += more;
  }
  return 1;
}

void acFormatBytes(int64_t bytes, char *buf, size_t n) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = (double)bytes;
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  snprintf(buf, n, u ? "%.2f %s" : "%.0f %s", v, units[u]);
}

/* "256 MiB" for messages about a read limit. */
static void acLimitText(size_t limit, char *buf, size_t n) {
  acFormatBytes(limit > (size_t)INT64_MAX ? INT64_MAX : (int64_t)limit, buf, n);
}

/* The checks of one chunk just read at data[from..n): a NUL byte in text. */
static AcStatus acReadCheck(const char *data, size_t from, size_t n, int flags,
                            const char *what, const char *path, AcError *err) {
  const char *nul = (flags & AC_READ_TEXT) ? memchr(data + from, '\0', n - from) : NULL;
  if (nul)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "%s '%s' holds a NUL byte at offset %zu: it is not a "
                      "text file", what, path, (size_t)(nul - data));
  return AC_OK;
}

/* The reader's allocator: the hook's, or (AC_READ_MALLOC) libc's. */
static void *acReadGrow(int flags, void *p, size_t n) {
  return (flags & AC_READ_MALLOC) ? realloc(p, n) : acRealloc(p, n);
}

AcStatus acReadFd(int fd, const char *what, const char *path, size_t limit,
                  int flags, char **out, size_t *len, AcError *err) {
  struct stat st;
  char lim[32];
  size_t cap = (size_t)1 << 16, n = 0;
  AcStatus status = AC_OK;
  char *data = NULL;
  *out = NULL;
  *len = 0;
  if (limit > SIZE_MAX / 4)
    limit = SIZE_MAX / 4;
  acLimitText(limit, lim, sizeof lim);
  if (fstat(fd, &st) != 0)
    return acErrorSet(err, AC_ERR_IO, AC_NONE, AC_NONE, "cannot read %s '%s': %s",
                      what, path, strerror(errno));
  if (S_ISDIR(st.st_mode))
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "cannot read %s '%s': it is a directory", what, path);
  if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > (uintmax_t)limit)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "%s '%s' is %jd bytes, more than the %zu bytes (%s) "
                      "autoac reads", what, path, (intmax_t)st.st_size, limit, lim);
  /* A regular file: its size (+1 for the NUL, +1 to see the end) in one
   * read; anything else grows by doubling, up to limit + 1 bytes. */
  if (S_ISREG(st.st_mode) && st.st_size > 0)
    cap = (size_t)st.st_size + 2;
  if (cap > limit + 2)
    cap = limit + 2;
  if (!(data = acReadGrow(flags, NULL, cap)))
    goto nomem;
  for (;;) {
    if (n + 1 == cap) {
      if (n > limit) {
        status = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                            "%s '%s' is more than %zu bytes (%s), the most "
                            "autoac reads; it stopped reading there", what,
                            path, limit, lim);
        goto fail;
      }
      size_t ncap = cap <= (limit + 2) / 2 ? cap * 2 : limit + 2;
      char *q = acReadGrow(flags, data, ncap);
      if (!q)
        goto nomem;
      data = q;
      cap = ncap;
    }
    ssize_t got = read(fd, data + n, cap - n - 1);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      status = acErrorSet(err, AC_ERR_IO, AC_NONE, AC_NONE,
                          "cannot read %s '%s': %s", what, path, strerror(errno));
      goto fail;
    }
    if (got == 0)
      break;
    if ((status = acReadCheck(data, n, n + (size_t)got, flags, what, path, err)) != AC_OK)
      goto fail;
    n += (size_t)got;
  }
  if (n > limit) {
    status = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "%s '%s' is more than %zu bytes (%s), the most autoac "
                        "reads", what, path, limit, lim);
    goto fail;
  }
  data[n] = '\0';
  *out = data;
  *len = n;
  return AC_OK;
nomem:
  status = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                      "out of memory reading %s '%s'", what, path);
fail:
  if (flags & AC_READ_MALLOC)
    free(data);
  else
    acFree(data);
  return status;
}

AcStatus acReadFile(const char *path, const char *what, size_t limit, int flags,
                    char **out, size_t *len, AcError *err) {
  int fd;
  *out = NULL;
  *len = 0;
  do
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  while (fd < 0 && errno == EINTR);
  if (fd < 0)
    return acErrorSet(err, AC_ERR_IO, AC_NONE, AC_NONE, "cannot read %s '%s': %s",
                      what, path, strerror(errno));
  AcStatus st = acReadFd(fd, what, path, limit, flags, out, len, err);
  close(fd);
  return st;
}

void acAllocFailAfter(int64_t n) {
  acFailAt = n > 0 ? acAllocs + n : 0;
}

int64_t acAllocCount(void) { return acAllocs; }

int64_t acAllocFailCount(void) { return acAllocFails; }

/* jansson allocates through the hook too, so that fault injection reaches
 * the report and plan-file code.  Installed when the library is loaded,
 * before any JSON value can exist: jansson's allocator must not change while
 * values are alive.  acMalloc/acFree are malloc/free underneath, so a value a
 * host process built with jansson's defaults before loading libautoac is
 * still freed correctly. */
static void *acJsonMalloc(size_t size) { return acMalloc(size); }

__attribute__((constructor)) static void acJsonUseHook(void) {
  json_set_alloc_funcs(acJsonMalloc, acFree);
}
