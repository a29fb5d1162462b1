/* Tests for the pieces between the SMs' ports and DRAM, each on its own: the interconnect in
 * both network modes (csim/mem/icnt.h), one L2 slice with its queues (csim/mem/l2.h), and the
 * address mapping with its hashes and random slice draws (mem_internal.h, mem_hash.h,
 * slice_table.h, cache_tags.h). The whole memory system is tests/test_memsys.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../csim/mem/cache_tags.h"
#include "../csim/mem/icnt.h"
#include "../csim/mem/l2.h"
#include "../csim/mem/mem_internal.h"

static mem_req req(uint64_t addr, uint8_t mask, uint32_t token, int write) {
  mem_req r = {.a = {.addr = addr, .sector_mask = mask, .full_mask = write ? mask : 0,
                     .size = (uint16_t)(32 * __builtin_popcount(mask)), .token = token,
                     .is_write = (uint8_t)write, .space = SPACE_GLOBAL}};
  return r;
}

/* ---- interconnect ---- */

static icnt *make_net(int packet_mode, int n_in, int n_out) {
  icnt_params p = {.n_in = n_in, .n_out = n_out, .packet_mode = packet_mode, .flit_bytes = 40,
                   .in_cap = packet_mode ? 2 : 9, .vc_cap = 64, .eject_cap = 64,
                   .out_cap = packet_mode ? 2 : 16, .latency = 5, .speedup = 2, .islip = 1};
  rf_diag d = {{0}, 0};
  icnt *n = icnt_create(&p, "test network", &d);
  if (!n) fail_msg("%s", d.msg);
  return n;
}

/* The cycle at which output `o` first offers a whole packet, stepping from `from`; the packet
 * is popped. */
static uint64_t arrival(icnt *n, int o, uint64_t from, uint32_t *token) {
  mem_req r;
  for (uint64_t t = from; t < from + 1000; t++) {
    icnt_cycle(n, t);
    if (icnt_peek(n, o, &r)) {
      icnt_pop(n, o);
      if (token) *token = r.a.token;
      return t;
    }
  }
  fail_msg("no packet at output %d", o);
  return 0;
}

/* BookSim mode: a packet of k flits pushed before cycle 1 is whole at its output after
 * -rfsim_icnt_latency + k - 1 cycles (one flit a cycle through every stage); the injection
 * queue holds 9 flits, so a second 4-flit write fits behind the first and a third does not. */
static void test_icnt_booksim_latency_and_flits(void **state) {
  (void)state;
  icnt *n = make_net(0, 3, 3);
  mem_req rd = req(0x0, 0x1, 1, 0), wr = req(0x0, 0xF, 2, 1);
  int rd_bytes = MEM_PACKET_HEADER_BYTES, wr_bytes = MEM_PACKET_HEADER_BYTES + 128;
  assert_int_equal(icnt_units(n, rd_bytes), 1);
  assert_int_equal(icnt_units(n, wr_bytes), 4);
  assert_int_equal(icnt_push(n, 0, 1, &rd, rd_bytes), 0);
  assert_int_equal(arrival(n, 1, 1, NULL), 5);
  assert_true(icnt_has_room(n, 0, wr_bytes));
  assert_int_equal(icnt_push(n, 0, 2, &wr, wr_bytes), 0);
  assert_true(icnt_has_room(n, 0, wr_bytes));
  assert_int_equal(icnt_push(n, 0, 2, &wr, wr_bytes), 0);
  assert_false(icnt_has_room(n, 0, wr_bytes)); /* 8 of 9 flits queued */
  assert_true(icnt_has_room(n, 0, rd_bytes));
  assert_false(icnt_has_room(n, 3, rd_bytes)); /* no such input */
  assert_int_equal(icnt_push(n, 0, 3, &rd, rd_bytes), -1);
  assert_int_equal(arrival(n, 2, 6, NULL), 5 + 5 + 3);
  assert_int_equal(arrival(n, 2, 14, NULL), 5 + 5 + 3 + 4); /* right behind, a flit a cycle */
  assert_int_equal(icnt_count(n), 0);
  icnt_destroy(n);
}

/* One flit per input and per output a cycle, internal speedup or not; a packet holds its
 * output until its tail has crossed (wormhole), so two 4-flit packets for one output arrive
 * 4 cycles apart, while packets for different outputs move side by side. */
