#include "tg_tile.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "../common/checked.h"
#include "../trace/trace_parse.h"
#include "tg_outdir.h"
#include "tg_text.h"

typedef struct tb_span {
  off_t begin, end; /* from the #BEGIN_TB line to just after the #END_TB line */
} tb_span;

typedef struct tile_in {
  FILE *f;
  const char *path;
  char *line;
  size_t cap;
  tb_span *tbs;
  long ntbs, tb_cap;
  off_t header_end, tail_begin;
  long grid_product;
} tile_in;

static int starts_trimmed(const char *line, const char *word) {
  while (*line == ' ' || *line == '\t') line++;
  return !strncmp(line, word, strlen(word));
}

/* "-grid dim = (x,y,z)": the sizes as read (1..INT_MAX each) and, if it is at most what the
 * output's 1-D grid can index, their product. */
static int parse_grid(const char *line, int dim[3]) {
  const char *eq = strchr(line, '=');
  if (!eq) return 0;
  char v[96];
  snprintf(v, sizeof v, "%s", eq + 1);
  char *t = tg_trim(v);
  size_t n = strlen(t);
  if (n < 2 || t[0] != '(' || t[n - 1] != ')') return 0;
  t[n - 1] = '\0';
  return tp_parse_int_list(t + 1, 3, 1, INT_MAX, dim);
}

/* Pass 1: where the header ends and where every block starts and ends. */
static int scan(tile_in *t, rf_diag *d) {
  long lineno = 0, open_line = 0;
  int in_tb = 0, have_grid = 0;
  t->header_end = -1;
  for (;;) {
    off_t at = ftello(t->f);
    ssize_t n = getline(&t->line, &t->cap, t->f);
    if (n < 0) break;
    lineno++;
    if (t->header_end < 0 && starts_trimmed(t->line, "-grid dim")) {
      int dim[3];
      uint64_t product;
      if (!parse_grid(t->line, dim))
        return rf_fail_at(d, t->path, lineno,
                          "expected '-grid dim = (x,y,z)' with sizes 1..2147483647, found '%.*s'",
                          (int)strcspn(t->line, "\n"), t->line);
      if (!rf_dim3_product(dim, INT32_MAX, &product))
        return rf_fail_at(d, t->path, lineno,
                          "-grid dim: expected at most 2147483647 thread blocks (x*y*z), found "
                          "(%d,%d,%d)", dim[0], dim[1], dim[2]);
      t->grid_product = (long)product;
      have_grid = 1;
    }
    if (starts_trimmed(t->line, "#BEGIN_TB")) {
      if (in_tb) return rf_fail_at(d, t->path, lineno, "expected #END_TB, found #BEGIN_TB");
      if (t->header_end < 0) t->header_end = at;
      if (t->ntbs == t->tb_cap) {
        long cap = t->tb_cap ? t->tb_cap * 2 : 64;
        tb_span *ns = rf_realloc(t->tbs, (size_t)cap, sizeof *ns, d);
        if (!ns) return -1;
        t->tbs = ns;
        t->tb_cap = cap;
      }
      t->tbs[t->ntbs].begin = at;
      in_tb = 1;
      open_line = lineno;
    } else if (starts_trimmed(t->line, "#END_TB")) {
      if (!in_tb) return rf_fail_at(d, t->path, lineno, "expected #BEGIN_TB, found #END_TB");
      t->tbs[t->ntbs++].end = ftello(t->f);
      in_tb = 0;
    }
  }
  if (ferror(t->f)) return rf_fail(d, "%s: read error", t->path);
  if (in_tb)
    return rf_fail_at(d, t->path, open_line, "expected #END_TB for this block, found end of file");
  if (!have_grid) return rf_fail(d, "%s: expected a '-grid dim' header line, found none", t->path);
  if (t->ntbs == 0) return rf_fail(d, "%s: expected thread blocks, found none", t->path);
  if (t->ntbs != t->grid_product)
    return rf_fail(d, "%s: expected %ld thread blocks (grid dim), found %ld", t->path,
                   t->grid_product, t->ntbs);
  t->tail_begin = t->tbs[t->ntbs - 1].end;
  return 0;
}

/* Copies [from, to) line by line, applying the rewrite (NULL: verbatim). */
static int copy_range(tile_in *t, tg_stream *out, off_t from, off_t to, long tb_id, long ntbs) {
  if (fseeko(t->f, from, SEEK_SET) < 0) return -1;
  int block_line_done = 0;
  while (ftello(t->f) < to) {
    ssize_t n = getline(&t->line, &t->cap, t->f);
    if (n < 0) return -1;
    int ok;
    if (tb_id < 0 && starts_trimmed(t->line, "-grid dim")) {
      ok = tg_stream_printf(out, "-grid dim = (%ld,1,1)\n", ntbs) == 0;
    } else if (tb_id >= 0 && !block_line_done && starts_trimmed(t->line, "thread block")) {
      ok = tg_stream_printf(out, "thread block = %ld,0,0\n", tb_id) == 0;
      block_line_done = 1;
    } else {
      ok = tg_stream_write(out, t->line, (size_t)n) == 0;
    }
    if (!ok) return -1;
  }
  return 0;
}

