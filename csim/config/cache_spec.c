/* GPGPU-Sim cache strings (-gpgpu_cache:dl1, -gpgpu_cache:dl2), in both the 4.x form with a
 * leading N/S type letter and the 3.x form without it:
 *   [N|S:]<sets>:<line>:<ways>,<repl>:<write>:<alloc>:<write alloc>[:<set index>],
 *   <mshr type>:<entries>:<max merge>,<miss queue>[:<result fifo>][,<data port width>]
 * The result fifo is accepted for compatibility and not modelled (it sizes texture caches);
 * the data port width sets the cache's port bandwidth (0 or absent: one line per cycle).
 * Errors name the one field that is wrong, since these strings are dense. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "config_internal.h"

#define SPEC_MAX 1024
#define COUNT_MAX (1 << 20)

static const char shape[] =
    "<geometry>,<policies>,<mshr>,<miss queue>[,<port width>] (or none)";

static int count_field(const char *text, long long lo, long long hi, int *out) {
  long long v;
  if (parse_ll(text, &v) != 0 || v < lo || v > hi) return -1;
  *out = (int)v;
  return 0;
}

/* A one-letter field that must be one of `allowed`. */
static int letter_field(const char *text, const char *allowed, char *out) {
  if (strlen(text) != 1 || !strchr(allowed, text[0])) return -1;
  *out = text[0];
  return 0;
}

static int parse_geometry(cache_config *cc, char *g, const opt_site *s, rf_diag *d) {
  static const char expect[] = "[N|S:]<sets>:<line bytes>:<ways>, positive integers";
  char *f[5];
  char copy[SPEC_MAX];
  snprintf(copy, sizeof copy, "%s", g);
  int n = split_fields(g, ':', f, 4);
  int first = 0;
  if (n >= 1 && strlen(f[0]) == 1 && isalpha((unsigned char)f[0][0])) {
    char type;
    if (letter_field(f[0], "NS", &type) != 0)
      return opt_fail(d, s, "a cache type N (normal) or S (sectored)", f[0]);
    cc->sectored = type == 'S';
    first = 1;
  }
  if (n - first != 3 || count_field(f[first], 1, COUNT_MAX, &cc->nsets) != 0 ||
      count_field(f[first + 1], 1, 65536, &cc->line_size) != 0 ||
      count_field(f[first + 2], 1, 4096, &cc->assoc) != 0)
    return opt_fail(d, s, expect, copy);
  return 0;
}

static int parse_policies(cache_config *cc, char *g, const opt_site *s, rf_diag *d) {
  char *f[6];
  char copy[SPEC_MAX];
  snprintf(copy, sizeof copy, "%s", g);
  int n = split_fields(g, ':', f, 5);
  if (n < 4 || n > 5)
    return opt_fail(d, s, "<repl>:<write>:<alloc>:<write alloc>[:<set index>]", copy);
  if (letter_field(f[0], "LF", &cc->replacement) != 0)
    return opt_fail(d, s, "a replacement policy L or F", f[0]);
  if (letter_field(f[1], "RBTEL", &cc->write_policy) != 0)
    return opt_fail(d, s, "a write policy R, B, T, E or L", f[1]);
  if (letter_field(f[2], "mfs", &cc->alloc_policy) != 0)
    return opt_fail(d, s, "an allocation policy m, f or s", f[2]);
  if (letter_field(f[3], "NWFL", &cc->write_alloc) != 0)
    return opt_fail(d, s, "a write-allocate policy N, W, F or L", f[3]);
  cc->set_index_fn = 'L'; /* the 3.x strings without the field meant linear indexing */
  if (n == 5 && letter_field(f[4], "LHPX", &cc->set_index_fn) != 0)
    return opt_fail(d, s, "a set index function L, H, P or X", f[4]);
  return 0;
}

