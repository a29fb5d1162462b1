#include "gpu.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "../common/pace.h"
#include "../common/workers.h"
#include "../core/sm.h"
#include "../mem/mem.h"
#include "../policy/policy.h"
#include "../trace/trace.h"
#include "../trace/trace_ahead.h"
#include "run_sums.h"

/* One member of the team stepping SMs: those of its own clusters not taken yet this cycle, and
 * what it found. The member takes them from the front, a member done with its own takes them
 * from the back. */
typedef struct sm_step {
  _Atomic uint64_t left;  /* [front, back): back << 32 | front */
  char apart[64];         /* others take from `left`; what follows is the member's own */
  int progress;
  int failed_sm;          /* the lowest-numbered SM whose cycle failed, or -1 */
  rf_diag diag;           /* its message */
} sm_step;

struct gpu {
  const gpu_config *cfg;
  FILE *report;
  int n_sms;
  sm **sms;
  /* Per SM, sm_dormant_until as its last cycle left it: the loop passes over an SM that sleeps
   * without reading it (half the SM cycles of the x240 run on the TITAN V config, each a read
   * of the SM's lines and a prefetch of its next ones). Written only when it changes (team
   * members step neighbouring SMs), and cleared where the GPU wakes an SM: a launch, a kernel's
   * start. */
  uint64_t *dormant;
  uint8_t step_dormant;   /* gpu_step_dormant_sms: step them anyway (a test) */
  memsys *mem;
  policy pol;
  uint64_t now;
  int last_cluster;       /* dispatcher: the cluster that took a CTA last */
  int *last_core;         /* dispatcher: per cluster, its SM that took a CTA last */
  int cta_cap;            /* CTAs per SM this kernel may have (0: no cap beyond resources) */
  gpu_observer obs;
  gpu_ticker ticker;
  const trace_kernel_info *kernel; /* being simulated, or NULL */
  trace_cache_opts trace_cache;
  int nkernels;
  run_sums total;
  int has_wave;           /* -wave: units write the shared waveform, so one thread steps SMs */
  workers *team;          /* -threads N > 1: steps the clusters' SMs in parallel */
  sm_step *steps;         /* per team member: its clusters and the cycle's result */
  pace pace;              /* whether the team or this thread steps the next cycle's SMs */
  struct tb_feed *feed;   /* the kernel's next thread block (simulate) */
};

void gpu_set_trace_cache(gpu *g, const trace_cache_opts *o) { g->trace_cache = *o; }

gpu *gpu_create(const gpu_config *c, FILE *report, rf_diag *d) {
  gpu_hw hw = {HW_C, NULL, NULL};
  return gpu_create_hw(c, &hw, report, d);
}

gpu *gpu_create_hw(const gpu_config *c, const gpu_hw *hw, FILE *report, rf_diag *d) {
  gpu *g = rf_calloc(1, sizeof *g, d);
  if (!g) return NULL;
  g->cfg = c;
  g->report = report;
  g->has_wave = hw->wave != NULL;
  pace_init(&g->pace, PACE_MEASURED);
  g->n_sms = config_num_sms(c);
  if ((hw->ops ? policy_create_ops(&g->pol, hw->ops, c, g->n_sms, hw->mode, hw->wave, d)
              : policy_create(&g->pol, c, g->n_sms, hw->mode, hw->wave, d)) < 0) {
    free(g);
    return NULL;
  }
  g->sms = rf_calloc((size_t)g->n_sms, sizeof *g->sms, d);
  g->dormant = g->sms ? rf_calloc((size_t)g->n_sms, sizeof *g->dormant, d) : NULL;
  g->last_core = g->dormant ? rf_calloc((size_t)c->n_clusters, sizeof *g->last_core, d) : NULL;
  g->mem = g->last_core ? memsys_create(c, g->n_sms, d) : NULL;
  if (!g->mem) {
    gpu_destroy(g);
    return NULL;
  }
  /* GPGPU-Sim starts from cluster 0, core 0. */
  g->last_cluster = c->n_clusters - 1;
  for (int i = 0; i < c->n_clusters; i++) g->last_core[i] = c->n_cores_per_cluster - 1;
  for (int i = 0; i < g->n_sms; i++) {
    g->sms[i] = sm_create(i, c, &g->pol, d);
    if (!g->sms[i]) {
      gpu_destroy(g);
      return NULL;
    }
  }
  return g;
}

