/* FineReg's units on one SM (csim/hw/finereg/README.md, "Driving a switch"), stepped for the
 * policy in every -hw mode. The CTA status monitor (fr_status) is stepped on the SM's clock in
 * the cycles with a status write (CTA launch, exit, switch) and in each switch decision's cycle
 * (fr_rmu_select: its searches over this cycle's stall/ready vectors pick the CTAs). The
 * register management unit (fr_lrcache, fr_idxdec, fr_ptrtab, fr_pcrf) runs one switch at a
 * time (the policy starts the next no earlier than the previous one's end): fr_rmu_switch steps
 * the four units from the decision cycle on, one edge per cycle with the cycle numbers the
 * switch occupies, until the last answer (bld_done_o, the walk's last entry, the table write),
 * so the switch's latency is the cycles the units took. The inputs of a switch (the stalled
 * warps' PCs, their vectors in the kernel's live-register table, the candidate CTA) are fixed
 * at the decision, so stepping the switch's cycles at the decision gives the units the same
 * inputs in the same cycles as stepping them one SM cycle at a time. A lookup miss loads the
 * vector from off-chip memory (the policy's latency; the units idle meanwhile, no edge is
 * skipped that would change them). */
#include "finereg_rmu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hw/finereg/fr_idxdec.h"
#include "../hw/finereg/fr_lrcache.h"
#include "../hw/finereg/fr_pcrf.h"
#include "../hw/finereg/fr_ptrtab.h"
#include "../hw/finereg/fr_status.h"

#define FR_QCAP 1024

typedef struct fr_wr {
  int cta, ctx, reg;
} fr_wr;

struct fr_rmu {
  int sm;
  hw_unit *st, *lrc, *idx, *ptr, *pcrf;
  fr_status_in sti;
  fr_lrcache_in lri;
  fr_idxdec_in ixi;
  fr_ptrtab_in pti;
  fr_pcrf_in pci;
  fr_status_out sto;
  fr_lrcache_out lro;
  fr_idxdec_out ixo;
  fr_ptrtab_out pto;
  fr_pcrf_out pco;
  uint64_t t;      /* next cycle of the RMU units (cycle 0 was their reset edge) */
  uint64_t st_t;   /* next cycle of fr_status */
  int clear;       /* kernel launch: clear the cache and the PCRF */
  fr_wr q[FR_QCAP];
  int qh, qn;
  int failed;
  rf_diag fd;
};

fr_rmu *fr_rmu_new(int sm, hw_mode mode, hw_wave *wave, int pcrf_entries, rf_diag *d) {
  fr_rmu *r = rf_calloc(1, sizeof *r, d);
  if (!r) return NULL;
  r->sm = sm;
  r->t = r->st_t = 1;
  int64_t pp[HW_MAX_PARAMS], tp[HW_MAX_PARAMS];
  hw_params_default(&fr_pcrf_desc, pp);
  hw_params_default(&fr_ptrtab_desc, tp);
  if (hw_param_set(&fr_pcrf_desc, pp, "ENTRIES", pcrf_entries, d) < 0 ||
      hw_param_set(&fr_ptrtab_desc, tp, "ENTRIES", pcrf_entries, d) < 0)
    goto fail;
  char name[64];
  snprintf(name, sizeof name, "sm%d.fr_status", sm);
  if (!(r->st = fr_status_new(name, mode, NULL, wave, d))) goto fail;
  snprintf(name, sizeof name, "sm%d.fr_lrcache", sm);
  if (!(r->lrc = fr_lrcache_new(name, mode, NULL, wave, d))) goto fail;
  snprintf(name, sizeof name, "sm%d.fr_idxdec", sm);
  if (!(r->idx = fr_idxdec_new(name, mode, NULL, wave, d))) goto fail;
  snprintf(name, sizeof name, "sm%d.fr_ptrtab", sm);
  if (!(r->ptr = fr_ptrtab_new(name, mode, tp, wave, d))) goto fail;
  snprintf(name, sizeof name, "sm%d.fr_pcrf", sm);
  if (!(r->pcrf = fr_pcrf_new(name, mode, pp, wave, d))) goto fail;
  r->pco.free_cnt_o = (uint64_t)pcrf_entries;
  return r;
fail:
  fr_rmu_free(r);
  return NULL;
}

