/* Spec parser: `key = value` lines. Keys before the first `kernel = NAME` line are defaults
 * for every kernel; each `kernel =` line starts a section that inherits them. Load and store
 * lines belong to a kernel section only. */
#include "tg_spec.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/checked.h"
#include "../trace/trace.h"
#include "tg_access.h"
#include "tg_text.h"

enum {
  K_SEED, K_GRID, K_BLOCK, K_NREGS, K_SHMEM, K_ITERS, K_BODY, K_MIX, K_BARRIER, K_IMBALANCE,
  K_REG_ORDER, K_LOAD, K_STORE, K_KERNEL, K_COUNT
};

static const char *const key_names[K_COUNT] = {
    "seed", "grid", "block", "nregs", "shmem", "iters", "body", "mix", "barrier_every",
    "imbalance", "reg_order", "load", "store", "kernel"};

#define KEY_LIST                                                                         \
  "kernel, seed, grid, block, nregs, shmem, iters, body, mix, barrier_every, imbalance, " \
  "reg_order, load, store"

typedef struct parse_state {
  const char *path;
  tg_spec *spec;
  tg_kernel_spec defaults;
  tg_kernel_spec *cur;  /* the section being filled: &defaults or the last kernel */
  long key_line[K_COUNT];
  rf_diag *d;
} parse_state;

static const char *const class_names[TG_NCLASS] = {"int", "fp", "sfu", "dp"};

const char *tg_class_name(tg_class c) { return c < TG_NCLASS ? class_names[c] : "?"; }

static void set_defaults(tg_kernel_spec *k) {
  memset(k, 0, sizeof *k);
  k->grid[0] = k->grid[1] = k->grid[2] = 0; /* required */
  k->block[0] = k->block[1] = k->block[2] = 0;
  k->iters = 1;
  k->body = 8;
  k->mix[TG_INT] = 1.0;
  k->seed = 1;
}

static int parse_dims(const char *v, int dim[3], int max) {
  int n = 0;
  const char *p = v;
  int out[3] = {1, 1, 1};
  for (;;) {
    uint64_t x;
    const char *end = tg_scan_u64(p, &x);
    if (!end || x == 0 || x > (uint64_t)max || n == 3) return 0;
    out[n++] = (int)x;
    p = tg_skip_space(end);
    if (*p == '\0') break;
    if (*p != ',') return 0;
    p = tg_skip_space(p + 1);
  }
  memcpy(dim, out, sizeof out);
  return 1;
}

/* lo >= 0 and hi < 2^31 here, so the checked value always fits an int. */
static int parse_int_range(const char *v, long lo, long hi, int *out) {
  uint64_t x;
  if (!tg_parse_u64(v, &x) || x > (uint64_t)hi || x < (uint64_t)lo) return 0;
  *out = (int)x;
  return 1;
}

static int bad(parse_state *ps, long line, const char *expected, const char *found) {
  return rf_fail_at(ps->d, ps->path, line, "expected %s, found '%s'", expected, found);
}

