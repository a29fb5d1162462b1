/* Tests for the pieces between the interconnect and DRAM, each on its own: one L2 slice with its
 * queues (csim/mem/l2.h), and the address mapping with its hashes and random slice draws
 * (mem_internal.h, mem_hash.h, slice_table.h, cache_tags.h). The interconnect is
 * tests/test_icnt.c; the whole memory system is tests/test_memsys.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../csim/mem/cache_tags.h"
#include "../csim/mem/l2.h"
#include "../csim/mem/mem_internal.h"
#include "common/test_mem.h"

/* ---- one L2 slice ---- */

/* GTX 480's slice (config_defaults): sectored, write-back, lazy fetch on read, 256 MSHRs
 * merging 4, 120-cycle ROP, queues of 64; one channel and slice so every address is local. */
typedef struct slice_env {
  gpu_config c;
  addr_map map;
  cache_stats st;
  l2_slice *s;
  uint64_t t;
} slice_env;

static void slice_open(slice_env *e) {
  memset(&e->st, 0, sizeof e->st);
  e->map = (addr_map){.chunk = 256, .n_mem = 1, .n_sub = 1, .chunk_log2 = 8};
  rf_diag d = {{0}, 0};
  e->s = l2_create(&e->c, &e->map, &e->st, &d);
  if (!e->s) fail_msg("%s", d.msg);
  e->t = 0;
}

static void slice_step(slice_env *e, uint64_t n) {
  for (uint64_t k = 0; k < n; k++) {
    e->t++;
    l2_cycle(e->s, e->t, e->t);
  }
}

/* Plays DRAM: every request in the L2->DRAM queue comes straight back. */
static int slice_dram(slice_env *e) {
  int n = 0;
  req_ring *q = l2_to_dram(e->s);
  while (q->count && !l2_from_dram_full(e->s)) {
    l2_from_dram(e->s, req_ring_head(q));
    req_ring_pop(q);
    n++;
  }
  return n;
}

/* A 128-byte read becomes four sector requests created when the slice takes it; each waits
 * out the ROP delay, misses, and is fetched on its own; the fills answer each sector. */
static void test_l2_sector_split_and_rop(void **state) {
  (void)state;
  slice_env e;
  config_defaults(&e.c);
  slice_open(&e);
  mem_req r = tu_mem_req(0x1000, 0xF, 3, 0);
  r.a.size = 128;
  r.t_created = 0;
  assert_true(l2_can_take(e.s));
  l2_take(e.s, &r, 7);
  e.t = 7;
  slice_step(&e, 120);
  assert_int_equal(e.st.accesses, 0); /* still in the ROP queue at core cycle 127 */
  slice_step(&e, 1);                  /* 128: moved to the icnt->L2 queue */
  slice_step(&e, 5);
  assert_int_equal(e.st.accesses, 4);
  assert_int_equal(e.st.misses, 4);
  req_ring *q = l2_to_dram(e.s);
  assert_int_equal(q->count, 4);
  for (uint32_t i = 0; i < 4; i++) {
    const mem_req *f = req_ring_at(q, i);
    assert_int_equal(f->a.sector_mask, 1u << i);
    assert_int_equal(f->a.size, 32);
  }
  assert_int_equal(slice_dram(&e), 4);
  int replies = 0;
  for (int k = 0; k < 20; k++) {
    slice_step(&e, 1);
    req_ring *out = l2_replies(e.s);
    while (out->count) {
      const mem_req *p = req_ring_head(out);
      assert_int_equal(p->a.token, 3);
      assert_int_equal(p->a.sector_mask, 1u << replies);
      assert_int_equal(p->t_created, 7); /* created at the slice */
      req_ring_pop(out);
      replies++;
    }
  }
  assert_int_equal(replies, 4);
  assert_false(l2_busy(e.s));
  /* A 32-byte request stays one request, keeping its creation time; it hits now. */
  r = tu_mem_req(0x1020, 0x2, 4, 0);
  r.t_created = 2;
  l2_take(e.s, &r, e.t);
  slice_step(&e, 125);
  assert_int_equal(e.st.hits, 1);
  assert_int_equal(l2_replies(e.s)->count, 1);
  assert_int_equal(req_ring_head(l2_replies(e.s))->t_created, 2);
  l2_destroy(e.s);
}

