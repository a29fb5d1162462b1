/* The first-level caches one mechanism at a time (bank pipelines, sector MSHRs, write
 * policies, bypass, adaptive ways), driven by directed accesses with results worked out from
 * GPGPU-Sim's rules (csim/mem/mem.h). The coalescer and shared-memory banks are in
 * test_coalescer.c, the networks in test_icnt.c, the L2 slice and the address mapping in
 * test_memnet.c, the whole memory system in test_memsys.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/mem/mem.h"
#include "../csim/mem/memsys_debug.h"
#include "../csim/trace/trace.h"

/* A Volta-like L1D set by hand (config_defaults belongs to another module): 4 sets x 128 B x
 * 4 ways, sectored, write-through with lazy fetch on read, 8 MSHRs merging 2, a miss queue of
 * 4, 4 banks of 32 bytes, 10-cycle pipelines. */
static void volta_l1(gpu_config *c) {
  memset(c, 0, sizeof *c);
  c->warp_size = 32;
  c->l1d = (cache_config){.enabled = 1, .sectored = 1, .nsets = 4, .line_size = 128,
                          .assoc = 4, .replacement = 'L', .write_policy = 'T',
                          .alloc_policy = 'm', .write_alloc = 'L', .set_index_fn = 'L',
                          .mshr_type = 'A', .mshr_entries = 8, .mshr_max_merge = 2,
                          .miss_queue_size = 4, .data_port_width = 32};
  c->l2 = (cache_config){.enabled = 1, .sectored = 1, .nsets = 32, .line_size = 128,
                         .assoc = 8, .replacement = 'L', .write_policy = 'B',
                         .alloc_policy = 'm', .write_alloc = 'L', .set_index_fn = 'L',
                         .mshr_type = 'A', .mshr_entries = 32, .mshr_max_merge = 4,
                         .miss_queue_size = 8, .data_port_width = 32};
  c->l1_latency = 10;
  c->l1_banks = 4;
  c->l1_bank_bytes = 32;
}

/* A Fermi-like L1D: 32 sets x 128 B x 4 ways, not sectored, local write-back / global
 * write-evict ('L'), no write-allocate, 8 MSHRs merging 8, a miss queue of 4, one bank. */
static void fermi_l1(gpu_config *c) {
  volta_l1(c);
  c->l1d = (cache_config){.enabled = 1, .nsets = 32, .line_size = 128, .assoc = 4,
                          .replacement = 'L', .write_policy = 'L', .alloc_policy = 'm',
                          .write_alloc = 'N', .set_index_fn = 'L', .mshr_type = 'S',
                          .mshr_entries = 8, .mshr_max_merge = 8, .miss_queue_size = 4};
  c->l1_latency = 10;
  c->l1_banks = 1;
}

static mem_access acc(uint64_t addr, uint8_t mask, uint32_t token, int write, uint8_t space) {
  return (mem_access){.addr = addr, .sector_mask = mask, .full_mask = write ? mask : 0,
                      .size = (uint16_t)(32 * __builtin_popcount(mask)), .token = token,
                      .is_write = (uint8_t)write, .space = space};
}

/* ---- L1D ---- */

static l1d *make_l1(const gpu_config *c) {
  rf_diag d = {{0}, 0};
  l1d *l = l1d_create(c, 3, &d);
  if (!l) fprintf(stderr, "%s\n", d.msg);
  assert_non_null(l);
  return l;
}

static void cycles(l1d *l, uint64_t from, uint64_t to) {
  for (uint64_t t = from; t <= to; t++) l1d_cycle(l, t);
}

/* Hands every queued fetch straight back, one reply per sector as a sectored L2 answers. */
static void fill_all(l1d *l, uint64_t t) {
  mem_access r;
  while (l1d_debug_take(l, &r, NULL)) {
    if (r.is_write) continue;
    uint8_t mask = r.sector_mask;
    for (int s = 0; s < 4; s++)
      if (mask >> s & 1) {
        r.sector_mask = (uint8_t)(1u << s);
        l1d_fill(l, &r, t);
      }
  }
}

/* Loads one sector of `addr` at *t, lets the pipeline read the tags, fills a miss at once and
 * drains the completions; returns 1 for a hit. */
