// srad1: speckle-reducing anisotropic diffusion of an ultrasound-like image (Yu and Acton's
// SRAD, in the kernel structure of Rodinia's srad_v1), one thread per pixel, 512 per block:
//   extract:  J = exp(I / 255);
//   per iteration: prepare (J and J^2 per pixel), reduce (block-wide tree sums of both in two
//     512-float shared arrays = 4 KB, a __syncthreads() per level, halving the active threads
//     each level, relaunched on the partial sums until one block is left; the host forms
//     q0^2 = var / mean^2 from the two sums), srad (the four directional differences, the
//     diffusion coefficient c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2))) clamped to [0, 1]),
//     srad2 (J += lambda / 4 * div(c grad J));
//   compress: I = 255 log(J).
// Row: WarpMan's SR (warpman Table 2: SRad, 16 warps and 4 KB of shared memory per TB, 2560
// registers per TB, 3 TBs/SM on the GTX 480, limited by threads); the 4 KB is the reduction's.
// The table's 5 registers per thread cannot hold a pixel's addresses; nvcc's counts stay
// below the 20 that would let registers limit. Input (seeded): a 384 x 384 image, 2
// iterations (288 TBs per pixel kernel). Usage: srad1 [side [iterations]].
#include "../common/bench.h"
#include "../common/srad.h"

#define THREADS 512

__global__ void extract(float *img, int n) {
  int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < n) img[i] = expf(img[i] / 255.0f);
}

__global__ void prepare(const float *j, float *sums, float *sums2, int n) {
  int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < n) {
    float v = j[i];
    sums[i] = v;
    sums2[i] = v * v;
  }
}

// sums the n values of each array block by block into sums[block], sums2[block]
__global__ void reduce(float *sums, float *sums2, int n) {
  __shared__ float s[THREADS], s2[THREADS];
  int t = threadIdx.x, i = blockIdx.x * THREADS + t;
  s[t] = i < n ? sums[i] : 0.0f;
  s2[t] = i < n ? sums2[i] : 0.0f;
  for (int half = THREADS / 2; half > 0; half >>= 1) {
    __syncthreads();
    if (t < half) {
      s[t] += s[t + half];
      s2[t] += s2[t + half];
    }
  }
  if (t == 0) {
    sums[blockIdx.x] = s[0];
    sums2[blockIdx.x] = s2[0];
  }
}

struct Dirs {
  float *dn, *ds, *dw, *de, *c;
};

__global__ void srad(const float *j, Dirs d, int rows, int cols, float q0sqr) {
  int i = blockIdx.x * THREADS + threadIdx.x;
  if (i >= rows * cols) return;
  int r = i / cols, col = i - r * cols;
  float v = j[i];
  float n = j[(r > 0 ? r - 1 : 0) * cols + col], s = j[(r < rows - 1 ? r + 1 : r) * cols + col];
  float w = j[r * cols + (col > 0 ? col - 1 : 0)], e = j[r * cols + (col < cols - 1 ? col + 1 : col)];
  float dn = n - v, ds = s - v, dw = w - v, de = e - v;
  d.c[i] = srad_coefficient(v, dn, ds, dw, de, q0sqr);
  d.dn[i] = dn;
  d.ds[i] = ds;
  d.dw[i] = dw;
  d.de[i] = de;
}

__global__ void srad2(float *j, Dirs d, int rows, int cols) {
  int i = blockIdx.x * THREADS + threadIdx.x;
  if (i >= rows * cols) return;
  int r = i / cols, col = i - r * cols;
  float cs = d.c[(r < rows - 1 ? r + 1 : r) * cols + col], ce = d.c[r * cols + (col < cols - 1 ? col + 1 : col)];
  j[i] = srad_update(j[i], d.c[i], cs, ce, d.dn[i], d.ds[i], d.dw[i], d.de[i]);
}

__global__ void compress(float *img, int n) {
  int i = blockIdx.x * THREADS + threadIdx.x;
  if (i < n) img[i] = logf(img[i]) * 255.0f;
}

