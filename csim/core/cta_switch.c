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

/* What the machinery reads of a CTA's warps (warp_wait_kind of each). */
typedef struct cs_kinds {
  uint8_t can_issue;  /* one of them can issue (or will after a short wait) */
  uint8_t waits_load; /* one waits on a long-latency load (looked for while none can issue) */
} cs_kinds;

typedef struct cs_cta {
  policy_cta_state state;
  uint64_t since, until;
  uint32_t lines, sent, done; /* transfer through the L1 */
  uint64_t addr;
  uint8_t write;
} cs_cta;

struct cta_switch {
  cs_cta *ctas;
  /* Per CTA slot, kept while sm.cs_stale says they hold: its warps' classification, and their
   * positions (pos[slot], room for pos_cap[slot] warps) */
  cs_kinds *kinds;
  policy_warp_pos **pos;
  int *pos_cap;
  /* The used CTAs as the last look saw them (look); they stand while nothing they show has
   * changed (sm.cs_changed clear). view_of: per slot, its view's index (-1: none); wanted:
   * views stalled or ready; positions: every view's warps are set. */
  policy_cta_view *views;
  int *view_of;
  int nviews, wanted;
  uint8_t positions;
  uint8_t ask; /* the views changed since the policy last said no (policy.decide_on_change) */
  /* cs_quiet found the SM quiet with a decision asked every cycle, the same no each time
   * (policy_ops.switch_quiet): each slept cycle counts one (cs_idle) */
  uint8_t asks_asleep;
  int in_flight; /* CTAs in SWITCH_OUT / SWITCH_IN */
  int hwm;       /* 1 + highest CTA slot ever launched (the SM fills the lowest free slot) */
};

int cs_create(sm *s, rf_diag *d) {
  if (!s->pol->ops->switch_decide && !s->pol->ops->cta_start_state) return 0;
  cta_switch *c = rf_calloc(1, sizeof *c, d);
  if (!c) return -1;
  s->sw = c;
  c->ctas = rf_calloc((size_t)s->n_cta_slots, sizeof *c->ctas, d);
  c->kinds = rf_calloc((size_t)s->n_cta_slots, sizeof *c->kinds, d);
  c->pos = rf_calloc((size_t)s->n_cta_slots, sizeof *c->pos, d);
  c->pos_cap = rf_calloc((size_t)s->n_cta_slots, sizeof *c->pos_cap, d);
  c->views = rf_calloc((size_t)s->n_cta_slots, sizeof *c->views, d);
  c->view_of = rf_calloc((size_t)s->n_cta_slots, sizeof *c->view_of, d);
  s->cs_stale = rf_calloc((size_t)s->n_cta_slots, sizeof *s->cs_stale, d);
  s->cs_list = rf_calloc((size_t)s->n_cta_slots, sizeof *s->cs_list, d);
  for (int i = 0; c->view_of && i < s->n_cta_slots; i++) c->view_of[i] = -1;
  int ok = c->ctas && c->kinds && c->pos && c->pos_cap && c->views && c->view_of;
  return ok && s->cs_stale && s->cs_list ? 0 : -1;
}

