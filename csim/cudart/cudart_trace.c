/* The trace folder the runtime writes for rfsim-trace: kernelslist.g (a MemcpyHtoD line per
 * host-to-device copy, then each traced launch's kernel-N.traceg, N the launch's number, as
 * NVBit's tracer names them) and the kernel files. rfsim-trace gives a fresh folder and keeps it
 * only if the program exits with success; the runtime leaves a summary in .stats for it. */
#include <stdlib.h>
#include <string.h>

#include "cudart_state.h"

/* the filter: comma-separated launch numbers, ranges a-b, or kernel names */
int cudart_trace_wanted(const cudart_state *s, int launch, const char *name) {
  if (!s->trace_dir) return 0;
  if (!s->kernel_filter) return 1;
  const char *p = s->kernel_filter;
  while (*p) {
    size_t n = strcspn(p, ",");
    char tok[512];
    snprintf(tok, sizeof tok, "%.*s", (int)(n < sizeof tok ? n : sizeof tok - 1), p);
    char *e;
    long a = strtol(tok, &e, 10), b = a;
    if (e != tok && *e == '-') b = strtol(e + 1, &e, 10);
    if (e != tok && !*e && launch >= a && launch <= b) return 1;
    if (!strcmp(tok, name)) return 1;
    p += n + (p[n] == ',');
  }
  return 0;
}

static void append_list(cudart_state *s, const char *line) {
  char p[4096];
  snprintf(p, sizeof p, "%s/kernelslist.g", s->trace_dir);
  FILE *f = fopen(p, "a");
  if (!f || fprintf(f, "%s\n", line) < 0 || fclose(f))
    cudart_die("%s: write error", p);
}

void cudart_trace_memcpy(cudart_state *s, uint64_t dst, uint64_t bytes) {
  if (!s->trace_dir) return;
  char line[96];
  snprintf(line, sizeof line, "MemcpyHtoD,0x%016llx,%llu", (unsigned long long)dst,
           (unsigned long long)bytes);
  append_list(s, line);
}

FILE *cudart_trace_open_kernel(cudart_state *s, int id, char *path, size_t size) {
  snprintf(path, size, "%s/kernel-%d.traceg", s->trace_dir, id);
  FILE *f = fopen(path, "w");
  if (!f) cudart_die("%s: cannot create the trace", path);
  return f;
}

void cudart_trace_close_kernel(cudart_state *s, FILE *f, const char *path, int id) {
  if (fclose(f)) cudart_die("%s: write error", path);
  char line[64];
  snprintf(line, sizeof line, "kernel-%d.traceg", id);
  append_list(s, line);
  s->traced++;
}
