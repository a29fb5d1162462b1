#include "trace_inst.h"

#include <string.h>

#include "opcode.h"
#include "trace_parse.h"

/* Generic (LD/ST/ATOM) addresses falling in these windows above the kernel's bases are shared or
 * local; everything else is global. GPGPU-Sim reserves 16 MB windows for each. */
#define GENERIC_WINDOW_BYTES (16ull << 20)

#define FAIL(...) rf_fail_at(d, ctx->path, ctx->line, __VA_ARGS__)

static int parse_reg(const inst_context *ctx, const char *tok, const char *what, int *reg,
                     rf_diag *d) {
  if (!tok) return FAIL("expected %s register, found end of line", what);
  if (tok[0] != 'R' || !tp_parse_int(tok + 1, 0, 255, reg))
    return FAIL("expected %s register R0..R255, found '%s'", what, tok);
  return 0;
}

/* Bytes per thread from modifiers such as .128, .64, .U8, .S16 (as Accel-Sim reads them,
 * since NVBit's reported width is unreliable); 0 if the opcode names no size. */
static int width_from_modifiers(const char *opcode) {
  for (const char *p = strchr(opcode, '.'); p; p = strchr(p + 1, '.')) {
    const char *m = p + 1;
    if (*m == 'U' || *m == 'S') m++;
    int bits = 0, digits = 0;
    while (*m >= '0' && *m <= '9' && digits < 4) bits = bits * 10 + (*m++ - '0'), digits++;
    if (digits && (*m == '.' || *m == '\0') && bits >= 8 && bits <= 128 && bits % 8 == 0)
      return bits / 8;
  }
  return 0;
}

const opcode_cache_entry *trace_opcode_cached(const inst_context *ctx, const char *opcode,
                                              size_t len) {
  if (!ctx->cache || len >= sizeof ctx->cache->text) return NULL;
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++) h = (h ^ (uint8_t)opcode[i]) * 16777619u;
  return &ctx->cache[h % OPCODE_CACHE_SLOTS];
}

int trace_opcode_decode(const inst_context *ctx, const char *opcode, int *op, int *width) {
  size_t len = strlen(opcode);
  opcode_cache_entry *e = (opcode_cache_entry *)trace_opcode_cached(ctx, opcode, len);
  if (e && e->op >= 0 && !strcmp(e->text, opcode)) {
    *op = e->op;
    *width = e->width;
    return 0;
  }
  *op = opcode_lookup(opcode, (int)strcspn(opcode, "."));
  if (*op < 0) return -1;
  *width = width_from_modifiers(opcode);
  if (e) {
    memcpy(e->text, opcode, len + 1);
    e->op = (int16_t)*op;
    e->width = (uint8_t)*width;
  }
  return 0;
}

/* The address field, token for token as Accel-Sim's trace parser (inst_trace_t::
 * parse_from_string) reads what NVBit's tracer writes:
 *   mode 0: one hex address per active lane (none for mask 0);
 *   mode 1: a hex base and a decimal stride, WHATEVER the mask: the tracer writes "1 0x0 0" for
 *           a fully predicated-off access (its base+stride test passes vacuously);
 *   mode 2: a hex base, whatever the mask, then one decimal delta per active lane after the
 *           first (the tracer writes mode 2 with no deltas for a single active lane).
 * Inactive lanes get address 0. In mode 1 the k-th active lane gets base + k * stride; the
 * tracer writes mode 1 only for contiguous active lanes, where this is Accel-Sim's reading too
 * (for a non-contiguous mask, which NVBit never writes, Accel-Sim leaves the lanes after the
 * first gap at 0). */
