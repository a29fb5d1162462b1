#include "cache_core.h"

#include <string.h>

static int letter_in(char c, const char *set) { return c && strchr(set, c) != NULL; }

int cache_core_init(cache_core *c, const cache_config *cfg, int max_assoc, int dirty_percent,
                    cache_stats *stats, const char *what, rf_diag *d) {
  memset(c, 0, sizeof *c);
  c->cfg = *cfg;
  c->stats = stats;
  if (!letter_in(cfg->write_policy, "RBTEL"))
    return rf_fail(d, "%s: expected write policy R, B, T, E or L, found '%c'", what,
                   cfg->write_policy);
  if (!letter_in(cfg->alloc_policy, "mfs"))
    return rf_fail(d, "%s: expected allocation policy m, f or s, found '%c'", what,
                   cfg->alloc_policy);
  if (!letter_in(cfg->write_alloc, "NWFL"))
    return rf_fail(d, "%s: expected write-allocate policy N, W, F or L, found '%c'", what,
                   cfg->write_alloc);
  if (cfg->miss_queue_size < 1)
    return rf_fail(d, "%s: expected a miss queue of at least 1 entry, found %d", what,
                   cfg->miss_queue_size);
  if (cfg->sectored && cfg->line_size != MEM_SECTORS_PER_LINE * MEM_SECTOR_BYTES)
    return rf_fail(d, "%s: expected a 128-byte line for a sectored cache, found %d", what,
                   cfg->line_size);
  if (cfg->data_port_width < 0 || (cfg->data_port_width && cfg->line_size % cfg->data_port_width))
    return rf_fail(d, "%s: expected a data port width dividing the line (%d bytes), found %d",
                   what, cfg->line_size, cfg->data_port_width);
  if (cache_tags_init(&c->tags, cfg, max_assoc, dirty_percent, what, d)) return -1;
  if (mshr_init(&c->mshr, cfg->mshr_entries, cfg->mshr_max_merge, what, d) ||
      req_ring_init(&c->out, (uint32_t)cfg->miss_queue_size, d)) {
    cache_core_free(c);
    return -1;
  }
  c->full_mask = mem_full_sector_mask(cfg->line_size);
  c->line_shift = mem_log2((uint64_t)cfg->line_size);
  c->port_width = cfg->data_port_width ? cfg->data_port_width : cfg->line_size;
  chunk_count_init(&c->port_cycles, c->port_width);
  return 0;
}

void cache_core_free(cache_core *c) {
  cache_tags_free(&c->tags);
  mshr_free(&c->mshr);
  req_ring_free(&c->out);
}

/* GPGPU-Sim's miss_queue_full(n): fewer than n + 1 entries free. */
static int mq_full(const cache_core *c, int n) {
  return (int)c->out.count + n >= c->cfg.miss_queue_size;
}

static int sector_bytes(uint8_t mask) { return mem_popcount8(mask) * MEM_SECTOR_BYTES; }

static void send(cache_core *c, const mem_req *r) { req_ring_push(&c->out, r); }

/* A request for the next level derived from r (a fetch, or r itself). */
static mem_req derived(const mem_req *r, uint64_t gaddr, uint8_t mask, int size, uint32_t token,
                       int is_write) {
  mem_req q = *r;
  q.a.addr = gaddr;
  q.a.sector_mask = mask;
  q.a.full_mask = is_write ? mask : 0;
  q.a.size = (uint16_t)size;
  q.a.token = token;
  q.a.is_write = (uint8_t)is_write;
  q.a.is_atomic = 0;
  return q;
}

/* Writes a victim slot's dirty sectors back unless the cache is write-through (its data is
 * below already); the install that follows empties it. Returns the bytes written back (the
 * data port reads them). */
static int evict(cache_core *c, tag_line *l, uint64_t now, cache_effects *fx) {
  int bytes = 0;
  if (!tag_line_free(l) && l->dirty && c->cfg.write_policy != 'T') {
    mem_req wb = {.a = {.addr = l->addr, .token = UINT32_MAX, .sector_mask = l->dirty,
                        .full_mask = l->dirty, .size = (uint16_t)sector_bytes(l->dirty),
                        .is_write = 1, .space = l->space, .sm = c->owner},
                  .t_created = now};
    send(c, &wb);
    fx->writebacks++;
    bytes = wb.a.size;
  }
  return bytes;
}

/* The sectors a tag access gives the request (GPGPU-Sim's tag_array::access): under
 * allocate-on-miss a missing line takes its victim slot and a missing sector is reserved. */
