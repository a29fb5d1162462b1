#include "tg_info.h"

#include <stdlib.h>
#include <string.h>

const char *tg_unit_name(int unit) {
  static const char *const names[UNIT_COUNT] = {"int", "sp", "dp", "sfu", "tensor", "mem",
                                                "ctrl"};
  return unit >= 0 && unit < UNIT_COUNT ? names[unit] : "?";
}

void tg_info_init(tg_info *s) { memset(s, 0, sizeof *s); }

void tg_info_free(tg_info *s) {
  free(s->warp_counts);
  free(s->tb);
  memset(s, 0, sizeof *s);
}

static int grow(void **p, long *cap, long need, size_t elem, rf_diag *d) {
  if (need <= *cap) return 0;
  long n = *cap ? *cap * 2 : 256;
  while (n < need) n *= 2;
  void *q = rf_realloc(*p, (size_t)n, elem, d);
  if (!q) return -1;
  *p = q;
  *cap = n;
  return 0;
}

int tg_info_add_tb(tg_info *s, const trace_tb *tb, rf_diag *d) {
  if (grow((void **)&s->warp_counts, &s->warp_cap, s->warps + tb->nwarps,
           sizeof *s->warp_counts, d) < 0 ||
      grow((void **)&s->tb, &s->tb_cap, s->tbs + 1, sizeof *s->tb, d) < 0)
    return -1;
  tg_tb_div *v = &s->tb[s->tbs++];
  memset(v, 0, sizeof *v);
  v->linear_id = tb->linear_id;
  memcpy(v->id, tb->id, sizeof v->id);
  v->nwarps = tb->nwarps;
  v->min = UINT32_MAX;
  uint64_t sum = 0;
  for (int w = 0; w < tb->nwarps; w++) {
    const trace_warp *wp = &tb->warps[w];
    for (uint32_t i = 0; i < wp->n; i++) {
      const trace_inst *in = &wp->insts[i];
      s->thread_insts += (uint64_t)__builtin_popcount(in->mask);
      if (in->op->kind < OPK_COUNT) s->by_kind[in->op->kind]++;
      if (in->op->unit < UNIT_COUNT) s->by_unit[in->op->unit]++;
      s->mem_insts += in->op->is_mem;
      s->barriers += in->op->kind == OPK_BARRIER;
    }
    s->warp_insts += wp->n;
    s->warp_counts[s->warps++] = wp->n;
    sum += wp->n;
    if (wp->n < v->min) v->min = wp->n;
    if (wp->n > v->max) v->max = wp->n;
  }
  if (tb->nwarps == 0) v->min = 0;
  v->mean = tb->nwarps ? (double)sum / tb->nwarps : 0.0;
  /* sum(max - n_i) / (N * max) = 1 - mean / max */
  v->rtru = v->max ? 1.0 - v->mean / v->max : 0.0;
  return 0;
}

int tg_info_kernel(const char *path, trace_kernel_info *info_out, tg_info *s, rf_diag *d) {
  trace_kernel *k;
  if (trace_kernel_open(path, &k, d) < 0) return -1;
  *info_out = *trace_kernel_get_info(k);
  trace_tb tb;
  int rc;
  while ((rc = trace_kernel_next_tb(k, &tb, d)) > 0) {
    rc = tg_info_add_tb(s, &tb, d);
    trace_tb_free(&tb);
    if (rc < 0) break;
  }
  trace_kernel_close(k);
  return rc < 0 ? -1 : 0;
}

void tg_info_histogram(const tg_info *s, tg_hist *h) {
  memset(h, 0, sizeof *h);
  if (s->warps == 0) return;
  uint64_t mn = UINT64_MAX, mx = 0;
  for (long i = 0; i < s->warps; i++) {
    if (s->warp_counts[i] < mn) mn = s->warp_counts[i];
    if (s->warp_counts[i] > mx) mx = s->warp_counts[i];
  }
  /* Bins (lo, hi]: the first starts just below the minimum so it includes it. */
  uint64_t lo = mn ? mn - 1 : 0, range = mx - lo;
  h->nbins = range < 10 ? (int)(range ? range : 1) : 10;
  for (int b = 0; b < h->nbins; b++) {
    h->lo[b] = lo + range * (uint64_t)b / (uint64_t)h->nbins;
    h->hi[b] = lo + range * (uint64_t)(b + 1) / (uint64_t)h->nbins;
  }
  if (mx == lo) h->hi[0] = mx; /* only when every warp has 0 instructions */
  for (long i = 0; i < s->warps; i++) {
    uint64_t x = s->warp_counts[i];
    int b = 0;
    while (b < h->nbins - 1 && x > h->hi[b]) b++;
    h->count[b]++;
  }
}
