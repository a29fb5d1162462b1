/* The binary trace cache (-trace_cache): the thread blocks it gives are those of the text, on a
 * generated kernel with every address mode and mask shape, on every generated workload and on
 * the real traces; stats are byte-identical with the cache off, cold and warm; a stale (size,
 * mtime), truncated, corrupt or other-version cache is detected and rebuilt, the run still
 * correct; an unwritable cache folder means reading the text; -trace_cache off writes nothing;
 * a run closed early leaves neither a cache nor a .partial file.
 * Needs the generated workloads (make workloads) and bin/rfsim. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../csim/trace/trace.h"
#include "../csim/trace/trace_cache.h"
#include "common/test_util.h"

/* Reads `path` as text and through the cache with `o` in lockstep, comparing every thread
 * block; returns whether the cache side started out reading a cache. */
static int compare_streams(const char *path, const trace_cache_opts *o, long *tbs) {
  return tu_compare_kernels(path, path, o, tbs);
}

/* ---- a generated kernel with every shape the cache encodes ---- */

typedef struct sbuf {
  char *p;
  size_t n, cap;
} sbuf;

static void put(sbuf *s, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int k = vsnprintf(s->p + s->n, s->cap - s->n, fmt, ap);
    va_end(ap);
    assert_true(k >= 0);
    if (s->n + (size_t)k < s->cap) {
      s->n += (size_t)k;
      return;
    }
    s->cap = s->cap * 2 + (size_t)k + 64;
    s->p = realloc(s->p, s->cap);
    assert_non_null(s->p);
  }
}

/* 12 thread blocks of 3 warps (the last one partial: 80 threads); lineinfo and tracer v5
 * immediates; masks full, half, one lane and none; address modes 0 (irregular lists), 1 and 2
 * (and in it, two half-warp runs);
 * generic accesses into the shared and local windows. */
static char *gen_kernel(void) {
  sbuf s = {NULL, 0, 0};
  put(&s, "-kernel name = cache_mix\n-kernel id = 3\n-grid dim = (4,3,1)\n"
          "-block dim = (80,1,1)\n-shmem = 1024\n-nregs = 24\n-binary version = 70\n"
          "-cuda stream id = 0\n-shmem base_addr = 0x7f0000000000\n"
          "-local mem base_addr = 0x7e0000000000\n-accelsim tracer version = 5\n"
          "-enable lineinfo = 1\n\n");
  static const uint32_t masks[] = {0xffffffffu, 0x0000ffffu, 0x00000100u, 0u, 0xf0f0f0f0u};
  for (int by = 2; by >= 0; by--)
    for (int bx = 0; bx < 4; bx++) {
      put(&s, "#BEGIN_TB\nthread block = %d,%d,0\n", bx, by);
      for (int w = 2; w >= 0; w--) { /* warps in any order */
        int n = 10 + 3 * w + bx;
        put(&s, "warp = %d\ninsts = %d\n", w, n);
        for (int i = 0; i < n; i++) {
          uint32_t m = masks[(i + w + bx) % 5];
          int line = 100 + i;
          unsigned pc = 0x10u * (unsigned)i;
          uint64_t base = 0x7fb000000000ull + 0x1000ull * (uint64_t)(bx + 4 * by) + 64ull * i;
          switch (i % 7) {
            case 0:
              put(&s, "%d %04x %08x 1 R%d IADD3 3 R1 R2 R255 0 0x%x\n", line, pc, m, 4 + i % 8,
                  i * 3);
              break;
            case 1: /* mode 1: base + stride */
              put(&s, "%d %04x %08x 1 R10 LDG.E.64 1 R2 8 1 0x%llx 8\n", line, pc, m,
                  (unsigned long long)base);
              break;
            case 2: /* mode 0: one address per active lane, irregular */
              put(&s, "%d %04x %08x 0 STG.E 2 R2 R10 4 0", line, pc, m);
              for (int lane = 0; lane < 32; lane++)
                if (m >> lane & 1)
                  put(&s, " 0x%llx", (unsigned long long)(base + (uint64_t)(lane * lane) * 4));
              put(&s, "\n");
              break;
            case 3: /* mode 2: base + deltas; every other time two rows of a 16-wide tile,
                     * a half-warp each (the cache's halves form where both halves are on) */
              put(&s, "%d %04x %08x 1 R12 LDS.U.128 1 R3 16 2 0x%llx", line, pc, m,
                  (unsigned long long)(0x100ull * (uint64_t)i));
              for (int lane = __builtin_ctz(m | 1u << 31) + 1, k = 1; lane < 32; lane++) {
                if (!(m >> lane & 1)) continue;
                int row_break = i % 2 && lane >= 16 && !(m & ((1u << lane) - 1) & 0xffff0000u);
                put(&s, " %d", row_break ? 1040 : i % 2 ? 16 : k % 3 ? 16 : -48);
                k++;
              }
              put(&s, "\n");
              break;
            case 4: /* generic into the shared window, and into the local one */
              put(&s, "%d %04x %08x 1 R13 LD.E 1 R2 4 1 0x%llx 4\n", line, pc, m,
                  (unsigned long long)((i & 8 ? 0x7e0000000000ull : 0x7f0000000000ull) +
                                       64ull * i));
              break;
            case 5:
              put(&s, "%d %04x %08x 0 BAR.SYNC 0 0 0x1\n", line, pc, m);
              break;
            default:
              put(&s, "%d %04x %08x 1 R%d ATOMG.E.ADD 2 R2 R5 4 1 0x%llx 0\n", line, pc, m,
                  20 + i % 3, (unsigned long long)base);
              break;
          }
        }
      }
      put(&s, "#END_TB\n");
    }
  return s.p;
}

