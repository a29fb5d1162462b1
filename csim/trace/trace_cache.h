/* Binary trace cache: a derived, compact copy of a parsed kernel-N.traceg (private to the
 * reader; trace.h has the public options). Three parts:
 *   trace_cache.c        the info record and the thread-block payload (the format proper)
 *   trace_cache_file.c   a cache file: its header, reader and writer
 *   trace_cache_store.c  where caches live: the folder, the file's name, the source's identity,
 *                        the size bound
 *
 * File layout (every integer little-endian; format version TC_VERSION):
 *   header  TC_HEADER_BYTES: magic "RFSIMTC\0", u32 version, u32 header bytes, u64 reader id
 *           (TC_READER_ID: a hash of the reader's sources, so a cache written by another rfsim
 *           is never decoded with this one's tables), the source's identity (tc_source: u64
 *           size, i64 mtime s, ns, i64 ctime s, ns, u64 device, u64 inode, u64 hash of its
 *           first TC_HEAD_BYTES), u64 file length, u64 thread blocks, u32 source path bytes,
 *           12 bytes zero, u64 checksum of the header before it, the path and the info record
 *   path    the trace's canonical absolute path (no NUL)
 *   info    the kernel header (trace_kernel_info), TC_INFO_BYTES
 *   blocks  one per thread block, in the text's order: u32 magic "TBLK", u32 payload bytes,
 *           u64 checksum of the payload, then the payload (tc_encode_tb)
 * A cache is used only if its header checksum holds, its version and reader id are this
 * rfsim's, it names this trace's path, the trace's identity is the one recorded and the file is
 * as long as the header says; each block is checked (magic, length, checksum, contents) before
 * it is decoded. Anything wrong makes the reader fall back to the text, never to an error. */
#ifndef RFSIM_TRACE_CACHE_H
#define RFSIM_TRACE_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "trace.h"
#include "trace_ops.h"

#define TC_VERSION 3
#define TC_HEADER_BYTES 128
#define TC_INFO_BYTES (256 + 18 * 8)
#define TC_BLOCK_HEADER_BYTES 16
#define TC_SUFFIX ".rfc"
#define TC_HEAD_BYTES 65536   /* of the source, hashed into its identity */
#define TC_PATH_MAX 4096

/* ---- little-endian fields ---- */
/* (one load on a little-endian host: the byte-by-byte form was 3% of a warm run of small
 * blocks, through the blocks' checksum) */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define TC_FROM_LE64(v) __builtin_bswap64(v)
#define TC_FROM_LE32(v) __builtin_bswap32(v)
#else
#define TC_FROM_LE64(v) (v)
#define TC_FROM_LE32(v) (v)
#endif
static inline uint64_t tc_ld64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, sizeof v);
  return TC_FROM_LE64(v);
}
static inline uint32_t tc_ld32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return TC_FROM_LE32(v);
}
static inline void tc_st64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void tc_st32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

uint64_t tc_checksum(const uint8_t *p, size_t n);

/* A growable byte buffer. */
typedef struct tc_buf {
  uint8_t *p;
  size_t n, cap;
} tc_buf;
int tc_buf_reserve(tc_buf *b, size_t more, rf_diag *d);

/* ---- the format: info record and thread-block payload (trace_cache.c) ---- */
void tc_encode_info(const trace_kernel_info *in, uint8_t out[TC_INFO_BYTES]);
/* Checked as the text header is (ranges, products); -1 if it could not come from a trace. */
int tc_decode_info(const uint8_t p[TC_INFO_BYTES], trace_kernel_info *in);
/* Thread block payload. tc_decode_tb checks everything against the kernel info (ids inside
 * the grid, warp count, operand counts, opcode/kind/unit/space ranges, lengths) and returns -1
 * (with d) on anything wrong, leaving tb empty. With `pack` the block's addresses come packed
 * (trace_addrs.h: as trace_tb_pack_addrs leaves them), else 32 lanes per instruction. The
 * block's ops are interned in `ops`, the kernel's. The encoder takes either form.
 * `memo` (zeroed at first, freed with tc_tmpl_memo_free) keeps the templates of the block
 * decoded last, as stored and as interned: a kernel's blocks mostly run the same code, and a
 * block whose templates are those bytes again takes their ops without decoding, checking and
 * interning each one anew (a fifth of the decoding of a trace of small blocks). The same
 * kernel, info and ops with one memo each time. */
typedef struct tc_tmpl_memo {
  uint8_t *bytes;       /* n templates as stored */
  const trace_op **ops; /* and as interned */
  uint32_t n, cap;
} tc_tmpl_memo;
void tc_tmpl_memo_free(tc_tmpl_memo *m);
int tc_encode_tb(const trace_tb *tb, tc_buf *out, rf_diag *d);
int tc_decode_tb(const uint8_t *p, size_t n, const trace_kernel_info *info, int pack,
                 trace_op_pool *ops, tc_tmpl_memo *memo, trace_tb *tb, rf_diag *d);

