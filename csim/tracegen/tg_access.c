#include "tg_access.h"

#include <stdio.h>
#include <string.h>

#include "tg_text.h"

static const char *const space_names[] = {"global", "shared", "local"};
static const char *const pattern_names[] = {"coalesced", "strided", "random", "window",
                                            "tiled",     "broadcast"};

const char *tg_space_name(tg_space s) { return s <= TG_LOCAL ? space_names[s] : "?"; }
const char *tg_pattern_name(tg_pattern p) { return p <= TG_BROADCAST ? pattern_names[p] : "?"; }

enum { O_WIDTH, O_STRIDE, O_FOOTPRINT, O_OFFSET, O_TAPS, O_TILE, O_AT, O_GUARD, O_COUNT };
static const char *const option_names[O_COUNT] = {"width", "stride", "footprint", "offset",
                                                  "taps",  "tile",   "at",        "guard"};

/* Which options each pattern takes (bit per option). */
static unsigned allowed_options(tg_pattern p) {
  unsigned common =
      1u << O_WIDTH | 1u << O_FOOTPRINT | 1u << O_OFFSET | 1u << O_AT | 1u << O_GUARD;
  switch (p) {
  case TG_STRIDED: return common | 1u << O_STRIDE;
  case TG_WINDOW: return common | 1u << O_TAPS | 1u << O_STRIDE;
  case TG_TILED: return 1u << O_WIDTH | 1u << O_TILE;
  default: return common;
  }
}

static int fail(const char *path, long line, rf_diag *d, const char *expected,
                const char *found) {
  return rf_fail_at(d, path, line, "expected %s, found '%s'", expected, found);
}

static int parse_option(const char *path, long line, char *tok, tg_access *a, unsigned *seen,
                        rf_diag *d) {
  char *eq = strchr(tok, '=');
  int o = -1;
  if (eq) {
    *eq = '\0';
    for (int i = 0; i < O_COUNT; i++)
      if (!strcmp(tok, option_names[i])) o = i;
    *eq = '=';
  }
  if (o < 0 || !(allowed_options(a->pattern) >> o & 1u) || (*seen >> o & 1u)) {
    char what[160];
    unsigned ok = allowed_options(a->pattern);
    int n = snprintf(what, sizeof what, "an option of a %s access (", pattern_names[a->pattern]);
    for (int i = 0, first = 1; i < O_COUNT && n > 0 && (size_t)n < sizeof what; i++)
      if (ok >> i & 1u) {
        n += snprintf(what + n, sizeof what - (size_t)n, "%s%s=", first ? "" : ", ",
                      option_names[i]);
        first = 0;
      }
    if (n > 0 && (size_t)n < sizeof what) snprintf(what + n, sizeof what - (size_t)n, ")");
    if (o >= 0 && (*seen >> o & 1u)) snprintf(what, sizeof what, "%s= once", option_names[o]);
    return fail(path, line, d, what, tok);
  }
  *seen |= 1u << o;
  const char *v = eq + 1;
  uint64_t x = 0;
  if (o != O_AT && !tg_parse_u64(v, &x)) return fail(path, line, d, "a non-negative integer", v);
  switch (o) {
  case O_WIDTH:
    if (x != 4 && x != 8 && x != 16) return fail(path, line, d, "width 4, 8 or 16", v);
    a->width = (int)x;
    break;
  case O_STRIDE:
    if (x == 0 || x > (1u << 30)) return fail(path, line, d, "stride between 1 and 2^30", v);
    a->stride = x;
    break;
  case O_FOOTPRINT:
    if (x == 0 || x > (1ull << 40)) return fail(path, line, d, "footprint between 1 and 2^40", v);
    a->footprint = x;
    break;
  case O_OFFSET:
    if (x > (1u << 20)) return fail(path, line, d, "offset at most 1048576", v);
    a->offset = x;
    break;
  case O_TAPS:
    if (x < 1 || x > 64) return fail(path, line, d, "taps between 1 and 64", v);
    a->taps = (int)x;
    break;
  case O_TILE:
    if (x < 1 || x > 32) return fail(path, line, d, "tile between 1 and 32", v);
    a->tile = (int)x;
    break;
  case O_GUARD:
    if (x == 0 || x > (1ull << 40)) return fail(path, line, d, "guard between 1 and 2^40", v);
    a->guard = x;
    break;
  default:
    if (!strcmp(v, "loop")) a->when = TG_AT_LOOP;
    else if (!strcmp(v, "start")) a->when = TG_AT_START;
    else if (!strcmp(v, "end")) a->when = TG_AT_END;
    else return fail(path, line, d, "at=loop, at=start or at=end", v);
  }
  return 0;
}

