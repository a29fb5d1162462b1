/* The SASS the generator writes: Pascal (sm_61) mnemonics as NVBit reports them, so the traces
 * classify the same way in rfsim's opcode table and in Accel-Sim's Pascal opcode map. */
#ifndef RFSIM_TG_ISA_H
#define RFSIM_TG_ISA_H

#include "tg_rng.h"
#include "tg_spec.h"

typedef struct tg_alu_op {
  const char *name;
  int nsrc;
  int has_dst;  /* 0 for compares that write a predicate */
  int weight;   /* relative frequency within its class */
} tg_alu_op;

/* Picks an opcode of class c. */
const tg_alu_op *tg_isa_pick(tg_class c, tg_rng *r);
/* Mnemonic of a load or store of `width` bytes in `space`. */
const char *tg_isa_mem_op(tg_space space, int is_store, int width);

#endif
