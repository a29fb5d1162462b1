/* A kernel's ops (trace.h: trace_op), each kept once and pointed to by its instances.
 *
 * A trace_op_set keeps its ops in blocks that never move, so an instruction's op pointer stays
 * valid while more are added and until trace_op_set_free. A kernel's reader keeps one set for
 * all its thread blocks (text and binary cache alike), in a trace_op_pool that each block it
 * gives out holds too, so the blocks resident on a GPU share one copy of each op (with a copy
 * per block, a few hundred ops each, 80 SMs' blocks held megabytes of identical ops and the
 * issue stage missed the cache on them), and a block's ops live as long as the block. */
#ifndef RFSIM_TRACE_OPS_H
#define RFSIM_TRACE_OPS_H

#include "trace.h"

/* Slots of the last op interned per PC (trace_op_set.recent): PCs 8 bytes apart (sm_61; 16 on
 * sm_70) fill them one by one over 8 KB of code, more than a kernel's loop body mostly is. */
#define TRACE_OP_RECENT 1024

typedef struct trace_op_set {
  const trace_op **slot; /* open addressing, NULL = empty */
  /* The op interned last at a PC's slot: every warp of a kernel runs the same instructions, so
   * a line's op is mostly the one its PC had last, found without the hash. */
  const trace_op *recent[TRACE_OP_RECENT];
  uint32_t nslots, n;
  struct trace_op_block *blocks; /* what the set holds, newest first */
  trace_op *room;        /* free ops left in the newest block */
  uint32_t room_left;
} trace_op_set;

/* The set's op equal to *op (byte for byte), added if it has none; NULL (with d) if out of
 * memory. */
const trace_op *trace_op_intern(trace_op_set *s, const trace_op *op, rf_diag *d);
/* Whether op is one of s's (a check for tests). */
int trace_op_set_owns(const trace_op_set *s, const trace_op *op);
/* Frees the ops too: every instruction pointing to them must be gone or unused. */
void trace_op_set_free(trace_op_set *s);

/* A set shared by a kernel's reader and the blocks it read, freed with the last of them. Only
 * the reader interns; holders may come and go on other threads (an SM frees its block when the
 * block ends). */
typedef struct trace_op_pool trace_op_pool;
trace_op_pool *trace_op_pool_new(rf_diag *d); /* held once */
trace_op_set *trace_op_pool_set(trace_op_pool *p);
void trace_op_pool_hold(trace_op_pool *p);
void trace_op_pool_release(trace_op_pool *p); /* NULL: nothing */

#endif
