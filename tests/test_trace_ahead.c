/* The trace read ahead on a thread of its own (csim/trace/trace_ahead.h): the blocks, their
 * order, the end and the failure of trace_kernel_next_tb, from the text and from the binary
 * cache, with the ring filled and emptied many times over, and with one block ahead at most;
 * also when started after the first block; how far it reads ahead; stopped at any point, it
 * frees what it read (the sanitizer build's leak check) and does not hang; and when reading
 * ahead pays. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../csim/trace/trace_ahead.h"
#include "common/test_util.h"

enum { BLOCKS = 45, BAD_BLOCK = 29 }; /* several times the reader's ring */

static const char *const bodies[] = {
    "1 R1 IMAD.MOV.U32 1 R2 0\n1 R3 LDG.E 1 R4 4 1 0x1000 4\n0 EXIT 0 0\n",
    "1 R1 IMAD.MOV.U32 1 R2 0\n0 EXIT 0 0\n",
};

/* Each test's folder (tu_fixture): a good kernel, GOOD, and one whose block BAD_BLOCK cannot
 * be read, BAD; the binary cache goes in CACHE. */
#define GOOD tu_path_in(f, "good.traceg").s
#define BAD tu_path_in(f, "bad.traceg").s
#define CACHE tu_path_in(f, "cache").s

static int setup(void **state) {
  if (tu_fixture_setup(state) != 0) return -1;
  const tu_fixture *f = *state;
  char *t = tu_kernel_text("ahead", BLOCKS, 3, 8, bodies, 2);
  assert_non_null(t);
  assert_int_equal(tu_write(f->dir, "good.traceg", t), 0);
  char at[64];
  snprintf(at, sizeof at, "thread block = %d,0,0\nwarp = 0\ninsts = ", BAD_BLOCK);
  char *p = strstr(t, at);
  assert_non_null(p);
  p[strlen(at)] = 'x'; /* "insts = x" */
  assert_int_equal(tu_write(f->dir, "bad.traceg", t), 0);
  free(t);
  return 0;
}

static trace_kernel *open_kernel(const char *path, trace_cache_mode mode, const char *cache) {
  trace_cache_opts o = {mode, cache, 0};
  trace_kernel *k;
  rf_diag d;
  if (trace_kernel_open_cached(path, &o, &k, &d) < 0) fail_msg("%s", d.msg);
  return k;
}

/* Reads `path` directly and (after `before` blocks read from it directly, as the simulator
 * reads the first) ahead side by side: the same blocks, then the same answer (0, or -1 with the
 * same message), twice. Returns the blocks read. */
static int compare_readers(const char *path, trace_cache_mode mode, const char *cache,
                           size_t max_bytes, int before) {
  trace_kernel *direct = open_kernel(path, TRACE_CACHE_OFF, cache);
  trace_kernel *k = open_kernel(path, mode, cache);
  /* every block kept until the end: a block taken is the taker's, whatever the ring reuses */
  trace_tb want[BLOCKS + 1], got[BLOCKS + 1];
  int n = 0, rw, rg;
  rf_diag d, dw, dg;
  for (; n < before; n++) {
    assert_int_equal(trace_kernel_next_tb(direct, &want[n], &dw), 1);
    assert_int_equal(trace_kernel_next_tb(k, &got[n], &dg), 1);
  }
  trace_ahead *a = trace_ahead_start(k, max_bytes, &d);
  assert_non_null(a);
  for (;;) {
    assert_true(n <= BLOCKS);
    rw = trace_kernel_next_tb(direct, &want[n], &dw);
    rg = trace_ahead_next(a, &got[n], &dg);
    assert_int_equal(rg, rw);
    if (rw <= 0) break;
    n++;
  }
  for (int i = 0; i < n; i++) tu_assert_same_tb(&want[i], &got[i]);
  if (rw < 0) assert_string_equal(dg.msg, dw.msg);
  /* asked again after the end: the same answer */
  trace_tb again;
  rf_diag d2;
  assert_int_equal(trace_ahead_next(a, &again, &d2), rg);
  if (rg < 0) assert_string_equal(d2.msg, dg.msg);
  trace_ahead_stop(a);
  for (int i = 0; i < n; i++) {
    trace_tb_free(&want[i]);
    trace_tb_free(&got[i]);
  }
  trace_kernel_close(k);
  trace_kernel_close(direct);
  return n;
}

