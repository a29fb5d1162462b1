/* The access and fill logic common to the L1D, the L1I and the L2 slices, as GPGPU-Sim's
 * data_cache: a tag probe, then the read-hit, read-miss, write-hit and write-miss handler the
 * cache string selects, the MSHRs, the miss queue to the next level, and the data and fill
 * ports. The wrappers (l1d.c, l2.c) add what differs: where hits and fills go, the clocks.
 *
 * One access is one block: a 32-byte sector of a sectored cache, a line of a non-sectored one
 * (whose misses fetch the whole line, and whose MSHRs are per line).
 *
 * Read miss (and a read of a sector being fetched): fails when the miss queue has fewer than
 * two free entries; otherwise it joins the block's MSHR (at most max_merge requests) or takes
 * a new one and sends a fetch, allocating the line now ('m') or at the fill ('f', 's'); a
 * dirty victim of a write-back cache is written back.
 * Write hit: 'B' marks the sector modified; 'T' also sends the write; 'E' sends it and drops
 * the sector; 'L' is 'E' for global and 'B' for local data. Each needs a free miss-queue entry
 * when it sends. Write miss: 'N' sends the write; 'L' (lazy fetch on read) allocates the line
 * and marks the sector modified without fetching (a partly written sector is unreadable until
 * a fetch fills it), sending the write when write-through; 'W' sends the write and a fetch;
 * 'F' marks a fully written sector modified, else fetches the line first.
 * Every failure leaves the cache as it was and counts a reservation failure with its reason. */
#ifndef RFSIM_CACHE_CORE_H
#define RFSIM_CACHE_CORE_H

#include "cache_tags.h"
#include "mshr.h"

typedef enum cache_outcome {
  CACHE_HIT = 0,      /* data present (reads) / write handled on a present sector */
  CACHE_HIT_RESERVED, /* read merged into the MSHR of a block being fetched */
  CACHE_MISS,         /* read waits in an MSHR / write went below or allocated */
  CACHE_SECTOR_MISS,  /* as MISS, the line was present */
  CACHE_FAIL          /* nothing changed: a resource was busy, retry later */
} cache_outcome;

/* What an access or fill put on the miss queue, for the owner's bookkeeping. */
typedef struct cache_effects {
  int fetches;     /* reads sent down */
  int writebacks;  /* dirty evictions sent down */
  int write_sent;  /* the request itself (a write) went down */
} cache_effects;

/* A failed access, remembered: while nothing in the cache changes (its epoch), the same access
 * fails the same way, so a head that retries every cycle is answered without a tag search. */
typedef struct fail_memo {
  uint64_t epoch, key;
  uint8_t valid, need, flags, space, full_mask, why;
  uint16_t size;
} fail_memo;
#define FAIL_MEMOS 4

/* The line of the last read that hit, kept: while no line has taken another key since
 * (cache_tags.gen), a read of that line whose sectors the line holds (tag_line_read_hits) is a
 * hit, found without the failure memos or a tag search (an instruction cache's fetches read the
 * same line over and over, a sectored cache's accesses of a line come a sector at a time). */
typedef struct hit_memo {
  uint64_t key, gen;
  tag_line *line;     /* NULL: none kept */
} hit_memo;

typedef struct cache_core {
  /* First what a cache's every cycle reads (its ports, miss queue and ready MSHRs), on as few
   * of the host's cache lines as may be: with 80 SMs and 48 L2 slices (the TITAN V) they have
   * left the host's caches by the next cycle, and each line is a miss. */
  req_ring out;      /* miss queue: fetches (token = MSHR index), writes, write-backs */
  uint64_t epoch;    /* counts changes to the tags, MSHRs and miss queue (fail_memo) */
  int data_busy;     /* cycles the data port stays occupied */
  int fill_busy;     /* cycles the fill port stays occupied */
  mshr_table mshr;
  cache_config cfg;
  cache_tags tags;
  cache_stats *stats;
  uint8_t full_mask;
  int line_shift;
  int port_width;    /* data port bytes per cycle */
  chunk_count port_cycles; /* of port_width */
  uint16_t owner;    /* SM id stamped on write-backs (L1); 0 for L2 slices */
  fail_memo memo[FAIL_MEMOS];
  int memo_next;
  hit_memo hit;
  cache_fail last_fail;
} cache_core;

