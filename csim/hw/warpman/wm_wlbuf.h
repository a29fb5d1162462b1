/* wm_wlbuf: WarpMan's single-entry workload buffer. Typed port structs, descriptor and C
 * reference; the behaviour is documented in rtl/warpman/wm_wlbuf.v and the ports in
 * csim/hw/warpman/wm_wlbuf.def. */
#ifndef RFSIM_HW_WM_WLBUF_H
#define RFSIM_HW_WM_WLBUF_H
#define HW_UNIT_NAME wm_wlbuf
#define HW_UNIT_DEF "warpman/wm_wlbuf.def"
#include "../unit_types.h"
#endif
