/* costtable.c - user cost tables (--ac-cost-table=FILE, cost-table=FILE).
 *
 * A JSON object mapping op names to what the user knows of them:
 *
 *     {"my.op":          {"flops": 1e9, "bytes": 4096, "recomputable": true},
 *      "torch.aten.foo": {"seconds": 2.5e-3, "workspace": 1048576}}
 *
 * Entries are kept sorted by name and looked up by binary search; torch op
 * names also match without their overload.  Every error names the source
 * (the file) and the entry (docs/cost-model.md, "Cost tables"). */
#include "autoac/cost.h"
#include "support/testhooks.h"

#include <assert.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct AcCostTable {
  AcCostOverride *entries;  /* sorted by name */
  intptr_t num;
  char *source;
  /* "@device": the host link (docs/cost-model.md, "Host link"). */
  uint8_t hasHostBandwidth, hasHostLatency;
  double hostBandwidth, hostLatency;
};

static const char *const acCostKeys =
    "flops, bytes, seconds, recomputable, workspace";

static int acOverrideCmp(const void *a, const void *b) {
  return strcmp(((const AcCostOverride *)a)->name,
                ((const AcCostOverride *)b)->name);
}

void acCostTableDestroy(AcCostTable *t) {
  if (!t)
    return;
  for (intptr_t i = 0; i < t->num; ++i)
    acFree((char *)t->entries[i].name);
  acFree(t->entries);
  acFree(t->source);
  acFree(t);
}

intptr_t acCostTableSize(const AcCostTable *t) { return t ? t->num : 0; }

const char *acCostTableSource(const AcCostTable *t) {
  return t && t->source ? t->source : "";
}

/* "dialect.op": a non-empty dialect, a dot, a non-empty rest, no blanks. */
static int acIsOpName(const char *s) {
  const char *dot = strchr(s, '.');
  if (!dot || dot == s || !dot[1])
    return 0;
  for (const char *p = s; *p; ++p)
    if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '"')
      return 0;
  return 1;
}

/* Reads number `key` of `entry` into *out; 1 if present, 0 if absent, -1
 * (err set) if malformed. */
static int acReadNumber(json_t *entry, const char *key, const char *src,
                        const char *name, double *out, AcError *err) {
  json_t *v = json_object_get(entry, key);
  if (!v)
    return 0;
  double x = json_is_number(v) ? json_number_value(v) : NAN;
  if (!json_is_number(v) || !isfinite(x) || x < 0) {
    acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
               "cost table '%s': entry '%s': \"%s\" must be a finite number "
               ">= 0", src, name, key);
    return -1;
  }
  *out = x;
  return 1;
}

/* Reads "workspace" of `entry`: whole bytes in [0, AC_MAX_BYTES]; 1 if
 * present, 0 if absent, -1 (err set) if malformed. */
static int acReadWorkspace(json_t *entry, const char *src, const char *name,
                           int64_t *out, AcError *err) {
  json_t *v = json_object_get(entry, "workspace");
  if (!v)
    return 0;
  double x = json_is_number(v) ? json_number_value(v) : NAN;
  if (json_is_integer(v) && json_integer_value(v) >= 0 &&
      json_integer_value(v) <= AC_MAX_BYTES) {
    *out = (int64_t)json_integer_value(v);
    return 1;
  }
  if (json_is_real(v) && isfinite(x) && x >= 0 && x < (double)AC_MAX_BYTES &&
      x == floor(x)) {
    *out = (int64_t)x;
    return 1;
  }
  acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
             "cost table '%s': entry '%s': \"workspace\" must be a whole "
             "number of bytes from 0 to 2^62 - 1", src, name);
  return -1;
}

