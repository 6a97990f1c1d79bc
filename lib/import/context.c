/* context.c - the helpers every import stage reports and records through
 * (import/context.h). */
#include "import/context.h"

#include <string.h>

AcStatus acImportFail(AcImportCtx *c, MlirLocation loc, AcStatus st, AcId op,
                      const char *fmt, const char *a, const char *b2) {
  acErrorSet(c->err, st, op, AC_NONE, fmt, a, b2);
  if (c->errLoc)
    *c->errLoc = loc;
  return st;
}

/* A tensor whose byte size does not fit in what autoac counts. */
AcStatus acImportTooBig(AcImportCtx *c, MlirLocation loc, AcId op, const char *what) {
  return acImportFail(c, loc, AC_ERR_INVALID, op,
                      "%s is larger than autoac can count (2^62 - 1 bytes, 4 EiB)%s",
                      what, "");
}

AcStatus acImportNoMem(AcImportCtx *c, MlirLocation loc) {
  return acImportFail(c, loc, AC_ERR_NOMEM, AC_NONE, "out of memory during import%s%s", "", "");
}

AcStatus acMapValue(AcImportCtx *c, MlirValue v, AcId id) {
  AcImport *imp = c->imp;
  if (!acArrayGrow((void **)&imp->values, &c->capValues, id + 1, sizeof *imp->values))
    return AC_ERR_NOMEM;
  imp->values[id] = v;
  return acPtrMapPut(&c->valueIds, v.ptr, id);
}

/* Copies a name from the IR into `*buf` (grown as needed) as a C string.
 * Names become report keys, plan-file keys and symbol names: one holding a
 * NUL byte (which would cut it) or bytes that are not UTF-8 (which JSON
 * cannot carry) is refused, naming what it is and where. */
AcStatus acCopyName(AcImportCtx *c, MlirStringRef r, char **buf, intptr_t *cap,
                    MlirLocation loc, const char *what) {
  if (memchr(r.data, '\0', r.length))
    return acImportFail(c, loc, AC_ERR_INVALID, AC_NONE,
                        "%s holds a NUL byte%s: autoac cannot name it in its report "
                        "and plan files", what, "");
  if (!acUtf8Valid(r.data, r.length))
    return acImportFail(c, loc, AC_ERR_INVALID, AC_NONE,
                        "%s is not valid UTF-8%s: autoac cannot name it in its "
                        "report and plan files", what, "");
  if (!acArrayGrow((void **)buf, cap, (intptr_t)r.length + 1, 1))
    return acImportNoMem(c, loc);
  memcpy(*buf, r.data, r.length);
  (*buf)[r.length] = '\0';
  return AC_OK;
}
