/* cache_core's hit memo (a read of the line that hit last, served without the failure memos
 * or a tag search while no line has taken another key and the line holds the sectors read)
 * against the full path: two caches of the same
 * configuration take the same random stream of reads, writes, atomics, fills, released
 * requests, port cycles, dropped lines and changes of ways, one of them with its memo emptied
 * before every access. Every outcome, effect, statistic, epoch, port, miss queue and the tag
 * arrays themselves (lines, keys, stamps, masks) must agree after every step, on read-only,
 * write-back, write-through and write-evict caches, sectored or not, LRU and FIFO, allocating on
 * miss or on fill. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/mem/cache_core.h"

enum { SETS = 4, WAYS = 4, KEYS = 28, STEPS = 20000 };

static uint64_t rnd(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

typedef struct pair {
  cache_core memo, plain;
  cache_stats memo_stats, plain_stats;
} pair;

static void same_tags(const cache_tags *a, const cache_tags *b, int step) {
  size_t n = (size_t)a->nsets * (size_t)a->max_assoc, words = (size_t)a->nsets * a->way_words;
  if (memcmp(a->lines, b->lines, n * sizeof *a->lines) || memcmp(a->keys, b->keys, n * 8) ||
      memcmp(a->stamps, b->stamps, n * 8) || memcmp(a->empty, b->empty, words * 8) ||
      memcmp(a->fetching, b->fetching, words * 8) || memcmp(a->modified, b->modified, words * 8))
    fail_msg("step %d: the tag arrays differ", step);
  assert_int_equal(a->clock, b->clock);
  assert_int_equal(a->ndirty, b->ndirty);
  assert_int_equal(a->assoc, b->assoc);
}

static void same(const pair *p, int step) {
  if (memcmp(&p->memo_stats, &p->plain_stats, sizeof p->memo_stats))
    fail_msg("step %d: the statistics differ (accesses %llu / %llu, hits %llu / %llu)", step,
             (unsigned long long)p->memo_stats.accesses,
             (unsigned long long)p->plain_stats.accesses,
             (unsigned long long)p->memo_stats.hits, (unsigned long long)p->plain_stats.hits);
  assert_int_equal(p->memo.epoch, p->plain.epoch);
  assert_int_equal(p->memo.data_busy, p->plain.data_busy);
  assert_int_equal(p->memo.fill_busy, p->plain.fill_busy);
  assert_int_equal(p->memo.out.count, p->plain.out.count);
  assert_int_equal(p->memo.mshr.active, p->plain.mshr.active);
  same_tags(&p->memo.tags, &p->plain.tags, step);
}

static uint64_t last_key;
static uint8_t last_sector = 1;
static int repeat_next; /* the next access repeats the last one's block */

/* A random access to one of KEYS lines: mostly reads of a few hot lines, half of them the block
 * of the access before (as an instruction cache's fetches), so that reads repeat. */
static mem_req random_access(uint64_t *x, const cache_core *c, uint64_t *key, uint8_t *need) {
  uint64_t r = rnd(x);
  int again = repeat_next || (r >> 60) & 1;
  repeat_next = 0;
  *key = again ? last_key : r % 4 < 3 ? r / 4 % 6 : r / 4 % KEYS;
  uint8_t sector = again ? last_sector : (uint8_t)(1u << (r >> 12) % 4);
  last_key = *key;
  last_sector = sector;
  *need = c->cfg.sectored ? sector : c->full_mask;
  int kind = (int)((r >> 20) % 20);
  mem_req q = {.a = {.addr = *key * 128, .token = (uint32_t)(r >> 32), .sector_mask = sector,
                     .size = (uint16_t)(c->cfg.sectored ? 32 : 128), .space = 1},
               .t_created = 0};
  if (c->cfg.write_policy != 'R' && kind >= 16) {
    q.a.is_write = 1;
    q.a.full_mask = (r >> 40) & 1 ? sector : 0;
    if (kind == 19) q.a.is_atomic = 1;
  }
  return q;
}

/* The head of both miss queues, taken: a fetch (a read, its token the MSHR entry) is kept to be
 * filled later. */