/* ---- the source's identity and the cache's place (trace_cache_store.c) ---- */

/* What a cache records of the trace it was made from. Size and mtime alone miss a trace
 * replaced by one of the same size with its mtime kept (`cp -p`, `rsync -t`, `tar x`); the
 * device and inode catch a replacement by rename (how rsync, editors and most tools write), the
 * ctime, which no tool can set, a rewrite in place whose mtime was put back, and the hash of
 * the file's first 64 KiB (of the archive, for an xz trace) what a filesystem's coarse or
 * unreliable times let through, e.g. a cache folder shared over NFS by machines whose traces
 * sit at the same local path. All must match for a cache to be used. */
typedef struct tc_source {
  uint64_t size, dev, ino, head_hash;
  int64_t mtime_s, mtime_ns, ctime_s, ctime_ns;
} tc_source;

/* The identity of the open file `fd` (the one being read: no window for a swap between a
 * stat and the open). -1 with d if it cannot be read. */
int tc_source_of_fd(int fd, const char *path, tc_source *src, rf_diag *d);
/* Whether the file now at `path` is still the one `src` describes (its stat fields). */
int tc_source_unchanged(const char *path, const tc_source *src);

/* Where the cache of one trace lives. The file's name is keyed by the trace's canonical
 * absolute path (a moved or other trace gets another cache) and the reader id (two rfsim builds
 * keep one cache each instead of rewriting each other's): DIR/<trace name>-<path hash>-<reader
 * id>.rfc. */
typedef struct tc_place {
  char dir[TC_PATH_MAX];
  char path[TC_PATH_MAX + 320];   /* the cache file */
  char source[TC_PATH_MAX];       /* the trace's canonical absolute path */
  uint64_t max_bytes;             /* the folder's bound (0: none) */
} tc_place;
/* -1 if the trace has no cache: no folder (no -trace_cache_dir, XDG_CACHE_HOME or HOME), or a
 * path that cannot be made canonical. Makes nothing. `reader`: tc_reader_id(), passed in so that
 * where caches live needs nothing of how they are written (trace_cache_file.c, which uses it). */
int tc_place_of(const char *trace_path, const trace_cache_opts *o, uint64_t reader,
                tc_place *pl);
/* Makes the folder (and its parents; 0700 for those it makes) if missing: 0 or -1. */
int tc_make_folder(const char *dir);
/* Keeps the caches in `dir` (files ending in .rfc, and unfinished ones) under max_bytes
 * together, deleting the least recently used first (their mtimes: a cache is touched when it is
 * read); `keep` (just written) stays. Unfinished files of writers gone for a day are deleted. */
void tc_evict(const char *dir, uint64_t max_bytes, const char *keep);
/* Marks a cache as just used (for tc_evict's order). */
void tc_touch(const char *cache_path);

/* ---- a cache file (trace_cache_file.c) ---- */

/* This build's reader id (TC_READER_ID). */
uint64_t tc_reader_id(void);

/* The header and path of a cache of `src` (at `source`) whose info record `info` and then
 * `ntbs` blocks make `body_bytes` after them: what the writer writes when it finishes (also for
 * tests and fuzzing, which make caches of their own). Returns the bytes written to out
 * (TC_HEADER_BYTES + the path's length), 0 if n is too small. */
size_t tc_header_make(uint8_t *out, size_t n, const tc_source *src, const char *source,
                      const uint8_t info[TC_INFO_BYTES], uint64_t body_bytes, uint64_t ntbs);

/* Reading a cache: open checks header, version, reader id, path, source identity, length. */
typedef struct tc_reader tc_reader;
tc_reader *tc_reader_open(const char *cache_path, const tc_source *src, const char *source,
                          trace_kernel_info *info, rf_diag *d);
/* 1 with *tb decoded, 0 after the last block (the file ends exactly there), -1 if the block is
 * missing or corrupt. Duplicate ids are the caller's to check. */
int tc_reader_next(tc_reader *r, const trace_kernel_info *info, int pack, trace_op_pool *ops,
                   trace_tb *tb, rf_diag *d);
void tc_reader_close(tc_reader *r);

/* Writing a cache: blocks go to a temporary file beside it (CACHE.partial.XXXXXX), renamed to
 * CACHE by tc_writer_finish, so a reader sees a whole cache or none, and two runs building the
 * same cache at once each rename a whole one. Any failure, or growing past the place's bound,
 * abandons the cache silently (the caller keeps reading the text). */
typedef struct tc_writer tc_writer;
tc_writer *tc_writer_open(const tc_place *pl, const tc_source *src,
                          const trace_kernel_info *info);
int tc_writer_add(tc_writer *w, const trace_tb *tb);
/* Completes the file (the source must be unchanged since src was taken), renames it into
 * place and keeps the folder under its bound; 0 or -1. Frees w. */
int tc_writer_finish(tc_writer *w, const char *trace_path);
/* Removes the temporary file. Frees w. */
void tc_writer_abort(tc_writer *w);

#endif