void fr_rmu_free(fr_rmu *r) {
  if (!r) return;
  hw_unit_free(r->st);
  hw_unit_free(r->lrc);
  hw_unit_free(r->idx);
  hw_unit_free(r->ptr);
  hw_unit_free(r->pcrf);
  free(r);
}

void fr_rmu_kernel(fr_rmu *r) {
  r->clear = 1;
  r->qn = 0;
}

static void fail_once(fr_rmu *r, const rf_diag *d) {
  if (r->failed) return;
  r->failed = 1;
  r->fd = *d;
}

void fr_rmu_disagree(fr_rmu *r, const char *what, long units, long policy) {
  rf_diag d;
  rf_fail(&d, "SM %d FineReg: the units' %s is %ld, the policy's bookkeeping %ld (the units "
              "are the hardware: the policy is wrong)",
          r->sm, what, units, policy);
  fail_once(r, &d);
}

int fr_rmu_status(fr_rmu *r, int cta, int ctx, int reg) {
  if (r->qn >= FR_QCAP) {
    rf_diag d;
    rf_fail(&d, "SM %d FineReg: more than %d CTA status writes queued", r->sm, FR_QCAP);
    fail_once(r, &d);
    return -1;
  }
  r->q[(r->qh + r->qn) % FR_QCAP] = (fr_wr){cta, ctx, reg};
  r->qn++;
  return 0;
}

/* One edge of the four RMU units at r->t; inputs cleared after. */
static int rmu_tick(fr_rmu *r) {
  rf_diag d;
  if (fr_lrcache_step(r->lrc, r->t, &r->lri, &r->lro, &d) < 0 ||
      fr_idxdec_step(r->idx, r->t, &r->ixi, &r->ixo, &d) < 0 ||
      fr_ptrtab_step(r->ptr, r->t, &r->pti, &r->pto, &d) < 0 ||
      fr_pcrf_step(r->pcrf, r->t, &r->pci, &r->pco, &d) < 0) {
    fail_once(r, &d);
    return -1;
  }
  r->t++;
  memset(&r->lri, 0, sizeof r->lri);
  memset(&r->ixi, 0, sizeof r->ixi);
  memset(&r->pti, 0, sizeof r->pti);
  memset(&r->pci, 0, sizeof r->pci);
  return 0;
}

/* One edge of fr_status at `now`: up to two queued writes (ports A and B, two different CTAs),
 * the written CTA read back and compared, this cycle's stall/ready vectors (NULL: none). */
static void status_step(fr_rmu *r, uint64_t now, const uint32_t *stall, const uint32_t *ready) {
  memset(&r->sti, 0, sizeof r->sti);
  fr_wr last = {-1, 0, 0};
  if (r->qn > 0) {
    fr_wr a = r->q[r->qh];
    r->qh = (r->qh + 1) % FR_QCAP;
    r->qn--;
    r->sti.wa_i = 1;
    r->sti.wa_cta_i = (uint64_t)a.cta;
    r->sti.wa_ctx_i = (uint64_t)a.ctx;
    r->sti.wa_reg_i = (uint64_t)a.reg;
    last = a;
    if (r->qn > 0 && r->q[r->qh].cta != a.cta) {
      fr_wr b = r->q[r->qh];
      r->qh = (r->qh + 1) % FR_QCAP;
      r->qn--;
      r->sti.wb_i = 1;
      r->sti.wb_cta_i = (uint64_t)b.cta;
      r->sti.wb_ctx_i = (uint64_t)b.ctx;
      r->sti.wb_reg_i = (uint64_t)b.reg;
      last = b;
    }
    r->sti.rd_cta_i = (uint64_t)last.cta;
  }
  for (int k = 0; k < FR_RMU_CTA_WORDS; k++) {
    r->sti.stall_i[k] = stall ? stall[k] : 0;
    r->sti.ready_i[k] = ready ? ready[k] : 0;
  }
  rf_diag e;
  if (fr_status_step(r->st, now, &r->sti, &r->sto, &e) < 0) {
    fail_once(r, &e);
  } else if (last.cta >= 0 &&
             ((int)r->sto.rd_ctx_o != last.ctx || (int)r->sto.rd_reg_o != last.reg)) {
    rf_fail(&e, "SM %d FineReg: fr_status holds CTA %d as (context %d, register %d) after "
                "writing (%d, %d)",
            r->sm, last.cta, (int)r->sto.rd_ctx_o, (int)r->sto.rd_reg_o, last.ctx, last.reg);
    fail_once(r, &e);
  }
  r->st_t = now + 1;
}

