/* Register sharing (Jatala et al., register_sharing.txt; resource_sharing_register_and_
 * scratchpad.txt sec. III-A, IV, V): pairs of thread blocks get Rtb*(1+t) registers; each warp
 * of a pair owns Rw*t registers and shares Rw*(1-t) with the warp at the same position in the
 * partner TB, under a per-warp-pair lock.
 *
 * Every decision goes through the per-SM hardware (-hw c|rtl|lockstep):
 *  - rs_share (rtl/regshare/rs_share.v): sharing-mode bit, sharer-TB table, sharing and owner
 *    bits per warp, the warp-pair lock table with the deadlock-avoidance rule, the two
 *    register-access comparators and the owner-warp-first class encoder. The issue check reads
 *    its outputs: a warp the unit marks unshared, or an operand below its threshold, issues
 *    directly (Fig. 3/4 steps b, c); a shared register needs the warp's pair lock to hold the
 *    warp's slot; otherwise the warp asks (one request port per SM per cycle) and retries the
 *    next cycle, when the lock table shows the answer.
 *  - rs_dwe (rtl/regshare/rs_dwe.v): dynamic warp execution's probability counter and LFSR.
 *    SM0 never issues non-owner memory instructions; every -regshare_dyn_period cycles every
 *    other SM compares its stall cycles with SM0's and moves its probability by 0.1. In a cycle
 *    where the unit's draw says no, no non-owner memory instruction issues on that SM.
 * Optimizations: -regshare_owf (schedulers try owner, then unshared, then non-owner warps,
 * keeping their LRR/GTO order in each class), -regshare_unroll (registers renumbered by first
 * use, so the Rw*t private ones are the first a warp touches), -regshare_dyn.
 * Registers are not modelled as storage: the occupancy formula bounds them, and an issue check
 * is what a register file access costs here. */
#include <stdlib.h>
#include <string.h>

#include "../hw/regshare/rs_dwe.h"
#include "../hw/regshare/rs_share.h"
#include "policy.h"
#include "policy_registry.h"
#include "share_common.h"

/* TBs whose instructions are scanned to number registers by first use, per kernel; a register
 * first seen later gets the next number when it is first checked. */
#define UNROLL_SCAN_TBS 4

typedef struct rs_sm {
  hw_unit *share, *dwe;
  rs_share_in in;
  rs_share_out out;
  rs_dwe_in din;
  rs_dwe_out dout;
  int req_tb;                   /* the CTA slot behind in.req_i, for ownership on a grant */
  /* This cycle's lock requests, one per warp slot, and the round-robin arbiter in front of the
   * unit's single request port: a refused warp asks again every cycle, so a fixed priority
   * would let it starve one whose lock is free (a livelock without -regshare_owf). */
  uint64_t cand;
  struct { int tb, lock, reg; } cand_req[64];
  int rr;
  uint64_t win_start_stalls;    /* the SM's stall cycles when the DWE window began */
  /* releases of finished warps' locks, waiting for the unit's one release port */
  share_fifo rel_q;             /* share_write: a = CTA slot, b = lock, mask = warp slot */
  /* The warp classes the issue stage reads (prio_o) as of their last change, which raised the
   * SM's class epoch (share_sm): a few thousand changes in a run of a million SM cycles. */
  uint32_t prio_seen[HW_WORDS(128)];
} rs_sm;
_Static_assert(sizeof ((rs_share_out *)0)->prio_o == sizeof ((rs_sm *)0)->prio_seen,
               "prio_seen holds prio_o");

typedef struct rs_state {
  share_core core;
  rs_sm *sm;
  /* -regshare_unroll: register number -> first-use number, for the current kernel */
  uint8_t renum[256];
  uint8_t seen[256];
  int next_num, scanned_tbs;
  uint64_t sm0_window;          /* SM0's stall cycles in the window that just ended */
  unsigned lock_w;              /* lock entry width: clog2(W+1) */
  int dwe_steps;                /* rs_dwe's STEPS: probability = prob_o / dwe_steps */
} rs_state;

static rs_state *st(const policy *p) { return p->state; }

static void regshare_destroy(policy *p) {
  rs_state *s = st(p);
  if (!s) return;
  for (int i = 0; s->sm && i < p->n_sms; i++) {
    hw_unit_free(s->sm[i].share);
    hw_unit_free(s->sm[i].dwe);
  }
  free(s->sm);
  share_core_free(&s->core, p->n_sms);
  free(s);
  p->state = NULL;
}

