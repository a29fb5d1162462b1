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
#include "../../csim/tracegen/tg_gen.h"
#include "../../csim/tracegen/tg_spec.h"
#include "../../csim/tracegen/tg_stream.h"

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

void tu_private_cache(void) {
  char cwd[2048], dir[2200];
  if (!getcwd(cwd, sizeof cwd)) fail_msg("getcwd failed");
  snprintf(dir, sizeof dir, "%s/build/test-cache", cwd);
  setenv("XDG_CACHE_HOME", dir, 1);
}

int tu_count_files(const char *dir, const char *containing) {
  DIR *dp = opendir(dir);
  if (!dp) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(dp)))
    if (e->d_name[0] != '.' && strstr(e->d_name, containing)) n++;
  closedir(dp);
  return n;
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

void tu_kernel_dir(char *dir, size_t dirn, char *list, size_t listn, const char *text) {
  assert_non_null(text);
  assert_int_equal(tu_mkdtemp(dir, dirn), 0);
  assert_int_equal(tu_write(dir, "kernel-1.traceg", text), 0);
  assert_int_equal(tu_write(dir, "kernelslist.g", "kernel-1.traceg\n"), 0);
  snprintf(list, listn, "%s/kernelslist.g", dir);
}

char *tu_run_list(const gpu_config *c, int mode, const char *list_path, stats_record *total) {
  return tu_run_list_with(c, mode, NULL, NULL, NULL, list_path, total);
}

char *tu_run_list_with(const gpu_config *c, int mode, const struct policy_ops *ops,
                       void (*obs_cycle)(void *ctx, const gpu *g, uint64_t now), void *obs_ctx,
                       const char *list_path, stats_record *total) {
  return tu_run_list_threads(c, mode, ops, obs_cycle, obs_ctx, 1, list_path, total);
}

char *tu_run_list_threads(const gpu_config *c, int mode, const struct policy_ops *ops,
                          void (*obs_cycle)(void *ctx, const gpu *g, uint64_t now),
                          void *obs_ctx, int threads, const char *list_path,
                          stats_record *total) {
  return tu_run_list_paced(c, mode, ops, obs_cycle, obs_ctx, threads, PACE_TEAM, list_path,
                           total);
}

static char *run_list(const gpu_config *c, int mode, const struct policy_ops *ops,
                      void (*obs_cycle)(void *ctx, const gpu *g, uint64_t now), void *obs_ctx,
                      int threads, int pace, void (*setup)(gpu *g, void *ctx), void *setup_ctx,
                      const char *list_path, stats_record *total);

char *tu_run_list_paced(const gpu_config *c, int mode, const struct policy_ops *ops,
                        void (*obs_cycle)(void *ctx, const gpu *g, uint64_t now), void *obs_ctx,
                        int threads, int pace, const char *list_path, stats_record *total) {
  return run_list(c, mode, ops, obs_cycle, obs_ctx, threads, pace, NULL, NULL, list_path, total);
}

char *tu_run_list_setup(const gpu_config *c, void (*setup)(gpu *g, void *ctx), void *setup_ctx,
                        int threads, const char *list_path) {
  stats_record total;
  char *text = run_list(c, HW_C, NULL, NULL, NULL, threads, PACE_TEAM, setup, setup_ctx,
                        list_path, &total);
  stats_free(&total);
  return text;
}

