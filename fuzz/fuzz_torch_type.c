/* fuzz_torch_type.c - libFuzzer target for acTypeParseTorch (and its
 * dynamic variant acTypeParseTorchDynamic), the reader of
 * `!torch.vtensor<[d0,...],dtype>` type text, and acElemBitsFromName.
 *
 * The input is copied into a buffer of exactly its size, NOT NUL-terminated,
 * so ASan catches any read past `len`.  Findings: a crash, an overread, UB; a
 * status other than ok / invalid; an accepted tensor with a rank outside
 * [0, AC_MAX_RANK], a negative dimension, no element width, or a byte size
 * that does not fit int64_t (the parser promises acTensorBytes never fails
 * on its output); an error message not NUL-terminated. */
#include "autoac/cost.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size ? size : 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  AcTensorType t;
  AcError err;
  memset(&t, 0xa5, sizeof t);
  acErrorClear(&err);
  AcStatus st = acTypeParseTorch(text, size, &t, &err);
  if (st != AC_OK && st != AC_ERR_INVALID)
    abort();
  if (st == AC_OK && t.isTensor) {
    if (t.rank < 0 || t.rank > AC_MAX_RANK || t.elemBits <= 0)
      abort();
    for (int32_t i = 0; i < t.rank; ++i)
      if (t.dims[i] < 0)
        abort();
    if (acTensorElements(&t) < 0 || acTensorBytes(&t) < 0)
      abort();
  }
  if (st != AC_OK && !memchr(err.message, '\0', sizeof err.message))
    abort();
  acTypeParseTorch(text, size, &t, NULL);
  /* The dynamic variant: a dimension is >= 0 or AC_DIM_DYNAMIC, and with
     the dynamic ones at 1 the size fits (what the import bounds later). */
  memset(&t, 0xa5, sizeof t);
  st = acTypeParseTorchDynamic(text, size, &t, &err);
  if (st != AC_OK && st != AC_ERR_INVALID)
    abort();
  if (st == AC_OK && t.isTensor) {
    if (t.rank < 0 || t.rank > AC_MAX_RANK || t.elemBits <= 0)
      abort();
    for (int32_t i = 0; i < t.rank; ++i) {
      if (t.dims[i] < 0 && t.dims[i] != AC_DIM_DYNAMIC)
        abort();
      if (t.dims[i] == AC_DIM_DYNAMIC)
        t.dims[i] = 1;
    }
    if (acTensorElements(&t) < 0 || acTensorBytes(&t) < 0)
      abort();
  }
  (void)acElemBitsFromName(text, size);
  free(text);
  return 0;
}
