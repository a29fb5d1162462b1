/* Locality-aware register file (Jeon et al., "Locality-aware GPU Register File", IEEE CAL
 * 2019): a load technique, composed onto an occupancy policy (-rfsim_policy <x>+larf; "larf" =
 * baseline+larf, csim/policy/compose.c).
 *
 * A global 32-bit load whose active lanes are 0..n-1 with a constant stride of 0 or a power of
 * two words (what the 38-bit table entry can describe) is looked up in the SM's address mapping
 * table (unit larf_amt) before it goes to memory; the mapping controller (larf_mc) decides:
 *   perfect  the destination architectural register maps to the physical register that already
 *            holds the data (reference count + 1); no memory access, no register written;
 *   partial  the data is rebuilt from one register shifted or two registers merged by the
 *            w-merge slot (larf_wmerge) into a new physical register; no memory access;
 *   miss     the load goes to memory into a new physical register, recorded in the table at
 *            issue (sec. 3); a later load of the same data waits for it to arrive.
 * The load completes when the units' outputs say so (driven through their ports every cycle,
 * -hw c|rtl|lockstep): lookup 1 edge, decision 1 edge, merge 1 edge, insert 1 edge, plus one
 * cycle of hand-off to the LD/ST unit each way.
 * Register data: the model has no values, so a register holds for each lane a fixed function of
 * the lane's address (lane_value); every mapped or merged register is checked lane by lane
 * against the addresses the load asked for, so a wrong table answer or merge stops the run.
 * Writes: an instruction writing an architectural register that is mapped unmaps it (renaming:
 * the writer gets a new register; a shared one is copied-on-write by not being touched); a
 * warp's exit unmaps all its registers; the last unmap frees the physical register and deletes
 * its table entry. A global store or atomic deletes the entries whose words it may write.
 * Not served (counted, normal load): loads without address lists (no addresses in the trace, or
 * an active lane at address 0), 64/128-bit loads, lanes not 0..n-1, other strides, addresses
 * outside the SM's 64 MB table window (set by the kernel's first candidate load), no free
 * physical register. Only load destinations are tracked as physical registers (NPREGS = 1024
 * per SM, the paper's 128 KB file). */
#include <stdlib.h>
#include <string.h>

#include "../common/bits.h"
#include "../trace/trace_addrs.h"
#include "counter_set.h"
#include "larf_internal.h"
#include "policy_registry.h"

static void larf_destroy(policy *p) {
  lf_state *s = lf_st(p);
  if (!s) return;
  for (int i = 0; s->sm && i < p->n_sms; i++) {
    lf_sm *m = &s->sm[i];
    hw_unit_free(m->amt);
    hw_unit_free(m->mc);
    hw_unit_free(m->wm);
    free(m->map);
    free(m->slot_of);
    free(m->pst);
    free(m->pgen);
    free(m->pdata);
    free(m->freel);
    free(m->unmapq);
    free(m->invq);
  }
  free(s->sm);
  free(s);
  p->state = NULL;
}