static int parse_mshr(cache_config *cc, char *g, const opt_site *s, rf_diag *d) {
  char *f[4];
  char copy[SPEC_MAX];
  snprintf(copy, sizeof copy, "%s", g);
  int n = split_fields(g, ':', f, 3);
  if (n != 3) return opt_fail(d, s, "<mshr type>:<entries>:<max merge>", copy);
  if (letter_field(f[0], "AFTS", &cc->mshr_type) != 0)
    return opt_fail(d, s, "an MSHR type A, F, T or S", f[0]);
  if (count_field(f[1], 1, COUNT_MAX, &cc->mshr_entries) != 0)
    return opt_fail(d, s, "a positive MSHR entry count", f[1]);
  if (count_field(f[2], 1, COUNT_MAX, &cc->mshr_max_merge) != 0)
    return opt_fail(d, s, "a positive MSHR merge count", f[2]);
  return 0;
}

static int parse_queues(cache_config *cc, char *g, const opt_site *s, rf_diag *d) {
  char *f[3];
  char copy[SPEC_MAX];
  snprintf(copy, sizeof copy, "%s", g);
  int n = split_fields(g, ':', f, 2), fifo;
  if (n > 2 || count_field(f[0], 1, COUNT_MAX, &cc->miss_queue_size) != 0 ||
      (n == 2 && count_field(f[1], 0, COUNT_MAX, &fifo) != 0))
    return opt_fail(d, s, "<miss queue entries>[:<result fifo entries>]", copy);
  return 0;
}

int cache_spec_parse(cache_config *out, const char *v, const opt_site *s, rf_diag *d) {
  cache_config cc;
  memset(&cc, 0, sizeof cc);
  if (strcmp(v, "none") == 0) {
    *out = cc; /* all zero: a disabled cache has no geometry, so dumps compare equal */
    return 0;
  }
  char buf[SPEC_MAX], *g[6];
  if (copy_text(buf, sizeof buf, v) != 0) return opt_fail(d, s, shape, v);
  int n = split_fields(buf, ',', g, 5);
  if (n < 4 || n > 5) return opt_fail(d, s, shape, v);
  int port = 0;
  if (parse_geometry(&cc, g[0], s, d) != 0 || parse_policies(&cc, g[1], s, d) != 0 ||
      parse_mshr(&cc, g[2], s, d) != 0 || parse_queues(&cc, g[3], s, d) != 0)
    return -1;
  if (n == 5 && count_field(g[4], 0, 65536, &port) != 0)
    return opt_fail(d, s, "a data port width in bytes", g[4]);
  cc.data_port_width = port;
  cc.enabled = 1;
  *out = cc;
  return 0;
}

/* Printable letter or '?', so a dump of a corrupted struct stays one readable line. */
static char letter(char ch) { return isalpha((unsigned char)ch) ? ch : '?'; }

void cache_spec_format(const cache_config *cc, char *buf, size_t n) {
  if (!cc->enabled) {
    snprintf(buf, n, "none");
    return;
  }
  int len = snprintf(buf, n, "%c:%d:%d:%d,%c:%c:%c:%c:%c,%c:%d:%d,%d", cc->sectored ? 'S' : 'N',
                     cc->nsets, cc->line_size, cc->assoc, letter(cc->replacement),
                     letter(cc->write_policy), letter(cc->alloc_policy), letter(cc->write_alloc),
                     letter(cc->set_index_fn), letter(cc->mshr_type), cc->mshr_entries,
                     cc->mshr_max_merge, cc->miss_queue_size);
  if (cc->data_port_width && len > 0 && (size_t)len < n)
    snprintf(buf + len, n - (size_t)len, ",%d", cc->data_port_width);
}

static cache_config *which(gpu_config *c, const opt_def *o) {
  return o->arg == CACHE_L1D ? &c->l1d : o->arg == CACHE_L1I ? &c->l1i : &c->l2;
}

int parse_cache(gpu_config *c, const opt_def *o, const char *v, const opt_site *s, rf_diag *d) {
  return cache_spec_parse(which(c, o), v, s, d);
}

void format_cache(const gpu_config *c, const opt_def *o, char *buf, size_t n) {
  cache_spec_format(o->arg == CACHE_L1D ? &c->l1d : o->arg == CACHE_L1I ? &c->l1i : &c->l2, buf,
                    n);
}
