#include "share_common.h"

#include <stdlib.h>
#include <string.h>

#include "../common/bits.h"
#include "counter_set.h"

int share_core_init(share_core *c, const policy *p, double t, rf_diag *d) {
  memset(c, 0, sizeof *c);
  c->t_milli = share_t_milli(t);
  c->warp_slots = p->cfg->max_threads_per_sm / p->cfg->warp_size;
  c->cta_slots = p->cfg->shader_cta;
  if (c->warp_slots > 64)
    return rf_refuse(d, "-rfsim_policy %s: expected at most 64 warp slots per SM (the units' warp "
                      "masks), found %d", p->cfg->policy, c->warp_slots);
  c->sm = rf_calloc((size_t)p->n_sms, sizeof *c->sm, d);
  if (!c->sm) return -1;
  c->n_sms = p->n_sms;
  for (int i = 0; i < p->n_sms; i++) {
    c->sm[i].cta = rf_calloc((size_t)c->cta_slots, sizeof *c->sm[i].cta, d);
    if (!c->sm[i].cta) return -1;
  }
  return 0;
}

void share_core_free(share_core *c, int n_sms) {
  for (int i = 0; c->sm && i < n_sms; i++) free(c->sm[i].cta);
  free(c->sm);
  c->sm = NULL;
}

/* Every field of share_counts adds up; only the SMs count. */
static const counter_set share_counter_set = {COUNTER_SET_SIZE(share_counts), 0};

int share_core_kernel_begin(share_core *c, const policy *p, const trace_kernel_info *k,
                            share_resource r, rf_diag *d) {
  share_plan_compute(p->cfg, k, r, c->t_milli, &c->plan);
  if (c->plan.baseline == 0)
    return rf_refuse(d, "kernel %s: one thread block (%d threads, %d registers/thread, %d B shared "
                      "memory) does not fit on an SM", k->name, k->threads_per_tb, k->nregs,
                   k->shmem);
  if (k->warps_per_tb > SHARE_MAX_TB_WARPS)
    return rf_refuse(d, "kernel %s: expected at most %d warps per thread block, found %d", k->name,
                   SHARE_MAX_TB_WARPS, k->warps_per_tb);
  c->warps_per_tb = k->warps_per_tb;
  for (int i = 0; i < p->n_sms; i++) c->sm[i].cfg_due = 1;
  counter_set_next_kernel(&share_counter_set, &c->total, NULL, &c->sm[0].kern, sizeof c->sm[0],
                          c->n_sms);
  return 0;
}

int share_fifo_push(share_fifo *q, share_write w) {
  if (q->n == SHARE_QUEUE) return -1;
  q->e[(q->head + q->n++) % SHARE_QUEUE] = w;
  return 0;
}

int share_core_pop(share_core *c, int sm, share_fifo *q, share_write *w) {
  if (q->n == 0) return 0;
  *w = q->e[q->head];
  q->head = (q->head + 1) % SHARE_QUEUE;
  q->n--;
  if (w->cta >= 0) c->sm[sm].cta[w->cta].pending--;
  return 1;
}

/* Queues a bit write of a TB's warps; the TB waits until it is applied. The queues hold at
 * most a few writes per TB event and there are at most cta_slots TBs, so they never fill. */
static void queue_warps(share_core *c, int sm, int cta, uint64_t mask, int sharing, int owner) {
  if (!mask) return;
  share_write w = {cta, sharing, owner, mask};
  if (share_fifo_push(&c->sm[sm].warp_q, w) == 0) c->sm[sm].cta[cta].pending++;
}

static void set_owner(share_core *c, int sm, int cta, int owner) {
  share_cta *t = &c->sm[sm].cta[cta];
  if (t->owner == owner) return;
  t->owner = owner;
  queue_warps(c, sm, cta, t->live & ~t->unwritten, t->paired, owner);
}

int share_core_cta_admit(share_core *c, int sm, int cta_slot, const trace_kernel_info *k) {
  (void)k;
  share_sm *m = &c->sm[sm];
  if (cta_slot >= c->plan.resident || m->resident >= c->plan.resident) return 0;
  share_cta *t = &m->cta[cta_slot];
  t->resident = 1;
  m->class_epoch++;
  /* `pending` carries over: writes queued for the slot's previous TB still count down */
  if (t->unwritten) m->unwritten_ctas--;
  t->live = t->unwritten = 0;
  t->paired = cta_slot >= c->plan.unshared;
  t->pair = t->paired ? (cta_slot - c->plan.unshared) / 2 : -1;
  t->partner = t->paired ? c->plan.unshared + 2 * t->pair + !((cta_slot - c->plan.unshared) & 1)
                         : -1;
  t->owner = 0;
  if (t->paired) {
    share_cta *q = &m->cta[t->partner];
    if (q->resident) set_owner(c, sm, t->partner, 1);
    else t->owner = 1;
  }
  share_write w = {cta_slot, cta_slot, t->paired ? t->partner : c->cta_slots, 0};
  if (share_fifo_push(&m->tb_q, w) == 0) t->pending++;
  m->resident++;
  m->kern.tbs++;
  m->kern.shared_tbs += (uint64_t)t->paired;
  return c->warps_per_tb;
}

