/* Per-SM first-level caches: the shared cache logic (cache_core.c) behind GPGPU-Sim's L1D
 * latency pipelines, plus the path of accesses that bypass the cache.
 *
 * Timing (GPGPU-Sim's l1_latency_queue): the L1D has -gpgpu_l1_banks banks; an access goes to
 * bank (address / -gpgpu_l1_banks_byte_interleaving) mod banks, at most one a cycle per bank,
 * into that bank's pipeline of -gpgpu_l1_latency stages. The tags are read when it reaches the
 * end: a hit completes then (its data does not wait for the LD/ST writeback), a miss takes an
 * MSHR and the miss queue, a reservation failure stays at the end and stalls the bank while
 * the accesses behind it close up. An access entering at t is read at t + latency at the
 * earliest, one per bank per cycle; a bank holds at most `latency` accesses.
 * The L1I has no pipeline: its tags are read when the fetch stage asks.
 *
 * Bypass: atomics (performed at the L2), every access of a disabled L1D and those the LD/ST
 * unit marks bypass_l1 wait in a one-entry queue for the cluster port, never touching the tags
 * or the statistics; their replies go back to the LD/ST unit. */
#include <string.h>

#include "cache_core.h"
#include "memsys_debug.h"

typedef struct done_entry {
  uint64_t ready_at;
  uint32_t token;
} done_entry;

RING_DEFINE(done_ring, done_entry)

/* Requests waiting for the cluster port after bypassing the cache (one, as GPGPU-Sim's
 * LD/ST unit pushes a bypassed access into the network directly). */
#define BYPASS_QUEUE 1

typedef struct ack_entry {
  uint32_t token;
  int acks;
} ack_entry;

RING_DEFINE(ack_ring, ack_entry)

struct l1d {
  /* What an SM's every cycle reads first (the queues, the banks' state), then the cache, whose
   * own per-cycle fields come first (cache_core): three lines of the host's cache, allocated
   * on a line (l1_make). They were spread over seven. */
  int enabled, sm, latency, line_shift, nbanks, bank_shift;
  int l2_splits;         /* the L2 acknowledges each sector of a write */
  /* The L1I (l1_cache_create): a read hit is the caller's at once, as l1d_access's L1_HIT,
   * rather than a done entry it takes next cycle (the fetch stage fills the warp's buffer right
   * away, as with a perfect L1I: the instructions issue from the next cycle either way). */
  int hits_at_once;
  req_ring *pipes;       /* per bank, ordered by entry, t_ready = entry + latency */
  uint64_t pipes_busy;   /* bit per bank whose pipeline holds an access (at most 64 banks): the
                          * cycle reads only those pipelines' lines */
  uint64_t *bank_taken;  /* per bank: 1 + the cycle it last took an access */
  /* Per bank: 1 + core.epoch when its head's tag read failed (0: it has not), and why. Until
   * the epoch moves (the tags, MSHRs and miss queue unchanged) it would fail alike: a memory-
   * bound SM's banks retry their heads every cycle. */
  struct bank_fail {
    uint64_t epoch;
    cache_fail why;
  } *bank_failed;
  req_ring bypass;
  done_ring hits;        /* read hits, ordered by ready time (not the L1I's: hits_at_once) */
  ack_ring acks;         /* stores kept by the cache */
  cache_core core;       /* enabled only */
  cache_stats stats;
  uint64_t invalidated_epoch; /* core.epoch right after the last l1d_invalidate */
  uint64_t emptied_epoch;     /* core.epoch right after its tags were last emptied (at creation
                               * or by l1d_set_assoc) */
};

