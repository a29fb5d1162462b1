/* Register sharing (csim/policy/regshare.c) and scratchpad sharing (spshare.c) in the cycle
 * model, on the generated workloads (make workloads) and on small hand-written kernels:
 *  - the run holds the plan's resident TBs (Table VI/VIII values) and locks are granted;
 *  - 0% and 10% sharing run every TB unshared and give the baseline's cycles exactly;
 *  - no deadlock with barriers under every combination of the optimizations and schedulers
 *    (the deadlock-avoidance rule and the request arbiter);
 *  - unrolling/reordering: non-owner warps issue more instructions before their first lock
 *    wait on a kernel whose first registers are high-numbered;
 *  - dynamic warp execution: SM0 never lets a non-owner memory instruction issue; without it
 *    SM0 does, and -rfsim_seed changes nothing else than the draws;
 *  - lockstep (C reference and RTL compared every cycle) on every workload of
 *    make experiments-regshare, for both techniques, with the C run's stats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include <cmocka.h>

#include "../csim/config/config.h"
#include "../csim/gpu/gpu.h"
#include "common/test_util.h"

#define TESLA "configs/tesla_c2050.config"
#define TESLA16 "configs/tesla_c2050_scratchpad.config"

static void load(gpu_config *c, const char *path, const char *const (*opts)[2], size_t n) {
  tu_load_config(c, path, opts, n);
}

static const stat_entry *find(const stats_record *r, const char *name) {
  for (int i = 0; i < r->n; i++)
    if (!strcmp(r->e[i].name, name)) return &r->e[i];
  fail_msg("stat %s missing", name);
  return NULL;
}
static uint64_t su(const stats_record *r, const char *n) { return find(r, n)->u; }
static double sf(const stats_record *r, const char *n) { return find(r, n)->f; }

static char *run(const char *config, const char *const (*opts)[2], size_t n, const char *wl,
                 int mode, stats_record *total) {
  gpu_config c;
  load(&c, config, opts, n);
  char list[256];
  snprintf(list, sizeof list, "build/traces/%s/kernelslist.g", wl);
  return tu_run_list(&c, mode, list, total);
}

static void test_resident_tbs_follow_the_plan(void **st) {
  (void)st;
  stats_record b, r;
  const char *const base[][2] = {{"-rfsim_policy", "baseline"}};
  const char *const rs[][2] = {{"-rfsim_policy", "regshare"}};
  free(run(TESLA, base, 1, "regshare_hotspot", HW_C, &b));
  free(run(TESLA, rs, 1, "regshare_hotspot", HW_C, &r));
  assert_int_equal(su(&b, "rfsim_resident_ctas_max_per_sm"), 3);
  assert_int_equal(su(&r, "rfsim_resident_ctas_max_per_sm"), 6); /* Table VI, 90% */
  assert_true(su(&r, "regshare_lock_grants") > 0);
  assert_true(su(&r, "regshare_ownership_changes") > 0);
  assert_int_equal(su(&r, "gpgpu_n_tot_w_icount"), su(&b, "gpgpu_n_tot_w_icount"));
  stats_free(&b);
  stats_free(&r);
  const char *const sp[][2] = {{"-rfsim_policy", "spshare"}};
  free(run(TESLA16, base, 1, "spshare_lavamd", HW_C, &b));
  free(run(TESLA16, sp, 1, "spshare_lavamd", HW_C, &r));
  assert_int_equal(su(&b, "rfsim_resident_ctas_max_per_sm"), 2);
  assert_int_equal(su(&r, "rfsim_resident_ctas_max_per_sm"), 4); /* Table VIII, 90% */
  assert_true(su(&r, "spshare_lock_grants") > 0);
  stats_free(&b);
  stats_free(&r);
}

/* The papers: "all applications behave same at 0% and 10% sharing" (no TB is shared). Without
 * OWF the schedulers' order is the baseline's too, so the cycles are equal. */