static int larf_create(policy *p, rf_diag *d) {
  lf_state *s = calloc(1, sizeof *s);
  if (!s) return rf_fail(d, "-rfsim_policy larf: out of memory");
  p->state = s;
  s->slots = p->cfg->max_threads_per_sm / p->cfg->warp_size;
  s->cta_slots = p->cfg->shader_cta;
  int64_t ap[HW_MAX_PARAMS], mp[HW_MAX_PARAMS], wp[HW_MAX_PARAMS];
  hw_params_default(&larf_amt_desc, ap);
  hw_params_default(&larf_mc_desc, mp);
  hw_params_default(&larf_wmerge_desc, wp);
  s->npregs = (int)ap[larf_amt_P_NPREGS];
  if (mp[larf_mc_P_NPREGS] != s->npregs || wp[larf_wmerge_P_LANES] != TRACE_WARP_SIZE ||
      p->cfg->warp_size != TRACE_WARP_SIZE || s->slots > mp[larf_mc_P_MAX_SHARERS]) {
    larf_destroy(p);
    return rf_refuse(d, "-rfsim_policy larf: expected %d-thread warps and at most %lld warp slots "
                   "per SM (the units' parameters), found %d-thread warps and %d slots",
                   TRACE_WARP_SIZE, (long long)mp[larf_mc_P_MAX_SHARERS], p->cfg->warp_size,
                   s->slots);
  }
  s->sm = calloc((size_t)p->n_sms, sizeof *s->sm);
  if (!s->sm) {
    larf_destroy(p);
    return rf_fail(d, "-rfsim_policy larf: out of memory");
  }
  for (int i = 0; i < p->n_sms; i++) {
    lf_sm *m = &s->sm[i];
    size_t nmap = (size_t)s->slots * LF_REGS;
    m->uq_cap = (int)nmap;
    m->map = malloc(nmap * sizeof *m->map);
    m->slot_of = malloc((size_t)s->cta_slots * LF_CTA_WARPS * sizeof *m->slot_of);
    m->pst = calloc((size_t)s->npregs, sizeof *m->pst);
    m->pgen = calloc((size_t)s->npregs, sizeof *m->pgen);
    m->pdata = calloc((size_t)s->npregs * 32, sizeof *m->pdata);
    m->freel = malloc((size_t)s->npregs * sizeof *m->freel);
    m->unmapq = malloc(nmap * sizeof *m->unmapq);
    m->invq = malloc((size_t)s->npregs * sizeof *m->invq);
    if (!m->map || !m->slot_of || !m->pst || !m->pgen || !m->pdata || !m->freel || !m->unmapq ||
        !m->invq) {
      larf_destroy(p);
      return rf_fail(d, "-rfsim_policy larf: out of memory");
    }
    for (size_t k = 0; k < nmap; k++) m->map[k] = -1;
    for (int k = 0; k < s->cta_slots * LF_CTA_WARPS; k++) m->slot_of[k] = -1;
    for (int k = 0; k < s->npregs; k++) m->freel[k] = s->npregs - 1 - k; /* pop 0 first */
    m->nfree = s->npregs;
    char name[64];
    snprintf(name, sizeof name, "sm%d.larf_amt", i);
    m->amt = larf_amt_new(name, p->hw_mode, ap, p->wave, d);
    if (m->amt) {
      snprintf(name, sizeof name, "sm%d.larf_mc", i);
      m->mc = larf_mc_new(name, p->hw_mode, mp, p->wave, d);
    }
    if (m->mc) {
      snprintf(name, sizeof name, "sm%d.larf_wmerge", i);
      m->wm = larf_wmerge_new(name, p->hw_mode, wp, p->wave, d);
    }
    if (!m->wm) {
      larf_destroy(p);
      return -1;
    }
    m->clear_pending = 1; /* the table is memory: clear it before the first lookup */
  }
  return 0;
}

/* LARF has no dispatcher counters: the SMs count everything. */
static const counter_set lf_counters = {
    COUNTER_SET_SIZE(lf_stats),
    COUNTER_PEAK(lf_stats, occ_max) | COUNTER_PEAK(lf_stats, live_pregs_peak) |
        COUNTER_PEAK(lf_stats, live_maps_peak) | COUNTER_PEAK(lf_stats, saved_peak)};

static int larf_kernel_begin(policy *p, const trace_kernel_info *k, rf_diag *d) {
  (void)k;
  (void)d;
  lf_state *s = lf_st(p);
  counter_set_next_kernel(&lf_counters, &s->total, NULL, &s->sm[0].kern, sizeof s->sm[0],
                          p->n_sms);
  for (int i = 0; i < p->n_sms; i++) {
    s->sm[i].clear_pending = 1;
    s->sm[i].win_set = 0;
  }
  return 0;
}

/* warp_exit names a warp by CTA slot and warp id; remember its warp slot. */
static void larf_warp_start(policy *p, int sm, int cta_slot, int warp, int slot, uint64_t now) {
  (void)now;
  lf_state *s = lf_st(p);
  if (cta_slot < s->cta_slots && warp < LF_CTA_WARPS)
    s->sm[sm].slot_of[cta_slot * LF_CTA_WARPS + warp] = slot;
}

static void unmap(lf_sm *m, int slot, int reg, int at_exit) {
  int16_t *e = &m->map[slot * LF_REGS + reg];
  if (*e < 0) return;
  m->unmapq[(m->uq_head + m->uq_n) % m->uq_cap] = *e | (at_exit << 16);
  m->uq_n++;
  *e = -1;
}

static void larf_warp_exit(policy *p, int sm, int cta_slot, int warp, const trace_kernel_info *k,
                           uint64_t now) {
  (void)k;
  (void)now;
  lf_state *s = lf_st(p);
  lf_sm *m = &s->sm[sm];
  if (cta_slot >= s->cta_slots || warp >= LF_CTA_WARPS) return;
  int *so = &m->slot_of[cta_slot * LF_CTA_WARPS + warp];
  if (*so < 0) return;
  for (int r = 0; r < LF_REGS; r++) {
    if (m->map[*so * LF_REGS + r] >= 0) m->kern.unmap_exit++;
    unmap(m, *so, r, 1);
  }
  *so = -1;
}

