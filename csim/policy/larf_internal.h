/* The locality-aware register file's state, shared by the policy's two files (private to
 * csim/policy): larf.c (the technique, described there: the load offer, renaming on writes and
 * exits, stats) and larf_units.c (its three units stepped every cycle). */
#ifndef RFSIM_POLICY_LARF_INTERNAL_H
#define RFSIM_POLICY_LARF_INTERNAL_H

#include "../hw/larf/larf_amt.h"
#include "../hw/larf/larf_mc.h"
#include "../hw/larf/larf_wmerge.h"
#include "policy.h"

#define LF_REGS 256        /* architectural register numbers per warp */
#define LF_CTA_WARPS 64    /* warp ids per CTA tracked for warp_exit */
#define LF_RANGES 64       /* pending store invalidations (then merged into one range) */
#define LF_WINDOW_SHIFT 26 /* 24-bit word base: a 64 MB window */
#define LF_REQS 4          /* loads offered and not yet answered (the LD/ST queue holds 2) */

enum { PR_FREE = 0, PR_PENDING, PR_READY, PR_DYING };
enum { P_LOOKUP = 1, P_DECIDE, P_MERGE, P_INSERT, P_ANSWER };
enum { AMT_LOOKUP = 1, AMT_INV_PREG = 3, AMT_INV_RANGE = 4, AMT_CLEAR = 5 };

/* A counter set (counter_set.h): uint64_t fields only. */
typedef struct lf_stats {
  uint64_t global_loads, eligible, elided, perfect, shift, merge, missed, no_free;
  uint64_t inel_pattern, inel_window, inel_width, inel_mask, no_addr;
  uint64_t retries, wait_pending, deferred, partial_in_flight, hook_cycles, elided_latency;
  uint64_t inserts, evictions, occ_max, occ_sum, occ_samples;
  uint64_t unmap_write, unmap_shared, unmap_exit, store_inval;
  uint64_t saved, live_pregs_peak, live_maps_peak, saved_peak;
} lf_stats;

typedef struct lf_req {
  int active, phase;
  uint64_t at, start;
  int slot, dst;
  const trace_inst *in;
  uint64_t base, stride, cnt; /* table fields: word base, stride in words, lanes - 1 */
  uint32_t want[32];          /* the lanes' values */
  uint64_t gen;               /* table generation its lookup saw */
  uint32_t ga, gb;            /* allocation numbers of the registers its lookup named */
  larf_amt_out res;
  int newp, merged, answer, ticket;
  int answered, polled; /* the LD/ST may have the answer before the table insert is done */
} lf_req;

typedef struct lf_range {
  uint64_t lo, hi;
} lf_range;

typedef struct lf_sm {
  hw_unit *amt, *mc, *wm;
  larf_amt_out ao;
  larf_mc_out mo;
  larf_wmerge_out wo;
  int win_set;
  uint64_t win;
  int16_t *map;          /* [slot * LF_REGS + reg]: physical register or -1 */
  int *slot_of;          /* [cta_slot * LF_CTA_WARPS + warp]: warp slot */
  uint8_t *pst;          /* [preg] PR_* */
  uint32_t *pgen;        /* [preg] allocations so far: a lookup's answer names this one */
  uint32_t *pdata;       /* [preg * 32 + lane] */
  int *freel, nfree;
  int *unmapq, uq_head, uq_n, uq_cap; /* preg | 1 << 16 for exits */
  int *invq, iq_n;
  lf_range ranges[LF_RANGES];
  int nranges;
  int clear_pending;
  int inv_urgent;        /* a lookup named a register whose entry waits for deletion */
  uint64_t gen;
  int live_pregs, live_maps;
  lf_req reqs[LF_REQS];
  int fifo[LF_REQS], nfifo; /* request ids in arrival order; the units serve them in order */
  lf_stats kern;         /* what this SM counted in the kernel */
} lf_sm;

typedef struct lf_state {
  lf_sm *sm;
  int slots, cta_slots, npregs;
  lf_stats total;        /* kernels before the current one */
} lf_state;

static inline lf_state *lf_st(const policy *p) { return p->state; }

/* The value a register holds for a lane that loaded `addr` (the model has no data values: a
 * fixed function of the address, so every answer can be checked lane by lane). */
static inline uint32_t lane_value(uint64_t addr) {
  uint64_t x = (addr >> 2) * 0x9E3779B97F4A7C15ULL;
  return (uint32_t)(x >> 32) ^ (uint32_t)addr;
}

/* larf_units.c */
/* Request r leaves the queue (its answer was taken and its table insert is done). */
void lf_release(lf_sm *m, lf_req *r);
/* policy_ops.cycle: the address mapping table, the mapping controller and the w-merge slot. */
int larf_units_cycle(policy *p, int sm, const policy_sm_view *v, uint64_t now, rf_diag *d);

#endif
