/* Checks that need the whole configuration (an option alone parses fine but the combination
 * cannot be simulated) and re-checks the basics, since a gpu_config may also be built in code.
 * Messages name the option to change: "-option: expected ..., found ...". */
#include <stdint.h>
#include <math.h>
#include <string.h>

#include "config_internal.h"

#define CHECK(cond, ...)                       \
  do {                                         \
    if (!(cond)) return rf_fail(d, __VA_ARGS__); \
  } while (0)

static int pow2(long long v) { return v > 0 && (v & (v - 1)) == 0; }

static int check_cache(const cache_config *cc, const char *opt, int is_l1, rf_diag *d) {
  if (!cc->enabled) return 0;
  CHECK(pow2(cc->nsets), "-%s: expected a power-of-two number of sets, found %d", opt,
        cc->nsets);
  CHECK(pow2(cc->line_size) && cc->line_size >= 32 && cc->line_size <= 256,
        "-%s: expected a power-of-two line size from 32 to 256 bytes, found %d", opt,
        cc->line_size);
  CHECK(!is_l1 || cc->line_size == 128,
        "-%s: expected a 128-byte line (the coalescer works on 128-byte lines), found %d", opt,
        cc->line_size);
  CHECK(!cc->sectored || cc->line_size == 128,
        "-%s: expected a 128-byte line for a sectored cache (4 x 32-byte sectors), found %d",
        opt, cc->line_size);
  CHECK(cc->assoc >= 1, "-%s: expected at least 1 way, found %d", opt, cc->assoc);
  CHECK(cc->mshr_entries >= 1 && cc->mshr_max_merge >= 1 && cc->miss_queue_size >= 1,
        "-%s: expected positive MSHR entries, merge and miss queue sizes, found %d, %d, %d", opt,
        cc->mshr_entries, cc->mshr_max_merge, cc->miss_queue_size);
  CHECK(cc->replacement && strchr("LF", cc->replacement),
        "-%s: expected replacement policy L or F, found '%c'", opt, cc->replacement);
  CHECK(cc->write_policy && strchr("RBTEL", cc->write_policy),
        "-%s: expected write policy R, B, T, E or L, found '%c'", opt, cc->write_policy);
  CHECK(cc->alloc_policy && strchr("mfs", cc->alloc_policy),
        "-%s: expected allocation policy m, f or s, found '%c'", opt, cc->alloc_policy);
  CHECK(cc->write_alloc && strchr("NWFL", cc->write_alloc),
        "-%s: expected write-allocate policy N, W, F or L, found '%c'", opt, cc->write_alloc);
  CHECK(cc->mshr_type && strchr("AFTS", cc->mshr_type),
        "-%s: expected MSHR type A, F, T or S, found '%c'", opt, cc->mshr_type);
  /* The hashed index functions are defined only for these set counts (as in GPGPU-Sim). */
  switch (cc->set_index_fn) {
  case 'L':
  case 'X':
    break;
  case 'H':
    CHECK(cc->nsets == 32 || cc->nsets == 64,
          "-%s: expected 32 or 64 sets for the Fermi hash set index (H), found %d", opt,
          cc->nsets);
    break;
  case 'P':
    CHECK(cc->nsets == 16 || cc->nsets == 32 || cc->nsets == 64,
          "-%s: expected 16, 32 or 64 sets for the IPOLY hash set index (P), found %d", opt,
          cc->nsets);
    break;
  default:
    return rf_fail(d, "-%s: expected set index function L, H, P or X, found '%c'", opt,
                   cc->set_index_fn);
  }
  /* GPGPU-Sim rejects these too: a fill that evicts a dirty line can deadlock with the write
   * back it creates; fetch-on-write needs the line allocated at miss time. Streaming ('s')
   * allocates on fill. */
  int on_fill = cc->alloc_policy == 'f' || cc->alloc_policy == 's';
  CHECK(!(on_fill && cc->write_policy == 'B'),
        "-%s: expected allocate-on-miss (m) for a write-back cache, found '%c'", opt,
        cc->alloc_policy);
  CHECK(!(on_fill && (cc->write_alloc == 'F' || cc->write_alloc == 'L')),
        "-%s: expected allocate-on-miss (m) with write-allocate policy %c, found '%c'", opt,
        cc->write_alloc, cc->alloc_policy);
  return 0;
}

