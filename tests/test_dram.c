/* DRAM channel timing: exact command schedules for GDDR5 (GTX 480) timing, worked out by hand
 * from the rules in csim/mem/dram.h. Requests are pushed before tick 1 unless said otherwise,
 * and tick t is followed by collecting the reads that are back by t. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "../csim/mem/dram.h"

static void gddr5(gpu_config *c) {
  memset(c, 0, sizeof *c);
  c->dram = (dram_timing){.nbk = 16, .tCCD = 2, .tRRD = 6, .tRCD = 12, .tRAS = 28, .tRP = 12,
                          .tRC = 40, .CL = 12, .WL = 4, .tCDLR = 5, .tWR = 12, .nbkgrp = 1};
  c->dram_buswidth = 4;
  c->dram_burst_length = 8;
  c->dram_data_command_freq_ratio = 2; /* burst of 8 beats = 4 command cycles */
  c->dram_latency = 100;
  c->dram_sched_queue_size = 16;
  c->dram_scheduler = 1;
  c->dram_row_bytes = 2048;
}

/* Channel-local address of (bank, row) under the column/bank/row split. */
static uint64_t at(uint32_t bank, uint64_t row) { return (row * 16 + bank) * 2048; }

static void push(dram_channel *ch, uint32_t bank, uint64_t row, uint32_t tag, int write,
                 uint8_t sectors) {
  mem_req r = {.a = {.addr = at(bank, row), .sector_mask = sectors, .is_write = (uint8_t)write}};
  assert_int_equal(dram_push(ch, &r, at(bank, row), tag, 0), 0);
}

typedef struct done {
  uint32_t tag;
  uint64_t t;
} done;

/* Ticks from..to inclusive, recording when each read comes back. */
static int run(dram_channel *ch, uint64_t from, uint64_t to, done *out, int n) {
  for (uint64_t t = from; t <= to; t++) {
    dram_tick(ch, t);
    mem_req a;
    uint32_t tag;
    while (dram_peek_return(ch, t, &a, &tag)) {
      out[n].tag = tag;
      out[n].t = t;
      n++;
      dram_pop_return(ch);
    }
  }
  return n;
}

static void test_decode(void **state) {
  (void)state;
  gpu_config c;
  gddr5(&c);
  dram_stats st = {0};
  dram_channel *ch = dram_create(&c, &st, NULL);
  assert_non_null(ch);
  uint32_t bank;
  uint64_t row;
  dram_decode(ch, at(3, 5) + 100, &bank, &row);
  assert_int_equal(bank, 3);
  assert_int_equal(row, 5);
  dram_decode(ch, 2047, &bank, &row); /* the whole 2 KB row is one bank */
  assert_int_equal(bank, 0);
  assert_int_equal(row, 0);
  dram_destroy(ch);
}

/* Closed bank: ACT at 1, RD at 1+tRCD=13, data 25..29, back at 29+100. */
static void test_closed_bank_read(void **state) {
  (void)state;
  gpu_config c;
  gddr5(&c);
  dram_stats st = {0};
  dram_channel *ch = dram_create(&c, &st, NULL);
  push(ch, 0, 0, 7, 0, 0x1);
  done d[4];
  int n = run(ch, 1, 300, d, 0);
  assert_int_equal(n, 1);
  assert_int_equal(d[0].tag, 7);
  assert_int_equal(d[0].t, 129);
  assert_int_equal(st.reads, 1);
  assert_int_equal(st.row_misses, 1);
  assert_int_equal(st.row_hits, 0);
  assert_int_equal(st.busy_cycles, 4);
  assert_false(dram_busy(ch));
  dram_destroy(ch);
}

/* Row hit: RD at once (117 cycles); row conflict: PRE, tRP, ACT, tRCD first (141 cycles). The
 * difference is exactly tRP + tRCD. */
