#include "l2.h"

#include <string.h>

#include "cache_core.h"

/* Queue sizes between the slice and its neighbours (GPGPU-Sim's L2-to-icnt and DRAM-to-L2
 * queues are of this order). */
#define REPLY_QUEUE 8
#define FILL_QUEUE 8
#define BYPASS_ENTRIES 64
#define BYPASS_QUEUE 8

struct l2_slice {
  int enabled, line_shift, rop_latency;
  uint64_t line_size;
  cache_core core;        /* enabled only */
  access_ring bypass_out; /* disabled only */
  access_ring *out;       /* the queue toward DRAM */
  req_ring rop, replies;
  access_ring fills;
  mem_req *bypass;        /* disabled L2: reads waiting for DRAM, indexed by the token sent */
  int32_t *bypass_free;
  int nbypass_free;
  cache_stats *stats;
  const addr_map *map;
  int64_t *live;
};

l2_slice *l2_create(const gpu_config *c, const addr_map *map, cache_stats *stats, int64_t *live,
                    rf_diag *d) {
  if (c->l2_rop_latency < 0 || c->l2_rop_latency > 1000000)
    return rf_fail(d, "L2: expected a ROP latency in 0..1000000, found %d", c->l2_rop_latency),
           NULL;
  l2_slice *s = rf_calloc(1, sizeof *s, d);
  if (!s) return NULL;
  s->enabled = c->l2.enabled;
  s->rop_latency = c->l2_rop_latency;
  s->stats = stats;
  s->map = map;
  s->live = live;
  int ok;
  if (s->enabled) {
    ok = !cache_core_init(&s->core, &c->l2, stats, "L2", d);
    if (ok) {
      s->out = &s->core.out;
      s->line_shift = s->core.line_shift;
      s->line_size = (uint64_t)c->l2.line_size;
    }
  } else {
    ok = !access_ring_init(&s->bypass_out, BYPASS_QUEUE, d) &&
         (s->bypass = rf_calloc(BYPASS_ENTRIES, sizeof *s->bypass, d)) &&
         (s->bypass_free = rf_calloc(BYPASS_ENTRIES, sizeof *s->bypass_free, d));
    s->out = &s->bypass_out;
    for (int i = 0; ok && i < BYPASS_ENTRIES; i++) s->bypass_free[i] = BYPASS_ENTRIES - 1 - i;
    s->nbypass_free = BYPASS_ENTRIES;
    s->line_size = 128;
  }
  /* The ROP queue holds a full latency's worth of one-per-cycle arrivals, plus slack, so that
   * the delay line alone never throttles throughput. */
  ok = ok && !req_ring_init(&s->rop, (uint32_t)s->rop_latency + 16u, d) &&
       !req_ring_init(&s->replies, REPLY_QUEUE, d) && !access_ring_init(&s->fills, FILL_QUEUE, d);
  if (!ok) {
    l2_destroy(s);
    return NULL;
  }
  return s;
}

void l2_destroy(l2_slice *s) {
  if (!s) return;
  if (s->enabled && s->out) cache_core_free(&s->core);
  access_ring_free(&s->bypass_out);
  req_ring_free(&s->rop);
  req_ring_free(&s->replies);
  access_ring_free(&s->fills);
  free(s->bypass);
  free(s->bypass_free);
  free(s);
}

int l2_can_accept(const l2_slice *s) { return !req_ring_full(&s->rop); }

void l2_accept(l2_slice *s, const mem_req *r, uint64_t now) {
  mem_req q = *r;
  q.t_ready = now + (uint64_t)s->rop_latency;
  req_ring_push(&s->rop, &q);
}

access_ring *l2_dram_queue(l2_slice *s) { return s->out; }
req_ring *l2_replies(l2_slice *s) { return &s->replies; }
int l2_can_fill(const l2_slice *s) { return !access_ring_full(&s->fills); }
void l2_fill(l2_slice *s, const mem_access *a) { access_ring_push(&s->fills, a); }

int l2_busy(const l2_slice *s) {
  return s->rop.count || s->replies.count || s->fills.count || s->out->count ||
         (s->enabled ? s->core.mshr.active : s->nbypass_free < BYPASS_ENTRIES);
}

static uint64_t key_of(const l2_slice *s, uint64_t addr) {
  return addr_slice_local(s->map, addr) >> s->line_shift;
}

