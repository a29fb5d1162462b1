/* WarpMan: warp-level resource management (Xiang, Yang, Zhou, HPCA 2014;
 * ../shared/papers/warpman_warp_level_divergence.txt sec. 4 and 6.1). -rfsim_policy warpman,
 * -warpman_mode:
 *   off        thread-block-level management, the baseline's decisions (no hardware units);
 *   temp       a finished warp releases its registers and warp slot at once; shared memory and
 *              the CTA slot stay until its TB finishes (sec. 4: shared memory stays TB-granular);
 *   spatial    temp, plus partial TBs: when a whole TB does not fit but the registers of at
 *              least one warp do, the TB is dispatched with its first k warps and the rest wait
 *              in the SM's single-entry workload buffer, issued in warp-id order as registers
 *              and warp slots free (sec. 4.1, 4.2), at most one partial TB per SM;
 *   dueling    SM 0 runs temp+spatial, SM 1 temp; every -warpman_duel_window cycles the one with
 *              the higher IPC over the window decides whether the other SMs use spatial (6.1);
 *   threshold  temp+spatial, but no partial TB is dispatched while -warpman_threshold (paper: 36)
 *              warps are resident on the SM. Warps already waiting in the buffer still issue:
 *              they belong to an admitted TB whose barriers need them.
 *
 * Accounting is the policy's own, per SM: registers (warp granularity, GPGPU-Sim's rounding via
 * policy_cta_needs), warp slots (= threads / warp size), shared memory, CTA slots.
 *
 * The decisions go through the hardware units, in the run's -hw mode: the TB dispatch check
 * wm_check (rtl/warpman/wm_check.v) and the workload buffer wm_wlbuf (rtl/warpman/wm_wlbuf.v),
 * one of each per SM, stepped once per cycle in policy_ops.cycle (after CTA dispatch). The
 * policy waits on their outputs, so their latency is in the simulated cycles in every mode:
 *   cycle c    the dispatcher offers a TB, the SM's check unit is idle: the policy presents
 *              req_i with the SM's free resources; the edge of cycle c samples it;
 *   c+1        a full/none answer (registered, 1 edge) is seen: a full TB is dispatched now,
 *              one cycle later than the baseline's combinational check;
 *   c+6        a partial answer (restoring division free_regs / warp_regs, one quotient bit per
 *              edge, 6 edges for GTX 480) is seen: the partial TB is dispatched and wr_i loads
 *              the buffer on that cycle's edge;
 *   later      each cycle the buffer is valid and a warp's registers and slot are free, the SM
 *              launches warp start_wid (adv_i on that edge): at most one warp per cycle.
 * While the buffer holds a partial TB no new TB is checked (sec. 4.1: the buffer is served
 * first), so a decision never meets fewer free resources than it was computed from.
 *
 * Barriers in a partial TB: the SM counts warps not yet launched as not arrived (sm.c
 * release_barriers compares arrivals with not_exited, which includes unlaunched warps), so the
 * launched warps of a partial TB wait at a barrier until the rest arrive. This cannot deadlock:
 * (1) while the buffer is valid no other TB is dispatched to the SM, so every other resident
 * TB is a full TB that never waits on unlaunched warps and runs to completion, releasing its
 * resources; (2) kernel_begin checks that one whole TB fits an empty SM, so once the others have
 * left, the free resources cover every warp the partial TB still lacks, and the buffer issues
 * them in order (tests/test_warpman.c: test_partial_tb_barrier_completes).
 *
 * Stats: RTRU (sec. 3.2) per TB = sum_i(maxT - T_i) / (N * maxT) over its N warps' lifetimes
 * T_i (launch to slot release), averaged over TBs with the geometric mean as the paper does.
 * A TB whose warps all finish together has RTRU 0, which would make a plain geometric mean 0;
 * we take the shifted geometric mean, exp(mean(ln(1 + RTRU))) - 1, which counts such TBs as "no
 * waste" instead, and also report the arithmetic mean and how many TBs had RTRU 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hw/warpman/wm_check.h"
#include "../hw/warpman/wm_wlbuf.h"
#include "policy.h"
#include "policy_registry.h"

#define WM_MAX_TB_WARPS 32      /* the units' MAX_TB_WARPS: 1024 threads */
#define WM_SERIES_MAX 2048      /* active-warps samples kept; the interval doubles when full */
#define WM_SERIES_INTERVAL 100  /* initial cycles per sample */

enum { DEC_NONE = 0, DEC_FULL, DEC_PARTIAL, DEC_NOFIT };

