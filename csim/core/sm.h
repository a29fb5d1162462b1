/* One streaming multiprocessor: warp slots, schedulers, a register scoreboard, functional-unit
 * pipelines, barriers, and the LD/ST unit in front of its L1D. Resource decisions (which CTA and
 * warp may start, which warp may issue) are the policy's. */
#ifndef RFSIM_SM_H
#define RFSIM_SM_H

#include <stdint.h>
#include <stdio.h>

#include "../common/diag.h"
#include "../config/config.h"
#include "../mem/mem.h"
#include "../policy/policy.h"
#include "../trace/trace.h"
#include "regfile.h"

/* Why a warp did not issue: also the stall-reason code in waveforms and watchdog reports. */
typedef enum warp_wait {
  WAIT_NONE = 0,    /* could issue */
  WAIT_EMPTY,       /* slot unused */
  WAIT_SCOREBOARD,  /* an operand's producer has not written back */
  WAIT_MEMORY,      /* an operand waits on an outstanding load */
  WAIT_PIPELINE,    /* the functional unit or LD/ST queue is busy */
  WAIT_BARRIER,     /* at a CTA barrier */
  WAIT_MEMBAR,      /* MEMBAR waiting for the warp's memory instructions to drain */
  WAIT_POLICY,      /* the resource policy said not yet */
  WAIT_EXITED,      /* executed EXIT, loads still outstanding */
  WAIT_NOT_LAUNCHED,/* belongs to a partially launched CTA, not yet admitted */
  WAIT_FETCH,       /* its next instruction is not yet fetched (L1I miss or fetch slot) */
  WAIT_COUNT
} warp_wait;

const char *warp_wait_name(warp_wait w);

typedef struct sm_counters {
  uint64_t warp_insts, thread_insts, mem_insts;
  /* Per scheduler-cycle without an issue, GPGPU-Sim's classification. */
  uint64_t stall_idle;        /* no warp had an instruction it could try (W0_Idle) */
  uint64_t stall_scoreboard;  /* warps waited on operands (W0_Scoreboard) */
  uint64_t stall_pipeline;    /* ready warps found their unit busy */
  uint64_t stall_barrier;     /* all candidates at barriers or MEMBAR */
  uint64_t stall_policy;      /* the policy held every ready warp */
  uint64_t active_cycles;     /* cycles with at least one resident CTA */
  uint64_t resident_cta_sum, resident_warp_sum; /* summed every cycle, for means */
  int max_resident_ctas, max_resident_warps;
  uint64_t shmem_accesses, shmem_passes;
  uint64_t l1_stall_cycles;   /* LD/ST unit retried an access the L1 could not take */
  uint64_t ctas_completed, warps_completed;
  rf_counters rf;             /* register-file banks and operand collectors */
} sm_counters;

typedef struct sm sm;

sm *sm_create(int id, const gpu_config *c, policy *p, rf_diag *d);
void sm_destroy(sm *s);
/* Per-kernel reset of counters (the caller accumulates them). */
void sm_reset_counters(sm *s);
const sm_counters *sm_get_counters(const sm *s);
/* on: the cycles the SM sleeps through are counted when it wakes (or at sm_settle), not each
 * cycle; for a run in which nothing reads its counters between cycles. */
void sm_count_sleep_later(sm *s, int on);
/* The cycle before which sm_cycle does nothing at all unless the memory system has a reply for
 * the SM (memsys_reply_waiting): it sleeps, and its quiet cycles need no counting one by one;
 * 0 if its next cycle may do something. Holds until its next sm_cycle, a launch, an L1D
 * resize or sm_count_sleep_later. */
uint64_t sm_dormant_until(const sm *s);
/* Counts the cycles before `now` it has slept through and not counted yet. */
void sm_settle(sm *s, uint64_t now);

int sm_free_cta_slot(const sm *s); /* -1 if all slots are taken */
/* Starts a CTA in `slot`, taking ownership of tb; launches warps [0, nwarps_now). */
int sm_launch_cta(sm *s, int slot, trace_tb *tb, const trace_kernel_info *k, int nwarps_now,
                  uint64_t now, rf_diag *d);
/* One core cycle. Returns 1 if anything made progress (issue, completion, memory traffic),
 * 0 if not, -1 on an internal error (out of memory). */
int sm_cycle(sm *s, memsys *m, uint64_t now, rf_diag *d);
/* Starts loading the state sm_cycle reads first into the host's cache; for the caller to issue
 * one SM ahead of its cycle. */
void sm_prefetch(const sm *s);
int sm_resident_ctas(const sm *s);
int sm_resident_warps(const sm *s); /* launched and not finished */
int sm_busy(const sm *s);
/* Whether its cycles change nothing until a thread block is launched on it: no CTA, nothing in
 * its LD/ST unit or caches, their ports free, no slept cycles left to count. */
int sm_idle(const sm *s);
/* The resident CTAs' progress: the sum over them of the share of each one's instructions
 * issued (for a progress line; it walks every resident warp). */
double sm_cta_progress(const sm *s);
/* The warp issued this cycle (-1 if none) and the first scheduler's stall reason, for waves. */
int sm_last_issued_warp(const sm *s);
warp_wait sm_last_stall(const sm *s);
/* Cycles the SM slept through (csim/core/quiet.c): counted like any other, not stepped. */
uint64_t sm_slept_cycles(const sm *s);
/* Cycles whose issue stage took every scheduler's kept stall (issue.c), for tests. */
uint64_t sm_stage_kept_cycles(const sm *s);
/* How often the SM re-counts its registers' ready times (sm_internal.h, reg_time): every 4,096
 * cycles, or as set here (1 to 4,096); a test sets 1 (every cycle) and expects the same run. */
void sm_set_reg_epoch_span(sm *s, uint32_t cycles);
/* Writes every resident warp's state (for the watchdog). */
void sm_report_warps(const sm *s, FILE *out);
const l1d *sm_get_l1d(const sm *s);
/* -gpgpu_adaptive_cache_config: gives the SM's L1D `assoc` ways (the SM must be idle). */
int sm_resize_l1d(sm *s, int assoc, rf_diag *d);
const l1d *sm_get_l1i(const sm *s); /* NULL with a perfect instruction cache */

#endif
