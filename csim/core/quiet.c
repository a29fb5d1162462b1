/* Sleeping through quiet cycles. Once a cycle moves nothing and nothing is left that time alone
 * moves on (no instruction in the operand collector or the LD/ST unit, no fetch to make, an
 * idle L1D and L1I, no warp whose answer ends but at a known cycle), every cycle up to that
 * cycle does exactly what the quiet one did: each scheduler counts the same stall, the
 * per-cycle counters add the same. Only a reply from the memory system (or a thread block
 * launched, which wakes the SM) can change that earlier, so sm_cycle checks for one and
 * otherwise counts the cycle (quiet_cycle) instead of stepping every stage. On the TITAN V
 * config 58% of the x240 tiled matrixmul's SM cycles moved nothing (14% of its time); 52% of
 * its SM cycles are slept through now (GTX 480: 16% moved nothing, 13% slept).
 *
 * Only SMs whose stages keep no answer that may change by itself sleep: the memoized issue
 * stage (LRR or GTO), and a policy that does not decide per cycle (no may_issue or warp_admit
 * hook, a tick hook only with tick_quiet, which counts the slept cycles at once; CTA switching
 * only where the policy's no stands until a view changes, decide_on_change, or the policy says
 * that it would give the same no every cycle, switch_quiet, whose counts switch_idle adds for
 * the slept cycles; and then only while no switch is in flight: cs_quiet). An SM without
 * thread blocks sleeps with any policy once it is drained (no access in its L1s or LD/ST unit,
 * nothing in flight), until a block arrives: its cycle counts nothing and runs no hook. A grid
 * smaller than the GPU leaves most SMs so for the whole kernel (a one-block kernel on the
 * TITAN V: 79 of 80 SMs). */
#include "sm_internal.h"

int quiet_allowed(const sm *s) {
  const policy_ops *ops = s->pol->ops;
  return issue_memoized(s) && !ops->may_issue && (!ops->tick || ops->tick_quiet) &&
         !ops->warp_admit && (!s->sw || s->pol->decide_on_change || ops->switch_quiet);
}

uint64_t quiet_until(sm *s, uint64_t now) {
  if (s->resident_ctas == 0) return sm_drained(s) && !opcoll_in_flight(s->oc) ? UINT64_MAX : 0;
  if (!s->can_sleep) return 0;
  if (s->sw && !cs_quiet(s, now + 1)) return 0;
  if (opcoll_in_flight(s->oc) || !ldst_idle(s)) return 0;
  if (fetch_wanted(s)) return 0; /* a warp may still fetch (or could not, the L1I full) */
  for (int q = 0; q < s->cfg->num_sched_per_core; q++)
    if (s->scheds[q].pipe_any) return 0; /* (their pipelines' ID_OC are empty by now) */
  uint64_t until = s->nevents ? s->events[0].at : UINT64_MAX;
  /* The first cycle a warp's kept answer ends. While every scheduler's kept stall holds
   * (stage_kept_until set: nothing issued and nothing changed since the stage), it is the
   * stage's: each scheduler's least skip_until over the warps it looks at, which are the only
   * ones whose answer ends at a cycle (the others wait for an event). Else each warp is read,
   * 64 cache lines on the TITAN V config. */
  if (s->stage_kept_until) {
    if (s->stage_kept_until < until) until = s->stage_kept_until;
  } else {
    for (int slot = 0; slot < s->warp_hwm; slot++) {
      const sm_warp *w = &s->warps[slot];
      if (w->live && w->skip_until < until) until = w->skip_until;
    }
  }
  return until > now + 1 ? until : 0;
}

void count_cycle(sm *s, uint64_t cycles) {
  s->cnt.active_cycles += cycles;
  s->cnt.resident_cta_sum += cycles * (uint64_t)s->resident_ctas;
  s->cnt.resident_warp_sum += cycles * (uint64_t)s->resident_warps;
  if (s->resident_ctas > s->cnt.max_resident_ctas) s->cnt.max_resident_ctas = s->resident_ctas;
  if (s->resident_warps > s->cnt.max_resident_warps)
    s->cnt.max_resident_warps = s->resident_warps;
}

/* Every quiet cycle of a sleep adds the same (the SM's state does not change while it sleeps),
 * so where nothing reads the counters between cycles they are added once for the whole sleep,
 * when the SM wakes, instead of cycle by cycle (1.8% of the instructions of the TITAN V's
 * x240 run). */
void quiet_cycle(sm *s, uint64_t now) {
  if (s->resident_ctas == 0) return; /* (an empty SM's cycle counts nothing) */
  if (!s->uncounted) {
    s->uncounted = 1;
    s->uncounted_from = now;
  }
  if (!s->count_later) quiet_settle(s, now + 1);
}

/* Counts the quiet cycles from uncounted_from up to, not including, now. */
void quiet_settle(sm *s, uint64_t now) {
  if (!s->uncounted) return;
  uint64_t cycles = now - s->uncounted_from;
  s->uncounted = 0;
  s->now = now - 1;
  s->slept += cycles;
  issue_stage_quiet(s, cycles);
  count_cycle(s, cycles);
  if (s->sw) cs_idle(s, cycles);
  if (s->pol->ops->tick_quiet) s->pol->ops->tick_quiet(s->pol, s->id, cycles);
}
