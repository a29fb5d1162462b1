/* The instruction line's two readers (csim/trace/trace_inst.h): the fast one takes exactly the
 * lines the strict one takes (but for an opcode too long for the opcode cache), gives exactly
 * what the strict one gives, and leaves the line as it was. Lines are written from the format
 * (every address mode, masks with gaps, RZ operands, line numbers, tracer-5 immediates, spelling
 * variants the strict reader accepts) and then damaged at random. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/trace/trace_addrs.h"
#include "../csim/trace/trace_inst.h"

static uint64_t rnd(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

typedef struct reader {
  opcode_cache_entry cache[OPCODE_CACHE_SLOTS];
  inst_memo memo[INST_MEMO_SLOTS];
  delta_memo deltas[INST_MEMO_SLOTS];
  inst_context ctx;
} reader;

static void reader_init(reader *r, int tracer_version, int lineinfo) {
  for (int i = 0; i < OPCODE_CACHE_SLOTS; i++) r->cache[i].op = -1;
  memset(r->memo, 0, sizeof r->memo);
  memset(r->deltas, 0, sizeof r->deltas);
  r->ctx = (inst_context){r->cache, r->memo, r->deltas, "test.traceg", 1, tracer_version,
                          lineinfo, 0x7f3a5c000000ull, 0x7f3a5a000000ull};
}

typedef struct parsed {
  trace_op op;
  uint32_t active;
  uint64_t addrs[TRACE_WARP_SIZE];
  int has_addrs;
} parsed;

/* 1 if the strict reader takes the line (its copy), with what it read in *p. */
static int strict(reader *r, const char *line, parsed *p) {
  char copy[2048];
  snprintf(copy, sizeof copy, "%s", line);
  memset(p, 0, sizeof *p);
  rf_diag d = {0};
  return trace_parse_inst_strict(&r->ctx, copy, &p->op, &p->active, p->addrs, &p->has_addrs,
                                 &d) == 0;
}

/* Lines whose addresses' form the fast reader knew (its memo of deltas was used). */
static long memo_forms;

/* Runs both readers on the line: whenever the fast one takes it, the strict one takes it too,
 * with the same results, the fast one leaves the line as it was, and a form it gives for the
 * addresses is the one the packer gives them. Returns whether the fast one took it. */
static int compare(reader *r, const char *line) {
  char before[2048];
  snprintf(before, sizeof before, "%s", line);
  parsed f, s;
  memset(&f, 0, sizeof f);
  int form;
  int fast =
      trace_parse_inst_fast(&r->ctx, line, strlen(line), &f.op, &f.active, f.addrs, &f.has_addrs,
                            &form);
  assert_string_equal(line, before);
  int ok = strict(r, line, &s);
  if (fast && !ok) fail_msg("the fast reader took a line the strict one rejects: '%s'", line);
  if (!fast) return 0;
  if (memcmp(&f.op, &s.op, sizeof f.op) || f.active != s.active || f.has_addrs != s.has_addrs ||
      (s.has_addrs && memcmp(f.addrs, s.addrs, sizeof f.addrs)))
    fail_msg("the readers differ on '%s'", line);
  /* a form the fast reader knows is the packer's for these lanes */
  uint64_t entries[TRACE_WARP_SIZE];
  if (form >= 0 && (!s.has_addrs || (int)trace_addrs_pack(s.addrs, s.active, entries) != form))
    fail_msg("the fast reader gave form %d for '%s'", form, line);
  memo_forms += form >= 0;
  return 1;
}

static const char *const opcodes[] = {
    "MOV",  "IMAD.MOV.U32", "LDG.E.SYS", "LDG.E.128.SYS", "STG.E.64", "LDS.U",  "STS",
    "LD.E", "ST.E.U8",      "ATOM.E.ADD", "RED.E.ADD",    "BRA",      "EXIT",   "SHFL.IDX",
    "FFMA", "LDGDEPBAR",    "BAR.SYNC",   "ISETP.GE.AND", "LDL",      "ATOMS.ADD"};
#define NOPCODES (int)(sizeof opcodes / sizeof *opcodes)

