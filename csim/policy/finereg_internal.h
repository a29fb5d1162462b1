/* FineReg's state, shared by the policy's two files (private to csim/policy): finereg.c (CTA
 * admission and exit, the units' cycle, stats; the technique is described there) and
 * finereg_switch.c (the switch decision: which CTAs, whether their registers fit, how long). */
#ifndef RFSIM_POLICY_FINEREG_INTERNAL_H
#define RFSIM_POLICY_FINEREG_INTERNAL_H

#include "cta_residency.h"
#include "finereg_rmu.h"
#include "liveness.h"
#include "policy.h"

#define FR_ENTRY_BYTES 128   /* one warp register: 32 threads x 4 bytes */
#define FR_PCRF_FIRST 4      /* cycles to the first PCRF tag + register (sec. V-E) */
#define FR_REG_BITS 6        /* register index field of a PCRF tag */
#define FR_WARP_BITS 5
_Static_assert(RESIDENCY_MAX_CTAS == FR_RMU_CTAS, "the policy's CTAs are fr_status's entries");

typedef struct fr_cta {
  int used;
  policy_cta_state state; /* context: in the pipeline (active) or shared memory (pending) */
  int in_pcrf;        /* registers: live ones in the PCRF (else the whole set in the ACRF) */
  int entries;        /* PCRF entries it holds */
  int release;        /* switching out alone: free its slots (and ACRF) when done */
} fr_cta;

/* A counter set (counter_set.h): uint64_t fields only. */
typedef struct fr_stats {
  uint64_t switches_out, switches_in, reg_moves, reg_restores, rmu_ops;
  uint64_t moved_entries, full_entries; /* live registers moved out vs. the full contexts */
  uint64_t restored_entries;
  uint64_t switch_cycles;               /* latency summed over switches */
  uint64_t lvc_hits, lvc_misses, unknown_pcs;
  uint64_t pcrf_full_stalls;            /* SM cycles a stalled CTA could not move for PCRF room */
  residency_tally res;
  uint64_t pcrf_used_sum, pcrf_used_max;
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
  cta_residency res;  /* resident, active and pending CTAs */
  int busy;           /* a switch is in flight */
  uint64_t rmu_until; /* the units are busy until then: a pending CTA's registers moving to
                        * the PCRF, or a switch they refused (no fit) */
  int want_in;        /* a ready pending CTA waits for the RMU: no new CTA meanwhile */
  fr_rmu *rmu;        /* the five units */
  /* What fr_switch_decide derives from the views and the CTAs' register places: fr_status's
   * input vectors and the choice the bookkeeping implies; kept while sel_kept (cleared when
   * the views change, policy_ops.views_changed, or a decision or switch moves registers) */
  uint8_t sel_kept;
  uint32_t stall[FR_RMU_CTA_WORDS], ready[FR_RMU_CTA_WORDS];
  fr_rmu_sel expect;
  /* A no that stands (no_kept): the last decision said no without running the units or
   * writing fr_status, for a reason (no_why, fr_no) that only a change of the views, of this
   * SM's CTAs or registers, or of whether CTAs remain to admit (no_remaining) can undo; until
   * one does, the same no is given again without the searches (and counted alike) */
  uint8_t no_kept, no_why, no_remaining;
  fr_cta *ctas;
  fr_stats kern;      /* what this SM counted in the kernel (fr_state.kern: the dispatcher) */
} fr_sm;

typedef struct fr_state {
  fr_sm *sm;
  int n_sms;
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

static inline fr_state *fr_st(const policy *p) { return p->state; }

/* Why fr_plan said no, where the answer follows from the state alone (fr_sm.no_why). */
typedef enum fr_no { FR_NO_OTHER, FR_NO_ROOM_WANTED, FR_NO_CTA_TO_MOVE, FR_NO_PCRF_ROOM } fr_no;

/* This SM's CTAs, registers or views changed: what the decision derived from them, and its no,
 * no longer stand. */
static inline void fr_forget(fr_sm *m) {
  m->sel_kept = 0;
  m->no_kept = 0;
}

/* Room in the hardware's scheduling slots (CTA and warp slots) for one more active CTA. */
static inline int fr_slot_room(const fr_state *s, const fr_sm *m) {
  return residency_active_room(&m->res, &s->need, s->hw_ctas, s->hw_warps);
}

/* finereg_switch.c: policy_ops.switch_decide and .switch_done. */
int fr_switch_decide(policy *p, int sm, const policy_cta_view *v, int n, uint64_t now,
                     policy_switch *out);
void fr_switch_done(policy *p, int sm, int cta_slot, policy_cta_state state, uint64_t now);
void fr_views_changed(policy *p, int sm);
int fr_switch_quiet(const policy *p, int sm, uint64_t from);
void fr_switch_idle(policy *p, int sm, uint64_t cycles);

#endif
