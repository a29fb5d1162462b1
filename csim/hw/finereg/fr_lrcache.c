/* C reference of fr_lrcache (rtl/finereg/fr_lrcache.v), cycle- and bit-exact. */
#include "fr_lrcache.h"

/* The line of a PC: two 5-bit (log2 ENTRIES) fields above PC_LSB, XORed. */
static unsigned line_of(uint64_t pc, const int64_t *p) {
  unsigned iw = hw_clog2(p[fr_lrcache_P_ENTRIES]);
  unsigned lsb = (unsigned)p[fr_lrcache_P_PC_LSB];
  uint64_t m = ((uint64_t)1 << iw) - 1;
  return (unsigned)(((pc >> lsb) ^ (pc >> (lsb + iw))) & m);
}

static void outputs(const fr_lrcache_state *s, fr_lrcache_out *o) {
  o->lk_valid_o = s->lkv_q;
  o->hit_o = s->lkv_q && s->vhit_q && s->trd_q == s->lkpc_q;
  o->vec_o = s->drd_q;
}

void fr_lrcache_ref_reset(fr_lrcache_state *s, fr_lrcache_out *o, const int64_t *p) {
  (void)p;
  s->valid_q = 0;
  s->lkv_q = s->lkpc_q = s->vhit_q = 0; /* trd_q, drd_q, tag_q, vec_q are SRAM: not reset */
  outputs(s, o);
}

void fr_lrcache_ref_step(fr_lrcache_state *s, const fr_lrcache_in *in, fr_lrcache_out *o,
                         const int64_t *p) {
  /* read first: a lookup sees the cache before this cycle's fill or clear */
  if (in->lk_i) {
    unsigned l = line_of(in->lk_pc_i, p);
    s->lkpc_q = in->lk_pc_i;
    s->vhit_q = (s->valid_q >> l) & 1;
    s->trd_q = s->tag_q[l];
    s->drd_q = s->vec_q[l];
  }
  s->lkv_q = in->lk_i;
  if (in->fill_i) {
    unsigned l = line_of(in->fill_pc_i, p);
    s->tag_q[l] = in->fill_pc_i;
    s->vec_q[l] = in->fill_vec_i;
    s->valid_q |= (uint64_t)1 << l;
  }
  if (in->clr_i) s->valid_q = 0;
  outputs(s, o);
}

#define HW_UNIT_NAME fr_lrcache
#define HW_UNIT_DEF "finereg/fr_lrcache.def"
#define HW_UNIT_TECH "finereg"
#include "../unit_desc.h"
