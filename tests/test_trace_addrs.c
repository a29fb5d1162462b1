/* Packed lane addresses (csim/trace/trace_addrs.h): every memory instruction reads back exactly
 * the 32 addresses it was read with, whichever form packing chose; base-and-stride patterns
 * (any mask, negative and zero strides, wrapping sums) take two entries, two half-warp runs at
 * one stride three, the rest keep 32, and each instruction takes the form a reference written
 * from those definitions gives; the pool shrinks; packing twice changes nothing; a pool the
 * readers would not lay out is left alone. Then a thread block read through the trace reader
 * and the binary cache, packed, against the unpacked one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/trace/trace_addrs.h"
#include "../csim/trace/trace_cache.h"
#include "common/test_util.h"

#define MAXI 64

/* One warp under construction: instructions, and per instruction its 32 original lanes. */
typedef struct built {
  trace_warp w;
  uint64_t want[MAXI][TRACE_WARP_SIZE];
} built;

static void start(built *b) {
  memset(b, 0, sizeof *b);
  b->w.insts = calloc(MAXI, sizeof *b->w.insts);
  b->w.addrs = calloc(MAXI * TRACE_WARP_SIZE, sizeof *b->w.addrs);
  assert_non_null(b->w.insts);
  assert_non_null(b->w.addrs);
}

/* What the built instructions are: the packer reads only is_mem. */
static const trace_op alu_op = {.kind = OPK_ALU};
static const trace_op load_op = {.kind = OPK_LOAD, .space = SPACE_GLOBAL, .width = 4, .is_mem = 1};

/* Appends an ALU instruction (no addresses), as traces interleave them. */
static void add_alu(built *b) {
  trace_inst *in = &b->w.insts[b->w.n++];
  in->op = &alu_op;
  in->mask = 0xffffffffu;
}

/* Appends a memory instruction with these lanes (inactive lanes must be 0, as readers give). */
static void add_mem(built *b, uint32_t mask, const uint64_t lanes[TRACE_WARP_SIZE]) {
  uint32_t i = b->w.n++;
  trace_inst *in = &b->w.insts[i];
  in->op = &load_op;
  in->mask = mask;
  in->addr_off = b->w.naddrs;
  memcpy(b->w.addrs + b->w.naddrs, lanes, TRACE_WARP_SIZE * sizeof *lanes);
  memcpy(b->want[i], lanes, sizeof b->want[i]);
  b->w.naddrs += TRACE_WARP_SIZE;
}

/* The k-th active lane of mask at base + k * stride, the others 0. */
static void strided(uint32_t mask, uint64_t base, uint64_t stride, uint64_t out[TRACE_WARP_SIZE]) {
  memset(out, 0, TRACE_WARP_SIZE * sizeof *out);
  for (uint32_t m = mask; m; m &= m - 1, base += stride) out[__builtin_ctz(m)] = base;
}

/* The halves form: lanes 0-15 active in mask from lo, lanes 16-31 from hi, at one stride. */
static void halves(uint32_t mask, uint64_t lo, uint64_t hi, uint64_t stride,
                   uint64_t out[TRACE_WARP_SIZE]) {
  uint64_t high[TRACE_WARP_SIZE];
  strided(mask & 0xffffu, lo, stride, out);
  strided(mask & 0xffff0000u, hi, stride, high);
  memcpy(out + 16, high + 16, 16 * sizeof *out);
}

static void pack(built *b) {
  trace_tb tb = {.nwarps = 1, .warps = &b->w};
  trace_tb_pack_addrs(&tb);
}

/* The form the definitions in trace_addrs.h give lanes l under mask: the first of stride,
 * halves and lanes that gives them back, found lane by lane. */
static int run_from(const uint64_t *l, uint32_t mask, int from, int to, uint64_t base,
                    uint64_t stride) {
  uint64_t k = 0;
  for (int lane = from; lane < to; lane++)
    if (l[lane] != (mask >> lane & 1 ? base + k++ * stride : 0)) return 0;
  return 1;
}

static int first_active(uint32_t mask, int from, int to) {
  for (int lane = from; lane < to; lane++)
    if (mask >> lane & 1) return lane;
  return -1;
}

static int second_active(uint32_t mask, int from, int to) {
  int f = first_active(mask, from, to);
  return f < 0 ? -1 : first_active(mask, f + 1, to);
}

