/* Writes a trace folder atomically: files go into a fresh temporary sibling folder that is
 * renamed over OUTDIR only when everything was written, so an interrupted or failed run never
 * leaves an OUTDIR that looks complete. An existing OUTDIR is replaced only if it holds nothing
 * but trace files (kernelslist.g, *.traceg), so a mistyped path cannot destroy other data. */
#ifndef RFSIM_TG_OUTDIR_H
#define RFSIM_TG_OUTDIR_H

#include <stddef.h>

#include "../common/diag.h"
#include "tg_stream.h"

#define TG_PATH_MAX 4096

typedef struct tg_outdir {
  char final[TG_PATH_MAX];
  char tmp[TG_PATH_MAX + 32];
} tg_outdir;

int tg_outdir_begin(tg_outdir *o, const char *final, rf_diag *d);
/* Opens `name` for writing inside the temporary folder; *path_out gets its full path. */
tg_stream *tg_outdir_open(tg_outdir *o, const char *name, tg_stream_kind kind, char *path_out,
                          size_t path_size, rf_diag *d);
int tg_outdir_commit(tg_outdir *o, rf_diag *d);
/* Removes the temporary folder and what was written to it. */
void tg_outdir_abort(tg_outdir *o);

#endif
