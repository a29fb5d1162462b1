/* The output stream trace writers write through: a plain file, or an xz archive compressed
 * with liblzma as it is written (the format of Accel-Sim's tracer with TRACE_FILE_COMPRESS=1,
 * kernel-N.traceg.xz, which rfsim's reader takes as it takes the text). tracegen's writer
 * (tg_write.h) and the CUDA tracer use the same calls, so both write either form:
 *
 *   tg_stream *s = tg_stream_open("out/kernel-1.traceg.xz", TG_STREAM_XZ, d);
 *   if (!s) ...;                               // d names the file and why
 *   tg_stream_printf(s, "-kernel name = %s\n", name);
 *   tg_stream_write(s, line, len);
 *   if (tg_stream_close(s, d) < 0) ...;        // the archive is complete only if this is 0
 *
 * Writes are buffered. A failed write (a full disk, a compressor error) is remembered: the
 * writes after it do nothing and return -1, and tg_stream_close reports the first failure, so a
 * writer may check each call or only the close. A stream is written by one thread at a time.
 *
 * The xz form uses preset 1 (as the tracer's `xz -1`) in blocks of a few MiB, which rfsim's
 * reader decodes on several threads; the same bytes in give the same archive out. */
#ifndef RFSIM_TG_STREAM_H
#define RFSIM_TG_STREAM_H

#include <stddef.h>

#include "../common/diag.h"

typedef enum tg_stream_kind { TG_STREAM_PLAIN = 0, TG_STREAM_XZ } tg_stream_kind;

typedef struct tg_stream tg_stream;

/* Creates (or truncates) `path`; NULL with d on failure. */
tg_stream *tg_stream_open(const char *path, tg_stream_kind kind, rf_diag *d);
/* 0, or -1 once the stream has failed. */
int tg_stream_write(tg_stream *s, const void *buf, size_t n);
int tg_stream_puts(tg_stream *s, const char *text);
int tg_stream_printf(tg_stream *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Finishes the file (an archive's last block and index) and closes it: 0, or -1 with d naming
 * the file and the first failure. Frees s. */
int tg_stream_close(tg_stream *s, rf_diag *d);
/* Closes without finishing or reporting (the caller discards the file). Frees s. */
void tg_stream_abort(tg_stream *s);
const char *tg_stream_path(const tg_stream *s);

#endif