static int parse_mix(parse_state *ps, long line, char *v) {
  double mix[TG_NCLASS] = {0};
  unsigned seen = 0;
  char *save = NULL;
  const char *what = "mix as class:fraction pairs (int, fp, sfu, dp)";
  int any = 0;
  for (char *tok = strtok_r(v, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
    char *colon = strchr(tok, ':');
    if (!colon) return bad(ps, line, what, tok);
    *colon = '\0';
    int c = -1;
    for (int i = 0; i < TG_NCLASS; i++)
      if (!strcmp(tok, class_names[i])) c = i;
    *colon = ':';
    if (c < 0 || (seen >> c & 1u)) return bad(ps, line, what, tok);
    double f;
    if (!tg_parse_fraction(colon + 1, &f)) return bad(ps, line, "a fraction in [0,1]", colon + 1);
    mix[c] = f;
    seen |= 1u << c;
    any = 1;
  }
  if (!any) return bad(ps, line, what, "");
  double sum = 0;
  for (int i = 0; i < TG_NCLASS; i++) sum += mix[i];
  if (fabs(sum - 1.0) > 1e-3)
    return rf_fail_at(ps->d, ps->path, line, "expected mix fractions summing to 1, found %g",
                      sum);
  memcpy(ps->cur->mix, mix, sizeof mix);
  return 0;
}

static int parse_imbalance(parse_state *ps, long line, char *v) {
  const char *what = "imbalance 'uniform', 'ray MIN MAX' or 'st HEAVY LIGHT'";
  char *save = NULL, *words[4] = {0};
  int n = 0;
  char copy[256];
  snprintf(copy, sizeof copy, "%s", v);
  for (char *t = strtok_r(v, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
    if (n == 3) return bad(ps, line, what, copy);
    words[n++] = t;
  }
  tg_kernel_spec *k = ps->cur;
  if (n == 1 && !strcmp(words[0], "uniform")) {
    k->imbalance = TG_UNIFORM;
    return 0;
  }
  int a, b;
  if (n != 3 || (strcmp(words[0], "ray") && strcmp(words[0], "st")))
    return bad(ps, line, what, copy);
  int is_ray = !strcmp(words[0], "ray");
  if (!parse_int_range(words[1], is_ray ? 0 : 1, 1000000, &a) ||
      !parse_int_range(words[2], 0, 1000000, &b))
    return bad(ps, line, is_ray ? "'ray MIN MAX' with 0 <= MIN <= MAX <= 1000000"
                                : "'st HEAVY LIGHT' with HEAVY >= 1 and LIGHT >= 0",
               copy);
  if (is_ray && a > b)
    return bad(ps, line, "'ray MIN MAX' with 0 <= MIN <= MAX <= 1000000", copy);
  k->imbalance = is_ray ? TG_RAY : TG_ST;
  k->imb_a = a;
  k->imb_b = b;
  return 0;
}

static int parse_reg_order(parse_state *ps, long line, const char *v) {
  static const char *const names[] = {"ascending", "descending", "interleaved", "random"};
  for (int i = 0; i < 4; i++)
    if (!strcmp(v, names[i])) {
      ps->cur->reg_order = (tg_reg_order)i;
      return 0;
    }
  return bad(ps, line, "reg_order ascending, descending, interleaved or random", v);
}

static int parse_kernel_name(parse_state *ps, long line, const char *v) {
  size_t n = strlen(v);
  int ok = n > 0 && n < TG_NAME_MAX && (isalpha((unsigned char)v[0]) || v[0] == '_');
  for (size_t i = 0; ok && i < n; i++)
    ok = isalnum((unsigned char)v[i]) || v[i] == '_';
  if (!ok) return bad(ps, line, "a kernel name of letters, digits and '_'", v);
  for (int i = 0; i < ps->spec->nkernels; i++)
    if (!strcmp(ps->spec->kernels[i].name, v))
      return bad(ps, line, "a kernel name not used before in this spec", v);
  return 0;
}

static int finish_section(parse_state *ps);

static int start_kernel(parse_state *ps, long line, const char *v) {
  if (parse_kernel_name(ps, line, v) < 0) return -1;
  if (ps->cur != &ps->defaults && finish_section(ps) < 0) return -1;
  tg_spec *s = ps->spec;
  tg_kernel_spec *nk = rf_realloc(s->kernels, (size_t)s->nkernels + 1, sizeof *nk, ps->d);
  if (!nk) return -1;
  s->kernels = nk;
  ps->cur = &s->kernels[s->nkernels++];
  *ps->cur = ps->defaults;
  ps->cur->set = 0;
  ps->cur->line = line;
  snprintf(ps->cur->name, sizeof ps->cur->name, "%s", v);
  for (int i = 0; i < K_COUNT; i++) ps->key_line[i] = 0;
  return 0;
}

static int set_key(parse_state *ps, int key, long line, char *v) {
  tg_kernel_spec *k = ps->cur;
  int hi;
  switch (key) {
  case K_SEED: {
    uint64_t x;
    if (!tg_parse_u64(v, &x)) return bad(ps, line, "a non-negative integer seed", v);
    k->seed = x;
    return 0;
  }
  case K_GRID:
    return parse_dims(v, k->grid, 1 << 30) ? 0
           : bad(ps, line, "grid as X[,Y[,Z]] with positive sizes", v);
  case K_BLOCK:
    if (!parse_dims(v, k->block, 1024))
      return bad(ps, line, "block as X[,Y[,Z]] with positive sizes", v);
    hi = k->block[0] * k->block[1] * k->block[2];
    if (hi > 1024)
      return rf_fail_at(ps->d, ps->path, line,
                        "expected at most 1024 threads per block, found %d", hi);
    return 0;
  case K_NREGS:
    return parse_int_range(v, 5, 255, &k->nregs) ? 0
           : bad(ps, line, "nregs between 5 and 255", v);
  case K_SHMEM:
    return parse_int_range(v, 0, 1 << 20, &k->shmem) ? 0
           : bad(ps, line, "shmem bytes between 0 and 1048576", v);
  case K_ITERS:
    return parse_int_range(v, 0, 1000000, &k->iters) ? 0
           : bad(ps, line, "iters between 0 and 1000000", v);
  case K_BODY:
    return parse_int_range(v, 0, 4096, &k->body) ? 0
           : bad(ps, line, "body between 0 and 4096 instructions", v);
  case K_MIX:
    return parse_mix(ps, line, v);
  case K_BARRIER:
    return parse_int_range(v, 0, 1000000, &k->barrier_every) ? 0
           : bad(ps, line, "barrier_every between 0 and 1000000", v);
  case K_IMBALANCE:
    return parse_imbalance(ps, line, v);
  case K_REG_ORDER:
    return parse_reg_order(ps, line, v);
  default: /* K_LOAD, K_STORE */
    if (ps->cur == &ps->defaults)
      return rf_fail_at(ps->d, ps->path, line,
                        "expected a 'kernel = NAME' line before %s, found %s in the defaults",
                        key_names[key], key_names[key]);
    if (k->nacc == TG_MAX_ACCESSES)
      return rf_fail_at(ps->d, ps->path, line,
                        "expected at most %d load/store lines per kernel, found %d",
                        TG_MAX_ACCESSES, TG_MAX_ACCESSES + 1);
    if (tg_access_parse(ps->path, line, key == K_STORE, v, &k->acc[k->nacc], ps->d) < 0)
      return -1;
    k->nacc++;
    return 0;
  }
}

/* Checks that need the whole section (sizes that depend on one another). */
static int finish_section(parse_state *ps) {
  tg_kernel_spec *k = ps->cur;
  static const int required[] = {K_GRID, K_BLOCK, K_NREGS};
  for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
    int key = required[i];
    int have = key == K_GRID ? k->grid[0] > 0 : key == K_BLOCK ? k->block[0] > 0 : k->nregs > 0;
    if (!have)
      return rf_fail_at(ps->d, ps->path, k->line, "expected %s for kernel '%s', found none",
                        key_names[key], k->name);
  }
  uint64_t tbs;
  if (!rf_dim3_product(k->grid, TRACE_MAX_TBS, &tbs))
    return rf_fail_at(ps->d, ps->path, ps->key_line[K_GRID] ? ps->key_line[K_GRID] : k->line,
                      "expected a grid of at most %llu thread blocks (x*y*z), found %d,%d,%d for "
                      "kernel '%s'", (unsigned long long)TRACE_MAX_TBS, k->grid[0], k->grid[1],
                      k->grid[2], k->name);
  int threads = k->block[0] * k->block[1] * k->block[2];
  int warps = (threads + 31) / 32;
  if (k->imbalance == TG_ST && k->imb_a > warps) {
    long line = ps->key_line[K_IMBALANCE] ? ps->key_line[K_IMBALANCE] : k->line;
    return rf_fail_at(ps->d, ps->path, line,
                      "expected at most %d heavy warps (the block has %d warps), found %d",
                      warps, warps, k->imb_a);
  }
  for (int i = 0; i < k->nacc; i++)
    if (tg_access_check(ps->path, k, &k->acc[i], ps->d) < 0) return -1;
  return 0;
}

static int parse_line(parse_state *ps, long line, char *s) {
  char *hash = strchr(s, '#');
  if (hash) *hash = '\0';
  s = tg_trim(s);
  if (*s == '\0') return 0;
  char *eq = strchr(s, '=');
  if (!eq) return bad(ps, line, "'key = value'", s);
  *eq = '\0';
  char *key = tg_trim(s), *val = tg_trim(eq + 1);
  int k = -1;
  for (int i = 0; i < K_COUNT; i++)
    if (!strcmp(key, key_names[i])) k = i;
  if (k < 0) return bad(ps, line, "a key (" KEY_LIST ")", key);
  if (*val == '\0') {
    char what[64];
    snprintf(what, sizeof what, "a value for %s", key);
    return bad(ps, line, what, "");
  }
  if (k == K_KERNEL) return start_kernel(ps, line, val);
  if (k != K_LOAD && k != K_STORE) {
    if (ps->cur->set >> k & 1u)
      return rf_fail_at(ps->d, ps->path, line,
                        "expected one '%s' per section, found a second (first on line %ld)", key,
                        ps->key_line[k]);
    ps->cur->set |= 1u << k;
  }
  ps->key_line[k] = line;
  return set_key(ps, k, line, val);
}

void tg_spec_free(tg_spec *s) {
  if (!s) return;
  free(s->kernels);
  free(s);
}

int tg_spec_parse(const char *path, const char *text, tg_spec **out, rf_diag *d) {
  *out = NULL;
  tg_spec *s = rf_calloc(1, sizeof *s, d);
  if (!s) return -1;
  snprintf(s->path, sizeof s->path, "%s", path);
  parse_state ps = {.path = path, .spec = s, .d = d};
  set_defaults(&ps.defaults);
  ps.cur = &ps.defaults;
  char *buf = strdup(text);
  if (!buf) {
    tg_spec_free(s);
    return rf_fail(d, "out of memory");
  }
  int rc = 0;
  long line = 0;
  for (char *p = buf; p && rc == 0;) {
    char *nl = strchr(p, '\n');
    if (nl) *nl = '\0';
    line++;
    rc = parse_line(&ps, line, p);
    p = nl ? nl + 1 : NULL;
  }
  free(buf);
  if (rc == 0 && s->nkernels == 0)
    rc = rf_fail_at(d, path, 0, "expected at least one 'kernel = NAME' section, found none");
  if (rc == 0) rc = finish_section(&ps);
  if (rc < 0) {
    tg_spec_free(s);
    return -1;
  }
  *out = s;
  return 0;
}

int tg_spec_load(const char *path, tg_spec **out, rf_diag *d) {
  *out = NULL;
  char *text;
  if (tg_read_file(path, 1 << 20, &text, d) < 0) return -1;
  int rc = tg_spec_parse(path, text, out, d);
  free(text);
  return rc;
}
