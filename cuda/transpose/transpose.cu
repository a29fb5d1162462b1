// transpose: out = in^T for a float matrix through shared-memory tiles (the CUDA SDK's
// transposeCoalesced): a 32 x 8 block moves a 32 x 32 tile, each thread four elements: it
// reads rows of the tile from the input (coalesced), writes them into a 32 x 33 shared tile
// (the extra column keeps the column reads free of bank conflicts: 4224 B), synchronises, and
// writes the tile's columns as rows of the output (coalesced again).
// Row: FineReg's TR (Type-R). Input (seeded): a 1536 x 1536 matrix (48 x 48 = 2304 blocks),
// transposed twice (there and back). Usage: transpose [side], a multiple of 32.
#include "../common/bench.h"

#define TILE 32
#define ROWS 8

__global__ void transposeCoalesced(float *out, const float *in, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
  for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv) {
  int side = bench_arg(argc, argv, 1, 1536, "transpose [side] (a multiple of 32)");
  if (side % TILE) {
    std::fprintf(stderr, "usage: transpose [side] (a multiple of 32)\n");
    return 2;
  }
  size_t n = (size_t)side * side;
  Buf<float> a(n), b(n), c(n);
  Rng g(311);
  for (size_t i = 0; i < n; i++) a[i] = g.uniform(-1.0f, 1.0f);
  a.up();
  dim3 grid(side / TILE, side / TILE), block(TILE, ROWS);
  transposeCoalesced<<<grid, block>>>(b.d, a.d, side, side);
  CK_LAUNCH();
  transposeCoalesced<<<grid, block>>>(c.d, b.d, side, side);
  CK_LAUNCH();
  b.down(), c.down();
  float *want = (float *)std::malloc(n * sizeof(float));
  if (!want) return 1;
  for (int y = 0; y < side; y++)
    for (int x = 0; x < side; x++) want[(size_t)x * side + y] = a[(size_t)y * side + x];
  int bad = bench_compare("transposed", b.h, want, n, 0, 0) + bench_compare("back", c.h, a.h, n, 0, 0);
  std::free(want);
  return bench_done("transpose", bad);
}
