/* SM-level waveform signals, recorded through the gpu_observer hook: the top-level `cycle`,
 * and per SM (scope sm<i>) the warp slot issued this cycle, the first scheduler's stall reason
 * (warp_wait code, sm.h), and the resident CTAs and warps. The policy's hardware units add
 * their own ports and state to the same file (csim/hw/unit.h). */
#ifndef RFSIM_GPU_WAVE_H
#define RFSIM_GPU_WAVE_H

#include "../common/diag.h"
#include "../hw/wave.h"
#include "gpu.h"

typedef struct gpu_wave gpu_wave;

/* Adds the signals to w (before its first tick) and installs the observer on g, which sets
 * them and calls wave_tick once per cycle. Returns NULL (with d) on failure. */
gpu_wave *gpu_wave_attach(gpu *g, hw_wave *w, rf_diag *d);
void gpu_wave_free(gpu_wave *gw);

#endif