static trace_addr_form reference_form(const uint64_t *l, uint32_t mask) {
  int a = first_active(mask, 0, 32), b = second_active(mask, 0, 32);
  uint64_t base = a < 0 ? 0 : l[a], stride = b < 0 ? 0 : l[b] - l[a];
  if (run_from(l, mask, 0, 32, base, stride)) return TRACE_ADDRS_STRIDE;
  int lo = first_active(mask, 0, 16), hi = first_active(mask, 16, 32);
  if (lo < 0 || hi < 0) return TRACE_ADDRS_LANES;
  /* the stride either half's first two lanes show (one lane in each half: one stride suits) */
  int lo2 = second_active(mask, 0, 16), hi2 = second_active(mask, 16, 32);
  stride = lo2 >= 0 ? l[lo2] - l[lo] : hi2 >= 0 ? l[hi2] - l[hi] : 0;
  if (run_from(l, mask, 0, 16, l[lo], stride) && run_from(l, mask, 16, 32, l[hi], stride))
    return TRACE_ADDRS_HALVES;
  return TRACE_ADDRS_LANES;
}

/* Every memory instruction reads back its lanes; counts the instructions of each form in
 * forms[] and checks the pool holds exactly the entries the forms need. */
static void check(const built *b, int forms[3]) {
  uint32_t entries = 0;
  forms[0] = forms[1] = forms[2] = 0;
  for (uint32_t i = 0; i < b->w.n; i++) {
    const trace_inst *in = &b->w.insts[i];
    if (!in->op->is_mem) continue;
    uint64_t buf[TRACE_WARP_SIZE];
    const uint64_t *got = trace_inst_addrs(&b->w, in, buf);
    for (int lane = 0; lane < TRACE_WARP_SIZE; lane++)
      if (got[lane] != b->want[i][lane])
        fail_msg("instruction %u lane %d: %#llx, expected %#llx", i, lane,
                 (unsigned long long)got[lane], (unsigned long long)b->want[i][lane]);
    forms[in->addr_form]++;
    entries += trace_addrs_entries(in->addr_form);
  }
  assert_int_equal(b->w.naddrs, entries);
}

/* Each memory instruction took the form the reference gives its lanes. */
static void assert_reference_forms(const built *b) {
  for (uint32_t i = 0; i < b->w.n; i++)
    if (b->w.insts[i].op->is_mem)
      assert_int_equal(b->w.insts[i].addr_form, reference_form(b->want[i], b->w.insts[i].mask));
}

static void finish(built *b) {
  free(b->w.insts);
  free(b->w.addrs);
}

