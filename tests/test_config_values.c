/* Tests for the core options of csim/config, set one at a time as the command line sets them:
 * every value syntax but the memory pipeline's (good and malformed, with the exact message a user
 * sees; test_config_memory.c has those) and the combinations config_validate refuses. Whole files,
 * the shipped configs and dump/load are test_config.c's. Run from the repo root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../csim/config/config.h"
#include "../csim/config/config_internal.h" /* only for the generic double kind */
#include "common/test_util.h"

/* ---- custom parsers: good inputs ---- */

static void test_pipeline_scheduler_clocks_latency(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_shader_core_pipeline", "2048:32");
  assert_int_equal(c.max_threads_per_sm, 2048);
  assert_int_equal(c.warp_size, 32);
  tu_set_ok(&c, "gpgpu_shader_core_pipeline", "1024:32:7"); /* extra fields ignored */
  assert_int_equal(c.max_threads_per_sm, 1024);

  tu_set_ok(&c, "-gpgpu_scheduler", "two_level_active:6:0:1");
  assert_int_equal(c.scheduler, SCHED_TWO_LEVEL);
  assert_int_equal(c.two_level_active, 6);
  tu_set_ok(&c, "-gpgpu_scheduler", "two_level_active:3");
  assert_int_equal(c.two_level_active, 3);
  tu_set_ok(&c, "-gpgpu_scheduler", "gto");
  assert_int_equal(c.scheduler, SCHED_GTO);
  assert_int_equal(c.two_level_active, 0);
  tu_set_ok(&c, "-gpgpu_scheduler", "lrr");
  assert_int_equal(c.scheduler, SCHED_LRR);

  tu_set_ok(&c, "-gpgpu_clock_domains", "1126.5:2000.0:1000:0.5");
  assert_true(c.clk_core == 1126.5 && c.clk_icnt == 2000.0);
  assert_true(c.clk_l2 == 1000.0 && c.clk_dram == 0.5);

  tu_set_ok(&c, "-trace_opcode_latency_initiation_dp", "20,8");
  tu_set_ok(&c, "-trace_opcode_latency_initiation_tensor", "64,32");
  tu_set_ok(&c, "-trace_opcode_latency_initiation_int", "2,2");
  tu_set_ok(&c, "-trace_opcode_latency_initiation_sfu", "21,9");
  tu_set_ok(&c, "-trace_opcode_latency_initiation_sp", "5,1");
  assert_int_equal(c.latency[UNIT_DP], 20);
  assert_int_equal(c.initiation[UNIT_DP], 8);
  assert_int_equal(c.latency[UNIT_TENSOR], 64);
  assert_int_equal(c.initiation[UNIT_TENSOR], 32);
  assert_int_equal(c.latency[UNIT_INT], 2);
  assert_int_equal(c.latency[UNIT_SFU], 21);
  assert_int_equal(c.initiation[UNIT_SFU], 9);
  assert_int_equal(c.latency[UNIT_SP], 5);

  tu_set_ok(&c, "-gpgpu_num_int_units", "3");
  tu_set_ok(&c, "-gpgpu_num_tensor_units", "2"); /* alias of -gpgpu_num_tensor_core_units */
  assert_int_equal(c.num_units[UNIT_INT], 3);
  assert_int_equal(c.num_units[UNIT_TENSOR], 2);
  assert_int_equal(c.num_units[UNIT_MEM], 1);
  assert_int_equal(config_exec_unit(&c, UNIT_INT), UNIT_INT);
  assert_int_equal(config_exec_unit(&c, UNIT_TENSOR), UNIT_TENSOR);
  tu_set_ok(&c, "-gpgpu_num_int_units", "0");
  tu_set_ok(&c, "-gpgpu_num_tensor_core_units", "0");
  assert_int_equal(config_exec_unit(&c, UNIT_INT), UNIT_SP); /* Fermi: INT on SP */
  assert_int_equal(config_exec_unit(&c, UNIT_DP), UNIT_SFU); /* Fermi: DP on SFU */
  assert_int_equal(config_exec_unit(&c, UNIT_TENSOR), UNIT_SP);
  assert_int_equal(config_exec_unit(&c, UNIT_MEM), UNIT_MEM);
  assert_int_equal(config_exec_unit(&c, UNIT_CTRL), UNIT_CTRL);
  tu_set_ok(&c, "-rop_latency", "99"); /* GPGPU-Sim 3.x name */
  assert_int_equal(c.l2_rop_latency, 99);
}

