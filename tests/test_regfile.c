/* The banked register file and operand collectors (csim/core/regfile.c, opcoll.c) on hand-built
 * operand sets: bank mapping, conflicts counted exactly, per-bank arbitration order, writes
 * taking bank ports, collector exhaustion stalls, dispatch timing, and RZ never read (end to
 * end through the trace reader and the SM). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/config/config.h"
#include "../csim/core/opcoll.h"
#include "../csim/core/regfile.h"
#include "../csim/gpu/gpu.h"
#include "common/test_util.h"

static rf_banks *banks(int n, int warp_id, int sub_core, int nsched, rf_counters *cnt) {
  memset(cnt, 0, sizeof *cnt);
  rf_diag d;
  rf_banks *b = rf_banks_create(n, warp_id, sub_core, nsched, 64, 16, cnt, &d);
  if (!b) fail_msg("%s", d.msg);
  return b;
}

static void test_bank_mapping(void **state) {
  (void)state;
  rf_counters cnt;
  rf_banks *b = banks(16, 1, 0, 2, &cnt);
  assert_int_equal(rf_bank_of(b, 3, 0, 0), 3);
  assert_int_equal(rf_bank_of(b, 3, 5, 1), 8);   /* (3 + 5) % 16 */
  assert_int_equal(rf_bank_of(b, 15, 2, 0), 1);  /* (15 + 2) % 16 */
  rf_banks_destroy(b);
  b = banks(16, 0, 0, 2, &cnt);
  assert_int_equal(rf_bank_of(b, 3, 5, 1), 3);   /* warp id ignored */
  assert_int_equal(rf_bank_of(b, 20, 5, 1), 4);
  rf_banks_destroy(b);
  /* Sub-core: 4 schedulers own 4 banks each; (reg + warp) % 4 within the scheduler's group. */
  b = banks(16, 1, 1, 4, &cnt);
  assert_int_equal(rf_bank_of(b, 1, 6, 2), 8 + (1 + 6) % 4);
  assert_int_equal(rf_bank_of(b, 4, 0, 3), 12);
  rf_banks_destroy(b);
  /* Bank counts that are not powers of two (a mask serves the others): every register and
   * warp against the definition. */
  static const int shapes[][3] = {{12, 0, 2}, {12, 1, 2}, {12, 1, 3}, {6, 1, 2}, {5, 0, 1}};
  for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
    int n = shapes[k][0], sub = shapes[k][1], nsched = shapes[k][2], per = sub ? n / nsched : n;
    b = banks(n, 1, sub, nsched, &cnt);
    for (int reg = 0; reg < 256; reg++)
      for (int warp = 0; warp < 64; warp++) {
        int sched = warp % nsched;
        int want = (reg + warp) % per + (sub ? sched * per : 0);
        assert_int_equal(rf_bank_of(b, reg, warp, sched), want);
      }
    rf_banks_destroy(b);
  }
  rf_diag d;
  assert_null(rf_banks_create(6, 1, 1, 4, 8, 8, &cnt, &d)); /* 6 banks over 4 schedulers */
  assert_non_null(strstr(d.msg, "multiple of the 4 schedulers"));
}

/* Three reads of one bank: served one per step in queue order; the two that wait are the
 * conflicts. Reads of other banks go in the same step. */
static void test_conflicts_and_order(void **state) {
  (void)state;
  rf_counters cnt;
  rf_banks *b = banks(4, 0, 0, 1, &cnt);
  uint16_t served[4];
  rf_read_request(b, rf_bank_of(b, 0, 0, 0), 7);  /* R0: bank 0 */
  rf_read_request(b, rf_bank_of(b, 4, 0, 0), 2);  /* R4: bank 0, conflict */
  rf_read_request(b, rf_bank_of(b, 8, 0, 0), 5);  /* R8: bank 0, conflict */
  rf_read_request(b, rf_bank_of(b, 1, 0, 0), 3);  /* R1: bank 1 */
  assert_int_equal(cnt.bank_conflicts, 2);
  assert_int_equal(rf_queued(b), 4);
  assert_int_equal(rf_arbitrate(b, 1, 1, served), 2);
  assert_int_equal(served[0], 7); /* bank 0's oldest */
  assert_int_equal(served[1], 3); /* bank 1 */
  assert_int_equal(rf_arbitrate(b, 2, 1, served), 1);
  assert_int_equal(served[0], 2);
  assert_int_equal(rf_arbitrate(b, 3, 1, served), 1);
  assert_int_equal(served[0], 5);
  assert_int_equal(rf_arbitrate(b, 4, 1, served), 0);
  assert_int_equal(cnt.reads, 4);
  assert_int_equal(cnt.bank_conflicts, 2); /* each waiting read counted once */
  rf_banks_destroy(b);
}

