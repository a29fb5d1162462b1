// srad.h: one step of speckle-reducing anisotropic diffusion (Yu and Acton), shared by the
// device kernels and the host checks of cuda/srad1 and cuda/srad2.
#ifndef CUDA_COMMON_SRAD_H
#define CUDA_COMMON_SRAD_H

#define SRAD_LAMBDA 0.5f

// the diffusion coefficient of a pixel of value v with directional differences dn..de (to the
// north, south, west and east neighbours), for the image's q0^2 = var / mean^2
__host__ __device__ inline float srad_coefficient(float v, float dn, float ds, float dw, float de,
                                                  float q0sqr) {
  float g2 = (dn * dn + ds * ds + dw * dw + de * de) / (v * v), l = (dn + ds + dw + de) / v;
  float num = 0.5f * g2 - 0.0625f * l * l, den = 1.0f + 0.25f * l, qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float c = 1.0f / (1.0f + den);
  return c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);
}

// the pixel's update from its coefficient c, its south and east neighbours' and its differences
__host__ __device__ inline float srad_update(float v, float c, float cs, float ce, float dn, float ds,
                                             float dw, float de) {
  return v + 0.25f * SRAD_LAMBDA * (c * dn + cs * ds + c * dw + ce * de);
}

#endif
