/* Unit test of fr_lrcache (FineReg live-register information cache, sec. V-C): directed cases
 * (miss, fill, hit, a conflicting PC replacing the line, the full tag compare, read-first,
 * clear) in every mode; seeded random stimulus over a small PC pool with aliases in lockstep
 * (every output, flop and SRAM line compared every cycle), checked against a reference
 * directed-mapped cache kept here; C mode against RTL mode; waveforms; parameters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/finereg/fr_lrcache.h"
#include "../tb/hw_tb.h"

static int64_t P[HW_MAX_PARAMS];

static void check_ok(int rc, const rf_diag *d) {
  if (rc != 0) fail_msg("%s", d->msg);
}

static fr_lrcache_in lk(uint32_t pc) {
  fr_lrcache_in in = {0};
  in.lk_i = 1;
  in.lk_pc_i = pc;
  return in;
}

static fr_lrcache_in fill(uint32_t pc, uint64_t vec) {
  fr_lrcache_in in = {0};
  in.fill_i = 1;
  in.fill_pc_i = pc;
  in.fill_vec_i = vec;
  return in;
}

static void directed(hw_mode mode) {
  rf_diag d;
  hw_unit *u = fr_lrcache_new(NULL, mode, P, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  fr_lrcache_out o;
  uint64_t c = 1;
  const uint32_t pc = 0x1a8, alias = pc ^ ((1u << 3) | (1u << 8)); /* same line */
  fr_lrcache_in in = lk(pc);
  check_ok(fr_lrcache_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.lk_valid_o, 1);
  assert_int_equal(o.hit_o, 0); /* empty cache */
  in = fill(pc, 0x8000000000000005ULL); /* R0, R2, R63 live */
  check_ok(fr_lrcache_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.lk_valid_o, 0);
  assert_int_equal(o.hit_o, 0);
  in = lk(pc);
  check_ok(fr_lrcache_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.hit_o, 1);
  assert_int_equal(o.vec_o, 0x8000000000000005ULL);
  in = lk(pc ^ 0x80000000u); /* same line, tag differs in bit 31 */
  check_ok(fr_lrcache_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.hit_o, 0);
  /* a conflicting PC replaces the line; the lookup in the fill's cycle sees the old line */
  in = fill(alias, 0x3);
  in.lk_i = 1;
  in.lk_pc_i = pc;
  check_ok(fr_lrcache_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.hit_o, 1);
  assert_int_equal(o.vec_o, 0x8000000000000005ULL);
  in = lk(pc);
  check_ok(fr_lrcache_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.hit_o, 0);
  in = lk(alias);
  check_ok(fr_lrcache_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.hit_o, 1);
  assert_int_equal(o.vec_o, 0x3);
  /* another line keeps its own */
  in = fill(0x2000, 0xff);
  check_ok(fr_lrcache_step(u, c++, &in, &o, &d), &d);
  in = lk(0x2000);
  check_ok(fr_lrcache_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.hit_o, 1);
  assert_int_equal(o.vec_o, 0xff);
  const fr_lrcache_state *s = hw_unit_state(u);
  assert_int_equal(__builtin_popcountll(s->valid_q), 2);
  /* clear: every line invalid, the SRAM keeps its contents */
  in = (fr_lrcache_in){0};
  in.clr_i = 1;
  check_ok(fr_lrcache_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(s->valid_q, 0);
  in = lk(0x2000);
  check_ok(fr_lrcache_step(u, c++, &in, &o, &d), &d);
  assert_int_equal(o.hit_o, 0);
  assert_int_equal(o.vec_o, 0xff);
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

/* PCs from a pool: 48 8-byte-aligned PCs of one kernel, and aliases of them in bit 31. */
static uint32_t pool_pc(hw_rng *r) {
  uint32_t pc = (uint32_t)hw_rng_below(r, 48) * 8u;
  if (hw_rng_below(r, 8) == 0) pc ^= 0x80000000u;
  if (hw_rng_below(r, 16) == 0) pc = (uint32_t)hw_rng_next(r);
  return pc;
}

static void gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  fr_lrcache_in *in = vin;
  hw_tb_random_inputs(u, in, r);
  in->clr_i = hw_rng_below(r, 1000) == 0;
  in->lk_i = hw_rng_below(r, 100) < 60;
  in->fill_i = hw_rng_below(r, 100) < 25;
  in->lk_pc_i = pool_pc(r);
  in->fill_pc_i = pool_pc(r);
}

