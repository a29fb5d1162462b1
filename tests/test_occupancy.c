/* The CTA admission rule (GPGPU-Sim's max_cta) against hand-computed occupancy for the papers'
 * benchmark shapes on the shipped configs; a policy's may_admit against its cta_admit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "../csim/config/config.h"
#include "../csim/policy/policy.h"
#include "../csim/policy/policy_registry.h"

static void load(gpu_config *c, const char *path) {
  rf_diag d;
  config_notes notes;
  config_notes_init(&notes, NULL);
  config_defaults(c);
  if (config_load_file(c, path, &notes, &d) < 0) fail_msg("%s", d.msg);
}

static trace_kernel_info shape(int threads, int regs, int shmem) {
  trace_kernel_info k;
  memset(&k, 0, sizeof k);
  k.block[0] = threads;
  k.block[1] = k.block[2] = 1;
  k.threads_per_tb = threads;
  k.warps_per_tb = (threads + 31) / 32;
  k.nregs = regs;
  k.shmem = shmem;
  return k;
}

/* resource_sharing Table VI, 0% column: the baseline resident TBs of the Set-1 benchmarks on
 * the Tesla C2050 configuration (32768 registers, 1536 threads, 8 CTAs, 48 KB). */
static void test_register_sharing_set1_baseline(void **state) {
  (void)state;
  gpu_config c;
  load(&c, "configs/tesla_c2050.config");
  static const struct { const char *name; int threads, regs, tbs; const char *limit; } t[] = {
      {"backprop", 256, 24, 5, "registers"}, {"b+tree", 508, 24, 2, "registers"},
      {"hotspot", 256, 36, 3, "registers"},  {"LIB", 192, 36, 4, "registers"},
      {"MUM", 256, 28, 4, "registers"},      {"mri-q", 256, 24, 5, "registers"},
      {"sgemm", 128, 48, 5, "registers"},    {"stencil", 512, 28, 2, "registers"},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    trace_kernel_info k = shape(t[i].threads, t[i].regs, 0);
    const char *why;
    int got = policy_max_ctas(&c, &k, &why);
    if (got != t[i].tbs || strcmp(why, t[i].limit))
      fail_msg("%s: expected %d TBs limited by %s, found %d limited by %s", t[i].name, t[i].tbs,
               t[i].limit, got, why);
  }
}

/* resource_sharing Table VIII, 0% column: the scratchpad-limited Set-2 benchmarks on the
 * Tesla C2050 configuration of its Table I (16 KB scratchpad per SM; register_sharing's Table 1
 * says 48 KB, hence two configs). */
static void test_scratchpad_set2_baseline(void **state) {
  (void)state;
  gpu_config c;
  load(&c, "configs/tesla_c2050_scratchpad.config");
  assert_int_equal(c.shmem_size, 16384);
  static const struct { const char *name; int threads, shmem, tbs; } t[] = {
      {"CONV1", 64, 2560, 6},  {"CONV2", 128, 5184, 3}, {"lavaMD", 128, 7200, 2},
      {"NW1", 16, 2180, 7},    {"SRAD1", 256, 6144, 2}, {"SRAD2", 256, 5120, 3},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    trace_kernel_info k = shape(t[i].threads, 8, t[i].shmem);
    const char *why;
    int got = policy_max_ctas(&c, &k, &why);
    if (got != t[i].tbs || strcmp(why, "shared memory"))
      fail_msg("%s: expected %d TBs limited by shared memory, found %d limited by %s",
               t[i].name, t[i].tbs, got, why);
  }
}

/* GPGPU-Sim rounds registers per thread up to a multiple of 4 and threads up to whole warps. */
static void test_rounding(void **state) {
  (void)state;
  gpu_config c;
  load(&c, "configs/gtx480.config");
  trace_kernel_info k = shape(100, 30, 0); /* 4 warps x 32 x 32 regs = 4096 per CTA */
  cta_needs n = policy_cta_needs(&c, &k);
  assert_int_equal(n.threads, 128);
  assert_int_equal(n.regs, 128 * 32);
  assert_int_equal(policy_max_ctas(&c, &k, NULL), 8);
  k = shape(1024, 30, 8192); /* the matrixmul trace: 1 CTA (threads) */
  const char *why;
  assert_int_equal(policy_max_ctas(&c, &k, &why), 1);
  assert_string_equal(why, "threads");
  k = shape(64, 200, 0); /* 64 x 200 = 12800 registers: 2 fit in 32768 */
  assert_int_equal(policy_max_ctas(&c, &k, &why), 2);
  assert_string_equal(why, "registers");
  k = shape(32, 8, 60000); /* more shared memory than the SM has */
  assert_int_equal(policy_max_ctas(&c, &k, &why), 0);
  assert_string_equal(why, "shared memory");
}