static char *run_list(const gpu_config *c, int mode, const struct policy_ops *ops,
                      void (*obs_cycle)(void *ctx, const gpu *g, uint64_t now), void *obs_ctx,
                      int threads, int pace, void (*setup)(gpu *g, void *ctx), void *setup_ctx,
                      const char *list_path, stats_record *total) {
  rf_diag d = {{0}, 0};
  trace_list *l;
  if (access(list_path, R_OK) != 0) fail_msg("%s missing: run make workloads", list_path);
  if (trace_list_read(list_path, &l, &d) < 0) fail_msg("%s", d.msg);
  gpu_hw hw = {(hw_mode)mode, NULL, ops};
  gpu *g = gpu_create_hw(c, &hw, stderr, &d);
  if (!g) fail_msg("%s", d.msg);
  if (obs_cycle) gpu_set_observer(g, (gpu_observer){obs_cycle, obs_ctx});
  if (gpu_set_threads(g, threads, &d) < 0) fail_msg("%s", d.msg);
  gpu_set_pace(g, (pace_mode)pace);
  if (setup) setup(g, setup_ctx);
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

/* ---- comparing thread block streams ---- */

static void assert_same_inst(const trace_inst *a, const trace_inst *b) {
  assert_true(a->op->pc == b->op->pc);
  assert_int_equal(a->mask, b->mask);
  assert_int_equal(a->addr_off, b->addr_off);
  assert_int_equal(a->op->line, b->op->line);
  assert_int_equal(a->op->imm, b->op->imm);
  assert_int_equal(a->op->opcode, b->op->opcode);
  assert_int_equal(a->op->kind, b->op->kind);
  assert_int_equal(a->op->unit, b->op->unit);
  assert_int_equal(a->op->space, b->op->space);
  assert_int_equal(a->op->width, b->op->width);
  assert_int_equal(a->op->ndst, b->op->ndst);
  assert_int_equal(a->op->nsrc, b->op->nsrc);
  assert_memory_equal(a->op->dst, b->op->dst, sizeof a->op->dst);
  assert_memory_equal(a->op->src, b->op->src, sizeof a->op->src);
  assert_int_equal(a->op->has_imm, b->op->has_imm);
  assert_int_equal(a->op->is_mem, b->op->is_mem);
}

void tu_assert_same_tb(const trace_tb *a, const trace_tb *b) {
  assert_memory_equal(a->id, b->id, sizeof a->id);
  assert_int_equal(a->linear_id, b->linear_id);
  assert_int_equal(a->nwarps, b->nwarps);
  for (int w = 0; w < a->nwarps; w++) {
    const trace_warp *x = &a->warps[w], *y = &b->warps[w];
    assert_int_equal(x->n, y->n);
    assert_int_equal(x->naddrs, y->naddrs);
    for (uint32_t i = 0; i < x->n; i++) assert_same_inst(&x->insts[i], &y->insts[i]);
    if (x->naddrs) assert_memory_equal(x->addrs, y->addrs, x->naddrs * sizeof *x->addrs);
  }
}

int tu_compare_kernels(const char *text_path, const char *path, const trace_cache_opts *o,
                       long *tbs) {
  rf_diag d;
  trace_kernel *text, *other;
  if (trace_kernel_open(text_path, &text, &d) < 0) fail_msg("%s", d.msg);
  if (trace_kernel_open_cached(path, o, &other, &d) < 0) fail_msg("%s", d.msg);
  int from_cache = trace_kernel_reads_cache(other);
  assert_memory_equal(trace_kernel_get_info(text), trace_kernel_get_info(other),
                      sizeof(trace_kernel_info));
  long n = 0;
  for (;;) {
    trace_tb a, b;
    int ra = trace_kernel_next_tb(text, &a, &d);
    if (ra < 0) fail_msg("%s", d.msg);
    int rb = trace_kernel_next_tb(other, &b, &d);
    if (rb < 0) fail_msg("%s", d.msg);
    assert_int_equal(ra, rb);
    if (ra == 0) break;
    tu_assert_same_tb(&a, &b);
    trace_tb_free(&a);
    trace_tb_free(&b);
    n++;
  }
  trace_kernel_close(text);
  trace_kernel_close(other);
  if (tbs) *tbs = n;
  return from_cache;
}

int tu_list_kernels(const char *list_path, char ***out) {
  trace_list *l;
  rf_diag d;
  if (trace_list_read(list_path, &l, &d) < 0) fail_msg("%s (run make workloads)", d.msg);
  char **paths = calloc((size_t)l->nkernels, sizeof *paths);
  assert_non_null(paths);
  int n = 0;
  for (int i = 0; i < l->ncmds; i++)
    if (l->cmds[i].kind == TRACE_CMD_KERNEL) paths[n++] = strdup(l->cmds[i].path);
  trace_list_free(l);
  *out = paths;
  return n;
}

/* ---- xz copies ---- */

/* Compresses the file `src` into `dst` through the writer's stream, in uneven pieces. */
void tu_xz_file(const char *src, const char *dst) {
  FILE *in = fopen(src, "rb");
  if (!in) fail_msg("%s: cannot open", src);
  rf_diag d;
  tg_stream *out = tg_stream_open(dst, TG_STREAM_XZ, &d);
  if (!out) fail_msg("%s", d.msg);
  static char buf[77777];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, in)) > 0)
    assert_int_equal(tg_stream_write(out, buf, got), 0);
  fclose(in);
  if (tg_stream_close(out, &d) < 0) fail_msg("%s", d.msg);
}

