/* The GPU: SMs, the memory system, the CTA dispatcher and the cycle loop, with a watchdog that
 * turns a run that stops making progress into a report and an error instead of a hang. */
#ifndef RFSIM_GPU_H
#define RFSIM_GPU_H

#include <stdio.h>

#include "../common/diag.h"
#include "../common/pace.h"
#include "../config/config.h"
#include "../hw/unit.h"
#include "../stats/stats.h"
#include "../trace/trace.h"

typedef struct gpu gpu;

/* Called once per simulated cycle (e.g. the waveform writer); may be NULL. */
typedef struct gpu_observer {
  void (*cycle)(void *ctx, const gpu *g, uint64_t now);
  void *ctx;
} gpu_observer;

/* How the run simulates the policy's hardware units, and where their waveforms go. */
typedef struct gpu_hw {
  hw_mode mode;   /* -hw c|rtl|lockstep */
  hw_wave *wave;  /* -wave FILE.fst, or NULL; units add their signals in gpu_create_hw */
  const struct policy_ops *ops; /* NULL: the policy -rfsim_policy names (tests inject others) */
} gpu_hw;

/* gpu_create: -hw c, no waveform. */
gpu *gpu_create(const gpu_config *c, FILE *report, rf_diag *d);
gpu *gpu_create_hw(const gpu_config *c, const gpu_hw *hw, FILE *report, rf_diag *d);
void gpu_destroy(gpu *g);
/* -threads N: the SMs are stepped on n threads (a cluster's SMs on one), with the memory
 * system, the CTA dispatcher and the policy's units stepped between, so every statistic is
 * the same for any n. Returns the threads used: 1 with a waveform (-wave), at most one per
 * cluster; -1 (with d) for n outside 1..GPU_MAX_THREADS or a thread that did not start. */
#define GPU_MAX_THREADS 256
int gpu_set_threads(gpu *g, int n, rf_diag *d);
/* With n > 1 threads: whether each cycle's SMs are stepped by the team or by the calling
 * thread alone (pace.h; the default, set by gpu_set_threads, measures which is faster), and
 * the share of the cycles so far the team stepped (0 with one thread). */
void gpu_set_pace(gpu *g, pace_mode mode);
/* on: every SM is stepped every cycle, even one that sleeps and would do nothing
 * (sm_dormant_until), for a test that passing over them changes nothing. */
void gpu_step_dormant_sms(gpu *g, int on);
/* Every SM's sm_set_reg_epoch_span (for a test that the re-counting changes nothing). */
void gpu_set_reg_epoch_span(gpu *g, uint32_t cycles);
double gpu_team_share(const gpu *g);
void gpu_set_observer(gpu *g, gpu_observer obs);
/* Called every 1024 simulated cycles (a progress line; not in idle cycles jumped over); may be
 * NULL. Nothing it does changes the simulation. */
typedef struct gpu_ticker {
  void (*tick)(void *ctx, const gpu *g);
  void *ctx;
} gpu_ticker;
void gpu_set_ticker(gpu *g, gpu_ticker t);
/* How far the kernel being simulated is: the fraction of its thread blocks done (finished ones,
 * and each resident one by the share of its instructions issued), 0 between kernels; and the
 * warp instructions issued so far. */
double gpu_kernel_progress(const gpu *g, uint64_t *warp_insts);
/* How kernel traces are read (-trace_cache, -trace_cache_dir, -trace_cache_max_mb); default OFF
 * (text only). `o->dir` must outlive the gpu. */
void gpu_set_trace_cache(gpu *g, const trace_cache_opts *o);
/* Runs one kernel trace file to completion; appends its stats to *out (initialised by the
 * caller). Returns -1 with a message on bad input, deadlock (after writing the watchdog report
 * to `report`) or an internal error. */
int gpu_run_kernel(gpu *g, const char *kernel_path, stats_record *out, rf_diag *d);
/* A MemcpyHtoD command of the trace, in its place between kernels (memsys_memcpy). */
void gpu_memcpy(gpu *g, uint64_t addr, uint64_t bytes);
/* Totals over all kernels run so far. */
void gpu_total_stats(const gpu *g, stats_record *out);
uint64_t gpu_cycle(const gpu *g);
int gpu_num_sms(const gpu *g);
const gpu_config *gpu_get_config(const gpu *g);
const struct sm *gpu_sm(const gpu *g, int i);

#endif
