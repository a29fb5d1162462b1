/* The issue stage: each scheduler tries its warps in its order (sched.c) and issues the first
 * instruction whose operands are ready, whose pipeline's ID_OC register has room and which the
 * policy allows; a scheduler that issues nothing counts the wait closest to issuing as its
 * stall reason (GPGPU-Sim's classification). */
#include <stddef.h>
#include <string.h>
#ifdef RFSIM_SELF_CHECK
#include <stdio.h>
#include <stdlib.h>
#endif

#include "../common/bits.h"
#include "../trace/trace_addrs.h"
#include "sm_internal.h"

/* One operand register of the instruction scoreboard_wait checks: *mem set if it waits on a
 * load, *ready raised to its writeback cycle if that is after `now`. A register ready already
 * is left out (sb_ready is compared only with this cycle and later ones). */
static inline void scoreboard_read(sm_warp *w, int reg, uint64_t epoch, uint64_t now,
                                   uint64_t *ready, uint8_t *mem) {
  uint64_t bit = 1ull << (reg & 63), *waiting = &w->reg_waiting[reg >> 6];
  if (!(*waiting & bit)) return; /* ready: at most now, which does not change the answer */
  reg_time t = w->reg_ready[reg];
  if (t == REG_WAITS_ON_MEMORY) {
    *mem = 1;
    return;
  }
  /* (REG_IN_PIPELINE reads as a time 2^32 cycles after the epoch: not ready before its
   * instruction leaves the collector, which sets its time and rechecks the warp) */
  uint64_t r = epoch + t;
  if (r <= now) *waiting &= ~bit; /* ready from now on, until it is made to wait again */
  else if (r > *ready) *ready = r;
}

/* The scoreboard part of check_issue: WAIT_MEMORY if an operand waits on a load, else
 * WAIT_SCOREBOARD if one is written back after `now`. A warp's operand registers change only
 * when it issues (its pc moves on), when an instruction of its leaves the operand collector
 * for a functional unit (its writeback time becomes known, exec.c) or when a load of its
 * completes; each clears sb_pc, so the answer for one pc is kept until then instead of reading
 * the registers every cycle. */
static inline warp_wait scoreboard_wait(sm_warp *w, const trace_inst *in, uint64_t epoch,
                                        uint64_t now) {
  if (w->sb_pc != w->pc) {
    uint64_t ready = 0;
    uint8_t mem = 0;
    for (int i = 0; i < in->op->nsrc; i++)
      scoreboard_read(w, in->op->src[i], epoch, now, &ready, &mem);
    for (int i = 0; i < in->op->ndst; i++)
      scoreboard_read(w, in->op->dst[i], epoch, now, &ready, &mem);
    w->sb_pc = w->pc;
    w->sb_ready = ready;
    w->sb_mem = mem;
  }
  if (w->sb_mem) return WAIT_MEMORY;
  return w->sb_ready > now ? WAIT_SCOREBOARD : WAIT_NONE;
}

static inline warp_wait check_issue(sm *s, int slot, const trace_inst *in, uint64_t now) {
  sm_warp *w = &s->warps[slot];
  if (w->barrier >= 0) return WAIT_BARRIER;
  if (w->exited) return WAIT_EXITED;
  if (w->pc >= w->fetched) return WAIT_FETCH;
  if (in->op->kind == OPK_MEMBAR && (w->queued_mem || w->pending_loads || w->in_oc_mem))
    return WAIT_MEMBAR;
  warp_wait why = scoreboard_wait(w, in, s->reg_epoch, now);
  if (why) return why;
  if (!exec_can_issue(s, slot, in)) return WAIT_PIPELINE;
  if (s->pol->ops->may_issue) {
    policy_warp pw = {s->id, w->cta, w->wid, slot, w->tw, w->pc};
    if (!s->pol->ops->may_issue(s->pol, &pw, in, now)) return WAIT_POLICY;
  }
  return WAIT_NONE;
}

