/* FineReg's five hardware units on one SM, driven for the policy (csim/policy/finereg.c) as
 * csim/hw/finereg/README.md "Driving a switch" describes: the switch latency is the cycles the
 * units take to answer (their valid/done outputs), in every -hw mode. */
#ifndef RFSIM_POLICY_FINEREG_RMU_H
#define RFSIM_POLICY_FINEREG_RMU_H

#include <stdint.h>

#include "../hw/unit.h"
#include "../common/diag.h"

#define FR_RMU_WARPS 32
#define FR_RMU_CTAS 128                      /* fr_status's CTAS */
#define FR_RMU_CTA_WORDS (FR_RMU_CTAS / 32)  /* its stall_i/ready_i vectors */

typedef struct fr_rmu fr_rmu;

/* One switch's work for the register management unit. */
typedef struct fr_rmu_req {
  int out_cta;          /* CTA whose live registers go to the PCRF (-1: none) */
  int nwarps;
  int has[FR_RMU_WARPS];      /* warp w has a next instruction (else skipped) */
  uint32_t pc[FR_RMU_WARPS];  /* its PC */
  uint64_t vec[FR_RMU_WARPS]; /* the off-chip table's live vector for it (the fill on a miss) */
  int in_cta;           /* CTA whose chain is walked back from the PCRF (-1: none) */
  int fit_check;        /* ask fr_ptrtab's fit (with the candidate's count when in_cta >= 0) */
  uint64_t now;
  uint64_t miss_cycles; /* the off-chip load of a vector after a miss */
} fr_rmu_req;

typedef struct fr_rmu_res {
  int fit;              /* fr_ptrtab.fit_o (1 when no check was asked) */
  uint64_t cycles;      /* from `now` to the units' last answer (the bookkeeping write) */
  int need;             /* live registers counted by fr_idxdec */
  int moved, restored;  /* chain entries built / walked */
  int free_after;       /* fr_pcrf.free_cnt_o after the switch */
  uint64_t hits, misses;
} fr_rmu_res;

/* The CTA status monitor's answer for a switch decision (sec. V-B): CTA ids (SM CTA slots),
 * -1 for none; each the lowest id of its class (fr_status's priority encoders). */
typedef struct fr_rmu_sel {
  int vic;       /* active (2, 2) and stalled: to switch out */
  int cand;      /* pending and ready: (1, 2) first, else (1, 1); to switch in */
  int cand_reg;  /* its register field: 2 (ACRF), 1 (PCRF), 0 (none) */
  int mov;       /* pending (1, 2) and stalled: its live registers may move to the PCRF */
  int stale;     /* status writes still queued (or fr_status already stepped this cycle): the
                    fields lag the policy; no decision this cycle */
} fr_rmu_sel;

fr_rmu *fr_rmu_new(int sm, hw_mode mode, hw_wave *wave, int pcrf_entries, rf_diag *d);
void fr_rmu_free(fr_rmu *r);
/* Kernel launch: the cache and the PCRF are cleared at the next cycle. */
void fr_rmu_kernel(fr_rmu *r);
/* Queue a CTA status monitor write (ctx, reg: Table IV codes), applied in fr_rmu_cycle. */
int fr_rmu_status(fr_rmu *r, int cta, int ctx, int reg);
/* Status writes queued (not yet taken by fr_status). */
int fr_rmu_queued(const fr_rmu *r);
/* The decision cycle `now`: fr_status takes this cycle's edge (the queued writes, as
 * fr_rmu_cycle would) with stall_i/ready_i = stall/ready (FR_RMU_CTA_WORDS words, bit i = CTA i),
 * and *sel is its search outputs after the edge. 0, or -1 when the unit failed (reported by the
 * next fr_rmu_cycle). */
int fr_rmu_select(fr_rmu *r, uint64_t now, const uint32_t *stall, const uint32_t *ready,
                  fr_rmu_sel *sel);
/* Run a switch on the units from req->now; 0 with *res, -1 when a unit failed (lockstep
 * mismatch) or disagreed with the policy: the failure is reported by the next fr_rmu_cycle. */
int fr_rmu_switch(fr_rmu *r, const fr_rmu_req *req, fr_rmu_res *res);
/* Record a disagreement between the units and the policy (reported by fr_rmu_cycle). */
void fr_rmu_disagree(fr_rmu *r, const char *what, long units, long policy);
/* Every cycle: the queued status writes (2 ports), kernel clears; -1 with d on a failure. */
int fr_rmu_cycle(fr_rmu *r, uint64_t now, rf_diag *d);

#endif
