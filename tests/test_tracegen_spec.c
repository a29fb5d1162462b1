/* Tests of tracegen's specs and plans, checked without writing a trace: the body's mix and each
 * memory pattern's lane addresses as planned, the specs refused (with the exact message, by the
 * parser or the planner), and the workload suite's specs, each naming its paper row and small
 * enough for CI. Run from the repository root (traces/ is found relative to it). */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../csim/tracegen/tg_gen.h"
#include "../csim/tracegen/tg_plan.h"
#include "../csim/tracegen/tg_spec.h"
#include "../csim/tracegen/tg_text.h"
#include "common/test_util.h"

/* ---- instruction mix ---------------------------------------------------------------------- */

/* The body's classes come out in exactly the requested proportions. */
static void test_mix_exact(void **state) {
  (void)state;
  tg_spec *s = tu_tg_parse_ok("kernel = m\ngrid = 1\nblock = 32\nnregs = 20\nbody = 20\n"
                              "mix = int:0.5 fp:0.25 sfu:0.15 dp:0.1\n");
  tg_program p;
  rf_diag d = {{0}, 0};
  assert_int_equal(tg_program_build(&s->kernels[0], 1, &p, &d), 0);
  int n[TG_NCLASS + 1] = {0};
  for (int i = p.loop_begin; i < p.loop_end; i++) n[p.insts[i].cls]++;
  assert_int_equal(n[TG_INT], 10);
  assert_int_equal(n[TG_FP], 5);
  assert_int_equal(n[TG_SFU], 3);
  assert_int_equal(n[TG_DP], 2);
  tg_program_free(&p);
  tg_spec_free(s);
}

/* ---- memory patterns ---------------------------------------------------------------------- */

/* The k-th static instruction of access `acc` with role `role`. */
static const tg_inst *find_inst(const tg_plan *p, int acc, int role, int k) {
  for (int i = 0; i < p->prog.n; i++) {
    const tg_inst *in = &p->prog.insts[i];
    if (in->acc == acc && in->role == role && k-- == 0) return in;
  }
  fail_msg("no instruction for access %d role %d", acc, role);
  return NULL;
}

#define SHAPE "kernel = p\ngrid = 4\nblock = 64\nnregs = 16\nshmem = 1024\niters = 3\n"

static void test_pattern_coalesced_strided_window(void **state) {
  (void)state;
  tu_tg_plans pf = tu_tg_plan_of(SHAPE "load = global coalesced\n"
                                       "load = global strided stride=128\n"
                                       "load = global window taps=3 stride=8\n");
  const tg_plan *p = &pf.plans[0];
  uint64_t a[32];
  uint64_t gt = 4 * 64; /* threads in the grid */
  /* tb 2, warp 1, iteration 2 */
  uint64_t e0 = 2 * gt + 2 * 64 + 32;
  tg_plan_addresses(p, find_inst(p, 0, TG_ROLE_PLAIN, 0), 2, 1, 2, 0xffffffffu, a);
  for (int l = 0; l < 32; l++) assert_int_equal(a[l], p->base[0][0] + (e0 + l) * 4);
  tg_plan_addresses(p, find_inst(p, 1, TG_ROLE_PLAIN, 0), 2, 1, 2, 0xffffffffu, a);
  for (int l = 0; l < 32; l++) assert_int_equal(a[l], p->base[1][0] + (e0 + l) * 128);
  tg_plan_addresses(p, find_inst(p, 2, TG_ROLE_PLAIN, 2), 2, 1, 2, 0xffffffffu, a);
  for (int l = 0; l < 32; l++) assert_int_equal(a[l], p->base[2][0] + (e0 + l) * 4 + 2 * 8);
  /* Regions never overlap and start on 1 MiB boundaries. */
  assert_true(p->base[0][0] + p->span[0][0] <= p->base[1][0]);
  assert_true(p->base[1][0] + p->span[1][0] <= p->base[2][0]);
  assert_int_equal(p->base[1][0] % TG_REGION_ALIGN, 0);
  tu_tg_plan_done(&pf);
}

