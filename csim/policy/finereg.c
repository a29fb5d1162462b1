/* FineReg (Oh et al., MICRO 2018; ../shared/papers/finereg.txt): -rfsim_policy finereg.
 *
 * The register file is split into an active CTA register file (ACRF, -finereg_acrf_kb) and a
 * pending CTA register file (PCRF, -finereg_pcrf_kb; the paper: 128 KB each of a 256 KB file,
 * sec. VI-A). A CTA starts by allocating all its registers in the ACRF (sec. IV-A). Each
 * resident CTA has a context location (pipeline = active, or shared memory = pending) and a
 * register location (ACRF, or its live registers in the PCRF), the two fields of the CTA
 * status monitor (sec. V-B, Table IV):
 *   - a CTA admitted beyond the scheduling limit (CTA slots, warp slots) while the ACRF has
 *     room starts pending with its registers in the ACRF, ready to run (context 1, register 2:
 *     the first candidates to resume, sec. V-B);
 *   - when every warp of an active CTA waits on a long-latency load (csim/core/cta_switch.c
 *     finds such CTAs) and a pending CTA is ready, their contexts swap; the stalled CTA's
 *     registers stay in the ACRF unless the resuming CTA needs their space;
 *   - when the ACRF is needed (for a new CTA, Fig. 6a, or a ready CTA whose registers are in
 *     the PCRF), only the live registers (csim/policy/liveness.c: live at each warp's next
 *     instruction) of a CTA that waits on loads move to the PCRF, one 128-byte entry per warp
 *     register; a stalled CTA's live registers may also take a resuming CTA's place in the
 *     PCRF if they fit its free entries plus those the resuming CTA frees (Fig. 6b, sec. V-E).
 *     A CTA that cannot move stays where it is (sec. V-B) and the cycle counts as a PCRF-full
 *     stall (Fig. 14b).
 *
 * Resident CTAs: up to 128 CTAs / 512 warps per SM (the CTA status monitor's size, sec. V-F);
 * active CTAs within the hardware's CTA slots, warp slots and the ACRF; shared memory stays
 * allocated to pending CTAs (their context is backed up there, sec. IV-C), so resident CTAs
 * also fit the shared memory.
 *
 * Which CTAs switch is the CTA status monitor's answer (sec. V-B): fr_status holds every CTA's
 * context/register fields (written at launch, exit and each switch, read back and checked) and,
 * in each decision cycle, searches them with this cycle's stall/ready vectors (fr_rmu_select):
 * the victim is its lowest-id stalled active CTA, the CTA to resume its lowest-id ready pending
 * CTA with the registers in the ACRF, else in the PCRF (sec. V-B's order), and the pending CTA
 * whose registers move to the PCRF for ACRF room its lowest-id waiting pending CTA with its
 * registers in the ACRF (fr_plan takes them as they are; the paper orders nothing within a
 * class; a priority encoder takes the lowest id, not the oldest). The same choice recomputed from
 * the bookkeeping here must agree (else the run stops), and a decision waits while status writes
 * are still queued. A no that no change has undone since is given again without the searches:
 * fr_status, with the same inputs and no write, would answer as before (finereg_switch.c,
 * fr_sm.no_kept); it takes no edge meanwhile, as in the cycles no decision is asked.
 * Whether the registers fit and how long a switch takes come from the other
 * units on each SM (csim/policy/finereg_rmu.c, stepped in every -hw mode): a switch runs
 * csim/hw/finereg/README.md's sequence on
 * fr_lrcache (the stalled warps' PCs; a miss loads the vector from the kernel's live-register
 * table, an unloaded off-chip read, then fills), fr_idxdec (the live count, then the indices),
 * fr_ptrtab (the candidate's chain, sec. V-E's fit) and fr_pcrf (chain build of the CTA going
 * out while the one coming in is walked). The switch latency is the cycles until the units'
 * last answer plus the register data pipeline (FR_PCRF_FIRST - 1 = 3 cycles after the last
 * entry: "at least four clock cycles to access a PCRF tag and the corresponding register",
 * pipelined, sec. V-E), and at least the context moves (the switching logic FineReg adopts from
 * Virtual Thread: one cycle per warp, rfsim's estimate). One switch at a time per SM (one RMU).
 * The units are the hardware: when their live count, chain length or free entries differ from
 * the bookkeeping here (ACRF/PCRF occupancy), or fit_o refuses, the units win; a difference
 * stops the run with both values (the cycle hook returns -1).
 *
 * PCRF capacity is counted in tagged entries as Fig. 11 organises it: pcrf bytes / 128 entries,
 * each with a tag of valid, end, next pointer (log2 entries: 10 bits at 1024 entries), warp id
 * (5 bits) and register index (6 bits). Those fields add up to 23 bits (finereg_pcrf_tag_bits);
 * the paper states 21 bits and 2.15 KB for 1024 tags (1024 x 21 b = 2,688 B). The 6-bit
 * register field limits a kernel to R0-R63 (checked at kernel start).
 *
 * A trace in which every allocated register is live at every PC gains nothing from moving only
 * live registers: the kernel then runs as the baseline (the whole register file, no switching)
 * and finereg_degraded_kernels counts it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counter_set.h"
#include "finereg_internal.h"
#include "policy_registry.h"

static void fr_destroy(policy *p) {
  fr_state *s = fr_st(p);
  if (!s) return;
  for (int i = 0; s->sm && i < p->n_sms; i++) {
    free(s->sm[i].ctas);
    fr_rmu_free(s->sm[i].rmu);
  }
  free(s->sm);
  liveness_free(s->live);
  free(s);
  p->state = NULL;
}

static int ceil_log2(int n) {
  int b = 0;
  while ((1 << b) < n) b++;
  return b;
}

static int fr_create(policy *p, rf_diag *d) {
  const gpu_config *c = p->cfg;
  long rf_kb = (long)c->shader_registers * 4 / 1024;
  if (c->finereg_pcrf_kb <= 0)
    return rf_fail(d, "-finereg_pcrf_kb: expected a PCRF of at least 1 KB (FineReg moves pending "
                      "CTAs' live registers there; the paper uses 128 KB), found %d",
                   c->finereg_pcrf_kb);
  if (c->finereg_acrf_kb <= 0)
    return rf_fail(d, "-finereg_acrf_kb: expected an ACRF of at least 1 KB, found %d",
                   c->finereg_acrf_kb);
  if ((long)c->finereg_acrf_kb + c->finereg_pcrf_kb > rf_kb)
    return rf_fail(d, "-finereg_acrf_kb %d + -finereg_pcrf_kb %d = %d KB: expected at most the "
                      "register file's %ld KB (-gpgpu_shader_registers %d x 4 B); ACRF and PCRF "
                      "split it",
                   c->finereg_acrf_kb, c->finereg_pcrf_kb,
                   c->finereg_acrf_kb + c->finereg_pcrf_kb, rf_kb, c->shader_registers);
  if (c->shader_cta > RESIDENCY_MAX_CTAS)
    return rf_fail(d, "-gpgpu_shader_cta %d: FineReg's CTA status monitor tracks at most %d CTAs "
                      "per SM (finereg.txt sec. V-F)",
                   c->shader_cta, RESIDENCY_MAX_CTAS);
  fr_state *s = rf_calloc(1, sizeof *s, d);
  if (!s) return -1;
  p->state = s;
  s->acrf_regs = c->finereg_acrf_kb * 1024 / 4;
  s->pcrf_entries = c->finereg_pcrf_kb * 1024 / FR_ENTRY_BYTES;
  s->tag_bits = 2 + ceil_log2(s->pcrf_entries) + FR_WARP_BITS + FR_REG_BITS;
  s->hw_ctas = c->shader_cta;
  s->hw_warps = c->max_threads_per_sm / c->warp_size;
  /* an unloaded off-chip read: NoC both ways, L2, DRAM (in core cycles, approximately) */
  s->miss_cycles = (uint64_t)(2 * c->icnt_latency + c->l2_rop_latency + c->dram_latency);
  residency_slots(p, s->hw_ctas, s->hw_warps);
  s->live = liveness_create(d);
  s->sm = rf_calloc((size_t)p->n_sms, sizeof *s->sm, d);
  s->n_sms = p->n_sms;
  if (!s->live || !s->sm) goto fail;
  for (int i = 0; i < p->n_sms; i++) {
    s->sm[i].ctas = rf_calloc((size_t)p->sm_cta_slots, sizeof *s->sm[i].ctas, d);
    if (!s->sm[i].ctas) goto fail;
    s->sm[i].rmu = fr_rmu_new(i, p->hw_mode, p->wave, s->pcrf_entries, d);
    if (!s->sm[i].rmu) goto fail;
  }
  return 0;