static void test_directed_forms(void **state) {
  (void)state;
  built b;
  start(&b);
  uint64_t l[TRACE_WARP_SIZE];
  strided(0xffffffffu, 0x7f0000001000ull, 4, l); /* coalesced */
  add_mem(&b, 0xffffffffu, l);
  add_alu(&b);
  strided(0xffffffffu, 0x2000, 0, l); /* broadcast */
  add_mem(&b, 0xffffffffu, l);
  strided(0x0000fff0u, 0x3000, (uint64_t)-8, l); /* part of the warp, walking down */
  add_mem(&b, 0x0000fff0u, l);
  strided(0x80000000u, 0xdead0, 0, l); /* one lane */
  add_mem(&b, 0x80000000u, l);
  strided(0xf0f0f0f0u, UINT64_MAX - 40, 16, l); /* the sum wraps, as uint64_t arithmetic does */
  add_mem(&b, 0xf0f0f0f0u, l);
  strided(0x0000000fu, 0, 128, l); /* an active lane at address 0 */
  add_mem(&b, 0x0000000fu, l);
  add_mem(&b, 0, (uint64_t[TRACE_WARP_SIZE]){0}); /* no active lane */
  strided(0xffffffffu, 0x4000, 4, l); /* one lane off the pattern: all 32 kept */
  l[17] += 4;
  add_mem(&b, 0xffffffffu, l);
  strided(0x0000ffffu, 0x5000, 4, l); /* an inactive lane not 0: all 32 kept */
  l[20] = 0x99;
  add_mem(&b, 0x0000ffffu, l);
  for (int lane = 0; lane < TRACE_WARP_SIZE; lane++) l[lane] = 0x6000 + (uint64_t)(lane * lane);
  add_mem(&b, 0xffffffffu, l); /* scattered */
  add_alu(&b);
  halves(0xffffffffu, 0x7000, 0x7000 + 1280, 4, l); /* two rows of a 16-wide tile */
  add_mem(&b, 0xffffffffu, l);
  halves(0x0ff00ff0u, 0x8000, 0x8800, 16, l); /* part of each half */
  add_mem(&b, 0x0ff00ff0u, l);
  halves(0xffff0001u, 0x9000, 0xa000, 8, l); /* one lane low, the stride from the high half */
  add_mem(&b, 0xffff0001u, l);
  halves(0xffffffffu, 0xc000, 0xd000, (uint64_t)-8, l); /* walking down */
  add_mem(&b, 0xffffffffu, l);
  halves(0x00010001u, 0xe000, 0xf000, 0, l); /* a lane in each half: a base and a stride */
  add_mem(&b, 0x00010001u, l);
  halves(0xffffffffu, 0x10000, 0x11000, 4, l); /* the halves at different strides: all 32 */
  for (int lane = 17; lane < 32; lane++) l[lane] += 4 * (uint64_t)(lane - 16);
  add_mem(&b, 0xffffffffu, l);
  halves(0x00ff00ffu, 0x12000, 0x13000, 4, l); /* an inactive lane not 0: all 32 kept */
  l[8] = 5;
  add_mem(&b, 0x00ff00ffu, l);
  uint32_t before = b.w.naddrs;
  enum { ENTRIES = 8 * 2 + 4 * 3 + 5 * TRACE_WARP_SIZE };
  pack(&b);
  int forms[3];
  check(&b, forms);
  assert_reference_forms(&b);
  assert_int_equal(forms[TRACE_ADDRS_STRIDE], 8);
  assert_int_equal(forms[TRACE_ADDRS_HALVES], 4);
  assert_int_equal(forms[TRACE_ADDRS_LANES], 5);
  assert_int_equal(b.w.naddrs, ENTRIES);
  assert_true(b.w.naddrs < before);
  /* the forms: in order (the reference above gives the same) */
  static const uint8_t form[] = {1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 2, 2, 2, 1, 0, 0};
  for (uint32_t i = 0; i < b.w.n; i++)
    if (b.w.insts[i].op->is_mem) assert_int_equal(b.w.insts[i].addr_form, form[i]);
  /* Packing again changes nothing. */
  uint64_t copy[ENTRIES];
  memcpy(copy, b.w.addrs, sizeof copy);
  pack(&b);
  assert_int_equal(b.w.naddrs, ENTRIES);
  assert_memory_equal(copy, b.w.addrs, sizeof copy);
  check(&b, forms);
  finish(&b);
}

/* Random masks, bases and strides, as one run or as two half-warp runs, a third of them
 * disturbed off the pattern: each instruction takes the form the reference gives it, and every
 * form turns up. */
static void test_random_round_trip(void **state) {
  (void)state;
  uint64_t x = 0x9e3779b97f4a7c15ull;
  int total[3] = {0, 0, 0};
  for (int round = 0; round < 200; round++) {
    built b;
    start(&b);
    for (int i = 0; i < MAXI; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      if (x % 5 == 0) {
        add_alu(&b);
        continue;
      }
      uint32_t mask = x % 3 == 0 ? 0xffffffffu : (uint32_t)(x >> 11);
      uint64_t stride = (x >> 40) % 7 == 0 ? 0 : (uint64_t)(int64_t)(int16_t)(x >> 24);
      uint64_t l[TRACE_WARP_SIZE];
      if ((x >> 30) % 2) halves(mask, x >> 3, (x >> 3) + (x >> 44), stride, l);
      else strided(mask, x >> 3, stride, l);
      if ((x >> 50) % 3 == 0 && mask) l[__builtin_ctz(mask)] ^= 1ull << (x >> 58);
      add_mem(&b, mask, l);
    }
    pack(&b);
    int forms[3];
    check(&b, forms);
    assert_reference_forms(&b);
    for (int f = 0; f < 3; f++) total[f] += forms[f];
    finish(&b);
  }
  for (int f = 0; f < 3; f++) assert_true(total[f] > 500);
}