/* Appends formatted text at *n. */
static void put(char *buf, size_t cap, size_t *n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(buf + *n, cap - *n, fmt, ap);
  va_end(ap);
  if (k > 0) *n += (size_t)k < cap - *n ? (size_t)k : cap - *n - 1;
}

/* The separator between tokens: one space mostly, sometimes more blanks or a tab (the strict
 * reader takes any run of them). */
static const char *gap(uint64_t *x, int plain) {
  if (plain) return " ";
  static const char *const gaps[] = {" ", " ", " ", " ", "  ", "\t", " \t "};
  return gaps[rnd(x) % 7];
}

/* A hex number as the tracer writes it (plain: lower case, 0x only where `prefix`), or in a
 * spelling the strict reader also takes. */
static void put_hex(char *b, size_t cap, size_t *n, uint64_t v, int prefix, uint64_t *x,
                    int plain) {
  int style = plain ? 0 : (int)(rnd(x) % 6);
  if (style == 1) put(b, cap, n, "%s%llX", prefix ? "0X" : "", (unsigned long long)v);
  else if (style == 2) put(b, cap, n, "%s%020llx", prefix ? "0x" : "", (unsigned long long)v);
  else if (style == 3) put(b, cap, n, "%s%llx", prefix ? "" : "0x", (unsigned long long)v);
  else put(b, cap, n, "%s%llx", prefix ? "0x" : "", (unsigned long long)v);
}

static void put_dec(char *b, size_t cap, size_t *n, int64_t v, uint64_t *x, int plain) {
  int style = plain ? 0 : (int)(rnd(x) % 8);
  if (style == 1 && v >= 0) put(b, cap, n, "+%lld", (long long)v);
  else if (style == 2 && v >= 0) put(b, cap, n, "00%lld", (long long)v);
  else put(b, cap, n, "%lld", (long long)v);
}

static uint32_t random_mask(uint64_t *x) {
  switch (rnd(x) % 6) {
  case 0: return 0;
  case 1: return 1u << rnd(x) % 32;
  case 2: return (uint32_t)rnd(x);
  case 3: return 0x0000ffffu;
  default: return 0xffffffffu;
  }
}

/* The operand text (between the mask and the memory width) last written for each of a few
 * PCs: half the lines repeat their PC's, as every warp of a kernel repeats its instructions,
 * so that the fast reader's memo of them is tried, and the other half change it. */
#define TEMPLATE_PCS 16
static char templates[2][TEMPLATE_PCS][256];

static void make_operands(char *b, size_t cap, uint64_t *x, int plain) {
  size_t n = 0;
  int ndst = (int)(rnd(x) % 3);
  put(b, cap, &n, "%s%d", gap(x, plain), ndst);
  for (int i = 0; i < ndst; i++)
    put(b, cap, &n, "%sR%d", gap(x, plain), rnd(x) % 4 ? (int)(rnd(x) % 255) : 255);
  put(b, cap, &n, "%s%s", gap(x, plain), opcodes[rnd(x) % NOPCODES]);
  int nsrc = (int)(rnd(x) % 5);
  put(b, cap, &n, "%s%d", gap(x, plain), nsrc);
  for (int i = 0; i < nsrc; i++)
    put(b, cap, &n, "%sR%d", gap(x, plain), rnd(x) % 4 ? (int)(rnd(x) % 255) : 255);
}

/* The address deltas (mode 2) last written for each PC and the mask they go with: half the
 * lines repeat them, as the warps of a kernel mostly do, so that the fast reader's memo of
 * them is tried, and the other half change them. */
static struct {
  uint32_t mask;
  char text[1024];
} delta_templates[2][TEMPLATE_PCS];

static void make_deltas(char *b, size_t cap, uint32_t mask, uint64_t *x, int plain) {
  size_t n = 0;
  b[0] = '\0';
  for (uint32_t m = mask & (mask - 1); m; m &= m - 1) {
    put(b, cap, &n, "%s", gap(x, plain));
    int64_t delta = rnd(x) % 3 ? 4 : (int64_t)(rnd(x) % 2000) - 1000;
    if (rnd(x) % 64 == 0) delta = rnd(x) % 2 ? 3000000000ll : -3000000000ll; /* past 32 bits */
    put_dec(b, cap, &n, delta, x, plain);
  }
}