static void test_row_hit_vs_conflict(void **state) {
  (void)state;
  gpu_config c;
  gddr5(&c);
  dram_stats st = {0};
  dram_channel *ch = dram_create(&c, &st, NULL);
  done d[4];
  push(ch, 0, 0, 1, 0, 0x1);
  int n = run(ch, 1, 200, d, 0);
  push(ch, 0, 0, 2, 0, 0x1); /* same row, at 200 */
  n = run(ch, 201, 400, d, n);
  push(ch, 0, 1, 3, 0, 0x1); /* other row, same bank, at 400 */
  n = run(ch, 401, 700, d, n);
  assert_int_equal(n, 3);
  assert_int_equal(d[1].t - 200, 117);
  assert_int_equal(d[2].t - 400, 141);
  assert_int_equal((d[2].t - 400) - (d[1].t - 200), c.dram.tRP + c.dram.tRCD);
  assert_int_equal(st.row_hits, 1);
  assert_int_equal(st.row_misses, 2);
  dram_destroy(ch);
}

/* X(row 0), Y(row 1), Z(row 0) to one bank. FR-FCFS serves Z (a hit after X) before Y. */
static void test_fr_fcfs_reorders(void **state) {
  (void)state;
  gpu_config c;
  gddr5(&c);
  dram_stats st = {0};
  dram_channel *ch = dram_create(&c, &st, NULL);
  push(ch, 0, 0, 'X', 0, 0x1);
  push(ch, 0, 1, 'Y', 0, 0x1);
  push(ch, 0, 0, 'Z', 0, 0x1);
  done d[4];
  int n = run(ch, 1, 400, d, 0);
  assert_int_equal(n, 3);
  assert_int_equal(d[0].tag, 'X');
  assert_int_equal(d[0].t, 129);
  assert_int_equal(d[1].tag, 'Z'); /* RD at 17: tCCD and the data bus after X */
  assert_int_equal(d[1].t, 133);
  assert_int_equal(d[2].tag, 'Y'); /* PRE at 29 (tRAS), ACT at 41 (tRC), RD at 53 */
  assert_int_equal(d[2].t, 169);
  assert_int_equal(st.row_hits, 1);
  assert_int_equal(st.row_misses, 2);
  dram_destroy(ch);
}

/* The same stream in FIFO order: Y, then Z reopens row 0 (PRE 69, ACT 81, RD 93). */
static void test_fifo_keeps_order(void **state) {
  (void)state;
  gpu_config c;
  gddr5(&c);
  c.dram_scheduler = 0;
  dram_stats st = {0};
  dram_channel *ch = dram_create(&c, &st, NULL);
  push(ch, 0, 0, 'X', 0, 0x1);
  push(ch, 0, 1, 'Y', 0, 0x1);
  push(ch, 0, 0, 'Z', 0, 0x1);
  done d[4];
  int n = run(ch, 1, 400, d, 0);
  assert_int_equal(n, 3);
  assert_int_equal(d[0].tag, 'X');
  assert_int_equal(d[1].tag, 'Y');
  assert_int_equal(d[1].t, 169);
  assert_int_equal(d[2].tag, 'Z');
  assert_int_equal(d[2].t, 209);
  assert_int_equal(st.row_hits, 0);
  assert_int_equal(st.row_misses, 3);
  dram_destroy(ch);
}

/* Two banks: the second ACT waits tRRD (ACT at 1 and 7), the reads overlap in the banks and
 * serialize on the data bus. */
static void test_bank_parallelism(void **state) {
  (void)state;
  gpu_config c;
  gddr5(&c);
  dram_stats st = {0};
  dram_channel *ch = dram_create(&c, &st, NULL);
  push(ch, 0, 0, 1, 0, 0x1);
  push(ch, 1, 0, 2, 0, 0x1);
  done d[4];
  int n = run(ch, 1, 300, d, 0);
  assert_int_equal(n, 2);
  assert_int_equal(d[0].t, 129);
  assert_int_equal(d[1].t, 135); /* RD at 19 = 7 + tRCD */
  assert_int_equal(st.row_misses, 2);
  dram_destroy(ch);
}

