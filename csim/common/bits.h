/* Bit counting for hot paths. __builtin_popcount compiles to a libgcc call (__popcountdi2) on
 * x86-64 unless the build targets a CPU with POPCNT (-mpopcnt), which rfsim does not require;
 * this is the branch-free SWAR count, a dozen instructions inline. */
#ifndef RFSIM_BITS_H
#define RFSIM_BITS_H

#include <stdint.h>

static inline int rf_popcount32(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0Fu;
  return (int)((x * 0x01010101u) >> 24);
}

static inline int rf_popcount64(uint64_t x) {
  return rf_popcount32((uint32_t)x) + rf_popcount32((uint32_t)(x >> 32));
}

/* The first set bit of the multi-word mask m (bit i of word i / 64) at or after `from` and
 * before `to`, or -1. */
static inline int rf_next_bit(const uint64_t *m, int from, int to) {
  while (from < to) {
    uint64_t x = m[from >> 6] & (~0ull << (from & 63));
    if (x) {
      int b = (from & ~63) + __builtin_ctzll(x);
      return b < to ? b : -1;
    }
    from = (from | 63) + 1;
  }
  return -1;
}

#endif
