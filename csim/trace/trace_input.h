/* The bytes of a trace file, read in order: a plain text file, or an xz archive decoded with
 * liblzma as it is read. Accel-Sim's tracer writes kernel-N.traceg.xz (TRACE_FILE_COMPRESS=1,
 * `xz -1 -T0`) and names it so in kernelslist.g; real trace collections run to tens of
 * gigabytes and are kept compressed, so an archive is never decoded whole into memory, nor
 * through an `xz` process.
 *
 * Which of the two a file is comes from its first bytes (the xz magic), so a plain trace works
 * under any name; a file named *.xz without the magic is refused rather than read as text. */
#ifndef RFSIM_TRACE_INPUT_H
#define RFSIM_TRACE_INPUT_H

#include <stddef.h>

#include "../common/diag.h"

/* What liblzma may allocate to decode one archive. The tracer's `xz -1` needs 2 MiB and
 * `xz -9` 65 MiB; an archive that asks for more (its header chooses the dictionary) is refused
 * with what it asked for instead of being given gigabytes. */
#define TRACE_XZ_MEMLIMIT (512ull << 20)

typedef struct trace_input trace_input;

int trace_input_open(const char *path, trace_input **out, rf_diag *d);
/* Up to n bytes of text into buf: how many (at least 1), 0 at the end of the text, -1 on a
 * read error or a truncated or corrupt archive; the message names the file and, for an archive,
 * the compressed byte offset at which decoding stopped. */
long trace_input_read(trace_input *in, char *buf, size_t n, rf_diag *d);
/* The open file's descriptor: the identity of what is read (the trace cache records it). */
int trace_input_fd(const trace_input *in);
int trace_input_is_xz(const trace_input *in);
void trace_input_close(trace_input *in);

#endif
