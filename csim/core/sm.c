#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sm_internal.h"

const char *warp_wait_name(warp_wait w) {
  static const char *const names[WAIT_COUNT] = {
      "ready",   "empty",  "scoreboard", "memory", "pipeline",
      "barrier", "membar", "policy",     "exited", "not-launched", "fetch"};
  return w < WAIT_COUNT ? names[w] : "?";
}

sm *sm_create(int id, const gpu_config *c, policy *p, rf_diag *d) {
  sm *s = rf_calloc_lines(1, sizeof *s, d); /* (sm_prefetch counts its lines) */
  if (!s) return NULL;
  s->id = id;
  s->cfg = c;
  s->pol = p;
  /* a policy with CTA switching holds more CTAs and warps than the hardware runs at once */
  s->hw_warp_slots = c->max_threads_per_sm / c->warp_size;
  s->n_warp_slots = p->sm_warp_slots > 0 ? p->sm_warp_slots : s->hw_warp_slots;
  s->n_cta_slots = p->sm_cta_slots > 0 ? p->sm_cta_slots : c->shader_cta;
  s->last_issued = -1;
  s->free_load = -1;
  s->reg_epoch_span = REG_EPOCH_SPAN;
  s->unit_stride = 1;
  for (int u = 0; u < UNIT_COUNT; u++)
    if (c->num_units[u] > s->unit_stride) s->unit_stride = c->num_units[u];
  _Static_assert(sizeof(sm_warp) == 128, "a warp takes two cache lines (sm_internal.h)");
  s->warps = rf_calloc_lines((size_t)s->n_warp_slots, sizeof *s->warps, d);
  s->reg_ready_pool = rf_calloc((size_t)s->n_warp_slots * SM_NUM_REGS, sizeof(reg_time), d);
  s->warp_age = rf_calloc((size_t)s->n_warp_slots, sizeof *s->warp_age, d);
  s->ctas = rf_calloc((size_t)s->n_cta_slots, sizeof *s->ctas, d);
  s->cta_free_bits = rf_calloc((size_t)s->n_cta_slots / 64 + 1, sizeof(uint64_t), d);
  for (int i = 0; s->cta_free_bits && i < s->n_cta_slots; i++)
    s->cta_free_bits[i / 64] |= 1ull << (i % 64);
  s->unit_free = rf_calloc((size_t)UNIT_COUNT * (size_t)s->unit_stride, sizeof(uint64_t), d);
  s->order = rf_calloc((size_t)s->n_warp_slots + 1, sizeof(int), d);
  s->order_tmp = rf_calloc(2 * (size_t)s->n_warp_slots + 2, sizeof(int), d);
  s->fetch_words = s->n_warp_slots / 64 + 1;
  s->fetch_cand = rf_calloc((size_t)s->fetch_words, sizeof(uint64_t), d);
  if (p->ops->issue_gate) {
    s->issue_gate = p->ops->issue_gate(p, id);
    s->gate_seen = *s->issue_gate;
    s->refused = rf_calloc((size_t)s->fetch_words, sizeof(uint64_t), d);
  }
  /* (read by sched_init, which sizes the class masks) */
  if (policy_has_classes(s) && p->ops->warp_classes_epoch)
    s->class_epoch = p->ops->warp_classes_epoch(p, id);
  if (!s->fetch_cand || (s->issue_gate && !s->refused) || !s->order || !s->order_tmp ||
      !s->warps || !s->reg_ready_pool || !s->warp_age || !s->ctas || !s->cta_free_bits ||
      !s->unit_free || sched_init(s, d) < 0 || exec_init(s, d) < 0 || cs_create(s, d) < 0) {
    sm_destroy(s);
    return NULL;
  }
  s->can_sleep = (uint8_t)quiet_allowed(s);
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
  free(s->warp_age);
  free(s->ctas);
  free(s->cta_free_bits);
  free(s->unit_free);
  free(s->order);
  free(s->order_tmp);
  free(s->fetch_cand);
  free(s->refused);
  free(s->loads);
  free(s->events);
  free(s);
}

