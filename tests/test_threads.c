/* -threads N steps the SMs in parallel and must not change a single statistic: every policy on
 * the shared NVBit traces, and each technique on a workload where it acts (switching CTAs,
 * sharing registers, partial CTAs, ...), gives the same stats text with 1, 2, 3 and 4 threads;
 * through bin/rfsim also with the units in lockstep with the RTL. The team steps every cycle
 * (-threads_pace team), and also every other cycle with one thread stepping the rest
 * (alternate): the pacer may mix the two in any way. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/config/config.h"
#include "../csim/gpu/gpu.h"
#include "../csim/stats/stats.h"
#include "common/test_util.h"

/* Under the sanitizers (make test-sanitize) only the shared traces run: they take every policy
 * through the deferred paths, and bin/rfsim is the normal build's. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#else
#define SANITIZED 0
#endif

/* A policy as -rfsim_policy and its other options give it. */
typedef struct technique {
  const char *policy;
  const char *warpman_mode; /* NULL: the config's */
} technique;

static const technique every_policy[] = {
    {"baseline", NULL},  {"warpman", "temp"}, {"warpman", "spatial"},
    {"regshare", NULL},  {"spshare", NULL},       {"finereg", NULL},
    {"vt", NULL},        {"regdram", NULL},       {"regmutex", NULL},
    {"larf", NULL},      {"warpman+larf", "spatial"}, {"regshare+larf", NULL},
};

static void load_config(gpu_config *c, const char *name, const technique *t) {
  char path[256];
  snprintf(path, sizeof path, "configs/%s.config", name);
  rf_diag d = {{0}, 0};
  config_notes notes;
  config_notes_init(&notes, NULL);
  config_defaults(c);
  if (config_load_file(c, path, &notes, &d) < 0) fail_msg("%s", d.msg);
  tu_set_ok(c, "-rfsim_policy", t->policy);
  if (t->warpman_mode) tu_set_ok(c, "-warpman_mode", t->warpman_mode);
  if (config_validate(c, &d) < 0) fail_msg("%s", d.msg);
}

/* A number of threads and who steps each cycle's SMs. */
typedef struct threading {
  int threads;
  pace_mode pace;
} threading;

/* Runs the list with 1 thread, then with each of `ways`, and fails at the first difference. */
static void assert_same_for_threads(const char *list, const char *cfg_name, const technique *t,
                                    const threading *ways, int nways) {
  gpu_config c;
  load_config(&c, cfg_name, t);
  stats_record total;
  char *one = tu_run_list_threads(&c, HW_C, NULL, NULL, NULL, 1, list, &total);
  stats_free(&total);
  for (int i = 0; i < nways; i++) {
    char *many = tu_run_list_paced(&c, HW_C, NULL, NULL, NULL, ways[i].threads, ways[i].pace,
                                   list, &total);
    stats_free(&total);
    if (strcmp(one, many)) {
      size_t k = 0;
      while (one[k] && one[k] == many[k]) k++;
      while (k > 0 && one[k - 1] != '\n') k--;
      fail_msg("%s on %s, %s%s%s: -threads %d -threads_pace %s differs from -threads 1 at\n"
               "  1: %.80s\n  %d: %.80s",
               list, cfg_name, t->policy, t->warpman_mode ? " " : "",
               t->warpman_mode ? t->warpman_mode : "", ways[i].threads,
               pace_mode_name(ways[i].pace), one + k, ways[i].threads, many + k);
    }
    free(many);
  }
  free(one);
}

/* Both NVBit traces on the TITAN X (their own architecture; its random slice indexing draws a
 * slice when an SM first touches a granule, in an order the threads must keep), every policy,
 * 1, 2 and 4 threads and 2 by turns with one; the baseline also on the TITAN V's 40
 * clusters. */
static void test_shared_traces_every_policy(void **state) {
  (void)state;
  static const char *const traces[] = {"vectoradd_sm61/kernelslist.g",
                                       "matrixmul_sm61/kernelslist.g"};
  static const threading ways[] = {{2, PACE_TEAM}, {4, PACE_TEAM}, {2, PACE_ALTERNATE}};
  for (size_t i = 0; i < sizeof traces / sizeof *traces; i++) {
    char list[4096];
    if (!tu_shared_trace(traces[i], list, sizeof list)) {
      skip(); /* no ../shared here: reported as skipped */
      return;
    }
    for (size_t p = 0; p < sizeof every_policy / sizeof *every_policy; p++)
      assert_same_for_threads(list, "titanx", &every_policy[p], ways, 3);
    assert_same_for_threads(list, "titanv", &every_policy[0], ways, 3);
  }
}

/* Each technique where it acts: on its paper's config, a workload whose CTAs it switches,
 * whose registers or scratchpad it shares, whose CTAs it launches in part, whose loads it
 * serves; and the baseline on the TITAN X. Only generated workloads: the tiled NVBit traces
 * need ../shared. (Three threads, splitting the clusters unevenly, run in the command-line
 * test.) */