static int check_core(const gpu_config *c, rf_diag *d) {
  CHECK(c->n_clusters >= 1 && c->n_cores_per_cluster >= 1,
        "-gpgpu_n_clusters/-gpgpu_n_cores_per_cluster: expected at least one SM, found %d x %d",
        c->n_clusters, c->n_cores_per_cluster);
  CHECK(c->warp_size == 32,
        "-gpgpu_shader_core_pipeline: expected warp size 32 (rfsim models 32-lane warps and "
        "32-bit active masks), found %d", c->warp_size);
  CHECK(c->max_threads_per_sm >= c->warp_size && c->max_threads_per_sm % c->warp_size == 0,
        "-gpgpu_shader_core_pipeline: expected max threads per SM to be a positive multiple of "
        "the warp size %d, found %d", c->warp_size, c->max_threads_per_sm);
  CHECK(c->shader_registers >= 1, "-gpgpu_shader_registers: expected >= 1, found %d",
        c->shader_registers);
  CHECK(c->registers_per_block >= 1, "-gpgpu_registers_per_block: expected >= 1, found %d",
        c->registers_per_block);
  CHECK(c->shader_cta >= 1, "-gpgpu_shader_cta: expected >= 1, found %d", c->shader_cta);
  CHECK(c->shmem_size >= 0 && c->shmem_per_block >= 0,
        "-gpgpu_shmem_size/-gpgpu_shmem_per_block: expected >= 0, found %d/%d", c->shmem_size,
        c->shmem_per_block);
  CHECK(c->reg_alloc_unit >= 1, "-rfsim_reg_alloc_unit: expected >= 1, found %d",
        c->reg_alloc_unit);
  int warps = c->max_threads_per_sm / c->warp_size;
  CHECK(c->num_sched_per_core >= 1 && c->num_sched_per_core <= warps,
        "-gpgpu_num_sched_per_core: expected 1 to %d (the warps per SM), found %d", warps,
        c->num_sched_per_core);
  CHECK(c->scheduler == SCHED_LRR || c->scheduler == SCHED_GTO || c->scheduler == SCHED_TWO_LEVEL,
        "-gpgpu_scheduler: expected lrr, gto or two_level_active, found policy %d",
        (int)c->scheduler);
  CHECK(c->scheduler != SCHED_TWO_LEVEL || c->two_level_active >= 1,
        "-gpgpu_scheduler: expected two_level_active:<N> with N >= 1, found N = %d",
        c->two_level_active);
  CHECK(c->max_insn_issue_per_warp >= 1,
        "-gpgpu_max_insn_issue_per_warp: expected >= 1, found %d", c->max_insn_issue_per_warp);
  CHECK(c->dual_issue_diff_exec_units == 0 || c->dual_issue_diff_exec_units == 1,
        "-gpgpu_dual_issue_diff_exec_units: expected 0 or 1, found %d",
        c->dual_issue_diff_exec_units);
  return 0;
}

static int check_units(const gpu_config *c, rf_diag *d) {
  static const char *const names[] = {"int", "sp", "dp", "sfu", "tensor"};
  CHECK(c->num_units[UNIT_SP] >= 1 && c->num_units[UNIT_SFU] >= 1,
        "-gpgpu_num_sp_units/-gpgpu_num_sfu_units: expected >= 1 each (other classes fall back "
        "on them), found %d/%d", c->num_units[UNIT_SP], c->num_units[UNIT_SFU]);
  for (int u = UNIT_INT; u <= UNIT_TENSOR; u++) {
    CHECK(c->num_units[u] >= 0, "-gpgpu_num_%s_units: expected >= 0, found %d", names[u],
          c->num_units[u]);
    CHECK(c->latency[u] >= 1 && c->initiation[u] >= 1,
          "-trace_opcode_latency_initiation_%s: expected latency and initiation >= 1, "
          "found %d,%d", names[u], c->latency[u], c->initiation[u]);
  }
  CHECK(c->num_units[UNIT_MEM] == 1 && c->latency[UNIT_MEM] == 0 && c->initiation[UNIT_MEM] == 1,
        "num_units/latency/initiation[UNIT_MEM]: expected 1/0/1 (not options), found %d/%d/%d",
        c->num_units[UNIT_MEM], c->latency[UNIT_MEM], c->initiation[UNIT_MEM]);
  return 0;
}

