/* The access and fill logic common to the L1D and the L2 slices: tag lookup, MSHR merging,
 * allocation, write policies, and the outgoing queue to the next level. The wrappers (l1d.c,
 * l2.c) add what differs: where hits go, how replies are routed, and the clocks.
 *
 * Sector model: tags always track 32-byte sectors. A non-sectored cache differs only in that a
 * read miss fetches every sector of the line that is neither valid nor already pending, where a
 * sectored cache fetches just the missing sectors the request needs. */
#ifndef RFSIM_CACHE_CORE_H
#define RFSIM_CACHE_CORE_H

#include "cache_tags.h"
#include "mshr.h"

typedef enum cache_outcome {
  CACHE_HIT = 0,  /* data present (reads) / all written sectors present (writes) */
  CACHE_MISS,     /* read waits in an MSHR (merged or new fetch) / write found no full line */
  CACHE_STALL     /* nothing changed: a resource was busy, retry later */
} cache_outcome;

/* What an access or fill put on the outgoing queue, for the owner's bookkeeping. */
typedef struct cache_effects {
  int fetches;     /* reads sent down */
  int writebacks;  /* dirty evictions sent down */
  int write_sent;  /* the request itself (a write) went down */
} cache_effects;

typedef struct cache_core {
  cache_config cfg;
  cache_tags tags;
  mshr_table mshr;
  access_ring out;   /* miss queue: reads (token = MSHR index), write-throughs, write-backs */
  cache_stats *stats;
  uint8_t full_mask;
  int line_shift;
  uint16_t owner;    /* SM id stamped on write-backs (L1); 0 for L2 slices */
} cache_core;

int cache_core_init(cache_core *c, const cache_config *cfg, cache_stats *stats, const char *what,
                    rf_diag *d);
void cache_core_free(cache_core *c);

/* One access. `key` is the line number for the tags (cache-local address space), `gaddr` the
 * global line address used for requests sent down, `need` the sectors touched in this cache's
 * line frame. A read hit is only taken when `hit_room` (the owner can accept the hit); else the
 * access stalls. On CACHE_MISS for reads, r is stored as an MSHR waiter. */
cache_outcome cache_core_access(cache_core *c, const mem_req *r, uint64_t key, uint64_t gaddr,
                                uint8_t need, int hit_room, uint64_t now, cache_effects *fx);

/* Sectors of line `key` arrived from below for MSHR entry `mi` at `now`: validates them
 * (allocating on fill under 'f'/'s' when a slot and, for a dirty victim, queue room allow; the
 * data is delivered either way) and makes waiters releasable. */
void cache_core_fill(cache_core *c, int mi, uint64_t key, uint64_t gaddr, uint8_t sectors,
                     uint64_t now, cache_effects *fx);

static inline int cache_core_busy(const cache_core *c) {
  return c->mshr.active || c->out.count;
}

#endif
