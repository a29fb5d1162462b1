/* Per-SM L1 data cache: the shared cache logic (cache_core.c) plus a hit pipeline of fixed
 * latency and the completion path for loads.
 *
 * Timing: a hit accepted at cycle t completes at t + l1_latency. A miss completes in the cycle
 * its fill arrives (l1d_fill at t makes the waiting tokens poppable at t, no extra cycle): the
 * fill already paid the NoC and L2 latency, and GPGPU-Sim likewise releases merged accesses
 * from the MSHR as soon as the fill is processed.
 *
 * Bypass path: atomics (performed at L2) and every access of a disabled L1 go straight to the
 * miss queue carrying the SM's own token, and the reply's token is completed as is. Bypassed
 * loads need no MSHR ("one pseudo-MSHR per token"); only the miss queue limits them. Atomics
 * are not counted in the cache statistics since they never look at the tags. */
#include <string.h>

#include "cache_core.h"

typedef struct done_entry {
  uint64_t ready_at;
  uint32_t token;
} done_entry;

RING_DEFINE(done_ring, done_entry)

/* Miss queue of a disabled L1 when the config gives none. */
#define BYPASS_QUEUE_DEFAULT 8

struct l1d {
  int enabled, sm, latency, line_shift;
  cache_core core;           /* enabled only */
  access_ring bypass_out;    /* disabled only */
  access_ring *out;          /* the miss queue in use */
  done_ring hits;            /* hit pipeline, ordered by ready time */
  done_ring direct;          /* completed bypassed loads and atomics */
  uint32_t direct_outstanding;
  cache_stats stats;
};

l1d *l1d_create(const gpu_config *c, int sm, rf_diag *d) {
  return l1_cache_create(&c->l1d, c->l1_latency, "L1D", sm, d);
}

l1d *l1_cache_create(const cache_config *cc, int latency, const char *name, int sm, rf_diag *d) {
  if (latency < 0)
    return rf_fail(d, "%s: expected a latency >= 0, found %d", name, latency), NULL;
  if (sm < 0 || sm > UINT16_MAX)
    return rf_fail(d, "%s: expected an SM id in 0..%d, found %d", name, UINT16_MAX, sm), NULL;
  l1d *l = rf_calloc(1, sizeof *l, d);
  if (!l) return NULL;
  l->enabled = cc->enabled;
  l->sm = sm;
  l->latency = latency;
  int ok;
  if (l->enabled) {
    ok = !cache_core_init(&l->core, cc, &l->stats, name, d);
    if (ok) {
      l->core.owner = (uint16_t)sm;
      l->line_shift = l->core.line_shift;
      l->out = &l->core.out;
    }
  } else {
    int q = cc->miss_queue_size > 0 ? cc->miss_queue_size : BYPASS_QUEUE_DEFAULT;
    ok = !access_ring_init(&l->bypass_out, (uint32_t)q, d);
    l->out = &l->bypass_out;
  }
  /* Both completion rings grow on demand (in l1d_access, where failure is a stall). */
  if (!ok || done_ring_init(&l->hits, 16, d) || done_ring_init(&l->direct, 16, d)) {
    l1d_destroy(l);
    return NULL;
  }
  return l;
}

void l1d_destroy(l1d *l) {
  if (!l) return;
  if (l->enabled && l->out) cache_core_free(&l->core);
  access_ring_free(&l->bypass_out);
  done_ring_free(&l->hits);
  done_ring_free(&l->direct);
  free(l);
}

static l1_result stall(l1d *l) {
  l->stats.reservation_fails++;
  return L1_STALL;
}

static l1_result bypass(l1d *l, const mem_access *a) {
  int wants_reply = !a->is_write || a->is_atomic;
  if (access_ring_full(l->out)) return stall(l);
  /* Room for every reply that may come back, so l1d_fill never has to allocate. */
  if (wants_reply && done_ring_reserve(&l->direct, l->direct_outstanding + 1, NULL))
    return stall(l);
  access_ring_push(l->out, a);
  if (wants_reply) l->direct_outstanding++;
  if (!a->is_atomic) {
    l->stats.accesses++;
    l->stats.misses++;
    if (a->is_write) l->stats.writes++;
  }
  return L1_MISS;
}

