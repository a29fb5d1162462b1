/* tracegen's whole job: a parsed spec in, a complete trace folder out (or nothing). */
#ifndef RFSIM_TG_GEN_H
#define RFSIM_TG_GEN_H

#include <stdint.h>

#include "../common/diag.h"
#include "tg_plan.h"
#include "tg_spec.h"
#include "tg_stream.h"

/* Plans every kernel of a spec (regions laid out one after another). *plans_out holds
 * s->nkernels entries; free with tg_plans_free. */
int tg_plans_init(const tg_spec *s, tg_plan **plans_out, rf_diag *d);
void tg_plans_free(tg_plan *plans, int n);

/* Counts without writing anything: the sums over every warp of a kernel. */
typedef struct tg_counts {
  long tbs, warps;
  uint64_t warp_insts, thread_insts;
  uint64_t min_warp, max_warp;  /* instructions of the shortest and the longest warp */
} tg_counts;
void tg_plan_counts(const tg_plan *p, tg_counts *c);

/* Writes OUTDIR/kernelslist.g and OUTDIR/kernel-N.traceg (TG_STREAM_XZ: kernel-N.traceg.xz,
 * named so in kernelslist.g, as Accel-Sim's tracer writes them with TRACE_FILE_COMPRESS=1). */
int tg_generate(const tg_spec *s, const char *outdir, tg_stream_kind kind, rf_diag *d);

#endif
