/* One direction of the interconnect (requests cluster -> L2 slice, or replies slice ->
 * cluster): an input-queued crossbar, in the two forms GPGPU-Sim offers (-network_mode).
 *
 * Both: each input is one FIFO; only its head packet competes, for the one output it goes to,
 * so a head waiting for a busy output blocks everything behind it. Each cycle every output
 * grants one requesting input, round robin from the input after the one it granted last
 * (iSLIP with one iteration: with one queue per input, request, grant and accept coincide);
 * -icnt_arbiter_algo 0 instead scans the inputs once from a pointer that moves every cycle,
 * each output taking the first head that asks for it.
 *
 * Local crossbar (-network_mode 2): packets are the unit. An input holds
 * -icnt_in_buffer_limit packets, an output -icnt_out_buffer_limit; a granted head moves to its
 * output's buffer in one cycle, where the receiver takes it.
 *
 * BookSim mode (-network_mode 1, GPGPU-Sim's one-router butterfly): packets are
 * ceil(bytes / -icnt_flit_size) flits. An input is an injection queue of
 * -rfsim_icnt_input_buffer flits (what the sender checks for room) feeding, one flit a cycle,
 * the router's input buffer of -rfsim_icnt_vc_buffer flits. The switch runs
 * -rfsim_icnt_speedup allocation rounds a cycle, one flit per input and output each round; a
 * packet holds its output until its last flit has crossed (wormhole). Crossed flits wait in
 * the output's ejection buffer (-rfsim_icnt_ejection_buffer flits: the switch's credits) and
 * move, one a cycle, into the boundary buffer (-rfsim_icnt_boundary_buffer flits) the
 * receiver takes whole packets from. A flit reaches the boundary buffer -rfsim_icnt_latency
 * cycles after it was pushed, at the earliest (the channels and the router's pipeline). */
#ifndef RFSIM_ICNT_H
#define RFSIM_ICNT_H

#include "mem_internal.h"

typedef struct icnt_params {
  int n_in, n_out;
  int packet_mode;  /* local crossbar: every packet is one unit, no router pipeline */
  int flit_bytes;
  int in_cap;       /* units an input holds (BookSim: the injection queue, flits) */
  int vc_cap;       /* BookSim: router input buffer, flits */
  int eject_cap;    /* BookSim: ejection buffer, flits */
  int out_cap;      /* units an output's receiver-side buffer holds */
  int latency;      /* BookSim: zero-load cycles from push to the boundary buffer */
  int speedup;      /* allocation rounds per cycle */
  int islip;        /* 1: iSLIP, 0: round robin */
} icnt_params;

typedef struct icnt icnt;

icnt *icnt_create(const icnt_params *p, const char *what, rf_diag *d);
void icnt_destroy(icnt *n);
/* Units a packet of `bytes` takes (flits, or 1 in packet mode). */
int icnt_units(const icnt *n, int bytes);
/* Whether input `src` can take a packet of `bytes` now. */
int icnt_has_room(const icnt *n, int src, int bytes);
/* The same after `queued` more units (icnt_units of packets not pushed yet) entered it first. */
int icnt_has_room_after(const icnt *n, int src, int bytes, int queued);
/* Pushes a packet (the caller checked icnt_has_room); -1 for a bad port or out of memory. */
int icnt_push(icnt *n, int src, int dst, const mem_req *r, int bytes);
/* icnt_push in two parts, so that senders on different inputs may push at the same time: the
 * packet into the input's own queue (returning the units it takes, or -1), then, with no other
 * call on the network in between but pushes to other inputs and takes at the outputs,
 * icnt_push_settle with the packets and units pushed to that input since the last settle (its
 * count of units, the arbitration's requests, the network's count). Until then the input's
 * room does not count them: a sender asks icnt_has_room_after with them queued. So a sender
 * writes only its input's queue, and reads counts that only the network's cycle and the
 * settles write: on another core they stay in its cache while the senders push. */
int icnt_push_input(icnt *n, int src, int dst, const mem_req *r, int bytes);
void icnt_push_settle(icnt *n, int src, int pushed, int units);
/* The whole packet at the head of output `dst`'s buffer, or 0. */
int icnt_peek(const icnt *n, int dst, mem_req *out);
void icnt_pop(icnt *n, int dst);
/* One icnt cycle. */
void icnt_cycle(icnt *n, uint64_t now);
uint64_t icnt_count(const icnt *n); /* packets anywhere in this network */
/* Starts loading the packet at the head of each output's buffer, which its receiver reads
 * next (see common/prefetch.h). */
void icnt_prefetch_outputs(const icnt *n);
/* Bit o (of word o / 64): output o's buffer holds a unit (its head may not be whole yet). */
const uint64_t *icnt_holding(const icnt *n);

#endif
