#include "gpu.h"

#include <stdlib.h>
#include <string.h>

#include "../core/sm.h"
#include "../mem/mem.h"
#include "../policy/policy.h"
#include "../trace/trace.h"

/* What one kernel (or the whole run) adds up to. */
typedef struct run_sums {
  uint64_t cycles;
  sm_counters sm;
  cache_stats l1;
  memsys_stats mem;
} run_sums;

struct gpu {
  const gpu_config *cfg;
  FILE *report;
  int n_sms;
  sm **sms;
  memsys *mem;
  policy pol;
  uint64_t now;
  int next_sm;            /* dispatcher round-robin start */
  gpu_observer obs;
  gpu_ticker ticker;
  const trace_kernel_info *kernel; /* being simulated, or NULL */
  trace_cache_opts trace_cache;
  int nkernels;
  run_sums total;
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
  g->n_sms = config_num_sms(c);
  if ((hw->ops ? policy_create_ops(&g->pol, hw->ops, c, g->n_sms, hw->mode, hw->wave, d)
              : policy_create(&g->pol, c, g->n_sms, hw->mode, hw->wave, d)) < 0) {
    free(g);
    return NULL;
  }
  g->sms = rf_calloc((size_t)g->n_sms, sizeof *g->sms, d);
  g->mem = g->sms ? memsys_create(c, g->n_sms, d) : NULL;
  if (!g->mem) {
    gpu_destroy(g);
    return NULL;
  }
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
  if (g->mem) memsys_destroy(g->mem);
  policy_destroy(&g->pol);
  free(g);
}

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

static void add_counters(sm_counters *a, const sm_counters *b) {
  a->warp_insts += b->warp_insts;
  a->thread_insts += b->thread_insts;
  a->mem_insts += b->mem_insts;
  a->stall_idle += b->stall_idle;
  a->stall_scoreboard += b->stall_scoreboard;
  a->stall_pipeline += b->stall_pipeline;
  a->stall_barrier += b->stall_barrier;
  a->stall_policy += b->stall_policy;
  a->active_cycles += b->active_cycles;
  a->resident_cta_sum += b->resident_cta_sum;
  a->resident_warp_sum += b->resident_warp_sum;
  if (b->max_resident_ctas > a->max_resident_ctas) a->max_resident_ctas = b->max_resident_ctas;
  if (b->max_resident_warps > a->max_resident_warps)
    a->max_resident_warps = b->max_resident_warps;
  a->shmem_accesses += b->shmem_accesses;
  a->shmem_passes += b->shmem_passes;
  a->l1_stall_cycles += b->l1_stall_cycles;
  a->ctas_completed += b->ctas_completed;
  a->warps_completed += b->warps_completed;
  a->rf.reads += b->rf.reads;
  a->rf.writes += b->rf.writes;
  a->rf.bank_conflicts += b->rf.bank_conflicts;
  a->rf.oc_stalls += b->rf.oc_stalls;
}

/* The memory-side counters are cumulative; a kernel's share is the difference of snapshots.
 * Every field of these structs is a uint64_t counter, so they are handled as arrays. */
#define N_COUNTERS(s) (sizeof(s) / sizeof(uint64_t))

static void counters_sub(void *a, const void *b, size_t n) {
  uint64_t *x = a;
  const uint64_t *y = b;
  for (size_t i = 0; i < n; i++) x[i] -= y[i];
}

static void counters_add(void *a, const void *b, size_t n) {
  uint64_t *x = a;
  const uint64_t *y = b;
  for (size_t i = 0; i < n; i++) x[i] += y[i];
}

static void snapshot_memory(const gpu *g, cache_stats *l1, memsys_stats *mem) {
  memset(l1, 0, sizeof *l1);
  for (int i = 0; i < g->n_sms; i++)
    counters_add(l1, l1d_stats(sm_get_l1d(g->sms[i])), N_COUNTERS(*l1));
  *mem = *memsys_get_stats(g->mem);
}

