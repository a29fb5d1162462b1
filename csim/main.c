/* rfsim command line, in Accel-Sim's form:
 *   rfsim -trace path/kernelslist.g -config configs/gtx480.config [-config more.config]
 *         [-option value ...] [-stats_json FILE] [-hw c|rtl|lockstep] [-wave FILE.fst
 *         [-wave_window START:END]] [-trace_cache on|off|rebuild] [-trace_cache_dir DIR]
 *         [-trace_cache_max_mb N] [-threads N] [-quiet]
 * Config files apply in the order given, then command-line options override them. -hw, -wave,
 * -wave_window, -threads and -quiet say how to run, not what GPU to model, so they are options
 * of the run only (not config rows). */
#include <inttypes.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "common/workers.h"
#include "config/config.h"
#include "gpu/gpu.h"
#include "gpu/gpu_wave.h"
#include "hw/unit.h"
#include "hw/wave.h"
#include "policy/policy.h"
#include "progress/progress.h"
#include "stats/stats.h"
#include "trace/trace.h"

static void usage(FILE *out) {
  char policies[256], cache_dir[4096];
  policy_list(policies, sizeof policies);
  if (trace_cache_user_dir(cache_dir, sizeof cache_dir) < 0)
    snprintf(cache_dir, sizeof cache_dir, "none here: set XDG_CACHE_HOME or HOME");
  fprintf(out,
          "usage: rfsim -trace KERNELSLIST -config FILE [-config FILE ...] [-option value ...]\n"
          "             [-stats_json FILE] [-hw c|rtl|lockstep] [-wave FILE.fst]\n"
          "             [-wave_window START:END] [-threads N] [-threads_pace P] [-quiet]\n"
          "  -trace FILE        Accel-Sim kernelslist.g (tracer versions 3, 4, 5)\n"
          "  -config FILE       GPGPU-Sim style option file; several are applied in order\n"
          "  -option value      any config option; overrides the files\n"
          "  -stats_json FILE   also write the stats as JSON (written only on success)\n"
          "  -hw MODE           the policy's hardware units: c (C reference, default), rtl\n"
          "                     (Verilated RTL) or lockstep (both, compared every cycle; the\n"
          "                     first difference stops the run)\n"
          "  -wave FILE.fst     waveform (GTKWave FST) of every unit and of each SM's issue,\n"
          "                     stall reason and residency; FILE.gtkw opens it\n"
          "  -wave_window S:E   record only cycles S..E (either may be empty: 0 / the end)\n"
          "  -trace_cache M     binary cache of each parsed kernel trace: on (default: use it,\n"
          "                     or build it while reading the text), off (write nothing),\n"
          "                     rebuild. Kept in the user's cache folder, %s,\n"
          "                     never beside the traces (kernel-N.traceg or .traceg.xz)\n"
          "  -trace_cache_dir D keep the caches in folder D instead (made if missing)\n"
          "  -trace_cache_max_mb N  keep the folder's caches under N MB, deleting the least\n"
          "                     recently used first (default %d; 0: no bound)\n"
          "  -threads N         step the SMs on N threads (default 1); the stats are the same\n"
          "                     for every N. With -wave, one thread; with the measured pace,\n"
          "                     no more than the cores this process may run on\n"
          "  -threads_pace P    with N > 1, who steps each cycle's SMs: measured (default: the\n"
          "                     threads, or one thread where it measures faster: idle SMs,\n"
          "                     cores busy with other work), team (always the threads) or\n"
          "                     alternate (by turns; a test that any mix gives the same)\n"
          "  -rfsim_policy P    resource policy: %s\n"
          "  -quiet             no progress line (shown on a terminal: kernel, cycles, speed,\n"
          "                     time left)\n"
          "  -dump_config       print the effective configuration and exit\n"
          "Stats are printed to standard output as `name = value` lines.\n",
          cache_dir, TRACE_CACHE_MAX_MB_DEFAULT, policies);
}

