/* ptrmap.c - open-addressing pointer -> id map (see support/ptrmap.h). */
#include "support/ptrmap.h"

#include <string.h>

static intptr_t acPtrHash(const void *p, intptr_t cap) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (intptr_t)(x & (uint64_t)(cap - 1));
}

static AcStatus acPtrMapRehash(AcPtrMap *m, intptr_t ncap) {
  AcPtrMapSlot *slots = acCalloc((size_t)ncap, sizeof *slots);
  if (!slots)
    return AC_ERR_NOMEM;
  for (intptr_t i = 0; i < m->cap; ++i) {
    if (!m->slots[i].key)
      continue;
    intptr_t h = acPtrHash(m->slots[i].key, ncap);
    while (slots[h].key)
      h = (h + 1) & (ncap - 1);
    slots[h] = m->slots[i];
  }
  acFree(m->slots);
  m->slots = slots;
  m->cap = ncap;
  return AC_OK;
}

static AcStatus acPtrMapGrow(AcPtrMap *m) {
  return acPtrMapRehash(m, m->cap ? m->cap * 2 : 64);
}

AcStatus acPtrMapReserve(AcPtrMap *m, intptr_t n) {
  intptr_t ncap = m->cap ? m->cap : 64;
  while ((m->size + n) * 2 > ncap) {
    if (ncap > INTPTR_MAX / 4)
      return AC_ERR_NOMEM;
    ncap *= 2;
  }
  return ncap == m->cap ? AC_OK : acPtrMapRehash(m, ncap);
}

AcStatus acPtrMapPut(AcPtrMap *m, const void *key, int32_t val) {
  if ((m->size + 1) * 2 > m->cap && acPtrMapGrow(m) != AC_OK)
    return AC_ERR_NOMEM;
  intptr_t h = acPtrHash(key, m->cap);
  while (m->slots[h].key && m->slots[h].key != key)
    h = (h + 1) & (m->cap - 1);
  if (!m->slots[h].key) {
    m->slots[h].key = key;
    m->size++;
  }
  m->slots[h].val = val;
  return AC_OK;
}

int32_t acPtrMapGet(const AcPtrMap *m, const void *key) {
  if (!m->cap)
    return AC_NONE;
  intptr_t h = acPtrHash(key, m->cap);
  while (m->slots[h].key) {
    if (m->slots[h].key == key)
      return m->slots[h].val;
    h = (h + 1) & (m->cap - 1);
  }
  return AC_NONE;
}

void acPtrMapClear(AcPtrMap *m) {
  acFree(m->slots);
  memset(m, 0, sizeof *m);
}
