/* Small strict text helpers for the trace tools: whole-token number parsing (no trailing
 * garbage, no overflow) and reading a small file whole. */
#ifndef RFSIM_TG_TEXT_H
#define RFSIM_TG_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"

char *tg_trim(char *s);
const char *tg_skip_space(const char *s);
/* Scans a decimal unsigned integer at s; returns the end, or NULL if none or on overflow. */
const char *tg_scan_u64(const char *s, uint64_t *v);
/* The whole of s is a decimal unsigned integer. */
int tg_parse_u64(const char *s, uint64_t *v);
/* The whole of s is a finite decimal number in [0, 1]. */
int tg_parse_fraction(const char *s, double *v);
/* Reads a file of at most max_bytes into a NUL-terminated buffer the caller frees. */
int tg_read_file(const char *path, size_t max_bytes, char **out, rf_diag *d);

#endif