static void emit_sums(const gpu *g, const run_sums *r, stats_record *out) {
  const sm_counters *c = &r->sm;
  stats_u64(out, "gpu_sim_cycle", r->cycles);
  stats_u64(out, "gpu_sim_insn", c->thread_insts);
  stats_f64(out, "gpu_ipc", stats_ratio((double)c->thread_insts, (double)r->cycles));
  stats_u64(out, "gpgpu_n_tot_w_icount", c->warp_insts);
  stats_f64(out, "gpu_warp_ipc", stats_ratio((double)c->warp_insts, (double)r->cycles));
  stats_u64(out, "gpgpu_n_mem_insn", c->mem_insts);
  stats_u64(out, "gpu_completed_cta", c->ctas_completed);
  stats_u64(out, "W0_Idle", c->stall_idle + c->stall_barrier);
  stats_u64(out, "W0_Scoreboard", c->stall_scoreboard);
  stats_u64(out, "gpgpu_stall_idle", c->stall_idle);
  stats_u64(out, "gpgpu_stall_scoreboard", c->stall_scoreboard);
  stats_u64(out, "gpgpu_stall_pipeline", c->stall_pipeline);
  stats_u64(out, "gpgpu_stall_barrier", c->stall_barrier);
  stats_u64(out, "gpgpu_stall_policy", c->stall_policy);
  stats_u64(out, "gpgpu_stall_l1_reservation", c->l1_stall_cycles);
  double sm_cycles = (double)r->cycles * g->n_sms;
  stats_f64(out, "rfsim_resident_ctas_mean_per_sm",
            stats_ratio((double)c->resident_cta_sum, sm_cycles));
  stats_u64(out, "rfsim_resident_ctas_max_per_sm", (uint64_t)c->max_resident_ctas);
  stats_f64(out, "rfsim_resident_warps_mean_per_sm",
            stats_ratio((double)c->resident_warp_sum, sm_cycles));
  stats_u64(out, "rfsim_resident_warps_max_per_sm", (uint64_t)c->max_resident_warps);
  stats_f64(out, "rfsim_sm_active_fraction", stats_ratio((double)c->active_cycles, sm_cycles));
  stats_u64(out, "rfsim_regfile_reads", c->rf.reads);
  stats_u64(out, "rfsim_regfile_writes", c->rf.writes);
  stats_u64(out, "rfsim_regfile_bank_conflicts", c->rf.bank_conflicts);
  stats_u64(out, "rfsim_oc_stalls_no_collector", c->rf.oc_stalls);
  stats_u64(out, "gpgpu_n_shmem_insn", c->shmem_accesses);
  stats_u64(out, "gpgpu_n_shmem_bank_conflict_passes", c->shmem_passes);
  const cache_stats *l1 = &r->l1;
  stats_u64(out, "L1D_total_cache_accesses", l1->accesses);
  stats_u64(out, "L1D_total_cache_misses", l1->misses);
  stats_u64(out, "L1D_total_cache_pending_hits", l1->hit_reserved);
  stats_u64(out, "L1D_total_cache_reservation_fails", l1->reservation_fails);
  stats_f64(out, "L1D_total_cache_hit_rate", stats_ratio((double)l1->hits, (double)l1->accesses));
  const cache_stats *l2 = &r->mem.l2;
  stats_u64(out, "L2_total_cache_accesses", l2->accesses);
  stats_u64(out, "L2_total_cache_misses", l2->misses);
  stats_f64(out, "L2_total_cache_hit_rate", stats_ratio((double)l2->hits, (double)l2->accesses));
  const dram_stats *dr = &r->mem.dram;
  stats_u64(out, "dram_reads", dr->reads);
  stats_u64(out, "dram_writes", dr->writes);
  stats_f64(out, "dram_row_buffer_locality",
            stats_ratio((double)dr->row_hits, (double)(dr->row_hits + dr->row_misses)));
  stats_f64(out, "dram_bandwidth_utilization",
            stats_ratio((double)dr->busy_cycles, (double)dr->total_cycles));
  stats_f64(out, "averagemflatency",
            stats_ratio((double)r->mem.total_read_latency, (double)r->mem.completed_reads));
}

