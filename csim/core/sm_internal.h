/* SM internals shared by the files of csim/core. Nothing outside csim/core includes this.
 * The files call each other one way only (each calls the ones after it, never back):
 *   sm.c        create, CTA/warp launch, the cycle, the watchdog report
 *   quiet.c     sleeping through cycles in which nothing can move
 *   issue.c     the issue stage (check_issue, stall classification)
 *   exec.c      the operand collector's SM side and the execute stage
 *   ldst.c      the LD/ST unit, replies from the memory system
 *   fetch.c     instruction fetch;  cta_switch.c  CTA switching
 *   warp.c      barriers, load completion, warps and CTAs leaving the SM
 *   sched.c     the schedulers' warp lists and order;  opcoll.c / regfile.c  (own headers) */
#ifndef RFSIM_SM_INTERNAL_H
#define RFSIM_SM_INTERNAL_H

#include "opcoll.h"
#include "sm.h"

#define SM_MAX_BARRIERS 16
#define SM_NUM_REGS 256
/* A register's ready time (sm_warp.reg_ready) in 32 bits rather than a cycle's 64: with 80 SMs
 * of 64 warps (the TITAN V config) the scoreboard's reads and writes missed the host's L2 more
 * than any others, and half the bytes ran that config 4-7% faster. A time is kept as its
 * distance from the SM's reg_epoch, which reg_rebase moves on every reg_epoch_span cycles
 * (warp.c), so a distance stays below the span plus the longest latency; the two marks lie
 * above every distance. */
typedef uint32_t reg_time;
#define REG_WAITS_ON_MEMORY UINT32_MAX
#define REG_IN_PIPELINE (UINT32_MAX - 1) /* issued, not yet through the operand collector */
#define REG_EPOCH_SPAN 4096u              /* sm_set_reg_epoch_span changes it, for tests */
#define LDST_QUEUE 2
/* The LD/ST writeback stage's clients (ldst.c), in GPGPU-Sim's order. */
enum { WB_SHARED = 0, WB_GLOBAL, WB_L1D, WB_CLIENTS };
#define MAX_ACCESSES 64
#define IBUFFER_SIZE 2           /* decoded instructions per warp, as GPGPU-Sim's ibuffer */
/* Where instructions live in the simulated address space (GPGPU-Sim's PROGRAM_MEM_START);
 * each kernel gets its own 16 MB window so kernels do not share I-cache lines. */
#define CODE_BASE 0xF0000000ull
#define CODE_WINDOW_SHIFT 24

typedef struct sm_warp {
  /* The first cache line: what the issue stage reads when it looks at a warp. Its memo
   * (issue.c): check_issue answers skip_why at every cycle before skip_until (0: ask). */
  _Alignas(64) uint64_t skip_until;
  uint8_t live;          /* slot holds a launched warp that has not finished */
  uint8_t exited;        /* executed EXIT (or ran out of trace) */
  int8_t barrier;        /* barrier id it waits at, or -1 */
  uint8_t skip_why;      /* warp_wait */
  uint8_t policy_held;   /* its last issue check was refused by the policy (a lock): the
                          * two-level scheduler lets others take its active slot (sched.c) */
  uint8_t skip_cls;      /* skip_why WAIT_PIPELINE (or WAIT_POLICY): its pipeline, whose
                          * ID_OC is full (or was not when the policy refused it) */
  uint8_t skip_mask;     /* memo_index of the kept answer + 1 (0: in no memo mask), kept so
                          * that each visit and recheck need not work it out again */
  uint8_t sb_mem;
  uint8_t fetching;      /* an L1I access for this warp is outstanding */
  uint8_t fetch_count;   /* instructions that access brings */
  uint32_t pc;           /* index of the next instruction */
  uint32_t fetched;      /* instructions [pc, fetched) sit decoded in the instruction buffer */
  uint32_t n_insts;      /* tw->n and tw->insts, here so that finding the next instruction */
  const trace_inst *insts; /* does not read the thread block's warp table (a cache miss) */
  /* check_issue's scoreboard answer for instruction sb_pc (UINT32_MAX: none): the latest
   * register-ready cycle of its operands and whether one waits on memory (sb_mem). */
  uint64_t sb_ready;
  uint32_t sb_pc;
  uint32_t queued_mem;   /* memory instructions still in the LD/ST queue */
  uint32_t pending_loads;/* load instructions whose data has not returned */
  uint32_t in_oc_mem;    /* of in_oc (below), the memory instructions */
  /* The second line. */
  const trace_warp *tw;
  reg_time *reg_ready;   /* SM_NUM_REGS: when each register is written back (reg_time) */
  /* Bit r clear: register r is ready (reg_ready[r] is at most the current cycle), so the
   * scoreboard need not read it. Set wherever a register is made to wait (reg_wait), cleared
   * by the scoreboard when it finds the register ready (or by reg_rebase). reg_ready is 1 KB
   * a warp, and its reads missed the cache more than any others on the TITAN V config. */
  uint64_t reg_waiting[SM_NUM_REGS / 64];
  uint32_t in_oc;        /* instructions issued and not yet in a unit (operand collector) */
  uint32_t long_loads;   /* of pending_loads, the global/local ones (not shared): cta_switch.c's
                          * stall test */
  uint32_t pending_stores;/* store accesses sent below the L1 and not yet acknowledged */
  int16_t cta;           /* CTA slot */
  int16_t wid;           /* warp id within its CTA */
} sm_warp;

