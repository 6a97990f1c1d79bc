/* test_fileset.c - files replaced all or nothing (AcFileSet) and
 * acWriteFileAtomic: commits, discards, a rename that fails half way (the
 * files already replaced come back), errors naming the path, and allocation
 * failures that leave nothing behind. */
#include "actest.h"

#include "autoac/report.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static char *path(const char *name) {
  static char buf[4][384];
  static int k = 0;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
  return buf[k];
}

static void put(const char *name, const char *text) {
  FILE *f = fopen(path(name), "wb");
  fputs(text, f);
  fclose(f);
}

/* Contents of a file (static buffer), or "<none>". */
static const char *get(const char *name) {
  static char buf[256];
  FILE *f = fopen(path(name), "rb");
  if (!f)
    return "<none>";
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static int entries(void) {
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  closedir(d);
  return n;
}

static void clean(void) {
  DIR *d = opendir(dir);
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    if (unlink(path(e->d_name)) != 0)
      rmdir(path(e->d_name));
  }
  closedir(d);
}

AC_TEST(commit_replaces_all) {
  clean();
  put("a", "old a");
  AcFileSet *s = acFileSetCreate();
  AcError err;
  CHECK(acFileSetAdd(s, path("a"), "new a", 5, &err) == AC_OK);
  CHECK(acFileSetAdd(s, path("b"), "new b", 5, &err) == AC_OK);
  CHECK_EQ_I64(acFileSetSize(s), 2);
  /* Staged, not yet visible. */
  CHECK(!strcmp(get("a"), "old a"));
  CHECK(!strcmp(get("b"), "<none>"));
  CHECK(acFileSetCommit(s, &err) == AC_OK);
  CHECK_EQ_I64(acFileSetSize(s), 0);
  CHECK(!strcmp(get("a"), "new a"));
  CHECK(!strcmp(get("b"), "new b"));
  CHECK_EQ_I64(entries(), 2);
  acFileSetDestroy(s);
}

AC_TEST(destroy_discards) {
  clean();
  put("a", "old a");
  AcFileSet *s = acFileSetCreate();
  AcError err;
  CHECK(acFileSetAdd(s, path("a"), "new a", 5, &err) == AC_OK);
  CHECK(acFileSetAdd(s, path("b"), "new b", 5, &err) == AC_OK);
  acFileSetDestroy(s);
  CHECK(!strcmp(get("a"), "old a"));
  CHECK(!strcmp(get("b"), "<none>"));
  CHECK_EQ_I64(entries(), 1);
  acFileSetDestroy(NULL);
}

/* The third target turns into a directory after staging: its rename fails,
 * the first two renames are undone (an old file restored, a new one
 * removed), and nothing else is left. */
AC_TEST(failed_rename_rolls_back) {
  clean();
  put("a", "old a");
  AcFileSet *s = acFileSetCreate();
  AcError err;
  acErrorClear(&err);
  CHECK(acFileSetAdd(s, path("a"), "new a", 5, &err) == AC_OK);
  CHECK(acFileSetAdd(s, path("b"), "new b", 5, &err) == AC_OK);
  CHECK(acFileSetAdd(s, path("c"), "new c", 5, &err) == AC_OK);
  CHECK(mkdir(path("c"), 0755) == 0);
  put("c/inside", "x"); /* a non-empty directory: rename onto it fails */
  CHECK(acFileSetCommit(s, &err) == AC_ERR_IO);
  CHECK(strstr(err.message, "cannot write") && strstr(err.message, "/c'"));
  CHECK(!strcmp(get("a"), "old a"));
  CHECK(!strcmp(get("b"), "<none>"));
  CHECK_EQ_I64(entries(), 2); /* a and the directory c */
  acFileSetDestroy(s);
  unlink(path("c/inside"));
  rmdir(path("c"));
}

AC_TEST(errors_name_the_path) {
  clean();
  AcFileSet *s = acFileSetCreate();
  AcError err;
  acErrorClear(&err);
  CHECK(acFileSetAdd(s, path("missing/x.json"), "x", 1, &err) == AC_ERR_IO);
  CHECK(strstr(err.message, "missing/x.json") && strstr(err.message, "No such file"));
  CHECK(mkdir(path("d"), 0755) == 0);
  CHECK(acFileSetAdd(s, path("d"), "x", 1, &err) == AC_ERR_IO);
  CHECK(strstr(err.message, "Is a directory") != NULL);
  CHECK(acFileSetAdd(s, path("e"), "x", 1, &err) == AC_OK);
  CHECK(acFileSetAdd(s, path("e"), "y", 1, &err) == AC_ERR_INVALID);
  CHECK(strstr(err.message, "named for two outputs") != NULL);
  CHECK_EQ_I64(acFileSetSize(s), 1);
  acFileSetDestroy(s);
  rmdir(path("d"));
  CHECK_EQ_I64(entries(), 0);
}

AC_TEST(write_atomic) {
  clean();
  AcError err;
  put("f", "old");
  CHECK(acWriteFileAtomic(path("f"), "new", 3, &err) == AC_OK);
  CHECK(!strcmp(get("f"), "new"));
  CHECK(acWriteFileAtomic(path("no/f"), "new", 3, &err) == AC_ERR_IO);
  CHECK(acWriteFileAtomic(path("g"), "", 0, &err) == AC_OK);
  CHECK(!strcmp(get("g"), ""));
  CHECK_EQ_I64(entries(), 2);
}

/* Every allocation of create / add / commit failing in turn: out of memory,
 * the old files intact, nothing left behind, nothing leaked (ASan). */
AC_TEST(allocation_failures) {
  int64_t n;
  for (n = 1; n < 100; ++n) {
    clean();
    put("a", "old a");
    AcError err;
    acErrorClear(&err);
    int64_t before = acAllocCount();
    acAllocFailAfter(n);
    AcStatus st = AC_ERR_NOMEM;
    AcFileSet *s = acFileSetCreate();
    if (s && (st = acFileSetAdd(s, path("a"), "new a", 5, &err)) == AC_OK &&
        (st = acFileSetAdd(s, path("b"), "new b", 5, &err)) == AC_OK)
      st = acFileSetCommit(s, &err);
    acFileSetDestroy(s);
    acAllocFailAfter(0);
    int hit = acAllocCount() - before >= n;
    if (!hit) {
      CHECK(st == AC_OK);
      CHECK(!strcmp(get("b"), "new b"));
      break;
    }
    CHECK(st == AC_ERR_NOMEM);
    CHECK(!strcmp(get("a"), "old a"));
    CHECK(!strcmp(get("b"), "<none>"));
    CHECK_EQ_I64(entries(), 1);
  }
  CHECK(n > 3 && n < 100);
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/autoac-fileset-XXXXXX");
  if (!mkdtemp(dir))
    return 1;
  RUN(commit_replaces_all);
  RUN(destroy_discards);
  RUN(failed_rename_rolls_back);
  RUN(errors_name_the_path);
  RUN(write_atomic);
  RUN(allocation_failures);
  clean();
  rmdir(dir);
  return acTestSummary("fileset");
}
