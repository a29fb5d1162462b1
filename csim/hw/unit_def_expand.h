/* Expands the unit descriptor HW_UNIT_DEF once (unit_types.h lists its macros): each of HW_PARAM,
 * HW_IN, HW_OUT, HW_STATE, HW_INW, HW_OUTW, HW_STATEW and HW_MEM that the includer defined
 * writes its text, the others write nothing. All eight are undefined afterwards, so that each
 * expansion (unit_types.h, unit_desc.h, rtl_shim.cpp) defines only the kinds it writes. No
 * include guard: included once per expansion. */
#ifndef HW_PARAM
#define HW_PARAM(n, dflt)
#endif
#ifndef HW_IN
#define HW_IN(n, w)
#endif
#ifndef HW_OUT
#define HW_OUT(n, w)
#endif
#ifndef HW_STATE
#define HW_STATE(n, w)
#endif
#ifndef HW_INW
#define HW_INW(n, w, mw)
#endif
#ifndef HW_OUTW
#define HW_OUTW(n, w, mw)
#endif
#ifndef HW_STATEW
#define HW_STATEW(n, w, mw)
#endif
#ifndef HW_MEM
#define HW_MEM(n, w, d, md)
#endif

#include HW_UNIT_DEF

#undef HW_PARAM
#undef HW_IN
#undef HW_OUT
#undef HW_STATE
#undef HW_INW
#undef HW_OUTW
#undef HW_STATEW
#undef HW_MEM
