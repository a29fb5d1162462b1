/* Unit test of st_wide, the machinery's wide-port self-test: ports and state wider than 64 bits
 * (Verilator VlWide) through the C reference, the Verilated model, lockstep and waveforms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/selftest/st_wide.h"
#include "../tb/hw_tb.h"

static int64_t P[HW_MAX_PARAMS];

static void directed(hw_mode mode) {
  rf_diag d;
  hw_unit *u = st_wide_new(NULL, mode, P, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  st_wide_in in = {0};
  st_wide_out o;
  /* bit 99 (the top of 100) and bit 64 set; words beyond the width are dropped */
  in.ld_i = 1;
  in.d_i[0] = 0x80000001u;
  in.d_i[2] = 0x00000001u;
  in.d_i[3] = 0xfffffff8u | 0x8u; /* bit 99 = word 3 bit 3; bits 100..127 masked */
  if (st_wide_step(u, 1, &in, &o, &d)) fail_msg("%s", d.msg);
  assert_int_equal(o.q_o[0], 0x80000001u);
  assert_int_equal(o.q_o[2], 1);
  assert_int_equal(o.q_o[3], 0x8);
  assert_int_equal(o.par_o, 0); /* four bits set */
  /* rotate left: bit 99 wraps to bit 0, bit 31 crosses into word 1, bit 64 -> 65 */
  memset(&in, 0, sizeof in);
  in.rot_i = 1;
  if (st_wide_step(u, 2, &in, &o, &d)) fail_msg("%s", d.msg);
  assert_int_equal(o.q_o[0], 0x00000003u);
  assert_int_equal(o.q_o[1], 0x00000001u);
  assert_int_equal(o.q_o[2], 0x00000002u);
  assert_int_equal(o.q_o[3], 0);
  const st_wide_state *s = hw_unit_state(u);
  assert_int_equal(s->q_q[2], 2);
  hw_unit_free(u);
}

static void test_directed_c(void **st) { (void)st; directed(HW_C); }
static void test_directed_rtl(void **st) { (void)st; directed(HW_RTL); }
static void test_directed_lockstep(void **st) { (void)st; directed(HW_LOCKSTEP); }

static void gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  st_wide_in *in = vin;
  hw_tb_random_inputs(u, in, r);
  in->ld_i = hw_rng_below(r, 10) == 0;
}

static void test_random_lockstep(void **st) {
  (void)st;
  rf_diag d;
  char path[256];
  hw_wave *w = wave_open(hw_tb_wave_path("st_wide", path, sizeof path), 0, 300, &d);
  if (!w) fail_msg("%s", d.msg);
  uint64_t seed = hw_tb_seed("st_wide random lockstep", 6);
  if (hw_tb_lockstep(&st_wide_desc, P, hw_tb_cycles(100000), seed, gen, NULL, w, &d) < 0)
    fail_msg("%s", d.msg);
  if (wave_close(w, &d)) fail_msg("%s", d.msg);
}

static void test_c_vs_rtl(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("st_wide C vs RTL", 7);
  if (hw_tb_c_vs_rtl(&st_wide_desc, P, hw_tb_cycles(50000), seed, gen, NULL, &d))
    fail_msg("%s", d.msg);
}

int main(void) {
  hw_params_default(&st_wide_desc, P);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_c),      cmocka_unit_test(test_directed_rtl),
      cmocka_unit_test(test_directed_lockstep), cmocka_unit_test(test_random_lockstep),
      cmocka_unit_test(test_c_vs_rtl),
  };
  return cmocka_run_group_tests_name("hw_st_wide", tests, NULL, NULL);
}
