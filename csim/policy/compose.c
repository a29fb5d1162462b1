/* Composition of an occupancy policy with a load-path hook: -rfsim_policy <x>+larf. The
 * composite answers every question of policy_ops by asking <x> (CTA/warp admission, issue,
 * priorities) and the hook (load, load_done, issued), and tells both about kernels, warps,
 * CTAs, cycles and stats. Each part keeps its own policy struct and state, so neither knows
 * the other. Built by policy_create (policy_registry.c). */
#include <stdlib.h>

#include "compose.h"

typedef struct compose_state {
  policy base;    /* the occupancy policy */
  policy hook;    /* the load technique */
  policy_ops ops; /* compose_ops without the questions neither part answers (see compose_ops) */
} compose_state;

static compose_state *cs(const policy *p) { return (compose_state *)p->state; }

static void c_destroy(policy *p) {
  compose_state *s = cs(p);
  if (!s) return;
  policy_destroy(&s->hook);
  policy_destroy(&s->base);
  free(s);
  p->state = NULL;
}

static int c_kernel_begin(policy *p, const trace_kernel_info *k, rf_diag *d) {
  compose_state *s = cs(p);
  if (s->base.ops->kernel_begin && s->base.ops->kernel_begin(&s->base, k, d) < 0) return -1;
  if (s->hook.ops->kernel_begin && s->hook.ops->kernel_begin(&s->hook, k, d) < 0) return -1;
  return 0;
}

static int c_cta_admit(policy *p, int sm, int slot, const trace_kernel_info *k,
                       const trace_tb *tb, uint64_t now) {
  compose_state *s = cs(p);
  return s->base.ops->cta_admit(&s->base, sm, slot, k, tb, now);
}

static int c_may_admit(const policy *p, int sm) {
  const compose_state *s = cs(p);
  return s->base.ops->may_admit(&s->base, sm);
}

static int c_may_admit_any(const policy *p) {
  const compose_state *s = cs(p);
  return s->base.ops->may_admit_any(&s->base);
}

/* The SM skips the question when an op is NULL; these give the same answers. */
static int c_warp_admit(policy *p, int sm, int slot, int warp, const trace_kernel_info *k,
                        uint64_t now) {
  compose_state *s = cs(p);
  return s->base.ops->warp_admit ? s->base.ops->warp_admit(&s->base, sm, slot, warp, k, now) : 0;
}

static void c_warp_start(policy *p, int sm, int cta_slot, int warp, int slot, uint64_t now) {
  compose_state *s = cs(p);
  if (s->base.ops->warp_start) s->base.ops->warp_start(&s->base, sm, cta_slot, warp, slot, now);
  if (s->hook.ops->warp_start) s->hook.ops->warp_start(&s->hook, sm, cta_slot, warp, slot, now);
}

static int c_warp_priority(const policy *p, int sm, int slot) {
  const compose_state *s = cs(p);
  return s->base.ops->warp_priority ? s->base.ops->warp_priority(&s->base, sm, slot) : 0;
}

static int c_warp_classes_uniform(const policy *p, int sm) {
  const compose_state *s = cs(p);
  return s->base.ops->warp_classes_uniform(&s->base, sm); /* (set only if the base has it) */
}

static const uint64_t *c_warp_classes_epoch(policy *p, int sm) {
  compose_state *s = cs(p);
  return s->base.ops->warp_classes_epoch(&s->base, sm); /* (set only if the base has it) */
}

static int c_may_issue(policy *p, const policy_warp *w, const trace_inst *in, uint64_t now) {
  compose_state *s = cs(p);
  return s->base.ops->may_issue ? s->base.ops->may_issue(&s->base, w, in, now) : 1;
}

static const uint64_t *c_issue_gate(policy *p, int sm) {
  compose_state *s = cs(p);
  return s->base.ops->issue_gate(&s->base, sm); /* (set only if the base has it) */
}

static void c_refused_again(policy *p, int sm) {
  compose_state *s = cs(p);
  s->base.ops->refused_again(&s->base, sm);
}