void share_core_warp_start(share_core *c, int sm, int cta_slot, int warp, int slot) {
  share_cta *t = &c->sm[sm].cta[cta_slot];
  if (warp < SHARE_MAX_TB_WARPS) t->slot_of[warp] = slot;
  if (!t->unwritten) c->sm[sm].unwritten_ctas++;
  t->live |= (uint64_t)1 << slot;
  c->sm[sm].class_epoch++;
  t->unwritten |= (uint64_t)1 << slot;
  t->waited &= ~((uint64_t)1 << slot);
  t->pending++; /* until share_core_flush_launches queues its bits */
}

/* Moves the launched warps' bit writes into the queue (once per cycle, before popping). */
static void share_core_flush_launches(share_core *c, int sm) {
  share_sm *m = &c->sm[sm];
  if (!m->unwritten_ctas) return; /* (the walk reads every CTA slot: dozens of cold lines) */
  m->unwritten_ctas = 0;
  for (int i = 0; i < c->cta_slots; i++) {
    share_cta *t = &m->cta[i];
    if (!t->unwritten) continue;
    t->pending -= rf_popcount64(t->unwritten);
    queue_warps(c, sm, i, t->unwritten, t->paired, t->owner);
    t->unwritten = 0;
  }
}

void share_core_cta_exit(share_core *c, int sm, int cta_slot) {
  share_sm *m = &c->sm[sm];
  share_cta *t = &m->cta[cta_slot];
  if (t->paired && t->owner && m->cta[t->partner].resident) {
    set_owner(c, sm, t->partner, 1);
    m->kern.ownership_changes++;
  }
  t->resident = 0;
  t->owner = 0;
  t->live = 0;
  m->resident--;
  m->class_epoch++;
}

void share_core_take_ownership(share_core *c, int sm, int cta_slot) {
  share_cta *t = &c->sm[sm].cta[cta_slot];
  if (!t->paired || t->owner) return;
  set_owner(c, sm, cta_slot, 1);
  if (c->sm[sm].cta[t->partner].resident) set_owner(c, sm, t->partner, 0);
  c->sm[sm].kern.ownership_changes++;
}

void share_core_next_ports(share_core *c, int sm, share_ports *o) {
  share_sm *cs = &c->sm[sm];
  memset(o, 0, sizeof *o);
  if (cs->cfg_due) {
    cs->cfg_due = 0;
    o->cfg = 1;
    o->cfg_mode = c->plan.pairs > 0;
    o->cfg_thr = c->plan.private_units;
  }
  share_core_flush_launches(c, sm);
  share_write w;
  if (share_core_pop(c, sm, &cs->tb_q, &w)) {
    o->tb_wr = 1;
    o->tb = w.a;
    o->tb_partner = w.b;
  }
  if (share_core_pop(c, sm, &cs->warp_q, &w)) {
    o->warp_wr = 1;
    o->warp_mask = w.mask;
    o->warp_sharing = w.a;
    o->warp_owner = w.b;
  }
}

void share_core_lock_wait(share_core *c, int sm, int cta_slot, int slot, uint32_t pc) {
  share_sm *m = &c->sm[sm];
  share_cta *t = &m->cta[cta_slot];
  m->kern.lock_waits++;
  if ((t->waited >> slot) & 1) return;
  t->waited |= (uint64_t)1 << slot;
  m->kern.first_waits++;
  m->kern.first_wait_pc_sum += pc;
}

void share_core_stats(const share_core *c, const char *prefix, stats_record *out, int total) {
  share_counts sum; /* the kernel's; with `total`, the earlier kernels' too */
  counter_set_sum_sms(&share_counter_set, &sum, NULL, &c->sm[0].kern, sizeof c->sm[0], c->n_sms);
  if (total) counter_set_add(&share_counter_set, &sum, &c->total);
  const share_counts *s = &sum;
  char name[96];
#define STAT_U(field, v) \
  (snprintf(name, sizeof name, "%s_%s", prefix, field), stats_u64(out, name, (uint64_t)(v)))
  if (!total) {
    STAT_U("t_milli", c->t_milli);
    STAT_U("baseline_tbs_per_sm", c->plan.baseline);
    STAT_U("tbs_per_sm", c->plan.resident);
    STAT_U("pairs_per_sm", c->plan.pairs);
    STAT_U("unshared_tbs_per_sm", c->plan.unshared);
    STAT_U("private_units", c->plan.private_units);
    snprintf(name, sizeof name, "%s_limit", prefix);
    stats_str(out, name, c->plan.limit);
  }
  STAT_U("tbs", s->tbs);
  STAT_U("shared_tbs", s->shared_tbs);
  STAT_U("lock_grants", s->grants);
  STAT_U("lock_wait_issue_attempts", s->lock_waits);
  STAT_U("setup_wait_issue_attempts", s->setup_waits);
  STAT_U("ownership_changes", s->ownership_changes);
  STAT_U("dwe_blocked_issue_attempts", s->dwe_blocked);
  STAT_U("sm0_nonowner_mem_insts", s->sm0_nonowner_mem);
  STAT_U("lock_waiting_warps", s->first_waits);
  snprintf(name, sizeof name, "%s_insts_before_first_lock_wait_mean", prefix);
  stats_f64(out, name, stats_ratio((double)s->first_wait_pc_sum, (double)s->first_waits));
#undef STAT_U
}
