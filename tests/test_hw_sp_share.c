/* Unit test of sp_share (scratchpad sharing, sec. III-B, Fig. 4, sec. V): the paper's rules as
 * directed cases in every mode (reset values, unshared TBs and private offsets never lock, the
 * first toucher owns the shared region, its partner is refused until the owner finishes, a
 * release by a non-holder does nothing, mode 0 blocks), out-of-range indices, seeded random
 * stimulus in lockstep (every output and flop compared every cycle; biased so that grants and
 * releases happen, and checked that they did), C mode against RTL mode, waveforms, parameters.
 * The test runs with the parameters the linked RTL was Verilated with (the descriptor's unless
 * built with make HW_PARAMS_sp_share=...); the directed cases need T >= 6. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/spshare/sp_share.h"
#include "../tb/hw_tb.h"

static int64_t P[HW_MAX_PARAMS];

static void check_ok(int rc, const rf_diag *d) {
  if (rc != 0) fail_msg("%s", d->msg);
}

static unsigned slots(const int64_t *p) { return (unsigned)p[sp_share_P_T]; }
static unsigned tw(const int64_t *p) { return hw_clog2(p[sp_share_P_T] + 1); }
static unsigned ti(const int64_t *p) { return hw_clog2(p[sp_share_P_T]); }


static int port_index(const char *name) {
  int i = hw_tb_port(&sp_share_desc, name);
  if (i < 0) fail_msg("no port %s", name);
  return i;
}

/* Partner of CTA slot i and holder of lock l, from the packed outputs. */
static uint64_t partner(const sp_share_out *o, const int64_t *p, unsigned i) {
  return hw_tb_bits(o->partner_o, i * tw(p), tw(p));
}
static uint64_t holder(const sp_share_out *o, const int64_t *p, unsigned l) {
  return hw_tb_bits(o->lock_o, l * ti(p), ti(p));
}

static sp_share_in cfg_in(uint64_t mode, uint64_t thr) {
  sp_share_in in = {0};
  in.cfg_i = 1;
  in.cfg_mode_i = mode;
  in.cfg_thr_i = thr;
  return in;
}
static sp_share_in tb_in(uint64_t tb, uint64_t partner_slot) {
  sp_share_in in = {0};
  in.tb_wr_i = 1;
  in.tb_i = tb;
  in.tb_partner_i = partner_slot;
  return in;
}
static sp_share_in req_in(uint64_t tb, uint64_t lock, uint64_t addr) {
  sp_share_in in = {0};
  in.req_i = 1;
  in.req_tb_i = tb;
  in.req_lock_i = lock;
  in.req_addr_i = addr;
  return in;
}
static sp_share_in rel_in(uint64_t tb, uint64_t lock) {
  sp_share_in in = {0};
  in.rel_i = 1;
  in.rel_tb_i = tb;
  in.rel_lock_i = lock;
  return in;
}

typedef struct run {
  hw_unit *u;
  uint64_t c;
  sp_share_out o;
} run;

static void step(run *r, sp_share_in in) {
  rf_diag d;
  check_ok(sp_share_step(r->u, r->c++, &in, &r->o, &d), &d);
}

/* Fig. 2(c) with the paper's numbers in bytes: Rtb = 10 KB, t = 0.5, so each TB of a pair has
 * 5 KB private and the pair 5 KB shared. Slots 0 and 1 run unshared TBs; slots 2-3 and 4-5 are
 * pairs using locks 1 and 2. */
