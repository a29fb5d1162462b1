/* The SM's side of the register file: issue into the operand collector (opcoll.h), the execute
 * stage that moves collected instructions into functional units or the LD/ST unit, and the
 * writebacks that claim register-bank ports. Timing follows GPGPU-Sim's pipeline
 * (shader_core_ctx::cycle: writeback, execute, read_operands, issue): an ALU instruction that
 * enters its unit at cycle e with latency L and initiation interval II frees the unit at e + II
 * and writes back (scoreboard released, bank ports claimed) at e + L + 2: one cycle to leave
 * the dispatch register, L - 1 pipeline stages, one into EX_WB, one to write back. */
#include <limits.h>
#include <string.h>

#include "sm_internal.h"

#define WB_DELAY 2
/* A writeback time as a reg_time: at most the epoch's span and the longest latency after the
 * epoch, below the two marks. */
_Static_assert((uint64_t)REG_EPOCH_SPAN + INT_MAX + WB_DELAY < REG_IN_PIPELINE,
               "a reg_time distance stays below REG_IN_PIPELINE");

/* The pipeline whose ID_OC/OC_EX registers and units an instruction uses. Control instructions
 * (branch, barrier, exit) go down the SP pipeline, or the INT one where it exists, as in
 * GPGPU-Sim. */
static int pipe_class(const sm *s, op_unit u) {
  if (u == UNIT_MEM) return UNIT_MEM;
  if (u == UNIT_CTRL) return s->cfg->num_units[UNIT_INT] > 0 ? UNIT_INT : UNIT_SP;
  return config_exec_unit(s->cfg, u);
}

int exec_init(sm *s, rf_diag *d) {
  int ahead = 0;
  for (int u = 0; u < UNIT_COUNT; u++)
    if (s->cfg->latency[u] > ahead) ahead = s->cfg->latency[u];
  s->oc = opcoll_create(s->cfg, ahead + WB_DELAY, &s->cnt.rf, d);
  if (!s->oc) return -1;
  s->oc_blocked = opcoll_issue_blocked(s->oc);
  s->oc_unblocked = opcoll_unblocked(s->oc);
  for (int u = 0; u < UNIT_COUNT; u++) s->pipe_cls[u] = (uint8_t)pipe_class(s, (op_unit)u);
  return 0;
}

void exec_issue(sm *s, int slot, const trace_inst *in) {
  sm_warp *w = &s->warps[slot];
  oc_inst oi = {.payload = in, .warp = slot, .sched = s->slot_sched[slot],
                .cls = s->pipe_cls[in->op->unit], .nsrc = in->op->nsrc};
  memcpy(oi.src, in->op->src, sizeof oi.src); /* (all of it: one move, not a call) */
  /* (its pc moved on: check_issue's answer, kept for the old pc, is not used again) */
  for (int i = 0; i < in->op->ndst; i++) reg_wait(w, in->op->dst[i], REG_IN_PIPELINE);
  w->in_oc++;
  if (oi.cls == UNIT_MEM) w->in_oc_mem++;
  opcoll_issue(s->oc, &oi);
}

/* Functional units of pipeline e take the oldest collected instructions they can. */
static int execute_alu(sm *s, int e, uint64_t now) {
  int moved = 0, nsched = s->cfg->num_sched_per_core;
  uint64_t *pipes = s->unit_free + (size_t)e * (size_t)s->unit_stride;
  for (int i = 0; i < s->cfg->num_units[e]; i++) {
    if (pipes[i] > now) continue;
    int slot = opcoll_ex_ready(s->oc, e, s->cfg->sub_core_model ? i % nsched : -1);
    if (slot < 0) continue;
    const oc_inst *oi = opcoll_ex_inst(s->oc, e, slot);
    const trace_inst *in = oi->payload;
    /* latency class: the instruction's own */
    int u = in->op->unit == UNIT_CTRL ? e : in->op->unit;
    int warp = oi->warp;
    sm_warp *w = &s->warps[warp];
    pipes[i] = now + (uint64_t)s->cfg->initiation[u];
    uint64_t wb = now + (uint64_t)s->cfg->latency[u] + WB_DELAY;
    for (int k = 0; k < in->op->ndst; k++) reg_wait(w, in->op->dst[k], reg_time_of(s, wb));
    warp_regs_written(s, warp, in->op->dst, in->op->ndst);
    if (in->op->ndst) opcoll_write(s->oc, warp, oi->sched, in->op->dst, in->op->ndst, wb);
    opcoll_ex_pop(s->oc, e, slot);
    w->in_oc--;
    warp_try_finish(s, warp);
    moved = 1;
  }
  return moved;
}

/* The LD/ST unit takes one collected memory instruction per cycle when its queue has room. */
static int execute_mem(sm *s, uint64_t now, rf_diag *d) {
  /* (a full queue first: the oldest instruction is a search, and a memory-bound SM finds the
   * queue full for most cycles) */
  if (!ldst_can_accept(s)) return 0;
  int slot = opcoll_ex_ready(s->oc, UNIT_MEM, -1);
  if (slot < 0) return 0;
  const oc_inst *oi = opcoll_ex_inst(s->oc, UNIT_MEM, slot);
  const trace_inst *in = oi->payload;
  int warp = oi->warp;
  sm_warp *w = &s->warps[warp];
  opcoll_ex_pop(s->oc, UNIT_MEM, slot);
  w->in_oc--;
  w->in_oc_mem--;
  if (in->op->is_mem && ldst_push(s, warp, in, now, d) < 0) return -1;
  /* Registers no load will write (no accesses, or not a load) are free now. */
  for (int k = 0; k < in->op->ndst; k++)
    if (w->reg_ready[in->op->dst[k]] == REG_IN_PIPELINE)
      w->reg_ready[in->op->dst[k]] = reg_time_of(s, now);
  /* (its loads' registers wait on memory now, or are free) */
  warp_regs_written(s, warp, in->op->dst, in->op->ndst);
  warp_try_finish(s, warp);
  return 1;
}

int exec_stage(sm *s, uint64_t now, rf_diag *d) {
  if (opcoll_in_flight(s->oc) == 0) return 0;
  int moved = 0;
  /* Pipelines with nothing collected have nothing to execute (nothing enters OC_EX before the
   * collector's cycle below). */
  uint32_t busy = opcoll_ex_busy(s->oc) & ((1u << UNIT_CTRL) - 1);
  for (; busy; busy &= busy - 1) {
    int e = __builtin_ctz(busy);
    if (e == UNIT_MEM) {
      int r = execute_mem(s, now, d);
      if (r < 0) return -1;
      moved |= r;
    } else if (s->cfg->num_units[e] > 0) {
      moved |= execute_alu(s, e, now);
    }
  }
  return opcoll_cycle(s->oc, now) | moved;
}
