/* Memory hierarchy: coalescer, shared-memory banks, L1D, and the whole memory system, driven
 * by directed address streams with expected results worked out from the config below. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "../csim/mem/cache_tags.h"
#include "../csim/mem/mem.h"
#include "../csim/mem/memsys_debug.h"
#include "../csim/trace/trace.h"

/* GTX 480-like values, set by hand (config_defaults belongs to another module):
 * L1 "32:128:4,L:L:m:N,A:32:8,8", L2 "64:128:8,L:B:m:W,A:32:4,4" per slice, 6 channels x 2
 * sub-partitions, clocks 700:700:700:924 MHz, GDDR5 timing. */
static void gtx480(gpu_config *c) {
  memset(c, 0, sizeof *c);
  c->n_clusters = 15;
  c->n_cores_per_cluster = 1;
  c->n_mem = 6;
  c->n_sub_partition_per_mchannel = 2;
  c->warp_size = 32;
  c->shmem_num_banks = 32;
  c->l1d = (cache_config){.enabled = 1, .nsets = 32, .line_size = 128, .assoc = 4,
                          .replacement = 'L', .write_policy = 'L', .alloc_policy = 'm',
                          .write_alloc = 'N', .set_index_fn = 'L', .mshr_type = 'A',
                          .mshr_entries = 32, .mshr_max_merge = 8, .miss_queue_size = 8};
  c->l2 = (cache_config){.enabled = 1, .nsets = 64, .line_size = 128, .assoc = 8,
                         .replacement = 'L', .write_policy = 'B', .alloc_policy = 'm',
                         .write_alloc = 'W', .set_index_fn = 'L', .mshr_type = 'A',
                         .mshr_entries = 32, .mshr_max_merge = 4, .miss_queue_size = 4};
  c->l1_latency = 20;
  c->l2_rop_latency = 120;
  c->dram_latency = 100;
  c->icnt_latency = 8;
  c->icnt_flit_size = 32;
  c->clk_core = c->clk_icnt = c->clk_l2 = 700;
  c->clk_dram = 924;
  c->dram = (dram_timing){.nbk = 16, .tCCD = 2, .tRRD = 6, .tRCD = 12, .tRAS = 28, .tRP = 12,
                          .tRC = 40, .CL = 12, .WL = 4, .tCDLR = 5, .tWR = 12, .nbkgrp = 1};
  c->dram_buswidth = 4;
  c->dram_burst_length = 8;
  c->dram_data_command_freq_ratio = 2;
  c->dram_sched_queue_size = 16;
  c->dram_scheduler = 1;
  c->dram_row_bytes = 2048;
  c->mem_chunk_bytes = 256;
}

static mem_access acc(uint64_t addr, uint8_t mask, uint32_t token, int write, uint8_t space) {
  return (mem_access){.addr = addr, .sector_mask = mask, .token = token,
                      .is_write = (uint8_t)write, .space = space};
}

/* ---- coalescer ---- */

static void test_coalesce_full_warp(void **state) {
  (void)state;
  uint64_t a[32];
  for (int i = 0; i < 32; i++) a[i] = 0x1000 + 4u * (unsigned)i;
  mem_access out[64];
  assert_int_equal(mem_coalesce(a, 0xffffffffu, 4, 128, out, 64), 1);
  assert_int_equal(out[0].addr, 0x1000);
  assert_int_equal(out[0].sector_mask, 0xF);
}

static void test_coalesce_stride_128(void **state) {
  (void)state;
  uint64_t a[32];
  for (int i = 0; i < 32; i++) a[i] = 0x10000 + 128u * (unsigned)i + 40;
  mem_access out[64];
  assert_int_equal(mem_coalesce(a, 0xffffffffu, 4, 128, out, 64), 32);
  for (int i = 0; i < 32; i++) {
    assert_int_equal(out[i].addr, 0x10000 + 128u * (unsigned)i);
    assert_int_equal(out[i].sector_mask, 0x2); /* byte 40 is in sector 1 */
  }
}

static void test_coalesce_straddle(void **state) {
  (void)state;
  uint64_t a[32] = {0};
  a[0] = 0x107C; /* 8 bytes: 0x107C..0x1083 crosses into the next line */
  mem_access out[64];
  assert_int_equal(mem_coalesce(a, 0x1, 8, 128, out, 64), 2);
  assert_int_equal(out[0].addr, 0x1000);
  assert_int_equal(out[0].sector_mask, 0x8);
  assert_int_equal(out[1].addr, 0x1080);
  assert_int_equal(out[1].sector_mask, 0x1);
}

static void test_coalesce_inactive_lanes(void **state) {
  (void)state;
  uint64_t a[32];
  for (int i = 0; i < 32; i++) a[i] = i < 16 ? 0x2000 + 4u * (unsigned)i : 0xdead0000u;
  mem_access out[64];
  assert_int_equal(mem_coalesce(a, 0x0000ffffu, 4, 128, out, 64), 1);
  assert_int_equal(out[0].addr, 0x2000);
  assert_int_equal(out[0].sector_mask, 0x3);
  assert_int_equal(mem_coalesce(a, 0, 4, 128, out, 64), 0);
}

static void test_coalesce_width16_and_order(void **state) {
  (void)state;
  uint64_t a[32];
  for (int i = 0; i < 32; i++) a[i] = 0x4000 + 16u * (unsigned)i;
  mem_access out[64];
  assert_int_equal(mem_coalesce(a, 0xffffffffu, 16, 128, out, 64), 4);
  for (int i = 0; i < 4; i++) {
    assert_int_equal(out[i].addr, 0x4000 + 128u * (unsigned)i);
    assert_int_equal(out[i].sector_mask, 0xF);
  }
  /* First touch decides the order: lane 0 touches the higher line. */
  a[0] = 0x9000;
  a[1] = 0x8000;
  a[2] = 0x9020;
  assert_int_equal(mem_coalesce(a, 0x7, 4, 128, out, 64), 2);
  assert_int_equal(out[0].addr, 0x9000);
  assert_int_equal(out[0].sector_mask, 0x3);
  assert_int_equal(out[1].addr, 0x8000);
  /* Too little room is an error, not a silent truncation. */
  assert_int_equal(mem_coalesce(a, 0x7, 4, 128, out, 1), -1);
}

