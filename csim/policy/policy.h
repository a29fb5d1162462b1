/* The resource policy: the only place that knows a technique. The SM and the CTA dispatcher ask
 * it questions through this interface; the baseline answers like a GPU with thread-block-level
 * resource management (GPGPU-Sim's max_cta rule). Later techniques (WarpMan, register and
 * scratchpad sharing, FineReg, ...) are further implementations of the same table.
 *
 * A policy keeps its own per-SM state (indexed by sm), so SMs stay independent. */
#ifndef RFSIM_POLICY_H
#define RFSIM_POLICY_H

#include <stdint.h>
#include <stdio.h>

#include "../common/diag.h"
#include "../config/config.h"
#include "../trace/trace.h"

/* What the SM tells the policy about one warp when asking whether it may issue. */
typedef struct policy_warp {
  int sm;
  int cta_slot;   /* SM-local CTA slot */
  int warp;       /* warp id within its CTA */
  int slot;       /* SM-local warp slot */
} policy_warp;

typedef struct policy policy;

typedef struct policy_ops {
  const char *name;
  const char *help;
  /* Allocates p->state. */
  int (*create)(policy *p, rf_diag *d);
  void (*destroy)(policy *p);
  /* A kernel is about to start; may reject shapes it cannot ever run (error with reason). */
  int (*kernel_begin)(policy *p, const trace_kernel_info *k, rf_diag *d);
  /* May SM `sm` accept the next CTA now? Returns how many of its warps to launch now
   * (0 = not now; k->warps_per_tb = the whole CTA). On a non-zero answer the policy has
   * allocated the resources for those warps. */
  int (*cta_admit)(policy *p, int sm, int cta_slot, const trace_kernel_info *k);
  /* For CTAs launched partially: may warp `warp` of `cta_slot` start now? (1 = allocated) */
  int (*warp_admit)(policy *p, int sm, int cta_slot, int warp, const trace_kernel_info *k);
  /* May this warp issue `in` this cycle? (Lock-based techniques answer 0 to make it retry.) */
  int (*may_issue)(policy *p, const policy_warp *w, const trace_inst *in, uint64_t now);
  void (*warp_exit)(policy *p, int sm, int cta_slot, int warp, const trace_kernel_info *k);
  void (*cta_exit)(policy *p, int sm, int cta_slot, const trace_kernel_info *k);
  void (*tick)(policy *p, int sm, uint64_t now);
  /* Technique counters as `name = value` lines (may be NULL). */
  void (*print_stats)(const policy *p, FILE *out);
} policy_ops;

struct policy {
  const policy_ops *ops;
  const gpu_config *cfg;
  int n_sms;
  void *state;
};

/* Looks up the policy named by cfg->policy and creates it. */
int policy_create(policy *p, const gpu_config *cfg, int n_sms, rf_diag *d);
void policy_destroy(policy *p);
/* Names of all policies, for --help and error messages ("baseline, ..."). */
void policy_list(char *buf, size_t n);

/* GPGPU-Sim's per-CTA resource needs, shared by policies. */
typedef struct cta_needs {
  int threads;   /* padded to a warp multiple */
  int warps;
  int regs;      /* registers per CTA after rounding */
  int regs_per_warp;
  int shmem;
} cta_needs;

cta_needs policy_cta_needs(const gpu_config *c, const trace_kernel_info *k);
/* The static occupancy GPGPU-Sim's max_cta computes: CTAs per SM (0 if one never fits), and
 * which resource limits it ("threads", "registers", "shared memory", "CTA slots"). */
int policy_max_ctas(const gpu_config *c, const trace_kernel_info *k, const char **limiter);

#endif
