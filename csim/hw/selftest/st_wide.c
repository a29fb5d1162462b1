/* C reference of st_wide (rtl/selftest/st_wide.v): a W-bit register in 32-bit words. */
#include "st_wide.h"

#include <string.h>

#define ST_WORDS HW_WORDS(128)

static void outputs(const st_wide_state *s, st_wide_out *o, unsigned w) {
  memcpy(o->q_o, s->q_q, sizeof o->q_o);
  unsigned par = 0;
  for (unsigned i = 0; i < w; i++) par ^= (s->q_q[i / 32] >> (i % 32)) & 1u;
  o->par_o = par;
}

void st_wide_ref_reset(st_wide_state *s, st_wide_out *o, const int64_t *p) {
  memset(s->q_q, 0, sizeof s->q_q);
  outputs(s, o, (unsigned)p[st_wide_P_W]);
}

void st_wide_ref_step(st_wide_state *s, const st_wide_in *in, st_wide_out *o,
                      const int64_t *p) {
  unsigned w = (unsigned)p[st_wide_P_W];
  if (in->ld_i) {
    memcpy(s->q_q, in->d_i, sizeof s->q_q);
  } else if (in->rot_i) {
    uint32_t top = (s->q_q[(w - 1) / 32] >> ((w - 1) % 32)) & 1u;
    for (int i = ST_WORDS - 1; i >= 0; i--)
      s->q_q[i] = (s->q_q[i] << 1) | (i ? s->q_q[i - 1] >> 31 : top);
  }
  for (unsigned i = 0; i < ST_WORDS; i++) { /* keep bits >= w clear */
    unsigned lo = i * 32;
    if (lo >= w) s->q_q[i] = 0;
    else if (w - lo < 32) s->q_q[i] &= ((uint32_t)1 << (w - lo)) - 1;
  }
  outputs(s, o, w);
}

#define HW_UNIT_NAME st_wide
#define HW_UNIT_DEF "selftest/st_wide.def"
#define HW_UNIT_TECH "selftest"
#include "../unit_desc.h"
