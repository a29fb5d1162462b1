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

/* The set bits of the multi-word mask m in [from, to), in order, each word read once: for a
 * walk over a mask that the walk itself does not change (rf_next_bit reads the word again for
 * every bit, and cannot keep it in a register across the walk's stores).
 *   rf_bit_iter it = rf_bits_from(m, lo, hi);
 *   for (int b; (b = rf_bits_next(&it)) >= 0;) ... */
typedef struct rf_bit_iter {
  const uint64_t *m;
  uint64_t word; /* the bits of the current word not returned yet */
  int base, to;  /* the current word's first bit; the end */
} rf_bit_iter;

static inline rf_bit_iter rf_bits_from(const uint64_t *m, int from, int to) {
  rf_bit_iter it = {m, from < to ? m[from >> 6] & (~0ull << (from & 63)) : 0, from & ~63, to};
  return it;
}

static inline int rf_bits_next(rf_bit_iter *it) {
  while (!it->word) {
    it->base += 64;
    if (it->base >= it->to) return -1;
    it->word = it->m[it->base >> 6];
  }
  int b = it->base + __builtin_ctzll(it->word);
  it->word &= it->word - 1;
  return b < it->to ? b : -1;
}

#endif
