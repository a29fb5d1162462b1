/* Trace reader: the real Accel-Sim traces, the three address modes, lineinfo, v5 immediates,
 * and one malformed fixture per error message. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/trace/trace.h"
#include "common/test_util.h"

typedef struct counts {
  long tbs, warp_insts, thread_insts, mem_insts;
} counts;

static int count_kernel(const char *path, counts *c, rf_diag *d) {
  trace_kernel *k;
  memset(c, 0, sizeof *c);
  if (trace_kernel_open(path, &k, d) < 0) return -1;
  trace_tb tb;
  int r;
  while ((r = trace_kernel_next_tb(k, &tb, d)) > 0) {
    c->tbs++;
    for (int w = 0; w < tb.nwarps; w++)
      for (uint32_t i = 0; i < tb.warps[w].n; i++) {
        c->warp_insts++;
        c->thread_insts += __builtin_popcount(tb.warps[w].insts[i].mask);
        c->mem_insts += tb.warps[w].insts[i].op->is_mem;
      }
    trace_tb_free(&tb);
  }
  trace_kernel_close(k);
  return r;
}

static void real_trace(const char *name, long warp_insts, long thread_insts) {
  char buf[512];
  char rel[128];
  snprintf(rel, sizeof rel, "%s/kernelslist.g", name);
  if (!tu_shared_trace(rel, buf, sizeof buf)) skip();
  trace_list *l;
  rf_diag d;
  assert_int_equal(trace_list_read(buf, &l, &d), 0);
  assert_int_equal(l->nkernels, 1);
  const trace_cmd *kc = &l->cmds[l->ncmds - 1];
  assert_int_equal(kc->kind, TRACE_CMD_KERNEL);
  counts c;
  assert_int_equal(count_kernel(kc->path, &c, &d), 0);
  assert_int_equal(c.tbs, 1);
  assert_int_equal(c.warp_insts, warp_insts);
  assert_int_equal(c.thread_insts, thread_insts);
  trace_list_free(l);
}

static void test_real_matrixmul(void **state) {
  (void)state;
  real_trace("matrixmul_sm61", 4416, 139264);
}

static void test_real_vectoradd(void **state) {
  (void)state;
  real_trace("vectoradd_sm61", 344, 10516);
}

static void test_real_matrixmul_header(void **state) {
  (void)state;
  char buf[512];
  if (!tu_shared_trace("matrixmul_sm61/kernel-1.traceg", buf, sizeof buf)) skip();
  trace_kernel *k;
  rf_diag d;
  assert_int_equal(trace_kernel_open(buf, &k, &d), 0);
  const trace_kernel_info *in = trace_kernel_get_info(k);
  assert_string_equal(in->name, "_Z8mult_gpuIfEvPT_S1_S1_ii");
  assert_int_equal(in->block[0], 32);
  assert_int_equal(in->block[1], 32);
  assert_int_equal(in->nregs, 30);
  assert_int_equal(in->shmem, 8192);
  assert_int_equal(in->tracer_version, 4);
  assert_int_equal(in->warps_per_tb, 32);
  trace_tb tb;
  assert_int_equal(trace_kernel_next_tb(k, &tb, &d), 1);
  /* 0208 ffffffff 1 R25 LDG.E 1 R8 4 1 0x7fb02d700000 4 : base+stride */
  const trace_warp *w = &tb.warps[0];
  const trace_inst *ldg = NULL;
  for (uint32_t i = 0; i < w->n && !ldg; i++)
    if (w->insts[i].op->pc == 0x208) ldg = &w->insts[i];
  assert_non_null(ldg);
  assert_int_equal(ldg->op->kind, OPK_LOAD);
  assert_int_equal(ldg->op->space, SPACE_GLOBAL);
  assert_int_equal(ldg->op->width, 4);
  assert_int_equal(ldg->op->ndst, 1);
  assert_int_equal(ldg->op->dst[0], 25);
  assert_int_equal(w->addrs[ldg->addr_off + 0], 0x7fb02d700000ull);
  assert_int_equal(w->addrs[ldg->addr_off + 31], 0x7fb02d700000ull + 31 * 4);
  /* 0038 ffffffff 1 R11 MOV 1 R255 0 : RZ is not an operand */
  assert_int_equal(w->insts[5].op->pc, 0x38);
  assert_int_equal(w->insts[5].op->nsrc, 0);
  trace_tb_free(&tb);
  trace_kernel_close(k);
}

