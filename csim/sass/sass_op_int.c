/* Integer arithmetic, compares and selects. Semantics: envytools' Maxwell ISA notes (XMAD,
 * IADD3), PTX's definitions of the operations these implement (add.cc/addc, setp, slct, min/max),
 * and, for every one, test kernels compiled by nvcc whose results the host checks. */
#include "sass_op.h"

/* instruction flags (in->f) */
#define F_X 0x01    /* add the carry flag */
#define F_SAT 0x02
#define F_U32 0x04
#define F_PO 0x08   /* plus one */
#define F_HI 0x10   /* LEA.HI */
#define F_PDST 0x20 /* the first operand is a predicate destination */

static int cc_dst(const sass_inst *in) { return in->o[0].flags & SOF_CC; }

/* --- IADD / IADD32I ------------------------------------------------------------------------
 * d = a + b (+ carry with .X). A negated operand is its two's complement, or its one's
 * complement when the carry chains in (.X): subc = a + ~b + C, as PTX's sub.cc/subc pair. */
static int ex_iadd(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_ccacc cc = {0};
  const sass_opnd *oa = &in->o[1], *ob = &in->o[2];
  int na = oa->flags & SOF_NEG, nb = ob->flags & SOF_NEG, carry_in = in->f & F_X;
  SASS_FOR_LANES(m, l) {
    uint32_t a = sass_src(x, oa, l), b = sass_src(x, ob, l);
    uint64_t cin = carry_in ? (x->w->cc_c >> l & 1) : (uint64_t)(!!na + !!nb);
    if (in->f & F_PO) cin++;
    uint64_t sum = (uint64_t)(na ? ~a : a) + (nb ? ~b : b) + cin;
    uint32_t r = (uint32_t)sum;
    if (in->f & F_SAT) {
      int64_t s = (int64_t)(na ? -(int64_t)(int32_t)a : (int32_t)a) +
                  (nb ? -(int64_t)(int32_t)b : (int32_t)b);
      r = (uint32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
    }
    sass_wr(x, in->o[0].reg, l, r);
    uint32_t ea = na ? ~a : a, eb = nb ? ~b : b;
    int z = r == 0 && (!carry_in || (x->w->cc_z >> l & 1));
    sass_cc_lane(&cc, l, (sum >> 32) != 0, z, r >> 31, ((~(ea ^ eb) & (ea ^ r)) >> 31) & 1);
  }
  if (cc_dst(in)) sass_cc_store(x->w, &cc, m);
  return 0;
}

int sass_prep_iadd(sass_prep *p) {
  p->cc_ok = 1;
  if (sass_shape(p, "r r rci") < 0) return -1;
  p->in->f = (sass_take(p, "X") ? F_X : 0) | (sass_take(p, "SAT") ? F_SAT : 0) |
             (sass_take(p, "PO") ? F_PO : 0);
  p->in->exec = ex_iadd;
  return 0;
}

int sass_prep_iadd32i(sass_prep *p) {
  p->cc_ok = 1;
  if (sass_shape(p, "r r i") < 0) return -1;
  p->in->f = (sass_take(p, "X") ? F_X : 0) | (sass_take(p, "SAT") ? F_SAT : 0) |
             (sass_take(p, "PO") ? F_PO : 0);
  p->in->exec = ex_iadd;
  return 0;
}

/* --- IADD3 ---------------------------------------------------------------------------------
 * d = a + b + c; .RS: ((a + b) >> 16) + c; .LS: ((a + b) << 16) + c, the sum a + b kept to 34
 * bits so that the carry of the first addition reaches the shifted result. */
enum { I3_NONE, I3_RS, I3_LS };
static int64_t i3_opnd(sass_ctx *x, const sass_opnd *o, int l) {
  uint32_t v = sass_src(x, o, l);
  if (o->flags & SOF_H1) v >>= 16;
  else if (o->flags & SOF_H0) v &= 0xffff;
  return (o->flags & SOF_NEG) ? -(int64_t)v : (int64_t)v;
}
static int ex_iadd3(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_ccacc cc = {0};
  SASS_FOR_LANES(m, l) {
    int64_t ab = i3_opnd(x, &in->o[1], l) + i3_opnd(x, &in->o[2], l);
    if (in->a == I3_RS) ab = (int64_t)((uint64_t)ab >> 16); /* unsigned: partial products */
    if (in->a == I3_LS) ab = (int64_t)((uint64_t)ab << 16);
    int64_t sum = ab + i3_opnd(x, &in->o[3], l) + ((in->f & F_X) ? (x->w->cc_c >> l & 1) : 0);
    uint32_t r = (uint32_t)sum;
    sass_wr(x, in->o[0].reg, l, r);
    sass_cc_lane(&cc, l, ((uint64_t)sum >> 32) & 1, r == 0, r >> 31, 0);
  }
  if (cc_dst(in)) sass_cc_store(x->w, &cc, m);
  return 0;
}

int sass_prep_iadd3(sass_prep *p) {
  p->cc_ok = 1;
  if (sass_shape(p, "r rc rci r") < 0) return -1;
  /* IADD3's immediate is a signed 20-bit field that cuobjdump prints raw: 0xffff9 is -7 (the
   * exponent correction in nvcc's division slow path) */
  sass_opnd *b = &p->in->o[2];
  if (b->kind == SO_IMM && b->ival >= 0x80000 && b->ival <= 0xfffff) b->ival -= 0x100000;
  static const char *const modes[] = {"RS", "LS"};
  p->in->a = (uint8_t)(sass_take_of(p, modes, 2, -1) + 1);
  p->in->f = sass_take(p, "X") ? F_X : 0;
  p->in->exec = ex_iadd3;
  return 0;
}

/* --- ISCADD, LEA ---------------------------------------------------------------------------
 * ISCADD d, a, b, s: (a << s) + b. LEA d, a, b[, s]: the same. LEA.HI d, a, b, c[, s]: b plus the
 * high word of (c:a) << s, which with LEA's low word forms a 64-bit scaled address. A negated
 * addend -b is subtracted as IADD does it: + ~b + 1, or + ~b + carry with .X. */
static int ex_lea(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_ccacc cc = {0};
  int d = (in->f & F_PDST) ? 1 : 0; /* operand index of the register destination */
  unsigned s = (unsigned)in->k & 31;
  SASS_FOR_LANES(m, l) {
    uint32_t a = sass_src(x, &in->o[d + 1], l);
    if (in->o[d + 1].flags & SOF_NEG) a = -a;
    uint32_t b = sass_src(x, &in->o[d + 2], l), add,
             cin = (in->f & F_X) ? (x->w->cc_c >> l & 1) : 0;
    if (in->o[d + 2].flags & SOF_NEG) {
      b = ~b;
      if (!(in->f & F_X)) cin = 1;
    }
    if (in->f & F_HI) {
      uint64_t ca = (uint64_t)sass_src(x, &in->o[d + 3], l) << 32 | a;
      add = (uint32_t)((ca << s) >> 32);
    } else {
      add = a << s;
    }
    uint64_t sum = (uint64_t)add + b + cin;
    sass_wr(x, in->o[d].reg, l, (uint32_t)sum);
    sass_cc_lane(&cc, l, (sum >> 32) & 1, (uint32_t)sum == 0, (uint32_t)sum >> 31, 0);
  }
  if (in->f & F_PDST) sass_setp(x->w, in->o[0].reg, cc.c, m);
  if (in->o[d].flags & SOF_CC) sass_cc_store(x->w, &cc, m);
  return 0;
}

int sass_prep_iscadd(sass_prep *p) {
  p->cc_ok = 1;
  sass_inst *in = p->in;
  int imm32 = in->mtext[6] == '3'; /* ISCADD32I d, a, imm, s */
  if (sass_shape(p, imm32 ? "r r i i" : "r r rci i") < 0) return -1;
  in->k = (int32_t)in->o[3].ival;
  in->f = sass_take(p, "X") ? F_X : 0;
  /* the shift is not an addend: present it as LEA's last operand */
  in->nops = 3;
  in->exec = ex_lea;
  return 0;
}

int sass_prep_lea(sass_prep *p) {
  p->cc_ok = 1;
  sass_inst *in = p->in;
  int hi = sass_take(p, "HI");
  in->f = (hi ? F_HI : 0) | (sass_take(p, "X") ? F_X : 0);
  if (in->nops && in->o[0].kind == SO_PRED) in->f |= F_PDST;
  int d = (in->f & F_PDST) ? 1 : 0;
  /* the addend may be an immediate: LEA R12, R9, 0x1800, 0x7 is (R9 << 7) + 0x1800, a shared
   * array's row past the arrays before it (tpacf's per-group histograms) */
  const char *spec =
      hi ? (d ? "p r r rc r ?i" : "r r rc r ?i") : (d ? "p r r rci ?i" : "r r rci ?i");
  if (sass_shape(p, spec) < 0) return -1;
  int nsrc = hi ? 3 : 2;
  in->k = in->nops > d + 1 + nsrc ? (int32_t)in->o[d + 1 + nsrc].ival : 0;
  in->nops = (uint8_t)(d + 1 + nsrc);
  in->exec = ex_lea;
  return 0;
}

/* --- XMAD: 16 x 16-bit multiply and 32-bit add (envytools' Maxwell notes) --------------------
 * p = a16 * b16 (each the low or .H1 half, signed with S16); .PSL shifts p left 16; the addend
 * is c, or its low (.CLO) or high (.CHI) half, or c + (b << 16) (.CBCC), or c corrected for
 * negative 16-bit factors (.CSFU); .MRG keeps the low half of the sum and puts b's low half
 * above it. The .CSFU correction is 65536 less for a negative factor whose partner register's
 * other half is nonzero: with it, nvcc's signed multiply-high sequence (four XMADs and an
 * IADD3.RS that adds the middle partial products as unsigned words) is exact for every input.
 * envytools describes the correction as applying whenever both factors are nonzero, which
 * gives a wrong high word for 0xffff0000 * 0xffff0000. */
enum { XC_NONE, XC_CLO, XC_CHI, XC_CSFU, XC_CBCC };
#define XF_SA 0x100
#define XF_SB 0x200
#define XF_PSL 0x400
#define XF_MRG 0x800
static int ex_xmad(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_ccacc cc = {0};
  const sass_opnd *oa = &in->o[1], *ob = &in->o[2], *oc = &in->o[3];
  SASS_FOR_LANES(m, l) {
    uint32_t a = sass_src(x, oa, l), b = sass_src(x, ob, l), c = sass_src(x, oc, l);
    uint32_t pa = (oa->flags & SOF_H1) ? a >> 16 : a & 0xffff;
    uint32_t pb = (ob->flags & SOF_H1) ? b >> 16 : b & 0xffff;
    if (in->f & XF_SA) pa = (uint32_t)(int32_t)(int16_t)pa;
    if (in->f & XF_SB) pb = (uint32_t)(int32_t)(int16_t)pb;
    uint32_t prod = pa * pb;
    if (in->f & XF_PSL) prod <<= 16;
    switch (in->a) {
    case XC_CLO: c &= 0xffff; break;
    case XC_CHI: c >>= 16; break;
    case XC_CBCC: c += b << 16; break;
    case XC_CSFU: {
      uint32_t a_other = (oa->flags & SOF_H1) ? a & 0xffff : a >> 16;
      uint32_t b_other = (ob->flags & SOF_H1) ? b & 0xffff : b >> 16;
      if ((pa & 0x80000000u) && b_other) c -= 65536;
      if ((pb & 0x80000000u) && a_other) c -= 65536;
      break;
    }
    }
    uint64_t sum = (uint64_t)prod + c + ((in->f & F_X) ? (x->w->cc_c >> l & 1) : 0);
    uint32_t r = (uint32_t)sum;
    if (in->f & XF_MRG) r = (r & 0xffff) | (b << 16);
    sass_wr(x, in->o[0].reg, l, r);
    sass_cc_lane(&cc, l, (sum >> 32) & 1, r == 0, r >> 31, 0);
  }
  if (cc_dst(in)) sass_cc_store(x->w, &cc, m);
  return 0;
}

int sass_prep_xmad(sass_prep *p) {
  p->cc_ok = 1;
  sass_inst *in = p->in;
  if (sass_shape(p, "r r rci rc") < 0) return -1;
  static const char *const types[] = {"U16", "S16"};
  int ta = sass_take_of(p, types, 2, 0), tb = ta;
  if (sass_take(p, "U16")) tb = 0;
  else if (sass_take(p, "S16")) tb = 1;
  static const char *const cmodes[] = {"CLO", "CHI", "CSFU", "CBCC"};
  in->a = (uint8_t)(sass_take_of(p, cmodes, 4, -1) + 1);
  in->f = (ta ? XF_SA : 0) | (tb ? XF_SB : 0) | (sass_take(p, "PSL") ? XF_PSL : 0) |
          (sass_take(p, "MRG") ? XF_MRG : 0) | (sass_take(p, "X") ? F_X : 0);
  in->exec = ex_xmad;
  return 0;
}

/* --- compares and selects ------------------------------------------------------------------ */
static int icmp(int cmp, int is_u32, uint32_t a, uint32_t b) {
  if (is_u32) {
    switch (cmp) {
    case CMP_LT: return a < b;
    case CMP_EQ: return a == b;
    case CMP_LE: return a <= b;
    case CMP_GT: return a > b;
    case CMP_NE: return a != b;
    case CMP_GE: return a >= b;
    }
  } else {
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    switch (cmp) {
    case CMP_LT: return sa < sb;
    case CMP_EQ: return sa == sb;
    case CMP_LE: return sa <= sb;
    case CMP_GT: return sa > sb;
    case CMP_NE: return sa != sb;
    case CMP_GE: return sa >= sb;
    }
  }
  return cmp == CMP_T;
}

/* .X: compare the high words of a 64-bit pair, the low words' subtraction having left its carry
 * (no borrow) and zero flags in the condition code: a - b - !C, equality chained through Z. */
static int icmp_x(int cmp, int is_u32, uint32_t a, uint32_t b, int carry, int zprev) {
  uint64_t diff = (uint64_t)a + (uint32_t)~b + (uint64_t)carry;
  uint32_t r = (uint32_t)diff;
  int eq = r == 0 && zprev;
  int lt = is_u32 ? !(diff >> 32) : (int)(((r >> 31) ^ (((a ^ b) & (a ^ r)) >> 31)) & 1);
  switch (cmp) {
  case CMP_LT: return lt;
  case CMP_EQ: return eq;
  case CMP_LE: return lt || eq;
  case CMP_GT: return !lt && !eq;
  case CMP_NE: return !eq;
  case CMP_GE: return !lt;
  }
  return cmp == CMP_T;
}

/* the lanes of m where `a cmp b` holds */
static uint32_t icmp_lanes(sass_ctx *x, const sass_inst *in, const sass_opnd *oa,
                           const sass_opnd *ob, uint32_t m) {
  uint32_t t = 0;
  SASS_FOR_LANES(m, l) {
    uint32_t a = sass_src(x, oa, l), b = sass_src(x, ob, l);
    int r = (in->f & F_X) ? icmp_x(in->a, in->f & F_U32, a, b, x->w->cc_c >> l & 1,
                                   x->w->cc_z >> l & 1)
                          : icmp(in->a, in->f & F_U32, a, b);
    if (r) t |= 1u << l;
  }
  return t;
}

static int ex_isetp(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t t = icmp_lanes(x, in, &in->o[2], &in->o[3], m);
  uint32_t pc = sass_pred(x->w, in->o[4].reg, in->o[4].flags & SOF_NOT);
  sass_setp(x->w, in->o[0].reg, sass_bop(in->b, t, pc), m);
  sass_setp(x->w, in->o[1].reg, sass_bop(in->b, ~t, pc), m);
  return 0;
}

static int prep_int_compare(sass_prep *p, const char *spec, int has_bop, sass_exec_fn fn) {
  sass_inst *in = p->in;
  int cmp, bop = BOP_AND;
  if (sass_shape(p, spec) < 0 || sass_take_cmp(p, 0, &cmp) < 0) return -1;
  in->a = (uint8_t)cmp;
  in->f = (sass_take(p, "U32") ? F_U32 : 0) | (sass_take(p, "X") ? F_X : 0);
  sass_take(p, "S32");
  if (has_bop && sass_take_bop(p, &bop) < 0) return -1;
  in->b = (uint8_t)bop;
  in->exec = fn;
  return 0;
}

int sass_prep_isetp(sass_prep *p) { return prep_int_compare(p, "p p r rci p", 1, ex_isetp); }

/* ISET d, a, b, Pc: all ones (or 1.0 with .BF) where the compare holds; with d.CC the
 * condition code of that result, as FSET and LOP set it */
static int ex_iset(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t t = icmp_lanes(x, in, &in->o[1], &in->o[2], m);
  uint32_t pc = sass_pred(x->w, in->o[3].reg, in->o[3].flags & SOF_NOT);
  uint32_t res = sass_bop(in->b, t, pc);
  sass_ccacc cc = {0, 0, 0, 0};
  SASS_FOR_LANES(m, l) {
    uint32_t r = (res >> l & 1) ? (uint32_t)in->k : 0;
    sass_cc_lane(&cc, l, 0, r == 0, r >> 31, 0);
    sass_wr(x, in->o[0].reg, l, r);
  }
  if (cc_dst(in)) sass_cc_store(x->w, &cc, m);
  return 0;
}

int sass_prep_iset(sass_prep *p) {
  if (prep_int_compare(p, "r r rci p", 1, ex_iset) < 0) return -1;
  p->in->k = sass_take(p, "BF") ? 0x3f800000 : -1;
  p->cc_ok = 1;
  return 0;
}

/* ICMP d, a, b, c: a where `c cmp 0` holds, else b (PTX's slct) */
static int ex_icmp(sass_ctx *x, const sass_inst *in, uint32_t m) {
  static const sass_opnd zero = {.kind = SO_IMM};
  uint32_t t = icmp_lanes(x, in, &in->o[3], &zero, m);
  SASS_FOR_LANES(m, l)
    sass_wr(x, in->o[0].reg, l, sass_src(x, &in->o[(t >> l & 1) ? 1 : 2], l));
  return 0;
}

int sass_prep_icmp(sass_prep *p) { return prep_int_compare(p, "r r rci r", 0, ex_icmp); }

static int ex_sel(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t pc = sass_pred(x->w, in->o[3].reg, in->o[3].flags & SOF_NOT);
  SASS_FOR_LANES(m, l)
    sass_wr(x, in->o[0].reg, l, sass_src(x, &in->o[(pc >> l & 1) ? 1 : 2], l));
  return 0;
}

int sass_prep_sel(sass_prep *p) {
  if (sass_shape(p, "r r rci p") < 0) return -1;
  p->in->exec = ex_sel;
  return 0;
}

/* IMNMX d, a, b, P: the minimum where P holds, else the maximum */
static int ex_imnmx(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t pc = sass_pred(x->w, in->o[3].reg, in->o[3].flags & SOF_NOT);
  SASS_FOR_LANES(m, l) {
    uint32_t a = sass_src(x, &in->o[1], l), b = sass_src(x, &in->o[2], l);
    int a_lt = (in->f & F_U32) ? a < b : (int32_t)a < (int32_t)b;
    int want_min = pc >> l & 1;
    sass_wr(x, in->o[0].reg, l, (a_lt == want_min) ? a : b);
  }
  return 0;
}

int sass_prep_imnmx(sass_prep *p) {
  if (sass_shape(p, "r r rci p") < 0) return -1;
  p->in->f = sass_take(p, "U32") ? F_U32 : 0;
  sass_take(p, "S32");
  p->in->exec = ex_imnmx;
  return 0;
}

static int ex_mov(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) sass_wr(x, in->o[0].reg, l, sass_src(x, &in->o[1], l));
  return 0;
}

