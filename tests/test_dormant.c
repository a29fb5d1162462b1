/* The GPU's loop passes over an SM that sleeps and whose cycle would do nothing
 * (sm_dormant_until: no blocks, or a sleep counted when it ends), unless the memory system has
 * a reply for it; a launch and a kernel's start wake it (csim/gpu/gpu.c). Stepping every SM
 * every cycle must give the same stats byte for byte: on generated workloads, and on kernels
 * of a few blocks each (most SMs empty, woken one by one by launches, several kernels in a
 * row), on one thread and on two. */
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

static void step_all(gpu *g, void *ctx) { gpu_step_dormant_sms(g, *(const int *)ctx); }

static char *run(const gpu_config *c, int every, int threads, const char *list) {
  return tu_run_list_setup(c, step_all, &every, threads, list);
}

static void expect_same(const gpu_config *c, const char *list) {
  char *passed = run(c, 0, 1, list);
  char *stepped = run(c, 1, 1, list);
  char *team = run(c, 0, 2, list);
  assert_null(strstr(passed, "gpgpu_n_tot_w_icount = 0\n"));
  assert_string_equal(passed, stepped);
  assert_string_equal(passed, team);
  free(passed);
  free(stepped);
  free(team);
}

/* Loads and long chains, so that SMs with blocks sleep on memory and on the scoreboard. */
static const char *const bodies[] = {
    "1 R1 LDG.E 0 4 1 0x10000 4\n1 R2 IADD 2 R1 R1 0\n1 R3 MUFU.RCP 1 R2 0\n"
    "1 R4 LDG.E 0 4 1 0x20000 128\n1 R5 FFMA 2 R4 R3 0\n0 BAR.SYNC 0 0\n0 EXIT 0 0\n",
    "1 R1 MUFU.RCP 0 0\n1 R2 MUFU.RCP 1 R1 0\n1 R3 LDG.E 0 4 1 0x30000 4\n0 BAR.SYNC 0 0\n"
    "1 R4 IADD 2 R3 R2 0\n0 EXIT 0 0\n"};

static void few_blocks(const char *config) {
  gpu_config c;
  tu_load_config(&c, config, NULL, 0);
  char dir[256], list[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  /* three kernels of 3, 1 and 5 blocks: most SMs stay empty, and each kernel starts anew */
  const int blocks[] = {3, 1, 5};
  char names[3][32], lines[128] = "";
  for (int k = 0; k < 3; k++) {
    snprintf(names[k], sizeof names[k], "kernel-%d.traceg", k + 1);
    char *text = tu_kernel_text("few", blocks[k], 4, 8, bodies, 2);
    assert_non_null(text);
    assert_int_equal(tu_write(dir, names[k], text), 0);
    free(text);
    strcat(lines, names[k]);
    strcat(lines, "\n");
  }
  assert_int_equal(tu_write(dir, "kernelslist.g", lines), 0);
  snprintf(list, sizeof list, "%s/kernelslist.g", dir);
  expect_same(&c, list);
  tu_rmtree(dir);
}

static void test_few_blocks_gtx480(void **state) {
  (void)state;
  few_blocks("configs/gtx480.config");
}

static void test_few_blocks_titanv(void **state) {
  (void)state;
  few_blocks("configs/titanv.config");
}

static void test_workloads(void **state) {
  (void)state;
  static const char *const runs[][2] = {{"regshare_sgemm", "configs/titanv.config"},
                                        {"finereg_km", "configs/gtx480.config"},
                                        {"warpman_mm", "configs/gtx980.config"}};
  tu_each_workload(runs, sizeof runs / sizeof runs[0], expect_same);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_few_blocks_gtx480),
      cmocka_unit_test(test_few_blocks_titanv),
      cmocka_unit_test(test_workloads),
  };
  return cmocka_run_group_tests_name("sleeping SMs passed over", tests, NULL, NULL);
}