/* A writeback takes its bank's port for the cycle: the read waits (one conflict) and goes the
 * next cycle; a second step in the same cycle (port throughput 2) sees the port free. Two
 * registers of one bank in one write: the second is dropped, as GPGPU-Sim does. */
static void test_writeback_ports(void **state) {
  (void)state;
  rf_counters cnt;
  rf_banks *b = banks(4, 0, 0, 1, &cnt);
  uint16_t served[4];
  const uint8_t regs[] = {1, 5, 2}; /* banks 1, 1, 2 */
  rf_write(b, regs, 3, 0, 0, 10);
  assert_int_equal(cnt.writes, 3);
  assert_int_equal(rf_write_mask(b, 10), 1u << 1); /* stopped at the second bank-1 register */
  assert_int_equal(rf_write_mask(b, 11), 0);
  rf_read_request(b, 1, 4);
  assert_int_equal(rf_arbitrate(b, 10, 1, served), 0);
  assert_int_equal(cnt.bank_conflicts, 1);
  assert_int_equal(rf_arbitrate(b, 10, 0, served), 1); /* second step of cycle 10 */
  assert_int_equal(served[0], 4);
  /* A write announced ahead lands on its own cycle only. */
  const uint8_t r3[] = {3};
  rf_write(b, r3, 1, 0, 0, 14);
  rf_read_request(b, 3, 6);
  assert_int_equal(rf_arbitrate(b, 13, 1, served), 1);
  rf_read_request(b, 3, 6);
  assert_int_equal(rf_arbitrate(b, 14, 1, served), 0);
  assert_int_equal(rf_arbitrate(b, 15, 1, served), 1);
  assert_int_equal(cnt.bank_conflicts, 2);
  assert_int_equal(cnt.reads, 3);
  rf_banks_destroy(b);
}

/* The collectors of config c (validated), their counters cleared. */
static opcoll *collectors(gpu_config *c, rf_counters *cnt) {
  memset(cnt, 0, sizeof *cnt);
  rf_diag d;
  if (config_validate(c, &d) != 0) fail_msg("%s", d.msg);
  opcoll *o = opcoll_create(c, 16, cnt, &d);
  if (!o) fail_msg("%s", d.msg);
  return o;
}

/* GTX 480 collectors (specialized sets, 16 banks) with only 2 SP collector units. */
static opcoll *fermi(gpu_config *c, rf_counters *cnt, int sp_units) {
  config_defaults(c);
  c->oc_units[UNIT_SP] = sp_units;
  c->oc_in_ports[UNIT_SP] = 1;
  c->oc_out_ports[UNIT_SP] = 1;
  return collectors(c, cnt);
}

/* Sub-core collectors of two schedulers: `units` generic units (the first half serve scheduler
 * 0), two input and two dispatch ports, and ID_OC and OC_EX registers of a slot per scheduler. */
static opcoll *sub_core(gpu_config *c, rf_counters *cnt, int units) {
  config_defaults(c);
  c->sub_core_model = 1;
  c->specialized_oc = 0;
  c->num_sched_per_core = 2;
  c->oc_units[OC_GEN] = units;
  c->oc_in_ports[OC_GEN] = 2;
  c->oc_out_ports[OC_GEN] = 2;
  for (int u = 0; u < UNIT_COUNT; u++)
    if (u != UNIT_CTRL) {
      c->width_id_oc[u] = c->width_oc_ex[u] = 2;
      if (u != UNIT_MEM) c->num_units[u] += c->num_units[u] % 2; /* units split evenly */
    }
  return collectors(c, cnt);
}

static oc_inst sp_inst(int warp, int nsrc, const uint8_t *src) {
  oc_inst in = {.warp = warp, .sched = warp % 2, .cls = UNIT_SP, .nsrc = (uint8_t)nsrc};
  memcpy(in.src, src, (size_t)nsrc);
  return in;
}

/* Steps until a pipeline's OC_EX holds an instruction; returns the cycle and pops it. Its
 * pipeline goes to *cls, or, with cls NULL, must be SP. */
