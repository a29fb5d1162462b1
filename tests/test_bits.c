/* The hot paths' bit helpers (csim/common/bits.h) against one bit at a time: the SWAR popcounts,
 * rf_next_bit, and the rf_bit_iter walk over the same multi-word masks and ranges (empty ones,
 * ranges inside one word, across words, ending mid-word, starting at a word's first bit). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../csim/common/bits.h"

static uint64_t rnd(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

static int bit_of(const uint64_t *m, int b) { return (int)(m[b >> 6] >> (b & 63) & 1); }

static void test_popcounts(void **state) {
  (void)state;
  uint64_t r = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 100000; i++) {
    uint64_t x = rnd(&r);
    if (i % 3 == 0) x &= rnd(&r); /* sparser */
    if (i % 5 == 0) x |= rnd(&r); /* denser */
    int n = 0;
    for (int b = 0; b < 64; b++) n += (int)(x >> b & 1);
    assert_int_equal(rf_popcount64(x), n);
    int n32 = 0;
    for (int b = 0; b < 32; b++) n32 += (int)(x >> b & 1);
    assert_int_equal(rf_popcount32((uint32_t)x), n32);
  }
  assert_int_equal(rf_popcount64(0), 0);
  assert_int_equal(rf_popcount64(~0ull), 64);
}

/* Every set bit of m in [from, to), in order, by each helper; the counts must agree. */
static void check_range(const uint64_t *m, int from, int to) {
  int expect[4 * 64], n = 0;
  for (int b = from; b < to; b++)
    if (bit_of(m, b)) expect[n++] = b;
  int k = 0;
  for (int b = rf_next_bit(m, from, to); b >= 0; b = rf_next_bit(m, b + 1, to)) {
    assert_true(k < n);
    assert_int_equal(b, expect[k++]);
  }
  assert_int_equal(k, n);
  k = 0;
  rf_bit_iter it = rf_bits_from(m, from, to);
  for (int b; (b = rf_bits_next(&it)) >= 0;) {
    assert_true(k < n);
    assert_int_equal(b, expect[k++]);
  }
  assert_int_equal(k, n);
  assert_int_equal(rf_bits_next(&it), -1); /* and it stays ended */
}

static void test_walks_match_bit_by_bit(void **state) {
  (void)state;
  enum { WORDS = 4, BITS = WORDS * 64 };
  uint64_t r = 0x243f6a8885a308d3ull;
  for (int i = 0; i < 20000; i++) {
    uint64_t m[WORDS];
    for (int w = 0; w < WORDS; w++) {
      m[w] = rnd(&r);
      if (i % 2) m[w] &= rnd(&r) & rnd(&r); /* sparse */
      if (i % 7 == w) m[w] = 0;             /* an empty word to step over */
    }
    int from = (int)(rnd(&r) % (BITS + 1)), to = (int)(rnd(&r) % (BITS + 1));
    if (i % 4 == 0) from &= ~63; /* a word's first bit */
    if (i % 4 == 1) to = BITS;
    check_range(m, from, to); /* from > to: empty */
    check_range(m, 0, BITS);
  }
  uint64_t none[WORDS] = {0}, all[WORDS] = {~0ull, ~0ull, ~0ull, ~0ull};
  check_range(none, 0, BITS);
  check_range(all, 0, BITS);
  check_range(all, 63, 65);
  check_range(all, 64, 64);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_popcounts),
      cmocka_unit_test(test_walks_match_bit_by_bit),
  };
  return cmocka_run_group_tests_name("bits", tests, NULL, NULL);
}
