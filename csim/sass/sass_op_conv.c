/* Conversions between float widths (F2F), float and integer (F2I, I2F) and integer widths
 * (I2I), as PTX's cvt: float to integer rounds by the modifier (nearest even by default),
 * saturates to the integer's range and turns NaN into 0; integer to float rounds by the
 * modifier; integer narrowing truncates, or clamps with .SAT. */
#include "sass_fp.h"
#include "sass_op.h"

enum { T_U8, T_S8, T_U16, T_S16, T_U32, T_S32, T_U64, T_S64, T_F16, T_F32, T_F64, T_NTYPES };
static const char *const type_names[T_NTYPES] = {"U8",  "S8",  "U16", "S16", "U32", "S32",
                                                 "U64", "S64", "F16", "F32", "F64"};
static int type_bits(int t) {
  static const int8_t b[] = {8, 8, 16, 16, 32, 32, 64, 64, 16, 32, 64};
  return b[t];
}
static int type_signed(int t) { return t == T_S8 || t == T_S16 || t == T_S32 || t == T_S64; }

static int is_float_type(int t) { return t >= T_F16; }

/* The destination type then the source type, as sm_5x/6x listings write them (F2F.F32.F64).
 * From sm_70 F2I and I2F write only the types that are not the default (S32 and F32), so which
 * is which follows from the kind of instruction (float_dst: I2F). */
static int take_types(sass_prep *p, int *dst, int *src) {
  const char *mn = p->in->mtext;
  if (p->sm >= 70 && (!strcmp(mn, "F2I") || !strcmp(mn, "I2F"))) {
    int float_dst = mn[0] == 'I', t1 = sass_take_of(p, type_names, T_NTYPES, -1);
    int t2 = t1 < 0 ? -1 : sass_take_of(p, type_names, T_NTYPES, -1);
    *dst = float_dst ? T_F32 : T_S32;
    *src = float_dst ? T_S32 : T_F32;
    for (int i = 0; i < 2; i++) {
      int t = i ? t2 : t1;
      if (t < 0) continue;
      if (is_float_type(t) == float_dst) *dst = t;
      else *src = t;
    }
  } else {
    *dst = sass_take_of(p, type_names, T_NTYPES, -1);
    *src = sass_take_of(p, type_names, T_NTYPES, -1);
  }
  if (*dst < 0 || *src < 0) return sass_bad(p, "expected a destination and a source type");
  if (type_bits(*dst) == 64) sass_reg_span(p, 0, 2);
  if (type_bits(*src) == 64 && p->in->o[1].kind == SO_REG) sass_reg_span(p, 1, 2);
  return 0;
}

/* .RN .RZ .RM .RP or, for rounding to an integer, .ROUND .TRUNC .FLOOR .CEIL */
static int take_rounding(sass_prep *p, int *to_int) {
  static const char *const r[] = {"RN", "RZ", "RM", "RP", "ROUND", "TRUNC", "FLOOR", "CEIL"};
  int i = sass_take_of(p, r, 8, -1);
  *to_int = i >= 4;
  return i < 0 ? RND_RN : i % 4;
}

/* IEEE binary16 from and to double (round to nearest even), by hand so that no host half
 * type is needed */
static double half_to_double(uint32_t h) {
  int s = h >> 15 & 1, e = h >> 10 & 0x1f, f = h & 0x3ff;
  double v = e == 0 ? ldexp(f, -24) : e == 31 ? (f ? NAN : INFINITY) : ldexp(f | 0x400, e - 25);
  return s ? -v : v;
}
static uint32_t double_to_half(double v) {
  uint32_t s = signbit(v) ? 0x8000u : 0;
  v = fabs(v);
  if (isnan(v)) return 0x7fff;
  if (v >= 65520.0) return s | 0x7c00; /* rounds to infinity */
  if (v < ldexp(1, -14)) return s | (uint32_t)nearbyint(v * ldexp(1, 24)); /* denormal or 0 */
  int e;
  double m = frexp(v, &e); /* v = m * 2^e, m in [0.5, 1) */
  uint32_t mant = (uint32_t)nearbyint(m * 2048.0); /* 11 significant bits */
  if (mant == 2048) mant = 1024, e++;
  return s | (uint32_t)(e + 14) << 10 | (mant & 0x3ff);
}

static double fread_t(sass_ctx *x, const sass_opnd *o, int l, int t) {
  if (t == T_F64) return sass_dsrc(x, o, l);
  if (t == T_F32) return sass_fsrc(x, o, l, 0);
  double v = half_to_double(sass_src(x, o, l) & 0xffff);
  if (o->flags & SOF_ABS) v = fabs(v);
  return (o->flags & SOF_NEG) ? -v : v;
}

