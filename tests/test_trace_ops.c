/* A kernel's ops (csim/trace/trace_ops.h): interning against a plain table of contents,
 * pointers that stay put while more ops are added, and the readers (text and binary cache)
 * giving each instance, in every thread block, the one op of its content, kept as long as a
 * block that points to it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/trace/trace_ops.h"
#include "common/test_util.h"

static uint64_t rnd(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* Content number c: ops that differ in one field only, so that a field left out of the
 * comparison shows. */
static trace_op content(int c) {
  trace_op op = {0};
  op.pc = (uint64_t)(c / 4) * 16;
  switch (c % 4) {
  case 1: op.dst[op.ndst++] = 7; break;
  case 2: op.imm = 3, op.has_imm = 1; break;
  case 3: op.space = SPACE_SHARED; break;
  default: break;
  }
  op.kind = OPK_ALU;
  return op;
}

static void test_intern_against_table(void **state) {
  (void)state;
  enum { CONTENTS = 700, STEPS = 20000 };
  trace_op_set set = {0};
  rf_diag d;
  const trace_op *kept[CONTENTS] = {0};
  uint64_t r = 0x9e3779b97f4a7c15ull;
  int distinct = 0;
  for (int step = 0; step < STEPS; step++) {
    int c = (int)(rnd(&r) % CONTENTS);
    trace_op op = content(c);
    const trace_op *p = trace_op_intern(&set, &op, &d);
    assert_non_null(p);
    assert_true(trace_op_set_owns(&set, p));
    if (kept[c]) {
      assert_ptr_equal(p, kept[c]);
    } else {
      for (int k = 0; k < CONTENTS; k++) assert_true(kept[k] != p); /* a new op */
      kept[c] = p;
      distinct++;
    }
  }
  assert_int_equal(set.n, distinct);
  /* every op is where it was given, with its content, after all the blocks and rehashes */
  for (int c = 0; c < CONTENTS; c++) {
    if (!kept[c]) continue;
    trace_op want = content(c);
    assert_memory_equal(kept[c], &want, sizeof want);
  }
  /* another set keeps ops of its own */
  trace_op_set other = {0};
  trace_op op = content(5);
  const trace_op *p = trace_op_intern(&other, &op, &d);
  assert_non_null(p);
  assert_true(trace_op_set_owns(&other, p));
  assert_false(trace_op_set_owns(&set, p));
  assert_false(trace_op_set_owns(&other, kept[5] ? kept[5] : kept[0]));
  assert_int_equal(other.n, 1);
  trace_op_set_free(&set);
  trace_op_set_free(&other);
  assert_null(set.blocks);
  assert_int_equal(set.n, 0);
}

/* Two warps, one PC each with two forms: the load with lanes active is a memory op, the one
 * predicated off (mask 0) an ALU op (trace_parse_inst), so a PC does not name an op. */
static const char kernel[] =
    "-kernel name = ops\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n"
    "-shmem = 0\n-nregs = 8\n-shmem base_addr = 0x7f0000000000\n"
    "-local mem base_addr = 0x7e0000000000\n-accelsim tracer version = 4\n"
    "-enable lineinfo = 0\n\n"
    "#BEGIN_TB\nthread block = 0,0,0\n"
    "warp = 0\ninsts = 3\n"
    "0000 ffffffff 1 R1 IMAD.MOV.U32 1 R2 0\n"
    "0010 ffffffff 1 R3 LDG.E 1 R4 4 1 0x1000 4\n"
    "0020 ffffffff 0 EXIT 0 0\n"
    "warp = 1\ninsts = 3\n"
    "0000 ffffffff 1 R1 IMAD.MOV.U32 1 R2 0\n"
    "0010 00000000 1 R3 LDG.E 1 R4 4 1 0x0 0\n"
    "0020 ffffffff 0 EXIT 0 0\n"
    "#END_TB\n"
    "#BEGIN_TB\nthread block = 1,0,0\n"
    "warp = 0\ninsts = 2\n"
    "0000 ffffffff 1 R1 IMAD.MOV.U32 1 R2 0\n"
    "0020 ffffffff 0 EXIT 0 0\n"
    "warp = 1\ninsts = 2\n"
    "0000 ffffffff 1 R1 IMAD.MOV.U32 1 R2 0\n"
    "0020 ffffffff 0 EXIT 0 0\n"
    "#END_TB\n";

/* Reads the kernel through `mode` (text, or the binary cache once written) and checks each
 * block's instances against their content. */