/* An L1 whose tags hold up to max_assoc ways, without the L1D's banks. */
static l1d *l1_make(const cache_config *cc, int max_assoc, int dirty_percent, int latency,
                    const char *name, int sm, rf_diag *d) {
  if (latency < 0)
    return rf_fail(d, "%s: expected a latency >= 0, found %d", name, latency), NULL;
  if (sm < 0 || sm > UINT16_MAX)
    return rf_fail(d, "%s: expected an SM id in 0..%d, found %d", name, UINT16_MAX, sm), NULL;
  l1d *l = rf_calloc_lines(1, sizeof *l, d);
  if (!l) return NULL;
  l->enabled = cc->enabled;
  l->sm = sm;
  l->latency = latency;
  int ok = 1;
  if (l->enabled) {
    ok = !cache_core_init(&l->core, cc, max_assoc, dirty_percent, &l->stats, name, d);
    if (ok) {
      l->core.owner = (uint16_t)sm;
      l->line_shift = l->core.line_shift;
    } else {
      l->enabled = 0; /* nothing to free in the core */
    }
  }
  /* The hit ring grows on demand (in l1d_access, where failure is a stall). */
  if (!ok || req_ring_init(&l->bypass, BYPASS_QUEUE, d) || done_ring_init(&l->hits, 16, d) ||
      ack_ring_init(&l->acks, 16, d)) {
    l1d_destroy(l);
    return NULL;
  }
  return l;
}

/* The ways the L1D's tags are made for: its configured count (a disabled L1D's may be 0), or
 * with -gpgpu_adaptive_cache_config the most the unified array can give it (adapt_l1d picks
 * the kernel's share); -1 (with d) if that array holds no way at all. */
static int l1d_max_ways(const gpu_config *c, rf_diag *d) {
  long ways = config_unified_l1d_ways(c);
  /* (a geometry the tags refuse is reported by them, with the configured count) */
  if (ways < 0) return c->l1d.assoc > 0 ? c->l1d.assoc : 0;
  if (ways == 0)
    return rf_fail(d, "L1D: the %d KB unified array (-gpgpu_unified_l1d_size) holds no way of "
                      "the L1D's %d sets x %d bytes",
                   c->unified_l1d_kb, c->l1d.nsets, c->l1d.line_size);
  return ways > INT32_MAX ? INT32_MAX : (int)ways;
}

l1d *l1d_create(const gpu_config *c, int sm, rf_diag *d) {
  /* Made at its largest at once: making the cache and then making it again freed its first
   * MSHR pool, which raised glibc's mmap threshold above the pools' size (a freed mmap'd
   * block does), so every later SM's pools came from the heap and were zeroed in full, the
   * pages a run never touches included (peak RSS of the x240 run on the TITAN V config 55.4
   * MB before, 48.9 MB after). */
  int ways = l1d_max_ways(c, d);
  if (ways < 0) return NULL;
  l1d *l = l1_make(&c->l1d, ways, c->l1_write_ratio, c->l1_latency, "L1D", sm, d);
  if (!l || !l->enabled) return l;
  if (c->l1_banks < 1 || !mem_is_pow2((uint64_t)c->l1_banks) || c->l1_bank_bytes < 1 ||
      !mem_is_pow2((uint64_t)c->l1_bank_bytes)) {
    rf_fail(d, "L1D: expected power-of-two bank count and interleaving, found %d and %d",
            c->l1_banks, c->l1_bank_bytes);
    l1d_destroy(l);
    return NULL;
  }
  l->l2_splits = c->l2.enabled && c->l2.sectored;
  l->nbanks = c->l1_banks;
  l->bank_shift = mem_log2((uint64_t)c->l1_bank_bytes);
  l->pipes = rf_calloc((size_t)l->nbanks, sizeof *l->pipes, d);
  l->bank_taken = rf_calloc((size_t)l->nbanks, sizeof *l->bank_taken, d);
  l->bank_failed = rf_calloc((size_t)l->nbanks, sizeof *l->bank_failed, d);
  int ok = l->pipes && l->bank_taken && l->bank_failed;
  for (int b = 0; ok && b < l->nbanks; b++)
    ok = !req_ring_init(&l->pipes[b], (uint32_t)(l->latency > 0 ? l->latency : 1), d);
  if (!ok) {
    l1d_destroy(l);
    return NULL;
  }
  return l;
}

l1d *l1_cache_create(const cache_config *cc, int latency, const char *name, int sm, rf_diag *d) {
  l1d *l = l1_make(cc, cc->assoc, 0, latency, name, sm, d);
  if (l) l->hits_at_once = 1;
  return l;
}

