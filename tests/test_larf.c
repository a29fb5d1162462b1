/* The locality-aware register file (-rfsim_policy larf, csim/policy/larf.c) in the simulator:
 *  - every larf_* workload runs with the units in C and in lockstep with equal stats, with the
 *    baseline's warp and thread instruction counts, and elides loads where its pattern shares
 *    (fewer L1 accesses than the baseline, as elided loads send no traffic);
 *  - directed kernels: a second warp loading the same words maps to the first one's register
 *    (perfect), a write to that shared register unmaps it (copy-on-write), warp exit unmaps the
 *    rest; more live loads than table entries overflow it (evictions) in C and in lockstep;
 *  - seeded random kernels (loads from a small pool, overwrites) in C and lockstep agree;
 *  - a trace without address lists for a load falls back to a normal load and is counted;
 *  - composition: warpman+larf and regshare+larf run, conflicting pairs are refused.
 * Needs the generated workloads (make workloads). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../csim/config/config.h"
#include "../csim/gpu/gpu.h"
#include "../csim/policy/policy.h"
#include "../csim/stats/stats.h"
#include "common/test_util.h"

#define LRF "configs/locality_rf.config"

static const char *const WORKLOADS[] = {"larf_mm", "larf_conv", "larf_pool", "larf_fc",
                                        "larf_conv_deep"};

static void load(gpu_config *c, const char *policy, const char *const (*opts)[2], size_t n) {
  rf_diag d;
  config_notes notes;
  config_notes_init(&notes, NULL);
  config_defaults(c);
  if (config_load_file(c, LRF, &notes, &d) < 0) fail_msg("%s", d.msg);
  if (config_set(c, "-rfsim_policy", policy, "test", 0, &notes, &d) != 0) fail_msg("%s", d.msg);
  for (size_t i = 0; i < n; i++)
    if (config_set(c, opts[i][0], opts[i][1], "test", 0, &notes, &d) != 0)
      fail_msg("%s %s: %s", opts[i][0], opts[i][1], d.msg);
  if (config_validate(c, &d) < 0) fail_msg("%s", d.msg);
}

static const stat_entry *find(const stats_record *r, const char *name) {
  for (int i = 0; i < r->n; i++)
    if (!strcmp(r->e[i].name, name)) return &r->e[i];
  fail_msg("stat %s missing", name);
  return NULL;
}
static uint64_t su(const stats_record *r, const char *n) { return find(r, n)->u; }

static char *run_wl(const char *policy, const char *wl, int mode, stats_record *total) {
  gpu_config c;
  load(&c, policy, NULL, 0);
  char list[256];
  snprintf(list, sizeof list, "build/traces/%s/kernelslist.g", wl);
  return tu_run_list(&c, mode, list, total);
}

static void test_workloads_lockstep_and_counts(void **st) {
  (void)st;
  for (size_t i = 0; i < sizeof WORKLOADS / sizeof WORKLOADS[0]; i++) {
    stats_record base, cm, ls;
    char *tb = run_wl("baseline", WORKLOADS[i], HW_C, &base);
    char *tc = run_wl("larf", WORKLOADS[i], HW_C, &cm);
    char *tl = run_wl("larf", WORKLOADS[i], HW_LOCKSTEP, &ls);
    assert_string_equal(tc, tl); /* every kernel's stats and the total */
    assert_int_equal(su(&cm, "gpgpu_n_tot_w_icount"), su(&base, "gpgpu_n_tot_w_icount"));
    assert_int_equal(su(&cm, "gpu_sim_insn"), su(&base, "gpu_sim_insn"));
    uint64_t elided = su(&cm, "larf_loads_elided"), l1c = su(&cm, "L1D_total_cache_accesses"),
             l1b = su(&base, "L1D_total_cache_accesses");
    printf("[ INFO     ] %s: loads %llu, elided %llu (perfect %llu, partial %llu), L1 "
           "accesses %llu -> %llu, cycles %llu -> %llu\n",
           WORKLOADS[i], (unsigned long long)su(&cm, "larf_global_loads"),
           (unsigned long long)elided, (unsigned long long)su(&cm, "larf_hits_perfect"),
           (unsigned long long)su(&cm, "larf_hits_partial"), (unsigned long long)l1b,
           (unsigned long long)l1c, (unsigned long long)su(&base, "gpu_sim_cycle"),
           (unsigned long long)su(&cm, "gpu_sim_cycle"));
    assert_int_equal(su(&cm, "larf_hits_perfect") + su(&cm, "larf_hits_partial"), elided);
    assert_true(su(&cm, "larf_loads_eligible") >= elided + su(&cm, "larf_loads_missed"));
    assert_true(su(&cm, "larf_amt_occupancy_max") <= 200);
    /* every workload's loads are describable by a table entry (none ineligible) */
    assert_int_equal(su(&cm, "larf_ineligible_pattern") + su(&cm, "larf_ineligible_window") +
                         su(&cm, "larf_loads_without_addresses"),
                     0);
    if (!strcmp(WORKLOADS[i], "larf_mm") || !strcmp(WORKLOADS[i], "larf_fc")) {
      assert_true(elided > su(&cm, "larf_global_loads") / 4);
      assert_true(l1c + elided / 2 < l1b); /* elided loads send nothing */
    }
    if (!strcmp(WORKLOADS[i], "larf_conv")) {
      assert_true(elided > 0);
      assert_true(su(&cm, "larf_hits_partial") > 0);
      assert_true(l1c < l1b);
    }
    if (elided > 0) assert_true(su(&cm, "larf_regs_saved") > 0);
    stats_free(&base);
    stats_free(&cm);
    stats_free(&ls);
    free(tb);
    free(tc);
    free(tl);
  }
}

