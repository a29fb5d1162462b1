/* The static code of a generated kernel: prologue, one loop body, epilogue. Every warp runs the
 * same code (same PCs, opcodes and registers, like a real kernel); warps differ only in how many
 * loop iterations they run and in the addresses they touch. Loop slots carry a condition so that
 * barriers and tiled staging run only in iterations every warp of the block executes. */
#ifndef RFSIM_TG_PROGRAM_H
#define RFSIM_TG_PROGRAM_H

#include <stdint.h>

#include "../common/diag.h"
#include "tg_spec.h"

#define TG_RZ 255

typedef enum tg_cond {
  TG_ALWAYS = 0,  /* every iteration */
  TG_IF_COMMON,   /* iterations below the block's smallest iteration count */
  TG_IF_BARRIER   /* common iterations it with (it + 1) % barrier_every == 0 */
} tg_cond;

typedef enum tg_role {
  TG_ROLE_NONE = 0, /* not a memory instruction */
  TG_ROLE_PLAIN,    /* the access's own pattern (`sub` = window tap) */
  TG_ROLE_LDG_A,    /* tiled: global tile of A */
  TG_ROLE_LDG_B,
  TG_ROLE_STS_A,    /* tiled: staging into shared memory */
  TG_ROLE_STS_B,
  TG_ROLE_LDS_A,    /* tiled: row kk of the A tile (`sub` = kk) */
  TG_ROLE_LDS_B     /* tiled: column kk of the B tile */
} tg_role;

typedef struct tg_inst {
  uint32_t pc;
  char op[20];
  uint8_t ndst, nsrc;
  uint8_t dst;       /* physical register */
  uint8_t src[3];    /* physical registers, TG_RZ for RZ */
  uint8_t cond;      /* tg_cond */
  uint8_t role;      /* tg_role */
  int8_t acc;        /* index of the spec access, -1 if none */
  uint8_t sub;
  uint8_t width;     /* bytes per thread of a memory instruction, else 0 */
  uint8_t space;     /* tg_space of a memory instruction */
  uint8_t cls;       /* tg_class of a body ALU instruction, else TG_NCLASS */
} tg_inst;

typedef struct tg_program {
  tg_inst *insts;
  int n;
  int loop_begin, loop_end;  /* the loop body; before it the prologue, after it the epilogue */
  int n_always, n_common, n_barrier;
  uint8_t perm[256];         /* logical register -> physical register (the first-use order) */
} tg_program;

int tg_program_build(const tg_kernel_spec *k, uint64_t seed, tg_program *p, rf_diag *d);
void tg_program_free(tg_program *p);

/* Instructions a warp executes when it runs `iters` iterations and its block's smallest count
 * is `common` (common <= iters). */
long tg_program_warp_insts(const tg_program *p, long iters, long common, int barrier_every);
/* How many times slot s runs in such a warp. */
long tg_slot_count(const tg_program *p, int s, long iters, long common, int barrier_every);

/* Whether loop slot `s` runs in iteration `it`. */
int tg_slot_runs(const tg_inst *in, long it, long common, int barrier_every);

#endif
