/* Diagnostics: every fallible function fills an rf_diag and returns -1, so that the caller
 * (ultimately main) decides how to report it. Messages follow the compiler convention
 * "file:line: expected X, found Y" so editors can jump to the offending input. */
#ifndef RFSIM_DIAG_H
#define RFSIM_DIAG_H

#include <stddef.h>

#define RF_DIAG_MSG_MAX 1024

typedef struct rf_diag {
  char msg[RF_DIAG_MSG_MAX];
  /* Set with the message when a technique refuses a config or a kernel it cannot apply to (its
   * resources cannot hold the shape): a result to report, not a failed run (exit status 3). */
  int refusal;
} rf_diag;

/* Formats into d->msg (if d is non-NULL), clears d->refusal and returns -1, so callers can
 * write `return rf_fail(d, "...")`. */
int rf_fail(rf_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Like rf_fail, and marks the error a refusal (d->refusal): the technique cannot apply to this
 * config or kernel. */
int rf_refuse(rf_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Like rf_fail but prefixes "file:line: ". line <= 0 omits the line. */
int rf_fail_at(rf_diag *d, const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Checked allocation: returns NULL and fills d on failure. */
void *rf_calloc(size_t n, size_t size, rf_diag *d);
void *rf_realloc(void *p, size_t n, size_t size, rf_diag *d);
/* rf_calloc starting on a cache line (64 bytes), for arrays of line-sized elements laid out
 * so that what is read together shares a line; freed with free(). */
void *rf_calloc_lines(size_t n, size_t size, rf_diag *d);

#endif
