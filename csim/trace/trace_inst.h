/* Parses one instruction line of a kernel trace (private to the reader). */
#ifndef RFSIM_TRACE_INST_H
#define RFSIM_TRACE_INST_H

#include "trace.h"

/* Decoded full opcode strings (e.g. "LDS.U.32"): a kernel uses a few dozen, so a small
 * direct-mapped cache spares the table search and modifier scan on almost every line. */
#define OPCODE_CACHE_SLOTS 256
typedef struct opcode_cache_entry {
  char text[40];
  int16_t op;    /* -1: empty */
  uint8_t width; /* from modifiers, 0 if none */
} opcode_cache_entry;

typedef struct inst_context {
  opcode_cache_entry *cache; /* OPCODE_CACHE_SLOTS entries, or NULL */
  const char *path;
  long line;
  int tracer_version;
  int lineinfo;
  uint64_t shmem_base, local_base;
} inst_context;

/* `line` is modified in place. What the instruction is goes to *op (zeroed first), its active
 * mask to *active. Addresses of memory instructions go to addrs[0..31]; *has_addrs tells whether
 * they were present. */
int trace_parse_inst(const inst_context *ctx, char *line, trace_op *op, uint32_t *active,
                     uint64_t *addrs, int *has_addrs, rf_diag *d);

#endif
