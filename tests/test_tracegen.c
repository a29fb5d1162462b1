/* Tests of tracegen's generator and writer, read back through the project's trace reader, so
 * that what rfsim reads is exactly what the spec asked for: determinism and the golden output,
 * exact counts, lane addresses, bounds-checked accesses, imbalance, register order and the output
 * folder's safety. The specs alone are test_tracegen_spec.c's, tracetile test_tracegen_tile.c's.
 * Run from the repository root (fixtures are found relative to it). */
#include <dirent.h>
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
#include "../csim/hw/unit.h"
#include "../csim/stats/stats.h"
#include "../csim/trace/trace.h"
#include "../csim/tracegen/tg_gen.h"
#include "../csim/tracegen/tg_info.h"
#include "../csim/tracegen/tg_plan.h"
#include "../csim/tracegen/tg_spec.h"
#include "../csim/tracegen/tg_write.h"
#include "common/test_util.h"

/* ---- helpers ------------------------------------------------------------------------------ */

#define P(name) (tu_path_in(f, (name)).s) /* a path inside the fixture's folder */

static const char *op_name(const trace_inst *in) { return trace_opcode_name(in->op->opcode); }

/* ---- determinism -------------------------------------------------------------------------- */

static const char *small_spec =
    "seed = 3\n"
    "kernel = small\n"
    "grid = 3\n"
    "block = 80            # 3 warps, the last with 16 lanes\n"
    "nregs = 16\n"
    "iters = 4\n"
    "body = 5\n"
    "barrier_every = 2\n"
    "load = global coalesced\n"
    "store = global coalesced at=end\n";

static void test_same_spec_same_bytes(void **state) {
  tu_fixture *f = *state;
  tu_tg_generate_ok(small_spec, P("a"));
  tu_tg_generate_ok(small_spec, P("b"));
  assert_true(tu_same_file(P("a/kernelslist.g"), P("b/kernelslist.g")));
  assert_true(tu_same_file(P("a/kernel-1.traceg"), P("b/kernel-1.traceg")));
  char other[1024];
  snprintf(other, sizeof other, "%s", small_spec);
  other[7] = '4'; /* seed = 4 */
  tu_tg_generate_ok(other, P("c"));
  assert_false(tu_same_file(P("a/kernel-1.traceg"), P("c/kernel-1.traceg")));
}

/* The committed golden output: a change in format or in a generation rule shows up here. */
static void test_golden_fixture(void **state) {
  tu_fixture *f = *state;
  rf_diag d = {{0}, 0};
  tg_spec *s;
  if (tg_spec_load("tests/fixtures/tracegen/tiny.spec", &s, &d) < 0) fail_msg("%s", d.msg);
  if (tg_generate(s, P("tiny"), TG_STREAM_PLAIN, &d) < 0) fail_msg("%s", d.msg);
  tg_spec_free(s);
  static const char *const files[] = {"kernelslist.g", "kernel-1.traceg", "kernel-2.traceg"};
  for (int i = 0; i < 3; i++) {
    char want[256], got[1024];
    snprintf(want, sizeof want, "tests/fixtures/tracegen/tiny/%s", files[i]);
    snprintf(got, sizeof got, "%s/tiny/%s", f->dir, files[i]);
    if (!tu_same_file(want, got)) fail_msg("%s differs from %s", got, want);
  }
}

/* ---- exact counts through the reader ------------------------------------------------------ */

typedef struct counts {
  long tbs, warps, insts, thread_insts, barriers, exits_last, per_warp[64];
  uint32_t masks[64];
} counts;

static void count_tb(const trace_kernel_info *in, const trace_tb *tb, void *arg) {
  (void)in;
  counts *c = arg;
  c->tbs++;
  for (int w = 0; w < tb->nwarps; w++) {
    const trace_warp *wp = &tb->warps[w];
    if (c->warps < 64) c->per_warp[c->warps] = wp->n, c->masks[c->warps] = wp->insts[0].mask;
    c->warps++;
    c->insts += wp->n;
    for (uint32_t i = 0; i < wp->n; i++) {
      c->thread_insts += __builtin_popcount(wp->insts[i].mask);
      c->barriers += wp->insts[i].op->kind == OPK_BARRIER;
    }
    c->exits_last += wp->n > 0 && wp->insts[wp->n - 1].op->kind == OPK_EXIT;
  }
}