void gpu_destroy(gpu *g) {
  if (!g) return;
  for (int i = 0; g->sms && i < g->n_sms; i++) sm_destroy(g->sms[i]);
  free(g->sms);
  free(g->dormant);
  free(g->last_core);
  workers_destroy(g->team);
  free(g->steps);
  if (g->mem) memsys_destroy(g->mem);
  policy_destroy(&g->pol);
  free(g);
}

int gpu_set_threads(gpu *g, int n, rf_diag *d) {
  if (n < 1 || n > GPU_MAX_THREADS)
    return rf_fail(d, "-threads: expected 1 to %d threads, found %d", GPU_MAX_THREADS, n);
  if (g->has_wave) n = 1;
  if (n > g->cfg->n_clusters) n = g->cfg->n_clusters;
  workers_destroy(g->team);
  free(g->steps);
  g->team = NULL;
  g->steps = NULL;
  pace_init(&g->pace, PACE_MEASURED);
  if (n == 1) return 1;
  g->steps = rf_calloc((size_t)n, sizeof *g->steps, d);
  g->team = g->steps ? workers_create(n, d) : NULL;
  return g->team ? n : -1;
}

void gpu_set_pace(gpu *g, pace_mode mode) { pace_init(&g->pace, mode); }

void gpu_step_dormant_sms(gpu *g, int on) { g->step_dormant = (uint8_t)(on != 0); }

void gpu_set_reg_epoch_span(gpu *g, uint32_t cycles) {
  for (int i = 0; i < g->n_sms; i++) sm_set_reg_epoch_span(g->sms[i], cycles);
}
double gpu_team_share(const gpu *g) { return g->team ? pace_team_share(&g->pace) : 0.0; }

void gpu_set_observer(gpu *g, gpu_observer obs) { g->obs = obs; }
void gpu_set_ticker(gpu *g, gpu_ticker t) { g->ticker = t; }

double gpu_kernel_progress(const gpu *g, uint64_t *warp_insts) {
  *warp_insts = 0;
  if (!g->kernel || g->kernel->num_tbs <= 0) return 0.0;
  double tbs = 0.0;
  for (int i = 0; i < g->n_sms; i++) {
    const sm_counters *c = sm_get_counters(g->sms[i]);
    tbs += (double)c->ctas_completed + sm_cta_progress(g->sms[i]);
    *warp_insts += c->warp_insts;
  }
  return tbs / (double)g->kernel->num_tbs;
}
uint64_t gpu_cycle(const gpu *g) { return g->now; }
int gpu_num_sms(const gpu *g) { return g->n_sms; }
const gpu_config *gpu_get_config(const gpu *g) { return g->cfg; }
const struct sm *gpu_sm(const gpu *g, int i) { return g->sms[i]; }

void gpu_total_stats(const gpu *g, stats_record *out) {
  stats_u64(out, "kernels", (uint64_t)g->nkernels);
  run_sums_emit(&g->total, g->n_sms, out);
  if (g->pol.ops->stats) g->pol.ops->stats(&g->pol, out, 1);
}

static int any_busy(const gpu *g) {
  if (memsys_busy(g->mem)) return 1;
  for (int i = 0; i < g->n_sms; i++)
    if (sm_busy(g->sms[i])) return 1;
  return 0;
}

static void watchdog_report(gpu *g, const trace_kernel_info *k, uint64_t idle) {
  FILE *f = g->report;
  fprintf(f, "rfsim: watchdog: no warp issued or completed anything for %llu cycles "
             "(cycle %llu, kernel %d %s); resident warps and what they wait on:\n",
          (unsigned long long)idle, (unsigned long long)g->now, k->id, k->name);
  for (int i = 0; i < g->n_sms; i++) sm_report_warps(g->sms[i], f);
  fprintf(f, "  memory system %s\n", memsys_busy(g->mem) ? "busy" : "idle");
}

/* The kernel's thread blocks in trace order, the next one decoded ahead of its launch. After a
 * launch the next is due: with -threads the main thread decodes it while the team steps the
 * SMs (the others take its clusters meanwhile); with one thread, a thread of the trace reader's
 * own reads blocks ahead where that pays (trace_ahead), and the dispatcher takes them before it
 * needs them.
 * Decoding reads only the trace, so when it happens changes nothing. */
