/* Packing a thread block's lane addresses (trace_addrs.h). */
#include "trace_addrs.h"

#include <stdlib.h>
#include <string.h>

/* The lanes of a[0..n) off the run from base at stride over mask's active lanes, with zeros
 * elsewhere, ORed together: 0 if every lane is on it. Branch-free over the lanes (every memory
 * instruction of every thread block is checked). */
static inline uint64_t off_run(const uint64_t *a, uint32_t mask, int n, uint64_t base,
                               uint64_t stride) {
  uint64_t off = 0, v = base;
  for (int lane = 0; lane < n; lane++) {
    uint64_t active = (uint64_t)0 - (mask >> lane & 1); /* all ones for an active lane */
    off |= a[lane] ^ (v & active);
    v += stride & active;
  }
  return off;
}

/* The stride form's entries as lanes a (mask) would give them: the first active lane's address
 * and the distance to the second (0 without them). */
static void stride_of(const uint64_t *a, uint32_t mask, uint64_t *base, uint64_t *stride) {
  *base = mask ? a[__builtin_ctz(mask)] : 0;
  uint32_t rest = mask & (mask - 1);
  *stride = rest ? a[__builtin_ctz(rest)] - *base : 0;
}

/* The halves form's entries as lanes a (mask, both halves active) would give them. */
static void halves_of(const uint64_t *a, uint32_t mask, uint64_t *lo, uint64_t *hi,
                      uint64_t *stride) {
  uint32_t low = mask & 0xffffu, high = mask >> 16;
  *lo = a[__builtin_ctz(low)];
  *hi = a[16 + __builtin_ctz(high)];
  /* the stride of the low half's first two lanes, else of the high half's (a lane in each
   * half shows no stride: 0 gives them back) */
  uint32_t rest = low & (low - 1), rest_high = high & (high - 1);
  *stride = rest        ? a[__builtin_ctz(rest)] - *lo
            : rest_high ? a[16 + __builtin_ctz(rest_high)] - *hi
                        : 0;
}

int trace_addrs_strided(const uint64_t *a, uint32_t mask, uint64_t *base, uint64_t *stride) {
  stride_of(a, mask, base, stride);
  if (mask == 0xffffffffu) {
    uint64_t off = 0, v = *base;
    for (int lane = 0; lane < TRACE_WARP_SIZE; lane++, v += *stride) off |= a[lane] ^ v;
    return off == 0;
  }
  return off_run(a, mask, TRACE_WARP_SIZE, *base, *stride) == 0;
}

int trace_addrs_halves(const uint64_t *a, uint32_t mask, uint64_t *lo, uint64_t *hi,
                       uint64_t *stride) {
  uint32_t low = mask & 0xffffu, high = mask >> 16;
  if (!low || !high) return 0;
  halves_of(a, mask, lo, hi, stride);
  if (mask == 0xffffffffu) {
    /* all lanes (the common case): most lists fail at once, the rest in one branch-free pass */
    if (a[2] - a[1] != *stride) return 0;
    uint64_t off = 0, l = *lo, h = *hi;
    for (int lane = 0; lane < 16; lane++, l += *stride, h += *stride)
      off |= (a[lane] ^ l) | (a[16 + lane] ^ h);
    return off == 0;
  }
  return (off_run(a, low, 16, *lo, *stride) | off_run(a + 16, high, 16, *hi, *stride)) == 0;
}

/* The entries of `form` (the values its tests found, or stride_of's and halves_of's). */
static void write_entries(trace_addr_form form, const uint64_t *a, uint64_t base,
                          uint64_t stride, uint64_t hi, uint64_t *out) {
  /* (every lane is read before any entry is written: out may overlap a) */
  if (form == TRACE_ADDRS_LANES) {
    memmove(out, a, TRACE_WARP_SIZE * sizeof *a);
    return;
  }
  out[0] = base;
  out[1] = stride;
  if (form == TRACE_ADDRS_HALVES) out[2] = hi;
}

void trace_addrs_pack_as(trace_addr_form form, const uint64_t *a, uint32_t mask,
                         uint64_t *out) {
  uint64_t base = 0, stride = 0, hi = 0;
  if (form == TRACE_ADDRS_STRIDE) stride_of(a, mask, &base, &stride);
  else if (form == TRACE_ADDRS_HALVES) halves_of(a, mask, &base, &hi, &stride);
  write_entries(form, a, base, stride, hi, out);
}

trace_addr_form trace_addrs_pack(const uint64_t *a, uint32_t mask, uint64_t *out) {
  uint64_t base, stride, hi = 0;
  trace_addr_form form = trace_addrs_strided(a, mask, &base, &stride)       ? TRACE_ADDRS_STRIDE
                         : trace_addrs_halves(a, mask, &base, &hi, &stride) ? TRACE_ADDRS_HALVES
                                                                            : TRACE_ADDRS_LANES;
  write_entries(form, a, base, stride, hi, out);
  return form;
}

/* Rewrites the pool front to back, so each instruction's entries land at or before where they
 * were read: the readers lay the instructions' entries out in instruction order, one after
 * the other; a pool laid out otherwise is left as it is. */
static void pack_warp(trace_warp *w) {
  if (!w->addrs) return;
  uint32_t end = 0;
  for (uint32_t i = 0; i < w->n; i++) {
    const trace_inst *in = &w->insts[i];
    if (!in->op->is_mem) continue;
    uint32_t n = trace_addrs_entries(in->addr_form);
    if (in->addr_off < end || in->addr_off + n > w->naddrs) return;
    end = in->addr_off + n;
  }
  uint32_t out = 0;
  for (uint32_t i = 0; i < w->n; i++) {
    trace_inst *in = &w->insts[i];
    if (!in->op->is_mem) continue;
    const uint64_t *a = w->addrs + in->addr_off;
    if (in->addr_form == TRACE_ADDRS_LANES)
      in->addr_form = trace_addrs_pack(a, in->mask, w->addrs + out);
    else
      memmove(w->addrs + out, a, trace_addrs_entries(in->addr_form) * sizeof *a);
    in->addr_off = out;
    out += trace_addrs_entries(in->addr_form);
  }
  trace_warp_fit_pool(w, out);
}

void trace_warp_fit_pool(trace_warp *w, uint32_t used) {
  if (used == w->naddrs || used == 0) return;
  w->naddrs = used;
  /* A new pool rather than realloc: shrunk in place, each pool would leave the rest of its
   * chunk as a hole that the next block's full pools do not fit (on the TITAN V config that
   * kept 29 MB more resident: 111 MB at the peak instead of 82); freed whole, the next
   * block decodes into it. */
  uint64_t *smaller = malloc((size_t)used * sizeof *smaller);
  if (!smaller) return;
  memcpy(smaller, w->addrs, (size_t)used * sizeof *smaller);
  free(w->addrs);
  w->addrs = smaller;
}

void trace_tb_pack_addrs(trace_tb *tb) {
  for (int w = 0; w < tb->nwarps; w++) pack_warp(&tb->warps[w]);
}