static void test_exact_counts(void **state) {
  tu_fixture *f = *state;
  tu_tg_generate_ok(small_spec, P("k"));
  counts c = {0};
  tu_for_each_tb(P("k"), "kernel-1.traceg", count_tb, &c);
  /* prologue 3 + 2 address registers; loop 4 x (load + 5 ALU + 3 overhead) + 2 barriers;
   * epilogue store + EXIT. */
  long per_warp = 5 + 4 * 9 + 2 + 2;
  assert_int_equal(c.tbs, 3);
  assert_int_equal(c.warps, 9);
  for (int w = 0; w < 9; w++) assert_int_equal(c.per_warp[w], per_warp);
  assert_int_equal(c.insts, 9 * per_warp);
  assert_int_equal(c.exits_last, 9);
  assert_int_equal(c.barriers, 9 * 2);
  assert_int_equal(c.thread_insts, 3 * per_warp * (32 + 32 + 16));
  assert_int_equal(c.masks[2], 0xffff);
  /* The plan's own count (used by tracegen --count) agrees. */
  tg_spec *s = tu_tg_parse_ok(small_spec);
  tg_plan *plans;
  rf_diag d = {{0}, 0};
  assert_int_equal(tg_plans_init(s, &plans, &d), 0);
  tg_counts pc;
  tg_plan_counts(&plans[0], &pc);
  assert_int_equal(pc.warp_insts, 9 * per_warp);
  assert_int_equal(pc.thread_insts, c.thread_insts);
  tg_plans_free(plans, 1);
  tg_spec_free(s);
}

/* ---- memory patterns ---------------------------------------------------------------------- */

static void test_address_compression(void **state) {
  (void)state;
  uint64_t a[32] = {0};
  char buf[TG_LINE_MAX];
  for (int l = 0; l < 32; l++) a[l] = 0x1000 + 4 * (uint64_t)l;
  tg_format_addrs(buf, sizeof buf, 0xffffffffu, a);
  assert_string_equal(buf, "1 0x1000 4 ");
  tg_format_addrs(buf, sizeof buf, 0x0000ffffu, a);
  assert_string_equal(buf, "1 0x1000 4 ");
  for (int l = 0; l < 32; l++) a[l] = 0x1010 - 4 * (uint64_t)l;
  tg_format_addrs(buf, sizeof buf, 0x3u, a);
  assert_string_equal(buf, "1 0x1010 -4 ");
  for (int l = 0; l < 32; l++) a[l] = 0x2000;
  tg_format_addrs(buf, sizeof buf, 0xffffffffu, a);
  assert_string_equal(buf, "1 0x2000 0 ");
  /* one lane: no stride to take, so base+deltas with no deltas (as NVBit's tracer writes) */
  tg_format_addrs(buf, sizeof buf, 0x4u, a);
  assert_string_equal(buf, "2 0x2000 ");
  a[0] = 0x1000, a[2] = 0x1010, a[3] = 0x1008;
  tg_format_addrs(buf, sizeof buf, 0xdu, a);
  assert_string_equal(buf, "2 0x1000 16 -8 ");
  a[0] = 0x1000, a[1] = 0x100000001000ull;
  tg_format_addrs(buf, sizeof buf, 0x3u | 0x4u, a);
  assert_string_equal(buf, "0 0x0000000000001000 0x0000100000001000 0x0000000000001010 ");
  /* no lane: base+stride with base and stride 0, as NVBit's tracer writes it */
  tg_format_addrs(buf, sizeof buf, 0, a);
  assert_string_equal(buf, "1 0x0 0 ");
}

/* Every generated instruction reads back (through the reader) with the PC, opcode and lane
 * addresses the plan says, in the order the static code and the iteration rules give. */
typedef struct replay {
  const tg_plan *p;
  long checked, predicated_off;
} replay;

static void replay_tb(const trace_kernel_info *info, const trace_tb *tb, void *arg) {
  (void)info;
  replay *r = arg;
  const tg_plan *p = r->p;
  const tg_program *g = &p->prog;
  long common = tg_plan_tb_common(p, tb->linear_id);
  for (int w = 0; w < tb->nwarps; w++) {
    const trace_warp *wp = &tb->warps[w];
    long iters = tg_plan_warp_iters(p, tb->linear_id, w), at = 0;
    for (int phase = 0; phase < 3; phase++) {
      long reps = phase == 1 ? iters : 1;
      int lo = phase == 0 ? 0 : phase == 1 ? g->loop_begin : g->loop_end;
      int hi = phase == 0 ? g->loop_begin : phase == 1 ? g->loop_end : g->n;
      for (long it = 0; it < reps; it++)
        for (int s = lo; s < hi; s++) {
          const tg_inst *in = &g->insts[s];
          if (phase == 1 && !tg_slot_runs(in, it, common, p->k->barrier_every)) continue;
          assert_true(at < (long)wp->n);
          const trace_inst *ti = &wp->insts[at++];
          uint32_t mask = tg_plan_inst_mask(p, in, tb->linear_id, w);
          assert_int_equal(ti->op->pc, in->pc);
          assert_int_equal(ti->mask, mask);
          assert_int_equal(strncmp(op_name(ti), in->op, strlen(op_name(ti))), 0);
          if (!in->width) continue;
          r->predicated_off += mask == 0;
          assert_int_equal(ti->op->is_mem, mask != 0); /* predicated off: moves no data */
          if (!mask) continue;
          uint64_t want[32];
          tg_plan_addresses(p, in, tb->linear_id, w, phase == 1 ? it : 0, mask, want);
          for (int l = 0; l < 32; l++) assert_int_equal(wp->addrs[ti->addr_off + l], want[l]);
          r->checked++;
        }
    }
    assert_int_equal(at, wp->n);
  }
}

