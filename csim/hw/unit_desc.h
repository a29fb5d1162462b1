/* Expands a unit descriptor into its hw_unit_desc definition. Include it once, at the end of
 * the unit's C reference (csim/hw/<tech>/<unit>.c), after defining HW_UNIT_NAME, HW_UNIT_DEF
 * and HW_UNIT_TECH (a string), and after <unit>_ref_reset / <unit>_ref_step. The RTL entry
 * point hw_rtl_<unit> is a weak reference: it is non-NULL exactly when the unit's generated
 * shim (build/hw/<unit>/shim.o, see hw.mk) is linked into the program.
 * A unit Verilated under further parameter sets also defines HW_UNIT_VARIANTS, its variants
 * file (csim/hw/<tech>/<unit>.variants, one `HW_VARIANT(name, P=V P=V ...)` per line, read by
 * hw.mk too); variant v's entry point hw_rtl_<unit>_<v> is weak in the same way. */
#include <stddef.h>

#include "unit.h"

#define HW_U_(suffix) HW_CAT(HW_UNIT_NAME, suffix)

/* parameters */
#define HW_PARAM(n, dflt) {#n, (dflt)},
static const hw_param_desc HW_U_(_params_)[] = {
#include "unit_def_expand.h"
    {NULL, 0}};

/* ports, with their storage and offsets */
#define HW_IN(n, w) {#n, HW_DIR_IN, 0, offsetof(HW_U_(_in), n), 0},
#define HW_OUT(n, w) {#n, HW_DIR_OUT, 0, offsetof(HW_U_(_out), n), 0},
#define HW_STATE(n, w) {#n, HW_DIR_STATE, 0, offsetof(HW_U_(_state), n), 0},
#define HW_INW(n, w, mw) {#n, HW_DIR_IN, HW_WORDS(mw), offsetof(HW_U_(_in), n), 0},
#define HW_OUTW(n, w, mw) {#n, HW_DIR_OUT, HW_WORDS(mw), offsetof(HW_U_(_out), n), 0},
#define HW_STATEW(n, w, mw) {#n, HW_DIR_STATE, HW_WORDS(mw), offsetof(HW_U_(_state), n), 0},
#define HW_MEM(n, w, d, md) {#n, HW_DIR_MEM, 0, offsetof(HW_U_(_state), n), (md)},
static const hw_port_desc HW_U_(_ports_)[] = {
#include "unit_def_expand.h"
    {NULL, HW_DIR_IN, 0, 0, 0}};

/* widths under given parameters */
#define HW_P(n) p[HW_CAT3(HW_UNIT_NAME, _P_, n)]
#define HW_IN(n, w) if (port == i++) return (unsigned)(w);
#define HW_OUT(n, w) if (port == i++) return (unsigned)(w);
#define HW_STATE(n, w) if (port == i++) return (unsigned)(w);
#define HW_INW(n, w, mw) if (port == i++) return (unsigned)(w);
#define HW_OUTW(n, w, mw) if (port == i++) return (unsigned)(w);
#define HW_STATEW(n, w, mw) if (port == i++) return (unsigned)(w);
#define HW_MEM(n, w, d, md) if (port == i++) return (unsigned)(w);
static unsigned HW_U_(_width_)(unsigned port, const int64_t *p) {
  unsigned i = 0;
  (void)p;
#include "unit_def_expand.h"
  return 0;
}

/* entries of memories under given parameters */
#define HW_IN(n, w) i++;
#define HW_OUT(n, w) i++;
#define HW_STATE(n, w) i++;
#define HW_INW(n, w, mw) i++;
#define HW_OUTW(n, w, mw) i++;
#define HW_STATEW(n, w, mw) i++;
#define HW_MEM(n, w, d, md) if (port == i++) return (unsigned)(d);
static unsigned HW_U_(_depth_)(unsigned port, const int64_t *p) {
  unsigned i = 0;
  (void)p;
  (void)port;
#include "unit_def_expand.h"
  (void)i;
  return 0;
}
#undef HW_P

static void HW_U_(_reset_thunk_)(void *s, void *o, const int64_t *p) {
  HW_U_(_ref_reset)(s, o, p);
}
static void HW_U_(_step_thunk_)(void *s, const void *in, void *o, const int64_t *p) {
  HW_U_(_ref_step)(s, in, o, p);
}

extern const hw_rtl_ops *HW_CAT(hw_rtl_, HW_UNIT_NAME)(void) __attribute__((weak));

#ifdef HW_UNIT_VARIANTS
#define HW_VARIANT(v, assignments) \
  extern const hw_rtl_ops *HW_CAT3(hw_rtl_, HW_UNIT_NAME, HW_CAT(_, v))(void) __attribute__((weak));
#include HW_UNIT_VARIANTS
#undef HW_VARIANT
#define HW_VARIANT(v, assignments) HW_CAT3(hw_rtl_, HW_UNIT_NAME, HW_CAT(_, v)),
static const hw_rtl_ops *(*const HW_U_(_variants_)[])(void) = {
#include HW_UNIT_VARIANTS
};
#undef HW_VARIANT
#define HW_U_VARIANTS_ HW_U_(_variants_), sizeof HW_U_(_variants_) / sizeof HW_U_(_variants_)[0]
#else
#define HW_U_VARIANTS_ NULL, 0
#endif

const hw_unit_desc HW_U_(_desc) = {
    HW_STR(HW_UNIT_NAME),
    HW_UNIT_TECH,
    HW_U_(_params_),
    sizeof HW_U_(_params_) / sizeof HW_U_(_params_)[0] - 1,
    HW_U_(_ports_),
    sizeof HW_U_(_ports_) / sizeof HW_U_(_ports_)[0] - 1,
    sizeof(HW_U_(_in)),
    sizeof(HW_U_(_out)),
    sizeof(HW_U_(_state)),
    HW_U_(_width_),
    HW_U_(_reset_thunk_),
    HW_U_(_step_thunk_),
    HW_CAT(hw_rtl_, HW_UNIT_NAME),
    HW_U_(_depth_),
    HW_U_VARIANTS_,
};

#undef HW_U_VARIANTS_
#undef HW_UNIT_VARIANTS

#undef HW_U_
#undef HW_UNIT_NAME
#undef HW_UNIT_DEF
#undef HW_UNIT_TECH
