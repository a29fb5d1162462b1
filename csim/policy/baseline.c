/* Thread-block-level resource management, as GPGPU-Sim and the hardware the papers start from:
 * a CTA is admitted only if all of its registers, shared memory, threads and a CTA slot fit,
 * and everything is released when its last warp finishes. */
#include <stdlib.h>

#include "policy.h"
#include "policy_registry.h"

typedef struct baseline_sm {
  int ctas;
  int max_ctas;
} baseline_sm;

static int baseline_create(policy *p, rf_diag *d) {
  p->state = rf_calloc((size_t)p->n_sms, sizeof(baseline_sm), d);
  return p->state ? 0 : -1;
}

static void baseline_destroy(policy *p) { free(p->state); }

static int baseline_kernel_begin(policy *p, const trace_kernel_info *k, rf_diag *d) {
  const char *why;
  int max = policy_max_ctas(p->cfg, k, &why);
  if (max == 0)
    return rf_refuse(d, "kernel %s: one thread block (%d threads, %d registers/thread, %d B shared "
                      "memory) does not fit on an SM (limited by %s)",
                   k->name, k->threads_per_tb, k->nregs, k->shmem, why);
  baseline_sm *s = p->state;
  for (int i = 0; i < p->n_sms; i++) s[i].max_ctas = max;
  return 0;
}

/* Every CTA of a kernel needs the same resources, so the dynamic fit check reduces to counting
 * resident CTAs against the static max_cta bound. */
static int baseline_cta_admit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                              const trace_tb *tb, uint64_t now) {
  (void)cta_slot;
  (void)tb;
  (void)now;
  baseline_sm *s = &((baseline_sm *)p->state)[sm];
  if (s->ctas >= s->max_ctas) return 0;
  s->ctas++;
  return k->warps_per_tb;
}

static int baseline_may_admit(const policy *p, int sm) {
  const baseline_sm *s = &((const baseline_sm *)p->state)[sm];
  return s->ctas < s->max_ctas;
}

static void baseline_cta_exit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                              uint64_t now) {
  (void)cta_slot;
  (void)now;
  (void)k;
  ((baseline_sm *)p->state)[sm].ctas--;
}

const policy_ops policy_baseline = {
    .name = "baseline",
    .help = "thread-block-level resource management (GPGPU-Sim max_cta rule)",
    .create = baseline_create,
    .destroy = baseline_destroy,
    .kernel_begin = baseline_kernel_begin,
    .cta_admit = baseline_cta_admit,
    .may_admit = baseline_may_admit,
    .cta_exit = baseline_cta_exit,
};