static void test_reader_roundtrip(void **state) {
  tu_fixture *f = *state;
  static const char *spec =
      "kernel = all\ngrid = 3,2\nblock = 72\nnregs = 24\nshmem = 2048\niters = 3\nbody = 3\n"
      "barrier_every = 2\nimbalance = ray 1 4\n"
      "load = global coalesced\nload = global strided stride=256\n"
      "load = global random footprint=1099511627776   # deltas beyond 32 bits: listed\n"
      "load = shared window taps=2 stride=128\nload = global broadcast\n"
      "store = local coalesced\nstore = shared random at=end\n"
      "kernel = mm\ngrid = 4\nblock = 64\nnregs = 32\nshmem = 512\niters = 2\n"
      "load = global tiled tile=8\nstore = global coalesced width=16 at=end\n";
  tu_tg_generate_ok(spec, P("rt"));
  tu_tg_plans pf = tu_tg_plan_of(spec);
  for (int k = 0; k < 2; k++) {
    replay r = {&pf.plans[k], 0, 0};
    char name[32];
    snprintf(name, sizeof name, "kernel-%d.traceg", k + 1);
    tu_for_each_tb(P("rt"), name, replay_tb, &r);
    assert_true(r.checked > 100);
  }
  tu_tg_plan_done(&pf);
}

/* Accesses behind a bounds check (guard=): the warps past it issue the access with mask 0 and
 * the boundary warp with one lane, written as NVBit writes them; the trace reads back as
 * planned, and runs end to end with the exact warp- and thread-instruction counts. */
static void test_guarded_accesses(void **state) {
  tu_fixture *f = *state;
  /* 4 blocks x 96 threads; guard 289 = 3 x 96 + 1: block 3's warp 0 keeps one lane, its warps
   * 1 and 2 are predicated off entirely for the guarded accesses */
  static const char *spec =
      "kernel = bounds\ngrid = 4\nblock = 96\nnregs = 16\nshmem = 512\niters = 3\nbody = 4\n"
      "load = global coalesced guard=289\nload = shared coalesced guard=300\n"
      "load = global strided stride=64\nstore = global coalesced at=end guard=289\n";
  tu_tg_generate_ok(spec, P("g"));
  size_t n;
  char *text = tu_slurp(P("g/kernel-1.traceg"), &n);
  assert_non_null(strstr(text, " 00000000 1 R")); /* a predicated-off load ... */
  assert_non_null(strstr(text, " LDG.E 1 R3 4 1 0x0 0 \n")); /* ... in NVBit's mask-0 form */
  assert_non_null(strstr(text, " 00000000 0 STG.E 2 R"));
  assert_non_null(strstr(text, " 00000001 1 R")); /* the boundary warp's single lane */
  free(text);

  tu_tg_plans pf = tu_tg_plan_of(spec);
  replay r = {&pf.plans[0], 0, 0};
  tu_for_each_tb(P("g"), "kernel-1.traceg", replay_tb, &r);
  /* warps 1 and 2 of block 3 (threads 320..383) are past both guards: 3 global loads, 3 shared
   * loads and the store each; warp 0 (288..319) keeps one lane of the global accesses and 12
   * of the shared load */
  assert_int_equal(r.predicated_off, 2 * (3 + 3 + 1));
  counts c = {0};
  tu_for_each_tb(P("g"), "kernel-1.traceg", count_tb, &c);
  tg_counts pc;
  tg_plan_counts(&pf.plans[0], &pc);
  assert_int_equal(pc.warp_insts, c.insts);
  assert_int_equal(pc.thread_insts, c.thread_insts);
  assert_true(c.thread_insts < c.insts * 32);

  gpu_config cfg;
  rf_diag d;
  config_notes notes;
  config_notes_init(&notes, NULL);
  config_defaults(&cfg);
  if (config_load_file(&cfg, "configs/gtx480.config", &notes, &d) < 0) fail_msg("%s", d.msg);
  stats_record total;
  char *stats = tu_run_list(&cfg, HW_C, P("g/kernelslist.g"), &total);
  char want[128];
  snprintf(want, sizeof want, "gpgpu_n_tot_w_icount = %ld\n", c.insts);
  if (!strstr(stats, want)) fail_msg("expected '%s' in:\n%s", want, stats);
  snprintf(want, sizeof want, "gpu_sim_insn = %ld\n", c.thread_insts);
  if (!strstr(stats, want)) fail_msg("expected '%s' in:\n%s", want, stats);
  free(stats);
  stats_free(&total);
  tu_tg_plan_done(&pf);
}

