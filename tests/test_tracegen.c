/* Tests of the trace tools: tracegen's spec parser, generator and writer (read back through the
 * project's trace reader), tracetile, traceinfo's statistics, and the workload suite's budget.
 * Run from the repository root (fixtures and traces/ are found relative to it); SHARED names
 * the folder with the real traces (default ../shared). */
#include <dirent.h>
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../csim/config/config.h"
#include "../csim/hw/unit.h"
#include "../csim/stats/stats.h"
#include "../csim/trace/trace.h"
#include "../csim/tracegen/tg_access.h"
#include "../csim/tracegen/tg_gen.h"
#include "../csim/tracegen/tg_info.h"
#include "../csim/tracegen/tg_plan.h"
#include "../csim/tracegen/tg_spec.h"
#include "../csim/tracegen/tg_text.h"
#include "../csim/tracegen/tg_tile.h"
#include "../csim/tracegen/tg_write.h"
#include "common/test_util.h"

/* ---- helpers ------------------------------------------------------------------------------ */

typedef struct fixture {
  char dir[512];
} fixture;

static void rm_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) < 0) return;
  if (S_ISDIR(st.st_mode)) {
    DIR *dp = opendir(path);
    if (dp) {
      struct dirent *e;
      char sub[1024];
      while ((e = readdir(dp)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        rm_tree(sub);
      }
      closedir(dp);
    }
    rmdir(path);
  } else {
    unlink(path);
  }
}

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (!f) return -1;
  const char *tmp = getenv("TMPDIR");
  snprintf(f->dir, sizeof f->dir, "%s/rfsim_tracegen_XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(f->dir)) {
    free(f);
    return -1;
  }
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  rm_tree(f->dir);
  free(f);
  return 0;
}

/* A path inside the fixture's folder, returned by value so several can be alive in one call:
 * P("a").s stays valid until the end of the full expression. */
typedef struct path_buf {
  char s[1024];
} path_buf;

static path_buf path_in(const fixture *f, const char *name) {
  path_buf b;
  snprintf(b.s, sizeof b.s, "%s/%s", f->dir, name);
  return b;
}
#define P(name) (path_in(f, (name)).s)

static tg_spec *parse_ok(const char *text) {
  rf_diag d = {{0}, 0};
  tg_spec *s = NULL;
  int rc = tg_spec_parse("t.spec", text, &s, &d);
  if (rc < 0) fail_msg("unexpected spec error: %s", d.msg);
  return s;
}

static void generate_ok(const char *text, const char *outdir) {
  tg_spec *s = parse_ok(text);
  rf_diag d = {{0}, 0};
  if (tg_generate(s, outdir, TG_STREAM_PLAIN, &d) < 0) fail_msg("generation failed: %s", d.msg);
  tg_spec_free(s);
}

static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long len = ftell(f);
  assert_true(len >= 0);
  rewind(f);
  char *buf = malloc((size_t)len + 1);
  assert_non_null(buf);
  assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
  fclose(f);
  buf[len] = '\0';
  *n = (size_t)len;
  return buf;
}

static int same_file(const char *a, const char *b) {
  size_t na, nb;
  char *x = slurp(a, &na), *y = slurp(b, &nb);
  int same = na == nb && !memcmp(x, y, na);
  free(x);
  free(y);
  return same;
}

/* Opens kernel file `name` in `dir` and reads TBs one by one into the callback. */
typedef void (*tb_fn)(const trace_kernel_info *in, const trace_tb *tb, void *arg);

static void for_each_tb(const char *dir, const char *name, tb_fn fn, void *arg) {
  char path[2100];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  rf_diag d = {{0}, 0};
  trace_kernel *k;
  if (trace_kernel_open(path, &k, &d) < 0) fail_msg("reader: %s", d.msg);
  trace_tb tb;
  int rc;
  while ((rc = trace_kernel_next_tb(k, &tb, &d)) > 0) {
    fn(trace_kernel_get_info(k), &tb, arg);
    trace_tb_free(&tb);
  }
  if (rc < 0) fail_msg("reader: %s", d.msg);
  trace_kernel_close(k);
}

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
  fixture *f = *state;
  generate_ok(small_spec, P("a"));
  generate_ok(small_spec, P("b"));
  assert_true(same_file(P("a/kernelslist.g"), P("b/kernelslist.g")));
  assert_true(same_file(P("a/kernel-1.traceg"), P("b/kernel-1.traceg")));
  char other[1024];
  snprintf(other, sizeof other, "%s", small_spec);
  other[7] = '4'; /* seed = 4 */
  generate_ok(other, P("c"));
  assert_false(same_file(P("a/kernel-1.traceg"), P("c/kernel-1.traceg")));
}

