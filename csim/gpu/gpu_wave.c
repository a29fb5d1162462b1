#include "gpu_wave.h"

#include <stdio.h>
#include <stdlib.h>

#include "../core/sm.h"

enum { SIG_ISSUED_VALID, SIG_ISSUED_WID, SIG_STALL, SIG_CTAS, SIG_WARPS, SIG_PER_SM };

struct gpu_wave {
  hw_wave *w;
  int n_sms;
  int cycle;  /* handle of the top-level cycle counter */
  int *h;     /* [sm][SIG_PER_SM] handles */
};

static unsigned bits_for(int max) {
  unsigned n = 1;
  while (n < 31 && (1 << n) <= max) n++;
  return n;
}

static void observe(void *ctx, const gpu *g, uint64_t now) {
  gpu_wave *gw = ctx;
  if (!wave_in_window(gw->w, now)) return;
  wave_set(gw->w, gw->cycle, now);
  for (int i = 0; i < gw->n_sms; i++) {
    const sm *s = gpu_sm(g, i);
    const int *h = gw->h + (size_t)i * SIG_PER_SM;
    int wid = sm_last_issued_warp(s);
    wave_set(gw->w, h[SIG_ISSUED_VALID], wid >= 0);
    wave_set(gw->w, h[SIG_ISSUED_WID], wid >= 0 ? (uint64_t)wid : 0);
    wave_set(gw->w, h[SIG_STALL], (uint64_t)sm_last_stall(s));
    wave_set(gw->w, h[SIG_CTAS], (uint64_t)sm_resident_ctas(s));
    wave_set(gw->w, h[SIG_WARPS], (uint64_t)sm_resident_warps(s));
  }
  wave_tick(gw->w, now);
}

gpu_wave *gpu_wave_attach(gpu *g, hw_wave *w, rf_diag *d) {
  gpu_wave *gw = rf_calloc(1, sizeof *gw, d);
  if (!gw) return NULL;
  gw->w = w;
  gw->n_sms = gpu_num_sms(g);
  gw->h = rf_calloc((size_t)gw->n_sms * SIG_PER_SM, sizeof *gw->h, d);
  if (!gw->h) goto fail;
  gw->cycle = wave_add_signal_ex(w, "", "cycle", 64, WAVE_PRE, WAVE_DEC, d);
  if (gw->cycle < 0) goto fail;
  const gpu_config *c = gpu_get_config(g);
  int slots = c->max_threads_per_sm / c->warp_size;
  for (int i = 0; i < gw->n_sms; i++) {
    char scope[32];
    snprintf(scope, sizeof scope, "sm%d", i);
    int *h = gw->h + (size_t)i * SIG_PER_SM;
    h[SIG_ISSUED_VALID] = wave_add_signal_ex(w, scope, "issued_valid", 1, WAVE_PRE, WAVE_BIN, d);
    h[SIG_ISSUED_WID] = wave_add_signal_ex(w, scope, "issued_wid", bits_for(slots - 1), WAVE_PRE,
                                           WAVE_DEC, d);
    h[SIG_STALL] = wave_add_signal_ex(w, scope, "stall_reason", bits_for(WAIT_COUNT - 1),
                                      WAVE_PRE, WAVE_DEC, d);
    h[SIG_CTAS] = wave_add_signal_ex(w, scope, "resident_ctas", bits_for(c->shader_cta),
                                     WAVE_PRE, WAVE_DEC, d);
    h[SIG_WARPS] =
        wave_add_signal_ex(w, scope, "resident_warps", bits_for(slots), WAVE_PRE, WAVE_DEC, d);
    for (int k = 0; k < SIG_PER_SM; k++)
      if (h[k] < 0) goto fail;
  }
  gpu_set_observer(g, (gpu_observer){observe, gw});
  return gw;
fail:
  gpu_wave_free(gw);
  return NULL;
}

void gpu_wave_free(gpu_wave *gw) {
  if (!gw) return;
  free(gw->h);
  free(gw);
}
