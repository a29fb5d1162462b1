/* Unit test of wm_wlbuf (WarpMan workload buffer): directed cases from the paper's sec. 4.2
 * in every mode, seeded random stimulus in lockstep (every output and flop compared every
 * cycle), C mode against RTL mode, waveforms, parameters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/warpman/wm_wlbuf.h"
#include "../tb/hw_tb.h"

static int64_t P[HW_MAX_PARAMS];

static void check_ok(int rc, const rf_diag *d) {
  if (rc != 0) fail_msg("%s", d->msg);
}

static wm_wlbuf_in write_in(uint64_t ptb, uint64_t ltb, uint64_t start, uint64_t end) {
  wm_wlbuf_in in = {0};
  in.wr_i = 1;
  in.wr_ptb_i = ptb;
  in.wr_ltb_i = ltb;
  in.wr_start_i = start;
  in.wr_end_i = end;
  return in;
}

static wm_wlbuf_in adv_in(void) {
  wm_wlbuf_in in = {0};
  in.adv_i = 1;
  return in;
}

/* The paper's MM example: a partial TB of 8 warps in CTA slot 5, warps 0-1 issued at dispatch,
 * warps 2..7 waiting. Each released warp issues start_wid; after warp 7 the entry empties. */
static void directed(hw_mode mode) {
  rf_diag d;
  hw_unit *u = wm_wlbuf_new(NULL, mode, P, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  wm_wlbuf_out o;
  uint64_t c = 1;
  check_ok(wm_wlbuf_reset(u, 0, &o, &d), &d);
  assert_int_equal(o.valid_o, 0);
  wm_wlbuf_in none = {0};
  /* advance with no entry: nothing */
  wm_wlbuf_in a = adv_in();
  check_ok(wm_wlbuf_step(u, c++, &a, &o, &d), &d);
  assert_int_equal(o.valid_o, 0);
  assert_int_equal(o.start_wid_o, 0);
  /* load */
  wm_wlbuf_in w = write_in(5, 1234567, 2, 7);
  check_ok(wm_wlbuf_step(u, c++, &w, &o, &d), &d);
  assert_int_equal(o.valid_o, 1);
  assert_int_equal(o.ptb_o, 5);
  assert_int_equal(o.ltb_o, 1234567);
  assert_int_equal(o.start_wid_o, 2);
  assert_int_equal(o.end_wid_o, 7);
  assert_int_equal(o.last_o, 0);
  /* idle cycles keep it */
  check_ok(wm_wlbuf_step(u, c++, &none, &o, &d), &d);
  assert_int_equal(o.valid_o, 1);
  assert_int_equal(o.start_wid_o, 2);
  for (uint64_t wid = 3; wid <= 7; wid++) {
    check_ok(wm_wlbuf_step(u, c++, &a, &o, &d), &d);
    assert_int_equal(o.valid_o, 1);
    assert_int_equal(o.start_wid_o, wid);
    assert_int_equal(o.last_o, wid == 7);
  }
  check_ok(wm_wlbuf_step(u, c++, &a, &o, &d), &d); /* warp 7, the last, issued */
  assert_int_equal(o.valid_o, 0);
  assert_int_equal(o.last_o, 0);
  /* a single waiting warp: start == end, last at once */
  w = write_in(1, 42, 31, 31);
  check_ok(wm_wlbuf_step(u, c++, &w, &o, &d), &d);
  assert_int_equal(o.last_o, 1);
  /* write wins over advance in the same cycle */
  w = write_in(2, 43, 4, 6);
  w.adv_i = 1;
  check_ok(wm_wlbuf_step(u, c++, &w, &o, &d), &d);
  assert_int_equal(o.ptb_o, 2);
  assert_int_equal(o.start_wid_o, 4);
  /* clear wins over write */
  w = write_in(3, 44, 0, 1);
  w.clr_i = 1;
  check_ok(wm_wlbuf_step(u, c++, &w, &o, &d), &d);
  assert_int_equal(o.valid_o, 0);
  assert_int_equal(o.ptb_o, 2); /* fields keep their last value; only valid clears */
  /* input bits beyond a port's width are dropped (3-bit P_TBId, 26-bit L_TBId) */
  w = write_in(0xff, 0xffffffffffULL, 0x3f, 0x21);
  check_ok(wm_wlbuf_step(u, c++, &w, &o, &d), &d);
  assert_int_equal(o.ptb_o, 7);
  assert_int_equal(o.ltb_o, (1u << 26) - 1);
  assert_int_equal(o.start_wid_o, 31);
  assert_int_equal(o.end_wid_o, 1);
  hw_unit_free(u);
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

/* Random traffic shaped like an SM's: writes rare, advances frequent, clears very rare,
 * random fields (so every wid, wrap-around and end < start case appears). */
static void gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  wm_wlbuf_in *in = vin;
  hw_tb_random_inputs(u, in, r);
  uint64_t k = hw_rng_below(r, 100);
  in->clr_i = k < 1;
  in->wr_i = k >= 1 && k < 8;
  in->adv_i = hw_rng_below(r, 2);
}

static void test_random_lockstep(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("wm_wlbuf random lockstep", 1);
  int64_t n = hw_tb_lockstep(&wm_wlbuf_desc, P, hw_tb_cycles(200000), seed, gen, NULL, NULL, &d);
  if (n < 0) fail_msg("%s", d.msg);
}

static void test_c_vs_rtl(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("wm_wlbuf C vs RTL", 2);
  check_ok(hw_tb_c_vs_rtl(&wm_wlbuf_desc, P, hw_tb_cycles(100000), seed, gen, NULL, &d), &d);
}

/* Lockstep with a waveform: the C-written FST, its .gtkw and the Verilated model's FST exist
 * and are non-empty; the cycle window limits what is written. */
static void test_wave(void **st) {
  (void)st;
  rf_diag d;
  if (hw_tb_wave_run(&wm_wlbuf_desc, P, gen, &d) < 0) fail_msg("%s", d.msg);
}

/* Other parameters: the C model follows them (CTA_SLOTS=16 -> 4-bit P_TBId); the linked RTL,
 * Verilated with the descriptor's, is refused with a message that says how to rebuild. */
static void test_params(void **st) {
  (void)st;
  rf_diag d;
  int64_t p[HW_MAX_PARAMS];
  hw_params_default(&wm_wlbuf_desc, p);
  check_ok(hw_param_set(&wm_wlbuf_desc, p, "CTA_SLOTS", 16, &d), &d);
  assert_int_equal(hw_param_set(&wm_wlbuf_desc, p, "NOPE", 1, &d), -1);
  hw_unit *u = wm_wlbuf_new("sm1.wlbuf", HW_C, p, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  assert_int_equal(hw_unit_width(u, 2), 4);
  wm_wlbuf_in w = write_in(15, 9, 1, 2);
  wm_wlbuf_out o;
  check_ok(wm_wlbuf_step(u, 1, &w, &o, &d), &d);
  assert_int_equal(o.ptb_o, 15);
  hw_unit_free(u);
  u = wm_wlbuf_new("sm1.wlbuf", HW_RTL, p, NULL, &d);
  assert_null(u);
  assert_non_null(strstr(d.msg, "CTA_SLOTS=8"));
  assert_non_null(strstr(d.msg, "HW_PARAMS_wm_wlbuf"));
}

int main(void) {
  hw_params_default(&wm_wlbuf_desc, P);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_c),      cmocka_unit_test(test_directed_rtl),
      cmocka_unit_test(test_directed_lockstep), cmocka_unit_test(test_random_lockstep),
      cmocka_unit_test(test_c_vs_rtl),        cmocka_unit_test(test_wave),
      cmocka_unit_test(test_params),
  };
  return cmocka_run_group_tests_name("hw_wm_wlbuf", tests, NULL, NULL);
}
