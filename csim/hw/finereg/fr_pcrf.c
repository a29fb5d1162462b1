/* C reference of fr_pcrf (rtl/finereg/fr_pcrf.v), cycle- and bit-exact. */
#include "fr_pcrf.h"

typedef struct geom {
  unsigned n, ew, ww, rw, nw;
} geom;

static geom geom_of(const int64_t *p) {
  geom g;
  g.n = (unsigned)p[fr_pcrf_P_ENTRIES];
  g.ew = hw_clog2(p[fr_pcrf_P_ENTRIES]);
  g.ww = hw_clog2(p[fr_pcrf_P_WARPS]);
  g.rw = hw_clog2(p[fr_pcrf_P_REGS]);
  g.nw = hw_clog2(p[fr_pcrf_P_ENTRIES] + 1);
  return g;
}

static uint64_t mask(unsigned bits) {
  return bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
}

static int used(const fr_pcrf_state *s, unsigned i) { return (s->used_q[i / 32] >> (i % 32)) & 1u; }
static void set_used(fr_pcrf_state *s, unsigned i, int v) {
  if (v) s->used_q[i / 32] |= 1u << (i % 32);
  else s->used_q[i / 32] &= ~(1u << (i % 32));
}

/* The lowest free entry; *any = whether there is one (the RTL's find-first-set tree,
 * rtl/finereg/fr_ffs.v). */
static unsigned first_free(const fr_pcrf_state *s, const geom *g, int *any) {
  *any = 1;
  for (unsigned w = 0; w * 32 < g->n; w++) {
    uint32_t f = ~s->used_q[w];
    if (g->n - w * 32 < 32) f &= ((uint32_t)1 << (g->n - w * 32)) - 1;
    if (f) return w * 32 + (unsigned)__builtin_ctz(f);
  }
  *any = 0;
  return g->n - 1; /* the tree's answer when no bit is set: all ones */
}

static uint64_t tag_next(uint64_t t, const geom *g) { return t >> (g->ww + g->rw); }

static void outputs(const fr_pcrf_state *s, fr_pcrf_out *o, const geom *g) {
  o->free_cnt_o = s->free_q;
  o->bld_busy_o = s->bld_q;
  o->bld_room_o = s->free_q != 0;
  o->bld_head_o = s->head_q;
  o->bld_cnt_o = s->cnt_q;
  o->bld_done_o = s->done_q;
  o->walk_valid_o = s->wv_q;
  o->walk_entry_o = s->wcur_q;
  o->walk_warp_o = (s->rd_q >> g->rw) & mask(g->ww);
  o->walk_reg_o = s->rd_q & mask(g->rw);
  o->walk_last_o = s->wv_q && tag_next(s->rd_q, g) == s->wcur_q;
}

static void clear(fr_pcrf_state *s, const geom *g) {
  for (unsigned w = 0; w < HW_WORDS(1024); w++) s->used_q[w] = 0;
  s->free_q = g->n;
  s->bld_q = s->done_q = s->wv_q = 0;
}

void fr_pcrf_ref_reset(fr_pcrf_state *s, fr_pcrf_out *o, const int64_t *p) {
  geom g = geom_of(p);
  clear(s, &g);
  s->cur_q = s->head_q = s->cnt_q = s->wcur_q = 0; /* rd_q and tag_q are SRAM: not reset */
  outputs(s, o, &g);
}

void fr_pcrf_ref_step(fr_pcrf_state *s, const fr_pcrf_in *in, fr_pcrf_out *o, const int64_t *p) {
  geom g = geom_of(p);
  if (in->clr_i) {
    clear(s, &g);
    outputs(s, o, &g);
    return;
  }
  int room;
  unsigned f = first_free(s, &g, &room);
  int start_acc = in->bld_start_i && !s->bld_q && room;
  int push_acc = in->bld_push_i && s->bld_q && (in->bld_last_i || room);
  int alloc = start_acc || (push_acc && !in->bld_last_i);
  int cur_last = tag_next(s->rd_q, &g) == s->wcur_q;
  int walk_acc = in->walk_start_i && !s->wv_q;
  int adv = s->wv_q && !in->walk_hold_i;
  int rd_en = walk_acc || (adv && !cur_last);
  uint64_t raddr = walk_acc ? in->walk_head_i : tag_next(s->rd_q, &g);
  /* the SRAM: read first, then write */
  uint64_t rdata = s->tag_q[raddr];
  if (push_acc) {
    uint64_t next = in->bld_last_i ? s->cur_q : f;
    s->tag_q[s->cur_q] = (next << (g.ww + g.rw)) | (in->bld_warp_i << g.rw) | in->bld_reg_i;
  }
  /* free-space monitor: the walker frees what it reads, the builder's set wins */
  int freed = 0;
  if (rd_en) {
    freed = used(s, (unsigned)raddr);
    set_used(s, (unsigned)raddr, 0);
  }
  if (alloc) set_used(s, f, 1);
  s->free_q = (s->free_q + (uint64_t)freed - (uint64_t)alloc) & mask(g.nw);
  /* builder */
  s->done_q = push_acc && in->bld_last_i;
  if (start_acc) {
    s->bld_q = 1;
    s->cur_q = s->head_q = f;
    s->cnt_q = 0;
  } else if (push_acc) {
    s->cnt_q = (s->cnt_q + 1) & mask(g.nw);
    if (in->bld_last_i) s->bld_q = 0;
    else s->cur_q = f;
  }
  /* walker */
  if (rd_en) {
    s->rd_q = rdata;
    s->wcur_q = raddr;
    s->wv_q = 1;
  } else if (adv) {
    s->wv_q = 0; /* the last entry was taken */
  }
  outputs(s, o, &g);
}

#define HW_UNIT_NAME fr_pcrf
#define HW_UNIT_DEF "finereg/fr_pcrf.def"
#define HW_UNIT_TECH "finereg"
#include "../unit_desc.h"