static void push_range(lf_sm *m, uint64_t lo, uint64_t hi) {
  if (m->nranges == LF_RANGES) { /* full: widen the last one (conservative) */
    lf_range *r = &m->ranges[LF_RANGES - 1];
    if (lo < r->lo) r->lo = lo;
    if (hi > r->hi) r->hi = hi;
    return;
  }
  m->ranges[m->nranges++] = (lf_range){lo, hi};
}

static void larf_issued(policy *p, const policy_warp *w, const trace_inst *in, uint64_t now) {
  (void)now;
  lf_state *s = lf_st(p);
  lf_sm *m = &s->sm[w->sm];
  for (int i = 0; i < in->op->ndst; i++) {
    if (m->map[w->slot * LF_REGS + in->op->dst[i]] >= 0) m->kern.unmap_write++;
    unmap(m, w->slot, in->op->dst[i], 0);
  }
  /* A global store or atomic deletes the entries holding words it may write (sec. 3). */
  if ((in->op->kind == OPK_STORE || in->op->kind == OPK_ATOMIC) && in->op->space == SPACE_GLOBAL &&
      in->op->is_mem && m->win_set && in->mask) {
    uint64_t lanes[TRACE_WARP_SIZE];
    const uint64_t *a = trace_inst_addrs(w->tw, in, lanes);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int i = 0; i < TRACE_WARP_SIZE; i++) {
      if (!(in->mask >> i & 1)) continue;
      uint64_t end = a[i] + (in->op->width ? in->op->width : 4) - 1;
      if (a[i] < lo) lo = a[i];
      if (end > hi) hi = end;
    }
    uint64_t wlo = m->win << LF_WINDOW_SHIFT, whi = wlo + ((uint64_t)1 << LF_WINDOW_SHIFT) - 1;
    if (hi < wlo || lo > whi) return;
    if (lo < wlo) lo = wlo;
    if (hi > whi) hi = whi;
    push_range(m, (lo >> 2) & 0xffffff, (hi >> 2) & 0xffffff);
  }
}

static int poll(lf_sm *m, int id, uint64_t now, int *ticket) {
  lf_req *r = &m->reqs[id];
  lf_stats *k = &m->kern;
  if (!r->answered) {
    k->hook_cycles++;
    return POLICY_LOAD_WAIT;
  }
  r->polled = 1;
  if (r->phase == P_ANSWER) lf_release(m, r); /* else the table insert still has to happen */
  *ticket = r->ticket;
  int a = r->answer;
  if (a == POLICY_LOAD_SERVED) *ticket = -1;
  if (a != POLICY_LOAD_MEMORY) k->elided_latency += now - r->start;
  return a;
}

static int larf_load(policy *p, const policy_load *l, uint64_t now, int *ticket) {
  lf_state *s = lf_st(p);
  lf_sm *m = &s->sm[l->sm];
  lf_stats *k = &m->kern;
  if (*ticket >= 0 && *ticket < LF_REQS && m->reqs[*ticket].active)
    return poll(m, *ticket, now, ticket);
  *ticket = -1;
  const trace_inst *in = l->in;
  k->global_loads++;
  if (!in->op->is_mem) {
    k->no_addr++;
    return POLICY_LOAD_MEMORY;
  }
  uint32_t mask = in->mask;
  int cnt = rf_popcount32(mask);
  if (mask == 0 || mask != (cnt == 32 ? 0xffffffffu : (1u << cnt) - 1)) {
    k->inel_mask++;
    return POLICY_LOAD_MEMORY;
  }
  for (int i = 0; i < cnt; i++)
    if (l->addrs[i] == 0) {
      k->no_addr++;
      return POLICY_LOAD_MEMORY;
    }
  if (in->op->width != 4 || in->op->ndst != 1) {
    k->inel_width++;
    return POLICY_LOAD_MEMORY;
  }
  uint64_t a0 = l->addrs[0];
  uint64_t stride = cnt > 1 ? l->addrs[1] - a0 : 0;
  int ok = (a0 & 3) == 0 && (cnt == 1 || l->addrs[1] >= a0) && (stride & 3) == 0;
  uint64_t sw = stride >> 2;
  ok = ok && (sw == 0 || ((sw & (sw - 1)) == 0 && sw <= 256));
  for (int i = 2; ok && i < cnt; i++) ok = l->addrs[i] == a0 + (uint64_t)i * stride;
  if (!ok) {
    k->inel_pattern++;
    return POLICY_LOAD_MEMORY;
  }
  if (!m->win_set) {
    m->win_set = 1;
    m->win = a0 >> LF_WINDOW_SHIFT;
  }
  uint64_t last = a0 + (uint64_t)(cnt - 1) * stride;
  if (a0 >> LF_WINDOW_SHIFT != m->win || last >> LF_WINDOW_SHIFT != m->win) {
    k->inel_window++;
    return POLICY_LOAD_MEMORY;
  }
  int id = 0;
  while (id < LF_REQS && m->reqs[id].active) id++;
  if (id == LF_REQS) {
    k->no_free++;
    return POLICY_LOAD_MEMORY;
  }
  k->eligible++;
  lf_req *r = &m->reqs[id];
  memset(r, 0, sizeof *r);
  r->active = 1;
  r->phase = P_LOOKUP;
  r->at = now;
  r->start = now;
  r->slot = l->slot;
  r->dst = in->op->dst[0];
  r->in = in;
  r->base = (a0 >> 2) & 0xffffff;
  r->stride = sw;
  r->cnt = (uint64_t)(cnt - 1);
  for (int i = 0; i < cnt; i++) r->want[i] = lane_value(l->addrs[i]);
  r->newp = -1;
  r->ticket = -1;
  m->fifo[m->nfifo++] = id;
  *ticket = id;
  return POLICY_LOAD_WAIT;
}

