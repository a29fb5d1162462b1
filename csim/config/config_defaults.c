/* GTX 480 defaults: the same values as configs/gtx480.config (a test keeps the two equal), so
 * that a partial config file or a bare command line still describes a real GPU. See that file
 * for where each value comes from. Also what every option's change leaves to be worked out
 * again (config_derive), which the option reader (config.c) calls. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "config_internal.h"

void config_derive(gpu_config *c) {
  /* Runs after every option, while other fields may not be set yet (a config loaded onto an
   * arbitrary struct): the option table bounds both factors, so only such a partial struct can
   * overflow, and int64 arithmetic keeps that defined (UBSan found the int product). */
  int64_t bus = (int64_t)c->dram_chip_buswidth * c->dram_chips_per_channel;
  c->dram_buswidth = bus >= 0 && bus <= INT_MAX ? (int)bus : 0;
  /* Fixed entries (see config.h), restated so a config loaded onto any struct is complete. */
  c->num_units[UNIT_MEM] = 1;
  c->latency[UNIT_MEM] = 0;
  c->initiation[UNIT_MEM] = 1;
  c->num_units[UNIT_CTRL] = c->latency[UNIT_CTRL] = c->initiation[UNIT_CTRL] = 0;
}

static void set_cache(cache_config *cc, int sectored, int nsets, int line, int assoc,
                      const char *policies, char mshr, int entries, int merge, int missq) {
  cc->enabled = 1;
  cc->sectored = sectored;
  cc->nsets = nsets;
  cc->line_size = line;
  cc->assoc = assoc;
  cc->replacement = policies[0];
  cc->write_policy = policies[1];
  cc->alloc_policy = policies[2];
  cc->write_alloc = policies[3];
  cc->set_index_fn = policies[4];
  cc->mshr_type = mshr;
  cc->mshr_entries = entries;
  cc->mshr_max_merge = merge;
  cc->miss_queue_size = missq;
}

static void set_unit(gpu_config *c, op_unit u, int count, int latency, int initiation) {
  c->num_units[u] = count;
  c->latency[u] = latency;
  c->initiation[u] = initiation;
}

