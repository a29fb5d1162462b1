#include "diag.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A message is one line on a terminal: control bytes that came from the input it quotes (a
 * binary file read as a trace, an escape sequence) are shown as '?', so they cannot move the
 * cursor, clear the screen or break the line. */
static void printable(char *msg) {
  for (unsigned char *c = (unsigned char *)msg; *c; c++)
    if (*c < 0x20 || *c == 0x7f) *c = '?';
}

/* A failure is not a refusal, whatever the diag held: many callers fill a diag of their own on
 * the stack and pass it up whole (the FineReg units' lockstep mismatch, an SM's failed cycle),
 * and a stale flag there made main exit 3, "refused", for a broken unit. */
int rf_fail(rf_diag *d, const char *fmt, ...) {
  if (d) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    printable(d->msg);
    d->refusal = 0;
  }
  return -1;
}

int rf_refuse(rf_diag *d, const char *fmt, ...) {
  if (d) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    printable(d->msg);
    d->refusal = 1;
  }
  return -1;
}

int rf_fail_at(rf_diag *d, const char *file, long line, const char *fmt, ...) {
  if (!d) return -1;
  d->refusal = 0;
  int n = line > 0 ? snprintf(d->msg, sizeof d->msg, "%s:%ld: ", file, line)
                   : snprintf(d->msg, sizeof d->msg, "%s: ", file);
  if (n < 0 || (size_t)n >= sizeof d->msg) {
    printable(d->msg); /* (the file's name alone filled it) */
    return -1;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->msg + n, sizeof d->msg - (size_t)n, fmt, ap);
  va_end(ap);
  printable(d->msg);
  return -1;
}

void *rf_calloc(size_t n, size_t size, rf_diag *d) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) rf_fail(d, "out of memory allocating %zu x %zu bytes", n, size);
  return p;
}

void *rf_calloc_lines(size_t n, size_t size, rf_diag *d) {
  enum { LINE = 64 };
  if (size && n > (SIZE_MAX - LINE) / size) {
    rf_fail(d, "allocation of %zu x %zu bytes overflows", n, size);
    return NULL;
  }
  size_t bytes = ((n ? n : 1) * (size ? size : 1) + LINE - 1) / LINE * LINE;
  void *p = aligned_alloc(LINE, bytes);
  if (!p) rf_fail(d, "out of memory allocating %zu x %zu bytes", n, size);
  else memset(p, 0, bytes);
  return p;
}

void *rf_realloc(void *p, size_t n, size_t size, rf_diag *d) {
  if (size && n > SIZE_MAX / size) {
    rf_fail(d, "allocation of %zu x %zu bytes overflows", n, size);
    return NULL;
  }
  void *q = realloc(p, (n ? n : 1) * (size ? size : 1));
  if (!q) rf_fail(d, "out of memory allocating %zu x %zu bytes", n, size);
  return q;
}
