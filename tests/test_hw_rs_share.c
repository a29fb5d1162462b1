/* Unit test of rs_share (register sharing's per-SM state and lock logic): directed cases from
 * the papers (comparators b and c of Fig. 4, the warp-pair lock, the deadlock rule of Fig. 5,
 * held counters, the mode bit, OWF classes, out-of-range indices, reset) in every mode; seeded
 * random stimulus in lockstep (every output and flop compared every cycle) whose lock table
 * and held counters are also checked against the rules read back from the outputs; C mode
 * against RTL mode; waveforms; parameters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/regshare/rs_share.h"
#include "../tb/hw_tb.h"

static int64_t P[HW_MAX_PARAMS];

static void check_ok(int rc, const rf_diag *d) {
  if (rc != 0) fail_msg("%s", d->msg);
}

typedef struct geom {
  unsigned t, w, nl, tw, lw, hw;
} geom;

static geom geom_of(const int64_t *p) {
  geom g;
  g.t = (unsigned)p[rs_share_P_CTA_SLOTS];
  g.w = (unsigned)p[rs_share_P_WARP_SLOTS];
  g.nl = g.w / 2;
  g.tw = hw_clog2(g.t + 1);
  g.lw = hw_clog2(g.w + 1);
  g.hw = hw_clog2(g.nl + 1);
  return g;
}


static int all_zero(const uint32_t *a, size_t words) {
  for (size_t i = 0; i < words; i++)
    if (a[i]) return 0;
  return 1;
}
#define ALL_ZERO(arr) all_zero((arr), sizeof(arr) / sizeof(arr)[0])

static unsigned port(const char *name) {
  int i = hw_tb_port(&rs_share_desc, name);
  if (i < 0) fail_msg("no port %s", name);
  return (unsigned)i;
}

/* The unit masks its inputs to their widths; the rule check below must see the same values. */
static void mask_inputs(const hw_unit *u, rs_share_in *in) {
  for (unsigned i = 0; i < rs_share_desc.nports; i++) {
    const hw_port_desc *p = &rs_share_desc.ports[i];
    unsigned w = hw_unit_width(u, i);
    if (p->dir == HW_DIR_IN && !p->words && w < 64)
      hw_field_set(p, in, hw_field_get(p, in) & (((uint64_t)1 << w) - 1));
  }
}

static uint64_t lock_of(const geom *g, const rs_share_out *o, unsigned l) {
  return hw_tb_bits(o->lock_o, l * g->lw, g->lw);
}
static uint64_t held_of(const geom *g, const rs_share_out *o, unsigned t) {
  return hw_tb_bits(o->held_o, t * g->hw, g->hw);
}
static uint64_t partner_of(const geom *g, const rs_share_out *o, unsigned t) {
  return hw_tb_bits(o->partner_o, t * g->tw, g->tw);
}
static unsigned prio_of(const rs_share_out *o, unsigned w) {
  return (unsigned)hw_tb_bits(o->prio_o, 2 * w, 2);
}

/* ---- input builders ---- */
static rs_share_in cfg_in(uint64_t mode, uint64_t thr) {
  rs_share_in in = {0};
  in.cfg_i = 1;
  in.cfg_mode_i = mode;
  in.cfg_thr_i = thr;
  return in;
}
static rs_share_in tb_in(uint64_t tb, uint64_t partner) {
  rs_share_in in = {0};
  in.tb_wr_i = 1;
  in.tb_i = tb;
  in.tb_partner_i = partner;
  return in;
}
static rs_share_in warps_in(uint64_t mask, uint64_t sharing, uint64_t owner) {
  rs_share_in in = {0};
  in.warp_wr_i = 1;
  in.warp_mask_i = mask;
  in.warp_sharing_i = sharing;
  in.warp_owner_i = owner;
  return in;
}
static void add_req(rs_share_in *in, uint64_t warp, uint64_t tb, uint64_t lock, uint64_t reg) {
  in->req_i = 1;
  in->req_warp_i = warp;
  in->req_tb_i = tb;
  in->req_lock_i = lock;
  in->req_reg_i = reg;
}
static void add_rel(rs_share_in *in, uint64_t warp, uint64_t tb, uint64_t lock) {
  in->rel_i = 1;
  in->rel_warp_i = warp;
  in->rel_tb_i = tb;
  in->rel_lock_i = lock;
}
static rs_share_in req_in(uint64_t warp, uint64_t tb, uint64_t lock, uint64_t reg) {
  rs_share_in in = {0};
  add_req(&in, warp, tb, lock, reg);
  return in;
}
static rs_share_in rel_in(uint64_t warp, uint64_t tb, uint64_t lock) {
  rs_share_in in = {0};
  add_rel(&in, warp, tb, lock);
  return in;
}

