/* The instruction line in the form NVBit's tracer writes, read in one pass without cutting it
 * into tokens: a cold run (the first of a trace, every run of `make cuda-traces`) spent more of
 * its time reading lines than simulating them. Numbers are read by trace_parse.h's readers, so
 * every spelling the strict reader (trace_inst.c) takes is taken here too; what is left to it
 * is every error, so messages come from one place and this reader never has to know them (and
 * an opcode too long for the opcode cache). Tokens end at a blank (space, tab) or the line's
 * end, as tp_next_token's do; each reader below returns where its token ends, or NULL to give
 * up. */
#include <string.h>

#include "opcode.h"
#include "trace_addrs.h"
#include "trace_inst.h"
#include "trace_parse.h"

/* Inlined at every call (GCC would call them instead): most of a line's bytes pass here. */
#define TOKEN_READER static inline __attribute__((always_inline)) const char *

TOKEN_READER hex_token(const char *p, uint64_t *v) {
  p = tp_read_hex64(p, v);
  return p && tp_ends_token(*p) ? p : NULL;
}

TOKEN_READER i64_token(const char *p, int64_t *v) {
  p = tp_read_i64(p, v);
  return p && tp_ends_token(*p) ? p : NULL;
}

/* A decimal in [lo, hi], as tp_parse_int reads it. */
TOKEN_READER int_token(const char *p, int lo, int hi, int *v) {
  int64_t x;
  if (!(p = i64_token(p, &x)) || x < lo || x > hi) return NULL;
  *v = (int)x;
  return p;
}

/* n registers R0..R255 (RZ, R255, is not kept). */
static const char *reg_list(const char *p, int n, uint8_t *regs, uint8_t *kept) {
  for (int i = 0; i < n; i++) {
    p = tp_skip_blanks(p);
    int r;
    if (*p != 'R' || !(p = int_token(p + 1, 0, 255, &r))) return NULL;
    if (r != TRACE_RZ) regs[(*kept)++] = (uint8_t)r;
  }
  return p;
}

/* Both memos' slot for the instruction at pc. */
static inline size_t memo_slot(uint64_t pc) { return (size_t)((pc >> 3) % INST_MEMO_SLOTS); }

/* Whether the line at p (it ends at `end`) repeats a memo's text[0, len): compared only as
 * far as the line goes, and ending where a token does. */
static inline int repeats(const char *p, const char *end, const char *text, size_t len) {
  return (size_t)(end - p) >= len && !memcmp(text, p, len) && tp_ends_token(p[len]);
}

/* The lanes a delta memo gives from base b: 0 if one leaves the 64-bit address space (the
 * strict reader rejects the line then: the same deltas took the memo's line to its offsets
 * without leaving it, so they leave it from b exactly when an offset does). */
static int memo_lanes(const delta_memo *dm, uint64_t b, uint32_t mask, uint64_t *addrs) {
  if ((dm->lo < 0 && b < (uint64_t)-(int64_t)dm->lo) ||
      (dm->hi > 0 && b > UINT64_MAX - (uint64_t)dm->hi))
    return 0;
  if (mask == 0xffffffffu) {
    for (int lane = 0; lane < TRACE_WARP_SIZE; lane++)
      addrs[lane] = b + (uint64_t)(int64_t)dm->off[lane];
  } else {
    for (uint32_t m = mask; m; m &= m - 1) {
      int lane = __builtin_ctz(m);
      addrs[lane] = b + (uint64_t)(int64_t)dm->off[lane];
    }
  }
  return 1;
}

/* Remembers the deltas text[0, len) that took the lanes from base b to addrs, if the text fits
 * and every offset fits 32 bits (exactly: an address far below the base may look near it), and
 * how the packer packs them: that form, or -1 if they are not remembered. */
static int remember_deltas(delta_memo *dm, uint32_t mask, const char *text, size_t len,
                           uint64_t b, const uint64_t *addrs) {
  if (len == 0 || len >= sizeof dm->text) return -1;
  int32_t lo = 0, hi = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    int lane = __builtin_ctz(m);
    __int128 off = (__int128)addrs[lane] - (__int128)b;
    if (off < INT32_MIN || off > INT32_MAX) {
      dm->len = 0;
      return -1;
    }
    dm->off[lane] = (int32_t)off;
    if (off < lo) lo = (int32_t)off;
    if (off > hi) hi = (int32_t)off;
  }
  uint64_t entries[TRACE_WARP_SIZE];
  dm->form = (uint8_t)trace_addrs_pack(addrs, mask, entries);
  dm->mask = mask;
  dm->lo = lo;
  dm->hi = hi;
  dm->len = (uint8_t)len;
  memcpy(dm->text, text, len);
  return dm->form;
}

