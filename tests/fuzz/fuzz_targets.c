#define _XOPEN_SOURCE 700 /* nftw */
#include "fuzz_targets.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../csim/config/config.h"
#include "../../csim/trace/trace.h"
#include "../../csim/trace/trace_cache.h"
#include "../../csim/tracegen/tg_gen.h"
#include "../../csim/tracegen/tg_spec.h"
#include "../../csim/tracegen/tg_stream.h"

static char made_dir[256]; /* the folder below, once made: removed at exit */

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  (void)st, (void)type, (void)ftw;
  remove(path);
  return 0;
}

static void remove_made_dir(void) { nftw(made_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

/* The parsers read files by path (as users give them), so each input is written to a file in
 * a folder of this process's own, removed when the process exits. */
static int input_dir(char *dir, size_t n, rf_diag *d) {
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, n, "%s/rfsim-fuzz-%ld", tmp && *tmp ? tmp : "/tmp", (long)getpid());
  if (mkdir(dir, 0700) < 0 && errno != EEXIST) return rf_fail(d, "%s: cannot create", dir);
  if (!made_dir[0] && snprintf(made_dir, sizeof made_dir, "%s", dir) < (int)sizeof made_dir)
    atexit(remove_made_dir);
  return 0;
}

static int write_input(const char *name, const uint8_t *data, size_t size, char *path,
                       size_t n, rf_diag *d) {
  char dir[256];
  if (input_dir(dir, sizeof dir, d) < 0) return -1;
  snprintf(path, n, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f) return rf_fail(d, "%s: cannot create", path);
  int ok = fwrite(data, 1, size, f) == size;
  if (fclose(f) != 0 || !ok) return rf_fail(d, "%s: cannot write", path);
  return 0;
}

/* Counts the thread blocks of k (closing it): the count, or -1 with d. */
static long count_tbs(trace_kernel *k, rf_diag *d) {
  long n = 0;
  trace_tb tb;
  int r;
  while ((r = trace_kernel_next_tb(k, &tb, d)) > 0) {
    trace_tb_free(&tb);
    n++;
  }
  trace_kernel_close(k);
  return r < 0 ? -1 : n;
}

/* Reads a whole kernel file: its thread-block count, or -1 with d. */
static long read_kernel(const char *path, rf_diag *d) {
  trace_kernel *k;
  if (trace_kernel_open(path, &k, d) < 0) return -1;
  return count_tbs(k, d);
}

static int fuzz_kernel_trace(const uint8_t *data, size_t size, rf_diag *d) {
  char path[512];
  if (write_input("kernel-1.traceg", data, size, path, sizeof path, d) < 0) return -1;
  return read_kernel(path, d) < 0;
}

static int fuzz_kernelslist(const uint8_t *data, size_t size, rf_diag *d) {
  char path[512];
  if (write_input("kernelslist.g", data, size, path, sizeof path, d) < 0) return -1;
  trace_list *l;
  if (trace_list_read(path, &l, d) < 0) return 1;
  trace_list_free(l);
  return 0;
}

static int fuzz_config(const uint8_t *data, size_t size, rf_diag *d) {
  char path[512];
  if (write_input("gpgpusim.config", data, size, path, sizeof path, d) < 0) return -1;
  gpu_config c;
  config_notes notes;
  config_notes_init(&notes, NULL);
  config_defaults(&c);
  if (config_load_file(&c, path, &notes, d) < 0) return 1;
  /* A combination the model cannot run is named by its option, not a line (the options of a
   * run may come from several files and the command line); with one file, that file. */
  rf_diag v;
  if (config_validate(&c, &v) < 0) {
    rf_fail(d, "%s: %s", path, v.msg);
    return 1;
  }
  return 0;
}

/* The spec parser takes text; a spec that parses is also planned (the code and regions of
 * every kernel), which is where sizes from the spec meet arithmetic. */
static int fuzz_tracegen_spec(const uint8_t *data, size_t size, rf_diag *d) {
  char *text = malloc(size + 1);
  if (!text) return rf_fail(d, "out of memory");
  memcpy(text, data, size);
  text[size] = '\0';
  tg_spec *s;
  int rc = tg_spec_parse("fuzz.spec", text, &s, d) < 0;
  free(text);
  if (rc) return 1;
  tg_plan *plans;
  rc = tg_plans_init(s, &plans, d) < 0;
  if (!rc) tg_plans_free(plans, s->nkernels);
  tg_spec_free(s);
  return rc;
}

/* ---- the binary trace cache ----
 * The input is a cache file's body (the kernel info record and the blocks, what follows the
 * header and the path) for a fixed small kernel trace. Two properties: its first block's
 * payload, given straight to the decoder (checksums bypassed), is decoded or refused without a
 * crash; and the whole body, behind a header made to match the trace (its identity, path,
 * length and checksum: what a garbage file would otherwise be refused for on open), placed
 * where the trace's cache goes, is read without a crash or an error and gives as many thread
 * blocks as the text. (Not that it gives the text's blocks: the checksums are not
 * cryptographic, and libFuzzer, which sees the comparisons, can forge a block that decodes to
 * something valid but different. With a block it does not forge, the reader gives the text's
 * blocks; this is what tests/test_trace_cache.c checks, every 7th byte of a cache flipped.) */
static const char cache_fuzz_trace[] =
    "-kernel name = fuzzed\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (40,1,1)\n"
    "-shmem = 0\n-nregs = 16\n-shmem base_addr = 0x7f0000000000\n"
    "-local mem base_addr = 0x7e0000000000\n-accelsim tracer version = 4\n"
    "-enable lineinfo = 0\n\n"
    "#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 3\n"
    "0000 ffffffff 1 R1 IADD 2 R2 R3 0\n"
    "0010 0000ffff 1 R4 LDG.E 1 R2 4 1 0x7fb000001000 4\n"
    "0020 ffffffff 0 STG.E 2 R2 R4 4 2 0x7fb000002000 8 -4 12 0 0 4 4 4 4 4 4 4 4 4 4 4 4 4 "
    "4 4 4 4 4 4 4 4 4 4 4 4 4\n"
    "warp = 1\ninsts = 1\n0000 000000ff 1 R1 IADD 2 R2 R3 0\n#END_TB\n"
    "#BEGIN_TB\nthread block = 0,0,0\nwarp = 1\ninsts = 1\n"
    "0000 ffffffff 0 EXIT 0 0\nwarp = 0\ninsts = 0\n#END_TB\n";


static int fuzz_trace_cache(const uint8_t *data, size_t size, rf_diag *d) {
  char trace[512], cdir[600];
  if (write_input("kernel-1.traceg", (const uint8_t *)cache_fuzz_trace,
                  sizeof cache_fuzz_trace - 1, trace, sizeof trace, d) < 0 ||
      input_dir(cdir, sizeof cdir - 8, d) < 0)
    return -1;
  strcat(cdir, "/caches");
  trace_kernel *text;
  if (trace_kernel_open(trace, &text, d) < 0) return -1;
  trace_kernel_info info = *trace_kernel_get_info(text);
  /* 1: the decoder on the first block's payload */
  const size_t first = TC_INFO_BYTES + TC_BLOCK_HEADER_BYTES;
  if (size > first) {
    const uint8_t *bh = data + first - TC_BLOCK_HEADER_BYTES;
    size_t len = tc_ld32(bh + 4);
    if (len > size - first) len = size - first;
    trace_tb tb;
    rf_diag ignore;
    trace_op_pool *ops = trace_op_pool_new(&ignore);
    tc_tmpl_memo memo = {0};
    /* (the second time its templates come from the memo, if the first took them) */
    for (int pack = 0; ops && pack < 2; pack++)
      if (tc_decode_tb(data + first, len, &info, pack, ops, &memo, &tb, &ignore) == 0)
        trace_tb_free(&tb);
    tc_tmpl_memo_free(&memo);
    trace_op_pool_release(ops);
  }
  /* 2: the body as the trace's cache, behind a header that matches the trace */
  trace_cache_opts o = {TRACE_CACHE_ON, cdir, 0};
  tc_place pl;
  tc_source src;
  int fd = open(trace, O_RDONLY);
  if (fd < 0 || tc_place_of(trace, &o, tc_reader_id(), &pl) < 0 || tc_source_of_fd(fd, trace, &src, d) < 0 ||
      tc_make_folder(cdir) < 0) {
    if (fd >= 0) close(fd);
    trace_kernel_close(text);
    return rf_fail(d, "%s: cannot prepare its cache", trace);
  }
  close(fd);
  uint8_t rec[TC_INFO_BYTES] = {0}, head[TC_HEADER_BYTES + TC_PATH_MAX];
  memcpy(rec, data, size < sizeof rec ? size : sizeof rec);
  size_t hn = tc_header_make(head, sizeof head, &src, pl.source, rec, size, (uint64_t)info.num_tbs);
  FILE *f = fopen(pl.path, "wb");
  int ok = f && hn && fwrite(head, 1, hn, f) == hn && fwrite(data, 1, size, f) == size;
  if (f && fclose(f) != 0) ok = 0;
  if (!ok) {
    trace_kernel_close(text);
    return rf_fail(d, "%s: cannot write", pl.path);
  }
  trace_kernel *cached;
  if (trace_kernel_open_cached(trace, &o, &cached, d) < 0) {
    trace_kernel_close(text);
    return -1;
  }
  long na = count_tbs(text, d), nb = na < 0 ? -1 : count_tbs(cached, d);
  if (na < 0 || nb < 0) {
    if (na < 0) trace_kernel_close(cached);
    return -1;
  }
  if (na != nb)
    return rf_fail(d, "%s: the cache gave %ld thread blocks, the text %ld", pl.path, nb, na);
  return 0;
}

/* ---- xz-compressed kernel traces ----
 * An input that begins with the xz magic is an archive: written as kernel-1.traceg.xz and read
 * to its end, it is accepted or refused with a message (a corrupt or truncated archive, or the
 * text inside it). Any other input is text, and the property is differential: compressed here
 * with the trace writer's stream and read as kernel-1.traceg.xz, it must give what the same
 * bytes give read as kernel-1.traceg: as many thread blocks, or the same message at the same
 * line, so that the decoder's output, cut wherever liblzma cuts it, reads as the text does. */
static const uint8_t xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};


