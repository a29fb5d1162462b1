/* Everything needed to write one kernel's trace: its static code, the shape of its grid, the
 * memory regions its accesses use, and the per-warp iteration counts and lane addresses. All of
 * it is a pure function of the spec, so any warp can be generated on its own, in any order. */
#ifndef RFSIM_TG_PLAN_H
#define RFSIM_TG_PLAN_H

#include <stdint.h>

#include "../common/diag.h"
#include "tg_program.h"
#include "tg_spec.h"

#define TG_GLOBAL_BASE 0x00007f3a00000000ull
#define TG_SHMEM_BASE 0x00007f3a5c000000ull /* header only: shared addresses are offsets */
#define TG_LOCAL_BASE 0x00007f3a5a000000ull
#define TG_REGION_ALIGN 0x100000ull         /* regions start on 1 MiB boundaries */

typedef struct tg_plan {
  const tg_kernel_spec *k;
  int index;                 /* 0-based position in the spec; kernel id is index + 1 */
  uint64_t seed;
  tg_program prog;
  int threads, warps;        /* per block */
  long num_tbs;
  uint64_t grid_threads;
  long max_iters;            /* the largest count any warp can run */
  uint64_t base[TG_MAX_ACCESSES][2];  /* region start (tiled: A and B) */
  uint64_t span[TG_MAX_ACCESSES][2];  /* region bytes; offsets wrap at span[.][0] */
} tg_plan;

/* *next_global is where the next global region may start; it advances past this kernel's. A
 * kernel whose regions or warps would not fit (addresses beyond 64 bits, a warp longer than
 * the trace reader accepts) is refused naming the spec `path` and line. */
int tg_plan_init(tg_plan *p, const char *path, const tg_kernel_spec *k, int index,
                 uint64_t *next_global, rf_diag *d);
void tg_plan_free(tg_plan *p);

long tg_plan_warp_iters(const tg_plan *p, long tb, int warp);
long tg_plan_tb_common(const tg_plan *p, long tb);
uint32_t tg_plan_mask(const tg_plan *p, int warp);
/* The lanes of `warp` in block `tb` that execute `in`: the warp's threads less those its
 * access's guard predicates off (0 when the whole warp is past the guard). */
uint32_t tg_plan_inst_mask(const tg_plan *p, const tg_inst *in, long tb, int warp);
/* Lane addresses of memory instruction `in` (inactive lanes get 0). */
void tg_plan_addresses(const tg_plan *p, const tg_inst *in, long tb, int warp, long it,
                       uint32_t mask, uint64_t addrs[32]);

#endif
