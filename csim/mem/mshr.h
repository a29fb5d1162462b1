/* Miss status holding registers: one entry per line with outstanding fetches, each collecting
 * up to max_merge requests that wait for it. A hash index finds an entry by line in O(1); a
 * ready FIFO lists entries whose data has arrived and whose waiters can be released, so nothing
 * scans the table per cycle. A waiter is released once none of the sectors it waits on is
 * pending any more. */
#ifndef RFSIM_MSHR_H
#define RFSIM_MSHR_H

#include <stdint.h>

#include "mem_internal.h"

typedef struct mshr_entry {
  uint64_t key;       /* line number, as in the tag array */
  uint64_t ready_at;  /* time of the fill that made waiters releasable */
  uint8_t used;
  uint8_t pending;    /* sectors requested from below and not yet filled */
  uint8_t in_ready;   /* listed in the ready FIFO */
  uint16_t nwaiters;
} mshr_entry;

typedef struct mshr_table {
  int n, max_merge, active;
  mshr_entry *e;
  mem_req *waiters;      /* n * max_merge, entry i's at [i * max_merge] in arrival order */
  uint8_t *wait_mask;    /* per waiter: the sectors it still needs */
  int *free_list, nfree;
  int32_t *slots;        /* open-addressing index: entry + 1, 0 = empty */
  uint32_t slot_mask;
  int *ready;            /* FIFO of entry indices */
  int ready_head, ready_count;
} mshr_table;

int mshr_init(mshr_table *t, int entries, int max_merge, const char *what, rf_diag *d);
void mshr_free(mshr_table *t);

int mshr_find(const mshr_table *t, uint64_t key); /* entry index or -1 */
static inline int mshr_full(const mshr_table *t) { return t->nfree == 0; }
static inline int mshr_can_merge(const mshr_table *t, int i) {
  return t->e[i].nwaiters < t->max_merge;
}
static inline uint8_t mshr_pending(const mshr_table *t, int i) { return t->e[i].pending; }
/* A valid index whose entry tracks `key` (for trusting the index carried by a reply). */
static inline int mshr_matches(const mshr_table *t, uint32_t i, uint64_t key) {
  return i < (uint32_t)t->n && t->e[i].used && t->e[i].key == key;
}

int mshr_alloc(mshr_table *t, uint64_t key); /* -1 when full */
void mshr_add_pending(mshr_table *t, int i, uint8_t sectors);
/* Caller checks mshr_can_merge first. `wait` = sectors the request still needs. */
void mshr_add_waiter(mshr_table *t, int i, const mem_req *r, uint8_t wait);
/* Sectors arrived at `now`: clears them from pending and queues the entry if any waiter is now
 * releasable. */
void mshr_fill(mshr_table *t, int i, uint8_t sectors, uint64_t now);
/* Earliest release time among ready entries, or UINT64_MAX. */
static inline uint64_t mshr_ready_time(const mshr_table *t) {
  return t->ready_count ? t->e[t->ready[t->ready_head]].ready_at : UINT64_MAX;
}
/* Releases one waiter whose data is ready at `now` (oldest entry first, arrival order within
 * it); frees the entry once it has no waiters and nothing pending. Returns 1 if one was written
 * to out. */
int mshr_pop_ready(mshr_table *t, uint64_t now, mem_req *out);

#endif
