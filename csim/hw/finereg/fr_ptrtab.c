/* C reference of fr_ptrtab (rtl/finereg/fr_ptrtab.v), cycle- and bit-exact. */
#include "fr_ptrtab.h"

static uint64_t mask(unsigned bits) {
  return bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
}

static void outputs(const fr_ptrtab_state *s, const fr_ptrtab_in *in, fr_ptrtab_out *o,
                    const int64_t *p) {
  unsigned cb = (unsigned)p[fr_ptrtab_P_CNT_BITS];
  uint64_t cnt = s->rd_q & mask(cb);
  o->rd_valid_o = s->rv_q;
  o->rd_head_o = s->rd_q >> cb;
  o->rd_cnt_o = cnt;
  o->fit_o = in->free_i + (in->cand_i ? cnt : 0) >= in->need_i;
}

void fr_ptrtab_ref_reset(fr_ptrtab_state *s, fr_ptrtab_out *o, const int64_t *p) {
  fr_ptrtab_in none = {0};
  s->rv_q = 0; /* rd_q and ent_q are SRAM: not reset */
  outputs(s, &none, o, p);
}

void fr_ptrtab_ref_step(fr_ptrtab_state *s, const fr_ptrtab_in *in, fr_ptrtab_out *o,
                        const int64_t *p) {
  unsigned cb = (unsigned)p[fr_ptrtab_P_CNT_BITS];
  uint64_t cmax = mask(cb);
  /* read first (a read and a write of the same line in one cycle return the old line) */
  if (in->rd_i) s->rd_q = s->ent_q[in->rd_cta_i];
  s->rv_q = in->rd_i;
  if (in->wr_i) {
    uint64_t cnt = in->wr_cnt_i > cmax ? cmax : in->wr_cnt_i;
    s->ent_q[in->wr_cta_i] = (in->wr_head_i << cb) | cnt;
  }
  outputs(s, in, o, p);
}

#define HW_UNIT_NAME fr_ptrtab
#define HW_UNIT_DEF "finereg/fr_ptrtab.def"
#define HW_UNIT_TECH "finereg"
#include "../unit_desc.h"
