/* FST writer over Verilator's bundled fstapi (see wave.h). The file is written as
 * <path>.partial and renamed at wave_close, so an interrupted run leaves no truncated FST under
 * the requested name. */
#include "wave.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstapi.h"

#define WAVE_MAX_WIDTH 4096
#define WAVE_ROOT "rfsim"

typedef struct wsig {
  char *group;
  char *name;
  unsigned width, words;
  wave_phase phase;
  wave_fmt fmt;
  uint32_t *cur;
  int dirty;
  fstHandle fh;
} wsig;

struct hw_wave {
  void *fst;
  char *path, *tmp_path;
  uint64_t ws, we;
  wsig *sig;
  int n, cap;
  int started;     /* hierarchy written */
  int clk;         /* handle of the top-level clock */
  uint64_t last_cycle;
  int ticked;
};

static char *dup_str(const char *s, rf_diag *d) {
  size_t n = strlen(s) + 1;
  char *p = rf_calloc(n, 1, d);
  if (p) memcpy(p, s, n);
  return p;
}

static int name_ok(const char *s, int allow_dots) {
  if (!*s) return 0;
  for (; *s; s++) {
    char c = *s;
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '_' || (allow_dots && c == '.');
    if (!ok) return 0;
  }
  return 1;
}

/* Releases the writer's memory (the FST file itself is closed by the caller). */
static void wave_free(hw_wave *w) {
  if (w->sig) {
    for (int i = 0; i < w->n; i++) {
      free(w->sig[i].group);
      free(w->sig[i].name);
      free(w->sig[i].cur);
    }
    free(w->sig);
  }
  free(w->path);
  free(w->tmp_path);
  free(w);
}

hw_wave *wave_open(const char *path, uint64_t window_start, uint64_t window_end, rf_diag *d) {
  if (!path || !*path) {
    rf_fail(d, "waveform: expected a file name, found an empty one");
    return NULL;
  }
  if (window_end < window_start) {
    rf_fail(d, "waveform %s: window end %llu is before its start %llu", path,
            (unsigned long long)window_end, (unsigned long long)window_start);
    return NULL;
  }
  hw_wave *w = rf_calloc(1, sizeof *w, d);
  if (!w) return NULL;
  w->path = dup_str(path, d);
  size_t tl = strlen(path) + sizeof ".partial";
  w->tmp_path = rf_calloc(tl, 1, d);
  if (!w->path || !w->tmp_path) goto fail;
  snprintf(w->tmp_path, tl, "%s.partial", path);
  /* Check that the file can be created before fstapi tries (it only reports on stderr). */
  FILE *probe = fopen(w->tmp_path, "wb");
  if (!probe) {
    rf_fail(d, "waveform %s: cannot create %s: %s", path, w->tmp_path, strerror(errno));
    goto fail;
  }
  fclose(probe);
  w->fst = fstWriterCreate(w->tmp_path, 1);
  if (!w->fst) {
    remove(w->tmp_path);
    rf_fail(d, "waveform %s: fstapi could not create %s", path, w->tmp_path);
    goto fail;
  }
  fstWriterSetTimescale(w->fst, -12);
  fstWriterSetVersion(w->fst, "rfsim");
  fstWriterSetPackType(w->fst, FST_WR_PT_LZ4);
  w->ws = window_start;
  w->we = window_end;
  w->clk = wave_add_signal_ex(w, "", "clk", 1, WAVE_POST, WAVE_BIN, d);
  if (w->clk < 0) {
    fstWriterClose(w->fst);
    remove(w->tmp_path);
    goto fail;
  }
  return w;
fail:
  wave_free(w);
  return NULL;
}

int wave_add_signal(hw_wave *w, const char *group, const char *name, unsigned width, rf_diag *d) {
  return wave_add_signal_ex(w, group, name, width, WAVE_PRE, width == 1 ? WAVE_BIN : WAVE_HEX, d);
}

int wave_add_signal_ex(hw_wave *w, const char *group, const char *name, unsigned width,
                       wave_phase phase, wave_fmt fmt, rf_diag *d) {
  if (w->started)
    return rf_fail(d, "waveform %s: signal %s.%s added after the first written cycle", w->path,
                   group, name);
  if (*group && !name_ok(group, 1))
    return rf_fail(d, "waveform %s: group '%s': expected letters, digits, '_' and '.'",
                   w->path, group);
  if (!name_ok(name, 0))
    return rf_fail(d, "waveform %s: signal '%s': expected letters, digits and '_'", w->path,
                   name);
  if (width < 1 || width > WAVE_MAX_WIDTH)
    return rf_fail(d, "waveform %s: signal %s: width %u, expected 1..%d", w->path, name, width,
                   WAVE_MAX_WIDTH);
  if (w->n == w->cap) {
    int nc = w->cap ? w->cap * 2 : 32;
    wsig *ns = rf_realloc(w->sig, (size_t)nc, sizeof *ns, d);
    if (!ns) return -1;
    w->sig = ns;
    w->cap = nc;
  }
  wsig *s = &w->sig[w->n];
  memset(s, 0, sizeof *s);
  s->width = width;
  s->words = (width + 31) / 32;
  s->phase = phase;
  s->fmt = fmt;
  s->group = dup_str(group, d);
  s->name = dup_str(name, d);
  /* One spare word: fstWriterEmitValueChangeVec32 reads val[bits / 32] even when bits is a
   * multiple of 32 (it then uses none of it). */
  s->cur = rf_calloc((s->words < 2 ? 2 : s->words) + 1, sizeof(uint32_t), d);
  if (!s->group || !s->name || !s->cur) {
    free(s->group);
    free(s->name);
    free(s->cur);
    return -1;
  }
  s->dirty = 1;
  return w->n++;
}

