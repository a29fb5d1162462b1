/* Buffered line reader: hands out one line at a time without copying, tracking line numbers
 * for error messages. Large blocks and memchr keep text traces close to disk speed. The bytes
 * come through trace_input, so an xz-compressed file reads as its text. */
#ifndef RFSIM_LINE_READER_H
#define RFSIM_LINE_READER_H

#include <stddef.h>

#include "../common/diag.h"
#include "trace_input.h"

typedef struct line_reader {
  trace_input *in;
  char *buf;
  size_t cap, start, end; /* valid bytes are buf[start, end) */
  size_t next_read;       /* bytes asked for by the next read (at most the room left) */
  int eof;
  long lineno;            /* number of the line last returned */
  const char *path;
} line_reader;

int line_reader_open(line_reader *r, const char *path, rf_diag *d);
void line_reader_close(line_reader *r);
/* Returns 1 with *line (NUL-terminated, no '\n' or '\r') valid until the next call, 0 at end of
 * file, -1 on a read error or a line with a NUL byte. */
int line_reader_next(line_reader *r, char **line, size_t *len, rf_diag *d);

#endif
