// montecarlo: European call options priced by Monte Carlo simulation of the asset's log-normal
// price: payoff max(S exp((r - v^2/2) T + v sqrt(T) z) - X, 0) over many normal samples z, its
// discounted mean and the standard error. This is WarpMan's MC (warpman Table 2: CUDA SDK
// MonteCarlo, 12 warps per TB, 7680 registers per TB = 20 per thread, no shared memory, 4 TBs/SM
// on the GTX 480, limited by registers and threads together) and FineReg's MC (Type-S).
//
// MonteCarloPaths: a grid of (blocks per option, options), 384 threads per block; each thread
// walks the shared array of normal samples with a grid stride, accumulating the payoff and its
// square in registers, and writes its two partial sums to global memory (no shared memory, as
// the table says). Every option's blocks re-read the same samples (repeated loads across
// warps). MonteCarloReduce: one 32-thread block per option sums its partials and writes price
// and confidence (little work; the first kernel is the benchmark).
//
// Input (seeded): 32 options x 8 blocks (256 TBs of 12 warps), 2^17 samples (Box-Muller on the
// host), 43 paths per thread. Usage: montecarlo [options [blocks_per_option]].
#include "../common/bench.h"

#define THREADS 384
#define SAMPLES (1 << 17)

struct Option {
  float s, x, t, r, v;
};

__global__ void MonteCarloPaths(const Option *__restrict__ opt, const float *__restrict__ z,
                                float2 *__restrict__ partial, int nsamples) {
  const Option o = opt[blockIdx.y];
  float drift = (o.r - 0.5f * o.v * o.v) * o.t, vol = o.v * sqrtf(o.t);
  int tid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  float sum = 0.0f, sum2 = 0.0f;
  for (int i = tid; i < nsamples; i += stride) {
    float price = o.s * __expf(drift + vol * z[i]);
    float pay = fmaxf(price - o.x, 0.0f);
    sum += pay;
    sum2 += pay * pay;
  }
  partial[blockIdx.y * stride + tid] = make_float2(sum, sum2);
}

__global__ void MonteCarloReduce(const Option *__restrict__ opt, const float2 *__restrict__ partial,
                                 int per_option, int nsamples, float2 *__restrict__ result) {
  const float2 *p = partial + blockIdx.x * per_option;
  float sum = 0.0f, sum2 = 0.0f;
  for (int i = threadIdx.x; i < per_option; i += 32) {
    sum += p[i].x;
    sum2 += p[i].y;
  }
  for (int d = 16; d > 0; d >>= 1) {
    sum += __shfl_down_sync(0xffffffffu, sum, d);
    sum2 += __shfl_down_sync(0xffffffffu, sum2, d);
  }
  if (threadIdx.x == 0) {
    const Option o = opt[blockIdx.x];
    float disc = __expf(-o.r * o.t), mean = sum / nsamples;
    float var = fmaxf(sum2 / nsamples - mean * mean, 0.0f);
    result[blockIdx.x] = make_float2(disc * mean, disc * sqrtf(var / nsamples));
  }
}

int main(int argc, char **argv) {
  const char *usage = "montecarlo [options [blocks_per_option]]";
  int nopt = bench_arg(argc, argv, 1, 32, usage), bpo = bench_arg(argc, argv, 2, 8, usage);
  if (nopt > 65535) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return 2;
  }
  Buf<Option> opt(nopt);
  Buf<float> z(SAMPLES);
  int per_option = bpo * THREADS;
  Buf<float2> partial((size_t)nopt * per_option), result(nopt);
  Rng r(31);
  for (int i = 0; i < nopt; i++)
    opt[i] = Option{r.uniform(5.0f, 50.0f), r.uniform(10.0f, 25.0f), r.uniform(1.0f, 5.0f), 0.06f,
                    r.uniform(0.1f, 0.4f)};
  for (int i = 0; i < SAMPLES; i += 2) {
    double u1 = (r.next() + 1.0) / 4294967297.0, u2 = r.next() / 4294967296.0;
    double m = std::sqrt(-2.0 * std::log(u1));
    z[i] = (float)(m * std::cos(6.283185307179586 * u2));
    z[i + 1] = (float)(m * std::sin(6.283185307179586 * u2));
  }
  opt.up();
  z.up();
  MonteCarloPaths<<<dim3(bpo, nopt), THREADS>>>(opt.d, z.d, partial.d, SAMPLES);
  CK_LAUNCH();
  MonteCarloReduce<<<nopt, 32>>>(opt.d, partial.d, per_option, SAMPLES, result.d);
  CK_LAUNCH();
  result.down();
  float *want = (float *)std::malloc(2 * nopt * sizeof(float)), *got = (float *)std::malloc(2 * nopt * sizeof(float));
  if (!want || !got) return 1;
  for (int k = 0; k < nopt; k++) {
    const Option &o = opt[k];
    double drift = (o.r - 0.5 * o.v * o.v) * o.t, vol = o.v * std::sqrt((double)o.t);
    double sum = 0, sum2 = 0;
    for (int i = 0; i < SAMPLES; i++) {
      double pay = std::fmax(o.s * std::exp(drift + vol * z[i]) - o.x, 0.0);
      sum += pay;
      sum2 += pay * pay;
    }
    double disc = std::exp(-o.r * o.t), mean = sum / SAMPLES;
    want[2 * k] = (float)(disc * mean);
    want[2 * k + 1] = (float)(disc * std::sqrt(std::fmax(sum2 / SAMPLES - mean * mean, 0.0) / SAMPLES));
    got[2 * k] = result[k].x;
    got[2 * k + 1] = result[k].y;
  }
  // float partial sums and __expf against a double reference: agree to about 1e-4
  int bad = bench_compare("price,confidence", got, want, 2 * nopt, 2e-4, 1e-4);
  std::free(want);
  std::free(got);
  return bench_done("montecarlo", bad);
}
