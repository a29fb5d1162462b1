/* Unit test of fr_ptrtab (FineReg PCRF pointer table, sec. V-C/V-E): directed cases (write and
 * read back, the 6-bit count saturating, read-during-write, the switch-fit comparator) in every
 * mode; seeded random stimulus in lockstep (every output, flop and table entry compared every
 * cycle); C mode against RTL mode; waveforms; parameters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/finereg/fr_ptrtab.h"
#include "../tb/hw_tb.h"

static int64_t P[HW_MAX_PARAMS];

static void check_ok(int rc, const rf_diag *d) {
  if (rc != 0) fail_msg("%s", d->msg);
}

static fr_ptrtab_in wr(uint64_t cta, uint64_t head, uint64_t cnt) {
  fr_ptrtab_in in = {0};
  in.wr_i = 1;
  in.wr_cta_i = cta;
  in.wr_head_i = head;
  in.wr_cnt_i = cnt;
  return in;
}

static fr_ptrtab_in rd(uint64_t cta) {
  fr_ptrtab_in in = {0};
  in.rd_i = 1;
  in.rd_cta_i = cta;
  return in;
}

static void directed(hw_mode mode) {
  rf_diag d;
  hw_unit *u = fr_ptrtab_new(NULL, mode, P, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  fr_ptrtab_out o;
  uint64_t c = 1;
  fr_ptrtab_in in = wr(5, 17, 3);
  check_ok(fr_ptrtab_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.rd_valid_o, 0);
  in = wr(127, 1023, 100); /* last line, last entry; 100 saturates to 63 */
  check_ok(fr_ptrtab_step(u, c++, &in, &o, &d), &d);
  in = rd(5);
  check_ok(fr_ptrtab_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.rd_valid_o, 1);
  assert_int_equal(o.rd_head_o, 17);
  assert_int_equal(o.rd_cnt_o, 3);
  in = rd(127);
  check_ok(fr_ptrtab_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.rd_head_o, 1023);
  assert_int_equal(o.rd_cnt_o, 63);
  /* the switch decision: 10 free + the candidate's 63 >= 70 needed; without it, no */
  in = (fr_ptrtab_in){0};
  in.free_i = 10;
  in.need_i = 70;
  in.cand_i = 1;
  check_ok(fr_ptrtab_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.rd_valid_o, 0);
  assert_int_equal(o.rd_cnt_o, 63); /* the read register holds its line */
  assert_int_equal(o.fit_o, 1);
  in.cand_i = 0;
  check_ok(fr_ptrtab_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.fit_o, 0);
  in.need_i = 10;
  check_ok(fr_ptrtab_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.fit_o, 1); /* equal is enough */
  in.free_i = 1024;
  in.need_i = 1024;
  in.cand_i = 1; /* 1024 + 63 needs the adder's carry */
  check_ok(fr_ptrtab_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.fit_o, 1);
  /* a read and a write of the same line: the old line is read */
  in = wr(5, 300, 9);
  in.rd_i = 1;
  in.rd_cta_i = 5;
  check_ok(fr_ptrtab_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.rd_head_o, 17);
  assert_int_equal(o.rd_cnt_o, 3);
  in = rd(5);
  check_ok(fr_ptrtab_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.rd_head_o, 300);
  assert_int_equal(o.rd_cnt_o, 9);
  /* exactly 63 is stored as 63, 64 saturates */
  in = wr(6, 1, 63);
  check_ok(fr_ptrtab_step(u, c++, &in, &o, &d), &d);
  in = rd(6);
  check_ok(fr_ptrtab_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.rd_cnt_o, 63);
  /* the table is state: entry 5 holds {300, 9} */
  const fr_ptrtab_state *s = hw_unit_state(u);
  assert_int_equal(s->ent_q[5], (300u << 6) | 9u);
  /* reset clears the read-valid flop, not the SRAM */
  check_ok(fr_ptrtab_reset(u, c++, &o, &d), &d);
  assert_int_equal(o.rd_valid_o, 0);
  in = rd(5);
  check_ok(fr_ptrtab_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.rd_head_o, 300);
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

