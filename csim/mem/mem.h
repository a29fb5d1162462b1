/* The memory hierarchy below the SM's LD/ST unit: coalescer, per-SM L1 data cache, and the
 * shared memory system (interconnect, L2 slices, DRAM channels with FR-FCFS row-buffer
 * scheduling). Sizes and latencies come from gpu_config. No globals: every piece is an object.
 *
 * Data flow per core cycle (driven by gpu.c):
 *   SM LD/ST --l1d_access--> L1D --l1d_pop_outgoing--> memsys_send --(icnt, L2, DRAM)-->
 *   memsys_pop_reply --l1d_fill--> L1D --l1d_pop_done--> SM (token of the waiting load)
 */
#ifndef RFSIM_MEM_H
#define RFSIM_MEM_H

#include <stdint.h>

#include "../common/diag.h"
#include "../config/config.h"

#define MEM_SECTOR_BYTES 32

/* One coalesced access: a line-aligned address and the 32-byte sectors it touches. */
typedef struct mem_access {
  uint64_t addr;        /* aligned to the line size */
  uint32_t token;       /* opaque to the memory system; returned with the completion */
  uint8_t sector_mask;  /* bit i = bytes [32i, 32i+32) of the line */
  uint8_t is_write;
  uint8_t is_atomic;
  uint8_t space;        /* mem_space (trace.h): the 'L' write policy treats local differently */
  uint16_t sm;          /* originating SM, for routing replies */
} mem_access;

/* A write whose token carries this bit (and is not UINT32_MAX) is acknowledged: once an L2
 * slice takes it, a reply with the same token, is_write set and no data (sector_mask 0) goes
 * back to its SM, as GPGPU-Sim's WRITE_ACK. Other writes (L1 write-backs) are not. */
#define MEM_ACK_TOKEN 0x80000000u
static inline int mem_wants_ack(const mem_access *a) {
  return a->is_write && !a->is_atomic && (a->token & MEM_ACK_TOKEN) && a->token != UINT32_MAX;
}

/* Coalesces one warp memory instruction: addrs[lane] for each lane set in mask, each access
 * `width` bytes. Writes the distinct lines touched (with their sector masks) to out in order
 * of first touch, and returns how many (at most 2 * 32 for unaligned accesses).
 * line_size is the L1's line size (128 bytes on all shipped configs). */
int mem_coalesce(const uint64_t *addrs, uint32_t mask, int width, int line_size,
                 mem_access *out, int max_out);

/* Shared-memory bank conflicts: the number of serialized passes (>= 1 when mask != 0) that a
 * warp access needs with `banks` 4-byte-wide banks; lanes reading the same word broadcast. */
int mem_shared_passes(const uint64_t *addrs, uint32_t mask, int width, int banks);

/* ---- L1 data cache (one per SM) ---- */

typedef enum l1_result { L1_HIT = 0, L1_MISS, L1_STALL } l1_result;

typedef struct cache_stats {
  uint64_t accesses, hits, misses, hit_reserved; /* hit_reserved: merged into a pending MSHR */
  uint64_t reservation_fails;                    /* L1_STALL: MSHR/miss queue full */
  uint64_t writes, write_hits;
} cache_stats;

typedef struct l1d l1d;

l1d *l1d_create(const gpu_config *c, int sm, rf_diag *d);
/* The same first-level cache with another geometry and hit latency: the L1 instruction cache
 * (read-only; its accesses carry space SPACE_INST so replies can be routed back to it). */
l1d *l1_cache_create(const cache_config *cc, int latency, const char *name, int sm, rf_diag *d);
void l1d_destroy(l1d *l);
/* Presents one access. Loads: L1_HIT completes after l1_latency (token via l1d_pop_done);
 * L1_MISS completes when the line returns; L1_STALL means nothing happened, retry later.
 * Stores never produce a completion (the SM does not wait on them) but do take the miss queue
 * when written through. A disabled L1 (config "none") sends every access down. */
l1_result l1d_access(l1d *l, const mem_access *a, uint64_t now);
/* Next request to send to the memory system (misses and write-throughs), or 0 if none. */
int l1d_peek_outgoing(const l1d *l, mem_access *out);
void l1d_pop_outgoing(l1d *l);
/* A read reply from the memory system: fills the line and releases merged requests. */
void l1d_fill(l1d *l, const mem_access *reply, uint64_t now);
/* A load whose data is ready at `now`: writes its token and returns 1, else 0. */
int l1d_pop_done(l1d *l, uint64_t now, uint32_t *token);
/* GPGPU-Sim's cache_invalidate at a memory barrier (-gpgpu_flush_l1_cache 1): every clean
 * sector becomes invalid. Sectors being fetched stay pending and are filled when they return;
 * dirty sectors (local write-back data) are kept, since rfsim does not model their loss. */
void l1d_invalidate(l1d *l);
int l1d_busy(const l1d *l); /* anything pending (MSHRs, queues, hit pipeline) */
const cache_stats *l1d_stats(const l1d *l);

/* ---- The shared memory system: interconnect + L2 slices + DRAM channels ---- */

typedef struct dram_stats {
  uint64_t reads, writes;
  uint64_t row_hits, row_misses;      /* row-buffer locality = hits / (hits + misses) */
  uint64_t busy_cycles, total_cycles; /* data-bus utilisation, DRAM clock cycles */
} dram_stats;

typedef struct memsys_stats {
  cache_stats l2;            /* summed over slices */
  dram_stats dram;           /* summed over channels */
  uint64_t icnt_requests, icnt_replies;
  uint64_t total_read_latency, completed_reads; /* core cycles, send -> reply */
} memsys_stats;

typedef struct memsys memsys;

memsys *memsys_create(const gpu_config *c, int n_sms, rf_diag *d);
void memsys_destroy(memsys *m);
/* Whether SM `sm` may inject one more request this cycle (its NoC input buffer has room). */
int memsys_can_send(const memsys *m, int sm);
void memsys_send(memsys *m, const mem_access *a, uint64_t now);
/* Next read reply for SM `sm` that has arrived, or 0. Writes are not acknowledged. */
int memsys_pop_reply(memsys *m, int sm, mem_access *out);
/* Advances one core-clock cycle; the NoC, L2 and DRAM advance by their own clock ratios. */
void memsys_cycle(memsys *m, uint64_t now);
int memsys_busy(const memsys *m);
const memsys_stats *memsys_get_stats(const memsys *m);

#endif