fail:
  fr_destroy(p);
  return -1;
}

static const counter_set fr_counters = {
    COUNTER_SET_SIZE(fr_stats),
    COUNTER_PEAK(fr_stats, pcrf_used_max) | COUNTER_PEAK(fr_stats, res.pending_max) |
        COUNTER_PEAK(fr_stats, rmu_cycles_max)};

static int fr_kernel_begin(policy *p, const trace_kernel_info *k, rf_diag *d) {
  fr_state *s = fr_st(p);
  const char *why;
  s->base_max = policy_max_ctas(p->cfg, k, &why);
  if (s->base_max == 0)
    return rf_refuse(d, "kernel %s: one thread block (%d threads, %d registers/thread, %d B shared "
                      "memory) does not fit on an SM (limited by %s)",
                   k->name, k->threads_per_tb, k->nregs, k->shmem, why);
  s->need = policy_cta_needs(p->cfg, k);
  if (s->need.regs > s->acrf_regs)
    return rf_refuse(d, "kernel %s: one CTA needs %d registers (%d threads x %d per thread), more "
                      "than the ACRF holds: -finereg_acrf_kb %d = %d registers (at most %d KB "
                      "with -finereg_pcrf_kb %d)",
                   k->name, s->need.regs, s->need.threads, s->need.regs_per_warp / 32,
                   p->cfg->finereg_acrf_kb, s->acrf_regs,
                   p->cfg->shader_registers * 4 / 1024 - p->cfg->finereg_pcrf_kb,
                   p->cfg->finereg_pcrf_kb);
  if (k->nregs > (1 << FR_REG_BITS))
    return rf_refuse(d, "kernel %s: %d registers per thread; FineReg's PCRF tag has a %d-bit "
                      "register index (R0-R%d, finereg.txt Fig. 11)",
                   k->name, k->nregs, FR_REG_BITS, (1 << FR_REG_BITS) - 1);
  if (s->need.warps > (1 << FR_WARP_BITS))
    return rf_refuse(d, "kernel %s: %d warps per CTA; FineReg's PCRF tag has a %d-bit warp id",
                   k->name, s->need.warps, FR_WARP_BITS);
  counter_set_next_kernel(&fr_counters, &s->total, &s->kern, &s->sm[0].kern, sizeof s->sm[0],
                          s->n_sms);
  s->kern.kernels = 1;
  liveness_reset(s->live);
  s->degraded = 0;
  s->analysed = 0;
  s->remaining = k->num_tbs;
  for (int i = 0; i < p->n_sms; i++) {
    fr_sm *m = &s->sm[i];
    fr_cta *ctas = m->ctas;
    fr_rmu *rmu = m->rmu;
    memset(m, 0, sizeof *m);
    m->ctas = ctas;
    m->rmu = rmu;
    fr_rmu_kernel(rmu);
    memset(ctas, 0, (size_t)p->sm_cta_slots * sizeof *ctas);
    m->acrf_free = s->acrf_regs;
    m->pcrf_free = s->pcrf_entries;
    m->res.smem_free = p->cfg->shmem_size;
  }
  return 0;
}

