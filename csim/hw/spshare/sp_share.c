/* C reference of sp_share (rtl/spshare/sp_share.v), cycle- and bit-exact. */
#include "sp_share.h"

static uint64_t mask(unsigned w) { return w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1; }

static uint64_t field(uint64_t v, unsigned i, unsigned w) { return (v >> (i * w)) & mask(w); }

static uint64_t with_field(uint64_t v, unsigned i, unsigned w, uint64_t f) {
  return (v & ~(mask(w) << (i * w))) | ((f & mask(w)) << (i * w));
}

static void outputs(const sp_share_state *s, sp_share_out *o) {
  o->mode_o = s->mode_q;
  o->thr_o = s->thr_q;
  o->partner_o = s->partner_q;
  o->owner_o = s->owner_q;
  o->lock_o = s->lock_q;
  o->lvalid_o = s->lvalid_q;
}

void sp_share_ref_reset(sp_share_state *s, sp_share_out *o, const int64_t *p) {
  const unsigned t = (unsigned)p[sp_share_P_T], tw = hw_clog2(t + 1);
  s->mode_q = 0;
  s->partner_q = 0;
  for (unsigned i = 0; i < t; i++) s->partner_q = with_field(s->partner_q, i, tw, t);
  s->owner_q = s->lock_q = s->lvalid_q = s->thr_q = 0;
  outputs(s, o);
}

void sp_share_ref_step(sp_share_state *s, const sp_share_in *in, sp_share_out *o,
                       const int64_t *p) {
  const unsigned t = (unsigned)p[sp_share_P_T], tw = hw_clog2(t + 1), ti = hw_clog2(t);
  const unsigned nl = t / 2;
  sp_share_state n = *s;
  /* comparator (b): a TB with a partner; comparator (c): past its private bytes */
  int shared = in->req_tb_i < t && field(s->partner_q, (unsigned)in->req_tb_i, tw) < t;
  int lock_free = in->req_lock_i < nl && !((s->lvalid_q >> in->req_lock_i) & 1);
  int grant = in->req_i && s->mode_q && shared && in->req_addr_i >= s->thr_q && lock_free;
  int release = in->rel_i && in->rel_lock_i < nl && ((s->lvalid_q >> in->rel_lock_i) & 1) &&
                field(s->lock_q, (unsigned)in->rel_lock_i, ti) == in->rel_tb_i;
  if (in->cfg_i) {
    n.mode_q = in->cfg_mode_i;
    n.thr_q = in->cfg_thr_i;
  }
  if (in->warp_wr_i)
    n.owner_q = (s->owner_q & ~in->warp_mask_i) | (in->warp_owner_i ? in->warp_mask_i : 0);
  if (in->tb_wr_i && in->tb_i < t)
    n.partner_q = with_field(s->partner_q, (unsigned)in->tb_i, tw, in->tb_partner_i);
  if (grant) {
    n.lock_q = with_field(s->lock_q, (unsigned)in->req_lock_i, ti, in->req_tb_i);
    n.lvalid_q |= (uint64_t)1 << in->req_lock_i;
  }
  if (release) n.lvalid_q &= ~((uint64_t)1 << in->rel_lock_i);
  *s = n;
  outputs(s, o);
}

#define HW_UNIT_NAME sp_share
#define HW_UNIT_DEF "spshare/sp_share.def"
#define HW_UNIT_TECH "spshare"
#include "../unit_desc.h"
