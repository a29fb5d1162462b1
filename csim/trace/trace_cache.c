/* The binary trace cache's format: the kernel info record and the thread-block payload, with
 * the checks that keep a decoded block to what the text parser can produce (layout in
 * trace_cache.h). */
#include "trace_cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/checked.h"
#include "../config/config.h"
#include "trace_addrs.h"
#include "trace_ops.h"

uint64_t tc_checksum(const uint8_t *p, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    h = (h ^ tc_ld64(p + i)) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
  }
  for (; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

int tc_buf_reserve(tc_buf *b, size_t more, rf_diag *d) {
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

/* ---- kernel info record ---- */
void tc_encode_info(const trace_kernel_info *in, uint8_t p[TC_INFO_BYTES]) {
  memset(p, 0, TC_INFO_BYTES);
  memcpy(p, in->name, sizeof in->name);
  p[255] = 0;
  int64_t v[18] = {in->id,         in->grid[0],     in->grid[1],        in->grid[2],
                   in->block[0],   in->block[1],    in->block[2],       in->shmem,
                   in->nregs,      in->binary_version, (int64_t)in->stream_id, (int64_t)in->shmem_base,
                   (int64_t)in->local_base, in->tracer_version, in->lineinfo, in->num_tbs,
                   in->threads_per_tb, in->warps_per_tb};
  for (int i = 0; i < 18; i++) tc_st64(p + 256 + 8 * i, (uint64_t)v[i]);
}

static int in_range(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

/* The record came through a checksum, but it is checked as the text header is. */
int tc_decode_info(const uint8_t p[TC_INFO_BYTES], trace_kernel_info *in) {
  memset(in, 0, sizeof *in);
  if (memchr(p, 0, 256) == NULL) return -1;
  memcpy(in->name, p, 256);
  int64_t v[18];
  for (int i = 0; i < 18; i++) v[i] = (int64_t)tc_ld64(p + 256 + 8 * i);
  for (int i = 1; i <= 6; i++)
    if (!in_range(v[i], 1, 0x7fffffff)) return -1;
  if (!in_range(v[0], 0, 0x7fffffff) || !in_range(v[7], 0, 1 << 30) || !in_range(v[8], 0, 255) ||
      !in_range(v[9], 0, 1000) || !in_range(v[13], 3, 5) || !in_range(v[14], 0, 1))
    return -1;
  in->id = (int)v[0];
  for (int i = 0; i < 3; i++) {
    in->grid[i] = (int)v[1 + i];
    in->block[i] = (int)v[4 + i];
  }
  in->shmem = (int)v[7];
  in->nregs = (int)v[8];
  in->binary_version = (int)v[9];
  in->stream_id = (uint64_t)v[10];
  in->shmem_base = (uint64_t)v[11];
  in->local_base = (uint64_t)v[12];
  in->tracer_version = (int)v[13];
  in->lineinfo = (int)v[14];
  uint64_t tbs, threads; /* as the text reader checks the header: products that fit */
  if (!rf_dim3_product(in->grid, TRACE_MAX_TBS, &tbs) ||
      !rf_dim3_product(in->block, TRACE_MAX_THREADS_PER_TB, &threads) ||
      (uint64_t)v[15] != tbs || (uint64_t)v[16] != threads ||
      (uint64_t)v[17] != (threads + TRACE_WARP_SIZE - 1) / TRACE_WARP_SIZE)
    return -1;
  in->num_tbs = (long)tbs;
  in->threads_per_tb = (int)threads;
  in->warps_per_tb = (int)v[17];
  return 0;
}

/* ---- thread block payload ----
 * The instructions of a thread block's warps come from a few hundred static instructions, so
 * the payload is a table of those (everything but the active mask and the addresses) and then,
 * per warp, each instruction as a varint index into it, its mask unless all 32 lanes are
 * active, and for memory instructions the addresses as a base and stride (deltas otherwise):
 *   i32 id[3], u32 warps, u32 templates, templates x TC_TMPL_BYTES
 *   per warp: varint instructions, varint memory instructions, then per instruction
 *     varint (template << 1 | full mask), [u32 mask], [memory: u8 encoding, addresses]
 *   addresses, ADDR_STRIDE: zigzag varint (base - previous base of the warp), zigzag stride;
 *     the k-th active lane is base + k * stride
 *   ADDR_HALVES (both half-warps active, not one stride): zigzag varints lo - previous base,
 *     stride, hi - lo; the k-th active lane of lanes 0-15 is lo + k * stride, of lanes 16-31
 *     hi + k * stride (trace_addrs.h), lo becoming the previous base
 *   ADDR_LIST: per active lane a zigzag varint delta from the lane before (the first lane's
 *     from the previous base), the first lane's address becoming the previous base
 * The first of these that gives an instruction's lanes back is its encoding: the one that
 * trace_tb_pack_addrs would choose, so a packed block decodes without checking its lists. */
#define TC_TMPL_BYTES 34
#define ADDR_LIST 0
#define ADDR_STRIDE 1
#define ADDR_HALVES 2

static void put_varint(tc_buf *b, uint64_t v) {
  while (v >= 0x80) {
    b->p[b->n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  b->p[b->n++] = (uint8_t)v;
}
static uint64_t zigzag(uint64_t v) { return (v << 1) ^ (uint64_t)-(int64_t)(v >> 63); }
static uint64_t unzigzag(uint64_t v) { return (v >> 1) ^ (uint64_t)-(int64_t)(v & 1); }

static int is_memop(uint8_t kind) {
  return kind == OPK_LOAD || kind == OPK_STORE || kind == OPK_ATOMIC;
}

static void put_template(uint8_t *p, const trace_op *in) {
  tc_st64(p, in->pc);
  tc_st32(p + 8, in->line);
  tc_st32(p + 12, in->imm);
  p[16] = (uint8_t)in->opcode;
  p[17] = (uint8_t)(in->opcode >> 8);
  p[18] = in->kind;
  p[19] = (uint8_t)(in->unit | in->space << 4);
  p[20] = in->width;
  p[21] = (uint8_t)(in->ndst | in->nsrc << 3 | in->has_imm << 7);
  memcpy(p + 22, in->dst, TRACE_MAX_DST);
  memcpy(p + 26, in->src, TRACE_MAX_SRC);
}

#define CORRUPT(...) rf_fail(d, "trace cache: " __VA_ARGS__)

/* Checked as the text parser would have made it: -1 if it could not come from a trace. */
static int get_template(const uint8_t *p, const trace_kernel_info *info, trace_op *in) {
  memset(in, 0, sizeof *in);
  in->pc = tc_ld64(p);
  in->line = tc_ld32(p + 8);
  in->imm = tc_ld32(p + 12);
  in->opcode = (uint16_t)(p[16] | p[17] << 8);
  in->kind = p[18];
  in->unit = p[19] & 15;
  in->space = p[19] >> 4;
  in->width = p[20];
  in->ndst = p[21] & 7;
  in->nsrc = (p[21] >> 3) & 15;
  in->has_imm = p[21] >> 7;
  memcpy(in->dst, p + 22, TRACE_MAX_DST);
  memcpy(in->src, p + 26, TRACE_MAX_SRC);
  if (in->opcode >= trace_opcode_count() || in->kind >= OPK_COUNT || in->unit >= UNIT_COUNT ||
      in->space > SPACE_INST || in->ndst > TRACE_MAX_DST || in->nsrc > TRACE_MAX_SRC ||
      (!info->lineinfo && in->line) || (!in->has_imm && in->imm))
    return -1;
  for (int r = 0; r < TRACE_MAX_DST; r++)
    if (r < in->ndst ? in->dst[r] == TRACE_RZ : in->dst[r] != 0) return -1;
  for (int r = 0; r < TRACE_MAX_SRC; r++)
    if (r < in->nsrc ? in->src[r] == TRACE_RZ : in->src[r] != 0) return -1;
  in->is_mem = (uint8_t)is_memop(in->kind);
  if (in->is_mem != (in->width != 0)) return -1;
  return 0;
}

int tc_encode_tb(const trace_tb *tb, tc_buf *out, rf_diag *d) {
  /* Templates: found through a hash of the PC (open addressing over twice the count). */
  size_t total = 0;
  for (int wi = 0; wi < tb->nwarps; wi++) total += tb->warps[wi].n;
  size_t nslots = 64;
  while (nslots < 2 * total) nslots *= 2;
  uint32_t *slot = calloc(nslots, sizeof *slot); /* template index + 1, 0 = empty */
  uint32_t *tmpl_of = total ? malloc(total * sizeof *tmpl_of) : NULL;
  const trace_op **tmpl = total ? malloc(total * sizeof *tmpl) : NULL;
  int rc = 0;
  if (!slot || (total && (!tmpl_of || !tmpl))) {
    rc = rf_fail(d, "out of memory");
    goto done;
  }
  uint32_t ntmpl = 0;
  size_t k = 0;
  for (int wi = 0; wi < tb->nwarps; wi++)
    for (uint32_t i = 0; i < tb->warps[wi].n; i++, k++) {
      const trace_op *op = tb->warps[wi].insts[i].op;
      size_t h = (size_t)((op->pc * 0x9e3779b97f4a7c15ull) >> 20) & (nslots - 1);
      /* a block's ops are distinct when the readers made it, but one built otherwise may
       * repeat one */
      while (slot[h] && tmpl[slot[h] - 1] != op && memcmp(tmpl[slot[h] - 1], op, sizeof *op))
        h = (h + 1) & (nslots - 1);
      if (!slot[h]) {
        tmpl[ntmpl++] = op;
        slot[h] = ntmpl;
      }
      tmpl_of[k] = slot[h] - 1;
    }
  out->n = 0;
  if ((rc = tc_buf_reserve(out, 20 + (size_t)ntmpl * TC_TMPL_BYTES, d)) < 0) goto done;
  for (int i = 0; i < 3; i++) tc_st32(out->p + 4 * i, (uint32_t)tb->id[i]);
  tc_st32(out->p + 12, (uint32_t)tb->nwarps);
  tc_st32(out->p + 16, ntmpl);
  out->n = 20;
  for (uint32_t t = 0; t < ntmpl; t++, out->n += TC_TMPL_BYTES)
    put_template(out->p + out->n, tmpl[t]);
  k = 0;
  for (int wi = 0; wi < tb->nwarps; wi++) {
    const trace_warp *w = &tb->warps[wi];
    if ((rc = tc_buf_reserve(out, 20, d)) < 0) goto done;
    uint32_t nmem = 0; /* not naddrs / 32: a packed pool holds fewer entries */
    for (uint32_t i = 0; i < w->n; i++) nmem += w->insts[i].op->is_mem;
    put_varint(out, w->n);
    put_varint(out, nmem);
    uint64_t prev = 0;
    for (uint32_t i = 0; i < w->n; i++, k++) {
      const trace_inst *in = &w->insts[i];
      /* at most: index 10, mask 4, encoding 1, 32 lanes x 10 */
      if ((rc = tc_buf_reserve(out, 15 + TRACE_WARP_SIZE * 10, d)) < 0) goto done;
      int full = in->mask == 0xffffffffu;
      put_varint(out, (uint64_t)tmpl_of[k] << 1 | (uint64_t)full);
      if (!full) {
        tc_st32(out->p + out->n, in->mask);
        out->n += 4;
      }
      if (!in->op->is_mem) continue;
      const uint64_t *a = w->addrs + in->addr_off;
      /* (the readers' inactive lanes are 0, as the decoder gives them back) */
      uint64_t base, stride, lo, hi, step; /* (lo is the first active lane's address: base) */
      /* A packed form is the encoding the lanes would choose (trace_addrs_pack chose it by the
       * same tests, in the same order); 32 lanes may still be either. */
      int form = in->addr_form;
      if (form == TRACE_ADDRS_LANES) {
        form = trace_addrs_strided(a, in->mask, &base, &stride) ? TRACE_ADDRS_STRIDE
               : trace_addrs_halves(a, in->mask, &lo, &hi, &step) ? TRACE_ADDRS_HALVES
                                                                : TRACE_ADDRS_LANES;
      } else {
        base = lo = a[0];
        stride = step = a[1];
        hi = form == TRACE_ADDRS_HALVES ? a[2] : 0;
      }
      if (form == TRACE_ADDRS_STRIDE) {
        out->p[out->n++] = ADDR_STRIDE;
        put_varint(out, zigzag(base - prev));
        put_varint(out, zigzag(stride));
      } else if (form == TRACE_ADDRS_HALVES) {
        out->p[out->n++] = ADDR_HALVES;
        put_varint(out, zigzag(lo - prev));
        put_varint(out, zigzag(step));
        put_varint(out, zigzag(hi - lo));
      } else {
        out->p[out->n++] = ADDR_LIST;
        uint64_t last = prev;
        for (uint32_t m = in->mask; m; m &= m - 1) {
          uint64_t v = a[__builtin_ctz(m)];
          put_varint(out, zigzag(v - last));
          last = v;
        }
      }
      prev = base;
    }
  }
done:
  free(slot);
  free(tmpl_of);
  free(tmpl);
  return rc;
}

static inline int get_varint(const uint8_t **cur, const uint8_t *end, uint64_t *v) {
  const uint8_t *p = *cur;
  uint64_t x = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p == end) return -1;
    uint8_t b = *p++;
    x |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *v = x;
      *cur = p;
      return 0;
    }
  }
  return -1;
}

/* Whether the next 8 bytes are there and each is a whole varint (no continuation bit): 8 lanes
 * of small deltas (lanes a few words apart, the commonest list), read without the byte loop. */
static int one_byte_deltas(const uint8_t *p, const uint8_t *end) {
  return end - p >= 8 && !(tc_ld64(p) & 0x8080808080808080ull);
}

/* With `pack`, an instruction whose addresses the cache stores as a base and a stride, or as
 * two half-warp runs, keeps them so (TRACE_ADDRS_STRIDE, TRACE_ADDRS_HALVES), as
 * trace_tb_pack_addrs would leave it: the encoder chose those forms exactly where that packs. */
static int decode_warp(const uint8_t **cur, const uint8_t *end, const trace_op *const *tmpl,
                       uint32_t ntmpl, int pack, trace_warp *w, rf_diag *d) {
  const uint8_t *p = *cur;
  uint64_t n, nmem;
  if (get_varint(&p, end, &n) < 0 || get_varint(&p, end, &nmem) < 0)
    return CORRUPT("warp header past the block's end");
  /* Each instruction takes at least one byte and each memory one three more: counts the block
   * cannot hold are refused before anything is allocated. */
  if (nmem > n || n > (uint64_t)(end - p) || nmem > ((uint64_t)(end - p) - n) / 3)
    return CORRUPT("warp of %llu instructions (%llu memory) does not fit its block",
                   (unsigned long long)n, (unsigned long long)nmem);
  if (n > (uint64_t)TRACE_MAX_WARP_INSTS || nmem > TRACE_MAX_WARP_MEM_INSTS)
    return CORRUPT("warp of %llu instructions (%llu memory), more than a text trace may hold",
                   (unsigned long long)n, (unsigned long long)nmem);
  w->n = (uint32_t)n;
  w->naddrs = (uint32_t)nmem * TRACE_WARP_SIZE;
  if (n && !(w->insts = malloc((size_t)n * sizeof *w->insts))) return rf_fail(d, "out of memory");
  if (nmem && !(w->addrs = malloc((size_t)w->naddrs * sizeof *w->addrs)))
    return rf_fail(d, "out of memory");
  uint32_t mem_seen = 0, used = 0;
  uint64_t prev = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t x;
    if (get_varint(&p, end, &x) < 0 || (x >> 1) >= ntmpl)
      return CORRUPT("instruction %u: template index", i);
    trace_inst *in = &w->insts[i];
    in->op = tmpl[x >> 1];
    in->addr_off = 0;
    in->addr_form = 0;
    if (x & 1) {
      in->mask = 0xffffffffu;
    } else {
      if (end - p < 4) return CORRUPT("mask past the block's end");
      in->mask = tc_ld32(p);
      p += 4;
    }
    if (!in->op->is_mem) continue;
    if (!in->mask || mem_seen == nmem)
      return CORRUPT("memory instruction %u without mask or address slot", i);
    in->addr_off = used;
    uint64_t *a = w->addrs + used;
    mem_seen++;
    int full = in->mask == 0xffffffffu;
    if (p == end) return CORRUPT("address encoding past the block's end");
    uint8_t enc = *p++;
    uint64_t base = 0, stride = 0, hi = 0;
    int halves = enc == ADDR_HALVES;
    if (enc == ADDR_STRIDE || halves) {
      if (get_varint(&p, end, &base) < 0 || get_varint(&p, end, &stride) < 0 ||
          (halves && get_varint(&p, end, &hi) < 0))
        return CORRUPT("addresses past the block's end");
      base = prev + unzigzag(base);
      stride = unzigzag(stride);
      hi = base + unzigzag(hi);
      prev = base;
      if (pack) {
        a[0] = base;
        a[1] = stride;
        if (halves) a[2] = hi;
        in->addr_form = halves ? TRACE_ADDRS_HALVES : TRACE_ADDRS_STRIDE;
        used += trace_addrs_entries(in->addr_form);
        continue;
      }
    }
    used += TRACE_WARP_SIZE;
    if (enc == ADDR_STRIDE) {
      trace_addrs_spread(base, stride, in->mask, a);
    } else if (halves) {
      trace_addrs_spread_halves(base, hi, stride, in->mask, a);
    } else if (enc == ADDR_LIST && full) {
      uint64_t last = prev;
      for (int lane = 0; lane < TRACE_WARP_SIZE;) {
        if (lane + 8 <= TRACE_WARP_SIZE && one_byte_deltas(p, end)) {
          for (int k = 0; k < 8; k++) {
            last += unzigzag(p[k]);
            a[lane + k] = last;
          }
          lane += 8;
          p += 8;
        } else {
          if (get_varint(&p, end, &x) < 0) return CORRUPT("addresses past the block's end");
          last += unzigzag(x);
          a[lane++] = last;
        }
      }
      prev = a[0];
    } else if (enc == ADDR_LIST) {
      if (!full) memset(a, 0, TRACE_WARP_SIZE * sizeof *a); /* inactive lanes hold 0 */
      uint64_t last = prev;
      for (uint32_t m = in->mask; m; m &= m - 1) {
        if (get_varint(&p, end, &x) < 0) return CORRUPT("addresses past the block's end");
        last += unzigzag(x);
        if (m == in->mask) prev = last;
        a[__builtin_ctz(m)] = last;
      }
    } else {
      return CORRUPT("address encoding %u", enc);
    }
  }
  if (mem_seen != nmem)
    return CORRUPT("expected %llu memory instructions, found %u", (unsigned long long)nmem,
                   mem_seen);
  trace_warp_fit_pool(w, used);
  *cur = p;
  return 0;
}

void tc_tmpl_memo_free(tc_tmpl_memo *m) {
  free(m->bytes);
  free(m->ops);
  *m = (tc_tmpl_memo){0};
}

/* The n templates at p as the kernel's ops, in memo->ops: taken as they are when p holds the
 * memo's bytes again, else decoded, checked and interned. 0, or -1 with d. */
static int intern_templates(const uint8_t *p, uint32_t n, const trace_kernel_info *info,
                            trace_op_pool *ops, tc_tmpl_memo *memo, rf_diag *d) {
  size_t bytes = (size_t)n * TC_TMPL_BYTES;
  if (memo->n == n && (n == 0 || !memcmp(memo->bytes, p, bytes))) return 0;
  memo->n = 0; /* (until these are in) */
  if (memo->cap < n) {
    uint8_t *nb = realloc(memo->bytes, bytes);
    if (nb) memo->bytes = nb;
    const trace_op **no = realloc(memo->ops, n * sizeof *no);
    if (no) memo->ops = no;
    if (!nb || !no) return rf_fail(d, "out of memory");
    memo->cap = n;
  }
  for (uint32_t t = 0; t < n; t++) {
    trace_op op;
    if (get_template(p + (size_t)t * TC_TMPL_BYTES, info, &op) < 0)
      return CORRUPT("instruction template %u out of range", t);
    if (!(memo->ops[t] = trace_op_intern(trace_op_pool_set(ops), &op, d))) return -1;
  }
  if (n) memcpy(memo->bytes, p, bytes);
  memo->n = n;
  return 0;
}

int tc_decode_tb(const uint8_t *p, size_t n, const trace_kernel_info *info, int pack,
                 trace_op_pool *ops, tc_tmpl_memo *memo, trace_tb *tb, rf_diag *d) {
  memset(tb, 0, sizeof *tb);
  const uint8_t *end = p + n;
  if (n < 20) return CORRUPT("thread block header past the block's end");
  for (int i = 0; i < 3; i++) {
    tb->id[i] = (int)tc_ld32(p + 4 * i);
    if (tb->id[i] < 0 || tb->id[i] >= info->grid[i])
      return CORRUPT("thread block outside the grid");
  }
  if ((int)tc_ld32(p + 12) != info->warps_per_tb)
    return CORRUPT("expected %d warps in a thread block", info->warps_per_tb);
  uint32_t ntmpl = tc_ld32(p + 16);
  p += 20;
  if ((uint64_t)ntmpl * TC_TMPL_BYTES > (uint64_t)(end - p))
    return CORRUPT("%u instruction templates do not fit the block", ntmpl);
  /* the templates become the kernel's ops */
  if (intern_templates(p, ntmpl, info, ops, memo, d) < 0) return -1;
  const trace_op *const *tmpl = memo->ops;
  p += (size_t)ntmpl * TC_TMPL_BYTES;
  tb->linear_id =
      tb->id[0] + (long)info->grid[0] * (tb->id[1] + (long)info->grid[1] * tb->id[2]);
  tb->nwarps = info->warps_per_tb;
  tb->warps = calloc((size_t)tb->nwarps, sizeof *tb->warps);
  int rc = tb->warps ? 0 : rf_fail(d, "out of memory");
  for (int w = 0; rc == 0 && w < tb->nwarps; w++)
    rc = decode_warp(&p, end, tmpl, ntmpl, pack, &tb->warps[w], d);
  if (rc == 0 && p != end) rc = CORRUPT("%zu bytes after the last warp", (size_t)(end - p));
  if (rc < 0) {
    trace_tb_free(tb);
    return rc;
  }
  tb->ops = ops;
  trace_op_pool_hold(ops);
  return 0;
}

