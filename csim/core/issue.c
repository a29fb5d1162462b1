/* The issue stage: each scheduler tries its warps in its order (sched.c) and issues the first
 * instruction whose operands are ready, whose pipeline's ID_OC register has room and which the
 * policy allows; a scheduler that issues nothing counts the wait closest to issuing as its
 * stall reason (GPGPU-Sim's classification). */
#include "../common/bits.h"
#include "sm_internal.h"

/* The scoreboard part of check_issue: WAIT_MEMORY if an operand waits on a load, else
 * WAIT_SCOREBOARD if one is written back after `now`. A warp's operand registers change only
 * when it issues (its pc moves on), when an instruction of its leaves the operand collector
 * for a functional unit (its writeback time becomes known, exec.c) or when a load of its
 * completes; each clears sb_pc, so the answer for one pc is kept until then instead of reading
 * the registers every cycle. */
static inline warp_wait scoreboard_wait(sm_warp *w, const trace_inst *in, uint64_t now) {
  if (w->sb_pc != w->pc) {
    uint64_t ready = 0;
    uint8_t mem = 0;
    for (int i = 0; i < in->nsrc; i++) {
      uint64_t r = w->reg_ready[in->src[i]];
      if (r == REG_WAITS_ON_MEMORY) mem = 1;
      else if (r > ready) ready = r;
    }
    for (int i = 0; i < in->ndst; i++) {
      uint64_t r = w->reg_ready[in->dst[i]];
      if (r == REG_WAITS_ON_MEMORY) mem = 1;
      else if (r > ready) ready = r;
    }
    w->sb_pc = w->pc;
    w->sb_ready = ready;
    w->sb_mem = mem;
  }
  if (w->sb_mem) return WAIT_MEMORY;
  return w->sb_ready > now ? WAIT_SCOREBOARD : WAIT_NONE;
}

static inline warp_wait check_issue(sm *s, int slot, const trace_inst *in, uint64_t now) {
  sm_warp *w = &s->warps[slot];
  if (w->barrier >= 0) return WAIT_BARRIER;
  if (w->exited) return WAIT_EXITED;
  if (w->pc >= w->fetched) return WAIT_FETCH;
  if (in->kind == OPK_MEMBAR && (w->queued_mem || w->pending_loads || w->in_oc_mem))
    return WAIT_MEMBAR;
  warp_wait why = scoreboard_wait(w, in, now);
  if (why) return why;
  if (!exec_can_issue(s, slot, in)) return WAIT_PIPELINE;
  if (s->pol->ops->may_issue) {
    policy_warp pw = {s->id, w->cta, w->wid, slot, w->tw, w->pc};
    if (!s->pol->ops->may_issue(s->pol, &pw, in, now)) return WAIT_POLICY;
  }
  return WAIT_NONE;
}

static int issue(sm *s, int slot, const trace_inst *in, uint64_t now, rf_diag *d) {
  sm_warp *w = &s->warps[slot];
  sm_cta *c = &s->ctas[w->cta];
  s->cnt.warp_insts++;
  s->cnt.thread_insts += (uint64_t)rf_popcount32(in->mask);
  w->pc++;
  fetch_wake(s, slot);
  if (s->pol->ops->issued) {
    policy_warp pw = {s->id, w->cta, w->wid, slot, w->tw, w->pc - 1};
    s->pol->ops->issued(s->pol, &pw, in, now);
  }
  (void)now; /* the operand collector moves it on from the next cycle (exec.c) */
  (void)d;
  if (in->unit == UNIT_MEM && in->is_mem) s->cnt.mem_insts++;
  /* The LD/ST unit reads the 32 lane addresses (256 bytes: 4 or 5 cache lines) a few cycles
   * from now, when it coalesces them or counts bank conflicts: start loading them (a hint
   * only; those reads missed the cache more than anything else in the run). */
  if (in->is_mem) {
    const uint64_t *addrs = w->tw->addrs + in->addr_off;
    for (int k = 0; k < 32; k += 8) __builtin_prefetch(addrs + k);
    __builtin_prefetch(addrs + 31);
  }
  exec_issue(s, slot, in);
  if (in->kind == OPK_MEMBAR && s->cfg->flush_l1_cache) l1d_invalidate(s->l1);
  if (in->kind == OPK_BARRIER) {
    int b = in->has_imm ? (int)(in->imm % SM_MAX_BARRIERS) : 0;
    w->barrier = (int8_t)b;
    c->at_barrier[b]++;
    warp_release_barriers(s, c);
  }
  /* A warp is done when its trace is: an EXIT earlier in the trace only retired some threads
   * (real traces carry predicated-off `EXIT` with mask 0 ahead of the work of the others). */
  if (w->pc == w->tw->n) warp_exit(s, slot);
  return 0;
}