/* A trace folder and, apart from it, the folder its cache goes to. */
typedef struct fixture {
  char dir[256], cdir[256];
  char trace[320];
  char cache[TC_PATH_MAX + 320];
  size_t head; /* the cache's header, path and info record */
  trace_cache_opts on, rebuild;
} fixture;

static void fixture_make(fixture *f) {
  assert_int_equal(tu_mkdtemp(f->dir, sizeof f->dir), 0);
  assert_int_equal(tu_mkdtemp(f->cdir, sizeof f->cdir), 0);
  char *text = gen_kernel();
  assert_int_equal(tu_write(f->dir, "kernel-1.traceg", text), 0);
  free(text);
  snprintf(f->trace, sizeof f->trace, "%s/kernel-1.traceg", f->dir);
  f->on = (trace_cache_opts){TRACE_CACHE_ON, f->cdir, 0};
  f->rebuild = (trace_cache_opts){TRACE_CACHE_REBUILD, f->cdir, 0};
  tc_place pl;
  assert_int_equal(tc_place_of(f->trace, &f->on, tc_reader_id(), &pl), 0);
  snprintf(f->cache, sizeof f->cache, "%s", pl.path);
  f->head = TC_HEADER_BYTES + strlen(pl.source) + TC_INFO_BYTES;
}

static void fixture_free(fixture *f) {
  tu_rmtree(f->cdir);
  tu_rmtree(f->dir);
}

static int file_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}


/* Cold (builds), then warm (reads): both give the text's thread blocks. */
static void build_and_check(fixture *f) {
  long n;
  assert_int_equal(compare_streams(f->trace, &f->rebuild, &n), 0);
  assert_int_equal(n, 12);
  assert_true(file_exists(f->cache));
  assert_int_equal(compare_streams(f->trace, &f->on, &n), 1);
  assert_int_equal(n, 12);
}

static void test_generated_kernel_round_trip(void **state) {
  (void)state;
  fixture f;
  fixture_make(&f);
  build_and_check(&f);
  assert_int_equal(tu_count_files(f.cdir, ".partial"), 0);
  /* the cache is smaller than the text it stands for */
  struct stat st_text, st_cache;
  assert_int_equal(stat(f.trace, &st_text), 0);
  assert_int_equal(stat(f.cache, &st_cache), 0);
  assert_true(st_cache.st_size < st_text.st_size);
  fixture_free(&f);
}

/* The decoder keeps the last block's templates (tc_tmpl_memo): blocks 0-1 run code X, 2-3 code
 * Y (as many templates, other ones), 4 X again, 5 Y with one instruction more: each block as the
 * text gives it, whether its templates are the last block's bytes (1, 3), as many others (2,
 * 4) or more (5). */
