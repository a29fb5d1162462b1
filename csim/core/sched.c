/* Warp schedulers: which order each scheduler tries its warps in this cycle.
 * Warps go to scheduler (slot % num_sched), as in GPGPU-Sim; each scheduler keeps its warps
 * oldest first, so GTO's "oldest" is the list order and LRR rotates over the same list. */
#include <stdlib.h>
#include <string.h>

#include "sm_internal.h"

int sched_init(sm *s, rf_diag *d) {
  int nq = s->cfg->num_sched_per_core;
  s->scheds = rf_calloc((size_t)nq, sizeof *s->scheds, d);
  if (!s->scheds) return -1;
  for (int q = 0; q < nq; q++) {
    s->scheds[q].warps = rf_calloc((size_t)s->n_warp_slots, sizeof(int), d);
    s->scheds[q].active = rf_calloc((size_t)s->n_warp_slots, sizeof(int), d);
    if (!s->scheds[q].warps || !s->scheds[q].active) return -1;
    s->scheds[q].last_issued = -1;
  }
  return 0;
}

void sched_free(sm *s) {
  if (!s->scheds) return;
  for (int q = 0; q < s->cfg->num_sched_per_core; q++) {
    free(s->scheds[q].warps);
    free(s->scheds[q].active);
  }
  free(s->scheds);
  s->scheds = NULL;
}

static sm_sched *sched_of(sm *s, int slot) {
  return &s->scheds[slot % s->cfg->num_sched_per_core];
}

/* New warps are the youngest, so appending keeps the list in age order. */
void sched_add_warp(sm *s, int slot) {
  sm_sched *q = sched_of(s, slot);
  q->warps[q->n++] = slot;
}

static int remove_from(int *list, int *n, int slot) {
  for (int i = 0; i < *n; i++)
    if (list[i] == slot) {
      memmove(list + i, list + i + 1, (size_t)(*n - i - 1) * sizeof *list);
      (*n)--;
      return i;
    }
  return -1;
}

void sched_remove_warp(sm *s, int slot) {
  sm_sched *q = sched_of(s, slot);
  int pos = remove_from(q->warps, &q->n, slot);
  if (pos >= 0 && pos < q->rr_next) q->rr_next--;
  if (q->n == 0 || q->rr_next >= q->n) q->rr_next = 0;
  remove_from(q->active, &q->n_active, slot);
  if (q->last_issued == slot) q->last_issued = -1;
}

/* Two-level: a warp whose next instruction waits on a load, a barrier or has exited leaves the
 * active set; the oldest pending warps not in such a wait refill it. */
static int long_wait(const sm *s, int slot) {
  const sm_warp *w = &s->warps[slot];
  if (!w->live || w->exited || w->barrier >= 0 || w->pc >= w->tw->n) return 1;
  const trace_inst *in = &w->tw->insts[w->pc];
  for (int i = 0; i < in->nsrc; i++)
    if (w->reg_ready[in->src[i]] == REG_WAITS_ON_MEMORY) return 1;
  for (int i = 0; i < in->ndst; i++)
    if (w->reg_ready[in->dst[i]] == REG_WAITS_ON_MEMORY) return 1;
  return 0;
}

static int in_list(const int *list, int n, int slot) {
  for (int i = 0; i < n; i++)
    if (list[i] == slot) return 1;
  return 0;
}

/* A warp the policy holds (a register or scratchpad lock whose owner must run first) gives its
 * active slot to any other pending warp that is not in a long wait: an active set full of held
 * warps would otherwise keep out the warps they wait for (register sharing under two-level
 * scheduling). Warps that can issue refill first, oldest first; held warps then take the room
 * left in turn (held_next), so each is asked again and none is kept out for good. */
/* Pending warps (not in the active set) that are not in a long wait. */
static int count_pending(const sm *s, const sm_sched *q) {
  int pending = 0;
  for (int i = 0; i < q->n; i++)
    if (!long_wait(s, q->warps[i]) && !in_list(q->active, q->n_active, q->warps[i])) pending++;
  return pending;
}