/* The address field, as parse_addresses in trace_inst.c reads it, of the instruction at pc;
 * *form as trace_inst.h's *addr_form. */
static const char *addresses(const inst_context *ctx, uint64_t pc, const char *p,
                             const char *end, uint32_t mask, uint64_t *addrs, int *form) {
  *form = -1;
  int mode;
  if (!(p = int_token(tp_skip_blanks(p), 0, 2, &mode))) return NULL;
  memset(addrs, 0, TRACE_WARP_SIZE * sizeof *addrs);
  if (mode == 0) {
    for (uint32_t m = mask; m; m &= m - 1)
      if (!(p = hex_token(tp_skip_blanks(p), &addrs[__builtin_ctz(m)]))) return NULL;
    return p;
  }
  uint64_t a;
  int64_t step = 0;
  if (!(p = hex_token(tp_skip_blanks(p), &a))) return NULL;
  if (mode == 1 && !(p = i64_token(tp_skip_blanks(p), &step))) return NULL;
  if (!mask) return p;
  if (mode == 1) {
    /* One stride: the lanes run one way, so the last is the one that may leave the 64-bit
     * address space (the strict reader stops at the first that does: the same answer). */
    __int128 last = (__int128)a + (__int128)step * (__builtin_popcount(mask) - 1);
    if (last < 0 || last > (__int128)UINT64_MAX) return NULL;
    if (mask == 0xffffffffu) {
      for (int lane = 0; lane < TRACE_WARP_SIZE; lane++, a += (uint64_t)step) addrs[lane] = a;
    } else {
      for (uint32_t m = mask; m; m &= m - 1, a += (uint64_t)step) addrs[__builtin_ctz(m)] = a;
    }
    return p;
  }
  /* Deltas: the memo's, when the last line in this PC's slot had the same mask and deltas */
  delta_memo *dm = ctx->deltas ? &ctx->deltas[memo_slot(pc)] : NULL;
  if (dm && dm->len && dm->mask == mask && repeats(p, end, dm->text, dm->len)) {
    if (!memo_lanes(dm, a, mask, addrs)) return NULL;
    *form = dm->form;
    return p + dm->len;
  }
  /* else read: a lane outside the 64-bit address space is noted, and tested once for the line */
  const char *text = p;
  uint64_t base = a;
  int outside = 0;
  addrs[__builtin_ctz(mask)] = a;
  for (uint32_t m = mask & (mask - 1); m; m &= m - 1) {
    /* most deltas are one digit after one space (lanes a word apart); each byte is read only
     * once the one before it is known not to end the line */
    if (p[0] == ' ') {
      unsigned digit = (unsigned)(unsigned char)p[1] - '0';
      if (digit <= 9 && tp_ends_token(p[2])) {
        p += 2;
        a += digit;
        outside |= a < digit;
        addrs[__builtin_ctz(m)] = a;
        continue;
      }
    }
    if (!(p = i64_token(tp_skip_blanks(p), &step))) return NULL;
    uint64_t next = a + (uint64_t)step;
    outside |= step >= 0 ? next < a : next > a;
    a = next;
    addrs[__builtin_ctz(m)] = a;
  }
  if (outside) return NULL;
  /* (the form the memo takes is this line's too: the kernel reader need not test for it) */
  if (dm) *form = remember_deltas(dm, mask, text, (size_t)(p - text), base, addrs);
  return p;
}

/* The operands between the mask and the addresses, from p: the counts and registers, the
 * opcode and the memory width, into op (its pc and line left alone), *mem_width and
 * *modifier_width. Where they end, or NULL. */
