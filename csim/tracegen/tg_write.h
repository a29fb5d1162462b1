/* Writes generated kernels in the Accel-Sim tracer-version-4 text format, laid out byte for
 * byte as NVBit's post-processing writes it (blank-line placement included), with addresses
 * compressed the way the tracer does: base+stride when the active lanes are contiguous with a
 * constant stride, else base+deltas when every delta fits 32 bits, else a full list. */
#ifndef RFSIM_TG_WRITE_H
#define RFSIM_TG_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../common/diag.h"
#include "tg_line.h"
#include "tg_plan.h"

/* Formats one instruction line, without the newline. */
int tg_format_inst(char *buf, size_t size, const tg_inst *in, uint32_t mask,
                   const uint64_t addrs[32]);

/* The kernel-N.traceg file; `path` names the output in messages. */
int tg_write_kernel(FILE *f, const char *path, const tg_plan *p, rf_diag *d);
/* One kernel's kernelslist.g lines: a MemcpyHtoD per global region it loads, then its file. */
int tg_write_list_entry(FILE *f, const tg_plan *p);

#endif