static void test_cache_strings(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_cache:dl1", "32:128:4,L:L:m:N,A:32:8,8"); /* 3.x, no set index */
  tu_expect_cache(&c.l1d, 0, 32, 128, 4, "LLmNLA", 32, 8, 8);
  tu_set_ok(&c, "-gpgpu_cache:dl1", "32:128:4,L:L:m:N:H,A:32:8,8"); /* 3.x with set index */
  tu_expect_cache(&c.l1d, 0, 32, 128, 4, "LLmNHA", 32, 8, 8);
  tu_set_ok(&c, "-gpgpu_cache:dl1", "N:64:128:6,L:L:m:N:H,A:128:8,8");
  tu_expect_cache(&c.l1d, 0, 64, 128, 6, "LLmNHA", 128, 8, 8);
  tu_set_ok(&c, "-gpgpu_cache:dl1", "S:4:128:96,L:L:s:N:L,A:256:8,16:0,32"); /* fifo, port width */
  tu_expect_cache(&c.l1d, 1, 4, 128, 96, "LLsNLA", 256, 8, 16);
  tu_set_ok(&c, "-gpgpu_cache:dl2", "S:32:128:24,F:B:m:L:P,S:192:4,32:0");
  tu_expect_cache(&c.l2, 1, 32, 128, 24, "FBmLPS", 192, 4, 32);
  tu_set_ok(&c, "-gpgpu_cache:dl2", "64:128:8,L:T:f:W:X,T:32:4,4:2");
  tu_expect_cache(&c.l2, 0, 64, 128, 8, "LTfWXT", 32, 4, 4);
  tu_set_ok(&c, "-gpgpu_cache:dl1", "none");
  assert_int_equal(c.l1d.enabled, 0);
  assert_int_equal(c.l1d.nsets, 0);
  tu_validate_ok(&c);
}

static void test_dram_timing(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  /* Keys in any order, wrapped the way GPGPU-Sim configs wrap them; bank groups default off. */
  tu_set_ok(&c, "-gpgpu_dram_timing_opt",
         "WR=11:CDLR=4:WL=3:CL=11:RC=39: RP=13:RAS=27;RCD=11:RRD=5:CCD=1:nbk=8");
  dram_timing want = {.nbk = 8, .tCCD = 1, .tRRD = 5, .tRCD = 11, .tRAS = 27, .tRP = 13,
                      .tRC = 39, .CL = 11, .WL = 3, .tCDLR = 4, .tWR = 11, .nbkgrp = 1,
                      .tCCDL = 0, .tRTPL = 0};
  assert_memory_equal(&c.dram, &want, sizeof want);
  tu_set_ok(&c, "-gpgpu_dram_timing_opt",
         "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:"
         "RTPL=2");
  assert_int_equal(c.dram.nbkgrp, 4);
  assert_int_equal(c.dram.tCCDL, 3);
  assert_int_equal(c.dram.tRTPL, 2);
  tu_set_ok(&c, "-gpgpu_dram_timing_opt", "8:1:5:11:27:13:39:11:3:4:11"); /* legacy positional */
  assert_memory_equal(&c.dram, &want, sizeof want);
  tu_set_ok(&c, "-gpgpu_dram_timing_opt", "16:2:6:12:28:12:40:12:4:5:12:4:3:2");
  assert_int_equal(c.dram.tRTPL, 2);
}

