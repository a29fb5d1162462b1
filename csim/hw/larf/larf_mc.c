/* C reference of larf_mc (rtl/larf/larf_mc.v), cycle- and bit-exact. */
#include "larf_mc.h"

static void outputs(const larf_mc_state *s, larf_mc_out *o) {
  o->act_o = s->act_q;
  o->dst_o = s->dst_q;
  o->freed_o = s->freed_q;
  o->shared_o = s->shared_q;
  o->rc_o = s->rc_q;
}

void larf_mc_ref_reset(larf_mc_state *s, larf_mc_out *o, const int64_t *p) {
  (void)p;
  s->act_q = s->dst_q = s->freed_q = s->shared_q = s->rc_q = 0; /* cnt_q is memory: kept */
  outputs(s, o);
}

void larf_mc_ref_step(larf_mc_state *s, const larf_mc_in *in, larf_mc_out *o,
                      const int64_t *p) {
  const uint64_t cmask = ((uint64_t)1 << hw_clog2(p[larf_mc_P_MAX_SHARERS] + 1)) - 1;
  const int perf = in->kind_i == 1;
  const uint64_t addr = perf ? in->preg_a_i : in->new_i;
  const uint64_t cur_d = s->cnt_q[addr], cur_u = s->cnt_q[in->preg_i];
  const uint64_t nxt_d = perf ? (cur_d + 1) & cmask : 1;
  const uint64_t act = !in->decide_i ? 0 : perf ? 1 : in->kind_i == 0 ? 3 : 2;
  const uint64_t base_u = in->decide_i && addr == in->preg_i ? nxt_d : cur_u;
  const uint64_t nxt_u = base_u == 0 ? 0 : base_u - 1;
  if (in->decide_i) s->cnt_q[addr] = nxt_d;
  if (in->unmap_i) s->cnt_q[in->preg_i] = nxt_u;
  s->act_q = act;
  s->freed_q = in->unmap_i && nxt_u == 0 && base_u != 0;
  s->shared_q = in->unmap_i && base_u > 1;
  if (in->decide_i) {
    s->dst_q = addr;
    s->rc_q = nxt_d;
  } else if (in->unmap_i) {
    s->rc_q = nxt_u;
  }
  outputs(s, o);
}

#define HW_UNIT_NAME larf_mc
#define HW_UNIT_DEF "larf/larf_mc.def"
#define HW_UNIT_TECH "larf"
#include "../unit_desc.h"
