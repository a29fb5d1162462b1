/* Where each key of a highly associative tag array lives: key -> the line it was last installed
 * in, so that a lookup is not a walk over every way of its set (a Volta L1D without shared
 * memory has 256 ways, and a miss read all 256 keys: the tag lookups were 7.5% of the
 * instructions of transpose on titanv, 9% of the time of atax there).
 * Open addressing with linear probing at most half full, backward-shift deletion. */
#ifndef RFSIM_TAG_INDEX_H
#define RFSIM_TAG_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"
#include "../common/prefetch.h"

/* A key, its line and a copy of the line's sector state side by side: a lookup that finds its
 * key reads one cache line of the host, not one of keys and one of lines (two misses one
 * after the other: the indexes of 80 L1Ds do not stay in the host's caches between an SM's
 * cycles), and a read hit reads no line at all. The owner keeps the copy (tag_index_sectors). */
typedef struct tag_slot {
  uint64_t key;
  int32_t line;   /* or -1 for an empty slot */
  uint8_t valid, pending, unreadable; /* the line's, while it holds `key` */
} tag_slot;

typedef struct tag_index {
  tag_slot *slots;
  uint32_t mask;  /* slots - 1 */
} tag_index;

/* Room for `lines` keys; 0, or -1 with d filled. */
int tag_index_init(tag_index *x, size_t lines, rf_diag *d);
void tag_index_free(tag_index *x);
void tag_index_clear(tag_index *x);

static inline uint32_t tag_index_slot(const tag_index *x, uint64_t key) {
  return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & x->mask;
}

/* The slot holding `key`, or the empty slot that ends its probe run. */
static inline uint32_t tag_index_find(const tag_index *x, uint64_t key) {
  uint32_t s = tag_index_slot(x, key);
  while (x->slots[s].line >= 0 && x->slots[s].key != key) s = (s + 1) & x->mask;
  return s;
}

/* The slot of `key`: its line is the one `key` was last installed in, or -1. */
static inline const tag_slot *tag_index_slot_of(const tag_index *x, uint64_t key) {
  return &x->slots[tag_index_find(x, key)];
}

/* Starts loading the slot a lookup of `key` reads first (see common/prefetch.h; 16-byte slots
 * on a line-aligned array: one host line). */
static inline void tag_index_prefetch(const tag_index *x, uint64_t key) {
  rf_prefetch(&x->slots[tag_index_slot(x, key)]);
}

/* `line`, holding `key`, has these sectors now (nothing changes if `key` was last installed
 * elsewhere). */
static inline void tag_index_sectors(tag_index *x, uint64_t key, int32_t line, uint8_t valid,
                                     uint8_t pending, uint8_t unreadable) {
  tag_slot *s = &x->slots[tag_index_find(x, key)];
  if (s->line != line) return;
  s->valid = valid;
  s->pending = pending;
  s->unreadable = unreadable;
}

/* `key` now lives in `line` (replacing where it lived before), which holds nothing yet. */
void tag_index_put(tag_index *x, uint64_t key, int32_t line);
/* `key` no longer lives in `line` (nothing changes if it was last installed elsewhere). */
void tag_index_remove(tag_index *x, uint64_t key, int32_t line);

#endif
