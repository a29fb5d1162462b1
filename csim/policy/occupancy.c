#include "policy.h"

cta_needs policy_cta_needs(const gpu_config *c, const trace_kernel_info *k) {
  cta_needs n;
  int ws = c->warp_size;
  n.warps = (k->threads_per_tb + ws - 1) / ws;
  n.threads = n.warps * ws;
  int unit = c->reg_alloc_unit > 0 ? c->reg_alloc_unit : 1;
  int regs_per_thread = (k->nregs + unit - 1) / unit * unit;
  n.regs_per_warp = regs_per_thread * ws;
  n.regs = regs_per_thread * n.threads;
  n.shmem = k->shmem;
  return n;
}

int policy_max_ctas(const gpu_config *c, const trace_kernel_info *k, const char **limiter) {
  cta_needs n = policy_cta_needs(c, k);
  int best = c->shader_cta;
  const char *why = "CTA slots";
  int by_threads = c->max_threads_per_sm / n.threads;
  if (by_threads < best) best = by_threads, why = "threads";
  if (n.regs > 0) {
    int by_regs = c->shader_registers / n.regs;
    if (c->registers_per_block > 0 && n.regs > c->registers_per_block) by_regs = 0;
    if (by_regs < best) best = by_regs, why = "registers";
  }
  if (n.shmem > 0) {
    int by_shmem = c->shmem_size / n.shmem;
    if (c->shmem_per_block > 0 && n.shmem > c->shmem_per_block) by_shmem = 0;
    if (by_shmem < best) best = by_shmem, why = "shared memory";
  }
  if (limiter) *limiter = why;
  return best;
}
