/* C reference of wm_wlbuf (rtl/warpman/wm_wlbuf.v), cycle- and bit-exact. */
#include "wm_wlbuf.h"

static void outputs(const wm_wlbuf_state *s, wm_wlbuf_out *o) {
  o->valid_o = s->valid_q;
  o->ptb_o = s->ptb_q;
  o->ltb_o = s->ltb_q;
  o->start_wid_o = s->start_q;
  o->end_wid_o = s->end_q;
  o->last_o = s->valid_q && s->start_q == s->end_q;
}

void wm_wlbuf_ref_reset(wm_wlbuf_state *s, wm_wlbuf_out *o, const int64_t *p) {
  (void)p;
  s->valid_q = s->ptb_q = s->ltb_q = s->start_q = s->end_q = 0;
  outputs(s, o);
}

void wm_wlbuf_ref_step(wm_wlbuf_state *s, const wm_wlbuf_in *in, wm_wlbuf_out *o,
                       const int64_t *p) {
  uint64_t wmask = ((uint64_t)1 << hw_clog2(p[wm_wlbuf_P_MAX_TB_WARPS])) - 1;
  if (in->clr_i) {
    s->valid_q = 0;
  } else if (in->wr_i) {
    s->valid_q = 1;
    s->ptb_q = in->wr_ptb_i;
    s->ltb_q = in->wr_ltb_i;
    s->start_q = in->wr_start_i;
    s->end_q = in->wr_end_i;
  } else if (in->adv_i && s->valid_q) {
    if (s->start_q == s->end_q)
      s->valid_q = 0;
    else
      s->start_q = (s->start_q + 1) & wmask;
  }
  outputs(s, o);
}

#define HW_UNIT_NAME wm_wlbuf
#define HW_UNIT_DEF "warpman/wm_wlbuf.def"
#define HW_UNIT_TECH "warpman"
#define HW_UNIT_VARIANTS "warpman/wm_wlbuf.variants" /* 32-CTA-slot SMs: titanx, gtx980, titanv */
#include "../unit_desc.h"