typedef struct sm_cta {
  uint8_t used;
  trace_tb tb;
  const trace_kernel_info *k;
  int nwarps, launched, not_exited, finished;
  int *warp_slot;        /* per warp id: SM warp slot, or -1 while not launched */
  int at_barrier[SM_MAX_BARRIERS];
  uint64_t launch_cycle;
} sm_cta;

/* An in-flight load instruction: its destination registers wait for `remaining` accesses. */
typedef struct sm_load {
  int warp;              /* warp slot; -1 = free entry */
  int remaining;
  uint8_t ndst;
  uint8_t is_long;        /* not a shared-memory load */
  uint8_t dst[TRACE_MAX_DST];
  int hook_ticket;       /* policy load hook's ticket (policy_ops.load_done), or -1 */
} sm_load;

typedef struct ldst_entry {
  int warp;
  const trace_inst *in;
  int load;              /* sm_load index for loads/atomics, else -1 */
  int naccess, next;     /* coalesced accesses and how many were accepted by the L1 */
  mem_access acc[MAX_ACCESSES];
  uint64_t busy_until;   /* shared memory: bank-conflict passes */
  int hook;              /* 1: a global load the policy's load hook has not answered yet */
  int hook_ticket;       /* its request id with the hook */
} ldst_entry;

/* A timed completion the SM produces itself (shared-memory loads). */
typedef struct sm_event {
  uint64_t at;
  int load;
} sm_event;

typedef struct sm_sched {
  int *warps;            /* warp slots owned by this scheduler, oldest first */
  int n;
  int rr_next;           /* LRR: position to start from */
  int last_issued;       /* GTO: warp slot issued last, or -1 */
  int *active;           /* two-level: active set (warp slots) */
  int n_active;
  int held_next;         /* two-level: where the next policy-held warp is taken from (warps[]) */
  /* The issue stage's memos (issue.c) by position in `warps` (sm.memo_words words per mask).
   * Every listed warp is in `need` (the stage looks at it: no memo, or one that ends at a
   * cycle), or in the one mask[MEMO_*] its kept answer names, or in none (a kept answer of
   * rank 0: exited, waiting for fetch). pipe_any: bit c set when mask[c] may hold a warp. */
  uint64_t *need, *mask;
  uint32_t pipe_any;
  /* With no open pipeline, the stall a cycle counts while nothing it follows from changes
   * (issue.c): that answer, or -1 since a change (each write to need, mask or pipe_any calls
   * memo_forget). With `need` empty it follows from the masks alone and holds until such a
   * change; else from them and the answers `need`'s warps keep until a cycle: it holds until
   * the first of those cycles (kept_until). */
  uint64_t kept_until;
  int8_t kept_stall;
  uint8_t last_wait;     /* the stall it counted in its last cycle (WAIT_NONE: it issued) */
  /* With the policy's class epoch (sm.class_epoch): per class, the positions in `warps` of its
   * warps (sm.n_classes masks of sm.memo_words), read again from the policy (sched_classes)
   * when cls_stale: the epoch moved or the list changed. */
  uint8_t cls_stale;
  uint64_t *cls;
} sm_sched;

