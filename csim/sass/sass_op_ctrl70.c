/* Control flow from sm_70 (independent thread scheduling, sass_its.h): branches, calls and
 * returns move each lane's own PC; BSSY Bn records the lanes that must meet again at BSYNC Bn,
 * BREAK Bn takes lanes out of it, BMOV saves and restores it across calls; WARPSYNC waits for
 * the lanes of its mask; EXIT ends lanes; BAR.SYNC makes lanes wait at the CTA barrier until
 * every live lane of the warp is there (then the warp arrives). The run loop moves the lanes a
 * handler does not move (own_pc unset) to the next instruction. */
#include "sass_its.h"
#include "sass_op.h"

static void move(sass_warp *w, uint32_t lanes, uint32_t pc) {
  for (uint32_t m = lanes; m; m &= m - 1) w->lpc[__builtin_ctz(m)] = pc;
}

/* BRA [cond,] target: the lanes of m (and of cond) jump, the group's others fall through;
 * BRA.DIV jumps when the warp is diverged (its group is not every live lane) */
static int ex_bra70(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_warp *w = x->w;
  uint32_t taken = m;
  if (in->f & 1) taken = (w->active != sass_its_live(w)) ? m : 0;
  if (in->nops == 2) taken &= sass_pred(w, in->o[0].reg, in->o[0].flags & SOF_NOT);
  move(w, w->active & ~taken, w->pc);
  move(w, taken, (uint32_t)in->k);
  return 0;
}

static int prep_target70(sass_prep *p, const char *spec) {
  if (sass_shape(p, spec) < 0) return -1;
  const sass_opnd *t = &p->in->o[p->in->nops - 1];
  if (t->ival < 0 || t->ival % 16 || t->ival > 0x7fffffff)
    return sass_bad(p, "expected a 16-byte aligned target address");
  p->in->k = (int32_t)t->ival;
  return 0;
}

int sass_prep_bra70(sass_prep *p) {
  p->in->f = sass_take(p, "DIV") ? 1 : 0;
  sass_take(p, "U");
  if (prep_target70(p, p->in->nops == 2 ? "p i" : "i") < 0) return -1;
  p->in->own_pc = 1;
  p->in->exec = ex_bra70;
  return 0;
}

/* the barrier register operand Bn: the decoder reads it as an immediate-like name */
static int cbar_index(sass_prep *p, int i) {
  const sass_opnd *o = &p->in->o[i];
  if (o->kind != SO_CBAR || o->ival >= SASS_CBARRIERS)
    return sass_bad(p, "operand %d: expected a convergence barrier B0-B15", i + 1);
  return (int)o->ival;
}

static int ex_bssy(sass_ctx *x, const sass_inst *in, uint32_t m) {
  (void)m;
  x->w->cbar[in->a] = x->w->active;
  return 0;
}

int sass_prep_bssy(sass_prep *p) {
  if (prep_target70(p, "B i") < 0) return -1;
  int b = cbar_index(p, 0);
  if (b < 0) return -1;
  p->in->a = (uint8_t)b;
  p->in->exec = ex_bssy;
  return 0;
}

static int ex_bsync(sass_ctx *x, const sass_inst *in, uint32_t m) {
  x->w->wait_bsync[in->a] |= m;
  return 0;
}

static int ex_break(sass_ctx *x, const sass_inst *in, uint32_t m) {
  x->w->cbar[in->a] &= ~m;
  return 0;
}

int sass_prep_bsync(sass_prep *p) {
  if (sass_shape(p, "B") < 0) return -1;
  int b = cbar_index(p, 0);
  if (b < 0) return -1;
  p->in->a = (uint8_t)b;
  p->in->exec = !strcmp(p->in->mtext, "BSYNC") ? ex_bsync : ex_break;
  return 0;
}

/* BMOV.32[.CLEAR] Rd, Bn (read, and clear) or BMOV.32 Bn, Rs (write) */
static int ex_bmov(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_warp *w = x->w;
  if (!m) return 0;
  if (in->b) { /* write: the lanes agree on the value; take the first's */
    w->cbar[in->a] = sass_src(x, &in->o[1], __builtin_ctz(m));
    return 0;
  }
  SASS_FOR_LANES(m, l) sass_wr(x, in->o[0].reg, l, w->cbar[in->a]);
  if (in->c) w->cbar[in->a] = 0;
  return 0;
}

int sass_prep_bmov(sass_prep *p) {
  sass_inst *in = p->in;
  if (!sass_take(p, "32")) return sass_bad(p, "expected .32");
  in->c = (uint8_t)sass_take(p, "CLEAR");
  in->b = in->nops == 2 && in->o[0].kind == SO_CBAR;
  if (sass_shape(p, in->b ? "B rci" : "r B") < 0) return -1;
  int b = cbar_index(p, in->b ? 0 : 1);
  if (b < 0) return -1;
  in->a = (uint8_t)b;
  in->exec = ex_bmov;
  return 0;
}

static int ex_warpsync(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_warp *w = x->w;
  SASS_FOR_LANES(m, l) w->ws_mask[l] = sass_src(x, &in->o[0], l);
  w->wait_ws |= m;
  return 0;
}

int sass_prep_warpsync(sass_prep *p) {
  if (sass_shape(p, "rci") < 0) return -1;
  p->in->exec = ex_warpsync;
  return 0;
}

/* CALL.REL.NOINC target: the caller has put the return address in a register itself */
static int ex_call70(sass_ctx *x, const sass_inst *in, uint32_t m) {
  move(x->w, x->w->active & ~m, x->w->pc);
  move(x->w, m, (uint32_t)in->k);
  return 0;
}

int sass_prep_call70(sass_prep *p) {
  sass_take(p, "REL");
  sass_take(p, "ABS");
  sass_take(p, "NOINC");
  if (prep_target70(p, "i") < 0) return -1;
  p->in->own_pc = 1;
  p->in->exec = ex_call70;
  return 0;
}

/* RET.REL.NODEC Rn off: each lane returns to the address in its Rn, plus off */
static int ex_ret70(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_warp *w = x->w;
  move(w, w->active & ~m, w->pc);
  SASS_FOR_LANES(m, l) w->lpc[l] = sass_rd(x, in->o[0].reg, l) + (uint32_t)in->o[1].ival;
  return 0;
}

int sass_prep_ret70(sass_prep *p) {
  sass_take(p, "REL");
  sass_take(p, "ABS");
  sass_take(p, "NODEC");
  if (sass_shape(p, "r i") < 0) return -1;
  sass_reg_span(p, 0, 2);
  p->in->own_pc = 1;
  p->in->exec = ex_ret70;
  return 0;
}

static int ex_exit70(sass_ctx *x, const sass_inst *in, uint32_t m) {
  (void)in;
  x->w->exited |= m;
  return 0;
}

int sass_prep_exit70(sass_prep *p) {
  if (sass_shape(p, "") < 0) return -1;
  p->in->exec = ex_exit70;
  return 0;
}

static int ex_bar70(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t id;
  if (!m) return 0;
  if (sass_bar_lanes(x, in, m, &id) < 0) return -1;
  if (x->w->wait_bar && x->w->bar != id)
    return sass_fault(x, in, -1, "lanes wait at barrier %u while others wait at %u", id, x->w->bar);
  x->w->wait_bar |= m;
  x->w->bar = (uint8_t)id;
  return 0;
}

int sass_prep_bar70(sass_prep *p) {
  if (sass_prep_bar(p) < 0) return -1;
  if (p->in->a == 1 /* ARV */) return sass_bad(p, "BAR.ARV is not supported from sm_70");
  p->in->exec = ex_bar70;
  return 0;
}
