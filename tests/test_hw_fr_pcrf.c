/* Unit test of fr_pcrf (FineReg PCRF tag array, chain builder and walker, free-space monitor;
 * sec. V-C to V-E, Fig. 11): directed cases (the paper's chain, refused requests, hold, a full
 * PCRF, the concurrent swap, clear) in every mode; a policy-like random driver in lockstep that
 * builds and restores chains and checks that every walk returns exactly the registers pushed,
 * in order, and that the free count is the PCRF minus the chains held; unconstrained random
 * inputs in lockstep (every output, flop and tag compared every cycle); C mode against RTL
 * mode; waveforms; parameters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/finereg/fr_pcrf.h"
#include "../tb/hw_tb.h"

static int64_t P[HW_MAX_PARAMS];

static void check_ok(int rc, const rf_diag *d) {
  if (rc != 0) fail_msg("%s", d->msg);
}

typedef struct drv {
  hw_unit *u;
  uint64_t c;
  fr_pcrf_out o;
  rf_diag d;
} drv;

static void step(drv *v, const fr_pcrf_in *in) {
  check_ok(fr_pcrf_step(v->u, v->c++, in, &v->o, &v->d), &v->d);
}

static void start(drv *v) {
  fr_pcrf_in in = {0};
  in.bld_start_i = 1;
  step(v, &in);
}

static void push(drv *v, unsigned warp, unsigned reg, int last) {
  fr_pcrf_in in = {0};
  in.bld_push_i = 1;
  in.bld_warp_i = warp;
  in.bld_reg_i = reg;
  in.bld_last_i = (uint64_t)last;
  step(v, &in);
}

static void idle(drv *v) {
  fr_pcrf_in in = {0};
  step(v, &in);
}

static uint64_t tag(unsigned next, unsigned warp, unsigned reg) {
  return ((uint64_t)next << 11) | ((uint64_t)warp << 6) | reg;
}

static void directed(hw_mode mode) {
  drv v = {0};
  v.c = 1;
  v.u = fr_pcrf_new(NULL, mode, P, NULL, &v.d);
  if (!v.u) fail_msg("%s", v.d.msg);
  const fr_pcrf_state *s = hw_unit_state(v.u);
  idle(&v);
  assert_int_equal(v.o.free_cnt_o, 1024);
  assert_int_equal(v.o.bld_busy_o, 0);
  assert_int_equal(v.o.walk_valid_o, 0);
  /* a push while idle is refused */
  push(&v, 1, 1, 0);
  assert_int_equal(v.o.free_cnt_o, 1024);
  assert_int_equal(v.o.bld_cnt_o, 0);
  /* CTA A: warp 1 R0, warp 1 R2, warp 3 R5 (1 + 3 cycles) */
  start(&v);
  assert_int_equal(v.o.bld_busy_o, 1);
  assert_int_equal(v.o.bld_head_o, 0);
  assert_int_equal(v.o.free_cnt_o, 1023);
  start(&v); /* refused while busy */
  assert_int_equal(v.o.free_cnt_o, 1023);
  push(&v, 1, 0, 0);
  assert_int_equal(v.o.bld_cnt_o, 1);
  assert_int_equal(v.o.free_cnt_o, 1022);
  push(&v, 1, 2, 0);
  push(&v, 3, 5, 1);
  assert_int_equal(v.o.bld_done_o, 1);
  assert_int_equal(v.o.bld_busy_o, 0);
  assert_int_equal(v.o.bld_cnt_o, 3);
  assert_int_equal(v.o.bld_head_o, 0);
  assert_int_equal(v.o.free_cnt_o, 1021); /* the last push takes no new entry */
  assert_int_equal(s->tag_q[0], tag(1, 1, 0));
  assert_int_equal(s->tag_q[1], tag(2, 1, 2));
  assert_int_equal(s->tag_q[2], tag(2, 3, 5)); /* end: next is itself */
  idle(&v);
  assert_int_equal(v.o.bld_done_o, 0);
  /* CTA B: one register, entries 3 */
  start(&v);
  assert_int_equal(v.o.bld_head_o, 3);
  push(&v, 31, 63, 1);
  assert_int_equal(s->tag_q[3], tag(3, 31, 63));
  assert_int_equal(v.o.free_cnt_o, 1020);
  /* restore A: 3 cycles, one register each, entries freed as they are read */
  fr_pcrf_in w = {0};
  w.walk_start_i = 1;
  w.walk_head_i = 0;
  step(&v, &w);
  assert_int_equal(v.o.walk_valid_o, 1);
  assert_int_equal(v.o.walk_entry_o, 0);
  assert_int_equal(v.o.walk_warp_o, 1);
  assert_int_equal(v.o.walk_reg_o, 0);
  assert_int_equal(v.o.walk_last_o, 0);
  assert_int_equal(v.o.free_cnt_o, 1021);
  fr_pcrf_in hold = {0};
  hold.walk_hold_i = 1;
  hold.walk_start_i = 1; /* a start while walking is refused */
  hold.walk_head_i = 3;
  step(&v, &hold);
  assert_int_equal(v.o.walk_entry_o, 0);
  assert_int_equal(v.o.free_cnt_o, 1021);
  idle(&v);
  assert_int_equal(v.o.walk_entry_o, 1);
  assert_int_equal(v.o.walk_reg_o, 2);
  idle(&v);
  assert_int_equal(v.o.walk_entry_o, 2);
  assert_int_equal(v.o.walk_warp_o, 3);
  assert_int_equal(v.o.walk_reg_o, 5);
  assert_int_equal(v.o.walk_last_o, 1);
  assert_int_equal(v.o.free_cnt_o, 1023);
  idle(&v);
  assert_int_equal(v.o.walk_valid_o, 0);
  assert_int_equal(v.o.walk_last_o, 0);
  /* the lowest free entry is reused: a new chain starts at 0 */
  start(&v);
  assert_int_equal(v.o.bld_head_o, 0);
  push(&v, 2, 2, 1);
  /* fill the PCRF: chain C takes every other entry (1020 more) */
  start(&v);
  unsigned headc = (unsigned)v.o.bld_head_o;
  assert_int_equal(headc, 1);
  unsigned pushed = 0;
  while (v.o.free_cnt_o > 0) {
    push(&v, pushed % 32, pushed % 64, 0);
    pushed++;
  }
  assert_int_equal(v.o.bld_room_o, 0);
  assert_int_equal(v.o.bld_busy_o, 1);
  /* full: a non-last push is refused, the chain waits */
  push(&v, 9, 9, 0);
  assert_int_equal(v.o.bld_cnt_o, pushed);
  /* swap: walk B (entry 3) while C waits; the freed entry is taken the next cycle */
  w.walk_head_i = 3;
  w.bld_push_i = 1;
  w.bld_warp_i = 7;
  w.bld_reg_i = 7;
  step(&v, &w); /* walker frees entry 3; the push is still refused (no room before the edge) */
  assert_int_equal(v.o.walk_entry_o, 3);
  assert_int_equal(v.o.walk_last_o, 1);
  assert_int_equal(v.o.free_cnt_o, 1);
  assert_int_equal(v.o.bld_cnt_o, pushed);
  push(&v, 7, 7, 0); /* now it takes entry 3 */
  assert_int_equal(v.o.bld_cnt_o, pushed + 1);
  assert_int_equal(v.o.free_cnt_o, 0);
  assert_int_equal(v.o.walk_valid_o, 0);
  push(&v, 8, 8, 1); /* the last push needs no free entry */
  assert_int_equal(v.o.bld_done_o, 1);
  assert_int_equal(v.o.bld_cnt_o, pushed + 2);
  start(&v); /* refused: nothing free */
  assert_int_equal(v.o.bld_busy_o, 0);
  /* walk C back completely: pushed + 2 entries, then everything but chain "0" is free */
  w = (fr_pcrf_in){0};
  w.walk_start_i = 1;
  w.walk_head_i = headc;
  step(&v, &w);
  unsigned n = 1;
  while (!v.o.walk_last_o) {
    assert_int_equal(v.o.walk_valid_o, 1);
    idle(&v);
    n++;
  }
  assert_int_equal(n, pushed + 2);
  assert_int_equal(v.o.walk_warp_o, 8);
  assert_int_equal(v.o.free_cnt_o, 1023);
  /* clear frees everything and stops both */
  start(&v);
  fr_pcrf_in clr = {0};
  clr.clr_i = 1;
  clr.walk_start_i = 1;
  clr.bld_push_i = 1;
  step(&v, &clr);
  assert_int_equal(v.o.free_cnt_o, 1024);
  assert_int_equal(v.o.bld_busy_o, 0);
  assert_int_equal(v.o.walk_valid_o, 0);
  hw_unit_free(v.u);
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

