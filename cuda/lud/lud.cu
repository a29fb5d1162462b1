// lud: blocked LU decomposition without pivoting (Rodinia's lud), 16 x 16 blocks. For each
// block column d:
//   lud_diagonal: one 16-thread block factors the diagonal block in shared memory;
//   lud_perimeter: one 32-thread block per remaining block of the row and the column strips:
//     threads 0-15 solve L_dd U = A for a block to the right (one column each), threads 16-31
//     solve L U_dd = A for a block below (one row each), with the diagonal block and both
//     strip blocks in shared memory (3 x 1 KB = 3072 B): register sharing Set-2 (Rodinia lud
//     lud_perimeter, 32 threads, 36 registers, limited by the 8 block slots);
//   lud_internal: one 16 x 16 block per trailing block subtracts L_col U_row, both staged in
//     shared memory.
// nvcc 11.8 needs 32 registers for lud_perimeter; the trace allocates the paper's 36
// (trace.flags).
// Input (seeded, diagonally dominant): n = 384 (24 block columns; 276 perimeter blocks and
// 4324 internal blocks in all). Usage: lud [blocks_per_side].
#include "../common/bench.h"

#define BS 16

__global__ void lud_diagonal(float *a, int n, int d) {
  __shared__ float s[BS][BS];
  int t = threadIdx.x, o = d * BS;
  for (int j = 0; j < BS; j++) s[t][j] = a[(o + t) * n + o + j];
  for (int k = 0; k < BS; k++) {
    __syncthreads();
    if (t > k) s[t][k] /= s[k][k];
    __syncthreads();
    if (t > k)
      for (int j = k + 1; j < BS; j++) s[t][j] -= s[t][k] * s[k][j];
  }
  __syncthreads();
  for (int j = 0; j < BS; j++) a[(o + t) * n + o + j] = s[t][j];
}

__global__ void lud_perimeter(float *a, int n, int d) {
  __shared__ float dia[BS][BS], row[BS][BS], col[BS][BS];
  int t = threadIdx.x, o = d * BS, b = o + (blockIdx.x + 1) * BS; // the strip blocks' offset
  if (t < BS) {
    for (int i = 0; i < BS; i++) dia[i][t] = a[(o + i) * n + o + t], row[i][t] = a[(o + i) * n + b + t];
  } else {
    int i = t - BS;
    for (int j = 0; j < BS; j++) col[i][j] = a[(b + i) * n + o + j];
  }
  __syncthreads();
  if (t < BS) { // column t of U: forward substitution with the unit lower triangle
    for (int i = 1; i < BS; i++)
      for (int k = 0; k < i; k++) row[i][t] -= dia[i][k] * row[k][t];
  } else { // row t - 16 of L: against the upper triangle
    int i = t - BS;
    for (int j = 0; j < BS; j++) {
      for (int k = 0; k < j; k++) col[i][j] -= col[i][k] * dia[k][j];
      col[i][j] /= dia[j][j];
    }
  }
  __syncthreads();
  if (t < BS) {
    for (int i = 0; i < BS; i++) a[(o + i) * n + b + t] = row[i][t];
  } else {
    int i = t - BS;
    for (int j = 0; j < BS; j++) a[(b + i) * n + o + j] = col[i][j];
  }
}

__global__ void lud_internal(float *a, int n, int d) {
  __shared__ float l[BS][BS], u[BS][BS];
  int tx = threadIdx.x, ty = threadIdx.y, o = d * BS;
  int r0 = o + (blockIdx.y + 1) * BS, c0 = o + (blockIdx.x + 1) * BS;
  l[ty][tx] = a[(r0 + ty) * n + o + tx];
  u[ty][tx] = a[(o + ty) * n + c0 + tx];
  __syncthreads();
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < BS; k++) s += l[ty][k] * u[k][tx];
  a[(r0 + ty) * n + c0 + tx] -= s;
}

int main(int argc, char **argv) {
  int nb = bench_arg(argc, argv, 1, 24, "lud [blocks_per_side]"), n = nb * BS;
  Buf<float> a((size_t)n * n);
  Rng r(221);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) a[(size_t)i * n + j] = r.uniform(0.0f, 1.0f);
    a[(size_t)i * n + i] += (float)n;
  }
  double *h = (double *)std::malloc(a.n * sizeof(double));
  float *want = (float *)std::malloc(a.bytes());
  if (!h || !want) return 1;
  for (size_t i = 0; i < a.n; i++) h[i] = a[i];
  a.up();
  for (int d = 0; d < nb; d++) {
    lud_diagonal<<<1, BS>>>(a.d, n, d);
    CK_LAUNCH();
    if (d == nb - 1) break;
    lud_perimeter<<<nb - 1 - d, 2 * BS>>>(a.d, n, d);
    CK_LAUNCH();
    lud_internal<<<dim3(nb - 1 - d, nb - 1 - d), dim3(BS, BS)>>>(a.d, n, d);
    CK_LAUNCH();
  }
  a.down();
  for (int k = 0; k < n; k++) // Doolittle in double: L below the diagonal (unit), U on and above
    for (int i = k + 1; i < n; i++) {
      h[(size_t)i * n + k] /= h[(size_t)k * n + k];
      for (int j = k + 1; j < n; j++) h[(size_t)i * n + j] -= h[(size_t)i * n + k] * h[(size_t)k * n + j];
    }
  for (size_t i = 0; i < a.n; i++) want[i] = (float)h[i];
  int bad = bench_compare("lu", a.h, want, a.n, 1e-4, 1e-5);
  std::free(h), std::free(want);
  return bench_done("lud", bad);
}
