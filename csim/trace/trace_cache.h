/* Binary trace cache: a derived, compact copy of a parsed kernel-N.traceg (private to the
 * reader; trace.h has the public options).
 *
 * File layout (every integer little-endian; version TC_VERSION):
 *   header   64 bytes: magic "RFSIMTC\0", u32 version, u32 header bytes (64), u64 source size,
 *            i64 source mtime seconds, i64 source mtime nanoseconds, u64 file length,
 *            u64 thread blocks, u64 checksum of the 56 bytes before it and of the info record
 *   info     the kernel header (trace_kernel_info), TC_INFO_BYTES
 *   blocks   one per thread block, in the text's order: u32 magic "TBLK", u32 payload bytes,
 *            u64 checksum of the payload, then the payload (tc_encode_tb)
 * A cache is used only if its header checksum holds, its version is TC_VERSION, the source's
 * size and mtime match and the file is as long as the header says; each block is checked (magic,
 * length, checksum, contents) before it is decoded. Anything wrong makes the reader fall back
 * to the text, never to an error. */
#ifndef RFSIM_TRACE_CACHE_H
#define RFSIM_TRACE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

#define TC_VERSION 1
#define TC_HEADER_BYTES 64
#define TC_INFO_BYTES (256 + 18 * 8)
#define TC_BLOCK_HEADER_BYTES 16
#define TC_SUFFIX ".rfc"

typedef struct tc_source {
  uint64_t size;
  int64_t mtime_s, mtime_ns;
} tc_source;

/* A growable byte buffer. */
typedef struct tc_buf {
  uint8_t *p;
  size_t n, cap;
} tc_buf;

uint64_t tc_checksum(const uint8_t *p, size_t n);

/* Size and mtime of the text trace; -1 (with d) if it cannot be read. */
int tc_source_of(const char *trace_path, tc_source *src, rf_diag *d);
/* Where the cache of trace_path lives: next to it (trace_path + ".rfc"), or with dir in dir,
 * named after the trace's file name and a hash of its absolute path. Allocated. */
char *tc_cache_path(const char *trace_path, const char *dir, rf_diag *d);

/* Thread block payload. tc_decode_tb checks everything against the kernel info (ids inside
 * the grid, warp count, operand counts, opcode/kind/unit/space ranges, lengths) and returns -1
 * (with d) on anything wrong, leaving tb empty. */
int tc_encode_tb(const trace_tb *tb, tc_buf *out, rf_diag *d);
int tc_decode_tb(const uint8_t *p, size_t n, const trace_kernel_info *info, trace_tb *tb,
                 rf_diag *d);

/* Reading a cache: open checks header, version, source identity and length. */
typedef struct tc_reader tc_reader;
tc_reader *tc_reader_open(const char *cache_path, const tc_source *src, trace_kernel_info *info,
                          rf_diag *d);
/* 1 with *tb decoded, 0 after the last block (the file ends exactly there), -1 if the block is
 * missing or corrupt. Duplicate ids are the caller's to check. */
int tc_reader_next(tc_reader *r, const trace_kernel_info *info, trace_tb *tb, rf_diag *d);
uint64_t tc_reader_ntbs(const tc_reader *r);
void tc_reader_close(tc_reader *r);

/* Writing a cache: blocks go to CACHE.partial.<pid>, renamed to CACHE by tc_writer_finish.
 * Any failure abandons the cache silently (the caller keeps reading the text). */
typedef struct tc_writer tc_writer;
tc_writer *tc_writer_open(const char *cache_path, const tc_source *src,
                          const trace_kernel_info *info);
int tc_writer_add(tc_writer *w, const trace_tb *tb);
/* Completes the file (the source must be unchanged) and renames it; 0 or -1. Frees w. */
int tc_writer_finish(tc_writer *w, const char *trace_path);
/* Removes the partial file. Frees w. */
void tc_writer_abort(tc_writer *w);

#endif
