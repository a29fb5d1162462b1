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
  const int decide = in->op_i == 1, unmap = in->op_i == 2, perf = in->kind_i == 1;
  const uint64_t addr = decide ? (perf ? in->preg_a_i : in->new_i) : in->preg_i;
  const uint64_t cur = s->cnt_q[addr];
  uint64_t nxt = cur, act = 0;
  if (decide) {
    if (perf)
      nxt = (cur + 1) & cmask, act = 1;
    else
      nxt = 1, act = in->kind_i == 0 ? 3 : 2;
  } else if (unmap) {
    nxt = cur == 0 ? cur : cur - 1;
  }
  if (decide || unmap) s->cnt_q[addr] = nxt;
  s->act_q = act;
  s->freed_q = unmap && nxt == 0 && cur != 0;
  s->shared_q = unmap && cur > 1;
  if (decide || unmap) {
    s->dst_q = addr;
    s->rc_q = nxt;
  }
  outputs(s, o);
}

#define HW_UNIT_NAME larf_mc
#define HW_UNIT_DEF "larf/larf_mc.def"
#define HW_UNIT_TECH "larf"
#include "../unit_desc.h"
