/* Single-precision arithmetic, compares and the special function unit. Arithmetic is IEEE 754
 * binary32 in the instruction's rounding mode (FFMA fused), with .FTZ flushing denormal inputs
 * and results and .SAT clamping to [0, 1], as PTX defines add/mul/fma.f32. MUFU is the
 * correctly rounded host function: the GPU's unit is an approximation within a few ulp (PTX
 * ex2/lg2/rcp/rsqrt/sin/cos .approx), so results may differ from a GPU's in the last bits. */
#include "sass_fp.h"
#include "sass_op.h"

#define F_FTZ 0x01
#define F_SAT 0x02
#define F_FMZ 0x04 /* 0 * anything is 0, infinities and NaN included */

static int take_rnd(sass_prep *p) {
  static const char *const r[] = {"RN", "RZ", "RM", "RP"};
  return sass_take_of(p, r, 4, RND_RN);
}

/* A float immediate written as a number becomes its binary32 bits, so that instructions that
 * move an operand unchanged (FCMP) and those that compute with it read the same value. */
static void float_imms(sass_prep *p) {
  for (int i = 0; i < p->in->nops; i++) {
    sass_opnd *o = &p->in->o[i];
    if (o->kind != SO_IMM || !(o->flags & SOF_FLOATTXT)) continue;
    o->ival = (int64_t)sass_u32((float)o->fval);
    o->flags &= (uint16_t)~SOF_FLOATTXT;
  }
}

static float finish(const sass_inst *in, float r) {
  if (in->f & F_FTZ) r = sass_ftz(r);
  if (in->f & F_SAT) r = sass_fsat(r);
  return r;
}

static int ex_fadd(sass_ctx *x, const sass_inst *in, uint32_t m) {
  int ftz = in->f & F_FTZ;
  SASS_FOR_LANES(m, l) {
    float r = sass_fadd_r(sass_fsrc(x, &in->o[1], l, ftz), sass_fsrc(x, &in->o[2], l, ftz), in->a);
    sass_wr(x, in->o[0].reg, l, sass_fbits(finish(in, r)));
  }
  return 0;
}

/* FMUL's .D2/.D4/.D8/.M2/.M4/.M8 scale the product by a power of two */
static int ex_fmul(sass_ctx *x, const sass_inst *in, uint32_t m) {
  int ftz = in->f & F_FTZ;
  SASS_FOR_LANES(m, l) {
    float a = sass_fsrc(x, &in->o[1], l, ftz), b = sass_fsrc(x, &in->o[2], l, ftz);
    if ((in->f & F_FMZ) && (a == 0 || b == 0)) a = b = 0;
    float r = sass_fmul_r(a, b, in->a);
    if (in->k) r = ldexpf(r, in->k);
    sass_wr(x, in->o[0].reg, l, sass_fbits(finish(in, r)));
  }
  return 0;
}

static int ex_ffma(sass_ctx *x, const sass_inst *in, uint32_t m) {
  int ftz = in->f & F_FTZ;
  SASS_FOR_LANES(m, l) {
    float a = sass_fsrc(x, &in->o[1], l, ftz), b = sass_fsrc(x, &in->o[2], l, ftz);
    if ((in->f & F_FMZ) && (a == 0 || b == 0)) a = b = 0;
    float r = sass_ffma_r(a, b, sass_fsrc(x, &in->o[3], l, ftz), in->a);
    sass_wr(x, in->o[0].reg, l, sass_fbits(finish(in, r)));
  }
  return 0;
}

static int prep_farith(sass_prep *p, const char *spec, sass_exec_fn fn) {
  sass_inst *in = p->in;
  if (sass_shape(p, spec) < 0) return -1;
  float_imms(p);
  in->a = (uint8_t)take_rnd(p);
  in->f = (sass_take(p, "FTZ") ? F_FTZ : 0) | (sass_take(p, "SAT") ? F_SAT : 0);
  if (sass_take(p, "FMZ")) in->f |= F_FMZ;
  in->exec = fn;
  return 0;
}

int sass_prep_fadd(sass_prep *p) {
  int imm = !strcmp(p->in->mtext, "FADD32I");
  return prep_farith(p, imm ? "r r i" : "r r rci", ex_fadd);
}

int sass_prep_fmul(sass_prep *p) {
  int imm = !strcmp(p->in->mtext, "FMUL32I");
  if (prep_farith(p, imm ? "r r i" : "r r rci", ex_fmul) < 0) return -1;
  static const char *const sc[] = {"D2", "D4", "D8", "M2", "M4", "M8"};
  static const int8_t exp2s[] = {-1, -2, -3, 1, 2, 3};
  int s = sass_take_of(p, sc, 6, -1);
  p->in->k = s < 0 ? 0 : exp2s[s];
  return 0;
}

int sass_prep_ffma(sass_prep *p) {
  int imm = !strcmp(p->in->mtext, "FFMA32I");
  return prep_farith(p, imm ? "r r i r" : "r r rci rci", ex_ffma);
}

/* FMNMX d, a, b, P: minimum where P holds, else maximum; a NaN operand yields the other, and
 * -0 is below +0 (PTX min/max.f32) */
