#include "line_reader.h"

#include <stdlib.h>
#include <string.h>

#define LINE_READER_BLOCK (1u << 20)
/* The first read: a kernel's header is a few hundred bytes, and where the kernel's blocks come
 * from the trace cache it is all that is read of the text (a 1 MB read, and a zeroed 1 MB
 * buffer, for each of a trace's hundreds of small kernels showed in its profile); the reads
 * double from here up to the buffer's size. */
#define LINE_READER_FIRST_READ (64u << 10)
/* The longest line read (an instruction line is under 1 KB): beyond it the file is refused
 * rather than buffered whole. */
#define LINE_READER_MAX_LINE ((size_t)64 << 20)

int line_reader_open(line_reader *r, const char *path, rf_diag *d) {
  memset(r, 0, sizeof *r);
  r->path = path;
  if (trace_input_open(path, &r->in, d) < 0) return -1;
  r->cap = LINE_READER_BLOCK;
  r->next_read = LINE_READER_FIRST_READ;
  r->buf = rf_realloc(NULL, r->cap + 1, 1, d); /* (only bytes read are looked at) */
  if (!r->buf) {
    trace_input_close(r->in);
    r->in = NULL;
    return -1;
  }
  return 0;
}

void line_reader_close(line_reader *r) {
  trace_input_close(r->in);
  free(r->buf);
  r->in = NULL;
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
    if (r->cap >= LINE_READER_MAX_LINE)
      return rf_fail_at(d, r->path, r->lineno + 1, "expected a line of at most %zu bytes, found "
                        "a longer one", LINE_READER_MAX_LINE);
    char *nb = rf_realloc(r->buf, r->cap * 2 + 1, 1, d);
    if (!nb) return -1;
    r->buf = nb;
    r->cap *= 2;
  }
  size_t want = r->cap - r->end;
  if (want > r->next_read) want = r->next_read;
  if (r->next_read < LINE_READER_BLOCK) r->next_read *= 2;
  long got = trace_input_read(r->in, r->buf + r->end, want, d);
  if (got < 0) return -1;
  if (got == 0) r->eof = 1;
  r->end += (size_t)got;
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