/* one instance and its cycle count */
typedef struct bench {
  hw_unit *u;
  geom g;
  uint64_t c;
  rs_share_out o;
} bench;

static void step(bench *b, const rs_share_in *in) {
  rf_diag d;
  check_ok(rs_share_step(b->u, b->c++, in, &b->o, &d), &d);
}

/* the step changes no output */
static void step_noop(bench *b, const rs_share_in *in) {
  rs_share_out before = b->o;
  step(b, in);
  char why[1400];
  if (!hw_tb_outputs_equal(b->u, &before, &b->o, why, sizeof why))
    fail_msg("cycle %" PRIu64 ": expected no change: %s", b->c - 1, why);
}

#define FREE 63u /* the free code of a 6-bit lock entry (W = 48) */
#define MASK_TB(tb) ((uint64_t)0x3f << (6 * (tb))) /* six warps per CTA slot */
#define WARP(tb, k) (6u * (tb) + (k))

static void expect_reset_values(const bench *b) {
  const geom *g = &b->g;
  assert_int_equal(b->o.mode_o, 0);
  assert_int_equal(b->o.thr_o, 0);
  assert_int_equal(b->o.partner_o[0], 0x88888888u); /* every CTA slot unshared: id T = 8 */
  assert_true(all_zero(b->o.partner_o + 1, sizeof b->o.partner_o / 4 - 1));
  assert_int_equal(b->o.sharing_o, 0);
  assert_int_equal(b->o.owner_o, 0);
  assert_true(ALL_ZERO(b->o.held_o));
  for (unsigned l = 0; l < g->nl; l++) assert_int_equal(lock_of(g, &b->o, l), FREE);
  assert_int_equal(b->o.lock_o[4], 0xffff); /* 144 bits: the rest of word 4 stays clear */
  for (unsigned w = 0; w < g->w; w++) assert_int_equal(prio_of(&b->o, w), 1);
  const rs_share_state *s = hw_unit_state(b->u);
  assert_int_equal(s->partner_q[0], 0x88888888u);
  assert_int_equal(s->lock_q[0], 0xffffffffu);
  assert_int_equal(s->lock_q[4], 0xffff);
  assert_true(ALL_ZERO(s->held_q));
  assert_int_equal(s->thr_q, 0);
}

/* CTA slots 2 (TB i, owner) and 3 (TB j) share registers: warp k of one and warp k of the
 * other form pair k, guarded by lock entry k. Slot 0 runs unshared. thr = 4: Rw = 40 registers
 * per thread, t = 0.1. */