static void test_simple_kinds(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  tu_set_ok(&c, "-rfsim_policy", "regshare");
  assert_string_equal(c.policy, "regshare");
  tu_set_ok(&c, "-rfsim_seed", "18446744073709551615");
  assert_true(c.seed == UINT64_MAX);
  tu_set_ok(&c, "-rfsim_watchdog", "5000000000");
  assert_true(c.watchdog_cycles == 5000000000LL);
  tu_set_ok(&c, "-gpgpu_dual_issue_diff_exec_units", "0");
  assert_int_equal(c.dual_issue_diff_exec_units, 0);
  rf_diag d = {{0}, 0};
  /* A bare flag. */
  assert_int_equal(
      config_set(&c, "-gpgpu_dual_issue_diff_exec_units", NULL, TU_ORIGIN, 0, NULL, &d), 0);
  assert_int_equal(c.dual_issue_diff_exec_units, 1);
  tu_set_ok(&c, "-gpgpu_dram_buswidth", "8");
  tu_set_ok(&c, "-gpgpu_n_mem_per_ctrlr", "3");
  assert_int_equal(c.dram_buswidth, 24); /* derived: bytes per channel */
}

/* No shipped option is a double yet (technique options such as a sharing threshold will be);
 * the generic kind is tested through a row made up here. */
static void test_double_kind(void **state) {
  (void)state;
  const opt_def row = {.name = "test_double", .kind = OPT_DOUBLE,
                       .offset = offsetof(gpu_config, clk_l2), .dlo = 0.5, .dhi = 10.0};
  const opt_site site = {TU_ORIGIN, 0, row.name};
  gpu_config c;
  config_defaults(&c);
  rf_diag d = {{0}, 0};
  assert_int_equal(opt_parse_value(&c, &row, "2.25", &site, &d), 0);
  assert_true(c.clk_l2 == 2.25);
  assert_int_equal(opt_parse_value(&c, &row, "11", &site, &d), -1);
  assert_string_equal(d.msg, "command line: -test_double: expected a number in [0.5, 10], "
                             "found '11'");
  assert_int_equal(opt_parse_value(&c, &row, "inf", &site, &d), -1);
  assert_int_equal(opt_parse_value(&c, &row, "0x2p1", &site, &d), -1);
  assert_true(c.clk_l2 == 2.25);
  char buf[32];
  opt_format_value(&c, &row, buf, sizeof buf);
  assert_string_equal(buf, "2.25");
}

/* ---- custom parsers: malformed values, exact messages ---- */

static void test_malformed_values(void **state) {
  (void)state;
  tu_set_err("-gpgpu_shader_core_pipeline", "1536",
          "command line: -gpgpu_shader_core_pipeline: expected <max threads per SM>:<warp size>, "
          "found '1536'");
  tu_set_err("-gpgpu_shader_core_pipeline", "1536:x",
          "command line: -gpgpu_shader_core_pipeline: expected <max threads per SM>:<warp size>, "
          "found '1536:x'");
  tu_set_err("-gpgpu_scheduler", "rr",
          "command line: -gpgpu_scheduler: expected lrr, gto or two_level_active:<active warps>"
          "[:...], found 'rr'");
  tu_set_err("-gpgpu_scheduler", "two_level_active:0",
          "command line: -gpgpu_scheduler: expected lrr, gto or two_level_active:<active warps>"
          "[:...], found 'two_level_active:0'");
  tu_set_err("-gpgpu_clock_domains", "700:700:700",
          "command line: -gpgpu_clock_domains: expected <core>:<icnt>:<l2>:<dram> clocks in MHz, "
          "each > 0, found '700:700:700'");
  tu_set_err("-gpgpu_clock_domains", "700:700:0:924",
          "command line: -gpgpu_clock_domains: expected <core>:<icnt>:<l2>:<dram> clocks in MHz, "
          "each > 0, found '700:700:0:924'");
  tu_set_err("-trace_opcode_latency_initiation_sp", "4",
          "command line: -trace_opcode_latency_initiation_sp: expected <latency>,<initiation "
          "interval>, integers in [1, 100000], found '4'");
  tu_set_err("-trace_opcode_latency_initiation_dp", "8,0",
          "command line: -trace_opcode_latency_initiation_dp: expected <latency>,<initiation "
          "interval>, integers in [1, 100000], found '8,0'");
  tu_set_err("-gpgpu_n_clusters", "abc",
          "command line: -gpgpu_n_clusters: expected an integer in [1, 4096], found 'abc'");
  tu_set_err("-gpgpu_n_clusters", "0",
          "command line: -gpgpu_n_clusters: expected an integer in [1, 4096], found '0'");
  tu_set_err("-gpgpu_n_clusters", "15x",
          "command line: -gpgpu_n_clusters: expected an integer in [1, 4096], found '15x'");
  tu_set_err("-gpgpu_n_mem", NULL, "command line: -gpgpu_n_mem: expected a value, found nothing");
  tu_set_err("-gpgpu_dual_issue_diff_exec_units", "2",
          "command line: -gpgpu_dual_issue_diff_exec_units: expected 0 or 1, found '2'");
  tu_set_err("-rfsim_policy", "two words",
          "command line: -rfsim_policy: expected a name of 1 to 31 characters without spaces, "
          "quotes or '#', found 'two words'");
  tu_set_err("-rfsim_seed", "-1",
          "command line: -rfsim_seed: expected an unsigned integer, found '-1'");
  tu_set_err("-rfsim_watchdog", "0",
          "command line: -rfsim_watchdog: expected an integer >= 1, found '0'");
}

