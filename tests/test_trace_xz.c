/* xz-compressed traces (kernel-N.traceg.xz, as Accel-Sim's tracer writes them with
 * TRACE_FILE_COMPRESS=1): an xz copy of every generated workload and of the real traces
 * (skipped without ../shared) gives the text's thread blocks, and the same stats byte for byte;
 * a truncated, corrupt or misnamed archive is an error naming the file and the byte offset;
 * tracegen --xz writes archives that decode to its text; the writer's stream reports a full
 * disk. The archives are made here with liblzma (tg_stream), never with the xz program.
 * Needs the generated workloads (make workloads). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../csim/config/config.h"
#include "../csim/hw/unit.h"
#include "../csim/stats/stats.h"
#include "../csim/trace/trace.h"
#include "../csim/trace/trace_input.h"
#include "../csim/tracegen/tg_gen.h"
#include "../csim/tracegen/tg_stream.h"
#include "common/test_util.h"

/* ---- making archives ---- */

/* Whether every kernel `list` names is a text trace (make bench leaves an archived copy of the
 * tiled matrixmul in build/traces: nothing to compress there). */
static int text_kernels(const char *list) {
  char **k;
  int n = tu_list_kernels(list, &k), text = 1;
  for (int i = 0; i < n; i++) {
    size_t len = strlen(k[i]);
    text &= !(len >= 3 && !strcmp(k[i] + len - 3, ".xz"));
    free(k[i]);
  }
  free(k);
  return text;
}

