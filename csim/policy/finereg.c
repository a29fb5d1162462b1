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
 * are still queued. Whether the registers fit and how long a switch takes come from the other
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

#include "finereg_rmu.h"
#include "liveness.h"
#include "policy.h"
#include "policy_registry.h"

#define FR_MAX_CTAS 128      /* CTA status monitor entries (sec. V-F) */
#define FR_MAX_WARPS 512
#define FR_ENTRY_BYTES 128   /* one warp register: 32 threads x 4 bytes */
#define FR_PCRF_FIRST 4      /* cycles to the first PCRF tag + register (sec. V-E) */
#define FR_REG_BITS 6        /* register index field of a PCRF tag */
#define FR_WARP_BITS 5
_Static_assert(FR_MAX_CTAS == FR_RMU_CTAS, "the policy's CTAs are fr_status's entries");

typedef struct fr_cta {
  int used;
  policy_cta_state state; /* context: in the pipeline (active) or shared memory (pending) */
  int in_pcrf;        /* registers: live ones in the PCRF (else the whole set in the ACRF) */
  int entries;        /* PCRF entries it holds */
  int release;        /* switching out alone: free its slots (and ACRF) when done */
} fr_cta;

typedef struct fr_stats {
  uint64_t switches_out, switches_in, reg_moves, reg_restores, rmu_ops;
  uint64_t moved_entries, full_entries; /* live registers moved out vs. the full contexts */
  uint64_t restored_entries;
  uint64_t switch_cycles;               /* latency summed over switches */
  uint64_t lvc_hits, lvc_misses, unknown_pcs;
  uint64_t pcrf_full_stalls;            /* SM cycles a stalled CTA could not move for PCRF room */
  uint64_t pcrf_used_sum, pending_sum, active_sum, sm_cycles;
  uint64_t pcrf_used_max, pending_max;
  uint64_t degraded_kernels;
  uint64_t kernels;
  uint64_t rmu_runs, rmu_cycles, rmu_cycles_max; /* the units' cycles per switch */
  uint64_t rmu_refusals;                /* fr_ptrtab.fit_o refused a switch */
  uint64_t status_waits;                /* decisions put off: fr_status writes still queued */
  uint64_t not_oldest;                  /* switches whose CTA was not the oldest of its class */
} fr_stats;

typedef struct fr_sm {
  int acrf_free;      /* registers */
  int pcrf_free;      /* entries */
  int smem_free;
  int active_ctas, active_warps;  /* holding ACRF space and hardware slots */
  int resident_ctas, resident_warps;
  int pending;
  int busy;           /* a switch is in flight */
  uint64_t rmu_until; /* a pending CTA's registers are moving to the PCRF until then */
  int want_in;        /* a ready pending CTA waits for the RMU: no new CTA meanwhile */
  fr_rmu *rmu;        /* the five units */
  fr_cta *ctas;
} fr_sm;

typedef struct fr_state {
  fr_sm *sm;
  liveness *live;
  cta_needs need;
  int acrf_regs, pcrf_entries, tag_bits;
  int hw_ctas, hw_warps;
  int degraded;       /* this kernel runs as the baseline */
  int analysed;       /* first CTA of the kernel analysed (degradation decided) */
  int base_max;       /* baseline max CTAs, for a degraded kernel */
  long remaining;     /* CTAs of the kernel not yet admitted anywhere */
  uint64_t miss_cycles; /* bit-vector read from off-chip memory */
  fr_stats kern, total;
} fr_state;

static fr_state *st(const policy *p) { return p->state; }

static void fr_destroy(policy *p) {
  fr_state *s = st(p);
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
  if (c->shader_cta > FR_MAX_CTAS)
    return rf_fail(d, "-gpgpu_shader_cta %d: FineReg's CTA status monitor tracks at most %d CTAs "
                      "per SM (finereg.txt sec. V-F)",
                   c->shader_cta, FR_MAX_CTAS);
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
  p->sm_cta_slots = FR_MAX_CTAS > c->shader_cta ? FR_MAX_CTAS : c->shader_cta;
  p->sm_warp_slots = FR_MAX_WARPS > s->hw_warps ? FR_MAX_WARPS : s->hw_warps;
  s->live = liveness_create(d);
  s->sm = rf_calloc((size_t)p->n_sms, sizeof *s->sm, d);
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

static void add_stats(fr_stats *a, const fr_stats *b) {
  uint64_t amax = a->pcrf_used_max > b->pcrf_used_max ? a->pcrf_used_max : b->pcrf_used_max;
  uint64_t pmax = a->pending_max > b->pending_max ? a->pending_max : b->pending_max;
  uint64_t rmax = a->rmu_cycles_max > b->rmu_cycles_max ? a->rmu_cycles_max : b->rmu_cycles_max;
  const uint64_t *y = (const uint64_t *)b;
  uint64_t *x = (uint64_t *)a;
  for (size_t i = 0; i < sizeof *a / sizeof(uint64_t); i++) x[i] += y[i];
  a->pcrf_used_max = amax;
  a->pending_max = pmax;
  a->rmu_cycles_max = rmax;
}

static int fr_kernel_begin(policy *p, const trace_kernel_info *k, rf_diag *d) {
  fr_state *s = st(p);
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
  add_stats(&s->total, &s->kern);
  memset(&s->kern, 0, sizeof s->kern);
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
    m->smem_free = p->cfg->shmem_size;
  }
  return 0;
}