static void directed(hw_mode mode) {
  rf_diag d;
  bench b = {0};
  b.g = geom_of(P);
  const geom *g = &b.g;
  b.u = rs_share_new(NULL, mode, P, NULL, &d);
  if (!b.u) fail_msg("%s", d.msg);
  b.c = 1;
  check_ok(rs_share_reset(b.u, 0, &b.o, &d), &d);
  expect_reset_values(&b);

  rs_share_in in = tb_in(2, 3);
  step(&b, &in);
  in = tb_in(3, 2);
  step(&b, &in);
  assert_int_equal(partner_of(g, &b.o, 2), 3);
  assert_int_equal(partner_of(g, &b.o, 3), 2);
  in = warps_in(MASK_TB(2), 1, 1);
  step(&b, &in);
  in = warps_in(MASK_TB(3), 1, 0);
  step(&b, &in);
  in = warps_in(MASK_TB(0), 0, 0);
  step(&b, &in);
  assert_int_equal(b.o.sharing_o, MASK_TB(2) | MASK_TB(3));
  assert_int_equal(b.o.owner_o, MASK_TB(2));
  /* OWF classes: owner 0, unshared 1, non-owner 2 */
  assert_int_equal(prio_of(&b.o, WARP(2, 0)), 0);
  assert_int_equal(prio_of(&b.o, WARP(3, 5)), 2);
  assert_int_equal(prio_of(&b.o, WARP(0, 1)), 1);
  assert_int_equal(prio_of(&b.o, 47), 1);

  /* sharing mode off (reset): a request every other rule admits is refused */
  in = req_in(WARP(2, 0), 2, 0, 200);
  step_noop(&b, &in);
  in = cfg_in(1, 4);
  step(&b, &in);
  assert_int_equal(b.o.mode_o, 1);
  assert_int_equal(b.o.thr_o, 4);

  /* comparator b: a warp of an unshared TB never takes a lock */
  in = req_in(WARP(0, 0), 0, 10, 200);
  step_noop(&b, &in);
  /* comparator c: registers below thr are the warp's own; register thr is the first shared */
  in = req_in(WARP(2, 0), 2, 0, 3);
  step_noop(&b, &in);
  in = req_in(WARP(2, 0), 2, 0, 4);
  step(&b, &in);
  assert_int_equal(lock_of(g, &b.o, 0), WARP(2, 0));
  assert_int_equal(held_of(g, &b.o, 2), 1);
  /* the holder asks again: nothing changes, the count stays 1 */
  in = req_in(WARP(2, 0), 2, 0, 255);
  step_noop(&b, &in);
  /* the pair's other warp waits; so does any other warp naming a taken entry (here one of
   * TB i, whose partner holds nothing: only the entry refuses) */
  in = req_in(WARP(3, 0), 3, 0, 200);
  step_noop(&b, &in);
  in = req_in(WARP(2, 1), 2, 0, 200);
  step_noop(&b, &in);
  /* release and request in one cycle: the request sees the entry before the edge, held */
  in = rel_in(WARP(2, 0), 2, 0);
  add_req(&in, WARP(3, 0), 3, 0, 200);
  step(&b, &in);
  assert_int_equal(lock_of(g, &b.o, 0), FREE);
  assert_true(ALL_ZERO(b.o.held_o));
  /* after the holder's release the other warp of the pair gets it */
  in = req_in(WARP(3, 0), 3, 0, 200);
  step(&b, &in);
  assert_int_equal(lock_of(g, &b.o, 0), WARP(3, 0));
  assert_int_equal(held_of(g, &b.o, 3), 1);

  /* Fig. 5: a warp of TB j holds a lock, so no warp of TB i may take one, even a free entry
   * of another pair; TB j's warps still may */
  in = req_in(WARP(2, 1), 2, 1, 200);
  step_noop(&b, &in);
  in = req_in(WARP(3, 1), 3, 1, 200);
  step(&b, &in);
  assert_int_equal(lock_of(g, &b.o, 1), WARP(3, 1));
  assert_int_equal(held_of(g, &b.o, 3), 2);
  in = req_in(WARP(2, 2), 2, 2, 200);
  step_noop(&b, &in);
  in = rel_in(WARP(3, 0), 3, 0);
  step(&b, &in);
  assert_int_equal(lock_of(g, &b.o, 0), FREE);
  assert_int_equal(held_of(g, &b.o, 3), 1);
  in = req_in(WARP(2, 2), 2, 2, 200); /* one holder of TB j left: still refused */
  step_noop(&b, &in);
  in = rel_in(WARP(3, 2), 3, 1); /* a warp that does not hold entry 1 finishes: nothing */
  step_noop(&b, &in);
  in = rel_in(WARP(3, 1), 3, 1);
  step(&b, &in);
  assert_int_equal(held_of(g, &b.o, 3), 0);
  in = req_in(WARP(2, 2), 2, 2, 200); /* all of TB j's holders finished: granted */
  step(&b, &in);
  assert_int_equal(lock_of(g, &b.o, 2), WARP(2, 2));
  assert_int_equal(held_of(g, &b.o, 2), 1);
  in = req_in(WARP(3, 3), 3, 3, 200); /* and now TB j waits */
  step_noop(&b, &in);

  /* held counters count each grant and each release of their TB */
  for (unsigned k = 3; k <= 5; k++) {
    in = req_in(WARP(2, k), 2, k, 100);
    step(&b, &in);
    assert_int_equal(held_of(g, &b.o, 2), k - 1);
  }
  in = req_in(WARP(2, 0), 2, 0, 100); /* a grant and a release of one TB in one cycle */
  add_rel(&in, WARP(2, 2), 2, 2);
  step(&b, &in);
  assert_int_equal(held_of(g, &b.o, 2), 4);
  assert_int_equal(lock_of(g, &b.o, 0), WARP(2, 0));
  assert_int_equal(lock_of(g, &b.o, 2), FREE);

  /* a TB whose partner field is >= T is unshared for the deadlock rule; ids are stored as
   * given. Slot 4's warps share (the rule is all the unit checks). */
  in = tb_in(4, 15);
  step(&b, &in);
  assert_int_equal(partner_of(g, &b.o, 4), 15);
  in = warps_in(MASK_TB(4), 1, 1);
  step(&b, &in);
  /* a grant of slot 4 and a release of slot 2 in one cycle */
  in = req_in(WARP(4, 0), 4, 6, 100);
  add_rel(&in, WARP(2, 5), 2, 5);
  step(&b, &in);
  assert_int_equal(lock_of(g, &b.o, 6), WARP(4, 0));
  assert_int_equal(held_of(g, &b.o, 4), 1);
  assert_int_equal(held_of(g, &b.o, 2), 3);
  static const unsigned left[] = {0, 3, 4}; /* TB i's holders */
  for (unsigned k = 0; k < 3; k++) {
    in = rel_in(WARP(2, left[k]), 2, left[k]);
    step(&b, &in);
    assert_int_equal(lock_of(g, &b.o, left[k]), FREE);
  }
  assert_int_equal(held_of(g, &b.o, 2), 0);

  /* counters saturate: releases booked to slot 7 (holding none) stay at 0, grants booked to
   * slot 6 stop at 31 */
  in = tb_in(6, 7);
  step(&b, &in);
  in = warps_in(MASK_TB(6), 1, 1);
  step(&b, &in);
  for (unsigned n = 1; n <= 35; n++) {
    in = req_in(WARP(6, 0), 6, 7, 100);
    step(&b, &in);
    assert_int_equal(lock_of(g, &b.o, 7), WARP(6, 0));
    assert_int_equal(held_of(g, &b.o, 6), n < 31 ? n : 31);
    in = rel_in(WARP(6, 0), 7, 7);
    step(&b, &in);
    assert_int_equal(lock_of(g, &b.o, 7), FREE);
    assert_int_equal(held_of(g, &b.o, 7), 0);
  }
  for (unsigned n = 31; n > 0; n--) { /* bring it back: take with slot 7, release with 6 */
    in = req_in(WARP(6, 0), 7, 7, 100);
    step(&b, &in);
    in = rel_in(WARP(6, 0), 6, 7);
    step(&b, &in);
  }
  assert_int_equal(held_of(g, &b.o, 6), 0);
  assert_int_equal(held_of(g, &b.o, 7), 31); /* slot 7 took 31 grants, its releases went to 6 */

  /* mode 0 blocks every grant; releases still free their entries */
  in = cfg_in(0, 4);
  step(&b, &in);
  in = req_in(WARP(4, 1), 4, 8, 200);
  step_noop(&b, &in);
  in = req_in(WARP(2, 0), 2, 0, 200);
  step_noop(&b, &in);
  in = rel_in(WARP(4, 0), 4, 6);
  step(&b, &in);
  assert_int_equal(lock_of(g, &b.o, 6), FREE);
  assert_int_equal(held_of(g, &b.o, 4), 0);
  in = cfg_in(1, 4);
  step(&b, &in);
  in = req_in(WARP(4, 1), 4, 8, 200);
  step(&b, &in);
  assert_int_equal(lock_of(g, &b.o, 8), WARP(4, 1));

  /* ownership transfer: TB i finished, TB j becomes the owner, a new non-owner TB takes
   * slot 2; an unshared warp is class 1 whatever its owner bit */
  in = warps_in(MASK_TB(3), 1, 1);
  step(&b, &in);
  in = warps_in(MASK_TB(2), 1, 0);
  step(&b, &in);
  in = warps_in(MASK_TB(0), 0, 1);
  step(&b, &in);
  for (unsigned k = 0; k < 6; k++) {
    assert_int_equal(prio_of(&b.o, WARP(3, k)), 0);
    assert_int_equal(prio_of(&b.o, WARP(2, k)), 2);
    assert_int_equal(prio_of(&b.o, WARP(0, k)), 1);
  }
  in = warps_in(0, 1, 1); /* an empty mask writes nothing */
  step_noop(&b, &in);

  /* out-of-range indices are no-ops: warp >= 48, lock >= 24; warp 63 is also the free code,
   * so a release naming it must not match a free entry (held of slot 3 would drop) */
  in = req_in(WARP(3, 0), 3, 0, 200);
  step(&b, &in);
  assert_int_equal(held_of(g, &b.o, 3), 1);
  in = req_in(50, 3, 9, 200);
  step_noop(&b, &in);
  in = req_in(WARP(3, 1), 3, 24, 200);
  step_noop(&b, &in);
  in = req_in(WARP(3, 1), 3, 31, 200);
  step_noop(&b, &in);
  in = rel_in(63, 3, 10);
  step_noop(&b, &in);
  in = rel_in(WARP(3, 0), 3, 24);
  step_noop(&b, &in);
  in = rel_in(WARP(3, 0), 3, 0);
  step(&b, &in);
  assert_int_equal(held_of(g, &b.o, 3), 0);

  /* reset brings everything back */
  check_ok(rs_share_reset(b.u, b.c++, &b.o, &d), &d);
  expect_reset_values(&b);
  hw_unit_free(b.u);
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

/* Random traffic shaped like an SM's so that locks are really taken and given back: mostly
 * sharing mode with a small thr, partners mostly paired (slot s with s + T/2), warp slot w in
 * CTA slot w / (W/T), pair lock w mod NL (warp k of slot s and of s + T/2), indices mostly in
 * range, and releases mostly aimed at an entry's holder (read from the unit's state). */
static void gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  rs_share_in *in = vin;
  geom g = geom_of(hw_unit_params(u));
  unsigned wpt = g.w / g.t;
  const rs_share_state *s = hw_unit_state(u);
  hw_tb_random_inputs(u, in, r);
  in->cfg_i = hw_rng_below(r, 500) == 0;
  in->cfg_mode_i = hw_rng_below(r, 8) != 0;
  if (hw_rng_below(r, 4)) in->cfg_thr_i = hw_rng_below(r, 16);
  in->tb_wr_i = hw_rng_below(r, 40) == 0;
  if (hw_rng_below(r, 4)) in->tb_partner_i = (in->tb_i + g.t / 2) % g.t;
  in->warp_wr_i = hw_rng_below(r, 40) == 0;
  if (hw_rng_below(r, 2))
    in->warp_mask_i = (((uint64_t)1 << wpt) - 1) << (wpt * hw_rng_below(r, g.t));
  in->warp_sharing_i = hw_rng_below(r, 4) != 0;
  in->req_i = hw_rng_below(r, 4) != 0;
  if (hw_rng_below(r, 16)) in->req_warp_i = hw_rng_below(r, g.w);
  if (hw_rng_below(r, 8)) in->req_tb_i = in->req_warp_i / wpt;
  if (hw_rng_below(r, 16)) in->req_lock_i = in->req_warp_i % g.nl;
  in->rel_i = hw_rng_below(r, 2);
  if (hw_rng_below(r, 4)) {
    unsigned l = (unsigned)hw_rng_below(r, g.nl);
    uint64_t h = hw_tb_bits(s->lock_q, l * g.lw, g.lw);
    if (h < g.w) {
      in->rel_lock_i = l;
      in->rel_warp_i = h;
      if (hw_rng_below(r, 16)) in->rel_tb_i = h / wpt;
    }
  }
}

