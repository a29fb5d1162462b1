/* fr_pcrf: FineReg's PCRF tag array and chain walker. Typed port structs, descriptor and C
 * reference; the behaviour is documented in rtl/finereg/fr_pcrf.v and the ports in
 * csim/hw/finereg/fr_pcrf.def. */
#ifndef RFSIM_HW_FR_PCRF_H
#define RFSIM_HW_FR_PCRF_H
#define HW_UNIT_NAME fr_pcrf
#define HW_UNIT_DEF "finereg/fr_pcrf.def"
#include "../unit_types.h"
#endif
