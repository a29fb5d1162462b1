/* Turns one instruction's listing text into a sass_inst: guard predicate, opcode with its
 * modifiers, and operands; then the architecture's opcode table (sass_isa.h) checks the
 * modifiers and operands it accepts and picks the handler. Anything not understood is an error
 * naming the kernel, PC and text, so an unsupported instruction can never run silently. */
#ifndef RFSIM_SASS_DECODE_H
#define RFSIM_SASS_DECODE_H

#include "../common/diag.h"
#include "sass_inst.h"

/* Parses text into *in (in->pc must be set). Does not pick the handler. */
int sass_parse_inst(const char *text, sass_inst *in, rf_diag *d);

/* Modifier i of in (e.g. "PSL"), or NULL past the last. */
const char *sass_mod(const sass_inst *in, int i);

/* The trace fields (tdst, tsrc, twidth, is_mem) by NVBit's operand rule. */
void sass_trace_fields(sass_inst *in);

#endif
