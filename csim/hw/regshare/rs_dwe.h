/* rs_dwe: register sharing's dynamic warp execution. Typed port structs, descriptor and C
 * reference; the behaviour is documented in rtl/regshare/rs_dwe.v and the ports in
 * csim/hw/regshare/rs_dwe.def. */
#ifndef RFSIM_HW_RS_DWE_H
#define RFSIM_HW_RS_DWE_H
#define HW_UNIT_NAME rs_dwe
#define HW_UNIT_DEF "regshare/rs_dwe.def"
#include "../unit_types.h"
#endif
