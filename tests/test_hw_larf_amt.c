/* Unit test of larf_amt (LARF's address mapping table): directed cases from the paper's sec.
 * 2-3 (perfect sharing, a shifted register, the two-register merge of Fig. 2b, broadcast
 * loads, invalidation by register and by store range, overflow with round-robin replacement)
 * in every mode, seeded random stimulus in lockstep (every output, flop and table entry
 * compared every cycle), C mode against RTL mode, waveforms, parameters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/larf/larf_amt.h"
#include "../tb/hw_tb.h"

static int64_t P[HW_MAX_PARAMS];

typedef struct amt_t {
  hw_unit *u;
  uint64_t c;
  larf_amt_out o;
} amt_t;

static void op(amt_t *t, unsigned code, uint64_t base, uint64_t stride, uint64_t cnt,
               uint64_t preg, uint64_t hi) {
  rf_diag d;
  larf_amt_in in = {0};
  in.op_i = code;
  in.base_i = base;
  in.stride_i = stride;
  in.cnt_i = cnt;
  in.preg_i = preg;
  in.hi_i = hi;
  if (larf_amt_step(t->u, t->c++, &in, &t->o, &d) != 0) fail_msg("%s", d.msg);
}
static void lookup(amt_t *t, uint64_t base, uint64_t stride, uint64_t cnt) {
  op(t, 1, base, stride, cnt, 0, 0);
  assert_int_equal(t->o.done_o, 1);
}
static void insert(amt_t *t, uint64_t base, uint64_t stride, uint64_t cnt, uint64_t preg) {
  rf_diag d;
  larf_amt_in in = {0};
  in.ins_i = 1;
  in.ins_base_i = base;
  in.ins_stride_i = stride;
  in.ins_cnt_i = cnt;
  in.ins_preg_i = preg;
  if (larf_amt_step(t->u, t->c++, &in, &t->o, &d) != 0) fail_msg("%s", d.msg);
}

static void directed(hw_mode mode) {
  rf_diag d;
  amt_t t = {0};
  t.u = larf_amt_new(NULL, mode, P, NULL, &d);
  if (!t.u) fail_msg("%s", d.msg);
  t.c = 1;
  op(&t, 5, 0, 0, 0, 0, 0); /* clear: the table is memory, not reset */
  assert_int_equal(t.o.occ_o, 0);
  assert_int_equal(t.o.done_o, 0);
  lookup(&t, 1000, 1, 31);
  assert_int_equal(t.o.kind_o, 0);
  /* warp 0 loads words 1000..1031 into register 5 */
  insert(&t, 1000, 1, 31, 5);
  assert_int_equal(t.o.occ_o, 1);
  assert_int_equal(t.o.evict_o, 0);
  lookup(&t, 1000, 1, 31); /* the same load: perfect */
  assert_int_equal(t.o.kind_o, 1);
  assert_int_equal(t.o.preg_a_o, 5);
  assert_int_equal(t.o.split_o, 32);
  lookup(&t, 1000, 1, 15); /* fewer lanes, same base: perfect */
  assert_int_equal(t.o.kind_o, 1);
  lookup(&t, 1001, 1, 30); /* words 1001..1031: register 5 shifted down one lane */
  assert_int_equal(t.o.kind_o, 2);
  assert_int_equal(t.o.preg_a_o, 5);
  assert_int_equal(t.o.shift_a_o, 1);
  lookup(&t, 1001, 1, 31); /* needs word 1032 too: nobody holds it */
  assert_int_equal(t.o.kind_o, 0);
  lookup(&t, 1000, 2, 31); /* other stride */
  assert_int_equal(t.o.kind_o, 0);
  /* warp 1 loads words 1032..1063 into register 6; warp 0's next tap 1001..1032 is the merge
   * of Fig. 2b: 31 lanes of register 5 shifted down, lane 0 of register 6 on top */
  insert(&t, 1032, 1, 31, 6);
  lookup(&t, 1001, 1, 31);
  assert_int_equal(t.o.kind_o, 3);
  assert_int_equal(t.o.preg_a_o, 5);
  assert_int_equal(t.o.shift_a_o, 1);
  assert_int_equal(t.o.preg_b_o, 6);
  assert_int_equal(t.o.shift_b_o, 31);
  assert_int_equal(t.o.split_o, 31);
  lookup(&t, 1010, 1, 31); /* 22 lanes from 5, 10 from 6 */
  assert_int_equal(t.o.kind_o, 3);
  assert_int_equal(t.o.split_o, 22);
  assert_int_equal(t.o.shift_b_o, 22);
  lookup(&t, 1008, 8, 3); /* stride 8 words: 1008, 1016, 1024, 1032 - other stride field */
  assert_int_equal(t.o.kind_o, 0);
  /* a strided entry: words 2000, 2004, ..., 2124 (stride 4) */
  insert(&t, 2000, 4, 31, 9);
  lookup(&t, 2008, 4, 29); /* lanes 2.. of it */
  assert_int_equal(t.o.kind_o, 2);
  assert_int_equal(t.o.shift_a_o, 2);
  lookup(&t, 2002, 4, 3); /* misaligned: a different set of words */
  assert_int_equal(t.o.kind_o, 0);
  /* broadcast (stride 0): every lane reads word 500 */
  insert(&t, 500, 0, 31, 7);
  lookup(&t, 500, 0, 7);
  assert_int_equal(t.o.kind_o, 1);
  assert_int_equal(t.o.preg_a_o, 7);
  lookup(&t, 501, 0, 7);
  assert_int_equal(t.o.kind_o, 0);
  assert_int_equal(t.o.occ_o, 4);
  /* the result holds without a lookup; done drops */
  op(&t, 0, 0, 0, 0, 0, 0);
  assert_int_equal(t.o.done_o, 0);
  assert_int_equal(t.o.kind_o, 0);
  /* register 5's last mapping went away */
  op(&t, 3, 0, 0, 0, 5, 0);
  assert_int_equal(t.o.occ_o, 3);
  lookup(&t, 1000, 1, 31);
  assert_int_equal(t.o.kind_o, 0);
  lookup(&t, 1040, 1, 7); /* register 6 still serves */
  assert_int_equal(t.o.kind_o, 2);
  assert_int_equal(t.o.preg_a_o, 6);
  /* a store to word 1050 deletes register 6's entry; one to 2125 misses register 9's */
  op(&t, 4, 1050, 0, 0, 0, 1050);
  assert_int_equal(t.o.occ_o, 2);
  op(&t, 4, 2125, 0, 0, 0, 3000);
  assert_int_equal(t.o.occ_o, 2);
  op(&t, 4, 1500, 0, 0, 0, 2000); /* ... but a range reaching its base does */
  assert_int_equal(t.o.occ_o, 1);
  lookup(&t, 1040, 1, 7);
  assert_int_equal(t.o.kind_o, 0);
  /* overflow: fill the table, then every insert replaces round-robin from entry 0 */
  int64_t n = P[larf_amt_P_ENTRIES];
  op(&t, 5, 0, 0, 0, 0, 0);
  for (int64_t i = 0; i < n; i++) insert(&t, 10000 + 64 * (uint64_t)i, 1, 31, (uint64_t)i);
  assert_int_equal(t.o.occ_o, n);
  assert_int_equal(t.o.evict_o, 0);
  insert(&t, 90000, 1, 31, 777);
  assert_int_equal(t.o.evict_o, 1);
  assert_int_equal(t.o.evict_preg_o, 0);
  assert_int_equal(t.o.occ_o, n);
  insert(&t, 91000, 1, 31, 778);
  assert_int_equal(t.o.evict_preg_o, 1);
  lookup(&t, 10000, 1, 31); /* evicted */
  assert_int_equal(t.o.kind_o, 0);
  lookup(&t, 10000 + 64 * 2, 1, 31); /* still there */
  assert_int_equal(t.o.kind_o, 1);
  assert_int_equal(t.o.preg_a_o, 2);
  lookup(&t, 90000, 1, 31);
  assert_int_equal(t.o.preg_a_o, 777);
  op(&t, 3, 0, 0, 0, 5, 0); /* a freed register's slot is taken before round-robin */
  insert(&t, 95000, 1, 31, 900);
  assert_int_equal(t.o.evict_o, 0);
  op(&t, 5, 0, 0, 0, 0, 0);
  assert_int_equal(t.o.occ_o, 0);
  /* a lookup and an insert in one cycle: the lookup sees the table before the edge */
  {
    larf_amt_in in = {0};
    in.op_i = 1;
    in.base_i = 7000;
    in.stride_i = 1;
    in.cnt_i = 31;
    in.ins_i = 1;
    in.ins_base_i = 7000;
    in.ins_stride_i = 1;
    in.ins_cnt_i = 31;
    in.ins_preg_i = 42;
    if (larf_amt_step(t.u, t.c++, &in, &t.o, &d) != 0) fail_msg("%s", d.msg);
    assert_int_equal(t.o.kind_o, 0);
    assert_int_equal(t.o.occ_o, 1);
    lookup(&t, 7000, 1, 31);
    assert_int_equal(t.o.kind_o, 1);
    assert_int_equal(t.o.preg_a_o, 42);
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

/* A word address in a small range, so perfect, shift and merge answers all occur; one time in
 * eight across the top of the 24-bit window, where the table's lane distances wrap around
 * (base 2^24 - 3 and base 5 are 8 words apart for the RTL's modular subtractor). */
static uint64_t near(hw_rng *r) {
  if (hw_rng_below(r, 8)) return hw_rng_below(r, 512);
  return (0x1000000 - 256 + hw_rng_below(r, 512)) & 0xffffff;
}

/* Random traffic over small address ranges, power-of-two or zero strides mostly, inserts
 * frequent enough to overflow the table. */
static void gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  larf_amt_in *in = vin;
  hw_tb_random_inputs(u, in, r);
  uint64_t k = hw_rng_below(r, 100);
  in->op_i = k < 60 ? 1 : k < 75 ? 3 : k < 82 ? 4 : k < 83 ? 5 : k < 92 ? 0 : 2 + (k % 3) * 2 % 6;
  in->base_i = hw_rng_below(r, 4) ? near(r) : in->base_i;
  in->ins_base_i = hw_rng_below(r, 4) ? near(r) : in->ins_base_i;
  static const uint64_t strides[] = {0, 1, 1, 1, 2, 4, 8, 256};
  if (hw_rng_below(r, 8)) in->stride_i = strides[hw_rng_below(r, 8)];
  if (hw_rng_below(r, 8)) in->ins_stride_i = strides[hw_rng_below(r, 8)];
  in->preg_i = hw_rng_below(r, 300);
  in->ins_preg_i = hw_rng_below(r, 300);
  in->ins_i = hw_rng_below(r, 100) < 30;
  in->hi_i = (in->base_i + hw_rng_below(r, 64)) & 0xffffff;
}

