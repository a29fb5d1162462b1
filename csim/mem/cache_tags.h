/* A set-associative tag array with GPGPU-Sim's per-sector line states, shared by the L1D, the
 * L1I and the L2 slices. It knows nothing about timing: it answers "what does this access
 * find" (GPGPU-Sim's tag_array::probe), "which line would be replaced", and keeps replacement
 * order.
 *
 * A line holds four 32-byte sectors, each invalid, reserved (being fetched: `pending`), valid,
 * or modified (`dirty`; a modified sector written only in part is not readable). A
 * non-sectored cache keeps all four sectors of a line in the same state. */
#ifndef RFSIM_CACHE_TAGS_H
#define RFSIM_CACHE_TAGS_H

#include <stdint.h>

#include "../common/diag.h"
#include "../config/config.h"
#include "mem_hash.h"
#include "tag_index.h"

typedef struct tag_line {
  uint64_t addr;       /* global line address, for write-backs */
  uint8_t valid;       /* sectors holding data (valid or modified) */
  uint8_t dirty;       /* sectors modified and not yet written back */
  uint8_t pending;     /* sectors being fetched into this (reserved) line */
  uint8_t unreadable;  /* modified sectors written only in part */
  uint8_t space;       /* mem_space of the data, for the write-back request */
} tag_line;

/* A line slot holds nothing while no sector is valid or pending. */
static inline int tag_line_free(const tag_line *l) { return !(l->valid | l->pending); }
/* A read of sectors `need` of a line holding its key hits (cache_tags_lookup's TAG_HIT): all
 * valid, none being fetched, none written only in part. */
static inline int tag_line_read_hits(const tag_line *l, uint8_t need) {
  return !(l->pending & need) && (l->valid & need) == need && !(l->unreadable & need);
}

/* What a probe finds (GPGPU-Sim's cache_request_status before the access acts). */
typedef enum tag_status {
  TAG_HIT = 0,      /* the sector is valid (and readable, for reads) */
  TAG_HIT_RESERVED, /* the sector is being fetched */
  TAG_SECTOR_MISS,  /* the line is present, the sector is not (or not readable) */
  TAG_MISS,         /* the line is absent, and a slot may take it */
  TAG_FULL          /* absent, and no slot may be replaced (every way reserved) */
} tag_status;

/* Maps a line number to the one the set index is taken from (an L2 slice indexes with its
 * slice-local address, GPGPU-Sim's partition address, while its tags keep the whole line). */
typedef uint64_t (*tag_index_fn)(const void *ctx, uint64_t key);

typedef struct cache_tags {
  int nsets, assoc, max_assoc, line_size;
  tag_index_fn index_of;   /* NULL: the line number itself */
  const void *index_ctx;
  int set_bits;       /* log2(nsets) */
  int sectored;
  char replacement;   /* 'L' LRU, 'F' FIFO */
  char index_fn;      /* 'L', 'H', 'P', 'X' */
  const mem_ipoly_table *ipoly; /* 'P' (mem_ipoly_table_of), else NULL */
  int dirty_percent;  /* a dirty line is a victim only when this share of lines is dirty */
  int ndirty;         /* lines with a dirty sector */
  uint64_t clock;     /* source of stamps */
  uint64_t gen;       /* counts changes of which line holds which key: installs, new ways */
  tag_line *lines;    /* nsets * max_assoc, set-major; ways [0, assoc) in use */
  uint64_t *stamps;   /* per line, LRU: last touch; FIFO: allocation order (apart from the
                         lines, so that a victim search reads 8 bytes a way) */
  /* Per set, way_words words each: bit w of way w (< assoc) in `empty` while the line holds
   * nothing, in `fetching` while a sector is being fetched into it, in `modified` while it is
   * dirty. Which lines may be replaced is read off these, not off every way of the set. */
  uint64_t *empty, *fetching, *modified;
  int way_words;
  uint64_t *keys;     /* each line's key (its line number in the cache's own address space:
                         tag + index), apart from the lines so that a probe reads 8 bytes a way
                         (the adaptive Volta L1D searches up to 256 ways) and a line is 16 */
  tag_index index;    /* with TAG_INDEX_WAYS ways or more (index.slots non-NULL): where each
                         key was last installed, so that a lookup does not read every way */
} cache_tags;
#define TAG_INDEX_WAYS 32

/* Validates geometry and allocates room for max_assoc ways (>= cfg->assoc; the adaptive L1D
 * changes its ways later); returns 0 or -1 with d filled. `what` names the cache. */
int cache_tags_init(cache_tags *t, const cache_config *cfg, int max_assoc, int dirty_percent,
                    const char *what, rf_diag *d);
void cache_tags_free(cache_tags *t);
/* Uses `assoc` ways (1..max_assoc) from now on; every line is emptied. */
void cache_tags_set_assoc(cache_tags *t, int assoc);

uint32_t cache_tags_set(const cache_tags *t, uint64_t key);
/* The line holding `key` (valid or pending sectors), or NULL. */
tag_line *cache_tags_probe(cache_tags *t, uint64_t key);
/* GPGPU-Sim's probe of one access: `need` is the sector it reads or writes (the whole line
 * for a non-sectored cache). *line is the line found (HIT, HIT_RESERVED, SECTOR_MISS); NULL
 * for MISS (some slot may be replaced: cache_tags_victim names it) and FULL (none may). */
tag_status cache_tags_lookup(cache_tags *t, uint64_t key, uint8_t need, int is_write,
                             tag_line **line);
/* Marks a use (moves the line to MRU under LRU; no effect under FIFO). */
void cache_tags_touch(cache_tags *t, tag_line *l);
/* The caller changed the valid, pending or unreadable sectors of l, which holds `key` (whether
 * it is empty, being fetched into; the index's copy of them). The caller has the key at hand:
 * read from the keys, at a fill hundreds of cycles after the miss, it was a host cache miss. */
void cache_tags_sectors_changed(cache_tags *t, tag_line *l, uint64_t key);
/* Empties a slot and labels it for a new line (a victim's write-back is the caller's, first). */
void cache_tags_install(cache_tags *t, tag_line *l, uint64_t key, uint64_t addr, uint8_t space);
/* Sets or clears dirty sectors, keeping the count of dirty lines. */
void cache_tags_set_dirty(cache_tags *t, tag_line *l, uint8_t dirty);
/* Empties a slot (its dirty sectors must have been written back by the caller). */
void cache_tags_clear(cache_tags *t, tag_line *l);
/* A free slot for `key`, else the replacement victim, else NULL (what an allocation on fill
 * would take; the probe's victim rule). */
tag_line *cache_tags_victim(cache_tags *t, uint64_t key);

#endif
