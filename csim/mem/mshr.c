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
  t->n = entries;
  t->max_merge = max_merge;
  uint32_t slots = 2;
  while (slots < 2u * (uint32_t)entries) slots <<= 1; /* load factor <= 1/2 keeps probes short */
  t->slot_mask = slots - 1;
  size_t nw = (size_t)entries * (size_t)max_merge;
  t->e = rf_calloc((size_t)entries, sizeof *t->e, d);
  t->waiters = t->e ? rf_calloc(nw, sizeof *t->waiters, d) : NULL;
  t->wait_mask = t->waiters ? rf_calloc(nw, 1, d) : NULL;
  t->free_list = t->wait_mask ? rf_calloc((size_t)entries, sizeof *t->free_list, d) : NULL;
  t->slots = t->free_list ? rf_calloc(slots, sizeof *t->slots, d) : NULL;
  t->ready = t->slots ? rf_calloc((size_t)entries, sizeof *t->ready, d) : NULL;
  if (!t->ready) {
    mshr_free(t);
    return -1;
  }
  /* Hand out low indices first so runs are easy to read in a debugger. */
  for (int i = 0; i < entries; i++) t->free_list[i] = entries - 1 - i;
  t->nfree = entries;
  return 0;
}

void mshr_free(mshr_table *t) {
  free(t->e);
  free(t->waiters);
  free(t->wait_mask);
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

int mshr_alloc(mshr_table *t, uint64_t key) {
  if (!t->nfree) return -1;
  int i = t->free_list[--t->nfree];
  mshr_entry *e = &t->e[i];
  memset(e, 0, sizeof *e);
  e->key = key;
  e->used = 1;
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

void mshr_add_pending(mshr_table *t, int i, uint8_t sectors) { t->e[i].pending |= sectors; }

void mshr_add_waiter(mshr_table *t, int i, const mem_req *r, uint8_t wait) {
  mshr_entry *e = &t->e[i];
  size_t w = (size_t)i * (size_t)t->max_merge + e->nwaiters++;
  t->waiters[w] = *r;
  t->wait_mask[w] = wait;
}

static void push_ready(mshr_table *t, int i) {
  int tail = t->ready_head + t->ready_count;
  if (tail >= t->n) tail -= t->n;
  t->ready[tail] = i;
  t->ready_count++;
  t->e[i].in_ready = 1;
}

void mshr_fill(mshr_table *t, int i, uint8_t sectors, uint64_t now) {
  mshr_entry *e = &t->e[i];
  e->pending &= (uint8_t)~sectors;
  if (e->in_ready) return; /* already queued; its earlier release time stands */
  const uint8_t *wm = &t->wait_mask[(size_t)i * (size_t)t->max_merge];
  for (int k = 0; k < e->nwaiters; k++) {
    if (!(wm[k] & e->pending)) {
      e->ready_at = now;
      push_ready(t, i);
      return;
    }
  }
  if (!e->nwaiters && !e->pending) release(t, i); /* a fetch nobody waits for */
}

int mshr_pop_ready(mshr_table *t, uint64_t now, mem_req *out) {
  while (t->ready_count) {
    int i = t->ready[t->ready_head];
    mshr_entry *e = &t->e[i];
    if (e->ready_at > now) return 0;
    size_t base = (size_t)i * (size_t)t->max_merge;
    int found = -1, more = 0;
    for (int k = 0; k < e->nwaiters; k++) {
      if (t->wait_mask[base + k] & e->pending) continue;
      if (found < 0) found = k;
      else {
        more = 1;
        break;
      }
    }
    if (found >= 0) {
      *out = t->waiters[base + (size_t)found];
      int rest = e->nwaiters - found - 1;
      memmove(&t->waiters[base + (size_t)found], &t->waiters[base + (size_t)found + 1],
              (size_t)rest * sizeof *t->waiters);
      memmove(&t->wait_mask[base + (size_t)found], &t->wait_mask[base + (size_t)found + 1],
              (size_t)rest);
      e->nwaiters--;
    }
    if (!more) {
      t->ready_head = t->ready_head + 1 == t->n ? 0 : t->ready_head + 1;
      t->ready_count--;
      e->in_ready = 0;
      if (!e->nwaiters && !e->pending) release(t, i);
    }
    if (found >= 0) return 1;
  }
  return 0;
}