/* Offsets out of instruction order (no reader lays a pool out so): left alone, still exact. */
static void test_unusual_layout_left_alone(void **state) {
  (void)state;
  built b;
  start(&b);
  uint64_t l[TRACE_WARP_SIZE];
  strided(0xffffffffu, 0x1000, 4, l);
  add_mem(&b, 0xffffffffu, l);
  strided(0xffffffffu, 0x2000, 8, l);
  add_mem(&b, 0xffffffffu, l);
  b.w.insts[0].addr_off = TRACE_WARP_SIZE; /* swap the two instructions' entries */
  b.w.insts[1].addr_off = 0;
  memcpy(b.want[0], b.w.addrs + TRACE_WARP_SIZE, sizeof b.want[0]);
  memcpy(b.want[1], b.w.addrs, sizeof b.want[1]);
  pack(&b);
  assert_int_equal(b.w.naddrs, 2 * TRACE_WARP_SIZE);
  int forms[3];
  check(&b, forms);
  assert_int_equal(forms[TRACE_ADDRS_LANES], 2);
  finish(&b);
}

/* A kernel of one thread block in `dir`: warp 0 base-stride (every lane, then half the lanes
 * of a shared load) and base-delta whose deltas are one stride after the first (a pattern the
 * format did not see); warp 1 base-delta, scattered, then two rows of a 16-wide tile (the
 * halves form); warp 2 the same deltas as warp 1's from other bases (the reader's memo of
 * them gives their form). Its path goes to path. */
static void write_kernel(const char *dir, char *path, size_t n) {
  char deltas[256] = "-4", rows[256] = "4";
  for (int lane = 2; lane < TRACE_WARP_SIZE; lane++) strcat(deltas, " 4");
  for (int lane = 2; lane < TRACE_WARP_SIZE; lane++) strcat(rows, lane == 16 ? " 1220" : " 4");
  char text[4096];
  snprintf(text, sizeof text,
           "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (96,1,1)\n"
           "-shmem = 0\n-nregs = 8\n-binary version = 70\n-cuda stream id = 0\n"
           "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
           "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
           "#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
           "[adrrescompress?] [mem_addresses]\n\n"
           "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 4\n"
           "0000 ffffffff 1 R1 LDG.E.SYS 1 R2 4 1 0x7f0000010000 4\n"
           "0010 0000ff00 1 R3 LDS 1 R4 4 1 0x7f0000000100 0\n"
           "0020 ffffffff 1 R5 LDG.E.SYS 1 R2 4 2 0x7f0000020000 %s\n"
           "0030 ffffffff 0 EXIT 0 0\n\n"
           "warp = 1\ninsts = 3\n"
           "0000 0000000f 1 R1 LDG.E.SYS 1 R2 4 2 0x7f0000030000 100 -7 3\n"
           "0010 ffffffff 1 R3 LDS.U 1 R4 4 2 0x400 %s\n"
           "0030 ffffffff 0 EXIT 0 0\n\n"
           "warp = 2\ninsts = 3\n"
           "0000 0000000f 1 R1 LDG.E.SYS 1 R2 4 2 0x7f0000038000 100 -7 3\n"
           "0010 ffffffff 1 R3 LDS.U 1 R4 4 2 0x800 %s\n"
           "0030 ffffffff 0 EXIT 0 0\n\n#END_TB\n",
           deltas, rows, rows);
  assert_int_equal(tu_write(dir, "kernel-1.traceg", text), 0);
  snprintf(path, n, "%s/kernel-1.traceg", dir);
}

/* The kernel's one block, read as `mode` says into `cache`, its addresses packed by the reader
 * if `pack`. */
static void read_block(const char *path, trace_cache_mode mode, const char *cache, int pack,
                       trace_tb *tb) {
  trace_cache_opts o = {mode, cache, 0};
  trace_kernel *k;
  rf_diag d = {0};
  assert_int_equal(trace_kernel_open_cached(path, &o, &k, &d), 0);
  assert_int_equal(trace_kernel_reads_cache(k), mode == TRACE_CACHE_ON);
  if (pack) trace_kernel_pack_addrs(k);
  assert_int_equal(trace_kernel_next_tb(k, tb, &d), 1);
  trace_tb end;
  /* the end: a cache being written is kept */
  assert_int_equal(trace_kernel_next_tb(k, &end, &d), 0);
  trace_kernel_close(k);
}

/* A thread block through the reader: packed, every instruction reads back what the unpacked
 * copy holds, in both of the trace format's address encodings, with a scattered list and with
 * a tile's two rows. */
