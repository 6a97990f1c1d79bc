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
  const void **keys = acCalloc((size_t)ncap, sizeof *keys);
  int32_t *vals = acMalloc((size_t)ncap * sizeof *vals);
  if (!keys || !vals) {
    acFree(keys);
    acFree(vals);
    return AC_ERR_NOMEM;
  }
  for (intptr_t i = 0; i < m->cap; ++i) {
    if (!m->keys[i])
      continue;
    intptr_t h = acPtrHash(m->keys[i], ncap);
    while (keys[h])
      h = (h + 1) & (ncap - 1);
    keys[h] = m->keys[i];
    vals[h] = m->vals[i];
  }
  acFree(m->keys);
  acFree(m->vals);
  m->keys = keys;
  m->vals = vals;
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
  while (m->keys[h] && m->keys[h] != key)
    h = (h + 1) & (m->cap - 1);
  if (!m->keys[h]) {
    m->keys[h] = key;
    m->size++;
  }
  m->vals[h] = val;
  return AC_OK;
}

int32_t acPtrMapGet(const AcPtrMap *m, const void *key) {
  if (!m->cap)
    return AC_NONE;
  intptr_t h = acPtrHash(key, m->cap);
  while (m->keys[h]) {
    if (m->keys[h] == key)
      return m->vals[h];
    h = (h + 1) & (m->cap - 1);
  }
  return AC_NONE;
}

void acPtrMapClear(AcPtrMap *m) {
  acFree(m->keys);
  acFree(m->vals);
  memset(m, 0, sizeof *m);
}