static int load(l1d *l, const gpu_config *c, uint64_t addr, uint8_t mask, uint64_t *t) {
  uint64_t hits = l1d_stats(l)->hits;
  mem_access a = acc(addr, mask, 1, 0, SPACE_GLOBAL);
  assert_int_not_equal(l1d_access(l, &a, *t), L1_STALL);
  cycles(l, *t + 1, *t + (uint64_t)c->l1_latency);
  *t += (uint64_t)c->l1_latency + 1;
  fill_all(l, *t);
  uint32_t tok;
  while (l1d_pop_hit(l, *t, &tok) || l1d_pop_miss(l, *t, &tok)) {
  }
  return l1d_stats(l)->hits > hits;
}

/* The Volta-like L1D with line 0x0's four sectors (tokens 0-3) taken into its four banks, one
 * each, in cycle 1: their tags are read in cycle 11. */
static l1d *volta_l1_line0_sectors(void) {
  gpu_config c;
  volta_l1(&c);
  l1d *l = make_l1(&c);
  for (int s = 0; s < 4; s++) {
    mem_access a = acc(0x0, (uint8_t)(1u << s), (uint32_t)s, 0, SPACE_GLOBAL);
    assert_int_equal(l1d_access(l, &a, 1), L1_MISS); /* taken */
  }
  return l;
}

/* A bank whose head failed its tag read retries it every cycle, each failure counted as the
 * read counts it (l1d.c answers again without the read while the cache's epoch stands), and
 * goes on in the cycle after the miss queue has room again. */
static void test_l1_bank_retries_failed_head(void **state) {
  (void)state;
  l1d *l = volta_l1_line0_sectors();
  const cache_stats *st = l1d_stats(l);
  l1d_cycle(l, 11); /* three misses take the queue; sector 3 finds one entry free, needs two */
  assert_int_equal(st->misses, 3);
  assert_int_equal(st->reservation_fails, 1);
  for (uint64_t t = 12; t <= 15; t++) {
    l1d_cycle(l, t);
    assert_int_equal(st->reservation_fails, t - 10);
    assert_int_equal(st->fails[FAIL_MISS_QUEUE], t - 10);
    assert_int_equal(st->misses, 3);
  }
  mem_access r;
  assert_true(l1d_debug_take(l, &r, NULL)); /* the queue has two free entries now */
  l1d_cycle(l, 16);
  assert_int_equal(st->misses, 4);
  assert_int_equal(st->reservation_fails, 5);
  l1d_cycle(l, 17); /* the bank is empty: nothing more is counted */
  assert_int_equal(st->reservation_fails, 5);
  assert_int_equal(st->accesses, 4);
  l1d_destroy(l);
}

/* Four banks of 32 bytes: a line's four sectors enter in one cycle, a second access to a bank
 * that took one waits; the tags are read -gpgpu_l1_latency cycles later, and a read miss
 * needs two free miss-queue entries (its fetch and a possible write-back). */
