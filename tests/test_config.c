/* Tests for csim/config's files: the shipped configs (complete, quiet, matching the papers'
 * tables), file syntax (comments, quotes, flags, unknown options), overrides, the once-only notes
 * and dump/load round trips, which must hold for every option at once. The options one by one
 * are test_config_values.c's and test_config_memory.c's. Run from the repo root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../csim/config/config.h"
#include "common/test_util.h"

#define FIXTURES "tests/fixtures/config/"

static const char *const shipped[] = {
  "configs/gtx480.config",  "configs/tesla_c2050.config", "configs/tesla_c2050_scratchpad.config",
  "configs/gtx980.config",  "configs/titanx.config",      "configs/titanv.config",
  "configs/locality_rf.config",
};
#define NSHIPPED (sizeof shipped / sizeof shipped[0])

/* ---- helpers ---- */

static void load_ok(gpu_config *c, const char *path, config_notes *n) {
  rf_diag d = {{0}, 0};
  if (config_load_file(c, path, n, &d) != 0) fail_msg("%s", d.msg);
}

/* Writes text to a fresh temporary file; its path goes to path (PATH_LEN bytes). */
#define PATH_LEN 64
static void write_temp(char *path, const char *text) {
  snprintf(path, PATH_LEN, "/tmp/rfsim_test_config_XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  assert_non_null(f);
  assert_int_equal(fputs(text, f) >= 0, 1);
  assert_int_equal(fclose(f), 0);
}

/* Loads text as a config file that must fail; checks "<path>:<line>: <rest>". */
static void file_err(const char *text, long line, const char *rest) {
  char path[PATH_LEN], want[512];
  write_temp(path, text);
  gpu_config c, before;
  config_defaults(&c);
  before = c;
  rf_diag d = {{0}, 0};
  int rc = config_load_file(&c, path, NULL, &d);
  unlink(path);
  assert_int_equal(rc, -1);
  snprintf(want, sizeof want, "%s:%ld: %s", path, line, rest);
  assert_string_equal(d.msg, want);
  assert_memory_equal(&c, &before, sizeof c); /* all or nothing */
}

/* Dumps c, loads the dump onto `onto`. */
static void dump_load(const gpu_config *c, gpu_config *onto) {
  char path[PATH_LEN];
  write_temp(path, "");
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  config_dump(c, f);
  assert_int_equal(fclose(f), 0);
  config_notes n;
  config_notes_init(&n, NULL);
  load_ok(onto, path, &n);
  unlink(path);
  assert_int_equal(n.count, 0); /* the dump uses only modelled options */
}

/* Reads everything written to f so far. */
static char *slurp(FILE *f) {
  static const size_t cap = 1 << 16;
  char *buf = calloc(1, cap);
  assert_non_null(buf);
  assert_int_equal(fflush(f), 0);
  rewind(f);
  size_t n = fread(buf, 1, cap - 1, f);
  buf[n] = '\0';
  return buf;
}

static char *dump_text(const gpu_config *c) {
  FILE *f = tmpfile();
  assert_non_null(f);
  config_dump(c, f);
  char *s = slurp(f);
  fclose(f);
  return s;
}

/* ---- shipped configs ---- */

static void test_shipped_load_validate_quietly(void **state) {
  (void)state;
  for (size_t i = 0; i < NSHIPPED; i++) {
    gpu_config c;
    config_defaults(&c);
    config_notes n;
    config_notes_init(&n, NULL);
    load_ok(&c, shipped[i], &n);
    assert_int_equal(n.count, 0); /* shipped files use only options rfsim models */
    tu_validate_ok(&c);
  }
}

/* Every shipped file sets every option: loaded onto garbage it equals loaded onto defaults. */
static void test_shipped_are_complete(void **state) {
  (void)state;
  for (size_t i = 0; i < NSHIPPED; i++) {
    gpu_config a, b;
    config_defaults(&a);
    memset(&b, 0xA5, sizeof b);
    load_ok(&a, shipped[i], NULL);
    load_ok(&b, shipped[i], NULL);
    char *da = dump_text(&a), *db = dump_text(&b);
    assert_string_equal(da, db);
    free(da);
    free(db);
  }
}

static void test_defaults_equal_gtx480(void **state) {
  (void)state;
  gpu_config def, file;
  config_defaults(&def);
  memset(&file, 0, sizeof file);
  load_ok(&file, "configs/gtx480.config", NULL);
  assert_memory_equal(&def, &file, sizeof def);
  tu_validate_ok(&def);
}

static long long l2_bytes(const gpu_config *c) {
  return (long long)c->n_mem * c->n_sub_partition_per_mchannel * c->l2.nsets * c->l2.line_size *
         c->l2.assoc;
}

static double dram_gbps(const gpu_config *c) {
  return c->n_mem * c->dram_buswidth * c->dram_data_command_freq_ratio * c->clk_dram / 1000.0;
}

/* The values each paper's baseline table states. */
static void test_shipped_match_papers(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  load_ok(&c, "configs/tesla_c2050.config", NULL); /* register_sharing Table 1 */
  assert_int_equal(config_num_sms(&c), 14);
  assert_int_equal(c.shader_cta, 8);
  assert_int_equal(c.max_threads_per_sm, 1536);
  assert_int_equal(c.shmem_size, 48 * 1024);
  assert_int_equal(c.l1d.nsets * c.l1d.line_size * c.l1d.assoc, 16 * 1024);
  assert_int_equal(l2_bytes(&c), 768 * 1024);
  assert_int_equal(c.shader_registers, 32768);
  assert_int_equal(c.scheduler, SCHED_LRR);
  assert_int_equal(c.num_sched_per_core, 2);
  assert_int_equal(c.dram_scheduler, 1);
  assert_int_equal(c.dram.tRRD, 6);
  assert_int_equal(c.dram.tWR, 12);
  assert_int_equal(c.dram.tRCD, 12);
  assert_int_equal(c.dram.tRAS, 28);
  assert_int_equal(c.dram.tRP, 12);
  assert_int_equal(c.dram.tRC, 40);
  assert_int_equal(c.dram.CL, 12);
  assert_int_equal(c.dram.tCDLR, 5);

  load_ok(&c, "configs/tesla_c2050_scratchpad.config", NULL); /* resource_sharing Table I */
  assert_int_equal(c.shmem_size, 16384); /* lavaMD, 7200 bytes per CTA: 2 CTAs, as stated */
  assert_int_equal(c.shmem_per_block, 16384);

  load_ok(&c, "configs/gtx480.config", NULL); /* WarpMan Table 1 */
  assert_int_equal(config_num_sms(&c), 15);
  assert_int_equal(c.shader_registers * 4, 128 * 1024);
  assert_int_equal(c.n_mem, 6);
  assert_int_equal(c.dram.nbk, 16);
  assert_true(c.clk_dram == 924.0);
  assert_int_equal(c.scheduler, SCHED_LRR);

  load_ok(&c, "configs/gtx980.config", NULL); /* FineReg Table I */
  assert_int_equal(config_num_sms(&c), 16);
  assert_true(c.clk_core == 1126.0);
  assert_int_equal(c.max_threads_per_sm / c.warp_size, 64);
  assert_int_equal(c.shader_cta, 32);
  assert_int_equal(c.num_sched_per_core, 4);
  assert_int_equal(c.scheduler, SCHED_GTO);
  assert_int_equal(c.shader_registers * 4, 256 * 1024);
  assert_int_equal(c.shmem_size, 96 * 1024);
  assert_int_equal(c.l1d.nsets * c.l1d.line_size * c.l1d.assoc, 48 * 1024);
  assert_int_equal(l2_bytes(&c), 2048 * 1024);
  assert_int_equal(c.l2.assoc, 8);
  assert_true(dram_gbps(&c) > 352.4 && dram_gbps(&c) < 352.6);

  load_ok(&c, "configs/titanv.config", NULL); /* Accel-Sim SM7_TITANV */
  assert_int_equal(config_num_sms(&c), 80);
  assert_int_equal(c.shader_registers, 65536);
  assert_int_equal(c.shader_cta, 32);
  assert_int_equal(c.max_threads_per_sm, 2048);
  assert_int_equal(c.num_sched_per_core, 4);
  assert_int_equal(c.shmem_size, 96 * 1024);
  assert_int_equal(c.num_units[UNIT_TENSOR], 4);
  assert_int_equal(c.latency[UNIT_TENSOR], 8);

  load_ok(&c, "configs/titanx.config", NULL); /* SM6_TITANX */
  assert_int_equal(config_num_sms(&c), 28);
  assert_int_equal(l2_bytes(&c), 3 * 1024 * 1024);

  load_ok(&c, "configs/locality_rf.config", NULL); /* locality-aware RF, Section 4 */
  assert_int_equal(c.shader_registers * 4, 128 * 1024);
  assert_int_equal(c.scheduler, SCHED_TWO_LEVEL);
  assert_int_equal(c.two_level_active, 6);
}

/* ---- file syntax ---- */

static void test_gpgpusim_style_file(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  FILE *out = tmpfile();
  assert_non_null(out);
  config_notes n;
  config_notes_init(&n, out);
  load_ok(&c, FIXTURES "gpgpusim_style.config", &n);
  assert_int_equal(c.n_clusters, 12);
  assert_int_equal(c.n_cores_per_cluster, 2);
  assert_int_equal(c.dram.nbk, 8);
  assert_int_equal(c.dram.tRP, 13);
  assert_int_equal(c.dram.CL, 11);
  assert_int_equal(c.dram.tWR, 11);
  assert_int_equal(c.dram.nbkgrp, 1);
  tu_expect_cache(&c.l1d, 0, 32, 128, 4, "LLmNLA", 32, 8, 8);
  assert_int_equal(c.l2_rop_latency, 110);
  assert_true(c.clk_core == 575.0 && c.clk_dram == 750.0);
  assert_int_equal(c.dual_issue_diff_exec_units, 1); /* bare flag after an explicit 0 */
  assert_int_equal(c.num_units[UNIT_TENSOR], 2);
  assert_int_equal(c.scheduler, SCHED_TWO_LEVEL); /* not swallowed by the unknown option */
  assert_int_equal(c.two_level_active, 4);
  assert_int_equal(c.dram_latency, 90);
  assert_int_equal(c.width_id_oc[UNIT_TENSOR], 1);
  assert_int_equal(c.width_oc_ex[UNIT_SP], 2);
  assert_int_equal(c.width_ex_wb, 2);
  tu_validate_ok(&c);

  /* Repeats, from the file or the command line, are not noted again. */
  rf_diag d = {{0}, 0};
  assert_int_equal(config_set(&c, "-visualizer_enabled", "1", TU_ORIGIN, 0, &n, &d), 1);
  assert_int_equal(config_set(&c, "-gpgpu_ptx_sim_mode", "1", TU_ORIGIN, 0, &n, &d), 1);
  assert_int_equal(config_set(&c, "-gpgpu_new_thing", "1", TU_ORIGIN, 0, &n, &d), 1);
  load_ok(&c, FIXTURES "gpgpusim_style.config", &n);
  char *text = slurp(out);
  assert_string_equal(
      text,
      "rfsim: note: option -gpgpu_ptx_sim_mode is not modelled and was ignored "
      "(tests/fixtures/config/gpgpusim_style.config:4)\n"
      "rfsim: note: option -visualizer_enabled is not modelled and was ignored "
      "(tests/fixtures/config/gpgpusim_style.config:7)\n"
      "rfsim: note: option -inter_config_file is not modelled and was ignored "
      "(tests/fixtures/config/gpgpusim_style.config:15)\n"
      "rfsim: note: option -power_simulation_enabled is not modelled and was ignored "
      "(tests/fixtures/config/gpgpusim_style.config:19)\n"
      "rfsim: note: option -gpgpu_mem_addr_mapping is not modelled and was ignored "
      "(tests/fixtures/config/gpgpusim_style.config:20)\n"
      "rfsim: note: option -gpgpu_new_thing is not modelled and was ignored (command line)\n");
  assert_int_equal(n.count, 6);
  free(text);
  fclose(out);
}

static void test_command_line_overrides_file(void **state) {
  (void)state;
  gpu_config c;
  config_defaults(&c);
  load_ok(&c, "configs/tesla_c2050.config", NULL);
  tu_set_ok(&c, "-gpgpu_scheduler", "gto");
  tu_set_ok(&c, "-gpgpu_shader_registers", "65536");
  assert_int_equal(c.scheduler, SCHED_GTO);
  assert_int_equal(c.shader_registers, 65536);
  assert_int_equal(config_num_sms(&c), 14); /* the rest of the file stays */
  /* A later file overrides an earlier one, option by option. */
  char path[PATH_LEN];
  write_temp(path, "-gpgpu_n_clusters 3\n");
  load_ok(&c, path, NULL);
  unlink(path);
  assert_int_equal(c.n_clusters, 3);
  assert_int_equal(c.shader_registers, 65536);
}

static void test_file_syntax_quotes_and_comments(void **state) {
  (void)state;
  char path[PATH_LEN];
  write_temp(path,
             "#-gpgpu_n_clusters 99\r\n"
             "  -gpgpu_n_clusters   7  # comment -gpgpu_n_mem 99\r\n"
             "-rfsim_policy \"quoted\"\n"
             "-gpgpu_clock_domains \"100:200:300:400\"# comment\n"
             "-gpgpu_dram_timing_opt \"  nbk=4:CCD=1:RRD=2:RCD=3:RAS=4:RP=5:RC=6:\n"
             "   # a comment inside a wrapped value\n"
             "   CL=7:WL=8:CDLR=9:WR=10  \"\n"
             "-gpgpu_dual_issue_diff_exec_units 0 -gpgpu_n_mem 3 -gpgpu_max_cycle 12\n");
  gpu_config c;
  config_defaults(&c);
  load_ok(&c, path, NULL);
  unlink(path);
  assert_int_equal(c.n_clusters, 7);
  assert_string_equal(c.policy, "quoted");
  assert_true(c.clk_core == 100.0 && c.clk_icnt == 200.0 && c.clk_dram == 400.0);
  assert_int_equal(c.dram.nbk, 4);
  assert_int_equal(c.dram.tRC, 6);
  assert_int_equal(c.dram.CL, 7);
  assert_int_equal(c.dram.tWR, 10);
  assert_int_equal(c.dual_issue_diff_exec_units, 0);
  assert_int_equal(c.n_mem, 3); /* several options on one line, as GPGPU-Sim allows */
  assert_int_equal(c.max_cycles, 12);

  /* Like GPGPU-Sim, a valued option takes the next token even if it looks like an option. */
  file_err("-gpgpu_n_clusters 4\n-gpgpu_n_mem -gpgpu_n_sub_partition_per_mchannel 1\n", 2,
           "-gpgpu_n_mem: expected an integer in [1, 1024], found "
           "'-gpgpu_n_sub_partition_per_mchannel'");
}

static void test_file_errors(void **state) {
  (void)state;
  file_err("# header\n\n-gpgpu_shader_cta eight\n", 3,
           "-gpgpu_shader_cta: expected an integer in [1, 1024], found 'eight'");
  file_err("-gpgpu_n_clusters 4\n-gpgpu_dram_timing_opt \"nbk=16:CCD=2\n-gpgpu_n_mem 2\n", 2,
           "-gpgpu_dram_timing_opt: expected a closing '\"', found end of file");
  file_err("-gpgpu_n_clusters 4\ngpgpu_n_mem 6\n", 2,
           "expected an option name starting with '-', found 'gpgpu_n_mem'");
  file_err("-gpgpu_n_clusters 4\n\n-gpgpu_n_mem\n", 3,
           "-gpgpu_n_mem: expected a value, found end of file");
  file_err("-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
           "     CL=12:WL=4:CDLR=5:WR=12:BOGUS=1\"\n", 1,
           "-gpgpu_dram_timing_opt: expected a DRAM timing key (nbk, CCD, RRD, RCD, RAS, RP, RC, "
           "CL, WL, CDLR, WR, nbkgrp, CCDL, RTPL), found 'BOGUS'");
  file_err("-rfsim_policy \"a\"b\n", 1,
           "-rfsim_policy: expected whitespace after the closing '\"', found 'b'");
  file_err("-gpgpu_n_clusters 4\n-gpgpu_cache:dl2 64:128:8,L:B:m:W:L,A:32:4\n", 2,
           "-gpgpu_cache:dl2: expected <geometry>,<policies>,<mshr>,<miss queue>[,<port width>] "
           "(or none), found '64:128:8,L:B:m:W:L,A:32:4'");

  rf_diag d = {{0}, 0};
  gpu_config c;
  config_defaults(&c);
  assert_int_equal(config_load_file(&c, "tests/fixtures/config/no_such.config", NULL, &d), -1);
  assert_string_equal(d.msg, "tests/fixtures/config/no_such.config: cannot open config file: "
                             "No such file or directory");
}

/* ---- dump / load ---- */

static void test_dump_round_trip(void **state) {
  (void)state;
  for (size_t i = 0; i < NSHIPPED; i++) {
    gpu_config a, b;
    config_defaults(&a);
    load_ok(&a, shipped[i], NULL);
    memset(&b, 0, sizeof b);
    dump_load(&a, &b);
    assert_memory_equal(&a, &b, sizeof a);
  }
  /* Values no shipped file uses: odd clocks, a disabled L1, a huge seed, two-level. */
  gpu_config a, b;
  config_defaults(&a);
  tu_set_ok(&a, "-gpgpu_clock_domains", "1126.5:0.1:1e-3:2999.999");
  tu_set_ok(&a, "-gpgpu_cache:dl1", "none");
  tu_set_ok(&a, "-rfsim_seed", "18446744073709551615");
  tu_set_ok(&a, "-gpgpu_scheduler", "two_level_active:7:1:0");
  tu_set_ok(&a, "-rfsim_policy", "finereg");
  tu_set_ok(&a, "-gpgpu_max_cycle", "123456789012");
  tu_set_ok(&a, "-gpgpu_dram_timing_opt", "8:1:5:11:27:13:39:11:3:4:11");
  memset(&b, 0, sizeof b);
  dump_load(&a, &b);
  assert_memory_equal(&a, &b, sizeof a);
}

#define FIELD_OF(f) {#f, offsetof(gpu_config, f), sizeof(((gpu_config *)0)->f)}

/* Every field is reachable through some option: a dump loaded onto two differently poisoned
 * structs writes each of these fields identically. (num_units/latency/initiation of MEM and
 * CTRL are fixed, not options; dram_buswidth is derived from two options.) */
static void test_every_field_settable(void **state) {
  (void)state;
  static const struct {
    const char *name;
    size_t off, size;
  } fields[] = {
    FIELD_OF(n_clusters), FIELD_OF(n_cores_per_cluster), FIELD_OF(n_mem),
    FIELD_OF(n_sub_partition_per_mchannel), FIELD_OF(shader_registers),
    FIELD_OF(registers_per_block), FIELD_OF(shader_cta), FIELD_OF(max_threads_per_sm),
    FIELD_OF(warp_size), FIELD_OF(shmem_size), FIELD_OF(shmem_per_block),
    FIELD_OF(reg_alloc_unit), FIELD_OF(num_sched_per_core), FIELD_OF(scheduler),
    FIELD_OF(two_level_active), FIELD_OF(max_insn_issue_per_warp),
    FIELD_OF(dual_issue_diff_exec_units), FIELD_OF(num_units[UNIT_INT]),
    FIELD_OF(num_units[UNIT_SP]), FIELD_OF(num_units[UNIT_DP]), FIELD_OF(num_units[UNIT_SFU]),
    FIELD_OF(num_units[UNIT_TENSOR]), FIELD_OF(latency[UNIT_INT]), FIELD_OF(latency[UNIT_SP]),
    FIELD_OF(latency[UNIT_DP]), FIELD_OF(latency[UNIT_SFU]), FIELD_OF(latency[UNIT_TENSOR]),
    FIELD_OF(initiation[UNIT_INT]), FIELD_OF(initiation[UNIT_SP]),
    FIELD_OF(initiation[UNIT_DP]), FIELD_OF(initiation[UNIT_SFU]),
    FIELD_OF(initiation[UNIT_TENSOR]), FIELD_OF(l1d.enabled), FIELD_OF(l1d.sectored),
    FIELD_OF(l1d.nsets), FIELD_OF(l1d.line_size), FIELD_OF(l1d.assoc), FIELD_OF(l1d.replacement),
    FIELD_OF(l1d.write_policy), FIELD_OF(l1d.alloc_policy), FIELD_OF(l1d.write_alloc),
    FIELD_OF(l1d.set_index_fn), FIELD_OF(l1d.mshr_type), FIELD_OF(l1d.mshr_entries),
    FIELD_OF(l1d.mshr_max_merge), FIELD_OF(l1d.miss_queue_size), FIELD_OF(l2.enabled),
    FIELD_OF(l2.sectored), FIELD_OF(l2.nsets), FIELD_OF(l2.line_size), FIELD_OF(l2.assoc),
    FIELD_OF(l2.replacement), FIELD_OF(l2.write_policy), FIELD_OF(l2.alloc_policy),
    FIELD_OF(l2.write_alloc), FIELD_OF(l2.set_index_fn), FIELD_OF(l2.mshr_type),
    FIELD_OF(l2.mshr_entries), FIELD_OF(l2.mshr_max_merge), FIELD_OF(l2.miss_queue_size),
    FIELD_OF(l1_latency), FIELD_OF(smem_latency), FIELD_OF(shmem_num_banks),
    FIELD_OF(l2_rop_latency), FIELD_OF(dram_latency), FIELD_OF(icnt_latency),
    FIELD_OF(icnt_flit_size), FIELD_OF(clk_core), FIELD_OF(clk_icnt), FIELD_OF(clk_l2),
    FIELD_OF(clk_dram), FIELD_OF(dram), FIELD_OF(dram_buswidth), FIELD_OF(dram_chip_buswidth),
    FIELD_OF(dram_chips_per_channel), FIELD_OF(dram_burst_length),
    FIELD_OF(dram_data_command_freq_ratio), FIELD_OF(dram_sched_queue_size),
    FIELD_OF(dram_scheduler), FIELD_OF(dram_row_bytes), FIELD_OF(mem_chunk_bytes),
    FIELD_OF(policy), FIELD_OF(watchdog_cycles), FIELD_OF(max_cycles), FIELD_OF(seed),
    FIELD_OF(warpman_mode), FIELD_OF(warpman_threshold), FIELD_OF(warpman_duel_window),
  };
  gpu_config def, a, b;
  config_defaults(&def);
  memset(&a, 0xA5, sizeof a);
  memset(&b, 0x5A, sizeof b);
  dump_load(&def, &a);
  dump_load(&def, &b);
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    const char *pa = (const char *)&a + fields[i].off, *pb = (const char *)&b + fields[i].off;
    if (memcmp(pa, pb, fields[i].size) != 0) fail_msg("field %s is not set by any option",
                                                      fields[i].name);
    assert_memory_equal(pa, (const char *)&def + fields[i].off, fields[i].size);
  }
}

static void test_help_lists_options(void **state) {
  (void)state;
  FILE *f = tmpfile();
  assert_non_null(f);
  config_print_help(f);
  char *text = slurp(f);
  fclose(f);
  assert_non_null(strstr(text, "-gpgpu_cache:dl1"));
  assert_non_null(strstr(text, "-rfsim_policy"));
  assert_non_null(strstr(text, "-rop_latency"));
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_shipped_load_validate_quietly),
    cmocka_unit_test(test_shipped_are_complete),
    cmocka_unit_test(test_defaults_equal_gtx480),
    cmocka_unit_test(test_shipped_match_papers),
    cmocka_unit_test(test_gpgpusim_style_file),
    cmocka_unit_test(test_command_line_overrides_file),
    cmocka_unit_test(test_file_syntax_quotes_and_comments),
    cmocka_unit_test(test_file_errors),
    cmocka_unit_test(test_dump_round_trip),
    cmocka_unit_test(test_every_field_settable),
    cmocka_unit_test(test_help_lists_options),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
