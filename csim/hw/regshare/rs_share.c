/* C reference of rs_share (rtl/regshare/rs_share.v), cycle- and bit-exact. */
#include "rs_share.h"

#include <string.h>

#include "../bitfield.h"

typedef struct dims {
  unsigned t, w, nl; /* CTA slots, warp slots, warp-pair locks */
  unsigned tw, lw, hw; /* partner field, lock entry, held counter widths */
} dims;

static dims dims_of(const int64_t *p) {
  dims d;
  d.t = (unsigned)p[rs_share_P_CTA_SLOTS];
  d.w = (unsigned)p[rs_share_P_WARP_SLOTS];
  d.nl = d.w / 2;
  d.tw = hw_clog2(d.t + 1);
  d.lw = hw_clog2(d.w + 1);
  d.hw = hw_clog2(d.nl + 1);
  return d;
}

/* Bits 0..15 of x at the even bits 0..30. */
static uint32_t spread16(uint32_t x) {
  x &= 0xffffu;
  x = (x | x << 8) & 0x00ff00ffu;
  x = (x | x << 4) & 0x0f0f0f0fu;
  x = (x | x << 2) & 0x33333333u;
  return (x | x << 1) & 0x55555555u;
}

static void outputs(const rs_share_state *s, rs_share_out *o, const dims *d) {
  o->mode_o = s->mode_q;
  o->thr_o = s->thr_q;
  memcpy(o->partner_o, s->partner_q, sizeof o->partner_o);
  o->sharing_o = s->sharing_q;
  o->owner_o = s->owner_q;
  memcpy(o->held_o, s->held_q, sizeof o->held_o);
  memcpy(o->lock_o, s->lock_q, sizeof o->lock_o);
  /* Warp w's class at bits [2w +: 2]: 1 unshared, 0 owner, 2 non-owner, so bit 2w is "not
   * sharing" and bit 2w + 1 "sharing, not owner" (the RTL's per-warp encoder), 16 warps a
   * word: the unit steps every cycle a warp asks for a lock. */
  uint64_t valid = d->w >= 64 ? ~0ull : (1ull << d->w) - 1;
  uint64_t unshared = ~s->sharing_q & valid, nonowner = s->sharing_q & ~s->owner_q & valid;
  for (unsigned k = 0; k < sizeof o->prio_o / sizeof o->prio_o[0]; k++)
    o->prio_o[k] = spread16((uint32_t)(unshared >> 16 * k)) |
                   spread16((uint32_t)(nonowner >> 16 * k)) << 1;
}

void rs_share_ref_reset(rs_share_state *s, rs_share_out *o, const int64_t *p) {
  dims d = dims_of(p);
  s->mode_q = s->thr_q = s->sharing_q = s->owner_q = 0;
  memset(s->held_q, 0, sizeof s->held_q);
  memset(s->partner_q, 0, sizeof s->partner_q);
  for (unsigned i = 0; i < d.t; i++) hw_bits_put(s->partner_q, i * d.tw, d.tw, d.t);
  memset(s->lock_q, 0, sizeof s->lock_q);
  for (unsigned l = 0; l < d.nl; l++) hw_bits_put(s->lock_q, l * d.lw, d.lw, hw_ones(d.lw));
  outputs(s, o, &d);
}

void rs_share_ref_step(rs_share_state *s, const rs_share_in *in, rs_share_out *o,
                       const int64_t *p) {
  dims d = dims_of(p);
  uint64_t free_code = hw_ones(d.lw), held_max = hw_ones(d.hw);
  /* every condition reads the state before the edge */
  uint64_t partner =
      in->req_tb_i < d.t ? hw_bits_get(s->partner_q, (unsigned)in->req_tb_i * d.tw, d.tw) : 0;
  int partner_busy = partner < d.t && hw_bits_get(s->held_q, (unsigned)partner * d.hw, d.hw) != 0;
  int grant = in->req_i && s->mode_q && in->req_tb_i < d.t && in->req_warp_i < d.w &&
              ((s->sharing_q >> in->req_warp_i) & 1) && in->req_reg_i >= s->thr_q &&
              in->req_lock_i < d.nl &&
              hw_bits_get(s->lock_q, (unsigned)in->req_lock_i * d.lw, d.lw) == free_code &&
              !partner_busy;
  int freed = in->rel_i && in->rel_tb_i < d.t && in->rel_warp_i < d.w && in->rel_lock_i < d.nl &&
              hw_bits_get(s->lock_q, (unsigned)in->rel_lock_i * d.lw, d.lw) == in->rel_warp_i;

  if (in->cfg_i) {
    s->mode_q = in->cfg_mode_i;
    s->thr_q = in->cfg_thr_i;
  }
  if (in->tb_wr_i && in->tb_i < d.t)
    hw_bits_put(s->partner_q, (unsigned)in->tb_i * d.tw, d.tw, in->tb_partner_i);
  if (in->warp_wr_i) {
    uint64_t m = in->warp_mask_i;
    s->sharing_q = (s->sharing_q & ~m) | (in->warp_sharing_i ? m : 0);
    s->owner_q = (s->owner_q & ~m) | (in->warp_owner_i ? m : 0);
  }
  for (unsigned t = 0; t < d.t; t++) {
    int inc = grant && in->req_tb_i == t, dec = freed && in->rel_tb_i == t;
    uint64_t h = hw_bits_get(s->held_q, t * d.hw, d.hw);
    if (inc && !dec && h != held_max) hw_bits_put(s->held_q, t * d.hw, d.hw, h + 1);
    else if (dec && !inc && h != 0) hw_bits_put(s->held_q, t * d.hw, d.hw, h - 1);
  }
  if (grant) hw_bits_put(s->lock_q, (unsigned)in->req_lock_i * d.lw, d.lw, in->req_warp_i);
  if (freed) hw_bits_put(s->lock_q, (unsigned)in->rel_lock_i * d.lw, d.lw, free_code);
  outputs(s, o, &d);
}

#define HW_UNIT_NAME rs_share
#define HW_UNIT_DEF "regshare/rs_share.def"
#define HW_UNIT_TECH "regshare"
#define HW_UNIT_VARIANTS "regshare/rs_share.variants" /* 32-CTA-slot SMs: titanx, gtx980, titanv */
#include "../unit_desc.h"
