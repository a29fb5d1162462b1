/* Live registers per PC from a warp's trace (csim/policy/liveness.c), on hand-built streams:
 * straight-line code (Fig. 7's rule: live from a read back to the write before it), a loop
 * (PCs repeated in the stream, loop-carried registers live across the back edge), two warps on
 * different paths (the per-PC union), partial writes that do not kill, and a stream in which
 * every register is live everywhere. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "../csim/policy/liveness.h"

typedef struct op {
  uint64_t pc;
  int dst;          /* -1: none */
  int src[8];
  int nsrc;
  uint32_t mask;
} op;

/* What the warps made by make_warp point to: every test's, never reused. */
static trace_op op_pool[8192];
static int op_pool_used;

static trace_warp make_warp(trace_inst *buf, const op *ops, int n) {
  assert_true(op_pool_used + n <= (int)(sizeof op_pool / sizeof op_pool[0]));
  for (int i = 0; i < n; i++) {
    trace_op *o = &op_pool[op_pool_used++];
    memset(&buf[i], 0, sizeof buf[i]);
    buf[i].op = o;
    o->pc = ops[i].pc;
    buf[i].mask = ops[i].mask ? ops[i].mask : 0xffffffffu;
    if (ops[i].dst >= 0) o->dst[o->ndst++] = (uint8_t)ops[i].dst;
    for (int k = 0; k < ops[i].nsrc; k++) o->src[o->nsrc++] = (uint8_t)ops[i].src[k];
  }
  trace_warp w = {buf, (uint32_t)n, NULL, 0};
  return w;
}

static live_vec vec_of(const int *regs, int n) {
  live_vec v;
  memset(&v, 0, sizeof v);
  for (int i = 0; i < n; i++) v.w[regs[i] >> 6] |= 1ull << (regs[i] & 63);
  return v;
}

static void expect_live(const liveness *l, uint64_t pc, const int *regs, int n) {
  const live_vec *got = liveness_at(l, pc);
  if (!got) fail_msg("PC 0x%llx not in the table", (unsigned long long)pc);
  live_vec want = vec_of(regs, n);
  for (int k = 0; k < 4; k++)
    if (got->w[k] != want.w[k])
      fail_msg("PC 0x%llx word %d: live %016llx, expected %016llx", (unsigned long long)pc, k,
               (unsigned long long)got->w[k], (unsigned long long)want.w[k]);
}

static liveness *new_table(void) {
  rf_diag d;
  liveness *l = liveness_create(&d);
  if (!l) fail_msg("%s", d.msg);
  return l;
}

static void add(liveness *l, const trace_warp *w) {
  rf_diag d;
  if (liveness_add_warp(l, w, &d) < 0) fail_msg("%s", d.msg);
}

/* R1 = S2R; R2 = R1+1; R3 = R1+R2; STG [R3], R2; EXIT */
static void test_straight_line(void **state) {
  (void)state;
  const op ops[] = {{0x00, 1, {0}, 0, 0},        {0x08, 2, {1}, 1, 0},
                    {0x10, 3, {1, 2}, 2, 0},     {0x18, -1, {3, 2}, 2, 0},
                    {0x20, -1, {0}, 0, 0}};
  trace_inst buf[5];
  trace_warp w = make_warp(buf, ops, 5);
  liveness *l = new_table();
  add(l, &w);
  expect_live(l, 0x00, NULL, 0);
  expect_live(l, 0x08, (int[]){1}, 1);
  expect_live(l, 0x10, (int[]){1, 2}, 2);
  expect_live(l, 0x18, (int[]){2, 3}, 2);
  expect_live(l, 0x20, NULL, 0);
  assert_null(liveness_at(l, 0x28));
  assert_int_equal(liveness_pcs(l), 5);
  assert_int_equal(live_vec_count(liveness_at(l, 0x10)), 2);
  assert_int_equal(live_vec_max(liveness_at(l, 0x18)), 3);
  /* the RZ operand (R255) is never live */
  const op rz[] = {{0x00, 4, {255}, 1, 0}, {0x08, -1, {4, 255}, 2, 0}};
  trace_warp w2 = make_warp(buf, rz, 2);
  liveness_reset(l);
  add(l, &w2);
  expect_live(l, 0x00, NULL, 0);
  expect_live(l, 0x08, (int[]){4}, 1);
  liveness_free(l);
}

/* R0 = S2R; R2 = 0; R5 = 7; 3 x {R1 = LDG [R0]; R2 += R1; R0 += 4; R6 = R0}; STG [R0], R2+R5
 * The loop body's PCs repeat: R0 and R2 are loop-carried, R5 is live through the loop, R1 only
 * between its load and its use, R6 is dead (written, never read). */
