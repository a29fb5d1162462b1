#include "l2.h"

#include <string.h>

#include "../common/prefetch.h"
#include "cache_core.h"

/* The slice takes a packet only when this many sector requests fit (GPGPU-Sim checks the
 * icnt->L2 queue for SECTOR_CHUNCK_SIZE free entries, sectored L2 or not). */
#define TAKE_ROOM MEM_SECTORS_PER_LINE

struct l2_slice {
  int enabled, sectored, line_shift, rop_latency;
  uint64_t line_size;
  cache_core core;                  /* enabled only */
  req_ring rop;                     /* grows: GPGPU-Sim's ROP queue has no bound */
  req_ring icnt_l2, l2_dram, dram_l2, l2_icnt;
  const addr_map *map;
};

/* The set index of an L2 line comes from its slice-local address (the tag is the whole line,
 * so lines of other slices' granules never alias when the slice is hashed). */
static uint64_t local_line(const void *ctx, uint64_t key) {
  const l2_slice *s = ctx;
  return addr_slice_local(s->map, key << s->line_shift) >> s->line_shift;
}

l2_slice *l2_create(const gpu_config *c, const addr_map *map, cache_stats *stats, rf_diag *d) {
  if (c->l2_rop_latency < 0 || c->l2_rop_latency > 1000000)
    return rf_fail(d, "L2: expected a ROP latency in 0..1000000, found %d", c->l2_rop_latency),
           NULL;
  for (int i = 0; i < 4; i++)
    if (c->l2_queue[i] < (i == 0 ? TAKE_ROOM : 1))
      return rf_fail(d, "L2: expected -gpgpu_dram_partition_queues entries >= 1 (the icnt->L2 "
                        "queue >= %d), found %d:%d:%d:%d", TAKE_ROOM, c->l2_queue[0],
                     c->l2_queue[1], c->l2_queue[2], c->l2_queue[3]),
             NULL;
  l2_slice *s = rf_calloc(1, sizeof *s, d);
  if (!s) return NULL;
  s->enabled = c->l2.enabled;
  s->rop_latency = c->l2_rop_latency;
  s->map = map;
  int ok = 1;
  if (s->enabled) {
    ok = !cache_core_init(&s->core, &c->l2, c->l2.assoc, 0, stats, "L2", d);
    if (ok) {
      s->sectored = c->l2.sectored;
      s->line_shift = s->core.line_shift;
      s->line_size = (uint64_t)c->l2.line_size;
      s->core.tags.index_of = local_line;
      s->core.tags.index_ctx = s;
    } else {
      s->enabled = 0; /* nothing allocated in the core */
    }
  }
  ok = ok && !req_ring_init(&s->rop, (uint32_t)s->rop_latency + 16u, d) &&
       !req_ring_init(&s->icnt_l2, (uint32_t)c->l2_queue[0], d) &&
       !req_ring_init(&s->l2_dram, (uint32_t)c->l2_queue[1], d) &&
       !req_ring_init(&s->dram_l2, (uint32_t)c->l2_queue[2], d) &&
       !req_ring_init(&s->l2_icnt, (uint32_t)c->l2_queue[3], d);
  if (!ok) {
    l2_destroy(s);
    return NULL;
  }
  return s;
}

void l2_destroy(l2_slice *s) {
  if (!s) return;
  if (s->enabled) cache_core_free(&s->core);
  req_ring_free(&s->rop);
  req_ring_free(&s->icnt_l2);
  req_ring_free(&s->l2_dram);
  req_ring_free(&s->dram_l2);
  req_ring_free(&s->l2_icnt);
  free(s);
}

int l2_can_take(const l2_slice *s) { return req_ring_room(&s->icnt_l2) >= TAKE_ROOM; }

/* The ROP delay is in core cycles, as GPGPU-Sim stamps it (its L2 clock need not be). */
static void to_rop(l2_slice *s, const mem_req *r, uint64_t core_now) {
  /* Growing can fail only when out of memory; the request then waits in the network
   * (l2_can_take stays true, so the caller retries next cycle). */
  if (req_ring_reserve(&s->rop, 1, NULL)) return;
  mem_req q = *r;
  q.t_ready = core_now + (uint64_t)s->rop_latency;
  req_ring_push(&s->rop, &q);
}

void l2_take(l2_slice *s, const mem_req *p, uint64_t core_now) {
  uint8_t split = mem_split_mask(&p->a);
  /* A sectored L2 works on sectors: one request per sector; a single 32-byte sector request
   * goes on as it is, the others are new requests created now. */
  if (!s->sectored || (p->a.size <= MEM_SECTOR_BYTES && mem_popcount8(split) == 1)) {
    to_rop(s, p, core_now);
    return;
  }
  for (int i = 0; i < MEM_SECTORS_PER_LINE; i++) {
    if (!(split >> i & 1)) continue;
    mem_req q = *p;
    q.a.sector_mask = (uint8_t)(1u << i);
    q.a.full_mask &= q.a.sector_mask;
    q.a.size = MEM_SECTOR_BYTES;
    q.t_created = core_now;
    to_rop(s, &q, core_now);
  }
}

req_ring *l2_to_dram(l2_slice *s) { return &s->l2_dram; }
req_ring *l2_replies(l2_slice *s) { return &s->l2_icnt; }
int l2_from_dram_full(const l2_slice *s) { return req_ring_full(&s->dram_l2); }
void l2_from_dram(l2_slice *s, const mem_req *r) { req_ring_push(&s->dram_l2, r); }

