/* Atomic read-modify-write on global (ATOM, RED: no result) and shared memory (ATOMS). The
 * lanes of a warp apply in lane order, which is one of the orders the hardware may pick. */
#include "sass_fp.h"
#include "sass_mem_access.h"
#include "sass_op.h"

enum { A_ADD, A_MIN, A_MAX, A_INC, A_DEC, A_AND, A_OR, A_XOR, A_EXCH, A_CAS, A_NOPS };
enum { AT_U32, AT_S32, AT_U64, AT_S64, AT_F32, AT_F64 };
#define F_RED 0x02 /* no destination */
#define F_SHARED 0x04

static uint64_t apply(int op, int type, uint64_t old, uint64_t b, uint64_t c, int ftz) {
  switch (type) {
  case AT_F32: {
    float r = sass_f32((uint32_t)old) + sass_f32((uint32_t)b);
    return sass_fbits(ftz ? sass_ftz(r) : r);
  }
  case AT_F64: return sass_dbits(sass_f64(old) + sass_f64(b));
  }
  int wide = type == AT_U64 || type == AT_S64, sgn = type == AT_S32 || type == AT_S64;
  int64_t so = wide ? (int64_t)old : (int32_t)old, sb = wide ? (int64_t)b : (int32_t)b;
  uint64_t r;
  switch (op) {
  case A_ADD: r = old + b; break;
  case A_MIN: r = sgn ? (uint64_t)(so < sb ? so : sb) : (old < b ? old : b); break;
  case A_MAX: r = sgn ? (uint64_t)(so > sb ? so : sb) : (old > b ? old : b); break;
  case A_INC: r = old >= b ? 0 : old + 1; break;
  case A_DEC: r = (old == 0 || old > b) ? b : old - 1; break;
  case A_AND: r = old & b; break;
  case A_OR: r = old | b; break;
  case A_XOR: r = old ^ b; break;
  case A_EXCH: r = b; break;
  default: r = old == b ? c : old; break; /* CAS: b compares, c is stored */
  }
  return wide ? r : (uint32_t)r;
}

static int ex_atom(sass_ctx *x, const sass_inst *in, uint32_t m) {
  int wide = in->b == AT_U64 || in->b == AT_S64 || in->b == AT_F64;
  unsigned bytes = wide ? 8 : 4;
  int addr_op = (in->f & F_RED) ? 0 : 1;
  const sass_opnd *ob = &in->o[addr_op + 1];
  SASS_FOR_LANES(m, l) {
    uint64_t a = sass_lane_addr(x, in, &in->o[addr_op], l);
    x->addr[l] = a;
    uint8_t *p = sass_access(x, in, (in->f & F_SHARED) ? 1 : 0, a, bytes, l, 1);
    if (!p) return -1;
    uint64_t old = 0, b = wide ? sass_src64(x, ob, l) : sass_src(x, ob, l), c = 0;
    if (in->a == A_CAS) c = wide ? sass_src64(x, &in->o[addr_op + 2], l)
                                 : sass_src(x, &in->o[addr_op + 2], l);
    memcpy(&old, p, bytes);
    uint64_t r = apply(in->a, in->b, old, b, c, in->c);
    memcpy(p, &r, bytes);
    if (!(in->f & F_RED)) {
      if (wide) sass_wr64(x, in->o[0].reg, l, old);
      else sass_wr(x, in->o[0].reg, l, (uint32_t)old);
    }
  }
  return 0;
}

/* ATOMG (sm_70) writes a predicate before its destination: whether the operation took effect,
 * always for all but CAS, where it is whether the compare matched. It is moved out of the
 * operand list (in->e: its predicate, SASS_PT for none) so the forms share one handler. */
static int ex_atomg(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t ok = m;
  if (in->a == A_CAS) {
    ok = 0;
    SASS_FOR_LANES(m, l) {
      uint64_t a = sass_lane_addr(x, in, &in->o[1], l);
      uint8_t *p = sass_access(x, in, 0, a, (unsigned)in->k, l, 0);
      if (!p) return -1;
      uint64_t cur = 0, cmp = in->k == 8 ? sass_src64(x, &in->o[2], l) : sass_src(x, &in->o[2], l);
      memcpy(&cur, p, (size_t)in->k);
      if (cur == cmp) ok |= 1u << l;
    }
  }
  if (ex_atom(x, in, m) < 0) return -1;
  sass_setp(x->w, in->e, ok, m);
  return 0;
}

int sass_prep_atom(sass_prep *p) {
  sass_inst *in = p->in;
  int atomg = !strcmp(in->mtext, "ATOMG");
  in->e = SASS_PT;
  if (atomg) {
    if (!in->nops || in->o[0].kind != SO_PRED) return sass_bad(p, "expected a predicate first");
    in->e = (uint8_t)in->o[0].reg;
    memmove(&in->o[0], &in->o[1], (size_t)(in->nops - 1) * sizeof in->o[0]);
    in->nops--;
  }
  static const char *const order[] = {"SYS", "GPU", "CTA", "STRONG", "WEAK"};
  while (sass_take_of(p, order, 5, -1) >= 0) {
  }
  int red = !strcmp(in->mtext, "RED"), shared = !strcmp(in->mtext, "ATOMS");
  static const char *const ops[] = {"ADD", "MIN", "MAX", "INC", "DEC",
                                    "AND", "OR",  "XOR", "EXCH", "CAS"};
  int op = sass_take_of(p, ops, A_NOPS, -1);
  if (op < 0) return sass_bad(p, "expected an operation (.ADD ... .CAS)");
  const char *spec = red ? "m rci" : op == A_CAS ? "r m r r" : "r m rci";
  if (sass_shape(p, spec) < 0) return -1;
  static const char *const types[] = {"U32", "S32", "U64", "S64", "F32", "F64", "64"};
  int t = sass_take_of(p, types, 7, AT_U32);
  if (t == 6) t = AT_U64;
  in->a = (uint8_t)op;
  in->b = (uint8_t)t;
  in->c = (uint8_t)sass_take(p, "FTZ");
  sass_take(p, "RN");
  if ((t == AT_F32 || t == AT_F64) && op != A_ADD) return sass_bad(p, "float atomics only add");
  in->f = (sass_take(p, "E") ? SASS_F_E : 0) | (red ? F_RED : 0) | (shared ? F_SHARED : 0);
  if (!shared && !(in->f & SASS_F_E))
    return sass_bad(p, "32-bit global addresses are not supported");
  int wide = t == AT_U64 || t == AT_S64 || t == AT_F64;
  int addr_op = red ? 0 : 1;
  if ((in->f & SASS_F_E) && in->o[addr_op].reg != SASS_RZ) sass_reg_span(p, addr_op, 2);
  if (wide)
    for (int i = 0; i < in->nops; i++)
      if (i != addr_op && in->o[i].kind == SO_REG) sass_reg_span(p, i, 2);
  in->k = wide ? 8 : 4;
  in->exec = atomg && in->e != SASS_PT ? ex_atomg : ex_atom;
  return 0;
}
