/* Two of the techniques FineReg is compared with (finereg.txt sec. I, VI-A, Fig. 1), on the CTA
 * switching machinery of csim/core/cta_switch.c:
 *
 * -rfsim_policy vt: Virtual Thread (Yoon et al., ISCA 2016). CTAs are launched beyond the
 *   scheduling limit (CTA slots, warp slots) until the register file or shared memory is full;
 *   registers stay bound: every resident CTA holds its whole allocation in the register file.
 *   At most the scheduling limit is active; the others are pending (their warps' scheduling
 *   context is saved in shared memory). When every warp of an active CTA waits on a
 *   long-latency load and a pending CTA is ready, the two swap; a pending CTA also becomes
 *   active when an active one finishes.
 *
 * -rfsim_policy regdram: Reg+DRAM, the Zorua-like configuration of sec. VI-A: Virtual Thread
 *   plus pending CTAs beyond the register file, whose register contexts are in off-chip memory.
 *   A CTA whose registers are in memory and that becomes active needs register-file space: the
 *   stalled CTA it replaces writes its whole context (every allocated register, 128 bytes per
 *   warp register) to memory, and the resuming CTA's context is read back (if it ever ran), as
 *   real accesses through the SM's L1, the NoC, L2 and DRAM (cta_switch.c issues them one per
 *   cycle when the LD/ST unit leaves the L1 free; the switch completes when the stores are
 *   accepted and the loads have returned). At most -regdram_mem_ctas CTAs per SM have their
 *   contexts in memory (the paper "varied the number of pending CTAs in the off-chip memory to
 *   find its best-performance setup for every application"; make experiments-finereg sweeps
 *   it and keeps each workload's best); 0 is Virtual Thread. Resident CTAs are also capped by
 *   the CTA status monitor FineReg shares with these designs (128 CTAs, 512 warps) and by
 *   shared memory.
 *
 * -rfsim_policy regmutex: RegMutex (Khorasani et al.) merged with Virtual Thread, as the paper
 *   evaluates it ("VT+RegMutex", sec. VI-A). Each warp owns a base register set (BRS,
 *   -regmutex_brs_pct of its allocation per thread, rounded up to the allocation unit); the rest
 *   of its registers come from a shared register pool (SRP, -regmutex_srp_pct of the register
 *   file) in chunks of (allocation - BRS) registers per thread, acquired when the warp reaches
 *   a region that needs more than the BRS and released when it leaves it. Region demand at a
 *   PC is the number of registers live there (csim/policy/liveness.c) plus those the
 *   instruction writes: the registers RegMutex's compiler keeps in use, compacted into the BRS
 *   wherever they fit. A warp that needs a chunk and gets none waits (the stall the paper
 *   measures in Fig. 14b); a warp keeps its chunk while it waits on a load (RegMutex does not
 *   release SRP on a stall, sec. VI-D). Resident CTAs are bounded by the BRS part of the
 *   register file. Chunks are granted only in a safe state (a banker's check: the CTAs holding
 *   chunks can all still finish if each of their unfinished warps needs one more), so barriers
 *   inside a region cannot deadlock; a CTA holding chunks is never switched out.
 *
 * Switch latency (rfsim's estimate; neither FineReg nor rfsim has Virtual Thread's own figure):
 * one cycle per warp whose scheduling context (PC, SIMT stack, scoreboard) moves to or from
 * shared memory, through one port, so a swap of two W-warp CTAs takes 2W cycles. One switch at
 * a time per SM, as for FineReg's single register management unit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counter_set.h"
#include "cta_residency.h"
#include "liveness.h"
#include "policy.h"
#include "policy_registry.h"

#define VT_LINE 128
#define VT_DRAM_BASE 0x7d0000000000ull /* Reg+DRAM register backing store */
#define VT_DRAM_SLOT_SHIFT 20          /* 1 MB per (SM, CTA slot): 32 warps x 255 regs x 128 B */

typedef struct vt_cta {
  int used;
  policy_cta_state state;
  int in_rf;          /* its registers are in the register file (else in memory: Reg+DRAM) */
  int ran;            /* has executed: a context to restore */
  int chunks;         /* RegMutex: SRP chunks its warps hold */
  int unfinished;     /* RegMutex: warps not yet exited */
} vt_cta;

