#include "tg_plan.h"

#include <string.h>

#include "../common/checked.h"
#include "../trace/trace.h"
#include "tg_access.h"
#include "tg_rng.h"

#define TAG_ITERS 0x69746572ull  /* "iter" */
#define TAG_RANDOM 0x72616e64ull /* "rand" */


/* Every offset a plain access computes before it wraps at its span is below this bound (the
 * element index is below iterations x threads; see plain_address), so an offset, and a region
 * end, that fit 64 bits never wrap. 0 if the bound itself does not fit. */
static int offset_bound(const tg_plan *p, const tg_access *a, uint64_t *bound) {
  uint64_t w = (uint64_t)a->width, its = a->when == TG_AT_LOOP ? (uint64_t)p->max_iters : 1;
  uint64_t threads = a->space == TG_SHARED ? (uint64_t)p->threads : p->grid_threads, elems, x;
  if (its == 0) its = 1;
  if (!rf_mul_u64(its, threads, &elems)) return 0;
  switch (a->pattern) {
  case TG_STRIDED: return rf_mul_u64(elems, a->stride, bound);
  case TG_WINDOW:
    return rf_mul_u64(elems, w, &x) && rf_mul_u64((uint64_t)a->taps, a->stride, bound) &&
           rf_add_u64(x, *bound, bound);
  case TG_BROADCAST: return rf_mul_u64(its, w, bound);
  default: return rf_mul_u64(elems, w, bound);
  }
}

/* Bytes an access spans when the spec gives no footprint: enough that nothing repeats. */
static int natural_span(const tg_plan *p, const tg_access *a, uint64_t bound, uint64_t *span) {
  if (a->space == TG_SHARED) {
    *span = tg_access_shared_span(p->k, a);
    return 1;
  }
  if (a->space == TG_LOCAL) return rf_mul_u64(64, p->grid_threads, span); /* 64 B per thread */
  *span = bound;
  return 1;
}

/* Moves *next past a region of `span` bytes on the next 1 MiB boundary; 0 if that leaves the
 * 64-bit address space. */
static int advance(uint64_t *next, uint64_t span) {
  uint64_t end;
  if (!rf_add_u64(*next, span, &end) || !rf_add_u64(end, TG_REGION_ALIGN - 1, &end)) return 0;
  *next = end / TG_REGION_ALIGN * TG_REGION_ALIGN;
  return 1;
}

static int too_large(const char *path, const tg_kernel_spec *k, const tg_access *a,
                     rf_diag *d) {
  return rf_fail_at(d, path, a->line,
                    "expected an access whose addresses fit 64 bits, found one over grid "
                    "(%d,%d,%d), block (%d,%d,%d), %d iterations, width %d, stride %llu",
                    k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2],
                    k->iters, a->width, (unsigned long long)a->stride);
}

static int layout_regions(tg_plan *p, const char *path, uint64_t *next_global, rf_diag *d) {
  const tg_kernel_spec *k = p->k;
  uint64_t next_local = TG_LOCAL_BASE;
  for (int i = 0; i < k->nacc; i++) {
    const tg_access *a = &k->acc[i];
    if (a->pattern == TG_TILED) {
      /* Blocks beyond one matrix's tile count work on further matrices of a batch. */
      uint64_t tiles = (uint64_t)(k->iters > 0 ? k->iters : 1);
      uint64_t n = (uint64_t)a->tile * tiles, span;
      uint64_t batches = ((uint64_t)p->num_tbs + tiles * tiles - 1) / (tiles * tiles);
      if (!rf_mul_u64(n, n, &span) || !rf_mul_u64(span, (uint64_t)a->width, &span) ||
          !rf_mul_u64(span, batches, &span))
        return too_large(path, k, a, d);
      for (int m = 0; m < 2; m++) {
        p->base[i][m] = *next_global;
        p->span[i][m] = span;
        if (!advance(next_global, span)) return too_large(path, k, a, d);
      }
      continue;
    }
    uint64_t bound, span;
    if (!offset_bound(p, a, &bound) || !natural_span(p, a, bound, &span))
      return too_large(path, k, a, d);
    if (a->footprint) span = a->footprint;
    span = span / (uint64_t)a->width * (uint64_t)a->width;
    if (span < (uint64_t)a->width) span = (uint64_t)a->width;
    p->span[i][0] = span;
    if (a->space == TG_SHARED) {
      p->base[i][0] = a->offset;
    } else if (a->space == TG_LOCAL) {
      p->base[i][0] = next_local;
      if (!advance(&next_local, span)) return too_large(path, k, a, d);
    } else {
      p->base[i][0] = *next_global;
      if (!advance(next_global, span)) return too_large(path, k, a, d);
    }
  }
  return 0;
}