static void test_blocks_as_the_reader_gives_them(void **state) {
  const tu_fixture *f = *state;
  assert_int_equal(compare_readers(GOOD, TRACE_CACHE_OFF, CACHE, TRACE_AHEAD_BYTES, 0),
                   BLOCKS);
  /* from the text while writing the cache, then from the cache */
  assert_int_equal(compare_readers(GOOD, TRACE_CACHE_REBUILD, CACHE, TRACE_AHEAD_BYTES, 0),
                   BLOCKS);
  assert_int_equal(compare_readers(GOOD, TRACE_CACHE_ON, CACHE, TRACE_AHEAD_BYTES, 0), BLOCKS);
  /* one block ahead at most: the two sides wait for each other at every block */
  assert_int_equal(compare_readers(GOOD, TRACE_CACHE_ON, CACHE, 1, 0), BLOCKS);
  /* started after the first block, from the text and from the cache */
  assert_int_equal(compare_readers(GOOD, TRACE_CACHE_OFF, CACHE, TRACE_AHEAD_BYTES, 1),
                   BLOCKS);
  assert_int_equal(compare_readers(GOOD, TRACE_CACHE_ON, CACHE, TRACE_AHEAD_BYTES, 1), BLOCKS);
}

static void test_failure_where_the_reader_fails(void **state) {
  const tu_fixture *f = *state;
  assert_int_equal(compare_readers(BAD, TRACE_CACHE_OFF, CACHE, TRACE_AHEAD_BYTES, 0),
                   BAD_BLOCK);
  assert_int_equal(compare_readers(BAD, TRACE_CACHE_OFF, CACHE, 1, 0), BAD_BLOCK);
  assert_int_equal(compare_readers(BAD, TRACE_CACHE_OFF, CACHE, 1, 1), BAD_BLOCK);
}

/* trace_ahead_pays for a kernel written as `name` (ntb blocks of nwarps warps running body),
 * opened in `mode` after a run that wrote its cache, judged by its first block; *bytes gets
 * that block's size. */
static int pays(const tu_fixture *f, const char *name, int ntb, int nwarps, const char *body,
                trace_cache_mode mode, size_t *bytes) {
  const char *bodies[] = {body};
  char *t = tu_kernel_text(name, ntb, nwarps, 8, bodies, 1);
  assert_non_null(t);
  assert_int_equal(tu_write(f->dir, name, t), 0);
  free(t);
  tu_path p = tu_path_in(f, name);
  const char *path = p.s;
  trace_tb tb;
  rf_diag d;
  trace_kernel *k = open_kernel(path, TRACE_CACHE_REBUILD, CACHE);
  while (trace_kernel_next_tb(k, &tb, &d) > 0) trace_tb_free(&tb);
  trace_kernel_close(k);
  k = open_kernel(path, mode, CACHE);
  assert_int_equal(trace_kernel_reads_cache(k), mode == TRACE_CACHE_ON);
  assert_int_equal(trace_kernel_next_tb(k, &tb, &d), 1);
  *bytes = trace_tb_bytes(&tb);
  int r = trace_ahead_pays(k, &tb);
  trace_tb_free(&tb);
  trace_kernel_close(k);
  return r;
}

/* Blocks parsed from the text are read ahead; from the cache, only blocks of
 * TRACE_AHEAD_MIN_BLOCK_BYTES or more; a kernel of one block, never. */
