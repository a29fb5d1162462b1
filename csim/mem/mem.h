/* The memory hierarchy below the SM's LD/ST unit, built as GPGPU-Sim builds it (its
 * gpu-cache, shader ldst_unit, l2cache, icnt and dram sources were read to model each piece;
 * no code is taken from them). Sizes, latencies and policies come from gpu_config, with
 * GPGPU-Sim's option names. No globals: every piece is an object.
 *
 * Data flow:
 *   SM LD/ST --mem_coalesce--> accesses (32-byte sectors from -gpgpu_coalesce_arch 40, or
 *   32/64/128-byte segments before) --l1d_access--> L1D bank pipelines (-gpgpu_l1_banks, each
 *   -gpgpu_l1_latency deep; the tags are read at its end) --miss queue, one request a cycle-->
 *   the SM's cluster port --request network--> L2 slice: split into 32-byte sector requests
 *   (a sectored L2), ROP delay, icnt->L2 queue, tags and MSHRs, L2->DRAM queue, DRAM channel,
 *   DRAM->L2 queue, fill --L2->icnt queue--> reply network --> the cluster's ejection buffer
 *   --> the SM's response queue --> one reply a cycle into the L1D (or the LD/ST unit when
 *   the access bypassed it) --> the LD/ST unit's writeback (csim/core/ldst.c).
 *
 * Bypass: atomics, every access of a disabled L1D, and global accesses with
 * -gpgpu_gmem_skip_L1D 1 go from the LD/ST unit straight into the cluster port and come back
 * to the LD/ST unit. (GPGPU-Sim also bypasses loads marked .STRONG.GPU; the trace reader does
 * not keep opcode modifiers, so rfsim cannot see them. Accel-Sim's front end ignores the
 * .CG/.CA/.CS/.CV operators: they do not change the cache policy there either.)
 *
 * Statistics keep GPGPU-Sim's meanings: a sectored cache counts one access per sector;
 * accesses are hits, misses, sector misses and hit-reserved (merged) accesses; a reservation
 * failure is an attempt that changed nothing and is counted apart. */
#ifndef RFSIM_MEM_H
#define RFSIM_MEM_H

#include <stdint.h>
#include <stdio.h>

#include "../common/bits.h"
#include "../common/diag.h"
#include "../config/config.h"

#define MEM_SECTOR_BYTES 32
#define MEM_SECTORS_PER_LINE 4
/* Control bytes of every packet (GPGPU-Sim's READ_PACKET_SIZE and WRITE_PACKET_SIZE). */
#define MEM_PACKET_HEADER_BYTES 8

/* One access (GPGPU-Sim's mem_access_t / mem_fetch): a line-aligned address, the sectors it
 * touches, and its size in bytes (32, 64 or 128: a coalescing segment, or the line a
 * non-sectored cache fetches). A 128-byte access is four sector requests at a sectored L2
 * whatever its mask, as in GPGPU-Sim; smaller ones are one per sector in the mask. */
typedef struct mem_access {
  uint64_t addr;        /* aligned to 128 bytes (the line of every shipped cache) */
  uint32_t token;       /* opaque to the memory system; returned with the completion */
  uint8_t sector_mask;  /* bit i = bytes [32i, 32i+32) of the line */
  uint8_t full_mask;    /* writes: sectors written completely (a partly written sector is
                           not readable from a write-allocated line) */
  uint16_t size;        /* bytes: 32, 64 or 128 */
  uint8_t is_write;
  uint8_t is_atomic;
  uint8_t space;        /* mem_space (trace.h): the 'L' write policy treats local differently */
  uint8_t bypass_l1;    /* went around the L1D: the reply goes to the LD/ST unit */
  uint16_t sm;          /* originating SM, for routing replies */
} mem_access;

/* A write whose token carries this bit (and is not UINT32_MAX) is acknowledged: once an L2
 * slice takes it, a reply with the same token, is_write set and no data goes back to its SM,
 * as GPGPU-Sim's WRITE_ACK. Other writes (write-backs) are not. */
#define MEM_ACK_TOKEN 0x80000000u
static inline int mem_wants_ack(const mem_access *a) {
  return a->is_write && !a->is_atomic && (a->token & MEM_ACK_TOKEN) && a->token != UINT32_MAX;
}

/* The sector requests a sectored L2 makes of an access (GPGPU-Sim's
 * breakdown_request_to_sector_requests): all four for a 128-byte access, else one per sector
 * of the mask. Also the acknowledgements a write of that access gets. */
static inline uint8_t mem_split_mask(const mem_access *a) {
  return a->size >= 128 ? (uint8_t)0xf : a->sector_mask;
}

