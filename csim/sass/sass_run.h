/* Runs one kernel launch on the interpreter: every CTA in order (x fastest, then y, z), each to
 * completion before the next; within a CTA the warps take turns in index order, each running
 * until it reaches a barrier, finishes, or has executed SASS_SLICE instructions. This order is
 * fixed, so a program gives the same trace on every run. Each warp's instructions are written
 * to the trace when its CTA completes. */
#ifndef RFSIM_SASS_RUN_H
#define RFSIM_SASS_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "../common/diag.h"
#include "sass_module.h"

#define SASS_SLICE 64

typedef struct sass_launch {
  uint32_t grid[3], block[3];
  uint32_t dyn_shared;
  const uint8_t *params; /* the kernel's parameter area, laid out as its cubin says */
  uint32_t params_bytes;
  uint64_t budget;       /* warp instructions before the run stops; 0: no limit */
  FILE *trace;           /* where kernel-N.traceg goes, or NULL */
  const char *trace_path;
  int trace_id;          /* the kernel id the trace header gives */
} sass_launch;

typedef struct sass_run_stats {
  uint64_t warp_insts, thread_insts, ctas;
} sass_run_stats;

int sass_run(const sass_module *m, int kernel, const sass_launch *L, sass_devmem *mem,
             sass_run_stats *st, rf_diag *d);

#endif