typedef enum { FEED_DONE = 0, FEED_READY, FEED_DUE, FEED_FAILED } feed_state;

typedef struct tb_feed {
  trace_kernel *kt;
  trace_ahead *ahead;   /* reads kt on its own thread, or NULL */
  trace_tb tb;          /* FEED_READY: the next thread block */
  feed_state state;
  rf_diag diag;         /* FEED_FAILED: why */
} tb_feed;

/* Decodes the next thread block if it is due. */
static void feed_prepare(tb_feed *f) {
  if (f->state != FEED_DUE) return;
  int r = f->ahead ? trace_ahead_next(f->ahead, &f->tb, &f->diag)
                   : trace_kernel_next_tb(f->kt, &f->tb, &f->diag);
  f->state = r > 0 ? FEED_READY : r == 0 ? FEED_DONE : FEED_FAILED;
}

/* The next thread block: 1 with it in f->tb, 0 if none is left, -1 (with d) if the trace
 * could not be read. */
static int feed_next(tb_feed *f, rf_diag *d) {
  feed_prepare(f);
  if (f->state == FEED_FAILED) {
    *d = f->diag;
    return -1;
  }
  return f->state == FEED_READY;
}

/* Whether an SM of cluster cl may admit a block now (policy_ops.may_admit; without it, yes). */
static int cluster_may_admit(const gpu *g, int cl) {
  if (!g->pol.ops->may_admit) return 1;
  int per = g->cfg->n_cores_per_cluster;
  for (int j = 0; j < per; j++)
    if (g->pol.ops->may_admit(&g->pol, cl * per + j)) return 1;
  return 0;
}

/* GPGPU-Sim's issue_block2core: each cycle every cluster, taken round robin from the one after
 * the cluster that took a CTA last, gives at most one CTA to one of its SMs, tried round robin
 * from the one after its SM that took the last, if the policy admits it there. */
static int dispatch(gpu *g, tb_feed *f, const trace_kernel_info *k, rf_diag *d) {
  int nc = g->cfg->n_clusters, per = g->cfg->n_cores_per_cluster, last = g->last_cluster;
  if (g->pol.ops->may_admit) {
    /* When no SM may admit, the walk below would launch nothing: only ask the feed (for the
     * kernel's end). */
    int have = feed_next(f, d), any = 0;
    if (have <= 0) return have;
    if (g->pol.ops->may_admit_any) any = g->pol.ops->may_admit_any(&g->pol);
    else
      for (int i = 0; i < g->n_sms && !any; i++) any = g->pol.ops->may_admit(&g->pol, i);
    if (!any) return 0;
  }
  for (int i = 0; i < nc; i++) {
    int cl = (last + 1 + i) % nc;
    /* The next block is read only for a cluster that may take it: after a launch, the one
     * read next is then mostly read during the next cycle, while the team steps SMs. */
    if (!cluster_may_admit(g, cl)) continue;
    int have = feed_next(f, d);
    if (have <= 0) return have;
    for (int j = 0; j < per; j++) {
      int core = (g->last_core[cl] + 1 + j) % per, id = cl * per + core;
      sm *s = g->sms[id];
      if (g->cta_cap && sm_resident_ctas(s) >= g->cta_cap) continue;
      int slot = sm_free_cta_slot(s);
      if (slot < 0) continue;
      if (g->dormant[id] && sm_resident_ctas(s) > 0) {
        /* its slept cycles, this one included, are counted before its resident CTAs and the
         * policy's state for it (which a tick_quiet hook counts them with) change; stepped
         * again next cycle, it counts the rest of its sleep (an SM without blocks counts none) */
        sm_settle(s, g->now + 1);
        g->dormant[id] = 0;
      }
      int nwarps = g->pol.ops->cta_admit(&g->pol, id, slot, k, &f->tb, g->now);
      if (nwarps <= 0) continue;
      if (sm_launch_cta(s, slot, &f->tb, k, nwarps, g->now, d) < 0) return -1;
      g->dormant[id] = 0;
      g->last_cluster = cl;
      g->last_core[cl] = core;
      f->state = FEED_DUE; /* the SM owns the block's warps now */
      break;
    }
  }
  return 0;
}