static const char *operands(const inst_context *ctx, const char *p, trace_op *op,
                            int *mem_width, int *modifier_width) {
  int n;
  if (!(p = int_token(tp_skip_blanks(p), 0, TRACE_MAX_DST, &n)) ||
      !(p = reg_list(p, n, op->dst, &op->ndst)))
    return NULL;

  const char *opcode = tp_skip_blanks(p);
  size_t len = 0;
  while (!tp_ends_token(opcode[len])) len++;
  /* Most lines find their opcode in the cache; the others decode a copy (which fills it). */
  int index;
  const opcode_cache_entry *e = trace_opcode_cached(ctx, opcode, len);
  if (e && e->op >= 0 && !memcmp(e->text, opcode, len) && !e->text[len]) {
    index = e->op;
    *modifier_width = e->width;
  } else {
    char text[sizeof e->text];
    if (len >= sizeof text) return NULL;
    memcpy(text, opcode, len);
    text[len] = '\0';
    if (trace_opcode_decode(ctx, text, &index, modifier_width) < 0) return NULL;
  }
  const opcode_class *cls = opcode_get(index);
  op->opcode = (uint16_t)index;
  op->kind = cls->kind;
  op->unit = cls->unit;
  op->space = cls->space;

  if (!(p = int_token(tp_skip_blanks(opcode + len), 0, TRACE_MAX_SRC, &n)) ||
      !(p = reg_list(p, n, op->src, &op->nsrc)))
    return NULL;
  return int_token(tp_skip_blanks(p), 0, 255, mem_width);
}

/* The operands through the memo: a line whose PC's last line had the same operand text (every
 * warp runs the same instructions) takes what that one read. The text is compared only as far
 * as the line goes, and must end where a token does. */
static const char *memo_operands(const inst_context *ctx, const char *p, const char *line_end,
                                 trace_op *op, int *mem_width, int *modifier_width) {
  p = tp_skip_blanks(p);
  inst_memo *e = ctx->memo ? &ctx->memo[memo_slot(op->pc)] : NULL;
  if (e && e->len && e->pc == op->pc && repeats(p, line_end, e->text, e->len)) {
    uint32_t line = op->line;
    *op = e->op;
    op->line = line;
    *mem_width = e->mem_width;
    *modifier_width = e->modifier_width;
    return p + e->len;
  }
  const char *end = operands(ctx, p, op, mem_width, modifier_width);
  if (e && end && (size_t)(end - p) < sizeof e->text) {
    e->pc = op->pc;
    e->len = (uint8_t)(end - p);
    memcpy(e->text, p, e->len);
    e->op = *op;
    e->op.line = 0;
    e->mem_width = (uint8_t)*mem_width;
    e->modifier_width = (uint8_t)*modifier_width;
  }
  return end;
}

int trace_parse_inst_fast(const inst_context *ctx, const char *line, size_t len, trace_op *op,
                          uint32_t *active, uint64_t *addrs, int *has_addrs, int *addr_form) {
  const char *end = line + len;
  memset(op, 0, sizeof *op);
  *has_addrs = 0;
  *addr_form = -1;
  const char *p = tp_skip_blanks(line);
  if (ctx->lineinfo) {
    int line_number;
    if (!(p = int_token(p, 0, 0x7fffffff, &line_number))) return 0;
    op->line = (uint32_t)line_number;
    p = tp_skip_blanks(p);
  }
  uint64_t x;
  if (!(p = hex_token(p, &op->pc)) || !(p = hex_token(tp_skip_blanks(p), &x)) ||
      x > 0xffffffffull)
    return 0;
  *active = (uint32_t)x;
  int mem_width, modifier_width;
  if (!(p = memo_operands(ctx, p, end, op, &mem_width, &modifier_width))) return 0;
  if (mem_width > 0) {
    if (!(p = addresses(ctx, op->pc, p, end, *active, addrs, addr_form))) return 0;
    *has_addrs = 1;
  }

  p = tp_skip_blanks(p);
  if (*p) { /* an immediate (tracer version 5 on): decimal, or hex after 0x */
    const char *end;
    int64_t simm;
    uint64_t imm;
    if (ctx->tracer_version < 5) return 0;
    if ((end = i64_token(p, &simm)) != NULL) imm = (uint64_t)simm;
    else if (p[0] != '0' || p[1] != 'x' || !(end = hex_token(p, &imm))) return 0;
    op->imm = (uint32_t)imm;
    op->has_imm = 1;
    if (*tp_skip_blanks(end)) return 0;
  }
  trace_inst_finish(ctx, op, *active, addrs, *has_addrs, mem_width, modifier_width);
  return 1;
}

/* This reader first, the strict one for the rest (and every message): here, so that the
 * strict reader's file, whose helpers this one uses, needs nothing of this one. */
int trace_parse_inst(const inst_context *ctx, char *line, size_t len, trace_op *op,
                     uint32_t *active, uint64_t *addrs, int *has_addrs, int *addr_form,
                     rf_diag *d) {
  if (trace_parse_inst_fast(ctx, line, len, op, active, addrs, has_addrs, addr_form)) return 0;
  *addr_form = -1;
  return trace_parse_inst_strict(ctx, line, op, active, addrs, has_addrs, d);
}
