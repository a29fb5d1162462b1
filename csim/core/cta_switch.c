/* CTA switching machinery (FineReg, Virtual Thread, Reg+DRAM): more CTAs resident on an SM than
 * its schedulers run at once. A resident CTA is active (its warps are in the schedulers' lists)
 * or pending (its warps are out of the lists; its registers are wherever the policy keeps
 * them), or switching between the two. The machinery finds the CTAs whose warps all wait on a
 * long-latency load (global/local: `stalled`) and the pending CTAs that could run again
 * (`ready`), and asks the policy (policy_ops.switch_decide) what to do: which CTA to switch out
 * and/or in, and how long that takes (the latency is the policy's, so it can come from hardware
 * units). A switch may move data through the memory hierarchy (Reg+DRAM): its 128-byte lines
 * go through the SM's L1 when the LD/ST unit leaves its port free, and the switch completes only
 * when they have been accepted (stores) or have returned (loads).
 *
 * In-flight loads of a pending CTA still complete (their data lands where the CTA's registers
 * are held); a pending CTA never issues. */
#include <stdlib.h>
#include <string.h>

#include "sm_internal.h"

typedef struct cs_cta {
  policy_cta_state state;
  uint64_t since, until;
  uint32_t lines, sent, done; /* transfer through the L1 */
  uint64_t addr;
  uint8_t write;
} cs_cta;

struct cta_switch {
  cs_cta *ctas;
  policy_cta_view *views;
  policy_warp_pos *pos;
  int cap_pos;
  int in_flight; /* CTAs in SWITCH_OUT / SWITCH_IN */
  int hwm;       /* 1 + highest CTA slot ever launched (the SM fills the lowest free slot) */
};

int cs_create(sm *s, rf_diag *d) {
  if (!s->pol->ops->switch_decide && !s->pol->ops->cta_start_state) return 0;
  cta_switch *c = rf_calloc(1, sizeof *c, d);
  if (!c) return -1;
  s->sw = c;
  c->ctas = rf_calloc((size_t)s->n_cta_slots, sizeof *c->ctas, d);
  c->views = rf_calloc((size_t)s->n_cta_slots, sizeof *c->views, d);
  return c->ctas && c->views ? 0 : -1;
}

void cs_free(sm *s) {
  if (!s->sw) return;
  free(s->sw->ctas);
  free(s->sw->views);
  free(s->sw->pos);
  free(s->sw);
  s->sw = NULL;
}

int cs_cta_active(const sm *s, int slot) {
  return !s->sw || s->sw->ctas[slot].state == PCTA_ACTIVE;
}

static void park(sm *s, int cta) {
  const sm_cta *c = &s->ctas[cta];
  for (int i = 0; i < c->nwarps; i++)
    if (c->warp_slot[i] >= 0 && s->warps[c->warp_slot[i]].live)
      sched_remove_warp(s, c->warp_slot[i]);
}

static void unpark(sm *s, int cta) {
  const sm_cta *c = &s->ctas[cta];
  for (int i = 0; i < c->nwarps; i++)
    if (c->warp_slot[i] >= 0 && s->warps[c->warp_slot[i]].live)
      sched_insert_warp(s, c->warp_slot[i]);
}

void cs_launched(sm *s, int cta, uint64_t now) {
  if (!s->sw) return;
  cs_cta *c = &s->sw->ctas[cta];
  memset(c, 0, sizeof *c);
  c->since = now;
  if (cta >= s->sw->hwm) s->sw->hwm = cta + 1;
  c->state = s->pol->ops->cta_start_state
                 ? s->pol->ops->cta_start_state(s->pol, s->id, cta, now)
                 : PCTA_ACTIVE;
  if (c->state != PCTA_ACTIVE) {
    c->state = PCTA_PENDING;
    park(s, cta);
  }
}

/* -1: the warp can issue (or will after a short wait); 0: it waits on nothing a switch could
 * hide (finished, exited, at a barrier); 1: it waits on a long-latency load. */
static int warp_wait_kind(const sm *s, int slot) {
  if (slot < 0) return 0;
  const sm_warp *w = &s->warps[slot];
  if (!w->live || w->exited || w->barrier >= 0 || w->pc >= w->n_insts) return 0;
  if (!w->long_loads) return -1;
  return inst_waits_on_memory(w, &w->insts[w->pc]) ? 1 : -1;
}

