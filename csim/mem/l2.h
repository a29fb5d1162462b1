/* One L2 slice (GPGPU-Sim's memory_sub_partition), clocked by the L2 domain.
 *
 * A packet the network delivers is split into 32-byte sector requests when the L2 is
 * sectored (a 128-byte request becomes four, each a new request created now, so its
 * averagemflatency starts here) and each enters the ROP delay queue for -gpgpu_l2_rop_latency
 * core cycles (GPGPU-Sim's unit). Then, per L2 cycle, in this order:
 *   1. a request released from a filled MSHR goes to the L2->icnt queue (its reply);
 *   2. the head of the DRAM->L2 queue fills the cache (fill port free) or, when it is not a
 *      fetch of this cache (a write acknowledgement, a read past a disabled L2), goes to the
 *      L2->icnt queue;
 *   3. the head of the cache's miss queue moves to the L2->DRAM queue;
 *   4. the head of the icnt->L2 queue reads the tags, if the L2->DRAM queue is not full, the
 *      L2->icnt queue is not full and the data port is free; a hit replies (reads, atomics)
 *      or is acknowledged (writes); a miss waits in an MSHR; a reservation failure (no MSHR,
 *      the block's MSHR holds -mshr_max_merge requests already, a full miss queue, every way
 *      reserved) leaves it at the head, blocking everything behind it;
 *   5. the head of the ROP queue, once its delay is over, moves to the icnt->L2 queue.
 * The queues are -gpgpu_dram_partition_queues long. The slice takes a packet from the
 * network only while its icnt->L2 queue has room for four sector requests (else the network
 * waits: GPGPU-Sim's gpu_stall_dramfull). A write is acknowledged when the L2 absorbs it (a
 * hit, or a miss allocated without fetching in a write-back L2), else by the DRAM once
 * written through.
 *
 * The set index comes from the slice-local address (mem_internal.h: GPGPU-Sim's partition
 * address), the tag is the whole line address. A disabled L2 forwards everything to
 * DRAM and every DRAM reply back. */
#ifndef RFSIM_L2_H
#define RFSIM_L2_H

#include "mem_internal.h"

typedef struct l2_slice l2_slice;

/* `stats` is shared by all slices (summed). */
l2_slice *l2_create(const gpu_config *c, const addr_map *map, cache_stats *stats, rf_diag *d);
void l2_destroy(l2_slice *s);

/* Whether the slice takes a packet this cycle (room for four sector requests). */
int l2_can_take(const l2_slice *s);
/* Takes a packet at core cycle `core_now` (when split requests are created). */
void l2_take(l2_slice *s, const mem_req *packet, uint64_t core_now);
/* One L2 cycle `now`, in core cycle `core_now`. */
void l2_cycle(l2_slice *s, uint64_t now, uint64_t core_now);
/* Starts loading the heads of the queues l2_cycle reads (the ROP, icnt->L2, DRAM->L2), written
 * cycles ago, and the ROP's tail, where l2_take writes (see common/prefetch.h). */
void l2_prefetch(const l2_slice *s);
int l2_busy(const l2_slice *s);

/* Toward DRAM: the L2->DRAM queue. */
req_ring *l2_to_dram(l2_slice *s);
/* From DRAM: the DRAM->L2 queue. */
int l2_from_dram_full(const l2_slice *s);
void l2_from_dram(l2_slice *s, const mem_req *r);

/* Toward the SMs: the L2->icnt queue. */
req_ring *l2_replies(l2_slice *s);

#endif
