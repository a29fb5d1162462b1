#include "sass_its.h"

#include <stdio.h>

#include "../common/bits.h"
#include "sass_op.h"

static uint32_t waiting(const sass_warp *w) {
  uint32_t m = w->wait_ws | w->wait_bar;
  for (int b = 0; b < SASS_CBARRIERS; b++) m |= w->wait_bsync[b];
  return m;
}

/* a BSYNC Bn completes when every live lane it waits for has arrived; WARPSYNC when every live
 * lane of each waiting lane's mask waits at one */
static void release(sass_warp *w) {
  uint32_t live = sass_its_live(w);
  for (int b = 0; b < SASS_CBARRIERS; b++)
    if (w->wait_bsync[b] && !(w->cbar[b] & live & ~w->wait_bsync[b])) w->wait_bsync[b] = 0;
  if (w->wait_ws) {
    uint32_t done = 0;
    for (uint32_t m = w->wait_ws; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      if (!(w->ws_mask[l] & live & ~w->wait_ws)) done |= 1u << l;
    }
    w->wait_ws &= ~done;
  }
}

void sass_its_after(sass_ctx *x, const sass_inst *in, uint32_t group, uint32_t next) {
  sass_warp *w = x->w;
  if (!in->own_pc)
    for (uint32_t m = group; m; m &= m - 1) w->lpc[__builtin_ctz(m)] = next;
  release(w);
  /* the warp reaches the CTA barrier when its last live lane does (or the others exit) */
  if (w->wait_bar && w->wait_bar == sass_its_live(w) && w->state == SW_RUN)
    sass_bar_warp_arrives(x, w->bar);
}

static int stuck(sass_ctx *x, uint32_t live) {
  sass_warp *w = x->w;
  char what[256] = "";
  size_t n = 0;
  for (int b = 0; b < SASS_CBARRIERS && n < sizeof what - 64; b++)
    if (w->wait_bsync[b])
      n += (size_t)snprintf(what + n, sizeof what - n, "%s lanes 0x%08x at BSYNC B%d wait for "
                            "0x%08x", n ? ";" : "", w->wait_bsync[b], b,
                            w->cbar[b] & live & ~w->wait_bsync[b]);
  if (w->wait_ws && n < sizeof what - 64)
    snprintf(what + n, sizeof what - n, "%s lanes 0x%08x at WARPSYNC", n ? ";" : "", w->wait_ws);
  return sass_fault(x, NULL, -1, "deadlock inside the warp:%s", what);
}

int sass_its_pick(sass_ctx *x) {
  sass_warp *w = x->w;
  uint32_t live = sass_its_live(w);
  if (!live) {
    w->state = SW_DONE;
    return 0;
  }
  uint32_t run = live & ~waiting(w);
  if (!run) {
    if (w->wait_bar == live) return 0; /* arrived at the CTA barrier: state SW_BAR */
    return stuck(x, live);
  }
  uint32_t pc = UINT32_MAX, group = 0;
  for (uint32_t m = run; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    if (w->lpc[l] < pc) {
      pc = w->lpc[l];
      group = 0;
    }
    if (w->lpc[l] == pc) group |= 1u << l;
  }
  w->pc = pc;
  w->active = group;
  return 1;
}
