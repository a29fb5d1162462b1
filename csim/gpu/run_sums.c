#include "run_sums.h"

#include <string.h>

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

void run_sums_take(run_sums *r, sm *const *sms, int n_sms, const memsys *m) {
  memset(r, 0, sizeof *r);
  for (int i = 0; i < n_sms; i++) {
    add_counters(&r->sm, sm_get_counters(sms[i]));
    counters_add(&r->l1, l1d_stats(sm_get_l1d(sms[i])), N_COUNTERS(r->l1));
  }
  r->mem = *memsys_get_stats(m);
}

void run_sums_memory_since(run_sums *r, const run_sums *before) {
  counters_sub(&r->l1, &before->l1, N_COUNTERS(r->l1));
  counters_sub(&r->mem, &before->mem, N_COUNTERS(r->mem));
}

void run_sums_add(run_sums *total, const run_sums *r) {
  total->cycles += r->cycles;
  add_counters(&total->sm, &r->sm);
  counters_add(&total->l1, &r->l1, N_COUNTERS(r->l1));
  counters_add(&total->mem, &r->mem, N_COUNTERS(r->mem));
}

/* A cache's statistics by GPGPU-Sim's names (<name>_total_cache_*): accesses count hits,
 * misses (sector misses included) and pending hits (merged into an MSHR); reservation
 * failures are attempts that changed nothing, with their reasons as rfsim_ counters. */
static void emit_cache(stats_record *out, const char *name, const cache_stats *c) {
  static const char *const why[FAIL_COUNT] = {"line_alloc", "miss_queue", "mshr_entry",
                                               "mshr_merge"};
  char key[96];
#define CACHE_STAT(suffix, fn, value)                                    \
  do {                                                                   \
    snprintf(key, sizeof key, "%s_total_cache_%s", name, suffix);        \
    fn(out, key, value);                                                 \
  } while (0)
  CACHE_STAT("accesses", stats_u64, c->accesses);
  CACHE_STAT("misses", stats_u64, c->misses);
  CACHE_STAT("miss_rate", stats_f64, stats_ratio((double)c->misses, (double)c->accesses));
  CACHE_STAT("pending_hits", stats_u64, c->hit_reserved);
  CACHE_STAT("reservation_fails", stats_u64, c->reservation_fails);
  CACHE_STAT("hit_rate", stats_f64, stats_ratio((double)c->hits, (double)c->accesses));
#undef CACHE_STAT
  for (int i = 0; i < FAIL_COUNT; i++) {
    snprintf(key, sizeof key, "rfsim_%s_fail_%s", name, why[i]);
    stats_u64(out, key, c->fails[i]);
  }
}

void run_sums_emit(const run_sums *r, int n_sms, stats_record *out) {
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
  double sm_cycles = (double)r->cycles * n_sms;
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
  emit_cache(out, "L1D", &r->l1);
  emit_cache(out, "L2", &r->mem.l2);
  const dram_stats *dr = &r->mem.dram;
  stats_u64(out, "dram_reads", dr->reads);
  stats_u64(out, "dram_writes", dr->writes);
  stats_f64(out, "dram_row_buffer_locality",
            stats_ratio((double)dr->row_hits, (double)(dr->row_hits + dr->row_misses)));
  stats_f64(out, "dram_bandwidth_utilization",
            stats_ratio((double)dr->busy_cycles, (double)dr->total_cycles));
  /* GPGPU-Sim's latency statistics as Accel-Sim prints them: the replies of the kernel's last
   * partial -gpgpu_runtime_stat window are left out of averagemflatency and of the count all
   * three divide by (mem.h); rfsim_averagemflatency_all counts every reply. */
  double flushed = (double)r->mem.mf_flushed;
  stats_f64(out, "averagemflatency", stats_ratio((double)r->mem.mf_flushed_latency, flushed));
  stats_f64(out, "avg_icnt2mem_latency", stats_ratio((double)r->mem.icnt2mem_latency, flushed));
  stats_f64(out, "avg_icnt2sh_latency", stats_ratio((double)r->mem.icnt2sh_latency, flushed));
  stats_f64(out, "rfsim_averagemflatency_all",
            stats_ratio((double)r->mem.mf_total_latency, (double)r->mem.num_mfs));
  stats_u64(out, "gpu_stall_dramfull", r->mem.stall_dramfull);
  stats_u64(out, "gpu_stall_icnt2sh", r->mem.stall_icnt2sh);
  stats_u64(out, "icnt_total_pkts_simt_to_mem", r->mem.icnt_request_flits);
  stats_u64(out, "icnt_total_pkts_mem_to_simt", r->mem.icnt_reply_flits);
}
