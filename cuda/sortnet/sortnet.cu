// sortnet: bitonic sort of key-value pairs, as the CUDA SDK's sortingNetworks that WarpMan runs
// as SN (warpman Table 2: 16 warps and 8 KB of shared memory per TB, 8704 registers per TB = 17
// per thread, 3 TBs/SM on the GTX 480, limited by threads). The sorting network is the classic
// one: for every stage size = 2, 4, ... N and stride = size/2 ... 1, element i is compared with
// i ^ stride and the pair ordered ascending where i & size is 0, descending elsewhere.
//   bitonicSortShared: each 512-thread block loads a chunk of 1024 pairs into shared memory
//     (8 KB) and runs every stage up to size 1024, one comparator per thread per step, a
//     __syncthreads() between steps (55 steps);
//   bitonicMergeGlobal: one step of stride >= 1024 of a larger stage, straight in global memory;
//   bitonicMergeShared: the remaining strides 512 ... 1 of a larger stage in shared memory.
// The step loops stay loops (unroll 1): so nvcc gives bitonicSortShared the paper's 17
// registers (unrolled, it takes 32).
// Input (seeded): N = 64 chunks x 1024 = 65,536 random keys, values their original positions
// (28 launches; 64 TBs of the shared kernels = 1.4 waves of 45). Usage: sortnet [chunks], a
// power of two.
#include "../common/bench.h"

#define THREADS 512
#define CHUNK (2 * THREADS)

__device__ __forceinline__ void cmp_swap(unsigned &ka, unsigned &va, unsigned &kb, unsigned &vb,
                                         bool up) {
  if ((ka > kb) == up) {
    unsigned t = ka;
    ka = kb;
    kb = t;
    t = va;
    va = vb;
    vb = t;
  }
}

// the comparator a thread owns at a stride: its lower element's position within the chunk
__device__ __forceinline__ int lower(int t, int stride) { return 2 * t - (t & (stride - 1)); }

// a block's chunk of pairs between global and shared memory, two per thread
__device__ __forceinline__ void load_chunk(unsigned *sk, unsigned *sv, const unsigned *keys,
                                           const unsigned *vals, int base) {
  int t = threadIdx.x;
  sk[t] = keys[base + t];
  sv[t] = vals[base + t];
  sk[t + THREADS] = keys[base + t + THREADS];
  sv[t + THREADS] = vals[base + t + THREADS];
}
__device__ __forceinline__ void store_chunk(unsigned *keys, unsigned *vals, const unsigned *sk,
                                            const unsigned *sv, int base) {
  int t = threadIdx.x;
  keys[base + t] = sk[t];
  vals[base + t] = sv[t];
  keys[base + t + THREADS] = sk[t + THREADS];
  vals[base + t + THREADS] = sv[t + THREADS];
}

__global__ void bitonicSortShared(unsigned *keys, unsigned *vals) {
  __shared__ unsigned sk[CHUNK], sv[CHUNK];
  int t = threadIdx.x, base = blockIdx.x * CHUNK;
  load_chunk(sk, sv, keys, vals, base);
#pragma unroll 1
  for (int size = 2; size <= CHUNK; size <<= 1)
#pragma unroll 1
    for (int stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      int i = lower(t, stride);
      cmp_swap(sk[i], sv[i], sk[i + stride], sv[i + stride], ((base + i) & size) == 0);
    }
  __syncthreads();
  store_chunk(keys, vals, sk, sv, base);
}

__global__ void bitonicMergeGlobal(unsigned *keys, unsigned *vals, int size, int stride) {
  int t = blockIdx.x * THREADS + threadIdx.x, i = lower(t, stride), j = i + stride;
  unsigned ka = keys[i], kb = keys[j], va = vals[i], vb = vals[j];
  cmp_swap(ka, va, kb, vb, (i & size) == 0);
  keys[i] = ka;
  keys[j] = kb;
  vals[i] = va;
  vals[j] = vb;
}

__global__ void bitonicMergeShared(unsigned *keys, unsigned *vals, int size) {
  __shared__ unsigned sk[CHUNK], sv[CHUNK];
  int t = threadIdx.x, base = blockIdx.x * CHUNK;
  load_chunk(sk, sv, keys, vals, base);
  bool up = (base & size) == 0; // one direction for the whole chunk: size > CHUNK
#pragma unroll 1
  for (int stride = CHUNK / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    int i = lower(t, stride);
    cmp_swap(sk[i], sv[i], sk[i + stride], sv[i + stride], up);
  }
  __syncthreads();
  store_chunk(keys, vals, sk, sv, base);
}

int main(int argc, char **argv) {
  const char *usage = "sortnet [chunks] (a power of two)";
  int chunks = bench_arg(argc, argv, 1, 64, usage);
  if (chunks & (chunks - 1)) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return 2;
  }
  int n = chunks * CHUNK;
  Buf<unsigned> k(n), v(n);
  Rng r(51);
  for (int i = 0; i < n; i++) {
    k[i] = r.next();
    v[i] = i;
  }
  unsigned *orig = (unsigned *)std::malloc(n * sizeof(unsigned));
  if (!orig) return 1;
  std::memcpy(orig, k.h, n * sizeof(unsigned));
  k.up();
  v.up();
  bitonicSortShared<<<chunks, THREADS>>>(k.d, v.d);
  CK_LAUNCH();
  for (int size = 2 * CHUNK; size <= n; size <<= 1) {
    for (int stride = size / 2; stride >= CHUNK; stride >>= 1) {
      bitonicMergeGlobal<<<n / 2 / THREADS, THREADS>>>(k.d, v.d, size, stride);
      CK_LAUNCH();
    }
    bitonicMergeShared<<<chunks, THREADS>>>(k.d, v.d, size);
    CK_LAUNCH();
  }
  k.down();
  v.down();
  // the keys in order, and every value the position its key came from
  unsigned *want = (unsigned *)std::malloc(n * sizeof(unsigned)), *from = (unsigned *)std::malloc(n * sizeof(unsigned));
  if (!want || !from) return 1;
  std::memcpy(want, orig, n * sizeof(unsigned));
  std::qsort(want, n, sizeof(unsigned), [](const void *x, const void *y) {
    unsigned p = *(const unsigned *)x, q = *(const unsigned *)y;
    return p < q ? -1 : p > q;
  });
  for (int i = 0; i < n; i++) from[i] = v[i] < (unsigned)n ? orig[v[i]] : ~k[i];
  int bad = bench_compare("keys", k.h, want, n, 0.0, 0.0) + bench_compare("key of value", from, k.h, n, 0.0, 0.0);
  std::free(orig);
  std::free(want);
  std::free(from);
  return bench_done("sortnet", bad);
}
