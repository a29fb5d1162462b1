#include <stdlib.h>
#include <string.h>

#include "../common/bits.h"
#include "sm_internal.h"

const char *warp_wait_name(warp_wait w) {
  static const char *const names[WAIT_COUNT] = {
      "ready",   "empty",  "scoreboard", "memory", "pipeline",
      "barrier", "membar", "policy",     "exited", "not-launched", "fetch"};
  return w < WAIT_COUNT ? names[w] : "?";
}

sm *sm_create(int id, const gpu_config *c, policy *p, rf_diag *d) {
  sm *s = rf_calloc(1, sizeof *s, d);
  if (!s) return NULL;
  s->id = id;
  s->cfg = c;
  s->pol = p;
  /* a policy with CTA switching holds more CTAs and warps than the hardware runs at once */
  s->n_warp_slots =
      p->sm_warp_slots > 0 ? p->sm_warp_slots : c->max_threads_per_sm / c->warp_size;
  s->n_cta_slots = p->sm_cta_slots > 0 ? p->sm_cta_slots : c->shader_cta;
  s->last_issued = -1;
  s->free_load = -1;
  s->unit_stride = 1;
  for (int u = 0; u < UNIT_COUNT; u++)
    if (c->num_units[u] > s->unit_stride) s->unit_stride = c->num_units[u];
  s->warps = rf_calloc((size_t)s->n_warp_slots, sizeof *s->warps, d);
  s->reg_ready_pool = rf_calloc((size_t)s->n_warp_slots * SM_NUM_REGS, sizeof(uint64_t), d);
  s->ctas = rf_calloc((size_t)s->n_cta_slots, sizeof *s->ctas, d);
  s->unit_free = rf_calloc((size_t)UNIT_COUNT * (size_t)s->unit_stride, sizeof(uint64_t), d);
  s->order = rf_calloc((size_t)s->n_warp_slots + 1, sizeof(int), d);
  s->order_tmp = rf_calloc(2 * (size_t)s->n_warp_slots + 2, sizeof(int), d);
  s->fetch_cand = rf_calloc((size_t)s->n_warp_slots / 64 + 1, sizeof(uint64_t), d);
  if (!s->fetch_cand || !s->order || !s->order_tmp || !s->warps || !s->reg_ready_pool || !s->ctas || !s->unit_free || sched_init(s, d) < 0 ||
      exec_init(s, d) < 0 || cs_create(s, d) < 0) {
    sm_destroy(s);
    return NULL;
  }
  for (int w = 0; w < s->n_warp_slots; w++)
    s->warps[w].reg_ready = s->reg_ready_pool + (size_t)w * SM_NUM_REGS;
  s->l1 = l1d_create(c, id, d);
  if (s->l1 && !c->perfect_inst_cache) {
    s->l1i = l1_cache_create(&c->l1i, 0, "L1I", id, d);
    if (!s->l1i) {
      sm_destroy(s);
      return NULL;
    }
  }
  if (!s->l1) {
    sm_destroy(s);
    return NULL;
  }
  return s;
}

void sm_destroy(sm *s) {
  if (!s) return;
  for (int i = 0; i < s->n_cta_slots && s->ctas; i++) {
    trace_tb_free(&s->ctas[i].tb);
    free(s->ctas[i].warp_slot);
  }
  if (s->l1) l1d_destroy(s->l1);
  if (s->l1i) l1d_destroy(s->l1i);
  sched_free(s);
  opcoll_destroy(s->oc);
  cs_free(s);
  free(s->warps);
  free(s->reg_ready_pool);
  free(s->ctas);
  free(s->unit_free);
  free(s->order);
  free(s->order_tmp);
  free(s->fetch_cand);
  free(s->loads);
  free(s->events);
  free(s);
}

