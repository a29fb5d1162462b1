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

#define FIRST_CAP 1024

int slice_table_init(slice_table *t, uint32_t slices, rf_diag *d) {
  memset(t, 0, sizeof *t);
  t->slices = slices ? slices : 1;
  t->keys = rf_calloc(FIRST_CAP, sizeof *t->keys, d);
  t->slice = t->keys ? rf_calloc(FIRST_CAP, sizeof *t->slice, d) : NULL;
  if (!t->slice) {
    slice_table_free(t);
    return -1;
  }
  t->cap = FIRST_CAP;
  libc_srand(&t->rng, 1); /* GPGPU-Sim's srand(1) */
  return 0;
}

void slice_table_free(slice_table *t) {
  free(t->keys);
  free(t->slice);
  t->keys = NULL;
  t->slice = NULL;
  t->cap = t->n = 0;
}

static uint32_t home(const slice_table *t, uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdULL;
  key ^= key >> 33;
  return (uint32_t)key & (t->cap - 1);
}

static void put(slice_table *t, uint64_t key, uint16_t slice) {
  uint32_t s = home(t, key);
  while (t->keys[s]) s = (s + 1) & (t->cap - 1);
  t->keys[s] = key;
  t->slice[s] = slice;
  t->n++;
}

/* Doubles the table when it is half full; 0, or -1 out of memory (the table is unchanged). */
static int grow(slice_table *t) {
  if ((uint64_t)t->n * 2 < t->cap) return 0;
  if (t->cap > (1u << 30)) return -1;
  slice_table old = *t;
  t->keys = calloc((size_t)old.cap * 2, sizeof *t->keys);
  t->slice = t->keys ? calloc((size_t)old.cap * 2, sizeof *t->slice) : NULL;
  if (!t->slice) {
    free(t->keys);
    *t = old;
    return -1;
  }
  t->cap = old.cap * 2;
  t->n = 0;
  for (uint32_t i = 0; i < old.cap; i++)
    if (old.keys[i]) put(t, old.keys[i], old.slice[i]);
  free(old.keys);
  free(old.slice);
  return 0;
}

uint32_t slice_table_get(slice_table *t, uint64_t granule) {
  uint64_t key = granule + 1;
  for (uint32_t s = home(t, key);; s = (s + 1) & (t->cap - 1)) {
    if (t->keys[s] == key) return t->slice[s];
    if (!t->keys[s]) break;
  }
  uint16_t slice = (uint16_t)(libc_rand_next(&t->rng) % t->slices);
  if (!grow(t)) put(t, key, slice);
  return slice;
}