static int parse_addresses(const inst_context *ctx, char **cur, uint32_t mask, uint64_t *addrs,
                           rf_diag *d) {
  char *tok = tp_next_token(cur);
  int mode;
  if (!tok || !tp_parse_int(tok, 0, 2, &mode))
    return FAIL("expected address mode 0 (list), 1 (base+stride) or 2 (base+deltas), "
                "found '%s'", tok ? tok : "end of line");
  memset(addrs, 0, TRACE_WARP_SIZE * sizeof *addrs);
  int active = __builtin_popcount(mask);
  if (mode == 0) {
    int got = 0;
    for (int lane = 0; lane < TRACE_WARP_SIZE; lane++) {
      if (!(mask >> lane & 1)) continue;
      tok = tp_next_token(cur);
      if (!tok) return FAIL("expected %d addresses for mask %08x, found %d", active, mask, got);
      if (!tp_parse_hex64(tok, &addrs[lane]))
        return FAIL("expected a hex address, found '%s'", tok);
      got++;
    }
    return 0;
  }
  uint64_t base;
  tok = tp_next_token(cur);
  if (!tok || !tp_parse_hex64(tok, &base))
    return FAIL("expected a hex base address, found '%s'", tok ? tok : "end of line");
  int64_t step = 0;
  if (mode == 1) {
    tok = tp_next_token(cur);
    if (!tok || !tp_parse_i64(tok, &step))
      return FAIL("expected a decimal stride, found '%s'", tok ? tok : "end of line");
  }
  uint64_t a = base;
  int k = 0;
  for (int lane = 0; lane < TRACE_WARP_SIZE; lane++) {
    if (!(mask >> lane & 1)) continue;
    if (k++ > 0) {
      if (mode == 2) {
        int got = tp_next_i64(cur, &step);
        if (got == 0)
          return FAIL("expected %d address deltas for mask %08x, found %d", active - 1, mask,
                      k - 2);
        if (got < 0)
          return FAIL("expected a decimal address delta, found '%s'", tp_next_token(cur));
      }
      /* The next lane's address must stay in the 64-bit address space, not wrap around it. */
      uint64_t next = a + (uint64_t)step;
      if (step >= 0 ? next < a : next > a)
        return FAIL("expected each lane's address inside the 64-bit address space, found "
                    "0x%llx %c %s %llu for lane %d (base 0x%llx)", (unsigned long long)a,
                    step >= 0 ? '+' : '-', mode == 1 ? "stride" : "delta",
                    (unsigned long long)(step >= 0 ? (uint64_t)step : 0 - (uint64_t)step), lane,
                    (unsigned long long)base);
      a = next;
    }
    addrs[lane] = a;
  }
  return 0;
}

static uint8_t resolve_generic(const inst_context *ctx, const uint64_t *addrs, uint32_t mask) {
  uint64_t a = addrs[__builtin_ctz(mask)];
  if (a >= ctx->shmem_base && a - ctx->shmem_base < GENERIC_WINDOW_BYTES) return SPACE_SHARED;
  if (a >= ctx->local_base && a - ctx->local_base < GENERIC_WINDOW_BYTES) return SPACE_LOCAL;
  return SPACE_GLOBAL;
}

void trace_inst_finish(const inst_context *ctx, trace_op *op, uint32_t active,
                       const uint64_t *addrs, int has_addrs, int mem_width, int modifier_width) {
  int is_memory_op = op->kind == OPK_LOAD || op->kind == OPK_STORE || op->kind == OPK_ATOMIC;
  if (is_memory_op && (!has_addrs || active == 0)) {
    /* Address-less forms (LDGDEPBAR, fully predicated-off accesses) move no data. */
    op->kind = OPK_ALU;
    op->unit = UNIT_INT;
    op->space = SPACE_NONE;
  } else if (is_memory_op) {
    op->width = (uint8_t)(modifier_width ? modifier_width : (mem_width <= 16 ? mem_width : 4));
    op->is_mem = 1;
    if (op->space == SPACE_GENERIC) op->space = resolve_generic(ctx, addrs, active);
  }
}

