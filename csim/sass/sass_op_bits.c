/* Bitwise logic, shifts and bit fields. Shift and bit-field semantics follow PTX's shl/shr/shf/
 * bfe/bfi/bfind/prmt, which these instructions implement; out-of-range amounts clamp as PTX says
 * (shift >= 32 gives 0 or the sign; .W wraps the amount modulo 32). */
#include "sass_op.h"

#include "../common/bits.h"

#define F_PDST 0x01 /* a predicate destination comes first */
#define F_NZ 0x02   /* the predicate is result != 0 (else result == 0) */
#define F_W 0x04    /* wrap the shift amount */
#define F_U32 0x08
#define F_BREV 0x10
#define F_SH 0x20   /* FLO: the shift amount (31 - position) */
#define F_HI 0x40   /* SHF.L */
#define F_64 0x80   /* SHF: the amount may reach 63 (a 64-bit shift) */
#define F_S64 0x100 /* SHF.R.S64: arithmetic */
#define F_INV 0x200 /* LOP.INV: invert the result */

static uint32_t val(sass_ctx *x, const sass_opnd *o, int l) {
  uint32_t v = sass_src(x, o, l);
  return (o->flags & SOF_INV) ? ~v : v;
}

static int ex_lop3(sass_ctx *x, const sass_inst *in, uint32_t m);

/* the predicate output of the logic instructions, and the register result */
static void logic_out(sass_ctx *x, const sass_inst *in, uint32_t m, int d, const uint32_t *r) {
  uint32_t t = 0;
  if (in->exec == ex_lop3) t = sass_pred(x->w, in->e & 7, in->e & 8); /* sm_70's OR-ed predicate */
  sass_ccacc cc = {0};
  SASS_FOR_LANES(m, l) {
    sass_wr(x, in->o[d].reg, l, r[l]);
    if ((r[l] != 0) == !!(in->f & F_NZ)) t |= 1u << l;
    sass_cc_lane(&cc, l, 0, r[l] == 0, r[l] >> 31, 0);
  }
  if (in->f & F_PDST) sass_setp(x->w, in->o[0].reg, t, m);
  if (in->o[d].flags & SOF_CC) sass_cc_store(x->w, &cc, m); /* e.g. LOP.XOR RZ.CC: the sign */
}

enum { LOP_AND, LOP_OR, LOP_XOR, LOP_PASS_B };
static int ex_lop(sass_ctx *x, const sass_inst *in, uint32_t m) {
  int d = (in->f & F_PDST) ? 1 : 0;
  uint32_t r[SASS_WARP];
  SASS_FOR_LANES(m, l) {
    uint32_t a = val(x, &in->o[d + 1], l), b = val(x, &in->o[d + 2], l);
    uint32_t v = in->a == LOP_AND ? a & b : in->a == LOP_OR ? a | b : in->a == LOP_XOR ? a ^ b : b;
    r[l] = (in->f & F_INV) ? ~v : v;
  }
  logic_out(x, in, m, d, r);
  return 0;
}

static int take_pred_mode(sass_prep *p) {
  sass_inst *in = p->in;
  if (in->nops && in->o[0].kind == SO_PRED) in->f |= F_PDST;
  if (sass_take(p, "NZ")) in->f |= F_NZ;
  else if (!sass_take(p, "Z") && (in->f & F_PDST)) in->f |= F_NZ; /* .T: the default */
  sass_take(p, "T");
  return 0;
}

static int prep_lop_common(sass_prep *p, const char *spec_pred, const char *spec) {
  p->cc_ok = 1;
  static const char *const ops[] = {"AND", "OR", "XOR", "PASS_B"};
  sass_inst *in = p->in;
  take_pred_mode(p);
  if (sass_shape(p, (in->f & F_PDST) ? spec_pred : spec) < 0) return -1;
  int op = sass_take_of(p, ops, 4, -1);
  if (op < 0) return sass_bad(p, "expected .AND, .OR, .XOR or .PASS_B");
  in->a = (uint8_t)op;
  if (sass_take(p, "INV")) in->f |= F_INV;
  in->exec = ex_lop;
  return 0;
}

int sass_prep_lop(sass_prep *p) { return prep_lop_common(p, "p r r rci", "r r rci"); }
int sass_prep_lop32i(sass_prep *p) { return prep_lop_common(p, "p r r i", "r r i"); }