void l1d_destroy(l1d *l) {
  if (!l) return;
  if (l->enabled) cache_core_free(&l->core);
  for (int b = 0; l->pipes && b < l->nbanks; b++) req_ring_free(&l->pipes[b]);
  free(l->pipes);
  free(l->bank_taken);
  free(l->bank_failed);
  req_ring_free(&l->bypass);
  done_ring_free(&l->hits);
  ack_ring_free(&l->acks);
  free(l);
}

int l1d_max_assoc(const l1d *l) { return l->enabled ? l->core.tags.max_assoc : 0; }

int l1d_set_assoc(l1d *l, int assoc, rf_diag *d) {
  if (!l->enabled || assoc < 1 || assoc > l->core.tags.max_assoc)
    return rf_fail(d, "L1D: expected 1..%d ways, found %d", l1d_max_assoc(l), assoc);
  if (l1d_busy(l)) return rf_fail(d, "L1D of SM %d: cannot change its size while busy", l->sm);
  /* Tags that nothing has touched since they were emptied at this size (the epoch counts every
   * change) are what emptying them again leaves: an SM idle through a kernel, most of them in
   * a trace of many small grids, where clearing 80 L1Ds of 1,024 lines and their indexes at
   * every kernel was 4% of the run. */
  if (assoc == l->core.tags.assoc && l->emptied_epoch == l->core.epoch) return 0;
  cache_tags_set_assoc(&l->core.tags, assoc);
  cache_core_changed(&l->core);
  l->emptied_epoch = l->core.epoch;
  return 0;
}

/* The tags read for one access; l1 keeps the outcome's consequences. */
static cache_outcome read_tags(l1d *l, const mem_req *r, uint64_t now) {
  uint64_t key = r->a.addr >> l->line_shift;
  cache_effects fx = {0};
  cache_outcome o =
      cache_core_access(&l->core, r, key, key << l->line_shift, r->a.sector_mask, now, &fx);
  if (o == CACHE_HIT && !r->a.is_write) {
    if (!l->hits_at_once) {
      done_entry e = {.ready_at = now, .token = r->a.token};
      done_ring_push(&l->hits, &e);
    }
  } else if (o != CACHE_FAIL && !fx.write_sent && mem_wants_ack(&r->a)) {
    ack_entry e = {.token = r->a.token, .acks = mem_acks(&r->a, l->l2_splits)};
    ack_ring_push(&l->acks, &e);
  }
  return o;
}

static int goes_around(const l1d *l, const mem_access *a) {
  return !l->enabled || a->is_atomic || a->bypass_l1;
}

/* The request of SM l->sm for access a, made at `now`, written into e. */
static void put_request(const l1d *l, mem_req *e, const mem_access *a, uint64_t now) {
  *e = (mem_req){.a = *a, .t_created = now};
  e->a.sm = (uint16_t)l->sm;
}

l1_result l1d_access(l1d *l, const mem_access *a, uint64_t now) {
  if (goes_around(l, a)) {
    if (req_ring_full(&l->bypass)) return L1_STALL;
    mem_req *e = req_ring_push_new(&l->bypass);
    put_request(l, e, a, now);
    e->a.bypass_l1 = 1;
    return L1_MISS;
  }
  /* Room for a hit or a kept store now, so read_tags never has to allocate. */
  if (done_ring_reserve(&l->hits, 1, NULL) || ack_ring_reserve(&l->acks, 1, NULL))
    return L1_STALL;
  if (!l->pipes) { /* no pipeline: the tags are read now */
    mem_req r;
    put_request(l, &r, a, now);
    cache_outcome o = read_tags(l, &r, now);
    return o == CACHE_FAIL ? L1_STALL : o == CACHE_HIT ? L1_HIT : L1_MISS;
  }
  unsigned first = a->sector_mask ? (unsigned)__builtin_ctz(a->sector_mask) : 0;
  uint64_t byte = a->addr + (uint64_t)MEM_SECTOR_BYTES * first;
  int b = (int)((byte >> l->bank_shift) & (uint64_t)(l->nbanks - 1));
  req_ring *p = &l->pipes[b];
  if (l->bank_taken[b] == now + 1 || req_ring_full(p)) return L1_STALL;
  l->bank_taken[b] = now + 1;
  mem_req *e = req_ring_push_new(p);
  put_request(l, e, a, now);
  e->t_ready = now + (uint64_t)l->latency;
  cache_core_prefetch(&l->core, a->addr >> l->line_shift);
  l->pipes_busy |= 1ull << b;
  return L1_MISS;
}

