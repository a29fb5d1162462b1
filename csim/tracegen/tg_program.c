/* Builds a kernel's static code from its spec.
 *
 * Registers are logical 0..nregs-1, mapped to physical numbers by the spec's reg_order, and
 * logical registers are first touched in increasing order: L0 = thread index, L1 = block index,
 * L2 = loop counter, then one address register per access (as many as fit), then a data pool
 * that loads and ALU results cycle through. So the order in which physical registers are first
 * used is exactly the permutation, and every source operand is a register written earlier
 * (sources come from the last few writes), which gives real dependency chains. */
#include "tg_program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tg_isa.h"
#include "tg_rng.h"

#define HIST 4

typedef struct builder {
  tg_program *p;
  int cap;
  tg_rng rng;
  const tg_kernel_spec *k;
  int naddr;             /* address registers: logical 3 .. 3+naddr-1 */
  int pool_first, pool_n, pool_next;
  int hist[HIST], nhist; /* logical registers, most recent first */
  rf_diag *d;
} builder;

static void make_perm(const tg_kernel_spec *k, uint64_t seed, uint8_t perm[256]) {
  int n = k->nregs;
  for (int i = 0; i < n; i++) {
    switch (k->reg_order) {
    case TG_DESCENDING: perm[i] = (uint8_t)(n - 1 - i); break;
    case TG_INTERLEAVED: perm[i] = (uint8_t)(i % 2 ? (n + 1) / 2 + i / 2 : i / 2); break;
    default: perm[i] = (uint8_t)i; break;
    }
  }
  if (k->reg_order == TG_SHUFFLED) {
    tg_rng r = {tg_hash(seed, 0x7065726d, 0, 0, 0)}; /* "perm" */
    for (int i = n - 1; i > 0; i--) {
      int j = (int)tg_rng_below(&r, (uint64_t)i + 1);
      uint8_t t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
  }
}

static uint8_t phys(const builder *b, int logical) {
  return logical < 0 ? TG_RZ : b->p->perm[logical];
}

static void hist_push(builder *b, int logical) {
  memmove(b->hist + 1, b->hist, sizeof b->hist[0] * (HIST - 1));
  b->hist[0] = logical;
  if (b->nhist < HIST) b->nhist++;
}

/* Source operands from the recent writes, distinct while there are enough. */
static void pick_sources(builder *b, int n, int out[3]) {
  unsigned used = 0;
  for (int i = 0; i < n; i++) {
    if (i >= b->nhist) {
      out[i] = b->hist[tg_rng_below(&b->rng, (uint64_t)b->nhist)];
      continue;
    }
    int j = (int)tg_rng_below(&b->rng, (uint64_t)(b->nhist - i));
    for (int h = 0; h < b->nhist; h++) {
      if (used >> h & 1u) continue;
      if (j-- == 0) {
        used |= 1u << h;
        out[i] = b->hist[h];
        break;
      }
    }
  }
}

static int next_pool(builder *b) {
  int r = b->pool_first + b->pool_next;
  b->pool_next = (b->pool_next + 1) % b->pool_n;
  return r;
}

static tg_inst *emit(builder *b, const char *op, int dst, int nsrc, const int *src) {
  tg_program *p = b->p;
  if (p->n == b->cap) {
    int cap = b->cap ? b->cap * 2 : 64;
    tg_inst *ni = rf_realloc(p->insts, (size_t)cap, sizeof *ni, b->d);
    if (!ni) return NULL;
    p->insts = ni;
    b->cap = cap;
  }
  tg_inst *in = &p->insts[p->n++];
  memset(in, 0, sizeof *in);
  snprintf(in->op, sizeof in->op, "%s", op);
  in->acc = -1;
  in->cls = TG_NCLASS;
  if (dst != -2) {
    in->ndst = 1;
    in->dst = phys(b, dst);
  }
  in->nsrc = (uint8_t)nsrc;
  for (int i = 0; i < nsrc; i++) in->src[i] = phys(b, src[i]);
  return in;
}

static int addr_reg(const builder *b, int acc) { return 3 + acc % b->naddr; }

/* A load into the data pool or a store of the latest value, for access `acc`. */
static int emit_mem(builder *b, int acc, tg_space space, int is_store, tg_role role, int sub,
                    tg_cond cond, int data) {
  const tg_access *a = &b->k->acc[acc];
  int src[2] = {addr_reg(b, acc), data >= 0 ? data : b->hist[0]};
  const char *op = tg_isa_mem_op(space, is_store, a->width);
  int dst = is_store ? -2 : next_pool(b);
  tg_inst *in = emit(b, op, dst, is_store ? 2 : 1, src);
  if (!in) return -1;
  in->acc = (int8_t)acc;
  in->role = (uint8_t)role;
  in->sub = (uint8_t)sub;
  in->width = (uint8_t)a->width;
  in->space = (uint8_t)space;
  in->cond = (uint8_t)cond;
  if (!is_store) hist_push(b, dst);
  return 0;
}

static int emit_alu(builder *b, tg_class c, tg_cond cond) {
  const tg_alu_op *op = tg_isa_pick(c, &b->rng);
  int src[3];
  pick_sources(b, op->nsrc, src);
  int dst = op->has_dst ? next_pool(b) : -2;
  tg_inst *in = emit(b, op->name, dst, op->nsrc, src);
  if (!in) return -1;
  in->cls = (uint8_t)c;
  in->cond = (uint8_t)cond;
  if (op->has_dst) hist_push(b, dst);
  return 0;
}

static int emit_barrier(builder *b, tg_cond cond) {
  tg_inst *in = emit(b, "BAR.SYNC", -2, 0, NULL);
  if (!in) return -1;
  in->cond = (uint8_t)cond;
  return 0;
}

/* LDG A, LDG B -> STS, STS -> BAR -> tile x (LDS A, LDS B, FFMA) -> BAR. */
static int emit_tiled(builder *b, int acc) {
  const tg_access *a = &b->k->acc[acc];
  if (emit_mem(b, acc, TG_GLOBAL, 0, TG_ROLE_LDG_A, 0, TG_IF_COMMON, -1) < 0) return -1;
  int va = b->hist[0];
  if (emit_mem(b, acc, TG_GLOBAL, 0, TG_ROLE_LDG_B, 0, TG_IF_COMMON, -1) < 0) return -1;
  int vb = b->hist[0];
  if (emit_mem(b, acc, TG_SHARED, 1, TG_ROLE_STS_A, 0, TG_IF_COMMON, va) < 0 ||
      emit_mem(b, acc, TG_SHARED, 1, TG_ROLE_STS_B, 0, TG_IF_COMMON, vb) < 0 ||
      emit_barrier(b, TG_IF_COMMON) < 0)
    return -1;
  for (int kk = 0; kk < a->tile; kk++) {
    if (emit_mem(b, acc, TG_SHARED, 0, TG_ROLE_LDS_A, kk, TG_IF_COMMON, -1) < 0 ||
        emit_mem(b, acc, TG_SHARED, 0, TG_ROLE_LDS_B, kk, TG_IF_COMMON, -1) < 0)
      return -1;
    int src[3] = {b->hist[1], b->hist[0], b->nhist > 2 ? b->hist[2] : b->hist[0]};
    int dst = next_pool(b);
    tg_inst *in = emit(b, "FFMA", dst, 3, src);
    if (!in) return -1;
    in->cond = TG_IF_COMMON;
    hist_push(b, dst);
  }
  return emit_barrier(b, TG_IF_COMMON);
}

static int emit_accesses(builder *b, tg_when when, int stores) {
  const tg_kernel_spec *k = b->k;
  for (int i = 0; i < k->nacc; i++) {
    const tg_access *a = &k->acc[i];
    if (a->when != when || a->is_store != stores) continue;
    if (a->pattern == TG_TILED) {
      if (emit_tiled(b, i) < 0) return -1;
      continue;
    }
    int n = a->pattern == TG_WINDOW ? a->taps : 1;
    for (int t = 0; t < n; t++)
      if (emit_mem(b, i, a->space, a->is_store, TG_ROLE_PLAIN, t, TG_ALWAYS, -1) < 0) return -1;
  }
  return 0;
}

/* The body's ALU classes: exact counts by largest remainder, in a seeded random order. */
static int emit_body(builder *b) {
  const tg_kernel_spec *k = b->k;
  int count[TG_NCLASS], total = 0;
  double rem[TG_NCLASS];
  for (int c = 0; c < TG_NCLASS; c++) {
    double x = k->mix[c] * k->body;
    count[c] = (int)x;
    rem[c] = x - count[c];
    total += count[c];
  }
  while (total < k->body) {
    int best = 0;
    for (int c = 1; c < TG_NCLASS; c++)
      if (rem[c] > rem[best]) best = c;
    count[best]++;
    rem[best] = -1.0;
    total++;
  }
  uint8_t *order = rf_calloc((size_t)k->body, 1, b->d);
  if (!order) return -1;
  int n = 0;
  for (int c = 0; c < TG_NCLASS; c++)
    for (int i = 0; i < count[c]; i++) order[n++] = (uint8_t)c;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)tg_rng_below(&b->rng, (uint64_t)i + 1);
    uint8_t t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  int rc = 0;
  for (int i = 0; i < n && rc == 0; i++) rc = emit_alu(b, (tg_class)order[i], TG_ALWAYS);
  free(order);
  return rc;
}

