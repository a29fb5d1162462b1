#include "tg_write.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define APPEND(...)                                                       \
  do {                                                                    \
    int n_ = snprintf(buf + len, len < (int)size ? size - (size_t)len : 0, \
                      __VA_ARGS__);                                       \
    if (n_ < 0) return -1;                                                \
    len += n_;                                                            \
  } while (0)

int tg_format_addrs(char *buf, size_t size, uint32_t mask, const uint64_t addrs[32]) {
  int len = 0;
  if (!mask) { /* NVBit's tracer: its base+stride test passes vacuously, base and stride 0 */
    APPEND("1 0x0 0 ");
    return len;
  }
  int first = __builtin_ctz(mask), last = 31 - __builtin_clz(mask);
  int contiguous = (mask >> first) == (last - first == 31 ? 0xffffffffu
                                                          : (1u << (last - first + 1)) - 1u);
  int64_t stride = 0;
  int stride_ok = contiguous && last > first;
  if (stride_ok) {
    stride = (int64_t)(addrs[first + 1] - addrs[first]);
    for (int l = first + 1; l <= last && stride_ok; l++)
      stride_ok = (int64_t)(addrs[l] - addrs[l - 1]) == stride;
    stride_ok = stride_ok && stride >= INT32_MIN && stride <= INT32_MAX;
  }
  if (stride_ok) {
    APPEND("1 0x%" PRIx64 " %" PRId64 " ", addrs[first], stride);
    return len;
  }
  int deltas_ok = 1;
  for (int l = first + 1, prev = first; l <= last; l++) {
    if (!(mask >> l & 1u)) continue;
    int64_t delta = (int64_t)(addrs[l] - addrs[prev]);
    if (delta < INT32_MIN || delta > INT32_MAX) deltas_ok = 0;
    prev = l;
  }
  if (deltas_ok) {
    APPEND("2 0x%" PRIx64 " ", addrs[first]);
    for (int l = first + 1, prev = first; l <= last; l++) {
      if (!(mask >> l & 1u)) continue;
      APPEND("%" PRId64 " ", (int64_t)(addrs[l] - addrs[prev]));
      prev = l;
    }
    return len;
  }
  APPEND("0 ");
  for (int l = first; l <= last; l++)
    if (mask >> l & 1u) APPEND("0x%016" PRIx64 " ", addrs[l]);
  return len;
}

int tg_format_inst(char *buf, size_t size, const tg_inst *in, uint32_t mask,
                   const uint64_t addrs[32]) {
  int len = 0;
  APPEND("%04" PRIx32 " %08" PRIx32 " %d ", in->pc, mask, in->ndst);
  if (in->ndst) APPEND("R%d ", in->dst);
  APPEND("%s %d ", in->op, in->nsrc);
  for (int i = 0; i < in->nsrc; i++) APPEND("R%d ", in->src[i]);
  APPEND("%d ", in->width);
  if (in->width) {
    int n = tg_format_addrs(buf + len, len < (int)size ? size - (size_t)len : 0, mask, addrs);
    if (n < 0) return -1;
    len += n;
  }
  return len;
}

static int put_inst(tg_stream *f, const tg_plan *p, const tg_inst *in, long tb, int warp,
                    long it) {
  uint64_t addrs[32] = {0};
  char line[TG_LINE_MAX];
  uint32_t mask = tg_plan_inst_mask(p, in, tb, warp);
  if (in->width) tg_plan_addresses(p, in, tb, warp, it, mask, addrs);
  int n = tg_format_inst(line, sizeof line, in, mask, addrs);
  if (n < 0 || n >= (int)sizeof line) return -1;
  line[n++] = '\n';
  return tg_stream_write(f, line, (size_t)n);
}

static int write_warp(tg_stream *f, const tg_plan *p, long tb, int warp, long common) {
  const tg_program *g = &p->prog;
  long iters = tg_plan_warp_iters(p, tb, warp);
  long expect = tg_program_warp_insts(g, iters, common, p->k->barrier_every);
  if (tg_stream_printf(f, "\nwarp = %d\ninsts = %ld\n", warp, expect) < 0) return -1;
  long written = 0;
  for (int s = 0; s < g->loop_begin; s++, written++)
    if (put_inst(f, p, &g->insts[s], tb, warp, 0) < 0) return -1;
  for (long it = 0; it < iters; it++)
    for (int s = g->loop_begin; s < g->loop_end; s++) {
      const tg_inst *in = &g->insts[s];
      if (!tg_slot_runs(in, it, common, p->k->barrier_every)) continue;
      if (put_inst(f, p, in, tb, warp, it) < 0) return -1;
      written++;
    }
  for (int s = g->loop_end; s < g->n; s++, written++)
    if (put_inst(f, p, &g->insts[s], tb, warp, 0) < 0) return -1;
  return written == expect ? 0 : -2;
}

int tg_write_kernel(tg_stream *f, const tg_plan *p, rf_diag *d) {
  const tg_kernel_spec *k = p->k;
  int ok = tg_stream_printf(
               f,
               "-kernel name = %s\n-kernel id = %d\n-grid dim = (%d,%d,%d)\n"
               "-block dim = (%d,%d,%d)\n-shmem = %d\n-nregs = %d\n-binary version = 61\n"
               "-cuda stream id = 0\n-shmem base_addr = 0x%016llx\n"
               "-local mem base_addr = 0x%016llx\n-accelsim tracer version = 4\n"
               "-enable lineinfo = 0\n\n#traces format = [line_num] PC mask dest_num "
               "[reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] "
               "[mem_addresses]\n\n\n",
               k->name, p->index + 1, k->grid[0], k->grid[1], k->grid[2], k->block[0],
               k->block[1], k->block[2], k->shmem, k->nregs, (unsigned long long)TG_SHMEM_BASE,
               (unsigned long long)TG_LOCAL_BASE) == 0;
  for (long tb = 0; ok && tb < p->num_tbs; tb++) {
    long x = tb % k->grid[0], y = tb / k->grid[0] % k->grid[1];
    long z = tb / ((long)k->grid[0] * k->grid[1]);
    ok = tg_stream_printf(f, "\n#BEGIN_TB\n\nthread block = %ld,%ld,%ld\n", x, y, z) == 0;
    long common = tg_plan_tb_common(p, tb);
    for (int w = 0; ok && w < p->warps; w++) {
      int rc = write_warp(f, p, tb, w, common);
      if (rc == -2)
        return rf_fail(d, "%s: internal error: instruction count mismatch", tg_stream_path(f));
      ok = rc == 0;
    }
    ok = ok && tg_stream_puts(f, "\n#END_TB\n") == 0;
  }
  return ok ? 0 : -1; /* the stream failed: tg_stream_close says why */
}

int tg_write_list_entry(tg_stream *f, const tg_plan *p, const char *kernel_file) {
  const tg_kernel_spec *k = p->k;
  for (int i = 0; i < k->nacc; i++) {
    const tg_access *a = &k->acc[i];
    if (a->is_store || a->space != TG_GLOBAL) continue;
    for (int m = 0; m < (a->pattern == TG_TILED ? 2 : 1); m++)
      if (tg_stream_printf(f, "MemcpyHtoD,0x%016llx,%llu\n", (unsigned long long)p->base[i][m],
                           (unsigned long long)p->span[i][m]) < 0)
        return -1;
  }
  return tg_stream_printf(f, "%s\n", kernel_file);
}
