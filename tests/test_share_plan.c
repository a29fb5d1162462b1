/* Occupancy under register and scratchpad sharing (csim/policy/share_plan.c):
 *  - resource_sharing Table VI (register sharing, Set-1, Tesla C2050) and Table VIII
 *    (scratchpad sharing, Set-2, Tesla C2050 with 16 KB) entry for entry, from the generated
 *    workloads' trace headers (make workloads), and bin/occupancy printing both with -paper;
 *  - the split into unshared TBs and pairs: S + U = g, U + 2S = M, the resource bound
 *    U*Rtb + S*Rtb*(1+t) <= R; the 2g cap; no sharing when M is not above the baseline;
 *    the private part of a shared TB. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "../csim/config/config.h"
#include "../csim/policy/share_plan.h"
#include "../csim/trace/trace.h"

static void load(gpu_config *c, const char *path) {
  rf_diag d;
  config_notes n;
  config_notes_init(&n, NULL);
  config_defaults(c);
  if (config_load_file(c, path, &n, &d) < 0) fail_msg("%s", d.msg);
  if (config_validate(c, &d) < 0) fail_msg("%s", d.msg);
}

static trace_kernel_info kernel_of(const char *workload) {
  char list[256];
  snprintf(list, sizeof list, "build/traces/%s/kernelslist.g", workload);
  rf_diag d = {{0}, 0};
  trace_list *l;
  if (trace_list_read(list, &l, &d) < 0) fail_msg("%s (run make workloads)", d.msg);
  trace_kernel *kt;
  if (trace_kernel_open(l->cmds[l->ncmds - 1].path, &kt, &d) < 0) fail_msg("%s", d.msg);
  trace_kernel_info k = *trace_kernel_get_info(kt);
  trace_kernel_close(kt);
  trace_list_free(l);
  return k;
}

typedef struct row {
  const char *workload;
  int tbs[6]; /* 0, 10, 30, 50, 70, 90 % sharing */
} row;

static const int pct[6] = {0, 10, 30, 50, 70, 90};

static void check_table(const char *config, share_resource r, const row *rows, size_t n) {
  gpu_config c;
  load(&c, config);
  for (size_t i = 0; i < n; i++) {
    trace_kernel_info k = kernel_of(rows[i].workload);
    for (int j = 0; j < 6; j++) {
      share_plan p;
      share_plan_compute(&c, &k, r, 1000 - 10 * pct[j], &p);
      if (p.resident != rows[i].tbs[j])
        fail_msg("%s at %d%% sharing: %d resident TBs, the paper's table says %d",
                 rows[i].workload, pct[j], p.resident, rows[i].tbs[j]);
    }
  }
}

static void test_table6_register_sharing(void **st) {
  (void)st;
  static const row t6[] = {
      {"regshare_backprop", {5, 5, 5, 5, 6, 6}}, {"regshare_btree", {2, 2, 2, 3, 3, 3}},
      {"regshare_hotspot", {3, 3, 3, 4, 4, 6}},  {"regshare_lib", {4, 4, 5, 5, 6, 8}},
      {"regshare_mum", {4, 4, 4, 5, 5, 6}},      {"regshare_mriq", {5, 5, 5, 5, 6, 6}},
      {"regshare_sgemm", {5, 5, 5, 5, 6, 8}},    {"regshare_stencil", {2, 2, 2, 2, 2, 3}},
  };
  check_table("configs/tesla_c2050.config", SHARE_REGISTERS, t6, sizeof t6 / sizeof t6[0]);
}

static void test_table8_scratchpad_sharing(void **st) {
  (void)st;
  static const row t8[] = {
      {"spshare_conv1", {6, 6, 6, 6, 7, 8}},  {"spshare_conv2", {3, 3, 3, 3, 3, 4}},
      {"spshare_lavamd", {2, 2, 2, 2, 2, 4}}, {"spshare_nw1", {7, 7, 7, 8, 8, 8}},
      {"spshare_nw2", {7, 7, 7, 8, 8, 8}},    {"spshare_srad1", {2, 2, 2, 3, 4, 4}},
      {"spshare_srad2", {3, 3, 3, 3, 3, 5}},
  };
  check_table("configs/tesla_c2050_scratchpad.config", SHARE_SCRATCHPAD, t8,
              sizeof t8 / sizeof t8[0]);
}

static trace_kernel_info shape(int threads, int nregs, int shmem) {
  trace_kernel_info k;
  memset(&k, 0, sizeof k);
  k.threads_per_tb = threads;
  k.warps_per_tb = (threads + 31) / 32;
  k.nregs = nregs;
  k.shmem = shmem;
  return k;
}

