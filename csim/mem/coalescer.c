/* Warp-level address coalescing for global/local accesses and bank-conflict counting for
 * shared memory. Both run once per memory instruction, so they avoid allocation and keep the
 * working set on the stack. */
#include <stdlib.h>
#include <string.h>

#include "../trace/trace_addrs.h"
#include "mem_internal.h"

/* Per line the coalescer keeps which bytes the warp touches (128 bits). */
typedef struct line_bytes {
  uint64_t addr;
  uint64_t lo, hi; /* bytes 0-63 and 64-127 */
} line_bytes;

/* Bits first..last (inclusive, both below 64). */
static uint64_t bit_range(unsigned first, unsigned last) {
  uint64_t upto = last == 63 ? ~0ull : (1ull << (last + 1)) - 1;
  return upto & ~((1ull << first) - 1);
}

static void mark_bytes(line_bytes *l, unsigned first, unsigned last) {
  if (first < 64) l->lo |= bit_range(first, last < 64 ? last : 63);
  if (last >= 64) l->hi |= bit_range(first < 64 ? 0 : first - 64, last - 64);
}

/* Bytes [off, off + width) of one line (off + width <= 128): one shift where they lie in one
 * half, as nearly every lane's access does. */
static inline void mark_span(line_bytes *l, unsigned off, unsigned width) {
  unsigned end = off + width;
  uint64_t ones = width >= 64 ? ~0ull : (1ull << width) - 1;
  if (end <= 64) l->lo |= ones << off;
  else if (off >= 64) l->hi |= ones << (off - 64);
  else mark_bytes(l, off, end - 1);
}

static uint32_t sector_word(const line_bytes *l, int s) {
  uint64_t half = s < 2 ? l->lo : l->hi;
  return (uint32_t)(half >> (32 * (s & 1)));
}

/* Sorts distinct lines by address from the highest. The lanes of a warp mostly go up through
 * memory, so lines found in lane order are mostly ascending already: reversed, else inserted
 * (qsort's call per comparison was more than the search that found the lines). */
static void sort_addr_desc(line_bytes *l, int n) {
  int ascending = 1;
  for (int i = 1; i < n && ascending; i++) ascending = l[i - 1].addr < l[i].addr;
  if (ascending) {
    for (int i = 0, j = n - 1; i < j; i++, j--) {
      line_bytes t = l[i];
      l[i] = l[j];
      l[j] = t;
    }
    return;
  }
  for (int i = 1; i < n; i++) {
    line_bytes t = l[i];
    int j = i;
    for (; j > 0 && l[j - 1].addr < t.addr; j--) l[j] = l[j - 1];
    l[j] = t;
  }
}

/* Appends one segment of `size` bytes at sector `first` of line l (only the sectors the warp
 * touched). Returns -1 when out is full. */
static inline int emit(const line_bytes *l, int first, int size, mem_access *out, int *n,
                       int max_out) {
  uint8_t mask = 0, full = 0;
  for (int s = first; s < first + size / MEM_SECTOR_BYTES; s++) {
    uint32_t w = sector_word(l, s);
    if (w) mask |= (uint8_t)(1u << s);
    if (w == UINT32_MAX) full |= (uint8_t)(1u << s);
  }
  if (!mask) return 0;
  if (*n >= max_out) return -1;
  mem_access *a = &out[(*n)++];
  memset(a, 0, sizeof *a);
  a->addr = l->addr;
  a->sector_mask = mask;
  a->full_mask = full;
  a->size = (uint16_t)size;
  return 0;
}

/* A segment of `size` bytes at sector `first`, shrunk as GPGPU-Sim shrinks it: a 128- or
 * 64-byte segment of which one half holds every touched byte becomes that half. */
static int reduce(const line_bytes *l, int first, int size, mem_access *out, int *n,
                  int max_out) {
  if (size > MEM_SECTOR_BYTES) {
    int half = size / 2, step = half / MEM_SECTOR_BYTES;
    int used_lo = 0, used_hi = 0;
    for (int s = first; s < first + step; s++) used_lo |= sector_word(l, s) != 0;
    for (int s = first + step; s < first + 2 * step; s++) used_hi |= sector_word(l, s) != 0;
    if (used_lo != used_hi) return reduce(l, used_lo ? first : first + step, half, out, n, max_out);
  }
  return emit(l, first, size, out, n, max_out);
}