/* An xz copy of a trace folder in `dir`: every kernel file compressed to NAME.xz and named so in
 * the copy of kernelslist.g, whose other lines are kept. Writes the copy's list path. */
void tu_xz_folder(const char *list, const char *dir, char *out_list, size_t n) {
  FILE *in = fopen(list, "r");
  if (!in) fail_msg("%s: cannot open", list);
  snprintf(out_list, n, "%s/kernelslist.g", dir);
  FILE *out = fopen(out_list, "w");
  assert_non_null(out);
  const char *slash = strrchr(list, '/');
  int dir_len = slash ? (int)(slash - list) + 1 : 0;
  char line[4096];
  while (fgets(line, sizeof line, in)) {
    line[strcspn(line, "\r\n")] = '\0';
    if (strncmp(line, "kernel", 6) != 0) {
      fprintf(out, "%s\n", line);
      continue;
    }
    char src[4096 + 512], dst[4096 + 512];
    snprintf(src, sizeof src, "%.*s%s", dir_len, list, line);
    snprintf(dst, sizeof dst, "%s/%s.xz", dir, line);
    tu_xz_file(src, dst);
    fprintf(out, "%s.xz\n", line);
  }
  fclose(in);
  assert_int_equal(fclose(out), 0);
}

int tu_fixture_setup(void **state) {
  tu_fixture *f = calloc(1, sizeof *f);
  if (!f) return -1;
  if (tu_mkdtemp(f->dir, sizeof f->dir) != 0) {
    free(f);
    return -1;
  }
  *state = f;
  return 0;
}

int tu_fixture_teardown(void **state) {
  tu_fixture *f = *state;
  tu_rmtree(f->dir);
  free(f);
  return 0;
}

tu_path tu_path_in(const tu_fixture *f, const char *name) {
  tu_path b;
  snprintf(b.s, sizeof b.s, "%s/%s", f->dir, name);
  return b;
}

char *tu_slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long len = ftell(f);
  assert_true(len >= 0);
  rewind(f);
  char *buf = malloc((size_t)len + 1);
  assert_non_null(buf);
  assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
  fclose(f);
  buf[len] = '\0';
  if (n) *n = (size_t)len;
  return buf;
}

int tu_same_file(const char *a, const char *b) {
  size_t na, nb;
  char *x = tu_slurp(a, &na), *y = tu_slurp(b, &nb);
  int same = na == nb && !memcmp(x, y, na);
  free(x);
  free(y);
  return same;
}

void tu_for_each_tb(const char *dir, const char *name, tu_tb_fn fn, void *arg) {
  char path[2100];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  rf_diag d = {{0}, 0};
  trace_kernel *k;
  if (trace_kernel_open(path, &k, &d) < 0) fail_msg("reader: %s", d.msg);
  trace_tb tb;
  int rc;
  while ((rc = trace_kernel_next_tb(k, &tb, &d)) > 0) {
    fn(trace_kernel_get_info(k), &tb, arg);
    trace_tb_free(&tb);
  }
  if (rc < 0) fail_msg("reader: %s", d.msg);
  trace_kernel_close(k);
}