/* ---- shared memory banks ---- */

static int passes_stride(uint64_t stride_bytes, int width) {
  uint64_t a[32];
  for (int i = 0; i < 32; i++) a[i] = 0x100 + stride_bytes * (uint64_t)i;
  return mem_shared_passes(a, 0xffffffffu, width, 32);
}

static void test_bank_conflicts(void **state) {
  (void)state;
  assert_int_equal(passes_stride(4, 4), 1);
  assert_int_equal(passes_stride(8, 4), 2);
  assert_int_equal(passes_stride(12, 4), 1); /* odd strides are conflict-free */
  assert_int_equal(passes_stride(0, 4), 1);  /* one word: broadcast */
  assert_int_equal(passes_stride(128, 4), 32);
  assert_int_equal(passes_stride(8, 8), 2);   /* 64 words over 32 banks */
  assert_int_equal(passes_stride(16, 16), 4); /* 128 words over 32 banks */
  uint64_t a[32] = {0};
  assert_int_equal(mem_shared_passes(a, 0, 4, 32), 0);
  a[0] = 0;
  a[1] = 128; /* same bank, different words */
  a[2] = 0;   /* same word as lane 0 */
  assert_int_equal(mem_shared_passes(a, 0x7, 4, 32), 2);
}

/* The definition, word by word: each distinct word adds a pass to its bank; the deepest bank
 * is the answer. Quadratic, for checking the fast paths of mem_shared_passes. */
static int passes_reference(const uint64_t *a, uint32_t mask, int width, int banks) {
  uint64_t words[32 * 17];
  int n = 0, depth[64] = {0}, passes = 0;
  for (int lane = 0; lane < 32; lane++) {
    if (!(mask >> lane & 1)) continue;
    for (uint64_t w = a[lane] / 4; w <= (a[lane] + (uint64_t)width - 1) / 4; w++) {
      int dup = 0;
      for (int i = 0; i < n && !dup; i++) dup = words[i] == w;
      if (dup) continue;
      words[n++] = w;
      int b = (int)(w % (uint64_t)banks);
      if (++depth[b] > passes) passes = depth[b];
    }
  }
  return passes;
}

static void test_bank_conflicts_match_reference(void **state) {
  (void)state;
  static const int widths[] = {1, 2, 4, 8, 12, 16};
  static const uint64_t strides[] = {0, 1, 2, 4, 8, 12, 16, 32, 36, 64, 128};
  static const uint32_t masks[] = {0xffffffffu, 0x1u, 0x80000000u, 0x0000ffffu, 0xffff0000u,
                                   0x55555555u, 0x00f0f00fu};
  static const int banks[] = {16, 32, 7};
  uint64_t seed = 12345;
  int checked = 0;
  for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++)
    for (size_t si = 0; si < sizeof strides / sizeof *strides; si++)
      for (size_t mi = 0; mi < sizeof masks / sizeof *masks; mi++)
        for (size_t bi = 0; bi < sizeof banks / sizeof *banks; bi++)
          for (uint64_t base = 0x1000; base < 0x1008; base += 2) {
            uint64_t a[32] = {0};
            int k = 0;
            for (int lane = 0; lane < 32; lane++)
              if (masks[mi] >> lane & 1) a[lane] = base + strides[si] * (uint64_t)k++;
            int want = passes_reference(a, masks[mi], widths[wi], banks[bi]);
            assert_int_equal(mem_shared_passes(a, masks[mi], widths[wi], banks[bi]), want);
            /* the same with one lane moved: no longer regular */
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            int lane = __builtin_ctz(masks[mi]) + (int)(seed >> 60) % 2;
            if (lane < 32 && (masks[mi] >> lane & 1)) a[lane] += 4 * ((seed >> 40) % 64);
            want = passes_reference(a, masks[mi], widths[wi], banks[bi]);
            assert_int_equal(mem_shared_passes(a, masks[mi], widths[wi], banks[bi]), want);
            checked += 2;
          }
  assert_true(checked > 5000);
}

/* ---- L1D ---- */

static l1d *make_l1(const gpu_config *c) {
  rf_diag d = {{0}, 0};
  l1d *l = l1d_create(c, 3, &d);
  if (!l) fprintf(stderr, "%s\n", d.msg);
  assert_non_null(l);
  return l;
}

/* Loads `addr`; on a miss, hands the fetch straight back as the fill at the same cycle. */
static l1_result load_fill(l1d *l, uint64_t addr, uint32_t token, uint64_t t) {
  mem_access a = acc(addr, 0xF, token, 0, SPACE_GLOBAL), out;
  l1_result r = l1d_access(l, &a, t);
  while (l1d_peek_outgoing(l, &out)) {
    l1d_pop_outgoing(l);
    if (!out.is_write) l1d_fill(l, &out, t);
  }
  uint32_t tok;
  while (l1d_pop_done(l, t + 1000, &tok)) {
  }
  return r;
}