/* What the paper's rules say the lock table and held counters become, from the outputs before
 * the edge and the inputs; the same decisions as the unit, written from its outputs alone. */
typedef struct tally {
  uint64_t grants, releases, refused, saturated;
} tally;

static void check_rules(const geom *g, const rs_share_out *a, const rs_share_in *in,
                        const rs_share_out *b, uint64_t c, tally *n) {
  uint64_t hmax = ((uint64_t)1 << g->hw) - 1, fr = ((uint64_t)1 << g->lw) - 1;
  int grant = 0, rel = 0;
  if (in->req_i && in->req_tb_i < g->t && in->req_warp_i < g->w && in->req_lock_i < g->nl) {
    uint64_t p = partner_of(g, a, (unsigned)in->req_tb_i);
    grant = a->mode_o && ((a->sharing_o >> in->req_warp_i) & 1) && in->req_reg_i >= a->thr_o &&
            lock_of(g, a, (unsigned)in->req_lock_i) == fr &&
            (p >= g->t || held_of(g, a, (unsigned)p) == 0);
    n->refused += (uint64_t)!grant;
  }
  if (in->rel_i && in->rel_tb_i < g->t && in->rel_warp_i < g->w && in->rel_lock_i < g->nl)
    rel = lock_of(g, a, (unsigned)in->rel_lock_i) == in->rel_warp_i;
  n->grants += (uint64_t)grant;
  n->releases += (uint64_t)rel;
  for (unsigned l = 0; l < g->nl; l++) {
    uint64_t want = lock_of(g, a, l);
    if (grant && l == in->req_lock_i) want = in->req_warp_i;
    if (rel && l == in->rel_lock_i) want = fr;
    if (lock_of(g, b, l) != want)
      fail_msg("cycle %" PRIu64 ": lock entry %u is 0x%" PRIx64 ", the rules say 0x%" PRIx64, c, l,
               lock_of(g, b, l), want);
  }
  for (unsigned t = 0; t < g->t; t++) {
    int inc = grant && in->req_tb_i == t, dec = rel && in->rel_tb_i == t;
    uint64_t h = held_of(g, a, t), want = h;
    if (inc && !dec) want = h < hmax ? h + 1 : h;
    if (dec && !inc) want = h ? h - 1 : h;
    n->saturated += (uint64_t)((inc && !dec && h == hmax) || (dec && !inc && h == 0));
    if (held_of(g, b, t) != want)
      fail_msg("cycle %" PRIu64 ": held of CTA slot %u is %" PRIu64 ", the rules say %" PRIu64, c,
               t, held_of(g, b, t), want);
  }
}

