/* Tests for the whole memory system below the LD/ST unit (csim/mem/memsys.c): round trips and
 * their latency accounting, clock domains, the clusters' shared ports, write
 * acknowledgements per sector, atomics around the L1D, random streams from several SMs that
 * must drain completely and deterministically on every shipped memory pipeline, and bad
 * configurations. Run from the repo root (the streams load configs/). */
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

static mem_access acc(uint64_t addr, uint8_t mask, uint32_t token, int write, int sm) {
  return (mem_access){.addr = addr, .sector_mask = mask, .full_mask = write ? mask : 0,
                      .size = (uint16_t)(32 * __builtin_popcount(mask)), .token = token,
                      .is_write = (uint8_t)write, .space = SPACE_GLOBAL, .sm = (uint16_t)sm};
}

static memsys *make_memsys(const gpu_config *c, int n_sms) {
  rf_diag d = {{0}, 0};
  memsys *m = memsys_create(c, n_sms, &d);
  if (!m) fail_msg("%s", d.msg);
  return m;
}

static void load_config(gpu_config *c, const char *path) {
  config_defaults(c);
  rf_diag d = {{0}, 0};
  if (config_load_file(c, path, NULL, &d) != 0) fail_msg("%s", d.msg);
}

/* Steps until SM `sm` has received `n` replies; returns the cycle of the last one and leaves
 * the replies' sector masks in masks[] (if given). Every other SM takes its replies too (an
 * SM that did not would hold up its cluster's ejection buffer). */
static uint64_t replies(memsys *m, int sm, int n, uint64_t *t, uint8_t *masks) {
  int got = 0;
  while (got < n) {
    assert_true(*t < 100000);
    memsys_cycle(m, ++*t);
    mem_access r;
    for (int i = 0; i < 64; i++)
      while (memsys_peek_reply(m, i, &r)) {
        if (i == sm && masks) masks[got] = r.sector_mask;
        got += i == sm;
        memsys_pop_reply(m, i);
      }
  }
  return *t;
}

static void drain(memsys *m, uint64_t *t) {
  while (memsys_busy(m)) {
    assert_true(*t < 1000000);
    memsys_cycle(m, ++*t);
    for (int sm = 0; sm < 64; sm++)
      while (memsys_peek_reply(m, sm, &(mem_access){0})) memsys_pop_reply(m, sm);
  }
  assert_int_equal(memsys_debug_residue(m), 0);
}

/* GTX 480 (config_defaults): a 128-byte read of a cold line is split into four sector
 * requests at the L2, each a miss fetched from DRAM (the first opens the row); four replies
 * of one flit each come back. The read cannot be faster than its fixed delays: the two
 * network traversals, the ROP delay, -dram_latency and the row activation and CAS. The
 * latency statistic counts each sector from its creation at the slice. Read again, the line
 * hits: no DRAM, and only the networks and the ROP delay are left. */
