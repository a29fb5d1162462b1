#include "sass_decode.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OPND_TEXT_MAX 96

static const char *const sreg_names[SR_COUNT] = {
    [SR_LANEID] = "SR_LANEID",     [SR_TID_X] = "SR_TID.X",     [SR_TID_Y] = "SR_TID.Y",
    [SR_TID_Z] = "SR_TID.Z",       [SR_CTAID_X] = "SR_CTAID.X", [SR_CTAID_Y] = "SR_CTAID.Y",
    [SR_CTAID_Z] = "SR_CTAID.Z",   [SR_NTID] = "SR_NTID",       [SR_EQMASK] = "SR_EQMASK",
    [SR_LTMASK] = "SR_LTMASK",     [SR_LEMASK] = "SR_LEMASK",   [SR_GTMASK] = "SR_GTMASK",
    [SR_GEMASK] = "SR_GEMASK",     [SR_CLOCKLO] = "SR_CLOCKLO", [SR_CLOCKHI] = "SR_CLOCKHI",
    [SR_VIRTID] = "SR_VIRTID",     [SR_SMEMSZ] = "SR_SMEMSZ",   [SR_TID] = "SR_TID",
    [SR_WARPID] = "SR_WARPID",     [SR_NSMID] = "SR_NSMID",     [SR_VIRTCFG] = "SR_VIRTCFG",
    [SR_GLOBALTIMERLO] = "SR_GLOBALTIMERLO", [SR_GLOBALTIMERHI] = "SR_GLOBALTIMERHI",
    [SR_VIRTUALSMID] = "SR_VIRTUALSMID", [SR_Z] = "SRZ",
};

const char *sass_mod(const sass_inst *in, int i) {
  return i < in->nmods ? in->mtext + in->mod_at[i] : NULL;
}

/* An integer: hex (0x...) or decimal, with an optional sign. *is_dec tells which. */
static int parse_int(const char *s, int64_t *v, int *is_dec) {
  int neg = 0;
  if (*s == '-' || *s == '+') neg = *s++ == '-';
  if (!isdigit((unsigned char)*s)) return -1;
  char *end;
  errno = 0;
  int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  unsigned long long u = strtoull(s, &end, hex ? 16 : 10);
  if (errno || *end) return -1;
  *v = neg ? -(int64_t)u : (int64_t)u;
  *is_dec = !hex;
  return 0;
}

static int parse_float(const char *s, double *v) {
  int neg = 0;
  const char *t = s;
  if (*t == '-' || *t == '+') neg = *t++ == '-';
  if (!strcmp(t, "INF")) *v = INFINITY;
  else if (!strcmp(t, "QNAN") || !strcmp(t, "NAN") || !strcmp(t, "SNAN")) *v = NAN;
  else {
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return (*end || end == s) ? -1 : 0;
  }
  if (neg) *v = -*v;
  return 0;
}

/* "R12", "RZ": register number; -1 if not a register. */
static int reg_num(const char *s, const char **rest) {
  if (s[0] != 'R') return -1;
  if (s[1] == 'Z') {
    *rest = s + 2;
    return SASS_RZ;
  }
  if (!isdigit((unsigned char)s[1])) return -1;
  int n = 0;
  const char *p = s + 1;
  while (isdigit((unsigned char)*p) && n < 1000) n = n * 10 + (*p++ - '0');
  if (n > 254) return -1;
  *rest = p;
  return n;
}

/* Register suffixes: .reuse (operand cache hint), .CC, .H0/.H1, .B0-.B3. */
static int reg_suffixes(const char *p, sass_opnd *o) {
  while (*p == '.') {
    p++;
    if (!strncmp(p, "reuse", 5)) p += 5;
    else if (!strncmp(p, "CC", 2)) p += 2, o->flags |= SOF_CC;
    else if (!strncmp(p, "H1", 2)) p += 2, o->flags |= SOF_H1;
    else if (!strncmp(p, "H0", 2)) p += 2, o->flags |= SOF_H0;
    else if (p[0] == 'B' && p[1] >= '0' && p[1] <= '3')
      o->bsel = (uint8_t)(p[1] - '0'), o->flags |= SOF_B, p += 2;
    else return -1;
  }
  return *p ? -1 : 0;
}

/* "R5", "R5+0x10", "R5+-0x4", "0x400", "RZ": a register and an offset. */
static int reg_plus_off(const char *s, uint16_t *reg, int64_t *off) {
  const char *rest;
  int r = reg_num(s, &rest);
  int dec;
  *reg = SASS_RZ;
  *off = 0;
  if (r < 0) return parse_int(s, off, &dec);
  *reg = (uint16_t)r;
  if (!strncmp(rest, ".64", 3)) rest += 3; /* 64-bit address register pair */
  if (!strncmp(rest, ".U32", 4)) rest += 4;
  if (!*rest) return 0;
  if (*rest != '+') return -1;
  return parse_int(rest + 1, off, &dec);
}

