/* The trace read ahead on a thread of its own (csim/trace/trace_ahead.h): the blocks, their
 * order, the end and the failure of trace_kernel_next_tb, from the text and from the binary
 * cache, with the ring filled and emptied many times over, and with one block ahead at most;
 * how far it reads ahead; stopped at any point, it frees what it read (the sanitizer build's
 * leak check) and does not hang. */
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

/* Reads `path` directly and ahead side by side: the same blocks, then the same answer (0, or
 * -1 with the same message), twice. Returns the blocks read. */
static int compare_readers(const char *path, trace_cache_mode mode, const char *cache,
                           size_t max_bytes) {
  trace_kernel *direct = open_kernel(path, TRACE_CACHE_OFF, cache);
  trace_kernel *k = open_kernel(path, mode, cache);
  rf_diag d;
  trace_ahead *a = trace_ahead_start(k, max_bytes, &d);
  assert_non_null(a);
  /* every block kept until the end: a block taken is the taker's, whatever the ring reuses */
  trace_tb want[BLOCKS + 1], got[BLOCKS + 1];
  int n = 0, rw, rg;
  rf_diag dw, dg;
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
  assert_int_equal(compare_readers(GOOD, TRACE_CACHE_OFF, CACHE, TRACE_AHEAD_BYTES), BLOCKS);
  /* from the text while writing the cache, then from the cache */
  assert_int_equal(compare_readers(GOOD, TRACE_CACHE_REBUILD, CACHE, TRACE_AHEAD_BYTES),
                   BLOCKS);
  assert_int_equal(compare_readers(GOOD, TRACE_CACHE_ON, CACHE, TRACE_AHEAD_BYTES), BLOCKS);
  /* one block ahead at most: the two sides wait for each other at every block */
  assert_int_equal(compare_readers(GOOD, TRACE_CACHE_ON, CACHE, 1), BLOCKS);
}

static void test_failure_where_the_reader_fails(void **state) {
  const tu_fixture *f = *state;
  assert_int_equal(compare_readers(BAD, TRACE_CACHE_OFF, CACHE, TRACE_AHEAD_BYTES),
                   BAD_BLOCK);
  assert_int_equal(compare_readers(BAD, TRACE_CACHE_OFF, CACHE, 1), BAD_BLOCK);
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
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
