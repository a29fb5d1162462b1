// libor: Monte Carlo valuation of a portfolio of swaptions under the LIBOR market model (Giles'
// LIBOR benchmark): each thread simulates one path of N forward rates over Nmat time steps,
//   L[i] *= exp(lambda_i (sqrt(dt) z_n - dt lambda_i / 2) + dt lambda_i v_i),
//   v_i = sum over j <= i of dt lambda_j L[j] / (1 + dt L[j]),
// then prices the portfolio on the path (discount factors and annuities from the final rates,
// the swaptions' payoffs, discounting back over the first Nmat periods). The rates, discount
// factors and annuities are per-thread arrays indexed by loop variables: they live in local
// memory, so every step loads and stores them (LDL/STL); the model's parameters are in
// constant memory and the normal increments are read from global memory.
// Row: register sharing Set-1 (GPGPU-Sim LIB, Pathcalc_Portfolio_KernelGPU, 192 threads, 36
// registers, 4 TBs/SM on the Tesla C2050, 8 with 90% sharing) and FineReg's LI (Type-R).
// Input (seeded normals): N = 20 rates, Nmat = 10 steps, 15 swaptions, 120 blocks of 192
// paths. Usage: libor [blocks].
#include "../common/bench.h"

#define NN 20
#define NMAT 10
#define NOPT 15
#define THREADS 192
#define DELTA 0.25f

struct Model {
  float lambda[NN], l0[NN], swaprate[NOPT];
  int maturity[NOPT];
};
__constant__ Model c_model;

__host__ __device__ inline float path_value(const Model &md, const float *z) {
  float L[NN], B[NN], S[NN];
  for (int i = 0; i < NN; i++) L[i] = md.l0[i];
  for (int n = 0; n < NMAT; n++) {
    float sqez = sqrtf(DELTA) * z[n], v = 0.0f;
    for (int i = n + 1; i < NN; i++) {
      float lam = md.lambda[i - n - 1], con1 = DELTA * lam;
      v += con1 * L[i] / (1.0f + DELTA * L[i]);
      L[i] *= expf(con1 * v + lam * (sqez - 0.5f * con1));
    }
  }
  float b = 1.0f, s = 0.0f;
  for (int n = NMAT; n < NN; n++) {
    b = b / (1.0f + DELTA * L[n]);
    s = s + DELTA * b;
    B[n] = b, S[n] = s;
  }
  float v = 0.0f;
  for (int i = 0; i < NOPT; i++) {
    int m = md.maturity[i] + NMAT - 1;
    float swapval = B[m] + md.swaprate[i] * S[m] - 1.0f;
    if (swapval < 0.0f) v += -100.0f * swapval;
  }
  for (int n = 0; n < NMAT; n++) v = v / (1.0f + DELTA * L[n]);
  return v;
}

__global__ void Pathcalc_Portfolio_KernelGPU(const float *z, float *value, int paths) {
  int p = blockIdx.x * THREADS + threadIdx.x;
  float zp[NMAT];
  for (int n = 0; n < NMAT; n++) zp[n] = z[n * paths + p]; // coalesced across the paths
  value[p] = path_value(c_model, zp);
}

int main(int argc, char **argv) {
  int blocks = bench_arg(argc, argv, 1, 120, "libor [blocks]"), paths = blocks * THREADS;
  Model md;
  Rng r(151);
  for (int i = 0; i < NN; i++) md.lambda[i] = 0.2f, md.l0[i] = 0.051f;
  static const int mat[NOPT] = {4, 4, 4, 8, 8, 8, 20, 20, 20, 28, 28, 28, 40, 40, 40};
  static const float rate[NOPT] = {.045f, .05f, .055f, .045f, .05f, .055f, .045f, .05f,
                                   .055f, .045f, .05f, .055f, .045f, .05f, .055f};
  for (int i = 0; i < NOPT; i++) md.maturity[i] = mat[i] * (NN - NMAT) / 40, md.swaprate[i] = rate[i];
  CK(cudaMemcpyToSymbol(c_model, &md, sizeof md));
  Buf<float> z((size_t)NMAT * paths), value(paths);
  for (size_t i = 0; i < z.n; i += 2) {
    double u1 = (r.next() + 1.0) / 4294967297.0, u2 = r.next() / 4294967296.0, m = std::sqrt(-2.0 * std::log(u1));
    z[i] = (float)(m * std::cos(6.283185307179586 * u2));
    if (i + 1 < z.n) z[i + 1] = (float)(m * std::sin(6.283185307179586 * u2));
  }
  z.up();
  Pathcalc_Portfolio_KernelGPU<<<blocks, THREADS>>>(z.d, value.d, paths);
  CK_LAUNCH();
  value.down();
  float *want = (float *)std::malloc(paths * sizeof(float));
  if (!want) return 1;
  double mean = 0;
  for (int p = 0; p < paths; p++) {
    float zp[NMAT];
    for (int n = 0; n < NMAT; n++) zp[n] = z[(size_t)n * paths + p];
    want[p] = path_value(md, zp);
    mean += want[p];
  }
  std::printf("libor: %d paths, mean portfolio value %.6f\n", paths, mean / paths);
  // payoffs near zero cancel (B + rate S - 1): an absolute floor well below the mean value
  int bad = bench_compare("value", value.h, want, paths, 1e-4, 2e-4);
  std::free(want);
  return bench_done("libor", bad);
}
