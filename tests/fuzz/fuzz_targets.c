#include "fuzz_targets.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../csim/config/config.h"
#include "../../csim/trace/trace.h"
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

const fuzz_target fuzz_targets[] = {
    {"kernel_trace", "kernel-1.traceg", fuzz_kernel_trace},
    {"kernelslist", "kernelslist.g", fuzz_kernelslist},
    {"config", "gpgpusim.config", fuzz_config},
    {"tracegen_spec", "fuzz.spec", fuzz_tracegen_spec},
};
const int fuzz_ntargets = (int)(sizeof fuzz_targets / sizeof fuzz_targets[0]);

const fuzz_target *fuzz_target_find(const char *name) {
  for (int i = 0; i < fuzz_ntargets; i++)
    if (!strcmp(fuzz_targets[i].name, name)) return &fuzz_targets[i];
  return NULL;
}
