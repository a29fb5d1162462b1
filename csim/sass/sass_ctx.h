/* The state the interpreter executes on: a launch (grid, constant banks, device memory, trace
 * sink), the CTA being run (shared and local memory, barriers) and its warps (registers,
 * predicates, condition code, the SIMT reconvergence stack), plus the inline operand accessors
 * every handler uses. Registers are stored lane-minor (r[reg * 32 + lane]) so that one
 * instruction's 32 lanes touch one cache line per operand. */
#ifndef RFSIM_SASS_CTX_H
#define RFSIM_SASS_CTX_H

#include <stdint.h>
#include <string.h>

#include "../common/diag.h"
#include "sass_inst.h"
#include "sass_mem.h"

#define SASS_WARP 32
#define SASS_STACK_MAX 64
#define SASS_BARRIERS 16
#define SASS_CBANKS 18
#define SASS_CBARRIERS 16

/* reconvergence stack entry kinds (Pascal's CRS stack) */
enum { SS_SYNC, SS_DIV, SS_BRK, SS_CONT, SS_CALL };
/* warp states */
enum { SW_RUN, SW_BAR, SW_DONE };

typedef struct sass_frame {
  uint8_t type;
  uint32_t pc, mask;
  uint32_t waiting; /* lanes that left by BRK/CONT/RET to this entry */
} sass_frame;

/* a warp's instructions as trace lines, kept until its CTA is written */
typedef struct sass_wtrace {
  char *buf;
  size_t n, cap;
  uint64_t insts;
} sass_wtrace;

typedef struct sass_warp {
  uint32_t *r;                  /* nregs * 32 */
  uint32_t p[8];                /* predicate masks; p[7] (PT) is all ones */
  uint32_t cc_c, cc_z, cc_s, cc_o; /* condition code flags, a mask each */
  uint32_t active, exited, lanes;
  uint32_t pc;
  int sp;
  sass_frame stack[SASS_STACK_MAX];
  uint8_t state, bar;
  uint32_t b2r_count, b2r_threads; /* the last BAR.RED's result: threads true, threads in it */
  uint8_t b2r_kind;
  int id;
  sass_wtrace tr;
  /* sm_70 on (independent thread scheduling, sass_its.c): each lane has its own PC; lanes meet
   * at convergence barriers (BSSY/BSYNC), WARPSYNC and the CTA barrier */
  uint32_t lpc[SASS_WARP];
  uint32_t cbar[SASS_CBARRIERS];       /* B0-B15: the lanes a BSYNC Bn waits for */
  uint32_t wait_bsync[SASS_CBARRIERS]; /* lanes waiting at BSYNC Bn */
  uint32_t wait_ws;                    /* lanes waiting at WARPSYNC, each for ws_mask[lane] */
  uint32_t ws_mask[SASS_WARP];
  uint32_t wait_bar;                   /* lanes waiting at the CTA barrier `bar` */
} sass_warp;

struct sass_kernel;
struct sass_module;

typedef struct sass_cta {
  uint32_t id[3];
  int nwarps;
  sass_warp *w;
  uint8_t *shared;
  uint32_t shared_bytes;
  uint8_t *local;               /* local_bytes per thread */
  uint32_t local_bytes;
  uint32_t bar_arrived[SASS_BARRIERS], bar_expected[SASS_BARRIERS];
  uint32_t bar_count[SASS_BARRIERS], bar_threads[SASS_BARRIERS]; /* BAR.RED reductions */
  uint8_t bar_kind[SASS_BARRIERS];
  uint8_t bar_started[SASS_BARRIERS]; /* lanes have arrived since the last release */
} sass_cta;

/* what a launch writes to the trace, and how (sass_trace.c) */
typedef struct sass_sink sass_sink;

typedef struct sass_grid {
  const struct sass_module *mod;
  const struct sass_kernel *k;
  uint32_t grid[3], block[3];
  uint32_t nthreads, dyn_shared;
  const uint8_t *cbank[SASS_CBANKS];
  uint32_t cbank_bytes[SASS_CBANKS];
  sass_devmem *mem;
  uint64_t budget, executed;    /* warp instructions */
  sass_sink *sink;
  int its;                      /* per-lane PCs (sm_70 on) */
} sass_grid;

typedef struct sass_ctx {
  sass_grid *g;
  sass_cta *c;
  sass_warp *w;
  rf_diag *d;
  int fault;                    /* a handler set d: stop after this instruction */
  uint64_t addr[SASS_WARP];     /* lane addresses of the current memory instruction */
} sass_ctx;

static inline uint32_t sass_rd(const sass_ctx *x, unsigned reg, int lane) {
  return reg >= SASS_RZ ? 0 : x->w->r[reg * SASS_WARP + (unsigned)lane];
}
static inline void sass_wr(sass_ctx *x, unsigned reg, int lane, uint32_t v) {
  if (reg < SASS_RZ) x->w->r[reg * SASS_WARP + (unsigned)lane] = v;
}
static inline uint64_t sass_rd64(const sass_ctx *x, unsigned reg, int lane) {
  return reg >= SASS_RZ
             ? 0
             : (uint64_t)sass_rd(x, reg, lane) | (uint64_t)sass_rd(x, reg + 1, lane) << 32;
}
static inline void sass_wr64(sass_ctx *x, unsigned reg, int lane, uint64_t v) {
  sass_wr(x, reg, lane, (uint32_t)v);
  if (reg < SASS_RZ) sass_wr(x, reg + 1, lane, (uint32_t)(v >> 32));
}

/* A constant bank word (0 with a fault if outside the bank). */
uint32_t sass_cread(sass_ctx *x, int bank, int64_t off, int lane);

/* The raw 32 bits of a source operand: register, immediate or constant. Sign, absolute value,
 * inversion and half selection are the handler's, since they mean different things to integer
 * and float instructions. */
static inline uint32_t sass_src(sass_ctx *x, const sass_opnd *o, int lane) {
  if (o->kind == SO_REG) return sass_rd(x, o->reg, lane);
  if (o->kind == SO_IMM) return (uint32_t)o->ival;
  return sass_cread(x, o->bank,
                    o->ival + (o->reg < SASS_RZ ? (int32_t)sass_rd(x, o->reg, lane) : 0), lane);
}
/* A 64-bit source (register pair, or a 64-bit constant). */
static inline uint64_t sass_src64(sass_ctx *x, const sass_opnd *o, int lane) {
  if (o->kind == SO_REG) return sass_rd64(x, o->reg, lane);
  if (o->kind == SO_IMM) return (uint64_t)o->ival;
  int64_t off = o->ival + (o->reg < SASS_RZ ? (int32_t)sass_rd(x, o->reg, lane) : 0);
  return (uint64_t)sass_cread(x, o->bank, off, lane) |
         (uint64_t)sass_cread(x, o->bank, off + 4, lane) << 32;
}

static inline uint32_t sass_pred(const sass_warp *w, unsigned p, int neg) {
  uint32_t v = w->p[p & 7];
  return neg ? ~v : v;
}
static inline void sass_setp(sass_warp *w, unsigned p, uint32_t lanes_true, uint32_t m) {
  if (p < SASS_PT) w->p[p] = (w->p[p] & ~m) | (lanes_true & m);
}

/* Sets x->fault with a message naming the kernel, CTA, warp, lane and PC. */
int sass_fault(sass_ctx *x, const sass_inst *in, int lane, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#define SASS_FOR_LANES(m, lane) \
  for (uint32_t lm_ = (m); lm_; lm_ &= lm_ - 1) \
    for (int lane = __builtin_ctz(lm_), once_ = 1; once_; once_ = 0)

#endif
