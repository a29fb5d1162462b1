// convsep: separable convolution of an image with a 17-tap filter, rows then columns, in the
// shared-memory tiling of the CUDA SDK's convolutionSeparable:
//   convolutionRowsKernel: a 16 x 4 block stages, per image row, 8 x 16 pixels it computes
//     plus 16 on each side (a halo step), zero outside the image: 4 x 160 floats = 2560 B;
//     synchronises; each thread computes 8 pixels of 17 taps from shared memory;
//   convolutionColumnsKernel: a 16 x 8 block stages 8 x 8 rows plus 8 above and below for its
//     16 columns, one float of padding per column against bank conflicts: 16 x 81 floats =
//     5184 B; each thread computes 8 pixels down its column.
// Rows: scratchpad sharing Set-2 (CUDA SDK convolutionSeparable: CONV1 = the rows kernel, 64
// threads, 2560 B, 6 TBs/SM with 16 KB, 8 with 90% sharing; CONV2 = the columns kernel, 128
// threads, 5184 B, 3 TBs/SM, 4 with sharing) and FineReg's CS (Type-S).
// Input (seeded): a 768 x 768 image (1152 rows blocks, 576 columns blocks). Usage: convsep
// [side], a multiple of 128.
#include "../common/bench.h"

#define R 8
#define TAPS (2 * R + 1)
#define RX 16
#define RY 4
#define RSTEPS 8
#define CX 16
#define CY 8
#define CSTEPS 8

__constant__ float c_kernel[TAPS];

__global__ void convolutionRowsKernel(float *out, const float *in, int w, int h) {
  __shared__ float s[RY][(RSTEPS + 2) * RX];
  int x0 = (blockIdx.x * RSTEPS - 1) * RX + threadIdx.x, y = blockIdx.y * RY + threadIdx.y;
  const float *row = in + y * w;
#pragma unroll
  for (int k = 0; k < RSTEPS + 2; k++) {
    int x = x0 + k * RX;
    s[threadIdx.y][threadIdx.x + k * RX] = x >= 0 && x < w ? row[x] : 0.0f;
  }
  __syncthreads();
#pragma unroll
  for (int k = 1; k <= RSTEPS; k++) {
    float sum = 0.0f;
#pragma unroll
    for (int j = -R; j <= R; j++) sum += c_kernel[R - j] * s[threadIdx.y][threadIdx.x + k * RX + j];
    out[y * w + x0 + k * RX] = sum;
  }
}

__global__ void convolutionColumnsKernel(float *out, const float *in, int w, int h) {
  __shared__ float s[CX][(CSTEPS + 2) * CY + 1];
  int x = blockIdx.x * CX + threadIdx.x, y0 = (blockIdx.y * CSTEPS - 1) * CY + threadIdx.y;
#pragma unroll
  for (int k = 0; k < CSTEPS + 2; k++) {
    int y = y0 + k * CY;
    s[threadIdx.x][threadIdx.y + k * CY] = y >= 0 && y < h ? in[y * w + x] : 0.0f;
  }
  __syncthreads();
#pragma unroll
  for (int k = 1; k <= CSTEPS; k++) {
    float sum = 0.0f;
#pragma unroll
    for (int j = -R; j <= R; j++) sum += c_kernel[R - j] * s[threadIdx.x][threadIdx.y + k * CY + j];
    out[(y0 + k * CY) * w + x] = sum;
  }
}

int main(int argc, char **argv) {
  int side = bench_arg(argc, argv, 1, 768, "convsep [side] (a multiple of 128)");
  if (side % (RSTEPS * RX) || side % (CSTEPS * CY)) {
    std::fprintf(stderr, "usage: convsep [side] (a multiple of 128)\n");
    return 2;
  }
  int w = side, h = side;
  size_t n = (size_t)w * h;
  Buf<float> img(n), tmp(n), out(n);
  Rng r(231);
  float k[TAPS];
  for (int j = 0; j < TAPS; j++) k[j] = r.uniform(0.0f, 1.0f) / TAPS;
  for (size_t i = 0; i < n; i++) img[i] = r.uniform(0.0f, 1.0f);
  CK(cudaMemcpyToSymbol(c_kernel, k, sizeof k));
  img.up();
  convolutionRowsKernel<<<dim3(w / (RSTEPS * RX), h / RY), dim3(RX, RY)>>>(tmp.d, img.d, w, h);
  CK_LAUNCH();
  convolutionColumnsKernel<<<dim3(w / CX, h / (CSTEPS * CY)), dim3(CX, CY)>>>(out.d, tmp.d, w, h);
  CK_LAUNCH();
  tmp.down(), out.down();
  float *wr = (float *)std::malloc(n * sizeof(float)), *wc = (float *)std::malloc(n * sizeof(float));
  if (!wr || !wc) return 1;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float s = 0.0f;
      for (int j = -R; j <= R; j++) s += x + j >= 0 && x + j < w ? k[R - j] * img[(size_t)y * w + x + j] : 0.0f;
      wr[(size_t)y * w + x] = s;
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float s = 0.0f;
      for (int j = -R; j <= R; j++) s += y + j >= 0 && y + j < h ? k[R - j] * tmp[(size_t)(y + j) * w + x] : 0.0f;
      wc[(size_t)y * w + x] = s;
    }
  int bad = bench_compare("rows", tmp.h, wr, n, 1e-5, 1e-6) + bench_compare("columns", out.h, wc, n, 1e-5, 1e-6);
  std::free(wr), std::free(wc);
  return bench_done("convsep", bad);
}
