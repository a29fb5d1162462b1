/* Scratchpad sharing (resource_sharing_register_and_scratchpad.txt sec. III-B, IV-A, V): pairs
 * of thread blocks get (1+t)*Rtb bytes of shared memory. Each TB of a pair owns the offsets
 * below t*Rtb (relative to its own base) and the rest is one region that the first TB to touch
 * it holds until it finishes; the other TB's threads run until their first access there, then
 * wait. A waiting TB holds nothing the holder needs, so this cannot deadlock.
 *
 * Every decision goes through the per-SM sp_share unit (rtl/spshare/sp_share.v, -hw
 * c|rtl|lockstep): sharing-mode bit, sharer-TB table, owner bits per warp, the TB-pair locks and
 * the two comparators (step b: is the TB shared; step c: is the offset in the shared region).
 * The issue check reads its outputs; a shared-region access without the pair's lock asks for it
 * (one request port per SM per cycle) and retries the next cycle. -spshare_owf schedules owner,
 * then unshared, then non-owner warps. Offsets are the trace's shared-memory addresses, less the
 * kernel's shared window base when they lie in it (generic addressing). */
#include <stdlib.h>
#include <string.h>

#include "../hw/spshare/sp_share.h"
#include "../trace/trace_addrs.h"
#include "policy.h"
#include "policy_registry.h"
#include "share_common.h"

typedef struct sp_sm {
  hw_unit *unit;
  sp_share_in in;
  sp_share_out out;
  int req_tb;
  int one_class;                /* the outputs put every warp in SHARE_CLASS_UNSHARED */
  /* The outputs the warp classes read (owner_o, partner_o) as of their last change, which
   * raised the SM's class epoch (share_sm). */
  uint64_t owner_seen;
  uint32_t partner_seen[HW_WORDS(448)];
  share_fifo rel_q;             /* share_write: a = CTA slot, b = lock */
} sp_sm;
_Static_assert(sizeof ((sp_share_out *)0)->partner_o == sizeof ((sp_sm *)0)->partner_seen,
               "partner_seen holds partner_o");

typedef struct sp_state {
  share_core core;
  sp_sm *sm;
  unsigned tb_w, partner_w;     /* holder id width clog2(T), partner field width clog2(T+1) */
  uint64_t shmem_base;          /* of the current kernel */
  uint64_t amax;                /* the unit's largest offset (all ones of its address width) */
} sp_state;

static sp_state *st(const policy *p) { return p->state; }

static void spshare_destroy(policy *p) {
  sp_state *s = st(p);
  if (!s) return;
  for (int i = 0; s->sm && i < p->n_sms; i++) hw_unit_free(s->sm[i].unit);
  free(s->sm);
  share_core_free(&s->core, p->n_sms);
  free(s);
  p->state = NULL;
}

static int spshare_create(policy *p, rf_diag *d) {
  sp_state *s = rf_calloc(1, sizeof *s, d);
  if (!s) return -1;
  p->state = s;
  if (share_core_init(&s->core, p, p->cfg->spshare_t, d) < 0) goto fail;
  s->tb_w = hw_clog2(s->core.cta_slots);
  s->partner_w = hw_clog2(s->core.cta_slots + 1);
  s->sm = rf_calloc((size_t)p->n_sms, sizeof *s->sm, d);
  if (!s->sm) goto fail;
  for (int i = 0; i < p->n_sms; i++) {
    int64_t up[HW_MAX_PARAMS];
    hw_params_default(&sp_share_desc, up);
    /* SMEM only sizes the offset comparator: the unit's default covers any smaller scratchpad,
     * so one Verilated model serves the 16 KB and 48 KB configurations */
    int smem_i = hw_param_index(&sp_share_desc, "SMEM");
    int64_t smem = p->cfg->shmem_size > up[smem_i] ? p->cfg->shmem_size : up[smem_i];
    if (hw_param_set(&sp_share_desc, up, "T", s->core.cta_slots, d) < 0 ||
        hw_param_set(&sp_share_desc, up, "W", s->core.warp_slots, d) < 0 ||
        hw_param_set(&sp_share_desc, up, "SMEM", smem, d) < 0)
      goto fail;
    s->amax = ((uint64_t)1 << hw_clog2(smem + 1)) - 1;
    char name[64];
    snprintf(name, sizeof name, "sm%d.sp_share", i);
    s->sm[i].unit = sp_share_new(name, p->hw_mode, up, p->wave, d);
    if (!s->sm[i].unit) goto fail;
  }
  p->warp_priorities = p->cfg->spshare_owf ? 3 : 0;
  return 0;
fail:
  spshare_destroy(p);
  return -1;
}