static void test_pattern_random_and_broadcast(void **state) {
  (void)state;
  tu_tg_plans pf =
      tu_tg_plan_of(SHAPE "load = global random footprint=4096\nload = global broadcast\n");
  const tg_plan *p = &pf.plans[0];
  uint64_t a[32], b[32];
  const tg_inst *rnd = find_inst(p, 0, TG_ROLE_PLAIN, 0);
  tg_plan_addresses(p, rnd, 1, 0, 1, 0xffffffffu, a);
  tg_plan_addresses(p, rnd, 1, 0, 1, 0xffffffffu, b);
  int distinct = 0;
  for (int l = 0; l < 32; l++) {
    assert_true(a[l] >= p->base[0][0] && a[l] < p->base[0][0] + 4096);
    assert_int_equal(a[l] % 4, 0);
    assert_int_equal(a[l], b[l]); /* a pure function of its coordinates */
    distinct += l > 0 && a[l] != a[0];
  }
  assert_true(distinct > 16);
  tg_plan_addresses(p, find_inst(p, 1, TG_ROLE_PLAIN, 0), 3, 1, 2, 0xffffffffu, a);
  for (int l = 0; l < 32; l++) assert_int_equal(a[l], p->base[1][0] + 2 * 4);
  tu_tg_plan_done(&pf);
}

static void test_pattern_shared_and_local(void **state) {
  (void)state;
  tu_tg_plans pf =
      tu_tg_plan_of(SHAPE "load = shared coalesced offset=256\nstore = local coalesced\n");
  const tg_plan *p = &pf.plans[0];
  uint64_t a[32];
  /* shared: offsets within the block's window, wrapping at shmem - offset = 768 bytes */
  tg_plan_addresses(p, find_inst(p, 0, TG_ROLE_PLAIN, 0), 3, 1, 2, 0xffffffffu, a);
  for (int l = 0; l < 32; l++) assert_int_equal(a[l], 256 + ((2 * 64 + 32 + l) * 4) % 768);
  /* local: above the local window base, per-thread slots interleaved across the grid */
  tg_plan_addresses(p, find_inst(p, 1, TG_ROLE_PLAIN, 0), 3, 1, 2, 0xffffffffu, a);
  for (int l = 0; l < 32; l++)
    assert_int_equal(a[l], TG_LOCAL_BASE + ((2 * 256 + 3 * 64 + 32 + l) * 4) % (64 * 256));
  tu_tg_plan_done(&pf);
}

static void test_pattern_tiled(void **state) {
  (void)state;
  /* 16 threads = one 4x4 tile; 2 tile steps, so N = 8 and 4 tiles of C per matrix. */
  tu_tg_plans pf = tu_tg_plan_of("kernel = mm\ngrid = 5\nblock = 16\nnregs = 16\nshmem = 128\n"
                                 "iters = 2\nbody = 0\nload = global tiled tile=4\n");
  const tg_plan *p = &pf.plans[0];
  uint64_t a[32];
  uint32_t m = 0xffff;
  long tb = 3; /* bx = 1, by = 1 */
  long it = 1;
  tg_plan_addresses(p, find_inst(p, 0, TG_ROLE_LDG_A, 0), tb, 0, it, m, a);
  for (int t = 0; t < 16; t++)
    assert_int_equal(a[t], p->base[0][0] + ((1 * 4 + t / 4) * 8 + it * 4 + t % 4) * 4);
  tg_plan_addresses(p, find_inst(p, 0, TG_ROLE_LDG_B, 0), tb, 0, it, m, a);
  for (int t = 0; t < 16; t++)
    assert_int_equal(a[t], p->base[0][1] + ((it * 4 + t / 4) * 8 + 1 * 4 + t % 4) * 4);
  tg_plan_addresses(p, find_inst(p, 0, TG_ROLE_STS_B, 0), tb, 0, it, m, a);
  for (int t = 0; t < 16; t++) assert_int_equal(a[t], 64 + t * 4);
  tg_plan_addresses(p, find_inst(p, 0, TG_ROLE_LDS_A, 0), tb, 0, it, m, a);
  for (int t = 0; t < 16; t++) assert_int_equal(a[t], (t / 4 * 4 + 0) * 4);
  tg_plan_addresses(p, find_inst(p, 0, TG_ROLE_LDS_B, 0), tb, 0, it, m, a);
  for (int t = 0; t < 16; t++) assert_int_equal(a[t], 64 + (0 * 4 + t % 4) * 4);
  /* block 4 is the first C tile of the second matrix of the batch */
  tg_plan_addresses(p, find_inst(p, 0, TG_ROLE_LDG_A, 0), 4, 0, 0, m, a);
  assert_int_equal(a[0], p->base[0][0] + 8 * 8 * 4);
  /* the static shape: LDG, LDG, STS, STS, BAR, 4 x (LDS, LDS, FFMA), BAR */
  assert_int_equal(p->prog.n_common, 2 + 2 + 1 + 4 * 3 + 1);
  tu_tg_plan_done(&pf);
}

/* ---- malformed specs ---------------------------------------------------------------------- */

