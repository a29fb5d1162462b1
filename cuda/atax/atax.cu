// atax: y = A^T (A x), the two matrix-vector products of PolyBench/GPU's ATAX, one thread per
// output element, 256 threads per block:
//   atax_kernel1: tmp = A x, thread i walks row i of A (threads a row apart: uncoalesced);
//   atax_kernel2: y = A^T tmp, thread j walks column j (coalesced), tmp broadcast.
// As FineReg did for benchmarks with few CTAs, each product is split into chunks of 128 terms
// over a second grid dimension, the partial sums added into the output atomically
// (cuda/common/matvec.h); the second kernel needs all of tmp, so it is a separate launch.
// Row: FineReg's AT ("Transpose Vector Multiply", Type-R). Input (seeded): A is 2048 x 2048
// (8 x 16 = 128 blocks per kernel). Usage: atax [n], a multiple of 256.
#include "../common/matvec.h"

__global__ void atax_kernel1(const float *A, const float *x, float *tmp, int n) { mv_rows(A, x, tmp, n); }
__global__ void atax_kernel2(const float *A, const float *tmp, float *y, int n) { mv_columns(A, tmp, y, n); }

int main(int argc, char **argv) {
  int n = mv_size(argc, argv, "atax [n] (a multiple of 256)");
  Buf<float> A((size_t)n * n), x(n), tmp(n), y(n);
  Rng g(271);
  for (size_t i = 0; i < A.n; i++) A[i] = g.uniform(-1.0f, 1.0f);
  for (int i = 0; i < n; i++) x[i] = g.uniform(-1.0f, 1.0f);
  A.up(), x.up(), tmp.up(), y.up();
  dim3 grid(n / MV_THREADS, n / MV_CHUNK);
  atax_kernel1<<<grid, MV_THREADS>>>(A.d, x.d, tmp.d, n);
  CK_LAUNCH();
  atax_kernel2<<<grid, MV_THREADS>>>(A.d, tmp.d, y.d, n);
  CK_LAUNCH();
  tmp.down(), y.down();
  float *wt = (float *)std::malloc(n * sizeof(float)), *wy = (float *)std::malloc(n * sizeof(float));
  if (!wt || !wy) return 1;
  mv_host(A.h, x.h, wt, n, false);
  mv_host(A.h, tmp.h, wy, n, true); // from the device's tmp: only this product's error counts
  int bad = bench_compare("tmp", tmp.h, wt, n, 1e-3, 1e-3) + bench_compare("y", y.h, wy, n, 1e-3, 1e-2);
  std::free(wt), std::free(wy);
  return bench_done("atax", bad);
}
