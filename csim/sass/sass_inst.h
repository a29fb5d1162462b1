/* One decoded SASS instruction: its guard, mnemonic and modifiers, operands, the handler that
 * executes it and what the trace writes for it. Decoding happens once per kernel (sass_decode),
 * so execution reads only these fields. */
#ifndef RFSIM_SASS_INST_H
#define RFSIM_SASS_INST_H

#include <stdint.h>

#define SASS_MAX_OPS 8
#define SASS_MAX_MODS 10
#define SASS_OPCODE_MAX 48  /* mnemonic with modifiers, as NVBit reports it */
#define SASS_RZ 255
#define SASS_PT 7
#define SASS_TRACE_MAX_SRC 5 /* NVBit's tracer records at most five source registers */

/* operand kinds */
enum {
  SO_NONE,
  SO_REG,    /* reg: register number (255 = RZ) */
  SO_PRED,   /* reg: predicate 0..7 (7 = PT) */
  SO_CBANK,  /* c[bank][reg + ival]; reg 255 when not indexed */
  SO_IMM,    /* ival (integer view), fval (value when written as a number) */
  SO_MEM,    /* [reg + ival]; reg 255 when absolute */
  SO_SREG,   /* ival: sass_sreg */
  SO_CC,     /* the condition code register (CSETP's operand) */
  SO_SBSET,  /* DEPBAR's {n,...} or SBn: no effect on values */
  SO_PRALL,  /* PR: all predicates at once (P2R, R2P) */
  SO_CBAR,   /* B0-B15: a convergence barrier register (sm_70 on), ival its number */
};

/* operand flags */
#define SOF_NEG 0x01   /* -x */
#define SOF_ABS 0x02   /* |x| */
#define SOF_INV 0x04   /* ~x */
#define SOF_NOT 0x08   /* !P */
#define SOF_H1 0x10    /* .H1: the upper 16 bits */
#define SOF_CC 0x20    /* a destination written with .CC */
#define SOF_FLOATTXT 0x40 /* an immediate written as a decimal or special value, not hex */
#define SOF_B 0x80     /* .B0..B3 byte select in bsel (video instructions) */
#define SOF_H0 0x100   /* .H0: the lower 16 bits, where the default is the whole word */

typedef struct sass_opnd {
  uint8_t kind, bank, bsel;
  uint16_t flags, reg;
  int64_t ival;
  double fval;
} sass_opnd;

struct sass_ctx;
struct sass_inst;
/* Executes `in` for the lanes in `m` (active lanes whose guard predicate holds). Returns 0, or
 * -1 with the context's diagnostic set. Control-flow handlers also see lanes where the guard
 * fails through the context. */
typedef int (*sass_exec_fn)(struct sass_ctx *x, const struct sass_inst *in, uint32_t m);

typedef struct sass_inst {
  uint32_t pc;
  uint8_t valid;      /* 0 for control-word slots and padding past the code */
  uint8_t guard, guard_not;
  uint8_t nops, nmods;
  sass_opnd o[SASS_MAX_OPS];
  char opcode[SASS_OPCODE_MAX]; /* e.g. "XMAD.PSL.CBCC", as the trace writes it */
  char mtext[SASS_OPCODE_MAX];  /* the same split at the dots: the mnemonic, then modifiers */
  uint8_t mod_at[SASS_MAX_MODS]; /* offset of each modifier in mtext[] */
  sass_exec_fn exec;
  /* fields the opcode's prepare step sets; their meaning is the handler's */
  uint32_t f;
  uint8_t a, b, c, e;
  int32_t k;
  /* what the trace writes (NVBit's operand rule: first register operand is the destination, the
   * others and every memory operand's address register are sources) */
  int16_t tdst;
  uint8_t tnsrc, twidth, is_mem, is_ctrl;
  uint8_t own_pc; /* the handler sets its lanes' next PCs (sm_70 control flow) */
  uint8_t tsrc[SASS_TRACE_MAX_SRC];
} sass_inst;

/* special registers */
enum {
  SR_LANEID, SR_TID_X, SR_TID_Y, SR_TID_Z, SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z, SR_NTID,
  SR_EQMASK, SR_LTMASK, SR_LEMASK, SR_GTMASK, SR_GEMASK, SR_CLOCKLO, SR_CLOCKHI, SR_VIRTID,
  SR_SMEMSZ, SR_TID, SR_WARPID, SR_NSMID, SR_VIRTCFG, SR_GLOBALTIMERLO, SR_GLOBALTIMERHI,
  SR_VIRTUALSMID, SR_Z, SR_COUNT
};

#endif