/* Spec text refused with exactly `want`: by the parser, or (planned) by tg_plans_init. */
static void expect_refused(size_t i, const char *text, const char *want, int planned) {
  rf_diag d = {{0}, 0};
  tg_spec *s = NULL;
  int rc = tg_spec_parse("t.spec", text, &s, &d);
  if (planned) {
    if (rc < 0) fail_msg("case %zu: %s", i, d.msg);
    tg_plan *plans = NULL;
    rc = tg_plans_init(s, &plans, &d);
    tg_spec_free(s);
    if (rc != -1 || plans != NULL) fail_msg("case %zu planned: %s", i, text);
  } else if (rc != -1 || s != NULL) {
    fail_msg("case %zu parsed: %s", i, text);
  }
  if (strcmp(d.msg, want)) fail_msg("case %zu:\n  want: %s\n  got:  %s", i, want, d.msg);
}

static void test_malformed_specs(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"kernel = k\ngrid 4\n", "t.spec:2: expected 'key = value', found 'grid 4'"},
      {"kernel = k\ncolour = red\n",
       "t.spec:2: expected a key (kernel, seed, grid, block, nregs, shmem, iters, body, mix, "
       "barrier_every, imbalance, reg_order, load, store), found 'colour'"},
      {"kernel = k\ngrid = 0\n",
       "t.spec:2: expected grid as X[,Y[,Z]] with positive sizes, found '0'"},
      {"kernel = k\nblock = 64,32\n",
       "t.spec:2: expected at most 1024 threads per block, found 2048"},
      {"kernel = k\nnregs = 3\n", "t.spec:2: expected nregs between 5 and 255, found '3'"},
      {"kernel = k\nnregs =\n", "t.spec:2: expected a value for nregs, found ''"},
      {"kernel = k\nmix = int:0.5 fp:0.4\n",
       "t.spec:2: expected mix fractions summing to 1, found 0.9"},
      {"kernel = k\nmix = int:0.5 gpu:0.5\n",
       "t.spec:2: expected mix as class:fraction pairs (int, fp, sfu, dp), found 'gpu:0.5'"},
      {"kernel = k\nimbalance = ray 9 3\n",
       "t.spec:2: expected 'ray MIN MAX' with 0 <= MIN <= MAX <= 1000000, found 'ray 9 3'"},
      {"kernel = k\nreg_order = sideways\n",
       "t.spec:2: expected reg_order ascending, descending, interleaved or random, found "
       "'sideways'"},
      {"kernel = k\nload = texture coalesced\n",
       "t.spec:2: expected a space (global, shared, local), found 'texture'"},
      {"kernel = k\nload = global zigzag\n",
       "t.spec:2: expected a pattern (coalesced, strided, random, window, tiled, broadcast), "
       "found 'zigzag'"},
      {"kernel = k\nload = global strided\n",
       "t.spec:2: expected stride=BYTES for a strided access, found none"},
      {"kernel = k\nload = global coalesced taps=3\n",
       "t.spec:2: expected an option of a coalesced access (width=, footprint=, offset=, at=, "
       "guard=), found 'taps=3'"},
      {"kernel = k\nload = global coalesced guard=0\n",
       "t.spec:2: expected guard between 1 and 2^40, found '0'"},
      {"kernel = k\nload = global tiled guard=64\n",
       "t.spec:2: expected an option of a tiled access (width=, tile=), found 'guard=64'"},
      {"kernel = k\nload = global coalesced width=3\n",
       "t.spec:2: expected width 4, 8 or 16, found '3'"},
      {"kernel = k\nload = global coalesced at=later\n",
       "t.spec:2: expected at=loop, at=start or at=end, found 'later'"},
      {"kernel = k\nstore = global tiled\n",
       "t.spec:2: expected tiled only as 'load = global tiled', found 'store = global tiled'"},
      {"load = global coalesced\n",
       "t.spec:1: expected a 'kernel = NAME' line before load, found load in the defaults"},
      {"kernel = k\nnregs = 8\nnregs = 9\n",
       "t.spec:3: expected one 'nregs' per section, found a second (first on line 2)"},
      {"kernel = 9lives\n",
       "t.spec:1: expected a kernel name of letters, digits and '_', found '9lives'"},
      {"kernel = k\ngrid = 2\nblock = 64\n", "t.spec:1: expected nregs for kernel 'k', found none"},
      {"kernel = k\ngrid = 2\nblock = 64\nnregs = 8\nload = shared coalesced\n",
       "t.spec:5: expected shmem of at least 4 bytes for this access, found shmem = 0"},
      {"kernel = k\ngrid = 1\nblock = 256\nnregs = 8\nshmem = 1024\nload = global tiled\n",
       "t.spec:6: expected shmem of at least 2048 bytes for this access, found shmem = 1024"},
      {"kernel = k\ngrid = 2\nblock = 64\nnregs = 8\nimbalance = st 3 0\n",
       "t.spec:5: expected at most 2 heavy warps (the block has 2 warps), found 3"},
      {"seed = 1\n", "t.spec: expected at least one 'kernel = NAME' section, found none"},
      {"kernel = k\ngrid = 65536,65536,2\nblock = 32\nnregs = 8\n",
       "t.spec:2: expected a grid of at most 4294967296 thread blocks (x*y*z), found "
       "65536,65536,2 for kernel 'k'"},
      {"grid = 1073741824,1073741824,1073741824\nkernel = k\nblock = 32\nnregs = 8\n",
       "t.spec:2: expected a grid of at most 4294967296 thread blocks (x*y*z), found "
       "1073741824,1073741824,1073741824 for kernel 'k'"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    expect_refused(i, cases[i][0], cases[i][1], 0);
}