/* The request's sectors in this cache's line frame. */
static uint8_t need_of(const l2_slice *s, const mem_access *a) {
  unsigned shift = (unsigned)((a->addr & (s->line_size - 1)) / MEM_SECTOR_BYTES);
  return (uint8_t)(a->sector_mask << shift);
}

static void mark_atomic_dirty(l2_slice *s, const mem_req *r) {
  if (mem_effective_write_policy(s->core.cfg.write_policy, r->a.space) != 'B') return;
  tag_line *l = cache_tags_probe(&s->core.tags, key_of(s, r->a.addr));
  if (l) l->dirty |= (uint8_t)(need_of(s, &r->a) & l->valid);
}

static void apply_fill(l2_slice *s, uint64_t now) {
  const mem_access *f = access_ring_head(&s->fills);
  if (!s->enabled) {
    if (req_ring_full(&s->replies)) return;
    if (f->token < BYPASS_ENTRIES) { /* the item carries on as the reply: live unchanged */
      req_ring_push(&s->replies, &s->bypass[f->token]);
      s->bypass_free[s->nbypass_free++] = (int32_t)f->token;
    }
    access_ring_pop(&s->fills);
    return;
  }
  uint64_t key = key_of(s, f->addr);
  int mi = mshr_matches(&s->core.mshr, f->token, key) ? (int)f->token
                                                      : mshr_find(&s->core.mshr, key);
  cache_effects fx = {0};
  if (mi >= 0) cache_core_fill(&s->core, mi, key, f->addr & ~(s->line_size - 1), f->sector_mask,
                               now, &fx);
  *s->live += fx.writebacks - 1; /* the fetch is consumed */
  access_ring_pop(&s->fills);
}

/* Returns 1 when the request left the ROP queue. */
/* The write acknowledgement of r (mem_wants_ack): a new work item on the reply path. */
static void push_ack(l2_slice *s, const mem_req *r) {
  mem_req ack = *r;
  ack.a.sector_mask = 0;
  req_ring_push(&s->replies, &ack);
  (*s->live)++;
}

static int bypass_access(l2_slice *s, const mem_req *r) {
  int is_write = r->a.is_write && !r->a.is_atomic;
  if (access_ring_full(s->out) || (!is_write && !s->nbypass_free)) return 0;
  if (mem_wants_ack(&r->a) && req_ring_full(&s->replies)) return 0;
  if (mem_wants_ack(&r->a)) push_ack(s, r);
  mem_access down = r->a;
  if (!is_write) {
    int32_t slot = s->bypass_free[--s->nbypass_free];
    s->bypass[slot] = *r;
    down.token = (uint32_t)slot;
  }
  access_ring_push(s->out, &down);
  s->stats->accesses++;
  s->stats->misses++;
  if (is_write) s->stats->writes++;
  return 1;
}

static int cached_access(l2_slice *s, const mem_req *r, uint64_t now) {
  int is_write = r->a.is_write && !r->a.is_atomic;
  if (mem_wants_ack(&r->a) && req_ring_full(&s->replies)) return 0;
  uint64_t key = key_of(s, r->a.addr);
  cache_effects fx = {0};
  cache_outcome o = cache_core_access(&s->core, r, key, r->a.addr & ~(s->line_size - 1),
                                      need_of(s, &r->a), !req_ring_full(&s->replies), now, &fx);
  if (o == CACHE_STALL) return 0;
  *s->live += fx.fetches + fx.writebacks;
  if (is_write) {
    if (!fx.write_sent) (*s->live)--; /* absorbed by the cache */
    if (mem_wants_ack(&r->a)) push_ack(s, r);
  } else if (o == CACHE_HIT) {
    req_ring_push(&s->replies, r);
  }
  return 1;
}

void l2_tick(l2_slice *s, uint64_t now) {
  if (!l2_busy(s)) return;
  if (s->fills.count) apply_fill(s, now);
  if (s->enabled && !req_ring_full(&s->replies)) {
    mem_req r;
    if (mshr_pop_ready(&s->core.mshr, now, &r)) {
      if (r.a.is_atomic) mark_atomic_dirty(s, &r);
      req_ring_push(&s->replies, &r);
    }
  }
  if (s->rop.count) {
    const mem_req *r = req_ring_head(&s->rop);
    if (r->t_ready <= now) {
      int done = s->enabled ? cached_access(s, r, now) : bypass_access(s, r);
      if (done) req_ring_pop(&s->rop);
    }
  }
}
