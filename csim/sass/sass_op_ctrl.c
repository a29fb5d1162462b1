/* Control flow on Pascal's reconvergence (CRS) stack, and barriers.
 *
 * SSY, PBK and PCNT push an entry (reconvergence, break or continue point) with the active
 * lanes; CAL pushes its return point. A branch that splits the warp pushes the taken lanes as a
 * divergence entry and runs the fall-through lanes first. SYNC, BRK, CONT, RET and EXIT take the
 * lanes that execute them out of the active set: BRK, CONT and RET mark them as waiting for the
 * nearest entry of their kind, SYNC parks them at the entry on top. When no lane is left active
 * the stack unwinds: the top entry's lanes resume at its point, less those that exited and those
 * still waiting for an entry further down (lanes that broke out of an outer loop stay out when an
 * inner reconvergence point is reached). A warp whose stack empties with no lane active is done.
 * This is the behaviour envytools and the CUDA binary utilities document for these
 * instructions; which side of a split runs first is not documented, and only changes the order
 * of a warp's instructions in the trace, never a result. */
#include "sass_op.h"

#include "../common/bits.h"

void sass_simt_unwind(sass_warp *w) {
  while (!w->active) {
    if (w->sp == 0) {
      w->state = SW_DONE;
      return;
    }
    sass_frame *f = &w->stack[--w->sp];
    uint32_t below = 0;
    for (int i = 0; i < w->sp; i++) below |= w->stack[i].waiting;
    w->active = f->mask & ~w->exited & ~below;
    w->pc = f->pc;
  }
}

static int push(sass_ctx *x, const sass_inst *in, int type, uint32_t pc, uint32_t mask) {
  sass_warp *w = x->w;
  if (w->sp == SASS_STACK_MAX)
    return sass_fault(x, in, -1, "reconvergence stack overflow (%d entries)", SASS_STACK_MAX);
  w->stack[w->sp++] = (sass_frame){.type = (uint8_t)type, .pc = pc, .mask = mask};
  return 0;
}

/* lanes m leave the active set; unwind if none is left */
static void leave(sass_warp *w, uint32_t m) {
  w->active &= ~m;
  if (!w->active) sass_simt_unwind(w);
}

static int ex_bra(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_warp *w = x->w;
  uint32_t stay = w->active & ~m;
  if (!m) return 0;
  if (!stay) {
    w->pc = (uint32_t)in->k;
    return 0;
  }
  if (push(x, in, SS_DIV, (uint32_t)in->k, m) < 0) return -1;
  w->active = stay;
  return 0;
}

static int prep_target(sass_prep *p) {
  if (sass_shape(p, "i") < 0) return -1;
  if (p->in->o[0].ival < 0 || p->in->o[0].ival % 8 || p->in->o[0].ival > 0x7fffffff)
    return sass_bad(p, "expected an 8-byte aligned target address");
  p->in->k = (int32_t)p->in->o[0].ival;
  p->in->is_ctrl = 1;
  return 0;
}

int sass_prep_bra(sass_prep *p) {
  sass_take(p, "U"); /* uniform: a hint, the stack handles a split either way */
  if (prep_target(p) < 0) return -1;
  p->in->exec = ex_bra;
  return 0;
}

static int ex_push(sass_ctx *x, const sass_inst *in, uint32_t m) {
  (void)m;
  return push(x, in, in->a, (uint32_t)in->k, x->w->active);
}

int sass_prep_push(sass_prep *p) {
  const char *mn = p->in->mtext;
  if (prep_target(p) < 0) return -1;
  p->in->a = !strcmp(mn, "SSY") ? SS_SYNC : !strcmp(mn, "PBK") ? SS_BRK : SS_CONT;
  p->in->exec = ex_push;
  return 0;
}

