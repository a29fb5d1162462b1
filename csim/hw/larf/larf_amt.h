/* larf_amt: LARF's address mapping table. Typed port structs, descriptor and C reference; the
 * behaviour is documented in rtl/larf/larf_amt.v and the ports in csim/hw/larf/larf_amt.def. */
#ifndef RFSIM_HW_LARF_AMT_H
#define RFSIM_HW_LARF_AMT_H
#define HW_UNIT_NAME larf_amt
#define HW_UNIT_DEF "larf/larf_amt.def"
#include "../unit_types.h"
#endif