/* Every allocated register live at every analysed PC? */
static int all_live(const fr_state *s, const trace_tb *tb, const trace_kernel_info *k) {
  for (int w = 0; w < tb->nwarps; w++)
    for (uint32_t i = 0; i < tb->warps[w].n; i++) {
      const live_vec *v = liveness_at(s->live, tb->warps[w].insts[i].op->pc);
      if (!v || live_vec_count_below(v, k->nregs) < k->nregs) return 0;
    }
  return 1;
}

static int fr_cta_admit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                        const trace_tb *tb, uint64_t now) {
  fr_state *s = fr_st(p);
  fr_sm *m = &s->sm[sm];
  const cta_needs *n = &s->need;
  if (!s->analysed) {
    /* the first CTA decides whether the kernel can gain anything (a failed analysis, out of
     * memory, leaves the kernel on the baseline rule: never wrong, only slower) */
    int ok = 1;
    for (int w = 0; w < tb->nwarps && ok; w++)
      ok = liveness_add_warp(s->live, &tb->warps[w], NULL) == 0;
    s->analysed = 1;
    s->degraded = !ok || all_live(s, tb, k);
    s->kern.degraded_kernels = (uint64_t)s->degraded;
  }
  int active = 1;
  if (s->degraded) {
    if (m->res.resident_ctas >= s->base_max) return 0;
  } else {
    if (m->want_in || now < m->rmu_until || m->acrf_free < n->regs ||
        !residency_room(&m->res, n))
      return 0;
    for (int w = 0; w < tb->nwarps; w++)
      if (liveness_add_warp(s->live, &tb->warps[w], NULL) < 0) break; /* unknown PCs: all live */
    m->acrf_free -= n->regs;
    /* beyond the scheduling limit a CTA starts pending: context in shared memory, registers in
     * the ACRF (Table IV: context 1, register 2), ready to be switched in */
    active = fr_slot_room(s, m);
  }
  residency_admit(&m->res, n, active);
  fr_forget(m);
  m->ctas[cta_slot] = (fr_cta){1, active ? PCTA_ACTIVE : PCTA_PENDING, 0, 0, 0};
  fr_rmu_status(m->rmu, cta_slot, active ? 2 : 1, 2); /* Table IV */
  s->remaining--;
  return k->warps_per_tb;
}

