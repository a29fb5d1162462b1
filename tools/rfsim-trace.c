/* rfsim-trace: runs a CUDA program without a GPU and writes Accel-Sim traces of its kernels.
 *
 *   rfsim-trace [-o DIR] [-xz] [-kernels LIST] [-budget N] [-config FILE] [-sm N]
 *               [-cuobjdump PATH] [-regs NAME=N,...] [--] PROGRAM [ARGS...]
 *
 * The program (built with nvcc -arch=sm_61 -cudart shared) runs against rfsim's stand-in
 * libcudart.so.11.0, which executes its kernels' SASS on the host (csim/sass) and writes
 * kernelslist.g and kernel-N.traceg into a fresh temporary folder. The folder becomes DIR only
 * if the program exits with status 0, i.e. its own check of its results passed; otherwise
 * nothing is left. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../csim/common/diag.h"
#include "../csim/common/launch_list.h"
#include "../csim/config/config.h"
#include "../csim/tracegen/tg_outdir.h"
#include "../csim/tracer/tracer.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: rfsim-trace [options] [--] PROGRAM [ARGS...]\n"
          "  runs a CUDA program (nvcc -arch=sm_61 -cudart shared) on rfsim's SASS interpreter\n"
          "  and writes Accel-Sim traces of its kernels\n"
          "  -o DIR          trace folder (default: traces); replaced only if it holds traces\n"
          "  -xz             write kernel-N.traceg.xz, compressed as the tracer's\n"
          "                  TRACE_FILE_COMPRESS=1 does (rfsim reads either)\n"
          "  -kernels LIST   launches to trace: numbers from 1, ranges a-b and kernel names\n"
          "                  (symbol or function name), comma-separated (default: all); the\n"
          "                  others still run. Items that select no launch are noted\n"
          "  -budget N       stop a launch after N warp instructions (default 2000000000)\n"
          "  -config FILE    the device the program sees (SMs, limits) from an rfsim config\n"
          "  -sm N           run the program's sm_N code (61 or 70; default: sm_61's if it has\n"
          "                  it, else sm_70's)\n"
          "  -cuobjdump PATH CUDA 11.8's cuobjdump (default /usr/bin/cuobjdump)\n"
          "  -regs LIST      NAME=N,...: the trace of kernel NAME (its symbol or function name)\n"
          "                  allocates N registers per thread, at least what its code uses (a\n"
          "                  paper's compiler allocated more than nvcc 11.8 does); names of\n"
          "                  no traced launch are noted\n");
}

/* -regs: NAME=N pairs, comma-separated, N from 1 to 255 */
static int check_regs(const char *v) {
  for (const char *p = v;;) {
    size_t n = strcspn(p, ","), eq = strcspn(p, "=");
    char *e;
    long r = eq < n ? strtol(p + eq + 1, &e, 10) : 0;
    if (!eq || eq >= n || e != p + n || r < 1 || r > 255) {
      fprintf(stderr, "rfsim-trace: -regs: expected NAME=N with N from 1 to 255, found '%.*s'\n",
              (int)n, p);
      return -1;
    }
    if (!p[n]) return 0;
    p += n + 1;
  }
}

/* -kernels: every item a launch number, a range or a kernel name (launch_list.h) */
static int check_kernels(const char *v) {
  for (const char *p = v;;) {
    size_t n = strcspn(p, ",");
    long a, b;
    if (launch_item_parse(p, n, &a, &b) < 0) {
      fprintf(stderr, "rfsim-trace: -kernels: expected launch numbers from 1, ranges a-b with a <= "
              "b and kernel names, comma-separated, found '%.*s'\n", (int)n, p);
      return -1;
    }
    if (!p[n]) return 0;
    p += n + 1;
  }
}

/* PROGRAM as execvp would find it */
static int find_program(const char *name, char *out, size_t size) {
  if (strchr(name, '/')) {
    snprintf(out, size, "%s", name);
    return access(out, X_OK);
  }
  const char *path = getenv("PATH");
  while (path && *path) {
    size_t n = strcspn(path, ":");
    snprintf(out, size, "%.*s/%s", (int)n, path, name);
    if (access(out, X_OK) == 0) return 0;
    path += n + (path[n] == ':');
  }
  return -1;
}