void sm_reset_counters(sm *s) { memset(&s->cnt, 0, sizeof s->cnt); }
const sm_counters *sm_get_counters(const sm *s) { return &s->cnt; }
int sm_resident_ctas(const sm *s) { return s->resident_ctas; }
int sm_resident_warps(const sm *s) { return s->resident_warps; }
int sm_last_issued_warp(const sm *s) { return s->last_issued; }
warp_wait sm_last_stall(const sm *s) { return s->last_stall; }
const l1d *sm_get_l1d(const sm *s) { return s->l1; }
int sm_resize_l1d(sm *s, int assoc, rf_diag *d) { return l1d_set_assoc(s->l1, assoc, d); }
const l1d *sm_get_l1i(const sm *s) { return s->l1i; }

int sm_busy(const sm *s) {
  return s->resident_ctas > 0 || s->ldst_count > 0 || s->nevents > 0 || s->has_wb_global ||
         l1d_busy(s->l1) ||
         (s->l1i && l1d_busy(s->l1i));
}

int sm_free_cta_slot(const sm *s) {
  for (int i = 0; i < s->n_cta_slots; i++)
    if (!s->ctas[i].used) return i;
  return -1;
}

static int launch_warp(sm *s, int cta_slot, int wid, uint64_t now) {
  int slot = -1;
  for (int w = 0; w < s->n_warp_slots; w++)
    if (!s->warps[w].live) {
      slot = w;
      break;
    }
  if (slot < 0) return -1;
  if (slot >= s->warp_hwm) s->warp_hwm = slot + 1;
  sm_cta *c = &s->ctas[cta_slot];
  sm_warp *w = &s->warps[slot];
  uint64_t *regs = w->reg_ready;
  memset(w, 0, sizeof *w);
  memset(regs, 0, SM_NUM_REGS * sizeof *regs);
  w->reg_ready = regs;
  w->sb_pc = UINT32_MAX;
  w->live = 1;
  w->barrier = -1;
  w->cta = cta_slot;
  w->wid = wid;
  w->age = s->next_age++;
  w->tw = &c->tb.warps[wid];
  w->launch_cycle = now;
  c->warp_slot[wid] = slot;
  c->launched++;
  s->resident_warps++;
  sched_add_warp(s, slot);
  fetch_wake(s, slot);
  if (s->pol->ops->warp_start) s->pol->ops->warp_start(s->pol, s->id, cta_slot, wid, slot, now);
  return slot;
}

int sm_launch_cta(sm *s, int slot, trace_tb *tb, const trace_kernel_info *k, int nwarps_now,
                  uint64_t now, rf_diag *d) {
  sm_cta *c = &s->ctas[slot];
  int *ws = rf_realloc(c->warp_slot, (size_t)tb->nwarps, sizeof *ws, d);
  if (!ws) return -1;
  c->warp_slot = ws;
  for (int i = 0; i < tb->nwarps; i++) ws[i] = -1;
  c->used = 1;
  c->tb = *tb;
  memset(tb, 0, sizeof *tb);
  c->k = k;
  c->nwarps = c->tb.nwarps;
  c->launched = c->finished = 0;
  c->not_exited = c->nwarps;
  memset(c->at_barrier, 0, sizeof c->at_barrier);
  c->launch_cycle = now;
  s->resident_ctas++;
  for (int i = 0; i < nwarps_now && i < c->nwarps; i++)
    if (launch_warp(s, slot, i, now) < 0)
      return rf_fail(d, "SM %d: policy admitted %d warps but only %d warp slots are free", s->id,
                     nwarps_now, i);
  cs_launched(s, slot, now);
  return 0;
}

/* A barrier opens when every warp of the CTA that has not exited has arrived. not_exited starts
 * at the CTA's full warp count, so warps not launched yet (a partial TB under a warp-level
 * policy) count as not arrived and the launched ones wait for them (csim/policy/warpman.c says
 * why that cannot deadlock). */
static void release_barriers(sm *s, sm_cta *c) {
  for (int b = 0; b < SM_MAX_BARRIERS; b++) {
    if (c->at_barrier[b] == 0 || c->at_barrier[b] < c->not_exited) continue;
    for (int i = 0; i < c->nwarps; i++) {
      int slot = c->warp_slot[i];
      if (slot >= 0 && s->warps[slot].live && s->warps[slot].barrier == b)
        s->warps[slot].barrier = -1;
    }
    c->at_barrier[b] = 0;
  }
}

