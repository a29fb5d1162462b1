/* Occupancy of register sharing and scratchpad sharing (resource_sharing_register_and_scratchpad
 * sec. III-C, register_sharing sec. 4): how many thread blocks an SM holds when pairs of them
 * share (1+t)*Rtb units of one resource, and how they split into unshared TBs and shared pairs.
 *
 * With R units per SM, Rtb per TB and g = floor(R/Rtb): S + U = g keeps as many TBs making
 * progress as without sharing (one TB of each pair always runs), U*Rtb + S*Rtb*(1+t) <= R,
 * and M = U + 2S = floor(g + (R/Rtb - g)/t). M is then capped by threads, CTA slots, the other
 * resource, and 2g (S <= g). If M is not above the baseline (GPGPU-Sim's max_cta), every TB
 * runs unshared: the papers' 0% and 10% rows. */
#ifndef RFSIM_SHARE_PLAN_H
#define RFSIM_SHARE_PLAN_H

#include "../config/config.h"
#include "../trace/trace.h"

typedef enum share_resource { SHARE_REGISTERS, SHARE_SCRATCHPAD } share_resource;

typedef struct share_plan {
  int baseline;       /* TBs per SM without sharing (GPGPU-Sim's max_cta) */
  int g;              /* floor(R / Rtb) of the shared resource */
  int formula;        /* floor(g + (R/Rtb - g)/t), before the caps */
  int resident;       /* M: TBs per SM with sharing (= baseline when sharing does not help) */
  int pairs;          /* S: shared TB pairs (0 when sharing is off) */
  int unshared;       /* U = resident - 2S */
  const char *limit;  /* what bounds `resident`: "sharing formula", "threads", "CTA slots",
                         "registers", "shared memory", "2g", or "baseline" (no gain) */
  /* private part of a shared TB: registers per thread numbered below this are its own
   * (floor(regs_per_thread * t)); scratchpad offsets below this are its own (floor(Rtb * t)) */
  int private_units;
} share_plan;

/* t is given in thousandths (0.1 -> 100), 1..1000, so that the floor is exact: the tables the
 * papers print depend on it (e.g. 16384 mod 2560 = 1024 = 4 * 0.1 * 2560 exactly). */
void share_plan_compute(const gpu_config *c, const trace_kernel_info *k, share_resource r,
                        int t_milli, share_plan *out);

/* t (0 < t <= 1, from -regshare_t / -spshare_t) in thousandths, rounded. */
int share_t_milli(double t);

#endif
