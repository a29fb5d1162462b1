#include "tg_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tg_outdir.h"
#include "tg_write.h"

void tg_plans_free(tg_plan *plans, int n) {
  if (!plans) return;
  for (int i = 0; i < n; i++) tg_plan_free(&plans[i]);
  free(plans);
}

int tg_plans_init(const tg_spec *s, tg_plan **plans_out, rf_diag *d) {
  *plans_out = NULL;
  tg_plan *plans = rf_calloc((size_t)s->nkernels, sizeof *plans, d);
  if (!plans) return -1;
  uint64_t next_global = TG_GLOBAL_BASE;
  for (int i = 0; i < s->nkernels; i++)
    if (tg_plan_init(&plans[i], s->path, &s->kernels[i], i, &next_global, d) < 0) {
      tg_plans_free(plans, i);
      return -1;
    }
  *plans_out = plans;
  return 0;
}

void tg_plan_counts(const tg_plan *p, tg_counts *c) {
  memset(c, 0, sizeof *c);
  c->min_warp = UINT64_MAX;
  for (long tb = 0; tb < p->num_tbs; tb++) {
    long common = tg_plan_tb_common(p, tb);
    for (int w = 0; w < p->warps; w++) {
      long iters = tg_plan_warp_iters(p, tb, w);
      uint64_t n = (uint64_t)tg_program_warp_insts(&p->prog, iters, common, p->k->barrier_every);
      c->warp_insts += n;
      int lanes = __builtin_popcount(tg_plan_mask(p, w));
      c->thread_insts += n * (uint64_t)lanes;
      /* lanes a guarded access predicates off issue no thread instruction */
      for (int s = 0; s < p->prog.n; s++) {
        const tg_inst *in = &p->prog.insts[s];
        if (in->acc < 0 || !p->k->acc[in->acc].guard) continue;
        int off = lanes - __builtin_popcount(tg_plan_inst_mask(p, in, tb, w));
        c->thread_insts -= (uint64_t)off *
                           (uint64_t)tg_slot_count(&p->prog, s, iters, common, p->k->barrier_every);
      }
      if (n < c->min_warp) c->min_warp = n;
      if (n > c->max_warp) c->max_warp = n;
      c->warps++;
    }
    c->tbs++;
  }
  if (c->warps == 0) c->min_warp = 0;
}

static void kernel_file(char *buf, size_t n, int i, tg_stream_kind kind) {
  snprintf(buf, n, "kernel-%d.traceg%s", i + 1, kind == TG_STREAM_XZ ? ".xz" : "");
}

static int write_all(const tg_spec *s, const tg_plan *plans, tg_outdir *o, tg_stream_kind kind,
                     rf_diag *d) {
  char path[TG_PATH_MAX + 96], name[40];
  for (int i = 0; i < s->nkernels; i++) {
    kernel_file(name, sizeof name, i, kind);
    tg_stream *f = tg_outdir_open(o, name, kind, path, sizeof path, d);
    if (!f) return -1;
    int rc = tg_write_kernel(f, &plans[i], d);
    if (tg_stream_close(f, d) < 0 || rc < 0) return -1; /* the close says why a stream failed */
  }
  tg_stream *f = tg_outdir_open(o, "kernelslist.g", TG_STREAM_PLAIN, path, sizeof path, d);
  if (!f) return -1;
  int rc = 0;
  for (int i = 0; i < s->nkernels && rc == 0; i++) {
    kernel_file(name, sizeof name, i, kind);
    rc = tg_write_list_entry(f, &plans[i], name);
  }
  return tg_stream_close(f, d) < 0 || rc < 0 ? -1 : 0;
}

int tg_generate(const tg_spec *s, const char *outdir, tg_stream_kind kind, rf_diag *d) {
  tg_plan *plans;
  if (tg_plans_init(s, &plans, d) < 0) return -1;
  tg_outdir o;
  int rc = tg_outdir_begin(&o, outdir, d);
  if (rc == 0) {
    rc = write_all(s, plans, &o, kind, d);
    if (rc == 0) rc = tg_outdir_commit(&o, d);
    tg_outdir_abort(&o);
  }
  tg_plans_free(plans, s->nkernels);
  return rc;
}
