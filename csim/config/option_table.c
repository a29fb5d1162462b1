/* The one table from option name to gpu_config field. Adding an option (e.g. a technique's
 * -regshare_t) is one row here plus its field in config.h; parsing, range errors, dump and help
 * all follow from the row. Names are GPGPU-Sim's where GPGPU-Sim has the option, so existing
 * gpgpusim.config files apply unchanged; rfsim's own options carry the -rfsim_ prefix. */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "config_internal.h"

#define F(field) offsetof(gpu_config, field)

#define INT(nm, field, lo, hi, hlp) \
  {.name = nm, .kind = OPT_INT, .offset = F(field), .ilo = lo, .ihi = hi, .help = hlp}
#define LL(nm, field, lo, hi, hlp) \
  {.name = nm, .kind = OPT_LL, .offset = F(field), .ilo = lo, .ihi = hi, .help = hlp}
#define BOOL(nm, field, hlp) {.name = nm, .kind = OPT_BOOL, .offset = F(field), .help = hlp}
#define DOUBLE(nm, field, lo, hi, hlp) \
  {.name = nm, .kind = OPT_DOUBLE, .offset = F(field), .dlo = lo, .dhi = hi, .help = hlp}
#define STR(nm, field, hlp)                                                               \
  {.name = nm, .kind = OPT_STR, .offset = F(field), .size = sizeof(((gpu_config *)0)->field), \
   .help = hlp}
#define CUSTOM(nm, field, a, p, f, hlp) \
  {.name = nm, .kind = OPT_CUSTOM, .offset = F(field), .arg = a, .parse = p, .format = f, \
   .help = hlp}
#define LAT(nm, u, hlp) \
  CUSTOM(nm, latency[u], u, parse_latency, format_latency, hlp)
/* Another spelling of the row above: parsed the same, never dumped. */
#define INT_ALIAS(nm, field, lo, hi, hlp) \
  {.name = nm, .kind = OPT_INT, .offset = F(field), .ilo = lo, .ihi = hi, .alias = 1, .help = hlp}

/* Generous upper bounds: they catch typos (an extra digit) without limiting real designs. */
#define BIG (1 << 24)

