/* A thread block's ops (trace.h: trace_op), each kept once and pointed to by its instances.
 *
 * The ops live in blocks owned by the thread block (trace_tb.ops) and never move, so an
 * instruction's op pointer stays valid while more are added and until trace_tb_free. Readers
 * that build a block from text intern each op through a trace_op_set; the binary cache, which
 * stores a block's ops once already, takes room for all of them at once. */
#ifndef RFSIM_TRACE_OPS_H
#define RFSIM_TRACE_OPS_H

#include "trace.h"

/* n zeroed ops owned by tb, contiguous; NULL (with d) if out of memory. */
trace_op *trace_tb_new_ops(trace_tb *tb, uint32_t n, rf_diag *d);
/* Frees what trace_tb_new_ops and trace_op_intern gave tb. */
void trace_tb_free_ops(trace_tb *tb);
/* Whether op is one of tb's (a check for tests: a block must not point into another's). */
int trace_tb_owns_op(const trace_tb *tb, const trace_op *op);

/* Interning: the one op of tb equal to a given one. Reset for each thread block. */
typedef struct trace_op_set {
  const trace_op **slot; /* open addressing, NULL = empty */
  uint32_t nslots, n;
  trace_op *room;        /* free ops left in tb's newest block */
  uint32_t room_left;
} trace_op_set;

/* tb's op equal to *op (byte for byte), added to tb if it has none; NULL (with d) if out of
 * memory. All calls between two resets must name the same tb. */
const trace_op *trace_op_intern(trace_op_set *s, trace_tb *tb, const trace_op *op, rf_diag *d);
void trace_op_set_reset(trace_op_set *s);
void trace_op_set_free(trace_op_set *s);

#endif
