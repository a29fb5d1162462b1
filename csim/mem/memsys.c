/* The shared memory system: the clusters' network ports, the request and reply networks, the
 * L2 slices, the DRAM channels, and the clock domains that drive them.
 *
 * Clusters (-gpgpu_n_cores_per_cluster SMs) share one network port each way, as in GPGPU-Sim:
 * their requests share the input buffer of the request network, and replies arrive, one a
 * core cycle, in the cluster's ejection buffer (-gpgpu_n_cluster_ejection_buffer_size), whose
 * head moves to its SM's response queue (-gpgpu_n_ldst_response_buffer_size) when that has
 * room (a full one blocks the cluster's other SMs too). Instruction-fetch replies go to the
 * SM's fetch stage instead, which always takes them. The L2 slices and DRAM channels are
 * partitions.c's.
 *
 * Clocks: each domain d (icnt, L2, DRAM) has run floor(now * f_d / f_core) cycles after core
 * cycle `now`. Frequencies are taken in kHz (rounded once from the MHz given) and the ratio
 * reduced, so the count is exact integer arithmetic with no drift, and skipped core cycles are
 * caught up. Within a core cycle the order is GPGPU-Sim's: clusters take replies, slices
 * inject replies, DRAM, L2 (slices take requests, then their cycle), the networks move. With
 * unequal clocks the domains' cycles due run in that order as a batch. */
#include <stdlib.h>
#include <string.h>

#include "memsys_debug.h"
#include "memsys_internal.h"