/* bin/cudart/libcudart.so.11.0 beside this executable */
static int find_runtime(char *dir, size_t size) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return -1;
  self[n] = 0;
  char *slash = strrchr(self, '/');
  if (!slash) return -1;
  *slash = 0;
  if (snprintf(dir, size, "%s/cudart", self) >= (int)size) return -1;
  char lib[PATH_MAX + 64];
  snprintf(lib, sizeof lib, "%s/libcudart.so.11.0", dir);
  return access(lib, R_OK);
}

/* The runtime's summary (cudart_state.c's write_stats); its lines on -kernels and -regs items
 * that selected no traced launch become notes: a misspelt kernel name would otherwise go
 * unnoticed (the launches it meant traced with the cubin's registers, or not at all). */
static int read_stats(const char *dir, long *kernels, unsigned long long *insts, double *secs) {
  char p[TG_PATH_MAX + 64];
  snprintf(p, sizeof p, "%s/.stats", dir);
  FILE *f = fopen(p, "r");
  if (!f) return -1;
  long launches;
  int ok = fscanf(f, "launches %ld kernels %ld warp_insts %llu seconds %lf ", &launches, kernels,
                  insts, secs) == 4;
  char line[2100];
  while (ok && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    int regs = !strncmp(line, "unmatched_regs ", 15);
    if (!regs && strncmp(line, "unmatched_kernels ", 18)) continue;
    for (const char *item = line + (regs ? 15 : 18); *item;) {
      int n = (int)strcspn(item, ",");
      if (regs)
        fprintf(stderr, "rfsim-trace: note: -regs %.*s: no traced launch is of kernel %.*s\n", n,
                item, (int)strcspn(item, "="), item);
      else
        fprintf(stderr, "rfsim-trace: note: -kernels %.*s: selects no launch of the program\n",
                n, item);
      item += n + (item[n] == ',');
    }
  }
  fclose(f);
  unlink(p);
  return ok ? 0 : -1;
}

