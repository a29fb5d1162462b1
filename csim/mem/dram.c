#include "dram.h"

#include <string.h>

typedef struct dram_req {
  mem_access a;
  uint64_t t_created;
  uint64_t row, seq, t_done;
  uint32_t bank, tag;
  int32_t next; /* next request queued to the same bank, in arrival order; -1 ends */
} dram_req;

typedef struct dram_bank {
  _Alignas(64) int64_t open_row; /* -1: precharged */
  int32_t cur;        /* slot bound to this bank, -1 if idle */
  int32_t head, tail; /* queued requests to this bank */
  /* What the command scan (issue) reads of the bound request, copied here at bind: the scan
   * looks at every bound bank, and the requests' slots were a cache miss of the host each. */
  uint8_t cur_write;   /* a write (not an atomic): WL, tWR and tCDLR apply */
  uint8_t cur_returns; /* goes to the return queue, which must have room */
  uint64_t t_act_ok, t_col_ok, t_pre_ok;
  uint64_t cur_row, cur_seq;
} dram_bank;
_Static_assert(sizeof(dram_bank) == 64, "a bank is one cache line");

RING_DEFINE(dram_ret_ring, dram_req)

/* -gpgpu_frfcfs_dram_sched_queue_size 0 means unlimited; this is far beyond what the L2 miss
 * queues in front of a channel can hold in flight, so it never binds in practice. */
#define UNLIMITED_QUEUE 1024
#define MAX_BANKS 64

struct dram_channel {
  dram_timing t;
  int nbk, latency, fr_fcfs;
  uint64_t row_bytes;
  uint32_t burst_bytes, burst_cycles;
  dram_req *slots; /* queued and bound requests */
  int32_t *free_list;
  int nfree, qcap, nqueued;
  dram_bank *banks;
  uint64_t bound_mask, queued_mask; /* banks with a bound request / with queued requests */
  uint64_t seq;
  uint64_t t_rrd_ok, t_ccd_ok, bus_free, t_wtr_ok;
  /* While the bound requests stay the same and none is issued: the first cycle at which one of
   * them may take a command (the timing constraints only expire), UINT64_MAX if none can
   * before the return queue has room, 0 when not known. A memory-bound channel otherwise
   * scans its banks every cycle to find that nothing is ready. */
  uint64_t wait_until;
  dram_ret_ring ret; /* reads issued, in data order (which is completion order) */
  dram_stats *stats;
};

static int check_timing(const gpu_config *c, rf_diag *d) {
  const dram_timing *t = &c->dram;
  const int v[] = {t->tCCD, t->tRRD, t->tRCD, t->tRAS, t->tRP, t->tRC, t->CL, t->WL, t->tCDLR,
                   t->tWR, t->tRTPL};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    if (v[i] < 0 || v[i] > 100000)
      return rf_fail(d, "DRAM: expected timing parameters in 0..100000 cycles, found %d", v[i]);
  if (t->nbk < 1 || t->nbk > MAX_BANKS)
    return rf_fail(d, "DRAM: expected 1..%d banks, found %d", MAX_BANKS, t->nbk);
  if (c->dram_row_bytes < MEM_SECTOR_BYTES)
    return rf_fail(d, "DRAM: expected a row of at least %d bytes, found %d", MEM_SECTOR_BYTES,
                   c->dram_row_bytes);
  if (c->dram_buswidth < 1 || c->dram_burst_length < 1 || c->dram_data_command_freq_ratio < 1)
    return rf_fail(d, "DRAM: expected bus width, burst length and data/command ratio >= 1, "
                      "found %d, %d, %d",
                   c->dram_buswidth, c->dram_burst_length, c->dram_data_command_freq_ratio);
  if (c->dram_latency < 0 || c->dram_sched_queue_size < 0)
    return rf_fail(d, "DRAM: expected latency and queue size >= 0, found %d and %d",
                   c->dram_latency, c->dram_sched_queue_size);
  return 0;
}