/* One SM, one kernel given as text; returns the run total in r (C or lockstep). */
static char *run_text(const char *policy, const char *text, int mode, stats_record *r) {
  const char *const o[][2] = {{"-gpgpu_n_clusters", "1"}};
  gpu_config c;
  load(&c, policy, o, 1);
  char dir[256], path[512];
  tu_kernel_dir(dir, sizeof dir, path, sizeof path, text);
  char *t = tu_run_list(&c, mode, path, r);
  tu_rmtree(dir);
  return t;
}

/* Warp 0 loads words A into R1 and keeps working; warp 1, after some work, loads the same words
 * into R5 (perfect: mapped to warp 0's register), then writes R5 (unmap of a shared register);
 * both exit. */
static void test_perfect_then_write_to_shared(void **st) {
  (void)st;
  static char w0[16384];
  strcpy(w0, "1 R1 LDG.E 0 4 1 0x7f3a00000000 4\n1 R2 FFMA 2 R1 R1 0\n");
  for (int i = 0; i < 400; i++) strcat(w0, "1 R3 FFMA 2 R3 R3 0\n"); /* warp 0 stays resident */
  static char w1[8192];
  w1[0] = 0;
  for (int i = 0; i < 200; i++) strcat(w1, "1 R7 IADD 2 R7 R7 0\n");
  strcat(w1, "1 R5 LDG.E 0 4 1 0x7f3a00000000 4\n1 R6 FFMA 2 R5 R5 0\n1 R5 IADD 2 R6 R6 0\n"
             "1 R5 IADD 2 R5 R5 0\n");
  const char *bodies[] = {w0, w1};
  char *text = tu_kernel_text("shared", 1, 2, 16, bodies, 2);
  assert_non_null(text);
  for (int mode = HW_C; mode <= HW_LOCKSTEP; mode += HW_LOCKSTEP - HW_C) {
    stats_record r;
    char *t = run_text("larf", text, mode, &r);
    if (getenv("LARF_DEBUG")) printf("%s", t);
    assert_int_equal(su(&r, "larf_global_loads"), 2);
    assert_int_equal(su(&r, "larf_hits_perfect"), 1);
    assert_int_equal(su(&r, "larf_loads_missed"), 1);
    assert_int_equal(su(&r, "larf_regs_saved"), 1);
    assert_int_equal(su(&r, "larf_writes_to_shared_register"), 1);
    assert_int_equal(su(&r, "larf_unmaps_on_write"), 1);
    assert_int_equal(su(&r, "larf_unmaps_at_exit"), 1); /* warp 0's R1 */
    assert_int_equal(su(&r, "larf_live_mappings_peak"), 2);
    assert_int_equal(su(&r, "larf_live_regs_peak"), 1);
    assert_int_equal(su(&r, "L1D_total_cache_accesses"), 1);
    stats_free(&r);
    free(t);
  }
  free(text);
}