/* One line in the format; plain: in the tracer's own spelling. */
static void make_line(char *b, size_t cap, uint64_t *x, const reader *r, int plain) {
  size_t n = 0;
  if (r->ctx.lineinfo) put(b, cap, &n, "%u%s", (unsigned)(rnd(x) % 5000), gap(x, plain));
  int pc = (int)(rnd(x) % TEMPLATE_PCS);
  put_hex(b, cap, &n, (uint64_t)pc * 16 + (rnd(x) % 4 ? 0 : 0x10000), 0, x, plain);
  int repeat = delta_templates[plain][pc].text[0] && rnd(x) % 2;
  uint32_t mask = repeat ? delta_templates[plain][pc].mask : random_mask(x);
  put(b, cap, &n, "%s%08x", gap(x, plain), mask);
  char *ops = templates[plain][pc];
  if (!ops[0] || rnd(x) % 2) make_operands(ops, sizeof templates[0][0], x, plain);
  put(b, cap, &n, "%s", ops);
  static const int widths[] = {0, 0, 1, 2, 4, 8, 16, 32};
  int width = widths[rnd(x) % 8];
  put(b, cap, &n, "%s%d", gap(x, plain), width);
  if (width) {
    int mode = (int)(rnd(x) % 3);
    uint64_t base = 0x7f0000000000ull + rnd(x) % 0x100000 * 4;
    if (rnd(x) % 4 == 0) base = 0x7f3a5c000000ull + rnd(x) % 0x1000 * 4; /* generic: shared */
    if (!plain && rnd(x) % 8 == 0) /* near the ends of the address space */
      base = rnd(x) % 2 ? rnd(x) % 0x2000 : UINT64_MAX - rnd(x) % 0x2000;
    put(b, cap, &n, "%s%d%s", gap(x, plain), mode, gap(x, plain));
    if (mode == 0) {
      for (uint32_t m = mask; m; m &= m - 1) {
        put_hex(b, cap, &n, base + rnd(x) % 4096, 1, x, plain);
        if (m & (m - 1)) put(b, cap, &n, "%s", gap(x, plain));
      }
    } else {
      put_hex(b, cap, &n, base, 1, x, plain);
      if (mode == 1) {
        put(b, cap, &n, "%s", gap(x, plain));
        put_dec(b, cap, &n, (int64_t)(rnd(x) % 9) * 4 - 8, x, plain);
      }
      if (mode == 2) {
        if (!repeat) {
          make_deltas(delta_templates[plain][pc].text, sizeof delta_templates[0][0].text, mask,
                      x, plain);
          delta_templates[plain][pc].mask = mask;
        }
        put(b, cap, &n, "%s", delta_templates[plain][pc].text);
      }
    }
  }
  if (r->ctx.tracer_version >= 5 && rnd(x) % 2) {
    put(b, cap, &n, "%s", gap(x, plain));
    if (rnd(x) % 2) put(b, cap, &n, "0x%llx", (unsigned long long)(rnd(x) % 0x100000000ull));
    else put_dec(b, cap, &n, (int64_t)(rnd(x) % 2000000) - 1000000, x, plain);
  }
  if (!plain && rnd(x) % 4 == 0) put(b, cap, &n, "%s", rnd(x) % 2 ? " " : "\t");
}

/* Damages a line: a byte replaced, removed or added, or the line cut short. */
static void damage(char *b, size_t cap, uint64_t *x) {
  size_t n = strlen(b);
  if (n == 0) return;
  size_t at = rnd(x) % n;
  static const char bytes[] = "0123456789abcdefxXR -+\t.gz";
  char c = bytes[rnd(x) % (sizeof bytes - 1)];
  switch (rnd(x) % 4) {
  case 0: b[at] = c; break;
  case 1: memmove(b + at, b + at + 1, n - at); break;
  case 2:
    if (n + 1 < cap) {
      memmove(b + at + 1, b + at, n - at + 1);
      b[at] = c;
    }
    break;
  default: b[at] = '\0';
  }
}