/* ---- policy-like driver: chains of random length built and restored in random order ---- */
#define MAXCH 64
typedef struct chain {
  unsigned head, n;
  uint16_t wr[1024]; /* warp << 6 | reg, in push order */
} chain;

static void test_random_chains_lockstep(void **st) {
  (void)st;
  uint64_t seed = hw_tb_seed("fr_pcrf chains lockstep", 3);
  hw_rng r = hw_rng_make(seed);
  drv v = {0};
  v.c = 1;
  v.u = fr_pcrf_new(NULL, HW_LOCKSTEP, P, NULL, &v.d);
  if (!v.u) fail_msg("%s", v.d.msg);
  static chain ch[MAXCH];
  unsigned nch = 0, held = 0, walks = 0, builds = 0;
  int building = 0, walking = -1;
  unsigned bn = 0, blen = 0, wpos = 0;
  idle(&v);
  uint64_t cycles = hw_tb_cycles(200000);
  for (uint64_t k = 0; k < cycles; k++) {
    fr_pcrf_in in = {0};
    /* builder: start a chain of 1..80 registers when there is a slot */
    int start_now = !building && nch < MAXCH && v.o.bld_room_o && hw_rng_below(&r, 8) == 0;
    int push_now = 0;
    if (start_now) in.bld_start_i = 1;
    if (building && hw_rng_below(&r, 4) != 0) {
      uint16_t x = (uint16_t)hw_rng_below(&r, 2048);
      in.bld_push_i = 1;
      in.bld_warp_i = x >> 6;
      in.bld_reg_i = x & 63;
      in.bld_last_i = bn + 1 == blen;
      push_now = in.bld_last_i || v.o.bld_room_o;
      if (push_now) ch[nch].wr[bn] = x;
    }
    /* walker: restore a random finished chain */
    int walk_now = walking < 0 && nch > (unsigned)building && hw_rng_below(&r, 6) == 0;
    unsigned pick = 0;
    if (walk_now) {
      pick = (unsigned)hw_rng_below(&r, nch - (unsigned)building);
      in.walk_start_i = 1;
      in.walk_head_i = ch[pick].head;
    }
    int hold = walking >= 0 && hw_rng_below(&r, 5) == 0;
    in.walk_hold_i = (uint64_t)hold;
    int was_walking = walking >= 0, was_last = v.o.walk_last_o;
    step(&v, &in);
    if (start_now) {
      assert_int_equal(v.o.bld_busy_o, 1);
      building = 1;
      bn = 0;
      blen = 1 + (unsigned)hw_rng_below(&r, 80);
      ch[nch].head = (unsigned)v.o.bld_head_o;
    } else if (push_now) {
      bn++;
      held++;
      assert_int_equal(v.o.bld_cnt_o, bn);
      if (bn == blen) {
        assert_int_equal(v.o.bld_done_o, 1);
        ch[nch].n = bn;
        nch++;
        building = 0;
        builds++;
      }
    }
    /* the finished chain sits at index nch - 1 when not building; a chain being built is
     * ch[nch] and never picked */
    if (was_walking && !hold && was_last) {
      assert_int_equal(v.o.walk_valid_o, 0);
      held -= ch[walking].n;
      ch[walking] = ch[--nch - 0]; /* move the last finished chain into the hole */
      if (building) ch[nch] = ch[nch + 1];
      walking = -1;
      walks++;
    } else if (was_walking && !hold) {
      wpos++;
    }
    if (walk_now) {
      walking = (int)pick;
      wpos = 0;
    }
    if (walking >= 0) {
      assert_int_equal(v.o.walk_valid_o, 1);
      uint16_t x = ch[walking].wr[wpos];
      assert_int_equal(v.o.walk_warp_o, x >> 6);
      assert_int_equal(v.o.walk_reg_o, x & 63);
      assert_int_equal(v.o.walk_last_o, wpos + 1 == ch[walking].n);
    }
    /* free = entries - (registers in finished and open chains, plus the open chain's reserved
     * entry) + those of the chain being walked already read */
    unsigned reserved = building ? 1 : 0;
    unsigned walked = walking >= 0 ? wpos + 1 : 0;
    assert_int_equal(v.o.free_cnt_o, 1024 - held - reserved + walked);
  }
  printf("[ INFO     ] %u chains built, %u restored\n", builds, walks);
  assert_true(builds > 100 && walks > 100);
  hw_unit_free(v.u);
}

