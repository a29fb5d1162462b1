/* The LD/ST unit: takes one memory instruction at a time from a short queue, serializes shared
 * memory bank conflicts, and presents coalesced global/local accesses to the L1D one per cycle
 * (retrying when the L1 has no MSHR or miss-queue room). It also moves traffic between the L1
 * and the memory system and completes loads. */
#include <stdlib.h>
#include <string.h>

#include "../common/prefetch.h"
#include "../mem/mem_internal.h"
#include "../trace/trace_addrs.h"
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
  l->ndst = in->op->ndst;
  l->hook_ticket = -1;
  memcpy(l->dst, in->op->dst, sizeof l->dst);
  sm_warp *w = &s->warps[warp];
  w->pending_loads++;
  l->is_long = in->op->space != SPACE_SHARED;
  w->long_loads += l->is_long;
  for (int i = 0; i < in->op->ndst; i++) reg_wait(w, in->op->dst[i], REG_WAITS_ON_MEMORY);
  cs_warp_changed(s, warp);
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

/* Whether the earliest shared-memory load completes by now. */
static int event_due(const sm *s, uint64_t now) { return s->nevents && s->events[0].at <= now; }

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
  return (in->op->kind == OPK_LOAD || in->op->kind == OPK_ATOMIC) && in->op->ndst > 0;
}

/* GPGPU-Sim's coalescer cuts into 32-byte sectors from -gpgpu_coalesce_arch 40 on, and from
 * 20 on when the access bypasses the L1D (-gpgpu_gmem_skip_L1D, atomics). */
static int sector_segments(const gpu_config *c, int bypass) {
  if (c->coalesce_arch >= 40) return 1;
  return c->coalesce_arch >= 20 && c->coalesce_arch < 39 && bypass;
}

/* Accesses that go around the L1D: atomics (done at the L2), everything when there is no L1D,
 * and global accesses with -gpgpu_gmem_skip_L1D. */
static int bypasses_l1(const gpu_config *c, const trace_inst *in) {
  return in->op->kind == OPK_ATOMIC || !c->l1d.enabled ||
         (c->gmem_skip_l1d && in->op->space == SPACE_GLOBAL);
}

/* What one access brings back to its load: one completion from the L1D, or every reply of
 * the requests a sectored L2 splits it into when it went around the L1D. */
static int completions(const sm *s, const mem_access *a) {
  return a->bypass_l1 ? mem_acks(a, s->cfg->l2.enabled && s->cfg->l2.sectored) : 1;
}

