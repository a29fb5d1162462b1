/* Floating-point helpers for the float, double and conversion handlers: operand reads with
 * |x| and -x, flushing denormals (.FTZ), the GPU's canonical NaN, saturation, and arithmetic
 * in a chosen IEEE rounding mode (the host's, switched only around non-default modes). */
#ifndef RFSIM_SASS_FP_H
#define RFSIM_SASS_FP_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sass_ctx.h"

enum { RND_RN, RND_RZ, RND_RM, RND_RP };

static inline float sass_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static inline uint32_t sass_u32(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static inline double sass_f64(uint64_t u) {
  double f;
  memcpy(&f, &u, 8);
  return f;
}
static inline uint64_t sass_u64(double f) {
  uint64_t u;
  memcpy(&u, &f, 8);
  return u;
}

static inline float sass_ftz(float f) {
  return (fpclassify(f) == FP_SUBNORMAL) ? copysignf(0.0f, f) : f;
}
/* NaN results are the canonical 0x7fffffff on the GPU (PTX ISA, "Floating Point") */
static inline uint32_t sass_fbits(float f) { return isnan(f) ? 0x7fffffffu : sass_u32(f); }
static inline uint64_t sass_dbits(double f) {
  return isnan(f) ? 0xfff8000000000000ull : sass_u64(f);
}
static inline float sass_fsat(float f) { return isnan(f) || f < 0 ? 0.0f : f > 1 ? 1.0f : f; }

/* A float source operand with |x| then -x applied; an immediate written as a number is that
 * value, one written in hex is the bits. */
static inline float sass_fsrc(sass_ctx *x, const sass_opnd *o, int l, int ftz) {
  float f = (o->kind == SO_IMM && (o->flags & SOF_FLOATTXT)) ? (float)o->fval
                                                              : sass_f32(sass_src(x, o, l));
  if (o->flags & SOF_ABS) f = fabsf(f);
  if (o->flags & SOF_NEG) f = -f;
  return ftz ? sass_ftz(f) : f;
}
static inline double sass_dsrc(sass_ctx *x, const sass_opnd *o, int l) {
  double f = (o->kind == SO_IMM) ? o->fval : sass_f64(sass_src64(x, o, l));
  if (o->flags & SOF_ABS) f = fabs(f);
  if (o->flags & SOF_NEG) f = -f;
  return f;
}

/* a op b (and fma) in rounding mode rnd */
float sass_fadd_r(float a, float b, int rnd);
float sass_fmul_r(float a, float b, int rnd);
float sass_ffma_r(float a, float b, float c, int rnd);
double sass_dadd_r(double a, double b, int rnd);
double sass_dmul_r(double a, double b, int rnd);
double sass_dfma_r(double a, double b, double c, int rnd);
/* x rounded to an integral value by rnd (nearest even, toward zero, down, up) */
double sass_round_int(double x, int rnd);

/* float comparison by the CMP_* code, ordered or unordered */
int sass_fcmp(int cmp, double a, double b);

#endif