static void test_l1_bank_pipelines(void **state) {
  (void)state;
  l1d *l = volta_l1_line0_sectors();
  mem_access b = acc(0x80, 0x1, 9, 0, SPACE_GLOBAL); /* bank 0 again */
  assert_int_equal(l1d_access(l, &b, 1), L1_STALL);
  assert_int_equal(l1d_access(l, &b, 2), L1_MISS);
  mem_access r;
  cycles(l, 2, 10);
  assert_false(l1d_debug_take(l, &r, NULL)); /* nothing read yet */
  l1d_cycle(l, 11);
  for (int s = 0; s < 3; s++) {
    uint64_t created;
    assert_true(l1d_debug_take(l, &r, &created));
    assert_int_equal(r.addr, 0x0);
    assert_int_equal(r.sector_mask, 1u << s);
    assert_int_equal(r.size, 32);
    assert_int_equal(r.sm, 3);
    assert_int_equal(created, 1); /* the request exists from its entry into the pipeline */
  }
  assert_false(l1d_debug_take(l, &r, NULL)); /* sector 3 failed: the queue had one free */
  const cache_stats *st = l1d_stats(l);
  assert_int_equal(st->misses, 3);
  assert_int_equal(st->reservation_fails, 1);
  assert_int_equal(st->fails[FAIL_MISS_QUEUE], 1);
  l1d_cycle(l, 12); /* line 0x80 reaches the end of bank 0, bank 3 retries */
  assert_true(l1d_debug_take(l, &r, NULL));
  assert_int_equal(r.addr, 0x80);
  assert_true(l1d_debug_take(l, &r, NULL));
  assert_int_equal(r.sector_mask, 0x8);
  assert_int_equal(st->accesses, 5);
  /* Sector 0 comes back: its load is released (through the writeback, l1d_pop_miss). */
  mem_access fill = acc(0x0, 0x1, 0, 0, SPACE_GLOBAL);
  l1d_fill(l, &fill, 20);
  uint32_t tok;
  assert_false(l1d_pop_hit(l, 20, &tok));
  assert_true(l1d_pop_miss(l, 20, &tok));
  assert_int_equal(tok, 0);
  /* A hit completes when the tags are read: entry + latency. */
  mem_access h = acc(0x0, 0x1, 42, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &h, 30), L1_MISS);
  cycles(l, 31, 39);
  assert_false(l1d_pop_hit(l, 39, &tok));
  l1d_cycle(l, 40);
  assert_true(l1d_pop_hit(l, 40, &tok));
  assert_int_equal(tok, 42);
  assert_int_equal(st->hits, 1);
  /* A bank holds at most `latency` accesses. */
  for (uint64_t t = 50; t < 60; t++) {
    mem_access q = acc(0x200 + 128 * (t - 50), 0x1, 0, 0, SPACE_GLOBAL);
    assert_int_equal(l1d_access(l, &q, t), L1_MISS);
  }
  l1d_destroy(l);
}

/* Sectored MSHRs merge at most -mshr_max_merge requests per sector; the next one fails and
 * stalls its bank until the sector is in (then it hits). */
static void test_l1_sector_merge_limit(void **state) {
  (void)state;
  gpu_config c;
  volta_l1(&c);
  l1d *l = make_l1(&c);
  for (uint32_t k = 0; k < 3; k++) {
    mem_access a = acc(0x400, 0x2, k, 0, SPACE_GLOBAL);
    assert_int_equal(l1d_access(l, &a, 1 + k), L1_MISS);
  }
  mem_access other = acc(0x480, 0x2, 7, 0, SPACE_GLOBAL); /* same bank, later */
  assert_int_equal(l1d_access(l, &other, 4), L1_MISS);
  cycles(l, 5, 20);
  const cache_stats *st = l1d_stats(l);
  assert_int_equal(st->misses, 1);
  assert_int_equal(st->hit_reserved, 1);
  assert_true(st->fails[FAIL_MSHR_MERGE] >= 5); /* retried every cycle since 13 */
  assert_int_equal(st->accesses, 2);            /* the one behind it has not been read */
  mem_access r;
  assert_true(l1d_debug_take(l, &r, NULL));
  assert_int_equal(r.sector_mask, 0x2);
  assert_false(l1d_debug_take(l, &r, NULL)); /* one fetch for the merged pair */
  l1d_fill(l, &r, 21);
  uint32_t tok;
  assert_true(l1d_pop_miss(l, 21, &tok));
  assert_int_equal(tok, 0);
  assert_true(l1d_pop_miss(l, 21, &tok));
  assert_int_equal(tok, 1);
  assert_false(l1d_pop_miss(l, 21, &tok));
  l1d_cycle(l, 22);
  assert_true(l1d_pop_hit(l, 22, &tok));
  assert_int_equal(tok, 2);
  l1d_cycle(l, 23);
  assert_int_equal(st->accesses, 4);
  assert_int_equal(st->misses, 2);
  l1d_destroy(l);
}

/* A non-sectored L1 fetches whole lines (a 128-byte request the L2 answers in four sector
 * replies) and releases its waiters when all four are in; MSHRs are per line. */