typedef struct cli {
  const char *trace;
  const char *stats_json;
  const char *wave;
  uint64_t wave_from, wave_to;
  hw_mode hw;
  const char **configs;
  int nconfigs;
  int dump_config;
  int quiet;
  int threads;
  pace_mode pace;
  trace_cache_opts trace_cache;
} cli;

static double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t warp_insts_of(const stats_record *r) {
  for (int i = 0; i < r->n; i++)
    if (!strcmp(r->e[i].name, "gpgpu_n_tot_w_icount")) return r->e[i].u;
  return 0;
}

/* Speed goes to stderr, never into the stats, so that stats stay byte-identical across runs. */
static void report_speed(const gpu *g, const stats_record *total, double seconds) {
  uint64_t winsts = warp_insts_of(total);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  fprintf(stderr,
          "rfsim: simulated %llu warp instructions, %llu cycles in %.3f s: %.0f warp-inst/s, "
          "%.0f cycles/s, peak RSS %.1f MB\n",
          (unsigned long long)winsts, (unsigned long long)gpu_cycle(g), seconds,
          stats_ratio((double)winsts, seconds), stats_ratio((double)gpu_cycle(g), seconds),
          (double)ru.ru_maxrss / 1024.0);
  /* (-threads_pace measured: where one thread was faster; the stats are the same either way) */
  double share = gpu_team_share(g);
  if (share > 0.0 && share < 0.99)
    fprintf(stderr, "rfsim: the threads stepped the SMs in %.0f%% of the cycles, one thread in "
                    "the rest\n", 100.0 * share);
}

/* "START:END" in cycles; either side may be empty. 0 or -1 with d. */
static int parse_window(const char *v, uint64_t *from, uint64_t *to, rf_diag *d) {
  const char *colon = strchr(v, ':');
  char *end;
  *from = 0;
  *to = WAVE_NO_END;
  if (!colon) goto bad;
  if (colon != v) {
    if (*v < '0' || *v > '9') goto bad;
    *from = strtoull(v, &end, 10);
    if (end != colon) goto bad;
  }
  if (colon[1] != '\0') {
    if (colon[1] < '0' || colon[1] > '9') goto bad;
    *to = strtoull(colon + 1, &end, 10);
    if (*end != '\0') goto bad;
  }
  if (*to < *from) goto bad;
  return 0;
bad:
  return rf_fail(d, "command line: -wave_window: expected START:END in cycles with START <= END "
                    "(either may be empty), found '%s'", v);
}

/* -threads: a whole number of threads, 1..GPU_MAX_THREADS. */
static int parse_threads(const char *v, int *n, rf_diag *d) {
  char *end;
  long t = v[0] >= '0' && v[0] <= '9' ? strtol(v, &end, 10) : 0;
  if (t < 1 || t > GPU_MAX_THREADS || *end != '\0')
    return rf_fail(d, "command line: -threads: expected a number of threads from 1 to %d, found "
                      "'%s'", GPU_MAX_THREADS, v);
  *n = (int)t;
  return 0;
}

/* -trace_cache_max_mb: whole megabytes (2^20 bytes), 0 for no bound. */
static int parse_max_mb(const char *v, uint64_t *bytes, rf_diag *d) {
  char *end;
  unsigned long long mb = v[0] >= '0' && v[0] <= '9' ? strtoull(v, &end, 10) : 0;
  if (v[0] < '0' || v[0] > '9' || *end != '\0' || mb > (UINT64_MAX >> 20))
    return rf_fail(d, "command line: -trace_cache_max_mb: expected a size in MB from 0 (no "
                      "bound) to %llu, found '%s'", (unsigned long long)(UINT64_MAX >> 20), v);
  *bytes = (uint64_t)mb << 20;
  return 0;
}

/* The progress line's view of the run (gpu ticker). */
typedef struct run_progress {
  progress line;
  int kernel, nkernels;
  uint64_t warp_insts_before; /* of the kernels finished */
} run_progress;

static void progress_tick(void *ctx, const gpu *g) {
  run_progress *r = ctx;
  uint64_t winsts;
  double in_kernel = gpu_kernel_progress(g, &winsts);
  progress_state st = {r->kernel, r->nkernels, gpu_cycle(g), r->warp_insts_before + winsts,
                       ((double)(r->kernel - 1) + in_kernel) / (double)r->nkernels};
  progress_update(&r->line, &st);
}

