/* Warp schedulers: which order each scheduler tries its warps in this cycle.
 * Warps go to scheduler (slot % num_sched), as in GPGPU-Sim; each scheduler keeps its warps
 * oldest first, so GTO's "oldest" is the list order and LRR rotates over the same list.
 * Also the issue stage's memo masks (sm_internal.h), which follow the lists. */
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
    s->scheds[q].kept_stall = -1;
  }
  /* a bit per position in the longest list a scheduler can have */
  int words = s->memo_words = ((s->n_warp_slots + nq - 1) / nq + 63) / 64;
  for (int q = 0; q < nq; q++) {
    s->scheds[q].need = rf_calloc((size_t)words, sizeof(uint64_t), d);
    s->scheds[q].mask = rf_calloc((size_t)MEMO_MASKS * (size_t)words, sizeof(uint64_t), d);
    if (!s->scheds[q].need || !s->scheds[q].mask) return -1;
  }
  s->memo_scratch = rf_calloc(2 * (size_t)words, sizeof(uint64_t), d);
  if (!s->memo_scratch) return -1;
  if (s->class_epoch) {
    int nclass = s->pol->warp_priorities;
    s->n_classes = nclass > SCHED_MAX_CLASSES ? SCHED_MAX_CLASSES : nclass;
    s->class_seen = *s->class_epoch;
    for (int q = 0; q < nq; q++) {
      s->scheds[q].cls = rf_calloc((size_t)s->n_classes * (size_t)words, sizeof(uint64_t), d);
      if (!s->scheds[q].cls) return -1;
      s->scheds[q].cls_stale = 1;
    }
  }
  s->pos_of = rf_calloc((size_t)s->n_warp_slots, sizeof(int), d);
  s->slot_sched = rf_calloc((size_t)s->n_warp_slots, 1, d);
  if (!s->pos_of || !s->slot_sched) return -1;
  for (int slot = 0; slot < s->n_warp_slots; slot++) {
    s->pos_of[slot] = -1;
    s->slot_sched[slot] = (uint8_t)(slot % nq);
  }
  return 0;
}

void sched_free(sm *s) {
  if (!s->scheds) return;
  for (int q = 0; q < s->cfg->num_sched_per_core; q++) {
    free(s->scheds[q].warps);
    free(s->scheds[q].active);
    free(s->scheds[q].need);
    free(s->scheds[q].mask);
    free(s->scheds[q].cls);
  }
  free(s->scheds);
  s->scheds = NULL;
  free(s->memo_scratch);
  free(s->pos_of);
  free(s->slot_sched);
}

/* The memo masks follow the list: a warp leaving position p moves the bits above it down, a
 * warp entering at p moves them up (the list is shorter than the masks before it enters). */
static void masks_remove(sm *s, sm_sched *q, int p) {
  int words = s->memo_words;
  memo_forget(s, q);
  for (int k = 0; k <= MEMO_MASKS; k++) {
    uint64_t *m = k == MEMO_MASKS ? q->need : memo_mask_of(s, q, k);
    int i = p >> 6, b = p & 63;
    m[i] = (m[i] & ((1ull << b) - 1)) | ((m[i] >> 1) & (~0ull << b));
    for (; i + 1 < words; i++) {
      m[i] |= (m[i + 1] & 1) << 63;
      m[i + 1] >>= 1;
    }
  }
}

static void masks_insert(sm *s, sm_sched *q, int p) {
  int words = s->memo_words;
  memo_forget(s, q);
  for (int k = 0; k <= MEMO_MASKS; k++) {
    uint64_t *m = k == MEMO_MASKS ? q->need : memo_mask_of(s, q, k);
    int i = p >> 6, b = p & 63;
    for (int j = words - 1; j > i; j--) m[j] = m[j] << 1 | m[j - 1] >> 63;
    uint64_t low = (1ull << b) - 1;
    m[i] = (m[i] & low) | (m[i] & ~low) << 1;
  }
}

static sm_sched *sched_of(sm *s, int slot) {
  return &s->scheds[s->slot_sched[slot]];
}

/* New warps are the youngest, so appending keeps the list in age order. A warp that enters a
 * list is looked at by the issue stage before any memo of it is trusted. */
void sched_add_warp(sm *s, int slot) {
  sm_sched *q = sched_of(s, slot);
  s->pos_of[slot] = q->n;
  q->warps[q->n++] = slot;
  q->cls_stale = 1;
  warp_recheck(s, slot);
}