#define MAX_LINES 64
#define LINE_SIZE ((uint64_t)MEM_SECTORS_PER_LINE * MEM_SECTOR_BYTES)

/* The accesses of the touched lines, sorted by address from the highest (GPGPU-Sim keeps a
 * warp's segments sorted by address and issues them from the highest). */
static int emit_lines(const line_bytes *lines, int nl, int width, int sectors, mem_access *out,
                      int max_out) {
  /* Segment size: 1-byte data always 32-byte segments, 2-byte 64 unless sectors. */
  int seg = sectors || width == 1 ? 32 : width == 2 ? 64 : 128;
  int n = 0;
  for (int i = 0; i < nl; i++)
    for (int first = MEM_SECTORS_PER_LINE - seg / MEM_SECTOR_BYTES; first >= 0;
         first -= seg / MEM_SECTOR_BYTES)
      /* (a sector has no halves to shrink to: emitted as it is, without the call) */
      if ((seg == MEM_SECTOR_BYTES ? emit(&lines[i], first, seg, out, &n, max_out)
                                   : reduce(&lines[i], first, seg, out, &n, max_out)) != 0)
        return -1;
  return n;
}

int mem_coalesce_strided(uint64_t base, uint64_t stride, uint32_t mask, int width, int sectors,
                         mem_access *out, int max_out) {
  if (width < 1) width = 1;
  int n = rf_popcount32(mask);
  /* Lanes back to back (stride = width), all at one address (0), or one lane: together they
   * touch the bytes [base, base + span) and nothing else, the lines of that range from the
   * highest down. */
  if (n > 0 && base < (UINT64_MAX >> 1) &&
      (n == 1 || stride == 0 || stride == (uint64_t)width)) {
    uint64_t span = (n == 1 || stride == 0 ? 1 : (uint64_t)n) * (uint64_t)width;
    uint64_t lo = base, hi = base + span - 1;
    line_bytes lines[MAX_LINES];
    int nl = 0;
    for (uint64_t line = hi & ~(LINE_SIZE - 1);; line -= LINE_SIZE) {
      if (nl >= MAX_LINES) return -1;
      line_bytes *l = &lines[nl++];
      *l = (line_bytes){.addr = line};
      uint64_t end = line + LINE_SIZE - 1;
      uint64_t seg_lo = line > lo ? line : lo, seg_hi = hi < end ? hi : end;
      mark_bytes(l, (unsigned)(seg_lo - line), (unsigned)(seg_hi - line));
      if (line <= lo) break;
    }
    return emit_lines(lines, nl, width, sectors, out, max_out);
  }
  uint64_t addrs[TRACE_WARP_SIZE];
  trace_addrs_spread(base, stride, mask, addrs);
  return mem_coalesce(addrs, mask, width, sectors, out, max_out);
}

/* The lines a warp touches, found in lane order: `lines` in any order, and where each is, by open
 * addressing over twice as many slots (0xFF: free), so that scattered lanes (a line each) do
 * not search every line found before. */
enum { LINE_SLOTS = 2 * MAX_LINES };
_Static_assert(LINE_SLOTS == 1 << 7, "the hash below takes 7 bits");
typedef struct line_set {
  line_bytes lines[MAX_LINES];
  uint8_t slot_line[LINE_SLOTS];
  int n, last;
} line_set;

/* The index of `line` in the set, added if new (its bytes none); -1 if the set is full. */
static inline int line_of(line_set *ls, uint64_t line) {
  /* Neighbouring lanes usually hit the line the previous lane touched: try it first. */
  if (ls->last >= 0 && ls->lines[ls->last].addr == line) return ls->last;
  unsigned h = (unsigned)((line / LINE_SIZE * 0x9E3779B97F4A7C15ull) >> 57);
  while (ls->slot_line[h] != 0xFF && ls->lines[ls->slot_line[h]].addr != line)
    h = (h + 1) & (LINE_SLOTS - 1);
  int k = ls->slot_line[h];
  if (k == 0xFF) {
    if (ls->n >= MAX_LINES) return -1;
    k = ls->n++;
    ls->lines[k] = (line_bytes){.addr = line};
    ls->slot_line[h] = (uint8_t)k;
  }
  return ls->last = k;
}