struct sm {
  int id;
  const gpu_config *cfg;
  policy *pol;
  int n_warp_slots, n_cta_slots;
  int warp_hwm;          /* 1 + highest warp slot ever used: slots above never hold a warp */
  int hw_warp_slots;     /* the hardware's: max_threads_per_sm / warp_size */
  int fetch_words;       /* of fetch_cand (below) */
  sm_warp *warps;
  reg_time *reg_ready_pool;
  sm_cta *ctas;
  /* Bit i: CTA slot i is free (its `used` clear). The dispatcher asks every SM for a free slot
   * each cycle a block waits, and a slot is a host line or more: with a switching policy's
   * 128 slots, mostly used, that scan was 6% of a VT run. */
  uint64_t *cta_free_bits;
  sm_sched *scheds;
  uint64_t *unit_free;   /* [UNIT_COUNT][max units]: cycle each pipeline accepts again */
  int unit_stride;
  sm_load *loads;
  int nloads, free_load;
  ldst_entry ldst[LDST_QUEUE];
  /* From here on, the fields a cycle reads whatever it does (sm_prefetch loads them ahead). */
  uint64_t reg_epoch;    /* the cycle reg_time distances count from */
  uint32_t reg_epoch_span;
  int ldst_head, ldst_count;
  sm_event *events;      /* min-heap on `at`: shared-memory loads, until written back */
  int nevents, cap_events;
  mem_access wb_global;  /* a reply of an access that went around the L1D, waiting for the
                            writeback stage (GPGPU-Sim's m_next_global) */
  uint8_t has_wb_global;
  int wb_next;           /* writeback stage: client served first (round robin) */
  /* The LD/ST unit's cycle would move nothing before this cycle unless the memory system has a
   * reply for the SM: its queue, writeback register and L1s were found idle, and the first
   * shared-memory load completes then (ldst_cycle). 0 once an access enters from elsewhere
   * (ldst_wake). A compute phase's SM finds its LD/ST unit so for most cycles. */
  uint64_t ldst_quiet_until;
  opcoll *oc;            /* register file and operand collectors (exec.c) */
  const uint32_t *oc_blocked; /* opcoll_issue_blocked(oc): per scheduler, full ID_OC pipelines */
  const uint64_t *oc_unblocked; /* opcoll_unblocked(oc) */
  uint8_t pipe_cls[UNIT_COUNT]; /* per instruction unit, its pipeline (exec.c's pipe_class) */
  l1d *l1;
  l1d *l1i;              /* NULL with -gpgpu_perfect_inst_const_cache 1 */
  int fetch_next;        /* round-robin start of the fetch stage */
  /* Bit per warp slot: the warp may want a fetch. Set whenever a warp can start wanting one
   * (launch, issue, fetch done); fetch_stage clears it when it finds the warp does not, so the
   * stage looks only at these slots instead of every slot every cycle. */
  uint64_t *fetch_cand;
  uint64_t next_age;
  uint64_t *warp_age;     /* per warp slot: launch order, for GTO and two-level */
  int resident_ctas, resident_warps;
  int partial_ctas;      /* resident CTAs with warps not launched yet (a warp-level policy) */
  uint64_t now;          /* the cycle sm_cycle runs (for policy exit hooks) */
  int last_issued;
  int memo_words;         /* words of a scheduler's memo masks (sm_sched) */
  uint64_t *memo_scratch; /* 2 x memo_words: the warps walk_memo looks at, and those of one
                             class (issue.c) */
  int *pos_of;            /* per warp slot: its position in its scheduler's list, -1 if none */
  uint8_t *slot_sched;    /* per warp slot: its scheduler (slot % schedulers) */
  int issue_prio;        /* scheduler that goes first this cycle (issue_stage) */
  /* The policy's issue gate (policy_ops.issue_gate), NULL without one; its value when the
   * SM last found it moved, and the bit per warp slot of the warps it refused since then
   * (`refused`, fetch_words words): issue.c gives those the same answer without asking. */
  const uint64_t *issue_gate;
  uint64_t gate_seen;
  uint64_t *refused;
  /* The policy's class epoch (policy_ops.warp_classes_epoch), NULL without one, its value
   * when the schedulers' class masks were last marked stale, and the number of classes
   * (SCHED_MAX_CLASSES at most). */
  const uint64_t *class_epoch;
  uint64_t class_seen;
  int n_classes;
  /* issue_stage: every scheduler's kept stall (sm_sched) holds before this cycle, while no
   * pipeline opens (*oc_unblocked still stage_kept_unblocked); 0 since any of them changed
   * (memo_forget). */
  uint64_t stage_kept_until, stage_kept_unblocked;
  int *order;            /* scratch for sched_order, n_warp_slots entries */
  int *order_tmp;        /* scratch for sched_order's class sort, 2 * n_warp_slots entries */
  warp_wait last_stall;
  uint8_t can_sleep;     /* quiet_allowed (quiet.c) */
  uint64_t sleep_until;  /* quiet_until: cycles before this one are counted, not stepped */
  uint64_t slept;        /* cycles slept through, for tests and measurements (not a stat) */
  uint64_t stage_kept;   /* cycles issue_stage took its kept answer (idem) */
  uint8_t count_later;   /* sm_count_sleep_later: quiet cycles are counted when it wakes */
  uint8_t uncounted;     /* it sleeps, the cycles from uncounted_from not counted yet */
  uint64_t uncounted_from;
  sm_counters cnt;
  struct cta_switch *sw;  /* CTA switching state (cta_switch.c), NULL if the policy has none */
  /* With CTA switching, per CTA slot: what the switch machinery keeps of its warps that a warp
   * may have changed since (CS_KINDS_STALE, CS_POS_STALE: cs_warp_changed), and CS_LISTED while
   * the slot is in cs_list; NULL without. */
  uint8_t *cs_stale;
  int *cs_list, cs_nlist; /* the CTA slots changed since the last look, each once */
  uint8_t cs_changed;    /* any CTA's, or a CTA's switching state, since its last look */
};

