#include <string.h>

#include "compose.h"
#include "policy_registry.h"

/* Adding a technique: implement a policy_ops and list it here. Occupancy policies own CTA
 * admission (cta_admit); load techniques own the load path (load, cta_admit NULL) and run
 * composed onto an occupancy policy: "<x>+larf" (alone, "larf" = "baseline+larf"). */
static const policy_ops *const all_policies[] = {
    &policy_baseline, &policy_warpman, &policy_regshare, &policy_spshare, &policy_finereg,
    &policy_vt,       &policy_regdram, &policy_regmutex, &policy_larf};

enum { N_POLICIES = sizeof all_policies / sizeof all_policies[0] };

void policy_list(char *buf, size_t n) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < N_POLICIES && used < n; i++)
    used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", all_policies[i]->name);
}

static const policy_ops *find_policy(const char *name, size_t len) {
  for (int i = 0; i < N_POLICIES; i++)
    if (strlen(all_policies[i]->name) == len && !strncmp(all_policies[i]->name, name, len))
      return all_policies[i];
  return NULL;
}

int policy_create(policy *p, const gpu_config *cfg, int n_sms, hw_mode mode, hw_wave *wave,
                  rf_diag *d) {
  memset(p, 0, sizeof *p);
  p->cfg = cfg;
  p->n_sms = n_sms;
  p->hw_mode = mode;
  p->wave = wave;
  char names[256];
  policy_list(names, sizeof names);
  const char *plus = strchr(cfg->policy, '+');
  size_t len1 = plus ? (size_t)(plus - cfg->policy) : strlen(cfg->policy);
  if (plus && strchr(plus + 1, '+'))
    return rf_fail(d, "-rfsim_policy '%s': expected at most two parts (<occupancy>+<load "
                   "technique>)", cfg->policy);
  const policy_ops *a = find_policy(cfg->policy, len1);
  const policy_ops *b = plus ? find_policy(plus + 1, strlen(plus + 1)) : NULL;
  if (!a || (plus && !b))
    return rf_fail(d, "-rfsim_policy: expected one of %s, or an occupancy policy and a load "
                   "technique joined by '+' (e.g. warpman+larf), found '%s'", names, cfg->policy);
  if (!b && !a->load) return policy_create_ops(p, a, cfg, n_sms, mode, wave, d);
  if (!b) b = &policy_baseline; /* "larf" alone: the baseline's admission */
  const policy_ops *base = a->load ? b : a, *hook = a->load ? a : b;
  if (base->load)
    return rf_fail(d, "-rfsim_policy '%s': %s and %s both take over the load path; combine one "
                   "load technique with one occupancy policy (e.g. warpman+larf)", cfg->policy,
                   a->name, b->name);
  if (hook->cta_admit)
    return rf_fail(d, "-rfsim_policy '%s': %s and %s both own CTA admission (occupancy "
                   "policies); combine one occupancy policy with a load technique (e.g. "
                   "%s+larf)", cfg->policy, a->name, b->name, a->name);
  return policy_compose(p, base, hook, d);
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
