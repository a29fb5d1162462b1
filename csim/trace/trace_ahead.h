/* A kernel's thread blocks read on a thread of their own, a few ahead of the thread that
 * simulates them: with one simulating thread, parsing the text (a cold run) or decoding the
 * binary cache (a warm one) then overlaps the simulation instead of stopping it at each launch.
 * The blocks, their order, and the block at which a read fails (with its message) are those of
 * trace_kernel_next_tb; only when the work is done changes. */
#ifndef RFSIM_TRACE_AHEAD_H
#define RFSIM_TRACE_AHEAD_H

#include "trace.h"

typedef struct trace_ahead trace_ahead;

/* What the simulator gives trace_ahead_start: a trace of a few huge blocks is not read ahead
 * by more than this (and one block). */
#define TRACE_AHEAD_BYTES ((size_t)16 << 20)

/* A kernel whose blocks decode from the binary cache to less than this is not read ahead: the
 * hand-over (each block wakes a thread) costs about what decoding such a block on the
 * simulating thread does (measured on the CUDA traces: docs/speed.md, issue 19). */
#define TRACE_AHEAD_MIN_BLOCK_BYTES ((size_t)8 << 10)

/* A block's decoded instructions and addresses, in bytes. */
size_t trace_tb_bytes(const trace_tb *tb);

/* Whether reading the rest of k ahead pays, judged by its first block, which the caller read:
 * blocks are left, and they are parsed from the text (always worth it) or decode from the
 * cache to TRACE_AHEAD_MIN_BLOCK_BYTES or more. */
int trace_ahead_pays(const trace_kernel *k, const trace_tb *first);

/* Starts reading k (which only the reader touches until trace_ahead_stop): up to 8 blocks
 * ahead, none more once those waiting hold max_bytes of instructions and addresses (one at
 * least). NULL (with d) if the thread cannot start; k is then untouched. */
trace_ahead *trace_ahead_start(trace_kernel *k, size_t max_bytes, rf_diag *d);
/* As trace_kernel_next_tb: 1 with the next block in tb (the caller's to free), 0 when none is
 * left, -1 (with d) if the trace could not be read; after 0 or -1, the same again. */
int trace_ahead_next(trace_ahead *a, trace_tb *tb, rf_diag *d);
/* Blocks read and not taken yet. */
int trace_ahead_ready(trace_ahead *a);
/* Stops the reader and frees the blocks it read that were not taken. NULL: nothing. */
void trace_ahead_stop(trace_ahead *a);

#endif