static void test_l1_hit_miss_latency(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  l1d *l = make_l1(&c);
  mem_access a = acc(0x1000, 0x1, 11, 0, SPACE_GLOBAL), out;
  assert_int_equal(l1d_access(l, &a, 5), L1_MISS);
  assert_true(l1d_peek_outgoing(l, &out));
  assert_int_equal(out.addr, 0x1000);
  assert_int_equal(out.sector_mask, 0xF); /* not sectored: the whole line is fetched */
  assert_int_equal(out.is_write, 0);
  assert_int_equal(out.sm, 3);
  l1d_pop_outgoing(l);
  assert_false(l1d_peek_outgoing(l, &out));
  uint32_t tok = 0;
  assert_false(l1d_pop_done(l, 1000, &tok));
  assert_true(l1d_busy(l));
  l1d_fill(l, &out, 50);
  assert_false(l1d_pop_done(l, 49, &tok));
  assert_true(l1d_pop_done(l, 50, &tok)); /* fill time + 0 */
  assert_int_equal(tok, 11);
  assert_false(l1d_pop_done(l, 50, &tok));
  a = acc(0x1000, 0x2, 12, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &a, 60), L1_HIT);
  assert_false(l1d_pop_done(l, 79, &tok));
  assert_true(l1d_pop_done(l, 80, &tok)); /* 60 + l1_latency */
  assert_int_equal(tok, 12);
  const cache_stats *s = l1d_stats(l);
  assert_int_equal(s->accesses, 2);
  assert_int_equal(s->hits, 1);
  assert_int_equal(s->misses, 1);
  assert_int_equal(s->hit_reserved, 0);
  assert_false(l1d_busy(l));
  l1d_destroy(l);
}

/* l1d_invalidate (a MEMBAR under -gpgpu_flush_l1_cache 1): clean lines miss afterwards; a
 * line still being fetched is filled and then hits; dirty local data is kept. */
static void test_l1_invalidate(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  l1d *l = make_l1(&c);
  assert_int_equal(load_fill(l, 0x1000, 1, 10), L1_MISS);
  assert_int_equal(load_fill(l, 0x1000, 2, 20), L1_HIT);
  mem_access lw = acc(0x2000, 0xF, UINT32_MAX, 1, SPACE_LOCAL), out;
  l1d_access(l, &lw, 25); /* local write-back: allocates a dirty line */
  mem_access pend = acc(0x3000, 0xF, 3, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &pend, 26), L1_MISS);
  l1d_invalidate(l);
  assert_int_equal(load_fill(l, 0x1000, 4, 30), L1_MISS);
  mem_access lr = acc(0x2000, 0xF, 5, 0, SPACE_LOCAL);
  assert_int_equal(l1d_access(l, &lr, 40), L1_HIT);
  while (l1d_peek_outgoing(l, &out)) {
    l1d_pop_outgoing(l);
    if (!out.is_write && out.addr == 0x3000) l1d_fill(l, &out, 50);
  }
  mem_access again = acc(0x3000, 0xF, 6, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &again, 60), L1_HIT);
  l1d_destroy(l);
}

static void test_l1_merge_and_limit(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  l1d *l = make_l1(&c);
  mem_access a, out;
  for (uint32_t t = 1; t <= 8; t++) {
    a = acc(0x2000, 0x1, t, 0, SPACE_GLOBAL);
    assert_int_equal(l1d_access(l, &a, t), L1_MISS);
  }
  a = acc(0x2000, 0x1, 9, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &a, 9), L1_STALL); /* merge limit 8 */
  assert_true(l1d_peek_outgoing(l, &out));
  l1d_pop_outgoing(l);
  assert_false(l1d_peek_outgoing(l, &out)); /* one fetch for all eight */
  l1d_fill(l, &out, 100);
  uint32_t tok;
  for (uint32_t t = 1; t <= 8; t++) {
    assert_true(l1d_pop_done(l, 100, &tok));
    assert_int_equal(tok, t);
  }
  assert_false(l1d_pop_done(l, 100, &tok));
  assert_int_equal(l1d_access(l, &a, 101), L1_HIT);
  const cache_stats *s = l1d_stats(l);
  assert_int_equal(s->misses, 1);
  assert_int_equal(s->hit_reserved, 7);
  assert_int_equal(s->reservation_fails, 1);
  assert_int_equal(s->hits, 1);
  assert_int_equal(s->accesses, 9);
  l1d_destroy(l);
}

/* Lines k * 4096 all map to set 0 of the linear-indexed 32-set L1. */
#define SET0(k) ((uint64_t)(k) * 4096u)

static void test_l1_lru_order(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  l1d *l = make_l1(&c);
  uint64_t t = 1;
  for (int k = 0; k < 4; k++) assert_int_equal(load_fill(l, SET0(k), 0, t++), L1_MISS);
  assert_int_equal(load_fill(l, SET0(0), 0, t++), L1_HIT); /* A becomes MRU */
  assert_int_equal(load_fill(l, SET0(4), 0, t++), L1_MISS); /* E evicts B, the LRU */
  assert_int_equal(load_fill(l, SET0(0), 0, t++), L1_HIT);
  assert_int_equal(load_fill(l, SET0(2), 0, t++), L1_HIT);
  assert_int_equal(load_fill(l, SET0(3), 0, t++), L1_HIT);
  assert_int_equal(load_fill(l, SET0(4), 0, t++), L1_HIT);
  assert_int_equal(load_fill(l, SET0(1), 0, t++), L1_MISS); /* B evicts A */
  assert_int_equal(load_fill(l, SET0(0), 0, t++), L1_MISS);
  assert_int_equal(load_fill(l, 0x80, 0, t++), L1_MISS); /* set 1 is untouched */
  l1d_destroy(l);
}

