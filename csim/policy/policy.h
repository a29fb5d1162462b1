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
#include "../hw/unit.h"
#include "../stats/stats.h"
#include "../trace/trace.h"

/* What the SM tells the policy about one warp when asking whether it may issue. */
typedef struct policy_warp {
  int sm;
  int cta_slot;   /* SM-local CTA slot */
  int warp;       /* warp id within its CTA */
  int slot;       /* SM-local warp slot */
  const trace_warp *tw; /* its trace: the address pool of its memory instructions */
  uint32_t pc;    /* index of `in` in the warp's instruction stream */
} policy_warp;

/* What the GPU tells the policy about one SM once per cycle (policy_ops.cycle). */
typedef struct policy_sm_view {
  int resident_ctas;
  int resident_warps;     /* launched and not finished */
  uint64_t warp_insts;    /* warp instructions the SM issued in this kernel so far */
  uint64_t stall_cycles;  /* scheduler-cycles in which nothing issued, this kernel so far */
} policy_sm_view;

/* CTA switching (csim/core/cta_switch.c; FineReg, Virtual Thread, Reg+DRAM): a resident CTA is
 * active (its warps are schedulable) or pending (not schedulable; its registers held elsewhere),
 * or on its way between the two. */
typedef enum policy_cta_state {
  PCTA_ACTIVE = 0,
  PCTA_SWITCH_OUT, /* being moved out: not schedulable, pending when the switch completes */
  PCTA_PENDING,
  PCTA_SWITCH_IN   /* being moved back: schedulable when the switch completes */
} policy_cta_state;

/* Where one warp of a CTA is: its trace and next instruction (tw NULL: finished/not launched). */
typedef struct policy_warp_pos {
  const trace_warp *tw;
  uint32_t pc;        /* index of its next instruction */
  uint8_t exited;
} policy_warp_pos;

/* One resident CTA as the switching machinery sees it. */
typedef struct policy_cta_view {
  int slot;
  policy_cta_state state;
  int stalled;        /* active: no warp can issue until a long-latency (global/local) load
                         returns: each unfinished warp waits on one, at a barrier or exited,
                         and at least one waits on a load */
  int ready;          /* pending: some warp would be able to issue (its loads returned) */
  uint64_t since;     /* cycle the CTA entered `state` */
  long linear_id;     /* blockIdx, linear */
  int nwarps;
  const policy_warp_pos *warps; /* per warp id */
} policy_cta_view;

/* A switch the policy starts. The machinery parks `out_slot` (unschedulable at once, pending
 * after out_cycles and after its out_lines stores were accepted by the L1) and activates
 * `in_slot` (schedulable after in_cycles and after its in_lines loads returned). Lines are
 * 128-byte accesses to consecutive addresses from out_addr/in_addr through the L1/L2/DRAM path
 * (Reg+DRAM); 0 lines for on-chip moves. */
typedef struct policy_switch {
  int out_slot, in_slot;              /* -1: none */
  uint64_t out_cycles, in_cycles;
  uint32_t out_lines, in_lines;
  uint64_t out_addr, in_addr;
} policy_switch;

typedef struct policy policy;

/* A global load at the head of the LD/ST queue, offered to a load-path hook (policy_ops.load). */
typedef struct policy_load {
  int sm;
  int slot;                /* SM-local warp slot */
  const trace_inst *in;    /* the load (kind OPK_LOAD, space SPACE_GLOBAL, ndst > 0) */
  const uint64_t *addrs;   /* its 32 lane addresses from the trace (inactive lanes 0) */
} policy_load;

/* Answers of policy_ops.load. */
enum { POLICY_LOAD_MEMORY = 0, POLICY_LOAD_WAIT = 1, POLICY_LOAD_SERVED = 2 };