static void test_memsys_round_trip(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  memsys *m = make_memsys(&c, 15);
  mem_access a = acc(0x0, 0xF, 42, 0, 0);
  uint64_t t = 0;
  assert_true(memsys_can_send(m, 0, &a));
  memsys_send(m, &a, 0, 0);
  uint8_t masks[4];
  uint64_t back = replies(m, 0, 4, &t, masks);
  assert_int_equal(masks[0] | masks[1] | masks[2] | masks[3], 0xF);
  double dram_core = (double)(c.dram.tRCD + c.dram.CL) * c.clk_core / c.clk_dram;
  double fixed = 2.0 * c.icnt_latency + c.l2_rop_latency + c.dram_latency + dram_core;
  assert_true((double)back >= fixed);
  assert_true((double)back <= fixed + 40);
  const memsys_stats *s = memsys_get_stats(m);
  assert_int_equal(s->l2.accesses, 4);
  assert_int_equal(s->l2.misses, 4);
  assert_int_equal(s->dram.reads, 4);
  assert_int_equal(s->dram.row_misses, 1);
  assert_int_equal(s->dram.row_hits, 3);
  assert_int_equal(s->icnt_request_flits, 1);
  assert_int_equal(s->icnt_reply_flits, 4); /* 8 + 32 bytes in a 40-byte flit */
  assert_int_equal(s->num_mfs, 4);
  assert_true(s->mf_total_latency < 4 * back); /* created at the slice, after the network */
  assert_true(s->mf_total_latency >= 4 * (back - 2 * (uint64_t)c.icnt_latency - 10));
  assert_true(s->icnt2mem_latency >= (uint64_t)c.icnt_latency);
  assert_int_equal(s->mf_flushed, 0);
  memsys_flush_latency(m);
  assert_int_equal(s->mf_flushed, 4);
  assert_int_equal(s->mf_flushed_latency, s->mf_total_latency);
  drain(m, &t);
  uint64_t start = t;
  a.token = 43;
  memsys_send(m, &a, t, t);
  uint64_t hit = replies(m, 0, 4, &t, NULL) - start;
  assert_true(hit >= 2u * (uint64_t)c.icnt_latency + (uint64_t)c.l2_rop_latency);
  assert_true(hit <= 2u * (uint64_t)c.icnt_latency + (uint64_t)c.l2_rop_latency + 12);
  assert_int_equal(s->l2.hits, 4);
  assert_int_equal(s->dram.reads, 4);
  drain(m, &t);
  memsys_destroy(m);
}

/* Clock domains: 700 core cycles are exactly 924 DRAM cycles per channel, however the core
 * cycles are stepped. */
static void test_memsys_clocks_exact(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  memsys *m = make_memsys(&c, 1);
  memsys_cycle(m, 700);
  assert_int_equal(memsys_get_stats(m)->dram.total_cycles, 924 * 6);
  memsys_destroy(m);
  m = make_memsys(&c, 1);
  for (uint64_t t = 1; t <= 7000; t++) memsys_cycle(m, t);
  assert_int_equal(memsys_get_stats(m)->dram.total_cycles, 9240 * 6);
  memsys_destroy(m);
}

/* The SMs of a cluster share its port: the injection queue (9 flits) takes nine reads (one
 * flit each) or two 128-byte writes (four flits each), whichever SM of the cluster sends. */
static void test_memsys_cluster_port(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  c.n_cores_per_cluster = 2;
  memsys *m = make_memsys(&c, 4);
  int sent = 0;
  for (;; sent++) {
    mem_access a = acc((uint64_t)sent * 128, 0x1, (uint32_t)sent, 0, sent % 2);
    if (!memsys_can_send(m, sent % 2, &a)) break;
    memsys_send(m, &a, 0, 0);
  }
  assert_int_equal(sent, 9);
  mem_access other = acc(0x10000, 0x1, 99, 0, 2);
  assert_true(memsys_can_send(m, 2, &other)); /* the other cluster */
  assert_false(memsys_can_send(m, 4, &other)); /* no such SM */
  uint64_t t = 0;
  drain(m, &t);
  assert_int_equal(memsys_get_stats(m)->num_mfs, 9);
  mem_access w = acc(0x0, 0xF, 0, 1, 1);
  memsys_send(m, &w, t, t);
  assert_true(memsys_can_send(m, 0, &w));
  memsys_send(m, &w, t, t);
  assert_false(memsys_can_send(m, 0, &w));
  drain(m, &t);
  memsys_destroy(m);
}

/* A 128-byte store with an acknowledgement token is four sector writes at the sectored,
 * write-back L2: four data-less acknowledgements come back and DRAM sees nothing; the line
 * then reads back from the L2. Nine dirty lines in one set (8 ways) of one slice force a
 * write-back: lines 98304 bytes apart share slice 0 and set 0 (12 slices x 256-byte chunks,
 * 64 sets of 128-byte lines). An L1 write-back (no acknowledgement bit) gets no reply. */