static int tag_access(cache_core *c, tag_status st, tag_line **line, uint64_t key,
                      uint64_t gaddr, uint8_t space, uint64_t now, cache_effects *fx) {
  int wb_bytes = 0;
  if (st == TAG_MISS && c->cfg.alloc_policy == 'm') {
    *line = cache_tags_victim(&c->tags, key); /* the lookup found one exists */
    wb_bytes = evict(c, *line, now, fx);
    cache_tags_install(&c->tags, *line, key, gaddr, space);
  } else if (st == TAG_MISS) {
    *line = NULL; /* allocate on fill: nothing to touch now */
  }
  if (*line) cache_tags_touch(&c->tags, *line);
  return wb_bytes;
}

static void use_data_port(cache_core *c, int bytes) {
  if (bytes > 0) c->data_busy += chunk_count_of(&c->port_cycles, bytes);
}

static cache_outcome fail(cache_core *c, cache_fail why) {
  c->last_fail = why;
  c->stats->reservation_fails++;
  c->stats->fails[why]++;
  return CACHE_FAIL;
}

/* Whether a read of this block can be tracked: CACHE_HIT if so, else the failure; *found is
 * the block's entry, or -1. */
static cache_outcome mshr_check(cache_core *c, uint64_t block, int *found) {
  int mi = *found = mshr_find(&c->mshr, block);
  if (mi >= 0 && !mshr_can_take(&c->mshr, mi)) return fail(c, FAIL_MSHR_MERGE);
  if (mi < 0 && !mshr_can_take(&c->mshr, -1)) return fail(c, FAIL_MSHR_ENTRY);
  if (mi < 0 && (int)c->out.count >= c->cfg.miss_queue_size) return fail(c, FAIL_MISS_QUEUE);
  return CACHE_HIT;
}

/* GPGPU-Sim's send_read_request, once mshr_check has passed and found the block's entry mi (or
 * -1): merge into it or take a new one and send the fetch. The request r waits in the MSHR.
 * Returns the line the block is in, NULL if it is allocated on fill. */
static tag_line *read_request(cache_core *c, const mem_req *r, int mi, tag_status st,
                              tag_line *line, uint64_t key, uint64_t gaddr, uint8_t need,
                              uint64_t now, cache_effects *fx, int *wb_bytes) {
  uint64_t block = cache_core_block(c, key, need);
  *wb_bytes = tag_access(c, st, &line, key, gaddr, r->a.space, now, fx);
  uint8_t fetch = c->cfg.sectored ? need : c->full_mask;
  /* A request that joins an entry whose data is already in (ready, its waiters leaving one a
   * call) is served from it, as GPGPU-Sim serves it; no fill will come for the line, so it
   * is not reserved. (GPGPU-Sim reserves it, and the line stays reserved for good: once its
   * set's other lines are dirty below -gpgpu_l1_cache_write_ratio, nothing can be allocated
   * there again, which deadlocked stencil's block2D_reg_tiling on the TITAN V config.) */
  int served = mi >= 0 && c->mshr.e[mi].ready;
  if (line && c->cfg.alloc_policy == 'm' && !served) {
    line->pending |= fetch;
    cache_tags_sectors_changed(&c->tags, line, key);
  }
  if (mi < 0) {
    mi = mshr_alloc(&c->mshr, block, fetch);
    int size = c->cfg.sectored ? MEM_SECTOR_BYTES : c->cfg.line_size;
    mem_req q = derived(r, gaddr, fetch, size, (uint32_t)mi, 0);
    send(c, &q);
    fx->fetches++;
  }
  mshr_add(&c->mshr, mi, r);
  return line;
}

static cache_outcome read_access(cache_core *c, const mem_req *r, tag_status st, tag_line *line,
                                 uint64_t key, uint64_t gaddr, uint8_t need, uint64_t now,
                                 cache_effects *fx) {
  if (st == TAG_HIT) {
    cache_tags_touch(&c->tags, line);
    /* An atomic's write half: GPGPU-Sim leaves the line modified. */
    if (r->a.is_atomic) {
      cache_tags_set_dirty(&c->tags, line, line->dirty | need);
      line->space = r->a.space;
    }
    use_data_port(c, r->a.size);
    return CACHE_HIT;
  }
  if (st == TAG_FULL) return fail(c, FAIL_LINE_ALLOC);
  /* Two free entries: the fetch and a possible write-back. */
  if (mq_full(c, 1)) return fail(c, FAIL_MISS_QUEUE);
  int mi, wb_bytes = 0;
  if (mshr_check(c, cache_core_block(c, key, need), &mi) == CACHE_FAIL) return CACHE_FAIL;
  read_request(c, r, mi, st, line, key, gaddr, need, now, fx, &wb_bytes);
  use_data_port(c, wb_bytes);
  return CACHE_MISS;
}