void cs_free(sm *s) {
  if (!s->sw) return;
  free(s->sw->ctas);
  free(s->sw->kinds);
  for (int i = 0; s->sw->pos && i < s->n_cta_slots; i++) free(s->sw->pos[i]);
  free(s->sw->pos);
  free(s->sw->pos_cap);
  free(s->sw->views);
  free(s->sw->view_of);
  free(s->sw);
  s->sw = NULL;
  free(s->cs_stale);
  s->cs_stale = NULL;
  free(s->cs_list);
  s->cs_list = NULL;
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
  cs_cta_changed(s, cta);
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

/* CTA slot i's warps: whether any can issue, else whether any waits on a long-latency load. */
static cs_kinds classify(const sm *s, int i) {
  const sm_cta *c = &s->ctas[i];
  cs_kinds k = {0, 0};
  for (int w = 0; w < c->nwarps && !k.can_issue; w++) {
    int kind = warp_wait_kind(s, c->warp_slot[w]);
    k.can_issue = kind < 0;
    k.waits_load |= kind > 0;
  }
  return k;
}

/* stalled (active: all its warps launched, none can issue, one waits on a load) / ready
 * (pending: one of its warps can issue) of CTA slot i, whose warps are classified `k`. */
static int cta_flag(const sm *s, int i, policy_cta_state st, cs_kinds k) {
  if (st == PCTA_ACTIVE)
    return s->ctas[i].launched == s->ctas[i].nwarps && !k.can_issue && k.waits_load;
  return st == PCTA_PENDING && k.can_issue;
}

/* CTA slot i's classification: kept unless a warp of it changed since (cs_warp_changed). */
static cs_kinds kinds_of(sm *s, int i) {
  cs_kinds *k = &s->sw->kinds[i];
  if (s->cs_stale[i] & CS_KINDS_STALE) {
    *k = classify(s, i);
    s->cs_stale[i] &= (uint8_t)~CS_KINDS_STALE;
  }
  return *k;
}

/* Where the warp in `slot` is (a CTA's warp_slot entry). */
static policy_warp_pos warp_pos(const sm *s, int slot) {
  const sm_warp *w = slot >= 0 ? &s->warps[slot] : NULL;
  return w && w->live ? (policy_warp_pos){w->tw, w->pc, w->exited} : (policy_warp_pos){NULL, 0, 1};
}

/* CTA slot i's warps' positions, kept like its classification (they change with what it
 * reads); NULL if no memory. */
static const policy_warp_pos *positions_of(sm *s, int i, rf_diag *d) {
  cta_switch *sw = s->sw;
  const sm_cta *c = &s->ctas[i];
  if (s->cs_stale[i] & CS_POS_STALE) {
    if (c->nwarps > sw->pos_cap[i]) {
      policy_warp_pos *p = rf_realloc(sw->pos[i], (size_t)c->nwarps, sizeof *p, d);
      if (!p) return NULL;
      sw->pos[i] = p;
      sw->pos_cap[i] = c->nwarps;
    }
    for (int w = 0; w < c->nwarps; w++) sw->pos[i][w] = warp_pos(s, c->warp_slot[w]);
    s->cs_stale[i] &= (uint8_t)~CS_POS_STALE;
  }
  return sw->pos[i];
}

/* CTA slot i as the policy sees it, its warps classified `k` (positions apart). */
static void fill_view(const sm *s, int i, cs_kinds k, policy_cta_view *v) {
  const cs_cta *c = &s->sw->ctas[i];
  v->slot = i;
  v->state = c->state;
  v->since = c->since;
  v->stalled = v->state == PCTA_ACTIVE && cta_flag(s, i, PCTA_ACTIVE, k);
  v->ready = v->state == PCTA_PENDING && cta_flag(s, i, PCTA_PENDING, k);
  v->linear_id = s->ctas[i].tb.linear_id;
  v->nwarps = s->ctas[i].nwarps;
}

/* The slots changed since the last look leave the list. */
static void clear_list(sm *s) {
  for (int j = 0; j < s->cs_nlist; j++) s->cs_stale[s->cs_list[j]] &= (uint8_t)~CS_LISTED;
  s->cs_nlist = 0;
}

/* View v's warp positions (what the policy reads while a CTA is stalled or ready); -1 if no
 * memory. */
static int set_positions(sm *s, policy_cta_view *v, rf_diag *d) {
  return !(v->warps = positions_of(s, v->slot, d)) && v->nwarps ? -1 : 0;
}

/* Every view's warp positions; -1 if no memory. */
static int set_all_positions(sm *s, rf_diag *d) {
  cta_switch *sw = s->sw;
  sw->positions = 0;
  for (int j = 0; j < sw->nviews; j++)
    if (set_positions(s, &sw->views[j], d) < 0) return -1;
  sw->positions = 1;
  return 0;
}

/* Views of the used CTAs, looked at afresh; their positions when one is stalled or ready (what
 * the policy reads then). -1 if no memory. */
static int look_all(sm *s, rf_diag *d) {
  cta_switch *sw = s->sw;
  int n = 0, want = 0;
  for (int i = 0; i < sw->hwm; i++) {
    sw->view_of[i] = -1;
    if (!s->ctas[i].used) continue;
    sw->view_of[i] = n;
    policy_cta_view *v = &sw->views[n++];
    fill_view(s, i, kinds_of(s, i), v);
    want += v->stalled | v->ready;
  }
  clear_list(s);
  sw->nviews = n;
  sw->wanted = want;
  sw->positions = 0;
  return want ? set_all_positions(s, d) : 0;
}

/* The views again after the CTAs in sm.cs_list changed: only theirs, unless the used CTAs are
 * others now (a CTA launched or finished): then all of them. -1 if no memory. */
static int look(sm *s, rf_diag *d) {
  cta_switch *sw = s->sw;
  s->cs_changed = 0;
  for (int j = 0; j < s->cs_nlist; j++) {
    int i = s->cs_list[j];
    if (!s->ctas[i].used || sw->view_of[i] < 0) return look_all(s, d);
  }
  for (int j = 0; j < s->cs_nlist; j++) {
    policy_cta_view *v = &sw->views[sw->view_of[s->cs_list[j]]];
    sw->wanted -= v->stalled | v->ready;
    fill_view(s, v->slot, kinds_of(s, v->slot), v);
    sw->wanted += v->stalled | v->ready;
  }
  if (!sw->wanted) {
    sw->positions = 0;
    clear_list(s);
    return 0;
  }
  if (!sw->positions) { /* no view's positions were wanted before: all of them now */
    clear_list(s);
    return set_all_positions(s, d);
  }
  for (int j = 0; j < s->cs_nlist; j++)
    if (set_positions(s, &sw->views[sw->view_of[s->cs_list[j]]], d) < 0) return -1;
  clear_list(s);
  return 0;
}

#ifdef RFSIM_SELF_CHECK
/* (The sanitizer build, make test-sanitize.) Every classification, position and view kept must
 * be the one the CTA's warps give now: a change of a warp that misses cs_warp_changed (or of a
 * CTA that misses cs_changed) aborts here, at once, rather than moving a switch some runs
 * later. */
static void check_kept(const sm *s) {
  for (int i = 0; i < s->sw->hwm; i++) {
    const sm_cta *c = &s->ctas[i];
    if (!c->used) continue;
    int stale = 0;
    if (!(s->cs_stale[i] & CS_KINDS_STALE)) {
      cs_kinds now = classify(s, i), kept = s->sw->kinds[i];
      stale = cta_flag(s, i, PCTA_ACTIVE, now) != cta_flag(s, i, PCTA_ACTIVE, kept) ||
              cta_flag(s, i, PCTA_PENDING, now) != cta_flag(s, i, PCTA_PENDING, kept);
    }
    for (int w = 0; !(s->cs_stale[i] & CS_POS_STALE) && w < c->nwarps && !stale; w++) {
      policy_warp_pos now = warp_pos(s, c->warp_slot[w]), kept = s->sw->pos[i][w];
      stale = now.tw != kept.tw || now.pc != kept.pc || now.exited != kept.exited;
    }
    if (stale) {
      fprintf(stderr, "rfsim: self-check: SM %d CTA slot %d: a warp changed without "
                      "cs_warp_changed; what the switch machinery keeps of it is stale\n",
              s->id, i);
      abort();
    }
  }
  if (s->cs_changed) return;
  int n = 0;
  for (int i = 0; i < s->sw->hwm; i++) {
    if (!s->ctas[i].used) continue;
    policy_cta_view now, *kept = &s->sw->views[n++];
    fill_view(s, i, classify(s, i), &now);
    if (n > s->sw->nviews || now.slot != kept->slot || now.state != kept->state ||
        now.since != kept->since || now.stalled != kept->stalled || now.ready != kept->ready ||
        now.linear_id != kept->linear_id || now.nwarps != kept->nwarps) {
      fprintf(stderr, "rfsim: self-check: SM %d CTA slot %d changed without cs_changed\n",
              s->id, i);
      abort();
    }
  }
  int wanted = 0;
  for (int j = 0; j < n && j < s->sw->nviews; j++)
    wanted += s->sw->views[j].stalled | s->sw->views[j].ready;
  if (wanted != s->sw->wanted) {
    fprintf(stderr, "rfsim: self-check: SM %d: %d CTAs stalled or ready, %d kept\n", s->id,
            wanted, s->sw->wanted);
    abort();
  }
  for (int j = 0; s->sw->positions && j < n; j++) {
    const policy_cta_view *v = &s->sw->views[j];
    if (v->nwarps && (v->warps != s->sw->pos[v->slot] || (s->cs_stale[v->slot] & CS_POS_STALE))) {
      fprintf(stderr, "rfsim: self-check: SM %d CTA slot %d: the view's warp positions are "
                      "stale\n", s->id, v->slot);
      abort();
    }
  }
  if (n != s->sw->nviews) {
    fprintf(stderr, "rfsim: self-check: SM %d: %d CTAs, %d kept views\n", s->id, n,
            s->sw->nviews);
    abort();
  }
}
#endif

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
    cs_cta_changed(s, ps->out_slot);
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
    cs_cta_changed(s, ps->in_slot);
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
      cs_cta_changed(s, i);
      sw->in_flight--;
      if (c->state == PCTA_ACTIVE) unpark(s, i);
      if (s->pol->ops->switch_done) s->pol->ops->switch_done(s->pol, s->id, i, c->state, now);
      progress = 1;
    }
  }