/* A counter set (counter_set.h): uint64_t fields only. */
typedef struct vt_stats {
  uint64_t switches_out, switches_in, swaps, switch_cycles;
  uint64_t lines_out, lines_in;
  residency_tally res;
  uint64_t acquires, releases, srp_stalls, srp_unsafe, srp_held_sum, srp_held_max;
  uint64_t kernels;
} vt_stats;

typedef struct vt_sm {
  int rf_free;
  cta_residency res;  /* resident, active and pending CTAs */
  int busy;
  /* The last decision said no, and nothing vt_plan reads has changed since: the views
   * (views_changed) or, for RegMutex, which CTAs hold SRP chunks (its issue hooks move them, so
   * the GPU cannot tell: regmutex does not set decide_on_change, and keeps this instead). */
  int said_no;
  int in_mem;         /* Reg+DRAM: CTAs whose register contexts are in memory */
  vt_cta *ctas;
  int srp_free;       /* RegMutex: free SRP chunks */
  uint8_t *holds;     /* RegMutex: per (CTA slot, warp id), holds a chunk */
  /* RegMutex: raised by everything that may turn a refusal of mutex_may_issue into a yes (its
   * issue_gate): a chunk taken or given back, a warp's exit, a CTA's arrival or exit, the
   * liveness table's growth. Kept across kernels (it only rises). */
  uint64_t gate;
  vt_stats kern;      /* what this SM counted in the kernel (vt_state.kern: the dispatcher) */
} vt_sm;

enum { MODE_VT = 0, MODE_DRAM, MODE_MUTEX };

typedef struct vt_state {
  int dram;           /* Reg+DRAM */
  int mutex;          /* VT+RegMutex */
  liveness *live;     /* RegMutex: region demand */
  int brs, ext;       /* RegMutex: BRS and chunk registers per thread */
  int srp_chunks;
  vt_sm *sm;
  int n_sms;
  cta_needs need;
  int hw_ctas, hw_warps;
  vt_stats kern, total;
} vt_state;

static vt_state *st(const policy *p) { return p->state; }

static void vt_destroy(policy *p) {
  vt_state *s = st(p);
  if (!s) return;
  for (int i = 0; s->sm && i < p->n_sms; i++) {
    free(s->sm[i].ctas);
    free(s->sm[i].holds);
  }
  free(s->sm);
  liveness_free(s->live);
  free(s);
  p->state = NULL;
}

static int create_common(policy *p, int mode, rf_diag *d) {
  const gpu_config *c = p->cfg;
  vt_state *s = rf_calloc(1, sizeof *s, d);
  if (!s) return -1;
  p->state = s;
  s->dram = mode == MODE_DRAM;
  s->mutex = mode == MODE_MUTEX;
  s->hw_ctas = c->shader_cta;
  s->hw_warps = c->max_threads_per_sm / c->warp_size;
  residency_slots(p, s->hw_ctas, s->hw_warps);
  s->sm = rf_calloc((size_t)p->n_sms, sizeof *s->sm, d);
  s->n_sms = p->n_sms;
  if (!s->sm) goto fail;
  for (int i = 0; i < p->n_sms; i++) {
    s->sm[i].ctas = rf_calloc((size_t)p->sm_cta_slots, sizeof *s->sm[i].ctas, d);
    s->sm[i].holds = rf_calloc((size_t)p->sm_cta_slots * 32, 1, d);
    if (!s->sm[i].ctas || !s->sm[i].holds) goto fail;
  }
  if (s->mutex && !(s->live = liveness_create(d))) goto fail;
  /* vt_plan reads the views, the CTAs' register places and the SM's room, which change only
   * with a CTA's launch, exit or switch (each changes a view); RegMutex's also reads the SRP
   * chunks a CTA holds, which its issue hooks move (vt_sm.said_no) */
  p->decide_on_change = !s->mutex;
  return 0;
fail:
  vt_destroy(p);
  return -1;
}

