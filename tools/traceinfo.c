/* traceinfo [--no-tbs] KERNELSLIST: what a trace holds, kernel by kernel, read with rfsim's
 * streaming reader: shape and resources, instruction counts, opcode mix by op_kind and unit, a
 * histogram of per-warp instruction counts, and each block's warp-level divergence with the
 * WarpMan paper's RTRU (computed on instruction counts instead of cycles; rtru_mean is the
 * arithmetic mean over blocks, since the paper's geometric mean is 0 whenever one block has no
 * divergence). Lines are `key = value` so scripts can grep them. */
#include <stdio.h>
#include <string.h>

#include "../csim/common/checked.h"
#include "../csim/common/diag.h"
#include "../csim/trace/trace.h"
#include "../csim/tracegen/tg_info.h"

static double pct(uint64_t part, uint64_t whole) {
  return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_kernel(const trace_kernel_info *in, const char *path, const tg_info *s,
                         int show_tbs) {
  printf("\nkernel %d: %s (%s)\n", in->id, in->name, path);
  printf("  grid = (%d,%d,%d)\n  block = (%d,%d,%d)\n", in->grid[0], in->grid[1], in->grid[2],
         in->block[0], in->block[1], in->block[2]);
  printf("  threads_per_tb = %d\n  warps_per_tb = %d\n", in->threads_per_tb, in->warps_per_tb);
  printf("  nregs = %d\n  shmem = %d\n  tracer_version = %d\n", in->nregs, in->shmem,
         in->tracer_version);
  printf("  tbs = %ld\n  warps = %ld\n  warp_insts = %llu\n  thread_insts = %llu\n", s->tbs,
         s->warps, (unsigned long long)s->warp_insts, (unsigned long long)s->thread_insts);
  printf("  mem_insts = %llu\n  barriers = %llu\n", (unsigned long long)s->mem_insts,
         (unsigned long long)s->barriers);
  for (int k = 0; k < OPK_COUNT; k++)
    if (s->by_kind[k])
      printf("  kind_%s = %llu (%.2f%%)\n", trace_op_kind_name((op_kind)k),
             (unsigned long long)s->by_kind[k], pct(s->by_kind[k], s->warp_insts));
  for (int u = 0; u < UNIT_COUNT; u++)
    if (s->by_unit[u])
      printf("  unit_%s = %llu (%.2f%%)\n", tg_unit_name(u), (unsigned long long)s->by_unit[u],
             pct(s->by_unit[u], s->warp_insts));
  tg_hist h;
  tg_info_histogram(s, &h);
  printf("  warp_insts_histogram (bin (a,b] = warps):\n");
  for (int b = 0; b < h.nbins; b++)
    printf("    (%llu,%llu] = %ld\n", (unsigned long long)h.lo[b], (unsigned long long)h.hi[b],
           h.count[b]);
  double rtru_sum = 0, rtru_max = 0;
  if (show_tbs) printf("  tb_divergence (warp insts min/max/mean, rtru = sum(max-n)/(N*max)):\n");
  for (long i = 0; i < s->tbs; i++) {
    const tg_tb_div *t = &s->tb[i];
    rtru_sum += t->rtru;
    if (t->rtru > rtru_max) rtru_max = t->rtru;
    if (show_tbs)
      printf("    tb %d,%d,%d: warps = %d min = %u max = %u mean = %.1f rtru = %.3f\n", t->id[0],
             t->id[1], t->id[2], t->nwarps, t->min, t->max, t->mean, t->rtru);
  }
  printf("  rtru_mean = %.3f\n  rtru_max = %.3f\n", s->tbs ? rtru_sum / (double)s->tbs : 0.0,
         rtru_max);
}

int main(int argc, char **argv) {
  int show_tbs = 1;
  const char *list_path = NULL;
  int bad_args = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--no-tbs")) show_tbs = 0;
    else if (!list_path && argv[i][0] != '-') list_path = argv[i];
    else bad_args = 1;
  }
  if (bad_args || !list_path) {
    fprintf(stderr, "usage: traceinfo [--no-tbs] KERNELSLIST\n");
    return 2;
  }
  rf_diag d = {{0}, 0};
  trace_list *l;
  if (trace_list_read(list_path, &l, &d) < 0) {
    fprintf(stderr, "traceinfo: %s\n", d.msg);
    return 1;
  }
  uint64_t memcpy_bytes = 0, warp_insts = 0, thread_insts = 0;
  int nmemcpy = 0, rc = 0, bytes_fit = 1;
  for (int c = 0; c < l->ncmds; c++)
    if (l->cmds[c].kind == TRACE_CMD_MEMCPY) {
      nmemcpy++;
      bytes_fit = bytes_fit && rf_add_u64(memcpy_bytes, l->cmds[c].bytes, &memcpy_bytes);
    }
  printf("kernelslist = %s\nkernels = %d\nmemcpy_htod = %d (%s%llu bytes)\n", list_path,
         l->nkernels, nmemcpy, bytes_fit ? "" : "more than ",
         (unsigned long long)(bytes_fit ? memcpy_bytes : UINT64_MAX));
  for (int c = 0; c < l->ncmds && rc == 0; c++) {
    if (l->cmds[c].kind != TRACE_CMD_KERNEL) continue;
    tg_info s;
    trace_kernel_info in;
    tg_info_init(&s);
    rc = tg_info_kernel(l->cmds[c].path, &in, &s, &d);
    if (rc == 0) {
      print_kernel(&in, l->cmds[c].path, &s, show_tbs);
      warp_insts += s.warp_insts;
      thread_insts += s.thread_insts;
    }
    tg_info_free(&s);
  }
  trace_list_free(l);
  if (rc < 0) {
    fflush(stdout);
    fprintf(stderr, "traceinfo: %s\n", d.msg);
    return 1;
  }
  printf("\ntotal_warp_insts = %llu\ntotal_thread_insts = %llu\n",
         (unsigned long long)warp_insts, (unsigned long long)thread_insts);
  return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
