/* Workload spec for the trace generator: a line-oriented `key = value` file (syntax in
 * traces/README.md). Parsing is strict: every error reads "spec:line: expected X, found Y". */
#ifndef RFSIM_TG_SPEC_H
#define RFSIM_TG_SPEC_H

#include <stdint.h>

#include "../common/diag.h"

#define TG_MAX_ACCESSES 16
#define TG_NAME_MAX 128

typedef enum tg_space { TG_GLOBAL = 0, TG_SHARED, TG_LOCAL } tg_space;

typedef enum tg_pattern {
  TG_COALESCED = 0, /* consecutive threads, consecutive elements */
  TG_STRIDED,       /* consecutive threads `stride` bytes apart */
  TG_RANDOM,        /* uniform within `footprint` bytes, per lane */
  TG_WINDOW,        /* sliding-window convolution: `taps` loads of overlapping windows */
  TG_TILED,         /* tiled matrix multiply: LDG -> STS -> BAR -> LDS x tile -> BAR */
  TG_BROADCAST      /* every lane the same element (uniform/constant data), next per iteration */
} tg_pattern;

typedef enum tg_when { TG_AT_LOOP = 0, TG_AT_START, TG_AT_END } tg_when;

typedef enum tg_class { TG_INT = 0, TG_FP, TG_SFU, TG_DP, TG_NCLASS } tg_class;

typedef enum tg_imbalance {
  TG_UNIFORM = 0, /* every warp runs `iters` iterations */
  TG_RAY,         /* each warp runs a random count in [a, b] (input-dependent, RAY-like) */
  TG_ST           /* warps 0..a-1 of a TB run `iters`, the rest run b (code-dependent, ST) */
} tg_imbalance;

typedef enum tg_reg_order {
  TG_ASCENDING = 0, /* R0 is touched first, then R1, ... */
  TG_DESCENDING,    /* R(n-1) first */
  TG_INTERLEAVED,   /* alternates the low and the high half: R0, R(n/2), R1, R(n/2+1), ... */
  TG_SHUFFLED       /* a seeded random permutation */
} tg_reg_order;

typedef struct tg_access {
  int is_store;
  tg_space space;
  tg_pattern pattern;
  tg_when when;
  int width;           /* bytes per thread: 4, 8 or 16 */
  uint64_t stride;     /* strided: bytes between consecutive threads; window: between taps */
  uint64_t footprint;  /* bytes after which offsets wrap (0 = the space's default) */
  uint64_t offset;     /* shared: byte offset of the accessed region */
  int taps;            /* window: loads per iteration */
  int tile;            /* tiled: tile edge in elements */
  uint64_t guard;      /* bounds check: threads with grid-wide index >= guard are predicated
                          off for this access (0 = none) */
  long line;           /* spec line, for messages */
} tg_access;

typedef struct tg_kernel_spec {
  char name[TG_NAME_MAX];
  long line;           /* the `kernel =` line */
  int grid[3], block[3];
  int nregs, shmem;
  int iters, body;
  double mix[TG_NCLASS];
  int barrier_every;   /* BAR.SYNC every k iterations, 0 = never */
  tg_imbalance imbalance;
  int imb_a, imb_b;
  tg_reg_order reg_order;
  uint64_t seed;
  tg_access acc[TG_MAX_ACCESSES];
  int nacc;
  unsigned set;        /* keys given in this section (bit per key), to catch duplicates */
} tg_kernel_spec;

typedef struct tg_spec {
  char path[512];
  tg_kernel_spec *kernels;
  int nkernels;
} tg_spec;

/* Parses spec text; `path` names it in messages. */
int tg_spec_parse(const char *path, const char *text, tg_spec **out, rf_diag *d);
/* Reads and parses a spec file. */
int tg_spec_load(const char *path, tg_spec **out, rf_diag *d);
void tg_spec_free(tg_spec *s);

/* Names used in the spec syntax (and in messages). */
const char *tg_class_name(tg_class c);

#endif
