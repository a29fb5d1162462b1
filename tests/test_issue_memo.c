/* The issue stage's memos (csim/core/issue.c): with LRR and GTO it looks only at the warps whose
 * kept answer may have ended and takes the others' answers from masks, and while no answer can
 * have changed it takes a scheduler's stall, or the whole stage's, as it was; any other order
 * (a policy's warp classes, two-level) looks at every warp. Both must give the same run. A policy
 * that puts every warp in the same class keeps the baseline's order but takes the second path
 * (or, saying so in some cycles, the first path then), so its runs must match the baseline's
 * byte for byte: on hand-written kernels that exercise every kind of wait (barriers, MEMBAR,
 * loads, dependent chains, dual issue, full pipelines) and on the generated workloads, with LRR
 * (GTX 480, shared collector registers), GTO (TITAN V, sub-core) and the GTX 980.
 * The same runs check the quiet cycles an SM sleeps through (csim/core/quiet.c): a policy with a
 * tick hook that does nothing keeps every SM awake and must match too, and the baseline must
 * have slept (else the comparison says nothing about sleeping). A policy's refusals kept while
 * its issue gate stands (RegMutex's) must match the same policy asked every cycle, and FineReg's
 * SMs asleep while its no stands the same awake. Classes a policy says when it changes (its
 * class epoch: register and scratchpad sharing's, and a test policy's that change every 37
 * cycles), walked with the memos, must match the same classes sorted and walked whole every
 * cycle. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../csim/config/config.h"
#include "../csim/core/sm.h"
#include "../csim/gpu/gpu.h"
#include "../csim/policy/policy_registry.h"
#include "common/test_util.h"

/* The baseline, with every warp in scheduling class 0 of 2. */
static int one_class_create(policy *p, rf_diag *d) {
  if (policy_baseline.create(p, d) < 0) return -1;
  p->warp_priorities = 2;
  return 0;
}
static int one_class(const policy *p, int sm, int slot) {
  (void)p;
  (void)sm;
  (void)slot;
  return 0;
}
static policy_ops one_class_ops;

/* The same, saying in runs of some cycles and not in others that the classes are uniform (an
 * answer of 0 is always allowed): the issue stage switches between its memos and the full
 * walk, and the run must not change. */
static int sometimes_uniform(const policy *p, int sm) {
  (void)p;
  (void)sm;
  static unsigned calls;
  return (++calls / 7) % 3 != 0;
}
static policy_ops mixed_ops;
static uint64_t mixed_kept; /* cycles the mixed policy's issue stage took its kept stall */

/* The baseline, awake every cycle: a policy with a tick hook never sleeps (quiet_allowed). */
static void no_tick(policy *p, int sm, uint64_t now) {
  (void)p;
  (void)sm;
  (void)now;
}
static policy_ops awake_ops;

/* VT and Reg+DRAM (CTA switching, a tick hook with tick_quiet) let their SMs sleep; the same
 * policies without tick_quiet never do. */
static policy_ops vt_awake_ops, regdram_awake_ops;

typedef struct watch {
  uint64_t hash;
  uint64_t slept; /* cycles slept, summed over the SMs, at the last cycle seen */
  uint64_t kept;  /* cycles whose issue stage took its kept stall, likewise */
} watch;

/* Every cycle, each SM's issued warp and first scheduler's stall reason (what waveforms show;
 * the stats count SCOREBOARD and MEMORY alike), folded into a hash. */
static void hash_cycle(void *ctx, const gpu *g, uint64_t now) {
  watch *wt = ctx;
  uint64_t slept = 0, kept = 0;
  for (int i = 0; i < gpu_num_sms(g); i++) {
    const struct sm *s = gpu_sm(g, i);
    uint64_t v = (uint64_t)(sm_last_issued_warp(s) + 1) << 8 | (uint64_t)sm_last_stall(s);
    wt->hash = (wt->hash ^ (v + now)) * 0x100000001b3ull;
    slept += sm_slept_cycles(s);
    kept += sm_stage_kept_cycles(s);
  }
  wt->slept = slept;
  wt->kept = kept;
}