static void directed(hw_mode mode) {
  rf_diag d;
  run r = {NULL, 1, {0}};
  r.u = sp_share_new(NULL, mode, P, NULL, &d);
  if (!r.u) fail_msg("%s", d.msg);
  const unsigned t = slots(P);
  const uint64_t thr = 5 * 1024, w = (uint64_t)P[sp_share_P_W];
  const uint64_t wmask = w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
  assert_true(t >= 6);
  /* reset: not sharing, every slot unshared (partner T), no owner warps, no lock held */
  check_ok(sp_share_reset(r.u, 0, &r.o, &d), &d);
  assert_int_equal(r.o.mode_o, 0);
  assert_int_equal(r.o.thr_o, 0);
  for (unsigned i = 0; i < t; i++) assert_int_equal(partner(&r.o, P, i), t);
  assert_int_equal(r.o.owner_o, 0);
  for (unsigned l = 0; l < t / 2; l++) assert_int_equal(holder(&r.o, P, l), 0);
  assert_int_equal(r.o.lvalid_o, 0);
  /* launch: 0 and 1 unshared (1 with a partner code above T, also "none"), 2-3 and 4-5 pairs */
  step(&r, tb_in(0, t));
  step(&r, tb_in(1, ((uint64_t)1 << tw(P)) - 1));
  step(&r, tb_in(2, 3));
  step(&r, tb_in(3, 2));
  step(&r, tb_in(4, 5));
  step(&r, tb_in(5, 4));
  assert_int_equal(partner(&r.o, P, 2), 3);
  assert_int_equal(partner(&r.o, P, 5), 4);
  assert_int_equal(partner(&r.o, P, 0), t);
  /* sharing mode off: a shared TB at a shared offset still takes no lock */
  step(&r, req_in(2, 1, thr + 100));
  assert_int_equal(r.o.lvalid_o, 0);
  step(&r, cfg_in(1, thr));
  assert_int_equal(r.o.mode_o, 1);
  assert_int_equal(r.o.thr_o, thr);
  /* unshared TBs never lock, at any offset */
  step(&r, req_in(0, 0, thr + 100));
  step(&r, req_in(1, 0, 2 * thr));
  assert_int_equal(r.o.lvalid_o, 0);
  /* private offsets (below t * Rtb) never lock */
  step(&r, req_in(2, 1, 0));
  step(&r, req_in(3, 1, thr - 1));
  assert_int_equal(r.o.lvalid_o, 0);
  /* the first toucher of the shared region owns it: TB 3 at the first shared byte */
  step(&r, req_in(3, 1, thr));
  assert_int_equal(r.o.lvalid_o, 1u << 1);
  assert_int_equal(holder(&r.o, P, 1), 3);
  /* its partner is refused (the lock stays TB 3's) and retries; TB 3 itself keeps the lock */
  for (unsigned k = 0; k < 3; k++) {
    step(&r, req_in(2, 1, thr + 40 * k));
    assert_int_equal(r.o.lvalid_o, 1u << 1);
    assert_int_equal(holder(&r.o, P, 1), 3);
  }
  step(&r, req_in(3, 1, 2 * thr - 1));
  assert_int_equal(holder(&r.o, P, 1), 3);
  /* a release by a TB that does not hold the lock does nothing, nor one of a free lock */
  step(&r, rel_in(2, 1));
  step(&r, rel_in(3, 2));
  step(&r, rel_in(3, 0));
  assert_int_equal(r.o.lvalid_o, 1u << 1);
  assert_int_equal(holder(&r.o, P, 1), 3);
  /* the owner finishes: the lock is free (its value may keep the old holder) */
  step(&r, rel_in(3, 1));
  assert_int_equal(r.o.lvalid_o, 0);
  assert_int_equal(holder(&r.o, P, 1), 3);
  /* the waiting partner's retry now takes it */
  step(&r, req_in(2, 1, thr + 7));
  assert_int_equal(r.o.lvalid_o, 1u << 1);
  assert_int_equal(holder(&r.o, P, 1), 2);
  /* a grant and a release of different locks in one cycle both happen */
  sp_share_in in = req_in(4, 2, thr);
  in.rel_i = 1;
  in.rel_tb_i = 2;
  in.rel_lock_i = 1;
  step(&r, in);
  assert_int_equal(r.o.lvalid_o, 1u << 2);
  assert_int_equal(holder(&r.o, P, 2), 4);
  /* a release and the partner's request on the same lock: the request saw it held (the flops
   * before the edge) and is refused; its retry in the next cycle is granted */
  in = req_in(5, 2, thr);
  in.rel_i = 1;
  in.rel_tb_i = 4;
  in.rel_lock_i = 2;
  step(&r, in);
  assert_int_equal(r.o.lvalid_o, 0);
  step(&r, req_in(5, 2, thr));
  assert_int_equal(r.o.lvalid_o, 1u << 2);
  assert_int_equal(holder(&r.o, P, 2), 5);
  /* a kernel start in mode 0 blocks new grants and leaves held locks alone */
  step(&r, cfg_in(0, thr));
  step(&r, req_in(2, 1, thr));
  assert_int_equal(r.o.lvalid_o, 1u << 2);
  step(&r, cfg_in(1, 0));
  assert_int_equal(r.o.thr_o, 0);
  /* with no private part every offset of a shared TB is shared */
  step(&r, req_in(3, 1, 0));
  assert_int_equal(r.o.lvalid_o, (1u << 1) | (1u << 2));
  assert_int_equal(holder(&r.o, P, 1), 3);
  /* a slot relaunched unshared stops locking */
  step(&r, rel_in(3, 1));
  step(&r, tb_in(3, t));
  step(&r, req_in(3, 1, thr));
  assert_int_equal(r.o.lvalid_o, 1u << 2);
  /* owner warp bits: set, clear under a mask, the top warp, bits beyond W dropped */
  in = (sp_share_in){0};
  in.warp_wr_i = 1;
  in.warp_owner_i = 1;
  in.warp_mask_i = 0xff00;
  step(&r, in);
  assert_int_equal(r.o.owner_o, 0xff00);
  in.warp_owner_i = 0;
  in.warp_mask_i = 0x0f00;
  step(&r, in);
  assert_int_equal(r.o.owner_o, 0xf000);
  in.warp_owner_i = 1;
  in.warp_mask_i = ~(uint64_t)0 << (w - 1);
  step(&r, in);
  assert_int_equal(r.o.owner_o, (0xf000 | ((uint64_t)1 << (w - 1))) & wmask);
  /* index bits beyond a port's width are dropped: slot 2^TI + 1 is slot 1 */
  step(&r, tb_in(((uint64_t)1 << ti(P)) + 1, 0));
  assert_int_equal(partner(&r.o, P, 1), 0);
  hw_unit_free(r.u);
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

/* With T = 6 the 3-bit slot ports can name slots 6 and 7 and the 2-bit lock ports lock 3
 * (T/2 = 3 locks): each such request, release or partner write is a no-op. The C model runs
 * this always; the RTL modes when the linked model was Verilated with T=6. */
static void out_of_range(hw_mode mode, const int64_t *p) {
  rf_diag d;
  run r = {NULL, 1, {0}};
  r.u = sp_share_new(NULL, mode, p, NULL, &d);
  if (!r.u) fail_msg("%s", d.msg);
  step(&r, cfg_in(1, 0));
  for (unsigned i = 0; i < 6; i++) step(&r, tb_in(i, i ^ 1));
  sp_share_out before = r.o;
  step(&r, tb_in(6, 0));
  step(&r, tb_in(7, 1));
  assert_memory_equal(r.o.partner_o, before.partner_o, sizeof before.partner_o);
  step(&r, req_in(0, 3, 100)); /* lock 3 does not exist */
  step(&r, req_in(6, 0, 100)); /* slot 6 does not exist */
  step(&r, req_in(7, 1, 100));
  assert_int_equal(r.o.lvalid_o, 0);
  step(&r, req_in(5, 2, 100));
  assert_int_equal(r.o.lvalid_o, 1u << 2);
  step(&r, rel_in(5, 3));
  step(&r, rel_in(6, 2));
  assert_int_equal(r.o.lvalid_o, 1u << 2);
  step(&r, rel_in(5, 2));
  assert_int_equal(r.o.lvalid_o, 0);
  hw_unit_free(r.u);
}

static void test_out_of_range(void **st) {
  (void)st;
  int64_t p[HW_MAX_PARAMS];
  memcpy(p, P, sizeof p);
  p[sp_share_P_T] = 6;
  out_of_range(HW_C, p);
  if (P[sp_share_P_T] != 6) {
    printf("[ INFO     ] RTL modes need make HW_PARAMS_sp_share='T=6': C mode only\n");
    return;
  }
  out_of_range(HW_RTL, p);
  out_of_range(HW_LOCKSTEP, p);
}

/* Random traffic: a first kernel in sharing mode with every slot paired, then kernel starts
 * rare and mostly in sharing mode; launches pair slots more often than not; requests every
 * other cycle with offsets around the private size; releases mostly by the lock's holder (read
 * from the flops), so that locks are taken and freed throughout. ctx counts the grants and
 * releases seen in the flops. */
typedef struct traffic {
  uint64_t lvalid, grants, releases;
} traffic;

static void gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *vctx) {
  sp_share_in *in = vin;
  traffic *tr = vctx;
  const int64_t *p = hw_unit_params(u);
  const sp_share_state *s = hw_unit_state(u);
  const unsigned t = slots(p), nl = t / 2;
  const uint64_t smem = (uint64_t)p[sp_share_P_SMEM];
  if (tr) {
    tr->grants += (uint64_t)__builtin_popcountll(s->lvalid_q & ~tr->lvalid);
    tr->releases += (uint64_t)__builtin_popcountll(tr->lvalid & ~s->lvalid_q);
    tr->lvalid = s->lvalid_q;
  }
  hw_tb_random_inputs(u, in, r);
  in->cfg_i = c == 1 || hw_rng_below(r, 300) == 0;
  in->cfg_mode_i = c == 1 || hw_rng_below(r, 8) != 0;
  in->cfg_thr_i = hw_rng_below(r, 4) ? hw_rng_below(r, smem / 2 + 1) : in->cfg_thr_i;
  in->tb_wr_i = hw_rng_below(r, 10) == 0;
  if (hw_rng_below(r, 3)) in->tb_partner_i = hw_rng_below(r, t);
  if (c <= t) { /* the first kernel pairs every slot with its neighbour */
    in->tb_wr_i = 1;
    in->tb_i = c - 1;
    in->tb_partner_i = (c - 1) ^ 1;
  }
  in->warp_wr_i = hw_rng_below(r, 10) == 0;
  in->req_i = hw_rng_below(r, 2);
  in->req_lock_i = hw_rng_below(r, nl);
  if (hw_rng_below(r, 2)) {
    uint64_t a = s->thr_q + hw_rng_below(r, 64);
    in->req_addr_i = a >= 32 ? a - 32 : 0;
  }
  in->rel_i = hw_rng_below(r, 6) == 0;
  in->rel_lock_i = hw_rng_below(r, 4) ? hw_rng_below(r, nl) : in->rel_lock_i;
  /* rel_lock_i may still hold an unmasked random value (the port masks it): read the lock the
   * unit will see (UBSan caught the unmasked shift) */
  uint64_t lock = in->rel_lock_i & (((uint64_t)1 << hw_clog2(nl)) - 1);
  if (hw_rng_below(r, 4) && lock < nl)
    in->rel_tb_i = hw_tb_bits(s->lock_q, (unsigned)lock * ti(p), ti(p));
}

