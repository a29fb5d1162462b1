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

#endif