static int issue(sm *s, int slot, const trace_inst *in, uint64_t now, rf_diag *d) {
  sm_warp *w = &s->warps[slot];
  sm_cta *c = &s->ctas[w->cta];
  s->cnt.warp_insts++;
  s->cnt.thread_insts += (uint64_t)rf_popcount32(in->mask);
  w->pc++;
  warp_recheck(s, slot);
  cs_warp_changed(s, slot); /* (and its barrier, below) */
  fetch_wake(s, slot);
  if (s->pol->ops->issued) {
    policy_warp pw = {s->id, w->cta, w->wid, slot, w->tw, w->pc - 1};
    s->pol->ops->issued(s->pol, &pw, in, now);
  }
  (void)now; /* the operand collector moves it on from the next cycle (exec.c) */
  (void)d;
  if (in->op->unit == UNIT_MEM && in->op->is_mem) s->cnt.mem_insts++;
  /* The LD/ST unit reads the lane addresses (packed: 16 bytes, else 256: 4 or 5 cache lines)
   * a few cycles from now, when it coalesces them or counts bank conflicts: start loading them
   * (a hint only; those reads missed the cache more than anything else in the run). */
  if (in->op->is_mem) {
    const uint64_t *addrs = w->tw->addrs + in->addr_off;
    __builtin_prefetch(addrs);
    if (in->addr_form == TRACE_ADDRS_LANES) {
      for (int k = 8; k < 32; k += 8) __builtin_prefetch(addrs + k);
      __builtin_prefetch(addrs + 31);
    }
  }
  exec_issue(s, slot, in);
  if (in->op->kind == OPK_MEMBAR && s->cfg->flush_l1_cache) l1d_invalidate(s->l1);
  if (in->op->kind == OPK_BARRIER) {
    int b = in->op->has_imm ? (int)(in->op->imm % SM_MAX_BARRIERS) : 0;
    w->barrier = (int8_t)b;
    c->at_barrier[b]++;
    warp_release_barriers(s, c);
  }
  /* A warp is done when its trace is: an EXIT earlier in the trace only retired some threads
   * (real traces carry predicated-off `EXIT` with mask 0 ahead of the work of the others). */
  if (w->pc == w->n_insts) warp_exit(s, slot);
  return 0;
}

/* The counter of each wait as a scheduler's stall (GPGPU-Sim's classes): a table, not a
 * switch, as every scheduler that issues nothing counts one each cycle. */
#define STALL_OF(field) offsetof(sm_counters, field)
static const size_t stall_counter[WAIT_COUNT] = {
    [WAIT_NONE] = STALL_OF(stall_idle),          [WAIT_EMPTY] = STALL_OF(stall_idle),
    [WAIT_SCOREBOARD] = STALL_OF(stall_scoreboard), [WAIT_MEMORY] = STALL_OF(stall_scoreboard),
    [WAIT_PIPELINE] = STALL_OF(stall_pipeline),  [WAIT_BARRIER] = STALL_OF(stall_barrier),
    [WAIT_MEMBAR] = STALL_OF(stall_barrier),     [WAIT_POLICY] = STALL_OF(stall_policy),
    [WAIT_EXITED] = STALL_OF(stall_idle),        [WAIT_NOT_LAUNCHED] = STALL_OF(stall_idle),
    [WAIT_FETCH] = STALL_OF(stall_idle)};
_Static_assert(WAIT_COUNT == 11, "stall_counter names every wait");

/* Counts `worst` as the stall of n scheduler cycles. */
static void count_stall(sm *s, warp_wait worst, uint64_t n) {
  *(uint64_t *)((char *)&s->cnt + stall_counter[worst]) += n;
}

/* Which wait best explains a scheduler's idle cycle: the one closest to issuing (the first
 * warp with the highest rank, in the scheduler's order). */
static const uint8_t wait_rank[WAIT_COUNT] = {
    [WAIT_PIPELINE] = 5, [WAIT_POLICY] = 4, [WAIT_SCOREBOARD] = 3, [WAIT_MEMORY] = 3,
    [WAIT_MEMBAR] = 2, [WAIT_BARRIER] = 1};

/* A warp's answer that holds until a known cycle or event, kept in the warp (skip_until,
 * skip_why) so that the next visits need not look at its trace or registers:
 *   at a barrier, exited, waiting for fetch: until the event that ends it (warp_recheck);
 *   MEMBAR, an operand waiting on memory: until a counter drops or a load completes (idem);
 *   an operand written back at sb_ready: until then;
 *   its pipeline's ID_OC register full (skip_cls): while it stays full (a bit test).
 * Nothing but these events or the warp's own issue changes those answers: a MEMBAR's condition
 * cannot start to hold without an issue, and a warp that waits for any of them never reaches
 * the policy check (whose answer may change every cycle and is never kept). The memo masks
 * (sm_internal.h) follow: a kept answer moves the warp out of memo_need into its mask. */
