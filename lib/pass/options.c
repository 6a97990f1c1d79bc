/* options.c - the options: their lists, defaults and parsers, all from the
 * one table (autoac/options.def; docs/architecture.md, "Options").  The
 * option `buckets` is checked by the bucket parser (pass/buckets.h), the
 * only thing of buckets read here. */
#include "autoac/autoac.h"
#include "import/symbols.h"
#include "pass/buckets.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Option lists, derived from the one table (autoac/options.def). */
#define AC_PASS_NAME_PASS(NAME) NAME,
#define AC_PASS_NAME_TOOL(NAME)

const char *const acOptionNames[] = {
#define AC_OPTION(NAME, FIELD, KIND, SCOPE, DEFAULT, HELP) NAME,
#include "autoac/options.def"
#undef AC_OPTION
    NULL};

const char *const acPassOptionNames[] = {
#define AC_OPTION(NAME, FIELD, KIND, SCOPE, DEFAULT, HELP) AC_PASS_NAME_##SCOPE(NAME)
#include "autoac/options.def"
#undef AC_OPTION
    NULL};

const char *const acPassOptionKinds[] = {
#define AC_OPTION(NAME, FIELD, KIND, SCOPE, DEFAULT, HELP) AC_PASS_NAME_##SCOPE(#KIND)
#include "autoac/options.def"
#undef AC_OPTION
    NULL};

const char *const acPassOptionHelp[] = {
#define AC_OPTION(NAME, FIELD, KIND, SCOPE, DEFAULT, HELP) AC_PASS_NAME_##SCOPE(HELP)
#include "autoac/options.def"
#undef AC_OPTION
    NULL};

const char *const acPassOptionDefaults[] = {
#define AC_OPTION(NAME, FIELD, KIND, SCOPE, DEFAULT, HELP) AC_PASS_NAME_##SCOPE(DEFAULT)
#include "autoac/options.def"
#undef AC_OPTION
    NULL};


void acOptionsDestroy(AcOptions *o) {
  if (!o)
    return;
  acFree(o->optimizer);
  acFree(o->planOut);
  acFree(o->planIn);
  acFree(o->report);
  acFree(o->sweepCsv);
  acFree(o->costTable);
  acFree(o->maxDim);
  acFree(o->buckets);
  acFree(o);
}

static AcStatus acSetString(char **slot, const char *value, AcError *err) {
  char *s = acStrdup(value);
  if (!s)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
  acFree(*slot);
  *slot = s;
  return AC_OK;
}

/* The parsers of the table's kinds: each reads `value` for option `name`
 * into the AcOptions member at `field` (autoac/options.def). */
typedef AcStatus (*AcOptParse)(AcOptions *o, const char *name,
                               const char *value, void *field, AcError *err);

static AcStatus acOptParse_SIZE(AcOptions *o, const char *name,
                                const char *value, void *field, AcError *err) {
  (void)o;
  AcError sub;
  acErrorClear(&sub);
  int64_t bytes;
  if (acParseSize(value, &bytes, &sub) != AC_OK)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "bad value for option '%s': %s", name, sub.message);
  *(int64_t *)field = bytes;
  return AC_OK;
}

static AcStatus acOptParse_OPTIMIZER(AcOptions *o, const char *name,
                                     const char *value, void *field,
                                     AcError *err) {
  (void)name;
  static const struct { const char *name; double factor; } table[] = {
      {"none", 0}, {"sgd", 0}, {"momentum", 1}, {"adam", 2}, {"adamw", 2}};
  for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
    if (strcmp(value, table[i].name) == 0) {
      o->optimizerFactor = table[i].factor;
      return acSetString((char **)field, value, err);
    }
  return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                    "bad value for option 'optimizer': '%s' (accepted: none, "
                    "sgd, momentum, adam, adamw)", value);
}

static AcStatus acOptParse_STRATEGY(AcOptions *o, const char *name,
                                    const char *value, void *field,
                                    AcError *err) {
  (void)o, (void)name;
  AcError sub;
  acErrorClear(&sub);
  if (acStrategyParse(value, (AcStrategy *)field, &sub) != AC_OK)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "bad value for option 'strategy': %s", sub.message);
  return AC_OK;
}

/* Options with a list of values (MODE, RNG, GRADS, TANGENTS, OFFLOAD): value i of an option
 * sets its enum field to i (the enums AcMode, AcRngMode and AcGradMode are
 * numbered in this order). */
static const struct {
  const char *option;
  const char *choices[3]; /* NULL after the last */
} acOptChoices[] = {{"mode", {"split", "annotate", NULL}},
                    {"rng", {"keep", "replay", NULL}},
                    {"grads", {"buffers", "accumulate", "assign"}},
                    {"tangents", {"held", "last-use", NULL}},
                    {"offload", {"off", "auto", NULL}}};

