/* -gpgpu_memory_partition_indexing 4 (GPGPU-Sim's RANDOM): every 128-byte granule (the
 * address above the channel-interleaving bits less the slice bits) gets its L2 slice from
 * rand() % slices the first time a request for it is created, and keeps it. GPGPU-Sim seeds
 * the C library's generator with srand(1); rfsim runs the same generator (glibc's random():
 * an additive lagged-Fibonacci generator, r[i] = r[i-3] + r[i-31] mod 2^32, started from
 * 16807 * r[i-1] mod 2^31 - 1 and run 310 steps before its first output, which is r >> 1).
 * With the draws made in GPGPU-Sim's order (memcpy'd data first, then instruction fetches
 * and data accesses as they are first made) the slices are GPGPU-Sim's. */
#ifndef RFSIM_SLICE_TABLE_H
#define RFSIM_SLICE_TABLE_H

#include <stdint.h>

#include "../common/diag.h"

typedef struct libc_rand {
  uint32_t r[34]; /* the last 34 values of the sequence */
  int next;       /* where the next one goes */
} libc_rand;

void libc_srand(libc_rand *g, uint32_t seed);
uint32_t libc_rand_next(libc_rand *g); /* 0 .. 2^31 - 1, as rand() */

/* Granules are kept in pages of SLICE_PAGE consecutive ones, so that the neighbouring granules
 * a warp's accesses and fetches touch share a cache line (one lookup per granule had the
 * table's cache misses take 7-10% of a TITAN X run). A page covers 512 KB of addresses in 8 KB
 * of table, made at the first touch in its range (1/64 of a dense array's size; a kernel's code
 * window takes one, and accesses scattered one per 512 KB would take 8 KB each): few enough
 * pages that the index of a 64 MB matrix walked by columns (atax) stays in the host's nearest
 * caches, which with pages of 64 granules it did not (the index's miss, before the page's, was
 * half of the lookups' time). */
#define SLICE_PAGE 4096
#define SLICE_NONE 0xffff /* a granule of a page with no draw yet */

/* A slot of the page index: a page's key and where the page is, side by side so that a lookup
 * reads one cache line of the index (the keys and the indexes in two arrays were two misses
 * per lookup where a kernel's accesses stride across pages). */
typedef struct slice_slot {
  uint64_t key;  /* page number + 1; 0 = empty slot */
  uint32_t page; /* the page's index in `pages` */
} slice_slot;

typedef struct slice_table {
  slice_slot *slots;
  uint16_t (*pages)[SLICE_PAGE]; /* each granule's slice, SLICE_NONE before its draw */
  uint32_t cap, n;    /* slots (a power of two), pages */
  uint32_t cap_pages;
  uint64_t last_key;  /* the page looked up last, 0 for none */
  uint32_t last_page;
  uint32_t slices;
  libc_rand rng;
} slice_table;

int slice_table_init(slice_table *t, uint32_t slices, rf_diag *d);
void slice_table_free(slice_table *t);
/* The slice of `granule`, drawing one when it has none. Out of memory: a draw that is not
 * kept (the caller still gets a valid slice). */
uint32_t slice_table_get(slice_table *t, uint64_t granule);
/* The slice of `granule` if it was drawn, else SLICE_NONE; the table is only read, so that
 * threads may look up at once while no one draws. */
uint32_t slice_table_peek(const slice_table *t, uint64_t granule);

#endif