tg_spec *tu_tg_parse_ok(const char *text) {
  rf_diag d = {{0}, 0};
  tg_spec *s = NULL;
  int rc = tg_spec_parse("t.spec", text, &s, &d);
  if (rc < 0) fail_msg("unexpected spec error: %s", d.msg);
  return s;
}

void tu_tg_generate_ok(const char *text, const char *outdir) {
  tg_spec *s = tu_tg_parse_ok(text);
  rf_diag d = {{0}, 0};
  if (tg_generate(s, outdir, TG_STREAM_PLAIN, &d) < 0) fail_msg("generation failed: %s", d.msg);
  tg_spec_free(s);
}

tu_tg_plans tu_tg_plan_of(const char *text) {
  tu_tg_plans pf = {tu_tg_parse_ok(text), NULL};
  rf_diag d = {{0}, 0};
  if (tg_plans_init(pf.s, &pf.plans, &d) < 0) fail_msg("%s", d.msg);
  return pf;
}

void tu_tg_plan_done(tu_tg_plans *pf) {
  tg_plans_free(pf->plans, pf->s->nkernels);
  tg_spec_free(pf->s);
}

void tu_set_ok(gpu_config *c, const char *name, const char *value) {
  rf_diag d = {{0}, 0};
  int rc = config_set(c, name, value, TU_ORIGIN, 0, NULL, &d);
  if (rc != 0) fail_msg("%s %s: rc %d: %s", name, value, rc, d.msg);
}

void tu_load_config(gpu_config *c, const char *file, const char *const (*opts)[2], size_t n) {
  rf_diag d = {{0}, 0};
  config_notes notes;
  config_notes_init(&notes, NULL);
  config_defaults(c);
  if (config_load_file(c, file, &notes, &d) < 0) fail_msg("%s", d.msg);
  for (size_t i = 0; i < n; i++)
    if (config_set(c, opts[i][0], opts[i][1], "test", 0, &notes, &d) != 0)
      fail_msg("%s %s: %s", opts[i][0], opts[i][1], d.msg);
  if (config_validate(c, &d) < 0) fail_msg("%s", d.msg);
}

void tu_each_workload(const char *const (*runs)[2], size_t n,
                      void (*each)(const gpu_config *c, const char *list)) {
  for (size_t i = 0; i < n; i++) {
    char list[256];
    snprintf(list, sizeof list, "build/traces/%s/kernelslist.g", runs[i][0]);
    gpu_config c;
    tu_load_config(&c, runs[i][1], NULL, 0);
    each(&c, list);
  }
}

void tu_set_err(const char *name, const char *value, const char *msg) {
  gpu_config c, before;
  config_defaults(&c);
  before = c;
  rf_diag d = {{0}, 0};
  assert_int_equal(config_set(&c, name, value, TU_ORIGIN, 0, NULL, &d), -1);
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

void tu_expect_cache(const cache_config *cc, int sectored, int sets, int line, int ways,
                     const char *letters, int entries, int merge, int missq) {
  assert_int_equal(cc->enabled, 1);
  assert_int_equal(cc->sectored, sectored);
  assert_int_equal(cc->nsets, sets);
  assert_int_equal(cc->line_size, line);
  assert_int_equal(cc->assoc, ways);
  char got[7] = {cc->replacement, cc->write_policy, cc->alloc_policy, cc->write_alloc,
                 cc->set_index_fn, cc->mshr_type, '\0'};
  assert_string_equal(got, letters);
  assert_int_equal(cc->mshr_entries, entries);
  assert_int_equal(cc->mshr_max_merge, merge);
  assert_int_equal(cc->miss_queue_size, missq);
}
