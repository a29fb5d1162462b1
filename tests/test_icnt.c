/* Tests for the interconnect in both network modes (csim/mem/icnt.h) and the ring FIFOs its
 * queues and the rest of the memory system's are made of (mem_ring.h), each on its own. The L2
 * slice and the address mapping are tests/test_memnet.c; the whole memory system is
 * tests/test_memsys.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../csim/mem/icnt.h"
#include "../csim/mem/mem_internal.h"
#include "common/test_mem.h"

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
  mem_req rd = tu_mem_req(0x0, 0x1, 1, 0), wr = tu_mem_req(0x0, 0xF, 2, 1);
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
  mem_req a = tu_mem_req(0x0, 0xF, 10, 1), b = tu_mem_req(0x0, 0xF, 11, 1);
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
  mem_req w = tu_mem_req(0x0, 0xF, 0, 1);
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
  mem_req r = tu_mem_req(0x0, 0xF, 0, 1);
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
 * network modes; until settled, an input's room counts them as the sender's own. */
static void test_icnt_push_in_parts(void **state) {
  (void)state;
  for (int mode = 0; mode < 2; mode++) {
    icnt *plain = make_net(mode, 3, 2), *parts = make_net(mode, 3, 2);
    int bytes = MEM_PACKET_HEADER_BYTES;
    uint32_t token = 0;
    uint64_t t = 1;
    for (int round = 0; round < 40; round++) {
      int pushed[3] = {0}, units[3] = {0};
      for (int k = 0; k < 4; k++) {
        int in = (round + k) % 3, out = (round * 7 + k) % 2;
        int size = bytes + (k & 1) * 128; /* (a packet of several flits) */
        /* (the unsettled pushes count against the input's room as the sender's own) */
        int room = icnt_has_room(plain, in, size);
        assert_int_equal(icnt_has_room_after(parts, in, size, units[in]), room);
        if (!room) continue;
        mem_req r = tu_mem_req(0x80 * token, 0x1, token, 0);
        token++;
        assert_int_equal(icnt_push(plain, in, out, &r, size), 0);
        int u = icnt_push_input(parts, in, out, &r, size);
        assert_int_equal(u, icnt_units(parts, size));
        pushed[in]++;
        units[in] += u;
        same_head(plain, parts, k % 2, 1); /* takes at the outputs meanwhile */
      }
      for (int in = 0; in < 3; in++) icnt_push_settle(parts, in, pushed[in], units[in]);
      int in = round % 3; /* and one push whole after them */
      if (icnt_has_room(plain, in, bytes)) {
        mem_req r = tu_mem_req(0x80 * token, 0x1, token, 0);
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
  };
  return cmocka_run_group_tests_name("interconnect, ring queues", tests, NULL, NULL);
}