typedef struct wm_cta {
  int used;
  int held;                          /* warps whose registers and slot are allocated */
  uint64_t start[WM_MAX_TB_WARPS];   /* launch cycle per warp */
  uint64_t life[WM_MAX_TB_WARPS];    /* lifetime per finished warp */
  int nlife;
} wm_cta;

typedef struct wm_stats {
  uint64_t tbs, rtru_zero;
  double rtru_sum, rtru_log1p_sum;
  uint64_t warps, life_sum, life_max;
  uint64_t partial_tbs, buffer_warps, check_requests, stale;
  uint64_t active_sm_cycles, active_warp_sum;
  uint64_t duel_windows, duel_spatial_wins;
} wm_stats;

typedef struct wm_sm {
  int free_regs, free_warps, free_smem, free_ctas;
  int warps;                 /* allocated warps (resident) */
  wm_cta *ctas;
  hw_unit *check, *wlbuf;
  wm_check_in cin;           /* inputs for this cycle's edge */
  wm_check_out cout;         /* outputs after the last edge */
  wm_wlbuf_in bin;
  wm_wlbuf_out bout;
  int inflight;              /* a request is in the check unit */
  int stale;                 /* ...from a previous kernel: drop its answer */
  int decision, dec_warps;   /* the check unit's last answer, until used */
  int spatial;               /* partial TBs allowed on this SM now */
  uint64_t insts;            /* warp instructions so far (for dueling) */
  wm_stats kern;             /* what this SM counted in the kernel (wm_state.kern: the rest) */
} wm_sm;

typedef struct wm_state {
  wm_sm *sm;
  cta_needs need;            /* of the current kernel */
  int slots;                 /* warp slots per SM */
  wm_stats kern, total;
  /* dueling */
  int duel_started;
  uint64_t duel_start, duel_base0, duel_base1;
  int follow_spatial;
  /* active-warps series of the current kernel */
  double *series;
  int nseries;
  uint64_t interval, bucket_cycles, bucket_sum, cycle_sum;
} wm_state;

static wm_state *st(const policy *p) { return p->state; }
static int uses_units(const policy *p) { return p->cfg->warpman_mode != WARPMAN_OFF; }

static void warpman_destroy(policy *p) {
  wm_state *s = st(p);
  if (!s) return;
  for (int i = 0; s->sm && i < p->n_sms; i++) {
    free(s->sm[i].ctas);
    hw_unit_free(s->sm[i].check);
    hw_unit_free(s->sm[i].wlbuf);
  }
  free(s->sm);
  free(s->series);
  free(s);
  p->state = NULL;
}

static int create_units(policy *p, int i, rf_diag *d) {
  const gpu_config *c = p->cfg;
  wm_sm *m = &st(p)->sm[i];
  int64_t cp[HW_MAX_PARAMS], bp[HW_MAX_PARAMS];
  hw_params_default(&wm_check_desc, cp);
  hw_params_default(&wm_wlbuf_desc, bp);
  int cta_slots = c->shader_cta < 2 ? 2 : c->shader_cta;  /* the units need >= 2 */
  if (hw_param_set(&wm_check_desc, cp, "REGS", c->shader_registers, d) < 0 ||
      hw_param_set(&wm_check_desc, cp, "SMEM", c->shmem_size > 0 ? c->shmem_size : 1, d) < 0 ||
      hw_param_set(&wm_check_desc, cp, "WARP_SLOTS", st(p)->slots, d) < 0 ||
      hw_param_set(&wm_check_desc, cp, "CTA_SLOTS", cta_slots, d) < 0 ||
      hw_param_set(&wm_check_desc, cp, "MAX_TB_WARPS", WM_MAX_TB_WARPS, d) < 0 ||
      hw_param_set(&wm_wlbuf_desc, bp, "CTA_SLOTS", cta_slots, d) < 0 ||
      hw_param_set(&wm_wlbuf_desc, bp, "MAX_TB_WARPS", WM_MAX_TB_WARPS, d) < 0)
    return -1;
  char name[64];
  snprintf(name, sizeof name, "sm%d.wm_check", i);
  m->check = wm_check_new(name, p->hw_mode, cp, p->wave, d);
  if (!m->check) return -1;
  snprintf(name, sizeof name, "sm%d.wm_wlbuf", i);
  m->wlbuf = wm_wlbuf_new(name, p->hw_mode, bp, p->wave, d);
  return m->wlbuf ? 0 : -1;
}