l1_result l1d_access(l1d *l, const mem_access *a, uint64_t now) {
  mem_req r = {.a = *a, .t_sent = now};
  r.a.sm = (uint16_t)l->sm;
  if (!l->enabled || a->is_atomic) return bypass(l, &r.a);
  int is_load = !a->is_write;
  if (is_load && done_ring_reserve(&l->hits, 1, NULL)) return stall(l);
  uint64_t key = a->addr >> l->line_shift;
  cache_effects fx = {0};
  cache_outcome o =
      cache_core_access(&l->core, &r, key, key << l->line_shift, a->sector_mask, 1, now, &fx);
  if (o == CACHE_STALL) return L1_STALL;
  if (o == CACHE_HIT) {
    if (is_load) {
      done_entry e = {.ready_at = now + (uint64_t)l->latency, .token = a->token};
      done_ring_push(&l->hits, &e);
    }
    return L1_HIT;
  }
  return L1_MISS;
}

int l1d_peek_outgoing(const l1d *l, mem_access *out) {
  if (!l->out->count) return 0;
  *out = *access_ring_head(l->out);
  return 1;
}

void l1d_pop_outgoing(l1d *l) {
  if (l->out->count) access_ring_pop(l->out);
}

void l1d_fill(l1d *l, const mem_access *reply, uint64_t now) {
  if (reply->is_write && !reply->is_atomic) return; /* writes are not acknowledged */
  if (!l->enabled || reply->is_atomic) {
    if (!l->direct_outstanding) return; /* not ours: nothing was reserved for it */
    done_entry e = {.ready_at = now, .token = reply->token};
    done_ring_push(&l->direct, &e);
    l->direct_outstanding--;
    return;
  }
  uint64_t key = reply->addr >> l->line_shift;
  /* The fetch carried its MSHR index as token; fall back to a lookup if it does not match. */
  int mi = mshr_matches(&l->core.mshr, reply->token, key) ? (int)reply->token
                                                          : mshr_find(&l->core.mshr, key);
  if (mi < 0) return;
  cache_effects fx = {0};
  cache_core_fill(&l->core, mi, key, key << l->line_shift, reply->sector_mask & l->core.full_mask,
                  now, &fx);
}

int l1d_pop_done(l1d *l, uint64_t now, uint32_t *token) {
  uint64_t th = l->hits.count ? done_ring_head(&l->hits)->ready_at : UINT64_MAX;
  uint64_t tm = l->enabled ? mshr_ready_time(&l->core.mshr) : UINT64_MAX;
  uint64_t td = l->direct.count ? done_ring_head(&l->direct)->ready_at : UINT64_MAX;
  /* Oldest ready first; on a tie the hit pipeline, then fills, then bypassed replies. */
  if (th <= now && th <= tm && th <= td) {
    *token = done_ring_head(&l->hits)->token;
    done_ring_pop(&l->hits);
    return 1;
  }
  if (tm <= now && tm <= td) {
    mem_req r;
    if (mshr_pop_ready(&l->core.mshr, now, &r)) {
      *token = r.a.token;
      return 1;
    }
  }
  if (td <= now) {
    *token = done_ring_head(&l->direct)->token;
    done_ring_pop(&l->direct);
    return 1;
  }
  return 0;
}

int l1d_busy(const l1d *l) {
  return l->hits.count || l->direct.count || l->direct_outstanding || l->out->count ||
         (l->enabled && l->core.mshr.active);
}

const cache_stats *l1d_stats(const l1d *l) { return &l->stats; }

void l1d_invalidate(l1d *l) {
  if (!l->enabled) return;
  cache_tags *t = &l->core.tags;
  size_t n = (size_t)t->nsets * (size_t)t->assoc;
  for (size_t i = 0; i < n; i++) t->lines[i].valid &= t->lines[i].dirty;
}
