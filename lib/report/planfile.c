/* planfile.c - plans on disk: graph fingerprints, writing and reading. */
#include "autoac/report.h"
#include "support/testhooks.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t acFnv(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

static uint64_t acFnvI64(uint64_t h, int64_t x) { return acFnv(h, &x, sizeof x); }

static AcId acFuncEndValue(const AcGraph *g, const AcFunc *fn) {
  if (!fn->numOps)
    return fn->firstArg + fn->numArgs;
  const AcOp *last = &g->ops[fn->firstOp + fn->numOps - 1];
  return last->firstResult + last->numResults;
}

uint64_t acGraphFingerprint(const AcGraph *g, AcId f) {
  const AcFunc *fn = &g->funcs[f];
  uint64_t h = 0xcbf29ce484222325ULL;
  h = acFnvI64(h, fn->numArgs);
  for (AcId a = fn->firstArg; a < fn->firstArg + fn->numArgs; ++a) {
    h = acFnvI64(h, g->values[a].role);
    h = acFnvI64(h, g->values[a].bytes);
  }
  for (AcId o = fn->firstOp; o < fn->firstOp + fn->numOps; ++o) {
    const AcOp *op = &g->ops[o];
    h = acFnv(h, op->name, strlen(op->name) + 1);
    h = acFnvI64(h, op->numOperands);
    for (int32_t i = 0; i < op->numOperands; ++i)
      h = acFnvI64(h, acOpOperand(g, o, i) - fn->firstArg);
    h = acFnvI64(h, op->numResults);
    for (int32_t r = 0; r < op->numResults; ++r)
      h = acFnvI64(h, g->values[op->firstResult + r].logicalBytes);
  }
  for (int32_t r = 0; r < fn->numRets; ++r) {
    h = acFnvI64(h, g->rets[fn->firstRet + r] - fn->firstArg);
    h = acFnvI64(h, g->retFlags[fn->firstRet + r]);
  }
  return h;
}

char *acPlanFileToString(const AcGraph *g, const char *const *valueNames,
                         const AcPlan *plan) {
  int failed = 0;
  char *text = NULL;
  json_t *root = json_object(), *funcs = json_array();
  if (!root || !funcs) {
    json_decref(funcs);
    goto cleanup;
  }
  failed |= json_object_set_new(root, "version", json_integer(1));
  failed |= json_object_set_new(root, "kind", json_string("autoac-plan"));
  for (AcId f = 0; f < g->numFuncs && !failed; ++f) {
    const AcFunc *fn = &g->funcs[f];
    json_t *o = json_object(), *saved = json_array(), *rec = json_array(),
           *off = json_array();
    char fp[32];
    snprintf(fp, sizeof fp, "%016" PRIx64, acGraphFingerprint(g, f));
    if (!o || !saved || !rec || !off) {
      json_decref(o); json_decref(saved); json_decref(rec); json_decref(off);
      failed = 1;
      break;
    }
    for (AcId v = fn->firstArg; v < acFuncEndValue(g, fn); ++v)
      if (plan->saved[v])
        failed |= json_array_append_new(saved, json_string(valueNames[v]));
    for (AcId v = fn->firstArg; v < acFuncEndValue(g, fn); ++v)
      if (plan->offload[v])
        failed |= json_array_append_new(off, json_string(valueNames[v]));
    for (AcId op = fn->firstOp; op < fn->firstOp + fn->numOps; ++op)
      if (plan->recompute[op] && g->ops[op].numResults)
        failed |= json_array_append_new(rec, json_string(valueNames[g->ops[op].firstResult]));
    failed |= json_object_set_new(o, "name", json_string(fn->name));
    failed |= json_object_set_new(o, "fingerprint", json_string(fp));
    failed |= json_object_set_new(o, "saved", saved);
    failed |= json_object_set_new(o, "recomputed", rec);
    failed |= json_object_set_new(o, "offloaded", off);
    failed |= json_array_append_new(funcs, o);
  }
  failed |= json_object_set_new(root, "functions", funcs);
  if (!failed) {
    char *dumped = json_dumps(root, JSON_INDENT(1));
    if (dumped) {
      size_t n = strlen(dumped);
      text = acMalloc(n + 2);
      if (text) {
        memcpy(text, dumped, n);
        text[n] = '\n';
        text[n + 1] = '\0';
      }
      free(dumped);
    }
  }
cleanup:
  json_decref(root);
  return text;
}

/* A JSON string as a C name: NULL unless a string without NUL bytes (which
 * would cut it and make it match another name). */
static const char *acJsonName(const json_t *v) {
  const char *s = json_string_value(v);
  return s && strlen(s) == json_string_length(v) ? s : NULL;
}

typedef struct AcNamed {
  const char *name;
  AcId id;
} AcNamed;

static int acNamedCmp(const void *a, const void *b) {
  return strcmp(((const AcNamed *)a)->name, ((const AcNamed *)b)->name);
}

