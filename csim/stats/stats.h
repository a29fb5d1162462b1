/* A stats record is an ordered list of named values; the same list prints as GPGPU-Sim-style
 * `name = value` lines and as JSON, so the two outputs cannot drift apart. */
#ifndef RFSIM_STATS_H
#define RFSIM_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "../common/diag.h"

/* STAT_SERIES: a sequence of numbers, written to JSON as an array and left out of the text. */
typedef enum stat_kind { STAT_U64, STAT_F64, STAT_STR, STAT_SERIES } stat_kind;

typedef struct stat_entry {
  char name[64];
  stat_kind kind;
  uint64_t u;
  double f;
  char s[256];
  double *v;  /* STAT_SERIES: nv values, owned by the record */
  int nv;
} stat_entry;

typedef struct stats_record {
  stat_entry *e;
  int n, cap;
  int oom;  /* an add failed: the record is incomplete and must not be written */
} stats_record;

void stats_init(stats_record *r);
void stats_free(stats_record *r);
void stats_u64(stats_record *r, const char *name, uint64_t v);
void stats_f64(stats_record *r, const char *name, double v);
void stats_str(stats_record *r, const char *name, const char *v);
/* Copies v[0..n) into the record (JSON only). */
void stats_series(stats_record *r, const char *name, const double *v, int n);
/* Ratio helper: 0 when the denominator is 0 (GPGPU-Sim prints 0 rather than nan). */
double stats_ratio(double num, double den);

void stats_print_text(const stats_record *r, FILE *out);
/* Writes {"kernels": [...], "total": {...}} to path via a temporary file renamed into place,
 * so a failed run never leaves a complete-looking file. */
int stats_write_json(const char *path, const stats_record *kernels, int nkernels,
                     const stats_record *total, rf_diag *d);
/* Whether stats_write_json could write path's temporary file now (it is made and removed):
 * asked before a run, so that a long run does not end in a file it cannot write. */
int stats_json_check(const char *path, rf_diag *d);

#endif