int mem_coalesce(const uint64_t *addrs, uint32_t mask, int width, int sectors,
                 mem_access *out, int max_out) {
  if (width < 1) width = 1;
  line_set ls;
  memset(ls.slot_line, 0xFF, sizeof ls.slot_line);
  ls.n = 0;
  ls.last = -1;
  for (uint32_t m = mask; m; m &= m - 1) {
    uint64_t lo = addrs[__builtin_ctz(m)];
    unsigned off = (unsigned)(lo & (LINE_SIZE - 1));
    if (off + (unsigned)width <= LINE_SIZE) { /* the common access: within one line */
      int k = line_of(&ls, lo - off);
      if (k < 0) return -1;
      mark_span(&ls.lines[k], off, (unsigned)width);
      continue;
    }
    uint64_t hi = lo + (uint64_t)width - 1;
    if (hi < lo) hi = UINT64_MAX; /* an access at the very top of the space does not wrap */
    for (uint64_t line = lo & ~(LINE_SIZE - 1);; line += LINE_SIZE) {
      uint64_t seg_lo = line > lo ? line : lo;
      uint64_t line_end = line + LINE_SIZE - 1;
      uint64_t seg_hi = line_end < hi ? line_end : hi;
      int k = line_of(&ls, line);
      if (k < 0) return -1;
      mark_bytes(&ls.lines[k], (unsigned)(seg_lo - line), (unsigned)(seg_hi - line));
      if (line_end >= hi) break;
    }
  }
  sort_addr_desc(ls.lines, ls.n);
  return emit_lines(ls.lines, ls.n, width, sectors, out, max_out);
}

/* Words per lane we track: 64-byte accesses (the widest any GPU issues per thread is 16). */
#define MAX_WORDS_PER_LANE 16
#define WORD_SET_SLOTS 1024 /* power of two, above 32 lanes x MAX_WORDS_PER_LANE */
#define MAX_BANKS 1024      /* config.c bounds -gpgpu_shmem_num_banks to this */

/* Regular accesses (the k-th of n active lanes at base + k * stride) that cover a contiguous
 * range of words, each word once: every lane the same address (a broadcast, the words of one
 * lane) or word-aligned lanes packed back to back (stride = width). 1 with the range's first
 * word and length, or 0 if the lanes are not such a range. */
static int range_words(uint64_t base, uint64_t stride, int n, int width, uint64_t *first,
                       uint64_t *words) {
  if (width > 16 || base >= (UINT64_MAX >> 1) || (stride != 0 && stride != (uint64_t)width))
    return 0;
  if (stride != 0 && (base % 4 != 0 || width % 4 != 0)) return 0;
  *first = base / 4;
  *words = stride == 0 ? (base + (uint64_t)width - 1) / 4 - base / 4 + 1
                       : (uint64_t)n * (uint64_t)width / 4;
  return 1;
}

/* A bank holds at most ceil(K / banks) words of a contiguous range of K, and the first bank
 * that many. */
static int contiguous_passes(uint64_t words, int banks) {
  return (int)((words + (uint64_t)banks - 1) / (uint64_t)banks);
}

/* The passes of a range_words access, or -1 if the lanes are not such a range (the caller
 * counts them word by word). */
static int range_passes(uint64_t base, uint64_t stride, int n, int width, int banks) {
  uint64_t first, words;
  return range_words(base, stride, n, width, &first, &words) ? contiguous_passes(words, banks)
                                                             : -1;
}

static void clamp_shape(int *width, int *banks) {
  if (*banks < 1) *banks = 1;
  if (*banks > MAX_BANKS) *banks = MAX_BANKS;
  if (*width < 1) *width = 1;
}

int mem_shared_passes_strided(uint64_t base, uint64_t stride, uint32_t mask, int width,
                              int banks) {
  if (!mask) return 0;
  clamp_shape(&width, &banks);
  int n = rf_popcount32(mask);
  int passes = range_passes(base, n > 1 ? stride : 0, n, width, banks);
  if (passes >= 0) return passes;
  uint64_t addrs[TRACE_WARP_SIZE];
  trace_addrs_spread(base, stride, mask, addrs);
  return mem_shared_passes(addrs, mask, width, banks);
}