static void test_malformed_caches(void **state) {
  (void)state;
  tu_set_err("-gpgpu_cache:dl1", "32:128:4,L:L:m:N",
          "command line: -gpgpu_cache:dl1: expected <geometry>,<policies>,<mshr>,<miss queue>"
          "[,<port width>] (or none), found '32:128:4,L:L:m:N'");
  tu_set_err("-gpgpu_cache:dl1", "32:128:4,Q:L:m:N,A:32:8,8",
          "command line: -gpgpu_cache:dl1: expected a replacement policy L or F, found 'Q'");
  tu_set_err("-gpgpu_cache:dl1", "32:128:4,L:Q:m:N,A:32:8,8",
          "command line: -gpgpu_cache:dl1: expected a write policy R, B, T, E or L, found 'Q'");
  tu_set_err("-gpgpu_cache:dl2", "32:128:4,L:B:M:N,A:32:8,8",
          "command line: -gpgpu_cache:dl2: expected an allocation policy m, f or s, found 'M'");
  tu_set_err("-gpgpu_cache:dl2", "32:128:4,L:B:m:Y,A:32:8,8",
          "command line: -gpgpu_cache:dl2: expected a write-allocate policy N, W, F or L, "
          "found 'Y'");
  tu_set_err("-gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:Z,A:32:8,8",
          "command line: -gpgpu_cache:dl1: expected a set index function L, H, P or X, "
          "found 'Z'");
  tu_set_err("-gpgpu_cache:dl1", "X:32:128:4,L:L:m:N:H,A:32:8,8",
          "command line: -gpgpu_cache:dl1: expected a cache type N (normal) or S (sectored), "
          "found 'X'");
  tu_set_err("-gpgpu_cache:dl1", "N:32:128,L:L:m:N:H,A:32:8,8",
          "command line: -gpgpu_cache:dl1: expected [N|S:]<sets>:<line bytes>:<ways>, positive "
          "integers, found 'N:32:128'");
  tu_set_err("-gpgpu_cache:dl1", "32:128:0,L:L:m:N,A:32:8,8",
          "command line: -gpgpu_cache:dl1: expected [N|S:]<sets>:<line bytes>:<ways>, positive "
          "integers, found '32:128:0'");
  tu_set_err("-gpgpu_cache:dl1", "32:128:4,L:L:m,A:32:8,8",
          "command line: -gpgpu_cache:dl1: expected <repl>:<write>:<alloc>:<write alloc>"
          "[:<set index>], found 'L:L:m'");
  tu_set_err("-gpgpu_cache:dl1", "32:128:4,L:L:m:N,B:32:8,8",
          "command line: -gpgpu_cache:dl1: expected an MSHR type A, F, T or S, found 'B'");
  tu_set_err("-gpgpu_cache:dl1", "32:128:4,L:L:m:N,A:0:8,8",
          "command line: -gpgpu_cache:dl1: expected a positive MSHR entry count, found '0'");
  tu_set_err("-gpgpu_cache:dl1", "32:128:4,L:L:m:N,A:32,8",
          "command line: -gpgpu_cache:dl1: expected <mshr type>:<entries>:<max merge>, "
          "found 'A:32'");
  tu_set_err("-gpgpu_cache:dl1", "32:128:4,L:L:m:N,A:32:8,8:x",
          "command line: -gpgpu_cache:dl1: expected <miss queue entries>[:<result fifo "
          "entries>], found '8:x'");
  tu_set_err("-gpgpu_cache:dl1", "32:128:4,L:L:m:N,A:32:8,8,wide",
          "command line: -gpgpu_cache:dl1: expected a data port width in bytes, found 'wide'");
}