typedef struct policy_ops {
  const char *name;
  const char *help;
  /* Allocates p->state. */
  int (*create)(policy *p, rf_diag *d);
  void (*destroy)(policy *p);
  /* A kernel is about to start; may reject shapes it cannot ever run (error with reason). */
  int (*kernel_begin)(policy *p, const trace_kernel_info *k, rf_diag *d);
  /* May SM `sm` accept the next CTA, `tb`, in `cta_slot` now? Returns how many of its warps to
   * launch now (0 = not now; k->warps_per_tb = the whole CTA). On a non-zero answer the policy
   * has allocated the resources for those warps (warps 0..n-1). */
  int (*cta_admit)(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                   const trace_tb *tb, uint64_t now);
  /* Optional: 0 if cta_admit on SM `sm` would answer 0 now whatever the slot and block, else 1;
   * without side effects. The dispatcher asks every SM each cycle, and skips its walk when none
   * may admit (most cycles of a run whose SMs are full; absent: it walks). */
  int (*may_admit)(const policy *p, int sm);
  /* Optional, with may_admit: 1 if may_admit would answer 1 for some SM, in one call (the
   * dispatcher's question each cycle; absent, it asks every SM). Thread-safe against cta_exit,
   * which the SMs stepped in parallel call. */
  int (*may_admit_any)(const policy *p);
  /* For CTAs launched partially: may warp `warp` of `cta_slot` start now? (1 = allocated) */
  int (*warp_admit)(policy *p, int sm, int cta_slot, int warp, const trace_kernel_info *k,
                    uint64_t now);
  /* Warp `warp` of `cta_slot` was given SM warp slot `slot` (after cta_admit / warp_admit). */
  void (*warp_start)(policy *p, int sm, int cta_slot, int warp, int slot, uint64_t now);
  /* Scheduling class of a warp slot when p->warp_priorities is set: each scheduler tries lower
   * classes first, keeping its own (LRR/GTO/...) order within a class (e.g. owner-warp-first). */
  int (*warp_priority)(const policy *p, int sm, int slot);
  /* Optional, with warp_priority: 1 only if every warp slot of SM `sm` is in one class this
   * cycle (0 whenever unsure), so that each scheduler's own order stands and the issue stage
   * keeps its memos (csim/core/issue.c) instead of sorting and looking at every warp. Absent:
   * the classes may differ every cycle. */
  int (*warp_classes_uniform)(const policy *p, int sm);
  /* Optional, with warp_priority: SM `sm`'s class epoch, a count the policy raises whenever
   * the class of one of its warp slots may have changed (not with time alone). With it, a
   * scheduler reads its warps' classes again only after the count moves or its list changes,
   * and the issue stage keeps its memos in cycles whose classes differ (csim/core/issue.c)
   * instead of sorting and looking at every warp. */
  const uint64_t *(*warp_classes_epoch)(policy *p, int sm);
  /* May this warp issue `in` this cycle? (Lock-based techniques answer 0 to make it retry.) */
  int (*may_issue)(policy *p, const policy_warp *w, const trace_inst *in, uint64_t now);
  /* Optional, with may_issue: SM `sm`'s issue gate, a count the policy raises whenever one of
   * its refusals there may turn into a yes, by anything but the refused warp's own next
   * instruction (which the core follows). It must not move with time alone. While it stands,
   * the core gives a warp refused since it last moved the same answer without asking
   * (csim/core/issue.c), and has refused_again count it as may_issue counts a refusal. */
  const uint64_t *(*issue_gate)(policy *p, int sm);
  void (*refused_again)(policy *p, int sm);
  /* A warp left its slot (exited, nothing in flight); then, after its last warp, the CTA. */
  void (*warp_exit)(policy *p, int sm, int cta_slot, int warp, const trace_kernel_info *k,
                    uint64_t now);
  void (*cta_exit)(policy *p, int sm, int cta_slot, const trace_kernel_info *k, uint64_t now);
  /* Called by the SM in cycles it has resident CTAs, after issue. */
  void (*tick)(policy *p, int sm, uint64_t now);
  /* Optional, with tick: `cycles` cycles of SM `sm` that it slept through (csim/core/quiet.c:
   * nothing of the SM, nor the policy's state for it, changed), counted at once, when it wakes
   * or is about to be offered a CTA. Without it, an SM with a tick hook never sleeps. */
  void (*tick_quiet)(policy *p, int sm, uint64_t cycles);
  /* Called by the GPU for every SM every cycle of a kernel, after CTA dispatch and before the
   * waveform tick: the place to step hardware units (policy->hw_mode, policy->wave). -1 (with
   * d, e.g. a lockstep mismatch) stops the run. v is NULL unless policy.reads_sm_view. */
  int (*cycle)(policy *p, int sm, const policy_sm_view *v, uint64_t now, rf_diag *d);
  /* CTA switching (all optional). The state a newly launched CTA starts in (PCTA_ACTIVE or
   * PCTA_PENDING; absent: active). */
  policy_cta_state (*cta_start_state)(policy *p, int sm, int cta_slot, uint64_t now);
  /* Called by the SM after issue in cycles in which some active CTA is stalled or some
   * pending CTA is ready; `ctas` lists every resident CTA. Returns 1 with *out filled to start
   * a switch, 0 for none. */
  int (*switch_decide)(policy *p, int sm, const policy_cta_view *ctas, int n, uint64_t now,
                       policy_switch *out);
  /* (optional) The views the next switch_decide gets differ from the last call's: what a
   * policy derived from them alone may be kept until this is called. */
  void (*views_changed)(policy *p, int sm);
  /* (optional, for a policy asked every cycle: no decide_on_change) Whether switch_decide on
   * SM `sm`, asked in every cycle from `from` on with the views as they are, would give the
   * same no and change nothing but counters (which switch_idle adds), until a view changes or
   * a CTA of the SM is admitted, exits or switches: the SM may then sleep through those cycles
   * (csim/core/quiet.c). 0 whenever unsure. */
  int (*switch_quiet)(const policy *p, int sm, uint64_t from);
  /* With switch_quiet: SM `sm` slept through `cycles` cycles in which switch_decide would have
   * been asked; counts what those asks would have. */
  void (*switch_idle)(policy *p, int sm, uint64_t cycles);
  /* A CTA finished switching: it is now `state` (PCTA_PENDING or PCTA_ACTIVE). */
  void (*switch_done)(policy *p, int sm, int cta_slot, policy_cta_state state, uint64_t now);
  /* Writes the policy's view of SM `sm` (resources, units) for the watchdog report. */
  void (*report)(const policy *p, int sm, FILE *out);
  /* Appends technique counters to a kernel's record (total = 0, called after the kernel) or
   * to the run's total (total = 1). Printed as `name = value` lines and written to JSON. */
  void (*stats)(const policy *p, stats_record *out, int total);
  /* Load-path hook. Only load techniques set these (LARF, csim/policy/larf.c); they own no CTA
   * admission (cta_admit NULL) and run composed onto an occupancy policy, -rfsim_policy
   * <x>+larf (csim/policy/compose.c), which forwards every other question to <x>.
   * load: a global load with destination registers is offered when it enters the LD/ST queue
   * (*ticket == -1; the hook sets *ticket to its request id) and asked again with that id every
   * cycle it is at the head, until it answers MEMORY (access memory as usual; *ticket is then
   * the ticket, -1 for none, that load_done reports when its data is written back) or SERVED
   * (its registers were written without memory traffic: it completes now); WAIT holds the
   * queue head (a unit is still deciding). */
  int (*load)(policy *p, const policy_load *l, uint64_t now, int *ticket);
  void (*load_done)(policy *p, int sm, int ticket, uint64_t now);
  /* A warp issued `in` (its destination registers are rewritten; a store's addresses are
   * trace_inst_addrs(w->tw, in, ...)). */
  void (*issued)(policy *p, const policy_warp *w, const trace_inst *in, uint64_t now);
} policy_ops;

