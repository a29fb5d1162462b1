/* Where the trace cache lives and when it is trusted: the user's cache folder ($XDG_CACHE_HOME,
 * else ~/.cache), nothing ever written beside a trace (a read-only trace folder runs, its
 * listing unchanged), a moved, replaced or rewritten trace never served a stale cache, a cache
 * of another rfsim or another trace ignored, the folder kept under its size bound, and two
 * processes building the same cache at once leaving one valid cache. Needs bin/rfsim and the
 * generated workloads (make workloads). */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "../csim/trace/trace.h"
#include "../csim/trace/trace_cache.h"
#include "common/test_util.h"

/* ---- helpers ---- */

static const char *const body_a[] = {"1 R1 IADD 2 R2 R3 0\n1 R4 LDG.E 1 R2 4 1 0x7fb000001000 4\n"
                                     "0 EXIT 0 0\n"};
/* the same length as body_a, one register apart */
static const char *const body_b[] = {"1 R1 IADD 2 R2 R5 0\n1 R4 LDG.E 1 R2 4 1 0x7fb000001000 4\n"
                                     "0 EXIT 0 0\n"};

static void write_kernel(const char *dir, const char *name, const char *const *body, int ntb) {
  char *text = tu_kernel_text("k", ntb, 2, 16, body, 1);
  assert_non_null(text);
  assert_int_equal(tu_write(dir, name, text), 0);
  free(text);
}


/* The folder's own entry and its files, with sizes and times to the nanosecond: equal before
 * and after only if nothing was written in it. */
static char *listing(const char *dir) {
  char cmd[600], *out = calloc(1, 65536);
  assert_non_null(out);
  snprintf(cmd, sizeof cmd, "ls -ld --time-style=+%%s.%%N %s && ls -lA --time-style=+%%s.%%N %s",
           dir, dir);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  size_t n = fread(out, 1, 65535, p);
  out[n] = '\0';
  pclose(p);
  return out;
}

static char *cache_of(const char *trace, const char *dir) {
  trace_cache_opts o = {TRACE_CACHE_ON, dir, 0};
  tc_place pl;
  assert_int_equal(tc_place_of(trace, &o, tc_reader_id(), &pl), 0);
  return strdup(pl.path);
}

static int exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

/* ---- the folder ---- */

static void test_user_cache_folder(void **state) {
  (void)state;
  char buf[512], *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
  setenv("XDG_CACHE_HOME", "/x/cache", 1);
  setenv("HOME", "/home/u", 1);
  assert_int_equal(trace_cache_user_dir(buf, sizeof buf), 0);
  assert_string_equal(buf, "/x/cache/rfsim");
  setenv("XDG_CACHE_HOME", "relative/cache", 1); /* XDG: a relative path is to be ignored */
  assert_int_equal(trace_cache_user_dir(buf, sizeof buf), 0);
  assert_string_equal(buf, "/home/u/.cache/rfsim");
  unsetenv("XDG_CACHE_HOME");
  assert_int_equal(trace_cache_user_dir(buf, sizeof buf), 0);
  assert_string_equal(buf, "/home/u/.cache/rfsim");
  unsetenv("HOME");
  assert_int_equal(trace_cache_user_dir(buf, sizeof buf), -1);
  assert_string_equal(buf, "");
  /* no folder at all: no cache, and the text reads as ever */
  char dir[256], trace[300];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  write_kernel(dir, "kernel-1.traceg", body_a, 3);
  snprintf(trace, sizeof trace, "%s/kernel-1.traceg", dir);
  trace_cache_opts on = {TRACE_CACHE_ON, NULL, 0};
  long n;
  assert_int_equal(tu_compare_kernels(trace, trace, &on, &n), 0);
  assert_int_equal(n, 3);
  assert_int_equal(tu_count_files(dir, ""), 1);
  /* with XDG_CACHE_HOME: made there, read there */
  char xdg[300], rfsim_dir[320];
  snprintf(xdg, sizeof xdg, "%s/xdg", dir);
  snprintf(rfsim_dir, sizeof rfsim_dir, "%s/rfsim", xdg);
  setenv("XDG_CACHE_HOME", xdg, 1);
  assert_int_equal(tu_compare_kernels(trace, trace, &on, &n), 0);
  assert_int_equal(tu_compare_kernels(trace, trace, &on, &n), 1);
  assert_int_equal(tu_count_files(rfsim_dir, ".rfc"), 1);
  assert_int_equal(tu_count_files(dir, ""), 2); /* the trace and xdg/ */
  tu_rmtree(dir);
  if (home) setenv("HOME", home, 1);
  free(home);
  tu_private_cache();
}