static void random_lockstep(const int64_t *params, const char *name, uint64_t seed_id) {
  rf_diag d;
  uint64_t seed = hw_tb_seed(name, seed_id);
  hw_rng r = hw_rng_make(seed);
  geom g = geom_of(params);
  hw_unit *u = rs_share_new(NULL, HW_LOCKSTEP, params, NULL, &d);
  if (!u) fail_msg("%s", d.msg);
  rs_share_out a, b;
  check_ok(rs_share_reset(u, 0, &a, &d), &d);
  tally n = {0, 0, 0, 0};
  uint64_t cycles = hw_tb_cycles(200000), busy = 0, taken = 0, fr = ((uint64_t)1 << g.lw) - 1;
  for (uint64_t c = 1; c <= cycles; c++) {
    rs_share_in in;
    memset(&in, 0, sizeof in);
    gen(u, c, &in, &r, NULL);
    mask_inputs(u, &in);
    check_ok(rs_share_step(u, c, &in, &b, &d), &d); /* lockstep: every output and flop */
    check_rules(&g, &a, &in, &b, c, &n);
    for (unsigned l = 0; l < g.nl; l++) {
      busy += lock_of(&g, &b, l) != fr;
      taken += lock_of(&g, &a, l) == fr && lock_of(&g, &b, l) != fr;
    }
    a = b;
  }
  printf("[ RANDOM   ] %" PRIu64 " cycles: %" PRIu64 " grants, %" PRIu64 " releases, %" PRIu64
         " refused requests, %" PRIu64 " saturating counter steps, %.1f entries held on average\n",
         cycles, n.grants, n.releases, n.refused, n.saturated, (double)busy / (double)cycles);
  assert_int_equal(taken, n.grants); /* entries seen going from free to held */
  assert_true(n.grants > cycles / 50);
  assert_true(n.releases > cycles / 50);
  assert_true(n.refused > cycles / 10);
  hw_unit_free(u);
}

