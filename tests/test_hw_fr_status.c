/* Unit test of fr_status (FineReg CTA status monitor, sec. V-B, Table IV): directed cases (the
 * encodings, both write ports and their collision, the victim, candidate, move and free-slot
 * searches with sec. V-B's priority, clear, the last CTA) in every mode; seeded random stimulus
 * in lockstep (every output and both 128-entry field arrays compared every cycle); C mode
 * against RTL mode; waveforms; parameters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/finereg/fr_status.h"
#include "../tb/hw_tb.h"

static int64_t P[HW_MAX_PARAMS];

static void check_ok(int rc, const rf_diag *d) {
  if (rc != 0) fail_msg("%s", d->msg);
}

static void setbit(uint32_t *v, unsigned i) { v[i / 32] |= 1u << (i % 32); }

static void wa(fr_status_in *in, unsigned cta, unsigned ctx, unsigned reg) {
  in->wa_i = 1;
  in->wa_cta_i = cta;
  in->wa_ctx_i = ctx;
  in->wa_reg_i = reg;
}
static void wb(fr_status_in *in, unsigned cta, unsigned ctx, unsigned reg) {
  in->wb_i = 1;
  in->wb_cta_i = cta;
  in->wb_ctx_i = ctx;
  in->wb_reg_i = reg;
}

static void directed(hw_mode mode) {
  rf_diag d;
  hw_unit *u = fr_status_new(NULL, mode, P, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  fr_status_out o;
  uint64_t c = 1;
  fr_status_in in = {0};
  check_ok(fr_status_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.free_valid_o, 1);
  assert_int_equal(o.free_cta_o, 0);
  assert_int_equal(o.vic_valid_o, 0);
  assert_int_equal(o.cand_valid_o, 0);
  assert_int_equal(o.cand_reg_o, 0);
  /* launch CTAs 0..3 active (context 2 = pipeline, registers 2 = ACRF), two per cycle */
  for (unsigned k = 0; k < 4; k += 2) {
    in = (fr_status_in){0};
    wa(&in, k, 2, 2);
    wb(&in, k + 1, 2, 2);
    check_ok(fr_status_step(u, c++, &in, &o, &d), &d);
  }
  assert_int_equal(o.free_cta_o, 4);
  in = (fr_status_in){0};
  in.rd_cta_i = 3;
  setbit(in.stall_i, 1);
  setbit(in.stall_i, 5); /* not launched: never a victim */
  check_ok(fr_status_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.rd_ctx_o, 2);
  assert_int_equal(o.rd_reg_o, 2);
  assert_int_equal(o.vic_valid_o, 1);
  assert_int_equal(o.vic_cta_o, 1);
  setbit(in.stall_i, 0);
  check_ok(fr_status_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.vic_cta_o, 0); /* lowest first */
  /* switch: CTA 1's live registers to the PCRF (1, 1), CTA 4 launched, in one cycle */
  in = (fr_status_in){0};
  wa(&in, 1, 1, 1);
  wb(&in, 4, 2, 2);
  setbit(in.ready_i, 1);
  check_ok(fr_status_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.cand_valid_o, 1);
  assert_int_equal(o.cand_cta_o, 1);
  assert_int_equal(o.cand_reg_o, 1);
  assert_int_equal(o.free_cta_o, 5);
  /* CTA 6: context saved, registers still in the ACRF (1, 2): preferred though higher */
  in = (fr_status_in){0};
  wa(&in, 6, 1, 2);
  setbit(in.ready_i, 1);
  setbit(in.ready_i, 6);
  check_ok(fr_status_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.cand_cta_o, 6);
  assert_int_equal(o.cand_reg_o, 2);
  assert_int_equal(o.free_cta_o, 5);
  in = (fr_status_in){0};
  setbit(in.ready_i, 1); /* 6 not ready: back to 1 */
  check_ok(fr_status_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.cand_cta_o, 1);
  in = (fr_status_in){0};
  setbit(in.ready_i, 2); /* active CTAs are not candidates */
  check_ok(fr_status_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.cand_valid_o, 0);
  assert_int_equal(o.mov_valid_o, 0);
  /* a waiting pending CTA with its registers in the ACRF (1, 2) is the one to move: 6, not 1
   * (registers already in the PCRF) nor the active 0 and 2 */
  in = (fr_status_in){0};
  setbit(in.stall_i, 0);
  setbit(in.stall_i, 1);
  setbit(in.stall_i, 2);
  setbit(in.stall_i, 6);
  check_ok(fr_status_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.mov_valid_o, 1);
  assert_int_equal(o.mov_cta_o, 6);
  assert_int_equal(o.vic_cta_o, 0);
  in = (fr_status_in){0};
  wa(&in, 3, 1, 2); /* a lower one written this edge wins */
  setbit(in.stall_i, 3);
  setbit(in.stall_i, 6);
  setbit(in.ready_i, 6); /* ready and waiting is not the policy's use, but the fields decide */
  check_ok(fr_status_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.mov_cta_o, 3);
  assert_int_equal(o.cand_cta_o, 6);
  in = (fr_status_in){0};
  wa(&in, 3, 2, 2); /* back to active */
  check_ok(fr_status_step(u, c++, &in, &o, &d), &d);
  /* both ports on one CTA: B wins */
  in = (fr_status_in){0};
  wa(&in, 7, 2, 2);
  wb(&in, 7, 1, 1);
  in.rd_cta_i = 7;
  check_ok(fr_status_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.rd_ctx_o, 1);
  assert_int_equal(o.rd_reg_o, 1);
  /* code 3 is stored and matched by no search; the last CTA id works */
  in = (fr_status_in){0};
  wa(&in, 5, 3, 3);
  wb(&in, 127, 2, 2);
  setbit(in.stall_i, 127);
  setbit(in.stall_i, 5);
  setbit(in.ready_i, 5);
  in.rd_cta_i = 5;
  check_ok(fr_status_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.rd_ctx_o, 3);
  assert_int_equal(o.vic_cta_o, 127);
  assert_int_equal(o.cand_valid_o, 0);
  assert_int_equal(o.mov_valid_o, 0);
  assert_int_equal(o.free_cta_o, 8);
  const fr_status_state *s = hw_unit_state(u);
  assert_int_equal(s->ctx_q[127], 2);
  assert_int_equal(s->reg_q[1], 1);
  /* clear wins over the writes */
  in = (fr_status_in){0};
  in.clr_i = 1;
  wa(&in, 9, 2, 2);
  check_ok(fr_status_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.free_cta_o, 0);
  assert_int_equal(s->ctx_q[9], 0);
  assert_int_equal(s->ctx_q[127], 0);
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

