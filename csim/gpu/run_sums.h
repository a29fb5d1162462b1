/* What one kernel (or the whole run) adds up to: the SMs' counters, the L1Ds' and the memory
 * side's, and the statistics they give under GPGPU-Sim's names (gpu.c's per-kernel and total
 * records). */
#ifndef RFSIM_GPU_RUN_SUMS_H
#define RFSIM_GPU_RUN_SUMS_H

#include <stdint.h>

#include "../core/sm.h"
#include "../mem/mem.h"
#include "../stats/stats.h"

typedef struct run_sums {
  uint64_t cycles;
  sm_counters sm;
  cache_stats l1;
  memsys_stats mem;
} run_sums;

/* The counters as they stand: the SMs' (reset at each kernel) summed, the L1Ds' summed and the
 * memory system's (both cumulative over the run); cycles 0. */
void run_sums_take(run_sums *r, sm *const *sms, int n_sms, const memsys *m);
/* The memory side's counters of r less those of `before` (a kernel's share of the run's). */
void run_sums_memory_since(run_sums *r, const run_sums *before);
/* r added into total (the maxima of resident CTAs and warps as maxima). */
void run_sums_add(run_sums *total, const run_sums *r);
/* The statistics of r for a GPU of n_sms SMs. */
void run_sums_emit(const run_sums *r, int n_sms, stats_record *out);

#endif