static void test_unshared_rows_are_the_baseline(void **st) {
  (void)st;
  const char *const base[][2] = {{"-rfsim_policy", "baseline"}};
  stats_record b;
  free(run(TESLA, base, 1, "regshare_hotspot", HW_C, &b));
  const char *ts[] = {"1.0", "0.9"};
  for (int i = 0; i < 2; i++) {
    const char *const o[][2] = {{"-rfsim_policy", "regshare"}, {"-regshare_t", ts[i]},
                                {"-regshare_owf", "0"}};
    stats_record r;
    free(run(TESLA, o, 3, "regshare_hotspot", HW_C, &r));
    assert_int_equal(su(&r, "regshare_shared_tbs"), 0);
    assert_int_equal(su(&r, "gpu_sim_cycle"), su(&b, "gpu_sim_cycle"));
    stats_free(&r);
  }
  stats_free(&b);
}

/* hotspot has a barrier per step: every optimization combination, LRR and GTO, completes. */
static void test_no_deadlock_any_options(void **st) {
  (void)st;
  const char *sched[] = {"lrr", "gto", "two_level_active:6:0:1"};
  for (int m = 0; m < 24; m++) {
    const char *const o[][2] = {{"-rfsim_policy", "regshare"},
                                {"-regshare_owf", m & 1 ? "1" : "0"},
                                {"-regshare_unroll", m & 2 ? "1" : "0"},
                                {"-regshare_dyn", m & 4 ? "1" : "0"},
                                {"-gpgpu_scheduler", sched[m >> 3]},
                                {"-rfsim_watchdog", "20000"}};
    stats_record r;
    free(run(TESLA, o, 6, "regshare_stencil", HW_C, &r));
    assert_true(su(&r, "regshare_lock_grants") > 0);
    stats_free(&r);
  }
}

/* A kernel on one SM (Tesla C2050 registers): 8 warps x 40 registers -> Rtb 10240, g = 3,
 * t = 0.1 -> 5 TBs: one unshared and two pairs; 4 private registers per thread. */