/* The register file and collectors must give every pipeline that can receive instructions a
 * path from issue to its functional units, or the SM would wait forever. */
static int check_opcoll(const gpu_config *c, rf_diag *d) {
  static const char *const sets[OC_SET_COUNT] = {"int", "sp", "dp", "sfu", "tensor_core", "mem",
                                                 "gen"};
  static const char *const widths[UNIT_COUNT] = {"INT", "SP", "DP", "SFU", "TENSOR_CORE", "MEM",
                                                 "-"};
  int nsched = c->num_sched_per_core;
  CHECK(c->num_reg_banks >= 1 && c->num_reg_banks <= 64,
        "-gpgpu_num_reg_banks: expected 1..64, found %d", c->num_reg_banks);
  CHECK(!c->sub_core_model || c->num_reg_banks % nsched == 0,
        "-gpgpu_num_reg_banks: expected a multiple of the %d schedulers (sub-core model), "
        "found %d", nsched, c->num_reg_banks);
  for (int s = 0; s < OC_SET_COUNT; s++) {
    int used = s == OC_GEN || c->specialized_oc;
    if (!used || c->oc_units[s] == 0) continue;
    CHECK(c->oc_out_ports[s] >= 1,
          "-gpgpu_operand_collector_num_out_ports_%s: expected >= 1 for %d collector units, "
          "found 0", sets[s], c->oc_units[s]);
    CHECK(!c->sub_core_model || c->oc_units[s] % nsched == 0,
          "-gpgpu_operand_collector_num_units_%s: expected a multiple of the %d schedulers "
          "(sub-core model), found %d", sets[s], nsched, c->oc_units[s]);
  }
  for (int u = UNIT_INT; u <= UNIT_MEM; u++) {
    if (u != UNIT_MEM && (c->num_units[u] == 0 || (int)config_exec_unit(c, (op_unit)u) != u))
      continue;
    int need = c->sub_core_model ? nsched : 1;
    CHECK(c->width_id_oc[u] >= need && c->width_oc_ex[u] >= need,
          "-gpgpu_pipeline_widths: ID_OC_%s and OC_EX_%s: expected >= %d (the pipeline has "
          "units%s), found %d and %d", widths[u], widths[u], need,
          c->sub_core_model ? ", one slot per scheduler" : "", c->width_id_oc[u],
          c->width_oc_ex[u]);
    int gen = c->oc_units[OC_GEN] > 0 && c->oc_in_ports[OC_GEN] > 0;
    int spec = c->specialized_oc && c->oc_in_ports[u] > 0 &&
               (c->oc_units[u] > 0 || c->oc_units[OC_GEN] > 0);
    CHECK(gen || spec,
          "-gpgpu_operand_collector_*: expected collector units and input ports for the %s "
          "pipeline (its own set or gen), found none", sets[u]);
    CHECK(u == UNIT_MEM || !c->sub_core_model || c->num_units[u] % nsched == 0,
          "-gpgpu_num_%s_units: expected a multiple of the %d schedulers (sub-core model), "
          "found %d", sets[u], nsched, c->num_units[u]);
  }
  return 0;
}

