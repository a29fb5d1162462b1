/* Integer instructions whose form or meaning changed with sm_70: the carry moves from the
 * condition code into predicates (IADD3 and LEA write carry-out predicates, the .X forms read
 * carry-in predicates, ISETP.EX extends a compare with the low words' predicate), IMAD replaces
 * XMAD, SHF names the word it returns (.HI), and PLOP3, IABS, BREV, BMSK, SGXT are new. '-' is a
 * two's complement and '~' a one's complement in every form. */
#include <stdio.h>

#include "sass_op.h"

#define F_X 0x01
#define F_HI 0x02
#define F_U32 0x04
#define F_WIDE 0x08
#define F_SX32 0x10
#define F_EX 0x20
#define F_W 0x40
#define F_64 0x80
#define F_SIGNED 0x100

/* an operand as a 33-bit addend: value, its one's complement (~), or two's complement (-:
 * one's complement plus one, so that a - b carries out exactly when a >= b) */
static uint64_t addend(sass_ctx *x, const sass_opnd *o, int l) {
  uint32_t v = sass_src(x, o, l);
  if (o->flags & SOF_INV) return (uint32_t)~v;
  if (o->flags & SOF_NEG) return (uint64_t)(uint32_t)~v + 1;
  return v;
}

/* carry-in predicates (PT is 1, !PT 0) */
static uint64_t carry_in(const sass_warp *w, const sass_inst *in, int from, int l) {
  uint64_t c = 0;
  for (int i = from; i < in->nops; i++)
    c += sass_pred(w, in->o[i].reg, in->o[i].flags & SOF_NOT) >> l & 1;
  return c;
}

/* the leading predicate outputs after the destination: how many (in->a), where (in->b) */
static void carry_outs(sass_prep *p, int max) {
  int n = 0;
  while (n < max && 1 + n < p->in->nops && p->in->o[1 + n].kind == SO_PRED) n++;
  p->in->a = (uint8_t)n;
}

static void set_carries(sass_ctx *x, const sass_inst *in, uint32_t m, const uint32_t *c1,
                        const uint32_t *c2) {
  if (in->a >= 1) sass_setp(x->w, in->o[1].reg, *c1, m);
  if (in->a >= 2) sass_setp(x->w, in->o[2].reg, *c2, m);
}

/* IADD3[.X] d[, P0[, P1]], a, b, c[, Pin0[, Pin1]]: P0 and P1 get bits 32 and 33 of the sum */
static int ex_iadd3_70(sass_ctx *x, const sass_inst *in, uint32_t m) {
  int s = 1 + in->a;
  uint32_t c1 = 0, c2 = 0;
  SASS_FOR_LANES(m, l) {
    uint64_t sum = addend(x, &in->o[s], l) + addend(x, &in->o[s + 1], l) +
                   addend(x, &in->o[s + 2], l) + ((in->f & F_X) ? carry_in(x->w, in, s + 3, l) : 0);
    sass_wr(x, in->o[0].reg, l, (uint32_t)sum);
    c1 |= (uint32_t)(sum >> 32 & 1) << l;
    c2 |= (uint32_t)(sum >> 33 & 1) << l;
  }
  set_carries(x, in, m, &c1, &c2);
  return 0;
}

int sass_prep_iadd3_70(sass_prep *p) {
  carry_outs(p, 2);
  p->in->f = sass_take(p, "X") ? F_X : 0;
  static const char *const specs[] = {"r rc rci rc ?p p", "r p rc rci rc ?p p",
                                      "r p p rc rci rc ?p p"};
  if (sass_shape(p, specs[p->in->a]) < 0) return -1;
  p->in->exec = ex_iadd3_70;
  return 0;
}

/* IMAD[.WIDE|.HI][.U32][.X] d[, Pout], a, b, c[, Pin]: a * b + c, signed unless .U32; .WIDE
 * writes the 64-bit product plus a 64-bit c, .HI the high word of a * b plus c; .MOV, .IADD and
 * .SHL only say what the compiler meant (c, a + c, a shifted) */
