/* wm_check: WarpMan's TB dispatch check (TB-level check + warp-level check of Fig. 13).
 * Typed port structs, descriptor and C reference; the behaviour is documented in
 * rtl/warpman/wm_check.v and the ports in csim/hw/warpman/wm_check.def. */
#ifndef RFSIM_HW_WM_CHECK_H
#define RFSIM_HW_WM_CHECK_H
#define HW_UNIT_NAME wm_check
#define HW_UNIT_DEF "warpman/wm_check.def"
#include "../unit_types.h"
#endif