/* sched.c */
int sched_init(sm *s, rf_diag *d);
void sched_free(sm *s);
void sched_add_warp(sm *s, int slot);
void sched_insert_warp(sm *s, int slot);
void sched_remove_warp(sm *s, int slot);
/* The order a scheduler tries its warps in this cycle: `first` (if >= 0), then list[pos..n)
 * and list[0..pos) except `skip`. sched_walk_next gives the next warp slot, -1 after the last. */
typedef struct sched_walk {
  const int *list;
  int n, pos, left;      /* list length, next position, entries not yet walked */
  int first, skip;       /* GTO: the warp issued last comes first and is skipped in the list */
} sched_walk;
static inline int sched_walk_next(sched_walk *w) {
  if (w->first >= 0) {
    int f = w->first;
    w->first = -1;
    return f;
  }
  while (w->left > 0) {
    int slot = w->list[w->pos];
    w->pos = w->pos + 1 == w->n ? 0 : w->pos + 1;
    w->left--;
    if (slot != w->skip) return slot;
  }
  return -1;
}
void sched_order(sm *s, int sched, sched_walk *wk);
/* The policy's classes of scheduler `sched`'s warps by position (sm_sched.cls), read again
 * if stale. */
const uint64_t *sched_classes(sm *s, int sched);
void sched_issued(sm *s, int sched, int slot);

/* quiet.c: whether this SM may sleep while it holds thread blocks; after a cycle in which
 * nothing moved, the cycle to sleep until (0: step the next); a cycle slept through (counted at
 * once, or noted to be counted with the others of its sleep by quiet_settle); the counters
 * `cycles` cycles add. */
int quiet_allowed(const sm *s);
uint64_t quiet_until(sm *s, uint64_t now);
void quiet_cycle(sm *s, uint64_t now);
void quiet_settle(sm *s, uint64_t now);
void count_cycle(sm *s, uint64_t cycles);

/* issue.c: 1 if some scheduler issued, -1 on an internal error. */
int issue_stage(sm *s, uint64_t now, rf_diag *d);
/* Whether the stage keeps warps' answers every cycle (LRR, GTO: walk_memo; not with a policy's
 * warp classes, which may reorder the warps any cycle). */
int issue_memoized(const sm *s);

/* Classes a scheduler orders its warps by, at most (more are read as the last). */
#define SCHED_MAX_CLASSES 8

