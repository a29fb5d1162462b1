#include "test_util.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../csim/gpu/gpu.h"
#include "../../csim/trace/trace.h"

int tu_mkdtemp(char *out, size_t n) {
  const char *base = getenv("TMPDIR");
  snprintf(out, n, "%s/rfsim-test-XXXXXX", base ? base : "/tmp");
  return mkdtemp(out) ? 0 : -1;
}

int tu_write(const char *dir, const char *name, const char *text) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  int ok = fputs(text, f) >= 0;
  return fclose(f) == 0 && ok ? 0 : -1;
}

int tu_sh(const char *cmd) {
  int st = system(cmd);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void tu_rmtree(const char *dir) {
  DIR *dp = opendir(dir);
  if (!dp) return;
  struct dirent *e;
  char path[1024];
  while ((e = readdir(dp)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) tu_rmtree(path);
    else unlink(path);
  }
  closedir(dp);
  rmdir(dir);
}

const char *tu_shared_trace(const char *rel, char *buf, size_t n) {
  const char *shared = getenv("SHARED");
  snprintf(buf, n, "%s/traces/%s", shared && *shared ? shared : "../shared", rel);
  return access(buf, R_OK) == 0 ? buf : NULL;
}

/* Appends to a growing buffer; returns 0, or -1 (buffer freed) when out of memory. */
static int append(char **buf, size_t *used, size_t *cap, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(*buf + *used, *cap - *used, fmt, ap);
    va_end(ap);
    if (n < 0) return -1;
    if ((size_t)n < *cap - *used) {
      *used += (size_t)n;
      return 0;
    }
    char *nb = realloc(*buf, *cap * 2);
    if (!nb) {
      free(*buf);
      *buf = NULL;
      return -1;
    }
    *buf = nb;
    *cap *= 2;
  }
}

char *tu_kernel_text(const char *name, int ntb, int nwarps, int nregs,
                     const char *const *bodies, int nbodies) {
  size_t cap = 1 << 16, used = 0;
  char *t = malloc(cap);
  if (!t || append(&t, &used, &cap,
                   "-kernel name = %s\n-kernel id = 1\n-grid dim = (%d,1,1)\n"
                   "-block dim = (%d,1,1)\n-shmem = 0\n-nregs = %d\n"
                   "-shmem base_addr = 0x7f0000000000\n"
                   "-local mem base_addr = 0x7e0000000000\n"
                   "-accelsim tracer version = 5\n-enable lineinfo = 0\n\n",
                   name, ntb, nwarps * 32, nregs) < 0)
    return NULL;
  for (int b = 0; b < ntb; b++) {
    if (append(&t, &used, &cap, "#BEGIN_TB\nthread block = %d,0,0\n", b) < 0) return NULL;
    for (int w = 0; w < nwarps; w++) {
      const char *body = bodies[w % nbodies];
      int n = 0;
      for (const char *p = body; *p; p++) n += *p == '\n';
      if (append(&t, &used, &cap, "warp = %d\ninsts = %d\n", w, n) < 0) return NULL;
      int pc = 0;
      for (const char *p = body; *p;) {
        const char *nl = strchr(p, '\n');
        if (!nl) nl = p + strlen(p);
        if (append(&t, &used, &cap, "%04x ffffffff %.*s\n", pc, (int)(nl - p), p) < 0)
          return NULL;
        pc += 16;
        p = *nl ? nl + 1 : nl;
      }
    }
    if (append(&t, &used, &cap, "#END_TB\n") < 0) return NULL;
  }
  return t;
}

char *tu_run_list(const gpu_config *c, int mode, const char *list_path, stats_record *total) {
  rf_diag d = {{0}, 0};
  trace_list *l;
  if (access(list_path, R_OK) != 0) fail_msg("%s missing: run make workloads", list_path);
  if (trace_list_read(list_path, &l, &d) < 0) fail_msg("%s", d.msg);
  gpu_hw hw = {(hw_mode)mode, NULL, NULL};
  gpu *g = gpu_create_hw(c, &hw, stderr, &d);
  if (!g) fail_msg("%s", d.msg);
  char *text = NULL;
  size_t n;
  FILE *m = open_memstream(&text, &n);
  for (int i = 0; i < l->ncmds; i++) {
    if (l->cmds[i].kind == TRACE_CMD_MEMCPY) gpu_memcpy(g, l->cmds[i].addr, l->cmds[i].bytes);
    if (l->cmds[i].kind != TRACE_CMD_KERNEL) continue;
    stats_record r;
    stats_init(&r);
    if (gpu_run_kernel(g, l->cmds[i].path, &r, &d) < 0) fail_msg("%s: %s", list_path, d.msg);
    stats_print_text(&r, m);
    stats_free(&r);
  }
  stats_init(total);
  gpu_total_stats(g, total);
  stats_print_text(total, m);
  fclose(m);
  gpu_destroy(g);
  trace_list_free(l);
  /* drop "<technique>_hw = <mode>" lines */
  for (char *line = text; *line;) {
    char *eol = strchr(line, '\n');
    char *eq = strstr(line, "_hw = ");
    if (eq && (!eol || eq < eol) && !memchr(line, ' ', (size_t)(eq - line))) {
      if (!eol) {
        *line = '\0';
        break;
      }
      memmove(line, eol + 1, strlen(eol + 1) + 1);
    } else {
      if (!eol) break;
      line = eol + 1;
    }
  }
  return text;
}

void tu_set_ok(gpu_config *c, const char *name, const char *value) {
  rf_diag d = {{0}, 0};
  int rc = config_set(c, name, value, "command line", 0, NULL, &d);
  if (rc != 0) fail_msg("%s %s: rc %d: %s", name, value, rc, d.msg);
}

void tu_set_err(const char *name, const char *value, const char *msg) {
  gpu_config c, before;
  config_defaults(&c);
  before = c;
  rf_diag d = {{0}, 0};
  assert_int_equal(config_set(&c, name, value, "command line", 0, NULL, &d), -1);
  assert_string_equal(d.msg, msg);
  assert_memory_equal(&c, &before, sizeof c);
}

void tu_validate_ok(const gpu_config *c) {
  rf_diag d = {{0}, 0};
  if (config_validate(c, &d) != 0) fail_msg("%s", d.msg);
}

void tu_validate_err(const gpu_config *c, const char *msg) {
  rf_diag d = {{0}, 0};
  assert_int_equal(config_validate(c, &d), -1);
  assert_string_equal(d.msg, msg);
}