/* Unconstrained random inputs (bogus heads, pushes while idle, clears): the models must agree
 * cycle by cycle whatever they are asked. */
static void gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  fr_pcrf_in *in = vin;
  hw_tb_random_inputs(u, in, r);
  in->clr_i = hw_rng_below(r, 2000) == 0;
  in->bld_start_i = hw_rng_below(r, 10) == 0;
  in->bld_push_i = hw_rng_below(r, 10) < 8;
  in->bld_last_i = hw_rng_below(r, 20) == 0;
  in->walk_start_i = hw_rng_below(r, 10) == 0;
  in->walk_hold_i = hw_rng_below(r, 5) == 0;
  if (hw_rng_below(r, 2)) in->walk_head_i &= 63;
}

static void test_random_lockstep(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("fr_pcrf random lockstep", 1);
  if (hw_tb_lockstep(&fr_pcrf_desc, P, hw_tb_cycles(100000), seed, gen, NULL, NULL, &d) < 0)
    fail_msg("%s", d.msg);
}

static void test_c_vs_rtl(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("fr_pcrf C vs RTL", 2);
  check_ok(hw_tb_c_vs_rtl(&fr_pcrf_desc, P, hw_tb_cycles(50000), seed, gen, NULL, &d), &d);
}

static void test_wave(void **st) {
  (void)st;
  rf_diag d;
  if (hw_tb_wave_run(&fr_pcrf_desc, P, gen, &d) < 0) fail_msg("%s", d.msg);
}

