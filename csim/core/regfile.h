/* The banked register file of one SM, as GPGPU-Sim's operand-collector arbiter (shader.cc,
 * opndcoll_rfu_t::arbiter_t) models it:
 *   - a register of a warp lives in bank (reg + warp) % banks with -gpgpu_reg_bank_use_warp_id 1
 *     (GPGPU-Sim always adds the warp id, whatever the flag says), reg % banks with 0; in the
 *     sub-core model (-gpgpu_sub_core_model 1) each scheduler owns banks/schedulers banks and
 *     the register maps into its scheduler's group;
 *   - every bank has one port. Each arbitration step it serves the oldest queued read (reads
 *     queue per bank in the order collectors asked for them), unless a writeback claimed the
 *     bank in this cycle: writes go first, as in GPGPU-Sim;
 *   - a writeback claims its destination registers' banks in order and stops at the first bank
 *     already claimed in that cycle (GPGPU-Sim drops the rest of such a write without a stall).
 * Register numbers are the trace's (RZ never reaches here: the trace reader drops it).
 * Nothing here knows about warps' instructions: the collector (opcoll.c) queues reads with the
 * collector unit that wants them and is told which were served. */
#ifndef RFSIM_REGFILE_H
#define RFSIM_REGFILE_H

#include <stdint.h>

#include "../common/diag.h"

typedef struct rf_counters {
  uint64_t reads;          /* register operands read from a bank */
  uint64_t writes;         /* destination registers written back */
  uint64_t bank_conflicts; /* reads that could not be served in the first step they were
                              queued for, because their bank served another read or a write */
  uint64_t oc_stalls;      /* steps in which an issued instruction found no free collector unit
                              (opcoll.c counts these) */
} rf_counters;

typedef struct rf_banks rf_banks;

/* max_queued: the most reads that can be queued at once (collector units x sources);
 * max_write_ahead: the furthest in the future (cycles) a write may be announced. */
rf_banks *rf_banks_create(int nbanks, int use_warp_id, int sub_core, int nsched, int max_queued,
                          int max_write_ahead, rf_counters *cnt, rf_diag *d);
void rf_banks_destroy(rf_banks *b);
int rf_bank_count(const rf_banks *b);
/* The bank holding register reg of the warp in warp slot `warp` under scheduler `sched`. */
int rf_bank_of(const rf_banks *b, int reg, int warp, int sched);
/* Queues a read for collector unit cu. */
void rf_read_request(rf_banks *b, int bank, int cu);
/* Announces the writeback of regs[0..n) of a warp at cycle at (the current cycle or later, at
 * most max_write_ahead ahead; the announcement for the current cycle must come before its
 * arbitration). Counts n writes. */
void rf_write(rf_banks *b, const uint8_t *regs, int n, int warp, int sched, uint64_t at);
/* One arbitration step of cycle now. writes_block: the cycle's writes hold their banks in this
 * step (GPGPU-Sim: the first step of a cycle; with -gpgpu_reg_file_port_throughput 2 the second
 * step sees the ports free). Writes the collector unit of every served read to served[] (at most
 * one per bank) and returns how many. Call with nondecreasing now. */
int rf_arbitrate(rf_banks *b, uint64_t now, int writes_block, uint16_t *served);
/* Reads still queued. */
int rf_queued(const rf_banks *b);
/* Banks claimed by writes at cycle now so far (bit i = bank i), for tests. */
uint64_t rf_write_mask(const rf_banks *b, uint64_t now);

#endif
