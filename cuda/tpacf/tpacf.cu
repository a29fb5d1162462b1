// tpacf: the two-point angular correlation function's pair counts (Parboil's TPACF): for
// points on the sky (unit vectors), a histogram of the angular separations of all pairs
// between two sets, in 32 bins by the cosine of the angle. gen_hists: a 128-thread block owns
// 128 points of the first set and one chunk of 512 points of the second, which it stages in
// shared memory (6 KB); each thread then takes every staged point in turn: a dot product, a
// binary search through the bin edges in constant memory, and an atomic increment of its
// group's sub-histogram (one per 8 threads: 16 x 32 counters, 2 KB, in shared memory); the
// block finally adds its sub-histograms into the global histogram. 8 KB of shared memory per
// block is what limits how many blocks an SM holds.
// Row: FineReg's TA (Type-R: "depletes" shared memory). Input (seeded points): 1024 x 6144
// pairs (8 x 12 = 96 blocks). Usage: tpacf [n1 [n2]], multiples of 128 and 512.
// The dot product's rounding is pinned (__fmaf_rn) so that the host bins every pair alike.
#include "../common/bench.h"

#define THREADS 64
#define STAGE 128
#define BINS 32
#define GROUP 4

__constant__ float c_edges[BINS - 1]; // decreasing cosines: bin b holds edges[b-1] > dot >= edges[b]

__host__ __device__ inline int bin_of(float dot, const float *edges) {
  int lo = 0, hi = BINS - 1; // the first edge the dot is not below
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (dot >= edges[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

__global__ void gen_hists(const float3 *p1, const float3 *p2, unsigned *hist) {
  __shared__ float sx[STAGE], sy[STAGE], sz[STAGE];
  __shared__ unsigned sub[THREADS / GROUP][BINS];
  int t = threadIdx.x;
  for (int i = t; i < STAGE; i += THREADS) {
    float3 q = p2[blockIdx.y * STAGE + i];
    sx[i] = q.x, sy[i] = q.y, sz[i] = q.z;
  }
  for (int i = t; i < (THREADS / GROUP) * BINS; i += THREADS) sub[i / BINS][i % BINS] = 0;
  __syncthreads();
  float3 me = p1[blockIdx.x * THREADS + t];
  unsigned *mine = sub[t / GROUP];
  for (int j = 0; j < STAGE; j++) {
    float dot = __fmaf_rn(me.z, sz[j], __fmaf_rn(me.y, sy[j], __fmul_rn(me.x, sx[j])));
    atomicAdd(&mine[bin_of(dot, c_edges)], 1u);
  }
  __syncthreads();
  if (t < BINS) {
    unsigned s = 0;
    for (int g = 0; g < THREADS / GROUP; g++) s += sub[g][t];
    atomicAdd(&hist[t], s);
  }
}

static float3 random_dir(Rng &g) {
  float z = g.uniform(-1.0f, 1.0f), phi = g.uniform(0.0f, 6.2831853f), r = std::sqrt(1.0f - z * z);
  return make_float3(r * std::cos(phi), r * std::sin(phi), z);
}

int main(int argc, char **argv) {
  const char *usage = "tpacf [n1 [n2]] (multiples of 64 and 128)";
  int n1 = bench_arg(argc, argv, 1, 1024, usage), n2 = bench_arg(argc, argv, 2, 1536, usage);
  if (n1 % THREADS || n2 % STAGE) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return 2;
  }
  Buf<float3> p1(n1), p2(n2);
  Buf<unsigned> hist(BINS);
  Rng g(341);
  for (int i = 0; i < n1; i++) p1[i] = random_dir(g);
  for (int i = 0; i < n2; i++) p2[i] = random_dir(g);
  float edges[BINS - 1]; // logarithmic in angle, from 0.001 to 1 radian
  for (int b = 0; b < BINS - 1; b++) edges[b] = std::cos(0.001f * std::pow(1000.0f, (b + 1) / (float)(BINS - 1)));
  CK(cudaMemcpyToSymbol(c_edges, edges, sizeof edges));
  p1.up(), p2.up(), hist.up();
  gen_hists<<<dim3(n1 / THREADS, n2 / STAGE), THREADS>>>(p1.d, p2.d, hist.d);
  CK_LAUNCH();
  hist.down();
  unsigned want[BINS] = {0};
  for (int i = 0; i < n1; i++)
    for (int j = 0; j < n2; j++) {
      float dot = fmaf(p1[i].z, p2[j].z, fmaf(p1[i].y, p2[j].y, p1[i].x * p2[j].x));
      want[bin_of(dot, edges)]++;
    }
  return bench_done("tpacf", bench_compare("bin", hist.h, want, BINS, 0, 0));
}
