/* Parses one instruction line of a kernel trace into a trace_inst (private to the reader). */
#ifndef RFSIM_TRACE_INST_H
#define RFSIM_TRACE_INST_H

#include "trace.h"

typedef struct inst_context {
  const char *path;
  long line;
  int tracer_version;
  int lineinfo;
  uint64_t shmem_base, local_base;
} inst_context;

/* `line` is modified in place. Addresses of memory instructions go to addrs[0..31]; *has_addrs
 * tells whether they were present. */
int trace_parse_inst(const inst_context *ctx, char *line, trace_inst *in, uint64_t *addrs,
                     int *has_addrs, rf_diag *d);

#endif