void l1d_cycle(l1d *l, uint64_t now) {
  if (!l->enabled) return;
  cache_core_cycle(&l->core);
  for (uint64_t busy = l->pipes_busy; busy; busy &= busy - 1) {
    int b = __builtin_ctzll(busy);
    req_ring *p = &l->pipes[b];
    if (req_ring_head(p)->t_ready > now) continue;
    struct bank_fail *f = &l->bank_failed[b];
    if (f->epoch == l->core.epoch + 1) {
      cache_core_fail_again(&l->core, f->why);
      continue;
    }
    if (done_ring_reserve(&l->hits, 1, NULL) || ack_ring_reserve(&l->acks, 1, NULL))
      continue; /* out of memory: try again later */
    if (read_tags(l, req_ring_head(p), now) != CACHE_FAIL) {
      req_ring_pop(p);
      if (!p->count) l->pipes_busy &= ~(1ull << b);
      f->epoch = 0; /* (the next head is another access) */
    } else {
      *f = (struct bank_fail){l->core.epoch + 1, l->core.last_fail};
    }
  }
}

int l1d_emit(l1d *l, memsys *m, uint64_t now) {
  int sent = 0;
  if (l->enabled && l->core.out.count) {
    const mem_req *r = req_ring_head(&l->core.out);
    if (memsys_can_send(m, l->sm, &r->a)) {
      memsys_send(m, &r->a, r->t_created, now);
      cache_core_pop_out(&l->core);
      sent = 1;
    }
  }
  if (l->bypass.count) {
    const mem_req *r = req_ring_head(&l->bypass);
    if (memsys_can_send(m, l->sm, &r->a)) {
      memsys_send(m, &r->a, r->t_created, now);
      req_ring_pop(&l->bypass);
      sent = 1;
    }
  }
  return sent;
}

int l1d_debug_take(l1d *l, mem_access *out, uint64_t *created) {
  req_ring *q = l->enabled && l->core.out.count ? &l->core.out : &l->bypass;
  if (!q->count) return 0;
  *out = req_ring_head(q)->a;
  if (created) *created = req_ring_head(q)->t_created;
  if (q == &l->core.out) cache_core_pop_out(&l->core);
  else req_ring_pop(q);
  return 1;
}

int l1d_assoc(const l1d *l) { return l->enabled ? l->core.tags.assoc : 0; }

int l1d_can_fill(const l1d *l) { return !l->enabled || cache_core_fill_port_free(&l->core); }

void l1d_fill(l1d *l, const mem_access *reply, uint64_t now) {
  if (!l->enabled || reply->is_write || reply->bypass_l1) return;
  uint64_t key = reply->addr >> l->line_shift;
  uint8_t sectors = reply->sector_mask & l->core.full_mask;
  uint64_t block = cache_core_block(&l->core, key, sectors ? sectors : l->core.full_mask);
  /* The fetch carried its MSHR index as token; fall back to a lookup if it does not match. */
  int mi = mshr_matches(&l->core.mshr, reply->token, block) ? (int)reply->token
                                                            : mshr_find(&l->core.mshr, block);
  if (mi < 0) return;
  cache_effects fx = {0};
  cache_core_fill(&l->core, mi, key, key << l->line_shift, sectors, now, &fx);
}

int l1d_pop_hit(l1d *l, uint64_t now, uint32_t *token) {
  if (!l->hits.count || done_ring_head(&l->hits)->ready_at > now) return 0;
  *token = done_ring_head(&l->hits)->token;
  done_ring_pop(&l->hits);
  return 1;
}

