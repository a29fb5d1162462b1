/* rfsim command line, in Accel-Sim's form:
 *   rfsim -trace path/kernelslist.g -config configs/gtx480.config [-config more.config]
 *         [-option value ...] [-stats_json FILE]
 * Config files apply in the order given, then command-line options override them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "config/config.h"
#include "gpu/gpu.h"
#include "policy/policy.h"
#include "stats/stats.h"
#include "trace/trace.h"

static void usage(FILE *out) {
  char policies[256];
  policy_list(policies, sizeof policies);
  fprintf(out,
          "usage: rfsim -trace KERNELSLIST -config FILE [-config FILE ...] [-option value ...]\n"
          "             [-stats_json FILE]\n"
          "  -trace FILE        Accel-Sim kernelslist.g (tracer versions 3, 4, 5)\n"
          "  -config FILE       GPGPU-Sim style option file; several are applied in order\n"
          "  -option value      any config option; overrides the files\n"
          "  -stats_json FILE   also write the stats as JSON (written only on success)\n"
          "  -rfsim_policy P    resource policy: %s\n"
          "  -dump_config       print the effective configuration and exit\n"
          "Stats are printed to standard output as `name = value` lines.\n",
          policies);
}

typedef struct cli {
  const char *trace;
  const char *stats_json;
  const char **configs;
  int nconfigs;
  int dump_config;
} cli;

static double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Speed goes to stderr, never into the stats, so that stats stay byte-identical across runs. */
static void report_speed(const gpu *g, const stats_record *total, double seconds) {
  uint64_t winsts = 0;
  for (int i = 0; i < total->n; i++)
    if (!strcmp(total->e[i].name, "gpgpu_n_tot_w_icount")) winsts = total->e[i].u;
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  fprintf(stderr,
          "rfsim: simulated %llu warp instructions, %llu cycles in %.3f s: %.0f warp-inst/s, "
          "%.0f cycles/s, peak RSS %.1f MB\n",
          (unsigned long long)winsts, (unsigned long long)gpu_cycle(g), seconds,
          stats_ratio((double)winsts, seconds), stats_ratio((double)gpu_cycle(g), seconds),
          (double)ru.ru_maxrss / 1024.0);
}

static int run(const cli *o, const gpu_config *cfg, rf_diag *d) {
  double t0 = seconds_now();
  trace_list *list;
  if (trace_list_read(o->trace, &list, d) < 0) return -1;
  gpu *g = gpu_create(cfg, stderr, d);
  if (!g) {
    trace_list_free(list);
    return -1;
  }
  stats_record *kstats = rf_calloc((size_t)list->nkernels, sizeof *kstats, d);
  int nk = 0, rc = kstats ? 0 : -1;
  for (int i = 0; rc == 0 && i < list->ncmds; i++) {
    const trace_cmd *c = &list->cmds[i];
    if (c->kind != TRACE_CMD_KERNEL) continue;
    stats_init(&kstats[nk]);
    rc = gpu_run_kernel(g, c->path, &kstats[nk], d);
    if (rc == 0) {
      stats_print_text(&kstats[nk], stdout);
      fflush(stdout);
    }
    nk++;
  }
  stats_record total;
  stats_init(&total);
  if (rc == 0) {
    gpu_total_stats(g, &total);
    printf("---- total ----\n");
    stats_print_text(&total, stdout);
    if (o->stats_json) rc = stats_write_json(o->stats_json, kstats, nk, &total, d);
    report_speed(g, &total, seconds_now() - t0);
  }
  stats_free(&total);
  for (int i = 0; i < nk; i++) stats_free(&kstats[i]);
  free(kstats);
  gpu_destroy(g);
  trace_list_free(list);
  return rc;
}

int main(int argc, char **argv) {
  cli o = {0};
  rf_diag d = {{0}};
  gpu_config cfg;
  config_defaults(&cfg);
  o.configs = calloc((size_t)argc, sizeof *o.configs);
  if (!o.configs) {
    fprintf(stderr, "rfsim: error: out of memory\n");
    return 1;
  }
  /* First pass: files and rfsim's own switches; second pass: option overrides. */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "-help") || !strcmp(a, "--help")) {
      usage(stdout);
      free(o.configs);
      return 0;
    }
    if (!strcmp(a, "-dump_config")) {
      o.dump_config = 1;
      continue;
    }
    if (a[0] != '-' || a[1] == '\0') {
      fprintf(stderr, "rfsim: error: command line: expected an option '-name', found '%s'\n", a);
      free(o.configs);
      return 2;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "rfsim: error: command line: %s: expected a value, found end of line\n",
              a);
      free(o.configs);
      return 2;
    }
    if (!strcmp(a, "-trace")) o.trace = argv[i + 1];
    else if (!strcmp(a, "-config")) o.configs[o.nconfigs++] = argv[i + 1];
    else if (!strcmp(a, "-stats_json")) o.stats_json = argv[i + 1];
    i++;
  }
  config_notes notes;
  config_notes_init(&notes, stderr);
  int rc = 0;
  for (int i = 0; rc == 0 && i < o.nconfigs; i++)
    rc = config_load_file(&cfg, o.configs[i], &notes, &d);
  for (int i = 1; rc == 0 && i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-dump_config")) continue;
    const char *v = argv[++i];
    if (!strcmp(a, "-trace") || !strcmp(a, "-config") || !strcmp(a, "-stats_json")) continue;
    int r = config_set(&cfg, a, v, "command line", 0, NULL, &d);
    if (r == 1) {
      rf_fail(&d, "command line: unknown option %s (see rfsim -help)", a);
      rc = -1;
    } else if (r < 0) {
      rc = -1;
    }
  }
  if (rc == 0) rc = config_validate(&cfg, &d);
  if (rc == 0 && o.dump_config) {
    config_dump(&cfg, stdout);
    free(o.configs);
    return 0;
  }
  if (rc == 0 && !o.trace) rc = rf_fail(&d, "command line: expected -trace KERNELSLIST");
  if (rc == 0) rc = run(&o, &cfg, &d);
  free(o.configs);
  if (rc < 0) {
    fprintf(stderr, "rfsim: error: %s\n", d.msg);
    return 1;
  }
  return 0;
}