/* The line state of a written sector: modified, readable if written whole. */
static void mark_written(cache_core *c, tag_line *line, uint64_t key, uint8_t need,
                         const mem_req *r) {
  uint8_t full = r->a.full_mask & need;
  /* Bytes of a sector that was valid before stay readable around the written ones. */
  line->unreadable = (uint8_t)((line->unreadable & ~full) | (need & ~full & ~line->valid));
  line->valid |= need;
  cache_tags_sectors_changed(&c->tags, line, key);
  cache_tags_set_dirty(&c->tags, line, line->dirty | need);
  line->space = r->a.space;
}

static cache_outcome write_hit(cache_core *c, const mem_req *r, tag_line *line, uint64_t key,
                               uint8_t need, cache_effects *fx) {
  char p = c->cfg.write_policy;
  if (p == 'L') p = r->a.space == SPACE_LOCAL ? 'B' : 'E';
  if (p != 'B' && mq_full(c, 0)) return fail(c, FAIL_MISS_QUEUE);
  if (p == 'B' || p == 'T') {
    cache_tags_touch(&c->tags, line);
    line->valid |= need;
    cache_tags_set_dirty(&c->tags, line, line->dirty | need);
    line->unreadable &= (uint8_t)~(r->a.full_mask & need);
    cache_tags_sectors_changed(&c->tags, line, key);
    line->space = r->a.space;
  } else { /* write-evict and read-only caches drop the written block */
    uint8_t drop = c->cfg.sectored ? need : c->full_mask;
    line->valid &= (uint8_t)~drop;
    line->unreadable &= (uint8_t)~drop;
    cache_tags_set_dirty(&c->tags, line, line->dirty & (uint8_t)~drop);
    cache_tags_sectors_changed(&c->tags, line, key); /* (it may hold nothing now) */
  }
  if (p != 'B') {
    send(c, r);
    fx->write_sent = 1;
  }
  use_data_port(c, r->a.size);
  return CACHE_HIT;
}

static cache_outcome write_miss(cache_core *c, const mem_req *r, tag_status st, tag_line *line,
                                uint64_t key, uint64_t gaddr, uint8_t need, uint64_t now,
                                cache_effects *fx) {
  char wa = c->cfg.write_alloc;
  if (st == TAG_FULL && wa != 'N') return fail(c, FAIL_LINE_ALLOC);
  int wb_bytes = 0;
  int full = (r->a.full_mask & need) == need;
  if (wa == 'N' || (wa == 'F' && full) || wa == 'L') {
    if (mq_full(c, 0)) return fail(c, FAIL_MISS_QUEUE);
    if (wa == 'N' || (wa == 'L' && c->cfg.write_policy == 'T')) {
      send(c, r);
      fx->write_sent = 1;
    }
    if (wa != 'N') { /* allocate the line, the written sector modified, nothing fetched */
      wb_bytes = tag_access(c, st, &line, key, gaddr, r->a.space, now, fx);
      if (line) mark_written(c, line, key, need, r);
    }
  } else { /* 'W' (write and fetch) or 'F' with a partial sector (fetch, then write) */
    if (mq_full(c, wa == 'W' ? 2 : 1)) return fail(c, FAIL_MISS_QUEUE);
    int mi;
    if (mshr_check(c, cache_core_block(c, key, need), &mi) == CACHE_FAIL) return CACHE_FAIL;
    if (wa == 'W') {
      send(c, r);
      fx->write_sent = 1;
    }
    /* The fetch's waiter: the write itself under 'F' (acknowledged once the line is in), an
     * internal read under 'W' (dropped when released). */
    mem_req waiter = *r;
    if (wa == 'W') {
      waiter.a.is_write = 0;
      waiter.a.token = UINT32_MAX;
    }
    tag_line *l = read_request(c, &waiter, mi, st, line, key, gaddr, need, now, fx, &wb_bytes);
    /* (a line that holds nothing, installed for a fetch an entry already in serves, is not
     * the key's: nothing to write into) */
    if (wa == 'F' && l && !tag_line_free(l)) mark_written(c, l, key, need, r);
  }
  use_data_port(c, wb_bytes);
  return CACHE_MISS;
}

static void count(cache_core *c, const mem_req *r, tag_status st, cache_outcome o) {
  if (o == CACHE_FAIL) return;
  cache_stats *s = c->stats;
  s->accesses++;
  int is_write = r->a.is_write && !r->a.is_atomic;
  if (is_write) s->writes++;
  if (o == CACHE_HIT) {
    s->hits++;
    if (is_write) s->write_hits++;
  } else if (st == TAG_HIT_RESERVED) {
    s->hit_reserved++;
  } else {
    s->misses++;
    if (st == TAG_SECTOR_MISS) s->sector_misses++;
  }
}