static int spshare_kernel_begin(policy *p, const trace_kernel_info *k, rf_diag *d) {
  sp_state *s = st(p);
  s->shmem_base = k->shmem_base;
  return share_core_kernel_begin(&s->core, p, k, SHARE_SCRATCHPAD, d);
}

static int spshare_cta_admit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                             const trace_tb *tb, uint64_t now) {
  (void)tb;
  (void)now;
  return share_core_cta_admit(&st(p)->core, sm, cta_slot, k);
}

static void spshare_warp_start(policy *p, int sm, int cta_slot, int warp, int slot,
                               uint64_t now) {
  (void)now;
  share_core_warp_start(&st(p)->core, sm, cta_slot, warp, slot);
}

static int unit_partner(const sp_state *s, const sp_sm *m, int cta) {
  return (int)hw_bits_get(m->out.partner_o, (unsigned)cta * s->partner_w, s->partner_w);
}

static int holds_region(const sp_state *s, const sp_sm *m, int lock, int cta) {
  return ((m->out.lvalid_o >> lock) & 1) &&
         (int)hw_bits_get(m->out.lock_o, (unsigned)lock * s->tb_w, s->tb_w) == cta;
}

/* No owner bit and no CTA slot with a partner: spshare_warp_priority's answer for any warp. */
static int all_unshared(const sp_state *s, const sp_sm *m) {
  if (m->out.owner_o) return 0;
  for (int i = 0; i < s->core.cta_slots; i++)
    if (unit_partner(s, m, i) < s->core.cta_slots) return 0;
  return 1;
}

/* The highest byte offset an instruction touches in its TB's scratchpad. */
static uint64_t top_offset(const sp_state *s, const policy_warp *w, const trace_inst *in) {
  uint64_t lanes[TRACE_WARP_SIZE];
  const uint64_t *a = trace_inst_addrs(w->tw, in, lanes);
  uint64_t top = 0;
  unsigned width = in->op->width ? in->op->width : 1;
  for (int lane = 0; lane < 32; lane++) {
    if (!((in->mask >> lane) & 1)) continue;
    uint64_t off = a[lane];
    if (s->shmem_base && off >= s->shmem_base) off -= s->shmem_base;
    off += width - 1;
    if (off > top) top = off;
  }
  return top;
}

static int spshare_may_issue(policy *p, const policy_warp *w, const trace_inst *in,
                             uint64_t now) {
  (void)now;
  sp_state *s = st(p);
  sp_sm *m = &s->sm[w->sm];
  const share_cta *t = &s->core.sm[w->sm].cta[w->cta_slot];
  if (t->pending) {
    s->core.sm[w->sm].kern.setup_waits++;
    return 0;
  }
  if (!in->op->is_mem || in->op->space != SPACE_SHARED) return 1;
  /* Fig. 4 step (b): a TB the unit lists without a sharer accesses directly */
  if (unit_partner(s, m, w->cta_slot) >= s->core.cta_slots) return 1;
  uint64_t top = top_offset(s, w, in);
  /* step (c): offsets below t*Rtb are the TB's own */
  if (top < m->out.thr_o) return 1;
  if (holds_region(s, m, t->pair, w->cta_slot)) return 1;
  if (!m->in.req_i) {
    m->in.req_i = 1;
    m->in.req_tb_i = (uint64_t)w->cta_slot;
    m->in.req_lock_i = (uint64_t)t->pair;
    m->in.req_addr_i = top > s->amax ? s->amax : top;
    m->req_tb = w->cta_slot;
  }
  share_core_lock_wait(&s->core, w->sm, w->cta_slot, w->slot, w->pc);
  return 0;
}

static void spshare_warp_exit(policy *p, int sm, int cta_slot, int warp,
                              const trace_kernel_info *k, uint64_t now) {
  (void)k;
  (void)now;
  share_cta *t = &st(p)->core.sm[sm].cta[cta_slot];
  int slot = warp < SHARE_MAX_TB_WARPS ? t->slot_of[warp] : -1;
  if (slot >= 0) t->live &= ~((uint64_t)1 << slot);
}

