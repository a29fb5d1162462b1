/* FineReg's switch decision (csim/policy/finereg.c describes the technique): the CTA status
 * monitor's choice of CTAs (fr_status), checked against the bookkeeping; whether the registers
 * fit and how long the move takes, from the register management unit's units
 * (csim/policy/finereg_rmu.c); and the accounting of a switch as it starts and completes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finereg_internal.h"

static int regs_per_thread(const fr_state *s) { return s->need.regs_per_warp / TRACE_WARP_SIZE; }

/* Live registers (PCRF entries) of a CTA at its warps' next instructions: the registers a
 * switch-out moves. */
static int live_entries(const fr_state *s, const policy_cta_view *v) {
  int total = 0, regs = regs_per_thread(s);
  for (int w = 0; w < v->nwarps; w++) {
    const policy_warp_pos *pos = &v->warps[w];
    if (!pos->tw || pos->exited || pos->pc >= pos->tw->n) continue;
    const live_vec *lv = liveness_at(s->live, pos->tw->insts[pos->pc].op->pc);
    total += lv ? live_vec_count_below(lv, regs) : regs; /* a PC never analysed: all live */
  }
  return total;
}

/* The live vector the kernel's table (the liveness pass, the analog of the paper's off-chip
 * table) holds for a PC: the allocated registers' bits (a PC never analysed: all live). */
static uint64_t table_vec(fr_state *s, fr_sm *m, uint64_t pc) {
  int regs = regs_per_thread(s);
  uint64_t mask = regs >= 64 ? ~0ULL : (1ULL << regs) - 1;
  const live_vec *lv = liveness_at(s->live, pc);
  if (!lv) m->kern.unknown_pcs++;
  return lv ? lv->w[0] & mask : mask;
}

/* A switch on the units (csim/policy/finereg_rmu.c): `out`'s live registers to the PCRF (NULL:
 * none), `in_slot`'s chain back (-1: none), with sec. V-E's fit when fit_check. Returns 1 with
 * *cycles (the units' cycles plus the register data pipeline after the last entry), 0 when the
 * units refuse (no fit), -1 when a unit failed or disagreed with the bookkeeping here (the
 * cycle hook stops the run). */
static int rmu_run(fr_state *s, fr_sm *m, const policy_cta_view *out, int in_slot, int fit_check,
                   uint64_t now, uint64_t *cycles) {
  fr_rmu_req q;
  memset(&q, 0, sizeof q);
  q.out_cta = out ? out->slot : -1;
  q.in_cta = in_slot >= 0 && m->ctas[in_slot].in_pcrf ? in_slot : -1;
  q.fit_check = fit_check;
  q.now = now;
  q.miss_cycles = s->miss_cycles;
  if (out) {
    q.nwarps = out->nwarps < FR_RMU_WARPS ? out->nwarps : FR_RMU_WARPS;
    for (int w = 0; w < q.nwarps; w++) {
      const policy_warp_pos *pos = &out->warps[w];
      if (!pos->tw || pos->exited || pos->pc >= pos->tw->n) continue;
      q.has[w] = 1;
      q.pc[w] = (uint32_t)pos->tw->insts[pos->pc].op->pc;
      q.vec[w] = table_vec(s, m, pos->tw->insts[pos->pc].op->pc);
    }
  }
  fr_rmu_res r;
  if (fr_rmu_switch(m->rmu, &q, &r) < 0) return -1;
  m->kern.lvc_hits += r.hits;
  m->kern.lvc_misses += r.misses;
  if (!r.fit) {
    /* the refusal kept the units busy (its live-vector lookups and misses, the fit): no
     * other switch starts on them until it ends, else each cycle's retry would queue its
     * cycles behind the last and the next switch would wait for all of them */
    m->kern.rmu_refusals++;
    m->rmu_until = now + r.cycles;
    return 0;
  }
  if (out && r.need != live_entries(s, out)) {
    fr_rmu_disagree(m->rmu, "live registers of the CTA switched out", r.need,
                    live_entries(s, out));
    return -1;
  }
  int back = q.in_cta >= 0 ? m->ctas[in_slot].entries : 0;
  if (r.restored != back) {
    fr_rmu_disagree(m->rmu, "PCRF chain length walked back", r.restored, back);
    return -1;
  }
  if (r.free_after != m->pcrf_free - r.moved + r.restored) {
    fr_rmu_disagree(m->rmu, "free PCRF entries", r.free_after,
                    m->pcrf_free - r.moved + r.restored);
    return -1;
  }
  m->kern.rmu_runs++;
  m->kern.rmu_cycles += r.cycles;
  if (r.cycles > m->kern.rmu_cycles_max) m->kern.rmu_cycles_max = r.cycles;
  *cycles = r.cycles + (r.moved || r.restored ? FR_PCRF_FIRST - 1 : 0);
  return 1;
}