static int emit_prologue(builder *b) {
  int none[1] = {-1};
  int ids[2] = {0, 1};
  if (!emit(b, "S2R", 0, 0, NULL) || !emit(b, "S2R", 1, 0, NULL) || !emit(b, "MOV", 2, 1, none))
    return -1;
  for (int i = 0; i < b->naddr; i++)
    if (!emit(b, i % 2 ? "XMAD" : "ISCADD", 3 + i, 2, ids)) return -1;
  hist_push(b, 0);
  hist_push(b, 1);
  return emit_accesses(b, TG_AT_START, 0) < 0 || emit_accesses(b, TG_AT_START, 1) < 0 ? -1 : 0;
}

static int emit_loop(builder *b) {
  const tg_kernel_spec *k = b->k;
  b->p->loop_begin = b->p->n;
  if (emit_accesses(b, TG_AT_LOOP, 0) < 0 || emit_body(b) < 0 ||
      emit_accesses(b, TG_AT_LOOP, 1) < 0)
    return -1;
  if (k->barrier_every > 0 && emit_barrier(b, TG_IF_BARRIER) < 0) return -1;
  int counter[1] = {2};
  if (!emit(b, "IADD32I", 2, 1, counter) || !emit(b, "ISETP.LT.AND", -2, 1, counter) ||
      !emit(b, "BRA", -2, 0, NULL))
    return -1;
  b->p->loop_end = b->p->n;
  return 0;
}

