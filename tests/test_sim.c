/* The cycle model end to end on tiny hand-written traces: scheduler orderings cycle by cycle,
 * the scoreboard, barriers, determinism, and the watchdog on a kernel that deadlocks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/config/config.h"
#include "../csim/core/sm.h"
#include "../csim/gpu/gpu.h"
#include "common/test_util.h"

/* One-SM GTX480 with a single scheduler, so issue order is fully visible. */
static void tiny_config(gpu_config *c, const char *scheduler) {
  rf_diag d;
  config_notes notes;
  config_notes_init(&notes, NULL);
  config_defaults(c);
  if (config_load_file(c, "configs/gtx480.config", &notes, &d) < 0) fail_msg("%s", d.msg);
  const char *opts[][2] = {{"-gpgpu_n_clusters", "1"},
                           {"-gpgpu_n_cores_per_cluster", "1"},
                           {"-gpgpu_num_sched_per_core", "1"},
                           {"-gpgpu_max_insn_issue_per_warp", "1"},
                           {"-gpgpu_scheduler", scheduler},
                           {"-trace_opcode_latency_initiation_int", "4,1"},
                           {"-gpgpu_num_int_units", "1"},
                           {"-gpgpu_pipeline_widths", "2,0,1,1,1,2,0,1,1,1,2"},
                           {"-gpgpu_operand_collector_num_units_int", "2"},
                           {"-gpgpu_operand_collector_num_in_ports_int", "1"},
                           {"-gpgpu_operand_collector_num_out_ports_int", "1"}};
  for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
    if (config_set(c, opts[i][0], opts[i][1], "test", 0, &notes, &d) != 0)
      fail_msg("%s %s: %s", opts[i][0], opts[i][1], d.msg);
  if (config_validate(c, &d) < 0) fail_msg("%s", d.msg);
}

static char *kernel_text(int ntb, int nwarps, const char *const *bodies) {
  char *t = tu_kernel_text("tiny", ntb, nwarps, 16, bodies, nwarps);
  assert_non_null(t);
  return t;
}

typedef struct issue_log {
  int n;
  uint64_t cycle[256];
  int warp[256];
} issue_log;

static void record_issue(void *ctx, const gpu *g, uint64_t now) {
  issue_log *log = ctx;
  int w = sm_last_issued_warp(gpu_sm(g, 0));
  if (w >= 0 && log->n < 256) {
    log->cycle[log->n] = now;
    log->warp[log->n++] = w;
  }
}

/* Runs kernel text on config c; returns the status, the stats text and the issue log. */
/* Writes kernel text as kernel-1.traceg in a new folder (dir; path: the file) and makes a GPU of
 * c that reports to `report`. */
static gpu *gpu_with_kernel(const gpu_config *c, const char *text, FILE *report, char dir[256],
                            char path[512]) {
  assert_int_equal(tu_mkdtemp(dir, 256), 0);
  assert_int_equal(tu_write(dir, "kernel-1.traceg", text), 0);
  snprintf(path, 512, "%s/kernel-1.traceg", dir);
  rf_diag d = {{0}, 0};
  gpu *g = gpu_create(c, report, &d);
  if (!g) fail_msg("%s", d.msg);
  return g;
}

static int run_kernel(const gpu_config *c, const char *text, issue_log *log, char **stats_text,
                      char *msg, size_t msg_n, FILE *report) {
  char dir[256], path[512];
  gpu *g = gpu_with_kernel(c, text, report ? report : stderr, dir, path);
  rf_diag d = {{0}, 0};
  if (log) {
    memset(log, 0, sizeof *log);
    gpu_set_observer(g, (gpu_observer){record_issue, log});
  }
  stats_record r;
  stats_init(&r);
  int rc = gpu_run_kernel(g, path, &r, &d);
  if (stats_text) {
    size_t n;
    FILE *m = open_memstream(stats_text, &n);
    stats_print_text(&r, m);
    fclose(m);
  }
  snprintf(msg, msg_n, "%.500s", d.msg);
  stats_free(&r);
  gpu_destroy(g);
  tu_rmtree(dir);
  return rc;
}

#define INDEPENDENT4 \
  "1 R1 IADD 0 0\n1 R2 IADD 0 0\n1 R3 IADD 0 0\n1 R4 IADD 0 0\n0 EXIT 0 0\n"

static void expect_order(const char *scheduler, const int *expected, int n) {
  gpu_config c;
  tiny_config(&c, scheduler);
  const char *bodies[] = {INDEPENDENT4, INDEPENDENT4};
  char *text = kernel_text(1, 2, bodies);
  issue_log log;
  char msg[1024];
  assert_int_equal(run_kernel(&c, text, &log, NULL, msg, sizeof msg, NULL), 0);
  free(text);
  assert_int_equal(log.n, n);
  for (int i = 0; i < n; i++) {
    if (log.warp[i] != expected[i] || log.cycle[i] != log.cycle[0] + (uint64_t)i)
      fail_msg("%s: issue %d: expected warp %d at cycle %llu, found warp %d at cycle %llu",
               scheduler, i, expected[i], (unsigned long long)(log.cycle[0] + (uint64_t)i),
               log.warp[i], (unsigned long long)log.cycle[i]);
  }
}