/* bin/rfsim with `env` (VAR=value ...) and options; fails the test on a non-zero exit. */
static void rfsim(const char *env, const char *list, const char *opts, const char *out) {
  char cmd[3000];
  snprintf(cmd, sizeof cmd,
           "env %s bin/rfsim -trace %s -config configs/gtx480.config %s > %s 2> %s.err", env,
           list, opts, out, out);
  int rc = tu_sh(cmd);
  if (rc != 0) fail_msg("%s: exit %d", cmd, rc);
}

static void assert_same_file_text(const char *a, const char *b) {
  char cmd[700];
  snprintf(cmd, sizeof cmd, "cmp -s %s %s", a, b);
  if (tu_sh(cmd) != 0) fail_msg("%s and %s differ", a, b);
}

/* A read-only trace folder runs, with nothing written in it, through the user's cache folder
 * (made on first use), read by the next run; -trace_cache off makes nothing; HOME is the
 * fallback. */
static void test_read_only_trace_folder(void **state) {
  (void)state;
  char dir[256], traces[300], list[340], env[700], out[5][340];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  snprintf(traces, sizeof traces, "%s/traces", dir);
  assert_int_equal(mkdir(traces, 0755), 0);
  write_kernel(traces, "kernel-1.traceg", body_a, 6);
  assert_int_equal(tu_write(traces, "kernelslist.g", "kernel-1.traceg\n"), 0);
  snprintf(list, sizeof list, "%s/kernelslist.g", traces);
  for (int i = 0; i < 5; i++) snprintf(out[i], sizeof out[i], "%s/out%d.txt", dir, i);
  assert_int_equal(chmod(traces, 0555), 0);
  char *before = listing(traces);
  snprintf(env, sizeof env, "XDG_CACHE_HOME=%s/xdg", dir);
  rfsim(env, list, "-trace_cache off", out[0]);
  char xdg_rfsim[340];
  snprintf(xdg_rfsim, sizeof xdg_rfsim, "%s/xdg/rfsim", dir);
  assert_false(exists(xdg_rfsim)); /* off writes nothing, not even the folder */
  rfsim(env, list, "", out[1]);    /* cold: builds the cache there */
  assert_int_equal(tu_count_files(xdg_rfsim, ".rfc"), 1);
  char kernel[360];
  snprintf(kernel, sizeof kernel, "%s/kernel-1.traceg", traces);
  char *cache = cache_of(kernel, xdg_rfsim);
  struct stat st1, st2;
  assert_int_equal(stat(cache, &st1), 0);
  rfsim(env, list, "", out[2]); /* warm: reads it, does not rewrite it */
  assert_int_equal(stat(cache, &st2), 0);
  assert_true(st1.st_ino == st2.st_ino);
  /* HOME when XDG_CACHE_HOME is unset */
  snprintf(env, sizeof env, "-u XDG_CACHE_HOME HOME=%s/home", dir);
  rfsim(env, list, "", out[3]);
  char home_rfsim[340];
  snprintf(home_rfsim, sizeof home_rfsim, "%s/home/.cache/rfsim", dir);
  assert_int_equal(tu_count_files(home_rfsim, ".rfc"), 1);
  rfsim(env, list, "", out[4]);
  char *after = listing(traces);
  assert_string_equal(before, after);
  for (int i = 1; i < 5; i++) assert_same_file_text(out[0], out[i]);
  assert_int_equal(chmod(traces, 0755), 0);
  free(before);
  free(after);
  free(cache);
  tu_rmtree(dir);
}

