#include "slice_table.h"

#include <stdlib.h>
#include <string.h>

void libc_srand(libc_rand *g, uint32_t seed) {
  uint32_t r[344];
  r[0] = seed ? seed : 1;
  for (int i = 1; i < 31; i++) {
    int64_t v = (int64_t)16807 * (int32_t)r[i - 1] % 2147483647;
    if (v < 0) v += 2147483647;
    r[i] = (uint32_t)v;
  }
  for (int i = 31; i < 34; i++) r[i] = r[i - 31];
  for (int i = 34; i < 344; i++) r[i] = r[i - 31] + r[i - 3];
  memcpy(g->r, r + 344 - 34, sizeof g->r);
  g->next = 0; /* r[next] is the oldest: index 344 overwrites it */
}

uint32_t libc_rand_next(libc_rand *g) {
  /* With the ring holding r[i-34 .. i-1] and next at r[i-34]: r[i-31] is next + 3,
   * r[i-3] is next + 31. */
  int a = g->next + 3 >= 34 ? g->next + 3 - 34 : g->next + 3;
  int b = g->next + 31 >= 34 ? g->next + 31 - 34 : g->next + 31;
  uint32_t v = g->r[a] + g->r[b];
  g->r[g->next] = v;
  g->next = g->next + 1 == 34 ? 0 : g->next + 1;
  return v >> 1;
}

#define FIRST_CAP 64 /* slots; pages start at half of it */

int slice_table_init(slice_table *t, uint32_t slices, rf_diag *d) {
  memset(t, 0, sizeof *t);
  if (slices >= SLICE_NONE)
    return rf_fail(d, "random slice indexing: expected fewer than %d L2 slices, found %u",
                   SLICE_NONE, slices);
  t->slices = slices ? slices : 1;
  t->slots = rf_calloc(FIRST_CAP, sizeof *t->slots, d);
  t->pages = t->slots ? rf_calloc(FIRST_CAP / 2, sizeof *t->pages, d) : NULL;
  if (!t->pages) {
    slice_table_free(t);
    return -1;
  }
  t->cap = FIRST_CAP;
  t->cap_pages = FIRST_CAP / 2;
  libc_srand(&t->rng, 1); /* GPGPU-Sim's srand(1) */
  return 0;
}

void slice_table_free(slice_table *t) {
  free(t->slots);
  free(t->pages);
  t->slots = NULL;
  t->pages = NULL;
  t->cap = t->n = t->cap_pages = 0;
  t->last_key = 0;
}

static uint32_t home(const slice_table *t, uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdULL;
  key ^= key >> 33;
  return (uint32_t)key & (t->cap - 1);
}

static void put(slice_table *t, uint64_t key, uint32_t page) {
  uint32_t s = home(t, key);
  while (t->slots[s].key) s = (s + 1) & (t->cap - 1);
  t->slots[s] = (slice_slot){key, page};
}

/* Room for one more page: the slots doubled when half full, the pages when full; 0, or -1 out
 * of memory (the table is unchanged). */
static int grow(slice_table *t) {
  if (t->n == t->cap_pages) {
    if ((uint64_t)t->cap_pages * sizeof *t->pages > (8ull << 30)) return -1; /* (8 GB) */
    void *p = realloc(t->pages, (size_t)t->cap_pages * 2 * sizeof *t->pages);
    if (!p) return -1;
    t->pages = p;
    t->cap_pages *= 2;
  }
  if ((uint64_t)(t->n + 1) * 2 < t->cap) return 0;
  slice_slot *slots = calloc((size_t)t->cap * 2, sizeof *slots);
  if (!slots) return -1;
  slice_slot *old = t->slots;
  uint32_t old_cap = t->cap;
  t->slots = slots;
  t->cap = old_cap * 2;
  for (uint32_t i = 0; i < old_cap; i++)
    if (old[i].key) put(t, old[i].key, old[i].page);
  free(old);
  return 0;
}

/* The index of the page with `key`, or -1 if it has none (the table is only read). */
static int64_t find_page(const slice_table *t, uint64_t key) {
  for (uint32_t s = home(t, key); t->slots[s].key; s = (s + 1) & (t->cap - 1))
    if (t->slots[s].key == key) return t->slots[s].page;
  return -1;
}

/* The index of the page with `key`, made (all granules without a draw) if it is new; -1 out
 * of memory. */
static int64_t page_of(slice_table *t, uint64_t key) {
  if (key == t->last_key) return t->last_page;
  int64_t found = find_page(t, key);
  if (found >= 0) {
    t->last_key = key;
    return t->last_page = found;
  }
  if (grow(t) < 0) return -1;
  uint32_t page = t->n++;
  memset(t->pages[page], 0xff, sizeof t->pages[page]);
  put(t, key, page);
  t->last_key = key;
  return t->last_page = page;
}

uint32_t slice_table_get(slice_table *t, uint64_t granule) {
  int64_t page = page_of(t, granule / SLICE_PAGE + 1);
  uint16_t *slot = page >= 0 ? &t->pages[page][granule % SLICE_PAGE] : NULL;
  if (slot && *slot != SLICE_NONE) return *slot;
  uint16_t slice = (uint16_t)(libc_rand_next(&t->rng) % t->slices);
  if (slot) *slot = slice;
  return slice;
}

uint32_t slice_table_peek(const slice_table *t, uint64_t granule) {
  int64_t page = find_page(t, granule / SLICE_PAGE + 1);
  return page >= 0 ? t->pages[page][granule % SLICE_PAGE] : SLICE_NONE;
}