static void test_l1_line_fill(void **state) {
  (void)state;
  gpu_config c;
  fermi_l1(&c);
  l1d *l = make_l1(&c);
  mem_access a = acc(0x1000, 0x2, 5, 0, SPACE_GLOBAL);
  mem_access b = acc(0x1000, 0x8, 6, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &a, 1), L1_MISS);
  assert_int_equal(l1d_access(l, &b, 2), L1_MISS);
  cycles(l, 2, 12);
  mem_access r;
  assert_true(l1d_debug_take(l, &r, NULL));
  assert_int_equal(r.size, 128);
  assert_int_equal(r.sector_mask, 0xF);
  assert_false(l1d_debug_take(l, &r, NULL));
  assert_int_equal(l1d_stats(l)->misses, 1);
  assert_int_equal(l1d_stats(l)->hit_reserved, 1);
  uint32_t tok;
  for (int s = 0; s < 4; s++) {
    assert_false(l1d_pop_miss(l, 20, &tok));
    mem_access part = r;
    part.sector_mask = (uint8_t)(1u << s);
    l1d_fill(l, &part, 20);
  }
  assert_true(l1d_pop_miss(l, 20, &tok));
  assert_int_equal(tok, 5);
  assert_true(l1d_pop_miss(l, 20, &tok));
  assert_int_equal(tok, 6);
  uint64_t t = 30;
  assert_true(load(l, &c, 0x1000, 0x4, &t));
  l1d_destroy(l);
}

/* Write-through with lazy fetch on read (Volta): a store miss is sent below and allocates its
 * line with the sector modified, so a load of it hits; a sector written only in part cannot
 * be read from the line: the load is a sector miss that fetches it. */
static void test_l1_write_through_lazy(void **state) {
  (void)state;
  gpu_config c;
  volta_l1(&c);
  l1d *l = make_l1(&c);
  mem_access st = acc(0x600, 0x1, MEM_ACK_TOKEN | 4, 1, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &st, 1), L1_MISS);
  cycles(l, 2, 11);
  mem_access r;
  assert_true(l1d_debug_take(l, &r, NULL));
  assert_int_equal(r.is_write, 1);
  assert_int_equal(r.token, MEM_ACK_TOKEN | 4);
  uint32_t tok;
  int acks;
  assert_false(l1d_pop_store_ack(l, &tok, &acks)); /* the L2 acknowledges it */
  uint64_t t = 12;
  assert_true(load(l, &c, 0x600, 0x1, &t));
  mem_access part = acc(0x600, 0x2, 0, 1, SPACE_GLOBAL);
  part.full_mask = 0; /* 4 of the 32 bytes */
  assert_int_equal(l1d_access(l, &part, t), L1_MISS);
  cycles(l, t + 1, t + 10);
  t += 11;
  assert_true(l1d_debug_take(l, &r, NULL));
  assert_int_equal(r.is_write, 1);
  uint64_t misses = l1d_stats(l)->misses, sector_misses = l1d_stats(l)->sector_misses;
  assert_false(load(l, &c, 0x600, 0x2, &t));
  assert_int_equal(l1d_stats(l)->misses, misses + 1);
  assert_int_equal(l1d_stats(l)->sector_misses, sector_misses + 1);
  assert_true(load(l, &c, 0x600, 0x2, &t)); /* the fetch made it readable */
  assert_int_equal(l1d_stats(l)->writes, 2);
  l1d_destroy(l);
}

/* Fermi's 'L' policy: global stores write through and evict (a hit drops the whole line of a
 * non-sectored cache), are not allocated on a miss ('N'); local stores that hit are kept
 * (write-back) and acknowledged by the L1, and a dirty local line is written back when
 * evicted. */
