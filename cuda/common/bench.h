// bench.h: what every benchmark program in cuda/ shares on the host side: a seeded generator
// for its inputs, a check of every CUDA call, buffers that are freed on every path, and the
// comparison of the device's results with the program's own plain C computation. A program
// exits 0 only if every result agrees (rfsim-trace keeps no trace otherwise), 1 if one differs
// or a call fails, 2 on a bad argument.
#ifndef CUDA_COMMON_BENCH_H
#define CUDA_COMMON_BENCH_H

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// A CUDA call that fails ends the program: a benchmark whose device run did not happen has
// nothing to check.
#define CK(call)                                                                               \
  do {                                                                                         \
    cudaError_t ck_e = (call);                                                                 \
    if (ck_e != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                       \
                   cudaGetErrorString(ck_e));                                                  \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

// After a launch: the launch itself and the kernel's completion.
#define CK_LAUNCH()                                                                            \
  do {                                                                                         \
    CK(cudaGetLastError());                                                                    \
    CK(cudaDeviceSynchronize());                                                               \
  } while (0)

// xorshift32: the inputs are a pure function of the seed, so traces repeat byte for byte.
struct Rng {
  uint32_t s;
  explicit Rng(uint32_t seed) : s(seed ? seed : 0x9e3779b9u) {}
  uint32_t next() {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
  }
  // uniform in [0, n)
  uint32_t below(uint32_t n) { return (uint32_t)(((uint64_t)next() * n) >> 32); }
  // uniform in [lo, hi)
  float uniform(float lo, float hi) { return lo + (hi - lo) * (float)(next() >> 8) * (1.0f / 16777216.0f); }
};

// Host and device copies of one array; the device copy is freed when it goes out of scope.
template <typename T> struct Buf {
  T *h = nullptr, *d = nullptr;
  size_t n = 0;
  explicit Buf(size_t count) : n(count) {
    h = (T *)std::calloc(count ? count : 1, sizeof(T));
    if (!h) {
      std::fprintf(stderr, "out of host memory (%zu elements)\n", count);
      std::exit(1);
    }
    CK(cudaMalloc((void **)&d, (count ? count : 1) * sizeof(T)));
  }
  ~Buf() {
    cudaFree(d);
    std::free(h);
  }
  Buf(const Buf &) = delete;
  Buf &operator=(const Buf &) = delete;
  size_t bytes() const { return n * sizeof(T); }
  void up() { CK(cudaMemcpy(d, h, bytes(), cudaMemcpyHostToDevice)); }
  void down() { CK(cudaMemcpy(h, d, bytes(), cudaMemcpyDeviceToHost)); }
  T &operator[](size_t i) { return h[i]; }
  const T &operator[](size_t i) const { return h[i]; }
};

// Counts the elements where got and want differ by more than abs_tol + rel_tol * |want|
// (0 and 0 for exact integer results), naming the first few.
template <typename T>
static int bench_compare(const char *what, const T *got, const T *want, size_t n, double rel_tol,
                         double abs_tol) {
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    double g = (double)got[i], w = (double)want[i];
    bool ok = std::fabs(g - w) <= abs_tol + rel_tol * std::fabs(w);
    if (!ok && bad++ < 5)
      std::fprintf(stderr, "%s[%zu] = %.9g, expected %.9g\n", what, i, g, w);
  }
  if (bad > 5) std::fprintf(stderr, "%s: %d of %zu elements differ\n", what, bad, n);
  return bad;
}

// A positive integer argument, or the default when it is absent; anything else ends with 2.
static int bench_arg(int argc, char **argv, int i, int dflt, const char *usage) {
  if (argc <= i) return dflt;
  char *end;
  long v = std::strtol(argv[i], &end, 10);
  if (*end || v <= 0 || v > (1L << 28)) {
    std::fprintf(stderr, "usage: %s\n", usage);
    std::exit(2);
  }
  return (int)v;
}

// The program's last line: what ran and whether it agreed with the host.
static int bench_done(const char *name, int bad) {
  std::printf("%s: %s\n", name, bad ? "FAILED" : "ok");
  return bad ? 1 : 0;
}

#endif
