// syr2k: the symmetric rank-2k update C = alpha A B^T + alpha B A^T + beta C (PolyBench/GPU's
// SYR2K), one thread per element of C in 32 x 8 blocks: thread (i, j) walks row i of A and of B
// (the same word for all 32 threads of a warp: broadcasts) and row j of both (32 rows apart
// across the warp: every load touches 32 lines), so the kernel is memory-bound as FineReg
// describes SY2.
// Row: FineReg's SY2 (Type-S). Input (seeded): N = 384, M = 48 (12 x 48 = 576 blocks).
// Usage: syr2k [n [m]], n a multiple of 32.
#include "../common/bench.h"

#define BX 32
#define BY 8

__global__ void syr2k_kernel(const float *a, const float *b, float *c, float alpha, float beta, int n,
                             int m) {
  int j = blockIdx.x * BX + threadIdx.x, i = blockIdx.y * BY + threadIdx.y;
  float s = c[i * n + j] * beta;
  for (int k = 0; k < m; k++) s += alpha * a[i * m + k] * b[j * m + k] + alpha * b[i * m + k] * a[j * m + k];
  c[i * n + j] = s;
}

int main(int argc, char **argv) {
  const char *usage = "syr2k [n [m]] (n a multiple of 32)";
  int n = bench_arg(argc, argv, 1, 384, usage), m = bench_arg(argc, argv, 2, 48, usage);
  if (n % BX) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return 2;
  }
  Buf<float> a((size_t)n * m), b((size_t)n * m), c((size_t)n * n);
  Rng g(281);
  for (size_t i = 0; i < a.n; i++) a[i] = g.uniform(-1.0f, 1.0f), b[i] = g.uniform(-1.0f, 1.0f);
  for (size_t i = 0; i < c.n; i++) c[i] = g.uniform(-1.0f, 1.0f);
  float *want = (float *)std::malloc(c.bytes());
  if (!want) return 1;
  const float alpha = 1.5f, beta = 1.2f;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = (double)c[(size_t)i * n + j] * beta;
      for (int k = 0; k < m; k++)
        s += (double)alpha * a[(size_t)i * m + k] * b[(size_t)j * m + k] + (double)alpha * b[(size_t)i * m + k] * a[(size_t)j * m + k];
      want[(size_t)i * n + j] = (float)s;
    }
  a.up(), b.up(), c.up();
  syr2k_kernel<<<dim3(n / BX, n / BY), dim3(BX, BY)>>>(a.d, b.d, c.d, alpha, beta, n, m);
  CK_LAUNCH();
  c.down();
  int bad = bench_compare("C", c.h, want, c.n, 1e-4, 1e-4);
  std::free(want);
  return bench_done("syr2k", bad);
}
