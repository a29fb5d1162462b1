// bicg: the two matrix-vector products of one BiCGStab iteration (PolyBench/GPU's BiCG
// kernels): s = A^T r and q = A p, one thread per output element, 256 threads per block.
//   bicg_kernel1: thread j walks column j of A (neighbouring threads read neighbouring
//     words: coalesced) against r (the same word for all threads: a broadcast);
//   bicg_kernel2: thread i walks row i of A (neighbouring threads are a row apart: every
//     load touches 32 lines) against p.
// As FineReg did ("we modified a few benchmarks to generate a large number of CTAs"), each
// product is split into chunks of 128 terms over a second grid dimension and every block adds
// its partial sums into the output with an atomic add (cuda/common/matvec.h).
// Row: FineReg's BI (Type-S). Input (seeded): A is 2048 x 2048 (8 x 16 = 128 blocks per
// kernel). Usage: bicg [n], a multiple of 256.
#include "../common/matvec.h"

__global__ void bicg_kernel1(const float *A, const float *r, float *s, int n) { mv_columns(A, r, s, n); }
__global__ void bicg_kernel2(const float *A, const float *p, float *q, int n) { mv_rows(A, p, q, n); }

int main(int argc, char **argv) {
  int n = mv_size(argc, argv, "bicg [n] (a multiple of 256)");
  Buf<float> A((size_t)n * n), r(n), p(n), s(n), q(n);
  Rng g(261);
  for (size_t i = 0; i < A.n; i++) A[i] = g.uniform(-1.0f, 1.0f);
  for (int i = 0; i < n; i++) r[i] = g.uniform(-1.0f, 1.0f), p[i] = g.uniform(-1.0f, 1.0f);
  A.up(), r.up(), p.up(), s.up(), q.up();
  dim3 grid(n / MV_THREADS, n / MV_CHUNK);
  bicg_kernel1<<<grid, MV_THREADS>>>(A.d, r.d, s.d, n);
  CK_LAUNCH();
  bicg_kernel2<<<grid, MV_THREADS>>>(A.d, p.d, q.d, n);
  CK_LAUNCH();
  s.down(), q.down();
  float *ws = (float *)std::malloc(n * sizeof(float)), *wq = (float *)std::malloc(n * sizeof(float));
  if (!ws || !wq) return 1;
  mv_host(A.h, r.h, ws, n, true);
  mv_host(A.h, p.h, wq, n, false);
  // sums of 2048 terms of either sign, in float on the device: within 1e-3 of the double sums
  int bad = bench_compare("s", s.h, ws, n, 1e-3, 1e-3) + bench_compare("q", q.h, wq, n, 1e-3, 1e-3);
  std::free(ws), std::free(wq);
  return bench_done("bicg", bad);
}
