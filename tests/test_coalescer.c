/* What the LD/ST unit makes of a warp's addresses before any cache: the coalescer's accesses
 * (-gpgpu_coalesce_arch) and the shared-memory bank conflicts, driven by directed lane
 * addresses with results worked out from GPGPU-Sim's rules (csim/mem/mem.h). The caches are in
 * test_mem.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/mem/mem.h"
#include "../csim/trace/trace.h"

/* ---- coalescer ---- */

static void lanes(uint64_t *a, uint64_t base, uint64_t stride) {
  for (int i = 0; i < 32; i++) a[i] = base + stride * (uint64_t)i;
}

/* From -gpgpu_coalesce_arch 40 every access is a 32-byte sector: a full warp of 4-byte loads
 * is four accesses, highest address first (GPGPU-Sim takes its sorted list from the back). */
static void test_coalesce_sectors(void **state) {
  (void)state;
  uint64_t a[32];
  lanes(a, 0x1000, 4);
  mem_access out[64];
  assert_int_equal(mem_coalesce(a, 0xffffffffu, 4, 1, out, 64), 4);
  for (int i = 0; i < 4; i++) {
    assert_int_equal(out[i].addr, 0x1000);
    assert_int_equal(out[i].sector_mask, 1u << (3 - i));
    assert_int_equal(out[i].full_mask, 1u << (3 - i));
    assert_int_equal(out[i].size, 32);
  }
  /* Two lines: the higher one first. */
  lanes(a, 0x1040, 4);
  assert_int_equal(mem_coalesce(a, 0xffffffffu, 4, 1, out, 64), 4);
  assert_int_equal(out[0].addr, 0x1080);
  assert_int_equal(out[0].sector_mask, 0x2);
  assert_int_equal(out[1].addr, 0x1080);
  assert_int_equal(out[1].sector_mask, 0x1);
  assert_int_equal(out[3].addr, 0x1000);
  assert_int_equal(out[3].sector_mask, 0x4);
}

/* Before arch 40 a cached access is a 128-byte segment, shrunk to 64 or 32 bytes when only
 * one half (then one quarter) of it is used; a segment using both halves stays whole. */
static void test_coalesce_segments(void **state) {
  (void)state;
  uint64_t a[32];
  mem_access out[64];
  lanes(a, 0x2000, 4);
  assert_int_equal(mem_coalesce(a, 0xffffffffu, 4, 0, out, 64), 1);
  assert_int_equal(out[0].size, 128);
  assert_int_equal(out[0].sector_mask, 0xF);
  assert_int_equal(mem_coalesce(a, 0x0000ffffu, 4, 0, out, 64), 1); /* lower 64 bytes */
  assert_int_equal(out[0].size, 64);
  assert_int_equal(out[0].sector_mask, 0x3);
  assert_int_equal(mem_coalesce(a, 0xffff0000u, 4, 0, out, 64), 1); /* upper 64 bytes */
  assert_int_equal(out[0].size, 64);
  assert_int_equal(out[0].sector_mask, 0xC);
  assert_int_equal(mem_coalesce(a, 0x0000ff00u, 4, 0, out, 64), 1); /* one sector */
  assert_int_equal(out[0].size, 32);
  assert_int_equal(out[0].sector_mask, 0x2);
  assert_int_equal(mem_coalesce(a, 0xff0000ffu, 4, 0, out, 64), 1); /* both halves: 128 */
  assert_int_equal(out[0].size, 128);
  assert_int_equal(out[0].sector_mask, 0x9);
  /* 1-byte data: 32-byte segments; 2-byte data: 64-byte segments. */
  lanes(a, 0x3000, 1);
  assert_int_equal(mem_coalesce(a, 0xffffffffu, 1, 0, out, 64), 1);
  assert_int_equal(out[0].size, 32);
  lanes(a, 0x3000, 4);
  assert_int_equal(mem_coalesce(a, 0xffffffffu, 2, 0, out, 64), 2);
  assert_int_equal(out[0].size, 64);
  assert_int_equal(out[0].sector_mask, 0xC);
  assert_int_equal(out[1].sector_mask, 0x3);
}