/* The xz copy of `list` reads as the same thread blocks, kernel by kernel. */
static void same_streams(const char *list) {
  char dir[256], xz_list[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  tu_xz_folder(list, dir, xz_list, sizeof xz_list);
  char **text, **xz;
  int n = tu_list_kernels(list, &text);
  assert_int_equal(tu_list_kernels(xz_list, &xz), n);
  for (int i = 0; i < n; i++) {
    assert_non_null(strstr(xz[i], ".traceg.xz"));
    tu_compare_kernels(text[i], xz[i], NULL, NULL);
    free(text[i]);
    free(xz[i]);
  }
  free(text);
  free(xz);
  tu_rmtree(dir);
}

static void test_every_workload_streams(void **state) {
  (void)state;
  DIR *dd = opendir("build/traces");
  if (!dd) fail_msg("build/traces missing (run make workloads)");
  /* Under the sanitizers (make test-sanitize sets RFSIM_SUITE_ROTATE) every fourth workload:
   * the decoder and the reader are the same for each, and CI's time is bounded. */
  int every = getenv("RFSIM_SUITE_ROTATE") ? 4 : 1, seen = 0;
  struct dirent *e;
  int lists = 0;
  while ((e = readdir(dd))) {
    char list[512];
    snprintf(list, sizeof list, "build/traces/%s/kernelslist.g", e->d_name);
    /* matrixmul_x240 is the tiling of the real trace read below */
    if (e->d_name[0] == '.' || !strcmp(e->d_name, "matrixmul_x240") || access(list, R_OK) != 0 ||
        !text_kernels(list))
      continue;
    if (seen++ % every) continue;
    same_streams(list);
    lists++;
  }
  closedir(dd);
  assert_true(lists >= 50 / every);
}

static const char *const real_traces[] = {"matrixmul_sm61/kernelslist.g",
                                          "vectoradd_sm61/kernelslist.g"};

static void test_real_trace_streams(void **state) {
  (void)state;
  char buf[512];
  int found = 0;
  for (size_t i = 0; i < sizeof real_traces / sizeof *real_traces; i++)
    if (tu_shared_trace(real_traces[i], buf, sizeof buf)) {
      same_streams(buf);
      found++;
    }
  if (!found) skip();
}

/* ---- the same stats ---- */

static void gtx480(gpu_config *c) {
  rf_diag d;
  config_notes notes;
  config_notes_init(&notes, NULL);
  config_defaults(c);
  if (config_load_file(c, "configs/gtx480.config", &notes, &d) < 0 || config_validate(c, &d) < 0)
    fail_msg("%s", d.msg);
}

static void same_stats(const char *list) {
  char dir[256], xz_list[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  tu_xz_folder(list, dir, xz_list, sizeof xz_list);
  gpu_config c;
  gtx480(&c);
  stats_record ta, tb;
  char *a = tu_run_list(&c, (int)HW_C, list, &ta);
  char *b = tu_run_list(&c, (int)HW_C, xz_list, &tb);
  assert_true(strlen(a) > 1000);
  assert_string_equal(a, b);
  free(a);
  free(b);
  stats_free(&ta);
  stats_free(&tb);
  tu_rmtree(dir);
}

/* Every real trace, and one generated workload of each kind (finereg_fd has three kernels). */
static void test_stats_identical(void **state) {
  (void)state;
  static const char *const lists[] = {
      "build/traces/regshare_gaussian_fan2/kernelslist.g", "build/traces/finereg_fd/kernelslist.g",
      "build/traces/spshare_conv1/kernelslist.g", "build/traces/warpman_rs/kernelslist.g",
      "build/traces/larf_mm/kernelslist.g"};
  for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) same_stats(lists[i]);
  char buf[512];
  for (size_t i = 0; i < sizeof real_traces / sizeof *real_traces; i++)
    if (tu_shared_trace(real_traces[i], buf, sizeof buf)) same_stats(buf);
}

/* ---- bad archives ---- */

static long file_size(const char *path) {
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  return (long)st.st_size;
}

static void copy_prefix(const char *src, const char *dst, long n) {
  FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
  assert_non_null(in);
  assert_non_null(out);
  for (long i = 0; i < n; i++) {
    int ch = fgetc(in);
    assert_true(ch != EOF);
    fputc(ch, out);
  }
  fclose(in);
  assert_int_equal(fclose(out), 0);
}

/* Reads a kernel file to its end; the error message (without the folder), or "" if none. */
static void read_all(const char *path, char *msg, size_t n) {
  rf_diag d = {{0}, 0};
  trace_kernel *k;
  int r = trace_kernel_open(path, &k, &d);
  if (r == 0) {
    trace_tb tb;
    while ((r = trace_kernel_next_tb(k, &tb, &d)) > 0) trace_tb_free(&tb);
    trace_kernel_close(k);
  }
  const char *slash = r < 0 ? strrchr(d.msg, '/') : NULL;
  snprintf(msg, n, "%s", r < 0 ? (slash ? slash + 1 : d.msg) : "");
}

static void test_bad_archives(void **state) {
  (void)state;
  char dir[256], good[300], bad[300], msg[1100];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  snprintf(good, sizeof good, "%s/kernel-1.traceg.xz", dir);
  snprintf(bad, sizeof bad, "%s/kernel-2.traceg.xz", dir);
  tu_xz_file("build/traces/finereg_fd/kernel-1.traceg", good);
  long size = file_size(good);
  read_all(good, msg, sizeof msg);
  assert_string_equal(msg, "");
  /* cut short: inside the stream header, inside the data, just before the stream's end */
  const long cuts[] = {3, 20, size / 2, size - 1};
  for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
    copy_prefix(good, bad, cuts[i]);
    read_all(bad, msg, sizeof msg);
    char want[200];
    if (cuts[i] < 6) /* not even the magic */
      snprintf(want, sizeof want, "kernel-2.traceg.xz: expected an xz archive (the name ends in "
                                  ".xz), found no xz header at byte 0");
    else
      snprintf(want, sizeof want, "kernel-2.traceg.xz: truncated xz archive: its data ends at "
                                  "byte %ld, inside a stream", cuts[i]);
    if (strcmp(msg, want)) fail_msg("cut at %ld:\n  want: %s\n  got:  %s", cuts[i], want, msg);
  }
  /* a damaged byte in the data: found by the block's check, at or after the damage */
  copy_prefix(good, bad, size);
  FILE *f = fopen(bad, "r+b");
  assert_non_null(f);
  fseek(f, size / 3, SEEK_SET);
  int ch = fgetc(f);
  fseek(f, size / 3, SEEK_SET);
  fputc(ch ^ 0x40, f);
  fclose(f);
  read_all(bad, msg, sizeof msg);
  long at = -1;
  if (sscanf(msg, "kernel-2.traceg.xz: corrupt xz archive: damaged data at or before byte %ld",
             &at) != 1 || at < size / 3 || at > size)
    fail_msg("damaged at byte %ld: '%s'", size / 3, msg);
  /* garbage after the archive */
  copy_prefix(good, bad, size);
  f = fopen(bad, "ab");
  fputs("trailing", f);
  fclose(f);
  read_all(bad, msg, sizeof msg);
  assert_non_null(strstr(msg, "kernel-2.traceg.xz: "));
  assert_non_null(strstr(msg, "xz archive"));
  /* text under an .xz name is refused, not read as text; an empty file too */
  assert_int_equal(tu_write(dir, "kernel-2.traceg.xz", "-kernel name = k\n"), 0);
  read_all(bad, msg, sizeof msg);
  assert_string_equal(msg, "kernel-2.traceg.xz: expected an xz archive (the name ends in .xz), "
                           "found no xz header at byte 0");
  assert_int_equal(tu_write(dir, "kernel-2.traceg.xz", ""), 0);
  read_all(bad, msg, sizeof msg);
  assert_string_equal(msg, "kernel-2.traceg.xz: expected an xz archive (the name ends in .xz), "
                           "found no xz header at byte 0");
  /* an archive under a plain name is still an archive (told by its first bytes) */
  char plain_name[300];
  snprintf(plain_name, sizeof plain_name, "%s/kernel-3.traceg", dir);
  assert_int_equal(rename(good, plain_name), 0);
  tu_compare_kernels("build/traces/finereg_fd/kernel-1.traceg", plain_name, NULL, NULL);
  tu_rmtree(dir);
}

