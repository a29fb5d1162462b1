#include "sass_fp.h"

#include <fenv.h>

#include "sass_isa.h"

/* The host computes in round-to-nearest-even, as the GPU's default; other modes are switched on
 * around the one operation. The operands pass through volatile so the compiler cannot fold or
 * move the operation out of the switched region. */
static int host_mode(int rnd) {
  return rnd == RND_RZ ? FE_TOWARDZERO : rnd == RND_RM ? FE_DOWNWARD : FE_UPWARD;
}

#define IN_MODE(rnd, expr)                 \
  do {                                     \
    if ((rnd) == RND_RN) return (expr);    \
    int saved_ = fegetround();             \
    fesetround(host_mode(rnd));            \
    volatile __typeof__(expr) r_ = (expr); \
    fesetround(saved_);                    \
    return r_;                             \
  } while (0)

float sass_fadd_r(float a, float b, int rnd) {
  volatile float va = a, vb = b;
  IN_MODE(rnd, va + vb);
}
float sass_fmul_r(float a, float b, int rnd) {
  volatile float va = a, vb = b;
  IN_MODE(rnd, va * vb);
}
float sass_ffma_r(float a, float b, float c, int rnd) {
  volatile float va = a, vb = b, vc = c;
  IN_MODE(rnd, fmaf(va, vb, vc));
}
double sass_dadd_r(double a, double b, int rnd) {
  volatile double va = a, vb = b;
  IN_MODE(rnd, va + vb);
}
double sass_dmul_r(double a, double b, int rnd) {
  volatile double va = a, vb = b;
  IN_MODE(rnd, va * vb);
}
double sass_dfma_r(double a, double b, double c, int rnd) {
  volatile double va = a, vb = b, vc = c;
  IN_MODE(rnd, fma(va, vb, vc));
}

double sass_round_int(double x, int rnd) {
  switch (rnd) {
  case RND_RZ: return trunc(x);
  case RND_RM: return floor(x);
  case RND_RP: return ceil(x);
  }
  return nearbyint(x); /* the host's default mode: to nearest even */
}

int sass_fcmp(int cmp, double a, double b) {
  int un = isnan(a) || isnan(b);
  switch (cmp) {
  case CMP_F: return 0;
  case CMP_LT: return !un && a < b;
  case CMP_EQ: return !un && a == b;
  case CMP_LE: return !un && a <= b;
  case CMP_GT: return !un && a > b;
  case CMP_NE: return !un && a != b;
  case CMP_GE: return !un && a >= b;
  case CMP_NUM: return !un;
  case CMP_NAN: return un;
  case CMP_LTU: return un || a < b;
  case CMP_EQU: return un || a == b;
  case CMP_LEU: return un || a <= b;
  case CMP_GTU: return un || a > b;
  case CMP_NEU: return un || a != b;
  case CMP_GEU: return un || a >= b;
  }
  return 1; /* CMP_T */
}