cache_outcome cache_core_fail_again(cache_core *c, cache_fail why) { return fail(c, why); }

/* What a failure memo records of an access (and compares). */
static fail_memo fail_memo_of(const cache_core *c, const mem_req *r, uint64_t key, uint8_t need) {
  return (fail_memo){.epoch = c->epoch, .key = key, .valid = 1, .need = need,
                     .flags = (uint8_t)(r->a.is_write | r->a.is_atomic << 1),
                     .space = r->a.space, .full_mask = r->a.full_mask, .size = r->a.size};
}

cache_outcome cache_core_access(cache_core *c, const mem_req *r, uint64_t key, uint64_t gaddr,
                                uint8_t need, uint64_t now, cache_effects *fx) {
  need &= c->full_mask;
  if (!need || !c->cfg.sectored) need = c->full_mask;
  int is_write = r->a.is_write && !r->a.is_atomic;
  /* The line the hit memo has for this read is the lookup's answer, a hit, found without the
   * failure memos or the search. (No failure memo can match such a read: one of this epoch was
   * made with the line's sectors as they are now, and a read they let hit never fails.) */
  tag_line *line = cache_core_memo_line(c, r, key, need);
  tag_status st = TAG_HIT;
  if (!line) {
    const fail_memo m = fail_memo_of(c, r, key, need);
    for (int i = 0; i < FAIL_MEMOS; i++) {
      const fail_memo *f = &c->memo[i];
      if (f->valid && f->epoch == m.epoch && f->key == m.key && f->need == m.need &&
          f->flags == m.flags && f->space == m.space && f->full_mask == m.full_mask &&
          f->size == m.size)
        return fail(c, (cache_fail)f->why);
    }
    st = cache_tags_lookup(&c->tags, key, need, is_write, &line);
  }
  cache_outcome o;
  if (is_write)
    o = st == TAG_HIT ? write_hit(c, r, line, key, need, fx)
                      : write_miss(c, r, st, line, key, gaddr, need, now, fx);
  else
    o = read_access(c, r, st, line, key, gaddr, need, now, fx);
  count(c, r, st, o);
  if (o == CACHE_FAIL) { /* nothing changed: remember the answer */
    fail_memo m = fail_memo_of(c, r, key, need);
    m.why = (uint8_t)c->last_fail;
    c->memo[c->memo_next] = m;
    c->memo_next = (c->memo_next + 1) % FAIL_MEMOS;
    return o;
  }
  c->epoch++; /* hits too: the replacement order moved */
  if (o == CACHE_HIT && !r->a.is_write && !r->a.is_atomic)
    c->hit = (hit_memo){.key = key, .gen = c->tags.gen, .line = line};
  if (o == CACHE_MISS && st == TAG_HIT_RESERVED) return CACHE_HIT_RESERVED;
  if (o == CACHE_MISS && st == TAG_SECTOR_MISS) return CACHE_SECTOR_MISS;
  return o;
}

void cache_core_fill(cache_core *c, int mi, uint64_t key, uint64_t gaddr, uint8_t sectors,
                     uint64_t now, cache_effects *fx) {
  int atomic = c->mshr.e[mi].atomic;
  c->epoch++;
  if (!mshr_fill(&c->mshr, mi, sectors)) return;
  uint8_t got = c->cfg.sectored ? sectors : c->full_mask;
  tag_line *line = cache_tags_probe(&c->tags, key);
  if (!line && c->cfg.alloc_policy != 'm') {
    line = cache_tags_victim(&c->tags, key);
    /* A dirty victim needs a miss-queue entry for its write-back (write-through lines are
     * below already). */
    if (line && (!line->dirty || c->cfg.write_policy == 'T' || !mq_full(c, 0))) {
      evict(c, line, now, fx);
      cache_tags_install(&c->tags, line, key, gaddr, SPACE_GLOBAL);
    } else {
      line = NULL; /* every way reserved: the data goes up without being kept */
    }
  }
  if (line) {
    line->valid |= got;
    line->pending &= (uint8_t)~got;
    line->unreadable &= (uint8_t)~got; /* the fetched data completes partly written sectors */
    cache_tags_sectors_changed(&c->tags, line, key);
    if (atomic) cache_tags_set_dirty(&c->tags, line, line->dirty | got);
  }
  int block_bytes = c->cfg.sectored ? MEM_SECTOR_BYTES : c->cfg.line_size;
  c->fill_busy += block_bytes > c->port_width ? block_bytes / c->port_width : 1;
}
