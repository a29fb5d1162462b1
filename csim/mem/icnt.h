/* One direction of the interconnect (requests SM -> L2 slice, or replies slice -> SM): a
 * crossbar with an injection queue per source port, a fixed wire latency, and a bandwidth of
 * one flit per port per icnt cycle at both ends.
 *
 * A packet of k flits holds its source port for k cycles, then flies `latency` cycles, then
 * needs its destination port free (each ejection holds the port for k cycles) and the
 * receiver's consent (the accept callback, which models the receiver's input buffer). Zero-load
 * delay from injection to delivery is therefore k - 1 + latency icnt cycles (the last flit
 * leaves in the k-th cycle and arrives `latency` cycles later). */
#ifndef RFSIM_ICNT_H
#define RFSIM_ICNT_H

#include "mem_internal.h"

typedef struct icnt_packet {
  mem_req r;
  uint32_t dst;
  uint16_t flits;
  uint16_t sent_flits; /* flits already serialised at the source */
} icnt_packet;

/* Returns 1 if the receiver took the request (copying it), 0 to leave it in the network. */
typedef int (*icnt_accept_fn)(void *ctx, uint32_t dst, const mem_req *r);

typedef struct icnt icnt;

icnt *icnt_create(int n_src, int n_dst, int src_queue, int latency, icnt_accept_fn accept,
                  void *ctx, const char *what, rf_diag *d);
void icnt_destroy(icnt *n);
int icnt_can_inject(const icnt *n, int src);
/* Caller checks icnt_can_inject (past it the queue grows). r->t_ready is overwritten by the
 * network. Returns -1 for a bad port or when out of memory. */
int icnt_inject(icnt *n, int src, int dst, const mem_req *r, int flits);
/* One icnt cycle: deliveries first (they free buffer space), then source serialisation. */
void icnt_tick(icnt *n, uint64_t now);
uint64_t icnt_count(const icnt *n); /* packets anywhere in this network */

#endif
