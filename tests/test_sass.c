/* The SASS interpreter without the CUDA toolkit: the committed cubins and listings of
 * cuda/isa/isa.cu and tests/fixtures/sass/faults.cu, for sm_61 (isa, faults) and sm_70 (isa70,
 * faults70; regenerate them with tools/sass_fixture.sh) are loaded and run as rfsim-trace's
 * runtime would run them. Every isa family's results must
 * equal the C reference (cuda/isa/isa_ref.h) on edge-case and random inputs; the trace of a
 * launch must read back through rfsim's trace reader with every executed warp instruction; bad
 * kernels (out of bounds, misaligned, endless, deadlocked) stop with the kernel, CTA, warp, lane
 * and PC; bad input (an unknown instruction or modifier, a truncated cubin, a listing without
 * the kernel) is refused with a message naming it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/sass/sass_module.h"
#include "../csim/sass/sass_run.h"
#include "../csim/trace/trace.h"
#include "../cuda/isa/isa_ref.h"
#include "common/test_util.h"

#define FIX "tests/fixtures/sass/"

/* loads NAME.cubin with NAME.sass (the listing text optionally edited by the caller) */
static int load(const char *name, const char *listing, size_t llen, sass_module *m,
                sass_devmem *mem, rf_diag *d) {
  char p[256];
  size_t clen;
  snprintf(p, sizeof p, FIX "%s.cubin", name);
  char *cubin = tu_slurp(p, &clen);
  int rc = sass_module_load(m, (const uint8_t *)cubin, clen, p, listing, llen, "listing", mem, d);
  free(cubin);
  return rc;
}

static int load_fixture(const char *name, sass_module *m, sass_devmem *mem, rf_diag *d) {
  char p[256];
  size_t llen;
  snprintf(p, sizeof p, FIX "%s.sass", name);
  char *listing = tu_slurp(p, &llen);
  int rc = load(name, listing, llen, m, mem, d);
  free(listing);
  return rc;
}

/* runs kernel `name` of m with two pointer parameters */
/* a launch; trace_nregs: the registers per thread its trace header gives (0: the cubin's) */
static int run2(sass_module *m, sass_devmem *mem, const char *name, uint64_t p0, uint64_t p1,
                uint32_t blocks, uint32_t threads, uint32_t dyn, tg_stream *trace, int trace_nregs,
                rf_diag *d, sass_run_stats *st) {
  int k = sass_module_kernel(m, name);
  assert_true(k >= 0);
  uint64_t params[2] = {p0, p1};
  sass_launch L = {.grid = {blocks, 1, 1}, .block = {threads, 1, 1}, .dyn_shared = dyn,
                   .params = (const uint8_t *)params, .params_bytes = m->k[k].info->param_bytes,
                   .budget = 2000000, .trace = trace, .trace_path = "trace", .trace_id = 1,
                   .trace_nregs = trace_nregs};
  return sass_run(m, k, &L, mem, st, d);
}

static void report(int family, int t, int k, uint32_t want, uint32_t got) {
  fprintf(stderr, "isa %s: thread %d word %d: expected 0x%08x, got 0x%08x\n",
          isa_family_names[family], t, k, want, got);
}

static const char *const isa_kernels[ISA_FAMILIES] = {
    "_Z7isa_intPKjPj",   "_Z8isa_widePKjPj",   "_Z9isa_floatPKjPj",   "_Z10isa_doublePKjPj",
    "_Z8isa_ctrlPKjPj",  "_Z9isa_blockPKjPj",  "_Z7isa_memPKjPj",     "_Z9isa_fpathPKjPj",
    "_Z9isa_splitPKjPj", "_Z9isa_videoPKjPj",  "_Z10isa_fconstPKjPj", "_Z10isa_searchPKjPj",
    "_Z9isa_pairsPKjPj", "_Z7isa_sfuPKjPj"};