/* GPGPU-Sim's max_cta: when the grid cannot give every SM as many CTAs as it can hold, the
 * CTAs are spread, at most ceil(CTAs / SMs) per SM. */
static int spread_cap(const gpu *g, const trace_kernel_info *k) {
  long per_sm = policy_max_ctas(g->cfg, k, NULL);
  if (per_sm < 1 || k->num_tbs >= per_sm * g->n_sms) return 0;
  return (int)((k->num_tbs + g->n_sms - 1) / g->n_sms);
}

/* One cycle of the SMs of clusters [from, to): whether any made progress; -1 (with d) at the
 * first SM whose cycle failed (*failed = its id). */
static int step_clusters(gpu *g, int from, int to, int *failed, rf_diag *d) {
  int per = g->cfg->n_cores_per_cluster, progress = 0;
  uint64_t now = g->now;
  for (int i = from * per, end = to * per; i < end; i++) {
    /* (its cycle would count nothing and change nothing: sm_dormant_until) */
    if (now < g->dormant[i] && !memsys_reply_waiting(g->mem, i) && !g->step_dormant) continue;
    /* (the next SM this loop steps; not one past it, which another member of a team may be
     * stepping, its entry of `dormant` changing as this one reads it) */
    if (i + 1 < end && now >= g->dormant[i + 1]) sm_prefetch(g->sms[i + 1]);
    int p = sm_cycle(g->sms[i], g->mem, now, d);
    if (p < 0) {
      *failed = i;
      return -1;
    }
    progress |= p;
    uint64_t until = sm_dormant_until(g->sms[i]);
    if (until != g->dormant[i]) g->dormant[i] = until;
  }
  return progress;
}

/* Steps cluster c for the member whose result is r: r keeps the lowest failing SM. */
static void step_cluster(gpu *g, int c, sm_step *r) {
  int failed = -1;
  rf_diag why;
  int p = step_clusters(g, c, c + 1, &failed, &why);
  if (p < 0 && (r->failed_sm < 0 || failed < r->failed_sm)) {
    r->failed_sm = failed;
    r->diag = why;
  }
  r->progress |= p > 0;
}

/* Member t's own clusters: a contiguous share, [first of t, first of t + 1). */
static int first_cluster(const gpu *g, int t, int n) {
  return (int)((long)g->cfg->n_clusters * t / n);
}

/* The next cluster of a member's untaken ones: its first for the member, its last for another
 * member (so that the owner's next clusters stay on its core: a cluster stepped on another core
 * brings its SMs' state along and back, which costs about as much as stepping it); -1 if none
 * is left. */
static int take_cluster(_Atomic uint64_t *left, int from_back) {
  uint64_t was = atomic_load_explicit(left, memory_order_relaxed), now;
  int c;
  do {
    uint32_t front = (uint32_t)was, back = (uint32_t)(was >> 32);
    if (front >= back) return -1;
    c = (int)(from_back ? back - 1 : front);
    now = from_back ? was - (1ull << 32) : was + 1;
  } while (!atomic_compare_exchange_weak_explicit(left, &was, now, memory_order_relaxed,
                                                  memory_order_relaxed));
  return c;
}

/* A team member's share of the cycle: its own clusters, one at a time, then those the others
 * have not taken yet (take_cluster), so that a member whose SMs are busier does not hold up
 * the rest while each cluster's SMs mostly stay on one core. Which member steps a cluster
 * changes nothing (memsys_defer). A cluster's SMs share its network port, so they are stepped
 * together. The first member also ends the memory system's cycle (memsys_cycle_end: the reply
 * network), runs its next cycle ahead as far as the SMs cannot change it (memsys_cycle_ahead;
 * not with an observer, which reads the whole GPU between cycles) and reads the next thread
 * block, while the others take its clusters meanwhile. */
static void step_part(void *ctx, int part, int n) {
  gpu *g = ctx;
  sm_step *r = &g->steps[part];
  r->failed_sm = -1;
  r->progress = 0;
  if (part == 0) {
    /* while the others step SMs: the reply network's cycle, the part of the memory system's
     * next cycle they cannot change, then the next thread block */
    memsys_cycle_end(g->mem);
    if (!g->obs.cycle) memsys_cycle_ahead(g->mem, g->now + 1);
    if (g->feed) feed_prepare(g->feed);
  }
  for (int k = 0; k < n; k++)
    for (int c; (c = take_cluster(&g->steps[(part + k) % n].left, k > 0)) >= 0;)
      step_cluster(g, c, r);
}

