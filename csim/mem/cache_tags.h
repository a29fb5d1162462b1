/* A set-associative tag array with per-sector valid, dirty and pending bits, shared by the L1D
 * and the L2 slices. It knows nothing about timing: it answers "which line holds this key",
 * "which line would be replaced", and keeps replacement order. */
#ifndef RFSIM_CACHE_TAGS_H
#define RFSIM_CACHE_TAGS_H

#include <stdint.h>

#include "../common/diag.h"
#include "../config/config.h"

typedef struct tag_line {
  uint64_t key;     /* line number in the cache's own address space (tag + index) */
  uint64_t addr;    /* global line address, for write-backs */
  uint64_t stamp;   /* LRU: last touch; FIFO: fill order */
  uint8_t valid;    /* sectors holding data */
  uint8_t dirty;    /* sectors written and not yet written back */
  uint8_t pending;  /* sectors being fetched into this (reserved) line */
  uint8_t space;    /* mem_space of the data, for the write-back request */
} tag_line;

/* A line slot holds nothing while no sector is valid or pending. */
static inline int tag_line_free(const tag_line *l) { return !(l->valid | l->pending); }

typedef struct cache_tags {
  int nsets, assoc, line_size;
  int set_bits;       /* log2(nsets) when nsets is a power of two, else -1 */
  char replacement;   /* 'L' LRU, 'F' FIFO */
  char index_fn;      /* 'L', 'H', 'P', 'X' */
  uint64_t clock;     /* source of stamps */
  tag_line *lines;    /* nsets * assoc, set-major */
} cache_tags;

/* Validates geometry and allocates; returns 0 or -1 with d filled. `what` names the cache in
 * messages ("L1D", "L2"). */
int cache_tags_init(cache_tags *t, const cache_config *cfg, const char *what, rf_diag *d);
void cache_tags_free(cache_tags *t);

uint32_t cache_tags_set(const cache_tags *t, uint64_t key);
/* The line holding `key` (valid or pending sectors), or NULL. */
tag_line *cache_tags_probe(cache_tags *t, uint64_t key);
/* The slot a new line for `key` would take: a free slot, else the LRU/FIFO victim among
 * lines with no pending sectors; NULL when every way is reserved. */
tag_line *cache_tags_victim(cache_tags *t, uint64_t key);
/* Marks a use (moves the line to MRU under LRU; no effect under FIFO). */
static inline void cache_tags_touch(cache_tags *t, tag_line *l) {
  if (t->replacement != 'F') l->stamp = ++t->clock;
}
/* Re-labels a slot (already emptied by the caller) for a new line. */
void cache_tags_install(cache_tags *t, tag_line *l, uint64_t key, uint64_t addr, uint8_t space);

#endif