static int ex_imad(sass_ctx *x, const sass_inst *in, uint32_t m) {
  int s = 1 + in->a;
  const sass_opnd *oa = &in->o[s], *ob = &in->o[s + 1], *oc = &in->o[s + 2];
  int sgn = !(in->f & F_U32);
  uint32_t c1 = 0, c2 = 0;
  SASS_FOR_LANES(m, l) {
    uint32_t a = sass_src(x, oa, l), b = sass_src(x, ob, l);
    if (oa->flags & SOF_NEG) a = 0 - a;
    if (ob->flags & SOF_NEG) b = 0 - b;
    uint64_t prod = sgn ? (uint64_t)((int64_t)(int32_t)a * (int32_t)b) : (uint64_t)a * b;
    uint64_t cin = (in->f & F_X) ? carry_in(x->w, in, s + 3, l) : 0;
    if (in->f & F_WIDE) {
      uint64_t c = sass_src64(x, oc, l);
      if (oc->flags & SOF_NEG) c = 0 - c;
      unsigned __int128 sum = (unsigned __int128)prod + c + cin;
      sass_wr64(x, in->o[0].reg, l, (uint64_t)sum);
      c1 |= (uint32_t)(sum >> 64 & 1) << l;
    } else {
      uint64_t c = addend(x, oc, l);
      uint64_t sum = ((in->f & F_HI) ? prod >> 32 : prod & 0xffffffffu) + c + cin;
      sass_wr(x, in->o[0].reg, l, (uint32_t)sum);
      c1 |= (uint32_t)(sum >> 32 & 1) << l;
    }
  }
  set_carries(x, in, m, &c1, &c2);
  return 0;
}

int sass_prep_imad(sass_prep *p) {
  sass_inst *in = p->in;
  carry_outs(p, 1);
  sass_take(p, "MOV");
  sass_take(p, "IADD");
  sass_take(p, "SHL");
  in->f = (sass_take(p, "WIDE") ? F_WIDE : 0) | (sass_take(p, "HI") ? F_HI : 0) |
          (sass_take(p, "U32") ? F_U32 : 0) | (sass_take(p, "X") ? F_X : 0);
  if (sass_shape(p, in->a ? "r p r rci rci ?p" : "r r rci rci ?p") < 0) return -1;
  if (in->f & F_WIDE) {
    sass_reg_span(p, 0, 2);
    if (in->o[3 + in->a].kind == SO_REG) sass_reg_span(p, 3 + in->a, 2);
  }
  in->exec = ex_imad;
  return 0;
}

/* ISETP.cmp[.U32].bop[.EX] Pd, Pd2, a, b, Pc[, Pex]: with .EX, a and b are the high words of a
 * 64-bit compare and Pex the low words' result, which decides where the high words are equal */
static int ex_isetp70(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_warp *w = x->w;
  uint32_t t = 0;
  uint32_t pex = (in->f & F_EX) ? sass_pred(w, in->o[5].reg, in->o[5].flags & SOF_NOT) : 0;
  SASS_FOR_LANES(m, l) {
    uint32_t a = sass_src(x, &in->o[2], l), b = sass_src(x, &in->o[3], l);
    if (in->o[3].flags & SOF_NEG) b = 0 - b;
    int lt = (in->f & F_U32) ? a < b : (int32_t)a < (int32_t)b, eq = a == b, r;
    int low = pex >> l & 1;
    switch (in->c) {
    case CMP_LT: r = lt || ((in->f & F_EX) && eq && low); break;
    case CMP_LE: r = lt || (eq && (!(in->f & F_EX) || low)); break;
    case CMP_GT: r = (!lt && !eq) || ((in->f & F_EX) && eq && low); break;
    case CMP_GE: r = (!lt && !eq) || (eq && (!(in->f & F_EX) || low)); break;
    case CMP_EQ: r = eq && (!(in->f & F_EX) || low); break;
    case CMP_NE: r = !eq || ((in->f & F_EX) && low); break;
    default: r = in->c == CMP_T; break;
    }
    if (r) t |= 1u << l;
  }
  uint32_t pc = sass_pred(w, in->o[4].reg, in->o[4].flags & SOF_NOT);
  sass_setp(w, in->o[0].reg, sass_bop(in->b, t, pc), m);
  sass_setp(w, in->o[1].reg, sass_bop(in->b, ~t, pc), m);
  return 0;
}