static void test_l1_fifo_order(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  c.l1d.replacement = 'F';
  l1d *l = make_l1(&c);
  uint64_t t = 1;
  for (int k = 0; k < 4; k++) assert_int_equal(load_fill(l, SET0(k), 0, t++), L1_MISS);
  assert_int_equal(load_fill(l, SET0(0), 0, t++), L1_HIT);  /* a use does not reorder */
  assert_int_equal(load_fill(l, SET0(4), 0, t++), L1_MISS); /* E evicts A, the first in */
  assert_int_equal(load_fill(l, SET0(1), 0, t++), L1_HIT);
  assert_int_equal(load_fill(l, SET0(2), 0, t++), L1_HIT);
  assert_int_equal(load_fill(l, SET0(3), 0, t++), L1_HIT);
  assert_int_equal(load_fill(l, SET0(0), 0, t++), L1_MISS); /* A evicts B */
  assert_int_equal(load_fill(l, SET0(1), 0, t++), L1_MISS);
  l1d_destroy(l);
}

static void test_l1_mshr_full(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  c.l1d.mshr_entries = 2;
  l1d *l = make_l1(&c);
  mem_access a = acc(0x0, 0xF, 1, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &a, 1), L1_MISS);
  a.addr = 0x80;
  assert_int_equal(l1d_access(l, &a, 1), L1_MISS);
  a.addr = 0x100;
  assert_int_equal(l1d_access(l, &a, 1), L1_STALL);
  a.addr = 0x0; /* merging into a pending line needs no new entry */
  assert_int_equal(l1d_access(l, &a, 1), L1_MISS);
  assert_int_equal(l1d_stats(l)->reservation_fails, 1);
  assert_int_equal(l1d_stats(l)->hit_reserved, 1);
  l1d_destroy(l);
}

static void test_l1_miss_queue_full(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  c.l1d.miss_queue_size = 2;
  l1d *l = make_l1(&c);
  mem_access a = acc(0x0, 0xF, 1, 0, SPACE_GLOBAL), out;
  assert_int_equal(l1d_access(l, &a, 1), L1_MISS);
  a.addr = 0x80;
  assert_int_equal(l1d_access(l, &a, 1), L1_MISS);
  a.addr = 0x100;
  assert_int_equal(l1d_access(l, &a, 1), L1_STALL);
  /* A global store needs the queue too. */
  mem_access st = acc(0x200, 0x1, 0, 1, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &st, 1), L1_STALL);
  assert_true(l1d_peek_outgoing(l, &out));
  assert_int_equal(out.addr, 0x0);
  l1d_pop_outgoing(l);
  assert_int_equal(l1d_access(l, &a, 2), L1_MISS);
  assert_int_equal(l1d_stats(l)->reservation_fails, 2);
  l1d_destroy(l);
}

static void test_l1_global_write_through(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  l1d *l = make_l1(&c);
  mem_access out;
  assert_int_equal(load_fill(l, 0x3000, 1, 1), L1_MISS);
  mem_access st = acc(0x3000, 0x1, 77, 1, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &st, 2), L1_HIT);
  assert_true(l1d_peek_outgoing(l, &out)); /* written through */
  assert_int_equal(out.addr, 0x3000);
  assert_int_equal(out.sector_mask, 0x1);
  assert_int_equal(out.is_write, 1);
  l1d_pop_outgoing(l);
  mem_access ld = acc(0x3000, 0xF, 2, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &ld, 3), L1_HIT); /* the line was updated, not evicted */
  st.addr = 0x5000;
  assert_int_equal(l1d_access(l, &st, 4), L1_MISS);
  assert_true(l1d_peek_outgoing(l, &out));
  assert_int_equal(out.is_write, 1);
  l1d_pop_outgoing(l);
  ld.addr = 0x5000; /* no write-allocate: still a miss */
  assert_int_equal(l1d_access(l, &ld, 5), L1_MISS);
  uint32_t tok;
  assert_true(l1d_pop_done(l, 100, &tok)); /* only the load hit completes */
  assert_int_equal(tok, 2);
  assert_false(l1d_pop_done(l, 100, &tok));
  assert_int_equal(l1d_stats(l)->writes, 2);
  assert_int_equal(l1d_stats(l)->write_hits, 1);
  l1d_destroy(l);
}

static void test_l1_write_evict_policy(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  c.l1d.write_policy = 'E';
  l1d *l = make_l1(&c);
  assert_int_equal(load_fill(l, 0x3000, 1, 1), L1_MISS);
  mem_access st = acc(0x3000, 0x1, 0, 1, SPACE_GLOBAL), out;
  assert_int_equal(l1d_access(l, &st, 2), L1_HIT);
  assert_true(l1d_peek_outgoing(l, &out));
  l1d_pop_outgoing(l);
  mem_access ld = acc(0x3000, 0x1, 2, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &ld, 3), L1_MISS); /* the written sector was dropped */
  ld.sector_mask = 0x2;
  assert_int_equal(l1d_access(l, &ld, 3), L1_HIT); /* the others stay */
  l1d_destroy(l);
}

static void test_l1_local_write_back(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  l1d *l = make_l1(&c);
  mem_access st = acc(SET0(0), 0xF, 0, 1, SPACE_LOCAL), out;
  assert_int_equal(l1d_access(l, &st, 1), L1_MISS);
  assert_false(l1d_peek_outgoing(l, &out)); /* absorbed: write-back with allocate */
  mem_access ld = acc(SET0(0), 0xF, 5, 0, SPACE_LOCAL);
  assert_int_equal(l1d_access(l, &ld, 2), L1_HIT);
  uint64_t t = 3;
  for (int k = 1; k < 4; k++) assert_int_equal(load_fill(l, SET0(k), 0, t++), L1_MISS);
  mem_access ld4 = acc(SET0(4), 0xF, 6, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &ld4, t), L1_MISS); /* evicts the dirty local line */
  assert_true(l1d_peek_outgoing(l, &out));
  assert_int_equal(out.addr, SET0(0));
  assert_int_equal(out.is_write, 1);
  assert_int_equal(out.sector_mask, 0xF);
  assert_int_equal(out.space, SPACE_LOCAL);
  assert_int_equal(out.sm, 3);
  l1d_pop_outgoing(l);
  assert_true(l1d_peek_outgoing(l, &out));
  assert_int_equal(out.addr, SET0(4));
  assert_int_equal(out.is_write, 0);
  l1d_destroy(l);
}

