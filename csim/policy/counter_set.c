#include "counter_set.h"

#include <string.h>

void counter_set_add(const counter_set *c, void *sum, const void *more) {
  uint64_t *x = sum;
  const uint64_t *y = more;
  for (size_t i = 0; i < c->n; i++) {
    if (i < 64 && (c->peaks >> i & 1)) x[i] = x[i] > y[i] ? x[i] : y[i];
    else x[i] += y[i];
  }
}

void counter_set_sum_sms(const counter_set *c, void *out, const void *own, const void *sm0,
                         size_t stride, int n_sms) {
  if (own) memcpy(out, own, c->n * sizeof(uint64_t));
  else memset(out, 0, c->n * sizeof(uint64_t));
  for (int i = 0; i < n_sms; i++) counter_set_add(c, out, (const char *)sm0 + (size_t)i * stride);
}

void counter_set_next_kernel(const counter_set *c, void *total, void *own, void *sm0,
                             size_t stride, int n_sms) {
  if (own) {
    counter_set_add(c, total, own);
    memset(own, 0, c->n * sizeof(uint64_t));
  }
  for (int i = 0; i < n_sms; i++) {
    void *sm = (char *)sm0 + (size_t)i * stride;
    counter_set_add(c, total, sm);
    memset(sm, 0, c->n * sizeof(uint64_t));
  }
}