/* The dispatcher skips its walk when no SM may admit (gpu.c), so may_admit must say 0 exactly
 * when cta_admit would refuse, and may_admit_any 1 exactly when some SM's may_admit says 1:
 * checked before every admission of a random run of admissions and exits on three SMs, with a
 * shape that register use limits to 2 CTAs of the 8 slots. The policies that answer them must
 * include the baseline and its compositions. */
static void test_may_admit_matches_cta_admit(void **state) {
  (void)state;
  static const char *const names[] = {"baseline", "larf", "baseline+larf", "warpman+larf",
                                      "warpman", "regshare", "spshare", "finereg", "vt",
                                      "regdram", "regmutex"};
  int answering = 0, answering_any = 0;
  for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
    gpu_config c;
    load(&c, "configs/gtx480.config");
    rf_diag d;
    config_notes notes;
    config_notes_init(&notes, NULL);
    if (config_set(&c, "-rfsim_policy", names[n], "test", 0, &notes, &d) != 0)
      fail_msg("%s: %s", names[n], d.msg);
    if (config_validate(&c, &d) < 0) fail_msg("%s: %s", names[n], d.msg);
    policy p;
    if (policy_create(&p, &c, 3, HW_C, NULL, &d) < 0) fail_msg("%s: %s", names[n], d.msg);
    if (!p.ops->may_admit) {
      assert_true(strcmp(names[n], "baseline") && strcmp(names[n], "larf") &&
                  strcmp(names[n], "baseline+larf"));
      policy_destroy(&p);
      continue;
    }
    answering++;
    trace_kernel_info k = shape(512, 30, 0); /* 16 warps x 1024 registers: 2 fit 32768 */
    snprintf(k.name, sizeof k.name, "may_admit");
    k.grid[0] = k.grid[1] = k.grid[2] = 1;
    k.num_tbs = 1000;
    if (p.ops->kernel_begin && p.ops->kernel_begin(&p, &k, &d) < 0) fail_msg("%s", d.msg);
    int used[3][8] = {{0}};
    unsigned seed = 12345;
    int admitted = 0, refused = 0, any_checked = 0;
    for (int step = 0; step < 2000; step++) {
      seed = seed * 1103515245u + 12345u;
      int sm = (int)(seed >> 16) % 3, slot = (int)(seed >> 20) % 8;
      uint64_t now = (uint64_t)step + 1;
      if (used[sm][slot]) {
        if (seed >> 30 & 1) {
          if (p.ops->cta_exit) p.ops->cta_exit(&p, sm, slot, &k, now);
          used[sm][slot] = 0;
        }
        continue;
      }
      trace_tb tb;
      memset(&tb, 0, sizeof tb);
      tb.linear_id = step;
      int may = p.ops->may_admit(&p, sm);
      if (p.ops->may_admit_any) { /* the dispatcher's one question for every SM */
        int any = 0;
        for (int i = 0; i < 3; i++) any |= p.ops->may_admit(&p, i);
        if (p.ops->may_admit_any(&p) != any)
          fail_msg("%s: step %d: may_admit_any %d, may_admit on some SM %d", names[n], step,
                   p.ops->may_admit_any(&p), any);
        any_checked += !any;
      }
      int got = p.ops->cta_admit(&p, sm, slot, &k, &tb, now);
      if (may != (got > 0)) fail_msg("%s: SM %d step %d: may_admit %d, cta_admit %d", names[n],
                                     sm, step, may, got);
      if (got > 0) used[sm][slot] = 1, admitted++;
      else refused++;
    }
    assert_true(admitted > 50 && refused > 50); /* both answers were checked */
    /* (the baseline and its compositions answer for all SMs at once; seen with all three full) */
    if (p.ops->may_admit_any) answering_any++, assert_true(any_checked > 0);
    policy_destroy(&p);
  }
  assert_true(answering >= 3);
  assert_true(answering_any == answering);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_register_sharing_set1_baseline),
      cmocka_unit_test(test_scratchpad_set2_baseline),
      cmocka_unit_test(test_rounding),
      cmocka_unit_test(test_may_admit_matches_cta_admit),
  };
  return cmocka_run_group_tests_name("CTA admission", tests, NULL, NULL);
}