/* Every kernel of a kernelslist and the total as stats text, then the hash (malloc'd); the
 * cycles slept in *slept, those of a kept issue stage in *kept. */
static char *run_list(const gpu_config *c, const policy_ops *ops, const char *list_path,
                      uint64_t *slept, uint64_t *kept) {
  watch wt = {0xcbf29ce484222325ull, 0, 0};
  stats_record total;
  char *text = tu_run_list_with(c, HW_C, ops, hash_cycle, &wt, list_path, &total);
  *slept = wt.slept;
  *kept = wt.kept;
  uint64_t hash = wt.hash;
  stats_free(&total);
  size_t n = strlen(text);
  char *out = realloc(text, n + 64);
  assert_non_null(out);
  snprintf(out + n, 64, "issue and stall reason per cycle: hash %016llx\n",
           (unsigned long long)hash);
  return out;
}

static void differ(const char *list_path, const char *what, const char *a, const char *b) {
  const char *x = a, *y = b;
  while (*x && *x == *y) x++, y++;
  while (x > a && x[-1] != '\n') x--, y--;
  fail_msg("%s: %s differ at\n  %.80s\n  %.80s", list_path, what, x, y);
}

/* The baseline, the one-class policy, the mixed one and the baseline awake on one list:
 * identical stats, some instructions, and the baseline slept (the others never do). Returns the
 * cycles it slept; adds those of a kept issue stage, awake (the one-class policy never keeps
 * one), to *kept, and the mixed policy's to mixed_kept. */
static uint64_t expect_same(const gpu_config *c, const char *list_path, uint64_t *kept) {
  uint64_t slept, slept_one_class, slept_mixed, slept_awake;
  uint64_t kept_base, kept_one_class, kept_mixed, kept_awake;
  char *a = run_list(c, &policy_baseline, list_path, &slept, &kept_base);
  char *b = run_list(c, &one_class_ops, list_path, &slept_one_class, &kept_one_class);
  char *m = run_list(c, &mixed_ops, list_path, &slept_mixed, &kept_mixed);
  char *w = run_list(c, &awake_ops, list_path, &slept_awake, &kept_awake);
  if (strcmp(a, b) != 0) differ(list_path, "the memo path and the full walk", a, b);
  if (strcmp(a, m) != 0) differ(list_path, "the memo path and the two by turns", a, m);
  if (strcmp(a, w) != 0) differ(list_path, "the SMs sleeping and awake", a, w);
  assert_null(strstr(a, "gpgpu_n_tot_w_icount = 0\n"));
  assert_int_equal(slept_one_class, 0);
  assert_int_equal(slept_mixed, 0);
  assert_int_equal(slept_awake, 0);
  assert_int_equal(kept_one_class, 0);
  *kept += kept_awake;
  mixed_kept += kept_mixed;
  free(a);
  free(b);
  free(m);
  free(w);
  return slept;
}

/* Hand-written kernels, each warp of a block running one of these bodies: barriers (also as a
 * warp's last instruction), MEMBAR after loads and stores, loads feeding dependent chains,
 * shared memory, SFU work that fills its pipeline, and independent work to dual-issue. */
static const char *const bodies[] = {
    "1 R1 LDG.E 0 4 1 0x10000 4\n1 R2 IADD 2 R1 R1 0\n0 BAR.SYNC 0 0\n1 R3 IADD 1 R2 0\n"
    "0 STG.E 2 R3 R1 4 1 0x30000 4\n0 MEMBAR.CTA 0 0\n1 R4 MUFU.RCP 1 R3 0\n"
    "1 R5 MUFU.RCP 1 R4 0\n0 BAR.SYNC 0 0\n0 EXIT 0 0\n",
    "1 R1 MUFU.RCP 0 0\n1 R2 MUFU.RCP 0 0\n1 R3 MUFU.RCP 0 0\n1 R6 LDS.U.32 0 4 1 0x80 4\n"
    "0 BAR.SYNC 0 0\n1 R4 FFMA 2 R6 R1 0\n0 MEMBAR.GL 0 0\n1 R5 IADD 2 R4 R2 0\n"
    "0 BAR.SYNC 0 0\n0 EXIT 0 0\n",
    "1 R1 IADD 0 0\n1 R2 FADD 0 0\n1 R3 IADD 0 0\n1 R4 FADD 0 0\n1 R5 LDG.E 0 4 1 0x20000 128\n"
    "0 BAR.SYNC 0 0\n1 R6 FFMA 2 R5 R5 0\n1 R7 FFMA 2 R6 R6 0\n0 BAR.SYNC 0 0\n"
    "0 EXIT 0 0\n",
    "1 R1 LDG.E 0 4 1 0x28000 256\n1 R2 LDG.E 0 4 1 0x29000 4\n0 MEMBAR.CTA 0 0\n"
    "0 BAR.SYNC 0 0\n1 R3 FFMA 2 R1 R2 0\n0 BAR.SYNC 0 0\n"};

