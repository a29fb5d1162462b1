/* Live registers per PC, computed from a kernel's own trace: the trace-driven analog of
 * FineReg's compile-time analysis (finereg.txt sec. IV-B, V-A, Fig. 7 and 9).
 *
 * A register is live at an instruction if some later instruction of the warp reads it before
 * any instruction writes it again (Fig. 7). Each warp's traced instruction stream is one path
 * through the kernel's control flow; a backward pass over it gives the live-in set of every
 * dynamic instruction, and the sets of all dynamic instances of a PC are merged (a union), so
 * a loop (PCs repeated in the stream) and diverging paths taken by different warps (Fig. 9)
 * contribute as the static data-flow analysis over the CFG would. The table is per kernel and
 * built once: every warp stream is analysed once, when its CTA is first seen, and the table is
 * kept (cached) until the next kernel.
 *
 * Registers 0..254 are tracked (RZ = R255 is not a register-file operand and never appears). A
 * write kills liveness only when it covers every thread the warp ever runs (a predicated or
 * partial write leaves the other threads' values live). */
#ifndef RFSIM_LIVENESS_H
#define RFSIM_LIVENESS_H

#include <stdint.h>

#include "../common/diag.h"
#include "../trace/trace.h"

typedef struct live_vec {
  uint64_t w[4]; /* bit r = register Rr is live */
} live_vec;

typedef struct liveness liveness;

liveness *liveness_create(rf_diag *d);
void liveness_free(liveness *l);
/* Forgets every PC (a new kernel). */
void liveness_reset(liveness *l);
/* Backward pass over one warp's stream, merged into the table. */
int liveness_add_warp(liveness *l, const trace_warp *tw, rf_diag *d);
/* Live-in set of the instruction at `pc` (registers a warp about to execute it must keep), or
 * NULL if no analysed warp executed that PC. */
const live_vec *liveness_at(const liveness *l, uint64_t pc);
/* Registers in v, and in v below `nregs`. */
int live_vec_count(const live_vec *v);
int live_vec_count_below(const live_vec *v, int nregs);
/* Highest register in v, -1 if empty. */
int live_vec_max(const live_vec *v);
/* PCs in the table, warp streams and instructions analysed. */
uint64_t liveness_pcs(const liveness *l);
uint64_t liveness_warps(const liveness *l);
uint64_t liveness_insts(const liveness *l);

#endif
