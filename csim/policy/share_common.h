/* What register sharing and scratchpad sharing have in common (resource_sharing sec. III-IV):
 * the per-kernel plan (share_plan.h) fixed into CTA-slot roles, thread-block ownership within a
 * pair, owner-warp-first classes, and the FIFOs that feed the dispatcher's writes into the
 * technique's hardware unit one per port per cycle.
 *
 * Roles: with U unshared TBs and S pairs, CTA slots 0..U-1 hold unshared TBs and slots U+2s,
 * U+2s+1 pair s; slots >= M are never used. The dispatcher fills the lowest free slot, so a TB
 * that replaces a finished one takes over its role and its partner.
 * Ownership (the papers' "owner block"): the TB the other waits for. The first TB of a pair to
 * arrive owns; when the owner finishes its partner becomes owner and the TB launched in its
 * place is the non-owner; a non-owner that is granted the shared resource (the owner never
 * claimed it, or released all of it) becomes the owner. */
#ifndef RFSIM_SHARE_COMMON_H
#define RFSIM_SHARE_COMMON_H

#include <stdint.h>

#include "../hw/bitfield.h"
#include "policy.h"
#include "share_plan.h"

#define SHARE_MAX_TB_WARPS 64
#define SHARE_QUEUE 256

typedef struct share_cta {
  int resident;
  int paired;                   /* its slot belongs to a pair */
  int pair;                     /* pair index s (paired only) */
  int partner;                  /* partner CTA slot (paired only) */
  int owner;                    /* TB owns its pair's shared resource */
  int pending;                  /* unit writes still queued: its warps wait for them */
  uint64_t live;                /* its warps' SM warp slots */
  uint64_t unwritten;           /* launched warp slots whose bits are not yet queued */
  uint64_t waited;              /* warp slots that have waited for a lock */
  int slot_of[SHARE_MAX_TB_WARPS];
} share_cta;

/* A write for one of the unit's write ports. */
typedef struct share_write {
  int cta;                      /* whose `pending` it holds, -1 none */
  int a, b;                     /* tb_wr: tb, partner; warp_wr: sharing, owner */
  uint64_t mask;                /* warp_wr: warp slots */
} share_write;

typedef struct share_fifo {
  int head, n;                  /* (first: the unit's step reads n every cycle, e seldom) */
  share_write e[SHARE_QUEUE];
} share_fifo;

/* A counter set (counter_set.h): uint64_t fields only. */
typedef struct share_counts {
  uint64_t tbs, shared_tbs;     /* TBs dispatched, of which in a pair */
  uint64_t grants;              /* shared-resource locks granted */
  uint64_t lock_waits;          /* issue attempts refused for a lock (retried next cycle) */
  uint64_t setup_waits;         /* issue attempts while a TB's unit writes were queued */
  uint64_t ownership_changes;   /* owner finished (transfer) or non-owner granted */
  uint64_t dwe_blocked;         /* non-owner memory instructions held by dynamic warp execution */
  uint64_t first_waits;         /* warps that waited for a lock at least once */
  uint64_t first_wait_pc_sum;   /* instructions they had issued before their first wait */
  uint64_t sm0_nonowner_mem;    /* non-owner memory instructions SM0 let issue (DWE: none) */
} share_counts;

typedef struct share_sm {
  share_cta *cta;               /* per CTA slot */
  int cfg_due;                  /* kernel start: the unit's configuration write is due */
  int resident;
  int unwritten_ctas;           /* CTAs whose `unwritten` is not 0 (most cycles none) */
  share_counts kern;            /* what this SM counted in the kernel */
  share_fifo tb_q, warp_q;      /* pending tb_wr / warp_wr port writes */
  /* The SM's warp class epoch (policy_ops.warp_classes_epoch): raised here when a TB's
   * residency or live warps change, and by the policy when its unit's class outputs do. */
  uint64_t class_epoch;
} share_sm;

typedef struct share_core {
  share_plan plan;              /* of the current kernel */
  int t_milli;
  int warps_per_tb;
  int warp_slots;
  int cta_slots;
  share_sm *sm;
  int n_sms;
  share_counts total;           /* kernels before the current one */
} share_core;

int share_core_init(share_core *c, const policy *p, double t, rf_diag *d);
void share_core_free(share_core *c, int n_sms);
/* New kernel: its plan; every SM's unit gets a configuration write. -1 if one TB never fits. */
int share_core_kernel_begin(share_core *c, const policy *p, const trace_kernel_info *k,
                            share_resource r, rf_diag *d);
/* Admission by role (0 = not now); queues the TB's partner write and ownership. */
int share_core_cta_admit(share_core *c, int sm, int cta_slot, const trace_kernel_info *k);
void share_core_warp_start(share_core *c, int sm, int cta_slot, int warp, int slot);
/* A TB finished: ownership passes to its partner if it owned. */
void share_core_cta_exit(share_core *c, int sm, int cta_slot);
/* Makes TB `cta_slot` the owner of its pair (a grant to a non-owner); queues the bit writes. */
void share_core_take_ownership(share_core *c, int sm, int cta_slot);
/* This cycle's writes for the unit ports both sharing units have (cfg, tb_wr, warp_wr): the
 * kernel-start configuration once, then one queued write per port. */
typedef struct share_ports {
  int cfg, cfg_mode, cfg_thr;
  int tb_wr, tb, tb_partner;
  int warp_wr, warp_sharing, warp_owner;
  uint64_t warp_mask;
} share_ports;
void share_core_next_ports(share_core *c, int sm, share_ports *o);
/* Copies share_ports into a unit's input struct (rs_share_in, sp_share_in: same port names). */
#define SHARE_PORTS_TO_INPUTS(o, in)          \
  do {                                         \
    (in)->cfg_i = (uint64_t)(o).cfg;           \
    (in)->cfg_mode_i = (uint64_t)(o).cfg_mode; \
    (in)->cfg_thr_i = (uint64_t)(o).cfg_thr;   \
    (in)->tb_wr_i = (uint64_t)(o).tb_wr;       \
    (in)->tb_i = (uint64_t)(o).tb;             \
    (in)->tb_partner_i = (uint64_t)(o).tb_partner; \
    (in)->warp_wr_i = (uint64_t)(o).warp_wr;   \
    (in)->warp_mask_i = (o).warp_mask;         \
    (in)->warp_owner_i = (uint64_t)(o).warp_owner; \
  } while (0)
/* Pops the next write of a port's queue into *w (1) or returns 0; releases its CTA's hold. */
int share_core_pop(share_core *c, int sm, share_fifo *q, share_write *w);
/* Appends to a FIFO; -1 if full (the queues hold a few entries per TB event, so never). */
int share_fifo_push(share_fifo *q, share_write w);

/* A warp's issue attempt was refused for a lock: counts it, and where the warp was the first
 * time (how far a non-owner runs before it needs the shared resource). */
void share_core_lock_wait(share_core *c, int sm, int cta_slot, int slot, uint32_t pc);

/* Owner-warp-first class of a TB's warps: 0 owner, 1 unshared, 2 non-owner. */
enum { SHARE_CLASS_OWNER = 0, SHARE_CLASS_UNSHARED = 1, SHARE_CLASS_NONOWNER = 2 };

/* Appends <prefix>_* counters and the plan to a stats record. */
void share_core_stats(const share_core *c, const char *prefix, stats_record *out, int total);

#endif