static uint64_t run_to_ex_cls(opcoll *o, uint64_t *now, int *warp, int *cls) {
  for (int i = 0; i < 50; i++) {
    opcoll_cycle(o, ++*now);
    for (int u = 0; u < UNIT_CTRL; u++) {
      int slot = opcoll_ex_ready(o, u, -1);
      if (slot < 0) continue;
      if (cls) *cls = u;
      else assert_int_equal(u, UNIT_SP);
      *warp = opcoll_ex_inst(o, u, slot)->warp;
      opcoll_ex_pop(o, u, slot);
      return *now;
    }
  }
  fail_msg("nothing reached OC_EX");
  return 0;
}

static uint64_t run_to_ex(opcoll *o, uint64_t *now, int *warp) {
  return run_to_ex_cls(o, now, warp, NULL);
}

/* Issue at cycle 0: collector unit at 1, reads at 2, OC_EX at 3. Three sources in one bank
 * add two read cycles. */
static void test_dispatch_timing(void **state) {
  (void)state;
  gpu_config c;
  rf_counters cnt;
  opcoll *o = fermi(&c, &cnt, 2);
  const uint8_t one[] = {4};
  oc_inst in = sp_inst(0, 1, one);
  assert_true(opcoll_can_issue(o, UNIT_SP, 0));
  opcoll_issue(o, &in);
  uint64_t now = 0;
  int warp;
  assert_int_equal(run_to_ex(o, &now, &warp), 3);
  /* R0, R16, R32 of warp 0: all bank 0 of 16. */
  const uint8_t same[] = {0, 16, 32};
  in = sp_inst(0, 3, same);
  opcoll_issue(o, &in);
  uint64_t start = now;
  assert_int_equal(run_to_ex(o, &now, &warp) - start, 5);
  assert_int_equal(cnt.bank_conflicts, 2);
  assert_int_equal(cnt.reads, 4);
  assert_int_equal(opcoll_in_flight(o), 0);
  opcoll_destroy(o);
}

/* One SP collector unit: of two instructions issued together the second waits for the unit
 * (an oc stall per step it finds none) and reaches OC_EX two cycles after the first. */
static void test_collector_exhaustion(void **state) {
  (void)state;
  gpu_config c;
  rf_counters cnt;
  opcoll *o = fermi(&c, &cnt, 1);
  const uint8_t a[] = {1, 2}, b[] = {3};
  oc_inst i0 = sp_inst(0, 2, a), i1 = sp_inst(1, 1, b);
  opcoll_issue(o, &i0);
  assert_true(opcoll_can_issue(o, UNIT_SP, 1)); /* ID_OC_SP is 2 wide */
  opcoll_issue(o, &i1);
  assert_false(opcoll_can_issue(o, UNIT_SP, 0));
  uint64_t now = 0;
  int warp;
  assert_int_equal(run_to_ex(o, &now, &warp), 3);
  assert_int_equal(warp, 0);
  /* The port moves one instruction per step: i0 at cycle 1; i1 finds no unit at cycle 2 (one
   * stall); the unit frees at 3 (dispatch runs first) and takes i1, which reads at 4. */
  assert_int_equal(cnt.oc_stalls, 1);
  assert_int_equal(run_to_ex(o, &now, &warp), 5);
  assert_int_equal(warp, 1);
  assert_int_equal(cnt.oc_stalls, 1);
  opcoll_destroy(o);
}

/* Oldest first: with the unit busy, the older of two waiting instructions gets it. */
static void test_oldest_first(void **state) {
  (void)state;
  gpu_config c;
  rf_counters cnt;
  opcoll *o = fermi(&c, &cnt, 1);
  const uint8_t s[] = {1};
  oc_inst i0 = sp_inst(0, 1, s), i1 = sp_inst(1, 1, s), i2 = sp_inst(2, 1, s);
  opcoll_issue(o, &i0);
  opcoll_issue(o, &i1);
  uint64_t now = 0;
  int warp;
  opcoll_cycle(o, ++now); /* i0 into the unit */
  opcoll_issue(o, &i2);   /* younger than i1, waits beside it */
  assert_int_equal(run_to_ex(o, &now, &warp), 3);
  assert_int_equal(warp, 0);
  run_to_ex(o, &now, &warp);
  assert_int_equal(warp, 1);
  run_to_ex(o, &now, &warp);
  assert_int_equal(warp, 2);
  opcoll_destroy(o);
}

/* The issue stage's view of ID_OC (opcoll_issue_blocked, kept as the register changes) must
 * match it: shared slots block every scheduler when all are taken, sub-core slots only their
 * own scheduler, and allocation into a collector unit frees them again. */