/* The policy's warp classes (policy_ops.warp_priority): whether it has any, and whether they
 * may put this SM's warps in more than one this cycle (each scheduler then tries lower classes
 * first, sched.c, and the issue stage looks at every warp). */
static inline int policy_has_classes(const sm *s) {
  return s->pol->warp_priorities > 1 && s->pol->ops->warp_priority;
}
static inline int classes_differ(const sm *s) {
  const policy_ops *ops = s->pol->ops;
  return policy_has_classes(s) &&
         !(ops->warp_classes_uniform && ops->warp_classes_uniform(s->pol, s->id));
}
/* `cycles` cycles in which every answer is kept and none is to issue: what issue_stage does
 * then, each scheduler counting the stall it counted last. */
void issue_stage_quiet(sm *s, uint64_t cycles);

/* ldst.c */
int ldst_can_accept(const sm *s);
int ldst_push(sm *s, int warp, const trace_inst *in, uint64_t now, rf_diag *d);
int ldst_cycle(sm *s, memsys *m, uint64_t now);
int load_alloc(sm *s, int warp, const trace_inst *in, int remaining, rf_diag *d);
int event_push(sm *s, uint64_t at, int load, rf_diag *d);
/* An access entered the LD/ST unit or an L1 other than through ldst_cycle: its next cycle runs. */
static inline void ldst_wake(sm *s) { s->ldst_quiet_until = 0; }
/* The LD/ST unit holds nothing of its own to move: its queue and writeback register are empty
 * and both L1s idle (l1d_idle). Shared-memory loads in flight and replies in the memory system
 * are not counted. */
static inline int ldst_idle(const sm *s) {
  return !s->ldst_count && !s->has_wb_global && l1d_idle(s->l1) && (!s->l1i || l1d_idle(s->l1i));
}
/* sm_busy and sm_idle (sm.h), here so that the stages that ask (quiet.c) need nothing of sm.c,
 * which steps them. */
static inline int sm_holds_work(const sm *s) {
  return s->resident_ctas > 0 || s->ldst_count > 0 || s->nevents > 0 || s->has_wb_global ||
         l1d_busy(s->l1) || (s->l1i && l1d_busy(s->l1i));
}
static inline int sm_drained(const sm *s) {
  return !sm_holds_work(s) && !s->uncounted && ldst_idle(s);
}

/* exec.c: issue into the operand collector, execute stage, writeback port claims. */
int exec_init(sm *s, rf_diag *d);
/* May the warp in `slot` issue `in` into its pipeline's ID_OC register? (One bit test: this
 * runs for every ready warp every cycle.) */
static inline int exec_can_issue(const sm *s, int slot, const trace_inst *in) {
  return !(s->oc_blocked[s->slot_sched[slot]] & (1u << s->pipe_cls[in->op->unit]));
}
void exec_issue(sm *s, int slot, const trace_inst *in);
int exec_stage(sm *s, uint64_t now, rf_diag *d);

/* fetch.c */
void fetch_stage(sm *s, memsys *m, uint64_t now);
void fetch_done(sm *s, int slot);
/* The warp in `slot` may want a fetch now (its pc moved, it was launched or a fetch ended). */
static inline void fetch_wake(sm *s, int slot) {
  s->fetch_cand[slot >> 6] |= 1ull << (slot & 63);
}
/* Whether any warp may want a fetch (none: the usual cycle of a memory-bound SM). */
static inline int fetch_wanted(const sm *s) {
  uint64_t any = s->fetch_cand[0];
  for (int i = 1; i < s->fetch_words; i++) any |= s->fetch_cand[i];
  return any != 0;
}

/* cta_switch.c: CTA switching. L1 tokens with CS_TOKEN set belong to a switch's transfer. */
/* (Not bit 31: that is MEM_ACK_TOKEN, csim/mem/mem.h; a switch's writes want no acknowledgement,
 * they are counted done when sent, and an ack would be charged to warp slot <CTA slot>.) */
#define CS_TOKEN 0x40000000u
/* the token of an access whose completion nothing waits for (a reduction, RED, writes no
 * register; a store the L1 keeps): its reply is dropped */
