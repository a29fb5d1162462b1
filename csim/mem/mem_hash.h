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

/* `index` (index_bits wide) hashed with the bits above it. index_bits must be 4, 5 or 6. The
 * reduction is linear: bit j of `high` (x^(n+j)) adds x^(n+j) mod P to the index, so each of
 * the folded bits that is set XORs in its row of the table below (x^n mod P, times x each row:
 * what multiplying by x modulo P gives; tests/test_memnet.c derives it that way). */
static inline uint32_t mem_ipoly(uint64_t high, uint32_t index, int index_bits) {
  static const uint8_t rows[7][19] = {
      [4] = {0x03, 0x06, 0x0c, 0x0b, 0x05, 0x0a, 0x07, 0x0e, 0x0f, 0x0d, 0x09, 0x01, 0x02},
      [5] = {0x05, 0x0a, 0x14, 0x0d, 0x1a, 0x11, 0x07, 0x0e, 0x1c, 0x1d, 0x1f, 0x1b, 0x13, 0x03,
             0x06},
      [6] = {0x03, 0x06, 0x0c, 0x18, 0x30, 0x23, 0x05, 0x0a, 0x14, 0x28, 0x13, 0x26, 0x0f, 0x1e,
             0x3c, 0x3b, 0x35, 0x29, 0x11}};
  static const int fold[7] = {0, 0, 0, 0, 13, 15, 19};
  uint32_t r = index & ((1u << index_bits) - 1);
  for (uint64_t m = high & ((1ull << fold[index_bits]) - 1); m; m &= m - 1)
    r ^= rows[index_bits][__builtin_ctzll(m)];
  return r;
}

/* mem_ipoly in three lookups, for the caches and slices that hash every access: since the
 * reduction is linear, the folded bits' contribution is the XOR of each byte's, and a byte's
 * is mem_ipoly of that byte alone (bits past the fold give 0, as in mem_ipoly). */
typedef struct mem_ipoly_table {
  uint8_t byte[3][256]; /* byte k of the bits above the index (the fold is at most 19 bits) */
  uint32_t index_mask;
} mem_ipoly_table;

/* The table for an index of index_bits (4, 5 or 6: mem_ipoly_defined), built on first use and
 * shared by every cache and slice map (mem_hash.c; any thread may ask). */
const mem_ipoly_table *mem_ipoly_table_of(int index_bits);

static inline uint32_t mem_ipoly_lookup(const mem_ipoly_table *t, uint64_t high, uint32_t index) {
  return (index & t->index_mask) ^ t->byte[0][high & 0xff] ^ t->byte[1][(high >> 8) & 0xff] ^
         t->byte[2][(high >> 16) & 0xff];
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