static void test_l1_fermi_write_policy(void **state) {
  (void)state;
  gpu_config c;
  fermi_l1(&c);
  l1d *l = make_l1(&c);
  uint64_t t = 1;
  mem_access r;
  uint32_t tok;
  int acks;
  mem_access gs = acc(0x2000, 0x1, MEM_ACK_TOKEN | 1, 1, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &gs, t), L1_MISS);
  cycles(l, t + 1, t + 10);
  t += 11;
  assert_true(l1d_debug_take(l, &r, NULL));
  assert_int_equal(r.is_write, 1);
  assert_false(load(l, &c, 0x2000, 0x1, &t)); /* not allocated */
  assert_true(load(l, &c, 0x2000, 0x2, &t));
  assert_int_equal(l1d_access(l, &gs, t), L1_MISS); /* a hit: written through, line dropped */
  cycles(l, t + 1, t + 10);
  t += 11;
  assert_true(l1d_debug_take(l, &r, NULL));
  assert_int_equal(l1d_stats(l)->write_hits, 1);
  assert_false(load(l, &c, 0x2000, 0x2, &t));
  /* Local data: a load brings the line in, a store hit is kept and acknowledged here. */
  assert_false(load(l, &c, 0x0, 0x1, &t));
  mem_access ls = acc(0x0, 0xF, MEM_ACK_TOKEN | 2, 1, SPACE_LOCAL);
  ls.size = 128;
  assert_int_equal(l1d_access(l, &ls, t), L1_MISS);
  cycles(l, t + 1, t + 10);
  t += 11;
  assert_false(l1d_debug_take(l, &r, NULL));
  assert_true(l1d_pop_store_ack(l, &tok, &acks));
  assert_int_equal(tok, MEM_ACK_TOKEN | 2);
  assert_int_equal(acks, 4); /* what the sectored L2 would have sent: one per sector */
  /* Four more lines in set 0 (4 ways): the dirty line goes, written back. */
  for (uint64_t k = 1; k <= 3; k++) load(l, &c, k * 4096, 0x1, &t);
  mem_access a = acc(4 * 4096, 0x1, 3, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &a, t), L1_MISS);
  cycles(l, t + 1, t + 10);
  assert_true(l1d_debug_take(l, &r, NULL));
  assert_int_equal(r.addr, 0x0);
  assert_int_equal(r.is_write, 1);
  assert_int_equal(r.sector_mask, 0xF);
  assert_int_equal(r.token, UINT32_MAX); /* no acknowledgement for a write-back */
  assert_int_equal(r.space, SPACE_LOCAL);
  assert_true(l1d_debug_take(l, &r, NULL));
  assert_int_equal(r.addr, 4 * 4096);
  l1d_destroy(l);
}

/* -gpgpu_l1_cache_write_ratio: a dirty line is a replacement candidate only while at least
 * that share of the lines is dirty (here one way of a 2-way set is 50% < 60%). */
static void test_l1_dirty_ratio(void **state) {
  (void)state;
  gpu_config c;
  volta_l1(&c);
  c.l1d.nsets = 1;
  c.l1d.assoc = 2;
  c.l1d.write_policy = 'B';
  c.l1_write_ratio = 60;
  l1d *l = make_l1(&c);
  uint64_t t = 1;
  mem_access st = acc(0x0, 0x1, 0, 1, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &st, t), L1_MISS);
  cycles(l, t + 1, t + 10);
  t += 11;
  load(l, &c, 0x80, 0x1, &t);
  load(l, &c, 0x100, 0x1, &t); /* evicts 0x80, the clean one, though 0x0 is older */
  assert_true(load(l, &c, 0x0, 0x1, &t));
  assert_false(load(l, &c, 0x80, 0x1, &t));
  l1d_destroy(l);
}

/* Reads one sector of `addr` through the bank pipeline: accessed at t, tags read at
 * t + latency. */
static void read_through(l1d *l, const gpu_config *c, uint64_t addr, uint32_t token,
                         uint64_t t) {
  mem_access a = acc(addr, 0x1, token, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &a, t), L1_MISS);
  cycles(l, t + 1, t + (uint64_t)c->l1_latency);
}

/* A read that joins an MSHR entry whose data is already in (its waiters not yet released) is
 * served from it: no fill will come, so the line it was given is not reserved. A line left
 * reserved can never be replaced; stencil on the TITAN V config lost its L1D set so (the
 * set's other lines dirty below -gpgpu_l1_cache_write_ratio) and deadlocked. */
