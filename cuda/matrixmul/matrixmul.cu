// matrixmul: C = A * B for n x n floats with 32 x 32 shared-memory tiles (each block loads a
// tile of A and of B per step, synchronises, accumulates, synchronises), with the launch shape
// of the shared NVBit trace matrixmul_sm61 (n = 32: one block of 32 x 32 threads, 8 KB of
// shared memory). Checked against a plain host product. Usage: matrixmul [n], n a multiple of 32.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define TILE 32

template <typename T>
__global__ void mult_gpu(const T *a, const T *b, T *c, int n) {
  __shared__ T as[TILE][TILE];
  __shared__ T bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  T sum = 0;
  for (int m = 0; m < n / TILE; m++) {
    as[ty][tx] = a[row * n + m * TILE + tx];
    bs[ty][tx] = b[(m * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++) sum += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 32;
  if (n <= 0 || n % TILE) {
    std::fprintf(stderr, "usage: matrixmul [n], n a positive multiple of %d\n", TILE);
    return 2;
  }
  size_t bytes = (size_t)n * n * sizeof(float);
  float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
  unsigned seed = 777;
  for (int i = 0; i < n * n; i++) {
    seed = seed * 1664525u + 1013904223u;
    a[i] = (float)((seed >> 20) % 17) - 8.0f;
    seed = seed * 1664525u + 1013904223u;
    b[i] = (float)((seed >> 20) % 13) - 6.0f;
  }
  float *da, *db, *dc;
  if (cudaMalloc(&da, bytes) || cudaMalloc(&db, bytes) || cudaMalloc(&dc, bytes)) {
    std::fprintf(stderr, "matrixmul: cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  mult_gpu<float><<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(da, db, dc, n);
  if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "matrixmul: launch failed\n");
    return 1;
  }
  cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
      if (c[i * n + j] != s && bad++ < 5) /* small integers: every sum is exact */
        std::fprintf(stderr, "matrixmul: c[%d][%d] = %g, expected %g\n", i, j, c[i * n + j], s);
    }
  std::printf("matrixmul: n = %d: %s\n", n, bad ? "FAILED" : "ok");
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(a);
  free(b);
  free(c);
  return bad ? 1 : 0;
}