int mem_shared_passes_halves(uint64_t lo, uint64_t hi, uint64_t stride, uint32_t mask, int width,
                             int banks) {
  if (!mask) return 0;
  clamp_shape(&width, &banks);
  int n_lo = rf_popcount32(mask & 0xffffu), n_hi = rf_popcount32(mask >> 16);
  uint64_t a, na, b, nb;
  /* Each half a range of words (a half of one lane: its own words). Overlapping or touching,
   * they are one range; apart, each bank holds at most a word of each when neither range is
   * longer than the banks, so the answer is 2 where their banks meet and 1 where they do not.
   * The banks of a range starting at word w are a cyclic interval from w mod banks. */
  if (n_lo && n_hi && range_words(lo, n_lo > 1 ? stride : 0, n_lo, width, &a, &na) &&
      range_words(hi, n_hi > 1 ? stride : 0, n_hi, width, &b, &nb)) {
    if (b < a) {
      uint64_t t = a, tn = na;
      a = b, na = nb, b = t, nb = tn;
    }
    if (b <= a + na) return contiguous_passes((b + nb > a + na ? b + nb : a + na) - a, banks);
    if (na <= (uint64_t)banks && nb <= (uint64_t)banks) {
      uint64_t d = (b - a) % (uint64_t)banks; /* where b's banks start, from a's first */
      return d < na || d + nb > (uint64_t)banks ? 2 : 1;
    }
  }
  uint64_t addrs[TRACE_WARP_SIZE];
  trace_addrs_spread_halves(lo, hi, stride, mask, addrs);
  return mem_shared_passes(addrs, mask, width, banks);
}

/* Linear in the number of words: this runs for every shared-memory instruction. Each distinct
 * word (lanes reading the same word share one broadcast) adds one pass to its bank's queue;
 * the deepest queue is the number of passes. */
int mem_shared_passes(const uint64_t *addrs, uint32_t mask, int width, int banks) {
  if (!mask) return 0;
  clamp_shape(&width, &banks);
  /* Lanes in a regular pattern that covers a contiguous range of words (range_passes). */
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
    int passes = regular ? range_passes(base, stride, k, width, banks) : -1;
    if (passes >= 0) return passes;
  }
  /* Each lane within one aligned span (a word, or the 8 or 16 bytes of a wide access), and no
   * two distinct spans on the same banks: one pass. Past the regular shapes above this is the
   * commonest: a broadcast, unit-stride lanes, or a tile row that both half-warps read (a
   * 16-wide tile, each span read by two lanes). An aligned span of span/4 words takes the same
   * banks as every span congruent to it modulo `groups`, and none of the others' (with banks a
   * multiple of its words). One pass over the lanes notes each group's first span; a second in
   * a group leaves the count to the word set below. */
  int span = width <= 4 ? 4 : width, groups = banks / (span / 4);
  if ((span == 4 || span == 8 || span == 16) && banks % (span / 4) == 0 && groups <= 64) {
    uint64_t group_span[64], seen = 0, group_mask = (uint64_t)groups - 1;
    int shift = __builtin_ctz((unsigned)span), pow2 = (groups & (groups - 1)) == 0;
    uint32_t m = mask;
    for (; m; m &= m - 1) {
      uint64_t a = addrs[__builtin_ctz(m)], e = a >> shift;
      if ((a & (uint64_t)(span - 1)) + (uint64_t)width > (uint64_t)span) break; /* two spans */
      int g = (int)(pow2 ? e & group_mask : e % (uint64_t)groups);
      uint64_t bit = 1ull << g;
      if (!(seen & bit)) {
        seen |= bit;
        group_span[g] = e;
      } else if (group_span[g] != e) {
        break;
      }
    }
    if (!m) return 1;
  }
  /* Size the word set and clear only what this access can touch: this is a hot path. */
  int words_per_lane = (width + 3) / 4 + 1;
  if (words_per_lane > MAX_WORDS_PER_LANE) words_per_lane = MAX_WORDS_PER_LANE;
  uint32_t slots = 64;
  while (slots < 2u * (uint32_t)rf_popcount32(mask) * (uint32_t)words_per_lane) slots *= 2;
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