#define LDST_NO_TOKEN UINT32_MAX
typedef struct cta_switch cta_switch;
int cs_create(sm *s, rf_diag *d);
void cs_free(sm *s);
void cs_launched(sm *s, int cta, uint64_t now);
int cs_cycle(sm *s, uint64_t now, rf_diag *d);  /* 1 if a switch moved, -1 on error */
/* cs_cycle would do nothing from cycle `from` on for as long as the SM's state stands but
 * ask the policy for the same no (quiet.c); cs_idle counts those asks for `cycles` slept */
int cs_quiet(sm *s, uint64_t from);
void cs_idle(sm *s, uint64_t cycles);
int cs_cta_active(const sm *s, int slot);
void cs_mem_done(sm *s, uint32_t token);
void cs_report(const sm *s, FILE *out);
/* The warp in `slot` may wait on something else now, or be elsewhere: it launched, issued,
 * reached or left a barrier, exited or finished, or a load of its was queued or completed (what
 * cta_switch.c's warp_wait_kind and the policy's warp positions read). The machinery looks at
 * its CTA again on its next cycle, instead of at every CTA every cycle (which took a third to
 * a half of FineReg's and VT's run time on nn). */
#define CS_KINDS_STALE 1u /* cs_stale: its warps' classification */
#define CS_POS_STALE 2u   /* cs_stale: its warps' positions (policy_cta_view.warps) */
#define CS_LISTED 4u      /* cs_stale: the slot is in cs_list */
/* CTA slot `cta`'s warps, or its switching state, changed. */
static inline void cs_cta_changed(sm *s, int cta) {
  if (!(s->cs_stale[cta] & CS_LISTED)) s->cs_list[s->cs_nlist++] = cta;
  s->cs_stale[cta] = CS_KINDS_STALE | CS_POS_STALE | CS_LISTED;
  s->cs_changed = 1;
}
static inline void cs_warp_changed(sm *s, int slot) {
  if (s->cs_stale) cs_cta_changed(s, s->warps[slot].cta);
}

/* warp.c */
/* Opens every barrier of CTA c at which all its warps that have not exited have arrived. */
void warp_release_barriers(sm *s, sm_cta *c);
/* One access of load `load` completed at now; the last one writes its registers back. */
void warp_load_done(sm *s, int load, uint64_t now);
/* Moves reg_epoch to `now` (sm_cycle, before anything of the cycle reads a reg_time). */
void reg_rebase(sm *s, uint64_t now);
/* The warp in `slot` reached the end of its trace. */
void warp_exit(sm *s, int slot);
/* Frees the warp's slot: it has exited and nothing it issued is still in flight. */
void warp_finish(sm *s, int slot);
/* Frees the warp's slot if it has exited and nothing it issued is still in flight. (Asked each
 * time something of a warp leaves a stage, of warps that have mostly not exited: the test is
 * made where it is asked.) */
static inline void warp_try_finish(sm *s, int slot) {
  const sm_warp *w = &s->warps[slot];
  if (w->exited && w->live && !w->pending_loads && !w->queued_mem && !w->in_oc &&
      !w->pending_stores)
    warp_finish(s, slot);
}

/* The memo masks: pipeline classes 0..UNIT_COUNT-1 (WAIT_PIPELINE), then these. */
enum { MEMO_MEMORY = UNIT_COUNT, MEMO_MEMBAR, MEMO_BARRIER, MEMO_MASKS };
static inline void memo_bit_set(uint64_t *m, int p) { m[p >> 6] |= 1ull << (p & 63); }
static inline void memo_bit_clear(uint64_t *m, int p) { m[p >> 6] &= ~(1ull << (p & 63)); }
static inline int memo_bit(const uint64_t *m, int p) { return (int)(m[p >> 6] >> (p & 63) & 1); }
static inline uint64_t *memo_mask_of(const sm *s, const sm_sched *q, int k) {
  return q->mask + (size_t)k * (size_t)s->memo_words;
}
/* The mask a kept answer lives in, -1 for none. */
static inline int memo_index(warp_wait why, int cls) {
  switch (why) {
    case WAIT_PIPELINE: return cls;
    case WAIT_MEMORY: return MEMO_MEMORY;
    case WAIT_MEMBAR: return MEMO_MEMBAR;
    case WAIT_BARRIER: return MEMO_BARRIER;
    default: return -1;
  }
}

