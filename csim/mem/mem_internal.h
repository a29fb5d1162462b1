/* Shared pieces of the memory model that are not part of its public API (mem.h): the request
 * record that travels below the L1, address interleaving, and a few bit helpers. */
#ifndef RFSIM_MEM_INTERNAL_H
#define RFSIM_MEM_INTERNAL_H

#include <stdint.h>

#include "../common/bits.h"
#include "../trace/trace.h"
#include "mem.h"
#include "mem_ring.h"

/* A request as it moves through the NoC and L2: the SM's access plus the time it was sent
 * (for the read-latency statistic) and a stage-local ready time. */
typedef struct mem_req {
  mem_access a;
  uint64_t t_sent;  /* core cycle of memsys_send */
  uint64_t t_ready; /* when the current stage may act on it, in that stage's clock */
} mem_req;

RING_DEFINE(access_ring, mem_access)
RING_DEFINE(req_ring, mem_req)

static inline int mem_popcount8(uint8_t x) { return rf_popcount32(x); }

static inline int mem_is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

static inline int mem_log2(uint64_t x) { return 63 - __builtin_clzll(x); }

/* Bit mask of all sectors of a line (at least one sector, even for lines under 32 bytes). */
static inline uint8_t mem_full_sector_mask(int line_size) {
  int n = line_size / MEM_SECTOR_BYTES;
  if (n < 1) n = 1;
  return (uint8_t)((1u << n) - 1u);
}

/* 'L' (Fermi L1) is write-back for local memory and write-through for everything else; every
 * other policy letter applies to all spaces. */
static inline char mem_effective_write_policy(char policy, uint8_t space) {
  if (policy == 'L') return space == SPACE_LOCAL ? 'B' : 'T';
  return policy;
}

/* Address interleaving across DRAM channels and L2 sub-partitions, GPGPU-Sim style: the global
 * address is cut into `chunk`-byte granules; granule g goes to channel g % n_mem and
 * sub-partition (g / n_mem) % n_sub. The L2 slice indexes its tags with the slice-local address
 * (the granule number with channel and sub-partition digits removed), like GPGPU-Sim's
 * partition address, so that a slice's sets are all used. The DRAM channel sees the
 * channel-local address (channel digit removed); bank and row come from it (dram.c). */
typedef struct addr_map {
  uint64_t chunk, n_mem, n_sub;
} addr_map;

static inline uint32_t addr_slice(const addr_map *m, uint64_t addr) {
  uint64_t g = addr / m->chunk;
  uint64_t ch = g % m->n_mem, sub = (g / m->n_mem) % m->n_sub;
  return (uint32_t)(ch * m->n_sub + sub);
}

static inline uint32_t addr_channel_of_slice(const addr_map *m, uint32_t slice) {
  return (uint32_t)(slice / m->n_sub);
}

static inline uint64_t addr_slice_local(const addr_map *m, uint64_t addr) {
  uint64_t g = addr / m->chunk;
  return g / (m->n_mem * m->n_sub) * m->chunk + addr % m->chunk;
}

static inline uint64_t addr_channel_local(const addr_map *m, uint64_t addr) {
  uint64_t g = addr / m->chunk;
  return g / m->n_mem * m->chunk + addr % m->chunk;
}

#endif