int sass_prep_mov(sass_prep *p) {
  /* MOV d, a[, lane mask 0xf]: the mask is Kepler's quarter-warp enable, always all set */
  if (sass_shape(p, "r rci ?i") < 0) return -1;
  if (p->in->nops == 3 && p->in->o[2].ival != 0xf)
    return sass_bad(p, "expected the lane mask 0xf, found 0x%llx",
                    (unsigned long long)p->in->o[2].ival);
  p->in->nops = 2;
  p->in->exec = ex_mov;
  return 0;
}

/* PSETP.bop1.bop2 Pd, Pd2, Pa, Pb, Pc: Pd = (Pa bop1 Pb) bop2 Pc, Pd2 = !(Pa bop1 Pb) bop2 Pc */
static int ex_psetp(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_warp *w = x->w;
  uint32_t ab = sass_bop(in->a, sass_pred(w, in->o[2].reg, in->o[2].flags & SOF_NOT),
                         sass_pred(w, in->o[3].reg, in->o[3].flags & SOF_NOT));
  uint32_t pc = sass_pred(w, in->o[4].reg, in->o[4].flags & SOF_NOT);
  sass_setp(w, in->o[0].reg, sass_bop(in->b, ab, pc), m);
  sass_setp(w, in->o[1].reg, sass_bop(in->b, ~ab, pc), m);
  return 0;
}