/* Scheduler q's memo changed: its kept stall, and the stage's, no longer hold. */
static inline void memo_forget(sm *s, sm_sched *q) {
  q->kept_stall = -1;
  s->stage_kept_until = 0;
}

/* Something that can end a wait the issue stage keeps (issue.c) happened to the warp in
 * `slot`: a barrier opened, a fetch completed, a memory counter dropped, it issued. */
static inline void warp_recheck(sm *s, int slot) {
  sm_warp *w = &s->warps[slot];
  int k = w->skip_mask - 1, p = s->pos_of[slot];
  w->skip_until = 0;
  w->skip_why = WAIT_NONE;
  w->skip_mask = 0;
  if (p < 0) return;
  sm_sched *q = &s->scheds[s->slot_sched[slot]];
  if (k >= 0) memo_bit_clear(memo_mask_of(s, q, k), p);
  memo_bit_set(q->need, p);
  memo_forget(s, q);
}
/* Its registers' ready times changed: check_issue's scoreboard answer is stale too. */
static inline void warp_regs_changed(sm *s, int slot) {
  s->warps[slot].sb_pc = UINT32_MAX;
  warp_recheck(s, slot);
}

/* Whether register r is an operand (source or destination) of op: what scoreboard_wait reads. */
static inline int op_reads_reg(const trace_op *op, int r) {
  for (int i = 0; i < op->nsrc; i++)
    if (op->src[i] == r) return 1;
  for (int i = 0; i < op->ndst; i++)
    if (op->dst[i] == r) return 1;
  return 0;
}

/* The n registers `regs` of the warp in `slot` got new ready times (an instruction of its left
 * the operand collector, or a load completed). The scoreboard answer kept for the warp's next
 * instruction (sb_pc) reads that instruction's operands alone: if it was worked out for the
 * current pc and no operand is among `regs`, it stands, and so does every answer the issue
 * stage keeps from it (nothing else check_issue reads changed: the MEMBAR test ahead of the
 * scoreboard passed when the answer was worked out, and its counters cannot rise again before
 * the warp issues). Otherwise both are stale. Most instructions leave the collector while the
 * warp's next one waits for an older result, a load or a pipeline: rechecking it found the same
 * answer again. */
static inline void warp_regs_written(sm *s, int slot, const uint8_t *regs, int n) {
  const sm_warp *w = &s->warps[slot];
  if (w->sb_pc == w->pc) {
    const trace_op *op = w->insts[w->pc].op;
    int hit = 0;
    for (int i = 0; i < n && !hit; i++) hit = op_reads_reg(op, regs[i]);
    if (!hit) return;
  }
  warp_regs_changed(s, slot);
}

/* Cycle `at` (from the SM's cycle onwards, at most the longest latency ahead) as a reg_time. */
static inline reg_time reg_time_of(const sm *s, uint64_t at) {
  return (reg_time)(at - s->reg_epoch);
}

/* Register r of warp w is written back at `at` (reg_time_of), or waits (REG_IN_PIPELINE,
 * REG_WAITS_ON_MEMORY). */
static inline void reg_wait(sm_warp *w, int r, reg_time at) {
  w->reg_ready[r] = at;
  w->reg_waiting[r >> 6] |= 1ull << (r & 63);
}

/* Whether register r of warp w waits on a load. */
static inline int reg_waits_on_memory(const sm_warp *w, int r) {
  return (w->reg_waiting[r >> 6] >> (r & 63) & 1) && w->reg_ready[r] == REG_WAITS_ON_MEMORY;
}

/* Whether an operand of the warp's instruction `in` waits on a load. */
static inline int inst_waits_on_memory(const sm_warp *w, const trace_inst *in) {
  for (int i = 0; i < in->op->nsrc; i++)
    if (reg_waits_on_memory(w, in->op->src[i])) return 1;
  for (int i = 0; i < in->op->ndst; i++)
    if (reg_waits_on_memory(w, in->op->dst[i])) return 1;
  return 0;
}

/* The warp's next instruction, NULL past the end of its trace. */
static inline const trace_inst *warp_next_inst(const sm_warp *w) {
  return w->pc < w->n_insts ? &w->insts[w->pc] : NULL;
}

#endif