/* The acknowledgements a write access gets: one per sector request when the L2 splits it
 * (`l2_splits`: the L2 is sectored), else one. */
static inline int mem_acks(const mem_access *a, int l2_splits) {
  if (!l2_splits) return 1;
  int n = rf_popcount32(mem_split_mask(a));
  return n ? n : 1;
}

/* Coalesces one warp memory instruction (addrs[lane] for each lane of mask, `width` bytes
 * each) as GPGPU-Sim's coalescer does for -gpgpu_coalesce_arch `arch`: accesses are cut into
 * segments of 32 bytes when `sectors` (every access from arch 40 on; bypassed ones from 20),
 * else of 128 bytes (64 for 2-byte and 32 for 1-byte data), and a 128- or 64-byte segment of
 * which only one half is used shrinks to that half, recursively to 32 bytes. Writes each
 * segment (line address, sectors, size, fully written sectors) to out in order of first touch
 * and returns how many, or -1 if more than max_out. */
int mem_coalesce(const uint64_t *addrs, uint32_t mask, int width, int sectors,
                 mem_access *out, int max_out);
/* The same for the k-th active lane of mask at base + k * stride (a packed trace instruction,
 * csim/trace/trace_addrs.h), without spreading the lanes when they touch one range of bytes. */
int mem_coalesce_strided(uint64_t base, uint64_t stride, uint32_t mask, int width, int sectors,
                         mem_access *out, int max_out);

/* Shared-memory bank conflicts: the number of serialized passes (>= 1 when mask != 0) that a
 * warp access needs with `banks` 4-byte-wide banks; lanes reading the same word broadcast. */
int mem_shared_passes(const uint64_t *addrs, uint32_t mask, int width, int banks);
/* The same for the k-th active lane of mask at base + k * stride (a packed trace instruction,
 * csim/trace/trace_addrs.h), without spreading the lanes when they cover a range of words. */
int mem_shared_passes_strided(uint64_t base, uint64_t stride, uint32_t mask, int width,
                              int banks);
/* The same for two half-warp runs at one stride (lanes 0-15 from lo, 16-31 from hi: the halves
 * form of trace_addrs.h), without spreading the lanes when each half covers a range of words. */
int mem_shared_passes_halves(uint64_t lo, uint64_t hi, uint64_t stride, uint32_t mask, int width,
                             int banks);

/* ---- First-level caches (one L1D and one L1I per SM) ---- */

typedef enum l1_result { L1_HIT = 0, L1_MISS, L1_STALL } l1_result;

/* GPGPU-Sim's reservation-failure reasons. */
typedef enum cache_fail {
  FAIL_LINE_ALLOC = 0, /* every way of the set holds a line waiting for its fill */
  FAIL_MISS_QUEUE,     /* the miss queue toward the next level is full */
  FAIL_MSHR_ENTRY,     /* no free MSHR */
  FAIL_MSHR_MERGE,     /* the MSHR of this line/sector already holds -mshr_max_merge requests */
  FAIL_COUNT
} cache_fail;

typedef struct cache_stats {
  uint64_t accesses;        /* hits + misses + hit_reserved (sector accesses if sectored) */
  uint64_t hits, misses;    /* misses include sector misses */
  uint64_t sector_misses;   /* the line was present, the sector was not */
  uint64_t hit_reserved;    /* the sector was being fetched: merged into its MSHR */
  uint64_t reservation_fails;
  uint64_t fails[FAIL_COUNT];
  uint64_t writes, write_hits;
} cache_stats;

typedef struct l1d l1d;
typedef struct memsys memsys;

/* The L1D of SM `sm`: -gpgpu_cache:dl1 with -gpgpu_l1_banks pipelines of -gpgpu_l1_latency. */
l1d *l1d_create(const gpu_config *c, int sm, rf_diag *d);
/* A first-level cache whose tags are read at once (latency 0: the L1I, read by the fetch
 * stage; its accesses carry space SPACE_INST so replies are routed back to it). A read that
 * hits is the caller's at once (L1_HIT); only misses complete later, through l1d_pop_miss. */
l1d *l1_cache_create(const cache_config *cc, int latency, const char *name, int sm, rf_diag *d);
void l1d_destroy(l1d *l);
/* -gpgpu_adaptive_cache_config: the L1D keeps its sets and takes `assoc` ways (at most the
 * ways l1d_create sized it for, see l1d_max_assoc). Invalidates the cache. */
int l1d_set_assoc(l1d *l, int assoc, rf_diag *d);
int l1d_max_assoc(const l1d *l);
int l1d_assoc(const l1d *l);

