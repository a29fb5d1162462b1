/* The stand-in runtime's one state (the device it describes, rfsim-trace's settings from the
 * environment) and its two ends: the summary rfsim-trace reads after a normal exit (.stats), and
 * the fatal error (.error). */
#define _GNU_SOURCE
#include "cudart_state.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A GTX 1080 (Pascal, sm_61), the GPU of the shared NVBit traces, when rfsim-trace passes no
 * config's description in RFSIM_DEVICE. */
static void default_device(cudart_device *v) {
  *v = (cudart_device){.sms = 20, .regs_per_sm = 65536, .regs_per_block = 65536,
                       .threads_per_sm = 2048, .ctas_per_sm = 32, .smem_per_sm = 98304,
                       .smem_per_block = 49152, .clock_khz = 1607000, .mem_clock_khz = 5005000,
                       .bus_bits = 256, .l2_bytes = 2097152, .global_bytes = 8ull << 30};
  snprintf(v->name, sizeof v->name, "rfsim interpreter (GTX 1080-like sm_61)");
}

/* RFSIM_DEVICE: "name=...;sms=28;regs_per_sm=65536;..." */
static void parse_device(cudart_device *v, const char *s) {
  static const struct {
    const char *key;
    size_t off;
  } ints[] = {
      {"sms", offsetof(cudart_device, sms)},
      {"regs_per_sm", offsetof(cudart_device, regs_per_sm)},
      {"regs_per_block", offsetof(cudart_device, regs_per_block)},
      {"threads_per_sm", offsetof(cudart_device, threads_per_sm)},
      {"ctas_per_sm", offsetof(cudart_device, ctas_per_sm)},
      {"smem_per_sm", offsetof(cudart_device, smem_per_sm)},
      {"smem_per_block", offsetof(cudart_device, smem_per_block)},
      {"clock_khz", offsetof(cudart_device, clock_khz)},
      {"mem_clock_khz", offsetof(cudart_device, mem_clock_khz)},
      {"bus_bits", offsetof(cudart_device, bus_bits)},
      {"l2_bytes", offsetof(cudart_device, l2_bytes)},
  };
  while (s && *s) {
    const char *eq = strchr(s, '='), *end = strchr(s, ';');
    if (!end) end = s + strlen(s);
    if (eq && eq < end) {
      size_t kl = (size_t)(eq - s);
      if (kl == 4 && !strncmp(s, "name", 4))
        snprintf(v->name, sizeof v->name, "%.*s", (int)(end - eq - 1), eq + 1);
      for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
        if (strlen(ints[i].key) == kl && !strncmp(s, ints[i].key, kl)) {
          long x = strtol(eq + 1, NULL, 10);
          if (x > 0 && x < (1L << 31)) *(int *)((char *)v + ints[i].off) = (int)x;
        }
    }
    s = *end ? end + 1 : end;
  }
}

/* The items of a comma-separated list whose bit in `hit` is clear (of the first 64), joined by
 * commas into out (empty if none). */
static void unhit_items(const char *list, uint64_t hit, char *out, size_t size) {
  size_t used = 0;
  out[0] = 0;
  int item = 0;
  for (const char *p = list; p && *p && item < 64; item++) {
    size_t n = strcspn(p, ",");
    if (!(hit >> item & 1) && used < size) {
      int w = snprintf(out + used, size - used, "%s%.*s", used ? "," : "", (int)n, p);
      if (w > 0) used += (size_t)w;
    }
    p += n + (p[n] == ',');
  }
}

/* The -kernels and -regs items that selected no traced launch, as .stats lines
 * ("unmatched_kernels A,B", "unmatched_regs NAME=N"), for rfsim-trace's notes. */
static void write_unmatched(const cudart_state *s, FILE *f) {
  char items[2048];
  unhit_items(s->kernel_filter, s->kernel_items_hit, items, sizeof items);
  if (*items) fprintf(f, "unmatched_kernels %s\n", items);
  unhit_items(s->regs_spec, s->regs_items_hit, items, sizeof items);
  if (*items) fprintf(f, "unmatched_regs %s\n", items);
}

static cudart_state s;

/* at a normal exit: what was traced, for rfsim-trace's summary line */
static void write_stats(void) {
  char p[4096];
  snprintf(p, sizeof p, "%s/.stats", s.trace_dir);
  FILE *f = fopen(p, "w");
  if (!f) return;
  fprintf(f, "launches %d\nkernels %d\nwarp_insts %llu\nseconds %.6f\n", s.launches, s.traced,
          (unsigned long long)s.traced_insts, s.trace_seconds);
  write_unmatched(&s, f);
  fclose(f);
}

cudart_state *cudart(void) {
  if (s.ready) return &s;
  s.ready = 1;
  default_device(&s.dev);
  parse_device(&s.dev, getenv("RFSIM_DEVICE"));
  sass_devmem_init(&s.mem, s.dev.global_bytes);
  s.cuobjdump = getenv("RFSIM_CUOBJDUMP");
  if (!s.cuobjdump || !*s.cuobjdump) s.cuobjdump = "/usr/bin/cuobjdump";
  s.trace_dir = getenv("RFSIM_TRACE_DIR");
  if (s.trace_dir && !*s.trace_dir) s.trace_dir = NULL;
  const char *xz = getenv("RFSIM_TRACE_XZ");
  s.trace_xz = xz && !strcmp(xz, "1");
  s.kernel_filter = getenv("RFSIM_TRACE_KERNELS");
  if (s.kernel_filter && !*s.kernel_filter) s.kernel_filter = NULL;
  const char *sm = getenv("RFSIM_TRACE_SM");
  s.want_sm = sm ? atoi(sm) : 0;
  s.regs_spec = getenv("RFSIM_TRACE_REGS");
  if (s.regs_spec && !*s.regs_spec) s.regs_spec = NULL;
  const char *b = getenv("RFSIM_TRACE_BUDGET");
  s.budget = b ? strtoull(b, NULL, 10) : 0;
  if (s.trace_dir) atexit(write_stats);
  return &s;
}

_Noreturn void cudart_die(const char *fmt, ...) {
  char msg[RF_DIAG_MSG_MAX + 64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "rfsim-trace: %s\n", msg);
  cudart_state *s = cudart();
  if (s->trace_dir) {
    char p[4096];
    snprintf(p, sizeof p, "%s/.error", s->trace_dir);
    FILE *f = fopen(p, "w");
    if (f) {
      fprintf(f, "%s\n", msg);
      fclose(f);
    }
  }
  _exit(86); /* no atexit handlers: nothing the program would write after this is valid */
}