int tg_access_parse(const char *path, long line, int is_store, char *v, tg_access *a,
                    rf_diag *d) {
  memset(a, 0, sizeof *a);
  a->is_store = is_store;
  a->width = 4;
  a->taps = 3;
  a->tile = 16;
  a->line = line;
  char *save = NULL;
  char *space = strtok_r(v, " \t", &save);
  char *pattern = space ? strtok_r(NULL, " \t", &save) : NULL;
  int s = -1, p = -1;
  for (int i = 0; space && i < 3; i++)
    if (!strcmp(space, space_names[i])) s = i;
  if (s < 0) return fail(path, line, d, "a space (global, shared, local)", space ? space : "");
  for (int i = 0; pattern && i <= TG_BROADCAST; i++)
    if (!strcmp(pattern, pattern_names[i])) p = i;
  if (p < 0)
    return fail(path, line, d,
                "a pattern (coalesced, strided, random, window, tiled, broadcast)",
                pattern ? pattern : "");
  a->space = (tg_space)s;
  a->pattern = (tg_pattern)p;
  if (a->pattern == TG_TILED && (is_store || a->space != TG_GLOBAL))
    return rf_fail_at(d, path, line, "expected tiled only as 'load = global tiled', found '%s %s "
                      "tiled'", is_store ? "store =" : "load =", space);
  unsigned seen = 0;
  for (char *tok = strtok_r(NULL, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
    if (parse_option(path, line, tok, a, &seen, d) < 0) return -1;
  if (a->pattern == TG_STRIDED && !(seen >> O_STRIDE & 1u))
    return rf_fail_at(d, path, line, "expected stride=BYTES for a strided access, found none");
  if (a->pattern == TG_WINDOW && !(seen >> O_STRIDE & 1u)) a->stride = (uint64_t)a->width;
  if ((a->pattern == TG_STRIDED || a->pattern == TG_WINDOW) && a->stride % (uint64_t)a->width)
    return rf_fail_at(d, path, line, "expected a stride that is a multiple of width %d, found %llu",
                      a->width, (unsigned long long)a->stride);
  if (a->footprint && a->footprint % (uint64_t)a->width)
    return rf_fail_at(d, path, line,
                      "expected a footprint that is a multiple of width %d, found %llu", a->width,
                      (unsigned long long)a->footprint);
  if (a->offset && a->space != TG_SHARED)
    return rf_fail_at(d, path, line, "expected offset= only on shared accesses, found it on %s",
                      space_names[a->space]);
  return 0;
}

uint64_t tg_access_shared_span(const tg_kernel_spec *k, const tg_access *a) {
  uint64_t w = (uint64_t)a->width;
  if (a->pattern == TG_TILED) return 2ull * (uint64_t)a->tile * (uint64_t)a->tile * w;
  if (a->space != TG_SHARED) return 0;
  if (a->footprint) return a->footprint;
  uint64_t room = (uint64_t)k->shmem > a->offset ? (uint64_t)k->shmem - a->offset : 0;
  return room / w * w;
}

int tg_access_check(const char *path, const tg_kernel_spec *k, const tg_access *a, rf_diag *d) {
  if (a->space != TG_SHARED && a->pattern != TG_TILED) return 0;
  uint64_t span = tg_access_shared_span(k, a);
  uint64_t need = a->offset + (span > (uint64_t)a->width ? span : (uint64_t)a->width);
  if (need > (uint64_t)k->shmem)
    return rf_fail_at(d, path, a->line,
                      "expected shmem of at least %llu bytes for this access, found shmem = %d",
                      (unsigned long long)need, k->shmem);
  return 0;
}