/* One cycle of every SM. In parallel, the memory system takes the SMs' requests into their
 * clusters' ports (or notes them) and settles them afterwards in the order one thread gives
 * (memsys_defer), and the lowest failing SM's message is the one reported, so the
 * run is the same for any number of threads, and for any mix of cycles stepped by the team
 * and by this thread alone (the pacer's choice, where the team is slower). */
static int step_sms(gpu *g, int team, rf_diag *d) {
  int failed = -1;
  if (!team) return step_clusters(g, 0, g->cfg->n_clusters, &failed, d);
  memsys_defer(g->mem, 1, d);
  int n = workers_count(g->team);
  for (int t = 0; t < n; t++)
    atomic_store_explicit(&g->steps[t].left,
                          (uint64_t)first_cluster(g, t + 1, n) << 32 |
                              (uint32_t)first_cluster(g, t, n),
                          memory_order_relaxed);
  workers_run(g->team, step_part, g);
  int progress = 0;
  const sm_step *first = NULL;
  for (int t = 0; t < n; t++) {
    const sm_step *r = &g->steps[t];
    progress |= r->progress;
    if (r->failed_sm >= 0 && (!first || r->failed_sm < first->failed_sm)) first = r;
  }
  if (memsys_defer(g->mem, 0, d) < 0) return -1;
  if (first) {
    *d = first->diag;
    return -1;
  }
  return progress;
}

/* The technique's per-cycle step on every SM (its hardware units), each SM's counters in the
 * view only if the policy reads them. */
static int step_policy(gpu *g, rf_diag *d) {
  for (int i = 0; i < g->n_sms; i++) {
    policy_sm_view v, *vp = NULL;
    if (g->pol.reads_sm_view) {
      const sm *s = g->sms[i];
      const sm_counters *sc = sm_get_counters(s);
      v = (policy_sm_view){sm_resident_ctas(s), sm_resident_warps(s), sc->warp_insts,
                           sc->stall_idle + sc->stall_scoreboard + sc->stall_pipeline +
                               sc->stall_barrier + sc->stall_policy};
      vp = &v;
    }
    if (g->pol.ops->cycle(&g->pol, i, vp, g->now, d) < 0) return -1;
  }
  return 0;
}

/* The cycle the loop may jump to from g->now, or g->now: during the kernel's launch latency
 * (GPGPU-Sim's -gpgpu_kernel_launch_latency: 5,000 cycles in every kernel on the TITAN X
 * config, most of the run for traces of many small kernels), with every SM idle and nothing
 * in the memory system, a cycle changes nothing but the clock, which the memory system's
 * domains catch up with in one step (memsys_cycle). Not with a per-cycle policy hook or an
 * observer (they see every cycle), nor past -gpgpu_max_cycle. */
static uint64_t idle_until(const gpu *g, uint64_t dispatch_from) {
  uint64_t to = dispatch_from;
  if (g->cfg->max_cycles > 0 && (uint64_t)g->cfg->max_cycles < to) to = g->cfg->max_cycles;
  if (to <= g->now + 1 || g->pol.ops->cycle || g->obs.cycle || memsys_busy(g->mem))
    return g->now;
  for (int i = 0; i < g->n_sms; i++)
    if (!sm_idle(g->sms[i])) return g->now;
  return to;
}

