/* One SM's CTAs under CTA switching, counted alike by Virtual Thread, Reg+DRAM and RegMutex
 * (vt.c) and FineReg (finereg.c): every resident CTA holds its shared memory (a pending CTA's
 * scheduling context is saved there) and an entry of the CTA status monitor; an active CTA also
 * holds one of the hardware's CTA slots and its warps' warp slots; the others are pending. The
 * monitor is FineReg's (finereg.txt sec. V-F), which the Virtual Thread designs share. */
#ifndef RFSIM_POLICY_CTA_RESIDENCY_H
#define RFSIM_POLICY_CTA_RESIDENCY_H

#include "policy.h"

#define RESIDENCY_MAX_CTAS 128  /* CTA status monitor entries */
#define RESIDENCY_MAX_WARPS 512

typedef struct cta_residency {
  int smem_free;
  int active_ctas, active_warps;     /* holding the hardware's scheduling slots */
  int resident_ctas, resident_warps; /* active and pending */
  int pending;
} cta_residency;

/* What an SM's cycles with resident CTAs add up about them: part of a policy's counter set
 * (counter_set.h), pending_max one of its peaks. */
typedef struct residency_tally {
  uint64_t pending_sum, active_sum, sm_cycles;
  uint64_t pending_max;
} residency_tally;

/* The resident CTAs and warps an SM holds (p->sm_cta_slots, p->sm_warp_slots): the monitor's,
 * or the hardware's scheduling slots where they are more. */
void residency_slots(policy *p, int hw_ctas, int hw_warps);

/* Room for one more resident CTA: a monitor entry, its warps and its shared memory. */
int residency_room(const cta_residency *r, const cta_needs *n);

/* Room in the hardware's scheduling slots (CTA and warp slots) for one more active CTA. */
int residency_active_room(const cta_residency *r, const cta_needs *n, int hw_ctas,
                          int hw_warps);

/* A CTA takes the hardware's scheduling slots (a CTA slot, its warps' slots) or gives them
 * back: on admission and exit, and when a switch moves it in or out. */
void residency_take_slots(cta_residency *r, const cta_needs *n);
void residency_free_slots(cta_residency *r, const cta_needs *n);

/* A CTA becomes resident, active or pending. */
void residency_admit(cta_residency *r, const cta_needs *n, int active);

/* An active CTA finished: its slots and shared memory are free. */
void residency_exit(cta_residency *r, const cta_needs *n);

/* `cycles` SM cycles in which r stood: t counts its pending and active CTAs. */
void residency_sample(const cta_residency *r, residency_tally *t, uint64_t cycles);

/* Appends <prefix>_pending_ctas_mean, _pending_ctas_max and _active_ctas_mean. */
void residency_stats(stats_record *out, const char *prefix, const residency_tally *t);

#endif
