/* One L2 slice (a memory sub-partition's cache), clocked by the L2 domain.
 *
 * Requests from the NoC enter the ROP queue and reach the tags l2_rop_latency L2 cycles later,
 * one tag access per cycle, in order (a stalled head blocks the queue, as in GPGPU-Sim). Hits
 * and released MSHR waiters become replies (at most one of each per cycle); misses, write-
 * throughs and write-backs go to the DRAM queue (the cache's miss queue); DRAM data returns
 * through the fill queue, one fill per cycle. Atomics are reads that also write: they reply
 * once the line is present and leave it dirty (in a write-back L2).
 *
 * Tags use the slice-local address (mem_internal.h). Requests carry the L1's line address and
 * sector mask; an L2 line at least as large as the L1's is required, and sectors are shifted
 * into the L2 line's frame. A disabled L2 forwards everything to DRAM, tracking reads in a
 * table of pseudo-MSHRs (one per request). */
#ifndef RFSIM_L2_H
#define RFSIM_L2_H

#include "mem_internal.h"

typedef struct l2_slice l2_slice;

/* `stats` is shared by all slices (summed); `live` is the memory system's count of work items,
 * adjusted when the slice creates (fetches, write-backs) or retires (absorbed writes, consumed
 * fills) one. */
l2_slice *l2_create(const gpu_config *c, const addr_map *map, cache_stats *stats, int64_t *live,
                    rf_diag *d);
void l2_destroy(l2_slice *s);

int l2_can_accept(const l2_slice *s);
void l2_accept(l2_slice *s, const mem_req *r, uint64_t now);
void l2_tick(l2_slice *s, uint64_t now);
int l2_busy(const l2_slice *s);

/* Toward DRAM. */
access_ring *l2_dram_queue(l2_slice *s);
/* From DRAM: a completed read (token as sent). */
int l2_can_fill(const l2_slice *s);
void l2_fill(l2_slice *s, const mem_access *a);

/* Toward the SMs. */
req_ring *l2_replies(l2_slice *s);

#endif
