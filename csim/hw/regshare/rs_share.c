/* C reference of rs_share (rtl/regshare/rs_share.v), cycle- and bit-exact. */
#include "rs_share.h"

#include <string.h>

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

static uint64_t ones(unsigned n) { return n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1; }

static uint64_t field(uint64_t x, unsigned i, unsigned n) { return (x >> (i * n)) & ones(n); }

static uint64_t field_put(uint64_t x, unsigned i, unsigned n, uint64_t v) {
  return (x & ~(ones(n) << (i * n))) | ((v & ones(n)) << (i * n));
}

/* n-bit field at bit lo of a word array (it may straddle two words) */
static uint64_t wfield(const uint32_t *a, unsigned lo, unsigned n) {
  uint64_t v = 0;
  for (unsigned k = 0; k < n; k++) v |= (uint64_t)((a[(lo + k) / 32] >> ((lo + k) % 32)) & 1u) << k;
  return v;
}

static void wfield_put(uint32_t *a, unsigned lo, unsigned n, uint64_t v) {
  for (unsigned k = 0; k < n; k++) {
    uint32_t bit = (uint32_t)1 << ((lo + k) % 32);
    if ((v >> k) & 1) a[(lo + k) / 32] |= bit;
    else a[(lo + k) / 32] &= ~bit;
  }
}

static void outputs(const rs_share_state *s, rs_share_out *o, const dims *d) {
  o->mode_o = s->mode_q;
  o->thr_o = s->thr_q;
  o->partner_o = s->partner_q;
  o->sharing_o = s->sharing_q;
  o->owner_o = s->owner_q;
  o->held_o = s->held_q;
  memcpy(o->lock_o, s->lock_q, sizeof o->lock_o);
  memset(o->prio_o, 0, sizeof o->prio_o);
  for (unsigned w = 0; w < d->w; w++) {
    unsigned sh = (unsigned)(s->sharing_q >> w) & 1u, own = (unsigned)(s->owner_q >> w) & 1u;
    wfield_put(o->prio_o, 2 * w, 2, !sh ? 1 : own ? 0 : 2);
  }
}

void rs_share_ref_reset(rs_share_state *s, rs_share_out *o, const int64_t *p) {
  dims d = dims_of(p);
  s->mode_q = s->thr_q = s->sharing_q = s->owner_q = s->held_q = 0;
  s->partner_q = 0;
  for (unsigned i = 0; i < d.t; i++) s->partner_q = field_put(s->partner_q, i, d.tw, d.t);
  memset(s->lock_q, 0, sizeof s->lock_q);
  for (unsigned l = 0; l < d.nl; l++) wfield_put(s->lock_q, l * d.lw, d.lw, ones(d.lw));
  outputs(s, o, &d);
}

void rs_share_ref_step(rs_share_state *s, const rs_share_in *in, rs_share_out *o,
                       const int64_t *p) {
  dims d = dims_of(p);
  uint64_t free_code = ones(d.lw), held_max = ones(d.hw);
  /* every condition reads the state before the edge */
  uint64_t partner = in->req_tb_i < d.t ? field(s->partner_q, (unsigned)in->req_tb_i, d.tw) : 0;
  int partner_busy = partner < d.t && field(s->held_q, (unsigned)partner, d.hw) != 0;
  int grant = in->req_i && s->mode_q && in->req_tb_i < d.t && in->req_warp_i < d.w &&
              ((s->sharing_q >> in->req_warp_i) & 1) && in->req_reg_i >= s->thr_q &&
              in->req_lock_i < d.nl &&
              wfield(s->lock_q, (unsigned)in->req_lock_i * d.lw, d.lw) == free_code &&
              !partner_busy;
  int freed = in->rel_i && in->rel_tb_i < d.t && in->rel_warp_i < d.w && in->rel_lock_i < d.nl &&
              wfield(s->lock_q, (unsigned)in->rel_lock_i * d.lw, d.lw) == in->rel_warp_i;

  if (in->cfg_i) {
    s->mode_q = in->cfg_mode_i;
    s->thr_q = in->cfg_thr_i;
  }
  if (in->tb_wr_i && in->tb_i < d.t)
    s->partner_q = field_put(s->partner_q, (unsigned)in->tb_i, d.tw, in->tb_partner_i);
  if (in->warp_wr_i) {
    uint64_t m = in->warp_mask_i;
    s->sharing_q = (s->sharing_q & ~m) | (in->warp_sharing_i ? m : 0);
    s->owner_q = (s->owner_q & ~m) | (in->warp_owner_i ? m : 0);
  }
  for (unsigned t = 0; t < d.t; t++) {
    int inc = grant && in->req_tb_i == t, dec = freed && in->rel_tb_i == t;
    uint64_t h = field(s->held_q, t, d.hw);
    if (inc && !dec && h != held_max) s->held_q = field_put(s->held_q, t, d.hw, h + 1);
    else if (dec && !inc && h != 0) s->held_q = field_put(s->held_q, t, d.hw, h - 1);
  }
  if (grant) wfield_put(s->lock_q, (unsigned)in->req_lock_i * d.lw, d.lw, in->req_warp_i);
  if (freed) wfield_put(s->lock_q, (unsigned)in->rel_lock_i * d.lw, d.lw, free_code);
  outputs(s, o, &d);
}

#define HW_UNIT_NAME rs_share
#define HW_UNIT_DEF "regshare/rs_share.def"
#define HW_UNIT_TECH "regshare"
#include "../unit_desc.h"
