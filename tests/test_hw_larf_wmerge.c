/* Unit test of larf_wmerge (LARF's w-merge shift/OR slot): the paper's Fig. 2b reconstruction
 * (a register shuffled down one lane with the next warp's lane 0 merged in), a single shifted
 * source, lanes beyond the active count, in every mode; seeded random stimulus in lockstep
 * (every output and flop compared every cycle), C against RTL, waveforms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/larf/larf_wmerge.h"
#include "../tb/hw_tb.h"

static int64_t P[HW_MAX_PARAMS];

static void merge(hw_unit *u, uint64_t c, const uint32_t *a, const uint32_t *b, unsigned ka,
                  unsigned mb, unsigned split, unsigned cnt, larf_wmerge_out *o) {
  rf_diag d;
  larf_wmerge_in in = {0};
  in.go_i = 1;
  memcpy(in.a_i, a, 32 * sizeof *a);
  memcpy(in.b_i, b, 32 * sizeof *b);
  in.shift_a_i = ka;
  in.shift_b_i = mb;
  in.split_i = split;
  in.cnt_i = cnt;
  if (larf_wmerge_step(u, c, &in, o, &d) != 0) fail_msg("%s", d.msg);
}

static void directed(hw_mode mode) {
  rf_diag d;
  hw_unit *u = larf_wmerge_new(NULL, mode, P, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  uint32_t a[32], b[32];
  for (uint32_t l = 0; l < 32; l++) a[l] = 1 + l, b[l] = 33 + l; /* warps 0 and 1: 1..32, 33..64 */
  larf_wmerge_out o;
  merge(u, 1, a, b, 1, 31, 31, 31, &o); /* warp 0's next tap: 2..33 */
  assert_int_equal(o.valid_o, 1);
  for (uint32_t l = 0; l < 32; l++) assert_int_equal(o.data_o[l], 2 + l);
  merge(u, 2, a, b, 10, 22, 22, 31, &o); /* 11..42 */
  for (uint32_t l = 0; l < 32; l++) assert_int_equal(o.data_o[l], 11 + l);
  merge(u, 3, a, b, 3, 0, 8, 7, &o); /* one source, 8 lanes: 4..11, the rest 0 */
  for (uint32_t l = 0; l < 32; l++) assert_int_equal(o.data_o[l], l < 8 ? 4 + l : 0);
  merge(u, 4, a, b, 0, 0, 32, 31, &o); /* a copy */
  for (uint32_t l = 0; l < 32; l++) assert_int_equal(o.data_o[l], a[l]);
  larf_wmerge_in idle = {0};
  if (larf_wmerge_step(u, 5, &idle, &o, &d) != 0) fail_msg("%s", d.msg);
  assert_int_equal(o.valid_o, 0);
  assert_int_equal(o.data_o[5], a[5]); /* holds */
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

static void gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  larf_wmerge_in *in = vin;
  hw_tb_random_inputs(u, in, r);
  in->go_i = hw_rng_below(r, 4) != 0;
}

static void test_random_lockstep(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("larf_wmerge random lockstep", 1);
  if (hw_tb_lockstep(&larf_wmerge_desc, P, hw_tb_cycles(100000), seed, gen, NULL, NULL, &d) < 0)
    fail_msg("%s", d.msg);
}

static void test_c_vs_rtl(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("larf_wmerge C vs RTL", 2);
  if (hw_tb_c_vs_rtl(&larf_wmerge_desc, P, hw_tb_cycles(100000), seed, gen, NULL, &d) != 0)
    fail_msg("%s", d.msg);
}

static void test_wave(void **st) {
  (void)st;
  rf_diag d;
  if (hw_tb_wave_run(&larf_wmerge_desc, P, gen, &d) < 0) fail_msg("%s", d.msg);
}

int main(void) {
  hw_params_default(&larf_wmerge_desc, P);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_c),      cmocka_unit_test(test_directed_rtl),
      cmocka_unit_test(test_directed_lockstep), cmocka_unit_test(test_random_lockstep),
      cmocka_unit_test(test_c_vs_rtl),        cmocka_unit_test(test_wave),
  };
  return cmocka_run_group_tests_name("hw_larf_wmerge", tests, NULL, NULL);
}