// the host's SRAD step on j, with the device's q0^2
static void host_step(float *j, float *c, float *dir, int rows, int cols, float q0sqr) {
  int n = rows * cols;
  for (int i = 0; i < n; i++) {
    int r = i / cols, col = i % cols;
    float v = j[i];
    float nv = j[(r > 0 ? r - 1 : 0) * cols + col], sv = j[(r < rows - 1 ? r + 1 : r) * cols + col];
    float wv = j[r * cols + (col > 0 ? col - 1 : 0)], ev = j[r * cols + (col < cols - 1 ? col + 1 : col)];
    float dn = nv - v, ds = sv - v, dw = wv - v, de = ev - v;
    c[i] = srad_coefficient(v, dn, ds, dw, de, q0sqr);
    dir[4 * i] = dn, dir[4 * i + 1] = ds, dir[4 * i + 2] = dw, dir[4 * i + 3] = de;
  }
  for (int i = 0; i < n; i++) {
    int r = i / cols, col = i % cols;
    float cs = c[(r < rows - 1 ? r + 1 : r) * cols + col], ce = c[r * cols + (col < cols - 1 ? col + 1 : col)];
    j[i] = srad_update(j[i], c[i], cs, ce, dir[4 * i], dir[4 * i + 1], dir[4 * i + 2], dir[4 * i + 3]);
  }
}

int main(int argc, char **argv) {
  const char *usage = "srad1 [side [iterations]]";
  int side = bench_arg(argc, argv, 1, 384, usage), iters = bench_arg(argc, argv, 2, 2, usage);
  int rows = side, cols = side, n = rows * cols, blocks = (n + THREADS - 1) / THREADS;
  Buf<float> img(n), sums(n), sums2(n), dn(n), ds(n), dw(n), de(n), c(n);
  Rng r(81);
  for (int i = 0; i < n; i++) img[i] = r.uniform(0.0f, 255.0f);
  float *ref = (float *)std::malloc(n * sizeof(float)), *hc = (float *)std::malloc(n * sizeof(float)),
        *dir = (float *)std::malloc(4 * (size_t)n * sizeof(float));
  if (!ref || !hc || !dir) return 1;
  for (int i = 0; i < n; i++) ref[i] = std::exp(img[i] / 255.0f);
  img.up();
  Dirs d{dn.d, ds.d, dw.d, de.d, c.d};
  extract<<<blocks, THREADS>>>(img.d, n);
  CK_LAUNCH();
  int bad = 0;
  for (int it = 0; it < iters; it++) {
    prepare<<<blocks, THREADS>>>(img.d, sums.d, sums2.d, n);
    CK_LAUNCH();
    for (int m = n; m > 1; m = (m + THREADS - 1) / THREADS) {
      reduce<<<(m + THREADS - 1) / THREADS, THREADS>>>(sums.d, sums2.d, m);
      CK_LAUNCH();
    }
    float sum, sum2;
    CK(cudaMemcpy(&sum, sums.d, sizeof sum, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&sum2, sums2.d, sizeof sum2, cudaMemcpyDeviceToHost));
    double hs = 0, hs2 = 0;
    for (int i = 0; i < n; i++) hs += ref[i], hs2 += (double)ref[i] * ref[i];
    float got[2] = {sum, sum2}, want[2] = {(float)hs, (float)hs2};
    bad += bench_compare("sums", got, want, 2, 1e-4, 0.0);
    float mean = sum / n, var = sum2 / n - mean * mean, q0sqr = var / (mean * mean);
    srad<<<blocks, THREADS>>>(img.d, d, rows, cols, q0sqr);
    CK_LAUNCH();
    srad2<<<blocks, THREADS>>>(img.d, d, rows, cols);
    CK_LAUNCH();
    host_step(ref, hc, dir, rows, cols, q0sqr);
  }
  compress<<<blocks, THREADS>>>(img.d, n);
  CK_LAUNCH();
  img.down();
  for (int i = 0; i < n; i++) ref[i] = std::log(ref[i]) * 255.0f;
  bad += bench_compare("image", img.h, ref, n, 1e-4, 1e-3);
  std::free(ref);
  std::free(hc);
  std::free(dir);
  return bench_done("srad1", bad);
}