static int parse_cbank(const char *s, sass_opnd *o) {
  /* c[0xB][0xOFF] or c[0xB] [0xOFF], the second bracket possibly "R5+0x10" */
  char inner[OPND_TEXT_MAX];
  int64_t bank;
  int dec;
  const char *close = strchr(s + 2, ']');
  if (!close || (size_t)(close - (s + 2)) >= sizeof inner) return -1;
  memcpy(inner, s + 2, (size_t)(close - (s + 2)));
  inner[close - (s + 2)] = 0;
  if (parse_int(inner, &bank, &dec) < 0 || bank < 0 || bank > 17) return -1;
  const char *p = close + 1;
  while (*p == ' ') p++;
  if (*p != '[') return -1;
  const char *close2 = strchr(p, ']');
  if (!close2 || (size_t)(close2 - (p + 1)) >= sizeof inner) return -1;
  memcpy(inner, p + 1, (size_t)(close2 - (p + 1)));
  inner[close2 - (p + 1)] = 0;
  o->kind = SO_CBANK;
  o->bank = (uint8_t)bank;
  if (reg_plus_off(inner, &o->reg, &o->ival) < 0 || o->ival < -0x10000 || o->ival > 0x10000)
    return -1;
  return reg_suffixes(close2 + 1, o);
}

const char *const sass_cc_cond_names[SASS_CC_NCOND] = {
    "F",  "LT",  "EQ",  "LE",  "GT",  "NE",  "GE",  "T",   "LO",  "HS",  "LS",  "HI",
    "SFF", "SFT", "OFF", "OFT", "NUM", "NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU"};

static int parse_operand(char *s, sass_opnd *o) {
  memset(o, 0, sizeof *o);
  o->reg = SASS_RZ;
  for (;;) { /* prefixes */
    if (*s == '!') o->flags |= SOF_NOT, s++;
    else if (*s == '-' && (s[1] == 'R' || s[1] == '|' || s[1] == 'c' || s[1] == '~'))
      o->flags |= SOF_NEG, s++;
    else if (*s == '~') o->flags |= SOF_INV, s++;
    else break;
  }
  size_t n = strlen(s);
  if (n >= 2 && s[0] == '|') { /* |x| possibly followed by suffixes: |R4|.reuse */
    char *bar = strchr(s + 1, '|');
    if (!bar) return -1;
    o->flags |= SOF_ABS;
    char tmp[OPND_TEXT_MAX];
    size_t a = (size_t)(bar - (s + 1));
    if (a + strlen(bar + 1) >= sizeof tmp) return -1;
    memcpy(tmp, s + 1, a);
    strcpy(tmp + a, bar + 1);
    uint16_t keep = o->flags;
    if (parse_operand(tmp, o) < 0) return -1;
    o->flags |= keep;
    return 0;
  }
  const char *rest;
  int r = reg_num(s, &rest);
  if (r >= 0) {
    o->kind = SO_REG;
    o->reg = (uint16_t)r;
    return reg_suffixes(rest, o);
  }
  if (s[0] == 'P' && (s[1] == 'T' || (s[1] >= '0' && s[1] <= '6')) && s[2] == 0) {
    o->kind = SO_PRED;
    o->reg = s[1] == 'T' ? SASS_PT : (uint16_t)(s[1] - '0');
    return 0;
  }
  if (s[0] == 'c' && s[1] == '[') return parse_cbank(s, o);
  if (s[0] == '[') {
    if (s[n - 1] != ']') return -1;
    s[n - 1] = 0;
    o->kind = SO_MEM;
    return reg_plus_off(s + 1, &o->reg, &o->ival);
  }
  if (s[0] == 'B' && isdigit((unsigned char)s[1]) &&
      (!s[2] || (isdigit((unsigned char)s[2]) && !s[3]))) {
    o->kind = SO_CBAR;
    o->ival = atoi(s + 1);
    return 0;
  }
  if (!strncmp(s, "SR_", 3) || !strcmp(s, "SRZ")) {
    for (int i = 0; i < SR_COUNT; i++)
      if (sreg_names[i] && !strcmp(s, sreg_names[i])) {
        o->kind = SO_SREG;
        o->ival = i;
        return 0;
      }
    return -1;
  }
  if (!strcmp(s, "CC")) {
    o->kind = SO_CC;
    o->ival = -1;
    return 0;
  }
  if (!strncmp(s, "CC.", 3)) { /* BRA CC.EQ, target: a branch taken where the condition holds */
    for (int i = 0; i < SASS_CC_NCOND; i++)
      if (!strcmp(s + 3, sass_cc_cond_names[i])) {
        o->kind = SO_CC;
        o->ival = i;
        return 0;
      }
    return -1;
  }
  if (!strcmp(s, "PR")) {
    o->kind = SO_PRALL;
    return 0;
  }
  if (s[0] == '{' || (s[0] == 'S' && s[1] == 'B' && isdigit((unsigned char)s[2]))) {
    o->kind = SO_SBSET;
    return 0;
  }
  int dec;
  o->kind = SO_IMM;
  if (parse_int(s, &o->ival, &dec) == 0) {
    o->fval = (double)o->ival;
    if (dec) o->flags |= SOF_FLOATTXT;
    return 0;
  }
  if (parse_float(s, &o->fval) == 0) {
    o->flags |= SOF_FLOATTXT;
    o->ival = (int64_t)0; /* a float written in decimal has no integer view */
    return 0;
  }
  return -1;
}

