/* The replacement choice of the tag arrays (csim/mem/cache_tags.c) against GPGPU-Sim's rule
 * written out the plain way: the set's first empty way, else the line used least recently
 * (FIFO: allocated first) that has no sector being fetched, a dirty one only while at least
 * dirty_percent of the lines are dirty. The test keeps its own stamps (a counter per touch and
 * install) and reads every way; the tag array keeps an order per set and a mask of empty ways.
 * Random installs, fills, touches, writes, dropped sectors and invalidations on LRU and FIFO
 * arrays of 4 to 256 ways, with and without the dirty rule, and changes of ways: every victim
 * and every lookup's MISS / FULL must agree. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/mem/cache_tags.h"

enum { SETS = 4, MAX_WAYS = 256 };

typedef struct model {
  cache_tags t;
  uint64_t stamp[SETS * MAX_WAYS]; /* last touch (LRU) or allocation (FIFO) */
  uint64_t clock;
} model;

static uint64_t rnd(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

static ptrdiff_t at(const cache_tags *t, const tag_line *l) { return l ? l - t->lines : -1; }

/* GPGPU-Sim's victim, read off every way of the set of `key`. */
static ptrdiff_t reference_victim(const model *m, uint64_t key) {
  const cache_tags *t = &m->t;
  size_t base = (size_t)cache_tags_set(t, key) * (size_t)t->max_assoc;
  int dirty_ok = (long)t->ndirty * 100 >= (long)t->dirty_percent * t->nsets * t->assoc;
  ptrdiff_t best = -1;
  for (int w = 0; w < t->assoc; w++) {
    size_t i = base + (size_t)w;
    const tag_line *l = &t->lines[i];
    if (tag_line_free(l)) return (ptrdiff_t)i;
    if (l->pending || (l->dirty && !dirty_ok)) continue;
    if (best < 0 || m->stamp[i] < m->stamp[best]) best = (ptrdiff_t)i;
  }
  return best;
}

static void touch(model *m, tag_line *l) {
  cache_tags_touch(&m->t, l);
  if (m->t.replacement == 'L') m->stamp[l - m->t.lines] = ++m->clock;
}

static void model_init(model *m, char replacement, int ways, int dirty_percent) {
  memset(m, 0, sizeof *m);
  cache_config cfg = {.enabled = 1, .sectored = 1, .nsets = SETS, .line_size = 128,
                      .assoc = ways, .replacement = replacement, .set_index_fn = 'L'};
  rf_diag d;
  assert_int_equal(cache_tags_init(&m->t, &cfg, MAX_WAYS, dirty_percent, "L1D", &d), 0);
}

/* One random step; the victim and the lookup must match the reference before it. */
static void step(model *m, uint64_t *r, uint64_t keys) {
  cache_tags *t = &m->t;
  uint64_t key = rnd(r) % keys;
  uint8_t need = (uint8_t)(1u << (rnd(r) % 4));
  ptrdiff_t want = reference_victim(m, key);
  assert_int_equal(at(t, cache_tags_victim(t, key)), want);
  tag_line *l;
  tag_status st = cache_tags_lookup(t, key, need, 0, &l);
  if (!l) assert_int_equal(st, want >= 0 ? TAG_MISS : TAG_FULL);
  switch (rnd(r) % 8) {
  case 0:
  case 1: /* a miss allocates: the victim is emptied and labelled, its sector pending */
    if (st == TAG_MISS) {
      l = cache_tags_victim(t, key);
      cache_tags_clear(t, l);
      cache_tags_install(t, l, key, key << 7, 1);
      m->stamp[l - t->lines] = ++m->clock;
      if (rnd(r) % 8) { /* (else left empty, as a request served from a ready MSHR) */
        l->pending = need;
        cache_tags_sectors_changed(t, l, key);
      }
    }
    break;
  case 2: /* a fill: pending becomes valid */
    if (l && l->pending) {
      l->valid |= l->pending;
      l->pending = 0;
      cache_tags_sectors_changed(t, l, key);
    }
    break;
  case 3: /* an invalidation empties the line, keeping its old key */
    if (l && !l->pending) cache_tags_clear(t, l);
    break;
  case 4: /* a write makes it dirty, or a write-back cleans it */
    if (l && l->valid) cache_tags_set_dirty(t, l, rnd(r) % 3 ? l->valid : 0);
    break;
  case 5: /* a write-evict hit drops the sector (the line may end up empty) */
    if (l && (l->valid & need)) {
      l->valid &= (uint8_t)~need;
      cache_tags_set_dirty(t, l, l->dirty & (uint8_t)~need);
      cache_tags_sectors_changed(t, l, key);
    }
    break;
  default: /* a hit moves it to MRU (LRU only) */
    if (l) touch(m, l);
  }
}

static void run(char replacement, int ways, int dirty_percent, uint64_t seed) {
  model *m = malloc(sizeof *m);
  assert_non_null(m);
  model_init(m, replacement, ways, dirty_percent);
  /* keys over a few times the lines, so that sets fill, stay full and have lines pending */
  uint64_t keys = (uint64_t)SETS * (uint64_t)ways * 3;
  uint64_t r = seed;
  for (int i = 0; i < 60000; i++) step(m, &r, keys);
  /* the adaptive L1D changes its ways: every line goes */
  int other = ways > 8 ? ways / 4 : ways * 8;
  cache_tags_set_assoc(&m->t, other);
  memset(m->stamp, 0, sizeof m->stamp);
  keys = (uint64_t)SETS * (uint64_t)other * 3;
  for (int i = 0; i < 60000; i++) step(m, &r, keys);
  cache_tags_free(&m->t);
  free(m);
}

static void test_lru_wide(void **state) {
  (void)state;
  run('L', 256, 50, 0x243f6a8885a308d3ull);
}

static void test_lru_narrow(void **state) {
  (void)state;
  run('L', 4, 0, 0x13198a2e03707344ull);
  run('L', 16, 100, 0xa4093822299f31d0ull);
}

static void test_fifo(void **state) {
  (void)state;
  run('F', 96, 25, 0x082efa98ec4e6c89ull);
  run('F', 8, 0, 0x452821e638d01377ull);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lru_wide),
      cmocka_unit_test(test_lru_narrow),
      cmocka_unit_test(test_fifo),
  };
  return cmocka_run_group_tests_name("cache tags", tests, NULL, NULL);
}