static policy_cta_state fr_start_state(policy *p, int sm, int cta_slot, uint64_t now) {
  (void)now;
  return fr_st(p)->sm[sm].ctas[cta_slot].state;
}

static void fr_cta_exit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                        uint64_t now) {
  (void)k;
  (void)now;
  fr_state *s = fr_st(p);
  fr_sm *m = &s->sm[sm];
  fr_cta *c = &m->ctas[cta_slot];
  if (!c->used) return;
  if (!s->degraded) m->acrf_free += s->need.regs;
  residency_exit(&m->res, &s->need);
  memset(c, 0, sizeof *c);
  fr_forget(m);
  fr_rmu_status(m->rmu, cta_slot, 0, 0);
}

/* Every cycle: the CTA status monitor's writes; a unit's failure (lockstep mismatch) or its
 * disagreement with the bookkeeping stops the run. */
static int fr_cycle(policy *p, int sm, const policy_sm_view *v, uint64_t now, rf_diag *d) {
  (void)v;
  return fr_rmu_cycle(fr_st(p)->sm[sm].rmu, now, d);
}

/* The PCRF's use and the residency, per cycle; a sleep's cycles at once (they are alike). */
static void fr_tick_quiet(policy *p, int sm, uint64_t cycles) {
  fr_state *s = fr_st(p);
  fr_sm *m = &s->sm[sm];
  uint64_t used = (uint64_t)(s->pcrf_entries - m->pcrf_free);
  m->kern.pcrf_used_sum += used * cycles;
  residency_sample(&m->res, &m->kern.res, cycles);
  if (used > m->kern.pcrf_used_max) m->kern.pcrf_used_max = used;
}

static void fr_tick(policy *p, int sm, uint64_t now) {
  (void)now;
  fr_tick_quiet(p, sm, 1);
}

static void fr_report(const policy *p, int sm, FILE *out) {
  const fr_state *s = fr_st(p);
  const fr_sm *m = &s->sm[sm];
  fprintf(out, "  SM %d FineReg: ACRF %d of %d registers free, PCRF %d of %d entries free, "
               "%d active CTAs (%d of %d warp slots), %d pending, register management unit %s%s\n",
          sm, m->acrf_free, s->acrf_regs, m->pcrf_free, s->pcrf_entries, m->res.active_ctas,
          m->res.active_warps, s->hw_warps, m->res.pending, m->busy ? "switching" : "idle",
          s->degraded ? " (kernel runs as the baseline: every register live)" : "");
}