static int ex_fmnmx(sass_ctx *x, const sass_inst *in, uint32_t m) {
  int ftz = in->f & F_FTZ;
  uint32_t pc = sass_pred(x->w, in->o[3].reg, in->o[3].flags & SOF_NOT);
  SASS_FOR_LANES(m, l) {
    float a = sass_fsrc(x, &in->o[1], l, ftz), b = sass_fsrc(x, &in->o[2], l, ftz), r;
    int want_min = pc >> l & 1;
    if (isnan(a)) r = b;
    else if (isnan(b)) r = a;
    else if (a == b) r = (signbit(a) == want_min) ? a : b; /* min(-0,+0) = -0 */
    else r = ((a < b) == want_min) ? a : b;
    sass_wr(x, in->o[0].reg, l, sass_fbits(r));
  }
  return 0;
}

int sass_prep_fmnmx(sass_prep *p) {
  if (sass_shape(p, "r r rci p") < 0) return -1;
  float_imms(p);
  p->in->f = sass_take(p, "FTZ") ? F_FTZ : 0;
  p->in->exec = ex_fmnmx;
  return 0;
}

static uint32_t fcmp_lanes(sass_ctx *x, const sass_inst *in, const sass_opnd *oa,
                           const sass_opnd *ob, uint32_t m) {
  int ftz = in->f & F_FTZ;
  uint32_t t = 0;
  SASS_FOR_LANES(m, l)
    if (sass_fcmp(in->a, sass_fsrc(x, oa, l, ftz), sass_fsrc(x, ob, l, ftz))) t |= 1u << l;
  return t;
}

static int ex_fsetp(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t t = fcmp_lanes(x, in, &in->o[2], &in->o[3], m);
  uint32_t pc = sass_pred(x->w, in->o[4].reg, in->o[4].flags & SOF_NOT);
  sass_setp(x->w, in->o[0].reg, sass_bop(in->b, t, pc), m);
  sass_setp(x->w, in->o[1].reg, sass_bop(in->b, ~t, pc), m);
  return 0;
}

static int prep_fcompare(sass_prep *p, const char *spec, int has_bop, int dflt, sass_exec_fn fn) {
  int cmp, bop = BOP_AND;
  if (sass_shape(p, spec) < 0 || sass_take_cmp_or(p, 1, dflt, &cmp) < 0) return -1;
  float_imms(p);
  if (has_bop && sass_take_bop(p, &bop) < 0) return -1;
  p->in->a = (uint8_t)cmp;
  p->in->b = (uint8_t)bop;
  p->in->f = sass_take(p, "FTZ") ? F_FTZ : 0;
  p->in->exec = fn;
  return 0;
}

int sass_prep_fsetp(sass_prep *p) { return prep_fcompare(p, "p p r rci p", 1, -1, ex_fsetp); }

/* FSET d, a, b, Pc: all ones (1.0 with .BF) where the compare holds. With d.CC the condition
 * code is that of the 32-bit result, as LOP sets it: zero flag for a false compare, sign flag for
 * all ones, carry and overflow clear (nvcc's division slow path: FSET.NEU RZ.CC, |x|, +INF, then
 * BRA CC.EQ where x is infinite). */
static int ex_fset(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t t = fcmp_lanes(x, in, &in->o[1], &in->o[2], m);
  uint32_t res = sass_bop(in->b, t, sass_pred(x->w, in->o[3].reg, in->o[3].flags & SOF_NOT));
  sass_ccacc cc = {0, 0, 0, 0};
  SASS_FOR_LANES(m, l) {
    uint32_t r = (res >> l & 1) ? (uint32_t)in->k : 0;
    sass_cc_lane(&cc, l, 0, r == 0, r >> 31, 0);
    sass_wr(x, in->o[0].reg, l, r);
  }
  if (in->o[0].flags & SOF_CC) sass_cc_store(x->w, &cc, m);
  return 0;
}

int sass_prep_fset(sass_prep *p) {
  if (prep_fcompare(p, "r r rci p", 1, -1, ex_fset) < 0) return -1;
  p->in->k = sass_take(p, "BF") ? 0x3f800000 : -1;
  p->cc_ok = 1;
  return 0;
}

/* FCMP d, a, b, c: a where `c cmp 0.0` holds, else b */
static int ex_fcmp(sass_ctx *x, const sass_inst *in, uint32_t m) {
  static const sass_opnd zero = {.kind = SO_IMM}; /* the bits of +0.0 */
  uint32_t t = fcmp_lanes(x, in, &in->o[3], &zero, m);
  SASS_FOR_LANES(m, l) sass_wr(x, in->o[0].reg, l, sass_src(x, &in->o[(t >> l & 1) ? 1 : 2], l));
  return 0;
}

/* cuobjdump 11.8 prints FCMP's greater-than (comparison field 4) as no modifier at all, and
 * only FCMP's: FCMP R11, R0, R6, R7 is c > 0 ? a : b */
int sass_prep_fcmp(sass_prep *p) { return prep_fcompare(p, "r r rci r", 0, CMP_GT, ex_fcmp); }