#ifdef RFSIM_SELF_CHECK
  check_kept(s);
#endif
  if (!s->pol->ops->switch_decide) return progress;
  /* the policy is asked each cycle while a CTA is stalled or ready (its answer may depend on
   * the time and on its own state), over views looked at again only when they changed; one
   * whose answer follows from the views alone (decide_on_change) only when they changed */
  if (s->cs_changed) {
    if (look(s, d) < 0) return -1;
    sw->ask = 1;
    if (s->pol->ops->views_changed) s->pol->ops->views_changed(s->pol, s->id);
  }
  if (!sw->wanted) return progress;
  policy_switch ps = {-1, -1, 0, 0, 0, 0, 0, 0};
  if (!sw->ask && s->pol->decide_on_change) {
#ifdef RFSIM_SELF_CHECK
    if (s->pol->ops->switch_decide(s->pol, s->id, sw->views, sw->nviews, now, &ps) == 1) {
      fprintf(stderr, "rfsim: self-check: SM %d: policy %s switched with its views unchanged "
                      "since it said no (it sets decide_on_change)\n", s->id, s->pol->ops->name);
      abort();
    }
#endif
    return progress;
  }
  if (s->pol->ops->switch_decide(s->pol, s->id, sw->views, sw->nviews, now, &ps) == 1) {
    if (start_switch(s, &ps, now, d) < 0) return -1;
    progress = 1;
  } else {
    sw->ask = 0;
  }
  return progress;
}

