/* C reference of wm_check (rtl/warpman/wm_check.v), cycle- and bit-exact: the same registers,
 * the same restoring division one quotient bit per edge. */
#include "wm_check.h"

static uint64_t mask(unsigned w) { return w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1; }

void wm_check_ref_reset(wm_check_state *s, wm_check_out *o, const int64_t *p) {
  (void)p;
  s->busy_q = s->rem_q = s->dsh_q = s->quo_q = s->lim_q = s->cnt_q = 0;
  o->busy_o = o->done_o = o->full_o = o->partial_o = o->warps_o = 0;
}

void wm_check_ref_step(wm_check_state *s, const wm_check_in *in, wm_check_out *o,
                       const int64_t *p) {
  const unsigned rw = hw_clog2(p[wm_check_P_REGS] + 1);
  const unsigned tw = hw_clog2(p[wm_check_P_MAX_TB_WARPS] + 1);
  const unsigned dw = rw + tw - 1;
  const unsigned nw = hw_clog2(tw);
  wm_check_state n = *s;
  int done = 0, full = 0, partial = 0;
  uint64_t warps = 0;
  if (s->busy_q) {
    int ge = s->rem_q >= s->dsh_q;
    uint64_t quo_next = ((s->quo_q << 1) | (uint64_t)ge) & mask(tw);
    n.rem_q = ge ? (s->rem_q - s->dsh_q) & mask(rw) : s->rem_q;
    n.dsh_q = (s->dsh_q >> 1) & mask(dw);
    n.quo_q = quo_next & mask(tw - 1);
    if (s->cnt_q == 0) {
      n.busy_q = 0;
      done = partial = 1;
      warps = quo_next < s->lim_q ? quo_next : s->lim_q;
    } else {
      n.cnt_q = (s->cnt_q - 1) & mask(nw);
    }
  } else if (in->req_i) {
    int smem_ok = in->free_smem_i >= in->tb_smem_i;
    int cta_ok = in->free_ctas_i != 0;
    int full_ok = smem_ok && cta_ok && in->free_warps_i >= in->tb_warps_i &&
                  in->free_regs_i >= in->tb_regs_i;
    int part_ok = in->partial_en_i && !in->wlb_valid_i && smem_ok && cta_ok &&
                  in->free_warps_i != 0 && in->tb_warps_i != 0 &&
                  in->free_regs_i >= in->warp_regs_i;
    if (full_ok) {
      done = full = 1;
      warps = in->tb_warps_i;
    } else if (!part_ok) {
      done = 1;
    } else {
      n.busy_q = 1;
      n.rem_q = in->free_regs_i;
      n.dsh_q = (in->warp_regs_i << (tw - 1)) & mask(dw);
      n.quo_q = 0;
      n.lim_q = in->free_warps_i < in->tb_warps_i ? in->free_warps_i : in->tb_warps_i;
      n.cnt_q = tw - 1;
    }
  }
  *s = n;
  o->busy_o = s->busy_q;
  o->done_o = (uint64_t)done;
  o->full_o = (uint64_t)full;
  o->partial_o = (uint64_t)partial;
  o->warps_o = warps;
}

#define HW_UNIT_NAME wm_check
#define HW_UNIT_DEF "warpman/wm_check.def"
#define HW_UNIT_TECH "warpman"
#define HW_UNIT_VARIANTS "warpman/wm_check.variants" /* 32-CTA-slot SMs: titanx, gtx980, titanv */
#include "../unit_desc.h"
