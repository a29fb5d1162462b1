/* The policy's driver of FineReg's units (csim/policy/finereg_rmu.c) on its own, in C: the
 * cycles of directed switches against csim/hw/finereg/README.md's count, a swap into a full
 * PCRF, and the status monitor's choice of CTAs. The policy on whole runs, and the units in
 * lockstep with their RTL, are in test_finereg.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "../csim/policy/finereg_rmu.h"

static const uint64_t miss = 100; /* the policy's cycles to load a missed live vector */

static fr_rmu *new_rmu(int pcrf_entries) {
  rf_diag d;
  fr_rmu *r = fr_rmu_new(0, HW_C, NULL, pcrf_entries, &d);
  if (!r) fail_msg("%s", d.msg);
  return r;
}

/* CTA `out`'s first `nwarps` warps to the PCRF with sec. V-E's fit, `in`'s chain back (-1:
 * none), at `now`; the caller gives the warps' PCs and live vectors. */
static fr_rmu_req request(int out, int in, int nwarps, uint64_t now) {
  fr_rmu_req q;
  memset(&q, 0, sizeof q);
  q.out_cta = out;
  q.in_cta = in;
  q.fit_check = 1;
  q.nwarps = nwarps;
  q.now = now;
  q.miss_cycles = miss;
  for (int w = 0; w < nwarps; w++) q.has[w] = 1;
  return q;
}

/* The policy's driver of the units (csim/policy/finereg_rmu.c) on test_hw_fr_switch's two
 * directed switches: the cycles it returns (the policy's switch latency less the 3-cycle data
 * pipeline) are the units' cycles of csim/hw/finereg/README.md's count, plus the off-chip
 * load of each missed vector. */
static void test_rmu_switch_cycles_directed(void **state) {
  (void)state;
  rf_diag d;
  fr_rmu *r = new_rmu(1024);
  fr_rmu_req q = request(1, -1, 4, 10);
  const uint32_t pa[4] = {0x40, 0x48, 0x50, 0x40};
  const uint64_t va[4] = {0x5, 0x8000000000000001ULL, 0x0, 0x5};
  for (int w = 0; w < 4; w++) q.pc[w] = pa[w], q.vec[w] = va[w];
  fr_rmu_res res;
  assert_int_equal(fr_rmu_switch(r, &q, &res), 0);
  assert_int_equal(res.fit, 1);
  assert_int_equal(res.need, 6);
  assert_int_equal(res.moved, 6);
  assert_int_equal(res.misses, 3);
  assert_int_equal(res.free_after, 1024 - 6);
  /* 4 lookups + 3 x (fill, lookup), 4 decoder loads, fit, start + 6 pushes, table write */
  assert_int_equal(res.cycles, (4 + 3 * 2) + 4 + 1 + (1 + 6) + 1 + 3 * miss);
  /* swap: CTA 2 out (14 live), CTA 1's 6 back */
  const uint32_t pb[4] = {0x60, 0x60, 0x48, 0x60};
  const uint64_t vb[4] = {0xf0, 0xf0, 0x8000000000000001ULL, 0xf0};
  q = request(2, 1, 4, 1000);
  for (int w = 0; w < 4; w++) q.pc[w] = pb[w], q.vec[w] = vb[w];
  assert_int_equal(fr_rmu_switch(r, &q, &res), 0);
  assert_int_equal(res.need, 14);
  assert_int_equal(res.moved, 14);
  assert_int_equal(res.restored, 6);
  assert_int_equal(res.misses, 1);
  assert_int_equal(res.free_after, 1024 - 14);
  assert_int_equal(res.cycles, (4 + 2) + 4 + 1 + (1 + 14) + 1 + miss);
  /* a status write goes through fr_status and reads back */
  assert_int_equal(fr_rmu_status(r, 1, 2, 2), 0);
  assert_int_equal(fr_rmu_cycle(r, 2000, &d), 0);
  /* a disagreement stops the run at the next cycle, naming what differs */
  fr_rmu_disagree(r, "free PCRF entries", 10, 11);
  assert_int_equal(fr_rmu_cycle(r, 2001, &d), -1);
  assert_non_null(strstr(d.msg, "free PCRF entries is 10"));
  fr_rmu_free(r);
}

/* A swap into a full PCRF (sec. V-E: "the number of free entries ... adding the ones that
 * would become available if the selected pending CTA moves out"): the walk back frees the
 * entries the chain out takes, one a cycle. The builder's start waits for the first freed
 * entry, and a warp's last index before more warps waits for room like any other push (FD's
 * FineReg run once hung here: the push was refused and the decoder moved on). */
