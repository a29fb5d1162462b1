/* Unit test of rs_dwe (register sharing's dynamic warp execution, sec. IV-C): directed cases in
 * every mode (reset, seeding, saturation at 0 and 1, equal stalls, the reference SM, a full
 * LFSR period at probability 1 and 0), the LFSR's period in C mode, the allowed fraction at
 * every probability against the arithmetic count, seeded random stimulus in lockstep (every
 * output and flop compared every cycle), C mode against RTL mode, waveforms, parameters.
 * The test runs with the parameters the linked RTL was Verilated with (the descriptor's unless
 * built with make HW_PARAMS_rs_dwe=...). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/regshare/rs_dwe.h"
#include "../tb/hw_tb.h"

#define PERIOD 65535u

static int64_t P[HW_MAX_PARAMS];

static void check_ok(int rc, const rf_diag *d) {
  if (rc != 0) fail_msg("%s", d->msg);
}

/* The paper's counter as arithmetic, written independently of the C reference. */
static uint16_t lfsr_next(uint16_t x) { return (uint16_t)((x >> 1) ^ ((x & 1u) ? 0xb400u : 0u)); }
static int allows(uint16_t lfsr, uint64_t prob, uint64_t steps) {
  return ((uint64_t)lfsr * steps) / 65536 < prob;
}

static rs_dwe_in cfg_in(uint64_t ref, uint64_t seed) {
  rs_dwe_in in = {0};
  in.cfg_i = 1;
  in.cfg_ref_i = ref;
  in.cfg_seed_i = seed;
  return in;
}

static rs_dwe_in win_in(uint64_t mine, uint64_t sm0) {
  rs_dwe_in in = {0};
  in.win_i = 1;
  in.mine_i = mine;
  in.sm0_i = sm0;
  return in;
}

static rs_dwe_in draw_in(void) {
  rs_dwe_in in = {0};
  in.draw_i = 1;
  return in;
}

static uint64_t lfsr_of(const hw_unit *u) {
  return ((const rs_dwe_state *)hw_unit_state(u))->lfsr_q;
}

/* One full LFSR period of draws; every state's allow_o checked against the arithmetic. Returns
 * how many were allowed. */
static uint64_t walk_period(hw_unit *u, uint64_t *c, uint64_t prob, uint64_t ref) {
  rf_diag d;
  rs_dwe_out o;
  rs_dwe_in dr = draw_in();
  uint64_t steps = (uint64_t)P[rs_dwe_P_STEPS], n = 0;
  uint16_t x = (uint16_t)lfsr_of(u);
  for (unsigned i = 0; i < PERIOD; i++) {
    check_ok(rs_dwe_step(u, (*c)++, &dr, &o, &d), &d);
    x = lfsr_next(x);
    assert_int_equal(lfsr_of(u), x);
    assert_int_equal(o.prob_o, prob);
    assert_int_equal(o.allow_o, !ref && allows(x, prob, steps));
    n += o.allow_o;
  }
  return n;
}