/* FCHK.DIVIDE P, a, b: whether a / b must take nvcc's exact slow path. Set for zero,
 * denormal, infinite or NaN operands and for exponent gaps where the fast path's reciprocal or
 * product could overflow or become denormal. The slow path is exact, so setting it more often
 * than a GPU would changes the trace, never the quotient. */
static int ex_fchk(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t t = 0;
  SASS_FOR_LANES(m, l) {
    uint32_t a = sass_src(x, &in->o[1], l), b = sass_src(x, &in->o[2], l);
    int ea = (int)(a >> 23 & 0xff), eb = (int)(b >> 23 & 0xff);
    if (ea == 0 || ea >= 254 || eb == 0 || eb >= 253 || ea - eb >= 126 || ea - eb <= -126)
      t |= 1u << l;
  }
  sass_setp(x->w, in->o[0].reg, t, m);
  return 0;
}

int sass_prep_fchk(sass_prep *p) {
  if (sass_shape(p, "p r rci") < 0) return -1;
  float_imms(p); /* FCHK.DIVIDE P0, R0, 255: the divisor's exponent, not the integer's bits */
  if (!sass_take(p, "DIVIDE") && p->sm < 70) return sass_bad(p, "expected .DIVIDE");
  p->in->exec = ex_fchk;
  return 0;
}

enum { MU_COS, MU_SIN, MU_EX2, MU_LG2, MU_RCP, MU_RSQ, MU_RCP64H, MU_RSQ64H, MU_SQRT };
/* From sm_70 there is no RRO: MUFU.SIN and COS take the angle in turns (the code multiplies by
 * 1/(2 pi) first), so the argument is scaled back here (in double, to keep the product exact
 * enough); before, RRO's output (modelled as the angle itself) is their input. */
static float mufu(int op, float a, int turns) {
  double angle = turns ? (double)a * 6.283185307179586476925 : (double)a;
  switch (op) {
  case MU_COS: return (float)cos(angle);
  case MU_SIN: return (float)sin(angle);
  case MU_EX2: return exp2f(a);
  case MU_LG2: return log2f(a);
  case MU_RCP: return 1.0f / a;
  case MU_RSQ: return 1.0f / sqrtf(a);
  }
  return sqrtf(a);
}

/* RCP64H/RSQ64H take the high word of a double and give the high word of the result: the seed
 * of nvcc's double division and square root iterations */
static uint32_t mufu64h(int op, uint32_t hi) {
  double v = sass_f64((uint64_t)hi << 32);
  double r = op == MU_RCP64H ? 1.0 / v : 1.0 / sqrt(v);
  return isnan(r) ? 0xfff80000u : (uint32_t)(sass_u64(r) >> 32);
}

static int ex_mufu(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) {
    uint32_t r;
    if (in->a == MU_RCP64H || in->a == MU_RSQ64H) {
      r = mufu64h(in->a, sass_src(x, &in->o[1], l));
    } else {
      float f = mufu(in->a, sass_fsrc(x, &in->o[1], l, 0), in->b);
      r = sass_fbits((in->f & F_SAT) ? sass_fsat(f) : f);
    }
    sass_wr(x, in->o[0].reg, l, r);
  }
  return 0;
}

int sass_prep_mufu(sass_prep *p) {
  static const char *const ops[] = {"COS", "SIN", "EX2", "LG2", "RCP",
                                    "RSQ", "RCP64H", "RSQ64H", "SQRT"};
  if (sass_shape(p, "r rci") < 0) return -1;
  int op = sass_take_of(p, ops, 9, -1);
  if (op < 0) return sass_bad(p, "expected a function (.SIN ... .SQRT)");
  sass_opnd *src = &p->in->o[1];
  if ((op == MU_RCP64H || op == MU_RSQ64H) && src->kind == SO_IMM &&
      (src->flags & SOF_FLOATTXT)) { /* a double written as a number: its high word */
    src->ival = (int64_t)(sass_u64(src->fval) >> 32);
    src->flags &= (uint16_t)~SOF_FLOATTXT;
  }
  float_imms(p);
  p->in->a = (uint8_t)op;
  p->in->b = (uint8_t)(p->sm >= 70); /* SIN/COS in turns */
  p->in->f = sass_take(p, "SAT") ? F_SAT : 0;
  p->in->exec = ex_mufu;
  return 0;
}

/* RRO.SINCOS / RRO.EX2: the range reduction MUFU.SIN/COS/EX2 require first. Its output only
 * ever feeds MUFU, whose model above takes the plain argument, so it passes the value on
 * (after |x| and -x). */
static int ex_rro(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) sass_wr(x, in->o[0].reg, l, sass_fbits(sass_fsrc(x, &in->o[1], l, 0)));
  return 0;
}

int sass_prep_rro(sass_prep *p) {
  if (sass_shape(p, "r rci") < 0) return -1;
  float_imms(p);
  if (!sass_take(p, "SINCOS") && !sass_take(p, "EX2"))
    return sass_bad(p, "expected .SINCOS or .EX2");
  p->in->exec = ex_rro;
  return 0;
}