static void test_blocks_sharing_templates(void **state) {
  (void)state;
  static const char *const code[] = {
      "0000 ffffffff 1 R1 IMAD.MOV.U32 1 R2 0\n0010 ffffffff 1 R3 LDG.E 1 R4 4 1 0x1000 4\n"
      "0020 ffffffff 0 EXIT 0 0\n",
      "0000 ffffffff 1 R5 FADD 2 R6 R7 0\n0010 ffffffff 0 STG.E 2 R4 R5 4 1 0x2000 4\n"
      "0020 ffffffff 0 EXIT 0 0\n",
      "0000 ffffffff 1 R5 FADD 2 R6 R7 0\n0010 ffffffff 0 STG.E 2 R4 R5 4 1 0x2000 4\n"
      "0018 ffffffff 1 R8 IADD3 3 R1 R2 R3 0\n0020 ffffffff 0 EXIT 0 0\n"};
  static const int code_of[] = {0, 0, 1, 1, 0, 2};
  sbuf t = {NULL, 0, 0};
  put(&t, "-kernel name = memo\n-kernel id = 1\n-grid dim = (6,1,1)\n-block dim = (64,1,1)\n"
          "-shmem = 0\n-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n"
          "-shmem base_addr = 0x7f0000000000\n-local mem base_addr = 0x7e0000000000\n"
          "-accelsim tracer version = 4\n\n");
  for (int b = 0; b < 6; b++) {
    put(&t, "#BEGIN_TB\nthread block = %d,0,0\n", b);
    for (int w = 0; w < 2; w++)
      put(&t, "warp = %d\ninsts = %d\n%s", w, code_of[b] == 2 ? 4 : 3, code[code_of[b]]);
    put(&t, "#END_TB\n");
  }
  fixture f;
  fixture_make(&f);
  assert_int_equal(tu_write(f.dir, "kernel-1.traceg", t.p), 0);
  free(t.p);
  long n;
  assert_int_equal(compare_streams(f.trace, &f.rebuild, &n), 0);
  assert_int_equal(compare_streams(f.trace, &f.on, &n), 1);
  assert_int_equal(n, 6);
  fixture_free(&f);
}

/* ---- invalidation and corruption ---- */

static void patch(const char *path, long offset, const void *bytes, size_t n) {
  int fd = open(path, O_WRONLY);
  assert_true(fd >= 0);
  assert_int_equal(pwrite(fd, bytes, n, offset), (ssize_t)n);
  close(fd);
}

static long file_size(const char *path) {
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  return (long)st.st_size;
}

/* After `damage`, opening with ON must not read the cache at all (header checks) or must fall
 * back halfway (block checks, mid == 1); either way the blocks are the text's, and afterwards
 * the cache is valid again. */
static void expect_rebuilt(fixture *f, int mid) {
  long n;
  assert_int_equal(compare_streams(f->trace, &f->on, &n), mid);
  assert_int_equal(n, 12);
  assert_int_equal(compare_streams(f->trace, &f->on, &n), 1);
  assert_int_equal(tu_count_files(f->cdir, ".partial"), 0);
}

static void test_stale_size_and_mtime(void **state) {
  (void)state;
  fixture f;
  fixture_make(&f);
  build_and_check(&f);
  /* mtime: the same bytes, touched a second later */
  struct stat st;
  assert_int_equal(stat(f.trace, &st), 0);
  struct timespec ts[2] = {st.st_atim, st.st_mtim};
  ts[1].tv_sec += 1;
  assert_int_equal(utimensat(AT_FDCWD, f.trace, ts, 0), 0);
  expect_rebuilt(&f, 0);
  /* size: a blank line appended (the text still parses to the same blocks), mtime put back */
  assert_int_equal(stat(f.trace, &st), 0);
  FILE *fp = fopen(f.trace, "ab");
  assert_non_null(fp);
  fputs("\n", fp);
  fclose(fp);
  struct timespec same[2] = {st.st_atim, st.st_mtim};
  assert_int_equal(utimensat(AT_FDCWD, f.trace, same, 0), 0);
  expect_rebuilt(&f, 0);
  fixture_free(&f);
}

static void test_truncated_cache(void **state) {
  (void)state;
  fixture f;
  fixture_make(&f);
  build_and_check(&f);
  assert_int_equal(truncate(f.cache, file_size(f.cache) / 2), 0);
  expect_rebuilt(&f, 0);
  assert_int_equal(truncate(f.cache, 10), 0); /* shorter than the header */
  expect_rebuilt(&f, 0);
  assert_int_equal(truncate(f.cache, 0), 0);
  expect_rebuilt(&f, 0);
  fixture_free(&f);
}

