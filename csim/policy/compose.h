#ifndef RFSIM_POLICY_COMPOSE_H
#define RFSIM_POLICY_COMPOSE_H

#include "policy.h"

/* Makes p (cfg, n_sms, hw_mode, wave set) the composite of occupancy policy `base` (it owns
 * cta_admit) and load technique `hook` (it owns load; csim/policy/compose.c). */
int policy_compose(policy *p, const policy_ops *base, const policy_ops *hook, rf_diag *d);

#endif