static void test_coalesce_straddle_and_limits(void **state) {
  (void)state;
  uint64_t a[32] = {0};
  mem_access out[64];
  a[0] = 0x107C; /* 8 bytes: 0x107C..0x1083 crosses into the next line */
  assert_int_equal(mem_coalesce(a, 0x1, 8, 0, out, 64), 2);
  assert_int_equal(out[0].addr, 0x1080);
  assert_int_equal(out[0].sector_mask, 0x1);
  assert_int_equal(out[1].addr, 0x1000);
  assert_int_equal(out[1].sector_mask, 0x8);
  assert_int_equal(out[1].full_mask, 0); /* 4 of 32 bytes: not written whole */
  lanes(a, 0x10000, 128);
  assert_int_equal(mem_coalesce(a, 0xffffffffu, 4, 1, out, 64), 32);
  assert_int_equal(mem_coalesce(a, 0xffffffffu, 4, 1, out, 8), -1); /* no silent truncation */
  assert_int_equal(mem_coalesce(a, 0, 4, 1, out, 64), 0);
  /* 16-byte data: four lines, each whole. */
  lanes(a, 0x4000, 16);
  assert_int_equal(mem_coalesce(a, 0xffffffffu, 16, 0, out, 64), 4);
  for (int i = 0; i < 4; i++) assert_int_equal(out[i].addr, 0x4000 + 128u * (unsigned)(3 - i));
}

/* A packed instruction (base and stride) coalesces as its 32 lanes spread do: random bases
 * near line and sector boundaries, strides equal to the width (one range: no spreading), zero,
 * or anything else, random masks, every width, sectors or segments, and the overflow answer. */
static void test_coalesce_strided_matches_lanes(void **state) {
  (void)state;
  static const int widths[] = {1, 2, 4, 8, 12, 16};
  uint64_t seed = 99;
  int ranges = 0;
  for (int i = 0; i < 20000; i++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    int width = widths[(seed >> 33) % 6], sectors = (int)(seed >> 40 & 1);
    uint64_t base = 0x10000 + 128 * ((seed >> 20) % 8) + (seed >> 44) % 140;
    uint64_t pick = (seed >> 50) % 8;
    uint64_t stride = pick < 4 ? (uint64_t)width : pick == 4 ? 0 : (seed >> 56) % 300;
    uint32_t mask = (seed >> 3 & 1) ? 0xffffffffu : (uint32_t)(seed >> 8);
    if (i % 500 == 0) base = UINT64_MAX - 200; /* lanes past the top of the space: spread */
    ranges += stride == (uint64_t)width || stride == 0;
    uint64_t a[32] = {0}, v = base;
    for (uint32_t m = mask; m; m &= m - 1, v += stride) a[__builtin_ctz(m)] = v;
    int max_out = (seed >> 60) % 2 ? 64 : 2; /* sometimes too few: both must say -1 */
    mem_access want[64], got[64];
    memset(want, 0, sizeof want);
    memset(got, 0, sizeof got);
    int nw = mem_coalesce(a, mask, width, sectors, want, max_out);
    int ng = mem_coalesce_strided(base, stride, mask, width, sectors, got, max_out);
    if (nw != ng || (nw > 0 && memcmp(want, got, (size_t)nw * sizeof want[0])))
      fail_msg("base 0x%llx stride %llu mask 0x%08x width %d sectors %d: %d accesses, "
               "strided %d", (unsigned long long)base, (unsigned long long)stride, mask, width,
               sectors, nw, ng);
  }
  assert_true(ranges > 10000);
}

/* The accesses come line by line from the highest address down, whatever order the lanes
 * touch the lines in: lanes ascending, descending, or scattered (random line per lane, 4-byte
 * loads, whole warp). Each access lies in one line, and a line's accesses come together. */
static void test_coalesce_line_order(void **state) {
  (void)state;
  uint64_t seed = 7;
  for (int i = 0; i < 3000; i++) {
    uint64_t a[32];
    int order = i % 3, lines = 1 + i % 40;
    for (int lane = 0; lane < 32; lane++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      uint64_t line = order == 0 ? (uint64_t)lane : order == 1 ? (uint64_t)(31 - lane)
                                                                : (seed >> 33) % (uint64_t)lines;
      a[lane] = 0x20000 + 128 * line + 4 * ((seed >> 50) % 32);
    }
    mem_access out[64];
    int n = mem_coalesce(a, 0xffffffffu, 4, 1, out, 64);
    assert_true(n > 0);
    for (int k = 1; k < n; k++)
      if ((out[k - 1].addr & ~127ull) < (out[k].addr & ~127ull))
        fail_msg("case %d: access %d at 0x%llx after 0x%llx", i, k,
                 (unsigned long long)out[k].addr, (unsigned long long)out[k - 1].addr);
    /* every lane's line is among them */
    for (int lane = 0; lane < 32; lane++) {
      int found = 0;
      for (int k = 0; k < n && !found; k++) found = (out[k].addr & ~127ull) == (a[lane] & ~127ull);
      assert_true(found);
    }
  }
}

