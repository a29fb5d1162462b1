/* The checked memory access shared by loads, stores and atomics (sass_op_mem.c). */
#ifndef RFSIM_SASS_MEM_ACCESS_H
#define RFSIM_SASS_MEM_ACCESS_H

#include "sass_ctx.h"

/* in->f bit of memory instructions: the address is a 64-bit register pair (.E) */
#define SASS_F_E 0x01

/* Host memory for an access of `bytes` at addr in `space` (0 global, 1 shared, 2 local,
 * 3 generic), or NULL with a fault. */
uint8_t *sass_access(sass_ctx *x, const sass_inst *in, int space, uint64_t addr, unsigned bytes,
                     int lane, int is_store);
uint64_t sass_lane_addr(sass_ctx *x, const sass_inst *in, const sass_opnd *o, int l);

#endif