static void test_random_lockstep(void **st) {
  (void)st;
  random_lockstep(P, "rs_share random lockstep", 1);
}

/* A 32-CTA-slot SM (titanx, gtx980, titanv: T = 32, W = 64): partner and held are 192-bit
 * ports, lock 224 bits; its Verilated variant (rs_share.variants) runs beside the default. */
static void set_t32(int64_t *p) {
  rf_diag d;
  hw_params_default(&rs_share_desc, p);
  check_ok(hw_param_set(&rs_share_desc, p, "CTA_SLOTS", 32, &d), &d);
  check_ok(hw_param_set(&rs_share_desc, p, "WARP_SLOTS", 64, &d), &d);
}

static void test_random_lockstep_t32(void **st) {
  (void)st;
  int64_t p[HW_MAX_PARAMS];
  set_t32(p);
  random_lockstep(p, "rs_share random lockstep T=32 W=64", 3);
}

/* The wide ports of the 32-slot variant, directed: partner 32 x 6 bits reset to the unshared id
 * 32 in every field (straddling words), a pairing of slots 30 and 31 read back from bits
 * 180..191, a grant counted in slot 31's held field (bits 186..191). */
static void test_wide_ports_t32(void **st) {
  (void)st;
  rf_diag d;
  int64_t p[HW_MAX_PARAMS];
  set_t32(p);
  for (int m = HW_C; m <= HW_LOCKSTEP; m++) {
    bench b = {0};
    b.g = geom_of(p);
    const geom *g = &b.g;
    b.u = rs_share_new("sm0.rs_share", (hw_mode)m, p, NULL, &d);
    if (!b.u) fail_msg("%s", d.msg);
    b.c = 1;
    check_ok(rs_share_reset(b.u, 0, &b.o, &d), &d);
    assert_int_equal(hw_unit_width(b.u, port("partner_o")), 192);
    assert_int_equal(hw_unit_width(b.u, port("held_o")), 192);
    for (unsigned t = 0; t < 32; t++) assert_int_equal(partner_of(g, &b.o, t), 32);
    rs_share_in in = tb_in(30, 31);
    step(&b, &in);
    in = tb_in(31, 30);
    step(&b, &in);
    assert_int_equal(partner_of(g, &b.o, 30), 31);
    assert_int_equal(partner_of(g, &b.o, 31), 30);
    assert_int_equal(hw_tb_bits(b.o.partner_o, 180, 12), 30u << 6 | 31u);
    in = cfg_in(1, 0);
    step(&b, &in);
    in = warps_in((uint64_t)0x3 << 62, 1, 0);
    step(&b, &in);
    in = req_in(63, 31, 31, 0);
    step(&b, &in);
    assert_int_equal(held_of(g, &b.o, 31), 1);
    assert_int_equal(hw_tb_bits(b.o.held_o, 186, 6), 1);
    in = req_in(62, 30, 30, 0); /* slot 30's partner 31 holds a lock: the deadlock rule */
    step_noop(&b, &in);
    hw_unit_free(b.u);
  }
}