/* ---- staleness ---- */

typedef struct fixture {
  char dir[320], cdir[256], trace[360];
  trace_cache_opts on;
} fixture;

static void fixture_make(fixture *f) {
  assert_int_equal(tu_mkdtemp(f->dir, sizeof f->dir), 0);
  assert_int_equal(tu_mkdtemp(f->cdir, sizeof f->cdir), 0);
  write_kernel(f->dir, "kernel-1.traceg", body_a, 4);
  snprintf(f->trace, sizeof f->trace, "%s/kernel-1.traceg", f->dir);
  f->on = (trace_cache_opts){TRACE_CACHE_ON, f->cdir, 0};
  long n;
  assert_int_equal(tu_compare_kernels(f->trace, f->trace, &f->on, &n), 0);
  assert_int_equal(tu_compare_kernels(f->trace, f->trace, &f->on, &n), 1);
}

static void fixture_free(fixture *f) {
  tu_rmtree(f->cdir);
  tu_rmtree(f->dir);
}

/* Reads through the cache once from the text (rebuilding), then from the new cache. */
static void expect_rebuilt(fixture *f) {
  long n;
  assert_int_equal(tu_compare_kernels(f->trace, f->trace, &f->on, &n), 0);
  assert_int_equal(tu_compare_kernels(f->trace, f->trace, &f->on, &n), 1);
  assert_int_equal(n, 4);
}

