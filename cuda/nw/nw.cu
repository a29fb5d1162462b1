// nw: global alignment of two protein sequences by Needleman-Wunsch dynamic programming (the
// tiling of Rodinia's nw): score[i][j] = max(score[i-1][j-1] + sim(a_i, b_j),
// score[i-1][j] - gap, score[i][j-1] - gap) over an (n+1) x (n+1) matrix, processed as 16 x 16
// tiles along the anti-diagonals of tiles: needle_cuda_shared_1 for the upper-left half (one
// launch per tile diagonal, 1, 2, ... tiles), needle_cuda_shared_2 for the lower-right half.
// A 16-thread block (half a warp) stages its tile's similarities (16 x 16 ints) and its
// boundary (17 x 17 ints) in shared memory, 2180 B, then sweeps the tile's 31 cell diagonals
// with a __syncthreads() after each (thread t computes row t; only the threads on the
// diagonal work), and writes the tile back.
// Rows: scratchpad sharing Set-2 (Rodinia nw needle_cuda_shared_1 and _2: 16 threads,
// 2180 B, 7 TBs/SM with 16 KB, 8 with 90% sharing) and FineReg's NW (Type-S).
// Input (seeded): two sequences of 1024 residues (64 x 64 tiles, 127 launches), a random
// symmetric similarity table of 24 residues, gap penalty 10. Usage: nw [tiles_per_side].
#include "../common/bench.h"

#define BS 16
#define GAP 10

// the tile at tile row ty, tile column tx of the score matrix (cells 1..n), stride n + 1
__device__ void tile(int *score, const int *sim, int n, int ty, int tx) {
  __shared__ int t[BS + 1][BS + 1];
  __shared__ int ref[BS][BS];
  int k = threadIdx.x, w = n + 1, r0 = ty * BS, c0 = tx * BS; // cell (r0 + 1, c0 + 1) first
  for (int i = 0; i < BS; i++) ref[i][k] = sim[(r0 + i) * n + c0 + k];
  if (k == 0) t[0][0] = score[r0 * w + c0];
  t[k + 1][0] = score[(r0 + k + 1) * w + c0];
  t[0][k + 1] = score[r0 * w + c0 + k + 1];
  __syncthreads();
  for (int d = 0; d < 2 * BS - 1; d++) { // cell diagonal d: row k, column d - k
    int c = d - k;
    if (c >= 0 && c < BS) {
      int diag = t[k][c] + ref[k][c], up = t[k][c + 1] - GAP, left = t[k + 1][c] - GAP;
      t[k + 1][c + 1] = max(diag, max(up, left));
    }
    __syncthreads();
  }
  for (int i = 0; i < BS; i++) score[(r0 + i + 1) * w + c0 + k + 1] = t[i + 1][k + 1];
}

__global__ void needle_cuda_shared_1(int *score, const int *sim, int n, int diag) {
  tile(score, sim, n, diag - (int)blockIdx.x, (int)blockIdx.x); // tiles (diag - b, b)
}

__global__ void needle_cuda_shared_2(int *score, const int *sim, int n, int diag, int nb) {
  int tx = diag - (nb - 1) + (int)blockIdx.x;
  tile(score, sim, n, diag - tx, tx);
}

int main(int argc, char **argv) {
  int nb = bench_arg(argc, argv, 1, 64, "nw [tiles_per_side]"), n = nb * BS, w = n + 1;
  Rng r(241);
  int table[24][24];
  for (int i = 0; i < 24; i++)
    for (int j = 0; j <= i; j++) table[i][j] = table[j][i] = i == j ? 4 + (int)r.below(8) : (int)r.below(9) - 4;
  int *a = (int *)std::malloc(n * sizeof(int)), *b = (int *)std::malloc(n * sizeof(int));
  if (!a || !b) return 1;
  for (int i = 0; i < n; i++) a[i] = (int)r.below(24), b[i] = (int)r.below(24);
  Buf<int> score((size_t)w * w), sim((size_t)n * n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) sim[(size_t)i * n + j] = table[a[i]][b[j]];
  for (int i = 0; i <= n; i++) score[(size_t)i * w] = -i * GAP, score[i] = -i * GAP;
  int *want = (int *)std::malloc(score.bytes());
  if (!want) return 1;
  std::memcpy(want, score.h, score.bytes());
  score.up(), sim.up();
  for (int d = 0; d < nb; d++) {
    needle_cuda_shared_1<<<d + 1, BS>>>(score.d, sim.d, n, d);
    CK_LAUNCH();
  }
  for (int d = nb; d < 2 * nb - 1; d++) {
    needle_cuda_shared_2<<<2 * nb - 1 - d, BS>>>(score.d, sim.d, n, d, nb);
    CK_LAUNCH();
  }
  score.down();
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++) {
      int diag = want[(size_t)(i - 1) * w + j - 1] + sim[(size_t)(i - 1) * n + j - 1];
      int up = want[(size_t)(i - 1) * w + j] - GAP, left = want[(size_t)i * w + j - 1] - GAP;
      want[(size_t)i * w + j] = diag > up ? (diag > left ? diag : left) : (up > left ? up : left);
    }
  std::printf("nw: alignment score %d\n", score[(size_t)n * w + n]);
  int bad = bench_compare("score", score.h, want, score.n, 0, 0);
  std::free(a), std::free(b), std::free(want);
  return bench_done("nw", bad);
}