static void test_loop_repeated_pcs(void **state) {
  (void)state;
  op ops[32];
  int n = 0;
  ops[n++] = (op){0x00, 0, {0}, 0, 0};
  ops[n++] = (op){0x08, 2, {0}, 0, 0};
  ops[n++] = (op){0x10, 5, {0}, 0, 0};
  for (int it = 0; it < 3; it++) {
    ops[n++] = (op){0x18, 1, {0}, 1, 0};
    ops[n++] = (op){0x20, 2, {2, 1}, 2, 0};
    ops[n++] = (op){0x28, 0, {0}, 1, 0};
    ops[n++] = (op){0x30, 6, {0}, 1, 0};
  }
  ops[n++] = (op){0x38, -1, {0, 2, 5}, 3, 0};
  trace_inst buf[32];
  trace_warp w = make_warp(buf, ops, n);
  liveness *l = new_table();
  add(l, &w);
  expect_live(l, 0x08, (int[]){0}, 1);
  expect_live(l, 0x10, (int[]){0, 2}, 2);
  expect_live(l, 0x18, (int[]){0, 2, 5}, 3);
  expect_live(l, 0x20, (int[]){0, 1, 2, 5}, 4);
  expect_live(l, 0x28, (int[]){0, 2, 5}, 3);
  expect_live(l, 0x30, (int[]){0, 2, 5}, 3);
  expect_live(l, 0x38, (int[]){0, 2, 5}, 3);
  assert_int_equal(liveness_pcs(l), 8);
  assert_int_equal(liveness_insts(l), (uint64_t)n);
  liveness_free(l);
}

/* Two warps through different paths after PC 0x08: the table holds the union at each PC. A
 * write of only some threads does not end the other threads' value. */
static void test_paths_union_and_partial_writes(void **state) {
  (void)state;
  const op a[] = {{0x00, 1, {0}, 0, 0}, {0x08, -1, {0}, 0, 0}, {0x10, -1, {1}, 1, 0}};
  const op b[] = {{0x00, 2, {0}, 0, 0}, {0x08, -1, {0}, 0, 0}, {0x18, -1, {2}, 1, 0}};
  trace_inst ba[3], bb[3];
  trace_warp wa = make_warp(ba, a, 3), wb = make_warp(bb, b, 3);
  liveness *l = new_table();
  add(l, &wa);
  expect_live(l, 0x08, (int[]){1}, 1);
  add(l, &wb);
  expect_live(l, 0x08, (int[]){1, 2}, 2);
  expect_live(l, 0x10, (int[]){1}, 1);
  expect_live(l, 0x18, (int[]){2}, 1);
  assert_int_equal(liveness_warps(l), 2);
  /* R3 is read at 0x10; the write at 0x08 covers half the threads, so R3 stays live above it */
  const op p[] = {{0x00, 3, {0}, 0, 0}, {0x08, 3, {0}, 0, 0x0000ffffu}, {0x10, -1, {3}, 1, 0}};
  trace_inst bp[3];
  trace_warp wp = make_warp(bp, p, 3);
  liveness_reset(l);
  add(l, &wp);
  expect_live(l, 0x08, (int[]){3}, 1);
  expect_live(l, 0x00, NULL, 0);
  liveness_free(l);
}

/* Every instruction reads R0..R7 (and R200, above 64: up to R254 is tracked). */
static void test_all_live(void **state) {
  (void)state;
  op ops[6];
  for (int i = 0; i < 6; i++) {
    ops[i] = (op){(uint64_t)i * 8, -1, {0, 1, 2, 3, 4, 5, 6, 200}, 8, 0};
  }
  ops[0].src[7] = 7;
  ops[1].src[7] = 7;
  trace_inst buf[6];
  trace_warp w = make_warp(buf, ops, 6);
  liveness *l = new_table();
  add(l, &w);
  for (int i = 2; i < 6; i++) {
    assert_int_equal(live_vec_count(liveness_at(l, (uint64_t)i * 8)), 8);
    assert_int_equal(live_vec_count_below(liveness_at(l, (uint64_t)i * 8), 8), 7);
    assert_int_equal(live_vec_max(liveness_at(l, (uint64_t)i * 8)), 200);
  }
  /* R7 is read at 0x00 and 0x08 only; R200 from 0x10 on, and before (live through) */
  expect_live(l, 0x08, (int[]){0, 1, 2, 3, 4, 5, 6, 7, 200}, 9);
  liveness_free(l);
}

/* Enough distinct PCs to grow the table several times. */
static void test_many_pcs(void **state) {
  (void)state;
  enum { N = 5000 };
  static op ops[N];
  static trace_inst buf[N];
  for (int i = 0; i < N; i++) ops[i] = (op){(uint64_t)i * 8, i % 200, {(i + 199) % 200}, 1, 0};
  trace_warp w = make_warp(buf, ops, N);
  liveness *l = new_table();
  add(l, &w);
  assert_int_equal(liveness_pcs(l), N);
  /* instruction i reads R(i-1) written by instruction i-1: live-in of i is {R(i-1)} */
  for (int i = 1; i < N; i++) {
    const live_vec *v = liveness_at(l, (uint64_t)i * 8);
    assert_non_null(v);
    assert_int_equal(live_vec_count(v), 1);
    assert_int_equal(live_vec_max(v), (i + 199) % 200);
  }
  liveness_free(l);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_straight_line),
      cmocka_unit_test(test_loop_repeated_pcs),
      cmocka_unit_test(test_paths_union_and_partial_writes),
      cmocka_unit_test(test_all_live),
      cmocka_unit_test(test_many_pcs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