static void larf_load_done(policy *p, int sm, int ticket, uint64_t now) {
  (void)now;
  lf_sm *m = &lf_st(p)->sm[sm];
  if (ticket >= 0 && ticket < lf_st(p)->npregs && m->pst[ticket] == PR_PENDING)
    m->pst[ticket] = PR_READY;
}

static void larf_stats(const policy *p, stats_record *out, int total) {
  const lf_state *s = lf_st(p);
  lf_stats sum; /* the kernel's; with `total`, the earlier kernels' too */
  counter_set_sum_sms(&lf_counters, &sum, NULL, &s->sm[0].kern, sizeof s->sm[0], p->n_sms);
  if (total) counter_set_add(&lf_counters, &sum, &s->total);
  const lf_stats *w = &sum;
  stats_str(out, "larf_hw", hw_mode_name(p->hw_mode));
  stats_u64(out, "larf_global_loads", w->global_loads);
  stats_u64(out, "larf_loads_eligible", w->eligible);
  stats_u64(out, "larf_loads_elided", w->elided);
  stats_u64(out, "larf_hits_perfect", w->perfect);
  stats_u64(out, "larf_hits_partial", w->shift + w->merge);
  stats_u64(out, "larf_hits_partial_shift", w->shift);
  stats_u64(out, "larf_hits_partial_merge", w->merge);
  stats_u64(out, "larf_loads_missed", w->missed);
  stats_u64(out, "larf_loads_no_free_register", w->no_free);
  stats_u64(out, "larf_loads_without_addresses", w->no_addr);
  stats_u64(out, "larf_ineligible_pattern", w->inel_pattern);
  stats_u64(out, "larf_ineligible_window", w->inel_window);
  stats_u64(out, "larf_ineligible_width", w->inel_width);
  stats_u64(out, "larf_ineligible_mask", w->inel_mask);
  stats_u64(out, "larf_lookup_retries", w->retries);
  stats_u64(out, "larf_perfect_data_in_flight", w->deferred);
  stats_u64(out, "larf_partial_source_in_flight", w->partial_in_flight);
  stats_u64(out, "larf_hook_cycles", w->hook_cycles);
  stats_f64(out, "larf_elided_latency_avg",
            stats_ratio((double)w->elided_latency, (double)w->elided));
  stats_u64(out, "larf_amt_inserts", w->inserts);
  stats_u64(out, "larf_amt_evictions", w->evictions);
  stats_u64(out, "larf_amt_occupancy_max", w->occ_max);
  stats_f64(out, "larf_amt_occupancy_avg", stats_ratio((double)w->occ_sum, (double)w->occ_samples));
  stats_u64(out, "larf_unmaps_on_write", w->unmap_write);
  stats_u64(out, "larf_writes_to_shared_register", w->unmap_shared);
  stats_u64(out, "larf_unmaps_at_exit", w->unmap_exit);
  stats_u64(out, "larf_store_invalidations", w->store_inval);
  stats_u64(out, "larf_regs_saved", w->saved);
  stats_u64(out, "larf_live_regs_peak", w->live_pregs_peak);
  stats_u64(out, "larf_live_mappings_peak", w->live_maps_peak);
  stats_u64(out, "larf_regs_saved_peak", w->saved_peak);
}

const policy_ops policy_larf = {
    .name = "larf",
    .help = "locality-aware register file (load technique; compose as <x>+larf)",
    .create = larf_create,
    .destroy = larf_destroy,
    .kernel_begin = larf_kernel_begin,
    .warp_start = larf_warp_start,
    .warp_exit = larf_warp_exit,
    .cycle = larf_units_cycle,
    .stats = larf_stats,
    .load = larf_load,
    .load_done = larf_load_done,
    .issued = larf_issued,
};