static int create_units(policy *p, int i, rf_diag *d) {
  rs_state *s = st(p);
  rs_sm *m = &s->sm[i];
  int64_t sp[HW_MAX_PARAMS], dp[HW_MAX_PARAMS];
  hw_params_default(&rs_share_desc, sp);
  hw_params_default(&rs_dwe_desc, dp);
  s->dwe_steps = (int)dp[rs_dwe_P_STEPS];
  if (hw_param_set(&rs_share_desc, sp, "CTA_SLOTS", s->core.cta_slots, d) < 0 ||
      hw_param_set(&rs_share_desc, sp, "WARP_SLOTS", s->core.warp_slots, d) < 0)
    return -1;
  char name[64];
  snprintf(name, sizeof name, "sm%d.rs_share", i);
  m->share = rs_share_new(name, p->hw_mode, sp, p->wave, d);
  if (!m->share) return -1;
  snprintf(name, sizeof name, "sm%d.rs_dwe", i);
  m->dwe = rs_dwe_new(name, p->hw_mode, dp, p->wave, d);
  if (!m->dwe) return -1;
  /* the reset state, until the first step */
  m->out.thr_o = 0;
  m->dout.allow_o = 0;
  return 0;
}

static int regshare_create(policy *p, rf_diag *d) {
  rs_state *s = rf_calloc(1, sizeof *s, d);
  if (!s) return -1;
  p->state = s;
  if (share_core_init(&s->core, p, p->cfg->regshare_t, d) < 0) goto fail;
  s->lock_w = hw_clog2(s->core.warp_slots + 1);
  s->sm = rf_calloc((size_t)p->n_sms, sizeof *s->sm, d);
  if (!s->sm) goto fail;
  for (int i = 0; i < p->n_sms; i++)
    if (create_units(p, i, d) < 0) goto fail;
  p->warp_priorities = p->cfg->regshare_owf ? 3 : 0;
  p->reads_sm_view = 1; /* (its window's stall cycles) */
  return 0;
fail:
  regshare_destroy(p);
  return -1;
}

static int regshare_kernel_begin(policy *p, const trace_kernel_info *k, rf_diag *d) {
  rs_state *s = st(p);
  if (share_core_kernel_begin(&s->core, p, k, SHARE_REGISTERS, d) < 0) return -1;
  memset(s->seen, 0, sizeof s->seen);
  s->next_num = 0;
  s->scanned_tbs = 0;
  return 0;
}

static int renumber(rs_state *s, int reg) {
  if (!s->seen[reg]) {
    s->seen[reg] = 1;
    s->renum[reg] = (uint8_t)s->next_num++;
  }
  return s->renum[reg];
}

/* Unroll and reorder: number registers in the order the code first uses them. */
static void scan_first_use(rs_state *s, const trace_tb *tb) {
  for (int w = 0; w < tb->nwarps; w++) {
    const trace_warp *tw = &tb->warps[w];
    for (uint32_t i = 0; i < tw->n; i++) {
      const trace_inst *in = &tw->insts[i];
      for (int j = 0; j < in->op->nsrc; j++) renumber(s, in->op->src[j]);
      for (int j = 0; j < in->op->ndst; j++) renumber(s, in->op->dst[j]);
    }
  }
}

static int regshare_cta_admit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                              const trace_tb *tb, uint64_t now) {
  (void)now;
  rs_state *s = st(p);
  int n = share_core_cta_admit(&s->core, sm, cta_slot, k);
  if (n && p->cfg->regshare_unroll && s->scanned_tbs < UNROLL_SCAN_TBS) {
    s->scanned_tbs++;
    scan_first_use(s, tb);
  }
  return n;
}

static void regshare_warp_start(policy *p, int sm, int cta_slot, int warp, int slot,
                                uint64_t now) {
  (void)now;
  share_core_warp_start(&st(p)->core, sm, cta_slot, warp, slot);
}

static int bit(uint64_t v, int i) { return (int)((v >> i) & 1); }

static int lock_of(const rs_state *s, const share_cta *t, int warp) {
  return t->pair * s->core.warps_per_tb + warp;
}