/* ---- the writer: tracegen --xz and the stream's errors ---- */

static void test_tracegen_xz(void **state) {
  (void)state;
  char dir[256], plain[300], xz[300];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  snprintf(plain, sizeof plain, "%s/plain", dir);
  snprintf(xz, sizeof xz, "%s/xz", dir);
  rf_diag d;
  tg_spec *s;
  if (tg_spec_load("traces/finereg_fd.spec", &s, &d) < 0) fail_msg("%s", d.msg);
  assert_int_equal(tg_generate(s, plain, TG_STREAM_PLAIN, &d), 0);
  assert_int_equal(tg_generate(s, xz, TG_STREAM_XZ, &d), 0);
  tg_spec_free(s);
  char list[400];
  snprintf(list, sizeof list, "%s/kernelslist.g", xz);
  char **k;
  int n = tu_list_kernels(list, &k);
  assert_int_equal(n, 3);
  for (int i = 0; i < n; i++) {
    char want[64];
    snprintf(want, sizeof want, "/kernel-%d.traceg.xz", i + 1);
    assert_non_null(strstr(k[i], want));
    /* decodes to the plain output byte for byte */
    char text_path[400];
    snprintf(text_path, sizeof text_path, "%s/kernel-%d.traceg", plain, i + 1);
    FILE *f = fopen(text_path, "rb");
    assert_non_null(f);
    trace_input *in;
    assert_int_equal(trace_input_open(k[i], &in, &d), 0);
    assert_true(trace_input_is_xz(in));
    static char a[65536], b[65536];
    long got;
    while ((got = trace_input_read(in, a, sizeof a, &d)) > 0) {
      assert_int_equal(fread(b, 1, (size_t)got, f), (size_t)got);
      assert_memory_equal(a, b, (size_t)got);
    }
    assert_int_equal(got, 0);
    assert_int_equal(fgetc(f), EOF);
    fclose(f);
    trace_input_close(in);
    free(k[i]);
  }
  free(k);
  tu_rmtree(dir);
}

static void test_stream_errors(void **state) {
  (void)state;
  rf_diag d;
  /* a full disk: the first failure is the one reported, at the latest by the close */
  for (int kind = TG_STREAM_PLAIN; kind <= TG_STREAM_XZ; kind++) {
    tg_stream *s = tg_stream_open("/dev/full", (tg_stream_kind)kind, &d);
    if (!s) skip();
    int failed = 0;
    for (int i = 0; i < 200000 && !failed; i++)
      failed = tg_stream_printf(s, "%04x ffffffff 1 R%d IADD 2 R1 R2 0 %d\n", i, i % 200, i) < 0;
    assert_int_equal(tg_stream_close(s, &d), -1);
    assert_string_equal(d.msg, "/dev/full: write error: No space left on device");
  }
  assert_null(tg_stream_open("/nonexistent/kernel-1.traceg.xz", TG_STREAM_XZ, &d));
  assert_string_equal(d.msg, "/nonexistent/kernel-1.traceg.xz: cannot create: No such file or "
                             "directory");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bad_archives),       cmocka_unit_test(test_tracegen_xz),
      cmocka_unit_test(test_stream_errors),      cmocka_unit_test(test_real_trace_streams),
      cmocka_unit_test(test_stats_identical),    cmocka_unit_test(test_every_workload_streams),
  };
  return cmocka_run_group_tests_name("xz traces", tests, NULL, NULL);
}