static void directed(hw_mode mode) {
  rf_diag d;
  hw_unit *u = rs_dwe_new(NULL, mode, P, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  const uint64_t steps = (uint64_t)P[rs_dwe_P_STEPS];
  rs_dwe_out o;
  uint64_t c = 1;
  /* reset: probability 1 (all SMs start allowed), not the reference, LFSR 1 */
  check_ok(rs_dwe_reset(u, 0, &o, &d), &d);
  assert_int_equal(o.prob_o, steps);
  assert_int_equal(o.ref_o, 0);
  assert_int_equal(o.allow_o, 1);
  assert_int_equal(lfsr_of(u), 1);
  /* a seed of 0 loads 1: an all-zero LFSR would stay 0 */
  rs_dwe_in in = draw_in();
  check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(lfsr_of(u), lfsr_next(1));
  in = cfg_in(0, 0);
  check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(lfsr_of(u), 1);
  /* seed bits beyond the 16-bit port are dropped: 0x10000 is the seed 0, hence 1 */
  in = cfg_in(0, 0x10000);
  check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(lfsr_of(u), 1);
  in = cfg_in(0, 0xace1);
  check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(lfsr_of(u), 0xace1);
  in = draw_in();
  check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(lfsr_of(u), lfsr_next(0xace1));
  /* more stalls than SM0: one step down per window, saturating at 0 */
  for (uint64_t k = 1; k <= steps + 3; k++) {
    in = win_in(500 + k, 500);
    check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
    assert_int_equal(o.prob_o, k <= steps ? steps - k : 0);
  }
  assert_int_equal(o.allow_o, 0);
  /* the comparison is unsigned over 32 bits */
  in = win_in(0xffffffffu, 0);
  check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.prob_o, 0);
  /* equal stalls: unchanged */
  in = win_in(700, 700);
  check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.prob_o, 0);
  /* fewer stalls than SM0: one step up, saturating at STEPS */
  for (uint64_t k = 1; k <= steps + 3; k++) {
    in = win_in(0, 0xffffffffu);
    check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
    assert_int_equal(o.prob_o, k <= steps ? k : steps);
  }
  in = win_in(12345, 12345);
  check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.prob_o, steps);
  /* a window and a draw in one cycle both act */
  uint64_t x = lfsr_of(u);
  in = win_in(2, 1);
  in.draw_i = 1;
  check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.prob_o, steps - 1);
  assert_int_equal(lfsr_of(u), lfsr_next((uint16_t)x));
  /* cfg wins over both: the window and the draw of its cycle are ignored */
  in = cfg_in(0, 0x1234);
  in.win_i = 1;
  in.mine_i = 9;
  in.sm0_i = 1;
  in.draw_i = 1;
  check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.prob_o, steps);
  assert_int_equal(lfsr_of(u), 0x1234);
  /* probability 1: every LFSR state allows (one period visits each nonzero state once) */
  assert_int_equal(walk_period(u, &c, steps, 0), PERIOD);
  assert_int_equal(lfsr_of(u), 0x1234);
  /* probability 0: no state allows */
  for (uint64_t k = 0; k < steps; k++) {
    in = win_in(1, 0);
    check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
  }
  assert_int_equal(o.prob_o, 0);
  assert_int_equal(walk_period(u, &c, 0, 0), 0);
  /* the reference SM (SM0) never allows and its probability never moves */
  in = cfg_in(1, 0xbeef);
  check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.ref_o, 1);
  assert_int_equal(o.allow_o, 0);
  for (unsigned k = 0; k < 3 * steps; k++) {
    in = k % 3 == 0 ? win_in(k + 1, 0) : k % 3 == 1 ? win_in(0, k + 1) : win_in(k, k);
    in.draw_i = k & 1;
    check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
    assert_int_equal(o.prob_o, steps);
    assert_int_equal(o.allow_o, 0);
  }
  assert_int_equal(walk_period(u, &c, steps, 1), 0);
  /* the next kernel makes it an ordinary SM again */
  in = cfg_in(0, 0xbeef);
  check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.ref_o, 0);
  assert_int_equal(o.allow_o, 1);
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

/* The LFSR is maximal: from any seed it visits all 65535 nonzero states and is back at the
 * seed after exactly 65535 draws (C mode; RTL agreement is the directed walks' job). */
