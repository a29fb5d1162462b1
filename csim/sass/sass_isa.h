/* The opcode tables: for each architecture, which mnemonics exist and the prepare step that
 * checks an instruction's modifiers and operands and picks its handler. Handlers live with their
 * group (sass_op_*.c); a table is per architecture (sass_isa_sm61.c), so Volta's gets its own
 * entries where the ISA differs. */
#ifndef RFSIM_SASS_ISA_H
#define RFSIM_SASS_ISA_H

#include <stdint.h>

#include "../common/diag.h"
#include "sass_inst.h"

typedef struct sass_prep {
  sass_inst *in;
  uint32_t used; /* modifiers consumed so far, one bit each */
  int sm, nregs;
  int cc_ok; /* the handler writes the condition code of a .CC destination */
  rf_diag *d;
} sass_prep;

typedef int (*sass_prep_fn)(sass_prep *p);

typedef struct sass_op_def {
  const char *name;
  sass_prep_fn prep;
} sass_op_def;

/* Looks the mnemonic up in sm's table, runs its prepare step, and checks that every modifier was
 * understood and every register operand lies within the kernel's registers. */
int sass_prepare(sass_inst *in, int sm, int nregs, rf_diag *d);
/* 1 if an opcode table exists for sm. */
int sass_isa_supported(int sm);

/* helpers for prepare steps */
int sass_take(sass_prep *p, const char *mod);
/* Index of the first of names[0..n) present (consumed), or dflt. */
int sass_take_of(sass_prep *p, const char *const *names, int n, int dflt);
int sass_bad(sass_prep *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Checks the operand count and kinds against spec: one word per operand listing the kinds it
 * may be (r register, p predicate, c constant, i immediate, m memory, s special register,
 * C condition code, b scoreboard set, A all predicates, B convergence barrier); a word
 * starting with '?' and the rest are optional,
 * e.g. "p p r rci ?p". */
int sass_shape(sass_prep *p, const char *spec);
/* The registers an operand occupies (for bounds checks), set by prepare steps for pairs and
 * quads; 1 by default. */
void sass_reg_span(sass_prep *p, int opnd, int nregs);

/* comparison and boolean codes shared by the compare instructions */
enum { CMP_F, CMP_LT, CMP_EQ, CMP_LE, CMP_GT, CMP_NE, CMP_GE, CMP_NUM, CMP_NAN, CMP_LTU, CMP_EQU,
       CMP_LEU, CMP_GTU, CMP_NEU, CMP_GEU, CMP_T, CMP_COUNT };
enum { BOP_AND, BOP_OR, BOP_XOR };
int sass_take_cmp(sass_prep *p, int allow_unordered, int *cmp);
int sass_take_bop(sass_prep *p, int *bop);
static inline uint32_t sass_bop(int bop, uint32_t a, uint32_t b) {
  return bop == BOP_AND ? a & b : bop == BOP_OR ? a | b : a ^ b;
}

extern const sass_op_def sass_ops_sm61[];
extern const sass_op_def sass_ops_sm70[];

#endif