static uint64_t gcd_u64(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static int check_clock(double mhz, const char *what, rf_diag *d) {
  if (!(mhz >= 0.001 && mhz < 1e7))
    return rf_fail(d, "clock domains: expected a %s clock in [0.001, 1e7) MHz, found %g", what,
                   mhz);
  return 0;
}

static uint64_t khz(double mhz) { return (uint64_t)(mhz * 1000.0 + 0.5); }

static int make_clock(clock_domain *c, double mhz, double core_mhz, const char *what,
                      rf_diag *d) {
  if (check_clock(mhz, what, d)) return -1;
  uint64_t f = khz(mhz), fc = khz(core_mhz);
  uint64_t g = gcd_u64(f, fc);
  c->num = f / g;
  c->den = fc / g;
  c->target = c->rem = c->done = 0;
  return 0;
}

/* Sets target = floor(now * num / den). Stepping by one core cycle (the usual case) is an add
 * and a compare; a jump divides, in a form that cannot overflow for any realistic run. */
static void clock_advance(clock_domain *c, uint64_t prev, uint64_t now) {
  if (now == prev + 1) {
    c->rem += c->num;
    while (c->rem >= c->den) {
      c->rem -= c->den;
      c->target++;
    }
  } else {
    uint64_t hi = now / c->den, lo = now % c->den;
    c->target = hi * c->num + lo * c->num / c->den;
    c->rem = lo * c->num % c->den;
  }
}

static int check_geometry(const gpu_config *c, int n_sms, rf_diag *d) {
  if (n_sms < 1 || n_sms > 65535)
    return rf_fail(d, "memory system: expected 1..65535 SMs, found %d", n_sms);
  if (c->n_mem < 1 || c->n_sub_partition_per_mchannel < 1 ||
      (long)c->n_mem * c->n_sub_partition_per_mchannel > 4096)
    return rf_fail(d, "memory system: expected 1..4096 L2 slices (n_mem >= 1, sub-partitions "
                      ">= 1), found %d x %d",
                   c->n_mem, c->n_sub_partition_per_mchannel);
  if (c->n_cores_per_cluster < 1 || n_sms % c->n_cores_per_cluster)
    return rf_fail(d, "memory system: expected the SMs (%d) to fill clusters of %d", n_sms,
                   c->n_cores_per_cluster);
  if (c->icnt_flit_size < 1)
    return rf_fail(d, "interconnect: expected a flit size >= 1, found %d", c->icnt_flit_size);
  /* A packet enters BookSim's injection queue whole: the largest (a line of data and its
   * header) must fit, or it never would. */
  int largest = MEM_SECTOR_BYTES * MEM_SECTORS_PER_LINE + MEM_PACKET_HEADER_BYTES;
  int flits = (largest + c->icnt_flit_size - 1) / c->icnt_flit_size;
  if (c->network_mode == ICNT_BOOKSIM && c->icnt_input_buffer < flits)
    return rf_fail(d, "-rfsim_icnt_input_buffer: expected room for the largest packet (%d "
                      "flits of %d bytes), found %d", flits, c->icnt_flit_size,
                   c->icnt_input_buffer);
  if (c->cluster_ejection_buffer < 1 || c->l1_response_queue < 1)
    return rf_fail(d, "memory system: expected ejection and response buffers >= 1, found %d "
                      "and %d", c->cluster_ejection_buffer, c->l1_response_queue);
  int chunk = c->mem_chunk_bytes;
  int l2_line = c->l2.enabled ? c->l2.line_size : MEM_SECTOR_BYTES;
  if (chunk < MEM_SECTOR_BYTES || !mem_is_pow2((uint64_t)chunk) || (l2_line > 0 && chunk % l2_line))
    return rf_fail(d, "memory system: expected mem_chunk_bytes a power of two >= 32 and a "
                      "multiple of the L2 line (%d), found %d",
                   l2_line, chunk);
  /* Requests are 128-byte lines (or parts of one); an L2 line must hold a whole request. */
  if (c->l2.enabled && c->l2.line_size < 128)
    return rf_fail(d, "memory system: expected an L2 line of at least 128 bytes (a request "
                      "line), found %d", c->l2.line_size);
  if (c->partition_indexing == 1 && !mem_is_pow2((uint64_t)c->n_mem))
    return rf_fail(d, "-gpgpu_memory_partition_indexing 1: expected a power-of-two channel "
                      "count, found %d", c->n_mem);
  if (c->partition_indexing == 2 &&
      !mem_ipoly_defined(mem_log2((uint64_t)mem_next_pow2((uint32_t)c->n_mem) *
                                  (uint64_t)c->n_sub_partition_per_mchannel)))
    return rf_fail(d, "-gpgpu_memory_partition_indexing 2: expected 16, 32 or 64 slice slots "
                      "(channels rounded up to a power of two x slices), found %d x %d",
                   c->n_mem, c->n_sub_partition_per_mchannel);
  if (c->partition_indexing == 4 && !mem_is_pow2((uint64_t)c->n_sub_partition_per_mchannel))
    return rf_fail(d, "-gpgpu_memory_partition_indexing 4: expected a power-of-two number of "
                      "slices per channel, found %d", c->n_sub_partition_per_mchannel);
  if (c->partition_indexing == 3 || c->partition_indexing > 4)
    return rf_fail(d, "-gpgpu_memory_partition_indexing: expected 0, 1, 2 or 4, found %d",
                   c->partition_indexing);
  return 0;
}

static icnt *make_net(const gpu_config *c, int n_in, int n_out, const char *what, rf_diag *d) {
  icnt_params p = {.n_in = n_in, .n_out = n_out, .flit_bytes = c->icnt_flit_size,
                   .islip = c->icnt_arbiter == 1};
  if (c->network_mode == ICNT_LOCAL) {
    p.packet_mode = 1;
    p.in_cap = c->icnt_in_buffer_limit;
    p.out_cap = c->icnt_out_buffer_limit;
    p.speedup = 1;
  } else {
    p.in_cap = c->icnt_input_buffer;
    p.vc_cap = c->icnt_vc_buffer;
    p.eject_cap = c->icnt_ejection_buffer;
    p.out_cap = c->icnt_boundary_buffer;
    p.latency = c->icnt_latency;
    p.speedup = c->icnt_speedup;
  }
  return icnt_create(&p, what, d);
}

memsys *memsys_create(const gpu_config *c, int n_sms, rf_diag *d) {
  if (check_geometry(c, n_sms, d)) return NULL;
  memsys *m = rf_calloc_lines(1, sizeof *m, d); /* (its parts on lines of their own) */
  if (!m) return NULL;
  m->n_sms = n_sms;
  m->per_cluster = c->n_cores_per_cluster;
  m->n_clusters = n_sms / m->per_cluster;
  m->n_mem = c->n_mem;
  m->n_sub = c->n_sub_partition_per_mchannel;
  m->n_slices = m->n_mem * m->n_sub;
  if (c->dram_sched_queue_size > 0 && c->dram_return_queue > 0)
    m->shared_credits = c->dram_sched_queue_size + c->dram_return_queue - (m->n_sub - 1);
  if (m->shared_credits < 0) m->shared_credits = 1;
  m->map = (addr_map){.chunk = (uint64_t)c->mem_chunk_bytes, .n_mem = (uint64_t)m->n_mem,
                      .n_sub = (uint64_t)m->n_sub,
                      .chunk_log2 = mem_log2((uint64_t)c->mem_chunk_bytes),
                      .indexing = c->partition_indexing,
                      .gap = !mem_is_pow2((uint64_t)m->n_mem),
                      .random_shift = mem_log2((uint64_t)c->mem_chunk_bytes) -
                                      mem_log2((uint64_t)m->n_sub),
                      .random = &m->random};
  addr_map_prepare(&m->map);
  m->perf_memcpy = c->perf_sim_memcpy;
  chunk_count_init(&m->flits, c->icnt_flit_size);
  int ok = !check_clock(c->clk_core, "core", d) &&
           !make_clock(&m->icnt_clk, c->clk_icnt, c->clk_core, "interconnect", d) &&
           !make_clock(&m->l2_clk, c->clk_l2, c->clk_core, "L2", d) &&
           !make_clock(&m->dram_clk, c->clk_dram, c->clk_core, "DRAM", d);
  ok = ok && (c->partition_indexing != 4 ||
              !slice_table_init(&m->random, (uint32_t)m->n_slices, d));
  ok = ok && (m->req_net = make_net(c, m->n_clusters, m->n_slices, "request network", d)) &&
       (m->reply_net = make_net(c, m->n_slices, m->n_clusters, "reply network", d)) &&
       (m->slices = rf_calloc((size_t)m->n_slices, sizeof *m->slices, d)) &&
       (m->slice_active = rf_calloc(((size_t)m->n_slices + 63) / 64, sizeof(uint64_t), d)) &&
       (m->chans = rf_calloc((size_t)m->n_mem, sizeof *m->chans, d)) &&
       (m->ports = rf_calloc((size_t)m->n_mem, sizeof *m->ports, d)) &&
       (m->eject = rf_calloc((size_t)m->n_clusters, sizeof *m->eject, d)) &&
       (m->ejecting = rf_calloc(((size_t)m->n_clusters + 63) / 64, sizeof(uint64_t), d)) &&
       (m->resp = rf_calloc((size_t)n_sms, sizeof *m->resp, d)) &&
       (m->fetch = rf_calloc((size_t)n_sms, sizeof *m->fetch, d)) &&
       (m->logs = rf_calloc((size_t)n_sms, sizeof *m->logs, d)) &&
       (m->sent = rf_calloc_lines((size_t)m->n_clusters, sizeof *m->sent, d));
  for (int i = 0; ok && i < m->n_slices; i++)
    ok = (m->slices[i] = l2_create(c, &m->map, &m->stats.l2, d)) != NULL;
  for (int i = 0; ok && i < m->n_mem; i++) {
    ok = (m->chans[i] = dram_create(c, &m->stats.dram, d)) != NULL &&
         (m->ports[i].own_used = rf_calloc((size_t)m->n_sub, sizeof(int), d)) != NULL;
    if (ok) m->ports[i].last = m->n_sub - 1;
  }
  for (int i = 0; ok && i < m->n_clusters; i++)
    ok = !req_ring_init(&m->eject[i], (uint32_t)c->cluster_ejection_buffer, d);
  for (int i = 0; ok && i < n_sms; i++)
    ok = !req_ring_init(&m->resp[i], (uint32_t)c->l1_response_queue, d) &&
         !access_ring_init(&m->fetch[i], 4, d);
  if (!ok) {
    memsys_destroy(m);
    return NULL;
  }
  return m;
}

void memsys_destroy(memsys *m) {
  if (!m) return;
  icnt_destroy(m->req_net);
  icnt_destroy(m->reply_net);
  for (int i = 0; m->slices && i < m->n_slices; i++) l2_destroy(m->slices[i]);
  free(m->slice_active);
  for (int i = 0; m->chans && i < m->n_mem; i++) dram_destroy(m->chans[i]);
  for (int i = 0; m->ports && i < m->n_mem; i++) free(m->ports[i].own_used);
  for (int i = 0; m->eject && i < m->n_clusters; i++) req_ring_free(&m->eject[i]);
  for (int i = 0; m->resp && i < m->n_sms; i++) req_ring_free(&m->resp[i]);
  for (int i = 0; m->fetch && i < m->n_sms; i++) access_ring_free(&m->fetch[i]);
  for (int i = 0; m->logs && i < m->n_sms; i++) free(m->logs[i].ops);
  free(m->logs);
  free(m->sent);
  slice_table_free(&m->random);
  free(m->slices);
  free(m->chans);
  free(m->ports);
  free(m->eject);
  free(m->ejecting);
  free(m->resp);
  free(m->fetch);
  free(m);
}

int memsys_can_send(const memsys *m, int sm, const mem_access *a) {
  if (sm < 0 || sm >= m->n_sms) return 0;
  int cluster = sm / m->per_cluster;
  const cluster_sent *s = &m->sent[cluster];
  return icnt_has_room_after(m->req_net, cluster, mem_packet_bytes(a, 1),
                             m->deferring ? s->units + s->staged : 0);
}

/* Notes an operation of SM `sm` for memsys_defer(0). Touched only by the thread that steps the
 * SM's cluster. */
static void log_op(memsys *m, int sm, const mem_access *a, uint64_t created, int send) {
  op_log *l = &m->logs[sm];
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 16;
    deferred_op *ops = realloc(l->ops, cap * sizeof *ops);
    if (!ops) {
      l->failed = 1;
      return;
    }
    l->ops = ops;
    l->cap = cap;
  }
  l->ops[l->n++] = (deferred_op){.a = *a, .created = created, .send = send};
  if (send)
    m->sent[sm / m->per_cluster].staged += icnt_units(m->req_net, mem_packet_bytes(a, 1));
}