int l2_busy(const l2_slice *s) {
  return s->rop.count || s->icnt_l2.count || s->l2_dram.count || s->dram_l2.count ||
         s->l2_icnt.count || (s->enabled && cache_core_busy(&s->core));
}

static uint64_t key_of(const l2_slice *s, uint64_t addr) { return addr >> s->line_shift; }

/* The request's sectors in this cache's line frame (an L2 line may be longer than 128). */
static uint8_t need_of(const l2_slice *s, const mem_access *a) {
  unsigned shift = (unsigned)((a->addr & (s->line_size - 1)) / MEM_SECTOR_BYTES);
  return (uint8_t)(a->sector_mask << shift);
}

/* The reply to r: its data for reads and atomics, an acknowledgement for a write. */
static void reply(l2_slice *s, const mem_req *r) {
  mem_req q = *r;
  if (q.a.is_write && !q.a.is_atomic) q.a.sector_mask = 0;
  req_ring_push(&s->l2_icnt, &q);
}

/* 1. A request released from a filled MSHR. */
static void release_one(l2_slice *s) {
  if (!s->enabled || !mshr_has_ready(&s->core.mshr) || req_ring_full(&s->l2_icnt)) return;
  mem_req r;
  if (!cache_core_next(&s->core, &r)) return;
  int is_write = r.a.is_write && !r.a.is_atomic;
  if (is_write ? mem_wants_ack(&r.a) : r.a.token != UINT32_MAX) reply(s, &r);
  /* else a write-back or the internal read of a write-allocate: nothing goes up */
}

/* 2. The head of the DRAM->L2 queue. */
static void from_dram(l2_slice *s, uint64_t now) {
  if (!s->dram_l2.count) return;
  const mem_req *r = req_ring_head(&s->dram_l2);
  int fetch = s->enabled && !r->a.is_write;
  if (fetch) {
    if (!cache_core_fill_port_free(&s->core)) return;
    uint64_t key = key_of(s, r->a.addr);
    uint8_t sectors = need_of(s, &r->a);
    uint64_t block = cache_core_block(&s->core, key, sectors ? sectors : s->core.full_mask);
    int mi = mshr_matches(&s->core.mshr, r->a.token, block) ? (int)r->a.token
                                                             : mshr_find(&s->core.mshr, block);
    cache_effects fx = {0};
    if (mi >= 0)
      cache_core_fill(&s->core, mi, key, r->a.addr & ~(s->line_size - 1), sectors, now, &fx);
  } else {
    if (req_ring_full(&s->l2_icnt)) return;
    reply(s, r);
  }
  req_ring_pop(&s->dram_l2);
}

/* 4. The head of the icnt->L2 queue reads the tags. Returns 1 when it left the queue. */
static int access_one(l2_slice *s, uint64_t now) {
  const mem_req *r = req_ring_head(&s->icnt_l2);
  if (!s->enabled) {
    req_ring_push(&s->l2_dram, r);
    return 1;
  }
  if (req_ring_full(&s->l2_icnt) || !cache_core_data_port_free(&s->core)) return 0;
  uint64_t key = key_of(s, r->a.addr);
  cache_effects fx = {0};
  cache_outcome o = cache_core_access(&s->core, r, key, r->a.addr & ~(s->line_size - 1),
                                      need_of(s, &r->a), now, &fx);
  if (o == CACHE_FAIL) return 0;
  int is_write = r->a.is_write && !r->a.is_atomic;
  if (o == CACHE_HIT && !is_write) {
    reply(s, r);
  } else if (is_write && !fx.write_sent && !fx.fetches && mem_wants_ack(&r->a)) {
    /* absorbed by the cache (a hit, or a write-allocated miss): acknowledged now; a write
     * sent on is acknowledged by the DRAM, a fetch-on-write when its line is in */
    reply(s, r);
  }
  return 1;
}

void l2_prefetch(const l2_slice *s) {
  if (s->rop.count) rf_prefetch_entry(req_ring_head(&s->rop), sizeof(mem_req));
  /* and where a request from the network enters it: the ROP queue seldom empties under load,
   * so its tail is a lap of the ring behind (mem_ring.h) */
  if (s->rop.count < s->rop.cap)
    rf_prefetch_entry(req_ring_at(&s->rop, s->rop.count), sizeof(mem_req));
  if (s->icnt_l2.count) rf_prefetch_entry(req_ring_head(&s->icnt_l2), sizeof(mem_req));
  if (s->dram_l2.count) rf_prefetch_entry(req_ring_head(&s->dram_l2), sizeof(mem_req));
}

void l2_cycle(l2_slice *s, uint64_t now, uint64_t core_now) {
  if (!l2_busy(s)) return;
  release_one(s);
  from_dram(s, now);
  if (s->enabled) {
    if (s->core.out.count && !req_ring_full(&s->l2_dram)) {
      req_ring_push(&s->l2_dram, req_ring_head(&s->core.out));
      cache_core_pop_out(&s->core);
    }
    cache_core_cycle(&s->core);
  }
  if (s->icnt_l2.count && !req_ring_full(&s->l2_dram) && access_one(s, now))
    req_ring_pop(&s->icnt_l2);
  if (s->rop.count && req_ring_head(&s->rop)->t_ready <= core_now &&
      !req_ring_full(&s->icnt_l2)) {
    req_ring_push(&s->icnt_l2, req_ring_head(&s->rop));
    req_ring_pop(&s->rop);
  }
}