/* The committed golden output: a change in format or in a generation rule shows up here. */
static void test_golden_fixture(void **state) {
  fixture *f = *state;
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
    if (!same_file(want, got)) fail_msg("%s differs from %s", got, want);
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
  fixture *f = *state;
  generate_ok(small_spec, P("k"));
  counts c = {0};
  for_each_tb(P("k"), "kernel-1.traceg", count_tb, &c);
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
  tg_spec *s = parse_ok(small_spec);
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

/* The body's classes come out in exactly the requested proportions. */
static void test_mix_exact(void **state) {
  (void)state;
  tg_spec *s = parse_ok("kernel = m\ngrid = 1\nblock = 32\nnregs = 20\nbody = 20\n"
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

typedef struct plan_fix {
  tg_spec *s;
  tg_plan *plans;
} plan_fix;

static plan_fix plan_of(const char *text) {
  plan_fix pf = {parse_ok(text), NULL};
  rf_diag d = {{0}, 0};
  if (tg_plans_init(pf.s, &pf.plans, &d) < 0) fail_msg("%s", d.msg);
  return pf;
}

static void plan_done(plan_fix *pf) {
  tg_plans_free(pf->plans, pf->s->nkernels);
  tg_spec_free(pf->s);
}

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
  plan_fix pf = plan_of(SHAPE "load = global coalesced\nload = global strided stride=128\n"
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
  plan_done(&pf);
}

static void test_pattern_random_and_broadcast(void **state) {
  (void)state;
  plan_fix pf = plan_of(SHAPE "load = global random footprint=4096\nload = global broadcast\n");
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
  plan_done(&pf);
}

static void test_pattern_shared_and_local(void **state) {
  (void)state;
  plan_fix pf = plan_of(SHAPE "load = shared coalesced offset=256\nstore = local coalesced\n");
  const tg_plan *p = &pf.plans[0];
  uint64_t a[32];
  /* shared: offsets within the block's window, wrapping at shmem - offset = 768 bytes */
  tg_plan_addresses(p, find_inst(p, 0, TG_ROLE_PLAIN, 0), 3, 1, 2, 0xffffffffu, a);
  for (int l = 0; l < 32; l++) assert_int_equal(a[l], 256 + ((2 * 64 + 32 + l) * 4) % 768);
  /* local: above the local window base, per-thread slots interleaved across the grid */
  tg_plan_addresses(p, find_inst(p, 1, TG_ROLE_PLAIN, 0), 3, 1, 2, 0xffffffffu, a);
  for (int l = 0; l < 32; l++)
    assert_int_equal(a[l], TG_LOCAL_BASE + ((2 * 256 + 3 * 64 + 32 + l) * 4) % (64 * 256));
  plan_done(&pf);
}

static void test_pattern_tiled(void **state) {
  (void)state;
  /* 16 threads = one 4x4 tile; 2 tile steps, so N = 8 and 4 tiles of C per matrix. */
  plan_fix pf = plan_of("kernel = mm\ngrid = 5\nblock = 16\nnregs = 16\nshmem = 128\n"
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
  plan_done(&pf);
}

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
  fixture *f = *state;
  static const char *spec =
      "kernel = all\ngrid = 3,2\nblock = 72\nnregs = 24\nshmem = 2048\niters = 3\nbody = 3\n"
      "barrier_every = 2\nimbalance = ray 1 4\n"
      "load = global coalesced\nload = global strided stride=256\n"
      "load = global random footprint=1099511627776   # deltas beyond 32 bits: listed\n"
      "load = shared window taps=2 stride=128\nload = global broadcast\n"
      "store = local coalesced\nstore = shared random at=end\n"
      "kernel = mm\ngrid = 4\nblock = 64\nnregs = 32\nshmem = 512\niters = 2\n"
      "load = global tiled tile=8\nstore = global coalesced width=16 at=end\n";
  generate_ok(spec, P("rt"));
  plan_fix pf = plan_of(spec);
  for (int k = 0; k < 2; k++) {
    replay r = {&pf.plans[k], 0, 0};
    char name[32];
    snprintf(name, sizeof name, "kernel-%d.traceg", k + 1);
    for_each_tb(P("rt"), name, replay_tb, &r);
    assert_true(r.checked > 100);
  }
  plan_done(&pf);
}

/* Accesses behind a bounds check (guard=): the warps past it issue the access with mask 0 and
 * the boundary warp with one lane, written as NVBit writes them; the trace reads back as
 * planned, and runs end to end with the exact warp- and thread-instruction counts. */
static void test_guarded_accesses(void **state) {
  fixture *f = *state;
  /* 4 blocks x 96 threads; guard 289 = 3 x 96 + 1: block 3's warp 0 keeps one lane, its warps
   * 1 and 2 are predicated off entirely for the guarded accesses */
  static const char *spec =
      "kernel = bounds\ngrid = 4\nblock = 96\nnregs = 16\nshmem = 512\niters = 3\nbody = 4\n"
      "load = global coalesced guard=289\nload = shared coalesced guard=300\n"
      "load = global strided stride=64\nstore = global coalesced at=end guard=289\n";
  generate_ok(spec, P("g"));
  size_t n;
  char *text = slurp(P("g/kernel-1.traceg"), &n);
  assert_non_null(strstr(text, " 00000000 1 R")); /* a predicated-off load ... */
  assert_non_null(strstr(text, " LDG.E 1 R3 4 1 0x0 0 \n")); /* ... in NVBit's mask-0 form */
  assert_non_null(strstr(text, " 00000000 0 STG.E 2 R"));
  assert_non_null(strstr(text, " 00000001 1 R")); /* the boundary warp's single lane */
  free(text);

  plan_fix pf = plan_of(spec);
  replay r = {&pf.plans[0], 0, 0};
  for_each_tb(P("g"), "kernel-1.traceg", replay_tb, &r);
  /* warps 1 and 2 of block 3 (threads 320..383) are past both guards: 3 global loads, 3 shared
   * loads and the store each; warp 0 (288..319) keeps one lane of the global accesses and 12
   * of the shared load */
  assert_int_equal(r.predicated_off, 2 * (3 + 3 + 1));
  counts c = {0};
  for_each_tb(P("g"), "kernel-1.traceg", count_tb, &c);
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
  plan_done(&pf);
}

/* ---- imbalance ---------------------------------------------------------------------------- */

static void test_imbalance_ray(void **state) {
  fixture *f = *state;
  static const char *spec = "kernel = ray\ngrid = 4\nblock = 256\nnregs = 16\niters = 5\n"
                            "body = 6\nimbalance = ray 2 10\nload = global coalesced\n";
  generate_ok(spec, P("ray"));
  plan_fix pf = plan_of(spec);
  const tg_plan *p = &pf.plans[0];
  counts c = {0};
  for_each_tb(P("ray"), "kernel-1.traceg", count_tb, &c);
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
  plan_done(&pf);
}

static void test_imbalance_st(void **state) {
  fixture *f = *state;
  generate_ok("kernel = st\ngrid = 2\nblock = 128\nnregs = 16\niters = 5\nbody = 6\n"
              "barrier_every = 1\nimbalance = st 2 0\nload = global coalesced\n",
              P("st"));
  counts c = {0};
  for_each_tb(P("st"), "kernel-1.traceg", count_tb, &c);
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

static void check_order(const fixture *f, const char *order, const int *want, int n) {
  char spec[512], dir[64];
  snprintf(spec, sizeof spec,
           "kernel = r\ngrid = 1\nblock = 32\nnregs = %d\niters = 4\nbody = 6\n"
           "reg_order = %s\nload = global coalesced\nstore = global coalesced\n",
           n, order);
  snprintf(dir, sizeof dir, "regs_%s", order);
  generate_ok(spec, P(dir));
  reg_use u = {0};
  for_each_tb(P(dir), "kernel-1.traceg", regs_tb, &u);
  assert_int_equal(u.n, n); /* every register 0..n-1 is used */
  assert_int_equal(u.max_reg, n - 1);
  assert_int_equal(u.read_before_write, 0); /* sources are values written earlier */
  if (want)
    for (int i = 0; i < n; i++) assert_int_equal(u.order[i], want[i]);
}

static void test_register_order(void **state) {
  fixture *f = *state;
  int asc[10], desc[10];
  for (int i = 0; i < 10; i++) asc[i] = i, desc[i] = 9 - i;
  const int inter[10] = {0, 5, 1, 6, 2, 7, 3, 8, 4, 9};
  check_order(f, "ascending", asc, 10);
  check_order(f, "descending", desc, 10);
  check_order(f, "interleaved", inter, 10);
  check_order(f, "random", NULL, 10);
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
  fixture *f = *state;
  /* Regenerating replaces the folder's content. */
  generate_ok(small_spec, P("out"));
  generate_ok("kernel = other\ngrid = 1\nblock = 32\nnregs = 8\n", P("out"));
  size_t n;
  char *text = slurp(P("out/kernel-1.traceg"), &n);
  assert_non_null(strstr(text, "-kernel name = other\n"));
  free(text);
  /* rfsim's binary trace caches beside the traces are derived from them: replaced too. */
  FILE *c = fopen(P("out/kernel-1.traceg.rfc"), "w");
  assert_non_null(c);
  fclose(c);
  c = fopen(P("out/kernel-1.traceg.rfc.partial.123"), "w");
  assert_non_null(c);
  fclose(c);
  generate_ok(small_spec, P("out"));
  assert_int_equal(count_entries(P("out"), ".rfc"), 0);
  /* A folder holding anything else is not replaced, and nothing is left behind. */
  FILE *x = fopen(P("out/notes.txt"), "w");
  assert_non_null(x);
  fclose(x);
  tg_spec *s = parse_ok(small_spec);
  rf_diag d = {{0}, 0};
  assert_int_equal(tg_generate(s, P("out"), TG_STREAM_PLAIN, &d), -1);
  tg_spec_free(s);
  assert_non_null(strstr(d.msg, "found 'notes.txt'"));
  assert_int_equal(access(P("out/notes.txt"), F_OK), 0);
  assert_int_equal(count_entries(f->dir, ".tmp."), 0);
  assert_int_equal(count_entries(f->dir, ".old."), 0);
}

/* ---- tracetile ---------------------------------------------------------------------------- */

typedef struct tile_check {
  long tbs;
  long counts[16][8]; /* per output block, per warp */
} tile_check;

static void tile_tb(const trace_kernel_info *info, const trace_tb *tb, void *arg) {
  tile_check *t = arg;
  assert_int_equal(info->grid[0], 7);
  assert_int_equal(tb->id[0], t->tbs); /* blocks renumbered 0..N-1 in order */
  for (int w = 0; w < tb->nwarps && w < 8; w++) t->counts[t->tbs][w] = tb->warps[w].n;
  t->tbs++;
}

static void orig_tb(const trace_kernel_info *info, const trace_tb *tb, void *arg) {
  (void)info;
  tile_check *t = arg;
  for (int w = 0; w < tb->nwarps && w < 8; w++) t->counts[t->tbs][w] = tb->warps[w].n;
  t->tbs++;
}

static void test_tracetile(void **state) {
  fixture *f = *state;
  generate_ok("kernel = t\ngrid = 3\nblock = 96\nnregs = 12\niters = 4\nimbalance = ray 1 6\n"
              "load = global coalesced\n",
              P("orig"));
  rf_diag d = {{0}, 0};
  if (tg_tile(P("orig/kernelslist.g"), P("tiled"), 7, TG_STREAM_PLAIN, &d) < 0)
    fail_msg("%s", d.msg);
  tile_check orig = {0}, tiled = {0};
  for_each_tb(P("orig"), "kernel-1.traceg", orig_tb, &orig);
  for_each_tb(P("tiled"), "kernel-1.traceg", tile_tb, &tiled);
  assert_int_equal(tiled.tbs, 7);
  for (int i = 0; i < 7; i++)
    for (int w = 0; w < 3; w++) assert_int_equal(tiled.counts[i][w], orig.counts[i % 3][w]);
  assert_true(same_file(P("orig/kernelslist.g"), P("tiled/kernelslist.g")));
  /* --xz: the same blocks, from kernel-1.traceg.xz */
  if (tg_tile(P("orig/kernelslist.g"), P("tiledxz"), 7, TG_STREAM_XZ, &d) < 0) fail_msg("%s", d.msg);
  char text_path[1100], xz_path[1100];
  snprintf(text_path, sizeof text_path, "%s", P("tiled/kernel-1.traceg"));
  snprintf(xz_path, sizeof xz_path, "%s", P("tiledxz/kernel-1.traceg.xz"));
  long n;
  tu_compare_kernels(text_path, xz_path, NULL, &n);
  assert_int_equal(n, 7);
  /* Tiling to the original count reproduces the file byte for byte. */
  assert_int_equal(tg_tile(P("orig/kernelslist.g"), P("same"), 3, TG_STREAM_PLAIN, &d), 0);
  assert_true(same_file(P("orig/kernel-1.traceg"), P("same/kernel-1.traceg")));
  assert_int_equal(tg_tile(P("orig/kernelslist.g"), P("bad"), 0, TG_STREAM_PLAIN, &d), -1);
  assert_string_equal(d.msg, "expected --tbs between 1 and 2147483647, found 0");
  /* an input grid whose product overflows is refused with its sizes as read */
  FILE *fp = fopen(P("big/kernel-1.traceg"), "w");
  if (!fp) {
    assert_int_equal(mkdir(P("big"), 0755), 0);
    fp = fopen(P("big/kernel-1.traceg"), "w");
  }
  assert_non_null(fp);
  fputs("-kernel name = k\n-grid dim = (2000000000,2000000000,65529)\n#BEGIN_TB\n#END_TB\n", fp);
  fclose(fp);
  fp = fopen(P("big/kernelslist.g"), "w");
  assert_non_null(fp);
  fputs("kernel-1.traceg\n", fp);
  fclose(fp);
  assert_int_equal(tg_tile(P("big/kernelslist.g"), P("bigout"), 2, TG_STREAM_PLAIN, &d), -1);
  assert_non_null(strstr(d.msg, "big/kernel-1.traceg:2: -grid dim: expected at most 2147483647 "
                                "thread blocks (x*y*z), found (2000000000,2000000000,65529)"));
}

/* ---- the real traces (skipped when ../shared is absent) ----------------------------------- */

static const char *shared_dir(void) {
  const char *s = getenv("SHARED");
  return s && *s ? s : "../shared";
}

static int info_of_list(const char *list, uint64_t *warp_insts, uint64_t *thread_insts) {
  rf_diag d = {{0}, 0};
  trace_list *l;
  if (trace_list_read(list, &l, &d) < 0) fail_msg("%s", d.msg);
  *warp_insts = *thread_insts = 0;
  for (int c = 0; c < l->ncmds; c++) {
    if (l->cmds[c].kind != TRACE_CMD_KERNEL) continue;
    tg_info s;
    trace_kernel_info in;
    tg_info_init(&s);
    if (tg_info_kernel(l->cmds[c].path, &in, &s, &d) < 0) fail_msg("%s", d.msg);
    *warp_insts += s.warp_insts;
    *thread_insts += s.thread_insts;
    tg_info_free(&s);
  }
  trace_list_free(l);
  return 0;
}

static void test_real_traces(void **state) {
  fixture *f = *state;
  char mm[512], va[512];
  snprintf(mm, sizeof mm, "%s/traces/matrixmul_sm61/kernelslist.g", shared_dir());
  snprintf(va, sizeof va, "%s/traces/vectoradd_sm61/kernelslist.g", shared_dir());
  if (access(mm, R_OK) || access(va, R_OK)) skip();
  uint64_t w, t;
  info_of_list(mm, &w, &t);
  assert_int_equal(w, 4416);
  assert_int_equal(t, 139264);
  info_of_list(va, &w, &t);
  assert_int_equal(w, 344);
  assert_int_equal(t, 10516);
  /* The benchmark's input: matrixmul tiled to 240 blocks. */
  rf_diag d = {{0}, 0};
  if (tg_tile(mm, P("mm240"), 240, TG_STREAM_PLAIN, &d) < 0) fail_msg("%s", d.msg);
  info_of_list(P("mm240/kernelslist.g"), &w, &t);
  assert_int_equal(w, 1059840);
  assert_int_equal(t, 139264ull * 240);
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
      cmocka_unit_test_setup_teardown(test_same_spec_same_bytes, setup, teardown),
      cmocka_unit_test_setup_teardown(test_golden_fixture, setup, teardown),
      cmocka_unit_test_setup_teardown(test_exact_counts, setup, teardown),
      cmocka_unit_test(test_mix_exact),
      cmocka_unit_test(test_pattern_coalesced_strided_window),
      cmocka_unit_test(test_pattern_random_and_broadcast),
      cmocka_unit_test(test_pattern_shared_and_local),
      cmocka_unit_test(test_pattern_tiled),
      cmocka_unit_test(test_address_compression),
      cmocka_unit_test_setup_teardown(test_reader_roundtrip, setup, teardown),
      cmocka_unit_test_setup_teardown(test_guarded_accesses, setup, teardown),
      cmocka_unit_test_setup_teardown(test_imbalance_ray, setup, teardown),
      cmocka_unit_test_setup_teardown(test_imbalance_st, setup, teardown),
      cmocka_unit_test_setup_teardown(test_register_order, setup, teardown),
      cmocka_unit_test(test_malformed_specs),
      cmocka_unit_test(test_oversized_specs),
      cmocka_unit_test_setup_teardown(test_output_folder_safety, setup, teardown),
      cmocka_unit_test_setup_teardown(test_tracetile, setup, teardown),
      cmocka_unit_test_setup_teardown(test_real_traces, setup, teardown),
      cmocka_unit_test(test_suite_specs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