int sass_prep_psetp(sass_prep *p) {
  int b1, b2;
  if (sass_shape(p, "p p p p p") < 0 || sass_take_bop(p, &b1) < 0 || sass_take_bop(p, &b2) < 0)
    return -1;
  p->in->a = (uint8_t)b1;
  p->in->b = (uint8_t)b2;
  p->in->exec = ex_psetp;
  return 0;
}

/* PSET.bop1.bop2 d, Pa, Pb, Pc: all ones (1.0 with .BF) where (Pa bop1 Pb) bop2 Pc holds, else
 * 0, as FSET and ISET write their result (nvcc keeps predicates in registers this way when it
 * runs out of them, e.g. across an unrolled shuffle scan) */
static int ex_pset(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_warp *w = x->w;
  uint32_t ab = sass_bop(in->a, sass_pred(w, in->o[1].reg, in->o[1].flags & SOF_NOT),
                         sass_pred(w, in->o[2].reg, in->o[2].flags & SOF_NOT));
  uint32_t t = sass_bop(in->b, ab, sass_pred(w, in->o[3].reg, in->o[3].flags & SOF_NOT));
  SASS_FOR_LANES(m, l) sass_wr(x, in->o[0].reg, l, (t >> l & 1) ? (uint32_t)in->k : 0);
  return 0;
}