static int vt_create(policy *p, rf_diag *d) { return create_common(p, MODE_VT, d); }
static int regdram_create(policy *p, rf_diag *d) { return create_common(p, MODE_DRAM, d); }
static int regmutex_create(policy *p, rf_diag *d) { return create_common(p, MODE_MUTEX, d); }

static const counter_set vt_counters = {
    COUNTER_SET_SIZE(vt_stats),
    COUNTER_PEAK(vt_stats, res.pending_max) | COUNTER_PEAK(vt_stats, srp_held_max)};

static int vt_kernel_begin(policy *p, const trace_kernel_info *k, rf_diag *d) {
  vt_state *s = st(p);
  const char *why;
  if (policy_max_ctas(p->cfg, k, &why) == 0)
    return rf_refuse(d, "kernel %s: one thread block (%d threads, %d registers/thread, %d B shared "
                      "memory) does not fit on an SM (limited by %s)",
                   k->name, k->threads_per_tb, k->nregs, k->shmem, why);
  s->need = policy_cta_needs(p->cfg, k);
  int rf = p->cfg->shader_registers;
  if (s->mutex) {
    const gpu_config *c = p->cfg;
    int unit = c->reg_alloc_unit > 0 ? c->reg_alloc_unit : 1;
    int r = s->need.regs_per_warp / TRACE_WARP_SIZE;
    s->brs = (r * c->regmutex_brs_pct + 99) / 100;
    s->brs = (s->brs + unit - 1) / unit * unit;
    if (s->brs > r) s->brs = r;
    s->ext = r - s->brs;
    long srp_regs = (long)rf * c->regmutex_srp_pct / 100;
    rf -= (int)srp_regs;
    s->srp_chunks = s->ext > 0 ? (int)(srp_regs / ((long)s->ext * TRACE_WARP_SIZE)) : 0;
    s->need.regs = s->brs * s->need.threads; /* a CTA holds its BRS in the register file */
    if (s->need.regs > rf)
      return rf_refuse(d, "kernel %s: one CTA's base register sets (%d threads x %d registers, "
                        "-regmutex_brs_pct %d) need %d registers, more than the %d the SRP "
                        "leaves (-regmutex_srp_pct %d of %d)",
                     k->name, s->need.threads, s->brs, c->regmutex_brs_pct, s->need.regs, rf,
                     c->regmutex_srp_pct, c->shader_registers);
    if (s->ext > 0 && s->srp_chunks < s->need.warps)
      return rf_refuse(d, "kernel %s: the SRP (-regmutex_srp_pct %d: %ld registers) holds %d "
                        "chunks of %d registers x 32 threads, fewer than one CTA's %d warps: "
                        "expected a larger -regmutex_srp_pct or -regmutex_brs_pct",
                     k->name, c->regmutex_srp_pct, srp_regs, s->srp_chunks, s->ext,
                     s->need.warps);
    liveness_reset(s->live);
  }
  counter_set_next_kernel(&vt_counters, &s->total, &s->kern, &s->sm[0].kern, sizeof s->sm[0],
                          s->n_sms);
  s->kern.kernels = 1;
  for (int i = 0; i < p->n_sms; i++) {
    vt_sm *m = &s->sm[i];
    vt_cta *ctas = m->ctas;
    uint8_t *holds = m->holds;
    uint64_t gate = m->gate;
    memset(m, 0, sizeof *m);
    m->ctas = ctas;
    m->holds = holds;
    m->gate = gate + 1;
    memset(ctas, 0, (size_t)p->sm_cta_slots * sizeof *ctas);
    memset(holds, 0, (size_t)p->sm_cta_slots * 32);
    m->rf_free = rf;
    m->srp_free = s->srp_chunks;
    m->res.smem_free = p->cfg->shmem_size;
  }
  return 0;
}

static int active_room(const vt_state *s, const vt_sm *m) {
  return residency_active_room(&m->res, &s->need, s->hw_ctas, s->hw_warps);
}