static inline __attribute__((always_inline)) warp_wait visit(sm *s, int slot, sm_warp *w,
                                                             uint64_t now, const trace_inst **inp) {
  sm_sched *q = &s->scheds[s->slot_sched[slot]];
  int p = s->pos_of[slot];
  int old = w->skip_mask - 1;
  if (old >= 0) memo_bit_clear(memo_mask_of(s, q, old), p);
  warp_wait why;
  uint64_t until = UINT64_MAX;
  if (w->barrier >= 0) {
    /* (a warp whose last instruction was the barrier has exited: rank 0) */
    why = w->pc < w->n_insts ? WAIT_BARRIER : WAIT_EMPTY;
  } else if (w->exited || w->pc >= w->fetched) {
    why = WAIT_EMPTY; /* check_issue would say exited or fetch; rank 0 like an empty slot */
  } else {
    const trace_inst *in = warp_next_inst(w);
    why = check_issue(s, slot, in, now);
    w->policy_held = why == WAIT_POLICY;
    *inp = in;
    if (why == WAIT_NONE || why == WAIT_POLICY) until = 0;
    if (s->issue_gate) { /* (refused_stands) */
      if (why == WAIT_POLICY) memo_bit_set(s->refused, slot);
      else memo_bit_clear(s->refused, slot);
    }
    if (why == WAIT_SCOREBOARD) until = w->sb_ready;
    /* (a refused warp's pipeline too: refused_stands asks whether it has room) */
    if (why == WAIT_PIPELINE || why == WAIT_POLICY) w->skip_cls = s->pipe_cls[in->op->unit];
  }
  w->skip_until = until;
  w->skip_why = (uint8_t)why;
  int k = memo_index(why, w->skip_cls);
  w->skip_mask = (uint8_t)(k + 1);
  if (k >= 0) memo_bit_set(memo_mask_of(s, q, k), p);
  if (why == WAIT_PIPELINE) q->pipe_any |= 1u << w->skip_cls;
  if (k >= 0 || why == WAIT_EMPTY) memo_bit_clear(q->need, p);
  else memo_bit_set(q->need, p);
  memo_forget(s, q);
  return why;
}

/* Whether the policy's last refusal of the warp in `slot` (skip_why WAIT_POLICY) stands with
 * nothing asked: the policy's issue gate has not moved since (anything else its answer follows
 * from is the warp's own instruction, whose issue or recheck ends the refusal's skip_why), and
 * its pipeline's ID_OC register has room (else check_issue would say WAIT_PIPELINE, before it
 * asks the policy). The policy counts it as a refusal. RegMutex's refused warps were asked
 * every cycle: the visit read their next instruction (a cache miss a warp) and the policy
 * worked out the warp's demand and the pool's safety. */
static inline int refused_stands(sm *s, int q, int slot, const sm_warp *w) {
  if (!s->issue_gate) return 0;
  if (*s->issue_gate != s->gate_seen) { /* every refusal before now may have become a yes */
    memset(s->refused, 0, (size_t)s->fetch_words * sizeof(uint64_t));
    s->gate_seen = *s->issue_gate;
    return 0;
  }
  if (!memo_bit(s->refused, slot) || (s->oc_blocked[q] >> w->skip_cls & 1)) return 0;
#ifndef RFSIM_SELF_CHECK
  s->pol->ops->refused_again(s->pol, s->id);
#endif
  return 1;
}

/* The warp's answer this cycle: its memo while that holds, else a visit. (A warp that waits for
 * a full pipeline is in `need` only after warp_recheck in walk_all's stage, which keeps the
 * masks as walk_memo's does: it goes back to its mask.) */
