// histogram: a 256-bin histogram of bytes, in the structure of the CUDA SDK's histogram256
// that WarpMan runs as HG (warpman Table 2: 16 warps and 4 KB of shared memory per TB, 10240
// registers per TB = 20 per thread, 3 TBs/SM on the GTX 480, limited by registers and threads;
// nvcc 11.8 needs 15, the trace allocates the paper's 20 with rfsim-trace -regs in trace.flags).
//   histogram256Kernel: each 512-thread block keeps four sub-histograms of 256 counters in
//     shared memory (4 KB), warp w adding into sub-histogram w % 4 with shared atomics so that
//     fewer warps contend for a bin; it clears them, synchronises, reads its words of the data
//     with a grid stride (4 bytes each, every byte an atomic increment), synchronises, and
//     sums the four sub-histograms into its row of per-block partial histograms;
//   mergeHistogram256Kernel: one 256-thread block per bin sums that bin over all blocks'
//     partial histograms with a shared-memory tree (a __syncthreads() per level).
// Input (seeded bytes, skewed towards a few values so bins collide): 240 blocks x 512 threads
// x 8 words = 3.9 MB. Usage: histogram [blocks [words_per_thread]].
#include "../common/bench.h"

#define THREADS 512
#define BINS 256
#define SUBS 4

__global__ void histogram256Kernel(unsigned *partial, const unsigned *data, int words) {
  __shared__ unsigned sub[SUBS][BINS];
  int t = threadIdx.x;
  for (int i = t; i < SUBS * BINS; i += THREADS) sub[i / BINS][i % BINS] = 0;
  __syncthreads();
  unsigned *mine = sub[(t >> 5) % SUBS];
  for (int i = blockIdx.x * THREADS + t; i < words; i += gridDim.x * THREADS) {
    unsigned w = data[i];
    atomicAdd(&mine[w & 0xff], 1u);
    atomicAdd(&mine[(w >> 8) & 0xff], 1u);
    atomicAdd(&mine[(w >> 16) & 0xff], 1u);
    atomicAdd(&mine[w >> 24], 1u);
  }
  __syncthreads();
  if (t < BINS) partial[blockIdx.x * BINS + t] = sub[0][t] + sub[1][t] + sub[2][t] + sub[3][t];
}

__global__ void mergeHistogram256Kernel(unsigned *hist, const unsigned *partial, int blocks) {
  __shared__ unsigned s[256];
  unsigned sum = 0;
  for (int b = threadIdx.x; b < blocks; b += 256) sum += partial[b * BINS + blockIdx.x];
  s[threadIdx.x] = sum;
  for (int half = 128; half > 0; half >>= 1) {
    __syncthreads();
    if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
  }
  if (threadIdx.x == 0) hist[blockIdx.x] = s[0];
}

int main(int argc, char **argv) {
  const char *usage = "histogram [blocks [words_per_thread]]";
  int blocks = bench_arg(argc, argv, 1, 240, usage), per = bench_arg(argc, argv, 2, 8, usage);
  int words = blocks * THREADS * per;
  Buf<unsigned> data(words), partial((size_t)blocks * BINS), hist(BINS);
  Rng r(131);
  unsigned want[BINS] = {0};
  for (int i = 0; i < words; i++) {
    unsigned w = 0;
    for (int b = 0; b < 4; b++) {
      unsigned v = r.below(4) ? r.below(256) : 32 + r.below(8); // a quarter in 8 hot bins
      want[v]++;
      w |= v << (8 * b);
    }
    data[i] = w;
  }
  data.up();
  histogram256Kernel<<<blocks, THREADS>>>(partial.d, data.d, words);
  CK_LAUNCH();
  mergeHistogram256Kernel<<<BINS, 256>>>(hist.d, partial.d, blocks);
  CK_LAUNCH();
  hist.down();
  return bench_done("histogram", bench_compare("bin", hist.h, want, BINS, 0, 0));
}