static void test_l1_sectored(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  c.l1d.sectored = 1;
  l1d *l = make_l1(&c);
  mem_access a = acc(0x6000, 0x1, 1, 0, SPACE_GLOBAL), f0, f1;
  assert_int_equal(l1d_access(l, &a, 1), L1_MISS);
  a = acc(0x6000, 0x2, 2, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &a, 1), L1_MISS); /* another sector: another fetch */
  a = acc(0x6000, 0x1, 3, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &a, 1), L1_MISS); /* rides on the first fetch */
  assert_true(l1d_peek_outgoing(l, &f0));
  l1d_pop_outgoing(l);
  assert_true(l1d_peek_outgoing(l, &f1));
  l1d_pop_outgoing(l);
  assert_int_equal(f0.sector_mask, 0x1);
  assert_int_equal(f1.sector_mask, 0x2);
  l1d_fill(l, &f0, 10);
  uint32_t tok;
  assert_true(l1d_pop_done(l, 10, &tok));
  assert_int_equal(tok, 1);
  assert_true(l1d_pop_done(l, 10, &tok));
  assert_int_equal(tok, 3);
  assert_false(l1d_pop_done(l, 10, &tok)); /* token 2 still waits for sector 1 */
  l1d_fill(l, &f1, 12);
  assert_true(l1d_pop_done(l, 12, &tok));
  assert_int_equal(tok, 2);
  a = acc(0x6000, 0x3, 4, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &a, 13), L1_HIT);
  a = acc(0x6000, 0x4, 5, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &a, 13), L1_MISS);
  const cache_stats *s = l1d_stats(l);
  assert_int_equal(s->misses, 3);
  assert_int_equal(s->hit_reserved, 1);
  assert_int_equal(s->hits, 1);
  l1d_destroy(l);
}

static void test_l1_disabled(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  memset(&c.l1d, 0, sizeof c.l1d);
  l1d *l = make_l1(&c);
  mem_access a = acc(0x7000, 0x1, 21, 0, SPACE_GLOBAL), o1, o2;
  assert_int_equal(l1d_access(l, &a, 1), L1_MISS);
  a.token = 22;
  assert_int_equal(l1d_access(l, &a, 1), L1_MISS); /* no merging without a cache */
  assert_true(l1d_peek_outgoing(l, &o1));
  l1d_pop_outgoing(l);
  assert_true(l1d_peek_outgoing(l, &o2));
  l1d_pop_outgoing(l);
  assert_int_equal(o1.token, 21);
  assert_int_equal(o2.token, 22);
  l1d_fill(l, &o2, 30);
  l1d_fill(l, &o1, 31);
  uint32_t tok;
  assert_true(l1d_pop_done(l, 31, &tok));
  assert_int_equal(tok, 22);
  assert_true(l1d_pop_done(l, 31, &tok));
  assert_int_equal(tok, 21);
  assert_false(l1d_busy(l));
  assert_int_equal(l1d_stats(l)->misses, 2);
  l1d_destroy(l);
}

static void test_set_index_functions(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  cache_tags lin, fermi;
  assert_int_equal(cache_tags_init(&lin, &c.l1d, "L1D", NULL), 0);
  c.l1d.set_index_fn = 'H';
  assert_int_equal(cache_tags_init(&fermi, &c.l1d, "L1D", NULL), 0);
  /* Stride 8 KB: every line in linear set 0; the Fermi hash folds bits 13-15 in. */
  for (uint64_t k = 0; k < 8; k++) {
    assert_int_equal(cache_tags_set(&lin, (k * 8192) >> 7), 0);
    assert_int_equal(cache_tags_set(&fermi, (k * 8192) >> 7), k);
  }
  assert_int_equal(cache_tags_set(&fermi, 0x80000 >> 7), 16); /* bit 19 -> index bit 4 */
  assert_int_equal(cache_tags_set(&fermi, 0x1080 >> 7), 1);   /* bit 12 ignored at 32 sets */
  cache_tags_free(&lin);
  cache_tags_free(&fermi);
}

static void test_l1_bad_configs(void **state) {
  (void)state;
  gpu_config c;
  rf_diag d = {{0}, 0};
  gtx480(&c);
  c.l1d.nsets = 0;
  assert_null(l1d_create(&c, 0, &d));
  assert_non_null(strstr(d.msg, "L1D"));
  gtx480(&c);
  c.l1d.assoc = 0;
  assert_null(l1d_create(&c, 0, &d));
  gtx480(&c);
  c.l1d.line_size = 96;
  assert_null(l1d_create(&c, 0, &d));
  assert_non_null(strstr(d.msg, "line size"));
  gtx480(&c);
  c.l1d.mshr_entries = 0;
  assert_null(l1d_create(&c, 0, &d));
  assert_non_null(strstr(d.msg, "MSHR"));
  gtx480(&c);
  c.l1d.miss_queue_size = 0;
  assert_null(l1d_create(&c, 0, &d));
  gtx480(&c);
  c.l1d.replacement = 'Q';
  assert_null(l1d_create(&c, 0, &d));
  gtx480(&c);
  c.l1d.nsets = 48; /* not a power of two: fine for a modulo index */
  l1d *l = l1d_create(&c, 0, &d);
  assert_non_null(l);
  l1d_destroy(l);
}

/* ---- memory system ---- */

static memsys *make_memsys(const gpu_config *c, int n_sms) {
  rf_diag d = {{0}, 0};
  memsys *m = memsys_create(c, n_sms, &d);
  if (!m) fprintf(stderr, "%s\n", d.msg);
  assert_non_null(m);
  return m;
}

