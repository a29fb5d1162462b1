#include "cache_core.h"

#include <string.h>

static int letter_in(char c, const char *set) { return c && strchr(set, c) != NULL; }

int cache_core_init(cache_core *c, const cache_config *cfg, cache_stats *stats, const char *what,
                    rf_diag *d) {
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
  if (cache_tags_init(&c->tags, cfg, what, d)) return -1;
  if (mshr_init(&c->mshr, cfg->mshr_entries, cfg->mshr_max_merge, what, d) ||
      access_ring_init(&c->out, (uint32_t)cfg->miss_queue_size, d)) {
    cache_core_free(c);
    return -1;
  }
  c->full_mask = mem_full_sector_mask(cfg->line_size);
  c->line_shift = mem_log2((uint64_t)cfg->line_size);
  return 0;
}

void cache_core_free(cache_core *c) {
  cache_tags_free(&c->tags);
  mshr_free(&c->mshr);
  access_ring_free(&c->out);
}

static void send(cache_core *c, uint64_t addr, uint8_t mask, int is_write, uint8_t space,
                 uint32_t token, uint16_t sm) {
  mem_access a = {.addr = addr, .token = token, .sector_mask = mask, .is_write = (uint8_t)is_write,
                  .space = space, .sm = sm};
  access_ring_push(&c->out, &a);
}

/* Queue slots an eviction of this slot would take. */
static uint32_t writeback_slots(const tag_line *l) { return !tag_line_free(l) && l->dirty; }

static void evict(cache_core *c, tag_line *l, cache_effects *fx) {
  if (writeback_slots(l)) {
    send(c, l->addr, l->dirty, 1, l->space, 0, c->owner);
    fx->writebacks++;
  }
  l->valid = l->dirty = 0;
}

static cache_outcome stall(cache_core *c) {
  c->stats->reservation_fails++;
  return CACHE_STALL;
}

static cache_outcome read_access(cache_core *c, const mem_req *r, uint64_t key, uint64_t gaddr,
                                 uint8_t need, int hit_room, uint64_t now, cache_effects *fx) {
  (void)now;
  tag_line *line = cache_tags_probe(&c->tags, key);
  uint8_t valid = line ? line->valid : 0;
  if ((valid & need) == need) {
    if (!hit_room) return stall(c);
    cache_tags_touch(&c->tags, line);
    /* An atomic's write half: kept in a write-back cache, otherwise not modelled. */
    if (r->a.is_atomic && mem_effective_write_policy(c->cfg.write_policy, r->a.space) == 'B') {
      line->dirty |= need;
      line->space = r->a.space;
    }
    c->stats->accesses++;
    c->stats->hits++;
    return CACHE_HIT;
  }
  int mi = mshr_find(&c->mshr, key);
  uint8_t pending = mi >= 0 ? mshr_pending(&c->mshr, mi) : 0;
  uint8_t missing = (uint8_t)(need & ~valid & ~pending);
  if (!missing) { /* everything needed is on its way: ride along ("hit reserved") */
    if (!mshr_can_merge(&c->mshr, mi)) return stall(c);
    mshr_add_waiter(&c->mshr, mi, r, (uint8_t)(need & ~valid));
    if (line) cache_tags_touch(&c->tags, line);
    c->stats->accesses++;
    c->stats->hit_reserved++;
    return CACHE_MISS;
  }
  uint8_t fetch = c->cfg.sectored ? missing : (uint8_t)(c->full_mask & ~valid & ~pending);
  /* Check every resource before changing anything, so a stall leaves no trace; the cheap
   * checks first, since a stalled SM retries every cycle. */
  if (mi >= 0 ? !mshr_can_merge(&c->mshr, mi) : mshr_full(&c->mshr)) return stall(c);
  if (access_ring_full(&c->out)) return stall(c);
  tag_line *victim = NULL;
  if (!line && c->cfg.alloc_policy == 'm') {
    victim = cache_tags_victim(&c->tags, key);
    if (!victim) return stall(c);
    if (access_ring_room(&c->out) < 1 + writeback_slots(victim)) return stall(c);
  }
  if (victim) {
    evict(c, victim, fx);
    cache_tags_install(&c->tags, victim, key, gaddr, r->a.space);
    line = victim;
  }
  if (line) {
    line->pending |= fetch;
    cache_tags_touch(&c->tags, line);
  }
  if (mi < 0) mi = mshr_alloc(&c->mshr, key);
  mshr_add_pending(&c->mshr, mi, fetch);
  mshr_add_waiter(&c->mshr, mi, r, (uint8_t)(need & ~valid));
  send(c, gaddr, fetch, 0, r->a.space, (uint32_t)mi, r->a.sm);
  fx->fetches++;
  c->stats->accesses++;
  c->stats->misses++;
  return CACHE_MISS;
}