static int any_ready(const policy_cta_view *v, int n) {
  for (int i = 0; i < n; i++)
    if (v[i].ready) return 1;
  return 0;
}

/* CTA switching logic (adopted from Virtual Thread, sec. V): a warp's scheduling context moves
 * to or from shared memory in one cycle (rfsim's estimate, as csim/policy/vt.c). */
static uint64_t ctx_cycles(const fr_state *s) { return (uint64_t)s->need.warps; }
static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static const policy_cta_view *find_view(const policy_cta_view *v, int n, int slot) {
  for (int i = 0; i < n; i++)
    if (v[i].slot == slot) return &v[i];
  return NULL;
}

/* From the cycle's views, in one pass: fr_status's inputs (stall_i: every warp waits on a load,
 * an active CTA's `stalled` or a pending CTA that is not ready; ready_i: a pending CTA can
 * resume; both cleared by the caller) and the choice the bookkeeping here implies for its rule,
 * the lowest CTA id of each class (views come in slot order, so the first of each), which the
 * unit must give too (a disagreement stops the run). */
static fr_rmu_sel from_views(const fr_sm *m, const policy_cta_view *v, int n, uint32_t *stall,
                             uint32_t *ready) {
  int vic = -1, cand_acrf = -1, cand_pcrf = -1, mov = -1;
  for (int i = 0; i < n; i++) {
    int id = v[i].slot;
    uint32_t bit = 1u << (id % 32);
    if (v[i].stalled) {
      stall[id / 32] |= bit;
      if (vic < 0) vic = id;
    } else if (v[i].ready) {
      ready[id / 32] |= bit;
      int *cand = m->ctas[id].in_pcrf ? &cand_pcrf : &cand_acrf;
      if (*cand < 0) *cand = id;
    } else if (v[i].state == PCTA_PENDING) {
      stall[id / 32] |= bit;
      if (mov < 0 && !m->ctas[id].in_pcrf) mov = id;
    }
  }
  fr_rmu_sel e = {0};
  e.vic = vic;
  e.cand = cand_acrf >= 0 ? cand_acrf : cand_pcrf;
  e.cand_reg = cand_acrf >= 0 ? 2 : cand_pcrf >= 0 ? 1 : 0;
  e.mov = mov;
  return e;
}

/* The unit's choice against the one the bookkeeping implies (m->expect); -1 on a difference. */
static int check_selection(const fr_sm *m, const fr_rmu_sel *sel) {
  const fr_rmu_sel *e = &m->expect;
  const char *what = NULL;
  long unit = 0, pol = 0;
  if (sel->vic != e->vic) {
    what = "stalled active CTA to switch out (fr_status vic_cta_o)";
    unit = sel->vic, pol = e->vic;
  } else if (sel->cand != e->cand) {
    what = "ready pending CTA to switch in (fr_status cand_cta_o)";
    unit = sel->cand, pol = e->cand;
  } else if (sel->cand_reg != e->cand_reg) {
    what = "candidate's register field (fr_status cand_reg_o)";
    unit = sel->cand_reg, pol = e->cand_reg;
  } else if (sel->mov != e->mov) {
    what = "waiting pending CTA with ACRF registers (fr_status mov_cta_o)";
    unit = sel->mov, pol = e->mov;
  }
  if (!what) return 0;
  fr_rmu_disagree(m->rmu, what, unit, pol);
  return -1;
}

