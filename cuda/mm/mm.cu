// mm: C = A x B in single precision, two ways, each the kernel of a paper's row.
//
// matrixMul_tiled: WarpMan's MM (warpman Table 2: CUDA SDK MatrixMultiply, 8 warps and 2 KB of
//   shared memory per TB, 6144 registers per TB, 5 TBs/SM on the GTX 480) and the blocked
//   matrixMul of the locality-aware RF paper (its Fig. 5 "software optimization"). A 16 x 16
//   block computes a 16 x 16 tile of C: per step of 16 along k, every thread loads one element
//   of A's and one of B's tile into shared memory (2 x 1 KB), all synchronise, each thread
//   accumulates 16 products from shared memory, all synchronise again (the paper's section 4:
//   "before the first __syncthreads() barrier, the global memory data are loaded into the
//   shared memory"). The tiles of A are re-read by every block of a row of C, those of B by
//   every block of a column (reuse through L1/L2).
// matrixMul_naive: the locality-aware RF paper's unoptimized 128 x 128 matrixMul (Fig. 5): one
//   thread per element of C, one 128-thread block (4 warps) per row of C, no shared memory.
//   Every step k, the 4 warps of a row load the same A[row][k] (a broadcast), and every row
//   loads the same 32-word slices of B's row k (the repeated warp loads the paper shares).
//
// Input (seeded): tiled: n x n with n = 320 (400 TBs, 5.3 waves of 75 on the GTX 480);
// naive: 128 x 128. Small integer values, so every sum is exact and the host's product must be
// matched bit for bit. Usage: mm [n_tiled [n_naive]], n_tiled a multiple of 16, n_naive of 32.
#include "../common/bench.h"

#define TILE 16

__global__ void matrixMul_tiled(const float *a, const float *b, float *c, int n) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    as[ty][tx] = a[row * n + k0 + tx];
    bs[ty][tx] = b[(k0 + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; k++) acc += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  c[row * n + col] = acc;
}

__global__ void matrixMul_naive(const float *a, const float *b, float *c, int n) {
  int row = blockIdx.x, col = threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
  c[row * n + col] = acc;
}

static void host_mm(const float *a, const float *b, float *c, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0.0f;
      for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

static int run(int n, bool tiled, uint32_t seed) {
  size_t nn = (size_t)n * n;
  Buf<float> a(nn), b(nn), c(nn);
  Rng r(seed);
  for (size_t i = 0; i < nn; i++) {
    a[i] = (float)((int)r.below(9) - 4);
    b[i] = (float)((int)r.below(7) - 3);
  }
  a.up();
  b.up();
  if (tiled)
    matrixMul_tiled<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(a.d, b.d, c.d, n);
  else
    matrixMul_naive<<<n, n>>>(a.d, b.d, c.d, n);
  CK_LAUNCH();
  c.down();
  float *want = (float *)std::malloc(nn * sizeof(float));
  if (!want) return 1;
  host_mm(a.h, b.h, want, n);
  int bad = bench_compare(tiled ? "tiled c" : "naive c", c.h, want, nn, 0.0, 0.0);
  std::free(want);
  return bad;
}

int main(int argc, char **argv) {
  const char *usage = "mm [n_tiled [n_naive]] (multiples of 16 and 32, naive at most 1024)";
  int nt = bench_arg(argc, argv, 1, 320, usage), nv = bench_arg(argc, argv, 2, 128, usage);
  if (nt % TILE || nv % 32 || nv > 1024) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return 2;
  }
  int bad = run(nt, true, 11) + run(nv, false, 12);
  return bench_done("mm", bad);
}