dram_channel *dram_create(const gpu_config *c, dram_stats *stats, rf_diag *d) {
  if (check_timing(c, d)) return NULL;
  dram_channel *ch = rf_calloc(1, sizeof *ch, d);
  if (!ch) return NULL;
  ch->t = c->dram;
  ch->nbk = c->dram.nbk;
  /* GPGPU-Sim counts -dram_latency in core cycles (its DRAM latency queue is stamped with the
   * core clock): the same time in this channel's command clock. */
  ch->latency = c->clk_core > 0 ? (int)((double)c->dram_latency * c->clk_dram / c->clk_core + 0.5)
                                : c->dram_latency;
  ch->fr_fcfs = c->dram_scheduler != 0;
  ch->row_bytes = (uint64_t)c->dram_row_bytes;
  ch->burst_bytes = (uint32_t)c->dram_buswidth * (uint32_t)c->dram_burst_length;
  ch->burst_cycles = (uint32_t)((c->dram_burst_length + c->dram_data_command_freq_ratio - 1) /
                                c->dram_data_command_freq_ratio);
  ch->qcap = c->dram_sched_queue_size ? c->dram_sched_queue_size : UNLIMITED_QUEUE;
  ch->stats = stats;
  int nslots = ch->qcap + ch->nbk;
  int ok = (ch->slots = rf_calloc((size_t)nslots, sizeof *ch->slots, d)) &&
           (ch->free_list = rf_calloc((size_t)nslots, sizeof *ch->free_list, d)) &&
           (ch->banks = rf_calloc_lines((size_t)ch->nbk, sizeof *ch->banks, d)) &&
           !dram_ret_ring_init(&ch->ret, 2u * (uint32_t)ch->nbk + 8u, d);
  if (!ok) {
    dram_destroy(ch);
    return NULL;
  }
  for (int i = 0; i < nslots; i++) ch->free_list[i] = nslots - 1 - i;
  ch->nfree = nslots;
  for (int b = 0; b < ch->nbk; b++) {
    ch->banks[b].open_row = -1;
    ch->banks[b].cur = ch->banks[b].head = ch->banks[b].tail = -1;
  }
  return ch;
}

void dram_destroy(dram_channel *ch) {
  if (!ch) return;
  free(ch->slots);
  free(ch->free_list);
  free(ch->banks);
  dram_ret_ring_free(&ch->ret);
  free(ch);
}

void dram_decode(const dram_channel *ch, uint64_t local, uint32_t *bank, uint64_t *row) {
  uint64_t r = local / ch->row_bytes;
  *bank = (uint32_t)(r % (uint64_t)ch->nbk);
  *row = r / (uint64_t)ch->nbk;
}

int dram_can_accept(const dram_channel *ch) { return ch->nqueued < ch->qcap; }

int dram_push(dram_channel *ch, const mem_req *q, uint64_t local, uint32_t tag, uint64_t now) {
  (void)now;
  if (!dram_can_accept(ch) || !ch->nfree) return -1;
  int32_t s = ch->free_list[--ch->nfree];
  dram_req *r = &ch->slots[s];
  memset(r, 0, sizeof *r);
  r->a = q->a;
  r->t_created = q->t_created;
  r->tag = tag;
  r->seq = ch->seq++;
  r->next = -1;
  dram_decode(ch, local, &r->bank, &r->row);
  dram_bank *b = &ch->banks[r->bank];
  if (b->tail >= 0) ch->slots[b->tail].next = s;
  else b->head = s;
  b->tail = s;
  ch->queued_mask |= 1ULL << r->bank;
  ch->nqueued++;
  return 0;
}

/* Takes slot s (whose predecessor in the bank list is prev, or -1) out of the queue and binds it
 * to its idle bank. */