/* The views changed: what was derived from them is derived again at the next decision. */
void fr_views_changed(policy *p, int sm) { fr_forget(&fr_st(p)->sm[sm]); }

/* fr_status's inputs and the expected choice, from this cycle's views (kept while they and the
 * CTAs' register places stand). */
static void derive(fr_sm *m, const policy_cta_view *v, int n) {
#ifdef RFSIM_SELF_CHECK
  /* (the sanitizer build: what is kept must be what the views give now) */
  if (m->sel_kept) {
    uint32_t stall[FR_RMU_CTA_WORDS] = {0}, ready[FR_RMU_CTA_WORDS] = {0};
    fr_rmu_sel e = from_views(m, v, n, stall, ready);
    if (memcmp(stall, m->stall, sizeof stall) || memcmp(ready, m->ready, sizeof ready) ||
        e.vic != m->expect.vic || e.cand != m->expect.cand || e.cand_reg != m->expect.cand_reg ||
        e.mov != m->expect.mov) {
      fprintf(stderr, "rfsim: self-check: FineReg kept a stale status or choice\n");
      abort();
    }
  }
#endif
  if (m->sel_kept) return;
  memset(m->stall, 0, sizeof m->stall);
  memset(m->ready, 0, sizeof m->ready);
  m->expect = from_views(m, v, n, m->stall, m->ready);
  m->sel_kept = 1;
}

enum { PLAN_FAIL = -1, PLAN_NONE = 0, PLAN_SWITCH, PLAN_MOVE };

/* The switch decision (the CTA status monitor's and the register management unit's job, sec.
 * V-B, V-C, V-E): which CTAs, from fr_status's searches (*sel); whether the registers fit and
 * how long the move takes, from the units (rmu_run). Returns PLAN_SWITCH with *out filled (a CTA
 * switched out and/or in), PLAN_MOVE with *move the pending CTA whose live registers move from
 * the ACRF to the PCRF (taking *move_cycles), PLAN_NONE, or PLAN_FAIL (a unit failed). */
