#include <string.h>

#include "policy_registry.h"

/* Adding a technique: implement a policy_ops and list it here. */
static const policy_ops *const all_policies[] = {&policy_baseline, &policy_warpman, &policy_regshare,
                                                  &policy_spshare, &policy_finereg, &policy_vt,
                                                  &policy_regdram, &policy_regmutex};

enum { N_POLICIES = sizeof all_policies / sizeof all_policies[0] };

void policy_list(char *buf, size_t n) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < N_POLICIES && used < n; i++)
    used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", all_policies[i]->name);
}

int policy_create(policy *p, const gpu_config *cfg, int n_sms, hw_mode mode, hw_wave *wave,
                  rf_diag *d) {
  memset(p, 0, sizeof *p);
  for (int i = 0; i < N_POLICIES; i++)
    if (!strcmp(all_policies[i]->name, cfg->policy))
      return policy_create_ops(p, all_policies[i], cfg, n_sms, mode, wave, d);
  char names[256];
  policy_list(names, sizeof names);
  return rf_fail(d, "-rfsim_policy: expected one of %s, found '%s'", names, cfg->policy);
}

int policy_create_ops(policy *p, const policy_ops *ops, const gpu_config *cfg, int n_sms,
                      hw_mode mode, hw_wave *wave, rf_diag *d) {
  memset(p, 0, sizeof *p);
  p->ops = ops;
  p->cfg = cfg;
  p->n_sms = n_sms;
  p->hw_mode = mode;
  p->wave = wave;
  return p->ops->create ? p->ops->create(p, d) : 0;
}

void policy_destroy(policy *p) {
  if (p->ops && p->ops->destroy) p->ops->destroy(p);
  p->ops = NULL;
}
