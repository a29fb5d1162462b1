/* The memory partitions (GPGPU-Sim's memory_partition_unit): the L2 slices and the DRAM
 * channels, stepped by the memory system's cycle (memsys.c).
 *
 * Per DRAM cycle a channel returns its oldest completed read to its slice's DRAM->L2 queue (if
 * not full), runs a command cycle, and takes one request from its slices' L2->DRAM queues,
 * round robin after the slice served last, while that slice's DRAM->L2 queue is not full and a
 * credit is free: each slice has one of its own and shares -gpgpu_frfcfs_dram_sched_queue_size
 * + -gpgpu_dram_return_queue_size - (slices - 1) with the others (no limit when either size is
 * 0); a read's credit returns with its data, a write's when the DRAM takes it.
 *
 * A slice neither marked active (slice_active) nor offered a packet by the request network
 * has nothing to do in a cycle (an empty queue from the network takes, and its cycle returns at
 * once): the loops here pass it over without reading it. */
#include "memsys_internal.h"

static inline int slice_words(const memsys *m) { return (m->n_slices + 63) / 64; }
static inline int slice_is_active(const memsys *m, int s) {
  return (int)(m->slice_active[s >> 6] >> (s & 63) & 1);
}

/* (a slice with replies queued has work: its bit is set) */
void partitions_offer_replies(memsys *m) {
  for (int w = 0; w < slice_words(m); w++)
    for (uint64_t bits = m->slice_active[w]; bits; bits &= bits - 1) {
      int s = w * 64 + __builtin_ctzll(bits);
      req_ring *q = l2_replies(m->slices[s]);
      if (!q->count) continue;
      mem_req *r = req_ring_head(q);
      int bytes = mem_packet_bytes(&r->a, 0);
      if (!icnt_has_room(m->reply_net, s, bytes)) {
        m->stats.stall_icnt2sh++;
        continue;
      }
      r->t_ready = m->now; /* leaves for the SM: the icnt2sh latency starts */
      if (icnt_push(m->reply_net, s, r->a.sm / m->per_cluster, r, bytes)) continue;
      m->stats.icnt_reply_flits += (uint64_t)packet_flits(m, bytes);
      req_ring_pop(q);
    }
}

static int has_credit(const memsys *m, const dram_port *p, int sub) {
  return !p->own_used[sub] || !m->shared_credits || p->shared_used < m->shared_credits;
}

static void borrow(dram_port *p, int sub) {
  if (!p->own_used[sub]) p->own_used[sub] = 1;
  else p->shared_used++;
}

static void give_back(dram_port *p, int sub) {
  if (p->shared_used > 0) p->shared_used--;
  else p->own_used[sub] = 0;
}

static void channel_cycle(memsys *m, int ch, uint64_t t) {
  dram_channel *dc = m->chans[ch];
  dram_port *port = &m->ports[ch];
  mem_req r;
  uint32_t slice;
  if (dram_peek_return(dc, t, &r, &slice) && !l2_from_dram_full(m->slices[slice])) {
    l2_from_dram(m->slices[slice], &r);
    m->slice_active[slice >> 6] |= 1ull << (slice & 63);
    dram_pop_return(dc);
    give_back(port, (int)slice % m->n_sub);
  }
  dram_tick(dc, t);
  for (int k = 0; k < m->n_sub; k++) {
    int sub = port->last + 1 + k; /* last and k below n_sub */
    if (sub >= m->n_sub) sub -= m->n_sub;
    int s = ch * m->n_sub + sub;
    if (!slice_is_active(m, s)) continue; /* (its queue to DRAM is empty) */
    req_ring *q = l2_to_dram(m->slices[s]);
    if (!q->count || !has_credit(m, port, sub) || l2_from_dram_full(m->slices[s])) continue;
    if (!dram_can_accept(dc)) break;
    const mem_req *head = req_ring_head(q);
    if (dram_push(dc, head, addr_channel_local(&m->map, head->a.addr), (uint32_t)s, t)) break;
    int is_write = head->a.is_write && !head->a.is_atomic;
    if (!is_write || mem_wants_ack(&head->a)) borrow(port, sub); /* back with its reply */
    req_ring_pop(q);
    port->last = sub;
    break; /* one request per DRAM cycle */
  }
}

/* The slices with work or a packet at their network output, in order (any other one would
 * take nothing, its queue from the network being empty, and do nothing). */
void partitions_l2_cycle(memsys *m, uint64_t t) {
  const uint64_t *offered = icnt_holding(m->req_net);
  for (int w = 0; w < slice_words(m); w++)
    for (uint64_t bits = m->slice_active[w] | offered[w]; bits; bits &= bits - 1) {
      int s = w * 64 + __builtin_ctzll(bits);
      l2_slice *sl = m->slices[s];
      if (!l2_can_take(sl)) {
        m->stats.stall_dramfull++;
      } else {
        mem_req r;
        if (icnt_peek(m->req_net, s, &r)) {
          icnt_pop(m->req_net, s);
          m->stats.icnt2mem_latency += m->now - r.t_created;
          l2_take(sl, &r, m->now);
        }
      }
      l2_cycle(sl, t, m->now);
      if (l2_busy(sl)) m->slice_active[w] |= 1ull << (s & 63);
      else m->slice_active[w] &= ~(1ull << (s & 63));
    }
}

void partitions_dram_cycle(memsys *m, uint64_t t) {
  for (int ch = 0; ch < m->n_mem; ch++) channel_cycle(m, ch, t);
}

void partitions_prefetch(const memsys *m) {
  const uint64_t *offered = icnt_holding(m->req_net);
  for (int w = 0; w < slice_words(m); w++)
    for (uint64_t bits = m->slice_active[w] | offered[w]; bits; bits &= bits - 1)
      l2_prefetch(m->slices[w * 64 + __builtin_ctzll(bits)]);
}

int partitions_busy(const memsys *m) {
  for (int w = 0; w < slice_words(m); w++)
    for (uint64_t bits = m->slice_active[w]; bits; bits &= bits - 1)
      if (l2_busy(m->slices[w * 64 + __builtin_ctzll(bits)])) return 1;
  for (int ch = 0; ch < m->n_mem; ch++)
    if (dram_busy(m->chans[ch])) return 1;
  return 0;
}