int trace_parse_inst_strict(const inst_context *ctx, char *line, trace_op *op,
                            uint32_t *active, uint64_t *addrs, int *has_addrs, rf_diag *d) {
  memset(op, 0, sizeof *op);
  *has_addrs = 0;
  char *cur = line, *tok;
  if (ctx->lineinfo) {
    tok = tp_next_token(&cur);
    int ln;
    if (!tok || !tp_parse_int(tok, 0, 0x7fffffff, &ln))
      return FAIL("expected a source line number (lineinfo), found '%s'",
                  tok ? tok : "end of line");
    op->line = (uint32_t)ln;
  }
  tok = tp_next_token(&cur);
  if (!tok || !tp_parse_hex64(tok, &op->pc))
    return FAIL("expected a hex PC, found '%s'", tok ? tok : "end of line");
  tok = tp_next_token(&cur);
  uint64_t mask;
  if (!tok || !tp_parse_hex64(tok, &mask) || mask > 0xffffffffull)
    return FAIL("expected a 32-bit hex active mask, found '%s'", tok ? tok : "end of line");
  *active = (uint32_t)mask;

  int n, reg = 0; /* (set by parse_reg; LTO could not tell that FAIL returns -1) */
  tok = tp_next_token(&cur);
  if (!tok || !tp_parse_int(tok, 0, TRACE_MAX_DST, &n))
    return FAIL("expected a destination count 0..%d, found '%s'", TRACE_MAX_DST,
                tok ? tok : "end of line");
  for (int i = 0; i < n; i++) {
    if (parse_reg(ctx, tp_next_token(&cur), "a destination", &reg, d) < 0) return -1;
    if (reg != TRACE_RZ) op->dst[op->ndst++] = (uint8_t)reg;
  }

  char *opcode = tp_next_token(&cur);
  if (!opcode) return FAIL("expected an opcode, found end of line");
  int opcode_index, modifier_width;
  if (trace_opcode_decode(ctx, opcode, &opcode_index, &modifier_width) < 0)
    return FAIL("expected a SASS opcode, found '%s'", opcode);
  const opcode_class *cls = opcode_get(opcode_index);
  op->opcode = (uint16_t)opcode_index;
  op->kind = cls->kind;
  op->unit = cls->unit;
  op->space = cls->space;

  tok = tp_next_token(&cur);
  if (!tok || !tp_parse_int(tok, 0, TRACE_MAX_SRC, &n))
    return FAIL("expected a source count 0..%d, found '%s'", TRACE_MAX_SRC,
                tok ? tok : "end of line");
  for (int i = 0; i < n; i++) {
    if (parse_reg(ctx, tp_next_token(&cur), "a source", &reg, d) < 0) return -1;
    if (reg != TRACE_RZ) op->src[op->nsrc++] = (uint8_t)reg;
  }

  tok = tp_next_token(&cur);
  int mem_width;
  if (!tok || !tp_parse_int(tok, 0, 255, &mem_width))
    return FAIL("expected a memory width in bytes, found '%s'", tok ? tok : "end of line");
  if (mem_width > 0) {
    if (parse_addresses(ctx, &cur, *active, addrs, d) < 0) return -1;
    *has_addrs = 1;
  }

  tok = tp_next_token(&cur);
  if (tok && ctx->tracer_version >= 5) {
    uint64_t imm;
    int64_t simm;
    if (tp_parse_i64(tok, &simm)) imm = (uint64_t)simm;
    else if (!(tok[0] == '0' && tok[1] == 'x' && tp_parse_hex64(tok, &imm)))
      return FAIL("expected an immediate, found '%s'", tok);
    op->imm = (uint32_t)imm;
    op->has_imm = 1;
    tok = tp_next_token(&cur);
  }
  if (tok) return FAIL("expected end of line, found '%s'", tok);

  trace_inst_finish(ctx, op, *active, addrs, *has_addrs, mem_width, modifier_width);
  return 0;
}