int sass_prep_isetp70(sass_prep *p) {
  sass_inst *in = p->in;
  int cmp, bop;
  if (sass_take_cmp(p, 0, &cmp) < 0) return -1;
  in->f = (sass_take(p, "U32") ? F_U32 : 0) | (sass_take(p, "EX") ? F_EX : 0);
  if (sass_take_bop(p, &bop) < 0) return -1;
  if (!(in->f & F_EX)) sass_take(p, "EX");
  if (sass_shape(p, (in->f & F_EX) ? "p p r rci p p" : "p p r rci p") < 0) return -1;
  in->c = (uint8_t)cmp;
  in->b = (uint8_t)bop;
  in->exec = ex_isetp70;
  return 0;
}

/* LEA d[, P], a, b, s: (a << s) + b. LEA.HI[.X] d[, P], a, b, c, s[, Pin]: b plus the high word of
 * (c:a) << s; .SX32 takes c as a's sign (no c operand). */
static int ex_lea70(sass_ctx *x, const sass_inst *in, uint32_t m) {
  int s = 1 + in->a, hi = in->f & F_HI, sx = in->f & F_SX32;
  int ns = hi && !sx ? 4 : 3; /* source operands before the carry-ins */
  unsigned sh = (unsigned)sass_src(x, &in->o[s + ns - 1], 0) & 31;
  uint32_t c1 = 0;
  SASS_FOR_LANES(m, l) {
    uint32_t a = sass_src(x, &in->o[s], l);
    if (in->o[s].flags & SOF_NEG) a = 0 - a;
    if (in->o[s].flags & SOF_INV) a = ~a;
    uint64_t add;
    if (hi) {
      uint32_t c = sx ? (uint32_t)((int32_t)a >> 31) : sass_src(x, &in->o[s + 2], l);
      add = (uint32_t)((((uint64_t)c << 32 | a) << sh) >> 32);
    } else {
      add = (uint32_t)(a << sh);
    }
    uint64_t sum = add + addend(x, &in->o[s + 1], l) +
                   ((in->f & F_X) ? carry_in(x->w, in, s + ns, l) : 0);
    sass_wr(x, in->o[0].reg, l, (uint32_t)sum);
    c1 |= (uint32_t)(sum >> 32 & 1) << l;
  }
  set_carries(x, in, m, &c1, &c1);
  return 0;
}

int sass_prep_lea70(sass_prep *p) {
  sass_inst *in = p->in;
  carry_outs(p, 1);
  in->f = (sass_take(p, "HI") ? F_HI : 0) | (sass_take(p, "X") ? F_X : 0) |
          (sass_take(p, "SX32") ? F_SX32 : 0);
  int hi = in->f & F_HI, sx = in->f & F_SX32;
  char spec[48];
  snprintf(spec, sizeof spec, "r%s r rci%s i ?p", in->a ? " p" : "", hi && !sx ? " rc" : "");
  if (sass_shape(p, spec) < 0) return -1;
  in->exec = ex_lea70;
  return 0;
}

/* SHF.L|R[.W].U32|S32|U64|S64[.HI] d, a, s, b: the funnel (b:a) shifted; .HI returns its high
 * word, otherwise its low word. The amount wraps (.W) or clamps at the type's width. */
static int ex_shf70(sass_ctx *x, const sass_inst *in, uint32_t m) {
  unsigned width = (in->f & F_64) ? 64 : 32;
  SASS_FOR_LANES(m, l) {
    uint64_t v = (uint64_t)sass_src(x, &in->o[3], l) << 32 | sass_src(x, &in->o[1], l);
    uint32_t s = sass_src(x, &in->o[2], l);
    s = (in->f & F_W) ? s & (width - 1) : (s > width ? width : s);
    uint64_t r;
    if (in->b) r = s >= 64 ? 0 : v << s;
    else if (in->f & F_SIGNED) r = (uint64_t)((int64_t)v >> (s >= 64 ? 63 : s));
    else r = s >= 64 ? 0 : v >> s;
    sass_wr(x, in->o[0].reg, l, (in->f & F_HI) ? (uint32_t)(r >> 32) : (uint32_t)r);
  }
  return 0;
}