static void test_memsys_write_acks(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  memsys *m = make_memsys(&c, 1);
  uint64_t t = 0;
  mem_access w = acc(0x0, 0xF, MEM_ACK_TOKEN | 7u, 1, 0);
  memsys_send(m, &w, t, t);
  mem_access r;
  for (int got = 0; got < 4;) {
    memsys_cycle(m, ++t);
    assert_true(t < 10000);
    if (!memsys_peek_reply(m, 0, &r)) continue;
    assert_int_equal(r.token, MEM_ACK_TOKEN | 7u);
    assert_int_equal(r.is_write, 1);
    assert_int_equal(r.sector_mask, 0);
    memsys_pop_reply(m, 0);
    got++;
  }
  const memsys_stats *s = memsys_get_stats(m);
  assert_int_equal(s->l2.writes, 4);
  assert_int_equal(s->icnt_request_flits, 4); /* 8 + 128 bytes in 40-byte flits */
  assert_int_equal(s->icnt_reply_flits, 4);
  drain(m, &t);
  assert_int_equal(s->dram.writes + s->dram.reads, 0);
  mem_access rd = acc(0x0, 0xF, 1, 0, 0);
  memsys_send(m, &rd, t, t);
  replies(m, 0, 4, &t, NULL);
  assert_int_equal(s->l2.hits, 4);
  for (uint64_t k = 1; k <= 8; k++) {
    mem_access wb = acc(k * 98304, 0xF, 0, 1, 0);
    while (!memsys_can_send(m, 0, &wb)) memsys_cycle(m, ++t);
    memsys_send(m, &wb, t, t);
  }
  drain(m, &t);
  assert_false(memsys_peek_reply(m, 0, &r));
  assert_int_equal(s->l2.writes, 4 + 32);
  assert_true(s->dram.writes >= 1);
  assert_int_equal(s->dram.reads, 0);
  memsys_destroy(m);
}

/* Atomics go around the L1D (l1d_access queues them for the port) and are done at the L2: a
 * miss fetches the sector, the second atomic to it merges or hits; each reply goes back to
 * the LD/ST unit with its token. */
static void test_memsys_atomics(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  memsys *m = make_memsys(&c, 1);
  rf_diag d = {{0}, 0};
  l1d *l = l1d_create(&c, 0, &d);
  assert_non_null(l);
  uint64_t t = 0;
  int done = 0;
  for (uint32_t k = 0; k < 2; k++) {
    mem_access a = acc(0x8000, 0x1, 100 + k, 0, 0);
    a.is_atomic = 1;
    a.bypass_l1 = 1;
    while (l1d_access(l, &a, t) == L1_STALL) {
      l1d_emit(l, m, t);
      memsys_cycle(m, ++t);
    }
  }
  while (done < 2) {
    assert_true(t < 10000);
    memsys_cycle(m, ++t);
    l1d_emit(l, m, t);
    mem_access r;
    while (memsys_peek_reply(m, 0, &r)) {
      assert_int_equal(r.bypass_l1, 1);
      assert_int_equal(r.token, 100u + (uint32_t)done++);
      memsys_pop_reply(m, 0);
    }
  }
  const memsys_stats *s = memsys_get_stats(m);
  assert_int_equal(s->dram.reads, 1);
  assert_int_equal(s->l2.misses + s->l2.hit_reserved + s->l2.hits, 2);
  assert_int_equal(l1d_stats(l)->accesses, 0);
  assert_false(l1d_busy(l));
  drain(m, &t);
  l1d_destroy(l);
  memsys_destroy(m);
}

/* ---- random streams ---- */

/* A few SMs, each with its L1D, drive the memory system with a pseudo-random mix of loads,
 * stores (global and local) and atomics, handled as the LD/ST unit does (ldst.c): one reply a
 * cycle into the L1D or, for an access that went around it, to the unit; the L1D's misses
 * and bypassed accesses out through l1d_emit. Every load must complete exactly once (tokens
 * add up to zero) and every store get all its acknowledgements. */