static void check_blocked(const opcoll *o, int nsched) {
  const uint32_t *blocked = opcoll_issue_blocked(o);
  for (int q = 0; q < nsched; q++)
    for (int u = 0; u < UNIT_COUNT; u++)
      assert_int_equal(!(blocked[q] & (1u << u)), opcoll_can_issue(o, u, q));
}

static void test_issue_blocked(void **state) {
  (void)state;
  gpu_config c;
  rf_counters cnt;
  opcoll *o = fermi(&c, &cnt, 1);
  const uint8_t s[] = {1};
  oc_inst i0 = sp_inst(0, 1, s), i1 = sp_inst(1, 1, s);
  const uint32_t *blocked = opcoll_issue_blocked(o);
  assert_int_equal(blocked[0] & (1u << UNIT_SP), 0);
  opcoll_issue(o, &i0);
  assert_int_equal(blocked[1] & (1u << UNIT_SP), 0); /* one of two shared slots left */
  opcoll_issue(o, &i1);
  assert_true(blocked[0] & (1u << UNIT_SP));
  assert_true(blocked[1] & (1u << UNIT_SP));
  assert_int_equal(blocked[0] & (1u << UNIT_MEM), 0);
  check_blocked(o, c.num_sched_per_core);
  opcoll_cycle(o, 1); /* i0 into the only SP unit: a slot is free again */
  assert_int_equal(blocked[0] & (1u << UNIT_SP), 0);
  check_blocked(o, c.num_sched_per_core);
  opcoll_destroy(o);

  /* Sub-core: each scheduler owns one slot of ID_OC_SP. */
  o = sub_core(&c, &cnt, 2);
  blocked = opcoll_issue_blocked(o);
  opcoll_issue(o, &i0); /* scheduler 0 */
  assert_true(blocked[0] & (1u << UNIT_SP));
  assert_int_equal(blocked[1] & (1u << UNIT_SP), 0);
  check_blocked(o, 2);
  opcoll_cycle(o, 1);
  assert_int_equal(blocked[0] & (1u << UNIT_SP), 0);
  check_blocked(o, 2);
  opcoll_destroy(o);
}

/* Sub-core dispatch: a collected unit sends only into its own scheduler's OC_EX slot, so it
 * waits while that slot is full even with the other scheduler's slot free, and goes as soon as
 * its slot is popped. Sources are none, so each instruction is collected where it is
 * allocated. */
static void test_sub_core_dispatch(void **state) {
  (void)state;
  gpu_config c;
  rf_counters cnt;
  opcoll *o = sub_core(&c, &cnt, 4); /* units 0-1 serve scheduler 0, 2-3 scheduler 1 */
  const uint8_t none[1] = {0};
  oc_inst w0 = sp_inst(0, 0, none), w2 = sp_inst(2, 0, none), w1 = sp_inst(1, 0, none);
  opcoll_issue(o, &w0);
  opcoll_cycle(o, 1); /* w0 into unit 0, collected */
  opcoll_issue(o, &w2);
  opcoll_cycle(o, 2); /* w0 into slot 0; w2 into unit 0 (dispatch comes first) */
  assert_int_equal(opcoll_ex_ready(o, UNIT_SP, 0), 0);
  assert_int_equal(opcoll_ex_inst(o, UNIT_SP, 0)->warp, 0);
  opcoll_cycle(o, 3); /* w2 waits: slot 0 holds w0 */
  opcoll_issue(o, &w1);
  opcoll_cycle(o, 4); /* w1 (scheduler 1) into unit 2 */
  opcoll_cycle(o, 5); /* w1 into slot 1; w2 still waits */
  assert_int_equal(opcoll_ex_inst(o, UNIT_SP, 0)->warp, 0);
  assert_int_equal(opcoll_ex_ready(o, UNIT_SP, 1), 1);
  assert_int_equal(opcoll_ex_inst(o, UNIT_SP, 1)->warp, 1);
  assert_int_equal(opcoll_in_flight(o), 3);
  opcoll_ex_pop(o, UNIT_SP, 1);
  opcoll_cycle(o, 6); /* slot 1 is not w2's */
  assert_int_equal(opcoll_ex_ready(o, UNIT_SP, 1), -1);
  assert_int_equal(opcoll_ex_inst(o, UNIT_SP, 0)->warp, 0);
  oc_inst w4 = sp_inst(4, 0, none);
  opcoll_issue(o, &w4);
  opcoll_cycle(o, 7); /* w4 into unit 1: both of scheduler 0's units wait for slot 0 */
  assert_int_equal(opcoll_ex_inst(o, UNIT_SP, 0)->warp, 0);
  opcoll_ex_pop(o, UNIT_SP, 0);
  /* Both have room now; the first port sends one (round robin from unit 0, as it sent unit 2
   * last: w2), and the second port must not send the other into the slot that has just
   * filled. */
  opcoll_cycle(o, 8);
  assert_int_equal(opcoll_ex_inst(o, UNIT_SP, 0)->warp, 2);
  assert_int_equal(opcoll_in_flight(o), 2);
  opcoll_ex_pop(o, UNIT_SP, 0);
  opcoll_cycle(o, 9); /* then w4 */
  assert_int_equal(opcoll_ex_ready(o, UNIT_SP, 0), 0);
  assert_int_equal(opcoll_ex_inst(o, UNIT_SP, 0)->warp, 4);
  opcoll_ex_pop(o, UNIT_SP, 0);
  assert_int_equal(opcoll_in_flight(o), 0);
  opcoll_destroy(o);
}