/* 8 warps x 30 live loads of distinct lines = 240 registers in the table's 200 entries: the
 * table overflows (round-robin evictions), then every warp reloads its first line: the
 * evicted ones miss. C and lockstep agree. */
static void test_overflow(void **st) {
  (void)st;
  static char bodies_text[8][4096];
  const char *bodies[8];
  for (int w = 0; w < 8; w++) {
    bodies_text[w][0] = '\0';
    for (int i = 0; i < 30; i++) {
      char line[128];
      snprintf(line, sizeof line, "1 R%d LDG.E 0 4 1 0x%llx 4\n", 8 + i,
               0x7f3a00000000ull + (unsigned long long)(w * 30 + i) * 128);
      strcat(bodies_text[w], line);
    }
    char line[128];
    snprintf(line, sizeof line, "1 R40 LDG.E 0 4 1 0x%llx 4\n1 R41 FFMA 2 R40 R8 0\n",
             0x7f3a00000000ull + (unsigned long long)(w * 30) * 128);
    strcat(bodies_text[w], line);
    bodies[w] = bodies_text[w];
  }
  char *text = tu_kernel_text("overflow", 1, 8, 48, bodies, 8);
  assert_non_null(text);
  char *tc = NULL;
  for (int mode = HW_C; mode <= HW_LOCKSTEP; mode += HW_LOCKSTEP - HW_C) {
    stats_record r;
    char *t = run_text("larf", text, mode, &r);
    assert_int_equal(su(&r, "larf_amt_occupancy_max"), 200);
    assert_true(su(&r, "larf_amt_evictions") >= 40);
    assert_int_equal(su(&r, "larf_global_loads"), 248);
    assert_true(su(&r, "larf_hits_perfect") < 8); /* most first lines were evicted */
    if (tc) assert_string_equal(tc, t);
    stats_free(&r);
    if (tc) free(t); else tc = t;
  }
  free(tc);
  free(text);
}

/* Seeded random kernels: loads from a pool of 6 lines (with random lane counts and a stride of
 * 0 or 1 word), ALU overwrites of the same registers, stores into the pool: C and lockstep agree
 * and the run's invariants hold. HW_SEED replays one. */
static void test_random_kernels(void **st) {
  (void)st;
  const char *e = getenv("HW_SEED");
  uint64_t seed = e && *e ? strtoull(e, NULL, 0) : 5;
  printf("[ SEED     ] larf random kernels: HW_SEED=%llu\n", (unsigned long long)seed);
  for (int round = 0; round < 4; round++) {
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + (uint64_t)round + 1;
    static char bt[8][8192];
    const char *bodies[8];
    for (int w = 0; w < 8; w++) {
      bt[w][0] = '\0';
      for (int i = 0; i < 60; i++) {
        x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
        uint64_t v = x * 0x2545F4914F6CDD1Dull;
        int reg = 1 + (int)(v % 6), kind = (int)(v >> 8) % 10;
        uint64_t line = 0x7f3a00000000ull + ((v >> 16) % 6) * 64 + ((v >> 24) % 4) * 4;
        char l[160];
        if (kind < 6)
          snprintf(l, sizeof l, "1 R%d LDG.E 0 4 1 0x%llx %d\n", reg, (unsigned long long)line,
                   (v >> 30) & 1 ? 4 : 0);
        else if (kind < 9)
          snprintf(l, sizeof l, "1 R%d IADD 2 R%d R%d 0\n", reg, 1 + (int)((v >> 33) % 6),
                   1 + (int)((v >> 36) % 6));
        else
          snprintf(l, sizeof l, "0 STG.E 2 R%d R%d 4 1 0x%llx 4\n", reg, reg,
                   (unsigned long long)line);
        strcat(bt[w], l);
      }
      bodies[w] = bt[w];
    }
    char *text = tu_kernel_text("random", 2, 8, 16, bodies, 8);
    assert_non_null(text);
    stats_record rc, rl;
    char *tc = run_text("larf", text, HW_C, &rc);
    char *tl = run_text("larf", text, HW_LOCKSTEP, &rl);
    assert_string_equal(tc, tl);
    assert_int_equal(su(&rc, "larf_hits_perfect") + su(&rc, "larf_hits_partial"),
                     su(&rc, "larf_loads_elided"));
    assert_true(su(&rc, "larf_loads_elided") > 0);
    assert_true(su(&rc, "larf_store_invalidations") > 0);
    assert_true(su(&rc, "larf_unmaps_on_write") > 0);
    stats_free(&rc);
    stats_free(&rl);
    free(tc);
    free(tl);
    free(text);
  }
}