/* The definition, byte by byte (csim/mem/mem.h): each touched 128-byte line, from the highest
 * down, in segments of 32 bytes (sectors, or 1-byte data), 64 (2-byte data) or 128 from the
 * segment at the line's top down; a segment of which one half holds every touched byte becomes
 * that half, again; a segment touching nothing is no access. For checking mem_coalesce's bit
 * masks, line table and sort on irregular lanes. */
typedef struct ref_line {
  uint64_t addr;
  uint8_t touched[128];
} ref_line;

static int ref_touched(const ref_line *l, int from, int to) {
  for (int b = from; b < to; b++)
    if (l->touched[b]) return 1;
  return 0;
}

static void ref_segment(const ref_line *l, int off, int size, mem_access *out, int *n) {
  if (size > 32) {
    int lo = ref_touched(l, off, off + size / 2), hi = ref_touched(l, off + size / 2, off + size);
    if (lo != hi) {
      ref_segment(l, lo ? off : off + size / 2, size / 2, out, n);
      return;
    }
  }
  uint8_t mask = 0, full = 0;
  for (int s = off / 32; s < (off + size) / 32; s++) {
    int all = 1;
    for (int b = 32 * s; b < 32 * s + 32; b++) all &= l->touched[b];
    if (ref_touched(l, 32 * s, 32 * s + 32)) mask |= (uint8_t)(1u << s);
    if (all) full |= (uint8_t)(1u << s);
  }
  if (!mask) return;
  mem_access *a = &out[(*n)++];
  memset(a, 0, sizeof *a);
  a->addr = l->addr;
  a->sector_mask = mask;
  a->full_mask = full;
  a->size = (uint16_t)size;
}

static int ref_coalesce(const uint64_t *addrs, uint32_t mask, int width, int sectors,
                        mem_access *out) {
  static ref_line lines[64];
  int nl = 0;
  for (int lane = 0; lane < 32; lane++) {
    if (!(mask >> lane & 1)) continue;
    for (uint64_t b = addrs[lane]; b < addrs[lane] + (uint64_t)width; b++) {
      int k = 0;
      while (k < nl && lines[k].addr != (b & ~127ull)) k++;
      if (k == nl) {
        memset(&lines[nl], 0, sizeof lines[nl]);
        lines[nl++].addr = b & ~127ull;
      }
      lines[k].touched[b & 127] = 1;
    }
  }
  for (int i = 0; i < nl; i++) /* highest first */
    for (int j = i + 1; j < nl; j++)
      if (lines[j].addr > lines[i].addr) {
        ref_line t = lines[i];
        lines[i] = lines[j];
        lines[j] = t;
      }
  int seg = sectors || width == 1 ? 32 : width == 2 ? 64 : 128, n = 0;
  for (int i = 0; i < nl; i++)
    for (int off = 128 - seg; off >= 0; off -= seg) ref_segment(&lines[i], off, seg, out, &n);
  return n;
}

/* Irregular lanes against the definition: each lane near one of a few bases (a line or two
 * apart, or far), at any byte, every width, sectors or segments, random masks. */
static void test_coalesce_matches_definition(void **state) {
  (void)state;
  /* (and wider than any lane's access, to cross the halves and the lines every way) */
  static const int widths[] = {1, 2, 4, 8, 12, 16, 24, 64, 100};
  enum { NWIDTHS = sizeof widths / sizeof *widths };
  uint64_t seed = 4242;
  for (int i = 0; i < 20000; i++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    int width = widths[(seed >> 33) % NWIDTHS], sectors = (int)(seed >> 40 & 1);
    uint32_t mask = (seed >> 3 & 1) ? 0xffffffffu : (uint32_t)(seed >> 8);
    int spread = 1 + (int)((seed >> 44) % 8);       /* bases to draw from */
    uint64_t gap = (seed >> 50) % 2 ? 128 : 4096;    /* between bases */
    int reach = (seed >> 52) % 2 ? 128 : 16;         /* offset of a lane from its base */
    uint64_t a[32] = {0};
    for (int lane = 0; lane < 32; lane++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      a[lane] = 0x40000 + gap * ((seed >> 20) % (uint64_t)spread) + (seed >> 40) % (uint64_t)reach;
    }
    mem_access want[256], got[256];
    memset(got, 0, sizeof got);
    int nw = ref_coalesce(a, mask, width, sectors, want);
    int ng = mem_coalesce(a, mask, width, sectors, got, 256);
    if (nw != ng || memcmp(want, got, (size_t)nw * sizeof want[0]))
      fail_msg("case %d: mask 0x%08x width %d sectors %d: %d accesses, definition %d", i, mask,
               width, sectors, ng, nw);
  }
}

