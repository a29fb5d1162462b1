// stencil: Jacobi iterations of the 7-point 3-D stencil
//   next[x,y,z] = c1 (A[x±1,y,z] + A[x,y±1,z] + A[x,y,z±1]) - c0 A[x,y,z]
// on the interior of a grid (boundary cells keep their value), in the two kernel shapes of
// Parboil's stencil that the papers ran:
//   block2D_hybrid_coarsen_x (register sharing Set-1: Parboil stencil, 512 threads, 28
//     registers, 2 TBs/SM on the Tesla C2050, 3 with 90% sharing; FineReg's ST, Type-S): a
//     32 x 16 block owns a 64 x 16 column of the grid (two x positions per thread) and marches
//     it along z: the plane it works on sits in shared memory with a one-cell halo (66 x 18
//     floats, 4752 B), the planes below and above in registers; per plane it loads the next
//     plane from global memory, synchronises, computes two cells, synchronises.
//   block2D_reg_tiling (WarpMan's ST: 32 warps per TB, 17408 registers per TB = 17 per
//     thread, no shared memory, 1 TB/SM on the GTX 480): a 32 x 32 block, one thread per (x,y)
//     column marching along z with the planes below, at and above in registers and the four
//     in-plane neighbours loaded from global memory. Only interior columns work (the paper's
//     Fig. 7 condition i > 0 && j > 0 && i < nx-1 && j < ny-1): on a grid 10 cells deep in y,
//     8 of a block's 32 warps (rows 1-8) march 64 planes and the other 24 exit at once, the
//     split of the paper's Figs. 8 and 9 (two kinds of warps, ~50 and ~1250 instructions; 8 of
//     32 warps busy after the first few hundred cycles).
// Inputs (seeded): hybrid: 256 x 384 x 24, one iteration (4 x 24 = 96 TBs); reg_tiling:
// 2048 x 10 x 64, two iterations (64 TBs each). Usage: stencil [nz_hybrid [nz_tiling]].
#include "../common/bench.h"

#define C0 0.25f
#define C1 0.125f

__global__ void block2D_hybrid_coarsen_x(const float *__restrict__ a0, float *__restrict__ anext,
                                         int nx, int ny, int nz) {
  __shared__ float plane[16 + 2][64 + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x0 = blockIdx.x * 64 + tx, x1 = x0 + 32, y = blockIdx.y * 16 + ty;
  int sx0 = tx + 1, sx1 = tx + 33, sy = ty + 1;
  int pl = nx * ny;
  bool in0 = x0 < nx && y < ny, in1 = x1 < nx && y < ny;
  float below0 = in0 ? a0[y * nx + x0] : 0.0f, below1 = in1 ? a0[y * nx + x1] : 0.0f;
  float cur0 = in0 ? a0[pl + y * nx + x0] : 0.0f, cur1 = in1 ? a0[pl + y * nx + x1] : 0.0f;
#pragma unroll 1
  for (int z = 1; z < nz - 1; z++) {
    const float *up = a0 + (z + 1) * pl;
    float above0 = in0 ? up[y * nx + x0] : 0.0f, above1 = in1 ? up[y * nx + x1] : 0.0f;
    plane[sy][sx0] = cur0;
    plane[sy][sx1] = cur1;
    // the halo: the block's edge threads load the neighbours outside its 64 x 16 tile
    const float *here = a0 + z * pl;
    if (tx == 0 && x0 > 0 && y < ny) plane[sy][0] = here[y * nx + x0 - 1];
    if (tx == 31 && x1 + 1 < nx && y < ny) plane[sy][65] = here[y * nx + x1 + 1];
    if (ty == 0 && y > 0) {
      if (x0 < nx) plane[0][sx0] = here[(y - 1) * nx + x0];
      if (x1 < nx) plane[0][sx1] = here[(y - 1) * nx + x1];
    }
    if (ty == 15 && y + 1 < ny) {
      if (x0 < nx) plane[17][sx0] = here[(y + 1) * nx + x0];
      if (x1 < nx) plane[17][sx1] = here[(y + 1) * nx + x1];
    }
    __syncthreads();
    float *out = anext + z * pl + y * nx;
    if (in0 && x0 > 0 && x0 < nx - 1 && y > 0 && y < ny - 1)
      out[x0] = C1 * (plane[sy][sx0 - 1] + plane[sy][sx0 + 1] + plane[sy - 1][sx0] + plane[sy + 1][sx0] +
                      below0 + above0) - C0 * cur0;
    if (in1 && x1 < nx - 1 && y > 0 && y < ny - 1)
      out[x1] = C1 * (plane[sy][sx1 - 1] + plane[sy][sx1 + 1] + plane[sy - 1][sx1] + plane[sy + 1][sx1] +
                      below1 + above1) - C0 * cur1;
    __syncthreads();
    below0 = cur0, below1 = cur1, cur0 = above0, cur1 = above1;
  }
}

__global__ void block2D_reg_tiling(const float *__restrict__ a0, float *__restrict__ anext,
                                   int nx, int ny, int nz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i > 0 && j > 0 && i < nx - 1 && j < ny - 1) {
    int pl = nx * ny, c = j * nx + i;
    float below = a0[c], cur = a0[pl + c];
#pragma unroll 1
    for (int z = 1; z < nz - 1; z++) {
      int k = z * pl + c;
      float above = a0[k + pl];
      anext[k] = C1 * (a0[k - 1] + a0[k + 1] + a0[k - nx] + a0[k + nx] + below + above) - C0 * cur;
      below = cur;
      cur = above;
    }
  }
}