void config_defaults(gpu_config *c) {
  memset(c, 0, sizeof *c); /* padding too, so equal configs compare equal with memcmp */

  c->n_clusters = 15;
  c->n_cores_per_cluster = 1;
  c->n_mem = 6;
  c->n_sub_partition_per_mchannel = 2;

  c->shader_registers = 32768;
  c->registers_per_block = 32768;
  c->shader_cta = 8;
  c->max_threads_per_sm = 1536;
  c->warp_size = 32;
  c->shmem_size = 49152;
  c->shmem_per_block = 49152;
  c->reg_alloc_unit = 4;

  c->num_sched_per_core = 2;
  c->scheduler = SCHED_LRR;
  c->two_level_active = 0;
  c->max_insn_issue_per_warp = 1;
  c->dual_issue_diff_exec_units = 1;

  set_unit(c, UNIT_INT, 0, 4, 1);
  set_unit(c, UNIT_SP, 2, 4, 1);
  set_unit(c, UNIT_DP, 0, 8, 8);
  set_unit(c, UNIT_SFU, 1, 8, 8);
  set_unit(c, UNIT_TENSOR, 0, 4, 1);
  /* UNIT_MEM and UNIT_CTRL are fixed by config_derive below. */

  /* SM2_GTX480's register file and collectors; GPGPU-Sim's defaults where it sets none. */
  c->num_reg_banks = 16;
  c->reg_bank_use_warp_id = 1;
  c->sub_core_model = 0;
  c->reg_file_port_throughput = 1;
  c->specialized_oc = 1;
  static const int oc_units[OC_SET_COUNT] = {[UNIT_SP] = 6, [UNIT_SFU] = 8, [UNIT_TENSOR] = 4,
                                             [UNIT_MEM] = 2};
  static const int oc_in[OC_SET_COUNT] = {[UNIT_SP] = 2, [UNIT_SFU] = 1, [UNIT_TENSOR] = 1,
                                          [UNIT_MEM] = 1};
  memcpy(c->oc_units, oc_units, sizeof oc_units);
  memcpy(c->oc_in_ports, oc_in, sizeof oc_in);
  memcpy(c->oc_out_ports, oc_in, sizeof oc_in);
  c->width_id_oc[UNIT_SP] = c->width_oc_ex[UNIT_SP] = 2;
  c->width_id_oc[UNIT_SFU] = c->width_oc_ex[UNIT_SFU] = 1;
  c->width_id_oc[UNIT_MEM] = c->width_oc_ex[UNIT_MEM] = 1;
  c->width_ex_wb = 2;

  set_cache(&c->l1d, 0, 32, 128, 4, "LLmNH", 'S', 64, 8, 8);
  set_cache(&c->l1i, 0, 4, 128, 4, "LRfNL", 'A', 2, 48, 4);
  c->perfect_inst_cache = 0;
  c->flush_l1_cache = 1;
  c->inst_fetch_throughput = 1;
  set_cache(&c->l2, 1, 64, 128, 8, "LBmLL", 'A', 256, 4, 4);
  c->l2.data_port_width = 32;
  c->l1_latency = 35;
  c->smem_latency = 26;
  c->shmem_num_banks = 32;
  c->l2_rop_latency = 120;
  c->dram_latency = 100;
  c->icnt_flit_size = 40;
  c->clk_core = 700.0;
  c->clk_icnt = 700.0;
  c->clk_l2 = 700.0;
  c->clk_dram = 924.0;

  /* SM2_GTX480's memory pipeline; GPGPU-Sim's defaults where it sets none; BookSim's
   * config_fermi_islip.icnt for the router (BookSim's defaults where that file is silent). */
  c->coalesce_arch = 20;
  c->gmem_skip_l1d = 0;
  c->l1_banks = 1;
  c->l1_bank_bytes = 32;
  c->l1_write_ratio = 0;
  c->adaptive_cache_config = 0;
  c->shmem_options[0] = 0;
  c->n_shmem_options = 1;
  c->unified_l1d_kb = 0;
  c->l1_response_queue = 2;
  c->cluster_ejection_buffer = 32;
  for (int i = 0; i < 4; i++) c->l2_queue[i] = 64;
  c->dram_return_queue = 116;
  c->partition_indexing = 0;
  c->perf_sim_memcpy = 1;
  c->stat_sample_cycles = 500;
  c->network_mode = ICNT_BOOKSIM;
  c->icnt_in_buffer_limit = 64;
  c->icnt_out_buffer_limit = 64;
  c->icnt_subnets = 2;
  c->icnt_arbiter = 1;
  c->icnt_latency = 5;
  c->icnt_input_buffer = 9;
  c->icnt_vc_buffer = 64;
  c->icnt_ejection_buffer = 64;
  c->icnt_boundary_buffer = 16;
  c->icnt_speedup = 2;

  c->dram = (dram_timing){.nbk = 16, .tCCD = 2, .tRRD = 6, .tRCD = 12, .tRAS = 28, .tRP = 12,
                          .tRC = 40, .CL = 12, .WL = 4, .tCDLR = 5, .tWR = 12, .nbkgrp = 4,
                          .tCCDL = 3, .tRTPL = 2};
  c->dram_chip_buswidth = 4;
  c->dram_chips_per_channel = 2;
  c->dram_burst_length = 8;
  c->dram_data_command_freq_ratio = 4;
  c->dram_sched_queue_size = 64;
  c->dram_scheduler = 1;
  c->dram_row_bytes = 4096;
  c->mem_chunk_bytes = 256;

  memcpy(c->policy, "baseline", sizeof "baseline");
  c->watchdog_cycles = 100000;
  c->max_cycles = 0;
  c->kernel_launch_latency = 0;
  c->seed = 1;

  c->warpman_mode = WARPMAN_OFF;
  c->warpman_threshold = 36;
  c->warpman_duel_window = 2000;
  /* the papers' evaluated setting: 90% sharing with every optimization */
  c->regshare_t = 0.1;
  c->finereg_acrf_kb = 64; /* half of the default (GTX 480) 128 KB file each: the paper's split */
  c->finereg_pcrf_kb = 64;
  c->regmutex_srp_pct = 28;
  c->regmutex_brs_pct = 50;
  c->regdram_mem_ctas = 4;
  c->regshare_owf = 1;
  c->regshare_unroll = 1;
  c->regshare_dyn = 1;
  c->regshare_dyn_period = 1000;
  c->spshare_t = 0.1;
  c->spshare_owf = 1;

  config_derive(c);
}
