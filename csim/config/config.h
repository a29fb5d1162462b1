/* GPU configuration in GPGPU-Sim option syntax. One table (option_table.c) maps each option name
 * to a field of gpu_config, so that a user's gpgpusim.config works unchanged: options rfsim
 * models are parsed and validated, options it does not model are reported once and ignored, and
 * a malformed value is an error naming file:line. Command-line options override files, applied
 * in order. Shipped configs live in configs/, each saying what it mirrors. */
#ifndef RFSIM_CONFIG_H
#define RFSIM_CONFIG_H

#include <stdint.h>
#include <stdio.h>

#include "../common/diag.h"

/* Functional-unit / latency classes, as Accel-Sim's trace_opcode_latency_initiation_* options. */
typedef enum op_unit {
  UNIT_INT = 0, /* integer pipeline (INTP_OP and ALU_OP in Accel-Sim's opcode tables) */
  UNIT_SP,      /* single-precision FP */
  UNIT_DP,      /* double precision */
  UNIT_SFU,     /* special functions (MUFU) */
  UNIT_TENSOR,  /* HMMA/IMMA */
  UNIT_MEM,     /* LD/ST unit */
  UNIT_CTRL,    /* branch, barrier, exit: resolved at issue, no pipeline */
  UNIT_COUNT
} op_unit;

/* The generic operand-collector set (-gpgpu_operand_collector_num_units_gen); the control
 * class never has a set of its own, so its index holds it. */
#define OC_GEN UNIT_CTRL
#define OC_SET_COUNT UNIT_COUNT

typedef enum sched_policy { SCHED_LRR = 0, SCHED_GTO, SCHED_TWO_LEVEL } sched_policy;

/* -warpman_mode (warpman_warp_level_divergence sec. 4 and 6.1; csim/policy/warpman.c). */
typedef enum warpman_mode {
  WARPMAN_OFF = 0,   /* thread-block-level management: the baseline's decisions */
  WARPMAN_TEMP,      /* 'temp': a finished warp releases its registers and warp slot at once */
  WARPMAN_SPATIAL,   /* 'temp+spatial': also partial TBs into leftover registers */
  WARPMAN_DUELING,   /* SM 0 temp+spatial, SM 1 temp; the rest follow the better IPC */
  WARPMAN_THRESHOLD  /* temp+spatial, no partial TB once -warpman_threshold warps are resident */
} warpman_mode;

/* -gpgpu_cache:dl1 / dl2 in GPGPU-Sim's string form, e.g.
 *   "N:64:128:6,L:L:m:N:H,A:128:8,8"  or the older "32:128:4,L:L:m:N,A:32:8,8"
 * <sector?>:<nsets>:<line>:<assoc>,<repl>:<write>:<alloc>:<write_alloc>[:<set_index>],
 * <mshr_type>:<mshr_entries>:<mshr_max_merge>,<miss_queue>[:<result_fifo>][,...]
 * "none" (or an absent option) disables the cache. */
typedef struct cache_config {
  int enabled;
  int sectored;       /* 'S' prefix: 4 x 32-byte sectors per 128-byte line */
  int nsets;
  int line_size;      /* bytes */
  int assoc;
  char replacement;   /* 'L' LRU, 'F' FIFO */
  char write_policy;  /* 'R' read-only, 'B' write-back, 'T' write-through, 'E' write-evict,
                         'L' local write-back / global write-through */
  char alloc_policy;  /* 'm' on miss, 'f' on fill, 's' streaming */
  char write_alloc;   /* 'N' no, 'W' write-allocate, 'F' fetch-on-write, 'L' lazy fetch */
  char set_index_fn;  /* 'L' linear, 'H' Fermi hash, 'P' Kepler hash, 'X' bitwise xor */
  char mshr_type;     /* 'A' associative, 'F' FIFO, 'T' texture, 'S' sector-associative */
  int mshr_entries;
  int mshr_max_merge;
  int miss_queue_size;
  int data_port_width; /* bytes the data array reads or writes per cycle (0: a line);
                          a hit occupies the port ceil(bytes / width) cycles, a fill the
                          allocation unit (sector or line) / width (GPGPU-Sim's
                          bandwidth_management) */
} cache_config;

/* -gpgpu_shmem_option: at most this many shared-memory carve-out sizes. */
#define SHMEM_OPTIONS_MAX 16