static void random_lockstep(const int64_t *p, const char *name, uint64_t seed_id,
                            uint64_t cycles) {
  rf_diag d;
  traffic tr = {0, 0, 0};
  uint64_t seed = hw_tb_seed(name, seed_id);
  uint64_t n = hw_tb_cycles(cycles);
  if (hw_tb_lockstep(&sp_share_desc, p, n, seed, gen, &tr, NULL, &d) < 0)
    fail_msg("%s", d.msg);
  printf("[ INFO     ] %s: %" PRIu64 " cycles: %" PRIu64 " grants, %" PRIu64 " releases\n", name,
         n, tr.grants, tr.releases);
  assert_true(tr.grants > n / 100);
  assert_true(tr.releases > n / 100);
}

static void test_random_lockstep(void **st) {
  (void)st;
  random_lockstep(P, "sp_share random lockstep", 21, 200000);
}

/* A 32-CTA-slot SM (titanx, gtx980, titanv: T = 32, W = 64, 96 KB): partner is 192 bits and the
 * lock table 16 x 5 = 80, carried by the shim from Verilator's wide type; its Verilated variant
 * (sp_share.variants) is linked beside the default. Directed: the reset partners of all 32
 * slots, a pairing of slots 30 and 31 (bits 180..191) and a grant to slot 31 on lock 15 (bits
 * 75..79). */