static int fr_plan(fr_state *s, fr_sm *m, const policy_cta_view *v, int n, const fr_rmu_sel *sel,
                   uint64_t now, policy_switch *out, const policy_cta_view **move,
                   uint64_t *move_cycles) {
  /* the stalled active CTA (vic_*) and the ready pending CTA to resume (cand_*: first one whose
   * registers are in the ACRF, context 1 register 2, then one whose live registers are in the
   * PCRF, both 1, sec. V-B), each the lowest CTA id of its class */
  const policy_cta_view *a = sel->vic >= 0 ? find_view(v, n, sel->vic) : NULL;
  const policy_cta_view *pd = sel->cand >= 0 ? find_view(v, n, sel->cand) : NULL;
  const cta_needs *need = &s->need;
  int acrf_room = m->acrf_free >= need->regs;
  m->no_why = FR_NO_OTHER;
  uint64_t ctx = ctx_cycles(s), c = 0;
  int rc;
  if (pd) {
    const fr_cta *pc = &m->ctas[pd->slot];
    int regs_ok = !pc->in_pcrf || acrf_room;
    if (regs_ok && (fr_slot_room(s, m) || a)) {
      /* the pending CTA's chain (if any) walks back; nothing moves out */
      if (pc->in_pcrf && (rc = rmu_run(s, m, NULL, pd->slot, 0, now, &c)) <= 0)
        return rc < 0 ? PLAN_FAIL : PLAN_NONE;
      if (fr_slot_room(s, m)) { /* resume into a free scheduling slot */
        out->in_slot = pd->slot;
        out->in_cycles = max64(ctx, c);
        return PLAN_SWITCH;
      }
      /* swap contexts; the stalled CTA's registers stay in the ACRF */
      out->out_slot = a->slot;
      out->in_slot = pd->slot;
      out->out_cycles = out->in_cycles = max64(2 * ctx, c);
      return PLAN_SWITCH;
    }
    if (a && pc->in_pcrf) { /* Fig. 6b: the stalled CTA's live registers for the pending one's */
      int live = live_entries(s, a);
      if (m->pcrf_free + pc->entries >= live) {
        if ((rc = rmu_run(s, m, a, pd->slot, 1, now, &c)) <= 0) {
          if (rc == 0) m->kern.pcrf_full_stalls++;
          return rc < 0 ? PLAN_FAIL : PLAN_NONE;
        }
        out->out_slot = a->slot;
        out->in_slot = pd->slot;
        out->out_cycles = out->in_cycles = max64(2 * ctx, c);
        return PLAN_SWITCH;
      }
    }
  }
  /* Fig. 6a: make ACRF room for a new CTA (or for a ready CTA whose registers are in the
   * PCRF) by moving live registers of a CTA that waits on loads to the PCRF */
  int want_room = !acrf_room && ((pd && m->ctas[pd->slot].in_pcrf) ||
                                 (s->remaining > 0 && residency_room(&m->res, need)));
  if (!want_room) {
    m->no_why = FR_NO_ROOM_WANTED;
    return PLAN_NONE;
  }
  /* first a pending CTA that waits on loads with its registers in the ACRF (mov_*): moving it
   * delays nothing that could run */
  const policy_cta_view *q = sel->mov >= 0 ? find_view(v, n, sel->mov) : NULL;
  const policy_cta_view *x = q ? q : a;
  if (!x) {
    m->no_why = FR_NO_CTA_TO_MOVE;
    return PLAN_NONE;
  }
  if (m->pcrf_free < live_entries(s, x)) {
    m->kern.pcrf_full_stalls++;
    m->no_why = FR_NO_PCRF_ROOM;
    return PLAN_NONE;
  }
  if ((rc = rmu_run(s, m, x, -1, 1, now, &c)) <= 0) {
    if (rc == 0) m->kern.pcrf_full_stalls++;
    return rc < 0 ? PLAN_FAIL : PLAN_NONE;
  }
  if (q) {
    *move = q;
    *move_cycles = c;
    return PLAN_MOVE;
  }
  out->out_slot = a->slot;
  out->out_cycles = max64(ctx, c);
  return PLAN_SWITCH;
}

/* Live registers of `v` go to the PCRF: accounting and stats. */
static void to_pcrf(fr_state *s, fr_sm *m, const policy_cta_view *v) {
  fr_cta *c = &m->ctas[v->slot];
  int live = live_entries(s, v);
  c->entries = live;
  c->in_pcrf = 1;
  m->pcrf_free -= live;
  m->kern.reg_moves++;
  m->kern.moved_entries += (uint64_t)live;
  int unfinished = 0;
  for (int w = 0; w < v->nwarps; w++) unfinished += v->warps[w].tw && !v->warps[w].exited;
  m->kern.full_entries += (uint64_t)unfinished * (uint64_t)regs_per_thread(s);
}

/* Is `slot` the oldest CTA of its class (same state, stall/ready and register location)? */
static int is_oldest(const fr_sm *m, const policy_cta_view *v, int n, int slot) {
  const policy_cta_view *x = find_view(v, n, slot);
  for (int i = 0; i < n; i++) {
    const policy_cta_view *y = &v[i];
    if (y->state == x->state && y->stalled == x->stalled && y->ready == x->ready &&
        m->ctas[y->slot].in_pcrf == m->ctas[x->slot].in_pcrf &&
        (y->since < x->since || (y->since == x->since && y->linear_id < x->linear_id)))
      return 0;
  }
  return 1;
}