/* A write then a read of the same open row: the read waits for write data end + tCDLR. */
static void test_write_to_read_turnaround(void **state) {
  (void)state;
  gpu_config c;
  gddr5(&c);
  dram_stats st = {0};
  dram_channel *ch = dram_create(&c, &st, NULL);
  push(ch, 0, 0, 1, 1, 0x1);
  push(ch, 0, 0, 2, 0, 0x1);
  done d[4];
  int n = run(ch, 1, 300, d, 0);
  assert_int_equal(n, 1); /* writes are not returned */
  assert_int_equal(d[0].tag, 2);
  assert_int_equal(d[0].t, 142); /* WR 13, data 17..21, RD at 26, data 38..42 */
  assert_int_equal(st.writes, 1);
  assert_int_equal(st.reads, 1);
  assert_int_equal(st.row_hits, 1);
  assert_int_equal(st.busy_cycles, 8);
  dram_destroy(ch);
}

/* Four sectors are four bursts of 32 bytes: 16 bus cycles. */
static void test_full_line_read(void **state) {
  (void)state;
  gpu_config c;
  gddr5(&c);
  dram_stats st = {0};
  dram_channel *ch = dram_create(&c, &st, NULL);
  push(ch, 2, 9, 1, 0, 0xF);
  done d[2];
  int n = run(ch, 1, 300, d, 0);
  assert_int_equal(n, 1);
  assert_int_equal(d[0].t, 141);
  assert_int_equal(st.busy_cycles, 16);
  dram_destroy(ch);
}

static void test_queue_limit(void **state) {
  (void)state;
  gpu_config c;
  gddr5(&c);
  dram_stats st = {0};
  dram_channel *ch = dram_create(&c, &st, NULL);
  mem_req a = {.a = {.sector_mask = 1}};
  for (int i = 0; i < 16; i++) assert_int_equal(dram_push(ch, &a, at(0, (uint64_t)i), 0, 0), 0);
  assert_false(dram_can_accept(ch));
  assert_int_equal(dram_push(ch, &a, 0, 0, 0), -1);
  dram_tick(ch, 1); /* binds the head to bank 0: one queue slot frees */
  assert_true(dram_can_accept(ch));
  dram_destroy(ch);
}

/* Reads whose returns nobody takes fill the return queue (2 x banks + 8 entries), and the
 * channel stops issuing; once they are taken, the rest are issued and come back. (The channel
 * skips the cycles in which no bound request can take a command: a full return queue is not
 * one that time ends, so taking a return must end the skip.) */
static void test_full_return_queue(void **state) {
  (void)state;
  gpu_config c;
  gddr5(&c);
  c.dram_sched_queue_size = 64;
  dram_stats st = {0};
  dram_channel *ch = dram_create(&c, &st, NULL);
  enum { READS = 48, RET_CAP = 2 * 16 + 8 };
  for (uint32_t i = 0; i < READS; i++) push(ch, i % 16, 0, i, 0, 1);
  for (uint64_t t = 1; t <= 4000; t++) dram_tick(ch, t); /* nothing taken */
  assert_int_equal(st.reads, RET_CAP);
  done out[READS];
  int n = run(ch, 4001, 4001, out, 0); /* takes every return due */
  assert_int_equal(n, RET_CAP);
  n = run(ch, 4002, 8000, out, 0);
  assert_int_equal(n, READS - RET_CAP);
  assert_int_equal(st.reads, READS);
  assert_false(dram_busy(ch));
  dram_destroy(ch);
}

static void test_bad_config(void **state) {
  (void)state;
  gpu_config c;
  gddr5(&c);
  rf_diag d = {{0}, 0};
  dram_stats st = {0};
  c.dram.nbk = 0;
  assert_null(dram_create(&c, &st, &d));
  assert_non_null(strstr(d.msg, "banks"));
  gddr5(&c);
  c.dram_buswidth = 0;
  assert_null(dram_create(&c, &st, &d));
  assert_non_null(strstr(d.msg, "bus width"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_decode),
      cmocka_unit_test(test_closed_bank_read),
      cmocka_unit_test(test_row_hit_vs_conflict),
      cmocka_unit_test(test_fr_fcfs_reorders),
      cmocka_unit_test(test_fifo_keeps_order),
      cmocka_unit_test(test_bank_parallelism),
      cmocka_unit_test(test_write_to_read_turnaround),
      cmocka_unit_test(test_full_line_read),
      cmocka_unit_test(test_full_return_queue),
      cmocka_unit_test(test_queue_limit),
      cmocka_unit_test(test_bad_config),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
