/*===- support/ptrmap.h - open-addressing map from pointers to ids -*- C -*-===*
 *
 * Keys are non-NULL pointers (e.g. MlirValue.ptr); values are int32 ids.
 * Linear probing, power-of-two capacity, load factor <= 1/2.  No deletion.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_PTRMAP_H
#define AUTOAC_PTRMAP_H

#include "autoac/support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// One slot: key and id side by side, so that a probe reads one cache line.
typedef struct AcPtrMapSlot {
  const void *key;   ///< NULL when empty
  int32_t val;
} AcPtrMapSlot;

/// A pointer -> int32 map.  Zero-initialise before use.
typedef struct AcPtrMap {
  AcPtrMapSlot *slots;
  intptr_t size, cap;
} AcPtrMap;

/// Inserts or overwrites key -> val; AC_ERR_NOMEM on allocation failure.
AcStatus acPtrMapPut(AcPtrMap *m, const void *key, int32_t val);
/// Makes room for `n` more keys (the capacity the Puts would grow to, at
/// once: no rehash on the way); AC_ERR_NOMEM on allocation failure.
AcStatus acPtrMapReserve(AcPtrMap *m, intptr_t n);
/// Returns the id stored for key, or AC_NONE.
int32_t acPtrMapGet(const AcPtrMap *m, const void *key);
/// Frees the map's arrays and zeroes it.
void acPtrMapClear(AcPtrMap *m);

#ifdef __cplusplus
}
#endif
#endif
