/* Value parsers and formatters: the built-in kinds (int, long long, uint64, double, 0/1, word)
 * and the small custom syntaxes (pipeline, scheduler, clock domains, latency pairs). Every
 * parser is strict (the whole text must be consumed) because GPGPU-Sim's sscanf-based parsing
 * silently accepts "16x" as 16, which hides typos in configs that then run for hours. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_internal.h"

#define FIELD(c, o, type) ((type *)((char *)(c) + (o)->offset))
#define CFIELD(c, o, type) ((const type *)((const char *)(c) + (o)->offset))

int opt_fail(rf_diag *d, const opt_site *s, const char *expected, const char *found) {
  return rf_fail_at(d, s->file, s->line, "-%s: expected %s, found '%s'", s->name, expected,
                    found);
}

int parse_ll(const char *text, long long *out) {
  const char *p = text;
  if (*p == '+' || *p == '-') p++;
  if (*p < '0' || *p > '9') return -1; /* also rejects leading spaces, which strtoll skips */
  errno = 0;
  char *end;
  long long v = strtoll(text, &end, 10);
  if (errno == ERANGE || *end != '\0') return -1;
  *out = v;
  return 0;
}

int parse_double(const char *text, double *out) {
  /* Plain decimal only: strtod would also take "inf", "nan" and hex floats. */
  if (*text == '\0' || strspn(text, "0123456789+-.eE") != strlen(text)) return -1;
  errno = 0;
  char *end;
  double v = strtod(text, &end);
  if (errno == ERANGE || *end != '\0' || end == text || !isfinite(v)) return -1;
  *out = v;
  return 0;
}

void format_double(double v, char *buf, size_t n) {
  /* Plain decimals read best ("700", "1126.5"); %g covers the rest exactly. */
  for (int prec = 0; prec <= 6 && fabs(v) < 1e15; prec++) {
    snprintf(buf, n, "%.*f", prec, v);
    if (strtod(buf, NULL) == v) return;
  }
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, n, "%.*g", prec, v);
    if (strtod(buf, NULL) == v) return;
  }
}

int split_fields(char *buf, char delim, char **fields, int max) {
  int count = 0;
  char *p = buf;
  for (;;) {
    if (count == max) return max + 1;
    fields[count++] = p;
    char *q = strchr(p, delim);
    if (!q) return count;
    *q = '\0';
    p = q + 1;
  }
}

int copy_text(char *buf, size_t n, const char *text) {
  size_t len = strlen(text);
  if (len >= n) return -1;
  memcpy(buf, text, len + 1);
  return 0;
}

/* ---- built-in kinds ---- */

static void int_expect(const opt_def *o, char *buf, size_t n) {
  if (o->ihi == LLONG_MAX || (o->kind == OPT_INT && o->ihi == INT_MAX))
    snprintf(buf, n, "an integer >= %lld", o->ilo);
  else
    snprintf(buf, n, "an integer in [%lld, %lld]", o->ilo, o->ihi);
}

static int parse_word(char *dst, const opt_def *o, const char *v, const opt_site *s,
                      rf_diag *d) {
  /* One word, so that config_dump can write it back without quoting rules. */
  char expect[96];
  snprintf(expect, sizeof expect, "a name of 1 to %zu characters without spaces, quotes or '#'",
           o->size - 1);
  size_t len = strlen(v);
  if (len == 0 || len >= o->size || strpbrk(v, " \t\r\n\"#")) return opt_fail(d, s, expect, v);
  memset(dst, 0, o->size); /* whole buffer, so equal configs compare equal byte for byte */
  memcpy(dst, v, len);
  return 0;
}

int opt_parse_value(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                    rf_diag *d) {
  char expect[96];
  long long ll;
  switch (o->kind) {
  case OPT_INT:
  case OPT_LL:
    int_expect(o, expect, sizeof expect);
    if (parse_ll(v, &ll) != 0 || ll < o->ilo || ll > o->ihi) return opt_fail(d, s, expect, v);
    if (o->kind == OPT_INT)
      *FIELD(c, o, int) = (int)ll;
    else
      *FIELD(c, o, long long) = ll;
    return 0;
  case OPT_BOOL:
    if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0) return opt_fail(d, s, "0 or 1", v);
    *FIELD(c, o, int) = v[0] - '0';
    return 0;
  case OPT_U64: {
    if (v[0] < '0' || v[0] > '9') return opt_fail(d, s, "an unsigned integer", v);
    errno = 0;
    char *end;
    unsigned long long u = strtoull(v, &end, 10);
    if (errno == ERANGE || *end != '\0') return opt_fail(d, s, "an unsigned integer", v);
    *FIELD(c, o, uint64_t) = (uint64_t)u;
    return 0;
  }
  case OPT_DOUBLE: {
    double x;
    snprintf(expect, sizeof expect, "a number in [%g, %g]", o->dlo, o->dhi);
    if (parse_double(v, &x) != 0 || x < o->dlo || x > o->dhi) return opt_fail(d, s, expect, v);
    *FIELD(c, o, double) = x;
    return 0;
  }
  case OPT_STR:
    return parse_word(FIELD(c, o, char), o, v, s, d);
  case OPT_CUSTOM:
    return o->parse(c, o, v, s, d);
  }
  return rf_fail(d, "internal: option -%s has no kind", o->name);
}