static int warpman_create(policy *p, rf_diag *d) {
  const gpu_config *c = p->cfg;
  wm_state *s = rf_calloc(1, sizeof *s, d);
  if (!s) return -1;
  p->state = s;
  s->slots = c->max_threads_per_sm / c->warp_size;
  s->sm = rf_calloc((size_t)p->n_sms, sizeof *s->sm, d);
  s->series = rf_calloc(WM_SERIES_MAX, sizeof *s->series, d);
  if (!s->sm || !s->series) goto fail;
  for (int i = 0; i < p->n_sms; i++) {
    s->sm[i].ctas = rf_calloc((size_t)c->shader_cta, sizeof *s->sm[i].ctas, d);
    if (!s->sm[i].ctas) goto fail;
    if (uses_units(p) && create_units(p, i, d) < 0) goto fail;
  }
  p->reads_sm_view = 1; /* (the resident warps it averages, the instructions it counts) */
  return 0;
fail:
  warpman_destroy(p);
  return -1;
}

static void add_stats(wm_stats *a, const wm_stats *b) {
  a->tbs += b->tbs;
  a->rtru_zero += b->rtru_zero;
  a->rtru_sum += b->rtru_sum;
  a->rtru_log1p_sum += b->rtru_log1p_sum;
  a->warps += b->warps;
  a->life_sum += b->life_sum;
  if (b->life_max > a->life_max) a->life_max = b->life_max;
  a->partial_tbs += b->partial_tbs;
  a->buffer_warps += b->buffer_warps;
  a->check_requests += b->check_requests;
  a->stale += b->stale;
  a->active_sm_cycles += b->active_sm_cycles;
  a->active_warp_sum += b->active_warp_sum;
  a->duel_windows += b->duel_windows;
  a->duel_spatial_wins += b->duel_spatial_wins;
}

/* The kernel's counters: the dispatcher's and units' (wm_state.kern) and every SM's (each SM
 * counts its own, so that SMs stepped on several threads never write the same counter), summed
 * in SM order. */
static wm_stats kernel_stats(const policy *p) {
  const wm_state *s = st(p);
  wm_stats t = s->kern;
  for (int i = 0; i < p->n_sms; i++) add_stats(&t, &s->sm[i].kern);
  return t;
}

static int spatial_at_start(const policy *p, int sm) {
  switch (p->cfg->warpman_mode) {
    case WARPMAN_SPATIAL:
    case WARPMAN_THRESHOLD: return 1;
    case WARPMAN_DUELING: return sm != 1;  /* SM 0 spatial, SM 1 not, the rest start spatial */
    default: return 0;
  }
}

static int warpman_kernel_begin(policy *p, const trace_kernel_info *k, rf_diag *d) {
  const gpu_config *c = p->cfg;
  wm_state *s = st(p);
  const char *why;
  if (policy_max_ctas(c, k, &why) == 0)
    return rf_refuse(d, "kernel %s: one thread block (%d threads, %d registers/thread, %d B shared "
                      "memory) does not fit on an SM (limited by %s)",
                   k->name, k->threads_per_tb, k->nregs, k->shmem, why);
  s->need = policy_cta_needs(c, k);
  if (uses_units(p) && s->need.warps > WM_MAX_TB_WARPS)
    return rf_refuse(d, "kernel %s: -rfsim_policy warpman: a thread block of %d warps exceeds the "
                      "%d warps WarpMan's units (wm_check, wm_wlbuf) hold",
                   k->name, s->need.warps, WM_MAX_TB_WARPS);
  wm_stats done = kernel_stats(p); /* the previous kernel's */
  add_stats(&s->total, &done);
  memset(&s->kern, 0, sizeof s->kern);
  for (int i = 0; i < p->n_sms; i++) memset(&s->sm[i].kern, 0, sizeof s->sm[i].kern);
  s->nseries = 0;
  s->interval = WM_SERIES_INTERVAL;
  s->bucket_cycles = s->bucket_sum = s->cycle_sum = 0;
  s->duel_started = 0;
  s->follow_spatial = 1;
  for (int i = 0; i < p->n_sms; i++) {
    wm_sm *m = &s->sm[i];
    m->free_regs = c->shader_registers;
    m->free_warps = s->slots;
    m->free_smem = c->shmem_size;
    m->free_ctas = c->shader_cta;
    m->warps = 0;
    memset(m->ctas, 0, (size_t)c->shader_cta * sizeof *m->ctas);
    m->stale = m->inflight;
    m->decision = DEC_NONE;
    m->spatial = spatial_at_start(p, i);
    m->insts = 0;
  }
  return 0;
}

