/* Independent thread scheduling (sm_70 on): every lane has its own PC. The warp runs the lanes
 * that can run at the lowest PC among them, together, one instruction at a time; lanes meet
 * again where the code makes them (BSYNC on a convergence barrier set by BSSY, WARPSYNC, the
 * CTA barrier). Running the lowest PC first is one of the schedules the hardware may choose
 * (the ISA promises no order between diverged lanes); it reconverges structured code at its
 * BSYNC, runs a loop's lanes before those already past it, and is fixed, so traces repeat. */
#ifndef RFSIM_SASS_ITS_H
#define RFSIM_SASS_ITS_H

#include "sass_ctx.h"

/* Chooses the lanes that run next: sets w->pc and w->active and returns 1; or returns 0 with
 * w->state SW_BAR (every live lane waits at the CTA barrier) or SW_DONE; or -1 with a fault
 * when lanes wait at a BSYNC or WARPSYNC that can never complete. */
int sass_its_pick(sass_ctx *x);
/* After an instruction ran for `group`: moves its lanes to `next` unless the handler set their
 * PCs, releases the lanes whose BSYNC or WARPSYNC is complete, and lets the warp arrive at the
 * CTA barrier once all its live lanes wait there. */
void sass_its_after(sass_ctx *x, const sass_inst *in, uint32_t group, uint32_t next);
/* Lanes that have not exited. */
static inline uint32_t sass_its_live(const sass_warp *w) { return w->lanes & ~w->exited; }

#endif