static void test_through_the_reader(void **state) {
  (void)state;
  char dir[256], path[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  write_kernel(dir, path, sizeof path);
  trace_tb tb;
  read_block(path, TRACE_CACHE_OFF, NULL, 0, &tb);
  /* The unpacked copy. */
  uint64_t orig[3][4][TRACE_WARP_SIZE];
  memset(orig, 0, sizeof orig);
  for (int w = 0; w < tb.nwarps; w++)
    for (uint32_t i = 0; i < tb.warps[w].n; i++)
      if (tb.warps[w].insts[i].op->is_mem)
        memcpy(orig[w][i], tb.warps[w].addrs + tb.warps[w].insts[i].addr_off, sizeof orig[w][i]);
  trace_tb_pack_addrs(&tb);
  int forms[3] = {0, 0, 0};
  for (int w = 0; w < tb.nwarps; w++)
    for (uint32_t i = 0; i < tb.warps[w].n; i++) {
      const trace_inst *in = &tb.warps[w].insts[i];
      if (!in->op->is_mem) continue;
      forms[in->addr_form]++;
      uint64_t buf[TRACE_WARP_SIZE];
      assert_memory_equal(trace_inst_addrs(&tb.warps[w], in, buf), orig[w][i],
                          sizeof orig[w][i]);
    }
  /* the first base-delta line and the scattered, twice; the tile's rows twice */
  assert_int_equal(forms[TRACE_ADDRS_LANES], 3);
  assert_int_equal(forms[TRACE_ADDRS_STRIDE], 2);
  assert_int_equal(forms[TRACE_ADDRS_HALVES], 2);
  trace_tb_free(&tb);
  tu_rmtree(dir);
}

/* Equal blocks, down to where each instruction's addresses lie in the pool. */
static void assert_same_packing(const trace_tb *a, const trace_tb *b) {
  tu_assert_same_tb(a, b); /* instructions, offsets, pools */
  for (int w = 0; w < a->nwarps; w++)
    for (uint32_t i = 0; i < a->warps[w].n; i++)
      assert_int_equal(a->warps[w].insts[i].addr_form, b->warps[w].insts[i].addr_form);
}

/* The reader packs as trace_tb_pack_addrs does, whether the block comes from the text (while
 * writing the cache, or not) or from the binary cache, whose decoder keeps its stride and
 * halves forms packed instead of spreading them over 32 lanes; and a cache written from a
 * packed block reads
 * back unpacked as the text does. */
static void test_reader_packs(void **state) {
  (void)state;
  char dir[256], path[512], cache[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  write_kernel(dir, path, sizeof path);
  snprintf(cache, sizeof cache, "%s/cache", dir);
  trace_tb want, text, lanes, got;
  read_block(path, TRACE_CACHE_OFF, NULL, 0, &want);
  read_block(path, TRACE_CACHE_OFF, NULL, 0, &text); /* kept unpacked */
  trace_tb_pack_addrs(&want);
  read_block(path, TRACE_CACHE_OFF, NULL, 1, &got);
  assert_same_packing(&want, &got);
  trace_tb_free(&got);
  read_block(path, TRACE_CACHE_REBUILD, cache, 1, &got); /* from the text, writing the cache */
  assert_same_packing(&want, &got);
  trace_tb_free(&got);
  read_block(path, TRACE_CACHE_ON, cache, 1, &got); /* decoded packed */
  assert_same_packing(&want, &got);
  trace_tb_free(&got);
  read_block(path, TRACE_CACHE_ON, cache, 0, &lanes); /* decoded as 32 lanes */
  assert_same_packing(&text, &lanes);
  /* the encoder takes a packed form as the encoding the lanes would choose */
  tc_buf packed = {0}, unpacked = {0};
  rf_diag d = {0};
  assert_int_equal(tc_encode_tb(&want, &packed, &d), 0);
  assert_int_equal(tc_encode_tb(&text, &unpacked, &d), 0);
  assert_int_equal(packed.n, unpacked.n);
  assert_memory_equal(packed.p, unpacked.p, packed.n);
  free(packed.p);
  free(unpacked.p);
  trace_tb_free(&lanes);
  trace_tb_free(&text);
  trace_tb_free(&want);
  tu_rmtree(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directed_forms),
      cmocka_unit_test(test_random_round_trip),
      cmocka_unit_test(test_unusual_layout_left_alone),
      cmocka_unit_test(test_through_the_reader),
      cmocka_unit_test(test_reader_packs),
  };
  return cmocka_run_group_tests_name("packed lane addresses", tests, NULL, NULL);
}