/* Lockstep, and every answer checked against a direct-mapped cache modelled here. */
static void test_random_lockstep(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("fr_lrcache random lockstep", 1);
  hw_unit *u = fr_lrcache_new(NULL, HW_LOCKSTEP, P, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  hw_rng r = hw_rng_make(seed);
  uint32_t tag[32] = {0};
  uint64_t vec[32] = {0};
  int valid[32] = {0};
  unsigned hits = 0, misses = 0;
  uint64_t cycles = hw_tb_cycles(100000);
  for (uint64_t c = 1; c <= cycles; c++) {
    fr_lrcache_in in = {0};
    fr_lrcache_out o;
    gen(u, c, &in, &r, NULL);
    check_ok(fr_lrcache_step(u, c, &in, &o, &d), &d);
    unsigned l = (unsigned)(((in.lk_pc_i >> 3) ^ (in.lk_pc_i >> 8)) & 31);
    if (in.lk_i) {
      int hit = valid[l] && tag[l] == (uint32_t)in.lk_pc_i;
      assert_int_equal(o.hit_o, hit);
      if (hit) assert_int_equal(o.vec_o, vec[l]);
      hits += (unsigned)hit;
      misses += (unsigned)!hit;
    }
    if (in.fill_i) {
      unsigned f = (unsigned)(((in.fill_pc_i >> 3) ^ (in.fill_pc_i >> 8)) & 31);
      tag[f] = (uint32_t)in.fill_pc_i;
      vec[f] = in.fill_vec_i;
      valid[f] = 1;
    }
    if (in.clr_i) memset(valid, 0, sizeof valid);
  }
  printf("[ INFO     ] %u hits, %u misses\n", hits, misses);
  assert_true(hits > 1000 && misses > 1000);
  hw_unit_free(u);
}

static void test_c_vs_rtl(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("fr_lrcache C vs RTL", 2);
  check_ok(hw_tb_c_vs_rtl(&fr_lrcache_desc, P, hw_tb_cycles(50000), seed, gen, NULL, &d), &d);
}

static void test_wave(void **st) {
  (void)st;
  rf_diag d;
  if (hw_tb_wave_run(&fr_lrcache_desc, P, gen, &d) < 0) fail_msg("%s", d.msg);
}

/* 16-byte instructions (PC_LSB=4) run in C: pc and pc + 8 share a line; the RTL is refused. */
static void test_params(void **st) {
  (void)st;
  rf_diag d;
  int64_t p[HW_MAX_PARAMS];
  hw_params_default(&fr_lrcache_desc, p);
  check_ok(hw_param_set(&fr_lrcache_desc, p, "PC_LSB", 4, &d), &d);
  hw_unit *u = fr_lrcache_new("sm0.lrc", HW_C, p, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  fr_lrcache_in in = fill(0x100, 7);
  fr_lrcache_out o;
  check_ok(fr_lrcache_step(u, 1, &in, &o, &d), &d);
  in = fill(0x108, 9);
  check_ok(fr_lrcache_step(u, 2, &in, &o, &d), &d);
  in = lk(0x100);
  check_ok(fr_lrcache_step(u, 3, &in, &o, &d), &d);
  assert_int_equal(o.hit_o, 0); /* replaced by 0x108 */
  hw_unit_free(u);
  assert_null(fr_lrcache_new("sm0.lrc", HW_RTL, p, NULL, &d));
  assert_non_null(strstr(d.msg, "PC_LSB=3"));
}

int main(void) {
  hw_params_default(&fr_lrcache_desc, P);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_c),        cmocka_unit_test(test_directed_rtl),
      cmocka_unit_test(test_directed_lockstep), cmocka_unit_test(test_random_lockstep),
      cmocka_unit_test(test_c_vs_rtl),          cmocka_unit_test(test_wave),
      cmocka_unit_test(test_params),
  };
  return cmocka_run_group_tests_name("hw_fr_lrcache", tests, NULL, NULL);
}