enum { NSM = 4, NACC = 2500 };

typedef struct run_result {
  memsys_stats ms;
  cache_stats l1[NSM];
  uint64_t cycles, completions, expected_completions, acks, expected_acks;
  int64_t token_sum;
} run_result;

/* deferred: each cycle's SM steps run inside memsys_defer, visiting the clusters from the last
 * to the first (as threads stepping them in parallel may finish in any order): the requests
 * must still come out as a direct run in SM order gives them. Each SM draws its own stream.
 * deferred 2: on two cycles of three, the memory system's cycle leaves its reply network to
 * memsys_cycle_end, which runs with the next cycle's part ahead (memsys_cycle_ahead) halfway
 * through the SMs, as the first thread of gpu -threads runs both while the others step SMs. */
static void run_stream_as(const gpu_config *c, uint64_t seed, int deferred, run_result *out) {
  memset(out, 0, sizeof *out);
  memsys *m = make_memsys(c, NSM);
  l1d *l[NSM];
  for (int i = 0; i < NSM; i++) {
    l[i] = l1d_create(c, i, NULL);
    assert_non_null(l[i]);
  }
  int splits = c->l2.enabled && c->l2.sectored;
  uint64_t xs[NSM], t = 0;
  for (int i = 0; i < NSM; i++) xs[i] = seed + 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1);
  int issued[NSM] = {0}, have[NSM] = {0};
  int per = c->n_cores_per_cluster;
  rf_diag d = {{0}, 0};
  mem_access pending[NSM];
  for (;;) {
    int live = 0;
    for (int i = 0; i < NSM; i++) live |= issued[i] < NACC || have[i] || l1d_busy(l[i]);
    if (!live && !memsys_busy(m)) break;
    assert_true(t < 3000000);
    t++;
    int split = deferred == 2 && t % 3;
    if (split) memsys_cycle_begin(m, t);
    else memsys_cycle(m, t);
    if (deferred) memsys_defer(m, 1, &d);
    for (int k = 0; k < NSM; k++) {
      if (split && k == NSM / 2) {
        memsys_cycle_end(m);
        memsys_cycle_ahead(m, t + 1);
      }
      int i = deferred ? (NSM / per - 1 - k / per) * per + k % per : k;
      uint64_t x = xs[i];
      mem_access r;
      if (memsys_peek_reply(m, i, &r)) {
        int taken = 1;
        if (mem_wants_ack(&r)) out->acks++;
        else if (r.bypass_l1) out->token_sum += r.token, out->completions++;
        else if (l1d_can_fill(l[i])) l1d_fill(l[i], &r, t);
        else taken = 0;
        if (taken) memsys_pop_reply(m, i);
      }
      l1d_emit(l[i], m, t);
      l1d_cycle(l[i], t);
      uint32_t tok;
      int acks;
      while (l1d_pop_hit(l[i], t, &tok) || l1d_pop_miss(l[i], t, &tok)) {
        out->completions++;
        out->token_sum += tok;
      }
      while (l1d_pop_store_ack(l[i], &tok, &acks)) out->acks += (uint64_t)acks;
      if (!have[i] && issued[i] < NACC) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t line = (x >> 8) % 16384; /* 2 MB: misses in the L1Ds, some in the L2 */
        int store = (x & 7) == 0;
        uint32_t id = (uint32_t)(i * NACC + issued[i]);
        /* a whole line or one sector; a sectored L1D takes sectors only (config_validate) */
        int bypass = !store && (x & 0xff) == 0xff;
        bypass |= !c->l1d.enabled || (c->gmem_skip_l1d && (x & 0x30) != 0);
        int whole = (x >> 4 & 1) && (bypass || !c->l1d.sectored);
        uint8_t mask = whole ? 0xF : (uint8_t)(1u << (x >> 5 & 3));
        pending[i] = acc(line * 128, mask, store ? MEM_ACK_TOKEN | id : id, store, i);
        pending[i].space = (x & 0x30) == 0 ? SPACE_LOCAL : SPACE_GLOBAL;
        pending[i].is_atomic = !store && (x & 0xff) == 0xff;
        pending[i].bypass_l1 = (uint8_t)bypass;
        have[i] = 1;
        xs[i] = x;
      }
      if (have[i] && l1d_access(l[i], &pending[i], t) != L1_STALL) {
        /* as the LD/ST unit: a random slice draw; one line in four untouched, drawn when its
         * request is sent (deferred: behind that cluster's later sends too) */
        if (pending[i].addr >> 7 & 3) memsys_touch(m, i, pending[i].addr);
        const mem_access *p = &pending[i];
        if (p->is_write) {
          out->expected_acks += (uint64_t)mem_acks(p, splits);
        } else {
          int n = p->bypass_l1 ? mem_acks(p, splits) : 1;
          out->expected_completions += (uint64_t)n;
          out->token_sum -= (int64_t)p->token * n;
        }
        have[i] = 0;
        issued[i]++;
      }
    }
    if (deferred) assert_int_equal(memsys_defer(m, 0, &d), 0);
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

