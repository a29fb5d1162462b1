#include "cta_residency.h"

#include <stdio.h>

void residency_slots(policy *p, int hw_ctas, int hw_warps) {
  p->sm_cta_slots = RESIDENCY_MAX_CTAS > hw_ctas ? RESIDENCY_MAX_CTAS : hw_ctas;
  p->sm_warp_slots = RESIDENCY_MAX_WARPS > hw_warps ? RESIDENCY_MAX_WARPS : hw_warps;
}

int residency_room(const cta_residency *r, const cta_needs *n) {
  return r->resident_ctas < RESIDENCY_MAX_CTAS &&
         r->resident_warps + n->warps <= RESIDENCY_MAX_WARPS && r->smem_free >= n->shmem;
}

int residency_active_room(const cta_residency *r, const cta_needs *n, int hw_ctas,
                          int hw_warps) {
  return r->active_ctas < hw_ctas && r->active_warps + n->warps <= hw_warps;
}

void residency_take_slots(cta_residency *r, const cta_needs *n) {
  r->active_ctas++;
  r->active_warps += n->warps;
}

void residency_free_slots(cta_residency *r, const cta_needs *n) {
  r->active_ctas--;
  r->active_warps -= n->warps;
}

void residency_admit(cta_residency *r, const cta_needs *n, int active) {
  r->smem_free -= n->shmem;
  r->resident_ctas++;
  r->resident_warps += n->warps;
  if (active) residency_take_slots(r, n);
  else r->pending++;
}

void residency_exit(cta_residency *r, const cta_needs *n) {
  r->smem_free += n->shmem;
  residency_free_slots(r, n);
  r->resident_ctas--;
  r->resident_warps -= n->warps;
}

void residency_sample(const cta_residency *r, residency_tally *t, uint64_t cycles) {
  t->pending_sum += cycles * (uint64_t)r->pending;
  t->active_sum += cycles * (uint64_t)r->active_ctas;
  t->sm_cycles += cycles;
  if ((uint64_t)r->pending > t->pending_max) t->pending_max = (uint64_t)r->pending;
}

void residency_stats(stats_record *out, const char *prefix, const residency_tally *t) {
  char name[64];
  snprintf(name, sizeof name, "%s_pending_ctas_mean", prefix);
  stats_f64(out, name, stats_ratio((double)t->pending_sum, (double)t->sm_cycles));
  snprintf(name, sizeof name, "%s_pending_ctas_max", prefix);
  stats_u64(out, name, t->pending_max);
  snprintf(name, sizeof name, "%s_active_ctas_mean", prefix);
  stats_f64(out, name, stats_ratio((double)t->active_sum, (double)t->sm_cycles));
}
