/* Overflow-checked arithmetic for sizes that come from input (trace headers, cache headers,
 * specs). A product such as grid x * y * z is computed only when it fits; otherwise the caller
 * refuses the input with the values as read, never with a wrapped result (a header of
 * (2000000000,2000000000,65529) once printed 6213456660981088256 thread blocks). Each helper
 * returns 1 and stores the result if it fits, 0 (leaving *out alone) if it does not. */
#ifndef RFSIM_CHECKED_H
#define RFSIM_CHECKED_H

#include <stdint.h>

static inline int rf_mul_u64(uint64_t a, uint64_t b, uint64_t *out) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return 0;
  *out = r;
  return 1;
}

static inline int rf_add_u64(uint64_t a, uint64_t b, uint64_t *out) {
  uint64_t r;
  if (__builtin_add_overflow(a, b, &r)) return 0;
  *out = r;
  return 1;
}

/* x * y * z of three non-negative sizes, if it is at most `limit`. */
static inline int rf_dim3_product(const int dim[3], uint64_t limit, uint64_t *out) {
  uint64_t p = 1;
  for (int i = 0; i < 3; i++)
    if (dim[i] < 0 || !rf_mul_u64(p, (uint64_t)dim[i], &p)) return 0;
  if (p > limit) return 0;
  *out = p;
  return 1;
}

#endif