/* Decisions whose CTA (fr_status's lowest id of its class) is not the oldest of its class. */
static void count_not_oldest(fr_sm *m, const policy_cta_view *v, int n,
                             int moved, const policy_switch *sw) {
  int slots[3] = {moved, moved < 0 ? sw->out_slot : -1, moved < 0 ? sw->in_slot : -1};
  for (int k = 0; k < 3; k++)
    if (slots[k] >= 0 && !is_oldest(m, v, n, slots[k])) {
      m->kern.not_oldest++;
      return;
    }
}

/* Accounting: scheduling slots (active_ctas/warps) and ACRF registers are taken when a switch
 * starts and released when it completes (switch_done) for a CTA leaving them alone; in a swap
 * they pass from one CTA to the other. PCRF entries are taken and freed at the start. */
static int decide(fr_state *s, fr_sm *m, const policy_cta_view *v, int n, uint64_t now,
                  policy_switch *out) {
  m->no_kept = 0;
  /* the no below stands only if fr_status takes no write now: its next edge, with the same
   * inputs, then repeats this one */
  int status_written = fr_rmu_queued(m->rmu) > 0;
  /* the CTA status monitor's searches over this cycle's stall/ready vectors pick the CTAs */
  derive(m, v, n);
  fr_rmu_sel sel;
  if (fr_rmu_select(m->rmu, now, m->stall, m->ready, &sel) < 0) return 0; /* reported next cycle */
  if (sel.stale) { /* its fields lag the bookkeeping: decide next cycle */
    m->kern.status_waits++;
    return 0;
  }
  if (check_selection(m, &sel) < 0) return 0;
  const policy_cta_view *move = NULL;
  uint64_t move_cycles = 0;
  int plan = fr_plan(s, m, v, n, &sel, now, out, &move, &move_cycles);
  if (plan == PLAN_NONE) {
    m->no_kept = m->no_why != FR_NO_OTHER && !status_written;
    m->no_remaining = s->remaining > 0;
  }
  if (plan == PLAN_NONE || plan == PLAN_FAIL) return 0;
  fr_forget(m); /* (registers move: the CTAs' places change) */
  count_not_oldest(m, v, n, plan == PLAN_MOVE ? move->slot : -1, out);
  if (plan == PLAN_MOVE) { /* a pending CTA's registers leave the ACRF; no context moves */
    to_pcrf(s, m, move);
    fr_rmu_status(m->rmu, move->slot, 1, 1);
    m->acrf_free += s->need.regs;
    m->rmu_until = now + move_cycles;
    m->kern.switch_cycles += move_cycles;
    m->kern.rmu_ops++;
    return 0;
  }
  m->busy = 1;
  m->kern.rmu_ops++;
  fr_cta *in = out->in_slot >= 0 ? &m->ctas[out->in_slot] : NULL;
  fr_cta *o = out->out_slot >= 0 ? &m->ctas[out->out_slot] : NULL;
  if (o) {
    const policy_cta_view *a = find_view(v, n, out->out_slot);
    o->state = PCTA_SWITCH_OUT;
    m->res.pending++;
    m->kern.switches_out++;
    m->kern.switch_cycles += out->out_cycles;
    /* its registers leave the ACRF when the one coming in needs them or no CTA comes in */
    if (!in || (in->in_pcrf && m->acrf_free < s->need.regs)) to_pcrf(s, m, a);
    o->release = !in; /* slots (and ACRF, if moved) freed when the switch completes */
    fr_rmu_status(m->rmu, out->out_slot, 1, o->in_pcrf ? 1 : 2);
  }
  if (in) {
    in->state = PCTA_SWITCH_IN;
    m->res.pending--;
    m->kern.switches_in++;
    if (!o) m->kern.switch_cycles += out->in_cycles;
    if (in->in_pcrf) {
      m->pcrf_free += in->entries;
      m->kern.restored_entries += (uint64_t)in->entries;
      m->kern.reg_restores++;
      in->entries = 0;
      in->in_pcrf = 0;
      /* ACRF space: the stalled CTA's, when its registers moved out, else free space */
      if (!(o && o->in_pcrf)) m->acrf_free -= s->need.regs;
    }
    if (!o) {
      residency_take_slots(&m->res, &s->need);
    }
    fr_rmu_status(m->rmu, out->in_slot, 2, 2);
  }
  return 1;
}

