// mriq: the Q matrix of non-Cartesian MRI reconstruction (Parboil's MRI-Q): for every voxel x,
//   Q(x) = sum over k-space samples k of |phi(k)|^2 exp(2 pi i k . x),
// in two kernels, as Parboil runs it:
//   ComputePhiMag_GPU: |phi(k)|^2 = phiR^2 + phiI^2 per sample, 512 threads per block: register
//     sharing Set-2 / Set-3 (Parboil mri-q ComputePhiMag_GPU, 512 threads, 12 registers,
//     limited by threads);
//   ComputeQ_GPU: one thread per voxel keeps its coordinates and Q in registers and loops over
//     a chunk of samples held in constant memory (every thread of every block reads the same
//     sample at the same time: a broadcast), the sine and cosine on the special function unit;
//     the host launches it once per chunk: register sharing Set-1 (ComputeQ_GPU, 256 threads,
//     24 registers, 5 TBs/SM on the Tesla C2050, 6 with 90% sharing).
// nvcc 11.8 needs 30 registers for ComputeQ_GPU (build.flags caps it at 24) and 8 for
// ComputePhiMag_GPU (the trace allocates 12, trace.flags).
// Input (seeded): 30,720 voxels (120 blocks), 256 k-space samples in two chunks of 128.
// Usage: mriq [blocks].
#include "../common/bench.h"

#define CHUNK 128
#define NK 256
#define THREADS_Q 256
#define THREADS_PHI 512
#define PIX2 6.2831853071795864769f

struct KValue {
  float kx, ky, kz, phimag;
};
__constant__ KValue c_k[CHUNK];

__global__ void ComputePhiMag_GPU(const float *phiR, const float *phiI, float *phiMag, int n) {
  int i = blockIdx.x * THREADS_PHI + threadIdx.x;
  if (i < n) phiMag[i] = phiR[i] * phiR[i] + phiI[i] * phiI[i];
}

__global__ void ComputeQ_GPU(int nk, const float *x, const float *y, const float *z, float *qr, float *qi) {
  int v = blockIdx.x * THREADS_Q + threadIdx.x;
  float sx = x[v], sy = y[v], sz = z[v], r = qr[v], i = qi[v];
  for (int k = 0; k < nk; k++) {
    float arg = PIX2 * (c_k[k].kx * sx + c_k[k].ky * sy + c_k[k].kz * sz);
    r += c_k[k].phimag * __cosf(arg);
    i += c_k[k].phimag * __sinf(arg);
  }
  qr[v] = r;
  qi[v] = i;
}

int main(int argc, char **argv) {
  int blocks = bench_arg(argc, argv, 1, 120, "mriq [blocks]"), nv = blocks * THREADS_Q;
  Buf<float> phiR(NK), phiI(NK), phiMag(NK), kx(NK), ky(NK), kz(NK), x(nv), y(nv), z(nv), qr(nv), qi(nv);
  Rng r(171);
  for (int k = 0; k < NK; k++) {
    kx[k] = r.uniform(-0.5f, 0.5f), ky[k] = r.uniform(-0.5f, 0.5f), kz[k] = r.uniform(-0.5f, 0.5f);
    phiR[k] = r.uniform(-1.0f, 1.0f), phiI[k] = r.uniform(-1.0f, 1.0f);
  }
  for (int v = 0; v < nv; v++) x[v] = r.uniform(-1.0f, 1.0f), y[v] = r.uniform(-1.0f, 1.0f), z[v] = r.uniform(-1.0f, 1.0f);
  phiR.up(), phiI.up(), x.up(), y.up(), z.up(), qr.up(), qi.up(); // Q starts at 0
  ComputePhiMag_GPU<<<(NK + THREADS_PHI - 1) / THREADS_PHI, THREADS_PHI>>>(phiR.d, phiI.d, phiMag.d, NK);
  CK_LAUNCH();
  phiMag.down();
  float want_mag[NK];
  for (int k = 0; k < NK; k++) want_mag[k] = phiR[k] * phiR[k] + phiI[k] * phiI[k];
  int bad = bench_compare("phiMag", phiMag.h, want_mag, NK, 1e-6, 0.0);
  for (int c = 0; c < NK; c += CHUNK) {
    KValue kv[CHUNK];
    for (int k = 0; k < CHUNK; k++) kv[k] = KValue{kx[c + k], ky[c + k], kz[c + k], phiMag[c + k]};
    CK(cudaMemcpyToSymbol(c_k, kv, sizeof kv));
    ComputeQ_GPU<<<blocks, THREADS_Q>>>(CHUNK, x.d, y.d, z.d, qr.d, qi.d);
    CK_LAUNCH();
  }
  qr.down(), qi.down();
  float *wr = (float *)std::malloc(nv * sizeof(float)), *wi = (float *)std::malloc(nv * sizeof(float));
  if (!wr || !wi) return 1;
  for (int v = 0; v < nv; v++) {
    double sr = 0, si = 0;
    for (int k = 0; k < NK; k++) {
      double arg = 6.283185307179586 * ((double)kx[k] * x[v] + (double)ky[k] * y[v] + (double)kz[k] * z[v]);
      sr += phiMag[k] * std::cos(arg), si += phiMag[k] * std::sin(arg);
    }
    wr[v] = (float)sr, wi[v] = (float)si;
  }
  // the special function unit's sine and cosine are accurate to about 1e-6 here
  bad += bench_compare("Qr", qr.h, wr, nv, 1e-3, 2e-3) + bench_compare("Qi", qi.h, wi, nv, 1e-3, 2e-3);
  std::free(wr), std::free(wi);
  return bench_done("mriq", bad);
}
