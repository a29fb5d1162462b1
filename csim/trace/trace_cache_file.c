/* A trace cache file: its header, and its reader and writer (layout in trace_cache.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_cache.h"

/* A hash of the reader's sources, given by the Makefile: a cache written by another build
 * (another opcode table, another parser) is never decoded with this one's tables. */
#ifndef TC_READER_ID
#error "TC_READER_ID: the Makefile passes a hash of csim/trace/*"
#endif

uint64_t tc_reader_id(void) { return TC_READER_ID; }

static const uint8_t tc_magic[8] = {'R', 'F', 'S', 'I', 'M', 'T', 'C', 0};
#define TC_BLOCK_MAGIC 0x4b4c4254u /* "TBLK" */

/* Header field offsets */
enum {
  H_VERSION = 8, H_HEADER_BYTES = 12, H_READER = 16, H_SIZE = 24, H_MTIME_S = 32,
  H_MTIME_NS = 40, H_CTIME_S = 48, H_CTIME_NS = 56, H_DEV = 64, H_INO = 72, H_HEAD_HASH = 80,
  H_LENGTH = 88, H_NTBS = 96, H_PATH_BYTES = 104, H_CHECKSUM = 120
};

static uint64_t header_checksum(const uint8_t *h, const uint8_t *path, size_t path_bytes,
                                const uint8_t *info) {
  return tc_checksum(h, H_CHECKSUM) ^ tc_checksum(path, path_bytes) ^
         tc_checksum(info, TC_INFO_BYTES);
}

size_t tc_header_make(uint8_t *out, size_t n, const tc_source *src, const char *source,
                      const uint8_t info[TC_INFO_BYTES], uint64_t body_bytes, uint64_t ntbs) {
  size_t path_bytes = strlen(source);
  if (n < TC_HEADER_BYTES + path_bytes) return 0;
  memset(out, 0, TC_HEADER_BYTES);
  memcpy(out, tc_magic, sizeof tc_magic);
  tc_st32(out + H_VERSION, TC_VERSION);
  tc_st32(out + H_HEADER_BYTES, TC_HEADER_BYTES);
  tc_st64(out + H_READER, TC_READER_ID);
  tc_st64(out + H_SIZE, src->size);
  tc_st64(out + H_MTIME_S, (uint64_t)src->mtime_s);
  tc_st64(out + H_MTIME_NS, (uint64_t)src->mtime_ns);
  tc_st64(out + H_CTIME_S, (uint64_t)src->ctime_s);
  tc_st64(out + H_CTIME_NS, (uint64_t)src->ctime_ns);
  tc_st64(out + H_DEV, src->dev);
  tc_st64(out + H_INO, src->ino);
  tc_st64(out + H_HEAD_HASH, src->head_hash);
  tc_st64(out + H_LENGTH, TC_HEADER_BYTES + path_bytes + body_bytes);
  tc_st64(out + H_NTBS, ntbs);
  tc_st32(out + H_PATH_BYTES, (uint32_t)path_bytes);
  memcpy(out + TC_HEADER_BYTES, source, path_bytes);
  tc_st64(out + H_CHECKSUM, header_checksum(out, out + TC_HEADER_BYTES, path_bytes, info));
  return TC_HEADER_BYTES + path_bytes;
}

static int same_source(const uint8_t *h, const tc_source *s) {
  return tc_ld64(h + H_SIZE) == s->size && (int64_t)tc_ld64(h + H_MTIME_S) == s->mtime_s &&
         (int64_t)tc_ld64(h + H_MTIME_NS) == s->mtime_ns &&
         (int64_t)tc_ld64(h + H_CTIME_S) == s->ctime_s &&
         (int64_t)tc_ld64(h + H_CTIME_NS) == s->ctime_ns && tc_ld64(h + H_DEV) == s->dev &&
         tc_ld64(h + H_INO) == s->ino && tc_ld64(h + H_HEAD_HASH) == s->head_hash;
}

/* ---- reader ---- */
struct tc_reader {
  FILE *f;
  const char *path;
  uint64_t length, ntbs, read_tbs, offset;
  tc_buf buf;
  char *io; /* f's buffer (freed after f is closed) */
  tc_tmpl_memo memo;
};

/* Why the cache at f cannot be used for `source` as `src`, or NULL (then *info, *length and
 * *ntbs are set and f is at the first block). */