/* one family: inputs in, 0xee.. out, launch, compare with the reference */
static int run_family(sass_module *m, sass_devmem *mem, int f, tg_stream *trace, int trace_nregs,
                      sass_run_stats *st) {
  uint32_t in[ISA_THREADS * ISA_IN], out[ISA_THREADS * ISA_OUT];
  uint64_t din, dout;
  rf_diag d;
  assert_int_equal(sass_devmem_alloc(mem, sizeof in, &din, &d), 0);
  assert_int_equal(sass_devmem_alloc(mem, sizeof out, &dout, &d), 0);
  isa_inputs(f, in, ISA_THREADS);
  memcpy(sass_devmem_at(mem, din, sizeof in), in, sizeof in);
  memset(sass_devmem_at(mem, dout, sizeof out), 0xee, sizeof out);
  int rc = run2(m, mem, isa_kernels[f], din, dout, ISA_THREADS / ISA_BLOCK, ISA_BLOCK,
                ISA_BLOCK * 4, trace, trace_nregs, &d, st);
  if (rc < 0) fprintf(stderr, "%s\n", d.msg);
  assert_int_equal(rc, 0);
  memcpy(out, sass_devmem_at(mem, dout, sizeof out), sizeof out);
  return isa_check(f, in, out, ISA_THREADS, report);
}

static void set_ctab(sass_module *m, sass_devmem *mem) {
  uint64_t addr, size;
  assert_int_equal(sass_module_symbol(m, "ctab", &addr, &size), 0);
  assert_int_equal(size, ISA_CTAB * 4);
  uint32_t *c = (uint32_t *)sass_devmem_at(mem, addr, size);
  assert_non_null(c);
  for (int k = 0; k < ISA_CTAB; k++) c[k] = isa_ctab(k);
}

static void isa_families(const char *fixture, int sm) {
  sass_devmem mem;
  sass_devmem_init(&mem, 1ull << 30);
  sass_module m;
  rf_diag d;
  if (load_fixture(fixture, &m, &mem, &d) < 0) fail_msg("%s", d.msg);
  assert_int_equal(m.sm, sm);
  set_ctab(&m, &mem);
  for (int f = 0; f < ISA_FAMILIES; f++) {
    int bad = run_family(&m, &mem, f, NULL, 0, NULL);
    if (bad) fail_msg("isa %s (sm_%d): %d words differ", isa_family_names[f], sm, bad);
  }
  sass_module_unload(&m);
  sass_devmem_free_all(&mem);
}

static void test_isa_families(void **state) {
  (void)state;
  isa_families("isa", 61);
}

/* Volta: the same program's sm_70 code, run with per-lane PCs and convergence barriers */
static void test_isa_families_sm70(void **state) {
  (void)state;
  isa_families("isa70", 70);
}

/* loads the isa fixture into m and mem and runs a family, its trace at path (xz-compressed if
 * path ends in .xz; trace_nregs as run2 takes it); the caller unloads */
static void trace_family(const char *path, int family, int trace_nregs, sass_module *m,
                         sass_devmem *mem, sass_run_stats *st) {
  sass_devmem_init(mem, 1ull << 30);
  rf_diag d;
  if (load_fixture("isa", m, mem, &d) < 0) fail_msg("%s", d.msg);
  set_ctab(m, mem);
  size_t n = strlen(path);
  int xz = n > 3 && !strcmp(path + n - 3, ".xz");
  tg_stream *f = tg_stream_open(path, xz ? TG_STREAM_XZ : TG_STREAM_PLAIN, &d);
  if (!f) fail_msg("%s", d.msg);
  assert_int_equal(run_family(m, mem, family, f, trace_nregs, st), 0);
  if (tg_stream_close(f, &d) < 0) fail_msg("%s", d.msg);
}

/* reads a trace back through rfsim's reader: its thread blocks (each of the launch's shape)
 * and warp instructions */
