/* WarpMan (csim/policy/warpman.c) and its integration with the hardware units:
 *  - directed admission cases on the policy API, in every -hw mode: full TB after the check
 *    unit's 1-cycle answer, partial TB after its 6-cycle division, the workload buffer issuing
 *    warps in order, one per cycle, as resources free, no new TB while it is valid;
 *  - a partial TB whose warps meet a barrier completes (no deadlock);
 *  - mode off reproduces the baseline policy cycle for cycle; temp keeps more warps resident on
 *    an imbalanced workload (warpman_st); threshold 1 is temp and a huge threshold is spatial;
 *  - RTRU and lifetime stats agree with each other on a two-warp TB;
 *  - a whole workload in -hw rtl and lockstep gives the C mode's stats; every WarpMan workload
 *    in every mode that uses the units passes lockstep with the C mode's stats;
 *  - bin/rfsim: a lockstep run with the broken wm_wlbuf RTL stops with the mismatch message;
 *    a -wave run writes an FST that fst2vcd reads, with the SM and unit signals, and a .gtkw.
 * Needs the generated workloads (make workloads), bin/rfsim and build/hw/rfsim-broken. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../csim/config/config.h"
#include "../csim/core/sm.h"
#include "../csim/gpu/gpu.h"
#include "../csim/policy/policy.h"
#include "../csim/trace/trace.h"
#include "common/test_util.h"

#define ST_TRACE "build/traces/warpman_st/kernelslist.g"
#define HS_TRACE "build/traces/warpman_hs/kernelslist.g"
#define MM_TRACE "build/traces/warpman_mm/kernelslist.g"

static void load_config_file(gpu_config *c, const char *path, const char *const (*opts)[2],
                             size_t n) {
  tu_load_config(c, path, opts, n);
}

static void load_config(gpu_config *c, const char *const (*opts)[2], size_t n) {
  load_config_file(c, "configs/gtx480.config", opts, n);
}

static void warpman_config(gpu_config *c, const char *mode) {
  const char *const opts[][2] = {{"-rfsim_policy", "warpman"}, {"-warpman_mode", mode}};
  load_config(c, opts, 2);
}

static const stat_entry *find_stat(const stats_record *r, const char *name) {
  for (int i = 0; i < r->n; i++)
    if (!strcmp(r->e[i].name, name)) return &r->e[i];
  fail_msg("stat %s missing", name);
  return NULL;
}
static uint64_t su(const stats_record *r, const char *name) { return find_stat(r, name)->u; }
static double sf(const stats_record *r, const char *name) { return find_stat(r, name)->f; }

/* Runs every kernel of a trace list; fills *total (caller frees) and returns the stats text
 * of all records without the line naming the -hw mode (malloc'ed). */
static char *run_list(const gpu_config *c, hw_mode mode, const char *list_path,
                      stats_record *total) {
  return tu_run_list(c, (int)mode, list_path, total);
}

/* ---- directed admission on the policy API ---- */

typedef struct harness {
  gpu_config cfg;
  policy p;
  trace_kernel_info k;
  uint64_t now;
  int resident_warps;
} harness;

/* One SM of the GTX 480; TBs of 16 warps at 26 registers per thread (28 after GPGPU-Sim's
 * rounding: 896 per warp, 14336 per TB): two full TBs fit the 32768 registers, and the 4096
 * left hold 4 warps of a third. */
static void harness_init(harness *h, const char *mode, hw_mode hw) {
  memset(h, 0, sizeof *h);
  warpman_config(&h->cfg, mode);
  rf_diag d;
  if (policy_create(&h->p, &h->cfg, 1, hw, NULL, &d) < 0) fail_msg("%s", d.msg);
  snprintf(h->k.name, sizeof h->k.name, "directed");
  h->k.grid[0] = 64;
  h->k.grid[1] = h->k.grid[2] = 1;
  h->k.block[0] = 512;
  h->k.block[1] = h->k.block[2] = 1;
  h->k.nregs = 26;
  h->k.num_tbs = 64;
  h->k.threads_per_tb = 512;
  h->k.warps_per_tb = 16;
  if (h->p.ops->kernel_begin(&h->p, &h->k, &d) < 0) fail_msg("%s", d.msg);
  h->now = 1; /* cycle 0 is the units' reset */
}