/* Validates one entry into `e` (name not set). */
static AcStatus acReadEntry(const char *src, const char *name, json_t *val,
                            AcCostOverride *e, AcError *err) {
  memset(e, 0, sizeof *e);
  if (!acIsOpName(name))
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "cost table '%s': entry '%s' is not an op name "
                      "(expected dialect.op, e.g. \"my.op\")", src, name);
  if (!json_is_object(val))
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "cost table '%s': entry '%s' must be an object like "
                      "{\"flops\": 1e9, \"bytes\": 4096, \"recomputable\": "
                      "true}", src, name);
  const char *key;
  json_t *v;
  json_object_foreach(val, key, v) {
    if (strcmp(key, "flops") && strcmp(key, "bytes") && strcmp(key, "seconds") &&
        strcmp(key, "recomputable") && strcmp(key, "workspace"))
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "cost table '%s': entry '%s': unknown key \"%s\" "
                        "(accepted: %s)", src, name, key, acCostKeys);
  }
  int r;
  if ((r = acReadNumber(val, "flops", src, name, &e->flops, err)) < 0)
    return AC_ERR_INVALID;
  e->hasFlops = (uint8_t)r;
  if ((r = acReadNumber(val, "bytes", src, name, &e->bytes, err)) < 0)
    return AC_ERR_INVALID;
  e->hasBytes = (uint8_t)r;
  if ((r = acReadNumber(val, "seconds", src, name, &e->seconds, err)) < 0)
    return AC_ERR_INVALID;
  e->hasSeconds = (uint8_t)r;
  if ((r = acReadWorkspace(val, src, name, &e->workspace, err)) < 0)
    return AC_ERR_INVALID;
  e->hasWorkspace = (uint8_t)r;
  json_t *rec = json_object_get(val, "recomputable");
  if (rec) {
    if (!json_is_boolean(rec))
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "cost table '%s': entry '%s': \"recomputable\" must "
                        "be true or false", src, name);
    e->hasRecomputable = 1;
    e->recomputable = json_is_true(rec);
  }
  if (!e->hasFlops && !e->hasBytes && !e->hasSeconds && !e->hasRecomputable &&
      !e->hasWorkspace)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "cost table '%s': entry '%s' sets nothing (accepted: "
                      "%s)", src, name, acCostKeys);
  if (e->recomputable) {
    /* What the name alone says: random and in-place ops are never rerun. */
    AcOpCost c;
    acCostEstimate(name, NULL, 0, NULL, 0, NULL, &c);
    if (c.kind == AC_KIND_RANDOM || c.kind == AC_KIND_INPLACE)
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "cost table '%s': entry '%s': \"recomputable\": true "
                        "is refused for %s op (autoac never reruns them)",
                        src, name,
                        c.kind == AC_KIND_RANDOM ? "a random" : "an in-place");
  }
  return AC_OK;
}

/* Reads the "@device" entry: {"host_bandwidth": B, "host_latency": S}. */
static AcStatus acReadDevice(const char *src, json_t *val, AcCostTable *t,
                             AcError *err) {
  const char *key;
  json_t *v;
  if (!json_is_object(val))
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "cost table '%s': entry '@device' must be an object "
                      "like {\"host_bandwidth\": 5.5e10, \"host_latency\": "
                      "1e-5}", src);
  json_object_foreach(val, key, v) {
    if (strcmp(key, "host_bandwidth") && strcmp(key, "host_latency"))
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "cost table '%s': entry '@device': unknown key \"%s\" "
                        "(accepted: host_bandwidth, host_latency)", src, key);
  }
  int r;
  if ((r = acReadNumber(val, "host_bandwidth", src, "@device",
                        &t->hostBandwidth, err)) < 0)
    return AC_ERR_INVALID;
  t->hasHostBandwidth = (uint8_t)r;
  if ((r = acReadNumber(val, "host_latency", src, "@device", &t->hostLatency,
                        err)) < 0)
    return AC_ERR_INVALID;
  t->hasHostLatency = (uint8_t)r;
  if (!t->hasHostBandwidth && !t->hasHostLatency)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "cost table '%s': entry '@device' sets nothing "
                      "(accepted: host_bandwidth, host_latency)", src);
  return AC_OK;
}

void acCostTableHostLink(const AcCostTable *t, const AcDevice *dev,
                         double *bandwidth, double *latency) {
  *bandwidth = dev ? dev->hostBandwidth : 0;
  *latency = dev ? dev->hostLatency : 0;
  if (t && t->hasHostBandwidth)
    *bandwidth = t->hostBandwidth;
  if (t && t->hasHostLatency)
    *latency = t->hostLatency;
}

