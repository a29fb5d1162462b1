/* Banked register file: bank mapping, per-bank read queues and port arbitration, write-port
 * claims (regfile.h says what is modelled). Per step the work is proportional to the banks
 * that have queued reads (a bit mask), not to all banks or warps. */
#include <stdlib.h>
#include <string.h>

#include "../mem/mem_ring.h"
#include "regfile.h"

typedef struct rf_req {
  uint16_t cu;
  uint8_t waited; /* already counted as a bank conflict */
} rf_req;

/* A bank's reads, made for as many as the collector units can ask for (never full). */
RING_DEFINE(rf_queue, rf_req)

struct rf_banks {
  int nbanks, use_warp_id, sub_core, nsched, banks_per_sched;
  /* the modulus of the bank mapping (banks_per_sched in the sub-core model, else nbanks) less
   * one when it is a power of two, else -1: most configs' are, and a mask is no division */
  int bank_mask;
  rf_queue *q;
  uint64_t pending;     /* bit i: bank i has queued reads */
  int queued;
  /* Write claims: a wheel of future cycles, each slot tagged with the cycle it holds. */
  uint64_t *wheel_mask, *wheel_cycle;
  uint64_t wheel_size;  /* power of two */
  rf_counters *cnt;
};

rf_banks *rf_banks_create(int nbanks, int use_warp_id, int sub_core, int nsched, int max_queued,
                          int max_write_ahead, rf_counters *cnt, rf_diag *d) {
  if (nbanks < 1 || nbanks > 64 || nsched < 1 || max_queued < 1 || max_write_ahead < 0) {
    rf_fail(d, "register file: expected 1..64 banks, >= 1 scheduler and queue, found %d banks, "
            "%d schedulers, queue %d", nbanks, nsched, max_queued);
    return NULL;
  }
  if (sub_core && nbanks % nsched != 0) {
    rf_fail(d, "-gpgpu_num_reg_banks %d: the sub-core model needs a multiple of the %d "
            "schedulers", nbanks, nsched);
    return NULL;
  }
  rf_banks *b = rf_calloc(1, sizeof *b, d);
  if (!b) return NULL;
  b->nbanks = nbanks;
  b->use_warp_id = use_warp_id;
  b->sub_core = sub_core;
  b->nsched = nsched;
  b->banks_per_sched = nbanks / nsched;
  int modulus = sub_core ? b->banks_per_sched : nbanks;
  b->bank_mask = (modulus & (modulus - 1)) == 0 ? modulus - 1 : -1;
  b->cnt = cnt;
  b->wheel_size = 8;
  while (b->wheel_size <= (uint64_t)max_write_ahead + 1) b->wheel_size *= 2;
  b->q = rf_calloc((size_t)nbanks, sizeof *b->q, d);
  b->wheel_mask = rf_calloc(b->wheel_size, sizeof *b->wheel_mask, d);
  b->wheel_cycle = rf_calloc(b->wheel_size, sizeof *b->wheel_cycle, d);
  if (!b->q || !b->wheel_mask || !b->wheel_cycle) {
    rf_banks_destroy(b);
    return NULL;
  }
  for (int i = 0; i < nbanks; i++) {
    if (rf_queue_init(&b->q[i], (uint32_t)max_queued, d)) {
      rf_banks_destroy(b);
      return NULL;
    }
  }
  for (uint64_t i = 0; i < b->wheel_size; i++) b->wheel_cycle[i] = UINT64_MAX;
  return b;
}

void rf_banks_destroy(rf_banks *b) {
  if (!b) return;
  for (int i = 0; b->q && i < b->nbanks; i++) rf_queue_free(&b->q[i]);
  free(b->q);
  free(b->wheel_mask);
  free(b->wheel_cycle);
  free(b);
}

int rf_bank_count(const rf_banks *b) { return b->nbanks; }
int rf_queued(const rf_banks *b) { return b->queued; }

int rf_bank_of(const rf_banks *b, int reg, int warp, int sched) {
  int bank = reg + (b->use_warp_id ? warp : 0);
  if (b->bank_mask >= 0) bank &= b->bank_mask;
  else bank %= b->sub_core ? b->banks_per_sched : b->nbanks;
  return b->sub_core ? bank + sched * b->banks_per_sched : bank;
}

static uint64_t writes_at(const rf_banks *b, uint64_t now) {
  uint64_t slot = now & (b->wheel_size - 1);
  return b->wheel_cycle[slot] == now ? b->wheel_mask[slot] : 0;
}

uint64_t rf_write_mask(const rf_banks *b, uint64_t now) { return writes_at(b, now); }

void rf_read_request(rf_banks *b, int bank, int cu) {
  rf_queue *q = &b->q[bank];
  /* The bank already has a read waiting: this one cannot be served in its first step. */
  uint8_t waited = q->count > 0;
  if (waited) b->cnt->bank_conflicts++;
  rf_queue_push(q, &(rf_req){(uint16_t)cu, waited});
  b->queued++;
  b->pending |= 1ull << bank;
}

void rf_write(rf_banks *b, const uint8_t *regs, int n, int warp, int sched, uint64_t at) {
  uint64_t slot = at & (b->wheel_size - 1);
  if (b->wheel_cycle[slot] != at) {
    b->wheel_cycle[slot] = at;
    b->wheel_mask[slot] = 0;
  }
  b->cnt->writes += (uint64_t)n;
  for (int i = 0; i < n; i++) {
    uint64_t bit = 1ull << rf_bank_of(b, regs[i], warp, sched);
    if (b->wheel_mask[slot] & bit) break; /* port taken this cycle: GPGPU-Sim drops the rest */
    b->wheel_mask[slot] |= bit;
  }
}

int rf_arbitrate(rf_banks *b, uint64_t now, int writes_block, uint16_t *served) {
  uint64_t blocked = writes_block ? writes_at(b, now) : 0;
  int n = 0;
  for (uint64_t m = b->pending; m; m &= m - 1) {
    int bank = __builtin_ctzll(m);
    rf_queue *q = &b->q[bank];
    rf_req *head = rf_queue_head(q);
    if (blocked & (1ull << bank)) {
      if (!head->waited) {
        head->waited = 1;
        b->cnt->bank_conflicts++;
      }
      continue;
    }
    served[n++] = head->cu;
    rf_queue_pop(q);
    b->queued--;
    b->cnt->reads++;
    if (q->count == 0) b->pending &= ~(1ull << bank);
  }
  return n;
}