struct policy {
  const policy_ops *ops;
  const gpu_config *cfg;
  int n_sms;
  hw_mode hw_mode;  /* how the technique's hardware units run (-hw c|rtl|lockstep) */
  hw_wave *wave;    /* -wave: NULL for none; units add their signals in create */
  int warp_priorities; /* number of warp_priority classes in use (0: none; set by create) */
  /* cycle reads its policy_sm_view (set by create; else the GPU passes NULL and spares every
   * SM's counters a read each cycle) */
  int reads_sm_view;
  /* switch_decide's "no" stands until a CTA's view changes: its answer reads only the views
   * and state of its own that changes with them (set by create; else asked every cycle a CTA is
   * stalled or ready) */
  int decide_on_change;
  /* Resident CTAs and warps an SM holds (set by create; 0: -gpgpu_shader_cta and threads per
   * SM / warp size). Larger than the hardware's with CTA switching: pending CTAs are resident. */
  int sm_cta_slots, sm_warp_slots;
  void *state;
};

/* Looks up the policy named by cfg->policy and creates it. */
int policy_create(policy *p, const gpu_config *cfg, int n_sms, hw_mode mode, hw_wave *wave,
                  rf_diag *d);
/* Creates the policy `ops` (tests: a policy outside the registry). */
int policy_create_ops(policy *p, const policy_ops *ops, const gpu_config *cfg, int n_sms,
                      hw_mode mode, hw_wave *wave, rf_diag *d);
/* Frees what the policy made (a composite, its parts: compose.c, which needs nothing else of
 * the registry). */
static inline void policy_destroy(policy *p) {
  if (p->ops && p->ops->destroy) p->ops->destroy(p);
  p->ops = NULL;
}
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
