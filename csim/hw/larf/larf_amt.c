/* C reference of larf_amt (rtl/larf/larf_amt.v), cycle- and bit-exact. */
#include "larf_amt.h"

enum { OP_LOOKUP = 1, OP_INV_PREG = 3, OP_INV_RANGE = 4, OP_CLEAR = 5 };

static unsigned lg2(uint64_t s) { /* floor(log2(s)) over 9 bits, 0 for 0 */
  unsigned r = 0;
  for (unsigned b = 1; b < 9; b++)
    if (s >> b & 1) r = b;
  return r;
}

/* An entry's valid bit (amt_q's top bit: valid, preg, base, stride, count). */
static uint64_t valid_bit(const int64_t *p) {
  return (uint64_t)1 << (38 + hw_clog2(p[larf_amt_P_NPREGS]));
}

/* The outputs, with the table's valid entries counted by the caller (occ). */
static void outputs(const larf_amt_state *s, larf_amt_out *o, uint64_t occ) {
  o->done_o = s->done_q;
  o->kind_o = s->kind_q;
  o->preg_a_o = s->pa_q;
  o->shift_a_o = s->ka_q;
  o->preg_b_o = s->pb_q;
  o->shift_b_o = s->mb_q;
  o->split_o = s->split_q;
  o->evict_o = s->ev_q;
  o->evict_preg_o = s->evp_q;
  o->occ_o = occ;
}

void larf_amt_ref_reset(larf_amt_state *s, larf_amt_out *o, const int64_t *p) {
  s->rr_q = s->done_q = s->kind_q = s->pa_q = s->ka_q = s->pb_q = s->mb_q = s->split_q = 0;
  s->ev_q = s->evp_q = 0;
  const uint64_t vbit = valid_bit(p);
  uint64_t occ = 0;
  for (int64_t i = 0; i < p[larf_amt_P_ENTRIES]; i++) occ += (s->amt_q[i] & vbit) != 0;
  outputs(s, o, occ); /* amt_q is memory: kept */
}

/* An entry's fields (amt_q's word layout: valid, preg, base, stride, count). */
static uint64_t ent_count(uint64_t w) { return w & 31; }
static uint64_t ent_stride(uint64_t w) { return w >> 5 & 511; }
static uint64_t ent_base(uint64_t w) { return w >> 14 & 0xffffff; }
static uint64_t ent_preg(uint64_t w, uint64_t pmask) { return w >> 38 & pmask; }

/* The RTL compares every entry at once; this walks the valid ones (an invalid entry matches
 * nothing) from the last to the first, so the lowest matching index is the one kept, as the
 * RTL's priority encoders pick it, with the fields its muxes read from that entry. */
