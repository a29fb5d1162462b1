/* Unit port: one C interface per hardware unit, with two implementations behind it, the C
 * reference model and the Verilated RTL, selected per run by hw_mode.
 *
 * A unit is described once, in an X-macro descriptor file csim/hw/<tech>/<unit>.def (see
 * unit_types.h for the macros). From it come the typed structs <unit>_in, <unit>_out and
 * <unit>_state, the port table below (names, directions, widths, struct offsets) that the
 * generic code here walks to mask, compare and trace every field, the C++ glue to the Verilated
 * model (csim/hw/rtl_shim.cpp expands the same descriptor), and the Verilator -G / Yosys
 * chparam arguments (tb/hw_gen.c). Port names are the Verilog port names.
 *
 * Timing convention (identical in every mode):
 *   hw_unit_step(u, c, in, out) is ONE RISING CLOCK EDGE, the edge of cycle c.
 *   1. `in` is applied while the clock is low and combinational logic settles
 *      (waveform time c*1000 ps; the input phase of cycle c).
 *   2. The clock rises: every flop captures its _d value, which was computed from `in` and the
 *      state before the edge.
 *   3. `out` receives the outputs visible AFTER the edge with `in` still applied
 *      (waveform time c*1000+500 ps): a registered output shows the value it just captured;
 *      a combinational output shows f(new state, in).
 *   So a unit that registers its answer to a request presented in step c reports it in the
 *   `out` of that same step c (latency 1 edge); an FSM that needs k more edges shows done in
 *   the out of step c+k. The state struct reports the flops after the edge.
 *   Input fields are masked to their port width before either model sees them.
 *   hw_unit_reset() holds rst_ni low across one edge with all inputs zero, then releases it;
 *   its `out` is the outputs after reset.
 *
 * Value storage: a port of width <= 64 is a uint64_t field; a wider port (declared HW_INW /
 * HW_OUTW / HW_STATEW) is a uint32_t array, least significant word first (Verilator's VlWide
 * layout). Widths may depend on the unit's parameters; storage is sized for the declared max.
 *
 * Modes: HW_C runs the C reference only; HW_RTL runs the Verilated model only (its Verilated
 * library must be linked; see hw.mk); HW_LOCKSTEP runs both on the same inputs every step and
 * compares every output field, then every state field, masked to its width. The first
 * difference makes step() fail with
 *   "cycle N: unit <instance>: field <f>: expected (C reference) 0x.., actual (RTL) 0x..;
 *    waveform: <file or 'none'>"
 * (memories last, entry by entry, as field <mem>[<index>])
 * and the caller must stop with a non-zero status. In lockstep `out` holds the RTL's values.
 *
 * Waveforms: give the instance a hw_wave (wave.h) and every port and state field is recorded
 * under the scope <instance> (in lockstep the C reference's outputs and state too, under
 * <instance>.ref); a memory is one signal per entry, <mem>_<index>, in the scope
 * <instance>.<mem> (and <instance>.ref.<mem>). In RTL and lockstep mode the Verilated model also
 * writes its own full internal FST next to the main file:
 * <main file without .fst>.<instance>.rtl.fst.
 *
 * Threads: an instance has no shared mutable state (each Verilated model gets its own
 * VerilatedContext), so instances may be stepped on different threads; a hw_wave may not. */
#ifndef RFSIM_HW_UNIT_H
#define RFSIM_HW_UNIT_H

#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"
#include "wave.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hw_mode { HW_C = 0, HW_RTL = 1, HW_LOCKSTEP = 2 } hw_mode;

/* HW_DIR_MEM: a memory array (HW_MEM), part of the state struct, compared and traced entry by
 * entry after the flops. */
typedef enum hw_dir { HW_DIR_IN = 0, HW_DIR_OUT = 1, HW_DIR_STATE = 2, HW_DIR_MEM = 3 } hw_dir;

#define HW_MAX_PARAMS 16
#define HW_WORDS(bits) (((bits) + 31) / 32)

/* Token pasting and quoting after macro expansion, for the names unit_types.h, unit_desc.h and
 * rtl_shim.cpp build from HW_UNIT_NAME (wm_wlbuf -> wm_wlbuf_in, "wm_wlbuf", ...). */
#define HW_CAT_(a, b) a##b
#define HW_CAT(a, b) HW_CAT_(a, b)
#define HW_CAT3(a, b, c) HW_CAT(HW_CAT(a, b), c)
#define HW_STR_(x) #x
#define HW_STR(x) HW_STR_(x)

typedef struct hw_param_desc {
  const char *name; /* the Verilog parameter name */
  int64_t dflt;     /* the default: the paper's configuration */
} hw_param_desc;

typedef struct hw_port_desc {
  const char *name;   /* the Verilog port name, or the flop name for state */
  hw_dir dir;
  unsigned words;     /* 0: stored as uint64_t; else uint32_t[words], LSW first */
  size_t offset;      /* offset in the <unit>_in, _out or _state struct */
  unsigned mem_max;   /* HW_DIR_MEM: entries stored (uint64_t each); else 0 */
} hw_port_desc;