/* -network_mode: the two interconnects GPGPU-Sim offers (csim/mem/icnt.h). */
typedef enum icnt_mode {
  ICNT_BOOKSIM = 1, /* 1: BookSim's one-router butterfly, flits and router pipeline */
  ICNT_LOCAL = 2    /* 2: GPGPU-Sim's local crossbar, one packet per port per cycle */
} icnt_mode;

/* -gpgpu_dram_timing_opt "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:
 *                         nbkgrp=1:CCDL=0:RTPL=0", in DRAM command-clock cycles. */
typedef struct dram_timing {
  int nbk, tCCD, tRRD, tRCD, tRAS, tRP, tRC, CL, WL, tCDLR, tWR, nbkgrp, tCCDL, tRTPL;
} dram_timing;

typedef struct gpu_config {
  /* Topology. */
  int n_clusters;                  /* -gpgpu_n_clusters */
  int n_cores_per_cluster;         /* -gpgpu_n_cores_per_cluster */
  int n_mem;                       /* -gpgpu_n_mem: DRAM channels */
  int n_sub_partition_per_mchannel;/* -gpgpu_n_sub_partition_per_mchannel: L2 slices/channel */

  /* SM resources (the CTA admission rule reads these). */
  int shader_registers;            /* -gpgpu_shader_registers: 32-bit registers per SM */
  int registers_per_block;         /* -gpgpu_registers_per_block: per-CTA register limit */
  int shader_cta;                  /* -gpgpu_shader_cta: CTA slots per SM */
  int max_threads_per_sm;          /* -gpgpu_shader_core_pipeline <threads>:<warp size> */
  int warp_size;
  int shmem_size;                  /* -gpgpu_shmem_size: bytes per SM */
  int shmem_per_block;             /* -gpgpu_shmem_per_block: bytes per CTA limit */
  int reg_alloc_unit;              /* -rfsim_reg_alloc_unit: registers per thread rounded up
                                      to this multiple (GPGPU-Sim's padding; 1 = none) */

  /* Issue. */
  int num_sched_per_core;          /* -gpgpu_num_sched_per_core */
  sched_policy scheduler;          /* -gpgpu_scheduler lrr|gto|two_level_active:N:... */
  int two_level_active;            /* active-set size per scheduler for two_level, else 0 */
  int max_insn_issue_per_warp;     /* -gpgpu_max_insn_issue_per_warp */
  int dual_issue_diff_exec_units;  /* -gpgpu_dual_issue_diff_exec_units */

  /* Functional units: count of each pipeline per SM, latency and initiation interval.
   * A count of 0 for INT, DP or TENSOR means that class has no pipeline of its own and runs on
   * another one (config_exec_unit), as in GPGPU-Sim (Fermi: INT on SP, DP on SFU).
   * num_units[UNIT_MEM] is always 1, with latency 0 (memory timing comes from the cache/DRAM
   * fields) and initiation 1; UNIT_CTRL entries are 0. Neither is an option. */
  int num_units[UNIT_COUNT];       /* -gpgpu_num_{int,sp,dp,sfu,tensor_core}_units */
  int latency[UNIT_COUNT];         /* -trace_opcode_latency_initiation_{int,sp,dp,sfu,tensor} */
  int initiation[UNIT_COUNT];      /*   "<latency>,<initiation>" */

  /* Register file and operand collectors (GPGPU-Sim's opndcoll_rfu_t; csim/core/regfile.c,
   * opcoll.c). Collector sets are indexed by op_unit for the specialized sets (INT, SP, DP, SFU,
   * TENSOR, MEM) and by OC_GEN for the generic one. */
  int num_reg_banks;               /* -gpgpu_num_reg_banks */
  int reg_bank_use_warp_id;        /* -gpgpu_reg_bank_use_warp_id: bank = (reg + warp) % banks */
  int sub_core_model;              /* -gpgpu_sub_core_model: banks, collectors and pipeline
                                      register slots split among the schedulers */
  int reg_file_port_throughput;    /* -gpgpu_reg_file_port_throughput: collector steps/cycle */
  int specialized_oc;              /* -gpgpu_enable_specialized_operand_collector */
  int oc_units[OC_SET_COUNT];      /* -gpgpu_operand_collector_num_units_<set> */
  int oc_in_ports[OC_SET_COUNT];   /* -gpgpu_operand_collector_num_in_ports_<set> */
  int oc_out_ports[OC_SET_COUNT];  /* -gpgpu_operand_collector_num_out_ports_<set> */
  int width_id_oc[UNIT_COUNT];     /* -gpgpu_pipeline_widths: issue -> collector registers */
  int width_oc_ex[UNIT_COUNT];     /*   collector -> functional unit registers */
  int width_ex_wb;                 /*   EX_WB (parsed; writeback never stalls here) */

  /* Memory hierarchy. */
  cache_config l1d;                /* -gpgpu_cache:dl1 (per SM) */
  cache_config l2;                 /* -gpgpu_cache:dl2 (per L2 slice) */
  cache_config l1i;                /* -gpgpu_cache:il1 (per SM) */
  int perfect_inst_cache;          /* -gpgpu_perfect_inst_const_cache: fetch never misses */
  int flush_l1_cache;              /* -gpgpu_flush_l1_cache: invalidate the L1D at every memory
                                      barrier and when an SM runs out of threads (GPGPU-Sim) */
  int inst_fetch_throughput;       /* -gpgpu_inst_fetch_throughput: warps fetched per cycle */
  int l1_latency;                  /* -gpgpu_l1_latency */
  int smem_latency;                /* -gpgpu_smem_latency */
  int shmem_num_banks;             /* -gpgpu_shmem_num_banks */
  int l2_rop_latency;              /* -gpgpu_l2_rop_latency (core cycles, as GPGPU-Sim) */
  int dram_latency;                /* -dram_latency (core cycles, as GPGPU-Sim) */
  int icnt_latency;                /* -rfsim_icnt_latency: zero-load network latency of a
                                      one-flit packet, icnt cycles (BookSim mode) */
  int icnt_flit_size;              /* -icnt_flit_size: bytes per flit per port per icnt cycle */
  double clk_core, clk_icnt, clk_l2, clk_dram; /* MHz, -gpgpu_clock_domains
                                                  <core>:<icnt>:<l2>:<dram> */

  /* The memory pipeline as GPGPU-Sim builds it (csim/mem/mem.h describes each mechanism). */
  int coalesce_arch;               /* -gpgpu_coalesce_arch: 20-39 (Fermi, Kepler) coalesce
                                      cached accesses into 32/64/128-byte segments, >= 40
                                      (Maxwell on) every access into 32-byte sectors */
  int gmem_skip_l1d;               /* -gpgpu_gmem_skip_L1D: global accesses bypass the L1D */
  int l1_banks;                    /* -gpgpu_l1_banks: L1D banks, each a hit pipeline */
  int l1_bank_bytes;               /* -gpgpu_l1_banks_byte_interleaving */
  int l1_write_ratio;              /* -gpgpu_l1_cache_write_ratio: percent of dirty L1D lines
                                      below which dirty lines are not evicted */
  int adaptive_cache_config;       /* -gpgpu_adaptive_cache_config: the L1D gets what shared
                                      memory leaves of -gpgpu_unified_l1d_size per kernel */
  int shmem_options[SHMEM_OPTIONS_MAX]; /* -gpgpu_shmem_option: carve-outs in KB, ascending */
  int n_shmem_options;
  int unified_l1d_kb;              /* -gpgpu_unified_l1d_size: L1D + shared memory, KB */
  int l1_response_queue;           /* -gpgpu_n_ldst_response_buffer_size: replies an SM's
                                      LD/ST unit holds */
  int cluster_ejection_buffer;     /* -gpgpu_n_cluster_ejection_buffer_size: replies a
                                      cluster holds between the network and its SMs */
  int l2_queue[4];                 /* -gpgpu_dram_partition_queues icnt->L2 : L2->DRAM :
                                      DRAM->L2 : L2->icnt entries per L2 slice */
  int dram_return_queue;           /* -gpgpu_dram_return_queue_size (0: unlimited) */
  int partition_indexing;          /* -gpgpu_memory_partition_indexing: 0 consecutive,
                                      1 XOR, 2 IPOLY, 4 random */
  int perf_sim_memcpy;             /* -gpgpu_perf_sim_memcpy: trace memcpys go through the
                                      address mapping (they draw random slices) */
  int stat_sample_cycles;          /* -gpgpu_runtime_stat <freq>[:<flag>]: GPGPU-Sim folds its
                                      latency sums into its averages every <freq> cycles */
  icnt_mode network_mode;          /* -network_mode */
  int icnt_in_buffer_limit;        /* -icnt_in_buffer_limit (local: packets per input) */
  int icnt_out_buffer_limit;       /* -icnt_out_buffer_limit (local: packets per output) */
  int icnt_subnets;                /* -icnt_subnets: 1 or 2 */
  int icnt_arbiter;                /* -icnt_arbiter_algo: 0 round robin, 1 iSLIP */
  int icnt_input_buffer;           /* -rfsim_icnt_input_buffer (BookSim input_buffer_size,
                                      flits per injection queue) */
  int icnt_vc_buffer;              /* -rfsim_icnt_vc_buffer (BookSim vc_buf_size, flits) */
  int icnt_ejection_buffer;        /* -rfsim_icnt_ejection_buffer (BookSim
                                      ejection_buffer_size, flits) */
  int icnt_boundary_buffer;        /* -rfsim_icnt_boundary_buffer (BookSim
                                      boundary_buffer_size, flits) */
  int icnt_speedup;                /* -rfsim_icnt_speedup (BookSim internal_speedup) */

  /* DRAM. */
  dram_timing dram;                /* -gpgpu_dram_timing_opt */
  int dram_buswidth;               /* bytes per channel per beat, derived (never set directly):
                                      dram_chip_buswidth x dram_chips_per_channel */
  int dram_chip_buswidth;          /* -gpgpu_dram_buswidth: bytes per DRAM chip per beat */
  int dram_chips_per_channel;      /* -gpgpu_n_mem_per_ctrlr: chips side by side on a channel
                                      (GPGPU-Sim's Fermi configs: 4 bytes x 2 chips) */
  int dram_burst_length;           /* -gpgpu_dram_burst_length */
  int dram_data_command_freq_ratio;/* -dram_data_command_freq_ratio */
  int dram_sched_queue_size;       /* -gpgpu_frfcfs_dram_sched_queue_size (0 = unlimited) */
  int dram_scheduler;              /* -gpgpu_dram_scheduler: 0 FIFO, 1 FR-FCFS */
  int dram_row_bytes;              /* -rfsim_dram_row_bytes: bytes per DRAM row per bank */
  int mem_chunk_bytes;             /* -rfsim_mem_chunk_bytes: channel interleaving granule
                                      (GPGPU-Sim's dramid@8 -> 256 bytes) */

  /* rfsim's own. */
  char policy[32];                 /* -rfsim_policy baseline|... */
  long long watchdog_cycles;       /* -rfsim_watchdog: cycles without progress before abort */
  long long max_cycles;            /* -gpgpu_max_cycle: 0 = unlimited */
  int kernel_launch_latency;       /* -gpgpu_kernel_launch_latency: cycles from a kernel's
                                      start until its first CTA can be dispatched */
  uint64_t seed;                   /* -rfsim_seed */

  /* WarpMan (with -rfsim_policy warpman). */
  warpman_mode warpman_mode;       /* -warpman_mode off|temp|spatial|dueling|threshold */
  int warpman_threshold;           /* -warpman_threshold: resident warps that stop partial TBs */
  long long warpman_duel_window;   /* -warpman_duel_window: cycles per SM-dueling sample */

  /* Register sharing (-rfsim_policy regshare) and scratchpad sharing (spshare), resource_sharing
   * sec. III-IV: csim/policy/regshare.c, spshare.c. */
  double regshare_t;               /* -regshare_t: threshold t, sharing % = (1 - t) * 100 */
  int regshare_owf;                /* -regshare_owf: owner-warp-first scheduling */
  int regshare_unroll;             /* -regshare_unroll: renumber registers by first use */
  int regshare_dyn;                /* -regshare_dyn: dynamic warp execution */
  long long regshare_dyn_period;   /* -regshare_dyn_period: cycles between stall comparisons */

  /* FineReg (-rfsim_policy finereg; finereg.txt sec. IV-V): csim/policy/finereg.c. */
  int finereg_acrf_kb;             /* -finereg_acrf_kb: active CTA register file, KB */
  int finereg_pcrf_kb;             /* -finereg_pcrf_kb: pending CTA register file, KB */
  /* VT+RegMutex (-rfsim_policy regmutex; finereg.txt sec. VI-A): csim/policy/vt.c. */
  int regmutex_srp_pct;            /* -regmutex_srp_pct: shared register pool, % of the RF */
  int regmutex_brs_pct;            /* -regmutex_brs_pct: base register set, % of a thread's */
  int regdram_mem_ctas;            /* -regdram_mem_ctas: CTAs per SM with contexts in memory */
  double spshare_t;                /* -spshare_t: threshold t of scratchpad sharing */
  int spshare_owf;                 /* -spshare_owf: owner-warp-first scheduling */
} gpu_config;