static void hand_written(const char *file, const char *const (*opts)[2], int nopts) {
  gpu_config c;
  tu_load_config(&c, file, opts, nopts);
  char dir[256], list[512];
  char *text = tu_kernel_text("memo", 12, 8, 16, bodies, 4);
  tu_kernel_dir(dir, sizeof dir, list, sizeof list, text);
  free(text);
  uint64_t kept = 0;
  assert_true(expect_same(&c, list, &kept) > 0);
  tu_rmtree(dir);
}

static void test_hand_written_lrr(void **state) {
  (void)state;
  const char *const opts[][2] = {{"-gpgpu_n_clusters", "2"}};
  hand_written("configs/gtx480.config", opts, 1);
}

static void test_hand_written_lrr_dual_issue(void **state) {
  (void)state;
  const char *const opts[][2] = {{"-gpgpu_n_clusters", "1"},
                                 {"-gpgpu_num_sched_per_core", "1"},
                                 {"-gpgpu_max_insn_issue_per_warp", "2"}};
  hand_written("configs/gtx480.config", opts, 3);
}

static void test_hand_written_gto_sub_core(void **state) {
  (void)state;
  const char *const opts[][2] = {{"-gpgpu_n_clusters", "1"}};
  hand_written("configs/titanv.config", opts, 1);
}

/* Generated workloads (make workloads) on the configs of the speed measurements; under the
 * sanitizers (three runs each, several times slower) every other pair of workload and config,
 * so that CI stays within its time. */
#if defined(__SANITIZE_ADDRESS__)
#define PAIR_STRIDE 2
#else
#define PAIR_STRIDE 1
#endif
static void test_workloads(void **state) {
  (void)state;
  static const char *const traces[] = {"warpman_ray", "regshare_sgemm", "spshare_conv1",
                                       "finereg_km", "larf_conv"};
  static const char *const configs[] = {"configs/gtx480.config", "configs/titanv.config",
                                        "configs/gtx980.config"};
  uint64_t slept = 0, kept = 0;
  for (size_t t = 0; t < sizeof traces / sizeof traces[0]; t++) {
    char list[256];
    snprintf(list, sizeof list, "build/traces/%s/kernelslist.g", traces[t]);
    if (access(list, R_OK) != 0) fail_msg("%s missing: run make workloads", list);
    for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++) {
      if ((t + k) % PAIR_STRIDE) continue;
      gpu_config c;
      tu_load_config(&c, configs[k], NULL, 0);
      slept += expect_same(&c, list, &kept);
    }
  }
  assert_true(slept > 0);
  assert_true(kept > 0); /* else the comparison says nothing about the kept stalls */
  assert_true(mixed_kept > 0); /* (the mixed policy's memo cycles took kept stalls too) */
}

/* Some kernel of the stats text switched a CTA in. */
static int some_switch(const char *text) {
  for (const char *p = text; (p = strstr(p, "_switches_in = ")) != NULL;) {
    p += strlen("_switches_in = ");
    if (*p != '0') return 1;
  }
  return 0;
}

/* A policy whose SMs sleep and the same policy kept awake, on one list: identical stats with
 * the SMs' counters settled every cycle (an observer) and when they wake (none), and the awake
 * one never slept. Returns the cycles the first slept; *switched is set if a kernel switched a
 * CTA in. */