/* Reads list `key` ("saved", "recomputed" or "offloaded") of function
 * entry `fe` of `fn`: an array of names, each a value of `fn` (`index`, `n`
 * names sorted), each at most once.  Saved names must be forward
 * activations and are marked in plan->saved; recomputed names must be op
 * results (the plan's recomputation is derived from what it saves:
 * acPlanDerive); offloaded names (optional list) must be saved and may be
 * offloaded (`cand`, acPlanOffloadCandidates), marked in plan->offload. */
static AcStatus acPlanReadList(const AcGraph *g, const AcFunc *fn,
                               const AcNamed *index, intptr_t n, json_t *fe,
                               const char *key, const char *path, AcPlan *plan,
                               const uint8_t *cand, AcError *err) {
  int saves = !strcmp(key, "saved"), offloads = !strcmp(key, "offloaded");
  json_t *list = json_object_get(fe, key);
  if (offloads && !list)
    return AC_OK; /* plan files before offload */
  if (!json_is_array(list))
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "plan file '%s': function '@%s' has no \"%s\" array",
                      path, fn->name, key);
  size_t k;
  json_t *sv;
  json_array_foreach(list, k, sv) {
    AcNamed probe = {acJsonName(sv), AC_NONE};
    const AcNamed *hit =
        probe.name ? bsearch(&probe, index, (size_t)n, sizeof *index, acNamedCmp) : NULL;
    const char *shown = probe.name ? probe.name : "(not a string, or holding a NUL)";
    if (!hit)
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "plan file '%s' %s '%s' in '@%s', which is not a value "
                        "of this graph", path,
                        saves ? "saves" : offloads ? "offloads" : "recomputes",
                        shown, fn->name);
    const AcValue *val = &g->values[hit->id];
    if (offloads && !plan->saved[hit->id])
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, hit->id,
                        "plan file '%s' offloads '%s' in '@%s', which it does "
                        "not save (an offloaded value is one of \"saved\")",
                        path, shown, fn->name);
    if (offloads && plan->offload[hit->id])
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, hit->id,
                        "plan file '%s' offloads '%s' in '@%s' twice "
                        "(\"offloaded\" #%zu)", path, shown, fn->name, k);
    if (offloads && !cand[hit->id])
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, hit->id,
                        "plan file '%s' offloads '%s' in '@%s', which cannot "
                        "be offloaded (a view, returned, written in place, or "
                        "of no bytes)", path, shown, fn->name);
    if (offloads) {
      plan->offload[hit->id] = 1;
      continue;
    }
    if (saves && (val->role != AC_ROLE_RESULT || val->phase != AC_PHASE_FWD))
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, hit->id,
                        "plan file '%s' saves '%s' in '@%s', which is not a "
                        "forward activation", path, shown, fn->name);
    if (!saves && val->producer == AC_NONE)
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, hit->id,
                        "plan file '%s' recomputes '%s' in '@%s', which is an "
                        "argument, not the result of an op", path, shown, fn->name);
    if (saves && plan->saved[hit->id])
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, hit->id,
                        "plan file '%s' saves '%s' in '@%s' twice (\"saved\" "
                        "#%zu)", path, shown, fn->name, k);
    if (saves)
      plan->saved[hit->id] = 1;
  }
  return AC_OK;
}

/* Refuses a key of object `o` that is not in `keys` (NULL-terminated),
 * naming `where` ("the top level", "function '@f'"). */
static AcStatus acPlanCheckKeys(json_t *o, const char *const *keys,
                                const char *path, const char *where,
                                const char *accepted, AcError *err) {
  const char *key;
  json_t *v;
  json_object_foreach(o, key, v) {
    const char *const *k = keys;
    while (*k && strcmp(*k, key))
      ++k;
    if (!*k)
      return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                        "plan file '%s': unknown key \"%s\" in %s (accepted: "
                        "%s)", path, key, where, accepted);
  }
  return AC_OK;
}

/* Reads and parses `path` (the one reader, duplicate keys refused) and
 * checks its top level: kind, version, a functions array, no other key. */
static AcStatus acPlanFileLoad(const char *path, json_t **rootOut, AcError *err) {
  static const char *const keys[] = {"version", "kind", "functions", NULL};
  json_error_t jerr;
  char *text = NULL;
  size_t len = 0;
  *rootOut = NULL;
  memset(&jerr, 0, sizeof jerr);
  AcStatus st = acReadFile(path, "plan file", AC_MAX_JSON_FILE_BYTES,
                           AC_READ_TEXT, &text, &len, err);
  if (st != AC_OK)
    return st;
  int64_t fails = acAllocFailCount();
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
  acFree(text);
  /* jansson reports an allocation failure inside its lexer as a syntax
   * error (or as nothing): an allocation that failed meanwhile tells. */
  if (!root && (acAllocFailCount() != fails ||
                json_error_code(&jerr) == json_error_out_of_memory))
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE,
                      "out of memory reading plan file '%s'", path);
  if (!root)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "cannot read plan file '%s': %s (line %d)", path,
                      jerr.text, jerr.line);
  json_t *kind = json_object_get(root, "kind"), *version = json_object_get(root, "version");
  if (!json_is_object(root) || !json_is_string(kind) ||
      strcmp(json_string_value(kind), "autoac-plan") ||
      !json_is_array(json_object_get(root, "functions")))
    st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                    "'%s' is not an autoac plan file (expected \"kind\": "
                    "\"autoac-plan\" and a \"functions\" array)", path);
  else if (!json_is_integer(version) || json_integer_value(version) != 1) {
    char *shown = version ? json_dumps(version, JSON_ENCODE_ANY) : NULL;
    if (version && !shown)
      st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
    else
      st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "plan file '%s': \"version\" is %.40s; this autoac "
                      "reads plan files of version 1", path,
                      shown ? shown : "missing");
    free(shown);
  }
  else
    st = acPlanCheckKeys(root, keys, path, "the top level",
                         "version, kind, functions", err);
  if (st != AC_OK) {
    json_decref(root);
    return st;
  }
  *rootOut = root;
  return AC_OK;
}

