/* The key index of highly associative tag arrays (csim/mem/tag_index.h): the index alone
 * against a plain table under random puts and removals with many collisions, then two tag
 * arrays of 256 ways driven alike, one looking keys up through its index and one reading every
 * way (its index dropped): every lookup, probe and victim must name the same line, through
 * installs, evictions, fills, clears and a change of ways. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/mem/cache_tags.h"

static uint64_t rnd(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* Keys spread so that many share a home slot: multiples of a large power of two. */
static uint64_t key_of(int64_t k) { return (uint64_t)k << 40; }

/* The line the index says key k was last installed in, or -1. */
static int32_t line_of(const tag_index *x, int k) { return tag_index_slot_of(x, key_of(k))->line; }

static void test_index_against_table(void **state) {
  (void)state;
  enum { LINES = 64, KEYS = 200 };
  tag_index x;
  rf_diag d;
  assert_int_equal(tag_index_init(&x, LINES, &d), 0);
  int32_t where[KEYS]; /* the plain table: key -> line, -1 */
  int64_t holds[LINES]; /* line -> key, -1: which keys are in (each line holds one) */
  for (int k = 0; k < KEYS; k++) where[k] = -1;
  for (int l = 0; l < LINES; l++) holds[l] = -1;
  uint64_t r = 0x243f6a8885a308d3ull;
  for (int step = 0; step < 200000; step++) {
    int k = (int)(rnd(&r) % KEYS);
    uint64_t key = key_of(k);
    int l = (int)(rnd(&r) % LINES);
    if (rnd(&r) % 3) { /* install key k in line l, as cache_tags_install does */
      if (holds[l] >= 0) {
        tag_index_remove(&x, key_of(holds[l]), l);
        if (where[holds[l]] == l) where[holds[l]] = -1;
      }
      tag_index_put(&x, key, l);
      if (where[k] >= 0 && where[k] != l) holds[where[k]] = -1;
      where[k] = l;
      holds[l] = k;
    } else { /* a removal naming a line the key may not live in changes nothing */
      tag_index_remove(&x, key, l);
      if (where[k] == l) {
        where[k] = -1;
        holds[l] = -1;
      }
    }
    for (int q = 0; q < KEYS; q += 7) assert_int_equal(line_of(&x, q), where[q]);
  }
  for (int q = 0; q < KEYS; q++) assert_int_equal(line_of(&x, q), where[q]);
  tag_index_free(&x);
}

static void init_pair(cache_tags *indexed, cache_tags *linear, int ways) {
  cache_config cfg = {.enabled = 1, .sectored = 1, .nsets = 4, .line_size = 128, .assoc = ways,
                      .replacement = 'L', .set_index_fn = 'L'};
  rf_diag d;
  assert_int_equal(cache_tags_init(indexed, &cfg, 256, 50, "indexed", &d), 0);
  assert_int_equal(cache_tags_init(linear, &cfg, 256, 50, "linear", &d), 0);
  assert_non_null(indexed->index.slots);
  tag_index_free(&linear->index); /* (index.slots NULL: every lookup reads the ways) */
}

static ptrdiff_t at(const cache_tags *t, const tag_line *l) { return l ? l - t->lines : -1; }

/* One random step on both arrays; they must agree on what they find. */
static void step_both(cache_tags *a, cache_tags *b, uint64_t *r) {
  uint64_t key = rnd(r) % 3000; /* a few thousand lines over 4 sets of 32..256 ways */
  uint8_t need = (uint8_t)(1u << (rnd(r) % 4));
  tag_line *la, *lb;
  int is_write = rnd(r) % 4 == 0; /* (a write may hit a sector written only in part) */
  tag_status sa = cache_tags_lookup(a, key, need, is_write, &la);
  tag_status sb = cache_tags_lookup(b, key, need, is_write, &lb);
  assert_int_equal(sa, sb);
  assert_int_equal(at(a, la), at(b, lb));
  assert_int_equal(at(a, cache_tags_probe(a, key)), at(b, cache_tags_probe(b, key)));
  switch (rnd(r) % 7) {
  case 0:
  case 1: /* a miss allocates: the victim is emptied and labelled, its sector pending */
    if (sa == TAG_MISS) {
      la = cache_tags_victim(a, key);
      lb = cache_tags_victim(b, key);
      assert_int_equal(at(a, la), at(b, lb));
      cache_tags_clear(a, la);
      cache_tags_clear(b, lb);
      cache_tags_install(a, la, key, key << 7, 1);
      cache_tags_install(b, lb, key, key << 7, 1);
      la->pending = lb->pending = need;
      cache_tags_sectors_changed(a, la, key);
      cache_tags_sectors_changed(b, lb, key);
    }
    break;
  case 2: /* a fill: pending becomes valid */
    if (la) {
      la->valid |= la->pending;
      lb->valid |= lb->pending;
      la->pending = lb->pending = 0;
      cache_tags_sectors_changed(a, la, key);
      cache_tags_sectors_changed(b, lb, key);
      cache_tags_touch(a, la);
      cache_tags_touch(b, lb);
    }
    break;
  case 3: /* an invalidation empties the line, keeping its old key */
    if (la && !la->pending) {
      cache_tags_clear(a, la);
      cache_tags_clear(b, lb);
    }
    break;
  case 4: /* a write makes it dirty */
    if (la && la->valid) {
      cache_tags_set_dirty(a, la, la->valid);
      cache_tags_set_dirty(b, lb, lb->valid);
    }
    break;
  case 5: /* a write of part of a valid sector leaves it unreadable */
    if (la && (la->valid & need)) {
      la->unreadable |= need;
      lb->unreadable |= need;
      cache_tags_sectors_changed(a, la, key);
      cache_tags_sectors_changed(b, lb, key);
    }
    break;
  default: /* a hit moves it to MRU */
    if (la) {
      cache_tags_touch(a, la);
      cache_tags_touch(b, lb);
    }
  }
}

static void test_indexed_lookups_match_reading_every_way(void **state) {
  (void)state;
  cache_tags a, b;
  init_pair(&a, &b, 256);
  uint64_t r = 0x13198a2e03707344ull;
  for (int i = 0; i < 100000; i++) step_both(&a, &b, &r);
  /* the adaptive L1D changes its ways: everything goes, the index too */
  cache_tags_set_assoc(&a, 32);
  cache_tags_set_assoc(&b, 32);
  for (int i = 0; i < 100000; i++) step_both(&a, &b, &r);
  cache_tags_free(&a);
  cache_tags_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_index_against_table),
      cmocka_unit_test(test_indexed_lookups_match_reading_every_way),
  };
  return cmocka_run_group_tests_name("tag index", tests, NULL, NULL);
}