/* Back into its scheduler's list at its age (a CTA switched back in: cta_switch.c). */
void sched_insert_warp(sm *s, int slot) {
  sm_sched *q = sched_of(s, slot);
  if (s->pos_of[slot] >= 0) return;
  int pos = q->n;
  while (pos > 0 && s->warp_age[q->warps[pos - 1]] > s->warp_age[slot]) pos--;
  memmove(q->warps + pos + 1, q->warps + pos, (size_t)(q->n - pos) * sizeof *q->warps);
  q->warps[pos] = slot;
  q->n++;
  q->cls_stale = 1;
  masks_insert(s, q, pos);
  for (int i = pos; i < q->n; i++) s->pos_of[q->warps[i]] = i;
  if (pos < q->rr_next) q->rr_next++;
  warp_recheck(s, slot);
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
  warp_recheck(s, slot); /* out of the mask of its memo, into need */
  int pos = remove_from(q->warps, &q->n, slot);
  q->cls_stale = 1;
  if (pos >= 0) masks_remove(s, q, pos);
  s->pos_of[slot] = -1;
  for (int i = pos < 0 ? q->n : pos; i < q->n; i++) s->pos_of[q->warps[i]] = i;
  if (pos >= 0 && pos < q->rr_next) q->rr_next--;
  if (q->n == 0 || q->rr_next >= q->n) q->rr_next = 0;
  remove_from(q->active, &q->n_active, slot);
  if (q->last_issued == slot) q->last_issued = -1;
}

/* Two-level: a warp whose next instruction waits on a load, a barrier or has exited leaves the
 * active set; the oldest pending warps not in such a wait refill it. */
static int long_wait(const sm *s, int slot) {
  const sm_warp *w = &s->warps[slot];
  if (!w->live || w->exited || w->barrier >= 0 || w->pc >= w->n_insts) return 1;
  return inst_waits_on_memory(w, &w->insts[w->pc]);
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

/* A warp slot's class: the policy's answer, within [0, nclass). */
static int class_of(const sm *s, int slot, int nclass) {
  int c = s->pol->ops->warp_priority(s->pol, s->id, slot);
  return c < 0 ? 0 : c >= nclass ? nclass - 1 : c;
}

/* A policy's warp classes (e.g. owner-warp-first) go first, lowest class first; within a class
 * the base scheduler's order is kept (a stable counting sort into s->order). */
static void sort_by_class(sm *s, sched_walk *wk) {
  int nclass = s->pol->warp_priorities;
  if (nclass > SCHED_MAX_CLASSES) nclass = SCHED_MAX_CLASSES;
  int n = 0, *order = s->order;
  for (int slot = sched_walk_next(wk); slot >= 0; slot = sched_walk_next(wk)) order[n++] = slot;
  int count[SCHED_MAX_CLASSES + 1] = {0};
  int *cls = s->order_tmp;
  for (int i = 0; i < n; i++) {
    cls[i] = class_of(s, order[i], nclass);
    count[cls[i] + 1]++;
  }
  for (int c = 1; c <= nclass; c++) count[c] += count[c - 1];
  int *sorted = s->order_tmp + n;
  for (int i = 0; i < n; i++) sorted[count[cls[i]]++] = order[i];
  memcpy(order, sorted, (size_t)n * sizeof *order);
  *wk = (sched_walk){order, n, 0, n, -1, -1};
}

const uint64_t *sched_classes(sm *s, int sched) {
  sm_sched *q = &s->scheds[sched];
  if (q->cls_stale) {
    int words = s->memo_words;
    memset(q->cls, 0, (size_t)s->n_classes * (size_t)words * sizeof(uint64_t));
    for (int p = 0; p < q->n; p++)
      memo_bit_set(q->cls + (size_t)class_of(s, q->warps[p], s->n_classes) * (size_t)words, p);
    q->cls_stale = 0;
  }
  return q->cls;
}

/* The order is a walk over one of the scheduler's lists, not a copy: this runs for every
 * scheduler every cycle. */
void sched_order(sm *s, int sched, sched_walk *wk) {
  sm_sched *q = &s->scheds[sched];
  switch (s->cfg->scheduler) {
    case SCHED_GTO: /* the warp issued last, then oldest first */
      *wk = (sched_walk){q->warps, q->n, 0, q->n, q->last_issued, q->last_issued};
      break;
    case SCHED_TWO_LEVEL:
      refresh_active_set(s, q);
      if (q->rr_next >= q->n_active) q->rr_next = 0;
      *wk = (sched_walk){q->active, q->n_active, q->rr_next, q->n_active, -1, -1};
      break;
    case SCHED_LRR:
    default:
      *wk = (sched_walk){q->warps, q->n, q->n ? q->rr_next % q->n : 0, q->n, -1, -1};
      break;
  }
  if (wk->n > 1 && classes_differ(s)) sort_by_class(s, wk);
}

void sched_issued(sm *s, int sched, int slot) {
  sm_sched *q = &s->scheds[sched];
  q->last_issued = s->warps[slot].live ? slot : -1;
  /* GTO orders by age and the last issued warp only: the rotation point is never read. */
  if (s->cfg->scheduler == SCHED_GTO) return;
  if (s->cfg->scheduler != SCHED_TWO_LEVEL) { /* LRR: after the warp's place in the list */
    int p = s->pos_of[slot];
    if (p >= 0) q->rr_next = p + 1 == q->n ? 0 : p + 1;
    return;
  }
  const int *list = q->active;
  int n = q->n_active;
  /* A slot appears once in the list; the warp that issued is usually a few places after
   * rr_next (where this cycle's order started), so the search starts there. */
  int i = q->rr_next < n ? q->rr_next : 0;
  for (int k = 0; k < n; k++, i = i + 1 == n ? 0 : i + 1)
    if (list[i] == slot) {
      q->rr_next = i + 1 == n ? 0 : i + 1;
      return;
    }
}