static uint64_t expect_asleep_as_awake(const gpu_config *c, const char *list,
                                       const policy_ops *asleep, const policy_ops *awake,
                                       int *switched) {
  uint64_t slept, slept_awake, kept;
  char *a = run_list(c, asleep, list, &slept, &kept);
  char *b = run_list(c, awake, list, &slept_awake, &kept);
  if (strcmp(a, b) != 0) differ(list, "asleep and awake, counted every cycle", a, b);
  assert_int_equal(slept_awake, 0);
  *switched |= some_switch(a);
  free(a);
  free(b);
  stats_record total;
  a = tu_run_list_with(c, HW_C, asleep, NULL, NULL, list, &total);
  stats_free(&total);
  b = tu_run_list_with(c, HW_C, awake, NULL, NULL, list, &total);
  stats_free(&total);
  if (strcmp(a, b) != 0) differ(list, "asleep and awake, counted when the SMs wake", a, b);
  free(a);
  free(b);
  return slept;
}

/* The baseline admitting a second block to an SM only in the last 24 cycles of every 1,024, so
 * that blocks arrive at SMs asleep on their first block's loads; and the same, awake. */
static int late_admit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                      const trace_tb *tb, uint64_t now) {
  if (cta_slot > 0 && now % 1024 < 1000) return 0;
  return policy_baseline.cta_admit(p, sm, cta_slot, k, tb, now);
}
static policy_ops late_ops, late_awake_ops;

/* A block offered to a sleeping SM: the cycles it slept are counted with the residency they had
 * (before the block), as an SM stepped every cycle counts them. */
static void test_block_into_sleeping_sm(void **state) {
  (void)state;
  const char *list = "build/traces/warpman_mm/kernelslist.g";
  if (access(list, R_OK) != 0) fail_msg("%s missing: run make workloads", list);
  gpu_config c;
  tu_load_config(&c, "configs/gtx480.config", NULL, 0);
  int switched = 0; /* (the baseline switches nothing) */
  assert_true(expect_asleep_as_awake(&c, list, &late_ops, &late_awake_ops, &switched) > 0);
}

/* The CTA switching policies whose no stands until a view changes sleep between their
 * decisions: the same runs as awake, with an observer (the SMs' counters settled every cycle)
 * and without one (counted when an SM wakes, or before the dispatcher offers it a block). */
static void test_switching_sleeps(void **state) {
  (void)state;
  static const char *const traces[] = {"finereg_km", "warpman_mm"};
  static const char *const configs[] = {"configs/gtx980.config", "configs/titanv.config"};
  const policy_ops *const sleeping[] = {&policy_vt, &policy_regdram};
  const policy_ops *const awake[] = {&vt_awake_ops, &regdram_awake_ops};
  uint64_t slept_total = 0;
  int switched = 0;
  for (size_t t = 0; t < sizeof traces / sizeof traces[0]; t++) {
    char list[256];
    snprintf(list, sizeof list, "build/traces/%s/kernelslist.g", traces[t]);
    if (access(list, R_OK) != 0) fail_msg("%s missing: run make workloads", list);
    for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++)
      for (size_t p = 0; p < 2; p++) {
        if ((t + k + p) % PAIR_STRIDE) continue;
        gpu_config c;
        tu_load_config(&c, configs[k], NULL, 0);
        slept_total += expect_asleep_as_awake(&c, list, sleeping[p], awake[p], &switched);
      }
  }
  assert_true(slept_total > 0);
  assert_true(switched); /* else the runs say nothing about switching */
}

/* FineReg kept awake (no tick_quiet: quiet_allowed says no), and FineReg counting the asks its
 * SMs slept through (switch_idle). */
static policy_ops finereg_awake_ops, finereg_counted_ops;
static uint64_t asks_slept;
static void count_switch_idle(policy *p, int sm, uint64_t cycles) {
  asks_slept += cycles;
  policy_finereg.switch_idle(p, sm, cycles);
}

