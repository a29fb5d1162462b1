/* The LD/ST unit: takes one memory instruction at a time from a short queue, serializes shared
 * memory bank conflicts, and presents coalesced global/local accesses to the L1D one per cycle
 * (retrying when the L1 has no MSHR or miss-queue room). It also moves traffic between the L1
 * and the memory system and completes loads. */
#include <stdlib.h>
#include <string.h>

#include "../mem/mem_internal.h"
#include "sm_internal.h"

int ldst_can_accept(const sm *s) { return s->ldst_count < LDST_QUEUE; }

int load_alloc(sm *s, int warp, const trace_inst *in, int remaining, rf_diag *d) {
  if (s->free_load < 0) {
    int grow = s->nloads ? s->nloads : 64;
    sm_load *nl = rf_realloc(s->loads, (size_t)(s->nloads + grow), sizeof *nl, d);
    if (!nl) return -1;
    s->loads = nl;
    for (int i = s->nloads + grow - 1; i >= s->nloads; i--) {
      s->loads[i].warp = -1;
      s->loads[i].remaining = s->free_load;
      s->free_load = i;
    }
    s->nloads += grow;
  }
  int id = s->free_load;
  sm_load *l = &s->loads[id];
  s->free_load = l->remaining;
  l->warp = warp;
  l->remaining = remaining;
  l->ndst = in->ndst;
  l->hook_ticket = -1;
  memcpy(l->dst, in->dst, sizeof l->dst);
  sm_warp *w = &s->warps[warp];
  w->pending_loads++;
  l->is_long = in->space != SPACE_SHARED;
  w->long_loads += l->is_long;
  for (int i = 0; i < in->ndst; i++) w->reg_ready[in->dst[i]] = REG_WAITS_ON_MEMORY;
  return id;
}

int event_push(sm *s, uint64_t at, int load, rf_diag *d) {
  if (s->nevents == s->cap_events) {
    int cap = s->cap_events ? s->cap_events * 2 : 64;
    sm_event *ne = rf_realloc(s->events, (size_t)cap, sizeof *ne, d);
    if (!ne) return -1;
    s->events = ne;
    s->cap_events = cap;
  }
  int i = s->nevents++;
  while (i > 0 && s->events[(i - 1) / 2].at > at) {
    s->events[i] = s->events[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  s->events[i] = (sm_event){at, load};
  return 0;
}

static sm_event event_pop(sm *s) {
  sm_event top = s->events[0], last = s->events[--s->nevents];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= s->nevents) break;
    if (c + 1 < s->nevents && s->events[c + 1].at < s->events[c].at) c++;
    if (s->events[c].at >= last.at) break;
    s->events[i] = s->events[c];
    i = c;
  }
  if (s->nevents > 0) s->events[i] = last;
  return top;
}

static int returns_data(const trace_inst *in) {
  return (in->kind == OPK_LOAD || in->kind == OPK_ATOMIC) && in->ndst > 0;
}

int ldst_push(sm *s, int warp, const trace_inst *in, uint64_t now, rf_diag *d) {
  ldst_entry *e = &s->ldst[(s->ldst_head + s->ldst_count) % LDST_QUEUE];
  const uint64_t *addrs = s->warps[warp].tw->addrs + in->addr_off;
  e->warp = warp;
  e->in = in;
  e->load = -1;
  e->next = 0;
  e->naccess = 0;
  e->hook = 0;
  if (in->space == SPACE_SHARED) {
    int passes = mem_shared_passes(addrs, in->mask, in->width, s->cfg->shmem_num_banks);
    s->cnt.shmem_accesses++;
    s->cnt.shmem_passes += (uint64_t)passes;
    e->busy_until = now + (uint64_t)passes;
    if (returns_data(in)) {
      e->load = load_alloc(s, warp, in, 1, d);
      if (e->load < 0) return -1;
      uint64_t at = now + (uint64_t)s->cfg->smem_latency + (uint64_t)passes - 1;
      if (event_push(s, at, e->load, d) < 0) return -1;
    }
  } else {
    int line = s->cfg->l1d.enabled ? s->cfg->l1d.line_size : 128;
    e->naccess = mem_coalesce(addrs, in->mask, in->width, line, e->acc, MAX_ACCESSES);
    if (returns_data(in) && e->naccess > 0) {
      e->load = load_alloc(s, warp, in, e->naccess, d);
      if (e->load < 0) return -1;
      if (s->pol->ops->load && in->kind == OPK_LOAD && in->space == SPACE_GLOBAL) {
        policy_load pl = {s->id, warp, in, addrs};
        e->hook_ticket = -1;
        int r = s->pol->ops->load(s->pol, &pl, now, &e->hook_ticket);
        e->hook = r != POLICY_LOAD_MEMORY;
        if (!e->hook) s->loads[e->load].hook_ticket = e->hook_ticket;
      }
    }
    /* A global or local store that the L1 writes through (or sends past a disabled L1) is
     * acknowledged by the L2, and the warp does not finish before every acknowledgement is
     * back (GPGPU-Sim's stores_done). A store the L1 keeps (write-back) is done here. */
    char wp = s->cfg->l1d.enabled ? mem_effective_write_policy(s->cfg->l1d.write_policy, in->space)
                                  : 'T';
    int acked = in->kind == OPK_STORE && wp != 'B';
    if (acked) s->warps[warp].pending_stores += (uint32_t)e->naccess;
    for (int i = 0; i < e->naccess; i++) {
      e->acc[i].token = e->load >= 0 ? (uint32_t)e->load
                        : acked      ? MEM_ACK_TOKEN | (uint32_t)warp
                                     : LDST_NO_TOKEN;
      e->acc[i].is_write = in->kind == OPK_STORE;
      e->acc[i].is_atomic = in->kind == OPK_ATOMIC;
      e->acc[i].space = in->space;
      e->acc[i].sm = (uint16_t)s->id;
    }
    e->busy_until = now;
  }
  s->warps[warp].queued_mem++;
  s->ldst_count++;
  return 0;
}