/* Random: writes and reads of random lines (half of them to 8 lines, so reads hit written
 * lines and same-line read/write collide), counts around the saturation point, random
 * fit operands. */
static void gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  fr_ptrtab_in *in = vin;
  hw_tb_random_inputs(u, in, r);
  in->wr_i = hw_rng_below(r, 100) < 30;
  in->rd_i = hw_rng_below(r, 100) < 50;
  if (hw_rng_below(r, 2)) in->wr_cta_i &= 7;
  if (hw_rng_below(r, 2)) in->rd_cta_i &= 7;
  in->wr_cnt_i = hw_rng_below(r, 2) ? 58 + hw_rng_below(r, 10) : hw_rng_below(r, 1025);
  in->need_i = hw_rng_below(r, 1025);
  in->free_i = hw_rng_below(r, 2) ? in->need_i - hw_rng_below(r, 64) : hw_rng_below(r, 1025);
  in->free_i &= 2047;
}

static void test_random_lockstep(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("fr_ptrtab random lockstep", 1);
  if (hw_tb_lockstep(&fr_ptrtab_desc, P, hw_tb_cycles(100000), seed, gen, NULL, NULL, &d) < 0)
    fail_msg("%s", d.msg);
}

static void test_c_vs_rtl(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("fr_ptrtab C vs RTL", 2);
  check_ok(hw_tb_c_vs_rtl(&fr_ptrtab_desc, P, hw_tb_cycles(50000), seed, gen, NULL, &d), &d);
}

static void test_wave(void **st) {
  (void)st;
  rf_diag d;
  if (hw_tb_wave_run(&fr_ptrtab_desc, P, gen, &d) < 0) fail_msg("%s", d.msg);
}

/* Other parameters run in C (CNT_BITS=8 stores 100 unsaturated); the RTL is refused. */
static void test_params(void **st) {
  (void)st;
  rf_diag d;
  int64_t p[HW_MAX_PARAMS];
  hw_params_default(&fr_ptrtab_desc, p);
  check_ok(hw_param_set(&fr_ptrtab_desc, p, "CNT_BITS", 8, &d), &d);
  hw_unit *u = fr_ptrtab_new("sm0.ptrtab", HW_C, p, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  fr_ptrtab_in in = wr(3, 2, 100);
  fr_ptrtab_out o;
  check_ok(fr_ptrtab_step(u, 1, &in, &o, &d), &d);
  in = rd(3);
  check_ok(fr_ptrtab_step(u, 2, &in, &o, &d), &d);
  assert_int_equal(o.rd_cnt_o, 100);
  hw_unit_free(u);
  assert_null(fr_ptrtab_new("sm0.ptrtab", HW_RTL, p, NULL, &d));
  assert_non_null(strstr(d.msg, "HW_PARAMS_fr_ptrtab"));
  /* a table deeper than the descriptor's storage is refused */
  hw_params_default(&fr_ptrtab_desc, p);
  check_ok(hw_param_set(&fr_ptrtab_desc, p, "CTAS", 2048, &d), &d);
  assert_null(fr_ptrtab_new("sm0.ptrtab", HW_C, p, NULL, &d));
  assert_non_null(strstr(d.msg, "memory ent_q has 2048 entries"));
}

int main(void) {
  hw_params_default(&fr_ptrtab_desc, P);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_c),        cmocka_unit_test(test_directed_rtl),
      cmocka_unit_test(test_directed_lockstep), cmocka_unit_test(test_random_lockstep),
      cmocka_unit_test(test_c_vs_rtl),          cmocka_unit_test(test_wave),
      cmocka_unit_test(test_params),
  };
  return cmocka_run_group_tests_name("hw_fr_ptrtab", tests, NULL, NULL);
}
