/* Per-kernel trace statistics for traceinfo (and the tests): counts, opcode mix by op_kind and
 * unit, per-warp instruction counts and each block's warp-level divergence. Fed one thread block
 * at a time from the streaming reader, so memory stays at one int per warp of the kernel. */
#ifndef RFSIM_TG_INFO_H
#define RFSIM_TG_INFO_H

#include <stdint.h>
#include <stdio.h>

#include "../common/diag.h"
#include "../trace/trace.h"

typedef struct tg_tb_div {
  long linear_id;
  int id[3];
  int nwarps;
  uint32_t min, max;
  double mean;
  double rtru;  /* WarpMan's ratio of temporal resource underutilization, by instruction
                   count: sum(max - n_i) / (N * max) */
} tg_tb_div;

typedef struct tg_info {
  long tbs, warps;
  uint64_t warp_insts, thread_insts;
  uint64_t by_kind[OPK_COUNT];
  uint64_t by_unit[UNIT_COUNT];
  uint64_t mem_insts, barriers;
  uint32_t *warp_counts;   /* instructions of every warp, in file order */
  long warp_cap;
  tg_tb_div *tb;           /* one entry per block */
  long tb_cap;
} tg_info;

void tg_info_init(tg_info *s);
void tg_info_free(tg_info *s);
int tg_info_add_tb(tg_info *s, const trace_tb *tb, rf_diag *d);

/* Opens a kernel file and accumulates all its blocks. *info_out receives the header. */
int tg_info_kernel(const char *path, trace_kernel_info *info_out, tg_info *s, rf_diag *d);

/* Ten equal-width bins over (min - 1, max] in the paper's (a,b] notation. */
typedef struct tg_hist {
  int nbins;
  uint64_t lo[10], hi[10];
  long count[10];
} tg_hist;
void tg_info_histogram(const tg_info *s, tg_hist *h);

const char *tg_unit_name(int unit);

#endif
