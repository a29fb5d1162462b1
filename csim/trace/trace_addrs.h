/* The lane addresses of a memory instruction, in its warp's pool (trace_warp.addrs from
 * addr_off on), in one of three forms (trace_inst.addr_form):
 *   TRACE_ADDRS_LANES   32 entries, one per lane, inactive lanes 0: what every reader gives;
 *   TRACE_ADDRS_STRIDE  2 entries, base and stride: the k-th active lane (of the instruction's
 *                       mask) at base + k * stride, the others 0;
 *   TRACE_ADDRS_HALVES  3 entries, lo, stride and hi: the k-th active lane of lanes 0-15 at
 *                       lo + k * stride, the k-th active lane of lanes 16-31 at hi + k * stride,
 *                       the others 0. A 16-wide tile's rows, as two half-warps read them: each
 *                       half a run along a row, the high half a row further on.
 * The simulator's blocks come packed (the text reader packs as it reads, the cache's decoder as
 * it decodes, trace_tb_pack_addrs any other block): coalesced loads, broadcasts and most
 * shared-memory accesses are a base and a stride, and their 256 bytes per instruction were
 * most of the memory a resident thread block took (the TITAN V
 * config, holding all 240 blocks of the tiled matrixmul at once, peaked at 127 MB; packed, at
 * 82 MB) and many of the cache misses of coalescing. Two half-warp runs are most of the rest in
 * the CUDA traces (15% of the memory instructions sampled from them, docs/speed.md; 65% of
 * the tiled matrix multiply's, which peaked at 438 MB with them as 32 lanes). Packing is exact:
 * a form is chosen only if it gives back every lane, and the shortest that does is chosen. */
#ifndef RFSIM_TRACE_ADDRS_H
#define RFSIM_TRACE_ADDRS_H

#include "trace.h"

typedef enum trace_addr_form {
  TRACE_ADDRS_LANES = 0,
  TRACE_ADDRS_STRIDE,
  TRACE_ADDRS_HALVES
} trace_addr_form;

/* The pool entries an instruction's addresses take in `form`. */
static inline uint32_t trace_addrs_entries(trace_addr_form form) {
  return form == TRACE_ADDRS_STRIDE ? 2 : form == TRACE_ADDRS_HALVES ? 3 : TRACE_WARP_SIZE;
}

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

/* The halves form spread: lanes 0-15 from lo, lanes 16-31 from hi, at one stride. */
static inline void trace_addrs_spread_halves(uint64_t lo, uint64_t hi, uint64_t stride,
                                             uint32_t mask, uint64_t out[TRACE_WARP_SIZE]) {
  if (mask == 0xffffffffu) {
    for (int lane = 0; lane < 16; lane++, lo += stride, hi += stride) {
      out[lane] = lo;
      out[16 + lane] = hi;
    }
    return;
  }
  trace_addrs_spread(lo, stride, mask & 0xffffu, out);
  for (uint32_t m = mask >> 16; m; m &= m - 1, hi += stride) out[16 + __builtin_ctz(m)] = hi;
}

/* Whether lanes a[0..31] of an instruction with active mask `mask` are a base and a stride
 * over the active lanes with zeros elsewhere (the stride form); if so, their base (the first
 * active lane's address, 0 without one) and stride. */
int trace_addrs_strided(const uint64_t *a, uint32_t mask, uint64_t *base, uint64_t *stride);

/* Whether lanes a[0..31] of an instruction with active mask `mask` are in the halves form, with
 * both halves active (otherwise they are one run, or none); if so, their lo, hi and stride. */
int trace_addrs_halves(const uint64_t *a, uint32_t mask, uint64_t *lo, uint64_t *hi,
                       uint64_t *stride);

/* Lanes a[0..31] of an instruction with active mask `mask` in the shortest form that gives them
 * back, written to out (which may start at a or before it): the form (its entries are
 * trace_addrs_entries(form)). */
trace_addr_form trace_addrs_pack(const uint64_t *a, uint32_t mask, uint64_t *out);

/* The entries of `form` for lanes a[0..31] (mask) known to be in it, as trace_addrs_pack writes
 * them, without its tests: for lanes that repeat a pattern it has packed from another base (a
 * form holds or fails alike for every base). */
void trace_addrs_pack_as(trace_addr_form form, const uint64_t *a, uint32_t mask,
                         uint64_t *out);

/* Memory instruction `in` of warp `w`: its 32 lane addresses, either the pool's own entries or
 * `buf` filled from the packed form. */
static inline const uint64_t *trace_inst_addrs(const trace_warp *w, const trace_inst *in,
                                               uint64_t buf[TRACE_WARP_SIZE]) {
  const uint64_t *a = w->addrs + in->addr_off;
  if (in->addr_form == TRACE_ADDRS_LANES) return a;
  if (in->addr_form == TRACE_ADDRS_STRIDE) trace_addrs_spread(a[0], a[1], in->mask, buf);
  else trace_addrs_spread_halves(a[0], a[2], a[1], in->mask, buf);
  return buf;
}

/* Packs the addresses of every warp of tb, shrinking its pools. Never fails: a pool that cannot
 * be reallocated smaller keeps its size. */
void trace_tb_pack_addrs(trace_tb *tb);
/* The first `used` entries of w's pool (used <= naddrs) are all it holds now: the pool is
 * reallocated to that size (left as it is if that fails). */
void trace_warp_fit_pool(trace_warp *w, uint32_t used);

#endif
