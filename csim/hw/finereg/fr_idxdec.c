/* C reference of fr_idxdec (rtl/finereg/fr_idxdec.v), cycle- and bit-exact. */
#include "fr_idxdec.h"

static void outputs(const fr_idxdec_state *s, fr_idxdec_out *o, const int64_t *p) {
  unsigned regs = (unsigned)p[fr_idxdec_P_REGS];
  o->valid_o = s->rem_q != 0;
  o->idx_o = s->rem_q ? (uint64_t)__builtin_ctzll(s->rem_q) : regs - 1; /* fr_ffs: all ones */
  o->last_o = s->rem_q != 0 && (s->rem_q & (s->rem_q - 1)) == 0;
  o->warp_o = s->warp_q;
  o->cnt_o = s->cnt_q;
}

void fr_idxdec_ref_reset(fr_idxdec_state *s, fr_idxdec_out *o, const int64_t *p) {
  s->rem_q = s->warp_q = s->cnt_q = 0;
  outputs(s, o, p);
}

void fr_idxdec_ref_step(fr_idxdec_state *s, const fr_idxdec_in *in, fr_idxdec_out *o,
                        const int64_t *p) {
  if (in->ld_i) {
    s->rem_q = in->ld_vec_i;
    s->warp_q = in->ld_warp_i;
    s->cnt_q = (uint64_t)__builtin_popcountll(in->ld_vec_i);
  } else if (in->pop_i && s->rem_q) {
    s->rem_q &= s->rem_q - 1; /* the lowest live register was taken */
  }
  outputs(s, o, p);
}

#define HW_UNIT_NAME fr_idxdec
#define HW_UNIT_DEF "finereg/fr_idxdec.def"
#define HW_UNIT_TECH "finereg"
#include "../unit_desc.h"
