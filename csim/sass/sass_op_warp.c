/* Warp-wide operations (VOTE, SHFL) and special registers (S2R, CS2R). SHFL follows PTX's
 * shfl definition: the lane read is computed from b and the clamp/segment word c, and a lane
 * whose source falls outside its segment reads its own value with the predicate false.
 * Special registers that depend on where a CTA runs (SM id, warp slot, clocks) are given
 * deterministic values: SM 0, the warp's index in its CTA, and a clock that counts the launch's
 * warp instructions, so traces are reproducible. */
#include "sass_op.h"

#include "../common/bits.h"

enum { V_ALL, V_ANY, V_EQ };
static int ex_vote(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_warp *w = x->w;
  int r = in->nops == 3; /* VOTE.ANY R, Pd, Pa: the ballot in R */
  const sass_opnd *pa = &in->o[r + 1];
  uint32_t ballot = sass_pred(w, pa->reg, pa->flags & SOF_NOT) & m;
  int t = in->a == V_ALL   ? ballot == m
          : in->a == V_ANY ? ballot != 0
                           : (ballot == 0 || ballot == m);
  if (r) SASS_FOR_LANES(m, l) sass_wr(x, in->o[0].reg, l, ballot);
  sass_setp(w, in->o[r].reg, t ? ~0u : 0, m);
  return 0;
}

int sass_prep_vote(sass_prep *p) {
  static const char *const modes[] = {"ALL", "ANY", "EQ"};
  if (sass_shape(p, p->in->nops == 3 ? "r p p" : "p p") < 0) return -1;
  int k = sass_take_of(p, modes, 3, -1);
  if (k < 0) return sass_bad(p, "expected .ALL, .ANY or .EQ");
  p->in->a = (uint8_t)k;
  p->in->exec = ex_vote;
  return 0;
}

enum { SH_IDX, SH_UP, SH_DOWN, SH_BFLY };
static int ex_shfl(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t src[SASS_WARP], valid = 0;
  for (int l = 0; l < SASS_WARP; l++) src[l] = sass_rd(x, in->o[2].reg, l);
  SASS_FOR_LANES(m, l) {
    uint32_t b = sass_src(x, &in->o[3], l), c = sass_src(x, &in->o[4], l);
    uint32_t cval = c & 0x1f, seg = (c >> 8) & 0x1f;
    int max_lane = (int)((l & seg) | (cval & ~seg)), min_lane = (int)(l & seg), j, ok;
    switch (in->a) {
    case SH_UP: j = l - (int)(b & 0x1f); ok = j >= max_lane; break;
    case SH_DOWN: j = l + (int)(b & 0x1f); ok = j <= max_lane; break;
    case SH_BFLY: j = l ^ (int)(b & 0x1f); ok = j <= max_lane; break;
    default: j = min_lane | (int)(b & 0x1f & ~seg); ok = j <= max_lane; break;
    }
    if (!ok) j = l;
    sass_wr(x, in->o[1].reg, l, src[j]);
    if (ok) valid |= 1u << l;
  }
  sass_setp(x->w, in->o[0].reg, valid, m);
  return 0;
}

int sass_prep_shfl(sass_prep *p) {
  static const char *const modes[] = {"IDX", "UP", "DOWN", "BFLY"};
  if (sass_shape(p, "p r r rci rci") < 0) return -1;
  int k = sass_take_of(p, modes, 4, -1);
  if (k < 0) return sass_bad(p, "expected .IDX, .UP, .DOWN or .BFLY");
  p->in->a = (uint8_t)k;
  p->in->exec = ex_shfl;
  return 0;
}

static uint32_t sreg(sass_ctx *x, int id, int l) {
  const sass_grid *g = x->g;
  uint32_t tid = (uint32_t)x->w->id * SASS_WARP + (uint32_t)l;
  uint32_t bit = 1u << l;
  switch (id) {
  case SR_LANEID: return (uint32_t)l;
  case SR_TID_X: return tid % g->block[0];
  case SR_TID_Y: return tid / g->block[0] % g->block[1];
  case SR_TID_Z: return tid / (g->block[0] * g->block[1]);
  case SR_TID:
    return tid % g->block[0] | (tid / g->block[0] % g->block[1]) << 16 |
           (tid / (g->block[0] * g->block[1])) << 26;
  case SR_CTAID_X: return x->c->id[0];
  case SR_CTAID_Y: return x->c->id[1];
  case SR_CTAID_Z: return x->c->id[2];
  case SR_EQMASK: return bit;
  case SR_LTMASK: return bit - 1;
  case SR_LEMASK: return bit | (bit - 1);
  case SR_GTMASK: return ~(bit | (bit - 1));
  case SR_GEMASK: return ~(bit - 1);
  case SR_CLOCKLO: case SR_GLOBALTIMERLO: return (uint32_t)g->executed;
  case SR_CLOCKHI: case SR_GLOBALTIMERHI: return (uint32_t)(g->executed >> 32);
  case SR_VIRTID: return (uint32_t)x->w->id << 8; /* SM 0, warp slot = index in the CTA */
  case SR_WARPID: return (uint32_t)x->w->id;
  case SR_SMEMSZ: return x->c->shared_bytes;
  case SR_NSMID: return 1;
  case SR_VIRTUALSMID: return 0;
  }
  return 0;
}

static int ex_s2r(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) sass_wr(x, in->o[0].reg, l, sreg(x, (int)in->o[1].ival, l));
  return 0;
}

/* CS2R (sm_70) reads a 64-bit pair: the clock, or zeros (SRZ) */
static int ex_cs2r(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint64_t v = in->o[1].ival == SR_Z ? 0 : x->g->executed;
  SASS_FOR_LANES(m, l) sass_wr64(x, in->o[0].reg, l, v);
  return 0;
}

int sass_prep_s2r(sass_prep *p) {
  if (sass_shape(p, "r s") < 0) return -1;
  if (p->sm >= 70 && !strcmp(p->in->mtext, "CS2R")) {
    int sr = (int)p->in->o[1].ival;
    if (sr != SR_Z && sr != SR_CLOCKLO && sr != SR_GLOBALTIMERLO)
      return sass_bad(p, "expected SRZ or a 64-bit clock");
    sass_reg_span(p, 0, 2);
    p->in->exec = ex_cs2r;
    return 0;
  }
  if (p->in->o[1].ival == SR_VIRTCFG || p->in->o[1].ival == SR_NTID)
    return sass_bad(p, "special register not supported");
  p->in->exec = ex_s2r;
  return 0;
}
