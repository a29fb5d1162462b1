// convtex: separable 2-D convolution of an image with a 17-tap filter, rows then columns, one
// thread per output pixel, each tap read from the image with clamp-to-edge addressing. This is
// WarpMan's CT (warpman Table 2: CUDA SDK ConvolutionTexture, 6 warps per TB, no shared memory,
// 7 TBs/SM on the GTX 480). Its section 3.1 says 7 TBs leave 512 of 32768 registers unused:
// 4608 per TB, i.e. 24 per thread (the table's 3068 does not divide by 192 threads); nvcc
// gives more, so build.flags caps it at 24.
//
// The original fetched through the texture unit; rfsim's interpreter has no texture
// instructions, so the taps are read-only global loads (LDG through the read-only path,
// __restrict__), with the texture's clamping done in the address. What drives WarpMan here is
// the paper's "memory divergence" (section 3.2.3): every warp runs the same instructions and
// neighbouring warps re-read the same image rows (the 17-tap windows overlap), so warps differ
// only by their cache hits.
//
// Blocks of 16 x 12 threads (192, 6 warps); the filter in constant memory. Input (seeded):
// a 512 x 384 image (32 x 32 = 1024 TBs per kernel). Usage: convtex [width [height]],
// multiples of 16 and 12.
#include "../common/bench.h"

#define RADIUS 8
#define TAPS (2 * RADIUS + 1)
#define BX 16
#define BY 12

__constant__ float c_filter[TAPS];

__device__ __forceinline__ int clampi(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

__global__ void convolutionRowsKernel(float *__restrict__ out, const float *__restrict__ in,
                                      int w, int h) {
  int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  const float *row = in + y * w;
  float s = 0.0f;
#pragma unroll
  for (int k = -RADIUS; k <= RADIUS; k++) s += row[clampi(x + k, w - 1)] * c_filter[RADIUS - k];
  out[y * w + x] = s;
}

__global__ void convolutionColumnsKernel(float *__restrict__ out, const float *__restrict__ in,
                                         int w, int h) {
  int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  float s = 0.0f;
#pragma unroll
  for (int k = -RADIUS; k <= RADIUS; k++) s += in[clampi(y + k, h - 1) * w + x] * c_filter[RADIUS - k];
  out[y * w + x] = s;
}

int main(int argc, char **argv) {
  const char *usage = "convtex [width [height]] (multiples of 16 and 12)";
  int w = bench_arg(argc, argv, 1, 512, usage), h = bench_arg(argc, argv, 2, 384, usage);
  if (w % BX || h % BY) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return 2;
  }
  size_t n = (size_t)w * h;
  Buf<float> img(n), tmp(n), out(n);
  Rng r(21);
  float filter[TAPS];
  for (int k = 0; k < TAPS; k++) filter[k] = r.uniform(0.0f, 1.0f) / TAPS;
  for (size_t i = 0; i < n; i++) img[i] = r.uniform(0.0f, 1.0f);
  img.up();
  CK(cudaMemcpyToSymbol(c_filter, filter, sizeof filter));
  dim3 grid(w / BX, h / BY), block(BX, BY);
  convolutionRowsKernel<<<grid, block>>>(tmp.d, img.d, w, h);
  CK_LAUNCH();
  convolutionColumnsKernel<<<grid, block>>>(out.d, tmp.d, w, h);
  CK_LAUNCH();
  tmp.down();
  out.down();
  float *t = (float *)std::malloc(n * sizeof(float)), *o = (float *)std::malloc(n * sizeof(float));
  if (!t || !o) return 1;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float s = 0.0f;
      for (int k = -RADIUS; k <= RADIUS; k++) {
        int xx = x + k < 0 ? 0 : (x + k > w - 1 ? w - 1 : x + k);
        s += img[(size_t)y * w + xx] * filter[RADIUS - k];
      }
      t[(size_t)y * w + x] = s;
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float s = 0.0f;
      for (int k = -RADIUS; k <= RADIUS; k++) {
        int yy = y + k < 0 ? 0 : (y + k > h - 1 ? h - 1 : y + k);
        s += tmp[(size_t)yy * w + x] * filter[RADIUS - k];
      }
      o[(size_t)y * w + x] = s;
    }
  // Fused multiply-adds on the device round once where the host rounds twice.
  int bad = bench_compare("rows", tmp.h, t, n, 1e-5, 1e-6) + bench_compare("columns", out.h, o, n, 1e-5, 1e-6);
  std::free(t);
  std::free(o);
  return bench_done("convtex", bad);
}
