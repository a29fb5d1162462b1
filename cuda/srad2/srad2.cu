// srad2: speckle-reducing anisotropic diffusion (the SRAD equations of srad1) in the shared-
// memory tiling of Rodinia's srad_v2, 16 x 16 blocks, per iteration (q0^2 from the whole
// image, computed on the host from the current image as srad_v2 does):
//   srad_cuda_1: every thread stages its pixel and its four neighbours' values in five shared
//     tiles (clamped at the image's edges), synchronises, computes the directional
//     differences (to global memory) and the diffusion coefficient into a sixth tile and
//     global memory: 6 x 1 KB = 6144 B;
//   srad_cuda_2: stages its coefficient, its south and east neighbours' coefficients, its
//     pixel, and the result in five tiles (5120 B), synchronises, and updates the pixel.
// Rows: scratchpad sharing Set-2 (Rodinia srad_v2: SRAD1 = srad_cuda_1, 256 threads, 6144 B,
// 2 TBs/SM with 16 KB, 4 with 90% sharing; SRAD2 = srad_cuda_2, 256 threads, 5120 B, 3 TBs/SM,
// 5 with sharing) and FineReg's SR (srad_cuda_2, Type-R).
// Input (seeded): a 512 x 512 image (1024 blocks per kernel), 2 iterations. Usage: srad2
// [side [iterations]], side a multiple of 16.
#include "../common/bench.h"
#include "../common/srad.h"

#define BS 16

struct Dirs {
  float *dn, *ds, *dw, *de, *c;
};

__global__ void srad_cuda_1(const float *j, Dirs d, int rows, int cols, float q0sqr) {
  __shared__ float t[BS][BS], tn[BS][BS], ts[BS][BS], tw[BS][BS], te[BS][BS], tc[BS][BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r = blockIdx.y * BS + ty, c = blockIdx.x * BS + tx, i = r * cols + c;
  t[ty][tx] = j[i];
  tn[ty][tx] = j[(r > 0 ? r - 1 : 0) * cols + c];
  ts[ty][tx] = j[(r < rows - 1 ? r + 1 : r) * cols + c];
  tw[ty][tx] = j[r * cols + (c > 0 ? c - 1 : 0)];
  te[ty][tx] = j[r * cols + (c < cols - 1 ? c + 1 : c)];
  __syncthreads();
  float v = t[ty][tx];
  float dn = tn[ty][tx] - v, ds = ts[ty][tx] - v, dw = tw[ty][tx] - v, de = te[ty][tx] - v;
  tc[ty][tx] = srad_coefficient(v, dn, ds, dw, de, q0sqr);
  __syncthreads();
  d.c[i] = tc[ty][tx];
  d.dn[i] = dn, d.ds[i] = ds, d.dw[i] = dw, d.de[i] = de;
}

__global__ void srad_cuda_2(float *j, Dirs d, int rows, int cols) {
  __shared__ float cs[BS][BS], csouth[BS][BS], ceast[BS][BS], t[BS][BS], res[BS][BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r = blockIdx.y * BS + ty, c = blockIdx.x * BS + tx, i = r * cols + c;
  cs[ty][tx] = d.c[i];
  csouth[ty][tx] = d.c[(r < rows - 1 ? r + 1 : r) * cols + c];
  ceast[ty][tx] = d.c[r * cols + (c < cols - 1 ? c + 1 : c)];
  t[ty][tx] = j[i];
  __syncthreads();
  res[ty][tx] = srad_update(t[ty][tx], cs[ty][tx], csouth[ty][tx], ceast[ty][tx], d.dn[i], d.ds[i], d.dw[i], d.de[i]);
  __syncthreads();
  j[i] = res[ty][tx];
}

static float q0sqr_of(const float *j, int n) {
  double s = 0, s2 = 0;
  for (int i = 0; i < n; i++) s += j[i], s2 += (double)j[i] * j[i];
  double mean = s / n, var = s2 / n - mean * mean;
  return (float)(var / (mean * mean));
}

int main(int argc, char **argv) {
  const char *usage = "srad2 [side [iterations]] (side a multiple of 16)";
  int side = bench_arg(argc, argv, 1, 512, usage), iters = bench_arg(argc, argv, 2, 2, usage);
  if (side % BS) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return 2;
  }
  int rows = side, cols = side, n = rows * cols;
  Buf<float> j(n), dn(n), ds(n), dw(n), de(n), c(n);
  Rng r(251);
  for (int i = 0; i < n; i++) j[i] = std::exp(r.uniform(0.0f, 255.0f) / 255.0f);
  float *ref = (float *)std::malloc(n * sizeof(float)), *hc = (float *)std::malloc(n * sizeof(float)),
        *dir = (float *)std::malloc(4 * (size_t)n * sizeof(float));
  if (!ref || !hc || !dir) return 1;
  std::memcpy(ref, j.h, n * sizeof(float));
  j.up();
  Dirs d{dn.d, ds.d, dw.d, de.d, c.d};
  dim3 grid(cols / BS, rows / BS), block(BS, BS);
  for (int it = 0; it < iters; it++) {
    j.down();
    float q0sqr = q0sqr_of(j.h, n); // from the device's image, as the host's reference uses
    srad_cuda_1<<<grid, block>>>(j.d, d, rows, cols, q0sqr);
    CK_LAUNCH();
    srad_cuda_2<<<grid, block>>>(j.d, d, rows, cols);
    CK_LAUNCH();
    for (int i = 0; i < n; i++) {
      int y = i / cols, x = i % cols;
      float v = ref[i];
      float vn = ref[(y > 0 ? y - 1 : 0) * cols + x] - v, vs = ref[(y < rows - 1 ? y + 1 : y) * cols + x] - v;
      float vw = ref[y * cols + (x > 0 ? x - 1 : 0)] - v, ve = ref[y * cols + (x < cols - 1 ? x + 1 : x)] - v;
      hc[i] = srad_coefficient(v, vn, vs, vw, ve, q0sqr);
      dir[4 * i] = vn, dir[4 * i + 1] = vs, dir[4 * i + 2] = vw, dir[4 * i + 3] = ve;
    }
    for (int i = 0; i < n; i++) {
      int y = i / cols, x = i % cols;
      ref[i] = srad_update(ref[i], hc[i], hc[(y < rows - 1 ? y + 1 : y) * cols + x],
                           hc[y * cols + (x < cols - 1 ? x + 1 : x)], dir[4 * i], dir[4 * i + 1],
                           dir[4 * i + 2], dir[4 * i + 3]);
    }
  }
  j.down();
  int bad = bench_compare("image", j.h, ref, n, 1e-4, 1e-5);
  std::free(ref), std::free(hc), std::free(dir);
  return bench_done("srad2", bad);
}
