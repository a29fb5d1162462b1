/* The text traces' line reader (csim/trace/line_reader.h): every line as written, numbered,
 * whatever the reads' sizes (they start small and double) cut through: lines across the first
 * reads' ends, a line longer than the buffer (which grows), blank lines, CRLF endings, a last
 * line without a newline; and a line with a NUL byte refused with its file and line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/trace/line_reader.h"
#include "common/test_util.h"

enum { LINES = 3000, LONG_LINE = 1500 * 1024 /* past the 1 MB buffer */ };

/* Line i's length: mostly short, some of several KB (so line ends fall anywhere in a read), a
 * blank one now and then, and one past the buffer. */
static size_t length_of(int i) {
  if (i == LINES / 2) return LONG_LINE;
  if (i % 97 == 0) return 0;
  return (size_t)(i * 7919u % (i % 5 == 0 ? 9000u : 300u)) + 1;
}

static char byte_of(int i, size_t k) { return (char)('!' + (i * 31 + (int)k) % 90); }

/* The file's text: line i of length_of(i), CRLF on every third, no newline after the last. */
static char *file_text(size_t *n) {
  size_t cap = 0;
  for (int i = 0; i < LINES; i++) cap += length_of(i) + 2;
  char *t = malloc(cap + 1);
  assert_non_null(t);
  size_t at = 0;
  for (int i = 0; i < LINES; i++) {
    for (size_t k = 0; k < length_of(i); k++) t[at++] = byte_of(i, k);
    if (i == LINES - 1) break;
    if (i % 3 == 0) t[at++] = '\r';
    t[at++] = '\n';
  }
  t[at] = '\0';
  *n = at;
  return t;
}

static void test_every_line_as_written(void **state) {
  const tu_fixture *f = *state;
  size_t n;
  char *t = file_text(&n);
  assert_true(n > (size_t)3 << 20); /* several reads past the first, and the grown buffer */
  assert_int_equal(tu_write(f->dir, "lines.txt", t), 0);
  free(t);
  tu_path p = tu_path_in(f, "lines.txt");
  line_reader r;
  rf_diag d;
  assert_int_equal(line_reader_open(&r, p.s, &d), 0);
  char *line;
  size_t len;
  for (int i = 0; i < LINES; i++) {
    assert_int_equal(line_reader_next(&r, &line, &len, &d), 1);
    assert_int_equal(r.lineno, i + 1);
    assert_int_equal(len, length_of(i));
    assert_int_equal(strlen(line), len);
    for (size_t k = 0; k < len; k++)
      if (line[k] != byte_of(i, k)) fail_msg("line %d byte %zu differs", i + 1, k);
  }
  assert_int_equal(line_reader_next(&r, &line, &len, &d), 0);
  assert_int_equal(line_reader_next(&r, &line, &len, &d), 0);
  line_reader_close(&r);
}

/* A NUL byte in a line past the first read: refused, naming the file and that line. */
static void test_nul_byte_refused(void **state) {
  const tu_fixture *f = *state;
  enum { BEFORE = 2000 }; /* lines of 99 bytes: the NUL's line starts past 64 KB */
  size_t n = BEFORE * 100 + 10;
  char *t = malloc(n);
  assert_non_null(t);
  for (int i = 0; i < BEFORE; i++) {
    memset(t + i * 100, 'a', 99);
    t[i * 100 + 99] = '\n';
  }
  memcpy(t + BEFORE * 100, "ab\0cd\nxy\n", 10);
  tu_path p = tu_path_in(f, "nul.txt");
  FILE *out = fopen(p.s, "wb");
  assert_non_null(out);
  assert_int_equal(fwrite(t, 1, n - 1, out), n - 1);
  fclose(out);
  free(t);
  line_reader r;
  rf_diag d;
  assert_int_equal(line_reader_open(&r, p.s, &d), 0);
  char *line;
  size_t len;
  for (int i = 0; i < BEFORE; i++) assert_int_equal(line_reader_next(&r, &line, &len, &d), 1);
  assert_int_equal(line_reader_next(&r, &line, &len, &d), -1);
  char want[64];
  snprintf(want, sizeof want, ":%d:", BEFORE + 1);
  assert_non_null(strstr(d.msg, "nul.txt"));
  assert_non_null(strstr(d.msg, want));
  line_reader_close(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_FIXTURE_TEST(test_every_line_as_written),
      TU_FIXTURE_TEST(test_nul_byte_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
