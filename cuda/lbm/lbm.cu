// lbm: a lattice-Boltzmann fluid simulation on the D3Q19 lattice with the BGK collision
// operator (the method of Parboil's lbm): every time step, each cell pulls its 19 particle
// distributions from the neighbours they stream from (periodic boundaries), forms density and
// velocity, relaxes each distribution towards its equilibrium
//   f_eq = w_q rho (1 + 3 c_q.u + 4.5 (c_q.u)^2 - 1.5 u.u),
// and stores them; obstacle cells bounce every distribution back. performStreamCollide runs
// one thread per cell, a 100-thread block per row of the lattice (4 warps, the last with 4
// lanes), distributions stored one array per direction (coalesced along the row): 19 loads
// and 19 stores around ~250 floating-point operations per cell.
// Row: FineReg's LB (Parboil lbm, Type-R). Input (seeded obstacles): a 100 x 16 x 16 lattice
// (256 blocks), 2 time steps. Usage: lbm [steps].
#include "../common/bench.h"

#define NX 100
#define NY 16
#define NZ 16
#define NQ 19
#define OMEGA 1.2f

struct Lattice {
  int c[NQ][3];
  float w[NQ];
  int opp[NQ];
};
__constant__ Lattice c_lat;

__host__ __device__ inline void cell_update(const Lattice &L, const float *src, float *dst, const char *solid,
                                            int x, int y, int z) {
  const int n = NX * NY * NZ, i = (z * NY + y) * NX + x;
  float f[NQ];
  for (int q = 0; q < NQ; q++) { // streaming: pull from the cell the distribution comes from
    int sx = x - L.c[q][0], sy = y - L.c[q][1], sz = z - L.c[q][2];
    sx += sx < 0 ? NX : sx >= NX ? -NX : 0;
    sy += sy < 0 ? NY : sy >= NY ? -NY : 0;
    sz += sz < 0 ? NZ : sz >= NZ ? -NZ : 0;
    f[q] = src[q * n + (sz * NY + sy) * NX + sx];
  }
  if (solid[i]) {
    for (int q = 0; q < NQ; q++) dst[q * n + i] = f[L.opp[q]];
    return;
  }
  float rho = 0.0f, ux = 0.0f, uy = 0.0f, uz = 0.0f;
  for (int q = 0; q < NQ; q++) {
    rho += f[q];
    ux += f[q] * L.c[q][0], uy += f[q] * L.c[q][1], uz += f[q] * L.c[q][2];
  }
  ux /= rho, uy /= rho, uz /= rho;
  float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
  for (int q = 0; q < NQ; q++) {
    float cu = L.c[q][0] * ux + L.c[q][1] * uy + L.c[q][2] * uz;
    float feq = L.w[q] * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2);
    dst[q * n + i] = f[q] - OMEGA * (f[q] - feq);
  }
}

__global__ void performStreamCollide(const float *src, float *dst, const char *solid) {
  cell_update(c_lat, src, dst, solid, threadIdx.x, blockIdx.x, blockIdx.y);
}

int main(int argc, char **argv) {
  int steps = bench_arg(argc, argv, 1, 2, "lbm [steps]");
  Lattice L;
  int q = 0;
  for (int dz = -1; dz <= 1; dz++)
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        int m = dx * dx + dy * dy + dz * dz;
        if (m == 3) continue; // D3Q19: no corner directions
        L.c[q][0] = dx, L.c[q][1] = dy, L.c[q][2] = dz;
        L.w[q] = m == 0 ? 1.0f / 3 : m == 1 ? 1.0f / 18 : 1.0f / 36;
        q++;
      }
  for (int a = 0; a < NQ; a++)
    for (int b = 0; b < NQ; b++)
      if (L.c[a][0] == -L.c[b][0] && L.c[a][1] == -L.c[b][1] && L.c[a][2] == -L.c[b][2]) L.opp[a] = b;
  CK(cudaMemcpyToSymbol(c_lat, &L, sizeof L));
  const int n = NX * NY * NZ;
  Buf<float> a((size_t)NQ * n), b((size_t)NQ * n);
  Buf<char> solid(n);
  Rng g(331);
  for (int i = 0; i < n; i++) {
    solid[i] = g.below(20) == 0;
    for (int k = 0; k < NQ; k++) a[(size_t)k * n + i] = L.w[k] * g.uniform(0.95f, 1.05f);
  }
  float *ha = (float *)std::malloc(a.bytes()), *hb = (float *)std::malloc(a.bytes());
  if (!ha || !hb) return 1;
  std::memcpy(ha, a.h, a.bytes());
  a.up(), solid.up();
  float *src = a.d, *dst = b.d;
  for (int s = 0; s < steps; s++) {
    performStreamCollide<<<dim3(NY, NZ), NX>>>(src, dst, solid.d);
    CK_LAUNCH();
    float *t = src;
    src = dst, dst = t;
    for (int z = 0; z < NZ; z++)
      for (int y = 0; y < NY; y++)
        for (int x = 0; x < NX; x++) cell_update(L, ha, hb, solid.h, x, y, z);
    float *u = ha;
    ha = hb, hb = u;
  }
  CK(cudaMemcpy(b.h, src, b.bytes(), cudaMemcpyDeviceToHost));
  int bad = bench_compare("distribution", b.h, ha, b.n, 1e-5, 1e-7);
  std::free(ha), std::free(hb);
  return bench_done("lbm", bad);
}