static void read_back(const char *path, uint64_t *tbs, uint64_t *insts) {
  trace_kernel *k;
  rf_diag d;
  if (trace_kernel_open(path, &k, &d) < 0) fail_msg("%s", d.msg);
  trace_tb tb;
  memset(&tb, 0, sizeof tb);
  *tbs = *insts = 0;
  int rc;
  while ((rc = trace_kernel_next_tb(k, &tb, &d)) == 1) {
    ++*tbs;
    assert_int_equal(tb.nwarps, ISA_BLOCK / 32);
    for (int w = 0; w < tb.nwarps; w++) *insts += tb.warps[w].n;
    trace_tb_free(&tb);
  }
  if (rc < 0) fail_msg("%s", d.msg);
  trace_kernel_close(k);
}

/* the same launch twice gives the same trace byte for byte; rfsim's reader reads back every
 * executed warp instruction, in blocks of the launch's shape, from it and from the xz form
 * (rfsim-trace -xz) */
static void test_trace_reads_back(void **state) {
  (void)state;
  char dir[256], path[3][512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  char *text[2] = {NULL, NULL};
  sass_run_stats st[3];
  memset(st, 0, sizeof st);
  for (int run = 0; run < 3; run++) {
    sass_devmem mem;
    sass_module m;
    snprintf(path[run], sizeof path[run], "%s/kernel-%d.traceg%s", dir, run + 1,
             run == 2 ? ".xz" : "");
    trace_family(path[run], ISA_CTRL, 0, &m, &mem, &st[run]);
    size_t n;
    if (run < 2) text[run] = tu_slurp(path[run], &n);
    sass_module_unload(&m);
    sass_devmem_free_all(&mem);
  }
  assert_string_equal(text[0], text[1]);
  for (int run = 0; run < 3; run += 2) {
    uint64_t tbs, insts;
    read_back(path[run], &tbs, &insts);
    assert_int_equal(tbs, ISA_THREADS / ISA_BLOCK);
    assert_int_equal(insts, st[run].warp_insts);
  }
  free(text[0]);
  free(text[1]);
  tu_rmtree(dir);
}

/* the trace header's registers per thread: the cubin's, or what the launch allocates instead
 * (rfsim-trace -regs), the results the same */
static void test_trace_allocated_regs(void **state) {
  (void)state;
  char dir[256], path[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
  for (int alloc = 0; alloc <= 64; alloc += 64) {
    sass_devmem mem;
    sass_module m;
    rf_diag d;
    trace_family(path, ISA_INT, alloc, &m, &mem, NULL);
    trace_kernel *k;
    if (trace_kernel_open(path, &k, &d) < 0) fail_msg("%s", d.msg);
    int cubin = m.k[sass_module_kernel(&m, isa_kernels[ISA_INT])].info->nregs;
    assert_true(cubin < 64);
    assert_int_equal(trace_kernel_get_info(k)->nregs, alloc ? alloc : cubin);
    trace_kernel_close(k);
    sass_module_unload(&m);
    sass_devmem_free_all(&mem);
  }
  tu_rmtree(dir);
}

/* a kernel that must stop: the message names what and where */
static void expect_fault(const char *fixture, const char *kernel, uint32_t threads,
                         const char *what) {
  sass_devmem mem;
  sass_devmem_init(&mem, 1ull << 30);
  sass_module m;
  rf_diag d;
  if (load_fixture(fixture, &m, &mem, &d) < 0) fail_msg("%s", d.msg);
  uint64_t a, b;
  assert_int_equal(sass_devmem_alloc(&mem, threads * 4, &a, &d), 0);
  assert_int_equal(sass_devmem_alloc(&mem, threads * 4, &b, &d), 0);
  int rc = run2(&m, &mem, kernel, a, b, 1, threads, 0, NULL, 0, &d, NULL);
  assert_int_equal(rc, -1);
  if (getenv("TEST_SASS_VERBOSE")) fprintf(stderr, "%s\n", d.msg);
  if (!strstr(d.msg, what) || !strstr(d.msg, "kernel ") || !strstr(d.msg, "CTA (0,0,0)"))
    fail_msg("message '%s' does not say '%s' and where", d.msg, what);
  sass_module_unload(&m);
  sass_devmem_free_all(&mem);
}

static void test_faults(void **state) {
  (void)state;
  for (int v = 0; v < 2; v++) {
    const char *fx = v ? "faults70" : "faults";
    expect_fault(fx, "_Z5k_oobPi", 64, "outside every allocation");
    expect_fault(fx, "_Z5k_oobPi", 64, "lane 31 (thread 63)");
    expect_fault(fx, "_Z12k_misalignedPKiPi", 32, "misaligned global load of 4 bytes");
    expect_fault(fx, "_Z6k_spinPViPi", 32, "instruction budget of 2000000 warp instructions");
    expect_fault(fx, "_Z10k_deadlockPi", 64, "deadlock");
    expect_fault(fx, "_Z10k_deadlockPi", 64, "warp 0 at barrier 1");
  }
}

/* edits the isa listing (first occurrence of from -> to) and expects the load to fail with msg */
static void expect_refused(const char *from, const char *to, const char *msg) {
  size_t n;
  char *l = tu_slurp(FIX "isa.sass", &n);
  char *at = strstr(l, from);
  assert_non_null(at);
  size_t fl = strlen(from), tl = strlen(to);
  char *e = malloc(n - fl + tl + 1);
  assert_non_null(e);
  memcpy(e, l, (size_t)(at - l));
  memcpy(e + (at - l), to, tl);
  strcpy(e + (at - l) + tl, at + fl);
  sass_devmem mem;
  sass_devmem_init(&mem, 1ull << 30);
  sass_module m;
  rf_diag d;
  assert_int_equal(load("isa", e, strlen(e), &m, &mem, &d), -1);
  if (getenv("TEST_SASS_VERBOSE")) fprintf(stderr, "%s\n", d.msg);
  if (!strstr(d.msg, msg)) fail_msg("message '%s' does not say '%s'", d.msg, msg);
  assert_int_equal(mem.n, 0); /* nothing left allocated */
  sass_devmem_free_all(&mem);
  free(e);
  free(l);
}

static void test_bad_input(void **state) {
  (void)state;
  expect_refused("XMAD.PSL.CBCC", "XMAD.PSL.CBXX", "unsupported modifier .CBXX");
  expect_refused("FFMA R", "FROB R", "unsupported instruction FROB");
  expect_refused("Function : _Z7isa_intPKjPj", "Function : _Z7isa_xxxPKjPj",
                 "kernel _Z7isa_intPKjPj is not in the SASS listing");
  expect_refused("MOV R1, c[0x0][0x20]", "MOV R1, c[0x0][0x20], R7", "MOV");
  expect_refused("/*0010*/", "/*0001*/", "PCs in increasing order");
  /* a truncated cubin */
  size_t clen, llen;
  char *cubin = tu_slurp(FIX "isa.cubin", &clen), *listing = tu_slurp(FIX "isa.sass", &llen);
  sass_devmem mem;
  sass_devmem_init(&mem, 1ull << 30);
  sass_module m;
  rf_diag d;
  for (size_t cut = 0; cut < clen; cut += clen / 16 + 1) {
    int rc = sass_module_load(&m, (const uint8_t *)cubin, cut, "isa.cubin", listing, llen,
                              "isa.sass", &mem, &d);
    if (rc == 0) sass_module_unload(&m);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(d.msg, "isa.cubin"));
  }
  sass_devmem_free_all(&mem);
  free(cubin);
  free(listing);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_isa_families),
      cmocka_unit_test(test_isa_families_sm70),
      cmocka_unit_test(test_trace_allocated_regs),
      cmocka_unit_test(test_trace_reads_back),
      cmocka_unit_test(test_faults),
      cmocka_unit_test(test_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