/* ---- shared memory banks ---- */

static int passes_stride(uint64_t stride_bytes, int width) {
  uint64_t a[32];
  for (int i = 0; i < 32; i++) a[i] = 0x100 + stride_bytes * (uint64_t)i;
  return mem_shared_passes(a, 0xffffffffu, width, 32);
}

static void test_bank_conflicts(void **state) {
  (void)state;
  assert_int_equal(passes_stride(4, 4), 1);
  assert_int_equal(passes_stride(8, 4), 2);
  assert_int_equal(passes_stride(12, 4), 1); /* odd strides are conflict-free */
  assert_int_equal(passes_stride(0, 4), 1);  /* one word: broadcast */
  assert_int_equal(passes_stride(128, 4), 32);
  assert_int_equal(passes_stride(8, 8), 2);   /* 64 words over 32 banks */
  assert_int_equal(passes_stride(16, 16), 4); /* 128 words over 32 banks */
  uint64_t a[32] = {0};
  assert_int_equal(mem_shared_passes(a, 0, 4, 32), 0);
  a[0] = 0;
  a[1] = 128; /* same bank, different words */
  a[2] = 0;   /* same word as lane 0 */
  assert_int_equal(mem_shared_passes(a, 0x7, 4, 32), 2);
}

/* The definition, word by word: each distinct word adds a pass to its bank; the deepest bank
 * is the answer. Quadratic, for checking the fast paths of mem_shared_passes. */
static int passes_reference(const uint64_t *a, uint32_t mask, int width, int banks) {
  uint64_t words[32 * 17];
  int n = 0, depth[64] = {0}, passes = 0;
  for (int lane = 0; lane < 32; lane++) {
    if (!(mask >> lane & 1)) continue;
    for (uint64_t w = a[lane] / 4; w <= (a[lane] + (uint64_t)width - 1) / 4; w++) {
      int dup = 0;
      for (int i = 0; i < n && !dup; i++) dup = words[i] == w;
      if (dup) continue;
      words[n++] = w;
      int b = (int)(w % (uint64_t)banks);
      if (++depth[b] > passes) passes = depth[b];
    }
  }
  return passes;
}

static void test_bank_conflicts_match_reference(void **state) {
  (void)state;
  static const int widths[] = {1, 2, 4, 8, 12, 16};
  static const uint64_t strides[] = {0, 1, 2, 4, 8, 12, 16, 32, 36, 64, 128};
  static const uint32_t masks[] = {0xffffffffu, 0x1u, 0x80000000u, 0x0000ffffu, 0xffff0000u,
                                   0x55555555u, 0x00f0f00fu};
  static const int banks[] = {16, 32, 7};
  uint64_t seed = 12345;
  int checked = 0;
  for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++)
    for (size_t si = 0; si < sizeof strides / sizeof *strides; si++)
      for (size_t mi = 0; mi < sizeof masks / sizeof *masks; mi++)
        for (size_t bi = 0; bi < sizeof banks / sizeof *banks; bi++)
          for (uint64_t base = 0x1000; base < 0x1008; base += 2) {
            uint64_t a[32] = {0};
            int k = 0;
            for (int lane = 0; lane < 32; lane++)
              if (masks[mi] >> lane & 1) a[lane] = base + strides[si] * (uint64_t)k++;
            int want = passes_reference(a, masks[mi], widths[wi], banks[bi]);
            assert_int_equal(mem_shared_passes(a, masks[mi], widths[wi], banks[bi]), want);
            /* packed: the base and the stride alone */
            assert_int_equal(mem_shared_passes_strided(base, strides[si], masks[mi], widths[wi],
                                                       banks[bi]), want);
            /* the same with one lane moved: no longer regular */
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            int lane = __builtin_ctz(masks[mi]) + (int)(seed >> 60) % 2;
            if (lane < 32 && (masks[mi] >> lane & 1)) a[lane] += 4 * ((seed >> 40) % 64);
            want = passes_reference(a, masks[mi], widths[wi], banks[bi]);
            assert_int_equal(mem_shared_passes(a, masks[mi], widths[wi], banks[bi]), want);
            checked += 2;
          }
  assert_true(checked > 5000);
}

/* Lanes drawn from a few words (broadcasts, repeats across half-warps, bank conflicts), some at
 * offsets in the word or, for wide accesses, aligned to their width, so that some accesses span
 * two words or spans: the per-span check of mem_shared_passes against the definition. */
