#include "line_reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LINE_READER_BLOCK (1u << 20)

int line_reader_open(line_reader *r, const char *path, rf_diag *d) {
  memset(r, 0, sizeof *r);
  r->path = path;
  r->f = fopen(path, "rb");
  if (!r->f) return rf_fail(d, "%s: cannot open: %s", path, strerror(errno));
  r->cap = LINE_READER_BLOCK;
  r->buf = rf_calloc(r->cap + 1, 1, d);
  if (!r->buf) {
    fclose(r->f);
    r->f = NULL;
    return -1;
  }
  return 0;
}

void line_reader_close(line_reader *r) {
  if (r->f) fclose(r->f);
  free(r->buf);
  r->f = NULL;
  r->buf = NULL;
}

/* Moves the unread tail to the front and reads more; grows the buffer for very long lines. */
static int refill(line_reader *r, rf_diag *d) {
  size_t tail = r->end - r->start;
  if (r->start > 0) {
    memmove(r->buf, r->buf + r->start, tail);
    r->start = 0;
    r->end = tail;
  }
  if (r->end == r->cap) {
    char *nb = rf_realloc(r->buf, r->cap * 2 + 1, 1, d);
    if (!nb) return -1;
    r->buf = nb;
    r->cap *= 2;
  }
  size_t got = fread(r->buf + r->end, 1, r->cap - r->end, r->f);
  if (got == 0) {
    if (ferror(r->f)) return rf_fail(d, "%s: read error: %s", r->path, strerror(errno));
    r->eof = 1;
  }
  r->end += got;
  return 0;
}

int line_reader_next(line_reader *r, char **line, size_t *len, rf_diag *d) {
  for (;;) {
    char *s = r->buf + r->start;
    char *nl = memchr(s, '\n', r->end - r->start);
    if (!nl && r->eof) {
      if (r->start == r->end) return 0;
      nl = r->buf + r->end; /* last line without a newline: buf has one spare byte */
    }
    if (nl) {
      size_t n = (size_t)(nl - s);
      r->start += n + (nl < r->buf + r->end ? 1 : 0);
      if (n > 0 && s[n - 1] == '\r') n--;
      s[n] = '\0';
      r->lineno++;
      if (strlen(s) != n)
        return rf_fail_at(d, r->path, r->lineno, "expected text, found a NUL byte");
      *line = s;
      *len = n;
      return 1;
    }
    if (refill(r, d) < 0) return -1;
  }
}
