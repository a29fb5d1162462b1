/* Registers' ready times are kept in 32 bits, counted from an epoch each SM moves on every 4,096
 * cycles (csim/core/sm_internal.h, reg_time; warp.c, reg_rebase). Moving it must change nothing:
 * runs that re-count every cycle, or every few cycles with several threads, must match the
 * default's stats byte for byte, on generated workloads and on a hand-written kernel whose
 * latencies (5,000 cycles) outlast the default span, so that times far ahead cross epochs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/config/config.h"
#include "../csim/gpu/gpu.h"
#include "common/test_util.h"

static void set_span(gpu *g, void *ctx) { gpu_set_reg_epoch_span(g, *(const uint32_t *)ctx); }

static char *run(const gpu_config *c, uint32_t span, int threads, const char *list) {
  return tu_run_list_setup(c, set_span, &span, threads, list);
}

/* The default span against every cycle, and against 7 cycles on two threads; the default's
 * run long enough to move its epoch twice or more. */
static void expect_same(const gpu_config *c, const char *list) {
  char *ref = run(c, 4096, 1, list);
  char *every = run(c, 1, 1, list);
  char *seven = run(c, 7, 2, list);
  assert_null(strstr(ref, "gpgpu_n_tot_w_icount = 0\n"));
  const char *cycles = strstr(ref, "gpu_sim_cycle = ");
  assert_non_null(cycles);
  assert_true(strtoull(cycles + strlen("gpu_sim_cycle = "), NULL, 10) > 2 * 4096);
  assert_string_equal(ref, every);
  assert_string_equal(ref, seven);
  free(ref);
  free(every);
  free(seven);
}

/* Dependent chains of long-latency ALU and SFU work, and loads whose registers wait on memory
 * across epochs. */
static const char *const bodies[] = {
    "1 R1 IADD 0 0\n1 R2 IADD 1 R1 0\n1 R3 MUFU.RCP 1 R2 0\n1 R4 IADD 2 R3 R1 0\n"
    "1 R5 LDG.E 0 4 1 0x10000 4\n1 R6 IADD 2 R5 R4 0\n0 EXIT 0 0\n",
    "1 R1 MUFU.RCP 0 0\n1 R2 LDG.E 0 4 1 0x20000 128\n1 R3 FFMA 2 R1 R2 0\n"
    "0 BAR.SYNC 0 0\n1 R4 IADD 1 R3 0\n0 EXIT 0 0\n"};

static void test_long_latencies(void **state) {
  (void)state;
  const char *const opts[][2] = {{"-gpgpu_n_clusters", "2"},
                                 {"-trace_opcode_latency_initiation_int", "5000,1"},
                                 {"-trace_opcode_latency_initiation_sfu", "9000,8"}};
  gpu_config c;
  tu_load_config(&c, "configs/gtx480.config", opts, 3);
  char dir[256], list[512];
  char *text = tu_kernel_text("epoch", 6, 4, 8, bodies, 2);
  tu_kernel_dir(dir, sizeof dir, list, sizeof list, text);
  free(text);
  expect_same(&c, list);
  tu_rmtree(dir);
}

static void test_workloads(void **state) {
  (void)state;
  static const char *const runs[][2] = {{"regshare_sgemm", "configs/gtx480.config"},
                                        {"warpman_ray", "configs/titanv.config"},
                                        {"warpman_mm", "configs/gtx980.config"}};
  tu_each_workload(runs, sizeof runs / sizeof runs[0], expect_same);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_long_latencies),
      cmocka_unit_test(test_workloads),
  };
  return cmocka_run_group_tests_name("register ready times across epochs", tests, NULL, NULL);
}
