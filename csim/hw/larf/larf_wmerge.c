/* C reference of larf_wmerge (rtl/larf/larf_wmerge.v), cycle- and bit-exact. Lane l is word l
 * of the uint32_t arrays (least significant word first). */
#include <string.h>

#include "larf_wmerge.h"

static void outputs(const larf_wmerge_state *s, larf_wmerge_out *o) {
  o->valid_o = s->valid_q;
  memcpy(o->data_o, s->data_q, sizeof o->data_o);
}

void larf_wmerge_ref_reset(larf_wmerge_state *s, larf_wmerge_out *o, const int64_t *p) {
  (void)p;
  s->valid_q = 0;
  memset(s->data_q, 0, sizeof s->data_q);
  outputs(s, o);
}

void larf_wmerge_ref_step(larf_wmerge_state *s, const larf_wmerge_in *in, larf_wmerge_out *o,
                          const int64_t *p) {
  const uint64_t lanes = (uint64_t)p[larf_wmerge_P_LANES];
  s->valid_q = in->go_i;
  if (in->go_i) {
    for (uint64_t l = 0; l < lanes; l++) {
      uint32_t v = 0;
      if (l < in->split_i) {
        uint64_t src = l + in->shift_a_i;
        v = src < lanes ? in->a_i[src] : 0;
      } else if (l <= in->cnt_i) {
        v = l >= in->shift_b_i ? in->b_i[l - in->shift_b_i] : 0;
      }
      s->data_q[l] = v;
    }
  }
  outputs(s, o);
}

#define HW_UNIT_NAME larf_wmerge
#define HW_UNIT_DEF "larf/larf_wmerge.def"
#define HW_UNIT_TECH "larf"
#include "../unit_desc.h"