/* stalled (active) / ready (pending) of CTA slot i. */
static int cta_flag(const sm *s, int i, policy_cta_state st) {
  const sm_cta *c = &s->ctas[i];
  if (st == PCTA_ACTIVE) {
    if (c->launched < c->nwarps) return 0;
    int loads = 0;
    for (int w = 0; w < c->nwarps; w++) {
      int k = warp_wait_kind(s, c->warp_slot[w]);
      if (k < 0) return 0;
      loads += k;
    }
    return loads > 0;
  }
  if (st == PCTA_PENDING) {
    for (int w = 0; w < c->nwarps; w++)
      if (warp_wait_kind(s, c->warp_slot[w]) < 0) return 1;
  }
  return 0;
}

/* L1D accesses per 128-byte line of a transfer: a sectored L1D takes one 32-byte sector per
 * access (as the coalescer hands them out from -gpgpu_coalesce_arch 40 on); without an L1D a
 * sectored L2 would answer a line in four replies, so sectors are sent too. Each access then
 * completes once. */
static uint32_t per_line(const sm *s) {
  const gpu_config *c = s->cfg;
  int sectors = c->l1d.enabled ? c->l1d.sectored : c->l2.enabled && c->l2.sectored;
  return sectors ? MEM_SECTORS_PER_LINE : 1;
}

static int start_switch(sm *s, const policy_switch *ps, uint64_t now, rf_diag *d) {
  cta_switch *sw = s->sw;
  if (ps->out_slot >= 0) {
    if (ps->out_slot >= s->n_cta_slots || !s->ctas[ps->out_slot].used ||
        sw->ctas[ps->out_slot].state != PCTA_ACTIVE)
      return rf_fail(d, "SM %d: policy %s switched out CTA slot %d, which is not an active CTA",
                     s->id, s->pol->ops->name, ps->out_slot);
    cs_cta *c = &sw->ctas[ps->out_slot];
    *c = (cs_cta){PCTA_SWITCH_OUT, now, now + ps->out_cycles, ps->out_lines * per_line(s), 0, 0,
                  ps->out_addr, 1};
    park(s, ps->out_slot);
    sw->in_flight++;
  }
  if (ps->in_slot >= 0) {
    if (ps->in_slot >= s->n_cta_slots || !s->ctas[ps->in_slot].used ||
        sw->ctas[ps->in_slot].state != PCTA_PENDING)
      return rf_fail(d, "SM %d: policy %s switched in CTA slot %d, which is not a pending CTA",
                     s->id, s->pol->ops->name, ps->in_slot);
    cs_cta *c = &sw->ctas[ps->in_slot];
    *c = (cs_cta){PCTA_SWITCH_IN, now, now + ps->in_cycles, ps->in_lines * per_line(s), 0, 0,
                  ps->in_addr, 0};
    sw->in_flight++;
  }
  return 0;
}

void cs_mem_done(sm *s, uint32_t token) {
  int slot = (int)(token & ~CS_TOKEN);
  if (s->sw && slot < s->n_cta_slots) s->sw->ctas[slot].done++;
}

/* One L1 access of a switch's transfer per cycle (a line, or a sector of a sectored L1D), when
 * the LD/ST unit leaves the L1 port free (its queue is empty or its head has no L1 access left
 * to present: shared memory). */
static int transfer(sm *s, uint64_t now) {
  const ldst_entry *head = &s->ldst[s->ldst_head];
  if (s->ldst_count > 0 && head->next < head->naccess) return 0;
  for (int i = 0; i < s->sw->hwm; i++) {
    cs_cta *c = &s->sw->ctas[i];
    if ((c->state != PCTA_SWITCH_OUT && c->state != PCTA_SWITCH_IN) || c->sent >= c->lines)
      continue;
    uint32_t per = per_line(s);
    uint8_t mask = per == 1 ? 0xf : (uint8_t)(1u << (c->sent % per));
    mem_access a = {.addr = c->addr + (uint64_t)(c->sent / per) * 128,
                    .token = CS_TOKEN | (uint32_t)i, .sector_mask = mask, .full_mask = mask,
                    .size = (uint16_t)(128 / per), .is_write = c->write, .space = SPACE_LOCAL,
                    .sm = (uint16_t)s->id};
    if (l1d_access(s->l1, &a, now) == L1_STALL) {
      s->cnt.l1_stall_cycles++;
      return 0;
    }
    ldst_wake(s);
    c->sent++;
    if (c->write) c->done++;
    return 1;
  }
  return 0;
}