static void check_blocks(const char *path, trace_cache_mode mode, const char *cache_dir) {
  trace_cache_opts o = {mode, cache_dir, 0};
  trace_kernel *k;
  rf_diag d;
  assert_int_equal(trace_kernel_open_cached(path, &o, &k, &d), 0);
  assert_int_equal(trace_kernel_reads_cache(k), mode == TRACE_CACHE_ON);
  trace_tb tb;
  int r, blocks = 0;
  const trace_op *first_mov = NULL, *first_exit = NULL;
  while ((r = trace_kernel_next_tb(k, &tb, &d)) > 0) {
    const trace_warp *w0 = &tb.warps[0], *w1 = &tb.warps[1];
    for (int w = 0; w < tb.nwarps; w++) /* every instance's op is in the block's pool */
      for (uint32_t i = 0; i < tb.warps[w].n; i++)
        assert_true(trace_op_set_owns(trace_op_pool_set(tb.ops), tb.warps[w].insts[i].op));
    /* the same content in both blocks: one op, still there after the first block was freed */
    if (!first_mov) {
      first_mov = w0->insts[0].op;
      first_exit = w0->insts[w0->n - 1].op;
    }
    assert_ptr_equal(w0->insts[0].op, first_mov);
    assert_ptr_equal(w0->insts[w0->n - 1].op, first_exit);
    assert_int_equal(first_mov->kind, OPK_ALU);
    assert_int_equal(first_mov->pc, 0);
    /* the same content in both warps: one op */
    assert_ptr_equal(w0->insts[0].op, w1->insts[0].op);
    assert_ptr_equal(w0->insts[w0->n - 1].op, w1->insts[w1->n - 1].op);
    assert_int_equal(w0->insts[w0->n - 1].op->kind, OPK_EXIT);
    if (tb.linear_id == 0) {
      /* the same PC, two contents: two ops */
      const trace_op *ld = w0->insts[1].op, *off = w1->insts[1].op;
      assert_true(ld != off);
      assert_int_equal(ld->pc, 0x10);
      assert_int_equal(off->pc, 0x10);
      assert_int_equal(ld->kind, OPK_LOAD);
      assert_int_equal(ld->is_mem, 1);
      assert_int_equal(off->kind, OPK_ALU);
      assert_int_equal(off->is_mem, 0);
    }
    blocks++;
    trace_tb_free(&tb);
  }
  assert_int_equal(r, 0);
  assert_int_equal(blocks, 2);
  trace_kernel_close(k);
}

/* A block keeps the kernel's ops while it lives, after its reader closed (an SM's block may
 * outlive a kernel whose run failed; tests keep blocks they read). */
static void check_block_outlives_reader(const char *path, trace_cache_mode mode,
                                        const char *cache_dir) {
  trace_cache_opts o = {mode, cache_dir, 0};
  trace_kernel *k;
  rf_diag d;
  assert_int_equal(trace_kernel_open_cached(path, &o, &k, &d), 0);
  trace_tb a, b;
  assert_int_equal(trace_kernel_next_tb(k, &a, &d), 1);
  assert_int_equal(trace_kernel_next_tb(k, &b, &d), 1);
  trace_kernel_close(k);
  assert_ptr_equal(a.ops, b.ops);
  assert_ptr_equal(a.warps[0].insts[0].op, b.warps[0].insts[0].op);
  trace_tb_free(&a);
  const trace_warp *w = &b.warps[0];
  assert_int_equal(w->insts[w->n - 1].op->kind, OPK_EXIT);
  assert_int_equal(w->insts[0].op->pc, 0);
  trace_tb_free(&b);
  assert_null(b.ops);
}

static void test_readers_share_ops(void **state) {
  (void)state;
  char dir[256], path[512], cache[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  assert_int_equal(tu_write(dir, "kernel-1.traceg", kernel), 0);
  snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
  snprintf(cache, sizeof cache, "%s/cache", dir);
  check_blocks(path, TRACE_CACHE_OFF, cache);
  check_blocks(path, TRACE_CACHE_REBUILD, cache); /* from the text, writing the cache */
  check_blocks(path, TRACE_CACHE_ON, cache);      /* from the cache */
  check_block_outlives_reader(path, TRACE_CACHE_OFF, cache);
  check_block_outlives_reader(path, TRACE_CACHE_ON, cache);
  tu_rmtree(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_intern_against_table),
      cmocka_unit_test(test_readers_share_ops),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
