// fdtd2d: the 2-D finite-difference time-domain solver of Maxwell's equations (PolyBench/GPU's
// FDTD-2D): per time step three kernels over the nx x ny grid, one thread per cell in 32 x 8
// blocks:
//   fdtd_step1: ey[i][j] -= 0.5 (hz[i][j] - hz[i-1][j]), row 0 set to the source fict[t];
//   fdtd_step2: ex[i][j] -= 0.5 (hz[i][j] - hz[i][j-1]) for j > 0;
//   fdtd_step3: hz[i][j] -= 0.7 (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j]).
// Little arithmetic per load: memory-bound, with neighbouring cells re-read by neighbouring
// threads and rows.
// Row: FineReg's FD ("Fluid Dynamics", FDTD-2D, Type-S). Input (seeded): a 512 x 512 grid,
// 4 time steps (1024 blocks per kernel, 12 launches). Usage: fdtd2d [n [steps]], n a multiple
// of 32.
#include "../common/bench.h"

#define BX 32
#define BY 8

__global__ void fdtd_step1(const float *fict, float *ey, const float *hz, int nx, int ny, int t) {
  int j = blockIdx.x * BX + threadIdx.x, i = blockIdx.y * BY + threadIdx.y;
  if (i == 0) ey[j] = fict[t];
  else ey[i * ny + j] -= 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
}

__global__ void fdtd_step2(float *ex, const float *hz, int nx, int ny) {
  int j = blockIdx.x * BX + threadIdx.x, i = blockIdx.y * BY + threadIdx.y;
  if (j > 0) ex[i * (ny + 1) + j] -= 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
}

__global__ void fdtd_step3(const float *ex, const float *ey, float *hz, int nx, int ny) {
  int j = blockIdx.x * BX + threadIdx.x, i = blockIdx.y * BY + threadIdx.y;
  if (i < nx - 1 && j < ny - 1)
    hz[i * ny + j] -= 0.7f * (ex[i * (ny + 1) + j + 1] - ex[i * (ny + 1) + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
}

int main(int argc, char **argv) {
  const char *usage = "fdtd2d [n [steps]] (n a multiple of 32)";
  int n = bench_arg(argc, argv, 1, 512, usage), steps = bench_arg(argc, argv, 2, 4, usage);
  if (n % BX) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return 2;
  }
  int nx = n, ny = n;
  Buf<float> fict(steps), ex((size_t)nx * (ny + 1)), ey((size_t)(nx + 1) * ny), hz((size_t)nx * ny);
  Rng g(291);
  for (int t = 0; t < steps; t++) fict[t] = (float)t;
  for (size_t i = 0; i < ex.n; i++) ex[i] = g.uniform(0.0f, 1.0f);
  for (size_t i = 0; i < ey.n; i++) ey[i] = g.uniform(0.0f, 1.0f);
  for (size_t i = 0; i < hz.n; i++) hz[i] = g.uniform(0.0f, 1.0f);
  float *hex = (float *)std::malloc(ex.bytes()), *hey = (float *)std::malloc(ey.bytes()), *hhz = (float *)std::malloc(hz.bytes());
  if (!hex || !hey || !hhz) return 1;
  std::memcpy(hex, ex.h, ex.bytes()), std::memcpy(hey, ey.h, ey.bytes()), std::memcpy(hhz, hz.h, hz.bytes());
  fict.up(), ex.up(), ey.up(), hz.up();
  dim3 grid(ny / BX, nx / BY), block(BX, BY);
  for (int t = 0; t < steps; t++) {
    fdtd_step1<<<grid, block>>>(fict.d, ey.d, hz.d, nx, ny, t);
    CK_LAUNCH();
    fdtd_step2<<<grid, block>>>(ex.d, hz.d, nx, ny);
    CK_LAUNCH();
    fdtd_step3<<<grid, block>>>(ex.d, ey.d, hz.d, nx, ny);
    CK_LAUNCH();
    for (int j = 0; j < ny; j++) hey[j] = fict[t];
    for (int i = 1; i < nx; i++)
      for (int j = 0; j < ny; j++) hey[i * ny + j] -= 0.5f * (hhz[i * ny + j] - hhz[(i - 1) * ny + j]);
    for (int i = 0; i < nx; i++)
      for (int j = 1; j < ny; j++) hex[i * (ny + 1) + j] -= 0.5f * (hhz[i * ny + j] - hhz[i * ny + j - 1]);
    for (int i = 0; i < nx - 1; i++)
      for (int j = 0; j < ny - 1; j++)
        hhz[i * ny + j] -= 0.7f * (hex[i * (ny + 1) + j + 1] - hex[i * (ny + 1) + j] + hey[(i + 1) * ny + j] - hey[i * ny + j]);
  }
  ex.down(), ey.down(), hz.down();
  int bad = bench_compare("ex", ex.h, hex, ex.n, 1e-5, 1e-5) + bench_compare("ey", ey.h, hey, ey.n, 1e-5, 1e-5) +
            bench_compare("hz", hz.h, hhz, hz.n, 1e-5, 1e-5);
  std::free(hex), std::free(hey), std::free(hhz);
  return bench_done("fdtd2d", bad);
}