static void finish_cta(sm *s, int cta_slot) {
  sm_cta *c = &s->ctas[cta_slot];
  if (s->pol->ops->cta_exit) s->pol->ops->cta_exit(s->pol, s->id, cta_slot, c->k, s->now);
  trace_tb_free(&c->tb);
  c->used = 0;
  s->resident_ctas--;
  s->cnt.ctas_completed++;
  if (s->resident_ctas == 0 && s->cfg->flush_l1_cache) l1d_invalidate(s->l1);
}

/* A warp leaves its slot once it has exited and nothing it issued can still write back. */
void sm_try_finish(sm *s, int slot) {
  sm_warp *w = &s->warps[slot];
  if (!w->live || !w->exited || w->pending_loads || w->queued_mem || w->in_oc ||
      w->pending_stores)
    return;
  sm_cta *c = &s->ctas[w->cta];
  int cta = w->cta;
  w->live = 0;
  sched_remove_warp(s, slot);
  s->resident_warps--;
  s->cnt.warps_completed++;
  c->warp_slot[w->wid] = -1;
  c->finished++;
  if (s->pol->ops->warp_exit)
    s->pol->ops->warp_exit(s->pol, s->id, cta, w->wid, c->k, s->now);
  if (c->finished == c->nwarps) finish_cta(s, cta);
}

void sm_load_done(sm *s, int load, uint64_t now) {
  sm_load *l = &s->loads[load];
  if (--l->remaining > 0) return;
  if (l->hook_ticket >= 0) s->pol->ops->load_done(s->pol, s->id, l->hook_ticket, now);
  sm_warp *w = &s->warps[l->warp];
  for (int i = 0; i < l->ndst; i++) w->reg_ready[l->dst[i]] = now;
  w->sb_pc = UINT32_MAX;
  exec_written(s, l->warp, l->dst, l->ndst, now);
  w->pending_loads--;
  w->long_loads -= l->is_long;
  int slot = l->warp;
  l->warp = -1;
  l->remaining = s->free_load; /* free list threads through `remaining` */
  s->free_load = load;
  sm_try_finish(s, slot);
}

static void do_exit(sm *s, int slot) {
  sm_warp *w = &s->warps[slot];
  sm_cta *c = &s->ctas[w->cta];
  w->exited = 1;
  c->not_exited--;
  release_barriers(s, c);
  sm_try_finish(s, slot);
}

static const trace_inst *next_inst(const sm_warp *w) {
  return w->pc < w->tw->n ? &w->tw->insts[w->pc] : NULL;
}

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
    release_barriers(s, c);
  }
  /* A warp is done when its trace is: an EXIT earlier in the trace only retired some threads
   * (real traces carry predicated-off `EXIT` with mask 0 ahead of the work of the others). */
  if (w->pc == w->tw->n) do_exit(s, slot);
  return 0;
}

