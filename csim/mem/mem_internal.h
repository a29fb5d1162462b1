/* Shared pieces of the memory model that are not part of its public API (mem.h): the request
 * record that travels below the L1, address interleaving, and a few bit helpers. */
#ifndef RFSIM_MEM_INTERNAL_H
#define RFSIM_MEM_INTERNAL_H

#include <stdint.h>

#include "../common/bits.h"
#include "../trace/trace.h"
#include "mem.h"
#include "mem_hash.h"
#include "mem_ring.h"
#include "slice_table.h"

/* A request as it moves below the L1 (GPGPU-Sim's mem_fetch): the access, when it was
 * created (the averagemflatency statistic starts there), and a stage-local ready time. */
typedef struct mem_req {
  mem_access a;
  uint64_t t_created; /* core cycle */
  uint64_t t_ready;   /* when the current stage may act on it, in that stage's clock */
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

/* Bytes of a packet: the header, plus the data of writes and atomics toward the L2 and of
 * read replies toward the SMs (GPGPU-Sim's mem_fetch sizes). */
static inline int mem_packet_bytes(const mem_access *a, int to_memory) {
  int data = to_memory ? (a->is_write || a->is_atomic) : (!a->is_write || a->is_atomic);
  return MEM_PACKET_HEADER_BYTES + (data ? a->size : 0);
}

/* ceil(bytes / unit): the flits of a packet, the cycles of a transfer through a data port. By
 * table for the sizes packets and accesses have (a header and at most a line): a division per
 * packet and hop, per access, was 2-4% of a run's time. */
enum { CHUNK_TABLE_BYTES = 256 };
typedef struct chunk_count {
  int unit;
  uint8_t of[CHUNK_TABLE_BYTES];
} chunk_count;

static inline void chunk_count_init(chunk_count *f, int unit) {
  f->unit = unit;
  for (int b = 0; b < CHUNK_TABLE_BYTES; b++) f->of[b] = (uint8_t)((b + unit - 1) / unit);
}

static inline int chunk_count_of(const chunk_count *f, int bytes) {
  if (bytes >= 0 && bytes < CHUNK_TABLE_BYTES) return f->of[bytes];
  return (bytes + f->unit - 1) / f->unit;
}

/* Address interleaving across DRAM channels and L2 slices (GPGPU-Sim's addrdec with a
 * "dramid@S" mapping, S = log2 of -rfsim_mem_chunk_bytes): granule g = addr / chunk selects
 * channel g % n_mem; the slice within the channel is the lowest DRAM bank bit, which in
 * GPGPU-Sim's mappings sits right above the channel: (g / n_mem) % n_sub. Then
 * -gpgpu_memory_partition_indexing may hash the slice: 1 XORs the channel with the granule
 * bits above it, 2 is the IPOLY hash of the slice number with those bits, 4 draws a slice at
 * random for each granule of chunk / n_sub bytes the first time it is touched (slice_table.h).
 * The L2 slice indexes its tags with the slice-local address (channel and slice digits removed,
 * GPGPU-Sim's partition address); the DRAM channel sees the channel-local address. The
 * sub-partition rule holds for GPGPU-Sim's mappings with two slices per channel; with more,
 * rfsim takes the next bits above the channel. */
typedef struct addr_map {
  uint64_t chunk, n_mem, n_sub;
  int chunk_log2, indexing;
  int gap;              /* n_mem is not a power of two */
  int random_shift;     /* indexing 4: granule = addr >> random_shift */
  slice_table *random;  /* indexing 4: the draws so far */
  const mem_ipoly_table *ipoly; /* indexing 2 (addr_map_prepare) */
} addr_map;

/* Fills what addr_slice derives from the map's fields (the IPOLY table of indexing 2). */
static inline void addr_map_prepare(addr_map *m) {
  if (m->indexing == 2)
    m->ipoly = mem_ipoly_table_of(
        mem_log2((uint64_t)mem_next_pow2((uint32_t)m->n_mem) * m->n_sub));
}

static inline uint32_t addr_slice(const addr_map *m, uint64_t addr) {
  uint64_t g = addr >> m->chunk_log2;
  uint64_t ch = g % m->n_mem, sub = (g / m->n_mem) % m->n_sub;
  uint64_t n = m->n_mem * m->n_sub;
  switch (m->indexing) {
  case 1: { /* requires a power-of-two channel count (config_validate) */
    uint64_t high = g / m->n_mem / m->n_sub;
    ch ^= high & (m->n_mem - 1);
    break;
  }
  case 2: {
    /* The bits above the channel digit; with a non-power-of-two channel count GPGPU-Sim
     * divides instead of shifting and keeps the slice digit among them. */
    uint64_t high = m->gap ? g / m->n_mem : g / m->n_mem / m->n_sub;
    return mem_ipoly_lookup(m->ipoly, high, (uint32_t)(ch * m->n_sub + sub)) % (uint32_t)n;
  }
  case 4:
    return slice_table_get(m->random, addr >> m->random_shift);
  default:
    break;
  }
  return (uint32_t)(ch * m->n_sub + sub);
}

static inline uint32_t addr_channel_of_slice(const addr_map *m, uint32_t slice) {
  return (uint32_t)(slice / m->n_sub);
}

static inline uint64_t addr_slice_local(const addr_map *m, uint64_t addr) {
  uint64_t g = addr >> m->chunk_log2;
  return g / (m->n_mem * m->n_sub) * m->chunk + (addr & (m->chunk - 1));
}

static inline uint64_t addr_channel_local(const addr_map *m, uint64_t addr) {
  uint64_t g = addr >> m->chunk_log2;
  return g / m->n_mem * m->chunk + (addr & (m->chunk - 1));
}

#endif