static void send_now(memsys *m, const mem_access *a, uint64_t created, uint64_t now);

int memsys_defer(memsys *m, int on, rf_diag *d) {
  if (on) {
    m->deferring = 1;
    return 0;
  }
  m->deferring = 0;
  /* the sends pushed already came before any of their cluster's noted ones */
  for (int c = 0; c < m->n_clusters; c++) {
    cluster_sent *s = &m->sent[c];
    if (!s->packets) continue;
    icnt_push_settle(m->req_net, c, s->packets, s->units);
    m->stats.icnt_request_flits += s->flits;
    m->busy = 1;
    s->packets = s->units = 0;
    s->flits = 0;
  }
  /* Only random slices log (memsys_send, memsys_touch); the rest of this is theirs. */
  if (m->map.indexing != 4) return 0;
  int failed = 0;
  /* The order a single thread gives: SM by SM, each in the order it asked. (Untouched logs are
   * only read: a write would take their lines from the cores of the threads that log.) */
  for (int sm = 0; sm < m->n_sms; sm++) {
    op_log *l = &m->logs[sm];
    if (!l->n && !l->failed) continue;
    for (size_t i = 0; i < l->n; i++) {
      const deferred_op *o = &l->ops[i];
      if (o->send) send_now(m, &o->a, o->created, m->now);
      else memsys_touch(m, sm, o->a.addr);
    }
    l->n = 0;
    failed |= l->failed;
    l->failed = 0;
  }
  for (int c = 0; c < m->n_clusters; c++)
    if (m->sent[c].staged) m->sent[c].staged = 0;
  if (failed)
    return rf_fail(d, "memory system: out of memory for the requests of SMs stepped in parallel");
  return 0;
}