/* The tracer's own lines: the fast reader takes every one, as the strict reader reads it. */
static void test_tracer_lines(void **state) {
  (void)state;
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int variant = 0; variant < 4; variant++) {
    reader r;
    reader_init(&r, variant & 1 ? 5 : 4, variant >> 1);
    for (int i = 0; i < 20000; i++) {
      char line[2048];
      make_line(line, sizeof line, &x, &r, 1);
      if (!compare(&r, line)) fail_msg("the fast reader left '%s' to the strict one", line);
    }
  }
  assert_true(memo_forms > 1000); /* (the memo's forms were given, and checked) */
}

/* Every spelling the strict reader takes, and damaged lines: the fast reader takes exactly the
 * lines the strict one takes, and agrees on them. */
static void test_variants_and_damage(void **state) {
  (void)state;
  uint64_t x = 0x2545f4914f6cdd1dull;
  long taken = 0, lines = 0;
  for (int variant = 0; variant < 4; variant++) {
    reader r;
    reader_init(&r, variant & 1 ? 5 : 4, variant >> 1);
    for (int i = 0; i < 40000; i++, lines++) {
      char line[2048];
      make_line(line, sizeof line, &x, &r, 0);
      if (i % 2) {
        int times = 1 + (int)(rnd(&x) % 3);
        for (int k = 0; k < times; k++) damage(line, sizeof line, &x);
      }
      parsed p;
      if (compare(&r, line)) taken++;
      else if (strict(&r, line, &p)) fail_msg("the fast reader left '%s' to the strict one", line);
    }
  }
  /* (the damage leaves a good part of the lines readable: both ways are exercised) */
  assert_true(taken > lines / 2 && taken < lines);
}

/* Lines at the edges of what each reader takes. */
static void test_edges(void **state) {
  (void)state;
  reader r;
  reader_init(&r, 5, 0);
  static const char *const taken[] = {
      "0000 ffffffff 1 R1 MOV 0 0",
      "00a0 00000000 0 BRA 0 0",
      "0x1d0 FFFFFFFF 1 R20 LDG.E.SYS 1 R18 4 2 0x7f0000064000 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 "
      "1220 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4",
      "0240 ffffffff 1 R255 LDS.U 1 R255 4 1 0x400 -4 7",
      "0240 00000003 0 STS 2 R13 R20 4 0 0x400 0x404 0xffffffff",
      "0240 00000000 0 STS 2 R13 R20 4 2 0x400",
      "0240 80000001 1 R1 LDG.E.64 1 R2 8 2 0x7f0000000000 -8",
      "0010 ffffffff 0 EXIT 0 0 -1000000",
      "0240 00000007 1 R1 LDS.U 1 R2 4 1 0xfffffffffffffff0 4",  /* up to the top */
      "0240 0000000e 1 R1 LDS.U 1 R2 4 1 0x40 -32",              /* down to 0 */
      "ffffffffffffffff ffffffff 0 EXIT 0 0",
      "00000000000000000 ffffffff 1 R1 MOV 0 0",  /* 17 hex digits */
      "0000 ffffffff 1 R+1 MOV 0 0",              /* a sign */
      "0240 ffffffff 1 R1 LDS.U 1 R2 4 1 0x400 +4",
      "0240 00000003 1 R1 LDS.U 1 R2 4 1 0x400 1234567890123456789",
      "0240 00000003 1 R1 LDS.U 1 R2 4 2 0x400 -0",
      "0010 ffffffff 0 EXIT 0 0 0x0000000000000000001",
      "0010 ffffffff 0 EXIT 0 0 -9223372036854775808",
      "0000 ffffffff 01 R1 MOV 0 0",              /* a count in two digits */
      "0000 ffffffff 1 R-0 MOV 0 0",
  };
  for (size_t i = 0; i < sizeof taken / sizeof *taken; i++)
    if (!compare(&r, taken[i])) fail_msg("the fast reader left '%s' to the strict one", taken[i]);
  /* Taken by the strict reader only: an opcode too long for the opcode cache. */
  static const char *const strict_only[] = {
      "0000 ffffffff 1 R1 MOV.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA 0 0",
  };
  parsed p;
  for (size_t i = 0; i < sizeof strict_only / sizeof *strict_only; i++) {
    if (!strict(&r, strict_only[i], &p))
      fail_msg("the strict reader rejected '%s'", strict_only[i]);
    assert_false(compare(&r, strict_only[i]));
  }
  /* Rejected by both. */
  static const char *const bad[] = {
      "0000 1ffffffff 1 R1 MOV 0 0",              /* a mask past 32 bits */
      "0000 ffffffff 1 R256 MOV 0 0",
      "0000 ffffffff 5 R1 R2 R3 R4 R5 MOV 0 0",   /* more destinations than the format has */
      "0000 ffffffff 1 R1 NOSUCHOP 0 0",
      "0240 ffffffff 1 R1 LDS.U 1 R2 4 3 0x400",  /* no address mode 3 */
      "0240 00000003 1 R1 LDS.U 1 R2 4 2 0x400",  /* a delta missing */
      "0240 00000003 1 R1 LDS.U 1 R2 4 2 0xffffffffffffffff 1", /* past the address space */
      "0240 00000003 1 R1 LDS.U 1 R2 4 2 0x0 -1",
      "0240 00000007 1 R1 LDS.U 1 R2 4 1 0xffffffffffffff00 128", /* the last lane wraps */
      "0240 00000003 1 R1 LDS.U 1 R2 4 1 0x10 -32",
      "0010 ffffffff 0 EXIT 0 0 0X10",            /* an immediate's prefix is 0x */
      "0010 ffffffff 0 EXIT 0 0 1 2",
      "0010 ffffffff 0 EXIT 0 0 4x",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    if (strict(&r, bad[i], &p)) fail_msg("the strict reader took '%s'", bad[i]);
    assert_false(compare(&r, bad[i]));
  }
  /* Before tracer version 5 an immediate is an error. */
  reader old;
  reader_init(&old, 4, 0);
  assert_false(strict(&old, "0010 ffffffff 0 EXIT 0 0 7", &p));
  assert_false(compare(&old, "0010 ffffffff 0 EXIT 0 0 7"));
}

