/* The interpreter's side of the trace: each executed warp instruction becomes an Accel-Sim
 * line (tracegen's formatter) in its warp's buffer, and a finished CTA is written as one
 * #BEGIN_TB ... #END_TB block, warps in order, as NVBit's post-processing lays them out. */
#ifndef RFSIM_SASS_TRACE_H
#define RFSIM_SASS_TRACE_H

#include <stdio.h>

#include "sass_ctx.h"
#include "sass_module.h"
#include "sass_run.h"

struct sass_sink {
  FILE *f;
  const char *path;
};

int sass_trace_begin(sass_sink *s, FILE *f, const char *path, const sass_module *m,
                     const sass_kernel *k, const sass_launch *L, rf_diag *d);
int sass_trace_inst(sass_sink *s, sass_wtrace *t, const sass_inst *in, uint32_t mask,
                    const uint64_t addrs[32], rf_diag *d);
int sass_trace_cta(sass_sink *s, const sass_cta *c, rf_diag *d);

#endif
