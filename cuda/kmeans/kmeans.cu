// kmeans: k-means clustering (Lloyd's iterations, Rodinia's kmeans structure): kmeansPoint
// gives each point, one thread per point in 256-thread blocks, the nearest of K centres by
// squared Euclidean distance over F features; the features are stored feature-major so that a
// warp's loads of one feature are coalesced, the centres sit in constant memory (every thread
// reads the same centre word at once). The host moves the centres to their members' means and
// launches the next iteration. Memory-bound: one load per feature and centre pair's worth of
// arithmetic.
// Row: FineReg's KM (Type-S). Input (seeded clustered points): 65,536 points of 16 features,
// K = 5, 3 iterations (256 blocks per launch). Usage: kmeans [points [iterations]], points a
// multiple of 256.
#include "../common/bench.h"

#define THREADS 256
#define F 16
#define K 5

__constant__ float c_centres[K * F];

__global__ void kmeansPoint(const float *features, int *membership, int n) {
  int p = blockIdx.x * THREADS + threadIdx.x;
  int best = 0;
  float bestd = 3.4e38f;
  for (int k = 0; k < K; k++) {
    float d = 0.0f;
    for (int f = 0; f < F; f++) {
      float diff = features[f * n + p] - c_centres[k * F + f];
      d += diff * diff;
    }
    if (d < bestd) bestd = d, best = k;
  }
  membership[p] = best;
}

int main(int argc, char **argv) {
  const char *usage = "kmeans [points [iterations]] (points a multiple of 256)";
  int n = bench_arg(argc, argv, 1, 65536, usage), iters = bench_arg(argc, argv, 2, 3, usage);
  if (n % THREADS) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return 2;
  }
  Buf<float> feat((size_t)F * n);
  Buf<int> member(n);
  Rng g(301);
  float truth[K][F], centres[K * F];
  for (int k = 0; k < K; k++)
    for (int f = 0; f < F; f++) truth[k][f] = g.uniform(-10.0f, 10.0f);
  for (int p = 0; p < n; p++) {
    int k = (int)g.below(K);
    for (int f = 0; f < F; f++) feat[(size_t)f * n + p] = truth[k][f] + g.uniform(-6.0f, 6.0f);
  }
  for (int k = 0; k < K; k++) // the first K points start as the centres
    for (int f = 0; f < F; f++) centres[k * F + f] = feat[(size_t)f * n + k];
  feat.up();
  int *want = (int *)std::malloc(n * sizeof(int));
  if (!want) return 1;
  int bad = 0;
  for (int it = 0; it < iters; it++) {
    CK(cudaMemcpyToSymbol(c_centres, centres, sizeof centres));
    kmeansPoint<<<n / THREADS, THREADS>>>(feat.d, member.d, n);
    CK_LAUNCH();
    member.down();
    int ties = 0;
    for (int p = 0; p < n; p++) {
      float d[K];
      int best = 0;
      for (int k = 0; k < K; k++) {
        d[k] = 0.0f;
        for (int f = 0; f < F; f++) {
          float diff = feat[(size_t)f * n + p] - centres[k * F + f];
          d[k] += diff * diff;
        }
        if (d[k] < d[best]) best = k;
      }
      want[p] = best;
      // a point almost equidistant from two centres may go either way with fused arithmetic
      int m = member[p];
      if (m != best && m >= 0 && m < K && std::fabs(d[m] - d[best]) <= 1e-5f * d[best]) want[p] = m, ties++;
    }
    bad += bench_compare("membership", member.h, want, n, 0, 0);
    double sum[K][F] = {{0}};
    int count[K] = {0};
    for (int p = 0; p < n; p++) {
      count[member[p]]++;
      for (int f = 0; f < F; f++) sum[member[p]][f] += feat[(size_t)f * n + p];
    }
    for (int k = 0; k < K; k++)
      for (int f = 0; f < F; f++)
        if (count[k]) centres[k * F + f] = (float)(sum[k][f] / count[k]);
    if (ties) std::printf("kmeans: iteration %d: %d near-ties\n", it, ties);
  }
  std::free(want);
  return bench_done("kmeans", bad);
}
