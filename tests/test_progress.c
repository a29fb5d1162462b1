/* The progress line (csim/progress): shown on a terminal only, never with -quiet or when stderr
 * is a file or pipe, and it leaves the stats alone. bin/rfsim runs under script(1), which gives
 * it a pseudo-terminal; the durations of the time-left field are checked directly. Also the job
 * runner of make compare and the sweeps (tools/jobs.sh): one line of runs done on a terminal,
 * a line per finished run otherwise. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../csim/progress/progress.h"
#include "common/test_util.h"

static char dir[256];

static int setup(void **state) {
  (void)state;
  if (tu_mkdtemp(dir, sizeof dir) != 0) return -1;
  static const char *const bodies[] = {
      "1 R1 LDG.E 0 4 1 0x10000 4\n1 R2 IADD 2 R1 R1 0\n0 BAR.SYNC 0 0\n0 EXIT 0 0\n"};
  char *text = tu_kernel_text("progress", 16, 4, 8, bodies, 1);
  if (!text) return -1;
  int rc = tu_write(dir, "kernel-1.traceg", text) | tu_write(dir, "kernel-2.traceg", text) |
           tu_write(dir, "kernelslist.g", "kernel-1.traceg\nkernel-2.traceg\n");
  free(text);
  return rc;
}

static int teardown(void **state) {
  (void)state;
  tu_rmtree(dir);
  return 0;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("%s: cannot open", path);
  char *buf = calloc(1, 1 << 20);
  assert_non_null(buf);
  size_t n = fread(buf, 1, (1 << 20) - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

/* Runs bin/rfsim on the two-kernel list with `extra` options; with `tty`, under script(1) (its
 * terminal output, stderr's, to DIR/tty), else with stderr to DIR/err. Stats go to DIR/<out>. */
static void run(int tty, const char *extra, const char *out) {
  char cmd[2048];
  int n = snprintf(cmd, sizeof cmd,
                   "bin/rfsim -trace %s/kernelslist.g -config configs/gtx480.config "
                   "-gpgpu_n_clusters 2 -trace_cache off %s > %s/%s",
                   dir, extra, dir, out);
  assert_true(n > 0 && (size_t)n < sizeof cmd);
  char full[4096];
  if (tty)
    snprintf(full, sizeof full, "script -qefc '%s' /dev/null > %s/tty 2>&1", cmd, dir);
  else
    snprintf(full, sizeof full, "%s 2> %s/err", cmd, dir);
  assert_int_equal(tu_sh(full), 0);
}

static int have_script(void) { return tu_sh("script -qefc true /dev/null > /dev/null 2>&1") == 0; }

/* On a terminal: the line names the kernel of how many, is rewritten in place (\r, erase to
 * the end of the line) and erased at the end, before the speed line. (This run takes less than
 * the second between two lines: only the first, at the start, is shown.) */
static void test_terminal_shows_progress(void **state) {
  (void)state;
  if (!have_script()) skip();
  run(1, "", "stats_tty");
  char path[512];
  snprintf(path, sizeof path, "%s/tty", dir);
  char *t = slurp(path);
  const char *last = strstr(t, "\r\033[Krfsim: kernel 1 of 2, 0 cycles, ");
  assert_non_null(last);
  assert_non_null(strstr(t, " M warp-inst/s, "));
  const char *erased = strstr(last, "\r\r\033[Krfsim: simulated ");
  if (!erased) fail_msg("the line was not erased before the speed line: %s", last);
  free(t);
}

/* DIR/name holds the speed line and no trace of a progress line (a terminal turns \n into
 * \r\n: only escape sequences and the line's text count). */
static void expect_no_line(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  char *t = slurp(path);
  assert_null(strstr(t, "kernel 1 of"));
  assert_null(strchr(t, '\033'));
  assert_non_null(strstr(t, "rfsim: simulated "));
  free(t);
}

static void test_quiet_and_not_a_terminal_show_nothing(void **state) {
  (void)state;
  if (have_script()) {
    run(1, "-quiet", "stats_quiet");
    expect_no_line("tty");
  }
  run(0, "", "stats_file");
  expect_no_line("err");
}

/* The stats are the same whether a line was shown or not. */
static void test_stats_unchanged(void **state) {
  (void)state;
  if (!have_script()) skip();
  run(1, "", "stats_a");
  run(0, "-quiet", "stats_b");
  char pa[512], pb[512];
  snprintf(pa, sizeof pa, "%s/stats_a", dir);
  snprintf(pb, sizeof pb, "%s/stats_b", dir);
  char *a = slurp(pa), *b = slurp(pb);
  assert_non_null(strstr(a, "gpu_sim_cycle = "));
  assert_string_equal(a, b);
  free(a);
  free(b);
}

static void test_durations(void **state) {
  (void)state;
  char b[32];
  progress_duration(0.2, b, sizeof b);
  assert_string_equal(b, "0 s");
  progress_duration(59.4, b, sizeof b);
  assert_string_equal(b, "59 s");
  progress_duration(62, b, sizeof b);
  assert_string_equal(b, "1:02");
  progress_duration(3 * 3600 + 4 * 60 + 5, b, sizeof b);
  assert_string_equal(b, "3:04:05");
  progress_duration(-3, b, sizeof b);
  assert_string_equal(b, "0 s");
}