/* Every allocated register live at every analysed PC? */
static int all_live(const fr_state *s, const trace_tb *tb, const trace_kernel_info *k) {
  for (int w = 0; w < tb->nwarps; w++)
    for (uint32_t i = 0; i < tb->warps[w].n; i++) {
      const live_vec *v = liveness_at(s->live, tb->warps[w].insts[i].pc);
      if (!v || live_vec_count_below(v, k->nregs) < k->nregs) return 0;
    }
  return 1;
}

static int slot_room(const fr_state *s, const fr_sm *m) {
  return m->active_ctas < s->hw_ctas && m->active_warps + s->need.warps <= s->hw_warps;
}

static int fr_cta_admit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                        const trace_tb *tb, uint64_t now) {
  fr_state *s = st(p);
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
    if (m->resident_ctas >= s->base_max) return 0;
  } else {
    if (m->want_in || now < m->rmu_until || m->acrf_free < n->regs ||
        m->resident_ctas >= FR_MAX_CTAS || m->resident_warps + n->warps > FR_MAX_WARPS ||
        m->smem_free < n->shmem)
      return 0;
    for (int w = 0; w < tb->nwarps; w++)
      if (liveness_add_warp(s->live, &tb->warps[w], NULL) < 0) break; /* unknown PCs: all live */
    m->acrf_free -= n->regs;
    /* beyond the scheduling limit a CTA starts pending: context in shared memory, registers in
     * the ACRF (Table IV: context 1, register 2), ready to be switched in */
    active = slot_room(s, m);
  }
  m->smem_free -= n->shmem;
  m->resident_ctas++;
  m->resident_warps += n->warps;
  if (active) {
    m->active_ctas++;
    m->active_warps += n->warps;
  } else {
    m->pending++;
  }
  m->ctas[cta_slot] = (fr_cta){1, active ? PCTA_ACTIVE : PCTA_PENDING, 0, 0, 0};
  fr_rmu_status(m->rmu, cta_slot, active ? 2 : 1, 2); /* Table IV */
  s->remaining--;
  return k->warps_per_tb;
}

static policy_cta_state fr_start_state(policy *p, int sm, int cta_slot, uint64_t now) {
  (void)now;
  return st(p)->sm[sm].ctas[cta_slot].state;
}

static void fr_cta_exit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                        uint64_t now) {
  (void)k;
  (void)now;
  fr_state *s = st(p);
  fr_sm *m = &s->sm[sm];
  fr_cta *c = &m->ctas[cta_slot];
  if (!c->used) return;
  if (!s->degraded) m->acrf_free += s->need.regs;
  m->smem_free += s->need.shmem;
  m->active_ctas--;
  m->active_warps -= s->need.warps;
  m->resident_ctas--;
  m->resident_warps -= s->need.warps;
  memset(c, 0, sizeof *c);
  fr_rmu_status(m->rmu, cta_slot, 0, 0);
}

/* ---- the register management unit's answer: which switch, and how long it takes ---- */

static int regs_per_thread(const fr_state *s) { return s->need.regs_per_warp / TRACE_WARP_SIZE; }

/* Live registers (PCRF entries) of a CTA at its warps' next instructions: the registers a
 * switch-out moves. */
static int live_entries(const fr_state *s, const policy_cta_view *v) {
  int total = 0, regs = regs_per_thread(s);
  for (int w = 0; w < v->nwarps; w++) {
    const policy_warp_pos *pos = &v->warps[w];
    if (!pos->tw || pos->exited || pos->pc >= pos->tw->n) continue;
    const live_vec *lv = liveness_at(s->live, pos->tw->insts[pos->pc].pc);
    total += lv ? live_vec_count_below(lv, regs) : regs; /* a PC never analysed: all live */
  }
  return total;
}

