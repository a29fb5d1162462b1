/* Unit test of fr_idxdec (FineReg register index decoder, sec. V-C): directed cases (the
 * paper's Fig. 7 vector, an empty and a full vector, R63, hold without pop, load over pop) in
 * every mode; seeded random stimulus in lockstep (every output and flop compared every cycle)
 * with every drained sequence checked against the loaded vector; C mode against RTL mode;
 * waveforms; parameters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/finereg/fr_idxdec.h"
#include "../tb/hw_tb.h"

static int64_t P[HW_MAX_PARAMS];

static void check_ok(int rc, const rf_diag *d) {
  if (rc != 0) fail_msg("%s", d->msg);
}

static fr_idxdec_in ld(uint64_t vec, unsigned warp) {
  fr_idxdec_in in = {0};
  in.ld_i = 1;
  in.ld_vec_i = vec;
  in.ld_warp_i = warp;
  return in;
}

static void directed(hw_mode mode) {
  rf_diag d;
  hw_unit *u = fr_idxdec_new(NULL, mode, P, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  fr_idxdec_out o;
  uint64_t c = 1;
  fr_idxdec_in pop = {0};
  pop.pop_i = 1;
  check_ok(fr_idxdec_step(u, c++, &pop, &o, &d), &d); /* nothing loaded */
  assert_int_equal(o.valid_o, 0);
  assert_int_equal(o.idx_o, 63);
  /* Fig. 7: a warp stalled at PC 0x0000 keeps R0 only; then R0, R2 (Fig. 6) and R63 */
  fr_idxdec_in in = ld(0x1, 4);
  check_ok(fr_idxdec_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.valid_o, 1);
  assert_int_equal(o.idx_o, 0);
  assert_int_equal(o.last_o, 1);
  assert_int_equal(o.warp_o, 4);
  assert_int_equal(o.cnt_o, 1);
  in = ld(0x8000000000000005ULL, 31);
  check_ok(fr_idxdec_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.cnt_o, 3);
  assert_int_equal(o.idx_o, 0);
  assert_int_equal(o.last_o, 0);
  fr_idxdec_in none = {0};
  check_ok(fr_idxdec_step(u, c++, &none, &o, &d), &d); /* no pop: held */
  assert_int_equal(o.idx_o, 0);
  check_ok(fr_idxdec_step(u, c++, &pop, &o, &d), &d);
  assert_int_equal(o.idx_o, 2);
  check_ok(fr_idxdec_step(u, c++, &pop, &o, &d), &d);
  assert_int_equal(o.idx_o, 63);
  assert_int_equal(o.last_o, 1);
  check_ok(fr_idxdec_step(u, c++, &pop, &o, &d), &d);
  assert_int_equal(o.valid_o, 0);
  assert_int_equal(o.last_o, 0);
  assert_int_equal(o.cnt_o, 3); /* the count stays with the vector */
  /* all 64 live: 64 pops */
  in = ld(~0ULL, 7);
  check_ok(fr_idxdec_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.cnt_o, 64);
  for (unsigned k = 0; k < 64; k++) {
    assert_int_equal(o.valid_o, 1);
    assert_int_equal(o.idx_o, k);
    assert_int_equal(o.last_o, k == 63);
    check_ok(fr_idxdec_step(u, c++, &pop, &o, &d), &d);
  }
  assert_int_equal(o.valid_o, 0);
  /* a load wins over a pop; an empty vector is at once done */
  in = ld(0, 1);
  in.pop_i = 1;
  check_ok(fr_idxdec_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.valid_o, 0);
  assert_int_equal(o.cnt_o, 0);
  assert_int_equal(o.warp_o, 1);
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