int cache_core_init(cache_core *c, const cache_config *cfg, int max_assoc, int dirty_percent,
                    cache_stats *stats, const char *what, rf_diag *d);
void cache_core_free(cache_core *c);

/* One access at `now`. `key` is the line number for the tags (cache-local address space),
 * `gaddr` the global line address of requests sent down, `need` the block's sectors in this
 * cache's line frame (one sector if sectored, every sector of the line if not). Read waiters
 * are stored in the MSHR and come back through cache_core_next. */
cache_outcome cache_core_access(cache_core *c, const mem_req *r, uint64_t key, uint64_t gaddr,
                                uint8_t need, uint64_t now, cache_effects *fx);
/* The same access again while c->epoch has not moved since it failed for `why` (c->last_fail
 * then): it fails again for the same reason, counted as cache_core_access counts it. */
cache_outcome cache_core_fail_again(cache_core *c, cache_fail why);

/* Sectors of line `key` arrived for MSHR entry `mi`: when they were the last the entry waited
 * for, the line is filled (allocated now under 'f'/'s' if a slot allows; the data goes up
 * either way) and its requests become releasable. Occupies the fill port. */
void cache_core_fill(cache_core *c, int mi, uint64_t key, uint64_t gaddr, uint8_t sectors,
                     uint64_t now, cache_effects *fx);
/* The next request released from a filled MSHR (GPGPU-Sim's next_access), or 0. */
static inline int cache_core_next(cache_core *c, mem_req *out) {
  if (!mshr_next(&c->mshr, out)) return 0;
  c->epoch++;
  return 1;
}
/* The owner took the head of the miss queue. */
static inline void cache_core_pop_out(cache_core *c) {
  req_ring_pop(&c->out);
  c->epoch++;
}
/* The owner changed the tags itself (an invalidation, a new size). */
static inline void cache_core_changed(cache_core *c) { c->epoch++; }
/* The block of `need` in line `key`: what the MSHRs are indexed by. */
static inline uint64_t cache_core_block(const cache_core *c, uint64_t key, uint8_t need) {
  return c->cfg.sectored ? key * MEM_SECTORS_PER_LINE + (uint64_t)__builtin_ctz(need) : key;
}
/* Starts loading the tag index's slot a lookup of `key` reads first (a highly associative
 * cache; see common/prefetch.h). */
static inline void cache_core_prefetch(const cache_core *c, uint64_t key) {
  if (c->tags.index.slots) tag_index_prefetch(&c->tags.index, key);
}
/* The line the hit memo serves a read of `key` (sectors `need`, in the line frame) with: the
 * line of the last read hit, while no line has taken another key since and it holds those
 * sectors; NULL if none (a write, an atomic, another line). */
static inline tag_line *cache_core_memo_line(const cache_core *c, const mem_req *r, uint64_t key,
                                             uint8_t need) {
  const hit_memo *h = &c->hit;
  return h->line && h->key == key && h->gen == c->tags.gen && !r->a.is_write &&
                 !r->a.is_atomic && tag_line_read_hits(h->line, need)
             ? h->line
             : NULL;
}
static inline int cache_core_data_port_free(const cache_core *c) { return c->data_busy == 0; }
static inline int cache_core_fill_port_free(const cache_core *c) { return c->fill_busy == 0; }
/* End of a cache cycle: the ports free up by one cycle. */
static inline void cache_core_cycle(cache_core *c) {
  if (c->data_busy > 0) c->data_busy--;
  if (c->fill_busy > 0) c->fill_busy--;
}

static inline int cache_core_busy(const cache_core *c) {
  return c->mshr.active || c->out.count;
}

#endif