int tg_plan_init(tg_plan *p, const char *path, const tg_kernel_spec *k, int index,
                 uint64_t *next_global, rf_diag *d) {
  memset(p, 0, sizeof *p);
  p->k = k;
  p->index = index;
  p->seed = tg_hash(k->seed, (uint64_t)index, 0x6b65726eull, 0, 0); /* "kern" */
  p->threads = k->block[0] * k->block[1] * k->block[2];
  p->warps = (p->threads + 31) / 32;
  p->num_tbs = (long)k->grid[0] * k->grid[1] * k->grid[2];
  p->grid_threads = (uint64_t)p->num_tbs * (uint64_t)p->threads;
  switch (k->imbalance) {
  case TG_RAY: p->max_iters = k->imb_b; break;
  case TG_ST: p->max_iters = k->iters > k->imb_b ? k->iters : k->imb_b; break;
  default: p->max_iters = k->iters; break;
  }
  if (layout_regions(p, path, next_global, d) < 0 || tg_program_build(k, p->seed, &p->prog, d) < 0)
    return -1;
  /* The longest warp must be one the trace reader accepts (`insts = n`, n <= 2^30). */
  long most = tg_program_warp_insts(&p->prog, p->max_iters, p->max_iters, k->barrier_every);
  if (most > TRACE_MAX_WARP_INSTS) {
    tg_plan_free(p);
    return rf_fail_at(d, path, k->line,
                      "expected warps of at most %ld instructions, found %ld in kernel '%s' (%ld "
                      "iterations)", TRACE_MAX_WARP_INSTS, most, k->name, p->max_iters);
  }
  /* ... and the kernel's thread-instruction count (tg_plan_counts) must fit 64 bits */
  uint64_t total;
  if (!rf_mul_u64((uint64_t)p->num_tbs * (uint64_t)p->warps, (uint64_t)most, &total) ||
      !rf_mul_u64(total, 32, &total)) {
    tg_plan_free(p);
    return rf_fail_at(d, path, k->line,
                      "expected a kernel of at most 2^64 thread instructions, found %ld blocks "
                      "of %d warps of up to %ld instructions in kernel '%s'", p->num_tbs,
                      p->warps, most, k->name);
  }
  return 0;
}

void tg_plan_free(tg_plan *p) { tg_program_free(&p->prog); }

long tg_plan_warp_iters(const tg_plan *p, long tb, int warp) {
  const tg_kernel_spec *k = p->k;
  switch (k->imbalance) {
  case TG_RAY: {
    uint64_t range = (uint64_t)(k->imb_b - k->imb_a) + 1;
    return k->imb_a + (long)(tg_hash(p->seed, TAG_ITERS, (uint64_t)tb, (uint64_t)warp, 0) % range);
  }
  case TG_ST: return warp < k->imb_a ? k->iters : k->imb_b;
  default: return k->iters;
  }
}

long tg_plan_tb_common(const tg_plan *p, long tb) {
  long m = tg_plan_warp_iters(p, tb, 0);
  for (int w = 1; w < p->warps; w++) {
    long x = tg_plan_warp_iters(p, tb, w);
    if (x < m) m = x;
  }
  return m;
}