/* No switch in flight (its lines and latency move with time), no change to look at, and no
 * decision to ask for (none wanted, or a policy whose no stands until a view changes), or one
 * whose asks the policy says give the same no from `from` on (switch_quiet): then each slept
 * cycle counts one ask (cs_idle). */
int cs_quiet(sm *s, uint64_t from) {
  cta_switch *sw = s->sw;
  sw->asks_asleep = 0;
  if (sw->in_flight || s->cs_changed) return 0;
  if (!sw->wanted || (s->pol->decide_on_change && !sw->ask)) return 1;
  const policy_ops *ops = s->pol->ops;
  if (s->pol->decide_on_change || !ops->switch_quiet || !ops->switch_quiet(s->pol, s->id, from))
    return 0;
  sw->asks_asleep = 1;
  return 1;
}

void cs_idle(sm *s, uint64_t cycles) {
  if (s->sw->asks_asleep) s->pol->ops->switch_idle(s->pol, s->id, cycles);
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
    int flag = cta_flag(s, i, x->state, classify(s, i));
    if (x->state == PCTA_ACTIVE)
      fprintf(out, "%s", flag ? ", every warp waits on a load" : "");
    else if (x->state == PCTA_PENDING)
      fprintf(out, ", %s", flag ? "ready to resume" : "waiting on loads");
    else
      fprintf(out, ", completes at cycle %llu, %u of %u lines moved",
              (unsigned long long)x->until, x->done / per_line(s), x->lines / per_line(s));
    fputc('\n', out);
  }
  if (s->pol->ops->report) s->pol->ops->report(s->pol, s->id, out);
}