static const char *check_header(FILE *f, const tc_source *src, const char *source,
                                trace_kernel_info *info, uint64_t *length, uint64_t *ntbs) {
  uint8_t h[TC_HEADER_BYTES], path[TC_PATH_MAX], rec[TC_INFO_BYTES];
  size_t path_bytes = strlen(source);
  struct stat st;
  if (fread(h, 1, sizeof h, f) != sizeof h) return "shorter than its header";
  if (memcmp(h, tc_magic, sizeof tc_magic)) return "not a trace cache";
  if (tc_ld32(h + H_VERSION) != TC_VERSION || tc_ld32(h + H_HEADER_BYTES) != TC_HEADER_BYTES)
    return "another format version";
  if (tc_ld64(h + H_READER) != TC_READER_ID) return "written by another rfsim";
  if (tc_ld32(h + H_PATH_BYTES) != path_bytes) return "made for another trace (path)";
  if (fread(path, 1, path_bytes, f) != path_bytes || fread(rec, 1, sizeof rec, f) != sizeof rec)
    return "shorter than its header";
  if (tc_ld64(h + H_CHECKSUM) != header_checksum(h, path, path_bytes, rec))
    return "header checksum mismatch";
  if (memcmp(path, source, path_bytes)) return "made for another trace (path)";
  if (!same_source(h, src)) return "made from another version of the trace";
  *length = tc_ld64(h + H_LENGTH);
  if (fstat(fileno(f), &st) < 0 || (uint64_t)st.st_size != *length)
    return "truncated or extended";
  *ntbs = tc_ld64(h + H_NTBS);
  if (tc_decode_info(rec, info) < 0 || *ntbs != (uint64_t)info->num_tbs)
    return "kernel header out of range";
  return NULL;
}

/* The reader's stdio buffer: blocks of a few kilobytes read through the default 4 KB one took a
 * system call each (22,000 for cuda/gaussian's 222 kernels). */
enum { TC_READ_BUFFER = 256 << 10 };

tc_reader *tc_reader_open(const char *cache_path, const tc_source *src, const char *source,
                          trace_kernel_info *info, rf_diag *d) {
  FILE *f = fopen(cache_path, "rb");
  if (!f) {
    rf_fail(d, "%s: cannot open: %s", cache_path, strerror(errno));
    return NULL;
  }
  /* (glibc sizes the buffer only when given one; without it, the default serves) */
  char *io = malloc(TC_READ_BUFFER);
  if (io) setvbuf(f, io, _IOFBF, TC_READ_BUFFER);
  uint64_t length = 0, ntbs = 0;
  const char *why = check_header(f, src, source, info, &length, &ntbs);
  tc_reader *r = why ? NULL : calloc(1, sizeof *r);
  if (!r) {
    rf_fail(d, "%s: %s", cache_path, why ? why : "out of memory");
    fclose(f);
    free(io);
    return NULL;
  }
  r->f = f;
  r->io = io;
  r->path = cache_path;
  r->length = length;
  r->ntbs = ntbs;
  r->offset = TC_HEADER_BYTES + strlen(source) + TC_INFO_BYTES;
  return r;
}

int tc_reader_next(tc_reader *r, const trace_kernel_info *info, int pack, trace_op_pool *ops,
                   trace_tb *tb, rf_diag *d) {
  memset(tb, 0, sizeof *tb);
  if (r->read_tbs == r->ntbs) {
    if (r->offset != r->length) return rf_fail(d, "%s: data after the last block", r->path);
    return 0;
  }
  uint8_t bh[TC_BLOCK_HEADER_BYTES];
  if (r->length - r->offset < sizeof bh || fread(bh, 1, sizeof bh, r->f) != sizeof bh)
    return rf_fail(d, "%s: block %llu missing", r->path, (unsigned long long)r->read_tbs);
  uint32_t len = tc_ld32(bh + 4);
  if (tc_ld32(bh) != TC_BLOCK_MAGIC || len > r->length - r->offset - sizeof bh)
    return rf_fail(d, "%s: block %llu header corrupt", r->path, (unsigned long long)r->read_tbs);
  r->buf.n = 0;
  if (tc_buf_reserve(&r->buf, len, d) < 0) return -1;
  if (fread(r->buf.p, 1, len, r->f) != len)
    return rf_fail(d, "%s: block %llu short", r->path, (unsigned long long)r->read_tbs);
  if (tc_checksum(r->buf.p, len) != tc_ld64(bh + 8))
    return rf_fail(d, "%s: block %llu checksum mismatch", r->path,
                   (unsigned long long)r->read_tbs);
  if (tc_decode_tb(r->buf.p, len, info, pack, ops, &r->memo, tb, d) < 0) return -1;
  r->offset += sizeof bh + len;
  r->read_tbs++;
  return 1;
}