/* A send while deferring: into the cluster's network input for `slice` at once (only the
 * thread stepping the cluster pushes there), the rest at memsys_defer(0). */
static void push_deferred(memsys *m, const mem_access *a, uint64_t created, uint32_t slice) {
  mem_req r = {.a = *a, .t_created = created};
  int cluster = a->sm / m->per_cluster, bytes = mem_packet_bytes(a, 1);
  int units = icnt_push_input(m->req_net, cluster, (int)slice, &r, bytes);
  if (units < 0) return;
  m->sent[cluster].packets++;
  m->sent[cluster].units += units;
  m->sent[cluster].flits += (uint64_t)packet_flits(m, bytes);
}

/* Random slices while deferring: the slice of addr's granule if it was drawn before the phase
 * (no one draws during it), else SLICE_NONE. */
static uint32_t drawn_slice(const memsys *m, uint64_t addr) {
  return slice_table_peek(m->map.random, addr >> m->map.random_shift);
}

void memsys_send(memsys *m, const mem_access *a, uint64_t created, uint64_t now) {
  if (!m->deferring || a->sm >= m->n_sms) {
    send_now(m, a, created, now);
    return;
  }
  if (m->map.indexing != 4) {
    push_deferred(m, a, created, addr_slice(&m->map, a->addr));
    return;
  }
  /* A granule not drawn yet is drawn at memsys_defer(0), in the SMs' order, and the send
   * waits for it there, with the cluster's later sends behind it (staged) in their order. */
  int staged = m->sent[a->sm / m->per_cluster].staged;
  uint32_t slice = staged ? SLICE_NONE : drawn_slice(m, a->addr);
  if (slice == SLICE_NONE) log_op(m, a->sm, a, created, 1);
  else push_deferred(m, a, created, slice);
}

