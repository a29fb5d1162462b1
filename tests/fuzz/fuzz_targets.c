#include "fuzz_targets.h"

#include <errno.h>
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

/* The parsers read files by path (as users give them), so each input is written to a file in
 * a folder of this process's own. */
static int write_input(const char *name, const uint8_t *data, size_t size, char *path,
                       size_t n, rf_diag *d) {
  const char *tmp = getenv("TMPDIR");
  char dir[256];
  snprintf(dir, sizeof dir, "%s/rfsim-fuzz-%ld", tmp && *tmp ? tmp : "/tmp", (long)getpid());
  if (mkdir(dir, 0700) < 0 && errno != EEXIST) return rf_fail(d, "%s: cannot create", dir);
  snprintf(path, n, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f) return rf_fail(d, "%s: cannot create", path);
  int ok = fwrite(data, 1, size, f) == size;
  if (fclose(f) != 0 || !ok) return rf_fail(d, "%s: cannot write", path);
  return 0;
}

static int fuzz_kernel_trace(const uint8_t *data, size_t size, rf_diag *d) {
  char path[512];
  if (write_input("kernel-1.traceg", data, size, path, sizeof path, d) < 0) return -1;
  trace_kernel *k;
  if (trace_kernel_open(path, &k, d) < 0) return 1;
  trace_tb tb;
  int r;
  while ((r = trace_kernel_next_tb(k, &tb, d)) > 0) trace_tb_free(&tb);
  trace_kernel_close(k);
  return r < 0;
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
  if (config_load_file(&c, path, &notes, d) < 0 || config_validate(&c, d) < 0) return 1;
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
 * The input is a cache file for a fixed small kernel trace. Two properties: its first block's
 * payload, given straight to the decoder (checksums bypassed), is decoded or refused without a
 * crash; and the whole file, its header made to match the trace (size, mtime, length, header
 * checksum: what a stale-looking garbage file would otherwise be refused for on open), placed
 * next to the trace, is read without a crash or an error and gives as many thread blocks as
 * the text. (Not that it gives the text's blocks: the checksums are not cryptographic, and
 * libFuzzer, which sees the comparisons, can forge a block that decodes to something valid but
 * different. With a block it does not forge, the reader gives the text's blocks; this is what
 * tests/test_trace_cache.c checks, every 7th byte of a cache flipped.) */
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

static void st_le64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static int fuzz_trace_cache(const uint8_t *data, size_t size, rf_diag *d) {
  char trace[512], cache[600];
  if (write_input("kernel-1.traceg", (const uint8_t *)cache_fuzz_trace,
                  sizeof cache_fuzz_trace - 1, trace, sizeof trace, d) < 0)
    return -1;
  trace_kernel *text;
  if (trace_kernel_open(trace, &text, d) < 0) return -1;
  trace_kernel_info info = *trace_kernel_get_info(text);
  /* 1: the decoder on the first block's payload */
  const size_t first = TC_HEADER_BYTES + TC_INFO_BYTES + TC_BLOCK_HEADER_BYTES;
  if (size > first) {
    const uint8_t *bh = data + first - TC_BLOCK_HEADER_BYTES;
    size_t len = (size_t)bh[4] | (size_t)bh[5] << 8 | (size_t)bh[6] << 16 | (size_t)bh[7] << 24;
    if (len > size - first) len = size - first;
    trace_tb tb;
    rf_diag ignore;
    if (tc_decode_tb(data + first, len, &info, &tb, &ignore) == 0) trace_tb_free(&tb);
  }
  /* 2: the whole file as the trace's cache */
  uint8_t *file = malloc(size ? size : 1);
  tc_source src;
  if (!file || tc_source_of(trace, &src, d) < 0) {
    free(file);
    trace_kernel_close(text);
    return file ? -1 : rf_fail(d, "out of memory");
  }
  memcpy(file, data, size);
  if (size >= TC_HEADER_BYTES + TC_INFO_BYTES) {
    st_le64(file + 16, src.size);
    st_le64(file + 24, (uint64_t)src.mtime_s);
    st_le64(file + 32, (uint64_t)src.mtime_ns);
    st_le64(file + 40, size);
    st_le64(file + 56, tc_checksum(file, 56) ^
                           tc_checksum(file + TC_HEADER_BYTES, TC_INFO_BYTES));
  }
  snprintf(cache, sizeof cache, "%s%s", trace, TC_SUFFIX);
  FILE *f = fopen(cache, "wb");
  int ok = f && fwrite(file, 1, size, f) == size;
  if (f && fclose(f) != 0) ok = 0;
  free(file);
  if (!ok) {
    trace_kernel_close(text);
    return rf_fail(d, "%s: cannot write", cache);
  }
  /* writing the cache must not have changed the trace's identity: sleep-free, same second */
  trace_cache_opts o = {TRACE_CACHE_ON, NULL};
  trace_kernel *cached;
  if (trace_kernel_open_cached(trace, &o, &cached, d) < 0) {
    trace_kernel_close(text);
    return -1;
  }
  int rc = 0;
  long na = 0, nb = 0;
  trace_tb tb;
  int r;
  while ((r = trace_kernel_next_tb(text, &tb, d)) > 0) {
    trace_tb_free(&tb);
    na++;
  }
  if (r == 0)
    while ((r = trace_kernel_next_tb(cached, &tb, d)) > 0) {
      trace_tb_free(&tb);
      nb++;
    }
  if (r < 0) rc = -1;
  else if (na != nb)
    rc = rf_fail(d, "%s: the cache gave %ld thread blocks, the text %ld", cache, nb, na);
  trace_kernel_close(cached);
  trace_kernel_close(text);
  return rc;
}

const fuzz_target fuzz_targets[] = {
    {"kernel_trace", "kernel-1.traceg", fuzz_kernel_trace},
    {"kernelslist", "kernelslist.g", fuzz_kernelslist},
    {"config", "gpgpusim.config", fuzz_config},
    {"tracegen_spec", "fuzz.spec", fuzz_tracegen_spec},
    {"trace_cache", "kernel-1.traceg.rfc", fuzz_trace_cache},
    {"sass_listing", "kernel.sass", fuzz_sass_listing},
    {"cubin", "kernel.cubin", fuzz_cubin},
};
const int fuzz_ntargets = (int)(sizeof fuzz_targets / sizeof fuzz_targets[0]);

const fuzz_target *fuzz_target_find(const char *name) {
  for (int i = 0; i < fuzz_ntargets; i++)
    if (!strcmp(fuzz_targets[i].name, name)) return &fuzz_targets[i];
  return NULL;
}