static int admit(harness *h, int slot, long tb_id) {
  trace_tb tb = {.id = {(int)tb_id, 0, 0}, .linear_id = tb_id, .nwarps = 16};
  int n = h->p.ops->cta_admit(&h->p, 0, slot, &h->k, &tb, h->now);
  h->resident_warps += n;
  return n;
}

static int warp_admit(harness *h, int slot, int warp) {
  int n = h->p.ops->warp_admit(&h->p, 0, slot, warp, &h->k, h->now);
  h->resident_warps += n;
  return n;
}

static void warp_exit(harness *h, int slot, int warp) {
  h->p.ops->warp_exit(&h->p, 0, slot, warp, &h->k, h->now);
  h->resident_warps--;
}

/* Ends the cycle: the units take their edge. */
static void end_cycle(harness *h) {
  rf_diag d;
  policy_sm_view v = {1, h->resident_warps, 0, 0};
  if (h->p.ops->cycle(&h->p, 0, &v, h->now, &d) < 0) fail_msg("%s", d.msg);
  h->now++;
}

static uint64_t policy_stat(harness *h, const char *name) {
  stats_record r;
  stats_init(&r);
  h->p.ops->stats(&h->p, &r, 0);
  uint64_t v = su(&r, name);
  stats_free(&r);
  return v;
}

static void directed_spatial(hw_mode hw) {
  harness h;
  harness_init(&h, "spatial", hw);
  /* full TBs: request in cycle c, dispatched in c+1 */
  for (int slot = 0; slot < 2; slot++) {
    assert_int_equal(admit(&h, slot, slot), 0);
    end_cycle(&h);
    assert_int_equal(admit(&h, slot, slot), 16);
    end_cycle(&h);
  }
  /* the third TB does not fit whole: the partial answer takes 6 more edges */
  uint64_t asked = h.now;
  assert_int_equal(admit(&h, 2, 31), 0);
  end_cycle(&h);
  while (h.now < asked + 7) {
    assert_int_equal(admit(&h, 2, 31), 0);
    end_cycle(&h);
  }
  assert_int_equal(admit(&h, 2, 31), 4); /* 4096 registers / 896 per warp */
  end_cycle(&h);
  assert_int_equal(policy_stat(&h, "warpman_partial_tbs"), 1);
  /* the buffer holds warps 4..15; no TB is checked while it is valid */
  uint64_t requests = policy_stat(&h, "warpman_check_requests");
  assert_int_equal(admit(&h, 3, 32), 0);
  assert_int_equal(warp_admit(&h, 2, 4), 0); /* no registers free */
  end_cycle(&h);
  assert_int_equal(policy_stat(&h, "warpman_check_requests"), requests);
  /* temp: each finished warp frees one warp's registers and slot at once */
  for (int w = 4; w < 16; w++) {
    warp_exit(&h, 0, w - 4);
    assert_int_equal(warp_admit(&h, 2, w + 1), 0); /* warp-id order */
    assert_int_equal(warp_admit(&h, 2, w), 1);
    warp_exit(&h, 1, w - 4);
    assert_int_equal(warp_admit(&h, 2, w + 1), 0); /* one warp per cycle */
    assert_int_equal(admit(&h, 3, 32), 0);
    end_cycle(&h);
  }
  assert_int_equal(policy_stat(&h, "warpman_buffer_warps"), 12);
  /* buffer empty: TBs are checked again, and the 512 + 12 * 896 = 11264 free registers take
   * 12 warps of the next TB: a second partial TB */
  asked = h.now;
  assert_int_equal(admit(&h, 3, 32), 0);
  end_cycle(&h);
  while (h.now < asked + 7) {
    assert_int_equal(admit(&h, 3, 32), 0);
    end_cycle(&h);
  }
  assert_int_equal(admit(&h, 3, 32), 12);
  end_cycle(&h);
  assert_int_equal(policy_stat(&h, "warpman_check_requests"), requests + 1);
  assert_int_equal(policy_stat(&h, "warpman_partial_tbs"), 2);
  assert_int_equal(policy_stat(&h, "warpman_check_stale"), 0);
  assert_int_equal(policy_stat(&h, "warpman_tbs"), 0);
  policy_destroy(&h.p);
}