static void take_out(pair *p, int *fills, uint64_t *fill_key, uint8_t *fill_sectors, int *fill_mi) {
  const mem_req *h = req_ring_head(&p->memo.out), *g = req_ring_head(&p->plain.out);
  assert_memory_equal(&h->a, &g->a, sizeof h->a);
  if (!h->a.is_write && *fills < 64) {
    fill_key[*fills] = h->a.addr / 128;
    fill_sectors[*fills] = h->a.sector_mask;
    /* (a read sent down whole keeps its requester's token: fill then finds the entry by block) */
    fill_mi[*fills] = (int)h->a.token;
    (*fills)++;
  }
  cache_core_pop_out(&p->memo);
  cache_core_pop_out(&p->plain);
}

/* Fills pending fetch i on both, as l1d_fill does (the entry the fetch's token names, else the
 * block's), and forgets it. */
static void fill(pair *p, int i, int *fills, uint64_t *fill_key, uint8_t *fill_sectors,
                 int *fill_mi, uint64_t now) {
  const cache_core *c = &p->memo;
  uint8_t sectors = fill_sectors[i] & c->full_mask;
  uint64_t block = cache_core_block(c, fill_key[i], sectors ? sectors : c->full_mask);
  int mi = mshr_matches(&c->mshr, (uint32_t)fill_mi[i], block) ? fill_mi[i]
                                                               : mshr_find(&c->mshr, block);
  if (mi >= 0) {
    cache_effects fa = {0}, fb = {0};
    cache_core_fill(&p->memo, mi, fill_key[i], fill_key[i] * 128, sectors, now, &fa);
    cache_core_fill(&p->plain, mi, fill_key[i], fill_key[i] * 128, sectors, now, &fb);
    assert_memory_equal(&fa, &fb, sizeof fa);
  }
  fill_mi[i] = fill_mi[*fills - 1], fill_key[i] = fill_key[*fills - 1];
  fill_sectors[i] = fill_sectors[--*fills];
}

/* A request released from a filled MSHR, on both: whether there was one. */
static int release(pair *p) {
  mem_req ra, rb;
  int ga = cache_core_next(&p->memo, &ra), gb = cache_core_next(&p->plain, &rb);
  assert_int_equal(ga, gb);
  if (ga) assert_memory_equal(&ra.a, &rb.a, sizeof ra.a);
  return ga;
}