AcStatus acPlanFileRead(const AcGraph *g, const char *const *valueNames,
                        const char *path, AcPlan *plan, AcError *err) {
  AcStatus st = AC_OK;
  AcNamed *index = NULL;
  intptr_t *entryOf = NULL;
  uint8_t *cand = NULL;
  json_t *root = NULL;
  if ((st = acPlanFileLoad(path, &root, err)) != AC_OK)
    return st;
  json_t *funcs = json_object_get(root, "functions");
  memset(plan->saved, 0, (size_t)plan->numValues);
  memset(plan->recompute, 0, (size_t)plan->numOps);
  memset(plan->offload, 0, (size_t)plan->numValues);
  size_t i;
  json_t *entry;
  /* Every entry names a function of the graph, each at most once. */
  entryOf = acMalloc((size_t)(g->numFuncs + 1) * sizeof *entryOf);
  cand = acMalloc((size_t)g->numValues + 1);
  if (!entryOf || !cand ||
      acPlanOffloadCandidates(g, cand, err) != AC_OK) {
    st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
    goto cleanup;
  }
  for (AcId f = 0; f < g->numFuncs; ++f)
    entryOf[f] = -1;
  json_array_foreach(funcs, i, entry) {
    const char *name = acJsonName(json_object_get(entry, "name"));
    AcId found = AC_NONE;
    for (AcId f = 0; f < g->numFuncs && name && found == AC_NONE; ++f)
      if (!strcmp(g->funcs[f].name, name))
        found = f;
    if (found == AC_NONE) {
      st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "plan file '%s' names function '@%s', which is not an "
                      "ac.joint function of this module", path,
                      name ? name : "(not a string, or holding a NUL)");
      break;
    }
    if (entryOf[found] >= 0) {
      st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "plan file '%s' names function '@%s' twice (entries #%d "
                      "and #%d of \"functions\")", path, name,
                      (int)entryOf[found], (int)i);
      break;
    }
    entryOf[found] = (intptr_t)i;
  }
  if (st != AC_OK)
    goto cleanup;
  for (AcId f = 0; f < g->numFuncs; ++f) {
    const AcFunc *fn = &g->funcs[f];
    json_t *fe = entryOf[f] >= 0 ? json_array_get(funcs, (size_t)entryOf[f]) : NULL;
    if (!fe) {
      st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "plan file '%s' has no plan for function '@%s'", path, fn->name);
      goto cleanup;
    }
    char fp[32];
    snprintf(fp, sizeof fp, "%016" PRIx64, acGraphFingerprint(g, f));
    const char *theirs = json_string_value(json_object_get(fe, "fingerprint"));
    if (!theirs || strcmp(theirs, fp)) {
      st = acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "plan file '%s' was made for a different graph of '@%s' "
                      "(fingerprint %s, this graph %s)", path, fn->name,
                      theirs ? theirs : "missing", fp);
      goto cleanup;
    }
    static const char *const entryKeys[] = {"name", "fingerprint", "saved",
                                            "recomputed", "offloaded", NULL};
    char where[300];
    snprintf(where, sizeof where, "the entry of '@%.256s'", fn->name);
    if ((st = acPlanCheckKeys(fe, entryKeys, path, where,
                              "name, fingerprint, saved, recomputed, offloaded",
                              err)) != AC_OK)
      goto cleanup;
    AcId end = acFuncEndValue(g, fn);
    intptr_t n = end - fn->firstArg;
    acFree(index);
    index = acMalloc((size_t)(n + 1) * sizeof *index);
    if (!index) {
      st = acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
      goto cleanup;
    }
    for (intptr_t k = 0; k < n; ++k) {
      index[k].name = valueNames[fn->firstArg + k];
      index[k].id = fn->firstArg + (AcId)k;
    }
    qsort(index, (size_t)n, sizeof *index, acNamedCmp);
    if ((st = acPlanReadList(g, fn, index, n, fe, "saved", path, plan, cand,
                             err)) != AC_OK ||
        (st = acPlanReadList(g, fn, index, n, fe, "recomputed", path, plan,
                             cand, err)) != AC_OK ||
        (st = acPlanReadList(g, fn, index, n, fe, "offloaded", path, plan,
                             cand, err)) != AC_OK)
      goto cleanup;
  }
cleanup:
  acFree(index);
  acFree(entryOf);
  acFree(cand);
  json_decref(root);
  return st;
}