void gpu_total_stats(const gpu *g, stats_record *out) {
  stats_u64(out, "kernels", (uint64_t)g->nkernels);
  emit_sums(g, &g->total, out);
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

/* Gives each SM at most one new CTA per cycle, starting after the SM served last. */
static int dispatch(gpu *g, trace_kernel *kt, trace_tb *next, int *have_next,
                    const trace_kernel_info *k, rf_diag *d) {
  for (int i = 0; i < g->n_sms && *have_next; i++) {
    int id = (g->next_sm + i) % g->n_sms;
    sm *s = g->sms[id];
    int slot = sm_free_cta_slot(s);
    if (slot < 0) continue;
    int nwarps = g->pol.ops->cta_admit(&g->pol, id, slot, k, next, g->now);
    if (nwarps <= 0) continue;
    if (sm_launch_cta(s, slot, next, k, nwarps, g->now, d) < 0) return -1;
    g->next_sm = (id + 1) % g->n_sms;
    int r = trace_kernel_next_tb(kt, next, d);
    if (r < 0) return -1;
    *have_next = r;
  }
  return 0;
}

static int simulate(gpu *g, trace_kernel *kt, const trace_kernel_info *k, rf_diag *d) {
  trace_tb next;
  int have_next = trace_kernel_next_tb(kt, &next, d);
  if (have_next < 0) return -1;
  uint64_t last_progress = g->now;
  /* The driver's launch overhead (GPGPU-Sim's -gpgpu_kernel_launch_latency) counts in the
   * kernel's cycles, as it does in GPGPU-Sim. */
  uint64_t dispatch_from = g->now + (uint64_t)g->cfg->kernel_launch_latency;
  int rc = 0;
  while (have_next || any_busy(g)) {
    if (g->cfg->max_cycles > 0 && g->now >= (uint64_t)g->cfg->max_cycles) {
      rc = rf_fail(d, "reached -gpgpu_max_cycle %lld in kernel %d; the run is incomplete",
                   g->cfg->max_cycles, k->id);
      break;
    }
    memsys_cycle(g->mem, g->now);
    int progress = 0;
    for (int i = 0; i < g->n_sms; i++) {
      int p = sm_cycle(g->sms[i], g->mem, g->now, d);
      if (p < 0) {
        rc = -1;
        break;
      }
      progress |= p;
    }
    if (rc < 0) break;
    if (have_next && g->now >= dispatch_from &&
        (rc = dispatch(g, kt, &next, &have_next, k, d)) < 0)
      break;
    if (g->pol.ops->cycle) {
      for (int i = 0; i < g->n_sms && rc == 0; i++) {
        const sm *s = g->sms[i];
        const sm_counters *sc = sm_get_counters(s);
        policy_sm_view v = {sm_resident_ctas(s), sm_resident_warps(s), sc->warp_insts,
                            sc->stall_idle + sc->stall_scoreboard + sc->stall_pipeline +
                                sc->stall_barrier + sc->stall_policy};
        rc = g->pol.ops->cycle(&g->pol, i, &v, g->now, d);
      }
      if (rc < 0) break;
    }
    if (g->obs.cycle) g->obs.cycle(g->obs.ctx, g, g->now);
    if (g->ticker.tick && (g->now & 1023) == 0) g->ticker.tick(g->ticker.ctx, g);
    g->now++;
    if (progress || g->now <= dispatch_from) {
      last_progress = g->now;
    } else if (g->now - last_progress > (uint64_t)g->cfg->watchdog_cycles) {
      watchdog_report(g, k, g->now - last_progress);
      rc = rf_fail(d, "deadlock: kernel %d (%s) made no progress for %lld cycles; see the "
                      "report above", k->id, k->name, g->cfg->watchdog_cycles);
      break;
    }
  }
  if (have_next > 0) trace_tb_free(&next);
  return rc;
}

int gpu_run_kernel(gpu *g, const char *kernel_path, stats_record *out, rf_diag *d) {
  trace_kernel *kt;
  if (trace_kernel_open_cached(kernel_path, &g->trace_cache, &kt, d) < 0) return -1;
  const trace_kernel_info *k = trace_kernel_get_info(kt);
  if (g->pol.ops->kernel_begin && g->pol.ops->kernel_begin(&g->pol, k, d) < 0) {
    trace_kernel_close(kt);
    return -1;
  }
  run_sums before, r;
  memset(&r, 0, sizeof r);
  snapshot_memory(g, &before.l1, &before.mem);
  for (int i = 0; i < g->n_sms; i++) sm_reset_counters(g->sms[i]);
  uint64_t start = g->now;
  g->kernel = k;
  int rc = simulate(g, kt, k, d);
  g->kernel = NULL;
  r.cycles = g->now - start;
  for (int i = 0; i < g->n_sms; i++) add_counters(&r.sm, sm_get_counters(g->sms[i]));
  snapshot_memory(g, &r.l1, &r.mem);
  counters_sub(&r.l1, &before.l1, N_COUNTERS(r.l1));
  counters_sub(&r.mem, &before.mem, N_COUNTERS(r.mem));
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
    emit_sums(g, &r, out);
    if (g->pol.ops->stats) g->pol.ops->stats(&g->pol, out, 0);
    g->total.cycles += r.cycles;
    add_counters(&g->total.sm, &r.sm);
    counters_add(&g->total.l1, &r.l1, N_COUNTERS(r.l1));
    counters_add(&g->total.mem, &r.mem, N_COUNTERS(r.mem));
  }
  trace_kernel_close(kt);
  return rc;
}
