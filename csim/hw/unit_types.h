/* Expands a unit descriptor into its C types. Include it, without include guard, after
 * defining HW_UNIT_NAME (the unit name, an identifier) and HW_UNIT_DEF (the descriptor file,
 * relative to csim/hw/), e.g. in csim/hw/warpman/wm_wlbuf.h:
 *
 *   #define HW_UNIT_NAME wm_wlbuf
 *   #define HW_UNIT_DEF "warpman/wm_wlbuf.def"
 *   #include "../unit_types.h"
 *
 * It declares: <unit>_in, <unit>_out, <unit>_state (one field per port/flop, named as in the
 * Verilog), the parameter indices <unit>_P_<NAME> and <unit>_NPARAMS, the descriptor
 * <unit>_desc, the C reference functions the unit's .c must define,
 *   void <unit>_ref_reset(<unit>_state *s, <unit>_out *o, const int64_t *p);
 *   void <unit>_ref_step(<unit>_state *s, const <unit>_in *in, <unit>_out *o, const int64_t *p);
 * and typed wrappers <unit>_new / <unit>_step / <unit>_reset over unit.h.
 *
 * The descriptor is a list of these macros (one per line, in this order of kinds or mixed):
 *   HW_PARAM(NAME, default)        a Verilog parameter; read it in widths as HW_P(NAME)
 *   HW_IN(name, width)             an input port of width <= 64 bits (uint64_t field)
 *   HW_OUT(name, width)            an output port of width <= 64 bits
 *   HW_STATE(name, width)          a flop (reg) to trace and compare, <= 64 bits; the Verilog
 *                                  reg must carry the comment  / *verilator public_flat_rd* /
 *   HW_INW / HW_OUTW / HW_STATEW(name, width, max_width)
 *                                  the same for ports that may be wider than 64 bits
 *                                  (uint32_t words; under parameters that make them 64 bits or
 *                                  less the shim converts from Verilator's scalar types)
 *   HW_MEM(name, width, depth, max_depth)
 *                                  a memory array  reg [width-1:0] name [0:depth-1]  (width
 *                                  <= 64), traced and compared entry by entry: a state field
 *                                  uint64_t name[max_depth]; depth is a C expression like
 *                                  width. An SRAM is not reset: the C reference's reset must
 *                                  leave it as it is (both models start at 0); a flop array
 *                                  the RTL resets is reset in the C reference too.
 * width is a C expression over HW_P(...) and hw_clog2(); it must equal the Verilog width.
 * clk_i and rst_ni are implicit and not listed. */
#include "unit.h"

#ifndef HW_UNIT_NAME
#error "define HW_UNIT_NAME before including unit_types.h"
#endif
#ifndef HW_UNIT_DEF
#error "define HW_UNIT_DEF before including unit_types.h"
#endif

#define HW_U_(suffix) HW_CAT(HW_UNIT_NAME, suffix)

/* ---- parameter indices ---- */
#define HW_PARAM(n, dflt) HW_CAT3(HW_UNIT_NAME, _P_, n),
enum {
#include "unit_def_expand.h"
  HW_U_(_NPARAMS)
};

/* ---- structs: one per direction; hw_end_ keeps a struct non-empty and is never used ---- */
#define HW_IN(n, w) uint64_t n;
#define HW_INW(n, w, mw) uint32_t n[HW_WORDS(mw)];
typedef struct HW_U_(_in) {
#include "unit_def_expand.h"
  unsigned char hw_end_;
} HW_U_(_in);

#define HW_OUT(n, w) uint64_t n;
#define HW_OUTW(n, w, mw) uint32_t n[HW_WORDS(mw)];
typedef struct HW_U_(_out) {
#include "unit_def_expand.h"
  unsigned char hw_end_;
} HW_U_(_out);

#define HW_STATE(n, w) uint64_t n;
#define HW_STATEW(n, w, mw) uint32_t n[HW_WORDS(mw)];
#define HW_MEM(n, w, d, md) uint64_t n[md];
typedef struct HW_U_(_state) {
#include "unit_def_expand.h"
  unsigned char hw_end_;
} HW_U_(_state);

#ifdef __cplusplus
extern "C" {
#endif
extern const hw_unit_desc HW_U_(_desc);
void HW_U_(_ref_reset)(HW_U_(_state) *s, HW_U_(_out) *o, const int64_t *p);
void HW_U_(_ref_step)(HW_U_(_state) *s, const HW_U_(_in) *in, HW_U_(_out) *o,
                      const int64_t *p);
#ifdef __cplusplus
}
#endif

#ifndef __cplusplus
static inline hw_unit *HW_U_(_new)(const char *inst, hw_mode mode, const int64_t *params,
                                   hw_wave *wave, rf_diag *d) {
  return hw_unit_new(&HW_U_(_desc), inst, mode, params, wave, d);
}
static inline int HW_U_(_step)(hw_unit *u, uint64_t cycle, const HW_U_(_in) *in,
                               HW_U_(_out) *out, rf_diag *d) {
  return hw_unit_step(u, cycle, in, out, d);
}
static inline int HW_U_(_reset)(hw_unit *u, uint64_t cycle, HW_U_(_out) *out, rf_diag *d) {
  return hw_unit_reset(u, cycle, out, d);
}
#endif

#undef HW_U_
#undef HW_UNIT_NAME
#undef HW_UNIT_DEF