int main(int argc, char **argv) {
  const char *out = "traces", *kernels = NULL, *budget = "2000000000", *config = NULL;
  const char *cuobjdump = "/usr/bin/cuobjdump", *sm = NULL, *regs = NULL;
  int i = 1, xz = 0;
  for (; i < argc && argv[i][0] == '-'; i += 2) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      i++;
      break;
    }
    if (!strcmp(a, "-xz")) { /* the one option without a value */
      xz = 1;
      i--;
      continue;
    }
    if (!strcmp(a, "-h") || !strcmp(a, "-help") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "rfsim-trace: %s: expected a value\n", a);
      return 2;
    }
    const char *v = argv[i + 1];
    if (!strcmp(a, "-o")) out = v;
    else if (!strcmp(a, "-kernels")) {
      if (check_kernels(v) < 0) return 2;
      kernels = v;
    }
    else if (!strcmp(a, "-config")) config = v;
    else if (!strcmp(a, "-cuobjdump")) cuobjdump = v;
    else if (!strcmp(a, "-sm")) {
      int n = atoi(v);
      if (!((n >= 50 && n <= 62) || (n >= 70 && n <= 72)) || strspn(v, "0123456789") != strlen(v)) {
        fprintf(stderr, "rfsim-trace: -sm: expected an architecture 50-62 or 70-72, found '%s'\n",
                v);
        return 2;
      }
      sm = v;
    }
    else if (!strcmp(a, "-regs")) {
      if (check_regs(v) < 0) return 2;
      regs = v;
    }
    else if (!strcmp(a, "-budget")) {
      char *e;
      errno = 0;
      unsigned long long b = strtoull(v, &e, 10);
      if (errno || *e || !b || v[0] == '-') {
        fprintf(stderr, "rfsim-trace: -budget: expected a number of warp instructions >= 1, "
                "found '%s'\n", v);
        return 2;
      }
      budget = v;
    } else {
      fprintf(stderr, "rfsim-trace: unknown option %s\n", a);
      usage(stderr);
      return 2;
    }
  }
  if (i >= argc) {
    usage(stderr);
    return 2;
  }
  rf_diag d;
  char prog[PATH_MAX], rtdir[PATH_MAX - 64];
  if (find_program(argv[i], prog, sizeof prog) < 0) {
    fprintf(stderr, "rfsim-trace: %s: no such executable program\n", argv[i]);
    return 1;
  }
  if (tracer_check_program(prog, &d) < 0) {
    fprintf(stderr, "rfsim-trace: %s\n", d.msg);
    return 1;
  }
  if (find_runtime(rtdir, sizeof rtdir) < 0) {
    fprintf(stderr, "rfsim-trace: the stand-in runtime bin/cudart/libcudart.so.11.0 is missing "
            "beside rfsim-trace: run make\n");
    return 1;
  }
  if (access(cuobjdump, X_OK) < 0) {
    fprintf(stderr, "rfsim-trace: %s: not found; the CUDA 11.8 toolkit provides it (make "
            "cuda-toolkit installs it)\n", cuobjdump);
    return 1;
  }
  char device[512] = "";
  if (config) {
    gpu_config c;
    config_defaults(&c);
    if (config_load_file(&c, config, NULL, &d) < 0 || config_validate(&c, &d) < 0) {
      fprintf(stderr, "rfsim-trace: %s\n", d.msg);
      return 1;
    }
    tracer_device_desc(&c, config, device, sizeof device);
  }
  tg_outdir o;
  if (tg_outdir_begin(&o, out, &d) < 0) {
    fprintf(stderr, "rfsim-trace: %s\n", d.msg);
    return 1;
  }
  char libpath[2 * PATH_MAX];
  const char *old = getenv("LD_LIBRARY_PATH");
  snprintf(libpath, sizeof libpath, "%s%s%s", rtdir, old && *old ? ":" : "", old ? old : "");
  setenv("LD_LIBRARY_PATH", libpath, 1);
  setenv("RFSIM_TRACE_DIR", o.tmp, 1);
  setenv("RFSIM_TRACE_BUDGET", budget, 1);
  setenv("RFSIM_TRACE_XZ", xz ? "1" : "0", 1);
  setenv("RFSIM_CUOBJDUMP", cuobjdump, 1);
  if (sm) setenv("RFSIM_TRACE_SM", sm, 1);
  else unsetenv("RFSIM_TRACE_SM");
  if (kernels) setenv("RFSIM_TRACE_KERNELS", kernels, 1);
  else unsetenv("RFSIM_TRACE_KERNELS");
  if (regs) setenv("RFSIM_TRACE_REGS", regs, 1);
  else unsetenv("RFSIM_TRACE_REGS");
  if (*device) setenv("RFSIM_DEVICE", device, 1);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    execv(prog, argv + i);
    fprintf(stderr, "rfsim-trace: cannot run %s: %s\n", prog, strerror(errno));
    _exit(127);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) < 0) {
    tg_outdir_abort(&o);
    fprintf(stderr, "rfsim-trace: cannot run %s: %s\n", prog, strerror(errno));
    return 1;
  }
  if (!WIFEXITED(st) || WEXITSTATUS(st)) {
    tg_outdir_abort(&o);
    if (WIFSIGNALED(st))
      fprintf(stderr, "rfsim-trace: %s ended by signal %d: no trace kept\n", argv[i], WTERMSIG(st));
    else
      fprintf(stderr, "rfsim-trace: %s exited with status %d: no trace kept\n", argv[i],
              WEXITSTATUS(st));
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
  }
  long nk = 0;
  unsigned long long insts = 0;
  double secs = 0;
  char listp[TG_PATH_MAX + 64];
  snprintf(listp, sizeof listp, "%s/kernelslist.g", o.tmp);
  if (read_stats(o.tmp, &nk, &insts, &secs) < 0 || nk == 0 || access(listp, R_OK) < 0) {
    tg_outdir_abort(&o);
    fprintf(stderr, "rfsim-trace: %s traced no kernel%s: nothing written\n", argv[i],
            kernels ? " matching -kernels" : "");
    return 1;
  }
  if (tg_outdir_commit(&o, &d) < 0) {
    fprintf(stderr, "rfsim-trace: %s\n", d.msg);
    return 1;
  }
  fprintf(stderr, "rfsim-trace: %s: %ld kernel%s, %llu warp instructions traced in %.2f s of CPU "
          "(%.2f M warp-inst/s)\n", out, nk, nk == 1 ? "" : "s", insts, secs,
          secs > 0 ? (double)insts / secs / 1e6 : 0.0);
  return 0;
}
