/* Thread-block-level resource management, as GPGPU-Sim and the hardware the papers start from:
 * a CTA is admitted only if all of its registers, shared memory, threads and a CTA slot fit,
 * and everything is released when its last warp finishes. */
#include <stdatomic.h>
#include <stdlib.h>

#include "policy.h"
#include "policy_registry.h"

typedef struct baseline_sm {
  int ctas;
  int max_ctas;
} baseline_sm;

typedef struct baseline_state {
  /* SMs below their max_ctas: the dispatcher's question each cycle in one read. Atomic, as the
   * SMs' exits (cta_exit) come from the threads stepping them; apart from the per-SM counts,
   * which those threads write. */
  _Atomic int open;
  char apart[64];
  baseline_sm sm[];
} baseline_state;

static baseline_state *state_of(const policy *p) { return p->state; }

static int baseline_create(policy *p, rf_diag *d) {
  baseline_state *s = rf_calloc(1, sizeof *s + (size_t)p->n_sms * sizeof(baseline_sm), d);
  if (!s) return -1;
  atomic_init(&s->open, 0);
  p->state = s;
  return 0;
}

static void baseline_destroy(policy *p) { free(p->state); }

static int baseline_kernel_begin(policy *p, const trace_kernel_info *k, rf_diag *d) {
  const char *why;
  int max = policy_max_ctas(p->cfg, k, &why);
  if (max == 0)
    return rf_refuse(d, "kernel %s: one thread block (%d threads, %d registers/thread, %d B shared "
                      "memory) does not fit on an SM (limited by %s)",
                   k->name, k->threads_per_tb, k->nregs, k->shmem, why);
  baseline_state *s = state_of(p);
  int open = 0;
  for (int i = 0; i < p->n_sms; i++) {
    s->sm[i].max_ctas = max;
    open += s->sm[i].ctas < max;
  }
  atomic_store_explicit(&s->open, open, memory_order_relaxed);
  return 0;
}

/* Every CTA of a kernel needs the same resources, so the dynamic fit check reduces to counting
 * resident CTAs against the static max_cta bound. */
static int baseline_cta_admit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                              const trace_tb *tb, uint64_t now) {
  (void)cta_slot;
  (void)tb;
  (void)now;
  baseline_state *st = state_of(p);
  baseline_sm *s = &st->sm[sm];
  if (s->ctas >= s->max_ctas) return 0;
  if (++s->ctas == s->max_ctas) atomic_fetch_sub_explicit(&st->open, 1, memory_order_relaxed);
  return k->warps_per_tb;
}

static int baseline_may_admit(const policy *p, int sm) {
  const baseline_sm *s = &state_of(p)->sm[sm];
  return s->ctas < s->max_ctas;
}

static int baseline_may_admit_any(const policy *p) {
  return atomic_load_explicit(&state_of(p)->open, memory_order_relaxed) > 0;
}

static void baseline_cta_exit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                              uint64_t now) {
  (void)cta_slot;
  (void)now;
  (void)k;
  baseline_state *st = state_of(p);
  baseline_sm *s = &st->sm[sm];
  if (s->ctas-- == s->max_ctas) atomic_fetch_add_explicit(&st->open, 1, memory_order_relaxed);
}

const policy_ops policy_baseline = {
    .name = "baseline",
    .help = "thread-block-level resource management (GPGPU-Sim max_cta rule)",
    .create = baseline_create,
    .destroy = baseline_destroy,
    .kernel_begin = baseline_kernel_begin,
    .cta_admit = baseline_cta_admit,
    .may_admit = baseline_may_admit,
    .may_admit_any = baseline_may_admit_any,
    .cta_exit = baseline_cta_exit,
};