static void test_random_lockstep(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("larf_amt random lockstep", 1);
  int64_t n = hw_tb_lockstep(&larf_amt_desc, P, hw_tb_cycles(40000), seed, gen, NULL, NULL, &d);
  if (n < 0) fail_msg("%s", d.msg);
}

/* Random overflow: inserts only (and lookups), so the table stays full and replaces. */
static void gen_overflow(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  gen(u, c, vin, r, ctx);
  larf_amt_in *in = vin;
  in->op_i = 1;
  in->ins_i = hw_rng_below(r, 2);
}

static void test_random_overflow(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("larf_amt random overflow", 3);
  int64_t n = hw_tb_lockstep(&larf_amt_desc, P, hw_tb_cycles(20000), seed, gen_overflow, NULL,
                             NULL, &d);
  if (n < 0) fail_msg("%s", d.msg);
}

static void test_c_vs_rtl(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("larf_amt C vs RTL", 2);
  if (hw_tb_c_vs_rtl(&larf_amt_desc, P, hw_tb_cycles(20000), seed, gen, NULL, &d) != 0)
    fail_msg("%s", d.msg);
}

static void test_wave(void **st) {
  (void)st;
  rf_diag d;
  if (hw_tb_wave_run(&larf_amt_desc, P, gen, &d) < 0) fail_msg("%s", d.msg);
}