static void ldst_retire_head(sm *s) {
  ldst_entry *e = &s->ldst[s->ldst_head];
  s->ldst_head = (s->ldst_head + 1) % LDST_QUEUE;
  s->ldst_count--;
  s->warps[e->warp].queued_mem--;
  warp_recheck(s, e->warp); /* a MEMBAR may go on */
}

/* A load-path hook (policy_ops.load, e.g. LARF) decides whether a global load goes to memory.
 * Returns 0 to access memory as usual, 1 while the head waits (WAIT), 2 when the load completed
 * now without memory traffic (SERVED) and left the queue. */
static int ldst_offer_load(sm *s, ldst_entry *e, uint64_t now) {
  const sm_warp *w = &s->warps[e->warp];
  policy_load pl = {s->id, e->warp, e->in, w->tw->addrs + e->in->addr_off};
  int ticket = e->hook_ticket;
  int r = s->pol->ops->load(s->pol, &pl, now, &ticket);
  if (r == POLICY_LOAD_WAIT) return 1;
  e->hook = 0;
  sm_load *l = &s->loads[e->load];
  l->hook_ticket = ticket;
  if (r == POLICY_LOAD_MEMORY) return 0;
  int warp = e->warp;
  e->naccess = e->next = 0; /* SERVED: no access leaves the SM */
  l->remaining = 1;
  warp_load_done(s, e->load, now);
  ldst_retire_head(s);
  warp_try_finish(s, warp);
  return 2;
}

/* Returns 1 if anything moved. */
int ldst_cycle(sm *s, memsys *m, uint64_t now) {
  int moved = 0;
  mem_access a;
  while (memsys_pop_reply(m, s->id, &a)) {
    if (mem_wants_ack(&a)) {
      int slot = (int)(a.token & ~MEM_ACK_TOKEN);
      s->warps[slot].pending_stores--;
      warp_try_finish(s, slot);
    } else {
      l1d_fill(a.space == SPACE_INST ? s->l1i : s->l1, &a, now);
    }
    moved = 1;
  }
  /* One request per cycle leaves the SM; instruction misses go first, since every warp of the
   * SM may be waiting on them. */
  l1d *src = s->l1i && l1d_peek_outgoing(s->l1i, &a) ? s->l1i : s->l1;
  if (l1d_peek_outgoing(src, &a) && memsys_can_send(m, s->id)) {
    memsys_send(m, &a, now);
    l1d_pop_outgoing(src);
    moved = 1;
  }
  uint32_t token;
  while (s->l1i && l1d_pop_done(s->l1i, now, &token)) {
    fetch_done(s, (int)token);
    moved = 1;
  }
  while (l1d_pop_done(s->l1, now, &token)) {
    moved = 1;
    if (token == LDST_NO_TOKEN) continue;
    if (token & CS_TOKEN) cs_mem_done(s, token);
    else warp_load_done(s, (int)token, now);
  }
  while (s->nevents > 0 && s->events[0].at <= now) {
    warp_load_done(s, event_pop(s).load, now);
    moved = 1;
  }
  if (s->ldst_count == 0) return moved;
  ldst_entry *e = &s->ldst[s->ldst_head];
  int warp = e->warp;
  if (e->hook) {
    int r = ldst_offer_load(s, e, now);
    if (r) return r == 2 ? 1 : moved;
  }
  if (e->next < e->naccess) {
    l1_result r = l1d_access(s->l1, &e->acc[e->next], now);
    if (r == L1_STALL) {
      s->cnt.l1_stall_cycles++;
    } else {
      e->next++;
      moved = 1;
    }
  }
  if (e->next == e->naccess && now >= e->busy_until) {
    ldst_retire_head(s);
    moved = 1;
    warp_try_finish(s, warp);
  }
  return moved;
}