/* Allocates n warps (registers and slots) of CTA `slot`, warps first..first+n-1. */
static void alloc_warps(wm_state *s, wm_sm *m, int slot, int first, int n, uint64_t now) {
  wm_cta *t = &m->ctas[slot];
  m->free_regs -= n * s->need.regs_per_warp;
  m->free_warps -= n;
  m->warps += n;
  t->held += n;
  for (int w = first; w < first + n && w < WM_MAX_TB_WARPS; w++) t->start[w] = now;
}

static void alloc_cta(const wm_state *s, wm_sm *m, int slot) {
  wm_cta *t = &m->ctas[slot];
  memset(t, 0, sizeof *t);
  t->used = 1;
  m->free_smem -= s->need.shmem;
  m->free_ctas--;
}

static int fits_warps(const wm_state *s, const wm_sm *m) {
  int by_regs = s->need.regs_per_warp > 0 ? m->free_regs / s->need.regs_per_warp : m->free_warps;
  return by_regs < m->free_warps ? by_regs : m->free_warps;
}

static int fits_cta(const wm_state *s, const wm_sm *m) {
  return m->free_ctas > 0 && m->free_smem >= s->need.shmem;
}

static int warpman_cta_admit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                             const trace_tb *tb, uint64_t now) {
  (void)k;
  wm_state *s = st(p);
  wm_sm *m = &s->sm[sm];
  int nwarps = tb->nwarps;
  if (!uses_units(p)) {
    /* Thread-block level: everything of a whole TB, released when it finishes. */
    if (!fits_cta(s, m) || fits_warps(s, m) < s->need.warps) return 0;
    alloc_cta(s, m, cta_slot);
    alloc_warps(s, m, cta_slot, 0, s->need.warps, now);
    return nwarps;
  }
  if (m->bout.valid_o) return 0; /* the workload buffer is served first */
  int dec = m->decision;
  m->decision = DEC_NONE;
  if (dec == DEC_FULL || dec == DEC_PARTIAL) {
    int fit = fits_warps(s, m);
    int n = dec == DEC_FULL ? s->need.warps : (m->dec_warps < fit ? m->dec_warps : fit);
    if (n > nwarps) n = nwarps;
    if (fits_cta(s, m) && n >= 1 && (dec == DEC_PARTIAL || fit >= s->need.warps)) {
      alloc_cta(s, m, cta_slot);
      if (dec == DEC_FULL) {
        alloc_warps(s, m, cta_slot, 0, s->need.warps, now);
        return nwarps;
      }
      alloc_warps(s, m, cta_slot, 0, n, now);
      if (n < nwarps) {
        m->bin.wr_i = 1;
        m->bin.wr_ptb_i = (uint64_t)cta_slot;
        m->bin.wr_ltb_i = (uint64_t)tb->linear_id;
        m->bin.wr_start_i = (uint64_t)n;
        m->bin.wr_end_i = (uint64_t)(nwarps - 1);
        s->kern.partial_tbs++;
      }
      return n;
    }
    s->kern.stale++; /* cannot happen (see the header); ask again */
  }
  if (!m->inflight) {
    m->cin.req_i = 1;
    m->inflight = 1;
    s->kern.check_requests++;
  }
  return 0;
}

static int warpman_warp_admit(policy *p, int sm, int cta_slot, int warp,
                              const trace_kernel_info *k, uint64_t now) {
  (void)k;
  wm_state *s = st(p);
  wm_sm *m = &s->sm[sm];
  if (!uses_units(p) || !m->bout.valid_o || m->bin.adv_i || m->bin.wr_i) return 0;
  if ((int)m->bout.ptb_o != cta_slot || (int)m->bout.start_wid_o != warp) return 0;
  if (fits_warps(s, m) < 1) return 0;
  alloc_warps(s, m, cta_slot, warp, 1, now);
  m->bin.adv_i = 1;
  m->kern.buffer_warps++;
  return 1;
}

static void warpman_warp_exit(policy *p, int sm, int cta_slot, int warp,
                              const trace_kernel_info *k, uint64_t now) {
  (void)k;
  wm_state *s = st(p);
  wm_sm *m = &s->sm[sm];
  wm_cta *t = &m->ctas[cta_slot];
  if (warp < WM_MAX_TB_WARPS) {
    uint64_t life = now - t->start[warp];
    t->life[t->nlife++] = life;
    m->kern.warps++;
    m->kern.life_sum += life;
    if (life > m->kern.life_max) m->kern.life_max = life;
  }
  if (uses_units(p) && t->held > 0) { /* temp: the warp's registers and slot free at once */
    t->held--;
    m->free_regs += s->need.regs_per_warp;
    m->free_warps++;
    m->warps--;
  }
}