static cache_outcome write_access(cache_core *c, const mem_req *r, uint64_t key, uint64_t gaddr,
                                  uint8_t need, cache_effects *fx) {
  tag_line *line = cache_tags_probe(&c->tags, key);
  int full_hit = line && (line->valid & need) == need;
  char policy = mem_effective_write_policy(c->cfg.write_policy, r->a.space);
  /* Write-allocate never fetches: sectors are written whole (the coalescer hands out whole
   * sectors), so 'W', 'F' and 'L' all allocate the line with the written sectors valid. Local
   * memory under the Fermi 'L' policy is a private write-back region: it allocates whatever
   * the write-allocate letter says (which there describes global writes). */
  int allocate = c->cfg.write_alloc != 'N' ||
                 (c->cfg.write_policy == 'L' && r->a.space == SPACE_LOCAL);
  tag_line *victim = NULL;
  uint32_t slots = 0;
  int absorb = policy == 'B' && line;
  if (!line && allocate && (policy == 'B' || policy == 'T')) {
    victim = cache_tags_victim(&c->tags, key); /* NULL (all ways reserved): write around */
    if (victim) slots += writeback_slots(victim);
    if (victim && policy == 'B') absorb = 1;
  }
  if (!absorb) slots++;
  if (access_ring_room(&c->out) < slots) return stall(c);
  if (victim) {
    evict(c, victim, fx);
    cache_tags_install(&c->tags, victim, key, gaddr, r->a.space);
    line = victim;
  }
  if (!absorb) {
    send(c, gaddr, need, 1, r->a.space, r->a.token, r->a.sm);
    fx->write_sent = 1;
  }
  if (line) {
    if (policy == 'B' || policy == 'T') {
      line->valid |= need;
      if (policy == 'B') {
        line->dirty |= need;
        line->space = r->a.space;
      }
      cache_tags_touch(&c->tags, line);
    } else { /* write-evict and read-only caches drop the written sectors */
      line->valid &= (uint8_t)~need;
      line->dirty &= (uint8_t)~need;
    }
  }
  c->stats->accesses++;
  c->stats->writes++;
  if (full_hit) {
    c->stats->hits++;
    c->stats->write_hits++;
  } else {
    c->stats->misses++;
  }
  return full_hit ? CACHE_HIT : CACHE_MISS;
}

cache_outcome cache_core_access(cache_core *c, const mem_req *r, uint64_t key, uint64_t gaddr,
                                uint8_t need, int hit_room, uint64_t now, cache_effects *fx) {
  need &= c->full_mask;
  if (!need) need = c->full_mask;
  if (r->a.is_write && !r->a.is_atomic) return write_access(c, r, key, gaddr, need, fx);
  return read_access(c, r, key, gaddr, need, hit_room, now, fx);
}

void cache_core_fill(cache_core *c, int mi, uint64_t key, uint64_t gaddr, uint8_t sectors,
                     uint64_t now, cache_effects *fx) {
  tag_line *line = cache_tags_probe(&c->tags, key);
  if (line) {
    line->valid |= sectors;
    line->pending &= (uint8_t)~sectors;
  } else if (c->cfg.alloc_policy != 'm') {
    tag_line *victim = cache_tags_victim(&c->tags, key);
    if (victim && access_ring_room(&c->out) >= writeback_slots(victim)) {
      evict(c, victim, fx);
      cache_tags_install(&c->tags, victim, key, gaddr, SPACE_GLOBAL);
      victim->valid = sectors;
    }
  }
  mshr_fill(&c->mshr, mi, sectors, now);
}