static void send_now(memsys *m, const mem_access *a, uint64_t created, uint64_t now) {
  /* Bring the clocks up to `now` first, so a request sent at `now` starts moving in cycle
   * now + 1 whether the caller runs memsys_cycle(now) before or after sending, and so idle
   * cycles the caller skipped are not spent on this request. */
  memsys_cycle_end(m);
  if (now > m->now) memsys_cycle(m, now);
  if (a->sm >= m->n_sms) return;
  mem_req r = {.a = *a, .t_created = created};
  int cluster = a->sm / m->per_cluster;
  if (icnt_push(m->req_net, cluster, (int)addr_slice(&m->map, a->addr), &r,
                mem_packet_bytes(a, 1)))
    return;
  m->stats.icnt_request_flits += (uint64_t)packet_flits(m, mem_packet_bytes(a, 1));
  m->busy = 1;
}

void memsys_touch(memsys *m, int sm, uint64_t addr) {
  if (m->map.indexing != 4) return; /* the slice is a function of the address */
  if (!m->deferring || sm < 0 || sm >= m->n_sms) addr_slice(&m->map, addr);
  else if (drawn_slice(m, addr) == SLICE_NONE) /* (a drawn one: nothing to do) */
    log_op(m, sm, &(mem_access){.addr = addr}, 0, 0);
}

void memsys_memcpy(memsys *m, uint64_t addr, uint64_t bytes) {
  if (!m->perf_memcpy) return;
  /* GPGPU-Sim's perf_memcpy_to_gpu walks the copy 32 bytes at a time with the address cut to
   * 32 bits (an `unsigned`), looking each up in its address mapping. */
  for (uint64_t off = 0; off < bytes; off += MEM_SECTOR_BYTES)
    memsys_touch(m, -1, (uint32_t)(addr + off));
}