#define F_FTZ 0x01
#define F_SAT 0x02
#define F_TOINT 0x04

static int ex_f2f(sass_ctx *x, const sass_inst *in, uint32_t m) {
  int dst = in->b, src = in->c;
  SASS_FOR_LANES(m, l) {
    double v = fread_t(x, &in->o[1], l, src);
    if ((in->f & F_FTZ) && src == T_F32) v = sass_ftz((float)v);
    if (in->f & F_TOINT) v = sass_round_int(v, in->a);
    if (dst == T_F64) {
      sass_wr64(x, in->o[0].reg, l, sass_dbits(v));
      continue;
    }
    if (dst == T_F16) {
      sass_wr(x, in->o[0].reg, l, double_to_half(v));
      continue;
    }
    float f = (float)v; /* to nearest even */
    if (src == T_F64 && in->a != RND_RN && !(in->f & F_TOINT)) {
      /* narrowing in a directed mode: step to the neighbour if the nearest went the wrong way */
      if (in->a == RND_RZ && fabs((double)f) > fabs(v)) f = nextafterf(f, 0.0f);
      if (in->a == RND_RM && (double)f > v) f = nextafterf(f, -INFINITY);
      if (in->a == RND_RP && (double)f < v) f = nextafterf(f, INFINITY);
    }
    if (in->f & F_FTZ) f = sass_ftz(f);
    if (in->f & F_SAT) f = sass_fsat(f);
    sass_wr(x, in->o[0].reg, l, sass_fbits(f));
  }
  return 0;
}

int sass_prep_f2f(sass_prep *p) {
  int dst, src, to_int;
  if (sass_shape(p, "r rci") < 0 || take_types(p, &dst, &src) < 0) return -1;
  if (dst < T_F16 || src < T_F16) return sass_bad(p, "expected float types");
  p->in->a = (uint8_t)take_rounding(p, &to_int);
  p->in->b = (uint8_t)dst;
  p->in->c = (uint8_t)src;
  p->in->f = (sass_take(p, "FTZ") ? F_FTZ : 0) | (sass_take(p, "SAT") ? F_SAT : 0) |
             (to_int ? F_TOINT : 0);
  p->in->exec = ex_f2f;
  return 0;
}

static int64_t clamp_int(double v, int t) {
  if (isnan(v)) return 0;
  int bits = type_bits(t);
  double lo = type_signed(t) ? -ldexp(1, bits - 1) : 0;
  double hi = type_signed(t) ? ldexp(1, bits - 1) - 1 : ldexp(1, bits) - 1;
  if (v <= lo) return type_signed(t) ? (int64_t)lo : 0;
  if (v >= hi) return bits == 64 && !type_signed(t) ? (int64_t)UINT64_MAX : (int64_t)hi;
  return type_signed(t) ? (int64_t)v : (int64_t)(uint64_t)v;
}

static int ex_f2i(sass_ctx *x, const sass_inst *in, uint32_t m) {
  int dst = in->b, src = in->c;
  SASS_FOR_LANES(m, l) {
    double v = fread_t(x, &in->o[1], l, src);
    if ((in->f & F_FTZ) && src == T_F32) v = sass_ftz((float)v);
    int64_t r = clamp_int(sass_round_int(v, in->a), dst);
    if (type_bits(dst) == 64) sass_wr64(x, in->o[0].reg, l, (uint64_t)r);
    else sass_wr(x, in->o[0].reg, l, (uint32_t)r);
  }
  return 0;
}

int sass_prep_f2i(sass_prep *p) {
  int dst, src, to_int;
  if (sass_shape(p, "r rci") < 0 || take_types(p, &dst, &src) < 0) return -1;
  if (dst >= T_F16 || src < T_F16) return sass_bad(p, "expected an integer and a float type");
  p->in->a = (uint8_t)take_rounding(p, &to_int);
  p->in->b = (uint8_t)dst;
  p->in->c = (uint8_t)src;
  p->in->f = sass_take(p, "FTZ") ? F_FTZ : 0;
  sass_take(p, "NTZ"); /* NaN to zero: what every conversion here does (PTX cvt) */
  p->in->exec = ex_f2i;
  return 0;
}

