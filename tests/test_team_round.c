/* bin/team-round (the cost of a round of the thread team, which make bench sets beside the
 * -threads speed-ups): it prints one figure a run, and refuses a bad option by name, exit 2.
 * No figure is held to a bound: timing is reported, never asserted. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/test_util.h"

static char dir[PATH_MAX];

static int setup(void **state) {
  (void)state;
  return tu_mkdtemp(dir, sizeof dir);
}

static int teardown(void **state) {
  (void)state;
  tu_rmtree(dir);
  return 0;
}

/* Runs bin/team-round with `args`, stdout to DIR/out and stderr to DIR/err; its exit status. */
static int run(const char *args) {
  char cmd[2 * PATH_MAX + 256];
  snprintf(cmd, sizeof cmd, "bin/team-round %s > %s/out 2> %s/err", args, dir, dir);
  return tu_sh(cmd);
}

/* What the last run wrote to `stream` ("out" or "err"); the caller frees it. */
static char *written(const char *stream) {
  char path[PATH_MAX + 8];
  snprintf(path, sizeof path, "%s/%s", dir, stream);
  char *text = tu_slurp(path, NULL);
  assert_non_null(text);
  return text;
}

static void test_prints_a_round(void **state) {
  (void)state;
  const char *cases[][2] = {{"-rounds 200", "2"}, {"-threads 3 -rounds 50", "3"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    assert_int_equal(run(cases[i][0]), 0);
    char *out = written("out");
    int threads = 0, rounds = 0;
    double ns = -1, fastest = -1;
    assert_int_equal(sscanf(out, "team-round: -threads %d: %lf ns a round (median of 5 series "
                                 "of %d rounds; fastest %lf ns)",
                            &threads, &ns, &rounds, &fastest),
                     4);
    assert_int_equal(threads, atoi(cases[i][1]));
    assert_true(ns > 0 && fastest > 0 && fastest <= ns);
    assert_int_equal(rounds, i == 0 ? 200 : 50);
    free(out);
  }
}

static void test_bad_options_named(void **state) {
  (void)state;
  const char *cases[][2] = {
      {"-threads 1", "-threads: expected a whole number in 2..256, found '1'"},
      {"-threads two", "-threads: expected a whole number in 2..256, found 'two'"},
      {"-rounds 0", "-rounds: expected a whole number in 1..100000000, found '0'"},
      {"-rounds", "-rounds: expected a whole number in 1..100000000, found '(nothing)'"},
      {"-rounds 5x", "found '5x'"},
      {"-fast", "unknown option '-fast'"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    assert_int_equal(run(cases[i][0]), 2);
    char *err = written("err"), *out = written("out");
    if (!strstr(err, cases[i][1]))
      fail_msg("%s: expected '%s' in: %s", cases[i][0], cases[i][1], err);
    assert_string_equal(out, ""); /* no figure beside the error */
    free(err);
    free(out);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_prints_a_round),
      cmocka_unit_test(test_bad_options_named),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