int memsys_peek_reply(const memsys *m, int sm, mem_access *out) {
  if (sm < 0 || sm >= m->n_sms || !m->resp[sm].count) return 0;
  *out = req_ring_head(&m->resp[sm])->a;
  return 1;
}

int memsys_reply_waiting(const memsys *m, int sm) {
  return sm >= 0 && sm < m->n_sms && (m->resp[sm].count || m->fetch[sm].count);
}

void memsys_pop_reply(memsys *m, int sm) {
  if (sm >= 0 && sm < m->n_sms && m->resp[sm].count) req_ring_pop(&m->resp[sm]);
}

int memsys_pop_fetch_reply(memsys *m, int sm, mem_access *out) {
  if (sm < 0 || sm >= m->n_sms || !m->fetch[sm].count) return 0;
  *out = *access_ring_head(&m->fetch[sm]);
  access_ring_pop(&m->fetch[sm]);
  return 1;
}

/* Core clock: each cluster hands its oldest reply to its SM, then takes one from the network.
 * Only clusters with a reply in their ejection buffer or at their network output can. */
static void clusters_cycle(memsys *m) {
  const uint64_t *holding = icnt_holding(m->reply_net);
  for (int w = 0; w < (m->n_clusters + 63) / 64; w++)
    for (uint64_t bits = m->ejecting[w] | holding[w]; bits; bits &= bits - 1) {
      int c = w * 64 + __builtin_ctzll(bits);
      req_ring *q = &m->eject[c];
      if (q->count) {
        const mem_req *r = req_ring_head(q);
        int sm = r->a.sm;
        int moved = 0;
        if (r->a.space == SPACE_INST) {
          moved = !access_ring_reserve(&m->fetch[sm], 1, NULL);
          if (moved) access_ring_push(&m->fetch[sm], &r->a);
        } else if (!req_ring_full(&m->resp[sm])) {
          req_ring_push(&m->resp[sm], r);
          m->stats.mf_total_latency += m->now - r->t_created;
          m->stats.icnt2sh_latency += m->now - r->t_ready;
          m->stats.num_mfs++;
          moved = 1;
        }
        if (moved) req_ring_pop(q);
      }
      mem_req r;
      if (!req_ring_full(q) && icnt_peek(m->reply_net, c, &r)) {
        icnt_pop(m->reply_net, c);
        req_ring_push(q, &r);
      }
      if (q->count) m->ejecting[w] |= 1ull << (c & 63);
      else m->ejecting[w] &= ~(1ull << (c & 63));
    }
}

/* Whether the clusters' side holds anything: their ejection buffers, the SMs' queues. */
static int sm_side_busy(const memsys *m) {
  for (int w = 0; w < (m->n_clusters + 63) / 64; w++)
    if (m->ejecting[w]) return 1;
  for (int sm = 0; sm < m->n_sms; sm++)
    if (m->resp[sm].count || m->fetch[sm].count) return 1;
  return 0;
}

/* Whether anything is in flight beyond the clusters' side. */
static int far_side_busy(const memsys *m) {
  return icnt_count(m->req_net) || icnt_count(m->reply_net) || partitions_busy(m);
}

/* Brings the clocks to core cycle `now`; whether the memory system has anything to move (if
 * not, the domains' cycles due pass as time alone). */
static int enter_cycle(memsys *m, uint64_t now) {
  if (now > m->now) {
    clock_advance(&m->dram_clk, m->now, now);
    clock_advance(&m->l2_clk, m->now, now);
    clock_advance(&m->icnt_clk, m->now, now);
    m->now = now;
  }
  uint64_t dram_to = m->dram_clk.target;
  if (dram_to > m->dram_clk.done)
    m->stats.dram.total_cycles += (dram_to - m->dram_clk.done) * (uint64_t)m->n_mem;
  if (m->busy) return 1;
  m->dram_clk.done = dram_to;
  m->l2_clk.done = m->l2_clk.target;
  m->icnt_clk.done = m->icnt_clk.target;
  return 0;
}

