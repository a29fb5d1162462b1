/* Tests for the memory-pipeline options of csim/config: their value syntaxes
 * (csim/config/memory_values.c, good and malformed, with the exact message a user sees) and the
 * combinations config_validate refuses (check_pipeline). Run from the repo root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../csim/config/config.h"
#include "common/test_util.h"

static void test_partition_queues(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_dram_partition_queues", "8:16:24:32");
  const int want[4] = {8, 16, 24, 32};
  assert_memory_equal(c.l2_queue, want, sizeof want);
  static const char msg[] =
      "command line: -gpgpu_dram_partition_queues: expected <icnt->L2>:<L2->DRAM>:<DRAM->L2>:"
      "<L2->icnt> queue entries, each in [1, 65536], found '%s'";
  static const char *const bad[] = {"8:8:8", "8:8:8:8:8", "8:x:8:8", "8:0:8:8", "8:8:8:65537"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char m[256];
    snprintf(m, sizeof m, msg, bad[i]);
    tu_set_err("-gpgpu_dram_partition_queues", bad[i], m);
  }
}

/* GPGPU-Sim sorts the carve-outs; the first that holds a kernel's shared memory is taken. */
static void test_shmem_options(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_shmem_option", "96,0,32,8");
  assert_int_equal(c.n_shmem_options, 4);
  const int want[4] = {0, 8, 32, 96};
  assert_memory_equal(c.shmem_options, want, sizeof want);
  static const char msg[] = "command line: -gpgpu_shmem_option: expected 1 to 16 comma-separated "
                            "shared memory sizes in KB, each in [0, 65536], found '%s'";
  static const char *const bad[] = {"", "0,x", "-8", "0,,8",
                                    "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char m[256];
    snprintf(m, sizeof m, msg, bad[i]);
    tu_set_err("-gpgpu_shmem_option", bad[i], m);
  }
}

static void test_network_mode_and_runtime_stat(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  tu_set_ok(&c, "-network_mode", "2");
  assert_int_equal(c.network_mode, ICNT_LOCAL);
  tu_set_ok(&c, "-network_mode", "1");
  assert_int_equal(c.network_mode, ICNT_BOOKSIM);
  tu_set_err("-network_mode", "3",
             "command line: -network_mode: expected 1 (BookSim-style router) or 2 (local "
             "crossbar), found '3'");
  /* The flag selects GPGPU-Sim's periodic printouts: accepted, not modelled. */
  tu_set_ok(&c, "-gpgpu_runtime_stat", "1000:2");
  assert_int_equal(c.stat_sample_cycles, 1000);
  tu_set_ok(&c, "-gpgpu_runtime_stat", "700");
  assert_int_equal(c.stat_sample_cycles, 700);
  static const char *const bad[] = {"0", "x", "500:x", "500:1:2"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char m[160];
    snprintf(m, sizeof m, "command line: -gpgpu_runtime_stat: expected <cycles>[:<flag>], "
             "cycles in [1, 2^30], found '%s'", bad[i]);
    tu_set_err("-gpgpu_runtime_stat", bad[i], m);
  }
}

/* Each combination check_pipeline refuses, with its message; values the option table cannot
 * produce are set in code (a gpu_config may be built there). */