int sass_prep_pset(sass_prep *p) {
  int b1, b2;
  if (sass_shape(p, "r p p p") < 0) return -1;
  p->in->k = sass_take(p, "BF") ? 0x3f800000 : -1;
  if (sass_take_bop(p, &b1) < 0 || sass_take_bop(p, &b2) < 0) return -1;
  p->in->a = (uint8_t)b1;
  p->in->b = (uint8_t)b2;
  p->in->exec = ex_pset;
  return 0;
}

/* CSETP.cond.bop Pd, Pd2, CC, Pc: tests the condition code (integer conditions) */
static int ex_csetp(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_warp *w = x->w;
  uint32_t t = 0;
  SASS_FOR_LANES(m, l)
    if (sass_cc_holds(w, in->a, l)) t |= 1u << l;
  uint32_t pc = sass_pred(w, in->o[3].reg, in->o[3].flags & SOF_NOT);
  sass_setp(w, in->o[0].reg, sass_bop(in->b, t, pc), m);
  sass_setp(w, in->o[1].reg, sass_bop(in->b, ~t, pc), m);
  return 0;
}

int sass_prep_csetp(sass_prep *p) {
  int bop;
  if (sass_shape(p, "p p C p") < 0) return -1;
  if (p->in->o[2].ival >= 0) return sass_bad(p, "expected CC without a condition");
  int cond = sass_take_of(p, sass_cc_cond_names, SASS_CC_NCOND, -1);
  if (cond < 0) return sass_bad(p, "expected an integer condition (.LT ... .OFT)");
  if (sass_take_bop(p, &bop) < 0) return -1;
  p->in->a = (uint8_t)cond;
  p->in->b = (uint8_t)bop;
  p->in->exec = ex_csetp;
  return 0;
}