static void test_split_and_bounds(void **st) {
  (void)st;
  gpu_config c;
  load(&c, "configs/tesla_c2050.config");
  /* hotspot: Rtb = 9216, g = 3; t = 0.1: M = floor(3 + 5120/921.6) = 8, capped to 6 by
   * threads: S = 3 pairs, U = 0 */
  trace_kernel_info k = shape(256, 36, 3072);
  share_plan p;
  share_plan_compute(&c, &k, SHARE_REGISTERS, 100, &p);
  assert_int_equal(p.baseline, 3);
  assert_int_equal(p.g, 3);
  assert_int_equal(p.formula, 8);
  assert_int_equal(p.resident, 6);
  assert_string_equal(p.limit, "threads");
  assert_int_equal(p.pairs, 3);
  assert_int_equal(p.unshared, 0);
  assert_int_equal(p.private_units, 3); /* floor(36 * 0.1) registers per thread */
  /* t = 0.5: M = 4: one pair, two unshared; U*Rtb + S*Rtb*1.5 = 32256 <= 32768 */
  share_plan_compute(&c, &k, SHARE_REGISTERS, 500, &p);
  assert_int_equal(p.resident, 4);
  assert_int_equal(p.pairs, 1);
  assert_int_equal(p.unshared, 2);
  assert_true(p.unshared * 9216 + p.pairs * 9216 * 3 / 2 <= 32768);
  assert_int_equal(p.pairs + p.unshared, p.g);
  /* t = 0.7: M = 3 = baseline: no sharing at all */
  share_plan_compute(&c, &k, SHARE_REGISTERS, 700, &p);
  assert_int_equal(p.resident, 3);
  assert_int_equal(p.pairs, 0);
  assert_string_equal(p.limit, "baseline");
  /* every t and a range of shapes: the split always satisfies the paper's three relations */
  for (int threads = 32; threads <= 1024; threads += 32)
    for (int regs = 4; regs <= 63; regs += 3)
      for (int t = 50; t <= 1000; t += 50) {
        k = shape(threads, regs, 0);
        share_plan_compute(&c, &k, SHARE_REGISTERS, t, &p);
        if (!p.pairs) {
          assert_int_equal(p.resident, p.baseline);
          continue;
        }
        long long rtb = (long long)((regs + 3) / 4 * 4) * threads;
        assert_int_equal(p.pairs + p.unshared, p.g);
        assert_int_equal(p.unshared + 2 * p.pairs, p.resident);
        assert_true(p.unshared * rtb * 1000 + p.pairs * rtb * (1000 + t) <= 32768LL * 1000);
        assert_true(p.resident > p.baseline);
        assert_true(p.resident <= 2 * p.g);
      }
  /* a TB without shared memory has nothing to share in the scratchpad */
  k = shape(256, 36, 0);
  share_plan_compute(&c, &k, SHARE_SCRATCHPAD, 100, &p);
  assert_int_equal(p.pairs, 0);
  assert_int_equal(p.resident, 3);
  /* scratchpad private part: floor(Rtb * t) bytes (lavaMD, t = 0.1: 720) */
  load(&c, "configs/tesla_c2050_scratchpad.config");
  k = shape(128, 40, 7200);
  share_plan_compute(&c, &k, SHARE_SCRATCHPAD, 100, &p);
  assert_int_equal(p.resident, 4);
  assert_int_equal(p.pairs, 2);
  assert_int_equal(p.private_units, 720);
  assert_string_equal(p.limit, "sharing formula");
  /* SRAD1, t = 0.1: the formula gives 8, threads 6, and S <= g caps it at 2g = 4 */
  k = shape(256, 24, 6144);
  share_plan_compute(&c, &k, SHARE_SCRATCHPAD, 100, &p);
  assert_int_equal(p.formula, 8);
  assert_int_equal(p.resident, 4);
  assert_string_equal(p.limit, "2g");
}

/* bin/occupancy prints both tables beside the paper's and exits 0 only when all agree. */
static void test_occupancy_tool(void **st) {
  (void)st;
  if (access("bin/occupancy", X_OK) != 0) fail_msg("bin/occupancy missing");
  int rc = system("bin/occupancy -config configs/tesla_c2050.config -resource registers "
                  "-paper traces/paper/resource_sharing_table6.txt "
                  "build/traces/regshare_backprop/kernelslist.g "
                  "build/traces/regshare_btree/kernelslist.g "
                  "build/traces/regshare_hotspot/kernelslist.g "
                  "build/traces/regshare_lib/kernelslist.g "
                  "build/traces/regshare_mum/kernelslist.g "
                  "build/traces/regshare_mriq/kernelslist.g "
                  "build/traces/regshare_sgemm/kernelslist.g "
                  "build/traces/regshare_stencil/kernelslist.g "
                  "> /dev/null");
  assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
  /* a workload missing from the command line is reported as a difference */
  rc = system("bin/occupancy -config configs/tesla_c2050.config -resource registers "
              "-paper traces/paper/resource_sharing_table6.txt "
              "build/traces/regshare_mum/kernelslist.g > /dev/null");
  assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 1);
  rc = system("bin/occupancy -config configs/tesla_c2050.config -resource register "
              "build/traces/regshare_mum/kernelslist.g > /dev/null 2>&1");
  assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table6_register_sharing),
      cmocka_unit_test(test_table8_scratchpad_sharing),
      cmocka_unit_test(test_split_and_bounds),
      cmocka_unit_test(test_occupancy_tool),
  };
  return cmocka_run_group_tests_name("share_plan", tests, NULL, NULL);
}