static void directed_temp(hw_mode hw) {
  harness h;
  harness_init(&h, "temp", hw);
  for (int slot = 0; slot < 2; slot++) {
    assert_int_equal(admit(&h, slot, slot), 0);
    end_cycle(&h);
    assert_int_equal(admit(&h, slot, slot), 16);
    end_cycle(&h);
  }
  /* no partial TBs: the check answers "none" every cycle until a whole TB fits */
  for (int i = 0; i < 10; i++) {
    assert_int_equal(admit(&h, 2, 2), 0);
    end_cycle(&h);
  }
  for (int w = 0; w < 11; w++) warp_exit(&h, 0, w); /* 9856 + 4096 free: not yet 14336 */
  assert_int_equal(admit(&h, 2, 2), 0);
  end_cycle(&h);
  assert_int_equal(admit(&h, 2, 2), 0);
  warp_exit(&h, 0, 11); /* 14848 free: the answer to this cycle's request is "full" */
  end_cycle(&h);
  assert_int_equal(admit(&h, 2, 2), 16);
  assert_int_equal(policy_stat(&h, "warpman_partial_tbs"), 0);
  policy_destroy(&h.p);
}

static void test_directed_c(void **state) {
  (void)state;
  directed_spatial(HW_C);
  directed_temp(HW_C);
}

static void test_directed_lockstep(void **state) {
  (void)state;
  directed_spatial(HW_LOCKSTEP);
  directed_temp(HW_LOCKSTEP);
  directed_spatial(HW_RTL);
}

/* ---- whole kernels ---- */

/* A kernel of ntb TBs of 16 warps, 26 registers per thread, every warp running `body`. */
static char *kernel_text(int ntb, const char *const *bodies, int nbodies) {
  char *t = tu_kernel_text("directed", ntb, 16, 26, bodies, nbodies);
  assert_non_null(t);
  return t;
}

