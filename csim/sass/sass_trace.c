#include "sass_trace.h"

#include <stdlib.h>
#include <string.h>

#include "../tracegen/tg_line.h"

int sass_trace_begin(sass_sink *s, FILE *f, const char *path, const sass_module *m,
                     const sass_kernel *k, const sass_launch *L, rf_diag *d) {
  s->f = f;
  s->path = path;
  tg_kernel_header h = {.name = k->info->name, .id = L->trace_id,
                        .shmem = k->info->shared_bytes + L->dyn_shared,
                        .nregs = (uint32_t)k->info->nregs, .binary_version = m->sm,
                        .shmem_base = SASS_SHARED_WINDOW, .local_base = SASS_LOCAL_WINDOW,
                        .tracer_version = 4};
  memcpy(h.grid, L->grid, sizeof h.grid);
  memcpy(h.block, L->block, sizeof h.block);
  return tg_put_kernel_header(f, &h) < 0 ? rf_fail(d, "%s: write error", path) : 0;
}

int sass_trace_inst(sass_sink *s, sass_wtrace *t, const sass_inst *in, uint32_t mask,
                    const uint64_t addrs[32], rf_diag *d) {
  (void)s;
  if (t->cap - t->n < TG_LINE_MAX + 1) {
    size_t cap = t->cap ? 2 * t->cap : 1 << 16;
    char *b = realloc(t->buf, cap);
    if (!b) return rf_fail(d, "out of memory for the trace of a warp (%zu bytes)", cap);
    t->buf = b;
    t->cap = cap;
  }
  tg_line_inst li = {.pc = in->pc, .mask = mask, .dst = in->tdst, .op = in->opcode,
                     .nsrc = in->tnsrc, .src = in->tsrc, .width = in->twidth, .addrs = addrs};
  int n = tg_format_line(t->buf + t->n, TG_LINE_MAX, &li);
  if (n < 0) return rf_fail(d, "%s at 0x%x: trace line longer than %d bytes", in->opcode, in->pc,
                            TG_LINE_MAX);
  t->n += (size_t)n;
  t->buf[t->n++] = '\n';
  t->insts++;
  return 0;
}

int sass_trace_cta(sass_sink *s, const sass_cta *c, rf_diag *d) {
  int ok = tg_put_tb_begin(s->f, c->id[0], c->id[1], c->id[2]) == 0;
  for (int i = 0; ok && i < c->nwarps; i++) {
    const sass_wtrace *t = &c->w[i].tr;
    if (!t->insts) continue;
    ok = tg_put_warp_header(s->f, i, (long)t->insts) == 0 && fwrite(t->buf, 1, t->n, s->f) == t->n;
  }
  ok = ok && tg_put_tb_end(s->f) == 0;
  return ok ? 0 : rf_fail(d, "%s: write error", s->path);
}