void opt_format_value(const gpu_config *c, const opt_def *o, char *buf, size_t n) {
  switch (o->kind) {
  case OPT_INT:
  case OPT_BOOL:
    snprintf(buf, n, "%d", *CFIELD(c, o, int));
    return;
  case OPT_LL:
    snprintf(buf, n, "%lld", *CFIELD(c, o, long long));
    return;
  case OPT_U64:
    snprintf(buf, n, "%" PRIu64, *CFIELD(c, o, uint64_t));
    return;
  case OPT_DOUBLE:
    format_double(*CFIELD(c, o, double), buf, n);
    return;
  case OPT_STR:
    snprintf(buf, n, "%.*s", (int)o->size - 1, CFIELD(c, o, char));
    return;
  case OPT_CUSTOM:
    o->format(c, o, buf, n);
    return;
  }
  snprintf(buf, n, "?");
}

/* ---- custom syntaxes ---- */

#define VALUE_MAX 4096

int parse_pipeline(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                   rf_diag *d) {
  (void)o;
  static const char expect[] = "<max threads per SM>:<warp size>";
  char buf[VALUE_MAX], *f[3];
  long long threads, warp;
  /* GPGPU-Sim reads only the first two fields; later ones are ignored here as well. */
  if (copy_text(buf, sizeof buf, v) != 0 || split_fields(buf, ':', f, 2) < 2 ||
      parse_ll(f[0], &threads) != 0 || threads < 1 || threads > 65536)
    return opt_fail(d, s, expect, v);
  if (parse_ll(f[1], &warp) != 0 || warp < 1 || warp > 1024) return opt_fail(d, s, expect, v);
  c->max_threads_per_sm = (int)threads;
  c->warp_size = (int)warp;
  return 0;
}

void format_pipeline(const gpu_config *c, const opt_def *o, char *buf, size_t n) {
  (void)o;
  snprintf(buf, n, "%d:%d", c->max_threads_per_sm, c->warp_size);
}

int parse_scheduler(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                    rf_diag *d) {
  (void)o;
  static const char expect[] = "lrr, gto or two_level_active:<active warps>[:...]";
  static const char prefix[] = "two_level_active:";
  if (strcmp(v, "lrr") == 0 || strcmp(v, "gto") == 0) {
    c->scheduler = v[0] == 'l' ? SCHED_LRR : SCHED_GTO;
    c->two_level_active = 0; /* only meaningful for two_level; 0 keeps dumps exact */
    return 0;
  }
  if (strncmp(v, prefix, sizeof prefix - 1) != 0) return opt_fail(d, s, expect, v);
  char buf[VALUE_MAX], *f[2];
  long long n;
  /* The inner/outer prioritisation fields after N select GPGPU-Sim variants rfsim does not
   * distinguish (its two-level scheduler is LRR within the active set); they are ignored. */
  if (copy_text(buf, sizeof buf, v + sizeof prefix - 1) != 0) return opt_fail(d, s, expect, v);
  split_fields(buf, ':', f, 1);
  if (parse_ll(f[0], &n) != 0 || n < 1 || n > 1024) return opt_fail(d, s, expect, v);
  c->scheduler = SCHED_TWO_LEVEL;
  c->two_level_active = (int)n;
  return 0;
}

void format_scheduler(const gpu_config *c, const opt_def *o, char *buf, size_t n) {
  (void)o;
  switch (c->scheduler) {
  case SCHED_LRR: snprintf(buf, n, "lrr"); return;
  case SCHED_GTO: snprintf(buf, n, "gto"); return;
  case SCHED_TWO_LEVEL: snprintf(buf, n, "two_level_active:%d", c->two_level_active); return;
  }
  snprintf(buf, n, "?");
}

static const char *const warpman_modes[] = {"off", "temp", "spatial", "dueling", "threshold"};

int parse_warpman_mode(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                       rf_diag *d) {
  (void)o;
  for (int i = 0; i < (int)(sizeof warpman_modes / sizeof warpman_modes[0]); i++)
    if (strcmp(v, warpman_modes[i]) == 0) {
      c->warpman_mode = (warpman_mode)i;
      return 0;
    }
  return opt_fail(d, s, "off, temp, spatial, dueling or threshold", v);
}