static int vt_cta_admit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                        const trace_tb *tb, uint64_t now) {
  (void)now;
  vt_state *s = st(p);
  vt_sm *m = &s->sm[sm];
  const cta_needs *n = &s->need;
  if (!residency_room(&m->res, n)) return 0;
  int in_rf = m->rf_free >= n->regs;
  if (!in_rf && (!s->dram || m->in_mem >= p->cfg->regdram_mem_ctas)) return 0;
  /* a new CTA starts active when there is a scheduling slot and no pending CTA waits for one */
  int active = in_rf && active_room(s, m) && m->res.pending == 0;
  if (in_rf) m->rf_free -= n->regs;
  else m->in_mem++;
  residency_admit(&m->res, n, active);
  m->ctas[cta_slot] = (vt_cta){1, active ? PCTA_ACTIVE : PCTA_PENDING, in_rf, active, 0,
                               n->warps};
  if (s->mutex) {
    for (int w = 0; w < tb->nwarps; w++)
      if (liveness_add_warp(s->live, &tb->warps[w], NULL) < 0) break; /* unknown: needs SRP */
    /* the table is the kernel's (a demand anywhere may change), and this SM has a new CTA
     * (the dispatcher admits between the SMs' cycles: no SM reads a gate meanwhile) */
    for (int i = 0; i < s->n_sms; i++) s->sm[i].gate++;
  }
  return k->warps_per_tb;
}

/* ---- RegMutex: the shared register pool ---- */

/* Registers a warp about to execute `in` has in use: live there plus those it writes. */
static int demand(const vt_state *s, const trace_inst *in) {
  int r = s->need.regs_per_warp / TRACE_WARP_SIZE;
  const live_vec *lv = liveness_at(s->live, in->op->pc);
  if (!lv) return r;
  live_vec v = *lv;
  for (int i = 0; i < in->op->ndst; i++) v.w[in->op->dst[i] >> 6] |= 1ull << (in->op->dst[i] & 63);
  int n = live_vec_count(&v);
  return n < r ? n : r;
}

/* Is granting one more chunk to CTA `cta` safe? The CTAs holding chunks must be able to finish
 * in some order if each of their unfinished warps without a chunk asks for one. */
static int grant_is_safe(const policy *p, const vt_sm *m, int cta) {
  enum { MAXC = 1024 };
  int need[MAXC], held[MAXC], n = 0;
  for (int i = 0; i < p->sm_cta_slots && n < MAXC; i++) {
    const vt_cta *c = &m->ctas[i];
    int h = c->chunks + (i == cta);
    if (!c->used || h == 0) continue;
    held[n] = h;
    need[n] = c->unfinished - h;
    n++;
  }
  int avail = m->srp_free - 1;
  for (int left = n; left > 0;) {
    int found = -1;
    for (int i = 0; i < n; i++)
      if (held[i] >= 0 && need[i] <= avail) {
        found = i;
        break;
      }
    if (found < 0) return 0;
    avail += held[found];
    held[found] = -1;
    left--;
  }
  return 1;
}

/* A warp of CTA c takes an SRP chunk, or gives one back (leaving its region, or exiting). A CTA
 * starting or ceasing to hold chunks changes what vt_plan may switch out. */
static void chunk_taken(vt_sm *m, vt_cta *c) {
  if (c->chunks++ == 0) m->said_no = 0;
  m->gate++;
  m->srp_free--;
  m->kern.acquires++;
}
static void chunk_returned(vt_sm *m, vt_cta *c) {
  if (--c->chunks == 0) m->said_no = 0;
  m->gate++;
  m->srp_free++;
  m->kern.releases++;
}

/* What a refusal counts (also one the core gives again without asking: mutex_refused_again). */
static void refused(vt_sm *m) {
  m->kern.srp_stalls++;
  m->kern.srp_unsafe += m->srp_free > 0;
}

