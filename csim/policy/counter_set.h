/* A policy's statistics kept as a counter set: a struct whose every field is a uint64_t. Each
 * SM counts in its own set (so that SMs stepped on several threads never write the same
 * counter), the dispatcher in another; a kernel's figures are their sum in SM order, the run's
 * the kernels' sum. A field adds up unless it is a peak, which keeps the maximum. */
#ifndef RFSIM_POLICY_COUNTER_SET_H
#define RFSIM_POLICY_COUNTER_SET_H

#include <stddef.h>
#include <stdint.h>

typedef struct counter_set {
  size_t n;        /* uint64_t fields: COUNTER_SET_SIZE(type) */
  uint64_t peaks;  /* field i is a peak when bit i is set: COUNTER_PEAK(type, field) | ... */
} counter_set;

#define COUNTER_SET_SIZE(type) (sizeof(type) / sizeof(uint64_t))
/* A peak among the first 64 fields (a later one shifts too far, which the compiler rejects). */
#define COUNTER_PEAK(type, field) (1ull << (offsetof(type, field) / sizeof(uint64_t)))

/* sum += more, field by field. */
void counter_set_add(const counter_set *c, void *sum, const void *more);

/* out = own (NULL: none) + every SM's set, in SM order. SM i's set is at sm0 + i * stride
 * bytes: the SMs' states are an array, each holding its set (&sm[0].kern, sizeof sm[0]). */
void counter_set_sum_sms(const counter_set *c, void *out, const void *own, const void *sm0,
                         size_t stride, int n_sms);

/* A kernel starts: the last one's sets (own, NULL for none, and every SM's) join `total` and
 * start again from 0. */
void counter_set_next_kernel(const counter_set *c, void *total, void *own, void *sm0,
                             size_t stride, int n_sms);

#endif