static void bind(dram_channel *ch, int bank, int32_t prev, int32_t s) {
  dram_bank *b = &ch->banks[bank];
  dram_req *r = &ch->slots[s];
  if (prev >= 0) ch->slots[prev].next = r->next;
  else b->head = r->next;
  if (b->tail == s) b->tail = prev;
  if (b->head < 0) ch->queued_mask &= ~(1ULL << bank);
  ch->nqueued--;
  b->cur = s;
  b->cur_write = r->a.is_write && !r->a.is_atomic;
  b->cur_returns = !b->cur_write || mem_wants_ack(&r->a);
  b->cur_row = r->row;
  b->cur_seq = r->seq;
  ch->bound_mask |= 1ULL << bank;
  ch->wait_until = 0;
  if (b->open_row == (int64_t)r->row) ch->stats->row_hits++;
  else ch->stats->row_misses++;
}

static void bind_fr_fcfs(dram_channel *ch) {
  for (uint64_t m = ch->queued_mask & ~ch->bound_mask; m; m &= m - 1) {
    int bank = __builtin_ctzll(m);
    dram_bank *b = &ch->banks[bank];
    int32_t prev = -1, pick = b->head, pick_prev = -1;
    for (int32_t s = b->head; s >= 0; prev = s, s = ch->slots[s].next) {
      if ((int64_t)ch->slots[s].row == b->open_row) {
        pick = s;
        pick_prev = prev;
        break;
      }
    }
    bind(ch, bank, pick_prev, pick);
  }
}

/* Strict arrival order: only the oldest queued request may bind, so a busy bank at the head
 * blocks everything behind it. */
static void bind_fifo(dram_channel *ch) {
  while (ch->queued_mask) {
    int oldest = -1;
    for (uint64_t m = ch->queued_mask; m; m &= m - 1) {
      int bank = __builtin_ctzll(m);
      if (oldest < 0 ||
          ch->slots[ch->banks[bank].head].seq < ch->slots[ch->banks[oldest].head].seq)
        oldest = bank;
    }
    if (ch->bound_mask >> oldest & 1) return;
    bind(ch, oldest, -1, ch->banks[oldest].head);
  }
}