static inline warp_wait look(sm *s, int q, int slot, uint64_t now, const trace_inst **inp) {
  sm_warp *w = &s->warps[slot];
  warp_wait why = (warp_wait)w->skip_why;
  if (w->skip_until <= now) {
    if (why == WAIT_POLICY && refused_stands(s, q, slot, w)) {
#ifdef RFSIM_SELF_CHECK /* ask anyway (the policy counts the refusal then) */
      if (visit(s, slot, w, now, inp) != WAIT_POLICY) {
        fprintf(stderr, "rfsim: self-check: SM %d: warp slot %d: %s's refusal did not stand\n",
                s->id, slot, s->pol->ops->name);
        abort();
      }
#endif
      return WAIT_POLICY;
    }
    return visit(s, slot, w, now, inp);
  }
  if (why != WAIT_PIPELINE) return why;
  if (!(s->oc_blocked[q] >> w->skip_cls & 1)) return visit(s, slot, w, now, inp);
  sm_sched *sq = &s->scheds[q];
  int p = s->pos_of[slot];
  memo_bit_clear(sq->need, p);
  memo_bit_set(memo_mask_of(s, sq, w->skip_cls), p);
  sq->pipe_any |= 1u << w->skip_cls;
  memo_forget(s, sq);
  return why;
}

/* Issues from the warp in `slot` (check_issue said yes to `in`): one instruction, or more
 * with -gpgpu_max_insn_issue_per_warp. */
static int issue_from(sm *s, int q, int slot, const trace_inst *in, uint64_t now, rf_diag *d) {
  sm_warp *w = &s->warps[slot];
  int prev_unit = in->op->unit;
  if (issue(s, slot, in, now, d) < 0) return -1;
  for (int extra = 1; extra < s->cfg->max_insn_issue_per_warp && w->live; extra++) {
    const trace_inst *in2 = warp_next_inst(w);
    if (!in2 || (s->cfg->dual_issue_diff_exec_units && in2->op->unit == prev_unit)) break;
    if (check_issue(s, slot, in2, now) != WAIT_NONE) break;
    prev_unit = in2->op->unit;
    if (issue(s, slot, in2, now, d) < 0) return -1;
  }
  sched_issued(s, q, slot);
  if (s->last_issued < 0) s->last_issued = slot;
  return 1;
}

/* Any scheduler order: walk it, looking at every warp until one issues. Returns 1 if one did
 * (0 with *worst the stall reason), -1 on an error. */
static int walk_all(sm *s, int q, uint64_t now, warp_wait *worst, rf_diag *d) {
  sched_walk wk;
  sched_order(s, q, &wk);
  for (int slot = sched_walk_next(&wk); slot >= 0; slot = sched_walk_next(&wk)) {
    if (!s->warps[slot].live) continue;
    const trace_inst *in = NULL;
    warp_wait why = look(s, q, slot, now, &in);
    if (why == WAIT_NONE) return issue_from(s, q, slot, in, now, d);
    if (wait_rank[why] > wait_rank[*worst]) *worst = why;
  }
  return 0;
}

static inline int any_bit(const uint64_t *m, int words) {
  uint64_t x = 0;
  for (int i = 0; i < words; i++) x |= m[i];
  return x != 0;
}

/* walk_memo's order: class by class (without the policy's classes, one class of every
 * warp), in each the warp issued last first (GTO: pfirst), then the list from `start` round.
 * A warp's key is its place in that order: 2n c - 1 for pfirst in class c, else 2n c plus its
 * distance from `start` (at most 2n - 2). */
typedef struct walk_order {
  const uint64_t *cls; /* the classes' position masks (sched_classes), or NULL */
  int ncls, n, words, pfirst, start;
  uint64_t *tmp;       /* words: a mask's warps of one class */
} walk_order;

/* The warps of m in class c of cls (words each), in tmp. */
static inline const uint64_t *in_class(const uint64_t *m, const uint64_t *cls, int c, int words,
                                       uint64_t *tmp) {
  const uint64_t *cm = cls + (size_t)c * (size_t)words;
  for (int i = 0; i < words; i++) tmp[i] = m[i] & cm[i];
  return tmp;
}

/* The key of m's first warp in the order (m not empty). */
static int first_key(const walk_order *wo, const uint64_t *m) {
  for (int c = 0; c < wo->ncls; c++) {
    const uint64_t *x = wo->cls ? in_class(m, wo->cls, c, wo->words, wo->tmp) : m;
    int base = 2 * wo->n * c;
    if (wo->pfirst >= 0 && memo_bit(x, wo->pfirst)) return base - 1;
    int p = rf_next_bit(x, wo->start, wo->n);
    if (p >= 0) return base + p - wo->start;
    p = rf_next_bit(x, 0, wo->start);
    if (p >= 0) return base + p + wo->n - wo->start;
  }
  return INT32_MAX;
}