void larf_amt_ref_step(larf_amt_state *s, const larf_amt_in *in, larf_amt_out *o,
                       const int64_t *p) {
  const int64_t n = p[larf_amt_P_ENTRIES];
  const unsigned pw = hw_clog2(p[larf_amt_P_NPREGS]);
  const uint64_t m24 = 0xffffff, pmask = ((uint64_t)1 << pw) - 1, vbit = valid_bit(p);
  const unsigned sh = lg2(in->stride_i);
  const int zs = in->stride_i == 0;
  const uint64_t low = (((uint64_t)1 << sh) - 1) & m24;
  const int64_t last = n - 1;
  int any_free = 0, any_perf = 0, any_full = 0, any_head = 0, any_tail = 0;
  uint64_t occ = 0; /* valid entries: before the edge here, after it below */
  int64_t i_free = (int64_t)s->rr_q;
  /* the matched entries' fields the result muxes read */
  uint64_t perf_p = 0, full_p = 0, full_k = 0, head_p = 0, head_k = 0, head_c = 0, tail_p = 0,
           tail_m = 0;
  _Static_assert(sizeof s->amt_q / sizeof s->amt_q[0] >= 512, "amt_q max depth");
  for (int64_t i = n - 1; i >= 0; i--) {
    uint64_t w = s->amt_q[i];
    if (!(w & vbit)) {
      any_free = 1, i_free = i;
      continue;
    }
    occ++;
    uint64_t c = ent_count(w), eb = ent_base(w);
    if (ent_stride(w) != in->stride_i) continue;
    uint64_t d1 = (in->base_i - eb) & m24, d2 = (eb - in->base_i) & m24;
    uint64_t k24 = d1 >> sh, mm = d2 >> sh;
    int head = zs ? d1 == 0 : ((d1 & low) == 0 && k24 <= c);
    int full = head && (zs ? in->cnt_i <= c : (k24 & 31) + in->cnt_i <= c);
    int tail = !zs && (d2 & low) == 0 && mm != 0 && mm <= in->cnt_i && (mm & 31) + c >= in->cnt_i;
    uint64_t preg = ent_preg(w, pmask);
    if (full && k24 == 0) any_perf = 1, perf_p = preg;
    if (full) any_full = 1, full_p = preg, full_k = k24 & 31;
    if (head && !full) any_head = 1, head_p = preg, head_k = k24 & 31, head_c = c;
    if (tail) any_tail = 1, tail_p = preg, tail_m = mm & 31;
  }
  uint64_t hsplit = (head_c + 1 - head_k) & 63;
  int merge = any_head && any_tail && tail_m <= hsplit;
  uint64_t all = in->cnt_i + 1;
  uint64_t kind = 0, pa = 0, ka = 0, pb = 0, mb = 0, split = 0;
  if (any_perf) {
    kind = 1, pa = perf_p, split = all;
  } else if (any_full) {
    kind = 2, pa = full_p, ka = full_k, split = all;
  } else if (merge) {
    kind = 3, pa = head_p, ka = head_k, pb = tail_p, mb = tail_m, split = hsplit;
  }
  int is_ins = in->ins_i != 0;
  int evict = is_ins && !any_free;
  int64_t ins_at = any_free ? i_free : (int64_t)s->rr_q;
  /* (the victim's register, read whether or not the entry is valid; entry 0 past the table) */
  uint64_t evp = n > 0 ? ent_preg(s->amt_q[s->rr_q < (uint64_t)n ? s->rr_q : 0], pmask) : 0;
  /* the edge */
  if (is_ins && ins_at < n) { /* (a victim pointer past the table writes no entry) */
    occ += (uint64_t)any_free; /* (else it replaces a valid entry) */
    s->amt_q[ins_at] = vbit | (in->ins_preg_i & pmask) << 38 | in->ins_base_i << 14 |
                       in->ins_stride_i << 5 | in->ins_cnt_i;
  }
  if (in->op_i == OP_CLEAR || in->op_i == OP_INV_PREG || in->op_i == OP_INV_RANGE)
    for (int64_t i = 0; i < n; i++) {
      uint64_t w = s->amt_q[i];
      if (!(w & vbit) || (is_ins && ins_at == i)) continue; /* (the insert wins its entry) */
      uint64_t eb = ent_base(w), eend = eb + (ent_count(w) << lg2(ent_stride(w)));
      if (in->op_i == OP_CLEAR || (in->op_i == OP_INV_PREG && ent_preg(w, pmask) == in->preg_i) ||
          (in->op_i == OP_INV_RANGE && eb <= in->hi_i && eend >= in->base_i)) {
        s->amt_q[i] = w & ~vbit;
        occ--;
      }
    }
  s->done_q = in->op_i == OP_LOOKUP;
  if (in->op_i == OP_LOOKUP) {
    s->kind_q = kind, s->pa_q = pa, s->ka_q = ka, s->pb_q = pb, s->mb_q = mb;
    s->split_q = split;
  }
  s->ev_q = (uint64_t)evict;
  if (evict) {
    s->evp_q = evp;
    s->rr_q = (int64_t)s->rr_q == last ? 0 : s->rr_q + 1;
  }
  outputs(s, o, occ);
}

#define HW_UNIT_NAME larf_amt
#define HW_UNIT_DEF "larf/larf_amt.def"
#define HW_UNIT_TECH "larf"
#include "../unit_desc.h"