/* The memo of a PC's deltas, line after line through one reader: it gives the lanes only for
 * the same mask and deltas (ending where a token ends), from any PC in the slot, and only inside
 * the address space; offsets past 32 bits are read each time. Each line is also compared with
 * the strict reader. */
static void test_delta_memo(void **state) {
  (void)state;
  reader r;
  reader_init(&r, 5, 0);
  static const struct {
    const char *line;
    int taken;
  } seq[] = {
      {"0240 00000007 1 R1 LDS.U 1 R2 4 2 0x400 -8 4", 1},
      {"0240 00000007 1 R1 LDS.U 1 R2 4 2 0x8 -8 4", 1},   /* from the memo: down to 0 */
      {"0240 00000007 1 R1 LDS.U 1 R2 4 2 0x7 -8 4", 0},   /* below 0 */
      {"0240 00000007 1 R1 LDS.U 1 R2 4 2 0xfffffffffffffff0 8 4", 1},
      {"0240 00000007 1 R1 LDS.U 1 R2 4 2 0xfffffffffffffff3 8 4", 1}, /* up to the top */
      {"0240 00000007 1 R1 LDS.U 1 R2 4 2 0xfffffffffffffff4 8 4", 0}, /* past it */
      {"0240 00000007 1 R1 LDS.U 1 R2 4 2 0x400 -8 4", 1},
      {"0240 00000003 1 R1 LDS.U 1 R2 4 2 0x400 -8 4", 1}, /* another mask: 4 is an immediate */
      {"0240 00000007 1 R1 LDS.U 1 R2 4 2 0x400 -8 4 7", 1},
      {"0240 00000007 1 R1 LDS.U 1 R2 4 2 0x400 -8 45", 1}, /* the text, but not its tokens */
      {"0240 00000007 1 R1 LDS.U 1 R2 4 2 0x400 -8 4", 1},
      {"0240 00000007 1 R1 LDS.U 1 R2 4 2 0x400 -8", 0},   /* cut short */
      {"0250 00000007 1 R1 LDS.U 1 R2 4 2 0x400 -8 4", 1}, /* another PC */
      {"10240 00000007 1 R1 LDS.U 1 R2 4 2 0x800 -8 4", 1}, /* the same slot */
      {"10240 00000007 1 R1 LDS.U 1 R2 4 2 0x7 -8 4", 0},
      {"0240 00000007 1 R1 LDS.U 1 R2 4 2 0x10 3000000000 -3000000000", 1}, /* past 32 bits */
      {"0240 00000007 1 R1 LDS.U 1 R2 4 2 0x20 3000000000 -3000000000", 1},
      {"0240 00000007 1 R1 LDS.U 1 R2 4 2 0xfffffffffffffff8 -9223372036854775808 "
       "-9223372036854775800", 1},
      {"0240 00000007 1 R1 LDS.U 1 R2 4 2 0x10 -9223372036854775808 -9223372036854775800", 0},
  };
  /* the memo gives the packer's form: two half-warp runs, a run, a list */
  static const struct {
    const char *deltas;
    int form;
  } forms[] = {
      {"4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 1220 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4", TRACE_ADDRS_HALVES},
      {"4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4", TRACE_ADDRS_STRIDE},
      {"4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 1220 4 4 4 4 4 4 4 4 4 4 4 4 4 4 8", TRACE_ADDRS_LANES},
  };
  for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
    for (int k = 0; k < 2; k++) {
      char line[512];
      snprintf(line, sizeof line, "0300 ffffffff 1 R1 LDG.E 1 R2 4 2 0x%x %s", 0x1000 * (k + 1),
               forms[i].deltas);
      parsed p;
      int form;
      assert_true(compare(&r, line));
      assert_true(trace_parse_inst_fast(&r.ctx, line, strlen(line), &p.op, &p.active, p.addrs,
                                        &p.has_addrs, &form));
      assert_int_equal(form, forms[i].form); /* (the memo holds the line: also on the first) */
    }
  }
  for (size_t i = 0; i < sizeof seq / sizeof *seq; i++) {
    parsed p;
    /* (each line in a heap block of its own size: a memo compared past the end of a line cut
     * short is caught by AddressSanitizer) */
    char *line = strdup(seq[i].line);
    assert_non_null(line);
    if (strict(&r, line, &p) != seq[i].taken)
      fail_msg("the strict reader %s '%s'", seq[i].taken ? "rejected" : "took", line);
    if (compare(&r, line) != seq[i].taken)
      fail_msg("the fast reader %s '%s'", seq[i].taken ? "left" : "took", line);
    free(line);
  }
}