static void test_l1_read_served_by_ready_mshr(void **state) {
  (void)state;
  gpu_config c;
  volta_l1(&c);
  c.l1d.nsets = 1;
  c.l1d.assoc = 2;
  l1d *l = make_l1(&c);
  mem_access ra, rb, rc;
  uint32_t tok;
  read_through(l, &c, 0x0, 10, 1);   /* A */
  read_through(l, &c, 0x80, 11, 12); /* B */
  assert_true(l1d_debug_take(l, &ra, NULL));
  assert_true(l1d_debug_take(l, &rb, NULL));
  l1d_fill(l, &rb, 23);
  assert_true(l1d_pop_miss(l, 23, &tok));
  assert_int_equal(tok, 11);
  l1d_fill(l, &ra, 24); /* A's entry is ready; its waiter stays for now */
  read_through(l, &c, 0x100, 12, 25); /* C replaces A, the older line */
  assert_true(l1d_debug_take(l, &rc, NULL));
  read_through(l, &c, 0x0, 13, 36); /* A again: replaces B, joins A's ready entry */
  assert_false(l1d_debug_take(l, &rb, NULL)); /* served: no second fetch */
  assert_true(l1d_pop_miss(l, 47, &tok));
  assert_int_equal(tok, 10);
  assert_true(l1d_pop_miss(l, 47, &tok));
  assert_int_equal(tok, 13);
  l1d_fill(l, &rc, 48);
  assert_true(l1d_pop_miss(l, 48, &tok));
  assert_int_equal(tok, 12);
  /* two new lines: the first takes A's slot (empty), the second replaces C; with A's slot
   * reserved for good the second would fail to allocate for ever */
  read_through(l, &c, 0x180, 14, 50);
  read_through(l, &c, 0x200, 15, 61);
  assert_int_equal(l1d_stats(l)->fails[FAIL_LINE_ALLOC], 0);
  mem_access rd, re;
  assert_true(l1d_debug_take(l, &rd, NULL));
  assert_true(l1d_debug_take(l, &re, NULL));
  assert_int_equal(rd.addr, 0x180);
  assert_int_equal(re.addr, 0x200);
  l1d_destroy(l);
}

/* Atomics and accesses marked bypass_l1 wait in a one-entry queue for the port and never
 * touch the tags or the statistics. */
static void test_l1_bypass(void **state) {
  (void)state;
  gpu_config c;
  volta_l1(&c);
  l1d *l = make_l1(&c);
  mem_access a = acc(0x800, 0x1, 8, 0, SPACE_GLOBAL);
  a.is_atomic = 1;
  assert_int_equal(l1d_access(l, &a, 1), L1_MISS);
  mem_access b = acc(0x900, 0x1, 9, 0, SPACE_GLOBAL);
  b.bypass_l1 = 1;
  assert_int_equal(l1d_access(l, &b, 1), L1_STALL); /* the one entry is taken */
  mem_access r;
  uint64_t created;
  assert_true(l1d_debug_take(l, &r, &created));
  assert_int_equal(r.bypass_l1, 1);
  assert_int_equal(created, 1);
  assert_int_equal(l1d_access(l, &b, 2), L1_MISS);
  assert_true(l1d_debug_take(l, &r, NULL));
  assert_int_equal(r.token, 9);
  assert_int_equal(l1d_stats(l)->accesses, 0);
  assert_false(l1d_busy(l));
  l1d_destroy(l);
}

/* l1d_invalidate (a MEMBAR under -gpgpu_flush_l1_cache 1): what was valid misses afterwards;
 * a sector still being fetched is filled and releases its load; the write-through cache's
 * modified sectors go too; an invalidation with nothing changed since the last is a no-op. */
static void test_l1_invalidate(void **state) {
  (void)state;
  gpu_config c;
  volta_l1(&c);
  l1d *l = make_l1(&c);
  uint64_t t = 1;
  assert_false(load(l, &c, 0x1000, 0x1, &t));
  assert_true(load(l, &c, 0x1000, 0x1, &t));
  mem_access p = acc(0x3000, 0x1, 3, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &p, t), L1_MISS);
  cycles(l, t + 1, t + 10);
  t += 11;
  l1d_invalidate(l);
  assert_false(load(l, &c, 0x1000, 0x1, &t)); /* load() also fills 0x3000's fetch */
  uint32_t tok;
  assert_false(l1d_pop_miss(l, t, &tok)); /* its token was drained by load() */
  assert_true(load(l, &c, 0x3000, 0x1, &t));
  /* Twice in a row: the second has nothing left to drop (and skips the walk); one after a
   * fill drops what the fill brought. */
  l1d_invalidate(l);
  l1d_invalidate(l);
  assert_false(load(l, &c, 0x3000, 0x1, &t));
  l1d_invalidate(l);
  assert_false(load(l, &c, 0x3000, 0x1, &t));
  assert_true(load(l, &c, 0x3000, 0x1, &t));
  l1d_destroy(l);
}

