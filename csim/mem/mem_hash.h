/* Index hashes shared by the cache set index ('P', 'X') and the L2 slice selection
 * (-gpgpu_memory_partition_indexing), as GPGPU-Sim defines them.
 *
 * IPOLY (Rau, "Pseudo-randomly interleaved memory", ISCA 1991): the index is the address read
 * as a polynomial over GF(2), reduced modulo an irreducible polynomial P of the index's
 * degree. GPGPU-Sim uses P = x^4+x+1 for 16 slots, x^5+x^2+1 for 32 and x^6+x+1 for 64, and
 * folds in only the lowest 13, 15 or 19 bits above the index; this is that function (checked
 * equal to GPGPU-Sim's unrolled equations). */
#ifndef RFSIM_MEM_HASH_H
#define RFSIM_MEM_HASH_H

#include <stdint.h>

/* Whether IPOLY is defined for an index of this many bits (16, 32 or 64 slots). */
static inline int mem_ipoly_defined(int index_bits) {
  return index_bits >= 4 && index_bits <= 6;
}

/* `index` (index_bits wide) hashed with the bits above it. index_bits must be 4, 5 or 6. */
static inline uint32_t mem_ipoly(uint64_t high, uint32_t index, int index_bits) {
  static const uint32_t poly[7] = {0, 0, 0, 0, 0x3, 0x5, 0x3}; /* P - x^n */
  static const int fold[7] = {0, 0, 0, 0, 13, 15, 19};
  uint32_t mask = (1u << index_bits) - 1;
  uint32_t v = poly[index_bits]; /* x^n mod P */
  uint32_t r = index & mask;
  for (int j = 0; j < fold[index_bits]; j++) {
    if (high >> j & 1) r ^= v;
    /* v = v * x mod P */
    uint32_t carry = v >> (index_bits - 1) & 1;
    v = (v << 1) & mask;
    if (carry) v ^= poly[index_bits];
  }
  return r;
}

/* GPGPU-Sim's bitwise XOR index: the index XORed with the bits above it. */
static inline uint32_t mem_xor_index(uint64_t high, uint32_t index, uint32_t n) {
  return (index ^ (uint32_t)high) & (n - 1);
}

static inline uint32_t mem_next_pow2(uint32_t x) {
  uint32_t p = 1;
  while (p < x) p <<= 1;
  return p;
}

/* A 64-bit mixer (SplitMix64's finalizer): every input bit moves every output bit. */
static inline uint64_t mem_mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

#endif
