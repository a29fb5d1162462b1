/* Warp-level address coalescing for global/local accesses and bank-conflict counting for
 * shared memory. Both run once per memory instruction, so they avoid allocation and keep the
 * working set on the stack. */
#include <string.h>

#include "mem_internal.h"

/* Sector bits of the bytes [lo, hi] (inclusive, both inside one line starting at line_addr). */
static uint8_t sectors_of(uint64_t line_addr, uint64_t lo, uint64_t hi) {
  unsigned first = (unsigned)((lo - line_addr) / MEM_SECTOR_BYTES);
  unsigned last = (unsigned)((hi - line_addr) / MEM_SECTOR_BYTES);
  return (uint8_t)(((1u << (last + 1)) - 1u) & ~((1u << first) - 1u));
}

int mem_coalesce(const uint64_t *addrs, uint32_t mask, int width, int line_size,
                 mem_access *out, int max_out) {
  /* The sector mask has 8 bits, so lines above 256 bytes cannot be described. */
  if (line_size < 1 || line_size > 8 * MEM_SECTOR_BYTES || !mem_is_pow2((uint64_t)line_size))
    return -1;
  if (width < 1) width = 1;
  const uint64_t line_mask = ~(uint64_t)(line_size - 1);
  int n = 0, last = -1;
  for (int lane = 0; lane < 32; lane++) {
    if (!(mask >> lane & 1u)) continue;
    uint64_t lo = addrs[lane];
    uint64_t hi = lo + (uint64_t)width - 1;
    if (hi < lo) hi = UINT64_MAX; /* an access at the very top of the space does not wrap */
    for (uint64_t line = lo & line_mask;; line += (uint64_t)line_size) {
      uint64_t seg_lo = line > lo ? line : lo;
      uint64_t line_end = line + (uint64_t)line_size - 1;
      uint64_t seg_hi = line_end < hi ? line_end : hi;
      /* Neighbouring lanes usually hit the line the previous lane touched: try it first. */
      int k = (last >= 0 && out[last].addr == line) ? last : -1;
      for (int i = 0; k < 0 && i < n; i++)
        if (out[i].addr == line) k = i;
      if (k < 0) {
        if (n >= max_out) return -1;
        k = n++;
        memset(&out[k], 0, sizeof out[k]);
        out[k].addr = line;
      }
      out[k].sector_mask |= sectors_of(line, seg_lo, seg_hi);
      last = k;
      if (line_end >= hi) break;
    }
  }
  return n;
}

/* Insertion sort: the inputs are short (at most a few hundred) and usually nearly sorted,
 * since warps mostly access consecutive or strided words. */
static void sort_u64(uint64_t *v, int n) {
  for (int i = 1; i < n; i++) {
    uint64_t x = v[i];
    int j = i - 1;
    while (j >= 0 && v[j] > x) {
      v[j + 1] = v[j];
      j--;
    }
    v[j + 1] = x;
  }
}

/* Words per lane we track: 64-byte accesses (the widest any GPU issues per thread is 16). */
#define MAX_WORDS_PER_LANE 16

int mem_shared_passes(const uint64_t *addrs, uint32_t mask, int width, int banks) {
  if (!mask) return 0;
  if (banks < 1) banks = 1;
  if (width < 1) width = 1;
  uint64_t words[32 * MAX_WORDS_PER_LANE];
  int n = 0;
  for (int lane = 0; lane < 32; lane++) {
    if (!(mask >> lane & 1u)) continue;
    uint64_t first = addrs[lane] / 4, last = (addrs[lane] + (uint64_t)width - 1) / 4;
    if (last < first || last - first >= MAX_WORDS_PER_LANE) last = first + MAX_WORDS_PER_LANE - 1;
    for (uint64_t w = first; w <= last; w++) words[n++] = w;
  }
  /* Distinct words only: lanes reading the same word are served by one broadcast. */
  sort_u64(words, n);
  int u = 0;
  for (int i = 0; i < n; i++)
    if (u == 0 || words[i] != words[u - 1]) words[u++] = words[i];
  /* The pass count is the deepest bank queue: sort the bank numbers and take the longest run. */
  for (int i = 0; i < u; i++) words[i] %= (uint64_t)banks;
  sort_u64(words, u);
  int passes = 1, run = 1;
  for (int i = 1; i < u; i++) {
    run = words[i] == words[i - 1] ? run + 1 : 1;
    if (run > passes) passes = run;
  }
  return passes;
}
