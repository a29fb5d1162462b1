/* The progress line of a long run, as users of Accel-Sim expect one: on a terminal, one line on
 * stderr rewritten about once a second (kernel k of n, simulated cycles, warp instructions per
 * second, time left), erased when the run ends. Off (never a byte) when the stream is not a
 * terminal or the user asked for quiet, so logs and stats stay clean. */
#ifndef RFSIM_PROGRESS_H
#define RFSIM_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

typedef struct progress {
  FILE *out;          /* NULL: off */
  double start, last; /* seconds (monotonic) */
  int shown;          /* a line is on the terminal */
} progress;

/* Where the run is. */
typedef struct progress_state {
  int kernel, nkernels;   /* 1-based kernel being simulated, of how many */
  uint64_t cycles;        /* simulated cycles so far (all kernels) */
  uint64_t warp_insts;    /* warp instructions so far (all kernels) */
  double done;            /* fraction of the run done, 0..1 (for the time left) */
} progress_state;

/* On only if `on` and out is a terminal. */
void progress_init(progress *p, FILE *out, int on);
/* Shows st if the last line is a second old (the first at once). Cheap when it is not. */
void progress_update(progress *p, const progress_state *st);
/* Erases the line (before other output, and at the end). */
void progress_clear(progress *p);
/* "1:02:03", "4:05" or "6 s" for a duration in seconds (out: at least 16 bytes). */
void progress_duration(double seconds, char *out, size_t n);

#endif
