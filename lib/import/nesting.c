/* nesting.c - how deep MLIR source text nests, before it is parsed (see
 * nesting.h).  One pass over the bytes; a table sorts them into the few
 * that matter (newline, '/', '"', brackets) and the rest, which are
 * skipped without further tests.  The column is computed only for the
 * answer, from where the line starts. */
#include "import/nesting.h"

#include <string.h>

enum { NEST_OTHER, NEST_NEWLINE, NEST_SLASH, NEST_QUOTE, NEST_OPEN, NEST_LESS,
       NEST_CLOSE, NEST_GREATER };

static const unsigned char nestClass[256] = {
    ['\n'] = NEST_NEWLINE, ['/'] = NEST_SLASH, ['"'] = NEST_QUOTE,
    ['('] = NEST_OPEN,     ['['] = NEST_OPEN,  ['{'] = NEST_OPEN,
    ['<'] = NEST_LESS,     [')'] = NEST_CLOSE, [']'] = NEST_CLOSE,
    ['}'] = NEST_CLOSE,    ['>'] = NEST_GREATER};

int acTextNestsDeeper(const char *text, size_t len, intptr_t limit,
                      int *line, int *column) {
  intptr_t depth = 0;
  int ln = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < len; ++i) {
    unsigned char cls = nestClass[(unsigned char)text[i]];
    if (cls == NEST_OTHER) /* most bytes: nothing more to look at */
      continue;
    char next = i + 1 < len ? text[i + 1] : 0;
    switch (cls) {
    case NEST_NEWLINE:
      ++ln;
      lineStart = i + 1;
      continue;
    case NEST_SLASH:
      if (next == '/') { /* a comment: on to the newline that ends it */
        const char *nl = memchr(text + i, '\n', len - i);
        i = nl ? (size_t)(nl - text) - 1 : len - 1;
      }
      continue;
    case NEST_QUOTE: {
      /* A string literal, with backslash escapes; it ends at the closing
       * quote (or before the line's end, where the parser will complain). */
      size_t j = i + 1;
      while (j < len && text[j] != '"' && text[j] != '\n') {
        if (text[j] == '\\' && j + 1 < len && text[j + 1] != '\n')
          ++j;
        ++j;
      }
      i = j < len && text[j] == '"' ? j : j - 1;
      continue;
    }
    case NEST_LESS: /* opens, unless it is `<=` */
    case NEST_OPEN:
      if (cls == NEST_LESS && next == '=')
        continue;
      if (++depth > limit) {
        *line = ln;
        *column = (int)(i - lineStart + 1);
        return 1;
      }
      continue;
    case NEST_GREATER: /* closes, unless it is `->` or `>=` */
    case NEST_CLOSE:
      if (cls == NEST_GREATER &&
          (next == '=' || (i > 0 && text[i - 1] == '-')))
        continue;
      if (depth > 0)
        --depth;
      continue;
    }
  }
  return 0;
}