int l1d_pop_store_ack(l1d *l, uint32_t *token, int *acks) {
  if (!l->acks.count) return 0;
  *token = ack_ring_head(&l->acks)->token;
  *acks = ack_ring_head(&l->acks)->acks;
  ack_ring_pop(&l->acks);
  return 1;
}

int l1d_pop_miss(l1d *l, uint64_t now, uint32_t *token) {
  (void)now;
  if (!l->enabled) return 0;
  mem_req r;
  while (cache_core_next(&l->core, &r)) {
    if (r.a.is_write && !r.a.is_atomic) continue; /* a write waited for its line: no data */
    *token = r.a.token;
    return 1;
  }
  return 0;
}

int l1d_miss_ready(const l1d *l) { return l->enabled && mshr_has_ready(&l->core.mshr); }

/* Accesses in a bank pipeline, or hits, acknowledgements or bypassed accesses to deliver
 * (a disabled cache has no bank pipelines). */
static int holds_accesses(const l1d *l) {
  return l->hits.count || l->bypass.count || l->acks.count || l->pipes_busy;
}

int l1d_busy(const l1d *l) {
  return holds_accesses(l) || (l->enabled && cache_core_busy(&l->core));
}

int l1d_idle(const l1d *l) {
  if (holds_accesses(l)) return 0;
  if (!l->enabled) return 1;
  const cache_core *c = &l->core;
  if (c->out.count || mshr_has_ready(&c->mshr)) return 0;
  /* The ports count down in l1d_cycle, which only the L1D (the cache with bank pipelines)
   * runs: the L1I's never change, and nothing waits on them. */
  return l->nbanks == 0 || (!c->data_busy && !c->fill_busy);
}

void l1d_report(const l1d *l, const char *name, FILE *out) {
  if (!l1d_busy(l)) return;
  int piped = 0;
  for (int b = 0; l->enabled && b < l->nbanks; b++) piped += (int)l->pipes[b].count;
  fprintf(out, "  SM %d %s: %d accesses in the bank pipelines, %d hits and %d store "
          "acknowledgements to deliver, %d bypassed accesses waiting for the port", l->sm, name,
          piped, (int)l->hits.count, (int)l->acks.count, (int)l->bypass.count);
  if (l->enabled)
    fprintf(out, ", %d MSHR entries waiting (%d with their data), %d requests in the miss queue",
            l->core.mshr.active, l->core.mshr.ready_count, (int)l->core.out.count);
  fputc('\n', out);
}

const cache_stats *l1d_stats(const l1d *l) { return &l->stats; }

void l1d_invalidate(l1d *l) {
  if (!l->enabled) return;
  cache_tags *t = &l->core.tags;
  /* Dirty data of a write-back L1 (local memory under 'L') is kept: rfsim does not model its
   * loss. A write-through cache's modified sectors are below already and go too. */
  int keep_dirty = l->core.cfg.write_policy != 'T';
  /* Invalidating twice leaves what once did, and nothing touches the tags without moving the
   * epoch: with none since the last invalidation there is nothing to drop. */
  int unchanged = l->invalidated_epoch == l->core.epoch;
  cache_core_changed(&l->core);
  l->invalidated_epoch = l->core.epoch;
  if (unchanged) return;
  /* Only the ways in use hold anything (cache_tags_set_assoc empties the rest), and an empty
   * line has nothing to drop: a kernel that flushes at every MEMBAR (-gpgpu_flush_l1_cache)
   * walks the whole 128 KB of a Volta L1D each time. */
  for (int set = 0; set < t->nsets; set++) {
    tag_line *lines = &t->lines[(size_t)set * (size_t)t->max_assoc];
    for (int way = 0; way < t->assoc; way++) {
      tag_line *line = &lines[way];
      if (!(line->valid | line->dirty | line->unreadable)) continue;
      uint8_t keep = keep_dirty ? line->dirty : 0;
      line->valid &= keep;
      line->unreadable &= keep;
      cache_tags_sectors_changed(t, line, t->keys[line - t->lines]);
      cache_tags_set_dirty(t, line, keep);
    }
  }
}