int fr_rmu_cycle(fr_rmu *r, uint64_t now, rf_diag *d) {
  if (now == 0) return 0;
  if (r->clear && r->t <= now) {
    r->t = now;
    r->lri.clr_i = 1;
    r->pci.clr_i = 1;
    rmu_tick(r);
    r->clear = 0;
  }
  /* fr_status: stepped in a cycle with queued writes, unless a decision stepped it already */
  if (!r->failed && now >= r->st_t && r->qn > 0) status_step(r, now, NULL, NULL);
  if (r->failed) {
    *d = r->fd;
    return -1;
  }
  return 0;
}

int fr_rmu_queued(const fr_rmu *r) { return r->qn; }

int fr_rmu_select(fr_rmu *r, uint64_t now, const uint32_t *stall, const uint32_t *ready,
                  fr_rmu_sel *sel) {
  memset(sel, 0, sizeof *sel);
  if (r->failed) return -1;
  if (now < r->st_t) { /* fr_status already took this cycle's edge: no second answer */
    sel->stale = 1;
    return 0;
  }
  status_step(r, now, stall, ready);
  if (r->failed) return -1;
  sel->stale = r->qn > 0;
  sel->vic = r->sto.vic_valid_o ? (int)r->sto.vic_cta_o : -1;
  sel->cand = r->sto.cand_valid_o ? (int)r->sto.cand_cta_o : -1;
  sel->cand_reg = (int)r->sto.cand_reg_o;
  sel->mov = r->sto.mov_valid_o ? (int)r->sto.mov_cta_o : -1;
  return 0;
}