/* A load whose lanes have no addresses (mode 0 list of zeros: "missing") goes to memory and is
 * counted; so is a 64-bit load. Nothing is elided from them. */
static void test_fallbacks_counted(void **st) {
  (void)st;
  const char *w0 = "1 R1 LDG.E 0 4 0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 "
                   "0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0\n"
                   "1 R2 LDG.E.64 0 8 1 0x7f3a00000000 8\n";
  const char *bodies[] = {w0, w0};
  char *text = tu_kernel_text("fallback", 1, 2, 16, bodies, 2);
  assert_non_null(text);
  stats_record r;
  char *t = run_text("larf", text, HW_C, &r);
  assert_int_equal(su(&r, "larf_loads_without_addresses"), 2);
  assert_int_equal(su(&r, "larf_ineligible_width"), 2);
  assert_int_equal(su(&r, "larf_loads_elided"), 0);
  stats_free(&r);
  free(t);
  free(text);
}

static void test_composition(void **st) {
  (void)st;
  stats_record r, b;
  char *t = run_wl("warpman+larf", "larf_mm", HW_C, &r);
  char *tb = run_wl("warpman", "larf_mm", HW_C, &b);
  assert_true(su(&r, "larf_loads_elided") > 0);
  find(&r, "warpman_tbs");
  assert_int_equal(su(&r, "gpgpu_n_tot_w_icount"), su(&b, "gpgpu_n_tot_w_icount"));
  assert_int_equal(su(&r, "warpman_tbs"), su(&b, "warpman_tbs"));
  stats_free(&r);
  stats_free(&b);
  free(t);
  free(tb);
  t = run_wl("regshare+larf", "larf_fc", HW_C, &r);
  assert_true(su(&r, "larf_loads_elided") > 0);
  find(&r, "regshare_lock_grants");
  stats_free(&r);
  free(t);
  t = run_wl("baseline+larf", "larf_fc", HW_C, &r);
  tb = run_wl("larf", "larf_fc", HW_C, &b);
  assert_string_equal(t, tb); /* larf = baseline+larf */
  stats_free(&r);
  stats_free(&b);
  free(t);
  free(tb);
  /* refused pairs */
  static const char *const bad[][2] = {
      {"warpman+regshare", "both own CTA admission"},
      {"larf+larf", "both take over the load path"},
      {"warpman+nope", "expected one of"},
      {"warpman+larf+spshare", "at most two parts"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    gpu_config c;
    load(&c, "baseline", NULL, 0);
    snprintf(c.policy, sizeof c.policy, "%s", bad[i][0]);
    rf_diag d = {{0}, 0};
    policy p;
    assert_int_equal(policy_create(&p, &c, 1, HW_C, NULL, &d), -1);
    printf("[ INFO     ] %s: %s\n", bad[i][0], d.msg);
    assert_non_null(strstr(d.msg, bad[i][1]));
  }
  /* larf+warpman: either order */
  gpu_config c;
  load(&c, "baseline", NULL, 0);
  snprintf(c.policy, sizeof c.policy, "larf+warpman");
  rf_diag d = {{0}, 0};
  policy p;
  assert_int_equal(policy_create(&p, &c, 2, HW_C, NULL, &d), 0);
  assert_non_null(p.ops->load);
  policy_destroy(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_perfect_then_write_to_shared),
      cmocka_unit_test(test_overflow),
      cmocka_unit_test(test_random_kernels),
      cmocka_unit_test(test_fallbacks_counted),
      cmocka_unit_test(test_composition),
      cmocka_unit_test(test_workloads_lockstep_and_counts),
  };
  return cmocka_run_group_tests_name("larf", tests, NULL, NULL);
}