static int simulate(gpu *g, trace_kernel *kt, const trace_kernel_info *k, rf_diag *d) {
  uint64_t start = g->now;
  tb_feed feed = {.kt = kt, .state = FEED_DUE};
  pace_restart(&g->pace);
  /* Sleeping SMs count their cycles when they wake, unless something reads the counters
   * between cycles: an observer (waveform), or a policy's per-cycle hook that reads the SM's
   * view (its stall cycles). The other hooks (FineReg's and LARF's units) read only their own
   * state, which a sleep's counting leaves alone. */
  int count_later = !(g->pol.ops->cycle && g->pol.reads_sm_view) && !g->obs.cycle;
  for (int i = 0; i < g->n_sms; i++) {
    sm_count_sleep_later(g->sms[i], count_later);
    g->dormant[i] = 0; /* (asked again after its next cycle) */
  }
  if (feed_next(&feed, d) < 0) return -1;
  /* The rest of the blocks ahead, on a thread of their own, where that pays (the first block
   * tells); a thread that does not start leaves the reading to the dispatcher. */
  if (!g->team && feed.state == FEED_READY && trace_ahead_pays(kt, &feed.tb))
    feed.ahead = trace_ahead_start(kt, TRACE_AHEAD_BYTES, NULL);
  g->feed = &feed;
  uint64_t last_progress = g->now;
  /* The next cycle that flushes the latency window: every -gpgpu_runtime_stat cycles from the
   * kernel's start (a compare each cycle, not a division). */
  uint64_t sample_every = (uint64_t)g->cfg->stat_sample_cycles, sample_at = start + sample_every;
  /* The driver's launch overhead (GPGPU-Sim's -gpgpu_kernel_launch_latency) counts in the
   * kernel's cycles, as it does in GPGPU-Sim. */
  uint64_t dispatch_from = g->now + (uint64_t)g->cfg->kernel_launch_latency;
  int rc = 0;
  /* A block due (launched last cycle) keeps the loop going as its SM does. */
  while (feed.state != FEED_DONE || any_busy(g)) {
    /* (the memory latency samples the skipped cycles would take, memsys_flush_latency, find
     * what the last kernel's end sampled: no reply comes in between) */
    uint64_t to = g->now < dispatch_from ? idle_until(g, dispatch_from) : g->now;
    if (to > g->now) g->now = last_progress = to;
    if (g->cfg->max_cycles > 0 && g->now >= (uint64_t)g->cfg->max_cycles) {
      rc = rf_fail(d, "reached -gpgpu_max_cycle %lld in kernel %d; the run is incomplete",
                   g->cfg->max_cycles, k->id);
      break;
    }
    /* with the team, its first member ends the memory system's cycle */
    int team = g->team && pace_team(&g->pace);
    if (team) memsys_cycle_begin(g->mem, g->now);
    else memsys_cycle(g->mem, g->now);
    int progress = step_sms(g, team, d);
    if (progress < 0) {
      rc = -1;
      break;
    }
    if (feed.state != FEED_DONE && g->now >= dispatch_from &&
        (rc = dispatch(g, &feed, k, d)) < 0)
      break;
    if (g->pol.ops->cycle && (rc = step_policy(g, d)) < 0) break;
    if (g->obs.cycle) g->obs.cycle(g->obs.ctx, g, g->now);
    if (g->ticker.tick && (g->now & 1023) == 0) g->ticker.tick(g->ticker.ctx, g);
    g->now++;
    if (g->now >= sample_at) { /* (past it only after a jump over idle cycles) */
      sample_at += (g->now - sample_at) / sample_every * sample_every;
      if (g->now == sample_at) memsys_flush_latency(g->mem);
      sample_at += sample_every;
    }
    if (progress || g->now <= dispatch_from) {
      last_progress = g->now;
    } else if (g->now - last_progress > (uint64_t)g->cfg->watchdog_cycles) {
      watchdog_report(g, k, g->now - last_progress);
      rc = rf_fail(d, "deadlock: kernel %d (%s) made no progress for %lld cycles; see the "
                      "report above", k->id, k->name, g->cfg->watchdog_cycles);
      break;
    }
  }
  g->feed = NULL;
  trace_ahead_stop(feed.ahead);
  if (feed.state == FEED_READY) trace_tb_free(&feed.tb);
  for (int i = 0; i < g->n_sms; i++) sm_settle(g->sms[i], g->now);
  return rc;
}

/* -gpgpu_adaptive_cache_config (GPGPU-Sim's max_cta): the shared memory a kernel uses on an SM
 * (per CTA x the CTAs an SM will hold: the occupancy limit, or fewer when the grid is too
 * small to give every SM that many) is rounded up to the first -gpgpu_shmem_option that holds
 * it, and the L1D gets the rest of the unified array: that share of its largest way count,
 * rounded to nearest. */