/* A stream that is not a terminal turns the line off: nothing is written. */
static void test_off_writes_nothing(void **state) {
  (void)state;
  char *buf = NULL;
  size_t n = 0;
  FILE *m = open_memstream(&buf, &n);
  progress p;
  progress_init(&p, m, 1);
  assert_null(p.out);
  progress_state st = {1, 1, 100, 1000, 0.5};
  progress_update(&p, &st);
  progress_clear(&p);
  fclose(m);
  assert_int_equal(n, 0);
  free(buf);
}

/* tools/jobs.sh on three jobs, one failing: "N of 3 runs done" rewritten on a terminal, plain
 * per-job lines in a log; the failure is named either way. */
static void test_jobs_runner(void **state) {
  (void)state;
  char list[512], cmd[2048], path[512];
  snprintf(list, sizeof list, "%s/jobs.txt", dir);
  FILE *f = fopen(list, "w");
  assert_non_null(f);
  fprintf(f, "one\techo 1 > %s/one.out\ntwo\tfalse\nthree\techo 3 > %s/three.out\n", dir, dir);
  fclose(f);
  snprintf(cmd, sizeof cmd, "bash tools/jobs.sh run %s 2 > %s/log 2>&1", list, dir);
  assert_int_equal(tu_sh(cmd), 1);
  snprintf(path, sizeof path, "%s/log", dir);
  char *log = slurp(path);
  assert_non_null(strstr(log, "/3] two FAILED (exit 1"));
  assert_non_null(strstr(log, "/3] one ("));
  assert_null(strchr(log, '\033'));
  assert_null(strstr(log, "runs done"));
  free(log);
  if (!have_script()) return;
  snprintf(cmd, sizeof cmd, "script -qefc 'bash tools/jobs.sh run %s 2' /dev/null > %s/log 2>&1",
           list, dir);
  assert_int_equal(tu_sh(cmd), 1);
  char *t = slurp(path);
  assert_non_null(strstr(t, "\r\033[Kjobs: 0 of 3 runs done, "));
  assert_non_null(strstr(t, "\r\033[Kjobs: 3 of 3 runs done (1 failed), "));
  assert_non_null(strstr(t, "two FAILED (exit 1"));
  assert_null(strstr(t, "/3] one ("));
  assert_non_null(strstr(t, "\r\033[Kjobs: 3 jobs in "));
  free(t);
}

/* JOBS_RESUME_KEY: a second run with the same key skips the jobs that succeeded (each job
 * appends a line to a counter file when it runs), reruns the failed one, and a new key or a
 * changed command runs again. */
static void test_jobs_resume(void **state) {
  (void)state;
  char list[512], cmd[2048], path[512];
  snprintf(list, sizeof list, "%s/resume.txt", dir);
  snprintf(path, sizeof path, "%s/ran", dir);
  FILE *f = fopen(list, "w");
  assert_non_null(f);
  fprintf(f, "a\techo a >> %s\nb\techo b >> %s; false\nc\techo c >> %s\n", path, path, path);
  fclose(f);
  const char *runs[] = {"k1", "k1", "k2"};
  const char *want[] = {"a\nb\nc\n", "a\nb\nc\nb\n", "a\nb\nc\nb\na\nb\nc\n"};
  for (int i = 0; i < 3; i++) {
    snprintf(cmd, sizeof cmd, "JOBS_RESUME_KEY=%s bash tools/jobs.sh run %s 1 > %s/log 2>&1",
             runs[i], list, dir);
    assert_int_equal(tu_sh(cmd), 1);
    char *ran = slurp(path);
    assert_string_equal(ran, want[i]);
    free(ran);
  }
  snprintf(cmd, sizeof cmd, "%s/log", dir);
  char *log = slurp(cmd);
  assert_null(strstr(log, "earlier run")); /* k2 was new */
  free(log);
  /* the same key again: a and c are kept; c's command changed: it runs again */
  f = fopen(list, "w");
  assert_non_null(f);
  fprintf(f, "a\techo a >> %s\nb\techo b >> %s; false\nc\techo C >> %s\n", path, path, path);
  fclose(f);
  snprintf(cmd, sizeof cmd, "JOBS_RESUME_KEY=k2 bash tools/jobs.sh run %s 1 > %s/log 2>&1", list,
           dir);
  assert_int_equal(tu_sh(cmd), 1);
  char *ran = slurp(path);
  assert_string_equal(ran, "a\nb\nc\nb\na\nb\nc\nb\nC\n");
  free(ran);
  snprintf(cmd, sizeof cmd, "%s/log", dir);
  log = slurp(cmd);
  assert_non_null(strstr(log, "/3] a (done in an earlier run)"));
  free(log);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_terminal_shows_progress),
      cmocka_unit_test(test_quiet_and_not_a_terminal_show_nothing),
      cmocka_unit_test(test_stats_unchanged),
      cmocka_unit_test(test_durations),
      cmocka_unit_test(test_off_writes_nothing),
      cmocka_unit_test(test_jobs_runner),
      cmocka_unit_test(test_jobs_resume),
  };
  return cmocka_run_group_tests_name("progress line", tests, setup, teardown);
}