static void c_warp_exit(policy *p, int sm, int cta_slot, int warp, const trace_kernel_info *k,
                        uint64_t now) {
  compose_state *s = cs(p);
  if (s->base.ops->warp_exit) s->base.ops->warp_exit(&s->base, sm, cta_slot, warp, k, now);
  if (s->hook.ops->warp_exit) s->hook.ops->warp_exit(&s->hook, sm, cta_slot, warp, k, now);
}

static void c_cta_exit(policy *p, int sm, int cta_slot, const trace_kernel_info *k, uint64_t now) {
  compose_state *s = cs(p);
  if (s->base.ops->cta_exit) s->base.ops->cta_exit(&s->base, sm, cta_slot, k, now);
  if (s->hook.ops->cta_exit) s->hook.ops->cta_exit(&s->hook, sm, cta_slot, k, now);
}

static void c_tick(policy *p, int sm, uint64_t now) {
  compose_state *s = cs(p);
  if (s->base.ops->tick) s->base.ops->tick(&s->base, sm, now);
  if (s->hook.ops->tick) s->hook.ops->tick(&s->hook, sm, now);
}

static int c_cycle(policy *p, int sm, const policy_sm_view *v, uint64_t now, rf_diag *d) {
  compose_state *s = cs(p);
  if (s->base.ops->cycle && s->base.ops->cycle(&s->base, sm, v, now, d) < 0) return -1;
  if (s->hook.ops->cycle && s->hook.ops->cycle(&s->hook, sm, v, now, d) < 0) return -1;
  return 0;
}

static void c_stats(const policy *p, stats_record *out, int total) {
  const compose_state *s = cs(p);
  if (s->base.ops->stats) s->base.ops->stats(&s->base, out, total);
  if (s->hook.ops->stats) s->hook.ops->stats(&s->hook, out, total);
}

static policy_cta_state c_cta_start_state(policy *p, int sm, int cta_slot, uint64_t now) {
  compose_state *s = cs(p);
  return s->base.ops->cta_start_state(&s->base, sm, cta_slot, now);
}

static int c_switch_decide(policy *p, int sm, const policy_cta_view *ctas, int n, uint64_t now,
                           policy_switch *out) {
  compose_state *s = cs(p);
  return s->base.ops->switch_decide(&s->base, sm, ctas, n, now, out);
}

static void c_views_changed(policy *p, int sm) {
  compose_state *s = cs(p);
  s->base.ops->views_changed(&s->base, sm);
}

static void c_switch_done(policy *p, int sm, int cta_slot, policy_cta_state state,
                          uint64_t now) {
  compose_state *s = cs(p);
  s->base.ops->switch_done(&s->base, sm, cta_slot, state, now);
}

static void c_report(const policy *p, int sm, FILE *out) {
  const compose_state *s = cs(p);
  if (s->base.ops->report) s->base.ops->report(&s->base, sm, out);
  if (s->hook.ops->report) s->hook.ops->report(&s->hook, sm, out);
}

static int c_load(policy *p, const policy_load *l, uint64_t now, int *ticket) {
  compose_state *s = cs(p);
  return s->hook.ops->load(&s->hook, l, now, ticket);
}

static void c_load_done(policy *p, int sm, int ticket, uint64_t now) {
  compose_state *s = cs(p);
  if (s->hook.ops->load_done) s->hook.ops->load_done(&s->hook, sm, ticket, now);
}

static void c_issued(policy *p, const policy_warp *w, const trace_inst *in, uint64_t now) {
  compose_state *s = cs(p);
  if (s->hook.ops->issued) s->hook.ops->issued(&s->hook, w, in, now);
}

/* The machinery reads a NULL question as "this technique has no such mechanism" (no CTA
 * switching, no per-cycle units, ...), so policy_compose drops those neither part answers. */