int fr_rmu_switch(fr_rmu *r, const fr_rmu_req *q, fr_rmu_res *res) {
  memset(res, 0, sizeof *res);
  res->fit = 1;
  if (r->failed) return -1;
  if (r->t < q->now) r->t = q->now;
  if (r->clear) { /* kernel clear not yet applied: it goes first */
    r->lri.clr_i = 1;
    r->pci.clr_i = 1;
    if (rmu_tick(r) < 0) return -1;
    r->clear = 0;
  }
  uint64_t t0 = q->now;
  int nw = q->out_cta >= 0 ? q->nwarps : 0;
  uint64_t vec[FR_RMU_WARPS] = {0};
  /* 1. live vectors: one lookup a cycle; a miss loads the vector, fills, looks up again */
  for (int w = 0; w < nw; w++) {
    if (!q->has[w]) continue;
    for (int tries = 0;; tries++) {
      r->lri.lk_i = 1;
      r->lri.lk_pc_i = q->pc[w];
      if (rmu_tick(r) < 0) return -1;
      if (r->lro.hit_o) break;
      if (tries > 0) {
        fr_rmu_disagree(r, "lookup after its fill (hit)", 0, 1);
        return -1;
      }
      res->misses++;
      r->t += q->miss_cycles;
      r->lri.fill_i = 1;
      r->lri.fill_pc_i = q->pc[w];
      r->lri.fill_vec_i = q->vec[w];
      if (rmu_tick(r) < 0) return -1;
    }
    if (r->lro.vec_o != q->vec[w]) {
      fr_rmu_disagree(r, "cached live vector (low 32 bits)", (long)(uint32_t)r->lro.vec_o,
                      (long)(uint32_t)q->vec[w]);
      return -1;
    }
    res->hits += 1;
    vec[w] = r->lro.vec_o;
  }
  res->hits -= res->misses;
  /* 2. need: the decoder's count of each warp's vector */
  int need = 0;
  for (int w = 0; w < nw; w++) {
    if (!q->has[w]) continue;
    r->ixi.ld_i = 1;
    r->ixi.ld_vec_i = vec[w];
    r->ixi.ld_warp_i = (uint64_t)w;
    if (rmu_tick(r) < 0) return -1;
    need += (int)r->ixo.cnt_o;
  }
  res->need = need;
  /* 3. the candidate's pointer-table line and the fit */
  int cand = q->in_cta >= 0;
  unsigned chead = 0, ccnt = 0;
  if (cand || q->fit_check) {
    r->pti.rd_i = (uint64_t)cand;
    r->pti.rd_cta_i = cand ? (uint64_t)q->in_cta : 0;
    r->pti.need_i = (uint64_t)need;
    r->pti.free_i = r->pco.free_cnt_o;
    r->pti.cand_i = (uint64_t)cand;
    if (rmu_tick(r) < 0) return -1;
    chead = (unsigned)r->pto.rd_head_o;
    ccnt = (unsigned)r->pto.rd_cnt_o;
    if (q->fit_check && !r->pto.fit_o) {
      res->fit = 0;
      res->cycles = r->t - t0;
      return 0;
    }
  }
  /* 4. build the out CTA's chain while walking the in CTA's */
  int building = need > 0, walking = cand && ccnt > 0;
  int w = 0;
  while (w < nw && vec[w] == 0) w++;
  if (building) {
    r->pci.bld_start_i = 1;
    r->ixi.ld_i = 1;
    r->ixi.ld_vec_i = vec[w];
    r->ixi.ld_warp_i = (uint64_t)w;
  }
  if (walking) {
    r->pci.walk_start_i = 1;
    r->pci.walk_head_i = chead;
  }
  if (building || walking) {
    if (rmu_tick(r) < 0) return -1;
  }
  /* fr_pcrf accepts the start only with a free entry: in a swap of a full PCRF the first one
   * comes from the walk, so the start is asked again until it is taken */
  int started = building && r->pco.bld_busy_o;
  while (building || walking) {
    if (walking) {
      if (!r->pco.walk_valid_o) {
        fr_rmu_disagree(r, "chain walk valid", 0, 1);
        return -1;
      }
      res->restored++;
      if (r->pco.walk_last_o) walking = 0;
    }
    if (building) {
      int n2 = w + 1;
      while (n2 < nw && vec[n2] == 0) n2++;
      /* the chain's last register (the last index of the last warp with live registers) needs
       * no further entry; a warp's last index before more warps does, like any other push, so
       * it waits for room (fr_pcrf refuses it otherwise, and the decoder must not move on) */
      int last = r->ixo.last_o && n2 >= nw;
      if (!r->ixo.valid_o) { /* the chain is not done: indices must follow */
        fr_rmu_disagree(r, "index decoder valid while the chain is built", 0, 1);
        return -1;
      }
      /* a start, or a push that is not the chain's last, needs a free entry; without a walk
       * nothing frees one any more */
      if (!walking && !r->pco.bld_room_o && (!started || !last)) {
        fr_rmu_disagree(r, "PCRF room for a chain that fit", 0, 1);
        return -1;
      }
      if (!started) {
        r->pci.bld_start_i = r->pco.bld_room_o;
      } else if (last || r->pco.bld_room_o) {
        r->pci.bld_push_i = 1;
        r->pci.bld_warp_i = r->ixo.warp_o;
        r->pci.bld_reg_i = r->ixo.idx_o;
        r->pci.bld_last_i = (uint64_t)last;
        if (r->ixo.last_o && !last) {
          w = n2;
          r->ixi.ld_i = 1;
          r->ixi.ld_vec_i = vec[w];
          r->ixi.ld_warp_i = (uint64_t)w;
        } else {
          r->ixi.pop_i = 1;
        }
      }
    }
    if (rmu_tick(r) < 0) return -1;
    if (building && !started) started = (int)r->pco.bld_busy_o;
    if (building && r->pco.bld_done_o) {
      building = 0;
      res->moved = (int)r->pco.bld_cnt_o;
    }
  }
  unsigned head = (unsigned)r->pco.bld_head_o; /* the finished chain's, kept after done */
  /* 5. the table line of the CTA that moved out */
  if (q->out_cta >= 0) {
    r->pti.wr_i = 1;
    r->pti.wr_cta_i = (uint64_t)q->out_cta;
    r->pti.wr_head_i = need ? head : 0;
    r->pti.wr_cnt_i = need ? (uint64_t)res->moved : 0;
    if (rmu_tick(r) < 0) return -1;
  }
  res->free_after = (int)r->pco.free_cnt_o;
  res->cycles = r->t - t0;
  return 0;
}