static int run(const cli *o, const gpu_config *cfg, rf_diag *d) {
  double t0 = seconds_now();
  if (o->stats_json && stats_json_check(o->stats_json, d) < 0) return -1;
  trace_list *list;
  if (trace_list_read(o->trace, &list, d) < 0) return -1;
  gpu_hw hw = {o->hw, NULL, NULL};
  if (o->wave) {
    hw.wave = wave_open(o->wave, o->wave_from, o->wave_to, d);
    if (!hw.wave) {
      trace_list_free(list);
      return -1;
    }
  }
  gpu *g = gpu_create_hw(cfg, &hw, stderr, d);
  if (g) gpu_set_trace_cache(g, &o->trace_cache);
  /* With the measured pace, no more threads than this process has cores: a member without a
   * core of its own holds up every cycle it is part of (a round of 4 threads on this project's
   * 2-core VM took 40 us, against 0.5 us for 2), and the pacer would then step most cycles on
   * one thread anyway. The statistics are the same for any number; -threads_pace team keeps
   * them all (the tests of 3 and 4 threads). */
  long cores = workers_cores(); /* (below 1: not known, no cut) */
  int want = o->pace == PACE_MEASURED && cores >= 1 && o->threads > cores ? (int)cores
                                                                          : o->threads;
  int threads = g ? gpu_set_threads(g, want, d) : -1;
  if (threads > 1) gpu_set_pace(g, o->pace);
  if (threads > 0 && threads < o->threads) {
    char why[96];
    if (hw.wave) snprintf(why, sizeof why, "-wave records on one thread");
    else if (threads < want) snprintf(why, sizeof why, "one per cluster at most");
    else snprintf(why, sizeof why, "%ld core%s here; -threads_pace team would use %d", cores,
                  cores == 1 ? "" : "s", o->threads);
    fprintf(stderr, "rfsim: note: -threads %d: stepping the SMs on %d thread%s (%s)\n",
            o->threads, threads, threads == 1 ? "" : "s", why);
  }
  gpu_wave *gw = g && threads > 0 && hw.wave ? gpu_wave_attach(g, hw.wave, d) : NULL;
  if (!g || threads < 0 || (hw.wave && !gw)) {
    gpu_destroy(g);
    rf_diag ignore;
    wave_close(hw.wave, &ignore);
    trace_list_free(list);
    return -1;
  }
  stats_record *kstats = rf_calloc((size_t)list->nkernels, sizeof *kstats, d);
  int nk = 0, rc = kstats ? 0 : -1;
  run_progress prog = {.nkernels = list->nkernels};
  progress_init(&prog.line, stderr, !o->quiet);
  if (prog.line.out) gpu_set_ticker(g, (gpu_ticker){progress_tick, &prog});
  for (int i = 0; rc == 0 && i < list->ncmds; i++) {
    const trace_cmd *c = &list->cmds[i];
    if (c->kind == TRACE_CMD_MEMCPY) gpu_memcpy(g, c->addr, c->bytes);
    if (c->kind != TRACE_CMD_KERNEL) continue;
    stats_init(&kstats[nk]);
    prog.kernel = nk + 1;
    progress_tick(&prog, g);
    rc = gpu_run_kernel(g, c->path, &kstats[nk], d);
    if (rc == 0) {
      prog.warp_insts_before += warp_insts_of(&kstats[nk]);
      stats_print_text(&kstats[nk], stdout);
      fflush(stdout);
    }
    nk++;
  }
  progress_clear(&prog.line);
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
  gpu_wave_free(gw);
  /* Also after a failure (a lockstep mismatch names this file): what was recorded up to the
   * stop is a complete waveform. */
  rf_diag wd;
  if (wave_close(hw.wave, &wd) < 0 && rc == 0) {
    *d = wd;
    rc = -1;
  }
  trace_list_free(list);
  return rc;
}

