/* The locality-aware register file's units on one SM, stepped every cycle (csim/policy/larf.c
 * describes the technique): the address mapping table (larf_amt) takes the oldest insert and an
 * invalidation or the oldest lookup; the mapping controller (larf_mc) decides the oldest looked-up
 * load and one queued unmap; the w-merge slot (larf_wmerge) rebuilds a register. Each answer is
 * checked against the data the load asked for. */
#include <string.h>

#include "larf_internal.h"

/* The oldest request in `phase` that may move this cycle, else NULL. */
static lf_req *oldest(lf_sm *m, int phase, uint64_t now) {
  for (int i = 0; i < m->nfifo; i++) {
    lf_req *r = &m->reqs[m->fifo[i]];
    if (r->phase == phase && r->at <= now) return r;
  }
  return NULL;
}

void lf_release(lf_sm *m, lf_req *r) {
  int id = (int)(r - m->reqs);
  r->active = 0;
  for (int i = 0; i < m->nfifo; i++)
    if (m->fifo[i] == id) {
      memmove(m->fifo + i, m->fifo + i + 1, (size_t)(m->nfifo - i - 1) * sizeof *m->fifo);
      m->nfifo--;
      break;
    }
}

static void answer(lf_req *r, int a, int ticket) {
  r->phase = P_ANSWER;
  r->answered = 1;
  r->answer = a;
  r->ticket = ticket;
}

/* Lanes 0..cnt of register `preg` must hold what the load asked for. */
static int check_lanes(const lf_sm *m, int sm, const uint32_t *got, const lf_req *r,
                       const char *what, uint64_t now, rf_diag *d) {
  (void)m;
  for (uint64_t i = 0; i <= r->cnt; i++)
    if (got[i] != r->want[i])
      return rf_fail(d, "cycle %llu: SM %d: larf %s gave lane %llu the value 0x%08x, expected "
                     "0x%08x (the data at that lane's address); the table or merge is wrong",
                     (unsigned long long)now, sm, what, (unsigned long long)i, got[i],
                     r->want[i]);
  return 0;
}

static void peaks(lf_stats *k, const lf_sm *m) {
  if ((uint64_t)m->live_pregs > k->live_pregs_peak) k->live_pregs_peak = (uint64_t)m->live_pregs;
  if ((uint64_t)m->live_maps > k->live_maps_peak) k->live_maps_peak = (uint64_t)m->live_maps;
  int saved = m->live_maps - m->live_pregs;
  if (saved > 0 && (uint64_t)saved > k->saved_peak) k->saved_peak = (uint64_t)saved;
}

/* The table's occupancy, sampled every cycle. */
static void sample_occupancy(lf_stats *k, const lf_sm *m) {
  if (m->ao.occ_o > k->occ_max) k->occ_max = m->ao.occ_o;
  k->occ_sum += m->ao.occ_o;
  k->occ_samples++;
}

/* Nothing for the units this cycle: no request, invalidation, unmap or table clear queued, and
 * no unit's output still up from its last step (an idle SM, most of a kernel's SMs most
 * cycles). Unless traced, the cycle then steps no unit: only the samples are taken. */
static int idle(const lf_sm *m) {
  return !m->nfifo && !m->clear_pending && !m->nranges && !m->iq_n && !m->uq_n &&
         !m->ao.done_o && !m->ao.evict_o && !m->mo.act_o && !m->mo.freed_o && !m->mo.shared_o &&
         !m->wo.valid_o;
}