static void test_c_vs_rtl(void **st) {
  (void)st;
  rf_diag d;
  uint64_t seed = hw_tb_seed("rs_share C vs RTL", 2);
  check_ok(hw_tb_c_vs_rtl(&rs_share_desc, P, hw_tb_cycles(100000), seed, gen, NULL, &d), &d);
  int64_t p[HW_MAX_PARAMS];
  set_t32(p);
  seed = hw_tb_seed("rs_share C vs RTL T=32 W=64", 4);
  check_ok(hw_tb_c_vs_rtl(&rs_share_desc, p, hw_tb_cycles(50000), seed, gen, NULL, &d), &d);
}

/* Lockstep with a waveform: the C-written FST, its .gtkw and the Verilated model's FST exist
 * and are non-empty. */
static void test_wave(void **st) {
  (void)st;
  rf_diag d;
  if (hw_tb_wave_run(&rs_share_desc, P, gen, &d) < 0) fail_msg("%s", d.msg);
}

/* Other parameters in C mode: T = 6 (a 3-bit slot index reaches 6 and 7, out of range; the
 * unshared id is 6), W = 40 (NL = 20: lock indices 20..31 out of range); W = 64 (7-bit lock
 * entries, free code 127, warp 63 a real slot). The linked RTL, Verilated with the
 * descriptor's values, is refused with a message that says how to rebuild. */