int main(int argc, char **argv) {
#ifdef __GLIBC__
  /* Large tables (the MSHRs' request pools, the scoreboards: sized for the worst case, 26 MB
   * on the TITAN V config) are mostly never touched (a pool is handed out front to back, a
   * scoreboard is written for the warp slots in use); from fresh pages, calloc need not clear
   * them. glibc raises its mmap threshold to the size of the first mapped block freed (the
   * 1 MB line buffer that read the kernel list), after which calloc cleared every such table
   * from the heap: a fixed threshold keeps them mapped. */
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
  cli o = {0};
  o.wave_to = WAVE_NO_END;
  o.threads = 1;
  o.trace_cache.mode = TRACE_CACHE_ON;
  o.trace_cache.max_bytes = (uint64_t)TRACE_CACHE_MAX_MB_DEFAULT << 20;
  rf_diag d = {{0}, 0};
  gpu_config cfg;
  config_defaults(&cfg);
  o.configs = calloc((size_t)argc, sizeof *o.configs);
  if (!o.configs) {
    fprintf(stderr, "rfsim: error: out of memory\n");
    return 1;
  }
  int bad_run_option = 0;
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
    if (!strcmp(a, "-quiet")) {
      o.quiet = 1;
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
    const char *v = argv[i + 1];
    if (!strcmp(a, "-trace")) o.trace = v;
    else if (!strcmp(a, "-config")) o.configs[o.nconfigs++] = v;
    else if (!strcmp(a, "-stats_json")) o.stats_json = v;
    else if (!strcmp(a, "-wave")) o.wave = v;
    else if (!strcmp(a, "-trace_cache_dir")) o.trace_cache.dir = v;
    else if (!strcmp(a, "-trace_cache_max_mb") &&
             parse_max_mb(v, &o.trace_cache.max_bytes, &d) < 0)
      bad_run_option = 1;
    else if (!strcmp(a, "-trace_cache") && trace_cache_mode_parse(v, &o.trace_cache.mode) < 0) {
      rf_fail(&d, "command line: -trace_cache: expected on, off or rebuild, found '%s'", v);
      bad_run_option = 1;
    }
    else if (!strcmp(a, "-wave_window") && parse_window(v, &o.wave_from, &o.wave_to, &d) < 0)
      bad_run_option = 1;
    else if (!strcmp(a, "-threads") && parse_threads(v, &o.threads, &d) < 0)
      bad_run_option = 1;
    else if (!strcmp(a, "-threads_pace") && pace_mode_parse(v, &o.pace) < 0) {
      rf_fail(&d, "command line: -threads_pace: expected measured, team or alternate, found "
                  "'%s'", v);
      bad_run_option = 1;
    }
    else if (!strcmp(a, "-hw") && hw_mode_parse(v, &o.hw) < 0) {
      rf_fail(&d, "command line: -hw: expected c, rtl or lockstep, found '%s'", v);
      bad_run_option = 1;
    }
    i++;
  }
  if (bad_run_option) {
    fprintf(stderr, "rfsim: error: %s\n", d.msg);
    free(o.configs);
    return 2;
  }
  config_notes notes;
  config_notes_init(&notes, stderr);
  int rc = 0;
  for (int i = 0; rc == 0 && i < o.nconfigs; i++)
    rc = config_load_file(&cfg, o.configs[i], &notes, &d);
  for (int i = 1; rc == 0 && i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-dump_config") || !strcmp(a, "-quiet")) continue;
    const char *v = argv[++i];
    if (!strcmp(a, "-trace") || !strcmp(a, "-config") || !strcmp(a, "-stats_json") ||
        !strcmp(a, "-wave") || !strcmp(a, "-wave_window") || !strcmp(a, "-hw") ||
        !strcmp(a, "-trace_cache") || !strcmp(a, "-trace_cache_dir") ||
        !strcmp(a, "-trace_cache_max_mb") || !strcmp(a, "-threads") ||
        !strcmp(a, "-threads_pace"))
      continue;
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
    return d.refusal ? 3 : 1;
  }
  return 0;
}
