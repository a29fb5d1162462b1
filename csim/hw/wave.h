/* Waveform writer: FST (GTKWave's format) written from C with the fstapi that ships with
 * Verilator, so `-wave FILE.fst` works in every -hw mode. Unit instances add their ports and
 * state (unit.h); the simulator adds its own signals (cycle, issued warp, stall reason, ...).
 *
 * Time: cycle c spans [c*1000, c*1000+1000) ps, so GTKWave's time axis in ns reads as the
 * cycle number. Signals of phase WAVE_PRE (the default: simulator signals and unit inputs)
 * change at c*1000, with clk low; WAVE_POST signals (unit outputs and flops) change at
 * c*1000+500, when the top-level `clk` rises. The Verilated models' own FST files use the
 * same times.
 *
 * Use: wave_open; wave_add_signal for every signal (all before the first wave_tick inside the
 * window); then each cycle wave_set the values that changed (cheap: a store and a compare) and
 * wave_tick(cycle) once. Only cycles in [window_start, window_end] are written; the first
 * written cycle dumps every signal's current value. wave_close finishes the file and writes a
 * GTKWave save file <path without .fst>.gtkw that opens every signal grouped by scope.
 * Not thread-safe: one writer per thread, or serialize. */
#ifndef RFSIM_HW_WAVE_H
#define RFSIM_HW_WAVE_H

#include <stdint.h>

#include "../common/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WAVE_NO_END UINT64_MAX

typedef struct hw_wave hw_wave;

typedef enum wave_phase { WAVE_PRE = 0, WAVE_POST = 1 } wave_phase;

/* Display hint for the .gtkw: hex (default for buses), decimal, binary. */
typedef enum wave_fmt { WAVE_HEX = 0, WAVE_DEC = 1, WAVE_BIN = 2 } wave_fmt;

hw_wave *wave_open(const char *path, uint64_t window_start, uint64_t window_end, rf_diag *d);
/* group: dotted scope path ("sm0", "sm0.wm_wlbuf"); "" for the top. width 1..4096.
 * Returns a handle >= 0, or -1 (with d) if the name is bad or the file has started. */
int wave_add_signal(hw_wave *w, const char *group, const char *name, unsigned width, rf_diag *d);
int wave_add_signal_ex(hw_wave *w, const char *group, const char *name, unsigned width,
                       wave_phase phase, wave_fmt fmt, rf_diag *d);
void wave_set(hw_wave *w, int handle, uint64_t value);
/* For any width: words LSW first, HW_WORDS(width) of them. */
void wave_set_words(hw_wave *w, int handle, const uint32_t *words);
/* Ends cycle `cycle`: writes its values if it lies in the window. Cycles must not decrease;
 * ticking the same cycle again writes only what changed since. */
void wave_tick(hw_wave *w, uint64_t cycle);
/* Writes what is buffered so far (e.g. before stopping on an error). */
void wave_flush(hw_wave *w);
int wave_close(hw_wave *w, rf_diag *d);
const char *wave_path(const hw_wave *w);
int wave_in_window(const hw_wave *w, uint64_t cycle);

#ifdef __cplusplus
}
#endif

#endif