static void run_stream(const gpu_config *c, uint64_t seed, run_result *out) {
  run_stream_as(c, seed, 0, out);
}

static void check_complete(const run_result *r) {
  assert_true(r->expected_completions > 0);
  assert_int_equal(r->completions, r->expected_completions);
  assert_int_equal(r->token_sum, 0);
  assert_int_equal(r->acks, r->expected_acks);
  assert_true(r->ms.dram.busy_cycles <= r->ms.dram.total_cycles);
}

static void test_memsys_determinism_and_drain(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  run_result a, b;
  run_stream(&c, 0x9e3779b97f4a7c15ULL, &a);
  run_stream(&c, 0x9e3779b97f4a7c15ULL, &b);
  assert_memory_equal(&a, &b, sizeof a);
  check_complete(&a);
  assert_true(a.ms.l2.accesses > 0 && a.ms.dram.reads > 0 && a.ms.dram.writes > 0);
  run_stream(&c, 12345, &b); /* a different stream differs: the comparison is not vacuous */
  assert_true(memcmp(&a.ms, &b.ms, sizeof a.ms) != 0);
  /* Small queues everywhere: the slices refuse packets (gpu_stall_dramfull), still drains. */
  c.l2_queue[0] = 4;
  c.l2_queue[1] = c.l2_queue[2] = c.l2_queue[3] = 1;
  c.cluster_ejection_buffer = 1;
  c.dram_return_queue = 1;
  c.icnt_boundary_buffer = 5;
  run_stream(&c, 7, &b);
  check_complete(&b);
  assert_true(b.ms.stall_dramfull > 0);
  /* FIFO DRAM scheduling, no L1D, no L2. */
  config_defaults(&c);
  c.dram_scheduler = 0;
  memset(&c.l1d, 0, sizeof c.l1d);
  run_stream(&c, 777, &b);
  check_complete(&b);
  memset(&c.l2, 0, sizeof c.l2);
  run_stream(&c, 778, &b);
  check_complete(&b);
  assert_int_equal(b.ms.l2.hits, 0);
}

/* The Pascal and Volta pipelines: sectored L1Ds (bypassed for globals on TITAN X, write-through
 * in banks on TITAN V), random and IPOLY slice indexing, the local crossbar. */
/* Clusters stepped on several threads (gpu -threads): with the SMs' sends pushed or noted
 * during the cycle (memsys_defer) and settled after it, the clusters visited in another order,
 * and the reply network's cycle and the next cycle's slices and channels run amid the SMs',
 * everything comes out as in a direct run: the TITAN X's random slice draws, two SMs sharing
 * one cluster's network port (a send takes room the second SM sees), and the TITAN V's local
 * crossbar. */
