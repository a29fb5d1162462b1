/* The diagnostics (csim/common/diag.c): a failure filled into a diag that held anything before,
 * as a caller's own rf_diag on the stack does, is a failure, not a refusal (exit status 1, not
 * 3: main reads d.refusal); control bytes a message quotes from its input are shown as '?'. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../csim/common/diag.h"

/* a diag as an uninitialized local may hold it */
static void stale(rf_diag *d) { memset(d, 0x5a, sizeof *d); }

static void test_fail_is_not_a_refusal(void **state) {
  (void)state;
  rf_diag d;
  stale(&d);
  assert_int_equal(rf_fail(&d, "unit %s: mismatch", "sm0.fr_ptrtab"), -1);
  assert_string_equal(d.msg, "unit sm0.fr_ptrtab: mismatch");
  assert_int_equal(d.refusal, 0);
  stale(&d);
  assert_int_equal(rf_fail_at(&d, "a.config", 3, "expected %s", "a number"), -1);
  assert_string_equal(d.msg, "a.config:3: expected a number");
  assert_int_equal(d.refusal, 0);
}

static void test_refusal_then_failure(void **state) {
  (void)state;
  rf_diag d;
  stale(&d);
  assert_int_equal(rf_refuse(&d, "kernel %s: too big", "k"), -1);
  assert_int_equal(d.refusal, 1);
  /* the diag now describes the failure only */
  rf_fail(&d, "later");
  assert_string_equal(d.msg, "later");
  assert_int_equal(d.refusal, 0);
  assert_int_equal(rf_fail(NULL, "no diag"), -1);
}

/* A binary file read as a trace: the line quoted holds escape sequences, a carriage return and
 * a DEL; the message stays one line that cannot drive the terminal. UTF-8 (a file name with an
 * accent) is left as it is. */
static void test_control_bytes_quoted_as_question_marks(void **state) {
  (void)state;
  rf_diag d;
  rf_fail(&d, "found '%s'", "\x1b[2J\rA\x7f\tB");
  assert_string_equal(d.msg, "found '?[2J?A??B'");
  rf_refuse(&d, "%s", "\x01");
  assert_string_equal(d.msg, "?");
  rf_fail_at(&d, "caf\xc3\xa9.traceg", 1, "found '%s'", "\x1b]0;title\x07");
  assert_string_equal(d.msg, "caf\xc3\xa9.traceg:1: found '?]0;title?'");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fail_is_not_a_refusal),
      cmocka_unit_test(test_refusal_then_failure),
      cmocka_unit_test(test_control_bytes_quoted_as_question_marks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