void format_warpman_mode(const gpu_config *c, const opt_def *o, char *buf, size_t n) {
  (void)o;
  unsigned m = (unsigned)c->warpman_mode;
  snprintf(buf, n, "%s", m < sizeof warpman_modes / sizeof warpman_modes[0] ? warpman_modes[m]
                                                                           : "?");
}

int parse_clocks(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                 rf_diag *d) {
  (void)o;
  static const char expect[] = "<core>:<icnt>:<l2>:<dram> clocks in MHz, each > 0";
  char buf[VALUE_MAX], *f[5];
  double mhz[4];
  if (copy_text(buf, sizeof buf, v) != 0 || split_fields(buf, ':', f, 4) != 4)
    return opt_fail(d, s, expect, v);
  for (int i = 0; i < 4; i++)
    if (parse_double(f[i], &mhz[i]) != 0 || !(mhz[i] > 0.0) || mhz[i] > 1e6)
      return opt_fail(d, s, expect, v);
  c->clk_core = mhz[0];
  c->clk_icnt = mhz[1];
  c->clk_l2 = mhz[2];
  c->clk_dram = mhz[3];
  return 0;
}

void format_clocks(const gpu_config *c, const opt_def *o, char *buf, size_t n) {
  (void)o;
  char a[32], b[32], l2[32], dr[32];
  format_double(c->clk_core, a, sizeof a);
  format_double(c->clk_icnt, b, sizeof b);
  format_double(c->clk_l2, l2, sizeof l2);
  format_double(c->clk_dram, dr, sizeof dr);
  snprintf(buf, n, "%s:%s:%s:%s", a, b, l2, dr);
}

int parse_latency(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                  rf_diag *d) {
  static const char expect[] = "<latency>,<initiation interval>, integers in [1, 100000]";
  char buf[VALUE_MAX], *f[3];
  long long lat, init;
  if (copy_text(buf, sizeof buf, v) != 0 || split_fields(buf, ',', f, 2) != 2 ||
      parse_ll(f[0], &lat) != 0 || parse_ll(f[1], &init) != 0 || lat < 1 || lat > 100000 ||
      init < 1 || init > 100000)
    return opt_fail(d, s, expect, v);
  c->latency[o->arg] = (int)lat;
  c->initiation[o->arg] = (int)init;
  return 0;
}

void format_latency(const gpu_config *c, const opt_def *o, char *buf, size_t n) {
  snprintf(buf, n, "%d,%d", c->latency[o->arg], c->initiation[o->arg]);
}

/* -gpgpu_pipeline_widths in GPGPU-Sim's order: the five ID_OC registers (SP, DP, INT, SFU, MEM),
 * the five OC_EX registers in the same order, EX_WB, then optionally ID_OC and OC_EX of the
 * tensor cores (0 when absent). */
static const op_unit width_order[5] = {UNIT_SP, UNIT_DP, UNIT_INT, UNIT_SFU, UNIT_MEM};

int parse_pipe_widths(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                      rf_diag *d) {
  (void)o;
  static const char expect[] = "11 or 13 comma-separated widths in [0, 64]";
  char buf[VALUE_MAX], *f[14];
  long long w[13] = {0};
  if (copy_text(buf, sizeof buf, v) != 0) return opt_fail(d, s, expect, v);
  int n = split_fields(buf, ',', f, 13);
  if (n != 11 && n != 13) return opt_fail(d, s, expect, v);
  for (int i = 0; i < n; i++)
    if (parse_ll(f[i], &w[i]) != 0 || w[i] < 0 || w[i] > 64) return opt_fail(d, s, expect, v);
  for (int i = 0; i < 5; i++) {
    c->width_id_oc[width_order[i]] = (int)w[i];
    c->width_oc_ex[width_order[i]] = (int)w[5 + i];
  }
  c->width_ex_wb = (int)w[10];
  c->width_id_oc[UNIT_TENSOR] = (int)w[11];
  c->width_oc_ex[UNIT_TENSOR] = (int)w[12];
  return 0;
}

void format_pipe_widths(const gpu_config *c, const opt_def *o, char *buf, size_t n) {
  (void)o;
  snprintf(buf, n, "%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d", c->width_id_oc[UNIT_SP],
           c->width_id_oc[UNIT_DP], c->width_id_oc[UNIT_INT], c->width_id_oc[UNIT_SFU],
           c->width_id_oc[UNIT_MEM], c->width_oc_ex[UNIT_SP], c->width_oc_ex[UNIT_DP],
           c->width_oc_ex[UNIT_INT], c->width_oc_ex[UNIT_SFU], c->width_oc_ex[UNIT_MEM],
           c->width_ex_wb, c->width_id_oc[UNIT_TENSOR], c->width_oc_ex[UNIT_TENSOR]);
}