/* Runs one kernel text; fills the kernel's stats (caller frees). obs may be NULL. */
static int run_text(gpu_config *c, const char *text, stats_record *r, rf_diag *d,
                    const gpu_observer *obs) {
  char dir[256], path[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  assert_int_equal(tu_write(dir, "kernel-1.traceg", text), 0);
  snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
  gpu *g = gpu_create(c, stderr, d);
  if (!g) fail_msg("%s", d->msg);
  if (obs) gpu_set_observer(g, *obs);
  stats_init(r);
  int rc = gpu_run_kernel(g, path, r, d);
  gpu_destroy(g);
  tu_rmtree(dir);
  return rc;
}

/* Observer: was there a cycle where warps of a TB waited at a barrier while others of the same
 * TB were not launched yet? (From the SM's own report, as the watchdog prints it.) */
static void see_partial_barrier(void *ctx, const gpu *g, uint64_t now) {
  (void)now;
  int *seen = ctx;
  if (*seen) return;
  char *text = NULL;
  size_t n;
  FILE *f = open_memstream(&text, &n);
  sm_report_warps(gpu_sm(g, 0), f);
  fclose(f);
  for (const char *p = strstr(text, "warps not launched"); p && !*seen;
       p = strstr(p + 1, "warps not launched")) {
    const char *cta = p;
    while (cta > text && strncmp(cta, "CTA (", 5) != 0) cta--;
    char key[64];
    int len = (int)(strchr(cta, ')') - cta + 1);
    snprintf(key, sizeof key, "%.*s warp", len, cta);
    for (const char *w = strstr(text, key); w && !*seen; w = strstr(w + 1, key)) {
      const char *eol = strchr(w, '\n');
      const char *bar = strstr(w, "waiting at barrier");
      if (bar && bar < eol) *seen = 1;
    }
  }
  free(text);
}

/* Four TBs on one SM: two run whole, the third is dispatched with 4 of its 16 warps, which
 * reach the barrier and wait there for the 12 still in the buffer; those can only start when
 * TBs 0 and 1 have finished and released their registers. It must complete. */
static void test_partial_tb_barrier_completes(void **state) {
  (void)state;
  const char *const opts[][2] = {{"-rfsim_policy", "warpman"}, {"-warpman_mode", "spatial"},
                                 {"-gpgpu_n_clusters", "1"}, {"-rfsim_watchdog", "20000"}};
  gpu_config c;
  load_config(&c, opts, 4);
  const char *bodies[] = {"1 R1 IADD 0 0\n1 R2 IADD 1 R1 0\n0 BAR.SYNC 0 0\n"
                          "1 R3 IADD 1 R2 0\n0 BAR.SYNC 0 0\n1 R4 IADD 1 R3 0\n0 EXIT 0 0\n"};
  char *text = kernel_text(4, bodies, 1);
  stats_record r;
  rf_diag d = {{0}, 0};
  int seen = 0;
  gpu_observer obs = {see_partial_barrier, &seen};
  int rc = run_text(&c, text, &r, &d, &obs);
  free(text);
  if (rc < 0) fail_msg("%s", d.msg);
  assert_true(seen);
  assert_int_equal(su(&r, "gpu_completed_cta"), 4);
  assert_int_equal(su(&r, "gpgpu_n_tot_w_icount"), 4 * 16 * 7);
  assert_true(su(&r, "warpman_partial_tbs") >= 1);
  assert_true(su(&r, "warpman_buffer_warps") >= 12);
  assert_int_equal(su(&r, "warpman_check_stale"), 0);
  stats_free(&r);
}

/* One TB of 16 warps: warps 0-7 run 40 dependent instructions, warps 8-15 one. RTRU from the
 * lifetimes: T_long = max, T_short = 2 * mean - max, RTRU = (max - T_short) / (2 * max). */
static void test_rtru_of_one_tb(void **state) {
  (void)state;
  const char *const opts[][2] = {{"-rfsim_policy", "warpman"}, {"-warpman_mode", "off"},
                                 {"-gpgpu_n_clusters", "1"}};
  gpu_config c;
  load_config(&c, opts, 3);
  char lng[4096] = "";
  for (int i = 0; i < 40; i++) strcat(lng, "1 R1 IADD 1 R1 0\n");
  strcat(lng, "0 EXIT 0 0\n");
  const char *bodies[] = {lng, lng, lng, lng, lng, lng, lng, lng, "0 EXIT 0 0\n", "0 EXIT 0 0\n",
                          "0 EXIT 0 0\n", "0 EXIT 0 0\n", "0 EXIT 0 0\n", "0 EXIT 0 0\n",
                          "0 EXIT 0 0\n", "0 EXIT 0 0\n"};
  char *text = kernel_text(1, bodies, 16);
  stats_record r;
  rf_diag d = {{0}, 0};
  if (run_text(&c, text, &r, &d, NULL) < 0) fail_msg("%s", d.msg);
  free(text);
  double max = (double)su(&r, "warpman_warp_lifetime_max");
  double mean = sf(&r, "warpman_warp_lifetime_mean");
  double t_short = 2 * mean - max;
  double rtru = (max - t_short) / (2 * max);
  assert_true(max > 40 * 4);  /* 40 dependent IADDs of latency 4 */
  assert_true(rtru > 0.2 && rtru < 1.0);
  assert_float_equal(sf(&r, "warpman_rtru_mean"), rtru, 1e-3);
  assert_float_equal(sf(&r, "warpman_rtru_geomean"), rtru, 1e-3); /* one TB */
  assert_int_equal(su(&r, "warpman_tbs"), 1);
  stats_free(&r);
}

static uint64_t cycles_of(const char *mode, const char *policy_name, const char *trace,
                          stats_record *out) {
  const char *const opts[][2] = {{"-rfsim_policy", policy_name}, {"-warpman_mode", mode}};
  gpu_config c;
  load_config(&c, opts, 2);
  stats_record t;
  free(run_list(&c, HW_C, trace, &t));
  uint64_t cyc = su(&t, "gpu_sim_cycle");
  if (out) *out = t;
  else stats_free(&t);
  return cyc;
}

static void test_off_is_baseline(void **state) {
  (void)state;
  assert_int_equal(cycles_of("off", "warpman", MM_TRACE, NULL),
                   cycles_of("off", "baseline", MM_TRACE, NULL));
  assert_int_equal(cycles_of("off", "warpman", ST_TRACE, NULL),
                   cycles_of("off", "baseline", ST_TRACE, NULL));
}

/* ST's TBs have 8 long warps and 24 that leave early (RTRU ~0.75): with temp their slots and
 * registers take the next TB's warps. */
static void test_temp_keeps_more_warps_resident(void **state) {
  (void)state;
  stats_record off, temp;
  uint64_t c_off = cycles_of("off", "warpman", ST_TRACE, &off);
  uint64_t c_temp = cycles_of("temp", "warpman", ST_TRACE, &temp);
  double w_off = sf(&off, "rfsim_resident_warps_mean_per_sm");
  double w_temp = sf(&temp, "rfsim_resident_warps_mean_per_sm");
  print_message("warpman_st: off %llu cycles, %.2f warps/SM; temp %llu cycles, %.2f warps/SM\n",
                (unsigned long long)c_off, w_off, (unsigned long long)c_temp, w_temp);
  assert_true(w_temp > 1.5 * w_off);
  assert_true(su(&temp, "rfsim_resident_ctas_max_per_sm") > su(&off,
                                                               "rfsim_resident_ctas_max_per_sm"));
  assert_true(c_temp < c_off);
  assert_true(sf(&off, "warpman_rtru_geomean") > 0.5);
  assert_int_equal(su(&temp, "warpman_partial_tbs"), 0);
  stats_free(&off);
  stats_free(&temp);
}

static void test_threshold_and_dueling(void **state) {
  (void)state;
  const char *const t1[][2] = {{"-rfsim_policy", "warpman"}, {"-warpman_mode", "threshold"},
                               {"-warpman_threshold", "1"}};
  const char *const tbig[][2] = {{"-rfsim_policy", "warpman"}, {"-warpman_mode", "threshold"},
                                 {"-warpman_threshold", "4096"}};
  gpu_config c;
  stats_record r;
  load_config(&c, t1, 3);
  free(run_list(&c, HW_C, ST_TRACE, &r));
  assert_int_equal(su(&r, "warpman_partial_tbs"), 0);
  assert_int_equal(su(&r, "gpu_sim_cycle"), cycles_of("temp", "warpman", ST_TRACE, NULL));
  stats_free(&r);
  load_config(&c, tbig, 3);
  free(run_list(&c, HW_C, ST_TRACE, &r));
  assert_true(su(&r, "warpman_partial_tbs") > 0);
  assert_int_equal(su(&r, "gpu_sim_cycle"), cycles_of("spatial", "warpman", ST_TRACE, NULL));
  stats_free(&r);
  cycles_of("dueling", "warpman", ST_TRACE, &r);
  assert_true(su(&r, "warpman_duel_windows") > 0);
  assert_true(su(&r, "warpman_duel_spatial_wins") <= su(&r, "warpman_duel_windows"));
  stats_free(&r);
}

/* The whole workload with the units as RTL and in lockstep: the same stats as with the C
 * reference (and no mismatch). */
static void test_lockstep_whole_workload(void **state) {
  (void)state;
  gpu_config c;
  warpman_config(&c, "spatial");
  stats_record rc, rr, rl;
  char *tc = run_list(&c, HW_C, HS_TRACE, &rc);
  char *tr = run_list(&c, HW_RTL, HS_TRACE, &rr);
  char *tl = run_list(&c, HW_LOCKSTEP, HS_TRACE, &rl);
  assert_true(su(&rc, "warpman_partial_tbs") > 0);
  assert_string_equal(tc, tr);
  assert_string_equal(tc, tl);
  free(tc);
  free(tr);
  free(tl);
  stats_free(&rc);
  stats_free(&rr);
  stats_free(&rl);
}

/* Lockstep on every WarpMan workload of the suite, in each mode that drives the units: no
 * mismatch anywhere, and the stats equal the C reference run's (about 5 s in all). Under the
 * sanitizers (make test-sanitize sets RFSIM_SUITE_ROTATE) each workload in one mode, the modes
 * taken in turn: the 104 runs took over four minutes there. */
static void test_lockstep_every_warpman_workload(void **state) {
  (void)state;
  static const char *const names[] = {"bt", "ct", "hg", "hs", "mc", "mm", "nn",
                                      "pf", "ray", "rs", "sn", "sr", "st"};
  static const char *const modes[] = {"temp", "spatial", "dueling", "threshold"};
  const size_t nmodes = sizeof modes / sizeof modes[0];
  int rotate = getenv("RFSIM_SUITE_ROTATE") != NULL;
  int partial_runs = 0;
  for (size_t m = 0; m < nmodes; m++) {
    gpu_config c;
    warpman_config(&c, modes[m]);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
      if (rotate && i % nmodes != m) continue;
      char list[128];
      snprintf(list, sizeof list, "build/traces/warpman_%s/kernelslist.g", names[i]);
      stats_record rc, rl;
      char *tc = run_list(&c, HW_C, list, &rc);
      char *tl = run_list(&c, HW_LOCKSTEP, list, &rl);
      if (strcmp(tc, tl) != 0) fail_msg("%s (%s): lockstep stats differ from C", list, modes[m]);
      partial_runs += su(&rc, "warpman_partial_tbs") > 0;
      free(tc);
      free(tl);
      stats_free(&rc);
      stats_free(&rl);
    }
  }
  /* the suite does exercise partial TBs through the workload buffer */
  assert_true(partial_runs >= 5); /* (8 of the 26 runs with the rotation) */
}

