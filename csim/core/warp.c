/* A warp's life below the pipeline stages: it reaches a barrier or its end, its loads complete,
 * and it leaves its slot once nothing it issued is still in flight (then its CTA, after the
 * last warp). The stages (issue.c, exec.c, ldst.c) call these; nothing here calls a stage, so
 * the SM's files depend one way: sm.c -> issue.c -> exec.c -> ldst.c -> fetch.c, cta_switch.c,
 * warp.c -> sched.c, opcoll.c. */
#include "../common/prefetch.h"
#include "sm_internal.h"

/* A barrier opens when every warp of the CTA that has not exited has arrived. not_exited starts
 * at the CTA's full warp count, so warps not launched yet (a partial TB under a warp-level
 * policy) count as not arrived and the launched ones wait for them (csim/policy/warpman.c says
 * why that cannot deadlock). */
void warp_release_barriers(sm *s, sm_cta *c) {
  for (int b = 0; b < SM_MAX_BARRIERS; b++) {
    if (c->at_barrier[b] == 0 || c->at_barrier[b] < c->not_exited) continue;
    for (int i = 0; i < c->nwarps; i++) {
      int slot = c->warp_slot[i];
      if (slot < 0 || !s->warps[slot].live || s->warps[slot].barrier != b) continue;
      s->warps[slot].barrier = -1;
      warp_recheck(s, slot);
      cs_warp_changed(s, slot);
    }
    c->at_barrier[b] = 0;
  }
}

static void finish_cta(sm *s, int cta_slot) {
  sm_cta *c = &s->ctas[cta_slot];
  if (s->pol->ops->cta_exit) s->pol->ops->cta_exit(s->pol, s->id, cta_slot, c->k, s->now);
  trace_tb_free(&c->tb);
  c->used = 0;
  s->cta_free_bits[cta_slot / 64] |= 1ull << (cta_slot % 64);
  s->resident_ctas--;
  s->cnt.ctas_completed++;
  if (s->resident_ctas == 0 && s->cfg->flush_l1_cache) l1d_invalidate(s->l1);
}

/* A warp leaves its slot once it has exited and nothing it issued can still write back. */
void warp_finish(sm *s, int slot) {
  sm_warp *w = &s->warps[slot];
  sm_cta *c = &s->ctas[w->cta];
  int cta = w->cta;
  w->live = 0;
  cs_warp_changed(s, slot);
  sched_remove_warp(s, slot);
  s->resident_warps--;
  s->cnt.warps_completed++;
  c->warp_slot[w->wid] = -1;
  c->finished++;
  if (s->pol->ops->warp_exit)
    s->pol->ops->warp_exit(s->pol, s->id, cta, w->wid, c->k, s->now);
  if (c->finished == c->nwarps) finish_cta(s, cta);
}

void warp_load_done(sm *s, int load, uint64_t now) {
  sm_load *l = &s->loads[load];
  if (--l->remaining > 0) return;
  if (l->hook_ticket >= 0) s->pol->ops->load_done(s->pol, s->id, l->hook_ticket, now);
  sm_warp *w = &s->warps[l->warp];
  for (int i = 0; i < l->ndst; i++) w->reg_ready[l->dst[i]] = reg_time_of(s, now);
  warp_regs_written(s, l->warp, l->dst, l->ndst);
  /* the registers written back claim their bank ports */
  if (l->ndst > 0)
    opcoll_write(s->oc, l->warp, s->slot_sched[l->warp], l->dst, l->ndst, now);
  w->pending_loads--;
  w->long_loads -= l->is_long;
  cs_warp_changed(s, l->warp);
  if (w->pc < w->n_insts) rf_prefetch_entry(&w->insts[w->pc], sizeof *w->insts);
  int slot = l->warp;
  l->warp = -1;
  l->remaining = s->free_load; /* free list threads through `remaining` */
  s->free_load = load;
  warp_try_finish(s, slot);
}

void warp_exit(sm *s, int slot) {
  sm_warp *w = &s->warps[slot];
  sm_cta *c = &s->ctas[w->cta];
  w->exited = 1;
  cs_warp_changed(s, slot);
  c->not_exited--;
  warp_release_barriers(s, c);
  warp_try_finish(s, slot);
}

/* A register that waits for a time at or before `now` is ready: its waiting bit is cleared, as
 * the scoreboard would clear it on its next read. Every other time is re-counted from `now`. The
 * old distances are below 2^32 by their bound: each was written at a cycle less than the span
 * after the old epoch, at most the longest latency ahead. */
void reg_rebase(sm *s, uint64_t now) {
  for (int slot = 0; slot < s->warp_hwm; slot++) {
    sm_warp *w = &s->warps[slot];
    if (!w->live) continue;
    for (int k = 0; k < SM_NUM_REGS / 64; k++) {
      for (uint64_t m = w->reg_waiting[k]; m; m &= m - 1) {
        int r = k * 64 + __builtin_ctzll(m);
        reg_time t = w->reg_ready[r];
        if (t == REG_WAITS_ON_MEMORY || t == REG_IN_PIPELINE) continue;
        uint64_t at = s->reg_epoch + t;
        if (at <= now) w->reg_waiting[k] &= ~(m & -m);
        else w->reg_ready[r] = (reg_time)(at - now);
      }
    }
  }
  s->reg_epoch = now;
}