/* Loose round robin alternates between the two warps every cycle. */
static void test_lrr_order(void **state) {
  (void)state;
  const int expected[] = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
  expect_order("lrr", expected, 10);
}

/* Greedy-then-oldest keeps issuing the same warp while it can. */
static void test_gto_order(void **state) {
  (void)state;
  const int expected[] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
  expect_order("gto", expected, 10);
}

/* A dependent chain: the scoreboard holds the next instruction until the previous one writes
 * back. As in GPGPU-Sim, that is its latency (4) plus the pipeline around the unit: into a
 * collector unit (1), one bank read per source (1, none without sources), dispatch to OC_EX
 * (1), into the unit (1), into EX_WB (1), writeback (1). */
static void test_scoreboard_chain(void **state) {
  (void)state;
  gpu_config c;
  tiny_config(&c, "gto");
  const char *bodies[] = {"1 R1 IADD 0 0\n1 R2 IADD 1 R1 0\n1 R3 IADD 1 R2 0\n0 EXIT 1 R3 0\n"};
  char *text = kernel_text(1, 1, bodies);
  issue_log log;
  char msg[1024];
  assert_int_equal(run_kernel(&c, text, &log, NULL, msg, sizeof msg, NULL), 0);
  free(text);
  assert_int_equal(log.n, 4);
  assert_int_equal(log.cycle[1] - log.cycle[0], 4 + 5); /* the first IADD reads no register */
  for (int i = 2; i < 4; i++) assert_int_equal(log.cycle[i] - log.cycle[i - 1], 4 + 6);
}

/* A barrier holds the early warp until the other arrives. */
static void test_barrier_waits(void **state) {
  (void)state;
  gpu_config c;
  tiny_config(&c, "gto");
  const char *bodies[] = {"0 BAR.SYNC 0 0\n0 EXIT 0 0\n",
                          "1 R1 IADD 0 0\n1 R2 IADD 1 R1 0\n0 BAR.SYNC 0 0\n0 EXIT 0 0\n"};
  char *text = kernel_text(1, 2, bodies);
  issue_log log;
  char msg[1024];
  assert_int_equal(run_kernel(&c, text, &log, NULL, msg, sizeof msg, NULL), 0);
  free(text);
  /* warp 0: BAR; warp 1: IADD, IADD (9 cycles later, test_scoreboard_chain), BAR, EXIT
   * (greedy); only then can
   * warp 0 leave the barrier. */
  const int expected[] = {0, 1, 1, 1, 1, 0};
  assert_int_equal(log.n, 6);
  for (int i = 0; i < 6; i++) assert_int_equal(log.warp[i], expected[i]);
  assert_int_equal(log.cycle[2] - log.cycle[1], 9);
  assert_true(log.cycle[5] > log.cycle[3]);
}

/* Two warps wait at different named barriers (tracer v5 immediates): nothing can progress. */
static void test_watchdog_reports_barrier_deadlock(void **state) {
  (void)state;
  gpu_config c;
  tiny_config(&c, "lrr");
  rf_diag d;
  assert_int_equal(config_set(&c, "-rfsim_watchdog", "500", "test", 0, NULL, &d), 0);
  const char *bodies[] = {"0 BAR.SYNC 0 0 0x0\n0 EXIT 0 0\n", "0 BAR.SYNC 0 0 0x1\n0 EXIT 0 0\n"};
  char *text = kernel_text(1, 2, bodies);
  char msg[1024], *report_text = NULL;
  size_t report_n;
  FILE *report = open_memstream(&report_text, &report_n);
  int rc = run_kernel(&c, text, NULL, NULL, msg, sizeof msg, report);
  fclose(report);
  free(text);
  assert_int_equal(rc, -1);
  assert_non_null(strstr(msg, "deadlock: kernel 1 (tiny) made no progress for 500 cycles"));
  assert_non_null(strstr(report_text, "warp 0, pc index 1/2 next EXIT at PC 0x10: waiting at "
                                      "barrier 0 (1 of 2 live warps arrived)"));
  assert_non_null(strstr(report_text, "warp 1, pc index 1/2 next EXIT at PC 0x10: waiting at "
                                      "barrier 1 (1 of 2 live warps arrived)"));
  free(report_text);
}

/* Two clusters (GTO) and eight blocks of two warps that load, compute and store: memory traffic
 * from both clusters. */