static int fuzz_xz_trace(const uint8_t *data, size_t size, rf_diag *d) {
  char path[520], text_path[512];
  if (size >= sizeof xz_magic && !memcmp(data, xz_magic, sizeof xz_magic)) {
    if (write_input("kernel-1.traceg.xz", data, size, path, sizeof path, d) < 0) return -1;
    return read_kernel(path, d) < 0;
  }
  if (write_input("kernel-1.traceg", data, size, text_path, sizeof text_path, d) < 0) return -1;
  snprintf(path, sizeof path, "%s.xz", text_path);
  rf_diag w;
  tg_stream *s = tg_stream_open(path, TG_STREAM_XZ, &w);
  if (!s || tg_stream_write(s, data, size) < 0 || tg_stream_close(s, &w) < 0)
    return rf_fail(d, "%s", w.msg);
  rf_diag dt = {{0}, 0};
  long nt = read_kernel(text_path, &dt), nx = read_kernel(path, d);
  if (nt != nx)
    return rf_fail(d, "%s: %ld thread blocks from the archive, %ld from the text (%s)", path, nx,
                   nt, nt < 0 ? dt.msg : d->msg);
  if (nt >= 0) return 0;
  /* the same message, but for the name: "<text_path>.xz:..." against "<text_path>:..." */
  size_t n = strlen(text_path);
  if (strncmp(d->msg, path, n + 3) || strcmp(d->msg + n + 3, dt.msg + n))
    return rf_fail(d, "the archive and the text read differently: '%s' against '%s'", d->msg,
                   dt.msg);
  return 1;
}

const fuzz_target fuzz_targets[] = {
    {"kernel_trace", "kernel-1.traceg", fuzz_kernel_trace},
    {"kernelslist", "kernelslist.g", fuzz_kernelslist},
    {"config", "gpgpusim.config", fuzz_config},
    {"tracegen_spec", "fuzz.spec", fuzz_tracegen_spec},
    {"trace_cache", "kernel-1.traceg.rfc", fuzz_trace_cache},
    {"sass_listing", "kernel.sass", fuzz_sass_listing},
    {"cubin", "kernel.cubin", fuzz_cubin},
    {"xz_trace", "kernel-1.traceg", fuzz_xz_trace},
};
const int fuzz_ntargets = (int)(sizeof fuzz_targets / sizeof fuzz_targets[0]);

const fuzz_target *fuzz_target_find(const char *name) {
  for (int i = 0; i < fuzz_ntargets; i++)
    if (!strcmp(fuzz_targets[i].name, name)) return &fuzz_targets[i];
  return NULL;
}
