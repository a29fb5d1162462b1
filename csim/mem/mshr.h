/* Miss status holding registers, as GPGPU-Sim's mshr_table: one entry per block with a fetch
 * outstanding (a 32-byte sector in a sectored cache, a line otherwise), each collecting at
 * most max_merge requests (the first included) in arrival order. When a block's data is in,
 * the entry joins the ready list; its requests then leave one per call of mshr_next, and the
 * entry is freed with the last. A hash index finds an entry by block in O(1). */
#ifndef RFSIM_MSHR_H
#define RFSIM_MSHR_H

#include <stdint.h>

#include "mem_internal.h"

typedef struct mshr_entry {
  uint64_t key;      /* block number (sector or line) */
  int32_t head, tail; /* waiter list (pool indices), -1 = empty */
  uint16_t nwaiters;
  uint8_t used;
  uint8_t pending;   /* sectors requested from below and not yet arrived */
  uint8_t ready;     /* data in, on the ready list */
  uint8_t atomic;    /* an atomic waits: the filled line is left modified */
} mshr_entry;

typedef struct mshr_node {
  mem_req r;
  int32_t next;
} mshr_node;

typedef struct mshr_table {
  int ready_head, ready_count; /* first: a cache asks every cycle whether one is ready */
  int *ready;            /* FIFO of entry indices whose data is in */
  int n, max_merge, active;
  mshr_entry *e;
  int *free_list, nfree;
  mshr_node *pool;       /* n * max_merge nodes, handed out on first use */
  int32_t pool_used, pool_free;
  int32_t *slots;        /* open-addressing index: entry + 1, 0 = empty */
  uint32_t slot_mask;
} mshr_table;

int mshr_init(mshr_table *t, int entries, int max_merge, const char *what, rf_diag *d);
void mshr_free(mshr_table *t);

int mshr_find(const mshr_table *t, uint64_t key); /* entry index or -1 */
/* GPGPU-Sim's !mshr_table::full: the block's entry has room for one more request, or the
 * block has none and an entry is free. */
static inline int mshr_can_take(const mshr_table *t, int i) {
  return i >= 0 ? t->e[i].nwaiters < t->max_merge : t->nfree > 0;
}
/* A valid index whose entry tracks `key` (for trusting the index carried by a reply). */
static inline int mshr_matches(const mshr_table *t, uint32_t i, uint64_t key) {
  return i < (uint32_t)t->n && t->e[i].used && t->e[i].key == key;
}
/* A new entry for `key` waiting for `pending` sectors; -1 when none is free. */
int mshr_alloc(mshr_table *t, uint64_t key, uint8_t pending);
/* Appends a request (the caller checked mshr_can_take). */
void mshr_add(mshr_table *t, int i, const mem_req *r);
/* Sectors of entry i arrived. Returns 1 when that was the last one it waited for: the caller
 * fills its cache and the entry becomes ready. */
int mshr_fill(mshr_table *t, int i, uint8_t sectors);
static inline int mshr_has_ready(const mshr_table *t) { return t->ready_count > 0; }
/* Releases the next request of the oldest ready entry (GPGPU-Sim's next_access); 0 if none. */
int mshr_next(mshr_table *t, mem_req *out);

#endif
