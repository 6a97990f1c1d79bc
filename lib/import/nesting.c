/* nesting.c - how deep MLIR source text nests, before it is parsed (see
 * import.h).  MLIR's recursive-descent parser recurses once per nested
 * attribute, type or region, so input nested deeply enough overflows the
 * stack of whatever process parses it; autoac refuses such text up front. */
#include "import/import.h"

int acTextNestsDeeper(const char *text, size_t len, intptr_t limit,
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
      /* A string literal, with backslash escapes; it ends at the closing
       * quote (or the line's end, where the parser will complain). */
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
