/* rs_share: register sharing's per-SM state and lock logic. Typed port structs, descriptor and
 * C reference; the behaviour is documented in rtl/regshare/rs_share.v and the ports in
 * csim/hw/regshare/rs_share.def. */
#ifndef RFSIM_HW_RS_SHARE_H
#define RFSIM_HW_RS_SHARE_H
#define HW_UNIT_NAME rs_share
#define HW_UNIT_DEF "regshare/rs_share.def"
#include "../unit_types.h"
#endif