/* Sends `a` from SM 0 at cycle `t0` and runs until its reply; returns the arrival cycle. */
static uint64_t round_trip(memsys *m, mem_access a, uint64_t t0) {
  assert_true(memsys_can_send(m, a.sm));
  memsys_send(m, &a, t0);
  for (uint64_t t = t0 + 1; t < t0 + 10000; t++) {
    memsys_cycle(m, t);
    mem_access r;
    if (memsys_pop_reply(m, a.sm, &r)) {
      assert_int_equal(r.token, a.token);
      assert_int_equal(r.addr, a.addr);
      return t;
    }
  }
  fail_msg("no reply");
  return 0;
}

static void drain(memsys *m, uint64_t *t) {
  for (int i = 0; i < 100000 && memsys_busy(m); i++) memsys_cycle(m, ++*t);
  assert_false(memsys_busy(m));
}

static double core_cycles(double cycles, double domain_mhz, double core_mhz) {
  return cycles * core_mhz / domain_mhz;
}

/* Zero-load read: request NoC (1 flit), ROP, DRAM (closed bank: tRCD + CL + 4 bursts +
 * dram_latency), reply NoC (8 + 128 bytes = 5 flits). Each of the four clock-domain crossings
 * may add up to one cycle. */
static void test_memsys_round_trip(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  memsys *m = make_memsys(&c, 15);
  mem_access a = acc(0x0, 0xF, 42, 0, SPACE_GLOBAL);
  uint64_t t = round_trip(m, a, 0);
  int burst_cycles = c.dram_burst_length / c.dram_data_command_freq_ratio;
  int reply_flits = (8 + 128 + c.icnt_flit_size - 1) / c.icnt_flit_size;
  double noc = core_cycles(2.0 * c.icnt_latency + reply_flits - 1, c.clk_icnt, c.clk_core);
  double rop = core_cycles(c.l2_rop_latency, c.clk_l2, c.clk_core);
  double dram = core_cycles(c.dram.tRCD + c.dram.CL + 4 * burst_cycles + c.dram_latency,
                            c.clk_dram, c.clk_core);
  double lower = noc + rop + dram;
  assert_true((double)t >= lower);
  assert_true((double)t <= lower + 4);
  const memsys_stats *s = memsys_get_stats(m);
  assert_int_equal(s->completed_reads, 1);
  assert_int_equal(s->total_read_latency, t);
  assert_int_equal(s->l2.misses, 1);
  assert_int_equal(s->dram.reads, 1);
  assert_int_equal(s->dram.row_misses, 1);
  assert_int_equal(s->icnt_requests, 1);
  assert_int_equal(s->icnt_replies, 1);
  /* The same line again: an L2 hit, no DRAM. */
  uint64_t t1 = round_trip(m, a, t + 10) - (t + 10);
  double hit_lower = noc + rop;
  assert_true((double)t1 >= hit_lower);
  assert_true((double)t1 <= hit_lower + 3);
  assert_int_equal(s->l2.hits, 1);
  assert_int_equal(s->dram.reads, 1);
  assert_false(memsys_busy(m));
  memsys_destroy(m);
}

/* Clock domains: 700 core cycles are exactly 924 DRAM cycles per channel, however the core
 * cycles are stepped. */
static void test_memsys_clocks_exact(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  memsys *m = make_memsys(&c, 1);
  memsys_cycle(m, 700);
  assert_int_equal(memsys_get_stats(m)->dram.total_cycles, 924 * 6);
  memsys_destroy(m);
  m = make_memsys(&c, 1);
  for (uint64_t t = 1; t <= 7000; t++) memsys_cycle(m, t);
  assert_int_equal(memsys_get_stats(m)->dram.total_cycles, 9240 * 6);
  memsys_destroy(m);
}

static void test_memsys_injection_backpressure(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  memsys *m = make_memsys(&c, 2);
  int sent = 0;
  while (memsys_can_send(m, 0) && sent < 100) {
    mem_access a = acc((uint64_t)sent * 128, 0xF, (uint32_t)sent, 0, SPACE_GLOBAL);
    memsys_send(m, &a, 0);
    sent++;
  }
  assert_int_equal(sent, 16);
  assert_true(memsys_can_send(m, 1)); /* per-SM queues */
  assert_false(memsys_can_send(m, 2)); /* no such SM */
  memsys_cycle(m, 1);
  assert_true(memsys_can_send(m, 0));
  uint64_t t = 1;
  int got = 0;
  while (got < 16 && t < 100000) {
    memsys_cycle(m, ++t);
    mem_access r;
    while (memsys_pop_reply(m, 0, &r)) got++;
  }
  assert_int_equal(got, 16);
  assert_false(memsys_busy(m));
  memsys_destroy(m);
}

/* Writes: a full-line store is absorbed by the write-back, write-allocate L2, so the read after
 * it hits and DRAM sees nothing. Nine dirty lines in one L2 set (8 ways) force one write-back:
 * lines 98304 bytes apart share slice 0 and set 0 (12 slices x 256-byte chunks x 32). */
static void test_memsys_writes(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  memsys *m = make_memsys(&c, 1);
  uint64_t t = 0;
  mem_access w = acc(0x0, 0xF, 0, 1, SPACE_GLOBAL);
  memsys_send(m, &w, t);
  drain(m, &t);
  const memsys_stats *s = memsys_get_stats(m);
  assert_int_equal(s->l2.writes, 1);
  assert_int_equal(s->dram.writes, 0);
  assert_int_equal(s->completed_reads, 0);
  round_trip(m, acc(0x0, 0xF, 1, 0, SPACE_GLOBAL), t);
  assert_int_equal(s->l2.hits, 1);
  assert_int_equal(s->dram.reads, 0);
  for (uint64_t k = 1; k <= 8; k++) {
    w.addr = k * 98304;
    while (!memsys_can_send(m, 0)) memsys_cycle(m, ++t);
    memsys_send(m, &w, t);
  }
  drain(m, &t);
  assert_int_equal(s->l2.writes, 9);
  assert_int_equal(s->dram.writes, 1);
  assert_int_equal(s->dram.reads, 0);
  memsys_destroy(m);
}

