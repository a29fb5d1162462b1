/* tracetile's job: replicate a trace's thread blocks to a 1-D grid of N blocks. Output block i
 * is input block (i mod count) in file order, byte for byte (same addresses) except for its
 * `thread block = i,0,0` line, and each kernel header's grid dim becomes (N,1,1). Streaming: the
 * kernel file is scanned once for block offsets, then blocks are copied by seeking, so memory
 * is one offset pair per input block. */
#ifndef RFSIM_TG_TILE_H
#define RFSIM_TG_TILE_H

#include "../common/diag.h"
#include "tg_stream.h"

/* kind TG_STREAM_XZ writes kernel-N.traceg.xz (named so in the output's kernelslist.g). */
int tg_tile(const char *kernelslist, const char *outdir, long ntbs, tg_stream_kind kind,
            rf_diag *d);

#endif
