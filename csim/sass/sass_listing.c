#include "sass_listing.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES 4096

static char *dup_range(const char *s, size_t n, rf_diag *d) {
  char *p = rf_calloc(n + 1, 1, d);
  if (p) memcpy(p, s, n);
  return p;
}

static int add_func(sass_listing *l, const char *name, size_t n, rf_diag *d) {
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 8;
    sass_func_listing *f = rf_realloc(l->f, (size_t)cap, sizeof *f, d);
    if (!f) return -1;
    l->f = f;
    l->cap = cap;
  }
  sass_func_listing *f = &l->f[l->n];
  memset(f, 0, sizeof *f);
  f->name = dup_range(name, n, d);
  if (!f->name) return -1;
  l->n++;
  return 0;
}

static int add_line(sass_func_listing *f, uint32_t pc, long src_line, const char *t, size_t n,
                    rf_diag *d) {
  if (f->n == f->cap) {
    int cap = f->cap ? 2 * f->cap : 64;
    sass_line *p = rf_realloc(f->lines, (size_t)cap, sizeof *p, d);
    if (!p) return -1;
    f->lines = p;
    f->cap = cap;
  }
  sass_line *s = &f->lines[f->n];
  s->pc = pc;
  s->src_line = src_line;
  s->text = dup_range(t, n, d);
  if (!s->text) return -1;
  f->n++;
  return 0;
}

/* "/ *XXXX* /" at s: the PC. Returns the end of the marker or NULL. */
static const char *scan_pc(const char *s, const char *end, uint32_t *pc) {
  if (end - s < 5 || s[0] != '/' || s[1] != '*') return NULL;
  s += 2;
  uint64_t v = 0;
  int digits = 0;
  while (s < end && isxdigit((unsigned char)*s) && digits < 9) {
    v = v * 16 + (uint64_t)(isdigit((unsigned char)*s) ? *s - '0'
                                                         : tolower((unsigned char)*s) - 'a' + 10);
    s++;
    digits++;
  }
  if (!digits || digits > 8 || end - s < 2 || s[0] != '*' || s[1] != '/') return NULL;
  *pc = (uint32_t)v;
  return s + 2;
}

/* One instruction line: text after the PC marker, up to ';' or the encoding comment, without
 * the dual-issue braces. */
static int parse_inst(sass_func_listing *f, const char *s, const char *end, uint32_t pc,
                      const char *path, long lineno, rf_diag *d) {
  const char *stop = s;
  while (stop < end && *stop != ';' && !(stop[0] == '/' && stop + 1 < end && stop[1] == '*'))
    stop++;
  while (s < stop && (isspace((unsigned char)*s) || *s == '{')) s++;
  const char *e = stop;
  while (e > s && (isspace((unsigned char)e[-1]) || e[-1] == '}')) e--;
  if (e == s)
    return rf_fail_at(d, path, lineno, "expected an instruction after the PC, found none");
  if (f->n && pc <= f->lines[f->n - 1].pc)
    return rf_fail_at(d, path, lineno, "expected PCs in increasing order, found 0x%x after 0x%x",
                      pc, f->lines[f->n - 1].pc);
  return add_line(f, pc, lineno, s, (size_t)(e - s), d);
}

int sass_listing_parse(const char *text, size_t len, const char *path, sass_listing *l,
                       rf_diag *d) {
  memset(l, 0, sizeof *l);
  l->path = path;
  const char *p = text, *end = text + len;
  long lineno = 0;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    lineno++;
    if (le - p > LINE_MAX_BYTES) {
      sass_listing_free(l);
      return rf_fail_at(d, path, lineno, "expected a line of at most %d bytes", LINE_MAX_BYTES);
    }
    if (memchr(p, '\0', (size_t)(le - p))) {
      sass_listing_free(l);
      return rf_fail_at(d, path, lineno, "expected text, found a NUL byte");
    }
    const char *s = p;
    while (s < le && isspace((unsigned char)*s)) s++;
    static const char kfun[] = "Function : ", kcode[] = "code for sm_";
    uint32_t pc;
    const char *after;
    if ((size_t)(le - s) > sizeof kfun - 1 && !memcmp(s, kfun, sizeof kfun - 1)) {
      const char *n = s + sizeof kfun - 1, *ne = le;
      while (ne > n && isspace((unsigned char)ne[-1])) ne--;
      if (ne == n || add_func(l, n, (size_t)(ne - n), d) < 0) {
        sass_listing_free(l);
        return ne == n ? rf_fail_at(d, path, lineno, "expected a function name after 'Function :'")
                       : -1;
      }
    } else if ((size_t)(le - s) > sizeof kcode - 1 && !memcmp(s, kcode, sizeof kcode - 1)) {
      l->sm = atoi(s + sizeof kcode - 1);
    } else if ((after = scan_pc(s, le, &pc)) != NULL) {
      if (!l->n) {
        sass_listing_free(l);
        return rf_fail_at(d, path, lineno, "expected 'Function : NAME' before the first "
                          "instruction");
      }
      if (parse_inst(&l->f[l->n - 1], after, le, pc, path, lineno, d) < 0) {
        sass_listing_free(l);
        return -1;
      }
    }
    p = nl ? nl + 1 : end;
  }
  return 0;
}

void sass_listing_free(sass_listing *l) {
  for (int i = 0; i < l->n; i++) {
    for (int j = 0; j < l->f[i].n; j++) free(l->f[i].lines[j].text);
    free(l->f[i].lines);
    free(l->f[i].name);
  }
  free(l->f);
  l->f = NULL;
  l->n = l->cap = 0;
}

const sass_func_listing *sass_listing_find(const sass_listing *l, const char *name) {
  for (int i = 0; i < l->n; i++)
    if (!strcmp(l->f[i].name, name)) return &l->f[i];
  return NULL;
}