/* Presents one access at `now`. With bank pipelines: it enters its bank's pipeline
 * (L1_MISS, meaning "taken"; the outcome comes later) or, when that bank took an access this
 * cycle or is full, nothing happens (L1_STALL). Without (latency 0): the tags are read now
 * and the result is L1_HIT, L1_MISS or L1_STALL (reservation failure). Stores never complete
 * through the cache; loads complete through l1d_pop_hit (hits, but for l1_cache_create's) or
 * l1d_pop_miss (fills). */
l1_result l1d_access(l1d *l, const mem_access *a, uint64_t now);
/* One cache cycle: the bank pipelines read their tags (a stalled head retries), the data
 * port frees. Call once per core cycle after l1d_pop_outgoing has had its chance. */
void l1d_cycle(l1d *l, uint64_t now);
/* Sends what waits for the cluster port, as far as the port takes it: the head of the miss
 * queue (fetches, write-throughs, write-backs) and a bypassed access, one each per cycle.
 * Returns 1 if anything went. */
int l1d_emit(l1d *l, memsys *m, uint64_t now);
/* The fill port: a reply is taken only when it is free (one fill per cycle). */
int l1d_can_fill(const l1d *l);
/* A read reply: a sector of a pending line/sector arrives; when all the sectors a fetch asked
 * for are in, the line is filled and its merged requests become releasable. */
void l1d_fill(l1d *l, const mem_access *reply, uint64_t now);
/* A load that hit, ready at `now` (data never waits for the writeback port). */
int l1d_pop_hit(l1d *l, uint64_t now, uint32_t *token);
/* A store the L1D kept (a write-back hit, a write-allocated miss): it is acknowledged here,
 * with as many acknowledgements as the L2 would have sent (mem_acks). */
int l1d_pop_store_ack(l1d *l, uint32_t *token, int *acks);
/* A load released from an MSHR (one per call: each is one writeback). */
int l1d_pop_miss(l1d *l, uint64_t now, uint32_t *token);
/* Whether an MSHR has released requests (l1d_pop_miss may find one). */
int l1d_miss_ready(const l1d *l);
/* GPGPU-Sim's cache_invalidate at a memory barrier (-gpgpu_flush_l1_cache 1): every sector
 * becomes invalid; fetches in flight still complete their requests. */
void l1d_invalidate(l1d *l);
int l1d_busy(const l1d *l); /* anything pending (pipelines, MSHRs, queues) */
/* Nothing the cache does by itself in a cycle: no request queued, in a bank pipeline or
 * released from an MSHR, nothing to deliver, both ports free. Fetches out in the memory
 * system may be pending: only their replies change that. */
int l1d_idle(const l1d *l);
/* One line for a deadlock report: what the cache holds (nothing when it is idle). */
void l1d_report(const l1d *l, const char *name, FILE *out);
const cache_stats *l1d_stats(const l1d *l);

/* ---- The shared memory system: clusters' ports, interconnect, L2 slices, DRAM ---- */

typedef struct dram_stats {
  uint64_t reads, writes;
  uint64_t row_hits, row_misses;      /* row-buffer locality = hits / (hits + misses) */
  uint64_t busy_cycles, total_cycles; /* data-bus utilisation, DRAM clock cycles */
} dram_stats;

typedef struct memsys_stats {
  cache_stats l2;            /* summed over slices */
  dram_stats dram;           /* summed over channels */
  /* Flits injected into each network (GPGPU-Sim's mem_fetch::get_num_flits: the header, plus
   * the data of writes and atomics toward the L2 and of read replies), in either network mode. */
  uint64_t icnt_request_flits, icnt_reply_flits;
  /* GPGPU-Sim's memory latency statistics: every reply delivered to an SM (read data and
   * write acknowledgements, not instruction fetches) adds now - its request's creation time;
   * a sector request split off at the L2 was created there. icnt2mem adds, for every packet an
   * L2 slice takes, the time since its creation; icnt2sh, for every reply, the time since it
   * left its slice. GPGPU-Sim moves the latency sums into its averages every
   * -gpgpu_runtime_stat cycles (memsys_flush_latency) and Accel-Sim prints a kernel's
   * statistics before the last move: mf_flushed_* is what those averages see. */
  uint64_t mf_total_latency, num_mfs;
  uint64_t mf_flushed_latency, mf_flushed;
  uint64_t icnt2mem_latency, icnt2sh_latency;
  uint64_t stall_dramfull;   /* L2 cycles x slices the icnt->L2 queue had no room for 4 */
  uint64_t stall_icnt2sh;    /* L2->icnt heads the reply network could not take */
} memsys_stats;