void wave_set(hw_wave *w, int h, uint64_t v) {
  if (!w || h < 0 || h >= w->n) return;
  wsig *s = &w->sig[h];
  if (s->width < 64) v &= ((uint64_t)1 << s->width) - 1;
  uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
  int changed = s->cur[0] != lo || s->cur[1] != hi;
  for (unsigned i = 2; i < s->words; i++) {
    changed |= s->cur[i] != 0;
    s->cur[i] = 0;
  }
  if (changed) {
    s->cur[0] = lo;
    s->cur[1] = hi;
    s->dirty = 1;
  }
}

void wave_set_words(hw_wave *w, int h, const uint32_t *words) {
  if (!w || h < 0 || h >= w->n) return;
  wsig *s = &w->sig[h];
  int changed = 0;
  for (unsigned i = 0; i < s->words; i++) {
    uint32_t v = words[i];
    if (i == s->words - 1 && s->width % 32) v &= ((uint32_t)1 << (s->width % 32)) - 1;
    if (s->cur[i] != v) {
      s->cur[i] = v;
      changed = 1;
    }
  }
  if (changed) s->dirty = 1;
}

static int cmp_group(const void *a, const void *b, void *ctx) {
  const wsig *sig = ctx;
  int ia = *(const int *)a, ib = *(const int *)b;
  int c = strcmp(sig[ia].group, sig[ib].group);
  return c ? c : (ia > ib) - (ia < ib);
}

/* Insertion sort of the signal order by group (stable, no qsort_r portability question). */
static void sort_by_group(int *ord, int n, wsig *sig) {
  for (int i = 1; i < n; i++) {
    int v = ord[i], j = i - 1;
    while (j >= 0 && cmp_group(&ord[j], &v, sig) > 0) {
      ord[j + 1] = ord[j];
      j--;
    }
    ord[j + 1] = v;
  }
}

/* Number of leading dotted components that groups a and b share. */
static int common_depth(const char *a, const char *b) {
  int depth = 0;
  for (;;) {
    size_t la = strcspn(a, "."), lb = strcspn(b, ".");
    if (!*a || !*b || la != lb || strncmp(a, b, la) != 0) return depth;
    depth++;
    a += la;
    b += lb;
    if (*a) a++;
    if (*b) b++;
  }
}

static int depth_of(const char *g) {
  if (!*g) return 0;
  int n = 1;
  for (; *g; g++) n += *g == '.';
  return n;
}

static int write_hierarchy(hw_wave *w) {
  int *ord = malloc((size_t)w->n * sizeof *ord);
  if (!ord) return -1;
  for (int i = 0; i < w->n; i++) ord[i] = i;
  sort_by_group(ord, w->n, w->sig);
  fstWriterSetScope(w->fst, FST_ST_VCD_MODULE, WAVE_ROOT, NULL);
  const char *open = "";
  for (int k = 0; k < w->n; k++) {
    wsig *s = &w->sig[ord[k]];
    int common = common_depth(open, s->group);
    for (int up = depth_of(open); up > common; up--) fstWriterSetUpscope(w->fst);
    const char *g = s->group;
    for (int i = 0; i < common; i++) {
      g += strcspn(g, ".");
      if (*g) g++;
    }
    while (*g) {
      char comp[256];
      size_t l = strcspn(g, ".");
      if (l >= sizeof comp) l = sizeof comp - 1;
      memcpy(comp, g, l);
      comp[l] = 0;
      fstWriterSetScope(w->fst, FST_ST_VCD_MODULE, comp, NULL);
      g += strcspn(g, ".");
      if (*g) g++;
    }
    open = s->group;
    char vname[300];
    if (s->width > 1)
      snprintf(vname, sizeof vname, "%s [%u:0]", s->name, s->width - 1);
    else
      snprintf(vname, sizeof vname, "%s", s->name);
    s->fh = fstWriterCreateVar(w->fst, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, s->width, vname, 0);
  }
  for (int up = depth_of(open); up > 0; up--) fstWriterSetUpscope(w->fst);
  fstWriterSetUpscope(w->fst);
  free(ord);
  return 0;
}

static void emit(hw_wave *w, wsig *s) {
  if (s->width <= 32)
    fstWriterEmitValueChange32(w->fst, s->fh, s->width, s->cur[0]);
  else
    fstWriterEmitValueChangeVec32(w->fst, s->fh, s->width, s->cur);
  s->dirty = 0;
}

