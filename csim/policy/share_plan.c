#include "share_plan.h"

#include <math.h>

#include "policy.h"

int share_t_milli(double t) {
  long v = lround(t * 1000.0);
  return v < 1 ? 1 : v > 1000 ? 1000 : (int)v;
}

static void cap(int *m, int bound, const char *why, const char **limit) {
  if (bound < *m) {
    *m = bound;
    *limit = why;
  }
}

void share_plan_compute(const gpu_config *c, const trace_kernel_info *k, share_resource r,
                        int t_milli, share_plan *out) {
  cta_needs n = policy_cta_needs(c, k);
  out->baseline = policy_max_ctas(c, k, NULL);
  long long R = r == SHARE_REGISTERS ? c->shader_registers : c->shmem_size;
  long long rtb = r == SHARE_REGISTERS ? n.regs : n.shmem;
  out->pairs = 0;
  out->private_units = 0;
  if (rtb <= 0 || out->baseline == 0) {
    /* a TB that needs none of the resource has nothing to share */
    out->g = out->formula = out->resident = out->unshared = out->baseline;
    out->limit = "baseline";
    return;
  }
  long long g = R / rtb;
  /* (R/Rtb - g)/t = (R mod Rtb) / (Rtb * t), in integers */
  long long extra = (R % rtb) * 1000 / (rtb * t_milli);
  long long formula = g + extra;
  out->g = (int)g;
  out->formula = formula > 1 << 20 ? 1 << 20 : (int)formula;
  int m = out->formula;
  const char *limit = "sharing formula";
  cap(&m, c->max_threads_per_sm / n.threads, "threads", &limit);
  cap(&m, c->shader_cta, "CTA slots", &limit);
  /* the resource not shared keeps its baseline rule */
  if (r == SHARE_REGISTERS && n.shmem > 0)
    cap(&m, c->shmem_size / n.shmem, "shared memory", &limit);
  if (r == SHARE_SCRATCHPAD && n.regs > 0)
    cap(&m, c->shader_registers / n.regs, "registers", &limit);
  /* S = M - g pairs need S <= g unshared partners' worth of progress: M <= 2g */
  cap(&m, 2 * out->g, "2g", &limit);
  if (m <= out->baseline) {
    out->resident = out->unshared = out->baseline;
    out->limit = "baseline";
    return;
  }
  out->resident = m;
  out->pairs = m - out->g;
  out->unshared = m - 2 * out->pairs;
  out->limit = limit;
  if (r == SHARE_REGISTERS) {
    int unit = c->reg_alloc_unit > 0 ? c->reg_alloc_unit : 1;
    int regs_per_thread = (k->nregs + unit - 1) / unit * unit;
    out->private_units = regs_per_thread * t_milli / 1000;
  } else {
    out->private_units = (int)(rtb * t_milli / 1000);
  }
}
