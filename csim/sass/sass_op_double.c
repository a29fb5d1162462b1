/* Double-precision arithmetic and compares on register pairs (IEEE 754 binary64 in the
 * instruction's rounding mode, DFMA fused), as PTX's add/mul/fma/min/max/setp.f64. */
#include "sass_fp.h"
#include "sass_op.h"

static int take_rnd(sass_prep *p) {
  static const char *const r[] = {"RN", "RZ", "RM", "RP"};
  return sass_take_of(p, r, 4, RND_RN);
}

/* every register operand of a double instruction is a pair */
static void pairs(sass_prep *p, int from, int to) {
  for (int i = from; i <= to && i < p->in->nops; i++)
    if (p->in->o[i].kind == SO_REG) sass_reg_span(p, i, 2);
}

static int ex_dadd(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l)
    sass_wr64(x, in->o[0].reg, l,
              sass_dbits(sass_dadd_r(sass_dsrc(x, &in->o[1], l), sass_dsrc(x, &in->o[2], l),
                                     in->a)));
  return 0;
}
static int ex_dmul(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l)
    sass_wr64(x, in->o[0].reg, l,
              sass_dbits(sass_dmul_r(sass_dsrc(x, &in->o[1], l), sass_dsrc(x, &in->o[2], l),
                                     in->a)));
  return 0;
}
static int ex_dfma(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l)
    sass_wr64(x, in->o[0].reg, l,
              sass_dbits(sass_dfma_r(sass_dsrc(x, &in->o[1], l), sass_dsrc(x, &in->o[2], l),
                                     sass_dsrc(x, &in->o[3], l), in->a)));
  return 0;
}

static int prep_darith(sass_prep *p, const char *spec, sass_exec_fn fn) {
  if (sass_shape(p, spec) < 0) return -1;
  for (int i = 0; i < p->in->nops; i++)
    if (p->in->o[i].kind == SO_IMM && !(p->in->o[i].flags & SOF_FLOATTXT))
      return sass_bad(p, "expected a double immediate written as a number");
  pairs(p, 0, 3);
  p->in->a = (uint8_t)take_rnd(p);
  p->in->exec = fn;
  return 0;
}

int sass_prep_dadd(sass_prep *p) { return prep_darith(p, "r r rci", ex_dadd); }
int sass_prep_dmul(sass_prep *p) { return prep_darith(p, "r r rci", ex_dmul); }
int sass_prep_dfma(sass_prep *p) { return prep_darith(p, "r r rci rci", ex_dfma); }

static int ex_dmnmx(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t pc = sass_pred(x->w, in->o[3].reg, in->o[3].flags & SOF_NOT);
  SASS_FOR_LANES(m, l) {
    double a = sass_dsrc(x, &in->o[1], l), b = sass_dsrc(x, &in->o[2], l), r;
    int want_min = pc >> l & 1;
    if (isnan(a)) r = b;
    else if (isnan(b)) r = a;
    else if (a == b) r = (signbit(a) == want_min) ? a : b;
    else r = ((a < b) == want_min) ? a : b;
    sass_wr64(x, in->o[0].reg, l, sass_dbits(r));
  }
  return 0;
}

int sass_prep_dmnmx(sass_prep *p) {
  if (sass_shape(p, "r r rci p") < 0) return -1;
  pairs(p, 0, 2);
  p->in->exec = ex_dmnmx;
  return 0;
}

static int ex_dsetp(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t t = 0;
  SASS_FOR_LANES(m, l)
    if (sass_fcmp(in->a, sass_dsrc(x, &in->o[2], l), sass_dsrc(x, &in->o[3], l))) t |= 1u << l;
  uint32_t pc = sass_pred(x->w, in->o[4].reg, in->o[4].flags & SOF_NOT);
  sass_setp(x->w, in->o[0].reg, sass_bop(in->b, t, pc), m);
  sass_setp(x->w, in->o[1].reg, sass_bop(in->b, ~t, pc), m);
  return 0;
}

int sass_prep_dsetp(sass_prep *p) {
  int cmp, bop;
  if (sass_shape(p, "p p r rci p") < 0 || sass_take_cmp(p, 1, &cmp) < 0 ||
      sass_take_bop(p, &bop) < 0)
    return -1;
  pairs(p, 2, 3);
  p->in->a = (uint8_t)cmp;
  p->in->b = (uint8_t)bop;
  p->in->exec = ex_dsetp;
  return 0;
}

/* DSET d, a, b, Pc: all ones (1.0f with .BF) where the compare holds */
static int ex_dset(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t t = 0;
  SASS_FOR_LANES(m, l)
    if (sass_fcmp(in->a, sass_dsrc(x, &in->o[1], l), sass_dsrc(x, &in->o[2], l))) t |= 1u << l;
  uint32_t res = sass_bop(in->b, t, sass_pred(x->w, in->o[3].reg, in->o[3].flags & SOF_NOT));
  SASS_FOR_LANES(m, l) sass_wr(x, in->o[0].reg, l, (res >> l & 1) ? (uint32_t)in->k : 0);
  return 0;
}

int sass_prep_dset(sass_prep *p) {
  int cmp, bop;
  if (sass_shape(p, "r r rci p") < 0 || sass_take_cmp(p, 1, &cmp) < 0 ||
      sass_take_bop(p, &bop) < 0)
    return -1;
  pairs(p, 1, 2);
  p->in->a = (uint8_t)cmp;
  p->in->b = (uint8_t)bop;
  p->in->k = sass_take(p, "BF") ? 0x3f800000 : -1;
  p->in->exec = ex_dset;
  return 0;
}
