/* test_fileset.c - files replaced all or nothing (AcFileSet) and
 * acWriteFileAtomic: commits, discards, a rename that fails half way (the
 * files already replaced come back), errors naming the path, and allocation
 * failures that leave nothing behind. */
#include "actest.h"

#include "autoac/report.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
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

/* The one reader (acReadFd): a pipe that never ends is cut at the limit
 * with an error (not read without end), a directory is named as such, a
 * NUL byte stops a text read at once, and a regular file past the limit is
 * refused before anything is read. */
AC_TEST(reader_is_bounded) {
  AcError err;
  char *data = NULL;
  size_t len = 0;
  int fds[2];
  CHECK(pipe(fds) == 0);
  char chunk[300];
  memset(chunk, 'x', sizeof chunk);
  CHECK(write(fds[1], chunk, sizeof chunk) == (ssize_t)sizeof chunk);
  close(fds[1]);
  acErrorClear(&err);
  CHECK(acReadFd(fds[0], "plan file", "p", 100, 0, &data, &len, &err) == AC_ERR_INVALID);
  CHECK(data == NULL && strstr(err.message, "plan file 'p' is more than 100 bytes"));
  close(fds[0]);
  /* Within the limit: all of it, NUL-terminated. */
  put("small", "{\"a\": 1}");
  CHECK(acReadFile(path("small"), "cost table", 100, AC_READ_TEXT, &data, &len, &err) == AC_OK);
  CHECK(data && len == 8 && !strcmp(data, "{\"a\": 1}"));
  acFree(data);
  CHECK(acReadFile(path("small"), "cost table", 7, 0, &data, &len, &err) == AC_ERR_INVALID);
  CHECK(strstr(err.message, "cost table '") && strstr(err.message, "is 8 bytes, more than the 7"));
  mkdir(path("d"), 0777);
  CHECK(acReadFile(path("d"), "plan file", 100, 0, &data, &len, &err) == AC_ERR_INVALID);
  CHECK(strstr(err.message, "it is a directory") != NULL);
  CHECK(acReadFile("/dev/zero", "input", (size_t)1 << 30, AC_READ_TEXT, &data, &len, &err) ==
        AC_ERR_INVALID);
  CHECK(strstr(err.message, "holds a NUL byte at offset 0") != NULL);
  CHECK(acReadFile(path("nosuch"), "input", 100, 0, &data, &len, &err) == AC_ERR_IO);
  clean();
}

/* The cleanup list: a registered file is removed by acTempRemoveAll, an
 * unregistered one is not; and a process killed by SIGTERM while a file set
 * holds staged outputs leaves no temporary behind (acSignalCleanupInstall). */
AC_TEST(signal_removes_staged_files) {
  put("t1", "x");
  put("t2", "y");
  int s1 = acTempRegister(path("t1")), s2 = acTempRegister(path("t2"));
  CHECK(s1 >= 0 && s2 >= 0 && s1 != s2);
  acTempUnregister(s2);
  acTempRemoveAll();
  acTempUnregister(s1);
  CHECK(strcmp(get("t1"), "<none>") == 0 && strcmp(get("t2"), "y") == 0);
  clean();
  pid_t pid = fork();
  if (pid == 0) {
    AcError err;
    AcFileSet *set = acFileSetCreate();
    acSignalCleanupInstall();
    if (!set || acFileSetAdd(set, path("out.json"), "{}", 2, &err) != AC_OK ||
        acFileSetAdd(set, path("plan.json"), "[]", 2, &err) != AC_OK)
      _exit(3);
    raise(SIGTERM);
    _exit(4); /* not reached: SIGTERM ends the process once cleaned up */
  }
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
  CHECK_EQ_I64(entries(), 0);
  clean();
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
  RUN(reader_is_bounded);
  RUN(signal_removes_staged_files);
  clean();
  rmdir(dir);
  return acTestSummary("fileset");
}
