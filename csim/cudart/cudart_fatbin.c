/* From a fatbin in the program's memory to decoded modules. The fatbin container (magic
 * 0xBA55ED50, its size in the header) is written to a private temporary folder, where
 * `cuobjdump -xelf all` extracts its cubins (decompressing them as needed) and `cuobjdump -sass`
 * lists each one; the cubin and its listing are then loaded as a sass_module. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/read_file.h"
#include "../sass/sass_elf.h"
#include "../sass/sass_isa.h"
#include "cudart_state.h"

extern char **environ;

/* Runs argv in dir with stdout to out_path (NULL: /dev/null); 0 if it exits 0. */
static int run_tool(char *const argv[], const char *dir, const char *out_path, rf_diag *d) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out_path ? out_path : "/dev/null",
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd) || chdir(dir) < 0) {
    posix_spawn_file_actions_destroy(&fa);
    return rf_fail(d, "cannot enter %s", dir);
  }
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (chdir(cwd) < 0) return rf_fail(d, "cannot return to %s", cwd);
  if (rc) return rf_fail(d, "cannot run %s: %s (is the CUDA 11.8 toolkit installed? make "
                         "cuda-toolkit)", argv[0], strerror(rc));
  int st;
  if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
    return rf_fail(d, "%s %s failed", argv[0], argv[1]);
  return 0;
}

static void remove_tree(const char *dir) {
  DIR *dp = opendir(dir);
  struct dirent *e;
  char p[4096];
  while (dp && (e = readdir(dp)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
      unlink(p);
    }
  if (dp) closedir(dp);
  rmdir(dir);
}

/* the architecture of a cubin named "<x>.<n>.sm_NN.cubin", 0 if the interpreter does not run it */
static int cubin_sm(const char *name) {
  const char *s = strstr(name, ".sm_");
  size_t n = strlen(name);
  if (!s || n < 6 || strcmp(name + n - 6, ".cubin")) return 0;
  int sm = atoi(s + 4);
  return sass_isa_supported(sm) ? sm : 0;
}

static int load_cubin(const char *dir, const char *name, const char *cuobjdump, sass_devmem *mem,
                      sass_module *m, int *has_kernels, rf_diag *d) {
  char cubin[4096], listing[4096];
  snprintf(cubin, sizeof cubin, "%s/%s", dir, name);
  snprintf(listing, sizeof listing, "%s/%s.sass", dir, name);
  char *argv[] = {(char *)cuobjdump, "-sass", cubin, NULL};
  uint8_t *cb = NULL, *ls = NULL;
  size_t cl, ll;
  int rc = run_tool(argv, dir, listing, d);
  if (rc == 0) rc = rf_read_file(cubin, SIZE_MAX, &cb, &cl, d);
  if (rc == 0) rc = rf_read_file(listing, SIZE_MAX, &ls, &ll, d);
  if (rc == 0) rc = sass_module_load(m, cb, cl, name, (const char *)ls, ll, name, mem, d);
  *has_kernels = rc == 0 && m->nk > 0;
  if (rc == 0 && !*has_kernels) sass_module_unload(m);
  free(cb);
  free(ls);
  return rc;
}

/* The architecture to run from a fatbin's cubins: `want` if given (rfsim-trace -sm), else
 * Pascal's when there is one, else Volta's. */
static int choose_sm(const char *dir, int want) {
  int best = 0;
  DIR *dp = opendir(dir);
  struct dirent *e;
  while (dp && (e = readdir(dp))) {
    int sm = cubin_sm(e->d_name);
    if (!sm) continue;
    if (want) {
      if (sm == want) best = sm;
    } else if (!best || (sm < 70) > (best < 70) || ((sm < 70) == (best < 70) && sm > best)) {
      best = sm;
    }
  }
  if (dp) closedir(dp);
  return best;
}

int cudart_fatbin_modules(const void *fatbin, const char *cuobjdump, int want_sm,
                          sass_devmem *mem, sass_module **mods, int *nmods, rf_diag *d) {
  const uint8_t *h = fatbin;
  if (sass_le32(h) != CUDART_FATBIN_MAGIC)
    return rf_fail(d, "registered device code is not a fatbin (magic 0x%08x)", sass_le32(h));
  uint64_t total = sass_le16(h + 6) + sass_le64(h + 8);
  if (total > (1ull << 31)) return rf_fail(d, "fatbin of %llu bytes", (unsigned long long)total);
  char dir[] = "/tmp/rfsim-cudart-XXXXXX", path[4096];
  if (!mkdtemp(dir)) return rf_fail(d, "cannot make a temporary folder: %s", strerror(errno));
  snprintf(path, sizeof path, "%s/code.fatbin", dir);
  FILE *f = fopen(path, "wb");
  int rc = f && fwrite(fatbin, 1, total, f) == total ? 0 : rf_fail(d, "%s: write error", path);
  if (f && fclose(f) && rc == 0) rc = rf_fail(d, "%s: write error", path);
  char *argv[] = {(char *)cuobjdump, "-xelf", "all", "code.fatbin", NULL};
  if (rc == 0) rc = run_tool(argv, dir, NULL, d);
  *mods = NULL;
  *nmods = 0;
  int other_arch = 0, sm = rc == 0 ? choose_sm(dir, want_sm) : 0;
  DIR *dp = rc == 0 ? opendir(dir) : NULL;
  struct dirent *e;
  while (rc == 0 && dp && (e = readdir(dp))) {
    size_t n = strlen(e->d_name);
    if (n < 6 || strcmp(e->d_name + n - 6, ".cubin")) continue;
    if (cubin_sm(e->d_name) != sm || !sm) {
      other_arch = 1;
      continue;
    }
    sass_module *m = realloc(*mods, (size_t)(*nmods + 1) * sizeof *m);
    if (!m) {
      rc = rf_fail(d, "out of memory");
      break;
    }
    *mods = m;
    int has;
    rc = load_cubin(dir, e->d_name, cuobjdump, mem, &m[*nmods], &has, d);
    if (rc == 0 && has) (*nmods)++;
  }
  if (dp) closedir(dp);
  remove_tree(dir);
  if (rc == 0 && !*nmods && want_sm)
    rc = rf_fail(d, "the program has no sm_%d code: build it with nvcc -arch=sm_%d", want_sm,
                 want_sm);
  else if (rc == 0 && !*nmods)
    rc = rf_fail(d, "the program has no code for sm_50-62 or sm_70-72%s: build it with nvcc "
                 "-arch=sm_61 or -arch=sm_70", other_arch ? " (only other architectures)" : "");
  return rc;
}

int cudart_fatbin_load(cudart_state *s, int i, rf_diag *d) {
  cudart_fatbin *fb = &s->fatbins[i];
  if (fb->loaded) return 0;
  if (cudart_fatbin_modules(fb->data, s->cuobjdump, s->want_sm, &s->mem, &fb->mods, &fb->nmods,
                            d) < 0)
    return -1;
  fb->loaded = 1;
  if (fb->nmods) s->run_sm = fb->mods[0].sm;
  return 0;
}