static void warpman_cta_exit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                             uint64_t now) {
  (void)k;
  (void)now;
  wm_state *s = st(p);
  wm_sm *m = &s->sm[sm];
  wm_cta *t = &m->ctas[cta_slot];
  uint64_t max = 0;
  for (int i = 0; i < t->nlife; i++)
    if (t->life[i] > max) max = t->life[i];
  double waste = 0;
  for (int i = 0; i < t->nlife; i++) waste += (double)(max - t->life[i]);
  double rtru = max > 0 && t->nlife > 0 ? waste / ((double)t->nlife * (double)max) : 0.0;
  m->kern.tbs++;
  m->kern.rtru_sum += rtru;
  m->kern.rtru_log1p_sum += log1p(rtru);
  if (rtru == 0.0) m->kern.rtru_zero++;
  m->free_regs += t->held * s->need.regs_per_warp;
  m->free_warps += t->held;
  m->warps -= t->held;
  m->free_smem += s->need.shmem;
  m->free_ctas++;
  memset(t, 0, sizeof *t);
}

/* One cycle's resident warps of all SMs (cycle_sum) into the series. */
static void sample_active(policy *p) {
  wm_state *s = st(p);
  s->bucket_sum += s->cycle_sum;
  s->cycle_sum = 0;
  if (++s->bucket_cycles < s->interval) return;
  if (s->nseries == WM_SERIES_MAX) { /* halve the resolution */
    for (int i = 0; i < WM_SERIES_MAX / 2; i++)
      s->series[i] = (s->series[2 * i] + s->series[2 * i + 1]) / 2;
    s->nseries = WM_SERIES_MAX / 2;
    s->interval *= 2;
    if (s->bucket_cycles < s->interval) return;
  }
  s->series[s->nseries++] = (double)s->bucket_sum / ((double)s->bucket_cycles * p->n_sms);
  s->bucket_sum = s->bucket_cycles = 0;
}

/* Dueling (sec. 6.1): after each window, the followers take the better SM's setting. */
static void duel(policy *p, uint64_t now) {
  wm_state *s = st(p);
  if (p->n_sms < 2) return;
  if (!s->duel_started) {
    s->duel_started = 1;
    s->duel_start = now;
    s->duel_base0 = s->sm[0].insts;
    s->duel_base1 = s->sm[1].insts;
    return;
  }
  if (now - s->duel_start < (uint64_t)p->cfg->warpman_duel_window) return;
  uint64_t a = s->sm[0].insts - s->duel_base0, b = s->sm[1].insts - s->duel_base1;
  if (a != 0 || b != 0) {
    s->follow_spatial = a >= b;
    s->kern.duel_windows++;
    s->kern.duel_spatial_wins += (uint64_t)s->follow_spatial;
    for (int i = 2; i < p->n_sms; i++) s->sm[i].spatial = s->follow_spatial;
  }
  s->duel_start = now;
  s->duel_base0 = s->sm[0].insts;
  s->duel_base1 = s->sm[1].insts;
}

static int step_units(policy *p, int sm, uint64_t now, rf_diag *d) {
  wm_state *s = st(p);
  wm_sm *m = &s->sm[sm];
  /* Cycle 0 is the units' reset edge (hw_unit_new): their inputs wait for cycle 1. */
  if (now == 0) return 0;
  wm_check_in *ci = &m->cin;
  ci->partial_en_i = (uint64_t)(m->spatial && (p->cfg->warpman_mode != WARPMAN_THRESHOLD ||
                                               m->warps < p->cfg->warpman_threshold));
  ci->wlb_valid_i = m->bout.valid_o;
  ci->free_regs_i = (uint64_t)m->free_regs;
  ci->free_smem_i = (uint64_t)m->free_smem;
  ci->free_warps_i = (uint64_t)m->free_warps;
  ci->free_ctas_i = (uint64_t)m->free_ctas;
  ci->tb_regs_i = (uint64_t)s->need.regs;
  ci->tb_smem_i = (uint64_t)s->need.shmem;
  ci->tb_warps_i = (uint64_t)s->need.warps;
  ci->warp_regs_i = (uint64_t)s->need.regs_per_warp;
  /* An idle unit with no request does not change state or outputs, so its edge is skipped
   * unless it is being recorded. */
  int traced = wave_in_window(p->wave, now);
  if (ci->req_i || m->cout.busy_o || m->cout.done_o || traced) {
    if (wm_check_step(m->check, now, ci, &m->cout, d) < 0) return -1;
    if (m->cout.done_o) {
      m->inflight = 0;
      if (m->stale) {
        m->stale = 0;
      } else {
        m->decision = m->cout.full_o ? DEC_FULL : m->cout.partial_o ? DEC_PARTIAL : DEC_NOFIT;
        m->dec_warps = (int)m->cout.warps_o;
      }
    }
    ci->req_i = 0;
  }
  wm_wlbuf_in *bi = &m->bin;
  if (bi->wr_i || bi->adv_i || bi->clr_i || traced) {
    if (wm_wlbuf_step(m->wlbuf, now, bi, &m->bout, d) < 0) return -1;
    bi->wr_i = bi->adv_i = bi->clr_i = 0;
  }
  return 0;
}