int larf_units_cycle(policy *p, int sm, const policy_sm_view *v, uint64_t now, rf_diag *d) {
  (void)v;
  if (now == 0) return 0; /* the units' reset edge */
  lf_state *s = lf_st(p);
  lf_sm *m = &s->sm[sm];
  lf_stats *k = &m->kern;
  int traced = wave_in_window(p->wave, now);
  if (!traced && idle(m)) {
    m->inv_urgent = 0; /* (no deletion waits) */
    sample_occupancy(k, m);
    peaks(k, m);
    return 0;
  }
  lf_req *r;

  /* ---- address mapping table: the oldest insert on the write port; on the operation port
   * invalidations first, then the oldest lookup (loads in different steps overlap) ---- */
  lf_req *ins = oldest(m, P_INSERT, now);
  larf_amt_in ai = {0};
  int inv = -1, req_op = 0;
  if (ins) {
    ai.ins_i = 1;
    ai.ins_base_i = ins->base;
    ai.ins_stride_i = ins->stride;
    ai.ins_cnt_i = ins->cnt;
    ai.ins_preg_i = (uint64_t)ins->newp;
  }
  r = oldest(m, P_LOOKUP, now);
  /* Deleting the entry of a freed register may wait behind lookups (an answer naming it sees it
   * PR_DYING and looks again) until 8 wait or free registers run short; a store's deletion may
   * not (a later load must not find the old data). */
  if (m->iq_n == 0) m->inv_urgent = 0;
  int inv_first = m->iq_n >= 8 || m->nfree < 64 || !r || m->inv_urgent;
  if (m->clear_pending) {
    ai.op_i = AMT_CLEAR;
    m->clear_pending = 0;
    m->gen++;
  } else if (m->nranges > 0) {
    lf_range g = m->ranges[0];
    memmove(m->ranges, m->ranges + 1, (size_t)(--m->nranges) * sizeof *m->ranges);
    ai.op_i = AMT_INV_RANGE;
    ai.base_i = g.lo;
    ai.hi_i = g.hi;
    k->store_inval++;
    m->gen++;
  } else if (m->iq_n > 0 && inv_first) {
    inv = m->invq[--m->iq_n];
    ai.op_i = AMT_INV_PREG;
    ai.preg_i = (uint64_t)inv;
  } else if (r) {
    req_op = AMT_LOOKUP;
    ai.op_i = AMT_LOOKUP;
    ai.base_i = r->base;
    ai.stride_i = r->stride;
    ai.cnt_i = r->cnt;
  }
  if (ai.op_i || ai.ins_i || m->ao.done_o || m->ao.evict_o || traced) {
    if (larf_amt_step(m->amt, now, &ai, &m->ao, d) < 0) return -1;
  }
  sample_occupancy(k, m);
  if (inv >= 0) { /* its entry is gone: the register may be reused */
    m->pst[inv] = PR_FREE;
    m->freel[m->nfree++] = inv;
  }
  if (req_op == AMT_LOOKUP) {
    r->res = m->ao;
    r->gen = m->gen;
    r->ga = m->pgen[m->ao.preg_a_o];
    r->gb = m->pgen[m->ao.preg_b_o];
    r->phase = P_DECIDE;
    r->at = now + 1;
    if (m->ao.kind_o == 0) { /* a miss goes to memory at once (sec. 3); the decision follows */
      if (m->nfree == 0) {
        k->no_free++;
        answer(r, POLICY_LOAD_MEMORY, -1);
      } else {
        r->newp = m->freel[--m->nfree];
        m->pgen[r->newp]++;
        r->answered = 1;
        r->answer = POLICY_LOAD_MEMORY;
        r->ticket = r->newp;
      }
    }
  }
  if (ins) {
    r = ins;
    k->inserts++;
    if (m->ao.evict_o) k->evictions++;
    if (r->merged) {
      answer(r, POLICY_LOAD_SERVED, -1);
    } else { /* a miss: answered at its decision, the load already on its way */
      r->phase = P_ANSWER;
      if (r->polled) lf_release(m, r);
    }
  }

  /* ---- mapping controller: the oldest decision and one queued unmap ---- */
  r = oldest(m, P_DECIDE, now);
  larf_mc_in mi = {0};
  int decide = 0, um = -1, um_exit = 0;
  if (r) {
    unsigned kind = (unsigned)r->res.kind_o;
    int a = (int)r->res.preg_a_o, b = (int)r->res.preg_b_o;
    if (kind == 0) { /* a miss: its register was taken at the lookup */
      mi.decide_i = 1;
      mi.kind_i = 0;
      mi.new_i = (uint64_t)r->newp;
      decide = 1;
    } else if (r->gen != m->gen) { /* the table changed since the lookup */
      k->retries++;
      r->phase = P_LOOKUP;
      r->at = now + 1;
    } else if ((kind >= 1 && (m->pst[a] == PR_DYING || m->pst[a] == PR_FREE ||
                              m->pgen[a] != r->ga)) ||
               (kind == 3 && (m->pst[b] == PR_DYING || m->pst[b] == PR_FREE ||
                              m->pgen[b] != r->gb))) {
      k->retries++; /* a register it names was freed (and maybe reused) since: look again */
      m->inv_urgent = 1;
      r->phase = P_LOOKUP;
      r->at = now + 1;
    } else if ((kind >= 2 && m->pst[a] != PR_READY) || (kind == 3 && m->pst[b] != PR_READY)) {
      k->partial_in_flight++; /* a source's data is still on the way: load it */
      answer(r, POLICY_LOAD_MEMORY, -1);
    } else if (kind != 1 && m->nfree == 0) {
      k->no_free++;
      answer(r, POLICY_LOAD_MEMORY, -1);
    } else {
      r->newp = kind == 1 ? -1 : m->freel[--m->nfree];
      if (r->newp >= 0) m->pgen[r->newp]++;
      mi.decide_i = 1;
      mi.kind_i = kind;
      mi.preg_a_i = (uint64_t)a;
      mi.new_i = (uint64_t)(r->newp >= 0 ? r->newp : 0);
      decide = 1;
    }
  }
  if (m->uq_n > 0) { /* the second port: one unmap every cycle */
    int e = m->unmapq[m->uq_head];
    m->uq_head = (m->uq_head + 1) % m->uq_cap;
    m->uq_n--;
    um = e & 0xffff;
    um_exit = e >> 16;
    mi.unmap_i = 1;
    mi.preg_i = (uint64_t)um;
  }
  if (mi.decide_i || mi.unmap_i || m->mo.act_o || m->mo.freed_o || m->mo.shared_o || traced) {
    if (larf_mc_step(m->mc, now, &mi, &m->mo, d) < 0) return -1;
  }
  if (um >= 0) {
    m->live_maps--;
    if (m->mo.shared_o && !um_exit) k->unmap_shared++;
    if (m->mo.freed_o) {
      m->pst[um] = PR_DYING;
      m->live_pregs--;
      m->invq[m->iq_n++] = um;
    }
  }
  if (decide) {
    unsigned kind = (unsigned)r->res.kind_o;
    unsigned act = (unsigned)m->mo.act_o, want = kind == 1 ? 1u : kind == 0 ? 3u : 2u;
    if (act != want)
      return rf_fail(d, "cycle %llu: SM %d: larf_mc answered action %u to table answer %u, "
                     "expected %u", (unsigned long long)now, sm, act, kind, want);
    int dst = (int)m->mo.dst_o;
    m->map[r->slot * LF_REGS + r->dst] = (int16_t)dst;
    m->live_maps++;
    if (act == 1) {
      if (check_lanes(m, sm, &m->pdata[(size_t)dst * 32], r, "perfect mapping", now, d) < 0)
        return -1;
      if (m->pst[dst] != PR_PENDING) {
        k->perfect++;
        k->elided++;
      }
      k->saved++;
      if (m->pst[dst] == PR_PENDING) {
        /* mapped to a register whose load is still in flight: this load goes to memory too (the
         * L1 merges it with that one); the mapping stands, so later loads still share */
        k->deferred++;
        answer(r, POLICY_LOAD_MEMORY, -1);
      } else {
        answer(r, POLICY_LOAD_SERVED, -1);
      }
    } else {
      m->pst[dst] = PR_PENDING;
      m->live_pregs++;
      if (act == 3) {
        k->missed++;
        memset(&m->pdata[(size_t)dst * 32], 0, 32 * sizeof(uint32_t));
        memcpy(&m->pdata[(size_t)dst * 32], r->want, (r->cnt + 1) * sizeof(uint32_t));
        r->merged = 0;
        r->phase = P_INSERT;
        r->answered = 1; /* the load goes to memory now; the insert follows */
        r->answer = POLICY_LOAD_MEMORY;
        r->ticket = dst;
      } else {
        r->phase = P_MERGE;
      }
      r->at = now + 1;
    }
  }

  /* ---- w-merge: rebuild the register from one or two registers ---- */
  r = oldest(m, P_MERGE, now);
  larf_wmerge_in wi; /* (two 1,024-bit registers: cleared only for a step) */
  int go = 0;
  if (r || m->wo.valid_o || traced) memset(&wi, 0, sizeof wi);
  if (r) {
    wi.go_i = 1;
    memcpy(wi.a_i, &m->pdata[r->res.preg_a_o * 32], 32 * sizeof(uint32_t));
    if (r->res.kind_o == 3) memcpy(wi.b_i, &m->pdata[r->res.preg_b_o * 32], 32 * sizeof(uint32_t));
    wi.shift_a_i = r->res.shift_a_o;
    wi.shift_b_i = r->res.shift_b_o;
    wi.split_i = r->res.split_o;
    wi.cnt_i = r->cnt;
    go = 1;
  }
  if (go || m->wo.valid_o || traced) {
    if (larf_wmerge_step(m->wm, now, &wi, &m->wo, d) < 0) return -1;
  }
  if (go) {
    if (check_lanes(m, sm, m->wo.data_o, r, "w-merge", now, d) < 0) return -1;
    memcpy(&m->pdata[(size_t)r->newp * 32], m->wo.data_o, 32 * sizeof(uint32_t));
    m->pst[r->newp] = PR_READY;
    if (r->res.kind_o == 3)
      k->merge++;
    else
      k->shift++;
    k->elided++;
    r->merged = 1;
    r->phase = P_INSERT;
    r->at = now + 1;
  }
  peaks(k, m);
  return 0;
}

