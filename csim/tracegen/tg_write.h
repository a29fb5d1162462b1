/* Writes generated kernels in the Accel-Sim tracer-version-4 text format, laid out byte for
 * byte as NVBit's post-processing writes it (blank-line placement included), with addresses
 * compressed the way the tracer does: base+stride when the active lanes are contiguous with a
 * constant stride, else base+deltas when every delta fits 32 bits, else a full list. */
#ifndef RFSIM_TG_WRITE_H
#define RFSIM_TG_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"
#include "tg_line.h"
#include "tg_plan.h"
#include "tg_stream.h"

/* Formats one instruction line, without the newline. */
int tg_format_inst(char *buf, size_t size, const tg_inst *in, uint32_t mask,
                   const uint64_t addrs[32]);

/* The kernel-N.traceg text, to a plain or an xz stream. 0, or -1: with d set on an internal
 * inconsistency, or with the stream failed (tg_stream_close says why). */
int tg_write_kernel(tg_stream *s, const tg_plan *p, rf_diag *d);
/* One kernel's kernelslist.g lines: a MemcpyHtoD per global region it loads, then its file
 * name, kernel_file ("kernel-N.traceg" or "kernel-N.traceg.xz"). 0 or -1 (the stream has
 * failed: tg_stream_close says why). */
int tg_write_list_entry(tg_stream *s, const tg_plan *p, const char *kernel_file);

#endif