/* FineReg's SMs sleep while its no stands (switch_quiet), counting each slept cycle's ask as
 * the ask would (switch_idle): the same runs as awake, on analogs whose small PCRF fills, so
 * that its no for want of room counts stalls (in sg and mc also in slept cycles, after the
 * kernel's last admission: an asleep SM that did not count them fails there), and sr's ends when
 * another SM admits the kernel's last block (an SM asleep on it fails there). */
static void test_finereg_sleeps(void **state) {
  (void)state;
  static const struct {
    const char *trace, *config, *pcrf_kb;
  } runs[] = {{"finereg_sg", "configs/gtx980.config", "4"},
              {"finereg_mc", "configs/gtx980.config", "8"},
              {"finereg_sr", "configs/gtx980.config", "4"},
              {"finereg_hs", "configs/titanv.config", "4"}};
  uint64_t slept_total = 0;
  int switched = 0;
  asks_slept = 0;
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    char list[256];
    snprintf(list, sizeof list, "build/traces/%s/kernelslist.g", runs[i].trace);
    if (access(list, R_OK) != 0) fail_msg("%s missing: run make workloads", list);
    const char *const opts[][2] = {{"-rfsim_policy", "finereg"},
                                   {"-finereg_pcrf_kb", runs[i].pcrf_kb}};
    gpu_config c;
    tu_load_config(&c, runs[i].config, opts, 2);
    slept_total +=
        expect_asleep_as_awake(&c, list, &finereg_counted_ops, &finereg_awake_ops, &switched);
  }
  print_message("FineReg: %llu SM cycles slept (observed runs); asks slept through, all runs: "
                "%llu\n", (unsigned long long)slept_total, (unsigned long long)asks_slept);
  assert_true(slept_total > 0);
  assert_true(asks_slept > 0); /* else the runs say nothing about the kept no asleep */
  assert_true(switched);
}

/* RegMutex asked about every refused warp every cycle (no issue gate), and RegMutex counting
 * the refusals the issue stage gave again without asking (refused_again). */
static policy_ops regmutex_asking_ops, regmutex_counted_ops;
static uint64_t given_again;
static void count_refused_again(policy *p, int sm) {
  given_again++;
  policy_regmutex.refused_again(p, sm);
}

/* The stat `name`'s value in the stats text's last (total) block. */
static uint64_t last_stat(const char *text, const char *name) {
  uint64_t v = UINT64_MAX;
  size_t n = strlen(name);
  for (const char *p = text; (p = strstr(p, name)) != NULL; p += n)
    if ((p == text || p[-1] == '\n') && !strncmp(p + n, " = ", 3))
      v = strtoull(p + n + 3, NULL, 10);
  assert_true(v != UINT64_MAX);
  return v;
}

/* A refused warp's answer kept while the policy's issue gate stands: RegMutex with a pool small
 * enough that warps wait for chunks (LRR on the GTX 980, GTO sub-core on the TITAN V) runs the
 * same as RegMutex asked every cycle, refusals counted alike, and the kept answer was used. */
static void test_refusals_kept(void **state) {
  (void)state;
  const char *list = "build/traces/finereg_km/kernelslist.g";
  if (access(list, R_OK) != 0) fail_msg("%s missing: run make workloads", list);
  static const struct {
    const char *config, *srp, *brs;
  } runs[] = {{"configs/gtx980.config", "5", "50"}, {"configs/titanv.config", "12", "25"}};
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    const char *const opts[][2] = {{"-rfsim_policy", "regmutex"},
                                   {"-regmutex_srp_pct", runs[i].srp},
                                   {"-regmutex_brs_pct", runs[i].brs}};
    gpu_config c;
    tu_load_config(&c, runs[i].config, opts, 3);
    uint64_t slept, kept;
    given_again = 0;
    char *a = run_list(&c, &regmutex_counted_ops, list, &slept, &kept);
    uint64_t again = given_again;
    char *b = run_list(&c, &regmutex_asking_ops, list, &slept, &kept);
    if (strcmp(a, b) != 0) differ(list, "refusals kept and asked again", a, b);
    uint64_t refusals = last_stat(a, "regmutex_srp_stall_checks");
    print_message("%s: %llu refusals, %llu of them kept\n", runs[i].config,
                  (unsigned long long)refusals, (unsigned long long)again);
#ifdef RFSIM_SELF_CHECK /* (this build asks anyway, and aborts on a refusal that did not stand) */
    assert_int_equal(again, 0);
    (void)refusals;
#else
    assert_true(again > 0 && again < refusals);
#endif
    assert_int_equal(given_again, again); /* (the asking run gives none without asking) */
    free(a);
    free(b);
  }
}