/* LOP3.LUT d, a, b, c, lut: each result bit is lut's bit (a << 2 | b << 1 | c) */
static int ex_lop3(sass_ctx *x, const sass_inst *in, uint32_t m) {
  int d = (in->f & F_PDST) ? 1 : 0;
  uint32_t lut = (uint32_t)in->k, r[SASS_WARP];
  SASS_FOR_LANES(m, l) {
    uint32_t a = val(x, &in->o[d + 1], l), b = val(x, &in->o[d + 2], l),
             c = val(x, &in->o[d + 3], l), v = 0;
    for (int i = 0; i < 8; i++) {
      if (!(lut >> i & 1)) continue;
      uint32_t t = ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
      v |= t;
    }
    r[l] = v;
  }
  logic_out(x, in, m, d, r);
  return 0;
}

/* sm_70 adds a last predicate operand, always !PT in nvcc's code; taken as OR-ed into the
 * predicate result (with !PT, the result is the value's test alone) */
int sass_prep_lop3(sass_prep *p) {
  p->cc_ok = 1;
  sass_inst *in = p->in;
  take_pred_mode(p);
  if (sass_shape(p, (in->f & F_PDST) ? "p r r rci r i ?p" : "r r rci r i ?p") < 0) return -1;
  if (!sass_take(p, "LUT")) return sass_bad(p, "expected .LUT");
  if (in->o[in->nops - 1].kind == SO_PRED) {
    in->e = (uint8_t)(in->o[in->nops - 1].reg | ((in->o[in->nops - 1].flags & SOF_NOT) ? 8 : 0));
    in->nops--;
  } else {
    in->e = SASS_PT | 8; /* !PT */
  }
  if (in->o[in->nops - 1].kind != SO_IMM) return sass_bad(p, "expected the LUT immediate");
  in->k = (int32_t)in->o[in->nops - 1].ival & 0xff;
  in->nops--;
  in->exec = ex_lop3;
  return 0;
}

/* SHL d, a, s; SHR d, a, s (arithmetic unless .U32) */
static int ex_shl(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) {
    uint32_t a = sass_src(x, &in->o[1], l), s = sass_src(x, &in->o[2], l);
    if (in->f & F_W) s &= 31;
    sass_wr(x, in->o[0].reg, l, s >= 32 ? 0 : a << s);
  }
  return 0;
}

static uint32_t brev32(uint32_t v) {
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
  v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
  return (v >> 16) | (v << 16);
}

static int ex_shr(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) {
    uint32_t a = sass_src(x, &in->o[1], l), s = sass_src(x, &in->o[2], l), r;
    if (in->f & F_BREV) a = brev32(a);
    if (in->f & F_W) s &= 31;
    if (in->f & F_U32) r = s >= 32 ? 0 : a >> s;
    else r = (uint32_t)((int32_t)a >> (s >= 32 ? 31 : s));
    sass_wr(x, in->o[0].reg, l, r);
  }
  return 0;
}

int sass_prep_shl(sass_prep *p) {
  if (sass_shape(p, "r r rci") < 0) return -1;
  p->in->f = sass_take(p, "W") ? F_W : 0;
  p->in->exec = ex_shl;
  return 0;
}

int sass_prep_shr(sass_prep *p) {
  if (sass_shape(p, "r r rci") < 0) return -1;
  p->in->f = (sass_take(p, "W") ? F_W : 0) | (sass_take(p, "U32") ? F_U32 : 0) |
             (sass_take(p, "BREV") ? F_BREV : 0);
  sass_take(p, "S32");
  p->in->exec = ex_shr;
  return 0;
}

/* SHF.L d, lo, s, hi: the high word of (hi:lo) << s. SHF.R d, lo, s, hi: the low word of
 * (hi:lo) >> s. The amount wraps (.W), or clamps at 32, or with a 64-bit type at 64 (0, or the
 * sign for .S64). */
static int ex_shf(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) {
    uint64_t v = (uint64_t)sass_src(x, &in->o[3], l) << 32 | sass_src(x, &in->o[1], l);
    uint32_t s = sass_src(x, &in->o[2], l), r;
    if (in->f & F_W) s &= (in->f & F_64) ? 63 : 31;
    uint32_t lim = (in->f & F_64) ? 64 : 32;
    if (s > lim) s = lim;
    if (in->f & F_HI) {
      r = s >= 64 ? 0 : (uint32_t)((v << s) >> 32);
    } else if (in->f & F_S64) {
      r = (uint32_t)((int64_t)v >> (s >= 64 ? 63 : s));
    } else {
      r = s >= 64 ? 0 : (uint32_t)(v >> s);
    }
    sass_wr(x, in->o[0].reg, l, r);
  }
  return 0;
}

