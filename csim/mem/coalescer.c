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

/* Words per lane we track: 64-byte accesses (the widest any GPU issues per thread is 16). */
#define MAX_WORDS_PER_LANE 16
#define WORD_SET_SLOTS 1024 /* power of two, above 32 lanes x MAX_WORDS_PER_LANE */
#define MAX_BANKS 1024      /* config.c bounds -gpgpu_shmem_num_banks to this */

/* Linear in the number of words: this runs for every shared-memory instruction. Each distinct
 * word (lanes reading the same word share one broadcast) adds one pass to its bank's queue;
 * the deepest queue is the number of passes. */
int mem_shared_passes(const uint64_t *addrs, uint32_t mask, int width, int banks) {
  if (!mask) return 0;
  if (banks < 1) banks = 1;
  if (banks > MAX_BANKS) banks = MAX_BANKS;
  if (width < 1) width = 1;
  /* Regular accesses (the k-th active lane at base + k * stride) that cover a contiguous range
   * of K words, each word once: every lane the same address (a broadcast, K = the words of one
   * lane) or word-aligned lanes packed back to back (stride = width). A bank holds at most
   * ceil(K / banks) words of a contiguous range, and the first bank that many. */
  if (width <= 16) {
    uint32_t m = mask;
    uint64_t base = addrs[__builtin_ctz(m)], stride = 0;
    m &= m - 1;
    if (m) stride = addrs[__builtin_ctz(m)] - base;
    int regular = base < (UINT64_MAX >> 1) && (stride == 0 || stride == (uint64_t)width), k = 1;
    if (regular && mask == 0xffffffffu) {
      /* all lanes (the common case): one branch-free pass the compiler vectorizes */
      uint64_t diff = 0, a = base;
      for (int lane = 0; lane < 32; lane++, a += stride) diff |= addrs[lane] ^ a;
      regular = diff == 0;
      k = 32;
      m = 0;
    }
    for (uint64_t a = base + stride; regular && m; m &= m - 1, a += stride, k++)
      regular = addrs[__builtin_ctz(m)] == a;
    if (regular && (stride == 0 || (base % 4 == 0 && width % 4 == 0))) {
      uint64_t words = stride == 0 ? (base + (uint64_t)width - 1) / 4 - base / 4 + 1
                                   : (uint64_t)k * (uint64_t)width / 4;
      return (int)((words + (uint64_t)banks - 1) / (uint64_t)banks);
    }
  }
  /* Fast paths for the two commonest shapes: a broadcast (every lane one word) and unit-stride
   * words (consecutive words land in distinct banks). */
  if (width <= 4) {
    int first = __builtin_ctz(mask), unit_stride = 1, same = 1, k = 0;
    uint64_t base = addrs[first];
    for (int lane = first; lane < 32; lane++) {
      if (!(mask >> lane & 1u)) continue;
      uint64_t a = addrs[lane];
      same &= a / 4 == base / 4;
      unit_stride &= a == base + 4u * (uint64_t)k && a % 4 == 0 && base % 4 == 0;
      k++;
    }
    if (same || (unit_stride && k <= banks)) return 1;
  }
  /* Size the word set and clear only what this access can touch: this is a hot path. */
  int words_per_lane = (width + 3) / 4 + 1;
  if (words_per_lane > MAX_WORDS_PER_LANE) words_per_lane = MAX_WORDS_PER_LANE;
  uint32_t slots = 64;
  while (slots < 2u * (uint32_t)__builtin_popcount(mask) * (uint32_t)words_per_lane) slots *= 2;
  if (slots > WORD_SET_SLOTS) slots = WORD_SET_SLOTS;
  uint64_t slot_word[WORD_SET_SLOTS];
  uint8_t slot_used[WORD_SET_SLOTS];
  uint16_t depth[MAX_BANKS];
  memset(slot_used, 0, slots);
  memset(depth, 0, (size_t)banks * sizeof depth[0]);
  int passes = 1, pow2 = (banks & (banks - 1)) == 0;
  for (int lane = 0; lane < 32; lane++) {
    if (!(mask >> lane & 1u)) continue;
    uint64_t first = addrs[lane] / 4, last = (addrs[lane] + (uint64_t)width - 1) / 4;
    if (last < first || last - first >= MAX_WORDS_PER_LANE) last = first + MAX_WORDS_PER_LANE - 1;
    for (uint64_t w = first; w <= last; w++) {
      uint32_t h = (uint32_t)((w * 0x9E3779B97F4A7C15ull) >> 40) & (slots - 1);
      while (slot_used[h] && slot_word[h] != w) h = (h + 1) & (slots - 1);
      if (slot_used[h]) continue;
      slot_used[h] = 1;
      slot_word[h] = w;
      int bank = pow2 ? (int)(w & (uint64_t)(banks - 1)) : (int)(w % (uint64_t)banks);
      if (++depth[bank] > passes) passes = depth[bank];
    }
  }
  return passes;
}
