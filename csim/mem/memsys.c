/* The shared memory system: request and reply networks, L2 slices, DRAM channels, and the clock
 * domains that drive them.
 *
 * Clocks: each domain d (icnt, L2, DRAM) has run floor(now * f_d / f_core) cycles after core
 * cycle `now`. Frequencies are taken in kHz (rounded once from the MHz given) and the ratio
 * reduced, so the count is exact integer arithmetic with no drift, and skipped core cycles are
 * caught up. Within a core cycle the domains tick consumer-first: DRAM, then L2, then the NoC.
 *
 * Work accounting: `live` counts requests anywhere below the SMs' injection (an SM's access,
 * an L2 fetch or write-back). When it is zero memsys_cycle only advances the clocks.
 *
 * Packet sizes: 8 header bytes, plus 32 per sector of data carried (write and atomic requests,
 * read and atomic replies). */
#include <string.h>

#include "dram.h"
#include "icnt.h"
#include "l2.h"
#include "memsys_debug.h"

#define PACKET_HEADER_BYTES 8
#define SM_INJECT_QUEUE 16
#define SM_REPLY_QUEUE 16

typedef struct clock_domain {
  uint64_t num, den; /* f_domain / f_core, reduced */
  uint64_t target;   /* floor(now * num / den): cycles due by the current core cycle */
  uint64_t rem;      /* (now * num) mod den, so the next target needs no division */
  uint64_t done;     /* cycles run */
} clock_domain;

struct memsys {
  int n_sms, n_mem, n_sub, n_slices, flit_bytes;
  addr_map map;
  icnt *req_net, *reply_net;
  l2_slice **slices;
  dram_channel **chans;
  uint32_t *dram_rr; /* per channel: which sub-partition it serves first */
  req_ring *sm_replies;
  clock_domain icnt_clk, l2_clk, dram_clk;
  uint64_t now;
  int64_t live;
  uint64_t dram_writes_seen;
  memsys_stats stats;
};

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

static int flits_for(const memsys *m, int sectors_of_data) {
  int bytes = PACKET_HEADER_BYTES + sectors_of_data * MEM_SECTOR_BYTES;
  return (bytes + m->flit_bytes - 1) / m->flit_bytes;
}

static int accept_request(void *ctx, uint32_t dst, const mem_req *r) {
  memsys *m = ctx;
  if (!l2_can_accept(m->slices[dst])) return 0;
  l2_accept(m->slices[dst], r, m->l2_clk.done);
  return 1;
}

static int accept_reply(void *ctx, uint32_t dst, const mem_req *r) {
  memsys *m = ctx;
  if (req_ring_full(&m->sm_replies[dst])) return 0;
  req_ring_push(&m->sm_replies[dst], r);
  return 1;
}

static int check_geometry(const gpu_config *c, int n_sms, rf_diag *d) {
  if (n_sms < 1 || n_sms > 65535)
    return rf_fail(d, "memory system: expected 1..65535 SMs, found %d", n_sms);
  if (c->n_mem < 1 || c->n_sub_partition_per_mchannel < 1 ||
      (long)c->n_mem * c->n_sub_partition_per_mchannel > 4096)
    return rf_fail(d, "memory system: expected 1..4096 L2 slices (n_mem >= 1, sub-partitions "
                      ">= 1), found %d x %d",
                   c->n_mem, c->n_sub_partition_per_mchannel);
  if (c->icnt_flit_size < 1 || c->icnt_latency < 0)
    return rf_fail(d, "interconnect: expected flit size >= 1 and latency >= 0, found %d and %d",
                   c->icnt_flit_size, c->icnt_latency);
  int chunk = c->mem_chunk_bytes;
  int l2_line = c->l2.enabled ? c->l2.line_size : MEM_SECTOR_BYTES;
  if (chunk < MEM_SECTOR_BYTES || (l2_line > 0 && chunk % l2_line))
    return rf_fail(d, "memory system: expected mem_chunk_bytes >= 32 and a multiple of the L2 "
                      "line (%d), found %d",
                   l2_line, chunk);
  /* Requests are L1 lines, or 128-byte lines when the L1 is disabled (the LD/ST unit's
   * coalescing granule); an L2 line must hold a whole request. */
  int request_line = c->l1d.enabled ? c->l1d.line_size : 128;
  if (c->l2.enabled && c->l2.line_size < request_line)
    return rf_fail(d, "memory system: expected an L2 line at least as large as a request line "
                      "(%d), found %d",
                   request_line, c->l2.line_size);
  return 0;
}

