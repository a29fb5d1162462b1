#include "mshr.h"

#include <stdlib.h>
#include <string.h>

/* Entries and merges are 16-bit fields below; real tables hold tens to a few hundred. */
#define MSHR_MAX_ENTRIES 65536
#define MSHR_MAX_MERGE 65535

int mshr_init(mshr_table *t, int entries, int max_merge, const char *what, rf_diag *d) {
  memset(t, 0, sizeof *t);
  if (entries < 1 || entries > MSHR_MAX_ENTRIES)
    return rf_fail(d, "%s: expected 1..%d MSHR entries, found %d", what, MSHR_MAX_ENTRIES,
                   entries);
  if (max_merge < 1 || max_merge > MSHR_MAX_MERGE)
    return rf_fail(d, "%s: expected an MSHR merge limit in 1..%d, found %d", what,
                   MSHR_MAX_MERGE, max_merge);
  if ((long long)entries * max_merge > INT32_MAX / 2)
    return rf_fail(d, "%s: expected at most 2^30 MSHR requests in all, found %d x %d", what,
                   entries, max_merge);
  t->n = entries;
  t->max_merge = max_merge;
  uint32_t slots = 2;
  while (slots < 2u * (uint32_t)entries) slots <<= 1; /* load factor <= 1/2 keeps probes short */
  t->slot_mask = slots - 1;
  /* The pool is handed out front to back on first use, so the pages of a large table that a
   * run never needs are never touched. */
  t->e = rf_calloc((size_t)entries, sizeof *t->e, d);
  t->pool = t->e ? rf_calloc((size_t)entries * (size_t)max_merge, sizeof *t->pool, d) : NULL;
  t->free_list = t->pool ? rf_calloc((size_t)entries, sizeof *t->free_list, d) : NULL;
  t->slots = t->free_list ? rf_calloc(slots, sizeof *t->slots, d) : NULL;
  t->ready = t->slots ? rf_calloc((size_t)entries, sizeof *t->ready, d) : NULL;
  if (!t->ready) {
    mshr_free(t);
    return -1;
  }
  /* Hand out low indices first so runs are easy to read in a debugger. */
  for (int i = 0; i < entries; i++) t->free_list[i] = entries - 1 - i;
  t->nfree = entries;
  t->pool_free = -1;
  return 0;
}

void mshr_free(mshr_table *t) {
  free(t->e);
  free(t->pool);
  free(t->free_list);
  free(t->slots);
  free(t->ready);
  memset(t, 0, sizeof *t);
}

static uint32_t hash_key(uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdULL;
  key ^= key >> 33;
  return (uint32_t)key;
}

int mshr_find(const mshr_table *t, uint64_t key) {
  for (uint32_t s = hash_key(key) & t->slot_mask;; s = (s + 1) & t->slot_mask) {
    int32_t v = t->slots[s];
    if (!v) return -1;
    if (t->e[v - 1].key == key) return v - 1;
  }
}

int mshr_alloc(mshr_table *t, uint64_t key, uint8_t pending) {
  if (!t->nfree) return -1;
  int i = t->free_list[--t->nfree];
  mshr_entry *e = &t->e[i];
  *e = (mshr_entry){.key = key, .head = -1, .tail = -1, .used = 1, .pending = pending};
  uint32_t s = hash_key(key) & t->slot_mask;
  while (t->slots[s]) s = (s + 1) & t->slot_mask;
  t->slots[s] = i + 1;
  t->active++;
  return i;
}

/* Linear-probing deletion by backward shift: later members of the probe run move into the hole
 * when their home slot does not lie cyclically between the hole and their position. */
static void unindex(mshr_table *t, int i) {
  uint32_t s = hash_key(t->e[i].key) & t->slot_mask;
  while (t->slots[s] != i + 1) s = (s + 1) & t->slot_mask;
  uint32_t hole = s;
  for (uint32_t j = (hole + 1) & t->slot_mask; t->slots[j]; j = (j + 1) & t->slot_mask) {
    uint32_t home = hash_key(t->e[t->slots[j] - 1].key) & t->slot_mask;
    if (((j - home) & t->slot_mask) >= ((j - hole) & t->slot_mask)) {
      t->slots[hole] = t->slots[j];
      hole = j;
    }
  }
  t->slots[hole] = 0;
}

static void release(mshr_table *t, int i) {
  unindex(t, i);
  t->e[i].used = 0;
  t->free_list[t->nfree++] = i;
  t->active--;
}

void mshr_add(mshr_table *t, int i, const mem_req *r) {
  int32_t k;
  if (t->pool_free >= 0) {
    k = t->pool_free;
    t->pool_free = t->pool[k].next;
  } else {
    k = t->pool_used++;
  }
  t->pool[k].r = *r;
  t->pool[k].next = -1;
  mshr_entry *e = &t->e[i];
  if (e->tail >= 0) t->pool[e->tail].next = k;
  else e->head = k;
  e->tail = k;
  e->nwaiters++;
  if (r->a.is_atomic) e->atomic = 1;
}

int mshr_fill(mshr_table *t, int i, uint8_t sectors) {
  mshr_entry *e = &t->e[i];
  if (!e->pending || e->ready) return 0;
  e->pending &= (uint8_t)~sectors;
  if (e->pending) return 0;
  if (!e->nwaiters) { /* a fetch nobody waits for any more */
    release(t, i);
    return 1;
  }
  int tail = t->ready_head + t->ready_count;
  if (tail >= t->n) tail -= t->n;
  t->ready[tail] = i;
  t->ready_count++;
  e->ready = 1;
  /* Its requests leave one per mshr_next, the first perhaps thousands of cycles after it was
   * stored: start loading it now (mshr_next's copy was a cache miss of the host, 12% of
   * atax-sm70's time). */
  __builtin_prefetch(&t->pool[e->head]);
  return 1;
}

int mshr_next(mshr_table *t, mem_req *out) {
  if (!t->ready_count) return 0;
  int i = t->ready[t->ready_head];
  mshr_entry *e = &t->e[i];
  int32_t k = e->head;
  *out = t->pool[k].r;
  e->head = t->pool[k].next;
  if (e->head < 0) e->tail = -1;
  else __builtin_prefetch(&t->pool[e->head]); /* the next call's (see mshr_fill) */
  t->pool[k].next = t->pool_free;
  t->pool_free = k;
  if (--e->nwaiters == 0) {
    t->ready_head = t->ready_head + 1 == t->n ? 0 : t->ready_head + 1;
    t->ready_count--;
    release(t, i);
  }
  return 1;
}