static void run(const cache_config *cfg, uint64_t seed) {
  pair *p = calloc(1, sizeof *p);
  assert_non_null(p);
  rf_diag d;
  if (cache_core_init(&p->memo, cfg, 2 * WAYS, 25, &p->memo_stats, "memo", &d) ||
      cache_core_init(&p->plain, cfg, 2 * WAYS, 25, &p->plain_stats, "plain", &d))
    fail_msg("%s", d.msg);
  uint64_t x = seed;
  int fills = 0, fill_mi[64];
  uint64_t fill_key[64];
  uint8_t fill_sectors[64];
  long memo_served = 0, set_assocs = 0;
  for (int step = 0; step < STEPS; step++) {
    uint64_t r = rnd(&x), now = (uint64_t)step;
    int what = (int)(r % 100);
    if (what < 70) {
      uint64_t key;
      uint8_t need;
      mem_req q = random_access(&x, &p->memo, &key, &need);
      p->plain.hit.line = NULL; /* the full path, always */
      int by_memo = cache_core_memo_line(&p->memo, &q, key, need) != NULL;
      cache_effects fa = {0}, fb = {0};
      cache_outcome a = cache_core_access(&p->memo, &q, key, key * 128, need, now, &fa);
      cache_outcome b = cache_core_access(&p->plain, &q, key, key * 128, need, now, &fb);
      if (a != b) fail_msg("step %d: key %llu: outcome %d with the memo, %d without", step,
                           (unsigned long long)key, (int)a, (int)b);
      assert_memory_equal(&fa, &fb, sizeof fa);
      memo_served += by_memo;
    } else if (what < 80 && p->memo.out.count) {
      take_out(p, &fills, fill_key, fill_sectors, fill_mi);
    } else if (what < 88 && fills) {
      fill(p, (int)((r >> 8) % (uint64_t)fills), &fills, fill_key, fill_sectors, fill_mi, now);
    } else if (what < 94) {
      release(p);
    } else if (what < 98) {
      cache_core_cycle(&p->memo);
      cache_core_cycle(&p->plain);
    } else if (what < 99 || (r >> 8) % 4) { /* a line dropped (the L1D's invalidation) */
      uint64_t key = (r >> 8) % KEYS;
      tag_line *la = cache_tags_probe(&p->memo.tags, key);
      tag_line *lb = cache_tags_probe(&p->plain.tags, key);
      assert_int_equal(la ? la - p->memo.tags.lines : -1, lb ? lb - p->plain.tags.lines : -1);
      if (la && !la->pending) {
        cache_tags_clear(&p->memo.tags, la);
        cache_tags_clear(&p->plain.tags, lb);
        cache_core_changed(&p->memo);
        cache_core_changed(&p->plain);
        repeat_next = 1;
      }
    } else { /* new ways (the adaptive L1D), once nothing is in flight */
      while (p->memo.out.count) take_out(p, &fills, fill_key, fill_sectors, fill_mi);
      fills = 0;
      const mshr_table *t = &p->memo.mshr;
      for (int i = 0; i < t->n; i++) { /* every block still awaited arrives */
        if (!t->e[i].used || t->e[i].ready) continue;
        uint64_t key = p->memo.cfg.sectored ? t->e[i].key / 4 : t->e[i].key;
        uint8_t sectors = t->e[i].pending;
        cache_effects fa = {0}, fb = {0};
        cache_core_fill(&p->memo, i, key, key * 128, sectors, now, &fa);
        cache_core_fill(&p->plain, i, key, key * 128, sectors, now, &fb);
        assert_memory_equal(&fa, &fb, sizeof fa);
      }
      while (release(p)) continue;
      /* (the write-backs those fills made) */
      while (p->memo.out.count) take_out(p, &fills, fill_key, fill_sectors, fill_mi);
      fills = 0;
      assert_int_equal(p->memo.mshr.active, 0);
      set_assocs++;
      int ways = 1 + (int)((r >> 8) % (2 * WAYS));
      cache_tags_set_assoc(&p->memo.tags, ways);
      cache_tags_set_assoc(&p->plain.tags, ways);
      cache_core_changed(&p->memo);
      cache_core_changed(&p->plain);
      fills = 0;
      repeat_next = 1; /* a block the memo may hold, now gone */
    }
    same(p, step);
  }
  /* the stream did exercise the memo, and the full path's hits */
  assert_true(memo_served > STEPS / 40);
  assert_true(set_assocs > 20);
  assert_true(p->plain_stats.hits > (uint64_t)memo_served);
  cache_core_free(&p->memo);
  cache_core_free(&p->plain);
  free(p);
}

static cache_config config(int sectored, char write_policy, char alloc, char write_alloc,
                           char replacement) {
  return (cache_config){.enabled = 1, .sectored = sectored, .nsets = SETS, .line_size = 128,
                        .assoc = WAYS, .replacement = replacement, .write_policy = write_policy,
                        .alloc_policy = alloc, .write_alloc = write_alloc, .set_index_fn = 'L',
                        .mshr_type = 'A', .mshr_entries = 8, .mshr_max_merge = 4,
                        .miss_queue_size = 6, .data_port_width = 32};
}

static void test_instruction_cache(void **state) {
  (void)state;
  cache_config c = config(0, 'R', 'f', 'N', 'L');
  run(&c, 1);
  c.replacement = 'F';
  run(&c, 2);
}

static void test_l1d_like(void **state) {
  (void)state;
  cache_config c = config(1, 'L', 'm', 'L', 'L');
  run(&c, 3);
  c = config(1, 'T', 'f', 'N', 'L');
  run(&c, 4);
  c = config(0, 'E', 'm', 'N', 'F');
  run(&c, 5);
}

static void test_l2_like(void **state) {
  (void)state;
  cache_config c = config(1, 'B', 'm', 'W', 'L');
  run(&c, 6);
  c = config(1, 'B', 's', 'F', 'L');
  run(&c, 7);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_instruction_cache),
      cmocka_unit_test(test_l1d_like),
      cmocka_unit_test(test_l2_like),
  };
  return cmocka_run_group_tests_name("cache hit memo", tests, NULL, NULL);
}
