/* Shared between the files of csim/config: the option table and the value parsers it points
 * to. Not part of the public API (tests may include it to walk the table). */
#ifndef RFSIM_CONFIG_INTERNAL_H
#define RFSIM_CONFIG_INTERNAL_H

#include <stddef.h>

#include "config.h"

typedef enum opt_kind {
  OPT_INT,    /* int, range [ilo, ihi] */
  OPT_LL,     /* long long, range [ilo, ihi] */
  OPT_U64,    /* uint64_t, any value */
  OPT_DOUBLE, /* double, range [dlo, dhi] */
  OPT_BOOL,   /* int holding 0 or 1 */
  OPT_STR,    /* char[size]: one word */
  OPT_CUSTOM  /* parse/format below */
} opt_kind;

/* Where a value came from, for "file:line: -name: expected X, found 'Y'". */
typedef struct opt_site {
  const char *file;
  long line;
  const char *name; /* without the leading '-' */
} opt_site;

typedef struct opt_def opt_def;

/* Custom parsers write only on success, so a malformed value leaves the field untouched. */
typedef int (*opt_parse_fn)(gpu_config *c, const opt_def *o, const char *value,
                            const opt_site *s, rf_diag *d);
/* Writes the value in option syntax into buf (always NUL-terminated). */
typedef void (*opt_format_fn)(const gpu_config *c, const opt_def *o, char *buf, size_t n);

struct opt_def {
  const char *name;   /* without the leading '-' */
  opt_kind kind;
  size_t offset;      /* of the field in gpu_config */
  long long ilo, ihi; /* OPT_INT / OPT_LL range */
  double dlo, dhi;    /* OPT_DOUBLE range */
  size_t size;        /* OPT_STR capacity including the NUL */
  int arg;            /* custom parsers: which unit / which cache */
  int alias;          /* 1: another spelling of the row above; not dumped */
  opt_parse_fn parse;
  opt_format_fn format;
  const char *help;
};

extern const opt_def config_options[];
extern const size_t config_option_count;

/* The row for name (without '-'), or NULL. */
const opt_def *config_find_option(const char *name);

/* Fails with "file:line: -name: expected <expected>, found '<found>'". */
int opt_fail(rf_diag *d, const opt_site *s, const char *expected, const char *found);

/* Generic value parsing for the built-in kinds; 0 or -1. */
int opt_parse_value(gpu_config *c, const opt_def *o, const char *value, const opt_site *s,
                    rf_diag *d);
void opt_format_value(const gpu_config *c, const opt_def *o, char *buf, size_t n);

/* Strict decimal integer parse of a whole string: 0 on success. */
int parse_ll(const char *text, long long *out);
/* Finite decimal double of a whole string: 0 on success. */
int parse_double(const char *text, double *out);
/* Splits buf in place at every `delim` into at most max fields; returns the field count, or
 * max + 1 when there are more. An empty buf is one empty field. */
int split_fields(char *buf, char delim, char **fields, int max);
/* Copies text into buf (capacity n); -1 if it does not fit. */
int copy_text(char *buf, size_t n, const char *text);
/* Shortest "%.*g" that reads back to exactly v. */
void format_double(double v, char *buf, size_t n);

/* Custom parsers and formatters (option_values.c, cache_spec.c, dram_timing.c). */
int parse_pipeline(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                   rf_diag *d);
void format_pipeline(const gpu_config *c, const opt_def *o, char *buf, size_t n);
int parse_pipe_widths(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                      rf_diag *d);
void format_pipe_widths(const gpu_config *c, const opt_def *o, char *buf, size_t n);
int parse_scheduler(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                    rf_diag *d);
void format_scheduler(const gpu_config *c, const opt_def *o, char *buf, size_t n);
int parse_warpman_mode(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                       rf_diag *d);
void format_warpman_mode(const gpu_config *c, const opt_def *o, char *buf, size_t n);
int parse_clocks(gpu_config *c, const opt_def *o, const char *v, const opt_site *s, rf_diag *d);
void format_clocks(const gpu_config *c, const opt_def *o, char *buf, size_t n);
int parse_latency(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                  rf_diag *d);
void format_latency(const gpu_config *c, const opt_def *o, char *buf, size_t n);
int parse_cache(gpu_config *c, const opt_def *o, const char *v, const opt_site *s, rf_diag *d);
void format_cache(const gpu_config *c, const opt_def *o, char *buf, size_t n);
int parse_dram_timing(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                      rf_diag *d);
void format_dram_timing(const gpu_config *c, const opt_def *o, char *buf, size_t n);

/* memory_values.c */
int parse_l2_queues(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                    rf_diag *d);
void format_l2_queues(const gpu_config *c, const opt_def *o, char *buf, size_t n);
int parse_shmem_options(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                        rf_diag *d);
void format_shmem_options(const gpu_config *c, const opt_def *o, char *buf, size_t n);
int parse_runtime_stat(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                       rf_diag *d);
void format_runtime_stat(const gpu_config *c, const opt_def *o, char *buf, size_t n);
int parse_network_mode(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                       rf_diag *d);
void format_network_mode(const gpu_config *c, const opt_def *o, char *buf, size_t n);

/* Cache selector for parse_cache/format_cache (opt_def.arg). */
enum { CACHE_L1D = 0, CACHE_L2 = 1, CACHE_L1I = 2 };

/* Standalone cache string parse/format, for tests and the validator's messages. */
int cache_spec_parse(cache_config *out, const char *v, const opt_site *s, rf_diag *d);
void cache_spec_format(const cache_config *cc, char *buf, size_t n);

/* Recomputes derived fields (dram_buswidth) and restates the fixed UNIT_MEM/UNIT_CTRL
 * entries after any option changes. */
void config_derive(gpu_config *c);

#endif