static int check_memory(const gpu_config *c, rf_diag *d) {
  if (check_cache(&c->l1d, "gpgpu_cache:dl1", 1, d) != 0) return -1;
  if (check_cache(&c->l2, "gpgpu_cache:dl2", 0, d) != 0) return -1;
  if (check_cache(&c->l1i, "gpgpu_cache:il1", 1, d) != 0) return -1;
  /* A perfect instruction cache keeps its geometry: the fetch stage takes a warp's instructions
   * a line of it at a time (GPGPU-Sim's fetch reads the L1I's line size either way). */
  CHECK(c->l1i.enabled,
        "-gpgpu_cache:il1: expected a cache geometry (the fetch stage takes instructions a line "
        "at a time, also with -gpgpu_perfect_inst_const_cache 1), found none%s", "");
  CHECK(c->l1_latency >= 1 && c->smem_latency >= 1,
        "-gpgpu_l1_latency/-gpgpu_smem_latency: expected >= 1, found %d/%d", c->l1_latency,
        c->smem_latency);
  CHECK(c->shmem_num_banks >= 1, "-gpgpu_shmem_num_banks: expected >= 1, found %d",
        c->shmem_num_banks);
  CHECK(c->l2_rop_latency >= 0 && c->dram_latency >= 0,
        "-gpgpu_l2_rop_latency/-dram_latency: expected >= 0, found %d/%d", c->l2_rop_latency,
        c->dram_latency);
  CHECK(c->icnt_latency >= 1, "-rfsim_icnt_latency: expected >= 1, found %d", c->icnt_latency);
  CHECK(c->icnt_flit_size >= 1, "-icnt_flit_size: expected >= 1, found %d", c->icnt_flit_size);
  const double clk[4] = {c->clk_core, c->clk_icnt, c->clk_l2, c->clk_dram};
  for (int i = 0; i < 4; i++)
    CHECK(isfinite(clk[i]) && clk[i] > 0.0,
          "-gpgpu_clock_domains: expected every clock > 0 MHz, found %g:%g:%g:%g", clk[0],
          clk[1], clk[2], clk[3]);
  CHECK(c->n_mem >= 1 && c->n_sub_partition_per_mchannel >= 1,
        "-gpgpu_n_mem/-gpgpu_n_sub_partition_per_mchannel: expected >= 1, found %d/%d",
        c->n_mem, c->n_sub_partition_per_mchannel);
  /* A line must never straddle two channels. */
  int line = c->l2.enabled ? c->l2.line_size : 0;
  if (c->l1d.enabled && c->l1d.line_size > line) line = c->l1d.line_size;
  CHECK(pow2(c->mem_chunk_bytes) && c->mem_chunk_bytes >= line,
        "-rfsim_mem_chunk_bytes: expected a power of two >= the cache line size %d, found %d",
        line, c->mem_chunk_bytes);
  return 0;
}

/* The memory pipeline's options (csim/mem/mem.h). The option table bounds each value read from
 * a file; these are the combinations, and the same bounds for configurations built in code. */