static AcStatus acOptParse_CHOICE(AcOptions *o, const char *name,
                                  const char *value, void *field, AcError *err) {
  (void)o;
  for (size_t k = 0; k < sizeof acOptChoices / sizeof acOptChoices[0]; ++k) {
    if (strcmp(name, acOptChoices[k].option) != 0)
      continue;
    const char *const *c = acOptChoices[k].choices;
    int n = c[2] ? 3 : 2;
    for (int i = 0; i < n; ++i)
      if (strcmp(value, c[i]) == 0) {
        *(int *)field = i;
        return AC_OK;
      }
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "bad value for option '%s': '%s' (accepted: %s, %s%s%s)",
                      name, value, c[0], c[1], n > 2 ? ", " : "",
                      n > 2 ? c[2] : "");
  }
  return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                    "option '%s' has no list of values", name);
}
#define acOptParse_MODE acOptParse_CHOICE
#define acOptParse_RNG acOptParse_CHOICE
#define acOptParse_GRADS acOptParse_CHOICE
#define acOptParse_TANGENTS acOptParse_CHOICE
#define acOptParse_OFFLOAD acOptParse_CHOICE
_Static_assert(AC_MODE_SPLIT == 0 && AC_MODE_ANNOTATE == 1 &&
                   AC_RNG_KEEP == 0 && AC_RNG_REPLAY == 1 &&
                   AC_GRADS_BUFFERS == 0 && AC_GRADS_ACCUMULATE == 1 &&
                   AC_GRADS_ASSIGN == 2 && AC_TANGENTS_HELD == 0 &&
                   AC_TANGENTS_LAST_USE == 1 &&
                   sizeof(AcTangentMode) == sizeof(int) && AC_OFFLOAD_OFF == 0 &&
                   AC_OFFLOAD_AUTO == 1 && sizeof(AcOffloadMode) == sizeof(int) &&
                   sizeof(AcMode) == sizeof(int) &&
                   sizeof(AcRngMode) == sizeof(int) &&
                   sizeof(AcGradMode) == sizeof(int),
               "acOptChoices numbers the enums");

static AcStatus acOptParse_DEVICE(AcOptions *o, const char *name,
                                  const char *value, void *field,
                                  AcError *err) {
  (void)o, (void)name;
  const AcDevice *d = acDeviceLookup(value);
  if (!d)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "bad value for option 'device': '%s' (accepted: %s)",
                      value, acDeviceNames());
  *(const AcDevice **)field = d;
  return AC_OK;
}

static AcStatus acOptParse_FLAG(AcOptions *o, const char *name,
                                const char *value, void *field, AcError *err) {
  (void)o;
  if (!strcmp(value, "true") || !strcmp(value, "1") || !strcmp(value, "on"))
    *(int *)field = 1;
  else if (!strcmp(value, "false") || !strcmp(value, "0") || !strcmp(value, "off"))
    *(int *)field = 0;
  else
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "bad value for option '%s': '%s' (accepted: true, "
                      "false)", name, value);
  return AC_OK;
}

static AcStatus acOptParse_COUNT(AcOptions *o, const char *name,
                                 const char *value, void *field, AcError *err) {
  (void)o;
  char *end = NULL;
  long n = strtol(value, &end, 10);
  if (!*value || *end || n < 2 || n > 10000)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "bad value for option '%s': '%s' (accepted: a number "
                      "of budgets from 2 to 10000)", name, value);
  *(int *)field = (int)n;
  return AC_OK;
}

/* A time limit in seconds: a number > 0 and at most a year, or "none"
 * (no limit, the default). */
static AcStatus acOptParse_SECONDS(AcOptions *o, const char *name,
                                   const char *value, void *field,
                                   AcError *err) {
  (void)o;
  if (!strcmp(value, "none")) {
    *(double *)field = 0;
    return AC_OK;
  }
  char *end = NULL;
  double x = *value ? strtod(value, &end) : 0;
  if (!*value || *end || !(x > 0) || x > 31536000.0)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "bad value for option '%s': '%s' (accepted: a number "
                      "of seconds > 0 and at most a year, such as 30 or 0.5; "
                      "or none)", name, value);
  *(double *)field = x;
  return AC_OK;
}

static AcStatus acOptParse_FILE(AcOptions *o, const char *name,
                                const char *value, void *field, AcError *err) {
  (void)o;
  if (!*value)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "bad value for option '%s': expected a file name", name);
  return acSetString((char **)field, value, err);
}

/* Bounds of dynamic dimensions (import/symbols.h): checked, then appended
 * to those set before, so that the option may be repeated. */
