/* Lockstep catches each deliberately broken LARF unit (built with `define BROKEN_FOR_TEST as
 * larf_amt-broken, larf_mc-broken, larf_wmerge-broken; see the faults in rtl/larf/<unit>.v) at the
 * first cycle in which its fault fires, found beforehand by running the C reference alone on the
 * same seeded stimulus; C mode and RTL mode side by side disagree too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/larf/larf_amt.h"
#include "../csim/hw/larf/larf_mc.h"
#include "../csim/hw/larf/larf_wmerge.h"
#include "../tb/hw_tb.h"

/* ---- larf_amt: an insert that evicts at rr_q == 3 records the wrong register ---- */
static void amt_gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  larf_amt_in *in = vin;
  hw_tb_random_inputs(u, in, r);
  in->op_i = hw_rng_below(r, 2);
  in->ins_i = hw_rng_below(r, 2);
  in->ins_stride_i = 1;
  in->stride_i = 1;
}
static int amt_fires(const hw_unit *u, const void *vin) {
  const larf_amt_in *in = vin;
  const larf_amt_state *s = hw_unit_state(u);
  uint64_t occ = 0;
  for (int i = 0; i < 200; i++) occ += s->amt_q[i] >> (39 + 10 - 1) & 1;
  return in->ins_i && occ == 200 && s->rr_q == 3;
}

/* ---- larf_mc: unmapping a register shared by exactly two frees it ---- */
static void mc_gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  larf_mc_in *in = vin;
  hw_tb_random_inputs(u, in, r);
  in->decide_i = hw_rng_below(r, 2);
  in->unmap_i = hw_rng_below(r, 2);
  in->kind_i = hw_rng_below(r, 4) ? 1 : 0;
  in->preg_a_i = hw_rng_below(r, 8);
  in->new_i = hw_rng_below(r, 8);
  in->preg_i = hw_rng_below(r, 8);
}
static int mc_fires(const hw_unit *u, const void *vin) {
  const larf_mc_in *in = vin;
  const larf_mc_state *s = hw_unit_state(u);
  uint64_t addr = (in->kind_i & 3) == 1 ? in->preg_a_i : in->new_i;
  uint64_t base = (in->decide_i & 1) && addr == in->preg_i
                      ? ((in->kind_i & 3) == 1 ? s->cnt_q[addr] + 1 : 1)
                      : s->cnt_q[in->preg_i];
  return (in->unmap_i & 1) && base == 2;
}

/* ---- larf_wmerge: a merge with shift_a 3 taking more than 5 lanes from A flips a bit ---- */
static void wm_gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  hw_tb_random_inputs(u, vin, r);
}
static int wm_fires(const hw_unit *u, const void *vin) {
  (void)u;
  const larf_wmerge_in *in = vin;
  /* (inputs are masked to their port widths inside the step) */
  return (in->go_i & 1) && (in->shift_a_i & 31) == 3 && (in->split_i & 63) > 5;
}

typedef int (*fires_fn)(const hw_unit *u, const void *in);

static void caught(const hw_unit_desc *desc, hw_tb_gen gen, fires_fn fires, const char *field,
                   uint64_t seed) {
  rf_diag d;
  const uint64_t cycles = 20000;
  hw_unit *c_u = hw_unit_new(desc, NULL, HW_C, NULL, NULL, &d);
  if (!c_u) fail_msg("%s", d.msg);
  hw_rng r = hw_rng_make(seed);
  void *in = calloc(1, desc->in_size), *out = calloc(1, desc->out_size);
  assert_non_null(in);
  assert_non_null(out);
  uint64_t first = 0;
  for (uint64_t c = 1; c <= cycles && !first; c++) {
    memset(in, 0, desc->in_size);
    gen(c_u, c, in, &r, NULL);
    if (fires(c_u, in)) first = c;
    if (hw_unit_step(c_u, c, in, out, &d) != 0) fail_msg("%s", d.msg);
  }
  hw_unit_free(c_u);
  free(in);
  free(out);
  assert_true(first > 0);
  printf("[ INFO     ] %s: the fault first fires at cycle %llu\n", desc->name,
         (unsigned long long)first);
  assert_int_equal(hw_tb_lockstep(desc, NULL, cycles, seed, gen, NULL, NULL, &d), -1);
  printf("[ INFO     ] %s\n", d.msg);
  char want[160];
  snprintf(want, sizeof want, "cycle %llu: unit %s: field %s: expected (C reference)",
           (unsigned long long)first, desc->name, field);
  assert_non_null(strstr(d.msg, want));
  assert_int_equal(hw_tb_c_vs_rtl(desc, NULL, cycles, seed, gen, NULL, &d), -1);
}

static void test_amt(void **st) {
  (void)st;
  caught(&larf_amt_desc, amt_gen, amt_fires, "amt_q[3]", hw_tb_seed("broken larf_amt", 21));
}
static void test_mc(void **st) {
  (void)st;
  caught(&larf_mc_desc, mc_gen, mc_fires, "freed_o", hw_tb_seed("broken larf_mc", 22));
}
static void test_wmerge(void **st) {
  (void)st;
  caught(&larf_wmerge_desc, wm_gen, wm_fires, "data_o", hw_tb_seed("broken larf_wmerge", 23));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_amt),
      cmocka_unit_test(test_mc),
      cmocka_unit_test(test_wmerge),
  };
  return cmocka_run_group_tests_name("hw_larf_broken", tests, NULL, NULL);
}