void tc_reader_close(tc_reader *r) {
  if (!r) return;
  fclose(r->f);
  free(r->io);
  tc_tmpl_memo_free(&r->memo);
  free(r->buf.p);
  free(r);
}

/* ---- writer ---- */
struct tc_writer {
  FILE *f;
  tc_place place;
  char partial[TC_PATH_MAX + 340];
  tc_source src;
  uint8_t info[TC_INFO_BYTES];
  uint64_t body, ntbs; /* bytes after the path: the info record and the blocks */
  tc_buf buf;
};

/* A folder without any write permission bit is read-only by intent, also to root (who could
 * write there anyway): ../shared/traces is such a folder. */
static int folder_writable(const char *dir) {
  struct stat st;
  return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0222) != 0;
}

static void writer_free(tc_writer *w) {
  free(w->buf.p);
  free(w);
}

tc_writer *tc_writer_open(const tc_place *pl, const tc_source *src,
                          const trace_kernel_info *info) {
  if (tc_make_folder(pl->dir) < 0 || !folder_writable(pl->dir)) return NULL;
  tc_writer *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->place = *pl;
  w->src = *src;
  /* a name of its own per writer (not the pid: a cache folder may be shared by machines) */
  snprintf(w->partial, sizeof w->partial, "%s.partial.XXXXXX", pl->path);
  int fd = mkstemp(w->partial);
  if (fd < 0) {
    writer_free(w);
    return NULL;
  }
  fchmod(fd, 0644); /* mkstemp's 0600 would keep a shared cache folder's caches private */
  w->f = fdopen(fd, "wb");
  if (!w->f) {
    close(fd);
    tc_writer_abort(w);
    return NULL;
  }
  tc_encode_info(info, w->info);
  /* Room for the header and path, written when the cache is complete; then the record. */
  uint8_t zero[TC_HEADER_BYTES] = {0};
  size_t path_bytes = strlen(pl->source);
  int ok = fwrite(zero, 1, sizeof zero, w->f) == sizeof zero &&
           fwrite(pl->source, 1, path_bytes, w->f) == path_bytes &&
           fwrite(w->info, 1, sizeof w->info, w->f) == sizeof w->info;
  if (!ok) {
    tc_writer_abort(w);
    return NULL;
  }
  w->body = TC_INFO_BYTES;
  return w;
}

int tc_writer_add(tc_writer *w, const trace_tb *tb) {
  rf_diag ignore;
  if (tc_encode_tb(tb, &w->buf, &ignore) < 0 || w->buf.n > UINT32_MAX) return -1;
  uint8_t bh[TC_BLOCK_HEADER_BYTES];
  tc_st32(bh, TC_BLOCK_MAGIC);
  tc_st32(bh + 4, (uint32_t)w->buf.n);
  tc_st64(bh + 8, tc_checksum(w->buf.p, w->buf.n));
  if (fwrite(bh, 1, sizeof bh, w->f) != sizeof bh ||
      fwrite(w->buf.p, 1, w->buf.n, w->f) != w->buf.n)
    return -1;
  w->body += sizeof bh + w->buf.n;
  w->ntbs++;
  /* a cache that can never fit the folder's bound is not written on */
  if (w->place.max_bytes &&
      TC_HEADER_BYTES + strlen(w->place.source) + w->body > w->place.max_bytes)
    return -1;
  return 0;
}

int tc_writer_finish(tc_writer *w, const char *trace_path) {
  uint8_t h[TC_HEADER_BYTES + TC_PATH_MAX];
  size_t hn = tc_header_make(h, sizeof h, &w->src, w->place.source, w->info, w->body, w->ntbs);
  /* A trace rewritten while it was read gives a cache of neither version: dropped. */
  int ok = hn > 0 && tc_source_unchanged(trace_path, &w->src) && fseek(w->f, 0, SEEK_SET) == 0 &&
           fwrite(h, 1, hn, w->f) == hn;
  ok = fclose(w->f) == 0 && ok;
  w->f = NULL;
  if (ok) ok = rename(w->partial, w->place.path) == 0;
  if (!ok) unlink(w->partial);
  if (ok) tc_evict(w->place.dir, w->place.max_bytes, w->place.path);
  writer_free(w);
  return ok ? 0 : -1;
}

void tc_writer_abort(tc_writer *w) {
  if (!w) return;
  if (w->f) fclose(w->f);
  unlink(w->partial);
  writer_free(w);
}