memsys *memsys_create(const gpu_config *c, int n_sms, rf_diag *d);
void memsys_destroy(memsys *m);
/* A request for the line of `addr` was created (GPGPU-Sim maps its address then): with
 * -gpgpu_memory_partition_indexing 4 its granule gets its slice now if it has none. The LD/ST
 * unit calls this when an access enters the L1D or goes around it, the fetch stage for each
 * instruction fetch. sm: the SM it is for (-1: none, a copy). */
void memsys_touch(memsys *m, int sm, uint64_t addr);
/* A MemcpyHtoD of the trace (-gpgpu_perf_sim_memcpy 1): GPGPU-Sim looks each 32 bytes up in
 * its address mapping (with the address cut to 32 bits); rfsim does the same, which matters
 * for the random slice draws only (the copied lines GPGPU-Sim also puts into its L2 tags are
 * at those cut addresses, which trace-driven kernels never touch; rfsim leaves them out). */
void memsys_memcpy(memsys *m, uint64_t addr, uint64_t bytes);
/* Whether SM `sm` may inject `a` this cycle: its cluster's network input has room for the
 * packet (reads carry the header only; writes and atomics their data as well). */
int memsys_can_send(const memsys *m, int sm, const mem_access *a);
/* Injects a request created at core cycle `created`. */
void memsys_send(memsys *m, const mem_access *a, uint64_t created, uint64_t now);
/* Clusters stepped in parallel (gpu -threads): memsys_defer(m, 1) starts a phase in which
 * memsys_send puts a request only into its cluster's network input, and memsys_defer(m, 0)
 * settles the rest (the network's arbitration and count, the statistics) cluster by cluster;
 * with random slices (-gpgpu_memory_partition_indexing 4) memsys_send and memsys_touch only
 * note what each SM asked, memsys_can_send counts the noted sends of the SM's cluster as
 * injected, and memsys_defer(m, 0) carries the notes out SM by SM, each in its own order.
 * Within the phase each cluster's SMs must be stepped by one thread, and nothing else may call
 * the memory system (but memsys_cycle_end and memsys_cycle_ahead). Either way the order one
 * thread would have taken is kept, so the slice draws, the network and every statistic come
 * out the same. -1 (with d) if the notes ran out of memory. */
int memsys_defer(memsys *m, int on, rf_diag *d);
/* The SM's next reply (read data, or a write acknowledgement with sector_mask 0), or 0. */
int memsys_peek_reply(const memsys *m, int sm, mem_access *out);
void memsys_pop_reply(memsys *m, int sm);
/* Whether a reply or instruction-fetch reply waits for the SM. */
int memsys_reply_waiting(const memsys *m, int sm);
/* The SM's next instruction-fetch reply (taken whenever it arrives), or 0. */
int memsys_pop_fetch_reply(memsys *m, int sm, mem_access *out);
/* Advances one core-clock cycle; the network, L2 and DRAM advance by their own clocks. */
void memsys_cycle(memsys *m, uint64_t now);
/* memsys_cycle in two parts, for SMs stepped in parallel (gpu -threads): begin leaves the
 * reply network's cycles, which the SMs neither read nor change, to end, which one thread
 * may run while the others step SMs (memsys_defer on). The next memsys_cycle, begin, or
 * cycle_ahead, and a send outside that phase, run a pending end first; memsys_busy and the
 * statistics are those of the whole cycle only after end. */
void memsys_cycle_begin(memsys *m, uint64_t now);
void memsys_cycle_end(memsys *m);
/* The part of cycle `now` that the SMs' cycle now - 1 cannot change, run ahead while they are
 * stepped (gpu -threads; memsys_defer on, and nothing else calling the memory system but the
 * SMs), after the end of cycle now - 1 (run first if pending): the slices offer replies, the
 * DRAM channels and the L2 slices run their cycles. It touches none of what the SMs read or
 * write in that phase (their response queues and the request network's inputs), and it
 * commutes with the clusters' taking of replies, which GPGPU-Sim runs first: memsys_cycle(now)
 * then does the rest, to the same effect as the whole cycle run at once. Only a busy memory
 * system runs ahead (an idle one may be woken by the SMs' sends, and then runs its cycle
 * whole); 1 if it ran. */
int memsys_cycle_ahead(memsys *m, uint64_t now);
int memsys_busy(const memsys *m);
const memsys_stats *memsys_get_stats(const memsys *m);
/* GPGPU-Sim's memlatstat_lat_pw: the replies so far count in the mf_flushed_* statistics. */
void memsys_flush_latency(memsys *m);

#endif