void sm_reset_counters(sm *s) { memset(&s->cnt, 0, sizeof s->cnt); }
void sm_count_sleep_later(sm *s, int on) { s->count_later = (uint8_t)(on != 0); }
uint64_t sm_dormant_until(const sm *s) {
  /* (sm_cycle's sleeping path: an SM without blocks returns at once; one with blocks marks its
   * sleep uncounted on its first quiet cycle and, counting later, does nothing more) */
  int nothing = s->resident_ctas == 0 || (s->uncounted && s->count_later);
  return nothing ? s->sleep_until : 0;
}
void sm_settle(sm *s, uint64_t now) { quiet_settle(s, now); }
const sm_counters *sm_get_counters(const sm *s) { return &s->cnt; }
int sm_resident_ctas(const sm *s) { return s->resident_ctas; }
int sm_resident_warps(const sm *s) { return s->resident_warps; }
int sm_last_issued_warp(const sm *s) { return s->last_issued; }
uint64_t sm_slept_cycles(const sm *s) { return s->slept; }
uint64_t sm_stage_kept_cycles(const sm *s) { return s->stage_kept; }
void sm_set_reg_epoch_span(sm *s, uint32_t cycles) {
  s->reg_epoch_span = cycles < 1 ? 1 : cycles > REG_EPOCH_SPAN ? REG_EPOCH_SPAN : cycles;
}
warp_wait sm_last_stall(const sm *s) { return s->last_stall; }
const l1d *sm_get_l1d(const sm *s) { return s->l1; }
int sm_resize_l1d(sm *s, int assoc, rf_diag *d) {
  s->sleep_until = 0;
  return l1d_set_assoc(s->l1, assoc, d);
}
const l1d *sm_get_l1i(const sm *s) { return s->l1i; }

int sm_busy(const sm *s) { return sm_holds_work(s); }
int sm_idle(const sm *s) { return sm_drained(s); }

double sm_cta_progress(const sm *s) {
  double sum = 0.0;
  for (int i = 0; i < s->n_cta_slots; i++) {
    const sm_cta *c = &s->ctas[i];
    if (!c->used) continue;
    uint64_t done = 0, total = 0;
    for (int w = 0; w < c->nwarps; w++) {
      uint32_t n = c->tb.warps[w].n;
      int slot = c->warp_slot[w];
      total += n;
      /* warps launch in order: one without a slot below `launched` has finished */
      done += slot >= 0 ? s->warps[slot].pc : w < c->launched ? n : 0;
    }
    if (total > 0) sum += (double)done / (double)total;
  }
  return sum;
}

int sm_free_cta_slot(const sm *s) {
  for (int w = 0; w * 64 < s->n_cta_slots; w++)
    if (s->cta_free_bits[w]) return w * 64 + __builtin_ctzll(s->cta_free_bits[w]);
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
  reg_time *regs = w->reg_ready;
  memset(w, 0, sizeof *w);
  memset(regs, 0, SM_NUM_REGS * sizeof *regs);
  w->reg_ready = regs;
  w->sb_pc = UINT32_MAX;
  w->live = 1;
  w->barrier = -1;
  w->cta = (int16_t)cta_slot; /* (at most 1024 CTA slots, 128 warps a CTA) */
  w->wid = (int16_t)wid;
  s->warp_age[slot] = s->next_age++;
  w->tw = &c->tb.warps[wid];
  w->insts = w->tw->insts;
  w->n_insts = w->tw->n;
  c->warp_slot[wid] = slot;
  c->launched++;
  cs_warp_changed(s, slot);
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
  s->cta_free_bits[slot / 64] &= ~(1ull << (slot % 64));
  c->tb = *tb;
  memset(tb, 0, sizeof *tb);
  c->k = k;
  c->nwarps = c->tb.nwarps;
  c->launched = c->finished = 0;
  c->not_exited = c->nwarps;
  memset(c->at_barrier, 0, sizeof c->at_barrier);
  c->launch_cycle = now;
  s->resident_ctas++;
  s->sleep_until = 0;
  for (int i = 0; i < nwarps_now && i < c->nwarps; i++)
    if (launch_warp(s, slot, i, now) < 0)
      return rf_fail(d, "SM %d: policy admitted %d warps but only %d warp slots are free", s->id,
                     nwarps_now, i);
  if (c->launched < c->nwarps) s->partial_ctas++;
  cs_launched(s, slot, now);
  return 0;
}