/* The 32-CTA-slot GPUs (64 warp slots, 64K registers, 96 KB): the units' 32-slot variants
 * (wm_check.variants, wm_wlbuf.variants) are linked beside the paper's GTX 480 models, and
 * lockstep gives the C run's stats on each. */
static void test_lockstep_32_cta_slot_configs(void **state) {
  (void)state;
  static const char *const configs[] = {"configs/titanx.config", "configs/gtx980.config",
                                        "configs/titanv.config"};
  const char *const opts[][2] = {{"-rfsim_policy", "warpman"}, {"-warpman_mode", "spatial"}};
  for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++) {
    gpu_config c;
    load_config_file(&c, configs[i], opts, 2);
    stats_record rc, rl;
    char *tc = run_list(&c, HW_C, HS_TRACE, &rc);
    char *tl = run_list(&c, HW_LOCKSTEP, HS_TRACE, &rl);
    if (strcmp(tc, tl) != 0) fail_msg("%s: lockstep stats differ from C", configs[i]);
    free(tc);
    free(tl);
    stats_free(&rc);
    stats_free(&rl);
  }
}

static void test_config_errors(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  rf_diag d;
  assert_int_equal(config_set(&c, "-warpman_mode", "spacial", "x.config", 7, NULL, &d), -1);
  assert_string_equal(d.msg, "x.config:7: -warpman_mode: expected off, temp, spatial, dueling or "
                             "threshold, found 'spacial'");
  assert_int_equal(config_set(&c, "-warpman_mode", "temp", "x.config", 8, NULL, &d), 0);
  assert_int_equal(config_validate(&c, &d), -1);
  assert_string_equal(d.msg, "-warpman_mode: expected off unless -rfsim_policy is warpman "
                             "(alone or composed, e.g. warpman+larf), found -rfsim_policy "
                             "baseline");
}

