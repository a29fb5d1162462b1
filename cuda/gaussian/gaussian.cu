// gaussian: Gaussian elimination of a dense system A x = b to upper-triangular form (Rodinia's
// gaussian), two kernels per pivot t:
//   Fan1: the multipliers m[i] = a[i][t] / a[t][t] of the rows below the pivot, one thread per
//     row, 512 threads per block (register sharing Set-2: Rodinia gaussian Fan1, 512 threads,
//     12 registers, limited by threads);
//   Fan2: a[i][j] -= m[i] a[t][j] over the trailing submatrix and the right-hand side, one
//     thread per element in 4 x 4 blocks (resource sharing Set-3: Fan2, limited by blocks).
// Every pivot shrinks the work, so later launches leave most threads idle.
// Input (seeded, diagonally dominant): n = 112 (111 pivots, 222 launches; 28 x 28 blocks of
// Fan2 at first). Usage: gaussian [n].
#include "../common/bench.h"

#define FAN1_THREADS 512
#define B2 4

__global__ void Fan1(const float *a, float *m, int n, int t) {
  int i = blockIdx.x * FAN1_THREADS + threadIdx.x;
  if (i >= n - 1 - t) return;
  int row = i + t + 1;
  m[row * n + t] = a[row * n + t] / a[t * n + t];
}

__global__ void Fan2(float *a, float *b, const float *m, int n, int t) {
  int x = blockIdx.x * B2 + threadIdx.x, y = blockIdx.y * B2 + threadIdx.y;
  if (x >= n - 1 - t || y >= n - t) return;
  int row = x + t + 1, col = y + t;
  a[row * n + col] -= m[row * n + t] * a[t * n + col];
  if (y == 0) b[row] -= m[row * n + t] * b[t];
}

int main(int argc, char **argv) {
  int n = bench_arg(argc, argv, 1, 112, "gaussian [n]");
  Buf<float> a((size_t)n * n), b(n), m((size_t)n * n);
  Rng r(201);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) a[(size_t)i * n + j] = r.uniform(-1.0f, 1.0f);
    a[(size_t)i * n + i] += (float)n;
    b[i] = r.uniform(-1.0f, 1.0f);
  }
  float *ha = (float *)std::malloc(a.bytes()), *hb = (float *)std::malloc(b.bytes()), *hm = (float *)std::calloc(m.n, sizeof(float));
  if (!ha || !hb || !hm) return 1;
  std::memcpy(ha, a.h, a.bytes());
  std::memcpy(hb, b.h, b.bytes());
  a.up(), b.up(), m.up();
  for (int t = 0; t < n - 1; t++) {
    Fan1<<<(n + FAN1_THREADS - 1) / FAN1_THREADS, FAN1_THREADS>>>(a.d, m.d, n, t);
    CK_LAUNCH();
    Fan2<<<dim3((n + B2 - 1) / B2, (n + B2 - 1) / B2), dim3(B2, B2)>>>(a.d, b.d, m.d, n, t);
    CK_LAUNCH();
    for (int row = t + 1; row < n; row++) {
      float f = ha[(size_t)row * n + t] / ha[(size_t)t * n + t];
      hm[(size_t)row * n + t] = f;
      for (int col = t; col < n; col++) ha[(size_t)row * n + col] -= f * ha[(size_t)t * n + col];
      hb[row] -= f * hb[t];
    }
  }
  a.down(), b.down(), m.down();
  int bad = bench_compare("a", a.h, ha, a.n, 1e-4, 1e-4) + bench_compare("b", b.h, hb, b.n, 1e-4, 1e-4) +
            bench_compare("m", m.h, hm, m.n, 1e-4, 1e-6);
  std::free(ha), std::free(hb), std::free(hm);
  return bench_done("gaussian", bad);
}