static char *two_cluster_memory_kernel(gpu_config *c) {
  tiny_config(c, "gto");
  rf_diag d;
  assert_int_equal(config_set(c, "-gpgpu_n_clusters", "2", "test", 0, NULL, &d), 0);
  static const char *const bodies[] = {
      "1 R1 LDG.E 0 4 1 0x10000 4\n1 R2 LDG.E 0 4 1 0x20000 128\n1 R3 FFMA 2 R1 R2 0\n"
      "0 STG.E 2 R3 R1 4 1 0x30000 4\n0 EXIT 0 0\n",
      "1 R1 LDG.E 0 4 1 0x10080 4\n1 R2 LDG.E 0 4 1 0x28000 256\n1 R3 FFMA 2 R1 R2 0\n"
      "0 STG.E 2 R3 R1 4 1 0x30080 4\n0 EXIT 0 0\n"};
  return kernel_text(8, 2, bodies);
}

/* Memory-heavy multi-CTA kernel, run twice: byte-identical stats. */
static void test_determinism(void **state) {
  (void)state;
  gpu_config c;
  char *text = two_cluster_memory_kernel(&c);
  char *s1 = NULL, *s2 = NULL, msg[512];
  assert_int_equal(run_kernel(&c, text, NULL, &s1, msg, sizeof msg, NULL), 0);
  assert_int_equal(run_kernel(&c, text, NULL, &s2, msg, sizeof msg, NULL), 0);
  free(text);
  assert_string_equal(s1, s2);
  assert_non_null(strstr(s1, "gpgpu_n_tot_w_icount = 80\n"));
  assert_non_null(strstr(s1, "gpu_sim_insn = 2560\n"));
  assert_non_null(strstr(s1, "gpu_completed_cta = 8\n"));
  free(s1);
  free(s2);
}

static void observe_nothing(void *ctx, const gpu *g, uint64_t now) {
  (void)ctx;
  (void)g;
  (void)now;
}

static void count_tick(void *ctx, const gpu *g) {
  (void)g;
  ++*(int *)ctx;
}

/* Runs kernel text twice on one GPU, stepping every cycle (an observer that records nothing
 * keeps the loop from jumping over idle ones) or not; returns the stats of both kernels and of
 * the whole run, as text, and the ticker's calls (one per 1024 cycles stepped). */
static char *run_two_kernels(const gpu_config *c, const char *text, int every_cycle,
                             int *ticks) {
  char dir[256], path[512];
  gpu *g = gpu_with_kernel(c, text, stderr, dir, path);
  rf_diag d = {{0}, 0};
  if (every_cycle) gpu_set_observer(g, (gpu_observer){observe_nothing, NULL});
  *ticks = 0;
  gpu_set_ticker(g, (gpu_ticker){count_tick, ticks});
  char *out = NULL;
  size_t n;
  FILE *m = open_memstream(&out, &n);
  for (int k = 0; k <= 2; k++) {
    stats_record r;
    stats_init(&r);
    if (k < 2 && gpu_run_kernel(g, path, &r, &d) < 0) fail_msg("%s", d.msg);
    if (k == 2) gpu_total_stats(g, &r);
    stats_print_text(&r, m);
    stats_free(&r);
  }
  fclose(m);
  gpu_destroy(g);
  tu_rmtree(dir);
  return out;
}

/* A kernel's launch latency with every SM idle is jumped over (gpu.c, idle_until): the same
 * statistics as stepping each of its cycles, for the first kernel and for one after another
 * (whose SMs' caches hold the first one's lines), and fewer cycles stepped. */
static void test_launch_latency_jumped(void **state) {
  (void)state;
  gpu_config c;
  char *text = two_cluster_memory_kernel(&c);
  rf_diag d;
  assert_int_equal(config_set(&c, "-gpgpu_kernel_launch_latency", "3000", "test", 0, NULL, &d),
                   0);
  int stepped_ticks, jumped_ticks;
  char *stepped = run_two_kernels(&c, text, 1, &stepped_ticks);
  char *jumped = run_two_kernels(&c, text, 0, &jumped_ticks);
  free(text);
  assert_string_equal(jumped, stepped);
  assert_non_null(strstr(jumped, "gpu_sim_insn = 2560\n"));
  assert_true(jumped_ticks < stepped_ticks);
  free(stepped);
  free(jumped);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lrr_order),
      cmocka_unit_test(test_gto_order),
      cmocka_unit_test(test_scoreboard_chain),
      cmocka_unit_test(test_barrier_waits),
      cmocka_unit_test(test_watchdog_reports_barrier_deadlock),
      cmocka_unit_test(test_determinism),
      cmocka_unit_test(test_launch_latency_jumped),
  };
  return cmocka_run_group_tests_name("cycle model", tests, NULL, NULL);
}