void wave_tick(hw_wave *w, uint64_t cycle) {
  if (!w || cycle < w->ws || cycle > w->we) return;
  if (!w->started) {
    if (write_hierarchy(w) != 0) return;
    w->started = 1;
    for (int i = 0; i < w->n; i++) w->sig[i].dirty = 1;
  }
  int again = w->ticked && cycle <= w->last_cycle;
  if (!again) {
    fstWriterEmitTimeChange(w->fst, cycle * 1000);
    wave_set(w, w->clk, 0);
    for (int i = 0; i < w->n; i++)
      if (w->sig[i].dirty && (w->sig[i].phase == WAVE_PRE || i == w->clk)) emit(w, &w->sig[i]);
    fstWriterEmitTimeChange(w->fst, cycle * 1000 + 500);
    wave_set(w, w->clk, 1);
    w->last_cycle = cycle;
    w->ticked = 1;
  }
  for (int i = 0; i < w->n; i++)
    if (w->sig[i].dirty) emit(w, &w->sig[i]);
}

void wave_flush(hw_wave *w) {
  if (w && w->fst) fstWriterFlushContext(w->fst);
}

const char *wave_path(const hw_wave *w) { return w ? w->path : "none"; }

int wave_in_window(const hw_wave *w, uint64_t cycle) {
  return w && cycle >= w->ws && cycle <= w->we;
}

/* GTKWave save file: every signal, grouped by its scope, clock first. */
static int write_gtkw(hw_wave *w, rf_diag *d) {
  size_t pl = strlen(w->path);
  size_t bl = (pl > 4 && strcmp(w->path + pl - 4, ".fst") == 0) ? pl - 4 : pl;
  char *gp = rf_calloc(bl + 6, 1, d);
  if (!gp) return -1;
  memcpy(gp, w->path, bl);
  memcpy(gp + bl, ".gtkw", 6);
  char *tmp = rf_calloc(bl + 14, 1, d);
  if (!tmp) {
    free(gp);
    return -1;
  }
  snprintf(tmp, bl + 14, "%s.partial", gp);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    rf_fail(d, "waveform %s: cannot create %s: %s", w->path, tmp, strerror(errno));
    free(gp);
    free(tmp);
    return -1;
  }
  const char *base = strrchr(w->path, '/');
  base = base ? base + 1 : w->path;
  fprintf(f, "[*] rfsim: generated with %s; signals grouped by scope\n", base);
  fprintf(f, "[dumpfile] \"%s\"\n[timestart] 0\n[size] 1400 900\n[pos] -1 -1\n", base);
  fprintf(f, "[sst_width] 240\n[signals_width] 320\n[sst_expanded] 1\n");
  /* zoom about 85 ps (a twelfth of a cycle) per pixel, marker at the window's start */
  fprintf(f, "*-14.000000 %" PRIu64, w->ws * 1000);
  for (int i = 0; i < 25; i++) fprintf(f, " -1");
  fprintf(f, "\n");
  int *ord = malloc((size_t)w->n * sizeof *ord);
  if (!ord) {
    fclose(f);
    remove(tmp);
    free(gp);
    free(tmp);
    return rf_fail(d, "waveform %s: out of memory", w->path);
  }
  for (int i = 0; i < w->n; i++) ord[i] = i;
  sort_by_group(ord, w->n, w->sig);
  const char *open = NULL;
  for (int k = 0; k < w->n; k++) {
    wsig *s = &w->sig[ord[k]];
    if (!open || strcmp(open, s->group) != 0) {
      if (open && *open) fprintf(f, "@1000200\n-%s\n", open);
      if (*s->group) fprintf(f, "@800200\n-%s\n", s->group);
      open = s->group;
    }
    int code = s->fmt == WAVE_DEC ? 24 : s->fmt == WAVE_BIN ? 28 : 22;
    fprintf(f, "@%d\n%s%s%s.%s", code, WAVE_ROOT, *s->group ? "." : "", s->group, s->name);
    if (s->width > 1) fprintf(f, "[%u:0]", s->width - 1);
    fprintf(f, "\n");
  }
  if (open && *open) fprintf(f, "@1000200\n-%s\n", open);
  fprintf(f, "[pattern_trace] 1\n[pattern_trace] 0\n");
  free(ord);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  if (bad || rename(tmp, gp) != 0) {
    remove(tmp);
    rf_fail(d, "waveform %s: cannot write %s", w->path, gp);
    free(gp);
    free(tmp);
    return -1;
  }
  free(gp);
  free(tmp);
  return 0;
}

int wave_close(hw_wave *w, rf_diag *d) {
  if (!w) return 0;
  int rc = 0;
  if (!w->started) {
    /* Nothing in the window: still a valid file with the hierarchy and no changes. */
    if (write_hierarchy(w) == 0) w->started = 1;
  }
  fstWriterClose(w->fst);
  if (rename(w->tmp_path, w->path) != 0) {
    remove(w->tmp_path);
    rc = rf_fail(d, "waveform %s: cannot rename %s: %s", w->path, w->tmp_path, strerror(errno));
  }
  if (rc == 0) rc = write_gtkw(w, d);
  wave_free(w);
  return rc;
}