static int adapt_l1d(gpu *g, const trace_kernel_info *k, rf_diag *d) {
  const gpu_config *c = g->cfg;
  if (!c->adaptive_cache_config || !c->l1d.enabled || c->unified_l1d_kb <= 0) return 0;
  int ctas = policy_max_ctas(c, k, NULL);
  if (k->num_tbs < (long)ctas * g->n_sms) ctas = (int)((k->num_tbs + g->n_sms - 1) / g->n_sms);
  long shmem = (long)k->shmem * ctas;
  long unified = (long)c->unified_l1d_kb * 1024;
  for (int i = 0; i < c->n_shmem_options; i++) {
    long opt = (long)c->shmem_options[i] * 1024;
    if (shmem > opt) continue;
    if (opt > unified)
      return rf_fail(d, "-gpgpu_shmem_option: the carve-out %ld KB for kernel %s exceeds "
                        "-gpgpu_unified_l1d_size %d", opt / 1024, k->name, c->unified_l1d_kb);
    int max_assoc = l1d_max_assoc(sm_get_l1d(g->sms[0]));
    int assoc = (int)((double)max_assoc * (1.0 - (double)opt / (double)unified) + 0.5);
    if (assoc < 1)
      return rf_fail(d, "-gpgpu_shmem_option: kernel %s leaves no L1D (carve-out %ld KB of %d)",
                     k->name, opt / 1024, c->unified_l1d_kb);
    for (int s = 0; s < g->n_sms; s++)
      if (sm_resize_l1d(g->sms[s], assoc, d) < 0) return -1;
    return 0;
  }
  return rf_fail(d, "-gpgpu_shmem_option: expected a carve-out of at least %ld bytes (kernel %s: "
                    "%d bytes x %d CTAs per SM), found at most %d KB",
                 shmem, k->name, k->shmem, ctas,
                 c->shmem_options[c->n_shmem_options > 0 ? c->n_shmem_options - 1 : 0]);
}

void gpu_memcpy(gpu *g, uint64_t addr, uint64_t bytes) { memsys_memcpy(g->mem, addr, bytes); }

int gpu_run_kernel(gpu *g, const char *kernel_path, stats_record *out, rf_diag *d) {
  trace_kernel *kt;
  if (trace_kernel_open_cached(kernel_path, &g->trace_cache, &kt, d) < 0) return -1;
  trace_kernel_pack_addrs(kt); /* the SMs read addresses through trace_inst_addrs */
  const trace_kernel_info *k = trace_kernel_get_info(kt);
  g->cta_cap = spread_cap(g, k);
  if (adapt_l1d(g, k, d) < 0) {
    trace_kernel_close(kt);
    return -1;
  }
  if (g->pol.ops->kernel_begin && g->pol.ops->kernel_begin(&g->pol, k, d) < 0) {
    trace_kernel_close(kt);
    return -1;
  }
  run_sums before, r;
  run_sums_take(&before, g->sms, g->n_sms, g->mem);
  for (int i = 0; i < g->n_sms; i++) sm_reset_counters(g->sms[i]);
  uint64_t start = g->now;
  g->kernel = k;
  int rc = simulate(g, kt, k, d);
  g->kernel = NULL;
  run_sums_take(&r, g->sms, g->n_sms, g->mem);
  r.cycles = g->now - start;
  run_sums_memory_since(&r, &before);
  /* After the kernel's statistics, as GPGPU-Sim's update_stats: the last window counts from
   * now on (in the next kernel's and the total averages). */
  memsys_flush_latency(g->mem);
  if (rc == 0) {
    g->nkernels++;
    stats_str(out, "kernel_name", k->name);
    stats_u64(out, "kernel_launch_uid", (uint64_t)g->nkernels);
    char dims[96];
    snprintf(dims, sizeof dims, "(%d,%d,%d) x (%d,%d,%d)", k->grid[0], k->grid[1], k->grid[2],
             k->block[0], k->block[1], k->block[2]);
    stats_str(out, "kernel_grid_block", dims);
    const char *limiter;
    stats_u64(out, "rfsim_max_ctas_per_sm_static",
              (uint64_t)policy_max_ctas(g->cfg, k, &limiter));
    stats_str(out, "rfsim_occupancy_limiter", limiter);
    run_sums_emit(&r, g->n_sms, out);
    if (g->pol.ops->stats) g->pol.ops->stats(&g->pol, out, 0);
    run_sums_add(&g->total, &r);
  }
  trace_kernel_close(kt);
  return rc;
}
