// sgemm: C = alpha A B^T + beta C in single precision, column-major (Parboil's sgemm "NT"),
// register-tiled in the way of Parboil's mysgemmNT: a block of 16 x 8 = 128 threads computes a
// 128 x 16 tile of C; each thread owns one row of it and keeps those 16 sums in registers.
// Per step of 8 along k, the block stages an 8 x 16 slice of B in shared memory (512 B), one
// element per thread, synchronises, and every thread reads 8 elements of its row of A from
// global memory and does 8 x 16 multiply-adds against the shared slice; synchronise again.
// Rows: register sharing Set-1 (Parboil sgemm mysgemmNT, 128 threads, 48 registers, 5 TBs/SM
// on the Tesla C2050, 8 with 90% sharing) and FineReg's SG (Type-R).
// nvcc 11.8 needs 42 registers; the trace allocates the paper's 48 (trace.flags).
// Input (seeded small integers, so every sum is exact): m = 1024, n = 256, k = 256 (8 x 16 =
// 128 TBs), alpha = 1, beta = 1. Usage: sgemm [m [n [k]]], multiples of 128, 16 and 8.
#include "../common/bench.h"

#define TN 16 // columns of C per block
#define TH 8  // threads per column of the block, and the k step
#define TM (TN * TH)

__global__ void mysgemmNT(const float *A, int lda, const float *B, int ldb, float *C, int ldc,
                          int k, float alpha, float beta) {
  __shared__ float bs[TH][TN];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.x * TM + ty * TN + tx, n0 = blockIdx.y * TN;
  float c[TN];
#pragma unroll
  for (int j = 0; j < TN; j++) c[j] = 0.0f;
  for (int i = 0; i < k; i += TH) {
    bs[ty][tx] = B[n0 + tx + (i + ty) * ldb];
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < TH; kk++) {
      float a = A[m + (i + kk) * lda];
#pragma unroll
      for (int j = 0; j < TN; j++) c[j] += a * bs[kk][j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int j = 0; j < TN; j++) C[m + (n0 + j) * ldc] = alpha * c[j] + beta * C[m + (n0 + j) * ldc];
}

int main(int argc, char **argv) {
  const char *usage = "sgemm [m [n [k]]] (multiples of 128, 16 and 8)";
  int m = bench_arg(argc, argv, 1, 1024, usage), n = bench_arg(argc, argv, 2, 256, usage),
      k = bench_arg(argc, argv, 3, 256, usage);
  if (m % TM || n % TN || k % TH) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return 2;
  }
  Buf<float> A((size_t)m * k), B((size_t)n * k), C((size_t)m * n);
  Rng r(181);
  for (size_t i = 0; i < A.n; i++) A[i] = (float)((int)r.below(9) - 4);
  for (size_t i = 0; i < B.n; i++) B[i] = (float)((int)r.below(9) - 4);
  for (size_t i = 0; i < C.n; i++) C[i] = (float)((int)r.below(5) - 2);
  float *want = (float *)std::malloc(C.bytes());
  if (!want) return 1;
  for (int col = 0; col < n; col++)
    for (int row = 0; row < m; row++) {
      float s = 0.0f;
      for (int i = 0; i < k; i++) s += A[row + (size_t)i * m] * B[col + (size_t)i * n];
      want[row + (size_t)col * m] = s + C[row + (size_t)col * m];
    }
  A.up(), B.up(), C.up();
  mysgemmNT<<<dim3(m / TM, n / TN), dim3(TN, TH)>>>(A.d, m, B.d, n, C.d, m, k, 1.0f, 1.0f);
  CK_LAUNCH();
  C.down();
  int bad = bench_compare("C", C.h, want, C.n, 0, 0);
  std::free(want);
  return bench_done("sgemm", bad);
}