static int regshare_may_issue(policy *p, const policy_warp *w, const trace_inst *in,
                              uint64_t now) {
  (void)now;
  rs_state *s = st(p);
  rs_sm *m = &s->sm[w->sm];
  const share_cta *t = &s->core.sm[w->sm].cta[w->cta_slot];
  if (t->pending) {
    s->core.sm[w->sm].kern.setup_waits++;
    return 0;
  }
  /* Fig. 3 step (b): an unshared warp accesses the register file directly */
  if (!bit(m->out.sharing_o, w->slot)) return 1;
  if (p->cfg->regshare_dyn && in->op->is_mem && !bit(m->out.owner_o, w->slot)) {
    m->din.draw_i = 1;
    if (!m->dout.allow_o) {
      s->core.sm[w->sm].kern.dwe_blocked++;
      return 0;
    }
  }
  int nonowner_mem = in->op->is_mem && !bit(m->out.owner_o, w->slot);
  int top = -1;
  for (int j = 0; j < in->op->nsrc + in->op->ndst; j++) {
    int r = j < in->op->nsrc ? in->op->src[j] : in->op->dst[j - in->op->nsrc];
    int num = p->cfg->regshare_unroll ? renumber(s, r) : r;
    if (num > top) top = num;
  }
  /* step (c): registers numbered below Rw*t are the warp's own */
  int lock = lock_of(s, t, w->warp);
  if (top < (int)m->out.thr_o ||
      (int)hw_bits_get(m->out.lock_o, (unsigned)lock * s->lock_w, s->lock_w) == w->slot) {
    if (w->sm == 0 && nonowner_mem) s->core.sm[w->sm].kern.sm0_nonowner_mem++;
    return 1;
  }
  /* step (e): ask for the lock; the answer is in the lock table next cycle */
  m->cand |= (uint64_t)1 << w->slot;
  m->cand_req[w->slot].tb = w->cta_slot;
  m->cand_req[w->slot].lock = lock;
  m->cand_req[w->slot].reg = top;
  share_core_lock_wait(&s->core, w->sm, w->cta_slot, w->slot, w->pc);
  return 0;
}

static void regshare_warp_exit(policy *p, int sm, int cta_slot, int warp,
                               const trace_kernel_info *k, uint64_t now) {
  (void)k;
  (void)now;
  rs_state *s = st(p);
  share_cta *t = &s->core.sm[sm].cta[cta_slot];
  int slot = warp < SHARE_MAX_TB_WARPS ? t->slot_of[warp] : -1;
  if (slot < 0) return;
  t->live &= ~((uint64_t)1 << slot);
  if (!t->paired) return;
  rs_sm *m = &s->sm[sm];
  int lock = lock_of(s, t, warp);
  if ((int)hw_bits_get(m->out.lock_o, (unsigned)lock * s->lock_w, s->lock_w) != slot) return;
  /* its pair lock goes back with it; a release waiting for the port only delays the partner */
  share_fifo_push(&m->rel_q, (share_write){-1, cta_slot, lock, (uint64_t)slot});
}

static void regshare_cta_exit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                              uint64_t now) {
  (void)k;
  (void)now;
  share_core_cta_exit(&st(p)->core, sm, cta_slot);
}