static void test_validate_pipeline(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  tu_validate_ok(&c);
  tu_set_ok(&c, "-gpgpu_dram_partition_queues", "3:8:8:8");
  tu_validate_err(&c, "-gpgpu_dram_partition_queues: expected icnt->L2 >= 4 and the others >= 1, "
                      "found 3:8:8:8");
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_l1_banks", "3");
  tu_validate_err(&c, "-gpgpu_l1_banks/-gpgpu_l1_banks_byte_interleaving: expected powers of two, "
                      "found 3/32");
  config_defaults(&c);
  c.l1_write_ratio = 101;
  tu_validate_err(&c, "-gpgpu_l1_cache_write_ratio: expected a percentage 0..100, found 101");
  config_defaults(&c);
  c.stat_sample_cycles = 0;
  tu_validate_err(&c, "-gpgpu_runtime_stat: expected a frequency >= 1, found 0");
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_cache:dl1", "S:4:128:64,L:T:m:L:L,A:512:8,16:0,32");
  tu_validate_err(&c, "-gpgpu_coalesce_arch: expected >= 40 (32-byte sector accesses) for the "
                      "sectored L1D of -gpgpu_cache:dl1, found 20");
  tu_set_ok(&c, "-gpgpu_coalesce_arch", "60");
  tu_validate_ok(&c);
  config_defaults(&c);
  c.coalesce_arch = 12;
  tu_validate_err(&c, "-gpgpu_coalesce_arch: expected >= 13, found 12");

  /* The adaptive L1D needs an L1D, a unified size and carve-outs below it. */
  config_defaults(&c);
  tu_set_ok(&c, "-gpgpu_adaptive_cache_config", "1");
  tu_validate_err(&c, "-gpgpu_adaptive_cache_config 1: expected an L1D, -gpgpu_unified_l1d_size "
                      ">= 1 and -gpgpu_shmem_option, found L1D on, 0 KB, 1 options");
  tu_set_ok(&c, "-gpgpu_unified_l1d_size", "128");
  tu_set_ok(&c, "-gpgpu_shmem_option", "0,8,16,32,64,96");
  tu_validate_ok(&c);
  tu_set_ok(&c, "-gpgpu_shmem_option", "0,128");
  tu_validate_err(&c, "-gpgpu_shmem_option: expected ascending carve-outs below "
                      "-gpgpu_unified_l1d_size 128 KB, found 128 KB at position 2");
  tu_set_ok(&c, "-gpgpu_shmem_option", "8,8");
  tu_validate_err(&c, "-gpgpu_shmem_option: expected ascending carve-outs below "
                      "-gpgpu_unified_l1d_size 128 KB, found 8 KB at position 2");
  /* ... and a unified array of whole configured L1Ds, as GPGPU-Sim asserts (before: one too
   * small for a way made an L1D of none, "rfsim: error: " and nothing else) */
  tu_set_ok(&c, "-gpgpu_shmem_option", "0");
  tu_set_ok(&c, "-gpgpu_unified_l1d_size", "1");
  tu_set_ok(&c, "-gpgpu_cache:dl1", "S:64:128:64,L:T:m:L:L,A:512:8,16:0,32");
  tu_set_ok(&c, "-gpgpu_coalesce_arch", "60"); /* (a sectored L1D's) */
  tu_validate_err(&c, "-gpgpu_unified_l1d_size: expected a multiple of the L1D's 524288 bytes "
                      "(-gpgpu_cache:dl1 64 sets x 64 ways x 128 bytes), found 1 KB");
  tu_set_ok(&c, "-gpgpu_unified_l1d_size", "1024");
  tu_validate_ok(&c);
  tu_set_ok(&c, "-gpgpu_cache:dl1", "S:4:128:64,L:T:m:L:L,A:512:8,16:0,32");
  tu_set_ok(&c, "-gpgpu_unified_l1d_size", "80");
  tu_validate_err(&c, "-gpgpu_unified_l1d_size: expected a multiple of the L1D's 32768 bytes "
                      "(-gpgpu_cache:dl1 4 sets x 64 ways x 128 bytes), found 80 KB");
  tu_set_ok(&c, "-gpgpu_unified_l1d_size", "128"); /* the TITAN V's: 256 ways at most */
  tu_validate_ok(&c);

  /* Interconnect: the mode's own buffers. */
  config_defaults(&c);
  tu_set_ok(&c, "-rfsim_icnt_latency", "1");
  tu_validate_err(&c, "-rfsim_icnt_latency: expected >= 2 in BookSim mode (injection and "
                      "ejection take a cycle each), found 1");
  tu_set_ok(&c, "-network_mode", "2");
  tu_validate_ok(&c); /* the BookSim latency is unused by the local crossbar */
  c.icnt_in_buffer_limit = 0;
  tu_validate_err(&c, "-icnt_in_buffer_limit/-icnt_out_buffer_limit: expected >= 1, found 0/64");
  config_defaults(&c);
  c.network_mode = (icnt_mode)3;
  tu_validate_err(&c, "-network_mode: expected 1 or 2, found 3");
  config_defaults(&c);
  c.icnt_speedup = 0;
  tu_validate_err(&c, "-rfsim_icnt_vc_buffer/_ejection_buffer/_boundary_buffer/_speedup: "
                      "expected >= 1, found 64/64/16/0");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_partition_queues),
    cmocka_unit_test(test_shmem_options),
    cmocka_unit_test(test_network_mode_and_runtime_stat),
    cmocka_unit_test(test_validate_pipeline),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
