/*===- autoac/support.h - status codes, errors, allocation hook -*- C -*-===*
 *
 * Every fallible function in libautoac returns an AcStatus and, when given a
 * non-NULL AcError, fills it with a message naming what went wrong and, where
 * known, the op or value (graph ids) it concerns, so the MLIR layer can attach
 * a source location.  All heap memory goes through acMalloc/acCalloc/
 * acRealloc/acFree so that tests can inject allocation failures.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_SUPPORT_H
#define AUTOAC_SUPPORT_H

#include "autoac/export.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes returned by every fallible libautoac function.
typedef enum AcStatus {
  AC_OK = 0,
  AC_ERR_NOMEM = 1,    ///< an allocation failed
  AC_ERR_INVALID = 2,  ///< the input (IR, option, plan file) is not acceptable
  AC_ERR_IO = 3,       ///< reading or writing a file failed
  AC_ERR_INFEASIBLE = 4, ///< constraints contradict (e.g. forced recompute of a random op)
  AC_ERR_INTERNAL = 5  ///< an invariant broke: a bug in autoac
} AcStatus;

/// Graph id of an op or value; AC_NONE when absent.
typedef int32_t AcId;
#define AC_NONE ((AcId)-1)

/// An error with a human-readable message and the graph entity it concerns.
typedef struct AcError {
  AcStatus status;
  AcId op;     ///< op the error is about, or AC_NONE
  AcId value;  ///< value the error is about, or AC_NONE
  char message[512];
} AcError;

/// Resets `err` (may be NULL) to "no error".
AUTOAC_API void acErrorClear(AcError *err);

/// Fills `err` (may be NULL) with status, op, value and a printf-style
/// message; returns `status` so callers can `return acErrorSet(...)`.
AcStatus acErrorSet(AcError *err, AcStatus status, AcId op, AcId value,
                    const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/// Returns a short constant name for a status ("ok", "out of memory", ...).
AUTOAC_API const char *acStatusName(AcStatus status);

/// malloc through the library's single allocation hook; NULL on failure.
void *acMalloc(size_t size);
/// calloc through the hook; NULL on failure (also on overflow of n*size).
void *acCalloc(size_t n, size_t size);
/// realloc through the hook; on failure returns NULL and leaves `p` intact.
void *acRealloc(void *p, size_t size);
/// free; NULL is accepted.
AUTOAC_API void acFree(void *p);
/// Grows the array `*p` of `elem`-byte elements, with room for `*cap`, to
/// room for at least `need` (capacity doubled from 16, through acRealloc):
/// the one growth helper of the library.  Returns 1 when there is room
/// (`*p` and `*cap` updated if it grew; the first elements kept), 0 on
/// allocation failure or a size past SIZE_MAX, leaving `*p` and `*cap` as
/// they were (the caller still owns and frees `*p`).
int acArrayGrow(void **p, intptr_t *cap, intptr_t need, size_t elem);
/// Permutes `n` elements of `size` bytes (at most 256) at `base` in
/// place: element k becomes the one that was at `from[k]` (a permutation
/// of 0..n-1).  `done` ([n], zeroed) is scratch, left zeroed.  Each element
/// is moved once, following the permutation's cycles: no second array.
void acPermuteInPlace(void *base, size_t size, const AcId *from, intptr_t n,
                      uint8_t *done);
/// Seconds on the monotonic clock (for deadlines and timings).
double acClockSeconds(void);
/// strdup through the hook.
char *acStrdup(const char *s);

/// A growable NUL-terminated text buffer; zero-initialise before use.  An
/// allocation failure sets `failed` and drops the text appended after it.
typedef struct AcStrBuf {
  char *data;
  size_t len, cap;
  int failed;
} AcStrBuf;
/// Appends `n` bytes of `s`.
void acStrBufAppend(AcStrBuf *b, const char *s, size_t n);
/// Makes room for `cap` bytes (the NUL included) in one allocation, so that
/// appends up to that size copy nothing; 0, or -1 when memory runs out (the
/// buffer is left as it was and still usable).  A failed buffer stays failed.
int acStrBufReserve(AcStrBuf *b, size_t cap);
/// Frees the buffer's text and zeroes it.
void acStrBufClear(AcStrBuf *b);
/// 1 if the `n` bytes at `s` are well-formed UTF-8 (no overlong forms, no
/// surrogates, nothing above U+10FFFF), else 0.
int acUtf8Valid(const char *s, size_t n);
/// Writes `bytes` for people into `buf`: "512 B", "1.25 MiB", "16.00 GiB".
void acFormatBytes(int64_t bytes, char *buf, size_t n);

/// The most bytes autoac reads from a JSON file it is given (a plan file, a
/// cost table): far above any real one (a plan of a million-op graph is
/// about 20 MB), low enough that a wrong file is refused at once.
#define AC_MAX_JSON_FILE_BYTES ((size_t)256 << 20)
/// The most bytes of MLIR text the tools read (about ten million ops).
#define AC_MAX_MLIR_FILE_BYTES ((size_t)1 << 30)
/// acReadFd flag: the file is text; a NUL byte (a binary file, /dev/zero)
/// is refused as soon as it is read, naming its offset.
#define AC_READ_TEXT 1
/// acReadFd flag: the buffer is made with malloc/realloc (free it with
/// free), outside the allocation hook: for the tools, whose input must not
/// count in fault injection.  Without it, acRealloc (free with acFree).
#define AC_READ_MALLOC 2
/// The one reader of whole files (plan files, cost tables, the tools'
/// MLIR input): reads the rest of open descriptor `fd` into a NUL-terminated
/// buffer (*out, length in *len; see AC_READ_MALLOC for how to free it).
/// Never reads without end: a regular file larger than `limit` bytes is
/// refused before anything is read, any other file (a pipe, a device such
/// as /dev/zero) once `limit` bytes were read and more come; a directory is
/// refused ("is a directory").  `what` and `path` name the file in every
/// message ("plan file", "p.json").  AC_ERR_IO on a read error,
/// AC_ERR_INVALID for a directory, a file too large or (AC_READ_TEXT) a NUL
/// byte, AC_ERR_NOMEM when memory runs out; *out is NULL on failure.
AUTOAC_API AcStatus acReadFd(int fd, const char *what, const char *path,
                             size_t limit, int flags, char **out, size_t *len,
                             AcError *err);
/// acReadFd on the file `path`, opened read-only, through acRealloc (free
/// the result with acFree); a file that cannot be opened is AC_ERR_IO
/// naming the reason.
AUTOAC_API AcStatus acReadFile(const char *path, const char *what, size_t limit,
                               int flags, char **out, size_t *len, AcError *err);

/// Registers `path` (kept by the caller until acTempUnregister) as a
/// temporary file that a signal ending the process removes; returns the slot
/// to unregister, or -1 when all 64 slots are taken (the file is then not
/// removed on a signal).  Thread-safe and lock-free.
int acTempRegister(const char *path);
/// Forgets a slot of acTempRegister (-1 is accepted); call it before the
/// path's memory is freed.
void acTempUnregister(int slot);
/// Removes every registered file: async-signal-safe (unlink only).
void acTempRemoveAll(void);
/// Installs, once per process, a handler on SIGINT, SIGTERM and SIGHUP
/// (those not ignored) that removes the registered temporary files and then
/// gives the signal to the handler it replaced (by default: the process
/// ends by the signal).  For tools and the pass; a library host (Python)
/// keeps its own signal handling unless it calls this.
AUTOAC_API void acSignalCleanupInstall(void);

#ifdef __cplusplus
}
#endif
#endif