static void test_icnt_booksim_ports(void **state) {
  (void)state;
  icnt *n = make_net(0, 3, 3);
  mem_req a = req(0x0, 0xF, 10, 1), b = req(0x0, 0xF, 11, 1);
  int bytes = MEM_PACKET_HEADER_BYTES + 128;
  assert_int_equal(icnt_push(n, 0, 0, &a, bytes), 0);
  assert_int_equal(icnt_push(n, 1, 0, &b, bytes), 0);
  uint32_t tok;
  uint64_t first = arrival(n, 0, 1, &tok);
  assert_int_equal(first, 5 + 3);
  assert_int_equal(tok, 10);
  assert_int_equal(arrival(n, 0, first + 1, &tok), first + 4);
  assert_int_equal(tok, 11);
  assert_int_equal(icnt_push(n, 0, 1, &a, bytes), 0);
  assert_int_equal(icnt_push(n, 1, 2, &b, bytes), 0);
  assert_int_equal(arrival(n, 1, 100, NULL), 99 + 5 + 3);
  mem_req r;
  assert_true(icnt_peek(n, 2, &r)); /* arrived in the same cycle */
  icnt_destroy(n);
}

/* The receiver's boundary buffer (16 flits) fills when nobody pops it; then the ejection
 * buffer (64), then the switch stops and the injection queue stays full. */
static void test_icnt_booksim_backpressure(void **state) {
  (void)state;
  icnt *n = make_net(0, 1, 1);
  mem_req w = req(0x0, 0xF, 0, 1);
  int bytes = MEM_PACKET_HEADER_BYTES + 128;
  int pushed = 0;
  for (uint64_t t = 1; t < 400; t++) {
    if (icnt_has_room(n, 0, bytes) && icnt_push(n, 0, 0, &w, bytes) == 0) pushed++;
    icnt_cycle(n, t);
  }
  /* 16 + 64 flits past the switch, 64 in its input buffer, 8 in the injection queue */
  assert_int_equal(pushed, (16 + 64 + 64 + 8) / 4);
  assert_false(icnt_has_room(n, 0, bytes));
  int got = 0;
  mem_req r;
  for (uint64_t t = 400; t < 2000; t++) {
    while (icnt_peek(n, 0, &r)) {
      icnt_pop(n, 0);
      got++;
    }
    icnt_cycle(n, t);
  }
  assert_int_equal(got, pushed);
  assert_int_equal(icnt_count(n), 0);
  icnt_destroy(n);
}

/* Local crossbar: packets move whole, one per output per cycle, granted round robin from the
 * input after the last one served; an input holds 2 packets (-icnt_in_buffer_limit), an output
 * 2 (-icnt_out_buffer_limit); a head waiting for a full output blocks the packet behind it. */
static void test_icnt_local_crossbar(void **state) {
  (void)state;
  icnt *n = make_net(1, 3, 2);
  mem_req r = req(0x0, 0xF, 0, 1);
  assert_int_equal(icnt_units(n, 136), 1);
  for (uint32_t i = 0; i < 3; i++) {
    r.a.token = i;
    assert_int_equal(icnt_push(n, (int)i, 0, &r, 136), 0);
  }
  icnt_cycle(n, 1);
  mem_req got;
  assert_true(icnt_peek(n, 0, &got));
  assert_int_equal(got.a.token, 0);
  icnt_cycle(n, 2); /* one per cycle: the output now holds two */
  icnt_cycle(n, 3); /* full: input 2 waits */
  icnt_pop(n, 0);
  icnt_pop(n, 0);
  assert_false(icnt_peek(n, 0, &got));
  icnt_cycle(n, 4);
  assert_true(icnt_peek(n, 0, &got));
  assert_int_equal(got.a.token, 2);
  icnt_pop(n, 0);
  /* Head-of-line blocking: input 0's head waits for output 0, full again; its next packet,
   * for the free output 1, waits behind it. */
  r.a.token = 7;
  assert_int_equal(icnt_push(n, 1, 0, &r, 136), 0);
  assert_int_equal(icnt_push(n, 2, 0, &r, 136), 0);
  icnt_cycle(n, 5);
  icnt_cycle(n, 6);
  assert_int_equal(icnt_push(n, 0, 0, &r, 136), 0);
  r.a.token = 8;
  assert_int_equal(icnt_push(n, 0, 1, &r, 136), 0);
  assert_false(icnt_has_room(n, 0, 136));
  for (uint64_t t = 7; t < 20; t++) icnt_cycle(n, t);
  assert_false(icnt_peek(n, 1, &got));
  icnt_pop(n, 0);
  icnt_cycle(n, 20); /* both go in one cycle: the crossbar looks at the new head again */
  assert_true(icnt_peek(n, 1, &got));
  assert_int_equal(got.a.token, 8);
  icnt_destroy(n);
}