static void test_memsys_deferred_like_direct(void **state) {
  (void)state;
  static const char *const configs[] = {"configs/titanx.config", "configs/titanv.config"};
  for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++) {
    gpu_config c;
    load_config(&c, configs[k]);
    c.n_cores_per_cluster = 2;
    c.icnt_input_buffer = 8;    /* ports the cluster's two SMs fill: two lines of data */
    c.icnt_in_buffer_limit = 2; /* (BookSim, in flits), two packets (local crossbar) */
    run_result a, b;
    run_stream_as(&c, 7 + k, 0, &a);
    check_complete(&a);
    run_stream_as(&c, 7 + k, 1, &b);
    assert_memory_equal(&a, &b, sizeof a);
    run_stream_as(&c, 7 + k, 2, &b);
    assert_memory_equal(&a, &b, sizeof a);
  }
}

static void test_memsys_shipped_pipelines(void **state) {
  (void)state;
  static const char *const configs[] = {"configs/titanx.config", "configs/titanv.config",
                                        "configs/tesla_c2050.config"};
  for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++) {
    gpu_config c;
    load_config(&c, configs[k]);
    run_result a, b;
    run_stream(&c, 99 + k, &a);
    check_complete(&a);
    run_stream(&c, 99 + k, &b);
    assert_memory_equal(&a, &b, sizeof a);
  }
}

static void test_memsys_bad_configs(void **state) {
  (void)state;
  gpu_config c;
  rf_diag d = {{0}, 0};
  config_defaults(&c);
  c.mem_chunk_bytes = 100;
  assert_null(memsys_create(&c, 15, &d));
  assert_non_null(strstr(d.msg, "mem_chunk_bytes"));
  config_defaults(&c);
  c.clk_dram = 0;
  assert_null(memsys_create(&c, 15, &d));
  assert_non_null(strstr(d.msg, "DRAM clock"));
  config_defaults(&c);
  c.n_mem = 0;
  assert_null(memsys_create(&c, 15, &d));
  config_defaults(&c);
  c.l2.assoc = 0;
  assert_null(memsys_create(&c, 15, &d));
  assert_non_null(strstr(d.msg, "L2"));
  config_defaults(&c);
  c.dram.nbk = 100;
  assert_null(memsys_create(&c, 15, &d));
  config_defaults(&c);
  c.icnt_flit_size = 0;
  assert_null(memsys_create(&c, 15, &d));
  config_defaults(&c);
  assert_null(memsys_create(&c, 0, &d));
  config_defaults(&c);
  c.n_cores_per_cluster = 3;
  assert_null(memsys_create(&c, 16, &d)); /* 16 SMs do not fill clusters of 3 */
  assert_non_null(strstr(d.msg, "clusters"));
  config_defaults(&c);
  c.icnt_input_buffer = 3;
  assert_null(memsys_create(&c, 15, &d));
  assert_string_equal(d.msg, "-rfsim_icnt_input_buffer: expected room for the largest packet "
                             "(4 flits of 40 bytes), found 3");
  config_defaults(&c);
  c.partition_indexing = 1; /* XOR needs a power-of-two channel count; GTX 480 has 6 */
  assert_null(memsys_create(&c, 15, &d));
  assert_non_null(strstr(d.msg, "power-of-two channel"));
  c.partition_indexing = 3;
  assert_null(memsys_create(&c, 15, &d));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_memsys_round_trip),
      cmocka_unit_test(test_memsys_clocks_exact),
      cmocka_unit_test(test_memsys_cluster_port),
      cmocka_unit_test(test_memsys_write_acks),
      cmocka_unit_test(test_memsys_atomics),
      cmocka_unit_test(test_memsys_determinism_and_drain),
      cmocka_unit_test(test_memsys_shipped_pipelines),
      cmocka_unit_test(test_memsys_deferred_like_direct),
      cmocka_unit_test(test_memsys_bad_configs),
  };
  return cmocka_run_group_tests_name("memory system", tests, NULL, NULL);
}
