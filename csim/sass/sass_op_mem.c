/* Loads and stores: global (LDG/STG, 64-bit addresses with .E), shared (LDS/STS), local
 * (LDL/STL: per-thread memory addressed from the stack pointer R1), generic (LD/ST: the shared
 * and local windows are carved out of the global address space) and constant (LDC). Every access
 * is bounds- and alignment-checked; a bad one stops the run naming the kernel, CTA, warp, lane,
 * PC and address, as compute-sanitizer would. Lane addresses go to the trace as the instruction
 * computed them (shared and local: offsets in their window). */
#include "sass_mem_access.h"
#include "sass_op.h"

enum { SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_GENERIC };
#define F_SIGNED 0x02

static const char *const space_names[] = {"global", "shared", "local", "generic"};

uint8_t *sass_access(sass_ctx *x, const sass_inst *in, int space, uint64_t addr, unsigned bytes,
                     int lane, int is_store) {
  if (space == SP_GENERIC) {
    if (addr - SASS_SHARED_WINDOW < SASS_WINDOW_BYTES)
      space = SP_SHARED, addr -= SASS_SHARED_WINDOW;
    else if (addr - SASS_LOCAL_WINDOW < SASS_WINDOW_BYTES)
      space = SP_LOCAL, addr -= SASS_LOCAL_WINDOW;
    else space = SP_GLOBAL;
  }
  const char *what = is_store ? "store" : "load";
  if (addr % bytes) {
    sass_fault(x, in, lane, "misaligned %s %s of %u bytes at 0x%llx", space_names[space], what,
               bytes, (unsigned long long)addr);
    return NULL;
  }
  uint8_t *p = NULL;
  if (space == SP_GLOBAL) {
    p = sass_devmem_at(x->g->mem, addr, bytes);
  } else if (space == SP_SHARED) {
    if (addr + bytes <= x->c->shared_bytes) p = x->c->shared + addr;
  } else if (addr + bytes <= x->c->local_bytes) {
    uint32_t tid = (uint32_t)x->w->id * SASS_WARP + (uint32_t)lane;
    p = x->c->local + (uint64_t)tid * x->c->local_bytes + addr;
  }
  if (!p) {
    if (space == SP_GLOBAL)
      sass_fault(x, in, lane, "%s %s of %u bytes at 0x%llx is outside every allocation",
                 space_names[space], what, bytes, (unsigned long long)addr);
    else
      sass_fault(x, in, lane, "%s %s of %u bytes at offset 0x%llx is outside the %u bytes of %s "
                 "memory", space_names[space], what, bytes, (unsigned long long)addr,
                 space == SP_SHARED ? x->c->shared_bytes : x->c->local_bytes,
                 space == SP_SHARED ? "the CTA's shared" : "each thread's local");
  }
  return p;
}

/* the lane's address: register (or pair with .E) plus the offset */
uint64_t sass_lane_addr(sass_ctx *x, const sass_inst *in, const sass_opnd *o, int l) {
  uint64_t base = (in->f & SASS_F_E) ? sass_rd64(x, o->reg, l) : sass_rd(x, o->reg, l);
  return base + (uint64_t)o->ival;
}

static int ex_ld(sass_ctx *x, const sass_inst *in, uint32_t m) {
  unsigned bytes = (unsigned)in->k, words = bytes < 4 ? 1 : bytes / 4;
  SASS_FOR_LANES(m, l) {
    uint64_t a = sass_lane_addr(x, in, &in->o[1], l);
    x->addr[l] = a;
    const uint8_t *p = sass_access(x, in, in->a, a, bytes, l, 0);
    if (!p) return -1;
    uint32_t v[4] = {0};
    if (bytes >= 4) memcpy(v, p, bytes);
    else if (bytes == 2) v[0] = (in->f & F_SIGNED) ? (uint32_t)(int32_t)(int16_t)(p[0] | p[1] << 8)
                                                     : (uint32_t)(p[0] | p[1] << 8);
    else v[0] = (in->f & F_SIGNED) ? (uint32_t)(int32_t)(int8_t)p[0] : p[0];
    for (unsigned i = 0; i < words; i++) sass_wr(x, in->o[0].reg + i, l, v[i]);
  }
  return 0;
}

static int ex_st(sass_ctx *x, const sass_inst *in, uint32_t m) {
  unsigned bytes = (unsigned)in->k, words = bytes < 4 ? 1 : bytes / 4;
  SASS_FOR_LANES(m, l) {
    uint64_t a = sass_lane_addr(x, in, &in->o[0], l);
    x->addr[l] = a;
    uint8_t *p = sass_access(x, in, in->a, a, bytes, l, 1);
    if (!p) return -1;
    uint32_t v[4];
    for (unsigned i = 0; i < words; i++) v[i] = sass_rd(x, in->o[1].reg + i, l);
    memcpy(p, v, bytes);
  }
  return 0;
}