static void test_techniques_where_they_act(void **state) {
  (void)state;
  static const struct {
    const char *workload, *config;
    technique t;
  } runs[] = {
      {"warpman_st", "gtx480", {"warpman", "spatial"}},
      {"warpman_st", "gtx480", {"warpman", "temp"}},
      {"regshare_sgemm", "tesla_c2050", {"regshare", NULL}},
      {"regshare_sgemm", "tesla_c2050", {"regshare+larf", NULL}},
      {"spshare_lavamd", "tesla_c2050_scratchpad", {"spshare", NULL}},
      {"finereg_km", "gtx980", {"finereg", NULL}},
      {"finereg_km", "gtx980", {"vt", NULL}},
      {"finereg_km", "gtx980", {"regdram", NULL}},
      {"finereg_km", "gtx980", {"regmutex", NULL}},
      {"larf_conv", "locality_rf", {"larf", NULL}},
      {"larf_conv", "locality_rf", {"warpman+larf", "spatial"}},
      {"regshare_sgemm", "titanx", {"baseline", NULL}}, /* random slices, 28 clusters */
  };
  if (SANITIZED) {
    skip();
    return;
  }
  static const threading ways[] = {{2, PACE_TEAM}, {2, PACE_ALTERNATE}};
  for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
    char list[256];
    snprintf(list, sizeof list, "build/traces/%s/kernelslist.g", runs[i].workload);
    assert_same_for_threads(list, runs[i].config, &runs[i].t, ways, 2);
  }
}

/* The command line: -threads 3 with the units in lockstep with the RTL gives the stats of one
 * thread (the team stepping every cycle: -threads_pace team); a bad count or pace is refused
 * with the option named; with -wave one thread steps the SMs, and rfsim says so. */
static void test_command_line(void **state) {
  (void)state;
  if (SANITIZED) {
    skip();
    return;
  }
  char dir[256], cmd[2048];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  static const char *const runs[][3] = {
      {"warpman_st", "gtx480", "-rfsim_policy warpman -warpman_mode spatial"},
      {"regshare_sgemm", "tesla_c2050", "-rfsim_policy regshare"},
      {"finereg_km", "gtx980", "-rfsim_policy finereg"},
  };
  for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
    for (int n = 1; n <= 3; n += 2) {
      snprintf(cmd, sizeof cmd,
               "bin/rfsim -trace build/traces/%s/kernelslist.g -config configs/%s.config %s "
               "-hw lockstep -threads %d -threads_pace team -quiet > %s/t%d.txt 2> %s/t%d.err",
               runs[i][0], runs[i][1], runs[i][2], n, dir, n, dir, n);
      if (tu_sh(cmd) != 0) fail_msg("failed: %s", cmd);
    }
    snprintf(cmd, sizeof cmd, "cmp -s %s/t1.txt %s/t3.txt", dir, dir);
    if (tu_sh(cmd) != 0) fail_msg("%s: -threads 3 in lockstep differs from -threads 1", runs[i][0]);
  }
  snprintf(cmd, sizeof cmd,
           "bin/rfsim -trace build/traces/warpman_st/kernelslist.g -config configs/gtx480.config "
           "-threads 0 > %s/bad.txt 2> %s/bad.err; test $? = 2 && grep -q 'rfsim: error: "
           "command line: -threads: expected a number of threads from 1 to 256, found .0.' "
           "%s/bad.err",
           dir, dir, dir);
  assert_int_equal(tu_sh(cmd), 0);
  snprintf(cmd, sizeof cmd,
           "bin/rfsim -trace build/traces/warpman_st/kernelslist.g -config configs/gtx480.config "
           "-threads 2 -threads_pace fast > %s/bad.txt 2> %s/bad.err; test $? = 2 && grep -q "
           "'rfsim: error: command line: -threads_pace: expected measured, team or alternate, "
           "found .fast.' %s/bad.err",
           dir, dir, dir);
  assert_int_equal(tu_sh(cmd), 0);
  snprintf(cmd, sizeof cmd,
           "bin/rfsim -trace build/traces/warpman_st/kernelslist.g -config configs/gtx480.config "
           "-rfsim_policy warpman -threads 2 -wave %s/w.fst -quiet > %s/w.txt 2> %s/w.err && "
           "grep -q 'rfsim: note: -threads 2: stepping the SMs on 1 thread (-wave records on "
           "one thread)' %s/w.err && test -s %s/w.fst",
           dir, dir, dir, dir, dir);
  assert_int_equal(tu_sh(cmd), 0);
  /* On one core, the measured pace steps on one thread and says so; the team keeps both. */
  if (tu_sh("taskset -c 0 true 2> /dev/null") == 0) {
    char one_core[4096];
    snprintf(one_core, sizeof one_core,
             "taskset -c 0 bin/rfsim -trace build/traces/warpman_st/kernelslist.g -config "
             "configs/gtx480.config -threads 2 -quiet > %s/c.txt 2> %s/c.err && grep -q "
             "'rfsim: note: -threads 2: stepping the SMs on 1 thread (1 core here; "
             "-threads_pace team would use 2)' %s/c.err && taskset -c 0 bin/rfsim -trace "
             "build/traces/warpman_st/kernelslist.g -config configs/gtx480.config -threads 2 "
             "-threads_pace team -quiet > %s/t.txt 2> %s/t.err && ! grep -q note %s/t.err && "
             "cmp -s %s/c.txt %s/t.txt",
             dir, dir, dir, dir, dir, dir, dir, dir);
    assert_int_equal(tu_sh(one_core), 0);
  }
  tu_rmtree(dir);
}

int main(void) {
  tu_private_cache();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_techniques_where_they_act),
      cmocka_unit_test(test_shared_traces_every_policy),
      cmocka_unit_test(test_command_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