static void test_t32(void **st) {
  (void)st;
  rf_diag d;
  int64_t p[HW_MAX_PARAMS];
  hw_params_default(&sp_share_desc, p);
  check_ok(hw_param_set(&sp_share_desc, p, "T", 32, &d), &d);
  check_ok(hw_param_set(&sp_share_desc, p, "W", 64, &d), &d);
  check_ok(hw_param_set(&sp_share_desc, p, "SMEM", 98304, &d), &d);
  for (int m = HW_C; m <= HW_LOCKSTEP; m++) {
    hw_unit *u = sp_share_new("sm0.sp_share", (hw_mode)m, p, NULL, &d);
    if (!u) fail_msg("%s", d.msg);
    sp_share_out o;
    check_ok(sp_share_reset(u, 0, &o, &d), &d);
    assert_int_equal(hw_unit_width(u, (unsigned)port_index("partner_o")), 192);
    for (unsigned i = 0; i < 32; i++) assert_int_equal(partner(&o, p, i), 32);
    sp_share_in in = cfg_in(1, 1000);
    uint64_t c = 1;
    check_ok(sp_share_step(u, c++, &in, &o, &d), &d);
    in = tb_in(30, 31);
    check_ok(sp_share_step(u, c++, &in, &o, &d), &d);
    in = tb_in(31, 30);
    check_ok(sp_share_step(u, c++, &in, &o, &d), &d);
    assert_int_equal(hw_tb_bits(o.partner_o, 180, 12), 30u << 6 | 31u);
    in = req_in(31, 15, 5000);
    check_ok(sp_share_step(u, c++, &in, &o, &d), &d);
    assert_int_equal((o.lvalid_o >> 15) & 1, 1);
    assert_int_equal(hw_tb_bits(o.lock_o, 75, 5), 31);
    hw_unit_free(u);
  }
  random_lockstep(p, "sp_share random lockstep T=32", 23, 50000);
}

