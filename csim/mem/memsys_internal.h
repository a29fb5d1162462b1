/* The memory system's state, shared by memsys.c (the clusters' ports, the networks, the clocks)
 * and partitions.c (the L2 slices and DRAM channels). Not part of the simulator's API (mem.h). */
#ifndef RFSIM_MEMSYS_INTERNAL_H
#define RFSIM_MEMSYS_INTERNAL_H

#include <stdint.h>

#include "dram.h"
#include "icnt.h"
#include "l2.h"

typedef struct clock_domain {
  uint64_t num, den; /* f_domain / f_core, reduced */
  uint64_t target;   /* floor(now * num / den): cycles due by the current core cycle */
  uint64_t rem;      /* (now * num) mod den, so the next target needs no division */
  uint64_t done;     /* cycles run */
} clock_domain;

/* DRAM arbitration state of one channel. */
typedef struct dram_port {
  int last;          /* slice (within the channel) served last */
  int shared_used;   /* shared credits borrowed */
  int *own_used;     /* per slice: its own credit borrowed (0 or 1) */
} dram_port;

/* What an SM asked of the memory system while its cluster was stepped in parallel with others
 * (memsys_defer): a request to inject, or (send 0) an address whose slice is drawn now. */
typedef struct deferred_op {
  mem_access a;
  uint64_t created;
  int send;
} deferred_op;

/* What a cluster's SMs sent while deferring: pushed into the request network, not settled
 * (packets, their units and flits), and logged (staged: the units of logged sends), both
 * counted against the cluster's room in the network. Written only by the thread stepping the
 * cluster, each on a cache line of its own. */
typedef struct cluster_sent {
  _Alignas(64) int packets;
  int units;
  int staged;
  uint64_t flits;
} cluster_sent;

typedef struct op_log {
  deferred_op *ops;
  size_t n, cap;
  int failed;         /* could not grow: memsys_defer(0) reports it */
} op_log;

struct memsys {
  /* What the SMs read while they step in parallel (memsys_defer): set up at the start, or
   * written only between their steps; the part the memory system's own cycle writes starts on
   * a line of its own (below), so that those writes, made while other threads step SMs
   * (memsys_cycle_end, memsys_cycle_ahead), do not take these lines from their caches. */
  int n_sms, per_cluster, n_clusters, n_mem, n_sub, n_slices;
  int shared_credits; /* 0: unlimited */
  int perf_memcpy;     /* -gpgpu_perf_sim_memcpy */
  /* memsys_defer: while set, a send goes into its cluster's network input at once, the
   * network's shared state settled afterwards (sent). With random slices (indexing 4), whose
   * draws must come in the order one thread makes them, sends and touches of granules without
   * a draw go to per-SM logs instead (and the cluster's later sends, to keep their order), and
   * each cluster's network input counts the units its logged sends will take, so that
   * memsys_can_send answers as if they had been pushed. */
  int deferring;
  addr_map map;
  chunk_count flits;    /* of -icnt_flit_size (the flit statistics) */
  icnt *req_net, *reply_net;
  l2_slice **slices;
  /* Bit per slice that may have work (l2_busy): set where work enters it (a request taken from
   * the request network, data from DRAM), cleared when its cycle finds it idle. A slice with
   * neither its bit nor a packet at its network output does nothing in a cycle, and the loops
   * over slices pass it over without reading it (most slices, most cycles, on a large config). */
  uint64_t *slice_active;
  dram_channel **chans;
  dram_port *ports;
  req_ring *eject;    /* per cluster */
  uint64_t *ejecting; /* bit per cluster whose ejection buffer is not empty */
  req_ring *resp;     /* per SM: data replies for the LD/ST unit */
  access_ring *fetch; /* per SM: instruction-fetch replies */
  op_log *logs;       /* per SM */
  cluster_sent *sent; /* per cluster */
  /* What the memory system's cycle writes. */
  _Alignas(64) clock_domain icnt_clk;
  clock_domain l2_clk, dram_clk;
  uint64_t now;
  int busy;           /* something may be in flight (recomputed each cycle, set by sends) */
  uint64_t ahead;     /* 1 + the cycle whose first part memsys_cycle_ahead ran, or 0 */
  /* memsys_cycle_begin: the reply network's cycles from icnt cycle reply_from + 1 to the icnt
   * clock's target are left to memsys_cycle_end, with what the clusters' side (ejection
   * buffers, SMs' reply queues) held when the SMs' cycle began (whether it kept the memory
   * system busy; the SMs empty those queues meanwhile). */
  int reply_pending, near_busy;
  uint64_t reply_from;
  memsys_stats stats;
  /* -gpgpu_memory_partition_indexing 4 (map.random): read by the SMs, written by draws, which
   * are made between their steps; apart from the statistics, which are not */
  _Alignas(64) slice_table random;
};

/* Flits of a packet of `bytes` (the flit statistics). */
static inline int packet_flits(const memsys *m, int bytes) {
  return chunk_count_of(&m->flits, bytes);
}

/* partitions.c: the L2 slices and the DRAM channels, in the memory system's cycle. */
/* Icnt clock: each slice offers its oldest reply to the reply network. */
void partitions_offer_replies(memsys *m);
/* DRAM cycle t of every channel. */
void partitions_dram_cycle(memsys *m, uint64_t t);
/* L2 cycle t of every slice: each takes a request from the request network, then steps. */
void partitions_l2_cycle(memsys *m, uint64_t t);
/* Starts loading what the next L2 cycle reads first (its slices' queue heads). */
void partitions_prefetch(const memsys *m);
/* Whether a slice or a channel holds anything. */
int partitions_busy(const memsys *m);

#endif