static int warpman_cycle(policy *p, int sm, const policy_sm_view *v, uint64_t now, rf_diag *d) {
  wm_state *s = st(p);
  wm_sm *m = &s->sm[sm];
  m->insts = v->warp_insts;
  s->cycle_sum += (uint64_t)v->resident_warps;
  if (v->resident_ctas > 0) {
    s->kern.active_sm_cycles++;
    s->kern.active_warp_sum += (uint64_t)v->resident_warps;
  }
  if (uses_units(p) && step_units(p, sm, now, d) < 0) return -1;
  if (sm == p->n_sms - 1) {
    if (p->cfg->warpman_mode == WARPMAN_DUELING) duel(p, now);
    sample_active(p);
  }
  return 0;
}

static const char *mode_name(warpman_mode m) {
  static const char *const names[] = {"off", "temp", "spatial", "dueling", "threshold"};
  return (unsigned)m < sizeof names / sizeof names[0] ? names[m] : "?";
}

static void warpman_stats(const policy *p, stats_record *out, int total) {
  const wm_state *s = st(p);
  wm_stats kern = kernel_stats(p);
  wm_stats all = s->total; /* kernels before the current one, plus the current one */
  add_stats(&all, &kern);
  const wm_stats *w = total ? &all : &kern;
  stats_str(out, "warpman_mode", mode_name(p->cfg->warpman_mode));
  stats_str(out, "warpman_hw", hw_mode_name(p->hw_mode));
  stats_u64(out, "warpman_tbs", w->tbs);
  stats_f64(out, "warpman_rtru_geomean", w->tbs ? expm1(w->rtru_log1p_sum / (double)w->tbs) : 0);
  stats_f64(out, "warpman_rtru_mean", stats_ratio(w->rtru_sum, (double)w->tbs));
  stats_u64(out, "warpman_rtru_zero_tbs", w->rtru_zero);
  stats_f64(out, "warpman_warp_lifetime_mean", stats_ratio((double)w->life_sum, (double)w->warps));
  stats_u64(out, "warpman_warp_lifetime_max", w->life_max);
  stats_u64(out, "warpman_partial_tbs", w->partial_tbs);
  stats_u64(out, "warpman_buffer_warps", w->buffer_warps);
  stats_u64(out, "warpman_check_requests", w->check_requests);
  stats_u64(out, "warpman_check_stale", w->stale);
  stats_f64(out, "warpman_active_warps_mean",
            stats_ratio((double)w->active_warp_sum, (double)w->active_sm_cycles));
  stats_u64(out, "warpman_duel_windows", w->duel_windows);
  stats_u64(out, "warpman_duel_spatial_wins", w->duel_spatial_wins);
  if (!total) {
    stats_u64(out, "warpman_active_warps_interval", s->interval);
    stats_series(out, "warpman_active_warps_series", s->series, s->nseries);
  }
}

const policy_ops policy_warpman = {
    .name = "warpman",
    .help = "WarpMan warp-level resource management (-warpman_mode off|temp|spatial|dueling|"
            "threshold)",
    .create = warpman_create,
    .destroy = warpman_destroy,
    .kernel_begin = warpman_kernel_begin,
    .cta_admit = warpman_cta_admit,
    .warp_admit = warpman_warp_admit,
    .warp_exit = warpman_warp_exit,
    .cta_exit = warpman_cta_exit,
    .cycle = warpman_cycle,
    .stats = warpman_stats,
};