static int run_kernel(const char *const (*opts)[2], size_t n, const char *const *bodies,
                      int nbodies, stats_record *r) {
  gpu_config c;
  load(&c, TESLA, opts, n);
  char *text = tu_kernel_text("k", 10, 8, 40, bodies, nbodies);
  assert_non_null(text);
  char dir[256], path[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  assert_int_equal(tu_write(dir, "kernel-1.traceg", text), 0);
  free(text);
  snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
  rf_diag d = {{0}, 0};
  gpu *g = gpu_create(&c, stderr, &d);
  if (!g) fail_msg("%s", d.msg);
  stats_init(r);
  int rc = gpu_run_kernel(g, path, r, &d);
  if (rc < 0) fail_msg("%s", d.msg);
  gpu_destroy(g);
  tu_rmtree(dir);
  return rc;
}

/* The first 12 instructions name only R38 and R39 (shared by number: >= 4); numbered by first
 * use they become registers 0 and 1, private, so non-owner warps run further before waiting. */
static void test_unroll_delays_the_first_shared_access(void **st) {
  (void)st;
  char body[4096] = "";
  for (int i = 0; i < 12; i++) strcat(body, "1 R38 IADD 1 R39 0\n1 R39 IADD 1 R38 0\n");
  for (int i = 0; i < 8; i++) strcat(body, "1 R5 IADD 2 R6 R7 0\n1 R20 FFMA 2 R21 R5 0\n");
  strcat(body, "0 EXIT 0 0\n");
  const char *bodies[] = {body};
  double mean[2];
  for (int u = 0; u < 2; u++) {
    const char *const o[][2] = {{"-rfsim_policy", "regshare"},
                                {"-gpgpu_n_clusters", "1"},
                                {"-regshare_unroll", u ? "1" : "0"}};
    stats_record r;
    run_kernel(o, 3, bodies, 1, &r);
    assert_int_equal(su(&r, "regshare_pairs_per_sm"), 2);
    assert_int_equal(su(&r, "regshare_private_units"), 4);
    assert_true(su(&r, "regshare_lock_waiting_warps") > 0);
    mean[u] = sf(&r, "regshare_insts_before_first_lock_wait_mean");
    stats_free(&r);
  }
  print_message("instructions before the first lock wait: %.1f without unroll, %.1f with\n",
                mean[0], mean[1]);
  assert_true(mean[0] < 1.0);   /* R38 is shared at once */
  assert_true(mean[1] >= 24.0); /* the R38/R39 prologue runs on private registers */
}

/* Loads on private registers (R0-R3) ahead of shared-register work: non-owner warps reach
 * memory instructions. SM0 is the reference and never issues them with -regshare_dyn. */
static void test_dwe_reference_sm(void **st) {
  (void)st;
  char body[4096] = "";
  for (int i = 0; i < 6; i++)
    strcat(body, "1 R1 LDG.E 1 R0 4 1 0x7000000 4\n1 R2 IADD 2 R1 R2 0\n");
  for (int i = 0; i < 6; i++) strcat(body, "1 R20 FFMA 2 R21 R2 0\n");
  strcat(body, "0 EXIT 0 0\n");
  const char *bodies[] = {body};
  uint64_t sm0[2], blocked[2];
  for (int dyn = 0; dyn < 2; dyn++) {
    const char *const o[][2] = {{"-rfsim_policy", "regshare"},
                                {"-gpgpu_n_clusters", "2"},
                                {"-regshare_owf", "0"},
                                {"-regshare_dyn", dyn ? "1" : "0"}};
    stats_record r;
    run_kernel(o, 4, bodies, 1, &r);
    sm0[dyn] = su(&r, "regshare_sm0_nonowner_mem_insts");
    blocked[dyn] = su(&r, "regshare_dwe_blocked_issue_attempts");
    stats_free(&r);
  }
  assert_true(sm0[0] > 0);
  assert_int_equal(blocked[0], 0);
  assert_int_equal(sm0[1], 0);
  assert_true(blocked[1] > 0);
}

/* Lockstep on every workload the experiments run, for the technique each set is for (Set-3
 * with both): no mismatch, and the C run's stats. Under the sanitizers every third workload,
 * which still reaches each set and both techniques of Set-3 (the whole list took ten minutes
 * of CI there, every other one six). */
static void test_lockstep_every_experiment_workload(void **st) {
  (void)st;
  static const char *const set1[] = {"backprop", "btree", "hotspot", "lib",
                                     "mum",      "mriq",  "sgemm",   "stencil"};
  static const char *const set2[] = {"conv1", "conv2", "lavamd", "nw1", "nw2", "srad1", "srad2"};
  static const char *const set3[] = {"backprop_fwd", "bfs", "gaussian_fan2", "nn"};
  const char *const rs[][2] = {{"-rfsim_policy", "regshare"}};
  const char *const sp[][2] = {{"-rfsim_policy", "spshare"}};
  char wl[64];
  for (size_t i = 0; i < 8 + 7 + 4 + 4; i++) {
#if defined(__SANITIZE_ADDRESS__)
    if (i % 3) continue;
#endif
    const char *config = TESLA;
    const char *const (*o)[2] = rs;
    if (i < 8) {
      snprintf(wl, sizeof wl, "regshare_%s", set1[i]);
    } else if (i < 15) {
      snprintf(wl, sizeof wl, "spshare_%s", set2[i - 8]);
      config = TESLA16;
      o = sp;
    } else {
      snprintf(wl, sizeof wl, "regshare_%s", set3[(i - 15) % 4]);
      if (i >= 19) config = TESLA16, o = sp;
    }
    stats_record rc, rl;
    char *tc = run(config, o, 1, wl, HW_C, &rc);
    char *tl = run(config, o, 1, wl, HW_LOCKSTEP, &rl);
    if (strcmp(tc, tl) != 0) fail_msg("%s (%s): lockstep stats differ from C", wl, o[0][1]);
    free(tc);
    free(tl);
    stats_free(&rc);
    stats_free(&rl);
  }
}

/* Shapes the units cannot hold are refused with a message naming the limit. */
static void test_refused_configurations(void **st) {
  (void)st;
  const char *const wide[][2] = {{"-rfsim_policy", "regshare"},
                                 {"-gpgpu_shader_core_pipeline", "4096:32"}};
  gpu_config c;
  load(&c, TESLA, wide, 2);
  rf_diag d = {{0}, 0};
  assert_null(gpu_create(&c, stderr, &d));
  assert_string_equal(d.msg, "-rfsim_policy regshare: expected at most 64 warp slots per SM "
                             "(the units' warp masks), found 128");
  const char *const slots[][2] = {{"-rfsim_policy", "spshare"}, {"-gpgpu_shader_cta", "128"}};
  load(&c, TESLA, slots, 2);
  assert_null(gpu_create(&c, stderr, &d));
  assert_string_equal(d.msg, "unit sp_share: port partner_o has width 1024 under these "
                             "parameters, expected 1..448");
  config_defaults(&c);
  config_notes n;
  config_notes_init(&n, NULL);
  assert_int_equal(config_set(&c, "-regshare_t", "0", "x.config", 3, &n, &d), -1);
  assert_string_equal(d.msg, "x.config:3: -regshare_t: expected a number in [0.001, 1], found '0'");
}

/* Two-level scheduling with locks: warps held by a lock must not keep the lock holders out of
 * the active set. make compare found register sharing deadlocked on configs/locality_rf.config
 * (6 active warps per scheduler) on these workloads before sched.c let held warps give way. */
static void test_two_level_active_set_and_locks(void **st) {
  (void)st;
  static const char *const wls[] = {"warpman_hs", "regshare_sgemm", "regshare_backprop"};
  static const char *const pols[] = {"regshare", "spshare"};
  for (size_t w = 0; w < sizeof wls / sizeof wls[0]; w++)
    for (size_t p = 0; p < sizeof pols / sizeof pols[0]; p++) {
      const char *const o[][2] = {{"-rfsim_policy", pols[p]}, {"-rfsim_watchdog", "20000"}};
      stats_record b, rc, rl;
      const char *const base[][2] = {{"-rfsim_policy", "baseline"}};
      free(run("configs/locality_rf.config", base, 1, wls[w], HW_C, &b));
      char *tc = run("configs/locality_rf.config", o, 2, wls[w], HW_C, &rc);
      char *tl = run("configs/locality_rf.config", o, 2, wls[w], HW_LOCKSTEP, &rl);
      if (strcmp(tc, tl) != 0) fail_msg("%s %s: lockstep stats differ from C", pols[p], wls[w]);
      assert_int_equal(su(&rc, "gpgpu_n_tot_w_icount"), su(&b, "gpgpu_n_tot_w_icount"));
      free(tc);
      free(tl);
      stats_free(&b);
      stats_free(&rc);
      stats_free(&rl);
    }
}

/* A technique that cannot hold a kernel's thread block refuses it with exit status 3, which
 * make compare reports as "cannot apply"; a bad option stays an error (1). */
static void test_refusal_exit_status(void **st) {
  (void)st;
  if (access("bin/rfsim", X_OK) != 0) fail_msg("bin/rfsim missing");
  const char *run_st = "bin/rfsim -trace build/traces/warpman_st/kernelslist.g "
                       "-config configs/gtx480.config -rfsim_policy ";
  char cmd[512];
  snprintf(cmd, sizeof cmd, "%sfinereg > /dev/null 2>&1", run_st);
  assert_int_equal(tu_sh(cmd), 3); /* 1024-thread CTAs x 20 registers > the 64 KB ACRF */
  snprintf(cmd, sizeof cmd, "%sno_such_policy > /dev/null 2>&1", run_st);
  assert_int_equal(tu_sh(cmd), 1);
  snprintf(cmd, sizeof cmd,
           "bash tools/compare_job.sh -trace build/traces/warpman_st/kernelslist.g "
           "-config configs/gtx480.config -rfsim_policy finereg 2> /dev/null | "
           "grep -q '^refused: kernel block2D_reg_tiling: one CTA needs 20480 registers'");
  assert_int_equal(tu_sh(cmd), 0);
}

/* The 32-CTA-slot configurations (64 warp slots): the units' packed partner and held fields
 * are 192 bits there, carried by the shim from Verilator's wide types, and each unit's 32-slot
 * variant is linked beside the paper's 8-slot model. Register sharing on sgemm holds more TBs
 * than the baseline (10 -> 16 on titanx and gtx980) and takes locks, and lockstep (C reference
 * and RTL every cycle) gives the C run's stats; scratchpad sharing runs in lockstep too (on
 * 96 KB no Set-2 kernel is limited by the scratchpad, so its plan shares nothing: the unit
 * still runs every cycle). */
static void test_32_cta_slot_configs(void **st) {
  (void)st;
  static const char *const configs[] = {"configs/titanx.config", "configs/gtx980.config",
                                        "configs/titanv.config"};
  const char *const base[][2] = {{"-rfsim_policy", "baseline"}};
  const char *const rs[][2] = {{"-rfsim_policy", "regshare"}};
  const char *const sp[][2] = {{"-rfsim_policy", "spshare"}};
  for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++) {
    stats_record b, rc, rl;
    free(run(configs[i], base, 1, "regshare_sgemm", HW_C, &b));
    char *tc = run(configs[i], rs, 1, "regshare_sgemm", HW_C, &rc);
    char *tl = run(configs[i], rs, 1, "regshare_sgemm", HW_LOCKSTEP, &rl);
    if (strcmp(tc, tl) != 0) fail_msg("%s: lockstep stats differ from C", configs[i]);
    /* The dispatcher deals TBs to the SMs in turn (GPGPU-Sim's), so sgemm's 240 TBs give at
     * most 9 to each of titanx's 28 SMs and 3 to each of titanv's 80: there the grid, not the
     * registers (10 TBs of 6144), limits; gtx980's 16 SMs could take 15 each. */
    if (i == 1) {
      assert_true(su(&rc, "rfsim_resident_ctas_max_per_sm") >
                  su(&b, "rfsim_resident_ctas_max_per_sm"));
      assert_true(su(&rc, "regshare_lock_grants") > 0);
    } else {
      assert_int_equal(su(&rc, "rfsim_resident_ctas_max_per_sm"),
                       su(&b, "rfsim_resident_ctas_max_per_sm"));
    }
    assert_int_equal(su(&rc, "gpgpu_n_tot_w_icount"), su(&b, "gpgpu_n_tot_w_icount"));
    free(tc);
    free(tl);
    stats_free(&b);
    stats_free(&rc);
    stats_free(&rl);
  }
  stats_record rc, rl;
  char *tc = run(configs[0], sp, 1, "spshare_lavamd", HW_C, &rc);
  char *tl = run(configs[0], sp, 1, "spshare_lavamd", HW_LOCKSTEP, &rl);
  if (strcmp(tc, tl) != 0) fail_msg("spshare on titanx: lockstep stats differ from C");
  free(tc);
  free(tl);
  stats_free(&rc);
  stats_free(&rl);
}

int main(void) {
  tu_private_cache();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_resident_tbs_follow_the_plan),
      cmocka_unit_test(test_unshared_rows_are_the_baseline),
      cmocka_unit_test(test_no_deadlock_any_options),
      cmocka_unit_test(test_unroll_delays_the_first_shared_access),
      cmocka_unit_test(test_dwe_reference_sm),
      cmocka_unit_test(test_refused_configurations),
      cmocka_unit_test(test_32_cta_slot_configs),
      cmocka_unit_test(test_two_level_active_set_and_locks),
      cmocka_unit_test(test_refusal_exit_status),
      cmocka_unit_test(test_lockstep_every_experiment_workload),
  };
  return cmocka_run_group_tests_name("sharing", tests, NULL, NULL);
}