static uint64_t rand_vec(hw_rng *r) {
  switch (hw_rng_below(r, 4)) {
  case 0: return hw_rng_next(r);                                      /* about half live */
  case 1: return hw_rng_next(r) & hw_rng_next(r) & hw_rng_next(r);    /* sparse */
  case 2: return (uint64_t)1 << hw_rng_below(r, 64);                  /* one */
  default: return hw_rng_next(r) | hw_rng_next(r);                    /* dense */
  }
}

static void gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  fr_idxdec_in *in = vin;
  hw_tb_random_inputs(u, in, r);
  in->ld_i = hw_rng_below(r, 100) < 8;
  in->ld_vec_i = rand_vec(r);
  in->pop_i = hw_rng_below(r, 100) < 80;
}

/* Lockstep, and each drained vector equals the one loaded: the indices popped, in order. */
static void test_random_lockstep(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("fr_idxdec random lockstep", 1);
  hw_unit *u = fr_idxdec_new(NULL, HW_LOCKSTEP, P, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  hw_rng r = hw_rng_make(seed);
  fr_idxdec_out o = {0};
  uint64_t loaded = 0, got = 0;
  unsigned drained = 0;
  int prev_idx = -1;
  uint64_t cycles = hw_tb_cycles(100000);
  for (uint64_t c = 1; c <= cycles; c++) {
    fr_idxdec_in in = {0};
    gen(u, c, &in, &r, NULL);
    int took = !in.ld_i && in.pop_i && o.valid_o;
    uint64_t shown = o.idx_o;
    int was_last = (int)o.last_o;
    check_ok(fr_idxdec_step(u, c, &in, &o, &d), &d);
    if (in.ld_i) {
      loaded = in.ld_vec_i;
      got = 0;
      prev_idx = -1;
      assert_int_equal(o.cnt_o, __builtin_popcountll(loaded));
    } else if (took) {
      assert_true((int)shown > prev_idx); /* lowest first */
      prev_idx = (int)shown;
      got |= (uint64_t)1 << shown;
      if (was_last) {
        assert_int_equal(got, loaded);
        drained++;
      }
    }
  }
  printf("[ INFO     ] %u vectors drained\n", drained);
  assert_true(drained > 100);
  hw_unit_free(u);
}

static void test_c_vs_rtl(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("fr_idxdec C vs RTL", 2);
  check_ok(hw_tb_c_vs_rtl(&fr_idxdec_desc, P, hw_tb_cycles(50000), seed, gen, NULL, &d), &d);
}

static void test_wave(void **st) {
  (void)st;
  rf_diag d;
  if (hw_tb_wave_run(&fr_idxdec_desc, P, gen, &d) < 0) fail_msg("%s", d.msg);
}

/* 32-register vectors run in C; the RTL is refused. */
static void test_params(void **st) {
  (void)st;
  rf_diag d;
  int64_t p[HW_MAX_PARAMS];
  hw_params_default(&fr_idxdec_desc, p);
  check_ok(hw_param_set(&fr_idxdec_desc, p, "REGS", 32, &d), &d);
  hw_unit *u = fr_idxdec_new("sm0.idx", HW_C, p, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  fr_idxdec_in in = ld(0xffffffffffULL, 0); /* bits above 32 are dropped */
  fr_idxdec_out o;
  check_ok(fr_idxdec_step(u, 1, &in, &o, &d), &d);
  assert_int_equal(o.cnt_o, 32);
  hw_unit_free(u);
  assert_null(fr_idxdec_new("sm0.idx", HW_RTL, p, NULL, &d));
  assert_non_null(strstr(d.msg, "REGS=64"));
}

int main(void) {
  hw_params_default(&fr_idxdec_desc, P);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_c),        cmocka_unit_test(test_directed_rtl),
      cmocka_unit_test(test_directed_lockstep), cmocka_unit_test(test_random_lockstep),
      cmocka_unit_test(test_c_vs_rtl),          cmocka_unit_test(test_wave),
      cmocka_unit_test(test_params),
  };
  return cmocka_run_group_tests_name("hw_fr_idxdec", tests, NULL, NULL);
}
