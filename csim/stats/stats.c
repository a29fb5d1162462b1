#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void stats_init(stats_record *r) { memset(r, 0, sizeof *r); }

void stats_free(stats_record *r) {
  for (int i = 0; i < r->n; i++) free(r->e[i].v);
  free(r->e);
  memset(r, 0, sizeof *r);
}

static stat_entry *add(stats_record *r, const char *name, stat_kind k) {
  if (r->n == r->cap) {
    int cap = r->cap ? r->cap * 2 : 64;
    stat_entry *ne = realloc(r->e, (size_t)cap * sizeof *ne);
    if (!ne) {
      r->oom = 1;
      return NULL;
    }
    r->e = ne;
    r->cap = cap;
  }
  stat_entry *e = &r->e[r->n++];
  memset(e, 0, sizeof *e);
  snprintf(e->name, sizeof e->name, "%s", name);
  e->kind = k;
  return e;
}

void stats_u64(stats_record *r, const char *name, uint64_t v) {
  stat_entry *e = add(r, name, STAT_U64);
  if (e) e->u = v;
}

void stats_f64(stats_record *r, const char *name, double v) {
  stat_entry *e = add(r, name, STAT_F64);
  if (e) e->f = v;
}

void stats_str(stats_record *r, const char *name, const char *v) {
  stat_entry *e = add(r, name, STAT_STR);
  if (e) snprintf(e->s, sizeof e->s, "%s", v);
}

void stats_series(stats_record *r, const char *name, const double *v, int n) {
  double *copy = malloc((size_t)(n > 0 ? n : 1) * sizeof *copy);
  if (!copy) {
    r->oom = 1;
    return;
  }
  stat_entry *e = add(r, name, STAT_SERIES);
  if (!e) {
    free(copy);
    return;
  }
  if (n > 0) memcpy(copy, v, (size_t)n * sizeof *copy);
  e->v = copy;
  e->nv = n;
}

double stats_ratio(double num, double den) { return den != 0 ? num / den : 0.0; }

void stats_print_text(const stats_record *r, FILE *out) {
  for (int i = 0; i < r->n; i++) {
    const stat_entry *e = &r->e[i];
    switch (e->kind) {
      case STAT_U64: fprintf(out, "%s = %llu\n", e->name, (unsigned long long)e->u); break;
      case STAT_F64: fprintf(out, "%s = %.4f\n", e->name, e->f); break;
      case STAT_STR: fprintf(out, "%s = %s\n", e->name, e->s); break;
      case STAT_SERIES: break;
    }
  }
}

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

/* A number as JSON has it: NaN and the infinities have no spelling there (a reader stops at
 * "nan"), so they are null. */
static void json_number(FILE *f, const char *format, double v) {
  if (isfinite(v)) fprintf(f, format, v);
  else fputs("null", f);
}

static void json_record(FILE *f, const stats_record *r, const char *indent) {
  fputs("{", f);
  for (int i = 0; i < r->n; i++) {
    const stat_entry *e = &r->e[i];
    fprintf(f, "%s\n%s  ", i ? "," : "", indent);
    json_string(f, e->name);
    fputs(": ", f);
    switch (e->kind) {
      case STAT_U64: fprintf(f, "%llu", (unsigned long long)e->u); break;
      case STAT_F64: json_number(f, "%.6f", e->f); break;
      case STAT_STR: json_string(f, e->s); break;
      case STAT_SERIES:
        fputc('[', f);
        for (int k = 0; k < e->nv; k++) {
          if (k) fputs(", ", f);
          json_number(f, "%.6g", e->v[k]);
        }
        fputc(']', f);
        break;
    }
  }
  fprintf(f, "\n%s}", indent);
}

/* The file stats_write_json writes before renaming it to path (malloc'd), or NULL. */
static char *tmp_path_of(const char *path) {
  size_t n = strlen(path) + sizeof ".tmp";
  char *tmp = malloc(n);
  if (tmp) snprintf(tmp, n, "%s.tmp", path);
  return tmp;
}

int stats_json_check(const char *path, rf_diag *d) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    return rf_fail(d, "-stats_json %s: expected a file name, found a folder", path);
  char *tmp = tmp_path_of(path);
  if (!tmp) return rf_fail(d, "out of memory");
  FILE *f = fopen(tmp, "w");
  int rc = 0;
  if (f) {
    fclose(f);
    unlink(tmp);
  } else {
    rc = rf_fail(d, "-stats_json %s: cannot write %s: %s", path, tmp, strerror(errno));
  }
  free(tmp);
  return rc;
}

int stats_write_json(const char *path, const stats_record *kernels, int nkernels,
                     const stats_record *total, rf_diag *d) {
  for (int i = 0; i < nkernels; i++)
    if (kernels[i].oom) return rf_fail(d, "out of memory while collecting stats");
  char *tmp = tmp_path_of(path);
  if (!tmp) return rf_fail(d, "out of memory");
  FILE *f = fopen(tmp, "w");
  if (!f) {
    int rc = rf_fail(d, "%s: cannot write: %s", tmp, strerror(errno));
    free(tmp);
    return rc;
  }
  fputs("{\n  \"kernels\": [", f);
  for (int i = 0; i < nkernels; i++) {
    fputs(i ? ",\n    " : "\n    ", f);
    json_record(f, &kernels[i], "    ");
  }
  fputs("\n  ],\n  \"total\": ", f);
  json_record(f, total, "  ");
  fputs("\n}\n", f);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  if (bad || rename(tmp, path) != 0) {
    unlink(tmp);
    int rc = rf_fail(d, "%s: cannot write: %s", path, strerror(errno));
    free(tmp);
    return rc;
  }
  free(tmp);
  return 0;
}