/* Whether output o of both networks offers a packet, the same one if so (taken from both with
 * `take`). */
static int same_head(icnt *plain, icnt *parts, int o, int take) {
  mem_req a, b;
  int got = icnt_peek(plain, o, &a);
  assert_int_equal(got, icnt_peek(parts, o, &b));
  if (!got) return 0;
  assert_int_equal(a.a.token, b.a.token);
  if (take) {
    icnt_pop(plain, o);
    icnt_pop(parts, o);
  }
  return 1;
}

/* Pushes in two parts (senders on several inputs at once, gpu -threads): a round of pushes to
 * inputs empty and busy, with packets taken at the outputs in between, then settled input by
 * input, then a plain push, moves every packet as plain pushes in the same order do, in both
 * network modes. */
static void test_icnt_push_in_parts(void **state) {
  (void)state;
  for (int mode = 0; mode < 2; mode++) {
    icnt *plain = make_net(mode, 3, 2), *parts = make_net(mode, 3, 2);
    int bytes = MEM_PACKET_HEADER_BYTES;
    uint32_t token = 0;
    uint64_t t = 1;
    for (int round = 0; round < 40; round++) {
      int pushed[3] = {0};
      for (int k = 0; k < 4; k++) {
        int in = (round + k) % 3, out = (round * 7 + k) % 2;
        if (!icnt_has_room(plain, in, bytes)) continue;
        assert_true(icnt_has_room(parts, in, bytes));
        mem_req r = req(0x80 * token, 0x1, token, 0);
        token++;
        assert_int_equal(icnt_push(plain, in, out, &r, bytes), 0);
        assert_int_equal(icnt_push_input(parts, in, out, &r, bytes), 0);
        pushed[in]++;
        same_head(plain, parts, k % 2, 1); /* takes at the outputs meanwhile */
      }
      for (int in = 0; in < 3; in++) icnt_push_settle(parts, in, pushed[in]);
      int in = round % 3; /* and one push whole after them */
      if (icnt_has_room(plain, in, bytes)) {
        mem_req r = req(0x80 * token, 0x1, token, 0);
        token++;
        assert_int_equal(icnt_push(plain, in, round % 2, &r, bytes), 0);
        assert_int_equal(icnt_push(parts, in, round % 2, &r, bytes), 0);
      }
      assert_int_equal(icnt_count(plain), icnt_count(parts));
      for (int c = 0; c < 1 + round % 3; c++, t++) {
        icnt_cycle(plain, t);
        icnt_cycle(parts, t);
        for (int o = 0; o < 2; o++) same_head(plain, parts, o, 0);
      }
    }
    for (; icnt_count(plain); t++) {
      assert_true(t < 5000);
      icnt_cycle(plain, t);
      icnt_cycle(parts, t);
      for (int o = 0; o < 2; o++) same_head(plain, parts, o, 1);
    }
    assert_int_equal(icnt_count(parts), 0);
    icnt_destroy(plain);
    icnt_destroy(parts);
  }
}

static void test_icnt_bad_params(void **state) {
  (void)state;
  icnt_params p = {.n_in = 1, .n_out = 1, .flit_bytes = 40, .in_cap = 9, .vc_cap = 64,
                   .eject_cap = 64, .out_cap = 16, .latency = 1, .speedup = 1};
  rf_diag d = {{0}, 0};
  assert_null(icnt_create(&p, "net", &d));
  assert_non_null(strstr(d.msg, "latency >= 2"));
  p.latency = 5;
  p.n_in = 0;
  assert_null(icnt_create(&p, "net", &d));
  assert_non_null(strstr(d.msg, "ports"));
}

/* Flits of a packet: ceil(bytes / flit size), at least one, for sizes inside and beyond the
 * table that serves the usual ones; one per packet in packet mode. */