memsys *memsys_create(const gpu_config *c, int n_sms, rf_diag *d) {
  if (check_geometry(c, n_sms, d)) return NULL;
  memsys *m = rf_calloc(1, sizeof *m, d);
  if (!m) return NULL;
  m->n_sms = n_sms;
  m->n_mem = c->n_mem;
  m->n_sub = c->n_sub_partition_per_mchannel;
  m->n_slices = m->n_mem * m->n_sub;
  m->flit_bytes = c->icnt_flit_size;
  m->map = (addr_map){.chunk = (uint64_t)c->mem_chunk_bytes, .n_mem = (uint64_t)m->n_mem,
                      .n_sub = (uint64_t)m->n_sub};
  int ok = !check_clock(c->clk_core, "core", d) &&
           !make_clock(&m->icnt_clk, c->clk_icnt, c->clk_core, "interconnect", d) &&
           !make_clock(&m->l2_clk, c->clk_l2, c->clk_core, "L2", d) &&
           !make_clock(&m->dram_clk, c->clk_dram, c->clk_core, "DRAM", d);
  ok = ok &&
       (m->req_net = icnt_create(n_sms, m->n_slices, SM_INJECT_QUEUE, c->icnt_latency,
                                 accept_request, m, "request network", d)) &&
       (m->reply_net = icnt_create(m->n_slices, n_sms, 1, c->icnt_latency, accept_reply, m,
                                   "reply network", d)) &&
       (m->slices = rf_calloc((size_t)m->n_slices, sizeof *m->slices, d)) &&
       (m->chans = rf_calloc((size_t)m->n_mem, sizeof *m->chans, d)) &&
       (m->dram_rr = rf_calloc((size_t)m->n_mem, sizeof *m->dram_rr, d)) &&
       (m->sm_replies = rf_calloc((size_t)n_sms, sizeof *m->sm_replies, d));
  for (int i = 0; ok && i < m->n_slices; i++)
    ok = (m->slices[i] = l2_create(c, &m->map, &m->stats.l2, &m->live, d)) != NULL;
  for (int i = 0; ok && i < m->n_mem; i++)
    ok = (m->chans[i] = dram_create(c, &m->stats.dram, d)) != NULL;
  for (int i = 0; ok && i < n_sms; i++)
    ok = !req_ring_init(&m->sm_replies[i], SM_REPLY_QUEUE, d);
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
  for (int i = 0; m->chans && i < m->n_mem; i++) dram_destroy(m->chans[i]);
  for (int i = 0; m->sm_replies && i < m->n_sms; i++) req_ring_free(&m->sm_replies[i]);
  free(m->slices);
  free(m->chans);
  free(m->dram_rr);
  free(m->sm_replies);
  free(m);
}

int memsys_can_send(const memsys *m, int sm) { return icnt_can_inject(m->req_net, sm); }

void memsys_send(memsys *m, const mem_access *a, uint64_t now) {
  /* Bring the clocks up to `now` first, so a request sent at `now` starts moving in cycle
   * now + 1 whether the caller runs memsys_cycle(now) before or after sending, and so idle
   * cycles the caller skipped are not spent on this request. */
  if (now > m->now) memsys_cycle(m, now);
  mem_req r = {.a = *a, .t_sent = now};
  int carries_data = a->is_write || a->is_atomic;
  int flits = flits_for(m, carries_data ? mem_popcount8(a->sector_mask) : 0);
  if (icnt_inject(m->req_net, a->sm, (int)addr_slice(&m->map, a->addr), &r, flits)) return;
  m->live++;
  m->stats.icnt_requests++;
}

int memsys_pop_reply(memsys *m, int sm, mem_access *out) {
  if (sm < 0 || sm >= m->n_sms || !m->sm_replies[sm].count) return 0;
  const mem_req *r = req_ring_head(&m->sm_replies[sm]);
  *out = r->a;
  if (!mem_wants_ack(&r->a)) { /* a read or atomic reply, not a write acknowledgement */
    m->stats.total_read_latency += m->now - r->t_sent;
    m->stats.completed_reads++;
  }
  m->stats.icnt_replies++;
  req_ring_pop(&m->sm_replies[sm]);
  m->live--;
  return 1;
}

