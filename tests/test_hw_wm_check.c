/* Unit test of wm_check (WarpMan TB dispatch check, Fig. 13): the paper's worked examples and
 * Table 2 kernels against an arithmetic golden model, in C, RTL and lockstep modes; seeded
 * random requests in lockstep (every output and flop compared every cycle) and checked against
 * the golden model; the latency contract (full/none after 1 edge, partial after TW edges).
 * With HW_BENCH=1 in the environment it also prints the cost of one step in each mode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "../csim/hw/warpman/wm_check.h"
#include "../tb/hw_tb.h"

static int64_t P[HW_MAX_PARAMS];
static hw_wave *g_wave; /* the directed lockstep run writes build/hw/wave/wm_check.fst */

typedef struct req {
  uint64_t free_regs, free_smem, free_warps, free_ctas;
  uint64_t tb_regs, tb_smem, tb_warps, warp_regs;
  int partial_en, wlb_valid;
} req;

typedef struct answer {
  int full, partial;
  uint64_t warps;
  unsigned latency; /* edges from the request edge to done, counting the request edge */
} answer;

/* The paper's rules (sec. 4.1), as arithmetic. */
static answer golden(const req *r) {
  answer a = {0, 0, 0, 1};
  unsigned tw = hw_clog2(P[wm_check_P_MAX_TB_WARPS] + 1);
  int smem = r->free_smem >= r->tb_smem, cta = r->free_ctas >= 1;
  if (smem && cta && r->free_warps >= r->tb_warps && r->free_regs >= r->tb_regs) {
    a.full = 1;
    a.warps = r->tb_warps;
    return a;
  }
  if (r->partial_en && !r->wlb_valid && smem && cta && r->free_warps >= 1 && r->tb_warps >= 1 &&
      r->free_regs >= r->warp_regs) {
    uint64_t q = r->warp_regs ? r->free_regs / r->warp_regs : UINT64_MAX;
    uint64_t qmax = ((uint64_t)1 << tw) - 1;
    if (q > qmax) q = qmax;
    uint64_t k = q;
    if (r->free_warps < k) k = r->free_warps;
    if (r->tb_warps < k) k = r->tb_warps;
    a.partial = 1;
    a.warps = k;
    a.latency = 1 + tw;
  }
  return a;
}

static wm_check_in to_in(const req *r) {
  wm_check_in in = {0};
  in.req_i = 1;
  in.partial_en_i = (uint64_t)r->partial_en;
  in.wlb_valid_i = (uint64_t)r->wlb_valid;
  in.free_regs_i = r->free_regs;
  in.free_smem_i = r->free_smem;
  in.free_warps_i = r->free_warps;
  in.free_ctas_i = r->free_ctas;
  in.tb_regs_i = r->tb_regs;
  in.tb_smem_i = r->tb_smem;
  in.tb_warps_i = r->tb_warps;
  in.warp_regs_i = r->warp_regs;
  return in;
}

/* Presents r at cycle *c, holds inputs idle afterwards, returns the answer seen at done_o. */
static answer ask(hw_unit *u, uint64_t *c, const req *r) {
  rf_diag d;
  wm_check_in in = to_in(r), idle = {0};
  wm_check_out o;
  answer a = {0, 0, 0, 0};
  for (unsigned n = 1; n <= 64; n++) {
    if (wm_check_step(u, *c, n == 1 ? &in : &idle, &o, &d) != 0) fail_msg("%s", d.msg);
    wave_tick(g_wave, (*c)++);
    if (o.done_o) {
      a.full = (int)o.full_o;
      a.partial = (int)o.partial_o;
      a.warps = o.warps_o;
      a.latency = n;
      assert_int_equal(o.busy_o, 0);
      return a;
    }
    assert_int_equal(o.busy_o, 1);
    assert_int_equal(o.warps_o, 0);
  }
  fail_msg("no done_o within 64 cycles");
  return a;
}

static void expect(hw_unit *u, uint64_t *c, const req *r, int full, int partial, uint64_t warps) {
  answer g = golden(r), a = ask(u, c, r);
  assert_int_equal(g.full, full);
  assert_int_equal(g.partial, partial);
  assert_int_equal(g.warps, warps);
  assert_int_equal(a.full, full);
  assert_int_equal(a.partial, partial);
  assert_int_equal(a.warps, warps);
  assert_int_equal(a.latency, g.latency);
}

/* GTX 480 SM: 32768 registers, 48 KB shared memory, 48 warp slots, 8 CTA slots. */
static req sm_after(unsigned tbs, unsigned tb_warps, unsigned tb_regs, unsigned tb_smem) {
  req r;
  r.free_regs = 32768 - (uint64_t)tbs * tb_regs;
  r.free_smem = 49152 - (uint64_t)tbs * tb_smem;
  r.free_warps = 48 - (uint64_t)tbs * tb_warps;
  r.free_ctas = 8 - tbs;
  r.tb_regs = tb_regs;
  r.tb_smem = tb_smem;
  r.tb_warps = tb_warps;
  r.warp_regs = tb_warps ? tb_regs / tb_warps : 0;
  r.partial_en = 1;
  r.wlb_valid = 0;
  return r;
}

