/* larf_mc: LARF's mapping controller. Typed port structs, descriptor and C reference; the
 * behaviour is documented in rtl/larf/larf_mc.v and the ports in csim/hw/larf/larf_mc.def. */
#ifndef RFSIM_HW_LARF_MC_H
#define RFSIM_HW_LARF_MC_H
#define HW_UNIT_NAME larf_mc
#define HW_UNIT_DEF "larf/larf_mc.def"
#include "../unit_types.h"
#endif