/* A 64-entry PCRF runs in C (free count 64, 7-bit); the RTL is refused. */
static void test_params(void **st) {
  (void)st;
  rf_diag d;
  int64_t p[HW_MAX_PARAMS];
  hw_params_default(&fr_pcrf_desc, p);
  check_ok(hw_param_set(&fr_pcrf_desc, p, "ENTRIES", 64, &d), &d);
  hw_unit *u = fr_pcrf_new("sm0.pcrf", HW_C, p, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  fr_pcrf_in in = {0};
  fr_pcrf_out o;
  check_ok(fr_pcrf_step(u, 1, &in, &o, &d), &d);
  assert_int_equal(o.free_cnt_o, 64);
  hw_unit_free(u);
  assert_null(fr_pcrf_new("sm0.pcrf", HW_RTL, p, NULL, &d));
  assert_non_null(strstr(d.msg, "ENTRIES=1024"));
}

int main(void) {
  hw_params_default(&fr_pcrf_desc, P);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_c),        cmocka_unit_test(test_directed_rtl),
      cmocka_unit_test(test_directed_lockstep), cmocka_unit_test(test_random_chains_lockstep),
      cmocka_unit_test(test_random_lockstep),   cmocka_unit_test(test_c_vs_rtl),
      cmocka_unit_test(test_wave),              cmocka_unit_test(test_params),
  };
  return cmocka_run_group_tests_name("hw_fr_pcrf", tests, NULL, NULL);
}