/* Where notes about unmodelled options go, and which options were already reported, so that
 * each is reported once across every file and the command line. Initialise with
 * config_notes_init; it holds no resources. Past CONFIG_NOTES_POOL bytes of distinct names a
 * repeat may be reported again (a real gpgpusim.config needs about 3 KB). */
#define CONFIG_NOTES_POOL 16384

typedef struct config_notes {
  FILE *out;                       /* NULL: count only */
  int count;                       /* distinct unknown options seen */
  size_t used;                     /* bytes of names[] in use */
  char names[CONFIG_NOTES_POOL];   /* reported names, each NUL-terminated */
} config_notes;

void config_notes_init(config_notes *n, FILE *out);

/* Fills every field with the GTX 480 defaults (so a partial config file still runs); equal to
 * loading configs/gtx480.config. */
void config_defaults(gpu_config *c);

/* Reads a GPGPU-Sim style file: `-option value` pairs separated by whitespace (a value in double
 * quotes may contain spaces and span lines), '#' comments to the end of the line. Unknown
 * options are reported once through `notes` (may be NULL) and ignored. On error c is unchanged
 * and d holds "file:line: -option: expected ..., found '...'". */
int config_load_file(gpu_config *c, const char *path, config_notes *notes, rf_diag *d);

/* Sets one option (name with or without its leading '-'); `origin` and `line` name where it
 * came from for messages (e.g. "command line", 0). value may be NULL only for a 0/1 option,
 * which it sets to 1. Returns 1 if the option is unknown (and reports it through notes),
 * 0 when applied, -1 on a malformed value (c unchanged). */
