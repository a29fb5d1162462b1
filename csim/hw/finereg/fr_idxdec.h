/* fr_idxdec: FineReg's register index decoder. Typed port structs, descriptor and C reference;
 * the behaviour is documented in rtl/finereg/fr_idxdec.v and the ports in
 * csim/hw/finereg/fr_idxdec.def. */
#ifndef RFSIM_HW_FR_IDXDEC_H
#define RFSIM_HW_FR_IDXDEC_H
#define HW_UNIT_NAME fr_idxdec
#define HW_UNIT_DEF "finereg/fr_idxdec.def"
#include "../unit_types.h"
#endif