static void test_flipped_bytes(void **state) {
  (void)state;
  fixture f;
  fixture_make(&f);
  build_and_check(&f);
  /* Every byte position of the cache, one at a time (a sample: every 7th): a flip in the
   * header is caught on open, one in a block when that block is read. */
  long size = file_size(f.cache);
  FILE *fp = fopen(f.cache, "rb");
  assert_non_null(fp);
  uint8_t *orig = malloc((size_t)size);
  assert_non_null(orig);
  assert_int_equal(fread(orig, 1, (size_t)size, fp), (size_t)size);
  fclose(fp);
  int mid = 0, at_open = 0;
  for (long off = 0; off < size; off += 7) {
    uint8_t b = orig[off] ^ (uint8_t)(1u << (off % 8));
    patch(f.cache, off, &b, 1);
    long n;
    int started_from_cache = compare_streams(f.trace, &f.on, &n);
    assert_int_equal(n, 12);
    if (started_from_cache) mid++;
    else at_open++;
    /* rebuilt: valid again, and identical to what was there (the format is deterministic) */
    fp = fopen(f.cache, "rb");
    assert_non_null(fp);
    uint8_t *now = malloc((size_t)size);
    assert_non_null(now);
    assert_int_equal(fread(now, 1, (size_t)size, fp), (size_t)size);
    fclose(fp);
    assert_memory_equal(now, orig, (size_t)size);
    free(now);
  }
  assert_true(at_open > 0 && mid > 0);
  assert_true(at_open <= (long)f.head / 7 + 1);
  free(orig);
  fixture_free(&f);
}

static void test_other_version(void **state) {
  (void)state;
  fixture f;
  fixture_make(&f);
  build_and_check(&f);
  uint8_t v[4] = {TC_VERSION + 1, 0, 0, 0};
  patch(f.cache, 8, v, 4);
  expect_rebuilt(&f, 0);
  patch(f.cache, 0, "NOTCACHE", 8);
  expect_rebuilt(&f, 0);
  fixture_free(&f);
}

/* A run that stops before the end (an error elsewhere, -gpgpu_max_cycle) leaves nothing. */
static void test_early_close_leaves_nothing(void **state) {
  (void)state;
  fixture f;
  fixture_make(&f);
  rf_diag d;
  trace_kernel *k;
  assert_int_equal(trace_kernel_open_cached(f.trace, &f.on, &k, &d), 0);
  assert_int_equal(trace_kernel_reads_cache(k), 0);
  assert_int_equal(trace_kernel_writes_cache(k), 1);
  trace_tb tb;
  assert_int_equal(trace_kernel_next_tb(k, &tb, &d), 1);
  trace_tb_free(&tb);
  assert_int_equal(tu_count_files(f.cdir, ".partial"), 1);
  trace_kernel_close(k);
  assert_int_equal(tu_count_files(f.cdir, ".rfc"), 0);
  fixture_free(&f);
}

/* A text error halfway: the same error as without the cache, and no cache. */
static void test_bad_text_builds_no_cache(void **state) {
  (void)state;
  fixture f;
  fixture_make(&f);
  FILE *fp = fopen(f.trace, "ab");
  assert_non_null(fp);
  fputs("#BEGIN_TB\nthread block = 9,0,0\n", fp); /* outside the grid */
  fclose(fp);
  rf_diag d1, d2;
  trace_kernel *k;
  trace_tb tb;
  int r;
  assert_int_equal(trace_kernel_open(f.trace, &k, &d1), 0);
  while ((r = trace_kernel_next_tb(k, &tb, &d1)) > 0) trace_tb_free(&tb);
  assert_int_equal(r, -1);
  trace_kernel_close(k);
  assert_int_equal(trace_kernel_open_cached(f.trace, &f.on, &k, &d2), 0);
  while ((r = trace_kernel_next_tb(k, &tb, &d2)) > 0) trace_tb_free(&tb);
  assert_int_equal(r, -1);
  trace_kernel_close(k);
  assert_string_equal(d1.msg, d2.msg);
  assert_int_equal(tu_count_files(f.cdir, ".rfc"), 0);
  fixture_free(&f);
}

