/* The trace folder the runtime writes for rfsim-trace: kernelslist.g (a MemcpyHtoD line per
 * host-to-device copy, then each traced launch's kernel-N.traceg, N the launch's number, as
 * NVBit's tracer names them) and the kernel files. rfsim-trace gives a fresh folder and keeps it
 * only if the program exits with success; the runtime leaves a summary in .stats for it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/launch_list.h"
#include "cudart_state.h"

/* name is the kernel's symbol or, for a C++ symbol _Z<len><name>..., the function's own name */
static int names_kernel(const char *name, size_t n, const char *symbol) {
  if (strlen(symbol) == n && !strncmp(symbol, name, n)) return 1;
  if (strncmp(symbol, "_Z", 2)) return 0;
  char *e;
  unsigned long len = strtoul(symbol + 2, &e, 10);
  return e != symbol + 2 && len == n && !strncmp(e, name, n);
}

/* The filter: comma-separated launch numbers, ranges a-b, or kernel names (symbol or function
 * name, as -regs; launch_list.h). Each item that selects a launch is noted (kernel_items_hit)
 * for rfsim-trace's note on those that selected none. */
int cudart_trace_wanted(cudart_state *s, int launch, const char *name) {
  if (!s->trace_dir) return 0;
  if (!s->kernel_filter) return 1;
  int wanted = 0, item = 0;
  for (const char *p = s->kernel_filter; *p; item++) {
    size_t n = strcspn(p, ",");
    long a, b;
    int kind = launch_item_parse(p, n, &a, &b);
    if ((kind == 1 && launch >= a && launch <= b) || (kind == 0 && names_kernel(p, n, name))) {
      wanted = 1;
      if (item < 64) s->kernel_items_hit |= 1ull << item;
    }
    p += n + (p[n] == ',');
  }
  return wanted;
}

/* rfsim-trace -regs NAME=N,...: the registers per thread the trace of kernel `symbol` gives, or
 * 0 for its cubin's own count. A count below the code's would describe registers the code
 * writes but the SM never allocated, so it ends the run. The item that gives a traced launch
 * its count is noted (regs_items_hit). */
int cudart_trace_regs(cudart_state *s, const char *symbol, int code_regs, int traced) {
  int item = 0;
  for (const char *p = s->regs_spec; p && *p; item++) {
    size_t n = strcspn(p, ","), eq = strcspn(p, "=");
    if (eq < n && names_kernel(p, eq, symbol)) {
      int r = atoi(p + eq + 1);
      if (r < code_regs)
        cudart_die("-regs %.*s: %d registers per thread, but the kernel's code uses %d", (int)n, p,
                   r, code_regs);
      if (traced && item < 64) s->regs_items_hit |= 1ull << item;
      return r;
    }
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

static const char *trace_suffix(const cudart_state *s) { return s->trace_xz ? ".xz" : ""; }

tg_stream *cudart_trace_open_kernel(cudart_state *s, int id, char *path, size_t size) {
  snprintf(path, size, "%s/kernel-%d.traceg%s", s->trace_dir, id, trace_suffix(s));
  rf_diag d;
  tg_stream *f = tg_stream_open(path, s->trace_xz ? TG_STREAM_XZ : TG_STREAM_PLAIN, &d);
  if (!f) cudart_die("%s", d.msg);
  return f;
}

void cudart_trace_close_kernel(cudart_state *s, tg_stream *f, const char *path, int id) {
  (void)path;
  rf_diag d;
  if (tg_stream_close(f, &d) < 0) cudart_die("%s", d.msg);
  char line[64];
  snprintf(line, sizeof line, "kernel-%d.traceg%s", id, trace_suffix(s));
  append_list(s, line);
  s->traced++;
}
