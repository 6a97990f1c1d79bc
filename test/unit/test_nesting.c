/* test_nesting.c - acTextNestsDeeper (lib/import/nesting.c) against a
 * plain byte-by-byte reference on hand-written cases and random texts made
 * of the characters that matter. */
#include "actest.h"
#include "import/nesting.h"

#include <stdlib.h>
#include <string.h>

/* The reference: one byte at a time, the column counted as it goes. */
static int refNestsDeeper(const char *text, size_t len, intptr_t limit,
                          int *line, int *column) {
  intptr_t depth = 0;
  int ln = 1, col = 0;
  for (size_t i = 0; i < len; ++i) {
    char ch = text[i];
    ++col;
    if (ch == '\n') {
      ++ln;
      col = 0;
      continue;
    }
    if (ch == '/' && i + 1 < len && text[i + 1] == '/') {
      while (i + 1 < len && text[i + 1] != '\n')
        ++i;
      continue;
    }
    if (ch == '"') {
      while (i + 1 < len && text[i + 1] != '"' && text[i + 1] != '\n') {
        if (text[i + 1] == '\\' && i + 2 < len && text[i + 2] != '\n') {
          ++i;
          ++col;
        }
        ++i;
        ++col;
      }
      if (i + 1 < len && text[i + 1] == '"') {
        ++i;
        ++col;
      }
      continue;
    }
    int next = i + 1 < len ? text[i + 1] : 0;
    int prev = i > 0 ? text[i - 1] : 0;
    if (ch == '(' || ch == '[' || ch == '{' || (ch == '<' && next != '=')) {
      if (++depth > limit) {
        *line = ln;
        *column = col;
        return 1;
      }
    } else if (ch == ')' || ch == ']' || ch == '}' ||
               (ch == '>' && prev != '-' && next != '=')) {
      if (depth > 0)
        --depth;
    }
  }
  return 0;
}

static int agrees(const char *text, size_t len, intptr_t limit) {
  int l1 = -1, c1 = -1, l2 = -1, c2 = -1;
  int a = acTextNestsDeeper(text, len, limit, &l1, &c1);
  int b = refNestsDeeper(text, len, limit, &l2, &c2);
  return a == b && (!a || (l1 == l2 && c1 == c2));
}

AC_TEST(handWrittenCases) {
  int line = 0, col = 0;
  const char *deep = "a\n  b((((x";
  CHECK(acTextNestsDeeper(deep, strlen(deep), 3, &line, &col) == 1);
  CHECK_EQ_I64(line, 2);
  CHECK_EQ_I64(col, 7); /* the fourth '(' */
  CHECK(acTextNestsDeeper(deep, strlen(deep), 4, &line, &col) == 0);
  /* Not brackets: `<=`, `->`, `>=`, strings, comments. */
  const char *flat = "(a <= b) -> c >= d \"((((\" // ((((\n[x]";
  CHECK(acTextNestsDeeper(flat, strlen(flat), 1, &line, &col) == 0);
  /* An escaped quote does not end the string; a string ends at the line. */
  const char *esc = "\"a\\\"((\" ((\n\"(( \n((";
  CHECK(acTextNestsDeeper(esc, strlen(esc), 1, &line, &col) == 1);
  CHECK_EQ_I64(line, 1);
  CHECK_EQ_I64(col, 10);
  CHECK(acTextNestsDeeper("", 0, 0, &line, &col) == 0);
  CHECK(acTextNestsDeeper("/", 1, 0, &line, &col) == 0);
  CHECK(acTextNestsDeeper("\"\\", 2, 0, &line, &col) == 0);
  CHECK(acTextNestsDeeper("<", 1, 0, &line, &col) == 1);
  CHECK(agrees(deep, strlen(deep), 3) && agrees(flat, strlen(flat), 1) &&
        agrees(esc, strlen(esc), 1));
}

AC_TEST(randomTextsMatchTheReference) {
  static const char alphabet[] = "([{<)]}>-=/\"\\\nab ";
  char text[160];
  srand(12345);
  int disagreements = 0;
  for (int t = 0; t < 20000; ++t) {
    size_t len = (size_t)(rand() % (int)sizeof text);
    for (size_t i = 0; i < len; ++i)
      text[i] = alphabet[rand() % (int)(sizeof alphabet - 1)];
    for (intptr_t limit = 0; limit <= 6; limit += 2)
      disagreements += !agrees(text, len, limit);
  }
  CHECK_EQ_I64(disagreements, 0);
}

int main(void) {
  RUN(handWrittenCases);
  RUN(randomTextsMatchTheReference);
  return acTestSummary("nesting");
}