static void test_unwritable_cache_folder(void **state) {
  (void)state;
  fixture f;
  fixture_make(&f);
  /* a cache "folder" that is a regular file: nothing can be written there */
  char notdir[300];
  snprintf(notdir, sizeof notdir, "%s/plainfile", f.cdir);
  assert_int_equal(tu_write(f.cdir, "plainfile", "x"), 0);
  trace_cache_opts o = {TRACE_CACHE_ON, notdir, 0};
  long n;
  assert_int_equal(compare_streams(f.trace, &o, &n), 0);
  assert_int_equal(compare_streams(f.trace, &o, &n), 0);
  assert_int_equal(n, 12);
  /* a read-only cache folder (no write bit: read-only also to root, who could write) */
  assert_int_equal(chmod(f.cdir, 0555), 0);
  assert_int_equal(compare_streams(f.trace, &f.on, &n), 0);
  assert_int_equal(compare_streams(f.trace, &f.on, &n), 0);
  assert_int_equal(chmod(f.cdir, 0755), 0);
  assert_int_equal(tu_count_files(f.cdir, ""), 1); /* plainfile */
  /* a cache folder that does not exist yet is made, with its parents, private */
  char sub[300];
  snprintf(sub, sizeof sub, "%s/a/b", f.cdir);
  trace_cache_opts o2 = {TRACE_CACHE_ON, sub, 0};
  assert_int_equal(compare_streams(f.trace, &o2, &n), 0);
  assert_int_equal(compare_streams(f.trace, &o2, &n), 1);
  assert_int_equal(tu_count_files(sub, "kernel-1.traceg-"), 1);
  struct stat st;
  assert_int_equal(stat(sub, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0700);
  assert_int_equal(tu_count_files(f.dir, ""), 1); /* nothing beside the trace */
  fixture_free(&f);
}

/* ---- every generated workload and the real traces ---- */

static void streams_of_list(const char *list_path, const char *cache_dir) {
  char **k;
  int n = tu_list_kernels(list_path, &k);
  trace_cache_opts cold = {TRACE_CACHE_REBUILD, cache_dir, 0};
  trace_cache_opts warm = {TRACE_CACHE_ON, cache_dir, 0};
  for (int i = 0; i < n; i++) {
    assert_int_equal(compare_streams(k[i], &cold, NULL), 0);
    assert_int_equal(compare_streams(k[i], &warm, NULL), 1);
    free(k[i]);
  }
  free(k);
}

static void test_every_workload_streams(void **state) {
  (void)state;
  char dir[256];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  DIR *dd = opendir("build/traces");
  if (!dd) fail_msg("build/traces missing (run make workloads)");
  struct dirent *e;
  int lists = 0;
  while ((e = readdir(dd))) {
    /* matrixmul_x240 is the benchmark's tiling of the real trace checked below */
    if (e->d_name[0] == '.' || !strcmp(e->d_name, "matrixmul_x240")) continue;
    char list[512];
    snprintf(list, sizeof list, "build/traces/%s/kernelslist.g", e->d_name);
    if (!file_exists(list)) continue;
    streams_of_list(list, dir);
    lists++;
  }
  closedir(dd);
  assert_true(lists >= 4);
  tu_rmtree(dir);
}

static void test_real_trace_streams(void **state) {
  (void)state;
  static const char *const names[] = {"matrixmul_sm61/kernelslist.g",
                                      "vectoradd_sm61/kernelslist.g"};
  char buf[512], dir[256];
  int found = 0;
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (tu_shared_trace(names[i], buf, sizeof buf)) {
      streams_of_list(buf, dir);
      found++;
    }
  tu_rmtree(dir);
  if (!found) skip();
}

/* ---- bin/rfsim: stats off / cold / warm ---- */

static void rfsim(const char *list, const char *opts, const char *out) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "bin/rfsim -trace %s -config configs/gtx480.config %s > %s 2> %s.err", list, opts,
           out, out);
  int st = system(cmd);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    char err[600];
    snprintf(err, sizeof err, "%s.err", out);
    char *e = tu_slurp(err, NULL);
    fail_msg("%s: exit %d: %s", cmd, WEXITSTATUS(st), e);
  }
}

static ino_t inode_of(const char *path) {
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  return st.st_ino;
}