/* Classes that change (policy_ops.warp_classes_epoch): the baseline with three classes, each
 * warp slot's drawn from the SM's epoch, which its per-cycle hook moves every 37 cycles; with
 * the epoch the issue stage keeps its memos and walks the classes in turn, without it it sorts
 * and looks at every warp each cycle. */
static uint64_t class_epoch[128];
static uint64_t epoch_moves;
static int moving_create(policy *p, rf_diag *d) {
  if (policy_baseline.create(p, d) < 0) return -1;
  p->warp_priorities = 3;
  memset(class_epoch, 0, sizeof class_epoch);
  return 0;
}
static int moving_class(const policy *p, int sm, int slot) {
  (void)p;
  uint64_t h = (class_epoch[sm] + 1) * 0x9E3779B97F4A7C15ull ^
               (uint64_t)slot * 0xBF58476D1CE4E5B9ull;
  return (int)((h >> 29) % 3);
}
static int moving_cycle(policy *p, int sm, const policy_sm_view *v, uint64_t now, rf_diag *d) {
  (void)p;
  (void)v;
  (void)d;
  if (now % 37 == (uint64_t)sm % 37) class_epoch[sm]++, epoch_moves++;
  return 0;
}
static const uint64_t *moving_epoch(policy *p, int sm) {
  (void)p;
  return &class_epoch[sm];
}
static policy_ops moving_ops, moving_walk_ops, regshare_walk_ops, spshare_walk_ops;

/* The same run with a policy's class epoch and without: identical stats and issue and stall
 * reasons every cycle, and with the epoch some cycles took a kept stall. */
static void expect_epoch_same(const gpu_config *c, const char *list, const policy_ops *with,
                              const policy_ops *without) {
  uint64_t slept, kept_with, kept_without;
  char *a = run_list(c, with, list, &slept, &kept_with);
  char *b = run_list(c, without, list, &slept, &kept_without);
  if (strcmp(a, b) != 0) differ(list, "the classes kept by epoch and sorted every cycle", a, b);
  assert_null(strstr(a, "gpgpu_n_tot_w_icount = 0\n"));
  assert_int_equal(kept_without, 0);
  assert_true(kept_with > 0);
  free(a);
  free(b);
}

