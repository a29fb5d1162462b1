#include "progress.h"

#include <time.h>
#include <unistd.h>

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void progress_init(progress *p, FILE *out, int on) {
  p->out = on && out && isatty(fileno(out)) ? out : NULL;
  p->start = now_s();
  p->last = -1.0;
  p->shown = 0;
}

void progress_duration(double seconds, char *out, size_t n) {
  long s = seconds < 0 ? 0 : (long)(seconds + 0.5);
  if (s >= 3600) snprintf(out, n, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else if (s >= 60) snprintf(out, n, "%ld:%02ld", s / 60, s % 60);
  else snprintf(out, n, "%ld s", s);
}

void progress_update(progress *p, const progress_state *st) {
  if (!p->out) return;
  double t = now_s();
  if (p->last >= 0 && t - p->last < 1.0) return;
  p->last = t;
  double elapsed = t - p->start;
  char left[32] = "?";
  if (st->done > 0.001 && elapsed > 0.5)
    progress_duration(elapsed * (1.0 - st->done) / st->done, left, sizeof left);
  /* \r and erase-to-end: the line is rewritten in place; \r at the end leaves the cursor at
   * its start, so a message printed before progress_clear overwrites it instead of following */
  fprintf(p->out, "\r\033[Krfsim: kernel %d of %d, %llu cycles, %.2f M warp-inst/s, %s left\r",
          st->kernel, st->nkernels, (unsigned long long)st->cycles,
          elapsed > 0 ? (double)st->warp_insts / elapsed / 1e6 : 0.0, left);
  fflush(p->out);
  p->shown = 1;
}

void progress_clear(progress *p) {
  if (!p->out || !p->shown) return;
  fputs("\r\033[K", p->out);
  fflush(p->out);
  p->shown = 0;
}
