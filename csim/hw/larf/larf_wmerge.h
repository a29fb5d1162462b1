/* larf_wmerge: LARF's w-merge shift/OR slot. Typed port structs, descriptor and C reference;
 * the behaviour is documented in rtl/larf/larf_wmerge.v and the ports in
 * csim/hw/larf/larf_wmerge.def. */
#ifndef RFSIM_HW_LARF_WMERGE_H
#define RFSIM_HW_LARF_WMERGE_H
#define HW_UNIT_NAME larf_wmerge
#define HW_UNIT_DEF "larf/larf_wmerge.def"
#include "../unit_types.h"
#endif