static void fr_stats_out(const policy *p, stats_record *out, int total) {
  const fr_state *s = fr_st(p);
  fr_stats t; /* the kernel's; with `total`, the earlier kernels' too */
  counter_set_sum_sms(&fr_counters, &t, &s->kern, &s->sm[0].kern, sizeof s->sm[0], s->n_sms);
  if (total) counter_set_add(&fr_counters, &t, &s->total);
  stats_u64(out, "finereg_acrf_kb", (uint64_t)p->cfg->finereg_acrf_kb);
  stats_u64(out, "finereg_pcrf_kb", (uint64_t)p->cfg->finereg_pcrf_kb);
  stats_u64(out, "finereg_pcrf_entries", (uint64_t)s->pcrf_entries);
  stats_u64(out, "finereg_pcrf_tag_bits", (uint64_t)s->tag_bits);
  stats_u64(out, "finereg_degraded_kernels", t.degraded_kernels);
  stats_u64(out, "finereg_switches_out", t.switches_out);
  stats_u64(out, "finereg_switches_in", t.switches_in);
  stats_u64(out, "finereg_reg_moves_to_pcrf", t.reg_moves);
  stats_u64(out, "finereg_reg_restores_from_pcrf", t.reg_restores);
  stats_u64(out, "finereg_live_regs_moved", t.moved_entries);
  stats_u64(out, "finereg_regs_allocated_of_moved", t.full_entries);
  stats_f64(out, "finereg_live_fraction_moved",
            stats_ratio((double)t.moved_entries, (double)t.full_entries));
  stats_u64(out, "finereg_regs_restored", t.restored_entries);
  stats_f64(out, "finereg_switch_cycles_mean",
            stats_ratio((double)t.switch_cycles, (double)t.rmu_ops));
  stats_f64(out, "finereg_pcrf_occupancy_mean",
            stats_ratio((double)t.pcrf_used_sum, (double)t.res.sm_cycles * s->pcrf_entries));
  stats_u64(out, "finereg_pcrf_entries_max", t.pcrf_used_max);
  residency_stats(out, "finereg", &t.res);
  stats_u64(out, "finereg_pcrf_full_stall_cycles", t.pcrf_full_stalls);
  stats_u64(out, "finereg_rmu_switches", t.rmu_runs);
  stats_u64(out, "finereg_rmu_cycles", t.rmu_cycles);
  stats_f64(out, "finereg_rmu_cycles_mean", stats_ratio((double)t.rmu_cycles, (double)t.rmu_runs));
  stats_u64(out, "finereg_rmu_cycles_max", t.rmu_cycles_max);
  stats_u64(out, "finereg_rmu_fit_refusals", t.rmu_refusals);
  stats_u64(out, "finereg_status_write_waits", t.status_waits);
  stats_u64(out, "finereg_choice_not_oldest", t.not_oldest);
  stats_u64(out, "finereg_lvc_hits", t.lvc_hits);
  stats_u64(out, "finereg_lvc_misses", t.lvc_misses);
  stats_u64(out, "finereg_unknown_pcs", t.unknown_pcs);
  if (!total) {
    stats_u64(out, "finereg_liveness_pcs", liveness_pcs(s->live));
    stats_u64(out, "finereg_liveness_warps", liveness_warps(s->live));
  }
}

const policy_ops policy_finereg = {
    .name = "finereg",
    .help = "FineReg: ACRF + PCRF, CTA switching moving only live registers",
    .create = fr_create,
    .destroy = fr_destroy,
    .kernel_begin = fr_kernel_begin,
    .cta_admit = fr_cta_admit,
    .cta_exit = fr_cta_exit,
    .tick = fr_tick,
    .tick_quiet = fr_tick_quiet,
    .cycle = fr_cycle,
    .cta_start_state = fr_start_state,
    .switch_decide = fr_switch_decide,
    .switch_quiet = fr_switch_quiet,
    .switch_idle = fr_switch_idle,
    .views_changed = fr_views_changed,
    .switch_done = fr_switch_done,
    .report = fr_report,
    .stats = fr_stats_out,
};
