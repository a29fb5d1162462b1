/* One DRAM channel: banks with open rows, a request queue served FR-FCFS (or FIFO), and the
 * command and data-bus timing of -gpgpu_dram_timing_opt, all in DRAM command-clock cycles.
 *
 * Model:
 *  - Address: the channel-local address (mem_internal.h) splits into column (the low
 *    dram_row_bytes), bank (next, modulo nbk), row (the rest).
 *  - A request is bound to its bank when the bank is idle: FR-FCFS picks the oldest queued
 *    request to the bank's open row, else the bank's oldest; FIFO only ever binds the oldest
 *    request in the whole queue. Row hit/miss is decided at binding.
 *  - One command per cycle on the command bus: column commands of bound requests first (oldest
 *    first), else a PRE or ACT. Constraints: ACT after tRP (since PRE), tRC (since the bank's
 *    last ACT), tRRD (since any ACT); RD/WR after tRCD, tCCD per burst since the previous column
 *    command, data bus free, and reads tCDLR after the end of write data; PRE after tRAS, after
 *    write recovery (write data end + tWR) and tRTPL/burst after a read.
 *  - Data: one burst moves buswidth * burst_length bytes and holds the bus
 *    burst_length / data_command_freq_ratio command cycles (rounded up). A request of s sectors
 *    takes ceil(32 s / burst bytes) bursts back to back, as one column command. With a 4-byte bus
 *    and burst 8 a 32-byte sector is exactly one burst.
 *  - A read's data is returned -dram_latency core cycles (GPGPU-Sim's unit) after its last
 *    beat (the fixed pipeline of the controller and the PHY). Writes complete at their column
 *    command; one that wants an acknowledgement (mem_wants_ack: the L2 wrote it through) is
 *    returned when its data is in.
 *  - Bank groups (nbkgrp, tCCDL) and refresh are not modelled. */
#ifndef RFSIM_DRAM_H
#define RFSIM_DRAM_H

#include "mem_internal.h"

typedef struct dram_channel dram_channel;

/* `stats` is where this channel adds its counts (several channels may share one). */
dram_channel *dram_create(const gpu_config *c, dram_stats *stats, rf_diag *d);
void dram_destroy(dram_channel *ch);

int dram_can_accept(const dram_channel *ch);
/* Queues a request (local = channel-local byte address; tag = caller's routing value, returned
 * with the read). Returns 0, or -1 when the queue is full. */
int dram_push(dram_channel *ch, const mem_req *r, uint64_t local, uint32_t tag, uint64_t now);
/* One DRAM command cycle. `now` must increase by one per call. */
void dram_tick(dram_channel *ch, uint64_t now);
/* The oldest completed read (or acknowledged write) back by `now`: returns 1, fills r, tag. */
int dram_peek_return(const dram_channel *ch, uint64_t now, mem_req *r, uint32_t *tag);
void dram_pop_return(dram_channel *ch);
int dram_busy(const dram_channel *ch);
/* Bank and row the channel would use for a channel-local address (tests, debugging). */
void dram_decode(const dram_channel *ch, uint64_t local, uint32_t *bank, uint64_t *row);

#endif
