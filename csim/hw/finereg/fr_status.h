/* fr_status: FineReg's CTA status monitor. Typed port structs, descriptor and C reference;
 * the behaviour is documented in rtl/finereg/fr_status.v and the ports in
 * csim/hw/finereg/fr_status.def. */
#ifndef RFSIM_HW_FR_STATUS_H
#define RFSIM_HW_FR_STATUS_H
#define HW_UNIT_NAME fr_status
#define HW_UNIT_DEF "finereg/fr_status.def"
#include "../unit_types.h"
#endif