static void test_rmu_swap_into_full_pcrf(void **state) {
  (void)state;
  fr_rmu *r = new_rmu(8);
  fr_rmu_req q = request(1, -1, 2, 10);
  for (int w = 0; w < 2; w++) q.pc[w] = 0x40 + 8 * (uint32_t)w, q.vec[w] = 0xf;
  fr_rmu_res res;
  assert_int_equal(fr_rmu_switch(r, &q, &res), 0);
  assert_int_equal(res.fit, 1);
  assert_int_equal(res.moved, 8);
  assert_int_equal(res.free_after, 0); /* CTA 1's chain fills the PCRF */
  /* CTA 2 out (two warps of 4 live registers), CTA 1's 8 back: 0 free + 8 >= 8 fits */
  q = request(2, 1, 2, 1000);
  for (int w = 0; w < 2; w++) q.pc[w] = 0x80 + 8 * (uint32_t)w, q.vec[w] = 0xf0;
  assert_int_equal(fr_rmu_switch(r, &q, &res), 0);
  assert_int_equal(res.fit, 1);
  assert_int_equal(res.need, 8);
  assert_int_equal(res.moved, 8);
  assert_int_equal(res.restored, 8);
  assert_int_equal(res.free_after, 0);
  /* 2 x (lookup, fill, lookup) + misses, 2 decoder loads, the table read; then the walk's
   * start (the builder's refused: nothing free), the builder's start on the first freed
   * entry and 8 pushes, one a cycle behind the walk; the table write */
  assert_int_equal(res.cycles, 2 * 3 + 2 * miss + 2 + 1 + (1 + 1 + 8) + 1);
  /* and back: CTA 1 (now 0x40-0x48 again, cached) out, CTA 2's chain in */
  q = request(1, 2, 2, 2000);
  for (int w = 0; w < 2; w++) q.pc[w] = 0x40 + 8 * (uint32_t)w, q.vec[w] = 0xf;
  assert_int_equal(fr_rmu_switch(r, &q, &res), 0);
  assert_int_equal(res.moved, 8);
  assert_int_equal(res.restored, 8);
  assert_int_equal(res.misses, 0);
  assert_int_equal(res.free_after, 0);
  fr_rmu_free(r);
}

/* The switch decision's CTAs are fr_status's search outputs through the driver
 * (fr_rmu_select): the lowest CTA id of each class, whatever the order the CTAs arrived in (the
 * policy's former "oldest first" would pick CTA 5, 9 and 11 below). */
static void select_case(hw_mode mode) { /* HW_C here; the driver is mode-blind */
  rf_diag d;
  fr_rmu *r = fr_rmu_new(0, mode, NULL, 1024, &d);
  if (!r) fail_msg("%s", d.msg);
  /* launched (and switched) in this order, two writes a cycle: 5 is older than 2, 9 than 4,
   * 11 than 6 */
  static const int w[][3] = {{5, 2, 2}, {2, 2, 2}, {9, 1, 1}, {4, 1, 1},
                             {11, 1, 2}, {6, 1, 2}, {8, 1, 2}, {3, 2, 2}};
  for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
    assert_int_equal(fr_rmu_status(r, w[i][0], w[i][1], w[i][2]), 0);
  uint64_t t = 1;
  for (int k = 0; k < 3; k++) assert_int_equal(fr_rmu_cycle(r, t++, &d), 0);
  /* one write still queued: the fields lag, no answer */
  uint32_t stall[FR_RMU_CTA_WORDS] = {0}, ready[FR_RMU_CTA_WORDS] = {0};
  stall[0] = 1u << 5 | 1u << 2 | 1u << 11 | 1u << 6 | 1u << 9; /* 9 waits: (1, 1), no move */
  ready[0] = 1u << 4 | 1u << 8 | 1u << 3;                      /* 3 is active: no candidate */
  assert_int_equal(fr_rmu_cycle(r, t++, &d), 0); /* the last write: all applied */
  fr_rmu_sel sel;
  assert_int_equal(fr_rmu_select(r, t, stall, ready, &sel), 0);
  assert_int_equal(sel.stale, 0);
  assert_int_equal(sel.vic, 2);      /* lowest stalled active, not the older 5 */
  assert_int_equal(sel.cand, 8);     /* registers in the ACRF first (sec. V-B), not 4 */
  assert_int_equal(sel.cand_reg, 2);
  assert_int_equal(sel.mov, 6);      /* lowest waiting (1, 2), not the older 11 */
  /* the same cycle again: the unit already took its edge */
  assert_int_equal(fr_rmu_select(r, t, stall, ready, &sel), 0);
  assert_int_equal(sel.stale, 1);
  assert_int_equal(fr_rmu_cycle(r, t++, &d), 0);
  /* no ready CTA with registers in the ACRF: the lowest ready (1, 1), 4 not the older 9 */
  ready[0] = 1u << 9 | 1u << 4;
  assert_int_equal(fr_rmu_select(r, t, stall, ready, &sel), 0);
  assert_int_equal(sel.cand, 4);
  assert_int_equal(sel.cand_reg, 1);
  assert_int_equal(fr_rmu_cycle(r, t++, &d), 0);
  /* the switch of 2 (out, registers stay) and 4 (in) is written; three writes queued (an exit
   * too) leave one for the next cycle: that cycle's decision waits */
  assert_int_equal(fr_rmu_status(r, 2, 1, 2), 0);
  assert_int_equal(fr_rmu_status(r, 4, 2, 2), 0);
  assert_int_equal(fr_rmu_status(r, 5, 0, 0), 0);
  assert_int_equal(fr_rmu_select(r, t, stall, ready, &sel), 0);
  assert_int_equal(sel.stale, 1);
  assert_int_equal(fr_rmu_cycle(r, t++, &d), 0);
  assert_int_equal(fr_rmu_select(r, t, stall, ready, &sel), 0);
  assert_int_equal(sel.stale, 0);
  assert_int_equal(sel.vic, -1);     /* 5 exited, 2 pending */
  assert_int_equal(sel.cand, 9);     /* 4 is active now */
  assert_int_equal(sel.mov, 2);      /* 2 waits with its registers in the ACRF */
  assert_int_equal(fr_rmu_cycle(r, t++, &d), 0);
  fr_rmu_free(r);
}

static void test_status_monitor_choice(void **state) {
  (void)state;
  select_case(HW_C); /* this test links no RTL: test_hw_fr_status and the lockstep runs below
                        compare the unit's C reference and RTL */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rmu_switch_cycles_directed),
      cmocka_unit_test(test_rmu_swap_into_full_pcrf),
      cmocka_unit_test(test_status_monitor_choice),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