static void spshare_cta_exit(policy *p, int sm, int cta_slot, const trace_kernel_info *k,
                             uint64_t now) {
  (void)k;
  (void)now;
  sp_state *s = st(p);
  share_cta *t = &s->core.sm[sm].cta[cta_slot];
  sp_sm *m = &s->sm[sm];
  if (t->paired && holds_region(s, m, t->pair, cta_slot))
    share_fifo_push(&m->rel_q, (share_write){-1, cta_slot, t->pair, 0});
  share_core_cta_exit(&s->core, sm, cta_slot);
}

static int spshare_cycle(policy *p, int sm, const policy_sm_view *v, uint64_t now, rf_diag *d) {
  (void)v;
  /* Cycle 0 is the unit's reset edge (hw_unit_new): its inputs wait for cycle 1. */
  if (now == 0) return 0;
  sp_state *s = st(p);
  share_core *c = &s->core;
  sp_sm *m = &s->sm[sm];
  sp_share_in *in = &m->in;
  share_ports po;
  share_core_next_ports(c, sm, &po);
  SHARE_PORTS_TO_INPUTS(po, in);
  share_write w;
  if (share_core_pop(c, sm, &m->rel_q, &w)) {
    in->rel_i = 1;
    in->rel_tb_i = (uint64_t)w.a;
    in->rel_lock_i = (uint64_t)w.b;
  }
  /* An idle unit keeps its state and outputs: its edge is skipped unless recorded. */
  if (in->cfg_i || in->tb_wr_i || in->warp_wr_i || in->req_i || in->rel_i ||
      wave_in_window(p->wave, now)) {
    if (sp_share_step(m->unit, now, in, &m->out, d) < 0) return -1;
    m->one_class = all_unshared(s, m);
    if (m->owner_seen != m->out.owner_o ||
        memcmp(m->partner_seen, m->out.partner_o, sizeof m->partner_seen)) {
      m->owner_seen = m->out.owner_o;
      memcpy(m->partner_seen, m->out.partner_o, sizeof m->partner_seen);
      c->sm[sm].class_epoch++;
    }
    if (in->req_i && holds_region(s, m, (int)in->req_lock_i, (int)in->req_tb_i)) {
      c->sm[sm].kern.grants++;
      share_core_take_ownership(c, sm, m->req_tb);
    }
    memset(in, 0, sizeof *in);
  }
  return 0;
}

static int spshare_warp_priority(const policy *p, int sm, int slot) {
  const sp_state *s = st(p);
  const sp_sm *m = &s->sm[sm];
  if ((m->out.owner_o >> slot) & 1) return SHARE_CLASS_OWNER;
  /* a warp that is not an owner is a non-owner if its TB has a sharer */
  const share_sm *cs = &s->core.sm[sm];
  for (int i = 0; i < s->core.cta_slots; i++)
    if (cs->cta[i].resident && ((cs->cta[i].live >> slot) & 1))
      return unit_partner(s, m, i) < s->core.cta_slots ? SHARE_CLASS_NONOWNER
                                                         : SHARE_CLASS_UNSHARED;
  return SHARE_CLASS_UNSHARED;
}

static int spshare_warp_classes_uniform(const policy *p, int sm) {
  return st(p)->sm[sm].one_class;
}

static const uint64_t *spshare_warp_classes_epoch(policy *p, int sm) {
  return &st(p)->core.sm[sm].class_epoch;
}

static void spshare_stats(const policy *p, stats_record *out, int total) {
  stats_str(out, "spshare_hw", hw_mode_name(p->hw_mode));
  share_core_stats(&st(p)->core, "spshare", out, total);
}

const policy_ops policy_spshare = {
    .name = "spshare",
    .help = "scratchpad sharing (-spshare_t, -spshare_owf)",
    .create = spshare_create,
    .destroy = spshare_destroy,
    .kernel_begin = spshare_kernel_begin,
    .cta_admit = spshare_cta_admit,
    .warp_start = spshare_warp_start,
    .warp_priority = spshare_warp_priority,
    .warp_classes_uniform = spshare_warp_classes_uniform,
    .warp_classes_epoch = spshare_warp_classes_epoch,
    .may_issue = spshare_may_issue,
    .warp_exit = spshare_warp_exit,
    .cta_exit = spshare_cta_exit,
    .cycle = spshare_cycle,
    .stats = spshare_stats,
};
