#include "icnt.h"

#include <string.h>

RING_DEFINE(packet_ring, icnt_packet)

struct icnt {
  int n_src, n_dst, latency;
  uint32_t src_cap;       /* nominal injection queue size (the ring may grow past it) */
  packet_ring *src_q;     /* injection queues */
  packet_ring *flight;    /* per destination, in order of arrival time */
  uint64_t *dst_free;     /* first cycle the ejection port is free */
  uint64_t *src_active;   /* bitmaps of non-empty queues, so a tick skips idle ports */
  uint64_t *dst_active;
  uint64_t count;
  icnt_accept_fn accept;
  void *ctx;
};

static inline void bit_set(uint64_t *m, int i) { m[i >> 6] |= 1ULL << (i & 63); }
static inline void bit_clear(uint64_t *m, int i) { m[i >> 6] &= ~(1ULL << (i & 63)); }

/* Port counts are bounded to keep the bitmaps and ids small; far above any real GPU. */
#define ICNT_MAX_PORTS 65536

icnt *icnt_create(int n_src, int n_dst, int src_queue, int latency, icnt_accept_fn accept,
                  void *ctx, const char *what, rf_diag *d) {
  if (n_src < 1 || n_dst < 1 || n_src > ICNT_MAX_PORTS || n_dst > ICNT_MAX_PORTS)
    return rf_fail(d, "%s: expected 1..%d ports per side, found %d sources and %d destinations",
                   what, ICNT_MAX_PORTS, n_src, n_dst),
           NULL;
  if (src_queue < 1 || latency < 0 || latency > 1000000)
    return rf_fail(d, "%s: expected a queue >= 1 and a latency in 0..1000000, found %d and %d",
                   what, src_queue, latency),
           NULL;
  icnt *n = rf_calloc(1, sizeof *n, d);
  if (!n) return NULL;
  n->n_src = n_src;
  n->n_dst = n_dst;
  n->latency = latency;
  n->src_cap = (uint32_t)src_queue;
  n->accept = accept;
  n->ctx = ctx;
  /* In flight per destination: enough to keep a full-rate stream going over the wire latency,
   * plus slack; when full, sources bound for that port wait (back-pressure). */
  uint32_t flight_cap = 2u * (uint32_t)latency + 16u;
  int ok = (n->src_q = rf_calloc((size_t)n_src, sizeof *n->src_q, d)) &&
           (n->flight = rf_calloc((size_t)n_dst, sizeof *n->flight, d)) &&
           (n->dst_free = rf_calloc((size_t)n_dst, sizeof *n->dst_free, d)) &&
           (n->src_active = rf_calloc((size_t)(n_src + 63) / 64, sizeof(uint64_t), d)) &&
           (n->dst_active = rf_calloc((size_t)(n_dst + 63) / 64, sizeof(uint64_t), d));
  for (int i = 0; ok && i < n_src; i++)
    ok = !packet_ring_init(&n->src_q[i], (uint32_t)src_queue, d);
  for (int i = 0; ok && i < n_dst; i++) ok = !packet_ring_init(&n->flight[i], flight_cap, d);
  if (!ok) {
    icnt_destroy(n);
    return NULL;
  }
  return n;
}

void icnt_destroy(icnt *n) {
  if (!n) return;
  for (int i = 0; n->src_q && i < n->n_src; i++) packet_ring_free(&n->src_q[i]);
  for (int i = 0; n->flight && i < n->n_dst; i++) packet_ring_free(&n->flight[i]);
  free(n->src_q);
  free(n->flight);
  free(n->dst_free);
  free(n->src_active);
  free(n->dst_active);
  free(n);
}

int icnt_can_inject(const icnt *n, int src) {
  return src >= 0 && src < n->n_src && n->src_q[src].count < n->src_cap;
}

int icnt_inject(icnt *n, int src, int dst, const mem_req *r, int flits) {
  if (src < 0 || src >= n->n_src || dst < 0 || dst >= n->n_dst) return -1;
  /* A caller that ignored icnt_can_inject still gets its packet through (the queue grows)
   * rather than a silently lost request and a hung kernel. */
  if (packet_ring_reserve(&n->src_q[src], 1, NULL)) return -1;
  if (flits > UINT16_MAX) flits = UINT16_MAX;
  icnt_packet p = {.r = *r, .dst = (uint32_t)dst, .flits = (uint16_t)(flits < 1 ? 1 : flits)};
  packet_ring_push(&n->src_q[src], &p);
  bit_set(n->src_active, src);
  n->count++;
  return 0;
}

uint64_t icnt_count(const icnt *n) { return n->count; }

static void eject(icnt *n, int dst, uint64_t now) {
  packet_ring *q = &n->flight[dst];
  icnt_packet *p = packet_ring_head(q);
  if (p->r.t_ready > now || n->dst_free[dst] > now) return;
  if (!n->accept(n->ctx, (uint32_t)dst, &p->r)) return;
  n->dst_free[dst] = now + p->flits;
  packet_ring_pop(q);
  n->count--;
  if (!q->count) bit_clear(n->dst_active, dst);
}

static void serialise(icnt *n, int src, uint64_t now) {
  packet_ring *q = &n->src_q[src];
  icnt_packet *p = packet_ring_head(q);
  if (p->sent_flits < p->flits) p->sent_flits++;
  if (p->sent_flits < p->flits) return;
  packet_ring *f = &n->flight[p->dst];
  if (packet_ring_full(f)) return; /* last flit waits at the port until the path drains */
  p->r.t_ready = now + (uint64_t)n->latency;
  packet_ring_push(f, p);
  bit_set(n->dst_active, (int)p->dst);
  packet_ring_pop(q);
  if (!q->count) bit_clear(n->src_active, src);
}

void icnt_tick(icnt *n, uint64_t now) {
  if (!n->count) return;
  int words = (n->n_dst + 63) / 64;
  for (int w = 0; w < words; w++)
    for (uint64_t bits = n->dst_active[w]; bits; bits &= bits - 1)
      eject(n, w * 64 + __builtin_ctzll(bits), now);
  words = (n->n_src + 63) / 64;
  for (int w = 0; w < words; w++)
    for (uint64_t bits = n->src_active[w]; bits; bits &= bits - 1)
      serialise(n, w * 64 + __builtin_ctzll(bits), now);
}