/* ---- imbalance ---------------------------------------------------------------------------- */

static void test_imbalance_ray(void **state) {
  tu_fixture *f = *state;
  static const char *spec = "kernel = ray\ngrid = 4\nblock = 256\nnregs = 16\niters = 5\n"
                            "body = 6\nimbalance = ray 2 10\nload = global coalesced\n";
  tu_tg_generate_ok(spec, P("ray"));
  tu_tg_plans pf = tu_tg_plan_of(spec);
  const tg_plan *p = &pf.plans[0];
  counts c = {0};
  tu_for_each_tb(P("ray"), "kernel-1.traceg", count_tb, &c);
  assert_int_equal(c.warps, 32);
  int distinct = 0;
  for (int i = 0; i < 32; i++) {
    long it = tg_plan_warp_iters(p, i / 8, i % 8);
    assert_true(it >= 2 && it <= 10);
    /* prologue 3 + 1, loop (load + 6 + 3) per iteration, EXIT */
    assert_int_equal(c.per_warp[i], 4 + it * 10 + 1);
    distinct += c.per_warp[i] != c.per_warp[0];
  }
  assert_true(distinct > 0);
  tu_tg_plan_done(&pf);
}

static void test_imbalance_st(void **state) {
  tu_fixture *f = *state;
  tu_tg_generate_ok("kernel = st\ngrid = 2\nblock = 128\nnregs = 16\niters = 5\nbody = 6\n"
                    "barrier_every = 1\nimbalance = st 2 0\nload = global coalesced\n",
                    P("st"));
  counts c = {0};
  tu_for_each_tb(P("st"), "kernel-1.traceg", count_tb, &c);
  assert_int_equal(c.warps, 8);
  for (int i = 0; i < 8; i++) {
    long want = i % 4 < 2 ? 4 + 5 * 10 + 1 : 4 + 1; /* heavy warps 0,1; the rest skip the loop */
    assert_int_equal(c.per_warp[i], want);
  }
  assert_int_equal(c.barriers, 0); /* no iteration is common to every warp of a block */
  /* traceinfo's divergence figures for these blocks */
  tg_info s;
  trace_kernel_info info;
  rf_diag d = {{0}, 0};
  tg_info_init(&s);
  assert_int_equal(tg_info_kernel(P("st/kernel-1.traceg"), &info, &s, &d), 0);
  assert_int_equal(s.tbs, 2);
  assert_int_equal(s.tb[1].min, 5);
  assert_int_equal(s.tb[1].max, 55);
  assert_true(s.tb[1].mean > 29.99 && s.tb[1].mean < 30.01);
  /* sum(max - n) / (N max) = (0 + 0 + 50 + 50) / (4 * 55) */
  assert_true(s.tb[1].rtru > 100.0 / 220 - 1e-9 && s.tb[1].rtru < 100.0 / 220 + 1e-9);
  tg_hist h;
  tg_info_histogram(&s, &h);
  assert_int_equal(h.count[0], 4);
  assert_int_equal(h.count[h.nbins - 1], 4);
  tg_info_free(&s);
}

/* ---- registers ---------------------------------------------------------------------------- */

typedef struct reg_use {
  int order[256], n;
  int seen[256];
  int read_before_write;
  int max_reg;
} reg_use;

static void note_first(reg_use *u, int r) {
  if (u->seen[r]) return;
  u->seen[r] = 1;
  u->order[u->n++] = r;
  if (r > u->max_reg) u->max_reg = r;
}

