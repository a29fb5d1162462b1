#include "cta_residency.h"

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

void residency_admit(cta_residency *r, const cta_needs *n, int active) {
  r->smem_free -= n->shmem;
  r->resident_ctas++;
  r->resident_warps += n->warps;
  if (active) {
    r->active_ctas++;
    r->active_warps += n->warps;
  } else {
    r->pending++;
  }
}

void residency_exit(cta_residency *r, const cta_needs *n) {
  r->smem_free += n->shmem;
  r->active_ctas--;
  r->active_warps -= n->warps;
  r->resident_ctas--;
  r->resident_warps -= n->warps;
}