static void test_malformed_dram_timing(void **state) {
  (void)state;
  tu_set_err("-gpgpu_dram_timing_opt", "nbk=16:FOO=2",
          "command line: -gpgpu_dram_timing_opt: expected a DRAM timing key (nbk, CCD, RRD, RCD, "
          "RAS, RP, RC, CL, WL, CDLR, WR, nbkgrp, CCDL, RTPL), found 'FOO'");
  tu_set_err("-gpgpu_dram_timing_opt",
          "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:CL=12:WL=4:CDLR=5:WR=12",
          "command line: -gpgpu_dram_timing_opt: expected a value for RC (RC=<cycles>), found "
          "'nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:CL=12:WL=4:CDLR=5:WR=12'");
  tu_set_err("-gpgpu_dram_timing_opt", "nbk=16:CL=x",
          "command line: -gpgpu_dram_timing_opt: expected an integer in [0, 100000] for CL, "
          "found 'x'");
  tu_set_err("-gpgpu_dram_timing_opt", "nbk=0:CL=1",
          "command line: -gpgpu_dram_timing_opt: expected an integer in [1, 100000] for nbk, "
          "found '0'");
  tu_set_err("-gpgpu_dram_timing_opt", "nbk=16:CL12",
          "command line: -gpgpu_dram_timing_opt: expected <key>=<cycles>, found 'CL12'");
  tu_set_err("-gpgpu_dram_timing_opt", "16:2:6",
          "command line: -gpgpu_dram_timing_opt: expected key=value pairs, or 11 to 14 "
          "colon-separated timings nbk:CCD:RRD:RCD:RAS:RP:RC:CL:WL:CDLR:WR[:nbkgrp:CCDL:RTPL], "
          "found '16:2:6'");
}

/* ---- validation ---- */

