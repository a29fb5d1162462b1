/* sp_share: scratchpad sharing's per-SM state and access check. Typed port structs, descriptor
 * and C reference; the behaviour is documented in rtl/spshare/sp_share.v and the ports in
 * csim/hw/spshare/sp_share.def. */
#ifndef RFSIM_HW_SP_SHARE_H
#define RFSIM_HW_SP_SHARE_H
#define HW_UNIT_NAME sp_share
#define HW_UNIT_DEF "spshare/sp_share.def"
#include "../unit_types.h"
#endif