/* ---- bin/rfsim ---- */

static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  assert_non_null(buf);
  size_t k;
  while ((k = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
    n += k;
    if (n == cap - 1) {
      cap *= 2;
      buf = realloc(buf, cap);
      assert_non_null(buf);
    }
  }
  buf[n] = '\0';
  fclose(f);
  return buf;
}

/* Runs a shell command; returns its exit status. */
static void test_broken_rtl_stops_the_simulator(void **state) {
  (void)state;
  if (access("build/hw/rfsim-broken", X_OK) != 0) fail_msg("build/hw/rfsim-broken missing");
  char dir[256], cmd[2048], err[512], fst[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  snprintf(err, sizeof err, "%s/stderr.txt", dir);
  snprintf(fst, sizeof fst, "%s/broken.fst", dir);
  snprintf(cmd, sizeof cmd,
           "build/hw/rfsim-broken -trace " HS_TRACE " -config configs/gtx480.config "
           "-rfsim_policy warpman -warpman_mode spatial -hw lockstep -wave %s > /dev/null 2> %s",
           fst, err);
  assert_int_equal(tu_sh(cmd), 1);
  char *msg = slurp(err);
  assert_non_null(msg);
  print_message("%s", msg);
  /* The fault (rtl/warpman/wm_wlbuf.v, BROKEN_FOR_TEST) flips L_TBId bit 0 when the entry's
   * L_TBId ends in 0xF and warp 7 is next. */
  const char *m = strstr(msg, "rfsim: error: cycle ");
  assert_non_null(m);
  assert_non_null(strstr(m, ".wm_wlbuf: field ltb_o: expected (C reference) 0x"));
  assert_non_null(strstr(m, "f, actual (RTL) 0x"));
  char want[600];
  snprintf(want, sizeof want, "e; waveform: %s (RTL internals: ", fst);
  assert_non_null(strstr(m, want));
  free(msg);
  /* the waveform up to the stop is complete and readable */
  snprintf(cmd, sizeof cmd, "fst2vcd %s 2>/dev/null | grep -q ltb_o", fst);
  assert_int_equal(tu_sh(cmd), 0);
  tu_rmtree(dir);
}

static void test_wave_run(void **state) {
  (void)state;
  char dir[256], cmd[2048], vcd[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  snprintf(vcd, sizeof vcd, "%s/w.vcd", dir);
  snprintf(cmd, sizeof cmd,
           "bin/rfsim -trace " HS_TRACE " -config configs/gtx480.config -rfsim_policy warpman "
           "-warpman_mode spatial -wave %s/w.fst -wave_window 1000:2500 > /dev/null 2>&1 && "
           "fst2vcd %s/w.fst > %s 2>/dev/null",
           dir, dir, vcd);
  assert_int_equal(tu_sh(cmd), 0);
  char *v = slurp(vcd);
  assert_non_null(v);
  const char *want[] = {"$scope module rfsim $end",  "$var wire 64 ", " cycle [63:0] $end",
                        "$scope module sm0 $end",    " issued_valid $end", " issued_wid [5:0]",
                        " stall_reason [3:0]",       " resident_ctas [3:0]",
                        " resident_warps [5:0]",     "$scope module sm14 $end",
                        "$scope module wm_check $end", " req_i $end", " partial_o $end",
                        " warps_o [5:0]",            "$scope module wm_wlbuf $end",
                        " valid_o $end",             " start_wid_o [4:0]", " ltb_o [25:0]",
                        "#1000000",                  "#2500500"};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
    if (!strstr(v, want[i])) fail_msg("%s: no '%s'", vcd, want[i]);
  assert_null(strstr(v, "#2501000"));
  assert_null(strstr(v, "#999500"));
  free(v);
  char gtkw[512];
  snprintf(gtkw, sizeof gtkw, "%s/w.gtkw", dir);
  char *g = slurp(gtkw);
  assert_non_null(g);
  assert_non_null(strstr(g, "rfsim.sm0.wm_wlbuf.valid_o"));
  assert_non_null(strstr(g, "rfsim.sm3.resident_warps[5:0]"));
  free(g);
  /* no window: every cycle; in RTL mode each Verilated model writes its own FST too */
  snprintf(cmd, sizeof cmd,
           "bin/rfsim -trace " HS_TRACE " -config configs/gtx480.config -rfsim_policy warpman "
           "-warpman_mode spatial -hw rtl -wave %s/all.fst > /dev/null 2>&1 && "
           "fst2vcd %s/all.fst > %s 2>/dev/null && "
           "fst2vcd %s/all.sm14.wm_check.rtl.fst 2>/dev/null | grep -q quo_q",
           dir, dir, vcd, dir);
  assert_int_equal(tu_sh(cmd), 0);
  v = slurp(vcd);
  assert_non_null(v);
  assert_non_null(strstr(v, "\n#4000000\n"));
  free(v);
  tu_rmtree(dir);
}

int main(void) {
  tu_private_cache();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_c),
      cmocka_unit_test(test_directed_lockstep),
      cmocka_unit_test(test_partial_tb_barrier_completes),
      cmocka_unit_test(test_rtru_of_one_tb),
      cmocka_unit_test(test_off_is_baseline),
      cmocka_unit_test(test_temp_keeps_more_warps_resident),
      cmocka_unit_test(test_threshold_and_dueling),
      cmocka_unit_test(test_lockstep_whole_workload),
      cmocka_unit_test(test_lockstep_every_warpman_workload),
      cmocka_unit_test(test_lockstep_32_cta_slot_configs),
      cmocka_unit_test(test_config_errors),
      cmocka_unit_test(test_broken_rtl_stops_the_simulator),
      cmocka_unit_test(test_wave_run),
  };
  return cmocka_run_group_tests_name("warpman", tests, NULL, NULL);
}