/* The slices' first reply offer, the DRAM cycles and the L2 cycles due. */
static void slices_and_channels(memsys *m) {
  uint64_t dram_to = m->dram_clk.target, l2_to = m->l2_clk.target;
  /* (the L2 cycles below read these after the DRAM's: time for the loads to arrive) */
  if (l2_to > m->l2_clk.done) {
    icnt_prefetch_outputs(m->req_net);
    partitions_prefetch(m);
  }
  if (m->icnt_clk.done < m->icnt_clk.target) partitions_offer_replies(m);
  while (m->dram_clk.done < dram_to) partitions_dram_cycle(m, ++m->dram_clk.done);
  while (m->l2_clk.done < l2_to) partitions_l2_cycle(m, ++m->l2_clk.done);
}

/* The request network's cycles due. The two networks share nothing, so the reply network's
 * cycles (memsys_cycle_end) may follow them rather than alternate with them. */
static void request_network(memsys *m) {
  m->reply_from = m->icnt_clk.done;
  while (m->icnt_clk.done < m->icnt_clk.target) icnt_cycle(m->req_net, ++m->icnt_clk.done);
  /* Packets leave a network only when taken at its outputs, which is done for this cycle: if
   * either holds any, the memory system stays busy whatever the SMs take. */
  m->near_busy = icnt_count(m->req_net) || icnt_count(m->reply_net) || sm_side_busy(m);
  m->reply_pending = 1;
}

void memsys_cycle_end(memsys *m) {
  if (!m->reply_pending) return;
  m->reply_pending = 0;
  /* the slices offered their first replies already (slices_and_channels) */
  for (uint64_t t = m->reply_from + 1; t <= m->icnt_clk.done; t++) {
    if (t > m->reply_from + 1) partitions_offer_replies(m);
    icnt_cycle(m->reply_net, t);
  }
  m->busy = m->near_busy || far_side_busy(m);
}

void memsys_cycle_begin(memsys *m, uint64_t now) {
  memsys_cycle_end(m);
  if (m->ahead == now + 1) {
    m->ahead = 0;
    clusters_cycle(m);
    request_network(m);
    return;
  }
  if (!enter_cycle(m, now)) return;
  clusters_cycle(m);
  slices_and_channels(m);
  request_network(m);
}

void memsys_cycle(memsys *m, uint64_t now) {
  memsys_cycle_begin(m, now);
  memsys_cycle_end(m);
}

int memsys_cycle_ahead(memsys *m, uint64_t now) {
  memsys_cycle_end(m);
  if (!m->busy || now <= m->now) return 0;
  enter_cycle(m, now);
  slices_and_channels(m);
  m->ahead = now + 1;
  return 1;
}

int memsys_busy(const memsys *m) { return m->busy; }

const memsys_stats *memsys_get_stats(const memsys *m) { return &m->stats; }

void memsys_flush_latency(memsys *m) {
  m->stats.mf_flushed_latency = m->stats.mf_total_latency;
  m->stats.mf_flushed = m->stats.num_mfs;
}

uint64_t memsys_debug_residue(const memsys *m) {
  uint64_t n = icnt_count(m->req_net) + icnt_count(m->reply_net);
  for (int s = 0; s < m->n_slices; s++) n += (uint64_t)l2_busy(m->slices[s]);
  for (int ch = 0; ch < m->n_mem; ch++) n += (uint64_t)dram_busy(m->chans[ch]);
  for (int c = 0; c < m->n_clusters; c++) n += m->eject[c].count;
  for (int sm = 0; sm < m->n_sms; sm++) n += m->resp[sm].count + m->fetch[sm].count;
  return n;
}