static void test_icnt_units(void **state) {
  (void)state;
  static const int flit_sizes[] = {1, 7, 32, 40, 255, 256, 300};
  for (size_t k = 0; k < sizeof flit_sizes / sizeof flit_sizes[0]; k++)
    for (int mode = 0; mode < 2; mode++) {
      icnt_params p = {.n_in = 1, .n_out = 1, .packet_mode = mode, .flit_bytes = flit_sizes[k],
                       .in_cap = 9, .vc_cap = 64, .eject_cap = 64, .out_cap = 16,
                       .latency = 5, .speedup = 1};
      rf_diag d = {{0}, 0};
      icnt *n = icnt_create(&p, "net", &d);
      if (!n) fail_msg("%s", d.msg);
      for (int bytes = 0; bytes <= 700; bytes++) {
        int want = mode ? 1 : (bytes + flit_sizes[k] - 1) / flit_sizes[k];
        assert_int_equal(icnt_units(n, bytes), want < 1 ? 1 : want);
      }
      icnt_destroy(n);
    }
}

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
  mem_req r = req(0x1000, 0xF, 3, 0);
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
  r = req(0x1020, 0x2, 4, 0);
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
    mem_req r = req(0x2000, 0x1, k, 0);
    assert_true(l2_can_take(e.s));
    l2_take(e.s, &r, e.t);
    slice_step(&e, 1);
  }
  mem_req other = req(0x8000, 0x1, 9, 0);
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
      mem_req r = req(0x10000 + (uint64_t)taken * 128, 0x1, (uint32_t)taken, 0);
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
  mem_req w = req(0x3000, 0xF, MEM_ACK_TOKEN | 5, 1);
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
  mem_req wb = req(0x3080, 0x3, 0, 1);
  l2_take(e.s, &wb, e.t);
  slice_step(&e, 8);
  assert_int_equal(out->count, 0);
  assert_int_equal(e.st.writes, 6);
  mem_req rd = req(0x3000, 0x4, 6, 0);
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

/* ---- queues (mem_ring.h) ---- */

/* A ring against a plain array queue: random pushes (by copy or in place, growing it where it
 * is full) and pops keep first-in first-out order through wraps, growth and emptying; an
 * emptied ring starts again at its first entry (what keeps its next push on a line the host
 * touched last). */
static void test_ring_fifo(void **state) {
  (void)state;
  enum { OPS = 200000 };
  uint32_t *ref = malloc(OPS * sizeof *ref);
  assert_non_null(ref);
  size_t ref_head = 0, ref_tail = 0;
  access_ring r;
  assert_int_equal(access_ring_init(&r, 3, NULL), 0);
  uint32_t x = 777, next = 0;
  for (int i = 0; i < OPS; i++) {
    x = x * 1103515245u + 12345u;
    /* runs of pushes and of pops, so that the queue fills, wraps and empties */
    int push = ((x >> 16) % 16) < ((i >> 9) % 2 ? 11u : 5u);
    if (push) {
      if (access_ring_full(&r)) assert_int_equal(access_ring_reserve(&r, 1, NULL), 0);
      if ((x >> 20) & 1) { /* (by copy, or filled in place: the same order) */
        mem_access a = {.token = next};
        access_ring_push(&r, &a);
      } else {
        access_ring_push_new(&r)->token = next;
      }
      ref[ref_tail++] = next++;
    } else if (r.count) {
      assert_int_equal(access_ring_head(&r)->token, ref[ref_head++]);
      access_ring_pop(&r);
      if (r.count == 0) assert_int_equal(r.head, 0);
    }
    assert_int_equal(r.count, ref_tail - ref_head);
    for (uint32_t k = 0; k < r.count && k < 4; k++)
      assert_int_equal(access_ring_at(&r, k)->token, ref[ref_head + k]);
  }
  access_ring_free(&r);
  free(ref);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ring_fifo),
      cmocka_unit_test(test_icnt_booksim_latency_and_flits),
      cmocka_unit_test(test_icnt_booksim_ports),
      cmocka_unit_test(test_icnt_booksim_backpressure),
      cmocka_unit_test(test_icnt_local_crossbar),
      cmocka_unit_test(test_icnt_push_in_parts),
      cmocka_unit_test(test_icnt_bad_params),
      cmocka_unit_test(test_icnt_units),
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
  return cmocka_run_group_tests_name("interconnect, L2 slice, address mapping", tests, NULL,
                                     NULL);
}