/* A store access with an acknowledgement token gets a data-less reply with that token once
 * the L2 takes it (GPGPU-Sim's WRITE_ACK; the SM's warp waits for it before finishing); a
 * write without one (an L1 write-back) gets none. Acknowledgements are not read latencies. */
static void test_memsys_write_acks(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  memsys *m = make_memsys(&c, 1);
  uint64_t t = 0;
  mem_access w = acc(0x0, 0xF, MEM_ACK_TOKEN | 7u, 1, SPACE_GLOBAL);
  uint64_t back = round_trip(m, w, t);
  assert_true(back > 20);
  const memsys_stats *s = memsys_get_stats(m);
  assert_int_equal(s->completed_reads, 0);
  assert_int_equal(s->icnt_replies, 1);
  t = back;
  drain(m, &t);
  mem_access r;
  w = acc(0x80, 0xF, 0, 1, SPACE_GLOBAL); /* token 0: a write-back */
  memsys_send(m, &w, t);
  drain(m, &t);
  assert_false(memsys_pop_reply(m, 0, &r));
  assert_int_equal(s->l2.writes, 2);
  memsys_destroy(m);
}

/* Atomics bypass the L1, are performed at L2 (a miss fetches the line), and complete through
 * l1d_pop_done with the SM's token. */
static void test_memsys_atomics(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  memsys *m = make_memsys(&c, 1);
  rf_diag d;
  l1d *l = l1d_create(&c, 0, &d);
  assert_non_null(l);
  uint64_t t = 0;
  int done = 0;
  for (uint32_t k = 0; k < 2; k++) {
    mem_access a = acc(0x8000, 0x1, 100 + k, 0, SPACE_GLOBAL);
    a.is_atomic = 1;
    assert_int_equal(l1d_access(l, &a, t), L1_MISS);
  }
  while (done < 2 && t < 10000) {
    memsys_cycle(m, ++t);
    mem_access r;
    while (memsys_pop_reply(m, 0, &r)) l1d_fill(l, &r, t);
    uint32_t tok;
    while (l1d_pop_done(l, t, &tok)) assert_int_equal(tok, 100u + (uint32_t)done++);
    mem_access o;
    while (l1d_peek_outgoing(l, &o) && memsys_can_send(m, 0)) {
      memsys_send(m, &o, t);
      l1d_pop_outgoing(l);
    }
  }
  assert_int_equal(done, 2);
  const memsys_stats *s = memsys_get_stats(m);
  assert_int_equal(s->completed_reads, 2);
  assert_int_equal(s->dram.reads, 1);
  assert_int_equal(s->l2.misses + s->l2.hit_reserved + s->l2.hits, 2);
  assert_int_equal(l1d_stats(l)->accesses, 0);
  assert_false(l1d_busy(l));
  drain(m, &t);
  l1d_destroy(l);
  memsys_destroy(m);
}

/* A small GPU: SMs with L1s driving the memory system with a pseudo-random mix of loads,
 * stores (global and local) and atomics, run until everything has drained. token_sum adds every
 * completed token and subtracts every issued one, so 0 means each load completed exactly once. */
typedef struct run_result {
  memsys_stats ms;
  cache_stats l1[4];
  uint64_t cycles, loads_done, loads_issued;
  uint64_t token_sum;
} run_result;

static void run_stream(const gpu_config *c, uint64_t seed, run_result *out) {
  enum { NSM = 4, NACC = 3000 };
  memset(out, 0, sizeof *out);
  memsys *m = make_memsys(c, NSM);
  l1d *l[NSM];
  for (int i = 0; i < NSM; i++) {
    l[i] = l1d_create(c, i, NULL);
    assert_non_null(l[i]);
  }
  uint64_t x = seed, t = 0;
  int issued[NSM] = {0};
  mem_access pending[NSM];
  int have[NSM] = {0};
  for (;;) {
    int live = 0;
    for (int i = 0; i < NSM; i++) live |= issued[i] < NACC || have[i] || l1d_busy(l[i]);
    if (!live && !memsys_busy(m)) break;
    assert_true(t < 2000000);
    t++;
    memsys_cycle(m, t);
    for (int i = 0; i < NSM; i++) {
      mem_access r;
      while (memsys_pop_reply(m, i, &r)) l1d_fill(l[i], &r, t);
      uint32_t tok;
      while (l1d_pop_done(l[i], t, &tok)) {
        out->loads_done++;
        out->token_sum += tok;
      }
      if (!have[i] && issued[i] < NACC) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t line = (x >> 8) % 4096; /* 512 KB footprint: misses in L1, some in L2 */
        int store = (x & 7) == 0;
        uint32_t token = (uint32_t)(i * NACC + issued[i]);
        pending[i] = acc(line * 128, (uint8_t)(1u << (x >> 4 & 3)), token, store,
                         (x & 0x30) == 0 ? SPACE_LOCAL : SPACE_GLOBAL);
        pending[i].is_atomic = (x & 0xff) == 0xff;
        have[i] = 1;
      }
      if (have[i] && l1d_access(l[i], &pending[i], t) != L1_STALL) {
        if (!pending[i].is_write || pending[i].is_atomic) {
          out->loads_issued++;
          out->token_sum -= pending[i].token;
        }
        have[i] = 0;
        issued[i]++;
      }
      mem_access o;
      while (l1d_peek_outgoing(l[i], &o) && memsys_can_send(m, i)) {
        memsys_send(m, &o, t);
        l1d_pop_outgoing(l[i]);
      }
    }
  }
  assert_int_equal(memsys_debug_residue(m), 0); /* idle means every queue is empty */
  out->ms = *memsys_get_stats(m);
  for (int i = 0; i < NSM; i++) {
    out->l1[i] = *l1d_stats(l[i]);
    l1d_destroy(l[i]);
  }
  out->cycles = t;
  memsys_destroy(m);
}

