/* Float instructions new with sm_70 (FSEL, FRND) and DSETP's MIN and MAX tests, which the
 * double-precision min and max sequences of nvcc 11.8 use (DSETP.MIN.AND P0, P1, a, b, Pc; two
 * SELs take a or b by P0; P1 marks the case where both are NaN, whose result the code then
 * quiets). Their meaning is the one that makes those sequences compute fmin and fmax. */
#include "sass_fp.h"
#include "sass_op.h"

static void float_imm_bits(sass_prep *p) {
  for (int i = 0; i < p->in->nops; i++) {
    sass_opnd *o = &p->in->o[i];
    if (o->kind != SO_IMM || !(o->flags & SOF_FLOATTXT)) continue;
    o->ival = (int64_t)sass_u32((float)o->fval);
    o->flags &= (uint16_t)~SOF_FLOATTXT;
  }
}

/* FSEL d, a, b, P: SEL on float operands (|x|, -x and float immediates) */
static int ex_fsel(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t pc = sass_pred(x->w, in->o[3].reg, in->o[3].flags & SOF_NOT);
  SASS_FOR_LANES(m, l)
    sass_wr(x, in->o[0].reg, l, sass_u32(sass_fsrc(x, &in->o[(pc >> l & 1) ? 1 : 2], l, 0)));
  return 0;
}

int sass_prep_fsel(sass_prep *p) {
  if (sass_shape(p, "r rci rci p") < 0) return -1;
  float_imm_bits(p);
  p->in->exec = ex_fsel;
  return 0;
}

/* FRND[.F64][.CEIL|.FLOOR|.TRUNC][.FTZ] d, a: round to an integral value (to nearest even by
 * default) */
static int ex_frnd(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) {
    if (in->b) {
      sass_wr64(x, in->o[0].reg, l, sass_dbits(sass_round_int(sass_dsrc(x, &in->o[1], l), in->a)));
    } else {
      float f = (float)sass_round_int(sass_fsrc(x, &in->o[1], l, in->c), in->a);
      sass_wr(x, in->o[0].reg, l, sass_fbits(in->c ? sass_ftz(f) : f));
    }
  }
  return 0;
}

int sass_prep_frnd(sass_prep *p) {
  sass_inst *in = p->in;
  if (sass_shape(p, "r rci") < 0) return -1;
  static const char *const modes[] = {"CEIL", "FLOOR", "TRUNC"};
  static const uint8_t rnd[] = {RND_RP, RND_RM, RND_RZ};
  int k = sass_take_of(p, modes, 3, -1);
  in->a = k < 0 ? RND_RN : rnd[k];
  in->b = (uint8_t)sass_take(p, "F64");
  sass_take(p, "F32");
  in->c = (uint8_t)sass_take(p, "FTZ");
  if (in->b) {
    sass_reg_span(p, 0, 2);
    if (in->o[1].kind == SO_REG) sass_reg_span(p, 1, 2);
  } else {
    float_imm_bits(p);
  }
  in->exec = ex_frnd;
  return 0;
}

/* DSETP.MIN|MAX.bop Pd, Pd2, a, b, Pc: Pd = "a is the result of fmin (fmax) of a and b" (a is not
 * NaN, and b is NaN or a is smaller (larger), -0 below +0); Pd2 = both are NaN */
static int ex_dsetp_minmax(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t pick = 0, nan2 = 0;
  int want_min = in->a;
  SASS_FOR_LANES(m, l) {
    double a = sass_dsrc(x, &in->o[2], l), b = sass_dsrc(x, &in->o[3], l);
    int p;
    if (isnan(a)) p = 0;
    else if (isnan(b)) p = 1;
    else if (a == b) p = signbit(a) ? want_min : !want_min;
    else p = want_min ? a < b : a > b;
    if (p) pick |= 1u << l;
    if (isnan(a) && isnan(b)) nan2 |= 1u << l;
  }
  uint32_t pc = sass_pred(x->w, in->o[4].reg, in->o[4].flags & SOF_NOT);
  sass_setp(x->w, in->o[0].reg, sass_bop(in->b, pick, pc), m);
  sass_setp(x->w, in->o[1].reg, sass_bop(in->b, nan2, pc), m);
  return 0;
}

int sass_prep_dsetp70(sass_prep *p) {
  sass_inst *in = p->in;
  int is_min = sass_take(p, "MIN"), is_max = !is_min && sass_take(p, "MAX");
  if (!is_min && !is_max) return sass_prep_dsetp(p);
  int bop;
  if (sass_shape(p, "p p r rci p") < 0 || sass_take_bop(p, &bop) < 0) return -1;
  sass_reg_span(p, 2, 2);
  if (in->o[3].kind == SO_REG) sass_reg_span(p, 3, 2);
  in->a = (uint8_t)is_min;
  in->b = (uint8_t)bop;
  in->exec = ex_dsetp_minmax;
  return 0;
}
