// radixsort: least-significant-digit radix sort of unsigned keys, 4 bits per pass, in the
// structure of the CUDA SDK's radixSort that WarpMan runs as RS (warpman Table 2: 16 warps and
// 4 KB of shared memory per TB, 11776 registers per TB = 23 per thread, 2 TBs/SM on the GTX
// 480, limited by registers). Per pass:
//   radixSortBlocks: a 512-thread block sorts its tile of 1024 keys (2 per thread) by the pass's
//     digit with four stable 1-bit splits; each split ranks the keys with a block-wide scan
//     (warp shuffles, then the 16 warp totals) and exchanges them through a 4 KB shared array,
//     with a __syncthreads() before and after every exchange;
//   findRadixOffsets: each block finds where every digit starts in its sorted tile and writes
//     the digit counts digit-major (the layout a global scan wants);
//   scanCounts: one block scans the counts (exclusive prefix sum);
//   reorderData: every key goes to its digit's global offset plus its rank within the tile.
// Input (seeded): 96 tiles of 1024 random 16-bit keys (98,304 keys, 4 passes; 96 TBs = 3.2
// waves of 30 on the GTX 480). Usage: radixsort [tiles [key_bits]], key_bits a multiple of 4.
#include "../common/bench.h"
#include "../common/block_scan.h"

#define THREADS 512
#define TILE (2 * THREADS)
#define WARPS (THREADS / 32)
#define RADIX 16

__global__ void radixSortBlocks(const unsigned *in, unsigned *out, int shift) {
  __shared__ unsigned s_keys[TILE];
  __shared__ unsigned s_warp[WARPS + 1];
  int t = threadIdx.x;
  const unsigned *tile = in + blockIdx.x * TILE;
  unsigned k0 = tile[2 * t], k1 = tile[2 * t + 1];
  for (int b = shift; b < shift + 4; b++) {
    unsigned f0 = !((k0 >> b) & 1), f1 = !((k1 >> b) & 1), zeros;
    unsigned r0 = block_scan<WARPS>(f0 + f1, s_warp, &zeros), r1 = r0 + f0;
    // zeros keep their order at the front, ones after them
    unsigned p0 = f0 ? r0 : zeros + 2 * t - r0, p1 = f1 ? r1 : zeros + 2 * t + 1 - r1;
    s_keys[p0] = k0;
    s_keys[p1] = k1;
    __syncthreads();
    k0 = s_keys[2 * t];
    k1 = s_keys[2 * t + 1];
    __syncthreads();
  }
  out[blockIdx.x * TILE + 2 * t] = k0;
  out[blockIdx.x * TILE + 2 * t + 1] = k1;
}

__global__ void findRadixOffsets(const unsigned *keys, unsigned *counts, unsigned *starts,
                                 int shift, int tiles) {
  __shared__ unsigned s_start[RADIX], s_end[RADIX];
  int t = threadIdx.x;
  const unsigned *tile = keys + blockIdx.x * TILE;
  if (t < RADIX) s_start[t] = s_end[t] = 0;
  __syncthreads();
  for (int i = t; i < TILE; i += THREADS) {
    unsigned d = (tile[i] >> shift) & (RADIX - 1);
    if (i == 0 || d != ((tile[i - 1] >> shift) & (RADIX - 1))) s_start[d] = i;
    if (i == TILE - 1 || d != ((tile[i + 1] >> shift) & (RADIX - 1))) s_end[d] = i + 1;
  }
  __syncthreads();
  if (t < RADIX) {
    counts[t * tiles + blockIdx.x] = s_end[t] - s_start[t];
    starts[blockIdx.x * RADIX + t] = s_start[t];
  }
}

// exclusive scan of n counts, n at most 4 * THREADS * chunk, by one block
__global__ void scanCounts(unsigned *counts, int n) {
  __shared__ unsigned s_warp[WARPS + 1];
  int per = (n + THREADS - 1) / THREADS, lo = threadIdx.x * per;
  unsigned sum = 0, total;
  for (int i = lo; i < lo + per && i < n; i++) sum += counts[i];
  unsigned run = block_scan<WARPS>(sum, s_warp, &total);
  for (int i = lo; i < lo + per && i < n; i++) {
    unsigned c = counts[i];
    counts[i] = run;
    run += c;
  }
}

__global__ void reorderData(const unsigned *keys, unsigned *out, const unsigned *offsets,
                            const unsigned *starts, int shift, int tiles) {
  for (int i = threadIdx.x; i < TILE; i += THREADS) {
    unsigned k = keys[blockIdx.x * TILE + i], d = (k >> shift) & (RADIX - 1);
    out[offsets[d * tiles + blockIdx.x] + i - starts[blockIdx.x * RADIX + d]] = k;
  }
}

int main(int argc, char **argv) {
  const char *usage = "radixsort [tiles [key_bits]] (key_bits a multiple of 4, at most 32)";
  int tiles = bench_arg(argc, argv, 1, 96, usage), bits = bench_arg(argc, argv, 2, 16, usage);
  if (bits % 4 || bits > 32 || tiles * RADIX > 4 * THREADS * 64) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return 2;
  }
  size_t n = (size_t)tiles * TILE;
  Buf<unsigned> a(n), b(n), counts((size_t)RADIX * tiles), starts((size_t)RADIX * tiles);
  Rng r(41);
  unsigned mask = bits == 32 ? 0xffffffffu : (1u << bits) - 1;
  for (size_t i = 0; i < n; i++) a[i] = r.next() & mask;
  a.up();
  for (int shift = 0; shift < bits; shift += 4) {
    radixSortBlocks<<<tiles, THREADS>>>(a.d, b.d, shift);
    CK_LAUNCH();
    findRadixOffsets<<<tiles, THREADS>>>(b.d, counts.d, starts.d, shift, tiles);
    CK_LAUNCH();
    scanCounts<<<1, THREADS>>>(counts.d, RADIX * tiles);
    CK_LAUNCH();
    reorderData<<<tiles, THREADS>>>(b.d, a.d, counts.d, starts.d, shift, tiles);
    CK_LAUNCH();
  }
  unsigned *want = (unsigned *)std::malloc(n * sizeof(unsigned));
  if (!want) return 1;
  std::memcpy(want, a.h, n * sizeof(unsigned));
  a.down();
  std::qsort(want, n, sizeof(unsigned), [](const void *x, const void *y) {
    unsigned p = *(const unsigned *)x, q = *(const unsigned *)y;
    return p < q ? -1 : p > q;
  });
  int bad = bench_compare("sorted", a.h, want, n, 0.0, 0.0);
  std::free(want);
  return bench_done("radixsort", bad);
}