int sass_prep_shf(sass_prep *p) {
  sass_inst *in = p->in;
  if (sass_shape(p, "r r rci rc") < 0) return -1;
  int left = sass_take(p, "L");
  if (!left && !sass_take(p, "R")) return sass_bad(p, "expected .L or .R");
  in->f = (left ? F_HI : 0) | (sass_take(p, "W") ? F_W : 0);
  if (sass_take(p, "U64")) in->f |= F_64;
  else if (sass_take(p, "S64")) in->f |= F_64 | F_S64;
  else if (!sass_take(p, "U32")) sass_take(p, "S32");
  sass_take(p, "HI");
  in->exec = ex_shf;
  return 0;
}

/* BFE d, a, b: the field of b's length (bits 8-15) at b's position (bits 0-7), sign-extended
 * unless .U32 (PTX bfe); .BREV reverses a first */
static int ex_bfe(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) {
    uint32_t a = sass_src(x, &in->o[1], l), b = sass_src(x, &in->o[2], l);
    if (in->f & F_BREV) a = brev32(a);
    uint32_t pos = b & 0xff, len = (b >> 8) & 0xff, r = 0;
    int sbit = 0;
    if (!(in->f & F_U32) && len) sbit = (int)(a >> (pos + len - 1 > 31 ? 31 : pos + len - 1) & 1);
    for (uint32_t i = 0; i < 32; i++) {
      int bit = (i < len && pos + i <= 31) ? (int)(a >> (pos + i) & 1) : sbit;
      r |= (uint32_t)bit << i;
    }
    sass_wr(x, in->o[0].reg, l, r);
  }
  return 0;
}

int sass_prep_bfe(sass_prep *p) {
  if (sass_shape(p, "r r rci") < 0) return -1;
  p->in->f = (sass_take(p, "U32") ? F_U32 : 0) | (sass_take(p, "BREV") ? F_BREV : 0);
  sass_take(p, "S32");
  p->in->exec = ex_bfe;
  return 0;
}

/* BFI d, a, b, c: c with a's low bits inserted at b's position and length (PTX bfi) */
static int ex_bfi(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) {
    uint32_t a = sass_src(x, &in->o[1], l), b = sass_src(x, &in->o[2], l),
             c = sass_src(x, &in->o[3], l);
    uint32_t pos = b & 0xff, len = (b >> 8) & 0xff, r = c;
    for (uint32_t i = 0; i < len && pos + i <= 31; i++)
      r = (r & ~(1u << (pos + i))) | ((a >> i & 1) << (pos + i));
    sass_wr(x, in->o[0].reg, l, r);
  }
  return 0;
}

int sass_prep_bfi(sass_prep *p) {
  if (sass_shape(p, "r r rci rc") < 0) return -1;
  p->in->exec = ex_bfi;
  return 0;
}

/* FLO d, a: the position of the most significant 1 (of the first bit differing from the sign
 * for signed values), 0xffffffff if none; .SH gives 31 - position (PTX bfind) */
static int ex_flo(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) {
    uint32_t a = val(x, &in->o[1], l);
    if (!(in->f & F_U32) && (a >> 31)) a = ~a;
    uint32_t r = a ? (uint32_t)(31 - __builtin_clz(a)) : 0xffffffffu;
    if ((in->f & F_SH) && a) r = 31 - r;
    sass_wr(x, in->o[0].reg, l, r);
  }
  return 0;
}

int sass_prep_flo(sass_prep *p) {
  if (sass_shape(p, "r rci") < 0) return -1;
  p->in->f = (sass_take(p, "U32") ? F_U32 : 0) | (sass_take(p, "SH") ? F_SH : 0);
  sass_take(p, "S32");
  p->in->exec = ex_flo;
  return 0;
}

static int ex_popc(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) {
    uint32_t a = val(x, &in->o[1], l);
    if (in->nops == 3) a &= val(x, &in->o[2], l);
    sass_wr(x, in->o[0].reg, l, (uint32_t)rf_popcount32(a));
  }
  return 0;
}

int sass_prep_popc(sass_prep *p) {
  if (sass_shape(p, "r rci ?rci") < 0) return -1;
  p->in->exec = ex_popc;
  return 0;
}