static int tile_kernel(const char *in_path, tg_stream *out, long ntbs, rf_diag *d) {
  tile_in t = {.path = in_path};
  t.f = fopen(in_path, "rb");
  if (!t.f) return rf_fail(d, "%s: cannot open: %s", in_path, strerror(errno));
  int rc = scan(&t, d);
  if (rc == 0) {
    int ok = copy_range(&t, out, 0, t.header_end, -1, ntbs) == 0;
    for (long i = 0; ok && i < ntbs; i++) {
      const tb_span *s = &t.tbs[i % t.ntbs];
      ok = i == 0 || tg_stream_puts(out, "\n") == 0; /* blocks are separated by a blank line */
      ok = ok && copy_range(&t, out, s->begin, s->end, i, ntbs) == 0;
    }
    fseeko(t.f, 0, SEEK_END);
    off_t size = ftello(t.f);
    ok = ok && copy_range(&t, out, t.tail_begin, size, -1, ntbs) == 0;
    if (!ok) rc = rf_fail(d, "%s: read or write error while tiling into %s", in_path,
                          tg_stream_path(out));
  }
  free(t.line);
  free(t.tbs);
  fclose(t.f);
  return rc;
}

static int is_kernel_line(const char *s) { return !strncmp(s, "kernel", 6) && !strchr(s, ' '); }

static int tile_all(const char *list, char *text, tg_outdir *o, long ntbs, tg_stream_kind kind,
                    rf_diag *d) {
  char path[TG_PATH_MAX + 96];
  tg_stream *lf = tg_outdir_open(o, "kernelslist.g", TG_STREAM_PLAIN, path, sizeof path, d);
  if (!lf) return -1;
  const char *slash = strrchr(list, '/');
  int dir_len = slash ? (int)(slash - list) + 1 : 0;
  int rc = 0, nkernels = 0;
  long lineno = 0;
  for (char *p = text; p && rc == 0;) {
    char *nl = strchr(p, '\n');
    if (nl) *nl = '\0';
    lineno++;
    char *s = tg_trim(p);
    p = nl ? nl + 1 : NULL;
    if (*s == '\0' && !p) break;
    if (is_kernel_line(s)) {
      const char *slash = strrchr(s, '/');
      char in_path[TG_PATH_MAX], out_path[TG_PATH_MAX + 96], base[512];
      snprintf(in_path, sizeof in_path, "%.*s%s", dir_len, list, s);
      snprintf(base, sizeof base, "%s%s", slash ? slash + 1 : s, kind == TG_STREAM_XZ ? ".xz" : "");
      tg_stream *kf = tg_outdir_open(o, base, kind, out_path, sizeof out_path, d);
      if (!kf) { rc = -1; break; }
      rc = tile_kernel(in_path, kf, ntbs, d);
      if (tg_stream_close(kf, rc < 0 ? NULL : d) < 0) rc = -1;
      if (rc == 0) tg_stream_printf(lf, "%s\n", base);
      nkernels++;
    } else if (*s == '\0' || !strncmp(s, "Memcpy", 6)) {
      tg_stream_printf(lf, "%s\n", s);
    } else {
      rc = rf_fail_at(d, list, lineno,
                      "expected 'MemcpyHtoD,<addr>,<bytes>' or a kernel file name, found '%s'", s);
    }
  }
  if (rc == 0 && nkernels == 0) rc = rf_fail(d, "%s: expected a kernel, found none", list);
  if (tg_stream_close(lf, rc < 0 ? NULL : d) < 0) rc = -1; /* names a failed write */
  return rc;
}

int tg_tile(const char *kernelslist, const char *outdir, long ntbs, tg_stream_kind kind,
            rf_diag *d) {
  if (ntbs < 1 || ntbs > (1l << 31) - 1)
    return rf_fail(d, "expected --tbs between 1 and 2147483647, found %ld", ntbs);
  char *text;
  if (tg_read_file(kernelslist, 1 << 24, &text, d) < 0) return -1;
  tg_outdir o;
  int rc = tg_outdir_begin(&o, outdir, d);
  if (rc == 0) {
    rc = tile_all(kernelslist, text, &o, ntbs, kind, d);
    if (rc == 0) rc = tg_outdir_commit(&o, d);
    tg_outdir_abort(&o);
  }
  free(text);
  return rc;
}