int sass_parse_inst(const char *text, sass_inst *in, rf_diag *d) {
  uint32_t pc = in->pc;
  memset(in, 0, sizeof *in);
  in->pc = pc;
  in->valid = 1;
  in->guard = SASS_PT;
  in->tdst = -1;
  const char *s = text;
  while (isspace((unsigned char)*s)) s++;
  if (*s == '@') {
    s++;
    if (*s == '!') in->guard_not = 1, s++;
    if (s[0] != 'P' || !(s[1] == 'T' || (s[1] >= '0' && s[1] <= '6')) || s[2] != ' ')
      return rf_fail(d, "expected a guard predicate @P0-@P6 or @PT, found '%.8s'", s - 1);
    in->guard = s[1] == 'T' ? SASS_PT : (uint8_t)(s[1] - '0');
    s += 3;
    while (isspace((unsigned char)*s)) s++;
  }
  size_t oplen = strcspn(s, " \t");
  if (!oplen || oplen >= SASS_OPCODE_MAX)
    return rf_fail(d, "expected an opcode of 1-%d characters, found '%.*s'",
                   SASS_OPCODE_MAX - 1, (int)(oplen > 40 ? 40 : oplen), s);
  memcpy(in->opcode, s, oplen);
  in->opcode[oplen] = 0;
  for (size_t i = 0; i < oplen; i++) {
    if (in->opcode[i] != '.') continue;
    if (in->nmods == SASS_MAX_MODS)
      return rf_fail(d, "expected at most %d modifiers, found more in '%s'", SASS_MAX_MODS,
                     in->opcode);
    in->mod_at[in->nmods++] = (uint8_t)(i + 1);
  }
  /* operands, split at commas */
  s += oplen;
  char buf[OPND_TEXT_MAX];
  while (*s) {
    while (isspace((unsigned char)*s) || *s == ',') s++;
    if (!*s) break;
    const char *e = s;
    while (*e && *e != ',') e++;
    const char *t = e;
    while (t > s && isspace((unsigned char)t[-1])) t--;
    if ((size_t)(t - s) >= sizeof buf)
      return rf_fail(d, "expected an operand of at most %zu characters in '%s'", sizeof buf - 1,
                     text);
    if (in->nops == SASS_MAX_OPS)
      return rf_fail(d, "expected at most %d operands in '%s'", SASS_MAX_OPS, text);
    memcpy(buf, s, (size_t)(t - s));
    buf[t - s] = 0;
    /* sm_70's RET writes two operands without a comma: "RET.REL.NODEC R10 0x0" */
    char *sp = strchr(buf, ' ');
    if (sp && buf[0] == 'R' && !strchr(buf, '[') && in->nops + 1 < SASS_MAX_OPS) {
      *sp = 0;
      if (parse_operand(buf, &in->o[in->nops]) == 0) {
        in->nops++;
        memmove(buf, sp + 1, strlen(sp + 1) + 1);
      } else {
        *sp = ' ';
      }
    }
    if (parse_operand(buf, &in->o[in->nops]) < 0)
      return rf_fail(d, "unsupported operand '%.*s' in '%s'", (int)(t - s), s, text);
    in->nops++;
    s = e;
  }
  memcpy(in->mtext, in->opcode, sizeof in->mtext);
  for (int i = 0; i < in->nmods; i++) in->mtext[in->mod_at[i] - 1] = 0;
  return 0;
}

/* Bytes per thread of a memory access, from the opcode's size modifier (32 bits if none). */
static int access_width(const sass_inst *in) {
  for (int i = 0; i < in->nmods; i++) {
    const char *m = sass_mod(in, i);
    if (!strcmp(m, "64") || !strcmp(m, "U64") || !strcmp(m, "S64")) return 8;
    if (!strcmp(m, "128")) return 16;
    if (!strcmp(m, "U8") || !strcmp(m, "S8")) return 1;
    if (!strcmp(m, "U16") || !strcmp(m, "S16")) return 2;
  }
  return 4;
}

void sass_trace_fields(sass_inst *in) {
  in->tdst = -1;
  in->tnsrc = 0;
  for (int i = 0; i < in->nops; i++) {
    const sass_opnd *o = &in->o[i];
    int r = -1;
    if (o->kind == SO_MEM) {
      r = o->reg;
      in->is_mem = 1;
    } else if (o->kind == SO_REG) {
      if (i == 0) {
        in->tdst = (int16_t)o->reg;
        continue;
      }
      r = o->reg;
    }
    if (r >= 0 && in->tnsrc < SASS_TRACE_MAX_SRC) in->tsrc[in->tnsrc++] = (uint8_t)r;
  }
  in->twidth = in->is_mem ? (uint8_t)access_width(in) : 0;
}