/* an integer source of type t, from the byte or half the operand's .B/.H1 selects */
static int64_t iread_t(sass_ctx *x, const sass_opnd *o, int l, int t) {
  if (type_bits(t) == 64) return (int64_t)sass_src64(x, o, l); /* U64: the caller reinterprets */
  uint32_t v = sass_src(x, o, l);
  if (o->flags & SOF_B) v >>= 8 * (o->bsel & 3);
  if (o->flags & SOF_H1) v >>= 16;
  int bits = type_bits(t);
  if (bits < 32) v &= (1u << bits) - 1;
  int64_t r = type_signed(t) ? (int64_t)((int32_t)(v << (32 - bits)) >> (32 - bits)) : (int64_t)v;
  if (o->flags & SOF_ABS) r = r < 0 ? -r : r;
  if (o->flags & SOF_NEG) r = -r;
  return r;
}

static int ex_i2f(sass_ctx *x, const sass_inst *in, uint32_t m) {
  int dst = in->b, src = in->c;
  SASS_FOR_LANES(m, l) {
    int64_t iv = iread_t(x, &in->o[1], l, src);
    /* the exact value as long double (64-bit mantissa on x86), then rounded once */
    long double v = src == T_U64 ? (long double)(uint64_t)iv : (long double)iv;
    if (dst == T_F64) {
      double r = (double)v; /* to nearest even */
      if (in->a != RND_RN) {
        if (in->a == RND_RZ && fabsl((long double)r) > fabsl(v)) r = nextafter(r, 0.0);
        if (in->a == RND_RM && (long double)r > v) r = nextafter(r, -INFINITY);
        if (in->a == RND_RP && (long double)r < v) r = nextafter(r, INFINITY);
      }
      sass_wr64(x, in->o[0].reg, l, sass_u64(r));
      continue;
    }
    float r = (float)v;
    if (in->a == RND_RZ && fabsl((long double)r) > fabsl(v)) r = nextafterf(r, 0.0f);
    if (in->a == RND_RM && (long double)r > v) r = nextafterf(r, -INFINITY);
    if (in->a == RND_RP && (long double)r < v) r = nextafterf(r, INFINITY);
    sass_wr(x, in->o[0].reg, l, dst == T_F16 ? double_to_half(r) : sass_u32(r));
  }
  return 0;
}

int sass_prep_i2f(sass_prep *p) {
  int dst, src, to_int;
  if (sass_shape(p, "r rci") < 0 || take_types(p, &dst, &src) < 0) return -1;
  if (dst < T_F16 || src >= T_F16) return sass_bad(p, "expected a float and an integer type");
  p->in->a = (uint8_t)take_rounding(p, &to_int);
  if (to_int) return sass_bad(p, "expected .RN, .RZ, .RM or .RP");
  p->in->b = (uint8_t)dst;
  p->in->c = (uint8_t)src;
  p->in->exec = ex_i2f;
  return 0;
}

static int ex_i2i(sass_ctx *x, const sass_inst *in, uint32_t m) {
  int dst = in->b, src = in->c, bits = type_bits(dst);
  sass_ccacc cc = {0};
  SASS_FOR_LANES(m, l) {
    int64_t v = iread_t(x, &in->o[1], l, src);
    if (in->f & F_SAT) {
      int64_t lo = type_signed(dst) ? -((int64_t)1 << (bits - 1)) : 0;
      int64_t hi = type_signed(dst) ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
      if (bits < 64) v = v < lo ? lo : v > hi ? hi : v;
    }
    if (bits < 32) {
      uint32_t u = (uint32_t)v & ((1u << bits) - 1);
      if (type_signed(dst) && (u >> (bits - 1) & 1)) u |= ~((1u << bits) - 1);
      v = u;
    }
    if (bits == 64) sass_wr64(x, in->o[0].reg, l, (uint64_t)v);
    else sass_wr(x, in->o[0].reg, l, (uint32_t)v);
    sass_cc_lane(&cc, l, 0, v == 0, bits == 64 ? (uint64_t)v >> 63 : (uint32_t)v >> 31, 0);
  }
  /* I2I.S32.S32 RZ.CC, R: nvcc's test of a sign (CSETP.SFT) */
  if (in->o[0].flags & SOF_CC) sass_cc_store(x->w, &cc, m);
  return 0;
}

int sass_prep_i2i(sass_prep *p) {
  p->cc_ok = 1;
  int dst, src;
  if (sass_shape(p, "r rci") < 0 || take_types(p, &dst, &src) < 0) return -1;
  if (dst >= T_F16 || src >= T_F16) return sass_bad(p, "expected integer types");
  p->in->b = (uint8_t)dst;
  p->in->c = (uint8_t)src;
  p->in->f = sass_take(p, "SAT") ? F_SAT : 0;
  p->in->exec = ex_i2i;
  return 0;
}