const opt_def config_options[] = {
  /* Topology. */
  INT("gpgpu_n_clusters", n_clusters, 1, 4096, "number of SM clusters"),
  INT("gpgpu_n_cores_per_cluster", n_cores_per_cluster, 1, 64, "SMs per cluster"),
  INT("gpgpu_n_mem", n_mem, 1, 1024, "DRAM channels (memory partitions)"),
  INT("gpgpu_n_sub_partition_per_mchannel", n_sub_partition_per_mchannel, 1, 16,
      "L2 slices per DRAM channel"),

  /* SM resources. */
  INT("gpgpu_shader_registers", shader_registers, 1, BIG, "32-bit registers per SM"),
  INT("gpgpu_registers_per_block", registers_per_block, 1, BIG, "register limit per CTA"),
  INT("gpgpu_shader_cta", shader_cta, 1, 1024, "CTA slots per SM"),
  CUSTOM("gpgpu_shader_core_pipeline", max_threads_per_sm, 0, parse_pipeline, format_pipeline,
         "<max threads per SM>:<warp size>"),
  INT("gpgpu_shmem_size", shmem_size, 0, BIG, "shared memory bytes per SM"),
  INT("gpgpu_shmem_per_block", shmem_per_block, 0, BIG, "shared memory byte limit per CTA"),
  INT("rfsim_reg_alloc_unit", reg_alloc_unit, 1, 256,
      "registers per thread are rounded up to this multiple (GPGPU-Sim: 4)"),

  /* Issue. */
  INT("gpgpu_num_sched_per_core", num_sched_per_core, 1, 64, "warp schedulers per SM"),
  CUSTOM("gpgpu_scheduler", scheduler, 0, parse_scheduler, format_scheduler,
         "lrr | gto | two_level_active:<active warps per scheduler>[:...]"),
  INT("gpgpu_max_insn_issue_per_warp", max_insn_issue_per_warp, 1, 8,
      "instructions one warp may issue per cycle"),
  BOOL("gpgpu_dual_issue_diff_exec_units", dual_issue_diff_exec_units,
       "1: a warp's second issue in a cycle must use a different unit"),

  /* Functional units. */
  INT("gpgpu_num_sp_units", num_units[UNIT_SP], 1, 64, "SP pipelines per SM"),
  INT("gpgpu_num_sfu_units", num_units[UNIT_SFU], 1, 64, "SFU pipelines per SM"),
  INT("gpgpu_num_dp_units", num_units[UNIT_DP], 0, 64, "DP pipelines per SM (0: DP on SFU)"),
  INT("gpgpu_num_int_units", num_units[UNIT_INT], 0, 64, "INT pipelines per SM (0: INT on SP)"),
  INT("gpgpu_num_tensor_core_units", num_units[UNIT_TENSOR], 0, 64, "tensor pipelines per SM"),
  INT_ALIAS("gpgpu_num_tensor_units", num_units[UNIT_TENSOR], 0, 64,
            "alias of -gpgpu_num_tensor_core_units"),
  LAT("trace_opcode_latency_initiation_int", UNIT_INT, "INT <latency>,<initiation interval>"),
  LAT("trace_opcode_latency_initiation_sp", UNIT_SP, "SP <latency>,<initiation interval>"),
  LAT("trace_opcode_latency_initiation_dp", UNIT_DP, "DP <latency>,<initiation interval>"),
  LAT("trace_opcode_latency_initiation_sfu", UNIT_SFU, "SFU <latency>,<initiation interval>"),
  LAT("trace_opcode_latency_initiation_tensor", UNIT_TENSOR,
      "tensor <latency>,<initiation interval>"),

  /* Register file and operand collectors (csim/core/regfile.c, opcoll.c). */
  INT("gpgpu_num_reg_banks", num_reg_banks, 1, 64, "register file banks per SM"),
  BOOL("gpgpu_reg_bank_use_warp_id", reg_bank_use_warp_id,
       "bank = (register + warp id) % banks (GPGPU-Sim adds the warp id whatever this says)"),
  BOOL("gpgpu_sub_core_model", sub_core_model,
       "schedulers own a share of the banks, collectors and pipeline register slots"),
  INT("gpgpu_reg_file_port_throughput", reg_file_port_throughput, 1, 8,
      "operand collector steps (bank reads per bank) per cycle"),
  BOOL("gpgpu_enable_specialized_operand_collector", specialized_oc,
       "per-pipeline collector sets (sp, dp, sfu, int, tensor_core, mem) besides gen"),
  INT("gpgpu_operand_collector_num_units_sp", oc_units[UNIT_SP], 0, 64,
      "collector units of the sp set"),
  INT("gpgpu_operand_collector_num_units_dp", oc_units[UNIT_DP], 0, 64,
      "collector units of the dp set"),
  INT("gpgpu_operand_collector_num_units_sfu", oc_units[UNIT_SFU], 0, 64,
      "collector units of the sfu set"),
  INT("gpgpu_operand_collector_num_units_int", oc_units[UNIT_INT], 0, 64,
      "collector units of the int set"),
  INT("gpgpu_operand_collector_num_units_tensor_core", oc_units[UNIT_TENSOR], 0, 64,
      "collector units of the tensor_core set"),
  INT("gpgpu_operand_collector_num_units_mem", oc_units[UNIT_MEM], 0, 64,
      "collector units of the mem set"),
  INT("gpgpu_operand_collector_num_units_gen", oc_units[OC_GEN], 0, 64,
      "collector units of the gen set"),
  INT("gpgpu_operand_collector_num_in_ports_sp", oc_in_ports[UNIT_SP], 0, 64,
      "collector input ports of the sp set"),
  INT("gpgpu_operand_collector_num_in_ports_dp", oc_in_ports[UNIT_DP], 0, 64,
      "collector input ports of the dp set"),
  INT("gpgpu_operand_collector_num_in_ports_sfu", oc_in_ports[UNIT_SFU], 0, 64,
      "collector input ports of the sfu set"),
  INT("gpgpu_operand_collector_num_in_ports_int", oc_in_ports[UNIT_INT], 0, 64,
      "collector input ports of the int set"),
  INT("gpgpu_operand_collector_num_in_ports_tensor_core", oc_in_ports[UNIT_TENSOR], 0, 64,
      "collector input ports of the tensor_core set"),
  INT("gpgpu_operand_collector_num_in_ports_mem", oc_in_ports[UNIT_MEM], 0, 64,
      "collector input ports of the mem set"),
  INT("gpgpu_operand_collector_num_in_ports_gen", oc_in_ports[OC_GEN], 0, 64,
      "collector input ports of the gen set"),
  INT("gpgpu_operand_collector_num_out_ports_sp", oc_out_ports[UNIT_SP], 0, 64,
      "collector dispatch ports of the sp set"),
  INT("gpgpu_operand_collector_num_out_ports_dp", oc_out_ports[UNIT_DP], 0, 64,
      "collector dispatch ports of the dp set"),
  INT("gpgpu_operand_collector_num_out_ports_sfu", oc_out_ports[UNIT_SFU], 0, 64,
      "collector dispatch ports of the sfu set"),
  INT("gpgpu_operand_collector_num_out_ports_int", oc_out_ports[UNIT_INT], 0, 64,
      "collector dispatch ports of the int set"),
  INT("gpgpu_operand_collector_num_out_ports_tensor_core", oc_out_ports[UNIT_TENSOR], 0, 64,
      "collector dispatch ports of the tensor_core set"),
  INT("gpgpu_operand_collector_num_out_ports_mem", oc_out_ports[UNIT_MEM], 0, 64,
      "collector dispatch ports of the mem set"),
  INT("gpgpu_operand_collector_num_out_ports_gen", oc_out_ports[OC_GEN], 0, 64,
      "collector dispatch ports of the gen set"),
  CUSTOM("gpgpu_pipeline_widths", width_id_oc, 0, parse_pipe_widths, format_pipe_widths,
         "ID_OC_SP,ID_OC_DP,ID_OC_INT,ID_OC_SFU,ID_OC_MEM,OC_EX_SP,OC_EX_DP,OC_EX_INT,"
         "OC_EX_SFU,OC_EX_MEM,EX_WB[,ID_OC_TENSOR_CORE,OC_EX_TENSOR_CORE]"),

  /* Memory hierarchy. */
  CUSTOM("gpgpu_cache:dl1", l1d, CACHE_L1D, parse_cache, format_cache,
         "L1 data cache per SM, GPGPU-Sim cache string or none"),
  CUSTOM("gpgpu_cache:dl2", l2, CACHE_L2, parse_cache, format_cache,
         "L2 cache per slice, GPGPU-Sim cache string or none"),
  CUSTOM("gpgpu_cache:il1", l1i, CACHE_L1I, parse_cache, format_cache,
         "L1 instruction cache per SM, GPGPU-Sim cache string"),
  BOOL("gpgpu_perfect_inst_const_cache", perfect_inst_cache,
       "instruction fetches always hit (no L1I misses)"),
  BOOL("gpgpu_flush_l1_cache", flush_l1_cache,
       "invalidate the L1D at every memory barrier and when an SM has no threads left"),
  INT("gpgpu_inst_fetch_throughput", inst_fetch_throughput, 1, 64,
      "warps whose instructions are fetched per cycle"),
  INT("gpgpu_l1_latency", l1_latency, 1, 100000, "L1 hit latency, core cycles"),
  INT("gpgpu_smem_latency", smem_latency, 1, 100000, "shared memory latency, core cycles"),
  INT("gpgpu_shmem_num_banks", shmem_num_banks, 1, 1024, "shared memory banks (4 bytes wide)"),
  INT("gpgpu_l2_rop_latency", l2_rop_latency, 0, 100000,
      "L2 (ROP) latency, core cycles (GPGPU-Sim's unit)"),
  INT_ALIAS("rop_latency", l2_rop_latency, 0, 100000,
            "alias of -gpgpu_l2_rop_latency (GPGPU-Sim 3.x)"),
  INT("dram_latency", dram_latency, 0, 100000,
      "fixed DRAM latency, core cycles (GPGPU-Sim's unit)"),
  INT("icnt_flit_size", icnt_flit_size, 1, 4096, "NoC bytes per flit"),
  CUSTOM("gpgpu_clock_domains", clk_core, 0, parse_clocks, format_clocks,
         "<core>:<icnt>:<l2>:<dram> clocks, MHz"),

  /* The memory pipeline (csim/mem/mem.h): coalescing, L1D banks and bypass, the L2 slice's
   * queues, the interconnect. GPGPU-Sim's names and defaults. */
  INT("gpgpu_coalesce_arch", coalesce_arch, 13, 1000,
      "coalescing: 13-39 into 32/64/128-byte segments (32-byte when the L1D is bypassed from "
      "20 on), >= 40 every access into 32-byte sectors"),
  BOOL("gpgpu_gmem_skip_L1D", gmem_skip_l1d, "global loads and stores bypass the L1D"),
  INT("gpgpu_l1_banks", l1_banks, 1, 64, "L1D banks (each a pipeline of -gpgpu_l1_latency)"),
  INT("gpgpu_l1_banks_byte_interleaving", l1_bank_bytes, 1, 4096,
      "bytes mapped to one L1D bank before the next"),
  INT("gpgpu_l1_cache_write_ratio", l1_write_ratio, 0, 100,
      "percent of dirty L1D lines below which a dirty line is not chosen for eviction"),
  BOOL("gpgpu_adaptive_cache_config", adaptive_cache_config,
       "per kernel, the L1D takes what the shared memory carve-out leaves of the unified size"),
  CUSTOM("gpgpu_shmem_option", shmem_options, 0, parse_shmem_options, format_shmem_options,
         "shared memory carve-outs in KB, comma-separated (adaptive cache config)"),
  INT("gpgpu_unified_l1d_size", unified_l1d_kb, 0, 65536,
      "L1D + shared memory, KB (adaptive cache config; 0: none)"),
  INT("gpgpu_n_ldst_response_buffer_size", l1_response_queue, 1, 65536,
      "replies the LD/ST unit holds"),
  INT("gpgpu_n_cluster_ejection_buffer_size", cluster_ejection_buffer, 1, 65536,
      "replies a cluster holds between the network and its SMs"),
  CUSTOM("gpgpu_dram_partition_queues", l2_queue, 0, parse_l2_queues, format_l2_queues,
         "per L2 slice: icnt->L2:L2->DRAM:DRAM->L2:L2->icnt queue entries"),
  INT("gpgpu_dram_return_queue_size", dram_return_queue, 0, 65536,
      "DRAM return queue per channel (0: unlimited)"),
  INT("gpgpu_memory_partition_indexing", partition_indexing, 0, 4,
      "L2 slice selection: 0 consecutive, 1 XOR, 2 IPOLY hash, 4 random (3 is refused)"),
  BOOL("gpgpu_perf_sim_memcpy", perf_sim_memcpy,
       "the trace's memcpys are looked up in the address mapping (random slice draws)"),
  CUSTOM("gpgpu_runtime_stat", stat_sample_cycles, 0, parse_runtime_stat, format_runtime_stat,
         "<freq>[:<flag>]: latency statistics sampled every <freq> cycles (the flag, which "
         "selects GPGPU-Sim's periodic printouts, is accepted and ignored)"),
  CUSTOM("network_mode", network_mode, 0, parse_network_mode, format_network_mode,
         "1: BookSim-style router (flits, -rfsim_icnt_*), 2: local crossbar (-icnt_*_limit)"),
  INT("icnt_in_buffer_limit", icnt_in_buffer_limit, 1, 1 << 20,
      "local crossbar: packets an input holds"),
  INT("icnt_out_buffer_limit", icnt_out_buffer_limit, 1, 1 << 20,
      "local crossbar: packets an output holds"),
  INT("icnt_subnets", icnt_subnets, 1, 2,
      "1 or 2 networks; in GPGPU-Sim's one-router crossbar requests and replies use disjoint "
      "ports, so both behave alike (rfsim builds two)"),
  INT("icnt_arbiter_algo", icnt_arbiter, 0, 1, "crossbar arbiter: 0 round robin, 1 iSLIP"),
  INT("rfsim_icnt_latency", icnt_latency, 1, 100000,
      "BookSim mode: zero-load latency of a one-flit packet, icnt cycles (channels + router "
      "pipeline delays of the .icnt file)"),
  INT("rfsim_icnt_input_buffer", icnt_input_buffer, 1, 1 << 20,
      "BookSim mode: injection queue, flits (.icnt input_buffer_size; BookSim's default 9)"),
  INT("rfsim_icnt_vc_buffer", icnt_vc_buffer, 1, 1 << 20,
      "BookSim mode: router input buffer, flits (.icnt vc_buf_size x num_vcs)"),
  INT("rfsim_icnt_ejection_buffer", icnt_ejection_buffer, 1, 1 << 20,
      "BookSim mode: ejection buffer, flits (.icnt ejection_buffer_size, else vc_buf_size)"),
  INT("rfsim_icnt_boundary_buffer", icnt_boundary_buffer, 1, 1 << 20,
      "BookSim mode: boundary buffer the receiver pops, flits (.icnt boundary_buffer_size)"),
  INT("rfsim_icnt_speedup", icnt_speedup, 1, 16,
      "BookSim mode: switch allocations per cycle (.icnt internal_speedup)"),

  /* DRAM. */
  CUSTOM("gpgpu_dram_timing_opt", dram, 0, parse_dram_timing, format_dram_timing,
         "nbk=..:CCD=..:RRD=..:RCD=..:RAS=..:RP=..:RC=..:CL=..:WL=..:CDLR=..:WR=..[:nbkgrp=..:"
         "CCDL=..:RTPL=..], DRAM command cycles"),
  INT("gpgpu_dram_buswidth", dram_chip_buswidth, 1, 1024, "bytes per DRAM chip per beat"),
  INT("gpgpu_n_mem_per_ctrlr", dram_chips_per_channel, 1, 64, "DRAM chips per channel"),
  INT("gpgpu_dram_burst_length", dram_burst_length, 1, 64, "beats per DRAM burst"),
  INT("dram_data_command_freq_ratio", dram_data_command_freq_ratio, 1, 16,
      "data beats per command clock (GDDR5: 4, HBM: 2)"),
  INT("gpgpu_frfcfs_dram_sched_queue_size", dram_sched_queue_size, 0, 65536,
      "DRAM scheduler queue entries (0: unlimited)"),
  INT("gpgpu_dram_scheduler", dram_scheduler, 0, 1, "0: FIFO, 1: FR-FCFS"),
  INT("rfsim_dram_row_bytes", dram_row_bytes, 32, BIG, "bytes per DRAM row per bank"),
  INT("rfsim_mem_chunk_bytes", mem_chunk_bytes, 32, BIG, "channel interleaving granule, bytes"),

  /* rfsim's own. */
  STR("rfsim_policy", policy,
      "resource policy (baseline, warpman, regshare, spshare, finereg, vt, regdram, regmutex)"),
  LL("rfsim_watchdog", watchdog_cycles, 1, LLONG_MAX, "cycles without progress before abort"),
  LL("gpgpu_max_cycle", max_cycles, 0, LLONG_MAX, "stop after this many cycles (0: no limit)"),
  INT("gpgpu_kernel_launch_latency", kernel_launch_latency, 0, BIG,
      "cycles from kernel start until its first CTA is dispatched"),
  {.name = "rfsim_seed", .kind = OPT_U64, .offset = F(seed), .help = "random seed"},

  /* WarpMan (-rfsim_policy warpman). */
  CUSTOM("warpman_mode", warpman_mode, 0, parse_warpman_mode, format_warpman_mode,
         "off | temp | spatial (temp+spatial) | dueling | threshold"),
  INT("warpman_threshold", warpman_threshold, 1, 4096,
      "threshold mode: no partial TB while this many warps are resident (paper: 36)"),
  LL("warpman_duel_window", warpman_duel_window, 1, LLONG_MAX,
     "dueling mode: cycles over which the two dueling SMs' IPC is compared"),

  /* Register sharing (-rfsim_policy regshare), scratchpad sharing (spshare). */
  DOUBLE("regshare_t", regshare_t, 0.001, 1.0,
         "register sharing threshold t: pairs get (1+t)*Rtb registers, (1-t)*100 % shared"),
  BOOL("regshare_owf", regshare_owf, "owner-warp-first scheduling (owner > unshared > non-owner)"),
  BOOL("regshare_unroll", regshare_unroll,
       "unroll and reorder register declarations: number registers by first use"),
  BOOL("regshare_dyn", regshare_dyn,
       "dynamic warp execution: throttle non-owner memory instructions by SM0's stalls"),
  LL("regshare_dyn_period", regshare_dyn_period, 1, LLONG_MAX,
     "dynamic warp execution: cycles between stall comparisons with SM0 (paper: 1000)"),
  DOUBLE("spshare_t", spshare_t, 0.001, 1.0,
         "scratchpad sharing threshold t: pairs get (1+t)*Rtb bytes, (1-t)*100 % shared"),
  BOOL("spshare_owf", spshare_owf, "scratchpad sharing: owner-warp-first scheduling"),

  /* FineReg (-rfsim_policy finereg). */
  INT("finereg_acrf_kb", finereg_acrf_kb, 0, BIG,
      "FineReg active CTA register file, KB (paper: 128 of a 256 KB register file)"),
  INT("finereg_pcrf_kb", finereg_pcrf_kb, 0, BIG,
      "FineReg pending CTA register file, KB (paper: 128); ACRF + PCRF <= register file"),
  INT("regmutex_srp_pct", regmutex_srp_pct, 1, 99,
      "VT+RegMutex: shared register pool, percent of the register file (FineReg: 28.1 avg)"),
  INT("regmutex_brs_pct", regmutex_brs_pct, 1, 100,
      "VT+RegMutex: base register set, percent of a thread's registers"),
  INT("regdram_mem_ctas", regdram_mem_ctas, 0, 128,
      "Reg+DRAM: CTAs per SM whose register contexts may be in memory (0: Virtual Thread)"),
};

const size_t config_option_count = sizeof config_options / sizeof config_options[0];

const opt_def *config_find_option(const char *name) {
  for (size_t i = 0; i < config_option_count; i++)
    if (strcmp(config_options[i].name, name) == 0) return &config_options[i];
  return NULL;
}
