/* Operand collectors of one SM, as GPGPU-Sim's opndcoll_rfu_t (shader.cc) steps them, in front
 * of the banked register file (regfile.h):
 *   - issue puts an instruction into its pipeline's ID_OC register (-gpgpu_pipeline_widths; in
 *     the sub-core model each scheduler owns one slot of it);
 *   - each step (-gpgpu_reg_file_port_throughput per cycle), in GPGPU-Sim's order:
 *       1. dispatch: each dispatch port (-gpgpu_operand_collector_num_out_ports_<set>) sends one
 *          collector unit of its set whose operands are all read, round robin, into the OC_EX
 *          register of the unit's pipeline if that has room;
 *       2. reads: every bank serves its oldest queued read (regfile.c);
 *       3. allocate: each input port (-gpgpu_operand_collector_num_in_ports_<set>; gen ports
 *          take every pipeline's ID_OC) moves the oldest instruction of each of its ID_OC
 *          registers into a free collector unit of its set, then of the gen set, and queues
 *          one bank read per source register (a register named twice is read twice). No free
 *          unit: the instruction waits and an oc stall is counted;
 *   - the SM's execute stage takes the oldest instruction of an OC_EX register when a
 *     functional unit (or the LD/ST unit) accepts it; writebacks claim bank ports (opcoll_write).
 * So an instruction without conflicts reaches its unit 4 cycles after issue (1 with port
 * throughput 2 less), as in GPGPU-Sim. Work per step is proportional to the instructions in
 * flight. */
#ifndef RFSIM_OPCOLL_H
#define RFSIM_OPCOLL_H

#include <stdint.h>

#include "../common/diag.h"
#include "../config/config.h"
#include "../trace/trace.h"
#include "regfile.h"

/* (opcoll.c's reg_put copies it field by field: a new field is copied there too) */
typedef struct oc_inst {
  const void *payload;   /* the caller's instruction */
  uint64_t uid;          /* issue order (opcoll_issue assigns it) */
  int warp, sched;       /* warp slot and its scheduler */
  uint8_t cls;           /* pipeline (op_unit) whose ID_OC and OC_EX registers it uses */
  uint8_t nsrc;
  uint8_t src[TRACE_MAX_SRC];
} oc_inst;

typedef struct opcoll opcoll;

/* max_write_ahead: the longest distance (cycles) between announcing a write and its cycle. */
opcoll *opcoll_create(const gpu_config *c, int max_write_ahead, rf_counters *cnt, rf_diag *d);
void opcoll_destroy(opcoll *o);
/* May scheduler sched issue into pipeline cls's ID_OC register? */
int opcoll_can_issue(const opcoll *o, int cls, int sched);
/* The same answer for every pipeline at once: per scheduler, bit cls set = cannot issue into
 * cls. The array belongs to the collector and stays current (the SM keeps the pointer). */
const uint32_t *opcoll_issue_blocked(const opcoll *o);
/* How many times a bit of those masks has cleared (a pipeline's ID_OC had room again); the
 * counter belongs to the collector and stays current, like the masks. */
const uint64_t *opcoll_unblocked(const opcoll *o);
/* Issues into ID_OC (after opcoll_can_issue said yes). */
void opcoll_issue(opcoll *o, const oc_inst *in);
/* A writeback of a warp's registers at cycle at (see rf_write). */
void opcoll_write(opcoll *o, int warp, int sched, const uint8_t *regs, int n, uint64_t at);
/* One cycle of the collector at now; 1 if anything moved. */
int opcoll_cycle(opcoll *o, uint64_t now);
/* The OC_EX register of pipeline cls: the slot of its oldest instruction (only slot `slot` when
 * slot >= 0, the sub-core model's partitioned units), or -1. */
int opcoll_ex_ready(const opcoll *o, int cls, int slot);
const oc_inst *opcoll_ex_inst(const opcoll *o, int cls, int slot);
void opcoll_ex_pop(opcoll *o, int cls, int slot);
/* Bit cls set: pipeline cls's OC_EX register holds an instruction. */
uint32_t opcoll_ex_busy(const opcoll *o);
/* Instructions anywhere in ID_OC, collector units or OC_EX. */
int opcoll_in_flight(const opcoll *o);
const rf_banks *opcoll_banks(const opcoll *o);

#endif