/* P2R d, PR, a, mask: d = (a & ~mask) | (predicate bits & mask); R2P PR, a, mask: the reverse */
static int ex_p2r(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) {
    uint32_t bits = 0, mask = sass_src(x, &in->o[2], l);
    for (int i = 0; i < 7; i++) bits |= (x->w->p[i] >> l & 1) << i;
    uint32_t a = sass_src(x, &in->o[1], l);
    sass_wr(x, in->o[0].reg, l, (a & ~mask) | (bits & mask));
  }
  return 0;
}

static int ex_r2p(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) {
    uint32_t a = sass_src(x, &in->o[0], l), mask = sass_src(x, &in->o[1], l);
    for (int i = 0; i < 7; i++)
      if (mask >> i & 1) sass_setp(x->w, (unsigned)i, (a >> i & 1) << l, 1u << l);
  }
  return 0;
}

/* P2R R0, PR, R0, 0x7f: operand 1 is the predicate set (PR); R2P PR, R0, 0x7f */
int sass_prep_p2r(sass_prep *p) {
  if (sass_shape(p, "r A r rci") < 0) return -1;
  p->in->o[1] = p->in->o[2];
  p->in->o[2] = p->in->o[3];
  p->in->nops = 3;
  p->in->exec = ex_p2r;
  return 0;
}

int sass_prep_r2p(sass_prep *p) {
  if (sass_shape(p, "A r rci") < 0) return -1;
  p->in->o[0] = p->in->o[1];
  p->in->o[1] = p->in->o[2];
  p->in->nops = 2;
  p->in->exec = ex_r2p;
  return 0;
}