static void test_lfsr_period(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("rs_dwe LFSR period", 11);
  hw_rng g = hw_rng_make(seed);
  const uint64_t seeds[] = {1, 0xace1, 0xffff, 0x8000, 1 + hw_rng_below(&g, 0xffff)};
  hw_unit *u = rs_dwe_new(NULL, HW_C, P, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  static uint8_t seen[65536];
  for (unsigned s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
    rs_dwe_in in = cfg_in(0, seeds[s]);
    rs_dwe_out o;
    uint64_t c = 1;
    check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
    memset(seen, 0, sizeof seen);
    in = draw_in();
    for (unsigned i = 1; i <= PERIOD; i++) {
      check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
      uint64_t x = lfsr_of(u);
      assert_int_not_equal(x, 0);
      assert_int_equal(seen[x], 0);
      seen[x] = 1;
      if (i < PERIOD) assert_int_not_equal(x, seeds[s]);
    }
    assert_int_equal(lfsr_of(u), seeds[s]);
  }
  hw_unit_free(u);
}

/* At every probability k/STEPS, one period of draws allows exactly the arithmetic count of
 * states, which is k/STEPS of them within 1% (lockstep: C and RTL agree all along). */
static void test_fraction(void **st) {
  (void)st;
  rf_diag d;
  const uint64_t steps = (uint64_t)P[rs_dwe_P_STEPS];
  hw_unit *u = rs_dwe_new(NULL, HW_LOCKSTEP, P, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  uint64_t c = 1;
  for (uint64_t k = 0; k <= steps; k++) {
    rs_dwe_in in = cfg_in(0, 0x5a5a + k);
    rs_dwe_out o;
    check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
    for (uint64_t i = k; i < steps; i++) {
      in = win_in(2000, 1000);
      check_ok(rs_dwe_step(u, c++, &in, &o, &d), &d);
    }
    assert_int_equal(o.prob_o, k);
    uint64_t want = 0;
    for (uint32_t x = 1; x <= PERIOD; x++) want += (uint64_t)allows((uint16_t)x, k, steps);
    uint64_t got = walk_period(u, &c, k, 0);
    assert_int_equal(got, want);
    double frac = (double)got / PERIOD, ideal = (double)k / (double)steps;
    if (frac < ideal - 0.01 || frac > ideal + 0.01)
      fail_msg("probability %" PRIu64 "/%" PRIu64 ": %.5f of draws allowed", k, steps, frac);
  }
  hw_unit_free(u);
}

/* Random traffic shaped like an SM's: a kernel start now and then (a quarter of them as SM0,
 * some with seed 0), windows often enough for the probability to reach both ends, stall
 * counts mostly small (so equal counts occur) and sometimes any 32-bit value, draws at random. */
static void gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  rs_dwe_in *in = vin;
  hw_tb_random_inputs(u, in, r);
  in->cfg_i = hw_rng_below(r, 500) == 0;
  in->cfg_ref_i = hw_rng_below(r, 4) == 0;
  if (hw_rng_below(r, 8) == 0) in->cfg_seed_i = 0;
  in->win_i = hw_rng_below(r, 10) == 0;
  if (hw_rng_below(r, 8) != 0) {
    in->mine_i = hw_rng_below(r, 4);
    in->sm0_i = hw_rng_below(r, 4);
  }
  in->draw_i = hw_rng_below(r, 2);
}

static void test_random_lockstep(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("rs_dwe random lockstep", 12);
  if (hw_tb_lockstep(&rs_dwe_desc, P, hw_tb_cycles(200000), seed, gen, NULL, NULL, &d) < 0)
    fail_msg("%s", d.msg);
}

static void test_c_vs_rtl(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("rs_dwe C vs RTL", 13);
  check_ok(hw_tb_c_vs_rtl(&rs_dwe_desc, P, hw_tb_cycles(100000), seed, gen, NULL, &d), &d);
}

/* Lockstep with a waveform: the C-written FST, its .gtkw and the Verilated model's FST exist
 * and are non-empty; the cycle window limits what is written. */
static void test_wave(void **st) {
  (void)st;
  rf_diag d;
  if (hw_tb_wave_run(&rs_dwe_desc, P, gen, &d) < 0) fail_msg("%s", d.msg);
}

/* Other parameters: the C model follows them (STEPS=20, p = 0.05: a 5-bit probability, or
 * STEPS=10 when the linked model has 20); the linked RTL, Verilated with other values, is
 * refused with a message that says how to rebuild. */
static void test_params(void **st) {
  (void)st;
  rf_diag d;
  int64_t p[HW_MAX_PARAMS];
  memcpy(p, P, sizeof p);
  const int64_t steps = P[rs_dwe_P_STEPS] == 20 ? 10 : 20;
  check_ok(hw_param_set(&rs_dwe_desc, p, "STEPS", steps, &d), &d);
  assert_int_equal(hw_param_set(&rs_dwe_desc, p, "NOPE", 1, &d), -1);
  hw_unit *u = rs_dwe_new("sm1.dwe", HW_C, p, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  assert_int_equal(hw_unit_width(u, 8), hw_clog2(steps + 1));
  rs_dwe_out o;
  check_ok(rs_dwe_reset(u, 0, &o, &d), &d);
  assert_int_equal(o.prob_o, steps);
  rs_dwe_in in = win_in(3, 2);
  check_ok(rs_dwe_step(u, 1, &in, &o, &d), &d);
  assert_int_equal(o.prob_o, steps - 1);
  /* LFSR 0xffff draws (0xffff * STEPS) >> 16 = STEPS - 1: allowed at 1, not one step below */
  in = cfg_in(0, 0xffff);
  check_ok(rs_dwe_step(u, 2, &in, &o, &d), &d);
  assert_int_equal(o.allow_o, 1);
  in = win_in(3, 2);
  check_ok(rs_dwe_step(u, 3, &in, &o, &d), &d);
  assert_int_equal(o.allow_o, 0);
  hw_unit_free(u);
  u = rs_dwe_new("sm1.dwe", HW_RTL, p, NULL, &d);
  assert_null(u);
  char want[64];
  snprintf(want, sizeof want, "STEPS=%" PRId64, P[rs_dwe_P_STEPS]);
  assert_non_null(strstr(d.msg, want));
  assert_non_null(strstr(d.msg, "HW_PARAMS_rs_dwe"));
}

int main(void) {
  /* the linked model's parameters: the descriptor's unless rebuilt with HW_PARAMS_rs_dwe */
  const hw_rtl_ops *rtl = rs_dwe_desc.rtl ? rs_dwe_desc.rtl() : NULL;
  hw_params_default(&rs_dwe_desc, P);
  if (rtl) memcpy(P, rtl->params, rtl->nparams * sizeof P[0]);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_c),      cmocka_unit_test(test_directed_rtl),
      cmocka_unit_test(test_directed_lockstep), cmocka_unit_test(test_lfsr_period),
      cmocka_unit_test(test_fraction),        cmocka_unit_test(test_random_lockstep),
      cmocka_unit_test(test_c_vs_rtl),        cmocka_unit_test(test_wave),
      cmocka_unit_test(test_params),
  };
  return cmocka_run_group_tests_name("hw_rs_dwe", tests, NULL, NULL);
}