static int mutex_may_issue(policy *p, const policy_warp *w, const trace_inst *in, uint64_t now) {
  (void)now;
  vt_state *s = st(p);
  vt_sm *m = &s->sm[w->sm];
  if (s->ext == 0) return 1;
  uint8_t *h = &m->holds[w->cta_slot * 32 + w->warp];
  vt_cta *c = &m->ctas[w->cta_slot];
  if (demand(s, in) <= s->brs) {
    if (*h) { /* leaving the region: the chunk goes back to the pool */
      *h = 0;
      chunk_returned(m, c);
    }
    return 1;
  }
  if (*h) return 1;
  if (m->srp_free == 0 || !grant_is_safe(p, m, w->cta_slot)) {
    refused(m);
    return 0;
  }
  *h = 1;
  chunk_taken(m, c);
  return 1;
}

static void mutex_warp_exit(policy *p, int sm, int cta_slot, int warp,
                            const trace_kernel_info *k, uint64_t now) {
  (void)k;
  (void)now;
  vt_state *s = st(p);
  vt_sm *m = &s->sm[sm];
  vt_cta *c = &m->ctas[cta_slot];
  uint8_t *h = &m->holds[cta_slot * 32 + warp];
  c->unfinished--;
  m->gate++;
  if (*h) {
    *h = 0;
    chunk_returned(m, c);
  }
}

static const uint64_t *mutex_issue_gate(policy *p, int sm) { return &st(p)->sm[sm].gate; }
static void mutex_refused_again(policy *p, int sm) { refused(&st(p)->sm[sm]); }

static policy_cta_state vt_start_state(policy *p, int sm, int cta_slot, uint64_t now) {
  (void)now;
  return st(p)->sm[sm].ctas[cta_slot].state;
}

static void vt_cta_exit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                        uint64_t now) {
  (void)k;
  (void)now;
  vt_state *s = st(p);
  vt_sm *m = &s->sm[sm];
  vt_cta *c = &m->ctas[cta_slot];
  if (!c->used) return;
  m->gate++;
  if (c->in_rf) m->rf_free += s->need.regs;
  residency_exit(&m->res, &s->need);
  memset(c, 0, sizeof *c);
}

static const policy_cta_view *oldest(const vt_sm *m, const policy_cta_view *v, int n,
                                     int want_stalled) {
  const policy_cta_view *best = NULL;
  for (int i = 0; i < n; i++) {
    /* a CTA holding SRP chunks stays active (RegMutex keeps them through a stall) */
    int ok = want_stalled ? v[i].stalled && m->ctas[v[i].slot].chunks == 0 : v[i].ready;
    if (ok && (!best || v[i].since < best->since ||
               (v[i].since == best->since && v[i].linear_id < best->linear_id)))
      best = &v[i];
  }
  return best;
}

/* The oldest ready pending CTA whose registers are (in_rf 1) or are not in the register file. */
static const policy_cta_view *oldest_ready(const vt_sm *m, const policy_cta_view *v, int n,
                                           int in_rf) {
  const policy_cta_view *best = NULL;
  for (int i = 0; i < n; i++)
    if (v[i].ready && m->ctas[v[i].slot].in_rf == in_rf &&
        (!best || v[i].since < best->since ||
         (v[i].since == best->since && v[i].linear_id < best->linear_id)))
      best = &v[i];
  return best;
}

/* Lines of one CTA's whole register context: one 128-byte line per warp register. */
static uint32_t context_lines(const vt_state *s) {
  return (uint32_t)(s->need.regs_per_warp / 32 * s->need.warps);
}

static uint64_t slot_addr(int sm, int slot) {
  return VT_DRAM_BASE + ((uint64_t)(sm * RESIDENCY_MAX_CTAS + slot) << VT_DRAM_SLOT_SHIFT);
}

