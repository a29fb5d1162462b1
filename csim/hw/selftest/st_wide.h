/* st_wide: wide-port self-test unit (see rtl/selftest/st_wide.v). */
#ifndef RFSIM_HW_ST_WIDE_H
#define RFSIM_HW_ST_WIDE_H
#define HW_UNIT_NAME st_wide
#define HW_UNIT_DEF "selftest/st_wide.def"
#include "../unit_types.h"
#endif
