// vectoradd: c = a + b on n floats, one thread per element, with the launch shape of the shared
// NVBit trace vectoradd_sm61 (n = 100, one block of 1024 threads). Built with loads cached at
// L2 only (-dlcm=cg, build.flags), as that trace's binary was. Usage: vectoradd [n [block]].
#include <cstdio>
#include <cstdlib>

template <typename T>
__global__ void vecAdd(const T *a, const T *b, T *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100, block = argc > 2 ? atoi(argv[2]) : 1024;
  if (n <= 0 || block <= 0 || block > 1024) {
    std::fprintf(stderr, "usage: vectoradd [n [block]]\n");
    return 2;
  }
  size_t bytes = (size_t)n * sizeof(float);
  float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
  unsigned seed = 12345;
  for (int i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    a[i] = (float)(seed >> 16) / 65536.0f;
    b[i] = (float)i * 0.5f;
  }
  float *da, *db, *dc;
  if (cudaMalloc(&da, bytes) || cudaMalloc(&db, bytes) || cudaMalloc(&dc, bytes)) {
    std::fprintf(stderr, "vectoradd: cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  vecAdd<float><<<(n + block - 1) / block, block>>>(da, db, dc, n);
  if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "vectoradd: launch failed\n");
    return 1;
  }
  cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (c[i] != a[i] + b[i] && bad++ < 5)
      std::fprintf(stderr, "vectoradd: c[%d] = %g, expected %g\n", i, c[i], a[i] + b[i]);
  std::printf("vectoradd: n = %d, block = %d: %s\n", n, block, bad ? "FAILED" : "ok");
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(a);
  free(b);
  free(c);
  return bad ? 1 : 0;
}