/* The one place that decides a switch and its latency. */
static int vt_plan(vt_state *s, vt_sm *m, int sm, const policy_cta_view *v, int n,
                   policy_switch *out) {
  /* resume first a ready CTA whose registers are in the register file, then one whose context
   * is in memory (which needs register-file space: with none free and no stalled CTA to take
   * it from, it waits until a CTA finishes or stalls) */
  const policy_cta_view *a = oldest(m, v, n, 1), *pd = oldest_ready(m, v, n, 1);
  if (!pd) pd = oldest_ready(m, v, n, 0);
  if (!pd) return 0;
  vt_cta *pc = &m->ctas[pd->slot];
  uint64_t w = (uint64_t)s->need.warps;
  if (active_room(s, m) && (pc->in_rf || m->rf_free >= s->need.regs)) {
    out->in_slot = pd->slot;
    out->in_cycles = w;
    if (!pc->in_rf && pc->ran) {
      out->in_lines = context_lines(s);
      out->in_addr = slot_addr(sm, pd->slot);
    }
    return 1;
  }
  if (!a) return 0;
  out->out_slot = a->slot;
  out->in_slot = pd->slot;
  out->out_cycles = out->in_cycles = 2 * w;
  if (!pc->in_rf && m->rf_free < s->need.regs) { /* the stalled CTA's context leaves the RF */
    out->out_lines = context_lines(s);
    out->out_addr = slot_addr(sm, a->slot);
  }
  if (!pc->in_rf && pc->ran) {
    out->in_lines = context_lines(s);
    out->in_addr = slot_addr(sm, pd->slot);
  }
  return 1;
}

static int vt_switch_decide(policy *p, int sm, const policy_cta_view *v, int n, uint64_t now,
                            policy_switch *out) {
  (void)now;
  vt_state *s = st(p);
  vt_sm *m = &s->sm[sm];
  if (m->said_no) {
#ifdef RFSIM_SELF_CHECK
    policy_switch again = *out;
    if (!m->busy && vt_plan(s, m, sm, v, n, &again)) {
      fprintf(stderr, "rfsim: self-check: SM %d: %s kept a no that no longer holds\n", sm,
              p->ops->name);
      abort();
    }
#endif
    return 0;
  }
  if (m->busy || !vt_plan(s, m, sm, v, n, out)) {
    m->said_no = 1;
    return 0;
  }
  m->busy = 1;
  vt_cta *in = &m->ctas[out->in_slot];
  in->state = PCTA_SWITCH_IN;
  in->ran = 1;
  m->res.pending--;
  m->kern.switches_in++;
  m->kern.lines_in += out->in_lines;
  if (out->out_slot < 0) {
    residency_take_slots(&m->res, &s->need);
    m->kern.switch_cycles += out->in_cycles;
  } else {
    vt_cta *o = &m->ctas[out->out_slot];
    o->state = PCTA_SWITCH_OUT;
    m->res.pending++;
    m->kern.switches_out++;
    m->kern.swaps++;
    m->kern.switch_cycles += out->out_cycles;
    m->kern.lines_out += out->out_lines;
    if (out->out_lines) {
      o->in_rf = 0;
      m->rf_free += s->need.regs;
      m->in_mem++;
    }
  }
  if (!in->in_rf) {
    in->in_rf = 1;
    m->rf_free -= s->need.regs;
    m->in_mem--;
  }
  return 1;
}

static void vt_views_changed(policy *p, int sm) { st(p)->sm[sm].said_no = 0; }

static void vt_switch_done(policy *p, int sm, int cta_slot, policy_cta_state state,
                           uint64_t now) {
  (void)now;
  vt_sm *m = &st(p)->sm[sm];
  m->ctas[cta_slot].state = state;
  m->busy = 0;
  for (int i = 0; i < p->sm_cta_slots; i++)
    if (m->ctas[i].used &&
        (m->ctas[i].state == PCTA_SWITCH_IN || m->ctas[i].state == PCTA_SWITCH_OUT))
      m->busy = 1;
}

/* `cycles` cycles of SM `sm` in which its CTAs and SRP stood. */
static void sample(vt_state *s, vt_sm *m, uint64_t cycles) {
  residency_sample(&m->res, &m->kern.res, cycles);
  if (s->mutex) {
    uint64_t held = (uint64_t)(s->srp_chunks - m->srp_free);
    m->kern.srp_held_sum += cycles * held;
    if (held > m->kern.srp_held_max) m->kern.srp_held_max = held;
  }
}

static void vt_tick(policy *p, int sm, uint64_t now) {
  (void)now;
  sample(st(p), &st(p)->sm[sm], 1);
}

/* (a sleeping SM's cycles: nothing of its CTAs changes while it sleeps) */
static void vt_tick_quiet(policy *p, int sm, uint64_t cycles) {
  sample(st(p), &st(p)->sm[sm], cycles);
}