/* The slice takes a packet only while its icnt->L2 queue has room for four sector requests;
 * the queue fills when the L2->DRAM queue does (nothing drains it), and a reservation failure
 * at the head (its sector's MSHR already merges -mshr_max_merge requests) blocks the requests
 * behind it until the fill. */
static void test_l2_queues_and_merge_limit(void **state) {
  (void)state;
  slice_env e;
  config_defaults(&e.c);
  e.c.l2_rop_latency = 0;
  for (int i = 0; i < 4; i++) e.c.l2_queue[i] = i ? 4 : 8;
  slice_open(&e);
  /* Five reads of one sector: four merge, the fifth fails at the head; a read of another line
   * waits behind it. */
  for (uint32_t k = 0; k < 5; k++) {
    mem_req r = tu_mem_req(0x2000, 0x1, k, 0);
    assert_true(l2_can_take(e.s));
    l2_take(e.s, &r, e.t);
    slice_step(&e, 1);
  }
  mem_req other = tu_mem_req(0x8000, 0x1, 9, 0);
  l2_take(e.s, &other, e.t);
  slice_step(&e, 10);
  assert_int_equal(e.st.misses, 1);
  assert_int_equal(e.st.hit_reserved, 3);
  assert_true(e.st.fails[FAIL_MSHR_MERGE] >= 9);
  assert_int_equal(l2_to_dram(e.s)->count, 1);
  assert_int_equal(slice_dram(&e), 1);
  slice_step(&e, 10);
  assert_int_equal(e.st.hit_reserved + e.st.misses, 4 + 1);
  assert_int_equal(e.st.hits, 1); /* the fifth, after the fill */
  assert_int_equal(l2_replies(e.s)->count, 4);
  l2_destroy(e.s);

  /* Misses with nobody draining the L2->DRAM queue (4 entries), icnt->L2 queue of 4. */
  e.c.l2_queue[0] = 4;
  slice_open(&e);
  int taken = 0;
  for (int k = 0; k < 200; k++) {
    if (l2_can_take(e.s)) {
      mem_req r = tu_mem_req(0x10000 + (uint64_t)taken * 128, 0x1, (uint32_t)taken, 0);
      l2_take(e.s, &r, e.t);
      taken++;
    }
    slice_step(&e, 1);
  }
  assert_false(l2_can_take(e.s));
  assert_int_equal(l2_to_dram(e.s)->count, 4);
  /* Four misses fill the L2->DRAM queue; the fifth read waits at the head of the icnt->L2
   * queue without reading the tags (no reservation failure: the access is not tried while
   * the L2->DRAM queue is full), and one waiting request leaves no room for four. */
  assert_int_equal(taken, 5);
  assert_int_equal(e.st.misses, 4);
  assert_int_equal(e.st.reservation_fails, 0);
  while (l2_busy(e.s)) {
    slice_dram(&e);
    slice_step(&e, 1);
    req_ring *out = l2_replies(e.s);
    while (out->count) req_ring_pop(out);
    assert_true(e.t < 1000);
  }
  assert_int_equal(e.st.misses, (uint64_t)taken);
  l2_destroy(e.s);
}

/* Writes: a write-back L2 absorbs a write (hit, or a miss allocated without a fetch) and
 * acknowledges it at once, one acknowledgement per sector request, with no data; a write
 * without the acknowledgement bit (an L1 write-back) gets none. A disabled L2 sends writes
 * on, and the DRAM's acknowledgement comes back through the slice. */