int cs_cycle(sm *s, uint64_t now, rf_diag *d) {
  cta_switch *sw = s->sw;
  if (!sw) return 0;
  int progress = 0;
  if (sw->in_flight) {
    progress |= transfer(s, now);
    for (int i = 0; i < sw->hwm; i++) {
      cs_cta *c = &sw->ctas[i];
      if ((c->state != PCTA_SWITCH_OUT && c->state != PCTA_SWITCH_IN) || now < c->until ||
          c->done < c->lines)
        continue;
      c->state = c->state == PCTA_SWITCH_OUT ? PCTA_PENDING : PCTA_ACTIVE;
      c->since = now;
      sw->in_flight--;
      if (c->state == PCTA_ACTIVE) unpark(s, i);
      if (s->pol->ops->switch_done) s->pol->ops->switch_done(s->pol, s->id, i, c->state, now);
      progress = 1;
    }
  }
  if (!s->pol->ops->switch_decide) return progress;
  int n = 0, want = 0, nwarps = 0;
  for (int i = 0; i < sw->hwm; i++) {
    if (!s->ctas[i].used) continue;
    policy_cta_view *v = &sw->views[n++];
    v->slot = i;
    v->state = sw->ctas[i].state;
    v->since = sw->ctas[i].since;
    v->stalled = v->state == PCTA_ACTIVE && cta_flag(s, i, PCTA_ACTIVE);
    v->ready = v->state == PCTA_PENDING && cta_flag(s, i, PCTA_PENDING);
    v->linear_id = s->ctas[i].tb.linear_id;
    v->nwarps = s->ctas[i].nwarps;
    want |= v->stalled | v->ready;
    nwarps += v->nwarps;
  }
  if (!want) return progress;
  if (nwarps > sw->cap_pos) {
    policy_warp_pos *p = rf_realloc(sw->pos, (size_t)nwarps, sizeof *p, d);
    if (!p) return -1;
    sw->pos = p;
    sw->cap_pos = nwarps;
  }
  policy_warp_pos *p = sw->pos;
  for (int j = 0; j < n; j++) {
    const sm_cta *c = &s->ctas[sw->views[j].slot];
    sw->views[j].warps = p;
    for (int w = 0; w < c->nwarps; w++, p++) {
      int slot = c->warp_slot[w];
      const sm_warp *sw_ = slot >= 0 ? &s->warps[slot] : NULL;
      *p = sw_ && sw_->live ? (policy_warp_pos){sw_->tw, sw_->pc, sw_->exited}
                            : (policy_warp_pos){NULL, 0, 1};
    }
  }
  policy_switch ps = {-1, -1, 0, 0, 0, 0, 0, 0};
  if (s->pol->ops->switch_decide(s->pol, s->id, sw->views, n, now, &ps) == 1) {
    if (start_switch(s, &ps, now, d) < 0) return -1;
    progress = 1;
  }
  return progress;
}

void cs_report(const sm *s, FILE *out) {
  if (!s->sw) return;
  static const char *const names[] = {"active", "switching out", "pending", "switching in"};
  for (int i = 0; i < s->n_cta_slots; i++) {
    const sm_cta *c = &s->ctas[i];
    const cs_cta *x = &s->sw->ctas[i];
    if (!c->used) continue;
    fprintf(out, "  SM %d CTA (%d,%d,%d) slot %d: %s since cycle %llu", s->id, c->tb.id[0],
            c->tb.id[1], c->tb.id[2], i, names[x->state], (unsigned long long)x->since);
    if (x->state == PCTA_ACTIVE)
      fprintf(out, "%s", cta_flag(s, i, PCTA_ACTIVE) ? ", every warp waits on a load" : "");
    else if (x->state == PCTA_PENDING)
      fprintf(out, ", %s", cta_flag(s, i, PCTA_PENDING) ? "ready to resume" : "waiting on loads");
    else
      fprintf(out, ", completes at cycle %llu, %u of %u lines moved",
              (unsigned long long)x->until, x->done / per_line(s), x->lines / per_line(s));
    fputc('\n', out);
  }
  if (s->pol->ops->report) s->pol->ops->report(s->pol, s->id, out);
}
