/* Tests of tracetile, which makes the benchmark's inputs by tiling a trace to more blocks, and of
 * traceinfo's counts on the real traces it tiles. Run from the repository root; SHARED names the
 * folder with the real traces (default ../shared; their test is skipped without it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "../csim/trace/trace.h"
#include "../csim/tracegen/tg_info.h"
#include "../csim/tracegen/tg_tile.h"
#include "common/test_util.h"

/* ---- helpers ------------------------------------------------------------------------------ */

#define P(name) (tu_path_in(f, (name)).s) /* a path inside the fixture's folder */

/* ---- tracetile ---------------------------------------------------------------------------- */

typedef struct tile_check {
  long tbs;
  long counts[16][8]; /* per output block, per warp */
} tile_check;

static void tile_tb(const trace_kernel_info *info, const trace_tb *tb, void *arg) {
  tile_check *t = arg;
  assert_int_equal(info->grid[0], 7);
  assert_int_equal(tb->id[0], t->tbs); /* blocks renumbered 0..N-1 in order */
  for (int w = 0; w < tb->nwarps && w < 8; w++) t->counts[t->tbs][w] = tb->warps[w].n;
  t->tbs++;
}

static void orig_tb(const trace_kernel_info *info, const trace_tb *tb, void *arg) {
  (void)info;
  tile_check *t = arg;
  for (int w = 0; w < tb->nwarps && w < 8; w++) t->counts[t->tbs][w] = tb->warps[w].n;
  t->tbs++;
}

static void test_tracetile(void **state) {
  tu_fixture *f = *state;
  tu_tg_generate_ok("kernel = t\ngrid = 3\nblock = 96\nnregs = 12\niters = 4\n"
                    "imbalance = ray 1 6\nload = global coalesced\n",
                    P("orig"));
  rf_diag d = {{0}, 0};
  if (tg_tile(P("orig/kernelslist.g"), P("tiled"), 7, TG_STREAM_PLAIN, &d) < 0)
    fail_msg("%s", d.msg);
  tile_check orig = {0}, tiled = {0};
  tu_for_each_tb(P("orig"), "kernel-1.traceg", orig_tb, &orig);
  tu_for_each_tb(P("tiled"), "kernel-1.traceg", tile_tb, &tiled);
  assert_int_equal(tiled.tbs, 7);
  for (int i = 0; i < 7; i++)
    for (int w = 0; w < 3; w++) assert_int_equal(tiled.counts[i][w], orig.counts[i % 3][w]);
  assert_true(tu_same_file(P("orig/kernelslist.g"), P("tiled/kernelslist.g")));
  /* --xz: the same blocks, from kernel-1.traceg.xz */
  if (tg_tile(P("orig/kernelslist.g"), P("tiledxz"), 7, TG_STREAM_XZ, &d) < 0)
    fail_msg("%s", d.msg);
  char text_path[1100], xz_path[1100];
  snprintf(text_path, sizeof text_path, "%s", P("tiled/kernel-1.traceg"));
  snprintf(xz_path, sizeof xz_path, "%s", P("tiledxz/kernel-1.traceg.xz"));
  long n;
  tu_compare_kernels(text_path, xz_path, NULL, &n);
  assert_int_equal(n, 7);
  /* Tiling to the original count reproduces the file byte for byte. */
  assert_int_equal(tg_tile(P("orig/kernelslist.g"), P("same"), 3, TG_STREAM_PLAIN, &d), 0);
  assert_true(tu_same_file(P("orig/kernel-1.traceg"), P("same/kernel-1.traceg")));
  assert_int_equal(tg_tile(P("orig/kernelslist.g"), P("bad"), 0, TG_STREAM_PLAIN, &d), -1);
  assert_string_equal(d.msg, "expected --tbs between 1 and 2147483647, found 0");
  /* an input grid whose product overflows is refused with its sizes as read */
  FILE *fp = fopen(P("big/kernel-1.traceg"), "w");
  if (!fp) {
    assert_int_equal(mkdir(P("big"), 0755), 0);
    fp = fopen(P("big/kernel-1.traceg"), "w");
  }
  assert_non_null(fp);
  fputs("-kernel name = k\n-grid dim = (2000000000,2000000000,65529)\n#BEGIN_TB\n#END_TB\n", fp);
  fclose(fp);
  fp = fopen(P("big/kernelslist.g"), "w");
  assert_non_null(fp);
  fputs("kernel-1.traceg\n", fp);
  fclose(fp);
  assert_int_equal(tg_tile(P("big/kernelslist.g"), P("bigout"), 2, TG_STREAM_PLAIN, &d), -1);
  assert_non_null(strstr(d.msg, "big/kernel-1.traceg:2: -grid dim: expected at most 2147483647 "
                                "thread blocks (x*y*z), found (2000000000,2000000000,65529)"));
}

/* ---- the real traces (skipped when ../shared is absent) ----------------------------------- */

static int info_of_list(const char *list, uint64_t *warp_insts, uint64_t *thread_insts) {
  rf_diag d = {{0}, 0};
  trace_list *l;
  if (trace_list_read(list, &l, &d) < 0) fail_msg("%s", d.msg);
  *warp_insts = *thread_insts = 0;
  for (int c = 0; c < l->ncmds; c++) {
    if (l->cmds[c].kind != TRACE_CMD_KERNEL) continue;
    tg_info s;
    trace_kernel_info in;
    tg_info_init(&s);
    if (tg_info_kernel(l->cmds[c].path, &in, &s, &d) < 0) fail_msg("%s", d.msg);
    *warp_insts += s.warp_insts;
    *thread_insts += s.thread_insts;
    tg_info_free(&s);
  }
  trace_list_free(l);
  return 0;
}

static void test_real_traces(void **state) {
  tu_fixture *f = *state;
  char mm[512], va[512];
  if (!tu_shared_trace("matrixmul_sm61/kernelslist.g", mm, sizeof mm) ||
      !tu_shared_trace("vectoradd_sm61/kernelslist.g", va, sizeof va))
    skip();
  uint64_t w, t;
  info_of_list(mm, &w, &t);
  assert_int_equal(w, 4416);
  assert_int_equal(t, 139264);
  info_of_list(va, &w, &t);
  assert_int_equal(w, 344);
  assert_int_equal(t, 10516);
  /* The benchmark's input: matrixmul tiled to 240 blocks. */
  rf_diag d = {{0}, 0};
  if (tg_tile(mm, P("mm240"), 240, TG_STREAM_PLAIN, &d) < 0) fail_msg("%s", d.msg);
  info_of_list(P("mm240/kernelslist.g"), &w, &t);
  assert_int_equal(w, 1059840);
  assert_int_equal(t, 139264ull * 240);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_FIXTURE_TEST(test_tracetile),
      TU_FIXTURE_TEST(test_real_traces),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