/* The live vector the kernel's table (the liveness pass, the analog of the paper's off-chip
 * table) holds for a PC: the allocated registers' bits (a PC never analysed: all live). */
static uint64_t table_vec(fr_state *s, uint64_t pc) {
  int regs = regs_per_thread(s);
  uint64_t mask = regs >= 64 ? ~0ULL : (1ULL << regs) - 1;
  const live_vec *lv = liveness_at(s->live, pc);
  if (!lv) s->kern.unknown_pcs++;
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
      q.pc[w] = (uint32_t)pos->tw->insts[pos->pc].pc;
      q.vec[w] = table_vec(s, pos->tw->insts[pos->pc].pc);
    }
  }
  fr_rmu_res r;
  if (fr_rmu_switch(m->rmu, &q, &r) < 0) return -1;
  s->kern.lvc_hits += r.hits;
  s->kern.lvc_misses += r.misses;
  if (!r.fit) {
    s->kern.rmu_refusals++;
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
  s->kern.rmu_runs++;
  s->kern.rmu_cycles += r.cycles;
  if (r.cycles > s->kern.rmu_cycles_max) s->kern.rmu_cycles_max = r.cycles;
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

/* fr_status's inputs from the cycle's views: stall_i = every warp waits on a load (an active
 * CTA's `stalled`, a pending CTA that is not ready), ready_i = a pending CTA can resume. */
static void status_vectors(const policy_cta_view *v, int n, uint32_t *stall, uint32_t *ready) {
  for (int i = 0; i < n; i++) {
    unsigned id = (unsigned)v[i].slot;
    if (v[i].stalled || (v[i].state == PCTA_PENDING && !v[i].ready))
      stall[id / 32] |= 1u << (id % 32);
    if (v[i].ready) ready[id / 32] |= 1u << (id % 32);
  }
}

/* The choice the bookkeeping here implies for fr_status's rule (lowest CTA id of each class;
 * views come in slot order): the unit must give the same, else its fields and the policy's
 * state differ (a disagreement stops the run). */
static int check_selection(const fr_sm *m, const policy_cta_view *v, int n,
                           const fr_rmu_sel *sel) {
  int vic = -1, cand_acrf = -1, cand_pcrf = -1, mov = -1;
  for (int i = n - 1; i >= 0; i--) {
    const fr_cta *c = &m->ctas[v[i].slot];
    if (v[i].stalled) vic = v[i].slot;
    if (v[i].ready && !c->in_pcrf) cand_acrf = v[i].slot;
    if (v[i].ready && c->in_pcrf) cand_pcrf = v[i].slot;
    if (v[i].state == PCTA_PENDING && !v[i].ready && !c->in_pcrf) mov = v[i].slot;
  }
  int cand = cand_acrf >= 0 ? cand_acrf : cand_pcrf;
  int cand_reg = cand_acrf >= 0 ? 2 : cand_pcrf >= 0 ? 1 : 0;
  const char *what = NULL;
  long unit = 0, pol = 0;
  if (sel->vic != vic) {
    what = "stalled active CTA to switch out (fr_status vic_cta_o)";
    unit = sel->vic, pol = vic;
  } else if (sel->cand != cand) {
    what = "ready pending CTA to switch in (fr_status cand_cta_o)";
    unit = sel->cand, pol = cand;
  } else if (sel->cand_reg != cand_reg) {
    what = "candidate's register field (fr_status cand_reg_o)";
    unit = sel->cand_reg, pol = cand_reg;
  } else if (sel->mov != mov) {
    what = "waiting pending CTA with ACRF registers (fr_status mov_cta_o)";
    unit = sel->mov, pol = mov;
  }
  if (!what) return 0;
  fr_rmu_disagree(m->rmu, what, unit, pol);
  return -1;
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
  uint64_t ctx = ctx_cycles(s), c = 0;
  int rc;
  if (pd) {
    const fr_cta *pc = &m->ctas[pd->slot];
    int regs_ok = !pc->in_pcrf || acrf_room;
    if (regs_ok && (slot_room(s, m) || a)) {
      /* the pending CTA's chain (if any) walks back; nothing moves out */
      if (pc->in_pcrf && (rc = rmu_run(s, m, NULL, pd->slot, 0, now, &c)) <= 0)
        return rc < 0 ? PLAN_FAIL : PLAN_NONE;
      if (slot_room(s, m)) { /* resume into a free scheduling slot */
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
          if (rc == 0) s->kern.pcrf_full_stalls++;
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
                                 (s->remaining > 0 && m->resident_ctas < FR_MAX_CTAS &&
                                  m->resident_warps + need->warps <= FR_MAX_WARPS &&
                                  m->smem_free >= need->shmem));
  if (!want_room) return PLAN_NONE;
  /* first a pending CTA that waits on loads with its registers in the ACRF (mov_*): moving it
   * delays nothing that could run */
  const policy_cta_view *q = sel->mov >= 0 ? find_view(v, n, sel->mov) : NULL;
  const policy_cta_view *x = q ? q : a;
  if (!x) return PLAN_NONE;
  if (m->pcrf_free < live_entries(s, x)) {
    s->kern.pcrf_full_stalls++;
    return PLAN_NONE;
  }
  if ((rc = rmu_run(s, m, x, -1, 1, now, &c)) <= 0) {
    if (rc == 0) s->kern.pcrf_full_stalls++;
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
  s->kern.reg_moves++;
  s->kern.moved_entries += (uint64_t)live;
  int unfinished = 0;
  for (int w = 0; w < v->nwarps; w++) unfinished += v->warps[w].tw && !v->warps[w].exited;
  s->kern.full_entries += (uint64_t)unfinished * (uint64_t)regs_per_thread(s);
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
static void count_not_oldest(fr_state *s, const fr_sm *m, const policy_cta_view *v, int n,
                             int moved, const policy_switch *sw) {
  int slots[3] = {moved, moved < 0 ? sw->out_slot : -1, moved < 0 ? sw->in_slot : -1};
  for (int k = 0; k < 3; k++)
    if (slots[k] >= 0 && !is_oldest(m, v, n, slots[k])) {
      s->kern.not_oldest++;
      return;
    }
}

/* Accounting: scheduling slots (active_ctas/warps) and ACRF registers are taken when a switch
 * starts and released when it completes (switch_done) for a CTA leaving them alone; in a swap
 * they pass from one CTA to the other. PCRF entries are taken and freed at the start. */
static int fr_switch_decide(policy *p, int sm, const policy_cta_view *v, int n, uint64_t now,
                            policy_switch *out) {
  fr_state *s = st(p);
  fr_sm *m = &s->sm[sm];
  if (s->degraded) return 0;
  if (m->busy || now < m->rmu_until) {
    m->want_in = any_ready(v, n);
    return 0;
  }
  m->want_in = 0;
  /* the CTA status monitor's searches over this cycle's stall/ready vectors pick the CTAs */
  uint32_t stall[FR_RMU_CTA_WORDS] = {0}, ready[FR_RMU_CTA_WORDS] = {0};
  status_vectors(v, n, stall, ready);
  fr_rmu_sel sel;
  if (fr_rmu_select(m->rmu, now, stall, ready, &sel) < 0) return 0; /* reported next cycle */
  if (sel.stale) { /* its fields lag the bookkeeping: decide next cycle */
    s->kern.status_waits++;
    return 0;
  }
  if (check_selection(m, v, n, &sel) < 0) return 0;
  const policy_cta_view *move = NULL;
  uint64_t move_cycles = 0;
  int plan = fr_plan(s, m, v, n, &sel, now, out, &move, &move_cycles);
  if (plan == PLAN_NONE || plan == PLAN_FAIL) return 0;
  count_not_oldest(s, m, v, n, plan == PLAN_MOVE ? move->slot : -1, out);
  if (plan == PLAN_MOVE) { /* a pending CTA's registers leave the ACRF; no context moves */
    to_pcrf(s, m, move);
    fr_rmu_status(m->rmu, move->slot, 1, 1);
    m->acrf_free += s->need.regs;
    m->rmu_until = now + move_cycles;
    s->kern.switch_cycles += move_cycles;
    s->kern.rmu_ops++;
    return 0;
  }
  m->busy = 1;
  s->kern.rmu_ops++;
  fr_cta *in = out->in_slot >= 0 ? &m->ctas[out->in_slot] : NULL;
  fr_cta *o = out->out_slot >= 0 ? &m->ctas[out->out_slot] : NULL;
  if (o) {
    const policy_cta_view *a = find_view(v, n, out->out_slot);
    o->state = PCTA_SWITCH_OUT;
    m->pending++;
    s->kern.switches_out++;
    s->kern.switch_cycles += out->out_cycles;
    /* its registers leave the ACRF when the one coming in needs them or no CTA comes in */
    if (!in || (in->in_pcrf && m->acrf_free < s->need.regs)) to_pcrf(s, m, a);
    o->release = !in; /* slots (and ACRF, if moved) freed when the switch completes */
    fr_rmu_status(m->rmu, out->out_slot, 1, o->in_pcrf ? 1 : 2);
  }
  if (in) {
    in->state = PCTA_SWITCH_IN;
    m->pending--;
    s->kern.switches_in++;
    if (!o) s->kern.switch_cycles += out->in_cycles;
    if (in->in_pcrf) {
      m->pcrf_free += in->entries;
      s->kern.restored_entries += (uint64_t)in->entries;
      s->kern.reg_restores++;
      in->entries = 0;
      in->in_pcrf = 0;
      /* ACRF space: the stalled CTA's, when its registers moved out, else free space */
      if (!(o && o->in_pcrf)) m->acrf_free -= s->need.regs;
    }
    if (!o) {
      m->active_ctas++;
      m->active_warps += s->need.warps;
    }
    fr_rmu_status(m->rmu, out->in_slot, 2, 2);
  }
  return 1;
}

/* Every cycle: the CTA status monitor's writes; a unit's failure (lockstep mismatch) or its
 * disagreement with the bookkeeping stops the run. */
static int fr_cycle(policy *p, int sm, const policy_sm_view *v, uint64_t now, rf_diag *d) {
  (void)v;
  return fr_rmu_cycle(st(p)->sm[sm].rmu, now, d);
}

static void fr_switch_done(policy *p, int sm, int cta_slot, policy_cta_state state,
                           uint64_t now) {
  (void)now;
  fr_state *s = st(p);
  fr_sm *m = &s->sm[sm];
  fr_cta *c = &m->ctas[cta_slot];
  c->state = state;
  if (state == PCTA_PENDING && c->release) { /* left alone: its slots (and ACRF) are free */
    c->release = 0;
    m->active_ctas--;
    m->active_warps -= s->need.warps;
    if (c->in_pcrf) m->acrf_free += s->need.regs;
  }
  m->busy = 0;
  for (int i = 0; i < p->sm_cta_slots; i++)
    if (m->ctas[i].used &&
        (m->ctas[i].state == PCTA_SWITCH_IN || m->ctas[i].state == PCTA_SWITCH_OUT))
      m->busy = 1;
}

static void fr_tick(policy *p, int sm, uint64_t now) {
  (void)now;
  fr_state *s = st(p);
  const fr_sm *m = &s->sm[sm];
  uint64_t used = (uint64_t)(s->pcrf_entries - m->pcrf_free);
  s->kern.pcrf_used_sum += used;
  s->kern.pending_sum += (uint64_t)m->pending;
  s->kern.active_sum += (uint64_t)m->active_ctas;
  s->kern.sm_cycles++;
  if (used > s->kern.pcrf_used_max) s->kern.pcrf_used_max = used;
  if ((uint64_t)m->pending > s->kern.pending_max) s->kern.pending_max = (uint64_t)m->pending;
}

static void fr_report(const policy *p, int sm, FILE *out) {
  const fr_state *s = st(p);
  const fr_sm *m = &s->sm[sm];
  fprintf(out, "  SM %d FineReg: ACRF %d of %d registers free, PCRF %d of %d entries free, "
               "%d active CTAs (%d of %d warp slots), %d pending, register management unit %s%s\n",
          sm, m->acrf_free, s->acrf_regs, m->pcrf_free, s->pcrf_entries, m->active_ctas,
          m->active_warps, s->hw_warps, m->pending, m->busy ? "switching" : "idle",
          s->degraded ? " (kernel runs as the baseline: every register live)" : "");
}

static void fr_stats_out(const policy *p, stats_record *out, int total) {
  const fr_state *s = st(p);
  fr_stats t = s->kern;
  if (total) {
    t = s->total;
    add_stats(&t, &s->kern);
  }
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
            stats_ratio((double)t.pcrf_used_sum, (double)t.sm_cycles * s->pcrf_entries));
  stats_u64(out, "finereg_pcrf_entries_max", t.pcrf_used_max);
  stats_f64(out, "finereg_pending_ctas_mean",
            stats_ratio((double)t.pending_sum, (double)t.sm_cycles));
  stats_u64(out, "finereg_pending_ctas_max", t.pending_max);
  stats_f64(out, "finereg_active_ctas_mean",
            stats_ratio((double)t.active_sum, (double)t.sm_cycles));
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
    .cycle = fr_cycle,
    .cta_start_state = fr_start_state,
    .switch_decide = fr_switch_decide,
    .switch_done = fr_switch_done,
    .report = fr_report,
    .stats = fr_stats_out,
};