static void test_memsys_determinism_and_drain(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  run_result a, b;
  run_stream(&c, 0x9e3779b97f4a7c15ULL, &a);
  run_stream(&c, 0x9e3779b97f4a7c15ULL, &b);
  assert_memory_equal(&a, &b, sizeof a);
  assert_true(a.loads_issued > 0);
  assert_int_equal(a.loads_done, a.loads_issued); /* every load completed ... */
  assert_int_equal(a.token_sum, 0);               /* ... exactly once */
  assert_true(a.ms.l2.accesses > 0);
  assert_true(a.ms.dram.reads > 0);
  assert_true(a.ms.dram.row_hits + a.ms.dram.row_misses >= a.ms.dram.reads);
  assert_true(a.ms.dram.busy_cycles <= a.ms.dram.total_cycles);
  /* A different stream gives different results (the comparison above is not vacuous). */
  run_stream(&c, 12345, &b);
  assert_true(memcmp(&a.ms, &b.ms, sizeof a.ms) != 0);
  /* Same again with FIFO DRAM scheduling, a disabled L1 and a sectored L2: still drains. */
  c.dram_scheduler = 0;
  c.l2.sectored = 1;
  memset(&c.l1d, 0, sizeof c.l1d);
  run_stream(&c, 777, &b);
  assert_int_equal(b.loads_done, b.loads_issued);
  assert_int_equal(b.token_sum, 0);
  /* And with no L2 at all. */
  memset(&c.l2, 0, sizeof c.l2);
  run_stream(&c, 778, &b);
  assert_int_equal(b.loads_done, b.loads_issued);
  assert_int_equal(b.token_sum, 0);
  assert_int_equal(b.ms.l2.hits, 0);
}

static void test_memsys_disabled_l2(void **state) {
  (void)state;
  gpu_config c;
  gtx480(&c);
  memset(&c.l2, 0, sizeof c.l2);
  memsys *m = make_memsys(&c, 1);
  uint64_t t = round_trip(m, acc(0x400, 0xF, 9, 0, SPACE_GLOBAL), 0);
  uint64_t t2 = round_trip(m, acc(0x400, 0xF, 10, 0, SPACE_GLOBAL), t) - t;
  const memsys_stats *s = memsys_get_stats(m);
  assert_int_equal(s->dram.reads, 2); /* nothing cached */
  assert_int_equal(s->dram.row_hits, 1);
  assert_true(t2 < t); /* the second read finds its row open */
  assert_false(memsys_busy(m));
  assert_int_equal(memsys_debug_residue(m), 0);
  memsys_destroy(m);
}

static void test_memsys_bad_configs(void **state) {
  (void)state;
  gpu_config c;
  rf_diag d = {{0}, 0};
  gtx480(&c);
  c.mem_chunk_bytes = 100;
  assert_null(memsys_create(&c, 15, &d));
  assert_non_null(strstr(d.msg, "mem_chunk_bytes"));
  gtx480(&c);
  c.clk_dram = 0;
  assert_null(memsys_create(&c, 15, &d));
  assert_non_null(strstr(d.msg, "DRAM clock"));
  gtx480(&c);
  c.n_mem = 0;
  assert_null(memsys_create(&c, 15, &d));
  gtx480(&c);
  c.l2.assoc = 0;
  assert_null(memsys_create(&c, 15, &d));
  assert_non_null(strstr(d.msg, "L2"));
  gtx480(&c);
  c.dram.nbk = 100;
  assert_null(memsys_create(&c, 15, &d));
  gtx480(&c);
  c.icnt_flit_size = 0;
  assert_null(memsys_create(&c, 15, &d));
  gtx480(&c);
  assert_null(memsys_create(&c, 0, &d));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_coalesce_full_warp),
      cmocka_unit_test(test_coalesce_stride_128),
      cmocka_unit_test(test_coalesce_straddle),
      cmocka_unit_test(test_coalesce_inactive_lanes),
      cmocka_unit_test(test_coalesce_width16_and_order),
      cmocka_unit_test(test_bank_conflicts),
      cmocka_unit_test(test_l1_hit_miss_latency),
    cmocka_unit_test(test_l1_invalidate),
      cmocka_unit_test(test_l1_merge_and_limit),
      cmocka_unit_test(test_l1_lru_order),
      cmocka_unit_test(test_l1_fifo_order),
      cmocka_unit_test(test_l1_mshr_full),
      cmocka_unit_test(test_l1_miss_queue_full),
      cmocka_unit_test(test_l1_global_write_through),
      cmocka_unit_test(test_l1_write_evict_policy),
      cmocka_unit_test(test_l1_local_write_back),
      cmocka_unit_test(test_l1_sectored),
      cmocka_unit_test(test_l1_disabled),
      cmocka_unit_test(test_set_index_functions),
      cmocka_unit_test(test_l1_bad_configs),
      cmocka_unit_test(test_memsys_round_trip),
      cmocka_unit_test(test_memsys_clocks_exact),
      cmocka_unit_test(test_memsys_injection_backpressure),
      cmocka_unit_test(test_memsys_writes),
    cmocka_unit_test(test_memsys_write_acks),
      cmocka_unit_test(test_memsys_atomics),
      cmocka_unit_test(test_memsys_determinism_and_drain),
      cmocka_unit_test(test_memsys_disabled_l2),
      cmocka_unit_test(test_memsys_bad_configs),
      cmocka_unit_test(test_bank_conflicts_match_reference),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