/* The stall of a scheduler that issued nothing: the first warp in order with the highest rank,
 * among those looked at (best_rank, at best_key in walk_memo's order, gave `best`) and the memo
 * masks (PIPELINE rank 5, MEMORY 3 like SCOREBOARD, MEMBAR 2, BARRIER 1). pipe_any holds only
 * the full pipelines' masks by now. Only a tie of MEMORY with SCOREBOARD reads the order. */
static warp_wait masks_stall(const sm *s, const sm_sched *sq, int best_rank, int best_key,
                             warp_wait best, const walk_order *wo) {
  int words = s->memo_words;
  if (best_rank < 5)
    for (uint32_t c = sq->pipe_any; c; c &= c - 1)
      if (any_bit(memo_mask_of(s, sq, __builtin_ctz(c)), words)) return WAIT_PIPELINE;
  const uint64_t *mem = memo_mask_of(s, sq, MEMO_MEMORY);
  if (best_rank <= 3 && any_bit(mem, words) && (best_rank < 3 || first_key(wo, mem) < best_key))
    best_rank = 3, best = WAIT_MEMORY;
  if (best_rank < 2 && any_bit(memo_mask_of(s, sq, MEMO_MEMBAR), words))
    best_rank = 2, best = WAIT_MEMBAR;
  if (best_rank < 1 && any_bit(memo_mask_of(s, sq, MEMO_BARRIER), words))
    best_rank = 1, best = WAIT_BARRIER;
  return best;
}

/* The first warp of the highest rank a walk looked at: its rank, key and answer; and for
 * walk_classes, the warp that can issue, or -1. */
typedef struct walk_best {
  int rank, key;
  warp_wait why;
  int slot;
} walk_best;

/* Looks at the warps of m (all of walk_memo's, or one class's, whose keys start at `base`) in
 * walk_memo's order until one can issue: its slot, with its instruction in *in; else -1, with
 * the first of the highest rank in *b, if above its rank. */
static inline __attribute__((always_inline)) int walk_mask(sm *s, int q, uint64_t now,
                                                           const uint64_t *m, int base,
                                                           int start, int first, int pfirst,
                                                           walk_best *b, const trace_inst **in) {
  const sm_sched *sq = &s->scheds[q];
  int n = sq->n;
  if (pfirst >= 0 && memo_bit(m, pfirst)) {
    warp_wait why = look(s, q, first, now, in);
    if (why == WAIT_NONE) return first;
    /* (a look's answer of rank 0 is WAIT_EMPTY, b's already) */
    if (wait_rank[why] > b->rank) b->rank = wait_rank[why], b->key = base - 1, b->why = why;
  }
  for (int pass = 0; pass < 2; pass++) {
    rf_bit_iter it = rf_bits_from(m, pass ? 0 : start, pass ? start : n);
    for (int p; (p = rf_bits_next(&it)) >= 0;) {
      if (p == pfirst) continue;
      int slot = sq->warps[p];
      warp_wait why = look(s, q, slot, now, in);
      if (why == WAIT_NONE) return slot;
      if (wait_rank[why] > b->rank) {
        b->rank = wait_rank[why];
        b->key = base + (pass ? p + n - start : p - start);
        b->why = why;
      }
    }
  }
  return -1;
}

/* walk_mask over the policy's classes in turn, lowest first (out of walk_memo's line, which
 * without classes is the hot path of every run). */
static __attribute__((noinline)) walk_best walk_classes(sm *s, int q, uint64_t now,
                                                        const uint64_t *look_at, int start,
                                                        int first, int pfirst,
                                                        const trace_inst **in) {
  int n = s->scheds[q].n, words = s->memo_words;
  const uint64_t *cls = sched_classes(s, q);
  uint64_t *tmp = s->memo_scratch + words;
  walk_best b = {0, INT32_MAX, WAIT_EMPTY, -1};
  for (int c = 0; c < s->n_classes && b.slot < 0; c++)
    b.slot = walk_mask(s, q, now, in_class(look_at, cls, c, words, tmp), 2 * n * c, start,
                       first, pfirst, &b, in);
  return b;
}