/* One edge of the SM's units with this cycle's port inputs. */
static int step_units(policy *p, int sm, const policy_sm_view *v, uint64_t now, rf_diag *d) {
  rs_state *s = st(p);
  share_core *c = &s->core;
  rs_sm *m = &s->sm[sm];
  rs_share_in *in = &m->in;
  share_ports po;
  share_core_next_ports(c, sm, &po);
  SHARE_PORTS_TO_INPUTS(po, in);
  in->warp_sharing_i = (uint64_t)po.warp_sharing;
  if (po.cfg) {
    m->din.cfg_i = 1;
    m->din.cfg_ref_i = (uint64_t)(sm == 0);
    /* a per-SM seed from -rfsim_seed, so runs repeat exactly */
    m->din.cfg_seed_i = (p->cfg->seed * 0x9E3779B97F4A7C15ULL + (uint64_t)sm * 0x85EBCA6BULL) >> 48;
    m->win_start_stalls = v->stall_cycles;
  }
  share_write w;
  if (m->cand) {
    /* the first requester at or after the arbiter's pointer, wrapping */
    uint64_t after = m->cand & ~(((uint64_t)1 << m->rr) - 1);
    int slot = __builtin_ctzll(after ? after : m->cand);
    in->req_i = 1;
    in->req_warp_i = (uint64_t)slot;
    in->req_tb_i = (uint64_t)m->cand_req[slot].tb;
    in->req_lock_i = (uint64_t)m->cand_req[slot].lock;
    in->req_reg_i = (uint64_t)m->cand_req[slot].reg;
    m->req_tb = m->cand_req[slot].tb;
    m->rr = (slot + 1) % c->warp_slots;
    m->cand = 0;
  }
  if (share_core_pop(c, sm, &m->rel_q, &w)) {
    in->rel_i = 1;
    in->rel_tb_i = (uint64_t)w.a;
    in->rel_lock_i = (uint64_t)w.b;
    in->rel_warp_i = w.mask;
  }
  /* An idle unit (no port active) keeps its state and outputs, so its edge is skipped unless
   * it is being recorded. */
  int traced = wave_in_window(p->wave, now);
  if (in->cfg_i || in->tb_wr_i || in->warp_wr_i || in->req_i || in->rel_i || traced) {
    if (rs_share_step(m->share, now, in, &m->out, d) < 0) return -1;
    if (memcmp(m->prio_seen, m->out.prio_o, sizeof m->prio_seen)) {
      memcpy(m->prio_seen, m->out.prio_o, sizeof m->prio_seen);
      c->sm[sm].class_epoch++;
    }
    if (in->req_i &&
        hw_bits_get(m->out.lock_o, (unsigned)in->req_lock_i * s->lock_w, s->lock_w) ==
            in->req_warp_i) {
      c->sm[sm].kern.grants++;
      /* the partner now waits for this TB: it owns the pair */
      share_core_take_ownership(c, sm, m->req_tb);
    }
    memset(in, 0, sizeof *in);
  }
  rs_dwe_in *di = &m->din;
  if (p->cfg->regshare_dyn && !di->cfg_i && sm != 0 &&
      now % (uint64_t)p->cfg->regshare_dyn_period == 0) {
    di->win_i = 1;
    di->mine_i = (v->stall_cycles - m->win_start_stalls) & 0xffffffffu;
    di->sm0_i = s->sm0_window & 0xffffffffu;
  }
  if (sm == 0 && now % (uint64_t)p->cfg->regshare_dyn_period == 0) {
    s->sm0_window = v->stall_cycles - m->win_start_stalls;
    m->win_start_stalls = v->stall_cycles;
  } else if (di->win_i) {
    m->win_start_stalls = v->stall_cycles;
  }
  if (di->cfg_i || di->win_i || di->draw_i || traced) {
    if (rs_dwe_step(m->dwe, now, di, &m->dout, d) < 0) return -1;
    memset(di, 0, sizeof *di);
  }
  return 0;
}

static int regshare_cycle(policy *p, int sm, const policy_sm_view *v, uint64_t now, rf_diag *d) {
  /* Cycle 0 is the units' reset edge (hw_unit_new): their inputs wait for cycle 1. */
  if (now == 0) return 0;
  return step_units(p, sm, v, now, d);
}

static int regshare_warp_priority(const policy *p, int sm, int slot) {
  const rs_sm *m = &st(p)->sm[sm];
  return (int)hw_bits_get(m->out.prio_o, 2u * (unsigned)slot, 2);
}

/* No warp slot sharing: prio_o gives every one class 1 (unshared; rs_share.v). */
static int regshare_warp_classes_uniform(const policy *p, int sm) {
  return st(p)->sm[sm].out.sharing_o == 0;
}

static const uint64_t *regshare_warp_classes_epoch(policy *p, int sm) {
  return &st(p)->core.sm[sm].class_epoch;
}

static void regshare_stats(const policy *p, stats_record *out, int total) {
  const rs_state *s = st(p);
  stats_str(out, "regshare_hw", hw_mode_name(p->hw_mode));
  share_core_stats(&s->core, "regshare", out, total);
  if (!total) {
    /* where dynamic warp execution left the SMs' probabilities, averaged over SM1.. */
    double sum = 0;
    for (int i = 1; i < p->n_sms; i++) sum += (double)s->sm[i].dout.prob_o / s->dwe_steps;
    stats_f64(out, "regshare_dwe_prob_mean", p->n_sms > 1 ? sum / (p->n_sms - 1) : 0);
  }
}

const policy_ops policy_regshare = {
    .name = "regshare",
    .help = "register sharing (-regshare_t, -regshare_owf, -regshare_unroll, -regshare_dyn)",
    .create = regshare_create,
    .destroy = regshare_destroy,
    .kernel_begin = regshare_kernel_begin,
    .cta_admit = regshare_cta_admit,
    .warp_start = regshare_warp_start,
    .warp_priority = regshare_warp_priority,
    .warp_classes_uniform = regshare_warp_classes_uniform,
    .warp_classes_epoch = regshare_warp_classes_epoch,
    .may_issue = regshare_may_issue,
    .warp_exit = regshare_warp_exit,
    .cta_exit = regshare_cta_exit,
    .cycle = regshare_cycle,
    .stats = regshare_stats,
};