static AcStatus acOptParse_DIMS(AcOptions *o, const char *name,
                                const char *value, void *field, AcError *err) {
  (void)o;
  char **slot = (char **)field;
  if (!*value)
    return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                      "bad value for option '%s': expected N or argI.D=N", name);
  AcStatus st = acMaxDimCheck(value, err);
  if (st != AC_OK)
    return st;
  size_t old = *slot ? strlen(*slot) : 0, n = strlen(value);
  char *s = acMalloc(old + n + 2);
  if (!s)
    return acErrorSet(err, AC_ERR_NOMEM, AC_NONE, AC_NONE, "out of memory");
  if (old)
    memcpy(s, *slot, old);
  if (old)
    s[old++] = ',';
  memcpy(s + old, value, n + 1);
  acFree(*slot);
  *slot = s;
  return AC_OK;
}

/* Size buckets of dynamic dimensions (pass/buckets.h): the syntax is
 * checked here, the dimension when the module is read. */
static AcStatus acOptParse_BUCKETS(AcOptions *o, const char *name,
                                   const char *value, void *field, AcError *err) {
  (void)o;
  AcBucketSpec spec[AC_BUCKET_MAX_DIMS];
  intptr_t n = 0;
  AcError sub;
  acErrorClear(&sub);
  AcStatus st = acBucketSpecParse(value, spec, &n, &sub);
  if (st != AC_OK)
    return acErrorSet(err, st, AC_NONE, AC_NONE,
                      "bad value for option '%s': %s", name, sub.message);
  acBucketSpecClear(spec, n);
  return acSetString((char **)field, value, err);
}

/* Which kinds take their default from the table: those holding a value.
 * OPTIMIZER and FILE store a string; their zero state (no optimizer name,
 * factor 0; no file) is already the default the table states ("none",
 * none), without allocating.  COUNT has no default (sweep off). */
#define AC_OPT_DEFAULT_SIZE 1
#define AC_OPT_DEFAULT_OPTIMIZER 0
#define AC_OPT_DEFAULT_STRATEGY 1
#define AC_OPT_DEFAULT_MODE 1
#define AC_OPT_DEFAULT_DEVICE 1
#define AC_OPT_DEFAULT_FLAG 1
#define AC_OPT_DEFAULT_COUNT 0
#define AC_OPT_DEFAULT_FILE 0
#define AC_OPT_DEFAULT_RNG 1
#define AC_OPT_DEFAULT_SECONDS 1
#define AC_OPT_DEFAULT_GRADS 1
#define AC_OPT_DEFAULT_TANGENTS 1
#define AC_OPT_DEFAULT_OFFLOAD 1
#define AC_OPT_DEFAULT_DIMS 0
#define AC_OPT_DEFAULT_BUCKETS 0

/* Defaults from the table (autoac/options.def), read by the kinds' own
 * parsers.  A DEFAULT that is prose rather than a value does not parse and
 * leaves the field as set before: only budget's ("none: the starting set"),
 * which is -1, no budget. */
AcOptions *acOptionsCreate(void) {
  AcOptions *o = acCalloc(1, sizeof *o);
  if (!o)
    return NULL;
  o->budget = -1;
  o->hostBudget = -1;
#define AC_OPTION(NAME, FIELD, KIND, SCOPE, DEFAULT, HELP)                      \
  if (AC_OPT_DEFAULT_##KIND)                                                   \
    (void)acOptParse_##KIND(o, NAME, DEFAULT, &o->FIELD, NULL);
#include "autoac/options.def"
#undef AC_OPTION
  return o;
}

static const struct {
  const char *name;
  AcOptParse parse;
  size_t offset;
} acOptionTable[] = {
#define AC_OPTION(NAME, FIELD, KIND, SCOPE, DEFAULT, HELP)                      \
  {NAME, acOptParse_##KIND, offsetof(AcOptions, FIELD)},
#include "autoac/options.def"
#undef AC_OPTION
};

AcStatus acOptionsSet(AcOptions *o, const char *name, const char *value,
                      AcError *err) {
  for (size_t i = 0; i < sizeof acOptionTable / sizeof acOptionTable[0]; ++i)
    if (strcmp(name, acOptionTable[i].name) == 0)
      return acOptionTable[i].parse(o, name, value,
                                    (char *)o + acOptionTable[i].offset, err);
  char accepted[512];
  size_t len = 0;
  accepted[0] = '\0';
  for (const char *const *n = acPassOptionNames; *n && len < sizeof accepted; ++n)
    len += (size_t)snprintf(accepted + len, sizeof accepted - len, "%s%s",
                            len ? ", " : "", *n);
  return acErrorSet(err, AC_ERR_INVALID, AC_NONE, AC_NONE,
                    "unknown option '%s' (accepted: %s)", name, accepted);
}
