/* Fields of packed vectors stored as uint32_t words, least significant word first (the layout of
 * a unit's wide ports, unit.h, and of Verilator's VlWide). The C references and the policies
 * read per-slot fields of packed ports (partner ids, lock holders, counters) with these, so the
 * same code serves a 32-bit port of the paper's configuration and a 192-bit one of a
 * 32-CTA-slot SM. A field is at most 64 bits and may straddle words. */
#ifndef RFSIM_HW_BITFIELD_H
#define RFSIM_HW_BITFIELD_H

#include <stdint.h>

static inline uint64_t hw_ones(unsigned n) {
  return n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
}

/* the n-bit field (n <= 64) starting at bit lo */
static inline uint64_t hw_bits_get(const uint32_t *w, unsigned lo, unsigned n) {
  uint64_t v = 0;
  unsigned got = 0;
  while (got < n) {
    unsigned b = lo + got, off = b % 32, take = 32 - off;
    if (take > n - got) take = n - got;
    v |= (uint64_t)((w[b / 32] >> off) & (uint32_t)hw_ones(take)) << got;
    got += take;
  }
  return v;
}

/* sets the n-bit field at bit lo to v (bits of v above n are dropped) */
static inline void hw_bits_put(uint32_t *w, unsigned lo, unsigned n, uint64_t v) {
  unsigned put = 0;
  while (put < n) {
    unsigned b = lo + put, off = b % 32, take = 32 - off;
    if (take > n - put) take = n - put;
    uint32_t m = (uint32_t)hw_ones(take) << off;
    w[b / 32] = (w[b / 32] & ~m) | ((uint32_t)(v >> put) << off & m);
    put += take;
  }
}

#endif
