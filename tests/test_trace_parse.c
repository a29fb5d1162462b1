/* The trace reader's number and token parsers (csim/trace/trace_parse.h) at their edges: the
 * whole token or nothing, the largest values and one past them (also behind leading zeros, where
 * the digit count alone does not tell), signs, and tokens split on spaces and tabs only. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "../csim/trace/trace_parse.h"

static void test_unsigned(void **state) {
  (void)state;
  uint64_t v = 7;
  assert_true(tp_parse_u64("0", &v) && v == 0);
  assert_true(tp_parse_u64("1234567890123456789", &v) && v == 1234567890123456789ull);
  assert_true(tp_parse_u64("18446744073709551615", &v) && v == UINT64_MAX);
  assert_true(tp_parse_u64("0000018446744073709551615", &v) && v == UINT64_MAX);
  assert_true(tp_parse_u64("00000000000000000000000042", &v) && v == 42);
  v = 7;
  static const char *const bad[] = {"",   "18446744073709551616", "0018446744073709551616",
                                    "99999999999999999999", "12a", "a12", "-1", "+1", " 1",
                                    "1 ", "1.5", "0x10"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    if (tp_parse_u64(bad[i], &v)) fail_msg("'%s' accepted", bad[i]);
    assert_int_equal(v, 7); /* untouched */
  }
}

static void test_signed(void **state) {
  (void)state;
  int64_t v = 7;
  assert_true(tp_parse_i64("-60", &v) && v == -60);
  assert_true(tp_parse_i64("+1220", &v) && v == 1220);
  assert_true(tp_parse_i64("9223372036854775807", &v) && v == INT64_MAX);
  assert_true(tp_parse_i64("-9223372036854775808", &v) && v == INT64_MIN);
  assert_true(tp_parse_i64("-00009223372036854775808", &v) && v == INT64_MIN);
  v = 7;
  static const char *const bad[] = {"", "-", "+", "--1", "9223372036854775808",
                                    "-9223372036854775809", "18446744073709551615", "4x"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    if (tp_parse_i64(bad[i], &v)) fail_msg("'%s' accepted", bad[i]);
    assert_int_equal(v, 7);
  }
  int n = 0;
  assert_true(tp_parse_int("-3", -3, 3, &n) && n == -3);
  assert_false(tp_parse_int("4", -3, 3, &n));
}

static void test_hex(void **state) {
  (void)state;
  uint64_t v = 0;
  assert_true(tp_parse_hex64("0x7f0000064000", &v) && v == 0x7f0000064000ull);
  assert_true(tp_parse_hex64("FFFFFFFFFFFFFFFF", &v) && v == UINT64_MAX);
  assert_false(tp_parse_hex64("0x10000000000000000", &v));
  assert_true(tp_parse_hex64("0x00000000000000000001", &v) && v == 1);
  assert_true(tp_parse_hex64("0000FFFFFFFFFFFFFFFF", &v) && v == UINT64_MAX);
  assert_false(tp_parse_hex64("0x00010000000000000000", &v));
  assert_false(tp_parse_hex64("10000000000000000000000000000000", &v));
  assert_false(tp_parse_hex64("0x", &v));
  assert_false(tp_parse_hex64("0xg", &v));
}

/* The readers stop where the number does, also past the unrolled digits (leading zeros), and
 * give NULL with nothing read. */