static const char *header(int version, int lineinfo, int grid_x, int block_x) {
  static char buf[1024];
  snprintf(buf, sizeof buf,
           "-kernel name = fixture\n-kernel id = 1\n-grid dim = (%d,1,1)\n"
           "-block dim = (%d,1,1)\n-shmem = 0\n-nregs = 8\n-binary version = 61\n"
           "-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
           "-local mem base_addr = 0x00007e0000000000\n-nvbit version = 1.5.5\n"
           "-accelsim tracer version = %d\n-enable lineinfo = %d\n\n"
           "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
           "[reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n",
           grid_x, block_x, version, lineinfo);
  return buf;
}

/* Writes one kernel file and parses it fully; returns the reader's status. */
static int parse_text(const char *kernel_text, counts *c, char *msg, size_t n) {
  char dir[256], path[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  assert_int_equal(tu_write(dir, "kernel-1.traceg", kernel_text), 0);
  snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
  rf_diag d = {{0}, 0};
  int r = count_kernel(path, c, &d);
  /* Report the message without the temporary folder. */
  const char *m = strstr(d.msg, "kernel-1.traceg");
  snprintf(msg, n, "%.500s", r < 0 ? (m ? m : d.msg) : "");
  tu_rmtree(dir);
  return r;
}

static void test_address_modes(void **state) {
  (void)state;
  char text[4096];
  snprintf(text, sizeof text,
           "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
           "0000 0000000f 1 R2 LDG.E.64 1 R4 8 0 0x100 0x108 0x110 0x200 \n"
           "0010 00000007 1 R3 LDG.E 1 R4 4 1 0x1000 -4 \n"
           "0020 00000005 1 R5 LDG.E.128 1 R4 16 2 0x2000 64 \n"
           "0030 ffffffff 0 EXIT 0 0 \n#END_TB\n",
           header(4, 0, 1, 32));
  char dir[256], path[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  assert_int_equal(tu_write(dir, "kernel-1.traceg", text), 0);
  snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
  trace_kernel *k;
  rf_diag d;
  assert_int_equal(trace_kernel_open(path, &k, &d), 0);
  trace_tb tb;
  assert_int_equal(trace_kernel_next_tb(k, &tb, &d), 1);
  const trace_warp *w = &tb.warps[0];
  const uint64_t *a = w->addrs;
  assert_int_equal(w->insts[0].op->width, 8);
  assert_int_equal(a[w->insts[0].addr_off + 3], 0x200);
  assert_int_equal(a[w->insts[0].addr_off + 4], 0);
  assert_int_equal(a[w->insts[1].addr_off + 0], 0x1000);
  assert_int_equal(a[w->insts[1].addr_off + 2], 0x1000 - 8);
  assert_int_equal(w->insts[2].op->width, 16);
  assert_int_equal(a[w->insts[2].addr_off + 0], 0x2000);
  assert_int_equal(a[w->insts[2].addr_off + 1], 0);      /* inactive lane */
  assert_int_equal(a[w->insts[2].addr_off + 2], 0x2040); /* base + delta */
  assert_int_equal(w->insts[3].op->kind, OPK_EXIT);
  trace_tb_free(&tb);
  assert_int_equal(trace_kernel_next_tb(k, &tb, &d), 0); /* end: exactly 1 of 1 TBs */
  trace_kernel_close(k);
  tu_rmtree(dir);
}

static void test_lineinfo_and_v5_immediate(void **state) {
  (void)state;
  char text[4096], msg[512];
  counts c;
  snprintf(text, sizeof text,
           "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
           "17 0000 ffffffff 0 BAR.SYNC 0 0 0x1\n18 0010 ffffffff 0 EXIT 0 0 \n#END_TB\n",
           header(5, 1, 1, 32));
  assert_int_equal(parse_text(text, &c, msg, sizeof msg), 0);
  assert_int_equal(c.warp_insts, 2);
}

/* Every address mode with mask 0, one active lane and all lanes, for a load, a store and an
 * atomic, in tracer versions 3, 4 and 5, with and without lineinfo: each line written the way
 * NVBit's tracer writes it (mode 1 "0x0 0" for mask 0, mode 2 with no delta for one lane, v5's
 * decimal immediate at the end of every line), and read as Accel-Sim's parser reads it. */
typedef struct mem_op {
  const char *text; /* destination, opcode and sources */
  op_kind kind;
} mem_op;

static const mem_op mem_ops[] = {
    {"1 R7 LDG.E 1 R4", OPK_LOAD},
    {"0 STG.E 2 R4 R7", OPK_STORE},
    {"1 R7 ATOMG.E.ADD.STRONG.GPU 2 R4 R5", OPK_ATOMIC},
};
static const uint32_t lane_masks[] = {0x00000000u, 0x00000400u, 0xffffffffu};
#define LANE_BASE 0x7f0000001000ull

/* The address field for `mode` and `mask`, with lane k of the active lanes at LANE_BASE + 4k. */
static int address_field(char *buf, size_t n, int mode, uint32_t mask) {
  int len = snprintf(buf, n, "%d ", mode);
  int active = __builtin_popcount(mask);
  if (mode == 0) {
    for (int k = 0; k < active; k++)
      len += snprintf(buf + len, n - (size_t)len, "0x%016llx ",
                      (unsigned long long)(LANE_BASE + 4ull * (unsigned)k));
  } else if (mode == 1) {
    len += snprintf(buf + len, n - (size_t)len, "0x%llx %d ",
                    mask ? (unsigned long long)LANE_BASE : 0ull, mask ? 4 : 0);
  } else {
    len += snprintf(buf + len, n - (size_t)len, "0x%llx ",
                    mask ? (unsigned long long)LANE_BASE : 0ull);
    for (int k = 1; k < active; k++) len += snprintf(buf + len, n - (size_t)len, "4 ");
  }
  return len;
}

static void test_address_modes_every_mask(void **state) {
  (void)state;
  enum { NOPS = 3, NMODES = 3, NMASKS = 3, NLINES = NOPS * NMODES * NMASKS };
  for (int version = 3; version <= 5; version++)
    for (int lineinfo = 0; lineinfo <= 1; lineinfo++) {
      size_t cap = 64 * 1024;
      char *text = malloc(cap);
      assert_non_null(text);
      int len = snprintf(text, cap, "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = %d\n",
                         header(version, lineinfo, 1, 32), NLINES + 1);
      int pc = 0;
      for (int o = 0; o < NOPS; o++)
        for (int mode = 0; mode < NMODES; mode++)
          for (int m = 0; m < NMASKS; m++, pc += 0x10) {
            char addrs[1024];
            address_field(addrs, sizeof addrs, mode, lane_masks[m]);
            if (lineinfo) len += snprintf(text + len, cap - (size_t)len, "%d ", 40 + pc / 16);
            len += snprintf(text + len, cap - (size_t)len, "%04x %08x %s 4 %s%s\n", pc,
                            lane_masks[m], mem_ops[o].text, addrs, version >= 5 ? "0 " : "");
          }
      len += snprintf(text + len, cap - (size_t)len, "%s%04x ffffffff 0 EXIT 0 0 %s\n#END_TB\n",
                      lineinfo ? "99 " : "", pc, version >= 5 ? "0 " : "");
      assert_true((size_t)len < cap);

      char dir[256], path[512];
      assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
      assert_int_equal(tu_write(dir, "kernel-1.traceg", text), 0);
      snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
      trace_kernel *k;
      rf_diag d = {{0}, 0};
      trace_tb tb;
      if (trace_kernel_open(path, &k, &d) < 0 || trace_kernel_next_tb(k, &tb, &d) != 1)
        fail_msg("tracer v%d, lineinfo %d: %s", version, lineinfo, d.msg);
      const trace_warp *w = &tb.warps[0];
      assert_int_equal(w->n, NLINES + 1);
      int i = 0;
      for (int o = 0; o < NOPS; o++)
        for (int mode = 0; mode < NMODES; mode++)
          for (int m = 0; m < NMASKS; m++, i++) {
            const trace_inst *in = &w->insts[i];
            uint32_t mask = lane_masks[m];
            assert_int_equal(in->mask, mask);
            assert_int_equal(in->op->pc, (uint64_t)i * 0x10);
            if (lineinfo) assert_int_equal(in->op->line, 40 + i);
            if (version >= 5) assert_true(in->op->has_imm);
            if (!mask) { /* fully predicated off: no data moves, it counts as an instruction */
              assert_int_equal(in->op->is_mem, 0);
              assert_int_equal(in->op->kind, OPK_ALU);
              continue;
            }
            if (!in->op->is_mem || in->op->kind != mem_ops[o].kind)
              fail_msg("v%d li%d '%s' mode %d mask %08x: is_mem %d kind %d", version, lineinfo,
                       mem_ops[o].text, mode, mask, in->op->is_mem, in->op->kind);
            assert_int_equal(in->op->width, 4);
            for (int lane = 0, rank = 0; lane < 32; lane++) {
              uint64_t want = mask >> lane & 1 ? LANE_BASE + 4ull * (unsigned)rank++ : 0;
              if (w->addrs[in->addr_off + (uint32_t)lane] != want)
                fail_msg("v%d li%d '%s' mode %d mask %08x lane %d: address 0x%llx, expected "
                         "0x%llx", version, lineinfo, mem_ops[o].text, mode, mask, lane,
                         (unsigned long long)w->addrs[in->addr_off + (uint32_t)lane],
                         (unsigned long long)want);
            }
          }
      assert_int_equal(w->insts[NLINES].op->kind, OPK_EXIT);
      trace_tb_free(&tb);
      assert_int_equal(trace_kernel_next_tb(k, &tb, &d), 0);
      trace_kernel_close(k);
      tu_rmtree(dir);
      free(text);
    }
}

/* The line of the report (Rodinia BFS, tracer v3, sm80): a fully predicated-off load in mode 1. */
static void test_predicated_off_base_stride_load(void **state) {
  (void)state;
  char text[4096], msg[512];
  counts c;
  snprintf(text, sizeof text,
           "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
           "01f0 00000000 1 R7 LDG.E 1 R4 4 1 0x0 0\n"
           "0200 ffffffff 0 EXIT 0 0\n#END_TB\n",
           header(3, 0, 1, 32));
  assert_int_equal(parse_text(text, &c, msg, sizeof msg), 0);
  assert_int_equal(c.warp_insts, 2);
  assert_int_equal(c.thread_insts, 32);
  assert_int_equal(c.mem_insts, 0);
}

typedef struct bad_case {
  const char *what;
  const char *body;    /* after the header */
  int version, lineinfo, grid, block;
  const char *message; /* exact, from "kernel-1.traceg:" on */
} bad_case;

#define TB0 "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n"
static const bad_case bad_cases[] = {
    {"unknown opcode", TB0 "insts = 1\n0000 ffffffff 0 FROB 0 0 \n#END_TB\n", 4, 0, 1, 32,
     "kernel-1.traceg:21: expected a SASS opcode, found 'FROB'"},
    {"bad mask", TB0 "insts = 1\n0000 fffffffffff 0 EXIT 0 0 \n#END_TB\n", 4, 0, 1, 32,
     "kernel-1.traceg:21: expected a 32-bit hex active mask, found 'fffffffffff'"},
    {"bad register", TB0 "insts = 1\n0000 ffffffff 1 P0 MOV 0 0 \n#END_TB\n", 4, 0, 1, 32,
     "kernel-1.traceg:21: expected a destination register R0..R255, found 'P0'"},
    {"register out of range", TB0 "insts = 1\n0000 ffffffff 1 R256 MOV 0 0 \n#END_TB\n", 4, 0,
     1, 32, "kernel-1.traceg:21: expected a destination register R0..R255, found 'R256'"},
    {"too few addresses", TB0 "insts = 1\n0000 00000003 1 R1 LDG.E 1 R2 4 0 0x10 \n#END_TB\n",
     4, 0, 1, 32, "kernel-1.traceg:21: expected 2 addresses for mask 00000003, found 1"},
    {"bad address mode", TB0 "insts = 1\n0000 00000003 1 R1 LDG.E 1 R2 4 7 0x10 \n#END_TB\n",
     4, 0, 1, 32,
     "kernel-1.traceg:21: expected address mode 0 (list), 1 (base+stride) or 2 (base+deltas), "
     "found '7'"},
    {"missing deltas", TB0 "insts = 1\n0000 00000007 1 R1 LDG.E 1 R2 4 2 0x10 4 \n#END_TB\n", 4,
     0, 1, 32, "kernel-1.traceg:21: expected 2 address deltas for mask 00000007, found 1"},
    {"a delta that is not a number", TB0 "insts = 1\n0000 00000007 1 R1 LDG.E 1 R2 4 2 0x10 4 "
     "4x\n#END_TB\n", 4, 0, 1, 32,
     "kernel-1.traceg:21: expected a decimal address delta, found '4x'"},
    {"a delta past int64",
     TB0 "insts = 1\n0000 00000003 1 R1 LDG.E 1 R2 4 2 0x10\t9223372036854775808\t\n#END_TB\n",
     4, 0, 1, 32,
     "kernel-1.traceg:21: expected a decimal address delta, found '9223372036854775808'"},
    {"mask 0, base+stride without stride",
     TB0 "insts = 1\n0000 00000000 1 R1 LDG.E 1 R2 4 1 0x0 \n#END_TB\n", 4, 0, 1, 32,
     "kernel-1.traceg:21: expected a decimal stride, found 'end of line'"},
    {"mask 0, base+stride without base",
     TB0 "insts = 1\n0000 00000000 1 R1 LDG.E 1 R2 4 1\n#END_TB\n", 4, 0, 1, 32,
     "kernel-1.traceg:21: expected a hex base address, found 'end of line'"},
    {"mask 0, base+deltas without base",
     TB0 "insts = 1\n0000 00000000 0 STG.E 2 R2 R3 4 2 \n#END_TB\n", 4, 0, 1, 32,
     "kernel-1.traceg:21: expected a hex base address, found 'end of line'"},
    {"one lane, base+stride with a bad stride",
     TB0 "insts = 1\n0000 00000001 1 R1 ATOMG.E.ADD 1 R2 4 1 0x10 x4\n#END_TB\n", 4, 0, 1,
     32, "kernel-1.traceg:21: expected a decimal stride, found 'x4'"},
    {"mask 0, v5 immediate missing after base+stride (stride is not the immediate)",
     TB0 "insts = 1\n0000 00000000 1 R1 LDG.E 1 R2 4 1 0x0 0 0 7\n#END_TB\n", 5, 0, 1, 32,
     "kernel-1.traceg:21: expected end of line, found '7'"},
    {"trailing token before v5", TB0 "insts = 1\n0000 ffffffff 0 EXIT 0 0 9\n#END_TB\n", 4, 0, 1,
     32, "kernel-1.traceg:21: expected end of line, found '9'"},
    {"too few instructions", TB0 "insts = 2\n0000 ffffffff 0 EXIT 0 0 \n#END_TB\n", 4, 0, 1, 32,
     "kernel-1.traceg:22: expected 2 instructions for this warp, found 1 before '#END_TB'"},
    {"an instruction count far beyond the file (fuzzing)",
     TB0 "insts = 53000000\n0000 ffffffff 0 EXIT 0 0 \n#END_TB\n", 4, 0, 1, 32,
     "kernel-1.traceg:22: expected 53000000 instructions for this warp, found 1 before "
     "'#END_TB'"},
    {"missing warp", TB0 "insts = 1\n0000 ffffffff 0 EXIT 0 0 \n#END_TB\n", 4, 0, 1, 64,
     "kernel-1.traceg:22: expected 2 warps in thread block (0,0,0), found 1"},
    {"warp out of range", "#BEGIN_TB\nthread block = 0,0,0\nwarp = 3\n", 4, 0, 1, 32,
     "kernel-1.traceg:19: expected a warp 0..0, found 3"},
    {"block outside grid", "#BEGIN_TB\nthread block = 5,0,0\n", 4, 0, 2, 32,
     "kernel-1.traceg:18: expected a thread block inside grid (2,1,1), found (5,0,0)"},
    {"missing thread blocks", TB0 "insts = 1\n0000 ffffffff 0 EXIT 0 0 \n#END_TB\n", 4, 0, 2, 32,
     "kernel-1.traceg:22: expected 2 thread blocks (grid 2x1x1), found 1"},
    {"unsupported version", "", 2, 0, 1, 32,
     "kernel-1.traceg:12: expected tracer version 3, 4 or 5, found '2'"},
    {"bad lineinfo number", TB0 "insts = 1\nxx 0000 ffffffff 0 EXIT 0 0 \n#END_TB\n", 4, 1, 1, 32,
     "kernel-1.traceg:21: expected a source line number (lineinfo), found 'xx'"},
    {"truncated file", TB0 "insts = 2\n0000 ffffffff 1 R1 MOV 0 0 \n", 4, 0, 1, 32,
     "kernel-1.traceg:21: expected an instruction line, found end of file"},
    {"garbage between blocks", "hello\n", 4, 0, 1, 32,
     "kernel-1.traceg:17: expected a '-key = value' header line or #BEGIN_TB, found 'hello'"},
};

static void test_malformed(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
    const bad_case *b = &bad_cases[i];
    char text[4096], msg[512];
    snprintf(text, sizeof text, "%s%s", header(b->version, b->lineinfo, b->grid, b->block),
             b->body);
    counts c;
    int r = parse_text(text, &c, msg, sizeof msg);
    if (r != -1 || strcmp(msg, b->message) != 0)
      fail_msg("case '%s': got status %d, message '%s'; expected '%s'", b->what, r, msg,
               b->message);
  }
}

/* Sizes from the input that overflow, or would: each refused at its line with the values as
 * read, never a wrapped product (issue 21: a grid of (2000000000,2000000000,65529) was refused
 * as "found 6213456660981088256" thread blocks). */
static const char *shape_header(const char *grid, const char *block) {
  static char buf[512];
  snprintf(buf, sizeof buf,
           "-kernel name = k\n-grid dim = %s\n-block dim = %s\n-shmem = 0\n-nregs = 8\n"
           "-accelsim tracer version = 4\n",
           grid, block);
  return buf;
}

static void test_overflowing_sizes(void **state) {
  (void)state;
  static const struct {
    const char *grid, *block, *body, *message;
  } cases[] = {
      {"(2000000000,2000000000,65529)", "(32,1,1)", "",
       "kernel-1.traceg:2: -grid dim: expected at most 4294967296 thread blocks (x*y*z), found "
       "(2000000000,2000000000,65529), a product beyond 2^64"},
      {"(65536,65536,2)", "(32,1,1)", "",
       "kernel-1.traceg:2: -grid dim: expected at most 4294967296 thread blocks (x*y*z), found "
       "(65536,65536,2) = 8589934592"},
      {"(1,1,1)", "(2147483647,2147483647,2147483647)", "",
       "kernel-1.traceg:3: -block dim: expected at most 4096 threads per block (x*y*z), found "
       "(2147483647,2147483647,2147483647), a product beyond 2^64"},
      {"(3000000000,1,1)", "(32,1,1)", "",
       "kernel-1.traceg:2: -grid dim: expected (x,y,z) with sizes 1..2147483647, found "
       "'(3000000000,1,1)'"},
      {"(1, 1, 1)", "(32,1,1)",
       "#BEGIN_TB\nthread block = 4294967296,0,0\n",
       "kernel-1.traceg:8: expected 'thread block = x,y,z' with ids 0..2147483647, found "
       "'thread block = 4294967296,0,0'"},
      {"(1,1,1)", "(32,1,1)", "#BEGIN_TB\nthread block = 0,0,0\nwarp = 99999999999\n",
       "kernel-1.traceg:9: expected 'warp = N' or #END_TB, found 'warp = 99999999999'"},
      {"(1,1,1)", "(32,1,1)", "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1073741825\n",
       "kernel-1.traceg:10: expected 'insts = N' with N 0..1073741824, found 'insts = "
       "1073741825'"},
      {"(1,1,1)", "(32,1,1)",
       "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
       "0000 00000003 1 R1 LDG.E 1 R2 4 1 0xfffffffffffffffc 8\n",
       "kernel-1.traceg:11: expected each lane's address inside the 64-bit address space, found "
       "0xfffffffffffffffc + stride 8 for lane 1 (base 0xfffffffffffffffc)"},
      {"(1,1,1)", "(32,1,1)",
       "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
       "0000 00000007 1 R1 LDG.E 1 R2 4 2 0x10 -8 -16\n",
       "kernel-1.traceg:11: expected each lane's address inside the 64-bit address space, found "
       "0x8 - delta 16 for lane 2 (base 0x10)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char text[2048], msg[512];
    snprintf(text, sizeof text, "%s%s", shape_header(cases[i].grid, cases[i].block),
             cases[i].body);
    counts c;
    int r = parse_text(text, &c, msg, sizeof msg);
    if (r != -1 || strcmp(msg, cases[i].message) != 0)
      fail_msg("case %zu: got status %d, message '%s'; expected '%s'", i, r, msg,
               cases[i].message);
  }
  /* blanks around the numbers of a dimension are read as before */
  char text[2048], msg[512];
  snprintf(text, sizeof text, "%s#BEGIN_TB\nthread block = 0, 0 ,0\nwarp = 0\ninsts = 0\n"
           "#END_TB\n", shape_header("( 1, 1,1 )", "(32, 1, 1)"));
  counts c;
  if (parse_text(text, &c, msg, sizeof msg) != 0) fail_msg("%s", msg);
  assert_int_equal(c.tbs, 1);
}

static void test_kernelslist_errors(void **state) {
  (void)state;
  char dir[256], path[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  assert_int_equal(tu_write(dir, "kernelslist.g", "MemcpyHtoD,0x10\nkernel-1.traceg\n"), 0);
  snprintf(path, sizeof path, "%s/kernelslist.g", dir);
  trace_list *l;
  rf_diag d;
  assert_int_equal(trace_list_read(path, &l, &d), -1);
  assert_non_null(strstr(d.msg, "kernelslist.g:1: expected 'MemcpyHtoD,<hex address>,<bytes>', "
                                "found 'MemcpyHtoD,0x10'"));
  assert_int_equal(tu_write(dir, "kernelslist.g", "MemcpyHtoD,0x10,16\n"), 0);
  assert_int_equal(trace_list_read(path, &l, &d), -1);
  assert_non_null(strstr(d.msg, "expected at least one kernel, found none"));
  assert_int_equal(tu_write(dir, "kernelslist.g", "launch kernel-1\n"), 0);
  assert_int_equal(trace_list_read(path, &l, &d), -1);
  assert_non_null(strstr(d.msg, "kernelslist.g:1: expected 'MemcpyHtoD,<addr>,<bytes>' or a "
                                "kernel file name 'kernel-N.traceg', found 'launch kernel-1'"));
  assert_int_equal(tu_write(dir, "kernelslist.g",
                           "MemcpyHtoD,0xfffffffffffff000,4097\nkernel-1.traceg\n"), 0);
  assert_int_equal(trace_list_read(path, &l, &d), -1);
  assert_non_null(strstr(d.msg, "kernelslist.g:1: expected a copy inside the 64-bit address "
                                "space, found 4097 bytes at 0xfffffffffffff000"));
  assert_int_equal(trace_list_read("/nonexistent/kernelslist.g", &l, &d), -1);
  assert_non_null(strstr(d.msg, "/nonexistent/kernelslist.g: cannot open"));
  tu_rmtree(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_real_matrixmul),         cmocka_unit_test(test_real_vectoradd),
      cmocka_unit_test(test_real_matrixmul_header),  cmocka_unit_test(test_address_modes),
      cmocka_unit_test(test_lineinfo_and_v5_immediate), cmocka_unit_test(test_malformed),
      cmocka_unit_test(test_address_modes_every_mask),
      cmocka_unit_test(test_predicated_off_base_stride_load),
      cmocka_unit_test(test_kernelslist_errors),
      cmocka_unit_test(test_overflowing_sizes),
  };
  return cmocka_run_group_tests_name("trace reader", tests, NULL, NULL);
}