static uint32_t bursts_of(const dram_channel *ch, const dram_req *r) {
  uint32_t bytes = (uint32_t)mem_popcount8(r->a.sector_mask) * MEM_SECTOR_BYTES;
  uint32_t n = (bytes + ch->burst_bytes - 1) / ch->burst_bytes;
  return n ? n : 1;
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The first cycle at which bank b's bound request may take its column command, as far as
 * the timing says; UINT64_MAX while the return queue it needs is full (a pop changes that). */
static uint64_t column_ready_at(const dram_channel *ch, const dram_bank *b) {
  int is_write = b->cur_write;
  if (b->cur_returns && dram_ret_ring_full(&ch->ret)) return UINT64_MAX;
  uint64_t at = max_u64(b->t_col_ok, ch->t_ccd_ok);
  uint64_t lead = (uint64_t)(is_write ? ch->t.WL : ch->t.CL); /* its data on the bus from then */
  if (ch->bus_free > lead) at = max_u64(at, ch->bus_free - lead);
  if (!is_write) at = max_u64(at, ch->t_wtr_ok);
  return at;
}

/* The first cycle at which bank b (its bound request to another row) may take its PRE, or its
 * ACT once precharged. */
static uint64_t row_ready_at(const dram_channel *ch, const dram_bank *b) {
  return b->open_row >= 0 ? b->t_pre_ok : max_u64(b->t_act_ok, ch->t_rrd_ok);
}

static void issue_column(dram_channel *ch, int bank, uint64_t now) {
  dram_bank *b = &ch->banks[bank];
  int32_t s = b->cur;
  dram_req *r = &ch->slots[s];
  int is_write = b->cur_write;
  uint32_t bursts = bursts_of(ch, r);
  uint64_t dur = (uint64_t)bursts * ch->burst_cycles;
  uint64_t data_end = now + (uint64_t)(is_write ? ch->t.WL : ch->t.CL) + dur;
  ch->bus_free = data_end;
  ch->stats->busy_cycles += dur;
  ch->t_ccd_ok = now + (uint64_t)bursts * (uint64_t)(ch->t.tCCD > 0 ? ch->t.tCCD : 1);
  if (is_write) {
    b->t_pre_ok = max_u64(b->t_pre_ok, data_end + (uint64_t)ch->t.tWR);
    ch->t_wtr_ok = data_end + (uint64_t)ch->t.tCDLR;
    ch->stats->writes++;
    if (b->cur_returns) { /* acknowledged once written (GPGPU-Sim's DRAM replies) */
      r->t_done = data_end;
      dram_ret_ring_push(&ch->ret, r);
    }
  } else {
    b->t_pre_ok = max_u64(b->t_pre_ok, now + max_u64((uint64_t)ch->t.tRTPL, dur));
    r->t_done = data_end + (uint64_t)ch->latency;
    dram_ret_ring_push(&ch->ret, r);
    ch->stats->reads++;
  }
  b->cur = -1;
  ch->bound_mask &= ~(1ULL << bank);
  ch->free_list[ch->nfree++] = s;
}

/* One command: the oldest bound request that can take a column command, else the oldest that
 * can take its PRE or ACT. With none, notes when the first can (wait_until). */
static void issue(dram_channel *ch, uint64_t now) {
  int col = -1, row = -1;
  uint64_t col_seq = UINT64_MAX, row_seq = UINT64_MAX, first_ready = UINT64_MAX;
  for (uint64_t m = ch->bound_mask; m; m &= m - 1) {
    int bank = __builtin_ctzll(m);
    const dram_bank *b = &ch->banks[bank];
    int is_col = b->open_row == (int64_t)b->cur_row;
    uint64_t at = is_col ? column_ready_at(ch, b) : row_ready_at(ch, b);
    if (at > now) {
      if (at < first_ready) first_ready = at;
    } else if (is_col && b->cur_seq < col_seq) {
      col = bank;
      col_seq = b->cur_seq;
    } else if (!is_col && b->cur_seq < row_seq) {
      row = bank;
      row_seq = b->cur_seq;
    }
  }
  ch->wait_until = col < 0 && row < 0 ? first_ready : 0;
  if (col >= 0) {
    issue_column(ch, col, now);
  } else if (row >= 0) {
    dram_bank *b = &ch->banks[row];
    if (b->open_row >= 0) { /* PRE */
      b->open_row = -1;
      b->t_act_ok = max_u64(b->t_act_ok, now + (uint64_t)ch->t.tRP);
    } else { /* ACT */
      b->open_row = (int64_t)b->cur_row;
      b->t_col_ok = now + (uint64_t)ch->t.tRCD;
      b->t_pre_ok = now + (uint64_t)ch->t.tRAS;
      b->t_act_ok = now + (uint64_t)ch->t.tRC;
      ch->t_rrd_ok = now + (uint64_t)ch->t.tRRD;
    }
  }
}

void dram_tick(dram_channel *ch, uint64_t now) {
  if (!ch->nqueued && !ch->bound_mask) return;
  if (ch->fr_fcfs) bind_fr_fcfs(ch);
  else bind_fifo(ch);
  if (ch->bound_mask && now >= ch->wait_until) issue(ch, now);
}

int dram_peek_return(const dram_channel *ch, uint64_t now, mem_req *q, uint32_t *tag) {
  if (!ch->ret.count) return 0;
  const dram_req *r = dram_ret_ring_head(&ch->ret);
  if (r->t_done > now) return 0;
  q->a = r->a;
  q->t_created = r->t_created;
  q->t_ready = r->t_done;
  *tag = r->tag;
  return 1;
}

void dram_pop_return(dram_channel *ch) {
  if (!ch->ret.count) return;
  dram_ret_ring_pop(&ch->ret);
  ch->wait_until = 0; /* a request held by the full queue may go now */
}

int dram_busy(const dram_channel *ch) {
  return ch->nqueued || ch->bound_mask || ch->ret.count;
}