static void test_l2_write_acks(void **state) {
  (void)state;
  slice_env e;
  config_defaults(&e.c);
  e.c.l2_rop_latency = 0;
  slice_open(&e);
  mem_req w = tu_mem_req(0x3000, 0xF, MEM_ACK_TOKEN | 5, 1);
  w.a.size = 128;
  l2_take(e.s, &w, e.t);
  slice_step(&e, 8);
  req_ring *out = l2_replies(e.s);
  assert_int_equal(out->count, 4);
  for (uint32_t i = 0; i < 4; i++) {
    assert_int_equal(req_ring_at(out, i)->a.sector_mask, 0);
    assert_int_equal(req_ring_at(out, i)->a.token, MEM_ACK_TOKEN | 5);
  }
  while (out->count) req_ring_pop(out);
  assert_int_equal(l2_to_dram(e.s)->count, 0);
  mem_req wb = tu_mem_req(0x3080, 0x3, 0, 1);
  l2_take(e.s, &wb, e.t);
  slice_step(&e, 8);
  assert_int_equal(out->count, 0);
  assert_int_equal(e.st.writes, 6);
  mem_req rd = tu_mem_req(0x3000, 0x4, 6, 0);
  l2_take(e.s, &rd, e.t);
  slice_step(&e, 4);
  assert_int_equal(out->count, 1); /* the written sector reads back */
  l2_destroy(e.s);

  config_defaults(&e.c);
  memset(&e.c.l2, 0, sizeof e.c.l2);
  e.c.l2_rop_latency = 0;
  slice_open(&e);
  w.a.size = 32;
  w.a.sector_mask = w.a.full_mask = 0x1;
  l2_take(e.s, &w, e.t);
  slice_step(&e, 3);
  assert_int_equal(l2_replies(e.s)->count, 0);
  assert_int_equal(slice_dram(&e), 1);
  slice_step(&e, 2);
  assert_int_equal(l2_replies(e.s)->count, 1);
  assert_int_equal(req_ring_head(l2_replies(e.s))->a.sector_mask, 0);
  l2_destroy(e.s);
}

static void test_l2_bad_configs(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  c.l2_queue[0] = 3;
  addr_map map = {.chunk = 256, .n_mem = 1, .n_sub = 1, .chunk_log2 = 8};
  cache_stats st;
  rf_diag d = {{0}, 0};
  assert_null(l2_create(&c, &map, &st, &d));
  assert_non_null(strstr(d.msg, "icnt->L2 queue >= 4"));
  config_defaults(&c);
  c.l2_rop_latency = -1;
  assert_null(l2_create(&c, &map, &st, &d));
  assert_non_null(strstr(d.msg, "ROP"));
}

/* ---- address mapping ---- */

/* GTX 480: 6 channels x 2 slices, 256-byte granules: granule g goes to channel g % 6, slice
 * (g / 6) % 2 of it; the slice-local address drops both digits, the channel-local one the
 * channel's. IPOLY with 6 channels hashes over 8 x 2 slots and folds into the 12 slices. */
static void test_address_mapping(void **state) {
  (void)state;
  addr_map m = {.chunk = 256, .n_mem = 6, .n_sub = 2, .chunk_log2 = 8, .gap = 1};
  for (uint64_t g = 0; g < 48; g++) {
    uint64_t addr = g * 256 + 0x80;
    assert_int_equal(addr_slice(&m, addr), (g % 6) * 2 + (g / 6) % 2);
    assert_int_equal(addr_channel_of_slice(&m, addr_slice(&m, addr)), g % 6);
    assert_int_equal(addr_slice_local(&m, addr), g / 12 * 256 + 0x80);
    assert_int_equal(addr_channel_local(&m, addr), g / 6 * 256 + 0x80);
  }
  m.indexing = 2;
  addr_map_prepare(&m);
  for (uint64_t g = 0; g < 48; g++) {
    uint64_t ch = g % 6, sub = (g / 6) % 2;
    uint64_t want = mem_ipoly(g / 6, (uint32_t)(ch * 2 + sub), 4) % 12;
    assert_int_equal(addr_slice(&m, g * 256), want);
  }
  /* XOR (power-of-two channels): the channel digit XORs the granule bits above the slice. */
  addr_map x = {.chunk = 256, .n_mem = 4, .n_sub = 2, .chunk_log2 = 8, .indexing = 1};
  assert_int_equal(addr_slice(&x, 0), 0);
  assert_int_equal(addr_slice(&x, 8 * 256), 1 * 2);     /* high 1: channel 0 ^ 1 */
  assert_int_equal(addr_slice(&x, 9 * 256), 0 * 2);     /* channel 1 ^ 1 */
  assert_int_equal(addr_slice(&x, 13 * 256), 0 * 2 + 1); /* channel 1 ^ 1, slice 1 */
}

/* Random indexing draws per 128-byte granule (256-byte chunks over 2 slices) in the order the
 * granules are first touched, and keeps each draw. */