/* -gpgpu_adaptive_cache_config: the tags are sized for the unified array and use as many
 * ways as the kernel leaves; only an idle L1D changes size. */
static void test_l1_adaptive_ways(void **state) {
  (void)state;
  gpu_config c;
  volta_l1(&c);
  c.adaptive_cache_config = 1;
  c.unified_l1d_kb = 8; /* 4 sets x 128 B: 16 ways at most */
  l1d *l = make_l1(&c);
  assert_int_equal(l1d_max_assoc(l), 16);
  assert_int_equal(l1d_assoc(l), 4);
  rf_diag d = {{0}, 0};
  assert_int_equal(l1d_set_assoc(l, 12, &d), 0);
  assert_int_equal(l1d_assoc(l), 12);
  assert_int_equal(l1d_set_assoc(l, 17, &d), -1);
  uint64_t t = 1;
  for (uint64_t k = 0; k < 12; k++) assert_false(load(l, &c, k * 512, 0x1, &t));
  for (uint64_t k = 0; k < 12; k++) assert_true(load(l, &c, k * 512, 0x1, &t)); /* 12 ways */
  mem_access a = acc(0x0, 0x2, 0, 0, SPACE_GLOBAL);
  assert_int_equal(l1d_access(l, &a, t), L1_MISS);
  assert_int_equal(l1d_set_assoc(l, 8, &d), -1);
  assert_non_null(strstr(d.msg, "busy"));
  l1d_destroy(l);
}

/* A kernel's start sets the size again even where it does not change (gpu.c, adapt_l1d): the
 * tags are emptied if anything touched them since they last were, and left as they are (empty
 * already) if nothing did. */
static void test_l1_same_size_empties(void **state) {
  (void)state;
  gpu_config c;
  volta_l1(&c);
  c.adaptive_cache_config = 1;
  c.unified_l1d_kb = 8;
  l1d *l = make_l1(&c);
  rf_diag d = {{0}, 0};
  assert_int_equal(l1d_set_assoc(l, 12, &d), 0);
  uint64_t t = 1;
  assert_false(load(l, &c, 0x0, 0x1, &t));
  assert_true(load(l, &c, 0x0, 0x1, &t));
  assert_int_equal(l1d_set_assoc(l, 12, &d), 0); /* used since: emptied */
  assert_false(load(l, &c, 0x0, 0x1, &t));
  assert_true(load(l, &c, 0x0, 0x1, &t));
  l1d_invalidate(l);
  assert_int_equal(l1d_set_assoc(l, 12, &d), 0);
  assert_int_equal(l1d_set_assoc(l, 12, &d), 0); /* nothing since: left as it is */
  assert_false(load(l, &c, 0x0, 0x1, &t));
  assert_true(load(l, &c, 0x0, 0x1, &t));
  for (uint64_t k = 1; k < 12; k++) assert_false(load(l, &c, k * 512, 0x1, &t));
  for (uint64_t k = 0; k < 12; k++) assert_true(load(l, &c, k * 512, 0x1, &t)); /* 12 ways */
  l1d_destroy(l);
}

/* A unified array too small for one way (a config that skipped validation): refused with a
 * message, not made with no message. */
static void test_l1_adaptive_no_way(void **state) {
  (void)state;
  gpu_config c;
  volta_l1(&c);
  c.adaptive_cache_config = 1;
  c.l1d.nsets = 64; /* a way of 8 KB */
  c.unified_l1d_kb = 4;
  rf_diag d = {{0}, 0};
  assert_null(l1d_create(&c, 0, &d));
  assert_non_null(strstr(d.msg, "L1D: the 4 KB unified array (-gpgpu_unified_l1d_size) holds "
                                "no way of the L1D's 64 sets x 128 bytes"));
  c.unified_l1d_kb = 16; /* two ways */
  l1d *l = make_l1(&c);
  assert_int_equal(l1d_max_assoc(l), 4); /* (config_validate refuses this: the tags keep the
                                          * configured count) */
  l1d_destroy(l);
  /* a disabled L1D (its config zeroed) is still made, as one that bypasses everything */
  memset(&c.l1d, 0, sizeof c.l1d);
  l = make_l1(&c);
  assert_int_equal(l1d_max_assoc(l), 0);
  l1d_destroy(l);
}