static void assign_pcs_and_counts(tg_program *p) {
  /* Pascal packs three instructions per 32-byte bundle after a control word: 08 10 18 28 ... */
  for (int i = 0; i < p->n; i++) p->insts[i].pc = (uint32_t)(i / 3 * 0x20 + (i % 3 + 1) * 8);
  for (int i = p->loop_begin; i < p->loop_end; i++) {
    switch (p->insts[i].cond) {
    case TG_IF_COMMON: p->n_common++; break;
    case TG_IF_BARRIER: p->n_barrier++; break;
    default: p->n_always++; break;
    }
  }
}

int tg_program_build(const tg_kernel_spec *k, uint64_t seed, tg_program *p, rf_diag *d) {
  memset(p, 0, sizeof *p);
  make_perm(k, seed, p->perm);
  builder b = {.p = p, .k = k, .d = d};
  b.rng.state = tg_hash(seed, 0x636f6465, 0, 0, 0); /* "code" */
  /* Keep at least two pool registers so values can flow between instructions. */
  int room = k->nregs - 5;
  b.naddr = k->nacc < room ? k->nacc : room;
  if (b.naddr < 1) b.naddr = 1;
  b.pool_first = 3 + b.naddr;
  b.pool_n = k->nregs - b.pool_first;
  if (emit_prologue(&b) < 0 || emit_loop(&b) < 0 || emit_accesses(&b, TG_AT_END, 0) < 0 ||
      emit_accesses(&b, TG_AT_END, 1) < 0 || !emit(&b, "EXIT", -2, 0, NULL)) {
    tg_program_free(p);
    return -1;
  }
  assign_pcs_and_counts(p);
  return 0;
}

void tg_program_free(tg_program *p) {
  free(p->insts);
  p->insts = NULL;
  p->n = 0;
}

int tg_slot_runs(const tg_inst *in, long it, long common, int barrier_every) {
  switch (in->cond) {
  case TG_IF_COMMON: return it < common;
  case TG_IF_BARRIER: return it < common && barrier_every > 0 && (it + 1) % barrier_every == 0;
  default: return 1;
  }
}

long tg_slot_count(const tg_program *p, int s, long iters, long common, int barrier_every) {
  if (s < p->loop_begin || s >= p->loop_end) return 1;
  switch (p->insts[s].cond) {
  case TG_IF_COMMON: return common;
  case TG_IF_BARRIER: return barrier_every > 0 ? common / barrier_every : 0;
  default: return iters;
  }
}

long tg_program_warp_insts(const tg_program *p, long iters, long common, int barrier_every) {
  long fixed = p->loop_begin + (p->n - p->loop_end);
  long barriers = barrier_every > 0 ? common / barrier_every : 0;
  return fixed + iters * p->n_always + common * p->n_common + barriers * p->n_barrier;
}