/* Partially launched CTAs (warp-level policies): offer their next warps to the policy. */
static void admit_pending_warps(sm *s, uint64_t now) {
  if (!s->pol->ops->warp_admit) return;
  for (int i = 0; i < s->n_cta_slots; i++) {
    sm_cta *c = &s->ctas[i];
    while (c->used && c->launched < c->nwarps &&
           s->pol->ops->warp_admit(s->pol, s->id, i, c->launched, c->k, now)) {
      if (launch_warp(s, i, c->launched, now) < 0) break;
    }
  }
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

/* The schedulers run in turn, the first one a different one each active cycle (GPGPU-Sim's
 * Issue_Prio: "fair round robin issue between schedulers"). Which scheduler comes first
 * decides who gets a resource they share in that cycle, and whether a warp a barrier releases
 * in this cycle may still issue in it. */
static int issue_stage(sm *s, uint64_t now, rf_diag *d) {
  int *order = s->order;
  int issued_any = 0;
  s->last_issued = -1;
  int nsched = s->cfg->num_sched_per_core;
  int first = s->issue_prio;
  s->issue_prio = first + 1 == nsched ? 0 : first + 1;
  for (int k = 0; k < nsched; k++) {
    int q = first + k < nsched ? first + k : first + k - nsched;
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
      const trace_inst *in = next_inst(w);
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
        const trace_inst *in2 = next_inst(w);
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

int sm_cycle(sm *s, memsys *m, uint64_t now, rf_diag *d) {
  s->now = now;
  int progress = ldst_cycle(s, m, now);
  if (s->resident_ctas == 0) {
    s->last_issued = -1;
    s->last_stall = WAIT_EMPTY;
    return progress;
  }
  admit_pending_warps(s, now);
  int executed = exec_stage(s, now, d);
  if (executed < 0) return -1;
  int issued = issue_stage(s, now, d);
  if (issued < 0) return -1;
  int switched = cs_cycle(s, now, d);
  if (switched < 0) return -1;
  issued |= switched;
  fetch_stage(s, m, now);
  if (s->pol->ops->tick) s->pol->ops->tick(s->pol, s->id, now);
  s->cnt.active_cycles++;
  s->cnt.resident_cta_sum += (uint64_t)s->resident_ctas;
  s->cnt.resident_warp_sum += (uint64_t)s->resident_warps;
  if (s->resident_ctas > s->cnt.max_resident_ctas) s->cnt.max_resident_ctas = s->resident_ctas;
  if (s->resident_warps > s->cnt.max_resident_warps)
    s->cnt.max_resident_warps = s->resident_warps;
  return progress || issued != 0 || executed != 0;
}

void sm_report_warps(const sm *s, FILE *out) {
  for (int slot = 0; slot < s->n_warp_slots; slot++) {
    const sm_warp *w = &s->warps[slot];
    if (!w->live) continue;
    const sm_cta *c = &s->ctas[w->cta];
    const trace_inst *in = next_inst(w);
    warp_wait why = w->exited ? WAIT_EXITED
                    : w->barrier >= 0 ? WAIT_BARRIER
                    : in ? WAIT_NONE : WAIT_EXITED;
    fprintf(out, "  SM %d warp slot %d: CTA (%d,%d,%d) warp %d, pc index %u/%u", s->id, slot,
            c->tb.id[0], c->tb.id[1], c->tb.id[2], w->wid, w->pc, w->tw->n);
    if (in) fprintf(out, " next %s at PC 0x%llx", trace_opcode_name(in->opcode),
                    (unsigned long long)in->pc);
    if (why == WAIT_BARRIER)
      fprintf(out, ": waiting at barrier %d (%d of %d live warps arrived)", w->barrier,
              c->at_barrier[w->barrier], c->not_exited);
    else if (why == WAIT_EXITED)
      fprintf(out, ": exited, %u loads and %u store acknowledgements outstanding, %u "
              "instructions in the operand collector", w->pending_loads, w->pending_stores,
              w->in_oc);
    else if (w->pc >= w->fetched)
      fprintf(out, ": waiting for instruction fetch%s", w->fetching ? " (L1I miss)" : "");
    else
      fprintf(out, ": %u loads outstanding, %u memory instructions queued%s%s", w->pending_loads,
              w->queued_mem, w->policy_held ? ", held by policy " : "",
              w->policy_held ? s->pol->ops->name : "");
    fputc('\n', out);
  }
  for (int i = 0; i < s->n_cta_slots; i++) {
    const sm_cta *c = &s->ctas[i];
    if (c->used && c->launched < c->nwarps)
      fprintf(out, "  SM %d CTA (%d,%d,%d): %d of %d warps not launched (policy %s)\n", s->id,
              c->tb.id[0], c->tb.id[1], c->tb.id[2], c->nwarps - c->launched, c->nwarps,
              s->pol->ops->name);
  }
  cs_report(s, out);
}