static void refresh_active_set(sm *s, sm_sched *q) {
  int limit = s->cfg->two_level_active > 0 ? s->cfg->two_level_active : 1;
  /* counted only when an active warp is held: this runs for every scheduler every cycle */
  int pending = 0;
  for (int i = 0; i < q->n_active; i++)
    if (s->warps[q->active[i]].policy_held) {
      pending = count_pending(s, q);
      break;
    }
  int keep = 0;
  for (int i = 0; i < q->n_active; i++) {
    int slot = q->active[i];
    if (long_wait(s, slot)) continue;
    if (s->warps[slot].policy_held && pending > 0) { pending--; continue; }
    q->active[keep++] = slot;
  }
  q->n_active = keep;
  for (int i = 0; i < q->n && q->n_active < limit; i++) {
    int slot = q->warps[i];
    if (!s->warps[slot].policy_held && !long_wait(s, slot) &&
        !in_list(q->active, q->n_active, slot))
      q->active[q->n_active++] = slot;
  }
  for (int k = 0; k < q->n && q->n_active < limit; k++) {
    if (q->held_next >= q->n) q->held_next = 0;
    int slot = q->warps[q->held_next++];
    if (s->warps[slot].policy_held && !long_wait(s, slot) &&
        !in_list(q->active, q->n_active, slot))
      q->active[q->n_active++] = slot;
  }
}

/* list[start..n) then list[0..start): two copies, no division per element (this runs for
 * every scheduler every cycle). */
static int rotate(const int *list, int n, int start, int *order) {
  if (n <= 0) return 0;
  start %= n;
  memcpy(order, list + start, (size_t)(n - start) * sizeof *order);
  memcpy(order + (n - start), list, (size_t)start * sizeof *order);
  return n;
}

static int base_order(sm *s, sm_sched *q, int *order);

/* A policy's warp classes (e.g. owner-warp-first) go first, lowest class first; within a class
 * the base scheduler's order is kept (a stable counting sort). */
#define SCHED_MAX_CLASSES 8
int sched_order(sm *s, int sched, uint64_t now, int *order) {
  (void)now;
  sm_sched *q = &s->scheds[sched];
  int n = base_order(s, q, order);
  int nclass = s->pol->warp_priorities;
  if (nclass <= 1 || n <= 1 || !s->pol->ops->warp_priority) return n;
  if (nclass > SCHED_MAX_CLASSES) nclass = SCHED_MAX_CLASSES;
  int count[SCHED_MAX_CLASSES + 1] = {0};
  int *cls = s->order_tmp;
  for (int i = 0; i < n; i++) {
    int c = s->pol->ops->warp_priority(s->pol, s->id, order[i]);
    cls[i] = c < 0 ? 0 : c >= nclass ? nclass - 1 : c;
    count[cls[i] + 1]++;
  }
  for (int c = 1; c <= nclass; c++) count[c] += count[c - 1];
  int *sorted = s->order_tmp + n;
  for (int i = 0; i < n; i++) sorted[count[cls[i]]++] = order[i];
  memcpy(order, sorted, (size_t)n * sizeof *order);
  return n;
}

static int base_order(sm *s, sm_sched *q, int *order) {
  switch (s->cfg->scheduler) {
    case SCHED_GTO: {
      int n = 0;
      if (q->last_issued >= 0) order[n++] = q->last_issued;
      for (int i = 0; i < q->n; i++)
        if (q->warps[i] != q->last_issued) order[n++] = q->warps[i];
      return n;
    }
    case SCHED_TWO_LEVEL:
      refresh_active_set(s, q);
      if (q->rr_next >= q->n_active) q->rr_next = 0;
      return rotate(q->active, q->n_active, q->rr_next, order);
    case SCHED_LRR:
    default:
      return rotate(q->warps, q->n, q->n ? q->rr_next % q->n : 0, order);
  }
}

void sched_issued(sm *s, int sched, int slot) {
  sm_sched *q = &s->scheds[sched];
  q->last_issued = s->warps[slot].live ? slot : -1;
  /* GTO orders by age and the last issued warp only: the rotation point is never read. */
  if (s->cfg->scheduler == SCHED_GTO) return;
  const int *list = s->cfg->scheduler == SCHED_TWO_LEVEL ? q->active : q->warps;
  int n = s->cfg->scheduler == SCHED_TWO_LEVEL ? q->n_active : q->n;
  /* A slot appears once in the list; the warp that issued is usually a few places after
   * rr_next (where this cycle's order started), so the search starts there. */
  int i = q->rr_next < n ? q->rr_next : 0;
  for (int k = 0; k < n; k++, i = i + 1 == n ? 0 : i + 1)
    if (list[i] == slot) {
      q->rr_next = i + 1 == n ? 0 : i + 1;
      return;
    }
}
