#include "tg_write.h"

#include <inttypes.h>
#include <string.h>

int tg_format_inst(char *buf, size_t size, const tg_inst *in, uint32_t mask,
                   const uint64_t addrs[32]) {
  tg_line_inst li = {.pc = in->pc, .mask = mask, .dst = in->ndst ? in->dst : -1, .op = in->op,
                     .nsrc = in->nsrc, .src = in->src, .width = in->width, .addrs = addrs};
  return tg_format_line(buf, size, &li);
}

static int put_inst(FILE *f, const tg_plan *p, const tg_inst *in, long tb, int warp, long it) {
  uint64_t addrs[32] = {0};
  char line[TG_LINE_MAX];
  uint32_t mask = tg_plan_inst_mask(p, in, tb, warp);
  if (in->width) tg_plan_addresses(p, in, tb, warp, it, mask, addrs);
  int n = tg_format_inst(line, sizeof line, in, mask, addrs);
  if (n < 0 || n >= (int)sizeof line) return -1;
  line[n++] = '\n';
  return fwrite(line, 1, (size_t)n, f) == (size_t)n ? 0 : -1;
}

static int write_warp(FILE *f, const tg_plan *p, long tb, int warp, long common) {
  const tg_program *g = &p->prog;
  long iters = tg_plan_warp_iters(p, tb, warp);
  long expect = tg_program_warp_insts(g, iters, common, p->k->barrier_every);
  if (tg_put_warp_header(f, warp, expect) < 0) return -1;
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

int tg_write_kernel(FILE *f, const char *path, const tg_plan *p, rf_diag *d) {
  const tg_kernel_spec *k = p->k;
  tg_kernel_header h = {.name = k->name, .id = p->index + 1, .shmem = (uint32_t)k->shmem,
                        .nregs = (uint32_t)k->nregs, .binary_version = 61,
                        .shmem_base = TG_SHMEM_BASE, .local_base = TG_LOCAL_BASE,
                        .tracer_version = 4};
  for (int i = 0; i < 3; i++) {
    h.grid[i] = (uint32_t)k->grid[i];
    h.block[i] = (uint32_t)k->block[i];
  }
  int ok = tg_put_kernel_header(f, &h) == 0;
  for (long tb = 0; ok && tb < p->num_tbs; tb++) {
    long x = tb % k->grid[0], y = tb / k->grid[0] % k->grid[1];
    long z = tb / ((long)k->grid[0] * k->grid[1]);
    ok = tg_put_tb_begin(f, x, y, z) == 0;
    long common = tg_plan_tb_common(p, tb);
    for (int w = 0; ok && w < p->warps; w++) {
      int rc = write_warp(f, p, tb, w, common);
      if (rc == -2) return rf_fail(d, "%s: internal error: instruction count mismatch", path);
      ok = rc == 0;
    }
    ok = ok && tg_put_tb_end(f) == 0;
  }
  return ok ? 0 : rf_fail(d, "%s: write error", path);
}

int tg_write_list_entry(FILE *f, const tg_plan *p) {
  const tg_kernel_spec *k = p->k;
  for (int i = 0; i < k->nacc; i++) {
    const tg_access *a = &k->acc[i];
    if (a->is_store || a->space != TG_GLOBAL) continue;
    for (int m = 0; m < (a->pattern == TG_TILED ? 2 : 1); m++)
      if (fprintf(f, "MemcpyHtoD,0x%016llx,%llu\n", (unsigned long long)p->base[i][m],
                  (unsigned long long)p->span[i][m]) < 0)
        return -1;
  }
  return fprintf(f, "kernel-%d.traceg\n", p->index + 1) < 0 ? -1 : 0;
}