/* Does the last no stand (fr_sm.no_kept)? Nothing it read has changed since: the views and this
 * SM's CTAs (each change clears no_kept), fr_status (no write queued), and whether CTAs remain
 * to admit anywhere (want_room reads it). */
static int no_stands(const fr_state *s, const fr_sm *m) {
  return m->no_kept && (s->remaining > 0) == m->no_remaining && !fr_rmu_queued(m->rmu);
}

/* policy_ops.switch_quiet: each ask from `from` on gives the kept no while it stands and the
 * units are idle (none busy, no register move until then). Not a no for want of PCRF room while
 * blocks remain: the kernel's last admission, on any SM, may turn it into a no for want of a
 * reason to make room, which counts no stall, and nothing wakes a sleeping SM then. (The other
 * kept nos count nothing either way.) */
int fr_switch_quiet(const policy *p, int sm, uint64_t from) {
  const fr_state *s = fr_st(p);
  const fr_sm *m = &s->sm[sm];
  if (s->degraded) return 1; /* (every ask says no at once) */
  if (m->busy || from < m->rmu_until) return 0;
  return no_stands(s, m) && !(m->no_why == FR_NO_PCRF_ROOM && s->remaining > 0);
}

/* policy_ops.switch_idle: what the kept no counts in each ask (fr_switch_decide). */
void fr_switch_idle(policy *p, int sm, uint64_t cycles) {
  fr_state *s = fr_st(p);
  fr_sm *m = &s->sm[sm];
  if (!s->degraded && m->no_why == FR_NO_PCRF_ROOM) m->kern.pcrf_full_stalls += cycles;
}

/* policy_ops.switch_decide: asked each cycle a CTA is stalled or ready (csim/core/cta_switch.c);
 * decides afresh unless the units are busy or the last no stands. */
int fr_switch_decide(policy *p, int sm, const policy_cta_view *v, int n, uint64_t now,
                     policy_switch *out) {
  fr_state *s = fr_st(p);
  fr_sm *m = &s->sm[sm];
  if (s->degraded) return 0;
  if (m->busy || now < m->rmu_until) {
    m->want_in = any_ready(v, n);
    return 0;
  }
  m->want_in = 0;
  if (!no_stands(s, m)) return decide(s, m, v, n, now, out);
#ifndef RFSIM_SELF_CHECK
  m->kern.pcrf_full_stalls += m->no_why == FR_NO_PCRF_ROOM;
  return 0;
#else
  /* (the sanitizer build decides anyway: a kept no must be the no it gives now) */
  fr_no why = (fr_no)m->no_why;
  int rc = decide(s, m, v, n, now, out);
  if (rc != 0 || !m->no_kept || m->no_why != why) {
    fprintf(stderr, "rfsim: self-check: SM %d: FineReg kept a no (%d) that is now %s (%d)\n",
            sm, (int)why, rc ? "a switch" : "another no", (int)m->no_why);
    abort();
  }
  return rc;
#endif
}

void fr_switch_done(policy *p, int sm, int cta_slot, policy_cta_state state, uint64_t now) {
  (void)now;
  fr_state *s = fr_st(p);
  fr_sm *m = &s->sm[sm];
  fr_cta *c = &m->ctas[cta_slot];
  c->state = state;
  fr_forget(m);
  if (state == PCTA_PENDING && c->release) { /* left alone: its slots (and ACRF) are free */
    c->release = 0;
    residency_free_slots(&m->res, &s->need);
    if (c->in_pcrf) m->acrf_free += s->need.regs;
  }
  m->busy = 0;
  for (int i = 0; i < p->sm_cta_slots; i++)
    if (m->ctas[i].used &&
        (m->ctas[i].state == PCTA_SWITCH_IN || m->ctas[i].state == PCTA_SWITCH_OUT))
      m->busy = 1;
}

