#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sass_decode.h"
#include "sass_isa.h"

int sass_take(sass_prep *p, const char *mod) {
  for (int i = 0; i < p->in->nmods; i++)
    if (!(p->used >> i & 1) && !strcmp(sass_mod(p->in, i), mod)) {
      p->used |= 1u << i;
      return 1;
    }
  return 0;
}

int sass_take_of(sass_prep *p, const char *const *names, int n, int dflt) {
  for (int i = 0; i < p->in->nmods; i++) {
    if (p->used >> i & 1) continue;
    for (int j = 0; j < n; j++)
      if (!strcmp(sass_mod(p->in, i), names[j])) {
        p->used |= 1u << i;
        return j;
      }
  }
  return dflt;
}

int sass_bad(sass_prep *p, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return rf_fail(p->d, "%s: %s", p->in->opcode, msg);
}

static int kind_ok(const sass_opnd *o, char k) {
  switch (k) {
  case 'r': return o->kind == SO_REG;
  case 'p': return o->kind == SO_PRED;
  case 'c': return o->kind == SO_CBANK;
  case 'i': return o->kind == SO_IMM;
  case 'm': return o->kind == SO_MEM;
  case 's': return o->kind == SO_SREG;
  case 'C': return o->kind == SO_CC;
  case 'b': return o->kind == SO_SBSET;
  case 'A': return o->kind == SO_PRALL;
  case 'B': return o->kind == SO_CBAR;
  }
  return 0;
}

int sass_shape(sass_prep *p, const char *spec) {
  /* spec: one word per operand, each the kinds it may be; a word starting with '?' and all
   * after it are optional, e.g. "p r rc ?p" */
  const char *w[SASS_MAX_OPS + 1];
  size_t len[SASS_MAX_OPS + 1];
  int max = 0, required = -1;
  for (const char *s = spec; *s && max <= SASS_MAX_OPS;) {
    while (*s == ' ') s++;
    if (!*s) break;
    if (*s == '?' && required < 0) required = max;
    if (*s == '?') s++;
    w[max] = s;
    len[max] = strcspn(s, " ");
    s += len[max];
    max++;
  }
  if (required < 0) required = max;
  if (p->in->nops < required || p->in->nops > max)
    return sass_bad(p, "expected %d%s operands, found %d", required,
                    required < max ? " or more" : "", p->in->nops);
  for (int i = 0; i < p->in->nops; i++) {
    int ok = 0;
    for (size_t k = 0; k < len[i] && !ok; k++) ok = kind_ok(&p->in->o[i], w[i][k]);
    if (!ok) return sass_bad(p, "operand %d is not of a kind this instruction takes (%.*s)",
                             i + 1, (int)len[i], w[i]);
  }
  return 0;
}

/* per-operand register span, kept beside the prepare state */
static int reg_span_of(const sass_inst *in, int i) {
  return in->o[i].bsel >> 4 ? in->o[i].bsel >> 4 : 1;
}

void sass_reg_span(sass_prep *p, int opnd, int nregs) {
  /* stored in the high nibble of bsel (video byte selects use the low two bits only) */
  p->in->o[opnd].bsel = (uint8_t)((p->in->o[opnd].bsel & 0x0f) | (nregs << 4));
}

int sass_take_cmp(sass_prep *p, int allow_unordered, int *cmp) {
  return sass_take_cmp_or(p, allow_unordered, -1, cmp);
}

int sass_take_cmp_or(sass_prep *p, int allow_unordered, int dflt, int *cmp) {
  static const char *const names[] = {"F",   "LT",  "EQ",  "LE",  "GT",  "NE",  "GE",  "NUM",
                                      "NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU", "T"};
  int c = sass_take_of(p, names, CMP_COUNT, dflt);
  if (c < 0) return sass_bad(p, "expected a comparison (.LT, .EQ, ...)");
  if (!allow_unordered && (c >= CMP_NUM && c <= CMP_GEU))
    return sass_bad(p, "unordered comparison .%s on integers", names[c]);
  *cmp = c;
  return 0;
}

int sass_take_bop(sass_prep *p, int *bop) {
  static const char *const names[] = {"AND", "OR", "XOR"};
  *bop = sass_take_of(p, names, 3, -1);
  return *bop < 0 ? sass_bad(p, "expected a boolean operation (.AND, .OR, .XOR)") : 0;
}

static const sass_op_def *lookup(const sass_op_def *t, const char *name) {
  for (; t->name; t++)
    if (!strcmp(t->name, name)) return t;
  return NULL;
}

int sass_isa_supported(int sm) { return (sm >= 50 && sm <= 62) || (sm >= 70 && sm <= 72); }

int sass_prepare(sass_inst *in, int sm, int nregs, rf_diag *d) {
  const sass_op_def *table = sm >= 70 ? sass_ops_sm70 : sass_ops_sm61;
  const sass_op_def *def = sass_isa_supported(sm) ? lookup(table, in->mtext) : NULL;
  if (!def)
    return rf_fail(d, "unsupported instruction %s for sm_%d", in->opcode, sm);
  sass_prep p = {.in = in, .sm = sm, .nregs = nregs, .d = d};
  /* the trace's operands are the listing's, before a prepare step reshapes them */
  sass_trace_fields(in);
  if (def->prep(&p) < 0) return -1;
  for (int i = 0; i < in->nmods; i++)
    if (!(p.used >> i & 1))
      return rf_fail(d, "%s: unsupported modifier .%s", in->opcode, sass_mod(in, i));
  for (int i = 0; i < in->nops; i++) {
    const sass_opnd *o = &in->o[i];
    if ((o->flags & SOF_CC) && !p.cc_ok)
      return rf_fail(d, "%s: writing the condition code (.CC) is not supported", in->opcode);
    int r = (o->kind == SO_REG) ? o->reg : (o->kind == SO_MEM || o->kind == SO_CBANK) ? o->reg : -1;
    int span = o->kind == SO_REG ? reg_span_of(in, i) : 1;
    if (r >= 0 && r != SASS_RZ && r + span > nregs)
      return rf_fail(d, "%s uses R%d%s, beyond the %d registers the kernel declares", in->opcode,
                     r + span - 1, span > 1 ? " (a register group)" : "", nregs);
    in->o[i].bsel &= 0x0f;
  }
  return 0;
}
