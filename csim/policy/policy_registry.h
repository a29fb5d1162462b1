#ifndef RFSIM_POLICY_REGISTRY_H
#define RFSIM_POLICY_REGISTRY_H

#include "policy.h"

extern const policy_ops policy_baseline;
extern const policy_ops policy_warpman;
extern const policy_ops policy_regshare;
extern const policy_ops policy_spshare;
extern const policy_ops policy_finereg;
extern const policy_ops policy_vt;
extern const policy_ops policy_regdram;
extern const policy_ops policy_regmutex;
extern const policy_ops policy_larf; /* a load technique: composes, -rfsim_policy <x>+larf */

#endif