static void test_address_random(void **state) {
  (void)state;
  slice_table t;
  assert_int_equal(slice_table_init(&t, 24, NULL), 0);
  addr_map m = {.chunk = 256, .n_mem = 12, .n_sub = 2, .chunk_log2 = 8, .indexing = 4,
                .random_shift = 7, .random = &t};
  libc_rand g;
  libc_srand(&g, 1);
  uint32_t d0 = libc_rand_next(&g) % 24, d1 = libc_rand_next(&g) % 24;
  assert_int_equal(addr_slice(&m, 0x5000), d0);
  assert_int_equal(addr_slice(&m, 0x5040), d0); /* same granule */
  assert_int_equal(addr_slice(&m, 0x5080), d1); /* next granule: the next draw */
  assert_int_equal(addr_slice(&m, 0x5010), d0);
  slice_table_free(&t);
}

static void test_set_index_functions(void **state) {
  (void)state;
  cache_config cc = {.enabled = 1, .nsets = 32, .line_size = 128, .assoc = 4,
                     .replacement = 'L', .write_policy = 'L', .alloc_policy = 'm',
                     .write_alloc = 'N', .set_index_fn = 'L', .mshr_type = 'S',
                     .mshr_entries = 8, .mshr_max_merge = 8, .miss_queue_size = 4};
  cache_tags lin, fermi, ipoly, xor;
  assert_int_equal(cache_tags_init(&lin, &cc, 4, 0, "L1D", NULL), 0);
  cc.set_index_fn = 'H';
  assert_int_equal(cache_tags_init(&fermi, &cc, 4, 0, "L1D", NULL), 0);
  cc.set_index_fn = 'P';
  assert_int_equal(cache_tags_init(&ipoly, &cc, 4, 0, "L1D", NULL), 0);
  cc.set_index_fn = 'X';
  assert_int_equal(cache_tags_init(&xor, &cc, 4, 0, "L1D", NULL), 0);
  /* Stride 8 KB: every line in linear set 0; the Fermi hash folds bits 13-15 in. */
  for (uint64_t k = 0; k < 8; k++) {
    assert_int_equal(cache_tags_set(&lin, (k * 8192) >> 7), 0);
    assert_int_equal(cache_tags_set(&fermi, (k * 8192) >> 7), k);
  }
  assert_int_equal(cache_tags_set(&fermi, 0x80000 >> 7), 16); /* bit 19 -> index bit 4 */
  assert_int_equal(cache_tags_set(&fermi, 0x1080 >> 7), 1);   /* bit 12 ignored at 32 sets */
  /* IPOLY over 32 sets: line 32 (the first bit above the index) is x^5 mod x^5+x^2+1. */
  assert_int_equal(cache_tags_set(&ipoly, 32), 5);
  assert_int_equal(cache_tags_set(&ipoly, 32 + 3), 5 ^ 3);
  assert_int_equal(cache_tags_set(&xor, 32 * 6 + 1), 7);
  cache_tags_free(&lin);
  cache_tags_free(&fermi);
  cache_tags_free(&ipoly);
  cache_tags_free(&xor);
}

/* GPGPU-Sim's IPOLY equations at a few points: x^n and x^(n+k) modulo its polynomials. */
static void test_ipoly(void **state) {
  (void)state;
  assert_int_equal(mem_ipoly(1, 0, 4), 3);         /* x^4 = x + 1 */
  assert_int_equal(mem_ipoly(2, 0, 4), 6);         /* x^5 = x^2 + x */
  assert_int_equal(mem_ipoly(1 << 3, 0, 4), 0xB);  /* x^7 = x^3 + x + 1 */
  assert_int_equal(mem_ipoly(1 << 13, 9, 4), 9);   /* only 13 bits above the index count */
  assert_int_equal(mem_ipoly(1, 0, 6), 3);         /* x^6 = x + 1 */
  assert_int_equal(mem_ipoly(1 << 18, 0, 6), 17);  /* a[18] feeds index bits 0 and 4 */
  assert_int_equal(mem_ipoly(3, 1, 5), 5 ^ 10 ^ 1);
  assert_int_equal(mem_xor_index(0x15, 0x3, 16), 0x6);
  /* Everywhere, against the definition: each folded bit j of `high` multiplies x^n mod P by x,
   * j times, modulo P (P - x^n: 0x3, 0x5, 0x3), and the products are XORed into the index. */
  static const uint32_t p_low[7] = {[4] = 0x3, [5] = 0x5, [6] = 0x3};
  static const int fold[7] = {[4] = 13, [5] = 15, [6] = 19};
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int bits = 4; bits <= 6; bits++)
    for (int k = 0; k < 20000; k++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      uint64_t high = k < 64 ? 1ull << k : x; /* each bit alone, then random */
      uint32_t index = (uint32_t)(x >> 40), mask = (1u << bits) - 1, want = index & mask;
      uint32_t v = p_low[bits];
      for (int j = 0; j < fold[bits]; j++) {
        if (high >> j & 1) want ^= v;
        v = (v << 1 & mask) ^ (v >> (bits - 1) & 1 ? p_low[bits] : 0);
      }
      assert_int_equal(mem_ipoly(high, index, bits), want);
      /* and the three-lookup form the caches and slices use */
      assert_int_equal(mem_ipoly_lookup(mem_ipoly_table_of(bits), high, index), want);
    }
}