/* LRR and GTO, without policy classes, with every warp in one this cycle, or with classes the
 * policy says when it changes (its class epoch): the same outcome as walk_all, looking only at
 * the warps the scheduler's `need` mask holds (in its order) and taking the others' answers
 * from its memo masks. The order: the policy's classes, lowest first (walk_all's stable sort);
 * in each, GTO tries the warp issued last first, then its list from the start; LRR its list
 * from rr_next on, round (walk_order). */
static int walk_memo(sm *s, int q, uint64_t now, warp_wait *worst, rf_diag *d) {
  sm_sched *sq = &s->scheds[q];
  int n = sq->n, words = s->memo_words;
  if (n == 0) return 0;
  /* The warps looked at: `need`, and those waiting for a pipeline whose ID_OC has room again.
   * The latter stay in their masks until visited: the one pipeline register fills with the
   * warp that issues, and the others, still waiting for it, are left where the next cycle
   * finds them (moving every such warp to `need` looked at each of them again in every
   * cycle its pipeline was full, half of all looks). A visit changes only its own warp's bits,
   * so the walk may go over a copy. */
  uint32_t open = sq->pipe_any & ~s->oc_blocked[q];
  /* Nothing to look at (every warp waits on something its memo keeps, the typical cycle of a
   * memory-bound SM that cannot sleep): the masks alone give the stall, the same until they
   * change. (While the last walk's answer holds, issue_stage takes it without calling here:
   * kept.) */
  if (!open && !any_bit(sq->need, words)) {
    sq->kept_stall = (int8_t)masks_stall(s, sq, 0, INT32_MAX, WAIT_EMPTY, NULL);
    sq->kept_until = UINT64_MAX;
    *worst = (warp_wait)sq->kept_stall;
    return 0;
  }
  uint64_t *look_at = s->memo_scratch;
  for (int i = 0; i < words; i++) look_at[i] = sq->need[i];
  for (uint32_t c = open; c; c &= c - 1) {
    const uint64_t *m = memo_mask_of(s, sq, __builtin_ctz(c));
    for (int i = 0; i < words; i++) look_at[i] |= m[i];
  }
  int gto = s->cfg->scheduler == SCHED_GTO;
  int first = gto ? sq->last_issued : -1, start = gto ? 0 : sq->rr_next % n;
  int pfirst = first >= 0 ? s->pos_of[first] : -1;
  walk_best b = {0, INT32_MAX, WAIT_EMPTY, -1};
  const trace_inst *in = NULL;
  if (s->class_epoch) b = walk_classes(s, q, now, look_at, start, first, pfirst, &in);
  else b.slot = walk_mask(s, q, now, look_at, 0, start, first, pfirst, &b, &in);
  if (b.slot >= 0) return issue_from(s, q, b.slot, in, now, d);
  /* Nothing issued, so every warp of the open pipelines' masks was visited and has left them
   * (a visit finds a pipeline full only if it is: not an open one). */
  sq->pipe_any &= ~open;
  walk_order wo = {NULL, 1, n, words, pfirst, start, s->memo_scratch + words};
  if (s->class_epoch) wo.cls = sq->cls, wo.ncls = s->n_classes;
  *worst = masks_stall(s, sq, b.rank, b.key, b.why, &wo);
  /* Every warp of `need` was looked at: the answer holds until the first of their kept
   * answers ends (0 for an answer not kept, such as the policy's), or something changes
   * (which resets kept_stall). */
  uint64_t until = UINT64_MAX;
  rf_bit_iter it = rf_bits_from(sq->need, 0, n);
  for (int p; (p = rf_bits_next(&it)) >= 0;) {
    uint64_t u = s->warps[sq->warps[p]].skip_until;
    if (u < until) until = u;
  }
  sq->kept_stall = (int8_t)*worst;
  sq->kept_until = until;
  return 0;
}

/* Whether scheduler q's last walk_memo answer holds this cycle: nothing it follows from changed,
 * no warp's kept answer has ended and no pipeline it waits for has room again. */
static inline int kept(const sm *s, const sm_sched *sq, int q, uint64_t now) {
  return sq->kept_stall >= 0 && now < sq->kept_until && !(sq->pipe_any & ~s->oc_blocked[q]);
}

static int memo_order(const sm *s) {
  return s->cfg->scheduler == SCHED_LRR || s->cfg->scheduler == SCHED_GTO;
}

