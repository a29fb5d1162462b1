/* C reference of rs_dwe (rtl/regshare/rs_dwe.v), cycle- and bit-exact. */
#include "rs_dwe.h"

#define RS_DWE_TAPS 0xb400u

static void outputs(const rs_dwe_state *s, rs_dwe_out *o, const int64_t *p) {
  uint64_t draw = (s->lfsr_q * (uint64_t)p[rs_dwe_P_STEPS]) >> 16;
  o->allow_o = !s->ref_q && draw < s->prob_q;
  o->prob_o = s->prob_q;
  o->ref_o = s->ref_q;
}

void rs_dwe_ref_reset(rs_dwe_state *s, rs_dwe_out *o, const int64_t *p) {
  s->prob_q = (uint64_t)p[rs_dwe_P_STEPS];
  s->ref_q = 0;
  s->lfsr_q = 1;
  outputs(s, o, p);
}

void rs_dwe_ref_step(rs_dwe_state *s, const rs_dwe_in *in, rs_dwe_out *o, const int64_t *p) {
  const uint64_t steps = (uint64_t)p[rs_dwe_P_STEPS];
  if (in->cfg_i) {
    s->prob_q = steps;
    s->ref_q = in->cfg_ref_i;
    s->lfsr_q = in->cfg_seed_i ? in->cfg_seed_i : 1;
  } else {
    if (in->win_i && !s->ref_q) {
      if (in->mine_i > in->sm0_i && s->prob_q != 0)
        s->prob_q--;
      else if (in->mine_i < in->sm0_i && s->prob_q < steps)
        s->prob_q++;
    }
    if (in->draw_i) s->lfsr_q = (s->lfsr_q >> 1) ^ ((s->lfsr_q & 1) ? RS_DWE_TAPS : 0);
  }
  outputs(s, o, p);
}

#define HW_UNIT_NAME rs_dwe
#define HW_UNIT_DEF "regshare/rs_dwe.def"
#define HW_UNIT_TECH "regshare"
#include "../unit_desc.h"