static int check_pipeline(const gpu_config *c, rf_diag *d) {
  CHECK(c->coalesce_arch >= 13, "-gpgpu_coalesce_arch: expected >= 13, found %d",
        c->coalesce_arch);
  /* GPGPU-Sim's sector cache takes one sector per access (it asserts so); only the coalescer
   * of arch 40 on cuts every cached access into sectors. */
  CHECK(!c->l1d.enabled || !c->l1d.sectored || c->coalesce_arch >= 40,
        "-gpgpu_coalesce_arch: expected >= 40 (32-byte sector accesses) for the sectored L1D of "
        "-gpgpu_cache:dl1, found %d", c->coalesce_arch);
  CHECK(c->gmem_skip_l1d == 0 || c->gmem_skip_l1d == 1,
        "-gpgpu_gmem_skip_L1D: expected 0 or 1, found %d", c->gmem_skip_l1d);
  CHECK(pow2(c->l1_banks) && pow2(c->l1_bank_bytes),
        "-gpgpu_l1_banks/-gpgpu_l1_banks_byte_interleaving: expected powers of two, found %d/%d",
        c->l1_banks, c->l1_bank_bytes);
  CHECK(c->l1_write_ratio >= 0 && c->l1_write_ratio <= 100,
        "-gpgpu_l1_cache_write_ratio: expected a percentage 0..100, found %d", c->l1_write_ratio);
  CHECK(c->l1_response_queue >= 1 && c->cluster_ejection_buffer >= 1,
        "-gpgpu_n_ldst_response_buffer_size/-gpgpu_n_cluster_ejection_buffer_size: expected "
        ">= 1, found %d/%d", c->l1_response_queue, c->cluster_ejection_buffer);
  /* The icnt->L2 queue takes a request only with room for its four sector requests. */
  CHECK(c->l2_queue[0] >= 4 && c->l2_queue[1] >= 1 && c->l2_queue[2] >= 1 && c->l2_queue[3] >= 1,
        "-gpgpu_dram_partition_queues: expected icnt->L2 >= 4 and the others >= 1, found "
        "%d:%d:%d:%d", c->l2_queue[0], c->l2_queue[1], c->l2_queue[2], c->l2_queue[3]);
  CHECK(c->dram_return_queue >= 0, "-gpgpu_dram_return_queue_size: expected >= 0, found %d",
        c->dram_return_queue);
  CHECK(c->stat_sample_cycles >= 1, "-gpgpu_runtime_stat: expected a frequency >= 1, found %d",
        c->stat_sample_cycles);
  CHECK(c->perf_sim_memcpy == 0 || c->perf_sim_memcpy == 1,
        "-gpgpu_perf_sim_memcpy: expected 0 or 1, found %d", c->perf_sim_memcpy);
  if (c->adaptive_cache_config) {
    CHECK(c->l1d.enabled && c->unified_l1d_kb >= 1 && c->n_shmem_options >= 1,
          "-gpgpu_adaptive_cache_config 1: expected an L1D, -gpgpu_unified_l1d_size >= 1 and "
          "-gpgpu_shmem_option, found L1D %s, %d KB, %d options",
          c->l1d.enabled ? "on" : "off", c->unified_l1d_kb, c->n_shmem_options);
    for (int i = 0; i < c->n_shmem_options; i++)
      CHECK(c->shmem_options[i] >= 0 && c->shmem_options[i] < c->unified_l1d_kb &&
                (i == 0 || c->shmem_options[i] > c->shmem_options[i - 1]),
            "-gpgpu_shmem_option: expected ascending carve-outs below -gpgpu_unified_l1d_size "
            "%d KB, found %d KB at position %d", c->unified_l1d_kb, c->shmem_options[i], i + 1);
    /* The L1D's ways are carved from the unified array, which GPGPU-Sim takes as a whole
     * multiple of the configured L1D (it asserts so): the most ways are that multiple of the
     * configured count (config_unified_l1d_ways), and never fewer than it. */
    long l1d_bytes = (long)c->l1d.nsets * c->l1d.assoc * c->l1d.line_size;
    CHECK(!c->l1d.enabled || l1d_bytes <= 0 || (long)c->unified_l1d_kb * 1024 % l1d_bytes == 0,
          "-gpgpu_unified_l1d_size: expected a multiple of the L1D's %ld bytes (-gpgpu_cache:dl1 "
          "%d sets x %d ways x %d bytes), found %d KB",
          l1d_bytes, c->l1d.nsets, c->l1d.assoc, c->l1d.line_size, c->unified_l1d_kb);
  }
  CHECK(c->icnt_subnets == 1 || c->icnt_subnets == 2, "-icnt_subnets: expected 1 or 2, found %d",
        c->icnt_subnets);
  CHECK(c->icnt_arbiter == 0 || c->icnt_arbiter == 1,
        "-icnt_arbiter_algo: expected 0 or 1, found %d", c->icnt_arbiter);
  if (c->network_mode == ICNT_LOCAL) {
    CHECK(c->icnt_in_buffer_limit >= 1 && c->icnt_out_buffer_limit >= 1,
          "-icnt_in_buffer_limit/-icnt_out_buffer_limit: expected >= 1, found %d/%d",
          c->icnt_in_buffer_limit, c->icnt_out_buffer_limit);
    return 0;
  }
  CHECK(c->network_mode == ICNT_BOOKSIM, "-network_mode: expected 1 or 2, found %d",
        (int)c->network_mode);
  CHECK(c->icnt_vc_buffer >= 1 && c->icnt_ejection_buffer >= 1 && c->icnt_boundary_buffer >= 1 &&
            c->icnt_speedup >= 1,
        "-rfsim_icnt_vc_buffer/_ejection_buffer/_boundary_buffer/_speedup: expected >= 1, "
        "found %d/%d/%d/%d", c->icnt_vc_buffer, c->icnt_ejection_buffer,
        c->icnt_boundary_buffer, c->icnt_speedup);
  CHECK(c->icnt_latency >= 2,
        "-rfsim_icnt_latency: expected >= 2 in BookSim mode (injection and ejection take a "
        "cycle each), found %d", c->icnt_latency);
  return 0;
}

