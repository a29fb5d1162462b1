/* SASS opcode classification shared by the reader and the tools. The table is the union of the
 * Kepler..Ampere mnemonics NVBit reports; classes follow Accel-Sim's opcode maps (INTP/ALU ops on
 * the integer pipeline, SP, DP, SFU, tensor, memory, control). */
#ifndef RFSIM_OPCODE_H
#define RFSIM_OPCODE_H

#include <stdint.h>

typedef struct opcode_class {
  const char *name;  /* base mnemonic, before the first '.' */
  uint8_t kind;      /* op_kind */
  uint8_t unit;      /* op_unit */
  uint8_t space;     /* mem_space for memory instructions */
} opcode_class;

/* Looks up a base mnemonic of length n; returns its index or -1. */
int opcode_lookup(const char *name, int n);
const opcode_class *opcode_get(int index);

#endif