/* A generic input port takes its pipelines in GPGPU-Sim's order (SP, SFU, MEM, then TENSOR, DP,
 * INT where they exist), not by age: with one free unit, an SP instruction issued after an
 * SFU one and an INT one is allocated first, then the SFU one, then the INT one. */
static void test_gen_port_order(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  c.specialized_oc = 0;
  c.num_units[UNIT_INT] = 1;
  c.oc_units[OC_GEN] = 1;
  c.oc_in_ports[OC_GEN] = 1;
  c.oc_out_ports[OC_GEN] = 1;
  for (int u = 0; u < UNIT_COUNT; u++)
    if (u != UNIT_CTRL) c.width_id_oc[u] = c.width_oc_ex[u] = 1;
  rf_counters cnt;
  opcoll *o = collectors(&c, &cnt);
  const uint8_t none[1] = {0};
  oc_inst in_int = sp_inst(0, 0, none), sfu = sp_inst(1, 0, none), sp = sp_inst(2, 0, none);
  in_int.cls = UNIT_INT;
  sfu.cls = UNIT_SFU;
  opcoll_issue(o, &in_int);
  opcoll_issue(o, &sfu);
  opcoll_issue(o, &sp);
  static const struct { int cls, warp; } order[] = {{UNIT_SP, 2}, {UNIT_SFU, 1}, {UNIT_INT, 0}};
  uint64_t now = 0;
  for (int k = 0; k < 3; k++) {
    int warp, cls;
    run_to_ex_cls(o, &now, &warp, &cls);
    assert_int_equal(cls, order[k].cls);
    assert_int_equal(warp, order[k].warp);
  }
  assert_int_equal(opcoll_in_flight(o), 0);
  opcoll_destroy(o);
}

/* End to end: RZ (R255) in a trace is not a register-file operand; every other source is one
 * read, every destination one write. */
static void test_rz_not_read(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  c.n_clusters = 1;
  const char *bodies[] = {"1 R1 IADD 2 R2 R255 0\n1 R3 IADD 2 R255 R255 0\n"
                          "1 R4 IADD 2 R1 R3 0\n0 EXIT 0 0\n"};
  char *text = tu_kernel_text("rz", 1, 1, 16, bodies, 1);
  assert_non_null(text);
  char dir[256], path[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  assert_int_equal(tu_write(dir, "kernel-1.traceg", text), 0);
  free(text);
  snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
  rf_diag d = {{0}, 0};
  gpu *g = gpu_create(&c, stderr, &d);
  if (!g) fail_msg("%s", d.msg);
  stats_record r;
  stats_init(&r);
  if (gpu_run_kernel(g, path, &r, &d) != 0) fail_msg("%s", d.msg);
  char *out = NULL;
  size_t n;
  FILE *m = open_memstream(&out, &n);
  stats_print_text(&r, m);
  fclose(m);
  assert_non_null(strstr(out, "rfsim_regfile_reads = 3\n"));  /* R2; none; R1 and R3 */
  assert_non_null(strstr(out, "rfsim_regfile_writes = 3\n"));
  free(out);
  stats_free(&r);
  gpu_destroy(g);
  tu_rmtree(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bank_mapping),
      cmocka_unit_test(test_conflicts_and_order),
      cmocka_unit_test(test_writeback_ports),
      cmocka_unit_test(test_sub_core_dispatch),
      cmocka_unit_test(test_gen_port_order),
      cmocka_unit_test(test_dispatch_timing),
      cmocka_unit_test(test_collector_exhaustion),
      cmocka_unit_test(test_oldest_first),
      cmocka_unit_test(test_issue_blocked),
      cmocka_unit_test(test_rz_not_read),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
