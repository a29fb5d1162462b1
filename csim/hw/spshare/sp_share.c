/* C reference of sp_share (rtl/spshare/sp_share.v), cycle- and bit-exact. */
#include "sp_share.h"

#include <string.h>

#include "../bitfield.h"

static void outputs(const sp_share_state *s, sp_share_out *o) {
  o->mode_o = s->mode_q;
  o->thr_o = s->thr_q;
  memcpy(o->partner_o, s->partner_q, sizeof o->partner_o);
  o->owner_o = s->owner_q;
  memcpy(o->lock_o, s->lock_q, sizeof o->lock_o);
  o->lvalid_o = s->lvalid_q;
}

void sp_share_ref_reset(sp_share_state *s, sp_share_out *o, const int64_t *p) {
  const unsigned t = (unsigned)p[sp_share_P_T], tw = hw_clog2(t + 1);
  s->mode_q = 0;
  memset(s->partner_q, 0, sizeof s->partner_q);
  for (unsigned i = 0; i < t; i++) hw_bits_put(s->partner_q, i * tw, tw, t);
  memset(s->lock_q, 0, sizeof s->lock_q);
  s->owner_q = s->lvalid_q = s->thr_q = 0;
  outputs(s, o);
}

void sp_share_ref_step(sp_share_state *s, const sp_share_in *in, sp_share_out *o,
                       const int64_t *p) {
  const unsigned t = (unsigned)p[sp_share_P_T], tw = hw_clog2(t + 1), ti = hw_clog2(t);
  const unsigned nl = t / 2;
  sp_share_state n = *s;
  /* comparator (b): a TB with a partner; comparator (c): past its private bytes */
  int shared = in->req_tb_i < t && hw_bits_get(s->partner_q, (unsigned)in->req_tb_i * tw, tw) < t;
  int lock_free = in->req_lock_i < nl && !((s->lvalid_q >> in->req_lock_i) & 1);
  int grant = in->req_i && s->mode_q && shared && in->req_addr_i >= s->thr_q && lock_free;
  int release = in->rel_i && in->rel_lock_i < nl && ((s->lvalid_q >> in->rel_lock_i) & 1) &&
                hw_bits_get(s->lock_q, (unsigned)in->rel_lock_i * ti, ti) == in->rel_tb_i;
  if (in->cfg_i) {
    n.mode_q = in->cfg_mode_i;
    n.thr_q = in->cfg_thr_i;
  }
  if (in->warp_wr_i)
    n.owner_q = (s->owner_q & ~in->warp_mask_i) | (in->warp_owner_i ? in->warp_mask_i : 0);
  if (in->tb_wr_i && in->tb_i < t)
    hw_bits_put(n.partner_q, (unsigned)in->tb_i * tw, tw, in->tb_partner_i);
  if (grant) {
    hw_bits_put(n.lock_q, (unsigned)in->req_lock_i * ti, ti, in->req_tb_i);
    n.lvalid_q |= (uint64_t)1 << in->req_lock_i;
  }
  if (release) n.lvalid_q &= ~((uint64_t)1 << in->rel_lock_i);
  *s = n;
  outputs(s, o);
}

#define HW_UNIT_NAME sp_share
#define HW_UNIT_DEF "spshare/sp_share.def"
#define HW_UNIT_TECH "spshare"
#define HW_UNIT_VARIANTS "spshare/sp_share.variants" /* 32-CTA-slot SMs: titanx, gtx980, titanv */
#include "../unit_desc.h"