/* Other parameters: the C model follows them (16 entries overflow after 16 inserts); the
 * linked RTL, Verilated with the paper's 200, is refused with the rebuild hint. */
static void test_params(void **st) {
  (void)st;
  rf_diag d;
  int64_t p[HW_MAX_PARAMS];
  hw_params_default(&larf_amt_desc, p);
  assert_int_equal(p[larf_amt_P_ENTRIES], 200);
  if (hw_param_set(&larf_amt_desc, p, "ENTRIES", 16, &d) != 0) fail_msg("%s", d.msg);
  amt_t t = {0};
  t.u = larf_amt_new("sm1.amt", HW_C, p, NULL, &d);
  if (!t.u) fail_msg("%s", d.msg);
  t.c = 1;
  op(&t, 5, 0, 0, 0, 0, 0);
  for (uint64_t i = 0; i < 16; i++) insert(&t, 64 * i, 1, 31, i);
  assert_int_equal(t.o.evict_o, 0);
  insert(&t, 5000, 1, 31, 99);
  assert_int_equal(t.o.evict_o, 1);
  hw_unit_free(t.u);
  assert_null(larf_amt_new("sm1.amt", HW_RTL, p, NULL, &d));
  assert_non_null(strstr(d.msg, "HW_PARAMS_larf_amt"));
}

int main(void) {
  hw_params_default(&larf_amt_desc, P);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_c),      cmocka_unit_test(test_directed_rtl),
      cmocka_unit_test(test_directed_lockstep), cmocka_unit_test(test_random_lockstep),
      cmocka_unit_test(test_random_overflow), cmocka_unit_test(test_c_vs_rtl),
      cmocka_unit_test(test_wave),            cmocka_unit_test(test_params),
  };
  return cmocka_run_group_tests_name("hw_larf_amt", tests, NULL, NULL);
}
