/* tracegen SPEC OUTDIR: writes an Accel-Sim (tracer version 4) trace folder from a workload
 * spec (syntax: traces/README.md). The same spec always gives byte-identical files.
 * tracegen --xz SPEC OUTDIR: the same with xz-compressed kernel files (kernel-N.traceg.xz).
 * tracegen --count SPEC: prints each kernel's shape and instruction counts without writing. */
#include <stdio.h>
#include <string.h>

#include "../csim/common/diag.h"
#include "../csim/tracegen/tg_gen.h"
#include "../csim/tracegen/tg_spec.h"

static int count(const tg_spec *s, rf_diag *d) {
  tg_plan *plans;
  if (tg_plans_init(s, &plans, d) < 0) return -1;
  uint64_t total = 0;
  for (int i = 0; i < s->nkernels; i++) {
    const tg_kernel_spec *k = plans[i].k;
    tg_counts c;
    tg_plan_counts(&plans[i], &c);
    printf("kernel = %s grid = (%d,%d,%d) block = (%d,%d,%d) nregs = %d shmem = %d tbs = %ld "
           "warps = %ld warp_insts = %llu thread_insts = %llu warp_min = %llu warp_max = %llu\n",
           k->name, k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2],
           k->nregs, k->shmem, c.tbs, c.warps, (unsigned long long)c.warp_insts,
           (unsigned long long)c.thread_insts, (unsigned long long)c.min_warp,
           (unsigned long long)c.max_warp);
    total += c.warp_insts;
  }
  printf("total_warp_insts = %llu\n", (unsigned long long)total);
  tg_plans_free(plans, s->nkernels);
  return 0;
}

int main(int argc, char **argv) {
  int help = argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"));
  int counting = argc == 3 && !strcmp(argv[1], "--count");
  int xz = argc == 4 && !strcmp(argv[1], "--xz");
  if (help || (argc != 3 && !xz)) {
    fprintf(help ? stdout : stderr, /* asked for: to stdout, as other tools' help */
            "usage: tracegen SPEC OUTDIR       write OUTDIR/kernelslist.g, kernel-N.traceg\n"
            "       tracegen --xz SPEC OUTDIR  the same with kernel-N.traceg.xz (xz-compressed,\n"
            "                                  named so in kernelslist.g, as Accel-Sim's tracer\n"
            "                                  writes them with TRACE_FILE_COMPRESS=1)\n"
            "       tracegen --count SPEC      print the instruction counts only\n");
    return help ? 0 : 2;
  }
  const char *spec_path = argv[xz || counting ? 2 : 1], *outdir = argv[xz ? 3 : 2];
  rf_diag d = {{0}, 0};
  tg_spec *spec;
  if (tg_spec_load(spec_path, &spec, &d) < 0) {
    fprintf(stderr, "tracegen: %s\n", d.msg);
    return 1;
  }
  int rc = counting ? count(spec, &d)
                    : tg_generate(spec, outdir, xz ? TG_STREAM_XZ : TG_STREAM_PLAIN, &d);
  tg_spec_free(spec);
  if (rc < 0) {
    fprintf(stderr, "tracegen: %s\n", d.msg);
    return 1;
  }
  return 0;
}
