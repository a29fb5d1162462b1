/* C reference of larf_amt (rtl/larf/larf_amt.v), cycle- and bit-exact. */
#include "larf_amt.h"

enum { OP_LOOKUP = 1, OP_INV_PREG = 3, OP_INV_RANGE = 4, OP_CLEAR = 5 };

static unsigned lg2(uint64_t s) { /* floor(log2(s)) over 9 bits, 0 for 0 */
  unsigned r = 0;
  for (unsigned b = 1; b < 9; b++)
    if (s >> b & 1) r = b;
  return r;
}

typedef struct ent {
  unsigned v, pm, ov, head, full, perf, tail;
  uint64_t k, m, c, p;
} ent;

static void outputs(const larf_amt_state *s, larf_amt_out *o, const int64_t *p) {
  unsigned pw = hw_clog2(p[larf_amt_P_NPREGS]);
  unsigned ew = 39 + pw;
  o->done_o = s->done_q;
  o->kind_o = s->kind_q;
  o->preg_a_o = s->pa_q;
  o->shift_a_o = s->ka_q;
  o->preg_b_o = s->pb_q;
  o->shift_b_o = s->mb_q;
  o->split_o = s->split_q;
  o->evict_o = s->ev_q;
  o->evict_preg_o = s->evp_q;
  uint64_t occ = 0;
  for (int64_t i = 0; i < p[larf_amt_P_ENTRIES]; i++) occ += s->amt_q[i] >> (ew - 1) & 1;
  o->occ_o = occ;
}

void larf_amt_ref_reset(larf_amt_state *s, larf_amt_out *o, const int64_t *p) {
  s->rr_q = s->done_q = s->kind_q = s->pa_q = s->ka_q = s->pb_q = s->mb_q = s->split_q = 0;
  s->ev_q = s->evp_q = 0;
  outputs(s, o, p); /* amt_q is memory: kept */
}

void larf_amt_ref_step(larf_amt_state *s, const larf_amt_in *in, larf_amt_out *o,
                       const int64_t *p) {
  const int64_t n = p[larf_amt_P_ENTRIES];
  const unsigned pw = hw_clog2(p[larf_amt_P_NPREGS]);
  const unsigned ew = 39 + pw;
  const uint64_t m24 = 0xffffff, pmask = ((uint64_t)1 << pw) - 1;
  const unsigned sh = lg2(in->stride_i);
  const int zs = in->stride_i == 0;
  const uint64_t low = (((uint64_t)1 << sh) - 1) & m24;
  const int64_t last = n - 1;
  int any_free = 0, any_perf = 0, any_full = 0, any_head = 0, any_tail = 0;
  int64_t i_free = (int64_t)s->rr_q, i_perf = 0, i_full = 0, i_head = 0, i_tail = 0;
  _Static_assert(sizeof s->amt_q / sizeof s->amt_q[0] >= 512, "amt_q max depth");
  ent e[512];
  e[0] = (ent){0}; /* the muxes below read entry 0 when nothing matched (set for n = 0 too) */
  for (int64_t i = n - 1; i >= 0; i--) {
    uint64_t w = s->amt_q[i];
    ent *x = &e[i];
    x->v = (unsigned)(w >> (ew - 1) & 1);
    x->c = w & 31;
    uint64_t es = w >> 5 & 511, eb = w >> 14 & m24;
    x->p = w >> 38 & pmask;
    unsigned same = x->v && es == in->stride_i;
    uint64_t d1 = (in->base_i - eb) & m24, d2 = (eb - in->base_i) & m24;
    uint64_t k24 = d1 >> sh, mm = d2 >> sh;
    x->head = same && (zs ? d1 == 0 : ((d1 & low) == 0 && k24 <= x->c));
    x->full = x->head && (zs ? in->cnt_i <= x->c : (k24 & 31) + in->cnt_i <= x->c);
    x->perf = x->full && k24 == 0;
    x->tail = same && !zs && (d2 & low) == 0 && mm != 0 && mm <= in->cnt_i &&
              (mm & 31) + x->c >= in->cnt_i;
    uint64_t eend = eb + (x->c << lg2(es));
    x->pm = x->v && x->p == in->preg_i;
    x->ov = x->v && eb <= in->hi_i && eend >= in->base_i;
    x->k = k24 & 31;
    x->m = mm & 31;
    if (!x->v) any_free = 1, i_free = i;
    if (x->perf) any_perf = 1, i_perf = i;
    if (x->full) any_full = 1, i_full = i;
    if (x->head && !x->full) any_head = 1, i_head = i;
    if (x->tail) any_tail = 1, i_tail = i;
  }
  uint64_t hk = e[i_head].k;
  uint64_t hsplit = (e[i_head].c + 1 - hk) & 63;
  uint64_t tm = e[i_tail].m;
  int merge = any_head && any_tail && tm <= hsplit;
  uint64_t all = in->cnt_i + 1;
  uint64_t kind = 0, pa = 0, ka = 0, pb = 0, mb = 0, split = 0;
  if (any_perf) {
    kind = 1, pa = e[i_perf].p, split = all;
  } else if (any_full) {
    kind = 2, pa = e[i_full].p, ka = e[i_full].k, split = all;
  } else if (merge) {
    kind = 3, pa = e[i_head].p, ka = hk, pb = e[i_tail].p, mb = tm, split = hsplit;
  }
  int is_ins = in->ins_i != 0;
  int evict = is_ins && !any_free;
  int64_t ins_at = any_free ? i_free : (int64_t)s->rr_q;
  uint64_t evp = e[s->rr_q < (uint64_t)n ? s->rr_q : 0].p;
  /* the edge */
  for (int64_t i = 0; i < n; i++) {
    if (is_ins && ins_at == i)
      s->amt_q[i] = (uint64_t)1 << (ew - 1) | (in->ins_preg_i & pmask) << 38 |
                    in->ins_base_i << 14 | in->ins_stride_i << 5 | in->ins_cnt_i;
    else if ((in->op_i == OP_INV_PREG && e[i].pm) || (in->op_i == OP_INV_RANGE && e[i].ov) ||
             in->op_i == OP_CLEAR)
      s->amt_q[i] &= ~((uint64_t)1 << (ew - 1));
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
  outputs(s, o, p);
}

#define HW_UNIT_NAME larf_amt
#define HW_UNIT_DEF "larf/larf_amt.def"
#define HW_UNIT_TECH "larf"
#include "../unit_desc.h"
