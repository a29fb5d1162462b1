/* Unit test of larf_mc (LARF's mapping controller): the decisions for each table answer, the
 * reference counts of shared registers through map / unmap (a write to a shared register
 * unmaps: copy-on-write), freeing at the last unmap, in every mode; seeded random stimulus in
 * lockstep (every output, flop and count compared every cycle), C against RTL, waveforms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/larf/larf_mc.h"
#include "../tb/hw_tb.h"

static int64_t P[HW_MAX_PARAMS];

typedef struct mc_t {
  hw_unit *u;
  uint64_t c;
  larf_mc_out o;
} mc_t;

static void step(mc_t *t, unsigned op, unsigned kind, uint64_t a, uint64_t nw, uint64_t preg) {
  rf_diag d;
  larf_mc_in in = {0};
  in.decide_i = op == 1;
  in.unmap_i = op == 2;
  in.kind_i = kind;
  in.preg_a_i = a;
  in.new_i = nw;
  in.preg_i = preg;
  if (larf_mc_step(t->u, t->c++, &in, &t->o, &d) != 0) fail_msg("%s", d.msg);
}

static void directed(hw_mode mode) {
  rf_diag d;
  mc_t t = {0};
  t.u = larf_mc_new(NULL, mode, P, NULL, &d);
  if (!t.u) fail_msg("%s", d.msg);
  t.c = 1;
  step(&t, 1, 0, 0, 10, 0); /* miss: load into register 10 */
  assert_int_equal(t.o.act_o, 3);
  assert_int_equal(t.o.dst_o, 10);
  assert_int_equal(t.o.rc_o, 1);
  step(&t, 1, 1, 10, 11, 0); /* perfect: map 10, count 2 */
  assert_int_equal(t.o.act_o, 1);
  assert_int_equal(t.o.dst_o, 10);
  assert_int_equal(t.o.rc_o, 2);
  step(&t, 1, 1, 10, 11, 0);
  assert_int_equal(t.o.rc_o, 3);
  step(&t, 0, 0, 0, 0, 0); /* idle: act drops, counts stay */
  assert_int_equal(t.o.act_o, 0);
  step(&t, 1, 3, 10, 12, 0); /* merge into a new register 12 */
  assert_int_equal(t.o.act_o, 2);
  assert_int_equal(t.o.dst_o, 12);
  assert_int_equal(t.o.rc_o, 1);
  step(&t, 1, 2, 10, 13, 0); /* shift: also the w-merge */
  assert_int_equal(t.o.act_o, 2);
  assert_int_equal(t.o.dst_o, 13);
  /* writes to the architectural registers mapped to shared register 10 */
  step(&t, 2, 0, 0, 0, 10);
  assert_int_equal(t.o.shared_o, 1);
  assert_int_equal(t.o.freed_o, 0);
  assert_int_equal(t.o.rc_o, 2);
  step(&t, 2, 0, 0, 0, 10);
  assert_int_equal(t.o.shared_o, 1);
  assert_int_equal(t.o.rc_o, 1);
  step(&t, 2, 0, 0, 0, 10); /* the last one: freed */
  assert_int_equal(t.o.shared_o, 0);
  assert_int_equal(t.o.freed_o, 1);
  assert_int_equal(t.o.rc_o, 0);
  step(&t, 2, 0, 0, 0, 10); /* unmapping a free register changes nothing */
  assert_int_equal(t.o.freed_o, 0);
  assert_int_equal(t.o.rc_o, 0);
  step(&t, 2, 0, 0, 0, 12); /* register 12 had one mapping */
  assert_int_equal(t.o.freed_o, 1);
  step(&t, 2, 0, 0, 0, 13);
  assert_int_equal(t.o.freed_o, 1);
  step(&t, 0, 0, 0, 0, 0);
  assert_int_equal(t.o.freed_o, 0);
  /* one register shared by every warp slot (64) */
  step(&t, 1, 0, 0, 20, 0);
  for (int i = 1; i < 64; i++) step(&t, 1, 1, 20, 0, 0);
  assert_int_equal(t.o.rc_o, 64);
  for (int i = 0; i < 64; i++) step(&t, 2, 0, 0, 0, 20);
  assert_int_equal(t.o.freed_o, 1);
  /* both ports in one cycle: map register 30 (count 2) while unmapping register 31 (freed),
   * then map and unmap register 30 together (count stays 2, not freed) */
  step(&t, 1, 0, 0, 30, 0);
  step(&t, 1, 0, 0, 31, 0);
  {
    larf_mc_in in = {0};
    in.decide_i = 1, in.kind_i = 1, in.preg_a_i = 30, in.unmap_i = 1, in.preg_i = 31;
    if (larf_mc_step(t.u, t.c++, &in, &t.o, &d) != 0) fail_msg("%s", d.msg);
    assert_int_equal(t.o.act_o, 1);
    assert_int_equal(t.o.rc_o, 2);
    assert_int_equal(t.o.freed_o, 1);
    in.preg_i = 30;
    if (larf_mc_step(t.u, t.c++, &in, &t.o, &d) != 0) fail_msg("%s", d.msg);
    assert_int_equal(t.o.rc_o, 3);
    assert_int_equal(t.o.freed_o, 0);
    assert_int_equal(t.o.shared_o, 1);
    assert_int_equal(((const larf_mc_state *)hw_unit_state(t.u))->cnt_q[30], 2);
  }
  hw_unit_free(t.u);
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

/* Random decisions and unmaps over 24 registers, so counts rise, fall and free. */
static void gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  larf_mc_in *in = vin;
  hw_tb_random_inputs(u, in, r);
  uint64_t k = hw_rng_below(r, 100);
  in->decide_i = k < 40 || k >= 80;
  in->unmap_i = k >= 40 && k < 97;
  in->kind_i = hw_rng_below(r, 3) ? 1 : hw_rng_below(r, 4);
  in->preg_a_i = hw_rng_below(r, 24);
  in->new_i = hw_rng_below(r, 24);
  in->preg_i = hw_rng_below(r, 24);
}

static void test_random_lockstep(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("larf_mc random lockstep", 1);
  if (hw_tb_lockstep(&larf_mc_desc, P, hw_tb_cycles(100000), seed, gen, NULL, NULL, &d) < 0)
    fail_msg("%s", d.msg);
}

static void test_c_vs_rtl(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("larf_mc C vs RTL", 2);
  if (hw_tb_c_vs_rtl(&larf_mc_desc, P, hw_tb_cycles(100000), seed, gen, NULL, &d) != 0)
    fail_msg("%s", d.msg);
}

static void test_wave(void **st) {
  (void)st;
  rf_diag d;
  if (hw_tb_wave_run(&larf_mc_desc, P, gen, &d) < 0) fail_msg("%s", d.msg);
}

int main(void) {
  hw_params_default(&larf_mc_desc, P);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_c),      cmocka_unit_test(test_directed_rtl),
      cmocka_unit_test(test_directed_lockstep), cmocka_unit_test(test_random_lockstep),
      cmocka_unit_test(test_c_vs_rtl),        cmocka_unit_test(test_wave),
  };
  return cmocka_run_group_tests_name("hw_larf_mc", tests, NULL, NULL);
}