int sass_prep_shf70(sass_prep *p) {
  sass_inst *in = p->in;
  if (sass_shape(p, "r rc rci rc") < 0) return -1;
  in->b = (uint8_t)sass_take(p, "L");
  if (!in->b && !sass_take(p, "R")) return sass_bad(p, "expected .L or .R");
  static const char *const types[] = {"U32", "S32", "U64", "S64"};
  int t = sass_take_of(p, types, 4, -1);
  if (t < 0) return sass_bad(p, "expected a type (.U32, .S32, .U64, .S64)");
  in->f = (sass_take(p, "W") ? F_W : 0) | (sass_take(p, "HI") ? F_HI : 0) |
          (t >= 2 ? F_64 : 0) | ((t & 1) ? F_SIGNED : 0);
  in->exec = ex_shf70;
  return 0;
}

/* IABS, BREV, BMSK, SGXT: one value each */
enum { U_IABS, U_BREV, U_BMSK, U_SGXT };
static int ex_unary70(sass_ctx *x, const sass_inst *in, uint32_t m) {
  SASS_FOR_LANES(m, l) {
    uint32_t a = sass_src(x, &in->o[1], l), r = 0;
    switch (in->a) {
    case U_IABS: r = (int32_t)a < 0 ? 0 - a : a; break;
    case U_BREV:
      for (int i = 0; i < 32; i++) r |= (a >> i & 1u) << (31 - i);
      break;
    case U_BMSK: { /* BMSK d, pos, len: len ones from bit pos */
      uint32_t pos = a & 0xff, len = sass_src(x, &in->o[2], l) & 0xff;
      if (in->f & F_W) pos &= 31, len &= 31;
      uint64_t ones = len >= 32 ? 0xffffffffull : (1ull << len) - 1;
      r = pos >= 32 ? 0 : (uint32_t)(ones << pos);
      break;
    }
    default: { /* SGXT d, a, n: a's low n bits, sign- (or with .U32 zero-) extended */
      uint32_t n = sass_src(x, &in->o[2], l) & 0xff;
      if (n >= 32) r = a;
      else if (n == 0) r = 0;
      else if (in->f & F_U32) r = a & ((1u << n) - 1);
      else r = (uint32_t)((int32_t)(a << (32 - n)) >> (32 - n));
    }
    }
    sass_wr(x, in->o[0].reg, l, r);
  }
  return 0;
}

int sass_prep_unary70(sass_prep *p) {
  sass_inst *in = p->in;
  const char *mn = in->mtext;
  in->a = !strcmp(mn, "IABS") ? U_IABS : !strcmp(mn, "BREV") ? U_BREV
          : !strcmp(mn, "BMSK") ? U_BMSK : U_SGXT;
  in->f = (sass_take(p, "U32") ? F_U32 : 0) | (sass_take(p, "W") ? F_W : 0);
  if (sass_shape(p, in->a >= U_BMSK ? "r r rci" : "r rci") < 0) return -1;
  in->exec = ex_unary70;
  return 0;
}

/* PLOP3.LUT Pd, Pd2, Pa, Pb, Pc, lut, lut2: Pd and Pd2 are two functions of three predicates */
static int ex_plop3(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_warp *w = x->w;
  uint32_t a = sass_pred(w, in->o[2].reg, in->o[2].flags & SOF_NOT);
  uint32_t b = sass_pred(w, in->o[3].reg, in->o[3].flags & SOF_NOT);
  uint32_t c = sass_pred(w, in->o[4].reg, in->o[4].flags & SOF_NOT);
  for (int out = 0; out < 2; out++) {
    uint32_t lut = (uint32_t)in->o[5 + out].ival, r = 0;
    for (int i = 0; i < 8; i++)
      if (lut >> i & 1) r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
    sass_setp(w, in->o[out].reg, r, m);
  }
  return 0;
}

int sass_prep_plop3(sass_prep *p) {
  if (!sass_take(p, "LUT")) return sass_bad(p, "expected .LUT");
  if (sass_shape(p, "p p p p p i i") < 0) return -1;
  p->in->exec = ex_plop3;
  return 0;
}