static void test_validate_errors(void **state) {
  (void)state;
  gpu_config c;
  /* -warpman_mode needs WarpMan as the policy, alone or composed with a load technique */
  static const char *const with_warpman[] = {"warpman", "warpman+larf", "larf+warpman"};
  for (size_t i = 0; i < sizeof with_warpman / sizeof with_warpman[0]; i++) {
    config_defaults(&c);
    tu_set_ok(&c, "-rfsim_policy", with_warpman[i]);
    tu_set_ok(&c, "-warpman_mode", "spatial");
    tu_validate_ok(&c);
  }
  static const char *const without[] = {"regshare+larf", "warpmanx", "larf"};
  for (size_t i = 0; i < sizeof without / sizeof without[0]; i++) {
    config_defaults(&c);
    tu_set_ok(&c, "-rfsim_policy", without[i]);
    tu_set_ok(&c, "-warpman_mode", "spatial");
    char msg[200];
    snprintf(msg, sizeof msg, "-warpman_mode: expected off unless -rfsim_policy is warpman "
             "(alone or composed, e.g. warpman+larf), found -rfsim_policy %s", without[i]);
    tu_validate_err(&c, msg);
  }
  /* (a perfect instruction cache still gives the fetch its line: without one the run divided
   * by zero) */
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_perfect_inst_const_cache", "1");
  tu_set_ok(&c, "-gpgpu_cache:il1", "none");
  tu_validate_err(&c, "-gpgpu_cache:il1: expected a cache geometry (the fetch stage takes "
                   "instructions a line at a time, also with -gpgpu_perfect_inst_const_cache 1), "
                   "found none");
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_shader_core_pipeline", "1536:16");
  tu_validate_err(&c, "-gpgpu_shader_core_pipeline: expected warp size 32 (rfsim models 32-lane "
                   "warps and 32-bit active masks), found 16");
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_shader_core_pipeline", "1000:32");
  tu_validate_err(&c, "-gpgpu_shader_core_pipeline: expected max threads per SM to be a positive "
                   "multiple of the warp size 32, found 1000");
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_cache:dl1", "N:48:128:8,L:L:m:N:L,A:32:8,8");
  tu_validate_err(&c, "-gpgpu_cache:dl1: expected a power-of-two number of sets, found 48");
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_cache:dl1", "N:32:64:4,L:L:m:N:L,A:32:8,8");
  tu_validate_err(&c, "-gpgpu_cache:dl1: expected a 128-byte line (the coalescer works on 128-byte "
                   "lines), found 64");
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_cache:dl2", "S:64:64:8,L:B:m:L:L,A:256:4,4");
  tu_validate_err(&c, "-gpgpu_cache:dl2: expected a 128-byte line for a sectored cache "
                   "(4 x 32-byte sectors), found 64");
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_cache:dl1", "N:16:128:4,L:L:m:N:H,A:32:8,8");
  tu_validate_err(&c, "-gpgpu_cache:dl1: expected 32 or 64 sets for the Fermi hash set index (H), "
                   "found 16");
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_cache:dl2", "N:128:128:8,L:B:m:L:P,A:32:8,8");
  tu_validate_err(&c, "-gpgpu_cache:dl2: expected 16, 32 or 64 sets for the IPOLY hash set index "
                   "(P), found 128");
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_cache:dl2", "N:64:128:8,L:B:s:N:L,A:32:8,8");
  tu_validate_err(&c, "-gpgpu_cache:dl2: expected allocate-on-miss (m) for a write-back cache, "
                   "found 's'");
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_num_sched_per_core", "64");
  tu_validate_err(&c, "-gpgpu_num_sched_per_core: expected 1 to 48 (the warps per SM), found 64");
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_n_sub_partition_per_mchannel", "3");
  tu_validate_err(&c, "-gpgpu_dram_timing_opt: expected nbk to be a multiple of "
                   "-gpgpu_n_sub_partition_per_mchannel 3 (banks are split among L2 slices), "
                   "found 16");
  config_defaults(&c);
  tu_set_ok(&c, "-rfsim_mem_chunk_bytes", "64");
  tu_validate_err(&c, "-rfsim_mem_chunk_bytes: expected a power of two >= the cache line size 128, "
                   "found 64");
  config_defaults(&c);
  c.clk_l2 = 0.0; /* only reachable from code: the parser rejects it */
  tu_validate_err(&c, "-gpgpu_clock_domains: expected every clock > 0 MHz, found 700:700:0:924");
  config_defaults(&c);
  c.num_units[UNIT_MEM] = 2;
  tu_validate_err(&c, "num_units/latency/initiation[UNIT_MEM]: expected 1/0/1 (not options), "
                   "found 2/0/1");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_pipeline_scheduler_clocks_latency),
    cmocka_unit_test(test_cache_strings),
    cmocka_unit_test(test_dram_timing),
    cmocka_unit_test(test_simple_kinds),
    cmocka_unit_test(test_double_kind),
    cmocka_unit_test(test_malformed_values),
    cmocka_unit_test(test_malformed_caches),
    cmocka_unit_test(test_malformed_dram_timing),
    cmocka_unit_test(test_validate_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