int ldst_push(sm *s, int warp, const trace_inst *in, uint64_t now, rf_diag *d) {
  ldst_wake(s);
  ldst_entry *e = &s->ldst[(s->ldst_head + s->ldst_count) % LDST_QUEUE];
  const trace_warp *tw = s->warps[warp].tw;
  /* the instruction's entries in its warp's address pool (trace_addrs.h): packed ones are
   * spread over 32 lanes only where nothing reads them as they are */
  const uint64_t *pool = tw->addrs + in->addr_off;
  int form = in->addr_form;
  uint64_t buf[TRACE_WARP_SIZE];
  e->warp = warp;
  e->in = in;
  e->load = -1;
  e->next = 0;
  e->naccess = 0;
  e->hook = 0;
  if (in->op->space == SPACE_SHARED) {
    int width = in->op->width, banks = s->cfg->shmem_num_banks;
    int passes =
        form == TRACE_ADDRS_STRIDE
            ? mem_shared_passes_strided(pool[0], pool[1], in->mask, width, banks)
        : form == TRACE_ADDRS_HALVES
            ? mem_shared_passes_halves(pool[0], pool[2], pool[1], in->mask, width, banks)
            : mem_shared_passes(pool, in->mask, width, banks);
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
    int bypass = bypasses_l1(s->cfg, in);
    int width = in->op->width, sectors = sector_segments(s->cfg, bypass);
    e->naccess = form == TRACE_ADDRS_STRIDE
                     ? mem_coalesce_strided(pool[0], pool[1], in->mask, width, sectors, e->acc,
                                            MAX_ACCESSES)
                     : mem_coalesce(trace_inst_addrs(tw, in, buf), in->mask, width, sectors,
                                    e->acc, MAX_ACCESSES);
    if (e->naccess < 0)
      return rf_fail(d, "SM %d: a %s instruction at PC 0x%llx touches more than %d segments",
                     s->id, trace_opcode_name(in->op->opcode), (unsigned long long)in->op->pc,
                     MAX_ACCESSES);
    int is_store = in->op->kind == OPK_STORE, remaining = 0, acks = 0;
    for (int i = 0; i < e->naccess; i++) {
      mem_access *a = &e->acc[i];
      a->is_write = (uint8_t)is_store;
      a->is_atomic = in->op->kind == OPK_ATOMIC;
      a->space = in->op->space;
      a->sm = (uint16_t)s->id;
      a->bypass_l1 = (uint8_t)bypass;
      remaining += completions(s, a);
      acks += mem_acks(a, s->cfg->l2.enabled && s->cfg->l2.sectored);
    }
    if (returns_data(in) && e->naccess > 0) {
      e->load = load_alloc(s, warp, in, remaining, d);
      if (e->load < 0) return -1;
      if (s->pol->ops->load && in->op->kind == OPK_LOAD && in->op->space == SPACE_GLOBAL) {
        policy_load pl = {s->id, warp, in, trace_inst_addrs(tw, in, buf)};
        e->hook_ticket = -1;
        int r = s->pol->ops->load(s->pol, &pl, now, &e->hook_ticket);
        e->hook = r != POLICY_LOAD_MEMORY;
        if (!e->hook) s->loads[e->load].hook_ticket = e->hook_ticket;
      }
    }
    /* Every global or local store is acknowledged, by the L1D when it keeps the data, else by
     * the L2 (or the DRAM) once per sector request; the warp does not finish before all are
     * back (GPGPU-Sim's stores_done). */
    if (is_store) s->warps[warp].pending_stores += (uint32_t)acks;
    for (int i = 0; i < e->naccess; i++)
      e->acc[i].token = e->load >= 0 ? (uint32_t)e->load
                        : is_store   ? MEM_ACK_TOKEN | (uint32_t)warp
                                     : LDST_NO_TOKEN;
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
  /* A MEMBAR may go on. Only a warp held at one can be: one whose answer passed the MEMBAR
   * test keeps passing it until it issues (its counters rise only then), and its other waits
   * do not read queued_mem. */
  if (s->warps[e->warp].skip_why == WAIT_MEMBAR) warp_recheck(s, e->warp);
}

/* A load-path hook (policy_ops.load, e.g. LARF) decides whether a global load goes to memory.
 * Returns 0 to access memory as usual, 1 while the head waits (WAIT), 2 when the load completed
 * now without memory traffic (SERVED) and left the queue. */
static int ldst_offer_load(sm *s, ldst_entry *e, uint64_t now) {
  const sm_warp *w = &s->warps[e->warp];
  uint64_t lanes[TRACE_WARP_SIZE];
  policy_load pl = {s->id, e->warp, e->in, trace_inst_addrs(w->tw, e->in, lanes)};
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

/* A load's completion token: a load entry's index (not CTA switching's, not "none"). */
static int is_load_token(uint32_t token) { return token != LDST_NO_TOKEN && !(token & CS_TOKEN); }

/* What a completion with this token finishes: a load, a CTA switch's access, or nothing (a
 * reduction's reply, a store kept by the L1D). */
static void token_done(sm *s, uint32_t token, uint64_t now) {
  if (is_load_token(token)) warp_load_done(s, (int)token, now);
  else if (token != LDST_NO_TOKEN) cs_mem_done(s, token);
}

/* The one completion the LD/ST unit writes back per cycle (GPGPU-Sim's writeback stage),
 * round robin over its clients: shared memory, replies of accesses that went around the L1D,
 * and loads released from the L1D's MSHRs. (L1D hits do not wait for it.) Returns 1 if one
 * was written. */
static int writeback(sm *s, uint64_t now) {
  /* no client has a completion (most cycles of a memory-bound SM): the walk changes nothing */
  if (!s->has_wb_global && !event_due(s, now) && !l1d_miss_ready(s->l1))
    return 0;
  for (int k = 0; k < WB_CLIENTS; k++) {
    int c = s->wb_next + k < WB_CLIENTS ? s->wb_next + k : s->wb_next + k - WB_CLIENTS;
    uint32_t token = LDST_NO_TOKEN;
    if (c == WB_SHARED) {
      if (!event_due(s, now)) continue;
      warp_load_done(s, event_pop(s).load, now);
    } else if (c == WB_GLOBAL) {
      if (!s->has_wb_global) continue;
      s->has_wb_global = 0;
      token = s->wb_global.token;
    } else if (!l1d_pop_miss(s->l1, now, &token)) {
      continue;
    }
    /* (shared memory's is done above; a reduction's reply takes its turn here but completes
     * nothing) */
    token_done(s, token, now);
    s->wb_next = c + 1 == WB_CLIENTS ? 0 : c + 1;
    return 1;
  }
  return 0;
}

static void store_acked(sm *s, uint32_t token, int acks) {
  int slot = (int)(token & ~MEM_ACK_TOKEN);
  sm_warp *w = &s->warps[slot];
  w->pending_stores = w->pending_stores > (uint32_t)acks ? w->pending_stores - (uint32_t)acks : 0;
  warp_try_finish(s, slot);
}

/* One reply a cycle from the SM's response queue (GPGPU-Sim's LD/ST response FIFO): a write
 * acknowledgement, a reply for an access that went around the L1D (it waits for the
 * writeback stage in a one-entry register), or a fill (when the L1D's fill port is free). */
static int take_reply(sm *s, memsys *m, uint64_t now) {
  mem_access a;
  if (!memsys_peek_reply(m, s->id, &a)) return 0;
  if (mem_wants_ack(&a)) {
    store_acked(s, a.token, 1);
  } else if (a.is_write && !a.is_atomic) {
    /* an acknowledgement nobody waits for */
  } else if (a.bypass_l1) {
    if (s->has_wb_global) return 0;
    s->wb_global = a;
    s->has_wb_global = 1;
    /* written back at the earliest next cycle: its load entry, by then out of the cache */
    if (is_load_token(a.token)) rf_prefetch_entry(&s->loads[a.token], sizeof *s->loads);
  } else {
    if (!l1d_can_fill(s->l1)) return 0;
    l1d_fill(s->l1, &a, now);
  }
  memsys_pop_reply(m, s->id);
  return 1;
}

/* Returns 1 if anything moved. */
int ldst_cycle(sm *s, memsys *m, uint64_t now) {
  if (now < s->ldst_quiet_until && !memsys_reply_waiting(m, s->id)) return 0;
  s->ldst_quiet_until = 0; /* (set again below if this cycle leaves it so) */
  int moved = writeback(s, now);
  mem_access a;
  while (memsys_pop_fetch_reply(m, s->id, &a)) {
    if (s->l1i) l1d_fill(s->l1i, &a, now);
    moved = 1;
  }
  moved |= take_reply(s, m, now);
  /* Requests leave for the cluster port: the L1I's misses, the L1D's miss queue and an
   * access that went around it, one of each at most. */
  if (s->l1i) moved |= l1d_emit(s->l1i, m, now);
  moved |= l1d_emit(s->l1, m, now);
  l1d_cycle(s->l1, now);
  uint32_t token;
  int acks;
  while (s->l1i && l1d_pop_miss(s->l1i, now, &token)) { /* (its hits are done at the fetch) */
    fetch_done(s, (int)token);
    moved = 1;
  }
  while (l1d_pop_hit(s->l1, now, &token)) {
    moved = 1;
    token_done(s, token, now);
  }
  while (l1d_pop_store_ack(s->l1, &token, &acks)) {
    store_acked(s, token, acks);
    moved = 1;
  }
  if (s->ldst_count == 0) {
    /* Nothing moved and nothing is left to move but by a reply or a shared-memory load's
     * completion (the writeback stage takes one that is due, so the next is later). */
    if (!moved && ldst_idle(s))
      s->ldst_quiet_until = s->nevents ? s->events[0].at : UINT64_MAX;
    return moved;
  }
  ldst_entry *e = &s->ldst[s->ldst_head];
  int warp = e->warp;
  if (e->hook) {
    int r = ldst_offer_load(s, e, now);
    if (r) return r == 2 ? 1 : moved;
  }
  /* Up to one access per L1D bank a cycle (one when they go around the L1D); the first that
   * finds its bank busy waits for the next cycle. */
  int budget = e->naccess > 0 && e->acc[0].bypass_l1 ? 1 : s->cfg->l1_banks;
  for (int k = 0; k < budget && e->next < e->naccess; k++) {
    if (l1d_access(s->l1, &e->acc[e->next], now) == L1_STALL) {
      s->cnt.l1_stall_cycles++;
      break;
    }
    /* the request exists now (GPGPU-Sim's mem_fetch) */
    memsys_touch(m, s->id, e->acc[e->next].addr);
    e->next++;
    moved = 1;
  }
  if (e->next == e->naccess && now >= e->busy_until) {
    ldst_retire_head(s);
    moved = 1;
    warp_try_finish(s, warp);
  }
  return moved;
}
