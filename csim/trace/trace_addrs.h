/* The lane addresses of a memory instruction, in its warp's pool (trace_warp.addrs from
 * addr_off on), in one of two forms (trace_inst.addr_form):
 *   TRACE_ADDRS_LANES   32 entries, one per lane, inactive lanes 0: what every reader gives;
 *   TRACE_ADDRS_STRIDE  2 entries, base and stride: the k-th active lane (of the instruction's
 *                       mask) at base + k * stride, the others 0.
 * The simulator packs each thread block before it runs it (trace_tb_pack_addrs): coalesced
 * loads, broadcasts and most shared-memory accesses are a base and a stride, and their 256
 * bytes per instruction were most of the memory a resident thread block took (the TITAN V
 * config, holding all 240 blocks of the tiled matrixmul at once, peaked at 127 MB; packed, at
 * 82 MB) and many of the cache misses of coalescing. Packing is exact: a form is chosen only
 * if it gives back every lane. */
#ifndef RFSIM_TRACE_ADDRS_H
#define RFSIM_TRACE_ADDRS_H

#include "trace.h"

typedef enum trace_addr_form { TRACE_ADDRS_LANES = 0, TRACE_ADDRS_STRIDE } trace_addr_form;

/* The packed form spread: the k-th active lane of mask at base + k * stride, the others 0. */
static inline void trace_addrs_spread(uint64_t base, uint64_t stride, uint32_t mask,
                                      uint64_t out[TRACE_WARP_SIZE]) {
  if (mask == 0xffffffffu) {
    for (int lane = 0; lane < TRACE_WARP_SIZE; lane++, base += stride) out[lane] = base;
    return;
  }
  for (int lane = 0; lane < TRACE_WARP_SIZE; lane++) out[lane] = 0;
  for (uint32_t m = mask; m; m &= m - 1, base += stride) out[__builtin_ctz(m)] = base;
}

/* Memory instruction `in` of warp `w`: its 32 lane addresses, either the pool's own entries or
 * `buf` filled from the packed form. */
static inline const uint64_t *trace_inst_addrs(const trace_warp *w, const trace_inst *in,
                                               uint64_t buf[TRACE_WARP_SIZE]) {
  const uint64_t *a = w->addrs + in->addr_off;
  if (in->addr_form == TRACE_ADDRS_LANES) return a;
  trace_addrs_spread(a[0], a[1], in->mask, buf);
  return buf;
}

/* Packs the addresses of every warp of tb, shrinking its pools. Never fails: a pool that cannot
 * be reallocated smaller keeps its size. */
void trace_tb_pack_addrs(trace_tb *tb);
/* The first `used` entries of w's pool (used <= naddrs) are all it holds now: the pool is
 * reallocated to that size (left as it is if that fails). */
void trace_warp_fit_pool(trace_warp *w, uint32_t used);

#endif
