/* -stats_json (csim/stats): the JSON text of every kind of entry, strings escaped and values
 * that JSON cannot spell (NaN, infinities) as null; the file written whole, through a
 * temporary renamed into place; and through bin/rfsim: a folder it cannot write refused before
 * the run (no stats printed that would look like a run), a failing run leaving no file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../csim/stats/stats.h"
#include "common/test_util.h"

/* A one-kernel trace in the fixture's folder (for the runs through bin/rfsim). */
static void write_trace(const tu_fixture *f) {
  static const char *const bodies[] = {"1 R1 LDG.E 0 4 1 0x10000 4\n0 EXIT 0 0\n"};
  char *text = tu_kernel_text("json", 4, 2, 8, bodies, 1);
  assert_non_null(text);
  assert_int_equal(tu_write(f->dir, "kernel-1.traceg", text) |
                       tu_write(f->dir, "kernelslist.g", "kernel-1.traceg\n"),
                   0);
  free(text);
}

static void test_every_kind_written(void **state) {
  const tu_fixture *f = *state;
  stats_record k, total;
  stats_init(&k);
  stats_init(&total);
  stats_u64(&k, "insts", 18446744073709551615ull);
  stats_f64(&k, "ipc", 1.5);
  stats_f64(&k, "no_ipc", NAN);
  stats_str(&k, "name", "a \"quoted\" \\ name\twith a tab");
  const double v[] = {0.25, INFINITY, 3};
  stats_series(&k, "series", v, 3);
  stats_series(&k, "empty", v, 0);
  stats_u64(&total, "cycles", 7);
  tu_path kinds = tu_path_in(f, "kinds.json");
  const char *path = kinds.s;
  char tmp[1100];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  rf_diag d;
  assert_int_equal(stats_write_json(path, &k, 1, &total, &d), 0);
  size_t n;
  char *got = tu_slurp(path, &n);
  assert_non_null(got);
  assert_string_equal(got,
                      "{\n"
                      "  \"kernels\": [\n"
                      "    {\n"
                      "      \"insts\": 18446744073709551615,\n"
                      "      \"ipc\": 1.500000,\n"
                      "      \"no_ipc\": null,\n"
                      "      \"name\": \"a \\\"quoted\\\" \\\\ name\\u0009with a tab\",\n"
                      "      \"series\": [0.25, null, 3],\n"
                      "      \"empty\": []\n"
                      "    }\n"
                      "  ],\n"
                      "  \"total\": {\n"
                      "    \"cycles\": 7\n"
                      "  }\n"
                      "}\n");
  free(got);
  assert_int_equal(access(tmp, F_OK), -1); /* renamed into place */
  stats_free(&k);
  stats_free(&total);
}

static void test_check_leaves_nothing(void **state) {
  const tu_fixture *f = *state;
  tu_path path = tu_path_in(f, "checked.json");
  char tmp[1100];
  snprintf(tmp, sizeof tmp, "%s.tmp", path.s);
  rf_diag d;
  assert_int_equal(stats_json_check(path.s, &d), 0);
  assert_int_equal(access(path.s, F_OK), -1);
  assert_int_equal(access(tmp, F_OK), -1);
  path = tu_path_in(f, "missing/checked.json");
  assert_int_equal(stats_json_check(path.s, &d), -1);
  char want[2400];
  snprintf(want, sizeof want, "-stats_json %s: cannot write %s.tmp: No such file or directory",
           path.s, path.s);
  assert_string_equal(d.msg, want);
  /* a folder is no file to write (its .tmp would be made beside it, the rename would fail) */
  assert_int_equal(stats_json_check(f->dir, &d), -1);
  snprintf(want, sizeof want, "-stats_json %s: expected a file name, found a folder", f->dir);
  assert_string_equal(d.msg, want);
}

/* Runs bin/rfsim on the fixture's trace with `extra`; its exit status (stdout in out.txt,
 * stderr in err.txt). */
static int run_rfsim(const tu_fixture *f, const char *extra) {
  char cmd[4096];
  assert_true((size_t)snprintf(cmd, sizeof cmd,
                               "bin/rfsim -trace %s/kernelslist.g -config configs/gtx480.config "
                               "-trace_cache off -quiet %s > %s/out.txt 2> %s/err.txt",
                               f->dir, extra, f->dir, f->dir) < sizeof cmd);
  return tu_sh(cmd);
}

static void test_through_rfsim(void **state) {
  const tu_fixture *f = *state;
  write_trace(f);
  char extra[1200];
  /* written on success */
  tu_path path = tu_path_in(f, "run.json");
  snprintf(extra, sizeof extra, "-stats_json %s", path.s);
  assert_int_equal(run_rfsim(f, extra), 0);
  size_t n;
  char *got = tu_slurp(path.s, &n);
  assert_non_null(strstr(got, "\"kernels\": ["));
  assert_non_null(strstr(got, "\"total\": {"));
  free(got);
  /* a folder it cannot write: refused before the run, nothing on stdout */
  path = tu_path_in(f, "missing/run.json");
  snprintf(extra, sizeof extra, "-stats_json %s", path.s);
  assert_int_equal(run_rfsim(f, extra), 1);
  free(tu_slurp(tu_path_in(f, "out.txt").s, &n));
  assert_int_equal(n, 0);
  char *err = tu_slurp(tu_path_in(f, "err.txt").s, &n);
  char want[2400];
  snprintf(want, sizeof want,
           "rfsim: error: -stats_json %s: cannot write %s.tmp: No such file or directory\n",
           path.s, path.s);
  assert_string_equal(err, want);
  free(err);
  /* a run that fails leaves no file, whole or partial */
  path = tu_path_in(f, "failed.json");
  snprintf(extra, sizeof extra, "-stats_json %s -gpgpu_max_cycle 10", path.s);
  assert_int_equal(run_rfsim(f, extra), 1);
  assert_int_equal(access(path.s, F_OK), -1);
  assert_int_equal(access(tu_path_in(f, "failed.json.tmp").s, F_OK), -1);
}

int main(void) {
  tu_private_cache();
  const struct CMUnitTest tests[] = {
      TU_FIXTURE_TEST(test_every_kind_written),
      TU_FIXTURE_TEST(test_check_leaves_nothing),
      TU_FIXTURE_TEST(test_through_rfsim),
  };
  return cmocka_run_group_tests_name("stats json", tests, NULL, NULL);
}