static int ex_sync(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_warp *w = x->w;
  if (!m) return 0;
  if (!w->sp || (w->stack[w->sp - 1].type != SS_SYNC && w->stack[w->sp - 1].type != SS_DIV))
    return sass_fault(x, in, -1, "SYNC without a reconvergence entry (SSY) on the stack");
  leave(w, m);
  return 0;
}

int sass_prep_sync(sass_prep *p) {
  if (sass_shape(p, "") < 0) return -1;
  p->in->is_ctrl = 1;
  p->in->exec = ex_sync;
  return 0;
}

/* BRK, CONT, RET: the lanes wait for the nearest entry of the matching kind */
static int ex_leave_to(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_warp *w = x->w;
  if (!m) return 0;
  int i = w->sp - 1;
  while (i >= 0 && w->stack[i].type != in->a) i--;
  if (i < 0)
    return sass_fault(x, in, -1, "%s without a matching %s entry on the stack", in->mtext,
                      in->a == SS_BRK ? "PBK" : in->a == SS_CONT ? "PCNT" : "CAL");
  w->stack[i].waiting |= m;
  leave(w, m);
  return 0;
}

int sass_prep_brk(sass_prep *p) {
  if (sass_shape(p, "") < 0) return -1;
  p->in->a = !strcmp(p->in->mtext, "BRK") ? SS_BRK : SS_CONT;
  p->in->is_ctrl = 1;
  p->in->exec = ex_leave_to;
  return 0;
}

int sass_prep_ret(sass_prep *p) {
  if (sass_shape(p, "") < 0) return -1;
  p->in->a = SS_CALL;
  p->in->is_ctrl = 1;
  p->in->exec = ex_leave_to;
  return 0;
}

static int ex_cal(sass_ctx *x, const sass_inst *in, uint32_t m) {
  (void)m;
  if (push(x, in, SS_CALL, x->w->pc, x->w->active) < 0) return -1;
  x->w->pc = (uint32_t)in->k;
  return 0;
}

int sass_prep_cal(sass_prep *p) {
  if (p->in->guard != SASS_PT || p->in->guard_not)
    return sass_bad(p, "a predicated call is not supported");
  if (prep_target(p) < 0) return -1;
  p->in->exec = ex_cal;
  return 0;
}

static int ex_exit(sass_ctx *x, const sass_inst *in, uint32_t m) {
  (void)in;
  x->w->exited |= m;
  leave(x->w, m);
  return 0;
}

int sass_prep_exit(sass_prep *p) {
  if (sass_shape(p, "") < 0) return -1;
  p->in->is_ctrl = 1;
  p->in->exec = ex_exit;
  return 0;
}

static int ex_nothing(sass_ctx *x, const sass_inst *in, uint32_t m) {
  (void)x, (void)in, (void)m;
  return 0;
}

/* NOP, and DEPBAR (waits on scoreboards: timing only) */
int sass_prep_nop(sass_prep *p) {
  if (!strcmp(p->in->mtext, "DEPBAR")) {
    sass_take(p, "LE");
    if (sass_shape(p, "?b ?i") < 0) return -1;
  } else {
    sass_take(p, "TRIG");
    if (sass_shape(p, "?i") < 0) return -1;
  }
  p->in->exec = ex_nothing;
  return 0;
}

/* BAR.SYNC id[, threads]; BAR.ARV id, threads; BAR.RED.POPC|AND|OR id[, threads], P. The warp
 * arrives (once, whichever of its lanes execute it); the run loop releases the barrier's warps
 * when the expected number has arrived: the threads given, else every warp not yet exited. */
/* The barrier instruction's part, shared by both architectures: the barrier id and expected
 * count, the reduction of the arriving lanes' predicate. The warp's arrival (once per warp, when
 * it and, from sm_70, all its live lanes have executed it) is sass_bar_warp_arrives. */