/* First-use order of warp 0 of block 0, and whether a source was read before any write. */
static void regs_tb(const trace_kernel_info *info, const trace_tb *tb, void *arg) {
  (void)info;
  reg_use *u = arg;
  if (tb->linear_id != 0) return;
  int written[256] = {0};
  const trace_warp *wp = &tb->warps[0];
  for (uint32_t i = 0; i < wp->n; i++) {
    const trace_inst *in = &wp->insts[i];
    for (int s = 0; s < in->op->nsrc; s++) {
      note_first(u, in->op->src[s]);
      u->read_before_write += !written[in->op->src[s]];
    }
    for (int k = 0; k < in->op->ndst; k++) {
      note_first(u, in->op->dst[k]);
      written[in->op->dst[k]] = 1;
    }
  }
}

static void check_order(const tu_fixture *f, const char *order, const int *want, int n) {
  char spec[512], dir[64];
  snprintf(spec, sizeof spec,
           "kernel = r\ngrid = 1\nblock = 32\nnregs = %d\niters = 4\nbody = 6\n"
           "reg_order = %s\nload = global coalesced\nstore = global coalesced\n",
           n, order);
  snprintf(dir, sizeof dir, "regs_%s", order);
  tu_tg_generate_ok(spec, P(dir));
  reg_use u = {0};
  tu_for_each_tb(P(dir), "kernel-1.traceg", regs_tb, &u);
  assert_int_equal(u.n, n); /* every register 0..n-1 is used */
  assert_int_equal(u.max_reg, n - 1);
  assert_int_equal(u.read_before_write, 0); /* sources are values written earlier */
  if (want)
    for (int i = 0; i < n; i++) assert_int_equal(u.order[i], want[i]);
}

static void test_register_order(void **state) {
  tu_fixture *f = *state;
  int asc[10], desc[10];
  for (int i = 0; i < 10; i++) asc[i] = i, desc[i] = 9 - i;
  const int inter[10] = {0, 5, 1, 6, 2, 7, 3, 8, 4, 9};
  check_order(f, "ascending", asc, 10);
  check_order(f, "descending", desc, 10);
  check_order(f, "interleaved", inter, 10);
  check_order(f, "random", NULL, 10);
}

/* ---- output folder safety ----------------------------------------------------------------- */

static int count_entries(const char *dir, const char *needle) {
  DIR *dp = opendir(dir);
  assert_non_null(dp);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(dp)) != NULL) n += strstr(e->d_name, needle) != NULL;
  closedir(dp);
  return n;
}

static void test_output_folder_safety(void **state) {
  tu_fixture *f = *state;
  /* Regenerating replaces the folder's content. */
  tu_tg_generate_ok(small_spec, P("out"));
  tu_tg_generate_ok("kernel = other\ngrid = 1\nblock = 32\nnregs = 8\n", P("out"));
  size_t n;
  char *text = tu_slurp(P("out/kernel-1.traceg"), &n);
  assert_non_null(strstr(text, "-kernel name = other\n"));
  free(text);
  /* rfsim's binary trace caches beside the traces are derived from them: replaced too. */
  FILE *c = fopen(P("out/kernel-1.traceg.rfc"), "w");
  assert_non_null(c);
  fclose(c);
  c = fopen(P("out/kernel-1.traceg.rfc.partial.123"), "w");
  assert_non_null(c);
  fclose(c);
  tu_tg_generate_ok(small_spec, P("out"));
  assert_int_equal(count_entries(P("out"), ".rfc"), 0);
  /* A folder holding anything else is not replaced, and nothing is left behind. */
  FILE *x = fopen(P("out/notes.txt"), "w");
  assert_non_null(x);
  fclose(x);
  tg_spec *s = tu_tg_parse_ok(small_spec);
  rf_diag d = {{0}, 0};
  assert_int_equal(tg_generate(s, P("out"), TG_STREAM_PLAIN, &d), -1);
  tg_spec_free(s);
  assert_non_null(strstr(d.msg, "found 'notes.txt'"));
  assert_int_equal(access(P("out/notes.txt"), F_OK), 0);
  assert_int_equal(count_entries(f->dir, ".tmp."), 0);
  assert_int_equal(count_entries(f->dir, ".old."), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_FIXTURE_TEST(test_same_spec_same_bytes),
      TU_FIXTURE_TEST(test_golden_fixture),
      TU_FIXTURE_TEST(test_exact_counts),
      cmocka_unit_test(test_address_compression),
      TU_FIXTURE_TEST(test_reader_roundtrip),
      TU_FIXTURE_TEST(test_guarded_accesses),
      TU_FIXTURE_TEST(test_imbalance_ray),
      TU_FIXTURE_TEST(test_imbalance_st),
      TU_FIXTURE_TEST(test_register_order),
      TU_FIXTURE_TEST(test_output_folder_safety),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