uint32_t tg_plan_mask(const tg_plan *p, int warp) {
  int lanes = p->threads - warp * 32;
  return lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
}

uint32_t tg_plan_inst_mask(const tg_plan *p, const tg_inst *in, long tb, int warp) {
  uint32_t mask = tg_plan_mask(p, warp);
  uint64_t guard = in->acc >= 0 ? p->k->acc[in->acc].guard : 0;
  if (!guard) return mask;
  uint64_t first = (uint64_t)tb * (uint64_t)p->threads + (uint64_t)warp * 32;
  if (first >= guard) return 0;
  return guard - first >= 32 ? mask : mask & ((1u << (guard - first)) - 1u);
}

static uint64_t tiled_address(const tg_plan *p, const tg_inst *in, long tb, uint64_t tid,
                              long it) {
  const tg_access *a = &p->k->acc[in->acc];
  uint64_t t = (uint64_t)a->tile, w = (uint64_t)a->width;
  uint64_t tiles = (uint64_t)(p->k->iters > 0 ? p->k->iters : 1); /* tiles per matrix edge */
  uint64_t n = t * tiles;
  uint64_t bx = (uint64_t)tb % tiles, by = (uint64_t)tb / tiles % tiles;
  uint64_t batch = (uint64_t)tb / (tiles * tiles) * n * n * w;
  uint64_t tx = tid % t, ty = tid / t % t, step = (uint64_t)it % tiles, kk = in->sub;
  switch (in->role) {
  case TG_ROLE_LDG_A:
    return p->base[in->acc][0] + batch + ((by * t + ty) * n + step * t + tx) * w;
  case TG_ROLE_LDG_B:
    return p->base[in->acc][1] + batch + ((step * t + ty) * n + bx * t + tx) * w;
  case TG_ROLE_STS_A: return (ty * t + tx) * w;
  case TG_ROLE_STS_B: return t * t * w + (ty * t + tx) * w;
  case TG_ROLE_LDS_A: return (ty * t + kk) * w;
  default: return t * t * w + (kk * t + tx) * w; /* TG_ROLE_LDS_B */
  }
}

static uint64_t plain_address(const tg_plan *p, const tg_inst *in, long tb, int warp, int lane,
                              long it) {
  const tg_access *a = &p->k->acc[in->acc];
  uint64_t tid = (uint64_t)warp * 32 + (uint64_t)lane;
  int shared = a->space == TG_SHARED;
  uint64_t thread = shared ? tid : (uint64_t)tb * (uint64_t)p->threads + tid;
  uint64_t nthreads = shared ? (uint64_t)p->threads : p->grid_threads;
  uint64_t e = (uint64_t)it * nthreads + thread, w = (uint64_t)a->width;
  uint64_t span = p->span[in->acc][0], off;
  switch (a->pattern) {
  case TG_STRIDED: off = e * a->stride; break;
  case TG_WINDOW: off = e * w + in->sub * a->stride; break;
  case TG_BROADCAST: off = (uint64_t)it * w; break;
  case TG_RANDOM: {
    uint64_t site = (uint64_t)(in - p->prog.insts);
    uint64_t h = tg_hash(p->seed, TAG_RANDOM, (uint64_t)tb, ((uint64_t)warp << 32) | site,
                         ((uint64_t)it << 6) | (uint64_t)lane);
    off = h % (span / w) * w;
    break;
  }
  default: off = e * w; break;
  }
  return p->base[in->acc][0] + off % span;
}

void tg_plan_addresses(const tg_plan *p, const tg_inst *in, long tb, int warp, long it,
                       uint32_t mask, uint64_t addrs[32]) {
  for (int lane = 0; lane < 32; lane++) {
    if (!(mask >> lane & 1u)) {
      addrs[lane] = 0;
      continue;
    }
    addrs[lane] = in->role == TG_ROLE_PLAIN
                      ? plain_address(p, in, tb, warp, lane, it)
                      : tiled_address(p, in, tb, (uint64_t)warp * 32 + (uint64_t)lane, it);
  }
}