static void test_classes_by_epoch(void **state) {
  (void)state;
  static const char *const configs[] = {"configs/gtx480.config", "configs/titanv.config"};
  char dir[256], hand[512];
  char *text = tu_kernel_text("memo", 12, 8, 16, bodies, 4);
  tu_kernel_dir(dir, sizeof dir, hand, sizeof hand, text);
  free(text);
  const char *lists[] = {hand, "build/traces/regshare_sgemm/kernelslist.g"};
  if (access(lists[1], R_OK) != 0) fail_msg("%s missing: run make workloads", lists[1]);
  for (size_t k = 0; k < 2; k++)
    for (size_t l = 0; l < 2; l++) {
      const char *const opts[][2] = {{"-gpgpu_n_clusters", "2"}};
      gpu_config c;
      tu_load_config(&c, configs[k], opts, 1);
      epoch_moves = 0;
      expect_epoch_same(&c, lists[l], &moving_ops, &moving_walk_ops);
      assert_true(epoch_moves > 0);
    }
  tu_rmtree(dir);
  /* register and scratchpad sharing's owner-warp-first classes (rs_share's prio_o; sp_share's
   * owner and partner outputs with the TBs' residency), LRR and GTO */
  static const struct {
    const char *trace, *config, *owf;
    const policy_ops *with, *without;
  } sharing[] = {
      {"regshare_sgemm", "configs/tesla_c2050.config", "-regshare_owf", &policy_regshare,
       &regshare_walk_ops},
      {"regshare_hotspot", "configs/tesla_c2050.config", "-regshare_owf", &policy_regshare,
       &regshare_walk_ops},
      {"spshare_conv1", "configs/tesla_c2050_scratchpad.config", "-spshare_owf",
       &policy_spshare, &spshare_walk_ops},
      {"spshare_lavamd", "configs/tesla_c2050_scratchpad.config", "-spshare_owf",
       &policy_spshare, &spshare_walk_ops},
  };
  static const char *const scheds[] = {"lrr", "gto"};
  for (size_t t = 0; t < sizeof sharing / sizeof sharing[0]; t++)
    for (size_t k = 0; k < 2; k++) {
      char list[256];
      snprintf(list, sizeof list, "build/traces/%s/kernelslist.g", sharing[t].trace);
      if (access(list, R_OK) != 0) fail_msg("%s missing: run make workloads", list);
      const char *const opts[][2] = {{sharing[t].owf, "1"}, {"-gpgpu_scheduler", scheds[k]}};
      gpu_config c;
      tu_load_config(&c, sharing[t].config, opts, 2);
      expect_epoch_same(&c, list, sharing[t].with, sharing[t].without);
    }
}

int main(void) {
  moving_ops = policy_baseline;
  moving_ops.name = "baseline-moving-classes";
  moving_ops.create = moving_create;
  moving_ops.warp_priority = moving_class;
  moving_ops.cycle = moving_cycle;
  moving_ops.warp_classes_epoch = moving_epoch;
  moving_walk_ops = moving_ops;
  moving_walk_ops.warp_classes_epoch = NULL;
  regshare_walk_ops = policy_regshare;
  regshare_walk_ops.warp_classes_epoch = NULL;
  spshare_walk_ops = policy_spshare;
  spshare_walk_ops.warp_classes_epoch = NULL;
  one_class_ops = policy_baseline;
  one_class_ops.name = "baseline-one-class";
  one_class_ops.create = one_class_create;
  one_class_ops.warp_priority = one_class;
  mixed_ops = one_class_ops;
  mixed_ops.name = "baseline-one-class-mixed";
  mixed_ops.warp_classes_uniform = sometimes_uniform;
  late_ops = policy_baseline;
  late_ops.name = "baseline-late-admit";
  late_ops.cta_admit = late_admit;
  late_ops.may_admit = NULL;
  late_ops.may_admit_any = NULL;
  late_awake_ops = late_ops;
  late_awake_ops.tick = no_tick;
  vt_awake_ops = policy_vt;
  vt_awake_ops.tick_quiet = NULL;
  regdram_awake_ops = policy_regdram;
  regdram_awake_ops.tick_quiet = NULL;
  finereg_awake_ops = policy_finereg;
  finereg_awake_ops.tick_quiet = NULL;
  finereg_counted_ops = policy_finereg;
  finereg_counted_ops.switch_idle = count_switch_idle;
  regmutex_asking_ops = policy_regmutex;
  regmutex_asking_ops.issue_gate = NULL;
  regmutex_asking_ops.refused_again = NULL;
  regmutex_counted_ops = policy_regmutex;
  regmutex_counted_ops.refused_again = count_refused_again;
  awake_ops = policy_baseline;
  awake_ops.name = "baseline-awake";
  awake_ops.tick = no_tick;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hand_written_lrr),
      cmocka_unit_test(test_hand_written_lrr_dual_issue),
      cmocka_unit_test(test_hand_written_gto_sub_core),
      cmocka_unit_test(test_workloads),
      cmocka_unit_test(test_switching_sleeps),
      cmocka_unit_test(test_block_into_sleeping_sm),
      cmocka_unit_test(test_refusals_kept),
      cmocka_unit_test(test_finereg_sleeps),
      cmocka_unit_test(test_classes_by_epoch),
  };
  return cmocka_run_group_tests_name("issue stage memos and quiet cycles", tests, NULL, NULL);
}