/* Where the cache of `kernel` is in `caches`. */
static ino_t cache_inode(const char *kernel, const char *caches) {
  trace_cache_opts o = {TRACE_CACHE_ON, caches, 0};
  tc_place pl;
  assert_int_equal(tc_place_of(kernel, &o, tc_reader_id(), &pl), 0);
  return inode_of(pl.path);
}

/* bin/rfsim's stats on `list` with the cache off, cold and warm; returns the stats (off). */
static char *stats_identical(const char *list) {
  char dir[256], caches[300], off[300], cold[300], warm[300], opts[400];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  snprintf(caches, sizeof caches, "%s/caches", dir);
  snprintf(off, sizeof off, "%s/off.txt", dir);
  snprintf(cold, sizeof cold, "%s/cold.txt", dir);
  snprintf(warm, sizeof warm, "%s/warm.txt", dir);
  snprintf(opts, sizeof opts, "-trace_cache off -trace_cache_dir %s", caches);
  rfsim(list, opts, off);
  assert_false(file_exists(caches)); /* off writes nothing, not even the folder */
  snprintf(opts, sizeof opts, "-trace_cache rebuild -trace_cache_dir %s", caches);
  rfsim(list, opts, cold);
  char **k;
  int nk = tu_list_kernels(list, &k);
  assert_int_equal(tu_count_files(caches, ".rfc"), nk);
  /* the cache files of this list, to see that the warm run reads and does not rewrite them */
  ino_t ino[16];
  for (int i = 0; i < nk && i < 16; i++) ino[i] = cache_inode(k[i], caches);
  snprintf(opts, sizeof opts, "-trace_cache_dir %s", caches); /* default: on */
  rfsim(list, opts, warm);
  for (int i = 0; i < nk; i++) {
    if (i < 16) assert_true(cache_inode(k[i], caches) == ino[i]);
    free(k[i]);
  }
  free(k);
  char *a = tu_slurp(off, NULL), *b = tu_slurp(cold, NULL), *c = tu_slurp(warm, NULL);
  assert_true(strlen(a) > 1000);
  assert_string_equal(a, b);
  assert_string_equal(a, c);
  free(b);
  free(c);
  tu_rmtree(caches);
  tu_rmtree(dir);
  return a;
}

/* ... and an xz copy of `list` gives them too, through a cache built from the archives */
static void stats_identical_xz(const char *list) {
  char dir[256], xz_list[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  tu_xz_folder(list, dir, xz_list, sizeof xz_list);
  char *text = stats_identical(list), *xz = stats_identical(xz_list);
  assert_string_equal(text, xz);
  free(text);
  free(xz);
  tu_rmtree(dir);
}
/* One workload of each generated kind (the smallest), and the real traces; the real traces and
 * the three kernels of finereg_fd also as xz copies. */
static void test_stats_identical_off_cold_warm(void **state) {
  (void)state;
  static const char *const lists[] = {
      "build/traces/regshare_gaussian_fan2/kernelslist.g",
      "build/traces/finereg_fd/kernelslist.g", /* three kernels */
      "build/traces/spshare_conv1/kernelslist.g", "build/traces/warpman_rs/kernelslist.g"};
  for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
    if (i == 1) stats_identical_xz(lists[i]);
    else free(stats_identical(lists[i]));
  char buf[512];
  if (tu_shared_trace("matrixmul_sm61/kernelslist.g", buf, sizeof buf)) stats_identical_xz(buf);
  if (tu_shared_trace("vectoradd_sm61/kernelslist.g", buf, sizeof buf)) stats_identical_xz(buf);
}

int main(void) {
  tu_private_cache();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_generated_kernel_round_trip),
      cmocka_unit_test(test_blocks_sharing_templates),
      cmocka_unit_test(test_stale_size_and_mtime),
      cmocka_unit_test(test_truncated_cache),
      cmocka_unit_test(test_flipped_bytes),
      cmocka_unit_test(test_other_version),
      cmocka_unit_test(test_early_close_leaves_nothing),
      cmocka_unit_test(test_bad_text_builds_no_cache),
      cmocka_unit_test(test_unwritable_cache_folder),
      cmocka_unit_test(test_every_workload_streams),
      cmocka_unit_test(test_real_trace_streams),
      cmocka_unit_test(test_stats_identical_off_cold_warm),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