/* Random: writes (often to the same few CTAs, often both ports on one), every code including
 * 3, stall and ready vectors dense or sparse, rare clears. */
static void gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  fr_status_in *in = vin;
  hw_tb_random_inputs(u, in, r);
  in->clr_i = hw_rng_below(r, 3000) == 0;
  in->wa_i = hw_rng_below(r, 100) < 60;
  in->wb_i = hw_rng_below(r, 100) < 40;
  if (hw_rng_below(r, 2)) in->wa_cta_i &= 15;
  if (hw_rng_below(r, 4) == 0) in->wb_cta_i = in->wa_cta_i;
  else if (hw_rng_below(r, 2)) in->wb_cta_i &= 15;
  for (unsigned k = 0; k < 4; k++) {
    if (hw_rng_below(r, 2)) in->stall_i[k] &= (uint32_t)hw_rng_next(r);
    if (hw_rng_below(r, 2)) in->ready_i[k] &= (uint32_t)hw_rng_next(r) & (uint32_t)hw_rng_next(r);
  }
}

static void test_random_lockstep(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("fr_status random lockstep", 1);
  if (hw_tb_lockstep(&fr_status_desc, P, hw_tb_cycles(100000), seed, gen, NULL, NULL, &d) < 0)
    fail_msg("%s", d.msg);
}

static void test_c_vs_rtl(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("fr_status C vs RTL", 2);
  check_ok(hw_tb_c_vs_rtl(&fr_status_desc, P, hw_tb_cycles(50000), seed, gen, NULL, &d), &d);
}

static void test_wave(void **st) {
  (void)st;
  rf_diag d;
  if (hw_tb_wave_run(&fr_status_desc, P, gen, &d) < 0) fail_msg("%s", d.msg);
}

/* 32 CTAs run in C; the RTL (128) is refused. */
static void test_params(void **st) {
  (void)st;
  rf_diag d;
  int64_t p[HW_MAX_PARAMS];
  hw_params_default(&fr_status_desc, p);
  check_ok(hw_param_set(&fr_status_desc, p, "CTAS", 32, &d), &d);
  hw_unit *u = fr_status_new("sm0.status", HW_C, p, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  assert_int_equal(hw_unit_width(u, 2), 5);
  hw_unit_free(u);
  assert_null(fr_status_new("sm0.status", HW_RTL, p, NULL, &d));
  assert_non_null(strstr(d.msg, "CTAS=128"));
}

int main(void) {
  hw_params_default(&fr_status_desc, P);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_c),        cmocka_unit_test(test_directed_rtl),
      cmocka_unit_test(test_directed_lockstep), cmocka_unit_test(test_random_lockstep),
      cmocka_unit_test(test_c_vs_rtl),          cmocka_unit_test(test_wave),
      cmocka_unit_test(test_params),
  };
  return cmocka_run_group_tests_name("hw_fr_status", tests, NULL, NULL);
}