/* GPGPU-Sim's random slice indexing draws rand() after srand(1): glibc's first outputs. */
static void test_random_slices(void **state) {
  (void)state;
  libc_rand g;
  libc_srand(&g, 1);
  static const uint32_t first[] = {1804289383u, 846930886u, 1681692777u, 1714636915u,
                                   1957747793u, 424238335u, 719885386u, 1649760492u};
  for (size_t i = 0; i < sizeof first / sizeof first[0]; i++)
    assert_int_equal(libc_rand_next(&g), first[i]);
  slice_table t;
  assert_int_equal(slice_table_init(&t, 24, NULL), 0);
  assert_int_equal(slice_table_get(&t, 0x100), 1804289383u % 24);
  assert_int_equal(slice_table_get(&t, 0x7), 846930886u % 24);
  assert_int_equal(slice_table_get(&t, 0x100), 1804289383u % 24); /* kept */
  for (uint64_t k = 0; k < 5000; k++) assert_true(slice_table_get(&t, 1000 + k) < 24);
  assert_int_equal(slice_table_get(&t, 0x7), 846930886u % 24);    /* kept through growth */
  slice_table_free(&t);
}

/* The paged table against a plain array: scattered and repeated touches over a million
 * granules (pages and slots grow many times, runs of neighbours hit the last page) give each
 * granule the draw of its first touch, in touch order. */
static void test_random_slices_paged(void **state) {
  (void)state;
  enum { SPAN = 1 << 20 };
  int32_t *ref = malloc(SPAN * sizeof *ref);
  assert_non_null(ref);
  for (int i = 0; i < SPAN; i++) ref[i] = -1;
  libc_rand g;
  libc_srand(&g, 1);
  slice_table t;
  assert_int_equal(slice_table_init(&t, 48, NULL), 0);
  uint32_t x = 12345;
  for (int i = 0; i < 300000; i++) {
    x = x * 1103515245u + 12345u;
    /* a third of the touches walk on from the previous granule, as a warp's sectors do */
    static uint64_t prev;
    uint64_t gr = (x >> 8) % 3 == 0 ? (prev + 1) % SPAN : (x >> 4) % SPAN;
    prev = gr;
    /* peek reads the draw without making one */
    assert_int_equal(slice_table_peek(&t, gr), ref[gr] < 0 ? SLICE_NONE : (uint32_t)ref[gr]);
    if (ref[gr] < 0) ref[gr] = (int32_t)(libc_rand_next(&g) % 48);
    assert_int_equal(slice_table_get(&t, gr), ref[gr]);
  }
  slice_table_free(&t);
  free(ref);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_l2_sector_split_and_rop),
      cmocka_unit_test(test_l2_queues_and_merge_limit),
      cmocka_unit_test(test_l2_write_acks),
      cmocka_unit_test(test_l2_bad_configs),
      cmocka_unit_test(test_address_mapping),
      cmocka_unit_test(test_address_random),
      cmocka_unit_test(test_set_index_functions),
      cmocka_unit_test(test_ipoly),
      cmocka_unit_test(test_random_slices),
      cmocka_unit_test(test_random_slices_paged),
  };
  return cmocka_run_group_tests_name("L2 slice, address mapping", tests, NULL, NULL);
}