static void dram_channel_cycle(memsys *m, int ch, uint64_t t) {
  dram_channel *dc = m->chans[ch];
  /* Take at most one request from each of the channel's slices, rotating who goes first. */
  for (int k = 0; k < m->n_sub; k++) {
    int slice = ch * m->n_sub + (int)((m->dram_rr[ch] + (uint32_t)k) % (uint32_t)m->n_sub);
    access_ring *q = l2_dram_queue(m->slices[slice]);
    if (!q->count || !dram_can_accept(dc)) continue;
    const mem_access *a = access_ring_head(q);
    if (!dram_push(dc, a, addr_channel_local(&m->map, a->addr), (uint32_t)slice, t))
      access_ring_pop(q);
  }
  m->dram_rr[ch] = (m->dram_rr[ch] + 1) % (uint32_t)m->n_sub;
  dram_tick(dc, t);
  mem_access a;
  uint32_t slice;
  while (dram_peek_return(dc, t, &a, &slice) && l2_can_fill(m->slices[slice])) {
    l2_fill(m->slices[slice], &a);
    dram_pop_return(dc);
  }
}

static void icnt_cycle(memsys *m, uint64_t t) {
  for (int s = 0; s < m->n_slices; s++) {
    req_ring *q = l2_replies(m->slices[s]);
    while (q->count && icnt_can_inject(m->reply_net, s)) {
      const mem_req *r = req_ring_head(q);
      if (icnt_inject(m->reply_net, s, r->a.sm, r, flits_for(m, mem_popcount8(r->a.sector_mask))))
        break;
      req_ring_pop(q);
    }
  }
  icnt_tick(m->req_net, t);
  icnt_tick(m->reply_net, t);
}

void memsys_cycle(memsys *m, uint64_t now) {
  if (now > m->now) {
    clock_advance(&m->dram_clk, m->now, now);
    clock_advance(&m->l2_clk, m->now, now);
    clock_advance(&m->icnt_clk, m->now, now);
    m->now = now;
  }
  uint64_t dram_to = m->dram_clk.target, l2_to = m->l2_clk.target, icnt_to = m->icnt_clk.target;
  if (dram_to > m->dram_clk.done)
    m->stats.dram.total_cycles += (dram_to - m->dram_clk.done) * (uint64_t)m->n_mem;
  if (m->live <= 0) { /* idle: time passes, nothing moves */
    m->dram_clk.done = dram_to;
    m->l2_clk.done = l2_to;
    m->icnt_clk.done = icnt_to;
    return;
  }
  while (m->dram_clk.done < dram_to) {
    uint64_t t = ++m->dram_clk.done;
    for (int ch = 0; ch < m->n_mem; ch++) dram_channel_cycle(m, ch, t);
  }
  /* Writes retire inside DRAM, which keeps no link to `live`: settle from its counter. */
  m->live -= (int64_t)(m->stats.dram.writes - m->dram_writes_seen);
  m->dram_writes_seen = m->stats.dram.writes;
  while (m->l2_clk.done < l2_to) {
    uint64_t t = ++m->l2_clk.done;
    for (int s = 0; s < m->n_slices; s++) l2_tick(m->slices[s], t);
  }
  while (m->icnt_clk.done < icnt_to) icnt_cycle(m, ++m->icnt_clk.done);
}

int memsys_busy(const memsys *m) { return m->live > 0; }

const memsys_stats *memsys_get_stats(const memsys *m) { return &m->stats; }

uint64_t memsys_debug_residue(const memsys *m) {
  uint64_t n = icnt_count(m->req_net) + icnt_count(m->reply_net);
  for (int s = 0; s < m->n_slices; s++) n += (uint64_t)l2_busy(m->slices[s]);
  for (int ch = 0; ch < m->n_mem; ch++) n += (uint64_t)dram_busy(m->chans[ch]);
  for (int sm = 0; sm < m->n_sms; sm++) n += m->sm_replies[sm].count;
  return n;
}