/* Lines k * 4096 all map to set 0 of the linear-indexed 32-set Fermi L1. */
#define SET0(k) ((uint64_t)(k) * 4096u)

static void test_l1_lru_and_fifo(void **state) {
  (void)state;
  gpu_config c;
  fermi_l1(&c);
  l1d *l = make_l1(&c);
  uint64_t t = 1;
  for (int k = 0; k < 4; k++) assert_false(load(l, &c, SET0(k), 0x1, &t));
  assert_true(load(l, &c, SET0(0), 0x1, &t));  /* A becomes MRU */
  assert_false(load(l, &c, SET0(4), 0x1, &t)); /* E evicts B, the LRU */
  assert_true(load(l, &c, SET0(0), 0x1, &t));
  assert_false(load(l, &c, SET0(1), 0x1, &t));
  l1d_destroy(l);
  c.l1d.replacement = 'F';
  l = make_l1(&c);
  t = 1;
  for (int k = 0; k < 4; k++) assert_false(load(l, &c, SET0(k), 0x1, &t));
  assert_true(load(l, &c, SET0(0), 0x1, &t));  /* a use does not reorder */
  assert_false(load(l, &c, SET0(4), 0x1, &t)); /* E evicts A, the first in */
  assert_true(load(l, &c, SET0(1), 0x1, &t));
  assert_false(load(l, &c, SET0(0), 0x1, &t));
  l1d_destroy(l);
}

static void test_l1_bad_configs(void **state) {
  (void)state;
  gpu_config c;
  rf_diag d = {{0}, 0};
  volta_l1(&c);
  c.l1d.nsets = 3;
  assert_null(l1d_create(&c, 0, &d));
  assert_non_null(strstr(d.msg, "L1D"));
  volta_l1(&c);
  c.l1d.line_size = 96;
  assert_null(l1d_create(&c, 0, &d));
  volta_l1(&c);
  c.l1d.line_size = 64; /* sectored needs 128 */
  assert_null(l1d_create(&c, 0, &d));
  volta_l1(&c);
  c.l1d.mshr_entries = 0;
  assert_null(l1d_create(&c, 0, &d));
  assert_non_null(strstr(d.msg, "MSHR"));
  volta_l1(&c);
  c.l1d.data_port_width = 48;
  assert_null(l1d_create(&c, 0, &d));
  volta_l1(&c);
  c.l1_banks = 3;
  assert_null(l1d_create(&c, 0, &d));
  assert_non_null(strstr(d.msg, "bank"));
  volta_l1(&c);
  c.l1d.set_index_fn = 'P';
  c.l1d.nsets = 8; /* IPOLY needs 16, 32 or 64 sets */
  assert_null(l1d_create(&c, 0, &d));
  assert_non_null(strstr(d.msg, "IPOLY"));
  volta_l1(&c);
  assert_null(l1d_create(&c, -1, &d));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_l1_bank_pipelines),
      cmocka_unit_test(test_l1_bank_retries_failed_head),
      cmocka_unit_test(test_l1_sector_merge_limit),
      cmocka_unit_test(test_l1_line_fill),
      cmocka_unit_test(test_l1_write_through_lazy),
      cmocka_unit_test(test_l1_fermi_write_policy),
      cmocka_unit_test(test_l1_dirty_ratio),
      cmocka_unit_test(test_l1_read_served_by_ready_mshr),
      cmocka_unit_test(test_l1_bypass),
      cmocka_unit_test(test_l1_invalidate),
      cmocka_unit_test(test_l1_adaptive_ways),
      cmocka_unit_test(test_l1_same_size_empties),
      cmocka_unit_test(test_l1_adaptive_no_way),
      cmocka_unit_test(test_l1_lru_and_fifo),
      cmocka_unit_test(test_l1_bad_configs),
  };
  return cmocka_run_group_tests_name("memory pieces", tests, NULL, NULL);
}