static int space_of(const char *mn) {
  if (!strcmp(mn, "LDS") || !strcmp(mn, "STS")) return SP_SHARED;
  if (!strcmp(mn, "LDL") || !strcmp(mn, "STL")) return SP_LOCAL;
  if (!strcmp(mn, "LD") || !strcmp(mn, "ST")) return SP_GENERIC;
  return SP_GLOBAL;
}

/* size, signedness, address width and the cache operators (which change no value) */
static int prep_access(sass_prep *p, int data_opnd) {
  sass_inst *in = p->in;
  static const char *const sizes[] = {"U8", "S8", "U16", "S16", "32", "64", "128"};
  static const uint8_t bytes[] = {1, 1, 2, 2, 4, 8, 16};
  int s = sass_take_of(p, sizes, 7, 4);
  in->f = (sass_take(p, "E") ? SASS_F_E : 0) | ((s == 1 || s == 3) ? F_SIGNED : 0);
  /* cache operators (several may come together: LDG.E.CI.U.128, the last of nvcc's read-only
   * loads in an unrolled walk) and, from sm_70, memory order and scope: they change no value
   * here, where one thread of execution is always ordered */
  static const char *const kinds[] = {"CA",  "CG",    "CS",  "CV",   "CI",     "LU",  "WB",
                                      "WT",  "U",     "EF",  "EL",   "LAST",   "CONSTANT",
                                      "SYS", "GPU",   "CTA", "STRONG", "WEAK", "PRIVATE", "MMIO"};
  while (sass_take_of(p, kinds, 20, -1) >= 0) continue;
  in->a = (uint8_t)space_of(in->mtext);
  if (in->a == SP_GLOBAL && !(in->f & SASS_F_E))
    return sass_bad(p, "32-bit global addresses (no .E) are not supported");
  int words = bytes[s] < 4 ? 1 : bytes[s] / 4;
  if (in->o[data_opnd].reg != SASS_RZ && in->o[data_opnd].reg % (unsigned)words)
    return sass_bad(p, "expected a register group aligned to %d", words);
  sass_reg_span(p, data_opnd, words);
  int addr = data_opnd ? 0 : 1;
  if ((in->f & SASS_F_E) && in->o[addr].reg != SASS_RZ) sass_reg_span(p, addr, 2);
  in->k = bytes[s];
  return 0;
}

int sass_prep_ld(sass_prep *p) {
  /* LD.E d, [a], P: the trailing predicate (when present) is left as is, see README */
  if (sass_shape(p, "r m ?p") < 0 || prep_access(p, 0) < 0) return -1;
  p->in->exec = ex_ld;
  return 0;
}

int sass_prep_st(sass_prep *p) {
  if (sass_shape(p, "m r ?p") < 0 || prep_access(p, 1) < 0) return -1;
  p->in->exec = ex_st;
  return 0;
}

/* LDC d, c[bank][a + off]: an indexed constant read */
static int ex_ldc(sass_ctx *x, const sass_inst *in, uint32_t m) {
  const sass_opnd *o = &in->o[1];
  SASS_FOR_LANES(m, l) {
    int64_t off = o->ival + (o->reg < SASS_RZ ? (int32_t)sass_rd(x, o->reg, l) : 0);
    for (int i = 0; i < in->k / 4 || (i == 0 && in->k < 4); i++) {
      uint32_t v = sass_cread(x, o->bank, (off & ~3) + 4 * i, l);
      if (in->k < 4) v = (v >> (8 * (off & 3))) & (in->k == 1 ? 0xffu : 0xffffu);
      sass_wr(x, in->o[0].reg + (unsigned)i, l, v);
    }
  }
  return 0;
}

int sass_prep_ldc(sass_prep *p) {
  if (sass_shape(p, "r c") < 0) return -1;
  static const char *const sizes[] = {"U8", "S8", "U16", "S16", "32", "64"};
  static const uint8_t bytes[] = {1, 1, 2, 2, 4, 8};
  int s = sass_take_of(p, sizes, 6, 4);
  p->in->k = bytes[s];
  if (bytes[s] == 8) sass_reg_span(p, 0, 2);
  p->in->exec = ex_ldc;
  return 0;
}

static int ex_nop(sass_ctx *x, const sass_inst *in, uint32_t m) {
  (void)x, (void)in, (void)m;
  return 0;
}

/* MEMBAR orders memory; one thread of execution is always ordered */
int sass_prep_membar(sass_prep *p) {
  static const char *const scopes[] = {"CTA", "GL", "SYS", "GPU"};
  sass_take(p, "SC"); /* sm_70: sequentially consistent, or .ALL */
  sass_take(p, "ALL");
  if (sass_shape(p, "") < 0 || sass_take_of(p, scopes, 4, -1) < 0)
    return sass_bad(p, "expected .CTA, .GL, .GPU or .SYS");
  p->in->exec = ex_nop;
  return 0;
}
