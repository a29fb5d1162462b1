#include "liveness.h"

#include <stdlib.h>
#include <string.h>

#include "../common/bits.h"

typedef struct live_slot {
  uint64_t pc;
  uint8_t used;
  live_vec v;
} live_slot;

struct liveness {
  live_slot *slots; /* open addressing, linear probing; capacity a power of two */
  uint64_t cap, n;
  uint64_t warps, insts;
  live_vec *scratch; /* per-instruction live-in of the warp being analysed */
  uint32_t scratch_cap;
};

static uint64_t hash_pc(uint64_t pc) {
  pc ^= pc >> 33;
  pc *= 0xff51afd7ed558ccdull;
  pc ^= pc >> 33;
  return pc;
}

liveness *liveness_create(rf_diag *d) {
  liveness *l = rf_calloc(1, sizeof *l, d);
  if (!l) return NULL;
  l->cap = 256;
  l->slots = rf_calloc(l->cap, sizeof *l->slots, d);
  if (!l->slots) {
    free(l);
    return NULL;
  }
  return l;
}

void liveness_free(liveness *l) {
  if (!l) return;
  free(l->slots);
  free(l->scratch);
  free(l);
}

void liveness_reset(liveness *l) {
  memset(l->slots, 0, l->cap * sizeof *l->slots);
  l->n = l->warps = l->insts = 0;
}

static live_slot *find(const liveness *l, uint64_t pc) {
  uint64_t i = hash_pc(pc) & (l->cap - 1);
  while (l->slots[i].used && l->slots[i].pc != pc) i = (i + 1) & (l->cap - 1);
  return &l->slots[i];
}

static int grow(liveness *l, rf_diag *d) {
  live_slot *old = l->slots;
  uint64_t old_cap = l->cap;
  l->slots = rf_calloc(old_cap * 2, sizeof *l->slots, d);
  if (!l->slots) {
    l->slots = old;
    return -1;
  }
  l->cap = old_cap * 2;
  for (uint64_t i = 0; i < old_cap; i++)
    if (old[i].used) *find(l, old[i].pc) = old[i];
  free(old);
  return 0;
}

static void vec_set(live_vec *v, int r) { v->w[r >> 6] |= 1ull << (r & 63); }
static void vec_clear(live_vec *v, int r) { v->w[r >> 6] &= ~(1ull << (r & 63)); }

int liveness_add_warp(liveness *l, const trace_warp *tw, rf_diag *d) {
  if (tw->n == 0) return 0;
  if (tw->n > l->scratch_cap) {
    live_vec *s = rf_realloc(l->scratch, tw->n, sizeof *s, d);
    if (!s) return -1;
    l->scratch = s;
    l->scratch_cap = tw->n;
  }
  uint32_t all = 0;
  for (uint32_t i = 0; i < tw->n; i++) all |= tw->insts[i].mask;
  live_vec live;
  memset(&live, 0, sizeof live);
  for (uint32_t i = tw->n; i-- > 0;) {
    const trace_inst *in = &tw->insts[i];
    if (in->mask != 0 && (in->mask & all) == all)
      for (int k = 0; k < in->op->ndst; k++)
        if (in->op->dst[k] != TRACE_RZ) vec_clear(&live, in->op->dst[k]);
    for (int k = 0; k < in->op->nsrc; k++)
      if (in->op->src[k] != TRACE_RZ) vec_set(&live, in->op->src[k]);
    l->scratch[i] = live;
  }
  for (uint32_t i = 0; i < tw->n; i++) {
    if ((l->n + 1) * 2 > l->cap && grow(l, d) < 0) return -1;
    live_slot *s = find(l, tw->insts[i].op->pc);
    if (!s->used) {
      s->used = 1;
      s->pc = tw->insts[i].op->pc;
      l->n++;
    }
    for (int k = 0; k < 4; k++) s->v.w[k] |= l->scratch[i].w[k];
  }
  l->warps++;
  l->insts += tw->n;
  return 0;
}

const live_vec *liveness_at(const liveness *l, uint64_t pc) {
  const live_slot *s = find(l, pc);
  return s->used ? &s->v : NULL;
}

int live_vec_count(const live_vec *v) {
  int n = 0;
  for (int k = 0; k < 4; k++) n += rf_popcount64(v->w[k]);
  return n;
}

int live_vec_count_below(const live_vec *v, int nregs) {
  int n = 0;
  for (int k = 0; k < 4 && nregs > 0; k++, nregs -= 64) {
    uint64_t m = nregs >= 64 ? ~0ull : (1ull << nregs) - 1;
    n += rf_popcount64(v->w[k] & m);
  }
  return n;
}

int live_vec_max(const live_vec *v) {
  for (int k = 3; k >= 0; k--)
    if (v->w[k]) return k * 64 + 63 - __builtin_clzll(v->w[k]);
  return -1;
}

uint64_t liveness_pcs(const liveness *l) { return l->n; }
uint64_t liveness_warps(const liveness *l) { return l->warps; }
uint64_t liveness_insts(const liveness *l) { return l->insts; }