/* The entry point: the fast reader's lines and the strict reader's alike, and the strict
 * reader's message for a line neither takes. */
static void test_entry_point(void **state) {
  (void)state;
  reader r;
  reader_init(&r, 4, 0);
  char line[] = "0240 ffffffff 1 R1 LDS.U.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA 1 R2 4 1 0x400 4";
  parsed p, s;
  assert_true(strict(&r, line, &s));
  rf_diag d = {0};
  int form = 7;
  assert_int_equal(trace_parse_inst(&r.ctx, line, strlen(line), &p.op, &p.active, p.addrs,
                                    &p.has_addrs, &form, &d),
                   0);
  assert_int_equal(form, -1);
  assert_memory_equal(&p.op, &s.op, sizeof p.op);
  assert_memory_equal(p.addrs, s.addrs, sizeof p.addrs);
  char bad[] = "0000 ffffffff 1 R256 MOV 0 0";
  assert_int_equal(trace_parse_inst(&r.ctx, bad, strlen(bad), &p.op, &p.active, p.addrs,
                                    &p.has_addrs, &form, &d),
                   -1);
  assert_string_equal(d.msg, "test.traceg:1: expected a destination register R0..R255, found "
                             "'R256'");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tracer_lines),
      cmocka_unit_test(test_variants_and_damage),
      cmocka_unit_test(test_edges),
      cmocka_unit_test(test_delta_memo),
      cmocka_unit_test(test_entry_point),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