AcStatus acCostTableCreateFromString(const char *text, size_t len,
                                     const char *sourceName,
                                     AcCostTable **out, AcError *err) {
  AcStatus st = AC_OK;
  json_error_t jerr;
  const char *src = sourceName ? sourceName : "<text>";
  AcCostTable *t = NULL;
  json_t *root = NULL;
  *out = NULL;
  memset(&jerr, 0, sizeof jerr);
  int64_t fails = acAllocFailCount();
  root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
  /* jansson reports an allocation failure in its lexer as a syntax error. */
  if (!root && (acAllocFailCount() != fails ||
                json_error_code(&jerr) == json_error_out_of_memory)) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                    "out of memory reading cost table '%s'", src);
    goto cleanup;
  }
  if (!root) {
    st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                    "cannot read cost table '%s': %s (line %d)", src,
                    jerr.text, jerr.line);
    goto cleanup;
  }
  if (!json_is_object(root)) {
    st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                    "cost table '%s' must be a JSON object mapping op names "
                    "to costs, e.g. {\"my.op\": {\"flops\": 1e9, \"bytes\": "
                    "4096, \"recomputable\": true}}", src);
    goto cleanup;
  }
  t = acCalloc(1, sizeof *t);
  if (!t || !(t->source = acStrdup(src)))
    goto nomem;
  size_t n = json_object_size(root);
  t->entries = acCalloc(n + 1, sizeof *t->entries);
  if (!t->entries)
    goto nomem;
  const char *name;
  json_t *val;
  json_object_foreach(root, name, val) {
    AcCostOverride e;
    if (!strcmp(name, "@device")) {
      if ((st = acReadDevice(src, val, t, err)) != AC_OK)
        goto cleanup;
      continue;
    }
    if ((st = acReadEntry(src, name, val, &e, err)) != AC_OK)
      goto cleanup;
    if (!(e.name = acStrdup(name)))
      goto nomem;
    assert(t->num < (intptr_t)n);
    t->entries[t->num++] = e;
  }
  qsort(t->entries, (size_t)t->num, sizeof *t->entries, acOverrideCmp);
  *out = t;
  t = NULL;
  goto cleanup;
nomem:
  st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                  "out of memory reading cost table '%s'", src);
cleanup:
  acCostTableDestroy(t);
  json_decref(root);
  return st;
}

AcStatus acCostTableCreateFromFile(const char *path, AcCostTable **out,
                                   AcError *err) {
  char *text = NULL;
  size_t len = 0;
  *out = NULL;
  AcStatus st = acReadFile(path, "cost table", AC_MAX_JSON_FILE_BYTES,
                           AC_READ_TEXT, &text, &len, err);
  if (st == AC_OK)
    st = acCostTableCreateFromString(text, len, path, out, err);
  acFree(text);
  return st;
}

/* The entry named by the first `len` bytes of `name` (binary search; the
 * entries are sorted by strcmp, which orders a prefix first). */
static const AcCostOverride *acFind(const AcCostTable *t, const char *name,
                                    size_t len) {
  intptr_t lo = 0, hi = t->num;
  while (lo < hi) {
    intptr_t mid = lo + (hi - lo) / 2;
    const char *e = t->entries[mid].name;
    int c = strncmp(e, name, len);
    if (c == 0)
      c = e[len] != '\0'; /* longer than the key: after it */
    if (c == 0)
      return &t->entries[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

const AcCostOverride *acCostTableLookup(const AcCostTable *t,
                                        const char *opName) {
  if (!t || !opName)
    return NULL;
  const AcCostOverride *hit = acFind(t, opName, strlen(opName));
  if (hit || strncmp(opName, "torch.", 6))
    return hit;
  /* torch.aten.add.Tensor -> torch.aten.add (and torch.prim.X.Y). */
  const char *second = strchr(opName + 6, '.');
  const char *third = second ? strchr(second + 1, '.') : NULL;
  return third ? acFind(t, opName, (size_t)(third - opName)) : NULL;
}

double acCostApplyOverride(const AcCostOverride *e, const AcDevice *dev,
                           AcOpCost *cost) {
  if (e->hasFlops)
    cost->flops = e->flops;
  if (e->hasBytes)
    cost->bytesMoved = e->bytes;
  if (e->hasRecomputable)
    cost->recomputable = e->recomputable;
  cost->unknown = 0;
  return e->hasSeconds ? e->seconds
                       : acCostSeconds(dev, cost->flops, cost->bytesMoved);
}