int issue_memoized(const sm *s) { return memo_order(s) && !policy_has_classes(s); }

/* This cycle: also with classes, in a cycle they leave every warp in one, or always when the
 * policy says when they change (its class epoch: walk_memo then walks them class by class).
 * The masks are the same either way (walk_all's looks keep them), and a kept stall stays
 * valid across cycles that walk them all: it follows from the masks and the order, which only
 * its own memo_forget calls change (and, with the epoch, classes_moved). */
static int memoized_now(const sm *s) {
  return memo_order(s) && (s->class_epoch || !classes_differ(s));
}

/* The policy's classes may have changed since the schedulers read them: they read them again,
 * and no kept stall (which follows from the order) holds. */
static void classes_moved(sm *s) {
  if (!s->class_epoch || *s->class_epoch == s->class_seen) return;
  s->class_seen = *s->class_epoch;
  for (int q = 0; q < s->cfg->num_sched_per_core; q++) {
    s->scheds[q].cls_stale = 1;
    memo_forget(s, &s->scheds[q]);
  }
}

/* The schedulers run in turn, the first one a different one each active cycle (GPGPU-Sim's
 * Issue_Prio: "fair round robin issue between schedulers"). Which scheduler comes first
 * decides who gets a resource they share in that cycle, and whether a warp a barrier releases
 * in this cycle may still issue in it. */
int issue_stage(sm *s, uint64_t now, rf_diag *d) {
  int issued_any = 0;
  s->last_issued = -1;
  classes_moved(s);
  int memo = memoized_now(s);
  int nsched = s->cfg->num_sched_per_core;
  int first = s->issue_prio;
  s->issue_prio = first + 1 == nsched ? 0 : first + 1;
  /* (no pipeline a warp waits for is open when the stage ends: a walk takes the open ones out
   * of pipe_any, and issuing only fills ID_OC; so one opens later only if a bit of oc_blocked
   * clears, which oc_unblocked counts) */
  if (memo && now < s->stage_kept_until && *s->oc_unblocked == s->stage_kept_unblocked) {
    /* every scheduler's kept stall holds: the cycles of a memory-bound SM that cannot sleep */
    for (int q = 0; q < nsched; q++) count_stall(s, (warp_wait)s->scheds[q].kept_stall, 1);
    s->last_stall = (warp_wait)s->scheds[0].kept_stall; /* (last_wait holds it already) */
    s->stage_kept++;
    return 0;
  }
  for (int k = 0; k < nsched; k++) {
    int q = first + k < nsched ? first + k : first + k - nsched;
    sm_sched *sq = &s->scheds[q];
    warp_wait worst = WAIT_EMPTY;
    int issued = 0;
    if (memo && kept(s, sq, q, now)) worst = (warp_wait)sq->kept_stall;
    else issued = memo ? walk_memo(s, q, now, &worst, d) : walk_all(s, q, now, &worst, d);
    if (issued < 0) return -1;
    if (issued) issued_any = 1;
    /* (an issue may end a warp and its CTA, which the policy's classes may follow) */
    if (issued) classes_moved(s);
    else count_stall(s, worst, 1);
    sq->last_wait = (uint8_t)(issued ? WAIT_NONE : worst);
    if (q == 0) s->last_stall = issued ? WAIT_NONE : worst;
  }
  /* (after every walk: an issue may change another scheduler's memo) */
  uint64_t all_kept_until = memo && !issued_any ? UINT64_MAX : 0;
  for (int q = 0; q < nsched && all_kept_until; q++) {
    const sm_sched *sq = &s->scheds[q];
    if (sq->kept_stall < 0) all_kept_until = 0;
    else if (sq->kept_until < all_kept_until) all_kept_until = sq->kept_until;
  }
  s->stage_kept_until = all_kept_until;
  s->stage_kept_unblocked = *s->oc_unblocked;
  return issued_any;
}

void issue_stage_quiet(sm *s, uint64_t cycles) {
  s->last_issued = -1;
  int nsched = s->cfg->num_sched_per_core;
  s->issue_prio = (int)(((uint64_t)s->issue_prio + cycles) % (uint64_t)nsched);
  for (int q = 0; q < nsched; q++) count_stall(s, (warp_wait)s->scheds[q].last_wait, cycles);
  s->last_stall = (warp_wait)s->scheds[0].last_wait;
}