static void directed(hw_mode mode) {
  rf_diag d;
  char path[256];
  g_wave = NULL;
  if (mode == HW_LOCKSTEP) {
    g_wave = wave_open(hw_tb_wave_path("wm_check", path, sizeof path), 0, WAVE_NO_END, &d);
    if (!g_wave) fail_msg("%s", d.msg);
  }
  hw_unit *u = wm_check_new(NULL, mode, P, g_wave, &d);
  if (!u) fail_msg("%s", d.msg);
  wave_tick(g_wave, 0);
  uint64_t c = 1;
  /* MM (sec. 4): 8 warps, 6144 registers and 2 KB per TB. Five TBs fit whole; the sixth
   * finds 2048 registers: a partial TB whose first two warps run. */
  for (unsigned t = 0; t < 5; t++) {
    req r = sm_after(t, 8, 6144, 2048);
    expect(u, &c, &r, 1, 0, 8);
  }
  req r = sm_after(5, 8, 6144, 2048);
  expect(u, &c, &r, 0, 1, 2);
  /* the same SM with the buffer already holding a partial TB, or WarpMan off: nothing */
  r.wlb_valid = 1;
  expect(u, &c, &r, 0, 0, 0);
  r.wlb_valid = 0;
  r.partial_en = 0;
  expect(u, &c, &r, 0, 0, 0);
  /* ST (Table 2): 32 warps and 17408 registers per TB, one TB per SM. The second TB gets
   * 15360 / 544 = 28 warps' registers but only 16 warp slots: 16 warps run. */
  r = sm_after(1, 32, 17408, 0);
  expect(u, &c, &r, 0, 1, 16);
  /* RAY: 6 warps, 12288 registers: two TBs, then 8192 / 2048 = 4 warps of a third */
  r = sm_after(2, 6, 12288, 0);
  expect(u, &c, &r, 0, 1, 4);
  /* shared memory stays TB-granular: HS with 3 KB... but an SM with 1 KB left gets nothing */
  r = sm_after(3, 8, 8960, 3072);
  r.free_smem = 1024;
  expect(u, &c, &r, 0, 0, 0);
  /* no CTA slot, no warp slot, not one warp's registers: nothing */
  r = sm_after(8, 1, 64, 0);
  expect(u, &c, &r, 0, 0, 0);
  r = sm_after(3, 16, 11776, 4096);
  r.free_warps = 0;
  expect(u, &c, &r, 0, 0, 0);
  r = sm_after(2, 16, 11776, 4096);
  r.free_regs = r.warp_regs - 1;
  expect(u, &c, &r, 0, 0, 0);
  /* exactly one warp's registers */
  r.free_regs = r.warp_regs;
  expect(u, &c, &r, 0, 1, 1);
  /* a kernel without registers is limited by warp slots only */
  r = sm_after(0, 32, 0, 0);
  r.free_warps = 20;
  expect(u, &c, &r, 0, 1, 20);
  /* an empty SM takes a full TB of the largest size */
  r = sm_after(0, 32, 32768, 49152);
  r.free_warps = 48;
  expect(u, &c, &r, 1, 0, 32);
  hw_unit_free(u);
  if (g_wave && wave_close(g_wave, &d) != 0) fail_msg("%s", d.msg);
  g_wave = NULL;
}

static void test_directed_c(void **st) {
  (void)st;
  directed(HW_C);
}
static void test_directed_rtl(void **st) {
  (void)st;
  directed(HW_RTL);
}
static void test_directed_lockstep(void **st) {
  (void)st;
  directed(HW_LOCKSTEP);
}

static req random_req(hw_rng *g) {
  req r;
  static const uint64_t wregs[] = {0, 1, 32, 256, 544, 768, 1024, 2016, 2048, 32768};
  r.tb_warps = hw_rng_below(g, 34);
  r.warp_regs = hw_rng_below(g, 4) ? wregs[hw_rng_below(g, 10)] : hw_rng_below(g, 65536);
  r.tb_regs = hw_rng_below(g, 8) ? (r.tb_warps * r.warp_regs) & 0xffff : hw_rng_below(g, 65536);
  r.free_regs = hw_rng_below(g, 3) ? hw_rng_below(g, 32769) : hw_rng_below(g, 65536);
  r.free_warps = hw_rng_below(g, 64);
  r.free_ctas = hw_rng_below(g, 16);
  r.tb_smem = hw_rng_below(g, 2) ? 0 : hw_rng_below(g, 49153);
  r.free_smem = hw_rng_below(g, 65536);
  r.partial_en = hw_rng_below(g, 8) != 0;
  r.wlb_valid = hw_rng_below(g, 6) == 0;
  return r;
}

/* Random requests (held for one cycle, sometimes re-presented while busy: ignored), every
 * answer checked against the golden model, C and RTL compared every cycle. */
