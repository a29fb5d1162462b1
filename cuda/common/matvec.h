// matvec.h: the two matrix-vector products of PolyBench/GPU's BiCG and ATAX (cuda/bicg,
// cuda/atax), one thread per output element, each product split into chunks of MV_CHUNK terms
// over the grid's second dimension (FineReg's "more CTAs") and the chunks' partial sums added
// atomically:
//   mv_columns: out[j] += sum over the chunk of v[i] A[i][j]  (threads along a row: coalesced)
//   mv_rows:    out[i] += sum over the chunk of A[i][j] v[j]  (threads a row apart: not)
// and the host's double-precision references.
#ifndef CUDA_COMMON_MATVEC_H
#define CUDA_COMMON_MATVEC_H

#include "bench.h"

#define MV_THREADS 256
#define MV_CHUNK 128

__device__ __forceinline__ void mv_columns(const float *A, const float *v, float *out, int n) {
  int j = blockIdx.x * MV_THREADS + threadIdx.x, i0 = blockIdx.y * MV_CHUNK;
  float sum = 0.0f;
  for (int i = i0; i < i0 + MV_CHUNK; i++) sum += v[i] * A[(size_t)i * n + j];
  atomicAdd(&out[j], sum);
}

__device__ __forceinline__ void mv_rows(const float *A, const float *v, float *out, int n) {
  int i = blockIdx.x * MV_THREADS + threadIdx.x, j0 = blockIdx.y * MV_CHUNK;
  float sum = 0.0f;
  for (int j = j0; j < j0 + MV_CHUNK; j++) sum += A[(size_t)i * n + j] * v[j];
  atomicAdd(&out[i], sum);
}

// host: out = A^T v (columns) or A v (rows), in double, rounded to float
static void mv_host(const float *A, const float *v, float *out, int n, bool columns) {
  for (int k = 0; k < n; k++) {
    double s = 0;
    for (int m = 0; m < n; m++)
      s += columns ? (double)v[m] * A[(size_t)m * n + k] : (double)A[(size_t)k * n + m] * v[m];
    out[k] = (float)s;
  }
}

// n from the command line: a positive multiple of the block size, else exit 2
static int mv_size(int argc, char **argv, const char *usage) {
  int n = bench_arg(argc, argv, 1, 2048, usage);
  if (n % MV_THREADS || n % MV_CHUNK) {
    std::fprintf(stderr, "usage: %s\n", usage);
    std::exit(2);
  }
  return n;
}

#endif