/* PRMT d, a, sel, b: byte i of d is byte (sel nibble i & 7) of b:a, replicating that byte's
 * sign when the nibble's bit 3 is set (PTX prmt, default mode) */
static int ex_prmt(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) {
    uint64_t src = (uint64_t)sass_src(x, &in->o[3], l) << 32 | sass_src(x, &in->o[1], l);
    uint32_t sel = sass_src(x, &in->o[2], l), r = 0;
    for (int i = 0; i < 4; i++) {
      uint32_t n = sel >> (4 * i) & 0xf;
      uint32_t byte = (uint32_t)(src >> (8 * (n & 7))) & 0xff;
      if (n & 8) byte = (byte & 0x80) ? 0xff : 0;
      r |= byte << (8 * i);
    }
    sass_wr(x, in->o[0].reg, l, r);
  }
  return 0;
}

int sass_prep_prmt(sass_prep *p) {
  if (sass_shape(p, "r r rci rc") < 0) return -1;
  p->in->exec = ex_prmt;
  return 0;
}

/* Video instructions on whole 32-bit words (the forms nvcc emits for __sad and min/max chains):
 * VABSDIFF d, a, b, c: |a - b|, plus c with .ACC; VMNMX d, a, b, c: min (.MN) or max (.MX) of a
 * and b, then with .ACC plus c, or with a second .MN/.MX that operation with c. Types: a and b
 * signed (.S32) or unsigned (.U32, the default); .SD marks a signed destination. */
#define F_ACC 0x400
#define F_SA 0x800
#define F_SB 0x1000
enum { V_NONE, V_MN, V_MX };
static int64_t vsrc(sass_ctx *x, const sass_opnd *o, int l, int sgn) {
  uint32_t v = sass_src(x, o, l);
  return sgn ? (int64_t)(int32_t)v : (int64_t)v;
}

static int ex_vabsdiff(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) {
    int64_t a = vsrc(x, &in->o[1], l, in->f & F_SA), b = vsrc(x, &in->o[2], l, in->f & F_SB);
    int64_t r = a > b ? a - b : b - a;
    if (in->f & F_ACC) r += (int64_t)sass_src(x, &in->o[3], l);
    sass_wr(x, in->o[0].reg, l, (uint32_t)r);
  }
  return 0;
}

static int ex_vmnmx(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) {
    int sgn = in->f & (F_SA | F_SB);
    int64_t a = vsrc(x, &in->o[1], l, in->f & F_SA), b = vsrc(x, &in->o[2], l, in->f & F_SB);
    int64_t r = in->a == V_MN ? (a < b ? a : b) : (a > b ? a : b);
    int64_t c = vsrc(x, &in->o[3], l, sgn);
    if (in->f & F_ACC) r += c;
    else if (in->b == V_MN) r = r < c ? r : c;
    else if (in->b == V_MX) r = r > c ? r : c;
    sass_wr(x, in->o[0].reg, l, (uint32_t)r);
  }
  return 0;
}

static int prep_video_types(sass_prep *p) {
  sass_inst *in = p->in;
  static const char *const types[] = {"U32", "S32"};
  int ta = sass_take_of(p, types, 2, 0), tb = sass_take_of(p, types, 2, ta);
  in->f |= (ta ? F_SA : 0) | (tb ? F_SB : 0);
  if (sass_take(p, "SD")) in->f |= F_SA | F_SB;
  if (sass_take(p, "ACC")) in->f |= F_ACC;
  return 0;
}

/* sm_70 writes __sad as a plain VABSDIFF d, a, b, c: signed words, c added */
int sass_prep_vabsdiff(sass_prep *p) {
  if (sass_shape(p, "r r rci r") < 0 || prep_video_types(p) < 0) return -1;
  if (p->sm >= 70 && p->in->nmods == 0) p->in->f |= F_SA | F_SB | F_ACC;
  p->in->exec = ex_vabsdiff;
  return 0;
}

int sass_prep_vmnmx(sass_prep *p) {
  sass_inst *in = p->in;
  if (sass_shape(p, "r r rci r") < 0 || prep_video_types(p) < 0) return -1;
  static const char *const ops[] = {"MN", "MX"};
  int first = sass_take_of(p, ops, 2, -1);
  if (first < 0) return sass_bad(p, "expected .MN or .MX");
  in->a = (uint8_t)(first + 1);
  in->b = (uint8_t)(sass_take_of(p, ops, 2, -1) + 1);
  in->exec = ex_vmnmx;
  return 0;
}
