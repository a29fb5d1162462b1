/* C reference of fr_status (rtl/finereg/fr_status.v), cycle- and bit-exact. */
#include "fr_status.h"

static int bit(const uint32_t *v, unsigned i) { return (v[i / 32] >> (i % 32)) & 1u; }

/* The RTL's priority encoders pick the lowest CTA of each class. Every class but the free one
 * needs the CTA's stall or ready bit, so only those CTAs are looked at (most are neither: the
 * search over all 128 was most of a FineReg run's time), in ascending order as the encoders
 * rank them; the free class is the first CTA with no context. */
static void outputs(const fr_status_state *s, const fr_status_in *in, fr_status_out *o,
                    const int64_t *p) {
  unsigned n = (unsigned)p[fr_status_P_CTAS];
  int va = 0, ca = 0, cb = 0, mv = 0, fr = 0;
  unsigned vic = n - 1, cta_a = n - 1, cta_b = n - 1, mov = n - 1, fre = n - 1; /* none: all ones */
  for (unsigned w = 0; w * 32 < n; w++) {
    uint32_t m = in->stall_i[w] | in->ready_i[w];
    if (n - w * 32 < 32) m &= (1u << (n - w * 32)) - 1;
    for (; m; m &= m - 1) {
      unsigned i = w * 32 + (unsigned)__builtin_ctz(m);
      uint64_t c = s->ctx_q[i], r = s->reg_q[i];
      if (!va && c == 2 && r == 2 && bit(in->stall_i, i)) va = 1, vic = i;
      if (!ca && c == 1 && r == 2 && bit(in->ready_i, i)) ca = 1, cta_a = i;
      if (!cb && c == 1 && r == 1 && bit(in->ready_i, i)) cb = 1, cta_b = i;
      if (!mv && c == 1 && r == 2 && bit(in->stall_i, i)) mv = 1, mov = i;
    }
  }
  for (unsigned i = 0; i < n && !fr; i++)
    if (s->ctx_q[i] == 0) fr = 1, fre = i;
  o->rd_ctx_o = s->ctx_q[in->rd_cta_i];
  o->rd_reg_o = s->reg_q[in->rd_cta_i];
  o->vic_valid_o = (uint64_t)va;
  o->vic_cta_o = vic;
  /* first choice: context saved, registers still in the ACRF; then registers in the PCRF */
  o->cand_valid_o = (uint64_t)(ca || cb);
  o->cand_cta_o = ca ? cta_a : cta_b;
  o->cand_reg_o = ca ? 2 : cb ? 1 : 0;
  o->mov_valid_o = (uint64_t)mv;
  o->mov_cta_o = mov;
  o->free_valid_o = (uint64_t)fr;
  o->free_cta_o = fre;
}

static void clear(fr_status_state *s, unsigned n) {
  for (unsigned i = 0; i < n; i++) s->ctx_q[i] = s->reg_q[i] = 0;
}

void fr_status_ref_reset(fr_status_state *s, fr_status_out *o, const int64_t *p) {
  fr_status_in none = {0};
  clear(s, (unsigned)p[fr_status_P_CTAS]); /* flops, reset like the RTL's */
  outputs(s, &none, o, p);
}

void fr_status_ref_step(fr_status_state *s, const fr_status_in *in, fr_status_out *o,
                        const int64_t *p) {
  if (in->clr_i) {
    clear(s, (unsigned)p[fr_status_P_CTAS]);
  } else {
    if (in->wa_i) {
      s->ctx_q[in->wa_cta_i] = in->wa_ctx_i;
      s->reg_q[in->wa_cta_i] = in->wa_reg_i;
    }
    if (in->wb_i) {
      s->ctx_q[in->wb_cta_i] = in->wb_ctx_i;
      s->reg_q[in->wb_cta_i] = in->wb_reg_i;
    }
  }
  outputs(s, in, o, p);
}

#define HW_UNIT_NAME fr_status
#define HW_UNIT_DEF "finereg/fr_status.def"
#define HW_UNIT_TECH "finereg"
#include "../unit_desc.h"
