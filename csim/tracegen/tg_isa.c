#include "tg_isa.h"

#include <stddef.h>

/* Weights follow what compiled CUDA kernels of the papers' benchmarks look like: XMAD/IADD and
 * FFMA dominate their classes; compares appear once per few instructions. */
static const tg_alu_op int_ops[] = {
    {"IADD", 2, 1, 6},      {"XMAD", 2, 1, 4},         {"XMAD.MRG", 2, 1, 2},
    {"XMAD.PSL.CBCC", 3, 1, 2}, {"ISCADD", 2, 1, 3},   {"SHL", 1, 1, 3},
    {"SHR", 1, 1, 2},       {"LOP.AND", 2, 1, 2},      {"LOP3.LUT", 3, 1, 2},
    {"IADD3", 3, 1, 2},     {"IMNMX", 2, 1, 1},        {"ISETP.GE.AND", 2, 0, 2},
};
static const tg_alu_op fp_ops[] = {
    {"FFMA", 3, 1, 8}, {"FADD", 2, 1, 4}, {"FMUL", 2, 1, 4},
    {"FMNMX", 2, 1, 1}, {"FSETP.GT.AND", 2, 0, 1},
};
static const tg_alu_op sfu_ops[] = {
    {"MUFU.EX2", 1, 1, 3}, {"MUFU.RCP", 1, 1, 3}, {"MUFU.RSQ", 1, 1, 2},
    {"MUFU.LG2", 1, 1, 2}, {"MUFU.SIN", 1, 1, 1}, {"MUFU.COS", 1, 1, 1},
};
static const tg_alu_op dp_ops[] = {
    {"DFMA", 3, 1, 4}, {"DADD", 2, 1, 2}, {"DMUL", 2, 1, 2},
};

const tg_alu_op *tg_isa_pick(tg_class c, tg_rng *r) {
  const tg_alu_op *t;
  size_t n;
  switch (c) {
  case TG_FP: t = fp_ops; n = sizeof fp_ops / sizeof fp_ops[0]; break;
  case TG_SFU: t = sfu_ops; n = sizeof sfu_ops / sizeof sfu_ops[0]; break;
  case TG_DP: t = dp_ops; n = sizeof dp_ops / sizeof dp_ops[0]; break;
  default: t = int_ops; n = sizeof int_ops / sizeof int_ops[0]; break;
  }
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++) total += (uint64_t)t[i].weight;
  uint64_t x = tg_rng_below(r, total);
  for (size_t i = 0; i < n; i++) {
    if (x < (uint64_t)t[i].weight) return &t[i];
    x -= (uint64_t)t[i].weight;
  }
  return &t[n - 1];
}

const char *tg_isa_mem_op(tg_space space, int is_store, int width) {
  /* [space][store][width 4, 8, 16] */
  static const char *const names[3][2][3] = {
      {{"LDG.E", "LDG.E.64", "LDG.E.128"}, {"STG.E", "STG.E.64", "STG.E.128"}},
      {{"LDS.U.32", "LDS.U.64", "LDS.U.128"}, {"STS", "STS.64", "STS.128"}},
      {{"LDL", "LDL.64", "LDL.128"}, {"STL", "STL.64", "STL.128"}},
  };
  int w = width == 16 ? 2 : width == 8 ? 1 : 0;
  return names[space <= TG_LOCAL ? space : 0][is_store ? 1 : 0][w];
}