static void test_bank_conflicts_random_words(void **state) {
  (void)state;
  static const int widths[] = {1, 2, 4, 8, 16};
  static const int banks[] = {1, 7, 16, 32, 64};
  uint64_t seed = 777;
  int one_pass = 0, more = 0;
  for (int trial = 0; trial < 20000; trial++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    int width = widths[(seed >> 33) % 5], nb = banks[(seed >> 40) % 5];
    int pool = 1 + (int)((seed >> 45) % 40); /* distinct words to draw from */
    int offsets = (seed >> 52) % 4 == 0;     /* one access in four may be unaligned */
    int aligned = width > 4 && (seed >> 54) % 2; /* half the wide ones at their width */
    uint32_t mask = (seed >> 56) % 2 ? 0xffffffffu : (uint32_t)(seed >> 8);
    uint64_t a[32];
    for (int lane = 0; lane < 32; lane++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      uint64_t word = 0x4000 + (seed >> 40) % (uint64_t)pool * ((seed >> 20) % 2 ? 1 : 33);
      a[lane] = word * 4 + (offsets ? (seed >> 60) % 4 : 0);
      if (aligned) a[lane] &= ~(uint64_t)(width - 1);
    }
    int want = passes_reference(a, mask, width, nb);
    assert_int_equal(mem_shared_passes(a, mask, width, nb), want);
    if (want == 1) one_pass++;
    else if (want > 1) more++;
  }
  assert_true(one_pass > 1000 && more > 1000); /* both answers were exercised */
}

/* Two half-warp runs at one stride (the halves form): mem_shared_passes_halves against the
 * definition, on the lanes spread out. Most draws make each half a range of words (unit-stride
 * words or a broadcast) placed apart on the same banks, apart on others, touching or
 * overlapping, so that every case of the range arithmetic is met; the rest fall back. */
static void test_bank_conflicts_halves(void **state) {
  (void)state;
  static const int widths[] = {1, 2, 4, 8, 12, 16};
  static const int banks[] = {7, 16, 32, 64};
  uint64_t seed = 4242;
  int seen[4] = {0, 0, 0, 0}; /* answers 1, 2, 3 and more */
  for (int trial = 0; trial < 20000; trial++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    int width = widths[(seed >> 33) % 6], nb = banks[(seed >> 37) % 4];
    uint64_t lo = 0x8000 + 4 * ((seed >> 40) % 64) + ((seed >> 46) % 4 == 0 ? (seed >> 48) % 4 : 0);
    uint64_t stride;
    switch ((seed >> 50) % 4) {
      case 0: stride = 0; break;
      case 1: stride = 4 * ((seed >> 52) % 5); break;
      default: stride = (uint64_t)width; break;
    }
    /* hi a whole number of bank rows away (the same banks), some words away, or anywhere */
    uint64_t hi;
    switch ((seed >> 54) % 3) {
      case 0: hi = lo + 4 * (uint64_t)nb * (1 + (seed >> 56) % 12); break;
      case 1: hi = lo + 4 * ((seed >> 56) % 40); break;
      default: hi = lo - 4 * ((seed >> 56) % 40); break;
    }
    uint32_t mask = (seed >> 58) % 2 ? 0xffffffffu : (uint32_t)(seed >> 3);
    if (!(mask & 0xffffu)) mask |= 1u << (seed >> 59) % 16;
    if (!(mask >> 16)) mask |= 1u << (16 + (seed >> 60) % 16);
    uint64_t a[32] = {0};
    uint64_t l = lo, h = hi;
    for (int lane = 0; lane < 16; lane++) {
      if (mask >> lane & 1) a[lane] = l, l += stride;
      if (mask >> (16 + lane) & 1) a[16 + lane] = h, h += stride;
    }
    int want = passes_reference(a, mask, width, nb);
    assert_int_equal(mem_shared_passes_halves(lo, hi, stride, mask, width, nb), want);
    seen[want >= 4 ? 3 : want - 1]++;
  }
  for (int i = 0; i < 4; i++) assert_true(seen[i] > 500);
  assert_int_equal(mem_shared_passes_halves(0x100, 0x200, 4, 0, 4, 32), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_coalesce_sectors),
      cmocka_unit_test(test_coalesce_segments),
      cmocka_unit_test(test_coalesce_straddle_and_limits),
      cmocka_unit_test(test_coalesce_strided_matches_lanes),
      cmocka_unit_test(test_coalesce_line_order),
      cmocka_unit_test(test_coalesce_matches_definition),
      cmocka_unit_test(test_bank_conflicts),
      cmocka_unit_test(test_bank_conflicts_match_reference),
      cmocka_unit_test(test_bank_conflicts_random_words),
      cmocka_unit_test(test_bank_conflicts_halves),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