/* Specs that parse but whose addresses or counts would leave 64 bits (or the reader's limits)
 * are refused when planned, naming the line, never generating wrapped addresses. */
static void test_oversized_specs(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"kernel = k\ngrid = 1073741824,4\nblock = 1024\nnregs = 8\niters = 1000000\n"
       "load = global strided stride=1073741824\n",
       "t.spec:6: expected an access whose addresses fit 64 bits, found one over grid "
       "(1073741824,4,1), block (1024,1,1), 1000000 iterations, width 4, stride 1073741824"},
      {"kernel = k\ngrid = 1073741824,4\nblock = 1024\nnregs = 8\niters = 1000000\n"
       "shmem = 65536\nload = global tiled tile=32 width=16\n",
       "t.spec:1: expected a kernel of at most 2^64 thread instructions, found 4294967296 "
       "blocks of 32 warps of up to 113000005 instructions in kernel 'k'"},
      {"kernel = k\ngrid = 1073741824,4\nblock = 1024\nnregs = 8\niters = 100\n"
       "load = local strided stride=1073741824 footprint=4096\n",
       "t.spec:6: expected an access whose addresses fit 64 bits, found one over grid "
       "(1073741824,4,1), block (1024,1,1), 100 iterations, width 4, stride 1073741824"},
      {"kernel = k\ngrid = 2\nblock = 32\nnregs = 8\niters = 1000000\nbody = 4096\n",
       "t.spec:1: expected warps of at most 1073741824 instructions, found 4099000005 in "
       "kernel 'k' (1000000 iterations)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    expect_refused(i, cases[i][0], cases[i][1], 1);
}

/* ---- the workload suite ------------------------------------------------------------------- */

static void test_suite_specs(void **state) {
  (void)state;
  glob_t g;
  assert_int_equal(glob("traces/*.spec", 0, NULL, &g), 0);
  assert_true(g.gl_pathc >= 40);
  for (size_t i = 0; i < g.gl_pathc; i++) {
    const char *path = g.gl_pathv[i];
    rf_diag d = {{0}, 0};
    tg_spec *s;
    if (tg_spec_load(path, &s, &d) < 0) fail_msg("%s", d.msg);
    /* The first line says which paper row the workload mirrors. */
    char *text;
    assert_int_equal(tg_read_file(path, 1 << 20, &text, &d), 0);
    const char *base = strrchr(path, '/') + 1;
    char head[160];
    snprintf(head, sizeof head, "# %.*s: mirrors ", (int)(strlen(base) - 5), base);
    if (strncmp(text, head, strlen(head))) fail_msg("%s: must begin with '%s'", path, head);
    free(text);
    tg_plan *plans;
    if (tg_plans_init(s, &plans, &d) < 0) fail_msg("%s", d.msg);
    uint64_t total = 0;
    for (int k = 0; k < s->nkernels; k++) {
      tg_counts c;
      tg_plan_counts(&plans[k], &c);
      total += c.warp_insts;
    }
    /* Small enough that every workload can run on every config in CI. */
    if (total < 15000 || total > 200000)
      fail_msg("%s: %llu warp instructions, expected 15,000..200,000", path,
               (unsigned long long)total);
    tg_plans_free(plans, s->nkernels);
    tg_spec_free(s);
  }
  globfree(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mix_exact),
      cmocka_unit_test(test_pattern_coalesced_strided_window),
      cmocka_unit_test(test_pattern_random_and_broadcast),
      cmocka_unit_test(test_pattern_shared_and_local),
      cmocka_unit_test(test_pattern_tiled),
      cmocka_unit_test(test_malformed_specs),
      cmocka_unit_test(test_oversized_specs),
      cmocka_unit_test(test_suite_specs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