int config_set(gpu_config *c, const char *name, const char *value, const char *origin,
               long line, config_notes *notes, rf_diag *d);

/* Cross-field checks after all files and overrides are in (e.g. warp size 32, caches sane). */
int config_validate(const gpu_config *c, rf_diag *d);

/* Writes the effective configuration, one `-option value` line each, in a form config_load_file
 * reads back to an identical struct (stats header, debugging). */
void config_dump(const gpu_config *c, FILE *out);

/* Lists every option with its help text (for `rfsim -help`). */
void config_print_help(FILE *out);

static inline int config_num_sms(const gpu_config *c) {
  return c->n_clusters * c->n_cores_per_cluster;
}

/* -gpgpu_adaptive_cache_config: the L1D ways the unified array holds (-gpgpu_unified_l1d_size
 * over one way of -gpgpu_cache:dl1, its sets times its line); -1 where the L1D is not carved
 * from it (not adaptive, no L1D, no unified size, or sets or lines config_validate refuses). */
static inline long config_unified_l1d_ways(const gpu_config *c) {
  long way_bytes = (long)c->l1d.nsets * c->l1d.line_size;
  if (!c->adaptive_cache_config || !c->l1d.enabled || c->unified_l1d_kb <= 0 || way_bytes <= 0)
    return -1;
  return (long)c->unified_l1d_kb * 1024 / way_bytes;
}

/* The pipeline class that executes instructions of class u: u itself, or for a class with no
 * pipelines of its own (count 0) the one GPGPU-Sim issues it to: INT on SP and DP on SFU
 * (Fermi, Pascal); TENSOR on SP (GPGPU-Sim would never issue it; rfsim's choice). Latency and
 * initiation interval stay those of u. config_validate guarantees SP and SFU exist. */
static inline op_unit config_exec_unit(const gpu_config *c, op_unit u) {
  if (u == UNIT_MEM || u == UNIT_CTRL || c->num_units[u] > 0) return u;
  return u == UNIT_DP ? UNIT_SFU : UNIT_SP;
}

#endif