/* Partially launched CTAs (warp-level policies): offer their next warps to the policy, in
 * slot order. (Counted, so that an SM with none, most cycles, reads no CTA slot.) */
static void admit_pending_warps(sm *s, uint64_t now) {
  if (!s->pol->ops->warp_admit) return;
  for (int i = 0, left = s->partial_ctas; left > 0 && i < s->n_cta_slots; i++) {
    sm_cta *c = &s->ctas[i];
    if (!c->used || c->launched == c->nwarps) continue;
    left--;
    while (c->launched < c->nwarps &&
           s->pol->ops->warp_admit(s->pol, s->id, i, c->launched, c->k, now)) {
      if (launch_warp(s, i, c->launched, now) < 0) break;
    }
    if (c->launched == c->nwarps) s->partial_ctas--;
  }
}

/* With many SMs, an SM's state has left the host's caches by its next cycle (80 SMs on the
 * TITAN V), and sm_cycle's first read of it, sleep_until, waited for memory: 16% of the SMs'
 * step on atax-sm70. The scalars it reads every cycle sit together after the LD/ST queue: every
 * cache line from there to the struct's end, and its first. */
void sm_prefetch(const sm *s) {
  /* (the struct starts on a line: a count known here, and an unrolled loop, not one that
   * finds its lines at run time, a percent of the instructions on the GTX 480 config) */
  enum { FIRST = offsetof(sm, ldst_head) / 64, LINES = (sizeof(sm) + 63) / 64 };
  const char *base = (const char *)s;
  __builtin_prefetch(base);
  for (int k = FIRST; k < LINES; k++) __builtin_prefetch(base + 64 * k);
}

int sm_cycle(sm *s, memsys *m, uint64_t now, rf_diag *d) {
  if (now < s->sleep_until) {
    if (!memsys_reply_waiting(m, s->id)) {
      quiet_cycle(s, now);
      return 0;
    }
    s->sleep_until = 0;
  }
  quiet_settle(s, now);
  s->now = now;
  if (now - s->reg_epoch >= s->reg_epoch_span) reg_rebase(s, now);
  int progress = ldst_cycle(s, m, now);
  if (s->resident_ctas == 0) {
    s->last_issued = -1;
    s->last_stall = WAIT_EMPTY;
    if (!progress) s->sleep_until = quiet_until(s, now);
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
  count_cycle(s, 1);
  int moved = progress || issued != 0 || executed != 0;
  if (!moved) s->sleep_until = quiet_until(s, now);
  return moved;
}

void sm_report_warps(const sm *s, FILE *out) {
  for (int slot = 0; slot < s->n_warp_slots; slot++) {
    const sm_warp *w = &s->warps[slot];
    if (!w->live) continue;
    const sm_cta *c = &s->ctas[w->cta];
    const trace_inst *in = warp_next_inst(w);
    warp_wait why = w->exited ? WAIT_EXITED
                    : w->barrier >= 0 ? WAIT_BARRIER
                    : in ? WAIT_NONE : WAIT_EXITED;
    fprintf(out, "  SM %d warp slot %d: CTA (%d,%d,%d) warp %d, pc index %u/%u", s->id, slot,
            c->tb.id[0], c->tb.id[1], c->tb.id[2], w->wid, w->pc, w->tw->n);
    if (in) fprintf(out, " next %s at PC 0x%llx", trace_opcode_name(in->op->opcode),
                    (unsigned long long)in->op->pc);
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
  if (s->l1i) l1d_report(s->l1i, "L1I", out);
  l1d_report(s->l1, "L1D", out);
  cs_report(s, out);
}
