/* fr_lrcache: FineReg's live-register information cache. Typed port structs, descriptor and C
 * reference; the behaviour is documented in rtl/finereg/fr_lrcache.v and the ports in
 * csim/hw/finereg/fr_lrcache.def. */
#ifndef RFSIM_HW_FR_LRCACHE_H
#define RFSIM_HW_FR_LRCACHE_H
#define HW_UNIT_NAME fr_lrcache
#define HW_UNIT_DEF "finereg/fr_lrcache.def"
#include "../unit_types.h"
#endif