/* The Verilated side of a unit, provided by the generated shim (csim/hw/rtl_shim.cpp). */
typedef struct hw_rtl_ops {
  const int64_t *params; /* the parameter values the model was Verilated with */
  unsigned nparams;
  const char *build;     /* how it was built (verilator flags, defines) */
  int traced;            /* built with --trace-fst: can write its own FST */
  /* fst_path NULL: no tracing. Returns NULL and fills err on failure. */
  void *(*create)(const char *inst, const char *fst_path, char *err, size_t errlen);
  void (*destroy)(void *model);
  /* t < 0: do not dump this step; else dump at t (input phase) and t+500 (after the edge). */
  void (*reset)(void *model, void *out, void *state, int64_t t);
  void (*step)(void *model, const void *in, void *out, void *state, int64_t t);
} hw_rtl_ops;

typedef struct hw_unit_desc {
  const char *name; /* Verilog module name = file names = unit name */
  const char *tech; /* technique folder: rtl/<tech>/, csim/hw/<tech>/ */
  const hw_param_desc *params;
  unsigned nparams;
  const hw_port_desc *ports; /* inputs, outputs, state, in descriptor order */
  unsigned nports;
  size_t in_size, out_size, state_size;
  unsigned (*width)(unsigned port, const int64_t *params);
  void (*ref_reset)(void *state, void *out, const int64_t *params);
  void (*ref_step)(void *state, const void *in, void *out, const int64_t *params);
  const hw_rtl_ops *(*rtl)(void); /* NULL unless the unit's Verilated library is linked */
  /* HW_DIR_MEM ports: entries under given parameters; 0 for other ports */
  unsigned (*depth)(unsigned port, const int64_t *params);
  /* Further Verilated parameter sets (csim/hw/<tech>/<unit>.variants): entries are NULL unless
   * that variant's library is linked. An instance uses the linked model whose parameters equal
   * its own, so one program can hold, say, the paper's 8-CTA-slot unit and a 32-slot one. */
  const hw_rtl_ops *(*const *rtl_variants)(void);
  unsigned nvariants;
} hw_unit_desc;

typedef struct hw_unit hw_unit;

/* Verilog's $clog2: ceil(log2(x)), 0 for x <= 1. */
static inline unsigned hw_clog2(int64_t x) {
  unsigned n = 0;
  while (x > 1 && ((int64_t)1 << n) < x) n++;
  return n;
}

/* "c", "rtl", "lockstep" -> mode; -1 if none of them. */
int hw_mode_parse(const char *s, hw_mode *mode);
const char *hw_mode_name(hw_mode mode);

/* Fills p[0..desc->nparams) with the descriptor's defaults. */
void hw_params_default(const hw_unit_desc *desc, int64_t *p);
/* Sets parameter `name`; -1 (with diag) if the unit has no such parameter. */
int hw_param_set(const hw_unit_desc *desc, int64_t *p, const char *name, int64_t value,
                 rf_diag *d);
int hw_param_index(const hw_unit_desc *desc, const char *name); /* -1 if absent */

/* Creates an instance. inst: instance name (NULL: the unit name), used in messages and as the
 * waveform scope ("sm3.wm_wlbuf" nests sm3 > wm_wlbuf). params: NULL for the defaults. wave:
 * NULL for none; its signals are added here, so create units before the first wave_tick.
 * In HW_RTL / HW_LOCKSTEP mode fails if no linked RTL library (the default build or one of its
 * variants) was Verilated with these parameter values (the message lists the linked ones and
 * says how to add one). The instance is reset on return. */
hw_unit *hw_unit_new(const hw_unit_desc *desc, const char *inst, hw_mode mode,
                     const int64_t *params, hw_wave *wave, rf_diag *d);
void hw_unit_free(hw_unit *u);

/* Reset (rst_ni low across one edge). out may be NULL. -1 on a lockstep mismatch. */
int hw_unit_reset(hw_unit *u, uint64_t cycle, void *out, rf_diag *d);
/* One rising edge of cycle `cycle` (see the timing convention above). -1 on a lockstep
 * mismatch, with the message in d. */
int hw_unit_step(hw_unit *u, uint64_t cycle, const void *in, void *out, rf_diag *d);

const hw_unit_desc *hw_unit_desc_of(const hw_unit *u);
const char *hw_unit_inst(const hw_unit *u);
hw_mode hw_unit_mode(const hw_unit *u);
const int64_t *hw_unit_params(const hw_unit *u);
/* Width in bits of port i under this instance's parameters. */
unsigned hw_unit_width(const hw_unit *u, unsigned port);
/* Entries of memory port i under this instance's parameters (0 for other ports). */
unsigned hw_unit_depth(const hw_unit *u, unsigned port);
/* The state after the last edge (the RTL's in RTL and lockstep mode). */
const void *hw_unit_state(const hw_unit *u);
/* The Verilated model's own FST, or NULL. */
const char *hw_unit_rtl_wave(const hw_unit *u);

/* Field access by port index, for generic code (tests, tracing, tools). */
uint64_t hw_field_get(const hw_port_desc *port, const void *base);
void hw_field_set(const hw_port_desc *port, void *base, uint64_t v);
/* Hex of a field masked to width bits, into buf (>= width/4 + 4 bytes). */
const char *hw_field_hex(const hw_port_desc *port, const void *base, unsigned width, char *buf,
                         size_t len);

#ifdef __cplusplus
}
#endif

#endif