static void set_times(const char *path, const struct stat *like) {
  struct timespec ts[2] = {like->st_atim, like->st_mtim};
  assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static void test_moved_trace(void **state) {
  (void)state;
  fixture f;
  fixture_make(&f);
  /* the folder renamed: another path, another cache (the old one is not used) */
  char moved[300];
  snprintf(moved, sizeof moved, "%.250s-moved", f.dir);
  assert_int_equal(rename(f.dir, moved), 0);
  snprintf(f.trace, sizeof f.trace, "%s/kernel-1.traceg", moved);
  expect_rebuilt(&f);
  assert_int_equal(tu_count_files(f.cdir, ".rfc"), 2);
  snprintf(f.dir, sizeof f.dir, "%s", moved);
  fixture_free(&f);
}

/* The same size and mtime, another trace: put in place by a rename (another inode), and written
 * in place with its mtime put back (another ctime). */
static void test_replaced_trace_same_size_and_mtime(void **state) {
  (void)state;
  fixture f;
  fixture_make(&f);
  struct stat st;
  assert_int_equal(stat(f.trace, &st), 0);
  write_kernel(f.dir, "new.traceg", body_b, 4);
  char fresh[360];
  snprintf(fresh, sizeof fresh, "%s/new.traceg", f.dir);
  set_times(fresh, &st);
  assert_int_equal(rename(fresh, f.trace), 0);
  struct stat now;
  assert_int_equal(stat(f.trace, &now), 0);
  assert_true(now.st_size == st.st_size && now.st_mtim.tv_sec == st.st_mtim.tv_sec &&
              now.st_mtim.tv_nsec == st.st_mtim.tv_nsec && now.st_ino != st.st_ino);
  expect_rebuilt(&f); /* and the blocks are the new text's (compared field by field) */
  /* rewritten in place, mtime put back: only the ctime tells */
  assert_int_equal(stat(f.trace, &st), 0);
  write_kernel(f.dir, "kernel-1.traceg", body_a, 4);
  set_times(f.trace, &st);
  assert_int_equal(stat(f.trace, &now), 0);
  assert_true(now.st_ino == st.st_ino && now.st_mtim.tv_nsec == st.st_mtim.tv_nsec);
  expect_rebuilt(&f);
  fixture_free(&f);
}

/* Each field of the identity is checked on its own (the head hash cannot be changed with the
 * other fields kept, so it is forged here), and a cache of another trace or another rfsim. */
static void test_identity_and_origin_checks(void **state) {
  (void)state;
  fixture f;
  fixture_make(&f);
  int fd = open(f.trace, O_RDONLY);
  assert_true(fd >= 0);
  tc_source src;
  rf_diag d;
  assert_int_equal(tc_source_of_fd(fd, f.trace, &src, &d), 0);
  close(fd);
  char *cache = cache_of(f.trace, f.cdir);
  trace_cache_opts o = f.on;
  tc_place pl;
  assert_int_equal(tc_place_of(f.trace, &o, tc_reader_id(), &pl), 0);
  trace_kernel_info info;
  tc_reader *r = tc_reader_open(cache, &src, pl.source, &info, &d);
  assert_non_null(r);
  tc_reader_close(r);
  for (int field = 0; field < 8; field++) {
    tc_source forged = src;
    switch (field) {
    case 0: forged.size ^= 1; break;
    case 1: forged.dev ^= 1; break;
    case 2: forged.ino ^= 1; break;
    case 3: forged.head_hash ^= 1; break;
    case 4: forged.mtime_s ^= 1; break;
    case 5: forged.mtime_ns ^= 1; break;
    case 6: forged.ctime_s ^= 1; break;
    default: forged.ctime_ns ^= 1; break;
    }
    assert_null(tc_reader_open(cache, &forged, pl.source, &info, &d));
    assert_non_null(strstr(d.msg, "made from another version of the trace"));
  }
  assert_null(tc_reader_open(cache, &src, "/another/kernel-1.traceg", &info, &d));
  assert_non_null(strstr(d.msg, "made for another trace"));
  /* written by another rfsim: the reader id in the header differs */
  FILE *fp = fopen(cache, "r+b");
  assert_non_null(fp);
  fseek(fp, 16, SEEK_SET);
  int b = fgetc(fp);
  fseek(fp, 16, SEEK_SET);
  fputc(b ^ 1, fp);
  fclose(fp);
  assert_null(tc_reader_open(cache, &src, pl.source, &info, &d));
  assert_non_null(strstr(d.msg, "written by another rfsim"));
  expect_rebuilt(&f);
  /* another trace's cache copied under this one's name */
  char other_dir[340];
  snprintf(other_dir, sizeof other_dir, "%s/other", f.dir);
  assert_int_equal(mkdir(other_dir, 0755), 0);
  write_kernel(other_dir, "kernel-1.traceg", body_a, 4);
  char other[380];
  snprintf(other, sizeof other, "%s/kernel-1.traceg", other_dir);
  long n;
  assert_int_equal(tu_compare_kernels(other, other, &f.on, &n), 0);
  char *other_cache = cache_of(other, f.cdir), cmd[1200];
  snprintf(cmd, sizeof cmd, "cp %s %s", other_cache, cache);
  assert_int_equal(tu_sh(cmd), 0);
  expect_rebuilt(&f);
  free(other_cache);
  free(cache);
  fixture_free(&f);
}

/* ---- the size bound ---- */

static long size_of(const char *p) {
  struct stat st;
  assert_int_equal(stat(p, &st), 0);
  return (long)st.st_size;
}

static void age(const char *path, long seconds) {
  struct timespec ts[2];
  clock_gettime(CLOCK_REALTIME, &ts[0]);
  ts[0].tv_sec -= seconds;
  ts[1] = ts[0];
  assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static void test_size_bound(void **state) {
  (void)state;
  char dir[256], cdir[256], trace[4][300];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  assert_int_equal(tu_mkdtemp(cdir, sizeof cdir), 0);
  for (int i = 0; i < 4; i++) {
    char name[32];
    snprintf(name, sizeof name, "kernel-%d.traceg", i + 1);
    write_kernel(dir, name, body_a, 8);
    snprintf(trace[i], sizeof trace[i], "%s/%s", dir, name);
  }
  /* each cache is as large as the others: a bound of 2.5 caches keeps two */
  trace_cache_opts unbounded = {TRACE_CACHE_ON, cdir, 0};
  long n;
  tu_compare_kernels(trace[0], trace[0], &unbounded, &n);
  char *c[4];
  for (int i = 0; i < 4; i++) c[i] = cache_of(trace[i], cdir);
  long one = size_of(c[0]);
  assert_int_equal(tu_write(cdir, "notes.txt", "not a cache: never counted or deleted\n"), 0);
  assert_int_equal(tu_write(cdir, "x.rfc.partial.abc123", "a writer's, still going"), 0);
  assert_int_equal(tu_write(cdir, "y.rfc.partial.def456", "a writer gone for two days"), 0);
  char stale[300];
  snprintf(stale, sizeof stale, "%s/y.rfc.partial.def456", cdir);
  age(stale, 2 * 24 * 3600);
  age(c[0], 100);
  trace_cache_opts bounded = {TRACE_CACHE_ON, cdir, (uint64_t)(one * 5 / 2)};
  tu_compare_kernels(trace[1], trace[1], &bounded, &n);
  age(c[1], 50);
  assert_true(exists(c[0]) && exists(c[1]));
  assert_false(exists(stale));
  /* reading 0 makes it the most recent: writing 2 then evicts 1, the least recently used */
  assert_int_equal(tu_compare_kernels(trace[0], trace[0], &bounded, &n), 1);
  tu_compare_kernels(trace[2], trace[2], &bounded, &n);
  assert_true(exists(c[0]) && !exists(c[1]) && exists(c[2]));
  assert_int_equal(tu_count_files(cdir, "notes.txt"), 1);
  assert_int_equal(tu_count_files(cdir, "x.rfc.partial"), 1);
  /* a cache that could never fit the bound is not written at all */
  trace_cache_opts tiny = {TRACE_CACHE_ON, cdir, (uint64_t)one / 2};
  assert_int_equal(tu_compare_kernels(trace[3], trace[3], &tiny, &n), 0);
  assert_false(exists(c[3]));
  assert_int_equal(tu_count_files(cdir, ".partial"), 1);
  for (int i = 0; i < 4; i++) free(c[i]);
  tu_rmtree(cdir);
  tu_rmtree(dir);
}

/* ---- two builders at once ---- */

/* Opens the kernel through the cache (rebuild), tells the other process, waits for it to have
 * done the same, then reads every block: both writers exist at once. */
static int builder(const char *trace, const char *cdir, int tell, int wait_for) {
  trace_cache_opts o = {TRACE_CACHE_REBUILD, cdir, 0};
  rf_diag d;
  trace_kernel *k;
  if (trace_kernel_open_cached(trace, &o, &k, &d) < 0 || !trace_kernel_writes_cache(k)) return 1;
  char c = 'x';
  if (write(tell, &c, 1) != 1 || read(wait_for, &c, 1) != 1) return 2;
  trace_tb tb;
  int r;
  while ((r = trace_kernel_next_tb(k, &tb, &d)) > 0) trace_tb_free(&tb);
  trace_kernel_close(k);
  return r == 0 ? 0 : 3;
}

static void test_concurrent_builders(void **state) {
  (void)state;
  char dir[256], cdir[256], trace[300];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  assert_int_equal(tu_mkdtemp(cdir, sizeof cdir), 0);
  write_kernel(dir, "kernel-1.traceg", body_a, 64);
  snprintf(trace, sizeof trace, "%s/kernel-1.traceg", dir);
  for (int round = 0; round < 3; round++) {
    int ab[2], ba[2];
    assert_int_equal(pipe(ab), 0);
    assert_int_equal(pipe(ba), 0);
    pid_t a = fork();
    if (a == 0) _exit(builder(trace, cdir, ab[1], ba[0]));
    pid_t b = fork();
    if (b == 0) _exit(builder(trace, cdir, ba[1], ab[0]));
    int sa, sb;
    assert_true(waitpid(a, &sa, 0) == a && waitpid(b, &sb, 0) == b);
    assert_true(WIFEXITED(sa) && WEXITSTATUS(sa) == 0 && WIFEXITED(sb) && WEXITSTATUS(sb) == 0);
    close(ab[0]);
    close(ab[1]);
    close(ba[0]);
    close(ba[1]);
    assert_int_equal(tu_count_files(cdir, ".partial"), 0);
    assert_int_equal(tu_count_files(cdir, ".rfc"), 1);
    trace_cache_opts on = {TRACE_CACHE_ON, cdir, 0};
    long n;
    assert_int_equal(tu_compare_kernels(trace, trace, &on, &n), 1);
    assert_int_equal(n, 64);
  }
  tu_rmtree(cdir);
  tu_rmtree(dir);
}

/* Two bin/rfsim runs on the same traces and cache folder at once, cold, then warm: the same
 * stats as without a cache, and valid caches after. */
static void test_concurrent_runs(void **state) {
  (void)state;
  const char *list = "build/traces/finereg_fd/kernelslist.g";
  char dir[256], env[400], out[4][300], cmd[3000];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  snprintf(env, sizeof env, "XDG_CACHE_HOME=%s/xdg", dir);
  for (int i = 0; i < 4; i++) snprintf(out[i], sizeof out[i], "%s/out%d.txt", dir, i);
  rfsim(env, list, "-trace_cache off", out[0]);
  for (int pass = 0; pass < 2; pass++) {
    snprintf(cmd, sizeof cmd,
             "env %s bin/rfsim -trace %s -config configs/gtx480.config > %s 2>/dev/null & "
             "env %s bin/rfsim -trace %s -config configs/gtx480.config > %s 2>/dev/null; "
             "s=$?; wait $! && exit $s",
             env, list, out[1], env, list, out[2]);
    assert_int_equal(tu_sh(cmd), 0);
    assert_same_file_text(out[0], out[1]);
    assert_same_file_text(out[0], out[2]);
    char xdg_rfsim[300];
    snprintf(xdg_rfsim, sizeof xdg_rfsim, "%s/xdg/rfsim", dir);
    assert_int_equal(tu_count_files(xdg_rfsim, ".rfc"), 3);
    assert_int_equal(tu_count_files(xdg_rfsim, ".partial"), 0);
  }
  char **k;
  int nk = tu_list_kernels(list, &k);
  char cdir[300];
  snprintf(cdir, sizeof cdir, "%s/xdg/rfsim", dir);
  trace_cache_opts on = {TRACE_CACHE_ON, cdir, 0};
  for (int i = 0; i < nk; i++) {
    assert_int_equal(tu_compare_kernels(k[i], k[i], &on, NULL), 1);
    free(k[i]);
  }
  free(k);
  tu_rmtree(dir);
}

int main(void) {
  tu_private_cache();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_user_cache_folder),
      cmocka_unit_test(test_read_only_trace_folder),
      cmocka_unit_test(test_moved_trace),
      cmocka_unit_test(test_replaced_trace_same_size_and_mtime),
      cmocka_unit_test(test_identity_and_origin_checks),
      cmocka_unit_test(test_size_bound),
      cmocka_unit_test(test_concurrent_builders),
      cmocka_unit_test(test_concurrent_runs),
  };
  return cmocka_run_group_tests_name("trace cache store", tests, NULL, NULL);
}