static void test_random_golden_lockstep(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("wm_check random golden lockstep", 3);
  hw_rng g = hw_rng_make(seed);
  hw_unit *u = wm_check_new(NULL, HW_LOCKSTEP, P, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  uint64_t c = 1, n = hw_tb_cycles(200000) / 4, partials = 0;
  for (uint64_t i = 0; i < n; i++) {
    req r = random_req(&g);
    answer want = golden(&r), got = ask(u, &c, &r);
    partials += (uint64_t)want.partial;
    if (want.full != got.full || want.partial != got.partial || want.warps != got.warps ||
        want.latency != got.latency)
      fail_msg("request %" PRIu64 " (regs %" PRIu64 "/%" PRIu64 " warp %" PRIu64
               " warps %" PRIu64 "/%" PRIu64 "): golden full %d partial %d k %" PRIu64
               " after %u, got %d %d %" PRIu64 " after %u",
               i, r.free_regs, r.tb_regs, r.warp_regs, r.free_warps, r.tb_warps, want.full,
               want.partial, want.warps, want.latency, got.full, got.partial, got.warps,
               got.latency);
  }
  assert_true(partials > n / 20);
  hw_unit_free(u);
}

/* Unconstrained inputs every cycle (requests while busy, every bit pattern). */
static void gen_any(hw_unit *u, uint64_t c, void *in, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  hw_tb_random_inputs(u, in, r);
}

static void test_random_lockstep(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("wm_check random lockstep", 4);
  if (hw_tb_lockstep(&wm_check_desc, P, hw_tb_cycles(200000), seed, gen_any, NULL, NULL, &d) < 0)
    fail_msg("%s", d.msg);
}

static void test_c_vs_rtl(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("wm_check C vs RTL", 5);
  if (hw_tb_c_vs_rtl(&wm_check_desc, P, hw_tb_cycles(100000), seed, gen_any, NULL, &d) != 0)
    fail_msg("%s", d.msg);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ns per step: C, RTL, RTL + FST (both files written), lockstep. */
static void bench(void) {
  rf_diag d;
  const uint64_t n = 2000000;
  struct {
    const char *name;
    hw_mode mode;
    int wave;
  } runs[] = {{"c", HW_C, 0},
              {"rtl", HW_RTL, 0},
              {"lockstep", HW_LOCKSTEP, 0},
              {"c + fst", HW_C, 1},
              {"rtl + fst (C FST + Verilator FST)", HW_RTL, 1},
              {"rtl, fst window closed", HW_RTL, 2}};
  double base;
  {
    hw_unit *u = wm_check_new(NULL, HW_C, P, NULL, &d);
    hw_rng g = hw_rng_make(9);
    wm_check_in in;
    uint64_t sink = 0;
    double t0 = now();
    for (uint64_t c = 1; c <= n; c++) {
      hw_tb_random_inputs(u, &in, &g);
      sink += in.free_regs_i;
    }
    base = now() - t0;
    hw_unit_free(u);
    printf("[ BENCH    ] drawing random inputs: %.1f ns/step, subtracted below (%" PRIu64 ")\n",
           1e9 * base / (double)n, sink & 1);
  }
  for (unsigned k = 0; k < sizeof runs / sizeof runs[0]; k++) {
    char path[256];
    hw_wave *w = NULL;
    if (runs[k].wave) {
      w = wave_open(hw_tb_wave_path("bench_wm_check", path, sizeof path), 0,
                    runs[k].wave == 2 ? 0 : WAVE_NO_END, &d);
      if (!w) fail_msg("%s", d.msg);
    }
    hw_unit *u = wm_check_new(NULL, runs[k].mode, P, w, &d);
    if (!u) fail_msg("%s", d.msg);
    hw_rng g = hw_rng_make(9);
    wm_check_in in;
    wm_check_out o;
    double t0 = now();
    for (uint64_t c = 1; c <= n; c++) {
      hw_tb_random_inputs(u, &in, &g);
      if (wm_check_step(u, c, &in, &o, &d) != 0) fail_msg("%s", d.msg);
      if (w) wave_tick(w, c);
    }
    double t = now() - t0 - base;
    hw_unit_free(u);
    if (w && wave_close(w, &d) != 0) fail_msg("%s", d.msg);
    printf("[ BENCH    ] wm_check %-36s %7.1f ns/step\n", runs[k].name,
           1e9 * t / (double)n);
  }
}

static void test_bench(void **st) {
  (void)st;
  const char *e = getenv("HW_BENCH");
  if (!e || !*e) skip();
  bench();
}

int main(void) {
  hw_params_default(&wm_check_desc, P);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_c),
      cmocka_unit_test(test_directed_rtl),
      cmocka_unit_test(test_directed_lockstep),
      cmocka_unit_test(test_random_golden_lockstep),
      cmocka_unit_test(test_random_lockstep),
      cmocka_unit_test(test_c_vs_rtl),
      cmocka_unit_test(test_bench),
  };
  return cmocka_run_group_tests_name("hw_wm_check", tests, NULL, NULL);
}