enum { BK_SYNC, BK_ARV, BK_POPC, BK_AND, BK_OR };
int sass_bar_lanes(sass_ctx *x, const sass_inst *in, uint32_t m, uint32_t *id) {
  sass_cta *c = x->c;
  *id = sass_src(x, &in->o[0], 0);
  if (*id >= SASS_BARRIERS)
    return sass_fault(x, in, -1, "barrier id %u beyond the %d barriers", *id, SASS_BARRIERS);
  uint32_t expected = 0;
  if (in->b) {
    uint32_t threads = sass_src(x, &in->o[1], 0);
    if (!threads || threads % SASS_WARP)
      return sass_fault(x, in, -1, "barrier thread count %u is not a multiple of 32", threads);
    expected = threads / SASS_WARP;
  }
  if (c->bar_arrived[*id] == 0 && !c->bar_started[*id]) {
    c->bar_count[*id] = c->bar_threads[*id] = 0;
    c->bar_kind[*id] = in->a;
    c->bar_expected[*id] = expected; /* 0: every live warp */
    c->bar_started[*id] = 1;
  }
  if (in->a >= BK_POPC) {
    const sass_opnd *p = &in->o[in->nops - 1];
    c->bar_count[*id] += (uint32_t)rf_popcount32(sass_pred(x->w, p->reg, p->flags & SOF_NOT) & m);
    c->bar_threads[*id] += (uint32_t)rf_popcount32(m);
  }
  return 0;
}

void sass_bar_warp_arrives(sass_ctx *x, uint32_t id) {
  x->c->bar_arrived[id]++;
  if (x->c->bar_kind[id] != BK_ARV) {
    x->w->state = SW_BAR;
    x->w->bar = (uint8_t)id;
  }
}

static int ex_bar(sass_ctx *x, const sass_inst *in, uint32_t m) {
  uint32_t id;
  if (!m) return 0;
  if (sass_bar_lanes(x, in, m, &id) < 0) return -1;
  sass_bar_warp_arrives(x, id);
  return 0;
}

int sass_prep_bar(sass_prep *p) {
  sass_inst *in = p->in;
  sass_take(p, "DEFER_BLOCKING"); /* sm_70: how the warp waits, not whether */
  if (sass_take(p, "SYNC")) in->a = BK_SYNC;
  else if (sass_take(p, "ARV")) in->a = BK_ARV;
  else if (sass_take(p, "RED")) {
    static const char *const r[] = {"POPC", "AND", "OR"};
    int k = sass_take_of(p, r, 3, -1);
    if (k < 0) return sass_bad(p, "expected .POPC, .AND or .OR");
    in->a = (uint8_t)(BK_POPC + k);
  } else {
    return sass_bad(p, "expected .SYNC, .ARV or .RED");
  }
  const char *spec = in->a >= BK_POPC ? "ri ?ri p" : in->a == BK_ARV ? "ri ri" : "ri ?ri";
  if (in->a >= BK_POPC && in->nops == 2) spec = "ri p";
  if (sass_shape(p, spec) < 0) return -1;
  in->b = (uint8_t)(in->nops >= 2 && in->o[1].kind != SO_PRED);
  in->is_ctrl = 1;
  in->exec = ex_bar;
  return 0;
}

/* B2R.RESULT d[, P]: the last BAR.RED's thread count in d; P its .AND or .OR */
static int ex_b2r(sass_ctx *x, const sass_inst *in, uint32_t m) {
  sass_warp *w = x->w;
  SASS_FOR_LANES(m, l) sass_wr(x, in->o[0].reg, l, w->b2r_count);
  if (in->nops == 2) {
    int all = w->b2r_count == w->b2r_threads, any = w->b2r_count != 0;
    sass_setp(w, in->o[1].reg, (w->b2r_kind == BK_AND ? all : any) ? ~0u : 0, m);
  }
  return 0;
}

int sass_prep_b2r(sass_prep *p) {
  if (sass_shape(p, "r ?p") < 0) return -1;
  if (!sass_take(p, "RESULT")) return sass_bad(p, "expected .RESULT");
  p->in->exec = ex_b2r;
  return 0;
}