static void test_readers_stop(void **state) {
  (void)state;
  static const struct {
    const char *s;
    int kind; /* 0 u64, 1 i64, 2 hex */
    int end;  /* -1: NULL */
    uint64_t v;
  } cases[] = {
      {"123abc", 0, 3, 123},
      {"00000000000000000000123 4", 0, 23, 123},
      {"18446744073709551615,", 0, 20, UINT64_MAX},
      {"18446744073709551616,", 0, -1, 0},
      {"x1", 0, -1, 0},
      {"-45\t", 1, 3, (uint64_t)-45},
      {"+7R", 1, 2, 7},
      {"-0000000000000000000009223372036854775808 ", 1, 41, (uint64_t)INT64_MIN},
      {"- 1", 1, -1, 0},
      {"0x7F0000064000 1", 2, 14, 0x7f0000064000ull},
      {"ffffffffffffffffg", 2, 16, UINT64_MAX},
      {"0x000000000000000000000000abc.", 2, 29, 0xabc},
      {"0x1ffffffffffffffff ", 2, -1, 0},
      {"0x g", 2, -1, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    uint64_t u = 0;
    int64_t n = 0;
    const char *s = cases[i].s, *end = cases[i].kind == 0 ? tp_read_u64(s, &u)
                                     : cases[i].kind == 1 ? tp_read_i64(s, &n)
                                                          : tp_read_hex64(s, &u);
    if (cases[i].kind == 1) u = (uint64_t)n;
    if (cases[i].end < 0) {
      if (end) fail_msg("'%s' read", s);
    } else if (end != s + cases[i].end || u != cases[i].v) {
      fail_msg("'%s' read to %d as %llu", s, end ? (int)(end - s) : -1, (unsigned long long)u);
    }
  }
}

static void test_tokens(void **state) {
  (void)state;
  char line[] = "  01d0\tffffffff 1 R20  LDG.E.SYS\t\t1 \t-60";
  char *cur = line;
  static const char *const want[] = {"01d0", "ffffffff", "1", "R20", "LDG.E.SYS", "1", "-60"};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    char *tok = tp_next_token(&cur);
    assert_non_null(tok);
    assert_string_equal(tok, want[i]);
  }
  assert_null(tp_next_token(&cur));
  assert_null(tp_next_token(&cur)); /* and again at the end */
  char other[] = "a\rb\nc,d";       /* only blanks split a token */
  cur = other;
  assert_string_equal(tp_next_token(&cur), "a\rb\nc,d");
  assert_null(tp_next_token(&cur));
  char blank[] = " \t ";
  cur = blank;
  assert_null(tp_next_token(&cur));
}

/* tp_trim_n (the line reader's length known) leaves what tp_trim leaves, and its length. */
static void test_trim_with_length(void **state) {
  (void)state;
  static const char *const lines[] = {"",        " ",        "\t \r",   "a",     " a",
                                      "a ",      " \ta b\t ", "a\r",     "a \r \t", "\r a",
                                      "#BEGIN_TB", "warp = 3", "a\r\rb \r"};
  for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
    char a[32], b[32];
    snprintf(a, sizeof a, "%s", lines[i]);
    snprintf(b, sizeof b, "%s", lines[i]);
    size_t n = strlen(a);
    char *t = tp_trim_n(a, &n);
    assert_string_equal(t, tp_trim(b));
    assert_int_equal(n, strlen(t));
  }
}

/* tp_next_i64 against tp_next_token then tp_parse_i64, token by token over random lines of
 * numbers (every length, signs, the int64 edges), garbage and blanks: the same answers, the
 * same values, the same bad tokens given back, and the same line left behind. */
static void test_next_i64_as_token_then_parse(void **state) {
  (void)state;
  static const char *const vocab[] = {
      "0", "4", "-60", "1220", "+7", "-0", "9223372036854775807", "-9223372036854775808",
      "9223372036854775808", "-9223372036854775809", "18446744073709551616",
      "000000000000000000000012", "-", "+", "--4", "4-", "12a", "0x10", "R20", "LDG.E", "1.5",
      "\r", "7\r"};
  static const char *const blanks[] = {" ", "\t", "  ", " \t "};
  uint64_t seed = 99;
  int numbers = 0, bad = 0;
  for (int round = 0; round < 3000; round++) {
    char a[512] = "", b[512];
    int n = 1 + (int)(seed % 9);
    for (int i = 0; i < n; i++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      if (i || seed >> 63) strcat(a, blanks[(seed >> 20) % 4]);
      strcat(a, vocab[(seed >> 30) % (sizeof vocab / sizeof *vocab)]);
    }
    if (seed >> 62 & 1) strcat(a, blanks[(seed >> 40) % 4]);
    memcpy(b, a, sizeof a);
    char *ca = a, *cb = b;
    for (;;) {
      int64_t va = 0, vb = 0;
      int got = tp_next_i64(&ca, &va);
      char *tok = tp_next_token(&cb);
      if (!tok) {
        assert_int_equal(got, 0);
        break;
      }
      int want = tp_parse_i64(tok, &vb) ? 1 : -1;
      assert_int_equal(got, want);
      if (got == 1) {
        assert_true(va == vb);
        numbers++;
      } else {
        assert_string_equal(tp_next_token(&ca), tok); /* the bad token, for the message */
        bad++;
      }
      assert_int_equal(ca - a, cb - b);
    }
    assert_memory_equal(a, b, sizeof a);
  }
  assert_true(numbers > 3000 && bad > 3000);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_unsigned),
      cmocka_unit_test(test_signed),
      cmocka_unit_test(test_hex),
      cmocka_unit_test(test_readers_stop),
      cmocka_unit_test(test_tokens),
      cmocka_unit_test(test_trim_with_length),
      cmocka_unit_test(test_next_i64_as_token_then_parse),
  };
  return cmocka_run_group_tests_name("trace number and token parsers", tests, NULL, NULL);
}
