// lavamd: particle interactions in a box-decomposed 3-D space (Rodinia's lavaMD): each box
// holds 100 charged particles, and one 128-thread block per home box computes, for each of its
// particles, the potential and force from the particles of the home box and of its neighbour
// boxes, with a Gaussian-like kernel exp(-a^2 r^2) in double precision. The block stages its
// home box's positions in shared memory, then per neighbour box that box's positions and
// charges (positions as four doubles: 100 x 32 B twice, charges 100 x 8 B: 7200 B), with a
// __syncthreads() after each staging and after each box's interactions; threads 100-127 only
// help with the staging.
// Rows: scratchpad sharing Set-2 (Rodinia lavaMD kernel_gpu_cuda, 128 threads, 7200 B of
// scratchpad: 2 TBs/SM with the Tesla C2050's 16 KB, 4 with 90% sharing) and register sharing
// Set-2 (128 threads, 40 registers, limited by shared memory).
// The neighbours are the home box and its six face neighbours (Rodinia takes all 26): the
// instruction count stays traceable while every block still stages seven boxes.
// Input (seeded): 4 x 4 x 4 boxes (64 TBs). Usage: lavamd [boxes_per_side].
#include "../common/bench.h"

#define PAR 100
#define THREADS 128
#define A2 2.0

struct Vec4 {
  double v, x, y, z; // v holds x^2 + y^2 + z^2
};

__host__ __device__ inline void interact(const Vec4 &a, const Vec4 &b, double q, Vec4 &f) {
  double r2 = a.v + b.v - (a.x * b.x + a.y * b.y + a.z * b.z);
  double vij = exp(-A2 * r2), fs = 2.0 * vij;
  f.v += q * vij;
  f.x += q * fs * (a.x - b.x);
  f.y += q * fs * (a.y - b.y);
  f.z += q * fs * (a.z - b.z);
}

// the home box and its face neighbours inside the space: their indices into nb, the count
__host__ __device__ inline int neighbours(int box, int side, int *nb) {
  int x = box % side, y = box / side % side, z = box / (side * side), n = 0;
  nb[n++] = box;
  if (x > 0) nb[n++] = box - 1;
  if (x < side - 1) nb[n++] = box + 1;
  if (y > 0) nb[n++] = box - side;
  if (y < side - 1) nb[n++] = box + side;
  if (z > 0) nb[n++] = box - side * side;
  if (z < side - 1) nb[n++] = box + side * side;
  return n;
}

__global__ void kernel_gpu_cuda(const Vec4 *rv, const double *qv, Vec4 *fv, int side) {
  __shared__ Vec4 rA[PAR], rB[PAR];
  __shared__ double qB[PAR];
  int t = threadIdx.x, home = blockIdx.x;
  if (t < PAR) rA[t] = rv[home * PAR + t];
  Vec4 f = {0, 0, 0, 0};
  int nb[7], n = neighbours(home, side, nb);
  for (int k = 0; k < n; k++) {
    if (t < PAR) {
      rB[t] = rv[nb[k] * PAR + t];
      qB[t] = qv[nb[k] * PAR + t];
    }
    __syncthreads();
    if (t < PAR)
      for (int j = 0; j < PAR; j++) interact(rA[t], rB[j], qB[j], f);
    __syncthreads();
  }
  if (t < PAR) fv[home * PAR + t] = f;
}

int main(int argc, char **argv) {
  int side = bench_arg(argc, argv, 1, 4, "lavamd [boxes_per_side]"), boxes = side * side * side;
  Buf<Vec4> rv((size_t)boxes * PAR), fv((size_t)boxes * PAR);
  Buf<double> qv((size_t)boxes * PAR);
  Rng r(211);
  for (size_t i = 0; i < rv.n; i++) {
    double x = r.uniform(0.1f, 1.0f), y = r.uniform(0.1f, 1.0f), z = r.uniform(0.1f, 1.0f);
    rv[i] = Vec4{x * x + y * y + z * z, x, y, z};
    qv[i] = r.uniform(0.1f, 1.0f);
  }
  rv.up(), qv.up();
  kernel_gpu_cuda<<<boxes, THREADS>>>(rv.d, qv.d, fv.d, side);
  CK_LAUNCH();
  fv.down();
  double *got = (double *)std::malloc(fv.n * 4 * sizeof(double)), *want = (double *)std::malloc(fv.n * 4 * sizeof(double));
  if (!got || !want) return 1;
  for (int home = 0; home < boxes; home++) {
    int nb[7], n = neighbours(home, side, nb);
    for (int i = 0; i < PAR; i++) {
      Vec4 f = {0, 0, 0, 0};
      for (int k = 0; k < n; k++)
        for (int j = 0; j < PAR; j++) interact(rv[home * PAR + i], rv[nb[k] * PAR + j], qv[nb[k] * PAR + j], f);
      size_t o = ((size_t)home * PAR + i) * 4;
      want[o] = f.v, want[o + 1] = f.x, want[o + 2] = f.y, want[o + 3] = f.z;
      const Vec4 &g = fv[(size_t)home * PAR + i];
      got[o] = g.v, got[o + 1] = g.x, got[o + 2] = g.y, got[o + 3] = g.z;
    }
  }
  // fused multiply-adds on the device: the sums agree to about 1e-13
  int bad = bench_compare("force", got, want, fv.n * 4, 1e-11, 1e-11);
  std::free(got), std::free(want);
  return bench_done("lavamd", bad);
}