static const policy_ops compose_ops = {
    .name = "compose",
    .help = "an occupancy policy with a load-path hook (<x>+larf)",
    .destroy = c_destroy,
    .kernel_begin = c_kernel_begin,
    .cta_admit = c_cta_admit,
    .may_admit = c_may_admit,
    .may_admit_any = c_may_admit_any,
    .warp_admit = c_warp_admit,
    .warp_start = c_warp_start,
    .warp_priority = c_warp_priority,
    .warp_classes_uniform = c_warp_classes_uniform,
    .warp_classes_epoch = c_warp_classes_epoch,
    .may_issue = c_may_issue,
    .issue_gate = c_issue_gate,
    .refused_again = c_refused_again,
    .warp_exit = c_warp_exit,
    .cta_exit = c_cta_exit,
    .tick = c_tick,
    .cycle = c_cycle,
    .cta_start_state = c_cta_start_state,
    .switch_decide = c_switch_decide,
    .views_changed = c_views_changed,
    .switch_done = c_switch_done,
    .report = c_report,
    .stats = c_stats,
    .load = c_load,
    .load_done = c_load_done,
    .issued = c_issued,
};

static int part_init(policy *q, const policy_ops *ops, const policy *p, rf_diag *d) {
  q->ops = ops;
  q->cfg = p->cfg;
  q->n_sms = p->n_sms;
  q->hw_mode = p->hw_mode;
  q->wave = p->wave;
  if (ops->create && ops->create(q, d) < 0) {
    q->ops = NULL;
    return -1;
  }
  return 0;
}

int policy_compose(policy *p, const policy_ops *base, const policy_ops *hook, rf_diag *d) {
  compose_state *s = calloc(1, sizeof *s);
  if (!s) return rf_fail(d, "-rfsim_policy %s: out of memory", p->cfg->policy);
  s->ops = compose_ops;
  p->ops = &s->ops;
  p->state = s;
  if (part_init(&s->base, base, p, d) < 0 || part_init(&s->hook, hook, p, d) < 0) {
    c_destroy(p);
    p->ops = NULL;
    return -1;
  }
#define COMPOSE_DROP_UNANSWERED(op) \
  if (!base->op && !hook->op) s->ops.op = NULL
  COMPOSE_DROP_UNANSWERED(warp_admit);
  COMPOSE_DROP_UNANSWERED(warp_start);
  COMPOSE_DROP_UNANSWERED(warp_priority);
  if (!base->warp_classes_uniform) s->ops.warp_classes_uniform = NULL; /* (the base's classes) */
  if (!base->warp_classes_epoch) s->ops.warp_classes_epoch = NULL;
  COMPOSE_DROP_UNANSWERED(may_issue);
  if (!base->issue_gate) { /* (the base's alone, as may_issue's answer) */
    s->ops.issue_gate = NULL;
    s->ops.refused_again = NULL;
  }
  COMPOSE_DROP_UNANSWERED(warp_exit);
  COMPOSE_DROP_UNANSWERED(cta_exit);
  COMPOSE_DROP_UNANSWERED(tick);
  COMPOSE_DROP_UNANSWERED(cycle);
  COMPOSE_DROP_UNANSWERED(report);
  COMPOSE_DROP_UNANSWERED(stats);
  COMPOSE_DROP_UNANSWERED(load_done);
  COMPOSE_DROP_UNANSWERED(issued);
#undef COMPOSE_DROP_UNANSWERED
  if (!base->may_admit) s->ops.may_admit = NULL; /* admission is the occupancy policy's alone */
  if (!base->may_admit_any) s->ops.may_admit_any = NULL;
  /* CTA switching is the occupancy policy's alone. */
  if (!base->cta_start_state) s->ops.cta_start_state = NULL;
  if (!base->switch_decide) s->ops.switch_decide = NULL;
  if (!base->switch_done) s->ops.switch_done = NULL;
  if (!base->views_changed) s->ops.views_changed = NULL;
  p->warp_priorities = s->base.warp_priorities;
  p->reads_sm_view = s->base.reads_sm_view || s->hook.reads_sm_view;
  p->decide_on_change = s->base.decide_on_change; /* (switching is the base's alone) */
  p->sm_cta_slots = s->base.sm_cta_slots;
  p->sm_warp_slots = s->base.sm_warp_slots;
  return 0;
}