static void count_stall(sm *s, warp_wait worst) {
  switch (worst) {
    case WAIT_PIPELINE: s->cnt.stall_pipeline++; break;
    case WAIT_POLICY: s->cnt.stall_policy++; break;
    case WAIT_SCOREBOARD:
    case WAIT_MEMORY: s->cnt.stall_scoreboard++; break;
    case WAIT_BARRIER:
    case WAIT_MEMBAR: s->cnt.stall_barrier++; break;
    default: s->cnt.stall_idle++; break;
  }
}

/* Which wait best explains a scheduler's idle cycle: the one closest to issuing. */
static int wait_rank(warp_wait w) {
  switch (w) {
    case WAIT_PIPELINE: return 5;
    case WAIT_POLICY: return 4;
    case WAIT_SCOREBOARD: return 3;
    case WAIT_MEMORY: return 3;
    case WAIT_MEMBAR: return 2;
    case WAIT_BARRIER: return 1;
    default: return 0;
  }
}

int issue_stage(sm *s, uint64_t now, rf_diag *d) {
  int *order = s->order;
  int issued_any = 0;
  s->last_issued = -1;
  for (int q = 0; q < s->cfg->num_sched_per_core; q++) {
    int n = sched_order(s, q, now, order);
    warp_wait worst = WAIT_EMPTY;
    int issued = 0;
    for (int i = 0; i < n && !issued; i++) {
      int slot = order[i];
      sm_warp *w = &s->warps[slot];
      if (!w->live) continue;
      /* Not at a barrier and exited or waiting for fetch: check_issue would say so, and such
       * waits (rank 0) never change `worst`, so skip them before touching the trace. */
      if (w->barrier < 0 && (w->exited || w->pc >= w->fetched)) continue;
      if (w->barrier >= 0) { /* what check_issue answers first, without the instruction */
        if (w->pc < w->tw->n && wait_rank(WAIT_BARRIER) > wait_rank(worst)) worst = WAIT_BARRIER;
        continue;
      }
      const trace_inst *in = warp_next_inst(w);
      if (!in) continue;
      warp_wait why = check_issue(s, slot, in, now);
      w->policy_held = why == WAIT_POLICY;
      if (why != WAIT_NONE) {
        if (wait_rank(why) > wait_rank(worst)) worst = why;
        continue;
      }
      int prev_unit = in->unit;
      if (issue(s, slot, in, now, d) < 0) return -1;
      issued = 1;
      for (int extra = 1; extra < s->cfg->max_insn_issue_per_warp && w->live; extra++) {
        const trace_inst *in2 = warp_next_inst(w);
        if (!in2 || (s->cfg->dual_issue_diff_exec_units && in2->unit == prev_unit)) break;
        if (check_issue(s, slot, in2, now) != WAIT_NONE) break;
        prev_unit = in2->unit;
        if (issue(s, slot, in2, now, d) < 0) return -1;
      }
      sched_issued(s, q, slot);
      if (s->last_issued < 0) s->last_issued = slot;
    }
    if (issued) issued_any = 1;
    else count_stall(s, worst);
    if (q == 0) s->last_stall = issued ? WAIT_NONE : worst;
  }
  return issued_any;
}