static void test_c_vs_rtl(void **st) {
  (void)st;
  rf_diag d;
  traffic tr = {0, 0, 0};
  uint64_t seed = hw_tb_seed("sp_share C vs RTL", 22);
  uint64_t n = hw_tb_cycles(100000);
  check_ok(hw_tb_c_vs_rtl(&sp_share_desc, P, n, seed, gen, &tr, &d), &d);
  printf("[ INFO     ] %" PRIu64 " cycles: %" PRIu64 " grants, %" PRIu64 " releases\n", n,
         tr.grants, tr.releases);
  assert_true(tr.grants > n / 100);
  assert_true(tr.releases > n / 100);
}

/* Lockstep with a waveform: the C-written FST, its .gtkw and the Verilated model's FST exist
 * and are non-empty; the cycle window limits what is written. */
static void test_wave(void **st) {
  (void)st;
  rf_diag d;
  if (hw_tb_wave_run(&sp_share_desc, P, gen, &d) < 0) fail_msg("%s", d.msg);
}

/* Other parameters: the C model follows them (16 KB scratchpad, the paper's Table I: 15-bit
 * offsets); the linked RTL, Verilated with other values, is refused with a message that says
 * how to rebuild; T = 64 (448-bit partner) is the most the descriptor's storage holds, T = 128
 * is refused in every mode. */
static void test_params(void **st) {
  (void)st;
  rf_diag d;
  int64_t p[HW_MAX_PARAMS];
  memcpy(p, P, sizeof p);
  int64_t smem = P[sp_share_P_SMEM] == 16384 ? 49152 : 16384;
  check_ok(hw_param_set(&sp_share_desc, p, "SMEM", smem, &d), &d);
  assert_int_equal(hw_param_set(&sp_share_desc, p, "NOPE", 1, &d), -1);
  hw_unit *u = sp_share_new("sm1.sps", HW_C, p, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  assert_int_equal(hw_unit_width(u, 2), hw_clog2(smem + 1));
  sp_share_in in = cfg_in(1, 0xfffff);
  sp_share_out o;
  check_ok(sp_share_step(u, 1, &in, &o, &d), &d);
  assert_int_equal(o.thr_o, ((uint64_t)1 << hw_clog2(smem + 1)) - 1);
  hw_unit_free(u);
  u = sp_share_new("sm1.sps", HW_RTL, p, NULL, &d);
  assert_null(u);
  char want[64];
  snprintf(want, sizeof want, "SMEM=%" PRId64, P[sp_share_P_SMEM]);
  assert_non_null(strstr(d.msg, want));
  assert_non_null(strstr(d.msg, "HW_PARAMS_sp_share"));
  memcpy(p, P, sizeof p);
  p[sp_share_P_T] = 64;
  u = sp_share_new("sm1.sps", HW_C, p, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  hw_unit_free(u);
  p[sp_share_P_T] = 128;
  assert_null(sp_share_new("sm1.sps", HW_C, p, NULL, &d));
  assert_non_null(strstr(d.msg, "partner_o"));
}

int main(void) {
  /* the linked model's parameters: the descriptor's unless rebuilt with HW_PARAMS_sp_share */
  const hw_rtl_ops *rtl = sp_share_desc.rtl ? sp_share_desc.rtl() : NULL;
  hw_params_default(&sp_share_desc, P);
  if (rtl) memcpy(P, rtl->params, rtl->nparams * sizeof P[0]);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_c),      cmocka_unit_test(test_directed_rtl),
      cmocka_unit_test(test_directed_lockstep), cmocka_unit_test(test_out_of_range),
      cmocka_unit_test(test_random_lockstep), cmocka_unit_test(test_t32),
      cmocka_unit_test(test_c_vs_rtl),
      cmocka_unit_test(test_wave),            cmocka_unit_test(test_params),
  };
  return cmocka_run_group_tests_name("hw_sp_share", tests, NULL, NULL);
}