static void test_params(void **st) {
  (void)st;
  rf_diag d;
  int64_t p[HW_MAX_PARAMS];
  hw_params_default(&rs_share_desc, p);
  check_ok(hw_param_set(&rs_share_desc, p, "CTA_SLOTS", 6, &d), &d);
  check_ok(hw_param_set(&rs_share_desc, p, "WARP_SLOTS", 40, &d), &d);
  bench b = {0};
  b.g = geom_of(p);
  const geom *g = &b.g;
  b.u = rs_share_new("sm1.rs_share", HW_C, p, NULL, &d);
  if (!b.u) fail_msg("%s", d.msg);
  b.c = 1;
  check_ok(rs_share_reset(b.u, 0, &b.o, &d), &d);
  assert_int_equal(hw_unit_width(b.u, port("tb_partner_i")), 3);
  assert_int_equal(hw_unit_width(b.u, port("partner_o")), 18); /* 6 x 3 */
  assert_int_equal(hw_unit_width(b.u, port("lock_o")), 120);   /* 20 x 6 */
  assert_int_equal(hw_unit_width(b.u, port("held_o")), 30);    /* 6 x clog2(21) */
  for (unsigned t = 0; t < 6; t++) assert_int_equal(partner_of(g, &b.o, t), 6);
  rs_share_in in = tb_in(7, 1);
  step_noop(&b, &in);
  in = tb_in(1, 0);
  step(&b, &in);
  in = tb_in(0, 1);
  step(&b, &in);
  in = cfg_in(1, 2);
  step(&b, &in);
  in = warps_in(0xffffffffffULL, 1, 0);
  step(&b, &in);
  in = req_in(3, 6, 3, 9); /* slot 6 */
  step_noop(&b, &in);
  in = req_in(3, 0, 20, 9); /* lock 20 */
  step_noop(&b, &in);
  in = req_in(40, 0, 3, 9); /* warp 40 */
  step_noop(&b, &in);
  in = req_in(3, 0, 19, 9);
  step(&b, &in);
  assert_int_equal(lock_of(g, &b.o, 19), 3);
  assert_int_equal(held_of(g, &b.o, 0), 1);
  in = req_in(23, 1, 18, 9); /* slot 1's partner 0 holds a lock */
  step_noop(&b, &in);
  in = rel_in(3, 7, 19); /* slot 7 */
  step_noop(&b, &in);
  in = rel_in(3, 0, 19);
  step(&b, &in);
  assert_int_equal(lock_of(g, &b.o, 19), 63);
  assert_true(ALL_ZERO(b.o.held_o));
  hw_unit_free(b.u);

  hw_params_default(&rs_share_desc, p);
  check_ok(hw_param_set(&rs_share_desc, p, "WARP_SLOTS", 64, &d), &d);
  b.g = geom_of(p);
  b.u = rs_share_new("sm2.rs_share", HW_C, p, NULL, &d);
  if (!b.u) fail_msg("%s", d.msg);
  b.c = 1;
  check_ok(rs_share_reset(b.u, 0, &b.o, &d), &d);
  for (unsigned l = 0; l < 32; l++) assert_int_equal(lock_of(g, &b.o, l), 127);
  assert_int_equal(b.o.lock_o[6], 0xffffffffu); /* 224 bits: words 0..6 all ones */
  assert_int_equal(b.o.lock_o[7], 0);
  in = cfg_in(1, 0);
  step(&b, &in);
  in = warps_in(~(uint64_t)0, 1, 0);
  step(&b, &in);
  assert_int_equal(prio_of(&b.o, 63), 2);
  in = req_in(63, 7, 31, 0);
  step(&b, &in);
  assert_int_equal(lock_of(g, &b.o, 31), 63);
  in = rel_in(63, 7, 31);
  step(&b, &in);
  assert_int_equal(lock_of(g, &b.o, 31), 127);
  hw_unit_free(b.u);

  b.u = rs_share_new("sm2.rs_share", HW_RTL, p, NULL, &d);
  assert_null(b.u);
  assert_non_null(strstr(d.msg, "WARP_SLOTS=48"));
  assert_non_null(strstr(d.msg, "HW_PARAMS_rs_share"));
}

int main(void) {
  hw_params_default(&rs_share_desc, P);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_c),      cmocka_unit_test(test_directed_rtl),
      cmocka_unit_test(test_directed_lockstep), cmocka_unit_test(test_random_lockstep),
      cmocka_unit_test(test_random_lockstep_t32), cmocka_unit_test(test_wide_ports_t32),
      cmocka_unit_test(test_c_vs_rtl),        cmocka_unit_test(test_wave),
      cmocka_unit_test(test_params),
  };
  return cmocka_run_group_tests_name("hw_rs_share", tests, NULL, NULL);
}
