/* The binary trace cache: format, checks, reader and writer (layout in trace_cache.h). */
#include "trace_cache.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../config/config.h"

static const uint8_t tc_magic[8] = {'R', 'F', 'S', 'I', 'M', 'T', 'C', 0};
#define TC_BLOCK_MAGIC 0x4b4c4254u /* "TBLK" */
/* Thread block payload: i32 id[3], u32 warps; per warp u32 instructions, u32 memory
 * instructions, then the instructions (TC_INST_FIXED bytes each, then dst/src registers, then
 * for a memory instruction an address encoding byte and its addresses). */
#define TC_INST_FIXED 26
#define ADDR_LIST 0   /* one u64 per active lane */
#define ADDR_STRIDE 1 /* u64 base, u64 stride: the k-th active lane is base + k * stride */

/* ---- little-endian helpers ---- */
static inline uint64_t ld64(const uint8_t *p) {
  return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
         (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
         (uint64_t)p[7] << 56;
}
static inline uint32_t ld32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint16_t ld16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline void st64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void st32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

uint64_t tc_checksum(const uint8_t *p, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    h = (h ^ ld64(p + i)) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
  }
  for (; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

static int buf_reserve(tc_buf *b, size_t more, rf_diag *d) {
  if (b->n + more <= b->cap) return 0;
  size_t cap = b->cap ? b->cap : 4096;
  while (cap < b->n + more) {
    if (cap > SIZE_MAX / 2) return rf_fail(d, "trace cache: block too large");
    cap *= 2;
  }
  uint8_t *np = rf_realloc(b->p, cap, 1, d);
  if (!np) return -1;
  b->p = np;
  b->cap = cap;
  return 0;
}

int trace_cache_mode_parse(const char *s, trace_cache_mode *m) {
  if (!strcmp(s, "on")) *m = TRACE_CACHE_ON;
  else if (!strcmp(s, "off")) *m = TRACE_CACHE_OFF;
  else if (!strcmp(s, "rebuild")) *m = TRACE_CACHE_REBUILD;
  else return -1;
  return 0;
}

/* ---- paths and source identity ---- */
int tc_source_of(const char *trace_path, tc_source *src, rf_diag *d) {
  struct stat st;
  if (stat(trace_path, &st) < 0)
    return rf_fail(d, "%s: cannot stat: %s", trace_path, strerror(errno));
  src->size = (uint64_t)st.st_size;
  src->mtime_s = (int64_t)st.st_mtim.tv_sec;
  src->mtime_ns = (int64_t)st.st_mtim.tv_nsec;
  return 0;
}

char *tc_cache_path(const char *trace_path, const char *dir, rf_diag *d) {
  if (!dir || !*dir) {
    size_t n = strlen(trace_path) + sizeof TC_SUFFIX;
    char *p = rf_calloc(n, 1, d);
    if (p) snprintf(p, n, "%s%s", trace_path, TC_SUFFIX);
    return p;
  }
  /* Traces in different folders share file names (kernel-1.traceg): the absolute path's hash
   * keeps their caches apart. */
  char cwd[4096] = "";
  if (trace_path[0] != '/' && !getcwd(cwd, sizeof cwd)) cwd[0] = '\0';
  uint64_t h = tc_checksum((const uint8_t *)cwd, strlen(cwd)) ^
               tc_checksum((const uint8_t *)trace_path, strlen(trace_path));
  const char *slash = strrchr(trace_path, '/');
  const char *base = slash ? slash + 1 : trace_path;
  size_t n = strlen(dir) + strlen(base) + 40;
  char *p = rf_calloc(n, 1, d);
  if (p) snprintf(p, n, "%s/%s-%016llx%s", dir, base, (unsigned long long)h, TC_SUFFIX);
  return p;
}

/* ---- kernel info record ---- */
static void encode_info(const trace_kernel_info *in, uint8_t *p) {
  memset(p, 0, TC_INFO_BYTES);
  memcpy(p, in->name, sizeof in->name);
  p[255] = 0;
  int64_t v[18] = {in->id,         in->grid[0],     in->grid[1],        in->grid[2],
                   in->block[0],   in->block[1],    in->block[2],       in->shmem,
                   in->nregs,      in->binary_version, in->stream_id,   (int64_t)in->shmem_base,
                   (int64_t)in->local_base, in->tracer_version, in->lineinfo, in->num_tbs,
                   in->threads_per_tb, in->warps_per_tb};
  for (int i = 0; i < 18; i++) st64(p + 256 + 8 * i, (uint64_t)v[i]);
}

static int in_range(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

/* The record came through a checksum, but it is checked as the text header is. */
static int decode_info(const uint8_t *p, trace_kernel_info *in) {
  memset(in, 0, sizeof *in);
  if (memchr(p, 0, 256) == NULL) return -1;
  memcpy(in->name, p, 256);
  int64_t v[18];
  for (int i = 0; i < 18; i++) v[i] = (int64_t)ld64(p + 256 + 8 * i);
  for (int i = 1; i <= 6; i++)
    if (!in_range(v[i], 1, 0x7fffffff)) return -1;
  if (!in_range(v[0], 0, 0x7fffffff) || !in_range(v[7], 0, 1 << 30) || !in_range(v[8], 0, 255) ||
      !in_range(v[9], 0, 1000) || !in_range(v[10], INT_MIN, INT_MAX) ||
      !in_range(v[13], 3, 5) || !in_range(v[14], 0, 1))
    return -1;
  in->id = (int)v[0];
  for (int i = 0; i < 3; i++) {
    in->grid[i] = (int)v[1 + i];
    in->block[i] = (int)v[4 + i];
  }
  in->shmem = (int)v[7];
  in->nregs = (int)v[8];
  in->binary_version = (int)v[9];
  in->stream_id = (int)v[10];
  in->shmem_base = (uint64_t)v[11];
  in->local_base = (uint64_t)v[12];
  in->tracer_version = (int)v[13];
  in->lineinfo = (int)v[14];
  int64_t tbs = (int64_t)in->grid[0] * in->grid[1] * in->grid[2];
  int64_t threads = (int64_t)in->block[0] * in->block[1] * in->block[2];
  if (tbs > (1ll << 32) || threads > 4096 || v[15] != tbs || v[16] != threads ||
      v[17] != (threads + TRACE_WARP_SIZE - 1) / TRACE_WARP_SIZE)
    return -1;
  in->num_tbs = (long)tbs;
  in->threads_per_tb = (int)threads;
  in->warps_per_tb = (int)v[17];
  return 0;
}

/* ---- thread block payload ---- */
int tc_encode_tb(const trace_tb *tb, tc_buf *out, rf_diag *d) {
  out->n = 0;
  if (buf_reserve(out, 16, d) < 0) return -1;
  for (int i = 0; i < 3; i++) st32(out->p + 4 * i, (uint32_t)tb->id[i]);
  st32(out->p + 12, (uint32_t)tb->nwarps);
  out->n = 16;
  for (int wi = 0; wi < tb->nwarps; wi++) {
    const trace_warp *w = &tb->warps[wi];
    if (buf_reserve(out, 8, d) < 0) return -1;
    st32(out->p + out->n, w->n);
    st32(out->p + out->n + 4, w->naddrs / TRACE_WARP_SIZE);
    out->n += 8;
    for (uint32_t i = 0; i < w->n; i++) {
      const trace_inst *in = &w->insts[i];
      if (buf_reserve(out, TC_INST_FIXED + TRACE_MAX_DST + TRACE_MAX_SRC + 1 +
                               TRACE_WARP_SIZE * 8, d) < 0)
        return -1;
      uint8_t *p = out->p + out->n;
      st64(p, in->pc);
      st32(p + 8, in->mask);
      st32(p + 12, in->line);
      st32(p + 16, in->imm);
      p[20] = (uint8_t)in->opcode;
      p[21] = (uint8_t)(in->opcode >> 8);
      p[22] = in->kind;
      p[23] = (uint8_t)(in->unit | in->space << 4);
      p[24] = in->width;
      p[25] = (uint8_t)(in->ndst | in->nsrc << 3 | in->has_imm << 7);
      p += TC_INST_FIXED;
      memcpy(p, in->dst, in->ndst);
      p += in->ndst;
      memcpy(p, in->src, in->nsrc);
      p += in->nsrc;
      if (in->is_mem) {
        const uint64_t *a = w->addrs + in->addr_off;
        uint64_t base = 0, stride = 0;
        int k = 0, regular = 1;
        for (int lane = 0; lane < TRACE_WARP_SIZE; lane++) {
          if (!(in->mask >> lane & 1)) continue;
          if (k == 0) base = a[lane];
          else if (k == 1) stride = a[lane] - base;
          if (a[lane] != base + (uint64_t)k * stride) regular = 0;
          k++;
        }
        if (regular) {
          *p++ = ADDR_STRIDE;
          st64(p, base);
          st64(p + 8, stride);
          p += 16;
        } else {
          *p++ = ADDR_LIST;
          for (int lane = 0; lane < TRACE_WARP_SIZE; lane++)
            if (in->mask >> lane & 1) {
              st64(p, a[lane]);
              p += 8;
            }
        }
      }
      out->n = (size_t)(p - out->p);
    }
  }
  return 0;
}

#define CORRUPT(...) rf_fail(d, "trace cache: " __VA_ARGS__)

static int decode_warp(const uint8_t **cur, const uint8_t *end, const trace_kernel_info *info,
                       trace_warp *w, rf_diag *d) {
  const uint8_t *p = *cur;
  if (end - p < 8) return CORRUPT("warp header past the block's end");
  uint32_t n = ld32(p), nmem = ld32(p + 4);
  p += 8;
  /* Each instruction takes at least TC_INST_FIXED bytes and each memory one 17 more: counts the
   * block cannot hold are refused before anything is allocated. */
  if ((uint64_t)n * TC_INST_FIXED + (uint64_t)nmem * 17 > (uint64_t)(end - p) || nmem > n)
    return CORRUPT("warp of %u instructions (%u memory) does not fit its block", n, nmem);
  w->n = n;
  w->naddrs = nmem * TRACE_WARP_SIZE;
  if (n) {
    w->insts = malloc((size_t)n * sizeof *w->insts);
    if (!w->insts) return rf_fail(d, "out of memory");
  }
  if (nmem) {
    w->addrs = calloc((size_t)w->naddrs, sizeof *w->addrs);
    if (!w->addrs) return rf_fail(d, "out of memory");
  }
  int nops = trace_opcode_count();
  uint32_t mem_seen = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (end - p < TC_INST_FIXED) return CORRUPT("instruction past the block's end");
    trace_inst *in = &w->insts[i];
    memset(in, 0, sizeof *in);
    in->pc = ld64(p);
    in->mask = ld32(p + 8);
    in->line = ld32(p + 12);
    in->imm = ld32(p + 16);
    in->opcode = ld16(p + 20);
    in->kind = p[22];
    in->unit = p[23] & 15;
    in->space = p[23] >> 4;
    in->width = p[24];
    in->ndst = p[25] & 7;
    in->nsrc = (p[25] >> 3) & 15;
    in->has_imm = p[25] >> 7;
    p += TC_INST_FIXED;
    if (in->opcode >= nops || in->kind >= OPK_COUNT || in->unit >= UNIT_COUNT ||
        in->space > SPACE_INST || in->ndst > TRACE_MAX_DST || in->nsrc > TRACE_MAX_SRC ||
        (!info->lineinfo && in->line) || (!in->has_imm && in->imm))
      return CORRUPT("instruction %u: field out of range", i);
    if (end - p < in->ndst + in->nsrc) return CORRUPT("registers past the block's end");
    memcpy(in->dst, p, in->ndst);
    p += in->ndst;
    memcpy(in->src, p, in->nsrc);
    p += in->nsrc;
    for (int r = 0; r < in->ndst; r++)
      if (in->dst[r] == TRACE_RZ) return CORRUPT("RZ as a register operand");
    for (int r = 0; r < in->nsrc; r++)
      if (in->src[r] == TRACE_RZ) return CORRUPT("RZ as a register operand");
    int memop = in->kind == OPK_LOAD || in->kind == OPK_STORE || in->kind == OPK_ATOMIC;
    if (!memop) {
      if (in->width) return CORRUPT("width on a non-memory instruction");
      continue;
    }
    /* What the text parser makes of a memory instruction: addresses, a lane, a width. */
    if (!in->mask || !in->width || mem_seen == nmem)
      return CORRUPT("memory instruction %u without mask, width or address slot", i);
    in->is_mem = 1;
    in->addr_off = mem_seen * TRACE_WARP_SIZE;
    uint64_t *a = w->addrs + in->addr_off;
    mem_seen++;
    if (end - p < 1) return CORRUPT("address encoding past the block's end");
    uint8_t enc = *p++;
    if (enc == ADDR_STRIDE) {
      if (end - p < 16) return CORRUPT("addresses past the block's end");
      uint64_t v = ld64(p), stride = ld64(p + 8);
      p += 16;
      for (uint32_t m = in->mask; m; m &= m - 1, v += stride) a[__builtin_ctz(m)] = v;
    } else if (enc == ADDR_LIST) {
      int active = __builtin_popcount(in->mask);
      if (end - p < 8 * active) return CORRUPT("addresses past the block's end");
      for (uint32_t m = in->mask; m; m &= m - 1, p += 8) a[__builtin_ctz(m)] = ld64(p);
    } else {
      return CORRUPT("address encoding %u", enc);
    }
  }
  if (mem_seen != nmem) return CORRUPT("expected %u memory instructions, found %u", nmem, mem_seen);
  *cur = p;
  return 0;
}

int tc_decode_tb(const uint8_t *p, size_t n, const trace_kernel_info *info, trace_tb *tb,
                 rf_diag *d) {
  memset(tb, 0, sizeof *tb);
  const uint8_t *end = p + n;
  if (n < 16) return CORRUPT("thread block header past the block's end");
  for (int i = 0; i < 3; i++) {
    tb->id[i] = (int)ld32(p + 4 * i);
    if (tb->id[i] < 0 || tb->id[i] >= info->grid[i])
      return CORRUPT("thread block outside the grid");
  }
  if ((int)ld32(p + 12) != info->warps_per_tb)
    return CORRUPT("expected %d warps in a thread block", info->warps_per_tb);
  p += 16;
  tb->linear_id =
      tb->id[0] + (long)info->grid[0] * (tb->id[1] + (long)info->grid[1] * tb->id[2]);
  tb->nwarps = info->warps_per_tb;
  tb->warps = calloc((size_t)tb->nwarps, sizeof *tb->warps);
  if (!tb->warps) return rf_fail(d, "out of memory");
  for (int w = 0; w < tb->nwarps; w++)
    if (decode_warp(&p, end, info, &tb->warps[w], d) < 0) {
      trace_tb_free(tb);
      return -1;
    }
  if (p != end) {
    trace_tb_free(tb);
    return CORRUPT("%zu bytes after the last warp", (size_t)(end - p));
  }
  return 0;
}

/* ---- reader ---- */
struct tc_reader {
  FILE *f;
  const char *path;
  uint64_t length, ntbs, read_tbs, offset;
  tc_buf buf;
};

tc_reader *tc_reader_open(const char *cache_path, const tc_source *src, trace_kernel_info *info,
                          rf_diag *d) {
  FILE *f = fopen(cache_path, "rb");
  if (!f) {
    rf_fail(d, "%s: cannot open: %s", cache_path, strerror(errno));
    return NULL;
  }
  uint8_t h[TC_HEADER_BYTES + TC_INFO_BYTES];
  struct stat st;
  const char *why = NULL;
  if (fread(h, 1, sizeof h, f) != sizeof h) why = "shorter than its header";
  else if (memcmp(h, tc_magic, 8)) why = "not a trace cache";
  else if (ld32(h + 8) != TC_VERSION || ld32(h + 12) != TC_HEADER_BYTES) why = "another version";
  else if (ld64(h + 56) != (tc_checksum(h, 56) ^ tc_checksum(h + TC_HEADER_BYTES, TC_INFO_BYTES)))
    why = "header checksum mismatch";
  else if (ld64(h + 16) != src->size || (int64_t)ld64(h + 24) != src->mtime_s ||
           (int64_t)ld64(h + 32) != src->mtime_ns)
    why = "made from another version of the trace (size or mtime differ)";
  else if (fstat(fileno(f), &st) < 0 || (uint64_t)st.st_size != ld64(h + 40))
    why = "truncated or extended";
  else if (decode_info(h + TC_HEADER_BYTES, info) < 0 || ld64(h + 48) != (uint64_t)info->num_tbs)
    why = "kernel header out of range";
  tc_reader *r = why ? NULL : calloc(1, sizeof *r);
  if (!r) {
    rf_fail(d, "%s: %s", cache_path, why ? why : "out of memory");
    fclose(f);
    return NULL;
  }
  r->f = f;
  r->path = cache_path;
  r->length = ld64(h + 40);
  r->ntbs = ld64(h + 48);
  r->offset = sizeof h;
  return r;
}

uint64_t tc_reader_ntbs(const tc_reader *r) { return r->ntbs; }

int tc_reader_next(tc_reader *r, const trace_kernel_info *info, trace_tb *tb, rf_diag *d) {
  memset(tb, 0, sizeof *tb);
  if (r->read_tbs == r->ntbs) {
    if (r->offset != r->length) return rf_fail(d, "%s: data after the last block", r->path);
    return 0;
  }
  uint8_t bh[TC_BLOCK_HEADER_BYTES];
  if (r->length - r->offset < sizeof bh || fread(bh, 1, sizeof bh, r->f) != sizeof bh)
    return rf_fail(d, "%s: block %llu missing", r->path, (unsigned long long)r->read_tbs);
  uint32_t len = ld32(bh + 4);
  if (ld32(bh) != TC_BLOCK_MAGIC || len > r->length - r->offset - sizeof bh)
    return rf_fail(d, "%s: block %llu header corrupt", r->path, (unsigned long long)r->read_tbs);
  r->buf.n = 0;
  if (buf_reserve(&r->buf, len, d) < 0) return -1;
  if (fread(r->buf.p, 1, len, r->f) != len)
    return rf_fail(d, "%s: block %llu short", r->path, (unsigned long long)r->read_tbs);
  if (tc_checksum(r->buf.p, len) != ld64(bh + 8))
    return rf_fail(d, "%s: block %llu checksum mismatch", r->path,
                   (unsigned long long)r->read_tbs);
  if (tc_decode_tb(r->buf.p, len, info, tb, d) < 0) return -1;
  r->offset += sizeof bh + len;
  r->read_tbs++;
  return 1;
}

void tc_reader_close(tc_reader *r) {
  if (!r) return;
  fclose(r->f);
  free(r->buf.p);
  free(r);
}

/* ---- writer ---- */
struct tc_writer {
  FILE *f;
  char *final_path, *partial_path;
  tc_source src;
  uint8_t head[TC_HEADER_BYTES + TC_INFO_BYTES];
  uint64_t length, ntbs;
  tc_buf buf;
};

tc_writer *tc_writer_open(const char *cache_path, const tc_source *src,
                          const trace_kernel_info *info) {
  tc_writer *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  size_t n = strlen(cache_path) + 40;
  w->final_path = strdup(cache_path);
  w->partial_path = malloc(n);
  if (!w->final_path || !w->partial_path) goto fail;
  snprintf(w->partial_path, n, "%s.partial.%ld", cache_path, (long)getpid());
  w->f = fopen(w->partial_path, "wb");
  if (!w->f) goto fail;
  w->src = *src;
  memset(w->head, 0, sizeof w->head);
  encode_info(info, w->head + TC_HEADER_BYTES);
  /* The header is written again, complete, by tc_writer_finish. */
  if (fwrite(w->head, 1, sizeof w->head, w->f) != sizeof w->head) {
    tc_writer_abort(w);
    return NULL;
  }
  w->length = sizeof w->head;
  return w;
fail:
  free(w->final_path);
  free(w->partial_path);
  free(w);
  return NULL;
}

int tc_writer_add(tc_writer *w, const trace_tb *tb) {
  rf_diag ignore;
  if (tc_encode_tb(tb, &w->buf, &ignore) < 0 || w->buf.n > UINT32_MAX) return -1;
  uint8_t bh[TC_BLOCK_HEADER_BYTES];
  st32(bh, TC_BLOCK_MAGIC);
  st32(bh + 4, (uint32_t)w->buf.n);
  st64(bh + 8, tc_checksum(w->buf.p, w->buf.n));
  if (fwrite(bh, 1, sizeof bh, w->f) != sizeof bh ||
      fwrite(w->buf.p, 1, w->buf.n, w->f) != w->buf.n)
    return -1;
  w->length += sizeof bh + w->buf.n;
  w->ntbs++;
  return 0;
}

int tc_writer_finish(tc_writer *w, const char *trace_path) {
  rf_diag ignore;
  tc_source now = {0, 0, 0};
  uint8_t *h = w->head;
  memcpy(h, tc_magic, 8);
  st32(h + 8, TC_VERSION);
  st32(h + 12, TC_HEADER_BYTES);
  st64(h + 16, w->src.size);
  st64(h + 24, (uint64_t)w->src.mtime_s);
  st64(h + 32, (uint64_t)w->src.mtime_ns);
  st64(h + 40, w->length);
  st64(h + 48, w->ntbs);
  st64(h + 56, tc_checksum(h, 56) ^ tc_checksum(h + TC_HEADER_BYTES, TC_INFO_BYTES));
  /* A trace rewritten while it was read gives a cache of neither version: dropped. */
  int ok = tc_source_of(trace_path, &now, &ignore) == 0 && now.size == w->src.size &&
           now.mtime_s == w->src.mtime_s && now.mtime_ns == w->src.mtime_ns &&
           fseek(w->f, 0, SEEK_SET) == 0 &&
           fwrite(h, 1, sizeof w->head, w->f) == sizeof w->head;
  ok = fclose(w->f) == 0 && ok;
  w->f = NULL;
  if (ok) ok = rename(w->partial_path, w->final_path) == 0;
  if (!ok) unlink(w->partial_path);
  free(w->final_path);
  free(w->partial_path);
  free(w->buf.p);
  free(w);
  return ok ? 0 : -1;
}

void tc_writer_abort(tc_writer *w) {
  if (!w) return;
  if (w->f) fclose(w->f);
  unlink(w->partial_path);
  free(w->final_path);
  free(w->partial_path);
  free(w->buf.p);
  free(w);
}