static void vt_report(const policy *p, int sm, FILE *out) {
  const vt_state *s = st(p);
  const vt_sm *m = &s->sm[sm];
  fprintf(out, "  SM %d %s: register file %d of %d free, %d active CTAs (%d of %d warp slots), "
               "%d pending, switching logic %s",
          sm, p->ops->name, m->rf_free, p->cfg->shader_registers, m->res.active_ctas,
          m->res.active_warps, s->hw_warps, m->res.pending, m->busy ? "switching" : "idle");
  if (s->mutex) fprintf(out, ", SRP %d of %d chunks free", m->srp_free, s->srp_chunks);
  fputc('\n', out);
}

static void vt_stats_out(const policy *p, stats_record *out, int total) {
  const vt_state *s = st(p);
  vt_stats t; /* the kernel's; with `total`, the earlier kernels' too */
  counter_set_sum_sms(&vt_counters, &t, &s->kern, &s->sm[0].kern, sizeof s->sm[0], s->n_sms);
  if (total) counter_set_add(&vt_counters, &t, &s->total);
  const char *pre = p->ops->name;
  char name[64];
#define U(suffix, v) (snprintf(name, sizeof name, "%s_%s", pre, suffix), stats_u64(out, name, v))
#define F(suffix, v) (snprintf(name, sizeof name, "%s_%s", pre, suffix), stats_f64(out, name, v))
  U("switches_out", t.switches_out);
  U("switches_in", t.switches_in);
  U("swaps", t.swaps);
  F("switch_cycles_mean", stats_ratio((double)t.switch_cycles, (double)t.switches_in));
  residency_stats(out, pre, &t.res);
  if (s->dram) {
    U("context_lines_written", t.lines_out);
    U("context_lines_read", t.lines_in);
    U("context_bytes", (t.lines_out + t.lines_in) * VT_LINE);
  }
  if (s->mutex) {
    if (!total) {
      U("brs_regs_per_thread", (uint64_t)s->brs);
      U("chunk_regs_per_thread", (uint64_t)s->ext);
      U("srp_chunks", (uint64_t)s->srp_chunks);
    }
    U("srp_acquires", t.acquires);
    U("srp_releases", t.releases);
    U("srp_stall_checks", t.srp_stalls);
    U("srp_unsafe_refusals", t.srp_unsafe);
    double chunk_cycles = (double)t.res.sm_cycles * (s->srp_chunks ? s->srp_chunks : 1);
    F("srp_occupancy_mean", stats_ratio((double)t.srp_held_sum, chunk_cycles));
    U("srp_chunks_held_max", t.srp_held_max);
  }
#undef U
#undef F
}

#define VT_OPS                            \
  .destroy = vt_destroy,                  \
  .kernel_begin = vt_kernel_begin,        \
  .cta_admit = vt_cta_admit,              \
  .cta_exit = vt_cta_exit,                \
  .tick = vt_tick,                        \
  .tick_quiet = vt_tick_quiet,            \
  .cta_start_state = vt_start_state,      \
  .switch_decide = vt_switch_decide,      \
  .views_changed = vt_views_changed,      \
  .switch_done = vt_switch_done,          \
  .report = vt_report,                    \
  .stats = vt_stats_out

const policy_ops policy_vt = {
    .name = "vt",
    .help = "Virtual Thread: CTAs beyond the scheduling limit, registers bound, CTA swapping",
    .create = vt_create,
    VT_OPS,
};

const policy_ops policy_regdram = {
    .name = "regdram",
    .help = "Reg+DRAM (Zorua-like): Virtual Thread plus register contexts spilled to memory",
    .create = regdram_create,
    VT_OPS,
};

const policy_ops policy_regmutex = {
    .name = "regmutex",
    .help = "VT+RegMutex: base register set per warp plus a shared pool acquired per region",
    .create = regmutex_create,
    .may_issue = mutex_may_issue,
    .issue_gate = mutex_issue_gate,
    .refused_again = mutex_refused_again,
    .warp_exit = mutex_warp_exit,
    VT_OPS,
};