static int check_dram(const gpu_config *c, rf_diag *d) {
  const dram_timing *t = &c->dram;
  CHECK(pow2(t->nbk), "-gpgpu_dram_timing_opt: expected a power-of-two nbk, found %d", t->nbk);
  CHECK(t->nbkgrp >= 1 && t->nbk % t->nbkgrp == 0,
        "-gpgpu_dram_timing_opt: expected nbkgrp >= 1 dividing nbk=%d, found %d", t->nbk,
        t->nbkgrp);
  CHECK(t->nbk % c->n_sub_partition_per_mchannel == 0,
        "-gpgpu_dram_timing_opt: expected nbk to be a multiple of "
        "-gpgpu_n_sub_partition_per_mchannel %d (banks are split among L2 slices), found %d",
        c->n_sub_partition_per_mchannel, t->nbk);
  const int v[] = {t->tCCD, t->tRRD, t->tRCD, t->tRAS, t->tRP, t->tRC, t->CL, t->WL,
                   t->tCDLR, t->tWR, t->tCCDL, t->tRTPL};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    CHECK(v[i] >= 0, "-gpgpu_dram_timing_opt: expected timings >= 0, found %d", v[i]);
  CHECK(c->dram_chip_buswidth >= 1 && c->dram_chips_per_channel >= 1 &&
            c->dram_buswidth == (int64_t)c->dram_chip_buswidth * c->dram_chips_per_channel,
        "-gpgpu_dram_buswidth/-gpgpu_n_mem_per_ctrlr: expected >= 1 with dram_buswidth their "
        "product, found %d x %d -> %d", c->dram_chip_buswidth, c->dram_chips_per_channel,
        c->dram_buswidth);
  CHECK(c->dram_burst_length >= 1 && c->dram_data_command_freq_ratio >= 1,
        "-gpgpu_dram_burst_length/-dram_data_command_freq_ratio: expected >= 1, found %d/%d",
        c->dram_burst_length, c->dram_data_command_freq_ratio);
  CHECK(c->dram_sched_queue_size >= 0,
        "-gpgpu_frfcfs_dram_sched_queue_size: expected >= 0, found %d", c->dram_sched_queue_size);
  CHECK(c->dram_scheduler == 0 || c->dram_scheduler == 1,
        "-gpgpu_dram_scheduler: expected 0 (FIFO) or 1 (FR-FCFS), found %d", c->dram_scheduler);
  CHECK(pow2(c->dram_row_bytes) && c->dram_row_bytes >= 32,
        "-rfsim_dram_row_bytes: expected a power of two >= 32, found %d", c->dram_row_bytes);
  return 0;
}

/* Is `part` one of the '+'-joined parts of -rfsim_policy (policy_registry.c composes them)? */
static int policy_has_part(const char *policy, const char *part) {
  size_t n = strlen(part);
  for (const char *p = policy; p; p = strchr(p, '+') ? strchr(p, '+') + 1 : NULL)
    if (!strncmp(p, part, n) && (p[n] == '\0' || p[n] == '+')) return 1;
  return 0;
}

static int check_rfsim(const gpu_config *c, rf_diag *d) {
  CHECK(memchr(c->policy, '\0', sizeof c->policy) && c->policy[0] != '\0',
        "-rfsim_policy: expected a policy name, found %s", "an empty or unterminated string");
  CHECK(c->watchdog_cycles >= 1, "-rfsim_watchdog: expected >= 1, found %lld",
        c->watchdog_cycles);
  CHECK(c->max_cycles >= 0, "-gpgpu_max_cycle: expected >= 0, found %lld", c->max_cycles);
  CHECK(c->warpman_mode >= WARPMAN_OFF && c->warpman_mode <= WARPMAN_THRESHOLD,
        "-warpman_mode: expected off, temp, spatial, dueling or threshold, found mode %d",
        (int)c->warpman_mode);
  CHECK(c->warpman_mode == WARPMAN_OFF || policy_has_part(c->policy, "warpman"),
        "-warpman_mode: expected off unless -rfsim_policy is warpman (alone or composed, e.g. "
        "warpman+larf), found -rfsim_policy %s", c->policy);
  CHECK(c->warpman_threshold >= 1, "-warpman_threshold: expected >= 1, found %d",
        c->warpman_threshold);
  CHECK(c->warpman_duel_window >= 1, "-warpman_duel_window: expected >= 1, found %lld",
        c->warpman_duel_window);
  return 0;
}

int config_validate(const gpu_config *c, rf_diag *d) {
  if (check_core(c, d) != 0 || check_units(c, d) != 0 || check_opcoll(c, d) != 0 ||
      check_memory(c, d) != 0 || check_pipeline(c, d) != 0 || check_dram(c, d) != 0 ||
      check_rfsim(c, d) != 0)
    return -1;
  return 0;
}
