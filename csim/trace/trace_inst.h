/* Parses one instruction line of a kernel trace (private to the reader). */
#ifndef RFSIM_TRACE_INST_H
#define RFSIM_TRACE_INST_H

#include <stddef.h>

#include "trace.h"

/* Decoded full opcode strings (e.g. "LDS.U.32"): a kernel uses a few dozen, so a small
 * direct-mapped cache spares the table search and modifier scan on almost every line. */
#define OPCODE_CACHE_SLOTS 256
typedef struct opcode_cache_entry {
  char text[40];
  int16_t op;    /* -1: empty */
  uint8_t width; /* from modifiers, 0 if none */
} opcode_cache_entry;

/* The fast reader's memo of a PC's last operand text (what lies between the mask and the
 * addresses) and what it read from it: every warp of a kernel runs the same instructions. */
#define INST_MEMO_SLOTS 1024
typedef struct inst_memo {
  uint64_t pc;
  trace_op op;   /* as read from the text: before the mask and addresses decide (line 0) */
  uint8_t len;   /* of text; 0: empty */
  uint8_t mem_width, modifier_width;
  char text[61];
} inst_memo;

/* The fast reader's memo of a PC's last address deltas (mode 2) and the lanes' offsets from the
 * base they give: the warps of a kernel mostly access one pattern from bases of their own, so
 * a line whose PC's last deltas had the same mask and text adds its base to the offsets. (The
 * PC only picks the slot: the same mask and text give the same offsets at any PC.) */
#define DELTA_MEMO_TEXT 100
typedef struct delta_memo {
  uint32_t mask;
  int32_t lo, hi;                /* the least and the greatest offset */
  uint8_t form;                  /* trace_addr_form: how trace_addrs_pack packs these lanes */
  int32_t off[TRACE_WARP_SIZE];  /* by lane: its address minus the base (active lanes) */
  uint8_t len;                   /* of text; 0: empty */
  char text[DELTA_MEMO_TEXT];    /* from the end of the base to the end of the last delta */
} delta_memo;

typedef struct inst_context {
  opcode_cache_entry *cache; /* OPCODE_CACHE_SLOTS entries, or NULL */
  inst_memo *memo;           /* INST_MEMO_SLOTS entries (zeroed: empty), or NULL */
  delta_memo *deltas;        /* INST_MEMO_SLOTS entries (zeroed: empty), or NULL */
  const char *path;
  long line;
  int tracer_version;
  int lineinfo;
  uint64_t shmem_base, local_base;
} inst_context;

/* What the instruction `line` (len bytes, then a NUL; none before it, as the line reader gives
 * a line) is goes to *op (zeroed first), its active mask to *active. Addresses of memory
 * instructions go to addrs[0..31]; *has_addrs tells whether they were present, and *addr_form
 * the form trace_addrs_pack would give them where the reader knows it (they repeat the deltas
 * of a line it has packed), else -1. `line` may be modified in place. The fast reader takes
 * every line it can; an error (or an opcode too long for the opcode cache) goes to the strict
 * one, which names what is wrong. */
int trace_parse_inst(const inst_context *ctx, char *line, size_t len, trace_op *op,
                     uint32_t *active, uint64_t *addrs, int *has_addrs, int *addr_form,
                     rf_diag *d);
/* The strict reader alone: `line` is modified in place. */
int trace_parse_inst_strict(const inst_context *ctx, char *line, trace_op *op,
                            uint32_t *active, uint64_t *addrs, int *has_addrs, rf_diag *d);
/* The fast reader alone (trace_inst_fast.c): 1 with the same results as the strict reader, or 0
 * when it leaves the line to it (the outputs then hold nothing to use). It never modifies the
 * line, and gives 1 exactly for the lines the strict reader accepts, but for an opcode too long
 * for the opcode cache. */
int trace_parse_inst_fast(const inst_context *ctx, const char *line, size_t len, trace_op *op,
                          uint32_t *active, uint64_t *addrs, int *has_addrs, int *addr_form);

/* Shared by both readers. The cache slot for an opcode's text (its first `len` bytes), or NULL
 * without a cache or for a text too long for one; the slot holds it if e->op >= 0 and e->text is
 * that text. */
const opcode_cache_entry *trace_opcode_cached(const inst_context *ctx, const char *opcode,
                                              size_t len);
/* An opcode's text (NUL-terminated) as its table index and the width its modifiers name (0 if
 * none), through the cache; -1 if it is no SASS opcode. */
int trace_opcode_decode(const inst_context *ctx, const char *opcode, int *op, int *width);
/* What the operands decide once the line is read: an access without addresses or threads is an
 * ALU op; a memory op gets its width (the modifiers', else the line's) and its space. */
void trace_inst_finish(const inst_context *ctx, trace_op *op, uint32_t active,
                       const uint64_t *addrs, int has_addrs, int mem_width, int modifier_width);

#endif
