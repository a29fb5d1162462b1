// pathfinder: the cheapest path from the top row to the bottom row of a grid of weights, moving
// one row down and at most one column sideways per step (Rodinia's PathFinder dynamic
// programme): cost[r][c] = w[r][c] + min(cost[r-1][c-1], cost[r-1][c], cost[r-1][c+1]).
// dynproc_kernel advances the cost row by up to PYRAMID rows per launch: a 256-thread block
// owns 256 columns, including a halo of PYRAMID columns on each side that shrinks by one per
// row, keeps the previous and the new row in shared memory (2 x 1 KB) and synchronises after
// every row; it writes its 256 - 2 PYRAMID inner columns.
//
// Row: WarpMan's PF (warpman Table 2: Rodinia PathFinder, 8 warps and 2 KB of shared memory
// per TB, 3228 registers per TB = 12.6 per thread, 6 TBs/SM on the GTX 480, limited by
// threads). Input (seeded weights 0-9): 30,000 columns x 81 rows, PYRAMID = 20 (4 launches of
// 139 TBs). Usage: pathfinder [cols [rows]].
#include "../common/bench.h"

#define THREADS 256
#define PYRAMID 20

__global__ void dynproc_kernel(const int *__restrict__ wall, const int *__restrict__ src,
                               int *__restrict__ dst, int cols, int row0, int steps) {
  __shared__ int prev[THREADS], next[THREADS];
  int tx = threadIdx.x, small = THREADS - 2 * PYRAMID;
  int c = blockIdx.x * small - PYRAMID + tx; // this thread's column
  bool in = c >= 0 && c < cols;
  if (in) prev[tx] = src[c];
  __syncthreads();
  // neighbours within the block; at the grid's edges a cell has only two predecessors
  int l = c > 0 ? tx - 1 : tx, r = c < cols - 1 ? tx + 1 : tx;
  bool computed = false;
  for (int k = 0; k < steps; k++) {
    computed = in && tx > k && tx < THREADS - 1 - k;
    if (computed) next[tx] = wall[(row0 + k) * cols + c] + min(prev[tx], min(prev[l], prev[r]));
    __syncthreads();
    if (k == steps - 1) break;
    if (computed) prev[tx] = next[tx];
    __syncthreads();
  }
  if (computed) dst[c] = next[tx];
}

int main(int argc, char **argv) {
  const char *usage = "pathfinder [cols [rows]]";
  int cols = bench_arg(argc, argv, 1, 30000, usage), rows = bench_arg(argc, argv, 2, 81, usage);
  Buf<int> wall((size_t)rows * cols), a(cols), b(cols);
  Rng r(71);
  for (size_t i = 0; i < wall.n; i++) wall[i] = (int)r.below(10);
  for (int c = 0; c < cols; c++) a[c] = wall[c];
  wall.up();
  a.up();
  int small = THREADS - 2 * PYRAMID, blocks = (cols + small - 1) / small;
  int *src = a.d, *dst = b.d;
  for (int row = 1; row < rows; row += PYRAMID) {
    int steps = rows - row < PYRAMID ? rows - row : PYRAMID;
    dynproc_kernel<<<blocks, THREADS>>>(wall.d, src, dst, cols, row, steps);
    CK_LAUNCH();
    int *t = src;
    src = dst;
    dst = t;
  }
  int *got = (int *)std::malloc(cols * sizeof(int)), *cost = (int *)std::malloc(cols * sizeof(int)),
      *next = (int *)std::malloc(cols * sizeof(int));
  if (!got || !cost || !next) return 1;
  CK(cudaMemcpy(got, src, cols * sizeof(int), cudaMemcpyDeviceToHost));
  for (int c = 0; c < cols; c++) cost[c] = wall[c];
  for (int row = 1; row < rows; row++) {
    for (int c = 0; c < cols; c++) {
      int m = cost[c];
      if (c > 0 && cost[c - 1] < m) m = cost[c - 1];
      if (c < cols - 1 && cost[c + 1] < m) m = cost[c + 1];
      next[c] = wall[(size_t)row * cols + c] + m;
    }
    std::memcpy(cost, next, cols * sizeof(int));
  }
  int bad = bench_compare("cost", got, cost, cols, 0.0, 0.0);
  std::free(got);
  std::free(cost);
  std::free(next);
  return bench_done("pathfinder", bad);
}