static void host_step(const float *a, float *n, int nx, int ny, int nz) {
  size_t pl = (size_t)nx * ny;
  for (int z = 1; z < nz - 1; z++)
    for (int y = 1; y < ny - 1; y++)
      for (int x = 1; x < nx - 1; x++) {
        size_t c = z * pl + (size_t)y * nx + x;
        n[c] = C1 * (a[c - 1] + a[c + 1] + a[c - nx] + a[c + nx] + a[c - pl] + a[c + pl]) - C0 * a[c];
      }
}

// iterations of one kernel on an nx x ny x nz grid; returns the number of differing cells
static int run(bool hybrid, int nx, int ny, int nz, int iters, uint32_t seed) {
  size_t n = (size_t)nx * ny * nz;
  Buf<float> a(n), b(n);
  Rng r(seed);
  for (size_t i = 0; i < n; i++) a[i] = r.uniform(0.0f, 1.0f);
  std::memcpy(b.h, a.h, n * sizeof(float)); // the boundary stays in both buffers
  a.up();
  b.up();
  float *want = (float *)std::malloc(n * sizeof(float)), *tmp = (float *)std::malloc(n * sizeof(float));
  if (!want || !tmp) return 1;
  std::memcpy(want, a.h, n * sizeof(float));
  std::memcpy(tmp, a.h, n * sizeof(float));
  float *src = a.d, *dst = b.d;
  for (int it = 0; it < iters; it++) {
    if (hybrid)
      block2D_hybrid_coarsen_x<<<dim3((nx + 63) / 64, (ny + 15) / 16), dim3(32, 16)>>>(src, dst, nx, ny, nz);
    else
      block2D_reg_tiling<<<dim3((nx + 31) / 32, (ny + 31) / 32), dim3(32, 32)>>>(src, dst, nx, ny, nz);
    CK_LAUNCH();
    float *t = src;
    src = dst;
    dst = t;
    host_step(want, tmp, nx, ny, nz);
    std::memcpy(want, tmp, n * sizeof(float));
  }
  CK(cudaMemcpy(tmp, src, n * sizeof(float), cudaMemcpyDeviceToHost));
  // the device fuses c1 * sum - c0 * a into one multiply-add
  int bad = bench_compare(hybrid ? "hybrid" : "reg_tiling", tmp, want, n, 1e-5, 1e-6);
  std::free(want);
  std::free(tmp);
  return bad;
}

int main(int argc, char **argv) {
  const char *usage = "stencil [nz_hybrid [nz_tiling]] (at least 3)";
  int nzh = bench_arg(argc, argv, 1, 24, usage), nzt = bench_arg(argc, argv, 2, 64, usage);
  if (nzh < 3 || nzt < 3) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return 2;
  }
  int bad = run(true, 256, 384, nzh, 1, 91) + run(false, 2048, 10, nzt, 2, 92);
  return bench_done("stencil", bad);
}