static void test_when_reading_ahead_pays(void **state) {
  const tu_fixture *f = *state;
  char big[4096] = "";
  for (int i = 0; i < 40; i++) strcat(big, "1 R1 IMAD.MOV.U32 1 R2 0\n");
  strcat(big, "0 EXIT 0 0\n");
  size_t small_bytes, big_bytes, one_bytes;
  assert_true(pays(f, "small.traceg", 4, 2, bodies[1], TRACE_CACHE_OFF, &small_bytes));
  assert_false(pays(f, "small.traceg", 4, 2, bodies[1], TRACE_CACHE_ON, &small_bytes));
  assert_true(small_bytes < TRACE_AHEAD_MIN_BLOCK_BYTES);
  assert_true(pays(f, "big.traceg", 4, 32, big, TRACE_CACHE_ON, &big_bytes));
  assert_true(big_bytes >= TRACE_AHEAD_MIN_BLOCK_BYTES);
  assert_false(pays(f, "one.traceg", 1, 32, big, TRACE_CACHE_OFF, &one_bytes));
  assert_false(pays(f, "one.traceg", 1, 32, big, TRACE_CACHE_ON, &one_bytes));
}

/* Stopped before the first block, after one (the reader waiting on a full ring or reading),
 * and after the end: no hang, and the blocks it read and nobody took are freed. */
static void test_stop_anywhere(void **state) {
  const tu_fixture *f = *state;
  for (int taken = 0; taken <= BLOCKS + 1; taken += taken < 3 ? 1 : 11) {
    trace_kernel *k = open_kernel(GOOD, TRACE_CACHE_OFF, CACHE);
    rf_diag d;
    trace_ahead *a = trace_ahead_start(k, TRACE_AHEAD_BYTES, &d);
    assert_non_null(a);
    for (int i = 0; i < taken; i++) {
      trace_tb tb;
      int r = trace_ahead_next(a, &tb, &d);
      assert_int_equal(r, i < BLOCKS);
      if (r > 0) trace_tb_free(&tb);
    }
    trace_ahead_stop(a);
    trace_kernel_close(k);
  }
  trace_ahead_stop(NULL);
}

static void pause_ms(long ms) {
  struct timespec t = {ms / 1000, ms % 1000 * 1000000};
  nanosleep(&t, NULL);
}

/* Waits (up to 10 s) until the reader has `n` blocks waiting. */
static void await_ready(trace_ahead *a, int n) {
  for (int i = 0; i < 10000 && trace_ahead_ready(a) != n; i++) pause_ms(1);
  assert_int_equal(trace_ahead_ready(a), n);
}

/* It reads 8 blocks ahead and stops there; with a byte budget smaller than a block, one. */
static void test_how_far_ahead(void **state) {
  const tu_fixture *f = *state;
  const size_t budgets[] = {TRACE_AHEAD_BYTES, 1};
  const int depth[] = {8, 1};
  for (int b = 0; b < 2; b++) {
    trace_kernel *k = open_kernel(GOOD, TRACE_CACHE_OFF, CACHE);
    rf_diag d;
    trace_ahead *a = trace_ahead_start(k, budgets[b], &d);
    assert_non_null(a);
    await_ready(a, depth[b]);
    pause_ms(50); /* (a reader past its bound would have read more by now) */
    assert_int_equal(trace_ahead_ready(a), depth[b]);
    trace_tb tb;
    assert_int_equal(trace_ahead_next(a, &tb, &d), 1);
    trace_tb_free(&tb);
    await_ready(a, depth[b]); /* the taken one replaced */
    trace_ahead_stop(a);
    trace_kernel_close(k);
  }
}

#define WITH_KERNELS(test) cmocka_unit_test_setup_teardown(test, setup, tu_fixture_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      WITH_KERNELS(test_blocks_as_the_reader_gives_them),
      WITH_KERNELS(test_failure_where_the_reader_fails),
      WITH_KERNELS(test_stop_anywhere),
      WITH_KERNELS(test_how_far_ahead),
      WITH_KERNELS(test_when_reading_ahead_pays),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
