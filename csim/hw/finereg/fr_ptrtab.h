/* fr_ptrtab: FineReg's PCRF pointer table. Typed port structs, descriptor and C reference;
 * the behaviour is documented in rtl/finereg/fr_ptrtab.v and the ports in
 * csim/hw/finereg/fr_ptrtab.def. */
#ifndef RFSIM_HW_FR_PTRTAB_H
#define RFSIM_HW_FR_PTRTAB_H
#define HW_UNIT_NAME fr_ptrtab
#define HW_UNIT_DEF "finereg/fr_ptrtab.def"
#include "../unit_types.h"
#endif
